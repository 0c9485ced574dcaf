#include "bowstring/compute/window/frames.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {

FrameBound FrameBound::rows(int32_t offset) {
  Int32Builder builder;
  builder.append(offset);
  return at(Datum::scalar(builder.finish()));
}

namespace window_detail {

namespace {

[[noreturn]] void throw_mismatch(const std::string& subclass, const std::string& message) {
  throw AnalysisError("DATATYPE_MISMATCH." + subclass,
                      "Cannot resolve the window frame due to data type mismatch: " + message);
}

/// A scalar integer as int64.
int64_t integer_value(const Array& scalar) {
  const ArrayData& data = *scalar.data();
  switch (data.type->id()) {
    case TypeId::kInt8:
      return data.values<int8_t>(1)[0];
    case TypeId::kInt16:
      return data.values<int16_t>(1)[0];
    case TypeId::kInt32:
      return data.values<int32_t>(1)[0];
    case TypeId::kInt64:
      return data.values<int64_t>(1)[0];
    case TypeId::kUInt8:
      return data.values<uint8_t>(1)[0];
    case TypeId::kUInt16:
      return data.values<uint16_t>(1)[0];
    case TypeId::kUInt32:
      return data.values<uint32_t>(1)[0];
    case TypeId::kUInt64: {
      const uint64_t value = data.values<uint64_t>(1)[0];
      return value > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(value);
    }
    default:
      throw TypeError("not an integer: " + data.type->to_string());
  }
}

/// Checks that a bound offset is a non-null scalar.
void check_literal(const FrameBound& bound, const char* location) {
  if (!bound.offset) {
    throw InvalidArgument(std::string("window frame ") + location +
                          " bound: an offset bound needs an offset value");
  }
  if (!bound.offset.is_scalar()) {
    throw_mismatch("SPECIFIED_WINDOW_FRAME_WITHOUT_FOLDABLE",
                   std::string("Window frame ") + location + " bound " + bound_sql(bound) +
                       " is not a literal.");
  }
  if (bound.offset.scalar_is_null()) {
    throw_mismatch("UNEXPECTED_NULL",
                   std::string("The window frame ") + location + " bound must not be null.");
  }
}

TimeUnit unit_of(const DataType& type) {
  if (type.id() == TypeId::kTimestamp) {
    return static_cast<const TimestampType&>(type).unit();
  }
  return static_cast<const TemporalUnitType&>(type).unit();
}

/// How the single order key of a RANGE frame with offsets is compared with its bounds: as
/// 128-bit integers (integers, decimals as unscaled values, dates, timestamps) scaled by
/// `key_scale`, or as doubles.
struct RangeKey {
  bool fractional = false;
  __int128 key_scale = 1;
  /// The offsets in the key's units: integers, or doubles when `fractional`.
  __int128 offset_integer[2] = {0, 0};
  double offset_fractional[2] = {0, 0};
};

bool range_key_type(const DataType& type) {
  switch (type.id()) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDate32:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
      return true;
    default:
      return false;
  }
}

/// Value `row` of a fixed-width array of a RANGE key type, as a 128-bit integer (or a double
/// for floating-point types, in `fractional`).
__int128 integer_at(const ArrayData& data, int64_t row) {
  switch (data.type->id()) {
    case TypeId::kInt8:
      return data.values<int8_t>(1)[row];
    case TypeId::kInt16:
      return data.values<int16_t>(1)[row];
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kDecimal32:
      return data.values<int32_t>(1)[row];
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
    case TypeId::kDecimal64:
      return data.values<int64_t>(1)[row];
    case TypeId::kUInt8:
      return data.values<uint8_t>(1)[row];
    case TypeId::kUInt16:
      return data.values<uint16_t>(1)[row];
    case TypeId::kUInt32:
      return data.values<uint32_t>(1)[row];
    case TypeId::kUInt64:
      return data.values<uint64_t>(1)[row];
    case TypeId::kDecimal128: {
      __int128 value;
      std::memcpy(&value, data.buffers[1]->data() + (data.offset + row) * 16, sizeof(value));
      return value;
    }
    default:
      throw TypeError("not a RANGE frame key: " + data.type->to_string());
  }
}

double fractional_at(const ArrayData& data, int64_t row) {
  if (data.type->id() == TypeId::kFloat32) {
    return data.values<float>(1)[row];
  }
  return data.values<double>(1)[row];
}

[[noreturn]] void throw_invalid_range_type(const DataType& key, const DataType& offset) {
  throw_mismatch("RANGE_FRAME_INVALID_TYPE",
                 "The data type \"" + spark_type_name(key) +
                     "\" used in the order specification does not support the data type \"" +
                     spark_type_name(offset) + "\" which is used in the range frame.");
}

/// Reads the offsets of a RANGE frame over a key of `key_type` in the key's units.
RangeKey range_key(const WindowFrame& frame, const TypePtr& key_type, ExecContext& context) {
  RangeKey key;
  const DataType& type = *key_type;
  if (!range_key_type(type)) {
    const FrameBound& bound = is(frame.start, FrameBound::Kind::kOffset) ? frame.start : frame.end;
    throw_invalid_range_type(type, *bound.offset.type());
  }
  key.fractional = type.is_floating();
  const FrameBound* bounds[2] = {&frame.start, &frame.end};
  // A timestamp key and a duration offset are compared in the finer of their units.
  int64_t offset_scale[2] = {1, 1};
  if (type.id() == TypeId::kTimestamp) {
    int64_t finest = units_per_second(unit_of(type));
    for (const FrameBound* bound : bounds) {
      if (is(*bound, FrameBound::Kind::kOffset) &&
          bound->offset.type()->id() == TypeId::kDuration) {
        finest = std::max(finest, units_per_second(unit_of(*bound->offset.type())));
      }
    }
    key.key_scale = finest / units_per_second(unit_of(type));
    for (int side = 0; side < 2; ++side) {
      if (is(*bounds[side], FrameBound::Kind::kOffset) &&
          bounds[side]->offset.type()->id() == TypeId::kDuration) {
        offset_scale[side] = finest / units_per_second(unit_of(*bounds[side]->offset.type()));
      }
    }
  }
  for (int side = 0; side < 2; ++side) {
    const FrameBound& bound = *bounds[side];
    if (!is(bound, FrameBound::Kind::kOffset)) {
      continue;
    }
    const Datum& offset = bound.offset;
    const DataType& offset_type = *offset.type();
    if (type.is_numeric()) {
      if (!offset_type.is_numeric()) {
        throw_invalid_range_type(type, offset_type);
      }
      // As Spark's analyzer does, a numeric offset is cast to the key's type.
      const Datum arguments[] = {offset};
      const Datum cast = call("cast", arguments, {{"to", key_type}}, &context);
      if (key.fractional) {
        key.offset_fractional[side] = fractional_at(*cast.data(), 0);
      } else {
        key.offset_integer[side] = integer_at(*cast.data(), 0);
      }
    } else if (type.id() == TypeId::kDate32 || type.id() == TypeId::kDate64) {
      if (!offset_type.is_integer()) {
        throw_invalid_range_type(type, offset_type);
      }
      const __int128 days = integer_value(offset.array());
      key.offset_integer[side] = type.id() == TypeId::kDate32 ? days : days * 86400000;
    } else {
      if (offset_type.id() != TypeId::kDuration) {
        throw_invalid_range_type(type, offset_type);
      }
      key.offset_integer[side] = integer_at(*offset.data(), 0) * offset_scale[side];
    }
  }
  return key;
}

/// Saturating addition: frame bounds past the representable range take in every row there.
__int128 add_saturating(__int128 a, __int128 b) {
  __int128 sum;
  if (__builtin_add_overflow(a, b, &sum)) {
    constexpr __int128 kMax = static_cast<__int128>(~static_cast<unsigned __int128>(0) >> 1);
    return b > 0 ? kMax : -kMax - 1;
  }
  return sum;
}

/// An order key value placed in the order of the partition's rows: nulls and NaNs in `rank`
/// (before or after every number, as the sort put them), numbers in `value`, negated for a
/// descending key so that the rows are ascending by (rank, value).
template <typename V>
struct Placed {
  int8_t rank;
  V value;
};

template <typename V>
bool less(const Placed<V>& a, const Placed<V>& b) {
  if (a.rank != b.rank) {
    return a.rank < b.rank;
  }
  return a.rank == 0 && a.value < b.value;
}

template <typename V>
void sweep_range_frames(const ScratchVector<Placed<V>>& keys, std::span<const int64_t> offsets,
                        const WindowFrame& frame, const V offset[2], Frames& frames) {
  const bool start_offset = is(frame.start, FrameBound::Kind::kOffset);
  const bool end_offset = is(frame.end, FrameBound::Kind::kOffset);
  const auto shifted = [](const Placed<V>& key, V by) {
    if constexpr (std::is_same_v<V, double>) {
      return Placed<V>{key.rank, key.rank == 0 ? key.value + by : key.value};
    } else {
      return Placed<V>{key.rank, key.rank == 0 ? add_saturating(key.value, by) : key.value};
    }
  };
  for (size_t p = 0; p + 1 < offsets.size(); ++p) {
    const int64_t begin = offsets[p];
    const int64_t end = offsets[p + 1];
    // The bounds grow with the keys, so each side is one forward sweep over the partition.
    int64_t low = begin;
    int64_t high = begin;
    for (int64_t i = begin; i < end; ++i) {
      const auto row = static_cast<size_t>(i);
      if (start_offset) {
        const Placed<V> bound = shifted(keys[row], offset[0]);
        while (low < end && less(keys[static_cast<size_t>(low)], bound)) {
          ++low;
        }
        frames.begin[row] = low;
      }
      if (end_offset) {
        const Placed<V> bound = shifted(keys[row], offset[1]);
        while (high < end && !less(bound, keys[static_cast<size_t>(high)])) {
          ++high;
        }
        frames.end[row] = high;
      }
    }
  }
}

}  // namespace

