#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/array/builder.h"
#include "bowstring/array/builder_binary.h"
#include "bowstring/compute/core/coercion.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/scalar/arithmetic_kernels.h"
#include "bowstring/compute/scalar/decimal.h"

namespace bowstring::compute {

namespace {

using decimal::int128;

// Rows whose result is undefined become null (Spark's ln of a non-positive number...).
constexpr FailurePolicy kNullOnFailure{OnFailure::kNull, OnFailure::kNull};

// For kernels whose failures all become null: nothing is ever raised.
[[noreturn]] void raise_never(uint8_t failure) {
  throw ArithmeticError("ARITHMETIC_OVERFLOW", "failure " + std::to_string(failure));
}

// --- functions of doubles -----------------------------------------------------------------

// NUMERIC, STRING (made a DOUBLE by Spark's implicit casts) and NULL.
void check_numeric(const std::string& function, const TypePtr& type) {
  const SparkType spark = spark_type_of(*type);
  if (!is_numeric(spark) && spark != SparkType::kString && spark != SparkType::kNull) {
    throw AnalysisError("DATATYPE_MISMATCH",
                        "Cannot resolve \"" + function +
                            "\" due to data type mismatch: the input requires the type "
                            "\"DOUBLE\", not \"" +
                            spark_type_name(*type) + "\".");
  }
}

// A function of one or two DOUBLEs. `Op(x, &out)` or `Op(x, y, &out)` returns kInvalid for
// rows Spark makes null; as a template argument it is inlined into the loop.
using DoubleUnary = uint8_t (*)(double, double*);
using DoubleBinary = uint8_t (*)(double, double, double*);

template <auto Op>
class DoubleFunction final : public ScalarFunction {
  static constexpr bool kUnary = std::is_same_v<decltype(Op), DoubleUnary>;
  static constexpr int kArity = kUnary ? 1 : 2;

 public:
  DoubleFunction(std::string name, std::string description)
      : ScalarFunction(std::move(name), {kArity, kArity}, NullHandling::kPropagates,
                       std::move(description)) {}

  std::vector<Signature> signatures() const override {
    return parse_signatures({kUnary ? "(double) -> double" : "(double, double) -> double"});
  }

  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& /*options*/) const override {
    for (const TypePtr& type : arguments) {
      check_numeric(name(), type);
    }
    return {float64(), std::vector<TypePtr>(kArity, float64())};
  }

  Datum execute(std::span<const Datum> arguments, const FunctionOptions& /*options*/,
                ExecContext& context) const override {
    if constexpr (kUnary) {
      return unary_kernel<double, double>(
          arguments[0], float64(), [](double x, double* out) { return Op(x, out); }, kNullOnFailure,
          [](uint8_t failure, double) { raise_never(failure); }, context);
    } else {
      return binary_kernel<double, double>(
          arguments[0], arguments[1], float64(),
          [](double x, double y, double* out) { return Op(x, y, out); }, kNullOnFailure,
          [](uint8_t failure, double, double) { raise_never(failure); }, context);
    }
  }
};

// Spark's logarithms are null (not NaN or -Infinity) at and below 0.
uint8_t log_of(double x, double base_log, double* out) {
  *out = std::log(x) / base_log;
  return x <= 0 ? kInvalid : kNoFailure;
}

// `log` with one argument is ln; with two the first is the base.
class LogFunction final : public ScalarFunction {
 public:
  LogFunction()
      : ScalarFunction("log", {1, 2}, NullHandling::kPropagates,
                       "The logarithm of the last argument in the base given first (e when "
                       "there is one argument); NULL for non-positive values.") {}

  std::vector<Signature> signatures() const override {
    return parse_signatures({"(double) -> double", "(double, double) -> double"});
  }

  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& /*options*/) const override {
    for (const TypePtr& type : arguments) {
      check_numeric(name(), type);
    }
    return {float64(), std::vector<TypePtr>(arguments.size(), float64())};
  }

  Datum execute(std::span<const Datum> arguments, const FunctionOptions& /*options*/,
                ExecContext& context) const override {
    if (arguments.size() == 1) {
      return unary_kernel<double, double>(
          arguments[0], float64(), [](double x, double* out) { return log_of(x, 1.0, out); },
          kNullOnFailure, [](uint8_t failure, double) { raise_never(failure); }, context);
    }
    return binary_kernel<double, double>(
        arguments[0], arguments[1], float64(),
        [](double base, double x, double* out) -> uint8_t {
          *out = std::log(x) / std::log(base);
          return base <= 0 || x <= 0 ? kInvalid : kNoFailure;
        },
        kNullOnFailure, [](uint8_t failure, double, double) { raise_never(failure); }, context);
  }
};

class ConstantFunction final : public ScalarFunction {
 public:
  ConstantFunction(std::string name, double value, std::string description)
      : ScalarFunction(std::move(name), {0, 0}, NullHandling::kPropagates, std::move(description)),
        value_(value) {}

