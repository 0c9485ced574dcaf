// The engine of `bowstring.udf` (python/bowstring/udf.py): pools of Python worker processes and
// runs of a pickled function over Arrow data in them. Every call that may wait (starting a pool,
// reading results, shutting down) releases the GIL: the workers' input may come from a Python
// producer that needs it, and other Python threads keep running meanwhile. Reading results waits
// in steps, checking for signals in between, so that Ctrl-C interrupts a long run.

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <sys/types.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/table/table.h"
#include "bowstring/udf/errors.h"
#include "bowstring/udf/python_runner.h"
#include "bowstring/udf/worker_pool.h"
#include "bowstring/util/cancellation.h"
#include "bowstring/util/error.h"
#include "interchange_bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {
namespace {

bool interpreter_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing() != 0;
#else
  return _Py_IsFinalizing() != 0;
#endif
}

// Drops the last reference to `owner` (whose destructor may wait for threads that need the GIL,
// such as a run reading a Python producer) without holding the GIL. While the interpreter is
// finalizing the GIL cannot be given up and taken back safely, so it is kept then.
template <typename T>
void reset_without_gil(std::shared_ptr<T>& owner) {
  if (owner == nullptr) {
    return;
  }
  if (PyGILState_Check() != 0 && !interpreter_finalizing()) {
    nb::gil_scoped_release unlocked;
    owner.reset();
  } else {
    owner.reset();
  }
}

// How long a Python caller waiting for results goes without checking for signals.
constexpr std::chrono::milliseconds kSignalCheckInterval{50};

std::chrono::milliseconds milliseconds_of(double seconds, const char* what) {
  if (!std::isfinite(seconds) || seconds < 0) {
    throw InvalidArgument(std::string(what) + " must be a finite number of seconds >= 0, got " +
                          std::to_string(seconds));
  }
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(seconds * 1000)));
}

// --- pool ---------------------------------------------------------------------------------

struct PyWorkerPool {
  std::shared_ptr<udf::WorkerPool> pool;

  PyWorkerPool() = default;
  PyWorkerPool(const PyWorkerPool&) = delete;
  PyWorkerPool& operator=(const PyWorkerPool&) = delete;
  ~PyWorkerPool() { reset_without_gil(pool); }
};

void init_pool(PyWorkerPool* self, std::string python_executable,
               std::map<std::string, std::string> environment, int max_workers, bool reuse_workers,
               double idle_timeout, int64_t memory_limit, std::string expected_python_version) {
  if (max_workers < 1) {
    throw InvalidArgument("max_workers must be at least 1, got " + std::to_string(max_workers));
  }
  if (memory_limit < 0) {
    throw InvalidArgument("memory_limit must be a number of bytes >= 0 (0: no limit), got " +
                          std::to_string(memory_limit));
  }
  udf::PoolOptions options;
  options.python_executable = std::move(python_executable);
  options.environment = std::move(environment);
  options.max_workers = max_workers;
  options.reuse_workers = reuse_workers;
  options.idle_timeout = milliseconds_of(idle_timeout, "idle_timeout");
  options.memory_limit = memory_limit;
  options.expected_python_version = std::move(expected_python_version);
  std::shared_ptr<udf::WorkerPool> pool;
  {
    nb::gil_scoped_release unlocked;
    pool = std::make_shared<udf::WorkerPool>(std::move(options));
  }
  new (self) PyWorkerPool();
  self->pool = std::move(pool);
}

udf::WorkerPool& live(PyWorkerPool& self) {
  if (self.pool == nullptr) {
    throw InvalidArgument("the worker pool is closed");
  }
  self.pool->check_owned();
  return *self.pool;
}

nb::dict stats_of(PyWorkerPool& self) {
  const udf::PoolStats stats = live(self).stats();
  nb::dict out;
  out["workers_started"] = stats.workers_started;
  out["workers_alive"] = stats.workers_alive;
  out["workers_idle"] = stats.workers_idle;
  out["workers_failed"] = stats.workers_failed;
  out["connections_rejected"] = stats.connections_rejected;
  return out;
}

// --- run ----------------------------------------------------------------------------------

// The thread that Python's signal handlers run on (the main thread of the main interpreter),
// or nullopt when runs are started from another interpreter, whose threads never get them.
// Needs the GIL.
std::optional<unsigned long> signal_handling_thread() {
  if (PyInterpreterState_Get() != PyInterpreterState_Main()) {
    return std::nullopt;
  }
  return nb::cast<unsigned long>(
      nb::module_::import_("threading").attr("main_thread")().attr("ident"));
}

