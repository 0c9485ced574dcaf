#include "bowstring/compute/scalar/hash.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

using testing::make_array;
using testing::make_decimal_array;
using testing::make_dictionary_array;
using testing::make_list_array;
using testing::make_string_array;
using testing::make_struct_array;

// The expected values below were computed by Spark 4 (`SELECT hash(...)`, `xxhash64(...)`).

std::vector<int32_t> murmur(std::vector<Datum> arguments) {
  const Datum result = call("hash", arguments);
  const Int32Array values(result.array());
  return {values.values().begin(), values.values().end()};
}

std::vector<int64_t> xxhash(std::vector<Datum> arguments) {
  const Datum result = call("xxhash64", arguments);
  const Int64Array values(result.array());
  return {values.values().begin(), values.values().end()};
}

Datum scalar(const Array& one) { return Datum::scalar(one); }

TEST(HashSpark, IntegersAsSparkHashesThem) {
  EXPECT_EQ(murmur({make_array<int32_t>({1, 2147483647, std::numeric_limits<int32_t>::min()})}),
            (std::vector<int32_t>{-559580957, 133916647, 723455942}));
  EXPECT_EQ(murmur({make_array<int8_t>({1})}), std::vector<int32_t>{-559580957});
  EXPECT_EQ(murmur({make_array<int16_t>({1})}), std::vector<int32_t>{-559580957});
  EXPECT_EQ(murmur({make_array<int64_t>({1, -1, std::numeric_limits<int64_t>::max()})}),
            (std::vector<int32_t>{-1712319331, -939490007, -1604625029}));
  EXPECT_EQ(murmur({make_array<bool>({true, false})}),
            (std::vector<int32_t>{-559580957, 933211791}));
  EXPECT_EQ(xxhash({make_array<int32_t>({1})}), std::vector<int64_t>{-6698625589789238999LL});
  EXPECT_EQ(xxhash({make_array<int64_t>({1, -1})}),
            (std::vector<int64_t>{-7001672635703045582LL, 3858142552250413010LL}));
  EXPECT_EQ(xxhash({make_array<bool>({true})}), std::vector<int64_t>{-6698625589789238999LL});
}

TEST(HashSpark, StringsAndBinary) {
  const std::vector<std::optional<std::string>> strings = {
      "Spark", "", "a", "ab", "abc", "abcd", "abcde", "h\xc3\xa9llo w\xc3\xb6rld!"};
  const std::vector<int32_t> expected = {228093765,  142593372,  1485273170, -97053317,
                                         1322437556, -396302900, 814637928,  -1532567133};
  for (const TypePtr& type : {utf8(), large_utf8(), utf8_view(), binary()}) {
    EXPECT_EQ(murmur({make_string_array(strings, type)}), expected) << type->to_string();
  }
  EXPECT_EQ(murmur({make_string_array({std::string("\x01\x02\xff", 3)}, binary())}),
            std::vector<int32_t>{456895484});
  EXPECT_EQ(
      xxhash({make_string_array(
          {"Spark", "", "a", "abcdefgh", "abcdefghijklmnopqrstuvwxyz0123456789ABCDEF"})}),
      (std::vector<int64_t>{-4294468057691064905LL, -7444071767201028348LL, -8582455328737087284LL,
                            2470326616177429180LL, 1498839116691236264LL}));
  EXPECT_EQ(xxhash({make_string_array({std::string("\x01\x02\xff", 3)}, binary())}),
            std::vector<int64_t>{-7261190845588930587LL});
}

TEST(HashSpark, FloatsNormalizeNegativeZeroAndNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(murmur({make_array<double>({1.5, -0.0, 0.0, nan, -nan})}),
            (std::vector<int32_t>{1290763749, -1670924195, -1670924195, -1281358385, -1281358385}));
  const float fnan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(murmur({make_array<float>({1.5f, -0.0f, fnan})}),
            (std::vector<int32_t>{-221251528, 933211791, -349261430}));
  EXPECT_EQ(xxhash({make_array<double>({1.5, -0.0, nan})}),
            (std::vector<int64_t>{7738255526519901366LL, -5252525462095825812LL,
                                  -3127944061524951246LL}));
  EXPECT_EQ(xxhash({make_array<float>({1.5f})}), std::vector<int64_t>{6163473420726370430LL});
}

