#include "bowstring/plan/optimizer.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "bowstring/array/array.h"
#include "bowstring/expr/bind.h"
#include "bowstring/plan/explain.h"
#include "bowstring/plan/expression_util.h"

namespace bowstring::plan {

namespace {

using expr::Expression;
using expr::ExprPtr;
using EKind = Expression::Kind;
using Kind = LogicalPlan::Kind;
using AttributeSet = std::unordered_set<AttributeId>;

/// Applies `rule` to every node, children first.
PlanPtr transform_up(const PlanPtr& plan, const std::function<PlanPtr(const PlanPtr&)>& rule) {
  std::vector<PlanPtr> children;
  bool changed = false;
  for (const PlanPtr& child : plan->children) {
    children.push_back(transform_up(child, rule));
    changed = changed || children.back() != child;
  }
  return rule(changed ? plan->with_children(std::move(children)) : plan);
}

/// Applies `rewrite` to every expression of the node.
PlanPtr transform_expressions(const PlanPtr& plan,
                              const std::function<ExprPtr(const ExprPtr&)>& rewrite) {
  auto copy = std::make_shared<LogicalPlan>(*plan);
  for (ExprPtr& expression : copy->expressions) {
    expression = rewrite(expression);
  }
  for (ExprPtr& expression : copy->grouping) {
    expression = rewrite(expression);
  }
  if (copy->condition != nullptr) {
    copy->condition = rewrite(copy->condition);
  }
  for (SortOrder& order : copy->orders) {
    order.expression = rewrite(order.expression);
  }
  for (std::vector<ExprPtr>& projection : copy->projections) {
    for (ExprPtr& expression : projection) {
      expression = rewrite(expression);
    }
  }
  return copy;
}

std::optional<bool> boolean_literal(const ExprPtr& expression) {
  if (expression->kind() != EKind::kLiteral || expression->value().scalar_is_null() ||
      expression->value().type()->id() != TypeId::kBoolean) {
    return std::nullopt;
  }
  return expression->value().array().as<BooleanArray>().value(0);
}

ExprPtr simplify(const ExprPtr& expression) {
  std::vector<ExprPtr> operands;
  for (const ExprPtr& operand : expression->operands()) {
    operands.push_back(simplify(operand));
  }
  switch (expression->kind()) {
    case EKind::kAnd:
    case EKind::kOr: {
      const bool is_and = expression->kind() == EKind::kAnd;
      for (size_t i = 0; i < 2; ++i) {
        const std::optional<bool> value = boolean_literal(operands[i]);
        if (value && *value == is_and) {
          return operands[1 - i];
        }
        if (value && *value != is_and) {
          return operands[i];
        }
      }
      break;
    }
    case EKind::kNot:
      if (const std::optional<bool> value = boolean_literal(operands[0])) {
        return expr::lit(!*value);
      }
      if (operands[0]->kind() == EKind::kNot) {
        return operands[0]->operands()[0];
      }
      break;
    default:
      break;
  }
  return with_operands(*expression, std::move(operands));
}

/// An empty relation with the columns of `plan`.
PlanPtr empty_like(const PlanPtr& plan) {
  std::vector<ChunkedArray> columns;
  for (const Attribute& attribute : plan->output) {
    columns.emplace_back(attribute.type, std::vector<Array>{});
  }
  auto node = std::make_shared<LogicalPlan>(Kind::kLocalRelation);
  node->table = Table(output_schema(plan->output), 0, std::move(columns));
  node->output = plan->output;
  node->resolved = true;
  return node;
}

bool all_deterministic(const std::vector<ExprPtr>& expressions) {
  return std::all_of(expressions.begin(), expressions.end(),
                     [](const ExprPtr& e) { return is_deterministic(e); });
}

AttributeSet ids_of(const std::vector<Attribute>& attributes) {
  AttributeSet out;
  for (const Attribute& attribute : attributes) {
    out.insert(attribute.id);
  }
  return out;
}

bool reads_only(const ExprPtr& expression, const AttributeSet& attributes) {
  const std::vector<AttributeId> read = referenced_attributes(expression);
  return std::all_of(read.begin(), read.end(),
                     [&](AttributeId id) { return attributes.contains(id); });
}

std::shared_ptr<LogicalPlan> make_filter(PlanPtr child, ExprPtr condition) {
  auto node = std::make_shared<LogicalPlan>(Kind::kFilter);
  node->output = child->output;
  node->children = {std::move(child)};
  node->condition = std::move(condition);
  node->resolved = true;
  return node;
}

/// `child` filtered by the AND of `conjuncts`, or `child` itself without any.
PlanPtr filtered(PlanPtr child, const std::vector<ExprPtr>& conjuncts) {
  if (conjuncts.empty()) {
    return child;
  }
  return make_filter(std::move(child), combine_conjuncts(conjuncts));
}

/// The expression of each output attribute of a projection.
std::unordered_map<AttributeId, ExprPtr> projection_map(const LogicalPlan& project) {
  std::unordered_map<AttributeId, ExprPtr> out;
  for (size_t i = 0; i < project.expressions.size(); ++i) {
    out.emplace(project.output[i].id, project.expressions[i]);
  }
  return out;
}

/// Moves the conjuncts of `filter` (over a file scan) that read only partition columns, or only
/// the files' columns, into the scan; nullptr when none moves.
PlanPtr push_into_scan(const LogicalPlan& filter) {
  const LogicalPlan& scan = *filter.child();
  const io::FileRelation& relation = *scan.file_scan->relation;
  AttributeSet partition_ids;
  AttributeSet data_ids;
  for (size_t i = 0; i < scan.file_scan->attributes.size(); ++i) {
    (relation.partition_index[i] >= 0 ? partition_ids : data_ids)
        .insert(scan.file_scan->attributes[i].id);
  }
  auto pushed = std::make_shared<FileScan>(*scan.file_scan);
  std::vector<ExprPtr> kept;
  for (const ExprPtr& conjunct : split_conjuncts(filter.condition)) {
    if (referenced_attributes(conjunct).empty()) {
      kept.push_back(conjunct);
    } else if (reads_only(conjunct, partition_ids)) {
      pushed->partition_filters.push_back(conjunct);
    } else if (reads_only(conjunct, data_ids)) {
      pushed->data_filters.push_back(conjunct);
    } else {
      kept.push_back(conjunct);
    }
  }
  if (kept.size() == split_conjuncts(filter.condition).size()) {
    return nullptr;
  }
  auto node = std::make_shared<LogicalPlan>(scan);
  node->file_scan = std::move(pushed);
  return filtered(node, kept);
}

/// Pushes `filter` (a Filter node) one step down where it can go; nullptr when it stays.
PlanPtr push_filter(const LogicalPlan& filter) {
  const PlanPtr& child = filter.child();
  if (!is_deterministic(filter.condition)) {
    return nullptr;
  }
  switch (child->kind) {
    case Kind::kProject: {
      if (!all_deterministic(child->expressions)) {
        return nullptr;
      }
      const std::optional<ExprPtr> condition = substitute(filter.condition, projection_map(*child));
      if (!condition) {
        return nullptr;
      }
      return child->with_children({make_filter(child->child(), *condition)});
    }
    case Kind::kSort:
    case Kind::kSubqueryAlias:
      return child->with_children({make_filter(child->child(), filter.condition)});
    case Kind::kAggregate: {
      const size_t keys = child->grouping.size();
      std::unordered_map<AttributeId, ExprPtr> key_map;
      for (size_t i = 0; i < keys; ++i) {
        key_map.emplace(child->output[i].id, child->grouping[i]);
      }
      AttributeSet key_ids;
      for (const auto& [id, expression] : key_map) {
        key_ids.insert(id);
      }
      std::vector<ExprPtr> pushed;
      std::vector<ExprPtr> kept;
      for (const ExprPtr& conjunct : split_conjuncts(filter.condition)) {
        std::optional<ExprPtr> below;
        if (!referenced_attributes(conjunct).empty() && reads_only(conjunct, key_ids) &&
            all_deterministic(child->grouping)) {
          below = substitute(conjunct, key_map);
        }
        if (below) {
          pushed.push_back(*below);
        } else {
          kept.push_back(conjunct);
        }
      }
      if (pushed.empty()) {
        return nullptr;
      }
      return filtered(child->with_children({filtered(child->child(), pushed)}), kept);
    }
    case Kind::kFileScan:
      return push_into_scan(filter);
    case Kind::kUnion: {
      std::vector<PlanPtr> children;
      for (const PlanPtr& input : child->children) {
        std::unordered_map<AttributeId, ExprPtr> positions;
        for (size_t i = 0; i < child->output.size(); ++i) {
          positions.emplace(child->output[i].id, expr::col(column_name(input->output[i].id)));
        }
        const std::optional<ExprPtr> condition = substitute(filter.condition, positions);
        if (!condition) {
          return nullptr;
        }
        children.push_back(make_filter(input, *condition));
      }
      return child->with_children(std::move(children));
    }
    case Kind::kJoin: {
      const JoinType type = child->join_type;
      const AttributeSet left = ids_of(child->child(0)->output);
      const AttributeSet right = ids_of(child->child(1)->output);
      const bool inner = type == JoinType::kInner || type == JoinType::kCross;
      const bool to_left = inner || type == JoinType::kLeftOuter || type == JoinType::kLeftSemi ||
                           type == JoinType::kLeftAnti;
      const bool to_right = inner || type == JoinType::kRightOuter;
      std::vector<ExprPtr> left_conjuncts;
      std::vector<ExprPtr> right_conjuncts;
      std::vector<ExprPtr> join_conjuncts;
      std::vector<ExprPtr> kept;
      for (const ExprPtr& conjunct : split_conjuncts(filter.condition)) {
        if (to_left && reads_only(conjunct, left)) {
          left_conjuncts.push_back(conjunct);
        } else if (to_right && reads_only(conjunct, right)) {
          right_conjuncts.push_back(conjunct);
        } else if (inner) {
          join_conjuncts.push_back(conjunct);
        } else {
          kept.push_back(conjunct);
        }
      }
      if (left_conjuncts.empty() && right_conjuncts.empty() && join_conjuncts.empty()) {
        return nullptr;
      }
      auto join = std::make_shared<LogicalPlan>(*child);
      join->children = {filtered(child->child(0), left_conjuncts),
                        filtered(child->child(1), right_conjuncts)};
      if (!join_conjuncts.empty()) {
        if (child->condition != nullptr) {
          join_conjuncts.insert(join_conjuncts.begin(), child->condition);
        }
        join->condition = combine_conjuncts(join_conjuncts);
        if (join->join_type == JoinType::kCross) {
          join->join_type = JoinType::kInner;
        }
      }
      return filtered(join, kept);
    }
    default:
      return nullptr;
  }
}

/// Moves the conjuncts of an inner, semi or outer join's condition that read one side only
/// into that side, where the join type allows; nullptr when nothing moves.
PlanPtr push_join_condition(const LogicalPlan& join) {
  if (join.condition == nullptr || !is_deterministic(join.condition)) {
    return nullptr;
  }
  const JoinType type = join.join_type;
  const AttributeSet left = ids_of(join.child(0)->output);
  const AttributeSet right = ids_of(join.child(1)->output);
  const bool inner = type == JoinType::kInner || type == JoinType::kCross;
  const bool to_left = inner || type == JoinType::kRightOuter || type == JoinType::kLeftSemi;
  const bool to_right = inner || type == JoinType::kLeftOuter || type == JoinType::kLeftSemi ||
                        type == JoinType::kLeftAnti;
  std::vector<ExprPtr> left_conjuncts;
  std::vector<ExprPtr> right_conjuncts;
  std::vector<ExprPtr> kept;
  for (const ExprPtr& conjunct : split_conjuncts(join.condition)) {
    const bool constant = referenced_attributes(conjunct).empty();
    if (!constant && to_left && reads_only(conjunct, left)) {
      left_conjuncts.push_back(conjunct);
    } else if (!constant && to_right && reads_only(conjunct, right)) {
      right_conjuncts.push_back(conjunct);
    } else {
      kept.push_back(conjunct);
    }
  }
  if (left_conjuncts.empty() && right_conjuncts.empty()) {
    return nullptr;
  }
  auto copy = std::make_shared<LogicalPlan>(join);
  copy->children = {filtered(join.child(0), left_conjuncts),
                    filtered(join.child(1), right_conjuncts)};
  copy->condition = kept.empty() ? nullptr : combine_conjuncts(kept);
  return copy;
}

PlanPtr push_down(const PlanPtr& plan) {
  PlanPtr current = plan;
  if (current->kind == Kind::kFilter) {
    if (PlanPtr pushed = push_filter(*current)) {
      current = pushed;
    }
  } else if (current->kind == Kind::kJoin) {
    if (PlanPtr pushed = push_join_condition(*current)) {
      current = pushed;
    }
  }
  std::vector<PlanPtr> children;
  bool changed = false;
  for (const PlanPtr& child : current->children) {
    children.push_back(push_down(child));
    changed = changed || children.back() != child;
  }
  return changed ? current->with_children(std::move(children)) : current;
}

/// Whether the projection outputs exactly its input's columns, in order.
bool is_identity(const LogicalPlan& project) {
  const std::vector<Attribute>& input = project.child()->output;
  if (project.output.size() != input.size()) {
    return false;
  }
  for (size_t i = 0; i < input.size(); ++i) {
    if (project.output[i].id != input[i].id || project.output[i].name != input[i].name) {
      return false;
    }
  }
  return true;
}

/// How often each attribute is read by `expressions`.
std::unordered_map<AttributeId, int> reference_counts(const std::vector<ExprPtr>& expressions) {
  std::unordered_map<AttributeId, int> counts;
  std::function<void(const ExprPtr&)> count = [&](const ExprPtr& expression) {
    if (expression->kind() == EKind::kColumn) {
      if (const std::optional<AttributeId> id = attribute_of(expression->name())) {
        ++counts[*id];
      }
      return;
    }
    for (const ExprPtr& operand : expression->operands()) {
      count(operand);
    }
  };
  for (const ExprPtr& expression : expressions) {
    count(expression);
  }
  return counts;
}

std::vector<AttributeId> required_by(const LogicalPlan& plan) {
  std::vector<AttributeId> out;
  auto add = [&](const ExprPtr& expression) {
    for (AttributeId id : referenced_attributes(expression)) {
      out.push_back(id);
    }
  };
  for (const ExprPtr& expression : plan.expressions) {
    add(expression);
  }
  for (const ExprPtr& expression : plan.grouping) {
    add(expression);
  }
  if (plan.condition != nullptr) {
    add(plan.condition);
  }
  for (const SortOrder& order : plan.orders) {
    add(order.expression);
  }
  for (const std::vector<ExprPtr>& projection : plan.projections) {
    for (const ExprPtr& expression : projection) {
      add(expression);
    }
  }
  for (const WindowExpression& window : plan.windows) {
    add(window.function);
  }
  return out;
}

std::vector<Attribute> keep_only(const std::vector<Attribute>& attributes,
                                 const AttributeSet& ids) {
  std::vector<Attribute> out;
  for (const Attribute& attribute : attributes) {
    if (ids.contains(attribute.id)) {
      out.push_back(attribute);
    }
  }
  return out;
}

PlanPtr prune(const PlanPtr& plan, const AttributeSet& required) {
  auto node = std::make_shared<LogicalPlan>(*plan);
  AttributeSet below = required;
  switch (plan->kind) {
    case Kind::kLocalRelation: {
      std::vector<int> columns;
      for (size_t i = 0; i < plan->output.size(); ++i) {
        if (required.contains(plan->output[i].id)) {
          columns.push_back(static_cast<int>(i));
        }
      }
      if (columns.size() == plan->output.size()) {
        return plan;
      }
      std::vector<ChunkedArray> kept;
      FieldVector fields;
      for (int i : columns) {
        kept.push_back(plan->table->column(i));
        fields.push_back(plan->table->schema()->field(i));
      }
      node->table = Table(schema(std::move(fields)), plan->table->num_rows(), std::move(kept));
      node->output = keep_only(plan->output, required);
      return node;
    }
    case Kind::kRange:
      return plan;
    case Kind::kFileScan:
      node->output = keep_only(plan->output, required);
      return node;
    case Kind::kProject: {
      node->expressions.clear();
      node->output.clear();
      for (size_t i = 0; i < plan->expressions.size(); ++i) {
        if (required.contains(plan->output[i].id) || !is_deterministic(plan->expressions[i])) {
          node->expressions.push_back(plan->expressions[i]);
          node->output.push_back(plan->output[i]);
        }
      }
      below.clear();
      for (AttributeId id : required_by(*node)) {
        below.insert(id);
      }
      node->children = {prune(plan->child(), below)};
      return node;
    }
    case Kind::kAggregate: {
      const size_t keys = plan->grouping.size();
      node->expressions.clear();
      node->output.assign(plan->output.begin(), plan->output.begin() + static_cast<long>(keys));
      for (size_t i = 0; i < plan->expressions.size(); ++i) {
        if (required.contains(plan->output[keys + i].id)) {
          node->expressions.push_back(plan->expressions[i]);
          node->output.push_back(plan->output[keys + i]);
        }
      }
      below.clear();
      for (AttributeId id : required_by(*node)) {
        below.insert(id);
      }
      node->children = {prune(plan->child(), below)};
      return node;
    }
    case Kind::kUnion: {
      std::vector<size_t> positions;
      for (size_t i = 0; i < plan->output.size(); ++i) {
        if (required.contains(plan->output[i].id)) {
          positions.push_back(i);
        }
      }
      node->output.clear();
      for (size_t i : positions) {
        node->output.push_back(plan->output[i]);
      }
      node->children.clear();
      for (const PlanPtr& child : plan->children) {
        AttributeSet wanted;
        for (size_t i : positions) {
          wanted.insert(child->output[i].id);
        }
        PlanPtr pruned = prune(child, wanted);
        if (pruned->output.size() != positions.size()) {
          auto select = std::make_shared<LogicalPlan>(Kind::kProject);
          select->resolved = true;
          for (size_t i : positions) {
            select->expressions.push_back(expr::col(column_name(child->output[i].id)));
            select->output.push_back(child->output[i]);
          }
          select->children = {pruned};
          pruned = select;
        }
        node->children.push_back(pruned);
      }
      return node;
    }
    case Kind::kExpand: {
      // The child's columns pass through first; those nobody reads are dropped from the
      // output and from every projection.
      const size_t passed = plan->child()->output.size();
      node->output.clear();
      for (std::vector<ExprPtr>& projection : node->projections) {
        projection.clear();
      }
      for (size_t i = 0; i < plan->output.size(); ++i) {
        if (i >= passed || required.contains(plan->output[i].id)) {
          node->output.push_back(plan->output[i]);
          for (size_t p = 0; p < plan->projections.size(); ++p) {
            node->projections[p].push_back(plan->projections[p][i]);
          }
        }
      }
      below.clear();
      for (AttributeId id : required_by(*node)) {
        below.insert(id);
      }
      node->children = {prune(plan->child(), below)};
      return node;
    }
    case Kind::kWindow: {
      for (AttributeId id : required_by(*plan)) {
        below.insert(id);
      }
      node->children = {prune(plan->child(), below)};
      node->output = node->child()->output;
      node->output.insert(node->output.end(),
                          plan->output.end() - static_cast<long>(plan->windows.size()),
                          plan->output.end());
      return node;
    }
    case Kind::kCache:
      // The cached rows are the child's whole output, whatever this query reads of them.
      node->children = {prune(plan->child(), ids_of(plan->child()->output))};
      return node;
    case Kind::kGenerate: {
      for (AttributeId id : required_by(*plan)) {
        below.insert(id);
      }
      node->children = {prune(plan->child(), below)};
      const size_t generated = plan->output.size() - plan->child()->output.size();
      node->output = node->child()->output;
      node->output.insert(node->output.end(), plan->output.end() - static_cast<long>(generated),
                          plan->output.end());
      return node;
    }
    case Kind::kJoin: {
      for (AttributeId id : required_by(*plan)) {
        below.insert(id);
      }
      node->children.clear();
      AttributeSet present;
      for (const PlanPtr& child : plan->children) {
        node->children.push_back(prune(child, below));
        for (const Attribute& attribute : node->children.back()->output) {
          present.insert(attribute.id);
        }
      }
      node->output = keep_only(plan->output, present);
      return node;
    }
    default: {
      for (AttributeId id : required_by(*plan)) {
        below.insert(id);
      }
      node->children = {prune(plan->child(), below)};
      node->output = node->child()->output;
      return node;
    }
  }
}

}  // namespace

PlanPtr simplify_booleans(const PlanPtr& plan) {
  return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
    PlanPtr simplified = transform_expressions(node, simplify);
    if (simplified->kind == Kind::kFilter) {
      if (const std::optional<bool> value = boolean_literal(simplified->condition)) {
        return *value ? simplified->child() : empty_like(simplified);
      }
      if (simplified->condition->kind() == EKind::kLiteral &&
          simplified->condition->value().scalar_is_null()) {
        return empty_like(simplified);
      }
    }
    return simplified;
  });
}

