#include "bowstring/compute/scalar/predicates.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bowstring/compute/core/coercion.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/lambda_function.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/compute/scalar/conditional.h"

namespace bowstring::compute {

namespace {

/// The two operand types of a binary operator as Spark lists them: ("INT" and "BOOLEAN").
std::string quoted_types(std::span<const TypePtr> types) {
  std::string listed;
  for (const TypePtr& type : types) {
    listed.append(listed.empty() ? "(\"" : " and \"").append(spark_type_name(*type)).append("\"");
  }
  return listed + ")";
}

[[noreturn]] void throw_unexpected_type(const std::string& function, size_t index,
                                        const std::string& required, const TypePtr& type) {
  throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                      "Cannot resolve \"" + function +
                          "\" due to data type mismatch: the parameter " +
                          std::to_string(index + 1) + " requires the " + required +
                          " type, however it has the type \"" + spark_type_name(*type) + "\".");
}

/// Whether `type` holds a map at some depth: Spark cannot order or compare maps.
bool holds_map(const DataType& type) {
  if (type.id() == TypeId::kMap) {
    return true;
  }
  for (int i = 0; i < type.num_fields(); ++i) {
    if (holds_map(*type.field(i)->type())) {
      return true;
    }
  }
  return false;
}

bool is_list_type(const DataType& type) {
  return type.id() == TypeId::kList || type.id() == TypeId::kLargeList;
}

/// Whether two types are equal but for the names of struct fields.
bool same_but_names(const DataType& left, const DataType& right) {
  if (left.id() != TypeId::kStruct || right.id() != TypeId::kStruct) {
    if (left.id() != right.id() || !is_list_type(left)) {
      return left.equals(right);
    }
  }
  if (left.num_fields() != right.num_fields()) {
    return false;
  }
  for (int i = 0; i < left.num_fields(); ++i) {
    if (!same_but_names(*left.field(i)->type(), *right.field(i)->type())) {
      return false;
    }
  }
  return true;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

/// The common type of struct fields or list elements being compared: structs that differ only
/// in field names as they are, others field by field when the names agree (ignoring case:
/// named_struct('a', 1) < named_struct('A', 1.5D) widens, named_struct('a', 1) =
/// named_struct('b', 1L) is refused), lists by their elements, other types widened without
/// turning values into strings (Spark refuses array(1) = array('1')). The left side's names
/// are kept.
std::optional<TypePtr> nested_element_type(const TypePtr& left, const TypePtr& right) {
  if (same_but_names(*left, *right)) {
    return left;
  }
  if (left->id() == TypeId::kStruct && right->id() == TypeId::kStruct) {
    if (left->num_fields() != right->num_fields()) {
      return std::nullopt;
    }
    FieldVector fields;
    for (int i = 0; i < left->num_fields(); ++i) {
      if (!equal_ignoring_case(left->field(i)->name(), right->field(i)->name())) {
        return std::nullopt;
      }
      std::optional<TypePtr> common =
          nested_element_type(left->field(i)->type(), right->field(i)->type());
      if (!common) {
        return std::nullopt;
      }
      fields.push_back(field(left->field(i)->name(), *common));
    }
    return struct_(std::move(fields));
  }
  if (is_list_type(*left) && is_list_type(*right)) {
    std::optional<TypePtr> element =
        nested_element_type(left->field(0)->type(), right->field(0)->type());
    if (!element) {
      return std::nullopt;
    }
    const bool large = left->id() == TypeId::kLargeList || right->id() == TypeId::kLargeList;
    return list_of_kind(large ? TypeId::kLargeList : TypeId::kList, *element);
  }
  return wider_type_without_string_promotion(left, right);
}

/// Throws Spark's INVALID_ORDERING_TYPE when `type` holds a map.
void check_orderable(const DataType& type, const std::string& function) {
  if (holds_map(type)) {
    throw AnalysisError("DATATYPE_MISMATCH.INVALID_ORDERING_TYPE",
                        "Cannot resolve \"" + function + "\" due to data type mismatch: The `" +
                            function + "` does not support ordering on type \"" +
                            spark_type_name(type) + "\".");
  }
}

/// The type of the values of `type`: its value type for a dictionary, else itself.
const TypePtr& value_type_of(const TypePtr& type) {
  return type->id() == TypeId::kDictionary ? type_cast<DictionaryType>(*type).value_type() : type;
}

/// `argument` as the kernel receives it for a comparison in `common`: a dictionary whose values
/// already have that type stays encoded (the kernels compare through its dictionary).
TypePtr compared_argument(const TypePtr& argument, const TypePtr& common) {
  return value_type_of(argument)->equals(*common) ? argument : common;
}

/// The type both sides of a comparison are cast to; `AnalysisError` when Spark refuses it.
/// Dictionaries count as their values.
TypePtr comparison_type_or_throw(const TypePtr& encoded_left, const TypePtr& encoded_right,
                                 const std::string& function) {
  const TypePtr& left = value_type_of(encoded_left);
  const TypePtr& right = value_type_of(encoded_right);
  const bool nested = (left->id() == TypeId::kStruct && right->id() == TypeId::kStruct) ||
                      (is_list_type(*left) && is_list_type(*right));
  std::optional<TypePtr> common =
      nested ? nested_element_type(left, right) : comparison_type(left, right);
  if (common) {
    check_orderable(**common, function);
  }
  if (!common || !is_comparable(**common)) {
    const TypePtr both[] = {left, right};
    throw AnalysisError("DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES",
                        "Cannot resolve \"" + function +
                            "\" due to data type mismatch: the left and right operands of the "
                            "binary operator have incompatible types " +
                            quoted_types(both) + ".");
  }
  return *common;
}

Resolution resolve_comparison(const std::string& name, std::span<const TypePtr> arguments) {
  TypePtr common = comparison_type_or_throw(arguments[0], arguments[1], name);
  return {boolean(),
          {compared_argument(arguments[0], common), compared_argument(arguments[1], common)}};
}

/// A boolean argument: boolean, or NULL (which the kernels read as a null boolean).
void check_boolean_argument(const std::string& function, size_t index, const TypePtr& type) {
  if (type->id() != TypeId::kBoolean && type->id() != TypeId::kNull) {
    throw_unexpected_type(function, index, "\"BOOLEAN\"", type);
  }
}

bool is_string_type(const TypePtr& type) {
  return spark_type_of(*value_type_of(type)) == SparkType::kString;
}

/// NOT: a boolean, NULL, or a string, which Spark's ANSI coercion casts to BOOLEAN (malformed
/// text then fails with CAST_INVALID_INPUT).
Resolution resolve_not(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr& type = value_type_of(arguments[0]);
  if (is_string_type(type)) {
    return {boolean(), {boolean()}};
  }
  check_boolean_argument(name, 0, type);
  return {boolean(), {type}};
}

[[noreturn]] void throw_operand_types_differ(std::span<const TypePtr> arguments,
                                             const std::string& name) {
  throw AnalysisError("DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES",
                      "Cannot resolve \"" + name +
                          "\" due to data type mismatch: the left and right operands of the "
                          "binary operator have incompatible types " +
                          quoted_types(arguments) + ".");
}

/// AND and OR without string casts: both sides (a NULL taking the other's type) must have one
/// type, and that type must be BOOLEAN.
Resolution resolve_boolean_operands(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr& left = value_type_of(arguments[0]);
  const TypePtr& right = value_type_of(arguments[1]);
  const bool left_null = left->id() == TypeId::kNull;
  const bool right_null = right->id() == TypeId::kNull;
  if (!left_null && !right_null && spark_type_of(*left) != spark_type_of(*right)) {
    throw_operand_types_differ(arguments, name);
  }
  const TypePtr& operand = left_null ? right : left;
  if (operand->id() != TypeId::kBoolean && operand->id() != TypeId::kNull) {
    throw AnalysisError("DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE",
                        "Cannot resolve \"" + name +
                            "\" due to data type mismatch: the binary operator requires the "
                            "input type \"BOOLEAN\", not \"" +
                            spark_type_name(*operand) + "\".");
  }
  return {boolean(), {left, right}};
}

/// AND and OR: a string beside a boolean is cast to BOOLEAN (ANSI coercion).
Resolution resolve_boolean_logic(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr& left = value_type_of(arguments[0]);
  const TypePtr& right = value_type_of(arguments[1]);
  if ((left->id() == TypeId::kBoolean && is_string_type(right)) ||
      (right->id() == TypeId::kBoolean && is_string_type(left))) {
    return {boolean(), {boolean(), boolean()}};
  }
  return resolve_boolean_operands(name, arguments);
}

/// NOT, AND and OR without ANSI, where Spark has no implicit cast from STRING to BOOLEAN: a
/// STRING operand is refused as any other non-BOOLEAN one.
Resolution resolve_logic_without_ansi(const std::string& name, std::span<const TypePtr> arguments) {
  if (arguments.size() == 2) {
    // Beside a STRING a NULL stays VOID: NULL AND 'x' is BINARY_OP_DIFF_TYPES.
    if (is_string_type(arguments[0]) != is_string_type(arguments[1])) {
      throw_operand_types_differ(arguments, name);
    }
    return resolve_boolean_operands(name, arguments);
  }
  check_boolean_argument(name, 0, value_type_of(arguments[0]));
  return {boolean(), {arguments[0]}};
}

Resolution resolve_null_test(const std::string&, std::span<const TypePtr> arguments) {
  return {boolean(), {arguments[0]}};
}

Resolution resolve_isnan(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr& type = arguments[0];
  if (type->id() == TypeId::kFloat32 || type->id() == TypeId::kFloat64 ||
      type->id() == TypeId::kNull) {
    return {boolean(), {type}};
  }
  // A string is cast to DOUBLE as Spark's ANSI coercion does ('NaN' is NaN, malformed text
  // fails with CAST_INVALID_INPUT).
  if (!is_numeric(spark_type_of(*value_type_of(type))) && !is_string_type(type)) {
    throw_unexpected_type(name, 0, "(\"DOUBLE\" or \"FLOAT\")", type);
  }
  return {boolean(), {float64()}};
}

/// Every argument cast to their wider common type, which is also the result type.
Resolution resolve_common(const std::string& name, std::span<const TypePtr> arguments) {
  TypePtr common = wider_type(arguments, name);
  return {common, std::vector<TypePtr>(arguments.size(), common)};
}

Resolution resolve_nvl2(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr values[] = {arguments[1], arguments[2]};
  TypePtr common = wider_type(values, name);
  return {common, {arguments[0], common, common}};
}

Resolution resolve_if(const std::string& name, std::span<const TypePtr> arguments) {
  check_boolean_argument(name, 0, arguments[0]);
  const TypePtr values[] = {arguments[1], arguments[2]};
  TypePtr common = wider_type(values, name);
  return {common, {arguments[0], common, common}};
}

/// case_when(cond1, value1, cond2, value2, ..., [else]).
Resolution resolve_case_when(const std::string& name, std::span<const TypePtr> arguments) {
  std::vector<TypePtr> values;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const bool is_condition = i % 2 == 0 && i + 1 < arguments.size();
    if (is_condition) {
      // Unlike IF, Spark's CASE WHEN refuses an untyped NULL condition.
      if (arguments[i]->id() != TypeId::kBoolean) {
        throw_unexpected_type(name, i, "\"BOOLEAN\"", arguments[i]);
      }
    } else {
      values.push_back(arguments[i]);
    }
  }
  TypePtr common = wider_type(values, name);
  Resolution resolution{common, {}};
  for (size_t i = 0; i < arguments.size(); ++i) {
    const bool is_condition = i % 2 == 0 && i + 1 < arguments.size();
    resolution.arguments.push_back(is_condition ? arguments[i] : common);
  }
  return resolution;
}

Resolution resolve_in(const std::string& name, std::span<const TypePtr> encoded) {
  std::vector<TypePtr> arguments;
  for (const TypePtr& type : encoded) {
    arguments.push_back(value_type_of(type));
  }
  std::optional<TypePtr> nested_common = arguments[0];
  for (const TypePtr& type : arguments) {
    const bool nested =
        (type->id() == TypeId::kStruct && (*nested_common)->id() == TypeId::kStruct) ||
        (is_list_type(*type) && is_list_type(**nested_common));
    nested_common = nested ? nested_element_type(*nested_common, type) : std::nullopt;
    if (!nested_common) {
      break;
    }
  }
  TypePtr common = nested_common ? *nested_common : wider_type(arguments, name);
  check_orderable(*common, name);
  if (!is_comparable(*common)) {
    throw_unexpected_type(name, 0, "comparable", common);
  }
  Resolution resolution{boolean(), {}};
  for (const TypePtr& type : encoded) {
    resolution.arguments.push_back(compared_argument(type, common));
  }
  return resolution;
}

/// nullif and between compare pairs of their arguments, each pair in its own comparison type
/// (Spark rewrites them into comparisons), so the arguments stay as they are here.
Resolution resolve_nullif(const std::string& name, std::span<const TypePtr> arguments) {
  comparison_type_or_throw(arguments[0], arguments[1], name);
  return {arguments[0], {arguments[0], arguments[1]}};
}

Resolution resolve_between(const std::string& name, std::span<const TypePtr> arguments) {
  comparison_type_or_throw(arguments[0], arguments[1], name);
  comparison_type_or_throw(arguments[0], arguments[2], name);
  return {boolean(), {arguments[0], arguments[1], arguments[2]}};
}

Resolution resolve_nanvl(const std::string& name, std::span<const TypePtr> arguments) {
  for (size_t i = 0; i < 2; ++i) {
    const TypeId id = arguments[i]->id();
    // Spark casts a string argument as DOUBLE: nanvl(1.0D, 'abc') is DOUBLE.
    const SparkType type = spark_type_of(*arguments[i]);
    if (id != TypeId::kNull && !is_numeric(type) && type != SparkType::kString) {
      throw_unexpected_type(name, i, "(\"DOUBLE\" or \"FLOAT\")", arguments[i]);
    }
  }
  auto is_float = [](const TypePtr& type) {
    return type->id() == TypeId::kFloat32 || type->id() == TypeId::kNull;
  };
  const bool both_float =
      is_float(arguments[0]) && is_float(arguments[1]) &&
      !(arguments[0]->id() == TypeId::kNull && arguments[1]->id() == TypeId::kNull);
  const TypePtr common = both_float ? float32() : float64();
  return {common, {common, common}};
}

/// `left op right` by the registry's comparison, which casts both sides to their comparison
/// type (the right side only where the left is not null, as Spark evaluates it).
Datum compare_coerced(CompareOp op, const Datum& left, const Datum& right, const char* name,
                      ExecContext& context) {
  comparison_type_or_throw(left.type(), right.type(), name);
  const Datum sides[] = {left, right};
  return call(compare_op_name(op), sides, {}, &context);
}

/// The traits of a conditional function, which reads its arguments on the rows `rows` gives.
LambdaScalarTraits reading_rows(RowsReading rows) {
  LambdaScalarTraits traits;
  traits.rows_reading = rows;
  return traits;
}

/// The traits of NOT, AND and OR, whose operands Spark casts from STRING in ANSI mode only.
LambdaScalarTraits logic_traits() {
  LambdaScalarTraits traits;
  traits.resolver_without_ansi = resolve_logic_without_ansi;
  return traits;
}

void add(FunctionRegistry& registry, std::vector<std::string> names, Function::Arity arity,
         NullHandling null_handling, std::string description, std::vector<std::string> signatures,
         LambdaResolver resolver, LambdaScalarFunction::Kernel kernel,
         LambdaScalarTraits traits = {}) {
  std::string name = names.front();
  names.erase(names.begin());
  registry.add(std::make_shared<LambdaScalarFunction>(std::move(name), arity, null_handling,
                                                      std::move(description), std::move(signatures),
                                                      std::move(resolver), std::move(kernel),
                                                      std::move(traits)),
               std::move(names));
}

void add_comparison(FunctionRegistry& registry, std::vector<std::string> names, CompareOp op,
                    std::string description) {
  add(registry, std::move(names), {2, 2}, NullHandling::kPropagates, std::move(description),
      {"(T, T) -> boolean for every comparable T"}, resolve_comparison,
      [op](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return compare(op, arguments[0], arguments[1], context.allocator);
      });
}

/// The comparison operators and null-safe equality.
void add_comparisons(FunctionRegistry& registry) {
  add_comparison(registry, {"=", "=="}, CompareOp::kEqual,
                 "Whether the arguments are equal (NaN equals NaN).");
  add_comparison(registry, {"!=", "<>"}, CompareOp::kNotEqual, "Whether the arguments differ.");
  add_comparison(registry, {"<"}, CompareOp::kLess,
                 "Whether the first argument is less than the second (NaN is the greatest).");
  add_comparison(registry, {"<="}, CompareOp::kLessEqual,
                 "Whether the first argument is at most the second.");
  add_comparison(registry, {">"}, CompareOp::kGreater,
                 "Whether the first argument is greater than the second.");
  add_comparison(registry, {">="}, CompareOp::kGreaterEqual,
                 "Whether the first argument is at least the second.");
  add(registry, {"<=>", "equal_null"}, {2, 2}, NullHandling::kCustom,
      "Null-safe equality: true when both are null, false when one is.",
      {"(T, T) -> boolean for every comparable T"}, resolve_comparison,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return equal_null_safe(arguments[0], arguments[1], context.allocator);
      });
}

