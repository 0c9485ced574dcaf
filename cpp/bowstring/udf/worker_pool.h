#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bowstring/udf/frame.h"
#include "bowstring/util/cancellation.h"

/// Pooled Python worker processes (docs/worker-protocol.md): a fork server started once per
/// pool forks workers, which connect back to a private Unix socket and authenticate with the
/// pool's secret.
namespace bowstring::udf {

struct PoolOptions {
  /// The interpreter that runs `-m bowstring.worker --fork-server`; it must be able to import
  /// bowstring, pyarrow, pandas and cloudpickle.
  std::string python_executable = "python3";
  /// Variables set for the fork server (and so every worker), on top of the engine's own
  /// environment (`PYTHONPATH`, for example).
  std::map<std::string, std::string> environment;
  /// Workers alive at once (busy or idle); `acquire` waits when all are busy.
  int max_workers = 2;
  /// Keep a worker after a call for the next one (`spark.python.worker.reuse`); when false
  /// every call gets a fresh worker.
  bool reuse_workers = true;
  /// An idle worker is retired after this long.
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
  /// Bytes each worker may allocate beyond its start-up size (`spark.executor.pyspark.memory`);
  /// more raises `MemoryError` in the worker. 0: no limit.
  int64_t memory_limit = 0;
  /// `major.minor` every worker's Python must have ("3.11"), because functions pickled by one
  /// interpreter version cannot be loaded by another; empty: any.
  std::string expected_python_version;
  /// How long the fork server may take to become ready, and a new worker to connect.
  std::chrono::milliseconds start_timeout{std::chrono::seconds(60)};
  /// Receives every line the fork server and the workers write to stdout or stderr, prefixed
  /// by "[worker N] " or "[fork server] " (no trailing newline); default: the engine's stderr.
  /// Both sinks are called on the pool's own threads; they must not throw or call the pool.
  std::function<void(const std::string& line)> output_sink;
  /// Receives the pool's own log lines (rejected connections, replaced workers); default: the
  /// engine's stderr, prefixed by "bowstring worker pool: ".
  std::function<void(const std::string& line)> log_sink;
};

struct PoolStats {
  int64_t workers_started = 0;
  int64_t workers_alive = 0;
  int64_t workers_idle = 0;
  int64_t workers_failed = 0;
  int64_t connections_rejected = 0;
};

/// One connected, authenticated worker. Owned by the pool; a caller uses it through a lease.
class Worker {
 public:
  virtual ~Worker() = default;
  virtual int id() const = 0;
  virtual pid_t pid() const = 0;
  virtual FrameSocket& socket() = 0;
  /// Kills the process (SIGKILL) and remembers why ("exceeded the call timeout of 2 s"), which
  /// `describe_failure` then reports. Safe from any thread, also after the worker died.
  virtual void kill(const std::string& reason) = 0;
  /// Why the worker cannot go on, for error messages: "Python worker 3 (pid 4242) was killed by
  /// signal 11 (SIGSEGV)" or "... exited with code 3", the kill reason when there is one, and
  /// the last lines of its output. Waits up to `wait` for the fork server's exit report and for
  /// the end of the worker's output, so that both are complete.
  virtual std::string describe_failure(
      std::chrono::milliseconds wait = std::chrono::seconds(5)) = 0;
  /// The last lines (at most 20) the worker wrote to stdout or stderr.
  virtual std::vector<std::string> recent_output() const = 0;
};

class WorkerPool;

/// Exclusive use of a worker for one call. Returns it to the pool on destruction, unless
/// `discard()` was called (the worker failed or its connection is in an unknown state), in
/// which case it is killed and closed, and the pool starts another when needed. A lease must
/// not outlive its pool (it may outlive `shutdown`).
class WorkerLease {
 public:
  WorkerLease(WorkerLease&&) noexcept;
  WorkerLease& operator=(WorkerLease&&) noexcept;
  ~WorkerLease();

  Worker& worker() const { return *worker_; }
  Worker* operator->() const { return worker_.get(); }
  void discard() { discard_ = true; }

 private:
  friend class WorkerPool;
  WorkerLease(WorkerPool* pool, std::shared_ptr<Worker> worker);
  void release();

  WorkerPool* pool_ = nullptr;
  std::shared_ptr<Worker> worker_;
  bool discard_ = false;
};

class WorkerPool {
 public:
  /// Starts the fork server and waits until it is ready (throws `WorkerFailure` with its output
  /// when it exits or does not become ready within `start_timeout`). Workers start on demand.
  explicit WorkerPool(PoolOptions options);
  /// Shuts down: see `shutdown`.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// An idle worker, or a new one when fewer than `max_workers` exist; otherwise waits for one
  /// to be released. Throws `Cancelled` when `cancel` fires while waiting, `WorkerFailure` when
  /// a new worker cannot be started, `InvalidArgument` after `shutdown`. `requester` names the
  /// caller (a run) for `others_waiting`.
  WorkerLease acquire(const CancellationToken& cancel = {}, const void* requester = nullptr);
  /// Whether some caller with another `requester` waits in `acquire` for a worker to be
  /// released: a holder that could give its worker back sooner should.
  bool others_waiting(const void* requester) const;

  /// Closes every connection, kills workers still running after a grace period of one second,
  /// stops the fork server and reaps it, and removes the socket directory. Leases still out
  /// lose their worker (their calls fail). Idempotent; also called by the destructor.
  void shutdown();

  PoolStats stats() const;
  const PoolOptions& options() const;
  /// The listening socket and the secret a worker must present on it (for tests of the
  /// handshake).
  const std::string& socket_path() const;
  const std::string& secret() const;
  pid_t fork_server_pid() const;
  /// Processes of the workers currently alive.
  std::vector<pid_t> worker_pids() const;

  /// Whether this process started the pool. A process forked from it inherits the pool's memory
  /// but not its threads, and the pool's sockets and processes stay the parent's: there
  /// `acquire`, `stats`, `fork_server_pid` and `worker_pids` throw `InvalidArgument`, while
  /// `shutdown`, the destructor and leases ending do nothing, so that nothing of the parent's is
  /// signalled, killed, unlinked or written to (the pool's memory is left as it is).
  bool owned_by_this_process() const;
  /// Throws `InvalidArgument`, naming both processes, unless this process started the pool.
  void check_owned() const;

 private:
  friend class WorkerLease;
  void release(const std::shared_ptr<Worker>& worker, bool discard);
  class Impl;
  pid_t owner_pid_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bowstring::udf
