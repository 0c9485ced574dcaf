#include "bowstring/compute/window/window.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/aggregate/aggregate_util.h"
#include "bowstring/compute/aggregate/group_by.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/compute/window/frames.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {

namespace {

using window_detail::frame_sql;
using window_detail::Frames;
using window_detail::is;
using window_detail::WindowLayout;

enum class WindowKind : uint8_t {
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,
  kLag,
  kLead,
  kFirst,
  kLast,
  kNthValue,
  kAggregate,
};

WindowKind kind_of(const std::string& name) {
  static const std::pair<const char*, WindowKind> kKinds[] = {
      {"row_number", WindowKind::kRowNumber},
      {"rank", WindowKind::kRank},
      {"dense_rank", WindowKind::kDenseRank},
      {"percent_rank", WindowKind::kPercentRank},
      {"cume_dist", WindowKind::kCumeDist},
      {"ntile", WindowKind::kNtile},
      {"lag", WindowKind::kLag},
      {"lead", WindowKind::kLead},
      {"first", WindowKind::kFirst},
      {"first_value", WindowKind::kFirst},
      {"last", WindowKind::kLast},
      {"last_value", WindowKind::kLast},
      {"nth_value", WindowKind::kNthValue},
  };
  for (const auto& [kind_name, kind] : kKinds) {
    if (name == kind_name) {
      return kind;
    }
  }
  return WindowKind::kAggregate;
}

bool ranking(WindowKind kind) { return kind <= WindowKind::kNtile; }

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

[[noreturn]] void throw_argument_error(const std::string& function, const std::string& subclass,
                                       const std::string& message) {
  throw AnalysisError("DATATYPE_MISMATCH." + subclass,
                      "Cannot resolve \"" + function + "\" due to data type mismatch: " + message);
}

/// Argument `index` of `call`, a non-null integer scalar (ntile's buckets, lag's offset...).
int64_t integer_argument(const WindowCall& call, size_t index, const char* name) {
  const Datum& argument = call.arguments[index];
  if (!argument.is_scalar()) {
    throw_argument_error(call.function, "NON_FOLDABLE_INPUT",
                         std::string("the input ") + name +
                             " should be a foldable \"INT\" "
                             "expression; however, got a column.");
  }
  if (!argument.type()->is_integer()) {
    throw_argument_error(call.function, "UNEXPECTED_INPUT_TYPE",
                         std::string("The ") + name +
                             " parameter requires the \"INT\" type, "
                             "however it has the type \"" +
                             spark_type_name(*argument.type()) + "\".");
  }
  if (argument.scalar_is_null()) {
    throw_argument_error(call.function, "UNEXPECTED_NULL",
                         std::string("The ") + name + " must not be null.");
  }
  FrameBound bound = FrameBound::at(argument);
  return window_detail::rows_offset(bound);
}

/// Whether nulls are skipped: the `ignore_nulls` option, or a boolean scalar argument `index`.
bool ignore_nulls(const WindowCall& call, size_t index) {
  if (call.arguments.size() > index) {
    const Datum& flag = call.arguments[index];
    if (!flag.is_scalar() || flag.type()->id() != TypeId::kBoolean || flag.scalar_is_null()) {
      throw_argument_error(call.function, "NON_FOLDABLE_INPUT",
                           "the ignoreNulls argument must be a boolean literal.");
    }
    return BooleanArray(flag.array()).value(0);
  }
  const auto it = call.options.find("ignore_nulls");
  return it != call.options.end() && std::get<bool>(it->second);
}

void check_argument_count(const WindowCall& call, size_t min, size_t max) {
  const size_t count = call.arguments.size();
  if (count < min || count > max) {
    throw AnalysisError(
        "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
        "The `" + call.function + "` requires " +
            (min == max ? std::to_string(min)
                        : "[" + std::to_string(min) + ", " + std::to_string(max) + "]") +
            " parameters but the actual number is " + std::to_string(count) + ".");
  }
}

/// The frame a ranking or offset function runs on; a frame given for it must be that one.
void check_own_frame(const WindowCall& call, const WindowFrame& required) {
  if (!call.frame) {
    return;
  }
  const WindowFrame& given = *call.frame;
  const auto same_bound = [](const FrameBound& a, const FrameBound& b) {
    if (a.kind != b.kind) {
      return false;
    }
    return a.kind != FrameBound::Kind::kOffset ||
           (a.offset.type()->is_integer() && !a.offset.scalar_is_null() &&
            window_detail::rows_offset(a) == window_detail::rows_offset(b));
  };
  if (given.unit != required.unit || !same_bound(given.start, required.start) ||
      !same_bound(given.end, required.end)) {
    throw AnalysisError("_LEGACY_ERROR_TEMP_1036", "Window Frame " + frame_sql(given) +
                                                       " must match the required frame " +
                                                       frame_sql(required) + ".");
  }
}

template <typename T>
Array fixed_array(const TypePtr& type, int64_t rows, Allocator* allocator, auto&& value_of) {
  OutputValues<T> values(rows, allocator);
  T* out = values.data();
  for (int64_t i = 0; i < rows; ++i) {
    out[i] = value_of(i);
  }
  return make_fixed_width_array(type, rows, nullptr, 0, values.finish());
}

/// row_number, rank, dense_rank, percent_rank, cume_dist and ntile.
Array ranking_function(WindowKind kind, const WindowCall& call, WindowLayout& layout) {
  const int64_t rows = layout.rows();
  Allocator* allocator = layout.allocator();
  const std::span<const int64_t> offsets = layout.partition_offsets();
  ScratchVector<int64_t> partition_begin(static_cast<size_t>(rows),
                                         StlAllocator<int64_t>(allocator));
  ScratchVector<int64_t> partition_end(static_cast<size_t>(rows), StlAllocator<int64_t>(allocator));
  for (size_t p = 0; p + 1 < offsets.size(); ++p) {
    std::fill(partition_begin.begin() + offsets[p], partition_begin.begin() + offsets[p + 1],
              offsets[p]);
    std::fill(partition_end.begin() + offsets[p], partition_end.begin() + offsets[p + 1],
              offsets[p + 1]);
  }
  const auto at = [](const auto& values, int64_t i) { return values[static_cast<size_t>(i)]; };
  switch (kind) {
    case WindowKind::kRowNumber:
      return fixed_array<int32_t>(int32(), rows, allocator, [&](int64_t i) {
        return static_cast<int32_t>(i - at(partition_begin, i) + 1);
      });
    case WindowKind::kRank: {
      const std::span<const int64_t> peers = layout.peer_begin();
      return fixed_array<int32_t>(int32(), rows, allocator, [&](int64_t i) {
        return static_cast<int32_t>(at(peers, i) - at(partition_begin, i) + 1);
      });
    }
    case WindowKind::kDenseRank: {
      const std::span<const int64_t> peers = layout.peer_begin();
      int32_t dense = 0;
      return fixed_array<int32_t>(int32(), rows, allocator, [&](int64_t i) {
        if (i == at(partition_begin, i)) {
          dense = 0;
        }
        if (at(peers, i) == i) {
          ++dense;
        }
        return dense;
      });
    }
    case WindowKind::kPercentRank: {
      const std::span<const int64_t> peers = layout.peer_begin();
      return fixed_array<double>(float64(), rows, allocator, [&](int64_t i) {
        const int64_t size = at(partition_end, i) - at(partition_begin, i);
        return size <= 1 ? 0.0
                         : static_cast<double>(at(peers, i) - at(partition_begin, i)) /
                               static_cast<double>(size - 1);
      });
    }
    case WindowKind::kCumeDist: {
      const std::span<const int64_t> peers = layout.peer_end();
      return fixed_array<double>(float64(), rows, allocator, [&](int64_t i) {
        return static_cast<double>(at(peers, i) - at(partition_begin, i)) /
               static_cast<double>(at(partition_end, i) - at(partition_begin, i));
      });
    }
    case WindowKind::kNtile: {
      const int64_t buckets = integer_argument(call, 0, "buckets");
      if (buckets <= 0 || buckets > INT32_MAX) {
        throw_argument_error(call.function, "VALUE_OUT_OF_RANGE",
                             "The buckets must be between (0, 2147483647] (current value = " +
                                 std::to_string(buckets) + ").");
      }
      return fixed_array<int32_t>(int32(), rows, allocator, [&](int64_t i) {
        // The first `remainder` buckets get one row more than the others, as in Spark.
        const int64_t size = at(partition_end, i) - at(partition_begin, i);
        const int64_t row = i - at(partition_begin, i);
        const int64_t bucket_size = size / buckets;
        const int64_t remainder = size % buckets;
        const int64_t large_rows = remainder * (bucket_size + 1);
        return static_cast<int32_t>(row < large_rows
                                        ? row / (bucket_size + 1) + 1
                                        : remainder + (row - large_rows) / bucket_size + 1);
      });
    }
    default:
      break;
  }
  throw InvalidArgument("not a ranking function: " + call.function);
}

/// The rows of `values` where `refs` point (source 0 is `values`, 1 the default).
Array gather(const Array& values, const Array* defaults, std::span<const RowRef> refs,
             Allocator* allocator) {
  std::vector<Array> sources{values};
  if (defaults != nullptr) {
    sources.push_back(*defaults);
  }
  return gather_rows(values.type(), sources, refs, allocator);
}

/// count of non-null rows of `values` before each row: counts[i] for rows [0, i).
ScratchVector<int64_t> valid_counts(const Array& values, Allocator* allocator) {
  const int64_t rows = values.length();
  ScratchVector<int64_t> counts(static_cast<size_t>(rows) + 1, 0, StlAllocator<int64_t>(allocator));
  for (int64_t i = 0; i < rows; ++i) {
    counts[static_cast<size_t>(i) + 1] =
        counts[static_cast<size_t>(i)] + (values.is_null(i) ? 0 : 1);
  }
  return counts;
}

/// Positions of the non-null rows of `values`, ascending.
ScratchVector<int64_t> valid_positions(const Array& values, Allocator* allocator) {
  ScratchVector<int64_t> positions{StlAllocator<int64_t>(allocator)};
  for (int64_t i = 0; i < values.length(); ++i) {
    if (!values.is_null(i)) {
      positions.push_back(i);
    }
  }
  return positions;
}

Array array_argument(const Datum& argument, int64_t rows, Allocator* allocator) {
  return argument.is_scalar() ? argument.to_array(rows, allocator) : argument.array();
}

void check_argument_rows(const WindowCall& call, int64_t rows) {
  for (size_t i = 0; i < call.arguments.size(); ++i) {
    const Datum& argument = call.arguments[i];
    if (argument.is_array() && argument.length() != rows) {
      throw InvalidArgument("evaluate_window: argument " + std::to_string(i + 1) + " of `" +
                            call.function + "` has " + std::to_string(argument.length()) +
                            " rows, the input " + std::to_string(rows));
    }
  }
}

/// lag and lead.
Array offset_function(WindowKind kind, const WindowCall& call, WindowLayout& layout) {
  const int64_t rows = layout.rows();
  Allocator* allocator = layout.allocator();
  const int64_t offset = call.arguments.size() > 1 ? integer_argument(call, 1, "offset") : 1;
  const int64_t shift = kind == WindowKind::kLead ? offset : -offset;
  const Array values = array_argument(call.arguments[0], rows, allocator);
  Array defaults;
  bool default_scalar = false;
  if (call.arguments.size() > 2) {
    const Datum& given = call.arguments[2];
    Datum cast = given;
    if (!types_equal(given.type(), values.type())) {
      const Datum arguments[] = {given};
      cast = compute::call("cast", arguments, {{"to", values.type()}}, &layout.context());
    }
    default_scalar = cast.is_scalar();
    defaults = cast.array();
  }
  const bool skip_nulls = ignore_nulls(call, 3);
  ScratchVector<RowRef> refs(static_cast<size_t>(rows), StlAllocator<RowRef>(allocator));
  const auto fallback = [&](int64_t i) {
    if (!defaults) {
      return RowRef{};
    }
    return RowRef{1, default_scalar ? 0 : i};
  };
  const std::span<const int64_t> offsets = layout.partition_offsets();
  if (!skip_nulls || shift == 0) {
    for (size_t p = 0; p + 1 < offsets.size(); ++p) {
      for (int64_t i = offsets[p]; i < offsets[p + 1]; ++i) {
        const int64_t target = i + shift;
        refs[static_cast<size_t>(i)] =
            target >= offsets[p] && target < offsets[p + 1] ? RowRef{0, target} : fallback(i);
      }
    }
  } else {
    // The shift-th non-null row before (lag) or after (lead) the current one, within the
    // partition: an index into the positions of the non-null rows.
    const ScratchVector<int64_t> counts = valid_counts(values, allocator);
    const ScratchVector<int64_t> positions = valid_positions(values, allocator);
    for (size_t p = 0; p + 1 < offsets.size(); ++p) {
      const int64_t first = counts[static_cast<size_t>(offsets[p])];
      const int64_t past = counts[static_cast<size_t>(offsets[p + 1])];
      for (int64_t i = offsets[p]; i < offsets[p + 1]; ++i) {
        const int64_t k = shift > 0 ? counts[static_cast<size_t>(i) + 1] + shift - 1
                                    : counts[static_cast<size_t>(i)] + shift;
        refs[static_cast<size_t>(i)] =
            k >= first && k < past ? RowRef{0, positions[static_cast<size_t>(k)]} : fallback(i);
      }
    }
  }
  return gather(values, defaults ? &defaults : nullptr, refs, allocator);
}

/// first, last and nth_value over each row's frame.
Array frame_value_function(WindowKind kind, const WindowCall& call, const Frames& frames,
                           WindowLayout& layout) {
  const int64_t rows = layout.rows();
  Allocator* allocator = layout.allocator();
  int64_t nth = 1;
  size_t flag_index = 1;
  if (kind == WindowKind::kNthValue) {
    check_argument_count(call, 2, 3);
    nth = integer_argument(call, 1, "offset");
    if (nth <= 0) {
      throw_argument_error(call.function, "VALUE_OUT_OF_RANGE",
                           "The offset must be between (0, 9223372036854775807] (current value = " +
                               std::to_string(nth) + ").");
    }
    flag_index = 2;
  } else {
    check_argument_count(call, 1, 2);
  }
  const bool skip_nulls = ignore_nulls(call, flag_index);
  const Array values = array_argument(call.arguments[0], rows, allocator);
  ScratchVector<RowRef> refs(static_cast<size_t>(rows), StlAllocator<RowRef>(allocator));
  const bool last = kind == WindowKind::kLast;
  if (!skip_nulls) {
    for (size_t i = 0; i < refs.size(); ++i) {
      const int64_t begin = frames.begin[i];
      const int64_t end = frames.end[i];
      if (begin < end && (last || nth <= end - begin)) {
        refs[i] = RowRef{0, last ? end - 1 : begin + nth - 1};
      }
    }
  } else {
    const ScratchVector<int64_t> counts = valid_counts(values, allocator);
    const ScratchVector<int64_t> positions = valid_positions(values, allocator);
    for (size_t i = 0; i < refs.size(); ++i) {
      if (frames.begin[i] >= frames.end[i]) {
        continue;
      }
      const int64_t first = counts[static_cast<size_t>(frames.begin[i])];
      const int64_t past = counts[static_cast<size_t>(frames.end[i])];
      if (first < past && (last || nth <= past - first)) {
        refs[i] = RowRef{0, positions[static_cast<size_t>(last ? past - 1 : first + nth - 1)]};
      }
    }
  }
  return gather(values, nullptr, refs, allocator);
}

/// Folds every row of each partition into one group and gives each row its partition's value.
Array whole_partition_aggregate(const PreparedAggregate& aggregate, WindowLayout& layout) {
  std::unique_ptr<GroupedAggregator> aggregator = aggregate.make_aggregator(layout.context());
  aggregator->resize(layout.num_partitions());
  aggregator->update(aggregate.arguments, layout.partition_ids());
  const Array per_partition = aggregator->finish();
  const std::span<const uint32_t> ids = layout.partition_ids();
  ScratchVector<int64_t> indices(ids.begin(), ids.end(), StlAllocator<int64_t>(layout.allocator()));
  return take(per_partition, std::span<const int64_t>(indices), layout.allocator());
}

/// count over frames from prefix counts of the counted rows.
Array count_over_frames(const PreparedAggregate& aggregate, const Frames& frames,
                        WindowLayout& layout) {
  const int64_t rows = layout.rows();
  const std::optional<RowWords> valid = rows_where_valid(aggregate.arguments, rows);
  ScratchVector<int64_t> counts(static_cast<size_t>(rows) + 1, 0,
                                StlAllocator<int64_t>(layout.allocator()));
  for (size_t i = 0; i < static_cast<size_t>(rows); ++i) {
    const bool counted = !valid || ((*valid)[i / 64] >> (i % 64) & 1) != 0;
    counts[i + 1] = counts[i] + (counted ? 1 : 0);
  }
  return fixed_array<int64_t>(int64(), rows, layout.allocator(), [&](int64_t i) {
    const auto row = static_cast<size_t>(i);
    return frames.begin[row] < frames.end[row] ? counts[static_cast<size_t>(frames.end[row])] -
                                                     counts[static_cast<size_t>(frames.begin[row])]
                                               : int64_t{0};
  });
}

/// sum of integers over frames from 128-bit prefix sums, which cannot overflow: a frame's sum
/// overflows (an error in ANSI mode, wrapping otherwise) only when it leaves BIGINT.
Array integer_sum_over_frames(const PreparedAggregate& aggregate, const Frames& frames,
                              WindowLayout& layout) {
  const int64_t rows = layout.rows();
  Allocator* allocator = layout.allocator();
  const Datum arguments[] = {aggregate.arguments[0]};
  const Datum wide = compute::call("cast", arguments, {{"to", int64()}}, &layout.context());
  const Array values = array_argument(wide, rows, allocator);
  const int64_t* raw = values.data()->values<int64_t>(1);
  ScratchVector<__int128> sums(static_cast<size_t>(rows) + 1, 0, StlAllocator<__int128>(allocator));
  const ScratchVector<int64_t> counts = valid_counts(values, allocator);
  for (size_t i = 0; i < static_cast<size_t>(rows); ++i) {
    sums[i + 1] = sums[i] + (values.is_null(static_cast<int64_t>(i)) ? 0 : raw[i]);
  }
  Int64Builder builder(allocator);
  builder.reserve(rows);
  const bool ansi = layout.context().ansi;
  for (size_t i = 0; i < static_cast<size_t>(rows); ++i) {
    const auto begin = static_cast<size_t>(frames.begin[i]);
    const auto end = static_cast<size_t>(frames.end[i]);
    if (begin >= end || counts[end] == counts[begin]) {
      builder.append_null();
      continue;
    }
    const __int128 sum = sums[end] - sums[begin];
    if (sum > INT64_MAX || sum < INT64_MIN) {
      if (ansi) {
        throw ArithmeticError("ARITHMETIC_OVERFLOW",
                              "long overflow in sum. Use 'try_sum' to tolerate overflow and "
                              "return NULL instead. " +
                                  std::string(kAnsiBypassHint));
      }
      builder.append(static_cast<int64_t>(static_cast<uint64_t>(sum)));
      continue;
    }
    builder.append(static_cast<int64_t>(sum));
  }
  return builder.finish();
}

/// The row holding the min (or max) of each row's frame, null for a frame without values: a
/// monotonic queue of candidate rows per partition, as frames only move forward.
template <bool kMax, typename Values>
ScratchVector<RowRef> min_max_rows(const Values& values, const Frames& frames,
                                   WindowLayout& layout) {
  Allocator* allocator = layout.allocator();
  const auto rows = static_cast<size_t>(layout.rows());
  ScratchVector<RowRef> refs(rows, StlAllocator<RowRef>(allocator));
  ScratchVector<int64_t> queue(rows, StlAllocator<int64_t>(allocator));
  const std::span<const int64_t> offsets = layout.partition_offsets();
  const auto before = [&](int64_t a, int64_t b) {
    return kMax ? spark_less(values[b], values[a]) : spark_less(values[a], values[b]);
  };
  for (size_t p = 0; p + 1 < offsets.size(); ++p) {
    size_t head = 0;
    size_t tail = 0;
    int64_t next = offsets[p];
    for (int64_t i = offsets[p]; i < offsets[p + 1]; ++i) {
      const auto row = static_cast<size_t>(i);
      for (; next < frames.end[row]; ++next) {
        if (values.is_null(next)) {
          continue;
        }
        // Rows that can no longer be the answer of a later frame leave the back.
        while (tail > head && !before(queue[tail - 1], next)) {
          --tail;
        }
        queue[tail++] = next;
      }
      while (tail > head && queue[head] < frames.begin[row]) {
        ++head;
      }
      if (tail > head) {
        refs[row] = RowRef{0, queue[head]};
      }
    }
  }
  return refs;
}

/// Typed access to the values of an array for `min_max_rows`.
template <typename View, typename T>
struct ValuesOf {
  View view;
  T operator[](int64_t i) const { return view.value(i); }
  bool is_null(int64_t i) const { return view.is_null(i); }
};

/// min or max over frames of numbers, dates, timestamps and strings; nullopt for other types.
std::optional<Array> min_max_over_frames(const PreparedAggregate& aggregate, const Frames& frames,
                                         WindowLayout& layout) {
  const std::string& name = aggregate.function->name();
  if ((name != "min" && name != "max") || aggregate.arguments[0].is_scalar()) {
    return std::nullopt;
  }
  const bool max = name == "max";
  const Array& values = aggregate.arguments[0].array();
  std::optional<ScratchVector<RowRef>> refs;
  const auto run = [&](auto typed) {
    refs = max ? min_max_rows<true>(typed, frames, layout)
               : min_max_rows<false>(typed, frames, layout);
  };
  switch (values.type_id()) {
    case TypeId::kInt8:
      run(ValuesOf<NumericArray<int8_t>, int8_t>{NumericArray<int8_t>(values)});
      break;
    case TypeId::kInt16:
      run(ValuesOf<NumericArray<int16_t>, int16_t>{NumericArray<int16_t>(values)});
      break;
    case TypeId::kInt32:
    case TypeId::kDate32:
      run(ValuesOf<NumericArray<int32_t>, int32_t>{NumericArray<int32_t>(values)});
      break;
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
      run(ValuesOf<NumericArray<int64_t>, int64_t>{NumericArray<int64_t>(values)});
      break;
    case TypeId::kFloat32:
      run(ValuesOf<NumericArray<float>, float>{NumericArray<float>(values)});
      break;
    case TypeId::kFloat64:
      run(ValuesOf<NumericArray<double>, double>{NumericArray<double>(values)});
      break;
    case TypeId::kString:
      run(ValuesOf<StringArray, std::string_view>{StringArray(values)});
      break;
    default:
      return std::nullopt;
  }
  return gather(values, nullptr, *refs, layout.allocator());
}

/// Any aggregate over frames, from a segment tree of its states: level 0 holds one state per
/// row, node j of level k the rows [j * 2^k, (j + 1) * 2^k), built by merging its two children.
/// A frame is the merge, from left to right, of at most two nodes per level.
class StateTree {
 public:
  StateTree(const PreparedAggregate& aggregate, WindowLayout& layout)
      : aggregate_(aggregate), layout_(layout) {
    const int64_t rows = layout.rows();
    Allocator* allocator = layout.allocator();
    std::unique_ptr<GroupedAggregator> level = aggregate.make_aggregator(layout.context());
    level->resize(rows);
    ScratchVector<uint32_t> ids(static_cast<size_t>(rows), StlAllocator<uint32_t>(allocator));
    for (size_t i = 0; i < ids.size(); ++i) {
      ids[i] = static_cast<uint32_t>(i);
    }
    level->update(aggregate.arguments, ids);
    for (int64_t size = rows;; size = (size + 1) / 2) {
      levels_.push_back(level->state());
      if (size <= 1) {
        break;
      }
      std::unique_ptr<GroupedAggregator> parent = aggregate.make_aggregator(layout.context());
      parent->resize((size + 1) / 2);
      for (size_t i = 0; i < static_cast<size_t>(size); ++i) {
        ids[i] = static_cast<uint32_t>(i / 2);
      }
      parent->merge(levels_.back(),
                    std::span<const uint32_t>(ids.data(), static_cast<size_t>(size)));
      level = std::move(parent);
    }
  }

