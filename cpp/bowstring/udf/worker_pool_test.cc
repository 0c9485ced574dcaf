#include "bowstring/udf/worker_pool.h"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bowstring/testing/python_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/udf/errors.h"
#include "bowstring/util/error.h"

namespace bowstring::udf {
namespace {

using bowstring::testing::error_message;
using bowstring::testing::LineCollector;
using bowstring::testing::python_pool_options;
using std::chrono::milliseconds;

int count_open_fds() {
  int count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    ++count;
  }
  return count;
}

// Every process descended from this one (children, grandchildren...).
std::vector<pid_t> descendants() {
  std::map<pid_t, std::vector<pid_t>> children;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    std::ifstream stat(entry.path() / "stat");
    std::string text;
    if (!std::getline(stat, text)) {
      continue;
    }
    // "pid (command) state ppid ...": the command may hold spaces and parentheses.
    const size_t close = text.rfind(')');
    if (close == std::string::npos) {
      continue;
    }
    std::istringstream rest(text.substr(close + 2));
    char state;
    pid_t parent;
    rest >> state >> parent;
    children[parent].push_back(static_cast<pid_t>(std::stol(name)));
  }
  std::vector<pid_t> found;
  std::vector<pid_t> pending = {::getpid()};
  while (!pending.empty()) {
    const pid_t pid = pending.back();
    pending.pop_back();
    for (pid_t child : children[pid]) {
      found.push_back(child);
      pending.push_back(child);
    }
  }
  return found;
}

bool process_exists(pid_t pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; }

// Data or end of file waiting on `fd`.
bool readable(int fd) {
  pollfd entry{fd, POLLIN, 0};
  return ::poll(&entry, 1, 0) > 0;
}

// Polls `condition` until it holds; false when it did not within 30 s.
template <typename Condition>
bool eventually(Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return false;
    }
    std::this_thread::sleep_for(milliseconds(10));
  }
  return true;
}

// "3.11": the `major.minor` of the interpreter the tests run workers with.
std::string interpreter_version() {
  const std::string command = bowstring::testing::python_executable() +
                              " -c 'import sys; print(\"%d.%d\" % sys.version_info[:2])'";
  FILE* pipe = ::popen(command.c_str(), "re");
  EXPECT_NE(pipe, nullptr);
  char line[64] = {};
  EXPECT_NE(std::fgets(line, sizeof(line), pipe), nullptr);
  ::pclose(pipe);
  std::string version(line);
  while (!version.empty() && version.back() == '\n') {
    version.pop_back();
  }
  return version;
}

FrameSocket connect_to(const std::string& path) {
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  EXPECT_EQ(::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0)
      << std::strerror(errno);
  return FrameSocket(std::move(fd), "the pool");
}

std::string hello(const std::string& secret, int protocol_version = 1,
                  const std::string& python_version = "3.11.7", int worker_id = 1,
                  pid_t pid = 1234) {
  return R"({"secret": ")" + secret + R"(", "protocol_version": )" +
         std::to_string(protocol_version) + R"(, "python_version": ")" + python_version +
         R"(", "worker_id": )" + std::to_string(worker_id) + R"(, "pid": )" + std::to_string(pid) +
         "}";
}

// The pool answers a refused connection by closing it.
void expect_closed(FrameSocket& client) {
  EXPECT_EQ(error_message<IoError>([&] { client.read(); }), "the pool closed the connection");
}

class PoolTest : public ::testing::Test {
 protected:
  PoolOptions options() { return python_pool_options(&output_, &log_); }

  LineCollector output_;
  LineCollector log_;
};

TEST_F(PoolTest, StartsAndStopsLeavingNothingBehind) {
  const int fds_before = count_open_fds();
  std::string directory;
  pid_t fork_server;
  std::vector<pid_t> workers;
  {
    WorkerPool pool(options());
    fork_server = pool.fork_server_pid();
    EXPECT_GT(fork_server, 0);
    EXPECT_TRUE(process_exists(fork_server));
    struct stat info {};
    ASSERT_EQ(::stat(pool.socket_path().c_str(), &info), 0);
    EXPECT_TRUE(S_ISSOCK(info.st_mode));
    EXPECT_EQ(info.st_mode & 0777, 0600u);
    directory = std::filesystem::path(pool.socket_path()).parent_path();
    ASSERT_EQ(::stat(directory.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0700u);
    EXPECT_EQ(pool.secret().size(), 64u);

    auto first = pool.acquire();
    auto second = pool.acquire();
    workers = pool.worker_pids();
    EXPECT_EQ(workers.size(), 2u);
    EXPECT_EQ(pool.stats().workers_alive, 2);
  }
  EXPECT_FALSE(std::filesystem::exists(directory));
  EXPECT_FALSE(process_exists(fork_server));
  for (pid_t worker : workers) {
    EXPECT_FALSE(process_exists(worker)) << worker;
  }
  EXPECT_EQ(descendants(), std::vector<pid_t>{});
  EXPECT_EQ(count_open_fds(), fds_before);
}

// The descriptors open in this process, by number.
std::set<int> open_fds() {
  std::set<int> fds;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    fds.insert(std::stoi(entry.path().filename()));
  }
  return fds;
}

