#include "bowstring/array/pretty_print.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/testing/array_data_testing.h"

namespace bowstring {
namespace {

using testing::array_of;
using testing::booleans;
using testing::bytes_of;
using testing::dense_union_of;
using testing::dictionary_of;
using testing::fixed_size_list_of;
using testing::int64s;
using testing::list_of;
using testing::list_view_of;
using testing::make_array;
using testing::run_end_encoded_of;
using testing::sparse_union_of;
using testing::strings;
using testing::struct_of;
using testing::validity_of;
using testing::views;

Array iota_array(int64_t length) {
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < length; ++i) {
    values.emplace_back(i);
  }
  return int64s(values);
}

// --- scalar types --------------------------------------------------------------------------

TEST(PrettyPrint, Integers) {
  EXPECT_EQ(int64s({1, std::nullopt, 3}).to_string(), "[1 null 3]");
  EXPECT_EQ(int64s({}).to_string(), "[]");
  EXPECT_EQ(array_of<int8_t>(int8(), {-128, 127}).to_string(), "[-128 127]");
  EXPECT_EQ(array_of<uint8_t>(uint8(), {0, 255}).to_string(), "[0 255]");
  EXPECT_EQ(array_of<int16_t>(int16(), {-32768}).to_string(), "[-32768]");
  EXPECT_EQ(array_of<uint16_t>(uint16(), {65535}).to_string(), "[65535]");
  EXPECT_EQ(array_of<int32_t>(int32(), {std::nullopt, -7}).to_string(), "[null -7]");
  EXPECT_EQ(array_of<uint32_t>(uint32(), {4294967295u}).to_string(), "[4294967295]");
  EXPECT_EQ(int64s({std::numeric_limits<int64_t>::min()}).to_string(), "[-9223372036854775808]");
  EXPECT_EQ(array_of<uint64_t>(uint64(), {std::numeric_limits<uint64_t>::max()}).to_string(),
            "[18446744073709551615]");
}

TEST(PrettyPrint, NullType) {
  const Array nulls = make_array(null(), 2, {nullptr});
  EXPECT_EQ(nulls.to_string(), "[null null]");
}

TEST(PrettyPrint, Booleans) {
  EXPECT_EQ(booleans({true, false, std::nullopt}).to_string(), "[true false null]");
}

TEST(PrettyPrint, Doubles) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(array_of<double>(float64(), {1.5, 0.1, 100.0, -0.0, 1e15, 1e16, 1e20, 1e-4, 1e-5,
                                         0.30000000000000004, std::nullopt})
                .to_string(),
            "[1.5 0.1 100 -0 1000000000000000 1e+16 1e+20 0.0001 1e-05 0.30000000000000004 null]");
  EXPECT_EQ(array_of<double>(float64(), {std::nan(""), inf, -inf}).to_string(), "[NaN +Inf -Inf]");
}

TEST(PrettyPrint, Floats) {
  EXPECT_EQ(array_of<float>(float32(), {0.1f, 3.4028235e38f, 1.0f / 3, -2.5f,
                                        -std::numeric_limits<float>::infinity()})
                .to_string(),
            "[0.1 3.4028235e+38 0.33333334 -2.5 -Inf]");
}

TEST(PrettyPrint, HalfFloatsUseTheirOwnShortestForm) {
  // 1, ~0.1, 65504 (largest), ~1/3, smallest subnormal, -2, +inf, -inf, NaN, -0.
  EXPECT_EQ(array_of<uint16_t>(float16(), {0x3C00, 0x2E66, 0x7BFF, 0x3555, 0x0001, 0xC000, 0x7C00,
                                           0xFC00, 0x7E00, 0x8000, std::nullopt})
                .to_string(),
            "[1 0.1 65500 0.3333 6e-08 -2 +Inf -Inf NaN -0 null]");
}

