#include "bowstring/runtime/thread_pool.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "bowstring/runtime/cpu_count.h"
#include "bowstring/runtime/parallel.h"
#include "bowstring/util/error.h"

namespace bowstring {
namespace {

/// Spins (yielding) until `condition` holds.
template <typename Condition>
void spin_until(Condition condition) {
  while (!condition()) {
    std::this_thread::yield();
  }
}

TEST(ThreadPool, RunsEveryTaskOfAGroup) {
  for (const int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.size(), threads);
    std::vector<std::atomic<int>> runs(1000);
    TaskGroup group(pool);
    for (size_t i = 0; i < runs.size(); ++i) {
      group.submit([&runs, i] { ++runs[i]; });
    }
    group.wait();
    for (const std::atomic<int>& count : runs) {
      EXPECT_EQ(count.load(), 1);
    }
  }
}

TEST(ThreadPool, CurrentNamesTheWorkersPool) {
  ThreadPool pool(3);
  EXPECT_EQ(ThreadPool::current(), nullptr);
  std::atomic<int> foreign{0};
  TaskGroup group(pool);
  for (int i = 0; i < 100; ++i) {
    // Tasks run on the pool's workers or on this thread while it waits: in both cases, the
    // pool is theirs.
    group.submit([&] {
      if (ThreadPool::current() != &pool) {
        ++foreign;
      }
    });
  }
  group.wait();
  EXPECT_EQ(foreign.load(), 0);
  EXPECT_EQ(ThreadPool::current(), nullptr);
}

TEST(ThreadPool, NestedGroupsCompleteOnEverySize) {
  for (const int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    std::atomic<int64_t> sum{0};
    TaskGroup outer(pool);
    for (int i = 0; i < 16; ++i) {
      outer.submit([&, i] {
        TaskGroup inner(pool);
        for (int j = 0; j < 16; ++j) {
          inner.submit([&, i, j] { sum += i * 16 + j; });
        }
        inner.wait();
      });
    }
    outer.wait();
    EXPECT_EQ(sum.load(), 255 * 256 / 2) << threads;
  }
}

TEST(ThreadPool, OtherThreadsStealFromABusyWorkersQueue) {
  // A task queues work (on its worker's own queue when a worker runs it) and, without waiting
  // for it, blocks until it has started (at most 30 s): only another thread can start it.
  ThreadPool pool(3);
  std::atomic<bool> stolen{false};
  TaskGroup outer(pool);
  outer.submit([&] {
    std::atomic<bool> started{false};
    TaskGroup inner(pool);
    inner.submit([&] { started = true; });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!started && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    stolen = started.load();
    inner.wait();
  });
  outer.wait();
  EXPECT_TRUE(stolen);
}

TEST(ThreadPool, TheFirstExceptionReachesTheWaiterAfterRunningTasksFinish) {
  ThreadPool pool(4);
  std::atomic<int> started{0};
  std::atomic<int> finished{0};
  TaskGroup group(pool);
  for (int i = 0; i < 200; ++i) {
    group.submit([&, i] {
      ++started;
      if (i == 10) {
        ++finished;
        throw std::runtime_error("task 10 failed");
      }
      ++finished;
    });
  }
  try {
    group.wait();
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "task 10 failed");
  }
  EXPECT_EQ(started.load(), finished.load());
  EXPECT_TRUE(group.cancelled());
}

TEST(ThreadPool, AnExceptionSkipsTheGroupsQueuedTasks) {
  // One thread serves the pool: tasks run in submission order, when the group is waited for.
  ThreadPool pool(1);
  int ran = 0;
  TaskGroup group(pool);
  group.submit([] { throw InvalidArgument("first task failed"); });
  for (int i = 0; i < 9; ++i) {
    group.submit([&] { ++ran; });
  }
  EXPECT_THROW(group.wait(), InvalidArgument);
  EXPECT_EQ(ran, 0);
}

TEST(ThreadPool, CancelSkipsQueuedTasksAndDropsLaterOnes) {
  ThreadPool pool(1);
  int ran = 0;
  TaskGroup group(pool);
  for (int i = 0; i < 5; ++i) {
    group.submit([&] { ++ran; });
  }
  group.cancel();
  group.submit([&] { ++ran; });
  group.wait();
  EXPECT_EQ(ran, 0);
  EXPECT_TRUE(group.cancelled());
}

TEST(ThreadPool, RunningTasksSeeTheCancellation) {
  // One worker: it runs the first task while the others stay queued.
  ThreadPool pool(2);
  ASSERT_EQ(pool.size(), 2);
  std::atomic<bool> first_started{false};
  std::atomic<int> others{0};
  TaskGroup group(pool);
  group.submit([&] {
    first_started = true;
    spin_until([&] { return group.cancelled(); });
  });
  for (int i = 0; i < 5; ++i) {
    group.submit([&] { ++others; });
  }
  spin_until([&] { return first_started.load(); });
  group.cancel();
  group.wait();
  EXPECT_EQ(others.load(), 0);
}

