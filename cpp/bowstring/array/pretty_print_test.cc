#include "bowstring/array/pretty_print.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace bowstring {
namespace {

// Arrays are assembled from raw buffers here so that printing is tested against exact layouts.

template <typename T>
std::shared_ptr<Buffer> buffer_of(const std::vector<T>& values) {
  return Buffer::copy_of(values.data(), static_cast<int64_t>(values.size() * sizeof(T)));
}

/// A validity bitmap, or nullptr when every value is valid.
std::shared_ptr<Buffer> validity_of(const std::vector<bool>& valid) {
  bool any_null = false;
  std::vector<uint8_t> bits(
      static_cast<size_t>(bit_util::bytes_for_bits(static_cast<int64_t>(valid.size()))), 0);
  for (size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) {
      bit_util::set_bit(bits.data(), static_cast<int64_t>(i));
    } else {
      any_null = true;
    }
  }
  return any_null ? buffer_of(bits) : nullptr;
}

template <typename T>
Array fixed_array(TypePtr type, const std::vector<std::optional<T>>& values) {
  std::vector<T> raw;
  std::vector<bool> valid;
  for (const auto& value : values) {
    raw.push_back(value.value_or(T{}));
    valid.push_back(value.has_value());
  }
  const auto length = static_cast<int64_t>(values.size());
  return Array(std::make_shared<ArrayData>(std::move(type), length,
                                           std::vector{validity_of(valid), buffer_of(raw)}));
}

Array int64_array(const std::vector<std::optional<int64_t>>& values) {
  return fixed_array<int64_t>(int64(), values);
}

Array bool_array(const std::vector<std::optional<bool>>& values) {
  std::vector<bool> valid;
  std::vector<uint8_t> bits(values.size() / 8 + 1, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    valid.push_back(values[i].has_value());
    if (values[i].value_or(false)) {
      bit_util::set_bit(bits.data(), static_cast<int64_t>(i));
    }
  }
  return Array(std::make_shared<ArrayData>(boolean(), static_cast<int64_t>(values.size()),
                                           std::vector{validity_of(valid), buffer_of(bits)}));
}

template <typename Offset = int32_t>
Array binary_like_array(TypePtr type, const std::vector<std::optional<std::string>>& values) {
  std::vector<Offset> offsets{0};
  std::vector<bool> valid;
  std::string bytes;
  for (const auto& value : values) {
    bytes += value.value_or("");
    offsets.push_back(static_cast<Offset>(bytes.size()));
    valid.push_back(value.has_value());
  }
  return Array(std::make_shared<ArrayData>(
      std::move(type), static_cast<int64_t>(values.size()),
      std::vector{validity_of(valid), buffer_of(offsets),
                  Buffer::copy_of(bytes.data(), static_cast<int64_t>(bytes.size()))}));
}

Array string_array(const std::vector<std::optional<std::string>>& values) {
  return binary_like_array(utf8(), values);
}

/// A list-like array with int32 offsets (list or map) over `values`.
Array list_array(TypePtr type, const std::vector<int32_t>& offsets, const std::vector<bool>& valid,
                 const Array& values) {
  return Array(std::make_shared<ArrayData>(std::move(type), static_cast<int64_t>(valid.size()),
                                           std::vector{validity_of(valid), buffer_of(offsets)},
                                           ArrayData::kUnknownNullCount, 0,
                                           std::vector{values.data()}));
}

Array struct_array(TypePtr type, const std::vector<bool>& valid,
                   const std::vector<Array>& children) {
  std::vector<ArrayDataPtr> child_data;
  for (const Array& child : children) {
    child_data.push_back(child.data());
  }
  return Array(std::make_shared<ArrayData>(std::move(type), static_cast<int64_t>(valid.size()),
                                           std::vector{validity_of(valid)},
                                           ArrayData::kUnknownNullCount, 0, child_data));
}

Array iota_array(int64_t length) {
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < length; ++i) {
    values.emplace_back(i);
  }
  return int64_array(values);
}

// --- scalar types --------------------------------------------------------------------------

