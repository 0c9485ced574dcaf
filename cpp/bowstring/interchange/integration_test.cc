// Conformance with Apache Arrow: the IPC gold files of arrow-testing, written by Arrow releases
// from 0.14.1 to 21.0.0, read into exactly the data of their JSON descriptions, and our writers
// round-trip that data. One test per case file, so that a failure names the case.

#include <fcntl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "bowstring/array/equal.h"
#include "bowstring/array/pretty_print.h"
#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/testing/arrow_json.h"
#include "bowstring/testing/arrow_testing_data.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring::testing {
namespace {

/// One gold case: `<dir>/<name>.json.gz`, `.stream` and `.arrow_file`.
struct GoldCase {
  std::filesystem::path dir;
  /// The version folder ("0.14.1", "1.0.0-bigendian", "cpp-21.0.0"...).
  std::string version;
  /// The case ("generated_primitive"...); empty for the placeholder used when the gold files
  /// are missing, whose tests skip (or fail under CI).
  std::string name;

  std::filesystem::path file(const char* extension) const { return dir / (name + extension); }
  bool big_endian() const { return version.find("bigendian") != std::string::npos; }
};

/// How gtest shows a case in failure messages: "cpp-21.0.0/generated_union".
void PrintTo(const GoldCase& gold_case, std::ostream* out) {
  *out << (gold_case.name.empty() ? "(gold files missing)"
                                  : gold_case.version + "/" + gold_case.name);
}

std::vector<GoldCase> gold_cases() {
  const ArrowIntegrationDir lookup = find_arrow_integration_dir();
  std::vector<GoldCase> cases;
  if (lookup.found()) {
    for (const auto& item : std::filesystem::recursive_directory_iterator(lookup.path)) {
      const std::string file = item.path().filename().string();
      constexpr std::string_view kSuffix = ".json.gz";
      if (file.size() > kSuffix.size() && file.ends_with(kSuffix)) {
        cases.push_back({item.path().parent_path(), item.path().parent_path().filename().string(),
                         file.substr(0, file.size() - kSuffix.size())});
      }
    }
  }
  if (cases.empty()) {
    cases.push_back({});
  }
  std::sort(cases.begin(), cases.end(), [](const GoldCase& a, const GoldCase& b) {
    return std::tie(a.version, a.name) < std::tie(b.version, b.name);
  });
  return cases;
}

std::string case_test_name(const ::testing::TestParamInfo<GoldCase>& info) {
  if (info.param.name.empty()) {
    return "GoldFilesMissing";
  }
  std::string name = info.param.version + "_" + info.param.name;
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) {
      c = '_';
    }
  }
  return name;
}

/// How values compare: NaN equals NaN (the gold files are bit-exact copies of one another), and
/// field metadata inside types counts.
EqualOptions gold_equal_options() {
  EqualOptions options;
  options.nans_equal = true;
  options.check_metadata = true;
  return options;
}

/// "" when `actual` holds exactly the schema and batches of `expected`; otherwise what differs
/// first: the schemas, the number of batches, or the first differing column of the first
/// differing batch with the row and both arrays.
std::string difference(const JsonIntegrationData& expected, const SchemaPtr& actual_schema,
                       const std::vector<RecordBatch>& actual) {
  if (!actual_schema->equals(*expected.schema, /*check_metadata=*/true)) {
    return "schemas differ.\nexpected:\n" + expected.schema->to_string() + "\ngot:\n" +
           actual_schema->to_string();
  }
  if (actual.size() != expected.batches.size()) {
    return "expected " + std::to_string(expected.batches.size()) + " batches, got " +
           std::to_string(actual.size());
  }
  const EqualOptions options = gold_equal_options();
  for (size_t b = 0; b < actual.size(); ++b) {
    const RecordBatch& want = expected.batches[b];
    const RecordBatch& got = actual[b];
    if (got.num_rows() != want.num_rows()) {
      return "batch " + std::to_string(b) + ": expected " + std::to_string(want.num_rows()) +
             " rows, got " + std::to_string(got.num_rows());
    }
    for (int c = 0; c < want.num_columns(); ++c) {
      const Array& want_column = want.column(c);
      const Array& got_column = got.column(c);
      if (arrays_equal(got_column, want_column, options)) {
        continue;
      }
      std::string report = "batch " + std::to_string(b) + " column " + std::to_string(c) + " '" +
                           want.column_name(c) + "' differs";
      if (types_equal(got_column.type(), want_column.type(), /*check_metadata=*/true)) {
        for (int64_t row = 0; row < want_column.length(); ++row) {
          if (!array_range_equal(got_column, row, want_column, row, 1, options)) {
            report += " first at row " + std::to_string(row) + ": expected " +
                      format_value(want_column, row) + ", got " + format_value(got_column, row);
            break;
          }
        }
      } else {
        report += ": expected type " + want_column.type()->to_string() + ", got " +
                  got_column.type()->to_string();
      }
      return report + "\nexpected: " + want_column.to_string() +
             "\ngot:      " + got_column.to_string();
    }
  }
  return {};
}

