#include "bowstring/compute/cast/cast_text.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

namespace bowstring::compute::cast_text {
namespace {

std::string double_text(double value) {
  char text[32];
  return {text, static_cast<size_t>(format_double(value, text))};
}

std::string float_text(float value) {
  char text[32];
  return {text, static_cast<size_t>(format_float(value, text))};
}

std::string decimal_text(__int128 unscaled, int32_t scale, bool plain) {
  char text[64];
  const int n =
      plain ? format_decimal_plain(unscaled, scale, text) : format_decimal(unscaled, scale, text);
  return {text, static_cast<size_t>(n)};
}

ParseResult integer(std::string_view text, int64_t* out, bool allow_fraction = false) {
  return parse_integer(text.data(), text.data() + text.size(), std::numeric_limits<int64_t>::min(),
                       std::numeric_limits<int64_t>::max(), allow_fraction, out);
}

ParseResult decimal(std::string_view text, int32_t precision, int32_t scale, __int128* out) {
  return parse_decimal(text.data(), text.data() + text.size(), precision, scale, out);
}

TEST(CastText, FormatsDoublesAsJava) {
  EXPECT_EQ(double_text(1.0), "1.0");
  EXPECT_EQ(double_text(-2.5), "-2.5");
  EXPECT_EQ(double_text(1e7), "1.0E7");
  EXPECT_EQ(double_text(9999999.0), "9999999.0");
  EXPECT_EQ(double_text(0.001), "0.001");
  EXPECT_EQ(double_text(0.000999), "9.99E-4");
  EXPECT_EQ(double_text(1e23), "1.0E23");
  EXPECT_EQ(double_text(std::numeric_limits<double>::max()), "1.7976931348623157E308");
  EXPECT_EQ(double_text(std::numeric_limits<double>::denorm_min()), "4.9E-324");
  EXPECT_EQ(double_text(-std::numeric_limits<double>::infinity()), "-Infinity");
}

TEST(CastText, FormatsFloatsAsJava) {
  EXPECT_EQ(float_text(1.0f), "1.0");
  EXPECT_EQ(float_text(0.1f), "0.1");
  EXPECT_EQ(float_text(std::numeric_limits<float>::denorm_min()), "1.4E-45");
  EXPECT_EQ(float_text(-0.0f), "-0.0");
  EXPECT_EQ(float_text(std::nanf("")), "NaN");
}

TEST(CastText, FormattedDoublesReadBackExactly) {
  std::mt19937_64 random(42);
  for (int i = 0; i < 20000; ++i) {
    const auto value = std::bit_cast<double>(random());
    if (!std::isfinite(value)) {
      continue;
    }
    const std::string text = double_text(value);
    double parsed = 0;
    ASSERT_EQ(parse_double(text.data(), text.data() + text.size(), &parsed), ParseResult::kOk)
        << text;
    EXPECT_EQ(std::bit_cast<uint64_t>(parsed), std::bit_cast<uint64_t>(value)) << text;
  }
}

TEST(CastText, FormattedFloatsReadBackExactly) {
  std::mt19937 random(7);
  for (int i = 0; i < 20000; ++i) {
    const auto value = std::bit_cast<float>(static_cast<uint32_t>(random()));
    if (!std::isfinite(value)) {
      continue;
    }
    const std::string text = float_text(value);
    float parsed = 0;
    ASSERT_EQ(parse_float(text.data(), text.data() + text.size(), &parsed), ParseResult::kOk)
        << text;
    EXPECT_EQ(std::bit_cast<uint32_t>(parsed), std::bit_cast<uint32_t>(value)) << text;
  }
}

TEST(CastText, ParsesIntegersAndFormatsThemBack) {
  std::mt19937_64 random(3);
  for (int i = 0; i < 20000; ++i) {
    const auto value = static_cast<int64_t>(random()) >> (random() % 64);
    char text[24];
    const int n = format_int64(value, text);
    EXPECT_EQ(std::string(text, static_cast<size_t>(n)), std::to_string(value));
    int64_t parsed = 0;
    ASSERT_EQ(integer(std::string_view(text, static_cast<size_t>(n)), &parsed), ParseResult::kOk);
    EXPECT_EQ(parsed, value);
  }
}

TEST(CastText, IntegerSyntax) {
  int64_t value = 0;
  EXPECT_EQ(integer(" -42\t", &value), ParseResult::kOk);
  EXPECT_EQ(value, -42);
  EXPECT_EQ(integer("0000000000000000000000007", &value), ParseResult::kOk);
  EXPECT_EQ(value, 7);
  EXPECT_EQ(integer("-", &value), ParseResult::kInvalid);
  EXPECT_EQ(integer("+", &value), ParseResult::kInvalid);
  EXPECT_EQ(integer("", &value), ParseResult::kInvalid);
  EXPECT_EQ(integer("1 2", &value), ParseResult::kInvalid);
  EXPECT_EQ(integer("9223372036854775808", &value), ParseResult::kOverflow);
  EXPECT_EQ(integer("-9223372036854775809", &value), ParseResult::kOverflow);
  EXPECT_EQ(integer("12.9", &value, true), ParseResult::kOk);
  EXPECT_EQ(value, 12);
  EXPECT_EQ(integer("-.9", &value, true), ParseResult::kOk);
  EXPECT_EQ(value, 0);
  EXPECT_EQ(integer("1.2.3", &value, true), ParseResult::kInvalid);
  EXPECT_EQ(integer(".", &value, true), ParseResult::kInvalid);
  int64_t small = 0;
  EXPECT_EQ(parse_integer("128", "128" + 3, -128, 127, false, &small), ParseResult::kOverflow);
  EXPECT_EQ(parse_integer("-128", "-128" + 4, -128, 127, false, &small), ParseResult::kOk);
  EXPECT_EQ(small, -128);
}

TEST(CastText, DecimalSyntaxAndRounding) {
  __int128 value = 0;
  EXPECT_EQ(decimal("1.005", 10, 2, &value), ParseResult::kOk);
  EXPECT_EQ(static_cast<int64_t>(value), 101);
  EXPECT_EQ(decimal("-1.004", 10, 2, &value), ParseResult::kOk);
  EXPECT_EQ(static_cast<int64_t>(value), -100);
  EXPECT_EQ(decimal("0.5", 1, 0, &value), ParseResult::kOk);
  EXPECT_EQ(static_cast<int64_t>(value), 1);
  EXPECT_EQ(decimal("0.4999999", 1, 0, &value), ParseResult::kOk);
  EXPECT_EQ(static_cast<int64_t>(value), 0);
  EXPECT_EQ(decimal("9.5", 1, 0, &value), ParseResult::kOverflow);
  EXPECT_EQ(decimal("12.3E-1", 3, 2, &value), ParseResult::kOk);
  EXPECT_EQ(static_cast<int64_t>(value), 123);
  EXPECT_EQ(decimal("0e999999999999", 3, 2, &value), ParseResult::kOk);
  EXPECT_EQ(static_cast<int64_t>(value), 0);
  EXPECT_EQ(decimal("1e-999999999999", 3, 2, &value), ParseResult::kOk);
  EXPECT_EQ(static_cast<int64_t>(value), 0);
  EXPECT_EQ(decimal("99999999999999999999999999999999999999", 38, 0, &value), ParseResult::kOk);
  EXPECT_EQ(decimal("999999999999999999999999999999999999999", 38, 0, &value),
            ParseResult::kOverflow);
  // Digits far past the ones kept still count for the size of the value.
  EXPECT_EQ(decimal(std::string(100, '1'), 38, 0, &value), ParseResult::kOverflow);
  EXPECT_EQ(decimal("0." + std::string(100, '0') + "5", 38, 2, &value), ParseResult::kOk);
  EXPECT_EQ(static_cast<int64_t>(value), 0);
  for (const char* text : {"", ".", "-", "e1", "1e", "1e+", "1..2", "1.2.3", "1,2", "0x1", "1d"}) {
    EXPECT_EQ(decimal(text, 10, 2, &value), ParseResult::kInvalid) << text;
  }
}

TEST(CastText, FormatsDecimals) {
  EXPECT_EQ(decimal_text(-1230, 2, true), "-12.30");
  EXPECT_EQ(decimal_text(5, 3, true), "0.005");
  EXPECT_EQ(decimal_text(0, 0, true), "0");
  EXPECT_EQ(decimal_text(1, 10, false), "1E-10");
  EXPECT_EQ(decimal_text(0, 10, false), "0E-10");
  EXPECT_EQ(decimal_text(1000, 10, false), "1.000E-7");
  EXPECT_EQ(decimal_text(-1, 6, false), "-0.000001");
  const __int128 largest = pow10_i128(38) - 1;
  EXPECT_EQ(decimal_text(-largest, 0, true), "-" + std::string(38, '9'));
  EXPECT_EQ(decimal_text(largest, 38, true), "0." + std::string(38, '9'));
}

}  // namespace
}  // namespace bowstring::compute::cast_text
