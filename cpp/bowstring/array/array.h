#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "bowstring/array/array_data.h"
#include "bowstring/util/error.h"

namespace bowstring {

struct EqualOptions;

/// An immutable array of any type: a cheap, copyable handle on shared `ArrayData`. Copying an
/// Array copies one reference; the buffers are freed when the last array, slice or builder
/// output that uses them goes away.
///
/// Typed views (`Int64Array`, `StringArray`, `ListArray`...) derive from Array and add value
/// access; construct them from an Array (`Int64Array ints(array)`) or with `array.as<T>()`,
/// which check the type and throw `TypeError` on a mismatch.
class Array {
 public:
  Array() = default;
  explicit Array(ArrayDataPtr data);

  const ArrayDataPtr& data() const { return data_; }
  const TypePtr& type() const { return data_->type; }
  TypeId type_id() const { return data_->type->id(); }
  int64_t length() const { return data_->length; }
  int64_t offset() const { return data_->offset; }
  int64_t null_count() const { return data_->null_count(); }
  /// False for a default-constructed Array that holds no data.
  explicit operator bool() const { return data_ != nullptr; }

  /// Whether value `i` is null. Union and run-end encoded arrays have no validity bitmap of
  /// their own: the selected child or run value decides (also for extension arrays stored as
  /// them). Dictionary arrays look at the indices.
  bool is_null(int64_t i) const;
  bool is_valid(int64_t i) const { return !is_null(i); }

  /// A zero-copy O(1) view of `length` values starting at `offset`.
  Array slice(int64_t offset, int64_t length) const { return Array(data_->slice(offset, length)); }
  /// A zero-copy view from `offset` to the end.
  Array slice(int64_t offset) const;

  /// Logical equality (same type, same values and nulls); see `equal.h` for the options.
  bool equals(const Array& other) const;
  bool equals(const Array& other, const EqualOptions& options) const;
  /// Pretty-printed values, e.g. `["hello" "apache arrow" null]`.
  std::string to_string() const;
  /// Cheap structural checks (buffer count and sizes, child lengths); throws `FormatError`.
  void validate() const;
  /// `validate()` plus every value: offsets, UTF-8, dictionary indices, union type ids,
  /// run ends; throws `FormatError` naming the first problem.
  void validate_full() const;

  template <typename T>
  T as() const {
    return T(*this);
  }

 protected:
  /// Throws `TypeError` unless `predicate` holds for this array's type.
  void check_type(bool matches, const char* view_name) const;

  ArrayDataPtr data_;
};

// --- fixed-width values -------------------------------------------------------------------

/// Iterator over an array's values as `std::optional<Value>` (empty for nulls).
template <typename View, typename Value>
class ArrayIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = std::optional<Value>;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = value_type;

  ArrayIterator() = default;
  ArrayIterator(const View* view, int64_t index) : view_(view), index_(index) {}
  value_type operator*() const {
    return view_->is_null(index_) ? value_type{} : value_type{view_->value(index_)};
  }
  ArrayIterator& operator++() {
    ++index_;
    return *this;
  }
  ArrayIterator operator++(int) {
    ArrayIterator old = *this;
    ++index_;
    return old;
  }
  bool operator==(const ArrayIterator& other) const { return index_ == other.index_; }

 private:
  const View* view_ = nullptr;
  int64_t index_ = 0;
};

class NullArray : public Array {
 public:
  explicit NullArray(const Array& array);
};

class BooleanArray : public Array {
 public:
  explicit BooleanArray(const Array& array);
  bool value(int64_t i) const { return bit_util::get_bit(bits_, data_->offset + i); }
  /// Number of valid values that are true.
  int64_t true_count() const;
  ArrayIterator<BooleanArray, bool> begin() const { return {this, 0}; }
  ArrayIterator<BooleanArray, bool> end() const { return {this, length()}; }

 private:
  const uint8_t* bits_;
};