  std::vector<Signature> signatures() const override { return parse_signatures({"() -> double"}); }
  Resolution resolve(std::span<const TypePtr> /*arguments*/,
                     const FunctionOptions& /*options*/) const override {
    return {float64(), {}};
  }
  Datum execute(std::span<const Datum> /*arguments*/, const FunctionOptions& /*options*/,
                ExecContext& context) const override {
    OutputValues<double> values(1, context.allocator);
    values.data()[0] = value_;
    return Datum::scalar(make_fixed_width_array(float64(), 1, nullptr, 0, values.finish()));
  }

 private:
  double value_;
};

// --- rounding -------------------------------------------------------------------------------

enum class Rounding : uint8_t { kHalfUp, kHalfEven, kFloor, kCeiling };

// Whether a value whose kept digits end in `last_odd` parity, dropping digits that start with
// `first` (0..9) followed by a non-zero tail (`rest`), rounds away from zero; `negative` for the
// sign.
bool rounds_away(Rounding mode, int first, bool rest, bool last_odd, bool negative) {
  const bool exact = first == 0 && !rest;
  switch (mode) {
    case Rounding::kHalfUp:
      return first >= 5;
    case Rounding::kHalfEven:
      return first > 5 || (first == 5 && (rest || last_odd));
    case Rounding::kFloor:
      return negative && !exact;
    case Rounding::kCeiling:
      return !negative && !exact;
  }
  return false;
}

// `value` / 10^k rounded by `mode` (k >= 1), in 128 bits.
int128 divide_rounding(int128 value, int k, Rounding mode) {
  if (k > 38) {
    return rounds_away(mode, 0, value != 0, false, value < 0) ? (value < 0 ? -1 : 1) : 0;
  }
  const auto divisor = static_cast<int128>(decimal::pow10(k));
  int128 quotient = value / divisor;
  const int128 rest = value % divisor;
  const int128 magnitude = rest < 0 ? -rest : rest;
  // The first dropped digit and whether anything follows it.
  const auto tenth = static_cast<int128>(decimal::pow10(k - 1));
  const int first = static_cast<int>(magnitude / tenth);
  const bool tail = magnitude % tenth != 0;
  if (rounds_away(mode, first, tail, (quotient & 1) != 0, value < 0)) {
    quotient += value < 0 ? -1 : 1;
  }
  return quotient;
}

// Spark rounds a DOUBLE through the BigDecimal of its shortest decimal string (so that
// round(2.675D, 2) is 2.68) and converts back; NaN and infinities stay.
double round_double(double x, int32_t scale, Rounding mode) {
  if (!std::isfinite(x) || x == 0) {
    return std::isfinite(x) ? 0.0 : x;
  }
  char text[64];
  const auto written = std::to_chars(text, text + sizeof(text), x, std::chars_format::scientific);
  const std::string_view repr(text, static_cast<size_t>(written.ptr - text));
  const bool negative = repr[0] == '-';
  const size_t e = repr.find('e');
  std::string digits;
  for (size_t i = negative ? 1 : 0; i < e; ++i) {
    if (repr[i] != '.') {
      digits.push_back(repr[i]);
    }
  }
  int exponent = 0;
  const char* exponent_text = repr.data() + e + 1;
  if (*exponent_text == '+') {
    ++exponent_text;
  }
  std::from_chars(exponent_text, repr.data() + repr.size(), exponent);
  const int n = static_cast<int>(digits.size());
  // Digit i has weight 10^(exponent - i); keep those of weight >= 10^-scale.
  const int64_t keep = static_cast<int64_t>(exponent) + scale + 1;
  if (keep >= n) {
    return x;
  }
  std::string kept;
  int first = 0;
  bool rest = false;
  if (keep >= 0) {
    kept = digits.substr(0, static_cast<size_t>(keep));
    first = digits[static_cast<size_t>(keep)] - '0';
    for (size_t i = static_cast<size_t>(keep) + 1; i < digits.size(); ++i) {
      rest |= digits[i] != '0';
    }
  } else {
    rest = true;
  }
  const bool last_odd = !kept.empty() && ((kept.back() - '0') & 1) != 0;
  if (rounds_away(mode, first, rest, last_odd, negative)) {
    int i = static_cast<int>(kept.size()) - 1;
    while (i >= 0 && kept[static_cast<size_t>(i)] == '9') {
      kept[static_cast<size_t>(i)] = '0';
      --i;
    }
    if (i < 0) {
      kept.insert(kept.begin(), '1');
    } else {
      ++kept[static_cast<size_t>(i)];
    }
  }
  if (kept.find_first_not_of('0') == std::string::npos) {
    return 0.0;
  }
  std::string number = (negative ? "-" : "") + kept + "e" + std::to_string(-scale);
  return std::strtod(number.c_str(), nullptr);
}

// ceil and floor take their scale only as a constant INT (Spark's NON_FOLDABLE_ARGUMENT, also
// for another integral type or NULL).
[[noreturn]] void raise_non_foldable_scale(const std::string& function) {
  throw AnalysisError("NON_FOLDABLE_ARGUMENT",
                      "The function `" + function +
                          "` requires the parameter `scale` to be a foldable expression of the "
                          "type \"INT\", but the actual argument is a non-foldable.");
}

