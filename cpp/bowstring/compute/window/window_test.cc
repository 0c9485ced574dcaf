#include "bowstring/compute/window/window.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/equal.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

using testing::error_message;
using testing::make_array;
using testing::make_decimal_array;
using testing::make_string_array;

using Ints = std::vector<std::optional<int64_t>>;

Datum int_scalar(int64_t value) {
  Int64Builder builder;
  builder.append(value);
  return Datum::scalar(builder.finish());
}

Datum int32_scalar(int32_t value) {
  Int32Builder builder;
  builder.append(value);
  return Datum::scalar(builder.finish());
}

Datum bool_scalar(bool value) { return Datum::scalar(make_array<bool>({value})); }

EqualOptions close_values() {
  EqualOptions options;
  options.nans_equal = true;
  options.approximate = true;
  options.absolute_tolerance = 1e-9;
  options.relative_tolerance = 1e-9;
  return options;
}

/// Random partitions sorted by an int64 order key (with nulls and ties), and value columns.
struct Data {
  std::vector<int64_t> offsets;
  Array key;
  SortKey order;
  Array ints;
  Array doubles;
  Array strings;
  int64_t rows() const { return offsets.back(); }
};

Data random_data(uint64_t seed, SortKey order, int64_t slice_offset = 0) {
  std::mt19937_64 random(seed);
  Data data;
  data.order = order;
  data.offsets.push_back(0);
  // Empty and one-row partitions among larger ones.
  const std::vector<int64_t> sizes = {0, 1, 7, 0, 23, 1, 40, 3, 60};
  Ints keys(static_cast<size_t>(slice_offset), 0);
  Ints ints(static_cast<size_t>(slice_offset), 0);
  std::vector<std::optional<double>> doubles(static_cast<size_t>(slice_offset), 0.0);
  std::vector<std::optional<std::string>> strings(static_cast<size_t>(slice_offset), "");
  for (int64_t size : sizes) {
    Ints partition;
    for (int64_t i = 0; i < size; ++i) {
      partition.push_back(random() % 6 == 0 ? std::nullopt
                                            : std::optional<int64_t>(random() % 15 - 4));
    }
    std::stable_sort(partition.begin(), partition.end(),
                     [&](const std::optional<int64_t>& a, const std::optional<int64_t>& b) {
                       if (!a || !b) {
                         return order.nulls_go_first() ? (!a && b) : (a && !b);
                       }
                       return order.ascending ? *a < *b : *a > *b;
                     });
    for (const auto& key : partition) {
      keys.push_back(key);
      ints.push_back(random() % 5 == 0 ? std::nullopt
                                       : std::optional<int64_t>(random() % 1000 - 500));
      doubles.push_back(random() % 5 == 0
                            ? std::nullopt
                            : std::optional<double>(static_cast<double>(random() % 1000) / 7.0));
      strings.push_back(random() % 5 == 0
                            ? std::nullopt
                            : std::optional<std::string>(std::string(
                                  1 + random() % 3, static_cast<char>('a' + random() % 5))));
    }
    data.offsets.push_back(data.offsets.back() + size);
  }
  const int64_t rows = data.offsets.back();
  data.key = make_array<int64_t>(keys).slice(slice_offset, rows);
  data.ints = make_array<int64_t>(ints).slice(slice_offset, rows);
  data.doubles = make_array<double>(doubles).slice(slice_offset, rows);
  data.strings = make_string_array(strings).slice(slice_offset, rows);
  return data;
}

std::optional<int64_t> key_at(const Array& key, int64_t row) {
  if (key.is_null(row)) {
    return std::nullopt;
  }
  return NumericArray<int64_t>(key).value(row);
}

