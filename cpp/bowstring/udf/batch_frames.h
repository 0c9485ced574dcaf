#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "bowstring/interchange/ipc.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/table/record_batch.h"
#include "bowstring/udf/frame.h"
#include "bowstring/util/unique_fd.h"

/// Record batches in `BATCH` and `SHM_BATCH` frames (docs/worker-protocol.md): each batch is a
/// complete, uncompressed Arrow IPC stream (schema, dictionaries, one record batch,
/// end-of-stream marker), decodable on its own and without copying.
namespace bowstring::udf {

/// A batch encoded as a self-contained IPC stream, held in parts rather than one block: the
/// small pieces (message metadata, padding, small buffers) are copied into one staging area,
/// the column buffers are referenced where they are.
class EncodedBatch {
 public:
  /// Encodes `batch` (sliced columns are written with only their rows). Throws as
  /// `ipc::StreamWriter` does for arrays it cannot write.
  static EncodedBatch encode(const RecordBatch& batch);

  /// Total bytes of the stream.
  int64_t size() const { return size_; }
  /// The stream's bytes, in order; valid as long as this object lives.
  std::vector<std::span<const uint8_t>> parts() const;
  /// Copies the stream into `destination`, which holds at least `size()` bytes.
  void copy_to(uint8_t* destination) const;
  /// The stream in one new buffer.
  std::shared_ptr<Buffer> to_buffer(Allocator* allocator = default_allocator()) const;
  /// The stream in a new memory file of exactly `size()` bytes, sealed against changes.
  UniqueFd to_shared_memory() const;

 private:
  class Sink;
  struct Part {
    /// Index into `buffers_`, or -1 for a range of `staging_`.
    int64_t buffer = -1;
    int64_t offset = 0;
    int64_t length = 0;
  };
  std::vector<uint8_t> staging_;
  std::vector<std::shared_ptr<const Buffer>> buffers_;
  std::vector<Part> parts_;
  int64_t size_ = 0;
};

/// Sends `batch` as a `BATCH` frame; the column buffers go to the socket without being copied.
void write_batch_frame(FrameSocket& socket, const RecordBatch& batch);
/// Sends `batch` as a `SHM_BATCH` frame: the stream is written into a new memory file whose
/// descriptor travels with the frame.
void write_shm_batch_frame(FrameSocket& socket, const RecordBatch& batch);

/// The record batch a `BATCH` or `SHM_BATCH` frame carries, decoded without copying: its arrays
/// point into the frame's payload or into the mapped memory file, which they keep alive.
/// Structural checks always run; `options.validate_full` adds the checks of every value.
/// Throws `FormatError` when the frame is of another type, carries a descriptor it should not
/// (or lacks the one it should), or its stream is malformed, holds no record batch or more
/// than one, or has bytes after its end; `IoError` when the memory file cannot be mapped or is
/// shorter than the frame claims.
RecordBatch read_batch_frame(const Frame& frame, const ipc::ReadOptions& options = {});

}  // namespace bowstring::udf
