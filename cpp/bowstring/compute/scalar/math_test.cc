#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

using testing::error_message;
using testing::make_array;
using testing::make_decimal_array;
using testing::make_string_array;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Datum run(std::string_view name, std::vector<Datum> arguments, bool ansi = true,
          FunctionOptions options = {}) {
  ExecContext context;
  context.ansi = ansi;
  return call(name, arguments, options, &context);
}

Datum scalar(Array one_value) { return Datum::scalar(std::move(one_value)); }
Datum int_scalar(int32_t value) { return scalar(make_array<int32_t>({value})); }

// Doubles compared bit for bit except that any NaN equals any NaN (-0.0 differs from 0.0).
void expect_doubles(const Datum& actual, const std::vector<std::optional<double>>& expected) {
  ASSERT_EQ(actual.type()->id(), TypeId::kFloat64) << actual.to_string();
  const DoubleArray values(actual.array());
  ASSERT_EQ(values.length(), static_cast<int64_t>(expected.size())) << actual.to_string();
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto row = static_cast<int64_t>(i);
    if (!expected[i]) {
      EXPECT_TRUE(values.is_null(row)) << "row " << i << " of " << actual.to_string();
      continue;
    }
    ASSERT_FALSE(values.is_null(row)) << "row " << i << " of " << actual.to_string();
    const double value = values.value(row);
    if (std::isnan(*expected[i])) {
      EXPECT_TRUE(std::isnan(value)) << "row " << i << ": " << value;
    } else {
      EXPECT_EQ(value, *expected[i]) << "row " << i << " of " << actual.to_string();
      EXPECT_EQ(std::signbit(value), std::signbit(*expected[i])) << "row " << i;
    }
  }
}

void expect_array(const Datum& actual, const Array& expected) {
  EXPECT_TRUE(actual.array().equals(expected))
      << "actual " << actual.to_string() << "\nexpected " << expected.to_string();
}

// Spark: sqrt(-1) is NaN but ln(0), ln(-1), log10(0), log2(0), log1p(-1) are NULL.
TEST(Math, LogarithmsAreNullOutsideTheirDomain) {
  const Array x = make_array<double>({1, 0, -1, std::nullopt, std::numbers::e});
  expect_doubles(run("ln", {x}), {0.0, std::nullopt, std::nullopt, std::nullopt, 1.0});
  expect_doubles(run("log", {x}), {0.0, std::nullopt, std::nullopt, std::nullopt, 1.0});
  expect_doubles(run("log10", {make_array<double>({100, 0})}), {2.0, std::nullopt});
  expect_doubles(run("log2", {make_array<double>({8, -3})}), {3.0, std::nullopt});
  expect_doubles(run("log1p", {make_array<double>({0, -1, -2})}),
                 {0.0, std::nullopt, std::nullopt});
  expect_doubles(run("sqrt", {make_array<double>({4, -1})}), {2.0, kNaN});
  // log(base, x): Spark gives log(10, 100) = 2, log(2, 8) = 3, log(0, 8) = NULL, log(1, 8) =
  // Infinity, log(10, -1) = NULL.
  expect_doubles(
      run("log", {make_array<double>({10, 2, 0, 1, 10}), make_array<double>({100, 8, 8, 8, -1})}),
      {2.0, 3.0, std::nullopt, kInf, std::nullopt});
  expect_doubles(run("log", {scalar(make_array<double>({2})), make_array<double>({8, 0.5})}),
                 {3.0, -1.0});
}

