// Casts under a function call apply only to the rows where the function reads them, as Spark
// evaluates per row: expected values and errors checked against PySpark 4.3 (ANSI mode).

#include <gtest/gtest.h>

#include <optional>
#include <string>

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

class LazyCastTest : public ::testing::Test {
 protected:
  LazyCastTest() {
    // t is malformed where n is null, u where n is not.
    batch_ = RecordBatch(
        schema(
            {field("n", int32()), field("t", utf8()), field("u", utf8()), field("c", boolean())}),
        {make_array<int32_t>({1, nullopt, 3, nullopt}),
         make_string_array({"2", "abc", "4", "1e400"}), make_string_array({"abc", "5", "xyz", "6"}),
         make_array<bool>({true, false, true, false})});
  }
  BoundExpression bind_one(const ExprPtr& expression) {
    return bind_expression(expression, *batch_.schema(), compute::default_registry(), &context_);
  }
  Datum run(const ExprPtr& expression) { return run_on(expression, batch_); }
  Datum run_on(const ExprPtr& expression, const RecordBatch& batch) {
    return bind_one(expression).evaluate(batch, context_);
  }
  std::string cast_error(const ExprPtr& expression) {
    return error_message<compute::NumberFormatError>([&] { run(expression); });
  }

  compute::ExecContext context_;
  RecordBatch batch_{schema({}), 0, {}};
};

void expect_array(const Datum& actual, const Array& expected) {
  ASSERT_TRUE(actual.is_array()) << actual.to_string();
  EXPECT_TRUE(actual.array().equals(expected))
      << "actual " << actual.array().to_string() << "\nexpected " << expected.to_string();
}

TEST_F(LazyCastTest, ArithmeticSkipsRowsAfterANull) {
  expect_array(run(call("+", {col("n"), col("t")})), make_array<int64_t>({3, nullopt, 7, nullopt}));
  // Spark reads the left side first: t + n raises on the row where n is null.
  EXPECT_TRUE(cast_error(call("+", {col("t"), col("n")})).starts_with("[CAST_INVALID_INPUT]"));
  // The divisor first, the dividend only where the divisor is not null.
  expect_array(run(call("/", {col("t"), col("n")})),
               make_array<double>({2.0, nullopt, 4.0 / 3.0, nullopt}));
  EXPECT_TRUE(cast_error(call("/", {col("n"), col("t")})).starts_with("[CAST_INVALID_INPUT]"));
  // A literal: n + 'abc' is NULL where n is.
  expect_array(run_on(call("+", {col("n"), lit("abc")}), batch_.slice(3, 1)),
               make_array<int64_t>({nullopt}));
  // Sliced batches.
  expect_array(run_on(call("+", {col("n"), col("t")}), batch_.slice(1, 3)),
               make_array<int64_t>({nullopt, 7, nullopt}));
}

TEST_F(LazyCastTest, CastsWrittenInTheQueryUnderACall) {
  // SELECT n + CAST(t AS BIGINT): NULL where n is NULL, as in Spark.
  expect_array(run(call("+", {col("n"), cast(col("t"), int64())})),
               make_array<int64_t>({3, nullopt, 7, nullopt}));
  // On its own the cast reads every row.
  EXPECT_TRUE(cast_error(cast(col("t"), int64())).starts_with("[CAST_INVALID_INPUT]"));
  // A chain of casts: the inner one too is applied only where read.
  expect_array(run(call("+", {col("n"), cast(cast(col("t"), int64()), int32())})),
               make_array<int32_t>({3, nullopt, 7, nullopt}));
}

TEST_F(LazyCastTest, BranchesAreCastOnlyWhereTaken) {
  const Array expected = make_array<int64_t>({1, 5, 3, 6});
  expect_array(run(call("nvl2", {col("n"), col("n"), col("u")})), expected);
  expect_array(run(call("case_when", {col("c"), col("n"), col("u")})), expected);
  expect_array(run(call("if", {col("c"), col("n"), col("u")})), expected);
  expect_array(run(call("coalesce", {col("n"), col("u")})), expected);
  EXPECT_TRUE(
      cast_error(call("nvl2", {col("n"), col("u"), col("n")})).starts_with("[CAST_INVALID_INPUT]"));
}

TEST_F(LazyCastTest, InNanvlAndNullif) {
  // n IN (u, 1): NULL where n is NULL; u read where n is not (and raises there).
  EXPECT_TRUE(cast_error(in(col("n"), {col("u"), lit(1)})).starts_with("[CAST_INVALID_INPUT]"));
  // n IN (1, 3, u): u read only where n is neither 1 nor 3 nor NULL.
  expect_array(run(in(col("n"), {lit(1), lit(3), col("u")})),
               make_array<bool>({true, nullopt, true, nullopt}));
  expect_array(run(call("nullif", {col("n"), col("t")})),
               make_array<int32_t>({1, nullopt, 3, nullopt}));
  // nanvl(CAST(n AS DOUBLE), u): u read on NaN rows only, of which there are none.
  expect_array(run(call("nanvl", {cast(col("n"), float64()), col("u")})),
               make_array<double>({1.0, nullopt, 3.0, nullopt}));
}

TEST_F(LazyCastTest, ConditionalCallsEvaluateLaterOperandsWhereRead) {
  const ExprPtr one_by_zero = call("/", {lit(1), lit(0)});
  // nvl2(n, 1 / 0, 2): the division only where n is not null.
  expect_array(run_on(call("nvl2", {col("n"), one_by_zero, lit(2.0)}), batch_.slice(1, 1)),
               make_array<double>({2.0}));
  EXPECT_THROW(run(call("nvl2", {col("n"), one_by_zero, lit(2.0)})), compute::ArithmeticError);
  // nanvl(CAST(n AS DOUBLE), 1 / 0): no NaN, no division.
  expect_array(run(call("nanvl", {cast(col("n"), float64()), one_by_zero})),
               make_array<double>({1.0, nullopt, 3.0, nullopt}));
  // case_when(c, n, u + 1): the else value only where c is false, on its rows only.
  expect_array(run(call("case_when", {col("c"), col("n"), call("+", {col("u"), lit(1)})})),
               make_array<int64_t>({1, 6, 3, 7}));
  // n IN (1, 3, n / 0): the division where n is neither 1 nor 3 (nor NULL): nowhere.
  expect_array(run(in(col("n"), {lit(1), lit(3), call("/", {col("n"), lit(0)})})),
               make_array<bool>({true, nullopt, true, nullopt}));
}

TEST_F(LazyCastTest, TryFunctionsGiveNullForMalformedStrings) {
  const BoundExpression sum = bind_one(call("try_add", {col("u"), lit(1)}));
  EXPECT_EQ(sum.to_string(), "try_add(TRY_CAST(u AS BIGINT), 1L)");
  expect_array(sum.evaluate(batch_, context_), make_array<int64_t>({nullopt, 6, nullopt, 7}));
  // SELECT try_add('abc', 1) is NULL.
  const Datum folded = run(call("try_add", {lit("abc"), lit(1)}));
  ASSERT_TRUE(folded.is_scalar());
  EXPECT_TRUE(folded.scalar_is_null());
  // A cast written in the query still raises: try_add(CAST(u AS BIGINT), 1).
  EXPECT_TRUE(cast_error(call("try_add", {cast(col("u"), int64()), lit(1)}))
                  .starts_with("[CAST_INVALID_INPUT]"));
}

}  // namespace
}  // namespace bowstring::expr