// Starting a pool fails cleanly at whichever step runs out of descriptors: every descriptor it
// opened before that step is closed again.
TEST_F(PoolTest, RunningOutOfDescriptorsWhileStartingLeaksNone) {
  rlimit original{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &original), 0);
#ifdef BOWSTRING_SANITIZE
  GTEST_SKIP() << "UBSan's type checks open a pipe of their own and abort without descriptors";
#endif
  const PoolOptions pool_options = options();
  const std::set<int> fds_before = open_fds();
  bool started = false;
  for (int free_slots = 1; free_slots <= 16 && !started; ++free_slots) {
    SCOPED_TRACE("free descriptors: " + std::to_string(free_slots));
    // Descriptors already open above the limit stay open; new ones must come below it.
    rlimit lowered = original;
    lowered.rlim_cur = 64;
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &lowered), 0);
    // Every descriptor number below the limit is taken, but for the lowest few.
    std::vector<int> fillers;
    while (true) {
      const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
      if (fd < 0) {
        break;
      }
      fillers.push_back(fd);
    }
    for (int i = 0; i < free_slots; ++i) {
      ::close(fillers[static_cast<size_t>(i)]);
    }
    std::string failure;
    try {
      WorkerPool pool(pool_options);
      started = true;
    } catch (const Error& error) {
      failure = error.what();
    }
    for (size_t i = static_cast<size_t>(free_slots); i < fillers.size(); ++i) {
      ::close(fillers[i]);
    }
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &original), 0);
    EXPECT_EQ(open_fds(), fds_before) << failure;
  }
  EXPECT_TRUE(started);
  EXPECT_EQ(descendants(), std::vector<pid_t>{});
}

TEST_F(PoolTest, ShutdownIsIdempotentAndRefusesLaterAcquires) {
  WorkerPool pool(options());
  pool.shutdown();
  pool.shutdown();
  EXPECT_EQ(error_message<InvalidArgument>([&] { pool.acquire(); }),
            "the Python worker pool is shut down");
}

TEST_F(PoolTest, AForkedProcessLeavesThePoolToItsParent) {
  auto pool = std::make_unique<WorkerPool>(options());
  std::optional<WorkerLease> busy(pool->acquire());
  { WorkerLease idle = pool->acquire(); }
  const pid_t fork_server = pool->fork_server_pid();
  const std::vector<pid_t> workers = pool->worker_pids();
  ASSERT_EQ(workers.size(), 2U);
  // Every use is refused in the child, and the lease ending, shutdown and destruction there do
  // nothing of the parent's (a join of the parent's threads would hang).
  const auto refused = [](auto use) {
    return error_message<InvalidArgument>(use).find("forked from it") != std::string::npos;
  };
  EXPECT_EQ(bowstring::testing::exit_code_in_forked_child([&] {
              const bool all_refused =
                  !pool->owned_by_this_process() && refused([&] { pool->acquire(); }) &&
                  refused([&] { pool->stats(); }) && refused([&] { pool->worker_pids(); });
              busy.reset();
              pool->shutdown();
              pool.reset();
              return all_refused ? 0 : 1;
            }),
            0);
  // Nothing of the parent's was closed, killed or removed: the busy worker's connection is open
  // (one shut down would read as end of file), and the idle worker is handed out again.
  EXPECT_TRUE(pool->owned_by_this_process());
  EXPECT_EQ(pool->fork_server_pid(), fork_server);
  EXPECT_TRUE(std::filesystem::exists(pool->socket_path()));
  EXPECT_EQ(pool->worker_pids(), workers);
  EXPECT_FALSE(readable(busy.value()->socket().fd()));
  busy.reset();
  const WorkerLease first = pool->acquire();
  const WorkerLease second = pool->acquire();
  EXPECT_EQ(pool->stats().workers_started, 2);
  EXPECT_EQ(pool->stats().workers_failed, 0);
}