TEST(Math, PowersAndTrigonometry) {
  // Spark: pow(2, 10) = 1024.0, power(-8, 1/3) = NaN, pow(0, -1) = Infinity.
  expect_doubles(
      run("pow", {make_array<double>({2, -8, 0}), make_array<double>({10, 1.0 / 3, -1})}),
      {1024.0, kNaN, kInf});
  expect_doubles(run("power", {make_array<double>({3}), scalar(make_array<double>({2}))}), {9.0});
  expect_doubles(run("cbrt", {make_array<double>({27})}), {3.0});
  expect_doubles(run("hypot", {make_array<double>({3}), make_array<double>({4})}), {5.0});
  expect_doubles(run("degrees", {make_array<double>({std::numbers::pi})}), {180.0});
  expect_doubles(run("radians", {make_array<double>({180})}), {std::numbers::pi});
  expect_doubles(run("atan2", {make_array<double>({1}), make_array<double>({1})}),
                 {std::numbers::pi / 4});
  expect_doubles(run("sin", {make_array<double>({0})}), {0.0});
  expect_doubles(run("cos", {make_array<double>({0})}), {1.0});
  expect_doubles(run("exp", {make_array<double>({0})}), {1.0});
  expect_doubles(run("pi", {}), {std::numbers::pi});
  expect_doubles(run("e", {}), {std::numbers::e});
  // Spark: sign(-5) = -1.0, signum(0.0) = 0.0, sign(NaN) = NaN, sign(-0.0) = -0.0.
  expect_doubles(run("sign", {make_array<double>({-5, 0, kNaN, -0.0, std::nullopt})}),
                 {-1.0, 0.0, kNaN, -0.0, std::nullopt});
  expect_doubles(run("sqrt", {make_array<double>({})}), {});
  expect_doubles(run("sqrt", {make_array<double>({1, 4, 9, 16}).slice(1, 2)}), {2.0, 3.0});
}

// Spark adds 0.0 to atan2's arguments: atan2(-0.0D, -0.0D) = atan2(0.0D, -0.0D) = 0.0,
// atan2(-0.0D, -1D) = pi, atan2(-0.0D, 1D) = 0.0. Java's pow: pow(-0.0D, -1D) = -Infinity,
// pow(-0.0D, 3D) = -0.0, pow(-1D, Infinity) = NaN, pow(1D, NaN) = NaN; hypot(-0.0D, -0.0D) =
// 0.0, hypot(Infinity, NaN) = Infinity.
TEST(Math, SignedZerosAndJavaSpecialCases) {
  expect_doubles(run("atan2", {make_array<double>({-0.0, 0.0, -0.0, -0.0, std::nullopt, -0.0}),
                               make_array<double>({-0.0, -0.0, -1.0, 1.0, 1.0, 0.0})}),
                 {0.0, 0.0, std::numbers::pi, 0.0, std::nullopt, 0.0});
  expect_doubles(run("atan2", {scalar(make_array<double>({-0.0})),
                               make_array<double>({0.0, -1.0, -0.0}).slice(1, 2)}),
                 {std::numbers::pi, 0.0});
  expect_doubles(run("pow", {make_array<double>({-0.0, -0.0, -0.0, -1.0, 1.0, kNaN, 2.0}),
                             make_array<double>({-1.0, 3.0, 0.5, kInf, kNaN, 0.0, -kInf})}),
                 {-kInf, -0.0, 0.0, kNaN, kNaN, 1.0, 0.0});
  expect_doubles(run("pow", {make_array<double>({1.0, -1.0}), scalar(make_array<double>({-kInf}))}),
                 {kNaN, kNaN});
  expect_doubles(run("hypot", {make_array<double>({-0.0, kInf}), make_array<double>({-0.0, kNaN})}),
                 {0.0, kInf});
}