TEST(HashSpark, DecimalsNarrowAsLongWideAsBigIntegerBytes) {
  EXPECT_EQ(murmur({make_decimal_array(decimal128(10, 2), {"12.34", "-12.34"})}),
            (std::vector<int32_t>{-1028144669, 180183791}));
  EXPECT_EQ(murmur({make_decimal_array(decimal64(10, 2), {"12.34", "-12.34"})}),
            (std::vector<int32_t>{-1028144669, 180183791}));
  EXPECT_EQ(murmur({make_decimal_array(decimal128(30, 2), {"12.34", "-12.34", "0"})}),
            (std::vector<int32_t>{1123058251, -378694793, -783713497}));
  EXPECT_EQ(murmur({make_decimal_array(decimal256(30, 0), {"128"})}),
            std::vector<int32_t>{-544401882});
  EXPECT_EQ(xxhash({make_decimal_array(decimal128(10, 2), {"12.34"})}),
            std::vector<int64_t>{-3802813071951760351LL});
  EXPECT_EQ(xxhash({make_decimal_array(decimal128(30, 2), {"-12.34"})}),
            std::vector<int64_t>{-5902959860576184235LL});
}

TEST(HashSpark, DatesAndTimestamps) {
  // 2024-03-01 is day 19783; 2024-03-01 12:34:56.789 is 1709296496789000 us.
  EXPECT_EQ(murmur({make_array<int32_t>(date32(), {19783})}), std::vector<int32_t>{260758936});
  EXPECT_EQ(murmur({make_array<int64_t>(date64(), {19783LL * 86400000})}),
            std::vector<int32_t>{260758936});
  EXPECT_EQ(xxhash({make_array<int32_t>(date32(), {19783})}),
            std::vector<int64_t>{1763388596767996625LL});
  EXPECT_EQ(murmur({make_array<int64_t>(timestamp(TimeUnit::kMicro), {1709296496789000})}),
            std::vector<int32_t>{1107679108});
  EXPECT_EQ(murmur({make_array<int64_t>(timestamp(TimeUnit::kNano, "UTC"), {1709296496789000000})}),
            std::vector<int32_t>{1107679108});
  EXPECT_EQ(murmur({make_array<int64_t>(timestamp(TimeUnit::kMilli), {1709296496789})}),
            std::vector<int32_t>{1107679108});
}

TEST(HashSpark, NullsLeaveTheRunningHashUnchanged) {
  const Array ones = make_array<int32_t>({1, 1, std::nullopt});
  const Array twos = make_array<int32_t>({2, std::nullopt, 2});
  const Array nulls = make_array<int32_t>({std::nullopt, std::nullopt, std::nullopt});
  EXPECT_EQ(murmur({ones, nulls, twos}),
            (std::vector<int32_t>{-222940379, -559580957, spark_murmur3_int(2, 42)}));
  EXPECT_EQ(murmur({nulls}), (std::vector<int32_t>{42, 42, 42}));
  EXPECT_EQ(xxhash({nulls}), (std::vector<int64_t>{42, 42, 42}));
  EXPECT_EQ(xxhash({make_array<int32_t>({1}), make_array<int32_t>({2})}),
            std::vector<int64_t>{-8133857028838179022LL});
  EXPECT_EQ(murmur({Datum::null_scalar(int32()), ones}).size(), 3u);
}

TEST(HashSpark, MixedArgumentsAndScalars) {
  const Array ints = make_array<int32_t>({1, 1});
  const Array strings = make_string_array({"a", "a"});
  const Array doubles = make_array<double>({2.5, 2.5});
  const Array bools = make_array<bool>({true, true});
  EXPECT_EQ(murmur({ints, strings, doubles, bools}),
            (std::vector<int32_t>{-1125248331, -1125248331}));
  EXPECT_EQ(murmur({scalar(ints.slice(0, 1)), strings, scalar(doubles.slice(0, 1)), bools}),
            (std::vector<int32_t>{-1125248331, -1125248331}));
  EXPECT_EQ(xxhash({ints, strings, doubles, bools}),
            (std::vector<int64_t>{-2911450530931841648LL, -2911450530931841648LL}));
  const Datum all_scalars = call("hash", std::vector<Datum>{scalar(ints.slice(0, 1))});
  ASSERT_TRUE(all_scalars.is_scalar());
  EXPECT_EQ(Int32Array(all_scalars.array()).value(0), -559580957);
}

