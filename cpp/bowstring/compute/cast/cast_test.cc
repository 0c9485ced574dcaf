#include "bowstring/compute/cast/cast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/array/builder_nested.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

// Expected values were checked against Spark 4 (PySpark, spark.sql.ansi.enabled on and off).

namespace bowstring::compute {
namespace {

using testing::error_message;
using testing::make_array;
using testing::make_decimal_array;
using testing::make_string_array;
using testing::make_struct_array;

enum class Mode { kAnsi, kLegacy, kTry };

Array run(const Array& input, const TypePtr& to, Mode mode = Mode::kAnsi) {
  ExecContext context;
  context.ansi = mode == Mode::kAnsi;
  const Datum result =
      mode == Mode::kTry ? try_cast(Datum(input), to, context) : cast(Datum(input), to, context);
  EXPECT_TRUE(result.is_array());
  result.array().validate_full();
  return result.array();
}

void expect_equal(const Array& actual, const Array& expected) {
  EXPECT_TRUE(actual.equals(expected))
      << "actual:   " << actual.to_string() << "\nexpected: " << expected.to_string();
}

/// The message of the `E` a cast in ANSI mode throws.
template <typename E>
std::string ansi_error(const Array& input, const TypePtr& to) {
  return error_message<E>([&] { run(input, to); });
}

/// `text` in single quotes, as Spark shows string values in messages.
std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('\'');
  out.append(text);
  out.push_back('\'');
  return out;
}

std::string cast_invalid(const std::string& value, const std::string& from, const std::string& to) {
  return "[CAST_INVALID_INPUT] The value " + value + " of the type \"" + from +
         "\" cannot be cast to \"" + to +
         "\" because it is malformed. Correct the value as per the syntax, or change its target "
         "type. Use `try_cast` to tolerate malformed input and return NULL instead.";
}

std::string cast_overflow(const std::string& value, const std::string& from,
                          const std::string& to) {
  return "[CAST_OVERFLOW] The value " + value + " of the type \"" + from +
         "\" cannot be cast to \"" + to +
         "\" due to an overflow. Use `try_cast` to tolerate overflow and return NULL instead.";
}

// --- integers -------------------------------------------------------------------------------

TEST(CastInteger, NarrowingOverflowsInAnsiWrapsInLegacyAndIsNullInTry) {
  const Array input = make_array<int32_t>({1, 300, std::nullopt, -129, 127});
  EXPECT_EQ(ansi_error<ArithmeticError>(input, int8()), cast_overflow("300", "INT", "TINYINT"));
  expect_equal(run(input, int8(), Mode::kLegacy),
               make_array<int8_t>({1, 44, std::nullopt, 127, 127}));
  expect_equal(run(input, int8(), Mode::kTry),
               make_array<int8_t>({1, std::nullopt, std::nullopt, std::nullopt, 127}));
}

TEST(CastInteger, MessagesSpellValuesAsSparkLiterals) {
  EXPECT_EQ(ansi_error<ArithmeticError>(make_array<int64_t>({3000000000}), int32()),
            cast_overflow("3000000000L", "BIGINT", "INT"));
  EXPECT_EQ(ansi_error<ArithmeticError>(make_array<int16_t>({300}), int8()),
            cast_overflow("300S", "SMALLINT", "TINYINT"));
  expect_equal(run(make_array<int64_t>({3000000000}), int32(), Mode::kLegacy),
               make_array<int32_t>({-1294967296}));
}

TEST(CastInteger, WideningKeepsValuesAndNulls) {
  const Array input = make_array<int8_t>({-128, std::nullopt, 127});
  expect_equal(run(input, int64()), make_array<int64_t>({-128, std::nullopt, 127}));
  expect_equal(run(input, float64()), make_array<double>({-128.0, std::nullopt, 127.0}));
  expect_equal(run(make_array<int32_t>({16777217}), float32()), make_array<float>({16777216.0f}));
}

TEST(CastInteger, EmptySlicedAndScalarInputs) {
  expect_equal(run(make_array<int32_t>({}), int8()), make_array<int8_t>({}));
  const Array sliced = make_array<int32_t>({300, 1, std::nullopt, 2, 400}).slice(1, 3);
  expect_equal(run(sliced, int8()), make_array<int8_t>({1, std::nullopt, 2}));
  expect_equal(
      run(make_array<int32_t>({300, 1, std::nullopt, 2, 400}).slice(1, 4), int8(), Mode::kTry),
      make_array<int8_t>({1, std::nullopt, 2, std::nullopt}));

  ExecContext context;
  const Datum scalar = cast(Datum::scalar(make_array<int32_t>({42})), int16(), context);
  ASSERT_TRUE(scalar.is_scalar());
  expect_equal(scalar.array(), make_array<int16_t>({42}));
  const Datum null_scalar = cast(Datum::null_scalar(int32()), utf8(), context);
  ASSERT_TRUE(null_scalar.is_scalar());
  EXPECT_TRUE(null_scalar.scalar_is_null());
  EXPECT_EQ(null_scalar.type()->id(), TypeId::kString);
  EXPECT_THROW(cast(Datum::scalar(make_array<int32_t>({300})), int8(), context), ArithmeticError);
}

TEST(CastInteger, SameTypeGivesTheInput) {
  const Array input = make_array<int32_t>({1, 2});
  EXPECT_EQ(run(input, int32()).data(), input.data());
}

// --- floating point to integers -------------------------------------------------------------

TEST(CastFloating, ToIntegerTruncatesTowardZero) {
  const Array input = make_array<double>({1.9, -1.9, -128.9, 2147483647.5, std::nullopt});
  expect_equal(run(input, int32()), make_array<int32_t>({1, -1, -128, 2147483647, std::nullopt}));
  expect_equal(run(make_array<double>({-128.9, 127.99}), int8()), make_array<int8_t>({-128, 127}));
  // 2^63 as a double passes Spark's range check and saturates.
  expect_equal(run(make_array<double>({9.2233720368547758e18}), int64()),
               make_array<int64_t>({std::numeric_limits<int64_t>::max()}));
  expect_equal(run(make_array<float>({3.5f}), int32()), make_array<int32_t>({3}));
}

TEST(CastFloating, OutOfRangeAndNaNOverflow) {
  EXPECT_EQ(ansi_error<ArithmeticError>(make_array<double>({300.7}), int8()),
            cast_overflow("300.7D", "DOUBLE", "TINYINT"));
  EXPECT_EQ(ansi_error<ArithmeticError>(make_array<double>({1e20}), int32()),
            cast_overflow("1.0E20D", "DOUBLE", "INT"));
  EXPECT_EQ(ansi_error<ArithmeticError>(make_array<double>({std::nan("")}), int64()),
            cast_overflow("NaN", "DOUBLE", "BIGINT"));
  EXPECT_EQ(ansi_error<ArithmeticError>(make_array<float>({1e10f}), int32()),
            cast_overflow("1.0E10", "FLOAT", "INT"));
  EXPECT_EQ(ansi_error<ArithmeticError>(make_array<double>({-129.9}), int8()),
            cast_overflow("-129.9D", "DOUBLE", "TINYINT"));
}

TEST(CastFloating, LegacyConvertsAsJava) {
  const Array input = make_array<double>({300.7, 1e20, std::nan(""), -1e20});
  expect_equal(run(input, int8(), Mode::kLegacy), make_array<int8_t>({44, -1, 0, 0}));
  expect_equal(run(input, int32(), Mode::kLegacy),
               make_array<int32_t>({300, 2147483647, 0, -2147483648}));
  expect_equal(run(input, int64(), Mode::kLegacy),
               make_array<int64_t>({300, std::numeric_limits<int64_t>::max(), 0,
                                    std::numeric_limits<int64_t>::min()}));
  expect_equal(run(input, int32(), Mode::kTry),
               make_array<int32_t>({300, std::nullopt, std::nullopt, std::nullopt}));
}

TEST(CastFloating, BetweenFloatAndDouble) {
  expect_equal(run(make_array<float>({0.1f, std::nullopt}), float64()),
               make_array<double>({0.10000000149011612, std::nullopt}));
  const Array narrowed = run(make_array<double>({1e39, 0.1}), float32());
  expect_equal(narrowed, make_array<float>({std::numeric_limits<float>::infinity(), 0.1f}));
}

// --- strings to numbers ---------------------------------------------------------------------

TEST(CastString, ToIntegerInAnsiMode) {
  const Array input =
      make_string_array({" 12 ", "\t12\n", "+12", "-0", "00012", std::nullopt, "-2147483648"});
  expect_equal(run(input, int32()),
               make_array<int32_t>({12, 12, 12, 0, 12, std::nullopt, -2147483648}));
  for (const char* text : {"1.0", "1.5", "1.5x", "", "2147483648", "1e3", "12.", ".5", "0x10",
                           "1,000", "1_000", "\xef\xbc\x91\xef\xbc\x92"}) {
    EXPECT_EQ(ansi_error<NumberFormatError>(make_string_array({text}), int32()),
              cast_invalid(quoted(text), "STRING", "INT"))
        << text;
  }
  // Control characters are trimmed like spaces; a no-break space is not.
  expect_equal(run(make_string_array({std::string("12\x01")}), int32()), make_array<int32_t>({12}));
  EXPECT_THROW(run(make_string_array({"\xc2\xa0"
                                      "12"}),
                   int32()),
               NumberFormatError);
  EXPECT_EQ(ansi_error<NumberFormatError>(make_string_array({"128"}), int8()),
            cast_invalid("'128'", "STRING", "TINYINT"));
  expect_equal(run(make_string_array({"-9223372036854775808", "9223372036854775807"}), int64()),
               make_array<int64_t>(
                   {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}));
  EXPECT_THROW(run(make_string_array({"9223372036854775808"}), int64()), NumberFormatError);
  EXPECT_THROW(run(make_string_array({"99999999999999999999"}), int64()), NumberFormatError);
}

TEST(CastString, ToIntegerInLegacyModeTruncatesFractions) {
  const Array input = make_string_array(
      {"1.0", "1.5", "1.5x", "", "2147483648", "1e3", "12.", ".5", " 1.9 ", "-.5", std::nullopt});
  expect_equal(run(input, int32(), Mode::kLegacy),
               make_array<int32_t>({1, 1, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                    12, 0, 1, 0, std::nullopt}));
  // try_cast parses as ANSI does: fractions are malformed.
  expect_equal(run(input, int32(), Mode::kTry),
               make_array<int32_t>({std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                    std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                    std::nullopt, std::nullopt, std::nullopt}));
}

TEST(CastString, LargeAndViewStringsParse) {
  expect_equal(run(make_string_array({"7", std::nullopt}, large_utf8()), int64()),
               make_array<int64_t>({7, std::nullopt}));
  expect_equal(run(make_string_array({"8", "a string longer than twelve"}, utf8_view()), int64(),
                   Mode::kTry),
               make_array<int64_t>({8, std::nullopt}));
}

TEST(CastString, ToDouble) {
  const double inf = std::numeric_limits<double>::infinity();
  const Array input =
      make_string_array({"1.0", "inf", "-Infinity", "1e10", "1.5d", "1.5D", "0x1p3", "1e400", "1.",
                         "  -.5E-3  ", "+inf", "INFINITY", std::nullopt});
  expect_equal(run(input, float64()), make_array<double>({1.0, inf, -inf, 1e10, 1.5, 1.5, 8.0, inf,
                                                          1.0, -0.0005, inf, inf, std::nullopt}));
  const Array nans = run(make_string_array({" NaN ", "+NaN", "nan"}), float64());
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(std::isnan(DoubleArray(nans).value(i)));
  }
  for (const char* text : {"abc", ".", "e5", "-nan", "1.5e", "", " "}) {
    EXPECT_EQ(ansi_error<NumberFormatError>(make_string_array({text}), float64()),
              cast_invalid(quoted(text), "STRING", "DOUBLE"))
        << text;
  }
  const Array negative_zero = run(make_string_array({"-0"}), float64());
  EXPECT_TRUE(std::signbit(DoubleArray(negative_zero).value(0)));
  expect_equal(run(make_string_array({"abc", "2"}), float64(), Mode::kLegacy),
               make_array<double>({std::nullopt, 2.0}));
}

