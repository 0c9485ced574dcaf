#include "bowstring/compute/scalar/decimal.h"

#include <algorithm>
#include <array>

namespace bowstring::compute::decimal {

namespace {

constexpr int32_t kMaxPrecision = 38;

// Unsigned 256-bit magnitudes (little-endian 64-bit limbs), for intermediate results beyond
// 128 bits. Only the few operations decimal arithmetic needs.
struct U256 {
  std::array<uint64_t, 4> limbs{};

  static U256 from(uint128 value) {
    U256 result;
    result.limbs[0] = static_cast<uint64_t>(value);
    result.limbs[1] = static_cast<uint64_t>(value >> 64);
    return result;
  }
  bool fits_128() const { return limbs[2] == 0 && limbs[3] == 0; }
  uint128 low_128() const { return (static_cast<uint128>(limbs[1]) << 64) | limbs[0]; }
  bool is_zero() const { return (limbs[0] | limbs[1] | limbs[2] | limbs[3]) == 0; }
  bool bit(int i) const { return (limbs[i / 64] >> (i % 64)) & 1; }
};

// a * b for 128-bit magnitudes.
U256 multiply_128(uint128 a, uint128 b) {
  const uint64_t a_limbs[2] = {static_cast<uint64_t>(a), static_cast<uint64_t>(a >> 64)};
  const uint64_t b_limbs[2] = {static_cast<uint64_t>(b), static_cast<uint64_t>(b >> 64)};
  U256 result;
  for (int i = 0; i < 2; ++i) {
    uint128 carry = 0;
    for (int j = 0; j < 2; ++j) {
      const uint128 sum =
          static_cast<uint128>(a_limbs[i]) * b_limbs[j] + result.limbs[i + j] + carry;
      result.limbs[i + j] = static_cast<uint64_t>(sum);
      carry = sum >> 64;
    }
    result.limbs[i + 2] = static_cast<uint64_t>(carry);
  }
  return result;
}

// a * b where a * b < 2^256 (b up to 64 bits).
U256 multiply_small(const U256& a, uint64_t b) {
  U256 result;
  uint128 carry = 0;
  for (int i = 0; i < 4; ++i) {
    const uint128 product = static_cast<uint128>(a.limbs[i]) * b + carry;
    result.limbs[i] = static_cast<uint64_t>(product);
    carry = product >> 64;
  }
  return result;
}

// a * 10^k for a * 10^k < 2^256.
U256 multiply_pow10(U256 a, int k) {
  while (k > 0) {
    const int step = std::min(k, 19);
    a = multiply_small(a, static_cast<uint64_t>(pow10(step)));
    k -= step;
  }
  return a;
}

// a / divisor (64-bit), the remainder in `*remainder`.
U256 divide_small(const U256& a, uint64_t divisor, uint64_t* remainder) {
  U256 quotient;
  uint128 rest = 0;
  for (int i = 3; i >= 0; --i) {
    const uint128 current = (rest << 64) | a.limbs[i];
    quotient.limbs[i] = static_cast<uint64_t>(current / divisor);
    rest = current % divisor;
  }
  *remainder = static_cast<uint64_t>(rest);
  return quotient;
}

// a / 10^k truncated, k >= 0.
U256 divide_pow10(U256 a, int k) {
  uint64_t remainder = 0;
  while (k > 0) {
    const int step = std::min(k, 19);
    a = divide_small(a, static_cast<uint64_t>(pow10(step)), &remainder);
    k -= step;
  }
  return a;
}

// a / 10^k rounded HALF_UP (the first dropped digit decides), k >= 1.
U256 divide_pow10_half_up(const U256& a, int k) {
  uint64_t digit = 0;
  U256 quotient = divide_small(divide_pow10(a, k - 1), 10, &digit);
  if (digit >= 5) {
    for (uint64_t& limb : quotient.limbs) {
      if (++limb != 0) {
        break;
      }
    }
  }
  return quotient;
}

// Decimal digits of a magnitude (0 has 1).
int digit_count(const U256& a) {
  if (a.fits_128()) {
    const uint128 value = a.low_128();
    int digits = 1;
    while (digits <= kMaxPrecision && value >= pow10(digits)) {
      ++digits;
    }
    return digits;
  }
  return kMaxPrecision + digit_count(divide_pow10(a, kMaxPrecision));
}

// numerator / divisor for a 128-bit divisor, by shift and subtract; remainder in `*remainder`.
U256 divide_wide(const U256& numerator, uint128 divisor, uint128* remainder) {
  U256 quotient;
  uint128 rest = 0;
  for (int i = 255; i >= 0; --i) {
    const bool top = (rest >> 127) != 0;
    rest = (rest << 1) | static_cast<uint128>(numerator.bit(i));
    if (top || rest >= divisor) {
      rest -= divisor;
      quotient.limbs[i / 64] |= uint64_t{1} << (i % 64);
    }
  }
  *remainder = rest;
  return quotient;
}

U256 add_limbs(const U256& x, const U256& y) {
  U256 total;
  uint128 carry = 0;
  for (int i = 0; i < 4; ++i) {
    const uint128 sum = static_cast<uint128>(x.limbs[i]) + y.limbs[i] + carry;
    total.limbs[i] = static_cast<uint64_t>(sum);
    carry = sum >> 64;
  }
  return total;
}

// x - y for x >= y.
U256 subtract_limbs(const U256& x, const U256& y) {
  U256 difference;
  uint64_t borrow = 0;
  for (int i = 0; i < 4; ++i) {
    const uint64_t subtrahend = y.limbs[i] + borrow;
    const bool next_borrow = subtrahend < borrow || x.limbs[i] < subtrahend;
    difference.limbs[i] = x.limbs[i] - subtrahend;
    borrow = next_borrow ? 1 : 0;
  }
  return difference;
}

bool less(const U256& x, const U256& y) {
  for (int i = 3; i >= 0; --i) {
    if (x.limbs[i] != y.limbs[i]) {
      return x.limbs[i] < y.limbs[i];
    }
  }
  return false;
}

uint128 magnitude(int128 value) {
  return value < 0 ? -static_cast<uint128>(value) : static_cast<uint128>(value);
}

// The signed value of a magnitude, or kOverflow when it is beyond 38 digits.
Status signed_result(const U256& value, bool negative, int128* out) {
  if (!value.fits_128() || value.low_128() >= pow10(kMaxPrecision)) {
    return Status::kOverflow;
  }
  const auto result = static_cast<int128>(value.low_128());
  *out = negative ? -result : result;
  return Status::kOk;
}

// `value` (a magnitude at `from_scale`) at `to_scale`, rounding HALF_UP.
U256 change_scale(const U256& value, int32_t from_scale, int32_t to_scale) {
  if (to_scale >= from_scale) {
    return multiply_pow10(value, to_scale - from_scale);
  }
  return divide_pow10_half_up(value, from_scale - to_scale);
}

// |a| and |b| at their common scale, max(sa, sb).
struct Aligned {
  U256 a;
  U256 b;
  int32_t scale;
};

Aligned align(int128 a, int32_t sa, int128 b, int32_t sb) {
  const int32_t common = std::max(sa, sb);
  return {multiply_pow10(U256::from(magnitude(a)), common - sa),
          multiply_pow10(U256::from(magnitude(b)), common - sb), common};
}

// The sum of two signed magnitudes, as a magnitude and its sign.
U256 signed_sum(const U256& a, bool negative_a, const U256& b, bool negative_b, bool* negative) {
  if (negative_a == negative_b) {
    *negative = negative_a;
    return add_limbs(a, b);
  }
  if (less(a, b)) {
    *negative = negative_b;
    return subtract_limbs(b, a);
  }
  *negative = negative_a;
  return subtract_limbs(a, b);
}

// trunc(|a| / |b|) of aligned magnitudes (|b| > 0); 0 when |b| needs more than 128 bits, as
// only one operand is scaled up and |a| is then below it.
U256 integral_quotient(const Aligned& m) {
  if (!m.b.fits_128()) {
    return U256{};
  }
  if (m.a.fits_128()) {
    return U256::from(m.a.low_128() / m.b.low_128());
  }
  uint128 rest = 0;
  return divide_wide(m.a, m.b.low_128(), &rest);
}

}  // namespace

Shape adjust_precision_scale(int32_t precision, int32_t scale) {
  if (precision <= kMaxPrecision) {
    return {precision, scale};
  }
  if (scale < 0) {
    return {kMaxPrecision, scale};
  }
  const int32_t integer_digits = precision - scale;
  const int32_t min_scale = std::min(scale, kMinimumAdjustedScale);
  return {kMaxPrecision, std::max(kMaxPrecision - integer_digits, min_scale)};
}

Shape add_result(Shape a, Shape b) {
  const int32_t scale = std::max(a.scale, b.scale);
  return adjust_precision_scale(std::max(a.precision - a.scale, b.precision - b.scale) + scale + 1,
                                scale);
}

Shape multiply_result(Shape a, Shape b) {
  return adjust_precision_scale(a.precision + b.precision + 1, a.scale + b.scale);
}

Shape divide_result(Shape a, Shape b) {
  const int32_t scale = std::max(kMinimumAdjustedScale, a.scale + b.precision + 1);
  return adjust_precision_scale(a.precision - a.scale + b.scale + scale, scale);
}

Shape remainder_result(Shape a, Shape b) {
  const int32_t scale = std::max(a.scale, b.scale);
  return adjust_precision_scale(std::min(a.precision - a.scale, b.precision - b.scale) + scale,
                                scale);
}

Shape integral_divide_result(Shape a, Shape b) {
  return {std::clamp(a.precision - a.scale + b.scale, 1, kMaxPrecision), 0};
}

uint128 pow10(int k) {
  static const std::array<uint128, kMaxPrecision + 1> kPowers = [] {
    std::array<uint128, kMaxPrecision + 1> powers{};
    powers[0] = 1;
    for (int i = 1; i <= kMaxPrecision; ++i) {
      powers[i] = powers[i - 1] * 10;
    }
    return powers;
  }();
  return kPowers[k];
}

bool rescale(int128 value, int32_t from_scale, int32_t to_scale, int128* out) {
  if (to_scale == from_scale) {
    *out = value;
    return true;
  }
  if (to_scale > from_scale) {
    const int k = to_scale - from_scale;
    return k <= kMaxPrecision && !__builtin_mul_overflow(value, static_cast<int128>(pow10(k)), out);
  }
  const int k = from_scale - to_scale;
  if (k > kMaxPrecision) {
    *out = 0;
    return true;
  }
  const auto divisor = static_cast<int128>(pow10(k));
  int128 quotient = value / divisor;
  const int128 rest = value % divisor;
  const uint128 twice_rest = magnitude(rest) * 2;
  if (twice_rest >= static_cast<uint128>(divisor)) {
    quotient += value < 0 ? -1 : 1;
  }
  *out = quotient;
  return true;
}

Status add(int128 a, int32_t sa, int128 b, int32_t sb, int32_t scale, int128* out) {
  const int32_t common = std::max(sa, sb);
  int128 aligned_a;
  int128 aligned_b;
  int128 sum;
  if (rescale(a, sa, common, &aligned_a) && rescale(b, sb, common, &aligned_b) &&
      !__builtin_add_overflow(aligned_a, aligned_b, &sum)) {
    return rescale(sum, common, scale, out) ? Status::kOk : Status::kOverflow;
  }
  // Beyond 128 bits: signed magnitudes in 256 bits.
  const Aligned m = align(a, sa, b, sb);
  bool negative = false;
  const U256 result = signed_sum(m.a, a < 0, m.b, b < 0, &negative);
  return signed_result(change_scale(result, common, scale), negative, out);
}

Status multiply(int128 a, int32_t sa, int128 b, int32_t sb, int32_t scale, int128* out) {
  const int32_t product_scale = sa + sb;
  int128 product;
  if (!__builtin_mul_overflow(a, b, &product) && fits(product, kMaxPrecision)) {
    return rescale(product, product_scale, scale, out) ? Status::kOk : Status::kOverflow;
  }
  U256 exact = multiply_128(magnitude(a), magnitude(b));
  int32_t exact_scale = product_scale;
  // Spark multiplies with a MathContext of 38 digits, HALF_UP, before fitting the result type.
  const int digits = digit_count(exact);
  if (digits > kMaxPrecision) {
    const int dropped = digits - kMaxPrecision;
    exact = divide_pow10_half_up(exact, dropped);
    exact_scale -= dropped;
  }
  return signed_result(change_scale(exact, exact_scale, scale), (a < 0) != (b < 0), out);
}

Status divide(int128 a, int32_t sa, int128 b, int32_t sb, int32_t scale, int128* out) {
  if (b == 0) {
    return Status::kDivideByZero;
  }
  // a / b at `scale` is (a * 10^(scale - sa + sb)) / b; one more digit decides the rounding.
  const int32_t shift = scale - sa + sb + 1;
  const bool negative = (a < 0) != (b < 0);
  const uint128 divisor = magnitude(b);
  uint128 dividend = magnitude(a);
  if (shift < 0) {
    // floor(floor(x / m) / n) = floor(x / (m * n)) for positive integers.
    dividend = -shift > kMaxPrecision ? 0 : dividend / pow10(-shift);
  }
  uint128 scaled;
  if (shift >= 0 && shift <= kMaxPrecision &&
      !__builtin_mul_overflow(dividend, pow10(shift), &scaled)) {
    return signed_result(divide_pow10_half_up(U256::from(scaled / divisor), 1), negative, out);
  }
  // Long division in steps of up to 38 digits: the remainder stays below the divisor, so each
  // step's dividend (remainder * 10^step) fits 256 bits.
  U256 quotient = U256::from(dividend / divisor);
  uint128 rest = dividend % divisor;
  const U256 too_large = multiply_pow10(U256::from(pow10(kMaxPrecision)), 1);
  for (int32_t remaining = std::max(shift, 0); remaining > 0;) {
    if (!less(quotient, too_large)) {
      return Status::kOverflow;
    }
    const int32_t step = std::min(remaining, kMaxPrecision);
    const U256 chunk = divide_wide(multiply_pow10(U256::from(rest), step), divisor, &rest);
    quotient = add_limbs(multiply_pow10(quotient, step), chunk);
    remaining -= step;
  }
  return signed_result(divide_pow10_half_up(quotient, 1), negative, out);
}

Status remainder(int128 a, int32_t sa, int128 b, int32_t sb, int32_t scale, int128* out) {
  if (b == 0) {
    return Status::kDivideByZero;
  }
  const Aligned m = align(a, sa, b, sb);
  U256 rest;
  if (m.a.fits_128() && m.b.fits_128()) {
    rest = U256::from(m.a.low_128() % m.b.low_128());
  } else if (m.b.fits_128()) {
    uint128 small_rest = 0;
    divide_wide(m.a, m.b.low_128(), &small_rest);
    rest = U256::from(small_rest);
  } else {
    // Only one operand is scaled up: |b| beyond 128 bits means |a| < |b|, the remainder is a.
    rest = m.a;
  }
  return signed_result(change_scale(rest, m.scale, scale), a < 0, out);
}

Status integral_divide(int128 a, int32_t sa, int128 b, int32_t sb, int128* out) {
  if (b == 0) {
    return Status::kDivideByZero;
  }
  // trunc(a / b) = trunc((a * 10^sb) / (b * 10^sa)): scale both to the larger scale.
  return signed_result(integral_quotient(align(a, sa, b, sb)), (a < 0) != (b < 0), out);
}

int128 round_for_negation(int128 value, int32_t* dropped) {
  *dropped = 0;
  const uint128 m = magnitude(value);
  if (m < pow10(kNegationDigits)) {
    return value;
  }
  int digits = kNegationDigits + 1;
  while (digits <= kMaxPrecision && m >= pow10(digits)) {
    ++digits;
  }
  int32_t drop = digits - kNegationDigits;
  const uint128 divisor = pow10(drop);
  uint128 kept = m / divisor;
  const uint128 rest = m % divisor;
  const uint128 half = divisor / 2;
  if (rest > half || (rest == half && (kept & 1) != 0)) {
    ++kept;
  }
  if (kept == pow10(kNegationDigits)) {
    kept /= 10;
    ++drop;
  }
  *dropped = drop;
  // kept * 10^drop is at most 10^39 / 10 * 10, within 128 bits.
  const auto rounded = static_cast<int128>(kept * pow10(drop));
  return value < 0 ? -rounded : rounded;
}

namespace {

// Decimal digits of a 256-bit magnitude.
std::string digits_of(U256 value) {
  std::string digits;
  do {
    uint64_t chunk = 0;
    value = divide_small(value, static_cast<uint64_t>(pow10(19)), &chunk);
    for (int i = 0; i < 19; ++i) {
      digits.push_back(static_cast<char>('0' + chunk % 10));
      chunk /= 10;
    }
  } while (!value.is_zero());
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
  }
  return {digits.rbegin(), digits.rend()};
}

// A signed magnitude at `scale` in plain notation (a negative scale adds zeros).
std::string plain_string(const U256& value, bool negative, int32_t scale) {
  std::string digits = digits_of(value);
  if (scale < 0) {
    if (digits != "0") {
      digits.append(static_cast<size_t>(-scale), '0');
    }
    scale = 0;
  }
  std::string text;
  if (negative && digits.find_first_not_of('0') != std::string::npos) {
    text.push_back('-');
  }
  const auto fraction = static_cast<size_t>(scale);
  std::string padded(digits.size() <= fraction ? fraction + 1 - digits.size() : 0, '0');
  padded.append(digits);
  const size_t integer = padded.size() - fraction;
  text.append(padded, 0, integer);
  if (fraction > 0) {
    text.push_back('.');
    text.append(padded, integer, std::string::npos);
  }
  return text;
}

}  // namespace

