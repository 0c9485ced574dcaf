#include "bowstring/array/builder_union.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_nested.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/builder_run_end_encoded.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring {
namespace {

using testing::make_array;
using testing::make_string_array;

/// A value of a union<int64, utf8>: nullopt for null.
using Value = std::optional<std::variant<int64_t, std::string>>;

std::vector<Value> union_values(const Array& array) {
  UnionArray view(array);
  std::vector<Value> out;
  for (int64_t i = 0; i < view.length(); ++i) {
    if (view.is_null(i)) {
      out.emplace_back(std::nullopt);
      continue;
    }
    const Array child = view.field(view.child_id(i));
    const int64_t at = view.value_offset(i);
    if (child.type_id() == TypeId::kInt64) {
      out.emplace_back(Int64Array(child).value(at));
    } else {
      out.emplace_back(std::string(StringArray(child).value(at)));
    }
  }
  return out;
}

const std::vector<int8_t> kCodes = {5, 9};

TypePtr int_or_string(UnionMode mode) {
  FieldVector fields = {field("i", int64()), field("s", utf8())};
  return mode == UnionMode::kDense ? dense_union(fields, kCodes) : sparse_union(fields, kCodes);
}

/// Appends 1, "two", null, 4, "" through the generic union interface.
void append_sample(UnionBuilder& builder) {
  builder.append(5).as<Int64Builder>().append(1);
  builder.append(9).as<StringBuilder>().append("two");
  builder.append_null();
  ArrayBuilder& ints = builder.append(5);
  EXPECT_EQ(&ints, &builder.child_builder(0));
  ints.as<Int64Builder>().append(4);
  builder.append_empty_value();
}

const std::vector<Value> kSample = {int64_t{1}, std::string("two"), std::nullopt, int64_t{4},
                                    int64_t{0}};

TEST(UnionBuilderTest, DenseRoundTrip) {
  DenseUnionBuilder builder(int_or_string(UnionMode::kDense));
  EXPECT_EQ(builder.num_children(), 2);
  EXPECT_EQ(builder.child_index(9), 1);
  append_sample(builder);
  EXPECT_EQ(builder.length(), 5);
  EXPECT_EQ(builder.null_count(), 0);
  Array array = builder.finish();
  EXPECT_EQ(union_values(array), kSample);
  const ArrayData& data = *array.data();
  ASSERT_EQ(data.buffers.size(), 3u);
  EXPECT_EQ(data.buffers[0], nullptr);
  const int8_t* codes = data.buffers[1]->data_as<int8_t>();
  EXPECT_EQ(std::vector<int8_t>(codes, codes + 5), (std::vector<int8_t>{5, 9, 5, 5, 5}));
  const int32_t* offsets = data.buffers[2]->data_as<int32_t>();
  EXPECT_EQ(std::vector<int32_t>(offsets, offsets + 5), (std::vector<int32_t>{0, 0, 1, 2, 3}));
  EXPECT_EQ(data.children[0]->length, 4);
  EXPECT_EQ(data.children[1]->length, 1);
  EXPECT_EQ(data.null_count(), 0);
}

TEST(UnionBuilderTest, SparseRoundTrip) {
  SparseUnionBuilder builder(int_or_string(UnionMode::kSparse));
  append_sample(builder);
  Array array = builder.finish();
  EXPECT_EQ(union_values(array), kSample);
  const ArrayData& data = *array.data();
  ASSERT_EQ(data.buffers.size(), 2u);
  EXPECT_EQ(data.buffers[0], nullptr);
  for (const ArrayDataPtr& child : data.children) {
    EXPECT_EQ(child->length, 5) << "every sparse child has the union's length";
  }
  EXPECT_EQ(StringArray(Array(data.children[1])).value(1), "two");
}

TEST(UnionBuilderTest, SlicesOfSlices) {
  for (const UnionMode mode : {UnionMode::kDense, UnionMode::kSparse}) {
    std::unique_ptr<ArrayBuilder> builder = make_builder(int_or_string(mode));
    auto& unions = builder->as<UnionBuilder>();
    for (int64_t i = 0; i < 12; ++i) {
      if (i % 4 == 3) {
        unions.append_null();
      } else if (i % 2 == 0) {
        unions.append(5).as<Int64Builder>().append(i);
      } else {
        unions.append(9).as<StringBuilder>().append(std::to_string(i));
      }
    }
    Array array = builder->finish();
    Array slice = array.slice(2, 8).slice(3, 4);  // rows 5..8
    EXPECT_EQ(union_values(slice),
              (std::vector<Value>{std::string("5"), int64_t{6}, std::nullopt, int64_t{8}}));
  }
}

TEST(UnionBuilderTest, BadTypeCodesAndMissingValuesAreErrors) {
  DenseUnionBuilder dense(int_or_string(UnionMode::kDense));
  try {
    dense.append(0);
    FAIL() << "expected an error";
  } catch (const InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("codes are 5, 9"), std::string::npos) << error.what();
  }
  EXPECT_EQ(dense.length(), 0);
  dense.append(5);  // no value appended to the child
  EXPECT_THROW(dense.finish(), InvalidArgument);
  dense.child_builder(0).as<Int64Builder>().append(1);
  EXPECT_EQ(dense.finish().length(), 1);
  EXPECT_THROW(dense.child_builder(2), IndexError);