std::string bound_sql(const FrameBound& bound) {
  switch (bound.kind) {
    case FrameBound::Kind::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case FrameBound::Kind::kCurrentRow:
      return "CURRENT ROW";
    case FrameBound::Kind::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
    case FrameBound::Kind::kOffset:
      break;
  }
  return bound.offset ? bound.offset.to_string() : "NULL";
}

std::string frame_sql(const WindowFrame& frame) {
  return std::string(frame.unit == FrameUnit::kRows ? "ROWS" : "RANGE") + " BETWEEN " +
         bound_sql(frame.start) + " AND " + bound_sql(frame.end);
}

int64_t rows_offset(const FrameBound& bound) { return integer_value(bound.offset.array()); }

WindowLayout::WindowLayout(const WindowInput& input, ExecContext& context)
    : input_(input),
      context_(context),
      offsets_(input.partition_offsets),
      partition_ids_(StlAllocator<uint32_t>(context.allocator)),
      peer_begin_(StlAllocator<int64_t>(context.allocator)),
      peer_end_(StlAllocator<int64_t>(context.allocator)) {
  if (offsets_.empty() || offsets_.front() != 0) {
    throw InvalidArgument("evaluate_window: the partition offsets must start with 0");
  }
  for (size_t p = 1; p < offsets_.size(); ++p) {
    if (offsets_[p] < offsets_[p - 1]) {
      throw InvalidArgument("evaluate_window: partition offsets decrease at partition " +
                            std::to_string(p - 1));
    }
  }
  rows_ = offsets_.back();
  if (rows_ > int64_t{UINT32_MAX}) {
    throw InvalidArgument("evaluate_window: more than 2^32 - 1 rows in one call");
  }
  if (input.order.size() != input.order_keys.size()) {
    throw InvalidArgument("evaluate_window: " + std::to_string(input.order_keys.size()) +
                          " order keys but " + std::to_string(input.order.size()) + " sort orders");
  }
  for (const Array& key : input.order_keys) {
    if (key.length() != rows_) {
      throw InvalidArgument("evaluate_window: an order key has " + std::to_string(key.length()) +
                            " rows, the partitions " + std::to_string(rows_));
    }
  }
}