std::string java_string(int128 unscaled, int32_t scale) {
  const std::string digits = digits_of(U256::from(magnitude(unscaled)));
  const int64_t adjusted = static_cast<int64_t>(digits.size()) - 1 - scale;
  if (scale >= 0 && adjusted >= -6) {
    return plain_string(U256::from(magnitude(unscaled)), unscaled < 0, scale);
  }
  std::string text;
  if (unscaled < 0) {
    text.push_back('-');
  }
  text.push_back(digits[0]);
  if (digits.size() > 1) {
    text.push_back('.');
    text.append(digits, 1);
  }
  text.append(adjusted > 0 ? "E+" : "E");
  text.append(std::to_string(adjusted));
  return text;
}

std::string overflowed_value(Operation op, int128 a, int32_t sa, int128 b, int32_t sb,
                             int32_t scale) {
  const U256 ma = U256::from(magnitude(a));
  const U256 mb = U256::from(magnitude(b));
  const bool negative_a = a < 0;
  const bool negative_b = (b < 0) != (op == Operation::kSubtract);
  switch (op) {
    case Operation::kAdd:
    case Operation::kSubtract: {
      const Aligned m = align(a, sa, b, sb);
      bool negative = false;
      const U256 sum = signed_sum(m.a, negative_a, m.b, negative_b, &negative);
      return plain_string(sum, negative, m.scale);
    }
    case Operation::kMultiply: {
      U256 product = multiply_128(ma.low_128(), mb.low_128());
      int32_t product_scale = sa + sb;
      const int digits = digit_count(product);
      if (digits > kMaxPrecision + 1) {
        product = divide_pow10(product, digits - kMaxPrecision - 1);
        product_scale -= digits - kMaxPrecision - 1;
      }
      return plain_string(product, negative_a != (b < 0), product_scale);
    }
    case Operation::kDivide: {
      const int32_t shift = scale - sa + sb + 1;
      if (b == 0 || shift < 0 || shift > 2 * kMaxPrecision ||
          digit_count(ma) + shift > 2 * kMaxPrecision) {
        return "";
      }
      uint128 rest = 0;
      const U256 quotient = divide_wide(multiply_pow10(ma, shift), mb.low_128(), &rest);
      return plain_string(divide_pow10_half_up(quotient, 1), negative_a != (b < 0), scale);
    }
    case Operation::kIntegralDivide:
      return b == 0
                 ? ""
                 : plain_string(integral_quotient(align(a, sa, b, sb)), negative_a != (b < 0), 0);
  }
  return "";
}

std::string to_string(int128 value, int32_t scale) {
  uint128 rest = magnitude(value);
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(rest % 10)));
    rest /= 10;
  } while (rest != 0);
  while (static_cast<int32_t>(digits.size()) <= scale) {
    digits.push_back('0');
  }
  std::string text;
  if (value < 0) {
    text.push_back('-');
  }
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (static_cast<int32_t>(digits.rend() - it) == scale) {
      text.push_back('.');
    }
    text.push_back(*it);
  }
  return text;
}

std::string type_name(Shape shape) {
  return "Decimal(" + std::to_string(shape.precision) + ", " + std::to_string(shape.scale) + ")";
}

}  // namespace bowstring::compute::decimal