PlanPtr combine_filters(const PlanPtr& plan) {
  return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
    if (node->kind != Kind::kFilter || node->child()->kind != Kind::kFilter) {
      return node;
    }
    const LogicalPlan& lower = *node->child();
    if (!is_deterministic(lower.condition) || !is_deterministic(node->condition)) {
      return node;
    }
    return make_filter(lower.child(), expr::and_(lower.condition, node->condition));
  });
}

PlanPtr push_down_filters(const PlanPtr& plan) { return push_down(plan); }

PlanPtr collapse_projects(const PlanPtr& plan) {
  return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
    if (node->kind != Kind::kProject) {
      return node;
    }
    if (is_identity(*node)) {
      return node->child();
    }
    const LogicalPlan& lower = *node->child();
    if (lower.kind != Kind::kProject || !all_deterministic(lower.expressions)) {
      return node;
    }
    // Merging must not compute an expression of the lower projection more than once.
    const std::unordered_map<AttributeId, int> counts = reference_counts(node->expressions);
    for (size_t i = 0; i < lower.expressions.size(); ++i) {
      const auto found = counts.find(lower.output[i].id);
      if (found != counts.end() && found->second > 1 &&
          lower.expressions[i]->kind() != EKind::kColumn &&
          lower.expressions[i]->kind() != EKind::kLiteral) {
        return node;
      }
    }
    const std::unordered_map<AttributeId, ExprPtr> replacements = projection_map(lower);
    auto merged = std::make_shared<LogicalPlan>(*node);
    merged->children = {lower.child()};
    for (ExprPtr& expression : merged->expressions) {
      const std::optional<ExprPtr> substituted = substitute(expression, replacements);
      if (!substituted) {
        return node;
      }
      expression = *substituted;
    }
    return is_identity(*merged) ? merged->child() : merged;
  });
}

