#pragma once

#include <cstdint>

#include "bowstring/array/array.h"

namespace bowstring {

/// How `arrays_equal` compares values.
struct EqualOptions {
  /// NaN equals NaN (IEEE comparison, the default, says it never does). +0.0 always equals -0.0.
  bool nans_equal = false;
  /// Floating-point values x and y are also equal when
  /// |x - y| <= absolute_tolerance + relative_tolerance * max(|x|, |y|). Infinities still
  /// equal only themselves.
  bool approximate = false;
  double absolute_tolerance = 1e-5;
  double relative_tolerance = 1e-9;
  /// Field metadata inside the types must match too.
  bool check_metadata = false;
};

/// Logical equality: same type (field names and nullability count, metadata only when asked),
/// same length, same nulls and same values. Independent of the physical layout: offsets and
/// slicing, bytes under null slots, where offsets start, how views spread strings over data
/// buffers, which dictionary a dictionary array uses (values are compared decoded; a valid index
/// to a null dictionary value is a null), the order of list view ranges, dense union offsets and
/// how run-end encoded arrays cut their runs.
bool arrays_equal(const Array& a, const Array& b, const EqualOptions& options = {});

/// Whether values [a_start, a_start + length) of `a` equal values [b_start, b_start + length) of
/// `b`, in the sense of `arrays_equal`. Arrays of different types are never equal. Throws
/// `IndexError` when a range is outside its array.
bool array_range_equal(const Array& a, int64_t a_start, const Array& b, int64_t b_start,
                       int64_t length, const EqualOptions& options = {});

}  // namespace bowstring
