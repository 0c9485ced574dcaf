#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/exec_context.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/vector/sort.h"

namespace bowstring::compute {

/// ROWS frames count rows from the current one; RANGE frames compare order key values.
enum class FrameUnit : uint8_t { kRows, kRange };

/// One end of a window frame.
struct FrameBound {
  enum class Kind : uint8_t { kUnboundedPreceding, kCurrentRow, kOffset, kUnboundedFollowing };
  Kind kind = Kind::kCurrentRow;
  /// For `kOffset`: a scalar, the distance from the current row, negative before it (Spark's
  /// `rowsBetween(-2, 3)`: "2 PRECEDING" is -2, "3 FOLLOWING" is 3). ROWS: an integer. RANGE:
  /// a number for a numeric order key (integers for integer keys; integers, decimals or doubles
  /// for fractional ones), an integer count of days or a DURATION of whole days for a DATE key,
  /// a DURATION (Spark's DAY TO SECOND interval) for a TIMESTAMP key.
  Datum offset;

  static FrameBound unbounded_preceding() { return {Kind::kUnboundedPreceding, {}}; }
  static FrameBound current_row() { return {Kind::kCurrentRow, {}}; }
  static FrameBound unbounded_following() { return {Kind::kUnboundedFollowing, {}}; }
  static FrameBound at(Datum offset) { return {Kind::kOffset, std::move(offset)}; }
  /// `at` an INT offset of rows (or of an integer RANGE key).
  static FrameBound rows(int32_t offset);
};

struct WindowFrame {
  FrameUnit unit = FrameUnit::kRange;
  FrameBound start = FrameBound::unbounded_preceding();
  FrameBound end = FrameBound::current_row();
};

/// One window function call. `function` is one of the window functions
///   row_number(), rank(), dense_rank(), percent_rank(), cume_dist(), ntile(n),
///   lag(x[, offset[, default]]), lead(x[, offset[, default]]),
///   first_value / first(x), last_value / last(x), nth_value(x, n),
/// or any aggregate function of the registry ("sum", "count", "collect_list"...), computed over
/// each row's frame. Constant arguments (ntile's n, lag's offset, nth_value's n) are scalars;
/// lag/lead's default may be a scalar or an array. Options: `ignore_nulls` (bool) for lag, lead,
/// first, last and nth_value (first and last also take it as a boolean scalar second argument,
/// as Spark's `first(x, true)`); others pass through to the aggregate.
struct WindowCall {
  std::string function;
  std::vector<Datum> arguments;
  FunctionOptions options;
  /// Unset: Spark's default, RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW with order keys,
  /// the whole partition without. Ranking functions and lag/lead use their own frame (a frame
  /// given for them must be that one, as in Spark).
  std::optional<WindowFrame> frame;
};

/// The rows a window is evaluated over: already sorted by (partition keys, order keys).
struct WindowInput {
  /// Partition p holds rows [partition_offsets[p], partition_offsets[p + 1]); the first offset
  /// is 0, the last the number of rows, and they never decrease (empty partitions allowed).
  std::span<const int64_t> partition_offsets;
  /// The order keys (each as long as the input; none for an unordered window) and their order,
  /// by which the rows of each partition are sorted.
  std::span<const Array> order_keys;
  std::span<const SortKey> order;
};

/// Evaluates every call over `input`: one array per call, one value per input row, in input
/// order. Result types are Spark's: INT for row_number, rank, dense_rank and ntile, DOUBLE for
/// percent_rank and cume_dist, the argument's type for lag, lead, first, last and nth_value,
/// the aggregate's result type otherwise.
///
/// Aggregates over frames cost O(n log n) at most: a frame of the whole partition folds each
/// partition once; other frames are answered from a segment tree of aggregator states built and
/// merged with the `GroupedAggregator` interface (so every aggregate of the registry works);
/// count and sum of integers come from prefix counts and sums, min and max (of numbers, dates,
/// timestamps and strings) from monotonic queues, in O(n).
///
/// Throws `AnalysisError` with Spark's conditions: an invalid frame
/// (DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON, ..._INVALID_BOUND,
/// ..._UNACCEPTED_TYPE, ..._WITHOUT_FOLDABLE, DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER,
/// ..._WITHOUT_ORDER, ..._INVALID_TYPE), a ranking or offset function without order keys
/// (_LEGACY_ERROR_TEMP_1037) or with a frame of its own (_LEGACY_ERROR_TEMP_1036), invalid
/// constant arguments (DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE, ...NON_FOLDABLE_INPUT), unknown
/// functions (UNRESOLVED_ROUTINE); `InvalidArgument` for inconsistent input shapes.
std::vector<Array> evaluate_window(const WindowInput& input, std::span<const WindowCall> calls,
                                   ExecContext& context,
                                   const FunctionRegistry& registry = default_registry());

/// Checks `frame` against order keys of `order_key_types` as `evaluate_window` does (for an
/// analyzer that reports errors before running anything).
void check_window_frame(const WindowFrame& frame, std::span<const TypePtr> order_key_types);

}  // namespace bowstring::compute
