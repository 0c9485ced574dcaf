#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bowstring/array/array.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/core/predicate_util.h"
#include "bowstring/compute/scalar/predicates.h"
#include "bowstring/compute/vector/selection.h"
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

// --- structs and lists -----------------------------------------------------------------------
//
// Spark compares structs field by field and arrays element by element, then by length (a prefix
// first). Inside them a null equals a null and is smaller than any value, so that
// array(1, null) = array(1, null) is true; NaN equals NaN as it does at the top level.

/// Compares value `a` of one array with value `b` of another array of the same type
/// (indices relative to each array's window): negative, zero or positive.
class PairOrder {
 public:
  virtual ~PairOrder() = default;
  virtual int compare(int64_t a, int64_t b) const = 0;
};

std::unique_ptr<PairOrder> make_pair_order(const ArrayData& left, const ArrayData& right);

/// The valid rows of an array: all when it has no null, none for the null type (which has no
/// bitmap).
struct ValidRows {
  const uint8_t* bits;
  int64_t offset;
  bool none;

  explicit ValidRows(const ArrayData& data)
      : bits(data.null_count() > 0 && data.buffers[0] != nullptr ? data.buffers[0]->data()
                                                                 : nullptr),
        offset(data.offset),
        none(data.type->id() == TypeId::kNull) {}
  bool operator()(int64_t row) const {
    return !none && (bits == nullptr || bit_util::get_bit(bits, offset + row));
  }
};

/// A level of a nested value: its own nulls first (null smallest), then `Values::compare_values`.
template <typename Values>
class NullsFirstOrder : public PairOrder {
 public:
  NullsFirstOrder(const ArrayData& left, const ArrayData& right)
      : left_valid_(left), right_valid_(right) {}

  int compare(int64_t a, int64_t b) const final {
    const bool a_valid = left_valid_(a);
    const bool b_valid = right_valid_(b);
    if (!a_valid || !b_valid) {
      return static_cast<int>(a_valid) - static_cast<int>(b_valid);
    }
    return static_cast<const Values&>(*this).compare_values(a, b);
  }

 private:
  ValidRows left_valid_;
  ValidRows right_valid_;
};

template <typename Reader>
class FlatPairOrder final : public NullsFirstOrder<FlatPairOrder<Reader>> {
 public:
  FlatPairOrder(const ArrayData& left, const ArrayData& right, Reader left_values,
                Reader right_values)
      : NullsFirstOrder<FlatPairOrder<Reader>>(left, right),
        left_values_(std::move(left_values)),
        right_values_(std::move(right_values)) {}

  int compare_values(int64_t a, int64_t b) const {
    using Value = std::decay_t<decltype(left_values_(0))>;
    const Value x = left_values_(a);
    const Value y = right_values_(b);
    return less_values<Value>(x, y) ? -1 : (less_values<Value>(y, x) ? 1 : 0);
  }

 private:
  Reader left_values_;
  Reader right_values_;
};

/// Booleans (false first) and the null type (every value null).
class BooleanPairOrder final : public NullsFirstOrder<BooleanPairOrder> {
 public:
  BooleanPairOrder(const ArrayData& left, const ArrayData& right)
      : NullsFirstOrder<BooleanPairOrder>(left, right), left_(left), right_(right) {}

  int compare_values(int64_t a, int64_t b) const {
    return static_cast<int>(bit_util::get_bit(left_.buffers[1]->data(), left_.offset + a)) -
           static_cast<int>(bit_util::get_bit(right_.buffers[1]->data(), right_.offset + b));
  }

 private:
  const ArrayData& left_;
  const ArrayData& right_;
};

class StructPairOrder final : public NullsFirstOrder<StructPairOrder> {
 public:
  StructPairOrder(const ArrayData& left, const ArrayData& right)
      : NullsFirstOrder<StructPairOrder>(left, right) {
    const StructArray left_rows(Array(std::make_shared<ArrayData>(left)));
    const StructArray right_rows(Array(std::make_shared<ArrayData>(right)));
    for (int f = 0; f < left_rows.num_fields(); ++f) {
      fields_.push_back(left_rows.field(f).data());
      fields_.push_back(right_rows.field(f).data());
      orders_.push_back(make_pair_order(*fields_[fields_.size() - 2], *fields_.back()));
    }
  }

  int compare_values(int64_t a, int64_t b) const {
    for (const std::unique_ptr<PairOrder>& field : orders_) {
      if (const int order = field->compare(a, b); order != 0) {
        return order;
      }
    }
    return 0;
  }

