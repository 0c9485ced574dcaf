#include <gtest/gtest.h>

#include <cmath>
#include <limits>
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

constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();
constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();

Datum run(std::string_view name, std::vector<Datum> arguments, bool ansi = true) {
  ExecContext context;
  context.ansi = ansi;
  return call(name, arguments, {}, &context);
}

Datum scalar(Array one_value) { return Datum::scalar(std::move(one_value)); }

void expect_array(const Datum& actual, const Array& expected) {
  ASSERT_TRUE(actual.is_array()) << actual.to_string();
  EXPECT_TRUE(actual.array().equals(expected))
      << "actual " << actual.to_string() << "\nexpected " << expected.to_string();
}

void expect_scalar(const Datum& actual, const Array& expected) {
  ASSERT_TRUE(actual.is_scalar()) << actual.to_string();
  EXPECT_TRUE(actual.array().equals(expected))
      << "actual " << actual.to_string() << "\nexpected " << expected.to_string();
}

TEST(Arithmetic, IntegersWithNullsAndScalars) {
  const Array a = make_array<int32_t>({1, std::nullopt, 3, -4});
  const Array b = make_array<int32_t>({10, 20, std::nullopt, 5});
  expect_array(run("+", {a, b}), make_array<int32_t>({11, std::nullopt, std::nullopt, 1}));
  expect_array(run("-", {a, b}), make_array<int32_t>({-9, std::nullopt, std::nullopt, -9}));
  expect_array(run("*", {a, b}), make_array<int32_t>({10, std::nullopt, std::nullopt, -20}));
  const Datum two = scalar(make_array<int32_t>({2}));
  expect_array(run("*", {a, two}), make_array<int32_t>({2, std::nullopt, 6, -8}));
  expect_array(run("-", {two, a}), make_array<int32_t>({1, std::nullopt, -1, 6}));
  expect_scalar(run("+", {two, two}), make_array<int32_t>({4}));
  const Datum null_int = Datum::null_scalar(int32());
  expect_array(run("+", {a, null_int}),
               make_array<int32_t>({std::nullopt, std::nullopt, std::nullopt, std::nullopt}));
  EXPECT_TRUE(run("+", {two, null_int}).scalar_is_null());
}

TEST(Arithmetic, EmptyAndSlicedInputs) {
  const Array empty = make_array<int64_t>({});
  expect_array(run("+", {empty, empty}), empty);
  const Array a = make_array<int64_t>({100, 1, std::nullopt, 3, 4});
  const Array b = make_array<int64_t>({7, 7, 7, std::nullopt, 7, 7});
  expect_array(run("+", {a.slice(1, 4), b.slice(2, 4)}),
               make_array<int64_t>({8, std::nullopt, 10, 11}));
  expect_array(run("div", {a.slice(1), scalar(make_array<int64_t>({2}))}),
               make_array<int64_t>({0, std::nullopt, 1, 2}));
}

