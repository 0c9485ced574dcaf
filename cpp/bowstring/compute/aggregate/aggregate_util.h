#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/memory/allocator.h"

namespace bowstring::compute {

/// Spark's order of values for min and max: NaN is larger than every other value.
template <typename T>
bool spark_less(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) {
      return false;
    }
    if (std::isnan(b)) {
      return true;
    }
  }
  return a < b;
}

/// A row of one of several source arrays; `source` kNullRef stands for a null.
struct RowRef {
  static constexpr uint32_t kNullRef = UINT32_MAX;
  uint32_t source = kNullRef;
  int64_t row = 0;
};

/// An array of `type` whose row i is `sources[refs[i].source]` at `refs[i].row` (null for a
/// null ref). Works for every type the sources have; flat types are copied value by value,
/// nested ones by concatenating slices.
Array gather_rows(const TypePtr& type, std::span<const Array> sources, std::span<const RowRef> refs,
                  Allocator* allocator);

}  // namespace bowstring::compute
