#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

namespace bowstring {

/// Codecs for Arrow IPC body compression (one compressed frame per buffer).
enum class Compression { kNone, kLz4Frame, kZstd };

/// "none", "lz4" or "zstd".
std::string_view compression_name(Compression compression);
/// Parses "none", "lz4", "lz4_frame" or "zstd" (any case); throws `InvalidArgument` listing the
/// accepted names otherwise.
Compression compression_from_name(std::string_view name);

/// One codec, stateless between calls and safe to use from one thread at a time.
class Codec {
 public:
  /// `level`: the codec's compression level, or its default when absent. Levels and defaults
  /// are Arrow C++'s: lz4 1 to 12, zstd its minimum (negative: faster) to 22, both default 1.
  /// Throws `InvalidArgument` for `kNone` and for a level outside the range.
  static std::unique_ptr<Codec> make(Compression compression, std::optional<int> level = {});

  virtual ~Codec() = default;
  virtual Compression compression() const = 0;
  /// Upper bound of the compressed size of `size` input bytes.
  virtual int64_t max_compressed_size(int64_t size) const = 0;
  /// Compresses `size` bytes into one frame in `out` (at least `max_compressed_size(size)` bytes,
  /// else `InvalidArgument`); returns the compressed size.
  virtual int64_t compress(const uint8_t* data, int64_t size, uint8_t* out,
                           int64_t out_capacity) = 0;
  /// Decompresses exactly `out_size` bytes into `out`. Corrupt, truncated or empty input, or
  /// input that does not decompress to exactly `out_size` bytes, throws `FormatError` naming the
  /// codec and problem; nothing is written past `out + out_size`. Several concatenated frames
  /// decode as their concatenation, as both formats define.
  virtual void decompress(const uint8_t* data, int64_t size, uint8_t* out, int64_t out_size) = 0;
};

}  // namespace bowstring
