// Arbitrary bytes into the IPC file reader, with full validation: open (magic, footer, schema,
// dictionaries), then every record batch by random access. Outcomes as for the stream fuzzer:
// valid batches or FormatError (or NotImplemented), nothing else.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/util/error.h"
#include "ipc_fuzzing.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  const auto input = bowstring::Buffer::wrap(bytes, static_cast<int64_t>(size), nullptr);
  try {
    auto reader =
        bowstring::ipc::FileReader::open(std::make_shared<bowstring::BufferSource>(input));
    for (int i = reader->num_record_batches() - 1; i >= 0; --i) {
      bowstring::fuzz::use_batch(reader->record_batch(i));
    }
  } catch (const bowstring::FormatError&) {
  } catch (const bowstring::NotImplemented&) {
  }
  return 0;
}
