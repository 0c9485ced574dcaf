#include "bowstring/compute/core/lambda_function.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "bowstring/compute/core/errors.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring::compute {
namespace {

using testing::make_array;

// Rows 0 and 2 of any call: a stand-in for a conditional function's rule.
std::optional<RowWords> even_rows(size_t, std::span<const Datum>, int64_t) {
  return RowWords{0b101};
}

// A function of one argument whose result type is the argument's; its kernel records the
// output type it was given and returns the argument.
struct Echo {
  std::shared_ptr<TypePtr> seen_output = std::make_shared<TypePtr>();

  LambdaScalarFunction make(NullHandling null_handling, LambdaScalarTraits traits = {}) const {
    return LambdaScalarFunction(
        "echo", {1, 1}, null_handling, "Echoes.", {"(T) -> T"},
        [](const std::string& name, std::span<const TypePtr> arguments) {
          if (arguments[0]->id() == TypeId::kBoolean) {
            throw AnalysisError("DATATYPE_MISMATCH", name + " refuses booleans");
          }
          return Resolution{arguments[0], {arguments[0]}};
        },
        [seen = seen_output](std::span<const Datum> arguments, const TypePtr& output,
                             ExecContext&) {
          *seen = output;
          return arguments[0];
        },
        std::move(traits));
  }
};

TEST(LambdaScalarFunctionTest, TheKernelGetsTheResolvedOutputType) {
  const Echo echo;
  const LambdaScalarFunction function = echo.make(NullHandling::kPropagates);
  ExecContext context;
  const Datum arguments[] = {Datum(make_array<int32_t>({1, 2}))};
  const Datum result = function.execute(arguments, {}, context);
  EXPECT_TRUE(result.array().equals(make_array<int32_t>({1, 2})));
  ASSERT_NE(*echo.seen_output, nullptr);
  EXPECT_TRUE((*echo.seen_output)->equals(*int32()));
}

TEST(LambdaScalarFunctionTest, ANullTypedArgumentGivesNullsWhenNullsPropagate) {
  const Echo echo;
  ExecContext context;
  const Datum nulls[] = {Datum(Datum::null_scalar(null()).to_array(3))};
  const Datum result = echo.make(NullHandling::kPropagates).execute(nulls, {}, context);
  ASSERT_TRUE(result.is_array());
  EXPECT_EQ(result.length(), 3);
  EXPECT_EQ(result.array().null_count(), 3);
  EXPECT_EQ(*echo.seen_output, nullptr) << "the kernel is not called";

  const Datum null_scalar[] = {Datum::null_scalar(null())};
  EXPECT_TRUE(echo.make(NullHandling::kPropagates).execute(null_scalar, {}, context).is_scalar());

  echo.make(NullHandling::kCustom).execute(nulls, {}, context);
  EXPECT_NE(*echo.seen_output, nullptr) << "a function that looks at nulls itself gets them";
}

TEST(LambdaScalarFunctionTest, TheResolverWithoutAnsiServesOnlyCallsWithAnsiOff) {
  const Echo echo;
  LambdaScalarTraits traits;
  traits.resolver_without_ansi = [](const std::string&, std::span<const TypePtr>) {
    return Resolution{utf8(), {utf8()}};
  };
  const LambdaScalarFunction function = echo.make(NullHandling::kPropagates, traits);
  const TypePtr types[] = {int64()};
  EXPECT_TRUE(function.resolve_with(types, {}, ResolveContext{}).output->equals(*int64()));
  ResolveContext without_ansi;
  without_ansi.ansi = false;
  EXPECT_TRUE(function.resolve_with(types, {}, without_ansi).output->equals(*utf8()));
  const TypePtr booleans[] = {boolean()};
  EXPECT_THROW(function.resolve(booleans, {}), AnalysisError);
  EXPECT_NO_THROW(echo.make(NullHandling::kPropagates).resolve_with(types, {}, without_ansi))
      << "without the trait one resolver serves both modes";
}

TEST(LambdaScalarFunctionTest, RowsReadingFollowsTheTraitElseTheDefault) {
  const Echo echo;
  const Datum arguments[] = {Datum(make_array<int32_t>({1, std::nullopt, 3}))};
  LambdaScalarTraits traits;
  traits.rows_reading = even_rows;
  EXPECT_EQ(echo.make(NullHandling::kCustom, traits).rows_reading(0, arguments, 3),
            RowWords{0b101});
  EXPECT_FALSE(echo.make(NullHandling::kCustom).rows_reading(0, arguments, 3).has_value())
      << "a function that looks at nulls itself reads every row";
}

TEST(LambdaAggregateFunctionTest, ResolvesByNameAndMakesAggregators) {
  int made = 0;
  const LambdaAggregateFunction function(
      "pick", {1, 1}, NullHandling::kCustom, "Picks.", {"(T) -> T"},
      [](const std::string& name, std::span<const TypePtr> arguments) {
        if (arguments[0]->id() == TypeId::kBoolean) {
          throw AnalysisError("DATATYPE_MISMATCH", name + " refuses booleans");
        }
        return Resolution{arguments[0], {arguments[0]}};
      },
      [&made](std::span<const TypePtr>, const FunctionOptions&,
              ExecContext&) -> std::unique_ptr<GroupedAggregator> {
        ++made;
        return nullptr;
      });
  const TypePtr types[] = {int16()};
  EXPECT_TRUE(function.resolve(types, {}).output->equals(*int16()));
  const TypePtr booleans[] = {boolean()};
  EXPECT_THROW(
      {
        try {
          function.resolve(booleans, {});
        } catch (const AnalysisError& error) {
          EXPECT_NE(std::string(error.what()).find("pick refuses booleans"), std::string::npos);
          throw;
        }
      },
      AnalysisError);
  ExecContext context;
  EXPECT_EQ(function.make_aggregator(types, {}, context), nullptr);
  EXPECT_EQ(made, 1);
  EXPECT_EQ(function.kind(), Function::Kind::kAggregate);
}

}  // namespace
}  // namespace bowstring::compute
