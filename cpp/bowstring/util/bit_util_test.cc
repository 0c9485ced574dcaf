#include "bowstring/util/bit_util.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

namespace bowstring::bit_util {
namespace {

std::vector<uint8_t> random_bitmap(int64_t bits, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(static_cast<size_t>(bytes_for_bits(bits)) + 8);
  for (uint8_t& byte : bytes) {
    byte = static_cast<uint8_t>(rng());
  }
  return bytes;
}

int64_t naive_count(const uint8_t* bits, int64_t offset, int64_t length) {
  int64_t count = 0;
  for (int64_t i = 0; i < length; ++i) {
    count += get_bit(bits, offset + i);
  }
  return count;
}

TEST(BitUtilTest, CountSetBitsMatchesBitByBitCountAtAnyOffset) {
  const std::vector<uint8_t> bitmap = random_bitmap(1000, 1);
  for (int64_t offset : {0, 1, 7, 8, 13, 64, 65}) {
    for (int64_t length : {0, 1, 5, 63, 64, 65, 200, 900}) {
      EXPECT_EQ(count_set_bits(bitmap.data(), offset, length),
                naive_count(bitmap.data(), offset, length))
          << offset << " " << length;
    }
  }
}

TEST(BitUtilTest, SetBitsToTouchesOnlyTheRange) {
  std::vector<uint8_t> bitmap(16, 0);
  set_bits_to(bitmap.data(), 3, 70, true);
  for (int64_t i = 0; i < 128; ++i) {
    EXPECT_EQ(get_bit(bitmap.data(), i), i >= 3 && i < 73) << i;
  }
  set_bits_to(bitmap.data(), 10, 5, false);
  EXPECT_EQ(count_set_bits(bitmap.data(), 0, 128), 65);
}

TEST(BitUtilTest, CopyBitmapAndCompareAtUnalignedOffsets) {
  const std::vector<uint8_t> source = random_bitmap(500, 2);
  for (int64_t src_offset : {0, 3, 8, 17}) {
    for (int64_t dst_offset : {0, 5, 16}) {
      std::vector<uint8_t> dest(80, 0);
      copy_bitmap(source.data(), src_offset, 300, dest.data(), dst_offset);
      for (int64_t i = 0; i < 300; ++i) {
        ASSERT_EQ(get_bit(dest.data(), dst_offset + i), get_bit(source.data(), src_offset + i));
      }
      EXPECT_TRUE(bitmaps_equal(source.data(), src_offset, dest.data(), dst_offset, 300));
      set_bit_to(dest.data(), dst_offset + 299, !get_bit(dest.data(), dst_offset + 299));
      EXPECT_FALSE(bitmaps_equal(source.data(), src_offset, dest.data(), dst_offset, 300));
    }
  }
}

TEST(BitUtilTest, CopyBitmapWritesExactlyItsRangeAtEveryOffset) {
  const std::vector<uint8_t> source = random_bitmap(400, 3);
  const std::vector<uint8_t> background = random_bitmap(400, 4);
  for (int64_t src_offset = 0; src_offset < 16; ++src_offset) {
    for (int64_t dst_offset = 0; dst_offset < 16; ++dst_offset) {
      for (int64_t length : {0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 300}) {
        std::vector<uint8_t> dest = background;
        copy_bitmap(source.data(), src_offset, length, dest.data(), dst_offset);
        for (int64_t i = 0; i < 400; ++i) {
          const bool inside = i >= dst_offset && i < dst_offset + length;
          const bool expected = inside ? get_bit(source.data(), src_offset + i - dst_offset)
                                       : get_bit(background.data(), i);
          ASSERT_EQ(get_bit(dest.data(), i), expected)
              << "bit " << i << ", copying " << length << " bits from " << src_offset << " to "
              << dst_offset;
        }
      }
    }
  }
}

TEST(BitUtilTest, RoundUpAndBytesForBits) {
  EXPECT_EQ(bytes_for_bits(0), 0);
  EXPECT_EQ(bytes_for_bits(1), 1);
  EXPECT_EQ(bytes_for_bits(9), 2);
  EXPECT_EQ(bytes_for_bits(std::numeric_limits<int64_t>::max()),
            std::numeric_limits<int64_t>::max() / 8 + 1);
  EXPECT_EQ(round_up(65, 64), 128);
  EXPECT_EQ(round_up(64, 64), 64);
}

}  // namespace
}  // namespace bowstring::bit_util
