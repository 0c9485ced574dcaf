#pragma once

// Record batches and IPC bodies assembled for the interchange tests.

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/interchange/body.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/table/record_batch.h"

namespace bowstring::testing {

/// A batch of the named `columns` (nullable fields), as long as the first one.
RecordBatch batch_of(const std::vector<std::pair<std::string, Array>>& columns,
                     Metadata metadata = {});

/// The body's buffers laid out as one contiguous body, as a writer sends it.
std::shared_ptr<Buffer> flatten(const ipc::EncodedBody& body);

/// Calls `use` with copies of `data` that differ from it in one byte, for every byte and for
/// several bit flips (the lowest bit, the highest, all of them).
void for_each_flipped_byte(const Buffer& data,
                           const std::function<void(std::shared_ptr<Buffer>)>& use);

}  // namespace bowstring::testing
