#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bowstring/array/array.h"
#include "bowstring/compute/kernel_util.h"
#include "bowstring/compute/predicate_util.h"
#include "bowstring/compute/predicates.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {

namespace {

using detail::BitSource;

/// A 256-bit two's complement integer (decimal256 values): four little-endian 64-bit limbs.
struct Int256 {
  uint64_t limbs[4];
};

inline bool operator==(const Int256& a, const Int256& b) {
  return a.limbs[0] == b.limbs[0] && a.limbs[1] == b.limbs[1] && a.limbs[2] == b.limbs[2] &&
         a.limbs[3] == b.limbs[3];
}

inline bool operator<(const Int256& a, const Int256& b) {
  if (a.limbs[3] != b.limbs[3]) {
    return static_cast<int64_t>(a.limbs[3]) < static_cast<int64_t>(b.limbs[3]);
  }
  for (int limb = 2; limb >= 0; --limb) {
    if (a.limbs[limb] != b.limbs[limb]) {
      return a.limbs[limb] < b.limbs[limb];
    }
  }
  return false;
}

// Spark's order: for floats NaN equals NaN and sorts above everything, -0.0 equals 0.0 (the
// IEEE comparisons already give that). Written without branches so the loops vectorize.
template <typename T>
inline bool equal_values(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    return (a == b) | ((a != a) & (b != b));
  } else {
    return a == b;
  }
}

template <typename T>
inline bool less_values(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    return (a < b) | ((a == a) & (b != b));
  } else {
    return a < b;
  }
}

