// The engine of the file formats: CSV reads and writes, for tests now and the DataFrame
// readers and writers later.

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/io/csv/csv_reader.h"
#include "bowstring/io/csv/csv_writer.h"
#include "bowstring/types/spark_type_names.h"
#include "interchange_bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {
namespace {

// `schema`: None, a DDL string ("a INT, b STRING") or an object with `__arrow_c_schema__`.
SchemaPtr csv_schema_from(nb::handle schema, const io::csv::CsvReadOptions& options) {
  if (schema.is_none()) {
    return nullptr;
  }
  if (nb::isinstance<nb::str>(schema)) {
    return std::make_shared<const Schema>(
        parse_spark_schema(nb::cast<std::string>(schema), options.time_zone));
  }
  return schema_from(schema, "read_csv");
}

nb::object read_csv(const std::vector<std::string>& paths,
                    const std::map<std::string, std::string>& options, nb::handle schema,
                    const std::optional<std::vector<int>>& columns) {
  io::csv::CsvReadRequest request;
  request.paths = paths;
  request.options = io::csv::parse_read_options(options);
  request.schema = csv_schema_from(schema, request.options);
  request.columns = columns;
  std::shared_ptr<RecordBatchReader> reader;
  {
    // Opening maps the files and resolves the schema (inference reads them all).
    const nb::gil_scoped_release unlocked;
    reader = io::csv::read_csv(std::move(request));
  }
  return nb::module_::import_("bowstring._core")
      .attr("RecordBatchReader")(reader_capsule(std::move(reader)));
}

void write_csv(nb::handle data, const std::string& path,
               const std::map<std::string, std::string>& options) {
  const io::csv::CsvWriteOptions write_options = io::csv::parse_write_options(options);
  const std::unique_ptr<RecordBatchReader> batches = record_batches_from(data, "write_csv");
  const nb::gil_scoped_release unlocked;
  io::csv::write_csv(*batches, path, write_options);
}

}  // namespace

void bind_io(nb::module_& module) {
  module.def("read_csv", &read_csv, "paths"_a, "options"_a, "schema"_a = nb::none(),
             "columns"_a = nb::none(),
             nb::sig("def read_csv(paths: collections.abc.Sequence[str], options: "
                     "collections.abc.Mapping[str, str], schema: str | "
                     "bowstring._protocols.ArrowSchemaExportable | None = None, columns: "
                     "collections.abc.Sequence[int] | None = None) -> RecordBatchReader"),
             "Reads CSV files with Spark's options (string keys, case-insensitive, and values) "
             "as a RecordBatchReader (`__arrow_c_stream__`). `schema` is a DDL string or an "
             "Arrow schema (None: from the header, inferred with inferSchema); `columns` picks "
             "the schema's columns by index. Raises ValueError for a bad option or a malformed "
             "record in FAILFAST mode, OSError for a file that cannot be read.");
  module.def("write_csv", &write_csv, "stream"_a, "path"_a, "options"_a,
             nb::sig("def write_csv(stream: bowstring._protocols.ArrowStreamExportable | "
                     "bowstring._protocols.ArrowArrayLike, path: str, options: "
                     "collections.abc.Mapping[str, str]) -> None"),
             "Writes the batches of `stream` (any `__arrow_c_stream__` or `__arrow_c_array__` "
             "exporter) to a new CSV file at `path` with Spark's writer options (header, sep, "
             "quote, escape, quoteAll, escapeQuotes, nullValue, emptyValue, dateFormat, "
             "timestampFormat, lineSep, compression).");
}

}  // namespace bowstring::python
