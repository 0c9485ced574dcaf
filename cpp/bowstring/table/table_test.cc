#include "bowstring/table/table.h"

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

/// Two batches of rows 1..5: [1 2 3] and [4 5].
std::vector<RecordBatch> id_name_batches() {
  return {
      RecordBatch(id_name_schema(),
                  {make_array<int64_t>({1, 2, 3}), make_string_array({"a", std::nullopt, "c"})}),
      RecordBatch(id_name_schema(), {make_array<int64_t>({4, 5}), make_string_array({"d", "e"})})};
}

/// Rows 1..5 with columns chunked differently: id as [1 2] [3 4 5], name as [a] [] [b c d e].
Table misaligned_table() {
  return Table(id_name_schema(),
               {ChunkedArray({make_array<int64_t>({1, 2}), make_array<int64_t>({3, 4, 5})}),
                ChunkedArray({make_string_array({"a"}), make_string_array({}),
                              make_string_array({"b", "c", "d", "e"})})});
}

TEST(Table, FromBatches) {
  const std::vector<RecordBatch> batches = id_name_batches();
  const Table table = Table::from_batches(batches);
  EXPECT_EQ(table.num_rows(), 5);
  EXPECT_EQ(table.num_columns(), 2);
  EXPECT_EQ(table.schema(), batches[0].schema());
  EXPECT_EQ(table.column(0).num_chunks(), 2);
  // Zero-copy: the batches' columns are the table's chunks.
  EXPECT_EQ(table.column("name").chunk(1).data(), batches[1].column(1).data());
  EXPECT_EQ(table.column(1).null_count(), 1);
}

TEST(Table, FromBatchesChecksTheSchemas) {
  const std::vector<RecordBatch> batches = id_name_batches();
  const RecordBatch renamed(schema({field("id", int64()), field("label", utf8())}),
                            batches[1].columns());
  EXPECT_EQ(error_message<InvalidArgument>([&] {
              Table::from_batches({batches[0], renamed});
            }),
            "record batch 1 does not match the table schema: field 1 is 'label: string', "
            "expected 'name: string'");
  const RecordBatch narrower(schema({field("id", int64())}), {make_array<int64_t>({1})});
  EXPECT_EQ(
      error_message<InvalidArgument>([&] { Table::from_batches(id_name_schema(), {narrower}); }),
      "record batch 0 does not match the table schema: it has 1 fields ('id'), the table "
      "has 2 ('id', 'name')");
  // Schema metadata does not matter.
  const RecordBatch with_metadata(id_name_schema()->with_metadata({{"k", "v"}}),
                                  batches[1].columns());
  EXPECT_EQ(Table::from_batches({batches[0], with_metadata}).num_rows(), 5);
  EXPECT_EQ(error_message<InvalidArgument>([] { Table::from_batches({}); }),
            "a table built from no record batches needs an explicit schema");
}

TEST(Table, EmptyTables) {
  const Table no_batches = Table::from_batches(id_name_schema(), {});
  EXPECT_EQ(no_batches.num_rows(), 0);
  EXPECT_EQ(no_batches.num_columns(), 2);
  EXPECT_EQ(no_batches.column(0).num_chunks(), 0);
  EXPECT_TRUE(no_batches.to_batches().empty());
  EXPECT_EQ(no_batches.slice(0).num_rows(), 0);
  EXPECT_EQ(no_batches.to_string(),
            "id: int64\n"
            "name: string\n"
            "----\n"
            "id: []\n"
            "name: []");
  const Table no_columns(schema({}), {});
  EXPECT_EQ(no_columns.num_rows(), 0);
  EXPECT_TRUE(no_columns.to_batches().empty());
  EXPECT_TRUE(no_batches.equals(Table::from_batches(id_name_schema(), {})));
}

TEST(Table, RowsWithoutColumns) {
  const Table table(schema({}), 5, {});
  const std::vector<RecordBatch> batches = table.to_batches(2);
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[2].num_rows(), 1);
  EXPECT_EQ(table.slice(1, 3).num_rows(), 3);
}

