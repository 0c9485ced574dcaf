#pragma once

#include <string>
#include <string_view>

#include "bowstring/compute/core/exec_context.h"
#include "bowstring/plan/analyzer.h"
#include "bowstring/plan/logical_plan.h"

namespace bowstring::exec {

/// The forms of `DataFrame.explain(mode)`.
enum class ExplainMode : uint8_t {
  /// The physical plan.
  kSimple,
  /// The parsed, analyzed and optimized logical plans, then the physical plan.
  kExtended,
  /// The optimized logical plan, then the physical plan (Spark adds statistics we do not keep).
  kCost,
  /// The physical plan as an outline of numbered operators, then each operator's details.
  kFormatted,
};

/// The mode named by PySpark's `mode` ("simple", "extended", "cost", "formatted", any case);
/// throws `InvalidArgument` naming the accepted modes otherwise ("codegen" included: there is
/// no generated code to show).
ExplainMode parse_explain_mode(std::string_view mode);

/// What `explain(mode)` prints for an unresolved plan, in Spark's shapes ("== Physical Plan ==",
/// "== Parsed Logical Plan =="...). Analysis errors propagate.
std::string explain(const plan::PlanPtr& plan, ExplainMode mode,
                    const plan::AnalyzerOptions& options = {});

}  // namespace bowstring::exec
