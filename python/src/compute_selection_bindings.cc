// Selection and sorting kernels for bowstring.compute: filter, take, sort_indices, top_n.

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

#include "bowstring/compute/vector/selection.h"
#include "bowstring/compute/vector/sort.h"
#include "bowstring/util/error.h"
#include "interchange_bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {
namespace {

/// The arrays of `keys` and their orders, checked to pair up.
void read_sort_keys(const nb::list& keys, const std::vector<bool>& ascending,
                    const std::vector<std::optional<bool>>& nulls_first, const char* function,
                    std::vector<Array>& arrays, std::vector<compute::SortKey>& order) {
  if (ascending.size() != nb::len(keys) || nulls_first.size() != nb::len(keys)) {
    throw InvalidArgument(std::string(function) + ": " + std::to_string(nb::len(keys)) +
                          " keys need as many ascending and nulls_first entries, got " +
                          std::to_string(ascending.size()) + " and " +
                          std::to_string(nulls_first.size()));
  }
  for (size_t k = 0; k < ascending.size(); ++k) {
    arrays.push_back(array_from(keys[k]));
    order.push_back(compute::SortKey{ascending[k], nulls_first[k]});
  }
}

}  // namespace

void bind_compute_selection(nb::module_& module) {
  module.def(
      "_compute_filter",
      [](nb::handle values, nb::handle mask) {
        const Array value_array = array_from(values);
        const Array mask_array = array_from(mask);
        nb::gil_scoped_release unlocked;
        return compute::filter(value_array, mask_array);
      },
      "values"_a, "mask"_a,
      "The rows of ``values`` where the boolean ``mask`` is true; null mask rows are dropped.");
  module.def(
      "_compute_take",
      [](nb::handle values, nb::handle indices) {
        const Array value_array = array_from(values);
        const Array index_array = array_from(indices);
        nb::gil_scoped_release unlocked;
        return compute::take(value_array, index_array);
      },
      "values"_a, "indices"_a,
      "Row ``indices[i]`` of ``values`` for each i; a null index gives a null row.");
  module.def(
      "_compute_sort_indices",
      [](const nb::list& keys, const std::vector<bool>& ascending,
         const std::vector<std::optional<bool>>& nulls_first) {
        std::vector<Array> arrays;
        std::vector<compute::SortKey> order;
        read_sort_keys(keys, ascending, nulls_first, "sort_indices", arrays, order);
        nb::gil_scoped_release unlocked;
        return compute::sort_indices(arrays, order);
      },
      "keys"_a, "ascending"_a, "nulls_first"_a,
      "The row numbers of ``keys`` in sorted order (uint64), stable, in Spark's value order.");
  module.def(
      "_compute_top_n",
      [](const nb::list& keys, const std::vector<bool>& ascending,
         const std::vector<std::optional<bool>>& nulls_first, int64_t n) {
        std::vector<Array> arrays;
        std::vector<compute::SortKey> order;
        read_sort_keys(keys, ascending, nulls_first, "top_n", arrays, order);
        nb::gil_scoped_release unlocked;
        return compute::top_n(arrays, order, n);
      },
      "keys"_a, "ascending"_a, "nulls_first"_a, "n"_a,
      "The first ``n`` row numbers of ``_compute_sort_indices`` without sorting every row.");
}

}  // namespace bowstring::python