TEST(Table, ConstructorChecks) {
  const ChunkedArray ids(make_array<int64_t>({1, 2}));
  EXPECT_EQ(error_message<InvalidArgument>([&] { Table(id_name_schema(), {ids}); }),
            "the schema has 2 fields ('id', 'name') but 1 columns were given");
  EXPECT_EQ(error_message<InvalidArgument>([&] {
              Table(id_name_schema(), {ids, ChunkedArray(make_string_array({"a"}))});
            }),
            "column 'name' (index 1) has 1 rows, expected 2");
  EXPECT_EQ(error_message<TypeError>([&] {
              Table(id_name_schema(), {ids, ids});
            }),
            "column 'name' (index 1) has type int64 but its field has type string");
  EXPECT_EQ(error_message<InvalidArgument>([] { Table(nullptr, {}); }), "a table needs a schema");
  EXPECT_EQ(error_message<InvalidArgument>([] { Table(schema({}), -2, {}); }),
            "a table cannot have -2 rows");
}

TEST(Table, ColumnLookupErrors) {
  const Table table = misaligned_table();
  EXPECT_EQ(error_message<IndexError>([&] { table.column(-1); }),
            "column index -1 is outside a table of 2 columns ('id', 'name')");
  EXPECT_EQ(error_message<InvalidArgument>([&] { table.column("ID"); }),
            "no field named 'ID' in the schema; fields are 'id', 'name'");
}

TEST(Table, SliceIsZeroCopyAcrossChunks) {
  const Table table = misaligned_table();
  const Table sliced = table.slice(1, 3);
  EXPECT_EQ(sliced.num_rows(), 3);
  EXPECT_EQ(sliced.column(0).to_string(), "[[2] [3 4]]");
  EXPECT_EQ(sliced.column(1).to_string(), R"([["b" "c" "d"]])");
  EXPECT_EQ(sliced.column(0).chunk(1).data()->buffers[1],
            table.column(0).chunk(1).data()->buffers[1]);
  EXPECT_EQ(table.slice(5).num_rows(), 0);
  EXPECT_EQ(error_message<IndexError>([&] { table.slice(3, 3); }),
            "slice [3, +3) is outside a table of 5 rows");
  EXPECT_EQ(error_message<IndexError>([&] { table.slice(6); }),
            "slice offset 6 is outside a table of 5 rows");
}

TEST(Table, SliceOfSlice) {
  const Table twice = misaligned_table().slice(1).slice(2, 2);
  EXPECT_EQ(twice.num_rows(), 2);
  EXPECT_EQ(twice.column(0).to_string(), "[[4 5]]");
  EXPECT_EQ(twice.column(0).chunk(0).offset(), 1);
  EXPECT_EQ(twice.column(1).to_string(), R"([["d" "e"]])");
  EXPECT_EQ(twice.column(1).chunk(0).offset(), 2);
}

TEST(Table, ToBatchesSplitsAtEveryChunkBoundary) {
  const Table table = misaligned_table();
  const std::vector<RecordBatch> batches = table.to_batches();
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[0].to_string(),
            "id: int64\nname: string\n----\n"
            "id: [1]\n"
            R"(name: ["a"])");
  EXPECT_EQ(batches[1].column(0).to_string(), "[2]");
  EXPECT_EQ(batches[1].column(1).to_string(), R"(["b"])");
  EXPECT_EQ(batches[2].column(0).to_string(), "[3 4 5]");
  EXPECT_EQ(batches[2].column(1).to_string(), R"(["c" "d" "e"])");
  // Whole chunks are passed through; parts are zero-copy slices.
  EXPECT_EQ(batches[2].column(0).data(), table.column(0).chunk(1).data());
}

TEST(Table, ToBatchesWithARowLimit) {
  const std::vector<RecordBatch> batches = misaligned_table().to_batches(2);
  std::vector<int64_t> sizes;
  sizes.reserve(batches.size());
  for (const RecordBatch& batch : batches) {
    sizes.push_back(batch.num_rows());
  }
  EXPECT_EQ(sizes, (std::vector<int64_t>{1, 1, 2, 1}));
  EXPECT_EQ(batches[3].column(1).to_string(), R"(["e"])");
}

TEST(Table, RoundTripThroughBatches) {
  const Table table = Table::from_batches(id_name_batches());
  const Table again = Table::from_batches(table.to_batches());
  EXPECT_TRUE(again.equals(table));
  EXPECT_TRUE(Table::from_batches(misaligned_table().to_batches()).equals(misaligned_table()));
}

