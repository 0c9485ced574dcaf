#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "bowstring/array/array.h"
#include "bowstring/memory/allocator.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/table/record_batch.h"

namespace bowstring::compute {

// Selection kernels: they copy the chosen rows of any array (every Arrow type, nested,
// dictionary, union, run-end encoded and extension arrays included) into a new array whose
// buffers come from `allocator`. Inputs may be slices; outputs start at offset 0 and pass
// `validate_full()`. Dictionaries, the data buffers of view arrays and the children of list
// views are shared with the input instead of copied.

/// The rows of `values` where `mask` (boolean, same length) is true. A null in the mask drops
/// the row, as SQL's WHERE does. Throws `TypeError` when the mask is not boolean and
/// `InvalidArgument` when the lengths differ.
Array filter(const Array& values, const Array& mask, Allocator* allocator = default_allocator());

/// Every column of `batch` filtered by `mask` (see above).
RecordBatch filter(const RecordBatch& batch, const Array& mask,
                   Allocator* allocator = default_allocator());

/// Row `indices[i]` of `values` for each i: `indices` is any integer type; a null index gives a
/// null row. Throws `IndexError` naming the index and the length when an index is negative or
/// not below `values.length()`, `TypeError` when the indices are not integers.
Array take(const Array& values, const Array& indices, Allocator* allocator = default_allocator());

/// Every column of `batch` taken at `indices` (see above).
RecordBatch take(const RecordBatch& batch, const Array& indices,
                 Allocator* allocator = default_allocator());

/// `take` with indices given as plain numbers (no nulls): the form a selection vector has.
Array take(const Array& values, std::span<const int32_t> indices,
           Allocator* allocator = default_allocator());
Array take(const Array& values, std::span<const int64_t> indices,
           Allocator* allocator = default_allocator());

/// The positions of the true rows of a boolean mask, ascending (false and null rows are left
/// out): the selection vector a filter produces before any column is copied. Indices are int32
/// when the mask is shorter than 2^31 rows, int64 otherwise.
class SelectionVector {
 public:
  /// The rows of `mask` that are true; throws `TypeError` when it is not boolean.
  static SelectionVector from_mask(const Array& mask, Allocator* allocator = default_allocator());

  /// Number of selected rows.
  int64_t length() const { return length_; }
  /// Whether the indices are int64 (`wide()`) rather than int32 (`narrow()`).
  bool is_wide() const { return wide_; }
  std::span<const int32_t> narrow() const {
    return {indices_->data_as<int32_t>(), static_cast<size_t>(wide_ ? 0 : length_)};
  }
  std::span<const int64_t> wide() const {
    return {indices_->data_as<int64_t>(), static_cast<size_t>(wide_ ? length_ : 0)};
  }
  /// The buffer holding the indices.
  const std::shared_ptr<Buffer>& buffer() const { return indices_; }
  /// The indices as an int32 or int64 array.
  Array to_array() const;

 private:
  SelectionVector(std::shared_ptr<Buffer> indices, int64_t length, bool wide)
      : indices_(std::move(indices)), length_(length), wide_(wide) {}

  std::shared_ptr<Buffer> indices_;
  int64_t length_;
  bool wide_;
};

/// `SelectionVector::from_mask(mask, allocator)`.
SelectionVector selection_from_mask(const Array& mask, Allocator* allocator = default_allocator());

/// The rows of `values` a selection vector names.
Array take(const Array& values, const SelectionVector& selection,
           Allocator* allocator = default_allocator());

}  // namespace bowstring::compute
