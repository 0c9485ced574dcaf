#include "bowstring/array/builder.h"

#include <cstring>
#include <string>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_decimal.h"
#include "bowstring/array/builder_dict.h"
#include "bowstring/array/builder_nested.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/builder_run_end_encoded.h"
#include "bowstring/array/builder_union.h"
#include "bowstring/util/type_name.h"

namespace bowstring {

ArrayBuilder::ArrayBuilder(TypePtr type, Allocator* allocator)
    : type_(std::move(type)), allocator_(allocator), validity_(allocator) {
  if (type_ == nullptr) {
    throw InvalidArgument("a builder needs a type");
  }
  if (allocator_ == nullptr) {
    throw InvalidArgument("a builder of " + type_->to_string() + " needs an allocator");
  }
}

ArrayBuilder::~ArrayBuilder() = default;

ArrayDataPtr ArrayBuilder::finish_data() {
  prepare_finish();
  return finish_prepared();
}

ArrayDataPtr ArrayBuilder::finish_prepared() {
  ArrayDataPtr data = finish_impl();
  length_ = 0;
  null_count_ = 0;
  reserved_ = 0;
  has_validity_ = false;
  validity_.reset();
  return data;
}

void ArrayBuilder::reset() {
  length_ = 0;
  null_count_ = 0;
  reserved_ = 0;
  has_validity_ = false;
  validity_.reset();
}

void ArrayBuilder::start_validity(int64_t upcoming) {
  // Every slot so far was valid; the bitmap gets room for what was reserved as well, so that
  // unsafe appends after `reserve` stay in bounds.
  validity_.reserve(std::max(reserved_, length_ + upcoming));
  validity_.append_n(length_, true);
  has_validity_ = true;
}

void ArrayBuilder::append_null_slots(int64_t count) {
  if (count <= 0) {
    if (count < 0) {
      throw InvalidArgument("cannot append a negative number of nulls: " + std::to_string(count));
    }
    return;
  }
  check_nulls_allowed(count);
  if (!has_validity_) {
    start_validity(count);
  }
  validity_.append_n(count, false);
  null_count_ += count;
  length_ += count;
}

void ArrayBuilder::append_validity_bytes(const uint8_t* valid_bytes, int64_t count) {
  if (valid_bytes == nullptr || count < 0) {
    append_valid(count);  // throws for a negative count before the bytes are read
    return;
  }
  if (!has_validity_) {
    const void* first_null = std::memchr(valid_bytes, 0, static_cast<size_t>(count));
    if (first_null == nullptr) {
      length_ += count;
      return;
    }
    check_nulls_allowed(1);
    start_validity(count);
  } else if (!nullable_ && std::memchr(valid_bytes, 0, static_cast<size_t>(count)) != nullptr) {
    throw_null_refused();
  }
  const int64_t before = validity_.false_count();
  validity_.append_bytes(valid_bytes, count);
  null_count_ += validity_.false_count() - before;
  length_ += count;
}

void ArrayBuilder::append_validity_bits(const uint8_t* validity, int64_t offset, int64_t count) {
  if (validity == nullptr || count < 0) {
    append_valid(count);  // throws for a negative count before the bits are read
    return;
  }
  const int64_t nulls = count - bit_util::count_set_bits(validity, offset, count);
  if (nulls == 0) {
    append_valid(count);
    return;
  }
  check_nulls_allowed(nulls);
  if (!has_validity_) {
    start_validity(count);
  }
  validity_.append_bits(validity, offset, count);
  null_count_ += nulls;
  length_ += count;
}

std::shared_ptr<Buffer> ArrayBuilder::finish_validity() {
  if (!has_validity_) {
    return nullptr;
  }
  has_validity_ = false;
  if (null_count_ == 0) {
    validity_.reset();
    return nullptr;
  }
  return validity_.finish();
}

void ArrayBuilder::throw_null_refused() const {
  throw InvalidArgument("cannot append a null to a builder of non-nullable " + type_->to_string() +
                        " values (map keys and fields declared not null hold no nulls)");
}

void ArrayBuilder::throw_negative_count(int64_t count) {
  throw InvalidArgument("cannot append a negative number of values: " + std::to_string(count));
}

void ArrayBuilder::throw_cast_error(const std::type_info& wanted) const {
  throw TypeError("the builder of " + type_->to_string() + " is not a " +
                  demangle_type_name(wanted.name()));
}

TypePtr checked_builder_type(TypePtr type, TypeId expected, const char* builder) {
  if (type == nullptr) {
    throw InvalidArgument(std::string(builder) + " needs a type");
  }
  if (type->id() != expected) {
    throw TypeError(std::string(builder) + " builds " + std::string(type_id_name(expected)) +
                    " arrays, not " + type->to_string());
  }
  return type;
}

namespace {

template <typename B>
std::unique_ptr<ArrayBuilder> make_with_type(TypePtr type, Allocator* allocator) {
  return std::make_unique<B>(std::move(type), allocator);
}

template <typename B>
std::unique_ptr<ArrayBuilder> make_default(Allocator* allocator) {
  return std::make_unique<B>(allocator);
}

}  // namespace

std::unique_ptr<ArrayBuilder> make_builder(TypePtr type, Allocator* allocator) {
  if (type == nullptr) {
    throw InvalidArgument("make_builder needs a type");
  }
  switch (type->id()) {
    case TypeId::kNull:
      return make_default<NullBuilder>(allocator);
    case TypeId::kBoolean:
      return make_default<BooleanBuilder>(allocator);
    case TypeId::kInt8:
      return make_default<Int8Builder>(allocator);
    case TypeId::kInt16:
      return make_default<Int16Builder>(allocator);
    case TypeId::kInt32:
      return make_default<Int32Builder>(allocator);
    case TypeId::kInt64:
      return make_default<Int64Builder>(allocator);
    case TypeId::kUInt8:
      return make_default<UInt8Builder>(allocator);
    case TypeId::kUInt16:
      return make_default<UInt16Builder>(allocator);
    case TypeId::kUInt32:
      return make_default<UInt32Builder>(allocator);
    case TypeId::kUInt64:
      return make_default<UInt64Builder>(allocator);
    case TypeId::kFloat16:
      return make_default<HalfFloatBuilder>(allocator);
    case TypeId::kFloat32:
      return make_default<FloatBuilder>(allocator);
    case TypeId::kFloat64:
      return make_default<DoubleBuilder>(allocator);
    case TypeId::kDate32:
      return make_default<Date32Builder>(allocator);
    case TypeId::kDate64:
      return make_default<Date64Builder>(allocator);
    case TypeId::kTime32:
      return make_with_type<Time32Builder>(std::move(type), allocator);
    case TypeId::kTime64:
      return make_with_type<Time64Builder>(std::move(type), allocator);
    case TypeId::kTimestamp:
      return make_with_type<TimestampBuilder>(std::move(type), allocator);
    case TypeId::kDuration:
      return make_with_type<DurationBuilder>(std::move(type), allocator);
    case TypeId::kIntervalMonths:
      return make_default<MonthIntervalBuilder>(allocator);
    case TypeId::kIntervalDayTime:
      return make_default<DayTimeIntervalBuilder>(allocator);
    case TypeId::kIntervalMonthDayNano:
      return make_default<MonthDayNanoIntervalBuilder>(allocator);
    case TypeId::kString:
      return make_default<StringBuilder>(allocator);
    case TypeId::kLargeString:
      return make_default<LargeStringBuilder>(allocator);
    case TypeId::kBinary:
      return make_default<BinaryBuilder>(allocator);
    case TypeId::kLargeBinary:
      return make_default<LargeBinaryBuilder>(allocator);
    case TypeId::kFixedSizeBinary:
      return make_with_type<FixedSizeBinaryBuilder>(std::move(type), allocator);
    case TypeId::kStringView:
      return make_default<StringViewBuilder>(allocator);
    case TypeId::kBinaryView:
      return make_default<BinaryViewBuilder>(allocator);
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      return make_with_type<DecimalBuilder>(std::move(type), allocator);
    case TypeId::kList:
      return make_with_type<ListBuilder>(std::move(type), allocator);
    case TypeId::kLargeList:
      return make_with_type<LargeListBuilder>(std::move(type), allocator);
    case TypeId::kListView:
      return make_with_type<ListViewBuilder>(std::move(type), allocator);
    case TypeId::kLargeListView:
      return make_with_type<LargeListViewBuilder>(std::move(type), allocator);
    case TypeId::kFixedSizeList:
      return make_with_type<FixedSizeListBuilder>(std::move(type), allocator);
    case TypeId::kStruct:
      return make_with_type<StructBuilder>(std::move(type), allocator);
    case TypeId::kMap:
      return make_with_type<MapBuilder>(std::move(type), allocator);
    case TypeId::kDictionary:
      return make_with_type<DictionaryBuilder>(std::move(type), allocator);
    case TypeId::kDenseUnion:
      return make_with_type<DenseUnionBuilder>(std::move(type), allocator);
    case TypeId::kSparseUnion:
      return make_with_type<SparseUnionBuilder>(std::move(type), allocator);
    case TypeId::kRunEndEncoded:
      return make_with_type<RunEndEncodedBuilder>(std::move(type), allocator);
    case TypeId::kExtension:
      return make_with_type<ExtensionBuilder>(std::move(type), allocator);
  }
  // Every TypeId has a builder above; only a corrupted id gets here.
  throw InvalidArgument("unknown type id " + std::to_string(static_cast<int>(type->id())));
}

}  // namespace bowstring