TEST(CastString, ToFloatRoundsOnce) {
  expect_equal(run(make_string_array({"0.1", "1.5f", "1e40"}), float32()),
               make_array<float>({0.1f, 1.5f, std::numeric_limits<float>::infinity()}));
}

TEST(CastString, ToDecimal) {
  const TypePtr type = decimal128(10, 2);
  const Array input = make_string_array(
      {"  12.5e-1 ", "1e3", "123.455", "-123.455", "+.5", "-0.005", "1e-40", std::nullopt});
  expect_equal(run(input, type), make_decimal_array(type, {"1.25", "1000.00", "123.46", "-123.46",
                                                           "0.50", "-0.01", "0.00", std::nullopt}));
  expect_equal(run(make_string_array({"1.5 ", "5.", "1E+2"}), decimal128(5, 0)),
               make_decimal_array(decimal128(5, 0), {"2", "5", "100"}));
  EXPECT_EQ(ansi_error<ArithmeticError>(make_string_array({"12345678901"}), type),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] 12345678901 cannot be represented as "
            "Decimal(10, 2). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
            "this error, and return NULL instead.");
  EXPECT_THROW(run(make_string_array({"99.995"}), decimal128(4, 2)), ArithmeticError);
  EXPECT_EQ(ansi_error<ArithmeticError>(make_string_array({"1e100"}), decimal128(38, 0)),
            "[NUMERIC_OUT_OF_SUPPORTED_RANGE] The value 1e100 cannot be interpreted as a numeric "
            "since it has more than 38 digits.");
  for (const char* text : {"abc", "Infinity", "1.2.3", "1e", ""}) {
    EXPECT_EQ(ansi_error<NumberFormatError>(make_string_array({text}), type),
              cast_invalid(quoted(text), "STRING", "DECIMAL(10,2)"))
        << text;
  }
  expect_equal(run(make_string_array({"12345678901", "abc", "1"}), type, Mode::kLegacy),
               make_decimal_array(type, {std::nullopt, std::nullopt, "1.00"}));
}

TEST(CastString, ToBoolean) {
  const Array input =
      make_string_array({" true ", "Y", "no", "T", "1", "0", "FALSE", "n", "yes", std::nullopt});
  expect_equal(run(input, boolean()), make_array<bool>({true, true, false, true, true, false, false,
                                                        false, true, std::nullopt}));
  EXPECT_EQ(ansi_error<SparkRuntimeError>(make_string_array({"2"}), boolean()),
            cast_invalid("'2'", "STRING", "BOOLEAN"));
  expect_equal(run(make_string_array({"2", "", "t"}), boolean(), Mode::kLegacy),
               make_array<bool>({std::nullopt, std::nullopt, true}));
}

// --- numbers to strings ---------------------------------------------------------------------

TEST(CastToString, DoublesAsJavaWritesThem) {
  const Array input =
      make_array<double>({1e10, 1e-5, 0.1, 100.0, 1e7, 1e6, 1e-3, 123456789.123, -0.0, std::nan(""),
                          std::numeric_limits<double>::infinity(), 4.9e-324, 1e-7, std::nullopt});
  expect_equal(run(input, utf8()),
               make_string_array({"1.0E10", "1.0E-5", "0.1", "100.0", "1.0E7", "1000000.0", "0.001",
                                  "1.23456789123E8", "-0.0", "NaN", "Infinity", "4.9E-324",
                                  "1.0E-7", std::nullopt}));
}

TEST(CastToString, ShortestDigitsAlsoWhereJava17PrintsOneMore) {
  // Java 17's Double.toString and Float.toString give a few values one digit more than the
  // shortest that reads back (JDK-4511638, fixed in Java 19), and Spark on Java 17 shows them:
  // '-2.12556550029504704E17', '2.14748365E9', '-4.81035684E17', and through the text, the
  // decimals -212556550029504704 and -481035684316971010. We print the shortest digits, as
  // Spark on Java 21 does, and as Python and pyarrow do.
  expect_equal(run(make_array<double>({-2.125565500295047e17}), utf8()),
               make_string_array({"-2.125565500295047E17"}));
  expect_equal(run(make_array<float>({2147483648.0f, -4.81035684e17f}), utf8()),
               make_string_array({"2.1474836E9", "-4.810357E17"}));
  expect_equal(run(make_array<double>({-2.125565500295047e17}), decimal128(38, 10)),
               make_decimal_array(decimal128(38, 10), {"-212556550029504700.0000000000"}));
}