TEST_F(PoolTest, ReleasedWorkersAreReused) {
  WorkerPool pool(options());
  pid_t pid;
  int id;
  {
    WorkerLease lease = pool.acquire();
    pid = lease->pid();
    id = lease->id();
    EXPECT_GT(pid, 0);
    EXPECT_EQ(lease->socket().peer(),
              "Python worker " + std::to_string(id) + " (pid " + std::to_string(pid) + ")");
  }
  EXPECT_EQ(pool.stats().workers_idle, 1);
  WorkerLease again = pool.acquire();
  EXPECT_EQ(again->pid(), pid);
  EXPECT_EQ(again->id(), id);
  const PoolStats stats = pool.stats();
  EXPECT_EQ(stats.workers_started, 1);
  EXPECT_EQ(stats.workers_alive, 1);
  EXPECT_EQ(stats.workers_idle, 0);
  EXPECT_EQ(stats.workers_failed, 0);
}

TEST_F(PoolTest, WithoutReuseEveryLeaseGetsAFreshWorker) {
  PoolOptions settings = options();
  settings.reuse_workers = false;
  WorkerPool pool(settings);
  pid_t first;
  {
    WorkerLease lease = pool.acquire();
    first = lease->pid();
  }
  // Its connection closed, the worker exits by itself.
  EXPECT_TRUE(eventually([&] { return !process_exists(first); }));
  WorkerLease lease = pool.acquire();
  EXPECT_NE(lease->pid(), first);
  EXPECT_EQ(pool.stats().workers_started, 2);
  EXPECT_EQ(pool.stats().workers_failed, 0);
}

TEST_F(PoolTest, AcquireWaitsWhenEveryWorkerIsBusy) {
  PoolOptions settings = options();
  settings.max_workers = 1;
  WorkerPool pool(settings);
  auto lease = std::make_unique<WorkerLease>(pool.acquire());
  const pid_t pid = (*lease)->pid();
  std::atomic<bool> acquired{false};
  pid_t second_pid = 0;
  std::thread waiter([&] {
    WorkerLease second = pool.acquire();
    second_pid = second->pid();
    acquired = true;
  });
  std::this_thread::sleep_for(milliseconds(100));
  EXPECT_FALSE(acquired);
  EXPECT_EQ(pool.stats().workers_alive, 1);
  lease.reset();
  waiter.join();
  EXPECT_TRUE(acquired);
  EXPECT_EQ(second_pid, pid);
}

TEST_F(PoolTest, WaitingForAWorkerCanBeCancelled) {
  PoolOptions settings = options();
  settings.max_workers = 1;
  WorkerPool pool(settings);
  WorkerLease lease = pool.acquire();
  CancellationToken cancel;
  std::string message;
  std::thread waiter([&] { message = error_message<Cancelled>([&] { pool.acquire(cancel); }); });
  std::this_thread::sleep_for(milliseconds(50));
  cancel.cancel();
  waiter.join();
  EXPECT_EQ(message, "waiting for a Python worker was cancelled");
  // Already cancelled: fails at once.
  EXPECT_EQ(error_message<Cancelled>([&] { pool.acquire(cancel); }),
            "waiting for a Python worker was cancelled");
}

TEST_F(PoolTest, CancellingWhileAWorkerStartsLeavesItForTheNextAcquire) {
  PoolOptions settings = options();
  settings.max_workers = 1;
  WorkerPool pool(settings);
  for (int attempt = 0; attempt < 3; ++attempt) {
    CancellationToken cancel;
    // Usually lands while the worker starts; wherever it lands, no worker may be lost.
    std::thread canceller([&] {
      std::this_thread::sleep_for(milliseconds(1));
      cancel.cancel();
    });
    try {
      WorkerLease lease = pool.acquire(cancel);
    } catch (const Cancelled& error) {
      EXPECT_EQ(std::string(error.what()), "waiting for a Python worker was cancelled");
    }
    canceller.join();
    WorkerLease lease = pool.acquire();
    EXPECT_GT(lease->pid(), 0);
    EXPECT_EQ(pool.stats().workers_started, 1);
    EXPECT_EQ(pool.stats().workers_alive, 1);
  }
}

