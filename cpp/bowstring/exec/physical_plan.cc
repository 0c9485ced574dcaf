#include "bowstring/exec/physical_plan.h"

#include <algorithm>
#include <utility>

#include "bowstring/compute/core/coercion.h"
#include "bowstring/plan/explain.h"
#include "bowstring/plan/expression_util.h"
#include "bowstring/runtime/parallel.h"
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
      case LKind::kFileScan: {
        auto node = make(Kind::kFileScan, *logical, {});
        node->file_scan = plan_file_scan(*logical, context_, registry_, hardware_threads());
        node->description = file_scan_description(*logical);
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
      case LKind::kJoin:
        return convert_join(*logical);
      case LKind::kWindow: {
        PhysicalPtr child = convert(logical->child());
        auto node = make(Kind::kWindow, *logical, {child});
        for (const expr::ExprPtr& key : logical->grouping) {
          node->keys.push_back(bind(key, *child));
        }
        for (const plan::SortOrder& order : logical->orders) {
          node->expressions.push_back(bind(order.expression, *child));
          node->sort_keys.push_back(order.key);
        }
        for (const plan::WindowExpression& window : logical->windows) {
          WindowSpec spec;
          spec.function = window.function->name();
          for (const expr::ExprPtr& argument : window.function->operands()) {
            spec.arguments.push_back(bind(argument, *child));
          }
          spec.options = window.function->options();
          spec.frame = window.frame;
          node->windows.push_back(std::move(spec));
        }
        node->description = plan::node_string(*logical);
        return node;
      }
      case LKind::kCache: {
        PhysicalPtr child = convert(logical->child());
        auto node = make(Kind::kCache, *logical, {child});
        node->cache = logical->cache;
        node->description = "InMemoryTableScan " + list(logical->output);
        return node;
      }
      case LKind::kGenerate: {
        PhysicalPtr child = convert(logical->child());
        auto node = make(Kind::kGenerate, *logical, {child});
        const expr::ExprPtr& call = logical->expressions[0];
        node->generator = compute::find_generator(call->name());
        for (const expr::ExprPtr& argument : call->operands()) {
          node->expressions.push_back(bind(argument, *child));
        }
        node->description = plan::node_string(*logical);
        return node;
      }
      case LKind::kDistinct:
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

  /// Rows a plan is expected to produce, for choosing the side of a join to hash: exact for
  /// sources, the input's for operators that keep or drop rows.
  static double estimated_rows(const LogicalPlan& plan) {
    switch (plan.kind) {
      case LKind::kLocalRelation:
        return static_cast<double>(plan.table->num_rows());
      case LKind::kFileScan: {
        // About as many rows as a CSV file of short values has: a row per 32 bytes.
        double bytes = 0;
        for (const io::DataFile& file : plan.file_scan->relation->files.files) {
          bytes += static_cast<double>(file.size);
        }
        return bytes / 32;
      }
      case LKind::kRange: {
        const double span = static_cast<double>(plan.end) - static_cast<double>(plan.start);
        return std::max(0.0, span / static_cast<double>(plan.step));
      }
      case LKind::kLimit:
        return plan.limit >= 0
                   ? std::min(static_cast<double>(plan.limit), estimated_rows(*plan.child()))
                   : estimated_rows(*plan.child());
      case LKind::kFilter:
        return estimated_rows(*plan.child()) / 2;
      case LKind::kJoin:
        return std::max(estimated_rows(*plan.child(0)), estimated_rows(*plan.child(1)));
      default: {
        double rows = 0;
        for (const plan::PlanPtr& child : plan.children) {
          rows += estimated_rows(*child);
        }
        return rows;
      }
    }
  }

  static bool reads_only(const expr::ExprPtr& expression,
                         const std::vector<plan::Attribute>& side) {
    const std::vector<plan::AttributeId> read = plan::referenced_attributes(expression);
    if (read.empty()) {
      return false;
    }
    for (plan::AttributeId id : read) {
      if (std::none_of(side.begin(), side.end(),
                       [&](const plan::Attribute& a) { return a.id == id; })) {
        return false;
      }
    }
    return true;
  }

  PhysicalPtr convert_join(const LogicalPlan& logical) {
    const std::vector<plan::Attribute>& left_output = logical.child(0)->output;
    const std::vector<plan::Attribute>& right_output = logical.child(1)->output;
    std::vector<expr::ExprPtr> left_keys;
    std::vector<expr::ExprPtr> right_keys;
    std::vector<bool> null_safe;
    std::vector<expr::ExprPtr> residual;
    if (logical.condition != nullptr) {
      for (const expr::ExprPtr& conjunct : plan::split_conjuncts(logical.condition)) {
        const std::string name = expr::detail::ascii_lower(conjunct->name());
        const bool equality = conjunct->kind() == expr::Expression::Kind::kCall &&
                              conjunct->operands().size() == 2 &&
                              (name == "=" || name == "==" || name == "<=>");
        if (equality) {
          const expr::ExprPtr& a = conjunct->operands()[0];
          const expr::ExprPtr& b = conjunct->operands()[1];
          if (reads_only(a, left_output) && reads_only(b, right_output)) {
            left_keys.push_back(a);
            right_keys.push_back(b);
            null_safe.push_back(name == "<=>");
            continue;
          }
          if (reads_only(a, right_output) && reads_only(b, left_output)) {
            left_keys.push_back(b);
            right_keys.push_back(a);
            null_safe.push_back(name == "<=>");
            continue;
          }
        }
        residual.push_back(conjunct);
      }
    }
    PhysicalPtr left = convert(logical.child(0));
    PhysicalPtr right = convert(logical.child(1));
    const plan::JoinType type = logical.join_type;
    // Hash the smaller side: the table's join types cover the swapped forms.
    const bool swap =
        !left_keys.empty() && estimated_rows(*logical.child(1)) > estimated_rows(*logical.child(0));
    auto node =
        make(left_keys.empty() ? Kind::kNestedLoopJoin : Kind::kHashJoin, logical,
             swap ? std::vector<PhysicalPtr>{right, left} : std::vector<PhysicalPtr>{left, right});
    node->swapped = swap;
    node->join_type = table_join_type(type, swap);
    node->null_safe = null_safe;
    const PhysicalNode& probe = *node->children[0];
    const PhysicalNode& build = *node->children[1];
    for (size_t i = 0; i < left_keys.size(); ++i) {
      expr::ExprPtr probe_key = swap ? right_keys[i] : left_keys[i];
      expr::ExprPtr build_key = swap ? left_keys[i] : right_keys[i];
      const TypePtr probe_type = bind(probe_key, probe).type();
      const TypePtr build_type = bind(build_key, build).type();
      if (!probe_type->equals(*build_type)) {
        const std::optional<TypePtr> common = compute::comparison_type(probe_type, build_type);
        if (!common) {
          throw InvalidArgument("join keys of types " + probe_type->to_string() + " and " +
                                build_type->to_string() + " cannot be compared");
        }
        if (!probe_type->equals(**common)) {
          probe_key = expr::cast(probe_key, *common);
        }
        if (!build_type->equals(**common)) {
          build_key = expr::cast(build_key, *common);
        }
      }
      node->keys.push_back(bind(probe_key, probe));
      node->build_keys.push_back(bind(build_key, build));
    }
    if (!residual.empty()) {
      PhysicalNode both;
      both.output = probe.output;
      both.output.insert(both.output.end(), build.output.begin(), build.output.end());
      both.schema = plan::internal_schema(both.output);
      node->predicate = bind(plan::combine_conjuncts(residual), both);
    }
    std::vector<plan::Attribute> inputs = left_output;
    inputs.insert(inputs.end(), right_output.begin(), right_output.end());
    auto keys_text = [&](const std::vector<expr::ExprPtr>& keys) {
      std::string out;
      for (const expr::ExprPtr& key : keys) {
        out += (out.empty() ? "" : ", ") + plan::expression_text(key, inputs);
      }
      return "[" + out + "]";
    };
    const std::string condition =
        residual.empty() ? std::string()
                         : ", " + plan::expression_text(plan::combine_conjuncts(residual), inputs);
    if (left_keys.empty()) {
      node->description = "BroadcastNestedLoopJoin BuildRight, " +
                          std::string(plan::join_type_name(type)) + condition;
    } else {
      node->description = "ShuffledHashJoin " + keys_text(left_keys) + ", " +
                          keys_text(right_keys) + ", " + std::string(plan::join_type_name(type)) +
                          (swap ? ", BuildLeft" : ", BuildRight") + condition;
    }
    return node;
  }

  /// The join type of the table, whose left side is the probe side.
  static compute::JoinType table_join_type(plan::JoinType type, bool swap) {
    using compute::JoinType;
    switch (type) {
      case plan::JoinType::kInner:
      case plan::JoinType::kCross:
        return JoinType::kInner;
      case plan::JoinType::kLeftOuter:
        return swap ? JoinType::kRightOuter : JoinType::kLeftOuter;
      case plan::JoinType::kRightOuter:
        return swap ? JoinType::kLeftOuter : JoinType::kRightOuter;
      case plan::JoinType::kFullOuter:
        return JoinType::kFullOuter;
      case plan::JoinType::kLeftSemi:
        return swap ? JoinType::kRightSemi : JoinType::kLeftSemi;
      case plan::JoinType::kLeftAnti:
        return swap ? JoinType::kRightAnti : JoinType::kLeftAnti;
    }
    return JoinType::kInner;
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
    case Kind::kHashJoin:
      return "ShuffledHashJoin";
    case Kind::kNestedLoopJoin:
      return "BroadcastNestedLoopJoin";
    case Kind::kGenerate:
      return "Generate";
    case Kind::kCache:
      return "InMemoryTableScan";
    case Kind::kWindow:
      return "Window";
    case Kind::kFileScan:
      return "FileScan";
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
