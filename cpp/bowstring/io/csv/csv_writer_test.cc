#include "bowstring/io/csv/csv_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "bowstring/array/builder_decimal.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/io/csv/csv_reader.h"
#include "bowstring/io/csv/csv_test_util.h"
#include "bowstring/io/file_bytes.h"
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

std::string write_text(const RecordBatch& batch, const OptionMap& options) {
  auto sink = std::make_shared<BufferOutputStream>();
  CsvWriter writer(sink, batch.schema(), parse_write_options(options));
  writer.write(batch);
  writer.close();
  const std::shared_ptr<Buffer> bytes = sink->finish();
  return std::string(reinterpret_cast<const char*>(bytes->data()),
                     static_cast<size_t>(bytes->size()));
}

RecordBatch batch_of(std::vector<std::string> names, std::vector<Array> columns) {
  FieldVector fields;
  for (size_t i = 0; i < names.size(); ++i) {
    fields.push_back(field(names[i], columns[i].type()));
  }
  return RecordBatch(std::make_shared<const Schema>(std::move(fields)), std::move(columns));
}

// A temporary file path removed at the end of the test.
class TempPath {
 public:
  explicit TempPath(const std::string& suffix)
      : path_(::testing::TempDir() + "csv_writer_" + std::to_string(::getpid()) + suffix) {}
  ~TempPath() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(CsvWriter, FormatsValuesAsSpark) {
  Date32Builder dates;
  dates.append(19753);
  dates.append_null();
  TimestampBuilder timestamps(timestamp(TimeUnit::kMicro, "UTC"));
  timestamps.append(1706704200123000LL);
  timestamps.append(0);
  DecimalBuilder decimals(decimal128(10, 2));
  decimals.append_unscaled(-1230);
  decimals.append_unscaled(5);
  const RecordBatch batch =
      batch_of({"i", "d", "b", "s", "dt", "ts", "m"},
               {int32s({1, std::nullopt}), doubles({1e10, 0.1}), booleans({true, false}),
                strings({"plain", ""}), dates.finish(), timestamps.finish(), decimals.finish()});
  EXPECT_EQ(write_text(batch, {{"header", "true"}}),
            "i,d,b,s,dt,ts,m\n"
            "1,1.0E10,true,plain,2024-01-31,2024-01-31T12:30:00.123Z,-12.30\n"
            ",0.1,false,\"\",,1970-01-01T00:00:00.000Z,0.05\n");
}

TEST(CsvWriter, QuotesAndEscapes) {
  const RecordBatch batch =
      batch_of({"s"}, {strings({"a,b", "say \"hi\"", "two\nlines", "  padded  ", std::nullopt})});
  EXPECT_EQ(write_text(batch, {}), "\"a,b\"\n\"say \\\"hi\\\"\"\n\"two\nlines\"\npadded\n\n");
  EXPECT_EQ(write_text(batch, {{"quoteAll", "true"},
                               {"nullValue", "NULL"},
                               {"ignoreLeadingWhiteSpace", "false"},
                               {"ignoreTrailingWhiteSpace", "false"}}),
            "\"a,b\"\n\"say \\\"hi\\\"\"\n\"two\nlines\"\n\"  padded  \"\nNULL\n");
  EXPECT_EQ(write_text(batch_of({"s"}, {strings({"say \"hi\""})}), {{"escapeQuotes", "false"}}),
            "say \"hi\"\n");
  EXPECT_EQ(write_text(batch_of({"s"}, {strings({"x\"y"})}), {{"escape", "\""}}), "\"x\"\"y\"\n");
}

TEST(CsvWriter, SeparatorLineSeparatorAndFormats) {
  Date32Builder dates;
  dates.append(19753);
  const RecordBatch batch = batch_of({"a", "d"}, {int64s({7}), dates.finish()});
  EXPECT_EQ(
      write_text(
          batch,
          {{"sep", ";"}, {"lineSep", "\r\n"}, {"dateFormat", "dd/MM/yyyy"}, {"header", "true"}}),
      "a;d\r\n7;31/01/2024\r\n");
}

TEST(CsvWriter, NumbersHoldingTheSeparatorAreQuoted) {
  const RecordBatch batch = batch_of({"d", "n"}, {doubles({1.5}), int32s({-3})});
  EXPECT_EQ(write_text(batch, {{"sep", "."}}), "\"1.5\".-3\n");
  EXPECT_EQ(write_text(batch, {{"sep", "-"}}), "1.5-\"-3\"\n");
  EXPECT_EQ(write_text(batch, {{"quoteAll", "true"}}), "\"1.5\",\"-3\"\n");
}

TEST(CsvWriter, HeaderIsWrittenForNoRows) {
  auto sink = std::make_shared<BufferOutputStream>();
  const RecordBatch batch = batch_of({"a", "b"}, {int32s({}), strings({})});
  CsvWriter writer(sink, batch.schema(), parse_write_options({{"header", "true"}}));
  writer.close();
  const std::shared_ptr<Buffer> bytes = sink->finish();
  EXPECT_EQ(
      std::string(reinterpret_cast<const char*>(bytes->data()), static_cast<size_t>(bytes->size())),
      "a,b\n");
}

TEST(CsvWriter, RejectsBinaryColumns) {
  const FieldVector fields{field("bytes", binary())};
  const std::string message = error_message<NotImplemented>([&] {
    CsvWriter(std::make_shared<BufferOutputStream>(), std::make_shared<const Schema>(fields),
              CsvWriteOptions{});
  });
  EXPECT_NE(message.find("column 'bytes' of type BINARY"), std::string::npos) << message;
}

class BatchList final : public RecordBatchReader {
 public:
  explicit BatchList(std::vector<RecordBatch> batches) : batches_(std::move(batches)) {}
  SchemaPtr schema() const override { return batches_.front().schema(); }
  std::optional<RecordBatch> next() override {
    if (next_ == batches_.size()) {
      return std::nullopt;
    }
    return batches_[next_++];
  }