TEST(PrettyPrint, Integers) {
  EXPECT_EQ(int64_array({1, std::nullopt, 3}).to_string(), "[1 null 3]");
  EXPECT_EQ(int64_array({}).to_string(), "[]");
  EXPECT_EQ(fixed_array<int8_t>(int8(), {-128, 127}).to_string(), "[-128 127]");
  EXPECT_EQ(fixed_array<uint8_t>(uint8(), {0, 255}).to_string(), "[0 255]");
  EXPECT_EQ(fixed_array<int16_t>(int16(), {-32768}).to_string(), "[-32768]");
  EXPECT_EQ(fixed_array<uint16_t>(uint16(), {65535}).to_string(), "[65535]");
  EXPECT_EQ(fixed_array<int32_t>(int32(), {std::nullopt, -7}).to_string(), "[null -7]");
  EXPECT_EQ(fixed_array<uint32_t>(uint32(), {4294967295u}).to_string(), "[4294967295]");
  EXPECT_EQ(int64_array({std::numeric_limits<int64_t>::min()}).to_string(),
            "[-9223372036854775808]");
  EXPECT_EQ(fixed_array<uint64_t>(uint64(), {std::numeric_limits<uint64_t>::max()}).to_string(),
            "[18446744073709551615]");
}

TEST(PrettyPrint, NullType) {
  const Array nulls(std::make_shared<ArrayData>(null(), 2, std::vector<std::shared_ptr<Buffer>>{}));
  EXPECT_EQ(nulls.to_string(), "[null null]");
}

TEST(PrettyPrint, Booleans) {
  EXPECT_EQ(bool_array({true, false, std::nullopt}).to_string(), "[true false null]");
}

TEST(PrettyPrint, Doubles) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(fixed_array<double>(float64(), {1.5, 0.1, 100.0, -0.0, 1e15, 1e16, 1e20, 1e-4, 1e-5,
                                            0.30000000000000004, std::nullopt})
                .to_string(),
            "[1.5 0.1 100 -0 1000000000000000 1e+16 1e+20 0.0001 1e-05 0.30000000000000004 null]");
  EXPECT_EQ(fixed_array<double>(float64(), {std::nan(""), inf, -inf}).to_string(),
            "[NaN +Inf -Inf]");
}

TEST(PrettyPrint, Floats) {
  EXPECT_EQ(fixed_array<float>(float32(), {0.1f, 3.4028235e38f, 1.0f / 3, -2.5f,
                                           -std::numeric_limits<float>::infinity()})
                .to_string(),
            "[0.1 3.4028235e+38 0.33333334 -2.5 -Inf]");
}

TEST(PrettyPrint, HalfFloatsUseTheirOwnShortestForm) {
  // 1, ~0.1, 65504 (largest), ~1/3, smallest subnormal, -2, +inf, -inf, NaN, -0.
  EXPECT_EQ(fixed_array<uint16_t>(float16(), {0x3C00, 0x2E66, 0x7BFF, 0x3555, 0x0001, 0xC000,
                                              0x7C00, 0xFC00, 0x7E00, 0x8000, std::nullopt})
                .to_string(),
            "[1 0.1 65500 0.3333 6e-08 -2 +Inf -Inf NaN -0 null]");
}

TEST(PrettyPrint, Decimals) {
  EXPECT_EQ(fixed_array<int32_t>(decimal32(5, 2), {12345, -5, std::nullopt}).to_string(),
            "[123.45 -0.05 null]");
  EXPECT_EQ(fixed_array<int64_t>(decimal64(18, 0), {-42}).to_string(), "[-42]");
  struct Int128 {
    uint64_t low;
    int64_t high;
  };
  // 2^64 + 1 at scale 3, and -1 at scale 3.
  EXPECT_EQ(fixed_array<Int128>(decimal128(38, 3), {Int128{1, 1}, Int128{~0ull, -1}}).to_string(),
            "[18446744073709551.617 -0.001]");
  struct Int256 {
    uint64_t limbs[4];
  };
  EXPECT_EQ(fixed_array<Int256>(decimal256(76, 1), {Int256{{7, 0, 0, 0}}}).to_string(), "[0.7]");
}

