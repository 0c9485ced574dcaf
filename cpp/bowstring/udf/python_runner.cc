#include "bowstring/udf/python_runner.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/udf/batch_frames.h"
#include "bowstring/udf/errors.h"
#include "bowstring/udf/partitioning.h"
#include "bowstring/util/error.h"

namespace bowstring::udf {

namespace {

constexpr std::pair<FunctionKind, std::string_view> kFunctionKinds[] = {
    {FunctionKind::kArrow, "arrow"},
    {FunctionKind::kPandas, "pandas"},
    {FunctionKind::kPandasSeries, "pandas_series"},
    {FunctionKind::kPandasSeriesIter, "pandas_series_iter"},
    {FunctionKind::kRows, "rows"},
};

constexpr std::pair<Transport, std::string_view> kTransports[] = {
    {Transport::kSocket, "socket"},
    {Transport::kSharedMemory, "shm"},
};

template <typename Enum, size_t N>
Enum parse_name(const std::pair<Enum, std::string_view> (&names)[N], std::string_view name,
                const char* what) {
  std::string valid;
  for (const auto& [value, value_name] : names) {
    if (value_name == name) {
      return value;
    }
    valid += (valid.empty() ? "" : ", ") + std::string(value_name);
  }
  throw InvalidArgument("unknown " + std::string(what) + " '" + std::string(name) +
                        "'; expected one of " + valid);
}

template <typename Enum, size_t N>
std::string_view name_of(const std::pair<Enum, std::string_view> (&names)[N], Enum value) {
  for (const auto& [candidate, name] : names) {
    if (candidate == value) {
      return name;
    }
  }
  return "unknown";
}

}  // namespace

std::string_view function_kind_name(FunctionKind kind) { return name_of(kFunctionKinds, kind); }

FunctionKind parse_function_kind(std::string_view name) {
  return parse_name(kFunctionKinds, name, "Python function kind");
}

std::string_view transport_name(Transport transport) { return name_of(kTransports, transport); }

Transport parse_transport(std::string_view name) {
  return parse_name(kTransports, name, "batch transport");
}

Transport default_transport() { return Transport::kSocket; }

namespace {

// Results of one partition that may wait in memory for `next()`; the worker producing them is
// held back (its socket fills) until the reader catches up. Counted in batches, not bytes: the
// engine cannot cut a result it has not read, so any byte limit would still have to admit one
// whole batch, and result batches are sized by the function (typically like its input batches,
// which `max_records_per_batch` and `max_bytes_per_batch` bound). At most `window_` partitions
// hold results at once, so a run holds at most `window_ * kQueuedResults` result batches (unless
// another run waits for a worker: see `deliver`).
constexpr size_t kQueuedResults = 8;
// How often a partition waiting for room checks whether another run waits for a worker.
constexpr std::chrono::milliseconds kStarvationCheckInterval{100};
constexpr int64_t kDefaultPartitionRows = 1000000;

// A worker sent something the protocol does not allow; the message says what.
class ProtocolError : public Error {
 public:
  using Error::Error;
};

// The run was stopped (cancelled, or another partition failed) while this partition ran.
struct Aborted {};

std::string schema_stream(const SchemaPtr& schema) {
  auto sink = std::make_shared<BufferOutputStream>();
  ipc::StreamWriter writer(sink, schema);
  writer.close();
  const std::shared_ptr<Buffer> bytes = sink->finish();
  return {reinterpret_cast<const char*>(bytes->data()), static_cast<size_t>(bytes->size())};
}

// The COMMAND payload: the JSON header's length (u32, little-endian), the header, the input and
// output schemas and the pickled function.
std::string command_payload(const PythonFunction& function, const SchemaPtr& input_schema,
                            const RunOptions& options) {
  const std::string input = schema_stream(input_schema);
  const std::string output = schema_stream(function.output_schema);
  nlohmann::json config = nlohmann::json::object();
  for (const auto& [key, value] : options.config) {
    config[key] = value;
  }
  config["session_time_zone"] = options.session_time_zone;
  config["max_records_per_batch"] = std::to_string(options.max_records_per_batch);
  const nlohmann::json header = {
      {"kind", function_kind_name(function.kind)},
      {"name", function.name},
      {"transport", transport_name(options.transport)},
      {"input_schema_length", input.size()},
      {"output_schema_length", output.size()},
      {"function_length", function.pickled.size()},
      {"config", config},
  };
  const std::string header_text =
      header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const auto header_length = static_cast<uint32_t>(header_text.size());
  std::string payload;
  payload.reserve(4 + header_text.size() + input.size() + output.size() + function.pickled.size());
  for (int shift = 0; shift < 32; shift += 8) {
    payload.push_back(static_cast<char>((header_length >> shift) & 0xff));
  }
  payload += header_text;
  payload += input;
  payload += output;
  payload += function.pickled;
  return payload;
}

nlohmann::json parse_json_object(const Frame& frame) {
  nlohmann::json object;
  try {
    object = nlohmann::json::parse(frame.text());
  } catch (const nlohmann::json::exception& error) {
    throw ProtocolError("sent a " + frame_type_name(frame.type) +
                        " payload that is not JSON: " + excerpt(error.what()));
  }
  if (!object.is_object()) {
    throw ProtocolError("sent a " + frame_type_name(frame.type) +
                        " payload that is not a JSON object: " + excerpt(frame.text()));
  }
  return object;
}

const nlohmann::json& field_of(const nlohmann::json& object, const Frame& frame, const char* name,
                               bool (nlohmann::json::*is_kind)() const noexcept, const char* kind) {
  const auto found = object.find(name);
  if (found == object.end() || !((*found).*is_kind)()) {
    throw ProtocolError("sent a " + frame_type_name(frame.type) + " payload without " + kind +
                        " \"" + name + "\": " + excerpt(frame.text()));
  }
  return *found;
}

RunMetrics parse_complete(const Frame& frame) {
  const nlohmann::json object = parse_json_object(frame);
  const auto integer = [&](const char* name) {
    return field_of(object, frame, name, &nlohmann::json::is_number_integer, "the integer")
        .get<int64_t>();
  };
  RunMetrics metrics;
  metrics.partitions = 1;
  metrics.rows_in = integer("rows_in");
  metrics.batches_in = integer("batches_in");
  metrics.rows_out = integer("rows_out");
  metrics.batches_out = integer("batches_out");
  metrics.function_seconds =
      field_of(object, frame, "function_seconds", &nlohmann::json::is_number, "the number")
          .get<double>();
  metrics.peak_memory_bytes = integer("peak_memory_bytes");
  return metrics;
}

PythonException parse_error(const Frame& frame) {
  const nlohmann::json object = parse_json_object(frame);
  const auto text = [&](const char* name) {
    return field_of(object, frame, name, &nlohmann::json::is_string, "the string")
        .get<std::string>();
  };
  const auto batch = object.find("batch");
  if (batch == object.end() || !(batch->is_null() || batch->is_number_integer())) {
    throw ProtocolError("sent an ERROR payload without the integer or null \"batch\": " +
                        excerpt(frame.text()));
  }
  return PythonException(
      text("exception"), text("message"), text("traceback"),
      batch->is_null() ? std::nullopt : std::optional<int64_t>(batch->get<int64_t>()));
}

bool is_io_error(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const IoError&) {
    return true;
  } catch (...) {
    return false;
  }
}

// Writes a partition's input to a worker on its own thread: the batches (cut to the run's
// limits), then END_OF_DATA. `stop()` makes it skip the batches not yet sent.
class InputFeed {
 public:
  InputFeed(FrameSocket& socket, const std::vector<RecordBatch>& batches, const RunOptions& options)
      : socket_(socket), batches_(batches), options_(options), thread_([this] { run(); }) {}

