#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bowstring::compute {

/// A time zone as Spark (java.time's `ZoneId`) knows it: a region of the system tz database
/// ("America/New_York", read from /usr/share/zoneinfo) or a fixed offset ("+02:00", "UTC",
/// "GMT+1"). Maps UTC instants to local wall-clock time and back, in seconds since the epoch.
/// Zones are immutable and live as long as the process; `TimeZone::get` caches them by name.
class TimeZone {
 public:
  /// The zone called `name`, in the forms `ZoneId.of` accepts with Spark's adjustments:
  /// "Z"; offsets "+h", "+hh", "+hh:mm", "+hhmm", "+hh:mm:ss", "+hhmmss" (and Spark's older
  /// "+h:mm", "+hh:m"); "UTC", "GMT", "UT" alone or followed by an offset ("UTC+8",
  /// "GMT-05:30"); region names of the tz database; and Java's short ids ("PST", "EST"...).
  /// Thread-safe. Throws `DateTimeError` (INVALID_TIMEZONE) naming the zone when unknown.
  static const TimeZone& get(std::string_view name);
  /// The UTC zone.
  static const TimeZone& utc();
  /// The zone for `name`, or nullptr when `name` is no valid zone id; cached as `get`.
  static const TimeZone* find(std::string_view name);

  /// The name as given to `get`.
  const std::string& name() const { return name_; }
  /// Whether the offset never changes (offsets, UTC and zones without transitions).
  bool is_fixed() const { return transitions_.empty() && !has_rule_; }
  /// The constant offset in seconds of a fixed zone.
  int32_t fixed_offset() const { return fixed_offset_; }

  /// Seconds to add to UTC to get local time at the instant `utc_seconds`.
  int32_t offset_at_utc(int64_t utc_seconds) const {
    if (is_fixed()) {
      return fixed_offset_;
    }
    return offset_of_type(type_at_utc(utc_seconds));
  }
  /// Local wall-clock seconds at the instant `utc_seconds`.
  int64_t local_from_utc(int64_t utc_seconds) const {
    return utc_seconds + offset_at_utc(utc_seconds);
  }
  /// The instant at which clocks show `local_seconds`, resolved as java.time's
  /// `ZonedDateTime.of` does (and Spark with it): a local time in a gap (clocks jumping
  /// forward) moves forward by the length of the gap; in an overlap (clocks going back) the
  /// earlier offset, the one in effect before the change, wins.
  int64_t utc_from_local(int64_t local_seconds) const;

  /// The zone's abbreviation at the instant ("EST", "BST", "+0530"); for fixed offsets their
  /// normalized id ("+02:00", "UTC", "Z").
  std::string_view abbreviation_at_utc(int64_t utc_seconds) const;
  /// Whether daylight saving time is in effect at the instant as java.time sees it (the
  /// offset differs from the standard one), also for zones whose tz data flags winter time as
  /// the saving time (a negative saving, as Europe/Dublin's).
  bool is_daylight_at_utc(int64_t utc_seconds) const;
  /// The abbreviations of the zone's present standard and daylight saving time ("PST",
  /// "PDT"); the daylight one is empty when the zone never observed daylight saving time.
  std::string_view standard_abbreviation() const;
  std::string_view daylight_abbreviation() const;
  /// The normalized id as Java prints it: "America/New_York", "+02:00", "Z", "UTC+08:00".
  const std::string& id() const { return id_; }

  /// A local time type: an offset and its abbreviation.
  struct LocalType {
    int32_t offset;
    bool is_dst;
    std::string abbreviation;
  };
  /// A change of local time type at a UTC instant.
  struct Transition {
    int64_t utc_seconds;
    int32_t type;
  };
  /// A daylight saving rule of a POSIX TZ string, for instants after the last transition.
  struct Rule {
    /// How the day of a change is given: Jn (1-365, no leap day), n (0-365), or Mm.w.d.
    enum class DayKind : uint8_t { kJulianNoLeap, kJulianZero, kMonthWeekDay };
    struct Change {
      DayKind kind = DayKind::kMonthWeekDay;
      int32_t day = 0;
      int32_t month = 0;
      int32_t week = 0;
      int32_t weekday = 0;
      /// Local time of the change, in seconds after midnight (may be negative or above a day).
      int32_t time = 7200;
    };
    int32_t std_type = 0;
    int32_t dst_type = 0;
    Change start;
    Change end;
  };

  TimeZone(std::string name, std::string id, int32_t fixed_offset);
  TimeZone(std::string name, std::string id, std::vector<LocalType> types,
           std::vector<Transition> transitions, bool has_rule, Rule rule);

 private:
  int32_t type_at_utc(int64_t utc_seconds) const;
  int32_t rule_type_at_utc(int64_t utc_seconds) const;
  int32_t offset_of_type(int32_t type) const { return types_[type].offset; }

  std::string name_;
  std::string id_;
  int32_t fixed_offset_ = 0;
  std::vector<LocalType> types_;
  std::vector<Transition> transitions_;
  bool has_rule_ = false;
  Rule rule_;
};

}  // namespace bowstring::compute