TEST(PrettyPrint, Dates) {
  EXPECT_EQ(fixed_array<int32_t>(date32(), {0, 19753, -1, 11016, std::nullopt}).to_string(),
            "[1970-01-01 2024-01-31 1969-12-31 2000-02-29 null]");
  EXPECT_EQ(
      fixed_array<int32_t>(date32(), {-719162, -719528, -719529, 2932896, 2932897}).to_string(),
      "[0001-01-01 0000-01-01 -0001-12-31 9999-12-31 10000-01-01]");
  EXPECT_EQ(fixed_array<int64_t>(date64(), {1706659200000, -86400000}).to_string(),
            "[2024-01-31 1969-12-31]");
}

TEST(PrettyPrint, TimestampsShowTheUnitsPrecision) {
  EXPECT_EQ(fixed_array<int64_t>(timestamp(TimeUnit::kSecond), {1706704496, 0}).to_string(),
            "[2024-01-31T12:34:56 1970-01-01T00:00:00]");
  EXPECT_EQ(fixed_array<int64_t>(timestamp(TimeUnit::kMilli), {1706704496789, -1}).to_string(),
            "[2024-01-31T12:34:56.789 1969-12-31T23:59:59.999]");
  EXPECT_EQ(fixed_array<int64_t>(timestamp(TimeUnit::kMicro), {1706704496789012}).to_string(),
            "[2024-01-31T12:34:56.789012]");
  EXPECT_EQ(fixed_array<int64_t>(timestamp(TimeUnit::kNano),
                                 {1706704496789012345, std::numeric_limits<int64_t>::min()})
                .to_string(),
            "[2024-01-31T12:34:56.789012345 1677-09-21T00:12:43.145224192]");
}

TEST(PrettyPrint, TimestampsWithTimeZones) {
  EXPECT_EQ(fixed_array<int64_t>(timestamp(TimeUnit::kSecond, "UTC"), {1706704496}).to_string(),
            "[2024-01-31T12:34:56Z]");
  EXPECT_EQ(
      fixed_array<int64_t>(timestamp(TimeUnit::kMilli, "+05:30"), {1706704496789}).to_string(),
      "[2024-01-31T18:04:56.789+05:30]");
  // The offset moves the wall-clock time across midnight in both directions.
  EXPECT_EQ(fixed_array<int64_t>(timestamp(TimeUnit::kSecond, "-08:00"), {0}).to_string(),
            "[1969-12-31T16:00:00-08:00]");
  EXPECT_EQ(
      fixed_array<int64_t>(timestamp(TimeUnit::kSecond, "+09:00"), {86400 - 3600}).to_string(),
      "[1970-01-02T08:00:00+09:00]");
  EXPECT_EQ(fixed_array<int64_t>(timestamp(TimeUnit::kSecond, "America/New_York"), {1706704496})
                .to_string(),
            "[2024-01-31T12:34:56Z[America/New_York]]");
}

TEST(PrettyPrint, TimesOfDay) {
  EXPECT_EQ(fixed_array<int32_t>(time32(TimeUnit::kSecond), {45296, 0}).to_string(),
            "[12:34:56 00:00:00]");
  EXPECT_EQ(fixed_array<int32_t>(time32(TimeUnit::kMilli), {45296789, std::nullopt}).to_string(),
            "[12:34:56.789 null]");
  EXPECT_EQ(fixed_array<int64_t>(time64(TimeUnit::kMicro), {45296789012}).to_string(),
            "[12:34:56.789012]");
  EXPECT_EQ(fixed_array<int64_t>(time64(TimeUnit::kNano), {86399999999999}).to_string(),
            "[23:59:59.999999999]");
}

TEST(PrettyPrint, DurationsCarryTheirUnit) {
  EXPECT_EQ(fixed_array<int64_t>(duration(TimeUnit::kSecond), {5, std::nullopt}).to_string(),
            "[5s null]");
  EXPECT_EQ(fixed_array<int64_t>(duration(TimeUnit::kMilli), {-1500}).to_string(), "[-1500ms]");
  EXPECT_EQ(fixed_array<int64_t>(duration(TimeUnit::kMicro), {3}).to_string(), "[3us]");
  EXPECT_EQ(fixed_array<int64_t>(duration(TimeUnit::kNano), {7}).to_string(), "[7ns]");
}

