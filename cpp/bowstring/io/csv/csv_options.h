#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace bowstring::io::csv {

/// Spark's data source options as given to `spark.read.option(...)`: string keys and values.
/// Keys are matched case-insensitively, as Spark's `CaseInsensitiveMap` does.
using OptionMap = std::map<std::string, std::string>;

/// What to do with a malformed record (Spark's `ParseMode`).
enum class ParseMode : uint8_t {
  kPermissive,     // bad fields become null, the raw record goes to the corrupt-record column
  kDropMalformed,  // the record is left out
  kFailFast,       // the read fails naming the file, the line and the column
};

/// Spark's `unescapedQuoteHandling`: a quote inside a quoted value that is not escaped.
enum class UnescapedQuoteHandling : uint8_t {
  kStopAtClosingQuote,  // the quote is part of the value; the value ends at a closing quote
  kBackToDelimiter,     // the value is read again as unquoted, up to the next delimiter
  kStopAtDelimiter,     // the rest of the value is unquoted, up to the next delimiter
  kSkipValue,           // the value is skipped (null)
  kRaiseError,          // the record is malformed
};

/// Compression of a file written (reading picks the codec from the file name as Hadoop does:
/// ".gz", ".zst").
enum class Compression : uint8_t { kNone, kGzip, kZstd };

/// How line endings are recognised: any of "\n", "\r\n" and "\r" (Spark's default) or one
/// given character.
struct LineSeparator {
  bool any = true;
  char character = '\n';
};

/// The options of `spark.read.csv`, with Spark 4's defaults (CSVOptions.scala).
struct CsvReadOptions {
  bool header = false;
  bool infer_schema = false;
  char separator = ',';
  /// '\0' when quoting is off (Spark's `quote` set to the empty string).
  char quote = '"';
  char escape = '\\';
  /// '\0' when there are no comment lines.
  char comment = '\0';
  std::string null_value;
  std::string empty_value;
  std::string nan_value = "NaN";
  std::string positive_inf = "Inf";
  std::string negative_inf = "-Inf";
  /// Unset: dates and timestamps are read as `CAST(string AS DATE/TIMESTAMP)` reads them.
  std::optional<std::string> date_format;
  std::optional<std::string> timestamp_format;
  std::optional<std::string> timestamp_ntz_format;
  bool ignore_leading_whitespace = false;
  bool ignore_trailing_whitespace = false;
  ParseMode mode = ParseMode::kPermissive;
  std::string column_name_of_corrupt_record = "_corrupt_record";
  bool enforce_schema = true;
  LineSeparator line_separator;
  int64_t max_columns = 20480;
  /// -1: unlimited.
  int64_t max_chars_per_column = -1;
  bool multi_line = false;
  double sampling_ratio = 1.0;
  UnescapedQuoteHandling unescaped_quote_handling = UnescapedQuoteHandling::kStopAtDelimiter;
  /// Spark's `preferDate`: infer DATE for values the date format reads.
  bool prefer_date = true;
  /// The zone of TIMESTAMP values without one (Spark's `timeZone` option, default the session's).
  std::string time_zone = "UTC";
  /// Rows per record batch produced (not a Spark option: the engine's batch size).
  int64_t batch_rows = 65536;
};

/// The options of `df.write.csv`, with Spark 4's defaults.
struct CsvWriteOptions {
  bool header = false;
  char separator = ',';
  char quote = '"';
  char escape = '\\';
  bool quote_all = false;
  bool escape_quotes = true;
  std::string null_value;
  std::string empty_value = "\"\"";
  bool ignore_leading_whitespace = true;
  bool ignore_trailing_whitespace = true;
  std::string date_format = "yyyy-MM-dd";
  std::string timestamp_format = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";
  std::string timestamp_ntz_format = "yyyy-MM-dd'T'HH:mm:ss[.SSS]";
  std::string line_separator = "\n";
  Compression compression = Compression::kNone;
  std::string time_zone = "UTC";
};

/// Reads Spark's reader options. Throws `InvalidArgument` naming the option and the value for
/// a value Spark rejects (`mode`, booleans, numbers, a separator longer than one character...)
/// and for what is not supported here (an `encoding` other than UTF-8, a `locale` other than
/// en-US). Unknown keys are ignored, as Spark ignores them.
CsvReadOptions parse_read_options(const OptionMap& options);

/// Reads Spark's writer options, as `parse_read_options`.
CsvWriteOptions parse_write_options(const OptionMap& options);

}  // namespace bowstring::io::csv
