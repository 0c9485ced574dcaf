#include "bowstring/compute/datetime/datetime_format.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/datetime/datetime_parse.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

int64_t instant(std::string_view text) { return parse_timestamp(text, TimeZone::utc()).value(); }

std::string formatted(std::string_view timestamp, std::string_view pattern,
                      const char* zone = "UTC") {
  std::string out;
  DateTimePattern(pattern).format(instant(timestamp), TimeZone::get(zone), out);
  return out;
}

std::optional<std::string> parsed(std::string_view text, std::string_view pattern) {
  std::optional<int64_t> micros = DateTimePattern(pattern).parse(text, TimeZone::utc());
  if (!micros) return std::nullopt;
  return format_timestamp(*micros, TimeZone::utc());
}

// Expectations checked against Spark 4's date_format and to_timestamp.
TEST(DateTimePattern, Formats) {
  const char* ts = "2024-01-05 13:14:15.123456";
  EXPECT_EQ(formatted(ts, "yyyy-MM-dd HH:mm:ss.SSS a E EEEE MMM MMMM D Q z Z X xxx"),
            "2024-01-05 13:14:15.123 PM Fri Friday Jan January 5 1 UTC +0000 Z +00:00");
  EXPECT_EQ(formatted(ts, "h hh K k kk"), "1 01 1 13 13");
  EXPECT_EQ(formatted(ts, "yy yyy yyyyy y"), "24 2024 02024 2024");
  EXPECT_EQ(formatted(ts, "S SS SSSSSS"), "1 12 123456");
  EXPECT_EQ(formatted(ts, "'T' ''"), "T '");
  EXPECT_EQ(formatted(ts, "VV O XXX"), "UTC GMT Z");
  EXPECT_EQ(formatted(ts, "qqq QQQ QQQQ"), "Q1 Q1 1st quarter");
  EXPECT_EQ(formatted(ts, "G"), "AD");
  EXPECT_EQ(formatted("-0044-03-15 13:14:15", "yyyy yy G"), "0045 45 BC");
  EXPECT_EQ(formatted("-0044-03-15 13:14:15", "yyyy-MM-dd"), "-0044-03-15");
  EXPECT_EQ(formatted("2024-01-05 00:14:15", "h a H k K"), "12 AM 0 24 0");
  EXPECT_EQ(formatted("2024-07-05 17:14:15", "z Z X XX XXX x O VV", "America/New_York"),
            "EDT -0400 -04 -0400 -04:00 -04 GMT-4 America/New_York");
  EXPECT_EQ(formatted("2024-07-05 17:14:15", "HH:mm z", "Asia/Kolkata"), "22:44 IST");
  EXPECT_EQ(formatted("2024-07-05 17:14:15", "ZZZZ XXXXX", "Asia/Kolkata"), "GMT+05:30 +05:30");
}

