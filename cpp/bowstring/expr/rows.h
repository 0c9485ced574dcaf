#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/compute/datum.h"
#include "bowstring/memory/allocator.h"

// Moving rows between whole batches and the subsets of rows a branch of an expression sees:
// gathering the rows that reach a branch, and scattering the branches' results back into one
// column.

namespace bowstring::expr {

/// The values of `array` at `rows` (any order, repeats allowed), as a new array.
Array gather(const Array& array, std::span<const int64_t> rows, Allocator* allocator);

/// Values computed on a subset of rows: value `from[j]` of `values` goes to result row
/// `rows[j]`. An empty `from` means value j for `rows[j]`; a scalar `values` serves every row.
struct RowPiece {
  compute::Datum values;
  std::span<const int64_t> rows;
  std::span<const int64_t> from = {};
};

/// One array of `length` rows of `type` assembled from `pieces` (which all have that type and
/// cover disjoint rows); rows no piece covers are null.
Array scatter(const TypePtr& type, int64_t length, std::span<const RowPiece> pieces,
              Allocator* allocator);

}  // namespace bowstring::expr