 private:
  std::vector<ArrayDataPtr> fields_;
  std::vector<std::unique_ptr<PairOrder>> orders_;
};

/// Where the elements of list `row` start in the child array, and how many there are.
struct ListSpan {
  int64_t start;
  int64_t length;
};

ListSpan list_span(const ArrayData& data, int64_t row) {
  const int64_t i = data.offset + row;
  switch (data.type->id()) {
    case TypeId::kLargeList: {
      const auto* offsets = reinterpret_cast<const int64_t*>(data.buffers[1]->data());
      return {offsets[i], offsets[i + 1] - offsets[i]};
    }
    case TypeId::kFixedSizeList: {
      const int64_t size = type_cast<FixedSizeListType>(*data.type).list_size();
      return {i * size, size};
    }
    default: {
      const auto* offsets = reinterpret_cast<const int32_t*>(data.buffers[1]->data());
      return {offsets[i], int64_t{offsets[i + 1]} - offsets[i]};
    }
  }
}

class ListPairOrder final : public NullsFirstOrder<ListPairOrder> {
 public:
  ListPairOrder(const ArrayData& left, const ArrayData& right)
      : NullsFirstOrder<ListPairOrder>(left, right),
        left_(left),
        right_(right),
        elements_(make_pair_order(*left.children[0], *right.children[0])) {}

  int compare_values(int64_t a, int64_t b) const {
    const ListSpan x = list_span(left_, a);
    const ListSpan y = list_span(right_, b);
    const int64_t common = std::min(x.length, y.length);
    for (int64_t k = 0; k < common; ++k) {
      if (const int order = elements_->compare(x.start + k, y.start + k); order != 0) {
        return order;
      }
    }
    return x.length < y.length ? -1 : (x.length > y.length ? 1 : 0);
  }

 private:
  const ArrayData& left_;
  const ArrayData& right_;
  std::unique_ptr<PairOrder> elements_;
};

bool is_nested_comparable(TypeId id) {
  return id == TypeId::kStruct || id == TypeId::kList || id == TypeId::kLargeList ||
         id == TypeId::kFixedSizeList;
}

std::unique_ptr<PairOrder> make_pair_order(const ArrayData& left, const ArrayData& right) {
  switch (left.type->id()) {
    case TypeId::kStruct:
      return std::make_unique<StructPairOrder>(left, right);
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
      return std::make_unique<ListPairOrder>(left, right);
    case TypeId::kBoolean:
    case TypeId::kNull:
      return std::make_unique<BooleanPairOrder>(left, right);
    default:
      break;
  }
  std::unique_ptr<PairOrder> order;
  visit_reader_maker(*left.type, [&](auto make_reader) {
    using Reader = decltype(make_reader(left));
    order =
        std::make_unique<FlatPairOrder<Reader>>(left, right, make_reader(left), make_reader(right));
  });
  return order;
}

/// Whether an ordering result (negative, zero, positive) satisfies `op`: each operator's mask
/// has bit 0 for "less", bit 1 for "equal" and bit 2 for "greater".
bool holds(CompareOp op, int order) {
  static constexpr uint8_t kMasks[] = {0b010, 0b101, 0b001, 0b011, 0b100, 0b110};
  const int outcome = order < 0 ? 0 : (order == 0 ? 1 : 2);
  return ((kMasks[static_cast<int>(op)] >> outcome) & 1) != 0;
}

/// `left op right` for structs and lists, row by row through a comparator tree.
void compare_nested(CompareOp op, const Datum& left, const Datum& right, int64_t length,
                    uint8_t* out) {
  const std::unique_ptr<PairOrder> order = make_pair_order(*left.data(), *right.data());
  const int64_t left_step = left.is_array() ? 1 : 0;
  const int64_t right_step = right.is_array() ? 1 : 0;
  detail::write_predicate_bits(length, out, [&](int64_t i) {
    return holds(op, order->compare(i * left_step, i * right_step));
  });
}