TEST(PrettyPrint, Intervals) {
  EXPECT_EQ(fixed_array<int32_t>(month_interval(), {14, -1, std::nullopt}).to_string(),
            "[14M -1M null]");
  EXPECT_EQ(fixed_array<DayTimeInterval>(day_time_interval(), {DayTimeInterval{1, 2}}).to_string(),
            "[1d2ms]");
  EXPECT_EQ(fixed_array<MonthDayNanoInterval>(
                month_day_nano_interval(),
                {MonthDayNanoInterval{1, 2, 3}, MonthDayNanoInterval{-1, 0, -5}})
                .to_string(),
            "[1M2d3ns -1M0d-5ns]");
}

// --- binary and strings --------------------------------------------------------------------

TEST(PrettyPrint, StringsAreQuotedAndEscaped) {
  EXPECT_EQ(string_array({"hello", "apache arrow", std::nullopt}).to_string(),
            R"(["hello" "apache arrow" null])");
  EXPECT_EQ(
      string_array({"say \"hi\"", "back\\slash", "line\nbreak\ttab\r", std::string("\x01\x7f"), ""})
          .to_string(),
      R"(["say \"hi\"" "back\\slash" "line\nbreak\ttab\r" "\x01\x7f" ""])");
}

TEST(PrettyPrint, StringsKeepUtf8AndEscapeMalformedBytes) {
  EXPECT_EQ(string_array({"h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x8F\xB9"}).to_string(),
            "[\"h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x8F\xB9\"]");
  // A lone continuation byte, a truncated sequence, an overlong encoding and a surrogate.
  EXPECT_EQ(string_array({"\x80", "\xC3", "\xC0\xAF", "\xED\xA0\x80"}).to_string(),
            R"(["\x80" "\xc3" "\xc0\xaf" "\xed\xa0\x80"])");
}

TEST(PrettyPrint, LargeStrings) {
  EXPECT_EQ(binary_like_array<int64_t>(large_utf8(), {"a", std::nullopt, "\xC3\xA9"}).to_string(),
            "[\"a\" null \"\xC3\xA9\"]");
}

TEST(PrettyPrint, BinaryEscapesEveryNonAsciiByte) {
  EXPECT_EQ(binary_like_array(binary(), {std::string("\0a\xff", 3), std::nullopt, "\xC3\xA9"})
                .to_string(),
            R"(["\x00a\xff" null "\xc3\xa9"])");
  EXPECT_EQ(binary_like_array<int64_t>(large_binary(), {"\"q\""}).to_string(), R"(["\"q\""])");
}

TEST(PrettyPrint, FixedSizeBinaryAsHex) {
  const std::string bytes("\x01\x02\x03\x00\x00\x00\xab\xcd\xef", 9);
  const Array array(std::make_shared<ArrayData>(
      fixed_size_binary(3), 3,
      std::vector{validity_of({true, false, true}),
                  Buffer::copy_of(bytes.data(), static_cast<int64_t>(bytes.size()))}));
  EXPECT_EQ(array.to_string(), "[010203 null abcdef]");
}

TEST(PrettyPrint, StringViews) {
  const std::string long_value = "a string longer than twelve bytes";
  std::vector<BinaryView> views(3);
  views[0].size = 5;
  std::memcpy(views[0].inlined, "short", 5);
  views[1].size = 0;
  views[2].size = static_cast<int32_t>(long_value.size());
  std::memcpy(views[2].ref.prefix, long_value.data(), 4);
  views[2].ref.buffer_index = 0;
  views[2].ref.offset = 0;
  const Array strings(std::make_shared<ArrayData>(
      utf8_view(), 3,
      std::vector{validity_of({true, false, true}), buffer_of(views),
                  Buffer::copy_of(long_value.data(), static_cast<int64_t>(long_value.size()))}));
  EXPECT_EQ(strings.to_string(), R"(["short" null "a string longer than twelve bytes"])");
  auto binary_data = std::make_shared<ArrayData>(*strings.data());
  binary_data->type = binary_view();
  EXPECT_EQ(Array(binary_data).slice(2).to_string(), R"(["a string longer than twelve bytes"])");
}

