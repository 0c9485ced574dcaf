#pragma once

#include <string>

#include "bowstring/plan/logical_plan.h"

namespace bowstring::plan {

/// The plan as Spark prints logical plans: one node per line, children indented under "+- "
/// and ":- ", unresolved names and nodes marked with a quote ('Project ['a]), attributes with
/// their ids (id#3L).
std::string tree_string(const PlanPtr& plan);

/// The text of one node, without its children: "Filter (id#0L > 1)".
std::string node_string(const LogicalPlan& plan);

}  // namespace bowstring::plan
