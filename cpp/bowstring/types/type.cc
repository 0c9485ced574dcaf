#include "bowstring/types/type.h"

#include <algorithm>
#include <limits>
#include <sstream>

#include "bowstring/util/error.h"
#include "bowstring/util/type_name.h"

namespace bowstring {

std::string_view type_id_name(TypeId id) {
  switch (id) {
    case TypeId::kNull:
      return "null";
    case TypeId::kBoolean:
      return "bool";
    case TypeId::kInt8:
      return "int8";
    case TypeId::kUInt8:
      return "uint8";
    case TypeId::kInt16:
      return "int16";
    case TypeId::kUInt16:
      return "uint16";
    case TypeId::kInt32:
      return "int32";
    case TypeId::kUInt32:
      return "uint32";
    case TypeId::kInt64:
      return "int64";
    case TypeId::kUInt64:
      return "uint64";
    case TypeId::kFloat16:
      return "halffloat";
    case TypeId::kFloat32:
      return "float";
    case TypeId::kFloat64:
      return "double";
    case TypeId::kDecimal32:
      return "decimal32";
    case TypeId::kDecimal64:
      return "decimal64";
    case TypeId::kDecimal128:
      return "decimal128";
    case TypeId::kDecimal256:
      return "decimal256";
    case TypeId::kDate32:
      return "date32";
    case TypeId::kDate64:
      return "date64";
    case TypeId::kTime32:
      return "time32";
    case TypeId::kTime64:
      return "time64";
    case TypeId::kTimestamp:
      return "timestamp";
    case TypeId::kDuration:
      return "duration";
    case TypeId::kIntervalMonths:
      return "month_interval";
    case TypeId::kIntervalDayTime:
      return "day_time_interval";
    case TypeId::kIntervalMonthDayNano:
      return "month_day_nano_interval";
    case TypeId::kString:
      return "string";
    case TypeId::kLargeString:
      return "large_string";
    case TypeId::kBinary:
      return "binary";
    case TypeId::kLargeBinary:
      return "large_binary";
    case TypeId::kFixedSizeBinary:
      return "fixed_size_binary";
    case TypeId::kStringView:
      return "string_view";
    case TypeId::kBinaryView:
      return "binary_view";
    case TypeId::kList:
      return "list";
    case TypeId::kLargeList:
      return "large_list";
    case TypeId::kListView:
      return "list_view";
    case TypeId::kLargeListView:
      return "large_list_view";
    case TypeId::kFixedSizeList:
      return "fixed_size_list";
    case TypeId::kStruct:
      return "struct";
    case TypeId::kMap:
      return "map";
    case TypeId::kDictionary:
      return "dictionary";
    case TypeId::kDenseUnion:
      return "dense_union";
    case TypeId::kSparseUnion:
      return "sparse_union";
    case TypeId::kRunEndEncoded:
      return "run_end_encoded";
    case TypeId::kExtension:
      return "extension";
  }
  return "unknown";
}

int64_t units_per_second(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return 1;
    case TimeUnit::kMilli:
      return 1000;
    case TimeUnit::kMicro:
      return 1000000;
    case TimeUnit::kNano:
      break;
  }
  return 1000000000;
}

std::string_view time_unit_name(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return "s";
    case TimeUnit::kMilli:
      return "ms";
    case TimeUnit::kMicro:
      return "us";
    case TimeUnit::kNano:
      return "ns";
  }
  return "?";
}

void throw_type_cast_error(const DataType& type, const char* expected) {
  throw TypeError("type " + type.to_string() + " is not a " + demangle_type_name(expected));
}

// --- DataType -----------------------------------------------------------------------------

DataType::~DataType() = default;

TypeId DataType::storage_id() const {
  return id_ == TypeId::kExtension ? static_cast<const ExtensionType&>(*this).storage_type()->id()
                                   : id_;
}

std::string DataType::to_string() const { return std::string(type_id_name(id_)); }

bool DataType::equals(const DataType& other, bool check_metadata) const {
  if (this == &other) {
    return true;
  }
  if (id_ != other.id_ || fields_.size() != other.fields_.size()) {
    return false;
  }
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!fields_[i]->equals(*other.fields_[i], check_metadata)) {
      return false;
    }
  }
  return true;
}