// Whether SIGINT arrived for Python's handler, asked from the signal-handling thread with or
// without the GIL. The signal is consumed and re-armed (PyErr_SetInterruptEx), so that the
// interpreter still runs its handler, raising KeyboardInterrupt, at its next check after the
// caller returns; no exception is left set, since the caller may be a foreign library.
bool interrupt_arrived() {
  if (interpreter_finalizing()) {
    return false;
  }
  const PyGILState_STATE state = PyGILState_Ensure();
  const bool interrupted = PyOS_InterruptOccurred() != 0;
  if (interrupted) {
    PyErr_SetInterruptEx(SIGINT);
  }
  PyGILState_Release(state);
  return interrupted;
}

// A run's results as a reader that threads (and the consumer of an exported stream) may share:
// they take turns, and wait for results without the GIL. No thread waits for `mutex_` holding
// the GIL, so taking the GIL back while holding `mutex_` cannot deadlock.
class SharedRunReader final : public RecordBatchReader {
 public:
  // Needs the GIL.
  explicit SharedRunReader(std::shared_ptr<udf::PythonRunReader> run)
      : run_(std::move(run)), signal_thread_(signal_handling_thread()) {}
  ~SharedRunReader() override { reset_without_gil(run_); }
  SharedRunReader(const SharedRunReader&) = delete;
  SharedRunReader& operator=(const SharedRunReader&) = delete;

  SchemaPtr schema() const override { return run_->schema(); }

  // For the consumer of an exported stream (pyarrow, DuckDB, ...), which may or may not hold
  // the GIL. On the signal-handling thread it waits in steps, asking in between whether
  // SIGINT arrived; then the run is cancelled and this throws `Cancelled`, and Python raises
  // KeyboardInterrupt once the consumer gives control back. Other threads wait until the
  // result is there.
  std::optional<RecordBatch> next() override {
    if (PyGILState_Check() != 0) {
      nb::gil_scoped_release unlocked;
      return locked_next();
    }
    return locked_next();
  }

  // For a Python caller, which holds the GIL: waits without it in steps, running the signal
  // handlers in between. When one raises (KeyboardInterrupt for Ctrl-C) the run is cancelled,
  // as `cancel()` does, and its exception propagates. `mutex_` is held only within a step:
  // the handlers (and finalizers they may trigger) can read this run themselves, and another
  // reading thread gets its turn.
  std::optional<RecordBatch> next_checking_signals() {
    while (true) {
      {
        nb::gil_scoped_release unlocked;
        const std::lock_guard<std::mutex> lock(mutex_);
        if (run_->wait_next(kSignalCheckInterval)) {
          return run_->next();
        }
      }
      if (PyErr_CheckSignals() != 0) {
        run_->cancel();
        throw nb::python_error();
      }
    }
  }

 private:
  // Called without the GIL.
  std::optional<RecordBatch> locked_next() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (signal_thread_.has_value() && PyThread_get_thread_ident() == *signal_thread_) {
      while (!run_->wait_next(kSignalCheckInterval)) {
        if (interrupt_arrived()) {
          run_->cancel();
          throw Cancelled("interrupted: the Python run was cancelled by KeyboardInterrupt");
        }
      }
    }
    return run_->next();
  }

  std::shared_ptr<udf::PythonRunReader> run_;
  std::optional<unsigned long> signal_thread_;
  std::mutex mutex_;
};

struct PyRun {
  // Kept for cancel() and metrics after the results were handed over through
  // `__arrow_c_stream__`.
  std::shared_ptr<udf::PythonRunReader> run;
  // The results; moved out by `__arrow_c_stream__`.
  std::shared_ptr<SharedRunReader> results;

  PyRun(const PyRun&) = delete;
  PyRun& operator=(const PyRun&) = delete;
  explicit PyRun(std::shared_ptr<udf::PythonRunReader> started)
      : run(std::move(started)), results(std::make_shared<SharedRunReader>(run)) {}
  ~PyRun() {
    reset_without_gil(results);
    reset_without_gil(run);
  }
};

std::shared_ptr<SharedRunReader> results_of(const PyRun& self) {
  if (self.results == nullptr) {
    throw InvalidArgument(
        "the results were handed over through __arrow_c_stream__ and can no longer be read here");
  }
  return self.results;
}