/// The frame of `row` by its definition: the rows of its partition that satisfy each bound.
std::vector<int64_t> reference_frame(const Data& data, int64_t p, int64_t row,
                                     const WindowFrame& frame) {
  const auto key = key_at(data.key, row);
  const auto satisfies = [&](const FrameBound& bound, int64_t j, bool start) {
    const auto other = key_at(data.key, j);
    switch (bound.kind) {
      case FrameBound::Kind::kUnboundedPreceding:
        return start;
      case FrameBound::Kind::kUnboundedFollowing:
        return !start;
      case FrameBound::Kind::kCurrentRow:
        if (frame.unit == FrameUnit::kRows) {
          return start ? j >= row : j <= row;
        }
        return other == key || (start ? j >= row : j <= row);
      case FrameBound::Kind::kOffset:
        break;
    }
    const int64_t offset = NumericArray<int32_t>(bound.offset.array()).value(0);
    if (frame.unit == FrameUnit::kRows) {
      return start ? j >= row + offset : j <= row + offset;
    }
    // Compared in the sort order: a null bound (of a null key) equals the null keys only, and
    // nulls come before or after every number as the sort placed them.
    const std::optional<int64_t> target =
        key ? std::optional<int64_t>(data.order.ascending ? *key + offset : *key - offset)
            : std::nullopt;
    int order_of = 0;  // <0: `other` sorts before the bound, >0 after
    if (!other || !target) {
      order_of = !other && !target ? 0 : ((!other) == data.order.nulls_go_first() ? -1 : 1);
    } else {
      order_of = *other == *target ? 0 : ((*other < *target) == data.order.ascending ? -1 : 1);
    }
    return start ? order_of >= 0 : order_of <= 0;
  };
  std::vector<int64_t> rows;
  for (int64_t j = data.offsets[static_cast<size_t>(p)];
       j < data.offsets[static_cast<size_t>(p) + 1]; ++j) {
    if (satisfies(frame.start, j, true) && satisfies(frame.end, j, false)) {
      rows.push_back(j);
    }
  }
  return rows;
}

std::vector<WindowFrame> frames_to_test() {
  using B = FrameBound;
  return {
      {FrameUnit::kRows, B::rows(-2), B::rows(1)},
      {FrameUnit::kRows, B::unbounded_preceding(), B::current_row()},
      {FrameUnit::kRows, B::unbounded_preceding(), B::rows(2)},
      {FrameUnit::kRows, B::current_row(), B::unbounded_following()},
      {FrameUnit::kRows, B::rows(-3), B::rows(-1)},
      {FrameUnit::kRows, B::rows(1), B::rows(4)},
      {FrameUnit::kRows, B::unbounded_preceding(), B::unbounded_following()},
      {FrameUnit::kRange, B::unbounded_preceding(), B::current_row()},
      {FrameUnit::kRange, B::current_row(), B::current_row()},
      {FrameUnit::kRange, B::current_row(), B::unbounded_following()},
      {FrameUnit::kRange, B::rows(-2), B::rows(3)},
      {FrameUnit::kRange, B::unbounded_preceding(), B::rows(-1)},
      {FrameUnit::kRange, B::rows(1), B::unbounded_following()},
      {FrameUnit::kRange, B::rows(0), B::rows(0)},
  };
}

std::string describe(const WindowFrame& frame) {
  const auto bound = [](const FrameBound& b) {
    switch (b.kind) {
      case FrameBound::Kind::kUnboundedPreceding:
        return std::string("unbounded preceding");
      case FrameBound::Kind::kCurrentRow:
        return std::string("current row");
      case FrameBound::Kind::kUnboundedFollowing:
        return std::string("unbounded following");
      case FrameBound::Kind::kOffset:
        break;
    }
    return b.offset.to_string();
  };
  return std::string(frame.unit == FrameUnit::kRows ? "ROWS " : "RANGE ") + bound(frame.start) +
         " .. " + bound(frame.end);
}

std::vector<WindowCall> aggregate_calls(const Data& data, const WindowFrame& frame) {
  std::vector<WindowCall> calls;
  const auto add = [&](const std::string& name, std::vector<Datum> arguments,
                       FunctionOptions options = {}) {
    calls.push_back({name, std::move(arguments), std::move(options), frame});
  };
  add("sum", {data.ints});
  add("count", {data.ints});
  add("count", {});
  add("sum", {data.doubles});
  add("avg", {data.ints});
  add("min", {data.doubles});
  add("max", {data.ints});
  add("max", {data.strings});
  add("min", {data.strings});
  add("first", {data.strings});
  add("last", {data.ints});
  add("first", {data.ints, bool_scalar(true)});
  add("last_value", {data.strings}, {{"ignore_nulls", true}});
  add("nth_value", {data.strings, int_scalar(2)});
  add("nth_value", {data.ints, int_scalar(3), bool_scalar(true)});
  add("collect_list", {data.strings});
  add("stddev", {data.doubles});
  add("count_distinct", {data.ints});
  return calls;
}