TEST(CastToString, FloatsAsJavaWritesThem) {
  const Array input = make_array<float>(
      {0.1f, 1e10f, 3.4028235e38f, 1234567.0f, 12345678.0f, 1e7f, 9999999.0f, 1e-7f});
  expect_equal(run(input, utf8()),
               make_string_array({"0.1", "1.0E10", "3.4028235E38", "1234567.0", "1.2345678E7",
                                  "1.0E7", "9999999.0", "1.0E-7"}));
}

TEST(CastToString, IntegersBooleansAndSlices) {
  expect_equal(
      run(make_array<int64_t>({123, std::numeric_limits<int64_t>::min(), std::nullopt}), utf8()),
      make_string_array({"123", "-9223372036854775808", std::nullopt}));
  expect_equal(run(make_array<int8_t>({9, -5, 7}).slice(1), utf8()),
               make_string_array({"-5", "7"}));
  expect_equal(run(make_array<bool>({true, std::nullopt, false}), utf8()),
               make_string_array({"true", std::nullopt, "false"}));
}

TEST(CastToString, DecimalsArePlainInAnsiModeAndJavaStringsInLegacy) {
  const TypePtr type = decimal128(20, 10);
  const Array input =
      make_decimal_array(type, {"0.0000000001", "0", "0.0000001", "-12.5", std::nullopt});
  expect_equal(run(input, utf8()),
               make_string_array({"0.0000000001", "0.0000000000", "0.0000001000", "-12.5000000000",
                                  std::nullopt}));
  expect_equal(run(input.slice(0, 1), utf8(), Mode::kTry), make_string_array({"0.0000000001"}));
  expect_equal(run(input, utf8(), Mode::kLegacy),
               make_string_array({"1E-10", "0E-10", "1.000E-7", "-12.5000000000", std::nullopt}));
}

// --- decimals -------------------------------------------------------------------------------

TEST(CastDecimal, ToIntegersTruncates) {
  const Array input = make_decimal_array(decimal128(10, 3), {"123.456", "-123.956", std::nullopt});
  expect_equal(run(input, int32()), make_array<int32_t>({123, -123, std::nullopt}));
  expect_equal(run(input, int8()), make_array<int8_t>({123, -123, std::nullopt}));
  EXPECT_EQ(ansi_error<ArithmeticError>(make_decimal_array(decimal128(20, 0), {"12345678901234"}),
                                        int32()),
            cast_overflow("12345678901234BD", "DECIMAL(20,0)", "INT"));
}

TEST(CastDecimal, RescaleRoundsHalfUpAndChecksPrecision) {
  const Array input = make_decimal_array(decimal128(10, 3), {"12.345", "-12.345", "0.005"});
  expect_equal(run(input, decimal128(10, 2)),
               make_decimal_array(decimal128(10, 2), {"12.35", "-12.35", "0.01"}));
  EXPECT_EQ(ansi_error<ArithmeticError>(make_decimal_array(decimal128(10, 2), {"12345.67"}),
                                        decimal128(5, 2)),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] 12345.67 cannot be represented as "
            "Decimal(5, 2). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
            "this error, and return NULL instead.");
  // Rounding up can need one more digit than the value had.
  expect_equal(
      run(make_decimal_array(decimal128(3, 2), {"9.99", "1.00"}), decimal128(2, 1), Mode::kTry),
      make_decimal_array(decimal128(2, 1), {std::nullopt, "1.0"}));
}

TEST(CastDecimal, FromIntegersAndBooleans) {
  expect_equal(run(make_array<int32_t>({12, -3, std::nullopt}), decimal128(4, 2)),
               make_decimal_array(decimal128(4, 2), {"12.00", "-3.00", std::nullopt}));
  EXPECT_EQ(ansi_error<ArithmeticError>(make_array<int32_t>({1234}), decimal128(3, 0)),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] 1234 cannot be represented as "
            "Decimal(3, 0). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
            "this error, and return NULL instead.");
  expect_equal(run(make_array<int64_t>({std::numeric_limits<int64_t>::min()}), decimal128(38, 18)),
               make_decimal_array(decimal128(38, 18), {"-9223372036854775808"}));
  expect_equal(run(make_array<bool>({true, false}), decimal128(2, 1)),
               make_decimal_array(decimal128(2, 1), {"1.0", "0.0"}));
  EXPECT_THROW(run(make_array<bool>({true}), decimal128(1, 1)), ArithmeticError);
}

TEST(CastDecimal, FromFloatingUsesShortestDigits) {
  expect_equal(run(make_array<double>({0.1, 1.005, std::nullopt}), decimal128(20, 18)),
               make_decimal_array(decimal128(20, 18),
                                  {"0.100000000000000000", "1.005000000000000000", std::nullopt}));
  expect_equal(run(make_array<double>({1.005}), decimal128(10, 2)),
               make_decimal_array(decimal128(10, 2), {"1.01"}));
  expect_equal(run(make_array<float>({0.1f}), decimal128(20, 18)),
               make_decimal_array(decimal128(20, 18), {"0.100000001490116120"}));
  // NaN is null even in ANSI mode, as in Spark.
  expect_equal(run(make_array<double>({std::nan("")}), decimal128(10, 2)),
               make_decimal_array(decimal128(10, 2), {std::nullopt}));
  EXPECT_EQ(ansi_error<ArithmeticError>(make_array<double>({1e20}), decimal128(10, 2)),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] 100000000000000000000 cannot be "
            "represented as Decimal(10, 2). If necessary set \"spark.sql.ansi.enabled\" to "
            "\"false\" to bypass this error, and return NULL instead.");
  expect_equal(run(make_array<double>({1e20}), decimal128(10, 2), Mode::kLegacy),
               make_decimal_array(decimal128(10, 2), {std::nullopt}));
}

TEST(CastDecimal, ToFloating) {
  expect_equal(run(make_decimal_array(decimal128(10, 1), {"12.5", std::nullopt}), float64()),
               make_array<double>({12.5, std::nullopt}));
  expect_equal(
      run(make_decimal_array(decimal128(38, 8), {"123456789012345678901234567890.12345678"}),
          float64()),
      make_array<double>({1.2345678901234568e+29}));
  expect_equal(run(make_decimal_array(decimal128(10, 1), {"0.1"}), float32()),
               make_array<float>({0.1f}));
}

// --- booleans -------------------------------------------------------------------------------

TEST(CastBoolean, NumbersToBooleanAndBack) {
  expect_equal(run(make_array<int8_t>({5, 0, std::nullopt}), boolean()),
               make_array<bool>({true, false, std::nullopt}));
  expect_equal(run(make_array<double>({std::nan(""), 0.0, -0.0}), boolean()),
               make_array<bool>({true, false, false}));
  expect_equal(run(make_decimal_array(decimal128(4, 2), {"0.00", "0.01"}), boolean()),
               make_array<bool>({false, true}));
  const Array bools = make_array<bool>({true, false, std::nullopt, true}).slice(1);
  expect_equal(run(bools, int32()), make_array<int32_t>({0, std::nullopt, 1}));
  expect_equal(run(bools, float64()), make_array<double>({0.0, std::nullopt, 1.0}));
}

// --- binary ---------------------------------------------------------------------------------

TEST(CastBinary, StringsAndBinariesShareTheirBytes) {
  const Array strings = make_string_array({"abc", std::nullopt, ""});
  const Array binaries = run(strings, binary());
  EXPECT_EQ(binaries.type()->id(), TypeId::kBinary);
  EXPECT_EQ(binaries.data()->buffers[2], strings.data()->buffers[2]);
  expect_equal(run(binaries, utf8()), strings);
  // Spark keeps the bytes of a binary as they are, valid UTF-8 or not.
  const Array raw = make_string_array({std::string("A\xff")}, binary());
  ExecContext context;
  const Array text = cast(Datum(raw), utf8(), context).array();
  EXPECT_EQ(StringArray(text).value(0), "A\xff");
  expect_equal(run(make_string_array({"x", std::nullopt, "yz"}, large_binary()).slice(1), utf8()),
               make_string_array({std::nullopt, "yz"}));
  expect_equal(run(make_string_array({"a string longer than twelve"}, utf8_view()), binary()),
               make_string_array({"a string longer than twelve"}, binary()));
}

// --- timestamps and numbers -----------------------------------------------------------------

