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
#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/memory/buffer_builder.h"

namespace bowstring::compute::strings {

// --- UTF-8 ----------------------------------------------------------------------------------

/// Whether `byte` continues a multi-byte UTF-8 sequence.
inline bool is_continuation(uint8_t byte) { return (byte & 0xC0) == 0x80; }

/// Bytes that Spark takes as one character when it starts with `lead` (UTF8String's
/// numBytesForFirstByte): 1 for ASCII, for stray continuation bytes and for bytes that start
/// no sequence (C0, C1, F5..FF), else the length the lead byte announces, whatever follows.
inline int sequence_length(uint8_t lead) {
  if (lead < 0xC2) {
    return 1;
  }
  if (lead < 0xE0) {
    return 2;
  }
  if (lead < 0xF0) {
    return 3;
  }
  return lead < 0xF5 ? 4 : 1;
}

/// The code point at `*p` (before `end`), advancing `*p` past it. A malformed sequence decodes
/// as U+FFFD, one per maximal invalid part, as Java's decoder (and so Spark) reads it.
inline char32_t decode(const uint8_t** p, const uint8_t* end) {
  const uint8_t* s = *p;
  const uint8_t lead = s[0];
  if (lead < 0x80) {
    *p = s + 1;
    return lead;
  }
  constexpr char32_t kReplacement = 0xFFFD;
  const int length = sequence_length(lead);
  if (length == 1) {
    *p = s + 1;
    return kReplacement;
  }
  // The range of the second byte depends on the lead (no overlong forms, no surrogates, nothing
  // past U+10FFFF); the later ones are plain continuation bytes.
  uint8_t low = 0x80;
  uint8_t high = 0xBF;
  if (lead == 0xE0) {
    low = 0xA0;
  } else if (lead == 0xED) {
    high = 0x9F;
  } else if (lead == 0xF0) {
    low = 0x90;
  } else if (lead == 0xF4) {
    high = 0x8F;
  }
  if (s + 1 >= end || s[1] < low || s[1] > high) {
    *p = s + 1;
    return kReplacement;
  }
  char32_t cp = lead & (0x7Fu >> length);
  for (int k = 1; k < length; ++k) {
    if (s + k >= end || !is_continuation(s[k])) {
      *p = s + k;
      return kReplacement;
    }
    cp = (cp << 6) | (s[k] & 0x3Fu);
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

/// Number of characters in `size` bytes, counted as Spark counts them (see `sequence_length`).
int64_t count_chars(const uint8_t* bytes, int64_t size);

/// Whether Spark's character walk over `size` bytes agrees with counting the bytes that do not
/// continue a sequence (see `count_chars`): each lead byte is followed by as many continuation
/// bytes as it announces, and no continuation byte stands anywhere else (true of all valid
/// UTF-8). One pass without branches, which vectorizes.
bool walk_is_regular(const uint8_t* bytes, int64_t size);

/// Whether `size` bytes are valid UTF-8 (whole sequences, no overlong forms, surrogates or
/// code points past U+10FFFF). One pass without branches, which vectorizes.
bool is_valid_utf8(const uint8_t* bytes, int64_t size);

/// Appends `text` to `out` as Spark reads malformed UTF-8: each maximal malformed part as U+FFFD
/// (see `decode`).
void append_replacing_malformed(std::string_view text, std::string& out);

/// Number of bytes that continue a multi-byte sequence.
inline int64_t count_continuations(const uint8_t* bytes, int64_t size) {
  int64_t continuations = 0;
  for (int64_t i = 0; i < size; ++i) {
    continuations += is_continuation(bytes[i]);
  }
  return continuations;
}

/// Byte offset of the `n`-th character of `text` (its size when `n` passes the end).
int64_t char_offset(std::string_view text, int64_t n);

/// Whether every byte is ASCII.
bool is_ascii(const uint8_t* bytes, int64_t size);

// --- case mapping ---------------------------------------------------------------------------

/// Spark's (ICU's root locale) full case mappings of all of Unicode, in a form for the row
/// loops: for the Basic Multilingual Plane, per block of 256 code points, nullptr when no code
/// point of the block changes, else the simple mapping of each, or kSpecialCase where the full
/// mapping is several code points (ß -> SS) or depends on the context (Σ).
inline constexpr uint16_t kSpecialCase = 0xFFFF;
struct CaseMap {
  const uint16_t* blocks[256];
  /// The same for the code points of two UTF-8 bytes (below U+0800), in one flat table.
  uint16_t two_byte[0x800];
};
const CaseMap& case_map(bool upper);

/// Writes the full upper (or lower) case mapping of `cp` outside its context; returns the bytes
/// written (at most three times those of `cp`).
int write_full_case(char32_t cp, bool upper, uint8_t* out);

/// Writes the title case of `cp` (ǆ -> ǅ, ß -> Ss; the upper case for most); returns the bytes.
int write_title_case(char32_t cp, uint8_t* out);

/// Whether the Σ between `at` and `after` in [begin, end) is final: a cased letter comes before
/// it and none after it, case-ignorable characters (marks, apostrophes...) skipped.
bool is_final_sigma(const uint8_t* begin, const uint8_t* at, const uint8_t* after,
                    const uint8_t* end);

/// Writes the text [in, end) in upper (or lower) case to `out`, which has room for three times
/// as many bytes, and returns the bytes written; the text from `begin` is the context of a Σ.
/// `map` is `case_map(kUpper)`. Spark's full mappings are followed (ß -> SS, ŉ -> ʼN, İ -> i̇, a
/// final Σ -> ς), and malformed UTF-8 becomes U+FFFD as Spark decodes it.
template <bool kUpper>
inline int64_t write_case(const CaseMap& map, const uint8_t* begin, const uint8_t* in,
                          const uint8_t* end, uint8_t* out) {
  uint8_t* start = out;
  while (in < end) {
    const uint8_t byte = *in;
    if (byte < 0x80) {
      uint64_t word;
      if (in + 8 <= end && (std::memcpy(&word, in, 8), (word & 0x8080808080808080ULL) == 0)) {
        // Eight ASCII bytes at once: the high bit of each byte of `low` and `high` tells it is
        // at least the first letter, and past the last one.
        constexpr uint64_t kOnes = 0x0101010101010101ULL;
        const uint64_t low = word + kOnes * (0x80 - (kUpper ? 'a' : 'A'));
        const uint64_t high = word + kOnes * (0x80 - (kUpper ? 'z' : 'Z') - 1);
        const uint64_t letters = (low & ~high & (kOnes * 0x80)) >> 2;
        word = kUpper ? word - letters : word + letters;
        std::memcpy(out, &word, 8);
        in += 8;
        out += 8;
        continue;
      }
      if constexpr (kUpper) {
        *out++ = static_cast<uint8_t>(byte - ((static_cast<unsigned>(byte - 'a') < 26u) ? 32 : 0));
      } else {
        *out++ = static_cast<uint8_t>(byte + ((static_cast<unsigned>(byte - 'A') < 26u) ? 32 : 0));
      }
      ++in;
      continue;
    }
    const uint8_t* at = in;
    char32_t cp;
    uint16_t mapped;
    if (byte >= 0xC2 && byte < 0xE0 && in + 1 < end && is_continuation(in[1])) {
      // Two bytes (Latin, Greek, Cyrillic...): one flat table.
      cp = ((byte & 0x1Fu) << 6) | (in[1] & 0x3Fu);
      mapped = map.two_byte[cp];
      in += 2;
      if (mapped >= 0x80 && mapped < 0x800) [[likely]] {
        out[0] = static_cast<uint8_t>(0xC0 | (mapped >> 6));
        out[1] = static_cast<uint8_t>(0x80 | (mapped & 0x3F));
        out += 2;
        continue;
      }
    } else if (byte >= 0xE1 && byte < 0xF0 && byte != 0xED && in + 2 < end &&
               is_continuation(in[1]) && is_continuation(in[2])) {
      // Three bytes of a well-formed sequence (E0 and ED, whose second byte has a narrower
      // range, go the general way).
      cp = ((byte & 0x0Fu) << 12) | ((in[1] & 0x3Fu) << 6) | (in[2] & 0x3Fu);
      const uint16_t* block = map.blocks[cp >> 8];
      if (block == nullptr) {
        // Most scripts of three bytes (CJK, kana, Hangul...) have no case.
        std::memcpy(out, in, 3);
        out += 3;
        in += 3;
        continue;
      }
      mapped = block[cp & 0xFF];
      in += 3;
    } else {
      cp = decode(&in, end);
      if (cp >= 0x10000) {
        out += write_full_case(cp, kUpper, out);
        continue;
      }
      const uint16_t* block = map.blocks[cp >> 8];
      mapped = block == nullptr ? static_cast<uint16_t>(cp) : block[cp & 0xFF];
    }
    if (mapped != kSpecialCase) [[likely]] {
      out += encode(mapped, out);
      continue;
    }
    if (!kUpper && cp == 0x3A3) {
      out += encode(is_final_sigma(begin, at, in, end) ? 0x3C2 : 0x3C3, out);
      continue;
    }
    out += write_full_case(cp, kUpper, out);
  }
  return out - start;
}

/// Writes `size` bytes of text in upper (or lower) case (see above).
template <bool kUpper>
inline int64_t write_case(const CaseMap& map, const uint8_t* in, int64_t size, uint8_t* out) {
  return write_case<kUpper>(map, in, in, in + size, out);
}

/// Appends `text` in lower case to `out` (see `write_case`).
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
  /// Takes back the last `bytes` bytes of the current row (unused room asked by `extend`).
  void retract(int64_t bytes) { data_.resize(data_.size() - bytes); }
  /// Appends to the current row.
  void append(std::string_view bytes) {
    data_.append(bytes.data(), static_cast<int64_t>(bytes.size()));
  }
  /// Fails as `finish_row` would once `bytes` more bytes were added, before they are; also
  /// for one row longer than a JVM array can be (Spark's rows fail there too).
  void check_room(int64_t bytes) const {
    constexpr int64_t kMaxRow = std::numeric_limits<int32_t>::max() - 15;
    if (bytes > kMaxRow || bytes > std::numeric_limits<int32_t>::max() - data_.size())
        [[unlikely]] {
      throw_too_large();
    }
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

/// A result of `type` whose every row is null.
Datum all_null(const TypePtr& type, std::span<const Datum> arguments, Allocator* allocator);

}  // namespace bowstring::compute::strings
