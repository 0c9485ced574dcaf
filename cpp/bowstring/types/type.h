#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

namespace bowstring {

/// Every logical type of the Arrow columnar format.
enum class TypeId : uint8_t {
  kNull,
  kBoolean,
  kInt8,
  kUInt8,
  kInt16,
  kUInt16,
  kInt32,
  kUInt32,
  kInt64,
  kUInt64,
  kFloat16,
  kFloat32,
  kFloat64,
  kDecimal32,
  kDecimal64,
  kDecimal128,
  kDecimal256,
  kDate32,
  kDate64,
  kTime32,
  kTime64,
  kTimestamp,
  kDuration,
  kIntervalMonths,
  kIntervalDayTime,
  kIntervalMonthDayNano,
  kString,
  kLargeString,
  kBinary,
  kLargeBinary,
  kFixedSizeBinary,
  kStringView,
  kBinaryView,
  kList,
  kLargeList,
  kListView,
  kLargeListView,
  kFixedSizeList,
  kStruct,
  kMap,
  kDictionary,
  kDenseUnion,
  kSparseUnion,
  kRunEndEncoded,
  kExtension,
};

/// Name of a type id as Arrow spells it ("int32", "large_utf8", "dense_union"...).
std::string_view type_id_name(TypeId id);

enum class TimeUnit : uint8_t { kSecond, kMilli, kMicro, kNano };
std::string_view time_unit_name(TimeUnit unit);  // "s", "ms", "us", "ns"
/// How many of `unit` make a second: 1, 1000, 10^6, 10^9.
int64_t units_per_second(TimeUnit unit);

enum class UnionMode : uint8_t { kSparse, kDense };

/// Ordered key/value pairs attached to a field or schema (Arrow's custom metadata).
using Metadata = std::vector<std::pair<std::string, std::string>>;

/// Value of a day-time interval: days and milliseconds.
struct DayTimeInterval {
  int32_t days;
  int32_t milliseconds;
  friend bool operator==(const DayTimeInterval&, const DayTimeInterval&) = default;
};

/// Value of a month-day-nano interval.
struct MonthDayNanoInterval {
  int32_t months;
  int32_t days;
  int64_t nanoseconds;
  friend bool operator==(const MonthDayNanoInterval&, const MonthDayNanoInterval&) = default;
};

/// The physical role of one buffer of an array (see `DataType::layout`).
enum class BufferKind : uint8_t {
  kValidity,    ///< validity bitmap (absent when there are no nulls)
  kAlwaysNull,  ///< a slot that is always empty (null, union and run-end encoded types)
  kBitmap,      ///< boolean values
  kFixedWidth,  ///< values of `byte_width` bytes each
  kOffsets32,   ///< int32 offsets, length + 1 entries
  kOffsets64,   ///< int64 offsets, length + 1 entries
  kSizes32,     ///< int32 sizes (list views)
  kSizes64,     ///< int64 sizes (large list views)
  kData,        ///< variable-size bytes addressed by offsets
  kTypeIds,     ///< int8 union type ids
  kViews,       ///< 16-byte string/binary views, followed by any number of data buffers
};

struct BufferSpec {
  BufferKind kind;
  int byte_width = 0;  ///< for kFixedWidth
};

/// A word for what a buffer of `kind` holds, for error messages: "validity", "offsets"...;
/// the fixed-width buffer of a dictionary-encoded array is its "indices".
std::string_view buffer_role(BufferKind kind, bool dictionary_indices = false);

class Field;
using FieldVector = std::vector<std::shared_ptr<const Field>>;

/// A logical data type. Immutable and shared through `std::shared_ptr<const DataType>`; create
/// them with the factory functions below (`int32()`, `list(utf8())`, `struct_({...})`...).
class DataType {
 public:
  virtual ~DataType();
  DataType(const DataType&) = delete;
  DataType& operator=(const DataType&) = delete;

  TypeId id() const { return id_; }
  /// The id of the type that lays the data out: the storage type's for an extension type,
  /// `id()` for any other.
  TypeId storage_id() const;
  /// Arrow's spelling: "int32", "timestamp[us, tz=UTC]", "list<item: int64>", ...
  virtual std::string to_string() const;
  /// Structural equality; field names and nullability count, metadata only when asked.
  virtual bool equals(const DataType& other, bool check_metadata = false) const;

