#include "bowstring/compute/core/coercion.h"

#include <algorithm>
#include <string>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"

namespace bowstring::compute {

SparkType spark_type_of(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull:
      return SparkType::kNull;
    case TypeId::kBoolean:
      return SparkType::kBoolean;
    case TypeId::kInt8:
      return SparkType::kByte;
    case TypeId::kInt16:
    case TypeId::kUInt8:
      return SparkType::kShort;
    case TypeId::kInt32:
    case TypeId::kUInt16:
      return SparkType::kInt;
    case TypeId::kInt64:
    case TypeId::kUInt32:
      return SparkType::kLong;
    case TypeId::kUInt64:
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
      return SparkType::kDecimal;
    case TypeId::kDecimal256:
      return type_cast<DecimalType>(type).precision() <= kMaxDecimalPrecision ? SparkType::kDecimal
                                                                              : SparkType::kOther;
    case TypeId::kFloat16:
    case TypeId::kFloat32:
      return SparkType::kFloat;
    case TypeId::kFloat64:
      return SparkType::kDouble;
    case TypeId::kString:
    case TypeId::kLargeString:
    case TypeId::kStringView:
      return SparkType::kString;
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kBinaryView:
    case TypeId::kFixedSizeBinary:
      return SparkType::kBinary;
    case TypeId::kDate32:
    case TypeId::kDate64:
      return SparkType::kDate;
    case TypeId::kTimestamp:
      return type_cast<TimestampType>(type).timezone().empty() ? SparkType::kTimestampNtz
                                                               : SparkType::kTimestamp;
    default:
      return SparkType::kOther;
  }
}

TypePtr spark_storage_type(const TypePtr& type) {
  switch (type->id()) {
    case TypeId::kUInt8:
      return int16();
    case TypeId::kUInt16:
      return int32();
    case TypeId::kUInt32:
      return int64();
    case TypeId::kUInt64:
      return decimal128(20, 0);
    case TypeId::kFloat16:
      return float32();
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal256: {
      const auto& decimal = type_cast<DecimalType>(*type);
      if (decimal.precision() > kMaxDecimalPrecision) {
        return type;
      }
      return decimal128(decimal.precision(), decimal.scale());
    }
    case TypeId::kDate64:
      return date32();
    case TypeId::kTimestamp: {
      const auto& timestamp = type_cast<TimestampType>(*type);
      return timestamp.unit() == TimeUnit::kMicro
                 ? type
                 : bowstring::timestamp(TimeUnit::kMicro, timestamp.timezone());
    }
    default:
      return type;
  }
}

bool is_numeric(SparkType type) {
  return is_integral(type) || type == SparkType::kFloat || type == SparkType::kDouble ||
         type == SparkType::kDecimal;
}

bool is_integral(SparkType type) {
  return type == SparkType::kByte || type == SparkType::kShort || type == SparkType::kInt ||
         type == SparkType::kLong;
}

bool is_datetime(SparkType type) {
  return type == SparkType::kDate || type == SparkType::kTimestamp ||
         type == SparkType::kTimestampNtz;
}

TypePtr bounded_decimal(int32_t precision, int32_t scale) {
  return decimal128(std::min(precision, kMaxDecimalPrecision), std::min(scale, kMaxDecimalScale));
}

std::optional<TypePtr> decimal_for(const TypePtr& type) {
  switch (spark_type_of(*type)) {
    case SparkType::kByte:
      return decimal128(3, 0);
    case SparkType::kShort:
      return decimal128(5, 0);
    case SparkType::kInt:
      return decimal128(10, 0);
    case SparkType::kLong:
      return decimal128(20, 0);
    case SparkType::kFloat:
      return decimal128(14, 7);
    case SparkType::kDouble:
      return decimal128(30, 15);
    case SparkType::kDecimal:
      return spark_storage_type(type);
    default:
      return std::nullopt;
  }
}

TypePtr wider_decimal_type(const DataType& a, const DataType& b) {
  const auto& da = type_cast<DecimalType>(a);
  const auto& db = type_cast<DecimalType>(b);
  const int32_t scale = std::max(da.scale(), db.scale());
  const int32_t integer_digits = std::max(da.precision() - da.scale(), db.precision() - db.scale());
  return bounded_decimal(integer_digits + scale, scale);
}