TEST(DateTimePattern, RejectsInvalidPatterns) {
  const std::string week =
      testing::error_message<IllegalArgumentError>([] { DateTimePattern pattern("YYYY"); });
  EXPECT_NE(week.find("DATETIME_PATTERN_RECOGNITION"), std::string::npos) << week;
  const std::string unknown =
      testing::error_message<IllegalArgumentError>([] { DateTimePattern pattern("A"); });
  EXPECT_NE(unknown.find("INVALID_DATETIME_PATTERN"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("'A'"), std::string::npos) << unknown;
  EXPECT_THROW(DateTimePattern("yyyy-MM-dd foo"), IllegalArgumentError);
  EXPECT_THROW(DateTimePattern("'open"), IllegalArgumentError);
  EXPECT_THROW(DateTimePattern("ddd"), IllegalArgumentError);
}

TEST(DateTimePattern, Parses) {
  EXPECT_EQ(parsed("2024-01-05 10:11:12", "yyyy-MM-dd HH:mm:ss"), "2024-01-05 10:11:12");
  EXPECT_EQ(parsed("2024/01/05", "yyyy/MM/dd"), "2024-01-05 00:00:00");
  EXPECT_EQ(parsed("2024 01 05", "yyyy MM dd"), "2024-01-05 00:00:00");
  EXPECT_EQ(parsed("2024-1-5", "yyyy-M-d"), "2024-01-05 00:00:00");
  EXPECT_EQ(parsed("05/01/2024 1:02 PM", "dd/MM/yyyy h:mm a"), "2024-01-05 13:02:00");
  EXPECT_EQ(parsed("2024-01-05 10:11:12 +0530", "yyyy-MM-dd HH:mm:ss Z"), "2024-01-05 04:41:12");
  EXPECT_EQ(parsed("2024-01-05 10:11:12 America/New_York", "yyyy-MM-dd HH:mm:ss VV"),
            "2024-01-05 15:11:12");
  EXPECT_EQ(parsed("2024-01-05 10:11:12.123", "yyyy-MM-dd HH:mm:ss.SSS"),
            "2024-01-05 10:11:12.123");
  EXPECT_EQ(parsed("2024-01-05 10:11:12.12", "yyyy-MM-dd HH:mm:ss.SSS"), "2024-01-05 10:11:12.12");
  EXPECT_EQ(parsed("24-01-05", "yy-MM-dd"), "2024-01-05 00:00:00");
  EXPECT_EQ(parsed("Jan 05 2024", "MMM dd yyyy"), "2024-01-05 00:00:00");
  EXPECT_EQ(parsed("12:30", "HH:mm"), "1970-01-01 12:30:00");
  EXPECT_EQ(parsed("2024-001", "yyyy-DDD"), "2024-01-01 00:00:00");
  EXPECT_EQ(parsed("20240105", "yyyyMMdd"), "2024-01-05 00:00:00");
  EXPECT_EQ(parsed("2024-07-05T10:00:00Z", "yyyy-MM-dd'T'HH:mm:ssX"), "2024-07-05 10:00:00");
  for (auto [text, pattern] : std::initializer_list<std::pair<const char*, const char*>>{
           {"2024-01-5", "yyyy-MM-dd"},
           {"2024-01-05", "yyyy-MM-dd HH"},
           {"2024-01-05 25:00", "yyyy-MM-dd HH:mm"},
           {"2024-02-30", "yyyy-MM-dd"},
           {"2024-01-05x", "yyyy-MM-dd"},
           {"junk", "yyyy"},
           {"", "yyyy"}}) {
    EXPECT_EQ(parsed(text, pattern), std::nullopt) << text << " / " << pattern;
  }
}

// Spark 4's error conditions for the patterns it rejects: DATETIME_PATTERN_RECOGNITION when
// Spark 2's SimpleDateFormat accepted the pattern, a condition of its own otherwise.
TEST(DateTimePattern, ErrorConditionsOfRejectedPatterns) {
  auto condition_of = [](const char* text) {
    try {
      DateTimePattern pattern(text);
    } catch (const IllegalArgumentError& error) {
      const std::string message = error.what();
      const size_t open = message.find('[');
      return message.substr(open + 1, message.find(']') - open - 1);
    }
    return std::string("accepted");
  };
  for (const char* text :
       {"MMMMM", "LLLLL", "EEEEE", "GGGGG", "u", "w", "W", "Y", "{yyyy}", "yyyy#", "yyyy]",
        "yyyyyyy", "ddd", "aa", "zzzzz", "DDDD", "kkk", "SSSSSSSSSS"}) {
    EXPECT_EQ(condition_of(text),
              "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION")
        << text;
  }
  EXPECT_EQ(condition_of("QQQQQ"), "INVALID_DATETIME_PATTERN.LENGTH");
  EXPECT_EQ(condition_of("qqqqq"), "INVALID_DATETIME_PATTERN.LENGTH");
  EXPECT_EQ(condition_of("e"), "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN");
  EXPECT_EQ(condition_of("c"), "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN");
  EXPECT_EQ(condition_of("B"), "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER");
  EXPECT_EQ(condition_of("VVV"), "INVALID_DATETIME_PATTERN.WITH_SUGGESTION");
  EXPECT_EQ(condition_of("XXXXXX"), "INVALID_DATETIME_PATTERN.WITH_SUGGESTION");
  EXPECT_EQ(condition_of("OO"), "INVALID_DATETIME_PATTERN.WITH_SUGGESTION");
  EXPECT_EQ(condition_of("yyyyyy"), "accepted");
  EXPECT_EQ(condition_of("[yyyy"), "accepted");
}

// Spark formats with 'E', 'F', 'q' and 'Q' but refuses to parse with them.
TEST(DateTimePattern, LettersForFormattingOnly) {
  EXPECT_EQ(formatted("2020-07-31 00:00:00", "F E"), "3 Fri");
  EXPECT_EQ(formatted("2020-07-07 00:00:00", "F"), "7");
  EXPECT_EQ(formatted("2020-07-08 00:00:00", "F"), "1");
  EXPECT_THROW(DateTimePattern("FF"), IllegalArgumentError);
  auto parse_error = [](const char* text, const char* pattern) {
    return testing::error_message<IllegalArgumentError>(
        [&] { DateTimePattern(pattern).parse(text, TimeZone::utc()); });
  };
  const std::string day_name = parse_error("Wed 2020-07-01", "E yyyy-MM-dd");
  EXPECT_NE(day_name.find("DATETIME_PATTERN_RECOGNITION"), std::string::npos) << day_name;
  const std::string aligned = parse_error("1 2020-07-01", "F yyyy-MM-dd");
  EXPECT_NE(aligned.find("DATETIME_PATTERN_RECOGNITION"), std::string::npos) << aligned;
  const std::string quarter = parse_error("Q3 2020", "QQQ yyyy");
  EXPECT_NE(quarter.find("INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER"), std::string::npos)
      << quarter;
}

// date_format(make_timestamp(y, 3, 1, 0, 0, 0), 'yy yyy yyyy') in Spark 4.
TEST(DateTimePattern, TwoDigitYearsOfNegativeYears) {
  EXPECT_EQ(formatted("-0005-03-01 00:00:00", "yy yyy yyyy"), "05 -005 -0005");
  EXPECT_EQ(formatted("-0099-03-01 00:00:00", "yy yyy yyyy"), "99 -099 -0099");
  std::string out;
  DateTimePattern("yy y").format(int64_t{-4611686018427387904}, TimeZone::utc(), out);
  EXPECT_EQ(out, "69 -144169");
}

TEST(DateTimePattern, OptionalSections) {
  EXPECT_EQ(formatted("2020-07-01 10:00:00", "[yyyy]"), "2020");
  EXPECT_EQ(formatted("2020-07-01 10:00:00", "yyyy[-MM]"), "2020-07");
  EXPECT_EQ(formatted("2020-07-01 10:00:00", "[yyyy"), "2020");
  // to_date(text, pattern) in Spark 4.
  EXPECT_EQ(parsed("2020", "yyyy[-MM]"), "2020-01-01 00:00:00");
  EXPECT_EQ(parsed("2020-05", "yyyy[-MM]"), "2020-05-01 00:00:00");
  EXPECT_EQ(parsed("2020-05", "yyyy[-MM][-dd]"), "2020-05-01 00:00:00");
  EXPECT_EQ(parsed("2020-05-07", "yyyy[-MM[-dd]]"), "2020-05-07 00:00:00");
  EXPECT_EQ(parsed("2020-05x", "yyyy[-MM]"), std::nullopt);
}

// Java prints a zone's standard or daylight name whatever the local time was then called: the
// local mean time of 1883 in Los Angeles is "PST". Values from Spark 4's date_format(ts,
// 'z|zzzz').
TEST(DateTimePattern, ZoneNamesAsJavaPrintsThem) {
  auto names = [](int64_t seconds, const char* zone) {
    std::string out;
    DateTimePattern("z|zzzz").format(seconds * 1000000, TimeZone::get(zone), out);
    return out;
  };
  EXPECT_EQ(names(-2717643600, "America/Los_Angeles"), "PST|Pacific Standard Time");
  EXPECT_EQ(names(1690000000, "America/Los_Angeles"), "PDT|Pacific Daylight Time");
  EXPECT_EQ(names(-2717643600, "Asia/Kolkata"), "IST|India Standard Time");
  EXPECT_EQ(names(-880000000, "Asia/Kolkata"), "IDT|India Daylight Time");
  EXPECT_EQ(names(-2717643600, "Europe/Berlin"), "CET|Central European Standard Time");
  EXPECT_EQ(names(1690000000, "Europe/Dublin"), "IST|Irish Standard Time");
  EXPECT_EQ(names(1700000000, "Europe/Dublin"), "GMT|Greenwich Mean Time");
  EXPECT_EQ(names(1700000000, "Australia/Lord_Howe"), "LHDT|Lord Howe Daylight Time");
  EXPECT_EQ(names(1700000000, "Asia/Dubai"), "GST|Gulf Standard Time");
  EXPECT_EQ(names(1700000000, "UTC"), "UTC|Coordinated Universal Time");
  EXPECT_EQ(names(1700000000, "+05:30"), "+05:30|+05:30");
}

TEST(DateTimePattern, ParsesInTheZone) {
  const DateTimePattern pattern(kDefaultTimestampPattern);
  // The spring gap in New York moves 02:30 to 03:30 EDT (07:30 UTC), as Spark's
  // unix_timestamp('2024-03-10 02:30:00') = 1710055800 there.
  EXPECT_EQ(pattern.parse("2024-03-10 02:30:00", TimeZone::get("America/New_York")),
            int64_t{1710055800} * 1000000);
  EXPECT_EQ(pattern.parse_local("2024-03-10 02:30:00"), instant("2024-03-10 02:30:00"));
}

}  // namespace
}  // namespace bowstring::compute
