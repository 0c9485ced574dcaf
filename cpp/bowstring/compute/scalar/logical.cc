#include <cmath>
#include <cstring>
#include <string>

#include "bowstring/array/array.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/core/predicate_util.h"
#include "bowstring/compute/scalar/predicates.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {

namespace detail {

BitSource validity_source(const Datum& datum) {
  if (datum.is_scalar()) {
    return BitSource{nullptr, 0, datum.scalar_is_null() ? uint64_t{0} : ~uint64_t{0}};
  }
  const ArrayData& data = *datum.data();
  if (data.type->storage_id() == TypeId::kNull) {
    return BitSource{nullptr, 0, 0};
  }
  if (data.buffers.empty() || data.buffers[0] == nullptr || data.null_count() == 0) {
    return BitSource{};
  }
  return BitSource{data.buffers[0]->data(), data.offset, 0};
}

BitSource boolean_values_source(const Datum& datum) {
  const ArrayData& data = *datum.data();
  if (datum.is_scalar()) {
    const bool value = bit_util::get_bit(data.buffers[1]->data(), data.offset);
    return BitSource{nullptr, 0, value ? ~uint64_t{0} : uint64_t{0}};
  }
  return BitSource{data.buffers[1]->data(), data.offset, 0};
}

MutableBuffer zeroed_bitmap(int64_t length, Allocator* allocator) {
  return MutableBuffer(bit_util::bytes_for_bits(length), allocator);
}

UninitializedBuffer::UninitializedBuffer(int64_t size, Allocator* allocator)
    : allocator_(allocator), size_(size), capacity_(padded_size(size)) {
  if (size > kMaxBufferSize) {
    throw_buffer_too_large(0, size, 1);
  }
  data_ = allocator_->allocate(capacity_);
}

UninitializedBuffer::~UninitializedBuffer() {
  if (data_ != nullptr) {
    allocator_->free(data_, capacity_);
  }
}

std::shared_ptr<Buffer> UninitializedBuffer::finish() {
  std::memset(data_ + size_, 0, static_cast<size_t>(capacity_ - size_));
  std::shared_ptr<Buffer> result = Buffer::adopt(allocator_, data_, size_, capacity_);
  data_ = nullptr;
  return result;
}

UninitializedBuffer output_bitmap(int64_t length, Allocator* allocator) {
  return UninitializedBuffer(bit_util::bytes_for_bits(length), allocator);
}

Array make_boolean_array(int64_t length, std::shared_ptr<Buffer> validity, int64_t null_count,
                         std::shared_ptr<Buffer> values) {
  return Array(std::make_shared<ArrayData>(
      boolean(), length,
      std::vector<std::shared_ptr<Buffer>>{std::move(validity), std::move(values)}, null_count));
}

Array all_null_boolean_array(int64_t length, Allocator* allocator) {
  return make_boolean_array(length, zeroed_bitmap(length, allocator).finish(), length,
                            zeroed_bitmap(length, allocator).finish());
}

int64_t call_length(std::span<const Datum> arguments, const char* function) {
  int64_t length = -1;
  for (const Datum& argument : arguments) {
    if (argument.is_array()) {
      if (length >= 0 && argument.length() != length) {
        throw InvalidArgument(std::string(function) + ": arguments have different lengths (" +
                              std::to_string(length) + " and " + std::to_string(argument.length()) +
                              ")");
      }
      length = argument.length();
    }
  }
  return length < 0 ? 1 : length;
}

Datum as_result(Array result, bool scalar) {
  return scalar ? Datum::scalar(std::move(result)) : Datum(std::move(result));
}

}  // namespace detail

