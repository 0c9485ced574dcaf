#pragma once

#include <string_view>

#include "bowstring/types/type.h"

namespace bowstring::compute {

/// The Arrow type of a Spark SQL type name, as `CAST(x AS <name>)` spells it: boolean, tinyint
/// (byte), smallint (short), int (integer), bigint (long), float (real), double, string,
/// varchar(n), char(n), binary, date, timestamp (timestamp_ltz), timestamp_ntz, decimal(p, s)
/// (dec, numeric; `decimal` alone is decimal(10, 0)), void, array<T>, map<K, V> and
/// struct<name: T, ...>. Keywords are case-insensitive. Spark's TIMESTAMP holds UTC instants:
/// its Arrow type is timestamp(us, "UTC"). Throws `AnalysisError` (PARSE_SYNTAX_ERROR or
/// UNSUPPORTED_DATATYPE) naming the text.
TypePtr parse_spark_type(std::string_view text);

}  // namespace bowstring::compute
