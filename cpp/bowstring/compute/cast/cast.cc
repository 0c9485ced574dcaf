#include "bowstring/compute/cast/cast.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/array/builder.h"
#include "bowstring/array/builder_binary.h"
#include "bowstring/compute/cast/cast_text.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/compute/datetime/datetime_parse.h"
#include "bowstring/compute/datetime/timezone.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/memory/buffer_builder.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/types/storage.h"
#include "bowstring/util/bit_util.h"
#include "bowstring/util/utf8.h"

namespace bowstring::compute {
namespace {

using cast_text::ParseResult;

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

/// What a value that cannot be converted becomes.
enum class Mode : uint8_t {
  kAnsi,    ///< an error (spark.sql.ansi.enabled)
  kLegacy,  ///< null, or a wrapped value where Spark's non-ANSI cast wraps
  kTry,     ///< null (try_cast)
};

/// The type families Spark's casts distinguish.
enum class Family : uint8_t {
  kNull,
  kBoolean,
  kInteger,
  kFloating,
  kDecimal,
  kString,
  kBinary,
  kDate,
  kTimestamp,     ///< with a time zone: Spark's TIMESTAMP
  kTimestampNtz,  ///< without: TIMESTAMP_NTZ
  kList,
  kStruct,
  kMap,
  kOther,
};

Family family_of(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull:
      return Family::kNull;
    case TypeId::kBoolean:
      return Family::kBoolean;
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
      return Family::kInteger;
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return Family::kFloating;
    case TypeId::kDecimal128:
      return Family::kDecimal;
    case TypeId::kString:
    case TypeId::kLargeString:
    case TypeId::kStringView:
      return Family::kString;
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kBinaryView:
      return Family::kBinary;
    case TypeId::kDate32:
      return Family::kDate;
    case TypeId::kTimestamp: {
      // Spark's timestamps are microseconds; other units are not among its types.
      const auto& timestamp = type_cast<TimestampType>(type);
      if (timestamp.unit() != TimeUnit::kMicro) {
        return Family::kOther;
      }
      return timestamp.timezone().empty() ? Family::kTimestampNtz : Family::kTimestamp;
    }
    case TypeId::kList:
    case TypeId::kLargeList:
      return Family::kList;
    case TypeId::kStruct:
      return Family::kStruct;
    case TypeId::kMap:
      return Family::kMap;
    default:
      return Family::kOther;
  }
}

/// The Spark type whose values an Arrow layout Spark does not use holds: the value type of a
/// dictionary, decimal128 for decimal32/64 and for decimal256 up to precision 38, microseconds
/// for timestamps in other units, date32 for date64. Nullptr for every other type.
TypePtr canonical_type(const DataType& type) {
  switch (type.id()) {
    case TypeId::kDictionary: {
      const TypePtr& values = type_cast<DictionaryType>(type).value_type();
      TypePtr canonical = canonical_type(*values);
      return canonical != nullptr ? canonical : values;
    }
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal256: {
      const auto& decimal = type_cast<DecimalType>(type);
      if (decimal.precision() > DecimalType::max_precision(TypeId::kDecimal128)) {
        return nullptr;
      }
      return decimal128(decimal.precision(), decimal.scale());
    }
    case TypeId::kTimestamp: {
      const auto& timestamp = type_cast<TimestampType>(type);
      if (timestamp.unit() == TimeUnit::kMicro) {
        return nullptr;
      }
      return bowstring::timestamp(TimeUnit::kMicro, timestamp.timezone());
    }
    case TypeId::kDate64:
      return date32();
    default:
      return nullptr;
  }
}

/// Spark's DECIMAL holds at most 38 digits: a wider decimal256 is refused by name.
void check_decimal_precision(const DataType& type) {
  if (type.id() == TypeId::kDictionary) {
    check_decimal_precision(*type_cast<DictionaryType>(type).value_type());
    return;
  }
  if (type.id() != TypeId::kDecimal256) {
    return;
  }
  const auto& decimal = type_cast<DecimalType>(type);
  if (decimal.precision() > DecimalType::max_precision(TypeId::kDecimal128)) {
    throw AnalysisError("UNSUPPORTED_DATATYPE",
                        "Unsupported data type " + type.to_string() +
                            " in CAST: Spark's DECIMAL holds at most 38 digits, this type has " +
                            std::to_string(decimal.precision()) + ".");
  }
}

bool is_numeric_family(Family family) {
  return family == Family::kInteger || family == Family::kFloating || family == Family::kDecimal;
}

/// Whether the target is one this cast produces (Spark's types as Arrow lays them out).
bool is_supported_target(const DataType& type) {
  if (type.id() == TypeId::kDictionary) {
    return false;
  }
  if (const TypePtr canonical = canonical_type(type)) {
    return is_supported_target(*canonical);
  }
  switch (type.id()) {
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
    case TypeId::kLargeString:
    case TypeId::kStringView:
    case TypeId::kLargeBinary:
    case TypeId::kBinaryView:
    case TypeId::kLargeList:
      return false;
    default:
      return family_of(type) != Family::kOther;
  }
}

// --- values in messages ---------------------------------------------------------------------

std::string quoted_type(const DataType& type) { return "\"" + spark_type_name(type) + "\""; }

__int128 decimal_value(const ArrayData& data, int64_t i) {
  __int128 value;
  std::memcpy(&value, data.buffers[1]->data() + (data.offset + i) * 16, sizeof(value));
  return value;
}

/// Value `i` of `data` as Spark's SQL literal spells it in messages: 300, 300L, 3S, 1Y, 1.5D,
/// 1.5 (float), 12.30BD, 'text'.
std::string sql_value(const ArrayData& data, int64_t i) {
  char text[64];
  switch (data.type->id()) {
    case TypeId::kInt8:
      return std::to_string(data.values<int8_t>(1)[i]) + "Y";
    case TypeId::kInt16:
      return std::to_string(data.values<int16_t>(1)[i]) + "S";
    case TypeId::kInt32:
      return std::to_string(data.values<int32_t>(1)[i]);
    case TypeId::kInt64:
      return std::to_string(data.values<int64_t>(1)[i]) + "L";
    case TypeId::kUInt8:
      return std::to_string(data.values<uint8_t>(1)[i]);
    case TypeId::kUInt16:
      return std::to_string(data.values<uint16_t>(1)[i]);
    case TypeId::kUInt32:
      return std::to_string(data.values<uint32_t>(1)[i]);
    case TypeId::kUInt64:
      return std::to_string(data.values<uint64_t>(1)[i]);
    case TypeId::kFloat32:
      return std::string(
          text, static_cast<size_t>(cast_text::format_float(data.values<float>(1)[i], text)));
    case TypeId::kFloat64: {
      const double value = data.values<double>(1)[i];
      std::string out(text, static_cast<size_t>(cast_text::format_double(value, text)));
      return std::isfinite(value) ? out + "D" : out;
    }
    case TypeId::kDecimal128: {
      const int32_t scale = type_cast<DecimalType>(*data.type).scale();
      return std::string(text, static_cast<size_t>(cast_text::format_decimal_plain(
                                   decimal_value(data, i), scale, text))) +
             "BD";
    }
    case TypeId::kTimestamp: {
      const int64_t micros = data.values<int64_t>(1)[i];
      const bool ntz = type_cast<TimestampType>(*data.type).timezone().empty();
      const int n = ntz ? format_timestamp_ntz(micros, text)
                        : format_timestamp(micros, TimeZone::utc(), text);
      return (ntz ? "TIMESTAMP_NTZ '" : "TIMESTAMP '") + std::string(text, static_cast<size_t>(n)) +
             "'";
    }
    case TypeId::kDate32:
      return "DATE '" + format_date(data.values<int32_t>(1)[i]) + "'";
    default: {
      std::string_view value;
      Array array(std::make_shared<ArrayData>(data));
      if (data.type->id() == TypeId::kString || data.type->id() == TypeId::kBinary) {
        value = StringArray(array).value(i);
      } else if (data.type->id() == TypeId::kLargeString ||
                 data.type->id() == TypeId::kLargeBinary) {
        value = LargeStringArray(array).value(i);
      } else if (is_view_type(data.type->id())) {
        value = BinaryViewArray(array).value(i);
      } else {
        return "?";
      }
      return "'" + escape_invalid_utf8(value) + "'";
    }
  }
}

[[noreturn]] void throw_overflow(const ArrayData& data, int64_t i, const DataType& to) {
  throw ArithmeticError("CAST_OVERFLOW",
                        "The value " + sql_value(data, i) + " of the type " +
                            quoted_type(*data.type) + " cannot be cast to " + quoted_type(to) +
                            " due to an overflow. Use `try_cast` to tolerate overflow and "
                            "return NULL instead.");
}

std::string invalid_input_message(const std::string& value, const DataType& from,
                                  const DataType& to) {
  return "The value " + value + " of the type " + quoted_type(from) + " cannot be cast to " +
         quoted_type(to) +
         " because it is malformed. Correct the value as per the syntax, or change its target "
         "type. Use `try_cast` to tolerate malformed input and return NULL instead.";
}

/// CAST_INVALID_INPUT as Spark raises it for the target: NumberFormatException for numbers,
/// SparkRuntimeException for booleans, DateTimeException for dates and timestamps.
[[noreturn]] void throw_invalid_input(const ArrayData& data, int64_t i, const DataType& to) {
  const std::string message = invalid_input_message(sql_value(data, i), *data.type, to);
  switch (family_of(to)) {
    case Family::kBoolean:
      throw SparkRuntimeError("CAST_INVALID_INPUT", message);
    case Family::kDate:
    case Family::kTimestamp:
    case Family::kTimestampNtz:
      throw DateTimeError("CAST_INVALID_INPUT", message);
    default:
      throw NumberFormatError("CAST_INVALID_INPUT", message);
  }
}

[[noreturn]] void throw_decimal_out_of_range(const std::string& value, const DataType& to) {
  const auto& decimal = type_cast<DecimalType>(to);
  throw ArithmeticError("NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                        value + " cannot be represented as Decimal(" +
                            std::to_string(decimal.precision()) + ", " +
                            std::to_string(decimal.scale()) +
                            "). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                            "bypass this error, and return NULL instead.");
}

// --- output validity ------------------------------------------------------------------------

/// The validity of a cast's result: the input's, with the rows that failed to convert cleared.
/// The bitmap is only copied once a row fails; until then the input's is shared.
class OutputValidity {
 public:
  OutputValidity(const ArrayData& input, Allocator* allocator)
      : input_(input), allocator_(allocator), bits_(allocator) {}

  void set_null(int64_t i) {
    if (bits_.size() == 0) [[unlikely]] {
      materialize();
    }
    bit_util::clear_bit(bits_.mutable_data(), i);
  }

  /// The bitmap (nullptr when no row is null) and its null count.
  std::shared_ptr<Buffer> finish(int64_t* null_count) {
    const int64_t length = input_.length;
    if (bits_.size() != 0) {
      *null_count = length - bit_util::count_set_bits(bits_.data(), 0, length);
      return bits_.finish();
    }
    *null_count = input_.null_count();
    if (*null_count == 0) {
      return nullptr;
    }
    if (input_.offset % 8 == 0) {
      return Buffer::slice(input_.buffers[0], input_.offset / 8, bit_util::bytes_for_bits(length));
    }
    return copy_validity(input_, allocator_);
  }

 private:
  void materialize() {
    const int64_t length = input_.length;
    bits_ = MutableBuffer(bit_util::bytes_for_bits(length), allocator_);
    if (input_.null_count() == 0) {
      bit_util::set_bits_to(bits_.mutable_data(), 0, length, true);
    } else {
      bit_util::copy_bitmap(input_.buffers[0]->data(), input_.offset, length, bits_.mutable_data(),
                            0);
    }
  }

  const ArrayData& input_;
  Allocator* allocator_;
  MutableBuffer bits_;
};

const uint8_t* validity_bits(const ArrayData& data) {
  return data.null_count() > 0 ? data.buffers[0]->data() : nullptr;
}

/// The shared state of one cast of one array.
struct CastState {
  const ArrayData& input;
  const TypePtr& to;
  Mode mode;
  ExecContext& context;
  Allocator* allocator;
};

/// Room for `length` values of `T` that the kernel writes in full (nulls included), so that
/// the memory is not zeroed first; freed unless `finish` hands it to a buffer.
template <typename T>
class UninitializedValues {
 public:
  UninitializedValues(int64_t length, Allocator* allocator)
      : allocator_(allocator),
        size_(length * static_cast<int64_t>(sizeof(T))),
        capacity_(padded_size(size_)),
        data_(allocator->allocate(capacity_)) {}
  ~UninitializedValues() {
    if (data_ != nullptr) {
      allocator_->free(data_, capacity_);
    }
  }
  UninitializedValues(const UninitializedValues&) = delete;
  UninitializedValues& operator=(const UninitializedValues&) = delete;

  T* data() { return reinterpret_cast<T*>(data_); }
  std::shared_ptr<Buffer> finish() {
    std::memset(data_ + size_, 0, static_cast<size_t>(capacity_ - size_));
    std::shared_ptr<Buffer> buffer = Buffer::adopt(allocator_, data_, size_, capacity_);
    data_ = nullptr;
    return buffer;
  }

 private:
  Allocator* allocator_;
  int64_t size_;
  int64_t capacity_;
  uint8_t* data_;
};

/// Runs `convert(i, out)` over every valid row i into values of `Out`; a row for which it
/// returns false is an error in ANSI mode (`fail(i)` throws it) and null otherwise.
template <typename Out, typename Convert, typename Fail>
Array map_values(const CastState& state, Convert&& convert, Fail&& fail) {
  const ArrayData& input = state.input;
  const int64_t length = input.length;
  UninitializedValues<Out> values(length, state.allocator);
  Out* out = values.data();
  OutputValidity validity(input, state.allocator);
  const uint8_t* input_validity = validity_bits(input);
  bool all_converted = false;
  if (input_validity != nullptr) {
    // Rows under nulls are not converted: give them a defined value.
    std::memset(static_cast<void*>(out), 0, static_cast<size_t>(length) * sizeof(Out));
  } else {
    // Without nulls, one branch-free pass (which the compiler can vectorize for numbers) and
    // a second, row by row, only when some row failed.
    all_converted = true;
    for (int64_t i = 0; i < length; ++i) {
      all_converted &= convert(i, out[i]);
    }
  }
  if (!all_converted) {
    for_each_set_bit(input_validity, input.offset, length, [&](int64_t i) {
      if (!convert(i, out[i])) [[unlikely]] {
        if (state.mode == Mode::kAnsi) {
          fail(i);
        }
        out[i] = Out{};
        validity.set_null(i);
      }
    });
  }
  int64_t null_count = 0;
  std::shared_ptr<Buffer> bits = validity.finish(&null_count);
  return make_fixed_width_array(state.to, length, std::move(bits), null_count, values.finish());
}

/// `map_values` for a conversion that cannot fail: row i becomes `value(i)`.
template <typename Out, typename Value>
Array map_total(const CastState& state, Value&& value) {
  return map_values<Out>(
      state,
      [&](int64_t i, Out& out) {
        out = value(i);
        return true;
      },
      [](int64_t) {});
}

/// As `map_values` for a boolean result: `convert(i, out)` writes a bool.
template <typename Convert, typename Fail>
Array map_booleans(const CastState& state, Convert&& convert, Fail&& fail) {
  const ArrayData& input = state.input;
  const int64_t length = input.length;
  MutableBuffer bits(bit_util::bytes_for_bits(length), state.allocator);
  uint8_t* out = bits.mutable_data();
  OutputValidity validity(input, state.allocator);
  for_each_set_bit(validity_bits(input), input.offset, length, [&](int64_t i) {
    bool value = false;
    if (!convert(i, value)) [[unlikely]] {
      if (state.mode == Mode::kAnsi) {
        fail(i);
      }
      validity.set_null(i);
      return;
    }
    if (value) {
      bit_util::set_bit(out, i);
    }
  });
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity_buffer = validity.finish(&null_count);
  return Array(std::make_shared<ArrayData>(
      state.to, length, std::vector<std::shared_ptr<Buffer>>{validity_buffer, bits.finish()},
      null_count));
}

/// Formats every valid row with `format(i, buffer)` (at most `max_length` bytes, returns the
/// length written) into a string array of `state.to`.
template <typename Format>
Array map_to_strings(const CastState& state, int max_length, Format&& format) {
  const ArrayData& input = state.input;
  const int64_t length = input.length;
  OutputValues<int32_t> offsets(length + 1, state.allocator);
  int32_t* out_offsets = offsets.data();
  BufferBuilder bytes(state.allocator);
  bytes.reserve(length * std::min(max_length, 16));
  char text[128];
  int64_t size = 0;
  const uint8_t* validity = validity_bits(input);
  for (int64_t i = 0; i < length; ++i) {
    out_offsets[i] = static_cast<int32_t>(size);
    if (validity == nullptr || bit_util::get_bit(validity, input.offset + i)) {
      const int n = format(i, text);
      size += n;
      if (size > std::numeric_limits<int32_t>::max()) [[unlikely]] {
        throw InvalidArgument("cast to " + spark_type_name(*state.to) +
                              ": the result needs more than 2^31 - 1 bytes");
      }
      bytes.append(text, n);
    }
  }
  out_offsets[length] = static_cast<int32_t>(size);
  int64_t null_count = input.null_count();
  return Array(std::make_shared<ArrayData>(
      state.to, length,
      std::vector<std::shared_ptr<Buffer>>{copy_validity(input, state.allocator), offsets.finish(),
                                           bytes.finish()},
      null_count));
}

/// Calls `visit(view)` with the typed view of a string or binary array (int32 or int64
/// offsets, or views); `view.value(i)` gives row i.
template <typename Visit>
decltype(auto) visit_binary(const ArrayDataPtr& data, Visit&& visit) {
  const Array array(data);
  switch (data->type->id()) {
    case TypeId::kString:
    case TypeId::kBinary:
      return visit(StringArray(array));
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      return visit(LargeStringArray(array));
    default:
      return visit(BinaryViewArray(array));
  }
}

/// Calls `visit(T{})` with the C type of an integer or floating type.
template <typename Visit>
decltype(auto) visit_number_type(TypeId id, Visit&& visit) {
  switch (id) {
    case TypeId::kInt8:
      return visit(int8_t{});
    case TypeId::kInt16:
      return visit(int16_t{});
    case TypeId::kInt32:
      return visit(int32_t{});
    case TypeId::kInt64:
      return visit(int64_t{});
    case TypeId::kUInt8:
      return visit(uint8_t{});
    case TypeId::kUInt16:
      return visit(uint16_t{});
    case TypeId::kUInt32:
      return visit(uint32_t{});
    case TypeId::kUInt64:
      return visit(uint64_t{});
    case TypeId::kFloat32:
      return visit(float{});
    default:
      return visit(double{});
  }
}

// --- numeric conversions --------------------------------------------------------------------

/// Java's (long) / (int) conversion of a double: NaN is 0, out-of-range values saturate.
template <typename Out>
Out java_saturating(double value) {
  if (std::isnan(value)) {
    return 0;
  }
  if (value >= static_cast<double>(std::numeric_limits<Out>::max())) {
    return std::numeric_limits<Out>::max();
  }
  if (value <= static_cast<double>(std::numeric_limits<Out>::min())) {
    return std::numeric_limits<Out>::min();
  }
  return static_cast<Out>(value);
}

/// A double as Spark casts it to an integer type: in range when floor/ceil fit (then
/// truncated, saturating at the long bounds as Java does); outside, ANSI fails and the legacy
/// cast converts as Java's (int) and narrows further by wrapping.
template <typename Out>
bool double_to_integer(double value, Mode mode, Out& out) {
  constexpr auto kMax = static_cast<double>(std::numeric_limits<Out>::max());
  constexpr auto kMin = static_cast<double>(std::numeric_limits<Out>::min());
  if (std::floor(value) <= kMax && std::ceil(value) >= kMin) {
    out = java_saturating<Out>(value);
    return true;
  }
  if (mode != Mode::kLegacy) {
    return false;
  }
  if constexpr (sizeof(Out) >= 4) {
    out = java_saturating<Out>(value);
  } else {
    out = static_cast<Out>(java_saturating<int32_t>(value));
  }
  return true;
}

template <typename Out>
bool int128_to_integer(__int128 value, Mode mode, Out& out) {
  if (value >= std::numeric_limits<Out>::min() && value <= std::numeric_limits<Out>::max()) {
    out = static_cast<Out>(value);
    return true;
  }
  if (mode != Mode::kLegacy) {
    return false;
  }
  out = static_cast<Out>(static_cast<uint64_t>(static_cast<unsigned __int128>(value)));
  return true;
}

int64_t floor_div(int64_t value, int64_t divisor) {
  const int64_t quotient = value / divisor;
  return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient;
}

/// |value| < 10^digits.
bool fits_digits(__int128 value, int digits) {
  if (digits <= 0) {
    return value == 0;
  }
  if (digits > 38) {
    return true;
  }
  const __int128 bound = cast_text::pow10_i128(digits);
  return value < bound && value > -bound;
}

/// An unscaled decimal moved from scale `from` to scale `to`, rounding HALF_UP, checked against
/// `precision`.
bool rescale(__int128 value, int32_t from, int32_t to, int32_t precision, __int128& out) {
  if (to >= from) {
    const int shift = to - from;
    if (!fits_digits(value, precision - shift)) {
      return false;
    }
    out = value * cast_text::pow10_i128(shift);
    return true;
  }
  const __int128 divisor = cast_text::pow10_i128(from - to);
  __int128 quotient = value / divisor;
  const __int128 remainder = value % divisor;
  if (remainder * 2 >= divisor) {
    ++quotient;
  } else if (remainder * 2 <= -divisor) {
    --quotient;
  }
  if (!fits_digits(quotient, precision)) {
    return false;
  }
  out = quotient;
  return true;
}

/// Powers of ten exactly representable as doubles.
constexpr double kExactPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/// A decimal as the nearest double (or float): Java's BigDecimal.doubleValue.
template <typename Float>
Float decimal_to_floating(__int128 unscaled, int32_t scale) {
  constexpr __int128 kExactMantissa = std::is_same_v<Float, float> ? (1 << 24) : (int64_t{1} << 53);
  constexpr int kExactScale = std::is_same_v<Float, float> ? 10 : 22;
  if (unscaled < kExactMantissa && unscaled > -kExactMantissa && scale <= kExactScale) {
    // Both operands are exact, so the one rounding of the division is the correct one.
    return static_cast<Float>(static_cast<Float>(static_cast<int64_t>(unscaled)) /
                              static_cast<Float>(kExactPow10[scale]));
  }
  char text[64];
  int n = cast_text::format_decimal_plain(unscaled, 0, text);
  text[n++] = 'e';
  n += cast_text::format_int64(-scale, text + n);
  Float value = 0;
  std::from_chars(text, text + n, value);
  return value;
}

/// The shortest digits of a finite double that read back as it (Java's Double.toString):
/// the digits without leading zeros and the power of ten of the last one.
struct ShortestDigits {
  bool negative;
  char digits[24];
  int num_digits;
  int64_t exponent;
  std::string_view view() const { return {digits, static_cast<size_t>(num_digits)}; }
};

ShortestDigits shortest_digits(double value) {
  ShortestDigits result{};
  char text[48];
  const std::to_chars_result written =
      std::to_chars(text, text + sizeof(text), value, std::chars_format::scientific);
  const char* p = text;
  if (*p == '-') {
    result.negative = true;
    ++p;
  }
  while (*p != 'e') {
    if (*p != '.') {
      result.digits[result.num_digits++] = *p;
    }
    ++p;
  }
  ++p;
  int exponent = 0;
  std::from_chars(*p == '+' ? p + 1 : p, written.ptr, exponent);
  result.exponent = exponent - (result.num_digits - 1);
  if (result.num_digits == 1 && result.digits[0] == '0') {
    result.num_digits = 0;
  }
  return result;
}

/// The plain text of digits times 10^exponent, for messages.
std::string plain_digits(bool negative, std::string_view digits, int64_t exponent) {
  if (digits.empty()) {
    return "0";
  }
  std::string text = negative ? "-" : "";
  const auto length = static_cast<int64_t>(digits.size());
  if (exponent >= 0) {
    text.append(digits);
    text.append(static_cast<size_t>(exponent), '0');
  } else if (length + exponent > 0) {
    text.append(digits.substr(0, static_cast<size_t>(length + exponent)));
    text.push_back('.');
    text.append(digits.substr(static_cast<size_t>(length + exponent)));
  } else {
    text.append("0.");
    text.append(static_cast<size_t>(-(length + exponent)), '0');
    text.append(digits);
  }
  return text;
}

/// The common text of an integer: an optional sign and 1 to 18 ASCII digits, which cannot
/// overflow an int64. False for any other text (spaces, a fraction, more digits), which the
/// general parser then reads; a branch-free digit loop keeps the common case fast.
inline bool parse_plain_integer(const char* p, const char* end, int64_t& out) {
  const bool negative = p < end && *p == '-';
  p += (p < end && (*p == '-' || *p == '+')) ? 1 : 0;
  const int64_t count = end - p;
  if (count < 1 || count > 18) {
    return false;
  }
  uint64_t magnitude = 0;
  bool all_digits = true;
  for (; p < end; ++p) {
    const auto digit = static_cast<unsigned>(static_cast<unsigned char>(*p) - '0');
    all_digits &= digit < 10;
    magnitude = magnitude * 10 + digit;
  }
  out = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  return all_digits;
}

// --- casts to each family -------------------------------------------------------------------

Array cast_null(const CastState& state) {
  std::unique_ptr<ArrayBuilder> builder = make_builder(state.to, state.allocator);
  builder->append_nulls(state.input.length);
  return builder->finish();
}

/// `map_values` over the values of an integer or floating input: `convert(value, out)`.
template <typename Out, typename Convert, typename Fail>
Array map_numbers(const CastState& state, Convert&& convert, Fail&& fail) {
  return visit_number_type(state.input.type->id(), [&]<typename In>(In) {
    const In* values = state.input.values<In>(1);
    return map_values<Out>(
        state, [&](int64_t i, Out& out) { return convert(values[i], out); }, fail);
  });
}

/// `map_values` over the text of a string or binary input: `convert(text, out)`.
template <typename Out, typename Convert, typename Fail>
Array map_texts(const CastState& state, Convert&& convert, Fail&& fail) {
  return visit_binary(std::make_shared<ArrayData>(state.input), [&](const auto& strings) {
    return map_values<Out>(
        state, [&](int64_t i, Out& out) { return convert(strings.value(i), out); },
        [&](int64_t i) { fail(i, strings.value(i)); });
  });
}

/// Booleans as 1 and 0.
template <typename Out>
Array booleans_as_numbers(const CastState& state) {
  const uint8_t* bits = state.input.buffers[1]->data();
  const int64_t offset = state.input.offset;
  return map_total<Out>(state,
                        [&](int64_t i) { return bit_util::get_bit(bits, offset + i) ? 1 : 0; });
}

template <typename Out>
Array cast_to_integer(const CastState& state) {
  const ArrayData& input = state.input;
  const Mode mode = state.mode;
  const auto overflow = [&](int64_t i) { throw_overflow(input, i, *state.to); };
  switch (family_of(*input.type)) {
    case Family::kBoolean:
      return booleans_as_numbers<Out>(state);
    case Family::kInteger:
    case Family::kFloating:
      return map_numbers<Out>(
          state,
          [&]<typename In>(In value, Out& out) {
            if constexpr (std::is_floating_point_v<In>) {
              return double_to_integer<Out>(static_cast<double>(value), mode, out);
            } else {
              out = static_cast<Out>(value);
              return std::in_range<Out>(value) || mode == Mode::kLegacy;
            }
          },
          overflow);
    case Family::kDecimal: {
      const __int128 divisor = cast_text::pow10_i128(type_cast<DecimalType>(*input.type).scale());
      return map_values<Out>(
          state,
          [&](int64_t i, Out& out) {
            return int128_to_integer<Out>(decimal_value(input, i) / divisor, mode, out);
          },
          overflow);
    }
    case Family::kTimestamp:
    case Family::kTimestampNtz: {
      const int64_t* values = input.values<int64_t>(1);
      return map_values<Out>(
          state,
          [&](int64_t i, Out& out) {
            return int128_to_integer<Out>(floor_div(values[i], kMicrosPerSecond), mode, out);
          },
          overflow);
    }
    default: {
      const bool allow_fraction = mode == Mode::kLegacy;
      return map_texts<Out>(
          state,
          [&](std::string_view text, Out& out) {
            int64_t value = 0;
            if (parse_plain_integer(text.data(), text.data() + text.size(), value)) [[likely]] {
              out = static_cast<Out>(value);
              return std::in_range<Out>(value);
            }
            if (cast_text::parse_integer(
                    text.data(), text.data() + text.size(), std::numeric_limits<Out>::min(),
                    std::numeric_limits<Out>::max(), allow_fraction, &value) != ParseResult::kOk) {
              return false;
            }
            out = static_cast<Out>(value);
            return true;
          },
          [&](int64_t i, std::string_view) { throw_invalid_input(input, i, *state.to); });
    }
  }
}

template <typename Out>
Array cast_to_floating(const CastState& state) {
  const ArrayData& input = state.input;
  const auto never = [](int64_t) {};
  switch (family_of(*input.type)) {
    case Family::kBoolean:
      return booleans_as_numbers<Out>(state);
    case Family::kInteger:
    case Family::kFloating:
      return map_numbers<Out>(
          state,
          [](auto value, Out& out) {
            out = static_cast<Out>(value);
            return true;
          },
          never);
    case Family::kDecimal: {
      const int32_t scale = type_cast<DecimalType>(*input.type).scale();
      return map_total<Out>(state, [&](int64_t i) {
        return decimal_to_floating<Out>(decimal_value(input, i), scale);
      });
    }
    case Family::kTimestamp:
    case Family::kTimestampNtz: {
      const int64_t* values = input.values<int64_t>(1);
      return map_total<Out>(state, [&](int64_t i) {
        return static_cast<Out>(static_cast<double>(values[i]) / kMicrosPerSecond);
      });
    }
    default:
      return map_texts<Out>(
          state,
          [](std::string_view text, Out& out) {
            if constexpr (std::is_same_v<Out, float>) {
              return cast_text::parse_float(text.data(), text.data() + text.size(), &out) ==
                     ParseResult::kOk;
            } else {
              return cast_text::parse_double(text.data(), text.data() + text.size(), &out) ==
                     ParseResult::kOk;
            }
          },
          [&](int64_t i, std::string_view) { throw_invalid_input(input, i, *state.to); });
  }
}

Array cast_to_decimal(const CastState& state) {
  const ArrayData& input = state.input;
  const Mode mode = state.mode;
  const auto& target = type_cast<DecimalType>(*state.to);
  const int32_t precision = target.precision();
  const int32_t scale = target.scale();
  switch (family_of(*input.type)) {
    case Family::kBoolean: {
      const uint8_t* bits = input.buffers[1]->data();
      return map_values<__int128>(
          state,
          [&](int64_t i, __int128& out) {
            return rescale(bit_util::get_bit(bits, input.offset + i) ? 1 : 0, 0, scale, precision,
                           out);
          },
          [&](int64_t) { throw_decimal_out_of_range("1", target); });
    }
    case Family::kInteger:
      return visit_number_type(input.type->id(), [&]<typename In>(In) {
        const In* values = input.values<In>(1);
        return map_values<__int128>(
            state,
            [&](int64_t i, __int128& out) {
              return rescale(static_cast<__int128>(values[i]), 0, scale, precision, out);
            },
            [&](int64_t i) { throw_decimal_out_of_range(std::to_string(values[i]), target); });
      });
    case Family::kDecimal:
    case Family::kTimestamp: {
      // A timestamp is exact: its microseconds are a decimal of scale 6, as Spark reads them
      // (the out-of-range message shows 1577836800.100000).
      const bool is_timestamp = family_of(*input.type) == Family::kTimestamp;
      const int32_t from_scale = is_timestamp ? 6 : type_cast<DecimalType>(*input.type).scale();
      const auto value_at = [&](int64_t i) -> __int128 {
        return is_timestamp ? input.values<int64_t>(1)[i] : decimal_value(input, i);
      };
      return map_values<__int128>(
          state,
          [&](int64_t i, __int128& out) {
            return rescale(value_at(i), from_scale, scale, precision, out);
          },
          [&](int64_t i) {
            char text[64];
            const int n = cast_text::format_decimal_plain(value_at(i), from_scale, text);
            throw_decimal_out_of_range(std::string(text, static_cast<size_t>(n)), target);
          });
    }
    case Family::kFloating: {
      // Spark goes through the double and its shortest text (Scala's BigDecimal(double)), so
      // 0.1 is 0.1 exactly; a float is first widened into a double. NaN and infinities give null
      // even in ANSI mode, as Spark does.
      const TypeId id = input.type->id();
      const void* raw = input.buffers[1]->data();
      const auto value_at = [&](int64_t i) {
        if (id == TypeId::kFloat32) {
          return static_cast<double>(static_cast<const float*>(raw)[input.offset + i]);
        }
        return static_cast<const double*>(raw)[input.offset + i];
      };
      OutputValues<__int128> values(input.length, state.allocator);
      __int128* out = values.data();
      OutputValidity validity(input, state.allocator);
      for_each_set_bit(validity_bits(input), input.offset, input.length, [&](int64_t i) {
        const double value = value_at(i);
        if (!std::isfinite(value)) {
          validity.set_null(i);
          return;
        }
        const ShortestDigits digits = shortest_digits(value);
        if (cast_text::decimal_from_digits(digits.negative, digits.view(), digits.exponent,
                                           precision, scale, &out[i]) != ParseResult::kOk) {
          if (mode == Mode::kAnsi) {
            throw_decimal_out_of_range(
                plain_digits(digits.negative, digits.view(), digits.exponent), target);
          }
          out[i] = 0;
          validity.set_null(i);
        }
      });
      int64_t null_count = 0;
      std::shared_ptr<Buffer> bits = validity.finish(&null_count);
      return make_fixed_width_array(state.to, input.length, std::move(bits), null_count,
                                    values.finish());
    }
    default:
      return map_texts<__int128>(
          state,
          [&](std::string_view text, __int128& out) {
            return cast_text::parse_decimal(text.data(), text.data() + text.size(), precision,
                                            scale, &out) == ParseResult::kOk;
          },
          [&](int64_t i, std::string_view text) {
            // Parse again at the widest scale to tell malformed text from a value too large,
            // and to show the value as Spark does.
            __int128 ignored;
            const ParseResult result =
                cast_text::parse_decimal(text.data(), text.data() + text.size(), 38, 0, &ignored);
            if (result == ParseResult::kInvalid) {
              throw_invalid_input(input, i, *state.to);
            }
            const char* begin = text.data();
            const char* end = text.data() + text.size();
            cast_text::trim(begin, end);
            if (result == ParseResult::kOverflow) {
              throw ArithmeticError(
                  "NUMERIC_OUT_OF_SUPPORTED_RANGE",
                  "The value " + std::string(begin, end) +
                      " cannot be interpreted as a numeric since it has more than 38 digits.");
            }
            throw_decimal_out_of_range(std::string(begin, end), target);
          });
  }
}

bool parse_boolean(std::string_view text, bool& out) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  cast_text::trim(begin, end);
  const auto length = end - begin;
  if (length == 0 || length > 5) {
    return false;
  }
  char lower[5];
  for (int64_t i = 0; i < length; ++i) {
    const char c = begin[i];
    lower[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  }
  const std::string_view word(lower, static_cast<size_t>(length));
  if (word == "t" || word == "true" || word == "y" || word == "yes" || word == "1") {
    out = true;
    return true;
  }
  if (word == "f" || word == "false" || word == "n" || word == "no" || word == "0") {
    out = false;
    return true;
  }
  return false;
}

/// Booleans that say whether `value(i)` is not zero (NaN is not zero: true, as in Spark).
template <typename Value>
Array nonzero_booleans(const CastState& state, Value&& value) {
  return map_booleans(
      state,
      [&](int64_t i, bool& out) {
        out = value(i) != 0;
        return true;
      },
      [](int64_t) {});
}

Array cast_to_boolean(const CastState& state) {
  const ArrayData& input = state.input;
  switch (family_of(*input.type)) {
    case Family::kInteger:
    case Family::kFloating:
      return visit_number_type(input.type->id(), [&]<typename In>(In) {
        const In* values = input.values<In>(1);
        return nonzero_booleans(state, [&](int64_t i) { return values[i]; });
      });
    case Family::kDecimal:
      return nonzero_booleans(state, [&](int64_t i) { return decimal_value(input, i); });
    case Family::kTimestamp:
    case Family::kTimestampNtz: {
      const int64_t* values = input.values<int64_t>(1);
      return nonzero_booleans(state, [&](int64_t i) { return values[i]; });
    }
    case Family::kDate:
      // Spark's non-ANSI cast of a date to BOOLEAN is always null.
      return cast_null(state);
    default:
      return visit_binary(std::make_shared<ArrayData>(input), [&](const auto& strings) {
        return map_booleans(
            state, [&](int64_t i, bool& out) { return parse_boolean(strings.value(i), out); },
            [&](int64_t i) { throw_invalid_input(input, i, *state.to); });
      });
  }
}

/// Integers as their big-endian two's complement bytes, as many as the type has (Spark's
/// non-ANSI cast of TINYINT, SMALLINT, INT and BIGINT to BINARY).
Array integers_to_binary(const CastState& state) {
  const ArrayData& input = state.input;
  return visit_number_type(input.type->id(), [&]<typename In>(In) {
    // Only integers come here; the visitor also instantiates this for floats.
    using Bits = std::make_unsigned_t<std::conditional_t<std::is_integral_v<In>, In, int64_t>>;
    constexpr int kWidth = static_cast<int>(sizeof(In));
    const In* values = input.values<In>(1);
    return map_to_strings(state, kWidth, [&](int64_t i, char* out) {
      auto bits = static_cast<Bits>(values[i]);
      for (int k = kWidth - 1; k >= 0; --k) {
        out[k] = static_cast<char>(bits & 0xFF);
        bits = static_cast<Bits>(bits >> 8);
      }
      return kWidth;
    });
  });
}

/// Strings or binaries of `state.to` (utf8 or binary) holding the bytes of the input's
/// strings or binaries: the same buffers when the layouts agree.
Array retype_binary(const CastState& state) {
  const ArrayData& input = state.input;
  const TypeId id = input.type->id();
  if (id == TypeId::kString || id == TypeId::kBinary) {
    auto data = std::make_shared<ArrayData>(input);
    data->type = state.to;
    return Array(std::move(data));
  }
  return visit_binary(std::make_shared<ArrayData>(input), [&](const auto& strings) {
    std::unique_ptr<ArrayBuilder> builder = make_builder(state.to, state.allocator);
    auto& out = builder->as<BaseBinaryBuilder<int32_t>>();
    out.reserve(input.length);
    for (int64_t i = 0; i < input.length; ++i) {
      if (input.is_null_in_bitmap(i)) {
        out.append_null();
      } else {
        out.append(strings.value(i));
      }
    }
    return out.finish();
  });
}

Array format_datetimes(const CastState& state);
Array format_nested(const CastState& state);

Array cast_to_string(const CastState& state) {
  const ArrayData& input = state.input;
  switch (family_of(*input.type)) {
    case Family::kBoolean: {
      const uint8_t* bits = input.buffers[1]->data();
      return map_to_strings(state, 5, [&](int64_t i, char* out) {
        if (bit_util::get_bit(bits, input.offset + i)) {
          std::memcpy(out, "true", 4);
          return 4;
        }
        std::memcpy(out, "false", 5);
        return 5;
      });
    }
    case Family::kInteger:
    case Family::kFloating:
      return visit_number_type(input.type->id(), [&]<typename In>(In) {
        const In* values = input.values<In>(1);
        return map_to_strings(state, 32, [&](int64_t i, char* out) {
          if constexpr (std::is_same_v<In, double>) {
            return cast_text::format_double(values[i], out);
          } else if constexpr (std::is_same_v<In, float>) {
            return cast_text::format_float(values[i], out);
          } else if constexpr (std::is_same_v<In, uint64_t>) {
            return static_cast<int>(std::to_chars(out, out + 32, values[i]).ptr - out);
          } else {
            return cast_text::format_int64(static_cast<int64_t>(values[i]), out);
          }
        });
      });
    case Family::kDecimal: {
      // ANSI casts (and try_cast) write BigDecimal.toPlainString; the legacy cast writes
      // BigDecimal.toString, which turns to scientific notation for small values ("1E-10").
      const int32_t scale = type_cast<DecimalType>(*input.type).scale();
      const bool plain = state.mode != Mode::kLegacy;
      return map_to_strings(state, 48, [&](int64_t i, char* out) {
        return plain ? cast_text::format_decimal_plain(decimal_value(input, i), scale, out)
                     : cast_text::format_decimal(decimal_value(input, i), scale, out);
      });
    }
    case Family::kDate:
    case Family::kTimestamp:
    case Family::kTimestampNtz:
      return format_datetimes(state);
    case Family::kList:
    case Family::kStruct:
    case Family::kMap:
      return format_nested(state);
    default:
      return retype_binary(state);
  }
}

/// Seconds (integers, floats, decimals) to microseconds of a timestamp.
Array cast_number_to_timestamp(const CastState& state) {
  const ArrayData& input = state.input;
  const Mode mode = state.mode;
  switch (family_of(*input.type)) {
    case Family::kBoolean:
      // Spark's non-ANSI cast: true is one microsecond after the epoch.
      return booleans_as_numbers<int64_t>(state);
    case Family::kInteger:
    case Family::kFloating:
      return visit_number_type(input.type->id(), [&]<typename In>(In) {
        const In* values = input.values<In>(1);
        if constexpr (std::is_floating_point_v<In>) {
          // NaN and infinities are malformed; beyond the range of microseconds overflow, as
          // Spark reports it: the microseconds as a DOUBLE that does not fit a BIGINT.
          OutputValues<int64_t> out_values(input.length, state.allocator);
          int64_t* out = out_values.data();
          OutputValidity validity(input, state.allocator);
          for_each_set_bit(validity_bits(input), input.offset, input.length, [&](int64_t i) {
            const double value = static_cast<double>(values[i]);
            if (!std::isfinite(value)) {
              if (mode == Mode::kAnsi) {
                throw DateTimeError(
                    "CAST_INVALID_INPUT",
                    invalid_input_message(sql_value(input, i), *input.type, *state.to));
              }
              validity.set_null(i);
              return;
            }
            const double micros = value * kMicrosPerSecond;
            const bool in_range = std::floor(micros) <= 9.223372036854775807e18 &&
                                  std::ceil(micros) >= -9.223372036854775808e18;
            if (!in_range && mode == Mode::kTry) {
              validity.set_null(i);
              return;
            }
            if (!in_range && mode == Mode::kAnsi) {
              char text[32];
              const int n = cast_text::format_double(micros, text);
              throw ArithmeticError("CAST_OVERFLOW",
                                    "The value " + std::string(text, static_cast<size_t>(n)) +
                                        "D of the type \"DOUBLE\" cannot be cast to \"BIGINT\" "
                                        "due to an overflow. Use `try_cast` to tolerate overflow "
                                        "and return NULL instead.");
            }
            out[i] = java_saturating<int64_t>(micros);
          });
          int64_t null_count = 0;
          std::shared_ptr<Buffer> bits = validity.finish(&null_count);
          return make_fixed_width_array(state.to, input.length, std::move(bits), null_count,
                                        out_values.finish());
        } else {
          // Seconds to microseconds saturates, as Java's TimeUnit.SECONDS.toMicros.
          return map_values<int64_t>(
              state,
              [&](int64_t i, int64_t& out) {
                const auto seconds = static_cast<__int128>(values[i]);
                const __int128 micros = seconds * kMicrosPerSecond;
                out = micros > std::numeric_limits<int64_t>::max()
                          ? std::numeric_limits<int64_t>::max()
                      : micros < std::numeric_limits<int64_t>::min()
                          ? std::numeric_limits<int64_t>::min()
                          : static_cast<int64_t>(micros);
                return true;
              },
              [](int64_t) {});
        }
      });
    default: {
      // Spark takes the BigDecimal's longValue of the microseconds: the digits past them
      // dropped (toward zero), then the low 64 bits, so a value beyond the range wraps, in
      // ANSI mode too. The product is taken modulo 2^128, which keeps those 64 bits.
      const int32_t scale = type_cast<DecimalType>(*input.type).scale();
      using Wide = unsigned __int128;
      return map_values<int64_t>(
          state,
          [&](int64_t i, int64_t& out) {
            const __int128 value = decimal_value(input, i);
            const Wide micros =
                scale <= 6
                    ? static_cast<Wide>(value) * static_cast<Wide>(cast_text::pow10_i128(6 - scale))
                    : static_cast<Wide>(value / cast_text::pow10_i128(scale - 6));
            out = static_cast<int64_t>(static_cast<uint64_t>(micros));
            return true;
          },
          [](int64_t) {});
    }
  }
}

/// Strings to dates, timestamps (in the session time zone unless the text names one) and
/// timestamps without time zone.
Array parse_datetimes(const CastState& state) {
  const ArrayData& input = state.input;
  const Family target = family_of(*state.to);
  const auto invalid = [&](int64_t i) { throw_invalid_input(input, i, *state.to); };
  return visit_binary(std::make_shared<ArrayData>(input), [&](const auto& strings) {
    if (target == Family::kDate) {
      return map_values<int32_t>(
          state,
          [&](int64_t i, int32_t& out) {
            const std::optional<int32_t> days = parse_date(strings.value(i));
            out = days.value_or(0);
            return days.has_value();
          },
          invalid);
    }
    const int64_t now = state.context.statement_time_us;
    if (target == Family::kTimestampNtz) {
      return map_values<int64_t>(
          state,
          [&](int64_t i, int64_t& out) {
            const std::optional<int64_t> micros = parse_timestamp_ntz(strings.value(i), now);
            out = micros.value_or(0);
            return micros.has_value();
          },
          invalid);
    }
    const TimeZone& zone = TimeZone::get(state.context.session_time_zone);
    return map_values<int64_t>(
        state,
        [&](int64_t i, int64_t& out) {
          const std::optional<int64_t> micros = parse_timestamp(strings.value(i), zone, now);
          out = micros.value_or(0);
          return micros.has_value();
        },
        invalid);
  });
}

/// Dates, timestamps and timestamps without time zone as Spark writes them.
Array format_datetimes(const CastState& state) {
  const ArrayData& input = state.input;
  switch (family_of(*input.type)) {
    case Family::kDate: {
      const int32_t* days = input.values<int32_t>(1);
      return map_to_strings(state, kMaxDateTextLength,
                            [&](int64_t i, char* out) { return format_date(days[i], out); });
    }
    case Family::kTimestampNtz: {
      const int64_t* micros = input.values<int64_t>(1);
      return map_to_strings(state, kMaxTimestampTextLength, [&](int64_t i, char* out) {
        return format_timestamp_ntz(micros[i], out);
      });
    }
    default: {
      const TimeZone& zone = TimeZone::get(state.context.session_time_zone);
      const int64_t* micros = input.values<int64_t>(1);
      return map_to_strings(state, kMaxTimestampTextLength, [&](int64_t i, char* out) {
        return format_timestamp(micros[i], zone, out);
      });
    }
  }
}

/// Microseconds of local wall-clock time in `zone` at the instant `micros`.
int64_t local_micros(const TimeZone& zone, int64_t micros) {
  return micros +
         int64_t{zone.offset_at_utc(floor_div(micros, kMicrosPerSecond))} * kMicrosPerSecond;
}

/// The instant at which clocks in `zone` show the wall-clock time `micros`.
int64_t utc_micros(const TimeZone& zone, int64_t micros) {
  const int64_t seconds = floor_div(micros, kMicrosPerSecond);
  return zone.utc_from_local(seconds) * kMicrosPerSecond + (micros - seconds * kMicrosPerSecond);
}

/// Between dates, timestamps and timestamps without time zone: midnight or the wall clock of
/// the session time zone stands for the local side.
Array convert_datetimes(const CastState& state) {
  const ArrayData& input = state.input;
  const Family source = family_of(*input.type);
  const Family target = family_of(*state.to);
  if (source == Family::kTimestamp && target == Family::kTimestamp) {
    // Instants are the same in every zone; only the zone shown changes.
    auto data = std::make_shared<ArrayData>(input);
    data->type = state.to;
    return Array(std::move(data));
  }
  if (source == Family::kDate) {
    const int32_t* days = input.values<int32_t>(1);
    if (target == Family::kTimestampNtz) {
      return map_total<int64_t>(state, [&](int64_t i) { return int64_t{days[i]} * kMicrosPerDay; });
    }
    const TimeZone& zone = TimeZone::get(state.context.session_time_zone);
    return map_total<int64_t>(
        state, [&](int64_t i) { return utc_micros(zone, int64_t{days[i]} * kMicrosPerDay); });
  }
  const int64_t* micros = input.values<int64_t>(1);
  if (source == Family::kTimestampNtz) {
    if (target == Family::kDate) {
      return map_total<int32_t>(state, [&](int64_t i) {
        return static_cast<int32_t>(floor_div(micros[i], kMicrosPerDay));
      });
    }
    const TimeZone& zone = TimeZone::get(state.context.session_time_zone);
    return map_total<int64_t>(state, [&](int64_t i) { return utc_micros(zone, micros[i]); });
  }
  const TimeZone& zone = TimeZone::get(state.context.session_time_zone);
  if (target == Family::kDate) {
    return map_total<int32_t>(state, [&](int64_t i) {
      return static_cast<int32_t>(floor_div(local_micros(zone, micros[i]), kMicrosPerDay));
    });
  }
  return map_total<int64_t>(state, [&](int64_t i) { return local_micros(zone, micros[i]); });
}

Array cast_array(const Array& input, const TypePtr& to, Mode mode, ExecContext& context);

/// The child rows a list or map array uses: [first, last).
struct ChildRange {
  int64_t first;
  int64_t last;
};

ChildRange child_range(const ArrayData& input) {
  const int32_t* offsets = input.values<int32_t>(1);
  return {offsets[0], offsets[input.length]};
}

/// A list or map array of `state.to` with the input's validity and offsets (moved to start at
/// 0) over `child`, which holds the input's child rows in `range` cast.
Array with_cast_child(const CastState& state, ChildRange range, ArrayDataPtr child) {
  const ArrayData& input = state.input;
  const int32_t* offsets = input.values<int32_t>(1);
  OutputValues<int32_t> new_offsets(input.length + 1, state.allocator);
  int32_t* out = new_offsets.data();
  for (int64_t i = 0; i <= input.length; ++i) {
    out[i] = static_cast<int32_t>(offsets[i] - range.first);
  }
  return Array(std::make_shared<ArrayData>(
      state.to, input.length,
      std::vector<std::shared_ptr<Buffer>>{copy_validity(input, state.allocator),
                                           new_offsets.finish()},
      input.null_count(), 0, std::vector<ArrayDataPtr>{std::move(child)}));
}

Array cast_list(const CastState& state) {
  const ChildRange range = child_range(state.input);
  const Array values = Array(state.input.children[0]).slice(range.first, range.last - range.first);
  const Array cast_values =
      cast_array(values, type_cast<ListType>(*state.to).value_type(), state.mode, state.context);
  return with_cast_child(state, range, cast_values.data());
}

/// Maps: keys and values cast on their own (Spark's cast of MAP<K, V> to MAP<K2, V2>), the
/// offsets and validity kept.
Array cast_map(const CastState& state) {
  const auto& target = type_cast<MapType>(*state.to);
  const ChildRange range = child_range(state.input);
  const int64_t used = range.last - range.first;
  const StructArray entries(Array(state.input.children[0]).slice(range.first, used));
  const Array keys = cast_array(entries.field(0), target.key_type(), state.mode, state.context);
  const Array items = cast_array(entries.field(1), target.item_type(), state.mode, state.context);
  return with_cast_child(
      state, range,
      std::make_shared<ArrayData>(target.entries_field()->type(), used,
                                  std::vector<std::shared_ptr<Buffer>>{nullptr}, 0, 0,
                                  std::vector<ArrayDataPtr>{keys.data(), items.data()}));
}

Array cast_struct(const CastState& state) {
  const StructArray input(Array(std::make_shared<ArrayData>(state.input)));
  std::vector<ArrayDataPtr> children;
  for (int i = 0; i < input.num_fields(); ++i) {
    children.push_back(
        cast_array(input.field(i), state.to->field(i)->type(), state.mode, state.context).data());
  }
  return Array(std::make_shared<ArrayData>(
      state.to, input.length(),
      std::vector<std::shared_ptr<Buffer>>{copy_validity(state.input, state.allocator)},
      input.null_count(), 0, std::move(children)));
}

/// Lists ("[1, 2, null]"), structs ("{1, x}") and maps ("{a -> 1}") as Spark writes them, their
/// values cast to strings first.
Array format_nested(const CastState& state) {
  const ArrayData& input = state.input;
  const Array array(std::make_shared<ArrayData>(input));
  std::unique_ptr<ArrayBuilder> builder = make_builder(state.to, state.allocator);
  auto& out = builder->as<BaseBinaryBuilder<int32_t>>();
  const auto append_value = [](std::string& text, const StringArray& strings, int64_t i) {
    if (strings.is_null(i)) {
      text += "null";
    } else {
      text += strings.value(i);
    }
  };
  std::string text;
  const Family family = family_of(*input.type);
  if (family == Family::kStruct) {
    const StructArray rows(array);
    std::vector<StringArray> fields;
    for (int f = 0; f < rows.num_fields(); ++f) {
      fields.emplace_back(cast_array(rows.field(f), utf8(), state.mode, state.context));
    }
    for (int64_t i = 0; i < input.length; ++i) {
      if (rows.is_null(i)) {
        out.append_null();
        continue;
      }
      text.assign(1, '{');
      for (size_t f = 0; f < fields.size(); ++f) {
        if (f != 0) {
          text.append(", ");
        }
        append_value(text, fields[f], i);
      }
      text.push_back('}');
      out.append(text);
    }
    return out.finish();
  }
  const ListArray lists(array);
  const int64_t first = lists.value_offset(0);
  const int64_t used = lists.value_offset(input.length) - first;
  std::vector<StringArray> children;
  if (family == Family::kMap) {
    // Through the entries struct, whose own offset its fields then take.
    const StructArray entries(lists.values().slice(first, used));
    children.emplace_back(cast_array(entries.field(0), utf8(), state.mode, state.context));
    children.emplace_back(cast_array(entries.field(1), utf8(), state.mode, state.context));
  } else {
    children.emplace_back(
        cast_array(lists.values().slice(first, used), utf8(), state.mode, state.context));
  }
  for (int64_t i = 0; i < input.length; ++i) {
    if (lists.is_null(i)) {
      out.append_null();
      continue;
    }
    const int64_t start = lists.value_offset(i) - first;
    text.assign(1, family == Family::kMap ? '{' : '[');
    for (int64_t j = start; j < lists.value_offset(i + 1) - first; ++j) {
      if (j != start) {
        text.append(", ");
      }
      append_value(text, children[0], j);
      if (family == Family::kMap) {
        text += " -> ";
        append_value(text, children[1], j);
      }
    }
    text.push_back(family == Family::kMap ? '}' : ']');
    out.append(text);
  }
  return out.finish();
}

// --- layouts Spark does not use --------------------------------------------------------------

[[noreturn]] void throw_layout_overflow(const std::string& value, const DataType& from,
                                        const DataType& to) {
  throw ArithmeticError("CAST_OVERFLOW", "The value " + value + " of the type " + from.to_string() +
                                             " cannot be cast to " + to.to_string() +
                                             " due to an overflow. Use `try_cast` to tolerate "
                                             "overflow and return NULL instead.");
}

/// Value `i` of a decimal32/64/128/256 array (decimal256 up to precision 38, whose values fit
/// in its low 128 bits, which come first).
__int128 any_decimal_value(const ArrayData& data, int64_t i) {
  const int width = data.type->bit_width() / 8;
  const uint8_t* value = data.buffers[1]->data() + (data.offset + i) * width;
  if (width == 4) {
    int32_t narrow;
    std::memcpy(&narrow, value, sizeof(narrow));
    return narrow;
  }
  if (width == 8) {
    int64_t narrow;
    std::memcpy(&narrow, value, sizeof(narrow));
    return narrow;
  }
  __int128 wide;
  std::memcpy(&wide, value, sizeof(wide));
  return wide;
}

/// Microseconds per unit of a timestamp (0 for nanoseconds, which are divided instead).
int64_t micros_per_unit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return kMicrosPerSecond;
    case TimeUnit::kMilli:
      return 1000;
    case TimeUnit::kMicro:
      return 1;
    default:
      return 0;
  }
}

constexpr int64_t kMillisPerDay = 86400000;

/// `input` (dictionary-decoded already) in the layout of `canonical`, its Spark type: values
/// that do not fit (seconds beyond the range of microseconds) fail as the cast's mode says.
Array to_canonical(const Array& input, const TypePtr& canonical, Mode mode, ExecContext& context) {
  const ArrayData& data = *input.data();
  const CastState state{data, canonical, mode, context, context.allocator};
  const auto overflow = [&](int64_t i) {
    throw_layout_overflow(std::to_string(data.values<int64_t>(1)[i]), *data.type, *canonical);
  };
  switch (data.type->id()) {
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal256:
      return map_total<__int128>(state, [&](int64_t i) { return any_decimal_value(data, i); });
    case TypeId::kDate64: {
      const int64_t* millis = data.values<int64_t>(1);
      return map_values<int32_t>(
          state,
          [&](int64_t i, int32_t& out) {
            const int64_t days = floor_div(millis[i], kMillisPerDay);
            out = static_cast<int32_t>(days);
            return std::in_range<int32_t>(days);
          },
          overflow);
    }
    default: {
      const int64_t* values = data.values<int64_t>(1);
      const int64_t factor = micros_per_unit(type_cast<TimestampType>(*data.type).unit());
      if (factor == 0) {
        // Nanoseconds: floor, so that instants before 1970 keep their second.
        return map_values<int64_t>(
            state,
            [&](int64_t i, int64_t& out) {
              out = floor_div(values[i], 1000);
              return true;
            },
            overflow);
      }
      return map_values<int64_t>(
          state,
          [&](int64_t i, int64_t& out) { return !__builtin_mul_overflow(values[i], factor, &out); },
          overflow);
    }
  }
}

/// A decimal256 value: the 128-bit value sign-extended.
struct Decimal256Value {
  __int128 low;
  __int128 high;
};

/// `value`, of the canonical type of `to`, in the layout of `to`.
Array from_canonical(const Array& value, const TypePtr& to, Mode mode, ExecContext& context) {
  const ArrayData& data = *value.data();
  const CastState state{data, to, mode, context, context.allocator};
  const auto never = [](int64_t) {};
  switch (to->id()) {
    case TypeId::kDecimal32:
      return map_total<int32_t>(
          state, [&](int64_t i) { return static_cast<int32_t>(decimal_value(data, i)); });
    case TypeId::kDecimal64:
      return map_total<int64_t>(
          state, [&](int64_t i) { return static_cast<int64_t>(decimal_value(data, i)); });
    case TypeId::kDecimal256:
      return map_values<Decimal256Value>(
          state,
          [&](int64_t i, Decimal256Value& out) {
            out.low = decimal_value(data, i);
            out.high = out.low < 0 ? -1 : 0;
            return true;
          },
          never);
    case TypeId::kDate64: {
      const int32_t* days = data.values<int32_t>(1);
      return map_total<int64_t>(state, [&](int64_t i) { return int64_t{days[i]} * kMillisPerDay; });
    }
    default: {
      const int64_t* micros = data.values<int64_t>(1);
      const int64_t divisor = micros_per_unit(type_cast<TimestampType>(*to).unit());
      if (divisor == 0) {
        return map_values<int64_t>(
            state,
            [&](int64_t i, int64_t& out) { return !__builtin_mul_overflow(micros[i], 1000, &out); },
            [&](int64_t i) { throw_layout_overflow(std::to_string(micros[i]), *data.type, *to); });
      }
      return map_total<int64_t>(state, [&](int64_t i) { return floor_div(micros[i], divisor); });
    }
  }
}

/// A dictionary-encoded array: its dictionary is cast once and taken by the indices. In ANSI
/// mode only a value the rows use may fail, so when a dictionary value fails the rows are
/// decoded and cast again, which raises the error of the first failing row.
Array cast_dictionary(const Array& input, const TypePtr& to, Mode mode, ExecContext& context) {
  const DictionaryArray view(input);
  const Array dictionary = view.dictionary();
  const Array indices = view.indices();
  const Array values = cast_array(dictionary, to, mode == Mode::kAnsi ? Mode::kTry : mode, context);
  if (mode == Mode::kAnsi && values.null_count() != dictionary.null_count()) {
    return cast_array(take(dictionary, indices, context.allocator), to, mode, context);
  }
  return take(values, indices, context.allocator);
}

[[noreturn]] void throw_cannot_cast(const DataType& from, const DataType& to) {
  throw AnalysisError("DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION",
                      "Cannot resolve \"CAST\" due to data type mismatch: cannot cast " +
                          quoted_type(from) + " to " + quoted_type(to) + ".");
}

/// Whether Spark casts `from` to `to` with ANSI mode off (`Cast.canCast`): every cast of
/// `can_cast`, and also TINYINT to BIGINT as BINARY, BOOLEAN to TIMESTAMP, TIMESTAMP and DATE to
/// BOOLEAN, inside arrays, structs and maps too.
bool can_cast_with_ansi_off(const DataType& from, const DataType& to) {
  if (can_cast(from, to)) {
    return true;
  }
  const TypePtr from_canonical = canonical_type(from);
  const TypePtr to_canonical = to.id() == TypeId::kDictionary ? nullptr : canonical_type(to);
  const DataType& source = from_canonical != nullptr ? *from_canonical : from;
  const DataType& target = to_canonical != nullptr ? *to_canonical : to;
  const Family source_family = family_of(source);
  switch (family_of(target)) {
    case Family::kBinary:
      return source.id() == TypeId::kInt8 || source.id() == TypeId::kInt16 ||
             source.id() == TypeId::kInt32 || source.id() == TypeId::kInt64;
    case Family::kTimestamp:
      return source_family == Family::kBoolean;
    case Family::kBoolean:
      return source_family == Family::kTimestamp || source_family == Family::kDate;
    case Family::kList:
      return source_family == Family::kList &&
             can_cast_with_ansi_off(*source.field(0)->type(), *target.field(0)->type());
    case Family::kStruct:
    case Family::kMap:
      if (source_family != family_of(target) || source.num_fields() != target.num_fields()) {
        return false;
      }
      if (source_family == Family::kMap) {
        const auto& from_map = type_cast<MapType>(source);
        const auto& to_map = type_cast<MapType>(target);
        return can_cast_with_ansi_off(*from_map.key_type(), *to_map.key_type()) &&
               can_cast_with_ansi_off(*from_map.item_type(), *to_map.item_type());
      }
      for (int i = 0; i < source.num_fields(); ++i) {
        if (!can_cast_with_ansi_off(*source.field(i)->type(), *target.field(i)->type())) {
          return false;
        }
      }
      return true;
    default:
      return false;
  }
}

/// Whether Spark casts `from` to `to` only with ANSI mode off (`Cast.canCast` but not
/// `Cast.canAnsiCast`). `try_cast` refuses these in both modes.
bool is_legacy_only_cast(const DataType& from, const DataType& to) {
  return !can_cast(from, to) && can_cast_with_ansi_off(from, to);
}

/// Spark's non-ANSI cast turns a map key it cannot convert into null, which a map cannot
/// hold, so it refuses at analysis the key casts that may fail: text to anything but text or
/// bytes, and fractions to integers or decimals. (ANSI mode raises on such a key instead.)
bool may_null_map_key(const DataType& from, const DataType& to) {
  if (from.id() == TypeId::kMap) {
    const auto& from_map = type_cast<MapType>(from);
    const auto& to_map = type_cast<MapType>(to);
    const Family key_from = family_of(*from_map.key_type());
    const Family key_to = family_of(*to_map.key_type());
    if ((key_from == Family::kString && key_to != Family::kString && key_to != Family::kBinary) ||
        (key_from == Family::kFloating &&
         (key_to == Family::kInteger || key_to == Family::kDecimal))) {
      return true;
    }
    return may_null_map_key(*from_map.item_type(), *to_map.item_type()) ||
           may_null_map_key(*from_map.key_type(), *to_map.key_type());
  }
  if ((from.id() == TypeId::kList || from.id() == TypeId::kLargeList) &&
      (to.id() == TypeId::kList || to.id() == TypeId::kLargeList)) {
    return may_null_map_key(*from.field(0)->type(), *to.field(0)->type());
  }
  if (from.id() == TypeId::kStruct && to.id() == TypeId::kStruct) {
    for (int i = 0; i < from.num_fields() && i < to.num_fields(); ++i) {
      if (may_null_map_key(*from.field(i)->type(), *to.field(i)->type())) {
        return true;
      }
    }
  }
  return false;
}

/// Checks that Spark has a cast from `from` to `to` in `mode`: `AnalysisError` otherwise,
/// CAST_WITH_CONF_SUGGESTION for the casts that only ANSI mode forbids.
void check_castable(const DataType& from, const DataType& to, Mode mode) {
  check_decimal_precision(from);
  check_decimal_precision(to);
  if (!is_supported_target(to)) {
    throw_cannot_cast(from, to);
  }
  if (can_cast(from, to)) {
    if (mode != Mode::kAnsi && may_null_map_key(from, to)) {
      throw_cannot_cast(from, to);
    }
    return;
  }
  if (!is_legacy_only_cast(from, to) || mode == Mode::kTry) {
    throw_cannot_cast(from, to);
  }
  if (mode == Mode::kAnsi) {
    const Family family = family_of(from);
    if (family == Family::kList || family == Family::kStruct || family == Family::kMap) {
      // Spark's message for nested values, advice included.
      throw AnalysisError("DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION",
                          "Cannot resolve \"CAST\" due to data type mismatch: cannot cast " +
                              quoted_type(from) + " to " + quoted_type(to) +
                              ". To convert values from " + quoted_type(from) + " to " +
                              quoted_type(to) + ", you can use the functions `try_cast` instead.");
    }
    throw AnalysisError("DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION",
                        "Cannot resolve \"CAST\" due to data type mismatch: cannot cast " +
                            quoted_type(from) + " to " + quoted_type(to) +
                            " with ANSI mode on. If you have to cast " + quoted_type(from) +
                            " to " + quoted_type(to) +
                            ", you can set \"spark.sql.ansi.enabled\" as 'false'.");
  }
}

Array cast_array(const Array& input, const TypePtr& to, Mode mode, ExecContext& context) {
  const DataType& from = *input.type();
  if (from.equals(*to)) {
    return input;
  }
  check_castable(from, *to, mode);
  if (from.id() == TypeId::kDictionary) {
    return cast_dictionary(input, to, mode, context);
  }
  if (const TypePtr source = canonical_type(from)) {
    return cast_array(to_canonical(input, source, mode, context), to, mode, context);
  }
  if (const TypePtr target = canonical_type(*to)) {
    return from_canonical(cast_array(input, target, mode, context), to, mode, context);
  }
  const CastState state{*input.data(), to, mode, context, context.allocator};
  const Family from_family = family_of(from);
  if (from_family == Family::kNull) {
    return cast_null(state);
  }
  switch (to->id()) {
    case TypeId::kInt8:
      return cast_to_integer<int8_t>(state);
    case TypeId::kInt16:
      return cast_to_integer<int16_t>(state);
    case TypeId::kInt32:
      return cast_to_integer<int32_t>(state);
    case TypeId::kInt64:
      return cast_to_integer<int64_t>(state);
    case TypeId::kFloat32:
      return cast_to_floating<float>(state);
    case TypeId::kFloat64:
      return cast_to_floating<double>(state);
    case TypeId::kDecimal128:
      return cast_to_decimal(state);
    case TypeId::kBoolean:
      return cast_to_boolean(state);
    case TypeId::kString:
      return cast_to_string(state);
    case TypeId::kBinary:
      return from_family == Family::kInteger ? integers_to_binary(state) : retype_binary(state);
    case TypeId::kList:
      return cast_list(state);
    case TypeId::kStruct:
      return cast_struct(state);
    case TypeId::kMap:
      return cast_map(state);
    case TypeId::kTimestamp:
    case TypeId::kDate32:
      if (is_numeric_family(from_family) || from_family == Family::kBoolean) {
        return cast_number_to_timestamp(state);
      }
      if (from_family == Family::kString) {
        return parse_datetimes(state);
      }
      return convert_datetimes(state);
    default:
      break;
  }
  throw_cannot_cast(from, *to);
}

Datum cast_datum(const Datum& value, const TypePtr& to, Mode mode, ExecContext& context) {
  Array result = cast_array(value.array(), to, mode, context);
  return value.is_scalar() ? Datum::scalar(std::move(result)) : Datum(std::move(result));
}

// --- registry ---------------------------------------------------------------------------------

/// `cast` and `try_cast`: one argument, the target type in the option "to" (a type, or a Spark
/// type name such as "decimal(10,2)").
class CastFunction final : public ScalarFunction {
 public:
  CastFunction(std::string name, bool is_try)
      : ScalarFunction(std::move(name), Arity{1, 1}, NullHandling::kPropagates,
                       is_try ? "Casts a value to the type `to`, giving null when it cannot be "
                                "represented."
                              : "Casts a value to the type `to` with Spark's ANSI rules."),
        is_try_(is_try) {}

