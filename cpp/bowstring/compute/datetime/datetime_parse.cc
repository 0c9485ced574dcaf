#include "bowstring/compute/datetime/datetime_parse.h"

#include <array>

#include "bowstring/compute/datetime/calendar.h"

namespace bowstring::compute {

namespace {

// UTF8String.trimAll: whitespace and control characters at both ends.
std::string_view trim_all(std::string_view text) {
  auto is_trimmed = [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte <= 0x20 || byte == 0x7f;
  };
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && is_trimmed(text[begin])) ++begin;
  while (end > begin && is_trimmed(text[end - 1])) --end;
  return text.substr(begin, end - begin);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Microseconds of a local date and time, or nullopt past the range of int64.
std::optional<int64_t> local_micros(int64_t days, int64_t seconds_of_day, int64_t micros) {
  int64_t result;
  if (__builtin_mul_overflow(days, kMicrosPerDay, &result) ||
      __builtin_add_overflow(result, seconds_of_day * kMicrosPerSecond + micros, &result)) {
    return std::nullopt;
  }
  return result;
}

struct TimestampParts {
  // year, month, day, hour, minute, second, microsecond
  std::array<int64_t, 7> segments = {1, 1, 1, 0, 0, 0, 0};
  bool just_time = false;
  std::string_view zone;
  bool has_zone = false;
};

// Spark's parseTimestampString, segment by segment.
std::optional<TimestampParts> split_timestamp(std::string_view raw) {
  const std::string_view text = trim_all(raw);
  if (text.empty()) return std::nullopt;
  TimestampParts parts;
  auto valid_digits = [](int segment, int digits) {
    return segment == 6 || (segment == 0 && digits >= 4 && digits <= 6) ||
           (segment == 7 && digits <= 2) ||
           (segment != 0 && segment != 6 && segment != 7 && digits > 0 && digits <= 2);
  };
  int segment = 0;
  int64_t value = 0;
  int digits = 0;
  int fraction_digits = 0;
  int64_t year_sign = 1;
  bool has_year_sign = false;
  size_t j = 0;
  if (text[0] == '-' || text[0] == '+') {
    year_sign = text[0] == '-' ? -1 : 1;
    has_year_sign = true;
    j = 1;
  }
  auto close_segment = [&](int index) {
    if (!valid_digits(index, digits)) return false;
    if (index < 7) parts.segments[index] = value;
    value = 0;
    digits = 0;
    return true;
  };
  for (; j < text.size(); ++j) {
    const char b = text[j];
    if (is_digit(b)) {
      if (segment == 6) ++fraction_digits;
      if (segment != 6 || digits < 6) value = value * 10 + (b - '0');
      ++digits;
      // More digits than any segment holds cannot be valid; stop before overflowing.
      if (segment != 6 && digits > 7) return std::nullopt;
      continue;
    }
    if (j == 0 && b == 'T') {
      parts.just_time = true;
      segment += 3;
    } else if (segment < 2) {
      if (b == '-') {
        if (!close_segment(segment)) return std::nullopt;
        ++segment;
      } else if (segment == 0 && b == ':' && !has_year_sign) {
        parts.just_time = true;
        if (!close_segment(3)) return std::nullopt;
        segment = 4;
      } else {
        return std::nullopt;
      }
    } else if (segment == 2) {
      if (b != ' ' && b != 'T') return std::nullopt;
      if (!close_segment(segment)) return std::nullopt;
      ++segment;
    } else if (segment == 3 || segment == 4) {
      if (b != ':') return std::nullopt;
      if (!close_segment(segment)) return std::nullopt;
      ++segment;
    } else if (segment == 5 || segment == 6) {
      if (b == '.' && segment == 5) {
        if (!close_segment(segment)) return std::nullopt;
        ++segment;
      } else {
        if (!close_segment(segment)) return std::nullopt;
        ++segment;
        parts.zone = text.substr(j);
        parts.has_zone = true;
        if (segment == 6) ++segment;
        break;
      }
    } else {
      return std::nullopt;
    }
  }
  if (!close_segment(segment)) return std::nullopt;
  for (; fraction_digits < 6; ++fraction_digits) parts.segments[6] *= 10;
  parts.segments[0] *= year_sign;
  return parts;
}

std::optional<int64_t> timestamp_from_parts(const TimestampParts& parts, const TimeZone* zone,
                                            int64_t statement_time_us) {
  const auto& s = parts.segments;
  if (s[3] > 23 || s[4] > 59 || s[5] > 59) return std::nullopt;
  int64_t days;
  if (parts.just_time) {
    const int64_t now_seconds = floor_div(statement_time_us, kMicrosPerSecond);
    const int64_t local_now = zone != nullptr ? zone->local_from_utc(now_seconds) : now_seconds;
    days = floor_div(local_now, kSecondsPerDay);
  } else {
    if (s[1] < 1 || s[1] > 12 || s[2] < 1 ||
        s[2] > days_in_month(s[0], static_cast<int32_t>(s[1]))) {
      return std::nullopt;
    }
    days = days_from_civil(s[0], static_cast<int32_t>(s[1]), static_cast<int32_t>(s[2]));
  }
  const int64_t seconds_of_day = s[3] * 3600 + s[4] * 60 + s[5];
  if (zone == nullptr) {
    return local_micros(days, seconds_of_day, s[6]);
  }
  const int64_t local_seconds = days * kSecondsPerDay + seconds_of_day;
  const int64_t utc_seconds = zone->utc_from_local(local_seconds);
  return local_micros(floor_div(utc_seconds, kSecondsPerDay),
                      floor_mod(utc_seconds, kSecondsPerDay), s[6]);
}

int write_digits(int64_t value, int width, char* out) {
  char reversed[24];
  int count = 0;
  do {
    reversed[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  int length = 0;
  for (int pad = count; pad < width; ++pad) out[length++] = '0';
  while (count > 0) out[length++] = reversed[--count];
  return length;
}

int write_two(int32_t value, char* out) {
  out[0] = static_cast<char>('0' + value / 10);
  out[1] = static_cast<char>('0' + value % 10);
  return 2;
}

int write_civil(const CivilDate& date, char* out) {
  int length = format_year(date.year, out);
  out[length++] = '-';
  length += write_two(date.month, out + length);
  out[length++] = '-';
  length += write_two(date.day, out + length);
  return length;
}

int write_local_timestamp(int64_t local_micros_value, char* out) {
  const int64_t days = floor_div(local_micros_value, kMicrosPerDay);
  const int64_t micros_of_day = local_micros_value - days * kMicrosPerDay;
  int length = write_civil(civil_from_days(days), out);
  out[length++] = ' ';
  const int64_t seconds_of_day = micros_of_day / kMicrosPerSecond;
  length += write_two(static_cast<int32_t>(seconds_of_day / 3600), out + length);
  out[length++] = ':';
  length += write_two(static_cast<int32_t>(seconds_of_day / 60 % 60), out + length);
  out[length++] = ':';
  length += write_two(static_cast<int32_t>(seconds_of_day % 60), out + length);
  int64_t fraction = micros_of_day % kMicrosPerSecond;
  if (fraction != 0) {
    out[length++] = '.';
    int width = 6;
    while (fraction % 10 == 0) {
      fraction /= 10;
      --width;
    }
    length += write_digits(fraction, width, out + length);
  }
  return length;
}

}  // namespace

std::optional<int32_t> parse_date(std::string_view raw) {
  const std::string_view text = trim_all(raw);
  if (text.empty()) return std::nullopt;
  auto valid_digits = [](int segment, int digits) {
    return (segment == 0 && digits >= 4 && digits <= 7) ||
           (segment != 0 && digits > 0 && digits <= 2);
  };
  int64_t segments[3] = {1, 1, 1};
  int segment = 0;
  int64_t value = 0;
  int digits = 0;
  int64_t sign = 1;
  size_t j = 0;
  if (text[0] == '-' || text[0] == '+') {
    sign = text[0] == '-' ? -1 : 1;
    j = 1;
  }
  for (; j < text.size() && text[j] != ' ' && text[j] != 'T'; ++j) {
    const char b = text[j];
    if (segment < 2 && b == '-') {
      if (!valid_digits(segment, digits)) return std::nullopt;
      segments[segment++] = value;
      value = 0;
      digits = 0;
    } else if (is_digit(b)) {
      value = value * 10 + (b - '0');
      if (++digits > 7) return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  if (!valid_digits(segment, digits)) return std::nullopt;
  if (segment < 2 && j < text.size()) return std::nullopt;
  segments[segment] = value;
  const int64_t year = sign * segments[0];
  if (segments[1] < 1 || segments[1] > 12 || segments[2] < 1 ||
      segments[2] > days_in_month(year, static_cast<int32_t>(segments[1]))) {
    return std::nullopt;
  }
  const int64_t days =
      days_from_civil(year, static_cast<int32_t>(segments[1]), static_cast<int32_t>(segments[2]));
  if (days < INT32_MIN || days > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(days);
}

std::optional<int64_t> parse_timestamp(std::string_view text, const TimeZone& session_zone,
                                       int64_t statement_time_us) {
  std::optional<TimestampParts> parts = split_timestamp(text);
  if (!parts) return std::nullopt;
  const TimeZone* zone = &session_zone;
  if (parts->has_zone) {
    zone = TimeZone::find(trim_all(parts->zone));
    if (zone == nullptr) return std::nullopt;
  }
  return timestamp_from_parts(*parts, zone, statement_time_us);
}

std::optional<int64_t> parse_timestamp_ntz(std::string_view text, int64_t statement_time_us) {
  std::optional<TimestampParts> parts = split_timestamp(text);
  // Spark's stringToTimestampWithoutTimeZone finds a time without a date malformed.
  if (!parts || parts->just_time) return std::nullopt;
  if (parts->has_zone && TimeZone::find(trim_all(parts->zone)) == nullptr) return std::nullopt;
  return timestamp_from_parts(*parts, nullptr, statement_time_us);
}

int format_year(int64_t year, char* out) {
  int length = 0;
  if (year < 0) {
    out[length++] = '-';
  } else if (year > 9999) {
    out[length++] = '+';
  }
  return length + write_digits(year < 0 ? -year : year, 4, out + length);
}

int format_date(int32_t days, char* out) { return write_civil(civil_from_days(days), out); }

int format_timestamp(int64_t micros, const TimeZone& zone, char* out) {
  const int64_t seconds = floor_div(micros, kMicrosPerSecond);
  const int64_t offset_micros =
      static_cast<int64_t>(zone.offset_at_utc(seconds)) * kMicrosPerSecond;
  return write_local_timestamp(micros + offset_micros, out);
}

int format_timestamp_ntz(int64_t micros, char* out) { return write_local_timestamp(micros, out); }

std::string format_date(int32_t days) {
  char text[kMaxDateTextLength];
  return std::string(text, static_cast<size_t>(format_date(days, text)));
}

std::string format_timestamp(int64_t micros, const TimeZone& zone) {
  char text[kMaxTimestampTextLength];
  return std::string(text, static_cast<size_t>(format_timestamp(micros, zone, text)));
}

}  // namespace bowstring::compute