PlanPtr prune_columns(const PlanPtr& plan) { return prune(plan, ids_of(plan->output)); }

PlanPtr push_down_limits(const PlanPtr& plan) {
  return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
    if (node->kind != Kind::kLimit) {
      return node;
    }
    const PlanPtr& child = node->child();
    if (child->kind == Kind::kProject && all_deterministic(child->expressions)) {
      return child->with_children({node->with_children({child->child()})});
    }
    if (child->kind == Kind::kLimit) {
      auto merged = std::make_shared<LogicalPlan>(*node);
      merged->children = {child->child()};
      merged->offset = child->offset + node->offset;
      int64_t available = -1;
      if (child->limit >= 0) {
        available = std::max<int64_t>(0, child->limit - node->offset);
      }
      if (node->limit < 0) {
        merged->limit = available;
      } else {
        merged->limit = available < 0 ? node->limit : std::min(node->limit, available);
      }
      return merged;
    }
    return node;
  });
}

namespace {

/// Whether `conjunct`, which reads only `side`'s columns, is null or false when every one of
/// them is null: a filter with it drops the rows an outer join pads with nulls.
bool rejects_nulls(const ExprPtr& conjunct, const std::vector<Attribute>& side) {
  const std::vector<AttributeId> read = referenced_attributes(conjunct);
  if (read.empty() || !is_deterministic(conjunct)) {
    return false;
  }
  std::unordered_map<AttributeId, ExprPtr> nulls;
  for (AttributeId id : read) {
    const auto found =
        std::find_if(side.begin(), side.end(), [&](const Attribute& a) { return a.id == id; });
    if (found == side.end()) {
      return false;
    }
    nulls.emplace(id, expr::null_literal(found->type));
  }
  const std::optional<ExprPtr> padded = substitute(conjunct, nulls);
  if (!padded) {
    return false;
  }
  try {
    const expr::BoundExpression bound = expr::bind_expression(*padded, Schema({}));
    if (bound.root().kind != expr::BoundNode::Kind::kLiteral) {
      return false;
    }
    const compute::Datum& value = bound.root().value;
    return value.scalar_is_null() ||
           (value.type()->id() == TypeId::kBoolean && !value.array().as<BooleanArray>().value(0));
  } catch (const Error&) {
    // A condition that fails on nulls is not one to reason about.
    return false;
  }
}

bool any_rejects_nulls(const std::vector<ExprPtr>& conjuncts, const std::vector<Attribute>& side) {
  return std::any_of(conjuncts.begin(), conjuncts.end(),
                     [&](const ExprPtr& conjunct) { return rejects_nulls(conjunct, side); });
}

/// The subtrees worth computing once: deterministic calls, casts and the like, outside the
/// branches that conditional expressions evaluate on some rows only.
void collect_subexpressions(const ExprPtr& expression, std::unordered_map<std::string, int>& counts,
                            std::unordered_map<std::string, ExprPtr>& trees) {
  const EKind kind = expression->kind();
  if (kind == EKind::kColumn || kind == EKind::kLiteral || kind == EKind::kAlias) {
    for (const ExprPtr& operand : expression->operands()) {
      collect_subexpressions(operand, counts, trees);
    }
    return;
  }
  if (!is_deterministic(expression)) {
    return;
  }
  const std::string text = expression->to_string();
  if (++counts[text] == 1) {
    trees.emplace(text, expression);
  }
  const std::string name = expr::detail::ascii_lower(expression->name());
  const bool conditional =
      kind == EKind::kCaseWhen || kind == EKind::kAnd || kind == EKind::kOr ||
      (kind == EKind::kCall && (name == "coalesce" || name == "if" || name == "nvl" ||
                                name == "ifnull" || name == "nvl2" || name == "nullif"));
  // A conditional's first operand is always evaluated; the others only on some rows.
  const size_t always = conditional ? 1 : expression->operands().size();
  for (size_t i = 0; i < always && i < expression->operands().size(); ++i) {
    collect_subexpressions(expression->operands()[i], counts, trees);
  }
}

}  // namespace

