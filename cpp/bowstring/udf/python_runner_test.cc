#include "bowstring/udf/python_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bowstring/memory/allocator.h"
#include "bowstring/table/table.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/ipc_testing.h"
#include "bowstring/testing/pickle_testing.h"
#include "bowstring/testing/python_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/udf/errors.h"

namespace bowstring::udf {
namespace {

using testing::batch_of;
using testing::error_message;

constexpr Transport kTransports[] = {Transport::kSocket, Transport::kSharedMemory};

// Rows [first, first + rows): v = i, x = i / 2 (null when i % 11 == 0), s = "row i".
RecordBatch numbers(int64_t first, int64_t rows) {
  std::vector<std::optional<int64_t>> v;
  std::vector<std::optional<double>> x;
  std::vector<std::optional<std::string>> s;
  for (int64_t i = first; i < first + rows; ++i) {
    v.emplace_back(i);
    x.emplace_back(i % 11 == 0 ? std::nullopt : std::optional<double>(0.5 * i));
    s.emplace_back("row " + std::to_string(i));
  }
  return batch_of(
      {{"v", testing::int64s(v)}, {"x", testing::doubles(x)}, {"s", testing::strings(s)}});
}

// `rows` rows of `numbers` in batches of `batch_rows`.
Table numbers_table(int64_t rows, int64_t batch_rows) {
  std::vector<RecordBatch> batches;
  for (int64_t first = 0; first < rows; first += batch_rows) {
    batches.push_back(numbers(first, std::min(batch_rows, rows - first)));
  }
  return Table::from_batches(numbers(0, 0).schema(), batches);
}

std::unique_ptr<RecordBatchReader> reader_of(const Table& table) {
  return std::make_unique<TableBatchReader>(table);
}

PythonFunction function(FunctionKind kind, std::string_view source, SchemaPtr output_schema) {
  PythonFunction function;
  function.name = "f";
  function.kind = kind;
  function.pickled = testing::pickle_function(source);
  function.output_schema = std::move(output_schema);
  return function;
}

const char* const kIdentity = R"(
def f(batches):
    for batch in batches:
        yield batch
)";

PythonFunction identity() {
  return function(FunctionKind::kArrow, kIdentity, numbers(0, 0).schema());
}

std::vector<int64_t> column_values(const Table& table, int column) {
  std::vector<int64_t> values;
  for (const Array& chunk : table.column(column).chunks()) {
    const int64_t* data = chunk.data()->values<int64_t>(1);
    values.insert(values.end(), data, data + chunk.length());
  }
  return values;
}

std::vector<int64_t> iota_values(int64_t count) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < count; ++i) {
    values.push_back(i);
  }
  return values;
}

// One pool (its fork server takes a while to start) serves every test of the suite.
class PythonRunnerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    pool_ = std::make_shared<WorkerPool>(testing::python_pool_options(&output_, &log_));
  }

  static void TearDownTestSuite() { pool_.reset(); }

  const std::shared_ptr<WorkerPool>& pool() const { return pool_; }

  // Runs `function` over `input` to the end.
  Table run(const PythonFunction& function, const Table& input, RunOptions options = {}) {
    const std::unique_ptr<PythonRunReader> reader =
        run_python(pool(), function, reader_of(input), std::move(options));
    return reader->read_all();
  }

  // Starts a run on `on` whose function yields each batch 20 times (more than a partition keeps
  // waiting for the reader) and leaves it unread until its queues are full, holding workers;
  // then reads a second run on the same pool to the end, then the first one.
  void expect_runs_read_out_of_order_finish(const std::shared_ptr<WorkerPool>& on,
                                            RunOptions options, int64_t input_rows) {
    const char* const source = R"(
def f(batches):
    for batch in batches:
        for _ in range(20):
            yield batch
)";
    const PythonFunction repeat = function(FunctionKind::kArrow, source, numbers(0, 0).schema());
    const std::unique_ptr<PythonRunReader> unread =
        run_python(on, repeat, reader_of(numbers_table(input_rows, 10)), options);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    options.cancel = CancellationToken();
    const std::unique_ptr<PythonRunReader> read =
        run_python(on, repeat, reader_of(numbers_table(input_rows, 10)), options);
    int64_t rows = 0;
    try {
      // Were the second run starved, the guard cancels it (failing the test) rather than hang.
      const testing::CancelAfter guard(options.cancel, std::chrono::seconds(60));
      while (const std::optional<RecordBatch> batch = read->next()) {
        rows += batch->num_rows();
      }
    } catch (const Cancelled&) {
      ADD_FAILURE() << "the run read first got no worker within 60 s";
    }
    EXPECT_EQ(rows, input_rows * 20);
    EXPECT_EQ(unread->read_all().num_rows(), input_rows * 20);
  }

  // After a failure: the pool still runs a function correctly (replacing a lost worker).
  void expect_pool_serves_runs() {
    const Table input = numbers_table(300, 100);
    EXPECT_TRUE(run(identity(), input).equals(input));
  }

  static inline testing::LineCollector output_;
  static inline testing::LineCollector log_;
  static inline std::shared_ptr<WorkerPool> pool_;
};

