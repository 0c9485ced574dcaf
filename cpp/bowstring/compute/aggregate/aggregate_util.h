#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/memory/allocator.h"

namespace bowstring::compute {

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
