#include "bowstring/udf/worker_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <list>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "bowstring/udf/errors.h"
#include "bowstring/util/error.h"

extern char** environ;

namespace bowstring::udf {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr int kProtocolVersion = 1;
// A connection must send its HELLO within this long.
constexpr auto kHelloTimeout = std::chrono::seconds(10);
// Larger HELLO frames are refused before their payload is read.
constexpr int64_t kMaxHelloBytes = int64_t{64} * 1024;
// Connections waiting for their HELLO at once; more are closed at once.
constexpr size_t kMaxPendingHandshakes = 64;
// Output lines kept per worker (and for the fork server) to explain failures.
constexpr size_t kRecentLines = 20;
// A longer line without a newline is forwarded in pieces of this size.
constexpr size_t kMaxLineBytes = size_t{64} * 1024;
// After its control socket closes the fork server waits a second for workers to exit, then
// kills them and exits; this is how long shutdown waits before killing it.
constexpr auto kForkServerGrace = std::chrono::seconds(5);
// How long a failure report waits for the fork server's last output.
constexpr auto kOutputWait = std::chrono::seconds(2);

std::string system_message(int error) { return std::generic_category().message(error); }

[[noreturn]] void throw_system_error(const std::string& what, int error) {
  throw IoError(what + ": " + system_message(error));
}

std::string signal_name(int signal) {
  const char* abbreviation = sigabbrev_np(signal);
  return abbreviation != nullptr ? std::string("SIG") + abbreviation : "unknown signal";
}

std::string killed_by(int signal) {
  return "was killed by signal " + std::to_string(signal) + " (" + signal_name(signal) + ")";
}

// How a process ended, from its wait status.
std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status)) {
    return killed_by(WTERMSIG(status));
  }
  return "exited with code " + std::to_string(WEXITSTATUS(status));
}

std::string format_duration(milliseconds duration) {
  if (duration.count() % 1000 == 0) {
    return std::to_string(duration.count() / 1000) + " s";
  }
  return std::to_string(duration.count()) + " ms";
}

// "3.11" from "3.11.4" (or "3.11").
std::string major_minor(const std::string& version) {
  const size_t first = version.find('.');
  if (first == std::string::npos) {
    return version;
  }
  const size_t second = version.find('.', first + 1);
  return second == std::string::npos ? version : version.substr(0, second);
}

bool constant_time_equal(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) {
    return false;
  }
  unsigned char difference = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    difference |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return difference == 0;
}

std::string random_secret() {
  uint8_t bytes[32];
  size_t filled = 0;
  while (filled < sizeof(bytes)) {
    const ssize_t got = ::getrandom(bytes + filled, sizeof(bytes) - filled, 0);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw_system_error("cannot draw the worker pool's secret from getrandom", errno);
    }
    filled += static_cast<size_t>(got);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t byte : bytes) {
    hex += kHex[byte >> 4];
    hex += kHex[byte & 15];
  }
  return hex;
}

// Descriptors handed to the fork server are first moved above the ones it receives them as
// (0 to 3), so that one dup2 cannot overwrite another's source and none is already in place
// (dup2 onto itself would keep close-on-exec set).
UniqueFd above_standard_fds(UniqueFd fd) {
  if (fd.get() >= 10) {
    return fd;
  }
  const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, 10);
  if (moved < 0) {
    throw_system_error("cannot duplicate a descriptor for the fork server", errno);
  }
  return UniqueFd(moved);
}

void wake(int eventfd) {
  const uint64_t one = 1;
  // A full counter already wakes the reader, so a failed write loses nothing.
  [[maybe_unused]] const ssize_t written = ::write(eventfd, &one, sizeof(one));
}

void drain_wake(int eventfd) {
  uint64_t count;
  [[maybe_unused]] const ssize_t got = ::read(eventfd, &count, sizeof(count));
}

UniqueFd make_eventfd() {
  const int fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (fd < 0) {
    throw_system_error("cannot create an eventfd for the worker pool", errno);
  }
  return UniqueFd(fd);
}

// Readable (data or end of file) or broken: what an idle worker's connection must never be.
bool readable_now(int fd) {
  pollfd entry{fd, POLLIN, 0};
  while (true) {
    const int ready = ::poll(&entry, 1, 0);
    if (ready >= 0) {
      return ready > 0;
    }
    if (errno != EINTR) {
      return true;
    }
  }
}

int poll_timeout(std::optional<Clock::time_point> deadline) {
  if (!deadline) {
    return -1;
  }
  const auto left = std::chrono::ceil<milliseconds>(*deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<int64_t>(left, 0, 60'000));
}

void write_stderr(const std::string& line) {
  const std::string text = line + "\n";
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t result = ::write(STDERR_FILENO, text.data() + written, text.size() - written);
    if (result < 0 && errno == EINTR) {
      continue;
    }
    if (result <= 0) {
      return;
    }
    written += static_cast<size_t>(result);
  }
}

void push_line(std::deque<std::string>& lines, std::string line) {
  lines.push_back(std::move(line));
  if (lines.size() > kRecentLines) {
    lines.pop_front();
  }
}

std::string format_output(const std::deque<std::string>& lines) {
  if (lines.empty()) {
    return {};
  }
  std::string text = "\nIts last output:";
  for (const std::string& line : lines) {
    text += "\n  " + line;
  }
  return text;
}

// Reads a field of a JSON object, failing with a message naming the frame and the field.
template <typename T>
T json_field(const nlohmann::json& object, const char* field, const std::string& frame) {
  const auto found = object.find(field);
  if (found == object.end()) {
    throw IoError(frame + " has no \"" + field + "\"");
  }
  try {
    return found->get<T>();
  } catch (const nlohmann::json::exception&) {
    throw IoError(frame + " has a \"" + field + "\" of the wrong type: " + excerpt(found->dump()));
  }
}

nlohmann::json parse_json_object(std::string_view text, const std::string& frame) {
  nlohmann::json object = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!object.is_object()) {
    throw IoError(frame + " is not a JSON object");
  }
  return object;
}

enum class WorkerState { kStarting, kIdle, kBusy, kClosed };

class PoolWorker;

// What the pool, its threads and its workers share. Everything mutable is guarded by `mutex`;
// `changed` is notified whenever any of it changes. The sinks are called without the mutex.
struct PoolState {
  PoolOptions options;
  std::mutex mutex;
  std::condition_variable changed;

  bool shutting_down = false;
  bool fork_server_ready = false;
  // The control connection ended; `fork_server_failure` says why.
  bool fork_server_gone = false;
  std::string fork_server_failure;
  pid_t fork_server_pid = -1;
  std::deque<std::string> fork_server_output;
  bool fork_server_output_eof = false;

