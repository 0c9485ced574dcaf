#include "bowstring/compute/cast/cast_text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>

#include "bowstring/compute/scalar/string_util.h"

namespace bowstring::compute::cast_text {
namespace {

constexpr std::array<__int128, 39> make_pow10() {
  std::array<__int128, 39> powers{};
  __int128 power = 1;
  for (size_t i = 0; i < powers.size(); ++i) {
    powers[i] = power;
    if (i + 1 < powers.size()) {
      power *= 10;
    }
  }
  return powers;
}

constexpr std::array<__int128, 39> kPow10 = make_pow10();

inline bool is_digit(char c) { return static_cast<unsigned>(c - '0') < 10; }

/// The digit at `p` as an ASCII digit, reading one decimal digit of another script as Java's
/// BigDecimal does (Character.digit): fullwidth, Arabic-Indic, Devanagari and the other
/// Unicode digit blocks below U+10000. `*width` is its length in UTF-8 bytes. Returns 0 when `p`
/// is not a digit.
char digit_at(const char* p, const char* end, int* width) {
  const auto* begin = reinterpret_cast<const uint8_t*>(p);
  const uint8_t* next = begin;
  const char32_t code = strings::decode(&next, reinterpret_cast<const uint8_t*>(end));
  *width = static_cast<int>(next - begin);
  if (code < 0x80) {
    return is_digit(static_cast<char>(code)) ? static_cast<char>(code) : 0;
  }
  // The zero of each block of ten decimal digits (Unicode category Nd) in the BMP.
  static constexpr uint16_t kZeros[] = {
      0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6,
      0x0C66, 0x0CE6, 0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090,
      0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40,
      0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10};
  for (const uint16_t zero : kZeros) {
    if (code >= zero && code < zero + 10u) {
      return static_cast<char>('0' + (code - zero));
    }
  }
  return 0;
}

inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

/// Whether [begin, end) equals the lower-case `word` ignoring ASCII case.
bool equals_ignore_case(const char* begin, const char* end, std::string_view word) {
  if (static_cast<size_t>(end - begin) != word.size()) {
    return false;
  }
  for (size_t i = 0; i < word.size(); ++i) {
    if (lower(begin[i]) != word[i]) {
      return false;
    }
  }
  return true;
}

bool equals_exactly(const char* begin, const char* end, std::string_view word) {
  return static_cast<size_t>(end - begin) == word.size() &&
         std::memcmp(begin, word.data(), word.size()) == 0;
}

/// Spark's and Java's names of the special values; true when [begin, end) is one of them.
template <typename Float>
bool parse_special(const char* begin, const char* end, Float* out) {
  constexpr Float kInfinity = std::numeric_limits<Float>::infinity();
  constexpr Float kNaN = std::numeric_limits<Float>::quiet_NaN();
  if (end - begin < 3 || end - begin > 9) {
    return false;
  }
  // Spark's own spellings, in any case.
  if (equals_ignore_case(begin, end, "inf") || equals_ignore_case(begin, end, "+inf") ||
      equals_ignore_case(begin, end, "infinity") || equals_ignore_case(begin, end, "+infinity")) {
    *out = kInfinity;
    return true;
  }
  if (equals_ignore_case(begin, end, "-inf") || equals_ignore_case(begin, end, "-infinity")) {
    *out = -kInfinity;
    return true;
  }
  if (equals_ignore_case(begin, end, "nan")) {
    *out = kNaN;
    return true;
  }
  // Java's, in its exact case.
  if (equals_exactly(begin, end, "+NaN") || equals_exactly(begin, end, "-NaN")) {
    *out = kNaN;
    return true;
  }
  return false;
}

/// Whether [begin, end) (sign removed, trailing type letter removed) is a decimal floating
/// literal as Java reads it: digits with an optional point (at least one digit), an optional
/// exponent with optional sign and at least one digit.
bool is_decimal_literal(const char* begin, const char* end) {
  const char* p = begin;
  int digits = 0;
  while (p < end && is_digit(*p)) {
    ++p;
    ++digits;
  }
  if (p < end && *p == '.') {
    ++p;
    while (p < end && is_digit(*p)) {
      ++p;
      ++digits;
    }
  }
  if (digits == 0) {
    return false;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end && (*p == '+' || *p == '-')) {
      ++p;
    }
    const char* exponent = p;
    while (p < end && is_digit(*p)) {
      ++p;
    }
    if (p == exponent) {
      return false;
    }
  }
  return p == end;
}

/// Whether [begin, end) (sign removed) is a hexadecimal floating literal as Java reads it:
/// 0x, hex digits with an optional point, and a binary exponent p±digits, which is required.
bool is_hex_literal(const char* begin, const char* end) {
  if (end - begin < 3 || begin[0] != '0' || lower(begin[1]) != 'x') {
    return false;
  }
  const char* p = begin + 2;
  int digits = 0;
  const auto is_hex = [](char c) { return is_digit(c) || (lower(c) >= 'a' && lower(c) <= 'f'); };
  while (p < end && is_hex(*p)) {
    ++p;
    ++digits;
  }
  if (p < end && *p == '.') {
    ++p;
    while (p < end && is_hex(*p)) {
      ++p;
      ++digits;
    }
  }
  if (digits == 0 || p == end || lower(*p) != 'p') {
    return false;
  }
  ++p;
  if (p < end && (*p == '+' || *p == '-')) {
    ++p;
  }
  const char* exponent = p;
  while (p < end && is_digit(*p)) {
    ++p;
  }
  return p != exponent && p == end;
}

/// strtod/strtof on a NUL-terminated copy: for hexadecimal literals and values out of the
/// range of the type (which from_chars refuses and Java rounds to infinity or zero).
template <typename Float>
Float parse_with_strtod(const char* begin, const char* end) {
  std::string copy(begin, end);
  if constexpr (std::is_same_v<Float, float>) {
    return std::strtof(copy.c_str(), nullptr);
  } else {
    return std::strtod(copy.c_str(), nullptr);
  }
}

template <typename Float>
ParseResult parse_floating(const char* begin, const char* end, Float* out) {
  if (begin < end && (is_trimmed(*begin) || is_trimmed(end[-1]))) [[unlikely]] {
    trim(begin, end);
  }
  if (begin == end) {
    return ParseResult::kInvalid;
  }
  {
    // The common case, a plain decimal number, read directly: from_chars takes no sign, and
    // its only forms beyond Java's (inf, nan) start with a letter, which is excluded here.
    const char* p = begin + (*begin == '-' || *begin == '+');
    if (p < end && (is_digit(*p) || *p == '.')) {
      Float value;
      const std::from_chars_result result = std::from_chars(p, end, value);
      if (result.ec == std::errc() && result.ptr == end) {
        *out = *begin == '-' ? -value : value;
        return ParseResult::kOk;
      }
    }
  }
  if (!is_digit(*begin) && *begin != '.' && parse_special(begin, end, out)) {
    return ParseResult::kOk;
  }
  bool negative = false;
  const char* p = begin;
  if (*p == '+' || *p == '-') {
    negative = *p == '-';
    ++p;
  }
  if (end - p == 8 && std::memcmp(p, "Infinity", 8) == 0) {
    *out =
        negative ? -std::numeric_limits<Float>::infinity() : std::numeric_limits<Float>::infinity();
    return ParseResult::kOk;
  }
  const char* stop = end;
  if (stop > p && (lower(stop[-1]) == 'd' || lower(stop[-1]) == 'f')) {
    --stop;
  }
  Float value;
  if (is_decimal_literal(p, stop)) {
    const std::from_chars_result result = std::from_chars(p, stop, value);
    if (result.ec == std::errc::result_out_of_range) {
      value = parse_with_strtod<Float>(p, stop);
    } else if (result.ec != std::errc() || result.ptr != stop) {
      return ParseResult::kInvalid;
    }
  } else if (is_hex_literal(p, stop)) {
    value = parse_with_strtod<Float>(p, stop);
  } else {
    return ParseResult::kInvalid;
  }
  *out = negative ? -value : value;
  return ParseResult::kOk;
}

/// Splits the output of to_chars(scientific) ("-1.2345e+07") into sign, digits and exponent.
struct ScientificParts {
  bool negative;
  char digits[32];
  int num_digits;
  int exponent;
};

ScientificParts split_scientific(const char* text, const char* end) {
  ScientificParts parts{};
  const char* p = text;
  if (*p == '-') {
    parts.negative = true;
    ++p;
  }
  while (p < end && *p != 'e') {
    if (*p != '.') {
      parts.digits[parts.num_digits++] = *p;
    }
    ++p;
  }
  ++p;  // 'e'
  const bool negative_exponent = *p == '-';
  ++p;
  int exponent = 0;
  while (p < end) {
    exponent = exponent * 10 + (*p++ - '0');
  }
  parts.exponent = negative_exponent ? -exponent : exponent;
  return parts;
}

/// Java's Double.toString / Float.toString layout of shortest digits.
int layout_java(const ScientificParts& parts, char* out) {
  char* o = out;
  if (parts.negative) {
    *o++ = '-';
  }
  const int n = parts.num_digits;
  const int e = parts.exponent;
  if (e >= -3 && e < 7) {
    if (e >= 0) {
      for (int i = 0; i <= e; ++i) {
        *o++ = i < n ? parts.digits[i] : '0';
      }
      *o++ = '.';
      if (n > e + 1) {
        for (int i = e + 1; i < n; ++i) {
          *o++ = parts.digits[i];
        }
      } else {
        *o++ = '0';
      }
    } else {
      *o++ = '0';
      *o++ = '.';
      for (int i = 0; i < -e - 1; ++i) {
        *o++ = '0';
      }
      for (int i = 0; i < n; ++i) {
        *o++ = parts.digits[i];
      }
    }
  } else {
    *o++ = parts.digits[0];
    *o++ = '.';
    if (n > 1) {
      for (int i = 1; i < n; ++i) {
        *o++ = parts.digits[i];
      }
    } else {
      *o++ = '0';
    }
    *o++ = 'E';
    o += format_int64(e, o);
  }
  return static_cast<int>(o - out);
}

template <typename Float>
int format_floating(Float value, char* out) {
  if (std::isnan(value)) {
    std::memcpy(out, "NaN", 3);
    return 3;
  }
  if (std::isinf(value)) {
    if (value < 0) {
      std::memcpy(out, "-Infinity", 9);
      return 9;
    }
    std::memcpy(out, "Infinity", 8);
    return 8;
  }
  if (value == 0) {
    if (std::signbit(value)) {
      std::memcpy(out, "-0.0", 4);
      return 4;
    }
    std::memcpy(out, "0.0", 3);
    return 3;
  }
  char text[48];
  std::to_chars_result result =
      std::to_chars(text, text + sizeof(text), value, std::chars_format::scientific);
  ScientificParts parts = split_scientific(text, result.ptr);
  if (parts.num_digits == 1) {
    // Java writes at least two significant digits, the pair nearest the exact value
    // (4.9E-324, not 5.0E-324); when one digit reads back, so does that pair.
    result = std::to_chars(text, text + sizeof(text), value, std::chars_format::scientific, 1);
    parts = split_scientific(text, result.ptr);
    while (parts.num_digits > 1 && parts.digits[parts.num_digits - 1] == '0') {
      --parts.num_digits;
    }
  }
  return layout_java(parts, out);
}

/// Writes the digits of |value| (no sign); returns the count.
int format_magnitude(__int128 value, char* out) {
  unsigned __int128 magnitude =
      value < 0 ? -static_cast<unsigned __int128>(value) : static_cast<unsigned __int128>(value);
  char reversed[48];
  int n = 0;
  do {
    reversed[n++] = static_cast<char>('0' + static_cast<int>(magnitude % 10));
    magnitude /= 10;
  } while (magnitude != 0);
  for (int i = 0; i < n; ++i) {
    out[i] = reversed[n - 1 - i];
  }
  return n;
}

}  // namespace