std::vector<RecordBatch> read_all(RecordBatchReader& reader) {
  std::vector<RecordBatch> batches;
  while (std::optional<RecordBatch> batch = reader.next()) {
    batches.push_back(std::move(*batch));
  }
  return batches;
}

std::vector<RecordBatch> read_all(ipc::FileReader& reader) {
  std::vector<RecordBatch> batches;
  batches.reserve(static_cast<size_t>(reader.num_record_batches()));
  for (int i = 0; i < reader.num_record_batches(); ++i) {
    batches.push_back(reader.record_batch(i));
  }
  return batches;
}

std::shared_ptr<InputStream> open_stream_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw IoError("cannot open " + path.string());
  }
  return std::make_shared<FdInputStream>(fd, /*owns_fd=*/true, default_allocator(), path.string());
}

class GoldFileTest : public ::testing::TestWithParam<GoldCase> {
 protected:
  void SetUp() override {
    if (GetParam().name.empty()) {
      BOWSTRING_ARROW_INTEGRATION_DIR_OR_SKIP(dir);
      FAIL() << "no .json.gz gold case under " << dir;
    }
    known_issue_ = gold_file_known_issue(GetParam().file(".json.gz"));
    read_options_.validate_full = known_issue_.empty();
  }

  JsonIntegrationData expected() const {
    return read_json_integration(GetParam().file(".json.gz").string(),
                                 {.validate_full = known_issue_.empty()});
  }

