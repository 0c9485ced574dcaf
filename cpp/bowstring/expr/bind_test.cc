#include "bowstring/expr/bind.h"

#include <gtest/gtest.h>

#include "bowstring/compute/core/errors.h"
#include "bowstring/expr/expr_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::expr {
namespace {

using bowstring::testing::error_message;
using compute::AnalysisError;

class BindTest : public ::testing::Test {
 protected:
  BoundExpression bind_one(const ExprPtr& expression) {
    return bind_expression(expression, *schema_, registry_, &context_);
  }
  std::string bind_error(const ExprPtr& expression) {
    return error_message<AnalysisError>([&] { bind_one(expression); });
  }

  SchemaPtr schema_ =
      schema({field("name", utf8()), field("age", int32(), false), field("score", float64()),
              field("flag", boolean()), field("address", struct_({field("City", utf8())}))});
  compute::FunctionRegistry registry_ = testing::test_registry();
  compute::ExecContext context_;
};

TEST_F(BindTest, ColumnsResolveIgnoringCase) {
  const BoundExpression age = bind_one(col("AGE"));
  EXPECT_EQ(age.root().kind, BoundNode::Kind::kColumn);
  EXPECT_EQ(age.root().path, std::vector<int>{1});
  EXPECT_TRUE(age.type()->equals(*int32()));
  EXPECT_FALSE(age.nullable());
  // Spark keeps the spelling of the reference in the column name: C1 gives "C1".
  EXPECT_EQ(age.output_name(), "AGE");
  EXPECT_EQ(age.to_string(), "age");

  const BoundExpression city = bind_one(col("address.city"));
  EXPECT_EQ(city.root().path, (std::vector<int>{4, 0}));
  EXPECT_EQ(city.referenced_columns(), std::vector<int>{4});
  EXPECT_EQ(city.to_string(), "address.City");
  EXPECT_EQ(city.output_name(), "city");
}

TEST_F(BindTest, UnknownColumnSuggestsClosestNames) {
  // Spark 4: A column, variable, or function parameter with name `nmae` cannot be resolved.
  EXPECT_EQ(bind_error(col("nmae")),
            "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with "
            "name `nmae` cannot be resolved. Did you mean one of the following? [`age`, `name`, "
            "`flag`, `score`, `address`].");
  // Spark 4 suggests these, in this order, for columns name, age, address, amount.
  const SchemaPtr people = schema({field("name", int32()), field("age", int32()),
                                   field("address", int32()), field("amount", int32())});
  EXPECT_NE(error_message<AnalysisError>([&] {
              bind_expression(col("nmae"), *people, registry_);
            }).find("[`age`, `name`, `amount`, `address`]."),
            std::string::npos);
  EXPECT_NE(error_message<AnalysisError>([&] {
              bind_expression(col("agee"), *people, registry_);
            }).find("[`age`, `name`, `address`, `amount`]."),
            std::string::npos);
  const std::string error = bind_error(call("+", {col("agee"), lit(1)}));
  EXPECT_NE(error.find("`agee` cannot be resolved. Did you mean one of the following? [`age`"),
            std::string::npos)
      << error;
  EXPECT_EQ(error_message<AnalysisError>([] { bind_expression(col("x"), *schema({}), {}); }),
            "[UNRESOLVED_COLUMN.WITHOUT_SUGGESTION] A column, variable, or function parameter "
            "with name `x` cannot be resolved.");
  EXPECT_EQ(bind_error(col("address.town")),
            "[FIELD_NOT_FOUND] No such struct field `town` in `City`.");
}

TEST_F(BindTest, AmbiguousNames) {
  const SchemaPtr twice = schema({field("name", int32()), field("NAME", int32())});
  EXPECT_EQ(error_message<AnalysisError>([&] { bind_expression(col("Name"), *twice, registry_); }),
            "[AMBIGUOUS_REFERENCE] Reference `Name` is ambiguous, could be: [`Name`, `Name`].");
  // An exact-case match is still ambiguous in Spark, which compares names ignoring case.
  EXPECT_THROW(bind_expression(col("name"), *twice, registry_), AnalysisError);
}

TEST_F(BindTest, UnknownFunction) {
  const std::string error = bind_error(call("uper", {col("name")}));
  EXPECT_TRUE(error.starts_with("[UNRESOLVED_ROUTINE] Cannot resolve routine `uper`")) << error;
  EXPECT_NE(error.find("upper"), std::string::npos) << error;
}

TEST_F(BindTest, WrongArgumentCount) {
  EXPECT_EQ(bind_error(call("upper", {col("name"), col("name")})),
            "[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The `upper` requires 1 parameters but the "
            "actual number is 2.");
  EXPECT_EQ(bind_error(call("if", {col("flag"), lit(1)})),
            "[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The `if` requires 3 parameters but the actual "
            "number is 2.");
}

TEST_F(BindTest, TypeMismatchNamesExpressionAndTypes) {
  // Spark: Cannot resolve "(NOT a)" due to data type mismatch: The first parameter requires
  // the "BOOLEAN" type, however "a" has the type "INT".
  EXPECT_EQ(bind_error(not_(col("age"))),
            "[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve \"(NOT age)\" due to data "
            "type mismatch: The first parameter requires the \"BOOLEAN\" type, however \"age\" "
            "has the type \"INT\".");
  EXPECT_EQ(bind_error(and_(col("flag"), lit(1))),
            "[DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES] Cannot resolve \"(flag AND 1)\" due to "
            "data type mismatch: the left and right operands of the binary operator have "
            "incompatible types (\"BOOLEAN\" and \"INT\").");
  EXPECT_EQ(bind_error(case_when({{col("age"), lit(1)}})),
            "[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve \"CASE WHEN age THEN 1 "
            "END\" due to data type mismatch: The first parameter requires the \"BOOLEAN\" type, "
            "however \"age\" has the type \"INT\".");
  // A function's own type error gets the expression's text.
  EXPECT_EQ(bind_error(call("+", {col("age"), col("name")})),
            "[DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES] Cannot resolve \"(age + name)\" due to "
            "data type mismatch: the left and right operands of the binary operator have "
            "incompatible types (\"INT\" and \"STRING\").");
  EXPECT_EQ(bind_error(cast(col("flag"), int64())),
            "[DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION] Cannot resolve \"CAST(flag AS BIGINT)\" "
            "due to data type mismatch: cannot cast \"BOOLEAN\" to \"BIGINT\".");
  EXPECT_EQ(bind_error(case_when({{col("flag"), lit(1)}}, col("flag"))),
            "[DATATYPE_MISMATCH.DATA_DIFF_TYPES] Cannot resolve \"CASE WHEN flag THEN 1 ELSE "
            "flag END\" due to data type mismatch: Input to `casewhen` should all be the same "
            "type, but it's [\"INT\", \"BOOLEAN\"].");
}

TEST_F(BindTest, ImplicitCastsAreInserted) {
  const BoundExpression sum = bind_one(call("+", {col("age"), col("score")}));
  EXPECT_EQ(sum.to_string(), "(CAST(age AS DOUBLE) + score)");
  EXPECT_EQ(sum.output_name(), "(age + score)");
  EXPECT_TRUE(sum.type()->equals(*float64()));
  const BoundNode& cast_node = *sum.root().operands[0];
  EXPECT_EQ(cast_node.kind, BoundNode::Kind::kCast);
  EXPECT_TRUE(cast_node.implicit);
  EXPECT_FALSE(cast_node.nullable);
  EXPECT_TRUE(sum.nullable());
  EXPECT_EQ(sum.referenced_columns(), (std::vector<int>{1, 2}));

  // CASE values meet in their wider type; NOT casts a string to BOOLEAN.
  const BoundExpression when =
      bind_one(case_when({{col("flag"), col("age")}}, call("/", {col("score"), lit(2)})));
  EXPECT_EQ(when.to_string(), "CASE WHEN flag THEN CAST(age AS DOUBLE) ELSE (score / 2.0D) END");
  EXPECT_TRUE(when.type()->equals(*float64()));
  EXPECT_TRUE(bind_one(case_when({{col("flag"), lit(1)}})).nullable());
  EXPECT_FALSE(bind_one(case_when({{col("flag"), lit(1)}}, lit(2))).nullable());
}

TEST_F(BindTest, ConstantsFold) {
  const BoundExpression sum = bind_one(call("+", {lit(1), call("+", {lit(2), lit(3)})}));
  EXPECT_EQ(sum.root().kind, BoundNode::Kind::kLiteral);
  EXPECT_EQ(sum.to_string(), "6L");
  EXPECT_EQ(sum.output_name(), "(1 + (2 + 3))");
  EXPECT_FALSE(sum.nullable());

  const BoundExpression partly = bind_one(call("+", {col("age"), call("+", {lit(2), lit(3)})}));
  EXPECT_EQ(partly.to_string(), "(CAST(age AS BIGINT) + 5L)");

  const BoundExpression logic = bind_one(and_(lit(true), is_null(null_literal(int32()))));
  EXPECT_EQ(logic.root().kind, BoundNode::Kind::kLiteral);
  EXPECT_EQ(logic.to_string(), "true");

  const BoundExpression when = bind_one(case_when({{lit(false), lit(1)}}, lit(2)));
  EXPECT_EQ(when.to_string(), "2");

  // Nondeterministic functions are never folded.
  const BoundExpression random = bind_one(call("+", {call("random", {}), lit(1.0)}));
  EXPECT_EQ(random.root().kind, BoundNode::Kind::kCall);
  EXPECT_FALSE(random.root().deterministic);
}

TEST_F(BindTest, FoldingDoesNotRaise) {
  // 1 / 0 raises DIVIDE_BY_ZERO, but only when a row needs it: binding keeps it unfolded.
  const BoundExpression division = bind_one(call("/", {lit(1), lit(0)}));
  EXPECT_EQ(division.root().kind, BoundNode::Kind::kCall);
  EXPECT_EQ(division.to_string(), "(1.0D / 0.0D)");
  const BoundExpression overflow =
      bind_one(call("+", {lit(int64_t{9223372036854775807}), lit(int64_t{1})}));
  EXPECT_EQ(overflow.root().kind, BoundNode::Kind::kCall);
  EXPECT_EQ(bind_one(cast(lit("12x"), int64())).root().kind, BoundNode::Kind::kCast);
  EXPECT_EQ(bind_one(try_cast(lit("12x"), int64())).to_string(), "CAST(NULL AS BIGINT)");
}

TEST_F(BindTest, LiteralsOnlyExpressionsNeedNoColumns) {
  EXPECT_TRUE(bind_one(lit(1)).referenced_columns().empty());
  EXPECT_TRUE(bind_one(lit(1)).type()->equals(*int32()));
  EXPECT_TRUE(bind_one(null_literal(null())).nullable());
}

TEST_F(BindTest, CoalesceAndIf) {
  const BoundExpression first = bind_one(call("coalesce", {col("name"), lit("none")}));
  EXPECT_EQ(first.root().kind, BoundNode::Kind::kCoalesce);
  EXPECT_EQ(first.to_string(), "coalesce(name, 'none')");
  EXPECT_FALSE(first.nullable());
  const BoundExpression choice = bind_one(call("IF", {col("flag"), col("age"), lit(2.5)}));
  EXPECT_EQ(choice.root().kind, BoundNode::Kind::kCaseWhen);
  EXPECT_EQ(choice.to_string(), "(IF(flag, CAST(age AS DOUBLE), 2.5D))");
}

}  // namespace
}  // namespace bowstring::expr