__int128 pow10_i128(int n) { return kPow10[static_cast<size_t>(n)]; }

ParseResult parse_integer_tail(const char* p, const char* end, bool allow_fraction) {
  if (!allow_fraction || *p != '.') {
    return ParseResult::kInvalid;
  }
  return std::all_of(p + 1, end, is_digit) ? ParseResult::kOk : ParseResult::kInvalid;
}

ParseResult parse_double(const char* begin, const char* end, double* out) {
  return parse_floating(begin, end, out);
}

ParseResult parse_float(const char* begin, const char* end, float* out) {
  return parse_floating(begin, end, out);
}

ParseResult decimal_from_digits(bool negative, std::string_view digits, int64_t exponent,
                                int32_t precision, int32_t scale, __int128* out) {
  if (digits.empty() || (digits.size() == 1 && digits[0] == '0')) {
    *out = 0;
    return ParseResult::kOk;
  }
  const auto length = static_cast<int64_t>(digits.size());
  const int64_t shift = exponent + scale;
  __int128 value = 0;
  if (shift >= 0) {
    if (length + shift > precision) {
      return ParseResult::kOverflow;
    }
    for (char digit : digits) {
      value = value * 10 + (digit - '0');
    }
    value *= kPow10[static_cast<size_t>(shift)];
  } else {
    const int64_t keep = length + shift;
    if (keep > precision) {
      return ParseResult::kOverflow;
    }
    for (int64_t i = 0; i < keep; ++i) {
      value = value * 10 + (digits[static_cast<size_t>(i)] - '0');
    }
    if (keep >= 0 && digits[static_cast<size_t>(keep)] >= '5') {
      ++value;
    }
    if (value >= kPow10[static_cast<size_t>(precision)]) {
      return ParseResult::kOverflow;
    }
  }
  *out = negative ? -value : value;
  return ParseResult::kOk;
}

