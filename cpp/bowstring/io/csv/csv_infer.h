#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/io/csv/csv_options.h"
#include "bowstring/io/csv/csv_values.h"
#include "bowstring/types/type.h"

namespace bowstring::io::csv {

/// A column type during inference, in Spark's order of attempts (CSVInferSchema.scala).
struct InferredType {
  enum class Kind : uint8_t {
    kNull,  // only nulls so far
    kInt,
    kLong,
    kDecimal,
    kDouble,
    kDate,
    kTimestamp,
    kBoolean,
    kString,
  };
  Kind kind = Kind::kNull;
  int32_t precision = 0;
  int32_t scale = 0;

  bool operator==(const InferredType&) const = default;
};

/// Spark's CSV schema inference, one field at a time: a field moves its column's type only
/// forward in the order int, long, decimal, double, date (with `preferDate`), timestamp,
/// boolean, string. Dates are inferred only for texts that are a date alone (no time part),
/// so that timestamps are not taken for dates.
class TypeInferrer {
 public:
  explicit TypeInferrer(const CsvReadOptions& options) : options_(options), values_(options) {}

  /// The type of a column whose values so far have type `so_far` and the next is `text`
  /// (nulls, the empty text and `nullValue`, leave it unchanged).
  InferredType infer(InferredType so_far, std::string_view text) const;

  /// The type of a column that has values of both types (`compatibleType` of Spark's CSV).
  static InferredType merge(const InferredType& a, const InferredType& b);

  /// The Arrow type of an inferred type (null columns become strings, as in Spark);
  /// `time_zone` is that of TIMESTAMP.
  static TypePtr to_type(const InferredType& type, const std::string& time_zone);

 private:
  InferredType from_integer(std::string_view text) const;
  InferredType from_long(std::string_view text) const;
  InferredType from_decimal(std::string_view text) const;
  InferredType from_double(std::string_view text) const;
  InferredType from_date(std::string_view text) const;
  InferredType from_timestamp(std::string_view text) const;
  InferredType from_boolean(std::string_view text) const;

  const CsvReadOptions& options_;
  ValueParser values_;
};

/// Spark's header names made safe (`CSVUtils.makeSafeHeader`): an empty name, or one equal to
/// `nullValue`, becomes "_c<index>"; names occurring more than once (case-insensitively) get
/// their index appended.
std::vector<std::string> safe_header_names(const std::vector<std::string>& names,
                                           const std::string& null_value);

}  // namespace bowstring::io::csv