// round and bround refuse a scale that is not foldable with DATATYPE_MISMATCH (ceil and floor
// with NON_FOLDABLE_ARGUMENT, `raise_non_foldable_scale`).
[[noreturn]] void raise_non_foldable_input(const std::string& function) {
  throw AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                      "Cannot resolve \"" + function +
                          "\" due to data type mismatch: the input `scale` should be a "
                          "foldable \"INT\" expression; however, got a column.");
}

// The scale of a rounding call: option "scale", else the second argument's scalar value (the
// caller has refused a column).
int32_t rounding_scale(std::span<const Datum> arguments, const FunctionOptions& options) {
  if (auto it = options.find("scale"); it != options.end()) {
    return static_cast<int32_t>(std::get<int64_t>(it->second));
  }
  return arguments.size() < 2 ? 0 : Int32Array(arguments[1].array()).value(0);
}

// The scale a rounding call's result type is decided by: option "scale", else the constant
// scale argument read as an INT (Spark casts it: round(d, 1.5) rounds to 1 digit), else 0 (also
// for a NULL scale, which gives NULL). `scale` is nullptr when the value is not known.
int32_t rounding_scale_for_types(const FunctionOptions& options, const Datum* scale) {
  if (auto it = options.find("scale"); it != options.end()) {
    return static_cast<int32_t>(std::get<int64_t>(it->second));
  }
  if (scale == nullptr || scale->scalar_is_null()) {
    return 0;
  }
  const Datum as_int = scale->type()->id() == TypeId::kInt32
                           ? *scale
                           : call("cast", std::vector<Datum>{*scale}, {{"to", int32()}});
  return as_int.scalar_is_null() ? 0 : Int32Array(as_int.array()).value(0);
}

// Refuses a scale known to vary by row with `refuse`, as Spark's analysis does.
void check_foldable_scale(const ResolveContext& context, size_t arguments,
                          const std::string& function, void (*refuse)(const std::string&)) {
  if (arguments == 2 && context.varies(1)) {
    refuse(function);
  }
}

// `RoundBase.dataType` for a decimal rounded to `scale`: one more integer digit (9.9 -> 10),
// at most `scale` fractional digits, a negative scale giving scale 0.
TypePtr rounded_decimal_type(const DecimalType& type, int32_t scale) {
  const int32_t integral = type.precision() - type.scale() + 1;
  if (scale < 0) {
    return decimal128(std::min(std::max(integral, -scale + 1), 38), 0);
  }
  const int32_t new_scale = std::min(type.scale(), scale);
  return decimal128(std::min(integral + new_scale, 38), new_scale);
}

[[noreturn]] void raise_round_overflow(const std::string& function, const std::string& value) {
  throw ArithmeticError("ARITHMETIC_OVERFLOW",
                        "Overflow in '" + function + "': " + value + ". " + kAnsiBypassHint);
}

// A decimal rounded by `mode` to `scale`, typed by `rounded_decimal_type`. Results beyond the
// type's precision raise in ANSI mode and are NULL otherwise.
Datum round_decimal(const Datum& value, int32_t scale, Rounding mode, const std::string& function,
                    ExecContext& context) {
  const auto& type = type_cast<DecimalType>(*value.type());
  const TypePtr output = rounded_decimal_type(type, scale);
  const int32_t from = type.scale();
  const int32_t precision = type_cast<DecimalType>(*output).precision();
  return unary_kernel<int128, int128>(
      value, output,
      [from, scale, mode, precision](int128 x, int128* out) -> uint8_t {
        int128 result = x;
        if (scale < from) {
          result = divide_rounding(x, from - scale, mode);
          if (scale < 0 && result != 0) {
            result *= static_cast<int128>(decimal::pow10(std::min(-scale, 38)));
          }
        }
        *out = result;
        return decimal::fits(result, precision) ? kNoFailure : kOverflow;
      },
      FailurePolicy::of(context, false, OnFailure::kNull),
      [&function, from](uint8_t, int128 x) {
        raise_round_overflow(function, decimal::to_string(x, from));
      },
      context);
}

// round and bround: HALF_UP or HALF_EVEN to a scale (default 0, negative allowed).
class RoundFunction final : public ScalarFunction {
 public:
  RoundFunction(std::string name, Rounding mode, std::string description)
      : ScalarFunction(std::move(name), {1, 2}, NullHandling::kPropagates, std::move(description)),
        mode_(mode) {}

