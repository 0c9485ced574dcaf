#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/table/record_batch.h"
#include "bowstring/table/schema.h"

namespace bowstring::io {

/// One file of a read.
struct DataFile {
  /// Absolute and normalized.
  std::string path;
  int64_t size = 0;
};

/// How paths are listed and partition folders read (Spark's reader options and settings).
struct FileSetOptions {
  /// `spark.sql.sources.partitionColumnTypeInference.enabled`: partition values typed as Spark
  /// infers them (int, long, decimal, double, timestamp, date, else string); off, strings.
  bool infer_partition_types = true;
  /// The `basePath` option: where partition folders start (unset: at each path given).
  std::optional<std::string> base_path;
  /// The `recursiveFileLookup` option: every file below the paths, no partition discovery.
  bool recursive_file_lookup = false;
  /// The session time zone, that of partition values typed TIMESTAMP.
  std::string time_zone = "UTC";
};

/// The files of a read and their hive partition values.
struct FileSet {
  /// The paths as resolved (globs expanded, absolute), for plans to show.
  std::vector<std::string> root_paths;
  /// Sorted by path.
  std::vector<DataFile> files;
  /// The partition columns (none when the files are not in `name=value` folders).
  SchemaPtr partition_schema = std::make_shared<const Schema>(FieldVector{});
  /// One row per file of `files`: its partition values, typed by `partition_schema`.
  RecordBatch partition_values{partition_schema, 0, {}};
};

/// Lists the files of `paths` as Spark's InMemoryFileIndex does: a path is a file, a directory
/// (listed recursively, names starting with `_` (unless they hold `=`) or `.`, and names ending
/// in `._COPYING_`, left out) or a glob (`*`, `?`, `[...]`, `{a,b}`). Folders named
/// `name=value` between a root and the files are partition columns (percent escapes decoded,
/// `__HIVE_DEFAULT_PARTITION__` null), their types widened across folders as Spark widens them.
/// Throws `compute::AnalysisError` PATH_NOT_FOUND for a path (or glob) that matches nothing, and
/// `InvalidArgument` for partition folders that disagree on their columns.
FileSet list_files(const std::vector<std::string>& paths, const FileSetOptions& options = {});

/// The type Spark infers for one partition folder's value text (`inferPartitionColumnValue`):
/// int, bigint, decimal(p,0), double, timestamp (in `time_zone`), date, string; the null type
/// for `__HIVE_DEFAULT_PARTITION__`.
TypePtr infer_partition_type(std::string_view raw, const std::string& time_zone);

/// The type of a partition column whose folders have types `a` and `b`
/// (`findWiderTypeForPartitionColumn`): numbers widen, dates widen to timestamps, anything
/// else (and a double with a bigint or decimal) becomes string.
TypePtr wider_partition_type(const TypePtr& a, const TypePtr& b);

/// `text` with Hive's path escapes (`%XX`) decoded.
std::string unescape_path_name(std::string_view text);
/// `text` with the characters Hive escapes in folder names written as `%XX`.
std::string escape_path_name(std::string_view text);

/// A byte range of one file: the unit a scan reads on one thread.
struct FileSplit {
  /// Index into `FileSet::files`.
  size_t file = 0;
  int64_t offset = 0;
  int64_t length = 0;
};

/// How files are cut into splits (Spark's `spark.sql.files.*` settings).
struct SplitOptions {
  /// `spark.sql.files.maxPartitionBytes`.
  int64_t max_split_bytes = 128LL << 20;
  /// `spark.sql.files.openCostInBytes`: what opening a file is counted as costing, in bytes.
  int64_t open_cost_bytes = 4LL << 20;
  /// Splits wanted at least (the threads that will read them).
  int parallelism = 1;
};

/// Splits of the files `selected` (indices into `files`), in order: a file that cannot be split
/// (`splittable` false) is one split, the others are cut every
/// min(max_split_bytes, max(open_cost_bytes, total bytes / parallelism)) bytes, as Spark sizes
/// them, total bytes counting each file's open cost.
std::vector<FileSplit> split_files(const std::vector<DataFile>& files,
                                   const std::vector<size_t>& selected,
                                   const std::vector<bool>& splittable,
                                   const SplitOptions& options);

}  // namespace bowstring::io
