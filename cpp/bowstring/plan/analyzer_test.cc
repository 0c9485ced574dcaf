#include "bowstring/plan/analyzer.h"

#include <gtest/gtest.h>

#include <regex>

#include "bowstring/compute/core/errors.h"
#include "bowstring/plan/explain.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring::plan {
namespace {

using bowstring::testing::make_array;
using bowstring::testing::make_string_array;
using compute::AnalysisError;
using expr::call;
using expr::col;
using expr::lit;

PlanPtr people() {
  SchemaPtr schema = bowstring::schema(
      {field("name", utf8()), field("age", int32()), field("city", utf8(), false)});
  return local_relation(Table(schema, 2,
                              {ChunkedArray(make_string_array({"ann", "bob"})),
                               ChunkedArray(make_array<int32_t>({30, std::nullopt})),
                               ChunkedArray(make_string_array({"x", "y"}))}));
}

/// The plan's text with attribute ids replaced by #N, so tests do not depend on their values.
std::string without_ids(const std::string& text) {
  return std::regex_replace(text, std::regex("#[0-9]+"), "#N");
}

/// The condition and message of the analysis error `analyze(plan)` throws.
std::string analysis_error(const PlanPtr& plan) {
  try {
    analyze(plan);
  } catch (const AnalysisError& error) {
    return error.what();
  }
  return "no error";
}

TEST(Analyzer, ResolvesNamesCaseInsensitivelyAndKeepsAttributes) {
  const PlanPtr resolved = analyze(project(people(), {col("NAME"), col("age")}));
  ASSERT_TRUE(resolved->resolved);
  ASSERT_EQ(resolved->output.size(), 2U);
  // A column selected under another spelling is named as the user wrote it.
  EXPECT_EQ(resolved->output[0].name, "NAME");
  EXPECT_EQ(resolved->output[1].name, "age");
  EXPECT_EQ(resolved->output[1].id, resolved->child()->output[1].id);
  EXPECT_EQ(resolved->output[1].type->id(), TypeId::kInt32);
}

TEST(Analyzer, ComputedColumnsGetNewAttributesWithTypesAndNullability) {
  const PlanPtr resolved =
      analyze(project(people(), {expr::alias(call("+", {col("age"), lit(int64_t{1})}), "next"),
                                 col("city"), call("upper", {col("city")})}));
  EXPECT_EQ(resolved->output[0].name, "next");
  EXPECT_EQ(resolved->output[0].type->id(), TypeId::kInt64);
  EXPECT_TRUE(resolved->output[0].nullable);
  EXPECT_FALSE(resolved->output[1].nullable);
  EXPECT_EQ(resolved->output[2].name, "upper(city)");
  EXPECT_EQ(without_ids(tree_string(resolved)),
            "Project [(age#N + 1L) AS next#NL, city#N, upper(city#N) AS "
            "upper(city)#N]\n"
            "+- LocalRelation [name#N, age#N, city#N]\n");
}

TEST(Analyzer, StarExpandsToEveryColumnOrOneRelation) {
  const PlanPtr all = analyze(project(people(), {col("*")}));
  EXPECT_EQ(all->output.size(), 3U);
  const PlanPtr joined = analyze(project(
      join(subquery_alias(people(), "l"), subquery_alias(range(0, 2), "r"), JoinType::kCross),
      {col("r.*"), col("l.name")}));
  ASSERT_EQ(joined->output.size(), 2U);
  EXPECT_EQ(joined->output[0].name, "id");
  EXPECT_EQ(joined->output[1].name, "name");
  EXPECT_NE(analysis_error(project(people(), {col("t.*")})).find("CANNOT_RESOLVE_STAR_EXPAND"),
            std::string::npos);
}

TEST(Analyzer, UnknownColumnsSuggestTheClosestNames) {
  EXPECT_EQ(analysis_error(project(people(), {col("nmae")})),
            "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with "
            "name `nmae` cannot be resolved. Did you mean one of the following? [`name`, `age`, "
            "`city`].");
}

TEST(Analyzer, DuplicateNamesAfterAJoinAreAmbiguousUnlessQualified) {
  const PlanPtr pair = join(subquery_alias(people(), "l"), subquery_alias(people(), "r"),
                            JoinType::kInner, call("=", {col("l.name"), col("r.name")}));
  EXPECT_EQ(analysis_error(project(pair, {col("age")})),
            "[AMBIGUOUS_REFERENCE] Reference `age` is ambiguous, could be: [`l`.`age`, "
            "`r`.`age`].");
  const PlanPtr resolved = analyze(project(pair, {col("l.age"), col("R.age")}));
  EXPECT_NE(resolved->output[0].id, resolved->output[1].id);
}

TEST(Analyzer, OuterJoinsMakeTheOtherSideNullable) {
  const PlanPtr left = analyze(join(people(), range(0, 1), JoinType::kLeftOuter));
  ASSERT_EQ(left->output.size(), 4U);
  EXPECT_FALSE(left->output[2].nullable);  // city keeps its nullability
  EXPECT_TRUE(left->output[3].nullable);   // range's id becomes nullable
  const PlanPtr semi = analyze(join(people(), range(0, 1), JoinType::kLeftSemi));
  EXPECT_EQ(semi->output.size(), 3U);
}

TEST(Analyzer, FilterNeedsABooleanCondition) {
  EXPECT_EQ(analysis_error(filter(people(), col("age"))),
            "[DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN] Cannot resolve \"age\" due to data type "
            "mismatch: Filter expression \"age\" of type \"INT\" is not a boolean.");
}

TEST(Analyzer, TypeErrorsNameTheUsersColumns) {
  const std::string message =
      analysis_error(project(people(), {call("+", {col("city"), lit(true)})}));
  EXPECT_NE(message.find("DATATYPE_MISMATCH"), std::string::npos) << message;
  EXPECT_NE(message.find("city"), std::string::npos) << message;
  EXPECT_EQ(message.find('#'), std::string::npos) << message;
}

TEST(Analyzer, AggregatesSplitIntoCallsAndTheExpressionsAroundThem) {
  const PlanPtr resolved = analyze(aggregate(
      people(), {col("city")},
      {col("city"), expr::alias(call("+", {call("sum", {col("age")}), lit(int64_t{1})}), "s"),
       call("count", {col("age")}), call("sum", {col("age")})}));
  ASSERT_EQ(resolved->kind, LogicalPlan::Kind::kProject);
  const LogicalPlan& grouped = *resolved->child();
  ASSERT_EQ(grouped.kind, LogicalPlan::Kind::kAggregate);
  // sum(age) appears twice but is computed once.
  EXPECT_EQ(grouped.expressions.size(), 2U);
  EXPECT_EQ(without_ids(tree_string(resolved)),
            "Project [city#N, (sum(age)#NL + 1L) AS s#NL, count(age)#NL, sum(age)#NL]\n"
            "+- Aggregate [city#N], [city#N, sum(age#N) AS sum(age)#NL, "
            "count(age#N) AS count(age)#NL]\n"
            "   +- LocalRelation [name#N, age#N, city#N]\n");
  EXPECT_FALSE(resolved->output[2].nullable);
  EXPECT_TRUE(resolved->output[3].nullable);
}

TEST(Analyzer, SelectingAnAggregateMakesAGlobalAggregate) {
  const PlanPtr resolved = analyze(project(people(), {call("max", {col("age")})}));
  ASSERT_EQ(resolved->child()->kind, LogicalPlan::Kind::kAggregate);
  EXPECT_TRUE(resolved->child()->grouping.empty());
}

TEST(Analyzer, ColumnsOutsideAggregatesMustBeGrouped) {
  EXPECT_EQ(analysis_error(
                aggregate(people(), {col("city")}, {col("name"), call("count", {col("age")})})),
            "[MISSING_AGGREGATION] The non-aggregating expression \"name\" is based on columns "
            "which are not participating in the GROUP BY clause. Add the columns or the "
            "expression to the GROUP BY, aggregate the expression, or use \"any_value(name)\" "
            "if you do not care which of the values within a group is returned.");
  EXPECT_NE(analysis_error(aggregate(people(), {}, {call("sum", {call("max", {col("age")})})}))
                .find("NESTED_AGGREGATE_FUNCTION"),
            std::string::npos);
  EXPECT_NE(analysis_error(aggregate(people(), {}, {call("no_such_function", {col("age")})}))
                .find("UNRESOLVED_ROUTINE"),
            std::string::npos);
  // An expression of grouping keys is fine.
  EXPECT_NO_THROW(analyze(aggregate(people(), {col("city")}, {call("upper", {col("city")})})));
}

TEST(Analyzer, UnionChecksWidthsAndWidensTypes) {
  EXPECT_EQ(analysis_error(union_all({people(), range(0, 1)})),
            "[NUM_COLUMNS_MISMATCH] UNION can only be performed on inputs with the same number "
            "of columns, but the first input has 3 columns and the second input has 1 columns.");
  const PlanPtr ages = project(people(), {col("age")});
  const PlanPtr resolved = analyze(union_all({ages, range(0, 1)}));
  EXPECT_EQ(resolved->output[0].type->id(), TypeId::kInt64);
  EXPECT_EQ(resolved->output[0].name, "age");
  const std::string message = analysis_error(
      union_all({ages, project(range(0, 1), {expr::cast(lit("2024-01-02"), date32())})}));
  EXPECT_NE(message.find("INCOMPATIBLE_COLUMN_TYPE"), std::string::npos) << message;
}

TEST(Analyzer, UnionByNameReordersAndFindsMissingColumns) {
  const PlanPtr a = project(people(), {col("age"), col("name")});
  const PlanPtr b = project(people(), {col("name"), col("age")});
  const PlanPtr resolved = analyze(union_all({a, b}, true));
  EXPECT_EQ(resolved->output[0].name, "age");
  EXPECT_EQ(resolved->output[0].type->id(), TypeId::kInt32);
  EXPECT_NE(analysis_error(union_all({a, project(people(), {col("name")})}, true))
                .find("UNRESOLVED_COLUMN"),
            std::string::npos);
}

TEST(Analyzer, SortsAndFiltersMayReadColumnsTheProjectionDropped) {
  const PlanPtr sorted =
      analyze(sort(project(people(), {col("name")}), {{col("age"), compute::SortKey{}}}));
  EXPECT_EQ(without_ids(tree_string(sorted)),
            "Project [name#N]\n"
            "+- Sort [age#N ASC NULLS FIRST], true\n"
            "   +- Project [name#N, age#N, city#N]\n"
            "      +- LocalRelation [name#N, age#N, city#N]\n");
  EXPECT_EQ(analyze(filter(project(people(), {col("name")}), call(">", {col("age"), lit(1)})))
                ->output.size(),
            1U);
  // A name that is nowhere keeps the error of the projection's columns.
  EXPECT_NE(
      analysis_error(sort(project(people(), {col("name")}), {{col("nope"), {}}})).find("[`name`]"),
      std::string::npos);
}

TEST(Analyzer, JoinTypesParseAsPySparkSpellsThem) {
  EXPECT_EQ(parse_join_type("left_outer"), JoinType::kLeftOuter);
  EXPECT_EQ(parse_join_type("FULL"), JoinType::kFullOuter);
  EXPECT_EQ(parse_join_type("anti"), JoinType::kLeftAnti);
  EXPECT_THROW(parse_join_type("sideways"), AnalysisError);
}

TEST(Analyzer, UnresolvedPlansPrintWithQuotes) {
  EXPECT_EQ(tree_string(filter(project(people(), {col("age")}), call(">", {col("age"), lit(1)}))),
            "'Filter ('age > 1)\n"
            "+- 'Project ['age]\n"
            "   +- LocalRelation [name, age, city]\n");
}

TEST(Analyzer, BuildersRejectBadArguments) {
  EXPECT_THROW(range(0, 10, 0), InvalidArgument);
  EXPECT_THROW(limit(people(), -2), InvalidArgument);
  EXPECT_THROW(limit(people(), 1, -1), InvalidArgument);
  EXPECT_THROW(filter(people(), nullptr), InvalidArgument);
  EXPECT_THROW(union_all({}), InvalidArgument);
  EXPECT_THROW(project(nullptr, {col("a")}), InvalidArgument);
}

}  // namespace
}  // namespace bowstring::plan