/// What the registry's aggregate (or nth_value's definition) gives over `rows`.
Array reference_value(const WindowCall& call, const std::vector<int64_t>& rows) {
  ExecContext context;
  std::vector<Datum> arguments;
  for (const Datum& argument : call.arguments) {
    arguments.push_back(argument.is_scalar()
                            ? argument
                            : Datum(take(argument.array(), std::span<const int64_t>(rows))));
  }
  if (call.function == "count" && call.arguments.empty()) {
    // `call` folds no rows for a count without arguments: the frame's size is the answer.
    return make_array<int64_t>({static_cast<int64_t>(rows.size())});
  }
  if (call.function == "nth_value") {
    const Array values = arguments[0].array();
    const int64_t n = NumericArray<int64_t>(call.arguments[1].array()).value(0);
    const bool skip = call.arguments.size() > 2;
    std::vector<int64_t> candidates;
    for (int64_t i = 0; i < values.length(); ++i) {
      if (!skip || values.is_valid(i)) {
        candidates.push_back(i);
      }
    }
    if (static_cast<int64_t>(candidates.size()) < n) {
      return Datum::null_scalar(values.type()).array();
    }
    return values.slice(candidates[static_cast<size_t>(n - 1)], 1);
  }
  return compute::call(call.function, arguments, call.options, &context).array();
}

void expect_matches_reference(const Data& data, const std::vector<WindowCall>& calls,
                              const std::vector<Array>& results) {
  ASSERT_EQ(results.size(), calls.size());
  for (size_t c = 0; c < calls.size(); ++c) {
    const WindowCall& call = calls[c];
    ASSERT_EQ(results[c].length(), data.rows()) << call.function;
    results[c].validate_full();
    for (size_t p = 0; p + 1 < data.offsets.size(); ++p) {
      for (int64_t row = data.offsets[p]; row < data.offsets[p + 1]; ++row) {
        const std::vector<int64_t> frame =
            reference_frame(data, static_cast<int64_t>(p), row, *call.frame);
        const Array expected = reference_value(call, frame);
        const Array actual = results[c].slice(row, 1);
        ASSERT_TRUE(actual.equals(expected, close_values()))
            << call.function << " over " << describe(*call.frame) << ", row " << row
            << ": expected " << expected.to_string() << ", got " << actual.to_string();
      }
    }
  }
}

std::vector<Array> evaluate(const Data& data, std::span<const WindowCall> calls) {
  ExecContext context;
  const Array keys[] = {data.key};
  const SortKey order[] = {data.order};
  return evaluate_window({data.offsets, keys, order}, calls, context);
}

TEST(WindowAggregates, EveryFrameKindMatchesTheReference) {
  const SortKey orders[] = {
      {true, std::nullopt}, {false, std::nullopt}, {true, false}, {false, true}};
  uint64_t seed = 1;
  for (const SortKey& order : orders) {
    const Data data = random_data(seed, order, seed % 2 == 0 ? 5 : 0);
    ++seed;
    for (const WindowFrame& frame : frames_to_test()) {
      SCOPED_TRACE(describe(frame) + (order.ascending ? " ascending" : " descending"));
      const std::vector<WindowCall> calls = aggregate_calls(data, frame);
      expect_matches_reference(data, calls, evaluate(data, calls));
    }
  }
}

TEST(WindowAggregates, DefaultFramesFollowSpark) {
  const Data data = random_data(11, {});
  // With order keys: RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW (peers included).
  std::vector<WindowCall> calls = {{"sum", {data.ints}, {}, std::nullopt}};
  const std::vector<Array> ordered = evaluate(data, calls);
  calls[0].frame = WindowFrame{};
  expect_matches_reference(data, calls, ordered);
  // Without: the whole partition.
  ExecContext context;
  calls[0].frame.reset();
  const std::vector<Array> unordered = evaluate_window({data.offsets, {}, {}}, calls, context);
  calls[0].frame = WindowFrame{FrameUnit::kRows, FrameBound::unbounded_preceding(),
                               FrameBound::unbounded_following()};
  expect_matches_reference(data, calls, unordered);
}

