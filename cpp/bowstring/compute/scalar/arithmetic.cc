#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "bowstring/compute/core/coercion.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/compute/scalar/arithmetic_kernels.h"
#include "bowstring/compute/scalar/decimal.h"

namespace bowstring::compute {

using decimal::int128;

Datum null_result(const TypePtr& type, std::span<const Datum> arguments, ExecContext& context) {
  Datum null_scalar = Datum::null_scalar(type, context.allocator);
  if (all_scalars(arguments)) {
    return null_scalar;
  }
  return null_scalar.to_array(result_length(arguments), context.allocator);
}

Datum wrap_result(Array array, std::span<const Datum> arguments) {
  if (all_scalars(arguments)) {
    return Datum::scalar(std::move(array));
  }
  return array;
}

std::string format_number(int64_t value) { return std::to_string(value); }

std::string format_number(double value) {
  if (std::isnan(value)) {
    return "NaN";
  }
  if (std::isinf(value)) {
    return value > 0 ? "Infinity" : "-Infinity";
  }
  char text[32];
  const auto result = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, result.ptr);
}

namespace {

enum class Op : uint8_t { kAdd, kSubtract, kMultiply, kDivide, kRemainder, kPmod, kIntegralDivide };

const char* op_symbol(Op op) {
  switch (op) {
    case Op::kAdd:
      return "+";
    case Op::kSubtract:
      return "-";
    case Op::kMultiply:
      return "*";
    case Op::kDivide:
      return "/";
    case Op::kRemainder:
      return "%";
    case Op::kPmod:
      return "pmod";
    case Op::kIntegralDivide:
      return "div";
  }
  return "";
}

// The try_ function Spark suggests in its messages for an operation.
const char* try_name(Op op) {
  switch (op) {
    case Op::kAdd:
      return "try_add";
    case Op::kSubtract:
      return "try_subtract";
    case Op::kMultiply:
      return "try_multiply";
    case Op::kRemainder:
    case Op::kPmod:
      return "try_mod";
    default:
      return "try_divide";
  }
}

template <typename T>
std::string format_value(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return format_number(static_cast<double>(value));
  } else {
    return format_number(static_cast<int64_t>(value));
  }
}

// "7 / 0", "pmod(7, 0)".
std::string format_call(Op op, const std::string& x, const std::string& y) {
  if (op == Op::kPmod) {
    return "pmod(" + x + ", " + y + ")";
  }
  return x + " " + op_symbol(op) + " " + y;
}

[[noreturn]] void raise_zero_divisor(Op op, const std::string& x, const std::string& y) {
  const std::string call = format_call(op, x, y);
  if (op == Op::kRemainder || op == Op::kPmod) {
    throw ArithmeticError("REMAINDER_BY_ZERO", "Remainder by zero in '" +
                                                   std::string(op_symbol(op)) + "': " + call +
                                                   ". Use `try_mod` to tolerate divisor being 0 "
                                                   "and return NULL instead. " +
                                                   kAnsiBypassHint);
  }
  throw ArithmeticError("DIVIDE_BY_ZERO", "Division by zero in '" + std::string(op_symbol(op)) +
                                              "': " + call +
                                              ". Use `try_divide` to tolerate divisor being 0 "
                                              "and return NULL instead. " +
                                              kAnsiBypassHint);
}

template <typename T>
[[noreturn]] void raise_integer_overflow(Op op, T x, T y) {
  const std::string call = format_call(op, format_value(x), format_value(y));
  if constexpr (sizeof(T) < 4) {
    // Spark reports TINYINT and SMALLINT overflow as BINARY_ARITHMETIC_OVERFLOW.
    const char* suffix = sizeof(T) == 1 ? "Y" : "S";
    throw ArithmeticError("BINARY_ARITHMETIC_OVERFLOW",
                          format_call(op, format_value(x) + suffix, format_value(y) + suffix) +
                              " caused overflow. Use `" + try_name(op) +
                              "` to ignore overflow problem and return NULL.");
  } else {
    const char* kind = sizeof(T) == 4 ? "integer" : "long";
    throw ArithmeticError("ARITHMETIC_OVERFLOW", std::string(kind) + " overflow in '" +
                                                     op_symbol(op) + "': " + call + ". Use '" +
                                                     try_name(op) +
                                                     "' to tolerate overflow and return NULL "
                                                     "instead. " +
                                                     kAnsiBypassHint);
  }
}

