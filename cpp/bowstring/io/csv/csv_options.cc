#include "bowstring/io/csv/csv_options.h"

#include <cctype>
#include <charconv>
#include <cstdlib>

#include "bowstring/util/error.h"

namespace bowstring::io::csv {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

[[noreturn]] void throw_bad_value(std::string_view key, std::string_view value,
                                  std::string_view expected) {
  throw InvalidArgument("CSV option '" + std::string(key) + "' has the invalid value '" +
                        std::string(value) + "': " + std::string(expected));
}

// The options by lower-case key; of keys given twice in different cases the last wins.
class Options {
 public:
  explicit Options(const OptionMap& options) {
    for (const auto& [key, value] : options) {
      by_key_[lower(key)] = {key, value};
    }
  }

  const std::string* find(std::string_view key) const {
    const auto it = by_key_.find(lower(key));
    return it == by_key_.end() ? nullptr : &it->second.second;
  }

  // The key as the caller spelled it, for messages.
  std::string spelling(std::string_view key) const {
    const auto it = by_key_.find(lower(key));
    return it == by_key_.end() ? std::string(key) : it->second.first;
  }

  void read_bool(std::string_view key, bool& out) const {
    if (const std::string* value = find(key)) {
      const std::string folded = lower(*value);
      if (folded == "true") {
        out = true;
      } else if (folded == "false") {
        out = false;
      } else {
        throw_bad_value(spelling(key), *value, "expected true or false");
      }
    }
  }

  void read_string(std::string_view key, std::string& out) const {
    if (const std::string* value = find(key)) {
      out = *value;
    }
  }

  void read_optional(std::string_view key, std::optional<std::string>& out) const {
    if (const std::string* value = find(key)) {
      out = *value;
    }
  }

  // A single character; the empty string gives '\0' (the feature off) when `empty_allowed`.
  void read_char(std::string_view key, char& out, bool empty_allowed) const {
    if (const std::string* value = find(key)) {
      if (value->empty() && empty_allowed) {
        out = '\0';
      } else if (value->size() == 1) {
        out = (*value)[0];
      } else if (*value == "\\u0000") {
        out = '\0';
      } else {
        throw_bad_value(spelling(key), *value, "expected a single character");
      }
    }
  }

  void read_int(std::string_view key, int64_t& out) const {
    if (const std::string* value = find(key)) {
      int64_t parsed = 0;
      const char* end = value->data() + value->size();
      const auto [ptr, error] = std::from_chars(value->data(), end, parsed);
      if (error != std::errc() || ptr != end) {
        throw_bad_value(spelling(key), *value, "expected a whole number");
      }
      out = parsed;
    }
  }

  // The separator of `sep` or `delimiter`: one character, or "\t" written with a backslash.
  void read_separator(char& out) const {
    const char* key = find("sep") ? "sep" : "delimiter";
    const std::string* value = find(key);
    if (value == nullptr) {
      return;
    }
    if (value->empty()) {
      throw_bad_value(spelling(key), *value, "the delimiter cannot be empty");
    }
    if (value->size() == 1) {
      out = (*value)[0];
    } else if (*value == "\\t") {
      out = '\t';
    } else if (*value == "\\u0000") {
      out = '\0';
    } else {
      throw_bad_value(spelling(key), *value,
                      "only single-character delimiters are supported (or \\t)");
    }
  }

  void check_encoding() const {
    for (const char* key : {"encoding", "charset"}) {
      if (const std::string* value = find(key)) {
        const std::string folded = lower(*value);
        if (folded != "utf-8" && folded != "utf8") {
          throw_bad_value(spelling(key), *value, "only UTF-8 is supported");
        }
      }
    }
  }

  void check_locale() const {
    if (const std::string* value = find("locale")) {
      if (lower(*value) != "en-us") {
        throw_bad_value(spelling("locale"), *value, "only en-US is supported");
      }
    }
  }

  void read_time_zone(std::string& out) const { read_string("timeZone", out); }

  Compression read_compression() const {
    const char* key = find("compression") ? "compression" : "codec";
    const std::string* value = find(key);
    if (value == nullptr) {
      return Compression::kNone;
    }
    const std::string folded = lower(*value);
    if (folded == "none" || folded == "uncompressed") {
      return Compression::kNone;
    }
    if (folded == "gzip") {
      return Compression::kGzip;
    }
    if (folded == "zstd") {
      return Compression::kZstd;
    }
    throw_bad_value(spelling(key), *value, "expected none, gzip or zstd");
  }

 private:
  std::map<std::string, std::pair<std::string, std::string>> by_key_;
};

}  // namespace