  std::vector<Signature> signatures() const override {
    return parse_signatures({"(any, to: type) -> to"});
  }

  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& options) const override {
    TypePtr to = target(options, ResolveContext{}.session_time_zone);
    // Without the session's ANSI flag, a cast Spark allows with ANSI off passes here and raises
    // when it runs (CAST_WITH_CONF_SUGGESTION) if ANSI is on.
    const bool legacy_only = !is_try_ && is_legacy_only_cast(*arguments[0], *to);
    check_castable(*arguments[0], *to,
                   is_try_ ? Mode::kTry : (legacy_only ? Mode::kLegacy : Mode::kAnsi));
    return Resolution{std::move(to), {arguments[0]}};
  }

  // With the flag known, Spark's analysis refuses those casts before any row is read.
  Resolution resolve_with(std::span<const TypePtr> arguments, const FunctionOptions& options,
                          const ResolveContext& context) const override {
    TypePtr to = target(options, context.session_time_zone);
    check_castable(*arguments[0], *to,
                   is_try_ ? Mode::kTry : (context.ansi ? Mode::kAnsi : Mode::kLegacy));
    return Resolution{std::move(to), {arguments[0]}};
  }

  Datum execute(std::span<const Datum> arguments, const FunctionOptions& options,
                ExecContext& context) const override {
    const TypePtr to = target(options, context.session_time_zone);
    return is_try_ ? try_cast(arguments[0], to, context) : cast(arguments[0], to, context);
  }

