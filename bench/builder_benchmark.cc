// Builders and slicing, Bowstring against Apache Arrow's C++ library in the same binary: every
// case runs the same work on the same pre-generated data through both. bench/builders.py prints
// the Bowstring/libarrow ratios.
//
// Each case is registered once per memory source: `bowstring` and `libarrow` use their default
// allocators, `bowstring[system]` and `libarrow[system]` the C library's, and
// `bowstring[mimalloc]` and `libarrow[mimalloc]` mimalloc (when both have it: the system's
// libmimalloc for Bowstring, the copy bundled in libarrow for libarrow, not the same release),
// so that builder code can be compared with the allocator held nearly equal. Bowstring's
// mimalloc reserves a committed arena that libarrow's does not, unless MIMALLOC_RESERVE_OS_MEMORY
// gives both the same one, as bench/builders.py does for the mimalloc pairing. Every case runs
// on the calling thread and reports its page faults per iteration. Without pyarrow at build time
// only the Bowstring half is built.

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_nested.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/memory/allocator.h"
#include "setup_context.h"

#ifdef BOWSTRING_BENCH_LIBARROW
#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/memory_pool.h>
#include <arrow/status.h>
#endif

namespace {

constexpr int64_t kValues = 1'000'000;
constexpr int64_t kSpan = 1024;         // values per append_values call
constexpr int64_t kSlices = 1000;       // slices per iteration of a slicing case
constexpr int64_t kSliceLength = 1000;  // values per slice

// The inputs, generated once with a fixed seed so that every case and side sees the same data.
struct Inputs {
  std::vector<int64_t> int64s;
  std::vector<uint8_t> bools;
  std::vector<std::string> strings;  // 8 to 24 bytes
  std::vector<uint8_t> valid;        // one byte per value, about 10% zero (null)
  std::vector<int32_t> list_sizes;   // 3 to 7, 5 on average, kValues in total

  Inputs() {
    std::mt19937_64 rng(20240601);
    int64s.resize(kValues);
    bools.resize(kValues);
    strings.resize(kValues);
    valid.resize(kValues);
    for (int64_t i = 0; i < kValues; ++i) {
      int64s[i] = static_cast<int64_t>(rng());
      bools[i] = static_cast<uint8_t>(rng() & 1);
      std::string& s = strings[i];
      s.resize(8 + rng() % 17);
      for (char& c : s) {
        c = static_cast<char>('a' + rng() % 26);
      }
      valid[i] = static_cast<uint8_t>(rng() % 10 != 0);
    }
    for (int64_t values = 0; values < kValues;) {
      const auto size = static_cast<int32_t>(std::min<int64_t>(3 + rng() % 5, kValues - values));
      list_sizes.push_back(size);
      values += size;
    }
  }
};

const Inputs& inputs() {
  static const Inputs data;
  return data;
}

int64_t minor_page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Counts the values a case appends and the page faults it takes (memory handed back to the
// system by an allocator and faulted in again on the next use), both per iteration.
class CaseCounters {
 public:
  CaseCounters(benchmark::State& state, int64_t values_per_iteration)
      : state_(state), values_(values_per_iteration), faults_at_start_(minor_page_faults()) {}
  ~CaseCounters() {
    state_.SetItemsProcessed(state_.iterations() * values_);
    state_.counters["faults"] =
        benchmark::Counter(static_cast<double>(minor_page_faults() - faults_at_start_),
                           benchmark::Counter::kAvgIterations);
  }
  CaseCounters(const CaseCounters&) = delete;
  CaseCounters& operator=(const CaseCounters&) = delete;

 private:
  benchmark::State& state_;
  int64_t values_;
  int64_t faults_at_start_;
};

// --- Bowstring ----------------------------------------------------------------------------

using bowstring::Allocator;

void bow_int64_append(benchmark::State& state, Allocator* allocator) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().int64s;
  for (auto _ : state) {
    bowstring::Int64Builder builder(allocator);
    for (const int64_t v : values) {
      builder.append(v);
    }
    benchmark::DoNotOptimize(builder.finish());
  }
}

void bow_int64_append_values(benchmark::State& state, Allocator* allocator) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().int64s;
  for (auto _ : state) {
    bowstring::Int64Builder builder(allocator);
    for (int64_t i = 0; i < kValues; i += kSpan) {
      builder.append_values(std::span<const int64_t>(
          values.data() + i, static_cast<size_t>(std::min(kSpan, kValues - i))));
    }
    benchmark::DoNotOptimize(builder.finish());
  }
}

