#pragma once

#include <string>
#include <string_view>

#include "bowstring/types/type.h"

namespace bowstring {

/// Spark SQL's names of data types, as `CAST(x AS <type>)`, `DataType.fromDDL` and PySpark's
/// `_parse_datatype_string` read them, and their Arrow types (those of Spark's Arrow
/// conversions):
///
///   boolean                                  boolean
///   tinyint, byte                            int8
///   smallint, short                          int16
///   int, integer                             int32
///   bigint, long                             int64
///   float, real                              float32
///   double                                   float64
///   decimal, dec, numeric [(p[, s])]         decimal128(p, s); decimal alone is (10, 0),
///                                            1 <= p <= 38, s <= p
///   string, char(n), varchar(n)              utf8
///   binary                                   binary
///   date                                     date32
///   timestamp, timestamp_ltz                 timestamp(us, <session time zone>)
///   timestamp_ntz                            timestamp(us) (no zone)
///   void, null                               null
///   interval year [to month], interval month month_interval (YearMonthIntervalType)
///   interval day|hour|minute|second [to ...] duration(us) (DayTimeIntervalType)
///   interval                                 month_day_nano_interval (CalendarIntervalType)
///   array<T>                                 list(T)
///   map<K, V>                                map(K, V)
///   struct<a: T, b U NOT NULL COMMENT '...'> struct_ (the comment in the field's metadata,
///                                            under "comment", as Spark keeps it)
///
/// Keywords are case-insensitive and may be surrounded by any whitespace; names keep their case
/// and may be quoted with backquotes (a doubled backquote inside is one backquote). A failure
/// throws `ParseError` with Spark's condition (PARSE_SYNTAX_ERROR, UNSUPPORTED_DATATYPE,
/// DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION...) and a message naming the line, the position and
/// the token, followed by the text with a caret under the position, as Spark prints it.

/// One data type such as "map<string, array<int>>" (Spark's `DataType.fromDDL` of a type).
/// `session_time_zone` (`spark.sql.session.timeZone`) is the zone of TIMESTAMP.
TypePtr parse_spark_type(std::string_view text, std::string_view session_time_zone);

/// A DDL column list such as "id bigint NOT NULL COMMENT 'key', tags array<string>" (Spark's
/// `StructType.fromDDL`); a colon may follow a name, as PySpark accepts it.
FieldVector parse_spark_schema(std::string_view text, std::string_view session_time_zone);

/// Spark's SQL spelling of a type (`DataType.sql`), for messages: INT, BIGINT, DECIMAL(10,2),
/// TIMESTAMP, ARRAY<INT>, MAP<STRING, INT>, STRUCT<a: INT, `b c`: STRING>...; Arrow's for
/// types Spark lacks (uint32...). Dictionaries are named by their values, extension types by
/// their storage.
std::string spark_type_name(const DataType& type);

/// Spark's short spelling of a type (`DataType.simpleString`): int, bigint, decimal(10,2),
/// array<int>, map<string,int>, struct<a:int,b:string>... Names that are not plain words are
/// backquoted (Spark leaves them bare), so that the text always parses back.
std::string spark_simple_string(const DataType& type);

/// Spark's DDL of columns (`StructType.toDDL`): "a INT NOT NULL COMMENT 'key',b STRING".
std::string spark_schema_ddl(const FieldVector& fields);

}  // namespace bowstring