std::span<const uint32_t> WindowLayout::partition_ids() {
  if (partition_ids_.empty() && rows_ > 0) {
    partition_ids_.resize(static_cast<size_t>(rows_));
    for (size_t p = 0; p + 1 < offsets_.size(); ++p) {
      std::fill(partition_ids_.begin() + offsets_[p], partition_ids_.begin() + offsets_[p + 1],
                static_cast<uint32_t>(p));
    }
  }
  return partition_ids_;
}

std::span<const int64_t> WindowLayout::peer_begin() {
  compute_peers();
  return peer_begin_;
}

std::span<const int64_t> WindowLayout::peer_end() {
  compute_peers();
  return peer_end_;
}

void WindowLayout::compute_peers() {
  if (peers_computed_) {
    return;
  }
  peers_computed_ = true;
  const auto rows = static_cast<size_t>(rows_);
  // same[i]: row i has the order keys of row i - 1 (nulls equal to nulls, as in the sort).
  ScratchVector<uint8_t> same(rows, 1, StlAllocator<uint8_t>(context_.allocator));
  if (rows > 1) {
    for (const Array& key : input_.order_keys) {
      const Datum arguments[] = {Datum(key.slice(1, rows_ - 1)), Datum(key.slice(0, rows_ - 1))};
      const Datum equal = call("<=>", arguments, {}, &context_);
      const BooleanArray flags(equal.array());
      for (size_t i = 1; i < rows; ++i) {
        same[i] &= static_cast<uint8_t>(flags.value(static_cast<int64_t>(i) - 1));
      }
    }
  }
  peer_begin_.resize(rows);
  peer_end_.resize(rows);
  for (size_t p = 0; p + 1 < offsets_.size(); ++p) {
    const auto begin = static_cast<size_t>(offsets_[p]);
    const auto end = static_cast<size_t>(offsets_[p + 1]);
    for (size_t i = begin; i < end; ++i) {
      peer_begin_[i] = i == begin || same[i] == 0 ? static_cast<int64_t>(i) : peer_begin_[i - 1];
    }
    for (size_t i = end; i-- > begin;) {
      peer_end_[i] =
          i + 1 == end || same[i + 1] == 0 ? static_cast<int64_t>(i + 1) : peer_end_[i + 1];
    }
  }
}

