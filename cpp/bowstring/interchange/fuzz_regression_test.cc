// Inputs on which the fuzzers once found a bug (fuzz/regressions/<fuzzer>/), replayed through the
// readers as the fuzz targets do: each must give valid batches or a FormatError. Under the
// sanitizer build (`make sanitize`) this also checks that the original fault is gone.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/testing/source_tree.h"
#include "bowstring/util/error.h"

namespace bowstring::ipc {
namespace {

std::vector<std::filesystem::path> regression_inputs(const std::string& fuzzer) {
  std::vector<std::filesystem::path> inputs;
  for (const auto& entry : std::filesystem::directory_iterator(
           testing::source_tree_path("fuzz/regressions/" + fuzzer))) {
    inputs.push_back(entry.path());
  }
  return inputs;
}

std::shared_ptr<Buffer> contents(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return Buffer::copy_of(bytes.data(), static_cast<int64_t>(bytes.size()));
}

void use(const RecordBatch& batch) {
  batch.validate_full();
  static_cast<void>(batch.to_string());
}

TEST(FuzzRegressions, StreamReader) {
  const std::vector<std::filesystem::path> inputs = regression_inputs("ipc_stream");
  ASSERT_FALSE(inputs.empty());
  for (const std::filesystem::path& input : inputs) {
    SCOPED_TRACE(input.filename().string());
    try {
      auto reader = StreamReader::open(std::make_shared<BufferInputStream>(contents(input)));
      while (std::optional<RecordBatch> batch = reader->next()) {
        use(*batch);
      }
    } catch (const FormatError&) {
    }
  }
}

TEST(FuzzRegressions, FileReader) {
  const std::vector<std::filesystem::path> inputs = regression_inputs("ipc_file");
  ASSERT_FALSE(inputs.empty());
  for (const std::filesystem::path& input : inputs) {
    SCOPED_TRACE(input.filename().string());
    try {
      auto reader = FileReader::open(std::make_shared<BufferSource>(contents(input)));
      for (int i = 0; i < reader->num_record_batches(); ++i) {
        use(reader->record_batch(i));
      }
    } catch (const FormatError&) {
    }
  }
}

}  // namespace
}  // namespace bowstring::ipc
