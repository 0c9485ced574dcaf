#include <gtest/gtest.h>

#include "bowstring/compute/core/errors.h"
#include "bowstring/exec/exec_testing.h"
#include "bowstring/plan/explain.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring::exec {
namespace {

using bowstring::testing::make_array;
using bowstring::testing::make_string_array;
using expr::call;
using expr::col;
using expr::lit;
using plan::JoinType;
using testing::run_query;
using testing::sorted_rows_of;

plan::PlanPtr relation(const std::string& alias, const std::string& value,
                       std::vector<std::optional<int64_t>> ids,
                       std::vector<std::optional<std::string>> values) {
  SchemaPtr schema = bowstring::schema({field("id", int64()), field(value, utf8())});
  const auto rows = static_cast<int64_t>(ids.size());
  return plan::subquery_alias(
      plan::local_relation(
          Table(schema, rows,
                {ChunkedArray(make_array<int64_t>(ids)), ChunkedArray(make_string_array(values))})),
      alias);
}

plan::PlanPtr left_side() {
  return relation("l", "lv", {1, 2, 2, 3, std::nullopt}, {"a", "b", "c", "d", "e"});
}
plan::PlanPtr right_side() {
  return relation("r", "rv", {2, 3, 3, 4, std::nullopt}, {"w", "x", "y", "z", "n"});
}

struct Mode {
  int64_t morsel_rows;
  int threads;
};

class JoinTest : public ::testing::TestWithParam<Mode> {
 protected:
  std::vector<std::string> run(JoinType type, expr::ExprPtr condition,
                               plan::PlanPtr right = right_side()) {
    QueryOptions options;
    options.morsel_rows = GetParam().morsel_rows;
    options.threads = GetParam().threads;
    return sorted_rows_of(run_query(plan::join(left_side(), right, type, condition), options));
  }
};

INSTANTIATE_TEST_SUITE_P(VerificationModes, JoinTest,
                         ::testing::Values(Mode{1, 1}, Mode{2, 4}, Mode{8192, 1}, Mode{8192, 4}),
                         [](const auto& info) {
                           return "morsel" + std::to_string(info.param.morsel_rows) + "_threads" +
                                  std::to_string(info.param.threads);
                         });

expr::ExprPtr same_id() { return call("=", {col("l.id"), col("r.id")}); }

const std::vector<std::string> kInner = {"2, \"b\", 2, \"w\"", "2, \"c\", 2, \"w\"",
                                         "3, \"d\", 3, \"x\"", "3, \"d\", 3, \"y\""};

std::vector<std::string> with(std::vector<std::string> rows, const std::vector<std::string>& more) {
  rows.insert(rows.end(), more.begin(), more.end());
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST_P(JoinTest, InnerJoinNeverMatchesNullKeys) {
  EXPECT_EQ(run(JoinType::kInner, same_id()), with(kInner, {}));
}

TEST_P(JoinTest, OuterJoinsKeepUnmatchedRowsWithNulls) {
  EXPECT_EQ(run(JoinType::kLeftOuter, same_id()),
            with(kInner, {"1, \"a\", null, null", "null, \"e\", null, null"}));
  EXPECT_EQ(run(JoinType::kRightOuter, same_id()),
            with(kInner, {"null, null, 4, \"z\"", "null, null, null, \"n\""}));
  EXPECT_EQ(run(JoinType::kFullOuter, same_id()),
            with(kInner, {"1, \"a\", null, null", "null, \"e\", null, null", "null, null, 4, \"z\"",
                          "null, null, null, \"n\""}));
}

TEST_P(JoinTest, SemiAndAntiJoinsOutputLeftRowsOnce) {
  EXPECT_EQ(run(JoinType::kLeftSemi, same_id()),
            (std::vector<std::string>{"2, \"b\"", "2, \"c\"", "3, \"d\""}));
  EXPECT_EQ(run(JoinType::kLeftAnti, same_id()),
            (std::vector<std::string>{"1, \"a\"", "null, \"e\""}));
}

TEST_P(JoinTest, NullSafeKeysMatchNulls) {
  EXPECT_EQ(run(JoinType::kInner, call("<=>", {col("l.id"), col("r.id")})),
            with(kInner, {"null, \"e\", null, \"n\""}));
}

TEST_P(JoinTest, ResidualConditionsDecideMatches) {
  const expr::ExprPtr condition = expr::and_(same_id(), call("!=", {col("rv"), lit("x")}));
  const std::vector<std::string> passing = {"2, \"b\", 2, \"w\"", "2, \"c\", 2, \"w\"",
                                            "3, \"d\", 3, \"y\""};
  EXPECT_EQ(run(JoinType::kInner, condition), with(passing, {}));
  EXPECT_EQ(run(JoinType::kLeftOuter, condition),
            with(passing, {"1, \"a\", null, null", "null, \"e\", null, null"}));
  // x no longer matches, so build row 3/x is unmatched for a right join.
  EXPECT_EQ(
      run(JoinType::kRightOuter, condition),
      with(passing, {"null, null, 3, \"x\"", "null, null, 4, \"z\"", "null, null, null, \"n\""}));
  const expr::ExprPtr only_w = expr::and_(same_id(), call("=", {col("rv"), lit("w")}));
  EXPECT_EQ(run(JoinType::kLeftAnti, only_w),
            (std::vector<std::string>{"1, \"a\"", "3, \"d\"", "null, \"e\""}));
}

TEST_P(JoinTest, JoinsWithoutEqualityKeysCompareEveryPair) {
  EXPECT_EQ(run(JoinType::kCross, nullptr).size(), 25U);
  const expr::ExprPtr less = call("<", {col("l.id"), col("r.id")});
  EXPECT_EQ(run(JoinType::kInner, less).size(), 11U);
  const std::vector<std::string> left_outer = run(JoinType::kLeftOuter, less);
  EXPECT_EQ(left_outer.size(), 12U);
  EXPECT_NE(std::find(left_outer.begin(), left_outer.end(), "null, \"e\", null, null"),
            left_outer.end());
  EXPECT_EQ(run(JoinType::kRightOuter, less).size(), 12U);
  EXPECT_EQ(run(JoinType::kFullOuter, less).size(), 13U);
  EXPECT_EQ(run(JoinType::kLeftSemi, less),
            (std::vector<std::string>{"1, \"a\"", "2, \"b\"", "2, \"c\"", "3, \"d\""}));
  EXPECT_EQ(run(JoinType::kLeftAnti, less), (std::vector<std::string>{"null, \"e\""}));
}

TEST_P(JoinTest, TheLargerSideIsProbedNotHashed) {
  const plan::PlanPtr numbers = plan::subquery_alias(plan::range(0, 100), "r");
  EXPECT_EQ(run(JoinType::kInner, same_id(), numbers).size(), 4U);
  EXPECT_EQ(run(JoinType::kLeftOuter, same_id(), numbers).size(), 5U);
  EXPECT_EQ(run(JoinType::kRightOuter, same_id(), numbers).size(), 101U);
  EXPECT_EQ(run(JoinType::kFullOuter, same_id(), numbers).size(), 102U);
  EXPECT_EQ(run(JoinType::kLeftSemi, same_id(), numbers),
            (std::vector<std::string>{"1, \"a\"", "2, \"b\"", "2, \"c\"", "3, \"d\""}));
  EXPECT_EQ(run(JoinType::kLeftAnti, same_id(), numbers),
            (std::vector<std::string>{"null, \"e\""}));
}

TEST_P(JoinTest, KeysOfDifferentTypesAreCompared) {
  const plan::PlanPtr ints = plan::subquery_alias(
      plan::project(plan::range(0, 3), {expr::alias(expr::cast(col("id"), int32()), "id")}), "r");
  EXPECT_EQ(run(JoinType::kInner, same_id(), ints),
            (std::vector<std::string>{"1, \"a\", 1", "2, \"b\", 2", "2, \"c\", 2"}));
}

TEST(JoinPlans, ExplainShowsTheHashedSide) {
  const plan::PlanPtr plan = plan::join(left_side(), plan::subquery_alias(plan::range(0, 100), "r"),
                                        JoinType::kInner, same_id());
  compute::ExecContext context;
  const PhysicalPtr physical = plan_physical(plan::optimize(plan::analyze(plan)), context);
  const std::string text = physical_tree_string(physical);
  EXPECT_NE(text.find("ShuffledHashJoin [id#"), std::string::npos) << text;
  EXPECT_NE(text.find("Inner, BuildLeft"), std::string::npos) << text;
}

TEST(JoinPlans, FiltersAboveAJoinRunBelowIt) {
  const plan::PlanPtr plan =
      plan::filter(plan::join(left_side(), right_side(), JoinType::kInner, same_id()),
                   call("=", {col("rv"), lit("w")}));
  EXPECT_EQ(sorted_rows_of(run_query(plan)),
            (std::vector<std::string>{"2, \"b\", 2, \"w\"", "2, \"c\", 2, \"w\""}));
}

}  // namespace
}  // namespace bowstring::exec
