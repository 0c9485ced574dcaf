#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/exec_context.h"
#include "bowstring/compute/core/function.h"

namespace bowstring::compute {

/// One aggregate of a `group_by`: the registry name of an aggregate function ("sum", "count"...)
/// and its arguments (arrays as long as the keys, or scalars).
struct AggregateCall {
  std::string function;
  std::vector<Datum> arguments;
  FunctionOptions options;
};

/// An aggregate call resolved as `call` resolves it: its arguments cast to the resolved types,
/// and its options with `grouped` (see `group_by`).
struct PreparedAggregate {
  const AggregateFunction* function;
  std::vector<TypePtr> types;
  TypePtr output;
  FunctionOptions options;
  std::vector<Datum> arguments;

  std::unique_ptr<GroupedAggregator> make_aggregator(ExecContext& context) const {
    return function->make_aggregator(types, options, context);
  }
};

/// Resolves `aggregate` over an input of `rows` rows. Throws `AnalysisError` for an unknown or
/// non-aggregate function or wrong arguments, `InvalidArgument` (naming `caller`) for an
/// argument array of another length.
PreparedAggregate prepare_aggregate(const AggregateCall& aggregate, int64_t rows,
                                    std::string_view caller, ExecContext& context,
                                    const FunctionRegistry& registry = default_registry());

/// How `group_by` spreads its work over threads.
struct GroupByOptions {
  /// Threads to use at most; 0: the thread pool's size (`hardware_threads()`).
  int threads = 0;
  /// Rows each thread gets at least: inputs of fewer than twice this run on the calling thread.
  int64_t min_rows_per_thread = int64_t{1} << 20;
};

/// Groups the rows of `keys` (one array per key column, all of the same length, at least one)
/// and computes every aggregate per group. Returns the unique keys (one array per key column,
/// as `Grouper::unique_keys` gives them) followed by one array per aggregate; groups are in
/// order of first appearance. Argument types are resolved and implicitly cast as `call` does.
/// The aggregators get the option `grouped` (true): a decimal sum (of sum or avg) that leaves
/// its type's precision midway then overflows, as in Spark's grouped aggregation, whose
/// per-group buffers hold at most 38 digits (a global aggregation only checks the end result).
/// Throws `AnalysisError` for an unknown or non-aggregate function or wrong arguments.
///
/// Large inputs are split into row ranges, one per thread, each grouped and aggregated into
/// partial states that are then merged range after range: the groups come out in the same order
/// as on one thread. Results are the same, except for the rounding of floating-point sums (added
/// in another order); as in Spark, whether an integer sum overflows midway (an error in ANSI
/// mode) depends on the order of the additions.
std::vector<Array> group_by(std::span<const Array> keys, std::span<const AggregateCall> aggregates,
                            ExecContext& context,
                            const FunctionRegistry& registry = default_registry(),
                            const GroupByOptions& options = {});

}  // namespace bowstring::compute