TEST(CastTimestamp, ToAndFromSeconds) {
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  const Array instants = make_array<int64_t>(ts, {1700000, -700000, std::nullopt});
  expect_equal(run(instants, int64()), make_array<int64_t>({1, -1, std::nullopt}));
  expect_equal(run(instants, float64()), make_array<double>({1.7, -0.7, std::nullopt}));
  expect_equal(run(instants, decimal128(20, 6)),
               make_decimal_array(decimal128(20, 6), {"1.700000", "-0.700000", std::nullopt}));
  expect_equal(run(make_array<double>({1.5, std::nullopt}), ts),
               make_array<int64_t>(ts, {1500000, std::nullopt}));
  expect_equal(run(make_array<int32_t>({1}), ts), make_array<int64_t>(ts, {1000000}));
  expect_equal(run(make_array<int64_t>({std::numeric_limits<int64_t>::max()}), ts),
               make_array<int64_t>(ts, {std::numeric_limits<int64_t>::max()}));
  expect_equal(run(make_decimal_array(decimal128(5, 1), {"123.5"}), ts),
               make_array<int64_t>(ts, {123500000}));
  EXPECT_EQ(ansi_error<DateTimeError>(make_array<double>({std::nan("")}), ts),
            cast_invalid("NaN", "DOUBLE", "TIMESTAMP"));
  EXPECT_EQ(ansi_error<ArithmeticError>(make_array<double>({1e20}), ts),
            cast_overflow("1.0E26D", "DOUBLE", "BIGINT"));
  expect_equal(run(make_array<double>({std::nan(""), 1e20}), ts, Mode::kTry),
               make_array<int64_t>(ts, {std::nullopt, std::nullopt}));
}

// --- dates and timestamps ------------------------------------------------------------------

Array run_in_zone(const Array& input, const TypePtr& to, const std::string& zone,
                  Mode mode = Mode::kAnsi) {
  ExecContext context;
  context.ansi = mode == Mode::kAnsi;
  context.session_time_zone = zone;
  const Datum result =
      mode == Mode::kTry ? try_cast(Datum(input), to, context) : cast(Datum(input), to, context);
  result.array().validate_full();
  return result.array();
}

constexpr int64_t kJan5 = 1578182400LL * 1000000;  // 2020-01-05 00:00:00 UTC
constexpr int64_t kHour = 3600LL * 1000000;

TEST(CastDatetime, StringsToDates) {
  const Array input = make_string_array(
      {"2020-01-05", " 2020-01-05 ", "2020-1-5", "2020-01", "2020-01-05T10:00:00", std::nullopt});
  expect_equal(run(input, date32()),
               make_array<int32_t>(date32(), {18266, 18266, 18266, 18262, 18266, std::nullopt}));
  EXPECT_EQ(ansi_error<DateTimeError>(make_string_array({"2020-02-30"}), date32()),
            cast_invalid("'2020-02-30'", "STRING", "DATE"));
  expect_equal(run(make_string_array({"abc", "2020-01-05"}), date32(), Mode::kLegacy),
               make_array<int32_t>(date32(), {std::nullopt, 18266}));
}

TEST(CastDatetime, StringsToTimestamps) {
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  const Array input = make_string_array(
      {"2020-01-05 10:11:12", "2020-01-05 10:11:12+02:00", "2020-01-05", std::nullopt});
  const int64_t ten_eleven_twelve = kJan5 + 36672LL * 1000000;
  expect_equal(run(input, ts),
               make_array<int64_t>(
                   ts, {ten_eleven_twelve, ten_eleven_twelve - 2 * kHour, kJan5, std::nullopt}));
  // Local times without a zone are in the session time zone (EST is UTC-5 in January).
  expect_equal(run_in_zone(input.slice(0, 1), ts, "America/New_York"),
               make_array<int64_t>(ts, {ten_eleven_twelve + 5 * kHour}));
  // TIMESTAMP_NTZ ignores a zone in the text.
  expect_equal(run(input.slice(1, 1), timestamp(TimeUnit::kMicro)),
               make_array<int64_t>(timestamp(TimeUnit::kMicro), {ten_eleven_twelve}));
  EXPECT_EQ(ansi_error<DateTimeError>(make_string_array({"abc"}), ts),
            cast_invalid("'abc'", "STRING", "TIMESTAMP"));
  expect_equal(run(make_string_array({"abc"}), ts, Mode::kTry),
               make_array<int64_t>(ts, {std::nullopt}));
}

TEST(CastDatetime, DatesAndTimestampsToStrings) {
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  expect_equal(run(make_array<int32_t>(date32(), {18266, -719162, std::nullopt}), utf8()),
               make_string_array({"2020-01-05", "0001-01-01", std::nullopt}));
  const Array instants = make_array<int64_t>(ts, {kJan5 + 123456, kJan5 + 100000, kJan5});
  expect_equal(run(instants, utf8()),
               make_string_array(
                   {"2020-01-05 00:00:00.123456", "2020-01-05 00:00:00.1", "2020-01-05 00:00:00"}));
  expect_equal(run_in_zone(instants.slice(2), utf8(), "America/New_York"),
               make_string_array({"2020-01-04 19:00:00"}));
  expect_equal(run(make_array<int64_t>(timestamp(TimeUnit::kMicro), {kJan5 + 120000}), utf8()),
               make_string_array({"2020-01-05 00:00:00.12"}));
}

TEST(CastDatetime, BetweenDatesAndTimestampsInTheSessionZone) {
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  const TypePtr ntz = timestamp(TimeUnit::kMicro);
  const Array dates = make_array<int32_t>(date32(), {18266, std::nullopt});
  expect_equal(run(dates, ts), make_array<int64_t>(ts, {kJan5, std::nullopt}));
  expect_equal(run_in_zone(dates, ts, "America/New_York"),
               make_array<int64_t>(ts, {kJan5 + 5 * kHour, std::nullopt}));
  expect_equal(run_in_zone(dates, ntz, "America/New_York"),
               make_array<int64_t>(ntz, {kJan5, std::nullopt}));
  const Array instants = make_array<int64_t>(ts, {kJan5 + 3 * kHour, kJan5 - 1});
  expect_equal(run(instants, date32()), make_array<int32_t>(date32(), {18266, 18265}));
  expect_equal(run_in_zone(instants, date32(), "America/New_York"),
               make_array<int32_t>(date32(), {18265, 18265}));
  expect_equal(run_in_zone(instants, ntz, "America/New_York"),
               make_array<int64_t>(ntz, {kJan5 - 2 * kHour, kJan5 - 1 - 5 * kHour}));
  expect_equal(run_in_zone(make_array<int64_t>(ntz, {kJan5}), ts, "America/New_York"),
               make_array<int64_t>(ts, {kJan5 + 5 * kHour}));
  expect_equal(run(make_array<int64_t>(ntz, {kJan5 - 1}), date32()),
               make_array<int32_t>(date32(), {18265}));
  const Array elsewhere = run(instants, timestamp(TimeUnit::kMicro, "Asia/Tokyo"));
  EXPECT_EQ(elsewhere.data()->buffers[1], instants.data()->buffers[1]);
}

// --- null, nested ---------------------------------------------------------------------------

TEST(CastNull, NullCastsToAnything) {
  std::unique_ptr<ArrayBuilder> builder = make_builder(null());
  builder->append_nulls(3);
  const Array nulls = builder->finish();
  for (const TypePtr& to : {int32(), utf8(), decimal128(5, 2), list(int64()), boolean()}) {
    const Array result = run(nulls, to);
    EXPECT_TRUE(result.type()->equals(*to));
    EXPECT_EQ(result.length(), 3);
    EXPECT_EQ(result.null_count(), 3);
  }
}

TEST(CastNested, ListsCastTheirValues) {
  const Array lists =
      testing::make_list_array<int32_t>({{{1, 300}}, std::nullopt, {{}}, {{std::nullopt, 7}}});
  expect_equal(run(lists.slice(1), list(int64())),
               testing::make_list_array<int64_t>({std::nullopt, {{}}, {{std::nullopt, 7}}}));
  EXPECT_THROW(run(lists, list(int8())), ArithmeticError);
  expect_equal(run(lists, list(int8()), Mode::kTry),
               testing::make_list_array<int8_t>(
                   {{{1, std::nullopt}}, std::nullopt, {{}}, {{std::nullopt, 7}}}));
  expect_equal(run(lists, list(utf8())),
               testing::make_string_list_array(
                   list(utf8()), {{{"1", "300"}}, std::nullopt, {{}}, {{std::nullopt, "7"}}}));
}

