// Arrow IPC writing and reading, Bowstring against Apache Arrow's C++ library in the same
// binary, on the same data: one record batch of about 1 MiB of int64, float64 or utf8 values in
// 1, 16 or 256 columns. bench/ipc.py prints the Bowstring/libarrow ratios and the throughput
// next to a plain memcpy of the same bytes.
//
// Cases are named <operation>/<workload>/<side>:
// - WriteStream[codec]: a stream (schema, batch, end marker) into a growing memory buffer;
// - ReadStream[codec]: that stream read back from memory, with structural checks only
//   ([trusted]) or with full validation of every value ([validated]; libarrow: ValidateFull);
// - ReadMappedFile: an IPC file opened through a memory map and its batch read, structural
//   checks only; the 64 MiB workload shows that reading does not touch the body (zero-copy);
// - Memcpy: copying the batch's body bytes once, the bandwidth bound of writing.
//
// Times are wall-clock: libarrow compresses and decompresses buffers on its thread pool, whose
// work a CPU-time measure of the calling thread would not see.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/table/record_batch.h"
#include "setup_context.h"

#ifdef BOWSTRING_BENCH_LIBARROW
#include <arrow/api.h>
#include <arrow/io/api.h>
#include <arrow/ipc/api.h>
#include <arrow/util/compression.h>
#endif

namespace {

namespace ipc = bowstring::ipc;

enum class ValueKind { kInt64, kFloat64, kUtf8 };

struct Workload {
  std::string name;
  ValueKind kind;
  int columns;
  int64_t body_bytes;  // target size of the batch's values
};

const char* kind_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::kInt64:
      return "int64";
    case ValueKind::kFloat64:
      return "float64";
    case ValueKind::kUtf8:
      return "utf8";
  }
  return "?";
}

// `prefix` followed by `number` (appending, which avoids a GCC 12 -Wrestrict false positive on
// `"literal" + std::to_string(n)`).
std::string numbered(std::string prefix, int64_t number) {
  prefix += std::to_string(number);
  return prefix;
}

// Bytes per value, offsets included for strings (12-byte strings on average).
int64_t value_bytes(ValueKind kind) { return kind == ValueKind::kUtf8 ? 16 : 8; }

// The values of one workload, generated once with a fixed seed; both libraries build their
// arrays from these same vectors.
struct Columns {
  int64_t rows = 0;
  std::vector<std::vector<int64_t>> ints;
  std::vector<std::vector<double>> doubles;
  std::vector<std::vector<std::string>> strings;

  explicit Columns(const Workload& workload) {
    rows = workload.body_bytes / (workload.columns * value_bytes(workload.kind));
    std::mt19937_64 rng(20261129);
    // Values with some repetition so that the codecs have something to find.
    std::uniform_int_distribution<int64_t> small(0, 1 << 20);
    std::uniform_int_distribution<int> length(4, 20);
    for (int c = 0; c < workload.columns; ++c) {
      switch (workload.kind) {
        case ValueKind::kInt64: {
          auto& column = ints.emplace_back(rows);
          for (auto& value : column) {
            value = small(rng);
          }
          break;
        }
        case ValueKind::kFloat64: {
          auto& column = doubles.emplace_back(rows);
          for (auto& value : column) {
            value = static_cast<double>(small(rng)) / 64.0;
          }
          break;
        }
        case ValueKind::kUtf8: {
          auto& column = strings.emplace_back(rows);
          for (auto& value : column) {
            value = numbered("value-", small(rng));
            value.resize(length(rng), 'x');
          }
          break;
        }
      }
    }
  }
};

