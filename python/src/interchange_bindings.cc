// Python classes over Bowstring's columnar data (DataType, Field, Schema, Array, ChunkedArray,
// RecordBatch, Table, RecordBatchReader), exchanged with any other Arrow library through the
// Arrow PyCapsule interface: `__arrow_c_schema__`, `__arrow_c_array__`, `__arrow_c_stream__`.
// Data crosses without a copy in both directions.

#include "interchange_bindings.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bowstring/array/builder.h"
#include "bowstring/array/concatenate.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/interchange/c_data.h"
#include "bowstring/table/schema_hash.h"
#include "bowstring/table/table.h"
#include "bowstring/types/type_hash.h"
#include "python_values.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {
namespace {

constexpr const char* kSchemaCapsule = "arrow_schema";
constexpr const char* kArrayCapsule = "arrow_array";
constexpr const char* kStreamCapsule = "arrow_array_stream";

// A Python handle on an immutable shared field.
struct PyField {
  FieldPtr field;
};
// Readers are read with the GIL released, so two Python threads may call one at once; this
// makes them take turns (a C stream, for one, is not thread safe).
class SerializedReader final : public RecordBatchReader {
 public:
  explicit SerializedReader(std::unique_ptr<RecordBatchReader> reader)
      : reader_(std::move(reader)) {}
  SchemaPtr schema() const override { return reader_->schema(); }
  std::optional<RecordBatch> next() override {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) {
      // The thread reading may need the GIL (its source can be a Python producer), and a
      // consumer of the exported stream may call in holding it: wait without it.
      if (PyGILState_Check() != 0) {
        nb::gil_scoped_release unlocked;
        lock.lock();
      } else {
        lock.lock();
      }
    }
    return reader_->next();
  }

 private:
  std::unique_ptr<RecordBatchReader> reader_;
  std::mutex mutex_;
};

// A reader is single-use: exporting it through `__arrow_c_stream__` moves it out.
struct PyRecordBatchReader {
  explicit PyRecordBatchReader(std::unique_ptr<RecordBatchReader> source)
      : reader(std::make_shared<SerializedReader>(std::move(source))) {}
  std::shared_ptr<RecordBatchReader> reader;
};

// --- capsules -----------------------------------------------------------------------------

// Capsule destructor: releases the struct unless a consumer moved it out, then frees it.
template <typename Struct>
void free_capsule(void* pointer) noexcept {
  auto* c_struct = static_cast<Struct*>(pointer);
  if (c_struct->release != nullptr) {
    c_struct->release(c_struct);
  }
  std::unique_ptr<Struct>{c_struct}.reset();
}

// A capsule owning a zeroed struct, filled by `fill`; if `fill` throws, the capsule frees the
// still-released struct.
template <typename Struct, typename Fill>
nb::capsule make_capsule(const char* name, Fill fill) {
  auto owned = std::make_unique<Struct>();
  nb::capsule capsule(owned.get(), name, &free_capsule<Struct>);
  Struct* c_struct = owned.release();
  fill(c_struct);
  return capsule;
}

std::string class_name_of(nb::handle object) { return nb::inst_name(object).c_str(); }

// The struct inside a capsule named `name`; `source` says where the capsule came from.
template <typename Struct>
Struct* capsule_struct(nb::handle capsule, const char* name, const std::string& source) {
  if (!PyCapsule_CheckExact(capsule.ptr())) {
    throw nb::type_error(
        (source + " must be a PyCapsule named '" + name + "', got " + class_name_of(capsule))
            .c_str());
  }
  const char* actual = PyCapsule_GetName(capsule.ptr());
  if (actual == nullptr || std::strcmp(actual, name) != 0) {
    throw nb::value_error((source + " must be a PyCapsule named '" + name + "', got one named '" +
                           (actual != nullptr ? actual : "") + "'")
                              .c_str());
  }
  auto* c_struct = static_cast<Struct*>(PyCapsule_GetPointer(capsule.ptr(), name));
  if (c_struct == nullptr) {
    throw nb::python_error();
  }
  if (c_struct->release == nullptr) {
    throw nb::value_error(
        (source + " holds a released " + name + " (a capsule can be consumed only once)").c_str());
  }
  return c_struct;
}

bool has(nb::handle object, const char* method) { return nb::hasattr(object, method); }

[[noreturn]] void throw_not_exportable(const char* target, nb::handle object, const char* wanted) {
  throw nb::type_error((std::string("bowstring.") + target + "() takes an object exposing " +
                        wanted + " (the Arrow PyCapsule interface), got " + class_name_of(object))
                           .c_str());
}

// --- import -------------------------------------------------------------------------------

nb::object schema_capsule_of(nb::handle object, const char* target) {
  if (PyCapsule_CheckExact(object.ptr())) {
    return nb::borrow(object);
  }
  if (!has(object, "__arrow_c_schema__")) {
    throw_not_exportable(target, object, "__arrow_c_schema__");
  }
  return object.attr("__arrow_c_schema__")();
}

std::pair<ArrowSchema*, ArrowArray*> array_capsules(nb::handle object, nb::object& keep) {
  keep = object.attr("__arrow_c_array__")();
  const std::string source = class_name_of(object) + ".__arrow_c_array__()";
  if (!nb::isinstance<nb::tuple>(keep) || nb::len(keep) != 2) {
    throw nb::type_error(
        (source + " must return a tuple of two PyCapsules, got " + class_name_of(keep)).c_str());
  }
  nb::tuple pair = nb::borrow<nb::tuple>(keep);
  return {capsule_struct<ArrowSchema>(pair[0], kSchemaCapsule, source + "[0]"),
          capsule_struct<ArrowArray>(pair[1], kArrayCapsule, source + "[1]")};
}

