#include "bowstring/array/equal.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "bowstring/types/storage.h"
#include "bowstring/util/error.h"

namespace bowstring {

namespace {

/// Whether an array of this type may compare unequal to itself (it holds floats, and NaN is not
/// equal to NaN), so that comparing an array with itself cannot be cut short.
bool holds_floats(const DataType& type) {
  if (type.is_floating()) {
    return true;
  }
  if (type.id() == TypeId::kExtension) {
    return holds_floats(storage_of(type));
  }
  if (type.id() == TypeId::kDictionary) {
    return holds_floats(*static_cast<const DictionaryType&>(type).value_type());
  }
  return std::any_of(type.fields().begin(), type.fields().end(),
                     [](const FieldPtr& field) { return holds_floats(*field->type()); });
}

float half_to_float(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // zero or subnormal
  } else if (exponent == 0x1F) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  return (bits & 0x8000) != 0 ? -magnitude : magnitude;
}

/// Calls `visit(run_start, run_length)` for each maximal run of valid slots among the `length`
/// slots of `data` from `start` (run starts are relative to `start`); stops at the first visit
/// that returns false, and returns false then.
template <typename Visit>
bool for_each_valid_run(const ArrayData& data, int64_t start, int64_t length, Visit&& visit) {
  const Buffer* validity = data.buffers[0].get();
  if (validity == nullptr) {
    return visit(int64_t{0}, length);
  }
  const uint8_t* bits = validity->data();
  const int64_t base = data.offset + start;
  int64_t i = 0;
  while (i < length) {
    while (i < length && !bit_util::get_bit(bits, base + i)) {
      ++i;
    }
    const int64_t run_start = i;
    while (i < length && bit_util::get_bit(bits, base + i)) {
      ++i;
    }
    if (i > run_start && !visit(run_start, i - run_start)) {
      return false;
    }
  }
  return true;
}

/// Whether any value of `data` may be null, looking through types that keep their nulls in
/// children.
bool may_hold_nulls(const ArrayData& data) {
  switch (storage_of(*data.type).id()) {
    case TypeId::kNull:
      return data.length > 0;
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion:
    case TypeId::kRunEndEncoded:
      return true;
    default:
      return data.null_count() > 0;
  }
}

std::string_view view_value(const ArrayData& data, int64_t physical_index) {
  const BinaryView& view = data.buffers[1]->data_as<BinaryView>()[physical_index];
  if (view.is_inline()) {
    return {reinterpret_cast<const char*>(view.inlined), static_cast<size_t>(view.size)};
  }
  const Buffer& buffer = *data.buffers[2 + static_cast<size_t>(view.ref.buffer_index)];
  return {reinterpret_cast<const char*>(buffer.data()) + view.ref.offset,
          static_cast<size_t>(view.size)};
}

/// Compares ranges of two arrays of equal types. Positions passed around are relative to each
/// array's view (its offset not yet applied), as in `Array`.
class Comparator {
 public:
  Comparator(const EqualOptions& options, const DataType& type)
      : options_(options), identity_implies_equality_(options.nans_equal || !holds_floats(type)) {}

