#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bowstring/udf/worker_pool.h"
#include "bowstring/util/cancellation.h"

/// Worker pools running this source tree's Python worker, for tests.
namespace bowstring::testing {

/// Collects the lines given to a sink, for assertions. Copies share the lines; the sink may be
/// called from any thread.
class LineCollector {
 public:
  LineCollector();

  std::function<void(const std::string& line)> sink() const;
  std::vector<std::string> lines() const;
  /// Whether some line contains `text`.
  bool contains(std::string_view text) const;
  /// Waits until some line contains `text`; false when none did within `timeout`.
  bool wait_for(std::string_view text,
                std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;
  /// All lines, one per line of the result (for failure messages).
  std::string text() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

/// The interpreter the build was configured with (CMake's `Python_EXECUTABLE`).
std::string python_executable();

/// Pool options that run `<source tree>/python`'s worker with that interpreter. Output and log
/// lines go to the collectors when given (else to stderr, as by default).
udf::PoolOptions python_pool_options(const LineCollector* output = nullptr,
                                     const LineCollector* log = nullptr);

/// Cancels `token` unless destroyed within `timeout`: a wait that would hang becomes a
/// `Cancelled` the test reports.
class CancelAfter {
 public:
  CancelAfter(CancellationToken token, std::chrono::milliseconds timeout);
  ~CancelAfter();
  CancelAfter(const CancelAfter&) = delete;
  CancelAfter& operator=(const CancelAfter&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool disarmed_ = false;
  std::thread thread_;
};

/// Runs `body` in a process forked from this one and returns the child's exit code: what `body`
/// returned (125 when it threw), or 128 plus the signal that ended it (SIGALRM after 30 s, for a
/// child that hangs).
int exit_code_in_forked_child(const std::function<int()>& body);

}  // namespace bowstring::testing
