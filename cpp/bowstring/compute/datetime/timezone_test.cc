#include "bowstring/compute/datetime/timezone.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/datetime/calendar.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

// Seconds since the epoch of a UTC (or local) wall-clock time.
int64_t seconds_at(int64_t year, int32_t month, int32_t day, int32_t hour = 0, int32_t minute = 0,
                   int32_t second = 0) {
  return days_from_civil(year, month, day) * kSecondsPerDay + hour * 3600 + minute * 60 + second;
}

TEST(TimeZone, FixedOffsetForms) {
  struct Case {
    const char* name;
    int32_t offset;
    const char* id;
  };
  const Case cases[] = {
      {"UTC", 0, "UTC"},
      {"Z", 0, "Z"},
      {"+02:00", 7200, "+02:00"},
      {"-0530", -19800, "-05:30"},
      {"+8", 28800, "+08:00"},
      {"+08", 28800, "+08:00"},
      {"+1:30", 5400, "+01:30"},
      {"+01:3", 3780, "+01:03"},
      {"GMT", 0, "GMT"},
      {"GMT+1", 3600, "GMT+01:00"},
      {"UTC+8", 28800, "UTC+08:00"},
      {"UTC-05:30", -19800, "UTC-05:30"},
      {"UT+0", 0, "UT"},
      {"+00:00", 0, "Z"},
      {"-18:00", -64800, "-18:00"},
      {"+10:20:30", 37230, "+10:20:30"},
      {"EST", -18000, "-05:00"},
      {"MST", -25200, "-07:00"},
  };
  for (const Case& c : cases) {
    const TimeZone& zone = TimeZone::get(c.name);
    EXPECT_TRUE(zone.is_fixed()) << c.name;
    EXPECT_EQ(zone.offset_at_utc(0), c.offset) << c.name;
    EXPECT_EQ(zone.offset_at_utc(seconds_at(2024, 7, 1)), c.offset) << c.name;
    EXPECT_EQ(zone.id(), c.id) << c.name;
    EXPECT_EQ(zone.utc_from_local(1000), 1000 - c.offset) << c.name;
  }
}

TEST(TimeZone, InvalidNamesThrow) {
  for (const char* name :
       {"", "Mars/Olympus", "+19:00", "+1:2:3", "UTC+", "GMT+25", "../etc/passwd", "America/",
        "utc", "+0a:00", "Europe/../../etc/passwd", "1234"}) {
    EXPECT_EQ(TimeZone::find(name), nullptr) << name;
  }
  const std::string message =
      testing::error_message<DateTimeError>([] { TimeZone::get("Mars/Olympus"); });
  EXPECT_NE(message.find("[INVALID_TIMEZONE]"), std::string::npos) << message;
  EXPECT_NE(message.find("Mars/Olympus"), std::string::npos) << message;
}

TEST(TimeZone, CachedByName) {
  EXPECT_EQ(&TimeZone::get("Europe/Paris"), &TimeZone::get("Europe/Paris"));
  std::vector<const TimeZone*> seen(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([&seen, i] { seen[i] = &TimeZone::get("Asia/Tokyo"); });
  }
  for (auto& thread : threads) thread.join();
  for (const TimeZone* zone : seen) EXPECT_EQ(zone, seen[0]);
}

TEST(TimeZone, ShortIdsAreRegions) {
  const TimeZone& pst = TimeZone::get("PST");
  EXPECT_EQ(pst.id(), "America/Los_Angeles");
  EXPECT_EQ(pst.offset_at_utc(seconds_at(2024, 1, 15)), -8 * 3600);
  EXPECT_EQ(pst.offset_at_utc(seconds_at(2024, 7, 15)), -7 * 3600);
  EXPECT_EQ(TimeZone::get("IST").offset_at_utc(0), 19800);
}

TEST(TimeZone, NewYorkTransitions) {
  const TimeZone& zone = TimeZone::get("America/New_York");
  EXPECT_FALSE(zone.is_fixed());
  // DST began 2024-03-10 at 02:00 EST (07:00 UTC) and ended 2024-11-03 at 02:00 EDT (06:00 UTC).
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2024, 3, 10, 6, 59, 59)), -5 * 3600);
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2024, 3, 10, 7)), -4 * 3600);
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2024, 11, 3, 5, 59, 59)), -4 * 3600);
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2024, 11, 3, 6)), -5 * 3600);
  EXPECT_EQ(zone.abbreviation_at_utc(seconds_at(2024, 7, 1)), "EDT");
  EXPECT_EQ(zone.abbreviation_at_utc(seconds_at(2024, 1, 1)), "EST");
  // Before standard time (1883) clocks kept local mean time, -4:56:02.
  EXPECT_EQ(zone.offset_at_utc(seconds_at(1800, 1, 1)), -17762);
  // Negative epoch seconds: 1960-06-01 was in EDT.
  EXPECT_EQ(zone.offset_at_utc(seconds_at(1960, 6, 1)), -4 * 3600);
}

