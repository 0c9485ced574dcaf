#include "bowstring/compute/datetime/calendar.h"

#include <gtest/gtest.h>

namespace bowstring::compute {
namespace {

TEST(Calendar, DaysAndCivilDates) {
  EXPECT_EQ(days_from_civil(1970, 1, 1), 0);
  EXPECT_EQ(days_from_civil(2000, 3, 1), 11017);
  EXPECT_EQ(days_from_civil(1969, 12, 31), -1);
  EXPECT_EQ(days_from_civil(1, 1, 1), -719162);
  EXPECT_EQ(days_from_civil(0, 12, 31), -719163);
  EXPECT_EQ(days_from_civil(9999, 12, 31), 2932896);
  // The proleptic Gregorian calendar has no 1582 cutover: 1582-10-04 is followed by 10-05.
  EXPECT_EQ(days_from_civil(1582, 10, 5) - days_from_civil(1582, 10, 4), 1);
  for (int64_t days = -800000; days <= 3000000; days += 7) {
    const CivilDate date = civil_from_days(days);
    ASSERT_EQ(days_from_civil(date.year, date.month, date.day), days);
    ASSERT_GE(date.day, 1);
    ASSERT_LE(date.day, days_in_month(date.year, date.month));
  }
  const CivilDate leap_day = civil_from_days(days_from_civil(2024, 2, 29));
  EXPECT_EQ(leap_day.year, 2024);
  EXPECT_EQ(leap_day.month, 2);
  EXPECT_EQ(leap_day.day, 29);
  const CivilDate negative = civil_from_days(-1);
  EXPECT_EQ(negative.year, 1969);
  EXPECT_EQ(negative.month, 12);
  EXPECT_EQ(negative.day, 31);
}

TEST(Calendar, LeapYears) {
  EXPECT_TRUE(is_leap_year(2000));
  EXPECT_TRUE(is_leap_year(2024));
  EXPECT_FALSE(is_leap_year(1900));
  EXPECT_FALSE(is_leap_year(2023));
  EXPECT_TRUE(is_leap_year(0));
  EXPECT_TRUE(is_leap_year(-4));
  EXPECT_EQ(days_in_month(2024, 2), 29);
  EXPECT_EQ(days_in_month(2100, 2), 28);
  EXPECT_EQ(days_in_month(2023, 4), 30);
}

TEST(Calendar, WeekdaysAndWeeks) {
  EXPECT_EQ(iso_day_of_week(0), 4);                                     // 1970-01-01, a Thursday
  EXPECT_EQ(sunday_first_day_of_week(0), 5);                            // Spark's dayofweek
  EXPECT_EQ(sunday_first_day_of_week(days_from_civil(2024, 6, 2)), 1);  // a Sunday
  EXPECT_EQ(sunday_first_day_of_week(-1), 4);
  EXPECT_EQ(day_of_year(days_from_civil(2024, 12, 31)), 366);
  EXPECT_EQ(day_of_year(days_from_civil(2023, 12, 31)), 365);
  EXPECT_EQ(day_of_year(days_from_civil(2023, 3, 1)), 60);
  int64_t week_year = 0;
  // 2021-01-03 is in week 53 of 2020; 2024-12-30 in week 1 of 2025; 2026-01-01 week 1.
  EXPECT_EQ(iso_week_of_year(days_from_civil(2021, 1, 3), &week_year), 53);
  EXPECT_EQ(week_year, 2020);
  EXPECT_EQ(iso_week_of_year(days_from_civil(2024, 12, 30), &week_year), 1);
  EXPECT_EQ(week_year, 2025);
  EXPECT_EQ(iso_week_of_year(days_from_civil(2026, 1, 1)), 1);
  EXPECT_EQ(iso_week_of_year(days_from_civil(2024, 6, 15)), 24);
  EXPECT_EQ(iso_week_of_year(days_from_civil(1969, 12, 31)), 1);
  EXPECT_EQ(quarter_of_month(1), 1);
  EXPECT_EQ(quarter_of_month(6), 2);
  EXPECT_EQ(quarter_of_month(12), 4);
}

TEST(Calendar, FloorDivision) {
  EXPECT_EQ(floor_div(-1, 86400), -1);
  EXPECT_EQ(floor_mod(-1, 86400), 86399);
  EXPECT_EQ(floor_div(86400, 86400), 1);
  EXPECT_EQ(floor_div(-86400, 86400), -1);
  EXPECT_EQ(floor_mod(-86400, 86400), 0);
}

}  // namespace
}  // namespace bowstring::compute
