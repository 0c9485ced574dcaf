#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bowstring/io/files/file_format.h"
#include "bowstring/io/files/file_set.h"

namespace bowstring::io {

/// Files read as one relation: their listing, their format, and their columns.
struct FileRelation {
  FileSet files;
  FileFormatPtr format;
  /// The columns the files hold, by position.
  SchemaPtr data_schema;
  /// The relation's columns: the files' columns, then the partition columns.
  SchemaPtr schema;
  /// Per column of `schema`: its index in `data_schema`, or -1 for a partition column.
  std::vector<int> data_index;
  /// Per column of `schema`: its index in `files.partition_schema`, or -1 for a data column.
  std::vector<int> partition_index;
  /// How scans cut the files (the planner sets the parallelism).
  SplitOptions split_options;
};

using FileRelationPtr = std::shared_ptr<const FileRelation>;

/// Lists `paths` and takes the schema from `format` (which holds the user's schema, if any),
/// as Spark's DataSource resolves a file relation: the files' columns, then the partition
/// columns; a column of the files named as a partition column (case-insensitively) keeps its
/// place but takes the partition's type and values, and a user's schema may name partition
/// columns, which the files are then not read for and which take the user's types. Throws as
/// `list_files` and the format's schema inference do.
FileRelationPtr open_file_relation(const std::vector<std::string>& paths, FileFormatPtr format,
                                   const FileSetOptions& options,
                                   const SplitOptions& split_options = {});

}  // namespace bowstring::io
