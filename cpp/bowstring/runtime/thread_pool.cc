#include "bowstring/runtime/thread_pool.h"

#include <pthread.h>

#include <algorithm>
#include <string>
#include <utility>

#include "bowstring/runtime/cpu_count.h"
#include "bowstring/util/error.h"

namespace bowstring {

struct ThreadPool::GroupState {
  // Submitted tasks that have not yet run or been skipped.
  std::atomic<int64_t> pending{0};
  std::atomic<bool> cancelled{false};
  std::mutex error_mutex;
  std::exception_ptr first_error;
};

struct ThreadPool::Task {
  std::function<void()> body;
  std::shared_ptr<GroupState> group;
};

struct ThreadPool::TaskQueue {
  std::mutex mutex;
  std::deque<Task> tasks[kTaskPriorities];
};

namespace {

/// The pool whose task the thread is running, and the thread's worker index in it (-1 for a
/// thread that runs the pool's tasks while it waits).
struct CurrentWorker {
  ThreadPool* pool = nullptr;
  int index = -1;
};
thread_local CurrentWorker current_worker;

}  // namespace

ThreadPool::ThreadPool(int threads, ThreadStarter start_thread)
    : shared_(std::make_unique<TaskQueue>()) {
  if (!start_thread) {
    start_thread = [](std::function<void()> body) { return std::thread(std::move(body)); };
  }
  const auto wanted = static_cast<size_t>(std::max(threads, 1) - 1);
  for (size_t i = 0; i < wanted; ++i) {
    workers_.push_back(std::make_unique<TaskQueue>());
  }
  // Reserved, so that adding a started thread cannot throw and destroy it joinable.
  threads_.reserve(wanted);
  for (size_t i = 0; i < wanted; ++i) {
    try {
      threads_.push_back(start_thread([this, i] { work(static_cast<int>(i)); }));
    } catch (...) {
      // Out of threads (std::system_error), memory, or whatever a starter throws: run with the
      // workers already started.
      break;
    }
  }
  // Workers touch `workers_` only once `started_` is set, so it may still shrink here.
  workers_.resize(threads_.size());
  {
    const std::lock_guard lock(sleep_mutex_);
    started_ = true;
  }
  wake_.notify_all();
}

ThreadPool::~ThreadPool() {
  {
    const std::lock_guard lock(sleep_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) {
    thread.join();
  }
}

ThreadPool* ThreadPool::current() { return current_worker.pool; }

void ThreadPool::push(Task task, TaskPriority priority) {
  const int self = current_worker.pool == this ? current_worker.index : -1;
  TaskQueue& queue = self >= 0 ? *workers_[static_cast<size_t>(self)] : *shared_;
  {
    const std::lock_guard lock(queue.mutex);
    queue.tasks[static_cast<int>(priority)].push_back(std::move(task));
  }
  ++queued_;
  // Taking the lock orders this wake-up after any sleeper's check of `queued_`.
  { const std::lock_guard lock(sleep_mutex_); }
  wake_.notify_one();
}

bool ThreadPool::take(int self, Task& task) {
  const auto pop = [&](TaskQueue& queue, int priority, bool newest) {
    const std::lock_guard lock(queue.mutex);
    std::deque<Task>& tasks = queue.tasks[priority];
    if (tasks.empty()) {
      return false;
    }
    if (newest) {
      task = std::move(tasks.back());
      tasks.pop_back();
    } else {
      task = std::move(tasks.front());
      tasks.pop_front();
    }
    --queued_;
    return true;
  };
  const auto workers = static_cast<int>(workers_.size());
  for (int priority = kTaskPriorities - 1; priority >= 0; --priority) {
    if (self >= 0 && pop(*workers_[static_cast<size_t>(self)], priority, true)) {
      return true;
    }
    if (pop(*shared_, priority, false)) {
      return true;
    }
    for (int k = 1; k <= workers; ++k) {
      const int victim = (std::max(self, 0) + k) % workers;
      if (victim != self && pop(*workers_[static_cast<size_t>(victim)], priority, false)) {
        return true;
      }
    }
  }
  return false;
}

void ThreadPool::run(Task& task) {
  const std::shared_ptr<GroupState> group = std::move(task.group);
  if (!group->cancelled) {
    try {
      task.body();
    } catch (...) {
      const std::lock_guard lock(group->error_mutex);
      if (!group->first_error) {
        group->first_error = std::current_exception();
      }
      group->cancelled = true;
    }
  }
  // The task's captures go before its group may finish, so none outlives the waiter's scope.
  task.body = nullptr;
  if (--group->pending == 0) {
    { const std::lock_guard lock(sleep_mutex_); }
    wake_.notify_all();
  }
}

void ThreadPool::run_here(Task& task) {
  // While it runs the pool's task, the calling thread belongs to the pool: work the task
  // submits (a nested parallel_for) stays on this pool.
  const int self = current_worker.pool == this ? current_worker.index : -1;
  const CurrentWorker outside = std::exchange(current_worker, {this, self});
  run(task);
  current_worker = outside;
}

void ThreadPool::help_until(const std::function<bool()>& done) {
  const int self = current_worker.pool == this ? current_worker.index : -1;
  Task task;
  while (!done()) {
    if (take(self, task)) {
      run_here(task);
      continue;
    }
    std::unique_lock lock(sleep_mutex_);
    wake_.wait(lock, [&] { return done() || queued_ > 0; });
  }
  // The wake-up that ended the wait may have been meant for a queued task: pass it on.
  if (queued_ > 0) {
    wake_.notify_one();
  }
}

void ThreadPool::work(int self) {
  current_worker = {this, self};
  {
    std::unique_lock lock(sleep_mutex_);
    wake_.wait(lock, [&] { return started_; });
  }
  Task task;
  while (true) {
    if (take(self, task)) {
      run(task);
      continue;
    }
    std::unique_lock lock(sleep_mutex_);
    wake_.wait(lock, [&] { return stopping_ || queued_ > 0; });
    if (stopping_) {
      return;
    }
  }
}

TaskGroup::TaskGroup(ThreadPool& pool, TaskPriority priority)
    : pool_(pool), priority_(priority), state_(std::make_shared<ThreadPool::GroupState>()) {}

TaskGroup::~TaskGroup() {
  if (state_->pending > 0) {
    cancel();
    pool_.help_until([&] { return state_->pending == 0; });
  }
}

void TaskGroup::submit(std::function<void()> task) {
  if (state_->cancelled) {
    return;
  }
  ++state_->pending;
  try {
    pool_.push({std::move(task), state_}, priority_);
  } catch (...) {
    --state_->pending;
    throw;
  }
}

void TaskGroup::run_and_wait(std::function<void()> task) {
  if (!state_->cancelled) {
    ++state_->pending;
    ThreadPool::Task here{std::move(task), state_};
    pool_.run_here(here);
  }
  wait();
}

void TaskGroup::wait() {
  pool_.help_until([&] { return state_->pending == 0; });
  std::exception_ptr error;
  {
    const std::lock_guard lock(state_->error_mutex);
    error = std::exchange(state_->first_error, nullptr);
  }
  if (error) {
    std::rethrow_exception(error);
  }
}

void TaskGroup::cancel() { state_->cancelled = true; }

bool TaskGroup::cancelled() const { return state_->cancelled; }

// --- the process-wide pool ----------------------------------------------------------------

namespace {

struct DefaultPool {
  std::mutex mutex;
  std::shared_ptr<ThreadPool> pool;
  int configured_threads = 0;  // 0: default_thread_count()
  // The state a fork left behind in this process (see `replace_default_pool_in_child`), kept
  // reachable so that leak checkers do not report it.
  DefaultPool* abandoned = nullptr;
};

std::atomic<DefaultPool*> default_pool_state{nullptr};

// Runs in the child of fork(), on its only thread. The parent's workers do not exist here and
// any of the pool's mutexes may have been held by one of them at the fork, so the inherited
// pool must never be used, locked or destroyed (its destructor would join threads that are
// gone): it is abandoned, and the child builds its own pool on first use.
void replace_default_pool_in_child() {
  current_worker = {};
  DefaultPool* inherited = default_pool_state.load();
  if (inherited == nullptr) {
    return;
  }
  auto* fresh = new DefaultPool;
  fresh->configured_threads = inherited->configured_threads;
  fresh->abandoned = inherited;
  default_pool_state.store(fresh);
}

DefaultPool& default_pool() {
  // Registered before any state is published, so that no fork can see a state without it.
  [[maybe_unused]] static const int fork_handler =
      pthread_atfork(nullptr, nullptr, &replace_default_pool_in_child);
  DefaultPool* state = default_pool_state.load();
  if (state != nullptr) {
    return *state;
  }
  auto* fresh = new DefaultPool;
  if (!default_pool_state.compare_exchange_strong(state, fresh)) {
    delete fresh;
    return *state;
  }
  return *fresh;
}

}  // namespace

std::shared_ptr<ThreadPool> default_thread_pool() {
  DefaultPool& state = default_pool();
  const std::lock_guard lock(state.mutex);
  if (state.pool == nullptr) {
    const int threads =
        state.configured_threads > 0 ? state.configured_threads : default_thread_count();
    state.pool = std::make_shared<ThreadPool>(threads);
  }
  return state.pool;
}

void configure_default_thread_pool(int threads) {
  if (threads < 0 || threads > kMaxThreads) {
    throw InvalidArgument("the thread pool takes 1 to " + std::to_string(kMaxThreads) +
                          " threads (0: as many as the process may use), not " +
                          std::to_string(threads));
  }
  const int size = threads > 0 ? threads : default_thread_count();
  auto replacement = std::make_shared<ThreadPool>(size);
  DefaultPool& state = default_pool();
  std::shared_ptr<ThreadPool> previous;
  {
    const std::lock_guard lock(state.mutex);
    state.configured_threads = threads;
    previous = std::exchange(state.pool, std::move(replacement));
  }
  // Joined here, outside the lock, unless running work still holds it.
  previous.reset();
}

}  // namespace bowstring
