#include "bowstring/compute/aggregate/group_by.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bowstring/array/equal.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring::compute {
namespace {

using testing::make_array;
using testing::make_decimal_array;
using testing::make_dictionary_array;
using testing::make_list_array;
using testing::make_string_array;

TEST(GroupBy, KeysThenAggregatesInOrderOfFirstAppearance) {
  const Array keys[] = {make_string_array({"b", "a", "b", std::nullopt, "a"})};
  const Array values = make_array<int64_t>({1, 2, 3, 4, std::nullopt});
  const AggregateCall aggregates[] = {
      {"sum", {values}, {}},
      {"count", {}, {}},
      {"max", {values}, {}},
      {"avg", {values}, {}},
  };
  ExecContext context;
  const std::vector<Array> result = group_by(keys, aggregates, context);
  ASSERT_EQ(result.size(), 5u);
  EXPECT_TRUE(result[0].equals(make_string_array({"b", "a", std::nullopt})));
  EXPECT_TRUE(result[1].equals(make_array<int64_t>({4, 2, 4})));
  EXPECT_TRUE(result[2].equals(make_array<int64_t>({2, 2, 1})));
  EXPECT_TRUE(result[3].equals(make_array<int64_t>({3, 2, 4})));
  EXPECT_TRUE(result[4].equals(make_array<double>({2.0, 2.0, 4.0})));
}

TEST(GroupBy, SeveralKeysAndEmptyInput) {
  const Array first = make_array<int32_t>({1, 1, 2, 1});
  const Array second = make_string_array({"x", "y", "x", "x"});
  const Array keys[] = {first, second};
  const AggregateCall aggregates[] = {{"count", {first}, {}}};
  ExecContext context;
  const std::vector<Array> result = group_by(keys, aggregates, context);
  EXPECT_TRUE(result[0].equals(make_array<int32_t>({1, 1, 2})));
  EXPECT_TRUE(result[1].equals(make_string_array({"x", "y", "x"})));
  EXPECT_TRUE(result[2].equals(make_array<int64_t>({2, 1, 1})));

  const Array empty_keys[] = {first.slice(0, 0)};
  const AggregateCall empty_aggregates[] = {{"sum", {first.slice(0, 0)}, {}}};
  const std::vector<Array> empty = group_by(empty_keys, empty_aggregates, context);
  EXPECT_EQ(empty[0].length(), 0);
  EXPECT_EQ(empty[1].length(), 0);
}

TEST(GroupBy, Errors) {
  const Array keys[] = {make_array<int32_t>({1, 2})};
  ExecContext context;
  const AggregateCall unknown[] = {{"summ", {keys[0]}, {}}};
  EXPECT_THROW(group_by(keys, unknown, context), AnalysisError);
  const AggregateCall wrong_length[] = {{"sum", {make_array<int32_t>({1})}, {}}};
  EXPECT_THROW(group_by(keys, wrong_length, context), InvalidArgument);
  const AggregateCall wrong_arity[] = {{"sum", {}, {}}};
  EXPECT_THROW(group_by(keys, wrong_arity, context), AnalysisError);
  EXPECT_THROW(group_by({}, unknown, context), InvalidArgument);
}

/// Random columns of `rows` rows, a tenth null, with about `distinct` values.
struct RandomColumns {
  RandomColumns(int64_t rows, int64_t distinct) {
    std::mt19937_64 random(42);
    std::vector<std::optional<int64_t>> ints;
    std::vector<std::optional<double>> doubles;
    std::vector<std::optional<std::string>> strings;
    std::vector<std::optional<std::string>> decimals;
    std::vector<std::optional<bool>> flags;
    std::vector<std::optional<int64_t>> indices;
    std::vector<std::optional<std::vector<std::optional<int32_t>>>> lists;
    for (int64_t i = 0; i < rows; ++i) {
      const bool null = random() % 10 == 0;
      const auto value = static_cast<int64_t>(random() % static_cast<uint64_t>(distinct)) - 3;
      ints.push_back(null ? std::nullopt : std::optional<int64_t>(value));
      // Whole numbers, so that sums do not depend on the order of the additions.
      doubles.push_back(random() % 10 == 0 ? std::nullopt
                                           : std::optional<double>(static_cast<double>(value)));
      strings.push_back(null ? std::nullopt
                             : std::optional<std::string>("s" + std::to_string(value)));
      decimals.push_back(random() % 10 == 0
                             ? std::nullopt
                             : std::optional<std::string>(std::to_string(value) + ".25"));
      flags.push_back(random() % 10 == 0 ? std::nullopt : std::optional<bool>(value % 3 == 0));
      indices.push_back(null ? std::nullopt : std::optional<int64_t>(value + 3));
      lists.push_back(null ? std::nullopt
                           : std::optional<std::vector<std::optional<int32_t>>>(
                                 {{static_cast<int32_t>(value % 4), std::nullopt}}));
    }
    std::vector<std::optional<std::string>> words;
    for (int64_t v = 0; v < distinct; ++v) {
      words.push_back("w" + std::to_string(v % 7));
    }
    int_column = make_array<int64_t>(ints);
    double_column = make_array<double>(doubles);
    string_column = make_string_array(strings);
    decimal_column = make_decimal_array(decimal128(12, 2), decimals);
    bool_column = make_array<bool>(flags);
    dictionary_column = make_dictionary_array(int32(), indices, make_string_array(words));
    list_column = make_list_array<int32_t>(lists);
  }
  Array int_column;
  Array double_column;
  Array string_column;
  Array decimal_column;
  Array bool_column;
  Array dictionary_column;
  Array list_column;
};

/// Every aggregate kind over the columns.
std::vector<AggregateCall> every_aggregate(const RandomColumns& columns) {
  const Datum ints(columns.int_column);
  const Datum doubles(columns.double_column);
  const Datum decimals(columns.decimal_column);
  const Datum strings(columns.string_column);
  const Datum flags(columns.bool_column);
  return {
      {"count", {}, {}},
      {"count", {doubles}, {}},
      {"sum", {ints}, {}},
      {"try_sum", {ints}, {}},
      {"sum", {doubles}, {}},
      {"sum", {decimals}, {}},
      {"avg", {ints}, {}},
      {"avg", {decimals}, {}},
      {"try_avg", {decimals}, {}},
      {"min", {ints}, {}},
      {"max", {strings}, {}},
      {"max", {decimals}, {}},
      {"first", {doubles}, {}},
      {"last", {doubles}, {{"ignore_nulls", true}}},
      {"any_value", {strings}, {}},
      {"stddev_samp", {doubles}, {}},
      {"var_pop", {ints}, {}},
      {"collect_list", {strings}, {}},
      {"collect_set", {ints}, {}},
      {"count_distinct", {doubles, strings}, {}},
      {"approx_count_distinct", {ints}, {}},
      {"bool_and", {flags}, {}},
      {"bool_or", {flags}, {}},
  };
}

/// NaN equals NaN, and floating-point results are compared to within rounding.
EqualOptions same_values() {
  EqualOptions options;
  options.nans_equal = true;
  options.approximate = true;
  options.absolute_tolerance = 1e-9;
  return options;
}

TEST(GroupBy, SeveralThreadsGiveTheResultOfOne) {
  for (const int64_t distinct : {5, 300, 5000}) {
    const RandomColumns columns(3000, distinct);
    const std::vector<AggregateCall> aggregates = every_aggregate(columns);
    const std::vector<std::vector<Array>> key_sets = {
        {columns.int_column},
        {columns.string_column},
        {columns.double_column},
        {columns.dictionary_column},
        {columns.list_column},
        {columns.string_column, columns.int_column},
        {columns.int_column.slice(7, 2000)},
    };
    for (const std::vector<Array>& keys : key_sets) {
      const int64_t rows = keys[0].length();
      std::vector<AggregateCall> sliced = aggregates;
      for (AggregateCall& aggregate : sliced) {
        for (Datum& argument : aggregate.arguments) {
          argument = Datum(argument.array().slice(3000 - rows, rows));
        }
      }
      ExecContext context;
      GroupByOptions one;
      one.threads = 1;
      const std::vector<Array> expected = group_by(keys, sliced, context, default_registry(), one);
      for (const int threads : {2, 3}) {
        GroupByOptions several;
        several.threads = threads;
        several.min_rows_per_thread = 100;
        const std::vector<Array> result =
            group_by(keys, sliced, context, default_registry(), several);
        ASSERT_EQ(result.size(), expected.size());
        for (size_t c = 0; c < result.size(); ++c) {
          EXPECT_TRUE(result[c].equals(expected[c], same_values()))
              << "column " << c << ", " << threads << " threads, keys "
              << keys[0].type()->to_string() << ", " << distinct << " values:\n"
              << result[c].to_string() << "\nvs\n"
              << expected[c].to_string();
        }
      }
    }
  }
}

TEST(GroupBy, ErrorsInARangeReachTheCaller) {
  const Array keys[] = {make_array<int64_t>({1, 1, 2, 2, 1, 1})};
  // Group 1 overflows in the first range [0, 3), not in the second.
  const Array values = make_array<int64_t>({INT64_MAX, 1, 0, 0, 5, 1});
  const AggregateCall aggregates[] = {{"sum", {values}, {}}};
  ExecContext context;
  GroupByOptions options;
  options.threads = 2;
  options.min_rows_per_thread = 2;
  EXPECT_THROW(group_by(keys, aggregates, context, default_registry(), options), ArithmeticError);
  // try_sum's overflowed range comes through the merge as null, not as an empty range.
  const AggregateCall tolerant[] = {{"try_sum", {values}, {}}};
  const std::vector<Array> result = group_by(keys, tolerant, context, default_registry(), options);
  EXPECT_TRUE(result[1].equals(make_array<int64_t>({std::nullopt, 0})));
}

}  // namespace
}  // namespace bowstring::compute