void bow_int64_unsafe_append(benchmark::State& state, Allocator* allocator) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().int64s;
  for (auto _ : state) {
    bowstring::Int64Builder builder(allocator);
    builder.reserve(kValues);
    for (const int64_t v : values) {
      builder.unsafe_append(v);
    }
    benchmark::DoNotOptimize(builder.finish());
  }
}

void bow_bool_append(benchmark::State& state, Allocator* allocator) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().bools;
  for (auto _ : state) {
    bowstring::BooleanBuilder builder(allocator);
    for (const uint8_t v : values) {
      builder.append(v != 0);
    }
    benchmark::DoNotOptimize(builder.finish());
  }
}

void bow_bool_append_values(benchmark::State& state, Allocator* allocator) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().bools;
  for (auto _ : state) {
    bowstring::BooleanBuilder builder(allocator);
    for (int64_t i = 0; i < kValues; i += kSpan) {
      builder.append_values(std::span<const uint8_t>(
          values.data() + i, static_cast<size_t>(std::min(kSpan, kValues - i))));
    }
    benchmark::DoNotOptimize(builder.finish());
  }
}

void bow_utf8_append(benchmark::State& state, Allocator* allocator) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().strings;
  for (auto _ : state) {
    bowstring::StringBuilder builder(allocator);
    for (const std::string& s : values) {
      builder.append(std::string_view(s));
    }
    benchmark::DoNotOptimize(builder.finish());
  }
}

void bow_utf8_append_nulls(benchmark::State& state, Allocator* allocator) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().strings;
  const auto& valid = inputs().valid;
  for (auto _ : state) {
    bowstring::StringBuilder builder(allocator);
    for (int64_t i = 0; i < kValues; ++i) {
      if (valid[i] != 0) {
        builder.append(std::string_view(values[i]));
      } else {
        builder.append_null();
      }
    }
    benchmark::DoNotOptimize(builder.finish());
  }
}

bowstring::Array bow_build_list_int64(Allocator* allocator) {
  const auto& values = inputs().int64s;
  bowstring::ListBuilder builder(bowstring::list(bowstring::int64()), allocator);
  auto& value_builder = builder.value_builder().as<bowstring::Int64Builder>();
  int64_t next = 0;
  for (const int32_t size : inputs().list_sizes) {
    builder.append();
    for (int32_t k = 0; k < size; ++k) {
      value_builder.append(values[next++]);
    }
  }
  return builder.finish();
}

void bow_list_int64_append(benchmark::State& state, Allocator* allocator) {
  const CaseCounters counters(state, kValues);
  for (auto _ : state) {
    benchmark::DoNotOptimize(bow_build_list_int64(allocator));
  }
}

bowstring::Array bow_int64_array() {
  bowstring::Int64Builder builder;
  builder.append_values(std::span<const int64_t>(inputs().int64s));
  return builder.finish();
}

bowstring::Array bow_utf8_array_with_nulls() {
  bowstring::StringBuilder builder;
  builder.append_values(std::span<const std::string>(inputs().strings), inputs().valid.data());
  return builder.finish();
}

void bow_slice(benchmark::State& state, const bowstring::Array& array) {
  const CaseCounters counters(state, kSlices);
  const int64_t span = array.length() - kSliceLength;
  for (auto _ : state) {
    for (int64_t i = 0; i < kSlices; ++i) {
      benchmark::DoNotOptimize(array.slice((i * 7919) % span, kSliceLength));
    }
  }
}

// --- libarrow -----------------------------------------------------------------------------

#ifdef BOWSTRING_BENCH_LIBARROW

void expect_ok(const arrow::Status& status) {
  if (!status.ok()) [[unlikely]] {
    throw std::runtime_error(status.ToString());
  }
}

template <typename Builder>
void finish(Builder& builder) {
  std::shared_ptr<arrow::Array> array;
  expect_ok(builder.Finish(&array));
  benchmark::DoNotOptimize(array);
}

void arrow_int64_append(benchmark::State& state, arrow::MemoryPool* pool) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().int64s;
  for (auto _ : state) {
    arrow::Int64Builder builder(pool);
    for (const int64_t v : values) {
      expect_ok(builder.Append(v));
    }
    finish(builder);
  }
}