  /// The aggregate over each row's frame.
  Array evaluate(const Frames& frames) {
    const int64_t rows = layout_.rows();
    Allocator* allocator = layout_.allocator();
    std::unique_ptr<GroupedAggregator> result = aggregate_.make_aggregator(layout_.context());
    result->resize(rows);
    const size_t num_levels = levels_.size();
    // Merges are gathered by (position in the frame's node list, level): each batch is one
    // `merge` call, and a frame's nodes are merged in order.
    constexpr size_t kMaxNodes = 2 * 64;
    std::vector<Batch> batches;
    size_t pending = 0;
    const auto flush = [&] {
      for (Batch& batch : batches) {
        if (batch.nodes.empty()) {
          continue;
        }
        std::vector<Array> state;
        for (const Array& column : levels_[batch.level]) {
          state.push_back(take(column, std::span<const int64_t>(batch.nodes), allocator));
        }
        result->merge(state, batch.groups);
        batch.nodes.clear();
        batch.groups.clear();
      }
      pending = 0;
    };
    for (size_t round = 0; round < kMaxNodes; ++round) {
      for (size_t level = 0; level < num_levels; ++level) {
        batches.push_back(Batch{level, ScratchVector<int64_t>(StlAllocator<int64_t>(allocator)),
                                ScratchVector<uint32_t>(StlAllocator<uint32_t>(allocator))});
      }
    }
    Node left[64];
    Node right[64];
    for (size_t row = 0; row < static_cast<size_t>(rows); ++row) {
      int64_t begin = frames.begin[row];
      int64_t end = frames.end[row];
      size_t lefts = 0;
      size_t rights = 0;
      for (size_t level = 0; begin < end; ++level, begin >>= 1, end >>= 1) {
        if ((begin & 1) != 0) {
          left[lefts++] = {level, begin++};
        }
        if ((end & 1) != 0) {
          right[rights++] = {level, --end};
        }
      }
      size_t round = 0;
      const auto add = [&](const Node& node) {
        Batch& batch = batches[round * num_levels + node.level];
        batch.nodes.push_back(node.index);
        batch.groups.push_back(static_cast<uint32_t>(row));
        ++round;
      };
      for (size_t i = 0; i < lefts; ++i) {
        add(left[i]);
      }
      for (size_t i = rights; i-- > 0;) {
        add(right[i]);
      }
      pending += round;
      if (pending >= kFlushNodes) {
        flush();
      }
    }
    flush();
    return result->finish();
  }