/// NOT, AND and OR with three-valued logic.
void add_logic(FunctionRegistry& registry) {
  add(
      registry, {"and"}, {2, 2}, NullHandling::kCustom, "Logical AND with three-valued logic.",
      {"(boolean, boolean) -> boolean"}, resolve_boolean_logic,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return kleene_and(arguments[0], arguments[1], context.allocator);
      },
      logic_traits());
  add(
      registry, {"or"}, {2, 2}, NullHandling::kCustom, "Logical OR with three-valued logic.",
      {"(boolean, boolean) -> boolean"}, resolve_boolean_logic,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return kleene_or(arguments[0], arguments[1], context.allocator);
      },
      logic_traits());
  add(
      registry, {"not", "!"}, {1, 1}, NullHandling::kPropagates, "Logical NOT.",
      {"(boolean) -> boolean"}, resolve_not,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return logical_not(arguments[0], context.allocator);
      },
      logic_traits());
}

/// isnull, isnotnull and isnan.
void add_null_tests(FunctionRegistry& registry) {
  add(registry, {"isnull"}, {1, 1}, NullHandling::kCustom, "Whether the argument is null.",
      {"(any) -> boolean"}, resolve_null_test,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return is_null(arguments[0], context.allocator);
      });
  add(registry, {"isnotnull"}, {1, 1}, NullHandling::kCustom, "Whether the argument is not null.",
      {"(any) -> boolean"}, resolve_null_test,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return is_not_null(arguments[0], context.allocator);
      });
  add(registry, {"isnan"}, {1, 1}, NullHandling::kCustom,
      "Whether the argument is NaN (false for null).",
      {"(double) -> boolean", "(float) -> boolean"}, resolve_isnan,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return is_nan(arguments[0], context.allocator);
      });
}

