#include "bowstring/interchange/compression.h"

#include <lz4frame.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "bowstring/util/error.h"

namespace bowstring {

std::string_view compression_name(Compression compression) {
  switch (compression) {
    case Compression::kNone:
      return "none";
    case Compression::kLz4Frame:
      return "lz4";
    case Compression::kZstd:
      return "zstd";
  }
  throw InvalidArgument("unknown compression " + std::to_string(static_cast<int>(compression)));
}

Compression compression_from_name(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "none") {
    return Compression::kNone;
  }
  if (lower == "lz4" || lower == "lz4_frame") {
    return Compression::kLz4Frame;
  }
  if (lower == "zstd") {
    return Compression::kZstd;
  }
  throw InvalidArgument("unknown compression '" + std::string(name) +
                        "': expected none, lz4, lz4_frame or zstd");
}

namespace {

void check_sizes(int64_t size, int64_t other, const char* what, const char* other_what) {
  if (size < 0 || other < 0) {
    throw InvalidArgument(std::string("negative ") + (size < 0 ? what : other_what) + ": " +
                          std::to_string(size < 0 ? size : other));
  }
}

// Codecs are given at least `max_compressed_size` bytes of room, so compression never fails
// for want of it.
void check_capacity(const Codec& codec, int64_t size, int64_t out_capacity) {
  check_sizes(size, out_capacity, "input size", "output capacity");
  const int64_t needed = codec.max_compressed_size(size);
  if (out_capacity < needed) {
    throw InvalidArgument(std::string(compression_name(codec.compression())) + " compression of " +
                          std::to_string(size) + " bytes needs " + std::to_string(needed) +
                          " bytes of room, got " + std::to_string(out_capacity));
  }
}

int checked_level(Compression compression, std::optional<int> level, int min, int max,
                  int fallback) {
  if (!level.has_value()) {
    return fallback;
  }
  if (*level < min || *level > max) {
    throw InvalidArgument(std::string(compression_name(compression)) +
                          " compression level must be between " + std::to_string(min) + " and " +
                          std::to_string(max) + ", got " + std::to_string(*level));
  }
  return *level;
}

// Levels accepted and the default, as in Arrow C++ (and so pyarrow): the fast end by default,
// since IPC bodies are compressed on the way to another process more often than to an archive.
constexpr int kLz4MinLevel = 1;
constexpr int kLz4MaxLevel = 12;
constexpr int kLz4DefaultLevel = 1;
constexpr int kZstdDefaultLevel = 1;

class Lz4FrameCodec final : public Codec {
 public:
  explicit Lz4FrameCodec(std::optional<int> level) {
    preferences_.compressionLevel =
        checked_level(Compression::kLz4Frame, level, kLz4MinLevel, kLz4MaxLevel, kLz4DefaultLevel);
    if (LZ4F_isError(LZ4F_createDecompressionContext(&decompressor_, LZ4F_VERSION))) {
      throw OutOfMemory("cannot create an lz4 frame decompression context");
    }
  }
  ~Lz4FrameCodec() override { LZ4F_freeDecompressionContext(decompressor_); }
  Lz4FrameCodec(const Lz4FrameCodec&) = delete;
  Lz4FrameCodec& operator=(const Lz4FrameCodec&) = delete;

  Compression compression() const override { return Compression::kLz4Frame; }

  int64_t max_compressed_size(int64_t size) const override {
    check_sizes(size, 0, "input size", "");
    return static_cast<int64_t>(LZ4F_compressFrameBound(static_cast<size_t>(size), &preferences_));
  }

  int64_t compress(const uint8_t* data, int64_t size, uint8_t* out, int64_t out_capacity) override {
    check_capacity(*this, size, out_capacity);
    const size_t written = LZ4F_compressFrame(out, static_cast<size_t>(out_capacity), data,
                                              static_cast<size_t>(size), &preferences_);
    if (LZ4F_isError(written)) {
      // With room enough, only a failed allocation of the compression state is left.
      throw OutOfMemory("lz4 frame compression of " + std::to_string(size) +
                        " bytes failed: " + LZ4F_getErrorName(written));
    }
    return static_cast<int64_t>(written);
  }

