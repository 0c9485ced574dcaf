#include "bowstring/compute/datetime/timezone.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/datetime/calendar.h"

namespace bowstring::compute {

namespace {

constexpr int32_t kMaxOffsetSeconds = 18 * 3600;
// Transitions of a POSIX rule are stored as a table up to this year; later instants compute
// them from the rule.
constexpr int64_t kRuleTableEndYear = 2200;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// "+hh:mm" or "+hh:mm:ss" (Java's ZoneOffset id); "Z" for zero when `zero_as_z`.
std::string offset_id(int32_t seconds, bool zero_as_z) {
  if (seconds == 0 && zero_as_z) {
    return "Z";
  }
  const int32_t magnitude = seconds < 0 ? -seconds : seconds;
  char text[16];
  const int32_t hours = magnitude / 3600;
  const int32_t minutes = magnitude / 60 % 60;
  const int32_t secs = magnitude % 60;
  int length;
  if (secs != 0) {
    length = std::snprintf(text, sizeof(text), "%c%02d:%02d:%02d", seconds < 0 ? '-' : '+', hours,
                           minutes, secs);
  } else {
    length =
        std::snprintf(text, sizeof(text), "%c%02d:%02d", seconds < 0 ? '-' : '+', hours, minutes);
  }
  return std::string(text, static_cast<size_t>(length));
}

int32_t two_digits(std::string_view text, size_t at) {
  return (text[at] - '0') * 10 + (text[at + 1] - '0');
}

// Java's ZoneOffset.of: "+h", "+hh", "+hh:mm", "+hhmm", "+hh:mm:ss", "+hhmmss" (sign
// required), at most 18 hours.
std::optional<int32_t> parse_offset(std::string_view text) {
  if (text.size() < 2 || (text[0] != '+' && text[0] != '-')) {
    return std::nullopt;
  }
  const int32_t sign = text[0] == '-' ? -1 : 1;
  const std::string_view body = text.substr(1);
  for (char c : body) {
    if (!is_digit(c) && c != ':') {
      return std::nullopt;
    }
  }
  int32_t hours = 0;
  int32_t minutes = 0;
  int32_t seconds = 0;
  switch (body.size()) {
    case 1:
      if (!is_digit(body[0])) return std::nullopt;
      hours = body[0] - '0';
      break;
    case 2:
      if (body.find(':') != std::string_view::npos) return std::nullopt;
      hours = two_digits(body, 0);
      break;
    case 4:
      if (body.find(':') != std::string_view::npos) return std::nullopt;
      hours = two_digits(body, 0);
      minutes = two_digits(body, 2);
      break;
    case 5:
      if (body[2] != ':' || body.find(':', 3) != std::string_view::npos) return std::nullopt;
      hours = two_digits(body, 0);
      minutes = two_digits(body, 3);
      break;
    case 6:
      if (body.find(':') != std::string_view::npos) return std::nullopt;
      hours = two_digits(body, 0);
      minutes = two_digits(body, 2);
      seconds = two_digits(body, 4);
      break;
    case 8:
      if (body[2] != ':' || body[5] != ':' || body.find(':', 6) != std::string_view::npos) {
        return std::nullopt;
      }
      hours = two_digits(body, 0);
      minutes = two_digits(body, 3);
      seconds = two_digits(body, 6);
      break;
    default:
      return std::nullopt;
  }
  if (hours > 18 || minutes > 59 || seconds > 59) {
    return std::nullopt;
  }
  const int32_t total = hours * 3600 + minutes * 60 + seconds;
  if (total > kMaxOffsetSeconds) {
    return std::nullopt;
  }
  return sign * total;
}

// Spark's DateTimeUtils.getZoneId rewrites "+h:mm" to "+0h:mm" and "+hh:m" to "+hh:0m" (forms
// older Spark versions accepted) before calling ZoneId.of.
std::string spark_zone_rewrite(std::string_view name) {
  std::string text(name);
  for (size_t i = 0; i + 2 < text.size(); ++i) {
    if ((text[i] == '+' || text[i] == '-') && is_digit(text[i + 1]) && text[i + 2] == ':') {
      text = text.substr(0, i + 1) + '0' + text.substr(i + 1);
      break;
    }
  }
  const size_t n = text.size();
  if (n >= 5 && (text[n - 5] == '+' || text[n - 5] == '-') && is_digit(text[n - 4]) &&
      is_digit(text[n - 3]) && text[n - 2] == ':' && is_digit(text[n - 1])) {
    text = text.substr(0, n - 1) + '0' + text.substr(n - 1);
  }
  return text;
}

// java.time's ZoneId.SHORT_IDS.
std::string_view short_id_target(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kShortIds[] = {
      {"ACT", "Australia/Darwin"},
      {"AET", "Australia/Sydney"},
      {"AGT", "America/Argentina/Buenos_Aires"},
      {"ART", "Africa/Cairo"},
      {"AST", "America/Anchorage"},
      {"BET", "America/Sao_Paulo"},
      {"BST", "Asia/Dhaka"},
      {"CAT", "Africa/Harare"},
      {"CNT", "America/St_Johns"},
      {"CST", "America/Chicago"},
      {"CTT", "Asia/Shanghai"},
      {"EAT", "Africa/Addis_Ababa"},
      {"ECT", "Europe/Paris"},
      {"EST", "-05:00"},
      {"HST", "-10:00"},
      {"IET", "America/Indiana/Indianapolis"},
      {"IST", "Asia/Kolkata"},
      {"JST", "Asia/Tokyo"},
      {"MIT", "Pacific/Apia"},
      {"MST", "-07:00"},
      {"NET", "Asia/Yerevan"},
      {"NST", "Pacific/Auckland"},
      {"PLT", "Asia/Karachi"},
      {"PNT", "America/Phoenix"},
      {"PRT", "America/Puerto_Rico"},
      {"PST", "America/Los_Angeles"},
      {"SST", "Pacific/Guadalcanal"},
      {"VST", "Asia/Ho_Chi_Minh"},
  };
  for (const auto& [id, target] : kShortIds) {
    if (id == name) {
      return target;
    }
  }
  return {};
}

// A big-endian reader over the bytes of a TZif file.
class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}
  bool has(size_t count) const { return position_ + count <= bytes_.size(); }
  void skip(size_t count) { position_ += count; }
  int64_t read_int(int width) {
    uint64_t value = 0;
    for (int i = 0; i < width; ++i) {
      value = (value << 8) | static_cast<uint8_t>(bytes_[position_ + i]);
    }
    position_ += static_cast<size_t>(width);
    if (width == 4) {
      return static_cast<int32_t>(static_cast<uint32_t>(value));
    }
    return static_cast<int64_t>(value);
  }
  uint8_t read_byte() { return static_cast<uint8_t>(bytes_[position_++]); }
  std::string_view rest() const { return bytes_.substr(position_); }
  std::string_view take(size_t count) {
    std::string_view part = bytes_.substr(position_, count);
    position_ += count;
    return part;
  }

