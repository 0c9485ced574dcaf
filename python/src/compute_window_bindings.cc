// The engine of bowstring.compute.window: window functions over sorted partitions.

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/compute/window/window.h"
#include "bowstring/util/error.h"
#include "compute_arguments.h"
#include "interchange_bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {
namespace {

/// A bound: "unbounded_preceding", "current_row", "unbounded_following", or an offset given as
/// an `(array, is_scalar)` pair.
compute::FrameBound bound_from(nb::handle bound) {
  if (nb::isinstance<nb::str>(bound)) {
    const auto kind = nb::cast<std::string>(bound);
    if (kind == "unbounded_preceding") {
      return compute::FrameBound::unbounded_preceding();
    }
    if (kind == "current_row") {
      return compute::FrameBound::current_row();
    }
    if (kind == "unbounded_following") {
      return compute::FrameBound::unbounded_following();
    }
    throw InvalidArgument("window: unknown frame bound '" + kind + "'");
  }
  return compute::FrameBound::at(datum_from(bound));
}

/// A frame: None (Spark's default) or ("rows" | "range", start, end).
std::optional<compute::WindowFrame> frame_from(nb::handle frame) {
  if (frame.is_none()) {
    return std::nullopt;
  }
  auto parts = nb::cast<nb::tuple>(frame);
  const auto unit = nb::cast<std::string>(parts[0]);
  if (unit != "rows" && unit != "range") {
    throw InvalidArgument("window: a frame is 'rows' or 'range', not '" + unit + "'");
  }
  return compute::WindowFrame{
      unit == "rows" ? compute::FrameUnit::kRows : compute::FrameUnit::kRange, bound_from(parts[1]),
      bound_from(parts[2])};
}

// `calls` holds (function, [(array, is_scalar)...], options, frame) tuples.
Table window_function(const std::vector<int64_t>& partition_offsets, const nb::list& keys,
                      const std::vector<bool>& ascending,
                      const std::vector<std::optional<bool>>& nulls_first, const nb::list& calls,
                      const std::vector<std::string>& names, bool ansi) {
  if (ascending.size() != nb::len(keys) || nulls_first.size() != nb::len(keys)) {
    throw InvalidArgument("window: " + std::to_string(nb::len(keys)) +
                          " order keys need as many ascending and nulls_first entries");
  }
  std::vector<Array> key_arrays;
  std::vector<compute::SortKey> order;
  for (size_t k = 0; k < ascending.size(); ++k) {
    key_arrays.push_back(array_from(keys[k]));
    order.push_back(compute::SortKey{ascending[k], nulls_first[k]});
  }
  std::vector<compute::WindowCall> window_calls;
  for (nb::handle entry_handle : calls) {
    auto entry = nb::cast<nb::tuple>(entry_handle);
    compute::WindowCall call;
    call.function = nb::cast<std::string>(entry[0]);
    for (nb::handle argument : nb::cast<nb::list>(entry[1])) {
      call.arguments.push_back(datum_from(argument));
    }
    call.options = options_from(entry[2]);
    call.frame = frame_from(entry[3]);
    window_calls.push_back(std::move(call));
  }
  std::vector<Array> columns;
  {
    nb::gil_scoped_release unlocked;
    compute::ExecContext context;
    context.ansi = ansi;
    columns =
        compute::evaluate_window({partition_offsets, key_arrays, order}, window_calls, context);
  }
  return named_table(names, columns, "window");
}

}  // namespace

void bind_compute_window(nb::module_& module) {
  nb::module_ compute = nb::borrow<nb::module_>(module.attr("_compute"));
  compute.def("window", &window_function, "partition_offsets"_a, "keys"_a, "ascending"_a,
              "nulls_first"_a, "calls"_a, "names"_a, "ansi"_a,
              "Evaluates window functions over rows sorted by partition and order keys: a Table "
              "with one column per call, one value per input row.");
}

}  // namespace bowstring::python
