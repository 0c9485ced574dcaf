#include "bowstring/compute/scalar/decimal.h"

#include <gtest/gtest.h>

#include <string>

namespace bowstring::compute::decimal {
namespace {

// 10^38 - 1, the largest DECIMAL(38, s) unscaled value.
const int128 kMax38 = static_cast<int128>(pow10(38)) - 1;

// A decimal's text from an exact operation, or the failure.
template <typename Operation>
std::string run(Operation operation, int32_t scale) {
  int128 out = 0;
  switch (operation(&out)) {
    case Status::kOk:
      return to_string(out, scale);
    case Status::kOverflow:
      return "overflow";
    case Status::kDivideByZero:
      return "divide by zero";
  }
  return "";
}

TEST(DecimalResultTypes, FollowDecimalPrecision) {
  EXPECT_EQ(add_result({10, 2}, {5, 4}), (Shape{13, 4}));
  EXPECT_EQ(add_result({38, 0}, {38, 0}), (Shape{38, 0}));
  EXPECT_EQ(multiply_result({10, 2}, {5, 1}), (Shape{16, 3}));
  // Spark: cast(1 as decimal(38,10)) * cast(1 as decimal(38,10)) is decimal(38,6).
  EXPECT_EQ(multiply_result({38, 10}, {38, 10}), (Shape{38, 6}));
  // Spark: 1.0BD / 3 (a literal 3 is decimal(1,0)) is decimal(7,6).
  EXPECT_EQ(divide_result({2, 1}, {1, 0}), (Shape{7, 6}));
  EXPECT_EQ(divide_result({38, 10}, {38, 10}), (Shape{38, 6}));
  // Spark: decimal(10,2) % decimal(5,1) is decimal(6,2).
  EXPECT_EQ(remainder_result({10, 2}, {5, 1}), (Shape{6, 2}));
  EXPECT_EQ(integral_divide_result({20, 0}, {2, 1}), (Shape{21, 0}));
  EXPECT_EQ(adjust_precision_scale(42, 36), (Shape{38, 32}));
  EXPECT_EQ(adjust_precision_scale(80, 2), (Shape{38, 2}));
}

TEST(DecimalText, FormatsWithScale) {
  EXPECT_EQ(to_string(1230, 2), "12.30");
  EXPECT_EQ(to_string(-5, 2), "-0.05");
  EXPECT_EQ(to_string(0, 0), "0");
  EXPECT_EQ(to_string(-kMax38, 0), "-99999999999999999999999999999999999999");
  EXPECT_EQ(type_name({10, 2}), "Decimal(10, 2)");
}

TEST(DecimalRescale, RoundsHalfUp) {
  int128 out = 0;
  ASSERT_TRUE(rescale(125, 2, 1, &out));
  EXPECT_EQ(out, 13);
  ASSERT_TRUE(rescale(-125, 2, 1, &out));
  EXPECT_EQ(out, -13);
  ASSERT_TRUE(rescale(124, 2, 1, &out));
  EXPECT_EQ(out, 12);
  ASSERT_TRUE(rescale(7, 0, 3, &out));
  EXPECT_EQ(out, 7000);
  EXPECT_FALSE(rescale(kMax38, 0, 2, &out));
  EXPECT_TRUE(fits(kMax38, 38));
  EXPECT_FALSE(fits(static_cast<int128>(pow10(5)), 5));
}

TEST(DecimalAdd, AlignsScalesAndWidens) {
  EXPECT_EQ(run([](int128* out) { return add(150, 2, 25, 1, 2, out); }, 2), "4.00");
  EXPECT_EQ(run([](int128* out) { return add(-150, 2, 25, 1, 2, out); }, 2), "1.00");
  // 38 integer digits plus 38 fractional digits: computed in 256 bits, rounded to scale 0.
  EXPECT_EQ(run([](int128* out) { return add(kMax38 - 1, 0, 5, 1, 0, out); }, 0),
            "99999999999999999999999999999999999999");
  EXPECT_EQ(run([](int128* out) { return add(kMax38, 0, 1, 38, 0, out); }, 0),
            "99999999999999999999999999999999999999");
  EXPECT_EQ(run([](int128* out) { return add(kMax38, 0, kMax38, 0, 0, out); }, 0), "overflow");
  EXPECT_EQ(run([](int128* out) { return add(-kMax38, 0, -kMax38 / 10, 1, 0, out); }, 0),
            "overflow");
}

TEST(DecimalMultiply, RoundsToThirtyEightDigitsFirst) {
  EXPECT_EQ(run([](int128* out) { return multiply(15, 1, -15, 1, 2, out); }, 2), "-2.25");
  // Spark: cast(9.99 as decimal(38,36)) * 100 = 999.000...0 at scale 32.
  const int128 nine_99 = 999 * static_cast<int128>(pow10(34));
  EXPECT_EQ(run([&](int128* out) { return multiply(nine_99, 36, 100, 0, 32, out); }, 32),
            "999.00000000000000000000000000000000");
  // A 76-digit product: (10^38 - 1)^2 at scale 76 to scale 6.
  EXPECT_EQ(run([](int128* out) { return multiply(kMax38, 38, kMax38, 38, 6, out); }, 6),
            "1.000000");
  EXPECT_EQ(run([](int128* out) { return multiply(kMax38, 0, 10, 0, 0, out); }, 0), "overflow");
}

TEST(DecimalDivide, RoundsHalfUpAtResultScale) {
  EXPECT_EQ(run([](int128* out) { return divide(10, 1, 3, 0, 6, out); }, 6), "0.333333");
  EXPECT_EQ(run([](int128* out) { return divide(20, 1, 3, 0, 6, out); }, 6), "0.666667");
  EXPECT_EQ(run([](int128* out) { return divide(-20, 1, 3, 0, 6, out); }, 6), "-0.666667");
  EXPECT_EQ(run([](int128* out) { return divide(1, 0, 0, 0, 6, out); }, 6), "divide by zero");
  // Dividends beyond 128 bits once scaled: long division in 256 bits.
  EXPECT_EQ(run([](int128* out) { return divide(kMax38, 0, 3, 0, 0, out); }, 0),
            "33333333333333333333333333333333333333");
  EXPECT_EQ(run([](int128* out) { return divide(1, 0, 7, 0, 37, out); }, 37),
            "0.1428571428571428571428571428571428571");
  EXPECT_EQ(run([](int128* out) { return divide(kMax38, 0, 1, 38, 6, out); }, 6), "overflow");
  // A scale below the dividend's: digits dropped before dividing.
  EXPECT_EQ(run([](int128* out) { return divide(123456, 5, 1, 0, 2, out); }, 2), "1.23");
}

TEST(DecimalRemainder, KeepsDividendSign) {
  // Spark: 5.25 % -3.1 = 2.15.
  EXPECT_EQ(run([](int128* out) { return remainder(525, 2, -31, 1, 2, out); }, 2), "2.15");
  EXPECT_EQ(run([](int128* out) { return remainder(-525, 2, 31, 1, 2, out); }, 2), "-2.15");
  EXPECT_EQ(run([](int128* out) { return remainder(5, 0, 0, 0, 0, out); }, 0), "divide by zero");
}

TEST(DecimalIntegralDivide, Truncates) {
  // Spark: -7.5 div 2.0 = -3.
  EXPECT_EQ(run([](int128* out) { return integral_divide(-750, 2, 20, 1, out); }, 0), "-3");
  EXPECT_EQ(run([](int128* out) { return integral_divide(kMax38, 0, 1, 38, out); }, 0), "overflow");
  EXPECT_EQ(run([](int128* out) { return integral_divide(1, 38, kMax38, 0, out); }, 0), "0");
}

// Java's BigDecimal.toString: plain for a scale >= 0 down to 10^-6, scientific otherwise.
TEST(DecimalText, JavaString) {
  EXPECT_EQ(java_string(static_cast<int128>(pow10(33)), -4),
            "1.000000000000000000000000000000000E+37");
  EXPECT_EQ(java_string(static_cast<int128>(pow10(33)), 5), "10000000000000000000000000000.00000");
  EXPECT_EQ(java_string(-5, 1), "-0.5");
  EXPECT_EQ(java_string(1, 7), "1E-7");
  EXPECT_EQ(java_string(12, -1), "1.2E+2");
  EXPECT_EQ(java_string(0, 0), "0");
}

// Spark negates through 34 significant digits, HALF_EVEN.
TEST(DecimalNegation, RoundsTo34Digits) {
  int32_t dropped = -1;
  EXPECT_EQ(round_for_negation(-15, &dropped), -15);
  EXPECT_EQ(dropped, 0);
  // 12345678901234567890123456789012345000: a tie, the kept last digit 4 is even.
  const int128 tie = static_cast<int128>(1234567890123456789) * static_cast<int128>(pow10(19)) +
                     static_cast<int128>(123456789012345000);
  EXPECT_EQ(to_string(round_for_negation(tie, &dropped), 0),
            "12345678901234567890123456789012340000");
  EXPECT_EQ(dropped, 4);
  EXPECT_EQ(to_string(round_for_negation(-tie - 10000, &dropped), 0),
            "-12345678901234567890123456789012360000");
  // 38 nines round up to 10^38, kept as 34 digits dropping 5.
  EXPECT_EQ(to_string(round_for_negation(kMax38, &dropped), 0),
            "100000000000000000000000000000000000000");
  EXPECT_EQ(dropped, 5);
}

TEST(DecimalText, OverflowedValues) {
  EXPECT_EQ(overflowed_value(Operation::kAdd, kMax38, 0, 1, 0, 0),
            "100000000000000000000000000000000000000");
  EXPECT_EQ(overflowed_value(Operation::kSubtract, -1, 0, kMax38, 0, 0),
            "-100000000000000000000000000000000000000");
  // Different scales align: 10^37 - 0.01 + 0.011 at scale 3.
  EXPECT_EQ(overflowed_value(Operation::kAdd, kMax38, 2, 11, 3, 2),
            "1000000000000000000000000000000000000.001");
  EXPECT_EQ(overflowed_value(Operation::kMultiply, kMax38, 0, -15, 1, 1),
            "-149999999999999999999999999999999999998");
  EXPECT_EQ(overflowed_value(Operation::kDivide, kMax38, 1, 3, 1, 6),
            "33333333333333333333333333333333333333.000000");
  EXPECT_EQ(overflowed_value(Operation::kIntegralDivide, kMax38, 0, 1, 1, 0),
            "999999999999999999999999999999999999990");
  EXPECT_EQ(overflowed_value(Operation::kDivide, 1, 0, 0, 0, 6), "");
}

}  // namespace
}  // namespace bowstring::compute::decimal
