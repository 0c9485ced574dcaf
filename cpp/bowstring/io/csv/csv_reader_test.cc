#include "bowstring/io/csv/csv_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "bowstring/array/array.h"
#include "bowstring/io/csv/csv_test_util.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::io::csv {
namespace {

using bowstring::testing::booleans;
using bowstring::testing::doubles;
using bowstring::testing::error_message;
using bowstring::testing::int32s;
using bowstring::testing::int64s;
using bowstring::testing::strings;
using testing::read_text;

SchemaPtr ddl(const char* text) {
  return std::make_shared<const Schema>(parse_spark_schema(text, "UTC"));
}

void expect_column(const Array& actual, const Array& expected) {
  EXPECT_TRUE(actual.equals(expected)) << actual.to_string() << " != " << expected.to_string();
}

TEST(CsvReader, ReadsStringsWithoutHeader) {
  const auto result = read_text("a,b\nc,d\n", {});
  ASSERT_EQ(result.schema->field_names(), (std::vector<std::string>{"_c0", "_c1"}));
  expect_column(result.columns[0], strings({"a", "c"}));
  expect_column(result.columns[1], strings({"b", "d"}));
}

TEST(CsvReader, HeaderNamesAreMadeSafeAsSparkDoes) {
  const auto result =
      read_text("a,,A,b,NA\n1,2,3,4,5\n", {{"header", "true"}, {"nullValue", "NA"}});
  EXPECT_EQ(result.schema->field_names(),
            (std::vector<std::string>{"a0", "_c1", "A2", "b", "_c4"}));
  EXPECT_EQ(result.rows, 1);
}

TEST(CsvReader, QuotesEscapesAndLineEndings) {
  const auto result =
      read_text("\"x,y\",\"say \\\"hi\\\"\"\r\n\"\",plain\rlast,\"\"\"doubled\"", {});
  expect_column(result.columns[0], strings({"x,y", std::nullopt, "last"}));
  // With the default escape (backslash), a doubled quote is an unescaped quote.
  expect_column(result.columns[1], strings({"say \"hi\"", "plain", "\"\"doubled\""}));
  const auto doubled = read_text("\"a\"\"b\"\n", {{"escape", "\""}});
  expect_column(doubled.columns[0], strings({"a\"b"}));
}

TEST(CsvReader, NullAndEmptyValues) {
  // Unquoted empty fields are null; quoted empty ones are `emptyValue`, then compared with
  // `nullValue` (both "" by default, so null too, as in Spark).
  const auto defaults = read_text("a,,\"\"\n", {});
  expect_column(defaults.columns[1], strings({std::nullopt}));
  expect_column(defaults.columns[2], strings({std::nullopt}));
  const auto custom = read_text("NA,,\"\"\n", {{"nullValue", "NA"}, {"emptyValue", "EMPTY"}});
  expect_column(custom.columns[0], strings({std::nullopt}));
  expect_column(custom.columns[1], strings({std::nullopt}));
  expect_column(custom.columns[2], strings({"EMPTY"}));
}

TEST(CsvReader, SkipsEmptyAndCommentLines) {
  const auto result = read_text("\n#note\na\n\n#x,y\nb\n", {{"comment", "#"}});
  expect_column(result.columns[0], strings({"a", "b"}));
}

TEST(CsvReader, WhitespaceOptions) {
  const auto kept = read_text(" a , b \n", {});
  expect_column(kept.columns[0], strings({" a "}));
  const auto trimmed = read_text(
      " a , b \n", {{"ignoreLeadingWhiteSpace", "true"}, {"ignoreTrailingWhiteSpace", "true"}});
  expect_column(trimmed.columns[0], strings({"a"}));
  expect_column(trimmed.columns[1], strings({"b"}));
}

TEST(CsvReader, MultiLineKeepsQuotedLineBreaks) {
  const std::string text = "1,\"two\nlines\"\n2,x\n";
  const auto multi = read_text(text, {{"multiLine", "true"}});
  expect_column(multi.columns[1], strings({"two\nlines", "x"}));
  // Without multiLine records are lines, as Spark reads them.
  const auto lines = read_text(text, {});
  EXPECT_EQ(lines.rows, 3);
}

TEST(CsvReader, TypedColumnsFromASchema) {
  const auto result = read_text(
      "1,10000000000,1.5,true,12.345,2024-01-31,2024-01-31 12:30:00,x\n"
      "-2,-1,NaN,FALSE,-0.5,2024-02-01,2024-02-01T00:00:00Z,y\n",
      {},
      ddl("i INT, l BIGINT, d DOUBLE, b BOOLEAN, m DECIMAL(5,2), dt DATE, ts TIMESTAMP, s "
          "STRING"));
  expect_column(result.columns[0], int32s({1, -2}));
  expect_column(result.columns[1], int64s({10000000000LL, -1}));
  const DoubleArray d = result.columns[2].as<DoubleArray>();
  EXPECT_EQ(d.value(0), 1.5);
  EXPECT_TRUE(std::isnan(d.value(1)));
  expect_column(result.columns[3], booleans({true, false}));
  EXPECT_EQ(result.columns[4].as<DecimalArray>().format_value(0), "12.35");
  EXPECT_EQ(result.columns[5].as<Date32Array>().value(0), 19753);
  EXPECT_EQ(result.columns[6].as<TimestampArray>().value(0), 1706704200000000LL);
  EXPECT_EQ(result.columns[6].as<TimestampArray>().value(1), 1706745600000000LL);
}

TEST(CsvReader, DateAndTimestampFormats) {
  const auto result =
      read_text("31/01/2024,31/01/2024 10:00\n",
                {{"dateFormat", "dd/MM/yyyy"}, {"timestampFormat", "dd/MM/yyyy HH:mm"}},
                ddl("d DATE, t TIMESTAMP"));
  EXPECT_EQ(result.columns[0].as<Date32Array>().value(0), 19753);
  EXPECT_EQ(result.columns[1].as<TimestampArray>().value(0), 1706695200000000LL);
}

TEST(CsvReader, InfinitiesAndNanValues) {
  const auto result = read_text("Inf\n-Inf\nnope\n", {{"nanValue", "nope"}}, ddl("d DOUBLE"));
  const DoubleArray d = result.columns[0].as<DoubleArray>();
  EXPECT_EQ(d.value(0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(d.value(1), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(d.value(2)));
}

TEST(CsvReader, InfersSparksTypes) {
  const auto result = read_text(
      "i,l,dec,d,date,ts,b,s,n,mixed\n"
      "1,3000000000,12345678901234567890,1.5,2024-01-01,2024-01-01 10:00:00,true,x,,1\n"
      "2,4,1,2,2024-01-02,2024-01-02T10:00:00,false,y,,true\n",
      {{"header", "true"}, {"inferSchema", "true"}});
  std::vector<std::string> types;
  for (const FieldPtr& field : result.schema->fields()) {
    types.push_back(spark_simple_string(*field->type()));
  }
  EXPECT_EQ(types,
            (std::vector<std::string>{"int", "bigint", "decimal(20,0)", "double", "date",
                                      "timestamp", "boolean", "string", "string", "string"}));
  expect_column(result.columns[0], int32s({1, 2}));
}

TEST(CsvReader, InferenceWidensAsSpark) {
  auto type_of = [](const std::string& text) {
    const auto result = read_text(text, {{"inferSchema", "true"}});
    return spark_simple_string(*result.schema->field(0)->type());
  };
  EXPECT_EQ(type_of("1\n2.5\n"), "double");
  EXPECT_EQ(type_of("1\n3000000000\n"), "bigint");
  EXPECT_EQ(type_of("1\n12345678901234567890\n"), "decimal(20,0)");
  EXPECT_EQ(type_of("1.5\n12345678901234567890\n"), "double");
  EXPECT_EQ(type_of("2024-01-01\n2024-01-01 10:00:00\n"), "string");
  EXPECT_EQ(type_of("true\n1\n"), "string");
  EXPECT_EQ(type_of("NaN\nInf\n"), "double");
  EXPECT_EQ(type_of(",x\n"), "string");  // a column of nulls only
}

TEST(CsvReader, PermissiveModeNullsBadFieldsAndKeepsTheRecord) {
  const auto result =
      read_text("1,a\nx,b\n3\n4,d,extra\n", {}, ddl("n INT, s STRING, _corrupt_record STRING"));
  // The columns after a bad field are null too, as in Spark.
  expect_column(result.columns[0], int32s({1, std::nullopt, 3, 4}));
  expect_column(result.columns[1], strings({"a", std::nullopt, std::nullopt, "d"}));
  expect_column(result.columns[2], strings({std::nullopt, "x,b", "3", "4,d,extra"}));
}

TEST(CsvReader, DropMalformedModeDropsBadRecords) {
  const auto result =
      read_text("1,a\nx,b\n3\n4,d\n", {{"mode", "DROPMALFORMED"}}, ddl("n INT, s STRING"));
  expect_column(result.columns[0], int32s({1, 4}));
  expect_column(result.columns[1], strings({"a", "d"}));
}

TEST(CsvReader, FailFastNamesFileLineAndColumn) {
  const std::string message = error_message<FormatError>([] {
    read_text("h1,h2\n1,a\n\n2,b\n3,c,4\n", {{"mode", "FAILFAST"}, {"header", "true"}},
              ddl("n INT, s STRING"));
  });
  EXPECT_NE(message.find("MALFORMED_RECORD_IN_PARSING"), std::string::npos) << message;
  EXPECT_NE(message.find("'test.csv' at line 5"), std::string::npos) << message;
  EXPECT_NE(message.find("expected 2 fields, found 3"), std::string::npos) << message;
  const std::string bad_value = error_message<FormatError>([] {
    read_text("1,a\n99999999999,b\n", {{"mode", "failfast"}}, ddl("n INT, s STRING"));
  });
  EXPECT_NE(bad_value.find("line 2: column 1 ('n'): cannot read '99999999999' as INT"),
            std::string::npos)
      << bad_value;
}

TEST(CsvReader, ProjectionConvertsOnlyTheColumnsAskedFor) {
  const auto result = read_text("1,notanumber,z\n2,also bad,w\n", {{"mode", "FAILFAST"}},
                                ddl("a INT, b INT, c STRING"), std::vector<int>{2, 0});
  EXPECT_EQ(result.schema->field_names(), (std::vector<std::string>{"c", "a"}));
  expect_column(result.columns[0], strings({"z", "w"}));
  expect_column(result.columns[1], int32s({1, 2}));
  EXPECT_THROW(read_text("1\n", {}, ddl("a INT"), std::vector<int>{3}), IndexError);
}

TEST(CsvReader, UnescapedQuoteHandling) {
  const std::string text = "\"a\"b,c\n";
  auto first = [&](const char* handling) {
    const auto result = read_text(text, {{"unescapedQuoteHandling", handling}});
    return result.columns[0].as<StringArray>().is_null(0)
               ? std::string("null")
               : std::string(result.columns[0].as<StringArray>().value(0));
  };
  EXPECT_EQ(first("STOP_AT_DELIMITER"), "a\"b");
  EXPECT_EQ(first("BACK_TO_DELIMITER"), "\"a\"b");
  EXPECT_EQ(first("SKIP_VALUE"), "null");
  const auto raised = read_text(text, {{"unescapedQuoteHandling", "RAISE_ERROR"}},
                                ddl("a STRING, b STRING, _corrupt_record STRING"));
  expect_column(raised.columns[2], strings({"\"a\"b,c"}));
}

TEST(CsvReader, UnclosedQuoteAndTruncatedText) {
  const auto multi = read_text("1,\"never closed\n2,x", {{"multiLine", "true"}});
  EXPECT_EQ(multi.rows, 1);
  expect_column(multi.columns[1], strings({"never closed\n2,x"}));
  const auto lines = read_text("1,\"never closed\n2,x", {});
  expect_column(lines.columns[1], strings({"never closed", "x"}));
}

TEST(CsvReader, LongValuesAndLoneCarriageReturnsInQuotes) {
  // Values longer than one 16-byte scan step, with the byte that ends them at every offset.
  std::string text;
  std::vector<std::optional<std::string>> expected;
  for (int length = 0; length < 40; ++length) {
    const std::string value(static_cast<size_t>(length), 'v');
    text += value + ",\"" + value + "\"\n";
    expected.push_back(length == 0 ? std::nullopt : std::optional<std::string>(value));
  }
  const auto result = read_text(text, {});
  expect_column(result.columns[0], strings(expected));
  expect_column(result.columns[1], strings(expected));
  // Without multiLine a lone '\r' ends the record inside a quoted value too.
  const auto lines = read_text("\"abcdefghijklmnopqrstu\rvwxyz\",x\r", {});
  expect_column(lines.columns[0], strings({"abcdefghijklmnopqrstu", "vwxyz\""}));
}

TEST(CsvReader, LineSeparatorAndSeparatorOptions) {
  const auto result = read_text("a;b|c;d|", {{"sep", ";"}, {"lineSep", "|"}});
  expect_column(result.columns[0], strings({"a", "c"}));
  expect_column(result.columns[1], strings({"b", "d"}));
}

TEST(CsvReader, EnforceSchemaFalseChecksTheHeader) {
  EXPECT_NO_THROW(read_text("A,b\n1,2\n", {{"header", "true"}, {"enforceSchema", "false"}},
                            ddl("a INT, b INT")));
  const std::string message = error_message<InvalidArgument>([] {
    read_text("x,b\n1,2\n", {{"header", "true"}, {"enforceSchema", "false"}}, ddl("a INT, b INT"));
  });
  EXPECT_NE(message.find("CSV header does not conform to the schema"), std::string::npos);
}

TEST(CsvReader, UnsupportedColumnTypeIsAClearError) {
  const std::string message =
      error_message<NotImplemented>([] { read_text("x\n", {}, ddl("b BINARY")); });
  EXPECT_NE(message.find("column 'b' of type BINARY"), std::string::npos) << message;
}

TEST(CsvReader, ManyRangesGiveRowsInFileOrder) {
  // Over 1 MiB: several ranges, parsed in parallel, must come back in order with the right
  // line numbers.
  std::string text;
  const int rows = 120000;
  for (int i = 0; i < rows; ++i) {
    text += std::to_string(i) + ",\"value " + std::to_string(i) + "\"\n";
  }
  text += "bad,x\n";
  const auto result = read_text(text, {{"batchRows", "5000"}}, ddl("n INT, s STRING"));
  ASSERT_EQ(result.rows, rows + 1);
  EXPECT_GT(result.batches, rows / 5000);
  const Int32Array n = result.columns[0].as<Int32Array>();
  for (int i = 0; i < rows; ++i) {
    ASSERT_EQ(n.value(i), i);
  }
  const std::string message = error_message<FormatError>([&] {
    read_text(text, {{"mode", "FAILFAST"}}, ddl("n INT, s STRING"));
  });
  EXPECT_NE(message.find("at line " + std::to_string(rows + 1) + ":"), std::string::npos)
      << message;
}

TEST(CsvReader, MaxColumnsMakesARecordMalformed) {
  const auto result =
      read_text("a,b,c\n", {{"maxColumns", "2"}}, ddl("x STRING, _corrupt_record STRING"));
  expect_column(result.columns[1], strings({"a,b,c"}));
}

TEST(CsvReader, EmptyTextHasAnEmptySchema) {
  const auto result = read_text("", {{"header", "true"}, {"inferSchema", "true"}});
  EXPECT_EQ(result.schema->num_fields(), 0);
  EXPECT_EQ(result.rows, 0);
}

}  // namespace
}  // namespace bowstring::io::csv