TEST(WindowAggregates, RangeWithoutOrderKeysTakesTheWholePartition) {
  const Data data = random_data(12, {});
  ExecContext context;
  const std::vector<WindowCall> calls = {{"sum", {data.ints}, {}, WindowFrame{}}};
  const std::vector<Array> results = evaluate_window({data.offsets, {}, {}}, calls, context);
  std::vector<WindowCall> whole = calls;
  whole[0].frame = WindowFrame{FrameUnit::kRows, FrameBound::unbounded_preceding(),
                               FrameBound::unbounded_following()};
  expect_matches_reference(data, whole, results);
}

/// Ranking functions by their definitions.
TEST(WindowRanking, MatchesDefinitions) {
  for (const SortKey order : {SortKey{true, std::nullopt}, SortKey{false, false}}) {
    const Data data = random_data(21, order, 3);
    const std::vector<WindowCall> calls = {
        {"row_number", {}, {}, std::nullopt},
        {"rank", {}, {}, std::nullopt},
        {"dense_rank", {}, {}, std::nullopt},
        {"percent_rank", {}, {}, std::nullopt},
        {"cume_dist", {}, {}, std::nullopt},
        {"ntile", {int_scalar(4)}, {}, std::nullopt},
        {"ntile", {int_scalar(100)}, {}, std::nullopt},
    };
    const std::vector<Array> results = evaluate(data, calls);
    for (size_t p = 0; p + 1 < data.offsets.size(); ++p) {
      const int64_t begin = data.offsets[p];
      const int64_t size = data.offsets[p + 1] - begin;
      int32_t dense = 0;
      for (int64_t row = begin; row < begin + size; ++row) {
        const auto key = key_at(data.key, row);
        int64_t before = 0;
        int64_t through = 0;
        for (int64_t j = begin; j < begin + size; ++j) {
          const bool peer = key_at(data.key, j) == key;
          before += j < row && !peer ? 1 : 0;
          through += j <= row || peer ? 1 : 0;
        }
        if (row == begin || key_at(data.key, row - 1) != key) {
          ++dense;
        }
        const auto int_at = [&](size_t c) { return NumericArray<int32_t>(results[c]).value(row); };
        const auto double_at = [&](size_t c) {
          return NumericArray<double>(results[c]).value(row);
        };
        EXPECT_EQ(int_at(0), row - begin + 1);
        EXPECT_EQ(int_at(1), before + 1);
        EXPECT_EQ(int_at(2), dense);
        EXPECT_DOUBLE_EQ(
            double_at(3),
            size == 1 ? 0.0 : static_cast<double>(before) / static_cast<double>(size - 1));
        EXPECT_DOUBLE_EQ(double_at(4), static_cast<double>(through) / static_cast<double>(size));
        // ntile: bucket sizes differ by at most one, larger ones first, in row order.
        for (const auto& [c, buckets] : {std::pair<size_t, int64_t>{5, 4}, {6, 100}}) {
          const int64_t small = size / buckets;
          const int64_t large_count = size % buckets;
          const int64_t r = row - begin;
          const int64_t expected = r < large_count * (small + 1)
                                       ? r / (small + 1) + 1
                                       : large_count + (r - large_count * (small + 1)) / small + 1;
          EXPECT_EQ(int_at(c), expected);
        }
      }
    }
    EXPECT_TRUE(types_equal(results[0].type(), int32()));
    EXPECT_TRUE(types_equal(results[3].type(), float64()));
  }
}