 private:
  /// The type `to` names; a type name's TIMESTAMP is in `session_time_zone`, as in Spark.
  TypePtr target(const FunctionOptions& options, std::string_view session_time_zone) const {
    const auto found = options.find("to");
    if (found == options.end()) {
      throw AnalysisError(
          "REQUIRED_PARAMETER_NOT_FOUND",
          "Cannot invoke routine `" + name() + "` because the parameter named `to` is required.");
    }
    if (const auto* type = std::get_if<TypePtr>(&found->second)) {
      return *type;
    }
    if (const auto* text = std::get_if<std::string>(&found->second)) {
      return parse_spark_type(*text, session_time_zone);
    }
    throw AnalysisError("INVALID_PARAMETER_VALUE", "The value of parameter `to` of `" + name() +
                                                       "` must be a data type or a type name.");
  }

  bool is_try_;
};

}  // namespace

bool can_cast(const DataType& from, const DataType& to) {
  if (from.equals(to)) {
    return true;
  }
  if (const TypePtr source = canonical_type(from)) {
    return can_cast(*source, to);
  }
  if (to.id() != TypeId::kDictionary) {
    if (const TypePtr target = canonical_type(to)) {
      return can_cast(from, *target);
    }
  }
  const Family source = family_of(from);
  const Family target = family_of(to);
  if (source == Family::kNull) {
    return true;
  }
  if (source == Family::kOther || target == Family::kOther) {
    return false;
  }
  switch (target) {
    case Family::kNull:
      return false;
    case Family::kString:
      return true;
    case Family::kBinary:
      return source == Family::kString || source == Family::kBinary;
    case Family::kBoolean:
      return source == Family::kString || source == Family::kBoolean || is_numeric_family(source);
    case Family::kInteger:
    case Family::kFloating:
    case Family::kDecimal:
      return source == Family::kString || source == Family::kBoolean || is_numeric_family(source) ||
             source == Family::kTimestamp;
    case Family::kDate:
      return source == Family::kString || source == Family::kDate || source == Family::kTimestamp ||
             source == Family::kTimestampNtz;
    case Family::kTimestamp:
      return source == Family::kString || source == Family::kDate || source == Family::kTimestamp ||
             source == Family::kTimestampNtz || is_numeric_family(source);
    case Family::kTimestampNtz:
      return source == Family::kString || source == Family::kDate || source == Family::kTimestamp ||
             source == Family::kTimestampNtz;
    case Family::kList:
      return source == Family::kList && can_cast(*from.field(0)->type(), *to.field(0)->type());
    case Family::kMap: {
      if (source != Family::kMap) {
        return false;
      }
      const auto& from_map = type_cast<MapType>(from);
      const auto& to_map = type_cast<MapType>(to);
      return can_cast(*from_map.key_type(), *to_map.key_type()) &&
             can_cast(*from_map.item_type(), *to_map.item_type());
    }
    case Family::kStruct:
      if (source != Family::kStruct || from.num_fields() != to.num_fields()) {
        return false;
      }
      for (int i = 0; i < from.num_fields(); ++i) {
        if (!can_cast(*from.field(i)->type(), *to.field(i)->type())) {
          return false;
        }
      }
      return true;
    default:
      return false;
  }
}

Datum cast(const Datum& value, const TypePtr& to, ExecContext& context) {
  return cast_datum(value, to, context.ansi ? Mode::kAnsi : Mode::kLegacy, context);
}

Datum try_cast(const Datum& value, const TypePtr& to, ExecContext& context) {
  return cast_datum(value, to, Mode::kTry, context);
}

void register_cast_functions(FunctionRegistry& registry) {
  registry.add(std::make_shared<CastFunction>("cast", false));
  registry.add(std::make_shared<CastFunction>("try_cast", true));
}

}  // namespace bowstring::compute