void DataType::throw_no_field(int i) const {
  throw IndexError("field index " + std::to_string(i) + " is outside the " +
                   std::to_string(num_fields()) + " fields of " + to_string());
}

int DataType::bit_width() const { return 0; }

std::string_view buffer_role(BufferKind kind, bool dictionary_indices) {
  switch (kind) {
    case BufferKind::kValidity:
      return "validity";
    case BufferKind::kAlwaysNull:
      return "unused";
    case BufferKind::kBitmap:
      return "values";
    case BufferKind::kFixedWidth:
      return dictionary_indices ? "indices" : "values";
    case BufferKind::kOffsets32:
    case BufferKind::kOffsets64:
      return "offsets";
    case BufferKind::kSizes32:
    case BufferKind::kSizes64:
      return "sizes";
    case BufferKind::kData:
      return "data";
    case BufferKind::kTypeIds:
      return "type ids";
    case BufferKind::kViews:
      return "views";
  }
  return "unknown";
}

std::vector<BufferSpec> DataType::layout() const {
  using K = BufferKind;
  switch (id_) {
    case TypeId::kNull:
    case TypeId::kSparseUnion:
      break;
    case TypeId::kBoolean:
      return {{K::kValidity}, {K::kBitmap}};
    case TypeId::kString:
    case TypeId::kBinary:
      return {{K::kValidity}, {K::kOffsets32}, {K::kData}};
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      return {{K::kValidity}, {K::kOffsets64}, {K::kData}};
    case TypeId::kStringView:
    case TypeId::kBinaryView:
      return {{K::kValidity}, {K::kViews, 16}};
    case TypeId::kList:
    case TypeId::kMap:
      return {{K::kValidity}, {K::kOffsets32}};
    case TypeId::kLargeList:
      return {{K::kValidity}, {K::kOffsets64}};
    case TypeId::kListView:
      return {{K::kValidity}, {K::kOffsets32}, {K::kSizes32}};
    case TypeId::kLargeListView:
      return {{K::kValidity}, {K::kOffsets64}, {K::kSizes64}};
    case TypeId::kFixedSizeList:
    case TypeId::kStruct:
      return {{K::kValidity}};
    case TypeId::kDenseUnion:
      return {{K::kAlwaysNull}, {K::kTypeIds, 1}, {K::kOffsets32}};
    case TypeId::kRunEndEncoded:
      return {{K::kAlwaysNull}};
    default:
      // fixed_size_binary[0] has a values buffer like any other width.
      if (bit_width() > 0 || id_ == TypeId::kFixedSizeBinary) {
        return {{K::kValidity}, {K::kFixedWidth, bit_width() / 8}};
      }
      break;
  }
  if (id_ == TypeId::kSparseUnion) {
    return {{K::kAlwaysNull}, {K::kTypeIds, 1}};
  }
  return {{K::kAlwaysNull}};
}

bool DataType::is_integer() const { return is_signed_integer() || is_unsigned_integer(); }

bool DataType::is_signed_integer() const {
  return id_ == TypeId::kInt8 || id_ == TypeId::kInt16 || id_ == TypeId::kInt32 ||
         id_ == TypeId::kInt64;
}

bool DataType::is_unsigned_integer() const {
  return id_ == TypeId::kUInt8 || id_ == TypeId::kUInt16 || id_ == TypeId::kUInt32 ||
         id_ == TypeId::kUInt64;
}

bool DataType::is_floating() const {
  return id_ == TypeId::kFloat16 || id_ == TypeId::kFloat32 || id_ == TypeId::kFloat64;
}

bool DataType::is_decimal() const {
  return id_ == TypeId::kDecimal32 || id_ == TypeId::kDecimal64 || id_ == TypeId::kDecimal128 ||
         id_ == TypeId::kDecimal256;
}

bool DataType::is_temporal() const {
  switch (id_) {
    case TypeId::kDate32:
    case TypeId::kDate64:
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
    case TypeId::kIntervalMonths:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalMonthDayNano:
      return true;
    default:
      return false;
  }
}

bool DataType::is_binary_like() const {
  switch (id_) {
    case TypeId::kString:
    case TypeId::kLargeString:
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kStringView:
    case TypeId::kBinaryView:
      return true;
    default:
      return false;
  }
}

