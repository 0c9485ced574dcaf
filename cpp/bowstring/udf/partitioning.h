#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "bowstring/table/record_batch.h"
#include "bowstring/table/record_batch_reader.h"

/// How the input of a Python function is cut up (zero-copy): into partitions, each a run of
/// consecutive rows that one worker call processes, and into batches of bounded size, each one
/// `BATCH` frame.
namespace bowstring::udf {

/// About how many bytes the rows of `batch` take when written to an IPC stream: the bytes of the
/// values in the batch's window (validity, values, offsets and the data they address, children
/// within their ranges; a dictionary's indices but not its values, which every batch repeats),
/// estimated in proportion to the rows for layouts whose ranges are not cheap to find (views,
/// list views, dense unions, run-end encoded arrays). O(number of columns and children).
int64_t estimate_batch_bytes(const RecordBatch& batch);

/// `batch` cut into consecutive zero-copy slices of at most `max_rows` rows and about
/// `max_bytes` bytes (by the average row size of `estimate_batch_bytes`), never below one row.
/// An empty batch gives no slice. Throws `InvalidArgument` unless both limits are positive.
std::vector<RecordBatch> split_batch(const RecordBatch& batch, int64_t max_rows, int64_t max_bytes);

/// Reads a batch reader as partitions of `partition_rows` rows (the last one may be shorter):
/// a batch that crosses a partition boundary is sliced there, zero-copy. Empty batches are
/// skipped. Not thread safe.
class Partitioner {
 public:
  /// Throws `InvalidArgument` unless `partition_rows` is positive.
  Partitioner(RecordBatchReader& input, int64_t partition_rows);

  /// The next partition's batches, or nullopt once the input is exhausted (so empty input has
  /// no partition). Errors of the input reader propagate.
  std::optional<std::vector<RecordBatch>> next();

 private:
  RecordBatchReader& input_;
  int64_t partition_rows_;
  /// The rows of the last batch read that belong to the next partition.
  std::optional<RecordBatch> carried_;
  bool exhausted_ = false;
};

}  // namespace bowstring::udf
