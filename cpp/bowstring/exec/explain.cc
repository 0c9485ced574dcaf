#include "bowstring/exec/explain.h"

#include <functional>
#include <vector>

#include "bowstring/exec/physical_plan.h"
#include "bowstring/plan/explain.h"
#include "bowstring/plan/optimizer.h"
#include "bowstring/util/error.h"

namespace bowstring::exec {

namespace {

std::string attribute_list(const std::vector<plan::Attribute>& attributes) {
  std::string out = "[";
  out += std::to_string(attributes.size());
  out += "]: [";
  for (size_t i = 0; i < attributes.size(); ++i) {
    out += (i > 0 ? ", " : "") + attributes[i].to_string();
  }
  return out + "]";
}

/// Spark's formatted explain: the tree with each operator numbered (children first), then one
/// block per operator with its input and output columns and its arguments.
std::string formatted(const PhysicalPtr& root) {
  std::vector<const PhysicalNode*> order;
  std::function<void(const PhysicalNode&)> number = [&](const PhysicalNode& node) {
    for (const PhysicalPtr& child : node.children) {
      number(*child);
    }
    order.push_back(&node);
  };
  number(*root);
  auto id_of = [&](const PhysicalNode& node) {
    for (size_t i = 0; i < order.size(); ++i) {
      if (order[i] == &node) {
        return i + 1;
      }
    }
    return size_t{0};
  };
  std::string out = "== Physical Plan ==\n";
  std::function<void(const PhysicalNode&, const std::string&, const std::string&)> outline =
      [&](const PhysicalNode& node, const std::string& prefix, const std::string& child_prefix) {
        out += prefix + std::string(node.name()) + " (" + std::to_string(id_of(node)) + ")\n";
        for (size_t i = 0; i < node.children.size(); ++i) {
          const bool last = i + 1 == node.children.size();
          outline(*node.children[i], child_prefix + (last ? "+- " : ":- "),
                  child_prefix + (last ? "   " : ":  "));
        }
      };
  outline(*root, "", "");
  out += "\n";
  for (const PhysicalNode* node : order) {
    out += "\n(" + std::to_string(id_of(*node)) + ") " + std::string(node->name()) + "\n";
    if (!node->children.empty()) {
      std::vector<plan::Attribute> input;
      for (const PhysicalPtr& child : node->children) {
        input.insert(input.end(), child->output.begin(), child->output.end());
      }
      out += "Input " + attribute_list(input) + "\n";
    }
    out += "Output " + attribute_list(node->output) + "\n";
    out += "Arguments: " + node->description + "\n";
  }
  return out;
}

}  // namespace

ExplainMode parse_explain_mode(std::string_view mode) {
  std::string key;
  for (char c : mode) {
    key += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  if (key == "simple") {
    return ExplainMode::kSimple;
  }
  if (key == "extended") {
    return ExplainMode::kExtended;
  }
  if (key == "cost") {
    return ExplainMode::kCost;
  }
  if (key == "formatted") {
    return ExplainMode::kFormatted;
  }
  throw InvalidArgument("explain mode '" + std::string(mode) +
                        "' is not one of 'simple', 'extended', 'cost', 'formatted' ('codegen' "
                        "has no generated code to show in this engine)");
}

std::string explain(const plan::PlanPtr& plan, ExplainMode mode,
                    const plan::AnalyzerOptions& options) {
  const plan::PlanPtr analyzed = plan::analyze(plan, options);
  const plan::PlanPtr optimized = plan::optimize(analyzed);
  compute::ExecContext context = options.context;
  const PhysicalPtr physical = plan_physical(optimized, context, *options.registry);
  switch (mode) {
    case ExplainMode::kSimple:
      return "== Physical Plan ==\n" + physical_tree_string(physical) + "\n";
    case ExplainMode::kExtended:
      return "== Parsed Logical Plan ==\n" + plan::tree_string(plan) +
             "\n== Analyzed Logical Plan ==\n" + plan::tree_string(analyzed) +
             "\n== Optimized Logical Plan ==\n" + plan::tree_string(optimized) +
             "\n== Physical Plan ==\n" + physical_tree_string(physical) + "\n";
    case ExplainMode::kCost:
      return "== Optimized Logical Plan ==\n" + plan::tree_string(optimized) +
             "\n== Physical Plan ==\n" + physical_tree_string(physical) + "\n";
    case ExplainMode::kFormatted:
      return formatted(physical);
  }
  return {};
}

}  // namespace bowstring::exec