  // Should the thread still be blocked on the socket, shutting the socket down wakes it.
  ~InputFeed() {
    if (thread_.joinable()) {
      socket_.shutdown();
      thread_.join();
    }
  }
  InputFeed(const InputFeed&) = delete;
  InputFeed& operator=(const InputFeed&) = delete;

  void stop() { stop_ = true; }

  // Waits for the thread; returns what made it fail, if anything did.
  std::exception_ptr join() {
    if (thread_.joinable()) {
      thread_.join();
    }
    return error_;
  }

 private:
  void run() {
    try {
      write_batches();
      socket_.write(FrameType::kEndOfData);
    } catch (...) {
      error_ = std::current_exception();
      // The input cannot be completed: the call is lost either way, and the reading thread
      // must not wait for results the worker will never finish.
      if (!is_io_error(error_)) {
        socket_.shutdown();
      }
    }
  }

  void write_batches() {
    for (const RecordBatch& batch : batches_) {
      for (const RecordBatch& slice :
           split_batch(batch, options_.max_records_per_batch, options_.max_bytes_per_batch)) {
        if (stop_) {
          return;
        }
        if (options_.transport == Transport::kSharedMemory) {
          write_shm_batch_frame(socket_, slice);
        } else {
          write_batch_frame(socket_, slice);
        }
      }
    }
  }

