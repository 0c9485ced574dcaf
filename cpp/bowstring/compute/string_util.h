#pragma once

// Building blocks shared by the string and regular-expression kernels: UTF-8 decoding and
// encoding, Unicode case mapping, typed access to string and integer arguments (arrays or
// scalars, any offset width) and a builder that writes offsets and bytes directly.

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "bowstring/array/array.h"
#include "bowstring/compute/datum.h"
#include "bowstring/compute/errors.h"
#include "bowstring/memory/buffer_builder.h"

namespace bowstring::compute::strings {

// --- UTF-8 ----------------------------------------------------------------------------------

/// Whether `byte` continues a multi-byte UTF-8 sequence.
inline bool is_continuation(uint8_t byte) { return (byte & 0xC0) == 0x80; }

/// Bytes of the sequence that `lead` starts (1 for stray continuation or invalid bytes, so that
/// walking never stalls).
inline int sequence_length(uint8_t lead) {
  if (lead < 0xC0) {
    return 1;
  }
  if (lead < 0xE0) {
    return 2;
  }
  return lead < 0xF0 ? 3 : 4;
}

/// Decodes the code point at `*p` (before `end`) and advances `*p` past it. Malformed bytes
/// decode one at a time as themselves.
inline char32_t decode(const uint8_t** p, const uint8_t* end) {
  const uint8_t* s = *p;
  const uint8_t lead = s[0];
  const int length = sequence_length(lead);
  if (length == 1 || s + length > end) {
    *p = s + 1;
    return lead;
  }
  char32_t cp;
  if (length == 2) {
    cp = ((lead & 0x1Fu) << 6) | (s[1] & 0x3Fu);
  } else if (length == 3) {
    cp = ((lead & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
  } else {
    cp = ((lead & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
  }
  *p = s + length;
  return cp;
}

/// Writes `cp` as UTF-8 at `out`; returns the bytes written (1 to 4).
inline int encode(char32_t cp, uint8_t* out) {
  if (cp < 0x80) {
    out[0] = static_cast<uint8_t>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<uint8_t>(0xC0 | (cp >> 6));
    out[1] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<uint8_t>(0xE0 | (cp >> 12));
    out[1] = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
    out[2] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<uint8_t>(0xF0 | (cp >> 18));
  out[1] = static_cast<uint8_t>(0x80 | ((cp >> 12) & 0x3F));
  out[2] = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
  out[3] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
  return 4;
}

/// Number of code points in `size` bytes.
inline int64_t count_chars(const uint8_t* bytes, int64_t size) {
  int64_t continuations = 0;
  for (int64_t i = 0; i < size; ++i) {
    continuations += is_continuation(bytes[i]);
  }
  return size - continuations;
}

/// Byte offset of the `n`-th code point of `text` (its size when `n` passes the end).
int64_t char_offset(std::string_view text, int64_t n);

/// Whether every byte is ASCII.
bool is_ascii(const uint8_t* bytes, int64_t size);

// --- case mapping ---------------------------------------------------------------------------

/// Simple (one to one) upper and lower case mappings for ASCII, Latin-1 Supplement, Latin
/// Extended-A, -B and Additional, Greek, Cyrillic, Armenian and fullwidth Latin; other code points
/// map to themselves.
char32_t to_upper(char32_t cp);
char32_t to_lower(char32_t cp);

/// The upper (or lower) case of every code point below U+0800 (the ones of at most two UTF-8
/// bytes), or kSpecialCase for those whose full mapping is several code points.
inline constexpr uint16_t kSpecialCase = 0xFFFF;
const uint16_t* two_byte_case_table(bool upper);

/// Writes the full case mapping of `cp` (one marked kSpecialCase, or a ligature U+FB00..U+FB06
/// in upper case); returns the bytes written.
int write_special_case(char32_t cp, bool upper, uint8_t* out);

/// Writes `size` bytes of UTF-8 text in upper (or lower) case to `out`, which has room for
/// three times as many, and returns the bytes written. `table` is
/// `two_byte_case_table(kUpper)`. Where Spark's (Java's) full case mapping differs from the
/// simple one it is followed: ß -> SS, ŉ -> ʼN, ΐ -> Ϊ́, ﬀ -> FF, İ -> i̇.
template <bool kUpper>
inline int64_t write_case(const uint16_t* table, const uint8_t* in, int64_t size, uint8_t* out) {
  uint8_t* start = out;
  const uint8_t* end = in + size;
  while (in < end) {
    const uint8_t byte = *in;
    if (byte < 0x80) {
      if constexpr (kUpper) {
        *out++ = static_cast<uint8_t>(byte - ((static_cast<unsigned>(byte - 'a') < 26u) ? 32 : 0));
      } else {
        *out++ = static_cast<uint8_t>(byte + ((static_cast<unsigned>(byte - 'A') < 26u) ? 32 : 0));
      }
      ++in;
      continue;
    }
    if (byte >= 0xC2 && byte < 0xE0 && in + 1 < end) {
      const char32_t cp = ((byte & 0x1Fu) << 6) | (in[1] & 0x3Fu);
      const uint16_t mapped = table[cp];
      in += 2;
      out += mapped != kSpecialCase ? encode(mapped, out) : write_special_case(cp, kUpper, out);
      continue;
    }
    const char32_t cp = decode(&in, end);
    if (kUpper && cp >= 0xFB00 && cp <= 0xFB06) {
      out += write_special_case(cp, true, out);
      continue;
    }
    out += encode(kUpper ? to_upper(cp) : to_lower(cp), out);
  }
  return out - start;
}

/// Appends `text` in lower case to `out` (see `write_lower`).
void append_lower(std::string_view text, std::string& out);

// --- arguments ------------------------------------------------------------------------------

/// A string or binary argument (utf8, large_utf8, binary or large_binary; array or scalar),
/// read row by row.
class StringArg {
 public:
  explicit StringArg(const Datum& datum);
  bool is_scalar() const { return scalar_; }
  /// Whether row `i` is null.
  bool is_null(int64_t i) const {
    const int64_t row = scalar_ ? 0 : i;
    return validity_ != nullptr && !bit_util::get_bit(validity_, offset_ + row);
  }
  std::string_view value(int64_t i) const {
    const int64_t row = scalar_ ? 0 : i;
    int64_t begin;
    int64_t end;
    if (large_) {
      begin = offsets64_[row];
      end = offsets64_[row + 1];
    } else {
      begin = offsets32_[row];
      end = offsets32_[row + 1];
    }
    return {reinterpret_cast<const char*>(bytes_) + begin, static_cast<size_t>(end - begin)};
  }

 private:
  const uint8_t* validity_ = nullptr;
  int64_t offset_ = 0;
  const int32_t* offsets32_ = nullptr;
  const int64_t* offsets64_ = nullptr;
  const uint8_t* bytes_ = nullptr;
  bool large_ = false;
  bool scalar_ = false;
};

/// An integer argument of any integer width, read as int64.
class IntArg {
 public:
  explicit IntArg(const Datum& datum);
  bool is_scalar() const { return scalar_; }
  bool is_null(int64_t i) const {
    const int64_t row = scalar_ ? 0 : i;
    return validity_ != nullptr && !bit_util::get_bit(validity_, offset_ + row);
  }
  int64_t value(int64_t i) const {
    const int64_t row = offset_ + (scalar_ ? 0 : i);
    switch (width_) {
      case 1:
        return reinterpret_cast<const int8_t*>(values_)[row];
      case 2:
        return reinterpret_cast<const int16_t*>(values_)[row];
      case 4:
        return reinterpret_cast<const int32_t*>(values_)[row];
      default:
        return reinterpret_cast<const int64_t*>(values_)[row];
    }
  }

 private:
  const uint8_t* validity_ = nullptr;
  int64_t offset_ = 0;
  const uint8_t* values_ = nullptr;
  int width_ = 8;
  bool scalar_ = false;
};

// --- output ---------------------------------------------------------------------------------

/// Builds a utf8 or binary array of a known number of rows: int32 offsets and bytes written
/// directly, validity from the kernel's null rows.
class StringOutput {
 public:
  StringOutput(TypePtr type, int64_t length, Allocator* allocator);

  /// Adds `bytes` bytes to the current row and returns where they go, for the caller to fill.
  uint8_t* extend(int64_t bytes) {
    const int64_t size = data_.size();
    data_.resize(size + bytes);
    return data_.mutable_data() + size;
  }
  /// Appends to the current row.
  void append(std::string_view bytes) {
    data_.append(bytes.data(), static_cast<int64_t>(bytes.size()));
  }
  /// Ends the current row (valid) and starts the next.
  void finish_row() {
    check_size();
    offsets_[++row_] = static_cast<int32_t>(data_.size());
  }
  /// Ends the current row as null (bytes appended to it stay in the data, unread).
  void finish_null_row();

  /// The array (or, for `scalar`, a Datum scalar).
  Datum finish(bool scalar);

 private:
  void check_size() const {
    if (data_.size() > std::numeric_limits<int32_t>::max()) [[unlikely]] {
      throw_too_large();
    }
  }
  [[noreturn]] void throw_too_large() const;

  TypePtr type_;
  int64_t length_;
  TypedBufferBuilder<int32_t> offset_builder_;
  int32_t* offsets_;
  BufferBuilder data_;
  MutableBuffer validity_;
  int64_t null_count_ = 0;
  int64_t row_ = 0;
};

/// Whether every argument is a scalar (the result is then a scalar).
bool all_scalars(std::span<const Datum> arguments);
/// Rows of the result: the length of the array arguments, 1 when all are scalars.
int64_t result_length(std::span<const Datum> arguments);
/// Whether any argument is of the null type (a result of a null-propagating function is then
/// null in every row).
bool any_null_type(std::span<const Datum> arguments);
/// A result of `type` whose every row is null.
Datum all_null(const TypePtr& type, std::span<const Datum> arguments, Allocator* allocator);

}  // namespace bowstring::compute::strings
