#include "bowstring/compute/datetime/datetime_parse.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "bowstring/compute/datetime/calendar.h"

namespace bowstring::compute {
namespace {

// Spark's CAST(s AS TIMESTAMP) in session zone UTC, shown as CAST(... AS STRING); nullopt for
// malformed strings. Expectations were checked against Spark 4.
std::optional<std::string> cast_round_trip(std::string_view text, const char* zone = "UTC") {
  std::optional<int64_t> micros = parse_timestamp(text, TimeZone::get(zone), 0);
  if (!micros) return std::nullopt;
  return format_timestamp(*micros, TimeZone::get("UTC"));
}

std::optional<std::string> date_round_trip(std::string_view text) {
  std::optional<int32_t> days = parse_date(text);
  if (!days) return std::nullopt;
  return format_date(*days);
}

TEST(DateTimeParse, TimestampForms) {
  const std::pair<const char*, const char*> valid[] = {
      {"2024-01-01 12:30", "2024-01-01 12:30:00"},
      {"2024-01-01 12", "2024-01-01 12:00:00"},
      {"2024-01-01T12", "2024-01-01 12:00:00"},
      {"2024-01-01 12:30:00Z", "2024-01-01 12:30:00"},
      {"2024-01-01 12:30:00 UTC", "2024-01-01 12:30:00"},
      {"2024-01-01 12:30:00+08:00", "2024-01-01 04:30:00"},
      {"2024-01-01 12:30:00 +08:00", "2024-01-01 04:30:00"},
      {"2024-01-01 12:30:00.123456789-0530", "2024-01-01 18:00:00.123456"},
      {"2024-01-01 12:30:00America/New_York", "2024-01-01 17:30:00"},
      {"2024-01-01 12:30:00 America/New_York", "2024-01-01 17:30:00"},
      {"2024-01-01 12:30:00 GMT+1", "2024-01-01 11:30:00"},
      {"2024-01-01 ", "2024-01-01 00:00:00"},
      {"2024-01", "2024-01-01 00:00:00"},
      {"2024", "2024-01-01 00:00:00"},
      {"  2024-01-01 01:02:03.5  ", "2024-01-01 01:02:03.5"},
      {"2024-01-01 01:02:03.", "2024-01-01 01:02:03"},
      {"+2024-01-01", "2024-01-01 00:00:00"},
      {"-0044-03-15", "-0044-03-15 00:00:00"},
      {"2024-1-1 1:2:3", "2024-01-01 01:02:03"},
      {"2024-01-01 12:30:00 Z", "2024-01-01 12:30:00"},
      {"2024-01-01 12:30:00+8", "2024-01-01 04:30:00"},
      {"2024-01-01 12:30:00CST", "2024-01-01 18:30:00"},
      {"2024-01-01 12:30:00.123Z", "2024-01-01 12:30:00.123"},
      {"2024-01-01 12:30:00.Z", "2024-01-01 12:30:00"},
      {"2024-01-01 12:30:00.1 UTC", "2024-01-01 12:30:00.1"},
      {"2024-01-01 12:30:00.000", "2024-01-01 12:30:00"},
      {"2024-01-01 12:30:00.120", "2024-01-01 12:30:00.12"},
      {"0000-01-01 00:00:00", "0000-01-01 00:00:00"},
      {"10000-01-01 00:00:00", "+10000-01-01 00:00:00"},
      {"-0001-01-01 00:00:00", "-0001-01-01 00:00:00"},
      {"2024-01-01 12:30:00.000001", "2024-01-01 12:30:00.000001"},
  };
  for (const auto& [text, expected] : valid) {
    EXPECT_EQ(cast_round_trip(text), std::optional<std::string>(expected)) << text;
  }
  for (const char* text :
       {"2024-01-01 12:30Z", "2024-01-01 12:30:00 utc", "2024-01-01T", "2024-02-30",
        "2024-01-01 24:00:00", "2024-01-01 12:30:00x", "2024-01-01x", "", "   ", "abc",
        "2024-13-01", "2024-01-01 12:60", "1234567-01-01", "+", "2024--01"}) {
    EXPECT_EQ(cast_round_trip(text), std::nullopt) << text;
  }
}

TEST(DateTimeParse, TimestampsInTheSessionZone) {
  EXPECT_EQ(cast_round_trip("2024-07-01 12:00:00", "America/New_York"), "2024-07-01 16:00:00");
  // In the spring gap 02:30 becomes 03:30 EDT; in the autumn overlap the earlier EDT wins.
  EXPECT_EQ(cast_round_trip("2024-03-10 02:30:00", "America/New_York"), "2024-03-10 07:30:00");
  EXPECT_EQ(cast_round_trip("2024-11-03 01:30:00", "America/New_York"), "2024-11-03 05:30:00");
  // A zone in the string wins over the session's.
  EXPECT_EQ(cast_round_trip("2024-07-01 12:00:00Z", "Asia/Kolkata"), "2024-07-01 12:00:00");
  // A time alone takes the statement's date in the zone.
  const int64_t statement = (days_from_civil(2024, 5, 6) * kSecondsPerDay + 3600) * 1000000;
  std::optional<int64_t> micros = parse_timestamp("12:30:01", TimeZone::utc(), statement);
  ASSERT_TRUE(micros.has_value());
  EXPECT_EQ(format_timestamp(*micros, TimeZone::utc()), "2024-05-06 12:30:01");
  micros = parse_timestamp("T12:30", TimeZone::get("-05:00"), statement);
  ASSERT_TRUE(micros.has_value());
  EXPECT_EQ(format_timestamp(*micros, TimeZone::utc()), "2024-05-05 17:30:00");
}

TEST(DateTimeParse, TimestampNtzIgnoresZones) {
  auto ntz = [](std::string_view text) -> std::optional<std::string> {
    std::optional<int64_t> micros = parse_timestamp_ntz(text);
    if (!micros) return std::nullopt;
    char out[kMaxTimestampTextLength];
    return std::string(out, static_cast<size_t>(format_timestamp_ntz(*micros, out)));
  };
  EXPECT_EQ(ntz("2024-01-01 12:30:00"), "2024-01-01 12:30:00");
  EXPECT_EQ(ntz("2024-01-01 12:30:00+08:00"), "2024-01-01 12:30:00");
  EXPECT_EQ(ntz("2024-01-01 12:30:00.5 UTC"), "2024-01-01 12:30:00.5");
  EXPECT_EQ(ntz("1969-12-31 23:59:59.999999"), "1969-12-31 23:59:59.999999");
  EXPECT_EQ(ntz("2024-01-01 12:30:00 Mars"), std::nullopt);
  // CAST('01:36' AS TIMESTAMP_NTZ) raises CAST_INVALID_INPUT in Spark 4 (a TIMESTAMP takes the
  // current date instead).
  EXPECT_EQ(ntz("01:36"), std::nullopt);
  EXPECT_EQ(ntz("T10:11:12"), std::nullopt);
}

TEST(DateTimeParse, DateForms) {
  const std::pair<const char*, const char*> valid[] = {
      {"2024-01-01 garbage", "2024-01-01"},
      {"2024-01-01Tgarbage", "2024-01-01"},
      {"2024-1", "2024-01-01"},
      {"20245-01-01", "+20245-01-01"},
      {"-2024-01-01", "-2024-01-01"},
      {"0000-01-01", "0000-01-01"},
      {"10000-01-01", "+10000-01-01"},
      {"2024 ", "2024-01-01"},
      {"2024-01 ", "2024-01-01"},
      {"\t2024-01-05\n", "2024-01-05"},
      {"2024-2-29", "2024-02-29"},
      {"1969-12-31", "1969-12-31"},
  };
  for (const auto& [text, expected] : valid) {
    EXPECT_EQ(date_round_trip(text), std::optional<std::string>(expected)) << text;
  }
  for (const char* text : {"2024-1-", "12345678-01-01", "2024-01-05x", "2023-02-29", "", "24-01-01",
                           "2024-00-01", "2024-01-32", "2024 01", "2024-01-01-"}) {
    EXPECT_EQ(date_round_trip(text), std::nullopt) << text;
  }
  EXPECT_EQ(parse_date("1970-01-01"), 0);
  EXPECT_EQ(parse_date("1969-12-31"), -1);
}

TEST(DateTimeParse, Formatting) {
  EXPECT_EQ(format_date(0), "1970-01-01");
  EXPECT_EQ(format_date(-719528), "0000-01-01");
  EXPECT_EQ(format_timestamp(-1, TimeZone::utc()), "1969-12-31 23:59:59.999999");
  EXPECT_EQ(format_timestamp(1500000, TimeZone::get("Asia/Kolkata")), "1970-01-01 05:30:01.5");
  EXPECT_EQ(format_timestamp(1720000000000000, TimeZone::get("America/New_York")),
            "2024-07-03 05:46:40");
}

}  // namespace
}  // namespace bowstring::compute
