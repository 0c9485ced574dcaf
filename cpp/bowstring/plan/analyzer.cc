#include "bowstring/plan/analyzer.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bowstring/compute/collection/generators.h"
#include "bowstring/compute/core/coercion.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/expr/bind.h"
#include "bowstring/plan/expression_util.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"
#include "bowstring/util/suggest.h"

namespace bowstring::plan {

namespace {

using compute::AnalysisError;
using expr::Expression;
using expr::ExprPtr;
using EKind = Expression::Kind;
using Kind = LogicalPlan::Kind;

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && expr::detail::ascii_lower(a) == expr::detail::ascii_lower(b);
}

std::string quoted(std::string_view name) { return expr::detail::quote_identifier(name); }

/// A name in backticks, as Spark's messages always print identifiers.
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

/// The name Spark gives the column a resolved expression over `input` produces.
std::string user_output_name(const ExprPtr& resolved, const std::vector<Attribute>& input) {
  return resolved->output_name([&](const std::string& column) {
    const std::optional<AttributeId> id = attribute_of(column);
    std::vector<std::string> parts = expr::detail::name_parts(column);
    std::string out = parts[0];
    for (const Attribute& attribute : input) {
      if (id && attribute.id == *id) {
        out = attribute.name;
      }
    }
    for (size_t p = 1; p < parts.size(); ++p) {
      out += '.';
      out += parts[p];
    }
    return out;
  });
}

/// The attribute as Spark names it in messages: `l`.`id` when qualified, else `id`.
std::string qualified_name(const Attribute& attribute) {
  return attribute.qualifier.empty() ? sql_id(attribute.name)
                                     : sql_id(attribute.qualifier) + "." + sql_id(attribute.name);
}

std::string typed_name(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) {
      out += '.';
    }
    out += sql_id(part);
  }
  return out;
}

std::string quoted_type(const TypePtr& type) { return "\"" + spark_type_name(*type) + "\""; }

std::string ordinal(size_t i) {
  static constexpr const char* kOrdinals[] = {"first", "second",  "third",  "fourth", "fifth",
                                              "sixth", "seventh", "eighth", "ninth",  "tenth"};
  return i < 10 ? kOrdinals[i] : std::to_string(i + 1) + "th";
}

[[noreturn]] void throw_unresolved(const std::vector<std::string>& parts,
                                   const std::vector<Attribute>& input) {
  std::vector<std::string> candidates;
  for (const Attribute& attribute : input) {
    candidates.push_back(qualified_name(attribute));
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  const std::string typed = typed_name(parts);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](const std::string& a, const std::string& b) {
                     return edit_distance(a, typed) < edit_distance(b, typed);
                   });
  std::string message =
      "A column, variable, or function parameter with name " + typed + " cannot be resolved.";
  if (candidates.empty()) {
    throw AnalysisError("UNRESOLVED_COLUMN.WITHOUT_SUGGESTION", message);
  }
  constexpr size_t kMaxSuggestions = 5;
  message += " Did you mean one of the following? [";
  for (size_t i = 0; i < candidates.size() && i < kMaxSuggestions; ++i) {
    message += (i > 0 ? ", " : "") + candidates[i];
  }
  throw AnalysisError("UNRESOLVED_COLUMN.WITH_SUGGESTION", message + "].");
}

/// Whether `expression` calls an aggregate function of `registry` anywhere.
/// (`grouping` and `grouping_id` count as aggregates: they exist only in aggregations.)
bool has_aggregate(const ExprPtr& expression, const compute::FunctionRegistry& registry) {
  if (expression->kind() == EKind::kCall) {
    const std::string name = expr::detail::ascii_lower(expression->name());
    if (name == "grouping" || name == "grouping_id") {
      return true;
    }
    const compute::Function* function = registry.find(expression->name());
    if (function != nullptr && function->kind() == compute::Function::Kind::kAggregate) {
      return true;
    }
  }
  return std::any_of(expression->operands().begin(), expression->operands().end(),
                     [&](const ExprPtr& operand) { return has_aggregate(operand, registry); });
}

/// Aggregates that count never return null.
bool aggregate_nullable(const compute::Function& function) {
  static constexpr std::string_view kNeverNull[] = {"count", "count_if", "approx_count_distinct"};
  return std::find(std::begin(kNeverNull), std::end(kNeverNull), function.name()) ==
         std::end(kNeverNull);
}

ExprPtr strip_alias(const ExprPtr& expression) {
  return expression->kind() == EKind::kAlias ? expression->operands()[0] : expression;
}

/// A column reference to a whole attribute (no struct field path), or nullopt.
std::optional<AttributeId> whole_attribute(const ExprPtr& expression) {
  if (expression->kind() != EKind::kColumn || expression->name().find('.') != std::string::npos) {
    return std::nullopt;
  }
  return attribute_of(expression->name());
}

std::shared_ptr<LogicalPlan> resolved_node(const LogicalPlan& plan, std::vector<PlanPtr> children,
                                           std::vector<Attribute> output) {
  auto node = std::make_shared<LogicalPlan>(plan);
  node->children = std::move(children);
  node->output = std::move(output);
  node->resolved = true;
  return node;
}

class Analyzer {
 public:
  explicit Analyzer(const AnalyzerOptions& options)
      : registry_(*options.registry), context_(options.context) {}

  PlanPtr resolve(const PlanPtr& plan) {
    if (plan->resolved) {
      return plan;
    }
    std::vector<PlanPtr> children;
    children.reserve(plan->children.size());
    for (const PlanPtr& child : plan->children) {
      children.push_back(resolve(child));
    }
    switch (plan->kind) {
      case Kind::kLocalRelation:
        return resolve_local_relation(*plan);
      case Kind::kRange:
        return resolved_node(*plan, {}, {Attribute{new_attribute_id(), "id", int64(), false, {}}});
      case Kind::kFileScan:
        return resolve_file_scan(*plan);
      case Kind::kProject:
        return resolve_project(*plan, children[0]);
      case Kind::kFilter:
        return resolve_filter(*plan, children[0]);
      case Kind::kAggregate:
        if (!plan->grouping_sets.empty()) {
          return resolve_grouping_sets(*plan, children[0]);
        }
        return resolve_aggregate(children[0], plan->grouping, plan->expressions);
      case Kind::kSort:
        return resolve_sort(*plan, children[0]);
      case Kind::kLimit:
        return resolved_node(*plan, children, children[0]->output);
      case Kind::kUnion:
        return resolve_union(*plan, std::move(children));
      case Kind::kDistinct:
        return resolve_distinct(children[0]);
      case Kind::kSubqueryAlias: {
        std::vector<Attribute> output = children[0]->output;
        for (Attribute& attribute : output) {
          attribute.qualifier = plan->alias;
        }
        return resolved_node(*plan, children, std::move(output));
      }
      case Kind::kJoin:
        return resolve_join(*plan, std::move(children));
      case Kind::kSetOperation:
        return resolve_set_operation(*plan, children[0], children[1]);
      case Kind::kDeduplicate:
        return resolve_deduplicate(*plan, children[0]);
      case Kind::kSample:
      case Kind::kCache:
        return resolved_node(*plan, children, children[0]->output);
      case Kind::kRepartition: {
        auto node = resolved_node(*plan, children, children[0]->output);
        for (ExprPtr& key : node->grouping) {
          key = strip_alias(resolve_columns(key, children[0]->output));
          bind(key, children[0]->output);
        }
        return node;
      }
      case Kind::kWindow:
        return resolve_window(*plan, children[0]);
      case Kind::kExpand:
      case Kind::kReplicate:
      case Kind::kGenerate:
        throw InvalidArgument(std::string(plan->node_name()) +
                              " nodes are made by the analyzer, resolved");
    }
    throw InvalidArgument("unknown plan node");
  }

