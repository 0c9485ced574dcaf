#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/io/csv/csv_options.h"
#include "bowstring/table/record_batch_reader.h"
#include "bowstring/table/schema.h"

namespace bowstring::io::csv {

/// What a CSV read produces: which files, with which schema, and which of its columns.
struct CsvReadRequest {
  std::vector<std::string> paths;
  CsvReadOptions options;
  /// The schema of the files' columns (Spark's `schema`); null to take it from the data: the
  /// header's names (or _c0, _c1...) with types inferred (`inferSchema`) or strings. A string
  /// field named `columnNameOfCorruptRecord` receives the raw text of malformed records in
  /// PERMISSIVE mode and is not matched with a field of the file.
  SchemaPtr schema;
  /// Indices of the schema's columns to produce, in the order wanted (a projection); unset for
  /// all. Columns not asked for are split out of the records but never converted.
  std::optional<std::vector<int>> columns;
};

/// The schema a read of `request` has (before projection): `request.schema` when given
/// (checked against the header when `enforceSchema` is false), else derived from the files.
SchemaPtr resolve_csv_schema(const CsvReadRequest& request);

/// Reads the files of `request` one after the other, each split into byte ranges parsed in
/// parallel on the process-wide pool (a file read with `multiLine` is one range: quoted line
/// breaks make any split point ambiguous). Batches come in file order with at most
/// `options.batch_rows` rows. Malformed records follow `options.mode`; in FAILFAST mode the
/// error (`FormatError`, Spark's MALFORMED_RECORD_IN_PARSING) names the file, the line and
/// the column. Files that cannot be read throw `IoError` naming them.
std::unique_ptr<RecordBatchReader> read_csv(CsvReadRequest request);

/// The records of the byte range [offset, offset + length) of the file `path`, whose columns
/// are `schema`'s: the columns `columns` of the records that start in the range. A range that
/// does not start the file starts after the first line break at or past `offset`, and the last
/// record is the one under way at `offset + length`, so that the ranges of a file read each
/// record once. The range at offset 0 skips the header. A file read with `multiLine`, or a
/// compressed one, is read whole by the range at offset 0 (the others read nothing). Errors as
/// `read_csv`'s, with the line counted from the start of the file.
std::vector<RecordBatch> read_csv_split(const std::string& path, int64_t offset, int64_t length,
                                        const CsvReadOptions& options, const SchemaPtr& schema,
                                        const std::vector<int>& columns);

/// Whether files at `path` can be read in ranges with `options` (not multiLine, not
/// compressed).
bool csv_splittable(const std::string& path, const CsvReadOptions& options);

/// As `read_csv` for CSV text in memory, named `name` in errors; `text` must outlive the
/// reader. For tests and fuzzing.
std::unique_ptr<RecordBatchReader> read_csv_text(std::string_view text, const std::string& name,
                                                 const CsvReadOptions& options,
                                                 SchemaPtr schema = nullptr,
                                                 std::optional<std::vector<int>> columns = {});

}  // namespace bowstring::io::csv
