#include "bowstring/array/equal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "bowstring/testing/array_data_testing.h"
#include "bowstring/util/error.h"

namespace bowstring {
namespace {

using namespace testing;

const std::nullopt_t kNull = std::nullopt;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

EqualOptions nans_equal() {
  EqualOptions options;
  options.nans_equal = true;
  return options;
}

EqualOptions approximately() {
  EqualOptions options;
  options.approximate = true;
  return options;
}

// --- every type -----------------------------------------------------------------------------

TEST(EqualTest, EverySampleEqualsItselfAndItsSlices) {
  for (const auto& [name, array] : sample_arrays()) {
    SCOPED_TRACE(name);
    const int64_t length = array.length();
    EXPECT_TRUE(array.equals(array));
    EXPECT_TRUE(arrays_equal(array, Array(std::make_shared<ArrayData>(*array.data()))));
    // The same values seen through a slice, at a different offset.
    EXPECT_TRUE(array_range_equal(array, 1, array.slice(1), 0, length - 1));
    EXPECT_TRUE(array.slice(1).equals(array.slice(1)));
    EXPECT_TRUE(array.slice(0, 0).equals(array.slice(length, 0)));
    EXPECT_FALSE(array.equals(array.slice(1)));
  }
}

TEST(EqualTest, SamplesOfDifferentTypesDiffer) {
  const auto samples = sample_arrays();
  for (size_t i = 0; i < samples.size(); ++i) {
    for (size_t j = 0; j < samples.size(); ++j) {
      const Array& a = samples[i].second;
      const Array& b = samples[j].second;
      if (!a.type()->equals(*b.type())) {
        EXPECT_FALSE(a.equals(b)) << samples[i].first << " vs " << samples[j].first;
      }
    }
  }
}

// --- types and lengths ----------------------------------------------------------------------

TEST(EqualTest, TypesMustMatch) {
  EXPECT_FALSE(int32s({1, 2}).equals(array_of<uint32_t>(uint32(), {1, 2})));
  EXPECT_FALSE(int64s({1}).equals(array_of<int64_t>(date64(), {1})));
  EXPECT_FALSE(strings({"a"}).equals(strings({"a"}, binary())));
  EXPECT_FALSE(strings({"a"}).equals(views({"a"})));
  EXPECT_FALSE(array_of<int64_t>(timestamp(TimeUnit::kMicro), {1})
                   .equals(array_of<int64_t>(timestamp(TimeUnit::kMicro, "UTC"), {1})));
  const Array storage = int64s({1, 2});
  const Array extended =
      make_array(extension(int64(), "example.ticks"), 2, storage.data()->buffers);
  EXPECT_FALSE(extended.equals(storage));
  EXPECT_TRUE(extended.equals(Array(std::make_shared<ArrayData>(*extended.data()))));
}

TEST(EqualTest, FieldNamesMatterAndMetadataOnlyWhenAsked) {
  const TypePtr a_type = struct_({field("a", int32())});
  const TypePtr b_type = struct_({field("b", int32())});
  const TypePtr tagged = struct_({field("a", int32(), true, {{"key", "value"}})});
  const Array values = int32s({1, 2});
  const Array a = struct_of(a_type, 2, {values});
  EXPECT_FALSE(a.equals(struct_of(b_type, 2, {values})));
  const Array with_metadata = struct_of(tagged, 2, {values});
  EXPECT_TRUE(a.equals(with_metadata));
  EqualOptions strict;
  strict.check_metadata = true;
  EXPECT_FALSE(a.equals(with_metadata, strict));
  EXPECT_TRUE(with_metadata.equals(struct_of(tagged, 2, {values}), strict));
}

TEST(EqualTest, LengthsMustMatch) {
  EXPECT_FALSE(int64s({1, 2}).equals(int64s({1, 2, 3})));
  EXPECT_FALSE(make_array(null(), 2, {nullptr}).equals(make_array(null(), 3, {nullptr})));
  EXPECT_TRUE(make_array(null(), 3, {nullptr}).equals(make_array(null(), 3, {nullptr})));
}

TEST(EqualTest, ArraysWithoutData) {
  EXPECT_TRUE(arrays_equal(Array(), Array()));
  EXPECT_FALSE(arrays_equal(Array(), int64s({})));
  EXPECT_FALSE(arrays_equal(int64s({}), Array()));
}

// --- nulls ----------------------------------------------------------------------------------

TEST(EqualTest, NullsMustBeInTheSameSlots) {
  EXPECT_TRUE(int64s({1, kNull, 3}).equals(int64s({1, kNull, 3})));
  EXPECT_FALSE(int64s({1, kNull, 3}).equals(int64s({1, 2, 3})));
  EXPECT_FALSE(int64s({1, kNull, 3}).equals(int64s({kNull, 2, 3})));
  EXPECT_FALSE(strings({"a", kNull}).equals(strings({"a", ""})));
  EXPECT_FALSE(booleans({true, kNull}).equals(booleans({true, false})));
}

TEST(EqualTest, MissingBitmapEqualsAllValidBitmap) {
  const Array with_bitmap = raw_array<int64_t>(int64(), {1, 2, 3}, {true, true, true});
  const Array without = int64s({1, 2, 3});
  EXPECT_TRUE(with_bitmap.equals(without));
  EXPECT_TRUE(without.equals(with_bitmap));
}

TEST(EqualTest, ValuesUnderNullsAreIgnored) {
  EXPECT_TRUE(raw_array<int64_t>(int64(), {1, 99, 3}, {true, false, true})
                  .equals(raw_array<int64_t>(int64(), {1, -7, 3}, {true, false, true})));
  EXPECT_TRUE(raw_array<double>(float64(), {kNaN, 2.0}, {false, true})
                  .equals(raw_array<double>(float64(), {1.0, 2.0}, {false, true})));
  EXPECT_TRUE(make_array(boolean(), 2, {bitmap_of({false, true}), bitmap_of({true, true})})
                  .equals(booleans({kNull, true})));
  EXPECT_TRUE(make_array(fixed_size_binary(2), 2, {bitmap_of({true, false}), bytes_of("abXY")})
                  .equals(make_array(fixed_size_binary(2), 2,
                                     {bitmap_of({true, false}), bytes_of("abZZ")})));
  // A null string may even cover bytes.
  EXPECT_TRUE(
      make_array(utf8(), 2,
                 {bitmap_of({false, true}), buffer_of<int32_t>({0, 5, 6}), bytes_of("junk!x")})
          .equals(strings({kNull, "x"})));
  // A null list may cover values, and a null struct may hide different children.
  const Array garbage_list = list_of(list(int64()), {0, 3, 4}, int64s({7, 8, 9, 1}), {false, true});
  EXPECT_TRUE(garbage_list.equals(list_of(list(int64()), {0, 0, 1}, int64s({1}), {false, true})));
  const TypePtr type = struct_({field("a", int32())});
  EXPECT_TRUE(struct_of(type, 2, {int32s({5, 1})}, {false, true})
                  .equals(struct_of(type, 2, {int32s({kNull, 1})}, {false, true})));
  EXPECT_TRUE(
      fixed_size_list_of(fixed_size_list(int32(), 2), 2, int32s({1, 2, 3, 4}), {true, false})
          .equals(fixed_size_list_of(fixed_size_list(int32(), 2), 2, int32s({1, 2, kNull, 9}),
                                     {true, false})));
  EXPECT_TRUE(
      list_view_of(list_view(int32()), {0, 99}, {1, -3}, int32s({1}), {true, false})
          .equals(list_view_of(list_view(int32()), {0, 0}, {1, 0}, int32s({1}), {true, false})));
  BinaryView garbage;
  std::memset(&garbage, 0x55, sizeof(garbage));
  EXPECT_TRUE(make_array(utf8_view(), 2,
                         {bitmap_of({true, false}),
                          buffer_of(std::vector<BinaryView>{inline_view("x"), garbage})})
                  .equals(views({"x", kNull})));
}

// --- offsets and slices ---------------------------------------------------------------------

TEST(EqualTest, SlicesCompareByTheirWindow) {
  const Array a = int64s({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  const Array b = int64s({5, 6, 7, 8, 2, 3, 4});
  EXPECT_TRUE(a.slice(2, 3).equals(b.slice(4, 3)));
  EXPECT_FALSE(a.slice(2, 3).equals(b.slice(3, 3)));
  EXPECT_TRUE(a.slice(5, 4).equals(b.slice(0, 4)));
  // Unaligned bit offsets.
  const Array bits = booleans({true, false, true, true, kNull, false, true, false, false, true});
  const Array shifted =
      booleans({false, false, false, true, false, true, true, kNull, false, true, false, false});
  EXPECT_TRUE(bits.slice(1, 8).equals(shifted.slice(4, 8)));
  EXPECT_FALSE(bits.slice(0, 8).equals(shifted.slice(4, 8)));
}

TEST(EqualTest, OffsetsNeedNotStartAtZero) {
  const Array rebased =
      make_array(utf8(), 2, {nullptr, buffer_of<int32_t>({3, 5, 8}), bytes_of("xxxabcde")});
  EXPECT_TRUE(rebased.equals(strings({"ab", "cde"})));
  EXPECT_FALSE(rebased.equals(strings({"ab", "cdf"})));
  EXPECT_FALSE(rebased.equals(strings({"abc", "de"})));
  const Array list_rebased = list_of(large_list(int32()), {2, 3, 3, 5}, int32s({9, 9, 1, 2, 3}));
  EXPECT_TRUE(list_rebased.equals(list_of(large_list(int32()), {0, 1, 1, 3}, int32s({1, 2, 3}))));
  EXPECT_FALSE(list_rebased.equals(list_of(large_list(int32()), {0, 1, 2, 3}, int32s({1, 2, 3}))));
}

TEST(EqualTest, StructsApplyTheirOffsetToChildren) {
  const TypePtr type = struct_({field("a", int32()), field("b", utf8())});
  const Array offset =
      make_array(type, 2, {nullptr}, {int32s({0, 0, 1, 2}), strings({"", "", "x", "y"})}, {}, 2);
  EXPECT_TRUE(offset.equals(struct_of(type, 2, {int32s({1, 2}), strings({"x", "y"})})));
  EXPECT_FALSE(offset.equals(struct_of(type, 2, {int32s({1, 2}), strings({"x", "z"})})));
}

TEST(EqualTest, RangeEqual) {
  const Array a = strings({"a", "b", "c", kNull, "e"});
  const Array b = strings({"c", kNull, "e", "a"});
  EXPECT_TRUE(array_range_equal(a, 2, b, 0, 3));
  EXPECT_TRUE(array_range_equal(a, 0, b, 3, 1));
  EXPECT_FALSE(array_range_equal(a, 1, b, 0, 3));
  EXPECT_TRUE(array_range_equal(a, 1, b, 0, 0));
  EXPECT_FALSE(array_range_equal(a, 0, int64s({1}), 0, 1));
  EXPECT_THROW(array_range_equal(a, 3, b, 0, 3), IndexError);
  EXPECT_THROW(array_range_equal(a, 0, b, 2, 3), IndexError);
  EXPECT_THROW(array_range_equal(a, -1, b, 0, 1), IndexError);
}

// --- variable-size layouts ------------------------------------------------------------------

TEST(EqualTest, ViewsWithDifferentBufferLayouts) {
  const std::vector<std::optional<std::string>> values{"short", "a string longer than twelve bytes",
                                                       kNull, "another string long enough", "x"};
  const Array one_buffer = views(values, utf8_view(), 1000);
  const Array many_buffers = views(values, utf8_view(), 8);
  ASSERT_EQ(one_buffer.data()->buffers.size(), 3u);
  ASSERT_EQ(many_buffers.data()->buffers.size(), 4u);
  EXPECT_TRUE(one_buffer.equals(many_buffers));
  // The same strings placed anywhere in any buffer.
  const std::string long_value = "a value longer than twelve";
  const Array placed = make_array(
      binary_view(), 2,
      {nullptr,
       buffer_of(std::vector<BinaryView>{reference_view(long_value, 1, 5), inline_view("ab")}),
       bytes_of("unused"), bytes_of("....." + long_value)});
  EXPECT_TRUE(placed.equals(views({long_value, "ab"}, binary_view())));
  EXPECT_FALSE(one_buffer.equals(views(
      {"short", "a string longer than twelve bytez", kNull, "another string long enough", "x"})));
}

TEST(EqualTest, ListViewsCompareLogicalLists) {
  const TypePtr type = list_view(int32());
  // [[1, 2], [], [3]] laid out in two different orders, one sharing values.
  const Array forward = list_view_of(type, {0, 2, 2}, {2, 0, 1}, int32s({1, 2, 3}));
  const Array backward = list_view_of(type, {1, 0, 0}, {2, 0, 1}, int32s({3, 1, 2}));
  EXPECT_TRUE(forward.equals(backward));
  EXPECT_TRUE(forward.equals(list_view_of(type, {3, 7, 2}, {2, 0, 1}, int32s({0, 0, 3, 1, 2}))));
  EXPECT_FALSE(forward.equals(list_view_of(type, {0, 2, 2}, {2, 1, 0}, int32s({1, 2, 3}))));
  EXPECT_FALSE(forward.equals(list_view_of(type, {0, 2, 2}, {2, 0, 1}, int32s({1, 2, 4}))));
}

// --- dictionaries ---------------------------------------------------------------------------

TEST(EqualTest, DictionariesCompareDecodedValues) {
  const TypePtr type = dictionary(int16(), utf8());
  const Array a = dictionary_of(type, {0, 1, kNull, 0}, strings({"x", "y"}));
  const Array b = dictionary_of(type, {2, 0, kNull, 2}, strings({"y", "unused", "x"}));
  EXPECT_TRUE(a.equals(b));
  EXPECT_FALSE(a.equals(dictionary_of(type, {0, 0, kNull, 0}, strings({"x", "y"}))));
  EXPECT_FALSE(a.equals(dictionary_of(type, {0, 1, 1, 0}, strings({"x", "y"}))));
  // Duplicate dictionary values: different indices, same value.
  const Array duplicates = dictionary_of(type, {0, 1}, strings({"x", "x"}));
  EXPECT_TRUE(duplicates.equals(
      dictionary_of(type, {1, 0}, duplicates.as<DictionaryArray>().dictionary())));
  // A valid index to a null dictionary value decodes to a null.
  const Array null_value = dictionary_of(type, {1, 0}, strings({"x", kNull}));
  EXPECT_TRUE(null_value.equals(dictionary_of(type, {kNull, 0}, strings({"x"}))));
  EXPECT_FALSE(null_value.equals(dictionary_of(type, {0, 0}, strings({"x"}))));
  // The index type is part of the type.
  EXPECT_FALSE(
      a.equals(dictionary_of(dictionary(int32(), utf8()), {0, 1, kNull, 0}, strings({"x", "y"}))));
}

// --- unions ---------------------------------------------------------------------------------

TEST(EqualTest, DenseUnionsCompareSelectedValues) {
  const TypePtr type = dense_union({field("i", int32()), field("s", utf8())}, {2, 4});
  const Array a = dense_union_of(type, {2, 4, 2}, {0, 0, 1}, {int32s({1, kNull}), strings({"x"})});
  const Array b = dense_union_of(type, {2, 4, 2}, {1, 1, 3},
                                 {int32s({8, 1, 8, kNull}), strings({"unused", "x"})});
  EXPECT_TRUE(a.equals(b));
  EXPECT_FALSE(
      a.equals(dense_union_of(type, {2, 4, 2}, {0, 0, 1}, {int32s({1, 5}), strings({"x"})})));
  // Type ids decide too, even when the selected values both are null.
  const Array nulls_in_int = dense_union_of(type, {2}, {0}, {int32s({kNull}), strings({})});
  const Array nulls_in_str = dense_union_of(type, {4}, {0}, {int32s({}), strings({kNull})});
  EXPECT_FALSE(nulls_in_int.equals(nulls_in_str));
  EXPECT_TRUE(a.slice(1).equals(b.slice(1)));
}

TEST(EqualTest, DenseUnionOffsetAtInt32Max) {
  // Whether the next slot continues a run in the child (offset + 1) used to be computed in 32
  // bits, a signed overflow for an offset of INT32_MAX (valid when the child is that long).
  constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();
  const TypePtr type = dense_union({field("n", null())});
  const Array values = make_array(null(), int64_t{kInt32Max} + 1, {nullptr});
  const Array a = dense_union_of(type, {0, 0}, {kInt32Max, kInt32Max}, {values});
  ASSERT_NO_THROW(a.validate_full());
  EXPECT_TRUE(arrays_equal(a, Array(std::make_shared<ArrayData>(*a.data()))));
}

TEST(EqualTest, ZeroWidthValuesWithoutMemory) {
  // An imported fixed_size_binary[0] array may have a values buffer of no bytes at no address;
  // comparing must not hand that address to memcmp.
  const auto empty_values = [] {
    return make_array(fixed_size_binary(0), 3,
                      {bitmap_of({true, false, true}), Buffer::wrap(nullptr, 0, nullptr)});
  };
  EXPECT_TRUE(empty_values().equals(empty_values()));
  EXPECT_FALSE(empty_values().equals(
      make_array(fixed_size_binary(0), 3, {nullptr, Buffer::wrap(nullptr, 0, nullptr)})));
}

TEST(EqualTest, SparseUnionsIgnoreUnselectedChildren) {
  const TypePtr type = sparse_union({field("i", int32()), field("s", utf8())});
  const Array a = sparse_union_of(type, {0, 1, 0}, {int32s({1, 99, 3}), strings({"?", "x", "?"})});
  const Array b = sparse_union_of(type, {0, 1, 0}, {int32s({1, kNull, 3}), strings({"", "x", ""})});
  EXPECT_TRUE(a.equals(b));
  EXPECT_FALSE(
      a.equals(sparse_union_of(type, {0, 0, 0}, {int32s({1, 99, 3}), strings({"?", "x", "?"})})));
  EXPECT_TRUE(a.slice(1, 2).equals(b.slice(1, 2)));
  EXPECT_FALSE(a.slice(0, 2).equals(b.slice(1, 2)));
}

// --- run-end encoded ------------------------------------------------------------------------

TEST(EqualTest, RunEndEncodedComparesLogicalValues) {
  const TypePtr type = run_end_encoded(int32(), utf8());
  // a a b b b null
  const Array coarse = run_end_encoded_of(type, {2, 5, 6}, strings({"a", "b", kNull}));
  const Array fine =
      run_end_encoded_of(type, {1, 2, 4, 5, 6}, strings({"a", "a", "b", "b", kNull}));
  EXPECT_TRUE(coarse.equals(fine));
  EXPECT_FALSE(coarse.equals(run_end_encoded_of(type, {2, 4, 6}, strings({"a", "b", kNull}))));
  EXPECT_FALSE(coarse.equals(run_end_encoded_of(type, {2, 5, 6}, strings({"a", "b", "c"}))));
  EXPECT_TRUE(coarse.slice(1, 3).equals(fine.slice(1, 3)));
  EXPECT_TRUE(array_range_equal(coarse, 2, fine, 3, 2));
  EXPECT_FALSE(array_range_equal(coarse, 1, fine, 3, 2));
  // A window that starts and ends inside runs.
  const Array window = run_end_encoded_of(type, {3, 4}, strings({"b", kNull}));
  EXPECT_TRUE(coarse.slice(2).equals(run_end_encoded_of(type, {3, 4}, strings({"b", kNull}))));
  EXPECT_TRUE(window.slice(1, 2).equals(fine.slice(3, 2)));
}

// --- floating point -------------------------------------------------------------------------

TEST(EqualTest, NaNsDifferUnlessAsked) {
  const Array a = doubles({1.0, kNaN});
  const Array b = doubles({1.0, kNaN});
  EXPECT_FALSE(a.equals(b));
  EXPECT_FALSE(a.equals(a));  // as IEEE comparison says, even for the same array
  EXPECT_TRUE(a.equals(b, nans_equal()));
  EXPECT_TRUE(a.equals(a, nans_equal()));
  EXPECT_FALSE(a.equals(doubles({1.0, 2.0}), nans_equal()));
  const Array floats = array_of<float>(float32(), {std::numeric_limits<float>::quiet_NaN()});
  EXPECT_FALSE(floats.equals(floats));
  EXPECT_TRUE(floats.equals(floats, nans_equal()));
  // Nested: a list of doubles holding NaN.
  const Array nested = list_of(list(float64()), {0, 2}, doubles({kNaN, 1.0}));
  EXPECT_FALSE(nested.equals(nested));
  EXPECT_TRUE(nested.equals(nested, nans_equal()));
  // Without floats an array always equals itself.
  const Array ints = list_of(list(int64()), {0, 1}, int64s({1}));
  EXPECT_TRUE(ints.equals(ints));
}

TEST(EqualTest, DictionaryNaNsDifferUnlessAsked) {
  // Decoded values decide, whichever dictionary holds them: a NaN is not equal to itself even
  // when both sides use the same index of the same dictionary.
  const TypePtr type = dictionary(int8(), float64());
  const Array a = dictionary_of(type, {1, 0}, doubles({kNaN, 1.0}));
  const Array same_dictionary = dictionary_of(type, {1, 0}, a.as<DictionaryArray>().dictionary());
  const Array other_dictionary = dictionary_of(type, {1, 0}, doubles({kNaN, 1.0}));
  EXPECT_FALSE(a.equals(a));
  EXPECT_FALSE(a.equals(same_dictionary));
  EXPECT_FALSE(a.equals(other_dictionary));
  EXPECT_TRUE(a.equals(a, nans_equal()));
  EXPECT_TRUE(a.equals(same_dictionary, nans_equal()));
  EXPECT_TRUE(a.equals(other_dictionary, nans_equal()));
  EXPECT_TRUE(a.slice(0, 1).equals(same_dictionary.slice(0, 1)));
}

TEST(EqualTest, SignedZerosAreEqual) {
  EXPECT_TRUE(doubles({0.0}).equals(doubles({-0.0})));
  EXPECT_TRUE(array_of<float>(float32(), {-0.0f}).equals(array_of<float>(float32(), {0.0f})));
  EXPECT_TRUE(array_of<uint16_t>(float16(), {0x8000}).equals(array_of<uint16_t>(float16(), {0})));
}

TEST(EqualTest, HalfFloatsCompareAsNumbers) {
  // NaN with two different payloads.
  const Array a = array_of<uint16_t>(float16(), {0x7E00});
  const Array b = array_of<uint16_t>(float16(), {0x7E01});
  EXPECT_FALSE(a.equals(b));
  EXPECT_TRUE(a.equals(b, nans_equal()));
  // 1.0 and the next half float, 1.0009765625.
  const Array one = array_of<uint16_t>(float16(), {0x3C00});
  const Array next = array_of<uint16_t>(float16(), {0x3C01});
  EXPECT_FALSE(one.equals(next));
  EqualOptions loose = approximately();
  loose.absolute_tolerance = 1e-3;
  EXPECT_TRUE(one.equals(next, loose));
  // Subnormals and infinities convert exactly.
  EXPECT_FALSE(
      array_of<uint16_t>(float16(), {0x0001}).equals(array_of<uint16_t>(float16(), {0x0002})));
  EXPECT_TRUE(array_of<uint16_t>(float16(), {0x0001})
                  .equals(array_of<uint16_t>(float16(), {0x0002}), approximately()));
  EXPECT_TRUE(
      array_of<uint16_t>(float16(), {0x7C00}).equals(array_of<uint16_t>(float16(), {0x7C00})));
}

TEST(EqualTest, ApproximateComparison) {
  const Array a = doubles({1.0, 100.0, kNull});
  const Array close = doubles({1.0 + 1e-7, 100.0 - 1e-6, kNull});
  EXPECT_FALSE(a.equals(close));
  EXPECT_TRUE(a.equals(close, approximately()));
  EXPECT_FALSE(a.equals(doubles({1.1, 100.0, kNull}), approximately()));
  // Large values are compared relative to their size.
  const Array large = doubles({1e20});
  EXPECT_TRUE(large.equals(doubles({1e20 * (1 + 1e-12)}), approximately()));
  EXPECT_FALSE(large.equals(doubles({1e20 * (1 + 1e-6)}), approximately()));
  EqualOptions relaxed = approximately();
  relaxed.relative_tolerance = 1e-3;
  EXPECT_TRUE(large.equals(doubles({1e20 * (1 + 1e-6)}), relaxed));
  // Infinities equal only themselves, NaN still needs nans_equal.
  const double infinity = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(doubles({infinity}).equals(doubles({infinity}), approximately()));
  EXPECT_FALSE(doubles({infinity}).equals(doubles({-infinity}), approximately()));
  EXPECT_FALSE(doubles({infinity}).equals(doubles({1e308}), approximately()));
  EXPECT_FALSE(doubles({kNaN}).equals(doubles({kNaN}), approximately()));
  EqualOptions both = approximately();
  both.nans_equal = true;
  EXPECT_TRUE(doubles({kNaN}).equals(doubles({kNaN}), both));
  // Tolerance applies inside nested types, but never to integers.
  const Array nested = list_of(list(float32()), {0, 1}, array_of<float>(float32(), {0.5f}));
  EXPECT_TRUE(nested.equals(
      list_of(list(float32()), {0, 1}, array_of<float>(float32(), {0.500001f})), approximately()));
  EXPECT_FALSE(int64s({1}).equals(int64s({2}), approximately()));
}

// --- nested ---------------------------------------------------------------------------------

TEST(EqualTest, NestedValuesDecide) {
  const TypePtr inner = struct_({field("a", int32()), field("b", list(utf8()))});
  const auto make = [&](std::string last) {
    return list_of(
        list(inner), {0, 1, 3},
        struct_of(inner, 3,
                  {int32s({1, 2, 3}), list_of(list(utf8()), {0, 1, 1, 3}, strings({"p", "q", last}),
                                              {true, false, true})}));
  };
  EXPECT_TRUE(make("r").equals(make("r")));
  EXPECT_FALSE(make("r").equals(make("s")));
  const TypePtr map_type = map(utf8(), int32());
  const auto make_map = [&](int32_t value) {
    return list_of(
        map_type, {0, 2},
        struct_of(map_type->field(0)->type(), 2, {strings({"k1", "k2"}), int32s({1, value})}));
  };
  EXPECT_TRUE(make_map(2).equals(make_map(2)));
  EXPECT_FALSE(make_map(2).equals(make_map(3)));
}

}  // namespace
}  // namespace bowstring
