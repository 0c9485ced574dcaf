#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace bowstring::bit_util {

/// Bytes needed for a bitmap of `bits` bits (without overflow, up to INT64_MAX bits).
constexpr int64_t bytes_for_bits(int64_t bits) { return (bits >> 3) + ((bits & 7) != 0); }

/// `value` rounded up to a multiple of `factor`, a power of two.
constexpr int64_t round_up(int64_t value, int64_t factor) {
  return (value + factor - 1) & ~(factor - 1);
}

inline bool get_bit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }

inline void set_bit(uint8_t* bits, int64_t i) {
  bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
}

inline void clear_bit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
}

inline void set_bit_to(uint8_t* bits, int64_t i, bool value) {
  // Branch-free so that appending validity in a hot loop does not mispredict.
  bits[i >> 3] = static_cast<uint8_t>((bits[i >> 3] & ~(1u << (i & 7))) |
                                      (static_cast<unsigned>(value) << (i & 7)));
}

/// Number of set bits in bits [offset, offset + length) of `bits`.
int64_t count_set_bits(const uint8_t* bits, int64_t offset, int64_t length);

/// Sets (or clears) bits [offset, offset + length) of `bits`.
void set_bits_to(uint8_t* bits, int64_t offset, int64_t length, bool value);

/// Copies `length` bits from `src` at `src_offset` to `dst` at `dst_offset`.
void copy_bitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
                 int64_t dst_offset);

/// True when bits [a_offset, +length) of `a` equal bits [b_offset, +length) of `b`.
bool bitmaps_equal(const uint8_t* a, int64_t a_offset, const uint8_t* b, int64_t b_offset,
                   int64_t length);

}  // namespace bowstring::bit_util
