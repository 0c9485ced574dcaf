#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "bowstring/array/array.h"

namespace bowstring::compute {

/// A kernel argument or result: a whole array, or a scalar that stands for the same value in
/// every row. A scalar is held as an array of length one (so every type, nested ones included,
/// has a scalar, null or not); kernels read it with `scalar_is_null()` and index 0.
class Datum {
 public:
  Datum() = default;
  /// An array argument.
  Datum(Array array) : array_(std::move(array)) {}  // NOLINT(google-explicit-constructor)
  /// A scalar: `one_value` must have length 1 (throws `InvalidArgument` otherwise).
  static Datum scalar(Array one_value);
  /// The null scalar of `type`.
  static Datum null_scalar(TypePtr type, Allocator* allocator = default_allocator());

  bool is_scalar() const { return scalar_; }
  bool is_array() const { return !scalar_; }
  /// False for a default-constructed Datum.
  explicit operator bool() const { return static_cast<bool>(array_); }

  /// The array, or for a scalar its array of length one.
  const Array& array() const { return array_; }
  const ArrayDataPtr& data() const { return array_.data(); }
  const TypePtr& type() const { return array_.type(); }
  /// Rows of an array; 1 for a scalar.
  int64_t length() const { return array_.length(); }
  /// Whether a scalar is null (false for arrays).
  bool scalar_is_null() const { return scalar_ && array_.is_null(0); }

  /// The values as an array of `length` rows: the array itself (whose length must be `length`)
  /// or the scalar repeated.
  Array to_array(int64_t length, Allocator* allocator = default_allocator()) const;

  /// The array's or scalar's values, pretty-printed; scalars as "scalar 5".
  std::string to_string() const;

 private:
  Datum(Array array, bool scalar) : array_(std::move(array)), scalar_(scalar) {}

  Array array_;
  bool scalar_ = false;
};

/// `array` repeated `times` times into one array: [a, b] x 3 gives [a, b, a, b, a, b]. Used to
/// broadcast scalars; works for every type.
Array repeat(const Array& array, int64_t times, Allocator* allocator = default_allocator());

}  // namespace bowstring::compute