// Spark refuses a scale that is not a constant: round(x, s) with DATATYPE_MISMATCH.
// NON_FOLDABLE_INPUT, ceil(x, s) with NON_FOLDABLE_ARGUMENT, which ceil and floor also raise
// for a constant of another type than INT (ceil(x, 1L), ceil(x, null)); round(1.25D, 1.5) and
// round(1.25D, '1') are 1.3; round(1.25D, true) does not resolve.
TEST(Math, ScaleMustBeAConstant) {
  const Array x = make_array<double>({1.25, 2.5});
  const Array columns = make_array<int32_t>({1, 0});
  EXPECT_EQ(error_message<AnalysisError>([&] {
              run("round", {x, columns});
            }),
            "[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] Cannot resolve \"round\" due to data type "
            "mismatch: the input `scale` should be a foldable \"INT\" expression; however, got a "
            "column.");
  EXPECT_THROW(run("bround", {x, columns}), AnalysisError);
  EXPECT_EQ(error_message<AnalysisError>([&] {
              run("ceil", {x, columns});
            }),
            "[NON_FOLDABLE_ARGUMENT] The function `ceil` requires the parameter `scale` to be a "
            "foldable expression of the type \"INT\", but the actual argument is a non-foldable.");
  EXPECT_THROW(run("floor", {make_decimal_array(decimal128(4, 2), {"1.25"}), columns.slice(0, 1)}),
               AnalysisError);
  // The scale is refused before the value would overflow its decimal.
  EXPECT_THROW(run("ceil", {make_array<double>({1e19, 1.5}), columns}), AnalysisError);
  // Spark: ceil(15.5D, -1) = 20 as decimal(16,0).
  expect_array(run("ceil", {make_array<double>({15.5, std::nullopt}), int_scalar(-1)}, true,
                   {{"scale", int64_t{-1}}}),
               make_decimal_array(decimal128(16, 0), {"20", std::nullopt}));
  const FunctionRegistry& registry = default_registry();
  EXPECT_THROW(registry.get("ceil").resolve(std::vector{float64(), int64()}, {}), AnalysisError);
  EXPECT_THROW(registry.get("floor").resolve(std::vector{float64(), null()}, {}), AnalysisError);
  EXPECT_THROW(registry.get("round").resolve(std::vector{float64(), boolean()}, {}), AnalysisError);
  expect_doubles(run("round", {x, scalar(make_array<double>({1.5}))}), {1.3, 2.5});
  expect_doubles(run("round", {x.slice(0, 1), scalar(make_string_array({"1"}))}), {1.3});
  expect_doubles(run("round", {x, Datum::null_scalar(int32())}), {std::nullopt, std::nullopt});
}

TEST(Math, ResolvesTypes) {
  const FunctionRegistry& registry = default_registry();
  auto output = [&](std::string_view name, std::vector<TypePtr> types,
                    FunctionOptions options = {}) {
    return spark_type_name(*registry.get(name).resolve(types, options).output);
  };
  EXPECT_EQ(output("sqrt", {int32()}), "DOUBLE");
  EXPECT_EQ(output("sqrt", {decimal128(10, 2)}), "DOUBLE");
  EXPECT_EQ(output("exp", {null()}), "DOUBLE");
  EXPECT_EQ(output("round", {int32(), int32()}), "INT");
  EXPECT_EQ(output("round", {float32()}), "FLOAT");
  // Spark: round(1234.5678BD, -2) is decimal(5,0), round(1234.5678BD, 2) decimal(7,2),
  // round(2.5) decimal(2,0), round(123.456, 5) decimal(7,3).
  EXPECT_EQ(output("round", {decimal128(8, 4), int32()}, {{"scale", int64_t{-2}}}), "DECIMAL(5,0)");
  EXPECT_EQ(output("round", {decimal128(8, 4), int32()}, {{"scale", int64_t{2}}}), "DECIMAL(7,2)");
  EXPECT_EQ(output("round", {decimal128(2, 1)}), "DECIMAL(2,0)");
  EXPECT_EQ(output("round", {decimal128(6, 3), int32()}, {{"scale", int64_t{5}}}), "DECIMAL(7,3)");
  // Spark: floor(2.5D) and floor(5) are BIGINT, floor(-2.5) decimal(2,0).
  EXPECT_EQ(output("floor", {float64()}), "BIGINT");
  EXPECT_EQ(output("ceil", {int8()}), "BIGINT");
  EXPECT_EQ(output("ceiling", {decimal128(3, 2)}), "DECIMAL(2,0)");
  EXPECT_EQ(output("ceil", {decimal128(38, 0)}), "DECIMAL(38,0)");
  EXPECT_EQ(output("greatest", {int32(), int64(), null()}), "BIGINT");
  EXPECT_EQ(output("least", {int32(), decimal128(2, 1)}), "DECIMAL(11,1)");
  EXPECT_THROW(registry.get("greatest").resolve(std::vector{int32(), utf8()}, {}), AnalysisError);
  EXPECT_THROW(registry.get("sqrt").resolve(std::vector{boolean()}, {}), AnalysisError);
}

