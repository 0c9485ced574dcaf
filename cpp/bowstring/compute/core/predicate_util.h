#pragma once

// Building blocks shared by the comparison, boolean and conditional kernels: bitmaps read and
// written 64 rows at a time, and the shape (length, scalar or not) of a row-wise call.

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

#include "bowstring/array/array.h"
#include "bowstring/compute/core/datum.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/util/bit_util.h"

namespace bowstring::compute::detail {

/// 64 bits of `bits` starting at bit `offset`. Reads only the bytes that hold those bits.
inline uint64_t load_word(const uint8_t* bits, int64_t offset) {
  const uint8_t* first = bits + (offset >> 3);
  const int shift = static_cast<int>(offset & 7);
  uint64_t word;
  std::memcpy(&word, first, sizeof(word));
  if (shift == 0) {
    return word;
  }
  return (word >> shift) | (static_cast<uint64_t>(first[8]) << (64 - shift));
}

/// `count` (< 64) bits of `bits` starting at bit `offset`, in the low bits of a word.
inline uint64_t load_partial_word(const uint8_t* bits, int64_t offset, int64_t count) {
  uint64_t word = 0;
  for (int64_t j = 0; j < count; ++j) {
    word |= static_cast<uint64_t>(bit_util::get_bit(bits, offset + j)) << j;
  }
  return word;
}

/// Eight bytes that are each 0 or 1 packed into one byte, the first byte in the lowest bit.
inline uint8_t pack_eight(const uint8_t* bytes) {
  uint64_t word;
  std::memcpy(&word, bytes, sizeof(word));
  // Every byte's bit lands at its own position of the top byte; no two products overlap.
  return static_cast<uint8_t>((word * 0x0102040810204080ULL) >> 56);
}

/// A bitmap argument of a word-wise kernel: bits of an array from `offset`, or the same word
/// for every row when `bits` is null (all valid, or a broadcast scalar).
struct BitSource {
  const uint8_t* bits = nullptr;
  int64_t offset = 0;
  uint64_t fill = ~uint64_t{0};