/// Values of a fixed-width type read as `T`: integers, floats (float16 as its uint16_t bits),
/// dates, times, timestamps, durations and intervals. The type's byte width must be sizeof(T).
template <typename T>
class NumericArray : public Array {
 public:
  explicit NumericArray(const Array& array) : Array(array) {
    const DataType& type = *array.type();
    check_type(type.byte_width() == static_cast<int>(sizeof(T)) && !type.is_decimal() &&
                   type.id() != TypeId::kFixedSizeBinary && type.id() != TypeId::kDictionary &&
                   type.id() != TypeId::kExtension,
               "numeric array of this width");
    values_ = data_->values<T>(1);
  }
  T value(int64_t i) const { return values_[i]; }
  T operator[](int64_t i) const { return values_[i]; }
  /// The values of this view (nulls hold unspecified values).
  std::span<const T> values() const { return {values_, static_cast<size_t>(length())}; }
  const T* raw_values() const { return values_; }
  ArrayIterator<NumericArray, T> begin() const { return {this, 0}; }
  ArrayIterator<NumericArray, T> end() const { return {this, length()}; }

 private:
  const T* values_;
};

using Int8Array = NumericArray<int8_t>;
using Int16Array = NumericArray<int16_t>;
using Int32Array = NumericArray<int32_t>;
using Int64Array = NumericArray<int64_t>;
using UInt8Array = NumericArray<uint8_t>;
using UInt16Array = NumericArray<uint16_t>;
using UInt32Array = NumericArray<uint32_t>;
using UInt64Array = NumericArray<uint64_t>;
using HalfFloatArray = NumericArray<uint16_t>;
using FloatArray = NumericArray<float>;
using DoubleArray = NumericArray<double>;
using Date32Array = NumericArray<int32_t>;
using Date64Array = NumericArray<int64_t>;
using Time32Array = NumericArray<int32_t>;
using Time64Array = NumericArray<int64_t>;
using TimestampArray = NumericArray<int64_t>;
using DurationArray = NumericArray<int64_t>;
using MonthIntervalArray = NumericArray<int32_t>;
using DayTimeIntervalArray = NumericArray<DayTimeInterval>;
using MonthDayNanoIntervalArray = NumericArray<MonthDayNanoInterval>;

/// fixed_size_binary values as byte strings.
class FixedSizeBinaryArray : public Array {
 public:
  explicit FixedSizeBinaryArray(const Array& array);
  int32_t byte_width() const { return width_; }
  const uint8_t* value_bytes(int64_t i) const { return values_ + (data_->offset + i) * width_; }
  std::string_view value(int64_t i) const {
    return {reinterpret_cast<const char*>(value_bytes(i)), static_cast<size_t>(width_)};
  }
  ArrayIterator<FixedSizeBinaryArray, std::string_view> begin() const { return {this, 0}; }
  ArrayIterator<FixedSizeBinaryArray, std::string_view> end() const { return {this, length()}; }

 private:
  const uint8_t* values_;
  int32_t width_;
};

/// decimal32/64/128/256 values: little-endian two's complement integers of the type's width,
/// scaled by 10^-scale.
class DecimalArray : public Array {
 public:
  explicit DecimalArray(const Array& array);
  int32_t precision() const;
  int32_t scale() const;
  int32_t byte_width() const { return width_; }
  const uint8_t* value_bytes(int64_t i) const { return values_ + (data_->offset + i) * width_; }
  /// The value as a decimal string ("-12.30" for 1230 at scale 2).
  std::string format_value(int64_t i) const;

 private:
  const uint8_t* values_;
  int32_t width_;
};

/// Formats a little-endian two's complement integer of `byte_width` bytes, scaled by
/// 10^-scale, as a decimal string.
std::string format_decimal(const uint8_t* bytes, int32_t byte_width, int32_t scale);

// --- variable-size binary -----------------------------------------------------------------