TEST(ThreadPool, RunAndWaitRunsOnTheCallingThreadAsTheGroupsTask) {
  ThreadPool pool(3);
  std::atomic<int> others{0};
  TaskGroup group(pool);
  for (int i = 0; i < 10; ++i) {
    group.submit([&] { ++others; });
  }
  std::thread::id ran_on;
  ThreadPool* pool_seen = nullptr;
  group.run_and_wait([&] {
    ran_on = std::this_thread::get_id();
    pool_seen = ThreadPool::current();
  });
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  EXPECT_EQ(pool_seen, &pool);
  EXPECT_EQ(others.load(), 10);
  EXPECT_THROW(group.run_and_wait([] { throw std::logic_error("inline task failed"); }),
               std::logic_error);
  EXPECT_TRUE(group.cancelled());
}

TEST(ThreadPool, TheDestructorOfAGroupCancelsAndWaits) {
  ThreadPool pool(1);
  int ran = 0;
  {
    TaskGroup group(pool);
    group.submit([&] { ++ran; });
  }
  EXPECT_EQ(ran, 0);
}

TEST(ThreadPool, HighPriorityTasksRunFirst) {
  ThreadPool pool(1);
  std::vector<std::string> order;
  TaskGroup normal(pool);
  TaskGroup high(pool, TaskPriority::kHigh);
  for (const char* name : {"n0", "n1", "n2"}) {
    normal.submit([&order, name] { order.emplace_back(name); });
  }
  for (const char* name : {"h0", "h1"}) {
    high.submit([&order, name] { order.emplace_back(name); });
  }
  normal.wait();
  high.wait();
  EXPECT_EQ(order, (std::vector<std::string>{"h0", "h1", "n0", "n1", "n2"}));
}

TEST(ThreadPool, HighPriorityTasksOvertakeAWorkersQueuedTasks) {
  // A task on the single worker queues normal work on the worker's own queue, then high work
  // arrives from outside; the worker, waiting for its group, takes the high work first. This
  // thread waits only once the worker is done, so that the worker alone serves.
  ThreadPool pool(2);
  std::vector<std::string> order;
  std::atomic<bool> normal_queued{false};
  std::atomic<bool> high_queued{false};
  std::atomic<bool> outer_done{false};
  TaskGroup high(pool, TaskPriority::kHigh);
  TaskGroup outer(pool);
  outer.submit([&] {
    TaskGroup normal(pool);
    normal.submit([&] { order.emplace_back("normal"); });
    normal_queued = true;
    spin_until([&] { return high_queued.load(); });
    normal.wait();
    outer_done = true;
  });
  spin_until([&] { return normal_queued.load(); });
  high.submit([&] { order.emplace_back("high"); });
  high_queued = true;
  spin_until([&] { return outer_done.load(); });
  outer.wait();
  high.wait();
  EXPECT_EQ(order, (std::vector<std::string>{"high", "normal"}));
}

TEST(ThreadPool, AFailedThreadStartLeavesThePoolWithTheThreadsItGot) {
  const auto fail_after = [](int successes) {
    return [successes, started = 0](std::function<void()> body) mutable {
      if (started == successes) {
        throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                                "thread creation refused for the test");
      }
      ++started;
      return std::thread(std::move(body));
    };
  };
  for (const int successes : {0, 1, 2}) {
    ThreadPool pool(8, fail_after(successes));
    EXPECT_EQ(pool.size(), successes + 1);
    std::vector<std::atomic<int>> calls(500);
    std::atomic<bool> worker_out_of_range{false};
    parallel_for(pool, 500, 8, [&](int64_t i, int worker) {
      ++calls[static_cast<size_t>(i)];
      if (worker < 0 || worker > successes) {
        worker_out_of_range = true;
      }
    });
    for (const std::atomic<int>& count : calls) {
      EXPECT_EQ(count.load(), 1);
    }
    EXPECT_FALSE(worker_out_of_range);
    // Nested calls stay on the pool (and within its threads) whichever thread runs them.
    TaskGroup nested(pool);
    std::atomic<int> inner{0};
    std::atomic<int> elsewhere{0};
    for (int i = 0; i < 8; ++i) {
      nested.submit([&] {
        parallel_for(8, 8, [&](int64_t, int worker) {
          ++inner;
          if (ThreadPool::current() != &pool || worker > successes) {
            ++elsewhere;
          }
        });
      });
    }
    nested.wait();
    EXPECT_EQ(inner.load(), 64);
    EXPECT_EQ(elsewhere.load(), 0);
  }
}

TEST(DefaultThreadPool, IsSizedByTheProcessesCpusAndCanBeResized) {
  EXPECT_EQ(hardware_threads(), default_thread_count());
  EXPECT_EQ(default_thread_pool()->size(), default_thread_count());
  configure_default_thread_pool(3);
  EXPECT_EQ(hardware_threads(), 3);
  std::atomic<int> calls{0};
  parallel_for(100, 3, [&](int64_t, int) { ++calls; });
  EXPECT_EQ(calls.load(), 100);
  configure_default_thread_pool(0);
  EXPECT_EQ(hardware_threads(), default_thread_count());
  EXPECT_THROW(configure_default_thread_pool(-1), InvalidArgument);
  EXPECT_THROW(configure_default_thread_pool(kMaxThreads + 1), InvalidArgument);
}

