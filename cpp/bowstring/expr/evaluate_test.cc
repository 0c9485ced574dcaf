#include <gtest/gtest.h>

#include <atomic>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/expr/bind.h"
#include "bowstring/expr/expr_testing.h"
#include "bowstring/expr/rows.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::expr {
namespace {

using bowstring::testing::error_message;
using bowstring::testing::make_array;
using bowstring::testing::make_string_array;
using bowstring::testing::make_struct_array;
using compute::Datum;
using std::nullopt;

class EvaluateTest : public ::testing::Test {
 protected:
  EvaluateTest() {
    const Array x = make_array<int64_t>({0, 5, nullopt, -2, 0, 10});
    const Array y = make_array<double>({1.5, nullopt, 3.0, 4.0, 5.0, 6.0});
    const Array flag = make_array<bool>({true, false, nullopt, true, nullopt, false});
    const Array name = make_string_array({"ann", "bob", nullopt, "cy", "dee", "ed"});
    const Array text = make_string_array({"1", "x", "3", nullopt, "5", "y"});
    batch_ =
        RecordBatch(schema({field("x", int64()), field("y", float64()), field("flag", boolean()),
                            field("name", utf8()), field("text", utf8())}),
                    {x, y, flag, name, text});
  }

  BoundExpression bind_one(const ExprPtr& expression) {
    return bind_expression(expression, *batch_.schema(), registry_, &context_);
  }
  Datum run(const ExprPtr& expression) { return run_on(expression, batch_); }
  Datum run_on(const ExprPtr& expression, const RecordBatch& batch) {
    return bind_expression(expression, *batch.schema(), registry_, &context_)
        .evaluate(batch, context_);
  }