ArrowArrayStream* stream_capsule(nb::handle object, nb::object& keep) {
  if (PyCapsule_CheckExact(object.ptr())) {
    keep = nb::borrow(object);
    return capsule_struct<ArrowArrayStream>(object, kStreamCapsule, "the capsule");
  }
  keep = object.attr("__arrow_c_stream__")();
  return capsule_struct<ArrowArrayStream>(keep, kStreamCapsule,
                                          class_name_of(object) + ".__arrow_c_stream__()");
}

bool is_stream_source(nb::handle object) {
  if (PyCapsule_CheckExact(object.ptr())) {
    const char* name = PyCapsule_GetName(object.ptr());
    return name != nullptr && std::strcmp(name, kStreamCapsule) == 0;
  }
  return has(object, "__arrow_c_stream__");
}

Array empty_array(const TypePtr& type) { return make_builder(type)->finish(); }

}  // namespace

Array array_from(nb::handle object) {
  if (has(object, "__arrow_c_array__")) {
    nb::object keep;
    auto [schema, array] = array_capsules(object, keep);
    return import_array(array, schema);
  }
  if (is_stream_source(object)) {
    nb::object keep;
    ArrowArrayStream* stream = stream_capsule(object, keep);
    nb::gil_scoped_release unlocked;
    const ChunkedArray chunks = import_chunked_array(stream);
    if (chunks.num_chunks() == 1) {
      return chunks.chunk(0);
    }
    if (chunks.num_chunks() == 0) {
      return empty_array(chunks.type());
    }
    return concatenate(chunks.chunks());
  }
  throw_not_exportable("Array", object, "__arrow_c_array__ or __arrow_c_stream__");
}

namespace {

ChunkedArray chunked_array_from(nb::handle object) {
  if (is_stream_source(object)) {
    nb::object keep;
    ArrowArrayStream* stream = stream_capsule(object, keep);
    nb::gil_scoped_release unlocked;
    return import_chunked_array(stream);
  }
  if (has(object, "__arrow_c_array__")) {
    return ChunkedArray(array_from(object));
  }
  throw_not_exportable("ChunkedArray", object, "__arrow_c_stream__ or __arrow_c_array__");
}

std::unique_ptr<RecordBatchReader> reader_from(nb::handle object, const char* target) {
  if (!is_stream_source(object)) {
    throw_not_exportable(target, object, "__arrow_c_stream__");
  }
  nb::object keep;
  ArrowArrayStream* stream = stream_capsule(object, keep);
  return import_reader(stream);
}

Table read_all(RecordBatchReader& reader) {
  nb::gil_scoped_release unlocked;
  return reader.read_all();
}

Table table_from(nb::handle object) {
  if (is_stream_source(object)) {
    std::unique_ptr<RecordBatchReader> reader = reader_from(object, "Table");
    return read_all(*reader);
  }
  if (has(object, "__arrow_c_array__")) {
    nb::object keep;
    auto [schema, array] = array_capsules(object, keep);
    const RecordBatch batch = import_record_batch(array, schema);
    return Table::from_batches(batch.schema(), {batch});
  }
  throw_not_exportable("Table", object, "__arrow_c_stream__ or __arrow_c_array__");
}

// The rows of a table in one record batch: its only batch when it has one, otherwise its
// columns concatenated (a copy).
RecordBatch single_batch(const Table& table) {
  nb::gil_scoped_release unlocked;
  std::vector<RecordBatch> batches = table.combine_chunks().to_batches();
  if (batches.size() == 1) {
    return batches[0];
  }
  std::vector<Array> columns;
  for (const FieldPtr& column : table.schema()->fields()) {
    columns.push_back(empty_array(column->type()));
  }
  return RecordBatch(table.schema(), 0, std::move(columns));
}

RecordBatch record_batch_from(nb::handle object) {
  if (has(object, "__arrow_c_array__")) {
    nb::object keep;
    auto [schema, array] = array_capsules(object, keep);
    return import_record_batch(array, schema);
  }
  if (is_stream_source(object)) {
    return single_batch(table_from(object));
  }
  throw_not_exportable("RecordBatch", object, "__arrow_c_array__ or __arrow_c_stream__");
}

// --- export -------------------------------------------------------------------------------

// Bowstring exports its data as it is: a requested schema is honoured when it is the data's own
// (metadata may differ), and refused otherwise rather than converting.
void check_requested_type(nb::handle requested, const TypePtr& actual) {
  if (requested.is_none()) {
    return;
  }
  const ArrowSchema* wanted_struct =
      capsule_struct<ArrowSchema>(requested, kSchemaCapsule, "requested_schema");
  const TypePtr wanted = read_type(*wanted_struct);
  if (!wanted->equals(*actual)) {
    throw NotImplemented("cannot export as the requested type " + wanted->to_string() +
                         ": the data has type " + actual->to_string() +
                         " and bowstring does not convert data on export");
  }
}

}  // namespace

void check_requested_schema(nb::handle requested, const SchemaPtr& actual) {
  if (requested.is_none()) {
    return;
  }
  const ArrowSchema* wanted_struct =
      capsule_struct<ArrowSchema>(requested, kSchemaCapsule, "requested_schema");
  const SchemaPtr wanted = read_schema(*wanted_struct);
  if (!wanted->equals(*actual)) {
    throw NotImplemented("cannot export with the requested schema (" + wanted->to_string() +
                         "): the data has schema (" + actual->to_string() +
                         ") and bowstring does not convert data on export");
  }
}

