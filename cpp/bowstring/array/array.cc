#include "bowstring/array/array.h"

#include <algorithm>

#include "bowstring/types/storage.h"

namespace bowstring {

Array::Array(ArrayDataPtr data) : data_(std::move(data)) {
  if (data_ == nullptr) {
    throw InvalidArgument("an array needs data");
  }
}

Array Array::slice(int64_t offset) const {
  if (offset < 0 || offset > length()) {
    throw IndexError("slice offset " + std::to_string(offset) + " is outside an array of length " +
                     std::to_string(length()));
  }
  return slice(offset, length() - offset);
}

bool Array::is_null(int64_t i) const {
  switch (type_id()) {
    case TypeId::kNull:
      return true;
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: {
      const UnionArray view(*this);
      return view.field(view.child_id(i)).is_null(view.value_offset(i));
    }
    case TypeId::kRunEndEncoded: {
      const RunEndEncodedArray view(*this);
      return view.values().is_null(view.physical_index(i));
    }
    case TypeId::kExtension:
      // Storage without a validity bitmap of its own (null, union, run-end encoded) decides.
      switch (type()->storage_id()) {
        case TypeId::kNull:
          return true;
        case TypeId::kSparseUnion:
        case TypeId::kDenseUnion:
        case TypeId::kRunEndEncoded:
          return ExtensionArray(*this).storage().is_null(i);
        default:
          return data_->is_null_in_bitmap(i);
      }
    default:
      return data_->is_null_in_bitmap(i);
  }
}

void Array::check_type(bool matches, const char* view_name) const {
  if (!matches) {
    throw TypeError(std::string("cannot view an array of type ") + type()->to_string() + " as a " +
                    view_name);
  }
}

NullArray::NullArray(const Array& array) : Array(array) {
  check_type(array.type_id() == TypeId::kNull, "null array");
}

BooleanArray::BooleanArray(const Array& array) : Array(array) {
  check_type(array.type_id() == TypeId::kBoolean, "boolean array");
  bits_ = data_->buffers[1]->data();
}

int64_t BooleanArray::true_count() const {
  const uint8_t* validity = data_->buffers[0] ? data_->buffers[0]->data() : nullptr;
  if (validity == nullptr) {
    return bit_util::count_set_bits(bits_, offset(), length());
  }
  int64_t count = 0;
  for (int64_t i = 0; i < length(); ++i) {
    count += static_cast<int64_t>(bit_util::get_bit(validity, offset() + i) &&
                                  bit_util::get_bit(bits_, offset() + i));
  }
  return count;
}

FixedSizeBinaryArray::FixedSizeBinaryArray(const Array& array) : Array(array) {
  check_type(array.type_id() == TypeId::kFixedSizeBinary, "fixed_size_binary array");
  width_ = static_cast<const FixedSizeBinaryType&>(*type()).width();
  values_ = data_->buffers[1]->data();
}

DecimalArray::DecimalArray(const Array& array) : Array(array) {
  check_type(array.type()->is_decimal(), "decimal array");
  width_ = type()->byte_width();
  values_ = data_->buffers[1]->data();
}

int32_t DecimalArray::precision() const {
  return static_cast<const DecimalType&>(*type()).precision();
}

int32_t DecimalArray::scale() const { return static_cast<const DecimalType&>(*type()).scale(); }

std::string DecimalArray::format_value(int64_t i) const {
  return format_decimal(value_bytes(i), width_, scale());
}

std::string format_decimal(const uint8_t* bytes, int32_t byte_width, int32_t scale) {
  // Magnitude as little-endian 32-bit limbs, then repeated division by 10.
  const int limbs = byte_width / 4;
  uint32_t magnitude[8] = {};
  std::memcpy(magnitude, bytes, static_cast<size_t>(byte_width));
  const bool negative = (bytes[byte_width - 1] & 0x80) != 0;
  if (negative) {
    uint64_t carry = 1;
    for (int i = 0; i < limbs; ++i) {
      const uint64_t sum = static_cast<uint64_t>(~magnitude[i]) + carry;
      magnitude[i] = static_cast<uint32_t>(sum);
      carry = sum >> 32;
    }
  }
  std::string digits;
  bool nonzero = true;
  while (nonzero) {
    uint64_t remainder = 0;
    nonzero = false;
    for (int i = limbs - 1; i >= 0; --i) {
      const uint64_t current = (remainder << 32) | magnitude[i];
      magnitude[i] = static_cast<uint32_t>(current / 10);
      remainder = current % 10;
      nonzero = nonzero || magnitude[i] != 0;
    }
    digits.push_back(static_cast<char>('0' + remainder));
  }
  if (scale > 0) {
    while (static_cast<int32_t>(digits.size()) <= scale) {
      digits.push_back('0');
    }
    digits.insert(digits.begin() + scale, '.');
  }
  if (negative) {
    digits.push_back('-');
  }
  std::reverse(digits.begin(), digits.end());
  if (scale < 0) {
    // A negative scale multiplies by a power of ten: "123E+2" is 12300, and the text stays short
    // whatever the power.
    digits += "E+" + std::to_string(-static_cast<int64_t>(scale));
  }
  return digits;
}

BinaryViewArray::BinaryViewArray(const Array& array) : Array(array) {
  check_type(is_view_type(array.type_id()), "binary or string view array");
  views_ = data_->values<BinaryView>(1);
}

MapArray::MapArray(const Array& array) : ListArray(array) {
  check_type(array.type_id() == TypeId::kMap, "map array");
}

Array MapArray::keys() const { return Array(values().data()->children[0]); }

Array MapArray::items() const { return Array(values().data()->children[1]); }

FixedSizeListArray::FixedSizeListArray(const Array& array) : Array(array) {
  check_type(array.type_id() == TypeId::kFixedSizeList, "fixed_size_list array");
  list_size_ = static_cast<const FixedSizeListType&>(*type()).list_size();
}

StructArray::StructArray(const Array& array) : Array(array) {
  check_type(array.type_id() == TypeId::kStruct, "struct array");
}

Array StructArray::field(int i) const {
  if (i < 0 || i >= num_fields()) {
    throw IndexError("struct field index " + std::to_string(i) + " is outside a struct of " +
                     std::to_string(num_fields()) + " fields");
  }
  return Array(data_->children[static_cast<size_t>(i)]).slice(offset(), length());
}

Array StructArray::field(std::string_view name) const {
  const int index = static_cast<const StructType&>(*type()).field_index(name);
  if (index < 0) {
    throw InvalidArgument("struct has no field named '" + std::string(name) +
                          "': " + type()->to_string());
  }
  return field(index);
}

DictionaryArray::DictionaryArray(const Array& array) : Array(array) {
  check_type(array.type_id() == TypeId::kDictionary, "dictionary array");
}

Array DictionaryArray::indices() const {
  auto indices = std::make_shared<ArrayData>(*data_);
  indices->type = static_cast<const DictionaryType&>(*type()).index_type();
  indices->dictionary = nullptr;
  return Array(std::move(indices));
}

int64_t DictionaryArray::index(int64_t i) const {
  const int64_t at = offset() + i;
  const uint8_t* bytes = data_->buffers[1]->data();
  switch (static_cast<const DictionaryType&>(*type()).index_type()->id()) {
    case TypeId::kInt8:
      return reinterpret_cast<const int8_t*>(bytes)[at];
    case TypeId::kUInt8:
      return bytes[at];
    case TypeId::kInt16:
      return reinterpret_cast<const int16_t*>(bytes)[at];
    case TypeId::kUInt16:
      return reinterpret_cast<const uint16_t*>(bytes)[at];
    case TypeId::kInt32:
      return reinterpret_cast<const int32_t*>(bytes)[at];
    case TypeId::kUInt32:
      return reinterpret_cast<const uint32_t*>(bytes)[at];
    case TypeId::kInt64:
      return reinterpret_cast<const int64_t*>(bytes)[at];
    default:
      return static_cast<int64_t>(reinterpret_cast<const uint64_t*>(bytes)[at]);
  }
}

UnionArray::UnionArray(const Array& array) : Array(array) {
  check_type(array.type()->is_union(), "union array");
  type_codes_ = reinterpret_cast<const int8_t*>(data_->buffers[1]->data());
  offsets_ = array.type_id() == TypeId::kDenseUnion
                 ? reinterpret_cast<const int32_t*>(data_->buffers[2]->data())
                 : nullptr;
}

RunEndEncodedArray::RunEndEncodedArray(const Array& array) : Array(array) {
  check_type(array.type_id() == TypeId::kRunEndEncoded, "run-end encoded array");
}

namespace {

template <typename RunEnd>
int64_t find_run(const ArrayData& run_ends, int64_t logical) {
  const RunEnd* begin = run_ends.values<RunEnd>(1);
  const RunEnd* end = begin + run_ends.length;
  // The first run whose end is greater than the logical index holds it.
  return std::upper_bound(begin, end, static_cast<RunEnd>(logical)) - begin;
}

}  // namespace

int64_t RunEndEncodedArray::physical_index(int64_t i) const {
  const ArrayData& run_ends = *data_->children[0];
  const int64_t logical = offset() + i;
  switch (run_ends.type->id()) {
    case TypeId::kInt16:
      return find_run<int16_t>(run_ends, logical);
    case TypeId::kInt32:
      return find_run<int32_t>(run_ends, logical);
    default:
      return find_run<int64_t>(run_ends, logical);
  }
}

ExtensionArray::ExtensionArray(const Array& array) : Array(array) {
  check_type(array.type_id() == TypeId::kExtension, "extension array");
}

Array ExtensionArray::storage() const {
  auto storage = std::make_shared<ArrayData>(*data_);
  storage->type = extension_type().storage_type();
  return Array(std::move(storage));
}

}  // namespace bowstring
