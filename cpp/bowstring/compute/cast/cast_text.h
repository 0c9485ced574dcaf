#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace bowstring::compute::cast_text {

// Spark's text forms of numbers: parsing as `CAST(string AS <number>)` does and formatting as
// `CAST(<number> AS string)` does (Java's Long.toString, Double.toString, Float.toString and
// BigDecimal.toString). Parsers take a byte range and never allocate.

/// The outcome of parsing one value.
enum class ParseResult : uint8_t { kOk, kInvalid, kOverflow };

/// Whether `c` is trimmed from both ends of a string before it is parsed as a number, a
/// boolean, a date or a timestamp (Spark trims the ASCII control characters and space).
inline bool is_trimmed(char c) { return static_cast<unsigned char>(c) <= ' '; }

/// `[begin, end)` with the trimmed characters removed from both ends.
inline void trim(const char*& begin, const char*& end) {
  while (begin < end && is_trimmed(*begin)) {
    ++begin;
  }
  while (end > begin && is_trimmed(end[-1])) {
    --end;
  }
}

/// The rest of an integer's text from `p`, which is not a digit: with `allow_fraction`, a '.'
/// and digits (kOk), else kInvalid.
ParseResult parse_integer_tail(const char* p, const char* end, bool allow_fraction);

/// An integer in [min, max]: optional sign and decimal digits, trimmed. With
/// `allow_fraction` (Spark's non-ANSI cast), a '.' and further digits may follow and are
/// dropped (truncation toward zero); in ANSI mode "1.0" is invalid, as in Spark 4. Inline: the
/// cast kernels call it once per row.
inline ParseResult parse_integer(const char* begin, const char* end, int64_t min, int64_t max,
                                 bool allow_fraction, int64_t* out) {
  if (begin < end && (is_trimmed(*begin) || is_trimmed(end[-1]))) [[unlikely]] {
    trim(begin, end);
  }
  const char* p = begin;
  bool negative = false;
  if (p < end && (*p == '-' || *p == '+')) {
    negative = *p == '-';
    ++p;
  }
  const char* digits = p;
  while (p < end && *p == '0') {
    ++p;
  }
  const char* significant = p;
  uint64_t magnitude = 0;
  while (p < end && static_cast<unsigned>(*p - '0') < 10) {
    magnitude = magnitude * 10 + static_cast<uint64_t>(*p - '0');
    ++p;
  }
  const int64_t count = p - significant;
  if (p != end) [[unlikely]] {
    // The legacy cast reads ".5" as 0.5: digits may all follow the point.
    const bool fraction_only = allow_fraction && p == digits && p + 1 < end && *p == '.';
    if ((p == digits && !fraction_only) ||
        parse_integer_tail(p, end, allow_fraction) != ParseResult::kOk) {
      return ParseResult::kInvalid;
    }
  } else if (p == digits) {
    return ParseResult::kInvalid;
  }
  // Nineteen digits cannot wrap a uint64_t; more cannot fit any integer type.
  if (count > 19) {
    return ParseResult::kOverflow;
  }
  if (negative) {
    if (magnitude > static_cast<uint64_t>(-(min + 1)) + 1) {
      return ParseResult::kOverflow;
    }
    *out = static_cast<int64_t>(0 - magnitude);
  } else {
    if (magnitude > static_cast<uint64_t>(max)) {
      return ParseResult::kOverflow;
    }
    *out = static_cast<int64_t>(magnitude);
  }
  return ParseResult::kOk;
}

/// A double as Spark casts strings: Java's Double.parseDouble (optional sign, digits with a
/// point and exponent, a trailing d/D/f/F, hexadecimal "0x1.8p3", "NaN", "Infinity") plus
/// Spark's case-insensitive "inf", "infinity" and "nan" with an optional sign (none for nan).
/// Too large values become infinities, as in Java.
ParseResult parse_double(const char* begin, const char* end, double* out);
/// As `parse_double`, rounding the text directly to float (Java's Float.parseFloat).
ParseResult parse_float(const char* begin, const char* end, float* out);

/// A decimal number as Java's BigDecimal reads it (optional sign, digits with an optional
/// point, an optional exponent; digits of other scripts, such as fullwidth ones, count as
/// digits, as Java's Character.digit reads them), trimmed, rounded HALF_UP to `scale` digits after
/// the point: the unscaled value in `out`. kOverflow when it needs more than `precision` digits.
ParseResult parse_decimal(const char* begin, const char* end, int32_t precision, int32_t scale,
                          __int128* out);

/// `digits` (a string of decimal digits, no leading zeros unless it is "0") times
/// 10^exponent, with `negative` sign, rounded HALF_UP to `scale` digits after the point. As
/// `parse_decimal`.
ParseResult decimal_from_digits(bool negative, std::string_view digits, int64_t exponent,
                                int32_t precision, int32_t scale, __int128* out);

/// Writes `value` in decimal at `out` (room for 20 bytes); returns the length.
int format_int64(int64_t value, char* out);

/// Writes `value` as Java's Double.toString does, with the shortest digits that read back as
/// the same double: "1.0E10", "1.0E-5", "0.1", "100.0", "NaN", "-Infinity", "-0.0". Room for
/// 32 bytes; returns the length.
int format_double(double value, char* out);
/// As `format_double`, with Float.toString's shortest digits for a float.
int format_float(float value, char* out);

/// Writes the decimal with unscaled value `unscaled` and `scale` as Java's BigDecimal.toString
/// does: plain ("-12.30") unless the exponent is below -6, then scientific ("1E-10", "0E-10").
/// Room for 48 bytes; returns the length.
int format_decimal(__int128 unscaled, int32_t scale, char* out);
/// Writes the decimal as BigDecimal.toPlainString does: never scientific.
int format_decimal_plain(__int128 unscaled, int32_t scale, char* out);

/// 10^n for n in [0, 38].
__int128 pow10_i128(int n);

}  // namespace bowstring::compute::cast_text
