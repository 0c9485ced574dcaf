#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "bowstring/array/array.h"
#include "bowstring/memory/allocator.h"

namespace bowstring::compute {

/// The order of one sort key, as Spark's ORDER BY gives it.
struct SortKey {
  bool ascending = true;
  /// Where nulls go; unset means Spark's default: first when ascending, last when descending.
  std::optional<bool> nulls_first;

  bool nulls_go_first() const { return nulls_first.value_or(ascending); }
};

// Sorting follows Spark's ordering of values:
// - numbers by value; NaN is greater than every other value (+infinity included) and equal to
//   any other NaN; -0.0 equals 0.0;
// - strings and binaries by their bytes (UTF-8 byte order, which is code point order);
// - false before true; decimals, dates, times, timestamps and durations by value;
// - dictionary arrays by their decoded values, run-end encoded and extension arrays by the
//   values they hold;
// - structs field by field, each field in its ascending order with its nulls smallest;
// - lists (list, large_list, their views, fixed_size_list) element by element, null elements
//   smallest, then a list before its extensions (shorter first); nesting to any depth.
// Descending reverses the whole comparison, inside nested values too; `nulls_first` places only
// the key's own nulls. Sorts are stable: rows with equal keys keep their input order. Types
// Spark cannot order (intervals of days or nanoseconds, maps, unions, and structs or lists
// holding one) raise `TypeError`.

/// The row numbers of `keys` (arrays of equal length; the first key decides first) in sorted
/// order, as a uint64 array. `order` has one entry per key. Throws `InvalidArgument` when the
/// keys are missing, differ in length or `order` has the wrong size.
Array sort_indices(std::span<const Array> keys, std::span<const SortKey> order,
                   Allocator* allocator = default_allocator());

/// `sort_indices` of one key.
Array sort_indices(const Array& key, SortKey order = {},
                   Allocator* allocator = default_allocator());

/// The first `n` row numbers of `sort_indices(keys, order)` (all of them when there are fewer),
/// found without sorting every row. Throws `InvalidArgument` when `n` is negative.
Array top_n(std::span<const Array> keys, std::span<const SortKey> order, int64_t n,
            Allocator* allocator = default_allocator());

}  // namespace bowstring::compute