 private:
  static PlanPtr resolve_file_scan(const LogicalPlan& plan) {
    auto scan = std::make_shared<FileScan>(*plan.file_scan);
    scan->attributes.clear();
    for (const FieldPtr& field : scan->relation->schema->fields()) {
      scan->attributes.push_back(
          Attribute{new_attribute_id(), field->name(), field->type(), field->nullable(), {}});
    }
    auto node = resolved_node(plan, {}, scan->attributes);
    node->file_scan = std::move(scan);
    return node;
  }

  PlanPtr resolve_local_relation(const LogicalPlan& plan) {
    std::vector<Attribute> output;
    for (const FieldPtr& field : plan.table->schema()->fields()) {
      output.push_back(
          Attribute{new_attribute_id(), field->name(), field->type(), field->nullable(), {}});
    }
    return resolved_node(plan, {}, std::move(output));
  }

  /// The internal column name `name` (as the user typed it) refers to among `input`.
  std::string resolve_name(const std::string& name, const std::vector<Attribute>& input) {
    if (attribute_of(name)) {
      return name;
    }
    const std::vector<std::string> parts = expr::detail::name_parts(name);
    std::vector<std::pair<const Attribute*, size_t>> matches;
    auto add = [&](const Attribute& attribute, size_t consumed) {
      const bool seen = std::any_of(matches.begin(), matches.end(),
                                    [&](const auto& m) { return m.first->id == attribute.id; });
      if (!seen) {
        matches.emplace_back(&attribute, consumed);
      }
    };
    if (parts.size() >= 2) {
      for (const Attribute& attribute : input) {
        if (!attribute.qualifier.empty() && same_name(attribute.qualifier, parts[0]) &&
            same_name(attribute.name, parts[1])) {
          add(attribute, 2);
        }
      }
    }
    if (matches.empty()) {
      for (const Attribute& attribute : input) {
        if (same_name(attribute.name, parts[0])) {
          add(attribute, 1);
        }
      }
    }
    if (matches.empty()) {
      throw_unresolved(parts, input);
    }
    if (matches.size() > 1) {
      std::string message = "Reference " + typed_name(parts) + " is ambiguous, could be: [";
      for (size_t i = 0; i < matches.size(); ++i) {
        message += (i > 0 ? ", " : "") + qualified_name(*matches[i].first);
      }
      throw AnalysisError("AMBIGUOUS_REFERENCE", message + "].");
    }
    std::string out = column_name(matches[0].first->id);
    for (size_t p = matches[0].second; p < parts.size(); ++p) {
      out += "." + quoted(parts[p]);
    }
    return out;
  }

  ExprPtr resolve_columns(const ExprPtr& expression, const std::vector<Attribute>& input) {
    return transform(expression, [&](const ExprPtr& node) -> ExprPtr {
      if (node->kind() != EKind::kColumn) {
        return nullptr;
      }
      if (node->name() == "*" || node->name().ends_with(".*")) {
        throw AnalysisError(
            "INVALID_USAGE_OF_STAR_OR_REGEX",
            "Invalid usage of '*' in expression \"" + expression->to_string() + "\".");
      }
      return expr::col(resolve_name(node->name(), input));
    });
  }

  /// Binds a resolved expression to the columns of `input`, for its type; messages name the
  /// columns as the user does.
  expr::BoundExpression bind(const ExprPtr& resolved, const std::vector<Attribute>& input) {
    std::vector<std::string> names;
    names.reserve(input.size());
    for (const Attribute& attribute : input) {
      names.push_back(quoted(attribute.name));
    }
    return expr::bind_expression(resolved, *internal_schema(input), registry_, &context_, names);
  }

  /// The new attribute a computed expression produces.
  Attribute computed(const ExprPtr& original, const expr::BoundExpression& bound) {
    return Attribute{
        new_attribute_id(), original->output_name(), bound.type(), bound.nullable(), {}};
  }

  /// The output attribute of `original` (resolved to `resolved`): the input attribute itself
  /// when the expression is a reference to it under its own name, a new one otherwise.
  Attribute output_of(const ExprPtr& original, const ExprPtr& resolved,
                      const std::vector<Attribute>& input) {
    if (const std::optional<AttributeId> id = whole_attribute(resolved)) {
      const auto found =
          std::find_if(input.begin(), input.end(), [&](const Attribute& a) { return a.id == *id; });
      // A reference by id (which the analyzer's own rewrites make) keeps the column's name.
      const bool by_id = whole_attribute(original).has_value();
      if (found != input.end() && (by_id || found->name == original->output_name())) {
        return *found;
      }
    }
    return computed(original, bind(resolved, input));
  }

  /// Expands `*` and `t.*` into references to the input's columns; nullopt for other
  /// expressions.
  std::optional<std::vector<Attribute>> expand_star(const ExprPtr& expression,
                                                    const std::vector<Attribute>& input) {
    if (expression->kind() != EKind::kColumn) {
      return std::nullopt;
    }
    const std::string& name = expression->name();
    if (name == "*") {
      return input;
    }
    if (!name.ends_with(".*")) {
      return std::nullopt;
    }
    const std::vector<std::string> parts =
        expr::detail::name_parts(std::string_view(name).substr(0, name.size() - 2));
    std::vector<Attribute> out;
    for (const Attribute& attribute : input) {
      if (parts.size() == 1 && same_name(attribute.qualifier, parts[0])) {
        out.push_back(attribute);
      }
    }
    if (out.empty()) {
      std::string columns;
      for (const Attribute& attribute : input) {
        columns += (columns.empty() ? "" : ", ") + quoted(attribute.name);
      }
      throw AnalysisError("CANNOT_RESOLVE_STAR_EXPAND",
                          "Cannot resolve " + typed_name(parts) + ".* given input columns " +
                              columns +
                              ". Please check that the specified table or struct exists and is "
                              "accessible in the input columns.");
    }
    return out;
  }