// Spark: 2147483647 + 1 raises ARITHMETIC_OVERFLOW; try_add gives NULL; without ANSI it wraps.
TEST(Arithmetic, IntegerOverflow) {
  const Array a = make_array<int32_t>({1, kIntMax});
  const Datum one = scalar(make_array<int32_t>({1}));
  EXPECT_EQ(error_message<ArithmeticError>([&] {
              run("+", {a, one});
            }),
            "[ARITHMETIC_OVERFLOW] integer overflow in '+': 2147483647 + 1. Use 'try_add' to "
            "tolerate overflow and return NULL instead. If necessary set "
            "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
  expect_array(run("try_add", {a, one}), make_array<int32_t>({2, std::nullopt}));
  expect_array(run("+", {a, one}, false), make_array<int32_t>({2, kIntMin}));
  EXPECT_EQ(
      error_message<ArithmeticError>([&] {
        run("*", {make_array<int64_t>({std::numeric_limits<int64_t>::max()}),
                  scalar(make_array<int64_t>({2}))});
      }),
      "[ARITHMETIC_OVERFLOW] long overflow in '*': 9223372036854775807 * 2. Use 'try_multiply' "
      "to tolerate overflow and return NULL instead. If necessary set "
      "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
  expect_array(run("try_subtract", {make_array<int32_t>({kIntMin, 5}), one}),
               make_array<int32_t>({std::nullopt, 4}));
  expect_array(run("try_multiply", {make_array<int32_t>({kIntMax, 5}), one}),
               make_array<int32_t>({kIntMax, 5}));
}

// Overflowing values under null rows are not errors.
TEST(Arithmetic, OverflowUnderNullIsIgnored) {
  ArrayDataPtr data = make_array<int32_t>({kIntMax, 1}).data();
  const Array with_null = make_array<int32_t>({std::nullopt, 1});
  // Same values as `data` but row 0 null: build from the null array's validity.
  auto validity = with_null.data()->buffers[0];
  const Array masked(
      std::make_shared<ArrayData>(int32(), 2, std::vector{validity, data->buffers[1]}, 1));
  expect_array(run("+", {masked, scalar(make_array<int32_t>({1}))}),
               make_array<int32_t>({std::nullopt, 2}));
}

// Spark reports TINYINT and SMALLINT overflow as BINARY_ARITHMETIC_OVERFLOW.
TEST(Arithmetic, SmallIntegerOverflow) {
  EXPECT_EQ(error_message<ArithmeticError>([&] {
              run("+", {make_array<int16_t>({32767}), scalar(make_array<int16_t>({1}))});
            }),
            "[BINARY_ARITHMETIC_OVERFLOW] 32767S + 1S caused overflow. Use `try_add` to ignore "
            "overflow problem and return NULL.");
  expect_array(run("+", {make_array<int8_t>({127, 1}), scalar(make_array<int8_t>({1}))}, false),
               make_array<int8_t>({-128, 2}));
}

TEST(Arithmetic, DivisionIsDouble) {
  const Array a = make_array<double>({7, -7, std::nullopt, 1});
  const Array b = make_array<double>({2, 2, 1, 0});
  EXPECT_EQ(error_message<ArithmeticError>([&] {
              run("/", {a, b});
            }),
            "[DIVIDE_BY_ZERO] Division by zero in '/': 1 / 0. Use `try_divide` to tolerate "
            "divisor being 0 and return NULL instead. If necessary set "
            "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
  const Array expected = make_array<double>({3.5, -3.5, std::nullopt, std::nullopt});
  expect_array(run("/", {a, b}, false), expected);
  expect_array(run("try_divide", {a, b}), expected);
  // Spark: 7.0D / 0.0D raises too, and -0.0 is zero.
  EXPECT_THROW(run("/", {make_array<double>({1}), scalar(make_array<double>({-0.0}))}),
               ArithmeticError);
  // Double overflow gives infinity.
  const Datum big = run("*", {make_array<double>({1e308}), scalar(make_array<double>({10}))});
  EXPECT_TRUE(std::isinf(DoubleArray(big.array()).value(0)));
}

TEST(Arithmetic, ResolvesSparkTypes) {
  const FunctionRegistry& registry = default_registry();
  auto output = [&](std::string_view name, std::vector<TypePtr> types) {
    return spark_type_name(*registry.get(name).resolve(types, {}).output);
  };
  EXPECT_EQ(output("/", {int32(), int32()}), "DOUBLE");
  EXPECT_EQ(output("/", {float32(), int32()}), "DOUBLE");
  EXPECT_EQ(output("div", {int8(), int8()}), "BIGINT");
  EXPECT_EQ(output("%", {int32(), int8()}), "INT");
  EXPECT_EQ(output("pmod", {int32(), int8()}), "INT");
  EXPECT_EQ(output("*", {float32(), int32()}), "DOUBLE");
  EXPECT_EQ(output("+", {float32(), float32()}), "FLOAT");
  EXPECT_EQ(output("+", {int32(), utf8()}), "BIGINT");
  EXPECT_EQ(output("+", {decimal128(2, 1), utf8()}), "DOUBLE");
  EXPECT_EQ(output("div", {utf8(), int32()}), "BIGINT");
  EXPECT_EQ(output("+", {null(), null()}), "DOUBLE");
  EXPECT_EQ(output("+", {null(), int32()}), "INT");
  EXPECT_EQ(output("div", {null(), null()}), "BIGINT");
  EXPECT_EQ(output("+", {decimal128(4, 2), decimal128(2, 1)}), "DECIMAL(5,2)");
  EXPECT_EQ(output("+", {decimal128(2, 1), int32()}), "DECIMAL(12,1)");
  EXPECT_EQ(output("/", {decimal128(2, 1), int32()}), "DECIMAL(13,12)");
  EXPECT_EQ(output("%", {decimal128(10, 2), decimal128(5, 1)}), "DECIMAL(6,2)");
  EXPECT_EQ(output("div", {decimal128(10, 2), decimal128(5, 1)}), "BIGINT");
  EXPECT_EQ(output("*", {decimal128(2, 1), float64()}), "DOUBLE");
  EXPECT_EQ(output("negative", {int8()}), "TINYINT");
  EXPECT_EQ(output("abs", {null()}), "DOUBLE");
  EXPECT_EQ(output("mod", {int64(), int64()}), "BIGINT");
  // Spark: '2' + '3' and 7.5D div 2 do not resolve.
  EXPECT_THROW(registry.get("+").resolve(std::vector{utf8(), utf8()}, {}), AnalysisError);
  EXPECT_THROW(registry.get("div").resolve(std::vector{float64(), int64()}, {}), AnalysisError);
  EXPECT_THROW(registry.get("+").resolve(std::vector{boolean(), int32()}, {}), AnalysisError);
}

// Spark: -7 % 3 = -1, pmod(-7, 3) = 2, pmod(7, -3) = 1, -7 div 3 = -2, -7.5 % 2 = -1.5,
// pmod(-7.5, 2) = 0.5; MIN % -1 = pmod(MIN, -1) = 0.
TEST(Arithmetic, RemainderAndPmod) {
  const Array a = make_array<int64_t>({-7, -7, 7, kLongMin, std::nullopt});
  const Array b = make_array<int64_t>({3, 3, -3, -1, 1});
  expect_array(run("%", {a, b}), make_array<int64_t>({-1, -1, 1, 0, std::nullopt}));
  expect_array(run("pmod", {a, b}), make_array<int64_t>({2, 2, 1, 0, std::nullopt}));
  expect_array(run("div", {a, b}, false),
               make_array<int64_t>({-2, -2, -2, kLongMin, std::nullopt}));
  expect_array(run("%", {make_array<double>({-7.5}), scalar(make_array<double>({2}))}),
               make_array<double>({-1.5}));
  expect_array(run("pmod", {make_array<double>({-7.5}), scalar(make_array<double>({2}))}),
               make_array<double>({0.5}));
  const Datum zero = scalar(make_array<int64_t>({0}));
  EXPECT_EQ(error_message<ArithmeticError>([&] {
              run("%", {a, zero});
            }),
            "[REMAINDER_BY_ZERO] Remainder by zero in '%': -7 % 0. Use `try_mod` to tolerate "
            "divisor being 0 and return NULL instead. If necessary set "
            "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
  EXPECT_THROW(run("pmod", {a, zero}), ArithmeticError);
  EXPECT_THROW(run("mod", {make_array<double>({1}), scalar(make_array<double>({0}))}),
               ArithmeticError);
  expect_array(run("try_mod", {a.slice(0, 1), zero}), make_array<int64_t>({std::nullopt}));
  expect_array(run("pmod", {a.slice(0, 1), zero}, false), make_array<int64_t>({std::nullopt}));
}

// Spark: -9223372036854775808L div -1 raises "Overflow in integral divide"; 7 div 0 raises
// DIVIDE_BY_ZERO.
TEST(Arithmetic, IntegralDivideErrors) {
  EXPECT_EQ(error_message<ArithmeticError>([&] {
              run("div", {make_array<int64_t>({kLongMin}), scalar(make_array<int64_t>({-1}))});
            }),
            "[ARITHMETIC_OVERFLOW] Overflow in integral divide: -9223372036854775808 div -1. Use "
            "'try_divide' to tolerate overflow and return NULL instead. If necessary set "
            "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
  EXPECT_EQ(error_message<ArithmeticError>([&] {
              run("div", {make_array<int64_t>({7}), scalar(make_array<int64_t>({0}))});
            }),
            "[DIVIDE_BY_ZERO] Division by zero in 'div': 7 div 0. Use `try_divide` to tolerate "
            "divisor being 0 and return NULL instead. If necessary set "
            "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
  expect_array(run("div", {make_array<int64_t>({7}), scalar(make_array<int64_t>({0}))}, false),
               make_array<int64_t>({std::nullopt}));
}

// Spark: -(-2147483648) and abs(-2147483648) overflow; abs(-0.0D) = 0.0.
TEST(Arithmetic, UnaryFunctions) {
  const Array a = make_array<int32_t>({1, -2, std::nullopt, kIntMin});
  EXPECT_EQ(error_message<ArithmeticError>([&] { run("negative", {a}); }),
            "[ARITHMETIC_OVERFLOW] integer overflow in 'negative': -(-2147483648). If necessary "
            "set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
  EXPECT_THROW(run("abs", {a}), ArithmeticError);
  expect_array(run("negative", {a}, false), make_array<int32_t>({-1, 2, std::nullopt, kIntMin}));
  expect_array(run("abs", {a.slice(0, 3)}), make_array<int32_t>({1, 2, std::nullopt}));
  expect_array(run("positive", {a}), a);
  const Datum zero = run("abs", {make_array<double>({-0.0, -1.5})});
  EXPECT_FALSE(std::signbit(DoubleArray(zero.array()).value(0)));
  expect_array(run("negative", {make_decimal_array(decimal128(2, 1), {"1.5", std::nullopt})}),
               make_decimal_array(decimal128(2, 1), {"-1.5", std::nullopt}));
  expect_scalar(run("abs", {scalar(make_array<int8_t>({-5}))}), make_array<int8_t>({5}));
}

TEST(DecimalArithmetic, AddMultiplyDivide) {
  const Array a = make_decimal_array(decimal128(4, 2), {"1.50", "-2.25", std::nullopt});
  const Array b = make_decimal_array(decimal128(2, 1), {"0.5", "1.0", "3.0"});
  expect_array(run("+", {a, b}),
               make_decimal_array(decimal128(5, 2), {"2.00", "-1.25", std::nullopt}));
  expect_array(run("-", {a, b}),
               make_decimal_array(decimal128(5, 2), {"1.00", "-3.25", std::nullopt}));
  expect_array(run("*", {a, b}),
               make_decimal_array(decimal128(7, 3), {"0.750", "-2.250", std::nullopt}));
  expect_array(run("/", {a, b}),
               make_decimal_array(decimal128(9, 6), {"3.000000", "-2.250000", std::nullopt}));
  expect_array(run("%", {a, b}),
               make_decimal_array(decimal128(3, 2), {"0.00", "-0.25", std::nullopt}));
  expect_array(run("pmod", {a, b}),
               make_decimal_array(decimal128(3, 2), {"0.00", "0.75", std::nullopt}));
  expect_array(run("div", {a, b}), make_array<int64_t>({3, -2, std::nullopt}));
  // Spark: 1.0 / 3 = 0.333333 as decimal(7,6).
  expect_scalar(run("/", {scalar(make_decimal_array(decimal128(2, 1), {"1.0"})),
                          scalar(make_decimal_array(decimal128(1, 0), {"3"}))}),
                make_decimal_array(decimal128(7, 6), {"0.333333"}));
}

// Spark: 99999999999999999999999999999999999999 + 1 as decimal(38,0) raises
// NUMERIC_VALUE_OUT_OF_RANGE; without ANSI (and with try_add) it is NULL.
TEST(DecimalArithmetic, OverflowAndDivisionByZero) {
  const Array max =
      make_decimal_array(decimal128(38, 0), {"99999999999999999999999999999999999999"});
  const Datum one = scalar(make_decimal_array(decimal128(38, 0), {"1"}));
  EXPECT_EQ(error_message<ArithmeticError>([&] {
              run("+", {max, one});
            }),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] "
            "100000000000000000000000000000000000000 cannot be represented as Decimal(38, 0). "
            "If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error, "
            "and return NULL instead.");
  expect_array(run("+", {max, one}, false), make_decimal_array(decimal128(38, 0), {std::nullopt}));
  expect_array(run("try_add", {max, one}), make_decimal_array(decimal128(38, 0), {std::nullopt}));
  const Datum zero = scalar(make_decimal_array(decimal128(38, 0), {"0"}));
  EXPECT_THROW(run("/", {max, zero}), ArithmeticError);
  EXPECT_EQ(error_message<ArithmeticError>([&] {
              run("%", {max, zero});
            }).substr(0, 19),
            "[REMAINDER_BY_ZERO]");
  // Spark: cast(99999999999999999999 as decimal(20,0)) div 0.1 wraps to a BIGINT.
  expect_array(run("div", {make_decimal_array(decimal128(20, 0), {"99999999999999999999"}),
                           scalar(make_decimal_array(decimal128(2, 1), {"0.1"}))}),
               make_array<int64_t>({3875820019684212726}));
}

// Spark names the value that overflows: the exact difference, the product cut to 39 digits,
// the quotient at the result scale, the integral quotient.
TEST(DecimalArithmetic, OverflowNamesTheValue) {
  auto message = [](std::string_view name, const Array& a, const Array& b) {
    return error_message<ArithmeticError>([&] { run(name, {a, scalar(b)}); });
  };
  const Array max =
      make_decimal_array(decimal128(38, 0), {"1", "99999999999999999999999999999999999999"});
  const std::string hint =
      " If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error, and "
      "return NULL instead.";
  // Spark: cast(-1 as decimal(38,0)) - 99999999999999999999999999999999999999BD.
  EXPECT_EQ(message("-", make_decimal_array(decimal128(38, 0), {"-1"}), max.slice(1, 1)),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] "
            "-100000000000000000000000000000000000000 cannot be represented as Decimal(38, 0)." +
                hint);
  // Spark: 99999999999999999999999999999999999999BD * -1.5BD and
  // 9999999999999999999999999999.9999999999BD * itself (decimal(38,10)).
  EXPECT_EQ(message("*", max, make_decimal_array(decimal128(2, 1), {"-1.5"})),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] "
            "-149999999999999999999999999999999999998 cannot be represented as Decimal(38, 1)." +
                hint);
  const Array wide =
      make_decimal_array(decimal128(38, 10), {"9999999999999999999999999999.9999999999"});
  EXPECT_EQ(message("*", wide, wide),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] "
            "99999999999999999999999999999999999998000000000000000000 cannot be represented as "
            "Decimal(38, 6)." +
                hint);
  // Spark: 99999999999999999999999999999999.999999BD * 10.5BD.
  EXPECT_EQ(
      message("*",
              make_decimal_array(decimal128(38, 6), {"99999999999999999999999999999999.999999"}),
              make_decimal_array(decimal128(3, 1), {"10.5"})),
      "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] "
      "1049999999999999999999999999999999.99998 cannot be represented as Decimal(38, 6)." +
          hint);
  // Spark: 9999999999999999999999999999999999999.9BD / 0.3BD and div 0.1BD.
  const Array tenths =
      make_decimal_array(decimal128(38, 1), {"9999999999999999999999999999999999999.9"});
  EXPECT_EQ(message("/", tenths, make_decimal_array(decimal128(2, 1), {"0.3"})),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] "
            "33333333333333333333333333333333333333.000000 cannot be represented as "
            "Decimal(38, 6)." +
                hint);
  // Spark: pmod(-7BD as decimal(5,0), 99999999.99BD) names the remainder.
  EXPECT_EQ(message("pmod", make_decimal_array(decimal128(5, 0), {"-7"}),
                    make_decimal_array(decimal128(10, 2), {"99999999.99"})),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] 99999992.99 cannot be represented as "
            "Decimal(7, 2)." +
                hint);
  EXPECT_EQ(message("div", max, make_decimal_array(decimal128(2, 1), {"0.1"})),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] "
            "999999999999999999999999999999999999990 cannot be represented as Decimal(38, 0)." +
                hint);
}

