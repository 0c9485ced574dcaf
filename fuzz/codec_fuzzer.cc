// Arbitrary bytes into Codec::decompress of the lz4 frame and zstd codecs (layout in
// codec_input.h). Every input must either decompress to exactly the expected size or throw
// FormatError; any other exception, a sanitizer report or a crash is a bug. What does decompress
// must compress and decompress back to itself, as must the raw input.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "bowstring/interchange/compression.h"
#include "bowstring/util/error.h"
#include "codec_input.h"

namespace {

using bowstring::Codec;
using bowstring::Compression;

// One codec of each kind for the whole run, as readers keep them: a failed call must leave the
// codec ready for the next.
Codec& codec_for(Compression compression) {
  static const std::unique_ptr<Codec> lz4 = Codec::make(Compression::kLz4Frame);
  static const std::unique_ptr<Codec> zstd = Codec::make(Compression::kZstd);
  return compression == Compression::kZstd ? *zstd : *lz4;
}

void check_round_trip(Codec& codec, const uint8_t* data, int64_t size) {
  std::vector<uint8_t> compressed(static_cast<size_t>(codec.max_compressed_size(size)));
  const int64_t written =
      codec.compress(data, size, compressed.data(), static_cast<int64_t>(compressed.size()));
  std::vector<uint8_t> back(static_cast<size_t>(size));
  codec.decompress(compressed.data(), written, back.data(), size);
  if (size > 0 && std::memcmp(back.data(), data, static_cast<size_t>(size)) != 0) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  bowstring::fuzz::CodecInput input{};
  if (!bowstring::fuzz::parse_codec_input(bytes, size, input)) {
    return 0;
  }
  Codec& codec = codec_for(input.compression);
  check_round_trip(codec, input.data, static_cast<int64_t>(input.size));
  std::vector<uint8_t> out(static_cast<size_t>(input.out_size));
  try {
    codec.decompress(input.data, static_cast<int64_t>(input.size), out.data(), input.out_size);
  } catch (const bowstring::FormatError&) {
    return 0;
  }
  check_round_trip(codec, out.data(), input.out_size);
  return 0;
}