  std::vector<Signature> signatures() const override {
    return parse_signatures({"(numeric[, int]) -> numeric"});
  }

  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& options) const override {
    return resolve_with(arguments, options, ResolveContext{});
  }

  // The scale's value decides a decimal result's type: round(DECIMAL(10,4), 2) is
  // DECIMAL(9,2).
  Resolution resolve_with(std::span<const TypePtr> arguments, const FunctionOptions& options,
                          const ResolveContext& context) const override {
    const SparkType type = spark_type_of(*arguments[0]);
    std::vector<TypePtr> casts{arguments[0]};
    TypePtr output;
    if (type == SparkType::kNull || type == SparkType::kString) {
      output = float64();
    } else if (type == SparkType::kDecimal) {
      casts[0] = spark_storage_type(arguments[0]);
      output = rounded_decimal_type(type_cast<DecimalType>(*casts[0]),
                                    rounding_scale_for_types(options, context.constant(1)));
    } else if (is_numeric(type)) {
      output = spark_storage_type(arguments[0]);
    } else {
      check_numeric(name(), arguments[0]);
    }
    casts[0] = type == SparkType::kDecimal ? casts[0] : output;
    if (arguments.size() == 2) {
      // Spark casts any numeric or STRING scale to INT (round(1.25D, 1.5) rounds to 1 digit).
      const SparkType scale = spark_type_of(*arguments[1]);
      if (!is_numeric(scale) && scale != SparkType::kString && scale != SparkType::kNull) {
        throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                            "Cannot resolve \"" + name() +
                                "\" due to data type mismatch: The second parameter requires "
                                "the \"INT\" type, however the scale has the type \"" +
                                spark_type_name(*arguments[1]) + "\".");
      }
      check_foldable_scale(context, arguments.size(), name(), raise_non_foldable_input);
      casts.push_back(int32());
    }
    return {output, casts};
  }

  Datum execute(std::span<const Datum> arguments, const FunctionOptions& options,
                ExecContext& context) const override {
    const Datum& value = arguments[0];
    const Datum inputs[] = {value};
    if (arguments.size() == 2 && arguments[1].scalar_is_null()) {
      return null_result(value.type(), inputs, context);
    }
    if (arguments.size() == 2 && !arguments[1].is_scalar()) {
      raise_non_foldable_input(name());
    }
    const int32_t scale = rounding_scale(arguments, options);
    const Rounding mode = mode_;
    const FailurePolicy policy = FailurePolicy::of(context, false, OnFailure::kNull);
    const std::string& function = name();
    switch (value.type()->id()) {
      case TypeId::kFloat64:
        return unary_kernel<double, double>(
            value, float64(),
            [scale, mode](double x, double* out) -> uint8_t {
              *out = round_double(x, scale, mode);
              return kNoFailure;
            },
            policy, [](uint8_t failure, double) { raise_never(failure); }, context);
      case TypeId::kFloat32:
        return unary_kernel<float, float>(
            value, float32(),
            [scale, mode](float x, float* out) -> uint8_t {
              *out = static_cast<float>(round_double(x, scale, mode));
              return kNoFailure;
            },
            policy, [](uint8_t failure, float) { raise_never(failure); }, context);
      case TypeId::kDecimal128:
        return round_decimal(value, scale, mode, function, context);
      default:
        return visit_numeric(*value.type(), [&](auto zero) -> Datum {
          using T = decltype(zero);
          if constexpr (std::is_integral_v<T> && !std::is_same_v<T, int128>) {
            return unary_kernel<T, T>(
                value, value.type(),
                [scale, mode](T x, T* out) -> uint8_t {
                  if (scale >= 0) {
                    *out = x;
                    return kNoFailure;
                  }
                  const int k = -scale;
                  const int128 rounded =
                      k > 38 ? 0
                             : divide_rounding(x, k, mode) * static_cast<int128>(decimal::pow10(k));
                  *out = static_cast<T>(rounded);
                  return rounded < std::numeric_limits<T>::min() ||
                                 rounded > std::numeric_limits<T>::max()
                             ? kOverflow
                             : kNoFailure;
                },
                FailurePolicy::of(context, false),
                [&function](uint8_t, T x) {
                  raise_round_overflow(function, std::to_string(static_cast<int64_t>(x)));
                },
                context);
          } else {
            throw TypeError("no rounding kernel for " + value.type()->to_string());
          }
        });
    }
  }

 private:
  Rounding mode_;
};

// floor and ceil: BIGINT for integral and floating arguments, DECIMAL(p - s + 1, 0) for
// decimals.
class FloorCeilFunction final : public ScalarFunction {
 public:
  FloorCeilFunction(std::string name, Rounding mode, std::string description)
      : ScalarFunction(std::move(name), {1, 2}, NullHandling::kPropagates, std::move(description)),
        mode_(mode) {}