/// coalesce, nvl, nvl2, nullif, nanvl, if and case_when, which read each argument only on
/// the rows that need it (nullif aside).
void add_conditionals(FunctionRegistry& registry) {
  add(
      registry, {"coalesce"}, {1, -1}, NullHandling::kCustom,
      "The first argument that is not null, or null.", {"(T, T...) -> T"}, resolve_common,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return coalesce(arguments, context.allocator);
      },
      reading_rows(coalesce_rows_reading));
  add(
      registry, {"nvl", "ifnull"}, {2, 2}, NullHandling::kCustom,
      "The second argument when the first is null, else the first.", {"(T, T) -> T"},
      resolve_common,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return coalesce(arguments, context.allocator);
      },
      reading_rows(coalesce_rows_reading));
  add(
      registry, {"nvl2"}, {3, 3}, NullHandling::kCustom,
      "The second argument when the first is not null, else the third.", {"(any, T, T) -> T"},
      resolve_nvl2,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return if_else(is_not_null(arguments[0], context.allocator), arguments[1], arguments[2],
                       context.allocator);
      },
      reading_rows(nvl2_rows_reading));
  add(registry, {"nullif"}, {2, 2}, NullHandling::kCustom,
      "Null when the arguments are equal, else the first.", {"(T, U) -> T"}, resolve_nullif,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        const Datum equal =
            compare_coerced(CompareOp::kEqual, arguments[0], arguments[1], "nullif", context);
        const Datum null_value = Datum::null_scalar(arguments[0].type(), context.allocator);
        return if_else(equal, null_value, arguments[0], context.allocator);
      });
  add(
      registry, {"nanvl"}, {2, 2}, NullHandling::kCustom,
      "The second argument when the first is NaN, else the first.",
      {"(double, double) -> double", "(float, float) -> float"}, resolve_nanvl,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return nan_value(arguments[0], arguments[1], context.allocator);
      },
      reading_rows(nanvl_rows_reading));
  add(
      registry, {"if"}, {3, 3}, NullHandling::kCustom,
      "The second argument where the condition is true, else the third.", {"(boolean, T, T) -> T"},
      resolve_if,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return if_else(arguments[0], arguments[1], arguments[2], context.allocator);
      },
      reading_rows(if_rows_reading));
  add(
      registry, {"case_when"}, {2, -1}, NullHandling::kCustom,
      "CASE WHEN: the value of the first true condition (null counts as false), else the last "
      "argument when their number is odd, else null.",
      {"(boolean, T[, boolean, T]...[, T]) -> T"}, resolve_case_when,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        std::vector<Datum> conditions;
        std::vector<Datum> values;
        for (size_t i = 0; i + 1 < arguments.size(); i += 2) {
          conditions.push_back(arguments[i]);
          values.push_back(arguments[i + 1]);
        }
        const Datum otherwise = arguments.size() % 2 == 1 ? arguments.back() : Datum();
        return case_when(conditions, values, otherwise, context.allocator);
      },
      reading_rows(case_when_rows_reading));
}

/// IN and BETWEEN.
void add_membership(FunctionRegistry& registry) {
  add(
      registry, {"in"}, {2, -1}, NullHandling::kCustom,
      "Whether the first argument equals one of the others; null when not found and any is "
      "null.",
      {"(T, T, T...) -> boolean"}, resolve_in,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return is_in(arguments[0], arguments.subspan(1), context.allocator);
      },
      reading_rows(in_rows_reading));
  add(registry, {"between"}, {3, 3}, NullHandling::kCustom,
      "Whether the first argument lies between the second and the third, inclusive.",
      {"(T, T, T) -> boolean"}, resolve_between,
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        return kleene_and(
            compare_coerced(CompareOp::kGreaterEqual, arguments[0], arguments[1], "between",
                            context),
            compare_coerced(CompareOp::kLessEqual, arguments[0], arguments[2], "between", context),
            context.allocator);
      });
}

}  // namespace

void register_predicate_functions(FunctionRegistry& registry) {
  add_comparisons(registry);
  add_logic(registry);
  add_null_tests(registry);
  add_conditionals(registry);
  add_membership(registry);
}

}  // namespace bowstring::compute
