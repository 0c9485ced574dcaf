#pragma once

// The Arrow C Data Interface and C Stream Interface: zero-copy exchange of schemas, arrays,
// record batches and streams of them with any other Arrow implementation in the same process
// (pyarrow, Polars, DuckDB, nanoarrow...).
//
// Export fills a consumer-allocated struct whose release callback keeps our buffers alive until
// the consumer calls it. Import takes ownership of a producer's struct: the functions below move
// it out (the caller's struct is marked released, whether the import succeeds or throws) and the
// producer's release callback runs once nothing of ours uses its memory any more.

#include <cstdint>
#include <memory>
#include <optional>

#include "bowstring/array/array.h"
#include "bowstring/table/chunked_array.h"
#include "bowstring/table/record_batch.h"
#include "bowstring/table/record_batch_reader.h"
#include "bowstring/table/schema.h"
#include "bowstring/types/type.h"

// The ABI structs exactly as the specification defines them. The guards are the canonical ones,
// so that several projects' copies of these definitions can be included together.
extern "C" {

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  // Callbacks providing stream functionality
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);

  // Release callback
  void (*release)(struct ArrowArrayStream*);

  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

}  // extern "C"

namespace bowstring {

struct CDataImportOptions {
  /// Imported arrays always pass `validate` (structure: buffer sizes, child lengths, nesting).
  /// Data from a producer in the same process is trusted as Arrow trusts it, so value-level
  /// checks (offsets, UTF-8, dictionary indices, union type ids...) run only when this is set.
  bool validate_full = false;
};

// --- export -------------------------------------------------------------------------------
// Each function fills `out` (which must not hold a live struct) or throws and leaves it
// untouched. Arrays are exported zero-copy, offsets included; the exported structs share the
// data, which stays alive until their release callbacks run.

/// A type as an unnamed, nullable field. Extension types carry `ARROW:extension:name` and
/// `ARROW:extension:metadata` in the struct's metadata; dictionaries have the index type's
/// format and the values in `dictionary`.
void export_type(const DataType& type, ArrowSchema* out);
/// A field: name, type, nullability flag and metadata. Names must be UTF-8, as the
/// specification requires (`InvalidArgument` otherwise, for children too); metadata keys and
/// values are bytes and go out as they are.
void export_field(const Field& field, ArrowSchema* out);
/// A schema as a struct type ("+s") whose children are the fields; the schema metadata is the
/// struct's metadata.
void export_schema(const Schema& schema, ArrowSchema* out);

/// An array, and its type into `out_schema` when that is not null.
void export_array(const Array& array, ArrowArray* out, ArrowSchema* out_schema = nullptr);
/// A record batch as a struct array without nulls, and its schema into `out_schema` when that
/// is not null.
void export_record_batch(const RecordBatch& batch, ArrowArray* out,
                         ArrowSchema* out_schema = nullptr);

/// A stream of the reader's batches. The stream owns the reader; an exception from
/// `reader->next()` becomes an errno-style code (EINVAL, ENOMEM, EIO, ENOSYS) with its message
/// in `get_last_error`, and the stream reports the same error from then on.
void export_reader(std::shared_ptr<RecordBatchReader> reader, ArrowArrayStream* out);
/// A stream of the chunks of a chunked array (the stream schema is the array type).
void export_chunked_array(const ChunkedArray& array, ArrowArrayStream* out);

// --- import -------------------------------------------------------------------------------
// Each function takes ownership of the struct(s) it is given: on return, and on throw, the
// caller's struct is marked released and must not be released again. A struct that is already
// released is an `InvalidArgument`; a malformed one (bad format string, child or buffer counts
// that do not match the type, missing buffers, nesting deeper than kMaxNestingDepth...) a
// `FormatError` naming the problem and where it is ("ArrowSchema.children[1]('b').dictionary").

/// The type of a schema struct; extension metadata makes an extension type, any other metadata
/// and the name are dropped.
TypePtr import_type(ArrowSchema* schema);
/// The field: name ("" when absent), type, nullability and metadata (extension keys removed).
/// Names (of children too) and extension names must be UTF-8, or it is a `FormatError`; other
/// metadata keys and values are bytes, taken as they are.
FieldPtr import_field(ArrowSchema* schema);
/// A struct type ("+s") as a schema: its children are the fields, its metadata the schema's.
SchemaPtr import_schema(ArrowSchema* schema);

/// The same readings without taking ownership: `schema` stays live and the caller's to release
/// (for schemas that are only borrowed, as a PyCapsule `requested_schema` is).
TypePtr read_type(const ArrowSchema& schema);
FieldPtr read_field(const ArrowSchema& schema);
SchemaPtr read_schema(const ArrowSchema& schema);

/// Wraps the array's buffers without a copy. One owner holds the producer's struct for the whole
/// array tree and releases it when the last buffer of the imported array is gone.
Array import_array(ArrowArray* array, const TypePtr& type, const CDataImportOptions& options = {});
/// As above with the type imported from `schema` (also consumed).
Array import_array(ArrowArray* array, ArrowSchema* schema, const CDataImportOptions& options = {});
/// A struct array without nulls as a record batch of `schema` (an offset on the struct slices the
/// columns). A struct array with null rows is a `FormatError`.
RecordBatch import_record_batch(ArrowArray* array, const SchemaPtr& schema,
                                const CDataImportOptions& options = {});
RecordBatch import_record_batch(ArrowArray* array, ArrowSchema* schema,
                                const CDataImportOptions& options = {});

/// A reader over a stream of record batches (its schema must be a struct type). The schema is
/// read here; batches are imported one at a time by `next()`. An error code from the producer
/// throws, with the producer's `get_last_error` text: ENOMEM as `OutOfMemory`, EINVAL as
/// `InvalidArgument`, ENOSYS/ENOTSUP as `NotImplemented`, anything else as `IoError`. The
/// stream is released with the reader.
std::unique_ptr<RecordBatchReader> import_reader(ArrowArrayStream* stream,
                                                 const CDataImportOptions& options = {});
/// Every array of a stream of any type, as the chunks of one chunked array (errors as for
/// `import_reader`). The stream is released before this returns.
ChunkedArray import_chunked_array(ArrowArrayStream* stream, const CDataImportOptions& options = {});

}  // namespace bowstring