 private:
  std::string_view bytes_;
  size_t position_ = 0;
};

struct TzifCounts {
  int64_t isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt;
};

std::optional<TzifCounts> read_header(ByteReader& reader, char* version) {
  if (!reader.has(44)) {
    return std::nullopt;
  }
  std::string_view magic = reader.take(4);
  if (magic != "TZif") {
    return std::nullopt;
  }
  *version = static_cast<char>(reader.read_byte());
  reader.skip(15);
  TzifCounts counts{};
  counts.isutcnt = reader.read_int(4);
  counts.isstdcnt = reader.read_int(4);
  counts.leapcnt = reader.read_int(4);
  counts.timecnt = reader.read_int(4);
  counts.typecnt = reader.read_int(4);
  counts.charcnt = reader.read_int(4);
  if (counts.isutcnt < 0 || counts.isstdcnt < 0 || counts.leapcnt < 0 || counts.timecnt < 0 ||
      counts.typecnt <= 0 || counts.charcnt < 0 || counts.typecnt > 256) {
    return std::nullopt;
  }
  return counts;
}

size_t data_block_size(const TzifCounts& counts, int time_width) {
  return static_cast<size_t>(counts.timecnt * time_width + counts.timecnt + counts.typecnt * 6 +
                             counts.charcnt + counts.leapcnt * (time_width + 4) + counts.isstdcnt +
                             counts.isutcnt);
}

// A parser of the POSIX TZ string in a TZif footer, e.g. "EST5EDT,M3.2.0,M11.1.0" or
// "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0".
class PosixTzParser {
 public:
  explicit PosixTzParser(std::string_view text) : text_(text) {}

  bool at_end() const { return position_ >= text_.size(); }
  bool peek(char c) const { return !at_end() && text_[position_] == c; }
  bool accept(char c) {
    if (peek(c)) {
      ++position_;
      return true;
    }
    return false;
  }