nb::capsule schema_capsule(const Schema& schema) {
  return make_capsule<ArrowSchema>(kSchemaCapsule,
                                   [&](ArrowSchema* out) { export_schema(schema, out); });
}

namespace {

nb::tuple array_capsules_of(const Array& array) {
  nb::capsule schema = make_capsule<ArrowSchema>(
      kSchemaCapsule, [&](ArrowSchema* out) { export_type(*array.type(), out); });
  nb::capsule data =
      make_capsule<ArrowArray>(kArrayCapsule, [&](ArrowArray* out) { export_array(array, out); });
  return nb::make_tuple(schema, data);
}

nb::tuple batch_capsules_of(const RecordBatch& batch) {
  nb::capsule schema = schema_capsule(*batch.schema());
  nb::capsule data = make_capsule<ArrowArray>(
      kArrayCapsule, [&](ArrowArray* out) { export_record_batch(batch, out); });
  return nb::make_tuple(schema, data);
}

}  // namespace

nb::capsule reader_capsule(std::shared_ptr<RecordBatchReader> reader) {
  return make_capsule<ArrowArrayStream>(
      kStreamCapsule, [&](ArrowArrayStream* out) { export_reader(std::move(reader), out); });
}

namespace {

nb::capsule table_stream_capsule(const Table& table) {
  return reader_capsule(std::make_shared<TableBatchReader>(table));
}

// --- helpers for the classes --------------------------------------------------------------

nb::typed<nb::dict, nb::bytes, nb::bytes> metadata_dict(const Metadata& metadata) {
  nb::typed<nb::dict, nb::bytes, nb::bytes> out;
  for (const auto& [key, value] : metadata) {
    out[nb::bytes(key.data(), key.size())] = nb::bytes(value.data(), value.size());
  }
  return out;
}

// Python's slice conventions for (offset, length): a negative offset counts from the end, and
// both are clamped to the data.
std::pair<int64_t, int64_t> slice_bounds(int64_t size, int64_t offset,
                                         std::optional<int64_t> length) {
  if (offset < 0) {
    offset = std::max<int64_t>(0, size + offset);
  }
  offset = std::min(offset, size);
  int64_t count = length.value_or(size - offset);
  if (count < 0) {
    throw nb::value_error(
        ("slice length must not be negative, got " + std::to_string(count)).c_str());
  }
  return {offset, std::min(count, size - offset)};
}

template <typename Size>
Size checked_index(int64_t index, Size size, const char* what) {
  const int64_t resolved = index < 0 ? index + size : index;
  if (resolved < 0 || resolved >= size) {
    throw nb::index_error((std::string(what) + " index " + std::to_string(index) +
                           " is out of range for " + std::to_string(size) + " " + what + "s")
                              .c_str());
  }
  return static_cast<Size>(resolved);
}

nb::typed<nb::list, nb::str> column_names(const Schema& schema) {
  nb::typed<nb::list, nb::str> names;
  for (const FieldPtr& field : schema.fields()) {
    names.append(field->name());
  }
  return names;
}

nb::typed<nb::iterator, nb::any> iterate(const PyValues& values) {
  return nb::borrow<nb::typed<nb::iterator, nb::any>>(nb::iter(values));
}

// The positions a Python slice selects among `length` items.
struct SlicePositions {
  int64_t start;
  int64_t step;
  int64_t count;
};

SlicePositions slice_positions(const nb::slice& range, int64_t length) {
  const auto [start, stop, step, count] = range.compute(static_cast<size_t>(length));
  return {static_cast<int64_t>(start), static_cast<int64_t>(step), static_cast<int64_t>(count)};
}

// `data[range]` for an Array or a ChunkedArray: a zero-copy slice for a step of 1, else the
// selected values taken into new memory.
template <typename Data>
Data slice_values(const Data& data, const nb::slice& range) {
  const SlicePositions positions = slice_positions(range, data.length());
  if (positions.step == 1 || positions.count == 0) {
    return data.slice(positions.count == 0 ? 0 : positions.start, positions.count);
  }
  std::vector<int64_t> indices;
  indices.reserve(static_cast<size_t>(positions.count));
  for (int64_t i = 0; i < positions.count; ++i) {
    indices.push_back(positions.start + i * positions.step);
  }
  nb::gil_scoped_release unlocked;
  if constexpr (std::is_same_v<Data, ChunkedArray>) {
    // Not empty, so combined into exactly one chunk.
    const ChunkedArray combined = data.combine_chunks();
    return ChunkedArray(compute::take(combined.chunk(0), std::span<const int64_t>(indices)));
  } else {
    return compute::take(data, std::span<const int64_t>(indices));
  }
}

// `table[range]`: the rows of a step-1 slice, zero-copy.
template <typename Tabular>
Tabular slice_rows(const Tabular& table, const nb::slice& range) {
  const SlicePositions positions = slice_positions(range, table.num_rows());
  if (positions.count > 1 && positions.step != 1) {
    throw nb::value_error(("slicing rows takes a step of 1, got " + std::to_string(positions.step) +
                           " (bowstring.compute.take selects any rows)")
                              .c_str());
  }
  return table.slice(positions.count == 0 ? 0 : positions.start, positions.count);
}

PyRecordBatchReader& live(PyRecordBatchReader& self) {
  if (self.reader == nullptr) {
    throw nb::value_error(
        "this RecordBatchReader was exported through __arrow_c_stream__ and can no longer be "
        "read");
  }
  return self;
}

}  // namespace

