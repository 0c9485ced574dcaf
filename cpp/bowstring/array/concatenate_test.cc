#include "bowstring/array/concatenate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <vector>

#include "bowstring/array/equal.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/util/error.h"

namespace bowstring {
namespace {

using ::testing::HasSubstr;
using namespace testing;

const std::nullopt_t kNull = std::nullopt;

/// Concatenates and checks that the result is a valid array.
Array concat(const std::vector<Array>& arrays) {
  Array result = concatenate(arrays);
  EXPECT_NO_THROW(result.validate_full());
  return result;
}

/// `concat(arrays)` must equal `expected`; prints both types on failure.
void expect_concatenation(const std::vector<Array>& arrays, const Array& expected) {
  const Array result = concat(arrays);
  EXPECT_TRUE(result.equals(expected))
      << "result type " << result.type()->to_string() << ", length " << result.length();
}

std::string error_message(const std::vector<Array>& arrays) {
  try {
    concatenate(arrays);
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

// --- every type -----------------------------------------------------------------------------

TEST(ConcatenateTest, EverySampleSplitAndRejoined) {
  for (const auto& [name, array] : sample_arrays()) {
    SCOPED_TRACE(name);
    const int64_t length = array.length();
    const int64_t middle = length / 2;
    expect_concatenation({array}, array);
    expect_concatenation({array.slice(0, middle), array.slice(middle)}, array);
    expect_concatenation({array.slice(0, 0), array, array.slice(length)}, array);
    expect_concatenation({array.slice(0, 1), array.slice(1, 0), array.slice(1)}, array);

    const Array twice = concat({array, array});
    ASSERT_EQ(twice.length(), 2 * length);
    EXPECT_TRUE(array_range_equal(twice, 0, array, 0, length));
    EXPECT_TRUE(array_range_equal(twice, length, array, 0, length));
    EXPECT_EQ(twice.null_count(), 2 * array.null_count());
    EXPECT_EQ(twice.offset(), 0);

    const Array empty = concat({array.slice(0, 0), array.slice(1, 0)});
    EXPECT_EQ(empty.length(), 0);
    EXPECT_TRUE(empty.type()->equals(*array.type()));
  }
}

TEST(ConcatenateTest, ResultHasTheSameTypeAndLayoutRules) {
  for (const auto& [name, array] : sample_arrays()) {
    SCOPED_TRACE(name);
    const Array result = concat({array.slice(1), array});
    EXPECT_EQ(result.type(), array.type());
    // View arrays keep only the data buffers their views use.
    if (array.type_id() != TypeId::kStringView && array.type_id() != TypeId::kBinaryView) {
      EXPECT_EQ(result.data()->buffers.size(), array.data()->buffers.size());
    }
    EXPECT_EQ(result.data()->children.size(), array.data()->children.size());
  }
}

// --- argument checks ------------------------------------------------------------------------

TEST(ConcatenateTest, NeedsAtLeastOneArray) {
  EXPECT_THROW(concatenate({}), InvalidArgument);
  EXPECT_THROW(concatenate(std::vector<Array>{int64s({1}), Array()}), InvalidArgument);
}

TEST(ConcatenateTest, TypesMustMatch) {
  EXPECT_THROW(concatenate(std::vector<Array>{int64s({1}), int32s({1})}), TypeError);
  EXPECT_EQ(error_message({int64s({1}), int64s({2}), strings({"x"})}),
            "cannot concatenate arrays of different types: array 0 is int64 but array 2 is "
            "string");
  EXPECT_THAT(error_message({list_of(list(int32()), {0}, int32s({})),
                             list_of(list(field("element", int32())), {0}, int32s({}))}),
              HasSubstr("array 0 is list<item: int32> but array 1 is list<element: int32>"));
}

// --- fixed width ----------------------------------------------------------------------------

TEST(ConcatenateTest, FixedWidthWithNulls) {
  const Array result = concat({int64s({1, kNull}), int64s({3}), int64s({kNull, 5}).slice(1)});
  EXPECT_TRUE(result.equals(int64s({1, kNull, 3, 5})));
  EXPECT_EQ(result.null_count(), 1);
}

TEST(ConcatenateTest, NoValidityBitmapWithoutNulls) {
  const Array with_bitmap = raw_array<int32_t>(int32(), {1, 2}, {true, true});
  const Array result = concat({with_bitmap, int32s({3})});
  EXPECT_EQ(result.data()->buffers[0], nullptr);
  EXPECT_EQ(result.null_count(), 0);
  EXPECT_TRUE(result.equals(int32s({1, 2, 3})));
}

TEST(ConcatenateTest, BooleansAtUnalignedOffsets) {
  const Array a = booleans({true, false, true, kNull, true, true, false, false, true, false});
  const Array b = booleans({false, true, kNull});
  expect_concatenation(
      {a.slice(3, 5), b, a.slice(1, 3)},
      booleans({kNull, true, true, false, false, false, true, kNull, false, true, kNull}));
}

TEST(ConcatenateTest, NullArrays) {
  const Array result = concat({make_array(null(), 2, {nullptr}), make_array(null(), 3, {nullptr})});
  EXPECT_EQ(result.length(), 5);
  EXPECT_EQ(result.null_count(), 5);
}

TEST(ConcatenateTest, TotalLengthPastInt64IsAnError) {
  // Arrays without buffers can be as long as int64 allows; three of them used to wrap around to
  // a positive, wrong length.
  const Array longest = make_array(null(), std::numeric_limits<int64_t>::max(), {nullptr});
  EXPECT_EQ(error_message({longest, longest, longest}),
            "concatenated null arrays hold more than 9223372036854775807 values");
  const Array empty_structs =
      make_array(struct_({}), std::numeric_limits<int64_t>::max() / 2 + 1, {nullptr});
  EXPECT_THAT(error_message({empty_structs, empty_structs}),
              HasSubstr("concatenated struct<> arrays hold more than"));
  EXPECT_EQ(concat({longest.slice(1), make_array(null(), 1, {nullptr})}).length(),
            std::numeric_limits<int64_t>::max());
}

// --- binary ---------------------------------------------------------------------------------

TEST(ConcatenateTest, StringsRebaseOffsetsAndCopyOnlyUsedBytes) {
  const Array a = strings({"skipped", "ab", kNull, "cde"}).slice(1);
  const Array b = strings({"f", "", "ghij"}).slice(0, 2);
  const Array result = concat({a, b});
  EXPECT_TRUE(result.equals(strings({"ab", kNull, "cde", "f", ""})));
  const StringArray typed(result);
  EXPECT_EQ(typed.value_offset(0), 0);
  EXPECT_EQ(result.data()->buffers[2]->size(), 6);
}

TEST(ConcatenateTest, LargeBinaries) {
  expect_concatenation({strings({"a", kNull}, large_binary()), strings({"bc"}, large_binary())},
                       strings({"a", kNull, "bc"}, large_binary()));
}

TEST(ConcatenateTest, ViewsShareDataBuffersAndRenumberThem) {
  const Array a =
      views({"a string longer than twelve", "short", "another long string value"}, utf8_view(), 30);
  const Array b = views({kNull, "yet another long string!!", "x"}, utf8_view(), 30);
  ASSERT_EQ(a.data()->buffers.size(), 4u);
  ASSERT_EQ(b.data()->buffers.size(), 3u);
  const Array result = concat({a, b});
  EXPECT_TRUE(
      result.equals(views({"a string longer than twelve", "short", "another long string value",
                           kNull, "yet another long string!!", "x"})));
  const auto& buffers = result.data()->buffers;
  ASSERT_EQ(buffers.size(), 5u);
  EXPECT_EQ(buffers[2], a.data()->buffers[2]);
  EXPECT_EQ(buffers[3], a.data()->buffers[3]);
  EXPECT_EQ(buffers[4], b.data()->buffers[2]);
  EXPECT_EQ(BinaryViewArray(result).view(4).ref.buffer_index, 2);
}

TEST(ConcatenateTest, ViewsListEachDataBufferOnceAndOnlyWhenUsed) {
  const Array a =
      views({"first long string value", "second long string value", "tiny"}, binary_view(), 24);
  ASSERT_EQ(a.data()->buffers.size(), 4u);
  // Slices of one array share its buffers; the second slice uses only the second buffer.
  const Array result = concat({a.slice(1), a.slice(0, 1), a.slice(1, 1)});
  EXPECT_EQ(result.data()->buffers.size(), 4u);
  const Array inline_only = concat({a.slice(2), a.slice(2)});
  EXPECT_EQ(inline_only.data()->buffers.size(), 2u);
  EXPECT_TRUE(inline_only.equals(views({"tiny", "tiny"}, binary_view())));
}

TEST(ConcatenateTest, ViewsUnderNullsAreCleared) {
  BinaryView garbage;
  std::memset(&garbage, 0x55, sizeof(garbage));
  const Array a = make_array(
      utf8_view(), 2,
      {bitmap_of({true, false}), buffer_of(std::vector<BinaryView>{inline_view("x"), garbage})});
  const Array result = concat({a, a});
  EXPECT_EQ(BinaryViewArray(result).view(1).size, 0);
  EXPECT_TRUE(result.equals(views({"x", kNull, "x", kNull})));
}

TEST(ConcatenateTest, FixedSizeBinary) {
  const Array a =
      make_array(fixed_size_binary(2), 3, {bitmap_of({true, false, true}), bytes_of("abXXcd")});
  const Array b = make_array(fixed_size_binary(2), 1, {nullptr, bytes_of("ef")});
  expect_concatenation(
      {a.slice(1), b},
      make_array(fixed_size_binary(2), 3, {bitmap_of({false, true, true}), bytes_of("YYcdef")}));
}

// --- nested ---------------------------------------------------------------------------------

TEST(ConcatenateTest, ListsTrimTheirChildToTheUsedRange) {
  const TypePtr type = list(int64());
  const Array a = list_of(type, {0, 2, 3, 5}, int64s({1, 2, 3, 4, 5}), {true, false, true});
  const Array b = list_of(type, {1, 2, 4}, int64s({0, 6, 7, kNull, 0}));
  const Array result = concat({a.slice(1), b});
  EXPECT_TRUE(result.equals(
      list_of(type, {0, 1, 3, 4, 6}, int64s({3, 4, 5, 6, 7, kNull}), {false, true, true, true})));
  EXPECT_EQ(ListArray(result).values().length(), 6);
  EXPECT_EQ(ListArray(result).value_offset(0), 0);
}

TEST(ConcatenateTest, OffsetOverflowIsAnError) {
  // Null children cost no memory, so 32-bit offsets can be pushed past their limit cheaply.
  const TypePtr type = list(null());
  const Array big = list_of(type, {0, 1500000000}, make_array(null(), 1500000000, {nullptr}));
  EXPECT_THAT(error_message({big, big}),
              HasSubstr("concatenated list<item: null> arrays hold 3000000000 child values, more "
                        "than the 2147483647 their offsets can address"));
  const TypePtr large = large_list(null());
  const Array large_big =
      list_of(large, {0, 1500000000}, make_array(null(), 1500000000, {nullptr}));
  EXPECT_EQ(concat({large_big, large_big}).length(), 2);
}

TEST(ConcatenateTest, ListViewsInAnyOrder) {
  const TypePtr type = large_list_view(utf8());
  // [["c", "d"], null, [], ["a"]] with views out of order and a null covering garbage.
  const Array a = list_view_of(type, {2, 50, 3, 0}, {2, 7, 0, 1}, strings({"a", "b", "c", "d"}),
                               {true, false, true, true});
  const Array b = list_view_of(type, {1}, {1}, strings({"x", "y"}));
  const Array result = concat({a, b, a.slice(3)});
  const Array expected =
      list_view_of(type, {0, 0, 0, 2, 3, 4}, {2, 0, 0, 1, 1, 1}, strings({"c", "d", "a", "y", "a"}),
                   {true, false, true, true, true, true});
  EXPECT_TRUE(result.equals(expected));
  // Only the used child range is kept: [a..d] once for a, "y" for b, "a" for the slice.
  EXPECT_EQ(LargeListViewArray(result).values().length(), 4 + 1 + 1);
}

TEST(ConcatenateTest, ListViewRangesEndingPastInt32Max) {
  // An int32 offset plus an int32 size may pass INT32_MAX when the child is that long (null
  // values take no memory); the sum used to overflow and the child was cut to nothing.
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  const Array values = make_array(null(), 2 * kInt32Max, {nullptr});
  const Array views = list_view_of(list_view(null()), {kInt32Max}, {kInt32Max}, values);
  ASSERT_NO_THROW(views.validate_full());
  const Array result = concat({views});
  EXPECT_TRUE(result.equals(views));
  EXPECT_EQ(ListViewArray(result).values().length(), kInt32Max);
}

TEST(ConcatenateTest, FixedSizeLists) {
  const TypePtr type = fixed_size_list(int32(), 2);
  const Array a = fixed_size_list_of(type, 3, int32s({1, 2, 3, 4, 5, 6}), {true, false, true});
  expect_concatenation(
      {a.slice(1), a.slice(0, 1)},
      fixed_size_list_of(type, 3, int32s({0, 0, 5, 6, 1, 2}), {false, true, true}));
}

TEST(ConcatenateTest, StructsCutChildrenToTheirWindow) {
  const TypePtr type = struct_({field("a", int32()), field("b", utf8())});
  const Array offset = make_array(type, 2, {bitmap_of({false, false, true, false})},
                                  {int32s({9, 9, 1, 2}), strings({"", "", "x", "y"})}, {}, 2);
  const Array plain = struct_of(type, 1, {int32s({3}), strings({"z"})});
  const Array result = concat({offset, plain});
  EXPECT_TRUE(result.equals(
      struct_of(type, 3, {int32s({1, 0, 3}), strings({"x", "", "z"})}, {true, false, true})));
  EXPECT_EQ(StructArray(result).field(0).length(), 3);
  EXPECT_EQ(result.data()->children[0]->length, 3);
}

TEST(ConcatenateTest, Maps) {
  const TypePtr type = map(utf8(), int32());
  const TypePtr entries = type->field(0)->type();
  const Array a = list_of(type, {0, 1, 3},
                          struct_of(entries, 3, {strings({"a", "b", "c"}), int32s({1, 2, 3})}));
  const Array b = list_of(type, {0, 1}, struct_of(entries, 1, {strings({"d"}), int32s({kNull})}));
  expect_concatenation(
      {a.slice(1), b},
      list_of(type, {0, 2, 3},
              struct_of(entries, 3, {strings({"b", "c", "d"}), int32s({2, 3, kNull})})));
}

// --- dictionaries ---------------------------------------------------------------------------

TEST(ConcatenateTest, SharedDictionaryIsKept) {
  const TypePtr type = dictionary(int8(), utf8());
  const Array dictionary_values = strings({"x", "y"});
  const Array a = dictionary_of(type, {0, 1, kNull}, dictionary_values);
  const Array b = dictionary_of(type, {1, 1}, dictionary_values);
  const Array result = concat({a, b});
  EXPECT_EQ(result.data()->dictionary, dictionary_values.data());
  EXPECT_TRUE(result.equals(dictionary_of(type, {0, 1, kNull, 1, 1}, dictionary_values)));
}

TEST(ConcatenateTest, EqualDictionariesAreMergedIntoOne) {
  const TypePtr type = dictionary(uint8(), float64());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Array a = dictionary_of(type, {0, 1}, doubles({1.5, nan}));
  const Array b = dictionary_of(type, {1, kNull}, doubles({1.5, nan}));
  const Array result = concat({a, b});
  EXPECT_EQ(result.data()->dictionary, a.data()->dictionary);
  EXPECT_EQ(DictionaryArray(result).index(2), 1);
}

TEST(ConcatenateTest, DifferentDictionariesAreConcatenatedAndIndicesShifted) {
  const TypePtr type = dictionary(int16(), utf8());
  const Array first = strings({"a", "b"});
  const Array second = strings({"b", "c", "d"});
  const Array a = dictionary_of(type, {1, 0, kNull}, first);
  const Array b = dictionary_of(type, {2, 0}, second);
  const Array c = dictionary_of(type, {0}, first);
  const Array result = concat({a, b, c});
  EXPECT_EQ(DictionaryArray(result).dictionary().length(), 5);
  EXPECT_TRUE(DictionaryArray(result).dictionary().equals(strings({"a", "b", "b", "c", "d"})));
  EXPECT_TRUE(result.equals(
      dictionary_of(type, {1, 0, kNull, 4, 2, 0}, strings({"a", "b", "b", "c", "d"}))));
  // Decoded, it reads as the inputs one after the other.
  EXPECT_TRUE(
      result.equals(dictionary_of(type, {1, 0, kNull, 3, 1, 0}, strings({"a", "b", "c", "d"}))));
}

TEST(ConcatenateTest, IndexOverflowIsAnError) {
  std::vector<std::optional<std::string>> values_a;
  std::vector<std::optional<std::string>> values_b;
  for (int i = 0; i < 100; ++i) {
    values_a.push_back(std::to_string(i));
    values_b.push_back(std::to_string(i + 100));
  }
  const Array a = dictionary_of(dictionary(int8(), utf8()), {0, 99}, strings(values_a));
  const Array b = dictionary_of(dictionary(int8(), utf8()), {99}, strings(values_b));
  EXPECT_THROW(concatenate(std::vector<Array>{a, b}), InvalidArgument);
  EXPECT_EQ(error_message({a, b}),
            "cannot concatenate dictionary<values=string, indices=int8, ordered=0> arrays: their "
            "dictionaries hold 200 values together, more than int8 indices can address");
  // uint8 indices address 256 values.
  const Array wide_a = dictionary_of(dictionary(uint8(), utf8()), {0, 99}, strings(values_a));
  const Array wide_b = dictionary_of(dictionary(uint8(), utf8()), {99}, strings(values_b));
  const Array result = concat({wide_a, wide_b});
  EXPECT_EQ(DictionaryArray(result).index(2), 199);
}

TEST(ConcatenateTest, IndicesUnderNullsAreNotShifted) {
  const TypePtr type = dictionary(int8(), utf8());
  const Array garbage = make_array(type, 2, {bitmap_of({false, true}), buffer_of<int8_t>({127, 0})},
                                   {}, strings({"q"}));
  const Array result = concat({dictionary_of(type, {0}, strings({"p"})), garbage});
  EXPECT_TRUE(result.equals(dictionary_of(type, {0, kNull, 1}, strings({"p", "q"}))));
}

// --- unions ---------------------------------------------------------------------------------

TEST(ConcatenateTest, SparseUnions) {
  const TypePtr type = sparse_union({field("i", int32()), field("s", utf8())}, {1, 3});
  const Array a = sparse_union_of(type, {1, 3, 1}, {int32s({1, 0, 3}), strings({"", "x", ""})});
  const Array b = sparse_union_of(type, {3}, {int32s({0}), strings({kNull})});
  const Array result = concat({a.slice(1), b});
  EXPECT_TRUE(result.equals(
      sparse_union_of(type, {3, 1, 3}, {int32s({0, 3, 0}), strings({"x", "", kNull})})));
  EXPECT_EQ(result.data()->children[0]->length, 3);
}

TEST(ConcatenateTest, DenseUnionsTrimChildrenAndRebaseOffsets) {
  const TypePtr type = dense_union({field("i", int32()), field("s", utf8())});
  const Array a =
      dense_union_of(type, {0, 1, 0, 1}, {0, 0, 1, 1}, {int32s({1, 2}), strings({"x", "y"})});
  const Array b = dense_union_of(type, {0, 0, 0}, {2, 2, 3}, {int32s({7, 7, 8, 9}), strings({})});
  const Array result = concat({a.slice(2), b});
  // 2, "y", 8, 8, 9
  EXPECT_TRUE(result.equals(
      dense_union_of(type, {0, 1, 0, 0, 0}, {0, 0, 1, 1, 2}, {int32s({2, 8, 9}), strings({"y"})})));
  const UnionArray typed(result);
  EXPECT_EQ(typed.field(0).length(), 3);  // only the used values: 2 from a, 8 and 9 from b
  EXPECT_EQ(typed.field(1).length(), 1);
  EXPECT_EQ(typed.value_offset(2), 1);
  EXPECT_EQ(typed.value_offset(3), 1);
  EXPECT_EQ(typed.value_offset(4), 2);
  // Each piece's offsets shift by one amount per child, so they stay in order.
  EXPECT_NO_THROW(result.validate_full());
}

TEST(ConcatenateTest, DenseUnionOffsetAtInt32Max) {
  // The end of the child range used, offset + 1, used to overflow for an offset of INT32_MAX.
  constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();
  const TypePtr type = dense_union({field("n", null())});
  const Array values = make_array(null(), int64_t{kInt32Max} + 1, {nullptr});
  const Array array = dense_union_of(type, {0}, {kInt32Max}, {values});
  ASSERT_NO_THROW(array.validate_full());
  const Array result = concat({array});
  EXPECT_TRUE(result.equals(array));
  EXPECT_EQ(UnionArray(result).field(0).length(), 1);
}

// --- run-end encoded ------------------------------------------------------------------------

TEST(ConcatenateTest, RunEndEncodedAdjustsRunEnds) {
  const TypePtr type = run_end_encoded(int32(), utf8());
  const Array a = run_end_encoded_of(type, {2, 5, 9}, strings({"a", kNull, "b"}));
  const Array b = run_end_encoded_of(type, {1, 3}, strings({"c", "d"}));
  const Array result = concat({a.slice(3, 4), b, a.slice(0, 1)});
  // null null b b | c d d | a
  EXPECT_TRUE(result.equals(
      run_end_encoded_of(type, {2, 4, 5, 7, 8}, strings({kNull, "b", "c", "d", "a"}))));
  const RunEndEncodedArray typed(result);
  EXPECT_EQ(typed.run_ends().length(), 5);
  EXPECT_TRUE(typed.run_ends().equals(
      make_array(int32(), 5, {nullptr, buffer_of<int32_t>({2, 4, 5, 7, 8})})));
}

TEST(ConcatenateTest, RunEndOverflowIsAnError) {
  const TypePtr type = run_end_encoded(int16(), null());
  const Array a = run_end_encoded_of(type, {20000}, make_array(null(), 1, {nullptr}));
  EXPECT_THAT(error_message({a, a}),
              HasSubstr("arrays have 40000 values, more than their run ends can count"));
  const Array fits = concat({a.slice(0, 16000), a.slice(0, 16000)});
  EXPECT_EQ(fits.length(), 32000);
}

// --- allocation -----------------------------------------------------------------------------

TEST(ConcatenateTest, AllocatesFromTheGivenAllocator) {
  CheckedAllocator allocator(system_allocator());
  {
    const std::vector<Array> arrays{strings({"a", kNull}), strings({"bc"})};
    const Array result = concatenate(arrays, &allocator);
    EXPECT_GT(allocator.stats().allocations, 0);
    EXPECT_TRUE(result.equals(strings({"a", kNull, "bc"})));
  }
  EXPECT_TRUE(allocator.leaks().empty());
  BudgetedAllocator tiny(system_allocator(), 16);
  const std::vector<Array> arrays{int64s({1, 2, 3}), int64s({4, 5, 6})};
  EXPECT_THROW(concatenate(arrays, &tiny), OutOfMemory);
}

TEST(ConcatenateTest, RunningOutOfMemoryMidwayLeaksNothing) {
  // Every budget below what a concatenation needs makes it fail at a different allocation, with
  // buffers of earlier children and builders already made; all of them must be given back.
  CheckedAllocator checked(system_allocator());
  for (const auto& [name, array] : sample_arrays()) {
    SCOPED_TRACE(name);
    const std::vector<Array> pieces{array, array.slice(1), array.slice(0, 1), array};
    int failures = 0;
    for (int64_t limit = 0;; limit += 64) {
      ASSERT_LT(limit, 1 << 20) << "never succeeded";
      BudgetedAllocator budget(&checked, limit);
      try {
        const Array result = concatenate(pieces, &budget);
        EXPECT_TRUE(array_range_equal(result, 0, array, 0, array.length()));
        break;
      } catch (const OutOfMemory&) {
        ++failures;
      }
      EXPECT_EQ(checked.bytes_in_use(), 0) << "with a budget of " << limit << " bytes";
    }
    EXPECT_TRUE(checked.leaks().empty());
    if (array.type_id() != TypeId::kNull) {
      EXPECT_GT(failures, 0);
    }
  }
}

}  // namespace
}  // namespace bowstring