PlanPtr eliminate_outer_joins(const PlanPtr& plan) {
  return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
    if (node->kind != Kind::kFilter || node->child()->kind != Kind::kJoin) {
      return node;
    }
    const LogicalPlan& join = *node->child();
    const JoinType type = join.join_type;
    if (type != JoinType::kLeftOuter && type != JoinType::kRightOuter &&
        type != JoinType::kFullOuter) {
      return node;
    }
    const std::vector<ExprPtr> conjuncts = split_conjuncts(node->condition);
    const bool left_rejected = any_rejects_nulls(conjuncts, join.child(0)->output);
    const bool right_rejected = any_rejects_nulls(conjuncts, join.child(1)->output);
    JoinType converted = type;
    if (type == JoinType::kLeftOuter && right_rejected) {
      converted = JoinType::kInner;
    } else if (type == JoinType::kRightOuter && left_rejected) {
      converted = JoinType::kInner;
    } else if (type == JoinType::kFullOuter) {
      if (left_rejected && right_rejected) {
        converted = JoinType::kInner;
      } else if (left_rejected) {
        converted = JoinType::kLeftOuter;
      } else if (right_rejected) {
        converted = JoinType::kRightOuter;
      }
    }
    if (converted == type) {
      return node;
    }
    auto copy = std::make_shared<LogicalPlan>(join);
    copy->join_type = converted;
    return node->with_children({copy});
  });
}

