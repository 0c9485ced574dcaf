#include "bowstring/plan/analyzer.h"

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

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

/// The attribute as Spark names it in messages: `l`.`id` when qualified, else `id`.
std::string qualified_name(const Attribute& attribute) {
  return attribute.qualifier.empty() ? quoted(attribute.name)
                                     : quoted(attribute.qualifier) + "." + quoted(attribute.name);
}

std::string typed_name(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) {
      out += '.';
    }
    out += quoted(part);
  }
  return out;
}

/// The name Spark gives the column of a resolved expression over `input`: its output name
/// with each attribute by the user's name ("sum(v)", not "sum(#3)").
std::string user_output_name(const ExprPtr& resolved, const std::vector<Attribute>& input) {
  std::unordered_map<AttributeId, ExprPtr> names;
  for (const Attribute& attribute : input) {
    names.emplace(attribute.id, expr::col(attribute.name));
  }
  const std::optional<ExprPtr> named = substitute(resolved, names);
  return (named.has_value() ? *named : resolved)->output_name();
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
bool has_aggregate(const ExprPtr& expression, const compute::FunctionRegistry& registry) {
  if (expression->kind() == EKind::kCall) {
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
      case Kind::kProject:
        return resolve_project(*plan, children[0]);
      case Kind::kFilter:
        return resolve_filter(*plan, children[0]);
      case Kind::kAggregate:
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
    }
    throw InvalidArgument("unknown plan node");
  }

 private:
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
      if (found != input.end() && found->name == original->output_name()) {
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

  PlanPtr resolve_project(const LogicalPlan& plan, const PlanPtr& child) {
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
    auto node = resolved_node(plan, {child}, child->output);
    node->condition = resolve_condition(plan.condition, child->output, "Filter");
    return node;
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

  PlanPtr resolve_aggregate(const PlanPtr& child, const std::vector<ExprPtr>& grouping,
                            const std::vector<ExprPtr>& outputs) {
    const std::vector<Attribute>& input = child->output;
    auto node = std::make_shared<LogicalPlan>(Kind::kAggregate);
    node->children = {child};
    node->resolved = true;
    // Grouping keys and the text that identifies each, so that output expressions may use
    // them whole.
    std::unordered_map<std::string, Attribute> keys;
    for (const ExprPtr& original : grouping) {
      if (has_aggregate(original, registry_)) {
        throw AnalysisError("GROUP_BY_AGGREGATE",
                            "Aggregate functions are not allowed in GROUP BY, but found " +
                                original->to_string() + ".");
      }
      const ExprPtr resolved = strip_alias(resolve_columns(original, input));
      Attribute attribute = output_of(original, resolved, input);
      node->grouping.push_back(resolved);
      node->output.push_back(attribute);
      keys.emplace(resolved->to_string(), std::move(attribute));
    }
    std::unordered_map<std::string, Attribute> calls;
    std::vector<Attribute> call_attributes;
    std::vector<ExprPtr> results;
    std::vector<Attribute> result_attributes;
    for (const ExprPtr& original : outputs) {
      if (std::optional<std::vector<Attribute>> star = expand_star(original, input)) {
        for (const Attribute& attribute : *star) {
          results.push_back(replace_for_aggregate(expr::col(column_name(attribute.id)), input, keys,
                                                  calls, call_attributes, node->expressions));
          result_attributes.push_back(attribute);
        }
        continue;
      }
      const ExprPtr resolved = strip_alias(resolve_columns(original, input));
      const ExprPtr result =
          replace_for_aggregate(resolved, input, keys, calls, call_attributes, node->expressions);
      results.push_back(result);
      result_attributes.push_back(
          Attribute{new_attribute_id(), original->output_name(), nullptr, true, {}});
    }
    node->output.insert(node->output.end(), call_attributes.begin(), call_attributes.end());
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

  /// A resolved output expression rewritten over the grouping keys
  /// and aggregate results: whole grouping expressions become references to their key,
  /// aggregate calls references to their result (added to `calls`), and any other column is
  /// an error (MISSING_AGGREGATION).
  ExprPtr replace_for_aggregate(const ExprPtr& resolved, const std::vector<Attribute>& input,
                                const std::unordered_map<std::string, Attribute>& keys,
                                std::unordered_map<std::string, Attribute>& calls,
                                std::vector<Attribute>& call_attributes,
                                std::vector<ExprPtr>& call_expressions) {
    return transform(resolved, [&](const ExprPtr& node) -> ExprPtr {
      if (const auto key = keys.find(node->to_string()); key != keys.end()) {
        return expr::col(column_name(key->second.id));
      }
      if (node->kind() == EKind::kCall) {
        const compute::Function* function = registry_.find(node->name());
        if (function != nullptr && function->kind() == compute::Function::Kind::kAggregate) {
          TypePtr type;
          ExprPtr call = resolve_aggregate_call(node, *function, input, type);
          const std::string text = call->to_string();
          auto found = calls.find(text);
          if (found == calls.end()) {
            Attribute attribute{new_attribute_id(),
                                user_output_name(node, input),
                                type,
                                aggregate_nullable(*function),
                                {}};
            call_attributes.push_back(attribute);
            call_expressions.push_back(call);
            found = calls.emplace(text, std::move(attribute)).first;
          }
          return expr::col(column_name(found->second.id));
        }
      }
      if (node->kind() == EKind::kColumn) {
        const std::string shown = bind(node, input).to_string();
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
    auto node = resolved_node(plan, {child}, child->output);
    for (SortOrder& order : node->orders) {
      order.expression = strip_alias(resolve_columns(order.expression, child->output));
      // Binding checks the expression's functions and types.
      bind(order.expression, child->output);
    }
    return node;
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
      for (const auto& [name, type] : columns) {
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