  /// Child fields: the value field of list types, the fields of a struct or union, the "entries"
  /// struct of a map, the run_ends and values of a run-end encoded type.
  const FieldVector& fields() const { return fields_; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  /// Child field `i`; throws `IndexError` when there is no such field.
  const std::shared_ptr<const Field>& field(int i) const {
    if (i < 0 || i >= num_fields()) [[unlikely]] {
      throw_no_field(i);
    }
    return fields_[static_cast<size_t>(i)];
  }

  /// Bits per value for fixed-width types (1 for boolean), 0 otherwise.
  virtual int bit_width() const;
  /// Bytes per value for fixed-width types other than boolean, 0 otherwise.
  int byte_width() const { return bit_width() >= 8 ? bit_width() / 8 : 0; }
  /// The buffers an array of this type has, in order (buffer 0 is always the validity slot).
  /// View types list only their fixed buffers; data buffers follow them.
  virtual std::vector<BufferSpec> layout() const;

  bool is_integer() const;
  bool is_signed_integer() const;
  bool is_unsigned_integer() const;
  bool is_floating() const;
  bool is_decimal() const;
  bool is_numeric() const { return is_integer() || is_floating() || is_decimal(); }
  bool is_temporal() const;
  bool is_binary_like() const;  ///< utf8, binary and their large and view variants
  bool is_string() const;       ///< utf8, large_utf8, utf8_view
  bool is_list_like() const;    ///< list, large_list, list views, fixed_size_list, map
  bool is_nested() const;       ///< any type with child fields
  bool is_union() const { return id_ == TypeId::kDenseUnion || id_ == TypeId::kSparseUnion; }

 protected:
  explicit DataType(TypeId id, FieldVector fields = {}) : id_(id), fields_(std::move(fields)) {}

 private:
  [[noreturn]] void throw_no_field(int i) const;

  TypeId id_;
  FieldVector fields_;
};

using TypePtr = std::shared_ptr<const DataType>;

/// A named column or child: name, type, nullability and custom metadata.
class Field {
 public:
  Field(std::string name, TypePtr type, bool nullable = true, Metadata metadata = {});

  const std::string& name() const { return name_; }
  const TypePtr& type() const { return type_; }
  bool nullable() const { return nullable_; }
  const Metadata& metadata() const { return metadata_; }

  std::shared_ptr<const Field> with_name(std::string name) const;
  std::shared_ptr<const Field> with_type(TypePtr type) const;
  std::shared_ptr<const Field> with_nullable(bool nullable) const;
  std::shared_ptr<const Field> with_metadata(Metadata metadata) const;

  /// "name: type" with " not null" when not nullable.
  std::string to_string() const;
  bool equals(const Field& other, bool check_metadata = false) const;

 private:
  std::string name_;
  TypePtr type_;
  bool nullable_;
  Metadata metadata_;
};

using FieldPtr = std::shared_ptr<const Field>;

FieldPtr field(std::string name, TypePtr type, bool nullable = true, Metadata metadata = {});

/// Types whose only parameter is their id (null, boolean, integers, floats, dates, intervals,
/// the binary and string families).
class PrimitiveType final : public DataType {
 public:
  explicit PrimitiveType(TypeId id);
  int bit_width() const override;
};

/// decimal32/64/128/256(precision, scale): a fixed-width two's complement integer scaled by
/// 10^-scale.
class DecimalType final : public DataType {
 public:
  DecimalType(TypeId id, int32_t precision, int32_t scale);
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }
  int bit_width() const override;
  std::string to_string() const override;
  bool equals(const DataType& other, bool check_metadata = false) const override;
  /// Largest precision of a decimal of this width (9, 18, 38, 76).
  static int32_t max_precision(TypeId id);

 private:
  int32_t precision_;
  int32_t scale_;
};

/// time32 (seconds or milliseconds), time64 (micro or nanoseconds) and duration (any unit).
class TemporalUnitType final : public DataType {
 public:
  TemporalUnitType(TypeId id, TimeUnit unit);
  TimeUnit unit() const { return unit_; }
  int bit_width() const override;
  std::string to_string() const override;
  bool equals(const DataType& other, bool check_metadata = false) const override;