TEST(CastNested, NestedValuesAsStrings) {
  const Array lists =
      testing::make_list_array<int32_t>({{{1, 2, std::nullopt}}, std::nullopt, {{}}});
  expect_equal(run(lists, utf8()), make_string_array({"[1, 2, null]", std::nullopt, "[]"}));
  expect_equal(run(lists.slice(2), utf8()), make_string_array({"[]"}));
  const Array rows = make_struct_array(
      {{"a", make_array<int32_t>({1, 2})}, {"b", make_string_array({"x", std::nullopt})}});
  expect_equal(run(rows, utf8()), make_string_array({"{1, x}", "{2, null}"}));
}

TEST(CastNested, StructsCastFieldsByPosition) {
  const Array rows = make_struct_array(
      {{"a", make_array<int32_t>({1, 2, 3})}, {"b", make_string_array({"4", "x", std::nullopt})}},
      {true, true, false});
  const TypePtr to = struct_({field("x", int64()), field("y", int32())});
  const Array result = run(rows, to, Mode::kTry);
  EXPECT_TRUE(result.type()->equals(*to));
  const StructArray fields(result);
  expect_equal(fields.field(0), make_array<int64_t>({1, 2, 3}));
  expect_equal(fields.field(1), make_array<int32_t>({4, std::nullopt, std::nullopt}));
  EXPECT_TRUE(result.is_null(2));
}

// --- what can be cast -----------------------------------------------------------------------

// --- Arrow layouts Spark reads as its own types ---------------------------------------------

TEST(CastUnsigned, ToIntegersCheckTheRange) {
  expect_equal(run(make_array<uint8_t>({200, 7, std::nullopt}), int16()),
               make_array<int16_t>({200, 7, std::nullopt}));
  EXPECT_THROW(run(make_array<uint8_t>({200}), int8()), ArithmeticError);
  expect_equal(run(make_array<uint8_t>({200, 7}), int8(), Mode::kTry),
               make_array<int8_t>({std::nullopt, 7}));
  expect_equal(run(make_array<uint16_t>({65535, 1}), int32()), make_array<int32_t>({65535, 1}));
  expect_equal(run(make_array<uint32_t>({4294967295u, 0}), int64()),
               make_array<int64_t>({4294967295LL, 0}));
  EXPECT_THROW(run(make_array<uint32_t>({4294967295u}), int32()), ArithmeticError);
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  EXPECT_THROW(run(make_array<uint64_t>({max}), int64()), ArithmeticError);
  expect_equal(run(make_array<uint64_t>({max, 5, std::nullopt}), int64(), Mode::kTry),
               make_array<int64_t>({std::nullopt, 5, std::nullopt}));
  const Array sliced = make_array<uint16_t>({1, 2, std::nullopt, 4}).slice(1, 3);
  expect_equal(run(sliced, int8()), make_array<int8_t>({2, std::nullopt, 4}));
  expect_equal(run(make_array<uint32_t>({}), int8()), make_array<int8_t>({}));
}

TEST(CastUnsigned, ToFloatingDecimalBooleanAndString) {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  expect_equal(run(make_array<uint64_t>({max, 3, std::nullopt}), float64()),
               make_array<double>({18446744073709551615.0, 3, std::nullopt}));
  expect_equal(run(make_array<uint8_t>({255}), float32()), make_array<float>({255.0f}));
  expect_equal(run(make_array<uint64_t>({max, std::nullopt}), decimal128(22, 2)),
               make_decimal_array(decimal128(22, 2), {"18446744073709551615.00", std::nullopt}));
  EXPECT_THROW(run(make_array<uint32_t>({100000}), decimal128(5, 1)), ArithmeticError);
  expect_equal(run(make_array<uint16_t>({0, 2, std::nullopt}), boolean()),
               make_array<bool>({false, true, std::nullopt}));
  expect_equal(run(make_array<uint64_t>({max, 0, std::nullopt}), utf8()),
               make_string_array({"18446744073709551615", "0", std::nullopt}));
  expect_equal(run(make_array<uint8_t>({255}), utf8()), make_string_array({"255"}));
}

TEST(CastDictionary, CastsTheDictionaryOnceAndTakesTheRows) {
  const Array dictionary = make_string_array({"1", "x", " 3 ", std::nullopt});
  const Array input =
      testing::make_dictionary_array(int32(), {0, 2, std::nullopt, 0, 3}, dictionary);
  expect_equal(run(input, int32()), make_array<int32_t>({1, 3, std::nullopt, 1, std::nullopt}));
  expect_equal(run(input.slice(1, 3), int64()), make_array<int64_t>({3, std::nullopt, 1}));
  // A value no row uses does not fail; one a row uses does, naming the value.
  const Array uses_x = testing::make_dictionary_array(int8(), {0, 1}, dictionary);
  EXPECT_EQ(ansi_error<NumberFormatError>(uses_x, int32()), cast_invalid("'x'", "STRING", "INT"));
  expect_equal(run(uses_x, int32(), Mode::kTry), make_array<int32_t>({1, std::nullopt}));
  expect_equal(run(uses_x, int32(), Mode::kLegacy), make_array<int32_t>({1, std::nullopt}));
  expect_equal(run(uses_x, utf8()), make_string_array({"1", "x"}));
  const Array numbers = testing::make_dictionary_array(uint16(), {1, 1, std::nullopt, 0},
                                                       make_array<int64_t>({300, 5}));
  expect_equal(run(numbers, utf8()), make_string_array({"5", "5", std::nullopt, "300"}));
  EXPECT_THROW(run(numbers, int8()), ArithmeticError);
  expect_equal(run(numbers.slice(0, 3), int8()), make_array<int8_t>({5, 5, std::nullopt}));
  expect_equal(run(testing::make_dictionary_array(int32(), {}, dictionary), int32()),
               make_array<int32_t>({}));
  EXPECT_FALSE(can_cast(*int32(), *bowstring::dictionary(int32(), utf8())));
}

TEST(CastDecimal, NarrowAndWideLayouts) {
  const Array small = make_decimal_array(decimal32(5, 2), {"123.45", "-1.50", std::nullopt});
  expect_equal(run(small, int32()), make_array<int32_t>({123, -1, std::nullopt}));
  expect_equal(run(small, utf8()), make_string_array({"123.45", "-1.50", std::nullopt}));
  expect_equal(run(small.slice(1, 2), float64()), make_array<double>({-1.5, std::nullopt}));
  const Array medium = make_decimal_array(decimal64(18, 3), {"123456789012345.678", "-0.005"});
  expect_equal(run(medium, decimal128(20, 2)),
               make_decimal_array(decimal128(20, 2), {"123456789012345.68", "-0.01"}));
  expect_equal(run(medium, decimal256(38, 3)),
               make_decimal_array(decimal256(38, 3), {"123456789012345.678", "-0.005"}));
  expect_equal(run(make_string_array({"12.34", "-5", std::nullopt}), decimal32(4, 1)),
               make_decimal_array(decimal32(4, 1), {"12.3", "-5.0", std::nullopt}));
  expect_equal(run(make_array<int64_t>({-7, 123456789012}), decimal64(18, 2)),
               make_decimal_array(decimal64(18, 2), {"-7.00", "123456789012.00"}));
  EXPECT_THROW(run(make_array<int32_t>({100000}), decimal32(5, 1)), ArithmeticError);
  const Array wide = make_decimal_array(decimal256(30, 2), {"-12345678901234567890.12", "0.5"});
  expect_equal(run(wide, decimal128(30, 1)),
               make_decimal_array(decimal128(30, 1), {"-12345678901234567890.1", "0.5"}));
  expect_equal(run(wide, int64(), Mode::kTry), make_array<int64_t>({std::nullopt, 0}));
  expect_equal(run(wide, utf8()), make_string_array({"-12345678901234567890.12", "0.50"}));
}

TEST(CastDecimal, Decimal256BeyondSparkPrecisionIsRefused) {
  const Array too_wide = make_decimal_array(decimal256(40, 2), {"1.00"});
  const std::string message = error_message<AnalysisError>([&] { run(too_wide, utf8()); });
  EXPECT_NE(message.find("[UNSUPPORTED_DATATYPE]"), std::string::npos) << message;
  EXPECT_NE(message.find(decimal256(40, 2)->to_string()), std::string::npos) << message;
  EXPECT_NE(message.find("at most 38 digits"), std::string::npos) << message;
  EXPECT_THROW(run(make_array<int32_t>({1}), decimal256(39, 0)), AnalysisError);
  EXPECT_TRUE(can_cast(*decimal256(38, 2), *int32()));
  EXPECT_FALSE(can_cast(*decimal256(39, 2), *int32()));
}