  std::vector<Signature> signatures() const override {
    return parse_signatures({"(double) -> bigint", "(bigint) -> bigint",
                             "(decimal(p, s)) -> decimal(p - s + 1, 0)",
                             "(numeric, int) -> decimal"});
  }

  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& options) const override {
    return resolve_with(arguments, options, ResolveContext{});
  }

  Resolution resolve_with(std::span<const TypePtr> arguments, const FunctionOptions& options,
                          const ResolveContext& context) const override {
    const SparkType type = spark_type_of(*arguments[0]);
    if (arguments.size() == 2) {
      // With a scale, Spark computes on DecimalType.forType of the argument, typed as round's.
      check_numeric(name(), arguments[0]);
      if (spark_type_of(*arguments[1]) != SparkType::kInt) {
        raise_non_foldable_scale(name());
      }
      check_foldable_scale(context, arguments.size(), name(), raise_non_foldable_scale);
      // The value becomes a decimal in `execute`, after the scale is known to be a constant:
      // Spark refuses a column scale before looking at any value.
      const bool numeric = is_numeric(type);
      const TypePtr decimal = numeric ? *decimal_for(arguments[0]) : decimal128(30, 15);
      return {rounded_decimal_type(type_cast<DecimalType>(*decimal),
                                   rounding_scale_for_types(options, context.constant(1))),
              {numeric ? spark_storage_type(arguments[0]) : decimal, int32()}};
    }
    if (type == SparkType::kDecimal) {
      const TypePtr storage = spark_storage_type(arguments[0]);
      const auto& decimal = type_cast<DecimalType>(*storage);
      return {bounded_decimal(decimal.precision() - decimal.scale() + 1, 0), {storage}};
    }
    if (is_integral(type)) {
      return {int64(), {int64()}};
    }
    check_numeric(name(), arguments[0]);
    return {int64(), {float64()}};
  }

  Datum execute(std::span<const Datum> arguments, const FunctionOptions& options,
                ExecContext& context) const override {
    const Datum& value = arguments[0];
    const Rounding mode = mode_;
    const std::string& function = name();
    if (arguments.size() == 2) {
      if (!arguments[1].is_scalar()) {
        raise_non_foldable_scale(function);
      }
      // Spark rounds DecimalType.forType of the value.
      const Datum decimal = value.type()->id() == TypeId::kDecimal128
                                ? value
                                : call("cast", std::vector<Datum>{value},
                                       {{"to", *decimal_for(value.type())}}, &context);
      const Datum inputs[] = {decimal};
      if (arguments[1].scalar_is_null()) {
        return null_result(decimal.type(), inputs, context);
      }
      return round_decimal(decimal, rounding_scale(arguments, options), mode, function, context);
    }
    switch (value.type()->id()) {
      case TypeId::kInt64:
        return value;
      case TypeId::kFloat64:
        // Spark 4 raises on results outside BIGINT in ANSI mode (NaN gives 0); without ANSI
        // Java's narrowing applies (saturation).
        return unary_kernel<double, int64_t>(
            value, int64(),
            [mode](double x, int64_t* out) -> uint8_t {
              const double rounded = mode == Rounding::kFloor ? std::floor(x) : std::ceil(x);
              const bool in_range =
                  rounded >= -9223372036854775808.0 && rounded < 9223372036854775808.0;
              if (in_range) {
                *out = static_cast<int64_t>(rounded);
                return kNoFailure;
              }
              if (std::isnan(rounded)) {
                *out = 0;
                return kNoFailure;
              }
              *out = rounded > 0 ? std::numeric_limits<int64_t>::max()
                                 : std::numeric_limits<int64_t>::min();
              return kOverflow;
            },
            FailurePolicy::of(context, false),
            [&function](uint8_t, double x) { raise_round_overflow(function, format_number(x)); },
            context);
      case TypeId::kDecimal128: {
        const auto& type = type_cast<DecimalType>(*value.type());
        const int32_t from = type.scale();
        const TypePtr output = bounded_decimal(type.precision() - from + 1, 0);
        const int32_t precision = type_cast<DecimalType>(*output).precision();
        return unary_kernel<int128, int128>(
            value, output,
            [from, mode, precision](int128 x, int128* out) -> uint8_t {
              *out = from == 0 ? x : divide_rounding(x, from, mode);
              return decimal::fits(*out, precision) ? kNoFailure : kOverflow;
            },
            FailurePolicy::of(context, false, OnFailure::kNull),
            [&function, from](uint8_t, int128 x) {
              raise_round_overflow(function, decimal::to_string(x, from));
            },
            context);
      }
      default:
        throw TypeError("no " + name() + " kernel for " + value.type()->to_string());
    }
  }

 private:
  Rounding mode_;
};

// --- greatest and least -----------------------------------------------------------------------

// Spark orders NaN above every other double.
template <typename T>
bool greater_than(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) {
      return !std::isnan(b);
    }
    if (std::isnan(b)) {
      return false;
    }
  }
  return a > b;
}

// greatest and least: the largest (smallest) non-null argument of each row, NULL when all are.
class ExtremumFunction final : public ScalarFunction {
 public:
  ExtremumFunction(std::string name, bool greatest, std::string description)
      : ScalarFunction(std::move(name), {2, -1}, NullHandling::kCustom, std::move(description)),
        greatest_(greatest) {}

