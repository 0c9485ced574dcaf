#include "bowstring/table/record_batch.h"

#include "bowstring/table/column_set.h"
#include "bowstring/util/error.h"

namespace bowstring {

namespace {

constexpr std::string_view kRecordBatchName = "record batch";

}  // namespace

RecordBatch::RecordBatch(SchemaPtr schema, int64_t num_rows, std::vector<Array> columns)
    : schema_(std::move(schema)), num_rows_(num_rows), columns_(std::move(columns)) {
  check_columns();
}

RecordBatch::RecordBatch(SchemaPtr schema, std::vector<Array> columns)
    : schema_(std::move(schema)), num_rows_(0), columns_(std::move(columns)) {
  if (!columns_.empty() && columns_[0]) {
    num_rows_ = columns_[0].length();
  }
  check_columns();
}

void RecordBatch::check_columns() {
  detail::check_columns(kRecordBatchName, schema_.get(), num_rows_, columns_);
}

const Array& RecordBatch::column(int i) const {
  detail::check_column_index(kRecordBatchName, i, *schema_);
  return columns_[static_cast<size_t>(i)];
}

const Array& RecordBatch::column(std::string_view name) const {
  return columns_[static_cast<size_t>(schema_->field_index(name))];
}

RecordBatch RecordBatch::slice(int64_t offset, int64_t length) const {
  return RecordBatch(schema_, length,
                     detail::slice_columns(kRecordBatchName, columns_, num_rows_, offset, length));
}

RecordBatch RecordBatch::slice(int64_t offset) const {
  detail::check_slice_offset(kRecordBatchName, offset, num_rows_);
  return slice(offset, num_rows_ - offset);
}

RecordBatch RecordBatch::select(const std::vector<int>& indices) const {
  FieldVector fields;
  std::vector<Array> columns;
  fields.reserve(indices.size());
  columns.reserve(indices.size());
  for (const int i : indices) {
    columns.push_back(column(i));
    fields.push_back(schema_->field(i));
  }
  return RecordBatch(std::make_shared<Schema>(std::move(fields), schema_->metadata()), num_rows_,
                     std::move(columns));
}

RecordBatch RecordBatch::select(const std::vector<std::string>& names) const {
  std::vector<int> indices;
  indices.reserve(names.size());
  for (const std::string& name : names) {
    indices.push_back(schema_->field_index(name));
  }
  return select(indices);
}

RecordBatch RecordBatch::add_column(int i, FieldPtr field, Array column) const {
  SchemaPtr schema = schema_->add_field(i, std::move(field));
  std::vector<Array> columns = columns_;
  columns.insert(columns.begin() + i, std::move(column));
  return RecordBatch(std::move(schema), num_rows_, std::move(columns));
}

RecordBatch RecordBatch::remove_column(int i) const {
  SchemaPtr schema = schema_->remove_field(i);
  std::vector<Array> columns = columns_;
  columns.erase(columns.begin() + i);
  return RecordBatch(std::move(schema), num_rows_, std::move(columns));
}

void RecordBatch::validate() const {
  detail::validate_columns(*schema_, columns_, ": ",
                           [](const Array& column) { column.validate(); });
}

void RecordBatch::validate_full() const {
  detail::validate_columns(*schema_, columns_, ": ",
                           [](const Array& column) { column.validate_full(); });
}

bool RecordBatch::equals(const RecordBatch& other, bool check_metadata) const {
  EqualOptions options;
  options.check_metadata = check_metadata;
  return equals(other, options);
}

bool RecordBatch::equals(const RecordBatch& other, const EqualOptions& options) const {
  if (num_rows_ != other.num_rows_ || !schema_->equals(*other.schema_, options.check_metadata)) {
    return false;
  }
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (!arrays_equal(columns_[i], other.columns_[i], options)) {
      return false;
    }
  }
  return true;
}

std::string RecordBatch::to_string(const PrettyPrintOptions& options) const {
  return detail::columns_to_string(
      *schema_, columns_, options,
      [](const Array& column, const PrettyPrintOptions& column_options) {
        return pretty_print(column, column_options);
      });
}

}  // namespace bowstring
