#include "bowstring/array/builder_primitive.h"

#include <bit>
#include <string>

namespace bowstring {

NullBuilder::NullBuilder(Allocator* allocator) : ArrayBuilder(null(), allocator) {}

void NullBuilder::append_nulls(int64_t count) {
  if (count < 0) {
    throw InvalidArgument("cannot append a negative number of nulls: " + std::to_string(count));
  }
  length_ += count;
  null_count_ += count;
}

ArrayDataPtr NullBuilder::finish_impl() {
  return std::make_shared<ArrayData>(type_, length_, std::vector<std::shared_ptr<Buffer>>{nullptr},
                                     length_);
}

TypePtr checked_numeric_type(TypePtr type, int byte_width) {
  if (type == nullptr) {
    throw InvalidArgument("a numeric builder needs a type");
  }
  const TypeId id = type->id();
  const bool plain = id != TypeId::kBoolean && !type->is_decimal() &&
                     id != TypeId::kFixedSizeBinary && id != TypeId::kDictionary &&
                     id != TypeId::kExtension;
  if (!plain || type->byte_width() != byte_width) {
    throw TypeError("a numeric builder of " + std::to_string(byte_width) +
                    "-byte values cannot build " + type->to_string());
  }
  return type;
}

uint16_t float16_from_float(float value) {
  const auto bits = std::bit_cast<uint32_t>(value);
  const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude >= 0x7F800000u) {
    // Infinity stays infinity; NaN keeps its top payload bits and stays quiet.
    if (magnitude == 0x7F800000u) {
      return static_cast<uint16_t>(sign | 0x7C00u);
    }
    return static_cast<uint16_t>(sign | 0x7E00u | ((magnitude >> 13) & 0x3FFu));
  }
  if (magnitude >= 0x47800000u) {
    return static_cast<uint16_t>(sign | 0x7C00u);  // at least 2^16: beyond the largest half
  }
  if (magnitude >= 0x38800000u) {
    // Normal half: rebias the exponent, keep the top 10 mantissa bits and round to nearest
    // even. A carry out of the mantissa correctly bumps the exponent (up to infinity).
    const uint32_t exponent = (magnitude >> 23) - 127 + 15;
    const uint32_t mantissa = magnitude & 0x7FFFFFu;
    uint32_t half = (exponent << 10) | (mantissa >> 13);
    const uint32_t rest = mantissa & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u) != 0)) {
      ++half;
    }
    return static_cast<uint16_t>(sign | half);
  }
  if (magnitude <= 0x33000000u) {
    return sign;  // at most 2^-25, which rounds (to even) to zero
  }
  // Subnormal half: the value in units of 2^-24, rounded to nearest even.
  const uint32_t exponent = magnitude >> 23;
  const uint32_t mantissa = (magnitude & 0x7FFFFFu) | 0x800000u;
  const uint32_t shift = 126 - exponent;
  uint32_t half = mantissa >> shift;
  const uint32_t rest = mantissa & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1u) != 0)) {
    ++half;
  }
  return static_cast<uint16_t>(sign | half);
}

float float16_to_float(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1Fu;
  const uint32_t mantissa = bits & 0x3FFu;
  if (exponent == 0) {
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) | sign);
  }
  if (exponent == 0x1F) {
    return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
  }
  return std::bit_cast<float>(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

void HalfFloatBuilder::append_floats(std::span<const float> values, const uint8_t* valid_bytes) {
  const auto count = static_cast<int64_t>(values.size());
  append_validity_bytes(valid_bytes, count);
  values_.reserve(count);
  for (const float value : values) {
    values_.unsafe_append(float16_from_float(value));
  }
}

// --- BooleanBuilder -----------------------------------------------------------------------

BooleanBuilder::BooleanBuilder(Allocator* allocator)
    : ArrayBuilder(boolean(), allocator), values_(allocator) {}

void BooleanBuilder::append_values(std::span<const uint8_t> values, const uint8_t* valid_bytes) {
  const auto count = static_cast<int64_t>(values.size());
  append_validity_bytes(valid_bytes, count);
  values_.append_bytes(values.data(), count);
}

void BooleanBuilder::append_values(std::span<const bool> values, const uint8_t* valid_bytes) {
  // A bool is one byte holding 0 or 1.
  append_values(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(values.data()), values.size()),
      valid_bytes);
}

void BooleanBuilder::append_values(std::span<const uint8_t> values, const uint8_t* validity,
                                   int64_t validity_offset) {
  const auto count = static_cast<int64_t>(values.size());
  append_validity_bits(validity, validity_offset, count);
  values_.append_bytes(values.data(), count);
}

void BooleanBuilder::append_bits(const uint8_t* bits, int64_t offset, int64_t count,
                                 const uint8_t* validity, int64_t validity_offset) {
  if (bits == nullptr) {
    throw InvalidArgument("BooleanBuilder::append_bits needs a value bitmap");
  }
  append_validity_bits(validity, validity_offset, count);
  values_.append_bits(bits, offset, count);
}

void BooleanBuilder::append_null() {
  append_null_slots(1);
  values_.append(false);
}

void BooleanBuilder::append_nulls(int64_t count) {
  append_null_slots(count);
  values_.append_n(count, false);
}

void BooleanBuilder::append_empty_values(int64_t count) {
  values_.append_n(count, false);
  append_valid(count);
}

void BooleanBuilder::reserve(int64_t additional) {
  values_.reserve(additional);
  reserve_validity(additional);
}

void BooleanBuilder::reset() {
  ArrayBuilder::reset();
  values_.reset();
}

ArrayDataPtr BooleanBuilder::finish_impl() {
  std::shared_ptr<Buffer> validity = finish_validity();
  return std::make_shared<ArrayData>(
      type_, length_, std::vector<std::shared_ptr<Buffer>>{std::move(validity), values_.finish()},
      null_count_);
}

}  // namespace bowstring
