#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bowstring/plan/logical_plan.h"

namespace bowstring::plan {

/// A rewrite of resolved plans that keeps their results.
struct OptimizerRule {
  std::string name;
  std::function<PlanPtr(const PlanPtr&)> apply;
};

// The rules, each usable on its own (their tests apply them one at a time).

/// `x AND true` is x, `x OR false` is x, `NOT true` is false...; a filter that is always true
/// disappears.
PlanPtr simplify_booleans(const PlanPtr& plan);
/// Adjacent filters become one, their conditions AND-ed (the lower one first).
PlanPtr combine_filters(const PlanPtr& plan);
/// Filters move below projections (the condition rewritten over the projection's input),
/// below aggregates for conjuncts on grouping keys only, into the join sides that keep their
/// rows (both sides of inner joins, the left of left, semi and anti joins, the right of right
/// joins), into each side of a union, and into file scans (conjuncts on partition columns
/// only become partition filters, those on the files' columns only data filters, which the
/// scan evaluates). Nondeterministic conditions and projections stay.
PlanPtr push_down_filters(const PlanPtr& plan);
/// Adjacent projections merge into one (deterministic expressions only); a projection that
/// outputs its input's columns unchanged disappears.
PlanPtr collapse_projects(const PlanPtr& plan);
/// Each node computes and reads only the columns some node above it uses; local relations,
/// file scans and projections drop the others.
PlanPtr prune_columns(const PlanPtr& plan);
/// A limit moves below a projection, and a limit of a limit becomes one.
PlanPtr push_down_limits(const PlanPtr& plan);
/// An outer join under a filter that rejects the nulls an outer side would add becomes the
/// join that does not add them: left or right outer to inner, full outer to left, right or
/// inner.
PlanPtr eliminate_outer_joins(const PlanPtr& plan);
/// A sort of a sort keeps only the outer one; a limit over a union also limits each input.
PlanPtr eliminate_sorts_and_push_limits_into_unions(const PlanPtr& plan);
/// A projection computing the same subexpression more than once (outside conditional
/// branches) computes it once in a projection below and reads it from there.
PlanPtr reuse_common_subexpressions(const PlanPtr& plan);
/// Subquery aliases, which only qualify names for the analyzer, disappear.
PlanPtr remove_subquery_aliases(const PlanPtr& plan);

/// Every rule, in the order `optimize` applies them.
const std::vector<OptimizerRule>& optimizer_rules();

/// Applies the rules until the plan stops changing (at most a few rounds).
PlanPtr optimize(const PlanPtr& plan);

}  // namespace bowstring::plan
