#pragma once

// Helpers that make small arrays for tests from literal values:
//
//   Array ints = make_array<int64_t>({1, std::nullopt, 3});
//   Array days = make_array<int32_t>(date32(), {18000, std::nullopt});
//   Array names = make_string_array({"a", std::nullopt, "ccc"});
//   Array views = make_string_array({"short", "a string longer than twelve bytes"}, utf8_view());
//   Array rows = make_struct_array({{"id", ints}, {"name", names}});

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/array/builder.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/types/type.h"

namespace bowstring::testing {

/// The type `make_array<T>` builds when none is given: int8..uint64, float32, float64, boolean,
/// day_time_interval or month_day_nano_interval (uint16_t means uint16, not float16).
template <typename T>
TypePtr default_type_for() {
  if constexpr (std::is_same_v<T, bool>) {
    return boolean();
  } else if constexpr (std::is_same_v<T, int8_t>) {
    return int8();
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return int16();
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return int32();
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return int64();
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    return uint8();
  } else if constexpr (std::is_same_v<T, uint16_t>) {
    return uint16();
  } else if constexpr (std::is_same_v<T, uint32_t>) {
    return uint32();
  } else if constexpr (std::is_same_v<T, uint64_t>) {
    return uint64();
  } else if constexpr (std::is_same_v<T, float>) {
    return float32();
  } else if constexpr (std::is_same_v<T, double>) {
    return float64();
  } else if constexpr (std::is_same_v<T, DayTimeInterval>) {
    return day_time_interval();
  } else {
    static_assert(std::is_same_v<T, MonthDayNanoInterval>, "no default type for this C type");
    return month_day_nano_interval();
  }
}

/// Appends `value` (or a null) to `builder`, a builder of a fixed-width type read as `T` (a
/// `BooleanBuilder` for bool).
template <typename T>
void append_optional(ArrayBuilder& builder, const std::optional<T>& value) {
  if (!value.has_value()) {
    builder.append_null();
  } else if constexpr (std::is_same_v<T, bool>) {
    builder.as<BooleanBuilder>().append(*value);
  } else {
    builder.as<NumericBuilder<T>>().append(*value);
  }
}

/// An array of `type` holding `values` (nullopt is a null). `type` is any fixed-width type whose
/// values are read as `T` (integers, floats, float16 as uint16_t bits, dates, times, timestamps,
/// durations, intervals), or boolean with T = bool.
template <typename T>
Array make_array(TypePtr type, const std::vector<std::optional<T>>& values) {
  std::unique_ptr<ArrayBuilder> builder = make_builder(std::move(type));
  for (const std::optional<T>& value : values) {
    append_optional(*builder, value);
  }
  return builder->finish();
}

/// An array of the default type for `T` (see `default_type_for`).
template <typename T>
Array make_array(const std::vector<std::optional<T>>& values) {
  return make_array<T>(default_type_for<T>(), values);
}

/// Appends `value` (or a null) to a builder of any binary-like type (utf8, binary, their large
/// and view variants) or fixed_size_binary.
void append_optional_string(ArrayBuilder& builder, const std::optional<std::string>& value);

/// An array of `type` holding `values`: utf8 (the default), large_utf8, binary, large_binary,
/// utf8_view, binary_view or fixed_size_binary.
Array make_string_array(const std::vector<std::optional<std::string>>& values,
                        TypePtr type = utf8());

/// A struct array with the given (name, child) fields, all of the same length; `validity` has
/// one entry per row (empty: no nulls). The children are used as they are, without a copy.
Array make_struct_array(const std::vector<std::pair<std::string, Array>>& fields,
                        const std::vector<bool>& validity = {});

}  // namespace bowstring::testing