void arrow_int64_append_values(benchmark::State& state, arrow::MemoryPool* pool) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().int64s;
  for (auto _ : state) {
    arrow::Int64Builder builder(pool);
    for (int64_t i = 0; i < kValues; i += kSpan) {
      expect_ok(builder.AppendValues(values.data() + i, std::min(kSpan, kValues - i)));
    }
    finish(builder);
  }
}

void arrow_int64_unsafe_append(benchmark::State& state, arrow::MemoryPool* pool) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().int64s;
  for (auto _ : state) {
    arrow::Int64Builder builder(pool);
    expect_ok(builder.Reserve(kValues));
    for (const int64_t v : values) {
      builder.UnsafeAppend(v);
    }
    finish(builder);
  }
}

void arrow_bool_append(benchmark::State& state, arrow::MemoryPool* pool) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().bools;
  for (auto _ : state) {
    arrow::BooleanBuilder builder(pool);
    for (const uint8_t v : values) {
      expect_ok(builder.Append(v != 0));
    }
    finish(builder);
  }
}

void arrow_bool_append_values(benchmark::State& state, arrow::MemoryPool* pool) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().bools;
  for (auto _ : state) {
    arrow::BooleanBuilder builder(pool);
    for (int64_t i = 0; i < kValues; i += kSpan) {
      expect_ok(builder.AppendValues(values.data() + i, std::min(kSpan, kValues - i)));
    }
    finish(builder);
  }
}

void arrow_utf8_append(benchmark::State& state, arrow::MemoryPool* pool) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().strings;
  for (auto _ : state) {
    arrow::StringBuilder builder(pool);
    for (const std::string& s : values) {
      expect_ok(builder.Append(std::string_view(s)));
    }
    finish(builder);
  }
}

void arrow_utf8_append_nulls(benchmark::State& state, arrow::MemoryPool* pool) {
  const CaseCounters counters(state, kValues);
  const auto& values = inputs().strings;
  const auto& valid = inputs().valid;
  for (auto _ : state) {
    arrow::StringBuilder builder(pool);
    for (int64_t i = 0; i < kValues; ++i) {
      if (valid[i] != 0) {
        expect_ok(builder.Append(std::string_view(values[i])));
      } else {
        expect_ok(builder.AppendNull());
      }
    }
    finish(builder);
  }
}

std::shared_ptr<arrow::Array> arrow_build_list_int64(arrow::MemoryPool* pool) {
  const auto& values = inputs().int64s;
  arrow::ListBuilder builder(pool, std::make_shared<arrow::Int64Builder>(pool));
  auto& value_builder = static_cast<arrow::Int64Builder&>(*builder.value_builder());
  int64_t next = 0;
  for (const int32_t size : inputs().list_sizes) {
    expect_ok(builder.Append());
    for (int32_t k = 0; k < size; ++k) {
      expect_ok(value_builder.Append(values[next++]));
    }
  }
  std::shared_ptr<arrow::Array> array;
  expect_ok(builder.Finish(&array));
  return array;
}

void arrow_list_int64_append(benchmark::State& state, arrow::MemoryPool* pool) {
  const CaseCounters counters(state, kValues);
  for (auto _ : state) {
    benchmark::DoNotOptimize(arrow_build_list_int64(pool));
  }
}

std::shared_ptr<arrow::Array> arrow_int64_array() {
  arrow::Int64Builder builder;
  expect_ok(builder.AppendValues(inputs().int64s));
  std::shared_ptr<arrow::Array> array;
  expect_ok(builder.Finish(&array));
  return array;
}

std::shared_ptr<arrow::Array> arrow_utf8_array_with_nulls() {
  arrow::StringBuilder builder;
  expect_ok(builder.AppendValues(inputs().strings, inputs().valid.data()));
  std::shared_ptr<arrow::Array> array;
  expect_ok(builder.Finish(&array));
  return array;
}

void arrow_slice(benchmark::State& state, const std::shared_ptr<arrow::Array>& array) {
  const CaseCounters counters(state, kSlices);
  const int64_t span = array->length() - kSliceLength;
  for (auto _ : state) {
    for (int64_t i = 0; i < kSlices; ++i) {
      benchmark::DoNotOptimize(array->Slice((i * 7919) % span, kSliceLength));
    }
  }
}

#endif  // BOWSTRING_BENCH_LIBARROW

// --- Registration -------------------------------------------------------------------------

using BowCase = void (*)(benchmark::State&, Allocator*);