// Spark negates decimals through 34 significant digits, HALF_EVEN (abs only negative values):
// -(12345678901234567890123456789012345000BD) = -12345678901234567890123456789012340000,
// abs(-1234567890123456789012345678.0123456789BD) = 1234567890123456789012345678.0123460000;
// -(9999999999999999999999999999999999999.9BD) fails, also with ANSI off.
TEST(DecimalArithmetic, NegationRoundsTo34Digits) {
  const Array a = make_decimal_array(
      decimal128(38, 0), {"12345678901234567890123456789012345000",
                          "12345678901234567890123456789012335000", std::nullopt, "-15"});
  expect_array(run("negative", {a}),
               make_decimal_array(decimal128(38, 0),
                                  {"-12345678901234567890123456789012340000",
                                   "-12345678901234567890123456789012340000", std::nullopt, "15"}));
  expect_array(run("abs", {a.slice(1, 3)}),
               make_decimal_array(decimal128(38, 0),
                                  {"12345678901234567890123456789012335000", std::nullopt, "15"}));
  expect_scalar(
      run("abs", {scalar(make_decimal_array(decimal128(38, 10),
                                            {"-1234567890123456789012345678.0123456789"}))}),
      make_decimal_array(decimal128(38, 10), {"1234567890123456789012345678.0123460000"}));
  expect_array(run("positive", {a}), a);
  const Array nines =
      make_decimal_array(decimal128(38, 1), {"9999999999999999999999999999999999999.9"});
  EXPECT_EQ(error_message<ArithmeticError>([&] { run("negative", {nines}); }),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITHOUT_SUGGESTION] The "
            "-10000000000000000000000000000000000000.0 rounded half up from "
            "-1.000000000000000000000000000000000E+37 cannot be represented as Decimal(38, 1).");
  // Spark raises it without ANSI mode too.
  EXPECT_THROW(run("negative", {nines}, false), ArithmeticError);
}

