#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/array/pretty_print.h"
#include "bowstring/table/chunked_array.h"
#include "bowstring/table/record_batch.h"
#include "bowstring/table/record_batch_reader.h"
#include "bowstring/table/schema.h"

namespace bowstring {

/// Columns of equal length described by a schema, each a `ChunkedArray` whose chunk boundaries
/// need not line up with the other columns'. A cheap copyable value sharing its data.
class Table {
 public:
  /// Checks that there is one column per field, that every column has `num_rows` values and
  /// the type of its field. Throws `InvalidArgument` (count, length) or `TypeError` (type),
  /// naming the column.
  Table(SchemaPtr schema, int64_t num_rows, std::vector<ChunkedArray> columns);
  /// As above, with the number of rows taken from the first column (0 without columns).
  Table(SchemaPtr schema, std::vector<ChunkedArray> columns);

  /// The batches one after the other, zero-copy: column i of the table holds column i of every
  /// batch as its chunks. Every batch must have `schema`'s fields (metadata aside); a mismatch
  /// throws `InvalidArgument` naming the batch and the first differing field.
  static Table from_batches(SchemaPtr schema, const std::vector<RecordBatch>& batches);
  /// As above with the first batch's schema; throws `InvalidArgument` when there is no batch.
  static Table from_batches(const std::vector<RecordBatch>& batches);

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const std::vector<ChunkedArray>& columns() const { return columns_; }
  /// Column `i`; throws `IndexError` naming the columns when out of range.
  const ChunkedArray& column(int i) const;
  /// The column named exactly `name`; throws `InvalidArgument` when there is none or several.
  const ChunkedArray& column(std::string_view name) const;

  /// `length` rows from `offset`, zero-copy: every column sliced (O(total number of chunks)).
  Table slice(int64_t offset, int64_t length) const;
  Table slice(int64_t offset) const;

  /// Every column in at most one chunk (see `ChunkedArray::combine_chunks`).
  Table combine_chunks(Allocator* allocator = default_allocator()) const;

  /// The rows as record batches, zero-copy: a batch ends wherever any column's chunk ends, and
  /// holds at most `max_rows` rows when `max_rows` is positive. Empty chunks yield no batch.
  std::vector<RecordBatch> to_batches(int64_t max_rows = 0) const;

  /// Validation of every chunk of every column; a `FormatError` names the column and chunk.
  void validate() const;
  void validate_full() const;

  /// Equal schemas (metadata only when `check_metadata`) and equal column values, wherever the
  /// chunk boundaries are.
  bool equals(const Table& other, bool check_metadata = false) const;
  /// As above, comparing values as `arrays_equal` does with `options`; `check_metadata` applies
  /// to the schemas too.
  bool equals(const Table& other, const EqualOptions& options) const;
  /// The schema, a `----` line, then one `name: [[chunk] [chunk]]` line per column.
  std::string to_string(const PrettyPrintOptions& options = {}) const;

 private:
  /// Checks the column count, lengths and types against the schema.
  void check_columns();

  SchemaPtr schema_;
  int64_t num_rows_;
  std::vector<ChunkedArray> columns_;
};

/// Reads a table as a sequence of record batches without copying (see `Table::to_batches`).
/// Holds its own reference to the table's data.
class TableBatchReader final : public RecordBatchReader {
 public:
  /// Batches of at most `max_rows` rows when `max_rows` is positive.
  explicit TableBatchReader(Table table, int64_t max_rows = 0);

  SchemaPtr schema() const override { return table_.schema(); }
  /// The next batch, or nullopt once every row has been read.
  std::optional<RecordBatch> next() override;

 private:
  Table table_;
  int64_t max_rows_;
  int64_t rows_read_ = 0;
  /// Per column: the chunk being read and the position inside it.
  std::vector<int> chunk_index_;
  std::vector<int64_t> chunk_offset_;
};

}  // namespace bowstring