  FrameSocket& socket_;
  const std::vector<RecordBatch>& batches_;
  const RunOptions& options_;
  std::atomic<bool> stop_{false};
  std::exception_ptr error_;
  std::thread thread_;
};

// SHM_BATCH frames are a few bytes in the socket but each holds a whole batch in its memory
// file: with the send buffer at its minimum a few of them are in flight, as the bytes of BATCH
// frames fill the buffer, rather than over a hundred. The buffer is restored after the call.
class SendBufferLimit {
 public:
  SendBufferLimit(int socket, bool limit) : socket_(socket) {
    socklen_t length = sizeof(saved_);
    if (limit && ::getsockopt(socket_, SOL_SOCKET, SO_SNDBUF, &saved_, &length) == 0) {
      const int smallest = 1;
      active_ = ::setsockopt(socket_, SOL_SOCKET, SO_SNDBUF, &smallest, sizeof(smallest)) == 0;
    }
  }
  // The system doubles what is set (for its bookkeeping) and reports the doubled size.
  ~SendBufferLimit() {
    if (active_) {
      const int size = saved_ / 2;
      ::setsockopt(socket_, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
    }
  }
  SendBufferLimit(const SendBufferLimit&) = delete;
  SendBufferLimit& operator=(const SendBufferLimit&) = delete;

 private:
  int socket_;
  int saved_ = 0;
  bool active_ = false;
};

class RunReader final : public PythonRunReader {
 public:
  RunReader(std::shared_ptr<WorkerPool> pool, PythonFunction function,
            std::unique_ptr<RecordBatchReader> input, RunOptions options)
      : pool_(std::move(pool)),
        function_(std::move(function)),
        options_(std::move(options)),
        input_(std::move(input)),
        partitioner_(*input_,
                     options_.partition_rows > 0 ? options_.partition_rows : kDefaultPartitionRows),
        command_(command_payload(function_, input_->schema(), options_)),
        read_options_{} {
    const int slots =
        options_.parallelism > 0 ? options_.parallelism : std::max(1, pool_->options().max_workers);
    window_ = 2 * int64_t{slots};
    if (options_.timeout) {
      timeout_reason_ =
          "exceeded the call timeout of " + std::to_string(options_.timeout->count()) + " ms";
    }
    abort_.on_cancel([this] { kill_all(); });
    // A forked child may cancel the token it inherited: the run, its workers and its locks are
    // the parent's, so the callback acts only in the process that started the run.
    cancel_callback_ = options_.cancel.on_cancel([this, owner = ::getpid()] {
      if (::getpid() == owner) {
        stop("the call was cancelled", true);
      }
    });
    try {
      if (options_.timeout) {
        watchdog_ = std::thread([this] { watch(); });
      }
      running_slots_ = slots;
      for (int i = 0; i < slots; ++i) {
        slots_.emplace_back([this] { run_slot(); });
      }
    } catch (...) {
      {
        std::lock_guard lock(mutex_);
        running_slots_ -= slots - static_cast<int>(slots_.size());
      }
      shut_down();
      throw;
    }
  }

  ~RunReader() override { shut_down(); }

  SchemaPtr schema() const override { return function_.output_schema; }