PlanPtr eliminate_sorts_and_push_limits_into_unions(const PlanPtr& plan) {
  return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
    if (node->kind == Kind::kSort && node->child()->kind == Kind::kSort) {
      return node->with_children({node->child()->child()});
    }
    if (node->kind == Kind::kLimit && node->limit >= 0 && node->child()->kind == Kind::kUnion) {
      const int64_t wanted = node->limit + node->offset;
      std::vector<PlanPtr> children;
      bool changed = false;
      for (const PlanPtr& child : node->child()->children) {
        if (child->kind == Kind::kLimit && child->limit >= 0 && child->limit <= wanted &&
            child->offset == 0) {
          children.push_back(child);
          continue;
        }
        auto limited = std::make_shared<LogicalPlan>(Kind::kLimit);
        limited->children = {child};
        limited->output = child->output;
        limited->resolved = true;
        limited->limit = wanted;
        children.push_back(limited);
        changed = true;
      }
      if (changed) {
        return node->with_children({node->child()->with_children(std::move(children))});
      }
    }
    return node;
  });
}

PlanPtr reuse_common_subexpressions(const PlanPtr& plan) {
  return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
    if (node->kind != Kind::kProject) {
      return node;
    }
    std::unordered_map<std::string, int> counts;
    std::unordered_map<std::string, ExprPtr> trees;
    for (const ExprPtr& expression : node->expressions) {
      collect_subexpressions(expression, counts, trees);
    }
    // The repeated subtrees, largest first, skipping those inside a larger repeated one.
    std::vector<ExprPtr> repeated;
    for (const auto& [text, count] : counts) {
      if (count > 1) {
        repeated.push_back(trees.at(text));
      }
    }
    if (repeated.empty()) {
      return node;
    }
    std::sort(repeated.begin(), repeated.end(), [](const ExprPtr& a, const ExprPtr& b) {
      const size_t a_size = a->to_string().size();
      const size_t b_size = b->to_string().size();
      return a_size != b_size ? a_size > b_size : a->to_string() < b->to_string();
    });
    std::vector<ExprPtr> chosen;
    for (const ExprPtr& candidate : repeated) {
      const std::string text = candidate->to_string();
      const bool inside = std::any_of(chosen.begin(), chosen.end(), [&](const ExprPtr& larger) {
        return larger->to_string().find(text) != std::string::npos;
      });
      if (!inside) {
        chosen.push_back(candidate);
      }
    }
    // Below: the input's columns and each chosen subexpression; above: the expressions
    // reading them.
    auto lower = std::make_shared<LogicalPlan>(Kind::kProject);
    lower->resolved = true;
    lower->children = {node->child()};
    for (const Attribute& attribute : node->child()->output) {
      lower->expressions.push_back(expr::col(column_name(attribute.id)));
      lower->output.push_back(attribute);
    }
    std::unordered_map<std::string, ExprPtr> replaced;
    for (const ExprPtr& subexpression : chosen) {
      const expr::BoundExpression bound =
          expr::bind_expression(subexpression, *internal_schema(node->child()->output));
      Attribute attribute{new_attribute_id(),
                          "_common_" + std::to_string(replaced.size()),
                          bound.type(),
                          bound.nullable(),
                          {}};
      lower->expressions.push_back(subexpression);
      lower->output.push_back(attribute);
      replaced.emplace(subexpression->to_string(), expr::col(column_name(attribute.id)));
    }
    auto upper = std::make_shared<LogicalPlan>(*node);
    upper->children = {lower};
    for (ExprPtr& expression : upper->expressions) {
      expression = transform(expression, [&](const ExprPtr& subtree) -> ExprPtr {
        if (subtree->kind() == EKind::kColumn || subtree->kind() == EKind::kLiteral) {
          return nullptr;
        }
        const auto found = replaced.find(subtree->to_string());
        return found != replaced.end() ? found->second : nullptr;
      });
    }
    return upper;
  });
}

