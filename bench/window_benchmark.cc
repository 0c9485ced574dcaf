// Window functions over 10M rows in 100 partitions, already sorted by (partition, order key), as
// the engine's window operator hands them over: a running sum, a sliding 100-row sum (of
// integers: prefix sums; of doubles: the segment tree of aggregator states) and rank.
//
//   ./build/bench/bowstring_bench_window --benchmark_filter=Window

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/window/window.h"
#include "setup_context.h"

namespace {

using namespace bowstring;
using namespace bowstring::compute;

constexpr int64_t kRows = 10'000'000;
constexpr int64_t kPartitions = 100;

struct Input {
  std::vector<int64_t> offsets;
  Array key;
  Array ints;
  Array doubles;
};

const Input& input() {
  static const Input data = [] {
    Input made;
    std::mt19937_64 random(42);
    Int64Builder keys;
    Int64Builder ints;
    DoubleBuilder doubles;
    made.offsets.push_back(0);
    const int64_t per_partition = kRows / kPartitions;
    std::vector<int64_t> partition_keys(static_cast<size_t>(per_partition));
    for (int64_t p = 0; p < kPartitions; ++p) {
      // Order keys with ties (about ten rows per value), sorted within the partition.
      for (int64_t& key : partition_keys) {
        key = static_cast<int64_t>(random() % static_cast<uint64_t>(per_partition / 10));
      }
      std::sort(partition_keys.begin(), partition_keys.end());
      for (int64_t key : partition_keys) {
        keys.append(key);
        ints.append(static_cast<int64_t>(random() % 1000));
        doubles.append(static_cast<double>(random() % 1000) / 8.0);
      }
      made.offsets.push_back(made.offsets.back() + per_partition);
    }
    made.key = keys.finish();
    made.ints = ints.finish();
    made.doubles = doubles.finish();
    return made;
  }();
  return data;
}

void run(benchmark::State& state, const WindowCall& call) {
  const Input& data = input();
  const Array keys[] = {data.key};
  const SortKey order[] = {SortKey{}};
  const WindowCall calls[] = {call};
  ExecContext context;
  for (auto _ : state) {
    std::vector<Array> results = evaluate_window({data.offsets, keys, order}, calls, context);
    benchmark::DoNotOptimize(results);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}

void BM_WindowRunningSum(benchmark::State& state) {
  run(state, {"sum",
              {input().ints},
              {},
              WindowFrame{FrameUnit::kRows, FrameBound::unbounded_preceding(),
                          FrameBound::current_row()}});
}

void BM_WindowSlidingSum100(benchmark::State& state) {
  run(state, {"sum",
              {input().ints},
              {},
              WindowFrame{FrameUnit::kRows, FrameBound::rows(-99), FrameBound::current_row()}});
}

void BM_WindowSlidingDoubleSum100(benchmark::State& state) {
  run(state, {"sum",
              {input().doubles},
              {},
              WindowFrame{FrameUnit::kRows, FrameBound::rows(-99), FrameBound::current_row()}});
}

void BM_WindowRank(benchmark::State& state) { run(state, {"rank", {}, {}, std::nullopt}); }

// Wall-clock time: the evaluation allocates and the machine may be shared.
BENCHMARK(BM_WindowRunningSum)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WindowSlidingSum100)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WindowSlidingDoubleSum100)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WindowRank)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  bowstring_bench::add_setup_context();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