  // Runs LZ4F_decompress until the input is used up, accepting concatenated frames as the lz4
  // format does. Output past `out_size` goes to a small scratch area only to detect that the
  // data is longer than expected.
  void decompress(const uint8_t* data, int64_t size, uint8_t* out, int64_t out_size) override {
    check_sizes(size, out_size, "input size", "output size");
    if (size == 0) {
      throw FormatError("lz4 frame data is empty: expected a frame decompressing to " +
                        std::to_string(out_size) + " bytes");
    }
    if (decompressor_ == nullptr &&
        LZ4F_isError(LZ4F_createDecompressionContext(&decompressor_, LZ4F_VERSION))) {
      decompressor_ = nullptr;
      throw OutOfMemory("cannot create an lz4 frame decompression context");
    }
    LZ4F_resetDecompressionContext(decompressor_);
    try {
      decompress_frames(data, size, out, out_size);
    } catch (...) {
      // liblz4's reset leaves some state of a failed frame behind (the remaining content size
      // of a header that declared one), which would fail the next, valid frame: start afresh.
      LZ4F_freeDecompressionContext(decompressor_);
      decompressor_ = nullptr;
      if (LZ4F_isError(LZ4F_createDecompressionContext(&decompressor_, LZ4F_VERSION))) {
        decompressor_ = nullptr;
      }
      throw;
    }
  }

 private:
  void decompress_frames(const uint8_t* data, int64_t size, uint8_t* out, int64_t out_size) {
    auto input_left = static_cast<size_t>(size);
    auto output_left = static_cast<size_t>(out_size);
    uint8_t overflow[64];
    while (true) {
      const bool full = output_left == 0;
      size_t consumed = input_left;
      size_t produced = full ? sizeof(overflow) : output_left;
      const size_t hint = LZ4F_decompress(decompressor_, full ? overflow : out, &produced, data,
                                          &consumed, nullptr);
      if (LZ4F_isError(hint)) {
        throw FormatError("lz4 frame data is corrupt: " + std::string(LZ4F_getErrorName(hint)) +
                          " after " + std::to_string(size - static_cast<int64_t>(input_left)) +
                          " of " + std::to_string(size) + " compressed bytes");
      }
      if (full && produced > 0) {
        throw FormatError("lz4 frame data decompresses to more than the expected " +
                          std::to_string(out_size) + " bytes");
      }
      data += consumed;
      input_left -= consumed;
      if (!full) {
        out += produced;
        output_left -= produced;
      }
      if (hint == 0 && input_left == 0) {
        break;  // The last frame is complete.
      }
      if (consumed == 0 && produced == 0) {
        if (input_left == 0) {
          throw FormatError("lz4 frame data is truncated: the frame is incomplete after " +
                            std::to_string(size) + " compressed bytes (" +
                            std::to_string(out_size - static_cast<int64_t>(output_left)) +
                            " bytes decompressed, " + std::to_string(out_size) + " expected)");
        }
        throw FormatError("lz4 frame data is corrupt: decoding stalls " +
                          std::to_string(input_left) + " bytes before the end");
      }
    }
    if (output_left != 0) {
      throw FormatError("lz4 frame data decompresses to " +
                        std::to_string(out_size - static_cast<int64_t>(output_left)) +
                        " bytes, expected " + std::to_string(out_size));
    }
  }

