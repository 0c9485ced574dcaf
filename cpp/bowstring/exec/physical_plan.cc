#include "bowstring/exec/physical_plan.h"

#include <utility>

#include "bowstring/plan/explain.h"
#include "bowstring/plan/expression_util.h"
#include "bowstring/util/error.h"

namespace bowstring::exec {

namespace {

using plan::LogicalPlan;
using LKind = LogicalPlan::Kind;
using Kind = PhysicalNode::Kind;

/// The texts that stand for the columns of `attributes` in bound expressions' SQL.
std::vector<std::string> column_texts(const std::vector<plan::Attribute>& attributes) {
  std::vector<std::string> out;
  out.reserve(attributes.size());
  for (const plan::Attribute& attribute : attributes) {
    out.push_back(attribute.to_string());
  }
  return out;
}

class PhysicalPlanner {
 public:
  PhysicalPlanner(compute::ExecContext& context, const compute::FunctionRegistry& registry)
      : context_(context), registry_(registry) {}

  PhysicalPtr convert(const plan::PlanPtr& logical) {
    if (!logical->resolved) {
      throw InvalidArgument("the physical planner needs a resolved plan");
    }
    switch (logical->kind) {
      case LKind::kLocalRelation: {
        auto node = make(Kind::kTableScan, *logical, {});
        const Table& table = *logical->table;
        node->table = Table(node->schema, table.num_rows(), table.columns());
        node->description = "LocalTableScan " + list(logical->output);
        return node;
      }
      case LKind::kRange: {
        auto node = make(Kind::kRange, *logical, {});
        node->start = logical->start;
        node->end = logical->end;
        node->step = logical->step;
        node->description = plan::node_string(*logical);
        return node;
      }
      case LKind::kProject: {
        PhysicalPtr child = convert(logical->child());
        auto node = make(Kind::kProject, *logical, {child});
        for (const expr::ExprPtr& expression : logical->expressions) {
          node->expressions.push_back(bind(expression, *child));
        }
        node->description = plan::node_string(*logical);
        return node;
      }
      case LKind::kFilter: {
        PhysicalPtr child = convert(logical->child());
        auto node = make(Kind::kFilter, *logical, {child});
        node->predicate = bind(logical->condition, *child);
        node->description = plan::node_string(*logical);
        return node;
      }
      case LKind::kAggregate:
        return convert_aggregate(*logical);
      case LKind::kSort: {
        PhysicalPtr child = convert(logical->child());
        auto node = make(Kind::kSort, *logical, {child});
        bind_orders(*logical, *child, *node);
        node->description = plan::node_string(*logical);
        return node;
      }
      case LKind::kLimit:
        return convert_limit(*logical);
      case LKind::kUnion: {
        std::vector<PhysicalPtr> children;
        for (const plan::PlanPtr& child : logical->children) {
          children.push_back(convert(child));
        }
        auto node = make(Kind::kUnion, *logical, std::move(children));
        node->description = "Union";
        return node;
      }
      case LKind::kSubqueryAlias:
        return convert(logical->child());
      case LKind::kExpand: {
        PhysicalPtr child = convert(logical->child());
        auto node = make(Kind::kExpand, *logical, {child});
        for (const std::vector<expr::ExprPtr>& projection : logical->projections) {
          std::vector<expr::BoundExpression> bound;
          for (const expr::ExprPtr& expression : projection) {
            bound.push_back(bind(expression, *child));
          }
          node->projections.push_back(std::move(bound));
        }
        node->description = plan::node_string(*logical);
        return node;
      }
      case LKind::kReplicate: {
        PhysicalPtr child = convert(logical->child());
        auto node = make(Kind::kReplicate, *logical, {child});
        node->expressions.push_back(bind(logical->expressions[0], *child));
        node->description = plan::node_string(*logical);
        return node;
      }
      case LKind::kSample: {
        PhysicalPtr child = convert(logical->child());
        auto node = make(Kind::kSample, *logical, {child});
        node->fraction = logical->fraction;
        node->with_replacement = logical->with_replacement;
        node->seed = logical->seed;
        node->description = plan::node_string(*logical);
        return node;
      }
      case LKind::kRepartition: {
        PhysicalPtr child = convert(logical->child());
        auto node = make(Kind::kExchange, *logical, {child});
        const std::string count = std::to_string(logical->num_partitions);
        if (logical->grouping.empty()) {
          node->description = "Exchange RoundRobinPartitioning(" + count + ")";
        } else {
          std::string keys;
          for (const expr::ExprPtr& key : logical->grouping) {
            keys +=
                (keys.empty() ? "" : ", ") + plan::expression_text(key, logical->child()->output);
          }
          node->description = "Exchange hashpartitioning(" + keys + ", " + count + ")";
        }
        return node;
      }
      case LKind::kDistinct:
      case LKind::kJoin:
      case LKind::kSetOperation:
      case LKind::kDeduplicate:
        break;
    }
    throw NotImplemented("the engine has no operator for " + std::string(logical->node_name()) +
                         " yet");
  }

 private:
  static std::string list(const std::vector<plan::Attribute>& attributes) {
    std::string out = "[";
    for (size_t i = 0; i < attributes.size(); ++i) {
      out += (i > 0 ? ", " : "") + attributes[i].to_string();
    }
    return out + "]";
  }

  static std::shared_ptr<PhysicalNode> make(Kind kind, const LogicalPlan& logical,
                                            std::vector<PhysicalPtr> children) {
    auto node = std::make_shared<PhysicalNode>();
    node->kind = kind;
    node->children = std::move(children);
    node->output = logical.output;
    node->schema = plan::internal_schema(logical.output);
    return node;
  }

