#pragma once

#include <cstdint>
#include <span>

#include "bowstring/array/builder.h"

namespace bowstring {

/// Builds arrays of the null type: only a length.
class NullBuilder final : public ArrayBuilder {
 public:
  explicit NullBuilder(Allocator* allocator = default_allocator());

  void append_null() override {
    ++length_;
    ++null_count_;
  }
  void append_nulls(int64_t count) override;
  /// A null array has no other value: same as `append_null`.
  void append_empty_value() override { append_null(); }
  void append_empty_values(int64_t count) override { append_nulls(count); }
  void reserve(int64_t /*additional*/) override {}

 protected:
  ArrayDataPtr finish_impl() override;
};

/// Throws `TypeError` unless `type` is a fixed-width type of `byte_width` bytes whose values are
/// plain numbers (integers, floats, dates, times, timestamps, durations, intervals).
TypePtr checked_numeric_type(TypePtr type, int byte_width);

/// Builds any fixed-width type whose values are read as `T`: integers, floats (float16 as its
/// uint16_t bits), dates, times, timestamps, durations and intervals. The concrete builders
/// below (`Int64Builder`, `TimestampBuilder`...) fix the type; this class is what generic code
/// holds to build, say, every 64-bit type the same way.
template <typename T>
class NumericBuilder : public ArrayBuilder {
 public:
  using value_type = T;

  explicit NumericBuilder(TypePtr type, Allocator* allocator = default_allocator())
      : ArrayBuilder(checked_numeric_type(std::move(type), sizeof(T)), allocator),
        values_(allocator) {}

  void append(T value) {
    values_.append(value);
    append_valid();
  }
  /// Appends without checking capacity: call `reserve` first.
  void unsafe_append(T value) {
    values_.unsafe_append(value);
    unsafe_append_valid();
  }
  /// Appends `values`; `valid_bytes` has one byte per value, zero for a null (nullptr: no nulls).
  void append_values(std::span<const T> values, const uint8_t* valid_bytes = nullptr) {
    const auto count = static_cast<int64_t>(values.size());
    append_validity_bytes(valid_bytes, count);
    values_.append(values.data(), count);
  }
  /// Appends `values`, valid where bits [validity_offset, +size) of `validity` are set.
  void append_values(std::span<const T> values, const uint8_t* validity, int64_t validity_offset) {
    const auto count = static_cast<int64_t>(values.size());
    append_validity_bits(validity, validity_offset, count);
    values_.append(values.data(), count);
  }

  void append_null() final {
    append_null_slots(1);
    values_.append(T{});
  }
  void append_nulls(int64_t count) final {
    append_null_slots(count);
    values_.append_fill(count, T{});
  }
  void append_empty_value() final {
    values_.append(T{});
    append_valid();
  }
  void append_empty_values(int64_t count) final {
    values_.append_fill(count, T{});
    append_valid(count);
  }
  void reserve(int64_t additional) final {
    values_.reserve(additional);
    reserve_validity(additional);
  }
  void reset() final {
    ArrayBuilder::reset();
    values_.reset();
  }

  /// Value `i` among those appended so far.
  T value(int64_t i) const { return values_[i]; }

 protected:
  ArrayDataPtr finish_impl() final {
    std::shared_ptr<Buffer> validity = finish_validity();
    return std::make_shared<ArrayData>(
        type_, length_, std::vector<std::shared_ptr<Buffer>>{std::move(validity), values_.finish()},
        null_count_);
  }

