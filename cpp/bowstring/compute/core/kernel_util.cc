#include "bowstring/compute/core/kernel_util.h"

#include <cstring>
#include <vector>

namespace bowstring::compute {

std::shared_ptr<Buffer> and_validity(std::span<const Datum> arguments, int64_t length,
                                     Allocator* allocator, int64_t* null_count) {
  std::vector<const ArrayData*> with_nulls;
  for (const Datum& argument : arguments) {
    if (argument.is_scalar()) {
      if (argument.scalar_is_null()) {
        *null_count = length;
        return Buffer::zeros(bit_util::bytes_for_bits(length), allocator);
      }
      continue;
    }
    if (argument.array().null_count() > 0) {
      with_nulls.push_back(argument.data().get());
    }
  }
  if (with_nulls.empty()) {
    *null_count = 0;
    return nullptr;
  }
  MutableBuffer bits(bit_util::bytes_for_bits(length), allocator);
  uint8_t* out = bits.mutable_data();
  const ArrayData& first = *with_nulls[0];
  bit_util::copy_bitmap(first.buffers[0]->data(), first.offset, length, out, 0);
  if (with_nulls.size() > 1) {
    MutableBuffer scratch(bit_util::bytes_for_bits(length), allocator);
    uint8_t* other = scratch.mutable_data();
    for (size_t k = 1; k < with_nulls.size(); ++k) {
      const ArrayData& data = *with_nulls[k];
      bit_util::copy_bitmap(data.buffers[0]->data(), data.offset, length, other, 0);
      for (int64_t byte = 0; byte < bit_util::bytes_for_bits(length); ++byte) {
        out[byte] &= other[byte];
      }
    }
  }
  *null_count = length - bit_util::count_set_bits(out, 0, length);
  return bits.finish();
}

std::shared_ptr<Buffer> copy_validity(const ArrayData& data, Allocator* allocator) {
  if (data.null_count() == 0 || data.buffers.empty() || data.buffers[0] == nullptr) {
    return nullptr;
  }
  MutableBuffer bits(bit_util::bytes_for_bits(data.length), allocator);
  bit_util::copy_bitmap(data.buffers[0]->data(), data.offset, data.length, bits.mutable_data(), 0);
  return bits.finish();
}

Array make_fixed_width_array(TypePtr type, int64_t length, std::shared_ptr<Buffer> validity,
                             int64_t null_count, std::shared_ptr<Buffer> values) {
  std::vector<std::shared_ptr<Buffer>> buffers{std::move(validity), std::move(values)};
  return Array(
      std::make_shared<const ArrayData>(std::move(type), length, std::move(buffers), null_count));
}

}  // namespace bowstring::compute
