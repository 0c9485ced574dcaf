#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/compute/core/datum.h"
#include "bowstring/memory/allocator.h"

// Moving rows between whole batches and the subsets of rows a branch of an expression sees.
// A subset is a bitmap of the rows (`RowMask`); `compute::filter` by its `to_array()` gathers
// them, and `scatter` puts values computed for them back in place.

namespace bowstring::expr {

/// A set of rows among `length`, as 64-bit words of bits (bits past `length` are zero).
struct RowMask {
  std::vector<uint64_t> words;
  int64_t length = 0;

  /// No row, or every row.
  static RowMask none(int64_t length);
  static RowMask all(int64_t length);

  /// Number of rows in the set.
  int64_t count() const;
  bool empty() const { return count() == 0; }
  bool is_all() const { return count() == length; }
  /// The set as a boolean array (for `compute::filter`).
  Array to_array(Allocator* allocator) const;
  /// Clears the bits past `length`.
  void clear_tail();
};

/// Values computed for some rows. `values` is a scalar (the value of every row), an array with
/// one value per row of `source` in row order (compact), or, when `in_place`, an array of all
/// the rows where row r's value is at r. The rows of `target` (a subset of `source`, which
/// in-place and scalar pieces ignore) receive their value.
struct RowPiece {
  compute::Datum values;
  const RowMask* source;
  const RowMask* target;
  bool in_place = false;
};

/// One array of `length` rows of `type` assembled from `pieces` (which all have that type and
/// disjoint targets); rows no piece targets are null.
Array scatter(const TypePtr& type, int64_t length, std::span<const RowPiece> pieces,
              Allocator* allocator);

}  // namespace bowstring::expr
