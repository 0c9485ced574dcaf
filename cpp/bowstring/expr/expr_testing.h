#pragma once

// A small function registry for the expression tests, so that they exercise binding and
// evaluation without depending on the built-in kernels: "+" and "/" over BIGINT and DOUBLE,
// "=", "upper", "cast" and "try_cast" between a few types, "in", a nondeterministic "random",
// and a function that counts the rows it is called on.

#include <atomic>
#include <cctype>
#include <charconv>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bowstring/array/builder.h"
#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/kernel_util.h"

namespace bowstring::expr::testing {

using compute::AnalysisError;
using compute::Datum;
using compute::ExecContext;
using compute::FunctionOptions;
using compute::NullHandling;
using compute::Resolution;
using compute::ScalarFunction;
using compute::Signature;

/// Reads row i of an INT, BIGINT, DOUBLE, BOOLEAN or STRING Datum (scalars in every row).
class Reader {
 public:
  explicit Reader(const Datum& datum) : array_(datum.array()), scalar_(datum.is_scalar()) {}
  int64_t row(int64_t i) const { return scalar_ ? 0 : i; }
  bool is_null(int64_t i) const { return array_.is_null(row(i)); }
  double as_double(int64_t i) const {
    switch (array_.type_id()) {
      case TypeId::kInt32:
        return array_.as<Int32Array>().value(row(i));
      case TypeId::kInt64:
        return static_cast<double>(array_.as<Int64Array>().value(row(i)));
      default:
        return array_.as<DoubleArray>().value(row(i));
    }
  }
  int64_t as_int64(int64_t i) const {
    return array_.type_id() == TypeId::kInt32 ? array_.as<Int32Array>().value(row(i))
                                              : array_.as<Int64Array>().value(row(i));
  }
  std::string_view as_string(int64_t i) const { return array_.as<StringArray>().value(row(i)); }

 private:
  Array array_;
  bool scalar_;
};

inline Datum finish(ArrayBuilder& builder, std::span<const Datum> arguments) {
  Array array = builder.finish();
  return compute::all_scalars(arguments) ? Datum::scalar(array) : Datum(array);
}

inline bool is_number(const TypePtr& type) {
  return type->id() == TypeId::kInt32 || type->id() == TypeId::kInt64 ||
         type->id() == TypeId::kFloat64 || type->id() == TypeId::kNull;
}

/// The type two numbers are computed in: DOUBLE if either is one, else BIGINT. Throws Spark's
/// BINARY_OP_DIFF_TYPES otherwise.
inline TypePtr numeric_operand_type(std::span<const TypePtr> arguments) {
  if (!is_number(arguments[0]) || !is_number(arguments[1])) {
    throw AnalysisError("DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES",
                        "the left and right operands of the binary operator have incompatible "
                        "types (\"" +
                            spark_type_name(*arguments[0]) + "\" and \"" +
                            spark_type_name(*arguments[1]) + "\").");
  }
  return arguments[0]->id() == TypeId::kFloat64 || arguments[1]->id() == TypeId::kFloat64
             ? float64()
             : int64();
}

/// "+": BIGINT (raising ARITHMETIC_OVERFLOW) or DOUBLE.
class Add final : public ScalarFunction {
 public:
  Add() : ScalarFunction("+", {2, 2}, NullHandling::kPropagates, "Adds.") {}
  std::vector<Signature> signatures() const override {
    return compute::parse_signatures({"(bigint, bigint) -> bigint"});
  }
  Resolution resolve(std::span<const TypePtr> arguments, const FunctionOptions&) const override {
    const TypePtr type = numeric_operand_type(arguments);
    return {type, {type, type}};
  }
  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext& context) const override {
    const Reader left(arguments[0]);
    const Reader right(arguments[1]);
    const int64_t rows = compute::result_length(arguments);
    std::unique_ptr<ArrayBuilder> builder = make_builder(arguments[0].type(), context.allocator);
    for (int64_t i = 0; i < rows; ++i) {
      if (left.is_null(i) || right.is_null(i)) {
        builder->append_null();
      } else if (arguments[0].type()->id() == TypeId::kFloat64) {
        builder->as<DoubleBuilder>().append(left.as_double(i) + right.as_double(i));
      } else {
        int64_t sum = 0;
        if (__builtin_add_overflow(left.as_int64(i), right.as_int64(i), &sum)) {
          throw compute::ArithmeticError("ARITHMETIC_OVERFLOW", "long overflow in '+'");
        }
        builder->as<Int64Builder>().append(sum);
      }
    }
    return finish(*builder, arguments);
  }
};