  std::shared_ptr<std::atomic<int64_t>> rows_seen_ = std::make_shared<std::atomic<int64_t>>(0);
  compute::FunctionRegistry registry_ = testing::test_registry(rows_seen_);
  compute::ExecContext context_;
  RecordBatch batch_{schema({}), 0, {}};
};

ExprPtr divide(ExprPtr a, ExprPtr b) { return call("/", {std::move(a), std::move(b)}); }
ExprPtr equal(ExprPtr a, ExprPtr b) { return call("=", {std::move(a), std::move(b)}); }

void expect_array(const Datum& actual, const Array& expected) {
  ASSERT_TRUE(actual.is_array()) << actual.to_string();
  EXPECT_TRUE(actual.array().equals(expected))
      << "actual " << actual.array().to_string() << "\nexpected " << expected.to_string();
}

TEST_F(EvaluateTest, ColumnReferencesAreNotCopied) {
  const Datum x = run(col("X"));
  ASSERT_TRUE(x.is_array());
  EXPECT_EQ(x.data(), batch_.column(0).data());
  const RecordBatch sliced = batch_.slice(2, 3);
  EXPECT_EQ(run_on(col("name"), sliced).data(), sliced.column(3).data());
}

TEST_F(EvaluateTest, StructFieldsInheritStructNulls) {
  const Array cities = make_string_array({"Paris", "Oslo", nullopt});
  const Array address = make_struct_array({{"city", cities}}, {true, false, true});
  const RecordBatch batch(schema({field("address", address.type())}), {address});
  expect_array(run_on(col("ADDRESS.City"), batch), make_string_array({"Paris", nullopt, nullopt}));
}

TEST_F(EvaluateTest, BatchWithoutTheColumnIsRefused) {
  const BoundExpression name = bind_one(col("name"));
  EXPECT_THROW(name.evaluate(batch_.select(std::vector<int>{0}), context_), InvalidArgument);
}

TEST_F(EvaluateTest, FunctionsWithNullsAndImplicitCasts) {
  expect_array(run(call("+", {col("x"), col("y")})),
               make_array<double>({1.5, nullopt, nullopt, 2.0, 5.0, 16.0}));
  expect_array(run(call("upper", {col("name")})),
               make_string_array({"ANN", "BOB", nullopt, "CY", "DEE", "ED"}));
  expect_array(run(call("+", {col("x"), lit(1)})), make_array<int64_t>({1, 6, nullopt, -1, 1, 11}));
}

TEST_F(EvaluateTest, SlicedBatches) {
  const RecordBatch sliced = batch_.slice(1, 4);
  expect_array(run_on(call("+", {col("x"), lit(1)}), sliced),
               make_array<int64_t>({6, nullopt, -1, 1}));
  expect_array(run_on(not_(col("flag")), sliced),
               make_array<bool>({true, nullopt, false, nullopt}));
  expect_array(run_on(is_null(col("x")), sliced), make_array<bool>({false, true, false, false}));
  expect_array(
      run_on(case_when({{equal(col("x"), lit(0)), lit(0.0)}}, divide(lit(10), col("x"))), sliced),
      make_array<double>({2.0, nullopt, -5.0, 0.0}));
}

TEST_F(EvaluateTest, LiteralsStayScalars) {
  const Datum one = run(lit(1));
  EXPECT_TRUE(one.is_scalar());
  const Datum folded = run(call("+", {lit(1), lit(2)}));
  ASSERT_TRUE(folded.is_scalar());
  EXPECT_EQ(folded.array().as<Int64Array>().value(0), 3);
}

TEST_F(EvaluateTest, IsNullAndNot) {
  expect_array(run(is_null(col("y"))), make_array<bool>({false, true, false, false, false, false}));
  expect_array(run(is_not_null(col("flag"))),
               make_array<bool>({true, true, false, true, false, true}));
  expect_array(run(not_(col("flag"))),
               make_array<bool>({false, true, nullopt, false, nullopt, true}));
  // NOT of a string casts it to BOOLEAN, as Spark does (here through the test cast, which has
  // no STRING to BOOLEAN conversion: binding reports it).
  EXPECT_THROW(run(not_(col("name"))), compute::AnalysisError);
}

TEST_F(EvaluateTest, KleeneLogic) {
  const Array left =
      make_array<bool>({true, true, true, false, false, false, nullopt, nullopt, nullopt});
  const Array right =
      make_array<bool>({true, false, nullopt, true, false, nullopt, true, false, nullopt});
  const RecordBatch batch(schema({field("l", boolean()), field("r", boolean())}), {left, right});
  expect_array(
      run_on(and_(col("l"), col("r")), batch),
      make_array<bool>({true, false, nullopt, false, false, false, nullopt, false, nullopt}));
  expect_array(run_on(or_(col("l"), col("r")), batch),
               make_array<bool>({true, true, true, true, false, nullopt, true, nullopt, nullopt}));
  // Scalar sides.
  expect_array(run_on(and_(null_literal(null()), col("r")), batch),
               make_array<bool>(
                   {nullopt, false, nullopt, nullopt, false, nullopt, nullopt, false, nullopt}));
  EXPECT_TRUE(run_on(or_(lit(true), col("r")), batch).is_scalar());
}

TEST_F(EvaluateTest, AndOrShortCircuit) {
  // x = 0 rows are decided by the left side; the division never sees them.
  const ExprPtr guarded =
      and_(not_(equal(col("x"), lit(0))), equal(divide(lit(10), col("x")), lit(2.0)));
  expect_array(run(guarded), make_array<bool>({false, true, nullopt, false, false, false}));
  const ExprPtr either = or_(equal(col("x"), lit(0)), equal(divide(lit(10), col("x")), lit(1.0)));
  expect_array(run(either), make_array<bool>({true, false, nullopt, false, true, true}));
  // Without the guard the division raises.
  EXPECT_THROW(run(equal(divide(lit(10), col("x")), lit(2.0))), compute::ArithmeticError);

  // The right side sees only the undecided rows.
  *rows_seen_ = 0;
  run(and_(col("flag"), call("rows_seen", {col("flag")})));
  EXPECT_EQ(*rows_seen_, 4);
  *rows_seen_ = 0;
  run(and_(lit(false), call("rows_seen", {col("flag")})));
  EXPECT_EQ(*rows_seen_, 0);
}

TEST_F(EvaluateTest, CaseWhenShortCircuits) {
  // Spark: CASE WHEN x = 0 THEN 0 ELSE 10 / x END does not raise DIVIDE_BY_ZERO.
  const ExprPtr safe = case_when({{equal(col("x"), lit(0)), lit(0.0)}}, divide(lit(10), col("x")));
  expect_array(run(safe), make_array<double>({0.0, 2.0, nullopt, -5.0, 0.0, 1.0}));

  // Several branches; rows matching none and no ELSE are null.
  const ExprPtr grade = case_when({{equal(col("x"), lit(0)), lit("zero")},
                                   {equal(col("x"), lit(5)), lit("five")},
                                   {col("flag"), col("name")}});
  expect_array(run(grade), make_string_array({"zero", "five", nullopt, "cy", "zero", nullopt}));

  // A raising branch that no row reaches is not evaluated at all, not even on scalars.
  const ExprPtr unreached =
      case_when({{equal(col("x"), lit(100)), divide(lit(1), lit(0))}}, lit(1.0));
  const Datum unreached_value = run(unreached);
  ASSERT_TRUE(unreached_value.is_scalar());
  EXPECT_EQ(unreached_value.array().as<DoubleArray>().value(0), 1.0);
  // ... but it raises once a row reaches it.
  EXPECT_THROW(run(case_when({{equal(col("x"), lit(5)), divide(lit(1), lit(0))}}, lit(1.0))),
               compute::ArithmeticError);

  *rows_seen_ = 0;
  run(case_when({{col("flag"), call("rows_seen", {col("x")})}}, lit(int64_t{7})));
  EXPECT_EQ(*rows_seen_, 2);
}

TEST_F(EvaluateTest, ColumnBranchesAreReadInPlace) {
  // Columns as conditions and values are read whole and indexed by row rather than gathered.
  expect_array(run(case_when({{equal(col("x"), lit(0)), lit("z")}, {col("flag"), col("name")}},
                             col("text"))),
               make_string_array({"z", "x", "3", "cy", "z", "y"}));
  expect_array(run(call("coalesce", {col("name"), col("text"), lit("?")})),
               make_string_array({"ann", "bob", "3", "cy", "dee", "ed"}));
  expect_array(run(call("coalesce", {col("x"), lit(int64_t{99})})),
               make_array<int64_t>({0, 5, 99, -2, 0, 10}));
  expect_array(run(case_when({{col("flag"), col("x")}}, lit(int64_t{-1}))),
               make_array<int64_t>({0, -1, -1, -2, -1, -1}));
}

TEST_F(EvaluateTest, IfAndCoalesceShortCircuit) {
  expect_array(run(call("if", {equal(col("x"), lit(0)), lit(0.0), divide(lit(10), col("x"))})),
               make_array<double>({0.0, 2.0, nullopt, -5.0, 0.0, 1.0}));
  expect_array(run(call("coalesce", {col("y"), divide(lit(1), col("x"))})),
               make_array<double>({1.5, 0.2, 3.0, 4.0, 5.0, 6.0}));
  expect_array(run(call("coalesce", {col("name"), lit("?")})),
               make_string_array({"ann", "bob", "?", "cy", "dee", "ed"}));
  *rows_seen_ = 0;
  run(call("coalesce", {col("y"), call("rows_seen", {col("y")})}));
  EXPECT_EQ(*rows_seen_, 1);
}

TEST_F(EvaluateTest, FoldedErrorsRaiseAtRunTime) {
  // 1 / 0 stays unfolded at bind time; evaluating it over rows raises.
  const BoundExpression division = bind_one(divide(lit(1), lit(0)));
  const std::string error =
      error_message<compute::ArithmeticError>([&] { division.evaluate(batch_, context_); });
  EXPECT_EQ(error, "[DIVIDE_BY_ZERO] Division by zero in '/'");
  // An invalid cast raises only on rows that reach it.
  expect_array(run(case_when({{is_null(col("text")), lit(int64_t{0})},
                              {equal(col("x"), lit(0)), cast(col("text"), int64())}})),
               make_array<int64_t>({1, nullopt, nullopt, 0, 5, nullopt}));
  EXPECT_THROW(run(cast(col("text"), int64())), compute::NumberFormatError);
  expect_array(run(try_cast(col("text"), int64())),
               make_array<int64_t>({1, nullopt, 3, nullopt, 5, nullopt}));
}

TEST_F(EvaluateTest, InUsesTheRegistry) {
  expect_array(run(in(col("x"), {lit(0), lit(10)})),
               make_array<bool>({true, false, nullopt, false, true, true}));
  expect_array(run(in(col("x"), {lit(0), null_literal(int64())})),
               make_array<bool>({true, nullopt, nullopt, nullopt, true, nullopt}));
}

TEST_F(EvaluateTest, Filter) {
  const RecordBatch kept = filter(batch_, bind_one(col("flag")), context_);
  ASSERT_EQ(kept.num_rows(), 2);
  EXPECT_TRUE(kept.column(0).equals(make_array<int64_t>({0, -2})));
  EXPECT_TRUE(kept.column(3).equals(make_string_array({"ann", "cy"})));

  const RecordBatch all = filter(batch_, bind_one(lit(true)), context_);
  EXPECT_EQ(all.column(1).data(), batch_.column(1).data());
  EXPECT_EQ(filter(batch_, bind_one(null_literal(boolean())), context_).num_rows(), 0);
  EXPECT_EQ(filter(batch_, bind_one(is_not_null(col("name"))), context_).num_rows(), 5);

  const RecordBatch sliced = filter(batch_.slice(3), bind_one(equal(col("x"), lit(0))), context_);
  ASSERT_EQ(sliced.num_rows(), 1);
  EXPECT_TRUE(sliced.column(3).equals(make_string_array({"dee"})));

  const RecordBatch empty = filter(batch_.slice(0, 0), bind_one(col("flag")), context_);
  EXPECT_EQ(empty.num_rows(), 0);
  EXPECT_THROW(filter(batch_, bind_one(col("x")), context_), compute::AnalysisError);
}

TEST_F(EvaluateTest, Project) {
  const std::vector<BoundExpression> expressions = {
      bind_one(col("Name")), bind_one(call("+", {col("x"), lit(1)})), bind_one(lit(7)),
      bind_one(alias(is_null(col("y")), "missing"))};
  const RecordBatch out = project(batch_, expressions, {}, context_);
  ASSERT_EQ(out.num_columns(), 4);
  EXPECT_EQ(out.schema()->field_names(),
            (std::vector<std::string>{"Name", "(x + 1)", "7", "missing"}));
  EXPECT_EQ(out.column(0).data(), batch_.column(3).data());
  EXPECT_TRUE(out.column(2).equals(make_array<int32_t>({7, 7, 7, 7, 7, 7})));
  EXPECT_FALSE(out.schema()->field(2)->nullable());
  EXPECT_FALSE(out.schema()->field(3)->nullable());

  const std::vector<std::string> names = {"a", "b", "c", "d"};
  EXPECT_EQ(project(batch_, expressions, names, context_).schema()->field_names(), names);
  const std::vector<std::string> too_few = {"a"};
  EXPECT_THROW(project(batch_, expressions, too_few, context_), InvalidArgument);
}

TEST_F(EvaluateTest, ManyRowsAcrossWordsAndSlices) {
  // 300 rows with zeros and nulls scattered, sliced at an odd offset, against row-by-row
  // expectations.
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < 300; ++i) {
    values.push_back(i % 11 == 5 ? std::optional<int64_t>() : std::optional<int64_t>(i % 7 - 3));
  }
  const RecordBatch batch =
      RecordBatch(schema({field("x", int64())}), {make_array<int64_t>(values)}).slice(3, 290);
  std::vector<std::optional<double>> quotients;
  std::vector<std::optional<bool>> guarded;
  for (int64_t i = 3; i < 293; ++i) {
    const std::optional<int64_t> x = values[static_cast<size_t>(i)];
    if (!x.has_value()) {
      quotients.push_back(std::nullopt);
      guarded.push_back(std::nullopt);
    } else if (*x == 0) {
      quotients.push_back(0.0);
      guarded.push_back(false);
    } else {
      quotients.push_back(10.0 / static_cast<double>(*x));
      guarded.push_back(10.0 / static_cast<double>(*x) == 5.0);
    }
  }
  expect_array(
      run_on(case_when({{equal(col("x"), lit(0)), lit(0.0)}}, divide(lit(10), col("x"))), batch),
      make_array<double>(quotients));
  expect_array(
      run_on(and_(not_(equal(col("x"), lit(0))), equal(divide(lit(10), col("x")), lit(5.0))),
             batch),
      make_array<bool>(guarded));
  const RecordBatch kept =
      filter(batch, bind_expression(equal(col("x"), lit(0)), *batch.schema(), registry_), context_);
  int64_t zeros = 0;
  for (const std::optional<double>& quotient : quotients) {
    zeros += quotient == 0.0 ? 1 : 0;
  }
  EXPECT_EQ(kept.num_rows(), zeros);
}

