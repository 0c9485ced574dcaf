// The hash join table of compute/join: building it and probing it, in rows per second of wall
// clock, on the process-wide pool as the engine uses it (batches of 64K rows added and probed
// from parallel tasks, output pairs taken 4096 at a time).
//
// Cases are named <phase>/<keys>/<build rows>:
// - Build: adding the build batches and finalizing the table (partitions built in parallel);
// - Probe: an inner join of 10M probe rows against the finished table, about 90% of them
//   matching one build row (the build keys are distinct, as in the J1 join benchmark).
// Keys are int64, or strings of 10 to 14 bytes ("key-" and the number).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/join/hash_join.h"
#include "bowstring/runtime/parallel.h"
#include "setup_context.h"

namespace {

using bowstring::Array;
using bowstring::compute::JoinHashTable;
using bowstring::compute::JoinPairs;
using bowstring::compute::JoinProbe;
using bowstring::compute::JoinType;

constexpr int64_t kBatchRows = 64 * 1024;
constexpr int64_t kProbeRows = 10'000'000;
constexpr int64_t kMaxPairs = 4096;

enum class KeyKind { kInt64, kString };

Array make_keys(KeyKind kind, const std::vector<int64_t>& values) {
  if (kind == KeyKind::kInt64) {
    bowstring::Int64Builder builder;
    builder.append_values(values);
    return builder.finish();
  }
  bowstring::StringBuilder builder;
  for (const int64_t value : values) {
    builder.append("key-" + std::to_string(value));
  }
  return builder.finish();
}

/// `rows` distinct keys 0..rows-1 in random order, as batches.
std::vector<Array> build_batches(KeyKind kind, int64_t rows) {
  std::vector<int64_t> values(static_cast<size_t>(rows));
  std::iota(values.begin(), values.end(), 0);
  std::shuffle(values.begin(), values.end(), std::mt19937_64(1));
  const Array keys = make_keys(kind, values);
  std::vector<Array> batches;
  for (int64_t start = 0; start < rows; start += kBatchRows) {
    batches.push_back(keys.slice(start, std::min(kBatchRows, rows - start)));
  }
  return batches;
}

/// `kProbeRows` keys drawn from [0, 1.1 * build_rows): about 90% match.
std::vector<Array> probe_batches(KeyKind kind, int64_t build_rows) {
  std::mt19937_64 rng(2);
  std::uniform_int_distribution<int64_t> key_of(0, build_rows + build_rows / 10);
  std::vector<int64_t> values(static_cast<size_t>(kProbeRows));
  for (int64_t& value : values) {
    value = key_of(rng);
  }
  const Array keys = make_keys(kind, values);
  std::vector<Array> batches;
  for (int64_t start = 0; start < kProbeRows; start += kBatchRows) {
    batches.push_back(keys.slice(start, std::min(kBatchRows, kProbeRows - start)));
  }
  return batches;
}

std::unique_ptr<JoinHashTable> build_table(const std::vector<Array>& batches) {
  const bowstring::TypePtr type = batches.at(0).type();
  auto table = std::make_unique<JoinHashTable>(std::vector<bowstring::TypePtr>{type},
                                               std::vector<bool>{}, JoinType::kInner);
  bowstring::parallel_for(static_cast<int64_t>(batches.size()), bowstring::hardware_threads(),
                          [&](int64_t b, int) {
                            table->add(std::span<const Array>(&batches[static_cast<size_t>(b)], 1));
                          });
  table->finalize();
  return table;
}

void BM_Build(benchmark::State& state, KeyKind kind) {
  const int64_t rows = state.range(0);
  const std::vector<Array> batches = build_batches(kind, rows);
  for (auto _ : state) {
    std::unique_ptr<JoinHashTable> table = build_table(batches);
    benchmark::DoNotOptimize(table->num_groups());
  }
  state.SetItemsProcessed(state.iterations() * rows);
}

void BM_Probe(benchmark::State& state, KeyKind kind) {
  const int64_t rows = state.range(0);
  const std::unique_ptr<JoinHashTable> table = build_table(build_batches(kind, rows));
  const std::vector<Array> probes = probe_batches(kind, rows);
  int64_t matches = 0;
  for (auto _ : state) {
    std::atomic<int64_t> pairs{0};
    bowstring::parallel_for(
        static_cast<int64_t>(probes.size()), bowstring::hardware_threads(), [&](int64_t b, int) {
          JoinProbe cursor =
              table->probe(std::span<const Array>(&probes[static_cast<size_t>(b)], 1));
          JoinPairs out;
          int64_t found = 0;
          while (cursor.next(kMaxPairs, out)) {
            found += out.size();
          }
          pairs += found;
        });
    matches = pairs.load();
  }
  state.counters["matches"] = static_cast<double>(matches);
  state.SetItemsProcessed(state.iterations() * kProbeRows);
}

}  // namespace

BENCHMARK_CAPTURE(BM_Build, int64, KeyKind::kInt64)
    ->Arg(10'000)
    ->Arg(10'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Probe, int64, KeyKind::kInt64)
    ->Arg(10'000)
    ->Arg(10'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Build, string, KeyKind::kString)
    ->Arg(10'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Probe, string, KeyKind::kString)
    ->Arg(10'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  bowstring_bench::add_setup_context();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