TEST(PrettyPrint, Decimals) {
  EXPECT_EQ(array_of<int32_t>(decimal32(5, 2), {12345, -5, std::nullopt}).to_string(),
            "[123.45 -0.05 null]");
  EXPECT_EQ(array_of<int64_t>(decimal64(18, 0), {-42}).to_string(), "[-42]");
  struct Int128 {
    uint64_t low;
    int64_t high;
  };
  // 2^64 + 1 at scale 3, and -1 at scale 3.
  EXPECT_EQ(array_of<Int128>(decimal128(38, 3), {Int128{1, 1}, Int128{~0ull, -1}}).to_string(),
            "[18446744073709551.617 -0.001]");
  struct Int256 {
    uint64_t limbs[4];
  };
  EXPECT_EQ(array_of<Int256>(decimal256(76, 1), {Int256{{7, 0, 0, 0}}}).to_string(), "[0.7]");
}

TEST(PrettyPrint, Dates) {
  EXPECT_EQ(array_of<int32_t>(date32(), {0, 19753, -1, 11016, std::nullopt}).to_string(),
            "[1970-01-01 2024-01-31 1969-12-31 2000-02-29 null]");
  EXPECT_EQ(array_of<int32_t>(date32(), {-719162, -719528, -719529, 2932896, 2932897}).to_string(),
            "[0001-01-01 0000-01-01 -0001-12-31 9999-12-31 10000-01-01]");
  EXPECT_EQ(array_of<int64_t>(date64(), {1706659200000, -86400000}).to_string(),
            "[2024-01-31 1969-12-31]");
}

TEST(PrettyPrint, TimestampsShowTheUnitsPrecision) {
  EXPECT_EQ(array_of<int64_t>(timestamp(TimeUnit::kSecond), {1706704496, 0}).to_string(),
            "[2024-01-31T12:34:56 1970-01-01T00:00:00]");
  EXPECT_EQ(array_of<int64_t>(timestamp(TimeUnit::kMilli), {1706704496789, -1}).to_string(),
            "[2024-01-31T12:34:56.789 1969-12-31T23:59:59.999]");
  EXPECT_EQ(array_of<int64_t>(timestamp(TimeUnit::kMicro), {1706704496789012}).to_string(),
            "[2024-01-31T12:34:56.789012]");
  EXPECT_EQ(array_of<int64_t>(timestamp(TimeUnit::kNano),
                              {1706704496789012345, std::numeric_limits<int64_t>::min()})
                .to_string(),
            "[2024-01-31T12:34:56.789012345 1677-09-21T00:12:43.145224192]");
}

TEST(PrettyPrint, TimestampsWithTimeZones) {
  EXPECT_EQ(array_of<int64_t>(timestamp(TimeUnit::kSecond, "UTC"), {1706704496}).to_string(),
            "[2024-01-31T12:34:56Z]");
  EXPECT_EQ(array_of<int64_t>(timestamp(TimeUnit::kMilli, "+05:30"), {1706704496789}).to_string(),
            "[2024-01-31T18:04:56.789+05:30]");
  // The offset moves the wall-clock time across midnight in both directions.
  EXPECT_EQ(array_of<int64_t>(timestamp(TimeUnit::kSecond, "-08:00"), {0}).to_string(),
            "[1969-12-31T16:00:00-08:00]");
  EXPECT_EQ(array_of<int64_t>(timestamp(TimeUnit::kSecond, "+09:00"), {86400 - 3600}).to_string(),
            "[1970-01-02T08:00:00+09:00]");
  EXPECT_EQ(
      array_of<int64_t>(timestamp(TimeUnit::kSecond, "America/New_York"), {1706704496}).to_string(),
      "[2024-01-31T12:34:56Z[America/New_York]]");
}