bool DataType::is_string() const {
  return id_ == TypeId::kString || id_ == TypeId::kLargeString || id_ == TypeId::kStringView;
}

bool DataType::is_list_like() const {
  switch (id_) {
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kFixedSizeList:
    case TypeId::kMap:
      return true;
    default:
      return false;
  }
}

bool DataType::is_nested() const { return !fields_.empty(); }

// --- Field --------------------------------------------------------------------------------

Field::Field(std::string name, TypePtr type, bool nullable, Metadata metadata)
    : name_(std::move(name)),
      type_(std::move(type)),
      nullable_(nullable),
      metadata_(std::move(metadata)) {
  if (type_ == nullptr) {
    throw InvalidArgument("field '" + name_ + "' needs a type");
  }
}

FieldPtr Field::with_name(std::string name) const {
  return std::make_shared<Field>(std::move(name), type_, nullable_, metadata_);
}

FieldPtr Field::with_type(TypePtr type) const {
  return std::make_shared<Field>(name_, std::move(type), nullable_, metadata_);
}

FieldPtr Field::with_nullable(bool nullable) const {
  return std::make_shared<Field>(name_, type_, nullable, metadata_);
}

FieldPtr Field::with_metadata(Metadata metadata) const {
  return std::make_shared<Field>(name_, type_, nullable_, std::move(metadata));
}

std::string Field::to_string() const {
  return name_ + ": " + type_->to_string() + (nullable_ ? "" : " not null");
}

bool Field::equals(const Field& other, bool check_metadata) const {
  return name_ == other.name_ && nullable_ == other.nullable_ &&
         type_->equals(*other.type_, check_metadata) &&
         (!check_metadata || metadata_ == other.metadata_);
}

FieldPtr field(std::string name, TypePtr type, bool nullable, Metadata metadata) {
  return std::make_shared<Field>(std::move(name), std::move(type), nullable, std::move(metadata));
}

// --- PrimitiveType ------------------------------------------------------------------------

PrimitiveType::PrimitiveType(TypeId id) : DataType(id) {}

int PrimitiveType::bit_width() const {
  switch (id()) {
    case TypeId::kBoolean:
      return 1;
    case TypeId::kInt8:
    case TypeId::kUInt8:
      return 8;
    case TypeId::kInt16:
    case TypeId::kUInt16:
    case TypeId::kFloat16:
      return 16;
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kFloat32:
    case TypeId::kDate32:
    case TypeId::kIntervalMonths:
      return 32;
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat64:
    case TypeId::kDate64:
    case TypeId::kIntervalDayTime:
      return 64;
    case TypeId::kIntervalMonthDayNano:
      return 128;
    default:
      return 0;
  }
}

// --- DecimalType --------------------------------------------------------------------------

int32_t DecimalType::max_precision(TypeId id) {
  switch (id) {
    case TypeId::kDecimal32:
      return 9;
    case TypeId::kDecimal64:
      return 18;
    case TypeId::kDecimal128:
      return 38;
    case TypeId::kDecimal256:
      return 76;
    default:
      throw InvalidArgument("not a decimal type id: " + std::string(type_id_name(id)));
  }
}

DecimalType::DecimalType(TypeId id, int32_t precision, int32_t scale)
    : DataType(id), precision_(precision), scale_(scale) {
  const int32_t max = max_precision(id);
  if (precision < 1 || precision > max) {
    throw InvalidArgument(std::string(type_id_name(id)) + " precision must be between 1 and " +
                          std::to_string(max) + ", got " + std::to_string(precision));
  }
  if (scale > precision) {
    throw InvalidArgument(std::string(type_id_name(id)) + " scale " + std::to_string(scale) +
                          " is larger than its precision " + std::to_string(precision));
  }
}

int DecimalType::bit_width() const {
  switch (id()) {
    case TypeId::kDecimal32:
      return 32;
    case TypeId::kDecimal64:
      return 64;
    case TypeId::kDecimal128:
      return 128;
    default:
      return 256;
  }
}

std::string DecimalType::to_string() const {
  return std::string(type_id_name(id())) + "(" + std::to_string(precision_) + ", " +
         std::to_string(scale_) + ")";
}

