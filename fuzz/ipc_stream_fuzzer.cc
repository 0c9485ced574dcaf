// Arbitrary bytes into the IPC stream reader, with full validation (the default for untrusted
// data). Reading must either give batches that validate, print and compare, or throw
// FormatError (NotImplemented for valid data using a feature we do not read); any other
// exception, a sanitizer report, a hang or a crash is a bug. The input is wrapped, not copied,
// so that a read past its end is caught by AddressSanitizer.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/util/error.h"
#include "ipc_fuzzing.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  const auto input = bowstring::Buffer::wrap(bytes, static_cast<int64_t>(size), nullptr);
  try {
    auto reader =
        bowstring::ipc::StreamReader::open(std::make_shared<bowstring::BufferInputStream>(input));
    while (std::optional<bowstring::RecordBatch> batch = reader->next()) {
      bowstring::fuzz::use_batch(*batch);
    }
  } catch (const bowstring::FormatError&) {
  } catch (const bowstring::NotImplemented&) {
  }
  return 0;
}