Frames WindowLayout::frames(const WindowFrame& frame) {
  const auto rows = static_cast<size_t>(rows_);
  Frames frames{ScratchVector<int64_t>(rows, 0, StlAllocator<int64_t>(context_.allocator)),
                ScratchVector<int64_t>(rows, 0, StlAllocator<int64_t>(context_.allocator))};
  const bool range = frame.unit == FrameUnit::kRange;
  const bool start_offset = is(frame.start, FrameBound::Kind::kOffset);
  const bool end_offset = is(frame.end, FrameBound::Kind::kOffset);
  const int64_t start_rows = !range && start_offset ? rows_offset(frame.start) : 0;
  const int64_t end_rows = !range && end_offset ? rows_offset(frame.end) : 0;
  const bool peers = range && (is(frame.start, FrameBound::Kind::kCurrentRow) ||
                               is(frame.end, FrameBound::Kind::kCurrentRow));
  const std::span<const int64_t> first_peer = peers ? peer_begin() : std::span<const int64_t>();
  const std::span<const int64_t> after_peers = peers ? peer_end() : std::span<const int64_t>();
  for (size_t p = 0; p + 1 < offsets_.size(); ++p) {
    const int64_t begin = offsets_[p];
    const int64_t end = offsets_[p + 1];
    for (int64_t i = begin; i < end; ++i) {
      const auto row = static_cast<size_t>(i);
      switch (frame.start.kind) {
        case FrameBound::Kind::kUnboundedPreceding:
          frames.begin[row] = begin;
          break;
        case FrameBound::Kind::kCurrentRow:
          frames.begin[row] = range ? first_peer[row] : i;
          break;
        case FrameBound::Kind::kOffset:
          // i + offset, clamped to the partition (offsets are at most 2^63 away).
          frames.begin[row] =
              start_rows < begin - i ? begin : (start_rows > end - i ? end : i + start_rows);
          break;
        case FrameBound::Kind::kUnboundedFollowing:
          frames.begin[row] = end;
          break;
      }
      switch (frame.end.kind) {
        case FrameBound::Kind::kUnboundedPreceding:
          frames.end[row] = begin;
          break;
        case FrameBound::Kind::kCurrentRow:
          frames.end[row] = range ? after_peers[row] : i + 1;
          break;
        case FrameBound::Kind::kOffset:
          frames.end[row] =
              end_rows < begin - i - 1 ? begin : (end_rows >= end - i ? end : i + end_rows + 1);
          break;
        case FrameBound::Kind::kUnboundedFollowing:
          frames.end[row] = end;
          break;
      }
    }
  }
  if (range && (start_offset || end_offset)) {
    range_offset_frames(frame, frames);
  }
  return frames;
}