  std::optional<RecordBatch> next() override {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return answerable(); });
    if (finished_) {
      return std::nullopt;
    }
    if (user_cancelled_) {
      throw Cancelled("the call was cancelled");
    }
    const auto current = partitions_.find(current_);
    if (current != partitions_.end() && !current->second.results.empty()) {
      RecordBatch batch = std::move(current->second.results.front());
      current->second.results.pop_front();
      changed_.notify_all();
      return batch;
    }
    if (current == partitions_.end() && input_done_ && current_ >= claimed_ && !failure_) {
      finished_ = true;
      return std::nullopt;
    }
    std::rethrow_exception(failure_);
  }

  bool wait_next(std::chrono::milliseconds timeout) override {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return answerable(); });
  }

  RunMetrics metrics() const override {
    std::lock_guard lock(mutex_);
    return metrics_;
  }

  void cancel() override { options_.cancel.cancel(); }

 private:
  struct Partition {
    std::deque<RecordBatch> results;
    bool completed = false;
    // Keeps every result rather than waiting for room (see `deliver`).
    bool unbounded = false;
  };

  // Needs `mutex_`. Moves past the partitions read to their end; true when `next()` can answer
  // without waiting: with a result, the end, or the run's error.
  bool answerable() {
    while (true) {
      if (finished_ || user_cancelled_) {
        return true;
      }
      const auto current = partitions_.find(current_);
      if (current != partitions_.end()) {
        if (!current->second.results.empty()) {
          return true;
        }
        if (current->second.completed) {
          partitions_.erase(current);
          ++current_;
          changed_.notify_all();
          continue;
        }
      } else if (input_done_ && current_ >= claimed_ && !failure_) {
        return true;
      }
      // An earlier partition may still fail while others run: the first error in input order
      // is final once it is the current partition's, or once nothing runs any more.
      return failure_ && (failed_partition_ == current_ || running_slots_ == 0);
    }
  }

  // A partition being processed by a worker, for the watchdog and for cancellation.
  struct Call {
    Worker* worker;
    std::chrono::steady_clock::time_point deadline;
    bool killed = false;
    bool timed_out = false;
    // Waiting for room in the result queue: the deadline moves on by the time waited.
    bool paused = false;
  };

  // Registers a call for as long as it runs; a call that was killed loses its worker.
  class ActiveCall {
   public:
    ActiveCall(RunReader& run, WorkerLease& lease) : run_(run), lease_(lease) {
      std::lock_guard lock(run_.mutex_);
      const auto deadline = run_.options_.timeout
                                ? std::chrono::steady_clock::now() + *run_.options_.timeout
                                : std::chrono::steady_clock::time_point::max();
      call_ = run_.calls_.insert(run_.calls_.end(), Call{&lease.worker(), deadline});
      if (run_.aborted_) {
        run_.kill_call(*call_, run_.abort_reason_);
      }
      run_.watchdog_wake_.notify_all();
    }
    ~ActiveCall() {
      std::lock_guard lock(run_.mutex_);
      if (call_->killed) {
        lease_.discard();
      }
      run_.calls_.erase(call_);
    }
    ActiveCall(const ActiveCall&) = delete;
    ActiveCall& operator=(const ActiveCall&) = delete;

    Call& call() { return *call_; }

   private:
    RunReader& run_;
    WorkerLease& lease_;
    std::list<Call>::iterator call_;
  };

  void run_slot() {
    while (true) {
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock,
                      [&] { return aborted_ || input_done_ || claimed_ - current_ < window_; });
        if (aborted_ || input_done_) {
          break;
        }
      }
      std::optional<std::vector<RecordBatch>> batches;
      std::optional<WorkerLease> lease;
      int64_t index = 0;
      {
        // Claiming a partition and leasing its worker happen together, so workers go to the
        // run's partitions in input order: whenever later partitions hold workers (waiting on
        // their full queues, say), the partition being read holds one too, or is the run's only
        // partition waiting for one.
        std::lock_guard input_lock(input_mutex_);
        {
          // Another slot may have reached the end of the input (or failed reading it) first.
          std::lock_guard lock(mutex_);
          if (aborted_ || input_done_) {
            break;
          }
        }
        std::exception_ptr input_error;
        try {
          batches = partitioner_.next();
        } catch (...) {
          input_error = std::current_exception();
        }
        std::unique_lock lock(mutex_);
        if (!batches) {
          input_done_ = true;
          changed_.notify_all();
          if (!input_error) {
            break;
          }
        }
        index = claimed_++;
        partitions_.emplace(index, Partition{});
        if (input_error) {
          fail(index, input_error, lock);
          break;
        }
        lock.unlock();
        lease = lease_worker(index);
      }
      if (lease) {
        run_partition(index, std::move(*lease), *batches);
      }
    }
    std::lock_guard lock(mutex_);
    --running_slots_;
    changed_.notify_all();
  }

  // A worker for partition `index`; nullopt when the run stopped meanwhile or no worker can be
  // had (the partition's error is then recorded).
  std::optional<WorkerLease> lease_worker(int64_t index) {
    try {
      return pool_->acquire(abort_, this);
    } catch (const Cancelled&) {
      // Only the run's own stop token cancels a wait for a worker.
    } catch (const InvalidArgument& error) {
      // The pool was shut down while this partition waited for a worker: the run lost its
      // workers, whichever partition notices first.
      std::unique_lock lock(mutex_);
      fail(
          index,
          std::make_exception_ptr(WorkerFailure("partition " + std::to_string(index) +
                                                " could not get a Python worker: " + error.what())),
          lock);
    } catch (...) {
      std::unique_lock lock(mutex_);
      fail(index, std::current_exception(), lock);
    }
    return std::nullopt;
  }

  void run_partition(int64_t index, WorkerLease lease, const std::vector<RecordBatch>& batches) {
    try {
      // The worker goes back to the pool before the partition counts as complete.
      const RunMetrics metrics = call_worker(index, std::move(lease), batches);
      std::lock_guard lock(mutex_);
      partitions_.at(index).completed = true;
      metrics_.partitions += metrics.partitions;
      metrics_.rows_in += metrics.rows_in;
      metrics_.batches_in += metrics.batches_in;
      metrics_.rows_out += metrics.rows_out;
      metrics_.batches_out += metrics.batches_out;
      metrics_.function_seconds += metrics.function_seconds;
      metrics_.peak_memory_bytes = std::max(metrics_.peak_memory_bytes, metrics.peak_memory_bytes);
      changed_.notify_all();
    } catch (const Aborted&) {
      // The error that stopped the run is reported, not this partition's.
    } catch (...) {
      std::unique_lock lock(mutex_);
      fail(index, std::current_exception(), lock);
    }
  }

  // Runs one partition through one worker; returns the worker's COMPLETE metrics.
  RunMetrics call_worker(int64_t index, WorkerLease lease,
                         const std::vector<RecordBatch>& batches) {
    ActiveCall active(*this, lease);
    Worker& worker = lease.worker();
    FrameSocket& socket = worker.socket();
    const SendBufferLimit send_buffer(socket.fd(), options_.transport == Transport::kSharedMemory);
    std::optional<InputFeed> feed;
    try {
      socket.write(FrameType::kCommand, command_);
      feed.emplace(socket, batches, options_);
      const RunMetrics metrics = read_results(index, worker, active.call());
      // The worker completes only after reading its input up to END_OF_DATA (it drops what the
      // function left unread), so the writer is done; were it not, the rest is not sent.
      feed->stop();
      if (feed->join() != nullptr) {
        lease.discard();
      }
      return metrics;
    } catch (const PythonException&) {
      // The worker discards input up to END_OF_DATA and is then ready for another call.
      if (feed) {
        feed->stop();
        if (feed->join() != nullptr) {
          lease.discard();
        }
      }
      throw;
    } catch (...) {
      lease.discard();
      const std::exception_ptr error = std::current_exception();
      socket.shutdown();
      const std::exception_ptr feed_error = feed ? feed->join() : nullptr;
      throw_call_failure(index, worker, active.call(), error, feed_error);
    }
  }

  // Reads the results of one call up to COMPLETE (returned) or ERROR (thrown).
  RunMetrics read_results(int64_t index, Worker& worker, Call& call) {
    FrameSocket& socket = worker.socket();
    int64_t received = 0;
    while (true) {
      const Frame frame = socket.read();
      if (frame.type == FrameType::kEndOfData) {
        break;
      }
      if (frame.type != FrameType::kBatch && frame.type != FrameType::kShmBatch) {
        throw ProtocolError("sent " + frame_type_name(frame.type) +
                            " where a result batch or END_OF_DATA belongs");
      }
      if (!deliver(index, call, decode_result(frame, received))) {
        throw Aborted{};
      }
      ++received;
    }
    const Frame last = socket.read();
    switch (last.type) {
      case FrameType::kComplete:
        return parse_complete(last);
      case FrameType::kError:
        throw parse_error(last);
      default:
        throw ProtocolError("sent " + frame_type_name(last.type) +
                            " after END_OF_DATA where COMPLETE or ERROR belongs");
    }
  }

  // The result batch a frame carries, with the function's declared output schema.
  RecordBatch decode_result(const Frame& frame, int64_t number) {
    RecordBatch batch = [&] {
      try {
        return read_batch_frame(frame, read_options_);
      } catch (const Error& error) {
        throw ProtocolError("sent result batch " + std::to_string(number) +
                            " that cannot be read: " + error.what());
      }
    }();
    const Schema& expected = *function_.output_schema;
    const Schema& got = *batch.schema();
    bool matches = got.num_fields() == expected.num_fields();
    for (int i = 0; matches && i < expected.num_fields(); ++i) {
      const Field& want = *expected.field(i);
      const Field& have = *got.field(i);
      matches = have.name() == want.name() && have.type()->equals(*want.type()) &&
                (want.nullable() || batch.column(i).null_count() == 0);
    }
    if (!matches) {
      throw ProtocolError("sent result batch " + std::to_string(number) + " with the schema\n" +
                          got.to_string() + "\nwhere the function's output schema is\n" +
                          expected.to_string());
    }
    return {function_.output_schema, batch.num_rows(), batch.columns()};
  }

  // Queues a result of partition `index`, waiting while `kQueuedResults` of them wait for
  // `next()`. False when the call was stopped meanwhile.
  //
  // A partition that waits so holds its worker until the reader takes its results, which could
  // starve another run sharing the pool for good (one whose results are read first, or in turns
  // with this one's; with one worker, even this run's partition being read blocks the caller
  // that reads the other run). So while a caller outside this run waits for a worker, such a
  // partition stops waiting and keeps the rest of its results, so that its worker finishes and
  // goes back: memory grows only while runs compete for too few workers.
  bool deliver(int64_t index, Call& call, RecordBatch batch) {
    std::unique_lock lock(mutex_);
    Partition& partition = partitions_.at(index);
    const auto has_room = [&] {
      return call.killed || partition.unbounded || partition.results.size() < kQueuedResults;
    };
    if (!has_room()) {
      // Time spent waiting for the caller to take results does not count against the call's
      // timeout: the function is not what is slow.
      const auto start = std::chrono::steady_clock::now();
      call.paused = true;
      while (!changed_.wait_for(lock, kStarvationCheckInterval, has_room)) {
        if (pool_->others_waiting(this)) {
          partition.unbounded = true;
        }
      }
      call.paused = false;
      if (call.deadline != std::chrono::steady_clock::time_point::max()) {
        call.deadline += std::chrono::steady_clock::now() - start;
      }
      watchdog_wake_.notify_all();
    }
    if (call.killed) {
      return false;
    }
    partition.results.push_back(std::move(batch));
    changed_.notify_all();
    return true;
  }

  // Turns what ended a call early into the partition's error (or `Aborted`). The worker has
  // been discarded and the input writer has stopped.
  [[noreturn]] void throw_call_failure(int64_t index, Worker& worker, const Call& call,
                                       const std::exception_ptr& error,
                                       const std::exception_ptr& feed_error) {
    if (feed_error != nullptr && !is_io_error(feed_error)) {
      std::rethrow_exception(feed_error);
    }
    bool killed = false;
    bool timed_out = false;
    {
      std::lock_guard lock(mutex_);
      killed = call.killed;
      timed_out = call.timed_out;
    }
    const std::string context = "Python function '" + function_.name + "' failed on partition " +
                                std::to_string(index) + ": ";
    if (timed_out) {
      throw WorkerFailure(context + worker.describe_failure());
    }
    if (killed) {
      throw Aborted{};
    }
    try {
      std::rethrow_exception(error);
    } catch (const ProtocolError& violation) {
      worker.kill("it " + std::string(violation.what()));
      throw WorkerFailure(context + worker.describe_failure());
    } catch (const OutOfMemory& failure) {
      // A result frame too large to hold: the worker waits to send it, so it is killed.
      const std::string what = failure.what();
      const std::string& peer = worker.socket().peer();
      worker.kill(what.starts_with(peer + " sent ") ? "it" + what.substr(peer.size()) : what);
      throw WorkerFailure(context + worker.describe_failure());
    } catch (const IoError& failure) {
      const std::string what = failure.what();
      const std::string& peer = worker.socket().peer();
      if (what.starts_with(peer + " sent ")) {
        // A broken frame: the worker may be alive and busy, so it is killed for its end to be
        // known at once (rather than after waiting for an exit that does not come).
        worker.kill("it" + what.substr(peer.size()));
        throw WorkerFailure(context + worker.describe_failure());
      }
      // A connection that ended at a frame boundary is explained by how the worker ended;
      // anything else (a connection closed inside a frame) is worth showing too.
      const std::string detail =
          what == peer + " closed the connection" ? "" : "\nThe connection failed: " + what;
      throw WorkerFailure(context + worker.describe_failure() + detail);
    }
  }

  // Records partition `index`'s error and stops the rest of the run.
  void fail(int64_t index, std::exception_ptr error, std::unique_lock<std::mutex>& lock) {
    if (!failure_ || index < failed_partition_) {
      failure_ = std::move(error);
      failed_partition_ = index;
    }
    changed_.notify_all();
    lock.unlock();
    stop("another partition of the run failed", false);
    lock.lock();
  }

  // Stops the run: every worker in use is killed, every wait wakes.
  void stop(const char* reason, bool by_user) {
    {
      std::lock_guard lock(mutex_);
      if (abort_reason_.empty()) {
        abort_reason_ = reason;
      }
      user_cancelled_ = user_cancelled_ || by_user;
      changed_.notify_all();
    }
    abort_.cancel();
  }

  void kill_all() {
    std::lock_guard lock(mutex_);
    aborted_ = true;
    for (Call& call : calls_) {
      if (!call.killed) {
        kill_call(call, abort_reason_);
      }
    }
    changed_.notify_all();
  }

  // Needs `mutex_`. Killing the process closes its end of the socket; shutting down ours wakes
  // this engine's threads at once.
  void kill_call(Call& call, const std::string& reason) {
    call.killed = true;
    call.worker->kill(reason);
    call.worker->socket().shutdown();
    changed_.notify_all();
  }

  void watch() {
    std::unique_lock lock(mutex_);
    while (!closing_) {
      const auto now = std::chrono::steady_clock::now();
      auto next_deadline = std::chrono::steady_clock::time_point::max();
      for (Call& call : calls_) {
        if (call.killed || call.paused) {
          continue;
        }
        if (call.deadline <= now) {
          call.timed_out = true;
          kill_call(call, timeout_reason_);
        } else {
          next_deadline = std::min(next_deadline, call.deadline);
        }
      }
      if (next_deadline == std::chrono::steady_clock::time_point::max()) {
        watchdog_wake_.wait(lock);
      } else {
        watchdog_wake_.wait_until(lock, next_deadline);
      }
    }
  }

  void shut_down() {
    // After this no cancellation of the caller's token reaches this object.
    options_.cancel.remove_callback(cancel_callback_);
    stop("the run's results were abandoned", false);
    for (std::thread& slot : slots_) {
      slot.join();
    }
    slots_.clear();
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
      watchdog_wake_.notify_all();
    }
    if (watchdog_.joinable()) {
      watchdog_.join();
    }
  }

  const std::shared_ptr<WorkerPool> pool_;
  const PythonFunction function_;
  RunOptions options_;

  std::mutex input_mutex_;
  const std::unique_ptr<RecordBatchReader> input_;
  Partitioner partitioner_;

  const std::string command_;
  const ipc::ReadOptions read_options_;
  int64_t window_ = 0;
  std::string timeout_reason_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::condition_variable watchdog_wake_;
  std::map<int64_t, Partition> partitions_;
  int64_t claimed_ = 0;
  int64_t current_ = 0;
  bool input_done_ = false;
  RunMetrics metrics_;
  std::exception_ptr failure_;
  int64_t failed_partition_ = 0;
  bool finished_ = false;
  bool user_cancelled_ = false;
  bool aborted_ = false;
  bool closing_ = false;
  std::string abort_reason_;
  std::list<Call> calls_;
  int running_slots_ = 0;

  CancellationToken abort_;
  int64_t cancel_callback_ = -1;
  std::vector<std::thread> slots_;
  std::thread watchdog_;
};