  std::vector<Signature> signatures() const override {
    return parse_signatures({"(T, T, T...) -> T"});
  }

  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& /*options*/) const override {
    const TypePtr common = wider_type(arguments, name(), StringPromotion::kNo);
    const SparkType type = spark_type_of(*common);
    if (!is_numeric(type) && !is_datetime(type) && type != SparkType::kBoolean &&
        type != SparkType::kNull && type != SparkType::kString && type != SparkType::kBinary) {
      throw AnalysisError("DATATYPE_MISMATCH",
                          "Cannot resolve \"" + name() + "\" due to data type mismatch: " + name() +
                              " does not support the type \"" + spark_type_name(*common) + "\".");
    }
    return {common, std::vector<TypePtr>(arguments.size(), common)};
  }

  // Defined after the class, where clang sees every member template it instantiates.
  Datum execute(std::span<const Datum> arguments, const FunctionOptions& options,
                ExecContext& context) const override;

 private:
  template <typename T>
  Datum extremum(std::span<const Datum> arguments, int64_t length, ExecContext& context) const {
    OutputValues<T> values(length, context.allocator);
    T* out = values.data();
    MutableBuffer validity(bit_util::bytes_for_bits(length), context.allocator);
    uint8_t* valid = validity.mutable_data();
    bool first_argument = true;
    for (const Datum& argument : arguments) {
      if (argument.scalar_is_null()) {
        continue;
      }
      const ArrayData& data = *argument.data();
      const T* x = data.values<T>(1);
      const uint8_t* bits = data.buffers[0] ? data.buffers[0]->data() : nullptr;
      const int64_t step = argument.is_array() ? 1 : 0;
      const int64_t offset = data.offset;
      for (int64_t i = 0; i < length; ++i) {
        const int64_t row = i * step;
        if (bits != nullptr && !bit_util::get_bit(bits, offset + row)) {
          continue;
        }
        const T candidate = x[row];
        if (first_argument || !bit_util::get_bit(valid, i)) {
          out[i] = candidate;
          bit_util::set_bit(valid, i);
        } else if (greatest_ ? greater_than(candidate, out[i]) : greater_than(out[i], candidate)) {
          out[i] = candidate;
        }
      }
      first_argument = false;
    }
    const int64_t nulls = length - bit_util::count_set_bits(valid, 0, length);
    Array result =
        make_fixed_width_array(arguments[0].type(), length,
                               nulls == 0 ? nullptr : validity.finish(), nulls, values.finish());
    return wrap_result(std::move(result), arguments);
  }

  // Strings and binaries compare byte-wise (UTF-8 byte order is code point order, as Spark's).
  template <typename View>
  Datum extremum_bytes(std::span<const Datum> arguments, int64_t length,
                       ExecContext& context) const {
    std::vector<View> views;
    std::vector<int64_t> steps;
    for (const Datum& argument : arguments) {
      if (!argument.scalar_is_null()) {
        views.emplace_back(argument.array());
        steps.push_back(argument.is_array() ? 1 : 0);
      }
    }
    std::unique_ptr<ArrayBuilder> builder = make_builder(arguments[0].type(), context.allocator);
    ArrayBuilder& bytes_builder = *builder;
    for (int64_t i = 0; i < length; ++i) {
      std::optional<std::string_view> best;
      for (size_t k = 0; k < views.size(); ++k) {
        const int64_t row = i * steps[k];
        if (views[k].is_null(row)) {
          continue;
        }
        const std::string_view candidate = views[k].value(row);
        if (!best || (greatest_ ? candidate > *best : candidate < *best)) {
          best = candidate;
        }
      }
      if (best) {
        append_bytes(bytes_builder, *best);
      } else {
        bytes_builder.append_null();
      }
    }
    return wrap_result(builder->finish(), arguments);
  }

  static void append_bytes(ArrayBuilder& builder, std::string_view value) {
    switch (builder.type()->id()) {
      case TypeId::kString:
      case TypeId::kBinary:
        builder.as<BaseBinaryBuilder<int32_t>>().append(value);
        break;
      case TypeId::kLargeString:
      case TypeId::kLargeBinary:
        builder.as<BaseBinaryBuilder<int64_t>>().append(value);
        break;
      default:
        builder.as<BinaryViewBuilder>().append(value);
        break;
    }
  }

  Datum extremum_boolean(std::span<const Datum> arguments, int64_t length,
                         ExecContext& context) const {
    MutableBuffer bits_out(bit_util::bytes_for_bits(length), context.allocator);
    MutableBuffer validity(bit_util::bytes_for_bits(length), context.allocator);
    uint8_t* out = bits_out.mutable_data();
    uint8_t* valid = validity.mutable_data();
    for (const Datum& argument : arguments) {
      if (argument.scalar_is_null()) {
        continue;
      }
      const BooleanArray values(argument.array());
      const int64_t step = argument.is_array() ? 1 : 0;
      for (int64_t i = 0; i < length; ++i) {
        if (values.is_null(i * step)) {
          continue;
        }
        const bool candidate = values.value(i * step);
        if (!bit_util::get_bit(valid, i)) {
          bit_util::set_bit_to(out, i, candidate);
          bit_util::set_bit(valid, i);
        } else if (candidate == greatest_) {
          bit_util::set_bit_to(out, i, candidate);
        }
      }
    }
    const int64_t nulls = length - bit_util::count_set_bits(valid, 0, length);
    Array result = make_fixed_width_array(
        boolean(), length, nulls == 0 ? nullptr : validity.finish(), nulls, bits_out.finish());
    return wrap_result(std::move(result), arguments);
  }

  bool greatest_;
};

