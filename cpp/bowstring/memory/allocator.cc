#include "bowstring/memory/allocator.h"

#include <dlfcn.h>
#include <execinfo.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "bowstring/util/error.h"

namespace bowstring {

namespace {

// Zero-byte allocations all return this address: aligned, never dereferenced, never freed.
alignas(kAlignment) uint8_t zero_size_area[kAlignment];

uint8_t* zero_size_pointer() { return zero_size_area; }

std::string format_bytes(int64_t bytes) {
  std::ostringstream out;
  out << bytes << " bytes";
  return out.str();
}

[[noreturn]] void throw_allocation_failure(const std::string& allocator, int64_t size) {
  throw OutOfMemory("allocator '" + allocator + "' failed to allocate " + format_bytes(size));
}

void check_size(int64_t size) {
  if (size < 0) {
    throw InvalidArgument("allocation size must be non-negative, got " + std::to_string(size));
  }
}

}  // namespace

uint8_t* Allocator::allocate(int64_t size) {
  check_size(size);
  uint8_t* ptr = size == 0 ? zero_size_pointer() : do_allocate(size);
  allocations_.fetch_add(1, std::memory_order_relaxed);
  live_allocations_.fetch_add(1, std::memory_order_relaxed);
  total_allocated_.fetch_add(size, std::memory_order_relaxed);
  record_growth(size);
  return ptr;
}

uint8_t* Allocator::reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size) {
  check_size(new_size);
  uint8_t* result;
  if (old_size == 0) {
    result = new_size == 0 ? zero_size_pointer() : do_allocate(new_size);
  } else if (new_size == 0) {
    do_free(ptr, old_size);
    result = zero_size_pointer();
  } else {
    result = do_reallocate(ptr, old_size, new_size);
  }
  if (new_size > old_size) {
    total_allocated_.fetch_add(new_size - old_size, std::memory_order_relaxed);
  }
  record_growth(new_size - old_size);
  return result;
}

void Allocator::free(uint8_t* ptr, int64_t size) {
  if (size != 0) {
    do_free(ptr, size);
  }
  live_allocations_.fetch_sub(1, std::memory_order_relaxed);
  bytes_in_use_.fetch_sub(size, std::memory_order_relaxed);
}