// A stand-in for the fork server whose workers never connect: it answers SPAWN with a sleeping
// process, reports how each one ends, and kills them when its control socket closes.
const char* const kForkServerOfHangingWorkers = R"(
import json, os, select, socket, struct, subprocess, sys

control = socket.socket(fileno=3)

def send(frame_type, fields):
    data = json.dumps(fields).encode()
    control.sendall(struct.pack("<IIQ", frame_type, 0, len(data)) + data)

def receive(size):
    data = b""
    while len(data) < size:
        chunk = control.recv(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data

send(1, {"pid": os.getpid(), "python_version": "%d.%d.%d" % sys.version_info[:3]})
workers = {}
while True:
    for worker_id, child in list(workers.items()):
        if child.poll() is not None:
            code = child.returncode
            send(4, {"worker_id": worker_id, "pid": child.pid,
                     "exit_code": code if code >= 0 else None,
                     "signal": -code if code < 0 else None})
            del workers[worker_id]
    if not select.select([control], [], [], 0.05)[0]:
        continue
    header, fds, _, _ = socket.recv_fds(control, 16, 1)
    if len(header) < 16:
        header = header + (receive(16 - len(header)) or b"") if header else b""
    if len(header) < 16:
        break
    _, _, length = struct.unpack("<IIQ", header)
    spawn = json.loads(receive(length))
    for fd in fds:
        os.close(fd)
    child = subprocess.Popen(["sleep", "600"])
    workers[spawn["worker_id"]] = child
    send(3, {"worker_id": spawn["worker_id"], "pid": child.pid})
for child in workers.values():
    child.kill()
    child.wait()
)";

// A worker whose acquirer gave up waiting for it still gets the start timeout: should it never
// connect, it is killed and its place in the pool is free again.
TEST_F(PoolTest, AnAbandonedWorkerThatNeverConnectsIsKilledAfterTheStartTimeout) {
  const std::filesystem::path script =
      std::filesystem::temp_directory_path() / ("bowstring-hanging-" + std::to_string(::getpid()));
  {
    std::ofstream out(script);
    out << "#!" << bowstring::testing::python_executable() << "\n" << kForkServerOfHangingWorkers;
  }
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  PoolOptions settings = options();
  settings.python_executable = script;
  settings.max_workers = 1;
  // Long enough for the acquire to be cancelled before it gives up itself.
  settings.start_timeout = milliseconds(2000);
  {
    WorkerPool pool(settings);
    std::filesystem::remove(script);
    CancellationToken cancel;
    std::thread canceller([&] {
      EXPECT_TRUE(eventually([&] { return !pool.worker_pids().empty(); }));
      cancel.cancel();
    });
    EXPECT_THROW(pool.acquire(cancel), Cancelled);
    canceller.join();
    const pid_t abandoned = pool.worker_pids().at(0);

    // Gives the next acquire up (failing the test) should it wait far past the start timeout.
    CancellationToken give_up;
    std::string message = "acquired a worker that never connected";
    try {
      const bowstring::testing::CancelAfter guard(give_up, std::chrono::seconds(30));
      pool.acquire(give_up);
    } catch (const WorkerFailure& failure) {
      message = failure.what();
    } catch (const Cancelled&) {
      message = "still waiting for a worker after 30 s";
    }
    EXPECT_NE(message.find("it did not connect to the pool within 2 s"), std::string::npos)
        << message;
    EXPECT_TRUE(eventually([&] { return !process_exists(abandoned); }));
    EXPECT_TRUE(log_.contains("(pid " + std::to_string(abandoned) +
                              ") did not connect to the pool within 2 s; killed"))
        << log_.text();
    EXPECT_EQ(pool.stats().workers_failed, 2);
  }
  EXPECT_EQ(descendants(), std::vector<pid_t>{});
}

TEST_F(PoolTest, IdleWorkersAreRetired) {
  PoolOptions settings = options();
  settings.idle_timeout = milliseconds(50);
  WorkerPool pool(settings);
  pid_t pid;
  {
    WorkerLease lease = pool.acquire();
    pid = lease->pid();
  }
  EXPECT_TRUE(eventually([&] { return pool.stats().workers_alive == 0; }));
  EXPECT_TRUE(eventually([&] { return pool.worker_pids().empty(); }));
  EXPECT_FALSE(process_exists(pid));
  EXPECT_EQ(pool.stats().workers_failed, 0);
  WorkerLease lease = pool.acquire();
  EXPECT_NE(lease->pid(), pid);
}

