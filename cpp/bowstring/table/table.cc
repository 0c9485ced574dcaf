#include "bowstring/table/table.h"

#include <algorithm>

#include "bowstring/table/column_set.h"
#include "bowstring/util/error.h"

namespace bowstring {

namespace {

constexpr std::string_view kTableName = "table";

/// Why `actual` does not match `expected` (field count or the first differing field).
std::string describe_schema_difference(const Schema& actual, const Schema& expected) {
  if (actual.num_fields() != expected.num_fields()) {
    return "it has " + std::to_string(actual.num_fields()) + " fields (" + actual.describe_names() +
           "), the table has " + std::to_string(expected.num_fields()) + " (" +
           expected.describe_names() + ")";
  }
  for (int i = 0; i < actual.num_fields(); ++i) {
    if (!actual.field(i)->equals(*expected.field(i))) {
      return "field " + std::to_string(i) + " is '" + actual.field(i)->to_string() +
             "', expected '" + expected.field(i)->to_string() + "'";
    }
  }
  return "the schemas differ";
}

}  // namespace

Table::Table(SchemaPtr schema, int64_t num_rows, std::vector<ChunkedArray> columns)
    : schema_(std::move(schema)), num_rows_(num_rows), columns_(std::move(columns)) {
  check_columns();
}

Table::Table(SchemaPtr schema, std::vector<ChunkedArray> columns)
    : schema_(std::move(schema)), num_rows_(0), columns_(std::move(columns)) {
  if (!columns_.empty()) {
    num_rows_ = columns_[0].length();
  }
  check_columns();
}

void Table::check_columns() {
  detail::check_columns(kTableName, schema_.get(), num_rows_, columns_);
}

Table Table::from_batches(SchemaPtr schema, const std::vector<RecordBatch>& batches) {
  if (schema == nullptr) {
    throw InvalidArgument("a table needs a schema");
  }
  const auto num_fields = static_cast<size_t>(schema->num_fields());
  std::vector<std::vector<Array>> chunks(num_fields);
  int64_t num_rows = 0;
  for (size_t b = 0; b < batches.size(); ++b) {
    const RecordBatch& batch = batches[b];
    if (!batch.schema()->equals(*schema)) {
      throw InvalidArgument("record batch " + std::to_string(b) +
                            " does not match the table schema: " +
                            describe_schema_difference(*batch.schema(), *schema));
    }
    for (size_t i = 0; i < num_fields; ++i) {
      chunks[i].push_back(batch.columns()[i]);
    }
    num_rows += batch.num_rows();
  }
  std::vector<ChunkedArray> columns;
  columns.reserve(num_fields);
  for (size_t i = 0; i < num_fields; ++i) {
    columns.emplace_back(schema->field(static_cast<int>(i))->type(), std::move(chunks[i]));
  }
  return Table(std::move(schema), num_rows, std::move(columns));
}

Table Table::from_batches(const std::vector<RecordBatch>& batches) {
  if (batches.empty()) {
    throw InvalidArgument("a table built from no record batches needs an explicit schema");
  }
  return from_batches(batches[0].schema(), batches);
}

const ChunkedArray& Table::column(int i) const {
  detail::check_column_index(kTableName, i, *schema_);
  return columns_[static_cast<size_t>(i)];
}

const ChunkedArray& Table::column(std::string_view name) const {
  return columns_[static_cast<size_t>(schema_->field_index(name))];
}

Table Table::slice(int64_t offset, int64_t length) const {
  return Table(schema_, length,
               detail::slice_columns(kTableName, columns_, num_rows_, offset, length));
}

Table Table::slice(int64_t offset) const {
  detail::check_slice_offset(kTableName, offset, num_rows_);
  return slice(offset, num_rows_ - offset);
}

Table Table::combine_chunks(Allocator* allocator) const {
  std::vector<ChunkedArray> combined;
  combined.reserve(columns_.size());
  for (const ChunkedArray& column : columns_) {
    combined.push_back(column.combine_chunks(allocator));
  }
  return Table(schema_, num_rows_, std::move(combined));
}

std::vector<RecordBatch> Table::to_batches(int64_t max_rows) const {
  std::vector<RecordBatch> batches;
  TableBatchReader reader(*this, max_rows);
  while (std::optional<RecordBatch> batch = reader.next()) {
    batches.push_back(std::move(*batch));
  }
  return batches;
}

void Table::validate() const {
  detail::validate_columns(*schema_, columns_, ", ",
                           [](const ChunkedArray& column) { column.validate(); });
}

void Table::validate_full() const {
  detail::validate_columns(*schema_, columns_, ", ",
                           [](const ChunkedArray& column) { column.validate_full(); });
}

bool Table::equals(const Table& other, bool check_metadata) const {
  EqualOptions options;
  options.check_metadata = check_metadata;
  return equals(other, options);
}

bool Table::equals(const Table& other, const EqualOptions& options) const {
  if (num_rows_ != other.num_rows_ || !schema_->equals(*other.schema_, options.check_metadata)) {
    return false;
  }
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (!columns_[i].equals(other.columns_[i], options)) {
      return false;
    }
  }
  return true;
}

std::string Table::to_string(const PrettyPrintOptions& options) const {
  return detail::columns_to_string(
      *schema_, columns_, options,
      [](const ChunkedArray& column, const PrettyPrintOptions& column_options) {
        return column.to_string(column_options);
      });
}

TableBatchReader::TableBatchReader(Table table, int64_t max_rows)
    : table_(std::move(table)),
      max_rows_(max_rows),
      chunk_index_(static_cast<size_t>(table_.num_columns()), 0),
      chunk_offset_(static_cast<size_t>(table_.num_columns()), 0) {}

std::optional<RecordBatch> TableBatchReader::next() {
  int64_t count = table_.num_rows() - rows_read_;
  if (count == 0) {
    return std::nullopt;
  }
  if (max_rows_ > 0) {
    count = std::min(count, max_rows_);
  }
  const auto num_columns = static_cast<size_t>(table_.num_columns());
  // The batch ends at the nearest chunk end of any column. Rows remain, so every column has a
  // non-empty chunk ahead.
  for (size_t c = 0; c < num_columns; ++c) {
    const std::vector<Array>& chunks = table_.columns()[c].chunks();
    while (chunk_offset_[c] == chunks[static_cast<size_t>(chunk_index_[c])].length()) {
      ++chunk_index_[c];
      chunk_offset_[c] = 0;
    }
    count =
        std::min(count, chunks[static_cast<size_t>(chunk_index_[c])].length() - chunk_offset_[c]);
  }
  std::vector<Array> columns;
  columns.reserve(num_columns);
  for (size_t c = 0; c < num_columns; ++c) {
    const Array& chunk = table_.columns()[c].chunks()[static_cast<size_t>(chunk_index_[c])];
    columns.push_back(chunk_offset_[c] == 0 && count == chunk.length()
                          ? chunk
                          : chunk.slice(chunk_offset_[c], count));
    chunk_offset_[c] += count;
  }
  rows_read_ += count;
  return RecordBatch(table_.schema(), count, std::move(columns));
}

Table RecordBatchReader::read_all() {
  SchemaPtr batch_schema = schema();
  std::vector<RecordBatch> batches;
  while (std::optional<RecordBatch> batch = next()) {
    batches.push_back(std::move(*batch));
  }
  return Table::from_batches(std::move(batch_schema), batches);
}

}  // namespace bowstring