// --- nested --------------------------------------------------------------------------------

TEST(PrettyPrint, Lists) {
  const Array lists =
      list_array(list(int64()), {0, 2, 2, 2, 3}, {true, false, true, true}, int64_array({1, 2, 3}));
  EXPECT_EQ(lists.to_string(), "[[1 2] null [] [3]]");
  EXPECT_EQ(lists.slice(2, 2).to_string(), "[[] [3]]");
}

TEST(PrettyPrint, ListsOfLists) {
  const Array inner = list_array(list(utf8()), {0, 1, 3, 3}, {true, true, false},
                                 string_array({"a", "b", std::nullopt}));
  const Array outer = list_array(list(list(utf8())), {0, 2, 3}, {true, true}, inner);
  EXPECT_EQ(outer.to_string(), R"([[["a"] ["b" null]] [null]])");
}

TEST(PrettyPrint, LargeLists) {
  const Array lists(std::make_shared<ArrayData>(
      large_list(int64()), 2,
      std::vector{std::shared_ptr<Buffer>(), buffer_of(std::vector<int64_t>{0, 1, 3})},
      ArrayData::kUnknownNullCount, 0, std::vector{int64_array({7, 8, 9}).data()}));
  EXPECT_EQ(lists.to_string(), "[[7] [8 9]]");
}

TEST(PrettyPrint, ListViewsFollowOffsetsAndSizes) {
  const Array views(std::make_shared<ArrayData>(
      list_view(int64()), 3,
      std::vector{validity_of({true, true, false}), buffer_of(std::vector<int32_t>{2, 0, 0}),
                  buffer_of(std::vector<int32_t>{2, 3, 0})},
      ArrayData::kUnknownNullCount, 0, std::vector{int64_array({1, 2, 3, 4}).data()}));
  EXPECT_EQ(views.to_string(), "[[3 4] [1 2 3] null]");
  const Array large_views(std::make_shared<ArrayData>(
      large_list_view(int64()), 1,
      std::vector{std::shared_ptr<Buffer>(), buffer_of(std::vector<int64_t>{1}),
                  buffer_of(std::vector<int64_t>{2})},
      ArrayData::kUnknownNullCount, 0, std::vector{int64_array({1, 2, 3, 4}).data()}));
  EXPECT_EQ(large_views.to_string(), "[[2 3]]");
}

TEST(PrettyPrint, FixedSizeLists) {
  const Array lists(std::make_shared<ArrayData>(
      fixed_size_list(int64(), 2), 3, std::vector{validity_of({true, false, true})},
      ArrayData::kUnknownNullCount, 0,
      std::vector{int64_array({1, 2, 3, 4, 5, std::nullopt}).data()}));
  EXPECT_EQ(lists.to_string(), "[[1 2] null [5 null]]");
  EXPECT_EQ(lists.slice(2).to_string(), "[[5 null]]");
}

TEST(PrettyPrint, Structs) {
  const TypePtr type = struct_({field("a", int64()), field("b", utf8())});
  const Array structs = struct_array(
      type, {true, false, true}, {int64_array({1, 2, 3}), string_array({"x", "y", std::nullopt})});
  EXPECT_EQ(structs.to_string(), R"([{a: 1, b: "x"} null {a: 3, b: null}])");
  // The struct's offset applies to its children.
  EXPECT_EQ(structs.slice(1).to_string(), R"([null {a: 3, b: null}])");
  EXPECT_EQ(struct_array(struct_({}), {true}, {}).to_string(), "[{}]");
}

TEST(PrettyPrint, Maps) {
  const TypePtr type = map(utf8(), int64());
  const Array entries =
      struct_array(type->field(0)->type(), {true, true, true},
                   {string_array({"k", "j", "z"}), int64_array({1, 2, std::nullopt})});
  const Array maps = list_array(type, {0, 2, 2, 2, 3}, {true, false, true, true}, entries);
  EXPECT_EQ(maps.to_string(), R"([{"k": 1, "j": 2} null {} {"z": null}])");
  EXPECT_EQ(maps.slice(3).to_string(), R"([{"z": null}])");
  // A sliced entries array keeps its own offset.
  const Array sliced_entries = list_array(type, {0, 1}, {true}, entries.slice(2));
  EXPECT_EQ(sliced_entries.to_string(), R"([{"z": null}])");
}