  SparseUnionBuilder sparse(int_or_string(UnionMode::kSparse));
  EXPECT_THROW(sparse.append(-1), InvalidArgument);
  sparse.append(9);
  EXPECT_THROW(sparse.finish(), InvalidArgument);
  sparse.child_builder(1).as<StringBuilder>().append("x");
  EXPECT_EQ(union_values(sparse.finish()), (std::vector<Value>{std::string("x")}));

  EXPECT_THROW(DenseUnionBuilder{int_or_string(UnionMode::kSparse)}, TypeError);
  EXPECT_THROW(SparseUnionBuilder{int_or_string(UnionMode::kDense)}, TypeError);
}

TEST(UnionBuilderTest, NullsGoToTheFirstNullableChild) {
  DenseUnionBuilder builder(
      dense_union({field("required", int32(), false), field("optional", utf8())}));
  builder.append_nulls(2);
  Array array = builder.finish();
  UnionArray view(array);
  EXPECT_EQ(view.child_id(0), 1);
  EXPECT_TRUE(array.is_null(0));
  EXPECT_TRUE(array.is_null(1));

  SparseUnionBuilder none_nullable(sparse_union({field("a", int32(), false)}));
  EXPECT_THROW(none_nullable.append_null(), InvalidArgument);
}

TEST(UnionBuilderTest, Reuse) {
  DenseUnionBuilder builder(int_or_string(UnionMode::kDense));
  builder.append(9).as<StringBuilder>().append("first");
  Array first = builder.finish();
  builder.append(5).as<Int64Builder>().append(2);
  builder.append(5).as<Int64Builder>().append(3);
  Array second = builder.finish();
  EXPECT_EQ(union_values(first), (std::vector<Value>{std::string("first")}));
  EXPECT_EQ(union_values(second), (std::vector<Value>{int64_t{2}, int64_t{3}}));
  const int32_t* offsets = second.data()->buffers[2]->data_as<int32_t>();
  EXPECT_EQ(offsets[0], 0) << "offsets restart with the children";
}

// --- run-end encoded ----------------------------------------------------------------------

std::vector<int64_t> run_ends_of(const Array& array) {
  const Array run_ends = RunEndEncodedArray(array).run_ends();
  std::vector<int64_t> out;
  for (int64_t i = 0; i < run_ends.length(); ++i) {
    switch (run_ends.type_id()) {
      case TypeId::kInt16:
        out.push_back(Int16Array(run_ends).value(i));
        break;
      case TypeId::kInt32:
        out.push_back(Int32Array(run_ends).value(i));
        break;
      default:
        out.push_back(Int64Array(run_ends).value(i));
        break;
    }
  }
  return out;
}

