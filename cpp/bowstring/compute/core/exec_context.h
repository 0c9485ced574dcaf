#pragma once

#include <cstdint>
#include <string>

#include "bowstring/memory/allocator.h"

namespace bowstring::compute {

/// Spark's `spark.sql.mapKeyDedupPolicy`: what building a map with a repeated key does.
enum class MapKeyDedupPolicy : uint8_t {
  /// Raise DUPLICATED_MAP_KEY (Spark's default).
  kException,
  /// Keep the value inserted last, at the place of the key's first insertion.
  kLastWin,
};

/// What a kernel needs to know besides its arguments: where memory comes from and the session
/// settings Spark's semantics depend on. One context serves one statement; kernels only read it.
struct ExecContext {
  /// The statement time is now; everything else takes its default.
  ExecContext();

  Allocator* allocator = default_allocator();
  /// `spark.sql.session.timeZone`: an IANA region ("Europe/Paris") or an offset ("+02:00").
  /// Timestamps with a time zone are UTC instants shown and split into fields in this zone.
  std::string session_time_zone = "UTC";
  /// `spark.sql.ansi.enabled` (Spark 4 default: on). Off, overflow wraps, division by zero and
  /// invalid casts give null instead of raising.
  bool ansi = true;
  /// Microseconds since the Unix epoch at which the statement started: `current_timestamp()`
  /// and `current_date()` return it for every row, as Spark does.
  int64_t statement_time_us = 0;
  /// `spark.sql.mapKeyDedupPolicy`.
  MapKeyDedupPolicy map_key_dedup_policy = MapKeyDedupPolicy::kException;
};

}  // namespace bowstring::compute