TEST(Math, ConstantScaleDecidesTheDecimalType) {
  const FunctionRegistry& registry = default_registry();
  auto output = [&](std::string_view name, TypePtr value, const Datum& scale) {
    const TypePtr types[] = {std::move(value), scale.type()};
    const Datum* constants[] = {nullptr, &scale};
    return spark_type_name(
        *registry.get(name).resolve_with(types, {}, ResolveContext{true, constants}).output);
  };
  // Spark: typeof(round(CAST(1 AS DECIMAL(10,4)), s)) for s = 2, 2L, '2': decimal(9,2); -2 and
  // NULL: decimal(7,0); 6: decimal(11,4); 1.5: decimal(8,1). bround(DECIMAL(38,10), 3):
  // decimal(32,3); floor and ceil (DECIMAL(10,4), 2): decimal(9,2); floor(5, -1):
  // decimal(11,0); ceil(1.5D, 1): decimal(17,1).
  const TypePtr d = decimal128(10, 4);
  EXPECT_EQ(output("round", d, int_scalar(2)), "DECIMAL(9,2)");
  EXPECT_EQ(output("round", d, scalar(make_array<int64_t>({2}))), "DECIMAL(9,2)");
  EXPECT_EQ(output("round", d, scalar(make_string_array({"2"}))), "DECIMAL(9,2)");
  EXPECT_EQ(output("round", d, int_scalar(-2)), "DECIMAL(7,0)");
  EXPECT_EQ(output("round", d, Datum::null_scalar(int32())), "DECIMAL(7,0)");
  EXPECT_EQ(output("round", d, int_scalar(6)), "DECIMAL(11,4)");
  EXPECT_EQ(output("round", d, scalar(make_decimal_array(decimal128(2, 1), {"1.5"}))),
            "DECIMAL(8,1)");
  EXPECT_EQ(output("bround", decimal128(38, 10), int_scalar(3)), "DECIMAL(32,3)");
  EXPECT_EQ(output("floor", d, int_scalar(2)), "DECIMAL(9,2)");
  EXPECT_EQ(output("ceil", d, int_scalar(2)), "DECIMAL(9,2)");
  EXPECT_EQ(output("floor", int32(), int_scalar(-1)), "DECIMAL(11,0)");
  EXPECT_EQ(output("ceil", float64(), int_scalar(1)), "DECIMAL(17,1)");
  // A scale known to vary by row is refused at resolution, before any value is read.
  const TypePtr types[] = {d, int32()};
  const Datum* constants[] = {nullptr, nullptr};
  EXPECT_THROW(registry.get("round").resolve_with(types, {}, ResolveContext{true, constants}),
               AnalysisError);
  EXPECT_THROW(registry.get("ceil").resolve_with(types, {}, ResolveContext{true, constants}),
               AnalysisError);
  // `call` passes its scalars: the declared type is the computed one. Spark:
  // round(CAST(1.23456 AS DECIMAL(10,4)), 2) = 1.23, round(..., 1.5) = 1.2.
  const Array values = make_decimal_array(d, {"1.2346", "-9.9950", std::nullopt});
  expect_array(run("round", {values.slice(1, 2), int_scalar(2)}),
               make_decimal_array(decimal128(9, 2), {"-10.00", std::nullopt}));
  expect_array(run("round", {values, scalar(make_decimal_array(decimal128(2, 1), {"1.5"}))}),
               make_decimal_array(decimal128(8, 1), {"1.2", "-10.0", std::nullopt}));
  expect_array(run("floor", {values, int_scalar(2)}),
               make_decimal_array(decimal128(9, 2), {"1.23", "-10.00", std::nullopt}));
}

