#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/array/equal.h"
#include "bowstring/array/pretty_print.h"
#include "bowstring/table/schema.h"

namespace bowstring {

/// Equal-length columns described by a schema: the unit of data that flows between operators.
/// A cheap copyable value (the schema and the column arrays are shared, never copied).
class RecordBatch {
 public:
  /// Checks that there is one column per field, that every column has `num_rows` values and
  /// the type of its field. Throws `InvalidArgument` (count, length, missing data) or
  /// `TypeError` (type), naming the column.
  RecordBatch(SchemaPtr schema, int64_t num_rows, std::vector<Array> columns);
  /// As above, with the number of rows taken from the first column (0 without columns).
  RecordBatch(SchemaPtr schema, std::vector<Array> columns);

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const std::vector<Array>& columns() const { return columns_; }
  /// Column `i`; throws `IndexError` naming the columns when out of range.
  const Array& column(int i) const;
  /// The column named exactly `name`; throws `InvalidArgument` when there is none or several.
  const Array& column(std::string_view name) const;
  const std::string& column_name(int i) const { return schema_->field(i)->name(); }

  /// `length` rows from `offset`: every column sliced, zero-copy (O(number of columns),
  /// independent of the number of rows).
  RecordBatch slice(int64_t offset, int64_t length) const;
  RecordBatch slice(int64_t offset) const;

  /// The columns at `indices`, in that order (repeats allowed); schema metadata is kept.
  RecordBatch select(const std::vector<int>& indices) const;
  /// The columns named `names`, in that order.
  RecordBatch select(const std::vector<std::string>& names) const;
  /// A batch with `column`, described by `field`, inserted before column `i`.
  RecordBatch add_column(int i, FieldPtr field, Array column) const;
  RecordBatch remove_column(int i) const;

  /// `Array::validate` on every column; a `FormatError` names the column.
  void validate() const;
  /// `Array::validate_full` on every column; a `FormatError` names the column.
  void validate_full() const;

  /// Equal schemas (metadata only when `check_metadata`) and equal columns.
  bool equals(const RecordBatch& other, bool check_metadata = false) const;
  /// As above, comparing values as `arrays_equal` does with `options`; `check_metadata` applies
  /// to the schemas too.
  bool equals(const RecordBatch& other, const EqualOptions& options) const;
  /// The schema, a `----` line, then one `name: [values]` line per column.
  std::string to_string(const PrettyPrintOptions& options = {}) const;

 private:
  /// Checks the column count, lengths and types against the schema.
  void check_columns();

  SchemaPtr schema_;
  int64_t num_rows_;
  std::vector<Array> columns_;
};

}  // namespace bowstring