// Spark: '10' / 4 = 2.5 (the string read as BIGINT: '10.5' / 4 raises CAST_INVALID_INPUT),
// '10' / 4.5 and '10' / 4BD are DOUBLE; '10' / NULL, '10' % '4' and '10' div 4.5 do not
// resolve (DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE).
TEST(Arithmetic, StringOperands) {
  const FunctionRegistry& registry = default_registry();
  const Resolution divide = registry.get("/").resolve(std::vector{utf8(), int32()}, {});
  EXPECT_EQ(spark_type_name(*divide.output), "DOUBLE");
  EXPECT_EQ(spark_type_name(*divide.arguments[0]), "BIGINT");
  EXPECT_EQ(spark_type_name(*divide.arguments[1]), "BIGINT");
  EXPECT_EQ(
      spark_type_name(*registry.get("/").resolve(std::vector{utf8(), float64()}, {}).arguments[0]),
      "DOUBLE");
  EXPECT_EQ(
      spark_type_name(
          *registry.get("/").resolve(std::vector{decimal128(10, 2), utf8()}, {}).arguments[1]),
      "DOUBLE");
  expect_array(
      run("/", {make_string_array({"10", std::nullopt, "-3"}), scalar(make_array<int32_t>({4}))}),
      make_array<double>({2.5, std::nullopt, -0.75}));
  EXPECT_THROW(run("/", {make_string_array({"10.5"}), scalar(make_array<int32_t>({4}))}),
               NumberFormatError);
  expect_array(run("/", {make_array<int64_t>({7, 1}).slice(1, 1), make_array<int64_t>({4})}),
               make_array<double>({0.25}));
  EXPECT_EQ(error_message<AnalysisError>([&] {
              registry.get("/").resolve(std::vector{utf8(), null()}, {});
            }),
            "[DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE] Cannot resolve \"/\" due to data type "
            "mismatch: the binary operator requires the input type (\"DOUBLE\" or \"DECIMAL\"), "
            "not \"STRING\".");
  EXPECT_EQ(error_message<AnalysisError>([&] {
              registry.get("%").resolve(std::vector{utf8(), utf8()}, {});
            }),
            "[DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE] Cannot resolve \"%\" due to data type "
            "mismatch: the binary operator requires the input type \"NUMERIC\", not "
            "\"STRING\".");
  EXPECT_EQ(error_message<AnalysisError>([&] {
              registry.get("div").resolve(std::vector{utf8(), float64()}, {});
            }),
            "[DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE] Cannot resolve \"div\" due to data type "
            "mismatch: the binary operator requires the input type (\"BIGINT\" or \"DECIMAL\" "
            "or \"INTERVAL YEAR TO MONTH\" or \"INTERVAL DAY TO SECOND\"), not \"DOUBLE\".");
  EXPECT_EQ(spark_type_name(*registry.get("pmod").resolve(std::vector{utf8(), int8()}, {}).output),
            "BIGINT");
  // Spark: true + 1 has incompatible operands; true + true a wrong type.
  EXPECT_EQ(error_message<AnalysisError>([&] {
              registry.get("+").resolve(std::vector{boolean(), int32()}, {});
            }),
            "[DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES] Cannot resolve \"+\" due to data type "
            "mismatch: the left and right operands of the binary operator have incompatible types "
            "(\"BOOLEAN\" and \"INT\").");
  EXPECT_THROW(
      {
        try {
          registry.get("*").resolve(std::vector{boolean(), boolean()}, {});
        } catch (const AnalysisError& error) {
          EXPECT_EQ(error.condition(), "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE");
          throw;
        }
      },
      AnalysisError);
}

