#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bowstring/interchange/io.h"
#include "bowstring/io/csv/csv_options.h"
#include "bowstring/table/record_batch_reader.h"

namespace bowstring::io::csv {

class ColumnFormatter;

/// Writes record batches as CSV text as Spark's CSV writer (univocity) does: values formatted
/// as Spark prints them (`Double.toString`, `BigDecimal.toString`, dates and timestamps with
/// `dateFormat`/`timestampFormat` in the `timeZone`), surrounding whitespace trimmed
/// (`ignoreLeadingWhiteSpace`/`ignoreTrailingWhiteSpace`, on by default when writing), values
/// holding the separator, the quote or a line break quoted, quotes inside escaped with
/// `escape`; nulls as `nullValue`, empty strings as `emptyValue`.
class CsvWriter {
 public:
  /// Throws `NotImplemented` naming the column for types CSV cannot hold (binary, nested).
  CsvWriter(std::shared_ptr<OutputStream> sink, SchemaPtr schema, CsvWriteOptions options);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  /// Throws `InvalidArgument` when the batch's schema is not the writer's.
  void write(const RecordBatch& batch);
  /// Writes the header if no batch came, then finishes the compressed stream and closes the
  /// sink.
  void close();

 private:
  void write_header();
  // Appends `text` to `out`, trimmed, quoted and escaped as the options say.
  void append_value(std::string_view text, std::string& out) const;
  // Whether a formatted value must go through `append_value` (quoting, escaping, trimming).
  bool needs_care(std::string_view text) const;
  // Appends rows [begin, end) of the bound batch to `out`.
  void format_rows(int64_t begin, int64_t end, std::string& out) const;

  std::shared_ptr<OutputStream> sink_;
  SchemaPtr schema_;
  CsvWriteOptions options_;
  std::vector<std::unique_ptr<ColumnFormatter>> formatters_;
  std::string buffer_;
  std::vector<std::string> slice_texts_;
  bool header_written_ = false;
};

/// Writes every batch of `batches` to a new file at `path` (compressed per
/// `options.compression`). Throws `IoError` naming the path when it cannot be written.
void write_csv(RecordBatchReader& batches, const std::string& path, const CsvWriteOptions& options);

}  // namespace bowstring::io::csv
