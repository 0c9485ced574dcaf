#pragma once

#include <cstdint>
#include <functional>

namespace bowstring {

/// Number of threads worth using for CPU-bound work: the hardware's, at least 1.
int hardware_threads();

/// Calls `task(i, worker)` for every i in [0, count), on up to `threads` threads (the calling
/// thread is one of them); `worker` in [0, threads) identifies the thread, so that tasks can use
/// per-thread state. Each thread takes the next index until none is left. If tasks throw, the
/// remaining indices are skipped and the first exception is rethrown once every thread has
/// stopped. With `threads` <= 1 or a single index, everything runs on the calling thread.
void parallel_for(int64_t count, int threads, const std::function<void(int64_t, int)>& task);

}  // namespace bowstring
