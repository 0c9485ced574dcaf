#include "bowstring/plan/explain.h"

#include <vector>

#include "bowstring/plan/expression_util.h"

namespace bowstring::plan {

namespace {

using Kind = LogicalPlan::Kind;

/// The attributes the node's expressions read: its children's outputs.
std::vector<Attribute> inputs_of(const LogicalPlan& plan) {
  std::vector<Attribute> out;
  for (const PlanPtr& child : plan.children) {
    out.insert(out.end(), child->output.begin(), child->output.end());
  }
  return out;
}

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    out += (i > 0 ? ", " : "") + items[i];
  }
  return out + "]";
}

std::string attributes_text(const std::vector<Attribute>& attributes) {
  std::vector<std::string> items;
  for (const Attribute& attribute : attributes) {
    items.push_back(attribute.to_string());
  }
  return list(items);
}

/// Output expressions: "(a#1 + 1) AS b#2", or the attribute alone when it is passed through.
std::string named_text(const expr::ExprPtr& expression, const Attribute& attribute,
                       const std::vector<Attribute>& input) {
  const std::string text = expression_text(expression, input);
  return text == attribute.to_string() ? text : text + " AS " + attribute.to_string();
}

std::string expressions_text(const std::vector<expr::ExprPtr>& expressions,
                             const std::vector<Attribute>& input) {
  std::vector<std::string> items;
  for (const expr::ExprPtr& expression : expressions) {
    items.push_back(expression_text(expression, input));
  }
  return list(items);
}

std::string sort_text(const SortOrder& order, const std::vector<Attribute>& input) {
  return expression_text(order.expression, input) + (order.key.ascending ? " ASC" : " DESC") +
         (order.key.nulls_go_first() ? " NULLS FIRST" : " NULLS LAST");
}

/// Spark's compact column list of scans: "[a#0,b#1]".
std::string compact_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    out += (i > 0 ? "," : "") + items[i];
  }
  return out + "]";
}

std::string file_scan_text(const LogicalPlan& plan) {
  const FileScan& scan = *plan.file_scan;
  std::vector<std::string> columns;
  if (plan.resolved) {
    for (const Attribute& attribute : plan.output) {
      columns.push_back(attribute.to_string());
    }
  } else {
    columns = scan.relation->schema->field_names();
  }
  std::string out = compact_list(columns) + " " + std::string(scan.relation->format->name());
  if (!scan.partition_filters.empty()) {
    out += ", PartitionFilters: " + expressions_text(scan.partition_filters, scan.attributes);
  }
  if (!scan.data_filters.empty()) {
    out += ", DataFilters: " + expressions_text(scan.data_filters, scan.attributes);
  }
  return out;
}

