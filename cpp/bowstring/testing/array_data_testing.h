#pragma once

// Arrays assembled by hand, buffer by buffer, for tests that care about the physical layout:
// validation (which needs arrays corrupted on purpose), equality across layouts and
// concatenation. Nothing here is checked beyond what ArrayData's constructor checks.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/memory/buffer.h"

namespace bowstring::testing {

/// A buffer holding a copy of `values`.
template <typename T>
std::shared_ptr<Buffer> buffer_of(const std::vector<T>& values) {
  return Buffer::copy_of(values.data(), static_cast<int64_t>(values.size() * sizeof(T)));
}

/// A buffer holding `bytes`.
std::shared_ptr<Buffer> bytes_of(std::string_view bytes);

/// A bitmap whose bit i is `bits[i]`.
std::shared_ptr<Buffer> bitmap_of(const std::vector<bool>& bits);

/// A validity bitmap, or nullptr when `validity` is empty (every value valid).
std::shared_ptr<Buffer> validity_of(const std::vector<bool>& validity);

/// `values` stored with the width of the integer type `type` (offsets, indices, run ends).
std::shared_ptr<Buffer> integers_of(const DataType& type, const std::vector<int64_t>& values);

/// An array over hand-made parts. An overload of the builder-based `make_array<T>(type, values)`
/// of testing/array_testing.h; tests may include both.
Array make_array(TypePtr type, int64_t length, std::vector<std::shared_ptr<Buffer>> buffers,
                 const std::vector<Array>& children = {}, const Array& dictionary = {},
                 int64_t offset = 0);

/// The same array with the null count cached as `null_count` (right or wrong).
Array with_null_count(const Array& array, int64_t null_count);

/// Fixed-width values with an explicit validity (empty: no bitmap); the values of null slots
/// are kept, so tests can hide different bytes under nulls.
template <typename T>
Array raw_array(TypePtr type, const std::vector<T>& values,
                const std::vector<bool>& validity = {}) {
  return make_array(std::move(type), static_cast<int64_t>(values.size()),
                    {validity_of(validity), buffer_of(values)});
}

/// Fixed-width values; nullopt is a null (its slot holds zero bytes).
template <typename T>
Array array_of(TypePtr type, const std::vector<std::optional<T>>& values) {
  std::vector<T> raw;
  std::vector<bool> validity;
  bool any_null = false;
  for (const std::optional<T>& value : values) {
    raw.push_back(value.value_or(T{}));
    validity.push_back(value.has_value());
    any_null = any_null || !value.has_value();
  }
  return raw_array<T>(std::move(type), raw, any_null ? validity : std::vector<bool>{});
}

Array int32s(const std::vector<std::optional<int32_t>>& values);
Array int64s(const std::vector<std::optional<int64_t>>& values);
Array doubles(const std::vector<std::optional<double>>& values);
Array booleans(const std::vector<std::optional<bool>>& values);

/// Decimals of `type`'s width from int64 values (sign-extended); `validity` as for raw_array.
Array decimal_array(TypePtr type, const std::vector<int64_t>& values,
                    const std::vector<bool>& validity = {});

/// utf8, large_utf8, binary or large_binary values, by `type`.
Array strings(const std::vector<std::optional<std::string>>& values, TypePtr type = utf8());

/// utf8_view or binary_view values. Values longer than 12 bytes go to data buffers, a new one
/// started whenever the current one would pass `data_buffer_bytes`.
Array views(const std::vector<std::optional<std::string>>& values, TypePtr type = utf8_view(),
            int64_t data_buffer_bytes = 32);

BinaryView inline_view(std::string_view value);
BinaryView reference_view(std::string_view value, int32_t buffer_index, int32_t offset);

/// list, large_list or map over `values`; offsets stored with the type's width.
Array list_of(TypePtr type, const std::vector<int64_t>& offsets, const Array& values,
              const std::vector<bool>& validity = {});
Array list_view_of(TypePtr type, const std::vector<int64_t>& offsets,
                   const std::vector<int64_t>& sizes, const Array& values,
                   const std::vector<bool>& validity = {});
Array fixed_size_list_of(TypePtr type, int64_t length, const Array& values,
                         const std::vector<bool>& validity = {});
Array struct_of(TypePtr type, int64_t length, const std::vector<Array>& children,
                const std::vector<bool>& validity = {});
/// Indices stored with the type's index width; nullopt is a null index (stored as 0).
Array dictionary_of(TypePtr type, const std::vector<std::optional<int64_t>>& indices,
                    const Array& dictionary);
Array sparse_union_of(TypePtr type, const std::vector<int8_t>& type_ids,
                      const std::vector<Array>& children);
Array dense_union_of(TypePtr type, const std::vector<int8_t>& type_ids,
                     const std::vector<int32_t>& offsets, const std::vector<Array>& children);
Array run_end_encoded_of(TypePtr type, const std::vector<int64_t>& run_ends, const Array& values);

/// One valid array of every type (with nulls where the type has them), plus nested and sliced
/// ones, each with a name for test messages.
std::vector<std::pair<std::string, Array>> sample_arrays();

}  // namespace bowstring::testing
