#include <gtest/gtest.h>

#include <string>

#include "bowstring/array/concatenate.h"
#include "bowstring/io/csv/csv_format.h"
#include "bowstring/io/csv/csv_reader.h"
#include "bowstring/testing/scratch_dir.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::io::csv {
namespace {

using bowstring::testing::error_message;
using bowstring::testing::ScratchDir;

SchemaPtr ddl(const char* text) {
  return std::make_shared<const Schema>(parse_spark_schema(text, "UTC"));
}

/// Every row of the splits of `path` cut every `step` bytes, as "a|b" texts.
std::vector<std::string> rows_by_splits(const std::string& path, int64_t size, int64_t step,
                                        const CsvReadOptions& options, const SchemaPtr& schema) {
  std::vector<std::string> rows;
  for (int64_t offset = 0; offset < size; offset += step) {
    for (const RecordBatch& batch :
         read_csv_split(path, offset, std::min(step, size - offset), options, schema, {0, 1})) {
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        const std::string a = batch.column(0).slice(r, 1).to_string();
        const std::string b = batch.column(1).slice(r, 1).to_string();
        rows.push_back(a.substr(1, a.size() - 2) + "|" + b.substr(1, b.size() - 2));
      }
    }
  }
  return rows;
}

TEST(CsvSplit, SplitsReadEveryRecordOnceWhereverTheyAreCut) {
  ScratchDir dir;
  std::string text = "id,name\n";
  std::vector<std::string> expected;
  for (int i = 0; i < 200; ++i) {
    text += std::to_string(i) + ",n" + std::to_string(i) + (i % 3 == 0 ? "\r\n" : "\n");
    expected.push_back(std::to_string(i) + "|\"n" + std::to_string(i) + "\"");
  }
  const std::string path = dir.write("data.csv", text);
  CsvReadOptions options;
  options.header = true;
  const SchemaPtr schema = ddl("id INT, name STRING");
  for (int64_t step : {1, 2, 7, 64, 1000, 100000}) {
    EXPECT_EQ(rows_by_splits(path, static_cast<int64_t>(text.size()), step, options, schema),
              expected)
        << "splits of " << step << " bytes";
  }
}

TEST(CsvSplit, MultiLineAndCompressedFilesAreReadWhole) {
  ScratchDir dir;
  const std::string text = "1,\"a\nb\"\n2,c\n";
  const std::string path = dir.write("q.csv", text);
  CsvReadOptions options;
  options.multi_line = true;
  EXPECT_FALSE(csv_splittable(path, options));
  EXPECT_TRUE(csv_splittable(path, CsvReadOptions{}));
  EXPECT_FALSE(csv_splittable(dir.at("q.csv.gz"), CsvReadOptions{}));
  const SchemaPtr schema = ddl("n INT, s STRING");
  // Every split but the first reads nothing: the first reads the whole file.
  EXPECT_EQ(rows_by_splits(path, static_cast<int64_t>(text.size()), 4, options, schema),
            (std::vector<std::string>{"1|\"a\\nb\"", "2|\"c\""}));
}

TEST(CsvSplit, FailFastNamesTheLineOfTheWholeFile) {
  ScratchDir dir;
  const std::string path = dir.write("bad.csv", "1,a\n2,b\n3,c\nx,d\n");
  CsvReadOptions options;
  options.mode = ParseMode::kFailFast;
  const std::string message = error_message<FormatError>([&] {
    read_csv_split(path, 9, 7, options, ddl("n INT, s STRING"), {0, 1});
  });
  EXPECT_NE(message.find("bad.csv' at line 4"), std::string::npos) << message;
}

TEST(CsvSplit, TheFormatReadsOnlyTheColumnsAskedAndFilters) {
  ScratchDir dir;
  const std::string path = dir.write("f.csv", "1,x,10\n2,y,20\n3,z,30\n");
  const CsvFormat format(CsvReadOptions{}, nullptr);
  const DataFile file{path, 21};
  const SchemaPtr data_schema = format.infer_schema({file});
  EXPECT_EQ(data_schema->field_names(), (std::vector<std::string>{"_c0", "_c1", "_c2"}));
  SplitRead read;
  read.file = &file;
  read.split = FileSplit{0, 0, file.size};
  read.data_schema = data_schema;
  read.columns = {2, 0};
  compute::ExecContext context;
  read.context = &context;
  const expr::BoundExpression filter =
      expr::bind_expression(expr::call("!=", {expr::col("_c0"), expr::lit("2")}),
                            Schema({data_schema->field(2), data_schema->field(0)}));
  read.filter = &filter;
  const std::vector<RecordBatch> batches = format.read(read);
  ASSERT_EQ(batches.size(), 1U);
  EXPECT_EQ(batches[0].schema()->field_names(), (std::vector<std::string>{"_c2", "_c0"}));
  EXPECT_EQ(batches[0].column(0).to_string(), "[\"10\" \"30\"]");
  EXPECT_EQ(format.extension(), "csv");
}

}  // namespace
}  // namespace bowstring::io::csv
