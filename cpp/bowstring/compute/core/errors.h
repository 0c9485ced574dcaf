#pragma once

#include "bowstring/util/spark_error.h"

namespace bowstring::compute {

/// The sentence Spark ends its ANSI-mode errors with.
inline constexpr const char* kAnsiBypassHint =
    "If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.";

/// Spark's errors of the compute layer derive from `SparkError` (util/spark_error.h).

/// Integer overflow, division by zero, decimal precision loss in ANSI mode
/// (`ArithmeticException`). Conditions: ARITHMETIC_OVERFLOW, DIVIDE_BY_ZERO,
/// NUMERIC_VALUE_OUT_OF_RANGE, CAST_OVERFLOW.
class ArithmeticError : public SparkError {
 public:
  using SparkError::SparkError;
};

/// A string that does not parse as the number, boolean or binary asked for
/// (`NumberFormatException`; condition CAST_INVALID_INPUT).
class NumberFormatError : public SparkError {
 public:
  using SparkError::SparkError;
};

/// An invalid date, time, time zone or datetime pattern (`DateTimeException`; conditions
/// CAST_INVALID_INPUT, INVALID_TIMEZONE, CANNOT_PARSE_TIMESTAMP, INVALID_DATETIME_PATTERN...).
class DateTimeError : public SparkError {
 public:
  using SparkError::SparkError;
};

/// An argument value a function refuses at run time, such as an invalid regular expression
/// (`IllegalArgumentException`; conditions INVALID_PARAMETER_VALUE...).
class IllegalArgumentError : public SparkError {
 public:
  using SparkError::SparkError;
};

/// Other runtime failures Spark reports as `SparkRuntimeException` (INVALID_ARRAY_INDEX...).
class SparkRuntimeError : public SparkError {
 public:
  using SparkError::SparkError;
};

/// A query that cannot be analysed: unknown column or function, wrong argument count or
/// types (`AnalysisException`; conditions UNRESOLVED_COLUMN, UNRESOLVED_ROUTINE,
/// WRONG_NUM_ARGS, DATATYPE_MISMATCH...).
class AnalysisError : public SparkError {
 public:
  using SparkError::SparkError;
};

}  // namespace bowstring::compute
