// What the data classes' bindings (interchange_bindings.cc) share with the other bindings.

#pragma once

#include <nanobind/nanobind.h>

#include <memory>

#include "bowstring/array/array.h"
#include "bowstring/table/record_batch_reader.h"
#include "bowstring/table/schema.h"

namespace bowstring::python {

/// The Python `bowstring.Schema`: a handle on an immutable shared schema.
struct PySchema {
  SchemaPtr schema;
};

/// The Python `bowstring.DataType`: a handle on an immutable shared data type.
struct PyDataType {
  TypePtr type;
};

/// Binds the data classes and the Arrow PyCapsule interface into `module`.
void bind_interchange(nanobind::module_& module);

/// The record batches of `object`: those of its `__arrow_c_stream__` (or of an
/// 'arrow_array_stream' capsule), imported one at a time as they are read, or else the one batch
/// of its `__arrow_c_array__` (a struct array). Raises TypeError naming `target` (the Python
/// function, such as "ipc.write_stream") when the object exposes neither. Call with the GIL held;
/// the reader may then be read without it.
std::unique_ptr<RecordBatchReader> record_batches_from(nanobind::handle object, const char* target);

/// The array of `object`'s `__arrow_c_array__`, or its `__arrow_c_stream__` concatenated into one
/// array. Raises TypeError when it exposes neither. Call with the GIL held.
Array array_from(nanobind::handle object);
/// The data type of a `bowstring.DataType` or of `object`'s `__arrow_c_schema__` (a pyarrow
/// DataType, Field or Schema gives its type). Raises TypeError naming `target` when it has none.
TypePtr type_from(nanobind::handle object, const char* target);
/// The schema of `object`'s `__arrow_c_schema__` (or of an 'arrow_schema' capsule). Raises
/// TypeError naming `target` when the object has none. Call with the GIL held.
SchemaPtr schema_from(nanobind::handle object, const char* target);

/// `schema` as a PyCapsule holding an ArrowSchema.
nanobind::capsule schema_capsule(const Schema& schema);

/// `reader` as a PyCapsule holding an ArrowArrayStream that reads it.
nanobind::capsule reader_capsule(std::shared_ptr<RecordBatchReader> reader);

/// Raises NotImplementedError unless `requested` (the `requested_schema` argument of
/// `__arrow_c_stream__`: None or an 'arrow_schema' capsule) is `actual`, metadata aside:
/// bowstring exports data as it is.
void check_requested_schema(nanobind::handle requested, const SchemaPtr& actual);

/// Docstring sentence on `requested_schema` shared by every `__arrow_c_*__` export.
extern const char* const kRequestedSchemaDoc;

}  // namespace bowstring::python
