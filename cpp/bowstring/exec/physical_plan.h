#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/compute/collection/generators.h"
#include "bowstring/compute/core/exec_context.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/join/hash_join.h"
#include "bowstring/compute/vector/sort.h"
#include "bowstring/compute/window/window.h"
#include "bowstring/exec/file_scan.h"
#include "bowstring/expr/bind.h"
#include "bowstring/plan/logical_plan.h"
#include "bowstring/table/table.h"

namespace bowstring::exec {

/// One aggregate call of a hash aggregation, bound to its input.
struct AggregateSpec {
  const compute::AggregateFunction* function = nullptr;
  std::vector<expr::BoundExpression> arguments;
  compute::FunctionOptions options;
};

/// One window function call of a window operator, bound to its input.
struct WindowSpec {
  std::string function;
  std::vector<expr::BoundExpression> arguments;
  compute::FunctionOptions options;
  std::optional<compute::WindowFrame> frame;
};

/// A node of a physical plan: the operator that runs, with its expressions bound to the
/// batches its child produces (whose columns are named by attribute id, see
/// `plan::column_name`).
struct PhysicalNode {
  enum class Kind : uint8_t {
    kTableScan,      ///< the morsels of `table`
    kRange,          ///< BIGINT values start, start + step... below end
    kFilter,         ///< rows where `predicate` holds
    kProject,        ///< `expressions`
    kHashAggregate,  ///< groups by `keys`, computes `aggregates`
    kSort,           ///< every row ordered by `sort_keys`
    kTopN,           ///< the first `limit` rows (after `offset`) by `sort_keys`
    kLimit,          ///< `limit` rows (-1: all) after `offset`, in the child's order
    kUnion,          ///< the rows of every child, in child order
    kExpand,         ///< every row once per list of `projections`
    kReplicate,      ///< every row repeated `expressions[0]` times
    kSample,         ///< a random sample: `fraction`, `with_replacement`, `seed`
    kExchange,       ///< a repartitioning hint: rows pass unchanged
    /// A hash join: children[1] (the build side) is hashed on `build_keys`, children[0] (the
    /// probe side) looks up `keys`; `predicate` (over the probe's then the build's columns) is
    /// the residual condition, if any.
    kHashJoin,
    /// A join without equality keys: every probe row against every build row, `predicate`
    /// deciding the pairs (none: every pair).
    kNestedLoopJoin,
    /// The child's columns repeated for each row `generator` makes of `expressions`' values,
    /// then the generated columns.
    kGenerate,
    /// The rows kept in `cache`, computed by children[0] first when no query has yet.
    kCache,
    /// Rows partitioned by `keys`, sorted by `expressions` in `sort_keys` order, with one
    /// column per call of `windows` appended.
    kWindow,
    /// The rows of the splits of `file_scan`, read in parallel.
    kFileScan,
  };

  Kind kind;
  std::vector<std::shared_ptr<const PhysicalNode>> children;
  /// The columns the node outputs, and the schema of its batches.
  std::vector<plan::Attribute> output;
  SchemaPtr schema;

  std::optional<Table> table;
  int64_t start = 0;
  int64_t end = 0;
  int64_t step = 1;
  std::optional<expr::BoundExpression> predicate;
  std::vector<expr::BoundExpression> expressions;
  std::vector<expr::BoundExpression> keys;
  std::vector<AggregateSpec> aggregates;
  std::vector<compute::SortKey> sort_keys;
  int64_t limit = -1;
  int64_t offset = 0;
  std::vector<std::vector<expr::BoundExpression>> projections;
  double fraction = 0;
  bool with_replacement = false;
  int64_t seed = 0;
  /// Joins: the build side's keys, whether each key compares with `<=>`, the rows the join
  /// outputs (probe side as the table's left), and whether the probe side is the plan's right
  /// input (then the build side's columns come first in the output).
  const compute::Generator* generator = nullptr;
  std::shared_ptr<plan::CachedRows> cache;
  std::vector<WindowSpec> windows;
  std::shared_ptr<const FileScanPlan> file_scan;
  std::vector<expr::BoundExpression> build_keys;
  std::vector<bool> null_safe;
  compute::JoinType join_type = compute::JoinType::kInner;
  bool swapped = false;
  /// The line explain prints for the node.
  std::string description;

  std::string_view name() const;
};

using PhysicalPtr = std::shared_ptr<const PhysicalNode>;

/// Chooses the operators of a resolved (and usually optimized) plan: a sort under a limit
/// becomes a top-N, a distinct or group-by a hash aggregation. Expressions are bound with
/// `context`. Throws `NotImplemented` naming a node no operator runs yet.
PhysicalPtr plan_physical(const plan::PlanPtr& plan, compute::ExecContext& context,
                          const compute::FunctionRegistry& registry = compute::default_registry());

/// The physical plan as Spark prints it: one operator per line, children indented under "+- ".
std::string physical_tree_string(const PhysicalPtr& plan);

}  // namespace bowstring::exec
