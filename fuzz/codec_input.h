#pragma once

// The input layout of codec_fuzzer, shared with the seed writer that produces valid ones:
//   byte 0      bit 0 picks the codec (0: lz4 frame, 1: zstd)
//   bytes 1-3   the expected decompressed size, little-endian, reduced modulo kMaxOutSize + 1
//   bytes 4...  the compressed data

#include <cstddef>
#include <cstdint>
#include <string>

#include "bowstring/interchange/compression.h"

namespace bowstring::fuzz {

// Large enough for many blocks of either codec, small enough to keep each run fast.
inline constexpr int64_t kMaxOutSize = int64_t{1} << 20;
inline constexpr size_t kHeaderSize = 4;

struct CodecInput {
  Compression compression;
  int64_t out_size;
  const uint8_t* data;
  size_t size;
};

inline bool parse_codec_input(const uint8_t* bytes, size_t size, CodecInput& input) {
  if (size < kHeaderSize) {
    return false;
  }
  input.compression = (bytes[0] & 1) != 0 ? Compression::kZstd : Compression::kLz4Frame;
  const int64_t declared = bytes[1] | (bytes[2] << 8) | (bytes[3] << 16);
  input.out_size = declared % (kMaxOutSize + 1);
  input.data = bytes + kHeaderSize;
  input.size = size - kHeaderSize;
  return true;
}

inline std::string encode_codec_input(Compression compression, int64_t out_size,
                                      const std::string& compressed) {
  std::string bytes;
  bytes += static_cast<char>(compression == Compression::kZstd ? 1 : 0);
  bytes += static_cast<char>(out_size & 0xFF);
  bytes += static_cast<char>((out_size >> 8) & 0xFF);
  bytes += static_cast<char>((out_size >> 16) & 0xFF);
  return bytes + compressed;
}

}  // namespace bowstring::fuzz