// Signatures of the stub (python/bowstring/_core.pyi) naming the protocols that arguments are
// read through, where the bindings take any object.
// `==` takes any object (and gives NotImplemented for another class), as object's does.
constexpr const char* kEqualsSignature = "def __eq__(self, other: object, /) -> bool";
constexpr const char* kArrayExportSignature =
    "def __arrow_c_array__(self, requested_schema: typing_extensions.CapsuleType | None = None) "
    "-> tuple[typing_extensions.CapsuleType, typing_extensions.CapsuleType]";
constexpr const char* kStreamExportSignature =
    "def __arrow_c_stream__(self, requested_schema: typing_extensions.CapsuleType | None = None) "
    "-> typing_extensions.CapsuleType";
constexpr const char* kSchemaSourceSignature =
    "def __init__(self, source: bowstring._protocols.ArrowSchemaExportable | "
    "typing_extensions.CapsuleType) -> None";
constexpr const char* kArraySourceSignature =
    "def __init__(self, source: bowstring._protocols.ArrowArrayLike) -> None";
constexpr const char* kStreamSourceSignature =
    "def __init__(self, source: bowstring._protocols.ArrowStreamExportable | "
    "typing_extensions.CapsuleType) -> None";

const char* const kRequestedSchemaDoc =
    "``requested_schema`` (a PyCapsule holding an ArrowSchema, or None) is honoured when it "
    "describes the data as it is (metadata may differ); bowstring does not convert data on "
    "export, so any other request raises NotImplementedError.";

namespace {

/// Docstrings that differ between RecordBatch and Table, whose columns are chunked arrays.
struct TabularDocs {
  const char* class_doc;
  const char* column_by_index;
  const char* column_by_name;
};

/// Binds `Tabular` (RecordBatch or Table) as `name` with the members both classes share;
/// `from` builds one from an object exposing the Arrow PyCapsule interface.
template <typename Tabular>
nb::class_<Tabular> bind_tabular(nb::module_& module, const char* name, Tabular (*from)(nb::handle),
                                 const TabularDocs& docs) {
  nb::class_<Tabular> binding(module, name, docs.class_doc);
  const std::string repr_header = "bowstring." + std::string(name) + "\n";
  binding
      .def(
          "__init__",
          [from](Tabular* self, nb::handle object) { new (self) Tabular(from(object)); },
          nb::sig(kArraySourceSignature), "source"_a)
      .def_prop_ro("num_rows", &Tabular::num_rows)
      .def_prop_ro("num_columns", &Tabular::num_columns)
      .def_prop_ro("column_names", [](const Tabular& self) { return column_names(*self.schema()); })
      .def_prop_ro("schema", [](const Tabular& self) { return PySchema{self.schema()}; })
      .def_prop_ro("columns", [](const Tabular& self) { return self.columns(); })
      .def(
          "column",
          [](const Tabular& self, int64_t i) {
            return self.column(checked_index(i, self.num_columns(), "column"));
          },
          "i"_a, docs.column_by_index)
      .def(
          "column", [](const Tabular& self, const std::string& name) { return self.column(name); },
          "name"_a, docs.column_by_name)
      .def("__len__", &Tabular::num_rows)
      .def(
          "__getitem__",
          [](const Tabular& self, int64_t i) {
            return self.column(checked_index(i, self.num_columns(), "column"));
          },
          "i"_a, docs.column_by_index)
      .def(
          "__getitem__",
          [](const Tabular& self, const std::string& name) { return self.column(name); }, "name"_a,
          docs.column_by_name)
      .def(
          "__getitem__",
          [](const Tabular& self, const nb::slice& range) { return slice_rows(self, range); },
          "range"_a, "The rows of a slice (of step 1), zero-copy.")
      .def(
          "to_pydict",
          [](const Tabular& self) {
            nb::typed<nb::dict, nb::str, PyValues> columns;
            for (int i = 0; i < self.num_columns(); ++i) {
              columns[nb::str(self.schema()->field(i)->name().c_str())] = to_pylist(self.column(i));
            }
            return columns;
          },
          "The columns as a dict of column name to a list of Python values.")
      .def(
          "to_pylist",
          [](const Tabular& self) {
            std::vector<nb::list> columns;
            std::vector<nb::str> names;
            for (int i = 0; i < self.num_columns(); ++i) {
              columns.push_back(to_pylist(self.column(i)));
              names.emplace_back(self.schema()->field(i)->name().c_str());
            }
            nb::typed<nb::list, nb::typed<nb::dict, nb::str, nb::any>> rows;
            for (int64_t row = 0; row < self.num_rows(); ++row) {
              nb::typed<nb::dict, nb::str, nb::any> values;
              for (size_t i = 0; i < columns.size(); ++i) {
                values[names[i]] = nb::borrow(PyList_GET_ITEM(columns[i].ptr(), row));
              }
              rows.append(values);
            }
            return rows;
          },
          "The rows as a list of dicts of column name to Python value.")
      .def(
          "slice",
          [](const Tabular& self, int64_t offset, std::optional<int64_t> length) {
            const auto [start, count] = slice_bounds(self.num_rows(), offset, length);
            return self.slice(start, count);
          },
          "offset"_a = 0, "length"_a = nb::none())
      .def(
          "validate",
          [](const Tabular& self, bool full) {
            nb::gil_scoped_release unlocked;
            if (full) {
              self.validate_full();
            } else {
              self.validate();
            }
          },
          "full"_a = false)
      .def(
          "equals",
          [](const Tabular& self, const Tabular& other, bool check_metadata) {
            nb::gil_scoped_release unlocked;
            return self.equals(other, check_metadata);
          },
          "other"_a, "check_metadata"_a = false)
      .def(
          "__eq__",
          [](const Tabular& self, const Tabular& other) {
            nb::gil_scoped_release unlocked;
            return self.equals(other);
          },
          nb::is_operator(), nb::sig(kEqualsSignature))
      .def("__repr__",
           [repr_header](const Tabular& self) { return repr_header + self.to_string(); })
      .def("__arrow_c_schema__",
           [](const Tabular& self) { return schema_capsule(*self.schema()); });
  return binding;
}

/// The reader's next batch; raises StopIteration at the end of the stream.
RecordBatch next_batch(PyRecordBatchReader& self) {
  std::shared_ptr<RecordBatchReader> reader = live(self).reader;
  std::optional<RecordBatch> batch;
  {
    nb::gil_scoped_release unlocked;
    batch = reader->next();
  }
  if (!batch.has_value()) {
    throw nb::stop_iteration();
  }
  return *batch;
}

}  // namespace

