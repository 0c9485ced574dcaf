// Expressions over the built-in functions of the default registry. Expected values and
// messages checked against PySpark 4 (ANSI mode).

#include <gtest/gtest.h>

#include "bowstring/compute/core/errors.h"
#include "bowstring/expr/bind.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::expr {
namespace {

using bowstring::testing::error_message;
using bowstring::testing::make_array;
using bowstring::testing::make_string_array;
using compute::Datum;
using std::nullopt;

class DefaultRegistryTest : public ::testing::Test {
 protected:
  DefaultRegistryTest() {
    batch_ =
        RecordBatch(schema({field("a", int32()), field("x", int64()), field("y", float64()),
                            field("s", utf8())}),
                    {make_array<int32_t>({1, 2, nullopt, 4}), make_array<int64_t>({0, 5, 2, 0}),
                     make_array<double>({nullopt, 1.5, 2.5, nullopt}),
                     make_string_array({"7", "x", nullopt, "12"})});
  }
  BoundExpression bind_one(const ExprPtr& expression) {
    return bind_expression(expression, *batch_.schema(), compute::default_registry(), &context_);
  }
  Datum run(const ExprPtr& expression) { return bind_one(expression).evaluate(batch_, context_); }
  std::string bind_error(const ExprPtr& expression) {
    return error_message<compute::AnalysisError>([&] { bind_one(expression); });
  }

