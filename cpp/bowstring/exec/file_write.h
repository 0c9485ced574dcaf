#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/exec/executor.h"
#include "bowstring/io/files/file_format.h"

namespace bowstring::exec {

/// Spark's save modes (`DataFrameWriter.mode`).
enum class SaveMode : uint8_t {
  /// "error" / "errorifexists" / "default": fail when the destination exists.
  kErrorIfExists,
  /// Add files beside those already there.
  kAppend,
  /// Replace what is there.
  kOverwrite,
  /// Do nothing when the destination exists.
  kIgnore,
};

/// The mode Spark calls `name` (case-insensitive); throws `compute::AnalysisError`
/// INVALID_SAVE_MODE otherwise.
SaveMode parse_save_mode(std::string_view name);

/// A write of a query's rows as files.
struct FileWrite {
  io::FileFormatPtr format;
  /// The destination folder.
  std::string path;
  SaveMode mode = SaveMode::kErrorIfExists;
  /// Columns written as `name=value` folders (in this order) instead of inside the files.
  std::vector<std::string> partition_by;
};

/// Runs `plan` and writes its rows as Spark writes a folder of files: each thread writes its
/// own `part-NNNNN-<uuid>-c000.<ext>` files (one per partition folder it has rows for), and an
/// empty `_SUCCESS` marks the folder complete. The files are written in a hidden folder beside
/// the destination and moved into place only once the whole query has succeeded: a query that
/// fails or is cancelled leaves the destination as it was. Throws `compute::AnalysisError`
/// PATH_ALREADY_EXISTS when the destination exists in mode kErrorIfExists, and for partition
/// columns the output lacks, repeats, or that would leave no column in the files.
void write_files(const PhysicalPtr& plan, const FileWrite& write,
                 const compute::ExecContext& context, const QueryOptions& options = {});

}  // namespace bowstring::exec
