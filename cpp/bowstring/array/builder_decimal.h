#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "bowstring/array/builder.h"

namespace bowstring {

/// Writes the value of the decimal string `text` ("-12.345", "+7", "1.5e3", ".5") as an
/// unscaled integer of `type` (a `DecimalType`): `type.byte_width()` little-endian two's
/// complement bytes at `out`. Throws `InvalidArgument` when the text is not a decimal number,
/// when it has more digits after the point than the type's scale (other than trailing zeros),
/// or when it needs more digits than the type's precision.
void parse_decimal(std::string_view text, const DataType& type, uint8_t* out);

/// decimal32, decimal64, decimal128 and decimal256 values. Values are appended as their raw
/// little-endian unscaled integers (`append_raw`), as unscaled integers (`append_unscaled`:
/// 12345 at scale 2 is 123.45) or as decimal strings (`append_string`), checked against the
/// type's precision and scale.
class DecimalBuilder final : public ArrayBuilder {
 public:
  explicit DecimalBuilder(TypePtr type, Allocator* allocator = default_allocator());

  int32_t byte_width() const { return width_; }
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }

  /// Appends the `byte_width()` little-endian two's complement bytes at `value` as they are.
  void append_raw(const uint8_t* value) {
    data_.append(value, width_);
    append_valid();
  }
  /// Same without checking capacity: call `reserve` first.
  void unsafe_append_raw(const uint8_t* value) {
    data_.unsafe_append(value, width_);
    unsafe_append_valid();
  }
  /// Appends `count` raw values stored back to back at `values`, with one validity byte per
  /// value (nullptr: no nulls).
  void append_raw_values(const uint8_t* values, int64_t count,
                         const uint8_t* valid_bytes = nullptr);
  /// Appends the decimal whose unscaled integer is `unscaled`; throws `InvalidArgument` when it
  /// has more digits than the precision.
  void append_unscaled(int64_t unscaled);
  /// Appends the value of a decimal string (see `parse_decimal`).
  void append_string(std::string_view text);
  /// Appends decimal strings, with one validity byte per value (nullptr: no nulls); the strings
  /// of null slots are ignored.
  void append_strings(std::span<const std::string_view> texts,
                      const uint8_t* valid_bytes = nullptr);

  void append_null() override;
  void append_nulls(int64_t count) override;
  void append_empty_value() override;
  void append_empty_values(int64_t count) override;
  void reserve(int64_t additional) override;
  void reset() override;

  /// The raw bytes of value `i` among those appended so far, valid until the next append (which
  /// may append them again).
  const uint8_t* value_bytes(int64_t i) const { return data_.data() + i * width_; }

 protected:
  ArrayDataPtr finish_impl() override;

 private:
  int32_t width_;
  int32_t precision_;
  int32_t scale_;
  BufferBuilder data_;
};

}  // namespace bowstring