TEST(CastTimestamp, OtherUnitsBecomeMicroseconds) {
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  // Nanoseconds are floored: -1500 ns is 2 microseconds before the epoch.
  const Array nanos = make_array<int64_t>(timestamp(TimeUnit::kNano, "UTC"),
                                          {1500, -1500, std::nullopt, -1000, 999});
  expect_equal(run(nanos, ts), make_array<int64_t>(ts, {1, -2, std::nullopt, -1, 0}));
  expect_equal(run(nanos.slice(1, 2), ts), make_array<int64_t>(ts, {-2, std::nullopt}));
  expect_equal(run(make_array<int64_t>(timestamp(TimeUnit::kNano, "UTC"), {-1}), int64()),
               make_array<int64_t>({-1}));
  const Array seconds = make_array<int64_t>(timestamp(TimeUnit::kSecond), {3, -3, std::nullopt});
  expect_equal(run(seconds, timestamp(TimeUnit::kMicro)),
               make_array<int64_t>(timestamp(TimeUnit::kMicro), {3000000, -3000000, std::nullopt}));
  const Array millis = make_array<int64_t>(timestamp(TimeUnit::kMilli, "UTC"), {1500, -1});
  expect_equal(run_in_zone(millis, utf8(), "UTC"),
               make_string_array({"1970-01-01 00:00:01.5", "1969-12-31 23:59:59.999"}));
  expect_equal(run_in_zone(millis, date32(), "UTC"), make_array<int32_t>(date32(), {0, -1}));
  const Array huge = make_array<int64_t>(timestamp(TimeUnit::kSecond, "UTC"),
                                         {std::numeric_limits<int64_t>::max(), 1});
  EXPECT_THROW(run(huge, ts), ArithmeticError);
  expect_equal(run(huge, ts, Mode::kTry), make_array<int64_t>(ts, {std::nullopt, 1000000}));
}

TEST(CastTimestamp, ToOtherUnits) {
  const TypePtr nanos = timestamp(TimeUnit::kNano, "UTC");
  expect_equal(
      run_in_zone(make_string_array({"1970-01-01 00:00:01.5", std::nullopt}), nanos, "UTC"),
      make_array<int64_t>(nanos, {1500000000, std::nullopt}));
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  expect_equal(run(make_array<int64_t>(ts, {-1, 2500000}), timestamp(TimeUnit::kSecond, "UTC")),
               make_array<int64_t>(timestamp(TimeUnit::kSecond, "UTC"), {-1, 2}));
  expect_equal(run(make_array<int64_t>(ts, {-1, 2500}), timestamp(TimeUnit::kMilli, "UTC")),
               make_array<int64_t>(timestamp(TimeUnit::kMilli, "UTC"), {-1, 2}));
  EXPECT_THROW(run(make_array<int64_t>(ts, {std::numeric_limits<int64_t>::max()}), nanos),
               ArithmeticError);
}

TEST(CastDatetime, Date64IsDaysOfMilliseconds) {
  const Array dates =
      make_array<int64_t>(date64(), {3 * 86400000LL, -1, std::nullopt, 86400000LL - 1});
  expect_equal(run(dates, date32()), make_array<int32_t>(date32(), {3, -1, std::nullopt, 0}));
  expect_equal(run(dates.slice(1, 2), utf8()), make_string_array({"1969-12-31", std::nullopt}));
  expect_equal(run(make_array<int32_t>(date32(), {2, std::nullopt}), date64()),
               make_array<int64_t>(date64(), {2 * 86400000LL, std::nullopt}));
  expect_equal(run(make_string_array({"2020-01-05"}), date64()),
               make_array<int64_t>(date64(), {kJan5 / 1000}));
  EXPECT_THROW(run(make_array<int64_t>(date64(), {std::numeric_limits<int64_t>::max()}), date32()),
               ArithmeticError);
}

TEST(CanCast, FollowsSparkAnsiRules) {
  EXPECT_TRUE(can_cast(*int32(), *int8()));
  EXPECT_TRUE(can_cast(*utf8(), *decimal128(10, 2)));
  EXPECT_TRUE(can_cast(*float64(), *timestamp(TimeUnit::kMicro, "UTC")));
  EXPECT_TRUE(can_cast(*null(), *list(int32())));
  EXPECT_TRUE(can_cast(*list(int32()), *list(utf8())));
  EXPECT_FALSE(can_cast(*int32(), *binary()));
  EXPECT_TRUE(can_cast(*map(utf8(), int32()), *map(int32(), utf8())));
  EXPECT_FALSE(can_cast(*date32(), *int32()));
  EXPECT_FALSE(can_cast(*boolean(), *timestamp(TimeUnit::kMicro, "UTC")));
  EXPECT_FALSE(can_cast(*timestamp(TimeUnit::kMicro, "UTC"), *boolean()));
  EXPECT_FALSE(can_cast(*int32(), *list(int32())));
  EXPECT_FALSE(can_cast(*struct_({field("a", int32())}),
                        *struct_({field("a", int32()), field("b", int32())})));
  const std::string message =
      error_message<AnalysisError>([] { run(make_array<int32_t>({1}), binary()); });
  EXPECT_NE(message.find("cannot cast \"INT\" to \"BINARY\""), std::string::npos) << message;
}

// --- checked against Spark 4.3 (PySpark, Java 17) ----------------------------------------------

TEST(CastString, DigitsOfOtherScriptsParseAsDecimalsOnly) {
  // Spark reads '１２３' and '1２3' as DECIMAL (Java's BigDecimal accepts any Unicode digit) but
  // not as INT, BIGINT, DOUBLE or FLOAT (CAST_INVALID_INPUT).
  const Array text = make_string_array({"\uFF11\uFF12\uFF13", "\uFF11\uFF12.\uFF15", "1\uFF123",
                                        std::nullopt, "\u0661\u0662", " \uFF11e\uFF12 "});
  expect_equal(run(text, decimal128(10, 2)),
               make_decimal_array(decimal128(10, 2),
                                  {"123.00", "12.50", "123.00", std::nullopt, "12.00", "100.00"}));
  expect_equal(run(text.slice(1, 3), decimal128(5, 0)),
               make_decimal_array(decimal128(5, 0), {"13", "123", std::nullopt}));
  EXPECT_EQ(ansi_error<NumberFormatError>(text.slice(0, 1), int32()),
            cast_invalid(quoted("\uFF11\uFF12\uFF13"), "STRING", "INT"));
  EXPECT_EQ(ansi_error<NumberFormatError>(text.slice(0, 1), float64()),
            cast_invalid(quoted("\uFF11\uFF12\uFF13"), "STRING", "DOUBLE"));
  expect_equal(run(text.slice(0, 2), int64(), Mode::kTry),
               make_array<int64_t>({std::nullopt, std::nullopt}));
  // A character that is not a digit stays malformed, and so does a broken sequence whose bits
  // would spell a digit (0xD9 then a space is not U+0660).
  EXPECT_EQ(ansi_error<NumberFormatError>(make_string_array({"1\uFF21"}), decimal128(10, 2)),
            cast_invalid(quoted("1\uFF21"), "STRING", "DECIMAL(10,2)"));
  expect_equal(run(make_string_array({"1\xD9 2",
                                      "1\xD9\xA0"
                                      "2"}),
                   decimal128(10, 2), Mode::kTry),
               make_decimal_array(decimal128(10, 2), {std::nullopt, "102.00"}));
}

TEST(CastDecimal, ToTimestampWrapsLikeJavaLongValue) {
  // Spark takes BigDecimal.longValue of the microseconds, in ANSI mode too (unix_micros of the
  // cast): 9223372036855 -> -9223372036854551616, 99999999999999999999999999.1234567890 ->
  // -8814407033341960192, 1.0000009 -> 1000000, -1.0000009 -> -1000000, -0.0000015 -> -1.
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  const Array input = make_decimal_array(
      decimal128(38, 10),
      {"9223372036855", "99999999999999999999999999.1234567890", "1.0000009", "-1.0000009",
       std::nullopt, "-0.0000015", "9223372036854.7758075", "18446744073709.551616"});
  const Array expected =
      make_array<int64_t>(ts, {-9223372036854551616LL, -8814407033341960192LL, 1000000, -1000000,
                               std::nullopt, -1, std::numeric_limits<int64_t>::max(), 0});
  for (const Mode mode : {Mode::kAnsi, Mode::kLegacy, Mode::kTry}) {
    expect_equal(run(input, ts, mode), expected);
  }
  expect_equal(run(input.slice(4, 3), ts), expected.slice(4, 3));
  // Scale 0, where the microseconds need more than 128 bits: still their low 64 bits,
  // (10^38 - 1) * 10^6 mod 2^64.
  expect_equal(
      run(make_decimal_array(decimal128(38, 0), {"99999999999999999999999999999999999999"}), ts),
      make_array<int64_t>(ts, {80237960547581376LL}));
}

