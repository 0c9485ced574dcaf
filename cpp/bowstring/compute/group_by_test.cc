#include "bowstring/compute/group_by.h"

#include <gtest/gtest.h>

#include "bowstring/compute/errors.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring::compute {
namespace {

using testing::make_array;
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

}  // namespace
}  // namespace bowstring::compute