// --- element operations -------------------------------------------------------------------

// +, - and * (kOperation): integers report overflow (keeping Java's wrapped value), floating
// point values never fail.
template <typename T, Op kOperation>
struct CheckedOp {
  uint8_t operator()(T x, T y, T* out) const {
    if constexpr (std::is_integral_v<T>) {
      bool overflow = false;
      if constexpr (kOperation == Op::kAdd) {
        overflow = __builtin_add_overflow(x, y, out);
      } else if constexpr (kOperation == Op::kSubtract) {
        overflow = __builtin_sub_overflow(x, y, out);
      } else {
        overflow = __builtin_mul_overflow(x, y, out);
      }
      return overflow ? kOverflow : kNoFailure;
    } else {
      *out = kOperation == Op::kAdd ? x + y : kOperation == Op::kSubtract ? x - y : x * y;
      return kNoFailure;
    }
  }
};

// `/` as doubles: a zero divisor fails, -0.0 included. BIGINT operands (a STRING operand
// read as BIGINT) convert as Java's long to double does.
template <typename T>
struct DivideOp {
  uint8_t operator()(T x, T y, double* out) const {
    *out = y == 0 ? 0 : static_cast<double>(x) / static_cast<double>(y);
    return y == 0 ? kZeroDivisor : kNoFailure;
  }
};

// Java's %: the sign of the dividend; MIN % -1 is 0.
template <typename T>
struct RemainderOp {
  uint8_t operator()(T x, T y, T* out) const {
    if constexpr (std::is_integral_v<T>) {
      if (y == 0) {
        *out = 0;
        return kZeroDivisor;
      }
      *out = y == -1 ? 0 : static_cast<T>(x % y);
    } else {
      if (y == 0) {
        *out = 0;
        return kZeroDivisor;
      }
      *out = std::fmod(x, y);
    }
    return kNoFailure;
  }
};

// Spark's Pmod: r = x % y; negative r becomes (r + y) % y. As in Java, TINYINT and SMALLINT
// add as INT (pmod(-1Y, -128Y) is -1) while INT and BIGINT wrap (pmod(-1, MIN) is MAX).
template <typename T>
struct PmodOp {
  uint8_t operator()(T x, T y, T* out) const {
    T r;
    const uint8_t failure = RemainderOp<T>()(x, y, &r);
    if (failure != kNoFailure) {
      *out = 0;
      return failure;
    }
    if (r < 0) {
      if constexpr (std::is_integral_v<T> && sizeof(T) < 4) {
        r = static_cast<T>((int32_t{r} + int32_t{y}) % int32_t{y});
      } else if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        RemainderOp<T>()(static_cast<T>(static_cast<U>(r) + static_cast<U>(y)), y, &r);
      } else {
        RemainderOp<T>()(r + y, y, &r);
      }
    }
    *out = r;
    return kNoFailure;
  }
};

// `div` on BIGINT: truncating division; MIN div -1 overflows (wrapping to MIN without ANSI).
struct IntegralDivideOp {
  uint8_t operator()(int64_t x, int64_t y, int64_t* out) const {
    if (y == 0) {
      *out = 0;
      return kZeroDivisor;
    }
    if (y == -1) {
      const bool overflow = x == std::numeric_limits<int64_t>::min();
      *out = static_cast<int64_t>(0 - static_cast<uint64_t>(x));
      return overflow ? kOverflow : kNoFailure;
    }
    *out = x / y;
    return kNoFailure;
  }
};

// --- decimal operations -------------------------------------------------------------------

uint8_t failure_of(decimal::Status status) { return static_cast<uint8_t>(status); }