/// The logical values of a run-end encoded array of strings.
std::vector<std::optional<std::string>> decoded_strings(const Array& array) {
  RunEndEncodedArray view(array);
  StringArray values(view.values());
  std::vector<std::optional<std::string>> out;
  for (int64_t i = 0; i < view.length(); ++i) {
    const int64_t run = view.physical_index(i);
    out.push_back(values.is_null(run) ? std::nullopt
                                      : std::optional<std::string>(values.value(run)));
  }
  return out;
}

TEST(RunEndEncodedBuilderTest, MergesEqualNeighboursIntoRuns) {
  for (const TypePtr& run_end_type : {int16(), int32(), int64()}) {
    RunEndEncodedBuilder builder(run_end_encoded(run_end_type, utf8()));
    builder.append("a");
    builder.append("a");
    builder.append("b", 3);
    builder.append_null();
    builder.append_nulls(2);
    builder.append("b");
    builder.append("b", 0);
    builder.append("a");
    EXPECT_EQ(builder.length(), 10);
    EXPECT_EQ(builder.num_runs(), 5);
    EXPECT_EQ(builder.null_count(), 0);
    Array array = builder.finish();
    EXPECT_EQ(array.length(), 10);
    EXPECT_EQ(array.null_count(), 0);
    ASSERT_EQ(array.data()->buffers.size(), 1u);
    EXPECT_EQ(array.data()->buffers[0], nullptr);
    EXPECT_EQ(run_ends_of(array), (std::vector<int64_t>{2, 5, 8, 9, 10}));
    EXPECT_TRUE(RunEndEncodedArray(array).run_ends().type()->equals(*run_end_type));
    EXPECT_EQ(RunEndEncodedArray(array).run_ends().null_count(), 0);
    EXPECT_EQ(decoded_strings(array),
              (std::vector<std::optional<std::string>>{"a", "a", "b", "b", "b", std::nullopt,
                                                       std::nullopt, std::nullopt, "b", "a"}));
    EXPECT_TRUE(array.is_null(6));
  }
}

TEST(RunEndEncodedBuilderTest, TypedValuesArraysAndSlices) {
  RunEndEncodedBuilder builder(run_end_encoded(int32(), int64()));
  builder.append(int64_t{7}, 2);
  builder.append_array(make_array<int64_t>({7, 7, 8, std::nullopt, std::nullopt, 9}));
  EXPECT_THROW(builder.append(int32_t{7}), TypeError);
  EXPECT_THROW(builder.append("text"), TypeError);
  EXPECT_THROW(builder.append_array(make_array<int32_t>({1})), TypeError);
  Array array = builder.finish();
  EXPECT_EQ(run_ends_of(array), (std::vector<int64_t>{4, 5, 7, 8}));
  RunEndEncodedArray view(array);
  Int64Array values(view.values());
  EXPECT_EQ(values.value(0), 7);
  EXPECT_EQ(values.value(1), 8);
  EXPECT_TRUE(values.is_null(2));
  EXPECT_EQ(values.value(3), 9);

  Array slice = array.slice(2, 5).slice(1, 3);  // logical rows 3, 4, 5
  RunEndEncodedArray slice_view(slice);
  EXPECT_EQ(slice.length(), 3);
  EXPECT_EQ(values.value(slice_view.physical_index(0)), 7);
  EXPECT_EQ(values.value(slice_view.physical_index(1)), 8);
  EXPECT_TRUE(slice.is_null(2));
}

