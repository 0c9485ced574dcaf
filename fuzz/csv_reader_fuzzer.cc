// Arbitrary bytes through the CSV reader and back through the writer (input layout and checks
// in bowstring/testing/csv_fuzz_input.h). Any exception other than FAILFAST's FormatError, a
// sanitizer report or a crash is a bug.

#include <cstddef>
#include <cstdint>

#include "bowstring/testing/csv_fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  bowstring::testing::csv_fuzz::run(bytes, size);
  return 0;
}