decimal::Operation decimal_operation(Op op) {
  switch (op) {
    case Op::kAdd:
      return decimal::Operation::kAdd;
    case Op::kSubtract:
      return decimal::Operation::kSubtract;
    case Op::kMultiply:
      return decimal::Operation::kMultiply;
    case Op::kIntegralDivide:
      return decimal::Operation::kIntegralDivide;
    default:
      return decimal::Operation::kDivide;  // Op::kDivide; remainders are named otherwise.
  }
}

[[noreturn]] void raise_decimal_overflow(const std::string& value, decimal::Shape result) {
  throw ArithmeticError("NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                        value + " cannot be represented as " + decimal::type_name(result) +
                            ". If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                            "bypass this error, and return NULL instead.");
}

// Spark names the value that does not fit (the exact result, see `decimal::overflowed_value`);
// a value beyond 256 bits (or a remainder beyond 128) is shown as the operation.
[[noreturn]] void raise_decimal_overflow(Op op, int128 x, decimal::Shape sx, int128 y,
                                         decimal::Shape sy, decimal::Shape result) {
  std::string value = op == Op::kRemainder || op == Op::kPmod
                          ? std::string()
                          : decimal::overflowed_value(decimal_operation(op), x, sx.scale, y,
                                                      sy.scale, result.scale);
  if (value.empty()) {
    value = format_call(op, decimal::to_string(x, sx.scale), decimal::to_string(y, sy.scale));
  }
  raise_decimal_overflow(value, result);
}

decimal::Shape shape_of(const DataType& type) {
  const auto& d = type_cast<DecimalType>(type);
  return {d.precision(), d.scale()};
}

Datum decimal_binary(Op op, const Datum& a, const Datum& b, const TypePtr& out_type,
                     FailurePolicy policy, ExecContext& context) {
  const decimal::Shape sa = shape_of(*a.type());
  const decimal::Shape sb = shape_of(*b.type());
  auto raise_for = [&](decimal::Shape result) {
    return [op, sa, sb, result](uint8_t failure, int128 x, int128 y) {
      if (failure == kZeroDivisor) {
        raise_zero_divisor(op, decimal::to_string(x, sa.scale), decimal::to_string(y, sb.scale));
      }
      raise_decimal_overflow(op, x, sa, y, sb, result);
    };
  };
  if (op == Op::kIntegralDivide) {
    // The quotient must fit DECIMAL(p1 - s1 + s2, 0); Spark then takes it as a BIGINT with
    // Java's narrowing (wrapping), also in ANSI mode.
    const decimal::Shape quotient_shape = decimal::integral_divide_result(sa, sb);
    auto divide = [sa, sb, quotient_shape](int128 x, int128 y, int64_t* out) -> uint8_t {
      int128 quotient = 0;
      const decimal::Status status = decimal::integral_divide(x, sa.scale, y, sb.scale, &quotient);
      *out = static_cast<int64_t>(static_cast<uint64_t>(quotient));
      if (status != decimal::Status::kOk) {
        return failure_of(status);
      }
      return decimal::fits(quotient, quotient_shape.precision) ? kNoFailure : kOverflow;
    };
    return binary_kernel<int128, int64_t>(a, b, out_type, divide, policy, raise_for(quotient_shape),
                                          context);
  }
  const decimal::Shape result = shape_of(*out_type);
  auto checked = [result](decimal::Status status, int128 value, int128* out) -> uint8_t {
    if (status != decimal::Status::kOk) {
      *out = 0;
      return failure_of(status);
    }
    *out = value;
    return decimal::fits(value, result.precision) ? kNoFailure : kOverflow;
  };
  auto run = [&](auto compute) {
    auto element = [compute, checked](int128 x, int128 y, int128* out) -> uint8_t {
      int128 value = 0;
      const decimal::Status status = compute(x, y, &value);
      return checked(status, value, out);
    };
    if (op != Op::kRemainder && op != Op::kPmod) {
      return binary_kernel<int128, int128>(a, b, out_type, element, policy, raise_for(result),
                                           context);
    }
    // A remainder is computed exactly at the result scale: Spark names it when it has too many
    // digits (pmod(-7, 99999999.99BD) = 99999992.99 is no DECIMAL(7,2)).
    auto raise = [compute, raise_for, result](uint8_t failure, int128 x, int128 y) {
      int128 value = 0;
      if (failure == kZeroDivisor || compute(x, y, &value) != decimal::Status::kOk) {
        raise_for(result)(failure, x, y);
      }
      raise_decimal_overflow(decimal::to_string(value, result.scale), result);
    };
    return binary_kernel<int128, int128>(a, b, out_type, element, policy, raise, context);
  };
  const int32_t s1 = sa.scale;
  const int32_t s2 = sb.scale;
  const int32_t rs = result.scale;
  switch (op) {
    case Op::kAdd:
      return run(
          [=](int128 x, int128 y, int128* out) { return decimal::add(x, s1, y, s2, rs, out); });
    case Op::kSubtract:
      return run(
          [=](int128 x, int128 y, int128* out) { return decimal::add(x, s1, -y, s2, rs, out); });
    case Op::kMultiply:
      return run([=](int128 x, int128 y, int128* out) {
        return decimal::multiply(x, s1, y, s2, rs, out);
      });
    case Op::kDivide:
      return run(
          [=](int128 x, int128 y, int128* out) { return decimal::divide(x, s1, y, s2, rs, out); });
    case Op::kRemainder:
      return run([=](int128 x, int128 y, int128* out) {
        return decimal::remainder(x, s1, y, s2, rs, out);
      });
    case Op::kPmod:
      return run([=](int128 x, int128 y, int128* out) {
        int128 r = 0;
        const decimal::Status status = decimal::remainder(x, s1, y, s2, rs, &r);
        if (status != decimal::Status::kOk || r >= 0) {
          *out = r;
          return status;
        }
        int128 shifted = 0;
        const decimal::Status add_status = decimal::add(r, rs, y, s2, rs, &shifted);
        if (add_status != decimal::Status::kOk) {
          return add_status;
        }
        return decimal::remainder(shifted, rs, y, s2, rs, out);
      });
    case Op::kIntegralDivide:
      break;
  }
  throw InvalidArgument("unknown decimal operation");
}

// --- non-decimal dispatch -----------------------------------------------------------------

template <typename T>
Datum typed_binary(Op op, const Datum& a, const Datum& b, const TypePtr& out_type,
                   FailurePolicy policy, ExecContext& context) {
  auto raise = [op](uint8_t failure, T x, T y) {
    if (failure == kZeroDivisor) {
      raise_zero_divisor(op, format_value(x), format_value(y));
    }
    if constexpr (std::is_integral_v<T>) {
      if (op == Op::kIntegralDivide) {
        throw ArithmeticError(
            "ARITHMETIC_OVERFLOW",
            "Overflow in integral divide: " + format_call(op, format_value(x), format_value(y)) +
                ". Use 'try_divide' to tolerate overflow and return NULL "
                "instead. " +
                kAnsiBypassHint);
      }
      raise_integer_overflow(op, x, y);
    }
    throw ArithmeticError("ARITHMETIC_OVERFLOW",
                          "overflow in '" + std::string(op_symbol(op)) + "'. " + kAnsiBypassHint);
  };
  switch (op) {
    case Op::kAdd:
      return binary_kernel<T, T>(a, b, out_type, CheckedOp<T, Op::kAdd>(), policy, raise, context);
    case Op::kSubtract:
      return binary_kernel<T, T>(a, b, out_type, CheckedOp<T, Op::kSubtract>(), policy, raise,
                                 context);
    case Op::kMultiply:
      return binary_kernel<T, T>(a, b, out_type, CheckedOp<T, Op::kMultiply>(), policy, raise,
                                 context);
    case Op::kRemainder:
      return binary_kernel<T, T>(a, b, out_type, RemainderOp<T>(), policy, raise, context);
    case Op::kPmod:
      return binary_kernel<T, T>(a, b, out_type, PmodOp<T>(), policy, raise, context);
    case Op::kDivide:
      if constexpr (std::is_same_v<T, double> || std::is_same_v<T, int64_t>) {
        return binary_kernel<T, double>(a, b, out_type, DivideOp<T>(), policy, raise, context);
      }
      break;
    case Op::kIntegralDivide:
      if constexpr (std::is_same_v<T, int64_t>) {
        return binary_kernel<int64_t, int64_t>(a, b, out_type, IntegralDivideOp(), policy, raise,
                                               context);
      }
      break;
  }
  throw TypeError(std::string("no kernel for '") + op_symbol(op) + "' on " + a.type()->to_string());
}

// --- functions ----------------------------------------------------------------------------

// The input types Spark names when it refuses an operand of a binary operator.
const char* expected_input(Op op) {
  switch (op) {
    case Op::kAdd:
    case Op::kSubtract:
      return "(\"NUMERIC\" or \"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO MONTH\" or "
             "\"INTERVAL\")";
    case Op::kDivide:
      return "(\"DOUBLE\" or \"DECIMAL\")";
    case Op::kIntegralDivide:
      return "(\"BIGINT\" or \"DECIMAL\" or \"INTERVAL YEAR TO MONTH\" or \"INTERVAL DAY TO "
             "SECOND\")";
    default:
      return "\"NUMERIC\"";
  }
}

class BinaryArithmetic final : public ScalarFunction {
 public:
  BinaryArithmetic(std::string name, Op op, bool try_variant, std::string description)
      : ScalarFunction(std::move(name), {2, 2}, NullHandling::kPropagates, std::move(description)),
        op_(op),
        try_(try_variant) {}

  std::vector<Signature> signatures() const override {
    switch (op_) {
      case Op::kDivide:
        return parse_signatures({"(double, double) -> double", "(decimal, decimal) -> decimal"});
      case Op::kIntegralDivide:
        return parse_signatures({"(bigint, bigint) -> bigint", "(decimal, decimal) -> bigint"});
      default:
        return parse_signatures({"(numeric, numeric) -> numeric", "(decimal, decimal) -> decimal"});
    }
  }

  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& /*options*/) const override {
    TypePtr a = arguments[0];
    TypePtr b = arguments[1];
    SparkType ta = spark_type_of(*a);
    SparkType tb = spark_type_of(*b);
    auto accepted = [](SparkType t) {
      return is_numeric(t) || t == SparkType::kNull || t == SparkType::kString;
    };
    if (!accepted(ta) || !accepted(tb)) {
      // Spark first casts NULL and STRING to the other side's type; two different types are
      // incompatible, as in true + 1.
      const bool convertible = ta == tb || ta == SparkType::kNull || tb == SparkType::kNull ||
                               ta == SparkType::kString || tb == SparkType::kString;
      if (!convertible) {
        throw_different_types(*a, *b);
      }
      throw_wrong_type(*(accepted(ta) ? b : a));
    }
    // A STRING operand converts only to a numeric other side's type (with NULL or another
    // STRING it stays a STRING, which no operator takes).
    if (!is_numeric(ta) && !is_numeric(tb) &&
        (ta == SparkType::kString || tb == SparkType::kString)) {
      throw_wrong_type(*utf8());
    }
    // NULL takes the other side's type; two NULLs compute as DOUBLE (`/`), BIGINT (`div`) or
    // INT... Spark types NULL + NULL as DOUBLE for every operator.
    if (ta == SparkType::kNull && tb == SparkType::kNull) {
      const TypePtr type = op_ == Op::kIntegralDivide ? int64() : float64();
      return {type, {type, type}};
    }
    if (ta == SparkType::kNull) {
      a = b;
      ta = tb;
    } else if (tb == SparkType::kNull) {
      b = a;
      tb = ta;
    }
    // A STRING operand converts to the other side's wider type (AnsiTypeCoercion's
    // findWiderTypeForString: BIGINT with integrals, DOUBLE with fractional types). `/` then
    // divides the BIGINTs as doubles: '10.5' / 4 fails to read '10.5' as a BIGINT.
    if (ta == SparkType::kString || tb == SparkType::kString) {
      a = b = *wider_type_for_two(a, b);
      ta = tb = spark_type_of(*a);
      if (op_ == Op::kDivide && ta == SparkType::kLong) {
        return {float64(), {a, b}};
      }
    }
    if ((ta == SparkType::kDecimal || tb == SparkType::kDecimal) &&
        (ta == SparkType::kDecimal || is_integral(ta)) &&
        (tb == SparkType::kDecimal || is_integral(tb))) {
      // DecimalPrecision: integral operands become DecimalType.forType, each side keeps its own
      // precision and scale, and the result type follows the operator's rule.
      const TypePtr da = *decimal_for(a);
      const TypePtr db = *decimal_for(b);
      const decimal::Shape sa = shape_of(*da);
      const decimal::Shape sb = shape_of(*db);
      decimal::Shape result{};
      switch (op_) {
        case Op::kAdd:
        case Op::kSubtract:
          result = decimal::add_result(sa, sb);
          break;
        case Op::kMultiply:
          result = decimal::multiply_result(sa, sb);
          break;
        case Op::kDivide:
          result = decimal::divide_result(sa, sb);
          break;
        case Op::kRemainder:
        case Op::kPmod:
          result = decimal::remainder_result(sa, sb);
          break;
        case Op::kIntegralDivide:
          return {int64(), {da, db}};
      }
      return {decimal128(result.precision, result.scale), {da, db}};
    }
    // Decimal with FLOAT or DOUBLE computes in DOUBLE; otherwise the tightest common type.
    TypePtr common = (ta == SparkType::kDecimal || tb == SparkType::kDecimal)
                         ? float64()
                         : *tightest_common_type(a, b);
    if (op_ == Op::kDivide) {
      common = float64();
    } else if (op_ == Op::kIntegralDivide) {
      if (!is_integral(spark_type_of(*common))) {
        throw_wrong_type(*common);
      }
      common = int64();
    }
    return {common, {common, common}};
  }

  // Without ANSI, Spark's coercion (PromoteStrings) reads a STRING operand as DOUBLE whatever
  // the other side: '10' + 4 is 14.0, '10.5' / 4 is 2.625 and 'x' + 1 is NULL.
  Resolution resolve_with(std::span<const TypePtr> arguments, const FunctionOptions& options,
                          const ResolveContext& context) const override {
    if (context.ansi) {
      return resolve(arguments, options);
    }
    std::vector<TypePtr> promoted(arguments.begin(), arguments.end());
    bool any_string = false;
    for (TypePtr& type : promoted) {
      if (spark_type_of(*type) == SparkType::kString) {
        type = float64();
        any_string = true;
      }
    }
    if (any_string && op_ == Op::kIntegralDivide) {
      // `div` casts an integral operand as BIGINT first, so '10' div 4 compares DOUBLE with
      // BIGINT: BINARY_OP_DIFF_TYPES.
      for (TypePtr& type : promoted) {
        if (is_integral(spark_type_of(*type))) {
          type = int64();
        }
      }
      if (!promoted[0]->equals(*promoted[1]) && spark_type_of(*promoted[0]) != SparkType::kNull &&
          spark_type_of(*promoted[1]) != SparkType::kNull) {
        throw_different_types(*promoted[0], *promoted[1]);
      }
    }
    return resolve(promoted, options);
  }

  Datum execute(std::span<const Datum> arguments, const FunctionOptions& /*options*/,
                ExecContext& context) const override {
    const Datum& a = arguments[0];
    const Datum& b = arguments[1];
    const TypePtr out_type = resolve(std::vector<TypePtr>{a.type(), b.type()}, {}).output;
    if (a.type()->id() == TypeId::kDecimal128) {
      return decimal_binary(op_, a, b, out_type, FailurePolicy::of(context, try_, OnFailure::kNull),
                            context);
    }
    const FailurePolicy policy = FailurePolicy::of(context, try_);
    return visit_numeric(*a.type(), [&](auto zero) -> Datum {
      using T = decltype(zero);
      if constexpr (std::is_same_v<T, int128>) {
        throw TypeError("decimal arguments of different storage");
      } else {
        return typed_binary<T>(op_, a, b, out_type, policy, context);
      }
    });
  }

  bool null_on_error() const override { return try_; }

  // Spark evaluates the divisor of / % pmod div first and the dividend only where the divisor
  // is not null; + - * evaluate from left to right.
  std::optional<RowWords> rows_reading(size_t index, std::span<const Datum> arguments,
                                       int64_t length) const override {
    if (op_ == Op::kAdd || op_ == Op::kSubtract || op_ == Op::kMultiply) {
      return ScalarFunction::rows_reading(index, arguments, length);
    }
    return index == 0 ? rows_where_valid(arguments.subspan(1, 1), length) : std::nullopt;
  }

 private:
  [[noreturn]] void throw_different_types(const DataType& a, const DataType& b) const {
    throw AnalysisError("DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES",
                        "Cannot resolve \"" + name() +
                            "\" due to data type mismatch: the left and right operands of the "
                            "binary operator have incompatible types (\"" +
                            spark_type_name(a) + "\" and \"" + spark_type_name(b) + "\").");
  }

  [[noreturn]] void throw_wrong_type(const DataType& type) const {
    throw AnalysisError("DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE",
                        "Cannot resolve \"" + name() +
                            "\" due to data type mismatch: the binary operator requires the "
                            "input type " +
                            expected_input(op_) + ", not \"" + spark_type_name(type) + "\".");
  }

  Op op_;
  bool try_;
};