// Spark: pmod(-7Y, -3Y) = -1, pmod(7Y, -3Y) = 1, pmod(-1Y, -128Y) = -1, pmod(-100Y, -128Y) =
// -100, pmod(-128Y, 127Y) = 126, pmod(-128Y, -1Y) = 0; pmod(-1S, -32768S) = -1; for INT and
// BIGINT the addition wraps: pmod(-1, -2147483648) = 2147483647.
TEST(Arithmetic, PmodOfSmallIntegersAddsAsInt) {
  const Array a = make_array<int8_t>({-7, 7, -1, -100, -128, -128, std::nullopt});
  const Array b = make_array<int8_t>({-3, -3, -128, -128, 127, -1, 1});
  expect_array(run("pmod", {a, b}), make_array<int8_t>({-1, 1, -1, -100, 126, 0, std::nullopt}));
  expect_array(run("pmod", {a.slice(2, 2), b.slice(2, 2)}), make_array<int8_t>({-1, -100}));
  expect_scalar(
      run("pmod", {scalar(make_array<int16_t>({-1})), scalar(make_array<int16_t>({-32768}))}),
      make_array<int16_t>({-1}));
  expect_array(run("pmod", {make_array<int32_t>({-1, -7}), scalar(make_array<int32_t>({kIntMin}))}),
               make_array<int32_t>({kIntMax, 2147483641}));
  EXPECT_THROW(run("pmod", {a, scalar(make_array<int8_t>({0}))}), ArithmeticError);
}

}  // namespace
}  // namespace bowstring::compute
