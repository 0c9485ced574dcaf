#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

#include "bowstring/array/array.h"
#include "bowstring/compute/core/datum.h"
#include "bowstring/memory/buffer.h"

namespace bowstring::compute {

/// The rows of a row-wise call's result: the length of its array arguments, 1 when every
/// argument is a scalar.
inline int64_t result_length(std::span<const Datum> arguments) {
  for (const Datum& argument : arguments) {
    if (argument.is_array()) {
      return argument.length();
    }
  }
  return 1;
}

/// Whether every argument of a row-wise call is a scalar (its result is then a scalar).
inline bool all_scalars(std::span<const Datum> arguments) {
  for (const Datum& argument : arguments) {
    if (argument.is_array()) {
      return false;
    }
  }
  return true;
}

/// The validity of a row-wise result whose row is null when any argument's is: the AND of the
/// arguments' validity bitmaps over `length` rows (scalars count for every row), as a new
/// bitmap starting at bit 0, or nullptr when no row is null. `null_count` receives the number
/// of null rows.
std::shared_ptr<Buffer> and_validity(std::span<const Datum> arguments, int64_t length,
                                     Allocator* allocator, int64_t* null_count);

/// The validity bits of `data` over its window, copied to a new bitmap starting at bit 0, or
/// nullptr when it has no nulls.
std::shared_ptr<Buffer> copy_validity(const ArrayData& data, Allocator* allocator);

/// An array of a fixed-width type from its parts: validity (nullptr: no nulls) and values,
/// both starting at row 0.
Array make_fixed_width_array(TypePtr type, int64_t length, std::shared_ptr<Buffer> validity,
                             int64_t null_count, std::shared_ptr<Buffer> values);

/// Room for `length` values of `T`, to be written by a kernel and handed to
/// `make_fixed_width_array` with `finish()`.
template <typename T>
class OutputValues {
 public:
  OutputValues(int64_t length, Allocator* allocator)
      : buffer_(length * static_cast<int64_t>(sizeof(T)), allocator) {}
  T* data() { return reinterpret_cast<T*>(buffer_.mutable_data()); }
  std::shared_ptr<Buffer> finish() { return buffer_.finish(); }

 private:
  MutableBuffer buffer_;
};

/// Calls `visit(i)` for each row i in [0, length) whose bit is set in `validity` (bits counted
/// from `offset`; nullptr means every row), 64 rows at a time: byte-aligned full words are
/// loaded whole and unset bits skipped.
template <typename Visit>
void for_each_set_bit(const uint8_t* validity, int64_t offset, int64_t length, Visit&& visit) {
  if (validity == nullptr) {
    for (int64_t i = 0; i < length; ++i) {
      visit(i);
    }
    return;
  }
  for (int64_t start = 0; start < length; start += 64) {
    const int64_t count = std::min<int64_t>(64, length - start);
    const int64_t first_bit = offset + start;
    uint64_t word = 0;
    if (count == 64 && (first_bit & 7) == 0) {
      std::memcpy(&word, validity + (first_bit >> 3), sizeof(word));
    } else {
      for (int64_t k = 0; k < count; ++k) {
        word |= static_cast<uint64_t>(bit_util::get_bit(validity, first_bit + k)) << k;
      }
    }
    while (word != 0) {
      visit(start + std::countr_zero(word));
      word &= word - 1;
    }
  }
}

}  // namespace bowstring::compute