std::string details(const LogicalPlan& plan) {
  const std::vector<Attribute> input = inputs_of(plan);
  switch (plan.kind) {
    case Kind::kLocalRelation: {
      if (plan.resolved) {
        return attributes_text(plan.output);
      }
      return list(plan.table->schema()->field_names());
    }
    case Kind::kRange:
      return "(" + std::to_string(plan.start) + ", " + std::to_string(plan.end) +
             ", step=" + std::to_string(plan.step) + ", splits=" +
             (plan.num_partitions > 0 ? "Some(" + std::to_string(plan.num_partitions) + ")"
                                      : std::string("None")) +
             ")";
    case Kind::kProject: {
      if (!plan.resolved) {
        return expressions_text(plan.expressions, input);
      }
      std::vector<std::string> items;
      for (size_t i = 0; i < plan.expressions.size(); ++i) {
        items.push_back(named_text(plan.expressions[i], plan.output[i], input));
      }
      return list(items);
    }
    case Kind::kFilter:
      return expression_text(plan.condition, input);
    case Kind::kAggregate: {
      std::string out = expressions_text(plan.grouping, input) + ", ";
      if (!plan.resolved) {
        return out + expressions_text(plan.expressions, input);
      }
      std::vector<std::string> items;
      const size_t keys = plan.grouping.size();
      for (size_t i = 0; i < keys; ++i) {
        items.push_back(named_text(plan.grouping[i], plan.output[i], input));
      }
      for (size_t i = 0; i < plan.expressions.size(); ++i) {
        items.push_back(named_text(plan.expressions[i], plan.output[keys + i], input));
      }
      return out + list(items);
    }
    case Kind::kSort: {
      std::vector<std::string> items;
      for (const SortOrder& order : plan.orders) {
        items.push_back(sort_text(order, input));
      }
      return list(items) + ", true";
    }
    case Kind::kLimit:
      if (plan.limit < 0) {
        return std::to_string(plan.offset);
      }
      return std::to_string(plan.limit) +
             (plan.offset > 0 ? ", offset " + std::to_string(plan.offset) : std::string());
    case Kind::kUnion:
      return std::string(plan.by_name ? "true" : "false") + ", " +
             (plan.allow_missing_columns ? "true" : "false");
    case Kind::kDistinct:
      return {};
    case Kind::kSubqueryAlias:
      return plan.alias;
    case Kind::kJoin:
      return std::string(join_type_name(plan.join_type)) +
             (plan.condition != nullptr ? ", " + expression_text(plan.condition, input)
                                        : std::string());
    case Kind::kSetOperation:
      return plan.is_all ? "All" : "";
    case Kind::kDeduplicate:
      return expressions_text(plan.grouping, input);
    case Kind::kSample:
      return "0.0, " + std::to_string(plan.fraction) + ", " +
             (plan.with_replacement ? "true" : "false") + ", " + std::to_string(plan.seed);
    case Kind::kRepartition:
      return (plan.grouping.empty() ? "" : expressions_text(plan.grouping, input) + ", ") +
             std::to_string(plan.num_partitions);
    case Kind::kExpand: {
      std::vector<std::string> sets;
      for (const std::vector<expr::ExprPtr>& projection : plan.projections) {
        sets.push_back(expressions_text(projection, input));
      }
      return list(sets) + ", " + attributes_text(plan.output);
    }
    case Kind::kReplicate:
      return expression_text(plan.expressions[0], input);
    case Kind::kWindow: {
      std::vector<std::string> calls;
      for (size_t i = 0; i < plan.windows.size(); ++i) {
        const std::string call = expression_text(plan.windows[i].function, input);
        calls.push_back(plan.resolved ? call + " AS " +
                                            plan.output[plan.child()->output.size() + i].to_string()
                                      : call);
      }
      std::vector<std::string> orders;
      for (const SortOrder& order : plan.orders) {
        orders.push_back(sort_text(order, input));
      }
      return list(calls) + ", " + expressions_text(plan.grouping, input) + ", " + list(orders);
    }
    case Kind::kCache:
      return plan.resolved ? attributes_text(plan.output) : std::string();
    case Kind::kFileScan:
      return file_scan_text(plan);
    case Kind::kGenerate: {
      const size_t generated = plan.output.size() - plan.child()->output.size();
      return expression_text(plan.expressions[0], input) + ", " +
             attributes_text(std::vector<Attribute>(
                 plan.output.end() - static_cast<long>(generated), plan.output.end()));
    }
  }
  return {};
}

void print(const LogicalPlan& plan, std::string& out, const std::string& prefix,
           const std::string& child_prefix) {
  out += prefix + node_string(plan) + "\n";
  for (size_t i = 0; i < plan.children.size(); ++i) {
    const bool last = i + 1 == plan.children.size();
    print(*plan.children[i], out, child_prefix + (last ? "+- " : ":- "),
          child_prefix + (last ? "   " : ":  "));
  }
}

}  // namespace

std::string node_string(const LogicalPlan& plan) {
  std::string name(plan.node_name());
  if (plan.kind == Kind::kLimit && plan.limit < 0) {
    name = "Offset";
  }
  const std::string text = details(plan);
  const bool quoted = !plan.resolved && plan.kind != Kind::kLocalRelation &&
                      plan.kind != Kind::kRange && plan.kind != Kind::kFileScan &&
                      plan.kind != Kind::kLimit && plan.kind != Kind::kSubqueryAlias &&
                      plan.kind != Kind::kUnion;
  return (quoted ? "'" : "") + name + (text.empty() ? "" : " " + text);
}

std::string tree_string(const PlanPtr& plan) {
  std::string out;
  print(*plan, out, "", "");
  return out;
}

}  // namespace bowstring::plan