TEST(Table, CombineChunks) {
  const Table table = misaligned_table().slice(1);
  const Table combined = table.combine_chunks();
  EXPECT_EQ(combined.column(0).num_chunks(), 1);
  EXPECT_EQ(combined.column(1).num_chunks(), 1);
  EXPECT_TRUE(combined.equals(table));
  EXPECT_EQ(combined.to_batches().size(), 1u);
  EXPECT_EQ(combined.to_string(),
            "id: int64\n"
            "name: string\n"
            "----\n"
            "id: [[2 3 4 5]]\n"
            R"(name: [["b" "c" "d" "e"]])");
}

TEST(Table, BatchReader) {
  TableBatchReader reader(misaligned_table().slice(1), 10);
  EXPECT_EQ(reader.schema()->field_names(), (std::vector<std::string>{"id", "name"}));
  std::optional<RecordBatch> first = reader.next();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->column(0).to_string(), "[2]");
  std::optional<RecordBatch> second = reader.next();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->column(1).to_string(), R"(["c" "d" "e"])");
  EXPECT_FALSE(reader.next().has_value());
  EXPECT_FALSE(reader.next().has_value());
}

TEST(Table, ReaderReadAllKeepsSchemaWithoutBatches) {
  const Table table = misaligned_table();
  TableBatchReader reader(table, 2);
  const Table read = reader.read_all();
  EXPECT_TRUE(read.equals(table));
  EXPECT_GT(read.column(0).num_chunks(), 1);
  const Table rest = reader.read_all();
  EXPECT_EQ(rest.num_rows(), 0);
  EXPECT_EQ(rest.schema()->field_names(), (std::vector<std::string>{"id", "name"}));
}

TEST(Table, Equals) {
  const Table table = Table::from_batches(id_name_batches());
  EXPECT_TRUE(table.equals(table.slice(0)));
  EXPECT_FALSE(table.equals(table.slice(1)));
  const Table single_chunk(id_name_schema(),
                           {ChunkedArray(make_array<int64_t>({1, 2, 3, 4, 5})),
                            ChunkedArray(make_string_array({"a", std::nullopt, "c", "d", "e"}))});
  EXPECT_TRUE(table.equals(single_chunk));
  EXPECT_FALSE(table.equals(misaligned_table()));  // the names differ in row 2
  const Table with_metadata(id_name_schema()->with_metadata({{"k", "v"}}), table.columns());
  EXPECT_TRUE(table.equals(with_metadata));
  EXPECT_FALSE(table.equals(with_metadata, /*check_metadata=*/true));
}

TEST(Table, EqualsWithOptions) {
  const SchemaPtr doubles = schema({field("x", float64())});
  const Table left(doubles,
                   {ChunkedArray({make_array<double>({1.0}), make_array<double>({std::nan("")})})});
  const Table right(doubles->with_metadata({{"k", "v"}}),
                    {ChunkedArray(make_array<double>({1.0, std::nan("")}))});
  EqualOptions options;
  EXPECT_FALSE(left.equals(right, options));
  options.nans_equal = true;
  EXPECT_TRUE(left.equals(right, options));
  options.check_metadata = true;
  EXPECT_FALSE(left.equals(right, options));
}

TEST(Table, ValidateNamesTheColumnAndChunk) {
  const Table table(schema({field("n", int64())}),
                    {ChunkedArray({make_array<int64_t>({1}), broken_int64_array()})});
  const std::string expected =
      "column 'n' (index 0), chunk 1: buffer has 8 bytes, fewer than the 24 needed for offset 0 + "
      "length 3 in buffer 1 (values) of int64";
  EXPECT_EQ(error_message<FormatError>([&] { table.validate(); }), expected);
  EXPECT_EQ(error_message<FormatError>([&] { table.validate_full(); }), expected);
  EXPECT_NO_THROW(misaligned_table().validate_full());
}

TEST(Table, ToString) {
  EXPECT_EQ(misaligned_table().to_string(),
            "id: int64\n"
            "name: string\n"
            "----\n"
            "id: [[1 2] [3 4 5]]\n"
            R"(name: [["a"] [] ["b" "c" "d" "e"]])");
  PrettyPrintOptions options;
  options.window = 1;
  EXPECT_EQ(misaligned_table().to_string(options),
            "id: int64\n"
            "name: string\n"
            "----\n"
            "id: [[1 2] [3 ... 5]]\n"
            R"(name: [["a"] ... ["b" ... "e"]])");
}

}  // namespace
}  // namespace bowstring