bool DecimalType::equals(const DataType& other, bool check_metadata) const {
  if (!DataType::equals(other, check_metadata)) {
    return false;
  }
  const auto& decimal = static_cast<const DecimalType&>(other);
  return precision_ == decimal.precision_ && scale_ == decimal.scale_;
}

// --- temporal types -----------------------------------------------------------------------

TemporalUnitType::TemporalUnitType(TypeId id, TimeUnit unit) : DataType(id), unit_(unit) {
  if (id == TypeId::kTime32 && unit != TimeUnit::kSecond && unit != TimeUnit::kMilli) {
    throw InvalidArgument("time32 takes a unit of s or ms, got " +
                          std::string(time_unit_name(unit)));
  }
  if (id == TypeId::kTime64 && unit != TimeUnit::kMicro && unit != TimeUnit::kNano) {
    throw InvalidArgument("time64 takes a unit of us or ns, got " +
                          std::string(time_unit_name(unit)));
  }
  if (id != TypeId::kTime32 && id != TypeId::kTime64 && id != TypeId::kDuration) {
    throw InvalidArgument("not a time or duration type id: " + std::string(type_id_name(id)));
  }
}

int TemporalUnitType::bit_width() const { return id() == TypeId::kTime32 ? 32 : 64; }

std::string TemporalUnitType::to_string() const {
  return std::string(type_id_name(id())) + "[" + std::string(time_unit_name(unit_)) + "]";
}

bool TemporalUnitType::equals(const DataType& other, bool check_metadata) const {
  return DataType::equals(other, check_metadata) &&
         unit_ == static_cast<const TemporalUnitType&>(other).unit_;
}

TimestampType::TimestampType(TimeUnit unit, std::string timezone)
    : DataType(TypeId::kTimestamp), unit_(unit), timezone_(std::move(timezone)) {}

std::string TimestampType::to_string() const {
  std::string out = "timestamp[" + std::string(time_unit_name(unit_));
  if (!timezone_.empty()) {
    out += ", tz=" + timezone_;
  }
  return out + "]";
}

bool TimestampType::equals(const DataType& other, bool check_metadata) const {
  if (!DataType::equals(other, check_metadata)) {
    return false;
  }
  const auto& timestamp = static_cast<const TimestampType&>(other);
  return unit_ == timestamp.unit_ && timezone_ == timestamp.timezone_;
}

// --- binary and nested types --------------------------------------------------------------

FixedSizeBinaryType::FixedSizeBinaryType(int32_t byte_width)
    : DataType(TypeId::kFixedSizeBinary), byte_width_(byte_width) {
  // bit_width() is an int: a wider value would overflow it.
  constexpr int32_t kMaxWidth = std::numeric_limits<int32_t>::max() / 8;
  if (byte_width < 0 || byte_width > kMaxWidth) {
    throw InvalidArgument("fixed_size_binary width must be between 0 and " +
                          std::to_string(kMaxWidth) + " bytes, got " + std::to_string(byte_width));
  }
}

std::string FixedSizeBinaryType::to_string() const {
  return "fixed_size_binary[" + std::to_string(byte_width_) + "]";
}

bool FixedSizeBinaryType::equals(const DataType& other, bool check_metadata) const {
  return DataType::equals(other, check_metadata) &&
         byte_width_ == static_cast<const FixedSizeBinaryType&>(other).byte_width_;
}

namespace {

FieldVector check_fields(FieldVector fields, std::string_view owner) {
  for (const FieldPtr& child : fields) {
    if (child == nullptr) {
      throw InvalidArgument(std::string(owner) + " type has a null child field");
    }
  }
  return fields;
}

}  // namespace

ListType::ListType(TypeId id, FieldPtr value_field)
    : DataType(id, check_fields({std::move(value_field)}, type_id_name(id))) {
  if (id != TypeId::kList && id != TypeId::kLargeList && id != TypeId::kListView &&
      id != TypeId::kLargeListView) {
    throw InvalidArgument("not a list type id: " + std::string(type_id_name(id)));
  }
}

const TypePtr& ListType::value_type() const { return value_field()->type(); }

std::string ListType::to_string() const {
  return std::string(type_id_name(id())) + "<" + value_field()->to_string() + ">";
}

