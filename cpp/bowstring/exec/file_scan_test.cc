#include "bowstring/exec/file_scan.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "bowstring/exec/exec_testing.h"
#include "bowstring/exec/explain.h"
#include "bowstring/io/formats.h"
#include "bowstring/testing/scratch_dir.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::exec {
namespace {

using bowstring::testing::error_message;
using bowstring::testing::ScratchDir;
using expr::and_;
using expr::call;
using expr::col;
using expr::lit;
using expr::or_;
using testing::rows_of;
using testing::run_query;
using testing::sorted_rows_of;

plan::PlanPtr read(const std::string& format, const std::vector<std::string>& paths,
                   const io::SourceOptions& options = {}, const char* ddl = nullptr,
                   io::SplitOptions splits = {}) {
  const SchemaPtr user_schema =
      ddl == nullptr ? nullptr : std::make_shared<const Schema>(parse_spark_schema(ddl, "UTC"));
  io::FileFormatPtr file_format =
      io::make_file_format(format, options, user_schema, io::FormatUse::kRead);
  return plan::file_scan(io::open_file_relation(paths, std::move(file_format),
                                                io::file_set_options(options, "UTC"), splits));
}

PhysicalPtr physical(const plan::PlanPtr& plan) {
  compute::ExecContext context;
  return plan_physical(plan::optimize(plan::analyze(plan)), context);
}

/// Three days of rows; the third day's file is malformed, so a FAILFAST read fails if it is
/// opened.
void write_days(const ScratchDir& dir) {
  dir.write("day=2024-01-01/part-0.csv", "id,v\n1,a\n2,b\n");
  dir.write("day=2024-01-02/part-0.csv", "id,v\n3,c\n4,d\n");
  dir.write("day=2024-01-03/part-0.csv", "id,v\nbad,row\n");
}

const io::SourceOptions kFailFast{{"header", "true"}, {"mode", "FAILFAST"}};

expr::ExprPtr date(const char* text) { return expr::cast(lit(text), date32()); }

TEST(FileScan, PartitionColumnsAreAppendedAndPruneFilesBeforeTheyAreOpened) {
  ScratchDir dir;
  write_days(dir);
  const plan::PlanPtr days = read("csv", {dir.path()}, kFailFast, "id INT, v STRING");
  const plan::PlanPtr second = plan::filter(days, call("=", {col("day"), date("2024-01-02")}));
  EXPECT_EQ(rows_of(run_query(second)),
            (std::vector<std::string>{"3, \"c\", 2024-01-02", "4, \"d\", 2024-01-02"}));
  const plan::PlanPtr early = plan::filter(days, call("<", {col("day"), date("2024-01-03")}));
  EXPECT_EQ(run_query(early).num_rows(), 4);
  // Without pruning the malformed file is read.
  const std::string message = error_message<FormatError>([&] { run_query(days); });
  EXPECT_NE(message.find("day=2024-01-03/part-0.csv' at line 2"), std::string::npos) << message;
  const PhysicalPtr pruned = physical(second);
  EXPECT_EQ(pruned->file_scan->files_selected, 1U);
}

TEST(FileScan, DataFiltersAreEvaluatedInTheScanAndExplainedAsSparkDoes) {
  ScratchDir dir;
  write_days(dir);
  const plan::PlanPtr days = read("csv", {dir.path()}, kFailFast, "id INT, v STRING");
  const plan::PlanPtr query = plan::project(
      plan::filter(
          days, and_(call("<", {col("day"), date("2024-01-03")}), call(">", {col("id"), lit(1)}))),
      {col("v")});
  EXPECT_EQ(sorted_rows_of(run_query(query)),
            (std::vector<std::string>{"\"b\"", "\"c\"", "\"d\""}));
  const std::string plan = physical_tree_string(physical(query));
  // No filter is left above the scan; the scan reads id for its filter but outputs only v.
  EXPECT_EQ(plan.find("Filter ("), std::string::npos) << plan;
  EXPECT_NE(plan.find("FileScan csv [v#"), std::string::npos) << plan;
  EXPECT_NE(plan.find("] Batched: false, DataFilters: [(id#"), std::string::npos) << plan;
  EXPECT_NE(plan.find(", Format: CSV, Location: InMemoryFileIndex(1 paths)[file:" + dir.path() +
                      "], PartitionFilters: [(day#"),
            std::string::npos)
      << plan;
  EXPECT_NE(plan.find("PushedFilters: [GreaterThan(id,1)], ReadSchema: struct<v:string>"),
            std::string::npos)
      << plan;
}

TEST(FileScan, ConditionsOnBothKindsOfColumnsStayAbove) {
  ScratchDir dir;
  write_days(dir);
  const plan::PlanPtr days =
      read("csv", {dir.at("day=2024-01-0[12]")}, {{"header", "true"}, {"basePath", dir.path()}});
  const plan::PlanPtr query = plan::filter(
      days, or_(call("=", {col("v"), lit("a")}), call("=", {col("day"), date("2024-01-02")})));
  EXPECT_EQ(rows_of(run_query(query)),
            (std::vector<std::string>{"\"1\", \"a\", 2024-01-01", "\"3\", \"c\", 2024-01-02",
                                      "\"4\", \"d\", 2024-01-02"}));
  const std::string plan = physical_tree_string(physical(query));
  EXPECT_EQ(plan.find("Filter ((v#"), 0U) << plan;
  EXPECT_NE(plan.find("InMemoryFileIndex(2 paths)"), std::string::npos) << plan;
}

TEST(FileScan, OneLargeFileIsReadInSplitsOnEveryThreadInAnyMorselSize) {
  ScratchDir dir;
  std::string text;
  int64_t sum = 0;
  for (int i = 0; i < 20000; ++i) {
    text += std::to_string(i) + "," + std::to_string(i % 7) + "\n";
    sum += i;
  }
  dir.write("big.csv", text);
  io::SplitOptions splits;
  splits.max_split_bytes = 4096;
  splits.open_cost_bytes = 1024;
  const plan::PlanPtr rows =
      read("csv", {dir.at("big.csv")}, {{"inferSchema", "true"}}, nullptr, splits);
  EXPECT_GT(physical(rows)->file_scan->splits.size(), 30U);
  const plan::PlanPtr total = plan::aggregate(
      rows, {}, {call("sum", {col("_c0")}), call("count", {lit(1)}), call("max", {col("_c1")})});
  for (int64_t morsel_rows : {1, 3, 8192}) {
    for (int threads : {1, 0}) {
      QueryOptions options;
      options.morsel_rows = morsel_rows;
      options.threads = threads;
      EXPECT_EQ(rows_of(run_query(total, options)),
                (std::vector<std::string>{std::to_string(sum) + ", 20000, 6"}))
          << morsel_rows << " rows per morsel, " << threads << " threads";
    }
  }
  // Rows keep the file's order.
  EXPECT_EQ(rows_of(run_query(plan::limit(rows, 3, 4000))),
            (std::vector<std::string>{"4000, 3", "4001, 4", "4002, 5"}));
}

TEST(FileScan, ColumnsNoQueryReadsAreNotProduced) {
  ScratchDir dir;
  write_days(dir);
  const plan::PlanPtr days =
      read("csv", {dir.at("day=2024-01-01"), dir.at("day=2024-01-02")}, {{"header", "true"}});
  const plan::PlanPtr counted = plan::aggregate(days, {}, {call("count", {lit(1)})});
  EXPECT_EQ(rows_of(run_query(counted)), (std::vector<std::string>{"4"}));
  const std::string plan = physical_tree_string(physical(counted));
  EXPECT_NE(plan.find("FileScan csv [] Batched: false"), std::string::npos) << plan;
  EXPECT_NE(plan.find("ReadSchema: struct<>"), std::string::npos) << plan;
}

TEST(FileScan, PartitionColumnsNamedInTheFilesOrInTheSchemaAreTheFolders) {
  ScratchDir dir;
  // The files hold a column of the partition's name: it keeps its place, with the folder's
  // value, and the columns after it are still read by position.
  dir.write("day=2024-01-01/part-0.csv", "id,day,v\n1,stale,a\n");
  const Table read_back = run_query(read("csv", {dir.path()}, {{"header", "true"}}));
  EXPECT_EQ(read_back.schema()->field_names(), (std::vector<std::string>{"id", "day", "v"}));
  EXPECT_EQ(rows_of(read_back), (std::vector<std::string>{"\"1\", 2024-01-01, \"a\""}));
  // A user's schema naming the partition column: the files hold only the other columns.
  ScratchDir named;
  write_days(named);
  const Table typed =
      run_query(plan::filter(read("csv", {named.path()}, kFailFast, "id INT, day DATE, v STRING"),
                             call("=", {col("day"), date("2024-01-02")})));
  EXPECT_EQ(typed.schema()->field_names(), (std::vector<std::string>{"id", "v", "day"}));
  EXPECT_EQ(rows_of(typed),
            (std::vector<std::string>{"3, \"c\", 2024-01-02", "4, \"d\", 2024-01-02"}));
  // The user's type is the partition column's.
  const Table strings =
      run_query(plan::filter(read("csv", {named.path()}, kFailFast, "id INT, v STRING, day STRING"),
                             call("=", {col("day"), lit("2024-01-01")})));
  EXPECT_EQ(rows_of(strings),
            (std::vector<std::string>{"1, \"a\", \"2024-01-01\"", "2, \"b\", \"2024-01-01\""}));
}

TEST(FileScan, ArrowFilesAreASource) {
  ScratchDir dir;
  write_days(dir);
  const plan::PlanPtr csv = read("csv", {dir.at("day=2024-01-01")}, {{"header", "true"}});
  const Table rows = run_query(csv);
  const io::FileFormatPtr arrow = io::make_file_format("arrow", {}, nullptr, io::FormatUse::kWrite);
  std::filesystem::create_directories(dir.at("out/n=5"));
  const std::unique_ptr<io::FileWriter> writer =
      arrow->open_writer(dir.at("out/n=5/part.arrow"), rows.schema());
  for (const RecordBatch& batch : rows.to_batches(1)) {
    writer->write(batch);
  }
  writer->close();
  const plan::PlanPtr query =
      plan::filter(read("arrow", {dir.at("out")}), call("=", {col("v"), lit("b")}));
  EXPECT_EQ(rows_of(run_query(query)), (std::vector<std::string>{"\"2\", \"b\", 5"}));
  EXPECT_NE(physical_tree_string(physical(query)).find("Format: Arrow"), std::string::npos);
}

TEST(FileScan, SourceFiltersAreNamedAsSparkNamesThem) {
  const std::vector<plan::Attribute> attributes{{1, "a", int32(), true, {}},
                                                {2, "s", utf8(), true, {}}};
  auto text = [&](const expr::ExprPtr& condition) {
    return source_filter_text(condition, attributes).value_or("(none)");
  };
  const expr::ExprPtr a = col("#1");
  const expr::ExprPtr s = col("#2");
  EXPECT_EQ(text(call("<", {lit(3), a})), "GreaterThan(a,3)");
  EXPECT_EQ(text(call("<=>", {a, lit(3)})), "EqualNullSafe(a,3)");
  EXPECT_EQ(text(expr::in(a, {lit(1), lit(2)})), "In(a, [1,2])");
  EXPECT_EQ(text(expr::not_(expr::is_null(s))), "Not(IsNull(s))");
  EXPECT_EQ(text(or_(call("startswith", {s, lit("x")}), expr::is_not_null(a))),
            "Or(StringStartsWith(s,x),IsNotNull(a))");
  EXPECT_EQ(text(call(">", {call("+", {a, lit(1)}), lit(3)})), "(none)");
}

}  // namespace
}  // namespace bowstring::exec