/// Values of type T at rows of a fixed-width buffer (unaligned loads are fine).
template <typename T>
struct FixedReader {
  const uint8_t* bytes;
  T operator()(int64_t row) const {
    T value;
    std::memcpy(&value, bytes + row * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return value;
  }
};

template <typename Offset>
struct BinaryReader {
  const Offset* offsets;
  const char* data;
  std::string_view operator()(int64_t row) const {
    return {data + offsets[row], static_cast<size_t>(offsets[row + 1] - offsets[row])};
  }
};

struct BinaryViewReader {
  BinaryViewArray array;
  std::string_view operator()(int64_t row) const { return array.value(row); }
};

struct FixedSizeBinaryReader {
  const char* data;
  int64_t width;
  std::string_view operator()(int64_t row) const {
    return {data + row * width, static_cast<size_t>(width)};
  }
};

template <typename T>
struct ConstantReader {
  T value;
  T operator()(int64_t) const { return value; }
};

CompareOp mirrored(CompareOp op) {
  switch (op) {
    case CompareOp::kLess:
      return CompareOp::kGreater;
    case CompareOp::kLessEqual:
      return CompareOp::kGreaterEqual;
    case CompareOp::kGreater:
      return CompareOp::kLess;
    case CompareOp::kGreaterEqual:
      return CompareOp::kLessEqual;
    default:
      return op;
  }
}

template <typename Left, typename Right>
void compare_rows(CompareOp op, const Left& left, const Right& right, int64_t length,
                  uint8_t* out) {
  using Value = std::decay_t<decltype(left(0))>;
  switch (op) {
    case CompareOp::kEqual:
      detail::write_predicate_bits(
          length, out, [&](int64_t i) { return equal_values<Value>(left(i), right(i)); });
      break;
    case CompareOp::kNotEqual:
      detail::write_predicate_bits(
          length, out, [&](int64_t i) { return !equal_values<Value>(left(i), right(i)); });
      break;
    case CompareOp::kLess:
      detail::write_predicate_bits(
          length, out, [&](int64_t i) { return less_values<Value>(left(i), right(i)); });
      break;
    case CompareOp::kLessEqual:
      detail::write_predicate_bits(
          length, out, [&](int64_t i) { return !less_values<Value>(right(i), left(i)); });
      break;
    case CompareOp::kGreater:
      detail::write_predicate_bits(
          length, out, [&](int64_t i) { return less_values<Value>(right(i), left(i)); });
      break;
    case CompareOp::kGreaterEqual:
      detail::write_predicate_bits(
          length, out, [&](int64_t i) { return !less_values<Value>(left(i), right(i)); });
      break;
  }
}

/// Compares with readers made by `make_reader(ArrayData)`; a scalar side becomes a constant,
/// and a scalar on the left is moved to the right by mirroring the operator.
template <typename MakeReader>
void compare_with(CompareOp op, const Datum& left, const Datum& right, int64_t length, uint8_t* out,
                  MakeReader&& make_reader) {
  const auto left_reader = make_reader(*left.data());
  const auto right_reader = make_reader(*right.data());
  using Value = std::decay_t<decltype(left_reader(0))>;
  if (left.is_array() && right.is_array()) {
    compare_rows(op, left_reader, right_reader, length, out);
  } else if (left.is_array()) {
    compare_rows(op, left_reader, ConstantReader<Value>{right_reader(0)}, length, out);
  } else if (right.is_array()) {
    compare_rows(mirrored(op), right_reader, ConstantReader<Value>{left_reader(0)}, length, out);
  } else {
    compare_rows(op, ConstantReader<Value>{left_reader(0)}, ConstantReader<Value>{right_reader(0)},
                 length, out);
  }
}

template <typename T>
auto fixed_reader_maker() {
  return [](const ArrayData& data) {
    return FixedReader<T>{data.buffers[1]->data() + data.offset * static_cast<int64_t>(sizeof(T))};
  };
}

template <typename Offset>
auto binary_reader_maker() {
  return [](const ArrayData& data) {
    return BinaryReader<Offset>{data.values<Offset>(1),
                                reinterpret_cast<const char*>(data.buffers[2]->data())};
  };
}

/// Calls `visit(make_reader)` with the function that makes a reader of `type`'s values from an
/// ArrayData (any comparable type but boolean and null); throws `TypeError` for other types.
template <typename Visit>
void visit_reader_maker(const DataType& type, Visit&& visit) {
  switch (type.storage_id()) {
    case TypeId::kInt8:
      return visit(fixed_reader_maker<int8_t>());
    case TypeId::kUInt8:
      return visit(fixed_reader_maker<uint8_t>());
    case TypeId::kInt16:
      return visit(fixed_reader_maker<int16_t>());
    case TypeId::kUInt16:
      return visit(fixed_reader_maker<uint16_t>());
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kIntervalMonths:
    case TypeId::kDecimal32:
      return visit(fixed_reader_maker<int32_t>());
    case TypeId::kUInt32:
      return visit(fixed_reader_maker<uint32_t>());
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
    case TypeId::kDecimal64:
      return visit(fixed_reader_maker<int64_t>());
    case TypeId::kUInt64:
      return visit(fixed_reader_maker<uint64_t>());
    case TypeId::kFloat32:
      return visit(fixed_reader_maker<float>());
    case TypeId::kFloat64:
      return visit(fixed_reader_maker<double>());
    case TypeId::kDecimal128:
      return visit(fixed_reader_maker<__int128>());
    case TypeId::kDecimal256:
      return visit(fixed_reader_maker<Int256>());
    case TypeId::kString:
    case TypeId::kBinary:
      return visit(binary_reader_maker<int32_t>());
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      return visit(binary_reader_maker<int64_t>());
    case TypeId::kStringView:
    case TypeId::kBinaryView:
      return visit([](const ArrayData& data) {
        return BinaryViewReader{BinaryViewArray(Array(std::make_shared<ArrayData>(data)))};
      });
    case TypeId::kFixedSizeBinary:
      return visit([](const ArrayData& data) {
        const int64_t width = data.type->byte_width();
        return FixedSizeBinaryReader{
            reinterpret_cast<const char*>(data.buffers[1]->data()) + data.offset * width, width};
      });
    default:
      throw TypeError("comparison of " + type.to_string() + " values is not supported");
  }
}

/// Booleans a word of 64 rows at a time: false < true.
void compare_booleans(CompareOp op, const Datum& left, const Datum& right, int64_t length,
                      uint8_t* out) {
  const BitSource a = detail::boolean_values_source(left);
  const BitSource b = detail::boolean_values_source(right);
  detail::write_words(length, out, [&](int64_t row, int64_t count) -> uint64_t {
    const uint64_t x = a.word(row, count);
    const uint64_t y = b.word(row, count);
    switch (op) {
      case CompareOp::kEqual:
        return ~(x ^ y);
      case CompareOp::kNotEqual:
        return x ^ y;
      case CompareOp::kLess:
        return ~x & y;
      case CompareOp::kLessEqual:
        return ~x | y;
      case CompareOp::kGreater:
        return x & ~y;
      case CompareOp::kGreaterEqual:
        return x | ~y;
    }
    return 0;
  });
}

#if defined(__SSE2__)

// Floats eight rows to an output byte: SSE compares give a lane mask per pair (or quad) of
// rows, and movemask turns it into bits, without the byte-per-row detour the generic loop
// takes. NaN is handled without branches: NaN = NaN, NaN above everything.

struct DoubleLanes {
  using Value = double;
  using Vector = __m128d;
  static constexpr int kLanes = 2;
  static Vector load(const double* values) { return _mm_loadu_pd(values); }
  static Vector broadcast(double value) { return _mm_set1_pd(value); }
  static Vector equal(Vector a, Vector b) {
    return _mm_or_pd(_mm_cmpeq_pd(a, b), _mm_and_pd(_mm_cmpunord_pd(a, a), _mm_cmpunord_pd(b, b)));
  }
  static Vector less(Vector a, Vector b) {
    // a < b, or b is NaN and a is not.
    return _mm_or_pd(_mm_cmplt_pd(a, b),
                     _mm_andnot_pd(_mm_cmpunord_pd(a, a), _mm_cmpunord_pd(b, b)));
  }
  static unsigned bits(Vector mask) { return static_cast<unsigned>(_mm_movemask_pd(mask)); }
};

struct FloatLanes {
  using Value = float;
  using Vector = __m128;
  static constexpr int kLanes = 4;
  static Vector load(const float* values) { return _mm_loadu_ps(values); }
  static Vector broadcast(float value) { return _mm_set1_ps(value); }
  static Vector equal(Vector a, Vector b) {
    return _mm_or_ps(_mm_cmpeq_ps(a, b), _mm_and_ps(_mm_cmpunord_ps(a, a), _mm_cmpunord_ps(b, b)));
  }
  static Vector less(Vector a, Vector b) {
    return _mm_or_ps(_mm_cmplt_ps(a, b),
                     _mm_andnot_ps(_mm_cmpunord_ps(a, a), _mm_cmpunord_ps(b, b)));
  }
  static unsigned bits(Vector mask) { return static_cast<unsigned>(_mm_movemask_ps(mask)); }
};

/// One side of a float comparison: an array's values, or one value for every row.
template <typename Lanes, bool kConstant>
struct FloatSide {
  using Value = typename Lanes::Value;
  const Value* values;
  Value constant;