FixedSizeListType::FixedSizeListType(FieldPtr value_field, int32_t list_size)
    : DataType(TypeId::kFixedSizeList, check_fields({std::move(value_field)}, "fixed_size_list")),
      list_size_(list_size) {
  if (list_size < 0) {
    throw InvalidArgument("fixed_size_list size must be non-negative, got " +
                          std::to_string(list_size));
  }
}

const TypePtr& FixedSizeListType::value_type() const { return value_field()->type(); }

std::string FixedSizeListType::to_string() const {
  return "fixed_size_list<" + value_field()->to_string() + ">[" + std::to_string(list_size_) + "]";
}

bool FixedSizeListType::equals(const DataType& other, bool check_metadata) const {
  return DataType::equals(other, check_metadata) &&
         list_size_ == static_cast<const FixedSizeListType&>(other).list_size_;
}

StructType::StructType(FieldVector fields)
    : DataType(TypeId::kStruct, check_fields(std::move(fields), "struct")) {}

int StructType::field_index(std::string_view name) const {
  for (int i = 0; i < num_fields(); ++i) {
    if (field(i)->name() == name) {
      return i;
    }
  }
  return -1;
}

std::string StructType::to_string() const {
  std::string out = "struct<";
  for (int i = 0; i < num_fields(); ++i) {
    out += (i > 0 ? ", " : "") + field(i)->to_string();
  }
  return out + ">";
}

MapType::MapType(const FieldPtr& key_field, FieldPtr item_field, bool keys_sorted)
    : MapType(bowstring::field(
                  "entries",
                  struct_({key_field == nullptr ? nullptr : key_field->with_nullable(false),
                           std::move(item_field)}),
                  false),
              keys_sorted) {}

MapType::MapType(FieldPtr entries_field, bool keys_sorted)
    : DataType(TypeId::kMap, check_fields({std::move(entries_field)}, "map")),
      keys_sorted_(keys_sorted) {
  const DataType& entries = *field(0)->type();
  if (entries.id() != TypeId::kStruct || entries.num_fields() != 2) {
    throw TypeError("map entries must be a struct of a key and an item, got " +
                    entries.to_string());
  }
  if (entries.field(0)->nullable()) {
    throw TypeError("map keys must not be nullable");
  }
}

const FieldPtr& MapType::key_field() const { return field(0)->type()->field(0); }
const FieldPtr& MapType::item_field() const { return field(0)->type()->field(1); }

std::string MapType::to_string() const {
  return "map<" + key_type()->to_string() + ", " + item_type()->to_string() +
         (keys_sorted_ ? ", keys_sorted" : "") + ">";
}

bool MapType::equals(const DataType& other, bool check_metadata) const {
  if (other.id() != TypeId::kMap) {
    return false;
  }
  // Arrow does not require the names of the entries struct and its fields to match.
  const auto& map = static_cast<const MapType&>(other);
  return keys_sorted_ == map.keys_sorted_ && key_type()->equals(*map.key_type(), check_metadata) &&
         item_type()->equals(*map.item_type(), check_metadata) &&
         item_field()->nullable() == map.item_field()->nullable();
}

DictionaryType::DictionaryType(TypePtr index_type, TypePtr value_type, bool ordered)
    : DataType(TypeId::kDictionary),
      index_type_(std::move(index_type)),
      value_type_(std::move(value_type)),
      ordered_(ordered) {
  if (index_type_ == nullptr || !index_type_->is_integer()) {
    throw TypeError("dictionary indices must have an integer type, got " +
                    (index_type_ ? index_type_->to_string() : std::string("none")));
  }
  if (value_type_ == nullptr) {
    throw InvalidArgument("dictionary needs a value type");
  }
}

std::vector<BufferSpec> DictionaryType::layout() const { return index_type_->layout(); }

std::string DictionaryType::to_string() const {
  return "dictionary<values=" + value_type_->to_string() + ", indices=" + index_type_->to_string() +
         ", ordered=" + (ordered_ ? "1" : "0") + ">";
}

bool DictionaryType::equals(const DataType& other, bool check_metadata) const {
  if (other.id() != TypeId::kDictionary) {
    return false;
  }
  const auto& dict = static_cast<const DictionaryType&>(other);
  return ordered_ == dict.ordered_ && index_type_->equals(*dict.index_type_, check_metadata) &&
         value_type_->equals(*dict.value_type_, check_metadata);
}

