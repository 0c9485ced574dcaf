#pragma once

// What RecordBatch (columns of Arrays) and Table (columns of ChunkedArrays) do alike with their
// columns: checks, slicing and printing. `what` names the container in messages ("record
// batch", "table").

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/array/pretty_print.h"
#include "bowstring/table/schema.h"
#include "bowstring/util/error.h"

namespace bowstring::detail {

inline std::string describe_column(const Schema& schema, size_t i) {
  return "column '" + schema.field(static_cast<int>(i))->name() + "' (index " + std::to_string(i) +
         ")";
}

/// Checks that `columns` match `schema` (count, type) and each has `num_rows` rows.
template <typename Column>
void check_columns(std::string_view what, const Schema* schema, int64_t num_rows,
                   const std::vector<Column>& columns) {
  if (schema == nullptr) {
    std::string message = "a ";
    message += what;
    message += " needs a schema";
    throw InvalidArgument(message);
  }
  if (num_rows < 0) {
    std::string message = "a ";
    message += what;
    message += " cannot have " + std::to_string(num_rows) + " rows";
    throw InvalidArgument(message);
  }
  if (static_cast<int64_t>(columns.size()) != schema->num_fields()) {
    throw InvalidArgument("the schema has " + std::to_string(schema->num_fields()) + " fields (" +
                          schema->describe_names() + ") but " + std::to_string(columns.size()) +
                          " columns were given");
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    const Column& column = columns[i];
    if constexpr (std::is_same_v<Column, Array>) {
      if (!column) {
        throw InvalidArgument(describe_column(*schema, i) + " has no data");
      }
    }
    if (column.length() != num_rows) {
      throw InvalidArgument(describe_column(*schema, i) + " has " +
                            std::to_string(column.length()) + " rows, expected " +
                            std::to_string(num_rows));
    }
    const TypePtr& expected = schema->field(static_cast<int>(i))->type();
    if (!column.type()->equals(*expected)) {
      throw TypeError(describe_column(*schema, i) + " has type " + column.type()->to_string() +
                      " but its field has type " + expected->to_string());
    }
  }
}

/// Rethrows a column's validation error with the column named before `separator`.
template <typename Column, typename Check>
void validate_columns(const Schema& schema, const std::vector<Column>& columns,
                      std::string_view separator, const Check& check) {
  for (size_t i = 0; i < columns.size(); ++i) {
    try {
      check(columns[i]);
    } catch (const FormatError& error) {
      std::string message = describe_column(schema, i);
      message += separator;
      message += error.what();
      throw FormatError(message);
    }
  }
}

/// `IndexError` unless 0 <= i < num_columns.
inline void check_column_index(std::string_view what, int i, const Schema& schema) {
  if (i < 0 || i >= schema.num_fields()) {
    std::string message = "column index " + std::to_string(i) + " is outside a ";
    message += what;
    message +=
        " of " + std::to_string(schema.num_fields()) + " columns (" + schema.describe_names() + ")";
    throw IndexError(message);
  }
}

/// Rows [offset, offset + length) of every column (`IndexError` if outside `num_rows`).
template <typename Column>
std::vector<Column> slice_columns(std::string_view what, const std::vector<Column>& columns,
                                  int64_t num_rows, int64_t offset, int64_t length) {
  if (offset < 0 || length < 0 || offset > num_rows || length > num_rows - offset) {
    std::string message =
        "slice [" + std::to_string(offset) + ", +" + std::to_string(length) + ") is outside a ";
    message += what;
    message += " of " + std::to_string(num_rows) + " rows";
    throw IndexError(message);
  }
  std::vector<Column> sliced;
  sliced.reserve(columns.size());
  for (const Column& column : columns) {
    sliced.push_back(column.slice(offset, length));
  }
  return sliced;
}

/// `IndexError` unless 0 <= offset <= num_rows.
inline void check_slice_offset(std::string_view what, int64_t offset, int64_t num_rows) {
  if (offset < 0 || offset > num_rows) {
    std::string message = "slice offset " + std::to_string(offset) + " is outside a ";
    message += what;
    message += " of " + std::to_string(num_rows) + " rows";
    throw IndexError(message);
  }
}

/// The fields, a rule, then each column as `name: <print(column)>`.
template <typename Column, typename Print>
std::string columns_to_string(const Schema& schema, const std::vector<Column>& columns,
                              const PrettyPrintOptions& options, const Print& print) {
  const std::string indent(static_cast<size_t>(std::max(options.indent, 0)), ' ');
  PrettyPrintOptions column_options = options;
  column_options.indent = 0;
  std::string out;
  for (const FieldPtr& field : schema.fields()) {
    out += indent;
    out += field->to_string();
    out += '\n';
  }
  out += indent;
  out += "----";
  for (size_t i = 0; i < columns.size(); ++i) {
    out += '\n';
    out += indent;
    out += schema.fields()[i]->name();
    out += ": ";
    out += print(columns[i], column_options);
  }
  return out;
}

}  // namespace bowstring::detail
