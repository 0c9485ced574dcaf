#include "bowstring/exec/file_write.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bowstring/compute/core/errors.h"
#include "bowstring/exec/exec_testing.h"
#include "bowstring/io/formats.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/scratch_dir.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/cancellation.h"

namespace bowstring::exec {
namespace {

namespace fs = std::filesystem;
using bowstring::testing::error_message;
using bowstring::testing::int64s;
using bowstring::testing::ScratchDir;
using bowstring::testing::strings;
using expr::call;
using expr::col;
using expr::lit;
using testing::run_query;
using testing::sorted_rows_of;

plan::PlanPtr sample() {
  const SchemaPtr columns = schema({field("id", int64()), field("day", utf8())});
  return plan::local_relation(Table::from_batches(
      columns, {RecordBatch(columns, 4,
                            {int64s({1, 2, 3, 4}),
                             strings({"2024-01-01", "2024-01-02", std::nullopt, "2024-01-01"})})}));
}

void write(const plan::PlanPtr& plan, const std::string& format, const std::string& path,
           SaveMode mode, std::vector<std::string> partition_by = {},
           const io::SourceOptions& options = {}, const QueryOptions& query = {}) {
  compute::ExecContext context;
  const PhysicalPtr physical = plan_physical(plan::optimize(plan::analyze(plan)), context);
  FileWrite request;
  request.format = io::make_file_format(format, options, nullptr, io::FormatUse::kWrite);
  request.path = path;
  request.mode = mode;
  request.partition_by = std::move(partition_by);
  write_files(physical, request, context, query);
}

plan::PlanPtr read(const std::string& format, const std::string& path,
                   const io::SourceOptions& options = {}) {
  return plan::file_scan(io::open_file_relation(
      {path}, io::make_file_format(format, options, nullptr, io::FormatUse::kRead),
      io::file_set_options(options, "UTC")));
}

/// The names below `root`, relative, sorted, with the job's UUID replaced by "<uuid>".
std::vector<std::string> listing(const std::string& root) {
  std::vector<std::string> out;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) {
      continue;
    }
    std::string name = fs::relative(entry.path(), root).string();
    const size_t part = name.find("part-");
    if (part != std::string::npos) {
      name = name.substr(0, part + 11) + "<uuid>" + name.substr(part + 11 + 36);
    }
    out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string contents(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(FileWrite, WritesAFolderOfPartsAndASuccessMarker) {
  ScratchDir dir;
  write(sample(), "csv", dir.at("out"), SaveMode::kErrorIfExists, {}, {{"header", "true"}});
  EXPECT_EQ(listing(dir.at("out")),
            (std::vector<std::string>{"_SUCCESS", "part-00000-<uuid>-c000.csv"}));
  EXPECT_EQ(sorted_rows_of(run_query(read("csv", dir.at("out"), {{"header", "true"}}))),
            (std::vector<std::string>{"\"1\", \"2024-01-01\"", "\"2\", \"2024-01-02\"",
                                      "\"3\", null", "\"4\", \"2024-01-01\""}));
  // Nothing is left beside the destination.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(FileWrite, PartitionByWritesHiveFolders) {
  ScratchDir dir;
  write(sample(), "csv", dir.at("out"), SaveMode::kErrorIfExists, {"DAY"});
  const std::vector<std::string> files = listing(dir.at("out"));
  ASSERT_EQ(files.size(), 4U);
  EXPECT_EQ(files[0], "_SUCCESS");
  EXPECT_EQ(files[1].substr(0, 15), "day=2024-01-01/");
  EXPECT_EQ(files[3].substr(0, 31), "day=__HIVE_DEFAULT_PARTITION__/");
  const fs::path first = dir.at("out") + "/" + files[1].substr(0, 15);
  EXPECT_EQ(contents(fs::directory_iterator(first)->path()), "1\n4\n");
  // Read back, the folders are a DATE column again (and the default partition null).
  EXPECT_EQ(sorted_rows_of(run_query(read("csv", dir.at("out")))),
            (std::vector<std::string>{"\"1\", 2024-01-01", "\"2\", 2024-01-02", "\"3\", null",
                                      "\"4\", 2024-01-01"}));
  EXPECT_NE(error_message<compute::AnalysisError>([&] {
              write(sample(), "csv", dir.at("x"), SaveMode::kErrorIfExists, {"nope"});
            }).find("[COLUMN_NOT_FOUND]"),
            std::string::npos);
  EXPECT_EQ(error_message<compute::AnalysisError>([&] {
              write(sample(), "csv", dir.at("x"), SaveMode::kErrorIfExists, {"day", "id"});
            }),
            "[ALL_PARTITION_COLUMNS_NOT_ALLOWED] Cannot use all columns for partition columns.");
}

TEST(FileWrite, SaveModesBehaveAsSparksDo) {
  ScratchDir dir;
  const std::string out = dir.at("out");
  write(sample(), "arrow", out, SaveMode::kErrorIfExists);
  EXPECT_EQ(error_message<compute::AnalysisError>(
                [&] { write(sample(), "arrow", out, SaveMode::kErrorIfExists); }),
            "[PATH_ALREADY_EXISTS] Path file:" + out +
                " already exists. Set mode as \"overwrite\" to overwrite the existing path.");
  write(sample(), "arrow", out, SaveMode::kIgnore);
  EXPECT_EQ(run_query(read("arrow", out)).num_rows(), 4);
  write(sample(), "arrow", out, SaveMode::kAppend);
  EXPECT_EQ(run_query(read("arrow", out)).num_rows(), 8);
  EXPECT_EQ(listing(out).size(), 3U);
  write(plan::limit(sample(), 1), "arrow", out, SaveMode::kOverwrite);
  EXPECT_EQ(run_query(read("arrow", out)).num_rows(), 1);
  EXPECT_EQ(parse_save_mode("ErrorIfExists"), SaveMode::kErrorIfExists);
  EXPECT_NE(error_message<compute::AnalysisError>([] {
              parse_save_mode("replace");
            }).find("[INVALID_SAVE_MODE] The specified save mode \"replace\" is invalid."),
            std::string::npos);
}

/// A plan whose rows fail (division by zero) from row `failing` on, after earlier morsels
/// have been written.
plan::PlanPtr failing_after(int64_t failing) {
  return plan::project(
      plan::range(0, 1000),
      {col("id"),
       expr::alias(call("/", {lit(int64_t{10}), call("-", {lit(failing), col("id")})}), "ratio")});
}

TEST(FileWrite, AFailingQueryLeavesTheDestinationAsItWas) {
  ScratchDir dir;
  const std::string out = dir.at("out");
  QueryOptions small;
  small.morsel_rows = 10;
  small.threads = 1;
  EXPECT_NE(error_message<compute::ArithmeticError>([&] {
              write(failing_after(500), "csv", out, SaveMode::kErrorIfExists, {}, {}, small);
            }).find("DIVIDE_BY_ZERO"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(out));
  write(sample(), "csv", out, SaveMode::kErrorIfExists);
  const std::vector<std::string> before = listing(out);
  for (SaveMode mode : {SaveMode::kOverwrite, SaveMode::kAppend}) {
    EXPECT_THROW(write(failing_after(500), "csv", out, mode, {}, {}, small),
                 compute::ArithmeticError);
    EXPECT_EQ(listing(out), before);
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(FileWrite, ACancelledQueryLeavesTheDestinationAsItWas) {
  ScratchDir dir;
  const std::string out = dir.at("out");
  write(sample(), "csv", out, SaveMode::kErrorIfExists);
  const std::vector<std::string> before = listing(out);
  QueryOptions cancelled;
  cancelled.morsel_rows = 10;
  std::atomic<int> morsels{0};
  cancelled.progress = [&](const PipelineProgress&) {
    if (++morsels == 20) {
      cancelled.cancellation.cancel();
    }
  };
  EXPECT_THROW(write(plan::range(0, 100000), "csv", out, SaveMode::kOverwrite, {}, {}, cancelled),
               Cancelled);
  EXPECT_GE(morsels.load(), 20);
  EXPECT_EQ(listing(out), before);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace bowstring::exec