TEST(FunctionKind, NamesRoundTrip) {
  for (const FunctionKind kind :
       {FunctionKind::kArrow, FunctionKind::kPandas, FunctionKind::kPandasSeries,
        FunctionKind::kPandasSeriesIter, FunctionKind::kRows}) {
    EXPECT_EQ(parse_function_kind(function_kind_name(kind)), kind);
  }
  EXPECT_EQ(function_kind_name(FunctionKind::kPandasSeriesIter), "pandas_series_iter");
  EXPECT_EQ(error_message<InvalidArgument>([] { parse_function_kind("scalar"); }),
            "unknown Python function kind 'scalar'; expected one of arrow, pandas, "
            "pandas_series, pandas_series_iter, rows");
}

TEST(Transport, NamesRoundTrip) {
  EXPECT_EQ(transport_name(Transport::kSocket), "socket");
  EXPECT_EQ(transport_name(Transport::kSharedMemory), "shm");
  EXPECT_EQ(parse_transport("shm"), Transport::kSharedMemory);
  EXPECT_EQ(parse_transport(transport_name(default_transport())), default_transport());
  EXPECT_EQ(error_message<InvalidArgument>([] { parse_transport("pipe"); }),
            "unknown batch transport 'pipe'; expected one of socket, shm");
}

TEST_F(PythonRunnerTest, RefusesOptionsOutOfRange) {
  const auto refuses = [&](PythonFunction function, RunOptions options) {
    return error_message<InvalidArgument>([&] {
      run_python(pool(), std::move(function), reader_of(numbers_table(1, 1)), std::move(options));
    });
  };
  PythonFunction no_schema = identity();
  no_schema.output_schema = nullptr;
  EXPECT_EQ(refuses(no_schema, {}), "Python function 'f' has no output schema");
  RunOptions options;
  options.max_records_per_batch = 0;
  EXPECT_EQ(refuses(identity(), options), "max_records_per_batch must be positive, got 0");
  options = {};
  options.max_bytes_per_batch = -1;
  EXPECT_EQ(refuses(identity(), options), "max_bytes_per_batch must be positive, got -1");
  options = {};
  options.parallelism = -2;
  EXPECT_EQ(refuses(identity(), options), "parallelism must not be negative, got -2");
  options = {};
  options.partition_rows = -1;
  EXPECT_EQ(refuses(identity(), options), "partition_rows must not be negative, got -1");
  options = {};
  options.timeout = std::chrono::milliseconds(0);
  EXPECT_EQ(refuses(identity(), options), "the timeout in milliseconds must be positive, got 0");
  EXPECT_EQ(error_message<InvalidArgument>([&] { run_python(pool(), identity(), nullptr); }),
            "running Python function 'f' needs an input");
}