namespace {

using detail::BitSource;

void check_boolean(const Datum& datum, const char* function) {
  const TypeId id = datum.type()->storage_id();
  if (id != TypeId::kBoolean && id != TypeId::kNull) {
    throw TypeError(std::string(function) + " needs boolean arguments, got " +
                    datum.type()->to_string());
  }
}

/// A boolean datum for the Kleene kernels: the null type becomes a null boolean scalar.
Datum as_boolean(const Datum& datum, Allocator* allocator) {
  if (datum.type()->storage_id() == TypeId::kNull) {
    return datum.is_scalar() ? Datum::null_scalar(boolean(), allocator)
                             : Datum(detail::all_null_boolean_array(datum.length(), allocator));
  }
  return datum;
}

/// AND (`is_and`) or OR of two boolean datums with three-valued logic, word-wise. For AND a row
/// is known when both sides are valid or one side is a valid false; OR likewise with true.
Datum kleene(bool is_and, const Datum& left_in, const Datum& right_in, Allocator* allocator) {
  const char* name = is_and ? "and" : "or";
  check_boolean(left_in, name);
  check_boolean(right_in, name);
  const Datum left = as_boolean(left_in, allocator);
  const Datum right = as_boolean(right_in, allocator);
  const Datum arguments[] = {left, right};
  const int64_t length = detail::call_length(arguments, name);
  const bool scalar = all_scalars(arguments);

  const BitSource left_valid = detail::validity_source(left);
  const BitSource right_valid = detail::validity_source(right);
  const BitSource left_value = detail::boolean_values_source(left);
  const BitSource right_value = detail::boolean_values_source(right);
  detail::UninitializedBuffer values = detail::output_bitmap(length, allocator);
  const uint8_t* left_bytes = detail::aligned_bytes(left_value);
  const uint8_t* right_bytes = detail::aligned_bytes(right_value);
  if (left_bytes != nullptr && right_bytes != nullptr) {
    if (is_and) {
      detail::map_aligned_words(length, values.mutable_data(), left_bytes, right_bytes,
                                [](uint64_t a, uint64_t b) { return a & b; });
    } else {
      detail::map_aligned_words(length, values.mutable_data(), left_bytes, right_bytes,
                                [](uint64_t a, uint64_t b) { return a | b; });
    }
  } else {
    detail::write_words(length, values.mutable_data(), [&](int64_t row, int64_t count) {
      const uint64_t a = left_value.word(row, count);
      const uint64_t b = right_value.word(row, count);
      return is_and ? (a & b) : (a | b);
    });
  }
  const bool has_nulls = left_valid.bits != nullptr || right_valid.bits != nullptr ||
                         left_valid.fill == 0 || right_valid.fill == 0;
  if (!has_nulls) {
    return detail::as_result(detail::make_boolean_array(length, nullptr, 0, values.finish()),
                             scalar);
  }
  detail::UninitializedBuffer validity = detail::output_bitmap(length, allocator);
  detail::write_words(length, validity.mutable_data(), [&](int64_t row, int64_t count) {
    const uint64_t va = left_valid.word(row, count);
    const uint64_t vb = right_valid.word(row, count);
    const uint64_t a = left_value.word(row, count);
    const uint64_t b = right_value.word(row, count);
    // A valid false decides AND; a valid true decides OR.
    return is_and ? ((va & vb) | (va & ~a) | (vb & ~b)) : ((va & vb) | (va & a) | (vb & b));
  });
  const int64_t null_count = length - bit_util::count_set_bits(validity.data(), 0, length);
  if (null_count == 0) {
    return detail::as_result(detail::make_boolean_array(length, nullptr, 0, values.finish()),
                             scalar);
  }
  return detail::as_result(
      detail::make_boolean_array(length, validity.finish(), null_count, values.finish()), scalar);
}

/// A boolean datum of `length` rows, never null, whose row i is the bit `word(row, count)`
/// gives; a scalar when `scalar`.
template <typename Word>
Datum boolean_from_words(int64_t length, bool scalar, Allocator* allocator, Word&& word) {
  detail::UninitializedBuffer values = detail::output_bitmap(length, allocator);
  detail::write_words(length, values.mutable_data(), word);
  return detail::as_result(detail::make_boolean_array(length, nullptr, 0, values.finish()), scalar);
}

/// Whether each value of `datum` is null, for types whose nulls are not (only) in a validity
/// bitmap (unions, run-end encoded, dictionaries with null values), row by row.
Datum null_test_by_row(const Datum& datum, bool want_null, Allocator* allocator) {
  const Array& array = datum.array();
  detail::UninitializedBuffer values = detail::output_bitmap(array.length(), allocator);
  detail::write_predicate_bits(array.length(), values.mutable_data(),
                               [&](int64_t i) { return array.is_null(i) == want_null; });
  return detail::as_result(detail::make_boolean_array(array.length(), nullptr, 0, values.finish()),
                           datum.is_scalar());
}

bool nulls_outside_bitmap(const DataType& type) {
  const TypeId id = type.storage_id();
  return id == TypeId::kDenseUnion || id == TypeId::kSparseUnion || id == TypeId::kRunEndEncoded ||
         id == TypeId::kDictionary;
}

/// A boolean array of `length` rows, never null, all `value`.
Array constant_boolean_array(int64_t length, bool value, Allocator* allocator) {
  if (!value) {
    return detail::make_boolean_array(length, nullptr, 0,
                                      detail::zeroed_bitmap(length, allocator).finish());
  }
  const int64_t bytes = bit_util::bytes_for_bits(length);
  detail::UninitializedBuffer values(bytes, allocator);
  std::memset(values.mutable_data(), 0xFF, static_cast<size_t>(bytes));
  if ((length & 7) != 0) {
    values.mutable_data()[bytes - 1] = static_cast<uint8_t>((1u << (length & 7)) - 1);
  }
  return detail::make_boolean_array(length, nullptr, 0, values.finish());
}

Datum null_test(const Datum& datum, bool want_null, Allocator* allocator) {
  if (nulls_outside_bitmap(*datum.type())) {
    return null_test_by_row(datum, want_null, allocator);
  }
  const BitSource valid = detail::validity_source(datum);
  if (datum.is_array()) {
    const int64_t length = datum.length();
    if (valid.bits == nullptr) {
      // No bitmap: every row valid, or every row null (the null type).
      return Datum(constant_boolean_array(length, (valid.fill == 0) == want_null, allocator));
    }
    const ArrayData& data = *datum.data();
    if (!want_null) {
      // The validity bitmap is the answer: shared, not copied.
      return Datum(Array(std::make_shared<ArrayData>(
          boolean(), length, std::vector<std::shared_ptr<Buffer>>{nullptr, data.buffers[0]}, 0,
          data.offset)));
    }
    if (const uint8_t* bytes = detail::aligned_bytes(valid)) {
      detail::UninitializedBuffer values = detail::output_bitmap(length, allocator);
      detail::map_aligned_words(length, values.mutable_data(), bytes, bytes,
                                [](uint64_t word, uint64_t) { return ~word; });
      return Datum(detail::make_boolean_array(length, nullptr, 0, values.finish()));
    }
  }
  return boolean_from_words(datum.length(), datum.is_scalar(), allocator,
                            [&](int64_t row, int64_t count) {
                              const uint64_t word = valid.word(row, count);
                              return want_null ? ~word : word;
                            });
}

template <typename T>
Datum nan_test(const Datum& datum, Allocator* allocator) {
  const ArrayData& data = *datum.data();
  const T* values = data.values<T>(1);
  const BitSource valid = detail::validity_source(datum);
  detail::UninitializedBuffer out = detail::output_bitmap(data.length, allocator);
  detail::write_predicate_bits(data.length, out.mutable_data(),
                               [&](int64_t i) { return values[i] != values[i]; });
  if (valid.bits != nullptr || valid.fill == 0) {
    // A null is not NaN.
    uint8_t* bits = out.mutable_data();
    detail::write_words(data.length, bits, [&](int64_t row, int64_t count) {
      uint64_t nan;
      if (count == 64) {
        std::memcpy(&nan, bits + (row >> 3), sizeof(nan));
      } else {
        nan = detail::load_partial_word(bits, row, count);
      }
      return nan & valid.word(row, count);
    });
  }
  return detail::as_result(detail::make_boolean_array(data.length, nullptr, 0, out.finish()),
                           datum.is_scalar());
}

}  // namespace

