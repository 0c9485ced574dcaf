#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace bowstring {

/// Queued tasks of higher priority run before any queued task of lower priority.
enum class TaskPriority { kNormal = 0, kHigh = 1 };
inline constexpr int kTaskPriorities = 2;

/// Starts a thread running `body`; the pool's seam for thread creation (tests make it fail).
using ThreadStarter = std::function<std::thread(std::function<void()> body)>;

/// A work-stealing thread pool. Each worker thread has its own queue: tasks it submits go there
/// and it runs them newest first (the data they touch is warm); tasks submitted from other
/// threads go to a shared queue. An idle worker takes from its queue, then the shared one, then
/// steals the oldest task of another worker. A thread waiting for a `TaskGroup` runs queued
/// tasks meanwhile instead of sleeping, so tasks may wait for nested groups on the same pool
/// without deadlock and without starting more threads.
///
/// A pool of size N runs N - 1 worker threads; the Nth is whichever thread waits. If starting a
/// worker fails, the pool keeps the workers it has (with none, waiting threads run everything).
class ThreadPool {
 public:
  /// A pool that runs tasks on up to `threads` threads (at least 1) including the waiting one.
  explicit ThreadPool(int threads, ThreadStarter start_thread = {});
  /// Stops and joins the workers. Every group submitted to the pool must have finished.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Threads that run tasks: the workers that started, plus one waiting thread.
  int size() const { return static_cast<int>(workers_.size()) + 1; }

  /// The pool whose task the calling thread is running (as a worker, or while it waits for a
  /// group), or null.
  static ThreadPool* current();

 private:
  friend class TaskGroup;
  struct Task;
  struct TaskQueue;
  struct GroupState;

  void push(Task task, TaskPriority priority);
  /// Takes the next task for `self` (a worker index, or -1 for another thread), or nothing.
  bool take(int self, Task& task);
  /// Runs `task` unless its group was cancelled, then counts it done.
  void run(Task& task);
  /// `run` on the calling thread, as a thread of this pool while the task runs.
  void run_here(Task& task);
  /// Runs queued tasks until `done()` holds, sleeping only while nothing is queued.
  void help_until(const std::function<bool()>& done);
  void work(int self);

  std::vector<std::unique_ptr<TaskQueue>> workers_;
  std::unique_ptr<TaskQueue> shared_;
  std::vector<std::thread> threads_;
  // Tasks in every queue: a thread sleeps only when none is queued.
  std::atomic<int64_t> queued_{0};
  std::mutex sleep_mutex_;
  std::condition_variable wake_;
  bool started_ = false;
  bool stopping_ = false;
};

/// Tasks submitted together and waited for together. The first exception a task throws cancels
/// the group and is rethrown by `wait()` once every running task has finished. `cancel()` makes
/// the group skip its queued tasks (and drop later submissions); running tasks may poll
/// `cancelled()` to stop early. The destructor cancels and waits for whatever is still pending,
/// so tasks never outlive the data the group's scope gave them.
class TaskGroup {
 public:
  explicit TaskGroup(ThreadPool& pool, TaskPriority priority = TaskPriority::kNormal);
  ~TaskGroup();
  TaskGroup(const TaskGroup&) = delete;
  TaskGroup& operator=(const TaskGroup&) = delete;

  /// Queues `task` at the group's priority, or drops it if the group is cancelled.
  void submit(std::function<void()> task);
  /// Waits until every submitted task has run or been skipped, running queued tasks of the pool
  /// meanwhile; rethrows the first exception a task threw.
  void wait();
  /// Runs `task` as a task of the group on the calling thread, at once, then `wait()`s.
  void run_and_wait(std::function<void()> task);
  void cancel();
  bool cancelled() const;

 private:
  ThreadPool& pool_;
  TaskPriority priority_;
  std::shared_ptr<ThreadPool::GroupState> state_;
};

/// The process-wide pool, created on first use with `default_thread_count()` threads (or the
/// count given to `configure_default_thread_pool`). After `fork()` the child gets a fresh pool
/// on its first use: the parent's worker threads do not exist in the child.
std::shared_ptr<ThreadPool> default_thread_pool();

/// Replaces the process-wide pool by one of `threads` threads (0: `default_thread_count()`
/// again). Work already running keeps the old pool until it finishes.
void configure_default_thread_pool(int threads);

}  // namespace bowstring