namespace {

// Position in Spark's `numericPrecedence` of the non-decimal numeric types.
int numeric_rank(SparkType type) {
  switch (type) {
    case SparkType::kByte:
      return 0;
    case SparkType::kShort:
      return 1;
    case SparkType::kInt:
      return 2;
    case SparkType::kLong:
      return 3;
    case SparkType::kFloat:
      return 4;
    default:
      return 5;
  }
}

int datetime_rank(SparkType type) {
  switch (type) {
    case SparkType::kDate:
      return 0;
    case SparkType::kTimestampNtz:
      return 1;
    default:
      return 2;
  }
}

// `DecimalType.isWiderThan` for an integral `other`: the decimal holds every value of it.
bool decimal_holds_integral(const DataType& decimal, const TypePtr& integral) {
  const auto& d = type_cast<DecimalType>(decimal);
  const TypePtr needed_type = *decimal_for(integral);
  const auto& needed = type_cast<DecimalType>(*needed_type);
  return d.precision() - d.scale() >= needed.precision() - needed.scale() &&
         d.scale() >= needed.scale();
}

// Of two types of one Spark type, the one to compute with: for strings and binaries of
// different layouts the large one (it holds every value), for timestamps the first one's zone.
TypePtr same_spark_type(const TypePtr& a, const TypePtr& b) {
  const TypePtr sa = spark_storage_type(a);
  const TypePtr sb = spark_storage_type(b);
  if (sa->equals(*sb)) {
    return sa;
  }
  switch (spark_type_of(*a)) {
    case SparkType::kString:
      return sa->id() == TypeId::kLargeString || sb->id() == TypeId::kLargeString ? large_utf8()
                                                                                  : utf8();
    case SparkType::kBinary:
      return sa->id() == TypeId::kLargeBinary || sb->id() == TypeId::kLargeBinary ? large_binary()
                                                                                  : binary();
    default:
      return sa;
  }
}

bool is_list(const DataType& type) {
  return type.id() == TypeId::kList || type.id() == TypeId::kLargeList;
}

template <typename ElementRule>
std::optional<TypePtr> common_list_type(const TypePtr& a, const TypePtr& b, ElementRule&& rule) {
  const auto& la = type_cast<ListType>(*a);
  const auto& lb = type_cast<ListType>(*b);
  std::optional<TypePtr> element = rule(la.value_type(), lb.value_type());
  if (!element) {
    return std::nullopt;
  }
  const TypeId id = a->id() == TypeId::kLargeList || b->id() == TypeId::kLargeList
                        ? TypeId::kLargeList
                        : TypeId::kList;
  return list_of_kind(id, *element);
}

}  // namespace

std::optional<TypePtr> tightest_common_type(const TypePtr& a, const TypePtr& b) {
  const SparkType ta = spark_type_of(*a);
  const SparkType tb = spark_type_of(*b);
  if (ta == SparkType::kNull) {
    return spark_storage_type(b);
  }
  if (tb == SparkType::kNull) {
    return spark_storage_type(a);
  }
  if (ta == SparkType::kOther || tb == SparkType::kOther) {
    if (a->equals(*b)) {
      return a;
    }
    if (is_list(*a) && is_list(*b)) {
      return common_list_type(a, b, tightest_common_type);
    }
    return std::nullopt;
  }
  if (ta == tb) {
    if (ta == SparkType::kDecimal) {
      const TypePtr sa = spark_storage_type(a);
      const TypePtr sb = spark_storage_type(b);
      return sa->equals(*sb) ? std::optional<TypePtr>(sa) : std::nullopt;
    }
    return same_spark_type(a, b);
  }
  if (is_integral(ta) && tb == SparkType::kDecimal) {
    return decimal_holds_integral(*spark_storage_type(b), a)
               ? std::optional<TypePtr>(spark_storage_type(b))
               : std::nullopt;
  }
  if (ta == SparkType::kDecimal && is_integral(tb)) {
    return decimal_holds_integral(*spark_storage_type(a), b)
               ? std::optional<TypePtr>(spark_storage_type(a))
               : std::nullopt;
  }
  if (is_numeric(ta) && is_numeric(tb) && ta != SparkType::kDecimal && tb != SparkType::kDecimal) {
    const int rank = std::max(numeric_rank(ta), numeric_rank(tb));
    static const TypePtr kByRank[] = {int8(), int16(), int32(), int64(), float64(), float64()};
    return kByRank[rank];
  }
  if (is_datetime(ta) && is_datetime(tb)) {
    return spark_storage_type(datetime_rank(ta) >= datetime_rank(tb) ? a : b);
  }
  return std::nullopt;
}

