#include "bowstring/table/record_batch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring {
namespace {

using testing::error_message;

using testing::make_array;
using testing::make_string_array;

/// An int64 array of 3 values whose values buffer holds only one: validation rejects it.
Array broken_int64_array() {
  return make_array(int64(), 3, {nullptr, testing::buffer_of(std::vector<int64_t>{1})});
}

SchemaPtr id_name_schema() { return schema({field("id", int64()), field("name", utf8())}); }

RecordBatch id_name_batch() {
  return RecordBatch(id_name_schema(), {make_array<int64_t>({1, 2, 3, 4}),
                                        make_string_array({"a", std::nullopt, "c", "d"})});
}

TEST(RecordBatch, Columns) {
  const RecordBatch batch = id_name_batch();
  EXPECT_EQ(batch.num_rows(), 4);
  EXPECT_EQ(batch.num_columns(), 2);
  EXPECT_EQ(batch.column(0).type_id(), TypeId::kInt64);
  EXPECT_EQ(batch.column("name").null_count(), 1);
  EXPECT_EQ(batch.column_name(1), "name");
  EXPECT_EQ(batch.columns().size(), 2u);
}

TEST(RecordBatch, ColumnLookupErrors) {
  const RecordBatch batch = id_name_batch();
  EXPECT_EQ(error_message<IndexError>([&] { batch.column(2); }),
            "column index 2 is outside a record batch of 2 columns ('id', 'name')");
  EXPECT_EQ(error_message<InvalidArgument>([&] { batch.column("Name"); }),
            "no field named 'Name' in the schema; fields are 'id', 'name'");
  const RecordBatch duplicated(schema({field("x", int64()), field("x", int64())}),
                               {make_array<int64_t>({1}), make_array<int64_t>({2})});
  EXPECT_EQ(duplicated.column(1).length(), 1);
  EXPECT_EQ(error_message<InvalidArgument>([&] { duplicated.column("x"); }),
            "field name 'x' is ambiguous: the schema has several fields of that name (at 0, 1)");
}

TEST(RecordBatch, ColumnCountMustMatchTheSchema) {
  EXPECT_EQ(error_message<InvalidArgument>(
                [] { RecordBatch(id_name_schema(), {make_array<int64_t>({1})}); }),
            "the schema has 2 fields ('id', 'name') but 1 columns were given");
}

TEST(RecordBatch, ColumnLengthsMustMatch) {
  EXPECT_EQ(
      error_message<InvalidArgument>([] {
        RecordBatch(id_name_schema(), {make_array<int64_t>({1, 2}), make_string_array({"a"})});
      }),
      "column 'name' (index 1) has 1 rows, expected 2");
  EXPECT_EQ(error_message<InvalidArgument>([] {
              RecordBatch(id_name_schema(), 3,
                          {make_array<int64_t>({1, 2}), make_string_array({"a", "b"})});
            }),
            "column 'id' (index 0) has 2 rows, expected 3");
}

TEST(RecordBatch, ColumnTypesMustMatchTheFields) {
  EXPECT_EQ(error_message<TypeError>([] {
              RecordBatch(id_name_schema(), {make_array<int64_t>({1}), make_array<int64_t>({2})});
            }),
            "column 'name' (index 1) has type int64 but its field has type string");
}

TEST(RecordBatch, MissingDataAndBadArguments) {
  EXPECT_EQ(error_message<InvalidArgument>([] {
              RecordBatch(id_name_schema(), {make_array<int64_t>({1}), Array()});
            }),
            "column 'name' (index 1) has no data");
  EXPECT_EQ(error_message<InvalidArgument>([] { RecordBatch(nullptr, {}); }),
            "a record batch needs a schema");
  EXPECT_EQ(error_message<InvalidArgument>([] { RecordBatch(schema({}), -1, {}); }),
            "a record batch cannot have -1 rows");
}

TEST(RecordBatch, NoColumns) {
  const RecordBatch empty(schema({}), {});
  EXPECT_EQ(empty.num_rows(), 0);
  const RecordBatch rows_only(schema({}), 5, {});
  EXPECT_EQ(rows_only.num_rows(), 5);
  EXPECT_EQ(rows_only.slice(1, 2).num_rows(), 2);
  EXPECT_EQ(rows_only.to_string(), "----");
}

TEST(RecordBatch, SliceIsZeroCopy) {
  const RecordBatch batch = id_name_batch();
  const RecordBatch sliced = batch.slice(1, 2);
  EXPECT_EQ(sliced.num_rows(), 2);
  EXPECT_EQ(sliced.schema(), batch.schema());
  EXPECT_EQ(sliced.column(0).data()->buffers[1], batch.column(0).data()->buffers[1]);
  EXPECT_EQ(sliced.column(1).offset(), 1);
  EXPECT_EQ(sliced.column(1).to_string(), R"([null "c"])");
  EXPECT_EQ(batch.slice(3).column(0).to_string(), "[4]");
  EXPECT_EQ(batch.slice(4).num_rows(), 0);
}

TEST(RecordBatch, SliceOfSlice) {
  const RecordBatch twice = id_name_batch().slice(1).slice(1, 2);
  EXPECT_EQ(twice.num_rows(), 2);
  EXPECT_EQ(twice.column(0).offset(), 2);
  EXPECT_EQ(twice.column(0).to_string(), "[3 4]");
  EXPECT_EQ(twice.column(1).to_string(), R"(["c" "d"])");
}

TEST(RecordBatch, SliceOutOfRange) {
  const RecordBatch batch = id_name_batch();
  EXPECT_EQ(error_message<IndexError>([&] { batch.slice(2, 3); }),
            "slice [2, +3) is outside a record batch of 4 rows");
  EXPECT_EQ(error_message<IndexError>([&] { batch.slice(5); }),
            "slice offset 5 is outside a record batch of 4 rows");
}

TEST(RecordBatch, Select) {
  const RecordBatch batch(
      schema({field("id", int64()), field("name", utf8())}, {{"source", "test"}}),
      {make_array<int64_t>({1}), make_string_array({"a"})});
  const RecordBatch selected = batch.select(std::vector<int>{1, 0, 1});
  EXPECT_EQ(selected.schema()->field_names(), (std::vector<std::string>{"name", "id", "name"}));
  EXPECT_EQ(selected.schema()->metadata(), batch.schema()->metadata());
  EXPECT_EQ(selected.column(1).data(), batch.column(0).data());
  const RecordBatch by_name = batch.select(std::vector<std::string>{"name"});
  EXPECT_EQ(by_name.num_columns(), 1);
  EXPECT_EQ(by_name.column(0).data(), batch.column(1).data());
  EXPECT_THROW(batch.select(std::vector<int>{2}), IndexError);
  EXPECT_THROW(batch.select(std::vector<std::string>{"missing"}), InvalidArgument);
}

TEST(RecordBatch, AddAndRemoveColumns) {
  const RecordBatch batch = id_name_batch();
  const RecordBatch added =
      batch.add_column(1, field("score", int64()), make_array<int64_t>({9, 8, 7, 6}));
  EXPECT_EQ(added.schema()->field_names(), (std::vector<std::string>{"id", "score", "name"}));
  EXPECT_EQ(added.column("score").to_string(), "[9 8 7 6]");
  EXPECT_EQ(batch.num_columns(), 2);
  EXPECT_EQ(error_message<InvalidArgument>(
                [&] { batch.add_column(0, field("short", int64()), make_array<int64_t>({1})); }),
            "column 'short' (index 0) has 1 rows, expected 4");
  EXPECT_THROW(batch.add_column(0, field("wrong", utf8()), make_array<int64_t>({1, 2, 3, 4})),
               TypeError);
  EXPECT_THROW(batch.add_column(3, field("far", int64()), make_array<int64_t>({1, 2, 3, 4})),
               IndexError);
  const RecordBatch removed = batch.remove_column(0);
  EXPECT_EQ(removed.schema()->field_names(), std::vector<std::string>{"name"});
  EXPECT_EQ(removed.num_rows(), 4);
  EXPECT_THROW(batch.remove_column(2), IndexError);
}

TEST(RecordBatch, Equals) {
  const RecordBatch batch = id_name_batch();
  EXPECT_TRUE(batch.equals(id_name_batch()));
  EXPECT_TRUE(batch.slice(1, 2).equals(batch.slice(1, 2)));
  EXPECT_FALSE(batch.equals(batch.slice(1)));
  const RecordBatch other_values(id_name_schema(),
                                 {make_array<int64_t>({1, 2, 3, 5}), batch.column(1)});
  EXPECT_FALSE(batch.equals(other_values));
  const RecordBatch with_metadata(id_name_schema()->with_metadata({{"k", "v"}}), batch.columns());
  EXPECT_TRUE(batch.equals(with_metadata));
  EXPECT_FALSE(batch.equals(with_metadata, /*check_metadata=*/true));
  const RecordBatch renamed(schema({field("id", int64()), field("label", utf8())}),
                            batch.columns());
  EXPECT_FALSE(batch.equals(renamed));
}

TEST(RecordBatch, EqualsWithOptions) {
  const SchemaPtr doubles = schema({field("x", float64())});
  const RecordBatch left(doubles, {make_array<double>({std::nan("")})});
  const RecordBatch right(doubles->with_metadata({{"k", "v"}}),
                          {make_array<double>({std::nan("")})});
  EqualOptions options;
  EXPECT_FALSE(left.equals(right, options));
  options.nans_equal = true;
  EXPECT_TRUE(left.equals(right, options));
  options.check_metadata = true;
  EXPECT_FALSE(left.equals(right, options));
}

TEST(RecordBatch, ValidateNamesTheColumn) {
  const RecordBatch batch(schema({field("ok", int64()), field("bad", int64())}),
                          {make_array<int64_t>({1, 2, 3}), broken_int64_array()});
  const std::string expected =
      "column 'bad' (index 1): buffer has 8 bytes, fewer than the 24 needed for offset 0 + length "
      "3 in buffer 1 (values) of int64";
  EXPECT_EQ(error_message<FormatError>([&] { batch.validate(); }), expected);
  EXPECT_EQ(error_message<FormatError>([&] { batch.validate_full(); }), expected);
  EXPECT_NO_THROW(id_name_batch().validate_full());
}

TEST(RecordBatch, ToString) {
  EXPECT_EQ(id_name_batch().to_string(),
            "id: int64\n"
            "name: string\n"
            "----\n"
            "id: [1 2 3 4]\n"
            R"(name: ["a" null "c" "d"])");
  PrettyPrintOptions options;
  options.window = 1;
  options.indent = 2;
  EXPECT_EQ(id_name_batch().slice(1).to_string(options),
            "  id: int64\n"
            "  name: string\n"
            "  ----\n"
            "  id: [2 ... 4]\n"
            R"(  name: [null ... "d"])");
}

}  // namespace
}  // namespace bowstring