  // How many callers of each requester wait in `acquire` for a worker to be released.
  std::map<const void*, int> waiting;
  // Every worker from its SPAWN until it is closed and its exit reported.
  std::map<int, std::shared_ptr<PoolWorker>> workers;
  // Most recently released last.
  std::vector<std::shared_ptr<PoolWorker>> idle;
  int next_worker_id = 1;
  PoolStats stats;

  void log(const std::string& line) const { options.log_sink(line); }
};

// Log lines gathered under the mutex and written once it is released.
class DeferredLog {
 public:
  explicit DeferredLog(const PoolState& state) : state_(state) {}
  ~DeferredLog() {
    for (const std::string& line : lines_) {
      state_.log(line);
    }
  }
  DeferredLog(const DeferredLog&) = delete;
  DeferredLog& operator=(const DeferredLog&) = delete;
  void add(std::string line) { lines_.push_back(std::move(line)); }

 private:
  const PoolState& state_;
  std::vector<std::string> lines_;
};

class PoolWorker final : public Worker {
 public:
  PoolWorker(std::shared_ptr<PoolState> pool, int id) : pool_(std::move(pool)), id_(id) {}

  int id() const override { return id_; }
  pid_t pid() const override { return pid_.load(); }
  FrameSocket& socket() override { return *socket_; }

  void kill(const std::string& reason) override {
    std::lock_guard lock(pool_->mutex);
    if (kill_reason.empty()) {
      kill_reason = reason;
    }
    signal_locked();
  }

  std::string describe_failure(milliseconds wait) override {
    std::unique_lock lock(pool_->mutex);
    pool_->changed.wait_for(lock, wait,
                            [&] { return (exited || pool_->fork_server_gone) && output_eof; });
    std::string text = name();
    if (exited) {
      text += signal ? " " + killed_by(*signal) : " exited with code " + std::to_string(exit_code);
    } else if (pid_ == 0) {
      text += " was not started by the fork server";
    } else if (pool_->fork_server_gone) {
      text += " ended unreported: the fork server, which reports how workers end, is gone";
    } else {
      text += " is still running";
    }
    if (!kill_reason.empty()) {
      text += "; the engine killed it: " + kill_reason;
    }
    return text + format_output(output);
  }

  std::vector<std::string> recent_output() const override {
    std::lock_guard lock(pool_->mutex);
    return {output.begin(), output.end()};
  }

  // "Python worker 3 (pid 4242)".
  std::string name() const {
    const pid_t pid = pid_.load();
    return "Python worker " + std::to_string(id_) +
           (pid > 0 ? " (pid " + std::to_string(pid) + ")" : "");
  }

  // The pid is valid until the fork server reports the exit (it reaps the worker then), so the
  // signal cannot reach another process.
  void signal_locked() {
    if (!exited && pid_ > 0) {
      ::kill(pid_, SIGKILL);
    }
  }

  // The rest is guarded by the pool's mutex.
  std::atomic<pid_t> pid_{0};
  WorkerState state = WorkerState::kStarting;
  // The acquirer that started it gave up waiting; it becomes idle once connected, and is killed
  // (by the monitor thread) if it has not connected by `start_deadline`.
  bool abandoned = false;
  Clock::time_point start_deadline;
  // Set by the handshake; a lease holder uses it without the mutex.
  std::unique_ptr<FrameSocket> socket_;
  bool exited = false;
  int exit_code = 0;
  std::optional<int> signal;
  std::deque<std::string> output;
  bool output_eof = false;
  std::string kill_reason;
  Clock::time_point idle_since;

 private:
  std::shared_ptr<PoolState> pool_;
  const int id_;
};

// A pipe whose lines are forwarded to the output sink.
struct OutputSource {
  UniqueFd fd;
  std::shared_ptr<PoolWorker> worker;  // null for the fork server
  std::string prefix;
  std::string partial;
  bool ended = false;
};

// A connection waiting for its HELLO, served by its own thread. The accept thread shuts the
// socket down at the deadline, unless the handshake thread has finished reading by then.
struct Handshake {
  int fd = -1;
  Clock::time_point deadline;
  std::mutex mutex;
  bool finished_reading = false;  // guarded by mutex
  bool timed_out = false;         // guarded by mutex
  std::atomic<bool> done{false};
  std::thread thread;
};

// A refused connection; the message is the reason logged.
class Rejected : public Error {
 public:
  using Error::Error;
};

// The fork server is not one the pool can use (its Python version); the message says why.
class ForkServerRefused : public Error {
 public:
  using Error::Error;
};

}  // namespace

class WorkerPool::Impl {
 public:
  explicit Impl(PoolOptions options);
  ~Impl() { shutdown(); }

  std::shared_ptr<Worker> acquire(const CancellationToken& cancel, const void* requester);
  bool others_waiting(const void* requester) const;
  void release(const std::shared_ptr<Worker>& worker, bool discard);
  void shutdown();

  PoolStats stats() const;
  const PoolOptions& options() const { return state_->options; }
  const std::string& socket_path() const { return socket_path_; }
  const std::string& secret() const { return secret_; }
  pid_t fork_server_pid() const;
  std::vector<pid_t> worker_pids() const;

 private:
  void create_socket();
  void spawn_fork_server();
  void wait_until_ready();
  std::shared_ptr<PoolWorker> start_worker(std::unique_lock<std::mutex>& lock,
                                           const CancellationToken& cancel);
  void send_spawn(const std::shared_ptr<PoolWorker>& worker);
  std::string fork_server_failure_text(std::unique_lock<std::mutex>& lock);

  // Guarded by the state's mutex.
  void close_locked(const std::shared_ptr<PoolWorker>& worker);
  void forget_if_done_locked(const std::shared_ptr<PoolWorker>& worker);
  void add_output_locked(UniqueFd fd, std::shared_ptr<PoolWorker> worker);

  void accept_loop();
  void handshake(Handshake& handshake, UniqueFd connection);
  std::shared_ptr<PoolWorker> authenticate(FrameSocket& connection, const Frame& hello,
                                           Clock::time_point deadline);
  void control_loop();
  void handle_control_frame(Frame frame, DeferredLog& log);
  void monitor_loop();
  void read_output(OutputSource& source, std::vector<std::string>& lines, bool& eof);
  void reap_fork_server(milliseconds grace);

  std::shared_ptr<PoolState> state_;
  std::string directory_;
  std::string socket_path_;
  std::string secret_;
  std::string command_;
  UniqueFd listener_;
  std::unique_ptr<FrameSocket> control_;
  // The child's ends until the fork server is spawned (by the control thread).
  UniqueFd control_child_end_;
  UniqueFd output_write_end_;
  std::mutex control_write_mutex_;
  UniqueFd accept_wake_;
  UniqueFd monitor_wake_;
  std::thread accept_thread_;
  std::thread control_thread_;
  std::thread monitor_thread_;
  std::list<Handshake> handshakes_;  // accept thread only

