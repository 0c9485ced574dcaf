#include "bowstring/util/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

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

}  // namespace
}  // namespace bowstring