RecordBatch next_result(PyRun& self) {
  std::optional<RecordBatch> batch = results_of(self)->next_checking_signals();
  if (!batch.has_value()) {
    throw nb::stop_iteration();
  }
  return *batch;
}

Table read_all_results(PyRun& self) {
  std::shared_ptr<SharedRunReader> results = results_of(self);
  std::vector<RecordBatch> batches;
  while (std::optional<RecordBatch> batch = results->next_checking_signals()) {
    batches.push_back(std::move(*batch));
  }
  return Table::from_batches(results->schema(), batches);
}

nb::dict metrics_of(const PyRun& self) {
  const udf::RunMetrics metrics = self.run->metrics();
  nb::dict out;
  out["partitions"] = metrics.partitions;
  out["rows_in"] = metrics.rows_in;
  out["batches_in"] = metrics.batches_in;
  out["rows_out"] = metrics.rows_out;
  out["batches_out"] = metrics.batches_out;
  out["function_seconds"] = metrics.function_seconds;
  out["peak_memory_bytes"] = metrics.peak_memory_bytes;
  return out;
}

PyRun* start_run(PyWorkerPool& pool, nb::handle data, const std::string& name,
                 const std::string& kind, const nb::bytes& pickled, nb::handle output_schema,
                 int64_t max_records_per_batch, int parallelism, int64_t partition_rows,
                 std::optional<std::string> transport, std::string session_time_zone,
                 std::map<std::string, std::string> config, std::optional<double> timeout) {
  live(pool);
  std::shared_ptr<udf::WorkerPool> workers = pool.pool;
  udf::PythonFunction function;
  function.name = name;
  function.kind = udf::parse_function_kind(kind);
  function.pickled.assign(pickled.c_str(), pickled.size());
  std::unique_ptr<RecordBatchReader> input = record_batches_from(data, "udf.map_batches");
  function.output_schema =
      output_schema.is_none() ? input->schema() : schema_from(output_schema, "udf.map_batches");

  udf::RunOptions options;
  options.max_records_per_batch = max_records_per_batch;
  options.parallelism = parallelism;
  options.partition_rows = partition_rows;
  if (transport.has_value()) {
    options.transport = udf::parse_transport(*transport);
  }
  options.session_time_zone = std::move(session_time_zone);
  options.config = std::move(config);
  if (timeout.has_value()) {
    options.timeout = milliseconds_of(*timeout, "timeout");
  }
  std::shared_ptr<udf::PythonRunReader> run;
  {
    nb::gil_scoped_release unlocked;
    run = udf::run_python(std::move(workers), std::move(function), std::move(input),
                          std::move(options));
  }
  return new PyRun(std::move(run));
}

// --- errors -------------------------------------------------------------------------------

// Raises `bowstring.errors.<name>(*args)`.
void raise_bowstring_error(const char* name, const nb::tuple& args) {
  nb::object type = nb::module_::import_("bowstring.errors").attr(name);
  nb::object error = type(*args);
  PyErr_SetObject(type.ptr(), error.ptr());
}

void translate_udf_error(const std::exception_ptr& error, void* /*payload*/) {
  try {
    std::rethrow_exception(error);
  } catch (const udf::PythonException& e) {
    nb::object batch = e.batch().has_value() ? nb::object(nb::int_(*e.batch())) : nb::none();
    raise_bowstring_error("PythonException", nb::make_tuple(e.what(), e.exception_type(),
                                                            e.message(), e.traceback(), batch));
  } catch (const udf::WorkerFailure& e) {
    raise_bowstring_error("PythonWorkerError", nb::make_tuple(e.what()));
  } catch (const Cancelled& e) {
    raise_bowstring_error("CancelledError", nb::make_tuple(e.what()));
  }
}

}  // namespace

