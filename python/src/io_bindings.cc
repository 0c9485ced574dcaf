// The engine of the file formats: CSV reads and writes of single files, and the plans that
// read folders of files in any format and write query results as folders of files.

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

#include "bowstring/exec/file_write.h"
#include "bowstring/exec/physical_plan.h"
#include "bowstring/io/csv/csv_reader.h"
#include "bowstring/io/csv/csv_writer.h"
#include "bowstring/io/files/file_relation.h"
#include "bowstring/io/formats.h"
#include "bowstring/plan/analyzer.h"
#include "bowstring/plan/optimizer.h"
#include "bowstring/types/spark_type_names.h"
#include "interchange_bindings.h"
#include "plan_bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {
namespace {

// `schema`: None, a DDL string ("a INT, b STRING", TIMESTAMP in `time_zone`) or an object
// with `__arrow_c_schema__`.
SchemaPtr source_schema_from(nb::handle schema, const std::string& time_zone, const char* where) {
  if (schema.is_none()) {
    return nullptr;
  }
  if (nb::isinstance<nb::str>(schema)) {
    return std::make_shared<const Schema>(
        parse_spark_schema(nb::cast<std::string>(schema), time_zone));
  }
  return schema_from(schema, where);
}

nb::object read_csv(const std::vector<std::string>& paths,
                    const std::map<std::string, std::string>& options, nb::handle schema,
                    const std::optional<std::vector<int>>& columns) {
  io::csv::CsvReadRequest request;
  request.paths = paths;
  request.options = io::csv::parse_read_options(options);
  request.schema = source_schema_from(schema, request.options.time_zone, "read_csv");
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

PyLogicalPlan read_files(const std::string& format, const std::vector<std::string>& paths,
                         const io::SourceOptions& options, nb::handle schema,
                         const std::string& session_time_zone) {
  const SchemaPtr user_schema = source_schema_from(schema, session_time_zone, "read");
  // Listing the files and inferring their schema read the disk: without the GIL.
  const nb::gil_scoped_release unlocked;
  io::FileFormatPtr file_format =
      io::make_file_format(format, options, user_schema, io::FormatUse::kRead);
  return PyLogicalPlan{plan::file_scan(io::open_file_relation(
      paths, std::move(file_format), io::file_set_options(options, session_time_zone)))};
}

void write_files(const PyLogicalPlan& query, const std::string& format, const std::string& path,
                 const std::string& mode, const std::vector<std::string>& partition_by,
                 const io::SourceOptions& options, int64_t morsel_rows, int threads) {
  exec::FileWrite request;
  request.format = io::make_file_format(format, options, nullptr, io::FormatUse::kWrite);
  request.path = path;
  request.mode = exec::parse_save_mode(mode);
  request.partition_by = partition_by;
  exec::QueryOptions query_options;
  query_options.morsel_rows = morsel_rows;
  query_options.threads = threads;
  run_interruptibly<void>(
      [plan = query.plan, request, query_options] {
        compute::ExecContext context;
        const plan::PlanPtr optimized = plan::optimize(plan::analyze(plan));
        exec::write_files(exec::plan_physical(optimized, context), request, context, query_options);
      },
      query_options.cancellation);
}

}  // namespace

void bind_io(nb::module_& module) {
  module.def("read", &read_files, "format"_a, "paths"_a, "options"_a = io::SourceOptions{},
             "schema"_a = nb::none(), "session_time_zone"_a = "UTC",
             nb::sig("def read(format: str, paths: collections.abc.Sequence[str], options: "
                     "collections.abc.Mapping[str, str] = {}, schema: str | "
                     "bowstring._protocols.ArrowSchemaExportable | None = None, "
                     "session_time_zone: str = 'UTC') -> LogicalPlan"),
             "A plan reading the files of `paths` in `format` ('csv', 'arrow') with Spark's "
             "reader options, as spark.read.format(format).options(...).load(paths): paths are "
             "files, folders (listed recursively, '_' and '.' names skipped) or globs; "
             "name=value folders become partition columns typed as Spark infers them (options "
             "basePath, recursiveFileLookup). `schema` is a DDL string or an Arrow schema (None: "
             "from the files). Filters on partition columns prune files before any is opened; "
             "the files are read in byte ranges on every thread. Raises AnalysisException "
             "(PATH_NOT_FOUND, DATA_SOURCE_NOT_FOUND) and ValueError for a bad option.");
  module.def("write", &write_files, "plan"_a, "format"_a, "path"_a, "mode"_a = "errorifexists",
             "partition_by"_a = std::vector<std::string>{}, "options"_a = io::SourceOptions{},
             "morsel_rows"_a = 64 * 1024, "threads"_a = 0,
             nb::sig("def write(plan: LogicalPlan, format: str, path: str, mode: str = "
                     "'errorifexists', partition_by: collections.abc.Sequence[str] = [], "
                     "options: collections.abc.Mapping[str, str] = {}, morsel_rows: int = 65536, "
                     "threads: int = 0) -> None"),
             "Runs `plan` and writes its rows to the folder `path` in `format` as "
             "df.write.format(format).mode(mode).partitionBy(*partition_by).save(path) does: "
             "part-NNNNN-<uuid>-c000.<ext> files (name=value folders for `partition_by`) and "
             "_SUCCESS. Modes: 'error'/'errorifexists' (raises AnalysisException "
             "PATH_ALREADY_EXISTS when `path` exists), 'append', 'overwrite', 'ignore'. The "
             "files are written beside `path` and moved into place only when the query "
             "succeeded: a failure or Ctrl-C leaves `path` as it was.");
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