TEST(PrettyPrint, DictionariesShowDecodedValues) {
  const Array indices = fixed_array<int8_t>(int8(), {0, 1, std::nullopt, 0, 2});
  auto data = std::make_shared<ArrayData>(*indices.data());
  data->type = dictionary(int8(), utf8());
  data->dictionary = string_array({"a", "b", std::nullopt}).data();
  const Array dict(data);
  EXPECT_EQ(dict.to_string(), R"(["a" "b" null "a" null])");
  EXPECT_EQ(dict.slice(1, 2).to_string(), R"(["b" null])");
}

TEST(PrettyPrint, DictionaryIndexOutOfRangeIsAFormatError) {
  auto data = std::make_shared<ArrayData>(*fixed_array<int32_t>(int32(), {3}).data());
  data->type = dictionary(int32(), utf8());
  data->dictionary = string_array({"a"}).data();
  EXPECT_THROW(Array(data).to_string(), FormatError);
}

TEST(PrettyPrint, SparseUnions) {
  const TypePtr type = sparse_union({field("i", int64()), field("s", utf8())}, {5, 7});
  const Array unions(std::make_shared<ArrayData>(
      type, 3, std::vector{std::shared_ptr<Buffer>(), buffer_of(std::vector<int8_t>{5, 7, 5})},
      ArrayData::kUnknownNullCount, 0,
      std::vector{int64_array({1, 0, std::nullopt}).data(), string_array({"", "x", ""}).data()}));
  EXPECT_EQ(unions.to_string(), R"([1 "x" null])");
  EXPECT_EQ(unions.slice(1).to_string(), R"(["x" null])");
}

TEST(PrettyPrint, DenseUnions) {
  const TypePtr type = dense_union({field("i", int64()), field("s", utf8())});
  const Array unions(std::make_shared<ArrayData>(
      type, 4,
      std::vector{std::shared_ptr<Buffer>(), buffer_of(std::vector<int8_t>{1, 0, 1, 0}),
                  buffer_of(std::vector<int32_t>{0, 0, 1, 1})},
      ArrayData::kUnknownNullCount, 0,
      std::vector{int64_array({10, 20}).data(), string_array({"a", std::nullopt}).data()}));
  EXPECT_EQ(unions.to_string(), R"(["a" 10 null 20])");
}

TEST(PrettyPrint, UnionWithUnknownTypeCodeIsAFormatError) {
  const TypePtr type = sparse_union({field("i", int64())});
  const Array unions(std::make_shared<ArrayData>(
      type, 1, std::vector{std::shared_ptr<Buffer>(), buffer_of(std::vector<int8_t>{3})},
      ArrayData::kUnknownNullCount, 0, std::vector{int64_array({1}).data()}));
  EXPECT_THROW(unions.to_string(), FormatError);
}

TEST(PrettyPrint, RunEndEncodedShowsLogicalValues) {
  const Array runs(std::make_shared<ArrayData>(
      run_end_encoded(int32(), int64()), 5, std::vector<std::shared_ptr<Buffer>>{},
      ArrayData::kUnknownNullCount, 0,
      std::vector{fixed_array<int32_t>(int32(), {2, 3, 5}).data(),
                  int64_array({1, std::nullopt, 3}).data()}));
  EXPECT_EQ(runs.to_string(), "[1 1 null 3 3]");
  EXPECT_EQ(runs.slice(1, 3).to_string(), "[1 null 3]");
}

TEST(PrettyPrint, ExtensionShowsStorageValues) {
  auto data = std::make_shared<ArrayData>(*string_array({"x", std::nullopt}).data());
  data->type = extension(utf8(), "my.label");
  EXPECT_EQ(Array(data).to_string(), R"(["x" null])");
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
  const Array lists =
      list_array(list(int64()), {0, 3, 3, 4}, {true, true, true}, int64_array({1, 2, 3, 4}));
  EXPECT_EQ(pretty_print(lists, options), "[[1 ... 3] ... [4]]");
  const TypePtr type = map(utf8(), int64());
  const Array entries = struct_array(type->field(0)->type(), {true, true, true},
                                     {string_array({"a", "b", "c"}), int64_array({1, 2, 3})});
  EXPECT_EQ(pretty_print(list_array(type, {0, 3}, {true}, entries), options),
            R"([{"a": 1, ..., "c": 3}])");
}