ParseResult parse_decimal(const char* begin, const char* end, int32_t precision, int32_t scale,
                          __int128* out) {
  trim(begin, end);
  const char* p = begin;
  bool negative = false;
  if (p < end && (*p == '-' || *p == '+')) {
    negative = *p == '-';
    ++p;
  }
  // Significant digits beyond these cannot change a result of at most 38 digits.
  constexpr int kKeptDigits = 80;
  char kept[kKeptDigits];
  int num_kept = 0;
  int64_t dropped = 0;
  int64_t fraction_digits = 0;
  int64_t num_digits = 0;
  bool in_fraction = false;
  for (; p < end; ++p) {
    int width = 1;
    const char c = static_cast<unsigned char>(*p) < 0x80 ? *p : digit_at(p, end, &width);
    if (is_digit(c)) {
      p += width - 1;
      ++num_digits;
      fraction_digits += in_fraction;
      if (num_kept == 0 && c == '0') {
        continue;
      }
      if (num_kept < kKeptDigits) {
        kept[num_kept++] = c;
      } else {
        ++dropped;
      }
    } else if (c == '.' && !in_fraction) {
      in_fraction = true;
    } else {
      break;
    }
  }
  if (num_digits == 0) {
    return ParseResult::kInvalid;
  }
  int64_t exponent = 0;
  if (p < end) {
    if (*p != 'e' && *p != 'E') {
      return ParseResult::kInvalid;
    }
    ++p;
    bool negative_exponent = false;
    if (p < end && (*p == '-' || *p == '+')) {
      negative_exponent = *p == '-';
      ++p;
    }
    if (p == end) {
      return ParseResult::kInvalid;
    }
    for (; p < end; ++p) {
      int width = 1;
      const char digit = digit_at(p, end, &width);
      if (digit == 0) {
        return ParseResult::kInvalid;
      }
      p += width - 1;
      // Saturates far beyond any exponent that leaves a representable result.
      exponent = std::min<int64_t>(exponent * 10 + (digit - '0'), int64_t{1} << 40);
    }
    if (negative_exponent) {
      exponent = -exponent;
    }
  }
  return decimal_from_digits(negative, std::string_view(kept, static_cast<size_t>(num_kept)),
                             exponent - fraction_digits + dropped, precision, scale, out);
}