void bind_udf(nb::module_& module) {
  nb::register_exception_translator(translate_udf_error);
  nb::module_ udf = module.def_submodule(
      "_udf",
      "Python worker pools and runs of Python functions; the public interface is "
      "bowstring.udf.");

  nb::class_<PyWorkerPool>(udf, "WorkerPool",
                           "A pool of Python worker processes forked from one fork server.")
      .def("__init__", &init_pool, "python_executable"_a, "environment"_a, "max_workers"_a,
           "reuse_workers"_a, "idle_timeout"_a, "memory_limit"_a, "expected_python_version"_a,
           "Starts the fork server and waits until it is ready; workers start on demand.")
      .def(
          "close",
          [](PyWorkerPool& self) {
            std::shared_ptr<udf::WorkerPool> pool = std::move(self.pool);
            if (pool != nullptr) {
              nb::gil_scoped_release unlocked;
              pool->shutdown();
              pool.reset();
            }
          },
          "Closes every connection, stops the workers and the fork server. Runs still going "
          "fail. Idempotent.")
      .def_prop_ro(
          "closed", [](const PyWorkerPool& self) { return self.pool == nullptr; },
          "Whether close() was called.")
      .def_prop_ro(
          "max_workers", [](PyWorkerPool& self) { return live(self).options().max_workers; },
          "Workers alive at once, at most.")
      .def_prop_ro("stats", &stats_of,
                   "Counters: workers_started, workers_alive, workers_idle, workers_failed, "
                   "connections_rejected.")
      .def_prop_ro(
          "socket_path", [](PyWorkerPool& self) { return live(self).socket_path(); },
          "The Unix socket workers connect to.")
      .def_prop_ro(
          "fork_server_pid",
          [](PyWorkerPool& self) { return static_cast<int64_t>(live(self).fork_server_pid()); },
          "The process id of the fork server.")
      .def_prop_ro(
          "worker_pids",
          [](PyWorkerPool& self) {
            std::vector<int64_t> pids;
            for (const pid_t pid : live(self).worker_pids()) {
              pids.push_back(pid);
            }
            return pids;
          },
          "The process ids of the workers alive.");

  nb::class_<PyRun>(udf, "RunResult",
                    "The results of a Python function run in a worker pool, in input order, as "
                    "a stream of record batches. Work proceeds in the background; reading waits "
                    "for the next result and raises the run's error once the results before it "
                    "were read. Readable once, by iteration, read_all() or __arrow_c_stream__. "
                    "Ctrl-C while iteration or read_all() waits raises KeyboardInterrupt and "
                    "cancels the run; so does Ctrl-C while a consumer on the main thread waits "
                    "in the exported stream's get_next, which then fails, and Python raises the "
                    "KeyboardInterrupt at its next check after the consumer returns.")
      .def_prop_ro(
          "schema", [](PyRun& self) { return PySchema{self.run->schema()}; },
          "The schema of every result batch.")
      .def("read_next_batch", &next_result,
           "The next result batch; raises StopIteration after the last one.")
      .def("read_all", &read_all_results, "Every remaining result, as a bowstring.Table.")
      .def("__iter__", [](nb::object self) { return self; })
      .def("__next__", &next_result)
      .def(
          "cancel", [](PyRun& self) { self.run->cancel(); },
          "Stops the run: its workers are killed, and reading raises "
          "bowstring.errors.CancelledError. Safe from any thread.")
      .def_prop_ro("metrics", &metrics_of,
                   "Totals over the partitions so far (complete once every result was read): "
                   "partitions, rows_in, batches_in, rows_out, batches_out, function_seconds "
                   "(time inside the function, summed over workers), peak_memory_bytes (the "
                   "largest peak resident size of a worker).")
      .def("__arrow_c_schema__", [](PyRun& self) { return schema_capsule(*self.run->schema()); })
      .def(
          "__arrow_c_stream__",
          [](PyRun& self, nb::handle requested_schema) {
            check_requested_schema(requested_schema, self.run->schema());
            nb::capsule capsule = reader_capsule(results_of(self));
            self.results.reset();
            return capsule;
          },
          "requested_schema"_a = nb::none(),
          (std::string("Hands the results over as a PyCapsule holding an ArrowArrayStream; they "
                       "can no longer be read here, but cancel() and metrics still work. ") +
           kRequestedSchemaDoc)
              .c_str());

  udf.def("run_python", &start_run, "pool"_a, "data"_a, "name"_a, "kind"_a, "pickled"_a,
          "output_schema"_a.none(), "max_records_per_batch"_a, "parallelism"_a, "partition_rows"_a,
          "transport"_a.none(), "session_time_zone"_a, "config"_a, "timeout"_a.none(),
          nb::rv_policy::take_ownership,
          "Starts running the pickled function over the batches of ``data`` (an object exposing "
          "``__arrow_c_stream__`` or ``__arrow_c_array__``) and returns its RunResult. "
          "``output_schema`` None means the input's schema.");
}

}  // namespace bowstring::python
