#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/compute/core/exec_context.h"
#include "bowstring/expr/bind.h"
#include "bowstring/io/files/file_set.h"
#include "bowstring/table/record_batch.h"
#include "bowstring/table/schema.h"

namespace bowstring::io {

/// What a scan asks a format to read of one split.
struct SplitRead {
  const DataFile* file = nullptr;
  FileSplit split;
  /// The schema of the files' columns, as `FileFormat::infer_schema` gave it (or the user).
  SchemaPtr data_schema;
  /// The columns of `data_schema` to produce, in this order (possibly none: only rows count).
  std::vector<int> columns;
  /// Null, or a predicate bound to the schema of `columns`: only rows where it is true are
  /// wanted. A format may use it to skip data before converting it.
  const expr::BoundExpression* filter = nullptr;
  /// Rows per batch produced, at most.
  int64_t batch_rows = 64 * 1024;
  compute::ExecContext* context = nullptr;
};

/// Writes the rows of one output file.
class FileWriter {
 public:
  virtual ~FileWriter() = default;
  virtual void write(const RecordBatch& batch) = 0;
  /// Finishes the file; a writer that is destroyed without it leaves an incomplete file.
  virtual void close() = 0;
};

/// A file format as a data source and sink: the seam every format (CSV, Arrow IPC, JSON
/// lines...) plugs into. Formats are immutable once made and used from many threads at once.
class FileFormat {
 public:
  virtual ~FileFormat() = default;
  /// Spark's short name of the format: "csv", "arrow".
  virtual std::string_view name() const = 0;
  /// How Spark's plans name it ("Format: CSV").
  virtual std::string_view display_name() const = 0;
  /// The schema of the files' own columns (partition columns come from their folders): the
  /// user's when given, else read or inferred from `files`.
  virtual SchemaPtr infer_schema(const std::vector<DataFile>& files) const = 0;
  /// Whether the schema is the user's: then the files hold none of its partition columns.
  virtual bool user_schema() const = 0;
  /// Whether `file` can be read in several byte ranges.
  virtual bool splittable(const DataFile& file) const = 0;
  /// The rows of one split as batches of the requested columns. Rows belong to the split in
  /// which they start, so that the splits of a file together read each row once. Returns only
  /// rows where `read.filter` holds (`keep_matching` applies it).
  virtual std::vector<RecordBatch> read(const SplitRead& read) const = 0;
  /// The ending of the files written: "csv", "csv.gz", "arrow".
  virtual std::string extension() const = 0;
  /// Creates the file `path` for rows of `schema`. Throws `NotImplemented` naming the column
  /// when the format cannot hold one of its types.
  virtual std::unique_ptr<FileWriter> open_writer(const std::string& path,
                                                  const SchemaPtr& schema) const = 0;
};

using FileFormatPtr = std::shared_ptr<const FileFormat>;

/// `batch`'s rows where `filter` (bound to its schema; null: every row) is true.
RecordBatch keep_matching(const RecordBatch& batch, const expr::BoundExpression* filter,
                          compute::ExecContext& context);

}  // namespace bowstring::io
