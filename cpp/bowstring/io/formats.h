#pragma once

#include <map>
#include <string>
#include <string_view>

#include "bowstring/io/files/file_format.h"
#include "bowstring/io/files/file_set.h"

namespace bowstring::io {

/// Spark's data source options: string keys, matched case-insensitively, and string values.
using SourceOptions = std::map<std::string, std::string>;

/// What a format is made for: its reader options differ from its writer options.
enum class FormatUse : uint8_t { kRead, kWrite };

/// The format Spark calls `name` ("csv", "arrow"; case-insensitive) with `options`, and the
/// user's `schema` (null: taken from the files) for reads. Throws `compute::AnalysisError`
/// DATA_SOURCE_NOT_FOUND for an unknown name, and `InvalidArgument` for a bad option value.
FileFormatPtr make_file_format(std::string_view name, const SourceOptions& options,
                               SchemaPtr schema, FormatUse use);

/// The listing options among `options` (`basePath`, `recursiveFileLookup`); `time_zone` is
/// the session's.
FileSetOptions file_set_options(const SourceOptions& options, const std::string& time_zone);

}  // namespace bowstring::io
