#include "bowstring/compute/collection/list_util.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "bowstring/array/concatenate.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/bit_util.h"

namespace bowstring::compute::collection {

ListColumn::ListColumn(const Array& list)
    : array(list),
      data(list.data().get()),
      offsets(list.data()->values<int32_t>(1)),
      length(list.length()),
      values(list.data()->children[0]) {}

std::vector<int32_t> element_rows(const ListColumn& list) {
  std::vector<int32_t> rows(static_cast<size_t>(list.end() - list.first()));
  int32_t* out = rows.data();
  for (int64_t i = 0; i < list.length; ++i) {
    const int64_t count = list.size(i);
    std::fill(out, out + count, static_cast<int32_t>(i));
    out += count;
  }
  return rows;
}

ValidityOutput::ValidityOutput(int64_t length, Allocator* allocator)
    : bits_(bit_util::bytes_for_bits(length), allocator) {
  std::memset(bits_.mutable_data(), 0, static_cast<size_t>(bits_.size()));
}

void ValidityOutput::set(int64_t i, bool valid) {
  if (valid) {
    bit_util::set_bit(bits_.mutable_data(), i);
  } else {
    ++null_count_;
  }
}

std::shared_ptr<Buffer> ValidityOutput::finish() {
  return null_count_ == 0 ? nullptr : bits_.finish();
}

BooleanOutput::BooleanOutput(int64_t length, Allocator* allocator)
    : length_(length),
      bits_(bit_util::bytes_for_bits(length), allocator),
      validity_(length, allocator) {
  std::memset(bits_.mutable_data(), 0, static_cast<size_t>(bits_.size()));
}

void BooleanOutput::set(int64_t i, bool valid, bool value) {
  validity_.set(i, valid);
  if (valid && value) {
    bit_util::set_bit(bits_.mutable_data(), i);
  }
}

Datum BooleanOutput::finish(std::span<const Datum> arguments) {
  const int64_t null_count = validity_.null_count();
  return result_of(
      make_fixed_width_array(boolean(), length_, validity_.finish(), null_count, bits_.finish()),
      arguments);
}

Array pool_of(std::span<const Array> parts, const TypePtr& type, std::vector<int64_t>* bases,
              Allocator* allocator) {
  int64_t base = 0;
  for (const Array& part : parts) {
    if (bases != nullptr) {
      bases->push_back(base);
    }
    base += part.length();
  }
  if (parts.empty()) {
    return Datum::null_scalar(type, allocator).array();
  }
  return parts.size() == 1 ? parts[0] : concatenate(parts, allocator);
}

Array make_list(TypePtr type, int64_t length, std::shared_ptr<Buffer> validity, int64_t null_count,
                std::shared_ptr<Buffer> offsets, Array values) {
  std::vector<std::shared_ptr<Buffer>> buffers{std::move(validity), std::move(offsets)};
  return Array(std::make_shared<const ArrayData>(std::move(type), length, std::move(buffers),
                                                 null_count, 0,
                                                 std::vector<ArrayDataPtr>{values.data()}));
}

ListGather::ListGather(int64_t length, Allocator* allocator)
    : allocator_(allocator), validity_(length, allocator) {
  offsets_.reserve(static_cast<size_t>(length) + 1);
  offsets_.push_back(0);
}

void ListGather::finish_row(bool valid) {
  validity_.set(rows(), valid);
  offsets_.push_back(static_cast<int32_t>(indices_.size()));
}

Array ListGather::finish(const TypePtr& type, const Array& pool) {
  const int64_t length = rows();
  const int64_t null_count = validity_.null_count();
  std::shared_ptr<Buffer> validity = validity_.finish();
  std::shared_ptr<Buffer> offsets = Buffer::copy_of(
      offsets_.data(), static_cast<int64_t>(offsets_.size() * sizeof(int32_t)), allocator_);
  Array values = take_or_null(pool, indices_, allocator_);
  return make_list(type, length, std::move(validity), null_count, std::move(offsets),
                   std::move(values));
}

Array take_or_null(const Array& pool, std::vector<int64_t>& indices, Allocator* allocator) {
  bool has_null = false;
  for (const int64_t index : indices) {
    has_null = has_null || index < 0;
  }
  if (!has_null) {
    return take(pool, std::span<const int64_t>(indices), allocator);
  }
  const auto count = static_cast<int64_t>(indices.size());
  ValidityOutput validity(count, allocator);
  for (int64_t& index : indices) {
    validity.set(&index - indices.data(), index >= 0);
    index = std::max<int64_t>(index, 0);
  }
  const int64_t null_count = validity.null_count();
  const Array index_array = make_fixed_width_array(
      int64(), count, validity.finish(), null_count,
      Buffer::copy_of(indices.data(), count * static_cast<int64_t>(sizeof(int64_t)), allocator));
  // Every index is null when the pool is empty; take still wants one row to point at.
  const Array source =
      pool.length() == 0 ? Datum::null_scalar(pool.type(), allocator).array() : pool;
  return take(source, index_array, allocator);
}

namespace {

template <typename T>
Array normalized(const Array& values, Allocator* allocator) {
  const T* data = values.data()->values<T>(1);
  const int64_t length = values.length();
  const bool any = std::any_of(data, data + length,
                               [](T value) { return value == T{0} && std::signbit(value); });
  if (!any) {
    return values;
  }
  OutputValues<T> out(length, allocator);
  for (int64_t i = 0; i < length; ++i) {
    // Adding 0.0 turns -0.0 into 0.0 and leaves every other value (NaN included) as it is.
    out.data()[i] = data[i] + T{0};
  }
  return make_fixed_width_array(values.type(), length, copy_validity(*values.data(), allocator),
                                values.null_count(), out.finish());
}

}  // namespace

Array normalize_zeros(const Array& values, Allocator* allocator) {
  switch (values.type_id()) {
    case TypeId::kFloat32:
      return normalized<float>(values, allocator);
    case TypeId::kFloat64:
      return normalized<double>(values, allocator);
    default:
      return values;
  }
}

std::vector<Array> arrays_of(std::span<const Datum> arguments, int64_t length,
                             Allocator* allocator) {
  std::vector<Array> arrays;
  arrays.reserve(arguments.size());
  for (const Datum& argument : arguments) {
    arrays.push_back(argument.is_array() ? argument.array() : argument.to_array(length, allocator));
  }
  return arrays;
}

Datum result_of(Array array, std::span<const Datum> arguments) {
  return all_scalars(arguments) ? Datum::scalar(std::move(array)) : Datum(std::move(array));
}

const TypePtr& element_type(const DataType& list_type) { return list_type.field(0)->type(); }

bool is_array_type(const DataType& type) { return type.id() == TypeId::kList; }

namespace {

std::string ordinal(size_t index) {
  static const char* const kNames[] = {"first", "second", "third", "fourth", "fifth"};
  return index < 5 ? kNames[index] : std::to_string(index + 1) + "th";
}

}  // namespace

void throw_input_type(const std::string& function, size_t index, const std::string& expected,
                      const DataType& type) {
  throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                      "Cannot resolve \"" + function + "\" due to data type mismatch: the " +
                          ordinal(index) + " parameter requires the " + expected +
                          " type, however it has the type " + spark_type_name(type) + ".");
}

Array equal_values(const Array& left, const Array& right, ExecContext& context) {
  const Datum arguments[] = {Datum(left), Datum(right)};
  return call("=", arguments, {}, &context).array();
}

}  // namespace bowstring::compute::collection
