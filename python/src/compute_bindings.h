// What the compute bindings (compute_bindings.cc) share with the other bindings.

#pragma once

#include <nanobind/nanobind.h>

#include "bowstring/compute/core/function.h"

namespace bowstring::python {

/// The options of a function call from a dict of option names to Python values: bool, int,
/// float, str, or a data type (a `bowstring.DataType` or any object with `__arrow_c_schema__`).
/// Raises TypeError naming the option whose value is none of these. Call with the GIL held.
compute::FunctionOptions function_options_from(const nanobind::dict& options);

}  // namespace bowstring::python
