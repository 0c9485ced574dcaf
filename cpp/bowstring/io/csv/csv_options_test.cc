#include "bowstring/io/csv/csv_options.h"

#include <gtest/gtest.h>

#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring::io::csv {
namespace {

using bowstring::testing::error_message;

TEST(CsvOptions, ReadDefaultsAreSparks) {
  const CsvReadOptions options = parse_read_options({});
  EXPECT_FALSE(options.header);
  EXPECT_FALSE(options.infer_schema);
  EXPECT_EQ(options.separator, ',');
  EXPECT_EQ(options.quote, '"');
  EXPECT_EQ(options.escape, '\\');
  EXPECT_EQ(options.comment, '\0');
  EXPECT_EQ(options.null_value, "");
  EXPECT_EQ(options.nan_value, "NaN");
  EXPECT_EQ(options.positive_inf, "Inf");
  EXPECT_EQ(options.negative_inf, "-Inf");
  EXPECT_EQ(options.mode, ParseMode::kPermissive);
  EXPECT_EQ(options.column_name_of_corrupt_record, "_corrupt_record");
  EXPECT_TRUE(options.enforce_schema);
  EXPECT_EQ(options.max_columns, 20480);
  EXPECT_FALSE(options.multi_line);
  EXPECT_EQ(options.sampling_ratio, 1.0);
  EXPECT_EQ(options.unescaped_quote_handling, UnescapedQuoteHandling::kStopAtDelimiter);
  EXPECT_TRUE(options.line_separator.any);
  EXPECT_FALSE(options.date_format.has_value());
}

TEST(CsvOptions, KeysAreCaseInsensitive) {
  const CsvReadOptions options = parse_read_options({{"HEADER", "True"},
                                                     {"inferschema", "TRUE"},
                                                     {"Sep", "\\t"},
                                                     {"MODE", "dropMalformed"},
                                                     {"NULLVALUE", "NA"},
                                                     {"quote", ""},
                                                     {"lineSep", ";"},
                                                     {"samplingRatio", "0.5"},
                                                     {"unescapedQuoteHandling", "raise_error"},
                                                     {"dateFormat", "dd/MM/yyyy"}});
  EXPECT_TRUE(options.header);
  EXPECT_TRUE(options.infer_schema);
  EXPECT_EQ(options.separator, '\t');
  EXPECT_EQ(options.mode, ParseMode::kDropMalformed);
  EXPECT_EQ(options.null_value, "NA");
  EXPECT_EQ(options.quote, '\0');
  EXPECT_FALSE(options.line_separator.any);
  EXPECT_EQ(options.line_separator.character, ';');
  EXPECT_EQ(options.sampling_ratio, 0.5);
  EXPECT_EQ(options.unescaped_quote_handling, UnescapedQuoteHandling::kRaiseError);
  EXPECT_EQ(options.date_format, "dd/MM/yyyy");
  EXPECT_EQ(parse_read_options({{"delimiter", "|"}}).separator, '|');
}

TEST(CsvOptions, BadValuesNameTheOptionAndTheValue) {
  auto message = [](const OptionMap& options) {
    return error_message<InvalidArgument>([&] { parse_read_options(options); });
  };
  EXPECT_NE(message({{"mode", "lenient"}}).find("'mode' has the invalid value 'lenient'"),
            std::string::npos);
  EXPECT_NE(message({{"header", "yes"}}).find("'header' has the invalid value 'yes'"),
            std::string::npos);
  EXPECT_NE(message({{"encoding", "latin1"}}).find("only UTF-8"), std::string::npos);
  EXPECT_NE(message({{"charset", "UTF-16"}}).find("'charset'"), std::string::npos);
  EXPECT_NE(message({{"locale", "fr-FR"}}).find("only en-US"), std::string::npos);
  EXPECT_NE(message({{"sep", ""}}).find("cannot be empty"), std::string::npos);
  EXPECT_NE(message({{"sep", "::"}}).find("single-character"), std::string::npos);
  EXPECT_NE(message({{"quote", "ab"}}).find("'quote'"), std::string::npos);
  EXPECT_NE(message({{"maxColumns", "x"}}).find("whole number"), std::string::npos);
  EXPECT_NE(message({{"samplingRatio", "0"}}).find("(0, 1]"), std::string::npos);
  EXPECT_NE(message({{"unescapedQuoteHandling", "x"}}).find("STOP_AT_DELIMITER"),
            std::string::npos);
  EXPECT_NE(message({{"compression", "lzo"}}).find("none, gzip or zstd"), std::string::npos);
  EXPECT_NO_THROW(parse_read_options({{"encoding", "utf8"}, {"locale", "en-US"}}));
  EXPECT_NO_THROW(parse_read_options({{"unknownOption", "anything"}}));
}

TEST(CsvOptions, WriteDefaultsAreSparks) {
  const CsvWriteOptions options = parse_write_options({});
  EXPECT_FALSE(options.header);
  EXPECT_FALSE(options.quote_all);
  EXPECT_TRUE(options.escape_quotes);
  EXPECT_EQ(options.empty_value, "\"\"");
  EXPECT_TRUE(options.ignore_leading_whitespace);
  EXPECT_TRUE(options.ignore_trailing_whitespace);
  EXPECT_EQ(options.timestamp_format, "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
  EXPECT_EQ(options.compression, Compression::kNone);
  EXPECT_EQ(parse_write_options({{"compression", "GZIP"}}).compression, Compression::kGzip);
  EXPECT_EQ(parse_write_options({{"codec", "zstd"}}).compression, Compression::kZstd);
  EXPECT_EQ(parse_write_options({{"lineSep", "\r\n"}}).line_separator, "\r\n");
}

}  // namespace
}  // namespace bowstring::io::csv