  /// The result type and nullability of a window function over arguments of `types`.
  std::pair<TypePtr, bool> window_result(const ExprPtr& call, const std::vector<TypePtr>& types,
                                         const std::vector<const compute::Datum*>& constants) {
    const std::string name = expr::detail::ascii_lower(call->name());
    if (name == "row_number" || name == "rank" || name == "dense_rank" || name == "ntile") {
      return {int32(), false};
    }
    if (name == "percent_rank" || name == "cume_dist") {
      return {float64(), false};
    }
    static constexpr std::string_view kValueFunctions[] = {
        "lag", "lead", "first_value", "last_value", "nth_value", "first", "last"};
    if (std::find(std::begin(kValueFunctions), std::end(kValueFunctions), name) !=
        std::end(kValueFunctions)) {
      if (types.empty()) {
        throw AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                            "The `" + name +
                                "` requires at least 1 parameters but the actual "
                                "number is 0.");
      }
      return {types[0], true};
    }
    const compute::Function& function = registry_.get(call->name());
    if (function.kind() != compute::Function::Kind::kAggregate) {
      throw AnalysisError(
          "UNSUPPORTED_EXPR_FOR_WINDOW",
          "Expression \"" + call->name() + "\" not supported within a window function.");
    }
    function.check_arity(static_cast<int64_t>(types.size()));
    const compute::Resolution resolution = function.resolve_with(
        types, call->options(),
        compute::ResolveContext{context_.ansi, constants, context_.session_time_zone});
    return {resolution.output, aggregate_nullable(function)};
  }

  /// Spark's name of a window column: "rank() OVER (PARTITION BY k ORDER BY v ASC NULLS
  /// FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)".
  static std::string window_name(const WindowExpression& window, bool ranking) {
    std::string spec;
    if (!window.partition_by.empty()) {
      spec += "PARTITION BY ";
      for (size_t i = 0; i < window.partition_by.size(); ++i) {
        spec += (i > 0 ? ", " : "") + window.partition_by[i]->output_name();
      }
    }
    if (!window.order_by.empty()) {
      spec += std::string(spec.empty() ? "" : " ") + "ORDER BY ";
      for (size_t i = 0; i < window.order_by.size(); ++i) {
        const SortOrder& order = window.order_by[i];
        spec += (i > 0 ? ", " : "") + order.expression->output_name() +
                (order.key.ascending ? " ASC" : " DESC") +
                (order.key.nulls_go_first() ? " NULLS FIRST" : " NULLS LAST");
      }
    }
    auto bound = [](const compute::FrameBound& bound, bool start) -> std::string {
      switch (bound.kind) {
        case compute::FrameBound::Kind::kUnboundedPreceding:
          return "UNBOUNDED PRECEDING";
        case compute::FrameBound::Kind::kUnboundedFollowing:
          return "UNBOUNDED FOLLOWING";
        case compute::FrameBound::Kind::kCurrentRow:
          return "CURRENT ROW";
        case compute::FrameBound::Kind::kOffset: {
          std::string value = expr::detail::literal_sql(bound.offset, true);
          const bool negative = !value.empty() && value[0] == '-';
          if (negative && start) {
            return value.substr(1) + " PRECEDING";
          }
          return value + " FOLLOWING";
        }
      }
      return {};
    };
    std::string frame;
    if (window.frame) {
      frame = std::string(window.frame->unit == compute::FrameUnit::kRows ? "ROWS" : "RANGE") +
              " BETWEEN " + bound(window.frame->start, true) + " AND " +
              bound(window.frame->end, false);
    } else if (ranking || window.order_by.empty()) {
      frame = window.order_by.empty() && !ranking
                  ? "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"
                  : "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
    } else {
      frame = "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
    }
    return window.function->output_name() + " OVER (" + spec + (spec.empty() ? "" : " ") + frame +
           ")";
  }

  /// Window expressions: resolved over the child, grouped by their partitioning and ordering
  /// into one Window node each (chained), then projected into the order asked for.
  PlanPtr resolve_window(const LogicalPlan& plan, const PlanPtr& child) {
    const std::vector<Attribute>& input = child->output;
    struct Resolved {
      WindowExpression window;
      Attribute attribute;
      std::string spec;
    };
    std::vector<Resolved> resolved;
    for (const WindowExpression& original : plan.windows) {
      WindowExpression window = original;
      std::vector<ExprPtr> arguments;
      std::vector<TypePtr> types;
      std::vector<expr::BoundExpression> bound;
      for (const ExprPtr& argument : original.function->operands()) {
        arguments.push_back(resolve_columns(argument, input));
        bound.push_back(bind(arguments.back(), input));
        types.push_back(bound.back().type());
      }
      std::vector<const compute::Datum*> constants;
      for (const expr::BoundExpression& argument : bound) {
        constants.push_back(argument.root().kind == expr::BoundNode::Kind::kLiteral
                                ? &argument.root().value
                                : nullptr);
      }
      const auto [type, nullable] = window_result(original.function, types, constants);
      window.function =
          expr::call(original.function->name(), arguments, original.function->options());
      std::string spec;
      for (ExprPtr& key : window.partition_by) {
        key = strip_alias(resolve_columns(key, input));
        bind(key, input);
        spec += key->to_string() + ",";
      }
      spec += "|";
      std::vector<TypePtr> order_types;
      for (SortOrder& order : window.order_by) {
        order.expression = strip_alias(resolve_columns(order.expression, input));
        order_types.push_back(bind(order.expression, input).type());
        spec += order.expression->to_string() + (order.key.ascending ? " a" : " d") +
                (order.key.nulls_go_first() ? "f," : "l,");
      }
      if (window.frame) {
        compute::check_window_frame(*window.frame, order_types);
      }
      const std::string lowered = expr::detail::ascii_lower(original.function->name());
      const bool ranking = lowered == "row_number" || lowered == "rank" ||
                           lowered == "dense_rank" || lowered == "percent_rank" ||
                           lowered == "cume_dist" || lowered == "ntile";
      const std::string name =
          original.name.empty() ? window_name(original, ranking) : original.name;
      resolved.push_back(
          {std::move(window), Attribute{new_attribute_id(), name, type, nullable, {}}, spec});
    }
    PlanPtr current = child;
    std::vector<std::string> specs;
    for (const Resolved& entry : resolved) {
      if (std::find(specs.begin(), specs.end(), entry.spec) == specs.end()) {
        specs.push_back(entry.spec);
      }
    }
    for (const std::string& spec : specs) {
      auto node = std::make_shared<LogicalPlan>(Kind::kWindow);
      node->children = {current};
      node->resolved = true;
      node->output = current->output;
      for (const Resolved& entry : resolved) {
        if (entry.spec == spec) {
          node->grouping = entry.window.partition_by;
          node->orders = entry.window.order_by;
          node->windows.push_back(entry.window);
          node->output.push_back(entry.attribute);
        }
      }
      current = node;
    }
    if (specs.size() == 1) {
      return current;
    }
    auto ordered = std::make_shared<LogicalPlan>(Kind::kProject);
    ordered->children = {current};
    ordered->resolved = true;
    ordered->output = input;
    for (const Resolved& entry : resolved) {
      ordered->output.push_back(entry.attribute);
    }
    for (const Attribute& attribute : ordered->output) {
      ordered->expressions.push_back(expr::col(column_name(attribute.id)));
    }
    return ordered;
  }

  /// A projection selecting a generator call (explode(xs), explode(xs).alias("x")...): a
  /// Generate node under it makes the generator's rows, and the projection reads its columns.
  /// Nullptr when the projection selects no generator.
  PlanPtr resolve_generator_project(const LogicalPlan& plan, const PlanPtr& child) {
    std::optional<size_t> position;
    for (size_t i = 0; i < plan.expressions.size(); ++i) {
      const ExprPtr value = strip_alias(plan.expressions[i]);
      if (value->kind() == EKind::kCall && compute::find_generator(value->name()) != nullptr) {
        if (position) {
          throw AnalysisError("UNSUPPORTED_GENERATOR.MULTI_GENERATOR",
                              "The generator is not supported: only one generator allowed per "
                              "SELECT clause but found 2: \"" +
                                  strip_alias(plan.expressions[*position])->to_string() + "\", \"" +
                                  value->to_string() + "\".");
        }
        position = i;
      }
    }
    if (!position) {
      return nullptr;
    }
    const ExprPtr original = plan.expressions[*position];
    const ExprPtr call = strip_alias(original);
    const compute::Generator& generator = *compute::find_generator(call->name());
    generator.check_arity(static_cast<int64_t>(call->operands().size()));
    std::vector<ExprPtr> arguments;
    std::vector<TypePtr> types;
    std::vector<expr::BoundExpression> bound;
    for (const ExprPtr& argument : call->operands()) {
      arguments.push_back(resolve_columns(argument, child->output));
      bound.push_back(bind(arguments.back(), child->output));
      types.push_back(bound.back().type());
    }
    std::vector<const compute::Datum*> constants;
    for (const expr::BoundExpression& argument : bound) {
      constants.push_back(argument.root().kind == expr::BoundNode::Kind::kLiteral
                              ? &argument.root().value
                              : nullptr);
    }
    const FieldVector fields = generator.output_fields(
        types, compute::ResolveContext{context_.ansi, constants, context_.session_time_zone});
    auto generate = std::make_shared<LogicalPlan>(Kind::kGenerate);
    generate->children = {child};
    generate->resolved = true;
    generate->expressions = {expr::call(generator.name(), arguments, call->options())};
    generate->output = child->output;
    std::vector<Attribute> generated;
    for (const FieldPtr& field : fields) {
      // One output column takes the alias; several keep Spark's names.
      const std::string name = original->kind() == EKind::kAlias && fields.size() == 1
                                   ? original->name()
                                   : field->name();
      generated.push_back(
          Attribute{new_attribute_id(), name, field->type(), field->nullable(), {}});
    }
    generate->output.insert(generate->output.end(), generated.begin(), generated.end());
    std::vector<ExprPtr> expressions;
    for (size_t i = 0; i < plan.expressions.size(); ++i) {
      if (i == *position) {
        for (const Attribute& attribute : generated) {
          expressions.push_back(expr::col(column_name(attribute.id)));
        }
      } else {
        expressions.push_back(plan.expressions[i]);
      }
    }
    auto above = std::make_shared<LogicalPlan>(plan);
    above->expressions = std::move(expressions);
    return resolve_project(*above, generate);
  }

  PlanPtr resolve_project(const LogicalPlan& plan, const PlanPtr& child) {
    if (PlanPtr generated = resolve_generator_project(plan, child)) {
      return generated;
    }
    const bool aggregates =
        std::any_of(plan.expressions.begin(), plan.expressions.end(),
                    [&](const ExprPtr& e) { return has_aggregate(e, registry_); });
    if (aggregates) {
      return resolve_aggregate(child, {}, plan.expressions);
    }
    const std::vector<Attribute>& input = child->output;
    std::vector<ExprPtr> expressions;
    std::vector<Attribute> output;
    for (const ExprPtr& original : plan.expressions) {
      if (std::optional<std::vector<Attribute>> star = expand_star(original, input)) {
        for (Attribute& attribute : *star) {
          expressions.push_back(expr::col(column_name(attribute.id)));
          output.push_back(std::move(attribute));
        }
        continue;
      }
      const ExprPtr resolved = strip_alias(resolve_columns(original, input));
      output.push_back(output_of(original, resolved, input));
      expressions.push_back(resolved);
    }
    auto node = resolved_node(plan, {child}, std::move(output));
    node->expressions = std::move(expressions);
    return node;
  }

  ExprPtr resolve_condition(const ExprPtr& condition, const std::vector<Attribute>& input,
                            std::string_view what) {
    const ExprPtr resolved = resolve_columns(condition, input);
    const expr::BoundExpression bound = bind(resolved, input);
    if (bound.type()->id() != TypeId::kBoolean && bound.type()->id() != TypeId::kNull) {
      throw AnalysisError("DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
                          "Cannot resolve \"" + bound.to_string() +
                              "\" due to data type mismatch: " + std::string(what) +
                              " expression \"" + bound.to_string() + "\" of type " +
                              quoted_type(bound.type()) + " is not a boolean.");
    }
    return resolved;
  }

  PlanPtr resolve_filter(const LogicalPlan& plan, const PlanPtr& child) {
    return with_missing_columns(child, [&](const PlanPtr& input) -> PlanPtr {
      auto node = resolved_node(plan, {input}, input->output);
      node->condition = resolve_condition(plan.condition, input->output, "Filter");
      return node;
    });
  }

  /// `make(child)` (a sort or filter resolved over `child`); when it reads columns that
  /// `child`, a projection, dropped, as `df.select("a").orderBy("b")` does, the projection
  /// keeps them for it and a projection above drops them again, as Spark resolves missing
  /// references.
  PlanPtr with_missing_columns(const PlanPtr& child,
                               const std::function<PlanPtr(const PlanPtr&)>& make) {
    try {
      return make(child);
    } catch (const AnalysisError& error) {
      if (!error.condition().starts_with("UNRESOLVED_COLUMN") || child->kind != Kind::kProject) {
        throw;
      }
      auto widened = std::make_shared<LogicalPlan>(*child);
      for (const Attribute& attribute : child->child()->output) {
        const bool present = std::any_of(child->output.begin(), child->output.end(),
                                         [&](const Attribute& a) { return a.id == attribute.id; });
        if (!present) {
          widened->expressions.push_back(expr::col(column_name(attribute.id)));
          widened->output.push_back(attribute);
        }
      }
      PlanPtr resolved;
      try {
        resolved = make(widened);
      } catch (const AnalysisError&) {
        throw error;
      }
      auto narrowed = std::make_shared<LogicalPlan>(Kind::kProject);
      narrowed->children = {resolved};
      narrowed->resolved = true;
      narrowed->output = child->output;
      for (const Attribute& attribute : child->output) {
        narrowed->expressions.push_back(expr::col(column_name(attribute.id)));
      }
      return narrowed;
    }
  }

  /// Resolves an aggregate call: its arguments, the function's resolution and the implicit
  /// casts of the arguments.
  ExprPtr resolve_aggregate_call(const ExprPtr& call, const compute::Function& function,
                                 const std::vector<Attribute>& input, TypePtr& type) {
    std::vector<ExprPtr> arguments;
    std::vector<TypePtr> types;
    std::vector<expr::BoundExpression> bound;
    for (const ExprPtr& argument : call->operands()) {
      if (has_aggregate(argument, registry_)) {
        throw AnalysisError("NESTED_AGGREGATE_FUNCTION",
                            "It is not allowed to use an aggregate function in the argument of "
                            "another aggregate function. Please use the inner aggregate "
                            "function in a sub-query.");
      }
      bound.push_back(bind(argument, input));
      arguments.push_back(argument);
      types.push_back(bound.back().type());
    }
    function.check_arity(static_cast<int64_t>(arguments.size()));
    std::vector<const compute::Datum*> constants;
    for (const expr::BoundExpression& argument : bound) {
      constants.push_back(argument.root().kind == expr::BoundNode::Kind::kLiteral
                              ? &argument.root().value
                              : nullptr);
    }
    const compute::Resolution resolution = function.resolve_with(
        types, call->options(),
        compute::ResolveContext{context_.ansi, constants, context_.session_time_zone});
    for (size_t i = 0; i < arguments.size(); ++i) {
      if (!resolution.arguments[i]->equals(*types[i])) {
        arguments[i] = expr::cast(arguments[i], resolution.arguments[i]);
      }
    }
    type = resolution.output;
    return expr::call(function.name(), std::move(arguments), call->options());
  }

  /// What the output expressions of an aggregate resolve against.
  struct AggregateScope {
    /// The columns of the aggregate's input.
    std::vector<Attribute> input;
    /// The text of each grouping expression (resolved over `input`), and its key column.
    std::vector<std::string> key_texts;
    std::vector<Attribute> key_attributes;
    /// Each grouping expression resolved, and its alias (empty when it has none): outputs may
    /// name a key by its alias, as `groupBy(expr.alias("g")).agg(...)` and SQL allow.
    std::vector<ExprPtr> keys;
    std::vector<std::string> key_aliases;
    /// With grouping sets: the column telling which set a row is of.
    std::optional<Attribute> grouping_id;
    /// The aggregate calls found so far, by text.
    std::unordered_map<std::string, Attribute> calls;
    std::vector<Attribute> call_attributes;
    std::vector<ExprPtr> call_expressions;
  };

  /// Resolves the grouping expressions over `input`, checking they hold no aggregate.
  std::vector<ExprPtr> resolve_grouping(const std::vector<ExprPtr>& grouping,
                                        const std::vector<Attribute>& input) {
    std::vector<ExprPtr> out;
    for (const ExprPtr& original : grouping) {
      if (has_aggregate(original, registry_)) {
        throw AnalysisError("GROUP_BY_AGGREGATE",
                            "Aggregate functions are not allowed in GROUP BY, but found " +
                                original->to_string() + ".");
      }
      out.push_back(strip_alias(resolve_columns(original, input)));
    }
    return out;
  }

  PlanPtr resolve_aggregate(const PlanPtr& child, const std::vector<ExprPtr>& grouping,
                            const std::vector<ExprPtr>& outputs) {
    AggregateScope scope;
    scope.input = child->output;
    auto node = std::make_shared<LogicalPlan>(Kind::kAggregate);
    node->children = {child};
    node->resolved = true;
    const std::vector<ExprPtr> keys = resolve_grouping(grouping, scope.input);
    for (size_t i = 0; i < keys.size(); ++i) {
      Attribute attribute = output_of(grouping[i], keys[i], scope.input);
      node->grouping.push_back(keys[i]);
      node->output.push_back(attribute);
      scope.key_texts.push_back(keys[i]->to_string());
      scope.key_attributes.push_back(std::move(attribute));
    }
    remember_key_aliases(grouping, keys, scope);
    return finish_aggregate(std::move(node), outputs, scope);
  }

  /// GROUPING SETS: an Expand makes one copy of each row per set, with the keys outside the
  /// set null and a grouping id telling the set (bit n-1-i set when key i is left out, as
  /// Spark numbers them); the aggregate groups by the copied keys and the id.
  PlanPtr resolve_grouping_sets(const LogicalPlan& plan, const PlanPtr& child) {
    AggregateScope scope;
    scope.input = child->output;
    const std::vector<ExprPtr> keys = resolve_grouping(plan.grouping, scope.input);
    auto expand = std::make_shared<LogicalPlan>(Kind::kExpand);
    expand->children = {child};
    expand->resolved = true;
    expand->output = scope.input;
    std::vector<TypePtr> types;
    for (size_t i = 0; i < keys.size(); ++i) {
      const expr::BoundExpression bound = bind(keys[i], scope.input);
      types.push_back(bound.type());
      Attribute copy{new_attribute_id(), plan.grouping[i]->output_name(), bound.type(), true, {}};
      expand->output.push_back(copy);
      scope.key_texts.push_back(keys[i]->to_string());
      scope.key_attributes.push_back(std::move(copy));
    }
    scope.grouping_id = Attribute{new_attribute_id(), "spark_grouping_id", int64(), false, {}};
    expand->output.push_back(*scope.grouping_id);
    const size_t n = keys.size();
    for (const std::vector<int>& set : plan.grouping_sets) {
      std::vector<ExprPtr> projection;
      for (const Attribute& attribute : scope.input) {
        projection.push_back(expr::col(column_name(attribute.id)));
      }
      int64_t id = 0;
      for (size_t i = 0; i < n; ++i) {
        const bool in_set = std::find(set.begin(), set.end(), static_cast<int>(i)) != set.end();
        projection.push_back(in_set ? keys[i] : expr::null_literal(types[i]));
        if (!in_set) {
          id |= int64_t{1} << (n - 1 - i);
        }
      }
      projection.push_back(expr::lit(id));
      expand->projections.push_back(std::move(projection));
    }
    auto node = std::make_shared<LogicalPlan>(Kind::kAggregate);
    node->children = {expand};
    node->resolved = true;
    for (const Attribute& attribute : scope.key_attributes) {
      node->grouping.push_back(expr::col(column_name(attribute.id)));
      node->output.push_back(attribute);
    }
    node->grouping.push_back(expr::col(column_name(scope.grouping_id->id)));
    node->output.push_back(*scope.grouping_id);
    remember_key_aliases(plan.grouping, keys, scope);
    return finish_aggregate(std::move(node), plan.expressions, scope);
  }

  static void remember_key_aliases(const std::vector<ExprPtr>& grouping,
                                   const std::vector<ExprPtr>& keys, AggregateScope& scope) {
    scope.keys = keys;
    for (const ExprPtr& original : grouping) {
      scope.key_aliases.push_back(original->kind() == EKind::kAlias ? original->name() : "");
    }
  }

  /// An output expression of an aggregate resolved over its input, where a name the input
  /// lacks may be the alias of a grouping key.
  ExprPtr resolve_output(const ExprPtr& expression, const AggregateScope& scope) {
    return transform(expression, [&](const ExprPtr& node) -> ExprPtr {
      if (node->kind() != EKind::kColumn) {
        return nullptr;
      }
      try {
        return resolve_columns(node, scope.input);
      } catch (const AnalysisError&) {
        for (size_t i = 0; i < scope.key_aliases.size(); ++i) {
          if (!scope.key_aliases[i].empty() && same_name(scope.key_aliases[i], node->name())) {
            return scope.keys[i];
          }
        }
        throw;
      }
    });
  }

  /// Adds the aggregate calls of `outputs` to `node` (whose grouping and key columns are set)
  /// and returns the projection of the outputs over it.
  PlanPtr finish_aggregate(std::shared_ptr<LogicalPlan> node, const std::vector<ExprPtr>& outputs,
                           AggregateScope& scope) {
    std::vector<ExprPtr> results;
    std::vector<Attribute> result_attributes;
    for (const ExprPtr& original : outputs) {
      if (std::optional<std::vector<Attribute>> star = expand_star(original, scope.input)) {
        for (const Attribute& attribute : *star) {
          results.push_back(replace_for_aggregate(expr::col(column_name(attribute.id)), scope));
          result_attributes.push_back(attribute);
        }
        continue;
      }
      const ExprPtr resolved = strip_alias(resolve_output(original, scope));
      results.push_back(replace_for_aggregate(resolved, scope));
      result_attributes.push_back(
          Attribute{new_attribute_id(), original->output_name(), nullptr, true, {}});
    }
    node->expressions = scope.call_expressions;
    node->output.insert(node->output.end(), scope.call_attributes.begin(),
                        scope.call_attributes.end());
    // The output expressions run over the grouping keys and aggregate results.
    auto result = std::make_shared<LogicalPlan>(Kind::kProject);
    result->children = {node};
    result->resolved = true;
    for (size_t i = 0; i < results.size(); ++i) {
      const std::optional<AttributeId> id = whole_attribute(results[i]);
      const auto found = id ? std::find_if(node->output.begin(), node->output.end(),
                                           [&](const Attribute& a) { return a.id == *id; })
                            : node->output.end();
      if (found != node->output.end() && found->name == result_attributes[i].name) {
        result_attributes[i] = *found;
      } else {
        const expr::BoundExpression bound = bind(results[i], node->output);
        result_attributes[i].type = bound.type();
        result_attributes[i].nullable = bound.nullable();
      }
      result->expressions.push_back(results[i]);
      result->output.push_back(result_attributes[i]);
    }
    return result;
  }

  /// `grouping(key)`: 1 on rows of sets that leave the key out, as a TINYINT.
  ExprPtr grouping_bit(const ExprPtr& argument, const AggregateScope& scope) {
    const std::string text = argument->to_string();
    const auto found = std::find(scope.key_texts.begin(), scope.key_texts.end(), text);
    if (found == scope.key_texts.end()) {
      std::string keys;
      for (const Attribute& attribute : scope.key_attributes) {
        keys += (keys.empty() ? "" : ", ") + attribute.name;
      }
      throw AnalysisError("GROUPING_COLUMN_MISMATCH",
                          "Column of grouping (" + user_output_name(argument, scope.input) +
                              ") can't be found in grouping columns " + keys + ".");
    }
    const size_t i = static_cast<size_t>(found - scope.key_texts.begin());
    const int64_t weight = int64_t{1} << (scope.key_texts.size() - 1 - i);
    const ExprPtr id = expr::col(column_name(scope.grouping_id->id));
    return expr::call("%", {expr::call("div", {id, expr::lit(weight)}), expr::lit(int64_t{2})});
  }

  /// `grouping(key)` and `grouping_id(keys...)` over the grouping id column.
  ExprPtr grouping_function(const ExprPtr& call, const AggregateScope& scope) {
    const std::string name = expr::detail::ascii_lower(call->name());
    if (!scope.grouping_id) {
      throw AnalysisError("UNSUPPORTED_GROUPING_EXPRESSION",
                          "grouping()/grouping_id() can only be used with "
                          "GroupingSets/Cube/Rollup.");
    }
    if (name == "grouping") {
      if (call->operands().size() != 1) {
        throw AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                            "The `grouping` requires 1 parameters but the actual number is " +
                                std::to_string(call->operands().size()) + ".");
      }
      return expr::cast(grouping_bit(call->operands()[0], scope), int8());
    }
    if (call->operands().empty()) {
      return expr::col(column_name(scope.grouping_id->id));
    }
    ExprPtr out = expr::lit(int64_t{0});
    const size_t m = call->operands().size();
    for (size_t j = 0; j < m; ++j) {
      out = expr::call("+", {out, expr::call("*", {grouping_bit(call->operands()[j], scope),
                                                   expr::lit(int64_t{1} << (m - 1 - j))})});
    }
    return out;
  }

  /// A resolved output expression rewritten over the grouping keys and aggregate results:
  /// whole grouping expressions become references to their key, aggregate calls references to
  /// their result (added to the scope), and any other column is an error (MISSING_AGGREGATION).
  ExprPtr replace_for_aggregate(const ExprPtr& resolved, AggregateScope& scope) {
    return transform(resolved, [&](const ExprPtr& node) -> ExprPtr {
      const std::string text = node->to_string();
      for (size_t i = 0; i < scope.key_texts.size(); ++i) {
        if (scope.key_texts[i] == text) {
          return expr::col(column_name(scope.key_attributes[i].id));
        }
      }
      if (node->kind() == EKind::kCall) {
        const std::string name = expr::detail::ascii_lower(node->name());
        if (name == "grouping" || name == "grouping_id") {
          return grouping_function(node, scope);
        }
        // An unknown function is UNRESOLVED_ROUTINE, not a missing aggregation of its input.
        const compute::Function* function = &registry_.get(node->name());
        if (function->kind() == compute::Function::Kind::kAggregate) {
          TypePtr type;
          ExprPtr call = resolve_aggregate_call(node, *function, scope.input, type);
          const std::string call_text = call->to_string();
          auto found = scope.calls.find(call_text);
          if (found == scope.calls.end()) {
            Attribute attribute{new_attribute_id(),
                                user_output_name(node, scope.input),
                                type,
                                aggregate_nullable(*function),
                                {}};
            scope.call_attributes.push_back(attribute);
            scope.call_expressions.push_back(call);
            found = scope.calls.emplace(call_text, std::move(attribute)).first;
          }
          return expr::col(column_name(found->second.id));
        }
      }
      if (node->kind() == EKind::kColumn) {
        const std::string shown = bind(node, scope.input).to_string();
        throw AnalysisError(
            "MISSING_AGGREGATION",
            "The non-aggregating expression \"" + shown +
                "\" is based on columns which are not participating in the GROUP BY clause. Add "
                "the columns or the expression to the GROUP BY, aggregate the expression, or use "
                "\"any_value(" +
                shown + ")\" if you do not care which of the values within a group is returned.");
      }
      return nullptr;
    });
  }

  PlanPtr resolve_sort(const LogicalPlan& plan, const PlanPtr& child) {
    return with_missing_columns(child, [&](const PlanPtr& input) -> PlanPtr {
      auto node = resolved_node(plan, {input}, input->output);
      for (SortOrder& order : node->orders) {
        order.expression = strip_alias(resolve_columns(order.expression, input->output));
        // Binding checks the expression's functions and types.
        bind(order.expression, input->output);
      }
      return node;
    });
  }

  PlanPtr resolve_distinct(const PlanPtr& child) {
    auto node = std::make_shared<LogicalPlan>(Kind::kAggregate);
    node->children = {child};
    node->resolved = true;
    for (const Attribute& attribute : child->output) {
      node->grouping.push_back(expr::col(column_name(attribute.id)));
    }
    node->output = child->output;
    return node;
  }

  /// A projection of `child` onto `expressions` (resolved over its output) named `names`.
  PlanPtr project_onto(const PlanPtr& child, std::vector<ExprPtr> expressions,
                       const std::vector<std::string>& names) {
    auto node = std::make_shared<LogicalPlan>(Kind::kProject);
    node->children = {child};
    node->resolved = true;
    for (size_t i = 0; i < expressions.size(); ++i) {
      const expr::BoundExpression bound = bind(expressions[i], child->output);
      node->output.push_back(
          Attribute{new_attribute_id(), names[i], bound.type(), bound.nullable(), {}});
    }
    node->expressions = std::move(expressions);
    return node;
  }

  /// The children of a by-name union, each projected onto the columns of the first (found by
  /// name; with `allow_missing`, columns a child lacks are nulls, and columns only later
  /// children have are added at the end).
  std::vector<PlanPtr> align_by_name(std::vector<PlanPtr> children, bool allow_missing) {
    std::vector<std::pair<std::string, TypePtr>> columns;
    for (const PlanPtr& child : children) {
      for (const Attribute& attribute : child->output) {
        const bool known = std::any_of(columns.begin(), columns.end(), [&](const auto& c) {
          return same_name(c.first, attribute.name);
        });
        if (!known && (allow_missing || &child == &children.front())) {
          columns.emplace_back(attribute.name, attribute.type);
        }
      }
    }
    for (PlanPtr& child : children) {
      std::vector<ExprPtr> expressions;
      std::vector<std::string> names;
      for (const auto& column : columns) {
        const std::string& name = column.first;
        const TypePtr& type = column.second;
        const auto found =
            std::find_if(child->output.begin(), child->output.end(),
                         [&](const Attribute& a) { return same_name(a.name, name); });
        if (found != child->output.end()) {
          expressions.push_back(expr::col(column_name(found->id)));
        } else if (allow_missing) {
          expressions.push_back(expr::null_literal(type));
        } else {
          throw_unresolved({name}, child->output);
        }
        names.push_back(name);
      }
      child = project_onto(child, std::move(expressions), names);
    }
    return children;
  }

  PlanPtr resolve_union(const LogicalPlan& plan, std::vector<PlanPtr> children) {
    if (plan.by_name) {
      children = align_by_name(std::move(children), plan.allow_missing_columns);
    }
    const size_t width = children[0]->output.size();
    for (size_t c = 1; c < children.size(); ++c) {
      if (children[c]->output.size() != width) {
        throw AnalysisError("NUM_COLUMNS_MISMATCH",
                            "UNION can only be performed on inputs with the same number of "
                            "columns, but the first input has " +
                                std::to_string(width) + " columns and the " + ordinal(c) +
                                " input has " + std::to_string(children[c]->output.size()) +
                                " columns.");
      }
    }
    std::vector<Attribute> output;
    for (size_t i = 0; i < width; ++i) {
      TypePtr type = children[0]->output[i].type;
      bool nullable = false;
      for (size_t c = 0; c < children.size(); ++c) {
        const Attribute& attribute = children[c]->output[i];
        nullable = nullable || attribute.nullable;
        std::optional<TypePtr> wider = compute::wider_type_for_two(type, attribute.type);
        if (!wider) {
          throw AnalysisError(
              "INCOMPATIBLE_COLUMN_TYPE",
              "UNION can only be performed on tables with compatible column types. The " +
                  ordinal(i) + " column of the " + ordinal(c) + " table is " +
                  quoted_type(attribute.type) + " type which is not compatible with " +
                  quoted_type(type) + " at the same column of the first table.");
        }
        type = *wider;
      }
      output.push_back(
          Attribute{new_attribute_id(), children[0]->output[i].name, type, nullable, {}});
    }
    // Children whose columns are of narrower types are cast to the union's.
    for (PlanPtr& child : children) {
      bool casts = false;
      std::vector<ExprPtr> expressions;
      std::vector<std::string> names;
      for (size_t i = 0; i < width; ++i) {
        const Attribute& attribute = child->output[i];
        ExprPtr column = expr::col(column_name(attribute.id));
        if (!attribute.type->equals(*output[i].type)) {
          column = expr::cast(column, output[i].type);
          casts = true;
        }
        expressions.push_back(column);
        names.push_back(attribute.name);
      }
      if (casts) {
        child = project_onto(child, std::move(expressions), names);
      }
    }
    return resolved_node(plan, std::move(children), std::move(output));
  }

  /// INTERSECT and EXCEPT, as Spark rewrites the ALL forms and as we rewrite the distinct ones
  /// too (no join needed): the rows of both sides, tagged by side, are grouped by every column
  /// (nulls equal nulls, as set operations compare), counting each side's rows; a group is
  /// kept by the counts and, for ALL, repeated as many times as the operation says.
  PlanPtr resolve_set_operation(const LogicalPlan& plan, const PlanPtr& left,
                                const PlanPtr& right) {
    const bool intersect = plan.set_operation == LogicalPlan::SetOperation::kIntersect;
    auto tagged = [](const PlanPtr& side, int64_t left_count, int64_t right_count) {
      std::vector<ExprPtr> columns;
      for (const Attribute& attribute : side->output) {
        columns.push_back(expr::alias(expr::col(column_name(attribute.id)), attribute.name));
      }
      columns.push_back(expr::alias(expr::lit(left_count), "__left"));
      columns.push_back(expr::alias(expr::lit(right_count), "__right"));
      return project(side, std::move(columns));
    };
    PlanPtr both;
    try {
      both = resolve(union_all({tagged(left, 1, 0), tagged(right, 0, 1)}));
    } catch (const AnalysisError& error) {
      // The union's checks, worded for this operation.
      std::string message = error.what();
      const std::string from = "UNION";
      const size_t at = message.find(from);
      if (at != std::string::npos) {
        message.replace(at, from.size(), intersect ? "INTERSECT" : "EXCEPT");
      }
      const size_t bracket = message.find("] ");
      throw AnalysisError(error.condition(),
                          bracket == std::string::npos ? message : message.substr(bracket + 2));
    }
    const std::vector<Attribute>& columns = both->output;
    const size_t width = columns.size() - 2;
    std::vector<ExprPtr> keys;
    std::vector<ExprPtr> outputs;
    for (size_t i = 0; i < width; ++i) {
      keys.push_back(expr::col(column_name(columns[i].id)));
      outputs.push_back(expr::alias(keys.back(), columns[i].name));
    }
    outputs.push_back(
        expr::alias(expr::call("sum", {expr::col(column_name(columns[width].id))}), "__left"));
    outputs.push_back(
        expr::alias(expr::call("sum", {expr::col(column_name(columns[width + 1].id))}), "__right"));
    const PlanPtr counted = resolve(aggregate(both, keys, outputs));
    const ExprPtr left_rows = expr::col(column_name(counted->output[width].id));
    const ExprPtr right_rows = expr::col(column_name(counted->output[width + 1].id));
    const ExprPtr zero = expr::lit(int64_t{0});
    ExprPtr keep;
    if (intersect) {
      keep = expr::and_(expr::call(">", {left_rows, zero}), expr::call(">", {right_rows, zero}));
    } else if (plan.is_all) {
      keep = expr::call(">", {left_rows, right_rows});
    } else {
      keep = expr::and_(expr::call(">", {left_rows, zero}), expr::call("=", {right_rows, zero}));
    }
    PlanPtr kept = resolve(filter(counted, keep));
    if (plan.is_all) {
      auto replicate = std::make_shared<LogicalPlan>(Kind::kReplicate);
      replicate->children = {kept};
      replicate->resolved = true;
      replicate->output = kept->output;
      replicate->expressions = {intersect ? expr::call("least", {left_rows, right_rows})
                                          : expr::call("-", {left_rows, right_rows})};
      kept = replicate;
    }
    std::vector<ExprPtr> result;
    for (size_t i = 0; i < width; ++i) {
      result.push_back(
          expr::alias(expr::col(column_name(counted->output[i].id)), left->output[i].name));
    }
    return resolve(project(kept, std::move(result)));
  }

  /// dropDuplicates: a group by the subset's columns keeping the first value of the others.
  PlanPtr resolve_deduplicate(const LogicalPlan& plan, const PlanPtr& child) {
    std::vector<AttributeId> subset;
    for (const ExprPtr& column : plan.grouping) {
      const std::optional<AttributeId> id =
          whole_attribute(expr::col(resolve_name(column->name(), child->output)));
      if (!id) {
        throw AnalysisError(
            "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
            "dropDuplicates takes top-level columns, not " + sql_id(column->name()) + ".");
      }
      subset.push_back(*id);
    }
    std::vector<ExprPtr> keys;
    std::vector<ExprPtr> outputs;
    for (const Attribute& attribute : child->output) {
      const ExprPtr column = expr::col(column_name(attribute.id));
      const bool key =
          subset.empty() || std::find(subset.begin(), subset.end(), attribute.id) != subset.end();
      if (key) {
        keys.push_back(column);
      }
      outputs.push_back(expr::alias(key ? column : expr::call("first", {column}), attribute.name));
    }
    return resolve(aggregate(child, std::move(keys), std::move(outputs)));
  }

  PlanPtr resolve_join(const LogicalPlan& plan, std::vector<PlanPtr> children) {
    std::vector<Attribute> left = children[0]->output;
    std::vector<Attribute> right = children[1]->output;
    const JoinType type = plan.join_type;
    if (type == JoinType::kRightOuter || type == JoinType::kFullOuter) {
      for (Attribute& attribute : left) {
        attribute.nullable = true;
      }
    }
    if (type == JoinType::kLeftOuter || type == JoinType::kFullOuter) {
      for (Attribute& attribute : right) {
        attribute.nullable = true;
      }
    }
    std::vector<Attribute> both = children[0]->output;
    both.insert(both.end(), children[1]->output.begin(), children[1]->output.end());
    std::vector<Attribute> output = left;
    if (type != JoinType::kLeftSemi && type != JoinType::kLeftAnti) {
      output.insert(output.end(), right.begin(), right.end());
    }
    auto node = resolved_node(plan, std::move(children), std::move(output));
    if (plan.condition != nullptr) {
      node->condition = resolve_condition(plan.condition, both, "Join condition");
    }
    return node;
  }

  const compute::FunctionRegistry& registry_;
  compute::ExecContext context_;
};

}  // namespace

PlanPtr analyze(const PlanPtr& plan, const AnalyzerOptions& options) {
  if (plan == nullptr) {
    throw InvalidArgument("analyze needs a plan");
  }
  return Analyzer(options).resolve(plan);
}

}  // namespace bowstring::plan