UnionType::UnionType(UnionMode mode, FieldVector fields, std::vector<int8_t> type_codes)
    : DataType(mode == UnionMode::kDense ? TypeId::kDenseUnion : TypeId::kSparseUnion,
               check_fields(std::move(fields), "union")),
      type_codes_(std::move(type_codes)) {
  if (num_fields() > kMaxTypeCode + 1) {
    throw InvalidArgument("a union has at most " + std::to_string(kMaxTypeCode + 1) +
                          " children (type codes 0 to " + std::to_string(kMaxTypeCode) + "), got " +
                          std::to_string(num_fields()));
  }
  if (type_codes_.empty()) {
    for (int i = 0; i < num_fields(); ++i) {
      type_codes_.push_back(static_cast<int8_t>(i));
    }
  }
  if (static_cast<int>(type_codes_.size()) != num_fields()) {
    throw InvalidArgument("union has " + std::to_string(num_fields()) + " fields but " +
                          std::to_string(type_codes_.size()) + " type codes");
  }
  std::fill(std::begin(child_by_code_), std::end(child_by_code_), -1);
  for (int i = 0; i < num_fields(); ++i) {
    const int8_t code = type_codes_[static_cast<size_t>(i)];
    if (code < 0) {
      throw InvalidArgument("union type code must be between 0 and 127, got " +
                            std::to_string(code));
    }
    if (child_by_code_[static_cast<uint8_t>(code)] != -1) {
      throw InvalidArgument("union type code " + std::to_string(code) + " is used twice");
    }
    child_by_code_[static_cast<uint8_t>(code)] = i;
  }
}

std::string UnionType::to_string() const {
  std::string out = std::string(type_id_name(id())) + "<";
  for (int i = 0; i < num_fields(); ++i) {
    out += (i > 0 ? ", " : "") + field(i)->to_string() + "=" +
           std::to_string(type_codes_[static_cast<size_t>(i)]);
  }
  return out + ">";
}

bool UnionType::equals(const DataType& other, bool check_metadata) const {
  return DataType::equals(other, check_metadata) &&
         type_codes_ == static_cast<const UnionType&>(other).type_codes_;
}

RunEndEncodedType::RunEndEncodedType(TypePtr run_end_type, TypePtr value_type)
    : DataType(TypeId::kRunEndEncoded,
               {bowstring::field("run_ends", std::move(run_end_type), false),
                bowstring::field("values", std::move(value_type), true)}) {
  const TypeId run_end_id = field(0)->type()->id();
  if (run_end_id != TypeId::kInt16 && run_end_id != TypeId::kInt32 &&
      run_end_id != TypeId::kInt64) {
    throw TypeError("run ends must be int16, int32 or int64, got " + field(0)->type()->to_string());
  }
}

std::string RunEndEncodedType::to_string() const {
  return "run_end_encoded<run_ends: " + run_end_type()->to_string() +
         ", values: " + value_type()->to_string() + ">";
}

ExtensionType::ExtensionType(TypePtr storage_type, std::string extension_name,
                             std::string serialized)
    : DataType(TypeId::kExtension),
      storage_type_(std::move(storage_type)),
      extension_name_(std::move(extension_name)),
      serialized_(std::move(serialized)) {
  if (storage_type_ == nullptr) {
    throw InvalidArgument("extension type '" + extension_name_ + "' needs a storage type");
  }
  if (storage_type_->id() == TypeId::kExtension) {
    throw TypeError("extension type '" + extension_name_ +
                    "' cannot be stored as another extension type");
  }
}

std::string ExtensionType::to_string() const {
  return "extension<" + extension_name_ + ", storage=" + storage_type_->to_string() + ">";
}

bool ExtensionType::equals(const DataType& other, bool check_metadata) const {
  if (other.id() != TypeId::kExtension) {
    return false;
  }
  const auto& ext = static_cast<const ExtensionType&>(other);
  return extension_name_ == ext.extension_name_ && serialized_ == ext.serialized_ &&
         storage_type_->equals(*ext.storage_type_, check_metadata);
}

// --- factories ----------------------------------------------------------------------------

namespace {

TypePtr make_primitive(TypeId id) { return std::make_shared<PrimitiveType>(id); }

}  // namespace

