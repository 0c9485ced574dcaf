#include "bowstring/array/builder_decimal.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace bowstring {

namespace {

TypePtr checked_decimal_type(TypePtr type) {
  if (type == nullptr) {
    throw InvalidArgument("DecimalBuilder needs a type");
  }
  if (!type->is_decimal()) {
    throw TypeError("DecimalBuilder builds decimal arrays, not " + type->to_string());
  }
  return type;
}

[[noreturn]] void throw_unrepresentable(std::string_view text, const DataType& type,
                                        const std::string& reason) {
  throw InvalidArgument("cannot represent \"" + std::string(text) + "\" as " + type.to_string() +
                        ": " + reason);
}

/// Writes the non-negative integer whose decimal digits are `digits` (at most 76 of them) as
/// `width` little-endian bytes, negated in two's complement when `negative`.
void write_digits(std::string_view digits, bool negative, int32_t width, uint8_t* out) {
  uint32_t limbs[8] = {};  // 256 bits, least significant limb first
  for (const char digit : digits) {
    uint64_t carry = static_cast<uint64_t>(digit - '0');
    for (uint32_t& limb : limbs) {
      const uint64_t product = static_cast<uint64_t>(limb) * 10 + carry;
      limb = static_cast<uint32_t>(product);
      carry = product >> 32;
    }
  }
  if (negative) {
    uint64_t carry = 1;
    for (uint32_t& limb : limbs) {
      const uint64_t sum = static_cast<uint64_t>(~limb) + carry;
      limb = static_cast<uint32_t>(sum);
      carry = sum >> 32;
    }
  }
  std::memcpy(out, limbs, static_cast<size_t>(width));
}

}  // namespace

void parse_decimal(std::string_view text, const DataType& type, uint8_t* out) {
  const auto& decimal = type_cast<DecimalType>(type);
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    negative = text[pos] == '-';
    ++pos;
  }
  // Every digit before and after the point, and how many came after it.
  std::string digits;
  int64_t fraction_digits = 0;
  bool seen_point = false;
  bool seen_digit = false;
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      seen_digit = true;
      fraction_digits += seen_point ? 1 : 0;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  int64_t exponent = 0;
  if (seen_digit && pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    bool exponent_negative = false;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
      exponent_negative = text[pos] == '-';
      ++pos;
    }
    bool exponent_digit = false;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
      exponent_digit = true;
      if (exponent < 100000) {
        exponent = exponent * 10 + (text[pos] - '0');
      }
    }
    if (!exponent_digit) {
      seen_digit = false;
    }
    exponent = exponent_negative ? -exponent : exponent;
  }
  if (!seen_digit || pos != text.size()) {
    throw InvalidArgument("\"" + std::string(text) + "\" is not a decimal number");
  }
  // The value is digits * 10^(exponent - fraction_digits); the unscaled integer is that times
  // 10^scale.
  const size_t first_nonzero = digits.find_first_not_of('0');
  digits.erase(0, first_nonzero == std::string::npos ? digits.size() : first_nonzero);
  const int64_t shift = exponent - fraction_digits + decimal.scale();
  if (!digits.empty()) {
    if (shift < 0) {
      const auto dropped = static_cast<size_t>(std::min<int64_t>(-shift, digits.size()));
      if (digits.find_first_not_of('0', digits.size() - dropped) != std::string::npos) {
        throw_unrepresentable(text, type,
                              "it has more digits after the decimal point than the scale " +
                                  std::to_string(decimal.scale()));
      }
      digits.erase(digits.size() - dropped);
    }
    const int64_t needed = static_cast<int64_t>(digits.size()) + std::max<int64_t>(shift, 0);
    if (needed > decimal.precision()) {
      throw_unrepresentable(text, type,
                            "it needs " + std::to_string(needed) +
                                " digits, more than the precision " +
                                std::to_string(decimal.precision()));
    }
    digits.append(static_cast<size_t>(std::max<int64_t>(shift, 0)), '0');
  }
  write_digits(digits, negative && !digits.empty(), type.byte_width(), out);
}

DecimalBuilder::DecimalBuilder(TypePtr type, Allocator* allocator)
    : ArrayBuilder(checked_decimal_type(std::move(type)), allocator),
      width_(type_->byte_width()),
      precision_(static_cast<const DecimalType&>(*type_).precision()),
      scale_(static_cast<const DecimalType&>(*type_).scale()),
      data_(allocator) {}

void DecimalBuilder::append_raw_values(const uint8_t* values, int64_t count,
                                       const uint8_t* valid_bytes) {
  append_validity_bytes(valid_bytes, count);
  data_.append(values, count * width_);
}

void DecimalBuilder::append_unscaled(int64_t unscaled) {
  if (precision_ < 19) {
    int64_t limit = 1;
    for (int32_t i = 0; i < precision_; ++i) {
      limit *= 10;
    }
    if (unscaled >= limit || unscaled <= -limit) {
      throw InvalidArgument("the unscaled value " + std::to_string(unscaled) + " has more than " +
                            std::to_string(precision_) + " digits, the precision of " +
                            type_->to_string());
    }
  }
  uint8_t bytes[32];
  // Sign-extend the 64-bit value to the width of the type.
  std::memset(bytes, unscaled < 0 ? 0xFF : 0x00, sizeof(bytes));
  std::memcpy(bytes, &unscaled, std::min<size_t>(sizeof(unscaled), static_cast<size_t>(width_)));
  append_raw(bytes);
}

void DecimalBuilder::append_string(std::string_view text) {
  uint8_t bytes[32];
  parse_decimal(text, *type_, bytes);
  append_raw(bytes);
}

void DecimalBuilder::append_strings(std::span<const std::string_view> texts,
                                    const uint8_t* valid_bytes) {
  // Parse everything first, so that a bad string leaves the builder unchanged.
  const auto count = static_cast<int64_t>(texts.size());
  BufferBuilder parsed(allocator_);
  parsed.resize(count * width_);
  for (size_t i = 0; i < texts.size(); ++i) {
    if (valid_bytes == nullptr || valid_bytes[i] != 0) {
      parse_decimal(texts[i], *type_, parsed.mutable_data() + static_cast<int64_t>(i) * width_);
    }
  }
  append_raw_values(parsed.data(), count, valid_bytes);
}

void DecimalBuilder::append_null() {
  append_null_slots(1);
  data_.append_fill(width_, 0);
}

void DecimalBuilder::append_nulls(int64_t count) {
  append_null_slots(count);
  data_.append_fill(count * width_, 0);
}

void DecimalBuilder::append_empty_value() {
  data_.append_fill(width_, 0);
  append_valid();
}

void DecimalBuilder::append_empty_values(int64_t count) {
  data_.append_fill(count * width_, 0);
  append_valid(count);
}

void DecimalBuilder::reserve(int64_t additional) {
  data_.reserve(additional * width_);
  reserve_validity(additional);
}

void DecimalBuilder::reset() {
  ArrayBuilder::reset();
  data_.reset();
}

ArrayDataPtr DecimalBuilder::finish_impl() {
  std::shared_ptr<Buffer> validity = finish_validity();
  return std::make_shared<ArrayData>(
      type_, length_, std::vector<std::shared_ptr<Buffer>>{std::move(validity), data_.finish()},
      null_count_);
}

}  // namespace bowstring