  std::optional<std::string> name() {
    if (accept('<')) {
      const size_t close = text_.find('>', position_);
      if (close == std::string_view::npos) return std::nullopt;
      std::string result(text_.substr(position_, close - position_));
      position_ = close + 1;
      return result;
    }
    const size_t start = position_;
    while (!at_end() && is_alpha(text_[position_])) ++position_;
    if (position_ - start < 3) return std::nullopt;
    return std::string(text_.substr(start, position_ - start));
  }

  // [+-]hh[:mm[:ss]] in seconds; hours up to 167 as RFC 8536 allows for rule times.
  std::optional<int32_t> duration() {
    int32_t sign = 1;
    if (accept('-')) {
      sign = -1;
    } else {
      accept('+');
    }
    std::optional<int32_t> hours = number();
    if (!hours || *hours > 167) return std::nullopt;
    int32_t total = *hours * 3600;
    if (accept(':')) {
      std::optional<int32_t> minutes = number();
      if (!minutes || *minutes > 59) return std::nullopt;
      total += *minutes * 60;
      if (accept(':')) {
        std::optional<int32_t> seconds = number();
        if (!seconds || *seconds > 59) return std::nullopt;
        total += *seconds;
      }
    }
    return sign * total;
  }

  std::optional<TimeZone::Rule::Change> change() {
    TimeZone::Rule::Change result;
    if (accept('J')) {
      std::optional<int32_t> day = number();
      if (!day || *day < 1 || *day > 365) return std::nullopt;
      result.kind = TimeZone::Rule::DayKind::kJulianNoLeap;
      result.day = *day;
    } else if (accept('M')) {
      std::optional<int32_t> month = number();
      if (!month || *month < 1 || *month > 12 || !accept('.')) return std::nullopt;
      std::optional<int32_t> week = number();
      if (!week || *week < 1 || *week > 5 || !accept('.')) return std::nullopt;
      std::optional<int32_t> weekday = number();
      if (!weekday || *weekday > 6) return std::nullopt;
      result.kind = TimeZone::Rule::DayKind::kMonthWeekDay;
      result.month = *month;
      result.week = *week;
      result.weekday = *weekday;
    } else {
      std::optional<int32_t> day = number();
      if (!day || *day > 365) return std::nullopt;
      result.kind = TimeZone::Rule::DayKind::kJulianZero;
      result.day = *day;
    }
    if (accept('/')) {
      std::optional<int32_t> time = duration();
      if (!time) return std::nullopt;
      result.time = *time;
    }
    return result;
  }

 private:
  std::optional<int32_t> number() {
    const size_t start = position_;
    int32_t value = 0;
    while (!at_end() && is_digit(text_[position_]) && position_ - start < 4) {
      value = value * 10 + (text_[position_] - '0');
      ++position_;
    }
    if (position_ == start) return std::nullopt;
    return value;
  }

  std::string_view text_;
  size_t position_ = 0;
};

int32_t find_or_add_type(std::vector<TimeZone::LocalType>& types, int32_t offset, bool is_dst,
                         const std::string& abbreviation) {
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i].offset == offset && types[i].is_dst == is_dst &&
        types[i].abbreviation == abbreviation) {
      return static_cast<int32_t>(i);
    }
  }
  types.push_back({offset, is_dst, abbreviation});
  return static_cast<int32_t>(types.size() - 1);
}

// Days since the epoch of the day a rule changes in `year`.
int64_t change_day(const TimeZone::Rule::Change& change, int64_t year) {
  const int64_t january_first = days_from_civil(year, 1, 1);
  switch (change.kind) {
    case TimeZone::Rule::DayKind::kJulianNoLeap:
      return january_first + change.day - 1 + (is_leap_year(year) && change.day >= 60 ? 1 : 0);
    case TimeZone::Rule::DayKind::kJulianZero:
      return january_first + change.day;
    case TimeZone::Rule::DayKind::kMonthWeekDay:
      break;
  }
  const int64_t first = days_from_civil(year, change.month, 1);
  const int32_t first_weekday = sunday_first_day_of_week(first) - 1;  // 0 = Sunday
  int32_t day = 1 + (change.weekday - first_weekday + 7) % 7 + (change.week - 1) * 7;
  if (day > days_in_month(year, change.month)) {
    day -= 7;
  }
  return first + day - 1;
}