TEST_F(PoolTest, KillingABusyWorkerIsExplained) {
  WorkerPool pool(options());
  WorkerLease lease = pool.acquire();
  const pid_t pid = lease->pid();
  const std::string name =
      "Python worker " + std::to_string(lease->id()) + " (pid " + std::to_string(pid) + ")";
  lease->kill("the call exceeded its timeout of 2 s");
  lease->kill("a second reason is not kept");
  EXPECT_EQ(lease->describe_failure(),
            name +
                " was killed by signal 9 (SIGKILL); the engine killed it: the call exceeded its "
                "timeout of 2 s");
  EXPECT_EQ(error_message<IoError>([&] { lease->socket().read(); }),
            name + " closed the connection");
  lease.discard();
  lease = pool.acquire();
  EXPECT_NE(lease->pid(), pid);
  EXPECT_EQ(pool.stats().workers_failed, 1);
}

TEST_F(PoolTest, ASignalNamesItself) {
  WorkerPool pool(options());
  WorkerLease lease = pool.acquire();
  ASSERT_EQ(::kill(lease->pid(), SIGSEGV), 0);
  const std::string description = lease->describe_failure();
  EXPECT_NE(description.find(") was killed by signal 11 (SIGSEGV)"), std::string::npos)
      << description;
  lease.discard();
}

TEST_F(PoolTest, AWorkerThatExitsIsExplainedWithItsOutput) {
  WorkerPool pool(options());
  WorkerLease lease = pool.acquire();
  const int id = lease->id();
  // A frame of an unknown type: the worker reports the protocol error and exits with code 1.
  const uint8_t garbage[16] = {0x63};
  ASSERT_EQ(::send(lease->socket().fd(), garbage, sizeof(garbage), MSG_NOSIGNAL), 16);
  const std::string description = lease->describe_failure();
  EXPECT_EQ(description.rfind("Python worker " + std::to_string(id) + " (pid " +
                                  std::to_string(lease->pid()) + ") exited with code 1\n" +
                                  "Its last output:\n  ",
                              0),
            0u)
      << description;
  EXPECT_NE(description.find("99"), std::string::npos) << description;
  ASSERT_FALSE(lease->recent_output().empty());
  // Forwarded with the worker's prefix.
  EXPECT_TRUE(output_.wait_for("[worker " + std::to_string(id) + "] ")) << output_.text();
  lease.discard();
}

TEST_F(PoolTest, AWorkerReturnedWithABrokenConnectionIsNotReused) {
  WorkerPool pool(options());
  pid_t pid;
  {
    WorkerLease lease = pool.acquire();
    pid = lease->pid();
    const uint8_t garbage[16] = {0x63};
    ASSERT_EQ(::send(lease->socket().fd(), garbage, sizeof(garbage), MSG_NOSIGNAL), 16);
    EXPECT_NE(lease->describe_failure().find("exited with code 1"), std::string::npos);
  }
  EXPECT_TRUE(log_.contains("Python worker 1 (pid " + std::to_string(pid) +
                            ") was returned with unread data or a closed connection; closed"))
      << log_.text();
  WorkerLease lease = pool.acquire();
  EXPECT_NE(lease->pid(), pid);
  EXPECT_EQ(pool.stats().workers_failed, 1);
}

TEST_F(PoolTest, AnIdleWorkerThatDiesIsReplaced) {
  WorkerPool pool(options());
  pid_t pid;
  int id;
  {
    WorkerLease lease = pool.acquire();
    pid = lease->pid();
    id = lease->id();
  }
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  EXPECT_TRUE(log_.wait_for("worker " + std::to_string(id) + " (pid " + std::to_string(pid) + ") "))
      << log_.text();
  EXPECT_TRUE(log_.contains("while idle; replaced")) << log_.text();
  WorkerLease lease = pool.acquire();
  EXPECT_NE(lease->pid(), pid);
  EXPECT_EQ(pool.stats().workers_failed, 1);
}

