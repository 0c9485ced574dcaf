#include "bowstring/io/formats.h"

#include <algorithm>
#include <utility>

#include "bowstring/compute/core/errors.h"
#include "bowstring/expr/expression.h"
#include "bowstring/io/arrow/arrow_format.h"
#include "bowstring/io/csv/csv_format.h"
#include "bowstring/util/error.h"

namespace bowstring::io {
namespace {

std::optional<std::string> option(const SourceOptions& options, std::string_view key) {
  for (const auto& [name, value] : options) {
    if (expr::detail::ascii_lower(name) == expr::detail::ascii_lower(key)) {
      return value;
    }
  }
  return std::nullopt;
}

}  // namespace

FileFormatPtr make_file_format(std::string_view name, const SourceOptions& options,
                               SchemaPtr schema, FormatUse use) {
  const std::string format = expr::detail::ascii_lower(name);
  if (format == "csv") {
    if (use == FormatUse::kRead) {
      return std::make_shared<csv::CsvFormat>(csv::parse_read_options(options), std::move(schema));
    }
    return std::make_shared<csv::CsvFormat>(csv::CsvReadOptions{}, nullptr,
                                            csv::parse_write_options(options));
  }
  if (format == "arrow") {
    return std::make_shared<arrow::ArrowFormat>(std::move(schema));
  }
  throw compute::AnalysisError("DATA_SOURCE_NOT_FOUND",
                               "Failed to find the data source: " + std::string(name) +
                                   ". Make sure the provider name is correct and the package is "
                                   "properly registered and compatible with your Spark version.");
}

FileSetOptions file_set_options(const SourceOptions& options, const std::string& time_zone) {
  FileSetOptions out;
  out.time_zone = time_zone;
  out.base_path = option(options, "basePath");
  if (const std::optional<std::string> value = option(options, "recursiveFileLookup")) {
    const std::string flag = expr::detail::ascii_lower(*value);
    if (flag != "true" && flag != "false") {
      throw InvalidArgument("recursiveFileLookup should be a boolean, not '" + *value + "'");
    }
    out.recursive_file_lookup = flag == "true";
  }
  return out;
}

}  // namespace bowstring::io
