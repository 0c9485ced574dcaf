#include "bowstring/io/files/file_set.h"

#include <gtest/gtest.h>

#include "bowstring/array/array.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/testing/scratch_dir.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/types/spark_type_names.h"

namespace bowstring::io {
namespace {

using bowstring::testing::error_message;
using bowstring::testing::ScratchDir;

std::vector<std::string> relative_paths(const FileSet& set, const ScratchDir& dir) {
  std::vector<std::string> out;
  for (const DataFile& file : set.files) {
    out.push_back(file.path.substr(dir.path().size() + 1));
  }
  return out;
}

std::string type_name(const TypePtr& type) { return spark_type_name(*type); }

TEST(FileSet, DirectoriesAreListedRecursivelyWithoutHiddenNames) {
  ScratchDir dir;
  dir.write("b.csv", "1");
  dir.write("a.csv", "22");
  dir.write("sub/c.csv", "333");
  dir.write("_SUCCESS", "");
  dir.write(".a.csv.crc", "x");
  dir.write("_temporary/0/part.csv", "x");
  dir.write("d.csv._COPYING_", "x");
  const FileSet set = list_files({dir.path()});
  EXPECT_EQ(relative_paths(set, dir), (std::vector<std::string>{"a.csv", "b.csv", "sub/c.csv"}));
  EXPECT_EQ(set.files[0].size, 2);
  EXPECT_EQ(set.partition_schema->num_fields(), 0);
  EXPECT_EQ(set.root_paths, (std::vector<std::string>{dir.path()}));
}

TEST(FileSet, FilesGlobsAndSeveralPathsAtOnce) {
  ScratchDir dir;
  dir.write("x/1.csv", "");
  dir.write("x/2.csv", "");
  dir.write("y/3.json", "");
  dir.write("z/4.csv", "");
  // A hidden name given directly is read: only listed names are filtered.
  dir.write("_given.csv", "");
  const FileSet set = list_files({dir.at("{x,z}/*.csv"), dir.at("y/3.json"), dir.at("_given.csv")});
  EXPECT_EQ(relative_paths(set, dir),
            (std::vector<std::string>{"_given.csv", "x/1.csv", "x/2.csv", "y/3.json", "z/4.csv"}));
  // The same file twice is read once.
  EXPECT_EQ(list_files({dir.at("x/1.csv"), dir.at("x/../x/1.csv")}).files.size(), 1U);
}

TEST(FileSet, MissingPathsAreSparksPathNotFound) {
  ScratchDir dir;
  EXPECT_EQ(error_message<compute::AnalysisError>([&] { list_files({dir.at("nope")}); }),
            "[PATH_NOT_FOUND] Path does not exist: file:" + dir.at("nope") + ".");
  EXPECT_EQ(error_message<compute::AnalysisError>([&] { list_files({dir.at("*.csv")}); }),
            "[PATH_NOT_FOUND] Path does not exist: file:" + dir.at("*.csv") + ".");
}

TEST(FileSet, HivePartitionsAreDiscoveredAndTyped) {
  ScratchDir dir;
  dir.write("day=2024-01-02/n=1/a.csv", "");
  dir.write("day=2024-01-03/n=12345678901/b.csv", "");
  dir.write("day=__HIVE_DEFAULT_PARTITION__/n=3/c.csv", "");
  const FileSet set = list_files({dir.path()});
  ASSERT_EQ(set.partition_schema->num_fields(), 2);
  EXPECT_EQ(set.partition_schema->field(0)->name(), "day");
  EXPECT_EQ(type_name(set.partition_schema->field(0)->type()), "DATE");
  // int and bigint folders widen to bigint.
  EXPECT_EQ(type_name(set.partition_schema->field(1)->type()), "BIGINT");
  EXPECT_EQ(set.partition_values.num_rows(), 3);
  EXPECT_EQ(set.partition_values.column(0).to_string(), "[2024-01-02 2024-01-03 null]");
  EXPECT_EQ(set.partition_values.column(1).to_string(), "[1 12345678901 3]");
}

TEST(FileSet, PartitionValuesAreDecodedAndCanStayStrings) {
  ScratchDir dir;
  dir.write("s=a%2Fb/x.csv", "");
  dir.write("s=plain/y.csv", "");
  const FileSet set = list_files({dir.path()});
  EXPECT_EQ(type_name(set.partition_schema->field(0)->type()), "STRING");
  EXPECT_EQ(set.partition_values.column(0).to_string(), "[\"a/b\" \"plain\"]");
  FileSetOptions untyped;
  untyped.infer_partition_types = false;
  dir.write("n=1/z.csv", "");
  dir.write("n=2/z.csv", "");
  const FileSet numbers = list_files({dir.at("n=1"), dir.at("n=2")}, untyped);
  // Each path given is a root of its own: below it there are no partition folders.
  EXPECT_EQ(numbers.partition_schema->num_fields(), 0);
  untyped.base_path = dir.path();
  const FileSet based = list_files({dir.at("n=*")}, untyped);
  ASSERT_EQ(based.partition_schema->num_fields(), 1);
  EXPECT_EQ(type_name(based.partition_schema->field(0)->type()), "STRING");
  FileSetOptions flat;
  flat.recursive_file_lookup = true;
  EXPECT_EQ(list_files({dir.path()}, flat).partition_schema->num_fields(), 0);
}

TEST(FileSet, ConflictingPartitionFoldersAreAnError) {
  ScratchDir dir;
  dir.write("a=1/x.csv", "");
  dir.write("b=1/y.csv", "");
  EXPECT_NE(error_message<InvalidArgument>([&] {
              list_files({dir.path()});
            }).find("Conflicting partition column names detected"),
            std::string::npos);
}

TEST(FileSet, PartitionTypesAreInferredAsSparkInfersThem) {
  const std::string utc = "UTC";
  EXPECT_EQ(type_name(infer_partition_type("7", utc)), "INT");
  EXPECT_EQ(type_name(infer_partition_type("-2147483649", utc)), "BIGINT");
  EXPECT_EQ(type_name(infer_partition_type("123456789012345678901234", utc)), "DECIMAL(24,0)");
  EXPECT_EQ(type_name(infer_partition_type("1.5", utc)), "DOUBLE");
  EXPECT_EQ(type_name(infer_partition_type("1e3", utc)), "DOUBLE");
  EXPECT_EQ(type_name(infer_partition_type("NaN", utc)), "DOUBLE");
  EXPECT_EQ(type_name(infer_partition_type("2024-01-02", utc)), "DATE");
  EXPECT_EQ(type_name(infer_partition_type("2024-02-30", utc)), "STRING");
  EXPECT_EQ(type_name(infer_partition_type("2024-01-02 10%3A20%3A30", utc)), "TIMESTAMP");
  EXPECT_EQ(type_name(infer_partition_type("2024-01-02 10%3A20%3A30.125", utc)), "TIMESTAMP");
  EXPECT_EQ(type_name(infer_partition_type("abc", utc)), "STRING");
  EXPECT_EQ(type_name(infer_partition_type("__HIVE_DEFAULT_PARTITION__", utc)), "VOID");
}

TEST(FileSet, PartitionTypesWidenAsSparkWidensThem) {
  auto wider = [](const TypePtr& a, const TypePtr& b) {
    return type_name(wider_partition_type(a, b));
  };
  EXPECT_EQ(wider(int32(), int64()), "BIGINT");
  EXPECT_EQ(wider(int32(), float64()), "DOUBLE");
  EXPECT_EQ(wider(int64(), float64()), "STRING");
  EXPECT_EQ(wider(decimal128(24, 0), int64()), "DECIMAL(24,0)");
  EXPECT_EQ(wider(decimal128(24, 0), float64()), "STRING");
  EXPECT_EQ(wider(date32(), parse_spark_type("timestamp", "UTC")), "TIMESTAMP");
  EXPECT_EQ(wider(date32(), int32()), "STRING");
  EXPECT_EQ(wider(null(), date32()), "DATE");
}

TEST(FileSet, PathNamesEscapeAsHiveEscapesThem) {
  EXPECT_EQ(escape_path_name("a/b:c=d%"), "a%2Fb%3Ac%3Dd%25");
  EXPECT_EQ(unescape_path_name(escape_path_name("x y\x01?")), "x y\x01?");
  EXPECT_EQ(unescape_path_name("100%"), "100%");
}

TEST(FileSet, SplitsAreSizedAsSparkSizesThem) {
  const std::vector<DataFile> files{{"/a", 10 << 20}, {"/b", 3 << 20}, {"/c.gz", 9 << 20}};
  SplitOptions options;
  options.parallelism = 2;
  // (10 + 3 + 9 MB + 3 * 4 MB open cost) / 2 threads = 17 MB per split, over every file.
  EXPECT_EQ(split_files(files, {0, 1, 2}, {true, true, false}, options).size(), 3U);
  options.max_split_bytes = 4 << 20;
  const std::vector<FileSplit> splits = split_files(files, {0, 2}, {true, true, false}, options);
  ASSERT_EQ(splits.size(), 4U);
  EXPECT_EQ(splits[0].offset, 0);
  EXPECT_EQ(splits[2].offset, 8 << 20);
  EXPECT_EQ(splits[2].length, 2 << 20);
  // The compressed file is one split, whatever its size.
  EXPECT_EQ(splits[3].file, 2U);
  EXPECT_EQ(splits[3].length, 9 << 20);
}

}  // namespace
}  // namespace bowstring::io