TEST(PrettyPrint, TimesOfDay) {
  EXPECT_EQ(array_of<int32_t>(time32(TimeUnit::kSecond), {45296, 0}).to_string(),
            "[12:34:56 00:00:00]");
  EXPECT_EQ(array_of<int32_t>(time32(TimeUnit::kMilli), {45296789, std::nullopt}).to_string(),
            "[12:34:56.789 null]");
  EXPECT_EQ(array_of<int64_t>(time64(TimeUnit::kMicro), {45296789012}).to_string(),
            "[12:34:56.789012]");
  EXPECT_EQ(array_of<int64_t>(time64(TimeUnit::kNano), {86399999999999}).to_string(),
            "[23:59:59.999999999]");
}

TEST(PrettyPrint, DurationsCarryTheirUnit) {
  EXPECT_EQ(array_of<int64_t>(duration(TimeUnit::kSecond), {5, std::nullopt}).to_string(),
            "[5s null]");
  EXPECT_EQ(array_of<int64_t>(duration(TimeUnit::kMilli), {-1500}).to_string(), "[-1500ms]");
  EXPECT_EQ(array_of<int64_t>(duration(TimeUnit::kMicro), {3}).to_string(), "[3us]");
  EXPECT_EQ(array_of<int64_t>(duration(TimeUnit::kNano), {7}).to_string(), "[7ns]");
}

TEST(PrettyPrint, Intervals) {
  EXPECT_EQ(array_of<int32_t>(month_interval(), {14, -1, std::nullopt}).to_string(),
            "[14M -1M null]");
  EXPECT_EQ(array_of<DayTimeInterval>(day_time_interval(), {DayTimeInterval{1, 2}}).to_string(),
            "[1d2ms]");
  EXPECT_EQ(
      array_of<MonthDayNanoInterval>(month_day_nano_interval(), {MonthDayNanoInterval{1, 2, 3},
                                                                 MonthDayNanoInterval{-1, 0, -5}})
          .to_string(),
      "[1M2d3ns -1M0d-5ns]");
}

// --- binary and strings --------------------------------------------------------------------

TEST(PrettyPrint, StringsAreQuotedAndEscaped) {
  EXPECT_EQ(strings({"hello", "apache arrow", std::nullopt}).to_string(),
            R"(["hello" "apache arrow" null])");
  EXPECT_EQ(
      strings({"say \"hi\"", "back\\slash", "line\nbreak\ttab\r", std::string("\x01\x7f"), ""})
          .to_string(),
      R"(["say \"hi\"" "back\\slash" "line\nbreak\ttab\r" "\x01\x7f" ""])");
}

TEST(PrettyPrint, StringsKeepUtf8AndEscapeMalformedBytes) {
  EXPECT_EQ(strings({"h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x8F\xB9"}).to_string(),
            "[\"h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x8F\xB9\"]");
  // A lone continuation byte, a truncated sequence, an overlong encoding and a surrogate.
  EXPECT_EQ(strings({"\x80", "\xC3", "\xC0\xAF", "\xED\xA0\x80"}).to_string(),
            R"(["\x80" "\xc3" "\xc0\xaf" "\xed\xa0\x80"])");
}

TEST(PrettyPrint, LargeStrings) {
  EXPECT_EQ(strings({"a", std::nullopt, "\xC3\xA9"}, large_utf8()).to_string(),
            "[\"a\" null \"\xC3\xA9\"]");
}

TEST(PrettyPrint, BinaryEscapesEveryNonAsciiByte) {
  EXPECT_EQ(strings({std::string("\0a\xff", 3), std::nullopt, "\xC3\xA9"}, binary()).to_string(),
            R"(["\x00a\xff" null "\xc3\xa9"])");
  EXPECT_EQ(strings({"\"q\""}, large_binary()).to_string(), R"(["\"q\""])");
}

TEST(PrettyPrint, FixedSizeBinaryAsHex) {
  const Array array =
      make_array(fixed_size_binary(3), 3,
                 {validity_of({true, false, true}),
                  bytes_of(std::string("\x01\x02\x03\x00\x00\x00\xab\xcd\xef", 9))});
  EXPECT_EQ(array.to_string(), "[010203 null abcdef]");
}