// Spark: round(2.5D) = 3.0, round(-2.5D) = -3.0, round(1.005D, 2) = 1.01 and
// round(2.675D, 2) = 2.68 (decimal rounding of the shortest representation),
// round(1.2345678D, 3) = 1.235, round(1e300D, -2) = 1e300, round(1.0E-300D, 2) = 0.0,
// round(-0.4D) = 0.0; bround(2.5D) = 2.0, bround(3.5D) = 4.0, bround(-2.5D) = -2.0,
// bround(0.125D, 2) = 0.12.
TEST(Math, RoundDoubles) {
  expect_doubles(run("round", {make_array<double>({2.5, -2.5, -0.4, kNaN, kInf, std::nullopt})}),
                 {3.0, -3.0, 0.0, kNaN, kInf, std::nullopt});
  expect_doubles(run("round", {make_array<double>({1.005, 2.675, 1.2345678}), int_scalar(2)}),
                 {1.01, 2.68, 1.23});
  expect_doubles(run("round", {make_array<double>({1.2345678}), int_scalar(3)}), {1.235});
  expect_doubles(run("round", {make_array<double>({1e300, 1e-300, 1234.5}), int_scalar(-2)}),
                 {1e300, 0.0, 1200.0});
  expect_doubles(run("round", {make_array<double>({1e-300}), int_scalar(2)}), {0.0});
  expect_doubles(run("round", {make_array<double>({999.96}), int_scalar(1)}), {1000.0});
  expect_doubles(run("bround", {make_array<double>({2.5, 3.5, -2.5})}), {2.0, 4.0, -2.0});
  expect_doubles(run("bround", {make_array<double>({0.125}), int_scalar(2)}), {0.12});
  const Datum rounded = run("round", {make_array<float>({1.5F, -2.5F})});
  expect_array(rounded, make_array<float>({2.0F, -3.0F}));
}

