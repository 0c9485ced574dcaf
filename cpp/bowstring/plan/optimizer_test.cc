#include "bowstring/plan/optimizer.h"

#include <gtest/gtest.h>

#include <regex>

#include "bowstring/io/files/file_relation.h"
#include "bowstring/io/formats.h"
#include "bowstring/plan/analyzer.h"
#include "bowstring/plan/explain.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/scratch_dir.h"

namespace bowstring::plan {
namespace {

using bowstring::testing::make_array;
using expr::call;
using expr::col;
using expr::lit;

PlanPtr numbers() {
  SchemaPtr schema =
      bowstring::schema({field("a", int64()), field("b", int64()), field("c", int64())});
  return local_relation(
      Table(schema, 2,
            {ChunkedArray(make_array<int64_t>({1, 2})), ChunkedArray(make_array<int64_t>({3, 4})),
             ChunkedArray(make_array<int64_t>({5, 6}))}));
}

std::string shape(const PlanPtr& plan) {
  return std::regex_replace(tree_string(plan), std::regex("#[0-9]+"), "#N");
}

expr::ExprPtr gt(const std::string& column, int64_t value) {
  return call(">", {col(column), lit(value)});
}

TEST(Optimizer, SimplifyBooleansDropsAlwaysTrueFilters) {
  const PlanPtr plan = analyze(filter(numbers(), expr::and_(lit(true), gt("a", 1))));
  EXPECT_EQ(shape(simplify_booleans(plan)),
            "Filter (a#NL > 1L)\n+- LocalRelation [a#NL, b#NL, c#NL]\n");
  const PlanPtr always = analyze(filter(numbers(), expr::or_(gt("a", 1), lit(true))));
  EXPECT_EQ(shape(simplify_booleans(always)), "LocalRelation [a#NL, b#NL, c#NL]\n");
  const PlanPtr never = analyze(filter(numbers(), expr::not_(lit(true))));
  const PlanPtr empty = simplify_booleans(never);
  ASSERT_EQ(empty->kind, LogicalPlan::Kind::kLocalRelation);
  EXPECT_EQ(empty->table->num_rows(), 0);
  EXPECT_EQ(empty->output[0].id, never->output[0].id);
}

TEST(Optimizer, CombineFiltersAndsTheConditions) {
  const PlanPtr plan = analyze(filter(filter(numbers(), gt("a", 1)), gt("b", 2)));
  EXPECT_EQ(shape(combine_filters(plan)),
            "Filter ((a#NL > 1L) AND (b#NL > 2L))\n+- LocalRelation [a#NL, b#NL, c#NL]\n");
}

TEST(Optimizer, FiltersMoveBelowProjectionsRewritten) {
  const PlanPtr plan = analyze(
      filter(project(numbers(), {expr::alias(call("+", {col("a"), col("b")}), "s"), col("c")}),
             gt("s", 3)));
  EXPECT_EQ(shape(push_down_filters(plan)),
            "Project [(a#NL + b#NL) AS s#NL, c#NL]\n"
            "+- Filter ((a#NL + b#NL) > 3L)\n"
            "   +- LocalRelation [a#NL, b#NL, c#NL]\n");
}

TEST(Optimizer, FiltersOnGroupingKeysMoveBelowTheAggregate) {
  const PlanPtr plan = analyze(filter(
      aggregate(numbers(), {col("a")}, {col("a"), expr::alias(call("sum", {col("b")}), "s")}),
      expr::and_(gt("a", 1), gt("s", 10))));
  EXPECT_EQ(shape(push_down_filters(remove_subquery_aliases(plan))),
            "Project [a#NL, sum(b)#NL AS s#NL]\n"
            "+- Filter (sum(b)#NL > 10L)\n"
            "   +- Aggregate [a#NL], [a#NL, sum(b#NL) AS sum(b)#NL]\n"
            "      +- Filter (a#NL > 1L)\n"
            "         +- LocalRelation [a#NL, b#NL, c#NL]\n");
}

TEST(Optimizer, FiltersGoToTheJoinSidesThatKeepTheirRows) {
  const PlanPtr inner = analyze(filter(
      join(subquery_alias(numbers(), "l"), subquery_alias(numbers(), "r"), JoinType::kInner),
      expr::and_(expr::and_(gt("l.a", 1), gt("r.b", 2)), call("=", {col("l.c"), col("r.c")}))));
  EXPECT_EQ(shape(push_down_filters(remove_subquery_aliases(inner))),
            "Join Inner, (c#NL = c#NL)\n"
            ":- Filter (a#NL > 1L)\n"
            ":  +- LocalRelation [a#NL, b#NL, c#NL]\n"
            "+- Filter (b#NL > 2L)\n"
            "   +- LocalRelation [a#NL, b#NL, c#NL]\n");
  const PlanPtr left =
      analyze(filter(join(subquery_alias(numbers(), "l"), subquery_alias(numbers(), "r"),
                          JoinType::kLeftOuter, call("=", {col("l.a"), col("r.a")})),
                     expr::and_(gt("l.a", 1), gt("r.b", 2))));
  // The right side of a left join produces nulls for unmatched rows: its filter stays above.
  EXPECT_EQ(shape(push_down_filters(remove_subquery_aliases(left))),
            "Filter (b#NL > 2L)\n"
            "+- Join LeftOuter, (a#NL = a#NL)\n"
            "   :- Filter (a#NL > 1L)\n"
            "   :  +- LocalRelation [a#NL, b#NL, c#NL]\n"
            "   +- LocalRelation [a#NL, b#NL, c#NL]\n");
}

TEST(Optimizer, JoinConditionsOnOneSideMoveIntoIt) {
  const PlanPtr plan = analyze(join(subquery_alias(numbers(), "l"), subquery_alias(numbers(), "r"),
                                    JoinType::kLeftOuter,
                                    expr::and_(call("=", {col("l.a"), col("r.a")}), gt("r.b", 2))));
  EXPECT_EQ(shape(push_down_filters(remove_subquery_aliases(plan))),
            "Join LeftOuter, (a#NL = a#NL)\n"
            ":- LocalRelation [a#NL, b#NL, c#NL]\n"
            "+- Filter (b#NL > 2L)\n"
            "   +- LocalRelation [a#NL, b#NL, c#NL]\n");
}

TEST(Optimizer, FiltersGoIntoEveryInputOfAUnion) {
  const PlanPtr plan = analyze(filter(
      union_all({project(numbers(), {col("a")}), project(numbers(), {col("b")})}), gt("a", 1)));
  const PlanPtr pushed = push_down_filters(plan);
  ASSERT_EQ(pushed->kind, LogicalPlan::Kind::kUnion);
  EXPECT_EQ(pushed->child(0)->child()->kind, LogicalPlan::Kind::kFilter);
  EXPECT_EQ(shape(pushed->child(1)),
            "Project [b#NL]\n+- Filter (b#NL > 1L)\n   +- LocalRelation [a#NL, b#NL, c#NL]\n");
}

TEST(Optimizer, AdjacentProjectionsMerge) {
  const PlanPtr plan = analyze(project(
      project(numbers(), {expr::alias(call("+", {col("a"), lit(int64_t{1})}), "x"), col("b")}),
      {expr::alias(call("*", {col("x"), col("b")}), "y")}));
  EXPECT_EQ(shape(collapse_projects(plan)),
            "Project [((a#NL + 1L) * b#NL) AS y#NL]\n+- LocalRelation [a#NL, b#NL, c#NL]\n");
  // An expression read twice above stays computed once below.
  const PlanPtr twice = analyze(
      project(project(numbers(), {expr::alias(call("+", {col("a"), lit(int64_t{1})}), "x")}),
              {expr::alias(call("*", {col("x"), col("x")}), "y")}));
  EXPECT_EQ(collapse_projects(twice)->child()->kind, LogicalPlan::Kind::kProject);
  // A projection of every column unchanged disappears.
  const PlanPtr identity = analyze(project(numbers(), {col("a"), col("b"), col("c")}));
  EXPECT_EQ(collapse_projects(identity)->kind, LogicalPlan::Kind::kLocalRelation);
}

TEST(Optimizer, ColumnsNobodyReadsArePrunedDownToTheScan) {
  const PlanPtr plan = analyze(project(filter(numbers(), gt("b", 3)), {col("a")}));
  EXPECT_EQ(shape(prune_columns(plan)),
            "Project [a#NL]\n+- Filter (b#NL > 3L)\n   +- LocalRelation [a#NL, b#NL]\n");
  const PlanPtr aggregated =
      analyze(project(aggregate(numbers(), {col("a")},
                                {col("a"), expr::alias(call("sum", {col("b")}), "s"),
                                 expr::alias(call("max", {col("c")}), "m")}),
                      {col("s")}));
  EXPECT_EQ(shape(prune_columns(aggregated)),
            "Project [s#NL]\n"
            "+- Project [sum(b)#NL AS s#NL]\n"
            "   +- Aggregate [a#NL], [a#NL, sum(b#NL) AS sum(b)#NL]\n"
            "      +- LocalRelation [a#NL, b#NL]\n");
}

TEST(Optimizer, LimitsMoveBelowProjectionsAndMerge) {
  const PlanPtr plan = analyze(limit(project(numbers(), {col("a")}), 5));
  EXPECT_EQ(shape(push_down_limits(plan)),
            "Project [a#NL]\n+- Limit 5\n   +- LocalRelation [a#NL, b#NL, c#NL]\n");
  const PlanPtr nested = push_down_limits(analyze(limit(limit(numbers(), 10, 2), 5, 3)));
  EXPECT_EQ(nested->limit, 5);
  EXPECT_EQ(nested->offset, 5);
  const PlanPtr short_inner = push_down_limits(analyze(limit(limit(numbers(), 4), 5, 3)));
  EXPECT_EQ(short_inner->limit, 1);
  EXPECT_EQ(short_inner->offset, 3);
}

TEST(Optimizer, FiltersRejectingNullsTurnOuterJoinsInner) {
  auto joined = [](JoinType type) {
    return join(subquery_alias(numbers(), "l"), subquery_alias(numbers(), "r"), type,
                call("=", {col("l.a"), col("r.a")}));
  };
  auto type_after = [&](JoinType type, const expr::ExprPtr& condition) {
    const PlanPtr plan =
        eliminate_outer_joins(remove_subquery_aliases(analyze(filter(joined(type), condition))));
    return plan->child()->join_type;
  };
  EXPECT_EQ(type_after(JoinType::kLeftOuter, gt("r.b", 1)), JoinType::kInner);
  EXPECT_EQ(type_after(JoinType::kLeftOuter, gt("l.b", 1)), JoinType::kLeftOuter);
  // IS NULL keeps the padded rows: the join stays outer.
  EXPECT_EQ(type_after(JoinType::kLeftOuter, expr::is_null(col("r.b"))), JoinType::kLeftOuter);
  EXPECT_EQ(type_after(JoinType::kRightOuter, gt("l.b", 1)), JoinType::kInner);
  EXPECT_EQ(type_after(JoinType::kFullOuter, gt("l.b", 1)), JoinType::kLeftOuter);
  EXPECT_EQ(type_after(JoinType::kFullOuter, gt("r.b", 1)), JoinType::kRightOuter);
  EXPECT_EQ(type_after(JoinType::kFullOuter, expr::and_(gt("l.b", 1), gt("r.c", 1))),
            JoinType::kInner);
}

TEST(Optimizer, SortsOfSortsAndLimitsOfUnions) {
  const PlanPtr sorted = analyze(sort(sort(numbers(), {{col("a"), {}}}), {{col("b"), {}}}));
  EXPECT_EQ(shape(eliminate_sorts_and_push_limits_into_unions(sorted)),
            "Sort [b#NL ASC NULLS FIRST], true\n+- LocalRelation [a#NL, b#NL, c#NL]\n");
  const PlanPtr limited = analyze(limit(union_all({numbers(), numbers()}), 3, 1));
  const PlanPtr pushed = eliminate_sorts_and_push_limits_into_unions(limited);
  ASSERT_EQ(pushed->child()->kind, LogicalPlan::Kind::kUnion);
  EXPECT_EQ(pushed->child()->child(0)->kind, LogicalPlan::Kind::kLimit);
  EXPECT_EQ(pushed->child()->child(0)->limit, 4);
  // Applying it again changes nothing.
  EXPECT_EQ(shape(eliminate_sorts_and_push_limits_into_unions(pushed)), shape(pushed));
}

TEST(Optimizer, RepeatedSubexpressionsAreComputedOnce) {
  const expr::ExprPtr sum = call("+", {col("a"), col("b")});
  const PlanPtr plan = analyze(project(
      numbers(), {expr::alias(call("*", {sum, lit(int64_t{2})}), "x"),
                  expr::alias(call("*", {sum, lit(int64_t{3})}), "y"),
                  expr::alias(expr::case_when({{gt("c", 0), call("-", {col("a"), col("c")})}},
                                              call("-", {col("a"), col("c")})),
                              "z")}));
  EXPECT_EQ(shape(reuse_common_subexpressions(plan)),
            "Project [(_common_0#NL * 2L) AS x#NL, (_common_0#NL * 3L) AS y#NL, CASE WHEN "
            "(c#NL > 0L) THEN (a#NL - c#NL) ELSE (a#NL - c#NL) END AS z#NL]\n"
            "+- Project [a#NL, b#NL, c#NL, (a#NL + b#NL) AS _common_0#NL]\n"
            "   +- LocalRelation [a#NL, b#NL, c#NL]\n");
}

TEST(Optimizer, OptimizeAppliesEveryRuleUntilNothingChanges) {
  const PlanPtr plan = analyze(
      project(filter(project(subquery_alias(numbers(), "t"), {col("t.a"), col("t.b"), col("t.c")}),
                     expr::and_(lit(true), gt("a", 1))),
              {col("a")}));
  EXPECT_EQ(shape(optimize(plan)), "Filter (a#NL > 1L)\n+- LocalRelation [a#NL]\n");
  std::vector<std::string> names;
  for (const OptimizerRule& rule : optimizer_rules()) {
    names.push_back(rule.name);
  }
  EXPECT_NE(std::find(names.begin(), names.end(), "PushDownFilters"), names.end());
}

TEST(Optimizer, FiltersGoIntoFileScansByTheColumnsTheyRead) {
  const bowstring::testing::ScratchDir dir;
  dir.write("day=1/a.csv", "x,y\n");
  const PlanPtr scan = file_scan(io::open_file_relation(
      {dir.path()}, io::make_file_format("csv", {}, nullptr, io::FormatUse::kRead), {}));
  const expr::ExprPtr on_day = call("=", {col("day"), lit(1)});
  const expr::ExprPtr on_data = call("=", {col("_c0"), lit("x")});
  const expr::ExprPtr on_both = expr::or_(on_day, call("=", {col("_c1"), lit("y")}));
  const PlanPtr pushed =
      push_down_filters(analyze(filter(scan, expr::and_(expr::and_(on_day, on_data), on_both))));
  EXPECT_EQ(shape(pushed),
            "Filter ((day#N = 1) OR (_c1#N = 'y'))\n+- Relation [_c0#N,_c1#N,day#N] csv, "
            "PartitionFilters: [(day#N = 1)], DataFilters: [(_c0#N = 'x')]\n");
  const PlanPtr pruned = prune_columns(analyze(project(scan, {col("day")})));
  EXPECT_EQ(shape(pruned), "Project [day#N]\n+- Relation [day#N] csv\n");
}

}  // namespace
}  // namespace bowstring::plan