TEST(WindowOffsets, LagAndLeadMatchDefinitions) {
  const Data data = random_data(31, {}, 2);
  const Datum default_value = Datum::scalar(make_string_array({"zz"}));
  const std::vector<WindowCall> calls = {
      {"lag", {data.strings}, {}, std::nullopt},
      {"lead", {data.strings, int_scalar(2)}, {}, std::nullopt},
      {"lag", {data.strings, int_scalar(2), default_value}, {}, std::nullopt},
      {"lead", {data.strings, int_scalar(-1), default_value}, {}, std::nullopt},
      {"lag", {data.strings, int_scalar(2), default_value, bool_scalar(true)}, {}, std::nullopt},
      {"lead", {data.strings, int_scalar(1)}, {{"ignore_nulls", true}}, std::nullopt},
      {"lag", {data.strings, int_scalar(0)}, {}, std::nullopt},
      {"lead", {data.ints, int_scalar(1), data.ints}, {}, std::nullopt},
  };
  const std::vector<Array> results = evaluate(data, calls);
  const auto value = [](const Array& array, int64_t row) {
    return array.slice(row, 1).to_string();
  };
  for (size_t c = 0; c < calls.size(); ++c) {
    const WindowCall& call = calls[c];
    const Array values = call.arguments[0].array();
    const int64_t offset =
        call.arguments.size() > 1 ? NumericArray<int64_t>(call.arguments[1].array()).value(0) : 1;
    const int64_t shift = call.function == "lead" ? offset : -offset;
    const bool skip = call.arguments.size() > 3 || !call.options.empty();
    for (size_t p = 0; p + 1 < data.offsets.size(); ++p) {
      for (int64_t row = data.offsets[p]; row < data.offsets[p + 1]; ++row) {
        std::optional<int64_t> target;
        if (!skip || shift == 0) {
          if (row + shift >= data.offsets[p] && row + shift < data.offsets[p + 1]) {
            target = row + shift;
          }
        } else {
          int64_t remaining = shift > 0 ? shift : -shift;
          for (int64_t j = row + (shift > 0 ? 1 : -1);
               j >= data.offsets[p] && j<data.offsets[p + 1]; j += shift> 0 ? 1 : -1) {
            if (values.is_valid(j) && --remaining == 0) {
              target = j;
              break;
            }
          }
        }
        std::string expected;
        if (target) {
          expected = value(values, *target);
        } else if (call.arguments.size() > 2) {
          const Datum& fallback = call.arguments[2];
          expected = value(fallback.array(), fallback.is_scalar() ? 0 : row);
        } else {
          expected = value(Datum::null_scalar(values.type()).array(), 0);
        }
        ASSERT_EQ(value(results[c], row), expected) << "call " << c << ", row " << row;
      }
    }
  }
}

/// Examples of the PySpark documentation.
TEST(WindowSparkExamples, RankingFunctions) {
  // df = [1, 1, 2, 3, 3, 4]: rank, dense_rank, percent_rank over (ORDER BY value).
  ExecContext context;
  const Array values = make_array<int64_t>({1, 1, 2, 3, 3, 4});
  const std::vector<int64_t> offsets = {0, 6};
  const Array keys[] = {values};
  const SortKey order[] = {SortKey{}};
  const std::vector<WindowCall> calls = {{"rank", {}, {}, std::nullopt},
                                         {"dense_rank", {}, {}, std::nullopt},
                                         {"percent_rank", {}, {}, std::nullopt}};
  const std::vector<Array> results = evaluate_window({offsets, keys, order}, calls, context);
  EXPECT_TRUE(results[0].equals(make_array<int32_t>({1, 1, 3, 4, 4, 6})));
  EXPECT_TRUE(results[1].equals(make_array<int32_t>({1, 1, 2, 3, 3, 4})));
  EXPECT_TRUE(
      results[2].equals(make_array<double>({0.0, 0.0, 0.4, 0.6, 0.6, 1.0}), close_values()));
  // cume_dist over [1, 2, 3, 3, 4].
  const Array cume_keys[] = {make_array<int64_t>({1, 2, 3, 3, 4})};
  const std::vector<int64_t> cume_offsets = {0, 5};
  const std::vector<WindowCall> cume = {{"cume_dist", {}, {}, std::nullopt}};
  EXPECT_TRUE(evaluate_window({cume_offsets, cume_keys, order}, cume, context)[0].equals(
      make_array<double>({0.2, 0.4, 0.8, 0.8, 1.0}), close_values()));
  // ntile(2) over (PARTITION BY c1 ORDER BY c2): a: 1, 2, 3 -> 1, 1, 2; b: 2, 8 -> 1, 2.
  const Array ntile_keys[] = {make_array<int64_t>({1, 2, 3, 2, 8})};
  const std::vector<int64_t> partitions = {0, 3, 5};
  const std::vector<WindowCall> ntile = {{"ntile", {int_scalar(2)}, {}, std::nullopt}};
  EXPECT_TRUE(evaluate_window({partitions, ntile_keys, order}, ntile, context)[0].equals(
      make_array<int32_t>({1, 1, 2, 1, 2})));
}