// The reader `run_python` hands out. A process forked while the run goes on inherits its memory
// but not its threads, and its workers stay the parent's: there the run refuses use, and its
// destruction (which would join threads of the parent and stop the parent's workers) leaves the
// copy as it is, as the pool's does.
class ForkAwareRunReader final : public PythonRunReader {
 public:
  explicit ForkAwareRunReader(std::unique_ptr<RunReader> run)
      : owner_pid_(::getpid()), run_(std::move(run)) {}
  ~ForkAwareRunReader() override {
    if (::getpid() != owner_pid_) {
      static_cast<void>(run_.release());
    }
  }
  ForkAwareRunReader(const ForkAwareRunReader&) = delete;
  ForkAwareRunReader& operator=(const ForkAwareRunReader&) = delete;

  SchemaPtr schema() const override { return run_->schema(); }
  std::optional<RecordBatch> next() override { return owned().next(); }
  bool wait_next(std::chrono::milliseconds timeout) override { return owned().wait_next(timeout); }
  RunMetrics metrics() const override { return owned().metrics(); }
  void cancel() override { owned().cancel(); }

 private:
  RunReader& owned() const {
    if (::getpid() != owner_pid_) {
      throw InvalidArgument("the run of a Python function was started by process " +
                            std::to_string(owner_pid_) + " and cannot be used by process " +
                            std::to_string(::getpid()) + ", forked from it");
    }
    return *run_;
  }