// The UTC instants at which DST starts and ends in `year`.
std::pair<int64_t, int64_t> rule_changes(const TimeZone::Rule& rule,
                                         const std::vector<TimeZone::LocalType>& types,
                                         int64_t year) {
  const int32_t std_offset = types[rule.std_type].offset;
  const int32_t dst_offset = types[rule.dst_type].offset;
  const int64_t start =
      change_day(rule.start, year) * kSecondsPerDay + rule.start.time - std_offset;
  const int64_t end = change_day(rule.end, year) * kSecondsPerDay + rule.end.time - dst_offset;
  return {start, end};
}

std::string zoneinfo_directory() {
  const char* directory = std::getenv("TZDIR");
  return directory != nullptr && directory[0] != '\0' ? std::string(directory)
                                                      : std::string("/usr/share/zoneinfo");
}

// java.time's region id syntax, and no path component that leaves the database.
bool valid_region_name(std::string_view name) {
  if (name.size() < 2 || !is_alpha(name[0])) {
    return false;
  }
  for (char c : name) {
    if (!is_alpha(c) && !is_digit(c) && std::strchr("~/._+-", c) == nullptr) {
      return false;
    }
  }
  return name.find("..") == std::string_view::npos && name.find("//") == std::string_view::npos &&
         name.back() != '/';
}

std::unique_ptr<TimeZone> load_region(const std::string& name, const std::string& region) {
  if (!valid_region_name(region)) {
    return nullptr;
  }
  std::ifstream file(zoneinfo_directory() + "/" + region, std::ios::binary);
  if (!file) {
    return nullptr;
  }
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  ByteReader reader(bytes);
  char version = 0;
  std::optional<TzifCounts> counts = read_header(reader, &version);
  if (!counts) {
    return nullptr;
  }
  int time_width = 4;
  if (version >= '2') {
    // The 64-bit block after the version 1 data.
    const size_t skip = data_block_size(*counts, 4);
    if (!reader.has(skip)) return nullptr;
    reader.skip(skip);
    counts = read_header(reader, &version);
    if (!counts) return nullptr;
    time_width = 8;
  }
  if (!reader.has(data_block_size(*counts, time_width))) {
    return nullptr;
  }
  std::vector<TimeZone::Transition> transitions(static_cast<size_t>(counts->timecnt));
  for (auto& transition : transitions) {
    transition.utc_seconds = reader.read_int(time_width);
  }
  for (auto& transition : transitions) {
    transition.type = reader.read_byte();
    if (transition.type >= counts->typecnt) return nullptr;
  }
  struct RawType {
    int32_t offset;
    bool is_dst;
    uint8_t abbreviation_index;
  };
  std::vector<RawType> raw_types(static_cast<size_t>(counts->typecnt));
  for (auto& type : raw_types) {
    type.offset = static_cast<int32_t>(reader.read_int(4));
    type.is_dst = reader.read_byte() != 0;
    type.abbreviation_index = reader.read_byte();
  }
  const std::string_view abbreviations = reader.take(static_cast<size_t>(counts->charcnt));
  reader.skip(
      static_cast<size_t>(counts->leapcnt * (time_width + 4) + counts->isstdcnt + counts->isutcnt));
  std::vector<TimeZone::LocalType> types;
  for (const RawType& raw : raw_types) {
    std::string abbreviation;
    if (raw.abbreviation_index < abbreviations.size()) {
      const std::string_view tail = abbreviations.substr(raw.abbreviation_index);
      abbreviation = std::string(tail.substr(0, tail.find('\0')));
    }
    types.push_back({raw.offset, raw.is_dst, std::move(abbreviation)});
  }

  // The footer: "\n<POSIX TZ string>\n", for instants after the last transition.
  bool has_rule = false;
  TimeZone::Rule rule;
  std::string_view footer = reader.rest();
  if (time_width == 8 && footer.size() >= 2 && footer[0] == '\n') {
    footer = footer.substr(1, footer.find('\n', 1) - 1);
    PosixTzParser parser(footer);
    std::optional<std::string> std_name = parser.name();
    std::optional<int32_t> std_offset = std_name ? parser.duration() : std::nullopt;
    if (std_offset) {
      // A footer without daylight saving time repeats the last transition's type.
      if (!parser.at_end()) {
        const int32_t std_type = find_or_add_type(types, -*std_offset, false, *std_name);
        std::optional<std::string> dst_name = parser.name();
        if (!dst_name) return nullptr;
        int32_t dst_offset = -*std_offset + 3600;
        if (!parser.peek(',') && !parser.at_end()) {
          std::optional<int32_t> parsed = parser.duration();
          if (!parsed) return nullptr;
          dst_offset = -*parsed;
        }
        rule.std_type = std_type;
        rule.dst_type = find_or_add_type(types, dst_offset, true, *dst_name);
        // POSIX's default rule (US rules) when the string gives none.
        rule.start = {TimeZone::Rule::DayKind::kMonthWeekDay, 0, 3, 2, 0, 7200};
        rule.end = {TimeZone::Rule::DayKind::kMonthWeekDay, 0, 11, 1, 0, 7200};
        if (parser.accept(',')) {
          std::optional<TimeZone::Rule::Change> start = parser.change();
          if (!start || !parser.accept(',')) return nullptr;
          std::optional<TimeZone::Rule::Change> end = parser.change();
          if (!end) return nullptr;
          rule.start = *start;
          rule.end = *end;
        }
        has_rule = true;
      }
    }
  }
  if (has_rule) {
    // Tabulate the rule's changes up to kRuleTableEndYear so that lookups stay binary searches.
    const int64_t last = transitions.empty() ? INT64_MIN : transitions.back().utc_seconds;
    const int64_t first_year =
        transitions.empty() ? 1970 : civil_from_days(floor_div(last, kSecondsPerDay)).year;
    for (int64_t year = first_year; year <= kRuleTableEndYear; ++year) {
      auto [start, end] = rule_changes(rule, types, year);
      std::pair<int64_t, int32_t> changes[2] = {{start, rule.dst_type}, {end, rule.std_type}};
      if (end < start) std::swap(changes[0], changes[1]);
      for (const auto& [when, type] : changes) {
        if (when > last) {
          transitions.push_back({when, type});
        }
      }
    }
  }
  return std::make_unique<TimeZone>(name, region, std::move(types), std::move(transitions),
                                    has_rule, rule);
}

