#include "bowstring/array/builder_scalar.h"

#include <string>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_decimal.h"
#include "bowstring/array/builder_primitive.h"

namespace bowstring {

ScalarKind scalar_kind(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return ScalarKind::kBoolean;
    case TypeId::kString:
    case TypeId::kLargeString:
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kStringView:
    case TypeId::kBinaryView:
      return ScalarKind::kBinary;
    case TypeId::kNull:
    case TypeId::kDictionary:
    case TypeId::kExtension:
      return ScalarKind::kUnsupported;
    default:
      return type.byte_width() > 0 || type.id() == TypeId::kFixedSizeBinary
                 ? ScalarKind::kFixedWidth
                 : ScalarKind::kUnsupported;
  }
}

namespace {

template <typename Offset>
std::string_view offset_value(const ArrayData& data, int64_t i) {
  const Offset* offsets = data.values<Offset>(1);
  const char* bytes =
      data.buffers[2] == nullptr ? nullptr : reinterpret_cast<const char*>(data.buffers[2]->data());
  return {bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])};
}

}  // namespace

std::string_view scalar_bytes(const ArrayData& data, int64_t i) {
  static constexpr char kBooleans[2] = {0, 1};
  switch (data.type->id()) {
    case TypeId::kBoolean:
      return {&kBooleans[bit_util::get_bit(data.buffers[1]->data(), data.offset + i)], 1};
    case TypeId::kString:
    case TypeId::kBinary:
      return offset_value<int32_t>(data, i);
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      return offset_value<int64_t>(data, i);
    case TypeId::kStringView:
    case TypeId::kBinaryView: {
      const BinaryView& view = data.values<BinaryView>(1)[i];
      if (view.is_inline()) {
        return {reinterpret_cast<const char*>(view.inlined), static_cast<size_t>(view.size)};
      }
      const Buffer& buffer = *data.buffers[2 + static_cast<size_t>(view.ref.buffer_index)];
      return {reinterpret_cast<const char*>(buffer.data()) + view.ref.offset,
              static_cast<size_t>(view.size)};
    }
    default: {
      const int width = data.type->byte_width();
      return {reinterpret_cast<const char*>(data.buffers[1]->data()) + (data.offset + i) * width,
              static_cast<size_t>(width)};
    }
  }
}

namespace {

template <typename B>
void append_string(ArrayBuilder& builder, std::string_view bytes) {
  static_cast<B&>(builder).append(bytes);
}

template <typename T>
void append_number(ArrayBuilder& builder, std::string_view bytes) {
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));
  static_cast<NumericBuilder<T>&>(builder).append(value);
}

void append_boolean(ArrayBuilder& builder, std::string_view bytes) {
  static_cast<BooleanBuilder&>(builder).append(bytes[0] != 0);
}

void append_decimal(ArrayBuilder& builder, std::string_view bytes) {
  static_cast<DecimalBuilder&>(builder).append_raw(reinterpret_cast<const uint8_t*>(bytes.data()));
}

void append_fixed_size_binary(ArrayBuilder& builder, std::string_view bytes) {
  static_cast<FixedSizeBinaryBuilder&>(builder).append(
      reinterpret_cast<const uint8_t*>(bytes.data()));
}

using AppendFunction = void (*)(ArrayBuilder&, std::string_view);

/// The function appending bytes to `builder`, checked to be the builder make_builder creates.
AppendFunction append_function(ArrayBuilder& builder) {
  switch (builder.type()->id()) {
    case TypeId::kBoolean:
      builder.as<BooleanBuilder>();
      return append_boolean;
    case TypeId::kString:
    case TypeId::kBinary:
      builder.as<BaseBinaryBuilder<int32_t>>();
      return append_string<BaseBinaryBuilder<int32_t>>;
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      builder.as<BaseBinaryBuilder<int64_t>>();
      return append_string<BaseBinaryBuilder<int64_t>>;
    case TypeId::kStringView:
    case TypeId::kBinaryView:
      builder.as<BinaryViewBuilder>();
      return append_string<BinaryViewBuilder>;
    case TypeId::kFixedSizeBinary:
      builder.as<FixedSizeBinaryBuilder>();
      return append_fixed_size_binary;
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      builder.as<DecimalBuilder>();
      return append_decimal;
    case TypeId::kInt8:
      builder.as<NumericBuilder<int8_t>>();
      return append_number<int8_t>;
    case TypeId::kUInt8:
      builder.as<NumericBuilder<uint8_t>>();
      return append_number<uint8_t>;
    case TypeId::kInt16:
      builder.as<NumericBuilder<int16_t>>();
      return append_number<int16_t>;
    case TypeId::kUInt16:
    case TypeId::kFloat16:
      builder.as<NumericBuilder<uint16_t>>();
      return append_number<uint16_t>;
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kIntervalMonths:
      builder.as<NumericBuilder<int32_t>>();
      return append_number<int32_t>;
    case TypeId::kUInt32:
      builder.as<NumericBuilder<uint32_t>>();
      return append_number<uint32_t>;
    case TypeId::kFloat32:
      builder.as<NumericBuilder<float>>();
      return append_number<float>;
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
      builder.as<NumericBuilder<int64_t>>();
      return append_number<int64_t>;
    case TypeId::kUInt64:
      builder.as<NumericBuilder<uint64_t>>();
      return append_number<uint64_t>;
    case TypeId::kFloat64:
      builder.as<NumericBuilder<double>>();
      return append_number<double>;
    case TypeId::kIntervalDayTime:
      builder.as<NumericBuilder<DayTimeInterval>>();
      return append_number<DayTimeInterval>;
    case TypeId::kIntervalMonthDayNano:
      builder.as<NumericBuilder<MonthDayNanoInterval>>();
      return append_number<MonthDayNanoInterval>;
    default:
      return nullptr;
  }
}

ScalarAppender::Source number_source_of(const DataType& type) {
  using Source = ScalarAppender::Source;
  switch (type.id()) {
    case TypeId::kBoolean:
      return Source::kBool;
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return Source::kFloat;
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalMonthDayNano:
      return Source::kInterval;
    case TypeId::kFixedSizeBinary:
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      return Source::kBytes;
    default:
      return type.byte_width() > 0 ? Source::kInteger : Source::kBytes;
  }
}

}  // namespace

ScalarAppender::ScalarAppender(ArrayBuilder& builder, const char* owner)
    : builder_(&builder),
      kind_(scalar_kind(*builder.type())),
      width_(builder.type()->byte_width()),
      number_source_(number_source_of(*builder.type())),
      append_(append_function(builder)) {
  if (kind_ == ScalarKind::kUnsupported || append_ == nullptr) {
    throw NotImplemented(std::string(owner) + " compares values of " + builder.type()->to_string() +
                         " one by one, which is not supported for this type");
  }
}

void ScalarAppender::throw_mismatch(size_t size, Source source) const {
  std::string given;
  switch (source) {
    case Source::kBool:
      given = "a bool";
      break;
    case Source::kInteger:
      given = "a " + std::to_string(size) + "-byte integer";
      break;
    case Source::kFloat:
      given = "a " + std::to_string(size) + "-byte floating-point number";
      break;
    case Source::kInterval:
      given = "a " + std::to_string(size) + "-byte interval";
      break;
    case Source::kBytes:
      given = "a string of " + std::to_string(size) + " bytes";
      break;
  }
  throw TypeError("cannot append " + given + " as a value of " + builder_->type()->to_string() +
                  (kind_ == ScalarKind::kFixedWidth
                       ? " (" + std::to_string(width_) + " bytes per value)"
                       : std::string()));
}

}  // namespace bowstring