TEST(PrettyPrint, SlicesShowOnlyTheirWindow) {
  const Array strings = string_array({"a", std::nullopt, "c", "d"});
  EXPECT_EQ(strings.slice(1, 2).to_string(), R"([null "c"])");
  EXPECT_EQ(strings.slice(1, 2).slice(1).to_string(), R"(["c"])");
  EXPECT_EQ(strings.slice(4).to_string(), "[]");
  EXPECT_EQ(bool_array({true, true, false, std::nullopt}).slice(2).to_string(), "[false null]");
  PrettyPrintOptions options;
  options.window = 2;
  EXPECT_EQ(pretty_print(iota_array(30).slice(10, 6), options), "[10 11 ... 14 15]");
}

TEST(PrettyPrint, IndentAndNullSpelling) {
  PrettyPrintOptions options;
  options.indent = 4;
  options.null_string = "NULL";
  EXPECT_EQ(pretty_print(int64_array({1, std::nullopt}), options), "    [1 NULL]");
}

TEST(PrettyPrint, FormatValue) {
  const Array strings = string_array({"a", std::nullopt});
  EXPECT_EQ(format_value(strings, 0), R"("a")");
  EXPECT_EQ(format_value(strings, 1), "null");
  EXPECT_EQ(format_value(strings.slice(1), 0), "null");
  try {
    format_value(strings, 2);
    FAIL() << "expected IndexError";
  } catch (const IndexError& error) {
    EXPECT_STREQ(error.what(), "value index 2 is outside an array of length 2");
  }
}

// --- hex dump ------------------------------------------------------------------------------

TEST(HexDump, StringArrayWithNull) {
  const Array strings = string_array({"hello", std::nullopt, "apache arrow"});
  EXPECT_EQ(hex_dump(strings),
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
  const Array ints = int64_array({1, 2, 3}).slice(1, 1);
  EXPECT_EQ(hex_dump(ints),
            "int64 array: length 1, offset 1, null count 0\n"
            "  buffer 0 (validity bitmap): absent\n"
            "  buffer 1 (values, 8 bytes each): 24 bytes\n"
            "    00000000  01 00 00 00 00 00 00 00  02 00 00 00 00 00 00 00  |................|\n"
            "    00000010  03 00 00 00 00 00 00 00                           |........|\n");
}

TEST(HexDump, ChildrenAndDictionaryAreDumpedRecursively) {
  const Array lists = list_array(list(fixed_array<int8_t>(int8(), {}).type()), {0, 1}, {true},
                                 fixed_array<int8_t>(int8(), {9}));
  EXPECT_EQ(hex_dump(lists),
            "list<item: int8> array: length 1, offset 0, null count 0\n"
            "  buffer 0 (validity bitmap): absent\n"
            "  buffer 1 (offsets, int32): 8 bytes\n"
            "    00000000  00 00 00 00 01 00 00 00                           |........|\n"
            "  child 0 (item): int8 array: length 1, offset 0, null count 0\n"
            "    buffer 0 (validity bitmap): absent\n"
            "    buffer 1 (values, 1 byte each): 1 byte\n"
            "      00000000  09                                                |.|\n");

  auto data = std::make_shared<ArrayData>(*fixed_array<int8_t>(int8(), {0}).data());
  data->type = dictionary(int8(), utf8());
  data->dictionary = string_array({"a"}).data();
  EXPECT_EQ(hex_dump(Array(data)),
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
  const TypePtr type = sparse_union({field("i", int8())});
  const Array unions(std::make_shared<ArrayData>(
      type, 1, std::vector{std::shared_ptr<Buffer>(), buffer_of(std::vector<int8_t>{0})},
      ArrayData::kUnknownNullCount, 0, std::vector{fixed_array<int8_t>(int8(), {4}).data()}));
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