CsvReadOptions parse_read_options(const OptionMap& map) {
  const Options options(map);
  CsvReadOptions out;
  options.read_bool("header", out.header);
  options.read_bool("inferSchema", out.infer_schema);
  options.read_separator(out.separator);
  options.read_char("quote", out.quote, true);
  options.read_char("escape", out.escape, true);
  options.read_char("comment", out.comment, true);
  options.read_string("nullValue", out.null_value);
  options.read_string("emptyValue", out.empty_value);
  options.read_string("nanValue", out.nan_value);
  options.read_string("positiveInf", out.positive_inf);
  options.read_string("negativeInf", out.negative_inf);
  options.read_optional("dateFormat", out.date_format);
  options.read_optional("timestampFormat", out.timestamp_format);
  options.read_optional("timestampNTZFormat", out.timestamp_ntz_format);
  options.read_bool("ignoreLeadingWhiteSpace", out.ignore_leading_whitespace);
  options.read_bool("ignoreTrailingWhiteSpace", out.ignore_trailing_whitespace);
  if (const std::string* mode = options.find("mode")) {
    const std::string folded = lower(*mode);
    if (folded == "permissive") {
      out.mode = ParseMode::kPermissive;
    } else if (folded == "dropmalformed") {
      out.mode = ParseMode::kDropMalformed;
    } else if (folded == "failfast") {
      out.mode = ParseMode::kFailFast;
    } else {
      throw_bad_value(options.spelling("mode"), *mode,
                      "expected PERMISSIVE, DROPMALFORMED or FAILFAST");
    }
  }
  options.read_string("columnNameOfCorruptRecord", out.column_name_of_corrupt_record);
  options.read_bool("enforceSchema", out.enforce_schema);
  options.check_encoding();
  options.check_locale();
  if (const std::string* separator = options.find("lineSep")) {
    if (separator->size() != 1) {
      throw_bad_value(options.spelling("lineSep"), *separator,
                      "the line separator of a read must be one character");
    }
    out.line_separator = {false, (*separator)[0]};
  }
  options.read_int("maxColumns", out.max_columns);
  if (out.max_columns <= 0) {
    throw_bad_value("maxColumns", std::to_string(out.max_columns), "expected a positive number");
  }
  options.read_int("maxCharsPerColumn", out.max_chars_per_column);
  options.read_bool("multiLine", out.multi_line);
  if (const std::string* ratio = options.find("samplingRatio")) {
    char* end = nullptr;
    const double parsed = std::strtod(ratio->c_str(), &end);
    if (ratio->empty() || end != ratio->c_str() + ratio->size() || !(parsed > 0 && parsed <= 1)) {
      throw_bad_value(options.spelling("samplingRatio"), *ratio, "expected a number in (0, 1]");
    }
    out.sampling_ratio = parsed;
  }
  if (const std::string* handling = options.find("unescapedQuoteHandling")) {
    const std::string folded = lower(*handling);
    if (folded == "stop_at_closing_quote") {
      out.unescaped_quote_handling = UnescapedQuoteHandling::kStopAtClosingQuote;
    } else if (folded == "back_to_delimiter") {
      out.unescaped_quote_handling = UnescapedQuoteHandling::kBackToDelimiter;
    } else if (folded == "stop_at_delimiter") {
      out.unescaped_quote_handling = UnescapedQuoteHandling::kStopAtDelimiter;
    } else if (folded == "skip_value") {
      out.unescaped_quote_handling = UnescapedQuoteHandling::kSkipValue;
    } else if (folded == "raise_error") {
      out.unescaped_quote_handling = UnescapedQuoteHandling::kRaiseError;
    } else {
      throw_bad_value(options.spelling("unescapedQuoteHandling"), *handling,
                      "expected STOP_AT_CLOSING_QUOTE, BACK_TO_DELIMITER, STOP_AT_DELIMITER, "
                      "SKIP_VALUE or RAISE_ERROR");
    }
  }
  options.read_bool("preferDate", out.prefer_date);
  options.read_time_zone(out.time_zone);
  options.read_int("batchRows", out.batch_rows);
  if (out.batch_rows <= 0) {
    throw_bad_value("batchRows", std::to_string(out.batch_rows), "expected a positive number");
  }
  // Reads pick the codec from the file name, as Hadoop does; a given one must still be known.
  options.read_compression();
  return out;
}

CsvWriteOptions parse_write_options(const OptionMap& map) {
  const Options options(map);
  CsvWriteOptions out;
  options.read_bool("header", out.header);
  options.read_separator(out.separator);
  options.read_char("quote", out.quote, true);
  options.read_char("escape", out.escape, true);
  options.read_bool("quoteAll", out.quote_all);
  options.read_bool("escapeQuotes", out.escape_quotes);
  options.read_string("nullValue", out.null_value);
  options.read_string("emptyValue", out.empty_value);
  options.read_bool("ignoreLeadingWhiteSpace", out.ignore_leading_whitespace);
  options.read_bool("ignoreTrailingWhiteSpace", out.ignore_trailing_whitespace);
  options.read_string("dateFormat", out.date_format);
  options.read_string("timestampFormat", out.timestamp_format);
  options.read_string("timestampNTZFormat", out.timestamp_ntz_format);
  options.check_encoding();
  options.check_locale();
  if (const std::string* separator = options.find("lineSep")) {
    if (separator->empty()) {
      throw_bad_value(options.spelling("lineSep"), *separator,
                      "the line separator cannot be empty");
    }
    out.line_separator = *separator;
  }
  out.compression = options.read_compression();
  options.read_time_zone(out.time_zone);
  return out;
}

}  // namespace bowstring::io::csv
