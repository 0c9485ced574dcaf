#include "bowstring/compute/datetime/datetime_format.h"

#include <cstring>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/datetime/calendar.h"
#include "bowstring/compute/datetime/datetime_parse.h"

namespace bowstring::compute {

namespace {

constexpr const char* kMonthNames[12] = {"January",   "February", "March",    "April",
                                         "May",       "June",     "July",     "August",
                                         "September", "October",  "November", "December"};
// Monday first, as ISO numbers days.
constexpr const char* kDayNames[7] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                      "Friday", "Saturday", "Sunday"};
constexpr const char* kQuarterNames[4] = {"1st quarter", "2nd quarter", "3rd quarter",
                                          "4th quarter"};

// The names java.time prints for the letters 'z' and 'zzzz' in the zones people use most
// (its English names are not in the tz database): id, standard short and long, daylight short
// and long. Other zones print the tz database's abbreviations of their present rules.
struct ZoneNames {
  const char* id;
  const char* standard_short;
  const char* standard_long;
  const char* daylight_short;
  const char* daylight_long;
};
constexpr ZoneNames kZoneNames[] = {
    {"Africa/Cairo", "EET", "Eastern European Standard Time", "EEST",
     "Eastern European Summer Time"},
    {"Africa/Johannesburg", "SAST", "South Africa Standard Time", "", ""},
    {"Africa/Lagos", "WAT", "West Africa Standard Time", "", ""},
    {"Africa/Nairobi", "EAT", "East Africa Time", "", ""},
    {"America/Anchorage", "AKST", "Alaska Standard Time", "AKDT", "Alaska Daylight Time"},
    {"America/Argentina/Buenos_Aires", "ART", "Argentina Standard Time", "", ""},
    {"America/Bogota", "COT", "Colombia Standard Time", "", ""},
    {"America/Caracas", "VET", "Venezuela Time", "", ""},
    {"America/Chicago", "CST", "Central Standard Time", "CDT", "Central Daylight Time"},
    {"America/Denver", "MST", "Mountain Standard Time", "MDT", "Mountain Daylight Time"},
    {"America/Halifax", "AST", "Atlantic Standard Time", "ADT", "Atlantic Daylight Time"},
    {"America/Havana", "CST", "Cuba Standard Time", "CDT", "Cuba Daylight Time"},
    {"America/La_Paz", "BOT", "Bolivia Time", "", ""},
    {"America/Lima", "PET", "Peru Standard Time", "", ""},
    {"America/Los_Angeles", "PST", "Pacific Standard Time", "PDT", "Pacific Daylight Time"},
    {"America/Mexico_City", "CST", "Central Standard Time", "", ""},
    {"America/Montevideo", "UYT", "Uruguay Standard Time", "", ""},
    {"America/New_York", "EST", "Eastern Standard Time", "EDT", "Eastern Daylight Time"},
    {"America/Phoenix", "MST", "Mountain Standard Time", "", ""},
    {"America/Santiago", "CLT", "Chile Standard Time", "CLST", "Chile Summer Time"},
    {"America/Sao_Paulo", "BRT", "Brasilia Standard Time", "", ""},
    {"America/St_Johns", "NST", "Newfoundland Standard Time", "NDT", "Newfoundland Daylight Time"},
    {"America/Toronto", "EST", "Eastern Standard Time", "EDT", "Eastern Daylight Time"},
    {"America/Vancouver", "PST", "Pacific Standard Time", "PDT", "Pacific Daylight Time"},
    {"Asia/Almaty", "ALMT", "East Kazakhstan Time", "", ""},
    {"Asia/Baghdad", "AST", "Arabian Standard Time", "", ""},
    {"Asia/Bangkok", "ICT", "Indochina Time", "", ""},
    {"Asia/Calcutta", "IST", "India Standard Time", "IDT", "India Daylight Time"},
    {"Asia/Colombo", "IST", "India Standard Time", "", ""},
    {"Asia/Dhaka", "BDT", "Bangladesh Standard Time", "", ""},
    {"Asia/Dubai", "GST", "Gulf Standard Time", "", ""},
    {"Asia/Ho_Chi_Minh", "ICT", "Indochina Time", "", ""},
    {"Asia/Hong_Kong", "HKT", "Hong Kong Standard Time", "", ""},
    {"Asia/Jakarta", "WIB", "Western Indonesia Time", "", ""},
    {"Asia/Jerusalem", "IST", "Israel Standard Time", "IDT", "Israel Daylight Time"},
    {"Asia/Kabul", "AFT", "Afghanistan Time", "", ""},
    {"Asia/Karachi", "PKT", "Pakistan Standard Time", "", ""},
    {"Asia/Kathmandu", "NPT", "Nepal Time", "", ""},
    {"Asia/Kolkata", "IST", "India Standard Time", "IDT", "India Daylight Time"},
    {"Asia/Kuala_Lumpur", "MYT", "Malaysia Time", "", ""},
    {"Asia/Manila", "PST", "Philippine Standard Time", "", ""},
    {"Asia/Riyadh", "AST", "Arabian Standard Time", "", ""},
    {"Asia/Seoul", "KST", "Korean Standard Time", "", ""},
    {"Asia/Shanghai", "CST", "China Standard Time", "CDT", "China Daylight Time"},
    {"Asia/Singapore", "SGT", "Singapore Standard Time", "", ""},
    {"Asia/Taipei", "CST", "Taipei Standard Time", "", ""},
    {"Asia/Tashkent", "UZT", "Uzbekistan Standard Time", "", ""},
    {"Asia/Tehran", "IRST", "Iran Standard Time", "", ""},
    {"Asia/Tokyo", "JST", "Japan Standard Time", "", ""},
    {"Asia/Yangon", "MMT", "Myanmar Time", "", ""},
    {"Atlantic/Reykjavik", "GMT", "Greenwich Mean Time", "", ""},
    {"Australia/Adelaide", "ACST", "Australian Central Standard Time", "ACDT",
     "Australian Central Daylight Time"},
    {"Australia/Brisbane", "AEST", "Australian Eastern Standard Time", "", ""},
    {"Australia/Darwin", "ACST", "Australian Central Standard Time", "", ""},
    {"Australia/Hobart", "AEST", "Australian Eastern Standard Time", "AEDT",
     "Australian Eastern Daylight Time"},
    {"Australia/Lord_Howe", "LHST", "Lord Howe Standard Time", "LHDT", "Lord Howe Daylight Time"},
    {"Australia/Melbourne", "AEST", "Australian Eastern Standard Time", "AEDT",
     "Australian Eastern Daylight Time"},
    {"Australia/Perth", "AWST", "Australian Western Standard Time", "", ""},
    {"Australia/Sydney", "AEST", "Australian Eastern Standard Time", "AEDT",
     "Australian Eastern Daylight Time"},
    {"Etc/UTC", "UTC", "Coordinated Universal Time", "", ""},
    {"Europe/Amsterdam", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Athens", "EET", "Eastern European Standard Time", "EEST",
     "Eastern European Summer Time"},
    {"Europe/Berlin", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Brussels", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Bucharest", "EET", "Eastern European Standard Time", "EEST",
     "Eastern European Summer Time"},
    {"Europe/Budapest", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Copenhagen", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Dublin", "GMT", "Greenwich Mean Time", "IST", "Irish Standard Time"},
    {"Europe/Helsinki", "EET", "Eastern European Standard Time", "EEST",
     "Eastern European Summer Time"},
    {"Europe/Istanbul", "TRT", "Turkey Time", "", ""},
    {"Europe/Kiev", "EET", "Eastern European Standard Time", "EEST",
     "Eastern European Summer Time"},
    {"Europe/Kyiv", "EET", "Eastern European Standard Time", "EEST",
     "Eastern European Summer Time"},
    {"Europe/Lisbon", "WET", "Western European Standard Time", "WEST",
     "Western European Summer Time"},
    {"Europe/London", "GMT", "Greenwich Mean Time", "BST", "British Summer Time"},
    {"Europe/Madrid", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Minsk", "MSK", "Moscow Standard Time", "", ""},
    {"Europe/Moscow", "MSK", "Moscow Standard Time", "", ""},
    {"Europe/Oslo", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Paris", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Prague", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Rome", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Stockholm", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Vienna", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Warsaw", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"Europe/Zurich", "CET", "Central European Standard Time", "CEST",
     "Central European Summer Time"},
    {"GMT", "GMT", "Greenwich Mean Time", "", ""},
    {"Pacific/Auckland", "NZST", "New Zealand Standard Time", "NZDT", "New Zealand Daylight Time"},
    {"Pacific/Fiji", "FJT", "Fiji Standard Time", "", ""},
    {"Pacific/Guam", "ChST", "Chamorro Standard Time", "", ""},
    {"Pacific/Honolulu", "HST", "Hawaii-Aleutian Standard Time", "", ""},
    {"UTC", "UTC", "Coordinated Universal Time", "", ""},
};

const ZoneNames* zone_names(std::string_view id) {
  for (const ZoneNames& names : kZoneNames) {
    if (id == names.id) return &names;
  }
  return nullptr;
}

// The zone's name at the instant as 'z' (short) or 'zzzz' (long) prints it: the standard or
// daylight saving name by whether saving time is in effect, whatever the tz database called
// the local time then (java.time calls the local mean time of 1883 in Los Angeles "PST").
void append_zone_name(std::string& out, const TimeZone& zone, int64_t utc_seconds, bool full) {
  if (zone.is_fixed()) {
    const ZoneNames* names = zone_names(zone.id());
    out += names == nullptr ? zone.abbreviation_at_utc(utc_seconds)
                            : std::string_view(full ? names->standard_long : names->standard_short);
    return;
  }
  const bool daylight = zone.is_daylight_at_utc(utc_seconds);
  if (const ZoneNames* names = zone_names(zone.id())) {
    const char* name = daylight ? (full ? names->daylight_long : names->daylight_short)
                                : (full ? names->standard_long : names->standard_short);
    if (*name != '\0') {
      out += name;
      return;
    }
  }
  const std::string_view name =
      daylight ? zone.daylight_abbreviation() : zone.standard_abbreviation();
  out += name.empty() ? zone.abbreviation_at_utc(utc_seconds) : name;
}

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

[[noreturn]] void invalid_pattern(
    std::string_view pattern, std::string_view why,
    const char* condition = "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER") {
  throw IllegalArgumentError(
      condition, "Invalid datetime pattern '" + std::string(pattern) + "': " + std::string(why));
}

// Spark reports a pattern it rejects as "different since Spark 3.0" when the pattern was valid
// for the formatter of Spark 2 (java.text.SimpleDateFormat, whose letters are these, any other
// character standing for itself).
bool legacy_letter(char c) { return std::strchr("GyYMLwWDdFEuaHkKhmsSzZX", c) != nullptr; }

[[noreturn]] void unrecognized_pattern(std::string_view pattern, std::string_view why) {
  throw IllegalArgumentError(
      "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION",
      "You may get a different result due to the upgrading to Spark >= 3.0: Fail to recognize '" +
          std::string(pattern) + "' pattern in the DateTimeFormatter (" + std::string(why) +
          "). You can form a valid datetime pattern with the guide from "
          "'https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html'.");
}

void append_number(std::string& out, int64_t value, int width) {
  if (value < 0) {
    out += '-';
    value = -value;
  }
  char digits[24];
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  for (int pad = count; pad < width; ++pad) out += '0';
  while (count > 0) out += digits[--count];
}

// An offset as the X/x/Z letters print it: `width_code` 1 "+HH[mm]", 2 "+HHMM", 3 "+HH:MM",
// 4 "+HHMM[ss]", 5 "+HH:MM[:ss]".
void append_offset(std::string& out, int32_t offset, int width_code) {
  const int32_t magnitude = offset < 0 ? -offset : offset;
  const int32_t hours = magnitude / 3600;
  const int32_t minutes = magnitude / 60 % 60;
  const int32_t seconds = magnitude % 60;
  out += offset < 0 ? '-' : '+';
  append_number(out, hours, 2);
  const bool colon = width_code == 3 || width_code == 5;
  if (width_code == 1 && minutes == 0 && seconds == 0) return;
  if (colon) out += ':';
  append_number(out, minutes, 2);
  if ((width_code == 4 || width_code == 5) && seconds != 0) {
    if (colon) out += ':';
    append_number(out, seconds, 2);
  }
}

// "GMT", "GMT+8", "GMT+08:00" as 'O' and 'ZZZZ' print them.
void append_localized_offset(std::string& out, int32_t offset, bool full) {
  out += "GMT";
  if (offset == 0) return;
  const int32_t magnitude = offset < 0 ? -offset : offset;
  out += offset < 0 ? '-' : '+';
  const int32_t hours = magnitude / 3600;
  const int32_t minutes = magnitude / 60 % 60;
  const int32_t seconds = magnitude % 60;
  if (full) {
    append_number(out, hours, 2);
    out += ':';
    append_number(out, minutes, 2);
  } else {
    append_number(out, hours, 1);
    if (minutes != 0 || seconds != 0) {
      out += ':';
      append_number(out, minutes, 2);
    }
  }
  if (seconds != 0) {
    out += ':';
    append_number(out, seconds, 2);
  }
}

bool is_numeric_item(const DateTimePattern::Item& item) {
  switch (item.letter) {
    case 'y':
    case 'd':
    case 'D':
    case 'H':
    case 'h':
    case 'K':
    case 'k':
    case 'm':
    case 's':
    case 'S':
      return true;
    case 'M':
    case 'L':
      return item.count <= 2;
    default:
      return false;
  }
}

// Case-insensitive match of `name` (or its first three letters when `abbreviated`) at the
// start of `text`.
size_t match_name(std::string_view text, std::string_view name) {
  if (text.size() < name.size()) return 0;
  for (size_t i = 0; i < name.size(); ++i) {
    if (lower(text[i]) != lower(name[i])) return 0;
  }
  return name.size();
}

}  // namespace

struct DateTimePattern::Parsed {
  int64_t year = 1970;
  int64_t month = 1;
  int64_t day = 1;
  int64_t day_of_year = -1;
  int64_t hour = 0;
  int64_t hour12 = -1;
  int64_t minute = 0;
  int64_t second = 0;
  int64_t micros = 0;
  int pm = -1;
  bool bc = false;
  bool has_offset = false;
  int32_t offset = 0;
  const TimeZone* zone = nullptr;
};

DateTimePattern::DateTimePattern(std::string_view pattern) : pattern_(pattern) {
  size_t i = 0;
  int optional_depth = 0;
  while (i < pattern.size()) {
    const char c = pattern[i];
    if (c == '\'') {
      const size_t start = i + 1;
      if (start < pattern.size() && pattern[start] == '\'') {
        items_.push_back({0, 1, "'"});
        i = start + 1;
        continue;
      }
      std::string literal;
      size_t j = start;
      for (;; ++j) {
        if (j >= pattern.size())
          invalid_pattern(pattern, "a quote is not closed",
                          "INVALID_DATETIME_PATTERN.WITH_SUGGESTION");
        if (pattern[j] == '\'') {
          if (j + 1 < pattern.size() && pattern[j + 1] == '\'') {
            literal += '\'';
            ++j;
            continue;
          }
          break;
        }
        literal += pattern[j];
      }
      items_.push_back({0, 1, std::move(literal)});
      i = j + 1;
      continue;
    }
    if (!is_letter(c)) {
      if (c == '{' || c == '}' || c == '#') {
        unrecognized_pattern(pattern, std::string("'") + c + "' is reserved");
      }
      if (c == '[') {
        // An optional section: printed in full, skipped when parsing fails inside it.
        ++optional_depth;
        items_.push_back({'[', 1, {}});
      } else if (c == ']') {
        if (optional_depth == 0) {
          unrecognized_pattern(pattern, "']' without a previous '['");
        }
        --optional_depth;
        items_.push_back({']', 1, {}});
      } else {
        items_.push_back({0, 1, std::string(1, c)});
      }
      ++i;
      continue;
    }
    size_t j = i;
    while (j < pattern.size() && pattern[j] == c) ++j;
    const int count = static_cast<int>(j - i);
    // Too many letters: a pattern Spark 2 accepted ('X' only up to three letters there) or,
    // for the others, `condition`.
    auto too_many = [&](int most,
                        const char* condition = "INVALID_DATETIME_PATTERN.WITH_SUGGESTION") {
      if (count > most) {
        const std::string why =
            "too many pattern letters: " + std::string(pattern.substr(i, j - i));
        if (legacy_letter(c) && c != 'X') unrecognized_pattern(pattern, why);
        invalid_pattern(pattern, why, condition);
      }
    };
    switch (c) {
      case 'G':
      case 'M':
      case 'L':
      case 'E':
        // Spark rejects the narrow text forms (five letters), which Spark 2 printed in full.
        too_many(4);
        break;
      case 'y':
      case 'D':
        // Years of more than six digits overflow Spark's range of dates.
        too_many(c == 'D' ? 3 : 6);
        break;
      case 'Q':
      case 'q':
        too_many(4, "INVALID_DATETIME_PATTERN.LENGTH");
        break;
      case 'd':
      case 'H':
      case 'h':
      case 'K':
      case 'k':
      case 'm':
      case 's':
        too_many(2);
        break;
      case 'S':
        too_many(9);
        break;
      case 'a':
      case 'F':
        too_many(1);
        break;
      case 'z':
        too_many(4);
        break;
      case 'V':
        if (count != 2) {
          invalid_pattern(pattern, "pattern letter count must be 2: V",
                          "INVALID_DATETIME_PATTERN.WITH_SUGGESTION");
        }
        break;
      case 'O':
        if (count != 1 && count != 4) {
          invalid_pattern(pattern, "pattern letter count must be 1 or 4: O",
                          "INVALID_DATETIME_PATTERN.WITH_SUGGESTION");
        }
        break;
      case 'X':
      case 'x':
      case 'Z':
        too_many(5);
        break;
      case 'Y':
      case 'w':
      case 'W':
      case 'u':
        unrecognized_pattern(pattern,
                             std::string("all week-based patterns are unsupported since Spark "
                                         "3.0, detected: ") +
                                 c);
      case 'e':
      case 'c':
        invalid_pattern(pattern,
                        std::string("all week-based patterns are unsupported since Spark 3.0, "
                                    "detected: ") +
                            c,
                        "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN");
      default:
        invalid_pattern(pattern, std::string("unknown pattern letter: ") + c);
    }
    items_.push_back({c, count, {}});
    has_era_ = has_era_ || c == 'G';
    // Spark formats with these letters but refuses to parse with them.
    if (unparsable_letter_ == 0 && std::strchr("EFqQ", c) != nullptr) unparsable_letter_ = c;
    i = j;
  }
}

void DateTimePattern::format(int64_t utc_micros, const TimeZone& zone, std::string& out) const {
  const int64_t utc_seconds = floor_div(utc_micros, kMicrosPerSecond);
  const int32_t offset = zone.offset_at_utc(utc_seconds);
  const int64_t local = utc_micros + static_cast<int64_t>(offset) * kMicrosPerSecond;
  const int64_t days = floor_div(local, kMicrosPerDay);
  const int64_t micros_of_day = local - days * kMicrosPerDay;
  const CivilDate date = civil_from_days(days);
  const int64_t hour = micros_of_day / (3600 * kMicrosPerSecond);
  const int64_t minute = micros_of_day / (60 * kMicrosPerSecond) % 60;
  const int64_t second = micros_of_day / kMicrosPerSecond % 60;
  const int64_t fraction = micros_of_day % kMicrosPerSecond;
  for (const Item& item : items_) {
    const int n = item.count;
    switch (item.letter) {
      case 0:
        out += item.literal;
        break;
      case 'G':
        out += n == 4   ? (date.year > 0 ? "Anno Domini" : "Before Christ")
               : n == 5 ? (date.year > 0 ? "A" : "B")
                        : (date.year > 0 ? "AD" : "BC");
        break;
      case 'y': {
        const int64_t year = has_era_ && date.year <= 0 ? 1 - date.year : date.year;
        if (n == 2) {
          // java.time's reduced printer: the last two digits of the year's magnitude.
          append_number(out, (year < 0 ? -year : year) % 100, 2);
        } else if (n >= 4 && year > 0 && year >= [](int width) {
                     int64_t limit = 1;
                     for (int k = 0; k < width; ++k) limit *= 10;
                     return limit;
                   }(n)) {
          out += '+';
          append_number(out, year, n);
        } else {
          append_number(out, year, n);
        }
        break;
      }
      case 'M':
      case 'L':
        if (n <= 2) {
          append_number(out, date.month, n);
        } else if (n == 3) {
          out.append(kMonthNames[date.month - 1], 3);
        } else if (n == 4) {
          out += kMonthNames[date.month - 1];
        } else {
          out += kMonthNames[date.month - 1][0];
        }
        break;
      case 'Q':
      case 'q': {
        const int32_t quarter = quarter_of_month(date.month);
        if (n <= 2) {
          append_number(out, quarter, n);
        } else if (n == 3) {
          out += 'Q';
          append_number(out, quarter, 1);
        } else if (n == 4) {
          out += kQuarterNames[quarter - 1];
        } else {
          append_number(out, quarter, 1);
        }
        break;
      }
      case 'd':
        append_number(out, date.day, n);
        break;
      case 'D':
        append_number(out, day_of_year(days), n);
        break;
      case 'F':
        // java.time's 'F' prints the aligned day of the week in the month.
        append_number(out, (date.day - 1) % 7 + 1, n);
        break;
      case 'E': {
        const char* name = kDayNames[iso_day_of_week(days) - 1];
        if (n <= 3) {
          out.append(name, 3);
        } else if (n == 4) {
          out += name;
        } else {
          out += name[0];
        }
        break;
      }
      case 'a':
        out += hour < 12 ? "AM" : "PM";
        break;
      case 'H':
        append_number(out, hour, n);
        break;
      case 'k':
        append_number(out, hour == 0 ? 24 : hour, n);
        break;
      case 'K':
        append_number(out, hour % 12, n);
        break;
      case 'h':
        append_number(out, hour % 12 == 0 ? 12 : hour % 12, n);
        break;
      case 'm':
        append_number(out, minute, n);
        break;
      case 's':
        append_number(out, second, n);
        break;
      case 'S': {
        char digits[9];
        int64_t nanos = fraction * 1000;
        for (int k = 8; k >= 0; --k) {
          digits[k] = static_cast<char>('0' + nanos % 10);
          nanos /= 10;
        }
        out.append(digits, static_cast<size_t>(n));
        break;
      }
      case 'V':
        out += zone.id();
        break;
      case 'z':
        append_zone_name(out, zone, utc_seconds, n == 4);
        break;
      case 'O':
        append_localized_offset(out, offset, n == 4);
        break;
      case 'X':
        if (offset == 0) {
          out += 'Z';
        } else {
          append_offset(out, offset, n);
        }
        break;
      case 'x':
        append_offset(out, offset, n);
        break;
      case 'Z':
        if (n <= 3) {
          append_offset(out, offset, 2);
        } else if (n == 4) {
          append_localized_offset(out, offset, true);
        } else if (offset == 0) {
          out += 'Z';
        } else {
          append_offset(out, offset, 5);
        }
        break;
      default:
        break;
    }
  }
}

void DateTimePattern::check_parsable() const {
  if (unparsable_letter_ == 0) return;
  const std::string why =
      std::string("the pattern letter ") + unparsable_letter_ + " cannot be used for parsing";
  if (unparsable_letter_ == 'E' || unparsable_letter_ == 'F') unrecognized_pattern(pattern_, why);
  invalid_pattern(pattern_, why);
}

bool DateTimePattern::parse_fields(std::string_view text, Parsed& parsed) const {
  check_parsable();
  size_t position = 0;
  return parse_items(0, items_.size(), text, position, parsed) && position == text.size();
}

bool DateTimePattern::parse_items(size_t begin, size_t end, std::string_view text, size_t& position,
                                  Parsed& parsed) const {
  auto read_number = [&](size_t min_digits, size_t max_digits, int64_t* value) {
    size_t count = 0;
    int64_t result = 0;
    while (position + count < text.size() && count < max_digits &&
           is_digit(text[position + count])) {
      result = result * 10 + (text[position + count] - '0');
      ++count;
    }
    if (count < min_digits) return false;
    position += count;
    *value = result;
    return true;
  };
  for (size_t index = begin; index < end; ++index) {
    const Item& item = items_[index];
    const int n = item.count;
    if (item.letter == '[') {
      size_t close = index + 1;
      for (int depth = 1; close < end; ++close) {
        if (items_[close].letter == '[') ++depth;
        if (items_[close].letter == ']' && --depth == 0) break;
      }
      // The section counts only when all of it matches; otherwise the text is read on after it.
      size_t attempt = position;
      Parsed before = parsed;
      if (parse_items(index + 1, close, text, attempt, parsed)) {
        position = attempt;
      } else {
        parsed = before;
      }
      index = close;
      continue;
    }
    if (item.letter == ']') continue;
    // Digits kept for the fixed-width numbers that follow without a separator ("yyyyMMdd").
    size_t reserved = 0;
    for (size_t next = index + 1; next < items_.size() && is_numeric_item(items_[next]); ++next) {
      reserved += static_cast<size_t>(items_[next].count);
    }
    auto variable_width = [&](size_t most) {
      size_t available = 0;
      while (position + available < text.size() && is_digit(text[position + available])) {
        ++available;
      }
      return available > reserved ? std::min(most, available - reserved) : 0;
    };
    int64_t value = 0;
    switch (item.letter) {
      case 0:
        if (text.substr(position, item.literal.size()).size() != item.literal.size()) return false;
        for (size_t k = 0; k < item.literal.size(); ++k) {
          if (lower(text[position + k]) != lower(item.literal[k])) return false;
        }
        position += item.literal.size();
        break;
      case 'G': {
        size_t matched = match_name(text.substr(position), "AD");
        if (matched == 0) {
          matched = match_name(text.substr(position), "BC");
          if (matched == 0) return false;
          parsed.bc = true;
        }
        position += matched;
        break;
      }
      case 'y': {
        if (n == 2) {
          if (!read_number(2, 2, &value)) return false;
          parsed.year = 2000 + value;
        } else {
          bool negative = false;
          if (position < text.size() && (text[position] == '-' || text[position] == '+')) {
            negative = text[position] == '-';
            ++position;
          }
          if (!read_number(static_cast<size_t>(n), variable_width(9), &value)) return false;
          parsed.year = negative ? -value : value;
        }
        break;
      }
      case 'M':
      case 'L':
        if (n <= 2) {
          if (!read_number(static_cast<size_t>(n), n == 1 ? variable_width(2) : 2, &value)) {
            return false;
          }
          parsed.month = value;
        } else {
          size_t matched = 0;
          for (int m = 0; m < 12 && matched == 0; ++m) {
            const std::string_view name(kMonthNames[m]);
            matched = match_name(text.substr(position), n == 3 ? name.substr(0, 3) : name);
            if (matched != 0) parsed.month = m + 1;
          }
          if (matched == 0) return false;
          position += matched;
        }
        break;
      case 'a': {
        if (match_name(text.substr(position), "AM") != 0) {
          parsed.pm = 0;
        } else if (match_name(text.substr(position), "PM") != 0) {
          parsed.pm = 1;
        } else {
          return false;
        }
        position += 2;
        break;
      }
      case 'd':
      case 'D':
      case 'H':
      case 'h':
      case 'K':
      case 'k':
      case 'm':
      case 's': {
        const size_t widest = item.letter == 'D' ? 3 : 2;
        if (!read_number(static_cast<size_t>(n), n == 1 ? variable_width(widest) : n, &value)) {
          return false;
        }
        switch (item.letter) {
          case 'd':
            parsed.day = value;
            break;
          case 'D':
            parsed.day_of_year = value;
            break;
          case 'H':
            if (value > 23) return false;
            parsed.hour = value;
            break;
          case 'k':
            if (value < 1 || value > 24) return false;
            parsed.hour = value % 24;
            break;
          case 'K':
            if (value > 11) return false;
            parsed.hour12 = value;
            break;
          case 'h':
            if (value < 1 || value > 12) return false;
            parsed.hour12 = value % 12;
            break;
          case 'm':
            if (value > 59) return false;
            parsed.minute = value;
            break;
          default:
            if (value > 59) return false;
            parsed.second = value;
            break;
        }
        break;
      }
      case 'S': {
        // Spark reads a fraction of one up to as many digits as letters.
        const size_t start = position;
        if (!read_number(1, static_cast<size_t>(n), &value)) return false;
        size_t digits = position - start;
        int64_t micros = value;
        for (; digits < 6; ++digits) micros *= 10;
        for (; digits > 6; --digits) micros /= 10;
        parsed.micros = micros;
        break;
      }
      case 'V':
      case 'z': {
        size_t end = position;
        while (end < text.size() && (is_letter(text[end]) || is_digit(text[end]) ||
                                     std::strchr("/_+-:", text[end]) != nullptr)) {
          ++end;
        }
        const TimeZone* found = nullptr;
        // The longest prefix that names a zone.
        for (size_t stop = end; stop > position && found == nullptr; --stop) {
          found = TimeZone::find(text.substr(position, stop - position));
          if (found != nullptr) end = stop;
        }
        if (found == nullptr) return false;
        parsed.zone = found;
        position = end;
        break;
      }
      case 'O':
      case 'X':
      case 'x':
      case 'Z': {
        if ((item.letter == 'X' || (item.letter == 'Z' && n == 5)) && position < text.size() &&
            text[position] == 'Z') {
          ++position;
          parsed.has_offset = true;
          parsed.offset = 0;
          break;
        }
        if (item.letter == 'O' || (item.letter == 'Z' && n == 4)) {
          if (match_name(text.substr(position), "GMT") == 0) return false;
          position += 3;
          if (position >= text.size() || (text[position] != '+' && text[position] != '-')) {
            parsed.has_offset = true;
            parsed.offset = 0;
            break;
          }
        }
        if (position >= text.size() || (text[position] != '+' && text[position] != '-')) {
          return false;
        }
        const int32_t sign = text[position] == '-' ? -1 : 1;
        ++position;
        int64_t hours = 0;
        int64_t minutes = 0;
        int64_t seconds = 0;
        if (!read_number(1, 2, &hours)) return false;
        if (position < text.size() && text[position] == ':') ++position;
        if (read_number(2, 2, &minutes)) {
          if (position < text.size() && text[position] == ':') ++position;
          read_number(2, 2, &seconds);
        }
        if (hours > 18 || minutes > 59 || seconds > 59) return false;
        parsed.has_offset = true;
        parsed.offset = sign * static_cast<int32_t>(hours * 3600 + minutes * 60 + seconds);
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

std::optional<int64_t> DateTimePattern::local_micros_of(const Parsed& parsed) const {
  int64_t year = parsed.bc ? 1 - parsed.year : parsed.year;
  int64_t days;
  if (parsed.day_of_year >= 0) {
    if (parsed.day_of_year < 1 || parsed.day_of_year > (is_leap_year(year) ? 366 : 365)) {
      return std::nullopt;
    }
    days = days_from_civil(year, 1, 1) + parsed.day_of_year - 1;
  } else {
    if (parsed.month < 1 || parsed.month > 12 || parsed.day < 1 ||
        parsed.day > days_in_month(year, static_cast<int32_t>(parsed.month))) {
      return std::nullopt;
    }
    days =
        days_from_civil(year, static_cast<int32_t>(parsed.month), static_cast<int32_t>(parsed.day));
  }
  int64_t hour = parsed.hour;
  if (parsed.hour12 >= 0) {
    hour = parsed.hour12 + (parsed.pm == 1 ? 12 : 0);
  }
  const int64_t seconds = hour * 3600 + parsed.minute * 60 + parsed.second;
  int64_t micros;
  if (__builtin_mul_overflow(days, kMicrosPerDay, &micros) ||
      __builtin_add_overflow(micros, seconds * kMicrosPerSecond + parsed.micros, &micros)) {
    return std::nullopt;
  }
  return micros;
}

std::optional<int64_t> DateTimePattern::parse(std::string_view text, const TimeZone& zone) const {
  Parsed parsed;
  if (!parse_fields(text, parsed)) return std::nullopt;
  std::optional<int64_t> local = local_micros_of(parsed);
  if (!local) return std::nullopt;
  const int64_t local_seconds = floor_div(*local, kMicrosPerSecond);
  const int64_t fraction = *local - local_seconds * kMicrosPerSecond;
  int64_t utc_seconds;
  if (parsed.has_offset) {
    utc_seconds = local_seconds - parsed.offset;
  } else {
    utc_seconds = (parsed.zone != nullptr ? *parsed.zone : zone).utc_from_local(local_seconds);
  }
  int64_t micros;
  if (__builtin_mul_overflow(utc_seconds, kMicrosPerSecond, &micros)) return std::nullopt;
  return micros + fraction;
}

std::optional<int64_t> DateTimePattern::parse_local(std::string_view text) const {
  Parsed parsed;
  if (!parse_fields(text, parsed)) return std::nullopt;
  return local_micros_of(parsed);
}

}  // namespace bowstring::compute
