#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bowstring/compute/datetime/timezone.h"

namespace bowstring::compute {

// Spark's CAST between strings and DATE / TIMESTAMP / TIMESTAMP_NTZ, one value at a time, for
// cast kernels to call in their loops. Dates are days since 1970-01-01; timestamps are
// microseconds since the epoch (UTC instants for TIMESTAMP, wall-clock for TIMESTAMP_NTZ).
// Parsers return nullopt for strings Spark finds malformed; the caller raises or nulls.

/// `CAST(text AS DATE)` (Spark's `stringToDate`): after trimming whitespace and control
/// characters, `[+-]yyyy[y...]` (4 to 7 digits), `yyyy-[m]m`, `yyyy-[m]m-[d]d`, and the latter
/// followed by ' ' or 'T' and anything.
std::optional<int32_t> parse_date(std::string_view text);

/// `CAST(text AS TIMESTAMP)` (Spark's `stringToTimestamp`): `[+-]yyyy[-[m]m[-[d]d]]` with an
/// optional time `[ |T][h]h[:[m]m[:[s]s[.fraction]]]` (fraction digits past microseconds are
/// dropped) and after the seconds an optional zone (`Z`, `+08:00`, ` UTC`, `America/New_York`...),
/// or a time alone (`[h]h:[m]m...`, `T[h]h...`) on the date of `statement_time_us` in the zone.
/// Local times without a zone are in `session_zone`.
std::optional<int64_t> parse_timestamp(std::string_view text, const TimeZone& session_zone,
                                       int64_t statement_time_us = 0);

/// `CAST(text AS TIMESTAMP_NTZ)`: the same forms, any zone in the text being ignored, except a
/// time alone, which Spark finds malformed here (`statement_time_us` is never needed).
std::optional<int64_t> parse_timestamp_ntz(std::string_view text, int64_t statement_time_us = 0);

/// Longest text the formatters below write.
constexpr int kMaxDateTextLength = 16;
constexpr int kMaxTimestampTextLength = 40;

/// `CAST(date AS STRING)`: "yyyy-MM-dd", years past 9999 with a '+' and before year 0 with a
/// '-' ("+10000-01-01", "-0044-03-15"). Writes to `out` (room for kMaxDateTextLength) and
/// returns the length.
int format_date(int32_t days, char* out);
/// `CAST(timestamp AS STRING)`: "yyyy-MM-dd HH:mm:ss" in `zone`, with the fraction of a second
/// when not zero, trailing zeros dropped ("2024-01-01 12:30:00.12"). Room for
/// kMaxTimestampTextLength.
int format_timestamp(int64_t micros, const TimeZone& zone, char* out);
/// `CAST(timestamp_ntz AS STRING)`: as `format_timestamp` on the wall-clock value.
int format_timestamp_ntz(int64_t micros, char* out);

std::string format_date(int32_t days);
std::string format_timestamp(int64_t micros, const TimeZone& zone);

/// Writes a year as Spark's "yyyy" prints it: at least 4 digits, '+' past 9999, '-' before 0.
int format_year(int64_t year, char* out);

}  // namespace bowstring::compute
