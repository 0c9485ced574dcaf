// The setup of both sides of a Bowstring-against-libarrow benchmark, added to Google Benchmark's
// context so that bench/*.py can name each side's threads and allocator above its ratios: what
// the libraries themselves report in this process, after the environment has had its say
// (BOWSTRING_ALLOCATOR, ARROW_DEFAULT_MEMORY_POOL, OMP_NUM_THREADS...).

#pragma once

#include <benchmark/benchmark.h>

#include <string>

#include "bowstring/memory/allocator.h"
#include "bowstring/runtime/parallel.h"

#ifdef BOWSTRING_BENCH_LIBARROW
#include <arrow/memory_pool.h>
#include <arrow/util/config.h>
#include <arrow/util/thread_pool.h>
#endif

namespace bowstring_bench {

inline void add_setup_context() {
  benchmark::AddCustomContext("bowstring_allocator", bowstring::default_allocator()->name());
  benchmark::AddCustomContext("bowstring_threads", std::to_string(bowstring::hardware_threads()));
#ifdef BOWSTRING_BENCH_LIBARROW
  benchmark::AddCustomContext("libarrow_version", ARROW_VERSION_STRING);
  benchmark::AddCustomContext("libarrow_pool", arrow::default_memory_pool()->backend_name());
  benchmark::AddCustomContext("libarrow_threads",
                              std::to_string(arrow::GetCpuThreadPoolCapacity()));
#endif
}

}  // namespace bowstring_bench