std::unique_ptr<TimeZone> make_zone(const std::string& name) {
  const std::string rewritten = spark_zone_rewrite(name);
  std::string_view id = rewritten;
  if (std::string_view target = short_id_target(id); !target.empty()) {
    id = target;
  }
  if (id == "Z") {
    return std::make_unique<TimeZone>(name, "Z", 0);
  }
  if (!id.empty() && (id[0] == '+' || id[0] == '-')) {
    std::optional<int32_t> offset = parse_offset(id);
    if (!offset) return nullptr;
    return std::make_unique<TimeZone>(name, offset_id(*offset, true), *offset);
  }
  for (std::string_view prefix : {"UTC", "GMT", "UT"}) {
    if (id.substr(0, prefix.size()) != prefix) {
      continue;
    }
    const std::string_view rest = id.substr(prefix.size());
    if (rest.empty()) {
      return std::make_unique<TimeZone>(name, std::string(prefix), 0);
    }
    if (rest[0] == '+' || rest[0] == '-') {
      std::optional<int32_t> offset = parse_offset(rest);
      if (!offset) return nullptr;
      std::string normalized(prefix);
      if (*offset != 0) {
        normalized += offset_id(*offset, false);
      }
      return std::make_unique<TimeZone>(name, normalized, *offset);
    }
  }
  return load_region(name, std::string(id));
}

}  // namespace

TimeZone::TimeZone(std::string name, std::string id, int32_t fixed_offset)
    : name_(std::move(name)), id_(std::move(id)), fixed_offset_(fixed_offset) {
  types_.push_back({fixed_offset, false, id_});
}

TimeZone::TimeZone(std::string name, std::string id, std::vector<LocalType> types,
                   std::vector<Transition> transitions, bool has_rule, Rule rule)
    : name_(std::move(name)),
      id_(std::move(id)),
      types_(std::move(types)),
      transitions_(std::move(transitions)),
      has_rule_(has_rule),
      rule_(rule) {
  if (transitions_.empty() && !has_rule_) {
    fixed_offset_ = types_[0].offset;
  }
}

const TimeZone* TimeZone::find(std::string_view name) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::unique_ptr<TimeZone>> cache;
  std::string key(name);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = cache.find(key);
    if (found != cache.end()) {
      return found->second.get();
    }
  }
  // Loaded outside the lock: a zone is immutable, and a racing load of the same name loses.
  std::unique_ptr<TimeZone> zone = make_zone(key);
  if (zone == nullptr) {
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(mutex);
  auto [entry, inserted] = cache.emplace(std::move(key), std::move(zone));
  return entry->second.get();
}