void Allocator::record_growth(int64_t delta) {
  const int64_t now = bytes_in_use_.fetch_add(delta, std::memory_order_relaxed) + delta;
  int64_t peak = peak_bytes_.load(std::memory_order_relaxed);
  while (now > peak && !peak_bytes_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

AllocatorStats Allocator::stats() const {
  AllocatorStats stats;
  stats.bytes_in_use = bytes_in_use_.load(std::memory_order_relaxed);
  stats.peak_bytes = peak_bytes_.load(std::memory_order_relaxed);
  stats.total_allocated = total_allocated_.load(std::memory_order_relaxed);
  stats.allocations = allocations_.load(std::memory_order_relaxed);
  stats.live_allocations = live_allocations_.load(std::memory_order_relaxed);
  return stats;
}

// --- system -------------------------------------------------------------------------------

uint8_t* SystemAllocator::do_allocate(int64_t size) {
  void* ptr = nullptr;
  if (posix_memalign(&ptr, kAlignment, static_cast<size_t>(size)) != 0) {
    throw_allocation_failure(name(), size);
  }
  return static_cast<uint8_t*>(ptr);
}

uint8_t* SystemAllocator::do_reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size) {
  // realloc() does not keep the alignment, so grow by allocate + copy + free.
  uint8_t* moved = do_allocate(new_size);
  std::memcpy(moved, ptr, static_cast<size_t>(std::min(old_size, new_size)));
  std::free(ptr);
  return moved;
}

void SystemAllocator::do_free(uint8_t* ptr, int64_t /*size*/) { std::free(ptr); }

// --- mimalloc -----------------------------------------------------------------------------

namespace {

struct MimallocLibrary {
  void* (*malloc_aligned)(size_t, size_t) = nullptr;
  void* (*realloc_aligned)(void*, size_t, size_t) = nullptr;
  void (*free)(void*) = nullptr;
  std::string load_error;

  MimallocLibrary() {
    // RTLD_LOCAL keeps mimalloc's malloc/free from interposing on the rest of the process.
    void* handle = nullptr;
    for (const char* soname : {"libmimalloc.so.2", "libmimalloc.so"}) {
      handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
      if (handle != nullptr) {
        break;
      }
    }
    if (handle == nullptr) {
      const char* error = dlerror();
      load_error = error != nullptr ? error : "libmimalloc.so.2 not found";
      return;
    }
    malloc_aligned =
        reinterpret_cast<void* (*)(size_t, size_t)>(dlsym(handle, "mi_malloc_aligned"));
    realloc_aligned =
        reinterpret_cast<void* (*)(void*, size_t, size_t)>(dlsym(handle, "mi_realloc_aligned"));
    free = reinterpret_cast<void (*)(void*)>(dlsym(handle, "mi_free"));
    if (malloc_aligned == nullptr || realloc_aligned == nullptr || free == nullptr) {
      load_error = "libmimalloc lacks mi_malloc_aligned, mi_realloc_aligned or mi_free";
      malloc_aligned = nullptr;
      return;
    }
    reserve_arena(handle);
  }

  // mimalloc returns segments of 16 MiB and more to the OS as soon as they are freed, so a
  // builder that grows past that size paid thousands of page faults for every new array
  // (bench/builder_benchmark.cc, utf8 cases). A 1 GiB arena keeps freed segments for reuse. It
  // is mapped read-write ("committed") but, as with any mapping, pages cost memory only once
  // touched; what was touched stays with the process, as in libarrow's memory pools.
  // An uncommitted arena does not help: mimalloc decommits its freed segments.
  static void reserve_arena(void* handle) {
    if (std::getenv("MIMALLOC_RESERVE_OS_MEMORY") != nullptr) {
      return;  // mimalloc reserves what the environment asks for itself.
    }
    using ReserveFunction = int (*)(size_t, bool, bool);
    auto reserve = reinterpret_cast<ReserveFunction>(dlsym(handle, "mi_reserve_os_memory"));
    if (reserve != nullptr) {
      constexpr size_t kArenaBytes = size_t{1} << 30;
      reserve(kArenaBytes, /*commit=*/true, /*allow_large=*/false);
    }
  }

  bool loaded() const { return malloc_aligned != nullptr; }
};

const MimallocLibrary& mimalloc_library() {
  static const MimallocLibrary* library = new MimallocLibrary();
  return *library;
}

}  // namespace

MimallocAllocator::MimallocAllocator() {
  if (!available()) {
    throw InvalidArgument("the mimalloc allocator is not available: " +
                          mimalloc_library().load_error);
  }
}

bool MimallocAllocator::available() { return mimalloc_library().loaded(); }

uint8_t* MimallocAllocator::do_allocate(int64_t size) {
  void* ptr = mimalloc_library().malloc_aligned(static_cast<size_t>(size), kAlignment);
  if (ptr == nullptr) {
    throw_allocation_failure(name(), size);
  }
  return static_cast<uint8_t*>(ptr);
}

uint8_t* MimallocAllocator::do_reallocate(uint8_t* ptr, int64_t /*old_size*/, int64_t new_size) {
  void* moved = mimalloc_library().realloc_aligned(ptr, static_cast<size_t>(new_size), kAlignment);
  if (moved == nullptr) {
    throw_allocation_failure(name(), new_size);
  }
  return static_cast<uint8_t*>(moved);
}

void MimallocAllocator::do_free(uint8_t* ptr, int64_t /*size*/) { mimalloc_library().free(ptr); }

// --- checked ------------------------------------------------------------------------------

namespace {

#ifndef NDEBUG
constexpr int kMaxFrames = 16;
#endif

struct AllocationRecord {
  int64_t size = 0;
#ifndef NDEBUG
  void* frames[kMaxFrames] = {};
  int frame_count = 0;
#endif
};

}  // namespace

struct CheckedAllocator::State {
  mutable std::mutex mutex;
  std::unordered_map<const uint8_t*, AllocationRecord> live;

  void add(const uint8_t* ptr, int64_t size) {
    AllocationRecord record;
    record.size = size;
#ifndef NDEBUG
    record.frame_count = backtrace(record.frames, kMaxFrames);
#endif
    std::lock_guard lock(mutex);
    live[ptr] = record;
  }

  void remove(const uint8_t* ptr, int64_t size, const char* operation) {
    std::lock_guard lock(mutex);
    auto it = live.find(ptr);
    if (it == live.end()) {
      std::ostringstream out;
      out << operation << " of " << static_cast<const void*>(ptr)
          << ", which this checked allocator did not hand out (double free?)";
      throw InvalidArgument(out.str());
    }
    if (it->second.size != size) {
      std::ostringstream out;
      out << operation << " of " << static_cast<const void*>(ptr) << " with size " << size
          << ", but it was allocated with size " << it->second.size;
      throw InvalidArgument(out.str());
    }
    live.erase(it);
  }
};

CheckedAllocator::CheckedAllocator(Allocator* inner)
    : inner_(inner), state_(std::make_unique<State>()) {}

CheckedAllocator::~CheckedAllocator() = default;

std::string CheckedAllocator::name() const { return "checked(" + inner_->name() + ")"; }

uint8_t* CheckedAllocator::do_allocate(int64_t size) {
  uint8_t* ptr = inner_->allocate(size);
  state_->add(ptr, size);
  return ptr;
}

uint8_t* CheckedAllocator::do_reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size) {
  state_->remove(ptr, old_size, "reallocate");
  uint8_t* moved;
  try {
    moved = inner_->reallocate(ptr, old_size, new_size);
  } catch (...) {
    state_->add(ptr, old_size);
    throw;
  }
  state_->add(moved, new_size);
  return moved;
}

void CheckedAllocator::do_free(uint8_t* ptr, int64_t size) {
  state_->remove(ptr, size, "free");
  inner_->free(ptr, size);
}

