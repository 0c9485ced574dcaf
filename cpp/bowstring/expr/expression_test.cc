#include "bowstring/expr/expression.h"

#include <gtest/gtest.h>

#include "bowstring/compute/core/function.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring::expr {
namespace {

using compute::Datum;

// Expected texts checked against PySpark 4 (`df.select(F.expr(...)).columns`).
TEST(ExpressionText, OperatorsAndFunctions) {
  const ExprPtr plus = call("+", {col("a"), lit(1)});
  EXPECT_EQ(plus->to_string(), "(a + 1)");
  EXPECT_EQ(plus->output_name(), "(a + 1)");
  EXPECT_EQ(call("*", {plus, lit(2)})->output_name(), "((a + 1) * 2)");
  EXPECT_EQ(call("upper", {col("s")})->output_name(), "upper(s)");
  EXPECT_EQ(call("==", {col("s"), lit("x")})->output_name(), "(s = x)");
  EXPECT_EQ(call("==", {col("s"), lit("x")})->to_string(), "(s = 'x')");
  EXPECT_EQ(call("concat", {col("s"), lit("y")})->output_name(), "concat(s, y)");
  EXPECT_EQ(call("negative", {col("a")})->output_name(), "negative(a)");
  EXPECT_EQ(call("<=>", {col("a"), lit(1)})->output_name(), "(a <=> 1)");
  EXPECT_EQ(call("if", {call("=", {col("a"), lit(0)}), lit(0), call("/", {lit(10), col("a")})})
                ->output_name(),
            "(IF((a = 0), 0, (10 / a)))");
  EXPECT_EQ(call("coalesce", {col("a"), lit(3)})->output_name(), "coalesce(a, 3)");
}

TEST(ExpressionText, Literals) {
  EXPECT_EQ(lit(int64_t{1})->to_string(), "1L");
  EXPECT_EQ(call("+", {col("a"), lit(int64_t{1})})->output_name(), "(a + 1)");
  EXPECT_EQ(lit(1.5)->output_name(), "1.5");
  EXPECT_EQ(lit(1.5)->to_string(), "1.5D");
  EXPECT_EQ(lit(1e20)->output_name(), "1.0E20");
  EXPECT_EQ(lit(10.0)->output_name(), "10.0");
  EXPECT_EQ(lit(int64_t{1099511627776})->output_name(), "1099511627776");
  EXPECT_EQ(lit("x")->output_name(), "x");
  EXPECT_EQ(lit("it's")->to_string(), "'it\\'s'");
  EXPECT_EQ(lit(true)->output_name(), "true");
  EXPECT_EQ(null_literal(null())->output_name(), "NULL");
  EXPECT_EQ(null_literal(int32())->to_string(), "CAST(NULL AS INT)");
  const Datum date = Datum::scalar(testing::make_array<int32_t>(date32(), {18263}));
  EXPECT_EQ(lit(date)->output_name(), "DATE '2020-01-02'");
  EXPECT_THROW(lit(Datum(testing::make_array<int32_t>({1, 2}))), InvalidArgument);
}

TEST(ExpressionText, SpecialForms) {
  const ExprPtr when =
      case_when({{call("=", {col("a"), lit(0)}), lit(0)}}, call("/", {lit(10), col("a")}));
  EXPECT_EQ(when->output_name(), "CASE WHEN (a = 0) THEN 0 ELSE (10 / a) END");
  EXPECT_EQ(case_when({{call("=", {col("a"), lit(0)}), lit("z")}})->output_name(),
            "CASE WHEN (a = 0) THEN z END");
  EXPECT_EQ(in(col("a"), {lit(1), lit(2)})->output_name(), "(a IN (1, 2))");
  EXPECT_EQ(is_null(col("a"))->output_name(), "(a IS NULL)");
  EXPECT_EQ(is_not_null(col("a"))->output_name(), "(a IS NOT NULL)");
  EXPECT_EQ(not_(col("b"))->output_name(), "(NOT b)");
  EXPECT_EQ(and_(col("b"), call(">", {col("a"), lit(1)}))->output_name(), "(b AND (a > 1))");
  EXPECT_EQ(or_(col("b"), col("b"))->output_name(), "(b OR b)");
  EXPECT_EQ(alias(call("+", {col("a"), lit(1)}), "z")->output_name(), "z");
}

TEST(ExpressionText, Casts) {
  // Spark names the cast of a column after the column, and other casts by their SQL text.
  EXPECT_EQ(cast(col("a"), int32())->output_name(), "a");
  EXPECT_EQ(cast(col("a"), int32())->to_string(), "CAST(a AS INT)");
  EXPECT_EQ(try_cast(col("s"), int32())->output_name(), "s");
  EXPECT_EQ(try_cast(col("s"), int32())->to_string(), "TRY_CAST(s AS INT)");
  EXPECT_EQ(cast(call("+", {col("a"), lit(1)}), utf8())->output_name(), "CAST((a + 1) AS STRING)");
  EXPECT_EQ(cast(null_literal(null()), int32())->output_name(), "CAST(NULL AS INT)");
}

TEST(ExpressionText, ColumnNames) {
  EXPECT_EQ(col("s.city")->output_name(), "city");
  EXPECT_EQ(col("s.city")->to_string(), "s.city");
  EXPECT_EQ(col("`a b`")->output_name(), "a b");
  EXPECT_EQ(col("`a b`")->to_string(), "`a b`");
  EXPECT_EQ(call("+", {col("`a b`"), lit(1)})->output_name(), "(a b + 1)");
}

}  // namespace
}  // namespace bowstring::expr