TEST(DefaultThreadPool, WorkKeepsItsPoolWhileThePoolIsReplaced) {
  std::atomic<bool> resized{false};
  std::atomic<int64_t> sum{0};
  int64_t rounds = 0;
  std::thread resizer([&] {
    configure_default_thread_pool(2);
    configure_default_thread_pool(0);
    resized = true;
  });
  for (; rounds < 50 || !resized; ++rounds) {
    parallel_for(64, 4, [&](int64_t i, int) { sum += i; });
  }
  resizer.join();
  EXPECT_EQ(sum.load(), rounds * (63 * 64 / 2));
}

/// Forks; the child runs `child` and exits with its result (0: success), killed after 60 s if
/// it hangs. Returns the child's wait status.
template <typename Child>
int in_child(Child child) {
  const pid_t pid = fork();
  if (pid == 0) {
    alarm(60);
    _exit(child());
  }
  int status = -1;
  if (pid > 0) {
    waitpid(pid, &status, 0);
  }
  return status;
}

/// What a child checks: its process-wide pool is not the parent's, has live workers (two
/// tasks run at once: the first waits, at most 30 s, for the second to start), and parallel
/// work on it gives the right answers.
int check_fresh_pool(const ThreadPool* parents) {
  if (default_thread_pool().get() == parents) {
    return 2;
  }
  std::atomic<bool> second_started{false};
  std::atomic<bool> met{false};
  parallel_for(2, 2, [&](int64_t i, int) {
    if (i == 1) {
      second_started = true;
      return;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!second_started && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    met = second_started.load();
  });
  if (!met) {
    return 3;
  }
  std::atomic<int64_t> sum{0};
  std::atomic<bool> worker_out_of_range{false};
  parallel_for(10000, 4, [&](int64_t i, int worker) {
    sum += i;
    if (worker < 0 || worker >= 4) {
      worker_out_of_range = true;
    }
  });
  int64_t nested = 0;
  std::mutex nested_mutex;
  parallel_for(8, 8, [&](int64_t, int) {
    std::atomic<int64_t> part{0};
    parallel_for(100, 8, [&](int64_t j, int) { part += j; });
    const std::lock_guard lock(nested_mutex);
    nested += part;
  });
  return sum == 9999 * 10000 / 2 && nested == 8 * 4950 && !worker_out_of_range ? 0 : 1;
}

/// Returns once each of the default pool's `threads` threads has run a task. A thread still
/// starting when the process forks may hold the sanitizer runtime's thread registry lock, which
/// GCC 12's ASan does not release in the child, so that the child's new threads never start:
/// the fork tests fork only once the parent's workers are running.
void wait_until_every_worker_runs(int threads) {
  std::atomic<int> arrived{0};
  parallel_for(threads, threads, [&](int64_t, int) {
    ++arrived;
    spin_until([&] { return arrived.load() == threads; });
  });
}

TEST(DefaultThreadPool, AForkedChildGetsAFreshPool) {
  configure_default_thread_pool(4);  // workers exist in the parent, whatever the machine
  const ThreadPool* parents = default_thread_pool().get();
  ASSERT_EQ(default_thread_pool()->size(), 4);
  wait_until_every_worker_runs(4);
  std::atomic<int64_t> sum{0};
  parallel_for(1000, 4, [&](int64_t i, int) { sum += i; });
  EXPECT_EQ(sum.load(), 999 * 1000 / 2);
  const int status =
      in_child([&] { return hardware_threads() == 4 ? check_fresh_pool(parents) : 4; });
  EXPECT_TRUE(WIFEXITED(status)) << "child status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
  configure_default_thread_pool(0);
}

TEST(DefaultThreadPool, AForkWhileThePoolIsBusyLeavesTheChildAWorkingPool) {
  configure_default_thread_pool(4);
  const ThreadPool* parents = default_thread_pool().get();
  ASSERT_EQ(default_thread_pool()->size(), 4);
  wait_until_every_worker_runs(4);
  std::atomic<bool> stop{false};
  std::atomic<int64_t> rounds{0};
  std::thread busy([&] {
    while (!stop) {
      parallel_for(64, 4, [&](int64_t, int) { std::this_thread::yield(); });
      ++rounds;
    }
  });
  for (int fork_count = 0; fork_count < 5; ++fork_count) {
    const int64_t before = rounds;
    spin_until([&] { return rounds > before; });
    const int status = in_child([&] { return check_fresh_pool(parents); });
    EXPECT_TRUE(WIFEXITED(status)) << "child status " << status;
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  stop = true;
  busy.join();
  configure_default_thread_pool(0);
}

}  // namespace
}  // namespace bowstring