/// utf8/binary (int32 offsets) and large_utf8/large_binary (int64 offsets).
template <typename Offset>
class BaseBinaryArray : public Array {
 public:
  explicit BaseBinaryArray(const Array& array) : Array(array) {
    const TypeId id = array.type_id();
    constexpr bool kLarge = sizeof(Offset) == 8;
    check_type(kLarge ? (id == TypeId::kLargeString || id == TypeId::kLargeBinary)
                      : (id == TypeId::kString || id == TypeId::kBinary),
               kLarge ? "large binary or string array" : "binary or string array");
    offsets_ = data_->values<Offset>(1);
    bytes_ = data_->buffers[2] != nullptr ? data_->buffers[2]->data() : nullptr;
  }
  std::string_view value(int64_t i) const {
    return {reinterpret_cast<const char*>(bytes_) + offsets_[i],
            static_cast<size_t>(offsets_[i + 1] - offsets_[i])};
  }
  std::string_view operator[](int64_t i) const { return value(i); }
  Offset value_offset(int64_t i) const { return offsets_[i]; }
  Offset value_length(int64_t i) const { return offsets_[i + 1] - offsets_[i]; }
  /// The length() + 1 offsets of this view (not rebased: the first need not be 0).
  std::span<const Offset> offsets() const { return {offsets_, static_cast<size_t>(length() + 1)}; }
  const uint8_t* value_data() const { return bytes_; }
  ArrayIterator<BaseBinaryArray, std::string_view> begin() const { return {this, 0}; }
  ArrayIterator<BaseBinaryArray, std::string_view> end() const { return {this, length()}; }

 private:
  const Offset* offsets_;
  const uint8_t* bytes_;
};

using BinaryArray = BaseBinaryArray<int32_t>;
using StringArray = BaseBinaryArray<int32_t>;
using LargeBinaryArray = BaseBinaryArray<int64_t>;
using LargeStringArray = BaseBinaryArray<int64_t>;

/// One 16-byte element of a utf8_view/binary_view array. Strings of up to 12 bytes are stored
/// inline; longer ones keep a 4-byte prefix and point into a data buffer.
struct BinaryView {
  static constexpr int32_t kInlineSize = 12;
  int32_t size;
  union {
    uint8_t inlined[12];
    struct {
      uint8_t prefix[4];
      int32_t buffer_index;
      int32_t offset;
    } ref;
  };
  bool is_inline() const { return size <= kInlineSize; }
};
static_assert(sizeof(BinaryView) == 16);

/// utf8_view and binary_view.
class BinaryViewArray : public Array {
 public:
  explicit BinaryViewArray(const Array& array);
  const BinaryView& view(int64_t i) const { return views_[i]; }
  std::string_view value(int64_t i) const {
    const BinaryView& v = views_[i];
    if (v.is_inline()) {
      return {reinterpret_cast<const char*>(v.inlined), static_cast<size_t>(v.size)};
    }
    const Buffer& buffer = *data_->buffers[2 + static_cast<size_t>(v.ref.buffer_index)];
    return {reinterpret_cast<const char*>(buffer.data()) + v.ref.offset,
            static_cast<size_t>(v.size)};
  }
  std::string_view operator[](int64_t i) const { return value(i); }
  /// Number of variadic data buffers.
  int64_t num_data_buffers() const { return static_cast<int64_t>(data_->buffers.size()) - 2; }
  ArrayIterator<BinaryViewArray, std::string_view> begin() const { return {this, 0}; }
  ArrayIterator<BinaryViewArray, std::string_view> end() const { return {this, length()}; }

 private:
  const BinaryView* views_;
};

using StringViewArray = BinaryViewArray;

// --- nested -------------------------------------------------------------------------------

/// list and large_list (and map, through MapArray): offsets into one child array.
template <typename Offset>
class BaseListArray : public Array {
 public:
  explicit BaseListArray(const Array& array) : Array(array) {
    const TypeId id = array.type_id();
    constexpr bool kLarge = sizeof(Offset) == 8;
    check_type(kLarge ? id == TypeId::kLargeList : (id == TypeId::kList || id == TypeId::kMap),
               kLarge ? "large list array" : "list array");
    offsets_ = data_->values<Offset>(1);
  }
  Offset value_offset(int64_t i) const { return offsets_[i]; }
  Offset value_length(int64_t i) const { return offsets_[i + 1] - offsets_[i]; }
  std::span<const Offset> offsets() const { return {offsets_, static_cast<size_t>(length() + 1)}; }
  /// The whole child array (not restricted to this view's range).
  Array values() const { return Array(data_->children[0]); }
  /// The values of list `i`, as a zero-copy slice of the child.
  Array value_slice(int64_t i) const { return values().slice(offsets_[i], value_length(i)); }