TEST(PrettyPrint, StringViews) {
  const Array text = views({"short", std::nullopt, "a string longer than twelve bytes"});
  EXPECT_EQ(text.to_string(), R"(["short" null "a string longer than twelve bytes"])");
  const Array binary = views({"\xff", "a string longer than twelve bytes"}, binary_view());
  EXPECT_EQ(binary.to_string(), R"(["\xff" "a string longer than twelve bytes"])");
  EXPECT_EQ(binary.slice(1).to_string(), R"(["a string longer than twelve bytes"])");
}

// --- nested --------------------------------------------------------------------------------

TEST(PrettyPrint, Lists) {
  const Array lists =
      list_of(list(int64()), {0, 2, 2, 2, 3}, int64s({1, 2, 3}), {true, false, true, true});
  EXPECT_EQ(lists.to_string(), "[[1 2] null [] [3]]");
  EXPECT_EQ(lists.slice(2, 2).to_string(), "[[] [3]]");
}

TEST(PrettyPrint, ListsOfLists) {
  const Array inner =
      list_of(list(utf8()), {0, 1, 3, 3}, strings({"a", "b", std::nullopt}), {true, true, false});
  const Array outer = list_of(list(list(utf8())), {0, 2, 3}, inner);
  EXPECT_EQ(outer.to_string(), R"([[["a"] ["b" null]] [null]])");
}

TEST(PrettyPrint, LargeLists) {
  EXPECT_EQ(list_of(large_list(int64()), {0, 1, 3}, int64s({7, 8, 9})).to_string(), "[[7] [8 9]]");
}

TEST(PrettyPrint, ListViewsFollowOffsetsAndSizes) {
  const Array values = int64s({1, 2, 3, 4});
  EXPECT_EQ(list_view_of(list_view(int64()), {2, 0, 0}, {2, 3, 0}, values, {true, true, false})
                .to_string(),
            "[[3 4] [1 2 3] null]");
  EXPECT_EQ(list_view_of(large_list_view(int64()), {1}, {2}, values).to_string(), "[[2 3]]");
}

TEST(PrettyPrint, FixedSizeLists) {
  const Array lists = fixed_size_list_of(
      fixed_size_list(int64(), 2), 3, int64s({1, 2, 3, 4, 5, std::nullopt}), {true, false, true});
  EXPECT_EQ(lists.to_string(), "[[1 2] null [5 null]]");
  EXPECT_EQ(lists.slice(2).to_string(), "[[5 null]]");
}

TEST(PrettyPrint, Structs) {
  const TypePtr type = struct_({field("a", int64()), field("b", utf8())});
  const Array structs = struct_of(type, 3, {int64s({1, 2, 3}), strings({"x", "y", std::nullopt})},
                                  {true, false, true});
  EXPECT_EQ(structs.to_string(), R"([{a: 1, b: "x"} null {a: 3, b: null}])");
  // The struct's offset applies to its children.
  EXPECT_EQ(structs.slice(1).to_string(), R"([null {a: 3, b: null}])");
  EXPECT_EQ(struct_of(struct_({}), 1, {}).to_string(), "[{}]");
}

TEST(PrettyPrint, Maps) {
  const TypePtr type = map(utf8(), int64());
  const Array entries = struct_of(type->field(0)->type(), 3,
                                  {strings({"k", "j", "z"}), int64s({1, 2, std::nullopt})});
  const Array maps = list_of(type, {0, 2, 2, 2, 3}, entries, {true, false, true, true});
  EXPECT_EQ(maps.to_string(), R"([{"k": 1, "j": 2} null {} {"z": null}])");
  EXPECT_EQ(maps.slice(3).to_string(), R"([{"z": null}])");
  // A sliced entries array keeps its own offset.
  EXPECT_EQ(list_of(type, {0, 1}, entries.slice(2)).to_string(), R"([{"z": null}])");
}

