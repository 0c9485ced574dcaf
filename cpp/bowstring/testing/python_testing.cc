#include "bowstring/testing/python_testing.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>

#include "bowstring/testing/source_tree.h"

namespace bowstring::testing {

struct LineCollector::State {
  std::mutex mutex;
  std::condition_variable added;
  std::vector<std::string> lines;

  bool contains_locked(std::string_view text) const {
    for (const std::string& line : lines) {
      if (line.find(text) != std::string::npos) {
        return true;
      }
    }
    return false;
  }
};

LineCollector::LineCollector() : state_(std::make_shared<State>()) {}

std::function<void(const std::string&)> LineCollector::sink() const {
  return [state = state_](const std::string& line) {
    std::lock_guard lock(state->mutex);
    state->lines.push_back(line);
    state->added.notify_all();
  };
}

std::vector<std::string> LineCollector::lines() const {
  std::lock_guard lock(state_->mutex);
  return state_->lines;
}

bool LineCollector::contains(std::string_view text) const {
  std::lock_guard lock(state_->mutex);
  return state_->contains_locked(text);
}

bool LineCollector::wait_for(std::string_view text, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(state_->mutex);
  return state_->added.wait_for(lock, timeout, [&] { return state_->contains_locked(text); });
}

std::string LineCollector::text() const {
  std::string text;
  for (const std::string& line : lines()) {
    text += line + "\n";
  }
  return text;
}

std::string python_executable() { return BOWSTRING_PYTHON_EXECUTABLE; }

udf::PoolOptions python_pool_options(const LineCollector* output, const LineCollector* log) {
  udf::PoolOptions options;
  options.python_executable = python_executable();
  options.environment["PYTHONPATH"] = source_tree_path("python").string();
  if (output != nullptr) {
    options.output_sink = output->sink();
  }
  if (log != nullptr) {
    options.log_sink = log->sink();
  }
  return options;
}

CancelAfter::CancelAfter(CancellationToken token, std::chrono::milliseconds timeout)
    : thread_([this, token, timeout] {
        std::unique_lock lock(mutex_);
        if (!changed_.wait_for(lock, timeout, [&] { return disarmed_; })) {
          CancellationToken(token).cancel();
        }
      }) {}

CancelAfter::~CancelAfter() {
  {
    std::lock_guard lock(mutex_);
    disarmed_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

int exit_code_in_forked_child(const std::function<int()>& body) {
  const pid_t child = ::fork();
  if (child < 0) {
    ADD_FAILURE() << "fork failed: " << std::strerror(errno);
    return -1;
  }
  if (child == 0) {
    ::alarm(30);
    int code = 125;
    try {
      code = body();
    } catch (...) {
      // The exit code stays the one that says so.
    }
    ::_exit(code);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      ADD_FAILURE() << "waitpid failed: " << std::strerror(errno);
      return -1;
    }
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace bowstring::testing
