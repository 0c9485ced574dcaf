#include "bowstring/array/builder_decimal.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bowstring/testing/array_testing.h"

namespace bowstring {
namespace {

std::string parse_and_format(std::string_view text, const TypePtr& type) {
  uint8_t bytes[32];
  parse_decimal(text, *type, bytes);
  return format_decimal(bytes, type->byte_width(), static_cast<const DecimalType&>(*type).scale());
}

std::string error_of(std::string_view text, const TypePtr& type) {
  try {
    parse_and_format(text, type);
  } catch (const InvalidArgument& error) {
    return error.what();
  }
  return "no error";
}

TEST(ParseDecimalTest, ParsesAndScales) {
  const TypePtr type = decimal128(10, 3);
  EXPECT_EQ(parse_and_format("-12.345", type), "-12.345");
  EXPECT_EQ(parse_and_format("12.3", type), "12.300");
  EXPECT_EQ(parse_and_format("+7", type), "7.000");
  EXPECT_EQ(parse_and_format(".5", type), "0.500");
  EXPECT_EQ(parse_and_format("5.", type), "5.000");
  EXPECT_EQ(parse_and_format("-0", type), "0.000");
  EXPECT_EQ(parse_and_format("0012.34000", type), "12.340");
  EXPECT_EQ(parse_and_format("1.5e3", type), "1500.000");
  EXPECT_EQ(parse_and_format("15E-3", type), "0.015");
  EXPECT_NE(error_of("15E-4", type).find("scale"), std::string::npos);
}

TEST(ParseDecimalTest, RejectsWhatDoesNotFit) {
  const TypePtr type = decimal64(5, 2);
  EXPECT_NE(error_of("1.234", type).find("more digits after the decimal point than the scale 2"),
            std::string::npos)
      << error_of("1.234", type);
  EXPECT_NE(error_of("1234.5", type).find("needs 6 digits, more than the precision 5"),
            std::string::npos)
      << error_of("1234.5", type);
  EXPECT_EQ(parse_and_format("999.99", type), "999.99");
  EXPECT_EQ(parse_and_format("1.230", type), "1.23") << "trailing zeros beyond the scale are fine";
  EXPECT_NE(error_of("1e5", type).find("precision"), std::string::npos);
  for (const char* bad : {"", "-", "abc", "1.2.3", "1e", "1e+", "--1", "1 ", " 1", "0x10", "."}) {
    EXPECT_NE(error_of(bad, type).find("is not a decimal number"), std::string::npos) << bad;
  }
}

TEST(ParseDecimalTest, NegativeScaleAndEveryWidth) {
  EXPECT_EQ(parse_and_format("12300", decimal32(5, -2)), "123E+2");
  EXPECT_NE(error_of("12345", decimal32(5, -2)).find("scale"), std::string::npos);
  EXPECT_EQ(parse_and_format("-999999999", decimal32(9, 0)), "-999999999");
  EXPECT_EQ(parse_and_format("123456789012345678", decimal64(18, 0)), "123456789012345678");
  const std::string max38(38, '9');
  EXPECT_EQ(parse_and_format(max38, decimal128(38, 0)), max38);
  EXPECT_EQ(parse_and_format("-" + max38, decimal128(38, 0)), "-" + max38);
  const std::string max76(76, '9');
  EXPECT_EQ(parse_and_format("-" + max76, decimal256(76, 0)), "-" + max76);
  EXPECT_EQ(parse_and_format("-1.5", decimal256(76, 10)), "-1.5000000000");
  EXPECT_THROW(parse_and_format("1", int32()), TypeError);
}

TEST(DecimalBuilderTest, RoundTripsEveryWidth) {
  for (const TypePtr& type :
       {decimal32(7, 2), decimal64(15, 2), decimal128(30, 2), decimal256(60, 2)}) {
    DecimalBuilder builder(type);
    EXPECT_EQ(builder.byte_width(), type->byte_width());
    builder.append_string("-12.34");
    builder.append_null();
    builder.append_unscaled(12345);
    builder.append_unscaled(-1);
    builder.append_empty_value();
    Array array = builder.finish();
    DecimalArray view(array);
    EXPECT_EQ(view.format_value(0), "-12.34") << type->to_string();
    EXPECT_TRUE(view.is_null(1));
    EXPECT_EQ(view.format_value(2), "123.45");
    EXPECT_EQ(view.format_value(3), "-0.01");
    EXPECT_EQ(view.format_value(4), "0.00");
    EXPECT_EQ(array.null_count(), 1);
    EXPECT_EQ(array.data()->buffers[1]->size(), 5 * type->byte_width());
  }
}

TEST(DecimalBuilderTest, RawValuesStringsAndPrecisionChecks) {
  DecimalBuilder builder(decimal128(5, 1));
  uint8_t raw[16] = {};
  raw[0] = 0x39;  // 57 -> 5.7
  builder.append_raw(raw);
  builder.reserve(1);
  builder.unsafe_append_raw(raw);
  uint8_t two[32] = {};
  two[0] = 1;
  two[16] = 2;
  const uint8_t valid[] = {1, 0};
  builder.append_raw_values(two, 2, valid);
  const std::vector<std::string_view> texts = {"1.5", "not a number", "-2"};
  const uint8_t text_valid[] = {1, 0, 1};
  builder.append_strings(texts, text_valid);
  EXPECT_THROW(builder.append_strings(std::vector<std::string_view>{"1", "bad"}), InvalidArgument);
  EXPECT_THROW(builder.append_unscaled(100000), InvalidArgument);
  EXPECT_THROW(builder.append_unscaled(-100000), InvalidArgument);
  EXPECT_NO_THROW(builder.append_unscaled(-99999));
  EXPECT_THROW(builder.append_string("1.25"), InvalidArgument);
  EXPECT_EQ(builder.length(), 8);
  Array array = builder.finish();
  DecimalArray view(array);
  std::vector<std::string> got;
  for (int64_t i = 0; i < view.length(); ++i) {
    got.push_back(view.is_null(i) ? "null" : view.format_value(i));
  }
  EXPECT_EQ(got, (std::vector<std::string>{"5.7", "5.7", "0.1", "null", "1.5", "null", "-2.0",
                                           "-9999.9"}));
}

TEST(DecimalBuilderTest, ReuseSlicesAndTypeErrors) {
  Array prices =
      testing::make_decimal_array(decimal64(10, 2), {"1.00", std::nullopt, "3.50", "-4.25", "5"});
  Array slice = prices.slice(1, 4).slice(1, 3);
  DecimalArray view(slice);
  EXPECT_EQ(view.format_value(0), "3.50");
  EXPECT_EQ(view.format_value(1), "-4.25");
  EXPECT_EQ(view.format_value(2), "5.00");
  EXPECT_EQ(slice.null_count(), 0);

  DecimalBuilder builder(decimal32(4, 0));
  builder.append_nulls(2);
  Array first = builder.finish();
  builder.append_string("9999");
  Array second = builder.finish();
  EXPECT_EQ(first.null_count(), 2);
  EXPECT_EQ(DecimalArray(second).format_value(0), "9999");
  EXPECT_EQ(second.data()->buffers[0], nullptr);
  EXPECT_THROW(DecimalBuilder{int64()}, TypeError);
  EXPECT_NO_THROW(make_builder(decimal256(40, 5))->as<DecimalBuilder>());
}

}  // namespace
}  // namespace bowstring