void WindowLayout::range_offset_frames(const WindowFrame& frame, Frames& frames) {
  const Array& key = input_.order_keys[0];
  const SortKey& order = input_.order[0];
  const RangeKey range = range_key(frame, key.type(), context_);
  const ArrayData& data = *key.data();
  const auto rows = static_cast<size_t>(rows_);
  const int8_t null_rank = order.nulls_go_first() ? -2 : 2;
  // NaN is the largest number: after the others ascending, before them descending.
  const int8_t nan_rank = order.ascending ? 1 : -1;
  if (range.fractional) {
    ScratchVector<Placed<double>> placed(rows, StlAllocator<Placed<double>>(context_.allocator));
    for (size_t i = 0; i < rows; ++i) {
      const auto row = static_cast<int64_t>(i);
      if (key.is_null(row)) {
        placed[i] = {null_rank, 0};
        continue;
      }
      const double value = fractional_at(data, row);
      if (std::isnan(value)) {
        placed[i] = {nan_rank, 0};
      } else {
        placed[i] = {0, order.ascending ? value : -value};
      }
    }
    sweep_range_frames<double>(placed, offsets_, frame, range.offset_fractional, frames);
  } else {
    ScratchVector<Placed<__int128>> placed(rows,
                                           StlAllocator<Placed<__int128>>(context_.allocator));
    for (size_t i = 0; i < rows; ++i) {
      const auto row = static_cast<int64_t>(i);
      if (key.is_null(row)) {
        placed[i] = {null_rank, 0};
        continue;
      }
      const __int128 value = integer_at(data, row) * range.key_scale;
      placed[i] = {0, order.ascending ? value : -value};
    }
    sweep_range_frames<__int128>(placed, offsets_, frame, range.offset_integer, frames);
  }
}

}  // namespace window_detail

void check_window_frame(const WindowFrame& frame, std::span<const TypePtr> order_key_types) {
  using window_detail::is;
  if (is(frame.start, FrameBound::Kind::kUnboundedFollowing) ||
      is(frame.end, FrameBound::Kind::kUnboundedPreceding)) {
    window_detail::throw_mismatch(
        "SPECIFIED_WINDOW_FRAME_INVALID_BOUND",
        "Window frame upper bound " + window_detail::bound_sql(frame.end) +
            " does not follow the lower bound " + window_detail::bound_sql(frame.start) + ".");
  }
  const bool start_offset = is(frame.start, FrameBound::Kind::kOffset);
  const bool end_offset = is(frame.end, FrameBound::Kind::kOffset);
  if (start_offset) {
    window_detail::check_literal(frame.start, "lower");
  }
  if (end_offset) {
    window_detail::check_literal(frame.end, "upper");
  }
  if (!start_offset && !end_offset) {
    return;
  }
  if (frame.unit == FrameUnit::kRows) {
    for (const FrameBound* bound : {&frame.start, &frame.end}) {
      if (is(*bound, FrameBound::Kind::kOffset) && !bound->offset.type()->is_integer()) {
        window_detail::throw_mismatch("SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE",
                                      std::string("The data type of the ") +
                                          (bound == &frame.start ? "lower" : "upper") +
                                          " bound \"" + spark_type_name(*bound->offset.type()) +
                                          "\" does not match the expected data type \"INT\".");
      }
    }
    if (start_offset && end_offset &&
        window_detail::rows_offset(frame.start) > window_detail::rows_offset(frame.end)) {
      window_detail::throw_mismatch(
          "SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON",
          "The lower bound of a window frame must be less than or equal to the upper bound.");
    }
    return;
  }
  if (order_key_types.empty()) {
    window_detail::throw_mismatch(
        "RANGE_FRAME_WITHOUT_ORDER",
        "A range window frame cannot be used in an unordered window specification.");
  }
  if (order_key_types.size() > 1) {
    window_detail::throw_mismatch("RANGE_FRAME_MULTI_ORDER",
                                  "A range window frame with value boundaries cannot be used in a "
                                  "window specification with multiple order by expressions.");
  }
  ExecContext context;
  const window_detail::RangeKey key = window_detail::range_key(frame, order_key_types[0], context);
  if (start_offset && end_offset &&
      (key.fractional ? key.offset_fractional[0] > key.offset_fractional[1]
                      : key.offset_integer[0] > key.offset_integer[1])) {
    window_detail::throw_mismatch(
        "SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON",
        "The lower bound of a window frame must be less than or equal to the upper bound.");
  }
}

}  // namespace bowstring::compute
