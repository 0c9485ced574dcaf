#include "bowstring/table/record_batch.h"

#include "bowstring/util/error.h"

namespace bowstring {

namespace {

std::string describe_column(const Schema& schema, size_t i) {
  return "column '" + schema.field(static_cast<int>(i))->name() + "' (index " + std::to_string(i) +
         ")";
}

/// Rethrows a column's validation error with the column named.
template <typename Check>
void validate_columns(const Schema& schema, const std::vector<Array>& columns, const Check& check) {
  for (size_t i = 0; i < columns.size(); ++i) {
    try {
      check(columns[i]);
    } catch (const FormatError& error) {
      throw FormatError(describe_column(schema, i) + ": " + error.what());
    }
  }
}

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
  if (schema_ == nullptr) {
    throw InvalidArgument("a record batch needs a schema");
  }
  if (num_rows_ < 0) {
    throw InvalidArgument("a record batch cannot have " + std::to_string(num_rows_) + " rows");
  }
  if (static_cast<int64_t>(columns_.size()) != schema_->num_fields()) {
    throw InvalidArgument("the schema has " + std::to_string(schema_->num_fields()) + " fields (" +
                          schema_->describe_names() + ") but " + std::to_string(columns_.size()) +
                          " columns were given");
  }
  for (size_t i = 0; i < columns_.size(); ++i) {
    const Array& column = columns_[i];
    if (!column) {
      throw InvalidArgument(describe_column(*schema_, i) + " has no data");
    }
    if (column.length() != num_rows_) {
      throw InvalidArgument(describe_column(*schema_, i) + " has " +
                            std::to_string(column.length()) + " rows, expected " +
                            std::to_string(num_rows_));
    }
    const TypePtr& expected = schema_->field(static_cast<int>(i))->type();
    if (!column.type()->equals(*expected)) {
      throw TypeError(describe_column(*schema_, i) + " has type " + column.type()->to_string() +
                      " but its field has type " + expected->to_string());
    }
  }
}

const Array& RecordBatch::column(int i) const {
  if (i < 0 || i >= num_columns()) {
    throw IndexError("column index " + std::to_string(i) + " is outside a record batch of " +
                     std::to_string(num_columns()) + " columns (" + schema_->describe_names() +
                     ")");
  }
  return columns_[static_cast<size_t>(i)];
}

const Array& RecordBatch::column(std::string_view name) const {
  return columns_[static_cast<size_t>(schema_->field_index(name))];
}

RecordBatch RecordBatch::slice(int64_t offset, int64_t length) const {
  if (offset < 0 || length < 0 || offset > num_rows_ || length > num_rows_ - offset) {
    throw IndexError("slice [" + std::to_string(offset) + ", +" + std::to_string(length) +
                     ") is outside a record batch of " + std::to_string(num_rows_) + " rows");
  }
  std::vector<Array> sliced;
  sliced.reserve(columns_.size());
  for (const Array& column : columns_) {
    sliced.push_back(column.slice(offset, length));
  }
  return RecordBatch(schema_, length, std::move(sliced));
}

RecordBatch RecordBatch::slice(int64_t offset) const {
  if (offset < 0 || offset > num_rows_) {
    throw IndexError("slice offset " + std::to_string(offset) + " is outside a record batch of " +
                     std::to_string(num_rows_) + " rows");
  }
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
  validate_columns(*schema_, columns_, [](const Array& column) { column.validate(); });
}

void RecordBatch::validate_full() const {
  validate_columns(*schema_, columns_, [](const Array& column) { column.validate_full(); });
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
  const std::string indent(static_cast<size_t>(std::max(options.indent, 0)), ' ');
  PrettyPrintOptions column_options = options;
  column_options.indent = 0;
  std::string out;
  for (const FieldPtr& field : schema_->fields()) {
    out += indent;
    out += field->to_string();
    out += '\n';
  }
  out += indent;
  out += "----";
  for (size_t i = 0; i < columns_.size(); ++i) {
    out += '\n';
    out += indent;
    out += schema_->fields()[i]->name();
    out += ": ";
    out += pretty_print(columns_[i], column_options);
  }
  return out;
}

}  // namespace bowstring
