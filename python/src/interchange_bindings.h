// What the data classes' bindings (interchange_bindings.cc) share with the other bindings.

#pragma once

#include <nanobind/nanobind.h>

#include <memory>

#include "bowstring/table/record_batch_reader.h"

namespace bowstring::python {

/// Binds the data classes and the Arrow PyCapsule interface into `module`.
void bind_interchange(nanobind::module_& module);

/// The record batches of `object`: those of its `__arrow_c_stream__` (or of an
/// 'arrow_array_stream' capsule), imported one at a time as they are read, or else the one batch
/// of its `__arrow_c_array__` (a struct array). Raises TypeError naming `target` (the Python
/// function, such as "ipc.write_stream") when the object exposes neither. Call with the GIL held;
/// the reader may then be read without it.
std::unique_ptr<RecordBatchReader> record_batches_from(nanobind::handle object, const char* target);

}  // namespace bowstring::python
