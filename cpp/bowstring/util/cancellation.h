#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "bowstring/util/error.h"

namespace bowstring {

/// The operation was cancelled by its caller (`CancellationToken::cancel`).
class Cancelled : public Error {
 public:
  using Error::Error;
};

/// A cancellation flag shared by copies: any thread may cancel, the running operation polls
/// `cancelled()` or registers callbacks that interrupt blocking work (killing a worker process,
/// waking a wait). Cancelling twice does nothing more.
class CancellationToken {
 public:
  CancellationToken();

  void cancel();
  bool cancelled() const;
  /// Throws `Cancelled` with `what` ("the call was cancelled") when cancelled.
  void throw_if_cancelled(const char* what = "the operation was cancelled") const;

  /// Runs `callback` on the cancelling thread when `cancel()` is called, or at once on this
  /// thread when already cancelled. Returns an id for `remove_callback`. Callbacks must not
  /// throw and must not register or remove callbacks.
  int64_t on_cancel(std::function<void()> callback) const;
  /// Removes a callback; once this returns the callback is not running and will not run.
  void remove_callback(int64_t id) const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace bowstring
