#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "bowstring/table/record_batch_reader.h"
#include "bowstring/table/schema.h"
#include "bowstring/udf/worker_pool.h"
#include "bowstring/util/cancellation.h"

/// Runs a pickled Python function over record batches in the worker pool: input is cut into
/// partitions, each partition streams through one worker (input written by one thread while
/// results are read by another), and results come back in input order.
namespace bowstring::udf {

enum class FunctionKind { kArrow, kPandas, kPandasSeries, kPandasSeriesIter, kRows };

/// "arrow", "pandas", "pandas_series", "pandas_series_iter", "rows".
std::string_view function_kind_name(FunctionKind kind);
/// Throws `InvalidArgument` listing the valid names.
FunctionKind parse_function_kind(std::string_view name);

/// How batches travel between the engine and a worker: their bytes through the socket, or in a
/// memfd per batch whose descriptor crosses the socket (zero copies on the receiving side).
enum class Transport { kSocket, kSharedMemory };
std::string_view transport_name(Transport transport);
Transport parse_transport(std::string_view name);
/// The transport measured fastest on this platform (bench/udf.py).
Transport default_transport();

struct PythonFunction {
  /// Shown in error messages.
  std::string name;
  FunctionKind kind = FunctionKind::kArrow;
  /// The function, serialized by cloudpickle.
  std::string pickled;
  /// What every result batch must be.
  SchemaPtr output_schema;
};

struct RunOptions {
  /// Input batches are sliced to at most this many rows
  /// (`spark.sql.execution.arrow.maxRecordsPerBatch`).
  int64_t max_records_per_batch = 10000;
  /// ... and to at most about this many bytes (never below one row).
  int64_t max_bytes_per_batch = int64_t{64} << 20;
  /// Workers used at once; 0: the pool's `max_workers`.
  int parallelism = 0;
  /// Rows per partition. An iterator function (`arrow`, `pandas`, `pandas_series_iter`) is
  /// called once per partition. 0: 1,000,000 rows.
  int64_t partition_rows = 0;
  Transport transport = default_transport();
  /// IANA name; timestamps with a time zone are shown to the function in it.
  std::string session_time_zone = "UTC";
  /// Passed to the worker in the command's `config` as is.
  std::map<std::string, std::string> config;
  /// Limit on each partition's call; the worker is killed when it is exceeded. Time the call
  /// waits for the caller to take its results does not count.
  std::optional<std::chrono::milliseconds> timeout;
  /// Cancelling kills the workers of the run and fails it with `Cancelled`.
  CancellationToken cancel;
};

/// Totals over every partition of a run.
struct RunMetrics {
  int64_t partitions = 0;
  int64_t rows_in = 0;
  int64_t batches_in = 0;
  int64_t rows_out = 0;
  int64_t batches_out = 0;
  /// Summed over workers: time inside the user's function.
  double function_seconds = 0;
  /// The largest peak resident size of any worker used.
  int64_t peak_memory_bytes = 0;
};

/// The results of a run, in input order (partition by partition). Work starts when the reader
/// is created and proceeds in the background; `next()` waits for the next result and throws
/// the run's error (`PythonException`, `WorkerFailure`, `Cancelled`) once results before it
/// are consumed. Destroying the reader cancels what is still running.
///
/// Memory stays bounded whatever the output size: each partition holds at most a few result
/// batches not yet taken by `next()` (its worker waits meanwhile), and partitions start at most
/// twice the parallelism ahead of the one being read. Workers go to partitions in input order,
/// so the partition being read never waits for a worker held by a later one. While a caller
/// outside the run waits for a worker of the pool, a partition whose queue is full keeps all
/// its results instead, so that its worker goes back (runs sharing a pool whose results are
/// read in another order, or in turns, would otherwise starve; with one worker, even the
/// partition being read must yield, as its reader may be waiting on the other run).
class PythonRunReader : public RecordBatchReader {
 public:
  SchemaPtr schema() const override = 0;
  std::optional<RecordBatch> next() override = 0;
  /// Waits up to `timeout` until `next()` can answer at once (with a result, the end or the
  /// run's error); false when it still cannot. For callers that must stay responsive while
  /// they wait (the Python bindings check for Ctrl-C between waits).
  virtual bool wait_next(std::chrono::milliseconds timeout) = 0;
  /// Complete once `next()` returned nullopt.
  virtual RunMetrics metrics() const = 0;
  /// Same as cancelling `RunOptions::cancel`.
  virtual void cancel() = 0;
};

/// Starts running `function` over `input` in `pool`. Throws `InvalidArgument` for options out
/// of range or a function without output schema.
/// The reader keeps `pool` alive.
std::unique_ptr<PythonRunReader> run_python(std::shared_ptr<WorkerPool> pool,
                                            PythonFunction function,
                                            std::unique_ptr<RecordBatchReader> input,
                                            RunOptions options = {});

}  // namespace bowstring::udf