int format_int64(int64_t value, char* out) {
  char* o = out;
  uint64_t magnitude = static_cast<uint64_t>(value);
  if (value < 0) {
    *o++ = '-';
    magnitude = 0 - magnitude;
  }
  char reversed[20];
  int n = 0;
  do {
    reversed[n++] = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  while (n > 0) {
    *o++ = reversed[--n];
  }
  return static_cast<int>(o - out);
}

int format_double(double value, char* out) { return format_floating(value, out); }

int format_float(float value, char* out) { return format_floating(value, out); }

int format_decimal_plain(__int128 unscaled, int32_t scale, char* out) {
  char* o = out;
  if (unscaled < 0) {
    *o++ = '-';
  }
  char digits[48];
  const int n = format_magnitude(unscaled, digits);
  if (scale <= 0) {
    std::memcpy(o, digits, static_cast<size_t>(n));
    o += n;
    for (int i = 0; i < -scale; ++i) {
      *o++ = '0';
    }
    return static_cast<int>(o - out);
  }
  if (n > scale) {
    std::memcpy(o, digits, static_cast<size_t>(n - scale));
    o += n - scale;
    *o++ = '.';
    std::memcpy(o, digits + n - scale, static_cast<size_t>(scale));
    o += scale;
  } else {
    *o++ = '0';
    *o++ = '.';
    for (int i = 0; i < scale - n; ++i) {
      *o++ = '0';
    }
    std::memcpy(o, digits, static_cast<size_t>(n));
    o += n;
  }
  return static_cast<int>(o - out);
}

int format_decimal(__int128 unscaled, int32_t scale, char* out) {
  char digits[48];
  const int n = format_magnitude(unscaled, digits);
  const int64_t adjusted = -static_cast<int64_t>(scale) + (n - 1);
  if (scale >= 0 && adjusted >= -6) {
    return format_decimal_plain(unscaled, scale, out);
  }
  char* o = out;
  if (unscaled < 0) {
    *o++ = '-';
  }
  *o++ = digits[0];
  if (n > 1) {
    *o++ = '.';
    std::memcpy(o, digits + 1, static_cast<size_t>(n - 1));
    o += n - 1;
  }
  *o++ = 'E';
  if (adjusted > 0) {
    *o++ = '+';
  }
  o += format_int64(adjusted, o);
  return static_cast<int>(o - out);
}

}  // namespace bowstring::compute::cast_text
