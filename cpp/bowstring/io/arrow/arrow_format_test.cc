#include "bowstring/io/arrow/arrow_format.h"

#include <gtest/gtest.h>

#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/scratch_dir.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring::io::arrow {
namespace {

using bowstring::testing::checked_default_allocator;
using bowstring::testing::error_message;
using bowstring::testing::int64s;
using bowstring::testing::ScratchDir;
using bowstring::testing::strings;

RecordBatch sample_batch(int64_t first) {
  const SchemaPtr columns = schema({field("id", int64()), field("name", utf8())});
  std::string name = "a";
  name += std::to_string(first);
  return RecordBatch(
      columns, 3, {int64s({first, first + 1, std::nullopt}), strings({name, std::nullopt, "c"})});
}

std::vector<RecordBatch> read_all(const ArrowFormat& format, const DataFile& file,
                                  std::vector<int> columns, int64_t batch_rows = 1024) {
  SplitRead read;
  read.file = &file;
  read.split = FileSplit{0, 0, file.size};
  read.data_schema = format.infer_schema({file});
  read.columns = std::move(columns);
  read.batch_rows = batch_rows;
  compute::ExecContext context;
  read.context = &context;
  return format.read(read);
}

TEST(ArrowFormat, WritesFilesAndReadsThemBackZeroCopy) {
  ScratchDir dir;
  const ArrowFormat format;
  const std::string path = dir.at("part.arrow");
  {
    const std::unique_ptr<FileWriter> writer = format.open_writer(path, sample_batch(0).schema());
    writer->write(sample_batch(0));
    writer->write(sample_batch(10));
    writer->close();
  }
  const DataFile file{path, static_cast<int64_t>(std::filesystem::file_size(path))};
  EXPECT_EQ(format.infer_schema({file})->field_names(), (std::vector<std::string>{"id", "name"}));
  const int64_t before = checked_default_allocator().bytes_in_use();
  const std::vector<RecordBatch> batches = read_all(format, file, {1, 0});
  // The arrays point into the mapped file: reading allocated no buffer.
  EXPECT_EQ(checked_default_allocator().bytes_in_use(), before);
  ASSERT_EQ(batches.size(), 2U);
  EXPECT_EQ(batches[1].schema()->field_names(), (std::vector<std::string>{"name", "id"}));
  EXPECT_EQ(batches[1].column(1).to_string(), "[10 11 null]");
  EXPECT_EQ(batches[1].column(0).to_string(), "[\"a10\" null \"c\"]");
  // Large batches come in slices of the rows asked for.
  EXPECT_EQ(read_all(format, file, {0}, 2).size(), 4U);
}

TEST(ArrowFormat, ReadsStreamsTooAndRejectsOtherFiles) {
  ScratchDir dir;
  const std::shared_ptr<Buffer> stream =
      ipc::write_stream(Table::from_batches(sample_batch(0).schema(), {sample_batch(5)}));
  const std::string path =
      dir.write("s.arrows", std::string_view(reinterpret_cast<const char*>(stream->data()),
                                             static_cast<size_t>(stream->size())));
  const ArrowFormat format;
  const DataFile file{path, stream->size()};
  const std::vector<RecordBatch> batches = read_all(format, file, {0});
  ASSERT_EQ(batches.size(), 1U);
  EXPECT_EQ(batches[0].column(0).to_string(), "[5 6 null]");

  const std::string text = dir.write("not.arrow", "id,name\n1,a\n");
  const DataFile bad{text, 12};
  EXPECT_NE(error_message<FormatError>([&] {
              format.infer_schema({bad});
            }).find("is not a readable Arrow IPC file or stream"),
            std::string::npos);
}

TEST(ArrowFormat, FilesWithOtherColumnsAreAnError) {
  ScratchDir dir;
  const ArrowFormat format(schema({field("x", int64())}));
  const std::string path = dir.at("other.arrow");
  {
    const std::unique_ptr<FileWriter> writer = format.open_writer(path, sample_batch(0).schema());
    writer->write(sample_batch(0));
    writer->close();
  }
  const DataFile file{path, static_cast<int64_t>(std::filesystem::file_size(path))};
  EXPECT_NE(error_message<FormatError>([&] {
              read_all(format, file, {0});
            }).find("has the columns struct<id:bigint,name:string>, not struct<x:bigint>"),
            std::string::npos);
}

}  // namespace
}  // namespace bowstring::io::arrow