  /// The `count` (1..64) bits from row `row`.
  uint64_t word(int64_t row, int64_t count) const {
    if (bits == nullptr) {
      return fill;
    }
    return count == 64 ? load_word(bits, offset + row)
                       : load_partial_word(bits, offset + row, count);
  }
};

/// The validity of `datum` as a bit source: its bitmap, all ones without one, all zeros for a
/// null scalar, all ones for a valid scalar.
BitSource validity_source(const Datum& datum);
/// The values of a boolean datum as a bit source (a scalar broadcasts its value).
BitSource boolean_values_source(const Datum& datum);

/// Writes `length` bits to `out` (starting at bit 0, every byte of the bitmap), 64 at a time:
/// `compute(row, count)` returns the word of rows [row, row + count). Bits past `length` are
/// zero.
template <typename Compute>
void write_words(int64_t length, uint8_t* out, Compute&& compute) {
  int64_t row = 0;
  for (; row + 64 <= length; row += 64) {
    const uint64_t word = compute(row, int64_t{64});
    std::memcpy(out + (row >> 3), &word, sizeof(word));
  }
  if (row < length) {
    const int64_t count = length - row;
    const uint64_t word = compute(row, count) & ((uint64_t{1} << count) - 1);
    std::memcpy(out + (row >> 3), &word, static_cast<size_t>(bit_util::bytes_for_bits(count)));
  }
}

/// Writes `predicate(i)` for rows [0, length) as bits to `out` (starting at bit 0), every byte
/// of the bitmap included: bits past `length` are zero. The predicate runs over blocks of 64
/// rows into bytes, which the compiler vectorizes, and the bytes are then packed eight to a
/// byte.
template <typename Predicate>
void write_predicate_bits(int64_t length, uint8_t* out, Predicate&& predicate) {
  uint8_t block[64];
  int64_t row = 0;
  for (; row + 64 <= length; row += 64) {
    for (int j = 0; j < 64; ++j) {
      block[j] = static_cast<uint8_t>(predicate(row + j));
    }
    for (int b = 0; b < 8; ++b) {
      out[(row >> 3) + b] = pack_eight(block + 8 * b);
    }
  }
  for (; row < length; row += 8) {
    unsigned byte = 0;
    for (int64_t j = 0; j < 8 && row + j < length; ++j) {
      byte |= static_cast<unsigned>(predicate(row + j)) << j;
    }
    out[row >> 3] = static_cast<uint8_t>(byte);
  }
}

/// The first byte of a bitmap source's bits when they start on a byte boundary (word-wise loops
/// then read it directly), else nullptr. Also nullptr for a constant source.
inline const uint8_t* aligned_bytes(const BitSource& source) {
  if (source.bits == nullptr || (source.offset & 7) != 0) {
    return nullptr;
  }
  return source.bits + (source.offset >> 3);
}

/// Writes `length` bits to `out` (starting at bit 0, every byte of the bitmap, bits past
/// `length` zero) from byte-aligned bitmaps `a` and `b`: `op(x, y)` maps 64 bits of each to 64
/// bits of the result. A plain word loop, which the compiler vectorizes.
template <typename Op>
void map_aligned_words(int64_t length, uint8_t* out, const uint8_t* a, const uint8_t* b, Op&& op) {
  const int64_t words = length >> 6;
  for (int64_t w = 0; w < words; ++w) {
    uint64_t x;
    uint64_t y;
    std::memcpy(&x, a + 8 * w, sizeof(x));
    std::memcpy(&y, b + 8 * w, sizeof(y));
    const uint64_t word = op(x, y);
    std::memcpy(out + 8 * w, &word, sizeof(word));
  }
  const int64_t rest = length & 63;
  if (rest != 0) {
    const auto bytes = static_cast<size_t>(bit_util::bytes_for_bits(rest));
    uint64_t x = 0;
    uint64_t y = 0;
    std::memcpy(&x, a + 8 * words, bytes);
    std::memcpy(&y, b + 8 * words, bytes);
    const uint64_t word = op(x, y) & ((uint64_t{1} << rest) - 1);
    std::memcpy(out + 8 * words, &word, bytes);
  }
}

/// Owned memory for an output that a kernel overwrites completely, so it is not zero-filled
/// first as a `MutableBuffer` is (on large outputs that fill costs as much as the kernel).
/// `finish()` zeroes the padding and hands the bytes over; until then the memory is freed on
/// destruction.
class UninitializedBuffer {
 public:
  UninitializedBuffer(int64_t size, Allocator* allocator);
  ~UninitializedBuffer();
  UninitializedBuffer(const UninitializedBuffer&) = delete;
  UninitializedBuffer& operator=(const UninitializedBuffer&) = delete;

  uint8_t* mutable_data() { return data_; }
  const uint8_t* data() const { return data_; }
  /// The buffer of the `size` bytes written, with its padding zeroed.
  std::shared_ptr<Buffer> finish();

 private:
  Allocator* allocator_;
  uint8_t* data_;
  int64_t size_;
  int64_t capacity_;
};

/// Room for a bitmap of `length` bits that the kernel overwrites completely.
UninitializedBuffer output_bitmap(int64_t length, Allocator* allocator);

/// A zeroed bitmap of `length` bits.
MutableBuffer zeroed_bitmap(int64_t length, Allocator* allocator);

/// A boolean array from its parts (`validity` nullptr: no nulls).
Array make_boolean_array(int64_t length, std::shared_ptr<Buffer> validity, int64_t null_count,
                         std::shared_ptr<Buffer> values);

/// A boolean array of `length` nulls.
Array all_null_boolean_array(int64_t length, Allocator* allocator);

/// The row count of a row-wise call: the length of its array arguments, 1 when all are
/// scalars. Throws `InvalidArgument` naming `function` when array lengths differ.
int64_t call_length(std::span<const Datum> arguments, const char* function);
/// `result` as the call's result: a scalar when `scalar` (result then has length 1).
Datum as_result(Array result, bool scalar);

/// The data of `datum` as one row per row of the call: arrays as they are, scalars as their
/// one value.
struct RowSource {
  const ArrayData* data;
  bool scalar;
  /// The physical row of `data` (before its offset) for call row `row`.
  int64_t index(int64_t row) const { return scalar ? 0 : row; }
};

}  // namespace bowstring::compute::detail