TEST(CastTimestamp, ToDecimalIsExact) {
  // Spark: 9999-12-31 23:59:59.999999 -> 253402300799.9999990000 (a double would round it),
  // 0001-01-01 00:00:00.000001 -> -62135596799.9999990000, 1969-12-31 23:59:59.5 as
  // DECIMAL(38,0) -> -1 (HALF_UP), 2020-01-01 00:00:00.125 as DECIMAL(12,2) -> 1577836800.13.
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  const Array input = make_array<int64_t>(
      ts, {253402300799999999LL, -62135596799999999LL, std::nullopt, -500000, 1577836800125000LL});
  expect_equal(run(input, decimal128(38, 10)),
               make_decimal_array(decimal128(38, 10),
                                  {"253402300799.9999990000", "-62135596799.9999990000",
                                   std::nullopt, "-0.5000000000", "1577836800.1250000000"}));
  expect_equal(run(input.slice(3, 2), decimal128(38, 0)),
               make_decimal_array(decimal128(38, 0), {"-1", "1577836800"}));
  expect_equal(run(input.slice(4, 1), decimal128(12, 2)),
               make_decimal_array(decimal128(12, 2), {"1577836800.13"}));
  // The message shows the value at scale 6, as Spark's does.
  EXPECT_EQ(
      ansi_error<ArithmeticError>(make_array<int64_t>(ts, {1577836800100000LL}), decimal128(5, 2)),
      "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] 1577836800.100000 cannot be "
      "represented as Decimal(5, 2). If necessary set \"spark.sql.ansi.enabled\" to "
      "\"false\" to bypass this error, and return NULL instead.");
  expect_equal(run(input.slice(0, 1), decimal128(5, 2), Mode::kLegacy),
               make_decimal_array(decimal128(5, 2), {std::nullopt}));
}

Array make_int_map(
    const TypePtr& type,
    const std::vector<std::optional<std::vector<std::pair<int32_t, std::optional<int32_t>>>>>&
        maps) {
  std::unique_ptr<ArrayBuilder> builder = make_builder(type);
  auto& out = builder->as<MapBuilder>();
  for (const auto& entries : maps) {
    if (!entries) {
      out.append_null();
      continue;
    }
    out.append();
    for (const auto& [key, item] : *entries) {
      testing::append_optional<int32_t>(out.key_builder(), key);
      testing::append_optional<int32_t>(out.item_builder(), item);
    }
  }
  return builder->finish();
}

TEST(CastLegacyOnly, IntegersToBinaryAsBigEndianBytes) {
  // Spark with ANSI off: CAST(1 AS BINARY) = X'00000001', CAST(258L AS BINARY) =
  // X'0000000000000102', CAST(-1 AS BINARY) = X'FFFFFFFF', smallint 1 -> X'0001', tinyint 1 ->
  // X'01'.
  expect_equal(
      run(make_array<int32_t>({1, -1, std::nullopt}), binary(), Mode::kLegacy),
      make_string_array({std::string("\0\0\0\1", 4), "\xFF\xFF\xFF\xFF", std::nullopt}, binary()));
  expect_equal(run(make_array<int64_t>({0, 258}).slice(1), binary(), Mode::kLegacy),
               make_string_array({std::string("\0\0\0\0\0\0\1\2", 8)}, binary()));
  expect_equal(run(make_array<int16_t>({1}), binary(), Mode::kLegacy),
               make_string_array({std::string("\0\1", 2)}, binary()));
  expect_equal(run(make_array<int8_t>({1}), binary(), Mode::kLegacy),
               make_string_array({"\1"}, binary()));
  expect_equal(run(make_array<int32_t>({}), binary(), Mode::kLegacy),
               make_string_array({}, binary()));
}

TEST(CastLegacyOnly, BooleansAndTimestamps) {
  // Spark with ANSI off: CAST(true AS TIMESTAMP) = 1970-01-01 00:00:00.000001, false is the
  // epoch; a timestamp is true unless it is the epoch; a date as BOOLEAN is null.
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  expect_equal(run(make_array<bool>({true, false, std::nullopt}), ts, Mode::kLegacy),
               make_array<int64_t>(ts, {1, 0, std::nullopt}));
  expect_equal(run(make_array<int64_t>(ts, {kJan5, 0, std::nullopt}), boolean(), Mode::kLegacy),
               make_array<bool>({true, false, std::nullopt}));
  expect_equal(run(make_array<int32_t>(date32(), {1, std::nullopt}), boolean(), Mode::kLegacy),
               make_array<bool>({std::nullopt, std::nullopt}));
}

TEST(CastLegacyOnly, RefusedWithAnsiOnAndByTryCast) {
  // Spark: [DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION] ... cannot cast "INT" to "BINARY" with
  // ANSI mode on. If you have to cast "INT" to "BINARY", you can set "spark.sql.ansi.enabled"
  // as 'false'. try_cast gives CAST_WITHOUT_SUGGESTION in both modes.
  EXPECT_EQ(error_message<AnalysisError>([] { run(make_array<int32_t>({1}), binary()); }),
            "[DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION] Cannot resolve \"CAST\" due to data "
            "type mismatch: cannot cast \"INT\" to \"BINARY\" with ANSI mode on. If you have to "
            "cast \"INT\" to \"BINARY\", you can set \"spark.sql.ansi.enabled\" as 'false'.");
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  EXPECT_NE(error_message<AnalysisError>([&] {
              run(make_array<bool>({}), ts);
            }).find("CAST_WITH_CONF_SUGGESTION"),
            std::string::npos);
  EXPECT_NE(error_message<AnalysisError>([&] {
              run(make_array<bool>({true}), ts, Mode::kTry);
            }).find("CAST_WITHOUT_SUGGESTION"),
            std::string::npos);
  // Not allowed with ANSI off either: DOUBLE to BINARY, BOOLEAN to DATE.
  EXPECT_THROW(run(make_array<double>({1.5}), binary(), Mode::kLegacy), AnalysisError);
  EXPECT_THROW(run(make_array<bool>({true}), date32(), Mode::kLegacy), AnalysisError);
  // Through the registry the cast resolves, and the session's mode decides.
  ExecContext legacy;
  legacy.ansi = false;
  const Datum arguments[] = {Datum(make_array<int32_t>({1}))};
  expect_equal(call("cast", arguments, {{"to", std::string("binary")}}, &legacy).array(),
               make_string_array({std::string("\0\0\0\1", 4)}, binary()));
  ExecContext ansi;
  EXPECT_THROW(call("cast", arguments, {{"to", std::string("binary")}}, &ansi), AnalysisError);
  EXPECT_THROW(call("try_cast", arguments, {{"to", std::string("binary")}}, &legacy),
               AnalysisError);
}

TEST(CastLegacyOnly, ScalarsGiveScalars) {
  ExecContext legacy;
  legacy.ansi = false;
  const Datum bytes = cast(Datum::scalar(make_array<int16_t>({258})), binary(), legacy);
  ASSERT_TRUE(bytes.is_scalar());
  expect_equal(bytes.array(), make_string_array({std::string("\1\2", 2)}, binary()));
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  const Datum instant = cast(Datum::scalar(make_array<bool>({true})), ts, legacy);
  ASSERT_TRUE(instant.is_scalar());
  expect_equal(instant.array(), make_array<int64_t>(ts, {1}));
  const Datum null_bytes = cast(Datum::null_scalar(int32()), binary(), legacy);
  ASSERT_TRUE(null_bytes.is_scalar());
  EXPECT_TRUE(null_bytes.scalar_is_null());
  ExecContext ansi;
  const Datum wrapped =
      cast(Datum::scalar(make_decimal_array(decimal128(38, 10), {"9223372036855"})), ts, ansi);
  ASSERT_TRUE(wrapped.is_scalar());
  expect_equal(wrapped.array(), make_array<int64_t>(ts, {-9223372036854551616LL}));
  const Datum exact = cast(Datum::scalar(make_array<int64_t>(ts, {-1})), decimal128(38, 10), ansi);
  ASSERT_TRUE(exact.is_scalar());
  expect_equal(exact.array(), make_decimal_array(decimal128(38, 10), {"-0.0000010000"}));
}