  // Guarded by the state's mutex.
  std::vector<OutputSource> new_output_;
  bool monitor_stopping_ = false;

  std::mutex reap_mutex_;
  bool fork_server_reaped_ = false;  // guarded by reap_mutex_
  int fork_server_status_ = 0;       // guarded by reap_mutex_

  std::mutex shutdown_mutex_;
  bool shut_down_ = false;  // guarded by shutdown_mutex_

  std::atomic<bool> accept_stopping_{false};
  // Set by the control thread before it reports the fork server gone.
  bool fork_server_spawn_failed_ = false;  // guarded by the state's mutex
};

WorkerPool::Impl::Impl(PoolOptions options) : state_(std::make_shared<PoolState>()) {
  if (options.max_workers < 1) {
    throw InvalidArgument("a worker pool needs max_workers >= 1, not " +
                          std::to_string(options.max_workers));
  }
  if (options.python_executable.empty()) {
    throw InvalidArgument("a worker pool needs a python_executable");
  }
  if (options.start_timeout.count() <= 0 || options.idle_timeout.count() <= 0) {
    throw InvalidArgument("a worker pool's start_timeout and idle_timeout must be positive");
  }
  if (options.memory_limit < 0) {
    throw InvalidArgument("a worker pool's memory_limit must not be negative, not " +
                          std::to_string(options.memory_limit));
  }
  if (!options.output_sink) {
    options.output_sink = write_stderr;
  }
  if (!options.log_sink) {
    options.log_sink = [](const std::string& line) {
      write_stderr("bowstring worker pool: " + line);
    };
  }
  command_ = options.python_executable + " -m bowstring.worker --fork-server";
  state_->options = std::move(options);
  try {
    secret_ = random_secret();
    create_socket();
    accept_wake_ = make_eventfd();
    monitor_wake_ = make_eventfd();

    int control[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, control) != 0) {
      throw_system_error("cannot create the fork server's control socket", errno);
    }
    // Both ends are owned before anything else can throw.
    UniqueFd control_engine_end(control[0]);
    UniqueFd control_child_end(control[1]);
    control_ =
        std::make_unique<FrameSocket>(std::move(control_engine_end), "the Python fork server");
    control_child_end_ = above_standard_fds(std::move(control_child_end));
    int output[2];
    if (::pipe2(output, O_CLOEXEC) != 0) {
      throw_system_error("cannot create the fork server's output pipe", errno);
    }
    UniqueFd output_read_end(output[0]);
    UniqueFd output_write_end(output[1]);
    output_write_end_ = above_standard_fds(std::move(output_write_end));
    {
      std::lock_guard lock(state_->mutex);
      add_output_locked(std::move(output_read_end), nullptr);
    }

    monitor_thread_ = std::thread([this] { monitor_loop(); });
    control_thread_ = std::thread([this] { control_loop(); });
    accept_thread_ = std::thread([this] { accept_loop(); });
    wait_until_ready();
  } catch (...) {
    shutdown();
    throw;
  }
}

