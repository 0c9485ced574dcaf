// Arguments and options of compute calls as the Python side passes them (shared by the
// group_by and window bindings).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/table/schema.h"
#include "bowstring/table/table.h"
#include "bowstring/util/error.h"
#include "interchange_bindings.h"

namespace bowstring::python {

/// An `(array, is_scalar)` pair as a Datum.
inline compute::Datum datum_from(nanobind::handle argument) {
  auto pair = nanobind::cast<nanobind::tuple>(argument);
  Array array = array_from(pair[0]);
  return nanobind::cast<bool>(pair[1]) ? compute::Datum::scalar(std::move(array))
                                       : compute::Datum(std::move(array));
}

/// A dict of bool, int, float or str values as function options.
inline compute::FunctionOptions options_from(nanobind::handle options) {
  compute::FunctionOptions result;
  for (auto [key, value] : nanobind::cast<nanobind::dict>(options)) {
    const auto option = nanobind::cast<std::string>(key);
    if (nanobind::isinstance<nanobind::bool_>(value)) {
      result.emplace(option, nanobind::cast<bool>(value));
    } else if (nanobind::isinstance<nanobind::int_>(value)) {
      result.emplace(option, nanobind::cast<int64_t>(value));
    } else if (nanobind::isinstance<nanobind::float_>(value)) {
      result.emplace(option, nanobind::cast<double>(value));
    } else {
      result.emplace(option, nanobind::cast<std::string>(value));
    }
  }
  return result;
}

/// `columns` as a Table with one name per column (`function` names the caller in the error).
inline Table named_table(const std::vector<std::string>& names, const std::vector<Array>& columns,
                         const char* function) {
  if (names.size() != columns.size()) {
    throw InvalidArgument(std::string(function) + ": " + std::to_string(names.size()) +
                          " names for " + std::to_string(columns.size()) + " columns");
  }
  FieldVector fields;
  std::vector<ChunkedArray> chunked;
  for (size_t c = 0; c < columns.size(); ++c) {
    fields.push_back(field(names[c], columns[c].type()));
    chunked.emplace_back(columns[c]);
  }
  return Table(std::make_shared<Schema>(std::move(fields)), std::move(chunked));
}

}  // namespace bowstring::python