RowMask mask_of(int64_t length, std::initializer_list<int64_t> rows) {
  RowMask mask = RowMask::none(length);
  for (int64_t row : rows) {
    mask.words[static_cast<size_t>(row / 64)] |= uint64_t{1} << (row % 64);
  }
  return mask;
}

TEST(Rows, MasksCountAndConvert) {
  EXPECT_EQ(RowMask::all(130).count(), 130);
  EXPECT_TRUE(RowMask::all(130).is_all());
  EXPECT_TRUE(RowMask::none(130).empty());
  EXPECT_TRUE(mask_of(4, {1, 3})
                  .to_array(default_allocator())
                  .equals(make_array<bool>({false, true, false, true})));
}

TEST(Rows, ScatterAnyType) {
  const RowMask first = mask_of(5, {0, 3});
  const RowMask second = mask_of(5, {2});
  const RowMask all = RowMask::all(5);
  const RowMask fourth = mask_of(5, {4});
  // Compact values, a scalar, and values read in place from a whole column.
  const Array column = make_string_array({"a", "b", "c", "d", "e"}).slice(0, 5);
  const RowPiece strings[] = {{make_string_array({"x", "y"}), &first, &first},
                              {Datum::scalar(make_string_array({"s"})), &second, &second},
                              {column, &all, &fourth, true}};
  EXPECT_TRUE(scatter(utf8(), 5, strings, default_allocator())
                  .equals(make_string_array({"x", nullopt, "s", "y", "e"})));
  const Array numbers_column = make_array<int64_t>({0, 1, 2, 3, 40, 5}).slice(1, 5);
  const RowPiece numbers[] = {{make_array<int64_t>({7, nullopt}), &first, &first},
                              {Datum::scalar(make_array<int64_t>({9})), &second, &second},
                              {numbers_column, &all, &fourth, true}};
  EXPECT_TRUE(scatter(int64(), 5, numbers, default_allocator())
                  .equals(make_array<int64_t>({7, nullopt, 9, nullopt, 5})));
  // A target smaller than the rows the compact values were computed for.
  const RowMask only_last = mask_of(5, {3});
  const RowPiece flags[] = {{make_array<bool>({true, false}), &first, &only_last}};
  EXPECT_TRUE(scatter(boolean(), 5, flags, default_allocator())
                  .equals(make_array<bool>({nullopt, nullopt, nullopt, false, nullopt})));
}

}  // namespace
}  // namespace bowstring::expr