TEST_F(PythonRunnerTest, AnIdentityArrowFunctionReturnsItsInput) {
  const Table input = numbers_table(25000, 3000);
  for (const Transport transport : kTransports) {
    SCOPED_TRACE(std::string(transport_name(transport)));
    RunOptions options;
    options.transport = transport;
    options.max_records_per_batch = 1000;
    options.partition_rows = 7000;
    options.parallelism = 2;
    const std::unique_ptr<PythonRunReader> reader =
        run_python(pool(), identity(), reader_of(input), options);
    EXPECT_TRUE(reader->schema()->equals(*input.schema()));
    const Table output = reader->read_all();
    EXPECT_TRUE(output.equals(input));
    for (const Array& chunk : output.column(0).chunks()) {
      EXPECT_LE(chunk.length(), 1000);
    }
    const RunMetrics metrics = reader->metrics();
    EXPECT_EQ(metrics.partitions, 4);
    EXPECT_EQ(metrics.rows_in, 25000);
    EXPECT_EQ(metrics.rows_out, 25000);
    // Partitions of 7000 rows cut at input batch boundaries and every 1000 rows: 7, 7, 7, 4.
    EXPECT_EQ(metrics.batches_in, 25);
    EXPECT_EQ(metrics.batches_out, 25);
    EXPECT_GT(metrics.peak_memory_bytes, 0);
    EXPECT_GE(metrics.function_seconds, 0);
  }
}

TEST_F(PythonRunnerTest, APandasSeriesFunctionComputesEveryRow) {
  const char* const source = R"(
def f(v):
    return v * 2 + 1
)";
  const SchemaPtr output_schema = schema({field("result", int64())});
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < 10000; ++i) {
    values.emplace_back(i);
  }
  const Table only_v = Table::from_batches({batch_of({{"v", testing::int64s(values)}})});
  for (const Transport transport : kTransports) {
    SCOPED_TRACE(std::string(transport_name(transport)));
    RunOptions options;
    options.transport = transport;
    options.max_records_per_batch = 3000;
    const Table output =
        run(function(FunctionKind::kPandasSeries, source, output_schema), only_v, options);
    ASSERT_EQ(output.num_rows(), 10000);
    EXPECT_TRUE(output.schema()->equals(*output_schema));
    const std::vector<int64_t> results = column_values(output, 0);
    for (int64_t i = 0; i < 10000; ++i) {
      ASSERT_EQ(results[static_cast<size_t>(i)], 2 * i + 1) << "row " << i;
    }
  }
}

TEST_F(PythonRunnerTest, ResultsComeInInputOrderWhateverOrderPartitionsFinishIn) {
  // Each partition sleeps for a random while, so parallel slots finish out of order.
  const char* const source = R"(
import random, time

def f(batches):
    for batch in batches:
        time.sleep(random.random() * 0.02)
        yield batch
)";
  const Table input = numbers_table(2000, 130);
  for (const Transport transport : kTransports) {
    SCOPED_TRACE(std::string(transport_name(transport)));
    RunOptions options;
    options.transport = transport;
    options.partition_rows = 50;
    options.parallelism = 2;
    const Table output =
        run(function(FunctionKind::kArrow, source, input.schema()), input, options);
    EXPECT_EQ(column_values(output, 0), iota_values(2000));
  }
}

TEST_F(PythonRunnerTest, AUserExceptionIsAPythonExceptionWithTheUsersTraceback) {
  const char* const source = R"(
def divide(batch):
    return batch.num_rows / 0

def f(batches):
    for batch in batches:
        yield divide(batch)
)";
  const int64_t failed_before = pool()->stats().workers_failed;
  RunOptions options;
  options.max_records_per_batch = 100;
  const std::unique_ptr<PythonRunReader> reader =
      run_python(pool(), function(FunctionKind::kArrow, source, numbers(0, 0).schema()),
                 reader_of(numbers_table(1000, 1000)), options);
  try {
    reader->next();
    FAIL() << "expected a PythonException";
  } catch (const PythonException& error) {
    EXPECT_EQ(error.exception_type(), "ZeroDivisionError");
    EXPECT_EQ(error.message(), "division by zero");
    EXPECT_EQ(error.batch(), 0);
    const std::string& traceback = error.traceback();
    // The functions were defined by code run from a string, so their lines show no source.
    EXPECT_NE(traceback.find("line 7, in f"), std::string::npos) << traceback;
    EXPECT_NE(traceback.find("line 3, in divide"), std::string::npos) << traceback;
    EXPECT_EQ(traceback.find("bowstring/worker"), std::string::npos) << traceback;
    EXPECT_NE(std::string(error.what()).find("ZeroDivisionError: division by zero"),
              std::string::npos);
  }
  // The worker resynchronized and went back to the pool: it serves the next run.
  EXPECT_EQ(pool()->stats().workers_failed, failed_before);
  expect_pool_serves_runs();
}