PlanPtr remove_subquery_aliases(const PlanPtr& plan) {
  return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
    return node->kind == Kind::kSubqueryAlias ? node->child() : node;
  });
}

const std::vector<OptimizerRule>& optimizer_rules() {
  static const std::vector<OptimizerRule> rules = {
      {"RemoveSubqueryAliases", remove_subquery_aliases},
      {"SimplifyBooleans", simplify_booleans},
      {"EliminateOuterJoins", eliminate_outer_joins},
      {"CombineFilters", combine_filters},
      {"PushDownFilters", push_down_filters},
      {"CollapseProjects", collapse_projects},
      {"PushDownLimits", push_down_limits},
      {"EliminateSortsAndPushLimitsIntoUnions", eliminate_sorts_and_push_limits_into_unions},
      {"PruneColumns", prune_columns},
  };
  return rules;
}

PlanPtr optimize(const PlanPtr& plan) {
  constexpr int kMaxRounds = 10;
  PlanPtr current = plan;
  for (int round = 0; round < kMaxRounds; ++round) {
    const std::string before = tree_string(current);
    for (const OptimizerRule& rule : optimizer_rules()) {
      current = rule.apply(current);
    }
    if (tree_string(current) == before) {
      break;
    }
  }
  // Once, at the end: merging projections again would undo it.
  return reuse_common_subexpressions(current);
}

}  // namespace bowstring::plan