 private:
  TimeUnit unit_;
};

/// timestamp(unit, timezone): int64 since the Unix epoch; with a time zone the values are UTC
/// instants, without one they are wall-clock times.
class TimestampType final : public DataType {
 public:
  TimestampType(TimeUnit unit, std::string timezone);
  TimeUnit unit() const { return unit_; }
  const std::string& timezone() const { return timezone_; }
  int bit_width() const override { return 64; }
  std::string to_string() const override;
  bool equals(const DataType& other, bool check_metadata = false) const override;

 private:
  TimeUnit unit_;
  std::string timezone_;
};

class FixedSizeBinaryType final : public DataType {
 public:
  explicit FixedSizeBinaryType(int32_t byte_width);
  int32_t width() const { return byte_width_; }
  int bit_width() const override { return byte_width_ * 8; }
  std::string to_string() const override;
  bool equals(const DataType& other, bool check_metadata = false) const override;

 private:
  int32_t byte_width_;
};

/// list, large_list, list_view and large_list_view: one child field holding the values.
class ListType final : public DataType {
 public:
  ListType(TypeId id, FieldPtr value_field);
  const FieldPtr& value_field() const { return field(0); }
  const TypePtr& value_type() const;
  std::string to_string() const override;
};

class FixedSizeListType final : public DataType {
 public:
  FixedSizeListType(FieldPtr value_field, int32_t list_size);
  const FieldPtr& value_field() const { return field(0); }
  const TypePtr& value_type() const;
  int32_t list_size() const { return list_size_; }
  std::string to_string() const override;
  bool equals(const DataType& other, bool check_metadata = false) const override;

 private:
  int32_t list_size_;
};

class StructType final : public DataType {
 public:
  explicit StructType(FieldVector fields);
  /// Index of the first field named `name` (exact match), or -1.
  int field_index(std::string_view name) const;
  std::string to_string() const override;
};

/// map<key, item>: a list of "entries" structs with a non-null key and an item.
class MapType final : public DataType {
 public:
  MapType(const FieldPtr& key_field, FieldPtr item_field, bool keys_sorted = false);
  /// Built from an explicit entries field (as read from IPC or the C Data Interface).
  MapType(FieldPtr entries_field, bool keys_sorted);
  const FieldPtr& entries_field() const { return field(0); }
  const FieldPtr& key_field() const;
  const FieldPtr& item_field() const;
  const TypePtr& key_type() const { return key_field()->type(); }
  const TypePtr& item_type() const { return item_field()->type(); }
  bool keys_sorted() const { return keys_sorted_; }
  std::string to_string() const override;
  bool equals(const DataType& other, bool check_metadata = false) const override;

 private:
  bool keys_sorted_;
};

/// dictionary<values=value_type, indices=index_type, ordered>.
class DictionaryType final : public DataType {
 public:
  DictionaryType(TypePtr index_type, TypePtr value_type, bool ordered = false);
  const TypePtr& index_type() const { return index_type_; }
  const TypePtr& value_type() const { return value_type_; }
  bool ordered() const { return ordered_; }
  int bit_width() const override { return index_type_->bit_width(); }
  std::vector<BufferSpec> layout() const override;
  std::string to_string() const override;
  bool equals(const DataType& other, bool check_metadata = false) const override;

 private:
  TypePtr index_type_;
  TypePtr value_type_;
  bool ordered_;
};

/// Sparse or dense union. `type_codes[i]` is the type id byte that selects child `i`.
class UnionType final : public DataType {
 public:
  UnionType(UnionMode mode, FieldVector fields, std::vector<int8_t> type_codes);
  UnionMode mode() const {
    return id() == TypeId::kDenseUnion ? UnionMode::kDense : UnionMode::kSparse;
  }
  const std::vector<int8_t>& type_codes() const { return type_codes_; }
  /// Index of the child selected by `type_code`, or -1 when no child has it.
  int child_index(int8_t type_code) const {
    return child_by_code_[static_cast<uint8_t>(type_code)];
  }
  std::string to_string() const override;
  bool equals(const DataType& other, bool check_metadata = false) const override;

  static constexpr int kMaxTypeCode = 127;