#define BOWSTRING_PRIMITIVE_FACTORY(NAME, ID)       \
  TypePtr NAME() {                                  \
    static const TypePtr type = make_primitive(ID); \
    return type;                                    \
  }

BOWSTRING_PRIMITIVE_FACTORY(null, TypeId::kNull)
BOWSTRING_PRIMITIVE_FACTORY(boolean, TypeId::kBoolean)
BOWSTRING_PRIMITIVE_FACTORY(int8, TypeId::kInt8)
BOWSTRING_PRIMITIVE_FACTORY(int16, TypeId::kInt16)
BOWSTRING_PRIMITIVE_FACTORY(int32, TypeId::kInt32)
BOWSTRING_PRIMITIVE_FACTORY(int64, TypeId::kInt64)
BOWSTRING_PRIMITIVE_FACTORY(uint8, TypeId::kUInt8)
BOWSTRING_PRIMITIVE_FACTORY(uint16, TypeId::kUInt16)
BOWSTRING_PRIMITIVE_FACTORY(uint32, TypeId::kUInt32)
BOWSTRING_PRIMITIVE_FACTORY(uint64, TypeId::kUInt64)
BOWSTRING_PRIMITIVE_FACTORY(float16, TypeId::kFloat16)
BOWSTRING_PRIMITIVE_FACTORY(float32, TypeId::kFloat32)
BOWSTRING_PRIMITIVE_FACTORY(float64, TypeId::kFloat64)
BOWSTRING_PRIMITIVE_FACTORY(date32, TypeId::kDate32)
BOWSTRING_PRIMITIVE_FACTORY(date64, TypeId::kDate64)
BOWSTRING_PRIMITIVE_FACTORY(month_interval, TypeId::kIntervalMonths)
BOWSTRING_PRIMITIVE_FACTORY(day_time_interval, TypeId::kIntervalDayTime)
BOWSTRING_PRIMITIVE_FACTORY(month_day_nano_interval, TypeId::kIntervalMonthDayNano)
BOWSTRING_PRIMITIVE_FACTORY(utf8, TypeId::kString)
BOWSTRING_PRIMITIVE_FACTORY(large_utf8, TypeId::kLargeString)
BOWSTRING_PRIMITIVE_FACTORY(binary, TypeId::kBinary)
BOWSTRING_PRIMITIVE_FACTORY(large_binary, TypeId::kLargeBinary)
BOWSTRING_PRIMITIVE_FACTORY(utf8_view, TypeId::kStringView)
BOWSTRING_PRIMITIVE_FACTORY(binary_view, TypeId::kBinaryView)

#undef BOWSTRING_PRIMITIVE_FACTORY

TypePtr primitive(TypeId id) {
  switch (id) {
    case TypeId::kNull:
      return null();
    case TypeId::kBoolean:
      return boolean();
    case TypeId::kInt8:
      return int8();
    case TypeId::kInt16:
      return int16();
    case TypeId::kInt32:
      return int32();
    case TypeId::kInt64:
      return int64();
    case TypeId::kUInt8:
      return uint8();
    case TypeId::kUInt16:
      return uint16();
    case TypeId::kUInt32:
      return uint32();
    case TypeId::kUInt64:
      return uint64();
    case TypeId::kFloat16:
      return float16();
    case TypeId::kFloat32:
      return float32();
    case TypeId::kFloat64:
      return float64();
    case TypeId::kDate32:
      return date32();
    case TypeId::kDate64:
      return date64();
    case TypeId::kIntervalMonths:
      return month_interval();
    case TypeId::kIntervalDayTime:
      return day_time_interval();
    case TypeId::kIntervalMonthDayNano:
      return month_day_nano_interval();
    case TypeId::kString:
      return utf8();
    case TypeId::kLargeString:
      return large_utf8();
    case TypeId::kBinary:
      return binary();
    case TypeId::kLargeBinary:
      return large_binary();
    case TypeId::kStringView:
      return utf8_view();
    case TypeId::kBinaryView:
      return binary_view();
    default:
      throw InvalidArgument("type " + std::string(type_id_name(id)) +
                            " has parameters; use its factory function");
  }
}

