#include "bowstring/util/cancellation.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace bowstring {
namespace {

TEST(CancellationTokenTest, CopiesShareTheFlagAndCallbacksRunOnce) {
  CancellationToken token;
  const CancellationToken copy = token;
  int calls = 0;
  copy.on_cancel([&] { ++calls; });
  EXPECT_FALSE(copy.cancelled());
  EXPECT_NO_THROW(copy.throw_if_cancelled());
  token.cancel();
  token.cancel();
  EXPECT_TRUE(copy.cancelled());
  EXPECT_EQ(calls, 1);
  EXPECT_THROW(copy.throw_if_cancelled("the call was cancelled"), Cancelled);
}

TEST(CancellationTokenTest, CallbackRegisteredAfterCancelRunsAtOnce) {
  CancellationToken token;
  token.cancel();
  bool ran = false;
  token.on_cancel([&] { ran = true; });
  EXPECT_TRUE(ran);
}

TEST(CancellationTokenTest, RemovedCallbackNeverRuns) {
  CancellationToken token;
  bool ran = false;
  const int64_t id = token.on_cancel([&] { ran = true; });
  token.remove_callback(id);
  token.cancel();
  EXPECT_FALSE(ran);
}

TEST(CancellationTokenTest, RemoveWaitsForARunningCallback) {
  CancellationToken token;
  std::atomic<bool> started{false};
  std::atomic<bool> finished{false};
  const int64_t id = token.on_cancel([&] {
    started = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    finished = true;
  });
  std::thread canceller([&] { token.cancel(); });
  while (!started) {
    std::this_thread::yield();
  }
  token.remove_callback(id);
  EXPECT_TRUE(finished);
  canceller.join();
}

}  // namespace
}  // namespace bowstring