TEST(WindowSparkExamples, LagLeadAndRunningSum) {
  // df = [("a", 1), ("a", 2), ("a", 3), ("b", 8), ("b", 2)], partitioned by c1 ordered by c2.
  ExecContext context;
  const Array c2 = make_array<int64_t>({1, 2, 3, 2, 8});
  const std::vector<int64_t> partitions = {0, 3, 5};
  const Array keys[] = {c2};
  const SortKey order[] = {SortKey{}};
  const std::vector<WindowCall> calls = {
      {"lag", {c2, int_scalar(1)}, {}, std::nullopt},
      {"lag", {c2, int_scalar(1), int_scalar(0)}, {}, std::nullopt},
      {"lead", {c2, int_scalar(2), int_scalar(-1)}, {}, std::nullopt},
      {"sum", {c2}, {}, std::nullopt},
  };
  const std::vector<Array> results = evaluate_window({partitions, keys, order}, calls, context);
  EXPECT_TRUE(results[0].equals(make_array<int64_t>({std::nullopt, 1, 2, std::nullopt, 2})));
  EXPECT_TRUE(results[1].equals(make_array<int64_t>({0, 1, 2, 0, 2})));
  EXPECT_TRUE(results[2].equals(make_array<int64_t>({3, -1, -1, -1, -1})));
  EXPECT_TRUE(results[3].equals(make_array<int64_t>({1, 3, 6, 2, 10})));
}

/// A RANGE frame over one key of `key` with offsets `start` and `end`, summing `values`.
Array range_sum(const Array& key, SortKey order, Datum start, Datum end, const Array& values) {
  ExecContext context;
  const std::vector<int64_t> offsets = {0, key.length()};
  const Array keys[] = {key};
  const SortKey orders[] = {order};
  const std::vector<WindowCall> calls = {
      {"sum",
       {values},
       {},
       WindowFrame{FrameUnit::kRange, FrameBound::at(std::move(start)),
                   FrameBound::at(std::move(end))}}};
  return evaluate_window({offsets, keys, orders}, calls, context)[0];
}

TEST(WindowRangeOffsets, DecimalDateAndTimestampKeys) {
  const Array values = make_array<int64_t>({1, 10, 100, 1000, 10000});
  // decimal(5, 2) keys, offsets 0.50 PRECEDING .. 0 FOLLOWING (decimal and integer offsets).
  const Array prices =
      make_decimal_array(decimal128(5, 2), {"1.00", "1.25", "1.50", "2.75", std::nullopt});
  const Datum half_before = Datum::scalar(make_decimal_array(decimal128(3, 2), {"-0.50"}));
  EXPECT_TRUE(range_sum(prices, {true, false}, half_before, int_scalar(0), values)
                  .equals(make_array<int64_t>({1, 11, 111, 1000, 10000})));
  // Descending: preceding rows have larger keys.
  const Array descending =
      make_decimal_array(decimal128(5, 2), {"2.75", "1.50", "1.25", "1.00", std::nullopt});
  EXPECT_TRUE(range_sum(descending, {false, std::nullopt}, half_before, int_scalar(0), values)
                  .equals(make_array<int64_t>({1, 10, 110, 1110, 10000})));
  // Dates with a number of days: 1 PRECEDING .. 1 FOLLOWING.
  const Array days = make_array<int32_t>(date32(), {18000, 18001, 18003, 18004, 18010});
  EXPECT_TRUE(range_sum(days, {}, int32_scalar(-1), int32_scalar(1), values)
                  .equals(make_array<int64_t>({11, 11, 1100, 1100, 10000})));
  // Timestamps (microseconds) with a DAY TO SECOND interval of 90 seconds, and one in seconds.
  const int64_t minute = 60'000'000;
  const Array times = make_array<int64_t>(timestamp(TimeUnit::kMicro, "UTC"),
                                          {0, minute, 2 * minute, 4 * minute, std::nullopt});
  const Datum ninety_seconds =
      Datum::scalar(make_array<int64_t>(duration(TimeUnit::kMicro), {-90'000'000}));
  const Datum zero = Datum::scalar(make_array<int64_t>(duration(TimeUnit::kSecond), {0}));
  EXPECT_TRUE(range_sum(times, {true, false}, ninety_seconds, zero, values)
                  .equals(make_array<int64_t>({1, 11, 110, 1000, 10000})));
  // Doubles with NaN (its own peer group, the largest) and a double offset.
  const Array reals = make_array<double>({-1.5, 0.0, 0.5, std::nan(""), std::nan("")});
  const Datum one = Datum::scalar(make_array<double>({1.0}));
  const Datum none = Datum::scalar(make_array<double>({0.0}));
  EXPECT_TRUE(range_sum(reals, {}, none, one, values)
                  .equals(make_array<int64_t>({1, 110, 100, 11000, 11000})));
}

