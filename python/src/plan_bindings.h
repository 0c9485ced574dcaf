// What the engine's bindings share: the plan object Python holds, and running engine work on a
// thread of its own so that Ctrl-C can cancel it.
#pragma once

#include <nanobind/nanobind.h>

#include <chrono>
#include <functional>
#include <future>
#include <thread>
#include <utility>

#include "bowstring/plan/logical_plan.h"
#include "bowstring/util/cancellation.h"

namespace bowstring::python {

struct PyLogicalPlan {
  plan::PlanPtr plan;
};

/// Runs `work` on a thread of its own while the caller waits without the GIL, checking for
/// signals in between: a signal (Ctrl-C) cancels `cancellation`, waits for `work` to stop and
/// raises the Python error the signal handler set. Returns what `work` returns, or throws what
/// it throws.
template <typename Result>
Result run_interruptibly(std::function<Result()> work, CancellationToken cancellation) {
  namespace nb = nanobind;
  constexpr std::chrono::milliseconds kSignalCheckInterval{50};
  std::packaged_task<Result()> task(std::move(work));
  std::future<Result> result = task.get_future();
  std::thread runner(std::move(task));
  while (true) {
    bool done = false;
    {
      nb::gil_scoped_release unlocked;
      done = result.wait_for(kSignalCheckInterval) == std::future_status::ready;
    }
    if (done) {
      break;
    }
    if (PyErr_CheckSignals() != 0) {
      cancellation.cancel();
      {
        nb::gil_scoped_release unlocked;
        runner.join();
      }
      throw nb::python_error();
    }
  }
  {
    nb::gil_scoped_release unlocked;
    runner.join();
  }
  return result.get();
}

}  // namespace bowstring::python