void register_bowstring(const std::string& name, BowCase run) {
  benchmark::RegisterBenchmark((name + "/bowstring").c_str(), run, bowstring::default_allocator())
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark((name + "/bowstring[system]").c_str(), run,
                               bowstring::system_allocator())
      ->Unit(benchmark::kMicrosecond);
  if (Allocator* mimalloc = bowstring::mimalloc_allocator()) {
    benchmark::RegisterBenchmark((name + "/bowstring[mimalloc]").c_str(), run, mimalloc)
        ->Unit(benchmark::kMicrosecond);
  }
}

#ifdef BOWSTRING_BENCH_LIBARROW

using ArrowCase = void (*)(benchmark::State&, arrow::MemoryPool*);

arrow::MemoryPool* arrow_mimalloc_pool() {
  arrow::MemoryPool* pool = nullptr;
  return arrow::mimalloc_memory_pool(&pool).ok() ? pool : nullptr;
}

void register_pair(const std::string& name, BowCase bow, ArrowCase arrow_case) {
  register_bowstring(name, bow);
  benchmark::RegisterBenchmark((name + "/libarrow").c_str(), arrow_case,
                               arrow::default_memory_pool())
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark((name + "/libarrow[system]").c_str(), arrow_case,
                               arrow::system_memory_pool())
      ->Unit(benchmark::kMicrosecond);
  if (arrow::MemoryPool* mimalloc = arrow_mimalloc_pool()) {
    benchmark::RegisterBenchmark((name + "/libarrow[mimalloc]").c_str(), arrow_case, mimalloc)
        ->Unit(benchmark::kMicrosecond);
  }
}

void register_slice(const std::string& name, const bowstring::Array& bow,
                    const std::shared_ptr<arrow::Array>& arrow_array) {
  benchmark::RegisterBenchmark((name + "/bowstring").c_str(), bow_slice, bow)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark((name + "/libarrow").c_str(), arrow_slice, arrow_array)
      ->Unit(benchmark::kMicrosecond);
}

// Without libarrow, the macros drop the libarrow half of each case.
#define BUILDER_CASE(NAME, BOW, ARROW) register_pair(NAME, BOW, ARROW)
#define SLICE_CASE(NAME, BOW, ARROW) register_slice(NAME, BOW, ARROW)

#else

void register_slice(const std::string& name, const bowstring::Array& bow) {
  benchmark::RegisterBenchmark((name + "/bowstring").c_str(), bow_slice, bow)
      ->Unit(benchmark::kMicrosecond);
}

#define BUILDER_CASE(NAME, BOW, ARROW) register_bowstring(NAME, BOW)
#define SLICE_CASE(NAME, BOW, ARROW) register_slice(NAME, BOW)

#endif  // BOWSTRING_BENCH_LIBARROW

void register_all() {
  BUILDER_CASE("int64_append", bow_int64_append, arrow_int64_append);
  BUILDER_CASE("int64_append_values", bow_int64_append_values, arrow_int64_append_values);
  BUILDER_CASE("int64_unsafe_append", bow_int64_unsafe_append, arrow_int64_unsafe_append);
  BUILDER_CASE("bool_append", bow_bool_append, arrow_bool_append);
  BUILDER_CASE("bool_append_values", bow_bool_append_values, arrow_bool_append_values);
  BUILDER_CASE("utf8_append", bow_utf8_append, arrow_utf8_append);
  BUILDER_CASE("utf8_append_nulls", bow_utf8_append_nulls, arrow_utf8_append_nulls);
  BUILDER_CASE("list_int64_append", bow_list_int64_append, arrow_list_int64_append);

  // Slicing allocates only the small array header, never from the buffer allocator: one
  // variant per side. A list slice also carries its child. libarrow's jemalloc starts a
  // background thread when loaded, so reference counts are atomic on both sides here (as in an
  // engine running a thread pool); without libarrow the process stays single-threaded and
  // Bowstring's slices measure faster.
  // Each benchmark holds its own handle to its array.
  SLICE_CASE("int64_slice", bow_int64_array(), arrow_int64_array());
  SLICE_CASE("utf8_nulls_slice", bow_utf8_array_with_nulls(), arrow_utf8_array_with_nulls());
  SLICE_CASE("list_int64_slice", bow_build_list_int64(bowstring::default_allocator()),
             arrow_build_list_int64(arrow::default_memory_pool()));
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    return 1;
  }
  bowstring_bench::add_setup_context();
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