bowstring::RecordBatch make_batch(const Workload& workload, const Columns& data) {
  bowstring::FieldVector fields;
  std::vector<bowstring::Array> arrays;
  for (int c = 0; c < workload.columns; ++c) {
    const std::string name = numbered("c", c);
    switch (workload.kind) {
      case ValueKind::kInt64: {
        bowstring::Int64Builder builder;
        builder.append_values(std::span<const int64_t>(data.ints[c]));
        arrays.push_back(builder.finish());
        fields.push_back(bowstring::field(name, bowstring::int64()));
        break;
      }
      case ValueKind::kFloat64: {
        bowstring::DoubleBuilder builder;
        builder.append_values(std::span<const double>(data.doubles[c]));
        arrays.push_back(builder.finish());
        fields.push_back(bowstring::field(name, bowstring::float64()));
        break;
      }
      case ValueKind::kUtf8: {
        bowstring::StringBuilder builder;
        for (const std::string& value : data.strings[c]) {
          builder.append(value);
        }
        arrays.push_back(builder.finish());
        fields.push_back(bowstring::field(name, bowstring::utf8()));
        break;
      }
    }
  }
  return bowstring::RecordBatch(bowstring::schema(std::move(fields)), data.rows, std::move(arrays));
}

int64_t body_size(const bowstring::RecordBatch& batch) {
  int64_t bytes = 0;
  for (const bowstring::Array& column : batch.columns()) {
    for (const auto& buffer : column.data()->buffers) {
      if (buffer) {
        bytes += buffer->size();
      }
    }
  }
  return bytes;
}

std::shared_ptr<bowstring::Buffer> write_stream(const bowstring::RecordBatch& batch,
                                                bowstring::Compression compression) {
  auto sink = std::make_shared<bowstring::BufferOutputStream>();
  ipc::WriteOptions options;
  options.compression = compression;
  ipc::StreamWriter writer(sink, batch.schema(), options);
  writer.write(batch);
  writer.close();
  return sink->finish();
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          (numbered("bowstring_ipc_bench_", getpid()) + "_" + name))
      .string();
}

// Files written for the mapped-file cases, removed at exit.
std::vector<std::string>& temp_files() {
  static std::vector<std::string> files;
  return files;
}

/// The parts of a benchmark's name joined ("WriteStream" "[lz4]" "/int64x16/bowstring").
std::string benchmark_name(std::initializer_list<std::string_view> parts) {
  std::string name;
  for (const std::string_view part : parts) {
    name += part;
  }
  return name;
}

const std::vector<std::pair<std::string, bowstring::Compression>> kCodecs = {
    {"", bowstring::Compression::kNone},
    {"[lz4]", bowstring::Compression::kLz4Frame},
    {"[zstd]", bowstring::Compression::kZstd},
};

void register_bowstring(const Workload& workload, const bowstring::RecordBatch& batch) {
  const int64_t bytes = body_size(batch);
  const std::string suffix = "/" + workload.name + "/bowstring";
  for (const auto& [codec_name, codec] : kCodecs) {
    benchmark::RegisterBenchmark(benchmark_name({"WriteStream", codec_name, suffix}).c_str(),
                                 [batch, bytes, codec = codec](benchmark::State& state) {
                                   for (auto _ : state) {
                                     benchmark::DoNotOptimize(write_stream(batch, codec));
                                   }
                                   state.SetBytesProcessed(state.iterations() * bytes);
                                 })
        ->UseRealTime();
    const std::shared_ptr<bowstring::Buffer> stream = write_stream(batch, codec);
    for (const bool validate : {false, true}) {
      const std::string mode = validate ? "[validated]" : "[trusted]";
      benchmark::RegisterBenchmark(benchmark_name({"ReadStream", codec_name, mode, suffix}).c_str(),
                                   [stream, bytes, validate](benchmark::State& state) {
                                     ipc::ReadOptions options;
                                     options.validate_full = validate;
                                     for (auto _ : state) {
                                       auto reader = ipc::StreamReader::open(
                                           std::make_shared<bowstring::BufferInputStream>(stream),
                                           options);
                                       benchmark::DoNotOptimize(reader->next());
                                     }
                                     state.SetBytesProcessed(state.iterations() * bytes);
                                   })
          ->UseRealTime();
    }
  }
  const std::string path = temp_path(workload.name + ".arrow");
  {
    auto sink = std::make_shared<bowstring::FileOutputStream>(path);
    ipc::FileWriter writer(sink, batch.schema());
    writer.write(batch);
    writer.close();
    sink->close();
  }
  temp_files().push_back(path);
  benchmark::RegisterBenchmark(("ReadMappedFile" + suffix).c_str(), [path, bytes](
                                                                        benchmark::State& state) {
    ipc::ReadOptions options;
    options.validate_full = false;
    for (auto _ : state) {
      auto reader = ipc::FileReader::open(bowstring::MemoryMappedFile::open(path), options);
      benchmark::DoNotOptimize(reader->record_batch(0));
    }
    state.SetBytesProcessed(state.iterations() * bytes);
  })->UseRealTime();
  benchmark::RegisterBenchmark(("Memcpy/" + workload.name + "/bowstring").c_str(),
                               [bytes](benchmark::State& state) {
                                 std::vector<uint8_t> source(bytes, 1);
                                 std::vector<uint8_t> target(bytes);
                                 for (auto _ : state) {
                                   std::memcpy(target.data(), source.data(), bytes);
                                   benchmark::ClobberMemory();
                                 }
                                 state.SetBytesProcessed(state.iterations() * bytes);
                               })
      ->UseRealTime();
}