/// "/": DOUBLE, raising DIVIDE_BY_ZERO.
class Divide final : public ScalarFunction {
 public:
  Divide() : ScalarFunction("/", {2, 2}, NullHandling::kPropagates, "Divides.") {}
  std::vector<Signature> signatures() const override {
    return compute::parse_signatures({"(double, double) -> double"});
  }
  Resolution resolve(std::span<const TypePtr> arguments, const FunctionOptions&) const override {
    numeric_operand_type(arguments);
    return {float64(), {float64(), float64()}};
  }
  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext& context) const override {
    const Reader left(arguments[0]);
    const Reader right(arguments[1]);
    DoubleBuilder builder(context.allocator);
    for (int64_t i = 0; i < compute::result_length(arguments); ++i) {
      if (left.is_null(i) || right.is_null(i)) {
        builder.append_null();
      } else if (right.as_double(i) == 0) {
        throw compute::ArithmeticError("DIVIDE_BY_ZERO", "Division by zero in '/'");
      } else {
        builder.append(left.as_double(i) / right.as_double(i));
      }
    }
    return finish(builder, arguments);
  }
};

/// "=" between numbers.
class Equal final : public ScalarFunction {
 public:
  Equal() : ScalarFunction("=", {2, 2}, NullHandling::kPropagates, "Compares.") {}
  std::vector<Signature> signatures() const override {
    return compute::parse_signatures({"(bigint, bigint) -> boolean"});
  }
  Resolution resolve(std::span<const TypePtr> arguments, const FunctionOptions&) const override {
    const TypePtr type = numeric_operand_type(arguments);
    return {boolean(), {type, type}};
  }
  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext& context) const override {
    const Reader left(arguments[0]);
    const Reader right(arguments[1]);
    BooleanBuilder builder(context.allocator);
    for (int64_t i = 0; i < compute::result_length(arguments); ++i) {
      if (left.is_null(i) || right.is_null(i)) {
        builder.append_null();
      } else {
        builder.append(left.as_double(i) == right.as_double(i));
      }
    }
    return finish(builder, arguments);
  }
};

/// "upper" of ASCII strings.
class Upper final : public ScalarFunction {
 public:
  Upper() : ScalarFunction("upper", {1, 1}, NullHandling::kPropagates, "Upper case.") {}
  std::vector<Signature> signatures() const override {
    return compute::parse_signatures({"(string) -> string"});
  }
  Resolution resolve(std::span<const TypePtr> arguments, const FunctionOptions&) const override {
    if (arguments[0]->id() != TypeId::kString) {
      throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                          "The first parameter requires the \"STRING\" type.");
    }
    return {utf8(), {utf8()}};
  }
  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext& context) const override {
    const Reader values(arguments[0]);
    StringBuilder builder(context.allocator);
    for (int64_t i = 0; i < compute::result_length(arguments); ++i) {
      if (values.is_null(i)) {
        builder.append_null();
        continue;
      }
      std::string text(values.as_string(i));
      for (char& c : text) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      }
      builder.append(text);
    }
    return finish(builder, arguments);
  }
};

/// "cast" / "try_cast" (option `to`): between INT, BIGINT and DOUBLE, from STRING to BIGINT,
/// and from NULL to any type.
class Cast final : public ScalarFunction {
 public:
  explicit Cast(bool is_try)
      : ScalarFunction(is_try ? "try_cast" : "cast", {1, 1}, NullHandling::kPropagates, "Casts."),
        is_try_(is_try) {}
  std::vector<Signature> signatures() const override {
    return compute::parse_signatures({"(int) -> bigint"});
  }
  static const TypePtr& target(const FunctionOptions& options) {
    return std::get<TypePtr>(options.at("to"));
  }
  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& options) const override {
    const TypePtr& to = target(options);
    const TypeId from = arguments[0]->id();
    const bool ok = from == TypeId::kNull || (is_number(arguments[0]) && is_number(to)) ||
                    (from == TypeId::kString && to->id() == TypeId::kInt64) ||
                    arguments[0]->equals(*to);
    if (!ok) {
      throw AnalysisError("DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION",
                          "cannot cast \"" + spark_type_name(*arguments[0]) + "\" to \"" +
                              spark_type_name(*to) + "\".");
    }
    return {to, {arguments[0]}};
  }
  Datum execute(std::span<const Datum> arguments, const FunctionOptions& options,
                ExecContext& context) const override {
    const TypePtr& to = target(options);
    const Reader values(arguments[0]);
    const TypeId from = arguments[0].type()->id();
    std::unique_ptr<ArrayBuilder> builder = make_builder(to, context.allocator);
    for (int64_t i = 0; i < compute::result_length(arguments); ++i) {
      if (from == TypeId::kNull || values.is_null(i)) {
        builder->append_null();
      } else if (from == TypeId::kString) {
        const std::string_view text = values.as_string(i);
        int64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc() || end != text.data() + text.size()) {
          if (!is_try_) {
            throw compute::NumberFormatError(
                "CAST_INVALID_INPUT", "The value '" + std::string(text) +
                                          "' of the type \"STRING\" cannot be cast to \"BIGINT\"");
          }
          builder->append_null();
        } else {
          builder->as<Int64Builder>().append(value);
        }
      } else if (to->id() == TypeId::kFloat64) {
        builder->as<DoubleBuilder>().append(values.as_double(i));
      } else if (to->id() == TypeId::kInt64) {
        builder->as<Int64Builder>().append(from == TypeId::kFloat64
                                               ? static_cast<int64_t>(values.as_double(i))
                                               : values.as_int64(i));
      } else {
        builder->as<Int32Builder>().append(static_cast<int32_t>(
            from == TypeId::kFloat64 ? values.as_double(i) : values.as_int64(i)));
      }
    }
    return finish(*builder, arguments);
  }

 private:
  bool is_try_;
};

