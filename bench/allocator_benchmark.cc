// Allocation patterns of a columnar engine, run against each in-process allocator backend.
// bench/allocators.py also runs the `system` cases with jemalloc and mimalloc preloaded, which
// is how jemalloc is measured: it cannot be loaded into a running process (its thread-local
// storage model needs to be present at program start).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <thread>
#include <vector>

#include "bowstring/memory/allocator.h"

namespace {

bowstring::Allocator* backend(int index) {
  return index == 0 ? bowstring::system_allocator() : bowstring::mimalloc_allocator();
}

// Names the allocator and the threads allocating at once, which bench/allocators.py prints.
void describe(benchmark::State& state, bowstring::Allocator* allocator, int threads = 1) {
  state.SetLabel(allocator->name());
  state.counters["threads"] = threads;
}

// One allocation and free of a fixed size: scratch buffers in kernels.
void BM_AllocateFree(benchmark::State& state) {
  bowstring::Allocator* allocator = backend(static_cast<int>(state.range(0)));
  const int64_t size = state.range(1);
  for (auto _ : state) {
    uint8_t* ptr = allocator->allocate(size);
    benchmark::DoNotOptimize(ptr);
    allocator->free(ptr, size);
  }
  describe(state, allocator);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AllocateFree)->ArgsProduct({{0, 1}, {64, 4096, 1 << 20}});

// Doubling growth from 64 bytes to 4 MiB: what a builder's buffers do.
void BM_GrowByDoubling(benchmark::State& state) {
  bowstring::Allocator* allocator = backend(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    int64_t size = 64;
    uint8_t* ptr = allocator->allocate(size);
    while (size < (int64_t{4} << 20)) {
      ptr = allocator->reallocate(ptr, size, size * 2);
      ptr[size] = 1;
      size *= 2;
    }
    allocator->free(ptr, size);
  }
  describe(state, allocator);
}
BENCHMARK(BM_GrowByDoubling)->Arg(0)->Arg(1);

// Many live buffers of mixed sizes, freed in a different order: a batch of arrays in flight.
void mixed_batch(bowstring::Allocator* allocator, uint32_t seed, int count) {
  std::mt19937 rng(seed);
  std::vector<std::pair<uint8_t*, int64_t>> live;
  live.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    const int64_t size = int64_t{64} << (rng() % 11);
    live.emplace_back(allocator->allocate(size), size);
  }
  std::shuffle(live.begin(), live.end(), rng);
  for (auto [ptr, size] : live) {
    allocator->free(ptr, size);
  }
}

void BM_MixedBatch(benchmark::State& state) {
  bowstring::Allocator* allocator = backend(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    mixed_batch(allocator, 42, 1000);
  }
  describe(state, allocator);
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_MixedBatch)->Arg(0)->Arg(1);

// The same from two threads at once, contending for the allocator.
void BM_MixedBatchTwoThreads(benchmark::State& state) {
  bowstring::Allocator* allocator = backend(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    std::thread other([allocator] { mixed_batch(allocator, 7, 1000); });
    mixed_batch(allocator, 42, 1000);
    other.join();
  }
  describe(state, allocator, 2);
  state.SetItemsProcessed(state.iterations() * 2000);
}
BENCHMARK(BM_MixedBatchTwoThreads)->Arg(0)->Arg(1)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