TEST_F(PythonRunnerTest, ResultsBeforeAFailingPartitionComeFirst) {
  const char* const source = R"(
def f(batches):
    for batch in batches:
        if batch.column(0)[0].as_py() >= 500:
            raise ValueError("too large")
        yield batch
)";
  RunOptions options;
  options.partition_rows = 100;
  options.parallelism = 1;
  const std::unique_ptr<PythonRunReader> reader =
      run_python(pool(), function(FunctionKind::kArrow, source, numbers(0, 0).schema()),
                 reader_of(numbers_table(1000, 100)), options);
  std::vector<int64_t> received;
  try {
    while (std::optional<RecordBatch> batch = reader->next()) {
      const int64_t* values = batch->column(0).data()->values<int64_t>(1);
      received.insert(received.end(), values, values + batch->num_rows());
    }
    FAIL() << "expected a PythonException";
  } catch (const PythonException& error) {
    EXPECT_EQ(error.exception_type(), "ValueError");
    EXPECT_EQ(error.message(), "too large");
  }
  EXPECT_EQ(received, iota_values(500));
}

// Yields `batches`, then fails.
class FailingReader final : public RecordBatchReader {
 public:
  explicit FailingReader(std::vector<RecordBatch> batches) : batches_(std::move(batches)) {}
  SchemaPtr schema() const override { return batches_[0].schema(); }
  std::optional<RecordBatch> next() override {
    if (next_ == batches_.size()) {
      throw IoError("the input broke after " + std::to_string(next_) + " batches");
    }
    return batches_[next_++];
  }

 private:
  std::vector<RecordBatch> batches_;
  size_t next_ = 0;
};

TEST_F(PythonRunnerTest, AnInputErrorComesAfterTheResultsBeforeIt) {
  RunOptions options;
  options.partition_rows = 100;
  options.parallelism = 1;
  const std::unique_ptr<PythonRunReader> reader = run_python(
      pool(), identity(),
      std::make_unique<FailingReader>(std::vector<RecordBatch>{numbers(0, 100), numbers(100, 100)}),
      options);
  int64_t rows = 0;
  EXPECT_EQ(error_message<IoError>([&] {
              while (std::optional<RecordBatch> batch = reader->next()) {
                rows += batch->num_rows();
              }
            }),
            "the input broke after 2 batches");
  EXPECT_EQ(rows, 200);
}

TEST_F(PythonRunnerTest, AWorkerThatCrashesIsAWorkerFailureNamingTheSignal) {
  const char* const source = R"(
import os, signal

def f(batches):
    for batch in batches:
        os.kill(os.getpid(), signal.SIGSEGV)
        yield batch
)";
  const std::string message = error_message<WorkerFailure>([&] {
    run(function(FunctionKind::kArrow, source, numbers(0, 0).schema()), numbers_table(10, 10));
  });
  EXPECT_NE(message.find("Python worker"), std::string::npos) << message;
  EXPECT_NE(message.find("SIGSEGV"), std::string::npos) << message;
  // The pool replaces the worker.
  expect_pool_serves_runs();
}

// A function that writes a frame (Python expressions of its type and payload) to the engine
// through the worker's own connection, breaking the protocol, before returning its input. It
// imports inside the function: the pickling interpreter cannot import bowstring.
std::string sending(const std::string& frame_type, const std::string& payload) {
  return R"(
def f(batches):
    import gc
    import pyarrow as pa
    from bowstring.worker.protocol import FrameSocket, FrameType
    connection = next(o for o in gc.get_objects()
                      if isinstance(o, FrameSocket) and o.peer == "engine"
                      and o.sock.fileno() >= 0)
    connection.write()" +
         frame_type + ", " + payload + R"()
    for batch in batches:
        yield batch
)";
}