void WorkerPool::Impl::create_socket() {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string base = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  // The socket's path must fit sockaddr_un; a long TMPDIR falls back to /tmp.
  if (base.size() + 32 > sizeof(sockaddr_un::sun_path)) {
    base = "/tmp";
  }
  std::string pattern = base + "/bowstring-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw_system_error("cannot create a private directory for the worker pool in " + base, errno);
  }
  directory_ = pattern;
  socket_path_ = directory_ + "/pool.sock";

  listener_.reset(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!listener_) {
    throw_system_error("cannot create the worker pool's socket", errno);
  }
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, socket_path_.c_str(), socket_path_.size() + 1);
  if (::bind(listener_.get(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    throw_system_error("cannot bind the worker pool's socket " + socket_path_, errno);
  }
  if (::chmod(socket_path_.c_str(), 0600) != 0) {
    throw_system_error("cannot restrict the worker pool's socket " + socket_path_, errno);
  }
  if (::listen(listener_.get(), 128) != 0) {
    throw_system_error("cannot listen on the worker pool's socket " + socket_path_, errno);
  }
}

// Runs on the control thread: the kernel sends the fork server's death signal
// (PR_SET_PDEATHSIG) when the thread that started it ends, so that thread must live as long
// as the pool rather than be whichever thread built the pool.
void WorkerPool::Impl::spawn_fork_server() {
  std::map<std::string, std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const size_t equals = text.find('=');
    if (equals == std::string_view::npos) {
      continue;
    }
    environment[std::string(text.substr(0, equals))] = std::string(text.substr(equals + 1));
  }
  for (const auto& [name, value] : state_->options.environment) {
    environment[name] = value;
  }
  std::vector<std::string> entries;
  entries.reserve(environment.size());
  for (const auto& [name, value] : environment) {
    std::string& entry = entries.emplace_back(name);
    entry += '=';
    entry += value;
  }
  std::vector<char*> envp;
  envp.reserve(entries.size() + 1);
  for (std::string& entry : entries) {
    envp.push_back(entry.data());
  }
  envp.push_back(nullptr);

  std::string executable = state_->options.python_executable;
  std::string module_flag = "-m";
  std::string module = "bowstring.worker";
  std::string mode = "--fork-server";
  char* argv[] = {executable.data(), module_flag.data(), module.data(), mode.data(), nullptr};

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, control_child_end_.get(), 3);
  posix_spawn_file_actions_adddup2(&actions, output_write_end_.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, output_write_end_.get(), STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t no_signals;
  sigemptyset(&no_signals);
  posix_spawnattr_setsigmask(&attributes, &no_signals);
  sigset_t all_signals;
  sigfillset(&all_signals);
  posix_spawnattr_setsigdefault(&attributes, &all_signals);
  // Its own process group: a terminal's Ctrl-C is for the engine, which then stops the pool.
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  pid_t pid = -1;
  const int error =
      ::posix_spawnp(&pid, executable.c_str(), &actions, &attributes, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  control_child_end_.reset();
  output_write_end_.reset();
  if (error != 0) {
    throw IoError(executable + ": " + system_message(error));
  }
  std::lock_guard lock(state_->mutex);
  state_->fork_server_pid = pid;
}

std::string WorkerPool::Impl::fork_server_failure_text(std::unique_lock<std::mutex>& lock) {
  state_->changed.wait_for(lock, kOutputWait, [&] { return state_->fork_server_output_eof; });
  return state_->fork_server_failure + format_output(state_->fork_server_output);
}

void WorkerPool::Impl::wait_until_ready() {
  const auto& options = state_->options;
  std::unique_lock lock(state_->mutex);
  state_->changed.wait_for(lock, options.start_timeout,
                           [&] { return state_->fork_server_ready || state_->fork_server_gone; });
  if (state_->fork_server_ready && !state_->fork_server_gone) {
    return;
  }
  if (fork_server_spawn_failed_) {
    throw WorkerFailure(state_->fork_server_failure);
  }
  std::string failure;
  if (state_->fork_server_gone) {
    failure = state_->fork_server_failure + " before it was ready";
  } else {
    const pid_t pid = state_->fork_server_pid;
    lock.unlock();
    reap_fork_server(milliseconds(0));
    lock.lock();
    failure = "the Python fork server (pid " + std::to_string(pid) +
              ") did not become ready within " + format_duration(options.start_timeout) +
              " and was killed";
  }
  state_->changed.wait_for(lock, kOutputWait, [&] { return state_->fork_server_output_eof; });
  throw WorkerFailure(failure + " (" + command_ + ")" + format_output(state_->fork_server_output));
}

void WorkerPool::Impl::reap_fork_server(milliseconds grace) {
  std::lock_guard reap_lock(reap_mutex_);
  pid_t pid;
  {
    std::lock_guard lock(state_->mutex);
    pid = state_->fork_server_pid;
  }
  if (fork_server_reaped_ || pid <= 0) {
    return;
  }
  const auto deadline = Clock::now() + grace;
  while (true) {
    int status = 0;
    const pid_t reaped = ::waitpid(pid, &status, WNOHANG);
    if (reaped == pid || (reaped < 0 && errno != EINTR)) {
      fork_server_reaped_ = true;
      fork_server_status_ = status;
      return;
    }
    if (Clock::now() >= deadline) {
      break;
    }
    std::this_thread::sleep_for(milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  {
    // Its workers outlive it unless killed too; their pids stay theirs until reaped.
    std::lock_guard lock(state_->mutex);
    for (auto& [id, worker] : state_->workers) {
      worker->signal_locked();
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  fork_server_reaped_ = true;
  fork_server_status_ = status;
}

void WorkerPool::Impl::add_output_locked(UniqueFd fd, std::shared_ptr<PoolWorker> worker) {
  std::string prefix =
      worker ? "[worker " + std::to_string(worker->id()) + "] " : std::string("[fork server] ");
  new_output_.push_back({std::move(fd), std::move(worker), std::move(prefix), {}, false});
  wake(monitor_wake_.get());
}

void WorkerPool::Impl::close_locked(const std::shared_ptr<PoolWorker>& worker) {
  if (worker->state == WorkerState::kClosed) {
    return;
  }
  if (worker->state == WorkerState::kIdle) {
    auto& idle = state_->idle;
    idle.erase(std::remove(idle.begin(), idle.end(), worker), idle.end());
  }
  worker->state = WorkerState::kClosed;
  // Shut down, not closed: a lease holder may still be using the descriptor.
  if (worker->socket_) {
    worker->socket_->shutdown();
  }
  forget_if_done_locked(worker);
  state_->changed.notify_all();
}

void WorkerPool::Impl::forget_if_done_locked(const std::shared_ptr<PoolWorker>& worker) {
  if (worker->state == WorkerState::kClosed && (worker->exited || state_->fork_server_gone)) {
    state_->workers.erase(worker->id());
  }
}

std::shared_ptr<Worker> WorkerPool::Impl::acquire(const CancellationToken& cancel,
                                                  const void* requester) {
  const std::shared_ptr<PoolState> state = state_;
  const int64_t callback = cancel.on_cancel([state] {
    std::lock_guard lock(state->mutex);
    state->changed.notify_all();
  });
  struct RemoveCallback {
    const CancellationToken& cancel;
    int64_t id;
    ~RemoveCallback() { cancel.remove_callback(id); }
  } remove_callback{cancel, callback};
  DeferredLog log(*state_);
  std::unique_lock lock(state_->mutex);
  while (true) {
    if (state_->shutting_down) {
      throw InvalidArgument("the Python worker pool is shut down");
    }
    cancel.throw_if_cancelled("waiting for a Python worker was cancelled");
    while (!state_->idle.empty()) {
      std::shared_ptr<PoolWorker> worker = state_->idle.back();
      if (readable_now(worker->socket_->fd())) {
        log.add("worker " + std::to_string(worker->id()) + " (pid " +
                std::to_string(worker->pid()) + ") closed its connection while idle; replaced");
        ++state_->stats.workers_failed;
        close_locked(worker);
        continue;
      }
      state_->idle.pop_back();
      worker->state = WorkerState::kBusy;
      wake(monitor_wake_.get());
      return worker;
    }
    int64_t alive = 0;
    for (const auto& [id, worker] : state_->workers) {
      if (worker->state != WorkerState::kClosed) {
        ++alive;
      }
    }
    if (alive < state_->options.max_workers) {
      return start_worker(lock, cancel);
    }
    ++state_->waiting[requester];
    state_->changed.wait(lock);
    if (--state_->waiting[requester] == 0) {
      state_->waiting.erase(requester);
    }
  }
}

bool WorkerPool::Impl::others_waiting(const void* requester) const {
  std::lock_guard lock(state_->mutex);
  return std::any_of(state_->waiting.begin(), state_->waiting.end(),
                     [&](const auto& entry) { return entry.first != requester; });
}

std::shared_ptr<PoolWorker> WorkerPool::Impl::start_worker(std::unique_lock<std::mutex>& lock,
                                                           const CancellationToken& cancel) {
  if (state_->fork_server_gone) {
    throw WorkerFailure("cannot start a Python worker: " + fork_server_failure_text(lock));
  }
  const int id = state_->next_worker_id++;
  auto worker = std::make_shared<PoolWorker>(state_, id);
  worker->start_deadline = Clock::now() + state_->options.start_timeout;
  state_->workers.emplace(id, worker);
  lock.unlock();
  try {
    send_spawn(worker);
  } catch (const Error& error) {
    lock.lock();
    ++state_->stats.workers_failed;
    close_locked(worker);
    throw WorkerFailure("cannot start Python worker " + std::to_string(id) + ": " + error.what());
  }
  lock.lock();

  const milliseconds timeout = state_->options.start_timeout;
  state_->changed.wait_for(lock, timeout, [&] {
    return worker->socket_ || worker->exited || worker->state == WorkerState::kClosed ||
           state_->fork_server_gone || state_->shutting_down || cancel.cancelled();
  });
  if (worker->socket_ && worker->state == WorkerState::kStarting) {
    worker->state = WorkerState::kBusy;
    return worker;
  }
  if (state_->shutting_down) {
    throw InvalidArgument("the Python worker pool is shut down");
  }
  if (cancel.cancelled() && worker->state == WorkerState::kStarting) {
    worker->abandoned = true;
    wake(monitor_wake_.get());
    throw Cancelled("waiting for a Python worker was cancelled");
  }
  ++state_->stats.workers_failed;
  if (!worker->exited && !state_->fork_server_gone) {
    if (worker->kill_reason.empty()) {
      worker->kill_reason = "it did not connect to the pool within " + format_duration(timeout);
    }
    worker->signal_locked();
  }
  close_locked(worker);
  if (state_->fork_server_gone && !worker->exited) {
    throw WorkerFailure("cannot start a Python worker: " + fork_server_failure_text(lock));
  }
  lock.unlock();
  throw WorkerFailure("cannot start a Python worker: " +
                      worker->describe_failure(std::chrono::seconds(5)));
}

void WorkerPool::Impl::send_spawn(const std::shared_ptr<PoolWorker>& worker) {
  int output[2];
  if (::pipe2(output, O_CLOEXEC) != 0) {
    throw_system_error("cannot create an output pipe for a worker", errno);
  }
  UniqueFd read_end(output[0]);
  UniqueFd write_end(output[1]);
  const nlohmann::json spawn = {{"worker_id", worker->id()},
                                {"socket_path", socket_path_},
                                {"secret", secret_},
                                {"memory_limit", state_->options.memory_limit}};
  {
    std::lock_guard lock(state_->mutex);
    add_output_locked(std::move(read_end), worker);
  }
  std::lock_guard write_lock(control_write_mutex_);
  control_->write(FrameType::kSpawn, spawn.dump(), write_end.get());
}

void WorkerPool::Impl::release(const std::shared_ptr<Worker>& leased, bool discard) {
  auto worker = std::static_pointer_cast<PoolWorker>(leased);
  DeferredLog log(*state_);
  std::lock_guard lock(state_->mutex);
  if (worker->state != WorkerState::kBusy) {
    return;
  }
  if (discard) {
    worker->signal_locked();
    ++state_->stats.workers_failed;
    close_locked(worker);
  } else if (state_->shutting_down || !state_->options.reuse_workers) {
    close_locked(worker);
  } else if (readable_now(worker->socket_->fd())) {
    // Unread frames or a closed connection: its state is unknown, so it cannot serve again.
    log.add(worker->name() + " was returned with unread data or a closed connection; closed");
    worker->signal_locked();
    ++state_->stats.workers_failed;
    close_locked(worker);
  } else {
    worker->state = WorkerState::kIdle;
    worker->idle_since = Clock::now();
    state_->idle.push_back(worker);
    wake(monitor_wake_.get());
  }
  state_->changed.notify_all();
}

void WorkerPool::Impl::accept_loop() {
  const auto reap_finished = [&] {
    for (auto it = handshakes_.begin(); it != handshakes_.end();) {
      if (it->done.load()) {
        it->thread.join();
        it = handshakes_.erase(it);
      } else {
        ++it;
      }
    }
  };
  while (true) {
    reap_finished();
    std::optional<Clock::time_point> next_deadline;
    for (Handshake& handshake : handshakes_) {
      std::lock_guard lock(handshake.mutex);
      if (handshake.finished_reading || handshake.timed_out) {
        continue;
      }
      if (!next_deadline || handshake.deadline < *next_deadline) {
        next_deadline = handshake.deadline;
      }
    }
    pollfd entries[2] = {{accept_wake_.get(), POLLIN, 0}, {listener_.get(), POLLIN, 0}};
    if (::poll(entries, 2, poll_timeout(next_deadline)) < 0 && errno != EINTR) {
      state_->log("cannot wait for connections: " + system_message(errno));
      break;
    }
    if (entries[0].revents != 0) {
      drain_wake(accept_wake_.get());
      if (accept_stopping_) {
        break;
      }
    }
    if (entries[1].revents != 0) {
      UniqueFd connection(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
      if (!connection) {
        const int error = errno;
        if (error != EAGAIN && error != EINTR && error != ECONNABORTED) {
          state_->log("cannot accept a connection: " + system_message(error));
          // Out of descriptors, say: retrying at once would spin.
          std::this_thread::sleep_for(milliseconds(100));
        }
      } else if (handshakes_.size() >= kMaxPendingHandshakes) {
        {
          std::lock_guard lock(state_->mutex);
          ++state_->stats.connections_rejected;
        }
        state_->log("rejected connection: " + std::to_string(kMaxPendingHandshakes) +
                    " connections are already waiting for their HELLO");
      } else {
        Handshake& handshake = handshakes_.emplace_back();
        handshake.fd = connection.get();
        handshake.deadline = Clock::now() + kHelloTimeout;
        handshake.thread = std::thread([this, &handshake, fd = std::move(connection)]() mutable {
          this->handshake(handshake, std::move(fd));
        });
      }
    }
    const auto now = Clock::now();
    for (Handshake& handshake : handshakes_) {
      std::lock_guard lock(handshake.mutex);
      if (!handshake.finished_reading && !handshake.timed_out && handshake.deadline <= now) {
        handshake.timed_out = true;
        ::shutdown(handshake.fd, SHUT_RDWR);
      }
    }
  }
  // Stopping: cut every handshake short.
  for (Handshake& handshake : handshakes_) {
    std::lock_guard lock(handshake.mutex);
    if (!handshake.finished_reading) {
      ::shutdown(handshake.fd, SHUT_RDWR);
    }
  }
  for (Handshake& handshake : handshakes_) {
    handshake.thread.join();
  }
  handshakes_.clear();
}

void WorkerPool::Impl::handshake(Handshake& handshake, UniqueFd fd) {
  FrameSocket connection(std::move(fd), "the peer");
  std::string rejection;
  try {
    // Bounds what an unauthenticated peer can make the pool allocate.
    BudgetedAllocator budget(default_allocator(), padded_size(kMaxHelloBytes), "HELLO limit");
    std::optional<Frame> hello;
    std::string read_error;
    try {
      hello = connection.read(&budget);
    } catch (const OutOfMemory&) {
      read_error = "its first frame is over " + std::to_string(kMaxHelloBytes) + " bytes";
    } catch (const IoError& error) {
      read_error = error.what();
    }
    {
      std::lock_guard lock(handshake.mutex);
      handshake.finished_reading = true;
      if (handshake.timed_out) {
        read_error = "no HELLO within " +
                     format_duration(std::chrono::duration_cast<milliseconds>(kHelloTimeout)) +
                     " of connecting";
      }
    }
    if (!read_error.empty()) {
      throw Rejected(read_error);
    }
    authenticate(connection, *hello, handshake.deadline);
  } catch (const std::exception& error) {
    rejection = error.what();
  }
  if (!rejection.empty()) {
    {
      std::lock_guard lock(state_->mutex);
      ++state_->stats.connections_rejected;
    }
    state_->log("rejected connection: " + rejection);
  }
  handshake.done = true;
  wake(accept_wake_.get());
}

std::shared_ptr<PoolWorker> WorkerPool::Impl::authenticate(FrameSocket& connection,
                                                           const Frame& hello,
                                                           Clock::time_point deadline) {
  if (hello.type != FrameType::kHello) {
    throw Rejected("its first frame is " + frame_type_name(hello.type) + ", not HELLO");
  }
  nlohmann::json fields;
  try {
    fields = parse_json_object(hello.text(), "its HELLO");
    if (!constant_time_equal(json_field<std::string>(fields, "secret", "its HELLO"), secret_)) {
      throw Rejected("wrong secret");
    }
  } catch (const IoError& error) {
    throw Rejected(error.what());
  }
  // Authenticated: what follows may name the worker.
  const auto protocol = json_field<int64_t>(fields, "protocol_version", "its HELLO");
  if (protocol != kProtocolVersion) {
    throw Rejected("protocol version " + std::to_string(protocol) + ", expected " +
                   std::to_string(kProtocolVersion));
  }
  const auto python = json_field<std::string>(fields, "python_version", "its HELLO");
  const std::string& expected = state_->options.expected_python_version;
  if (!expected.empty() && major_minor(python) != expected) {
    throw Rejected("the worker runs Python " + python + ", but the pool expects Python " +
                   expected);
  }
  const auto id = json_field<int64_t>(fields, "worker_id", "its HELLO");
  const auto pid = json_field<int64_t>(fields, "pid", "its HELLO");
  const std::string who = "worker " + std::to_string(id);

  std::shared_ptr<PoolWorker> worker;
  {
    std::unique_lock lock(state_->mutex);
    const auto found = state_->workers.find(static_cast<int>(id));
    if (found == state_->workers.end() || found->first != id) {
      throw Rejected("HELLO from " + who + ", which the pool did not spawn");
    }
    worker = found->second;
    if (worker->state != WorkerState::kStarting || worker->socket_) {
      throw Rejected("HELLO from " + who + ", which is not waiting to connect");
    }
    // The fork server's SPAWNED report may still be on its way.
    state_->changed.wait_until(lock, deadline, [&] {
      return worker->pid() != 0 || worker->state != WorkerState::kStarting ||
             state_->fork_server_gone || state_->shutting_down;
    });
    if (worker->pid() == 0) {
      throw Rejected("HELLO from " + who + ", which the fork server did not report starting");
    }
    if (worker->pid() != pid) {
      throw Rejected("HELLO from " + who + " with pid " + std::to_string(pid) +
                     ", but the fork server started it as pid " + std::to_string(worker->pid()));
    }
  }
  try {
    connection.write(FrameType::kWelcome, "{}");
  } catch (const IoError& error) {
    throw Rejected(error.what());
  }
  std::lock_guard lock(state_->mutex);
  if (worker->state != WorkerState::kStarting) {
    throw Rejected("HELLO from " + who + ", which the pool gave up waiting for");
  }
  connection.set_peer(worker->name());
  worker->socket_ = std::make_unique<FrameSocket>(std::move(connection));
  ++state_->stats.workers_started;
  if (worker->abandoned) {
    worker->state = WorkerState::kIdle;
    worker->idle_since = Clock::now();
    state_->idle.push_back(worker);
    wake(monitor_wake_.get());
  }
  state_->changed.notify_all();
  return worker;
}

void WorkerPool::Impl::control_loop() {
  std::string failure;
  try {
    spawn_fork_server();
  } catch (const Error& error) {
    std::lock_guard lock(state_->mutex);
    fork_server_spawn_failed_ = true;
    state_->fork_server_gone = true;
    state_->fork_server_failure =
        "cannot start the Python fork server (" + command_ + "): " + error.what();
    state_->changed.notify_all();
    return;
  }
  enum class Ending { kClosed, kRefused, kBrokeProtocol } ending = Ending::kClosed;
  try {
    while (true) {
      DeferredLog log(*state_);
      handle_control_frame(control_->read(), log);
    }
  } catch (const ForkServerRefused& error) {
    failure = error.what();
    ending = Ending::kRefused;
  } catch (const std::exception& error) {
    failure = error.what();
    if (failure != control_->peer() + " closed the connection") {
      ending = Ending::kBrokeProtocol;
    }
  }

  bool stopping;
  pid_t pid;
  {
    std::lock_guard lock(state_->mutex);
    stopping = state_->shutting_down;
    pid = state_->fork_server_pid;
  }
  std::string description = "the Python fork server (pid " + std::to_string(pid) + ") ";
  if (stopping) {
    description = "the worker pool is shut down";
  } else if (ending == Ending::kClosed) {
    // Its exit status says more than the closed connection: give it a moment to end by itself
    // (it is killed otherwise).
    reap_fork_server(milliseconds(1000));
    std::lock_guard reap_lock(reap_mutex_);
    description += describe_wait_status(fork_server_status_);
  } else {
    reap_fork_server(milliseconds(0));
    description += ending == Ending::kRefused ? failure : "broke the protocol (" + failure + ")";
    description += " and was killed";
  }
  bool was_ready;
  {
    std::lock_guard lock(state_->mutex);
    state_->fork_server_gone = true;
    state_->fork_server_failure = description;
    for (auto it = state_->workers.begin(); it != state_->workers.end();) {
      if (it->second->state == WorkerState::kClosed) {
        it = state_->workers.erase(it);
      } else {
        ++it;
      }
    }
    stopping = state_->shutting_down;
    was_ready = state_->fork_server_ready;
    state_->changed.notify_all();
  }
  if (!stopping && was_ready) {
    state_->log(description + "; no more workers can start");
  }
}

void WorkerPool::Impl::handle_control_frame(Frame frame, DeferredLog& log) {
  const std::string name = "the fork server's " + frame_type_name(frame.type);
  const nlohmann::json fields = parse_json_object(frame.text(), name);
  // Freed before waiters are woken: a caller woken by an exit report may be a test whose
  // leak check runs as soon as it returns.
  frame.payload.reset();
  std::lock_guard lock(state_->mutex);
  switch (frame.type) {
    case FrameType::kReady: {
      const auto pid = json_field<int64_t>(fields, "pid", name);
      const auto python = json_field<std::string>(fields, "python_version", name);
      if (state_->fork_server_ready) {
        throw IoError("the fork server sent READY twice");
      }
      if (pid != state_->fork_server_pid) {
        throw IoError("the fork server reports pid " + std::to_string(pid) + " in READY");
      }
      const std::string& expected = state_->options.expected_python_version;
      if (!expected.empty() && major_minor(python) != expected) {
        throw ForkServerRefused("runs Python " + python + ", but the pool expects Python " +
                                expected);
      }
      state_->fork_server_ready = true;
      break;
    }
    case FrameType::kSpawned: {
      const auto id = json_field<int64_t>(fields, "worker_id", name);
      const auto pid = json_field<int64_t>(fields, "pid", name);
      const auto found = state_->workers.find(static_cast<int>(id));
      if (found == state_->workers.end() || found->first != id || found->second->pid() != 0) {
        throw IoError("the fork server reports starting worker " + std::to_string(id) +
                      ", which the pool did not ask for");
      }
      if (pid <= 0) {
        throw IoError("the fork server reports worker pid " + std::to_string(pid));
      }
      found->second->pid_ = static_cast<pid_t>(pid);
      // Given up on before it started: it must not live on.
      if (found->second->state == WorkerState::kClosed) {
        found->second->signal_locked();
      }
      break;
    }
    case FrameType::kExited: {
      const auto id = json_field<int64_t>(fields, "worker_id", name);
      const auto found = state_->workers.find(static_cast<int>(id));
      if (found == state_->workers.end() || found->first != id) {
        throw IoError("the fork server reports the exit of unknown worker " + std::to_string(id));
      }
      const std::shared_ptr<PoolWorker> worker = found->second;
      const auto exit_code = fields.find("exit_code");
      const auto signal = fields.find("signal");
      if (signal != fields.end() && signal->is_number_integer()) {
        worker->signal = signal->get<int>();
      } else if (exit_code != fields.end() && exit_code->is_number_integer()) {
        worker->exit_code = exit_code->get<int>();
      } else {
        throw IoError(name + " has neither an integer \"exit_code\" nor \"signal\"");
      }
      worker->exited = true;
      if (worker->state == WorkerState::kIdle) {
        log.add("worker " + std::to_string(worker->id()) + " (pid " +
                std::to_string(worker->pid()) + ") " +
                (worker->signal ? killed_by(*worker->signal)
                                : "exited with code " + std::to_string(worker->exit_code)) +
                " while idle; replaced");
        ++state_->stats.workers_failed;
        close_locked(worker);
      } else if (worker->state == WorkerState::kStarting && worker->abandoned) {
        ++state_->stats.workers_failed;
        close_locked(worker);
      }
      forget_if_done_locked(worker);
      break;
    }
    default:
      throw IoError("the fork server sent " + frame_type_name(frame.type) +
                    ", which it never sends");
  }
  state_->changed.notify_all();
}

void WorkerPool::Impl::read_output(OutputSource& source, std::vector<std::string>& lines,
                                   bool& eof) {
  char buffer[64 * 1024];
  const ssize_t got = ::read(source.fd.get(), buffer, sizeof(buffer));
  if (got < 0) {
    if (errno == EINTR || errno == EAGAIN) {
      return;
    }
    eof = true;
  } else if (got == 0) {
    eof = true;
  }
  std::string_view data(buffer, got > 0 ? static_cast<size_t>(got) : 0);
  while (!data.empty()) {
    const size_t newline = data.find('\n');
    const size_t take = std::min(newline == std::string_view::npos ? data.size() : newline,
                                 kMaxLineBytes - source.partial.size());
    source.partial.append(data.substr(0, take));
    data.remove_prefix(take);
    const bool line_ends = !data.empty() && data.front() == '\n';
    if (line_ends) {
      data.remove_prefix(1);
    }
    if (line_ends || source.partial.size() >= kMaxLineBytes) {
      lines.push_back(std::move(source.partial));
      source.partial.clear();
    }
  }
  if (eof && !source.partial.empty()) {
    lines.push_back(std::move(source.partial));
    source.partial.clear();
  }
}

void WorkerPool::Impl::monitor_loop() {
  std::vector<OutputSource> sources;
  // Once stopping, output already written is still forwarded, for a bounded time.
  std::optional<Clock::time_point> drain_deadline;
  while (true) {
    std::vector<std::shared_ptr<PoolWorker>> idle;
    // The next idle worker to retire or abandoned worker to give up on.
    std::optional<Clock::time_point> next_deadline;
    const auto consider = [&](Clock::time_point deadline) {
      if (!next_deadline || deadline < *next_deadline) {
        next_deadline = deadline;
      }
    };
    bool stopping;
    {
      std::lock_guard lock(state_->mutex);
      for (OutputSource& source : new_output_) {
        sources.push_back(std::move(source));
      }
      new_output_.clear();
      stopping = monitor_stopping_;
      idle = state_->idle;
      for (const auto& worker : idle) {
        consider(worker->idle_since + state_->options.idle_timeout);
      }
      for (const auto& [id, worker] : state_->workers) {
        if (worker->state == WorkerState::kStarting && worker->abandoned) {
          consider(worker->start_deadline);
        }
      }
    }
    if (stopping) {
      if (!drain_deadline) {
        drain_deadline = Clock::now() + std::chrono::seconds(1);
      }
      idle.clear();
      next_deadline = Clock::now();
    }

    // Every source, then the idle workers' connections (kept alive by `idle` meanwhile).
    std::vector<pollfd> entries;
    entries.push_back({monitor_wake_.get(), POLLIN, 0});
    for (const OutputSource& source : sources) {
      entries.push_back({source.fd.get(), POLLIN, 0});
    }
    for (const auto& worker : idle) {
      entries.push_back({worker->socket_->fd(), POLLIN, 0});
    }
    const int ready = ::poll(entries.data(), entries.size(), poll_timeout(next_deadline));
    if (ready < 0 && errno != EINTR) {
      state_->log("cannot wait for worker output: " + system_message(errno));
      break;
    }
    if (entries[0].revents != 0) {
      drain_wake(monitor_wake_.get());
    }

    struct Lines {
      OutputSource* source;
      std::vector<std::string> lines;
      bool eof = false;
    };
    std::vector<Lines> received;
    for (size_t i = 0; i < sources.size(); ++i) {
      if (ready > 0 && entries[1 + i].revents != 0) {
        Lines& entry = received.emplace_back(Lines{&sources[i], {}});
        read_output(sources[i], entry.lines, entry.eof);
      }
    }
    DeferredLog log(*state_);
    {
      std::lock_guard lock(state_->mutex);
      for (Lines& entry : received) {
        const auto& worker = entry.source->worker;
        auto& recent = worker ? worker->output : state_->fork_server_output;
        for (const std::string& line : entry.lines) {
          push_line(recent, line);
        }
        if (entry.eof) {
          (worker ? worker->output_eof : state_->fork_server_output_eof) = true;
        }
      }
      for (size_t i = 0; i < idle.size(); ++i) {
        const auto& worker = idle[i];
        if (entries[1 + sources.size() + i].revents == 0) {
          continue;
        }
        if (worker->state != WorkerState::kIdle) {
          continue;
        }
        log.add("worker " + std::to_string(worker->id()) + " (pid " +
                std::to_string(worker->pid()) + ") closed its connection while idle; replaced");
        ++state_->stats.workers_failed;
        close_locked(worker);
      }
      const auto now = Clock::now();
      for (const auto& worker : std::vector(state_->idle)) {
        if (now - worker->idle_since >= state_->options.idle_timeout) {
          close_locked(worker);
        }
      }
      // Nobody else waits for an abandoned worker: unconnected, it would hold its place forever.
      for (const auto& [id, worker] : std::map(state_->workers)) {
        if (worker->state != WorkerState::kStarting || !worker->abandoned ||
            now < worker->start_deadline) {
          continue;
        }
        const std::string reason =
            "did not connect to the pool within " + format_duration(state_->options.start_timeout);
        log.add(worker->name() + " " + reason + "; killed");
        worker->kill_reason = "it " + reason;
        worker->signal_locked();
        ++state_->stats.workers_failed;
        close_locked(worker);
      }
      if (!received.empty()) {
        state_->changed.notify_all();
      }
    }
    for (const Lines& entry : received) {
      for (const std::string& line : entry.lines) {
        state_->options.output_sink(entry.source->prefix + line);
      }
    }
    for (const Lines& entry : received) {
      entry.source->ended = entry.eof;
    }
    std::erase_if(sources, [](const OutputSource& source) { return source.ended; });
    if (stopping && (received.empty() || Clock::now() >= *drain_deadline)) {
      break;
    }
  }
  // What is left unread will not be read: reports stop waiting for it.
  std::lock_guard lock(state_->mutex);
  for (const OutputSource& source : sources) {
    (source.worker ? source.worker->output_eof : state_->fork_server_output_eof) = true;
  }
  state_->changed.notify_all();
}

void WorkerPool::Impl::shutdown() {
  std::lock_guard shutdown_lock(shutdown_mutex_);
  if (shut_down_) {
    return;
  }
  shut_down_ = true;
  {
    std::lock_guard lock(state_->mutex);
    state_->shutting_down = true;
    for (const auto& worker : std::vector(state_->idle)) {
      close_locked(worker);
    }
    for (const auto& [id, worker] : std::map(state_->workers)) {
      if (worker->state == WorkerState::kStarting) {
        worker->signal_locked();
      }
      close_locked(worker);
    }
    state_->changed.notify_all();
  }

  if (accept_thread_.joinable()) {
    accept_stopping_ = true;
    wake(accept_wake_.get());
    accept_thread_.join();
  }
  listener_.reset();
  if (!socket_path_.empty()) {
    ::unlink(socket_path_.c_str());
  }

  if (control_thread_.joinable()) {
    // End of input tells the fork server to stop; its exit reports still arrive.
    ::shutdown(control_->fd(), SHUT_WR);
    reap_fork_server(kForkServerGrace);
    // Nothing more will come, even if a leftover process holds the other end.
    control_->shutdown();
    control_thread_.join();
  }

  if (monitor_thread_.joinable()) {
    {
      std::lock_guard lock(state_->mutex);
      monitor_stopping_ = true;
    }
    wake(monitor_wake_.get());
    monitor_thread_.join();
  }
  {
    std::lock_guard lock(state_->mutex);
    state_->fork_server_gone = true;
    state_->workers.clear();
    new_output_.clear();
    state_->changed.notify_all();
  }
  // The control socket itself stays open until destruction: a concurrent acquire may still be
  // writing a SPAWN to it (which fails now that it is shut down).
  if (!directory_.empty()) {
    ::rmdir(directory_.c_str());
  }
}

PoolStats WorkerPool::Impl::stats() const {
  std::lock_guard lock(state_->mutex);
  PoolStats stats = state_->stats;
  stats.workers_alive = 0;
  for (const auto& [id, worker] : state_->workers) {
    if (worker->state != WorkerState::kClosed) {
      ++stats.workers_alive;
    }
  }
  stats.workers_idle = static_cast<int64_t>(state_->idle.size());
  return stats;
}

pid_t WorkerPool::Impl::fork_server_pid() const {
  std::lock_guard lock(state_->mutex);
  return state_->fork_server_pid;
}

std::vector<pid_t> WorkerPool::Impl::worker_pids() const {
  std::lock_guard lock(state_->mutex);
  std::vector<pid_t> pids;
  for (const auto& [id, worker] : state_->workers) {
    if (worker->pid() > 0 && !worker->exited) {
      pids.push_back(worker->pid());
    }
  }
  return pids;
}

WorkerLease::WorkerLease(WorkerPool* pool, std::shared_ptr<Worker> worker)
    : pool_(pool), worker_(std::move(worker)) {}

WorkerLease::WorkerLease(WorkerLease&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)),
      worker_(std::move(other.worker_)),
      discard_(std::exchange(other.discard_, false)) {}

WorkerLease& WorkerLease::operator=(WorkerLease&& other) noexcept {
  if (this != &other) {
    release();
    pool_ = std::exchange(other.pool_, nullptr);
    worker_ = std::move(other.worker_);
    discard_ = std::exchange(other.discard_, false);
  }
  return *this;
}

WorkerLease::~WorkerLease() { release(); }

void WorkerLease::release() {
  if (pool_ != nullptr && worker_) {
    pool_->release(worker_, discard_);
  }
  pool_ = nullptr;
  worker_.reset();
}

WorkerPool::WorkerPool(PoolOptions options)
    : owner_pid_(::getpid()), impl_(std::make_unique<Impl>(std::move(options))) {}

WorkerPool::~WorkerPool() {
  if (!owned_by_this_process()) {
    // The threads the destructor would join exist only in the parent, which may have held the
    // pool's mutexes at the fork: the copy is left as it is.
    static_cast<void>(impl_.release());
    return;
  }
  shutdown();
}

bool WorkerPool::owned_by_this_process() const { return ::getpid() == owner_pid_; }

void WorkerPool::check_owned() const {
  if (!owned_by_this_process()) {
    throw InvalidArgument("the Python worker pool was started by process " +
                          std::to_string(owner_pid_) + " and cannot be used by process " +
                          std::to_string(::getpid()) +
                          ", forked from it: a forked process needs a pool of its own");
  }
}

WorkerLease WorkerPool::acquire(const CancellationToken& cancel, const void* requester) {
  check_owned();
  return WorkerLease(this, impl_->acquire(cancel, requester));
}

bool WorkerPool::others_waiting(const void* requester) const {
  check_owned();
  return impl_->others_waiting(requester);
}

void WorkerPool::shutdown() {
  if (owned_by_this_process()) {
    impl_->shutdown();
  }
}

PoolStats WorkerPool::stats() const {
  check_owned();
  return impl_->stats();
}

const PoolOptions& WorkerPool::options() const { return impl_->options(); }

const std::string& WorkerPool::socket_path() const { return impl_->socket_path(); }

const std::string& WorkerPool::secret() const { return impl_->secret(); }

pid_t WorkerPool::fork_server_pid() const {
  check_owned();
  return impl_->fork_server_pid();
}

std::vector<pid_t> WorkerPool::worker_pids() const {
  check_owned();
  return impl_->worker_pids();
}

void WorkerPool::release(const std::shared_ptr<Worker>& worker, bool discard) {
  if (owned_by_this_process()) {
    impl_->release(worker, discard);
  }
}

}  // namespace bowstring::udf
