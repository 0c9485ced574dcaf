#pragma once

#include "bowstring/compute/core/exec_context.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/plan/logical_plan.h"

namespace bowstring::plan {

/// What analysis depends on besides the plan.
struct AnalyzerOptions {
  const compute::FunctionRegistry* registry = &compute::default_registry();
  /// ANSI mode and the session time zone decide implicit casts and constant folding.
  compute::ExecContext context;
};

/// Resolves an unresolved plan: every column name becomes a reference to an attribute of the
/// node's input (case-insensitively; `alias.name` through a `subquery_alias`; `*` and
/// `alias.*` expand to every column), functions are looked up and types checked by the
/// expression binder, aggregate calls are split from the expressions around them, and every
/// node gets its `output`. Throws `compute::AnalysisError` with Spark's conditions:
/// UNRESOLVED_COLUMN (with the closest names), AMBIGUOUS_REFERENCE, MISSING_AGGREGATION,
/// NESTED_AGGREGATE_FUNCTION, DATATYPE_MISMATCH (FILTER_NOT_BOOLEAN...), NUM_COLUMNS_MISMATCH,
/// INCOMPATIBLE_COLUMN_TYPE, UNRESOLVED_ROUTINE... Resolved subtrees are taken as they are.
PlanPtr analyze(const PlanPtr& plan, const AnalyzerOptions& options = {});

}  // namespace bowstring::plan
