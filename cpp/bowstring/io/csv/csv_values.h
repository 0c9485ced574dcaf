#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>

#include "bowstring/compute/datetime/datetime_format.h"
#include "bowstring/compute/datetime/timezone.h"
#include "bowstring/io/csv/csv_options.h"

namespace bowstring::io::csv {

/// Reads field texts as values the way Spark's CSV reader converts them (UnivocityParser):
/// integers as Java's `Integer.parseInt`/`Long.parseLong` (sign and digits, nothing else),
/// doubles as `Double.parseDouble` after `nanValue`/`positiveInf`/`negativeInf`, booleans as
/// Scala's `toBoolean`, dates and timestamps with `dateFormat`/`timestampFormat` when given and
/// as `CAST(string AS DATE/TIMESTAMP)` otherwise.
class ValueParser {
 public:
  /// Throws `IllegalArgumentError` for a date or timestamp pattern Spark rejects, and
  /// `DateTimeError` for an unknown `timeZone`.
  explicit ValueParser(const CsvReadOptions& options);
  ~ValueParser();
  ValueParser(const ValueParser&) = delete;
  ValueParser& operator=(const ValueParser&) = delete;

  static bool integer(std::string_view text, int64_t min, int64_t max, int64_t* out);
  bool floating(std::string_view text, double* out) const;
  /// As `floating`, rounding the text directly to a float (Java's `Float.parseFloat`).
  bool floating(std::string_view text, float* out) const;
  static bool boolean(std::string_view text, bool* out);
  std::optional<int32_t> date(std::string_view text) const;
  std::optional<int64_t> timestamp(std::string_view text) const;
  std::optional<int64_t> timestamp_ntz(std::string_view text) const;
  bool has_date_format() const { return date_pattern_ != nullptr; }

  const compute::TimeZone& zone() const { return *zone_; }

 private:
  // `nanValue`, `positiveInf` and `negativeInf`.
  template <typename T>
  bool special_floating(std::string_view text, T* out) const;

  const CsvReadOptions& options_;
  std::unique_ptr<compute::DateTimePattern> date_pattern_;
  std::unique_ptr<compute::DateTimePattern> timestamp_pattern_;
  std::unique_ptr<compute::DateTimePattern> timestamp_ntz_pattern_;
  const compute::TimeZone* zone_;
};

}  // namespace bowstring::io::csv