TEST_F(PythonRunnerTest, AWorkerBreakingTheProtocolIsAWorkerFailure) {
  const std::string other_schema = R"(pa.record_batch([pa.array([1], pa.int32())], names=["a"]))";
  // Schema message, record batch message, end-of-stream marker.
  const std::string stream_of_other_schema =
      "(lambda b: b.schema.serialize().to_pybytes() + b.serialize().to_pybytes() + "
      "b'\\xff\\xff\\xff\\xff\\0\\0\\0\\0')(" +
      other_schema + ")";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {sending("FrameType.BATCH", stream_of_other_schema),
       "the engine killed it: it sent result batch 0 with the schema\na: int32"},
      {sending("FrameType.BATCH", "b'garbage'"),
       "the engine killed it: it sent result batch 0 that cannot be read"},
      {sending("FrameType.COMPLETE", "b'{}'"),
       "the engine killed it: it sent COMPLETE where a result batch or END_OF_DATA belongs"},
  };
  for (const auto& [function_source, expected] : cases) {
    const std::string& source = function_source;
    const std::string message = error_message<WorkerFailure>([&] {
      run(function(FunctionKind::kArrow, source, numbers(0, 0).schema()), numbers_table(10, 10));
    });
    EXPECT_NE(message.find("Python function 'f' failed on partition 0: Python worker"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find(expected), std::string::npos) << message;
  }
  expect_pool_serves_runs();
}

// A function that writes a raw frame header (type, reserved word, payload length) to the
// engine through the worker's own connection and then keeps busy, not reading its input.
std::string sending_header_then_sleeping(uint32_t type, uint64_t length) {
  return R"(
def f(batches):
    import gc, struct, time
    from bowstring.worker.protocol import FrameSocket
    connection = next(o for o in gc.get_objects()
                      if isinstance(o, FrameSocket) and o.peer == "engine"
                      and o.sock.fileno() >= 0)
    connection.sock.sendall(struct.pack("<IIQ", )" +
         std::to_string(type) + ", 0, " + std::to_string(length) + R"())
    time.sleep(600)
    yield from batches
)";
}

