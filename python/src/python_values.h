// Conversion of Arrow values to Python objects, as pyarrow's `as_py()` gives them.

#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>

#include "bowstring/array/array.h"
#include "bowstring/table/chunked_array.h"

namespace bowstring::python {

/// A list of Python values, typed `list[typing.Any]` in the stub.
using PyValues = nanobind::typed<nanobind::list, nanobind::any>;

/// Every value of `array` as a Python object: None for nulls, int, float, bool, str, bytes,
/// decimal.Decimal, datetime.date/time/datetime (zoned when the timestamp type has a time zone)
/// and timedelta (pandas Timestamp and Timedelta for nanoseconds, which they keep), lists,
/// dicts for structs, lists of (key, item) tuples for maps, a dictionary array's values, the
/// selected child's value of a union, and a run-end encoded array's logical values. Call with
/// the GIL held.
PyValues to_pylist(const Array& array);

/// The values of every chunk, in order, as one list.
PyValues to_pylist(const ChunkedArray& array);

/// Value `i` of `array` (0 <= i < length) as `to_pylist` gives it.
nanobind::any to_py(const Array& array, int64_t i);

}  // namespace bowstring::python