std::vector<std::string> CheckedAllocator::leaks() const {
  std::vector<std::string> lines;
  std::lock_guard lock(state_->mutex);
  for (const auto& [ptr, record] : state_->live) {
    std::ostringstream out;
    out << "leaked " << record.size << " bytes at " << static_cast<const void*>(ptr);
#ifndef NDEBUG
    char** symbols = backtrace_symbols(record.frames, record.frame_count);
    if (symbols != nullptr) {
      out << ", allocated at:";
      for (int i = 0; i < record.frame_count; ++i) {
        out << "\n    " << symbols[i];
      }
      std::free(static_cast<void*>(symbols));
    }
#endif
    lines.push_back(out.str());
  }
  // Zero-byte allocations never reach do_allocate; the base counters still see them.
  const int64_t zero_size_live =
      stats().live_allocations - static_cast<int64_t>(state_->live.size());
  if (zero_size_live > 0) {
    lines.push_back("leaked " + std::to_string(zero_size_live) + " zero-byte allocation(s)");
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

void CheckedAllocator::check_no_leaks() const {
  const std::vector<std::string> found = leaks();
  if (found.empty()) {
    return;
  }
  std::ostringstream out;
  out << found.size() << " allocation(s) outstanding in " << name() << ":";
  for (const std::string& line : found) {
    out << "\n  " << line;
  }
  throw Error(out.str());
}

// --- budgeted -----------------------------------------------------------------------------

BudgetedAllocator::BudgetedAllocator(Allocator* inner, int64_t limit_bytes, std::string budget_name)
    : inner_(inner), limit_(limit_bytes), budget_name_(std::move(budget_name)) {
  if (limit_bytes < 0) {
    throw InvalidArgument("budget '" + budget_name_ + "' must have a non-negative limit, got " +
                          std::to_string(limit_bytes));
  }
}

std::string BudgetedAllocator::name() const {
  return "budgeted(" + inner_->name() + ", " + budget_name_ + ")";
}

void BudgetedAllocator::reserve(int64_t delta) {
  int64_t current = reserved_.load(std::memory_order_relaxed);
  do {
    if (delta > limit_ - current) {  // current + delta could overflow
      std::ostringstream out;
      out << "out of memory: allocating " << delta << " more bytes would exceed the "
          << budget_name_ << " of " << limit_ << " bytes (" << current << " bytes in use)";
      throw OutOfMemory(out.str());
    }
  } while (!reserved_.compare_exchange_weak(current, current + delta, std::memory_order_relaxed));
}

uint8_t* BudgetedAllocator::do_allocate(int64_t size) {
  reserve(size);
  try {
    return inner_->allocate(size);
  } catch (...) {
    reserved_.fetch_sub(size, std::memory_order_relaxed);
    throw;
  }
}

uint8_t* BudgetedAllocator::do_reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size) {
  const int64_t delta = new_size - old_size;
  if (delta > 0) {
    reserve(delta);
  }
  uint8_t* moved;
  try {
    moved = inner_->reallocate(ptr, old_size, new_size);
  } catch (...) {
    if (delta > 0) {
      reserved_.fetch_sub(delta, std::memory_order_relaxed);
    }
    throw;
  }
  if (delta < 0) {
    reserved_.fetch_add(delta, std::memory_order_relaxed);
  }
  return moved;
}

void BudgetedAllocator::do_free(uint8_t* ptr, int64_t size) {
  inner_->free(ptr, size);
  reserved_.fetch_sub(size, std::memory_order_relaxed);
}

// --- process-wide defaults ----------------------------------------------------------------

Allocator* system_allocator() {
  static Allocator* instance = new SystemAllocator();
  return instance;
}

Allocator* mimalloc_allocator() {
  static Allocator* instance = MimallocAllocator::available() ? new MimallocAllocator() : nullptr;
  return instance;
}

Allocator* allocator_by_name(std::string_view name) {
  if (name == "system") {
    return system_allocator();
  }
  if (name == "mimalloc") {
    if (Allocator* mimalloc = mimalloc_allocator()) {
      return mimalloc;
    }
    throw InvalidArgument("allocator 'mimalloc' is not available: " +
                          mimalloc_library().load_error);
  }
  throw InvalidArgument("unknown allocator '" + std::string(name) +
                        "': expected 'system' or 'mimalloc'");
}

namespace {

Allocator* choose_default_allocator() {
  const char* requested = std::getenv("BOWSTRING_ALLOCATOR");
  if (requested != nullptr && *requested != '\0') {
    return allocator_by_name(requested);
  }
  if (Allocator* mimalloc = mimalloc_allocator()) {
    return mimalloc;
  }
  return system_allocator();
}

std::atomic<Allocator*>& default_allocator_slot() {
  static std::atomic<Allocator*> slot{choose_default_allocator()};
  return slot;
}

}  // namespace

Allocator* default_allocator() { return default_allocator_slot().load(std::memory_order_acquire); }

Allocator* set_default_allocator(Allocator* allocator) {
  if (allocator == nullptr) {
    throw InvalidArgument("the default allocator cannot be null");
  }
  return default_allocator_slot().exchange(allocator, std::memory_order_acq_rel);
}

}  // namespace bowstring
