#include "bowstring/expr/bind.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "bowstring/compute/core/coercion.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::expr {

using compute::AnalysisError;
using compute::Datum;

namespace {

using Kind = BoundNode::Kind;

bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && detail::ascii_lower(a) == detail::ascii_lower(b);
}

/// Spark quotes names in messages with backticks, always.
std::string sql_id(std::string_view name) {
  std::string out = "`";
  for (char c : name) {
    out += c;
    if (c == '`') {
      out += '`';
    }
  }
  return out + "`";
}

std::string quoted_type(const DataType& type) {
  std::string out = "\"";
  out += spark_type_name(type);
  out += '"';
  return out;
}

std::string sql_name(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) {
      out += '.';
    }
    out += sql_id(part);
  }
  return out;
}

/// Indices of the fields named `name`, ignoring case.
std::vector<int> matching_fields(const FieldVector& fields, std::string_view name) {
  std::vector<int> matches;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (equals_ignore_case(fields[i]->name(), name)) {
      matches.push_back(static_cast<int>(i));
    }
  }
  return matches;
}

/// Levenshtein distance, case-sensitive.
size_t edit_distance_exact(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// The columns suggested for an unknown `name`, as Spark orders them: by the edit distance
/// between the column's quoted name (`age`) and the name as typed, ties alphabetically; five
/// at most. (Orders checked against Spark 4.)
std::vector<std::string> suggested_columns(const std::string& name, const Schema& schema) {
  std::vector<std::string> candidates = schema.field_names();
  std::sort(candidates.begin(), candidates.end());
  std::vector<std::pair<size_t, std::string>> ranked;
  ranked.reserve(candidates.size());
  for (std::string& candidate : candidates) {
    ranked.emplace_back(edit_distance_exact(sql_id(candidate), name), std::move(candidate));
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  constexpr size_t kMaxSuggestions = 5;
  std::vector<std::string> out;
  for (size_t i = 0; i < ranked.size() && i < kMaxSuggestions; ++i) {
    out.push_back(std::move(ranked[i].second));
  }
  return out;
}

[[noreturn]] void throw_unresolved_column(const std::vector<std::string>& parts,
                                          const Schema& schema) {
  const std::vector<std::string> candidates = suggested_columns(parts.back(), schema);
  std::string message = "A column, variable, or function parameter with name " + sql_name(parts) +
                        " cannot be resolved.";
  if (candidates.empty()) {
    throw AnalysisError("UNRESOLVED_COLUMN.WITHOUT_SUGGESTION", message);
  }
  message += " Did you mean one of the following? [";
  for (size_t i = 0; i < candidates.size(); ++i) {
    message += (i > 0 ? ", " : "") + sql_id(candidates[i]);
  }
  throw AnalysisError("UNRESOLVED_COLUMN.WITH_SUGGESTION", message + "].");
}

/// Spark lists one candidate per matching field, each spelled as the reference was typed.
[[noreturn]] void throw_ambiguous(const std::vector<std::string>& parts, size_t matches) {
  std::string message = "Reference " + sql_name(parts) + " is ambiguous, could be: [";
  for (size_t i = 0; i < matches; ++i) {
    message += (i > 0 ? ", " : "") + sql_name(parts);
  }
  throw AnalysisError("AMBIGUOUS_REFERENCE", message + "].");
}

/// "Cannot resolve "<sql>" due to data type mismatch: <reason>", as Spark words type errors.
[[noreturn]] void throw_mismatch(std::string_view subclass, const std::string& sql,
                                 const std::string& reason) {
  throw AnalysisError("DATATYPE_MISMATCH." + std::string(subclass),
                      "Cannot resolve \"" + sql + "\" due to data type mismatch: " + reason);
}

std::string ordinal(size_t i) {
  static constexpr const char* kOrdinals[] = {"first", "second",  "third",  "fourth", "fifth",
                                              "sixth", "seventh", "eighth", "ninth",  "tenth"};
  return i < 10 ? kOrdinals[i] : std::to_string(i + 1) + "th";
}

/// The SQL texts of `nodes`.
std::vector<std::string> sql_texts(const std::vector<BoundNodePtr>& nodes) {
  std::vector<std::string> texts;
  texts.reserve(nodes.size());
  for (const BoundNodePtr& node : nodes) {
    texts.push_back(node->sql);
  }
  return texts;
}

/// The types of `nodes`.
std::vector<TypePtr> types_of(const std::vector<BoundNodePtr>& nodes) {
  std::vector<TypePtr> types;
  types.reserve(nodes.size());
  for (const BoundNodePtr& node : nodes) {
    types.push_back(node->type);
  }
  return types;
}

class Binder {
 public:
  Binder(const Schema& schema, std::span<const std::string> column_sql,
         const compute::FunctionRegistry& registry, compute::ExecContext& context)
      : schema_(schema), column_sql_(column_sql), registry_(registry), context_(context) {}

  BoundNodePtr bind(const Expression& expression) {
    using EKind = Expression::Kind;
    switch (expression.kind()) {
      case EKind::kColumn:
        return bind_column(expression.name());
      case EKind::kLiteral:
        return literal(expression.value());
      case EKind::kAlias:
        return bind(*expression.operands()[0]);
      case EKind::kCast:
        return fold(bind_cast(bind(*expression.operands()[0]), expression.cast_type(),
                              expression.is_try(), false));
      case EKind::kCall:
        return bind_call(expression.name(), bind_all(expression.operands()), expression.options());
      case EKind::kCaseWhen:
        return bind_case_when(bind_all(expression.operands()), expression.has_else());
      case EKind::kIn:
        return bind_call("in", bind_all(expression.operands()), {});
      case EKind::kIsNull:
      case EKind::kIsNotNull: {
        BoundNodePtr operand = bind(*expression.operands()[0]);
        const bool is_null = expression.kind() == EKind::kIsNull;
        return fold(make(is_null ? Kind::kIsNull : Kind::kIsNotNull, boolean(), false,
                         {std::move(operand)}, is_null ? "{0} IS NULL" : "{0} IS NOT NULL"));
      }
      case EKind::kAnd:
      case EKind::kOr:
        return bind_logical(expression.kind() == EKind::kAnd ? Kind::kAnd : Kind::kOr,
                            bind_all(expression.operands()));
      case EKind::kNot:
        return bind_logical(Kind::kNot, bind_all(expression.operands()));
    }
    throw InvalidArgument("unknown expression kind");
  }

 private:
  std::vector<BoundNodePtr> bind_all(const std::vector<ExprPtr>& operands) {
    std::vector<BoundNodePtr> out;
    out.reserve(operands.size());
    for (const ExprPtr& operand : operands) {
      out.push_back(bind(*operand));
    }
    return out;
  }

  /// A node of `kind` over `operands`; `pattern` gives its SQL text with {0}, {1}... standing
  /// for the operands' ("{0} + {1}" is printed in parentheses).
  static BoundNodePtr make(Kind kind, TypePtr type, bool nullable,
                           std::vector<BoundNodePtr> operands, std::string_view pattern) {
    std::vector<std::string> texts = sql_texts(operands);
    auto node = std::make_shared<BoundNode>();
    node->kind = kind;
    node->type = std::move(type);
    node->nullable = nullable;
    std::string sql;
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (pattern[i] == '{') {
        const size_t close = pattern.find('}', i);
        sql += texts[std::stoul(std::string(pattern.substr(i + 1, close - i - 1)))];
        i = close;
      } else {
        sql += pattern[i];
      }
    }
    node->sql = kind == Kind::kCaseWhen || kind == Kind::kCast ? sql : "(" + sql + ")";
    node->operands = std::move(operands);
    finish(*node);
    return node;
  }

  /// Fills in the referenced columns and determinism from the operands.
  static void finish(BoundNode& node) {
    for (const BoundNodePtr& operand : node.operands) {
      node.columns.insert(node.columns.end(), operand->columns.begin(), operand->columns.end());
      node.deterministic = node.deterministic && operand->deterministic;
    }
    if (node.function != nullptr && !node.function->deterministic()) {
      node.deterministic = false;
    }
    std::sort(node.columns.begin(), node.columns.end());
    node.columns.erase(std::unique(node.columns.begin(), node.columns.end()), node.columns.end());
  }

  static BoundNodePtr literal(const Datum& value) {
    auto node = std::make_shared<BoundNode>();
    node->kind = Kind::kLiteral;
    node->type = value.type();
    node->nullable = value.scalar_is_null();
    node->value = value;
    node->sql = detail::literal_sql(value, false);
    return node;
  }

  BoundNodePtr bind_column(const std::string& name) {
    const std::vector<std::string> parts = detail::name_parts(name);
    const std::vector<int> matches = matching_fields(schema_.fields(), parts[0]);
    if (matches.empty()) {
      throw_unresolved_column(parts, schema_);
    }
    if (matches.size() > 1) {
      throw_ambiguous(parts, matches.size());
    }
    auto node = std::make_shared<BoundNode>();
    node->kind = Kind::kColumn;
    FieldPtr field = schema_.field(matches[0]);
    node->path.push_back(matches[0]);
    node->columns.push_back(matches[0]);
    node->nullable = field->nullable();
    std::string sql =
        column_sql_.empty() ? detail::quote_identifier(field->name()) : column_sql_[matches[0]];
    for (size_t p = 1; p < parts.size(); ++p) {
      if (field->type()->id() != TypeId::kStruct) {
        throw AnalysisError("INVALID_EXTRACT_BASE_FIELD_TYPE",
                            "Can't extract a value from \"" + sql +
                                "\". Need a complex type [STRUCT, ARRAY, MAP] "
                                "but got " +
                                quoted_type(*field->type()) + ".");
      }
      const std::vector<int> children = matching_fields(field->type()->fields(), parts[p]);
      if (children.empty()) {
        std::string names;
        for (const FieldPtr& child : field->type()->fields()) {
          names += (names.empty() ? "" : ", ") + sql_id(child->name());
        }
        throw AnalysisError("FIELD_NOT_FOUND",
                            "No such struct field " + sql_id(parts[p]) + " in " + names + ".");
      }
      if (children.size() > 1) {
        throw_ambiguous(parts, children.size());
      }
      field = field->type()->field(children[0]);
      node->path.push_back(children[0]);
      node->nullable = node->nullable || field->nullable();
      sql += '.';
      sql += detail::quote_identifier(field->name());
    }
    node->type = field->type();
    node->sql = sql;
    return node;
  }

  /// A cast, evaluated by the registry's `cast` (or `try_cast`) function with the option `to`.
  BoundNodePtr bind_cast(BoundNodePtr operand, const TypePtr& to, bool is_try, bool implicit) {
    const std::string sql = std::string(is_try ? "TRY_CAST(" : "CAST(") + operand->sql + " AS " +
                            spark_type_name(*to) + ")";
    const compute::Function& function = registry_.get(is_try ? "try_cast" : "cast");
    compute::FunctionOptions options{{"to", to}};
    const TypePtr types[] = {operand->type};
    try {
      function.resolve_with(types, options,
                            compute::ResolveContext{context_.ansi, {}, context_.session_time_zone});
    } catch (const AnalysisError& error) {
      throw with_expression(error, sql);
    }
    auto node = std::make_shared<BoundNode>();
    node->kind = Kind::kCast;
    node->type = to;
    node->nullable = operand->nullable || is_try || !context_.ansi;
    node->function = static_cast<const compute::ScalarFunction*>(&function);
    node->options = std::move(options);
    node->is_try = is_try;
    node->implicit = implicit;
    node->sql = sql;
    node->operands.push_back(std::move(operand));
    finish(*node);
    return node;
  }

  /// `operand` as `to`: itself when it has that type already, else an implicit cast (a
  /// TRY_CAST for the arguments of a try_ function, which gives NULL where they raise).
  BoundNodePtr coerce(BoundNodePtr operand, const TypePtr& to, bool is_try = false) {
    if (operand->type->equals(*to)) {
      return operand;
    }
    return fold(bind_cast(std::move(operand), to, is_try, true));
  }

  BoundNodePtr bind_call(const std::string& name, std::vector<BoundNodePtr> arguments,
                         const compute::FunctionOptions& options) {
    const std::string key = detail::ascii_lower(name);
    if (key == "if" || key == "coalesce" || key == "nvl" || key == "ifnull") {
      return bind_conditional(key, std::move(arguments));
    }
    if ((key == "and" || key == "or") && arguments.size() == 2) {
      return bind_logical(key == "and" ? Kind::kAnd : Kind::kOr, std::move(arguments));
    }
    if ((key == "not" || key == "!") && arguments.size() == 1) {
      return bind_logical(Kind::kNot, std::move(arguments));
    }
    const compute::Function& function = registry_.get(name);
    const std::string sql = detail::call_sql(function.name(), sql_texts(arguments));
    if (function.kind() != compute::Function::Kind::kScalar) {
      throw AnalysisError("UNSUPPORTED_EXPR_FOR_OPERATOR",
                          "The aggregate function " + sql_id(function.name()) +
                              " cannot be evaluated row by row, in \"" + sql + "\".");
    }
    function.check_arity(static_cast<int64_t>(arguments.size()));
    const std::vector<TypePtr> types = types_of(arguments);
    std::vector<const Datum*> constants;
    constants.reserve(arguments.size());
    for (const BoundNodePtr& argument : arguments) {
      constants.push_back(argument->kind == Kind::kLiteral ? &argument->value : nullptr);
    }
    compute::Resolution resolution;
    try {
      resolution = function.resolve_with(
          types, options,
          compute::ResolveContext{context_.ansi, constants, context_.session_time_zone});
    } catch (const AnalysisError& error) {
      throw with_expression(error, sql);
    }
    bool any_nullable = false;
    for (size_t i = 0; i < arguments.size(); ++i) {
      arguments[i] =
          coerce(std::move(arguments[i]), resolution.arguments[i], function.null_on_error());
      any_nullable = any_nullable || arguments[i]->nullable;
    }
    auto node = std::make_shared<BoundNode>();
    node->kind = Kind::kCall;
    node->type = resolution.output;
    node->nullable = any_nullable || function.null_handling() != compute::NullHandling::kPropagates;
    node->function = static_cast<const compute::ScalarFunction*>(&function);
    node->options = options;
    node->sql = detail::call_sql(function.name(), sql_texts(arguments));
    node->operands = std::move(arguments);
    finish(*node);
    return fold(node);
  }

  /// The type error of a function, worded as Spark words it: naming the whole expression.
  static AnalysisError with_expression(const AnalysisError& error, const std::string& sql) {
    std::string message = error.what();
    const std::string prefix = "[" + error.condition() + "] ";
    if (message.starts_with(prefix)) {
      message.erase(0, prefix.size());
    }
    if (error.condition().starts_with("DATATYPE_MISMATCH")) {
      // Spark names the whole expression; a function knows only its own name.
      static constexpr std::string_view kHead = "Cannot resolve \"";
      static constexpr std::string_view kTail = "\" due to data type mismatch: ";
      const size_t tail = message.find(kTail);
      if (message.starts_with(kHead) && tail != std::string::npos) {
        message.erase(0, tail + kTail.size());
      }
      message = std::string(kHead) + sql + std::string(kTail) + message;
    }
    return AnalysisError(error.condition(), message);
  }

  /// The common type of `operands` (CASE values, COALESCE arguments); DATA_DIFF_TYPES naming
  /// `function` when there is none.
  TypePtr common_type(const std::vector<BoundNodePtr>& operands, const std::string& function,
                      const std::string& sql) {
    const std::vector<TypePtr> types = types_of(operands);
    const std::optional<TypePtr> common = compute::wider_common_type(types);
    if (!common.has_value()) {
      std::string names;
      for (const BoundNodePtr& operand : operands) {
        names += (names.empty() ? "" : ", ") + quoted_type(*operand->type);
      }
      throw_mismatch("DATA_DIFF_TYPES", sql,
                     "Input to " + sql_id(function) + " should all be the same type, but it's [" +
                         names + "].");
    }
    return *common;
  }

  /// NULL and STRING operands of NOT, AND and OR are cast to BOOLEAN, as Spark does.
  BoundNodePtr boolean_operand(BoundNodePtr operand) {
    const TypeId id = operand->type->id();
    if (id == TypeId::kNull || operand->type->is_string()) {
      return coerce(std::move(operand), boolean());
    }
    return operand;
  }

  BoundNodePtr bind_logical(Kind kind, std::vector<BoundNodePtr> operands) {
    const std::string sql = kind == Kind::kNot
                                ? "(NOT " + operands[0]->sql + ")"
                                : "(" + operands[0]->sql + (kind == Kind::kAnd ? " AND " : " OR ") +
                                      operands[1]->sql + ")";
    // Without ANSI, Spark has no implicit cast from STRING to BOOLEAN, and beside a STRING a
    // NULL stays VOID: 'x' AND true and NULL AND 'x' are BINARY_OP_DIFF_TYPES.
    const bool cast_operands =
        context_.ansi || std::none_of(operands.begin(), operands.end(), [](const auto& operand) {
          return operand->type->is_string();
        });
    bool nullable = false;
    for (BoundNodePtr& operand : operands) {
      if (cast_operands) {
        operand = boolean_operand(std::move(operand));
      }
      nullable = nullable || operand->nullable;
    }
    if (kind == Kind::kNot && operands[0]->type->id() != TypeId::kBoolean) {
      throw_mismatch("UNEXPECTED_INPUT_TYPE", sql,
                     "The first parameter requires the \"BOOLEAN\" type, however \"" +
                         operands[0]->sql + "\" has the type " + quoted_type(*operands[0]->type) +
                         ".");
    }
    if (kind != Kind::kNot) {
      const DataType& left = *operands[0]->type;
      const DataType& right = *operands[1]->type;
      if (!left.equals(right)) {
        throw_mismatch("BINARY_OP_DIFF_TYPES", sql,
                       "the left and right operands of the binary operator have incompatible "
                       "types (" +
                           quoted_type(left) + " and " + quoted_type(right) + ").");
      }
      if (left.id() != TypeId::kBoolean) {
        throw_mismatch("BINARY_OP_WRONG_TYPE", sql,
                       "the binary operator requires the input type \"BOOLEAN\", not " +
                           quoted_type(left) + ".");
      }
    }
    const std::string_view pattern =
        kind == Kind::kNot ? "NOT {0}" : (kind == Kind::kAnd ? "{0} AND {1}" : "{0} OR {1}");
    return fold(make(kind, boolean(), nullable, std::move(operands), pattern));
  }

  BoundNodePtr bind_case_when(std::vector<BoundNodePtr> operands, bool has_else) {
    std::string sql = "CASE";
    const size_t branches = (operands.size() - (has_else ? 1 : 0)) / 2;
    for (size_t i = 0; i < branches; ++i) {
      sql += " WHEN " + operands[2 * i]->sql + " THEN " + operands[2 * i + 1]->sql;
    }
    if (has_else) {
      sql += " ELSE " + operands.back()->sql;
    }
    sql += " END";
    for (size_t i = 0; i < branches; ++i) {
      const BoundNodePtr& condition = operands[2 * i];
      // Unlike IF, Spark's CASE WHEN refuses an untyped NULL condition.
      if (condition->type->id() != TypeId::kBoolean) {
        throw_mismatch("UNEXPECTED_INPUT_TYPE", sql,
                       "The " + ordinal(2 * i) + " parameter requires the \"BOOLEAN\" type, " +
                           "however \"" + condition->sql + "\" has the type " +
                           quoted_type(*condition->type) + ".");
      }
    }
    std::vector<BoundNodePtr> values;
    for (size_t i = 0; i < branches; ++i) {
      values.push_back(operands[2 * i + 1]);
    }
    if (has_else) {
      values.push_back(operands.back());
    }
    const TypePtr type = common_type(values, "casewhen", sql);
    if (!has_else) {
      operands.push_back(literal(Datum::null_scalar(type)));
    }
    bool nullable = false;
    std::string pattern = "CASE";
    for (size_t i = 0; i < branches; ++i) {
      operands[2 * i + 1] = coerce(operands[2 * i + 1], type);
      nullable = nullable || operands[2 * i + 1]->nullable;
      pattern += " WHEN {" + std::to_string(2 * i) + "} THEN {" + std::to_string(2 * i + 1) + "}";
    }
    operands.back() = coerce(operands.back(), type);
    nullable = nullable || operands.back()->nullable;
    if (has_else) {
      pattern += " ELSE {" + std::to_string(operands.size() - 1) + "}";
    }
    pattern += " END";
    return fold(make(Kind::kCaseWhen, type, nullable, std::move(operands), pattern));
  }

  /// if, coalesce, nvl and ifnull, which evaluate each argument only on the rows that need it.
  BoundNodePtr bind_conditional(const std::string& name, std::vector<BoundNodePtr> arguments) {
    std::vector<std::string> texts = sql_texts(arguments);
    const std::string sql = detail::call_sql(name, texts);
    const size_t expected = name == "if" ? 3 : (name == "coalesce" ? 0 : 2);
    if ((expected != 0 && arguments.size() != expected) || arguments.empty()) {
      throw AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                          "The " + sql_id(name) + " requires " +
                              (expected == 0 ? std::string("> 0") : std::to_string(expected)) +
                              " parameters but the actual number is " +
                              std::to_string(arguments.size()) + ".");
    }
    if (name == "if") {
      if (arguments[0]->type->id() != TypeId::kBoolean &&
          arguments[0]->type->id() != TypeId::kNull) {
        throw_mismatch("UNEXPECTED_INPUT_TYPE", sql,
                       "The first parameter requires the \"BOOLEAN\" type, however \"" +
                           arguments[0]->sql + "\" has the type " +
                           quoted_type(*arguments[0]->type) + ".");
      }
      const TypePtr type = common_type({arguments[1], arguments[2]}, "if", sql);
      std::vector<BoundNodePtr> operands = {coerce(arguments[0], boolean()),
                                            coerce(arguments[1], type), coerce(arguments[2], type)};
      const bool nullable = operands[1]->nullable || operands[2]->nullable;
      return fold(
          make(Kind::kCaseWhen, type, nullable, std::move(operands), "(IF({0}, {1}, {2}))"));
    }
    const TypePtr type = common_type(arguments, name, sql);
    bool nullable = true;
    std::string pattern = name + "(";
    for (size_t i = 0; i < arguments.size(); ++i) {
      arguments[i] = coerce(arguments[i], type);
      nullable = nullable && arguments[i]->nullable;
      pattern += (i > 0 ? ", {" : "{") + std::to_string(i) + "}";
    }
    BoundNodePtr node = make(Kind::kCoalesce, type, nullable, std::move(arguments), pattern + ")");
    // make() wraps operators in parentheses; a function call has none.
    std::const_pointer_cast<BoundNode>(node)->sql = node->sql.substr(1, node->sql.size() - 2);
    return fold(node);
  }

  /// `node` replaced by a literal of its value when it is deterministic and all its operands
  /// are literals; kept as it is when evaluating it raises (the error belongs to run time).
  BoundNodePtr fold(BoundNodePtr node) {
    if (node->kind == Kind::kLiteral || node->kind == Kind::kColumn || !node->deterministic) {
      return node;
    }
    for (const BoundNodePtr& operand : node->operands) {
      if (operand->kind != Kind::kLiteral) {
        return node;
      }
    }
    Datum value;
    try {
      value =
          BoundExpression(node, {}).evaluate(RecordBatch(bowstring::schema({}), 1, {}), context_);
    } catch (const Error&) {
      return node;
    }
    if (!value.is_scalar()) {
      value = Datum::scalar(value.array());
    }
    BoundNodePtr folded = literal(value);
    // A folded implicit cast keeps its declared type even when the kernel's scalar differs.
    if (!folded->type->equals(*node->type)) {
      return node;
    }
    return folded;
  }

  const Schema& schema_;
  std::span<const std::string> column_sql_;
  const compute::FunctionRegistry& registry_;
  compute::ExecContext& context_;
};

}  // namespace

BoundExpression::BoundExpression(BoundNodePtr root, std::string output_name)
    : root_(std::move(root)), output_name_(std::move(output_name)) {}

FieldPtr BoundExpression::field() const {
  return bowstring::field(output_name_, root_->type, root_->nullable);
}

BoundExpression bind_expression(const ExprPtr& expression, const Schema& schema,
                                const compute::FunctionRegistry& registry,
                                compute::ExecContext* context,
                                std::span<const std::string> column_sql) {
  if (expression == nullptr) {
    throw InvalidArgument("bind needs an expression");
  }
  if (!column_sql.empty() && column_sql.size() != static_cast<size_t>(schema.num_fields())) {
    throw InvalidArgument("bind needs one column text per field of the schema");
  }
  compute::ExecContext default_context;
  Binder binder(schema, column_sql, registry, context != nullptr ? *context : default_context);
  return BoundExpression(binder.bind(*expression), expression->output_name());
}

}  // namespace bowstring::expr
