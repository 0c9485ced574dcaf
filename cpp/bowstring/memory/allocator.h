#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace bowstring {

/// Every allocation is aligned to this many bytes, as the Arrow format recommends, so that
/// buffers can be handed to SIMD code and to other Arrow implementations without a copy.
inline constexpr int64_t kAlignment = 64;

/// A snapshot of an allocator's counters.
struct AllocatorStats {
  int64_t bytes_in_use = 0;      ///< Bytes currently allocated and not yet freed.
  int64_t peak_bytes = 0;        ///< The highest `bytes_in_use` seen.
  int64_t total_allocated = 0;   ///< Sum of all bytes ever allocated (growth by reallocate counts).
  int64_t allocations = 0;       ///< Number of allocate calls (reallocate is not counted).
  int64_t live_allocations = 0;  ///< Allocations not yet freed.
};

/// Source of all buffer memory. Returned memory is aligned to `kAlignment`. A zero-byte
/// allocation returns a valid, aligned, non-null pointer that must still be freed.
///
/// Thread safe: every implementation may be used from several threads at once. `allocate`,
/// `reallocate` and `free` are non-virtual so that every implementation keeps the same
/// statistics; implementations override the `do_` hooks.
class Allocator {
 public:
  virtual ~Allocator() = default;
  Allocator() = default;
  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  /// Allocates `size` bytes. Throws `OutOfMemory` (naming the allocator) on failure.
  uint8_t* allocate(int64_t size);
  /// Grows or shrinks an allocation made by this allocator, keeping its first
  /// min(old_size, new_size) bytes. May move it. Throws `OutOfMemory` on failure, leaving the
  /// original allocation intact.
  uint8_t* reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size);
  /// Returns an allocation made by this allocator; `size` is the size it was given.
  void free(uint8_t* ptr, int64_t size);

  AllocatorStats stats() const;
  int64_t bytes_in_use() const { return bytes_in_use_.load(std::memory_order_relaxed); }
  /// Short name of the implementation ("system", "mimalloc", "checked(system)"...).
  virtual std::string name() const = 0;

 protected:
  virtual uint8_t* do_allocate(int64_t size) = 0;
  virtual uint8_t* do_reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size) = 0;
  virtual void do_free(uint8_t* ptr, int64_t size) = 0;

 private:
  void record_growth(int64_t delta);

  std::atomic<int64_t> bytes_in_use_{0};
  std::atomic<int64_t> peak_bytes_{0};
  std::atomic<int64_t> total_allocated_{0};
  std::atomic<int64_t> allocations_{0};
  std::atomic<int64_t> live_allocations_{0};
};

/// `posix_memalign` / `free` from the C library.
class SystemAllocator final : public Allocator {
 public:
  std::string name() const override { return "system"; }

 protected:
  uint8_t* do_allocate(int64_t size) override;
  uint8_t* do_reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size) override;
  void do_free(uint8_t* ptr, int64_t size) override;
};

/// mimalloc, loaded at run time (`libmimalloc.so.2`) with local symbol binding so that it serves
/// Bowstring's buffers without replacing `malloc` for the rest of the process (a Python
/// interpreter, for one). `available()` says whether the library could be loaded.
class MimallocAllocator final : public Allocator {
 public:
  MimallocAllocator();
  static bool available();
  std::string name() const override { return "mimalloc"; }

 protected:
  uint8_t* do_allocate(int64_t size) override;
  uint8_t* do_reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size) override;
  void do_free(uint8_t* ptr, int64_t size) override;
};

/// Wraps another allocator and records every live allocation: its size and, in debug builds,
/// the call stack that made it. Tests run under it and fail if anything is outstanding.
/// Freeing a pointer it did not hand out, or with the wrong size, throws `InvalidArgument`.
class CheckedAllocator final : public Allocator {
 public:
  explicit CheckedAllocator(Allocator* inner);
  ~CheckedAllocator() override;
  std::string name() const override;

  /// One line per live allocation (size, address and, in debug builds, where it was made);
  /// empty when nothing is outstanding.
  std::vector<std::string> leaks() const;
  /// Throws `Error` listing every leak when any allocation is still live.
  void check_no_leaks() const;

 protected:
  uint8_t* do_allocate(int64_t size) override;
  uint8_t* do_reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size) override;
  void do_free(uint8_t* ptr, int64_t size) override;

 private:
  struct State;
  Allocator* inner_;
  std::unique_ptr<State> state_;
};

/// Wraps another allocator and refuses any allocation that would take the bytes in use through
/// this allocator past `limit_bytes`: it throws `OutOfMemory` naming the budget, the limit, the
/// bytes in use and the size requested, and allocates nothing.
class BudgetedAllocator final : public Allocator {
 public:
  BudgetedAllocator(Allocator* inner, int64_t limit_bytes,
                    std::string budget_name = "memory budget");
  std::string name() const override;
  int64_t limit() const { return limit_; }

 protected:
  uint8_t* do_allocate(int64_t size) override;
  uint8_t* do_reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size) override;
  void do_free(uint8_t* ptr, int64_t size) override;

 private:
  void reserve(int64_t delta);

  Allocator* inner_;
  int64_t limit_;
  std::string budget_name_;
  std::atomic<int64_t> reserved_{0};
};

/// The process-wide system allocator (never destroyed).
Allocator* system_allocator();
/// The process-wide mimalloc allocator, or nullptr when the library cannot be loaded.
Allocator* mimalloc_allocator();

/// The allocator used when none is given. On first use it is chosen by the environment variable
/// `BOWSTRING_ALLOCATOR` (`system` or `mimalloc`); when unset, mimalloc if it can be loaded (it
/// measured fastest, see bench/allocators.sh), else the system allocator. An unknown name, or
/// `mimalloc` when it cannot be loaded, throws `InvalidArgument`.
Allocator* default_allocator();

/// Replaces the process-wide default (tests install a checked allocator this way). Returns the
/// previous default. Not meant to be called while other threads allocate through the default.
Allocator* set_default_allocator(Allocator* allocator);

/// Looks up an allocator by name ("system", "mimalloc"); throws `InvalidArgument` listing the
/// known names when `name` is not one of them or is not available on this machine.
Allocator* allocator_by_name(std::string_view name);

}  // namespace bowstring
