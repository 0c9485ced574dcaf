#include "bowstring/types/spark_type_names.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "bowstring/util/spark_error.h"

namespace bowstring {
namespace {

TypePtr parse(std::string_view text) { return parse_spark_type(text, "UTC"); }

void expect_type(std::string_view text, const TypePtr& expected) {
  const TypePtr parsed = parse(text);
  EXPECT_TRUE(parsed->equals(*expected))
      << "'" << text << "' gave " << parsed->to_string() << ", not " << expected->to_string();
}

/// The ParseError that parsing `text` as a type (or as a schema) throws.
ParseError parse_error(std::string_view text, bool schema = false) {
  try {
    if (schema) {
      parse_spark_schema(text, "UTC");
    } else {
      parse(text);
    }
  } catch (const ParseError& error) {
    return error;
  }
  ADD_FAILURE() << "'" << text << "' parsed";
  return ParseError("NONE", "");
}

TEST(SparkTypeNamesTest, EveryPrimitiveNameAndAlias) {
  const std::vector<std::pair<std::string_view, TypePtr>> cases{
      {"boolean", boolean()},
      {"tinyint", int8()},
      {"byte", int8()},
      {"smallint", int16()},
      {"short", int16()},
      {"int", int32()},
      {"integer", int32()},
      {"bigint", int64()},
      {"long", int64()},
      {"float", float32()},
      {"real", float32()},
      {"double", float64()},
      {"string", utf8()},
      {"char(3)", utf8()},
      {"varchar(20)", utf8()},
      {"binary", binary()},
      {"date", date32()},
      {"timestamp", timestamp(TimeUnit::kMicro, "UTC")},
      {"timestamp_ltz", timestamp(TimeUnit::kMicro, "UTC")},
      {"timestamp_ntz", timestamp(TimeUnit::kMicro)},
      {"void", null()},
      {"null", null()},
      {"decimal", decimal128(10, 0)},
      {"dec(5)", decimal128(5, 0)},
      {"numeric(7,7)", decimal128(7, 7)},
      {"decimal(38, 0)", decimal128(38, 0)},
      {"decimal(10,2)", decimal128(10, 2)},
      {"interval", month_day_nano_interval()},
      {"interval year", month_interval()},
      {"interval month", month_interval()},
      {"interval year to month", month_interval()},
      {"interval day", duration(TimeUnit::kMicro)},
      {"interval day to second", duration(TimeUnit::kMicro)},
      {"interval hour to minute", duration(TimeUnit::kMicro)},
      {"interval minute to second", duration(TimeUnit::kMicro)},
      {"interval second", duration(TimeUnit::kMicro)},
  };
  for (const auto& [text, expected] : cases) {
    expect_type(text, expected);
  }
}

TEST(SparkTypeNamesTest, KeywordsIgnoreCaseAndWhitespace) {
  expect_type(" BIGINT ", int64());
  expect_type("Array<Long>", list(int64()));
  expect_type("\tMAP <\n STRING ,INT > ", map(utf8(), int32()));
  expect_type("DECIMAL ( 12 , 3 )", decimal128(12, 3));
  expect_type("Interval Day To Second", duration(TimeUnit::kMicro));
  expect_type("TIMESTAMP_NTZ", timestamp(TimeUnit::kMicro));
}

TEST(SparkTypeNamesTest, TimestampIsInTheSessionTimeZone) {
  EXPECT_TRUE(parse_spark_type("timestamp", "America/New_York")
                  ->equals(*timestamp(TimeUnit::kMicro, "America/New_York")));
  EXPECT_TRUE(parse_spark_type("array<timestamp_ltz>", "+02:00")
                  ->equals(*list(timestamp(TimeUnit::kMicro, "+02:00"))));
  EXPECT_TRUE(
      parse_spark_type("timestamp_ntz", "Asia/Tokyo")->equals(*timestamp(TimeUnit::kMicro)));
  EXPECT_THROW(parse_spark_type("int", ""), InvalidArgument);
}

TEST(SparkTypeNamesTest, Nesting) {
  expect_type("array<array<int>>", list(list(int32())));
  expect_type("map<string,array<map<int,string>>>", map(utf8(), list(map(int32(), utf8()))));
  expect_type("struct<>", struct_({}));
  expect_type("struct<x:int,y:string>", struct_({field("x", int32()), field("y", utf8())}));
  expect_type("struct<x int, y string>", struct_({field("x", int32()), field("y", utf8())}));
  expect_type("struct<a: array<struct<b: map<int, decimal(5,2)>>>>",
              struct_({field("a", list(struct_({field("b", map(int32(), decimal128(5, 2)))})))}));
  const TypePtr with_options =
      parse("struct<a: int NOT NULL COMMENT 'the key', b string comment \"it\\'s\">");
  ASSERT_EQ(with_options->num_fields(), 2);
  EXPECT_FALSE(with_options->field(0)->nullable());
  EXPECT_EQ(with_options->field(0)->metadata(), (Metadata{{"comment", "the key"}}));
  EXPECT_TRUE(with_options->field(1)->nullable());
  EXPECT_EQ(with_options->field(1)->metadata(), (Metadata{{"comment", "it's"}}));
}

TEST(SparkTypeNamesTest, QuotedNamesKeepTheirCase) {
  const TypePtr type = parse("struct<Id: int, `my col`: string, `a``b` int, `int` int, `` int>");
  std::vector<std::string> names;
  for (const FieldPtr& child : type->fields()) {
    names.push_back(child->name());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"Id", "my col", "a`b", "int", ""}));
}