TypePtr decimal32(int32_t precision, int32_t scale) {
  return std::make_shared<DecimalType>(TypeId::kDecimal32, precision, scale);
}
TypePtr decimal64(int32_t precision, int32_t scale) {
  return std::make_shared<DecimalType>(TypeId::kDecimal64, precision, scale);
}
TypePtr decimal128(int32_t precision, int32_t scale) {
  return std::make_shared<DecimalType>(TypeId::kDecimal128, precision, scale);
}
TypePtr decimal256(int32_t precision, int32_t scale) {
  return std::make_shared<DecimalType>(TypeId::kDecimal256, precision, scale);
}
TypePtr time32(TimeUnit unit) { return std::make_shared<TemporalUnitType>(TypeId::kTime32, unit); }
TypePtr time64(TimeUnit unit) { return std::make_shared<TemporalUnitType>(TypeId::kTime64, unit); }
TypePtr timestamp(TimeUnit unit, std::string timezone) {
  return std::make_shared<TimestampType>(unit, std::move(timezone));
}
TypePtr duration(TimeUnit unit) {
  return std::make_shared<TemporalUnitType>(TypeId::kDuration, unit);
}
TypePtr fixed_size_binary(int32_t byte_width) {
  return std::make_shared<FixedSizeBinaryType>(byte_width);
}

namespace {

FieldPtr item_field(TypePtr value_type) { return field("item", std::move(value_type)); }

}  // namespace

TypePtr list(TypePtr value_type) { return list(item_field(std::move(value_type))); }
TypePtr list(FieldPtr value_field) {
  return std::make_shared<ListType>(TypeId::kList, std::move(value_field));
}
TypePtr large_list(TypePtr value_type) { return large_list(item_field(std::move(value_type))); }
TypePtr large_list(FieldPtr value_field) {
  return std::make_shared<ListType>(TypeId::kLargeList, std::move(value_field));
}
TypePtr list_view(TypePtr value_type) { return list_view(item_field(std::move(value_type))); }
TypePtr list_view(FieldPtr value_field) {
  return std::make_shared<ListType>(TypeId::kListView, std::move(value_field));
}
TypePtr large_list_view(TypePtr value_type) {
  return large_list_view(item_field(std::move(value_type)));
}
TypePtr large_list_view(FieldPtr value_field) {
  return std::make_shared<ListType>(TypeId::kLargeListView, std::move(value_field));
}
TypePtr list_of_kind(TypeId list_id, TypePtr value_type) {
  return std::make_shared<ListType>(list_id, item_field(std::move(value_type)));
}
TypePtr fixed_size_list(TypePtr value_type, int32_t list_size) {
  return fixed_size_list(item_field(std::move(value_type)), list_size);
}
TypePtr fixed_size_list(FieldPtr value_field, int32_t list_size) {
  return std::make_shared<FixedSizeListType>(std::move(value_field), list_size);
}
TypePtr struct_(FieldVector fields) { return std::make_shared<StructType>(std::move(fields)); }
TypePtr map(TypePtr key_type, TypePtr item_type, bool keys_sorted) {
  return std::make_shared<MapType>(field("key", std::move(key_type), false),
                                   field("value", std::move(item_type)), keys_sorted);
}
TypePtr dictionary(TypePtr index_type, TypePtr value_type, bool ordered) {
  return std::make_shared<DictionaryType>(std::move(index_type), std::move(value_type), ordered);
}
TypePtr sparse_union(FieldVector fields, std::vector<int8_t> type_codes) {
  return std::make_shared<UnionType>(UnionMode::kSparse, std::move(fields), std::move(type_codes));
}
TypePtr dense_union(FieldVector fields, std::vector<int8_t> type_codes) {
  return std::make_shared<UnionType>(UnionMode::kDense, std::move(fields), std::move(type_codes));
}
TypePtr run_end_encoded(TypePtr run_end_type, TypePtr value_type) {
  return std::make_shared<RunEndEncodedType>(std::move(run_end_type), std::move(value_type));
}
TypePtr extension(TypePtr storage_type, std::string extension_name, std::string serialized) {
  return std::make_shared<ExtensionType>(std::move(storage_type), std::move(extension_name),
                                         std::move(serialized));
}

bool types_equal(const TypePtr& a, const TypePtr& b, bool check_metadata) {
  if (a == nullptr || b == nullptr) {
    return a == b;
  }
  return a->equals(*b, check_metadata);
}

}  // namespace bowstring
