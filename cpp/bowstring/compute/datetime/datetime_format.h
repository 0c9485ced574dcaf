#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/compute/datetime/timezone.h"

namespace bowstring::compute {

/// A datetime pattern of Spark's (`date_format`, `to_date`, `to_timestamp`, `unix_timestamp`,
/// `from_unixtime`), compiled once and applied to many values. Pattern letters, as in Spark's
/// "Datetime Patterns" page: G era; y year (as Spark: 'yy' two digits, 'yyyy' and more padded,
/// '+' past the width); M/L month (number, 'MMM' short name, 'MMMM' full name); d day of
/// month; D day of year; F aligned day of the week in the month (formatting only); Q/q quarter; E
/// day of week (short, 'EEEE' full); a AM/PM; h (1-12), K (0-11), k (1-24), H (0-23) hours; m
/// minutes; s seconds; S fraction of a second; V zone id
/// ('VV'); z zone abbreviation; O localized offset ("GMT+8"); X/x/Z offsets; text in single
/// quotes and '' for a quote; '[' and ']' enclose an optional section (always printed,
/// skipped in parsing when the text does not match it); other non-letters stand for themselves.
/// 'z' and 'zzzz' print java.time's English names ("PST", "Pacific Standard Time") of the
/// common zones, and the tz database's abbreviations of the present rules of other zones.
class DateTimePattern {
 public:
  /// Throws `IllegalArgumentError` naming the pattern for letters Spark rejects (the
  /// week-based 'Y', 'w', 'W', 'e', 'c', 'u', narrow text forms such as 'MMMMM', unknown
  /// letters) and unterminated quotes, with Spark's error condition:
  /// INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION for patterns Spark 2
  /// accepted, INVALID_DATETIME_PATTERN.* or DATETIME_WEEK_BASED_PATTERN for the others.
  explicit DateTimePattern(std::string_view pattern);

  const std::string& pattern() const { return pattern_; }

  /// Appends the instant `utc_micros` as seen in `zone`.
  void format(int64_t utc_micros, const TimeZone& zone, std::string& out) const;

  /// Parsing throws `IllegalArgumentError` for patterns with 'E', 'F', 'q' or 'Q', which Spark
  /// formats with but does not parse with.
  ///
  /// The instant `text` denotes, as microseconds since the epoch: fields the pattern lacks
  /// default to 1970-01-01 00:00:00; the zone or offset in the text, when the pattern has one,
  /// wins over `zone`. nullopt when `text` does not match the pattern or names an invalid
  /// date or time.
  std::optional<int64_t> parse(std::string_view text, const TimeZone& zone) const;

  /// As `parse` on the wall clock: local microseconds, ignoring any zone in the text.
  std::optional<int64_t> parse_local(std::string_view text) const;

  /// A field or literal of the pattern.
  struct Item {
    char letter;  // 0 for literal text, '[' and ']' for the bounds of an optional section
    int count;
    std::string literal;
  };

 private:
  struct Parsed;
  // Throws Spark's error for patterns it formats with but refuses to parse with.
  void check_parsable() const;
  bool parse_fields(std::string_view text, Parsed& parsed) const;
  // Reads items [begin, end) from `position` on, advancing it; false when they do not match.
  bool parse_items(size_t begin, size_t end, std::string_view text, size_t& position,
                   Parsed& parsed) const;
  std::optional<int64_t> local_micros_of(const Parsed& parsed) const;

  std::string pattern_;
  std::vector<Item> items_;
  // With an era ('G'), 'y' is the year of the era (1 BC is year 1); without, Spark prints the
  // proleptic year (1 BC is year 0).
  bool has_era_ = false;
  // The first of the letters 'E', 'F', 'q', 'Q', which Spark does not parse with; 0 if none.
  char unparsable_letter_ = 0;
};

/// Spark's default pattern of `unix_timestamp`, `from_unixtime` and `to_timestamp`.
inline constexpr std::string_view kDefaultTimestampPattern = "yyyy-MM-dd HH:mm:ss";

}  // namespace bowstring::compute