TEST(RunEndEncodedBuilderTest, RunsOfAnyValueTypeThroughTheValueBuilder) {
  RunEndEncodedBuilder builder(run_end_encoded(int32(), list(int64())));
  auto& lists = builder.value_builder().as<ListBuilder>();
  auto& values = lists.value_builder().as<Int64Builder>();
  lists.append();
  values.append(1);
  builder.append_run(3);
  lists.append();
  values.append(1);
  builder.append_run(1);  // equal to the previous value, still its own run
  builder.append_nulls(2);
  EXPECT_THROW(builder.append_run(1), InvalidArgument) << "no value appended for this run";
  lists.append_null();
  EXPECT_THROW(builder.append_run(0), InvalidArgument);
  builder.append_run(2);
  EXPECT_THROW(builder.append(int64_t{1}), NotImplemented);
  Array array = builder.finish();
  EXPECT_EQ(run_ends_of(array), (std::vector<int64_t>{3, 4, 6, 8}));
  EXPECT_EQ(array.length(), 8);
  EXPECT_TRUE(array.is_null(5));
  EXPECT_TRUE(array.is_null(7));
  EXPECT_FALSE(array.is_null(0));

  lists.append();
  EXPECT_THROW(builder.finish(), InvalidArgument) << "a value without its run";
}

TEST(RunEndEncodedBuilderTest, LengthLimitOfTheRunEndType) {
  RunEndEncodedBuilder builder(run_end_encoded(int16(), boolean()));
  builder.append(true, 32000);
  builder.append(false, 767);
  EXPECT_THROW(builder.append(false, 1), InvalidArgument);
  EXPECT_THROW(builder.append_nulls(1), InvalidArgument);
  EXPECT_THROW(builder.append(true, -1), InvalidArgument);
  Array array = builder.finish();
  EXPECT_EQ(array.length(), 32767);
  EXPECT_EQ(run_ends_of(array), (std::vector<int64_t>{32000, 32767}));
}

TEST(RunEndEncodedBuilderTest, ReuseAndEmptyArrays) {
  RunEndEncodedBuilder builder(run_end_encoded(int64(), utf8()));
  Array empty = builder.finish();
  EXPECT_EQ(empty.length(), 0);
  EXPECT_EQ(RunEndEncodedArray(empty).run_ends().length(), 0);
  EXPECT_EQ(RunEndEncodedArray(empty).values().length(), 0);
  builder.append("x", 2);
  Array first = builder.finish();
  builder.append("x");  // not merged with the previous array's last run
  builder.append_empty_values(2);
  Array second = builder.finish();
  EXPECT_EQ(run_ends_of(first), (std::vector<int64_t>{2}));
  EXPECT_EQ(run_ends_of(second), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(decoded_strings(second), (std::vector<std::optional<std::string>>{"x", "", ""}));
  EXPECT_EQ(decoded_strings(first), (std::vector<std::optional<std::string>>{"x", "x"}));
}

TEST(RunEndEncodedBuilderTest, EveryScalarKindMerges) {
  RunEndEncodedBuilder doubles(run_end_encoded(int32(), float64()));
  doubles.append(1.5);
  doubles.append(1.5);
  doubles.append(2.5);
  EXPECT_EQ(run_ends_of(doubles.finish()), (std::vector<int64_t>{2, 3}));
  RunEndEncodedBuilder fixed(run_end_encoded(int32(), fixed_size_binary(2)));
  fixed.append("ab");
  fixed.append("ab");
  EXPECT_THROW(fixed.append("a"), TypeError);
  EXPECT_EQ(run_ends_of(fixed.finish()), (std::vector<int64_t>{2}));
  RunEndEncodedBuilder views(run_end_encoded(int32(), binary_view()));
  views.append_array(
      make_string_array({"same long value here", "same long value here", "x"}, binary_view()));
  Array view_array = views.finish();
  EXPECT_EQ(run_ends_of(view_array), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(BinaryViewArray(RunEndEncodedArray(view_array).values()).value(0),
            "same long value here");
}

}  // namespace
}  // namespace bowstring
