#include "bowstring/array/validate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "bowstring/array/equal.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/util/error.h"

namespace bowstring {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using namespace testing;

const std::nullopt_t kNull = std::nullopt;

/// The message of the FormatError that cheap validation throws; full validation must throw the
/// same problem. Any other exception escapes and fails the test.
std::string cheap_error(const Array& array) {
  std::string message = "(no error)";
  try {
    array.validate();
  } catch (const FormatError& error) {
    message = error.what();
  }
  try {
    array.validate_full();
    ADD_FAILURE() << "validate_full() accepted what validate() rejects: " << message;
  } catch (const FormatError& error) {
    EXPECT_EQ(error.what(), message);
  }
  return message;
}

/// The message of the FormatError that only full validation finds.
std::string full_error(const Array& array) {
  try {
    array.validate();
  } catch (const FormatError& error) {
    ADD_FAILURE() << "validate() should pass, but: " << error.what();
  }
  try {
    array.validate_full();
  } catch (const FormatError& error) {
    return error.what();
  }
  return "(no error)";
}

// --- valid arrays ---------------------------------------------------------------------------

TEST(ValidateTest, EverySamplePassesBothModes) {
  for (const auto& [name, array] : sample_arrays()) {
    SCOPED_TRACE(name);
    EXPECT_NO_THROW(array.validate());
    EXPECT_NO_THROW(array.validate_full());
    EXPECT_NO_THROW(validate(*array.data()));
    EXPECT_NO_THROW(validate_full(*array.data()));
    const Array empty = array.slice(0, 0);
    EXPECT_NO_THROW(empty.validate_full());
    const Array tail = array.slice(array.length() / 2);
    EXPECT_NO_THROW(tail.validate_full());
  }
}

TEST(ValidateTest, BuilderOutputsPassAndEqualHandBuiltArrays) {
  const std::vector<std::optional<std::string>> values{
      "short", kNull, "a string longer than twelve bytes", "", "\xc3\xa9t\xc3\xa9"};
  for (const TypePtr& type :
       {utf8(), large_utf8(), binary(), large_binary(), utf8_view(), binary_view()}) {
    SCOPED_TRACE(type->to_string());
    const Array built = make_string_array(values, type);
    EXPECT_NO_THROW(built.validate_full());
    const bool is_view = type->id() == TypeId::kStringView || type->id() == TypeId::kBinaryView;
    EXPECT_TRUE(built.equals(is_view ? views(values, type) : strings(values, type)));
  }
  const Array ints = make_array<int64_t>({1, kNull, 3});
  EXPECT_NO_THROW(ints.validate_full());
  EXPECT_TRUE(ints.equals(int64s({1, kNull, 3})));
  const Array bits = make_array<bool>({true, kNull, false});
  EXPECT_NO_THROW(bits.validate_full());
  EXPECT_TRUE(bits.equals(booleans({true, kNull, false})));
  EXPECT_NO_THROW(make_array<uint16_t>(float16(), {0x3C00, kNull}).validate_full());
  EXPECT_NO_THROW(make_string_array({"abc", kNull}, fixed_size_binary(3)).validate_full());
  EXPECT_NO_THROW(make_struct_array({{"i", ints}, {"s", make_string_array({"a", "b", kNull})}},
                                    {true, false, true})
                      .validate_full());
}

TEST(ValidateTest, KnownNullCountsThatAreRightPass) {
  EXPECT_NO_THROW(with_null_count(int64s({1, kNull, kNull}), 2).validate_full());
  EXPECT_NO_THROW(with_null_count(int64s({1, 2}), 0).validate_full());
  EXPECT_NO_THROW(with_null_count(make_array(null(), 3, {nullptr}), 3).validate_full());
}

TEST(ValidateTest, BinaryDataBufferMayBeAbsentWhenNoValueHasBytes) {
  EXPECT_NO_THROW(
      make_array(utf8(), 2, {nullptr, buffer_of<int32_t>({0, 0, 0}), nullptr}).validate_full());
}

TEST(ValidateTest, ValidMultiByteUtf8Passes) {
  // Two-, three- and four-byte sequences at their limits.
  EXPECT_NO_THROW(strings({"\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xe2\x82\xac", "\xed\x9f\xbf",
                           "\xee\x80\x80", "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf",
                           "ascii text longer than eight bytes \xe2\x82\xac and more"})
                      .validate_full());
}

// --- buffers --------------------------------------------------------------------------------

TEST(ValidateTest, WrongNumberOfBuffers) {
  const Array array = make_array(int64(), 1, {nullptr, buffer_of<int64_t>({1}), nullptr});
  EXPECT_EQ(cheap_error(array), "array has 3 buffers, expected 2 in int64");
}

TEST(ValidateTest, ViewArraysNeedValidityAndViews) {
  const Array array = make_array(utf8_view(), 0, {nullptr});
  EXPECT_THAT(cheap_error(array), HasSubstr("has 1 buffers, expected at least 2"));
}

TEST(ValidateTest, MissingValuesBuffer) {
  const Array array = make_array(int32(), 2, {nullptr, nullptr});
  EXPECT_EQ(cheap_error(array), "required buffer is missing in buffer 1 (values) of int32");
}

TEST(ValidateTest, ValuesBufferTooSmallForOffsetPlusLength) {
  const Array short_values = make_array(int64(), 3, {nullptr, buffer_of<int64_t>({1, 2})});
  EXPECT_EQ(cheap_error(short_values),
            "buffer has 16 bytes, fewer than the 24 needed for offset 0 + length 3 in buffer 1 "
            "(values) of int64");
  const Array offset_values =
      make_array(int64(), 2, {nullptr, buffer_of<int64_t>({1, 2, 3})}, {}, {}, 2);
  EXPECT_THAT(cheap_error(offset_values), HasSubstr("fewer than the 32 needed for offset 2"));
  const Array intervals =
      make_array(month_day_nano_interval(), 2, {nullptr, buffer_of<int64_t>({1, 2, 3})});
  EXPECT_THAT(cheap_error(intervals), HasSubstr("fewer than the 32 needed"));
  const Array decimals = make_array(decimal128(10, 2), 1, {nullptr, buffer_of<int64_t>({1})});
  EXPECT_THAT(cheap_error(decimals), HasSubstr("fewer than the 16 needed"));
}

TEST(ValidateTest, ValidityBitmapTooSmall) {
  std::vector<int32_t> values(20, 1);
  const Array array = make_array(int32(), 20, {bitmap_of({true, false}), buffer_of(values)});
  EXPECT_EQ(cheap_error(array),
            "buffer has 1 bytes, fewer than the 3 needed for offset 0 + length 20 in buffer 0 "
            "(validity) of int32");
}

TEST(ValidateTest, BooleanValuesTooSmall) {
  const Array array = make_array(boolean(), 9, {nullptr, bitmap_of({true})});
  EXPECT_THAT(cheap_error(array),
              AllOf(HasSubstr("fewer than the 2 needed"), HasSubstr("buffer 1 (values) of bool")));
}

TEST(ValidateTest, FixedSizeBinaryValuesTooSmall) {
  const Array array = make_array(fixed_size_binary(4), 2, {nullptr, bytes_of("abcdefg")});
  EXPECT_THAT(cheap_error(array), HasSubstr("buffer has 7 bytes, fewer than the 8 needed"));
}

TEST(ValidateTest, OffsetsTooSmall) {
  const Array array =
      make_array(utf8(), 3, {nullptr, buffer_of<int32_t>({0, 1, 2}), bytes_of("ab")});
  EXPECT_EQ(cheap_error(array),
            "buffer has 12 bytes, fewer than the 16 needed for offset 0 + length 3 in buffer 1 "
            "(offsets) of string");
  const Array large =
      make_array(large_list(int32()), 1, {nullptr, buffer_of<int64_t>({0})}, {int32s({})});
  EXPECT_THAT(cheap_error(large), HasSubstr("fewer than the 16 needed"));
}

TEST(ValidateTest, ListViewSizesTooSmall) {
  const Array array =
      make_array(list_view(int32()), 2,
                 {nullptr, buffer_of<int32_t>({0, 0}), buffer_of<int32_t>({0})}, {int32s({})});
  EXPECT_THAT(cheap_error(array), AllOf(HasSubstr("fewer than the 8 needed"),
                                        HasSubstr("buffer 2 (sizes) of list_view<item: int32>")));
}

TEST(ValidateTest, UnionTypeIdsAndDenseOffsetsTooSmall) {
  const TypePtr sparse = sparse_union({field("a", int32())});
  EXPECT_THAT(
      cheap_error(make_array(sparse, 3, {nullptr, buffer_of<int8_t>({0, 0})}, {int32s({1, 2, 3})})),
      HasSubstr("fewer than the 3 needed for offset 0 + length 3 in buffer 1 (type ids)"));
  const TypePtr dense = dense_union({field("a", int32())});
  // Dense unions have one offset per slot, not one more than the length.
  EXPECT_NO_THROW(make_array(dense, 2,
                             {nullptr, buffer_of<int8_t>({0, 0}), buffer_of<int32_t>({0, 1})},
                             {int32s({1, 2})})
                      .validate_full());
  EXPECT_THAT(cheap_error(make_array(dense, 2,
                                     {nullptr, buffer_of<int8_t>({0, 0}), buffer_of<int32_t>({0})},
                                     {int32s({1, 2})})),
              HasSubstr("fewer than the 8 needed for offset 0 + length 2 in buffer 2 (offsets)"));
}

TEST(ValidateTest, ViewsBufferTooSmallAndDataBufferMissing) {
  const Array few_views =
      make_array(utf8_view(), 2, {nullptr, buffer_of(std::vector<BinaryView>{inline_view("a")})});
  EXPECT_THAT(cheap_error(few_views),
              HasSubstr("fewer than the 32 needed for offset 0 + length 2 in buffer 1 (views)"));
  const Array missing_data = make_array(
      binary_view(), 1, {nullptr, buffer_of(std::vector<BinaryView>{inline_view("a")}), nullptr});
  EXPECT_EQ(cheap_error(missing_data),
            "data buffer is missing in buffer 2 (data buffer 0) of binary_view");
}

TEST(ValidateTest, OffsetPlusLengthOverflow) {
  const Array array = make_array(int8(), std::numeric_limits<int64_t>::max(),
                                 {nullptr, buffer_of<int8_t>({1})}, {}, {}, 2);
  EXPECT_THAT(cheap_error(array), HasSubstr("overflows"));
}

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

TEST(ValidateTest, BitmapSizesDoNotOverflowNearInt64Max) {
  // A bitmap of offset + length bits needs (offset + length + 7) / 8 bytes; computed that way it
  // wraps negative and any bitmap seems large enough.
  EXPECT_EQ(cheap_error(make_array(boolean(), kInt64Max, {nullptr, bitmap_of({true})})),
            "buffer has 1 bytes, fewer than the 1152921504606846976 needed for offset 0 + length "
            "9223372036854775807 in buffer 1 (values) of bool");
  EXPECT_THAT(cheap_error(make_array(struct_({}), kInt64Max, {bitmap_of({true})})),
              HasSubstr("fewer than the 1152921504606846976 needed"));
  EXPECT_THAT(cheap_error(make_array(int8(), 1, {bitmap_of({true}), buffer_of<int8_t>({1})}, {}, {},
                                     kInt64Max - 1)),
              HasSubstr("in buffer 0 (validity)"));
}

TEST(ValidateTest, OffsetCountDoesNotOverflowAtInt64Max) {
  // length + 1 offsets for a length of 2^63 - 1.
  EXPECT_THAT(
      cheap_error(make_array(utf8(), kInt64Max, {nullptr, buffer_of<int32_t>({0}), nullptr})),
      HasSubstr("in buffer 1 (offsets) of string"));
  EXPECT_THAT(cheap_error(make_array(large_list(int8()), 1, {nullptr, buffer_of<int64_t>({0, 0})},
                                     {array_of<int8_t>(int8(), {})}, {}, kInt64Max - 1)),
              HasSubstr("in buffer 1 (offsets) of large_list"));
}

TEST(ValidateTest, FixedSizeListCountDoesNotOverflow) {
  const TypePtr type = fixed_size_list(int8(), std::numeric_limits<int32_t>::max());
  EXPECT_THAT(cheap_error(fixed_size_list_of(type, kInt64Max / 2, array_of<int8_t>(int8(), {1}))),
              HasSubstr("fewer than the 9223372036854775807 values"));
}

TEST(ValidateTest, NegativeLengthsAndOffsetsSetAfterConstruction) {
  // The constructor refuses them, but the fields are public until the data is shared.
  auto negative_length = std::make_shared<ArrayData>(*int64s({1, 2}).data());
  negative_length->length = -1;
  EXPECT_EQ(cheap_error(Array(negative_length)),
            "length -1 and offset 0 must be non-negative in int64");
  auto negative_offset = std::make_shared<ArrayData>(*int32s({1}).data());
  negative_offset->offset = std::numeric_limits<int64_t>::min();
  const TypePtr type = struct_({field("a", int32())});
  EXPECT_THAT(cheap_error(struct_of(type, 1, {Array(negative_offset)})),
              HasSubstr("must be non-negative in child 0 'a' of struct<a: int32>"));
}

TEST(ValidateTest, ArraysWithoutATypeAreRejected) {
  auto untyped = std::make_shared<ArrayData>(*int32s({1}).data());
  untyped->type = nullptr;
  EXPECT_EQ(cheap_error(Array(untyped)), "array has no type");
  const TypePtr type = struct_({field("a", int32())});
  EXPECT_EQ(cheap_error(struct_of(type, 1, {Array(untyped)})),
            "child 0 'a' has no type in struct<a: int32>");
  EXPECT_EQ(cheap_error(dictionary_of(dictionary(int8(), int32()), {0}, Array(untyped))),
            "dictionary has no type in dictionary<values=int32, indices=int8, ordered=0>");
}

/// `levels` lists nested around an empty int8 array.
Array nested_lists(int levels) {
  Array array = array_of<int8_t>(int8(), {});
  for (int level = 0; level < levels; ++level) {
    array = list_of(list(array.type()), {0}, array);
  }
  return array;
}

TEST(ValidateTest, NestingDepthIsLimited) {
  // The innermost array of 64 nested lists is 64 levels below the top.
  EXPECT_NO_THROW(nested_lists(kMaxNestingDepth).validate_full());
  EXPECT_THAT(cheap_error(nested_lists(kMaxNestingDepth + 1)),
              AllOf(HasSubstr("array is nested more than 64 levels deep in child 0 'item' of"),
                    HasSubstr("list<item: list<item: ")));
  EXPECT_THAT(cheap_error(nested_lists(1000)), HasSubstr("nested more than 64 levels deep"));
  // Dictionaries count as a level.
  Array encoded = int32s({0});
  for (int level = 0; level <= kMaxNestingDepth; ++level) {
    encoded = dictionary_of(dictionary(int8(), encoded.type()), {0}, encoded);
  }
  EXPECT_THAT(cheap_error(encoded), HasSubstr("nested more than 64 levels deep in dictionary of"));
}

// --- null counts ----------------------------------------------------------------------------

TEST(ValidateTest, NullCountLargerThanLength) {
  EXPECT_EQ(cheap_error(with_null_count(int64s({1, kNull, 3}), 5)),
            "null count 5 is outside [0, length 3] in int64");
}

TEST(ValidateTest, NullCountWithoutValidityBitmap) {
  EXPECT_EQ(cheap_error(with_null_count(int64s({1, 2, 3}), 1)),
            "null count is 1 but there is no validity bitmap in int64");
}

TEST(ValidateTest, NullCountDisagreesWithBitmap) {
  const Array array = with_null_count(int64s({1, kNull, kNull}), 1);
  EXPECT_EQ(full_error(array), "null count is 1 but the validity bitmap has 2 nulls in int64");
}

TEST(ValidateTest, NullArrayNullCountMustBeItsLength) {
  EXPECT_THAT(cheap_error(with_null_count(make_array(null(), 4, {nullptr}), 2)),
              HasSubstr("null count 2 of a null array differs from its length 4"));
}

TEST(ValidateTest, UnionAndRunEndEncodedNullCountMustBeZero) {
  const Array sparse = sparse_union_of(sparse_union({field("a", int32())}), {0}, {int32s({kNull})});
  EXPECT_THAT(cheap_error(with_null_count(sparse, 1)),
              HasSubstr("sparse_union arrays keep their nulls in their children"));
  const Array runs = run_end_encoded_of(run_end_encoded(int32(), int32()), {2}, int32s({kNull}));
  EXPECT_THAT(cheap_error(with_null_count(runs, 2)),
              HasSubstr("run_end_encoded arrays keep their nulls in their children"));
}

TEST(ValidateTest, TypesWithoutValidityMustNotHaveABitmap) {
  EXPECT_EQ(cheap_error(make_array(null(), 2, {bitmap_of({true, true})})),
            "buffer must be absent: null arrays have no validity bitmap in buffer 0 (unused) of "
            "null");
  const Array sparse = make_array(sparse_union({field("a", int32())}), 1,
                                  {bitmap_of({true}), buffer_of<int8_t>({0})}, {int32s({1})});
  EXPECT_THAT(cheap_error(sparse), HasSubstr("sparse_union arrays have no validity bitmap"));
  const Array runs =
      make_array(run_end_encoded(int32(), int32()), 1, {bitmap_of({true})},
                 {make_array(int32(), 1, {nullptr, buffer_of<int32_t>({1})}), int32s({1})});
  EXPECT_THAT(cheap_error(runs), HasSubstr("run_end_encoded arrays have no validity bitmap"));
}

// --- children and dictionaries --------------------------------------------------------------

TEST(ValidateTest, WrongNumberOfChildren) {
  const TypePtr type = struct_({field("a", int32()), field("b", int32())});
  EXPECT_EQ(cheap_error(struct_of(type, 1, {int32s({1})})),
            "array has 1 children, expected 2 in struct<a: int32, b: int32>");
  EXPECT_THAT(
      cheap_error(make_array(int32(), 1, {nullptr, buffer_of<int32_t>({1})}, {int32s({1})})),
      HasSubstr("array has 1 children, expected 0"));
}

TEST(ValidateTest, MissingChild) {
  const Array array(std::make_shared<ArrayData>(
      list(int32()), 0, std::vector<std::shared_ptr<Buffer>>{nullptr, buffer_of<int32_t>({0})},
      ArrayData::kUnknownNullCount, 0, std::vector<ArrayDataPtr>{nullptr}));
  EXPECT_EQ(cheap_error(array), "child 0 'item' is missing in list<item: int32>");
}

TEST(ValidateTest, ChildOfTheWrongType) {
  const Array array = list_of(list(int64()), {0, 1}, int32s({1}));
  EXPECT_EQ(cheap_error(array),
            "child 0 'item' has type int32, expected int64 in list<item: int64>");
  // Field names are part of the type.
  const TypePtr type = struct_({field("a", list(field("element", int32())))});
  EXPECT_THAT(cheap_error(struct_of(type, 1, {list_of(list(int32()), {0, 1}, int32s({1}))})),
              HasSubstr("child 0 'a' has type list<item: int32>, expected list<element: int32>"));
}

TEST(ValidateTest, StructChildShorterThanParent) {
  const TypePtr type = struct_({field("a", int32()), field("b", utf8())});
  const Array array = struct_of(type, 3, {int32s({1, 2, 3}), strings({"x", "y"})});
  EXPECT_EQ(cheap_error(array),
            "child 1 'b' has length 2, shorter than the parent's offset 0 + length 3 in "
            "struct<a: int32, b: string>");
  // The struct's offset applies to its children.
  const Array offset =
      make_array(type, 2, {nullptr}, {int32s({1, 2, 3}), strings({"x", "y", "z"})}, {}, 2);
  EXPECT_THAT(cheap_error(offset), HasSubstr("shorter than the parent's offset 2 + length 2"));
}

TEST(ValidateTest, SparseUnionChildShorterThanUnion) {
  const Array array = sparse_union_of(sparse_union({field("a", int32()), field("b", utf8())}),
                                      {0, 1, 0}, {int32s({1, 2, 3}), strings({"x"})});
  EXPECT_THAT(cheap_error(array),
              HasSubstr("child 1 'b' has length 1, shorter than the parent's offset 0 + length 3"));
}

TEST(ValidateTest, FixedSizeListChildTooShort) {
  const Array array = fixed_size_list_of(fixed_size_list(int32(), 3), 2, int32s({1, 2, 3, 4, 5}));
  EXPECT_EQ(cheap_error(array),
            "child 0 'item' has length 5, fewer than the 6 values of offset 0 + length 2 lists "
            "of size 3 in fixed_size_list<item: int32>[3]");
}

TEST(ValidateTest, DictionaryMissing) {
  const Array array =
      make_array(dictionary(int32(), utf8()), 1, {nullptr, buffer_of<int32_t>({0})});
  EXPECT_EQ(cheap_error(array),
            "dictionary array has no dictionary in dictionary<values=string, indices=int32, "
            "ordered=0>");
}

TEST(ValidateTest, DictionaryOfTheWrongType) {
  const Array array = dictionary_of(dictionary(int32(), utf8()), {0}, int32s({1}));
  EXPECT_THAT(cheap_error(array), HasSubstr("dictionary has type int32, expected string"));
}

TEST(ValidateTest, DictionaryOnANonDictionaryType) {
  const Array array =
      make_array(int32(), 1, {nullptr, buffer_of<int32_t>({0})}, {}, strings({"x"}));
  EXPECT_EQ(cheap_error(array),
            "array has a dictionary but its type is not a dictionary type in int32");
}

// --- first and last offsets -----------------------------------------------------------------

TEST(ValidateTest, FirstOffsetNegative) {
  const Array array = make_array(utf8(), 1, {nullptr, buffer_of<int32_t>({-1, 1}), bytes_of("ab")});
  EXPECT_EQ(cheap_error(array), "first offset -1 is negative in buffer 1 (offsets) of string");
}

TEST(ValidateTest, LastOffsetBeforeFirst) {
  const Array array =
      make_array(binary(), 2, {nullptr, buffer_of<int32_t>({2, 3, 1}), bytes_of("abc")});
  EXPECT_THAT(cheap_error(array), HasSubstr("last offset 1 is smaller than the first offset 2"));
}

TEST(ValidateTest, LastOffsetPastTheData) {
  const Array array =
      make_array(large_utf8(), 2, {nullptr, buffer_of<int64_t>({0, 2, 5}), bytes_of("abcd")});
  EXPECT_EQ(cheap_error(array),
            "last offset 5 is past the end of the 4-byte data buffer in buffer 1 (offsets) of "
            "large_string");
  const Array no_data = make_array(binary(), 1, {nullptr, buffer_of<int32_t>({0, 1}), nullptr});
  EXPECT_THAT(cheap_error(no_data), HasSubstr("past the end of the 0-byte data buffer"));
}

TEST(ValidateTest, LastOffsetPastTheChild) {
  EXPECT_EQ(cheap_error(list_of(list(int64()), {0, 2, 4}, int64s({1, 2, 3}))),
            "last offset 4 is past the end of the child array of length 3 in buffer 1 (offsets) "
            "of list<item: int64>");
  EXPECT_THAT(cheap_error(list_of(large_list(int64()), {0, 4}, int64s({1, 2, 3}))),
              HasSubstr("last offset 4 is past the end of the child array of length 3"));
  const TypePtr map_type = map(utf8(), int32());
  const Array entries = struct_of(map_type->field(0)->type(), 1, {strings({"k"}), int32s({1})});
  EXPECT_THAT(cheap_error(list_of(map_type, {0, 2}, entries)),
              HasSubstr("last offset 2 is past the end of the child array of length 1"));
}

// --- run-end encoded, cheap -----------------------------------------------------------------

TEST(ValidateTest, RunEndsLongerThanValues) {
  const Array array =
      run_end_encoded_of(run_end_encoded(int32(), utf8()), {1, 2, 3}, strings({"a", "b"}));
  EXPECT_EQ(cheap_error(array),
            "array has 3 run ends but only 2 values in run_end_encoded<run_ends: int32, values: "
            "string>");
}

TEST(ValidateTest, RunEndEncodedWithoutRuns) {
  const TypePtr type = run_end_encoded(int16(), utf8());
  const Array array = make_array(
      type, 3, {nullptr}, {make_array(int16(), 0, {nullptr, buffer_of<int16_t>({})}), strings({})});
  EXPECT_THAT(cheap_error(array), HasSubstr("array has length 3 but no runs"));
}

TEST(ValidateTest, LastRunEndTooSmall) {
  const TypePtr type = run_end_encoded(int64(), int32());
  const Array array = make_array(
      type, 4, {nullptr},
      {make_array(int64(), 2, {nullptr, buffer_of<int64_t>({2, 4})}), int32s({1, 2})}, {}, 1);
  EXPECT_THAT(cheap_error(array), HasSubstr("last run end 4 is smaller than offset 1 + length 4"));
}

// --- where a problem is reported ------------------------------------------------------------

TEST(ValidateTest, NestedProblemsNameTheirPath) {
  const TypePtr inner = list(int64());
  const TypePtr type = struct_({field("a", int32()), field("b", inner)});
  const Array bad_list = list_of(inner, {0, 2, 9}, int64s({1, 2, 3}));
  const Array array = struct_of(type, 2, {int32s({1, 2}), bad_list});
  EXPECT_EQ(cheap_error(array),
            "last offset 9 is past the end of the child array of length 3 in buffer 1 (offsets) "
            "of child 1 'b' of struct<a: int32, b: list<item: int64>>");

  const TypePtr outer = list(type);
  const Array nested = list_of(outer, {0, 2}, array);
  EXPECT_THAT(cheap_error(nested),
              HasSubstr("of child 1 'b' of child 0 'item' of list<item: struct<a: int32, b: "
                        "list<item: int64>>>"));
}

TEST(ValidateTest, DictionaryProblemsNameTheDictionary) {
  const Array bad_dictionary =
      make_array(utf8(), 1, {nullptr, buffer_of<int32_t>({0, 7}), bytes_of("ab")});
  const Array array = dictionary_of(dictionary(int8(), utf8()), {0}, bad_dictionary);
  EXPECT_EQ(cheap_error(array),
            "last offset 7 is past the end of the 2-byte data buffer in buffer 1 (offsets) of "
            "dictionary of dictionary<values=string, indices=int8, ordered=0>");
}

TEST(ValidateTest, ExtensionArraysAreValidatedAsTheirStorage) {
  const Array array = make_array(extension(utf8(), "example.text"), 1,
                                 {nullptr, buffer_of<int32_t>({0, 1}), bytes_of("\xff")});
  EXPECT_EQ(full_error(array),
            "value 0 is not valid UTF-8 (byte 0 of 1) in extension<example.text, "
            "storage=string>");
  const Array short_values =
      make_array(extension(int64(), "example.ticks"), 2, {nullptr, buffer_of<int64_t>({1})});
  EXPECT_THAT(cheap_error(short_values), HasSubstr("fewer than the 16 needed"));
}

// --- full: offsets --------------------------------------------------------------------------

TEST(ValidateTest, OffsetsMustNotDecrease) {
  const Array list_array = list_of(list(int64()), {0, 3, 2, 4}, int64s({1, 2, 3, 4}));
  EXPECT_EQ(full_error(list_array),
            "offset 2 (value 2) is smaller than the previous offset 3 in buffer 1 (offsets) of "
            "list<item: int64>");
  const Array strings_array =
      make_array(utf8(), 3, {nullptr, buffer_of<int32_t>({0, 2, 1, 3}), bytes_of("abc")});
  EXPECT_THAT(full_error(strings_array),
              HasSubstr("offset 2 (value 1) is smaller than the previous offset 2"));
  const Array large_binary_array =
      make_array(large_binary(), 2, {nullptr, buffer_of<int64_t>({0, 3, 2}), bytes_of("abc")});
  EXPECT_THAT(full_error(large_binary_array), HasSubstr("in buffer 1 (offsets) of large_binary"));
  const Array large_list_array =
      list_of(large_list(int32()), {1, 0, 2}, int32s({1, 2}), {true, false});
  EXPECT_THAT(full_error(large_list_array),
              HasSubstr("offset 1 (value 0) is smaller than the previous offset 1"));
}

TEST(ValidateTest, OffsetsOfASliceAreCheckedInItsWindowOnly) {
  // Offsets before the window decrease, but the slice never looks at them.
  const Array array =
      make_array(utf8(), 2, {nullptr, buffer_of<int32_t>({5, 0, 1, 2}), bytes_of("ab")}, {}, {}, 1);
  EXPECT_NO_THROW(array.validate_full());
}

// --- full: UTF-8 ----------------------------------------------------------------------------

TEST(ValidateTest, InvalidUtf8) {
  EXPECT_EQ(full_error(strings({"ok", "\xff"})),
            "value 1 is not valid UTF-8 (byte 0 of 1) in string");
  const struct {
    const char* name;
    std::string bytes;
  } cases[] = {
      {"lone continuation byte", "ab\x80"},
      {"overlong two-byte form", "\xc0\xaf"},
      {"overlong three-byte form", "\xe0\x80\xaf"},
      {"overlong four-byte form", "\xf0\x80\x80\xaf"},
      {"surrogate", "\xed\xa0\x80"},
      {"past U+10FFFF", "\xf4\x90\x80\x80"},
      {"invalid lead byte", "\xf5\x80\x80\x80"},
      {"truncated sequence", "abcdefghij\xe2\x82"},
      {"bad continuation", "\xe2\x28\xa1"},
  };
  for (const auto& bad : cases) {
    SCOPED_TRACE(bad.name);
    EXPECT_THAT(full_error(strings({"fine", bad.bytes}, large_utf8())),
                HasSubstr("value 1 is not valid UTF-8"));
  }
  EXPECT_THAT(full_error(strings({"abcdefghijk\xff"})), HasSubstr("(byte 11 of 12)"));
}

TEST(ValidateTest, Utf8IsCheckedPerValueAndNotUnderNulls) {
  // A sequence split across two values is invalid in each of them.
  EXPECT_THAT(full_error(strings({"\xe2\x82", "\xac"})), HasSubstr("value 0 is not valid UTF-8"));
  // Bytes under a null are not a value.
  const Array null_garbage = make_array(
      utf8(), 2, {bitmap_of({true, false}), buffer_of<int32_t>({0, 1, 2}), bytes_of("a\xff")});
  EXPECT_NO_THROW(null_garbage.validate_full());
  // A slice is checked in its window only.
  EXPECT_NO_THROW(strings({"\xff", "ok", "caf\xc3\xa9", ""}).slice(1).validate_full());
  EXPECT_THAT(full_error(strings({"ok", "caf\xc3", "\xa9"}).slice(1)),
              HasSubstr("value 0 is not valid UTF-8"));
  // Binary types hold any bytes.
  EXPECT_NO_THROW(strings({"\xff\xfe"}, binary()).validate_full());
  EXPECT_NO_THROW(views({"\xff\xfe and more than twelve bytes"}, binary_view()).validate_full());
}

// --- full: views ----------------------------------------------------------------------------

Array view_array(TypePtr type, const std::vector<BinaryView>& views_in,
                 const std::vector<std::string>& data, const std::vector<bool>& validity = {}) {
  std::vector<std::shared_ptr<Buffer>> buffers{validity_of(validity), buffer_of(views_in)};
  for (const std::string& bytes : data) {
    buffers.push_back(bytes_of(bytes));
  }
  return make_array(std::move(type), static_cast<int64_t>(views_in.size()), std::move(buffers));
}

TEST(ValidateTest, ViewsAreChecked) {
  const std::string long_value = "a value longer than twelve";
  EXPECT_NO_THROW(view_array(utf8_view(), {inline_view("x"), reference_view(long_value, 1, 2)},
                             {"", "--" + long_value})
                      .validate_full());

  BinaryView negative = inline_view("x");
  negative.size = -1;
  EXPECT_EQ(full_error(view_array(utf8_view(), {inline_view("a"), negative}, {})),
            "view 1 has negative size -1 in buffer 1 (views) of string_view");

  BinaryView padded = inline_view("ab");
  padded.inlined[5] = 'z';
  EXPECT_THAT(full_error(view_array(binary_view(), {padded}, {})),
              HasSubstr("view 0 is inline with size 2 but its unused bytes are not zero"));

  EXPECT_EQ(full_error(view_array(utf8_view(), {reference_view(long_value, 2, 0)}, {long_value})),
            "view 0 refers to data buffer 2 but the array has 1 data buffers in buffer 1 (views) "
            "of string_view");
  EXPECT_THAT(full_error(view_array(utf8_view(), {reference_view(long_value, -1, 0)}, {})),
              HasSubstr("refers to data buffer -1 but the array has 0 data buffers"));

  EXPECT_EQ(full_error(view_array(utf8_view(), {reference_view(long_value, 0, 3)}, {long_value})),
            "view 0 (offset 3, size 26) is past the end of data buffer 0 of 26 bytes in buffer 1 "
            "(views) of string_view");
  EXPECT_THAT(
      full_error(view_array(utf8_view(), {reference_view(long_value, 0, -1)}, {long_value})),
      HasSubstr("(offset -1, size 26) is past the end"));

  BinaryView wrong_prefix = reference_view(long_value, 0, 0);
  wrong_prefix.ref.prefix[3] = '!';
  EXPECT_THAT(full_error(view_array(binary_view(), {wrong_prefix}, {long_value})),
              HasSubstr("view 0 has a prefix that differs from the first 4 bytes of its value"));

  const std::string bad_utf8 = "\xff and some more bytes";
  EXPECT_THAT(full_error(view_array(utf8_view(), {inline_view("ok"), inline_view("\xc3")}, {})),
              HasSubstr("value 1 is not valid UTF-8"));
  EXPECT_THAT(full_error(view_array(utf8_view(), {reference_view(bad_utf8, 0, 0)}, {bad_utf8})),
              HasSubstr("value 0 is not valid UTF-8"));
}

TEST(ValidateTest, ViewsUnderNullsAreNotChecked) {
  BinaryView garbage;
  std::memset(&garbage, 0x7F, sizeof(garbage));
  EXPECT_NO_THROW(
      view_array(utf8_view(), {inline_view("a"), garbage}, {}, {true, false}).validate_full());
}

// --- full: list views -----------------------------------------------------------------------

TEST(ValidateTest, ListViewsStayInsideTheirChild) {
  const TypePtr type = list_view(int32());
  EXPECT_EQ(full_error(list_view_of(type, {0, 2}, {2, 2}, int32s({1, 2, 3}))),
            "list view 1 (offset 2, size 2) is outside the child array of length 3 in "
            "list_view<item: int32>");
  EXPECT_THAT(full_error(list_view_of(type, {-1}, {1}, int32s({1}))),
              HasSubstr("list view 0 (offset -1, size 1) is outside"));
  EXPECT_THAT(full_error(list_view_of(large_list_view(int32()), {0}, {-1}, int32s({1}))),
              HasSubstr("list view 0 (offset 0, size -1) is outside"));
  // Null list views may hold anything.
  EXPECT_NO_THROW(list_view_of(type, {0, 99}, {1, -5}, int32s({1}), {true, false}).validate_full());
}

// --- full: dictionaries ---------------------------------------------------------------------

TEST(ValidateTest, DictionaryIndicesInRange) {
  const Array too_large =
      dictionary_of(dictionary(int16(), utf8()), {0, 1, 3}, strings({"a", "b", "c"}));
  EXPECT_EQ(full_error(too_large),
            "index 2 (value 3) is outside the dictionary of length 3 in buffer 1 (indices) of "
            "dictionary<values=string, indices=int16, ordered=0>");
  const Array negative = dictionary_of(dictionary(int8(), utf8()), {-1}, strings({"a"}));
  EXPECT_THAT(full_error(negative), HasSubstr("index 0 (value -1) is outside"));
  const Array unsigned_index = dictionary_of(dictionary(uint64(), utf8()), {1}, strings({"a"}));
  EXPECT_THAT(full_error(unsigned_index), HasSubstr("index 0 (value 1) is outside"));
  // Indices under nulls are not looked at.
  const Array null_garbage =
      make_array(dictionary(int32(), utf8()), 2,
                 {bitmap_of({true, false}), buffer_of<int32_t>({0, 99})}, {}, strings({"a"}));
  EXPECT_NO_THROW(null_garbage.validate_full());
}

// --- full: unions ---------------------------------------------------------------------------

TEST(ValidateTest, UnionTypeIdsMustBeTypeCodes) {
  const TypePtr type = sparse_union({field("a", int32()), field("b", utf8())}, {3, 5});
  const Array array = sparse_union_of(type, {3, 4}, {int32s({1, 2}), strings({"x", "y"})});
  EXPECT_EQ(full_error(array),
            "type id 4 at slot 1 is not one of the union's type codes [3, 5] in buffer 1 (type "
            "ids) of sparse_union<a: int32=3, b: string=5>");
  const Array negative = sparse_union_of(type, {-3, 3}, {int32s({1, 2}), strings({"x", "y"})});
  EXPECT_THAT(full_error(negative), HasSubstr("type id -3 at slot 0 is not one of"));
}

TEST(ValidateTest, DenseUnionOffsetsInsideTheirChild) {
  const TypePtr type = dense_union({field("a", int32()), field("b", utf8())});
  const Array array =
      dense_union_of(type, {0, 1, 1}, {0, 0, 2}, {int32s({1}), strings({"x", "y"})});
  EXPECT_EQ(full_error(array),
            "offset 2 at slot 2 is outside child 1 'b' of length 2 in buffer 2 (offsets) of "
            "dense_union<a: int32=0, b: string=1>");
  const Array negative = dense_union_of(type, {0}, {-1}, {int32s({1}), strings({})});
  EXPECT_THAT(full_error(negative), HasSubstr("offset -1 at slot 0 is outside child 0 'a'"));
}

TEST(ValidateTest, DenseUnionOffsetsIntoEachChildMustNotDecrease) {
  // Arrow's full validation rejects these as "non-monotonic offset"; equal offsets it accepts.
  const TypePtr type = dense_union({field("a", int32()), field("b", utf8())});
  const Array repeated =
      dense_union_of(type, {0, 0, 1, 1}, {0, 0, 0, 1}, {int32s({1}), strings({"x", "y"})});
  EXPECT_NO_THROW(repeated.validate_full());
  const Array backwards =
      dense_union_of(type, {0, 1, 0, 1}, {1, 0, 0, 1}, {int32s({1, 2}), strings({"x", "y"})});
  EXPECT_EQ(full_error(backwards),
            "offset 0 at slot 2 is smaller than offset 1 at slot 0 into the same child 0 'a' (a "
            "dense union's offsets into each child must not decrease) in buffer 2 (offsets) of "
            "dense_union<a: int32=0, b: string=1>");
  // Only the slots inside a slice count: Arrow checks the sliced range alone.
  EXPECT_NO_THROW(backwards.slice(1).validate_full());
}

// --- full: run-end encoded ------------------------------------------------------------------

TEST(ValidateTest, RunEndsStrictlyIncreasingAndPositive) {
  const TypePtr type = run_end_encoded(int32(), utf8());
  EXPECT_EQ(full_error(run_end_encoded_of(type, {2, 2, 5}, strings({"a", "b", "c"}))),
            "run end 1 (value 2) is not greater than the previous run end 2 in "
            "run_end_encoded<run_ends: int32, values: string>");
  EXPECT_THAT(full_error(run_end_encoded_of(type, {3, 1, 5}, strings({"a", "b", "c"}))),
              HasSubstr("run end 1 (value 1) is not greater than the previous run end 3"));
  EXPECT_THAT(
      full_error(run_end_encoded_of(run_end_encoded(int16(), utf8()), {0, 5}, strings({"a", "b"}))),
      HasSubstr("run end 0 (value 0) must be positive"));
}

TEST(ValidateTest, RunEndsMustNotBeNull) {
  const TypePtr type = run_end_encoded(int32(), utf8());
  const Array ends = make_array(int32(), 2, {bitmap_of({true, false}), buffer_of<int32_t>({1, 3})});
  const Array array = make_array(type, 3, {nullptr}, {ends, strings({"a", "b"})});
  EXPECT_THAT(full_error(array),
              HasSubstr("run_ends child has 1 nulls; run ends must not be null"));
  // A null count already known is checked cheaply.
  const Array counted =
      make_array(type, 3, {nullptr}, {with_null_count(ends, 1), strings({"a", "b"})});
  EXPECT_THAT(cheap_error(counted), HasSubstr("run_ends child has 1 nulls"));
}

// --- full: extreme values ------------------------------------------------------------------

TEST(ValidateTest, ExtremeValuesInBuffersAreFormatErrors) {
  constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();
  constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
  // Offsets: the extremes of each width, where a sum or difference could overflow.
  EXPECT_THAT(cheap_error(make_array(large_utf8(), 1,
                                     {nullptr, buffer_of<int64_t>({0, kInt64Max}), bytes_of("x")})),
              HasSubstr("last offset 9223372036854775807 is past the end"));
  EXPECT_THAT(full_error(make_array(
                  utf8(), 2, {nullptr, buffer_of<int32_t>({0, kInt32Min, 1}), bytes_of("x")})),
              HasSubstr("offset 1 (value -2147483648) is smaller than the previous offset 0"));
  EXPECT_THAT(full_error(make_array(
                  large_binary(), 2,
                  {nullptr, buffer_of<int64_t>({0, std::numeric_limits<int64_t>::min(), 1}),
                   bytes_of("x")})),
              HasSubstr("is smaller than the previous offset"));
  // List views whose offset + size passes INT32_MAX.
  EXPECT_THAT(full_error(list_view_of(list_view(int8()), {kInt32Max}, {kInt32Max},
                                      array_of<int8_t>(int8(), {1}))),
              HasSubstr("list view 0 (offset 2147483647, size 2147483647) is outside"));
  EXPECT_THAT(
      full_error(list_view_of(list_view(int8()), {0}, {kInt32Min}, array_of<int8_t>(int8(), {1}))),
      HasSubstr("size -2147483648"));
  // Views: a reference at the largest offset and size.
  BinaryView far = reference_view("a value longer than twelve", 0, kInt32Max);
  far.size = kInt32Max;
  EXPECT_THAT(full_error(view_array(binary_view(), {far}, {"a value longer than twelve"})),
              HasSubstr("(offset 2147483647, size 2147483647) is past the end of data buffer 0"));
  // Dense union offsets and run ends at the extremes.
  const TypePtr union_type = dense_union({field("a", int8())});
  EXPECT_THAT(
      full_error(dense_union_of(union_type, {0}, {kInt32Min}, {array_of<int8_t>(int8(), {1})})),
      HasSubstr("offset -2147483648 at slot 0 is outside"));
  EXPECT_THAT(cheap_error(run_end_encoded_of(run_end_encoded(int64(), int8()), {kInt64Max},
                                             array_of<int8_t>(int8(), {}))),
              HasSubstr("array has 1 run ends but only 0 values"));
  EXPECT_THAT(full_error(make_array(run_end_encoded(int64(), int8()), 1, {nullptr},
                                    {int64s({1, std::numeric_limits<int64_t>::min(), kInt64Max}),
                                     array_of<int8_t>(int8(), {1, 2, 3})})),
              HasSubstr("run end 1 (value -9223372036854775808) is not greater"));
  // The most negative type id of a union with every possible type code.
  FieldVector fields;
  for (int code = 0; code <= UnionType::kMaxTypeCode; ++code) {
    fields.push_back(field(std::to_string(code), null()));
  }
  std::vector<Array> children(fields.size(), make_array(null(), 2, {nullptr}));
  EXPECT_THAT(full_error(sparse_union_of(sparse_union(fields), {127, -128}, children)),
              HasSubstr("type id -128 at slot 1 is not one of the union's type codes [0, 1, 2"));
}

// --- full: decimals -------------------------------------------------------------------------

TEST(ValidateTest, DecimalsWithinPrecision) {
  EXPECT_NO_THROW(decimal_array(decimal32(3, 1), {999, -999, 0}).validate_full());
  EXPECT_EQ(full_error(decimal_array(decimal32(3, 1), {999, 1000})),
            "value 1 (100.0) has more than 3 digits in buffer 1 (values) of decimal32(3, 1)");
  EXPECT_THAT(full_error(decimal_array(decimal64(5, 0), {-100000})),
              HasSubstr("value 0 (-100000) has more than 5 digits"));
  EXPECT_THAT(full_error(decimal_array(decimal128(18, 2), {1000000000000000000})),
              HasSubstr("has more than 18 digits"));
  EXPECT_NO_THROW(decimal_array(decimal128(18, 2), {999999999999999999}).validate_full());
  EXPECT_THAT(full_error(decimal_array(decimal256(2, 0), {-100})),
              HasSubstr("value 0 (-100) has more than 2 digits"));
  // Values under nulls are not looked at.
  EXPECT_NO_THROW(decimal_array(decimal32(1, 0), {5, 12345}, {true, false}).validate_full());

  // The most negative decimal256 has 77 digits, one more than any precision allows.
  std::vector<uint8_t> most_negative(32, 0);
  most_negative[31] = 0x80;
  EXPECT_THAT(full_error(make_array(decimal256(76, 0), 1, {nullptr, buffer_of(most_negative)})),
              HasSubstr("has more than 76 digits"));
  // 10^38 - 1 fits decimal128(38), 10^38 does not.
  const auto decimal128_bytes = [](uint64_t low, uint64_t high) {
    std::vector<uint64_t> words{low, high};
    return buffer_of(words);
  };
  const uint64_t low_of_1e38 = 0x098a224000000000ULL;
  const uint64_t high_of_1e38 = 0x4b3b4ca85a86c47aULL;
  EXPECT_NO_THROW(
      make_array(decimal128(38, 0), 1, {nullptr, decimal128_bytes(low_of_1e38 - 1, high_of_1e38)})
          .validate_full());
  EXPECT_THAT(full_error(make_array(decimal128(38, 0), 1,
                                    {nullptr, decimal128_bytes(low_of_1e38, high_of_1e38)})),
              HasSubstr("has more than 38 digits"));
}

// --- full: maps -----------------------------------------------------------------------------

TEST(ValidateTest, MapKeysMustNotBeNull) {
  const TypePtr type = map(utf8(), int32());
  const Array entries =
      struct_of(type->field(0)->type(), 3, {strings({"a", kNull, "c"}), int32s({1, 2, 3})});
  EXPECT_EQ(full_error(list_of(type, {0, 1, 3}, entries)),
            "map key of entry 1 is null (map keys must never be null) in map<string, int32>");
  // A null key outside the entries the map uses does not matter.
  EXPECT_NO_THROW(list_of(type, {2, 3}, entries).validate_full());
}

// --- full: recursion ------------------------------------------------------------------------

TEST(ValidateTest, FullChecksRecurseIntoChildrenAndDictionaries) {
  const TypePtr type = struct_({field("a", int32()), field("b", utf8())});
  const Array array = struct_of(type, 2, {int32s({1, 2}), strings({"x", "\xff"})});
  EXPECT_EQ(full_error(array),
            "value 1 is not valid UTF-8 (byte 0 of 1) in child 1 'b' of struct<a: int32, b: "
            "string>");
  const Array encoded = dictionary_of(dictionary(int8(), utf8()), {0}, strings({"\xc3"}));
  EXPECT_THAT(full_error(encoded), HasSubstr("in dictionary of dictionary<values=string"));
  const Array runs = run_end_encoded_of(run_end_encoded(int32(), list(int32())), {1},
                                        list_of(list(int32()), {0, 2, 1}, int32s({1, 2})));
  EXPECT_THAT(full_error(runs), HasSubstr("of child 1 'values' of run_end_encoded"));
}

}  // namespace
}  // namespace bowstring