/// The result bits of `left op right` for every row (every byte of the bitmap written), nulls
/// ignored (their bits are arbitrary).
void compare_value_bits(CompareOp op, const Datum& left, const Datum& right, int64_t length,
                        uint8_t* out) {
  if (left.type()->storage_id() == TypeId::kBoolean) {
    return compare_booleans(op, left, right, length, out);
  }
  if (is_nested_comparable(left.type()->storage_id())) {
    return compare_nested(op, left, right, length, out);
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

/// Whether values of `a` and `b` compare alike: the same storage type, and the same scale or
/// unit where values are scaled integers; struct fields and list elements alike in turn (field
/// names do not matter). Time zones may differ (instants compare).
bool compared_alike(const DataType& a, const DataType& b) {
  if (a.storage_id() != b.storage_id() || unit_of(a) != unit_of(b)) {
    return false;
  }
  if (a.is_decimal()) {
    return static_cast<const DecimalType&>(a).scale() == static_cast<const DecimalType&>(b).scale();
  }
  if (a.id() == TypeId::kFixedSizeBinary) {
    return a.byte_width() == b.byte_width();
  }
  if (a.id() == TypeId::kFixedSizeList &&
      type_cast<FixedSizeListType>(a).list_size() != type_cast<FixedSizeListType>(b).list_size()) {
    return false;
  }
  if (is_nested_comparable(a.id())) {
    if (a.num_fields() != b.num_fields()) {
      return false;
    }
    for (int i = 0; i < a.num_fields(); ++i) {
      if (!compared_alike(*a.field(i)->type(), *b.field(i)->type())) {
        return false;
      }
    }
  }
  return true;
}

/// Checks that the two sides hold values compared alike (`TypeError` naming `function`).
void check_same_type(const Datum& left, const Datum& right, const char* function) {
  const DataType& a = *left.type();
  const DataType& b = *right.type();
  if (!compared_alike(a, b)) {
    throw TypeError(std::string(function) + " needs arguments of one type, got " + a.to_string() +
                    " and " + b.to_string());
  }
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

/// `datum` with a dictionary-encoded array or scalar decoded into its values.
Datum decoded(const Datum& datum, Allocator* allocator) {
  if (datum.type()->id() != TypeId::kDictionary) {
    return datum;
  }
  const DictionaryArray encoded(datum.array());
  Array values = take(encoded.dictionary(), encoded.indices(), allocator);
  return datum.is_scalar() ? Datum::scalar(std::move(values)) : Datum(std::move(values));
}

}  // namespace

const char* compare_op_name(CompareOp op) {
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
  return "=";
}

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
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
      for (int i = 0; i < type.num_fields(); ++i) {
        if (!is_comparable(*type.field(i)->type())) {
          return false;
        }
      }
      return true;
    default:
      return false;
  }
}

Datum compare(CompareOp op, const Datum& left, const Datum& right, Allocator* allocator) {
  const bool left_encoded = left.type()->id() == TypeId::kDictionary;
  const bool right_encoded = right.type()->id() == TypeId::kDictionary;
  if (left_encoded || right_encoded) {
    // An encoded array against one value: each dictionary value is compared once and the rows
    // take their result (a null index gives null). Anything else compares decoded values.
    const Datum& encoded = left_encoded ? left : right;
    const Datum other = decoded(left_encoded ? right : left, allocator);
    if (encoded.is_array() && other.is_scalar()) {
      const DictionaryArray view(encoded.array());
      const Datum dictionary(view.dictionary());
      const Datum per_value = left_encoded ? compare(op, dictionary, other, allocator)
                                           : compare(op, other, dictionary, allocator);
      return take(per_value.array(), view.indices(), allocator);
    }
    return compare(op, decoded(left, allocator), decoded(right, allocator), allocator);
  }
  const Datum arguments[] = {left, right};
  const int64_t length = detail::call_length(arguments, compare_op_name(op));
  const bool scalar = all_scalars(arguments);
  check_same_type(left, right, compare_op_name(op));
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
  if (left.type()->id() == TypeId::kDictionary || right.type()->id() == TypeId::kDictionary) {
    return equal_null_safe(decoded(left, allocator), decoded(right, allocator), allocator);
  }
  const Datum arguments[] = {left, right};
  const int64_t length = detail::call_length(arguments, "<=>");
  const bool scalar = all_scalars(arguments);
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
  bool encoded = value.type()->id() == TypeId::kDictionary;
  for (const Datum& item : list) {
    encoded = encoded || item.type()->id() == TypeId::kDictionary;
  }
  if (encoded) {
    std::vector<Datum> decoded_list;
    for (const Datum& item : list) {
      decoded_list.push_back(decoded(item, allocator));
    }
    return is_in(decoded(value, allocator), decoded_list, allocator);
  }
  bool scalars_of_value_type = value.is_array();
  for (const Datum& item : list) {
    check_same_type(value, item, "in");
    scalars_of_value_type = scalars_of_value_type && item.is_scalar();
  }
  const TypeId id = value.type()->storage_id();
  if (scalars_of_value_type && id != TypeId::kBoolean && id != TypeId::kNull &&
      !is_nested_comparable(id)) {
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