// Spark: round(15, -1) = 20, round(-15, -1) = -20, round(cast(25 as tinyint), -1) = 30,
// bround(25, -1) = 20, bround(35, -1) = 40; round(2147483647, -1) and
// round(cast(127 as tinyint), -1) overflow.
TEST(Math, RoundIntegers) {
  expect_array(run("round", {make_array<int32_t>({15, -15, 14, std::nullopt}), int_scalar(-1)}),
               make_array<int32_t>({20, -20, 10, std::nullopt}));
  expect_array(run("round", {make_array<int8_t>({25}), int_scalar(-1)}), make_array<int8_t>({30}));
  expect_array(run("bround", {make_array<int64_t>({25, 35}), int_scalar(-1)}),
               make_array<int64_t>({20, 40}));
  expect_array(run("round", {make_array<int32_t>({25}), int_scalar(-10)}),
               make_array<int32_t>({0}));
  expect_array(run("round", {make_array<int32_t>({25}), int_scalar(2)}), make_array<int32_t>({25}));
  EXPECT_EQ(error_message<ArithmeticError>([&] {
              run("round", {make_array<int32_t>({2147483647}), int_scalar(-1)});
            }),
            "[ARITHMETIC_OVERFLOW] Overflow in 'round': 2147483647. If necessary set "
            "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
  EXPECT_THROW(run("round", {make_array<int8_t>({127}), int_scalar(-1)}), ArithmeticError);
}

// Spark: round(1234.5678BD, -2) = 1200, round(1234.5678BD, 2) = 1234.57, round(9.9BD, 0) = 10,
// round(2.5) = 3, bround(2.5) = 2.
TEST(Math, RoundDecimals) {
  const Array value =
      make_decimal_array(decimal128(8, 4), {"1234.5678", "-1234.5678", std::nullopt});
  expect_array(run("round", {value, int_scalar(-2)}, true, {{"scale", int64_t{-2}}}),
               make_decimal_array(decimal128(5, 0), {"1200", "-1200", std::nullopt}));
  expect_array(run("round", {value, int_scalar(2)}, true, {{"scale", int64_t{2}}}),
               make_decimal_array(decimal128(7, 2), {"1234.57", "-1234.57", std::nullopt}));
  expect_array(run("round", {make_decimal_array(decimal128(2, 1), {"9.9", "2.5", "-2.5"})}),
               make_decimal_array(decimal128(2, 0), {"10", "3", "-3"}));
  expect_array(run("bround", {make_decimal_array(decimal128(2, 1), {"2.5", "3.5", "-2.5"})}),
               make_decimal_array(decimal128(2, 0), {"2", "4", "-2"}));
}

// Spark: floor(2.5D) = 2, ceil(2.5D) = 3, ceiling(-2.5D) = -2, floor(-2.5) = -3 as
// decimal(2,0); floor(1e20) raises ARITHMETIC_OVERFLOW in ANSI mode.
TEST(Math, FloorAndCeil) {
  const Array x = make_array<double>({2.5, -2.5, std::nullopt, -0.0});
  expect_array(run("floor", {x}), make_array<int64_t>({2, -3, std::nullopt, 0}));
  expect_array(run("ceil", {x}), make_array<int64_t>({3, -2, std::nullopt, 0}));
  expect_array(run("ceiling", {x.slice(1, 1)}), make_array<int64_t>({-2}));
  expect_array(run("floor", {make_decimal_array(decimal128(2, 1), {"-2.5", "2.5"})}),
               make_decimal_array(decimal128(2, 0), {"-3", "2"}));
  expect_array(run("ceil", {make_decimal_array(decimal128(3, 2), {"1.23", "-1.23"})}),
               make_decimal_array(decimal128(2, 0), {"2", "-1"}));
  expect_array(run("floor", {make_array<int64_t>({5})}), make_array<int64_t>({5}));
  EXPECT_THROW(run("floor", {make_array<double>({1e20})}), ArithmeticError);
  // Spark: floor(NaN) = 0 (no error).
  expect_array(run("floor", {make_array<double>({std::nan("")})}), make_array<int64_t>({0}));
  // Spark: floor(cast(123.45 as decimal(10,2)), -1) = 120 as decimal(9,0),
  // floor(-12.345, 1) = -12.4, ceil(12.345, -1) = 20.
  expect_array(run("floor", {make_decimal_array(decimal128(10, 2), {"123.45"}), int_scalar(-1)},
                   true, {{"scale", int64_t{-1}}}),
               make_decimal_array(decimal128(9, 0), {"120"}));
  expect_array(run("floor", {make_decimal_array(decimal128(5, 3), {"-12.345"}), int_scalar(1)},
                   true, {{"scale", int64_t{1}}}),
               make_decimal_array(decimal128(4, 1), {"-12.4"}));
  expect_array(run("ceil", {make_decimal_array(decimal128(5, 3), {"12.345"}), int_scalar(-1)}, true,
                   {{"scale", int64_t{-1}}}),
               make_decimal_array(decimal128(3, 0), {"20"}));
  expect_array(run("floor", {make_array<double>({1e20})}, false),
               make_array<int64_t>({std::numeric_limits<int64_t>::max()}));
}

// Spark: greatest(1, 2L, null) = 2, least(1.0, NaN) = 1.0, greatest(1.0, NaN) = NaN,
// least(null, 3, 1) = 1, least(null, null) = NULL.
TEST(Math, GreatestAndLeast) {
  const Array a = make_array<int64_t>({1, std::nullopt, 5, std::nullopt});
  const Array b = make_array<int64_t>({2, 3, std::nullopt, std::nullopt});
  expect_array(run("greatest", {a, b, scalar(make_array<int64_t>({0}))}),
               make_array<int64_t>({2, 3, 5, 0}));
  expect_array(run("least", {a, b}), make_array<int64_t>({1, 3, 5, std::nullopt}));
  expect_array(run("least", {a.slice(2), b.slice(2)}), make_array<int64_t>({5, std::nullopt}));
  expect_doubles(run("greatest", {make_array<double>({1.0}), make_array<double>({kNaN})}), {kNaN});
  expect_doubles(run("least", {make_array<double>({1.0}), make_array<double>({kNaN})}), {1.0});
  EXPECT_TRUE(
      run("least", {Datum::null_scalar(int32()), Datum::null_scalar(int32())}).scalar_is_null());
  expect_array(run("greatest", {make_array<bool>({true, false, std::nullopt}),
                                make_array<bool>({false, false, std::nullopt})}),
               make_array<bool>({true, false, std::nullopt}));
  expect_array(run("least", {make_decimal_array(decimal128(3, 1), {"1.5", "-2.0"}),
                             make_decimal_array(decimal128(3, 1), {"2.5", "-3.0"})}),
               make_decimal_array(decimal128(3, 1), {"1.5", "-3.0"}));
  // Spark: greatest('a', 'b') = 'b'.
  const Array words = make_string_array({"a", std::nullopt, "zebra", std::nullopt});
  const Array others = make_string_array({"b", "c", "apple", std::nullopt});
  expect_array(run("greatest", {words, others}),
               make_string_array({"b", "c", "zebra", std::nullopt}));
  expect_array(run("least", {words, scalar(make_string_array({"m"}))}),
               make_string_array({"a", "m", "m", "m"}));
}

}  // namespace
}  // namespace bowstring::compute
