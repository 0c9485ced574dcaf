#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "bowstring/memory/buffer.h"
#include "bowstring/util/unique_fd.h"

/// Anonymous memory files (`memfd_create`) for batches crossing between the engine and its
/// workers: the sender fills one and passes its descriptor over a Unix socket, the receiver
/// maps it and reads the data where it lies.
namespace bowstring::udf {

/// A new memory file of `size` bytes (zero-filled), close-on-exec and open to sealing. `name`
/// shows in /proc/<pid>/maps and /proc/<pid>/fd ("memfd:<name>"). Throws `IoError`.
UniqueFd create_shared_memory(const std::string& name, int64_t size);

/// Writes `parts` one after the other into the memory file `fd` from its start (`pwritev`, so
/// no mapping of it is made and unmade: the kernel copies into the file's pages). Throws
/// `IoError`.
void write_shared_memory(int fd, std::span<const std::span<const uint8_t>> parts);

/// Forbids any further change of the memory file's size or contents (`F_SEAL_SHRINK`,
/// `F_SEAL_GROW`, `F_SEAL_WRITE`, `F_SEAL_SEAL`), so a receiver's mapping can never lose its
/// pages. No writable mapping of it may remain. Throws `IoError`.
void seal_shared_memory(int fd);

/// The first `length` bytes of the memory file `fd`, mapped read-only, as a buffer that unmaps
/// them when the last reference to it (or to a slice of it) goes; the descriptor itself may be
/// closed at once. `what` names the file in errors ("SHM_BATCH from worker 3"): `IoError` when
/// the file is not sealed against shrinking and writing, is shorter than `length` (fstat) or
/// cannot be mapped. An empty length gives an
/// empty buffer without mapping anything.
std::shared_ptr<Buffer> map_shared_memory(int fd, int64_t length, const std::string& what);

}  // namespace bowstring::udf