  /// Big-endian data is refused, naming the reason.
  template <typename Read>
  void expect_big_endian_refused(Read read) const {
    std::string message = error_message<FormatError>(read);
    std::transform(message.begin(), message.end(), message.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    EXPECT_TRUE(message.find("big-endian") != std::string::npos ||
                message.find("big endian") != std::string::npos)
        << message;
  }

  /// Full validation refuses the data of a case with a known issue, naming the problem (the
  /// only known issue is decimal values with more digits than their precision).
  template <typename Read>
  void expect_known_issue_refused(Read read) const {
    const std::string message = error_message<FormatError>(read);
    EXPECT_NE(message.find("digits"), std::string::npos)
        << "full validation should refuse " << known_issue_ << ", got: " << message;
  }

  /// What is wrong with some old cases: the data is read without full validation, and full
  /// validation must reject it.
  std::string known_issue_;
  ipc::ReadOptions read_options_;
};

TEST_P(GoldFileTest, StreamReadsAsItsJson) {
  const std::filesystem::path path = GetParam().file(".stream");
  if (GetParam().big_endian()) {
    expect_big_endian_refused([&] {
      std::unique_ptr<ipc::StreamReader> reader = ipc::StreamReader::open(open_stream_file(path));
      read_all(*reader);
    });
    return;
  }
  const JsonIntegrationData json = expected();
  std::unique_ptr<ipc::StreamReader> reader =
      ipc::StreamReader::open(open_stream_file(path), read_options_);
  const std::vector<RecordBatch> batches = read_all(*reader);
  EXPECT_EQ(difference(json, reader->schema(), batches), "");
  if (!known_issue_.empty()) {
    expect_known_issue_refused([&] { read_all(*ipc::StreamReader::open(open_stream_file(path))); });
  }
}

TEST_P(GoldFileTest, FileReadsAsItsJson) {
  const std::filesystem::path path = GetParam().file(".arrow_file");
  if (GetParam().big_endian()) {
    expect_big_endian_refused([&] {
      std::unique_ptr<ipc::FileReader> reader =
          ipc::FileReader::open(MemoryMappedFile::open(path.string()));
      read_all(*reader);
    });
    return;
  }
  const JsonIntegrationData json = expected();
  std::unique_ptr<ipc::FileReader> reader =
      ipc::FileReader::open(MemoryMappedFile::open(path.string()), read_options_);
  EXPECT_EQ(difference(json, reader->schema(), read_all(*reader)), "");
  if (!known_issue_.empty()) {
    expect_known_issue_refused(
        [&] { read_all(*ipc::FileReader::open(MemoryMappedFile::open(path.string()))); });
  }
}

// Big-endian cases too: their JSON describes the same values, which our writers write in
// little-endian order.
TEST_P(GoldFileTest, WrittenAgainReadsTheSame) {
  const JsonIntegrationData json = expected();
  for (const Compression compression :
       {Compression::kNone, Compression::kZstd, Compression::kLz4Frame}) {
    SCOPED_TRACE(std::string("compression ") + std::string(compression_name(compression)));
    ipc::WriteOptions options;
    options.compression = compression;

    auto stream_sink = std::make_shared<BufferOutputStream>();
    ipc::StreamWriter stream_writer(stream_sink, json.schema, options);
    for (const RecordBatch& batch : json.batches) {
      stream_writer.write(batch);
    }
    stream_writer.close();
    std::unique_ptr<ipc::StreamReader> stream_reader = ipc::StreamReader::open(
        std::make_shared<BufferInputStream>(stream_sink->finish()), read_options_);
    const std::vector<RecordBatch> from_stream = read_all(*stream_reader);
    EXPECT_EQ(difference(json, stream_reader->schema(), from_stream), "") << "stream format";

    auto file_sink = std::make_shared<BufferOutputStream>();
    ipc::FileWriter file_writer(file_sink, json.schema, options);
    for (const RecordBatch& batch : json.batches) {
      file_writer.write(batch);
    }
    file_writer.close();
    std::unique_ptr<ipc::FileReader> file_reader =
        ipc::FileReader::open(std::make_shared<BufferSource>(file_sink->finish()), read_options_);
    EXPECT_EQ(difference(json, file_reader->schema(), read_all(*file_reader)), "") << "file format";
  }
}

TEST(GoldComparison, NamesTheFirstDifference) {
  const JsonIntegrationData expected = parse_json_integration(R"({
    "schema": {"fields": [{"name": "x", "nullable": true, "children": [],
                           "type": {"name": "int", "isSigned": true, "bitWidth": 32}}]},
    "batches": [{"count": 3, "columns": [
      {"name": "x", "count": 3, "VALIDITY": [1, 1, 0], "DATA": [1, 2, 0]}]}]})");
  EXPECT_EQ(difference(expected, expected.schema, expected.batches), "");
  const JsonIntegrationData other = parse_json_integration(R"({
    "schema": {"fields": [{"name": "x", "nullable": true, "children": [],
                           "type": {"name": "int", "isSigned": true, "bitWidth": 32}}]},
    "batches": [{"count": 3, "columns": [
      {"name": "x", "count": 3, "VALIDITY": [1, 1, 0], "DATA": [1, 5, 0]}]}]})");
  EXPECT_EQ(difference(expected, other.schema, other.batches),
            "batch 0 column 0 'x' differs first at row 1: expected 2, got 5\n"
            "expected: [1 2 null]\n"
            "got:      [1 5 null]");
  EXPECT_EQ(difference(expected, other.schema, {}), "expected 1 batches, got 0");
  const SchemaPtr renamed = schema({field("y", int32())});
  EXPECT_EQ(difference(expected, renamed, other.batches),
            "schemas differ.\nexpected:\nx: int32\ngot:\ny: int32");
}

INSTANTIATE_TEST_SUITE_P(ArrowGoldFiles, GoldFileTest, ::testing::ValuesIn(gold_cases()),
                         case_test_name);

}  // namespace
}  // namespace bowstring::testing