  bool equal(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start,
             int64_t length) const {
    if (length == 0) {
      return true;
    }
    if (&a == &b && a_start == b_start && identity_implies_equality_) {
      return true;
    }
    const DataType& type = storage_of(*a.type);
    switch (type.id()) {
      case TypeId::kNull:
        return true;
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion:
        return unions_equal(a, a_start, b, b_start, length, static_cast<const UnionType&>(type));
      case TypeId::kRunEndEncoded:
        switch (static_cast<const RunEndEncodedType&>(type).run_end_type()->id()) {
          case TypeId::kInt16:
            return runs_equal<int16_t>(a, a_start, b, b_start, length);
          case TypeId::kInt32:
            return runs_equal<int32_t>(a, a_start, b, b_start, length);
          default:
            return runs_equal<int64_t>(a, a_start, b, b_start, length);
        }
      case TypeId::kDictionary:
        return dictionaries_equal(a, a_start, b, b_start, length,
                                  *static_cast<const DictionaryType&>(type).index_type());
      default:
        break;
    }
    if (!validity_equal(a, a_start, b, b_start, length)) {
      return false;
    }
    switch (type.id()) {
      case TypeId::kBoolean:
        return for_each_valid_run(a, a_start, length, [&](int64_t start, int64_t count) {
          return bit_util::bitmaps_equal(a.buffers[1]->data(), a.offset + a_start + start,
                                         b.buffers[1]->data(), b.offset + b_start + start, count);
        });
      case TypeId::kFloat16:
        return floats_equal<uint16_t>(a, a_start, b, b_start, length);
      case TypeId::kFloat32:
        return floats_equal<float>(a, a_start, b, b_start, length);
      case TypeId::kFloat64:
        return floats_equal<double>(a, a_start, b, b_start, length);
      case TypeId::kString:
      case TypeId::kBinary:
        return binaries_equal<int32_t>(a, a_start, b, b_start, length);
      case TypeId::kLargeString:
      case TypeId::kLargeBinary:
        return binaries_equal<int64_t>(a, a_start, b, b_start, length);
      case TypeId::kStringView:
      case TypeId::kBinaryView:
        return for_each_valid_run(a, a_start, length, [&](int64_t start, int64_t count) {
          for (int64_t i = start; i < start + count; ++i) {
            if (view_value(a, a.offset + a_start + i) != view_value(b, b.offset + b_start + i)) {
              return false;
            }
          }
          return true;
        });
      case TypeId::kList:
      case TypeId::kMap:
        return lists_equal<int32_t>(a, a_start, b, b_start, length);
      case TypeId::kLargeList:
        return lists_equal<int64_t>(a, a_start, b, b_start, length);
      case TypeId::kListView:
        return list_views_equal<int32_t>(a, a_start, b, b_start, length);
      case TypeId::kLargeListView:
        return list_views_equal<int64_t>(a, a_start, b, b_start, length);
      case TypeId::kFixedSizeList: {
        const int64_t size = static_cast<const FixedSizeListType&>(type).list_size();
        return for_each_valid_run(a, a_start, length, [&](int64_t start, int64_t count) {
          return equal(*a.children[0], (a.offset + a_start + start) * size, *b.children[0],
                       (b.offset + b_start + start) * size, count * size);
        });
      }
      case TypeId::kStruct:
        // Children share the struct's offset; values under null structs are not compared.
        return for_each_valid_run(a, a_start, length, [&](int64_t start, int64_t count) {
          for (size_t child = 0; child < a.children.size(); ++child) {
            if (!equal(*a.children[child], a.offset + a_start + start, *b.children[child],
                       b.offset + b_start + start, count)) {
              return false;
            }
          }
          return true;
        });
      default:
        return fixed_width_equal(a, a_start, b, b_start, length, type.byte_width());
    }
  }

 private:
  static bool validity_equal(const ArrayData& a, int64_t a_start, const ArrayData& b,
                             int64_t b_start, int64_t length) {
    const Buffer* a_validity = a.buffers[0].get();
    const Buffer* b_validity = b.buffers[0].get();
    if (a_validity == nullptr && b_validity == nullptr) {
      return true;
    }
    if (a_validity != nullptr && b_validity != nullptr) {
      return bit_util::bitmaps_equal(a_validity->data(), a.offset + a_start, b_validity->data(),
                                     b.offset + b_start, length);
    }
    // Only one side has a bitmap: equal when it marks the whole range valid.
    const Buffer* validity = a_validity != nullptr ? a_validity : b_validity;
    const int64_t offset = a_validity != nullptr ? a.offset + a_start : b.offset + b_start;
    return bit_util::count_set_bits(validity->data(), offset, length) == length;
  }

  static bool fixed_width_equal(const ArrayData& a, int64_t a_start, const ArrayData& b,
                                int64_t b_start, int64_t length, int64_t width) {
    if (width == 0) {
      return true;  // fixed_size_binary[0]: no bytes, and maybe no memory behind the buffer
    }
    const uint8_t* a_bytes = a.buffers[1]->data() + (a.offset + a_start) * width;
    const uint8_t* b_bytes = b.buffers[1]->data() + (b.offset + b_start) * width;
    return for_each_valid_run(a, a_start, length, [&](int64_t start, int64_t count) {
      return std::memcmp(a_bytes + start * width, b_bytes + start * width,
                         static_cast<size_t>(count * width)) == 0;
    });
  }

  bool float_values_equal(double x, double y) const {
    if (x == y) {
      return true;  // includes +0.0 == -0.0 and equal infinities
    }
    if (std::isnan(x) || std::isnan(y)) {
      return options_.nans_equal && std::isnan(x) && std::isnan(y);
    }
    if (!options_.approximate || std::isinf(x) || std::isinf(y)) {
      return false;
    }
    return std::fabs(x - y) <=
           options_.absolute_tolerance +
               options_.relative_tolerance * std::max(std::fabs(x), std::fabs(y));
  }

  template <typename T>
  bool floats_equal(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start,
                    int64_t length) const {
    const T* a_values = a.values<T>(1) + a_start;
    const T* b_values = b.values<T>(1) + b_start;
    const auto to_double = [](T value) {
      if constexpr (std::is_same_v<T, uint16_t>) {
        return static_cast<double>(half_to_float(value));
      } else {
        return static_cast<double>(value);
      }
    };
    return for_each_valid_run(a, a_start, length, [&](int64_t start, int64_t count) {
      for (int64_t i = start; i < start + count; ++i) {
        if (!float_values_equal(to_double(a_values[i]), to_double(b_values[i]))) {
          return false;
        }
      }
      return true;
    });
  }

