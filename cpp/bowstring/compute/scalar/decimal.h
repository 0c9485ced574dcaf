#pragma once

// Spark's decimal arithmetic on 128-bit values: result types (`DecimalPrecision` with
// spark.sql.decimalOperations.allowPrecisionLoss=true, the default) and exact operations with
// HALF_UP rounding. Values are the unscaled integers of decimal128 arrays; intermediate results
// that need more than 128 bits (a product of two 38-digit values) are computed in 256 bits.

#include <cstdint>
#include <cstring>
#include <string>

namespace bowstring::compute::decimal {

using int128 = __int128;
using uint128 = unsigned __int128;

/// Precision and scale of a decimal type.
struct Shape {
  int32_t precision;
  int32_t scale;
  friend bool operator==(const Shape&, const Shape&) = default;
};

/// Spark's smallest scale kept when a result type is cut to 38 digits.
inline constexpr int32_t kMinimumAdjustedScale = 6;

/// `DecimalType.adjustPrecisionScale`: a precision above 38 becomes 38, the scale giving way
/// to the integer digits but keeping at least min(scale, 6) digits.
Shape adjust_precision_scale(int32_t precision, int32_t scale);

/// Result types of Spark's decimal operators (`Add`, `Subtract`, `Multiply`, `Divide`,
/// `Remainder`, `Pmod`, each `resultDecimalType`), for operands (p1, s1) and (p2, s2):
///  - + and -: scale max(s1, s2), precision max(p1 - s1, p2 - s2) + scale + 1;
///  - *: precision p1 + p2 + 1, scale s1 + s2;
///  - /: scale max(6, s1 + p2 + 1), precision p1 - s1 + s2 + scale;
///  - % and pmod: scale max(s1, s2), precision min(p1 - s1, p2 - s2) + scale;
/// each adjusted by `adjust_precision_scale`.
Shape add_result(Shape a, Shape b);
Shape multiply_result(Shape a, Shape b);
Shape divide_result(Shape a, Shape b);
Shape remainder_result(Shape a, Shape b);
/// `div` on decimals (`IntegralDivide`): the quotient's integer digits, p1 - s1 + s2, bounded to
/// 38, scale 0; the value is then a BIGINT.
Shape integral_divide_result(Shape a, Shape b);

/// 10^k for k in [0, 38].
uint128 pow10(int k);

/// Whether |value| < 10^precision.
inline bool fits(int128 value, int32_t precision) {
  const uint128 magnitude = value < 0 ? -static_cast<uint128>(value) : static_cast<uint128>(value);
  return magnitude < pow10(precision);
}

inline int128 load(const uint8_t* bytes) {
  int128 value;
  std::memcpy(&value, bytes, sizeof(value));
  return value;
}
inline void store(uint8_t* bytes, int128 value) { std::memcpy(bytes, &value, sizeof(value)); }

/// `value` at `from_scale` brought to `to_scale` (HALF_UP when digits are dropped); false when
/// the result does not fit 128 bits.
bool rescale(int128 value, int32_t from_scale, int32_t to_scale, int128* out);

/// The outcome of an exact operation before the precision check.
enum class Status : uint8_t { kOk = 0, kOverflow = 1, kDivideByZero = 2 };

/// a (scale sa) + b (scale sb), rounded HALF_UP to `scale`.
Status add(int128 a, int32_t sa, int128 b, int32_t sb, int32_t scale, int128* out);
/// a (scale sa) * b (scale sb), rounded HALF_UP to `scale`. As Spark, a product of more than 38
/// significant digits is first rounded to 38 significant digits.
Status multiply(int128 a, int32_t sa, int128 b, int32_t sb, int32_t scale, int128* out);
/// a (scale sa) / b (scale sb), rounded HALF_UP to `scale`.
Status divide(int128 a, int32_t sa, int128 b, int32_t sb, int32_t scale, int128* out);
/// a (scale sa) % b (scale sb) at `scale` (Java's sign rule: the sign of a).
Status remainder(int128 a, int32_t sa, int128 b, int32_t sb, int32_t scale, int128* out);
/// The quotient a / b truncated toward zero, as an integer (scale 0).
Status integral_divide(int128 a, int32_t sa, int128 b, int32_t sb, int128* out);

/// Significant digits Spark keeps when it negates a decimal (or takes its absolute value): it
/// negates through Scala's default MathContext, DECIMAL128.
inline constexpr int kNegationDigits = 34;

/// `value` rounded HALF_EVEN to `kNegationDigits` significant digits, at the same scale; the
/// scale of those digits (the exponent Java gives the rounded value) is `scale` minus
/// `*dropped`, the number of digits rounded off.
int128 round_for_negation(int128 value, int32_t* dropped);

/// Java's `BigDecimal.toString` of `unscaled` at `scale`: plain unless the scale is negative or
/// the value is below 10^-6 ("1.000E+37", "-0.5", "1E-7").
std::string java_string(int128 unscaled, int32_t scale);

/// The operations whose overflowing results Spark prints in NUMERIC_VALUE_OUT_OF_RANGE.
enum class Operation : uint8_t { kAdd, kSubtract, kMultiply, kDivide, kIntegralDivide };

/// The value Spark reports when `a op b` does not fit its result type, in plain notation: the
/// exact sum or difference; the product cut (toward zero) to 39 significant digits; the
/// quotient rounded HALF_UP to `scale`; the integral quotient. Empty when it needs more than
/// 256 bits.
std::string overflowed_value(Operation op, int128 a, int32_t sa, int128 b, int32_t sb,
                             int32_t scale);

/// "-12.30" for 1230 at scale 2, "0.05" for 5 at scale 2.
std::string to_string(int128 value, int32_t scale);
/// "Decimal(10, 2)"-style name used in Spark's messages.
std::string type_name(Shape shape);

}  // namespace bowstring::compute::decimal