TEST_F(PoolTest, ManyThreadsShareTheWorkers) {
  PoolOptions settings = options();
  settings.max_workers = 3;
  WorkerPool pool(settings);
  std::atomic<int> busy{0};
  std::atomic<int> most_busy{0};
  std::mutex mutex;
  std::set<pid_t> pids;
  std::vector<std::thread> threads;
  threads.reserve(6);
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 5; ++i) {
        WorkerLease lease = pool.acquire();
        const int now = ++busy;
        int seen = most_busy.load();
        while (now > seen && !most_busy.compare_exchange_weak(seen, now)) {
        }
        {
          std::lock_guard lock(mutex);
          pids.insert(lease->pid());
        }
        std::this_thread::sleep_for(milliseconds(2));
        --busy;
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  EXPECT_LE(most_busy.load(), 3);
  EXPECT_LE(pids.size(), 3u);
  EXPECT_EQ(pool.stats().workers_started, static_cast<int64_t>(pids.size()));
  EXPECT_EQ(pool.stats().workers_failed, 0);
}

TEST_F(PoolTest, ShutdownCutsLeasesOff) {
  WorkerPool pool(options());
  WorkerLease lease = pool.acquire();
  const std::string peer = lease->socket().peer();
  pool.shutdown();
  EXPECT_EQ(error_message<IoError>([&] { lease->socket().read(); }),
            peer + " closed the connection");
  EXPECT_EQ(pool.stats().workers_alive, 0);
}

TEST_F(PoolTest, RejectsAWrongSecret) {
  WorkerPool pool(options());
  FrameSocket client = connect_to(pool.socket_path());
  client.write(FrameType::kHello, hello(std::string(64, '0')));
  expect_closed(client);
  EXPECT_TRUE(log_.wait_for("rejected connection: wrong secret")) << log_.text();
  EXPECT_EQ(pool.stats().connections_rejected, 1);
  WorkerLease lease = pool.acquire();
  EXPECT_GT(lease->pid(), 0);
}

TEST_F(PoolTest, RejectsAnotherProtocolVersion) {
  WorkerPool pool(options());
  FrameSocket client = connect_to(pool.socket_path());
  client.write(FrameType::kHello, hello(pool.secret(), 2));
  expect_closed(client);
  EXPECT_TRUE(log_.wait_for("rejected connection: protocol version 2, expected 1")) << log_.text();
  WorkerLease lease = pool.acquire();
  EXPECT_GT(lease->pid(), 0);
}

TEST_F(PoolTest, RejectsAnotherPythonVersion) {
  PoolOptions settings = options();
  settings.expected_python_version = interpreter_version();
  WorkerPool pool(settings);
  FrameSocket client = connect_to(pool.socket_path());
  client.write(FrameType::kHello, hello(pool.secret(), 1, "2.7.18"));
  expect_closed(client);
  EXPECT_TRUE(
      log_.wait_for("rejected connection: the worker runs Python 2.7.18, but the pool "
                    "expects Python " +
                    settings.expected_python_version))
      << log_.text();
  WorkerLease lease = pool.acquire();
  EXPECT_GT(lease->pid(), 0);
}

TEST_F(PoolTest, RejectsAWorkerItDidNotSpawn) {
  WorkerPool pool(options());
  FrameSocket client = connect_to(pool.socket_path());
  client.write(FrameType::kHello, hello(pool.secret(), 1, "3.11.7", 42));
  expect_closed(client);
  EXPECT_TRUE(
      log_.wait_for("rejected connection: HELLO from worker 42, which the pool did not spawn"))
      << log_.text();
}