 private:
  std::vector<RecordBatch> batches_;
  size_t next_ = 0;
};

TEST(CsvWriter, CompressedFilesReadBack) {
  for (const char* codec : {"gzip", "zstd", "none"}) {
    const std::string suffix = std::string(codec) == "gzip"   ? ".csv.gz"
                               : std::string(codec) == "zstd" ? ".csv.zst"
                                                              : ".csv";
    TempPath file(suffix);
    std::vector<RecordBatch> batches;
    for (int b = 0; b < 3; ++b) {
      std::vector<std::optional<int64_t>> values;
      for (int i = 0; i < 50000; ++i) {
        values.push_back(b * 50000 + i);
      }
      batches.push_back(batch_of({"n"}, {int64s(values)}));
    }
    BatchList list(batches);
    write_csv(list, file.path(), parse_write_options({{"compression", codec}, {"header", "true"}}));
    CsvReadRequest request;
    request.paths = {file.path()};
    request.options = parse_read_options({{"header", "true"}, {"inferSchema", "true"}});
    const std::unique_ptr<RecordBatchReader> reader = read_csv(request);
    EXPECT_EQ(spark_simple_string(*reader->schema()->field(0)->type()), "int") << codec;
    int64_t expected = 0;
    while (const std::optional<RecordBatch> batch = reader->next()) {
      const Int32Array n = batch->column(0).as<Int32Array>();
      for (int64_t i = 0; i < n.length(); ++i) {
        ASSERT_EQ(n.value(i), expected++) << codec;
      }
    }
    EXPECT_EQ(expected, 150000) << codec;
  }
}

TEST(CsvWriter, TruncatedCompressedFilesNameTheFile) {
  TempPath file(".csv.gz");
  BatchList list({batch_of({"n"}, {int64s({1, 2, 3})})});
  write_csv(list, file.path(), parse_write_options({{"compression", "gzip"}}));
  const FileBytes whole = read_file_bytes(file.path());
  const std::string compressed = [&] {
    FILE* f = std::fopen(file.path().c_str(), "rb");
    std::string bytes(1024, '\0');
    bytes.resize(std::fread(bytes.data(), 1, bytes.size(), f));
    std::fclose(f);
    return bytes;
  }();
  const std::string message = error_message<IoError>([&] {
    decompress(std::string_view(compressed).substr(0, compressed.size() - 6), false, file.path());
  });
  EXPECT_NE(message.find(file.path()), std::string::npos) << message;
  EXPECT_NE(message.find("truncated"), std::string::npos) << message;
  EXPECT_EQ(whole.bytes, "1\n2\n3\n");
  EXPECT_THROW(decompress("not zstd at all", true, "x.zst"), IoError);
}

TEST(CsvWriter, RoundTripsThroughTheReader) {
  const RecordBatch batch =
      batch_of({"s", "d"},
               {strings({"a,b", "q\"uote", "line\nbreak", std::nullopt, "x"}),
                doubles({1.5, -0.0, std::numeric_limits<double>::infinity(), std::nullopt, 1e-7})});
  const std::string text = write_text(batch, {{"header", "true"}});
  const auto read =
      testing::read_text(text, {{"header", "true"}, {"multiLine", "true"}}, batch.schema());
  EXPECT_TRUE(read.columns[0].equals(batch.column(0))) << read.columns[0].to_string();
  EXPECT_TRUE(read.columns[1].equals(batch.column(1))) << read.columns[1].to_string() << text;
}

}  // namespace
}  // namespace bowstring::io::csv