  template <typename Offset>
  static bool binaries_equal(const ArrayData& a, int64_t a_start, const ArrayData& b,
                             int64_t b_start, int64_t length) {
    const Offset* a_offsets = a.values<Offset>(1) + a_start;
    const Offset* b_offsets = b.values<Offset>(1) + b_start;
    const uint8_t* a_bytes = a.buffers[2] == nullptr ? nullptr : a.buffers[2]->data();
    const uint8_t* b_bytes = b.buffers[2] == nullptr ? nullptr : b.buffers[2]->data();
    return for_each_valid_run(a, a_start, length, [&](int64_t start, int64_t count) {
      for (int64_t i = start; i < start + count; ++i) {
        const Offset size = a_offsets[i + 1] - a_offsets[i];
        if (size != b_offsets[i + 1] - b_offsets[i]) {
          return false;
        }
        if (size > 0 && std::memcmp(a_bytes + a_offsets[i], b_bytes + b_offsets[i],
                                    static_cast<size_t>(size)) != 0) {
          return false;
        }
      }
      return true;
    });
  }

  template <typename Offset>
  bool lists_equal(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start,
                   int64_t length) const {
    const Offset* a_offsets = a.values<Offset>(1) + a_start;
    const Offset* b_offsets = b.values<Offset>(1) + b_start;
    return for_each_valid_run(a, a_start, length, [&](int64_t start, int64_t count) {
      for (int64_t i = start; i < start + count; ++i) {
        if (a_offsets[i + 1] - a_offsets[i] != b_offsets[i + 1] - b_offsets[i]) {
          return false;
        }
      }
      // With every list length equal, the run's values are one contiguous range on each side.
      return equal(*a.children[0], a_offsets[start], *b.children[0], b_offsets[start],
                   a_offsets[start + count] - a_offsets[start]);
    });
  }

  template <typename Offset>
  bool list_views_equal(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start,
                        int64_t length) const {
    const Offset* a_offsets = a.values<Offset>(1) + a_start;
    const Offset* b_offsets = b.values<Offset>(1) + b_start;
    const Offset* a_sizes = a.values<Offset>(2) + a_start;
    const Offset* b_sizes = b.values<Offset>(2) + b_start;
    return for_each_valid_run(a, a_start, length, [&](int64_t start, int64_t count) {
      for (int64_t i = start; i < start + count; ++i) {
        if (a_sizes[i] != b_sizes[i] ||
            !equal(*a.children[0], a_offsets[i], *b.children[0], b_offsets[i], a_sizes[i])) {
          return false;
        }
      }
      return true;
    });
  }

  bool unions_equal(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start,
                    int64_t length, const UnionType& type) const {
    const int8_t* a_ids = a.values<int8_t>(1) + a_start;
    const int8_t* b_ids = b.values<int8_t>(1) + b_start;
    const bool dense = type.id() == TypeId::kDenseUnion;
    const int32_t* a_offsets = dense ? a.values<int32_t>(2) + a_start : nullptr;
    const int32_t* b_offsets = dense ? b.values<int32_t>(2) + b_start : nullptr;
    int64_t i = 0;
    while (i < length) {
      const int8_t id = a_ids[i];
      if (b_ids[i] != id) {
        return false;
      }
      // Compare a run of slots that select the same child and sit contiguously in it.
      int64_t end = i + 1;
      while (end < length && a_ids[end] == id && b_ids[end] == id &&
             (!dense || (a_offsets[end] == int64_t{a_offsets[end - 1]} + 1 &&
                         b_offsets[end] == int64_t{b_offsets[end - 1]} + 1))) {
        ++end;
      }
      const size_t child = static_cast<size_t>(type.child_index(id));
      const int64_t a_at = dense ? a_offsets[i] : a.offset + a_start + i;
      const int64_t b_at = dense ? b_offsets[i] : b.offset + b_start + i;
      if (!equal(*a.children[child], a_at, *b.children[child], b_at, end - i)) {
        return false;
      }
      i = end;
    }
    return true;
  }

