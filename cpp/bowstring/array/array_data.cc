#include "bowstring/array/array_data.h"

#include "bowstring/util/error.h"

namespace bowstring {

ArrayData::ArrayData(TypePtr type_in, int64_t length_in,
                     std::vector<std::shared_ptr<Buffer>> buffers_in, int64_t null_count_in,
                     int64_t offset_in, std::vector<std::shared_ptr<const ArrayData>> children_in,
                     std::shared_ptr<const ArrayData> dictionary_in)
    : type(std::move(type_in)),
      length(length_in),
      offset(offset_in),
      buffers(std::move(buffers_in)),
      children(std::move(children_in)),
      dictionary(std::move(dictionary_in)),
      null_count_(null_count_in) {
  if (type == nullptr) {
    throw InvalidArgument("array data needs a type");
  }
  if (length < 0 || offset < 0) {
    throw InvalidArgument("array length and offset must be non-negative, got length " +
                          std::to_string(length) + " and offset " + std::to_string(offset));
  }
  if (buffers.empty()) {
    buffers.push_back(nullptr);
  }
}

ArrayData::ArrayData(const ArrayData& other)
    : type(other.type),
      length(other.length),
      offset(other.offset),
      buffers(other.buffers),
      children(other.children),
      dictionary(other.dictionary),
      null_count_(other.null_count_.load(std::memory_order_relaxed)) {}

int64_t ArrayData::null_count() const {
  int64_t count = null_count_.load(std::memory_order_relaxed);
  if (count != kUnknownNullCount) {
    return count;
  }
  switch (type->storage_id()) {
    case TypeId::kNull:
      count = length;
      break;
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion:
    case TypeId::kRunEndEncoded:
      count = 0;
      break;
    default: {
      const Buffer* validity = buffers[0].get();
      count = validity == nullptr
                  ? 0
                  : length - bit_util::count_set_bits(validity->data(), offset, length);
      break;
    }
  }
  null_count_.store(count, std::memory_order_relaxed);
  return count;
}

std::shared_ptr<const ArrayData> ArrayData::slice(int64_t slice_offset,
                                                  int64_t slice_length) const {
  if (slice_offset < 0 || slice_length < 0 || slice_offset > length ||
      slice_length > length - slice_offset) {
    throw IndexError("slice [" + std::to_string(slice_offset) + ", +" +
                     std::to_string(slice_length) + ") is outside an array of length " +
                     std::to_string(length));
  }
  auto sliced = std::make_shared<ArrayData>(*this);
  sliced->offset = offset + slice_offset;
  sliced->length = slice_length;
  int64_t known = known_null_count();
  if (type->storage_id() == TypeId::kNull) {
    known = slice_length;
  } else if (known != 0) {
    // A slice of an array with nulls may hold any number of them: recount on demand.
    known = kUnknownNullCount;
  }
  sliced->null_count_.store(known, std::memory_order_relaxed);
  return sliced;
}

}  // namespace bowstring
