// The engine of bowstring.compute.group_by: grouped aggregation of Arrow arrays.

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

#include "bowstring/compute/aggregate/group_by.h"
#include "bowstring/table/schema.h"
#include "bowstring/table/table.h"
#include "interchange_bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {
namespace {

compute::Datum datum_from(nb::handle argument) {
  auto pair = nb::cast<nb::tuple>(argument);
  Array array = array_from(pair[0]);
  return nb::cast<bool>(pair[1]) ? compute::Datum::scalar(std::move(array))
                                 : compute::Datum(std::move(array));
}

// `keys` holds arrays; `aggregations` (function name, [(array, is_scalar)...], options) tuples;
// `names` one column name per key and per aggregation.
Table group_by_function(const nb::list& keys, const nb::list& aggregations,
                        const std::vector<std::string>& names, bool ansi) {
  std::vector<Array> key_arrays;
  for (nb::handle key : keys) {
    key_arrays.push_back(array_from(key));
  }
  std::vector<compute::AggregateCall> calls;
  for (nb::handle aggregation : aggregations) {
    auto entry = nb::cast<nb::tuple>(aggregation);
    compute::AggregateCall call;
    call.function = nb::cast<std::string>(entry[0]);
    for (nb::handle argument : nb::cast<nb::list>(entry[1])) {
      call.arguments.push_back(datum_from(argument));
    }
    for (auto [key, value] : nb::cast<nb::dict>(entry[2])) {
      const auto option = nb::cast<std::string>(key);
      if (nb::isinstance<nb::bool_>(value)) {
        call.options.emplace(option, nb::cast<bool>(value));
      } else if (nb::isinstance<nb::int_>(value)) {
        call.options.emplace(option, nb::cast<int64_t>(value));
      } else if (nb::isinstance<nb::float_>(value)) {
        call.options.emplace(option, nb::cast<double>(value));
      } else {
        call.options.emplace(option, nb::cast<std::string>(value));
      }
    }
    calls.push_back(std::move(call));
  }
  std::vector<Array> columns;
  {
    nb::gil_scoped_release unlocked;
    compute::ExecContext context;
    context.ansi = ansi;
    columns = compute::group_by(key_arrays, calls, context);
  }
  if (names.size() != columns.size()) {
    throw InvalidArgument("group_by: " + std::to_string(names.size()) + " names for " +
                          std::to_string(columns.size()) + " columns");
  }
  FieldVector fields;
  std::vector<ChunkedArray> chunked;
  for (size_t c = 0; c < columns.size(); ++c) {
    fields.push_back(field(names[c], columns[c].type()));
    chunked.emplace_back(columns[c]);
  }
  return Table(std::make_shared<Schema>(std::move(fields)), std::move(chunked));
}

}  // namespace

void bind_compute_group_by(nb::module_& module) {
  nb::module_ compute = nb::borrow<nb::module_>(module.attr("_compute"));
  compute.def("group_by", &group_by_function, "keys"_a, "aggregations"_a, "names"_a, "ansi"_a,
              "Groups the rows of the key arrays and aggregates each group: a Table of the "
              "unique keys and one column per aggregation, groups in order of first appearance.");
}

}  // namespace bowstring::python