/// "in": whether the first number equals one of the others (null when none does and one is
/// null, as in Spark).
class In final : public ScalarFunction {
 public:
  In() : ScalarFunction("in", {2, -1}, NullHandling::kCustom, "Membership.") {}
  std::vector<Signature> signatures() const override {
    return compute::parse_signatures({"(bigint, bigint...) -> boolean"});
  }
  Resolution resolve(std::span<const TypePtr> arguments, const FunctionOptions&) const override {
    for (const TypePtr& type : arguments) {
      if (!is_number(type)) {
        throw AnalysisError("DATATYPE_MISMATCH.DATA_DIFF_TYPES",
                            "Input to `in` should all be the same type.");
      }
    }
    return {boolean(), std::vector<TypePtr>(arguments.size(), float64())};
  }
  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext& context) const override {
    std::vector<Reader> readers(arguments.begin(), arguments.end());
    BooleanBuilder builder(context.allocator);
    for (int64_t i = 0; i < compute::result_length(arguments); ++i) {
      if (readers[0].is_null(i)) {
        builder.append_null();
        continue;
      }
      bool found = false;
      bool saw_null = false;
      for (size_t k = 1; k < readers.size(); ++k) {
        if (readers[k].is_null(i)) {
          saw_null = true;
        } else if (readers[k].as_double(i) == readers[0].as_double(i)) {
          found = true;
        }
      }
      if (!found && saw_null) {
        builder.append_null();
      } else {
        builder.append(found);
      }
    }
    return finish(builder, arguments);
  }
};

/// "random": a nondeterministic function of no arguments (always 0.5 here), never folded.
class Random final : public ScalarFunction {
 public:
  Random() : ScalarFunction("random", {0, 0}, NullHandling::kPropagates, "Random.") {}
  bool deterministic() const override { return false; }
  std::vector<Signature> signatures() const override {
    return compute::parse_signatures({"() -> double"});
  }
  Resolution resolve(std::span<const TypePtr>, const FunctionOptions&) const override {
    return {float64(), {}};
  }
  Datum execute(std::span<const Datum>, const FunctionOptions&,
                ExecContext& context) const override {
    DoubleBuilder builder(context.allocator);
    builder.append(0.5);
    return Datum::scalar(builder.finish());
  }
};

/// "rows_seen": its argument unchanged, adding the number of rows it gets to a counter.
class RowsSeen final : public ScalarFunction {
 public:
  explicit RowsSeen(std::shared_ptr<std::atomic<int64_t>> counter)
      : ScalarFunction("rows_seen", {1, 1}, NullHandling::kPropagates, "Counts rows."),
        counter_(std::move(counter)) {}
  std::vector<Signature> signatures() const override {
    return compute::parse_signatures({"(any) -> any"});
  }
  Resolution resolve(std::span<const TypePtr> arguments, const FunctionOptions&) const override {
    return {arguments[0], {arguments[0]}};
  }
  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext&) const override {
    *counter_ += arguments[0].length();
    return arguments[0];
  }

 private:
  std::shared_ptr<std::atomic<int64_t>> counter_;
};

/// A registry with the functions above; `rows_seen` adds to `counter` when given.
inline compute::FunctionRegistry test_registry(
    std::shared_ptr<std::atomic<int64_t>> counter = nullptr) {
  compute::FunctionRegistry registry;
  registry.add(std::make_shared<Add>());
  registry.add(std::make_shared<Divide>());
  registry.add(std::make_shared<Equal>(), {"=="});
  registry.add(std::make_shared<Upper>());
  registry.add(std::make_shared<Cast>(false));
  registry.add(std::make_shared<Cast>(true));
  registry.add(std::make_shared<In>());
  registry.add(std::make_shared<Random>());
  if (counter == nullptr) {
    counter = std::make_shared<std::atomic<int64_t>>(0);
  }
  registry.add(std::make_shared<RowsSeen>(std::move(counter)));
  return registry;
}

}  // namespace bowstring::expr::testing