TEST(WindowRangeOffsets, NullKeysFormTheirOwnFrame) {
  const Array values = make_array<int64_t>({1, 10, 100, 1000});
  const Array keys = make_array<int64_t>({std::nullopt, std::nullopt, 5, 6});
  EXPECT_TRUE(range_sum(keys, {true, true}, int_scalar(-10), int_scalar(10), values)
                  .equals(make_array<int64_t>({11, 11, 1100, 1100})));
}

TEST(WindowAggregates, IntegerSumOverflowRaisesInAnsiMode) {
  const Array values = make_array<int64_t>({INT64_MAX, 1, -5});
  const Array keys[] = {make_array<int64_t>({1, 2, 3})};
  const SortKey order[] = {SortKey{}};
  const std::vector<int64_t> offsets = {0, 3};
  const std::vector<WindowCall> calls = {
      {"sum",
       {values},
       {},
       WindowFrame{FrameUnit::kRows, FrameBound::rows(0), FrameBound::rows(1)}}};
  ExecContext context;
  EXPECT_NE(error_message<ArithmeticError>([&] {
              evaluate_window({offsets, keys, order}, calls, context);
            }).find("long overflow"),
            std::string::npos);
  context.ansi = false;
  EXPECT_TRUE(evaluate_window({offsets, keys, order}, calls, context)[0].equals(
      make_array<int64_t>({INT64_MIN, -4, -5})));
}

TEST(WindowAggregates, MinAndMaxPlaceNaNAboveEveryNumber) {
  ExecContext context;
  const Array values = make_array<double>({1.0, std::nan(""), 3.0, 2.0, std::nullopt});
  const Array keys[] = {make_array<int64_t>({1, 2, 3, 4, 5})};
  const SortKey order[] = {SortKey{}};
  const std::vector<int64_t> offsets = {0, 5};
  const std::optional<WindowFrame> frame =
      WindowFrame{FrameUnit::kRows, FrameBound::rows(-1), FrameBound::current_row()};
  const std::vector<WindowCall> calls = {{"max", {values}, {}, frame},
                                         {"min", {values}, {}, frame}};
  const std::vector<Array> results = evaluate_window({offsets, keys, order}, calls, context);
  EXPECT_TRUE(results[0].equals(make_array<double>({1.0, std::nan(""), std::nan(""), 3.0, 2.0}),
                                close_values()));
  EXPECT_TRUE(results[1].equals(make_array<double>({1.0, 1.0, 3.0, 2.0, 2.0}), close_values()));
}

