#pragma once

#include <optional>

#include "bowstring/table/record_batch.h"
#include "bowstring/table/schema.h"

namespace bowstring {

class Table;

/// A sequence of record batches sharing one schema, read one at a time (an IPC stream, a
/// table's chunks, an imported C stream, a query's output).
class RecordBatchReader {
 public:
  virtual ~RecordBatchReader() = default;
  virtual SchemaPtr schema() const = 0;
  /// The next batch, or nullopt at the end. Errors in the data throw (for IPC, `FormatError`
  /// naming the message); after an error the reader must not be used again.
  virtual std::optional<RecordBatch> next() = 0;
  /// Every remaining batch as one table (zero-copy: the batches become the chunks).
  Table read_all();
};

}  // namespace bowstring