SchemaPtr schema_from(nb::handle object, const char* target) {
  nb::object capsule = schema_capsule_of(object, target);
  return import_schema(capsule_struct<ArrowSchema>(capsule, kSchemaCapsule, "the capsule"));
}

std::unique_ptr<RecordBatchReader> record_batches_from(nb::handle object, const char* target) {
  if (is_stream_source(object)) {
    return reader_from(object, target);
  }
  if (has(object, "__arrow_c_array__")) {
    const RecordBatch batch = record_batch_from(object);
    return std::make_unique<TableBatchReader>(Table::from_batches(batch.schema(), {batch}));
  }
  throw_not_exportable(target, object, "__arrow_c_stream__ or __arrow_c_array__");
}

TypePtr type_from(nb::handle object, const char* target) {
  if (nb::isinstance<PyDataType>(object)) {
    return nb::cast<const PyDataType&>(object).type;
  }
  nb::object capsule = schema_capsule_of(object, target);
  return import_type(capsule_struct<ArrowSchema>(capsule, kSchemaCapsule, "the capsule"));
}

void bind_interchange(nb::module_& module) {
  nb::class_<PyDataType>(module, "DataType",
                         "An Arrow data type. Construct one from any object exposing "
                         "``__arrow_c_schema__`` (a pyarrow DataType, for one).")
      .def(
          "__init__",
          [](PyDataType* self, nb::handle object) {
            nb::object capsule = schema_capsule_of(object, "DataType");
            new (self) PyDataType{
                import_type(capsule_struct<ArrowSchema>(capsule, kSchemaCapsule, "the capsule"))};
          },
          nb::sig(kSchemaSourceSignature), "source"_a)
      .def_prop_ro(
          "id", [](const PyDataType& self) { return std::string(type_id_name(self.type->id())); },
          "The type's kind as Arrow names it ('int32', 'large_utf8', 'dense_union'...).")
      .def(
          "equals",
          [](const PyDataType& self, const PyDataType& other) {
            return self.type->equals(*other.type);
          },
          "other"_a, "Whether both types are the same (field names and nullability count).")
      .def(
          "__eq__",
          [](const PyDataType& self, const PyDataType& other) {
            return self.type->equals(*other.type);
          },
          nb::is_operator(), nb::sig(kEqualsSignature))
      .def(
          "__hash__", [](const PyDataType& self) { return hash_type(*self.type); },
          "A hash of what ``==`` compares: equal types hash equal.")
      .def("__str__", [](const PyDataType& self) { return self.type->to_string(); })
      .def("__repr__",
           [](const PyDataType& self) {
             return "bowstring.DataType(" + self.type->to_string() + ")";
           })
      .def(
          "__arrow_c_schema__",
          [](const PyDataType& self) {
            return make_capsule<ArrowSchema>(
                kSchemaCapsule, [&](ArrowSchema* out) { export_type(*self.type, out); });
          },
          "Exports the type as a PyCapsule holding an ArrowSchema.");

  nb::class_<PyField>(module, "Field",
                      "A named, typed column or child with nullability and metadata. Construct "
                      "one from any object exposing ``__arrow_c_schema__``.")
      .def(
          "__init__",
          [](PyField* self, nb::handle object) {
            nb::object capsule = schema_capsule_of(object, "Field");
            new (self) PyField{
                import_field(capsule_struct<ArrowSchema>(capsule, kSchemaCapsule, "the capsule"))};
          },
          nb::sig(kSchemaSourceSignature), "source"_a)
      .def_prop_ro("name", [](const PyField& self) { return self.field->name(); })
      .def_prop_ro("type", [](const PyField& self) { return PyDataType{self.field->type()}; })
      .def_prop_ro("nullable", [](const PyField& self) { return self.field->nullable(); })
      .def_prop_ro(
          "metadata", [](const PyField& self) { return metadata_dict(self.field->metadata()); },
          "The field's metadata as a dict of bytes to bytes.")
      .def(
          "equals",
          [](const PyField& self, const PyField& other, bool check_metadata) {
            return self.field->equals(*other.field, check_metadata);
          },
          "other"_a, "check_metadata"_a = false)
      .def(
          "__eq__",
          [](const PyField& self, const PyField& other) {
            return self.field->equals(*other.field);
          },
          nb::is_operator(), nb::sig(kEqualsSignature))
      .def(
          "__hash__", [](const PyField& self) { return hash_field(*self.field); },
          "A hash of the name, type and nullability, as ``==`` compares them.")
      .def("__repr__",
           [](const PyField& self) { return "bowstring.Field(" + self.field->to_string() + ")"; })
      .def(
          "__arrow_c_schema__",
          [](const PyField& self) {
            return make_capsule<ArrowSchema>(
                kSchemaCapsule, [&](ArrowSchema* out) { export_field(*self.field, out); });
          },
          "Exports the field as a PyCapsule holding an ArrowSchema.");

  nb::class_<PySchema>(module, "Schema",
                       "The fields of a record batch or table, with metadata. Construct one "
                       "from any object exposing ``__arrow_c_schema__`` (a pyarrow Schema, for "
                       "one) or from an 'arrow_schema' PyCapsule.")
      .def(
          "__init__",
          [](PySchema* self, nb::handle object) {
            nb::object capsule = schema_capsule_of(object, "Schema");
            new (self) PySchema{
                import_schema(capsule_struct<ArrowSchema>(capsule, kSchemaCapsule, "the capsule"))};
          },
          nb::sig(kSchemaSourceSignature), "source"_a)
      .def_prop_ro(
          "names", [](const PySchema& self) { return column_names(*self.schema); },
          "The field names, in order.")
      .def_prop_ro(
          "metadata", [](const PySchema& self) { return metadata_dict(self.schema->metadata()); },
          "The schema's metadata as a dict of bytes to bytes.")
      .def(
          "field",
          [](const PySchema& self, int64_t i) {
            return PyField{
                self.schema->field(checked_index(i, self.schema->num_fields(), "field"))};
          },
          "i"_a, "Field ``i`` (negative indices count from the end).")
      .def(
          "field",
          [](const PySchema& self, const std::string& name) {
            return PyField{self.schema->field(name)};
          },
          "name"_a, "The field named exactly ``name``.")
      .def("__len__", [](const PySchema& self) { return self.schema->num_fields(); })
      .def(
          "equals",
          [](const PySchema& self, const PySchema& other, bool check_metadata) {
            return self.schema->equals(*other.schema, check_metadata);
          },
          "other"_a, "check_metadata"_a = false)
      .def(
          "__eq__",
          [](const PySchema& self, const PySchema& other) {
            return self.schema->equals(*other.schema);
          },
          nb::is_operator(), nb::sig(kEqualsSignature))
      .def(
          "__hash__", [](const PySchema& self) { return hash_schema(*self.schema); },
          "A hash of the fields, as ``==`` compares them (metadata aside).")
      .def("__repr__",
           [](const PySchema& self) { return "bowstring.Schema\n" + self.schema->to_string(); })
      .def(
          "__arrow_c_schema__", [](const PySchema& self) { return schema_capsule(*self.schema); },
          "Exports the schema as a PyCapsule holding an ArrowSchema (a struct type).");

  nb::class_<Array>(module, "Array",
                    "An immutable Arrow array. Construct one from any object exposing "
                    "``__arrow_c_array__`` (zero-copy) or ``__arrow_c_stream__`` (a chunked "
                    "array: its chunks are concatenated when there are several).\n\n"
                    "Indexing and iteration give Python values, as pyarrow's ``as_py()`` does; "
                    "a slice is a zero-copy Array.\n\n"
                    ">>> import pyarrow as pa\n"
                    ">>> import bowstring\n"
                    ">>> array = bowstring.Array(pa.array([1, None, 3]))\n"
                    ">>> array.to_pylist()\n"
                    "[1, None, 3]\n"
                    ">>> array[-1], len(array)\n"
                    "(3, 3)\n"
                    ">>> array[1:].to_pylist()\n"
                    "[None, 3]\n")
      .def(
          "__init__", [](Array* self, nb::handle object) { new (self) Array(array_from(object)); },
          nb::sig(kArraySourceSignature), "source"_a)
      .def_prop_ro("type", [](const Array& self) { return PyDataType{self.type()}; })
      .def_prop_ro("null_count", [](const Array& self) { return self.null_count(); })
      .def_prop_ro(
          "offset", [](const Array& self) { return self.offset(); },
          "The array's offset into its buffers.")
      .def("__len__", [](const Array& self) { return self.length(); })
      .def(
          "to_pylist", [](const Array& self) { return to_pylist(self); },
          "The values as Python objects, as pyarrow's ``to_pylist()`` gives them: None for "
          "nulls, Decimal, datetime.date, datetime (zoned when the type has a time zone), "
          "timedelta, dicts for structs, (key, item) tuples for maps, a dictionary's values...")
      .def(
          "__getitem__",
          [](const Array& self, int64_t index) {
            return to_py(self, checked_index(index, self.length(), "value"));
          },
          "index"_a,
          "Value ``index`` as a Python object (negative indices count from the end); raises "
          "IndexError outside the array.")
      .def(
          "__getitem__",
          [](const Array& self, const nb::slice& range) { return slice_values(self, range); },
          "range"_a,
          "The values selected by a slice: a zero-copy Array for a step of 1, a copy of the "
          "selected values for any other step.")
      .def(
          "__iter__", [](const Array& self) { return iterate(to_pylist(self)); },
          "Iterates over the values as Python objects (see ``to_pylist``).")
      .def(
          "slice",
          [](const Array& self, int64_t offset, std::optional<int64_t> length) {
            const auto [start, count] = slice_bounds(self.length(), offset, length);
            return self.slice(start, count);
          },
          "offset"_a = 0, "length"_a = nb::none(),
          "A zero-copy slice of ``length`` values (to the end by default).")
      .def(
          "buffer_addresses",
          [](const Array& self) {
            nb::typed<nb::list, std::optional<uintptr_t>> addresses;
            for (const std::shared_ptr<Buffer>& buffer : self.data()->buffers) {
              if (buffer == nullptr) {
                addresses.append(nb::none());
              } else {
                addresses.append(reinterpret_cast<uintptr_t>(buffer->data()));
              }
            }
            return addresses;
          },
          "The address of each of the array's own buffers (None for an absent one), in Arrow's "
          "order: validity first, then the type's buffers (and a view type's data buffers).")
      .def(
          "validate",
          [](const Array& self, bool full) {
            nb::gil_scoped_release unlocked;
            if (full) {
              self.validate_full();
            } else {
              self.validate();
            }
          },
          "full"_a = false,
          "Checks the array's structure (every value too when ``full``); raises ValueError naming "
          "the problem.")
      .def(
          "equals",
          [](const Array& self, const Array& other) {
            nb::gil_scoped_release unlocked;
            return self.equals(other);
          },
          "other"_a, "Whether both arrays have the same type and values.")
      .def(
          "__eq__",
          [](const Array& self, const Array& other) {
            nb::gil_scoped_release unlocked;
            return self.equals(other);
          },
          nb::is_operator(), nb::sig(kEqualsSignature))
      .def("to_string", &Array::to_string, "The values, pretty-printed.")
      .def("__repr__",
           [](const Array& self) {
             return "bowstring.Array<" + self.type()->to_string() + ">\n" + self.to_string();
           })
      .def(
          "__arrow_c_array__",
          [](const Array& self, nb::handle requested_schema) {
            check_requested_type(requested_schema, self.type());
            return array_capsules_of(self);
          },
          nb::sig(kArrayExportSignature), "requested_schema"_a = nb::none(),
          (std::string("Exports the array as a pair of PyCapsules (ArrowSchema, ArrowArray), "
                       "zero-copy. ") +
           kRequestedSchemaDoc)
              .c_str());

  nb::class_<ChunkedArray>(module, "ChunkedArray",
                           "A column made of several arrays of one type. Construct one from any "
                           "object exposing ``__arrow_c_stream__`` or ``__arrow_c_array__``.")
      .def(
          "__init__",
          [](ChunkedArray* self, nb::handle object) {
            new (self) ChunkedArray(chunked_array_from(object));
          },
          nb::sig(kArraySourceSignature), "source"_a)
      .def_prop_ro("type", [](const ChunkedArray& self) { return PyDataType{self.type()}; })
      .def_prop_ro("null_count", &ChunkedArray::null_count)
      .def_prop_ro("num_chunks", &ChunkedArray::num_chunks)
      .def_prop_ro("chunks", [](const ChunkedArray& self) { return self.chunks(); })
      .def(
          "chunk",
          [](const ChunkedArray& self, int64_t i) {
            return self.chunk(checked_index(i, self.num_chunks(), "chunk"));
          },
          "i"_a)
      .def("__len__", &ChunkedArray::length)
      .def(
          "to_pylist", [](const ChunkedArray& self) { return to_pylist(self); },
          "The values of every chunk as Python objects, as ``Array.to_pylist`` gives them.")
      .def(
          "__getitem__",
          [](const ChunkedArray& self, int64_t index) {
            const ChunkedArray value = self.slice(checked_index(index, self.length(), "value"), 1);
            for (const Array& chunk : value.chunks()) {
              if (chunk.length() == 1) {
                return to_py(chunk, 0);
              }
            }
            throw nb::index_error("no chunk holds the value");
          },
          "index"_a, "Value ``index`` as a Python object (negative indices count from the end).")
      .def(
          "__getitem__",
          [](const ChunkedArray& self, const nb::slice& range) {
            return slice_values(self, range);
          },
          "range"_a,
          "The values selected by a slice: zero-copy for a step of 1, a copy of the selected "
          "values in one chunk for any other step.")
      .def(
          "slice",
          [](const ChunkedArray& self, int64_t offset, std::optional<int64_t> length) {
            const auto [start, count] = slice_bounds(self.length(), offset, length);
            return self.slice(start, count);
          },
          "offset"_a = 0, "length"_a = nb::none(),
          "A zero-copy slice of ``length`` values (to the end by default).")
      .def(
          "__iter__", [](const ChunkedArray& self) { return iterate(to_pylist(self)); },
          "Iterates over the values as Python objects.")
      .def(
          "equals",
          [](const ChunkedArray& self, const ChunkedArray& other) {
            nb::gil_scoped_release unlocked;
            return self.equals(other);
          },
          "other"_a)
      .def(
          "__eq__",
          [](const ChunkedArray& self, const ChunkedArray& other) {
            nb::gil_scoped_release unlocked;
            return self.equals(other);
          },
          nb::is_operator(), nb::sig(kEqualsSignature))
      .def("__repr__",
           [](const ChunkedArray& self) {
             return "bowstring.ChunkedArray<" + self.type()->to_string() + ">\n" + self.to_string();
           })
      .def(
          "__arrow_c_stream__",
          [](const ChunkedArray& self, nb::handle requested_schema) {
            check_requested_type(requested_schema, self.type());
            return make_capsule<ArrowArrayStream>(
                kStreamCapsule, [&](ArrowArrayStream* out) { export_chunked_array(self, out); });
          },
          nb::sig(kStreamExportSignature), "requested_schema"_a = nb::none(),
          (std::string("Exports the chunks as a PyCapsule holding an ArrowArrayStream. ") +
           kRequestedSchemaDoc)
              .c_str());

  bind_tabular<RecordBatch>(
      module, "RecordBatch", record_batch_from,
      {"Equal-length columns described by a schema. Construct one from any object exposing "
       "``__arrow_c_array__`` (a struct array, zero-copy) or ``__arrow_c_stream__`` (batches "
       "are combined into one).",
       "Column ``i`` (negative indices count from the end).", "The column named exactly ``name``."})
      .def(
          "__arrow_c_array__",
          [](const RecordBatch& self, nb::handle requested_schema) {
            check_requested_schema(requested_schema, self.schema());
            return batch_capsules_of(self);
          },
          nb::sig(kArrayExportSignature), "requested_schema"_a = nb::none(),
          (std::string("Exports the batch as a pair of PyCapsules (ArrowSchema, ArrowArray of a "
                       "struct), zero-copy. ") +
           kRequestedSchemaDoc)
              .c_str())
      .def(
          "__arrow_c_stream__",
          [](const RecordBatch& self, nb::handle requested_schema) {
            check_requested_schema(requested_schema, self.schema());
            return table_stream_capsule(Table::from_batches(self.schema(), {self}));
          },
          nb::sig(kStreamExportSignature), "requested_schema"_a = nb::none(),
          "Exports the batch as a one-batch PyCapsule stream (ArrowArrayStream).");

  bind_tabular<Table>(
      module, "Table", table_from,
      {"Columns of equal length, each made of chunks. Construct one from any object exposing "
       "``__arrow_c_stream__`` (a pyarrow Table or RecordBatchReader, for one; the stream is "
       "read to its end) or ``__arrow_c_array__``, zero-copy.",
       "Column ``i`` as a ChunkedArray (negative indices count from the end).",
       "The column named exactly ``name``, as a ChunkedArray."})
      .def(
          "to_batches",
          [](const Table& self, std::optional<int64_t> max_chunksize) {
            return self.to_batches(max_chunksize.value_or(0));
          },
          "max_chunksize"_a = nb::none(),
          "The rows as zero-copy record batches of at most ``max_chunksize`` rows each.")
      .def(
          "to_reader",
          [](const Table& self, std::optional<int64_t> max_chunksize) {
            return PyRecordBatchReader(
                std::make_unique<TableBatchReader>(self, max_chunksize.value_or(0)));
          },
          "max_chunksize"_a = nb::none(), "A RecordBatchReader over the table's batches.")
      .def(
          "combine_chunks",
          [](const Table& self) {
            nb::gil_scoped_release unlocked;
            return self.combine_chunks();
          },
          "The table with every column in at most one chunk.")
      .def(
          "__arrow_c_stream__",
          [](const Table& self, nb::handle requested_schema) {
            check_requested_schema(requested_schema, self.schema());
            return table_stream_capsule(self);
          },
          nb::sig(kStreamExportSignature), "requested_schema"_a = nb::none(),
          (std::string("Exports the table's batches as a PyCapsule holding an ArrowArrayStream, "
                       "zero-copy. ") +
           kRequestedSchemaDoc)
              .c_str());

  nb::class_<PyRecordBatchReader>(module, "RecordBatchReader",
                                  "A single-use stream of record batches. Construct one from any "
                                  "object exposing ``__arrow_c_stream__`` or from an "
                                  "'arrow_array_stream' PyCapsule; batches are imported one at "
                                  "a time as they are read. Threads may share a reader: they "
                                  "take turns, and one waiting for its turn does not hold the "
                                  "GIL, even when it is a consumer of the exported stream.")
      .def(
          "__init__",
          [](PyRecordBatchReader* self, nb::handle object) {
            new (self) PyRecordBatchReader(reader_from(object, "RecordBatchReader"));
          },
          nb::sig(kStreamSourceSignature), "source"_a)
      .def_prop_ro("schema",
                   [](PyRecordBatchReader& self) { return PySchema{live(self).reader->schema()}; })
      .def_prop_ro(
          "closed", [](const PyRecordBatchReader& self) { return self.reader == nullptr; },
          "Whether the reader was handed over through ``__arrow_c_stream__``.")
      .def("read_next_batch", &next_batch,
           "The next batch; raises StopIteration at the end of the stream.")
      .def(
          "read_all",
          [](PyRecordBatchReader& self) {
            std::shared_ptr<RecordBatchReader> reader = live(self).reader;
            return read_all(*reader);
          },
          "Every remaining batch, as a Table.")
      .def(
          "__iter__", [](nb::object self) { return self; },
          nb::sig("def __iter__(self) -> RecordBatchReader"))
      .def("__next__", &next_batch)
      .def("__repr__",
           [](const PyRecordBatchReader& self) {
             return self.reader == nullptr
                        ? std::string("bowstring.RecordBatchReader (closed)")
                        : "bowstring.RecordBatchReader\n" + self.reader->schema()->to_string();
           })
      .def("__arrow_c_schema__",
           [](PyRecordBatchReader& self) { return schema_capsule(*live(self).reader->schema()); })
      .def(
          "__arrow_c_stream__",
          [](PyRecordBatchReader& self, nb::handle requested_schema) {
            check_requested_schema(requested_schema, live(self).reader->schema());
            nb::capsule capsule = reader_capsule(self.reader);
            self.reader.reset();
            return capsule;
          },
          nb::sig(kStreamExportSignature), "requested_schema"_a = nb::none(),
          (std::string("Hands the reader over as a PyCapsule holding an ArrowArrayStream; this "
                       "reader is closed afterwards. ") +
           kRequestedSchemaDoc)
              .c_str());

  // The data classes compare by their values, which a hash would have to read in full: like
  // pyarrow's, they are unhashable rather than hashed by identity against their `==`.
  for (const char* name : {"Array", "ChunkedArray", "RecordBatch", "Table"}) {
    nb::setattr(module.attr(name), "__hash__", nb::none());
  }
}

}  // namespace bowstring::python
