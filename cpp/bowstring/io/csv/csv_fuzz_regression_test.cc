// Inputs on which the CSV fuzzer once found a bug (fuzz/regressions/csv_reader/), replayed as
// the fuzz target runs them. Under the sanitizer build this also checks the fault is gone.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "bowstring/testing/csv_fuzz_input.h"
#include "bowstring/testing/source_tree.h"

namespace bowstring::io::csv {
namespace {

TEST(CsvFuzzRegressions, ReadAndWriteBack) {
  int inputs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(
           bowstring::testing::source_tree_path("fuzz/regressions/csv_reader"))) {
    SCOPED_TRACE(entry.path().filename().string());
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_NO_THROW(bowstring::testing::csv_fuzz::run(
        reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    ++inputs;
  }
  EXPECT_GT(inputs, 0);
}

}  // namespace
}  // namespace bowstring::io::csv