TEST(WindowErrors, InvalidFramesAndCalls) {
  const Data data = random_data(41, {});
  const auto fails = [&](const WindowCall& call) {
    const std::vector<WindowCall> calls = {call};
    try {
      evaluate(data, calls);
    } catch (const AnalysisError& error) {
      return std::string(error.condition());
    }
    return std::string("no error");
  };
  using B = FrameBound;
  const auto frame = [](FrameUnit unit, FrameBound start, FrameBound end) {
    return std::optional<WindowFrame>(WindowFrame{unit, std::move(start), std::move(end)});
  };
  EXPECT_EQ(fails({"sum", {data.ints}, {}, frame(FrameUnit::kRows, B::rows(2), B::rows(1))}),
            "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON");
  EXPECT_EQ(fails({"sum", {data.ints}, {}, frame(FrameUnit::kRange, B::rows(2), B::rows(-1))}),
            "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON");
  EXPECT_EQ(fails({"sum",
                   {data.ints},
                   {},
                   frame(FrameUnit::kRows, B::unbounded_following(), B::current_row())}),
            "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_INVALID_BOUND");
  EXPECT_EQ(fails({"sum",
                   {data.ints},
                   {},
                   frame(FrameUnit::kRows, B::at(Datum::scalar(make_array<double>({1.5}))),
                         B::current_row())}),
            "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE");
  EXPECT_EQ(
      fails({"sum", {data.ints}, {}, frame(FrameUnit::kRows, B::at(data.ints), B::current_row())}),
      "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WITHOUT_FOLDABLE");
  EXPECT_EQ(fails({"sum",
                   {data.ints},
                   {},
                   frame(FrameUnit::kRange, B::at(Datum::scalar(make_string_array({"x"}))),
                         B::current_row())}),
            "DATATYPE_MISMATCH.RANGE_FRAME_INVALID_TYPE");
  EXPECT_EQ(fails({"rank", {}, {}, frame(FrameUnit::kRows, B::rows(-1), B::rows(1))}),
            "_LEGACY_ERROR_TEMP_1036");
  EXPECT_EQ(fails({"ntile", {int_scalar(0)}, {}, std::nullopt}),
            "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE");
  EXPECT_EQ(fails({"ntile", {data.ints}, {}, std::nullopt}),
            "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT");
  EXPECT_EQ(fails({"nth_value", {data.ints, int_scalar(0)}, {}, std::nullopt}),
            "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE");
  EXPECT_EQ(fails({"no_such_function", {data.ints}, {}, std::nullopt}), "UNRESOLVED_ROUTINE");

  // Without order keys: ranking and offset functions, and RANGE offsets, are refused.
  ExecContext context;
  const auto unordered = [&](const WindowCall& call) {
    const std::vector<WindowCall> calls = {call};
    try {
      evaluate_window({data.offsets, {}, {}}, calls, context);
    } catch (const AnalysisError& error) {
      return std::string(error.condition());
    }
    return std::string("no error");
  };
  EXPECT_EQ(unordered({"row_number", {}, {}, std::nullopt}), "_LEGACY_ERROR_TEMP_1037");
  EXPECT_EQ(unordered({"lag", {data.ints}, {}, std::nullopt}), "_LEGACY_ERROR_TEMP_1037");
  EXPECT_EQ(unordered({"sum", {data.ints}, {}, frame(FrameUnit::kRange, B::rows(-1), B::rows(1))}),
            "DATATYPE_MISMATCH.RANGE_FRAME_WITHOUT_ORDER");
  // Several order keys with a RANGE offset.
  const Array keys[] = {data.key, data.ints};
  const SortKey orders[] = {SortKey{}, SortKey{}};
  const std::vector<WindowCall> multi = {
      {"sum", {data.ints}, {}, frame(FrameUnit::kRange, B::rows(-1), B::current_row())}};
  EXPECT_NE(error_message<AnalysisError>([&] {
              evaluate_window({data.offsets, keys, orders}, multi, context);
            }).find("RANGE_FRAME_MULTI_ORDER"),
            std::string::npos);
}

TEST(WindowErrors, InconsistentInputShapes) {
  ExecContext context;
  const Array key = make_array<int64_t>({1, 2, 3});
  const Array keys[] = {key};
  const SortKey order[] = {SortKey{}};
  const std::vector<WindowCall> calls = {{"row_number", {}, {}, std::nullopt}};
  const std::vector<int64_t> too_long = {0, 4};
  EXPECT_THROW(evaluate_window({too_long, keys, order}, calls, context), InvalidArgument);
  const std::vector<int64_t> decreasing = {0, 2, 1, 3};
  EXPECT_THROW(evaluate_window({decreasing, keys, order}, calls, context), InvalidArgument);
  const std::vector<int64_t> fine = {0, 3};
  const std::vector<WindowCall> short_argument = {
      {"sum", {make_array<int64_t>({1})}, {}, std::nullopt}};
  EXPECT_THROW(evaluate_window({fine, keys, order}, short_argument, context), InvalidArgument);
}

TEST(WindowAggregates, EmptyInput) {
  ExecContext context;
  const std::vector<int64_t> offsets = {0};
  const Array keys[] = {make_array<int64_t>(Ints{})};
  const SortKey order[] = {SortKey{}};
  const std::vector<WindowCall> calls = {
      {"row_number", {}, {}, std::nullopt},
      {"sum", {make_array<int64_t>(Ints{})}, {}, std::nullopt},
      {"avg",
       {make_array<int64_t>(Ints{})},
       {},
       WindowFrame{FrameUnit::kRows, FrameBound::rows(-1), FrameBound::rows(1)}}};
  for (const Array& result : evaluate_window({offsets, keys, order}, calls, context)) {
    EXPECT_EQ(result.length(), 0);
  }
}

}  // namespace
}  // namespace bowstring::compute