TEST_F(PythonRunnerTest, AWorkerSendingABrokenFrameIsKilledAndExplained) {
  const std::string message = error_message<WorkerFailure>([&] {
    run(function(FunctionKind::kArrow, sending_header_then_sleeping(99, 0), numbers(0, 0).schema()),
        numbers_table(10, 10));
  });
  EXPECT_NE(message.find("Python function 'f' failed on partition 0: Python worker"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("was killed by signal 9 (SIGKILL); the engine killed it: "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("sent a frame of unknown type 99"), std::string::npos) << message;
  expect_pool_serves_runs();
}

// While it lives, the default allocator refuses to hold more than 1 GiB (rather than asking the
// system for more, which a sanitizer would report as a fatal error).
class CappedDefaultAllocator {
 public:
  CappedDefaultAllocator() {
    // Kept for good: buffers allocated through it may outlive this scope.
    static BudgetedAllocator* const capped =
        new BudgetedAllocator(default_allocator(), int64_t{1} << 30, "test memory cap");
    previous_ = set_default_allocator(capped);
  }
  ~CappedDefaultAllocator() { set_default_allocator(previous_); }
  CappedDefaultAllocator(const CappedDefaultAllocator&) = delete;
  CappedDefaultAllocator& operator=(const CappedDefaultAllocator&) = delete;

 private:
  Allocator* previous_ = nullptr;
};

TEST_F(PythonRunnerTest, AResultFrameTooLargeToHoldIsAWorkerFailure) {
  const uint64_t length = uint64_t{1} << 40;
  const CappedDefaultAllocator capped;
  const std::string message = error_message<WorkerFailure>([&] {
    run(function(FunctionKind::kArrow,
                 sending_header_then_sleeping(static_cast<uint32_t>(FrameType::kBatch), length),
                 numbers(0, 0).schema()),
        numbers_table(10, 10));
  });
  EXPECT_NE(message.find("Python function 'f' failed on partition 0: Python worker"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("was killed by signal 9 (SIGKILL); the engine killed it: "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("a BATCH frame of " + std::to_string(length) + " bytes"),
            std::string::npos)
      << message;
  expect_pool_serves_runs();
}

// Ends its results with END_OF_DATA and a COMPLETE whose payload is the Python bytes
// expression `payload`, before the engine's input is read.
std::string completing_with(const std::string& payload) {
  return R"(
def f(batches):
    import gc
    from bowstring.worker.protocol import FrameSocket, FrameType
    connection = next(o for o in gc.get_objects()
                      if isinstance(o, FrameSocket) and o.peer == "engine"
                      and o.sock.fileno() >= 0)
    connection.write(FrameType.END_OF_DATA)
    connection.write(FrameType.COMPLETE, )" +
         payload + R"()
    yield from batches
)";
}

TEST_F(PythonRunnerTest, AHugeMalformedPayloadIsQuotedOnlyInPart) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"b'[' + b'0,' * 1000000 + b'0]'", "sent a COMPLETE payload that is not a JSON object: [0,0"},
      {R"(b'"' + b'a' * 2000000)", "sent a COMPLETE payload that is not JSON: "},
      {R"(b'{"rows_in": "' + b'a' * 2000000 + b'"}')",
       "sent a COMPLETE payload without the integer"},
  };
  for (const auto& [payload_expression, expected] : cases) {
    const std::string& payload = payload_expression;
    const std::string message = error_message<WorkerFailure>([&] {
      run(function(FunctionKind::kArrow, completing_with(payload), numbers(0, 0).schema()),
          numbers_table(10, 10));
    });
    EXPECT_NE(message.find(expected), std::string::npos) << message.substr(0, 1000);
    EXPECT_LT(message.size(), 4000u) << message.substr(0, 1000);
  }
}

// Gives each input batch back after sleeping `seconds`.
PythonFunction sleeping_identity(std::string_view seconds) {
  const std::string source = "import time\n\ndef f(batches):\n    for batch in batches:\n" +
                             ("        time.sleep(" + std::string(seconds) + ")\n") +
                             "        yield batch\n";
  return function(FunctionKind::kArrow, source, numbers(0, 0).schema());
}

TEST_F(PythonRunnerTest, ACallPastItsTimeoutIsKilled) {
  RunOptions options;
  options.timeout = std::chrono::milliseconds(300);
  const std::string message = error_message<WorkerFailure>(
      [&] { run(sleeping_identity("600"), numbers_table(10, 10), options); });
  EXPECT_NE(message.find("exceeded the call timeout of 300 ms"), std::string::npos) << message;
  EXPECT_NE(message.find("Python worker"), std::string::npos) << message;
  // The pool replaces the worker.
  expect_pool_serves_runs();
}

TEST_F(PythonRunnerTest, WaitingForTheCallerDoesNotCountAgainstTheTimeout) {
  RunOptions options;
  options.timeout = std::chrono::milliseconds(1500);
  options.max_records_per_batch = 100;
  const Table input = numbers_table(3000, 100);
  const std::unique_ptr<PythonRunReader> reader =
      run_python(pool(), identity(), reader_of(input), options);
  // Taking the results takes twice the timeout; the worker needs far less.
  std::vector<RecordBatch> batches;
  while (std::optional<RecordBatch> batch = reader->next()) {
    batches.push_back(std::move(*batch));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(Table::from_batches(input.schema(), batches).equals(input));
}

const char* const kEndlessLoop = R"(
def f(batches):
    for batch in batches:
        while True:
            pass
        yield batch
)";

TEST_F(PythonRunnerTest, CancellingFromAnotherThreadStopsAnEndlessLoop) {
  for (const bool through_reader : {false, true}) {
    SCOPED_TRACE(through_reader ? "reader.cancel()" : "RunOptions::cancel");
    RunOptions options;
    options.parallelism = 2;
    options.partition_rows = 10;
    const CancellationToken token = options.cancel;
    const std::unique_ptr<PythonRunReader> reader =
        run_python(pool(), function(FunctionKind::kArrow, kEndlessLoop, numbers(0, 0).schema()),
                   reader_of(numbers_table(100, 10)), options);
    std::thread canceller([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      if (through_reader) {
        reader->cancel();
      } else {
        CancellationToken(token).cancel();
      }
    });
    EXPECT_EQ(error_message<Cancelled>([&] { reader->next(); }), "the call was cancelled");
    canceller.join();
    EXPECT_THROW(reader->next(), Cancelled);
  }
  expect_pool_serves_runs();
}

TEST_F(PythonRunnerTest, DestroyingTheReaderStopsTheRun) {
  const char* const announced_loop = R"(
def f(batches):
    for batch in batches:
        print("looping on rows from", batch.column(0)[0].as_py(), flush=True)
        while True:
            pass
        yield batch
)";
  {
    RunOptions options;
    options.partition_rows = 10;
    options.parallelism = 2;
    const std::unique_ptr<PythonRunReader> reader =
        run_python(pool(), function(FunctionKind::kArrow, announced_loop, numbers(0, 0).schema()),
                   reader_of(numbers_table(100, 10)), options);
    ASSERT_TRUE(output_.wait_for("looping on rows from 10")) << output_.text();
  }
  {
    RunOptions options;
    options.partition_rows = 100;
    const std::unique_ptr<PythonRunReader> reader =
        run_python(pool(), identity(), reader_of(numbers_table(100000, 1000)), options);
    EXPECT_TRUE(reader->next().has_value());
  }
  // Every lease came back: the pool hands out all its workers at once (a lease kept by a
  // thread of either run would make this wait until the guard gives up).
  CancellationToken give_up;
  {
    const testing::CancelAfter guard(give_up, std::chrono::seconds(60));
    std::vector<WorkerLease> leases;
    leases.reserve(static_cast<size_t>(pool()->options().max_workers));
    for (int i = 0; i < pool()->options().max_workers; ++i) {
      leases.push_back(pool()->acquire(give_up));
    }
  }
  expect_pool_serves_runs();
}