#ifdef BOWSTRING_BENCH_LIBARROW

template <typename T>
T check(arrow::Result<T> result) {
  if (!result.ok()) {
    throw std::runtime_error(result.status().ToString());
  }
  return std::move(result).ValueUnsafe();
}

void check(const arrow::Status& status) {
  if (!status.ok()) {
    throw std::runtime_error(status.ToString());
  }
}

std::shared_ptr<arrow::RecordBatch> make_arrow_batch(const Workload& workload,
                                                     const Columns& data) {
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  for (int c = 0; c < workload.columns; ++c) {
    const std::string name = numbered("c", c);
    switch (workload.kind) {
      case ValueKind::kInt64: {
        arrow::Int64Builder builder;
        check(builder.AppendValues(data.ints[c]));
        arrays.push_back(check(builder.Finish()));
        fields.push_back(arrow::field(name, arrow::int64()));
        break;
      }
      case ValueKind::kFloat64: {
        arrow::DoubleBuilder builder;
        check(builder.AppendValues(data.doubles[c]));
        arrays.push_back(check(builder.Finish()));
        fields.push_back(arrow::field(name, arrow::float64()));
        break;
      }
      case ValueKind::kUtf8: {
        arrow::StringBuilder builder;
        check(builder.AppendValues(data.strings[c]));
        arrays.push_back(check(builder.Finish()));
        fields.push_back(arrow::field(name, arrow::utf8()));
        break;
      }
    }
  }
  return arrow::RecordBatch::Make(arrow::schema(fields), data.rows, arrays);
}

arrow::ipc::IpcWriteOptions arrow_write_options(bowstring::Compression compression) {
  arrow::ipc::IpcWriteOptions options = arrow::ipc::IpcWriteOptions::Defaults();
  if (compression == bowstring::Compression::kLz4Frame) {
    options.codec = check(arrow::util::Codec::Create(arrow::Compression::LZ4_FRAME));
  } else if (compression == bowstring::Compression::kZstd) {
    options.codec = check(arrow::util::Codec::Create(arrow::Compression::ZSTD));
  }
  return options;
}

std::shared_ptr<arrow::Buffer> arrow_write_stream(const std::shared_ptr<arrow::RecordBatch>& batch,
                                                  const arrow::ipc::IpcWriteOptions& options) {
  auto sink = check(arrow::io::BufferOutputStream::Create());
  auto writer = check(arrow::ipc::MakeStreamWriter(sink, batch->schema(), options));
  check(writer->WriteRecordBatch(*batch));
  check(writer->Close());
  return check(sink->Finish());
}