TEST(HashSpark, NestedValues) {
  const Array lists = make_list_array<int32_t>({{{1, 2, 3}}, {{1, std::nullopt, 3}}});
  EXPECT_EQ(murmur({lists}), (std::vector<int32_t>{-912918097, 1066699649}));
  EXPECT_EQ(xxhash({lists.slice(1, 1)}), std::vector<int64_t>{-3383274367486667931LL});
  const Array rows =
      make_struct_array({{"a", make_array<int32_t>({1})}, {"b", make_string_array({"x"})}});
  EXPECT_EQ(murmur({rows}), std::vector<int32_t>{-1305545736});
  EXPECT_EQ(xxhash({rows}), std::vector<int64_t>{8510603489595372987LL});
  const Array string_lists = testing::make_string_list_array(list(utf8()), {{{"a", "bc"}}});
  EXPECT_EQ(murmur({string_lists}), std::vector<int32_t>{204370463});
}

TEST(HashSpark, DictionariesHashTheirValues) {
  const Array names = make_string_array({"Spark", "a"});
  const Array codes = make_dictionary_array(int8(), {1, 0, std::nullopt}, names);
  EXPECT_EQ(murmur({codes}), (std::vector<int32_t>{1485273170, 228093765, 42}));
}

TEST(HashSpark, SlicesEmptyAndErrors) {
  const Array values = make_array<int64_t>({5, 1, std::nullopt, -1});
  EXPECT_EQ(murmur({values.slice(1, 3)}), (std::vector<int32_t>{-1712319331, 42, -939490007}));
  const Array strings = make_string_array({"zz", "Spark", "a"});
  EXPECT_EQ(murmur({strings.slice(1, 2)}), (std::vector<int32_t>{228093765, 1485273170}));
  EXPECT_TRUE(murmur({values.slice(0, 0)}).empty());
  EXPECT_THROW(call("hash", std::vector<Datum>{}), AnalysisError);
  const Array maps = make_builder(map(utf8(), int32()))->finish();
  const std::string message =
      testing::error_message<AnalysisError>([&] { call("hash", std::vector<Datum>{maps}); });
  EXPECT_NE(message.find("HASH_MAP_TYPE"), std::string::npos) << message;
}

TEST(HashInternal, EqualKeysHashEqual) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Array doubles = make_array<double>({0.0, -0.0, nan, -nan, 1.0});
  std::vector<uint64_t> hashes(5);
  hash_column(doubles, hashes.data(), false);
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(hashes[2], hashes[3]);
  EXPECT_NE(hashes[0], hashes[4]);

  // A dictionary hashes as its values; a slice as the same rows unsliced.
  const Array plain = make_string_array({"b", "a", std::nullopt, "b"});
  const Array encoded =
      make_dictionary_array(int32(), {1, 0, std::nullopt, 1}, make_string_array({"a", "b"}));
  std::vector<uint64_t> plain_hashes(4);
  std::vector<uint64_t> encoded_hashes(4);
  hash_column(plain, plain_hashes.data(), false);
  hash_column(encoded, encoded_hashes.data(), false);
  EXPECT_EQ(plain_hashes, encoded_hashes);
  EXPECT_EQ(plain_hashes[0], plain_hashes[3]);
  std::vector<uint64_t> slice_hashes(2);
  hash_column(plain.slice(2, 2), slice_hashes.data(), false);
  EXPECT_EQ(slice_hashes[0], plain_hashes[2]);
  EXPECT_EQ(slice_hashes[1], plain_hashes[3]);

  // Rows of several columns.
  const Array ints = make_array<int64_t>({7, 8, 7, 7});
  const Array keys[] = {plain, ints};
  std::vector<uint64_t> row_hashes(4);
  hash_rows(keys, row_hashes.data());
  EXPECT_EQ(row_hashes[0], row_hashes[3]);
  EXPECT_NE(row_hashes[0], row_hashes[1]);
  EXPECT_NE(row_hashes[0], row_hashes[2]);
}

TEST(HashInternal, NestedKeys) {
  const Array lists = make_list_array<int32_t>({{{1, 2}}, {{1, 2}}, {{2, 1}}, std::nullopt});
  std::vector<uint64_t> hashes(4);
  hash_column(lists, hashes.data(), false);
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_NE(hashes[0], hashes[2]);
  EXPECT_NE(hashes[0], hashes[3]);
  EXPECT_NE(hash_bytes("abc", 3), hash_bytes("abd", 3));
  EXPECT_EQ(hash_bytes("abcdefghij", 10), hash_bytes("abcdefghij", 10));
}

}  // namespace
}  // namespace bowstring::compute