TEST(SparkTypeNamesTest, Schemas) {
  const FieldVector fields = parse_spark_schema(
      "a int, b string not null, c array<struct<x:int>>, `d e`: timestamp COMMENT 'when'",
      "Europe/Paris");
  ASSERT_EQ(fields.size(), 4u);
  EXPECT_TRUE(fields[0]->equals(*field("a", int32())));
  EXPECT_TRUE(fields[1]->equals(*field("b", utf8(), false)));
  EXPECT_TRUE(fields[2]->equals(*field("c", list(struct_({field("x", int32())})))));
  EXPECT_TRUE(fields[3]->equals(
      *field("d e", timestamp(TimeUnit::kMicro, "Europe/Paris"), true, {{"comment", "when"}}),
      true));
  EXPECT_EQ(parse_spark_schema("int int", "UTC")[0]->name(), "int");
  EXPECT_EQ(parse_spark_schema("k long", "UTC").size(), 1u);
}

TEST(SparkTypeNamesTest, SyntaxErrorsNameThePositionAndTheToken) {
  const ParseError missing_comma = parse_error("a int b", true);
  EXPECT_EQ(missing_comma.condition(), "PARSE_SYNTAX_ERROR");
  EXPECT_STREQ(missing_comma.what(),
               "[PARSE_SYNTAX_ERROR] Syntax error at or near 'b': expected ',' or the end of the "
               "schema. (line 1, pos 6)\n\n== SQL ==\na int b\n------^^^");
  EXPECT_STREQ(parse_error("int x").what(),
               "[PARSE_SYNTAX_ERROR] Syntax error at or near 'x': expected the end of the data "
               "type. (line 1, pos 4)\n\n== SQL ==\nint x\n----^^^");
  EXPECT_STREQ(parse_error("array<int").what(),
               "[PARSE_SYNTAX_ERROR] Syntax error at or near end of input: expected '>' to close "
               "ARRAY<. (line 1, pos 9)\n\n== SQL ==\narray<int\n---------^^^");
  // A position on a later line counts from that line's start; the lines after it follow.
  EXPECT_STREQ(parse_error("a int,\nb map<int>,\nc int", true).what(),
               "[PARSE_SYNTAX_ERROR] Syntax error at or near '>': expected ',' between the key "
               "and value types of MAP. (line 2, pos 9)\n\n== SQL ==\na int,\nb map<int>,\n"
               "---------^^^\nc int");
}

TEST(SparkTypeNamesTest, MoreSyntaxErrors) {
  const auto message = [](std::string_view text, bool schema = true) {
    return std::string(parse_error(text, schema).what());
  };
  EXPECT_NE(message("").find("at or near end of input: expected a column definition"),
            std::string::npos);
  EXPECT_NE(message("a").find("expected a data type for column 'a'. (line 1, pos 1)"),
            std::string::npos);
  EXPECT_NE(message("a, b int").find("near ',': expected a data type for column 'a'"),
            std::string::npos);
  EXPECT_NE(message("a struct<x int,>").find("near '>': expected a field name. (line 1, pos 15)"),
            std::string::npos);
  EXPECT_NE(message("a array, b int").find("near ',': expected '<' after ARRAY"),
            std::string::npos);
  EXPECT_NE(message("a decimal(x)").find("near 'x': expected a precision"), std::string::npos);
  EXPECT_NE(message("a `b int").find("near '`': unterminated quoted name. (line 1, pos 2)"),
            std::string::npos);
  EXPECT_NE(message("a int comment 'x").find("unterminated string literal"), std::string::npos);
  EXPECT_NE(message("a int;").find("near ';': unexpected character. (line 1, pos 5)"),
            std::string::npos);
  EXPECT_NE(message("a int not").find("near end of input: expected NULL after NOT"),
            std::string::npos);
  EXPECT_NE(message("a int comment 5").find("near '5': expected a quoted string after COMMENT"),
            std::string::npos);
  EXPECT_NE(message("interval day to", false).find("expected YEAR, MONTH, DAY, HOUR"),
            std::string::npos);
  EXPECT_NE(message("café int, b strin").find("(line 1, pos 12)"), std::string::npos)
      << "positions count characters, not bytes";
}