Datum kleene_and(const Datum& left, const Datum& right, Allocator* allocator) {
  return kleene(true, left, right, allocator);
}

Datum kleene_or(const Datum& left, const Datum& right, Allocator* allocator) {
  return kleene(false, left, right, allocator);
}

Datum logical_not(const Datum& value_in, Allocator* allocator) {
  check_boolean(value_in, "not");
  const Datum value = as_boolean(value_in, allocator);
  const BitSource bits = detail::boolean_values_source(value);
  detail::UninitializedBuffer values = detail::output_bitmap(value.length(), allocator);
  if (const uint8_t* bytes = detail::aligned_bytes(bits)) {
    detail::map_aligned_words(value.length(), values.mutable_data(), bytes, bytes,
                              [](uint64_t word, uint64_t) { return ~word; });
  } else {
    detail::write_words(value.length(), values.mutable_data(),
                        [&](int64_t row, int64_t count) { return ~bits.word(row, count); });
  }
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity =
      value.is_scalar()
          ? (value.scalar_is_null() ? detail::zeroed_bitmap(1, allocator).finish() : nullptr)
          : copy_validity(*value.data(), allocator);
  if (validity != nullptr) {
    null_count = value.is_scalar() ? 1 : value.data()->null_count();
  }
  return detail::as_result(
      detail::make_boolean_array(value.length(), std::move(validity), null_count, values.finish()),
      value.is_scalar());
}

Datum is_null(const Datum& value, Allocator* allocator) {
  return null_test(value, true, allocator);
}

Datum is_not_null(const Datum& value, Allocator* allocator) {
  return null_test(value, false, allocator);
}

Datum is_nan(const Datum& value, Allocator* allocator) {
  switch (value.type()->storage_id()) {
    case TypeId::kFloat32:
      return nan_test<float>(value, allocator);
    case TypeId::kFloat64:
      return nan_test<double>(value, allocator);
    case TypeId::kNull:
      return boolean_from_words(value.length(), value.is_scalar(), allocator,
                                [](int64_t, int64_t) { return uint64_t{0}; });
    default:
      throw TypeError("isnan needs a float or double argument, got " + value.type()->to_string());
  }
}

}  // namespace bowstring::compute
