#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "bowstring/util/error.h"

namespace bowstring {

/// An error of Spark SQL's, carrying Spark's error condition ("DIVIDE_BY_ZERO",
/// "PARSE_SYNTAX_ERROR"...). `what()` reads "[CONDITION] message", as Spark prints it. The
/// subclasses (here and in compute/errors.h) match the `pyspark.errors` exception a PySpark user
/// would catch; the Python bindings raise those names.
class SparkError : public Error {
 public:
  SparkError(std::string condition, std::string_view message)
      : Error("[" + condition + "] " + std::string(message)), condition_(std::move(condition)) {}
  /// Spark's error condition, such as "ARITHMETIC_OVERFLOW".
  const std::string& condition() const { return condition_; }

 private:
  std::string condition_;
};

/// A text of one of Spark's small languages, such as a type name or a DDL schema, that does not
/// parse (`ParseException`; conditions PARSE_SYNTAX_ERROR, UNSUPPORTED_DATATYPE...). The message
/// names the line, the position and the token, and shows the text with a caret under it.
class ParseError : public SparkError {
 public:
  using SparkError::SparkError;
};

}  // namespace bowstring
