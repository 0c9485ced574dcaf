#include "bowstring/util/cancellation.h"

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace bowstring {

struct CancellationToken::State {
  std::atomic<bool> cancelled{false};
  std::mutex mutex;
  std::condition_variable callbacks_done;
  std::map<int64_t, std::function<void()>> callbacks;
  int64_t next_id = 0;
  // The callback being run by cancel(), so remove_callback can wait for it to finish.
  int64_t running_id = -1;
  std::thread::id running_thread;
};

CancellationToken::CancellationToken() : state_(std::make_shared<State>()) {}

void CancellationToken::cancel() {
  std::unique_lock lock(state_->mutex);
  if (state_->cancelled.exchange(true)) {
    return;
  }
  state_->running_thread = std::this_thread::get_id();
  while (!state_->callbacks.empty()) {
    auto node = state_->callbacks.extract(state_->callbacks.begin());
    state_->running_id = node.key();
    lock.unlock();
    node.mapped()();
    lock.lock();
    state_->running_id = -1;
    state_->callbacks_done.notify_all();
  }
}

bool CancellationToken::cancelled() const { return state_->cancelled.load(); }

void CancellationToken::throw_if_cancelled(const char* what) const {
  if (cancelled()) {
    throw Cancelled(what);
  }
}

int64_t CancellationToken::on_cancel(std::function<void()> callback) const {
  std::unique_lock lock(state_->mutex);
  const int64_t id = state_->next_id++;
  if (state_->cancelled.load()) {
    lock.unlock();
    callback();
    return id;
  }
  state_->callbacks.emplace(id, std::move(callback));
  return id;
}

void CancellationToken::remove_callback(int64_t id) const {
  std::unique_lock lock(state_->mutex);
  if (state_->callbacks.erase(id) > 0) {
    return;
  }
  // Already taken by cancel(): wait until it has run, unless this is the cancelling thread
  // itself (a callback cannot wait for its own completion).
  if (state_->running_thread == std::this_thread::get_id()) {
    return;
  }
  state_->callbacks_done.wait(lock, [&] { return state_->running_id != id; });
}

}  // namespace bowstring
