#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "bowstring/memory/buffer.h"
#include "bowstring/types/type.h"
#include "bowstring/util/bit_util.h"

namespace bowstring {

/// The physical layout of an array: its type, a logical window (offset, length) over its
/// buffers, the buffers themselves, child arrays and, for dictionary arrays, the dictionary.
///
/// ArrayData is immutable once shared (`std::shared_ptr<const ArrayData>`); building one is the
/// job of builders, readers and kernels. `buffers[0]` is always the validity slot (nullptr when
/// every value is valid, and always nullptr for null, union and run-end encoded types); the
/// remaining buffers follow `type->layout()`, and view types append their data buffers.
struct ArrayData {
  static constexpr int64_t kUnknownNullCount = -1;

  ArrayData(TypePtr type, int64_t length, std::vector<std::shared_ptr<Buffer>> buffers,
            int64_t null_count = kUnknownNullCount, int64_t offset = 0,
            std::vector<std::shared_ptr<const ArrayData>> children = {},
            std::shared_ptr<const ArrayData> dictionary = nullptr);

  ArrayData(const ArrayData& other);
  ArrayData& operator=(const ArrayData&) = delete;

  TypePtr type;
  int64_t length;
  int64_t offset;
  std::vector<std::shared_ptr<Buffer>> buffers;
  std::vector<std::shared_ptr<const ArrayData>> children;
  std::shared_ptr<const ArrayData> dictionary;

  /// Number of nulls in [offset, offset + length). Computed from the validity bitmap on first
  /// use and cached (thread safe). For union and run-end encoded arrays this is 0: their nulls
  /// live in the children, as in Arrow. Extension arrays count as their storage type does.
  int64_t null_count() const;
  /// The cached null count, or kUnknownNullCount if not yet computed.
  int64_t known_null_count() const { return null_count_.load(std::memory_order_relaxed); }

  /// A zero-copy view of `length` values from `offset` (relative to this view); O(1). The null
  /// count of the slice is computed lazily. Throws `IndexError` when out of range.
  std::shared_ptr<const ArrayData> slice(int64_t offset, int64_t length) const;

  /// True if value `i` (relative to the view) is null, looking only at the validity bitmap.
  bool is_null_in_bitmap(int64_t i) const {
    const Buffer* validity = buffers.empty() ? nullptr : buffers[0].get();
    return validity != nullptr && !bit_util::get_bit(validity->data(), offset + i);
  }

  /// Typed pointer to buffer `i`'s data, already advanced by `offset` values of type T.
  template <typename T>
  const T* values(int i) const {
    return reinterpret_cast<const T*>(buffers[static_cast<size_t>(i)]->data()) + offset;
  }

 private:
  mutable std::atomic<int64_t> null_count_;
};

using ArrayDataPtr = std::shared_ptr<const ArrayData>;

}  // namespace bowstring