TEST(CastLegacyOnly, InsideArraysStructsAndMaps) {
  // Spark with ANSI off: CAST(array(1, null) AS ARRAY<BINARY>) = [X'00000001', null],
  // CAST(named_struct('a', true) AS STRUCT<a: TIMESTAMP>) = {1970-01-01 00:00:00.000001},
  // CAST(map(1, 2) AS MAP<BINARY, INT>) = {X'00000001': 2}. With ANSI on:
  // DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION.
  const Array lists = testing::make_list_array<int32_t>({{{1, std::nullopt}}});
  const Array binaries = run(lists, list(binary()), Mode::kLegacy);
  expect_equal(Array(binaries.data()->children[0]),
               make_string_array({std::string("\0\0\0\1", 4), std::nullopt}, binary()));
  EXPECT_EQ(error_message<AnalysisError>([&] { run(lists, list(binary())); }),
            "[DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION] Cannot resolve \"CAST\" due to data "
            "type mismatch: cannot cast \"ARRAY<INT>\" to \"ARRAY<BINARY>\". To convert values "
            "from \"ARRAY<INT>\" to \"ARRAY<BINARY>\", you can use the functions `try_cast` "
            "instead.");
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  const Array rows = make_struct_array({{"a", make_array<bool>({true})}});
  const Array instants = run(rows, struct_({field("a", ts)}), Mode::kLegacy);
  expect_equal(StructArray(instants).field(0), make_array<int64_t>(ts, {1}));
  const Array maps = make_int_map(map(int32(), int32()), {{{{1, 2}}}});
  const MapArray keyed(run(maps, map(binary(), int32()), Mode::kLegacy));
  expect_equal(keyed.keys(), make_string_array({std::string("\0\0\0\1", 4)}, binary()));
  EXPECT_THROW(run(lists, list(binary()), Mode::kTry), AnalysisError);
}

TEST(CastNested, MapsCastKeysAndValues) {
  // Spark: CAST(map(1, 2) AS MAP<STRING, BIGINT>) = {'1': 2}; CAST(map(1, 2, 3, null) AS
  // STRING) = '{1 -> 2, 3 -> null}'; map() as STRING = '{}'.
  const Array maps = make_int_map(
      map(int32(), int32()), {{{{1, 2}, {3, std::nullopt}}}, std::nullopt, {{}}, {{{100, 7}}}});
  const Array text_keys = run(maps, map(utf8(), int64()));
  EXPECT_TRUE(text_keys.type()->equals(*map(utf8(), int64())));
  const MapArray text_map_array(text_keys);
  expect_equal(text_map_array.keys(), make_string_array({"1", "3", "100"}));
  expect_equal(text_map_array.items(), make_array<int64_t>({2, std::nullopt, 7}));
  const Array expected_text =
      make_string_array({"{1 -> 2, 3 -> null}", std::nullopt, "{}", "{100 -> 7}"});
  expect_equal(run(maps, utf8()), expected_text);
  expect_equal(run(text_keys, utf8()), expected_text);
  // A slice: the entries of the rows before it are left out.
  const Array sliced = run(maps.slice(2, 2), map(int8(), utf8()));
  EXPECT_EQ(Array(sliced.data()->children[0]).length(), 1);
  expect_equal(run(sliced, utf8()), expected_text.slice(2, 2));
  EXPECT_EQ(run(maps.slice(0, 0), map(int8(), utf8())).length(), 0);
  // Entries that start at an offset of their own: {3 -> null} and {100 -> 7}.
  const Array entries = Array(maps.data()->children[0]).slice(1);
  const Array offset_entries(
      std::make_shared<ArrayData>(maps.type(), 2,
                                  std::vector<std::shared_ptr<Buffer>>{
                                      nullptr, make_array<int32_t>({0, 1, 2}).data()->buffers[1]},
                                  0, 0, std::vector<ArrayDataPtr>{entries.data()}));
  expect_equal(run(offset_entries, utf8()), make_string_array({"{3 -> null}", "{100 -> 7}"}));
  expect_equal(run(run(offset_entries, map(utf8(), int64())), utf8()),
               make_string_array({"{3 -> null}", "{100 -> 7}"}));
  // Spark: CAST(map('a', '2') AS MAP<INT, INT>) raises CAST_INVALID_INPUT for 'a' in ANSI mode,
  // CAST(map('1', '2') AS MAP<INT, INT>) = {1: 2}; with ANSI off and in try_cast, a key that may
  // not convert is refused at analysis (CAST_WITHOUT_SUGGESTION).
  const Array text_map = run(maps.slice(3, 1), map(utf8(), utf8()));
  expect_equal(run(run(text_map, map(int32(), int32())), utf8()),
               make_string_array({"{100 -> 7}"}));
  EXPECT_THROW(run(text_map, map(int32(), int32()), Mode::kLegacy), AnalysisError);
  EXPECT_THROW(run(text_map, map(int32(), int32()), Mode::kTry), AnalysisError);
  // Overflowing keys raise in ANSI mode: CAST(map(300, 1) AS MAP<TINYINT, INT>).
  EXPECT_THROW(run(make_int_map(map(int32(), int32()), {{{{300, 1}}}}), map(int8(), int32())),
               ArithmeticError);
  EXPECT_FALSE(can_cast(*map(int32(), int32()), *map(int32(), binary())));
}

// --- type names and the registry ------------------------------------------------------------

TEST(CastFunctions, TimestampByNameIsInTheSessionTimeZone) {
  // Spark's TIMESTAMP is TIMESTAMP_LTZ: instants shown in the session time zone.
  FunctionRegistry registry;
  register_cast_functions(registry);
  const std::vector<Datum> arguments{Datum(make_string_array({"2020-01-05 10:11:12"}))};
  ExecContext context;
  context.session_time_zone = "America/New_York";
  const FunctionOptions to_timestamp{{"to", std::string("timestamp")}};
  const Datum cast_value = call("cast", arguments, to_timestamp, &context, registry);
  EXPECT_TRUE(cast_value.type()->equals(*timestamp(TimeUnit::kMicro, "America/New_York")));
  // 10:11:12 in New York (EST, UTC-5) is 15:11:12 UTC.
  expect_equal(
      cast_value.array(),
      make_array<int64_t>(timestamp(TimeUnit::kMicro, "America/New_York"), {1578237072000000}));
  const std::vector<TypePtr> strings{utf8()};
  ResolveContext resolve_context{true, {}, "Asia/Tokyo"};
  EXPECT_TRUE(registry.get("cast")
                  .resolve_with(strings, to_timestamp, resolve_context)
                  .output->equals(*timestamp(TimeUnit::kMicro, "Asia/Tokyo")));
  EXPECT_TRUE(registry.get("cast")
                  .resolve_with(strings, {{"to", std::string("timestamp_ntz")}}, resolve_context)
                  .output->equals(*timestamp(TimeUnit::kMicro)));
}

TEST(CastFunctions, CallByNameWithTheTargetAsOption) {
  FunctionRegistry registry;
  register_cast_functions(registry);
  const std::vector<Datum> arguments{Datum(make_string_array({"1", "x", std::nullopt}))};
  ExecContext context;
  const Datum tried =
      call("try_cast", arguments, FunctionOptions{{"to", std::string("int")}}, &context, registry);
  expect_equal(tried.array(), make_array<int32_t>({1, std::nullopt, std::nullopt}));
  EXPECT_THROW(call("cast", arguments, FunctionOptions{{"to", int64()}}, &context, registry),
               NumberFormatError);
  EXPECT_THROW(call("cast", arguments, FunctionOptions{}, &context, registry), AnalysisError);
  EXPECT_THROW(
      call("cast", arguments, FunctionOptions{{"to", std::string("date2")}}, &context, registry),
      ParseError);
  const Resolution resolution = registry.get("cast").resolve(
      std::vector<TypePtr>{utf8()}, FunctionOptions{{"to", std::string("decimal(5,1)")}});
  EXPECT_TRUE(resolution.output->equals(*decimal128(5, 1)));
}

}  // namespace
}  // namespace bowstring::compute