Datum ExtremumFunction::execute(std::span<const Datum> arguments,
                                const FunctionOptions& /*options*/, ExecContext& context) const {
  const TypePtr& type = arguments[0].type();
  const int64_t length = result_length(arguments);
  switch (type->id()) {
    case TypeId::kNull:
      return null_result(type, arguments, context);
    case TypeId::kBoolean:
      return extremum_boolean(arguments, length, context);
    case TypeId::kDate32:
      return extremum<int32_t>(arguments, length, context);
    case TypeId::kTimestamp:
      return extremum<int64_t>(arguments, length, context);
    case TypeId::kString:
    case TypeId::kBinary:
      return extremum_bytes<StringArray>(arguments, length, context);
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      return extremum_bytes<LargeStringArray>(arguments, length, context);
    case TypeId::kStringView:
    case TypeId::kBinaryView:
      return extremum_bytes<StringViewArray>(arguments, length, context);
    default:
      return visit_numeric(*type, [&](auto zero) -> Datum {
        return extremum<decltype(zero)>(arguments, length, context);
      });
  }
}

// --- element functions ----------------------------------------------------------------------

uint8_t sqrt_op(double x, double* out) {
  *out = std::sqrt(x);
  return kNoFailure;
}
uint8_t exp_op(double x, double* out) {
  *out = std::exp(x);
  return kNoFailure;
}
uint8_t expm1_op(double x, double* out) {
  *out = std::expm1(x);
  return kNoFailure;
}
uint8_t ln_op(double x, double* out) { return log_of(x, 1.0, out); }
uint8_t log10_op(double x, double* out) {
  *out = std::log10(x);
  return x <= 0 ? kInvalid : kNoFailure;
}
// Spark's log2 is ln(x) / ln(2), which differs from a direct log2 in the last digit for about
// a third of the values.
uint8_t log2_op(double x, double* out) { return log_of(x, std::numbers::ln2, out); }
uint8_t log1p_op(double x, double* out) {
  *out = std::log1p(x);
  return x <= -1 ? kInvalid : kNoFailure;
}
// The C library's cube root is up to 3 ulps from the exact one (and from Java's Math.cbrt, which
// is within 1 and exact on perfect cubes); one Newton step in extended precision brings it to
// the nearest double but for rare ties.
uint8_t cbrt_op(double x, double* out) {
  const double root = std::cbrt(x);
  if (!std::isfinite(root) || root == 0) {
    *out = root;
    return kNoFailure;
  }
  const auto y = static_cast<long double>(root);
  *out = static_cast<double>(y - (y * y * y - x) / (3 * y * y));
  return kNoFailure;
}
uint8_t sin_op(double x, double* out) {
  *out = std::sin(x);
  return kNoFailure;
}
uint8_t cos_op(double x, double* out) {
  *out = std::cos(x);
  return kNoFailure;
}
uint8_t tan_op(double x, double* out) {
  *out = std::tan(x);
  return kNoFailure;
}
uint8_t asin_op(double x, double* out) {
  *out = std::asin(x);
  return kNoFailure;
}
uint8_t acos_op(double x, double* out) {
  *out = std::acos(x);
  return kNoFailure;
}
uint8_t atan_op(double x, double* out) {
  *out = std::atan(x);
  return kNoFailure;
}
uint8_t sinh_op(double x, double* out) {
  *out = std::sinh(x);
  return kNoFailure;
}
uint8_t cosh_op(double x, double* out) {
  *out = std::cosh(x);
  return kNoFailure;
}
uint8_t tanh_op(double x, double* out) {
  *out = std::tanh(x);
  return kNoFailure;
}
uint8_t degrees_op(double x, double* out) {
  *out = x * (180.0 / std::numbers::pi);
  return kNoFailure;
}
uint8_t radians_op(double x, double* out) {
  // Java's Math.toRadians: one multiplication by pi / 180.
  *out = x * (std::numbers::pi / 180.0);
  return kNoFailure;
}
// Java's Math.signum: -1.0, -0.0, 0.0, 1.0 or NaN.
uint8_t signum_op(double x, double* out) {
  *out = x > 0 ? 1.0 : x < 0 ? -1.0 : x;
  return kNoFailure;
}
// Java's Math.pow, where C's differs: a NaN exponent gives NaN (C: pow(1, NaN) is 1), and so
// does a base of magnitude 1 with an infinite exponent (C: pow(-1, Infinity) is 1).
uint8_t pow_op(double x, double y, double* out) {
  const bool java_nan = std::isnan(y) || (std::isinf(y) && std::fabs(x) == 1.0);
  *out = java_nan ? std::numeric_limits<double>::quiet_NaN() : std::pow(x, y);
  return kNoFailure;
}
// Spark's Atan2 adds 0.0 to both arguments, turning -0.0 into 0.0: atan2(-0.0, -1.0) is pi and
// atan2(-0.0, -0.0) is 0.0.
uint8_t atan2_op(double y, double x, double* out) {
  *out = std::atan2(y + 0.0, x + 0.0);
  return kNoFailure;
}
uint8_t hypot_op(double x, double y, double* out) {
  *out = std::hypot(x, y);
  return kNoFailure;
}

}  // namespace