  LZ4F_preferences_t preferences_{};
  LZ4F_dctx* decompressor_ = nullptr;
};

class ZstdCodec final : public Codec {
 public:
  explicit ZstdCodec(std::optional<int> level)
      : level_(checked_level(Compression::kZstd, level, ZSTD_minCLevel(), ZSTD_maxCLevel(),
                             kZstdDefaultLevel)),
        compressor_(ZSTD_createCCtx()),
        decompressor_(ZSTD_createDCtx()) {
    if (compressor_ == nullptr || decompressor_ == nullptr) {
      ZSTD_freeCCtx(compressor_);
      ZSTD_freeDCtx(decompressor_);
      throw OutOfMemory("cannot create zstd compression contexts");
    }
  }
  ~ZstdCodec() override {
    ZSTD_freeCCtx(compressor_);
    ZSTD_freeDCtx(decompressor_);
  }
  ZstdCodec(const ZstdCodec&) = delete;
  ZstdCodec& operator=(const ZstdCodec&) = delete;

  Compression compression() const override { return Compression::kZstd; }

  int64_t max_compressed_size(int64_t size) const override {
    check_sizes(size, 0, "input size", "");
    const size_t bound = ZSTD_compressBound(static_cast<size_t>(size));
    if (ZSTD_isError(bound)) {
      throw InvalidArgument("zstd cannot compress " + std::to_string(size) +
                            " bytes in one frame: " + ZSTD_getErrorName(bound));
    }
    return static_cast<int64_t>(bound);
  }

  int64_t compress(const uint8_t* data, int64_t size, uint8_t* out, int64_t out_capacity) override {
    check_capacity(*this, size, out_capacity);
    const size_t written = ZSTD_compressCCtx(compressor_, out, static_cast<size_t>(out_capacity),
                                             data, static_cast<size_t>(size), level_);
    if (ZSTD_isError(written)) {
      if (ZSTD_getErrorCode(written) == ZSTD_error_memory_allocation) {
        throw OutOfMemory("zstd compression could not allocate its working memory");
      }
      throw InvalidArgument("zstd compression of " + std::to_string(size) +
                            " bytes failed: " + ZSTD_getErrorName(written));
    }
    return static_cast<int64_t>(written);
  }

  void decompress(const uint8_t* data, int64_t size, uint8_t* out, int64_t out_size) override {
    check_sizes(size, out_size, "input size", "output size");
    if (size == 0) {
      throw FormatError("zstd data is empty: expected a frame decompressing to " +
                        std::to_string(out_size) + " bytes");
    }
    const size_t produced = ZSTD_decompressDCtx(decompressor_, out, static_cast<size_t>(out_size),
                                                data, static_cast<size_t>(size));
    if (ZSTD_isError(produced)) {
      switch (ZSTD_getErrorCode(produced)) {
        case ZSTD_error_dstSize_tooSmall:
          throw FormatError("zstd data decompresses to more than the expected " +
                            std::to_string(out_size) + " bytes");
        case ZSTD_error_srcSize_wrong:
          throw FormatError("zstd data is truncated or has trailing bytes: " +
                            std::string(ZSTD_getErrorName(produced)) + " (" + std::to_string(size) +
                            " compressed bytes)");
        case ZSTD_error_memory_allocation:
          throw OutOfMemory("zstd decompression could not allocate its working memory");
        default:
          throw FormatError("zstd data is corrupt: " + std::string(ZSTD_getErrorName(produced)));
      }
    }
    if (static_cast<int64_t>(produced) != out_size) {
      throw FormatError("zstd data decompresses to " + std::to_string(produced) +
                        " bytes, expected " + std::to_string(out_size));
    }
  }

 private:
  int level_;
  ZSTD_CCtx* compressor_;
  ZSTD_DCtx* decompressor_;
};

}  // namespace

std::unique_ptr<Codec> Codec::make(Compression compression, std::optional<int> level) {
  switch (compression) {
    case Compression::kLz4Frame:
      return std::make_unique<Lz4FrameCodec>(level);
    case Compression::kZstd:
      return std::make_unique<ZstdCodec>(level);
    case Compression::kNone:
      break;
  }
  throw InvalidArgument("no codec for compression '" + std::string(compression_name(compression)) +
                        "': choose lz4 or zstd");
}

}  // namespace bowstring
