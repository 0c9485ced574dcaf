#include "bowstring/util/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace bowstring {

int hardware_threads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void parallel_for(int64_t count, int threads, const std::function<void(int64_t, int)>& task) {
  const int workers = static_cast<int>(std::min<int64_t>(std::max(threads, 1), count));
  if (workers <= 1) {
    for (int64_t i = 0; i < count; ++i) {
      task(i, 0);
    }
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
  std::vector<std::thread> helpers;
  helpers.reserve(static_cast<size_t>(workers - 1));
  for (int worker = 1; worker < workers; ++worker) {
    helpers.emplace_back(run, worker);
  }
  run(0);
  for (std::thread& helper : helpers) {
    helper.join();
  }
  if (first_error) {
    std::rethrow_exception(first_error);
  }
}

}  // namespace bowstring
