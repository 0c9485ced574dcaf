#include "bowstring/exec/executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "bowstring/compute/core/errors.h"
#include "bowstring/exec/exec_testing.h"
#include "bowstring/memory/allocator.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring::exec {
namespace {

using bowstring::testing::make_array;
using bowstring::testing::make_string_array;
using expr::call;
using expr::col;
using expr::lit;
using testing::rows_of;
using testing::run_query;
using testing::sorted_rows_of;

/// A table k (string, with nulls), v (bigint, with nulls), split into two chunks.
Table sample_table() {
  SchemaPtr schema =
      bowstring::schema({field("k", utf8()), field("v", int64()), field("w", float64())});
  auto chunk = [&](std::vector<std::optional<std::string>> k, std::vector<std::optional<int64_t>> v,
                   std::vector<std::optional<double>> w) {
    return std::vector<Array>{make_string_array(k), make_array<int64_t>(v), make_array<double>(w)};
  };
  std::vector<Array> first = chunk({"a", "b", "a", std::nullopt, "c"}, {1, 2, 3, 4, std::nullopt},
                                   {0.5, 1.5, 2.5, 3.5, 4.5});
  std::vector<Array> second =
      chunk({"b", "a", std::nullopt, "c", "a"}, {5, 6, 7, 8, 9}, {5.5, 6.5, 7.5, 8.5, 9.5});
  std::vector<ChunkedArray> columns;
  for (size_t c = 0; c < 3; ++c) {
    columns.emplace_back(std::vector<Array>{first[c], second[c]});
  }
  return Table(schema, 10, std::move(columns));
}

/// Every test runs with morsels of 1, 3 and 8192 rows, on 1 and 4 threads: operators must give
/// the same answers whatever the batch boundaries and the interleaving.
struct Mode {
  int64_t morsel_rows;
  int threads;
};

class ExecutorTest : public ::testing::TestWithParam<Mode> {
 protected:
  QueryOptions options() const {
    QueryOptions options;
    options.morsel_rows = GetParam().morsel_rows;
    options.threads = GetParam().threads;
    return options;
  }
  Table run(const plan::PlanPtr& plan) { return run_query(plan, options()); }
};

INSTANTIATE_TEST_SUITE_P(VerificationModes, ExecutorTest,
                         ::testing::Values(Mode{1, 1}, Mode{3, 1}, Mode{8192, 1}, Mode{1, 4},
                                           Mode{3, 4}, Mode{8192, 4}),
                         [](const auto& info) {
                           return "morsel" + std::to_string(info.param.morsel_rows) + "_threads" +
                                  std::to_string(info.param.threads);
                         });

TEST_P(ExecutorTest, ScanReturnsEveryRowInOrderWithUserNames) {
  const Table result = run(plan::local_relation(sample_table()));
  EXPECT_EQ(result.schema()->field_names(), (std::vector<std::string>{"k", "v", "w"}));
  EXPECT_EQ(rows_of(result).front(), "\"a\", 1, 0.5");
  EXPECT_EQ(rows_of(result).back(), "\"a\", 9, 9.5");
  EXPECT_EQ(result.num_rows(), 10);
}

TEST_P(ExecutorTest, FilterAndProjectKeepOrder) {
  auto plan = plan::project(
      plan::filter(plan::local_relation(sample_table()), call(">", {col("v"), lit(int64_t{2})})),
      {col("k"), expr::alias(call("*", {col("v"), lit(int64_t{10})}), "v10")});
  const Table result = run(plan);
  EXPECT_EQ(result.schema()->field_names(), (std::vector<std::string>{"k", "v10"}));
  EXPECT_EQ(rows_of(result),
            (std::vector<std::string>{"\"a\", 30", "null, 40", "\"b\", 50", "\"a\", 60", "null, 70",
                                      "\"c\", 80", "\"a\", 90"}));
}

TEST_P(ExecutorTest, RangeCountsByStepBothWays) {
  EXPECT_EQ(rows_of(run(plan::range(0, 10, 3))), (std::vector<std::string>{"0", "3", "6", "9"}));
  EXPECT_EQ(rows_of(run(plan::range(5, 0, -2))), (std::vector<std::string>{"5", "3", "1"}));
  EXPECT_EQ(run(plan::range(0, 0)).num_rows(), 0);
  EXPECT_EQ(run(plan::range(3, 0)).num_rows(), 0);
  const Table big = run(plan::aggregate(plan::range(0, 100000), {},
                                        {call("sum", {col("id")}), call("count", {col("id")})}));
  EXPECT_EQ(rows_of(big), (std::vector<std::string>{"4999950000, 100000"}));
}

TEST_P(ExecutorTest, GroupByWithNullKeys) {
  auto plan = plan::aggregate(
      plan::local_relation(sample_table()), {col("k")},
      {col("k"), call("sum", {col("v")}), call("count", {col("v")}), call("max", {col("w")})});
  const Table result = run(plan);
  EXPECT_EQ(result.schema()->field_names(),
            (std::vector<std::string>{"k", "sum(v)", "count(v)", "max(w)"}));
  EXPECT_EQ(sorted_rows_of(result),
            (std::vector<std::string>{"\"a\", 19, 4, 9.5", "\"b\", 7, 2, 5.5", "\"c\", 8, 1, 8.5",
                                      "null, 11, 2, 7.5"}));
}

TEST_P(ExecutorTest, GlobalAggregateOfNoRowsIsOneRow) {
  auto empty =
      plan::filter(plan::local_relation(sample_table()), call(">", {col("v"), lit(int64_t{100})}));
  const Table result =
      run(plan::aggregate(empty, {}, {call("count", {col("v")}), call("sum", {col("v")})}));
  EXPECT_EQ(rows_of(result), (std::vector<std::string>{"0, null"}));
  const Table grouped =
      run(plan::aggregate(empty, {col("k")}, {col("k"), call("count", {col("v")})}));
  EXPECT_EQ(grouped.num_rows(), 0);
}

TEST_P(ExecutorTest, ExpressionsOverAggregatesAndKeys) {
  auto plan = plan::aggregate(
      plan::local_relation(sample_table()), {col("k")},
      {expr::alias(call("upper", {col("k")}), "K"),
       expr::alias(call("+", {call("sum", {col("v")}), call("count", {col("v")})}), "total")});
  EXPECT_EQ(sorted_rows_of(run(plan)),
            (std::vector<std::string>{"\"A\", 23", "\"B\", 9", "\"C\", 9", "null, 13"}));
}

TEST_P(ExecutorTest, DistinctRows) {
  auto plan = plan::distinct(plan::project(plan::local_relation(sample_table()), {col("k")}));
  EXPECT_EQ(sorted_rows_of(run(plan)),
            (std::vector<std::string>{"\"a\"", "\"b\"", "\"c\"", "null"}));
}

TEST_P(ExecutorTest, SortWithNullPlacementAndDirection) {
  auto source = plan::local_relation(sample_table());
  const Table ascending = run(plan::project(
      plan::sort(source, {{col("v"), compute::SortKey{true, std::nullopt}}}), {col("v")}));
  EXPECT_EQ(rows_of(ascending),
            (std::vector<std::string>{"null", "1", "2", "3", "4", "5", "6", "7", "8", "9"}));
  const Table by_key =
      run(plan::project(plan::sort(source, {{col("k"), compute::SortKey{false, std::nullopt}},
                                            {col("v"), compute::SortKey{true, std::nullopt}}}),
                        {col("k"), col("v")}));
  EXPECT_EQ(rows_of(by_key),
            (std::vector<std::string>{"\"c\", null", "\"c\", 8", "\"b\", 2", "\"b\", 5", "\"a\", 1",
                                      "\"a\", 3", "\"a\", 6", "\"a\", 9", "null, 4", "null, 7"}));
}

TEST_P(ExecutorTest, TopNAndLimitWithOffset) {
  auto source = plan::local_relation(sample_table());
  auto by_v_desc = plan::sort(source, {{col("v"), compute::SortKey{false, std::nullopt}}});
  EXPECT_EQ(rows_of(run(plan::project(plan::limit(by_v_desc, 3), {col("v")}))),
            (std::vector<std::string>{"9", "8", "7"}));
  EXPECT_EQ(rows_of(run(plan::project(plan::limit(by_v_desc, 2, 3), {col("v")}))),
            (std::vector<std::string>{"6", "5"}));
  EXPECT_EQ(rows_of(run(plan::project(plan::limit(source, 4, 1), {col("v")}))),
            (std::vector<std::string>{"2", "3", "4", "null"}));
  EXPECT_EQ(rows_of(run(plan::project(plan::limit(source, -1, 8), {col("v")}))),
            (std::vector<std::string>{"8", "9"}));
  EXPECT_EQ(run(plan::limit(source, 0)).num_rows(), 0);
  EXPECT_EQ(run(plan::limit(source, 100)).num_rows(), 10);
}

TEST_P(ExecutorTest, TopNKeepsTheBestRowsOfEveryMorsel) {
  // Distinct keys in scrambled order (7919 * id modulo the prime 20011), spread over morsels
  // that each hold more rows than the query keeps.
  constexpr int64_t kRows = 20000;
  auto scrambled = plan::project(
      plan::range(0, kRows),
      {col("id"),
       expr::alias(call("%", {call("*", {col("id"), lit(int64_t{7919})}), lit(int64_t{20011})}),
                   "key")});
  auto by_key_desc = plan::sort(scrambled, {{col("key"), compute::SortKey{false, std::nullopt}}});
  std::vector<std::pair<int64_t, int64_t>> keyed;
  for (int64_t id = 0; id < kRows; ++id) {
    keyed.emplace_back(id * 7919 % 20011, id);
  }
  std::sort(keyed.rbegin(), keyed.rend());
  std::vector<std::string> expected;
  for (size_t i = 5; i < 15; ++i) {
    expected.push_back(std::to_string(keyed[i].second));
  }
  EXPECT_EQ(rows_of(run(plan::project(plan::limit(by_key_desc, 10, 5), {col("id")}))), expected);
}

TEST_P(ExecutorTest, UnionKeepsChildOrderAndWidensTypes) {
  auto ints = plan::project(plan::range(0, 3), {expr::alias(expr::cast(col("id"), int32()), "x")});
  auto doubles = plan::project(plan::local_relation(sample_table()), {expr::alias(col("w"), "y")});
  const Table result = run(plan::limit(plan::union_all({ints, doubles}), 5));
  EXPECT_EQ(result.schema()->field(0)->type()->id(), TypeId::kFloat64);
  EXPECT_EQ(result.schema()->field_names(), (std::vector<std::string>{"x"}));
  EXPECT_EQ(rows_of(result), (std::vector<std::string>{"0", "1", "2", "0.5", "1.5"}));
}

TEST_P(ExecutorTest, UnionByNameFillsMissingColumns) {
  auto left = plan::project(plan::range(0, 2), {col("id"), expr::alias(lit("x"), "s")});
  auto right = plan::project(plan::range(5, 6), {expr::alias(lit(true), "flag"), col("id")});
  const Table result = run(plan::union_all({left, right}, true, true));
  EXPECT_EQ(result.schema()->field_names(), (std::vector<std::string>{"id", "s", "flag"}));
  EXPECT_EQ(rows_of(result),
            (std::vector<std::string>{"0, \"x\", null", "1, \"x\", null", "5, null, true"}));
}

TEST_P(ExecutorTest, AggregateOverUnionOfManyGroups) {
  auto numbers = plan::project(plan::range(0, 5000),
                               {expr::alias(call("%", {col("id"), lit(int64_t{1000})}), "g")});
  auto plan = plan::aggregate(plan::union_all({numbers, numbers}), {col("g")},
                              {col("g"), expr::alias(call("count", {col("g")}), "n")});
  const Table result = run(plan::filter(plan, call("!=", {col("n"), lit(int64_t{10})})));
  EXPECT_EQ(result.num_rows(), 0);
  EXPECT_EQ(run(plan).num_rows(), 1000);
}

TEST_P(ExecutorTest, RollupWithGroupingAndGroupingId) {
  auto plan = plan::rollup(
      plan::local_relation(sample_table()), {col("k")},
      {col("k"), call("sum", {col("v")}), call("grouping", {col("k")}), call("grouping_id", {})});
  const Table result = run(plan);
  EXPECT_EQ(result.schema()->field_names(),
            (std::vector<std::string>{"k", "sum(v)", "grouping(k)", "grouping_id()"}));
  EXPECT_EQ(sorted_rows_of(result),
            (std::vector<std::string>{"\"a\", 19, 0, 0", "\"b\", 7, 0, 0", "\"c\", 8, 0, 0",
                                      "null, 11, 0, 0", "null, 45, 1, 1"}));
}

TEST_P(ExecutorTest, CubeMakesEverySubsetOfKeys) {
  auto source = plan::project(
      plan::local_relation(sample_table()),
      {col("k"), expr::alias(call("%", {col("v"), lit(int64_t{2})}), "odd"), col("v")});
  auto plan = plan::cube(source, {col("k"), col("odd")},
                         {call("grouping_id", {}), expr::alias(call("count", {lit(1)}), "n")});
  const Table result = run(plan::aggregate(plan, {col("grouping_id()")},
                                           {col("grouping_id()"), call("sum", {col("n")})}));
  // Each of the four grouping sets counts every row once.
  EXPECT_EQ(sorted_rows_of(result), (std::vector<std::string>{"0, 10", "1, 10", "2, 10", "3, 10"}));
}

TEST(ExecutorGrouping, GroupingOutsideGroupingSetsIsAnError) {
  EXPECT_THROW(
      run_query(plan::aggregate(plan::range(0, 3), {col("id")}, {call("grouping", {col("id")})})),
      compute::AnalysisError);
  EXPECT_THROW(run_query(plan::rollup(plan::range(0, 3), {col("id")},
                                      {call("grouping", {call("+", {col("id"), lit(1)})})})),
               compute::AnalysisError);
}

/// The rows [0, 0, 1, 1, 2, 2, null] and [0, 1, 1, 5, null].
std::pair<plan::PlanPtr, plan::PlanPtr> set_inputs() {
  auto column = [](std::vector<std::optional<int64_t>> values) {
    SchemaPtr schema = bowstring::schema({field("x", int64())});
    return plan::local_relation(Table(schema, static_cast<int64_t>(values.size()),
                                      {ChunkedArray(make_array<int64_t>(values))}));
  };
  return {column({0, 0, 1, 1, 2, 2, std::nullopt}), column({0, 1, 1, 5, std::nullopt})};
}

TEST_P(ExecutorTest, IntersectAndExceptDistinctAndAll) {
  const auto [left, right] = set_inputs();
  EXPECT_EQ(sorted_rows_of(run(plan::intersect(left, right, false))),
            (std::vector<std::string>{"0", "1", "null"}));
  EXPECT_EQ(sorted_rows_of(run(plan::intersect(left, right, true))),
            (std::vector<std::string>{"0", "1", "1", "null"}));
  EXPECT_EQ(sorted_rows_of(run(plan::except(left, right, false))), (std::vector<std::string>{"2"}));
  EXPECT_EQ(sorted_rows_of(run(plan::except(left, right, true))),
            (std::vector<std::string>{"0", "2", "2"}));
  EXPECT_EQ(run(plan::except(left, right, true)).schema()->field_names(),
            (std::vector<std::string>{"x"}));
}

TEST(ExecutorSetOperations, WidthsMustMatch) {
  try {
    run_query(plan::intersect(plan::range(0, 3), plan::local_relation(sample_table()), false));
    FAIL() << "expected an analysis error";
  } catch (const compute::AnalysisError& error) {
    EXPECT_EQ(error.condition(), "NUM_COLUMNS_MISMATCH");
    EXPECT_NE(std::string(error.what()).find("INTERSECT can only be performed"), std::string::npos)
        << error.what();
  }
}

TEST_P(ExecutorTest, DropDuplicatesOnASubsetKeepsOneRowPerKey) {
  const Table result = run(plan::drop_duplicates(plan::local_relation(sample_table()), {"K"}));
  EXPECT_EQ(result.schema()->field_names(), (std::vector<std::string>{"k", "v", "w"}));
  EXPECT_EQ(result.num_rows(), 4);
  EXPECT_EQ(run(plan::drop_duplicates(plan::local_relation(sample_table()))).num_rows(), 10);
  EXPECT_THROW(run(plan::drop_duplicates(plan::local_relation(sample_table()), {"nope"})),
               compute::AnalysisError);
}

TEST_P(ExecutorTest, SamplesAreSubsetsAndRepeatable) {
  auto source = plan::range(0, 2000);
  const Table half = run(plan::sample(source, 0.5, false, 42));
  EXPECT_GT(half.num_rows(), 800);
  EXPECT_LT(half.num_rows(), 1200);
  EXPECT_EQ(rows_of(half), rows_of(run(plan::sample(source, 0.5, false, 42))));
  EXPECT_NE(rows_of(half), rows_of(run(plan::sample(source, 0.5, false, 43))));
  const Table doubled = run(plan::sample(source, 2.0, true, 1));
  EXPECT_GT(doubled.num_rows(), 3600);
  EXPECT_LT(doubled.num_rows(), 4400);
  EXPECT_EQ(run(plan::sample(source, 0.0, false, 1)).num_rows(), 0);
  EXPECT_THROW(plan::sample(source, 1.5, false, 1), InvalidArgument);
}

TEST_P(ExecutorTest, RepartitionKeepsTheResult) {
  auto source = plan::local_relation(sample_table());
  EXPECT_EQ(sorted_rows_of(run(plan::repartition(source, 4, {col("k")}))),
            sorted_rows_of(run(source)));
  EXPECT_EQ(sorted_rows_of(run(plan::repartition(source, 2))), sorted_rows_of(run(source)));
  EXPECT_THROW(plan::repartition(source, 0), InvalidArgument);
}

// Many rows: morsels of one row would make this test slow under the sanitizers, so it runs with
// small and large morsels on one and several threads.
TEST(ExecutorAggregate, ManyGroupsMergeInPartitions) {
  // More groups than the threads' tables merge one by one: they are merged by partition.
  auto keyed =
      plan::project(plan::range(0, 140000),
                    {expr::alias(call("%", {col("id"), lit(int64_t{70000})}), "g"), col("id")});
  auto grouped = plan::aggregate(keyed, {col("g")},
                                 {col("g"), expr::alias(call("count", {col("id")}), "n"),
                                  expr::alias(call("sum", {col("id")}), "s")});
  auto checked = plan::aggregate(
      grouped, {},
      {call("count", {col("g")}), call("min", {col("n")}), call("max", {col("n")}),
       call("sum", {col("s")}),
       call("count",
            {call("nullif", {call("-", {col("s"), call("+", {call("*", {col("g"), lit(int64_t{2})}),
                                                             lit(int64_t{70000})})}),
                             lit(int64_t{0})})})});
  for (const Mode mode : {Mode{1000, 1}, Mode{1000, 4}, Mode{8192, 4}}) {
    QueryOptions options;
    options.morsel_rows = mode.morsel_rows;
    options.threads = mode.threads;
    EXPECT_EQ(rows_of(run_query(checked, options)),
              (std::vector<std::string>{"70000, 2, 2, 9799930000, 0"}));
  }
}

TEST_P(ExecutorTest, GeneratorsMakeRowsBesideTheOtherColumns) {
  auto arrays = plan::project(
      plan::range(0, 3),
      {col("id"),
       expr::alias(call("array", {col("id"), call("*", {col("id"), lit(int64_t{10})})}), "xs")});
  const Table exploded =
      run(plan::project(arrays, {col("id"), expr::alias(call("explode", {col("xs")}), "x")}));
  EXPECT_EQ(exploded.schema()->field_names(), (std::vector<std::string>{"id", "x"}));
  EXPECT_EQ(sorted_rows_of(exploded),
            (std::vector<std::string>{"0, 0", "0, 0", "1, 1", "1, 10", "2, 2", "2, 20"}));
  const Table positions = run(plan::project(arrays, {call("posexplode", {col("xs")})}));
  EXPECT_EQ(positions.schema()->field_names(), (std::vector<std::string>{"pos", "col"}));
  EXPECT_EQ(positions.num_rows(), 6);
  // Rows whose array is empty or null: none from explode, one of nulls from explode_outer.
  auto odd = plan::project(
      plan::range(0, 4),
      {col("id"),
       expr::alias(
           expr::case_when({{call("=", {col("id"), lit(int64_t{1})}), call("array", {col("id")})},
                            {call("=", {col("id"), lit(int64_t{2})}),
                             call("array_remove", {call("array", {col("id")}), col("id")})}}),
           "xs")});
  EXPECT_EQ(sorted_rows_of(run(plan::project(odd, {col("id"), call("explode", {col("xs")})}))),
            (std::vector<std::string>{"1, 1"}));
  EXPECT_EQ(
      sorted_rows_of(run(plan::project(odd, {col("id"), call("explode_outer", {col("xs")})}))),
      (std::vector<std::string>{"0, null", "1, 1", "2, null", "3, null"}));
}

TEST(ExecutorCache, CachedRowsAreComputedOnceAndShared) {
  std::atomic<int> scans{0};
  QueryOptions options;
  options.progress = [&](const PipelineProgress& progress) {
    if (progress.finished && progress.source == "Range") {
      ++scans;
    }
  };
  const plan::PlanPtr cached = plan::cache(plan::project(
      plan::range(0, 10), {col("id"), expr::alias(call("*", {col("id"), col("id")}), "sq")}));
  EXPECT_EQ(rows_of(run_query(plan::aggregate(cached, {}, {call("sum", {col("sq")})}), options)),
            (std::vector<std::string>{"285"}));
  EXPECT_EQ(scans.load(), 1);
  // Another query over the cache reads it without computing it again, even a filtered one.
  EXPECT_EQ(
      rows_of(run_query(
          plan::project(plan::filter(cached, call(">", {col("id"), lit(int64_t{7})})), {col("sq")}),
          options)),
      (std::vector<std::string>{"64", "81"}));
  EXPECT_EQ(scans.load(), 1);
  cached->cache->clear();
  EXPECT_EQ(run_query(cached, options).num_rows(), 10);
  EXPECT_EQ(scans.load(), 2);
}

plan::WindowExpression over_k(expr::ExprPtr function, std::string name,
                              std::optional<compute::WindowFrame> frame = std::nullopt) {
  plan::WindowExpression window;
  window.function = std::move(function);
  window.partition_by = {col("k")};
  window.order_by = {{col("v"), compute::SortKey{}}};
  window.frame = std::move(frame);
  window.name = std::move(name);
  return window;
}

TEST_P(ExecutorTest, WindowsRunPerPartitionInOrder) {
  auto source = plan::filter(plan::local_relation(sample_table()), expr::is_not_null(col("k")));
  compute::WindowFrame sliding{compute::FrameUnit::kRows, compute::FrameBound::rows(-1),
                               compute::FrameBound::current_row()};
  plan::WindowExpression total;
  total.function = call("sum", {col("v")});
  total.name = "total";
  auto plan = plan::project(
      plan::window(source,
                   {over_k(call("sum", {col("v")}), "running"), over_k(call("rank", {}), "rank"),
                    over_k(call("sum", {col("v")}), "pair", sliding),
                    over_k(call("lag", {col("v"), lit(1)}), "previous"), total}),
      {col("k"), col("v"), col("running"), col("rank"), col("pair"), col("previous"),
       col("total")});
  EXPECT_EQ(
      sorted_rows_of(run(plan)),
      (std::vector<std::string>{
          "\"a\", 1, 1, 1, 1, null, 34", "\"a\", 3, 4, 2, 4, 1, 34", "\"a\", 6, 10, 3, 9, 3, 34",
          "\"a\", 9, 19, 4, 15, 6, 34", "\"b\", 2, 2, 1, 2, null, 34", "\"b\", 5, 7, 2, 7, 2, 34",
          "\"c\", 8, 8, 2, 8, null, 34", "\"c\", null, null, 1, null, null, 34"}));
}

TEST(ExecutorWindows, WindowColumnsGetSparksNames) {
  plan::WindowExpression window = over_k(call("rank", {}), "");
  const plan::PlanPtr resolved =
      plan::analyze(plan::window(plan::local_relation(sample_table()), {window}));
  EXPECT_EQ(resolved->output.back().name,
            "rank() OVER (PARTITION BY k ORDER BY v ASC NULLS FIRST ROWS BETWEEN UNBOUNDED "
            "PRECEDING AND CURRENT ROW)");
  EXPECT_EQ(resolved->output.back().type->id(), TypeId::kInt32);
  plan::WindowExpression bad = over_k(call("sum", {col("v")}), "s");
  bad.frame = compute::WindowFrame{compute::FrameUnit::kRange, compute::FrameBound::rows(-1),
                                   compute::FrameBound::current_row()};
  bad.order_by.push_back({col("w"), compute::SortKey{}});
  EXPECT_THROW(plan::analyze(plan::window(plan::local_relation(sample_table()), {bad})),
               compute::AnalysisError);
}

TEST(ExecutorGenerators, OneGeneratorPerSelect) {
  auto arrays = plan::project(plan::range(0, 3), {expr::alias(call("array", {col("id")}), "xs")});
  EXPECT_THROW(run_query(plan::project(
                   arrays, {call("explode", {col("xs")}), call("explode", {col("xs")})})),
               compute::AnalysisError);
}

TEST(ExecutorErrors, BadOptionsAreRejected) {
  QueryOptions options;
  options.morsel_rows = 0;
  EXPECT_THROW(run_query(plan::range(0, 3), options), InvalidArgument);
  options.morsel_rows = 10;
  options.threads = -1;
  EXPECT_THROW(run_query(plan::range(0, 3), options), InvalidArgument);
}

TEST(ExecutorErrors, RuntimeErrorsOfExpressionsReachTheCaller) {
  auto plan = plan::project(
      plan::range(0, 10), {call("/", {lit(int64_t{1}), call("-", {col("id"), lit(int64_t{5})})})});
  EXPECT_THROW(run_query(plan), compute::ArithmeticError);
}

TEST(ExecutorErrors, CancellationStopsTheQuery) {
  QueryOptions options;
  options.morsel_rows = 1000;
  std::atomic<int> reports{0};
  options.progress = [&](const PipelineProgress& progress) {
    if (!progress.finished && ++reports == 3) {
      options.cancellation.cancel();
    }
  };
  EXPECT_THROW(run_query(plan::aggregate(plan::range(0, 100000000), {}, {call("sum", {col("id")})}),
                         options),
               Cancelled);
  EXPECT_LT(reports.load(), 100000);
}

TEST(ExecutorErrors, ProgressCountsEveryMorsel) {
  QueryOptions options;
  options.morsel_rows = 100;
  std::vector<PipelineProgress> finished;
  options.progress = [&](const PipelineProgress& progress) {
    if (progress.finished) {
      finished.push_back(progress);
    }
  };
  run_query(plan::aggregate(plan::range(0, 1050), {}, {call("count", {col("id")})}), options);
  ASSERT_EQ(finished.size(), 2U);
  EXPECT_EQ(finished[0].source, "Range");
  EXPECT_EQ(finished[0].sink, "HashAggregate");
  EXPECT_EQ(finished[0].morsels_done, 11);
  EXPECT_EQ(finished[0].morsels_total, 11);
  EXPECT_EQ(finished[0].rows_done, 1050);
  EXPECT_EQ(finished[1].sink, "Result");
}

TEST(ExecutorErrors, MemoryBudgetFailsTheQueryNamingTheOperator) {
  BudgetedAllocator budget(default_allocator(), 1 << 20, "query memory budget");
  compute::ExecContext context;
  context.allocator = &budget;
  QueryOptions options;
  options.morsel_rows = 1000;
  auto plan = plan::aggregate(plan::range(0, 1000000), {col("id")}, {col("id")});
  try {
    run_query(plan, options, context);
    FAIL() << "expected an out-of-memory error";
  } catch (const OutOfMemory& error) {
    EXPECT_NE(std::string(error.what()).find("HashAggregate"), std::string::npos) << error.what();
  }
  // The process stays healthy: a small query runs with the same budget afterwards.
  EXPECT_EQ(rows_of(run_query(plan::aggregate(plan::range(0, 10), {}, {call("count", {col("id")})}),
                              {}, context)),
            (std::vector<std::string>{"10"}));
}

}  // namespace
}  // namespace bowstring::exec