TEST(PrettyPrint, DictionariesShowDecodedValues) {
  const Array dict = dictionary_of(dictionary(int8(), utf8()), {0, 1, std::nullopt, 0, 2},
                                   strings({"a", "b", std::nullopt}));
  EXPECT_EQ(dict.to_string(), R"(["a" "b" null "a" null])");
  EXPECT_EQ(dict.slice(1, 2).to_string(), R"(["b" null])");
}

TEST(PrettyPrint, DictionaryIndexOutOfRangeIsAFormatError) {
  const Array dict = dictionary_of(dictionary(int32(), utf8()), {3}, strings({"a"}));
  EXPECT_THROW(dict.to_string(), FormatError);
}

TEST(PrettyPrint, SparseUnions) {
  const TypePtr type = sparse_union({field("i", int64()), field("s", utf8())}, {5, 7});
  const Array unions =
      sparse_union_of(type, {5, 7, 5}, {int64s({1, 0, std::nullopt}), strings({"", "x", ""})});
  EXPECT_EQ(unions.to_string(), R"([1 "x" null])");
  EXPECT_EQ(unions.slice(1).to_string(), R"(["x" null])");
}

TEST(PrettyPrint, DenseUnions) {
  const TypePtr type = dense_union({field("i", int64()), field("s", utf8())});
  const Array unions = dense_union_of(type, {1, 0, 1, 0}, {0, 0, 1, 1},
                                      {int64s({10, 20}), strings({"a", std::nullopt})});
  EXPECT_EQ(unions.to_string(), R"(["a" 10 null 20])");
}

TEST(PrettyPrint, UnionWithUnknownTypeCodeIsAFormatError) {
  const Array unions = sparse_union_of(sparse_union({field("i", int64())}), {3}, {int64s({1})});
  EXPECT_THROW(unions.to_string(), FormatError);
}

TEST(PrettyPrint, RunEndEncodedShowsLogicalValues) {
  const Array runs = run_end_encoded_of(run_end_encoded(int32(), int64()), {2, 3, 5},
                                        int64s({1, std::nullopt, 3}));
  EXPECT_EQ(runs.to_string(), "[1 1 null 3 3]");
  EXPECT_EQ(runs.slice(1, 3).to_string(), "[1 null 3]");
}

TEST(PrettyPrint, ExtensionShowsStorageValues) {
  const Array storage = strings({"x", std::nullopt});
  const Array labels = make_array(extension(utf8(), "my.label"), 2, storage.data()->buffers);
  EXPECT_EQ(labels.to_string(), R"(["x" null])");
}

TEST(PrettyPrint, EverySampleArrayPrints) {
  for (const auto& [name, array] : testing::sample_arrays()) {
    SCOPED_TRACE(name);
    const std::string text = array.to_string();
    EXPECT_EQ(text.front(), '[');
    EXPECT_EQ(text.back(), ']');
    EXPECT_EQ(hex_dump(array).rfind(array.type()->to_string() + " array: length ", 0), 0u);
  }
}

// --- options -------------------------------------------------------------------------------

TEST(PrettyPrint, LongArraysAreElided) {
  EXPECT_EQ(iota_array(25).to_string(), "[0 1 2 3 4 5 6 7 8 9 ... 15 16 17 18 19 20 21 22 23 24]");
  EXPECT_EQ(iota_array(20).to_string(), "[0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19]");
  PrettyPrintOptions options;
  options.window = 2;
  EXPECT_EQ(pretty_print(iota_array(5), options), "[0 1 ... 3 4]");
  EXPECT_EQ(pretty_print(iota_array(4), options), "[0 1 2 3]");
  options.window = 0;
  EXPECT_EQ(pretty_print(iota_array(3), options), "[...]");
  EXPECT_EQ(pretty_print(iota_array(0), options), "[]");
  options.window = -1;
  EXPECT_EQ(pretty_print(iota_array(25), options),
            "[0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24]");
}

