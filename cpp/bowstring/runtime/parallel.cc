#include "bowstring/runtime/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>

#include "bowstring/runtime/thread_pool.h"

namespace bowstring {
namespace {

void run_serially(int64_t count, const std::function<void(int64_t, int)>& task) {
  for (int64_t i = 0; i < count; ++i) {
    task(i, 0);
  }
}

}  // namespace

int hardware_threads() {
  ThreadPool* pool = ThreadPool::current();
  return pool != nullptr ? pool->size() : default_thread_pool()->size();
}

void parallel_for(int64_t count, int threads, const std::function<void(int64_t, int)>& task) {
  // Small calls never touch (or create) the process-wide pool.
  if (std::min<int64_t>(threads, count) <= 1) {
    run_serially(count, task);
    return;
  }
  if (ThreadPool* pool = ThreadPool::current()) {
    parallel_for(*pool, count, threads, task);
    return;
  }
  // Held until every runner has finished, even if the process-wide pool is replaced meanwhile.
  const std::shared_ptr<ThreadPool> pool = default_thread_pool();
  parallel_for(*pool, count, threads, task);
}

void parallel_for(ThreadPool& pool, int64_t count, int threads,
                  const std::function<void(int64_t, int)>& task) {
  const auto runners = static_cast<int>(std::min<int64_t>({threads, count, pool.size()}));
  if (runners <= 1) {
    run_serially(count, task);
    return;
  }
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  const auto run = [&](int worker) {
    for (int64_t i = next++; i < count && !failed; i = next++) {
      try {
        task(i, worker);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!first_error) {
          first_error = std::current_exception();
        }
        failed = true;
      }
    }
  };
  TaskGroup group(pool);
  for (int worker = 1; worker < runners; ++worker) {
    group.submit([&run, worker] { run(worker); });
  }
  group.run_and_wait([&] {
    run(0);
    // Every index is taken by now: runners that have not started would find nothing to do.
    group.cancel();
  });
  if (first_error) {
    std::rethrow_exception(first_error);
  }
}

}  // namespace bowstring