  expr::BoundExpression bind(const expr::ExprPtr& expression, const PhysicalNode& input) {
    const std::vector<std::string> texts = column_texts(input.output);
    return expr::bind_expression(expression, *input.schema, registry_, &context_, texts);
  }

  void bind_orders(const LogicalPlan& logical, const PhysicalNode& input, PhysicalNode& node) {
    for (const plan::SortOrder& order : logical.orders) {
      node.keys.push_back(bind(order.expression, input));
      node.sort_keys.push_back(order.key);
    }
  }

  PhysicalPtr convert_aggregate(const LogicalPlan& logical) {
    PhysicalPtr child = convert(logical.child());
    auto node = make(Kind::kHashAggregate, logical, {child});
    for (const expr::ExprPtr& key : logical.grouping) {
      node->keys.push_back(bind(key, *child));
    }
    for (const expr::ExprPtr& call : logical.expressions) {
      const compute::Function& function = registry_.get(call->name());
      AggregateSpec spec;
      spec.function = dynamic_cast<const compute::AggregateFunction*>(&function);
      if (spec.function == nullptr) {
        throw InvalidArgument("'" + call->name() + "' is not an aggregate function");
      }
      for (const expr::ExprPtr& argument : call->operands()) {
        spec.arguments.push_back(bind(argument, *child));
      }
      spec.options = call->options();
      // Spark's grouped aggregation keeps decimal sums within 38 digits at every step.
      spec.options["grouped"] = !logical.grouping.empty();
      node->aggregates.push_back(std::move(spec));
    }
    std::string keys;
    for (const plan::Attribute& attribute : std::vector<plan::Attribute>(
             logical.output.begin(),
             logical.output.begin() + static_cast<long>(logical.grouping.size()))) {
      keys += (keys.empty() ? "" : ", ") + attribute.to_string();
    }
    std::string functions;
    for (const expr::ExprPtr& call : logical.expressions) {
      functions +=
          (functions.empty() ? "" : ", ") + plan::expression_text(call, logical.child()->output);
    }
    node->description = "HashAggregate(keys=[" + keys + "], functions=[" + functions + "])";
    return node;
  }

  PhysicalPtr convert_limit(const LogicalPlan& logical) {
    const plan::PlanPtr& below = logical.child();
    if (below->kind == LKind::kSort && logical.limit >= 0) {
      PhysicalPtr child = convert(below->child());
      auto node = make(Kind::kTopN, logical, {child});
      bind_orders(*below, *child, *node);
      node->limit = logical.limit;
      node->offset = logical.offset;
      std::string order;
      for (size_t i = 0; i < below->orders.size(); ++i) {
        const plan::SortOrder& key = below->orders[i];
        order += (i > 0 ? ", " : "") +
                 plan::expression_text(key.expression, below->child()->output) +
                 (key.key.ascending ? " ASC" : " DESC") +
                 (key.key.nulls_go_first() ? " NULLS FIRST" : " NULLS LAST");
      }
      node->description =
          "TakeOrderedAndProject(limit=" + std::to_string(logical.limit) +
          (logical.offset > 0 ? ", offset=" + std::to_string(logical.offset) : std::string()) +
          ", orderBy=[" + order + "], output=" + list(logical.output) + ")";
      return node;
    }
    PhysicalPtr child = convert(below);
    auto node = make(Kind::kLimit, logical, {child});
    node->limit = logical.limit;
    node->offset = logical.offset;
    node->description =
        logical.limit >= 0
            ? "GlobalLimit " + std::to_string(logical.limit) +
                  (logical.offset > 0 ? ", " + std::to_string(logical.offset) : std::string())
            : "Offset " + std::to_string(logical.offset);
    return node;
  }

  compute::ExecContext& context_;
  const compute::FunctionRegistry& registry_;
};

void print(const PhysicalNode& node, std::string& out, const std::string& prefix,
           const std::string& child_prefix) {
  out += prefix + node.description + "\n";
  for (size_t i = 0; i < node.children.size(); ++i) {
    const bool last = i + 1 == node.children.size();
    print(*node.children[i], out, child_prefix + (last ? "+- " : ":- "),
          child_prefix + (last ? "   " : ":  "));
  }
}

}  // namespace

std::string_view PhysicalNode::name() const {
  switch (kind) {
    case Kind::kTableScan:
      return "LocalTableScan";
    case Kind::kRange:
      return "Range";
    case Kind::kFilter:
      return "Filter";
    case Kind::kProject:
      return "Project";
    case Kind::kHashAggregate:
      return "HashAggregate";
    case Kind::kSort:
      return "Sort";
    case Kind::kTopN:
      return "TakeOrderedAndProject";
    case Kind::kLimit:
      return "Limit";
    case Kind::kUnion:
      return "Union";
    case Kind::kExpand:
      return "Expand";
    case Kind::kReplicate:
      return "Replicate";
    case Kind::kSample:
      return "Sample";
    case Kind::kExchange:
      return "Exchange";
  }
  return "Unknown";
}

PhysicalPtr plan_physical(const plan::PlanPtr& plan, compute::ExecContext& context,
                          const compute::FunctionRegistry& registry) {
  if (plan == nullptr) {
    throw InvalidArgument("plan_physical needs a plan");
  }
  return PhysicalPlanner(context, registry).convert(plan);
}

std::string physical_tree_string(const PhysicalPtr& plan) {
  std::string out;
  print(*plan, out, "", "");
  return out;
}

}  // namespace bowstring::exec