TEST_F(PythonRunnerTest, ResultsWaitingForTheReaderStayFewInEveryPartition) {
  // Six partitions of 64 results of one MiB each, read slowly by a run of more partitions at
  // once than the pool has workers: partitions ahead of the one read must not buffer their
  // whole output, and the partition read must not starve for a worker.
  const char* const source = R"(
import pyarrow as pa

def f(batches):
    blob = pa.array(["x" * (1 << 20)])
    for _ in batches:
        for _ in range(64):
            yield pa.record_batch([blob], names=["blob"])
)";
  const SchemaPtr schema = batch_of({{"blob", testing::strings({"x"})}}).schema();
  RunOptions options;
  options.parallelism = pool()->options().max_workers + 2;
  options.partition_rows = 1;
  options.max_records_per_batch = 1;
  Allocator& allocator = *default_allocator();
  const int64_t before = allocator.bytes_in_use();
  const std::unique_ptr<PythonRunReader> reader =
      run_python(pool(), function(FunctionKind::kArrow, source, schema),
                 reader_of(numbers_table(6, 1)), options);
  int64_t results = 0;
  int64_t most_in_use = 0;
  while (std::optional<RecordBatch> batch = reader->next()) {
    ++results;
    most_in_use = std::max(most_in_use, allocator.bytes_in_use() - before);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(results, 6 * 64);
  // Each partition keeps at most eight results waiting, and two run at once (about 20 MiB with
  // the results being read and decoded); a partition that buffered its whole output would hold
  // 64 MiB alone.
  EXPECT_LT(most_in_use, int64_t{40} << 20);
}

TEST_F(PythonRunnerTest, ARunNotBeingReadDoesNotStarveAnotherSharingThePool) {
  RunOptions options;
  options.partition_rows = 10;
  options.parallelism = pool()->options().max_workers;
  expect_runs_read_out_of_order_finish(pool(), options, 40);
}

TEST_F(PythonRunnerTest, RunsReadInTurnsShareAPoolOfOneWorker) {
  // The partition a run reads first holds the only worker once its queue is full; the caller
  // reading the other run must still get that worker.
  udf::PoolOptions single_worker = testing::python_pool_options(&output_, &log_);
  single_worker.max_workers = 1;
  RunOptions options;
  options.partition_rows = 10;
  expect_runs_read_out_of_order_finish(std::make_shared<WorkerPool>(single_worker), options, 20);
}