std::optional<TypePtr> wider_type_for_two(const TypePtr& a, const TypePtr& b) {
  if (std::optional<TypePtr> tightest = tightest_common_type(a, b)) {
    return tightest;
  }
  const SparkType ta = spark_type_of(*a);
  const SparkType tb = spark_type_of(*b);
  // findWiderTypeForDecimal.
  if (ta == SparkType::kDecimal || tb == SparkType::kDecimal) {
    if ((ta == SparkType::kDecimal || is_integral(ta)) &&
        (tb == SparkType::kDecimal || is_integral(tb))) {
      return wider_decimal_type(**decimal_for(a), **decimal_for(b));
    }
    if (is_numeric(ta) && is_numeric(tb)) {
      return float64();
    }
  }
  // findWiderTypeForString.
  if (ta == SparkType::kString || tb == SparkType::kString) {
    const SparkType other = ta == SparkType::kString ? tb : ta;
    const TypePtr& other_type = ta == SparkType::kString ? b : a;
    if (is_integral(other)) {
      return int64();
    }
    if (is_numeric(other)) {
      return float64();
    }
    if (other != SparkType::kOther) {
      return spark_storage_type(other_type);
    }
    return std::nullopt;
  }
  if (is_list(*a) && is_list(*b)) {
    return common_list_type(a, b, wider_type_for_two);
  }
  return std::nullopt;
}

std::optional<TypePtr> wider_common_type(std::span<const TypePtr> types) {
  std::vector<TypePtr> ordered;
  ordered.reserve(types.size());
  for (const TypePtr& type : types) {
    if (spark_type_of(*type) == SparkType::kString) {
      ordered.push_back(type);
    }
  }
  for (const TypePtr& type : types) {
    if (spark_type_of(*type) != SparkType::kString) {
      ordered.push_back(type);
    }
  }
  TypePtr result = null();
  for (const TypePtr& type : ordered) {
    std::optional<TypePtr> wider = wider_type_for_two(result, type);
    if (!wider) {
      return std::nullopt;
    }
    result = std::move(*wider);
  }
  return result;
}

std::optional<TypePtr> wider_type_without_string_promotion(const TypePtr& a, const TypePtr& b) {
  const SparkType ta = spark_type_of(*a);
  const SparkType tb = spark_type_of(*b);
  if ((ta == SparkType::kString) != (tb == SparkType::kString) && ta != SparkType::kNull &&
      tb != SparkType::kNull) {
    return std::nullopt;
  }
  if (is_list(*a) && is_list(*b)) {
    return common_list_type(a, b, wider_type_without_string_promotion);
  }
  return wider_type_for_two(a, b);
}

TypePtr wider_type(std::span<const TypePtr> types, std::string_view function,
                   StringPromotion promotion) {
  std::optional<TypePtr> wider;
  if (promotion == StringPromotion::kYes) {
    wider = wider_common_type(types);
  } else {
    wider = null();
    for (const TypePtr& type : types) {
      wider = wider_type_without_string_promotion(*wider, type);
      if (!wider) {
        break;
      }
    }
  }
  if (wider) {
    return std::move(*wider);
  }
  // Spark lists the types as ("INT" or "BINARY") for coalesce and ["INT", "STRING"] for
  // greatest and least.
  const bool bracketed = promotion == StringPromotion::kNo;
  std::string listed;
  for (const TypePtr& type : types) {
    if (!listed.empty()) {
      listed.append(bracketed ? ", " : " or ");
    }
    listed.append("\"").append(spark_type_name(*type)).append("\"");
  }
  listed = bracketed ? "[" + listed + "]" : "(" + listed + ")";
  throw AnalysisError("DATATYPE_MISMATCH",
                      "Cannot resolve \"" + std::string(function) +
                          "\" due to data type mismatch: Input to `" + std::string(function) +
                          "` should all be the same type, but it's " + listed + ".");
}

std::optional<TypePtr> comparison_type(const TypePtr& a, const TypePtr& b) {
  const SparkType ta = spark_type_of(*a);
  const SparkType tb = spark_type_of(*b);
  if (ta == SparkType::kDecimal || tb == SparkType::kDecimal) {
    const SparkType other = ta == SparkType::kDecimal ? tb : ta;
    if (other == SparkType::kString) {
      return float64();
    }
  }
  return wider_type_for_two(a, b);
}

}  // namespace bowstring::compute