  typename Lanes::Vector vector(int64_t row) const {
    if constexpr (kConstant) {
      return Lanes::broadcast(constant);
    } else {
      return Lanes::load(values + row);
    }
  }
  Value value(int64_t row) const {
    if constexpr (kConstant) {
      return constant;
    } else {
      return values[row];
    }
  }
};

/// Writes `a < b` (`kLess`) or `a = b` for every row, each result bit flipped when `flip`.
template <typename Lanes, bool kLess, typename A, typename B>
void compare_float_sides(const A& a, const B& b, bool flip, int64_t length, uint8_t* out) {
  using Value = typename Lanes::Value;
  const unsigned flip_bits = flip ? 0xFF : 0;
  const int64_t full_bytes = length >> 3;
  for (int64_t byte = 0; byte < full_bytes; ++byte) {
    const int64_t row = byte << 3;
    unsigned bits = 0;
    for (int k = 0; k < 8; k += Lanes::kLanes) {
      const auto x = a.vector(row + k);
      const auto y = b.vector(row + k);
      bits |= Lanes::bits(kLess ? Lanes::less(x, y) : Lanes::equal(x, y)) << k;
    }
    out[byte] = static_cast<uint8_t>(bits ^ flip_bits);
  }
  if ((length & 7) != 0) {
    unsigned bits = 0;
    for (int64_t row = full_bytes << 3; row < length; ++row) {
      const Value x = a.value(row);
      const Value y = b.value(row);
      const bool result = kLess ? less_values(x, y) : equal_values(x, y);
      bits |= static_cast<unsigned>(result != flip) << (row & 7);
    }
    out[full_bytes] = static_cast<uint8_t>(bits);
  }
}

/// `left op right` for float or double values (`Lanes`), where at least one side is an array.
template <typename Lanes>
void compare_floats(CompareOp op, const Datum& left, const Datum& right, int64_t length,
                    uint8_t* out) {
  using Value = typename Lanes::Value;
  // Every operator is = or < with the sides maybe swapped and the result maybe flipped.
  const bool less = op != CompareOp::kEqual && op != CompareOp::kNotEqual;
  const bool swap = op == CompareOp::kLessEqual || op == CompareOp::kGreater;
  const bool flip =
      op == CompareOp::kNotEqual || op == CompareOp::kLessEqual || op == CompareOp::kGreaterEqual;
  const Datum& a = swap ? right : left;
  const Datum& b = swap ? left : right;
  const auto values_of = [](const Datum& datum) { return datum.data()->values<Value>(1); };
  const auto run = [&](const auto& x, const auto& y) {
    if (less) {
      compare_float_sides<Lanes, true>(x, y, flip, length, out);
    } else {
      compare_float_sides<Lanes, false>(x, y, flip, length, out);
    }
  };
  using ArraySide = FloatSide<Lanes, false>;
  using ConstantSide = FloatSide<Lanes, true>;
  if (a.is_array() && b.is_array()) {
    run(ArraySide{values_of(a), 0}, ArraySide{values_of(b), 0});
  } else if (a.is_array()) {
    run(ArraySide{values_of(a), 0}, ConstantSide{nullptr, values_of(b)[0]});
  } else {
    run(ConstantSide{nullptr, values_of(a)[0]}, ArraySide{values_of(b), 0});
  }
}

#endif

/// The result bits of `left op right` for every row (every byte of the bitmap written), nulls
/// ignored (their bits are arbitrary).
void compare_value_bits(CompareOp op, const Datum& left, const Datum& right, int64_t length,
                        uint8_t* out) {
  if (left.type()->storage_id() == TypeId::kBoolean) {
    return compare_booleans(op, left, right, length, out);
  }
#if defined(__SSE2__)
  if (left.is_array() || right.is_array()) {
    if (left.type()->storage_id() == TypeId::kFloat64) {
      return compare_floats<DoubleLanes>(op, left, right, length, out);
    }
    if (left.type()->storage_id() == TypeId::kFloat32) {
      return compare_floats<FloatLanes>(op, left, right, length, out);
    }
  }
#endif
  visit_reader_maker(*left.type(), [&](auto make_reader) {
    compare_with(op, left, right, length, out, make_reader);
  });
}

/// The unit of a time-like type, or -1.
int unit_of(const DataType& type) {
  switch (type.id()) {
    case TypeId::kTimestamp:
      return static_cast<int>(static_cast<const TimestampType&>(type).unit());
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kDuration:
      return static_cast<int>(static_cast<const TemporalUnitType&>(type).unit());
    default:
      return -1;
  }
}

/// Checks that the two sides hold values compared alike: the same storage type, and the same
/// scale or unit where values are scaled integers. Time zones may differ (instants compare).
void check_same_type(const Datum& left, const Datum& right, const char* function) {
  const DataType& a = *left.type();
  const DataType& b = *right.type();
  bool same = a.storage_id() == b.storage_id() && unit_of(a) == unit_of(b);
  if (same && a.is_decimal()) {
    same = static_cast<const DecimalType&>(a).scale() == static_cast<const DecimalType&>(b).scale();
  }
  if (same && a.id() == TypeId::kFixedSizeBinary) {
    same = a.byte_width() == b.byte_width();
  }
  if (!same) {
    throw TypeError(std::string(function) + " needs arguments of one type, got " + a.to_string() +
                    " and " + b.to_string());
  }
}

const char* op_name(CompareOp op) {
  switch (op) {
    case CompareOp::kEqual:
      return "=";
    case CompareOp::kNotEqual:
      return "!=";
    case CompareOp::kLess:
      return "<";
    case CompareOp::kLessEqual:
      return "<=";
    case CompareOp::kGreater:
      return ">";
    case CompareOp::kGreaterEqual:
      return ">=";
  }
  return "?";
}

/// Sets bit i of `found` when row i of `value` (an array) equals one of the `list` scalars of
/// its type. The non-null list values are sorted in Spark's order without duplicates; rows are
/// looked up by a scan of a short list or by binary search.
template <typename MakeReader>
void find_in_scalars(const Datum& value, std::span<const Datum> list, int64_t length,
                     uint8_t* found, MakeReader&& make_reader) {
  const auto reader = make_reader(*value.data());
  using Value = std::decay_t<decltype(reader(0))>;
  std::vector<Value> needles;
  for (const Datum& item : list) {
    if (!item.scalar_is_null()) {
      needles.push_back(make_reader(*item.data())(0));
    }
  }
  std::sort(needles.begin(), needles.end(), less_values<Value>);
  needles.erase(std::unique(needles.begin(), needles.end(), equal_values<Value>), needles.end());
  if constexpr (std::is_integral_v<Value> && sizeof(Value) <= 8) {
    // Integers within a small range: one table lookup per row.
    if (needles.size() > 8 &&
        static_cast<uint64_t>(needles.back()) - static_cast<uint64_t>(needles.front()) < 65536) {
      const Value low = needles.front();
      const uint64_t span = static_cast<uint64_t>(needles.back()) - static_cast<uint64_t>(low);
      std::vector<uint8_t> table(span + 1, 0);
      for (const Value& needle : needles) {
        table[static_cast<uint64_t>(needle) - static_cast<uint64_t>(low)] = 1;
      }
      detail::write_predicate_bits(length, found, [&](int64_t i) {
        const uint64_t slot = static_cast<uint64_t>(reader(i)) - static_cast<uint64_t>(low);
        return slot <= span && table[slot] != 0;
      });
      return;
    }
  }
  if (needles.size() <= 8) {
    detail::write_predicate_bits(length, found, [&](int64_t i) {
      const Value x = reader(i);
      bool hit = false;
      for (const Value& needle : needles) {
        hit |= equal_values<Value>(x, needle);
      }
      return hit;
    });
  } else {
    detail::write_predicate_bits(length, found, [&](int64_t i) {
      const Value x = reader(i);
      const auto at = std::lower_bound(needles.begin(), needles.end(), x, less_values<Value>);
      return at != needles.end() && equal_values<Value>(*at, x);
    });
  }
}

/// `value IN (list)` for an array of a non-boolean type against scalars of the same type.
Datum is_in_scalars(const Datum& value, std::span<const Datum> list, Allocator* allocator) {
  const int64_t length = value.length();
  detail::UninitializedBuffer found = detail::output_bitmap(length, allocator);
  visit_reader_maker(*value.type(), [&](auto make_reader) {
    find_in_scalars(value, list, length, found.mutable_data(), make_reader);
  });
  bool list_has_null = false;
  for (const Datum& item : list) {
    list_has_null = list_has_null || item.scalar_is_null();
  }
  if (!list_has_null) {
    std::shared_ptr<Buffer> validity = copy_validity(*value.data(), allocator);
    const int64_t null_count = validity == nullptr ? 0 : value.data()->null_count();
    return detail::make_boolean_array(length, std::move(validity), null_count, found.finish());
  }
  // Not found with a null in the list: null.
  const BitSource valid = detail::validity_source(value);
  detail::UninitializedBuffer validity = detail::output_bitmap(length, allocator);
  const uint8_t* found_bits = found.data();
  detail::write_words(length, validity.mutable_data(), [&](int64_t row, int64_t count) {
    const uint64_t hit = count == 64 ? detail::load_word(found_bits, row)
                                     : detail::load_partial_word(found_bits, row, count);
    return valid.word(row, count) & hit;
  });
  const int64_t null_count = length - bit_util::count_set_bits(validity.data(), 0, length);
  return detail::make_boolean_array(length, validity.finish(), null_count, found.finish());
}

/// The validity of a comparison of two non-null-scalar sides: nullptr without nulls, the
/// bitmap of the one side with nulls shared when it starts on a byte boundary, the AND of both
/// sides' bitmaps otherwise.
std::shared_ptr<Buffer> result_validity(const Datum& left, const Datum& right, int64_t length,
                                        Allocator* allocator, int64_t* null_count) {
  const bool left_nulls = left.is_array() && left.data()->null_count() > 0;
  const bool right_nulls = right.is_array() && right.data()->null_count() > 0;
  if (left_nulls != right_nulls) {
    const ArrayData& data = left_nulls ? *left.data() : *right.data();
    if ((data.offset & 7) == 0) {
      *null_count = data.null_count();
      return Buffer::slice(data.buffers[0], data.offset >> 3, bit_util::bytes_for_bits(length));
    }
  } else if (left_nulls) {
    const BitSource a = detail::validity_source(left);
    const BitSource b = detail::validity_source(right);
    const uint8_t* a_bytes = detail::aligned_bytes(a);
    const uint8_t* b_bytes = detail::aligned_bytes(b);
    if (a_bytes != nullptr && b_bytes != nullptr) {
      detail::UninitializedBuffer bits = detail::output_bitmap(length, allocator);
      detail::map_aligned_words(length, bits.mutable_data(), a_bytes, b_bytes,
                                [](uint64_t x, uint64_t y) { return x & y; });
      *null_count = length - bit_util::count_set_bits(bits.data(), 0, length);
      return bits.finish();
    }
  }
  const Datum arguments[] = {left, right};
  return and_validity(arguments, length, allocator, null_count);
}

}  // namespace

