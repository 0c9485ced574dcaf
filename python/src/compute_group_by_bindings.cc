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
#include "compute_arguments.h"
#include "interchange_bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {
namespace {

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
    call.options = options_from(entry[2]);
    calls.push_back(std::move(call));
  }
  std::vector<Array> columns;
  {
    nb::gil_scoped_release unlocked;
    compute::ExecContext context;
    context.ansi = ansi;
    columns = compute::group_by(key_arrays, calls, context);
  }
  return named_table(names, columns, "group_by");
}

}  // namespace

void bind_compute_group_by(nb::module_& module) {
  nb::module_ compute = nb::borrow<nb::module_>(module.attr("_compute"));
  compute.def("group_by", &group_by_function, "keys"_a, "aggregations"_a, "names"_a, "ansi"_a,
              "Groups the rows of the key arrays and aggregates each group: a Table of the "
              "unique keys and one column per aggregation, groups in order of first appearance.");
}

}  // namespace bowstring::python