  template <typename RunEnd>
  bool runs_equal(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start,
                  int64_t length) const {
    const ArrayData& a_ends = *a.children[0];
    const ArrayData& b_ends = *b.children[0];
    const RunEnd* a_run_ends = a_ends.values<RunEnd>(1);
    const RunEnd* b_run_ends = b_ends.values<RunEnd>(1);
    // Logical positions, in the coordinates of the run ends (the parent's offset applied).
    int64_t a_position = a.offset + a_start;
    int64_t b_position = b.offset + b_start;
    int64_t a_run =
        std::upper_bound(a_run_ends, a_run_ends + a_ends.length, static_cast<RunEnd>(a_position)) -
        a_run_ends;
    int64_t b_run =
        std::upper_bound(b_run_ends, b_run_ends + b_ends.length, static_cast<RunEnd>(b_position)) -
        b_run_ends;
    int64_t remaining = length;
    while (remaining > 0) {
      if (!equal(*a.children[1], a_run, *b.children[1], b_run, 1)) {
        return false;
      }
      const int64_t step =
          std::min({a_run_ends[a_run] - a_position, b_run_ends[b_run] - b_position, remaining});
      a_position += step;
      b_position += step;
      remaining -= step;
      a_run += a_position == a_run_ends[a_run];
      b_run += b_position == b_run_ends[b_run];
    }
    return true;
  }

  bool dictionaries_equal(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start,
                          int64_t length, const DataType& index_type) const {
    switch (index_type.id()) {
      case TypeId::kInt8:
        return decoded_equal<int8_t>(a, a_start, b, b_start, length);
      case TypeId::kUInt8:
        return decoded_equal<uint8_t>(a, a_start, b, b_start, length);
      case TypeId::kInt16:
        return decoded_equal<int16_t>(a, a_start, b, b_start, length);
      case TypeId::kUInt16:
        return decoded_equal<uint16_t>(a, a_start, b, b_start, length);
      case TypeId::kInt32:
        return decoded_equal<int32_t>(a, a_start, b, b_start, length);
      case TypeId::kUInt32:
        return decoded_equal<uint32_t>(a, a_start, b, b_start, length);
      case TypeId::kInt64:
        return decoded_equal<int64_t>(a, a_start, b, b_start, length);
      default:
        return decoded_equal<uint64_t>(a, a_start, b, b_start, length);
    }
  }

  template <typename Index>
  bool decoded_equal(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start,
                     int64_t length) const {
    const Index* a_indices = a.values<Index>(1) + a_start;
    const Index* b_indices = b.values<Index>(1) + b_start;
    const Array a_dictionary(a.dictionary);
    const Array b_dictionary(b.dictionary);
    const bool a_dictionary_nulls = may_hold_nulls(*a.dictionary);
    const bool b_dictionary_nulls = may_hold_nulls(*b.dictionary);
    for (int64_t i = 0; i < length; ++i) {
      const Index a_index = a_indices[i];
      const Index b_index = b_indices[i];
      // A valid index to a null dictionary value is a null, as it decodes to one.
      const bool a_null =
          a.is_null_in_bitmap(a_start + i) || (a_dictionary_nulls && a_dictionary.is_null(a_index));
      const bool b_null =
          b.is_null_in_bitmap(b_start + i) || (b_dictionary_nulls && b_dictionary.is_null(b_index));
      if (a_null != b_null) {
        return false;
      }
      // The same index into the same dictionary is cut short by `equal`, unless NaN forbids it.
      if (!a_null && !equal(*a.dictionary, a_index, *b.dictionary, b_index, 1)) {
        return false;
      }
    }
    return true;
  }

  const EqualOptions& options_;
  bool identity_implies_equality_;
};

}  // namespace

bool arrays_equal(const Array& a, const Array& b, const EqualOptions& options) {
  if (!a || !b) {
    return !a && !b;
  }
  if (a.length() != b.length() || !a.type()->equals(*b.type(), options.check_metadata)) {
    return false;
  }
  return Comparator(options, *a.type()).equal(*a.data(), 0, *b.data(), 0, a.length());
}

bool array_range_equal(const Array& a, int64_t a_start, const Array& b, int64_t b_start,
                       int64_t length, const EqualOptions& options) {
  const auto check_range = [length](const Array& array, int64_t start, const char* name) {
    if (start < 0 || length < 0 || start > array.length() - length) {
      throw IndexError(std::string("range [") + std::to_string(start) + ", +" +
                       std::to_string(length) + ") is outside array " + name + " of length " +
                       std::to_string(array.length()));
    }
  };
  check_range(a, a_start, "a");
  check_range(b, b_start, "b");
  if (!a.type()->equals(*b.type(), options.check_metadata)) {
    return false;
  }
  return Comparator(options, *a.type()).equal(*a.data(), a_start, *b.data(), b_start, length);
}

bool Array::equals(const Array& other) const { return arrays_equal(*this, other); }

bool Array::equals(const Array& other, const EqualOptions& options) const {
  return arrays_equal(*this, other, options);
}

}  // namespace bowstring