 private:
  struct Node {
    size_t level;
    int64_t index;
  };
  struct Batch {
    size_t level;
    ScratchVector<int64_t> nodes;
    ScratchVector<uint32_t> groups;
  };
  /// Node merges gathered before they are applied (bounds the memory of the batches).
  static constexpr size_t kFlushNodes = size_t{1} << 22;

  const PreparedAggregate& aggregate_;
  WindowLayout& layout_;
  std::vector<std::vector<Array>> levels_;
};

bool is_sum_of_integers(const PreparedAggregate& aggregate) {
  return aggregate.function->name() == "sum" && aggregate.types.size() == 1 &&
         aggregate.types[0]->is_integer() && aggregate.types[0]->id() != TypeId::kUInt64;
}

Array aggregate_function(const WindowCall& call, const WindowFrame& frame, bool whole_partition,
                         WindowLayout& layout, const FunctionRegistry& registry) {
  const AggregateCall aggregate_call{call.function, call.arguments, call.options};
  PreparedAggregate aggregate = prepare_aggregate(aggregate_call, layout.rows(), "evaluate_window",
                                                  layout.context(), registry);
  // Partial states of a window are merged in any grouping of rows (tree nodes may span
  // partitions): only a frame's result may overflow, as in a global aggregation.
  aggregate.options.insert_or_assign("grouped", false);
  if (whole_partition) {
    return whole_partition_aggregate(aggregate, layout);
  }
  const Frames frames = layout.frames(frame);
  if (aggregate.function->name() == "count") {
    return count_over_frames(aggregate, frames, layout);
  }
  if (is_sum_of_integers(aggregate)) {
    return integer_sum_over_frames(aggregate, frames, layout);
  }
  if (std::optional<Array> extreme = min_max_over_frames(aggregate, frames, layout)) {
    return *std::move(extreme);
  }
  StateTree tree(aggregate, layout);
  return tree.evaluate(frames);
}

Array evaluate_call(const WindowCall& given, WindowLayout& layout,
                    std::span<const TypePtr> key_types, const FunctionRegistry& registry) {
  WindowCall call = given;
  call.function = lower(given.function);
  check_argument_rows(call, layout.rows());
  const WindowKind kind = kind_of(call.function);
  if (kind != WindowKind::kAggregate && kind != WindowKind::kFirst && kind != WindowKind::kLast &&
      kind != WindowKind::kNthValue && !layout.ordered()) {
    throw AnalysisError("_LEGACY_ERROR_TEMP_1037",
                        "Window function " + call.function +
                            "() requires window to be ordered, please add ORDER BY clause. For "
                            "example SELECT " +
                            call.function +
                            "(value_expr) OVER (PARTITION BY window_partition ORDER BY "
                            "window_ordering) from table");
  }
  if (ranking(kind)) {
    check_argument_count(call, kind == WindowKind::kNtile ? 1 : 0,
                         kind == WindowKind::kNtile ? 1 : 0);
    check_own_frame(call, WindowFrame{FrameUnit::kRows, FrameBound::unbounded_preceding(),
                                      FrameBound::current_row()});
    return ranking_function(kind, call, layout);
  }
  if (kind == WindowKind::kLag || kind == WindowKind::kLead) {
    check_argument_count(call, 1, 4);
    const int64_t offset = call.arguments.size() > 1 ? integer_argument(call, 1, "offset") : 1;
    const int64_t shift = kind == WindowKind::kLead ? offset : -offset;
    if (shift < INT32_MIN || shift > INT32_MAX) {
      throw_argument_error(
          call.function, "VALUE_OUT_OF_RANGE",
          "The offset must be an INT (current value = " + std::to_string(offset) + ").");
    }
    const FrameBound at = FrameBound::rows(static_cast<int32_t>(shift));
    check_own_frame(call, WindowFrame{FrameUnit::kRows, at, at});
    return offset_function(kind, call, layout);
  }
  WindowFrame frame;
  if (call.frame) {
    frame = *call.frame;
  } else if (!layout.ordered()) {
    frame = WindowFrame{FrameUnit::kRows, FrameBound::unbounded_preceding(),
                        FrameBound::unbounded_following()};
  }
  check_window_frame(frame, key_types);
  const bool offsets =
      is(frame.start, FrameBound::Kind::kOffset) || is(frame.end, FrameBound::Kind::kOffset);
  // Without order keys every row of a partition is a peer of every other.
  const bool whole_partition = (is(frame.start, FrameBound::Kind::kUnboundedPreceding) &&
                                is(frame.end, FrameBound::Kind::kUnboundedFollowing)) ||
                               (!layout.ordered() && frame.unit == FrameUnit::kRange && !offsets);
  if (kind == WindowKind::kAggregate) {
    return aggregate_function(call, frame, whole_partition, layout, registry);
  }
  return frame_value_function(kind, call, layout.frames(frame), layout);
}

}  // namespace

std::vector<Array> evaluate_window(const WindowInput& input, std::span<const WindowCall> calls,
                                   ExecContext& context, const FunctionRegistry& registry) {
  WindowLayout layout(input, context);
  std::vector<TypePtr> key_types;
  for (const Array& key : input.order_keys) {
    key_types.push_back(key.type());
  }
  std::vector<Array> results;
  for (const WindowCall& call : calls) {
    results.push_back(evaluate_call(call, layout, key_types, registry));
  }
  return results;
}

}  // namespace bowstring::compute