TEST(PrettyPrint, ElisionAppliesToNestedLevels) {
  PrettyPrintOptions options;
  options.window = 1;
  const Array lists = list_of(list(int64()), {0, 3, 3, 4}, int64s({1, 2, 3, 4}));
  EXPECT_EQ(pretty_print(lists, options), "[[1 ... 3] ... [4]]");
  const TypePtr type = map(utf8(), int64());
  const Array entries =
      struct_of(type->field(0)->type(), 3, {strings({"a", "b", "c"}), int64s({1, 2, 3})});
  EXPECT_EQ(pretty_print(list_of(type, {0, 3}, entries), options), R"([{"a": 1, ..., "c": 3}])");
}

TEST(PrettyPrint, SlicesShowOnlyTheirWindow) {
  const Array text = strings({"a", std::nullopt, "c", "d"});
  EXPECT_EQ(text.slice(1, 2).to_string(), R"([null "c"])");
  EXPECT_EQ(text.slice(1, 2).slice(1).to_string(), R"(["c"])");
  EXPECT_EQ(text.slice(4).to_string(), "[]");
  EXPECT_EQ(booleans({true, true, false, std::nullopt}).slice(2).to_string(), "[false null]");
  PrettyPrintOptions options;
  options.window = 2;
  EXPECT_EQ(pretty_print(iota_array(30).slice(10, 6), options), "[10 11 ... 14 15]");
}

TEST(PrettyPrint, IndentAndNullSpelling) {
  PrettyPrintOptions options;
  options.indent = 4;
  options.null_string = "NULL";
  EXPECT_EQ(pretty_print(int64s({1, std::nullopt}), options), "    [1 NULL]");
}

TEST(PrettyPrint, FormatValue) {
  const Array text = strings({"a", std::nullopt});
  EXPECT_EQ(format_value(text, 0), R"("a")");
  EXPECT_EQ(format_value(text, 1), "null");
  EXPECT_EQ(format_value(text.slice(1), 0), "null");
  try {
    format_value(text, 2);
    FAIL() << "expected IndexError";
  } catch (const IndexError& error) {
    EXPECT_STREQ(error.what(), "value index 2 is outside an array of length 2");
  }
}

// --- hex dump ------------------------------------------------------------------------------

TEST(HexDump, StringArrayWithNull) {
  const Array text = strings({"hello", std::nullopt, "apache arrow"});
  EXPECT_EQ(hex_dump(text),
            "string array: length 3, offset 0, null count 1\n"
            "  buffer 0 (validity bitmap): 1 byte\n"
            "    00000000  05                                                |.|\n"
            "  buffer 1 (offsets, int32): 16 bytes\n"
            "    00000000  00 00 00 00 05 00 00 00  05 00 00 00 11 00 00 00  |................|\n"
            "  buffer 2 (data): 17 bytes\n"
            "    00000000  68 65 6c 6c 6f 61 70 61  63 68 65 20 61 72 72 6f  |helloapache arro|\n"
            "    00000010  77                                                |w|\n");
}

TEST(HexDump, SliceShowsWholeBuffersAndItsWindow) {
  const Array ints = int64s({1, 2, 3}).slice(1, 1);
  EXPECT_EQ(hex_dump(ints),
            "int64 array: length 1, offset 1, null count 0\n"
            "  buffer 0 (validity bitmap): absent\n"
            "  buffer 1 (values, 8 bytes each): 24 bytes\n"
            "    00000000  01 00 00 00 00 00 00 00  02 00 00 00 00 00 00 00  |................|\n"
            "    00000010  03 00 00 00 00 00 00 00                           |........|\n");
}