bool is_comparable(const DataType& type) {
  switch (type.storage_id()) {
    case TypeId::kNull:
    case TypeId::kBoolean:
    case TypeId::kInt8:
    case TypeId::kUInt8:
    case TypeId::kInt16:
    case TypeId::kUInt16:
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
    case TypeId::kDate32:
    case TypeId::kDate64:
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
    case TypeId::kIntervalMonths:
    case TypeId::kString:
    case TypeId::kLargeString:
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kStringView:
    case TypeId::kBinaryView:
    case TypeId::kFixedSizeBinary:
      return true;
    default:
      return false;
  }
}

Datum compare(CompareOp op, const Datum& left, const Datum& right, Allocator* allocator) {
  const Datum arguments[] = {left, right};
  const int64_t length = detail::call_length(arguments, op_name(op));
  const bool scalar = detail::all_scalars(arguments);
  check_same_type(left, right, op_name(op));
  if (left.scalar_is_null() || right.scalar_is_null() ||
      left.type()->storage_id() == TypeId::kNull) {
    return detail::as_result(detail::all_null_boolean_array(length, allocator), scalar);
  }
  detail::UninitializedBuffer values = detail::output_bitmap(length, allocator);
  compare_value_bits(op, left, right, length, values.mutable_data());
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = result_validity(left, right, length, allocator, &null_count);
  return detail::as_result(
      detail::make_boolean_array(length, std::move(validity), null_count, values.finish()), scalar);
}