TEST_F(PythonRunnerTest, WaitNextWaitsAtMostTheTimeoutGiven) {
  const Table input = numbers_table(10, 10);
  const std::unique_ptr<PythonRunReader> reader =
      run_python(pool(), sleeping_identity("0.5"), reader_of(input));
  EXPECT_FALSE(reader->wait_next(std::chrono::milliseconds(1)));
  EXPECT_TRUE(reader->wait_next(std::chrono::seconds(60)));
  EXPECT_TRUE(reader->wait_next(std::chrono::milliseconds(0)));
  const std::optional<RecordBatch> batch = reader->next();
  ASSERT_TRUE(batch.has_value());
  EXPECT_TRUE(Table::from_batches({*batch}).equals(input));
  // The end is an answer too.
  EXPECT_TRUE(reader->wait_next(std::chrono::seconds(60)));
  EXPECT_FALSE(reader->next().has_value());

  const std::unique_ptr<PythonRunReader> cancelled =
      run_python(pool(), sleeping_identity("0.5"), reader_of(input));
  cancelled->cancel();
  EXPECT_TRUE(cancelled->wait_next(std::chrono::seconds(60)));
  EXPECT_THROW(cancelled->next(), Cancelled);
}

TEST_F(PythonRunnerTest, AForkedProcessLeavesARunGoingOnToItsParent) {
  const Table input = numbers_table(40, 10);
  RunOptions options;
  options.partition_rows = 10;
  std::unique_ptr<PythonRunReader> reader =
      run_python(pool(), sleeping_identity("0.5"), reader_of(input), options);
  // The run refuses use in the child, and destroying it there neither stops the parent's
  // workers nor joins the parent's threads (which would hang).
  EXPECT_EQ(testing::exit_code_in_forked_child([&] {
              const bool refused = error_message<InvalidArgument>([&] {
                                     reader->next();
                                   }).find("forked from it") != std::string::npos;
              reader.reset();
              return refused ? 0 : 1;
            }),
            0);
  EXPECT_TRUE(reader->read_all().equals(input));
}

TEST_F(PythonRunnerTest, EmptyInputGivesNoResults) {
  for (const Table& input :
       {Table::from_batches(numbers(0, 0).schema(), {}), Table::from_batches({numbers(0, 0)})}) {
    const std::unique_ptr<PythonRunReader> reader =
        run_python(pool(), identity(), reader_of(input));
    EXPECT_TRUE(reader->schema()->equals(*numbers(0, 0).schema()));
    EXPECT_FALSE(reader->next().has_value());
    EXPECT_FALSE(reader->next().has_value());
    EXPECT_EQ(reader->metrics().partitions, 0);
    EXPECT_EQ(reader->metrics().rows_in, 0);
  }
}

TEST_F(PythonRunnerTest, SeveralRunsShareOnePool) {
  constexpr int kRuns = 3;
  std::vector<Table> inputs;
  inputs.reserve(kRuns);
  std::vector<Table> outputs(kRuns, Table::from_batches(numbers(0, 0).schema(), {}));
  for (int i = 0; i < kRuns; ++i) {
    inputs.push_back(numbers_table(3000 + 1000 * i, 700));
  }
  const PythonFunction function = identity();
  std::vector<std::thread> threads;
  threads.reserve(kRuns);
  std::vector<std::string> errors(kRuns);
  for (int i = 0; i < kRuns; ++i) {
    threads.emplace_back([&, i] {
      try {
        RunOptions options;
        options.partition_rows = 1000;
        options.transport = kTransports[i % 2];
        outputs[static_cast<size_t>(i)] = run(function, inputs[static_cast<size_t>(i)], options);
      } catch (const std::exception& error) {
        errors[static_cast<size_t>(i)] = error.what();
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  for (int i = 0; i < kRuns; ++i) {
    EXPECT_EQ(errors[static_cast<size_t>(i)], "");
    EXPECT_TRUE(outputs[static_cast<size_t>(i)].equals(inputs[static_cast<size_t>(i)]))
        << "run " << i;
  }
}

}  // namespace
}  // namespace bowstring::udf