  compute::ExecContext context_;
  RecordBatch batch_{schema({}), 0, {}};
};

void expect_array(const Datum& actual, const Array& expected) {
  ASSERT_TRUE(actual.is_array()) << actual.to_string();
  EXPECT_TRUE(actual.array().equals(expected))
      << "actual " << actual.array().to_string() << "\nexpected " << expected.to_string();
}

TEST_F(DefaultRegistryTest, ArithmeticWithSparkCoercion) {
  // a + 1L: INT meets BIGINT, Spark computes in BIGINT and names the column "(a + 1)".
  const BoundExpression sum = bind_one(call("+", {col("a"), lit(int64_t{1})}));
  EXPECT_EQ(sum.to_string(), "(CAST(a AS BIGINT) + 1L)");
  EXPECT_EQ(sum.output_name(), "(a + 1)");
  expect_array(sum.evaluate(batch_, context_), make_array<int64_t>({2, 3, nullopt, 5}));
  // Integer division with / gives DOUBLE.
  const BoundExpression ratio = bind_one(call("/", {col("a"), lit(2)}));
  EXPECT_TRUE(ratio.type()->equals(*float64()));
  expect_array(ratio.evaluate(batch_, context_), make_array<double>({0.5, 1.0, nullopt, 2.0}));
}

TEST_F(DefaultRegistryTest, DivisionByZeroOnlyOnRowsThatReachIt) {
  const ExprPtr division = call("/", {lit(10), col("x")});
  const std::string error = error_message<compute::ArithmeticError>([&] { run(division); });
  EXPECT_TRUE(error.starts_with("[DIVIDE_BY_ZERO]")) << error;
  // y is null exactly where x is 0: those rows take the first branch.
  expect_array(run(case_when({{is_null(col("y")), lit(0.0)}}, division)),
               make_array<double>({0.0, 2.0, 5.0, 0.0}));
  expect_array(run(call("if", {is_not_null(col("y")), division, lit(0.0)})),
               make_array<double>({0.0, 2.0, 5.0, 0.0}));
}

TEST_F(DefaultRegistryTest, CaseWhenGuardsDivisionByZero) {
  // Spark: CASE WHEN x = 0 THEN 0 ELSE 10 / x END never raises DIVIDE_BY_ZERO.
  const BoundExpression safe = bind_one(
      case_when({{call("=", {col("x"), lit(0)}), lit(0)}}, call("/", {lit(10), col("x")})));
  EXPECT_EQ(safe.output_name(), "CASE WHEN (x = 0) THEN 0 ELSE (10 / x) END");
  EXPECT_TRUE(safe.type()->equals(*float64()));
  expect_array(safe.evaluate(batch_, context_), make_array<double>({0.0, 2.0, 5.0, 0.0}));
  // The same guard through AND, OR and IF.
  expect_array(run(and_(call("!=", {col("x"), lit(0)}),
                        call(">", {call("/", {lit(10), col("x")}), lit(3)}))),
               make_array<bool>({false, false, true, false}));
  expect_array(
      run(or_(call("=", {col("x"), lit(0)}), call(">", {call("/", {lit(10), col("x")}), lit(3)}))),
      make_array<bool>({true, false, true, true}));
  expect_array(run(call("if", {call("<>", {col("x"), lit(0)}), call("/", {lit(10), col("x")}),
                               null_literal(null())})),
               make_array<double>({nullopt, 2.0, 5.0, nullopt}));
  EXPECT_THROW(run(call(">", {call("/", {lit(10), col("x")}), lit(3)})), compute::ArithmeticError);
}

TEST_F(DefaultRegistryTest, ComparisonsInAndFilter) {
  // Spark 4 ANSI compares a string with an integer as BIGINT.
  const BoundExpression equal = bind_one(call("=", {col("a"), lit("2")}));
  EXPECT_EQ(equal.to_string(), "(CAST(a AS BIGINT) = 2L)");
  expect_array(equal.evaluate(batch_, context_), make_array<bool>({false, true, nullopt, false}));
  expect_array(run(in(col("x"), {lit(0), lit(2)})), make_array<bool>({true, false, true, true}));
  EXPECT_EQ(bind_one(in(col("x"), {lit(0), lit(2)})).output_name(), "(x IN (0, 2))");
  const BoundExpression positive =
      bind_one(and_(call(">", {col("x"), lit(0)}), is_not_null(col("a"))));
  const RecordBatch kept = filter(batch_, positive, context_);
  ASSERT_EQ(kept.num_rows(), 1);
  EXPECT_TRUE(kept.column(0).equals(make_array<int32_t>({2})));
  const std::string error = error_message<compute::AnalysisError>([&] {
    bind_one(case_when({{null_literal(null()), lit(1)}}));
  });
  EXPECT_TRUE(
      error.starts_with("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "
                        "\"CASE WHEN NULL THEN 1 END\""))
      << error;
}

TEST_F(DefaultRegistryTest, ConstantFoldingLeavesOverflowToRunTime) {
  const BoundExpression overflow =
      bind_one(call("+", {lit(int64_t{9223372036854775807}), lit(int64_t{1})}));
  EXPECT_EQ(overflow.root().kind, BoundNode::Kind::kCall);
  EXPECT_THROW(overflow.evaluate(batch_, context_), compute::ArithmeticError);
  // No row reaches the overflowing branch: no error.
  const BoundExpression guarded = bind_one(case_when(
      {{is_null(col("x")), call("+", {lit(int64_t{9223372036854775807}), lit(int64_t{1})})}},
      col("x")));
  expect_array(guarded.evaluate(batch_, context_), make_array<int64_t>({0, 5, 2, 0}));
  const BoundExpression folded = bind_one(call("*", {lit(6), lit(7)}));
  EXPECT_EQ(folded.to_string(), "42");
}

TEST_F(DefaultRegistryTest, Casts) {
  EXPECT_EQ(bind_one(cast(col("a"), utf8())).to_string(), "CAST(a AS STRING)");
  const std::string error =
      error_message<compute::NumberFormatError>([&] { run(cast(col("s"), int32())); });
  EXPECT_TRUE(
      error.starts_with("[CAST_INVALID_INPUT] The value 'x' of the type \"STRING\" "
                        "cannot be cast to \"INT\""))
      << error;
  expect_array(run(try_cast(col("s"), int32())), make_array<int32_t>({7, nullopt, nullopt, 12}));
  const std::string mismatch =
      error_message<compute::AnalysisError>([&] { bind_one(cast(col("a"), date32())); });
  EXPECT_TRUE(
      mismatch.starts_with("[DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION] Cannot resolve "
                           "\"CAST(a AS DATE)\" due to data type mismatch: "))
      << mismatch;
}

// Spark: typeof(round(CAST(1 AS DECIMAL(10,4)), 2)) is decimal(9,2), and so for bround, floor
// and ceil with scale 2; round(CAST(1.23456 AS DECIMAL(10,4)), 2) = 1.23. A column scale is
// DATATYPE_MISMATCH.NON_FOLDABLE_INPUT (round) or NON_FOLDABLE_ARGUMENT (ceil).
TEST_F(DefaultRegistryTest, RoundingTypeFollowsTheConstantScale) {
  const RecordBatch prices(
      schema({field("d", decimal128(10, 4)), field("s", int32())}),
      {testing::make_decimal_array(decimal128(10, 4), {"0.0000", "1.2346", std::nullopt, "-9.9950"})
           .slice(1),
       make_array<int32_t>({2, 2, 2, 2}).slice(1)});
  for (const char* name : {"round", "bround", "floor", "ceil"}) {
    const BoundExpression rounded = bind_expression(
        call(name, {col("d"), lit(2)}), *prices.schema(), compute::default_registry(), &context_);
    EXPECT_TRUE(rounded.type()->equals(*decimal128(9, 2))) << name << " " << rounded.type();
    EXPECT_TRUE(rounded.evaluate(prices, context_).type()->equals(*rounded.type())) << name;
  }
  const BoundExpression rounded = bind_expression(call("round", {col("d"), lit(2)}),
                                                  *prices.schema(), compute::default_registry());
  expect_array(rounded.evaluate(prices, context_),
               testing::make_decimal_array(decimal128(9, 2), {"1.23", std::nullopt, "-10.00"}));
  // A folded constant keeps the declared type too.
  const BoundExpression folded = bind_expression(
      call("round", {lit(Datum::scalar(testing::make_decimal_array(decimal128(10, 4), {"1.2346"}))),
                     lit(-2)}),
      *prices.schema(), compute::default_registry());
  EXPECT_EQ(folded.root().kind, BoundNode::Kind::kLiteral);
  EXPECT_TRUE(folded.type()->equals(*decimal128(7, 0)));
  const std::string column_scale = error_message<compute::AnalysisError>([&] {
    bind_expression(call("round", {col("d"), col("s")}), *prices.schema(),
                    compute::default_registry());
  });
  EXPECT_TRUE(
      column_scale.starts_with("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] Cannot resolve "
                               "\"round(d, s)\" due to data type mismatch:"))
      << column_scale;
  EXPECT_THROW(bind_expression(call("ceil", {col("d"), col("s")}), *prices.schema(),
                               compute::default_registry()),
               compute::AnalysisError);
}

// Spark with spark.sql.ansi.enabled=false: s + 4 reads s as DOUBLE ('7' + 4 = 11.0, 'x' + 4 =
// NULL); NOT 'x' is UNEXPECTED_INPUT_TYPE ("Cannot resolve "(NOT x)" due to data type mismatch:
// The first parameter requires the "BOOLEAN" type, however "x" has the type "STRING"."), 'x' AND
// true and NULL AND 'x' BINARY_OP_DIFF_TYPES. CAST(1 AS BINARY) is X'00000001' with ANSI off and
// CAST_WITH_CONF_SUGGESTION at analysis with ANSI on.
TEST_F(DefaultRegistryTest, AnsiFlagDecidesCoercionAtBind) {
  context_.ansi = false;
  const BoundExpression sum = bind_one(call("+", {col("s"), lit(4)}));
  EXPECT_TRUE(sum.type()->equals(*float64()));
  expect_array(sum.evaluate(batch_, context_), make_array<double>({11.0, nullopt, nullopt, 16.0}));
  EXPECT_EQ(bind_error(not_(lit("x"))),
            "[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve \"(NOT 'x')\" due to data "
            "type mismatch: The first parameter requires the \"BOOLEAN\" type, however \"'x'\" "
            "has the type \"STRING\".");
  EXPECT_TRUE(bind_error(and_(col("s"), lit(true)))
                  .starts_with("[DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES]"));
  EXPECT_NE(bind_error(and_(null_literal(null()), col("s"))).find("(\"VOID\" and \"STRING\")"),
            std::string::npos);
  EXPECT_TRUE(
      bind_error(or_(col("s"), col("s"))).starts_with("[DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE]"));
  expect_array(run(cast(col("a"), binary())),
               make_string_array({std::string("\0\0\0\1", 4), std::string("\0\0\0\2", 4), nullopt,
                                  std::string("\0\0\0\4", 4)},
                                 binary()));

  context_.ansi = true;
  EXPECT_TRUE(bind_one(call("+", {col("s"), lit(4)})).type()->equals(*int64()));
  EXPECT_EQ(bind_error(cast(col("a"), binary())),
            "[DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION] Cannot resolve \"CAST(a AS BINARY)\" "
            "due to data type mismatch: cannot cast \"INT\" to \"BINARY\" with ANSI mode on. If "
            "you have to cast \"INT\" to \"BINARY\", you can set \"spark.sql.ansi.enabled\" as "
            "'false'.");
  EXPECT_EQ(run(not_(lit("true"))).array().to_string(), make_array<bool>({false}).to_string());
}

}  // namespace
}  // namespace bowstring::expr
