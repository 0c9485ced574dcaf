#include "bowstring/runtime/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "bowstring/runtime/thread_pool.h"

namespace bowstring {
namespace {

TEST(ParallelFor, CallsEveryIndexOnceWithWorkersInRange) {
  for (const int threads : {0, 1, 2, 4, 16}) {
    std::vector<std::atomic<int>> calls(1000);
    std::atomic<bool> worker_out_of_range{false};
    parallel_for(1000, threads, [&](int64_t i, int worker) {
      ++calls[static_cast<size_t>(i)];
      if (worker < 0 || worker >= std::max(threads, 1)) {
        worker_out_of_range = true;
      }
    });
    for (const std::atomic<int>& count : calls) {
      EXPECT_EQ(count.load(), 1);
    }
    EXPECT_FALSE(worker_out_of_range);
  }
}

TEST(ParallelFor, ZeroTasksRunNothing) {
  bool called = false;
  parallel_for(0, 4, [&](int64_t, int) { called = true; });
  EXPECT_FALSE(called);
}

TEST(ParallelFor, RethrowsTheFirstError) {
  for (const int threads : {1, 4}) {
    EXPECT_THROW(parallel_for(10000, threads,
                              [&](int64_t i, int) {
                                if (i == 3) throw std::runtime_error("task 3 failed");
                              }),
                 std::runtime_error);
  }
}

TEST(ParallelFor, OneThreadStopsAtTheFailingTask) {
  int started = 0;
  EXPECT_THROW(parallel_for(10, 1,
                            [&](int64_t i, int) {
                              ++started;
                              if (i == 3) throw std::runtime_error("task 3 failed");
                            }),
               std::runtime_error);
  EXPECT_EQ(started, 4);
  EXPECT_GE(hardware_threads(), 1);
}

TEST(ParallelFor, NestedCallsCompleteWithTheRightResult) {
  std::atomic<int64_t> sum{0};
  parallel_for(32, 8, [&](int64_t i, int) {
    parallel_for(100, 8, [&](int64_t j, int) { sum += i * 100 + j; });
  });
  EXPECT_EQ(sum.load(), 3199 * 3200 / 2);
}

/// Counts the leaves of a tree of parallel calls `depth` levels deep, `fan_out` wide.
int64_t count_leaves(int depth, int fan_out) {
  if (depth == 0) {
    return 1;
  }
  std::atomic<int64_t> leaves{0};
  parallel_for(fan_out, fan_out, [&](int64_t, int) { leaves += count_leaves(depth - 1, fan_out); });
  return leaves;
}

TEST(ParallelFor, DeepNestingCompletes) { EXPECT_EQ(count_leaves(7, 3), 2187); }

TEST(ParallelFor, WorkerIdsNeverOverlap) {
  // Per-worker state is only safe if two running calls never share a worker id.
  constexpr int kThreads = 4;
  std::vector<std::atomic<bool>> in_use(kThreads);
  std::atomic<bool> overlapped{false};
  std::atomic<int64_t> inner_sum{0};
  parallel_for(2000, kThreads, [&](int64_t i, int worker) {
    if (in_use[static_cast<size_t>(worker)].exchange(true)) {
      overlapped = true;
    }
    if (i % 100 == 0) {
      parallel_for(10, kThreads, [&](int64_t j, int) { inner_sum += j; });
    }
    in_use[static_cast<size_t>(worker)] = false;
  });
  EXPECT_FALSE(overlapped);
  EXPECT_EQ(inner_sum.load(), 20 * 45);
}

TEST(ParallelFor, ManyCallersShareThePool) {
  std::vector<std::thread> callers;
  std::atomic<int64_t> sum{0};
  for (int caller = 0; caller < 6; ++caller) {
    callers.emplace_back([&] {
      for (int round = 0; round < 50; ++round) {
        parallel_for(64, 4, [&](int64_t i, int) {
          parallel_for(4, 4, [&](int64_t j, int) { sum += i * 4 + j; });
        });
      }
    });
  }
  for (std::thread& caller : callers) {
    caller.join();
  }
  EXPECT_EQ(sum.load(), 6 * 50 * (255 * 256 / 2));
}

TEST(ParallelFor, AnExceptionInANestedCallReachesTheOuterCaller) {
  std::atomic<int> outer_calls{0};
  EXPECT_THROW(parallel_for(16, 4,
                            [&](int64_t i, int) {
                              ++outer_calls;
                              parallel_for(16, 4, [&](int64_t j, int) {
                                if (i == 5 && j == 7) throw std::out_of_range("inner 5/7");
                              });
                            }),
               std::out_of_range);
  EXPECT_GE(outer_calls.load(), 1);
}

TEST(ParallelFor, RunsOnTheGivenPoolWithAtMostItsSize) {
  ThreadPool pool(2);
  std::atomic<bool> worker_out_of_range{false};
  std::atomic<bool> elsewhere{false};
  std::atomic<int> calls{0};
  parallel_for(pool, 1000, 16, [&](int64_t i, int worker) {
    ++calls;
    if (worker < 0 || worker >= 2) {
      worker_out_of_range = true;
    }
    // Every call, the calling thread's too, runs as the pool's work: nested calls stay on it.
    if (ThreadPool::current() != &pool) {
      elsewhere = true;
    }
    if (i % 100 == 0) {
      parallel_for(4, 4, [&](int64_t, int nested_worker) {
        if (ThreadPool::current() != &pool || nested_worker >= 2) {
          elsewhere = true;
        }
      });
    }
  });
  EXPECT_EQ(calls.load(), 1000);
  EXPECT_FALSE(worker_out_of_range);
  EXPECT_FALSE(elsewhere);
  EXPECT_EQ(ThreadPool::current(), nullptr);
}

}  // namespace
}  // namespace bowstring