 private:
  const Offset* offsets_;
};

using ListArray = BaseListArray<int32_t>;
using LargeListArray = BaseListArray<int64_t>;

/// map<key, item>: a list of entries structs.
class MapArray : public ListArray {
 public:
  explicit MapArray(const Array& array);
  /// Every key of the child entries (not restricted to this view's range).
  Array keys() const;
  Array items() const;
};

/// list_view and large_list_view: an offset and a size per list, in any order, possibly
/// overlapping.
template <typename Offset>
class BaseListViewArray : public Array {
 public:
  explicit BaseListViewArray(const Array& array) : Array(array) {
    constexpr bool kLarge = sizeof(Offset) == 8;
    check_type(array.type_id() == (kLarge ? TypeId::kLargeListView : TypeId::kListView),
               kLarge ? "large list view array" : "list view array");
    offsets_ = data_->values<Offset>(1);
    sizes_ = data_->values<Offset>(2);
  }
  Offset value_offset(int64_t i) const { return offsets_[i]; }
  Offset value_length(int64_t i) const { return sizes_[i]; }
  Array values() const { return Array(data_->children[0]); }
  Array value_slice(int64_t i) const { return values().slice(offsets_[i], sizes_[i]); }

 private:
  const Offset* offsets_;
  const Offset* sizes_;
};

using ListViewArray = BaseListViewArray<int32_t>;
using LargeListViewArray = BaseListViewArray<int64_t>;

class FixedSizeListArray : public Array {
 public:
  explicit FixedSizeListArray(const Array& array);
  int32_t list_size() const { return list_size_; }
  Array values() const { return Array(data_->children[0]); }
  Array value_slice(int64_t i) const {
    return values().slice((data_->offset + i) * list_size_, list_size_);
  }

 private:
  int32_t list_size_;
};

class StructArray : public Array {
 public:
  explicit StructArray(const Array& array);
  int num_fields() const { return type()->num_fields(); }
  /// Child `i`, sliced to this struct's window (children share the parent's offset).
  Array field(int i) const;
  /// The child with this exact name; throws `InvalidArgument` naming the fields otherwise.
  Array field(std::string_view name) const;
};

class DictionaryArray : public Array {
 public:
  explicit DictionaryArray(const Array& array);
  /// The indices, typed with the dictionary's index type, over this view's window.
  Array indices() const;
  Array dictionary() const { return Array(data_->dictionary); }
  /// Index of value `i` in the dictionary.
  int64_t index(int64_t i) const;
};

class UnionArray : public Array {
 public:
  explicit UnionArray(const Array& array);
  const UnionType& union_type() const { return static_cast<const UnionType&>(*type()); }
  int8_t type_code(int64_t i) const { return type_codes_[data_->offset + i]; }
  /// Index of the child that holds value `i`.
  int child_id(int64_t i) const { return union_type().child_index(type_code(i)); }
  /// For dense unions, the offset of value `i` inside its child; for sparse, offset + i.
  int64_t value_offset(int64_t i) const {
    return offsets_ != nullptr ? offsets_[data_->offset + i] : data_->offset + i;
  }
  /// The whole child array `i` (sparse children share the union's offset).
  Array field(int i) const { return Array(data_->children[static_cast<size_t>(i)]); }

 private:
  const int8_t* type_codes_;
  const int32_t* offsets_;
};

class RunEndEncodedArray : public Array {
 public:
  explicit RunEndEncodedArray(const Array& array);
  Array run_ends() const { return Array(data_->children[0]); }
  Array values() const { return Array(data_->children[1]); }
  /// Index into values() of the run that holds logical value `i` (binary search).
  int64_t physical_index(int64_t i) const;
};

class ExtensionArray : public Array {
 public:
  explicit ExtensionArray(const Array& array);
  const ExtensionType& extension_type() const { return static_cast<const ExtensionType&>(*type()); }
  /// The same data typed with the storage type.
  Array storage() const;
};

}  // namespace bowstring