// --- unary functions ----------------------------------------------------------------------

enum class UnaryOp : uint8_t { kNegative, kPositive, kAbs };

class UnaryArithmetic final : public ScalarFunction {
 public:
  UnaryArithmetic(std::string name, UnaryOp op, std::string description)
      : ScalarFunction(std::move(name), {1, 1}, NullHandling::kPropagates, std::move(description)),
        op_(op) {}

  std::vector<Signature> signatures() const override {
    return parse_signatures({"(numeric) -> numeric"});
  }

  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& /*options*/) const override {
    const SparkType type = spark_type_of(*arguments[0]);
    if (type == SparkType::kNull || type == SparkType::kString) {
      // Spark's implicit cast of NULL and STRING to a NumericType expectation is DOUBLE.
      return {float64(), {float64()}};
    }
    if (!is_numeric(type)) {
      throw AnalysisError("DATATYPE_MISMATCH",
                          "Cannot resolve \"" + name() +
                              "\" due to data type mismatch: the input requires the type "
                              "\"NUMERIC\", not \"" +
                              spark_type_name(*arguments[0]) + "\".");
    }
    const TypePtr storage = spark_storage_type(arguments[0]);
    return {storage, {storage}};
  }

  Datum execute(std::span<const Datum> arguments, const FunctionOptions& /*options*/,
                ExecContext& context) const override {
    const Datum& a = arguments[0];
    if (op_ == UnaryOp::kPositive) {
      return a;
    }
    const bool negate = op_ == UnaryOp::kNegative;
    if (a.type()->id() == TypeId::kDecimal128) {
      return negate_decimal(a, negate, context);
    }
    const FailurePolicy policy = FailurePolicy::of(context, false);
    return visit_numeric(*a.type(), [&](auto zero) -> Datum {
      using T = decltype(zero);
      auto element = [=](T x, T* out) -> uint8_t {
        if constexpr (std::is_floating_point_v<T>) {
          // abs(-0.0) is 0.0, as Java's Math.abs.
          *out = negate ? -x : std::fabs(x);
          return kNoFailure;
        } else if constexpr (std::is_same_v<T, int128>) {
          throw TypeError("decimal negation outside its kernel");
        } else {
          if (!negate && x >= 0) {
            *out = x;
            return kNoFailure;
          }
          return __builtin_sub_overflow(T{0}, x, out) ? kOverflow : kNoFailure;
        }
      };
      auto raise = [this, negate](uint8_t, T x) {
        const std::string call =
            negate ? "-(" + format_value(x) + ")" : "abs(" + format_value(x) + ")";
        throw ArithmeticError("ARITHMETIC_OVERFLOW",
                              std::string(sizeof(T) == 8 ? "long" : "integer") + " overflow in '" +
                                  name() + "': " + call + ". " + kAnsiBypassHint);
      };
      return unary_kernel<T, T>(a, a.type(), element, policy, raise, context);
    });
  }

 private:
  // Spark negates a decimal (abs: a negative one) through 34 significant digits, HALF_EVEN:
  // -(12345678901234567890123456789012345000BD) is -12345678901234567890123456789012340000. A
  // value rounded up past its precision fails, with or without ANSI mode.
  static Datum negate_decimal(const Datum& a, bool negate, ExecContext& context) {
    const decimal::Shape shape = shape_of(*a.type());
    auto element = [negate, shape](int128 x, int128* out) -> uint8_t {
      if (!negate && x >= 0) {
        *out = x;
        return kNoFailure;
      }
      int32_t dropped = 0;
      *out = -decimal::round_for_negation(x, &dropped);
      return decimal::fits(*out, shape.precision) ? kNoFailure : kOverflow;
    };
    auto raise = [shape](uint8_t, int128 x) {
      int32_t dropped = 0;
      const int128 rounded = -decimal::round_for_negation(x, &dropped);
      const auto power = static_cast<int128>(decimal::pow10(dropped));
      throw ArithmeticError("NUMERIC_VALUE_OUT_OF_RANGE.WITHOUT_SUGGESTION",
                            "The " + decimal::to_string(rounded, shape.scale) +
                                " rounded half up from " +
                                decimal::java_string(rounded / power, shape.scale - dropped) +
                                " cannot be represented as " + decimal::type_name(shape) + ".");
    };
    constexpr FailurePolicy kAlwaysRaise{OnFailure::kRaise, OnFailure::kRaise};
    return unary_kernel<int128, int128>(a, a.type(), element, kAlwaysRaise, raise, context);
  }

  UnaryOp op_;
};

}  // namespace