TEST(TimeZone, GapsMoveForwardAndOverlapsTakeTheEarlierOffset) {
  const TimeZone& zone = TimeZone::get("America/New_York");
  // 02:30 on 2024-03-10 does not exist: java.time gives 03:30 EDT = 07:30 UTC.
  EXPECT_EQ(zone.utc_from_local(seconds_at(2024, 3, 10, 2, 30)), seconds_at(2024, 3, 10, 7, 30));
  EXPECT_EQ(zone.utc_from_local(seconds_at(2024, 3, 10, 2, 0)), seconds_at(2024, 3, 10, 7, 0));
  EXPECT_EQ(zone.utc_from_local(seconds_at(2024, 3, 10, 3, 0)), seconds_at(2024, 3, 10, 7, 0));
  EXPECT_EQ(zone.utc_from_local(seconds_at(2024, 3, 10, 1, 59, 59)),
            seconds_at(2024, 3, 10, 6, 59, 59));
  // 01:30 on 2024-11-03 happens twice: the earlier, EDT, is 05:30 UTC.
  EXPECT_EQ(zone.utc_from_local(seconds_at(2024, 11, 3, 1, 30)), seconds_at(2024, 11, 3, 5, 30));
  EXPECT_EQ(zone.utc_from_local(seconds_at(2024, 11, 3, 2, 0)), seconds_at(2024, 11, 3, 7, 0));
  EXPECT_EQ(zone.utc_from_local(seconds_at(2024, 11, 3, 0, 59)), seconds_at(2024, 11, 3, 4, 59));

  const TimeZone& london = TimeZone::get("Europe/London");
  // Clocks went 01:00 GMT -> 02:00 BST on 2024-03-31 and 02:00 BST -> 01:00 GMT on 2024-10-27.
  EXPECT_EQ(london.utc_from_local(seconds_at(2024, 3, 31, 1, 15)), seconds_at(2024, 3, 31, 1, 15));
  EXPECT_EQ(london.utc_from_local(seconds_at(2024, 10, 27, 1, 15)),
            seconds_at(2024, 10, 27, 0, 15));
  EXPECT_EQ(london.offset_at_utc(seconds_at(2024, 10, 27, 1, 0)), 0);
  EXPECT_EQ(london.abbreviation_at_utc(seconds_at(2024, 6, 1)), "BST");
}

TEST(TimeZone, HalfHourDaylightSaving) {
  const TimeZone& zone = TimeZone::get("Australia/Lord_Howe");
  // +10:30 standard, +11:00 in summer; 2024-10-06 02:00 -> 02:30 and 2024-04-07 02:00 -> 01:30.
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2024, 7, 1)), 10 * 3600 + 1800);
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2024, 1, 1)), 11 * 3600);
  const int64_t gap_start = seconds_at(2024, 10, 6, 2, 0);
  EXPECT_EQ(zone.utc_from_local(gap_start + 600), gap_start + 600 - (10 * 3600 + 1800));
  EXPECT_EQ(zone.local_from_utc(zone.utc_from_local(gap_start + 600)), gap_start + 600 + 1800);
  const int64_t overlap = seconds_at(2024, 4, 7, 1, 45);
  EXPECT_EQ(zone.utc_from_local(overlap), overlap - 11 * 3600);
}

TEST(TimeZone, NoDaylightSaving) {
  const TimeZone& zone = TimeZone::get("Asia/Kolkata");
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2024, 1, 1)), 19800);
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2300, 6, 1)), 19800);
  EXPECT_EQ(zone.utc_from_local(seconds_at(2024, 5, 5, 12)), seconds_at(2024, 5, 5, 6, 30));
  EXPECT_EQ(zone.abbreviation_at_utc(seconds_at(2024, 1, 1)), "IST");
}

TEST(TimeZone, FarFutureFollowsTheRule) {
  const TimeZone& zone = TimeZone::get("America/New_York");
  // Second Sunday of March 2037 is the 8th; first Sunday of November is the 1st.
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2037, 3, 8, 6, 59)), -5 * 3600);
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2037, 3, 8, 7, 0)), -4 * 3600);
  // Beyond the tabulated years the rule is evaluated directly: 2500-03-14 and 2500-11-07 are
  // the second and first Sundays.
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2500, 3, 14, 6, 59)), -5 * 3600);
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2500, 3, 14, 7, 0)), -4 * 3600);
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2500, 11, 7, 5, 59)), -4 * 3600);
  EXPECT_EQ(zone.offset_at_utc(seconds_at(2500, 11, 7, 6, 0)), -5 * 3600);
  EXPECT_EQ(zone.utc_from_local(seconds_at(2500, 3, 14, 2, 30)), seconds_at(2500, 3, 14, 7, 30));
  // Southern hemisphere: Sydney's summer spans the new year.
  const TimeZone& sydney = TimeZone::get("Australia/Sydney");
  EXPECT_EQ(sydney.offset_at_utc(seconds_at(2450, 1, 10)), 11 * 3600);
  EXPECT_EQ(sydney.offset_at_utc(seconds_at(2450, 7, 10)), 10 * 3600);
  EXPECT_EQ(sydney.offset_at_utc(seconds_at(2150, 12, 31)), 11 * 3600);
}

TEST(TimeZone, RoundTripsEveryHourOfAYear) {
  for (const char* name : {"America/New_York", "Europe/London", "Australia/Lord_Howe",
                           "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Chatham"}) {
    const TimeZone& zone = TimeZone::get(name);
    for (int64_t utc = seconds_at(2023, 1, 1); utc < seconds_at(2024, 1, 1); utc += 900) {
      const int64_t local = zone.local_from_utc(utc);
      const int64_t back = zone.utc_from_local(local);
      // Only the second occurrence of an overlapping local time maps to another instant.
      if (back != utc) {
        EXPECT_LT(back, utc) << name << " " << utc;
        EXPECT_EQ(zone.local_from_utc(back), local) << name << " " << utc;
      }
    }
  }
}

}  // namespace
}  // namespace bowstring::compute