TEST(SparkTypeNamesTest, UnsupportedTypesAndLimits) {
  const ParseError unknown = parse_error("a int, b strin", true);
  EXPECT_EQ(unknown.condition(), "UNSUPPORTED_DATATYPE");
  EXPECT_STREQ(unknown.what(),
               "[UNSUPPORTED_DATATYPE] Unsupported data type \"STRIN\". (line 1, pos 9)\n\n== SQL "
               "==\na int, b strin\n---------^^^");
  EXPECT_EQ(std::string(parse_error("int(3)").what())
                .rfind("[UNSUPPORTED_DATATYPE] Unsupported "
                       "data type \"INT(3)\".",
                       0),
            0u);
  EXPECT_NE(std::string(parse_error("variant").what()).find("no Arrow type"), std::string::npos);

  const ParseError precision = parse_error("decimal(40,2)");
  EXPECT_EQ(precision.condition(), "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION");
  EXPECT_EQ(std::string(precision.what())
                .rfind("[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision 40 exceeds "
                       "max precision 38. (line 1, pos 8)",
                       0),
            0u);
  const ParseError scale = parse_error("decimal(5, 6)");
  EXPECT_EQ(std::string(scale.what())
                .rfind("[_LEGACY_ERROR_TEMP_1228] Decimal scale (6) cannot be greater than "
                       "precision (5). (line 1, pos 11)",
                       0),
            0u);
  EXPECT_EQ(parse_error("decimal(0)").condition(), "UNSUPPORTED_DATATYPE");
  EXPECT_EQ(parse_error("decimal(99999999999999999999)").condition(),
            "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION");
  EXPECT_EQ(parse_error("interval month to year").condition(), "_LEGACY_ERROR_TEMP_0028");
  EXPECT_EQ(parse_error("interval year to second").condition(), "_LEGACY_ERROR_TEMP_0028");
}

TEST(SparkTypeNamesTest, PrintsSparkNames) {
  EXPECT_EQ(spark_simple_string(*int64()), "bigint");
  EXPECT_EQ(spark_simple_string(*list(int32())), "array<int>");
  EXPECT_EQ(spark_simple_string(*struct_({field("a", int32()), field("b", utf8())})),
            "struct<a:int,b:string>");
  EXPECT_EQ(spark_simple_string(*decimal128(10, 2)), "decimal(10,2)");
  EXPECT_EQ(spark_simple_string(*map(utf8(), int32())), "map<string,int>");
  EXPECT_EQ(spark_simple_string(*timestamp(TimeUnit::kMicro, "Asia/Tokyo")), "timestamp");
  EXPECT_EQ(spark_simple_string(*null()), "void");
  EXPECT_EQ(spark_simple_string(*duration(TimeUnit::kMicro)), "interval day to second");
  EXPECT_EQ(spark_simple_string(*large_utf8()), "string");

  EXPECT_EQ(spark_type_name(*int32()), "INT");
  EXPECT_EQ(spark_type_name(*decimal128(10, 2)), "DECIMAL(10,2)");
  EXPECT_EQ(spark_type_name(*timestamp(TimeUnit::kMicro, "UTC")), "TIMESTAMP");
  EXPECT_EQ(spark_type_name(*timestamp(TimeUnit::kMicro)), "TIMESTAMP_NTZ");
  EXPECT_EQ(spark_type_name(*list(utf8())), "ARRAY<STRING>");
  EXPECT_EQ(spark_type_name(*map(utf8(), int32())), "MAP<STRING, INT>");
  EXPECT_EQ(spark_type_name(*struct_({field("a", int64()), field("b c", utf8())})),
            "STRUCT<a: BIGINT, `b c`: STRING>");
  EXPECT_EQ(spark_type_name(*uint32()), "uint32") << "Arrow's name for a type Spark lacks";

  EXPECT_EQ(spark_schema_ddl(
                {field("a", int32(), false, {{"comment", "it's"}}), field("b", list(utf8()))}),
            "a INT NOT NULL COMMENT 'it\\'s',b ARRAY<STRING>");
}

TEST(SparkTypeNamesTest, PrintedNamesParseBack) {
  const std::vector<TypePtr> types{
      boolean(),
      int8(),
      int16(),
      int32(),
      int64(),
      float32(),
      float64(),
      decimal128(38, 38),
      utf8(),
      binary(),
      date32(),
      timestamp(TimeUnit::kMicro, "UTC"),
      timestamp(TimeUnit::kMicro),
      null(),
      month_interval(),
      duration(TimeUnit::kMicro),
      month_day_nano_interval(),
      list(map(utf8(), list(int32()))),
      struct_({}),
      struct_({field("a b", int32()), field("`", utf8()), field("1", list(int8())),
               field("x", struct_({field("y", date32())}))}),
  };
  for (const TypePtr& type : types) {
    for (const std::string& printed : {spark_simple_string(*type), spark_type_name(*type)}) {
      EXPECT_TRUE(parse(printed)->equals(*type)) << printed << " vs " << type->to_string();
    }
  }
  const FieldVector columns{
      field("id", int64(), false, {{"comment", "the 'key' \\ here"}}),
      field("my col", struct_({field("k", utf8())})),
      field("t", timestamp(TimeUnit::kMicro, "UTC")),
  };
  const FieldVector parsed = parse_spark_schema(spark_schema_ddl(columns), "UTC");
  ASSERT_EQ(parsed.size(), columns.size());
  for (size_t i = 0; i < columns.size(); ++i) {
    EXPECT_TRUE(parsed[i]->equals(*columns[i], true)) << spark_schema_ddl(columns);
  }
}

}  // namespace
}  // namespace bowstring
