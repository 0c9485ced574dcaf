#include "bowstring/util/bit_util.h"

namespace bowstring::bit_util {

namespace {

uint64_t load_word(const uint8_t* bytes) {
  uint64_t word;
  std::memcpy(&word, bytes, sizeof(word));
  return word;
}

/// The 64 bits starting at bit `offset` of `bits`, reading only bytes that hold wanted bits.
uint64_t load_bits(const uint8_t* bits, int64_t offset, int64_t count) {
  const uint8_t* start = bits + (offset >> 3);
  const int shift = static_cast<int>(offset & 7);
  const int64_t needed_bytes = bytes_for_bits(count + shift);
  uint64_t word = 0;
  if (needed_bytes >= 8) {
    word = load_word(start) >> shift;
    if (shift != 0 && needed_bytes > 8) {
      word |= static_cast<uint64_t>(start[8]) << (64 - shift);
    }
  } else {
    for (int64_t i = 0; i < needed_bytes; ++i) {
      word |= static_cast<uint64_t>(start[i]) << (8 * i);
    }
    word >>= shift;
  }
  if (count < 64) {
    word &= (uint64_t{1} << count) - 1;
  }
  return word;
}

}  // namespace

int64_t count_set_bits(const uint8_t* bits, int64_t offset, int64_t length) {
  int64_t count = 0;
  int64_t i = 0;
  // Align to a byte boundary, then count whole 64-bit words.
  while (i < length && ((offset + i) & 7) != 0) {
    count += get_bit(bits, offset + i);
    ++i;
  }
  const uint8_t* bytes = bits + ((offset + i) >> 3);
  for (; i + 64 <= length; i += 64, bytes += 8) {
    count += std::popcount(load_word(bytes));
  }
  for (; i < length; ++i) {
    count += get_bit(bits, offset + i);
  }
  return count;
}

void set_bits_to(uint8_t* bits, int64_t offset, int64_t length, bool value) {
  int64_t i = 0;
  while (i < length && ((offset + i) & 7) != 0) {
    set_bit_to(bits, offset + i, value);
    ++i;
  }
  const int64_t whole_bytes = (length - i) >> 3;
  if (whole_bytes > 0) {
    std::memset(bits + ((offset + i) >> 3), value ? 0xFF : 0x00, static_cast<size_t>(whole_bytes));
  }
  i += whole_bytes * 8;
  for (; i < length; ++i) {
    set_bit_to(bits, offset + i, value);
  }
}

void copy_bitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
                 int64_t dst_offset) {
  int64_t i = 0;
  // Bit by bit up to a byte boundary of the destination...
  while (i < length && ((dst_offset + i) & 7) != 0) {
    set_bit_to(dst, dst_offset + i, get_bit(src, src_offset + i));
    ++i;
  }
  uint8_t* out = dst + ((dst_offset + i) >> 3);
  if (((src_offset + i) & 7) == 0) {
    // ...then whole bytes, when the source is at a byte boundary too...
    const int64_t whole_bytes = (length - i) >> 3;
    if (whole_bytes > 0) {
      std::memcpy(out, src + ((src_offset + i) >> 3), static_cast<size_t>(whole_bytes));
    }
    i += whole_bytes * 8;
  } else {
    // ...or 64 bits at a time, shifted into place...
    for (; i + 64 <= length; i += 64, out += 8) {
      const uint64_t word = load_bits(src, src_offset + i, 64);
      std::memcpy(out, &word, sizeof(word));
    }
  }
  // ...and the rest bit by bit.
  for (; i < length; ++i) {
    set_bit_to(dst, dst_offset + i, get_bit(src, src_offset + i));
  }
}

bool bitmaps_equal(const uint8_t* a, int64_t a_offset, const uint8_t* b, int64_t b_offset,
                   int64_t length) {
  for (int64_t i = 0; i < length; i += 64) {
    const int64_t count = length - i < 64 ? length - i : 64;
    if (load_bits(a, a_offset + i, count) != load_bits(b, b_offset + i, count)) {
      return false;
    }
  }
  return true;
}

}  // namespace bowstring::bit_util