void register_arithmetic_functions(FunctionRegistry& registry) {
  auto add = [&](std::string name, Op op, bool try_variant, std::string description,
                 std::vector<std::string> aliases = {}) {
    registry.add(std::make_shared<BinaryArithmetic>(std::move(name), op, try_variant,
                                                    std::move(description)),
                 std::move(aliases));
  };
  add("+", Op::kAdd, false, "The sum of the two arguments.");
  add("-", Op::kSubtract, false, "The first argument minus the second.");
  add("*", Op::kMultiply, false, "The product of the two arguments.");
  add("/", Op::kDivide, false,
      "The quotient of the two arguments as a DOUBLE (DECIMAL for decimal arguments).");
  add("%", Op::kRemainder, false,
      "The remainder of dividing the first argument by the second, with the sign of the first.",
      {"mod"});
  add("pmod", Op::kPmod, false,
      "The positive remainder of dividing the first argument by the "
      "second.");
  add("div", Op::kIntegralDivide, false,
      "The integral part of dividing the first argument by the second, as a BIGINT.");
  add("try_add", Op::kAdd, true, "The sum of the arguments, or NULL on overflow.");
  add("try_subtract", Op::kSubtract, true,
      "The first argument minus the second, or NULL on overflow.");
  add("try_multiply", Op::kMultiply, true, "The product of the arguments, or NULL on overflow.");
  add("try_divide", Op::kDivide, true,
      "The quotient of the arguments, or NULL when the divisor is 0.");
  add("try_mod", Op::kRemainder, true,
      "The remainder of dividing the first argument by the second, or NULL when the divisor "
      "is 0.");
  registry.add(
      std::make_shared<UnaryArithmetic>("negative", UnaryOp::kNegative, "The argument negated."));
  registry.add(
      std::make_shared<UnaryArithmetic>("positive", UnaryOp::kPositive, "The argument itself."));
  registry.add(std::make_shared<UnaryArithmetic>("abs", UnaryOp::kAbs, "The absolute value."));
  register_math_functions(registry);
}

}  // namespace bowstring::compute
