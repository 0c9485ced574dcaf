#include "bowstring/compute/core/datum.h"

#include <cstring>
#include <vector>

#include "bowstring/array/builder.h"
#include "bowstring/array/concatenate.h"
#include "bowstring/compute/core/kernel_util.h"

namespace bowstring::compute {

Datum Datum::scalar(Array one_value) {
  if (!one_value || one_value.length() != 1) {
    throw InvalidArgument(
        "a scalar is an array of one value, got " +
        (one_value ? std::to_string(one_value.length()) + " values" : std::string("no array")));
  }
  return Datum(std::move(one_value), true);
}

Datum Datum::null_scalar(TypePtr type, Allocator* allocator) {
  std::unique_ptr<ArrayBuilder> builder = make_builder(std::move(type), allocator);
  builder->append_null();
  return Datum(builder->finish(), true);
}

Array Datum::to_array(int64_t length, Allocator* allocator) const {
  if (!scalar_) {
    if (array_.length() != length) {
      throw InvalidArgument("an array of " + std::to_string(array_.length()) + " rows where " +
                            std::to_string(length) + " rows are expected");
    }
    return array_;
  }
  return repeat(array_, length, allocator);
}

std::string Datum::to_string() const {
  return scalar_ ? "scalar " + array_.to_string() : array_.to_string();
}

namespace {

// Fixed-width values without nulls repeat by copying the value bytes.
Array repeat_fixed_width(const Array& array, int64_t times, Allocator* allocator) {
  const int64_t width = array.type()->byte_width();
  const int64_t block = width * array.length();
  MutableBuffer values(block * times, allocator);
  const uint8_t* source = array.data()->buffers[1]->data() + array.offset() * width;
  uint8_t* out = values.mutable_data();
  for (int64_t copy = 0; copy < times; ++copy) {
    std::memcpy(out + copy * block, source, static_cast<size_t>(block));
  }
  return make_fixed_width_array(array.type(), array.length() * times, nullptr, 0, values.finish());
}

}  // namespace

Array repeat(const Array& array, int64_t times, Allocator* allocator) {
  if (times < 0) {
    throw InvalidArgument("cannot repeat an array " + std::to_string(times) + " times");
  }
  const DataType& type = *array.type();
  if (type.bit_width() >= 8 && type.id() != TypeId::kDictionary &&
      type.id() != TypeId::kExtension && array.null_count() == 0) {
    return repeat_fixed_width(array, times, allocator);
  }
  if (times == 0) {
    return array.slice(0, 0);
  }
  // Doubling: log2(times) concatenations copy about twice the result.
  Array result = array;
  int64_t copies = 1;
  while (copies * 2 <= times) {
    std::vector<Array> halves{result, result};
    result = concatenate(halves, allocator);
    copies *= 2;
  }
  if (copies < times) {
    std::vector<Array> parts{result, result.slice(0, (times - copies) * array.length())};
    result = concatenate(parts, allocator);
  }
  return result;
}

}  // namespace bowstring::compute