Datum equal_null_safe(const Datum& left, const Datum& right, Allocator* allocator) {
  const Datum arguments[] = {left, right};
  const int64_t length = detail::call_length(arguments, "<=>");
  const bool scalar = detail::all_scalars(arguments);
  check_same_type(left, right, "<=>");
  if (left.type()->storage_id() == TypeId::kNull) {
    MutableBuffer values = detail::zeroed_bitmap(length, allocator);
    bit_util::set_bits_to(values.mutable_data(), 0, length, true);
    return detail::as_result(detail::make_boolean_array(length, nullptr, 0, values.finish()),
                             scalar);
  }
  if (left.scalar_is_null()) {
    return is_null(right, allocator);
  }
  if (right.scalar_is_null()) {
    return is_null(left, allocator);
  }
  detail::UninitializedBuffer values = detail::output_bitmap(length, allocator);
  uint8_t* out = values.mutable_data();
  compare_value_bits(CompareOp::kEqual, left, right, length, out);
  const BitSource left_valid = detail::validity_source(left);
  const BitSource right_valid = detail::validity_source(right);
  if (left_valid.bits != nullptr || right_valid.bits != nullptr) {
    detail::write_words(length, out, [&](int64_t row, int64_t count) {
      uint64_t equal;
      if (count == 64) {
        std::memcpy(&equal, out + (row >> 3), sizeof(equal));
      } else {
        equal = detail::load_partial_word(out, row, count);
      }
      const uint64_t a = left_valid.word(row, count);
      const uint64_t b = right_valid.word(row, count);
      return (a & b & equal) | (~a & ~b);
    });
  }
  return detail::as_result(detail::make_boolean_array(length, nullptr, 0, values.finish()), scalar);
}

Datum is_in(const Datum& value, std::span<const Datum> list, Allocator* allocator) {
  if (list.empty()) {
    throw InvalidArgument("in needs at least one value in its list");
  }
  bool scalars_of_value_type = value.is_array();
  for (const Datum& item : list) {
    check_same_type(value, item, "in");
    scalars_of_value_type = scalars_of_value_type && item.is_scalar();
  }
  const TypeId id = value.type()->storage_id();
  if (scalars_of_value_type && id != TypeId::kBoolean && id != TypeId::kNull) {
    return is_in_scalars(value, list, allocator);
  }
  // x IN (a, b, ...) is x = a OR x = b OR ... under three-valued logic, which gives Spark's
  // answer: true when found, else null when x or an element is null, else false.
  Datum result = compare(CompareOp::kEqual, value, list[0], allocator);
  for (size_t k = 1; k < list.size(); ++k) {
    result = kleene_or(result, compare(CompareOp::kEqual, value, list[k], allocator), allocator);
  }
  return result;
}

}  // namespace bowstring::compute