  const pid_t owner_pid_;
  std::unique_ptr<RunReader> run_;
};

void check_options(const PythonFunction& function, const RunOptions& options) {
  const auto positive = [](int64_t value, const char* name) {
    if (value <= 0) {
      throw InvalidArgument(std::string(name) + " must be positive, got " + std::to_string(value));
    }
  };
  const auto not_negative = [](int64_t value, const char* name) {
    if (value < 0) {
      throw InvalidArgument(std::string(name) + " must not be negative, got " +
                            std::to_string(value));
    }
  };
  if (function.output_schema == nullptr) {
    throw InvalidArgument("Python function '" + function.name + "' has no output schema");
  }
  positive(options.max_records_per_batch, "max_records_per_batch");
  positive(options.max_bytes_per_batch, "max_bytes_per_batch");
  not_negative(options.parallelism, "parallelism");
  not_negative(options.partition_rows, "partition_rows");
  if (options.timeout) {
    positive(options.timeout->count(), "the timeout in milliseconds");
  }
}

}  // namespace

std::unique_ptr<PythonRunReader> run_python(std::shared_ptr<WorkerPool> pool,
                                            PythonFunction function,
                                            std::unique_ptr<RecordBatchReader> input,
                                            RunOptions options) {
  if (pool == nullptr) {
    throw InvalidArgument("running a Python function needs a worker pool");
  }
  if (input == nullptr) {
    throw InvalidArgument("running Python function '" + function.name + "' needs an input");
  }
  check_options(function, options);
  pool->check_owned();
  return std::make_unique<ForkAwareRunReader>(std::make_unique<RunReader>(
      std::move(pool), std::move(function), std::move(input), std::move(options)));
}

}  // namespace bowstring::udf
