#pragma once

// Spark 4's implicit type coercion in ANSI mode (`AnsiTypeCoercion`, `DecimalPrecision`),
// stated over Arrow types. Each Arrow type stands for one Spark type (`spark_type_of`); results
// are given as the Arrow type Bowstring computes that Spark type with (`spark_storage_type`).

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "bowstring/types/type.h"

namespace bowstring::compute {

/// Spark SQL's atomic types, plus kOther for every type not listed (nested, intervals...).
enum class SparkType : uint8_t {
  kNull,
  kBoolean,
  kByte,       ///< TINYINT: int8
  kShort,      ///< SMALLINT: int16, uint8
  kInt,        ///< INT: int32, uint16
  kLong,       ///< BIGINT: int64, uint32
  kFloat,      ///< FLOAT: float32 (float16 too)
  kDouble,     ///< DOUBLE: float64
  kDecimal,    ///< DECIMAL(p,s): decimal32/64/128, decimal256 up to precision 38; uint64 as (20,0)
  kString,     ///< STRING: utf8, large_utf8, utf8_view
  kBinary,     ///< BINARY: binary, large_binary, binary_view, fixed_size_binary
  kDate,       ///< DATE: date32, date64
  kTimestamp,  ///< TIMESTAMP: timestamp with a time zone (any unit)
  kTimestampNtz,  ///< TIMESTAMP_NTZ: timestamp without a time zone
  kOther,
};

/// The Spark type an Arrow type stands for. Unsigned integers widen to the next signed type
/// (uint64 to DECIMAL(20,0)), as Spark reads unsigned Parquet and Arrow columns.
SparkType spark_type_of(const DataType& type);

/// The Arrow type Bowstring computes `type`'s Spark type with: itself for int8..int64, float32,
/// float64, decimal128, the string and binary families, date32, timestamp(us); otherwise the
/// widened type (uint8 -> int16, uint16 -> int32, uint32 -> int64, uint64 -> decimal128(20,0),
/// float16 -> float32, decimal32/64/256 -> decimal128, date64 -> date32, timestamps of other
/// units -> us with the same zone). Types without a Spark counterpart are returned as they are.
TypePtr spark_storage_type(const TypePtr& type);

/// BYTE, SHORT, INT, LONG, FLOAT, DOUBLE and DECIMAL (Spark's `NumericType`).
bool is_numeric(SparkType type);
/// BYTE, SHORT, INT, LONG (Spark's `IntegralType`).
bool is_integral(SparkType type);
/// DATE, TIMESTAMP, TIMESTAMP_NTZ (Spark's `DatetimeType`).
bool is_datetime(SparkType type);

/// Spark's decimal limits.
inline constexpr int32_t kMaxDecimalPrecision = 38;
inline constexpr int32_t kMaxDecimalScale = 38;

/// `DecimalType.bounded`: decimal128(min(precision, 38), min(scale, 38)).
TypePtr bounded_decimal(int32_t precision, int32_t scale);

/// `DecimalType.forType`: the decimal that holds every value of an integral or floating type
/// exactly: TINYINT (3,0), SMALLINT (5,0), INT (10,0), BIGINT (20,0), FLOAT (14,7),
/// DOUBLE (30,15); a decimal type itself; nullopt for any other type.
std::optional<TypePtr> decimal_for(const TypePtr& type);

/// `DecimalPrecision.widerDecimalType`: the decimal wide enough for both `a` and `b` (both
/// decimal128): scale max(s1, s2), integer digits max(p1 - s1, p2 - s2), bounded to 38.
TypePtr wider_decimal_type(const DataType& a, const DataType& b);

/// `AnsiTypeCoercion.findTightestCommonType`: the type both `a` and `b` convert to without
/// losing anything, or nullopt.
///  - equal Spark types: that type; NULL with any type: the other type;
///  - integral with a decimal wide enough for it (`isWiderThan`): the decimal;
///  - two non-decimal numerics: the later in BYTE < SHORT < INT < LONG < FLOAT < DOUBLE, except
///    that FLOAT with an integral gives DOUBLE;
///  - two datetimes (`findWiderDateTimeType`): DATE < TIMESTAMP_NTZ < TIMESTAMP;
///  - arrays: the array of the elements' tightest common type.
std::optional<TypePtr> tightest_common_type(const TypePtr& a, const TypePtr& b);

/// `AnsiTypeCoercion.findWiderTypeForTwo`: the tightest common type, else
///  - decimals and integrals (`findWiderTypeForDecimal`): `wider_decimal_type` after
///    `decimal_for` on the integral; a decimal with FLOAT or DOUBLE: DOUBLE;
///  - STRING with another atomic type (`findWiderTypeForString`): with an integral BIGINT,
///    with FLOAT, DOUBLE or DECIMAL DOUBLE, with any other atomic type that type;
///  - arrays: the array of the elements' wider type.
std::optional<TypePtr> wider_type_for_two(const TypePtr& a, const TypePtr& b);

/// `AnsiTypeCoercion.findWiderCommonType`: `wider_type_for_two` folded over `types`, string
/// types first (so that strings convert to the other types whatever their position), or
/// nullopt. NULL when `types` is empty or all NULL.
std::optional<TypePtr> wider_common_type(std::span<const TypePtr> types);

/// `findWiderTypeWithoutStringPromotion`: as `wider_type_for_two` without the STRING rule
/// (Spark's greatest and least do not convert strings).
std::optional<TypePtr> wider_type_without_string_promotion(const TypePtr& a, const TypePtr& b);

/// Whether STRING arguments convert to the other arguments' type when looking for a common one.
enum class StringPromotion : uint8_t { kYes, kNo };

/// The common type of the arguments of `function` (coalesce, nvl, in, case, if with
/// StringPromotion::kYes; greatest and least with kNo): `wider_common_type` (or the same fold of
/// `wider_type_without_string_promotion`), or `AnalysisError` DATATYPE_MISMATCH naming the
/// function and the Spark types when there is none.
TypePtr wider_type(std::span<const TypePtr> types, std::string_view function,
                   StringPromotion promotion = StringPromotion::kYes);

/// The type both sides of a binary comparison (= <=> < <= > >=) are cast to, or nullopt when
/// Spark rejects the comparison. Follows `AnsiTypeCoercion.ImplicitTypeCoercion` (which uses
/// `wider_type_for_two`: STRING vs integral compares as BIGINT, vs FLOAT/DOUBLE as DOUBLE, vs
/// DATE/TIMESTAMP/BOOLEAN/BINARY as that type) and `DecimalPrecision` for decimals (decimal vs
/// decimal or integral: `wider_decimal_type`; decimal vs FLOAT/DOUBLE: DOUBLE), and STRING vs
/// DECIMAL as DOUBLE.
std::optional<TypePtr> comparison_type(const TypePtr& a, const TypePtr& b);

}  // namespace bowstring::compute