const TimeZone& TimeZone::get(std::string_view name) {
  const TimeZone* zone = find(name);
  if (zone == nullptr) {
    throw DateTimeError("INVALID_TIMEZONE",
                        "The time zone: " + std::string(name) +
                            " is invalid. The time zone should be either a region-based zone ID "
                            "or a zone offset (e.g. 'America/Los_Angeles' or '-08:00').");
  }
  return *zone;
}

const TimeZone& TimeZone::utc() {
  static const TimeZone& zone = get("UTC");
  return zone;
}

int32_t TimeZone::type_at_utc(int64_t utc_seconds) const {
  if (transitions_.empty()) {
    return has_rule_ ? rule_type_at_utc(utc_seconds) : 0;
  }
  if (has_rule_ && utc_seconds >= transitions_.back().utc_seconds) {
    return rule_type_at_utc(utc_seconds);
  }
  auto after = std::upper_bound(
      transitions_.begin(), transitions_.end(), utc_seconds,
      [](int64_t value, const Transition& transition) { return value < transition.utc_seconds; });
  if (after == transitions_.begin()) {
    return 0;
  }
  return std::prev(after)->type;
}

int32_t TimeZone::rule_type_at_utc(int64_t utc_seconds) const {
  const int64_t local = utc_seconds + types_[rule_.std_type].offset;
  const int64_t year = civil_from_days(floor_div(local, kSecondsPerDay)).year;
  auto [start, end] = rule_changes(rule_, types_, year);
  const bool in_dst = start < end ? (utc_seconds >= start && utc_seconds < end)
                                  : (utc_seconds >= start || utc_seconds < end);
  return in_dst ? rule_.dst_type : rule_.std_type;
}

int64_t TimeZone::utc_from_local(int64_t local_seconds) const {
  if (is_fixed()) {
    return local_seconds - fixed_offset_;
  }
  // Offsets are within 18 hours, so a day either side brackets any change near this time.
  const int32_t earlier = offset_at_utc(local_seconds - kSecondsPerDay);
  const int32_t later = offset_at_utc(local_seconds + kSecondsPerDay);
  const bool earlier_fits = offset_at_utc(local_seconds - earlier) == earlier;
  if (earlier == later && earlier_fits) {
    return local_seconds - earlier;
  }
  if (earlier_fits) {
    return local_seconds - earlier;
  }
  if (offset_at_utc(local_seconds - later) == later) {
    return local_seconds - later;
  }
  // In a gap: java.time moves the local time forward by the gap, which is the instant the
  // earlier offset gives.
  return local_seconds - earlier;
}

// A rule whose saving time has the smaller offset (tz data's negative saving) names winter
// the saving time, where java.time sees summer as daylight saving time.
static bool negative_saving(bool has_rule, const TimeZone::Rule& rule,
                            const std::vector<TimeZone::LocalType>& types) {
  return has_rule && types[rule.dst_type].offset < types[rule.std_type].offset;
}

bool TimeZone::is_daylight_at_utc(int64_t utc_seconds) const {
  if (is_fixed()) return false;
  const LocalType& type = types_[type_at_utc(utc_seconds)];
  return type.is_dst != negative_saving(has_rule_, rule_, types_);
}

std::string_view TimeZone::standard_abbreviation() const {
  if (has_rule_) {
    const bool negative = negative_saving(has_rule_, rule_, types_);
    return types_[negative ? rule_.dst_type : rule_.std_type].abbreviation;
  }
  for (auto it = transitions_.rbegin(); it != transitions_.rend(); ++it) {
    if (!types_[it->type].is_dst) return types_[it->type].abbreviation;
  }
  return types_[0].abbreviation;
}

std::string_view TimeZone::daylight_abbreviation() const {
  if (has_rule_) {
    const bool negative = negative_saving(has_rule_, rule_, types_);
    return types_[negative ? rule_.std_type : rule_.dst_type].abbreviation;
  }
  for (auto it = transitions_.rbegin(); it != transitions_.rend(); ++it) {
    if (types_[it->type].is_dst) return types_[it->type].abbreviation;
  }
  return {};
}

std::string_view TimeZone::abbreviation_at_utc(int64_t utc_seconds) const {
  if (is_fixed() && transitions_.empty() && types_.size() == 1) {
    return types_[0].abbreviation;
  }
  return types_[type_at_utc(utc_seconds)].abbreviation;
}

}  // namespace bowstring::compute