void register_math_functions(FunctionRegistry& registry) {
  auto add = [&](std::shared_ptr<const Function> function, std::vector<std::string> aliases = {}) {
    registry.add(std::move(function), std::move(aliases));
  };
  add(std::make_shared<DoubleFunction<sqrt_op>>("sqrt",
                                                "The square root (NaN for negative values)."));
  add(std::make_shared<DoubleFunction<exp_op>>("exp", "e raised to the argument."));
  add(std::make_shared<DoubleFunction<expm1_op>>("expm1", "exp(x) - 1, exact near 0."));
  add(std::make_shared<DoubleFunction<ln_op>>(
      "ln", "The natural logarithm; NULL for non-positive values."));
  add(std::make_shared<DoubleFunction<log10_op>>(
      "log10", "The base-10 logarithm; NULL for non-positive values."));
  add(std::make_shared<DoubleFunction<log2_op>>(
      "log2", "The base-2 logarithm; NULL for non-positive values."));
  add(std::make_shared<DoubleFunction<log1p_op>>("log1p",
                                                 "ln(1 + x); NULL for values at or below -1."));
  add(std::make_shared<DoubleFunction<cbrt_op>>("cbrt", "The cube root."));
  add(std::make_shared<DoubleFunction<sin_op>>("sin", "The sine of an angle in radians."));
  add(std::make_shared<DoubleFunction<cos_op>>("cos", "The cosine of an angle in radians."));
  add(std::make_shared<DoubleFunction<tan_op>>("tan", "The tangent of an angle in radians."));
  add(std::make_shared<DoubleFunction<asin_op>>("asin", "The arc sine, in radians."));
  add(std::make_shared<DoubleFunction<acos_op>>("acos", "The arc cosine, in radians."));
  add(std::make_shared<DoubleFunction<atan_op>>("atan", "The arc tangent, in radians."));
  add(std::make_shared<DoubleFunction<sinh_op>>("sinh", "The hyperbolic sine."));
  add(std::make_shared<DoubleFunction<cosh_op>>("cosh", "The hyperbolic cosine."));
  add(std::make_shared<DoubleFunction<tanh_op>>("tanh", "The hyperbolic tangent."));
  add(std::make_shared<DoubleFunction<degrees_op>>("degrees", "Radians converted to degrees."));
  add(std::make_shared<DoubleFunction<radians_op>>("radians", "Degrees converted to radians."));
  add(std::make_shared<DoubleFunction<signum_op>>(
          "signum", "-1.0, 0.0 or 1.0 by the sign of the argument, as a DOUBLE."),
      {"sign"});
  add(std::make_shared<DoubleFunction<pow_op>>("pow", "The first argument raised to the second."),
      {"power"});
  add(std::make_shared<DoubleFunction<atan2_op>>(
      "atan2", "The angle of the point (x, y) given as (y, x), in radians."));
  add(std::make_shared<DoubleFunction<hypot_op>>("hypot",
                                                 "sqrt(x^2 + y^2) without intermediate overflow."));
  registry.add(std::make_shared<LogFunction>());
  registry.add(std::make_shared<ConstantFunction>("e", std::numbers::e, "Euler's number."));
  registry.add(std::make_shared<ConstantFunction>("pi", std::numbers::pi, "The number pi."));
  registry.add(std::make_shared<RoundFunction>(
      "round", Rounding::kHalfUp,
      "The argument rounded HALF_UP to a scale (default 0, negative rounds left of the point)."));
  registry.add(std::make_shared<RoundFunction>(
      "bround", Rounding::kHalfEven,
      "The argument rounded HALF_EVEN to a scale (default 0, negative rounds left of the "
      "point)."));
  registry.add(std::make_shared<FloorCeilFunction>(
      "floor", Rounding::kFloor, "The largest integral value not above the argument."));
  registry.add(
      std::make_shared<FloorCeilFunction>("ceil", Rounding::kCeiling,
                                          "The smallest integral value not below the argument."),
      {"ceiling"});
  registry.add(std::make_shared<ExtremumFunction>(
      "greatest", true, "The largest non-null argument (NaN above every number)."));
  registry.add(std::make_shared<ExtremumFunction>(
      "least", false, "The smallest non-null argument (NaN above every number)."));
}

}  // namespace bowstring::compute
