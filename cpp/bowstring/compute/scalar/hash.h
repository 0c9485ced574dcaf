#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>

#include "bowstring/array/array.h"

namespace bowstring::compute {

// --- Spark's hash functions -----------------------------------------------------------------
//
// `hash(...)` is Murmur3 x86_32 and `xxhash64(...)` is XXH64, both with seed 42, chained over
// the arguments as Spark's HashExpression does: the hash of each argument is the seed of the
// next, and a null leaves the running hash unchanged. Values are hashed as Spark sees them:
// byte, short, int, date and boolean (1/0) as an int; bigint, timestamp (in microseconds) as a
// long; float and double by their IEEE bits after turning -0.0 into 0.0 (NaN hashes as Java's
// canonical NaN); strings and binary by their bytes; decimals of precision <= 18 as the long
// of their unscaled value, wider ones by the bytes of Java's BigInteger.toByteArray; arrays,
// maps and structs element by element. Types Spark lacks: uint8/uint16 hash as an int,
// uint32/uint64 as a long, date64 as the date, time and duration as a long of their value.

/// Spark's `Murmur3_x86_32.hashInt`.
int32_t spark_murmur3_int(int32_t value, int32_t seed);
/// Spark's `Murmur3_x86_32.hashLong`.
int32_t spark_murmur3_long(int64_t value, int32_t seed);
/// Spark's `Murmur3_x86_32.hashUnsafeBytes` (trailing bytes are mixed one by one, sign
/// extended, as Spark does; this differs from the reference Murmur3 on lengths not a multiple
/// of 4).
int32_t spark_murmur3_bytes(const uint8_t* bytes, int64_t length, int32_t seed);
/// Spark's `XXH64.hashInt`.
int64_t spark_xxhash64_int(int32_t value, int64_t seed);
/// Spark's `XXH64.hashLong`.
int64_t spark_xxhash64_long(int64_t value, int64_t seed);
/// XXH64 of `length` bytes (Spark's `XXH64.hashUnsafeBytes`).
int64_t spark_xxhash64_bytes(const uint8_t* bytes, int64_t length, int64_t seed);

/// Folds the values of `column` into running Murmur3 hashes, one per row: `hashes[i]` is the
/// seed for row i on entry and its hash on exit (unchanged for a null). Throws `TypeError` for
/// types Spark cannot hash (unions, run-end encoded).
void spark_murmur3_column(const Array& column, int32_t* hashes);
/// Same as `spark_murmur3_column`, with XXH64.
void spark_xxhash64_column(const Array& column, int64_t* hashes);

// --- The internal hash for hash tables ----------------------------------------------------
//
// Fast and well mixed, not stable across versions. Keys that group together hash equal: floats
// are normalized first (every NaN alike, -0.0 as 0.0) and dictionary values hash by value.

/// Mixes a 64-bit value into a well-distributed 64-bit hash.
inline uint64_t hash_u64(uint64_t value) {
  value ^= value >> 32;
  value *= 0xd6e8feb86659fd93ULL;
  value ^= value >> 32;
  value *= 0xd6e8feb86659fd93ULL;
  value ^= value >> 32;
  return value;
}

/// The 128-bit product of `a` and `b` folded to 64 bits: one multiply that mixes every bit.
inline uint64_t fold_multiply(uint64_t a, uint64_t b) {
  const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

/// Hash of more than 16 bytes (`hash_bytes` inlines shorter ones).
uint64_t hash_long_bytes(const void* data, int64_t length);

/// The two words that, with its length, make a key of at most 16 bytes: loads of its first
/// and last bytes (overlapping for fewer than 16), zero-extended.
struct ShortWords {
  uint64_t first = 0;
  uint64_t last = 0;
};

inline ShortWords short_words(const void* data, int64_t length) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  ShortWords words;
  if (length >= 8) {
    std::memcpy(&words.first, bytes, 8);
    std::memcpy(&words.last, bytes + length - 8, 8);
  } else if (length >= 4) {
    uint32_t first;
    uint32_t last;
    std::memcpy(&first, bytes, 4);
    std::memcpy(&last, bytes + length - 4, 4);
    words.first = first;
    words.last = last;
  } else if (length > 0) {
    words.first =
        (uint64_t{bytes[0]} << 16) | (uint64_t{bytes[length >> 1]} << 8) | bytes[length - 1];
  }
  return words;
}

/// Hash of `length` bytes. Keys of up to 16 bytes, the usual case for grouping, are read with
/// two (possibly overlapping) loads instead of a loop.
inline uint64_t hash_bytes(const void* data, int64_t length) {
  if (length > 16) {
    return hash_long_bytes(data, length);
  }
  const ShortWords words = short_words(data, length);
  const uint64_t mixed =
      fold_multiply(words.first ^ 0xa0761d6478bd642fULL,
                    words.last ^ 0xe7037ed1a0b428dbULL ^ static_cast<uint64_t>(length));
  return fold_multiply(mixed ^ 0x8ebc6af09c88c6e3ULL,
                       0x589965cc75374cc3ULL ^ static_cast<uint64_t>(length));
}

/// Combines the hash of one more column into a row's running hash.
inline uint64_t hash_combine(uint64_t running, uint64_t next) {
  return (std::rotl(running, 23) ^ next) * 0x9e3779b97f4a7c15ULL;
}

/// The bits of a double that grouping compares: every NaN alike, -0.0 as 0.0.
inline uint64_t normalized_double_bits(double value) {
  if (value != value) {
    return 0x7ff8000000000000ULL;
  }
  if (value == 0.0) {
    return 0;
  }
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

/// The bits of a float that grouping compares: every NaN alike, -0.0 as 0.0.
inline uint32_t normalized_float_bits(float value) {
  if (value != value) {
    return 0x7fc00000U;
  }
  if (value == 0.0f) {
    return 0;
  }
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

/// Hashes of the rows of `column` for hash tables, one per row: written to `hashes` when
/// `combine` is false, combined into the hashes already there when it is true. Nulls hash to
/// a fixed value. Every type is supported, nested ones included.
void hash_column(const Array& column, uint64_t* hashes, bool combine);

/// Hashes of the rows of several columns together (`columns` not empty, all the same length).
void hash_rows(std::span<const Array> columns, uint64_t* hashes);

// --- Reading values of any layout ------------------------------------------------------------

/// Valid value `i` (relative to the window) of a binary-like array: utf8, binary, their large
/// and view variants.
std::string_view binary_value(const ArrayData& data, int64_t i);

/// Index into the dictionary of value `i` (relative to the window) of a dictionary array.
int64_t dictionary_index(const ArrayData& data, int64_t i);

/// The elements [begin, end) of the child of list row `row` (absolute: the window's offset
/// included) of a list-like array: list, map, large list, their views, fixed-size list (or an
/// extension type stored as one of them).
std::pair<int64_t, int64_t> list_element_range(const ArrayData& data, int64_t row);

}  // namespace bowstring::compute
