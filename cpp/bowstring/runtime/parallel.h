#pragma once

#include <cstdint>
#include <functional>

namespace bowstring {

class ThreadPool;

/// Number of threads worth using for CPU-bound work: the size of the pool `parallel_for` runs
/// on (the pool whose task calls it, else the process-wide one, see `default_thread_pool`).
int hardware_threads();

/// Calls `task(i, worker)` for every i in [0, count), on up to `threads` threads (the calling
/// thread is one of them) of the pool whose task calls it, else of the process-wide pool; `worker`
/// in [0, threads) identifies the runner, so that tasks can use per-thread state (no two calls
/// with one `worker` overlap). Each runner takes the next index until none is left. If tasks
/// throw, the remaining indices are skipped and the first exception is rethrown once every
/// runner has stopped. With `threads` <= 1 or a single index, everything runs on the calling
/// thread. Tasks may call `parallel_for` themselves: the waiting thread runs queued work, so
/// nesting neither deadlocks nor starts threads.
void parallel_for(int64_t count, int threads, const std::function<void(int64_t, int)>& task);

/// `parallel_for` on `pool`, with at most `pool.size()` runners.
void parallel_for(ThreadPool& pool, int64_t count, int threads,
                  const std::function<void(int64_t, int)>& task);

}  // namespace bowstring
