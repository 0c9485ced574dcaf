#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bowstring/compute/core/exec_context.h"
#include "bowstring/exec/physical_plan.h"
#include "bowstring/table/table.h"
#include "bowstring/util/cancellation.h"

namespace bowstring::exec {

/// What one pipeline has done so far.
struct PipelineProgress {
  /// The pipeline's number, in the order pipelines run (0 first).
  int pipeline = 0;
  int pipelines = 0;
  /// The operator whose rows it reads, and the one it feeds ("HashAggregate", "Result"...).
  std::string source;
  std::string sink;
  int64_t morsels_done = 0;
  /// Morsels in all, or -1 when the source does not know in advance.
  int64_t morsels_total = -1;
  int64_t rows_done = 0;
  bool finished = false;
};

/// How a query runs.
struct QueryOptions {
  /// Rows per morsel, the unit of work a thread takes at a time (at least 1). Tests run the
  /// same queries with 1, 3 and 8192 to check every operator at batch boundaries.
  int64_t morsel_rows = 64 * 1024;
  /// Threads of the process-wide pool the query may use at once; 0 for the whole pool.
  int threads = 0;
  /// Cancelled from any thread, the query stops at the next morsel and throws `Cancelled`.
  CancellationToken cancellation;
  /// Called (from the engine's threads, one call at a time) as pipelines advance.
  std::function<void(const PipelineProgress&)> progress;
};

/// Runs a physical plan with morsel-driven, push-based pipelines on the process-wide thread
/// pool: each pipeline's source hands out morsels to the threads, which push them through the
/// pipeline's stateless operators (filter, project) into its sink (a hash aggregation, sort,
/// top-N, limit or the result), and the sink is finalized once every thread is done; a
/// finalized sink is the source of the pipeline above it. Returns every row of the result in
/// the plan's order, with the output's user-facing column names. `context`'s allocator and
/// settings serve every operator: a `BudgetedAllocator` there gives the query a memory budget,
/// and an operator that passes it fails the query with `OutOfMemory` naming the operator. The
/// allocator must outlive the result, whose buffers it holds.
Table execute(const PhysicalPtr& plan, const compute::ExecContext& context,
              const QueryOptions& options = {});

/// Where a query's rows go when they are not collected: each thread that produces result rows
/// opens a part of its own, writes its batches to it, and closes it once its work is done.
class ResultParts {
 public:
  /// The rows of one thread.
  class Part {
   public:
    virtual ~Part() = default;
    /// A batch of the result, with the output's user-facing column names.
    virtual void write(const RecordBatch& batch) = 0;
    /// After the thread's last batch; a thread that fails destroys its part without it, and
    /// a query that fails may have closed the parts of its other threads.
    virtual void close() = 0;
  };
  virtual ~ResultParts() = default;
  /// Called from the engine's threads, at any time and concurrently.
  virtual std::unique_ptr<Part> open_part() = 0;
};

/// Runs `plan` as `execute` does, its result's batches going to parts of `parts` as the
/// threads produce them (in no particular order between threads) instead of being collected.
/// Throws as `execute` does.
void execute_into(const PhysicalPtr& plan, const compute::ExecContext& context,
                  const QueryOptions& options, ResultParts& parts);

}  // namespace bowstring::exec
