// Writes valid codec_fuzzer inputs into the directory given as the only argument: frames of
// both codecs at a few levels, over empty, short, repetitive and random data.

#include <cstdint>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bowstring/interchange/compression.h"
#include "codec_input.h"

namespace {

using bowstring::Codec;
using bowstring::Compression;

std::string compress(Codec& codec, const std::string& data) {
  std::string out(static_cast<size_t>(codec.max_compressed_size(static_cast<int64_t>(data.size()))),
                  '\0');
  const int64_t written = codec.compress(
      reinterpret_cast<const uint8_t*>(data.data()), static_cast<int64_t>(data.size()),
      reinterpret_cast<uint8_t*>(out.data()), static_cast<int64_t>(out.size()));
  out.resize(static_cast<size_t>(written));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " CORPUS_DIRECTORY\n";
    return 2;
  }
  const std::string directory = argv[1];
  std::mt19937 generator(1);
  std::string random(5000, '\0');
  for (char& byte : random) {
    byte = static_cast<char>(generator());
  }
  std::string repetitive;
  while (repetitive.size() < 100000) {
    repetitive += "bowstring arrow " + std::to_string(repetitive.size() % 977) + "\n";
  }
  const std::vector<std::pair<std::string, std::string>> samples = {
      {"empty", ""}, {"short", "hello arrow"}, {"random", random}, {"repetitive", repetitive}};
  int written = 0;
  for (Compression compression : {Compression::kLz4Frame, Compression::kZstd}) {
    for (std::optional<int> level : {std::optional<int>(), std::optional<int>(9)}) {
      const std::unique_ptr<Codec> codec = Codec::make(compression, level);
      std::string prefix = directory + "/";
      prefix += compression_name(compression);
      prefix += level ? "_level" + std::to_string(*level) : "_default";
      for (const auto& [name, data] : samples) {
        std::string path = prefix;
        path += "_";
        path += name;
        std::ofstream out(path, std::ios::binary);
        out << bowstring::fuzz::encode_codec_input(compression, static_cast<int64_t>(data.size()),
                                                   compress(*codec, data));
        if (!out) {
          std::cerr << "cannot write " << path << "\n";
          return 1;
        }
        ++written;
      }
    }
  }
  std::cout << "wrote " << written << " seeds to " << directory << "\n";
  return 0;
}