 private:
  std::vector<int8_t> type_codes_;
  int child_by_code_[256];
};

/// run_end_encoded<run_ends: int16|int32|int64, values: T>.
class RunEndEncodedType final : public DataType {
 public:
  RunEndEncodedType(TypePtr run_end_type, TypePtr value_type);
  const TypePtr& run_end_type() const { return field(0)->type(); }
  const TypePtr& value_type() const { return field(1)->type(); }
  std::string to_string() const override;
};

/// A user-defined type stored as `storage_type`, identified by `extension_name` and carrying
/// serialized parameters (`ARROW:extension:name` / `ARROW:extension:metadata` in IPC).
class ExtensionType final : public DataType {
 public:
  ExtensionType(TypePtr storage_type, std::string extension_name, std::string serialized = {});
  const TypePtr& storage_type() const { return storage_type_; }
  const std::string& extension_name() const { return extension_name_; }
  const std::string& serialized() const { return serialized_; }
  int bit_width() const override { return storage_type_->bit_width(); }
  std::vector<BufferSpec> layout() const override { return storage_type_->layout(); }
  std::string to_string() const override;
  bool equals(const DataType& other, bool check_metadata = false) const override;

 private:
  TypePtr storage_type_;
  std::string extension_name_;
  std::string serialized_;
};

// Factories. Parameterless types are shared singletons.
TypePtr null();
TypePtr boolean();
TypePtr int8();
TypePtr int16();
TypePtr int32();
TypePtr int64();
TypePtr uint8();
TypePtr uint16();
TypePtr uint32();
TypePtr uint64();
TypePtr float16();
TypePtr float32();
TypePtr float64();
TypePtr date32();
TypePtr date64();
TypePtr month_interval();
TypePtr day_time_interval();
TypePtr month_day_nano_interval();
TypePtr utf8();
TypePtr large_utf8();
TypePtr binary();
TypePtr large_binary();
TypePtr utf8_view();
TypePtr binary_view();
/// The parameterless type with this id; throws `InvalidArgument` for parametric ids.
TypePtr primitive(TypeId id);

TypePtr decimal32(int32_t precision, int32_t scale);
TypePtr decimal64(int32_t precision, int32_t scale);
TypePtr decimal128(int32_t precision, int32_t scale);
TypePtr decimal256(int32_t precision, int32_t scale);
TypePtr time32(TimeUnit unit);
TypePtr time64(TimeUnit unit);
TypePtr timestamp(TimeUnit unit, std::string timezone = {});
TypePtr duration(TimeUnit unit);
TypePtr fixed_size_binary(int32_t byte_width);
TypePtr list(TypePtr value_type);
TypePtr list(FieldPtr value_field);
TypePtr large_list(TypePtr value_type);
TypePtr large_list(FieldPtr value_field);
TypePtr list_view(TypePtr value_type);
TypePtr list_view(FieldPtr value_field);
TypePtr large_list_view(TypePtr value_type);
TypePtr large_list_view(FieldPtr value_field);
/// The list, large_list, list_view or large_list_view (by `list_id`) of `value_type`; throws
/// `InvalidArgument` for any other id.
TypePtr list_of_kind(TypeId list_id, TypePtr value_type);
TypePtr fixed_size_list(TypePtr value_type, int32_t list_size);
TypePtr fixed_size_list(FieldPtr value_field, int32_t list_size);
TypePtr struct_(FieldVector fields);
TypePtr map(TypePtr key_type, TypePtr item_type, bool keys_sorted = false);
TypePtr dictionary(TypePtr index_type, TypePtr value_type, bool ordered = false);
/// Type codes default to 0, 1, 2...
TypePtr sparse_union(FieldVector fields, std::vector<int8_t> type_codes = {});
TypePtr dense_union(FieldVector fields, std::vector<int8_t> type_codes = {});
TypePtr run_end_encoded(TypePtr run_end_type, TypePtr value_type);
TypePtr extension(TypePtr storage_type, std::string extension_name, std::string serialized = {});

/// `a.equals(b)`, tolerating null pointers (equal only to each other).
bool types_equal(const TypePtr& a, const TypePtr& b, bool check_metadata = false);

/// Throws the `TypeError` of `type_cast`; `expected` is the mangled name of the wanted class.
[[noreturn]] void throw_type_cast_error(const DataType& type, const char* expected);

/// Checked downcast: throws `TypeError` naming the actual type when `type` is not a `T`.
template <typename T>
const T& type_cast(const DataType& type) {
  if (const auto* cast = dynamic_cast<const T*>(&type)) {
    return *cast;
  }
  throw_type_cast_error(type, typeid(T).name());
}

}  // namespace bowstring