TEST_F(PoolTest, RejectsGarbageAndOtherFirstFrames) {
  WorkerPool pool(options());
  {
    FrameSocket client = connect_to(pool.socket_path());
    const std::string request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    ASSERT_EQ(::send(client.fd(), request.data(), request.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(request.size()));
    expect_closed(client);
  }
  {
    FrameSocket client = connect_to(pool.socket_path());
    client.write(FrameType::kBatch, "data");
    expect_closed(client);
  }
  {
    FrameSocket client = connect_to(pool.socket_path());
    client.write(FrameType::kHello, "not json");
  }
  { FrameSocket client = connect_to(pool.socket_path()); }
  EXPECT_TRUE(eventually([&] { return pool.stats().connections_rejected == 4; })) << log_.text();
  EXPECT_TRUE(log_.contains("rejected connection: the peer sent a frame of unknown type"))
      << log_.text();
  EXPECT_TRUE(log_.contains("rejected connection: its first frame is BATCH, not HELLO"))
      << log_.text();
  EXPECT_TRUE(log_.contains("rejected connection: its HELLO is not a JSON object")) << log_.text();
  EXPECT_TRUE(log_.contains("rejected connection: the peer closed the connection")) << log_.text();
  WorkerLease lease = pool.acquire();
  EXPECT_GT(lease->pid(), 0);
}

TEST_F(PoolTest, RefusesAForkServerOfAnotherPythonVersion) {
  PoolOptions settings = options();
  settings.expected_python_version = "2.7";
  const std::string message = error_message<WorkerFailure>([&] { WorkerPool pool(settings); });
  EXPECT_NE(message.find(", but the pool expects Python 2.7 and was killed before it was ready"),
            std::string::npos)
      << message;
}

TEST_F(PoolTest, AMissingInterpreterIsAClearFailure) {
  PoolOptions settings = options();
  settings.python_executable = "/nonexistent/python3";
  const int fds_before = count_open_fds();
  EXPECT_EQ(error_message<WorkerFailure>([&] { WorkerPool pool(settings); }),
            "cannot start the Python fork server (/nonexistent/python3 -m bowstring.worker "
            "--fork-server): /nonexistent/python3: No such file or directory");
  EXPECT_EQ(count_open_fds(), fds_before);
  EXPECT_EQ(descendants(), std::vector<pid_t>{});
}

TEST_F(PoolTest, AForkServerThatCannotStartShowsItsOutput) {
  PoolOptions settings = options();
  settings.environment["PYTHONPATH"] = "/nonexistent";
  const std::string message = error_message<WorkerFailure>([&] { WorkerPool pool(settings); });
  EXPECT_NE(message.find(") exited with code 1 before it was ready ("), std::string::npos)
      << message;
  EXPECT_NE(message.find("\nIts last output:\n"), std::string::npos) << message;
  EXPECT_NE(message.find("No module named"), std::string::npos) << message;
  EXPECT_TRUE(output_.contains("[fork server] ")) << output_.text();
}

TEST_F(PoolTest, AForkServerThatNeverGetsReadyTimesOut) {
  const std::filesystem::path script =
      std::filesystem::temp_directory_path() / ("bowstring-sleeper-" + std::to_string(::getpid()));
  {
    std::ofstream out(script);
    out << "#!/bin/sh\necho starting\nexec sleep 60\n";
  }
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  PoolOptions settings = options();
  settings.python_executable = script;
  settings.start_timeout = milliseconds(300);
  const std::string message = error_message<WorkerFailure>([&] { WorkerPool pool(settings); });
  std::filesystem::remove(script);
  EXPECT_NE(message.find(") did not become ready within 300 ms and was killed ("),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("\nIts last output:\n  starting"), std::string::npos) << message;
  EXPECT_TRUE(output_.contains("[fork server] starting")) << output_.text();
  EXPECT_EQ(descendants(), std::vector<pid_t>{});
}

TEST_F(PoolTest, AForkServerThatDiesStopsNewWorkers) {
  WorkerPool pool(options());
  const pid_t fork_server = pool.fork_server_pid();
  ASSERT_EQ(::kill(fork_server, SIGKILL), 0);
  EXPECT_TRUE(log_.wait_for("no more workers can start")) << log_.text();
  const std::string message = error_message<WorkerFailure>([&] { pool.acquire(); });
  EXPECT_EQ(message.rfind("cannot start a Python worker: the Python fork server (pid " +
                              std::to_string(fork_server) + ") was killed by signal 9 (SIGKILL)",
                          0),
            0u)
      << message;
  pool.shutdown();
  EXPECT_EQ(descendants(), std::vector<pid_t>{});
}

TEST(PythonExceptionTest, ShowsTheTracebackOrTheException) {
  const PythonException with_traceback("ZeroDivisionError", "division by zero",
                                       "Traceback (most recent call last):\n  File \"<udf>\", "
                                       "line 1\nZeroDivisionError: division by zero\n",
                                       3);
  EXPECT_EQ(std::string(with_traceback.what()),
            "Traceback (most recent call last):\n  File \"<udf>\", line 1\nZeroDivisionError: "
            "division by zero\n");
  EXPECT_EQ(with_traceback.exception_type(), "ZeroDivisionError");
  EXPECT_EQ(with_traceback.batch(), 3);
  const PythonException without("TypeError", "wrong result", "", std::nullopt);
  EXPECT_EQ(std::string(without.what()), "TypeError: wrong result");
  EXPECT_EQ(without.batch(), std::nullopt);
}

}  // namespace
}  // namespace bowstring::udf
