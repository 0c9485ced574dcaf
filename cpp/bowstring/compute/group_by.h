#pragma once

#include <span>
#include <string>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/compute/datum.h"
#include "bowstring/compute/exec_context.h"
#include "bowstring/compute/function.h"

namespace bowstring::compute {

/// One aggregate of a `group_by`: the registry name of an aggregate function ("sum", "count"...)
/// and its arguments (arrays as long as the keys, or scalars).
struct AggregateCall {
  std::string function;
  std::vector<Datum> arguments;
  FunctionOptions options;
};

/// Groups the rows of `keys` (one array per key column, all of the same length, at least one)
/// and computes every aggregate per group. Returns the unique keys (one array per key column,
/// as `Grouper::unique_keys` gives them) followed by one array per aggregate; groups are in
/// order of first appearance. Argument types are resolved and implicitly cast as `call` does.
/// Throws `AnalysisError` for an unknown or non-aggregate function or wrong arguments.
std::vector<Array> group_by(std::span<const Array> keys, std::span<const AggregateCall> aggregates,
                            ExecContext& context,
                            const FunctionRegistry& registry = default_registry());

}  // namespace bowstring::compute