TEST(HexDump, ChildrenAndDictionaryAreDumpedRecursively) {
  const Array lists = list_of(list(int8()), {0, 1}, array_of<int8_t>(int8(), {9}));
  EXPECT_EQ(hex_dump(lists),
            "list<item: int8> array: length 1, offset 0, null count 0\n"
            "  buffer 0 (validity bitmap): absent\n"
            "  buffer 1 (offsets, int32): 8 bytes\n"
            "    00000000  00 00 00 00 01 00 00 00                           |........|\n"
            "  child 0 (item): int8 array: length 1, offset 0, null count 0\n"
            "    buffer 0 (validity bitmap): absent\n"
            "    buffer 1 (values, 1 byte each): 1 byte\n"
            "      00000000  09                                                |.|\n");

  EXPECT_EQ(hex_dump(dictionary_of(dictionary(int8(), utf8()), {0}, strings({"a"}))),
            "dictionary<values=string, indices=int8, ordered=0> array: length 1, offset 0, null "
            "count 0\n"
            "  buffer 0 (validity bitmap): absent\n"
            "  buffer 1 (values, 1 byte each): 1 byte\n"
            "    00000000  00                                                |.|\n"
            "  dictionary: string array: length 1, offset 0, null count 0\n"
            "    buffer 0 (validity bitmap): absent\n"
            "    buffer 1 (offsets, int32): 8 bytes\n"
            "      00000000  00 00 00 00 01 00 00 00                           |........|\n"
            "    buffer 2 (data): 1 byte\n"
            "      00000000  61                                                |a|\n");
}

TEST(HexDump, UnionsNameTheirUnusedSlotAndTypeIds) {
  const Array unions =
      sparse_union_of(sparse_union({field("i", int8())}), {0}, {array_of<int8_t>(int8(), {4})});
  EXPECT_EQ(hex_dump(unions),
            "sparse_union<i: int8=0> array: length 1, offset 0, null count 0\n"
            "  buffer 0 (unused): absent\n"
            "  buffer 1 (type ids, int8): 1 byte\n"
            "    00000000  00                                                |.|\n"
            "  child 0 (i): int8 array: length 1, offset 0, null count 0\n"
            "    buffer 0 (validity bitmap): absent\n"
            "    buffer 1 (values, 1 byte each): 1 byte\n"
            "      00000000  04                                                |.|\n");
}

TEST(HexDump, ArraysThatFailValidation) {
  // A length far past the one-byte bitmap: counting its nulls would read gigabytes past it.
  const Array too_long = testing::make_array(int8(), int64_t{1} << 40,
                                             {testing::bitmap_of({true}), testing::bytes_of("x")});
  EXPECT_THROW(too_long.validate(), FormatError);
  EXPECT_EQ(hex_dump(too_long),
            "int8 array: length 1099511627776, offset 0, null count unknown\n"
            "  buffer 0 (validity bitmap): 1 byte\n"
            "    00000000  01                                                |.|\n"
            "  buffer 1 (values, 1 byte each): 1 byte\n"
            "    00000000  78                                                |x|\n");
  auto missing_child = std::make_shared<ArrayData>(
      *testing::list_of(list(int8()), {0}, testing::array_of<int8_t>(int8(), {})).data());
  missing_child->children[0] = nullptr;
  EXPECT_EQ(hex_dump(Array(missing_child)),
            "list<item: int8> array: length 0, offset 0, null count 0\n"
            "  buffer 0 (validity bitmap): absent\n"
            "  buffer 1 (offsets, int32): 4 bytes\n"
            "    00000000  00 00 00 00                                       |....|\n"
            "  child 0 (item): absent\n");
}

TEST(HexDump, LongBuffersAreCut) {
  EXPECT_EQ(hex_dump(iota_array(3), 4),
            "int64 array: length 3, offset 0, null count 0\n"
            "  buffer 0 (validity bitmap): absent\n"
            "  buffer 1 (values, 8 bytes each): 24 bytes\n"
            "    00000000  00 00 00 00                                       |....|\n"
            "    ... 20 more bytes\n");
}

}  // namespace
}  // namespace bowstring
