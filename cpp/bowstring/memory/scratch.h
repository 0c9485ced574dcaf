#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <vector>

#include "bowstring/memory/allocator.h"

namespace bowstring {

/// Standard-library allocator drawing from a Bowstring `Allocator`, so that the scratch space of
/// an operation (sort entries, row lists, hash tables) is counted, budgeted and leak-checked
/// like its buffers. Allocations are `kAlignment`-aligned, enough for any `T`.
template <typename T>
class StlAllocator {
 public:
  using value_type = T;

  explicit StlAllocator(Allocator* allocator) noexcept : allocator_(allocator) {}
  template <typename U>
  StlAllocator(const StlAllocator<U>& other) noexcept  // NOLINT(google-explicit-constructor)
      : allocator_(other.allocator()) {}

  T* allocate(size_t count) {
    if (count > static_cast<size_t>(std::numeric_limits<int64_t>::max()) / sizeof(T)) {
      throw std::bad_array_new_length();
    }
    return reinterpret_cast<T*>(allocator_->allocate(static_cast<int64_t>(count * sizeof(T))));
  }
  void deallocate(T* pointer, size_t count) noexcept {
    allocator_->free(reinterpret_cast<uint8_t*>(pointer), static_cast<int64_t>(count * sizeof(T)));
  }

  Allocator* allocator() const noexcept { return allocator_; }

  template <typename U>
  bool operator==(const StlAllocator<U>& other) const noexcept {
    return allocator_ == other.allocator();
  }

 private:
  Allocator* allocator_;
};

/// A vector whose elements live in a Bowstring `Allocator`.
template <typename T>
using ScratchVector = std::vector<T, StlAllocator<T>>;

}  // namespace bowstring
