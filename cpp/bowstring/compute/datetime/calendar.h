#pragma once

#include <cstdint>

namespace bowstring::compute {

// The proleptic Gregorian calendar (Spark 3 and later use it for every date, also before 1582).
// Days count from 1970-01-01 (day 0), as Arrow's date32 and Spark's DATE do.

/// A date split into its fields: month 1-12, day 1-31.
struct CivilDate {
  int64_t year;
  int32_t month;
  int32_t day;
};

constexpr int64_t kSecondsPerDay = 86400;
constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = kSecondsPerDay * kMicrosPerSecond;

/// `numerator` divided by a positive `denominator`, rounded toward negative infinity.
constexpr int64_t floor_div(int64_t numerator, int64_t denominator) {
  int64_t quotient = numerator / denominator;
  return quotient - ((numerator % denominator) < 0 ? 1 : 0);
}

/// The remainder of `floor_div`: in [0, denominator).
constexpr int64_t floor_mod(int64_t numerator, int64_t denominator) {
  int64_t remainder = numerator % denominator;
  return remainder < 0 ? remainder + denominator : remainder;
}

constexpr bool is_leap_year(int64_t year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/// Days of `month` (1-12) in `year`.
constexpr int32_t days_in_month(int64_t year, int32_t month) {
  constexpr int32_t kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap_year(year) ? 29 : kDays[month - 1];
}

/// Days since 1970-01-01 of a valid date (month 1-12, day within the month).
constexpr int64_t days_from_civil(int64_t year, int32_t month, int32_t day) {
  // Counts in years starting on March 1st, so that the leap day ends a year; eras are the
  // 400-year cycles of the calendar (146097 days).
  const int64_t shifted_year = month <= 2 ? year - 1 : year;
  const int64_t era = floor_div(shifted_year, 400);
  const int64_t year_of_era = shifted_year - era * 400;
  const int64_t month_from_march = month > 2 ? month - 3 : month + 9;
  const int64_t day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

/// The date `days` after 1970-01-01.
constexpr CivilDate civil_from_days(int64_t days) {
  const int64_t shifted = days + 719468;
  const int64_t era = floor_div(shifted, 146097);
  const int64_t day_of_era = shifted - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t month_from_march = (5 * day_of_year + 2) / 153;
  const int32_t day = static_cast<int32_t>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  const int32_t month =
      static_cast<int32_t>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  const int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  return {year, month, day};
}

/// ISO day of the week: 1 = Monday ... 7 = Sunday (1970-01-01 was a Thursday).
constexpr int32_t iso_day_of_week(int64_t days) {
  return static_cast<int32_t>(floor_mod(days + 3, 7)) + 1;
}

/// Spark's `dayofweek`: 1 = Sunday ... 7 = Saturday.
constexpr int32_t sunday_first_day_of_week(int64_t days) {
  return static_cast<int32_t>(floor_mod(days + 4, 7)) + 1;
}

/// Day of the year, 1-366.
constexpr int32_t day_of_year(int64_t days) {
  const CivilDate date = civil_from_days(days);
  return static_cast<int32_t>(days - days_from_civil(date.year, 1, 1)) + 1;
}

/// ISO 8601 week of the week-based year (1-53): weeks start on Monday and week 1 holds the
/// year's first Thursday. `week_year` receives that week-based year when not null.
constexpr int32_t iso_week_of_year(int64_t days, int64_t* week_year = nullptr) {
  // The Thursday of the same ISO week decides the year the week belongs to.
  const int64_t thursday = days - iso_day_of_week(days) + 4;
  const int64_t year = civil_from_days(thursday).year;
  if (week_year != nullptr) {
    *week_year = year;
  }
  return static_cast<int32_t>((thursday - days_from_civil(year, 1, 1)) / 7) + 1;
}

/// Quarter of the year, 1-4, of a month 1-12.
constexpr int32_t quarter_of_month(int32_t month) { return (month - 1) / 3 + 1; }

}  // namespace bowstring::compute