void register_libarrow(const Workload& workload, const std::shared_ptr<arrow::RecordBatch>& batch,
                       int64_t bytes) {
  const std::string suffix = "/" + workload.name + "/libarrow";
  for (const auto& [codec_name, codec] : kCodecs) {
    const arrow::ipc::IpcWriteOptions options = arrow_write_options(codec);
    benchmark::RegisterBenchmark(benchmark_name({"WriteStream", codec_name, suffix}).c_str(),
                                 [batch, bytes, options](benchmark::State& state) {
                                   for (auto _ : state) {
                                     benchmark::DoNotOptimize(arrow_write_stream(batch, options));
                                   }
                                   state.SetBytesProcessed(state.iterations() * bytes);
                                 })
        ->UseRealTime();
    const std::shared_ptr<arrow::Buffer> stream = arrow_write_stream(batch, options);
    for (const bool validate : {false, true}) {
      const std::string mode = validate ? "[validated]" : "[trusted]";
      benchmark::RegisterBenchmark(benchmark_name({"ReadStream", codec_name, mode, suffix}).c_str(),
                                   [stream, bytes, validate](benchmark::State& state) {
                                     for (auto _ : state) {
                                       auto reader =
                                           check(arrow::ipc::RecordBatchStreamReader::Open(
                                               std::make_shared<arrow::io::BufferReader>(stream)));
                                       std::shared_ptr<arrow::RecordBatch> read;
                                       check(reader->ReadNext(&read));
                                       if (validate) {
                                         check(read->ValidateFull());
                                       }
                                       benchmark::DoNotOptimize(read);
                                     }
                                     state.SetBytesProcessed(state.iterations() * bytes);
                                   })
          ->UseRealTime();
    }
  }
  const std::string path = temp_path(workload.name + ".libarrow.arrow");
  {
    auto sink = check(arrow::io::FileOutputStream::Open(path));
    auto writer = check(arrow::ipc::MakeFileWriter(sink, batch->schema()));
    check(writer->WriteRecordBatch(*batch));
    check(writer->Close());
    check(sink->Close());
  }
  temp_files().push_back(path);
  benchmark::RegisterBenchmark(("ReadMappedFile" + suffix).c_str(), [path, bytes](
                                                                        benchmark::State& state) {
    for (auto _ : state) {
      auto file = check(arrow::io::MemoryMappedFile::Open(path, arrow::io::FileMode::READ));
      auto reader = check(arrow::ipc::RecordBatchFileReader::Open(file));
      benchmark::DoNotOptimize(check(reader->ReadRecordBatch(0)));
    }
    state.SetBytesProcessed(state.iterations() * bytes);
  })->UseRealTime();
}

#endif

void register_all() {
  std::vector<Workload> workloads;
  for (const ValueKind kind : {ValueKind::kInt64, ValueKind::kFloat64, ValueKind::kUtf8}) {
    for (const int columns : {1, 16, 256}) {
      workloads.push_back(
          {numbered(std::string(kind_name(kind)) + "x", columns), kind, columns, int64_t{1} << 20});
    }
  }
  workloads.push_back({"int64x16[64MiB]", ValueKind::kInt64, 16, int64_t{64} << 20});
  for (const Workload& workload : workloads) {
    const Columns data(workload);
    const bowstring::RecordBatch batch = make_batch(workload, data);
    register_bowstring(workload, batch);
#ifdef BOWSTRING_BENCH_LIBARROW
    register_libarrow(workload, make_arrow_batch(workload, data), body_size(batch));
#endif
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    return 1;
  }
  int status = 0;
  try {
    bowstring_bench::add_setup_context();
    register_all();
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& error) {
    std::cerr << "ipc benchmark failed: " << error.what() << '\n';
    status = 1;
  }
  benchmark::Shutdown();
  for (const std::string& path : temp_files()) {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
  return status;
}