  TypedBufferBuilder<T> values_;
};

// Builders of the numeric types with a single possible type.
#define BOWSTRING_NUMERIC_BUILDER(NAME, CTYPE, FACTORY)       \
  class NAME final : public NumericBuilder<CTYPE> {           \
   public:                                                    \
    explicit NAME(Allocator* allocator = default_allocator()) \
        : NumericBuilder<CTYPE>(FACTORY(), allocator) {}      \
  };

BOWSTRING_NUMERIC_BUILDER(Int8Builder, int8_t, int8)
BOWSTRING_NUMERIC_BUILDER(Int16Builder, int16_t, int16)
BOWSTRING_NUMERIC_BUILDER(Int32Builder, int32_t, int32)
BOWSTRING_NUMERIC_BUILDER(Int64Builder, int64_t, int64)
BOWSTRING_NUMERIC_BUILDER(UInt8Builder, uint8_t, uint8)
BOWSTRING_NUMERIC_BUILDER(UInt16Builder, uint16_t, uint16)
BOWSTRING_NUMERIC_BUILDER(UInt32Builder, uint32_t, uint32)
BOWSTRING_NUMERIC_BUILDER(UInt64Builder, uint64_t, uint64)
BOWSTRING_NUMERIC_BUILDER(FloatBuilder, float, float32)
BOWSTRING_NUMERIC_BUILDER(DoubleBuilder, double, float64)
BOWSTRING_NUMERIC_BUILDER(Date32Builder, int32_t, date32)
BOWSTRING_NUMERIC_BUILDER(Date64Builder, int64_t, date64)
BOWSTRING_NUMERIC_BUILDER(MonthIntervalBuilder, int32_t, month_interval)
BOWSTRING_NUMERIC_BUILDER(DayTimeIntervalBuilder, DayTimeInterval, day_time_interval)
BOWSTRING_NUMERIC_BUILDER(MonthDayNanoIntervalBuilder, MonthDayNanoInterval,
                          month_day_nano_interval)

#undef BOWSTRING_NUMERIC_BUILDER

// Builders of parametric types: they take their type (`TimestampBuilder(timestamp(...))`).
#define BOWSTRING_PARAMETRIC_BUILDER(NAME, CTYPE, ID)                                           \
  class NAME final : public NumericBuilder<CTYPE> {                                             \
   public:                                                                                      \
    explicit NAME(TypePtr type, Allocator* allocator = default_allocator())                     \
        : NumericBuilder<CTYPE>(checked_builder_type(std::move(type), ID, #NAME), allocator) {} \
  };

BOWSTRING_PARAMETRIC_BUILDER(Time32Builder, int32_t, TypeId::kTime32)
BOWSTRING_PARAMETRIC_BUILDER(Time64Builder, int64_t, TypeId::kTime64)
BOWSTRING_PARAMETRIC_BUILDER(TimestampBuilder, int64_t, TypeId::kTimestamp)
BOWSTRING_PARAMETRIC_BUILDER(DurationBuilder, int64_t, TypeId::kDuration)

#undef BOWSTRING_PARAMETRIC_BUILDER

/// The IEEE 754 half-precision bits nearest to `value` (ties to even; overflow gives infinity,
/// NaN stays NaN).
uint16_t float16_from_float(float value);
/// The value of half-precision `bits` as a float (exact).
float float16_to_float(uint16_t bits);

/// float16 values, appended as their uint16_t bits (`append`) or from floats (`append_float`).
class HalfFloatBuilder final : public NumericBuilder<uint16_t> {
 public:
  explicit HalfFloatBuilder(Allocator* allocator = default_allocator())
      : NumericBuilder<uint16_t>(float16(), allocator) {}

  /// Appends the half-precision value nearest to `value`.
  void append_float(float value) { append(float16_from_float(value)); }
  /// Appends the half-precision values nearest to `values`, with validity as `append_values`.
  void append_floats(std::span<const float> values, const uint8_t* valid_bytes = nullptr);
};

/// Boolean values, bit-packed.
class BooleanBuilder final : public ArrayBuilder {
 public:
  explicit BooleanBuilder(Allocator* allocator = default_allocator());

  void append(bool value) {
    values_.append(value);
    append_valid();
  }
  /// Appends without checking capacity: call `reserve` first.
  void unsafe_append(bool value) {
    values_.unsafe_append(value);
    unsafe_append_valid();
  }
  /// Appends one value per byte of `values` (non-zero is true); `valid_bytes` as for numbers.
  void append_values(std::span<const uint8_t> values, const uint8_t* valid_bytes = nullptr);
  void append_values(std::span<const bool> values, const uint8_t* valid_bytes = nullptr);
  /// Same, validity given as bits [validity_offset, +size) of `validity`.
  void append_values(std::span<const uint8_t> values, const uint8_t* validity,
                     int64_t validity_offset);
  /// Appends `count` values from bits [offset, offset + count) of `bits`, with validity from
  /// bits [validity_offset, +count) of `validity` (nullptr: all valid).
  void append_bits(const uint8_t* bits, int64_t offset, int64_t count,
                   const uint8_t* validity = nullptr, int64_t validity_offset = 0);

  void append_null() override;
  void append_nulls(int64_t count) override;
  void append_empty_value() override { append(false); }
  void append_empty_values(int64_t count) override;
  void reserve(int64_t additional) override;
  void reset() override;

  /// Value `i` among those appended so far.
  bool value(int64_t i) const { return values_.get(i); }

 protected:
  ArrayDataPtr finish_impl() override;

 private:
  BitmapBuilder values_;
};

}  // namespace bowstring
