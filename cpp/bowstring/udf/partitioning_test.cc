#include "bowstring/udf/partitioning.h"

#include <gtest/gtest.h>

#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/table/table.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/ipc_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::udf {
namespace {

using testing::batch_of;
using testing::int64s;
using testing::strings;

// A batch of `rows` int64 values first, first + 1, ...
RecordBatch counting_batch(int64_t first, int64_t rows) {
  std::vector<std::optional<int64_t>> values(static_cast<size_t>(rows));
  std::iota(values.begin(), values.end(), first);
  return batch_of({{"v", int64s(values)}});
}

std::vector<int64_t> values_of(const std::vector<RecordBatch>& batches) {
  std::vector<int64_t> values;
  for (const RecordBatch& batch : batches) {
    const Array& column = batch.column(0);
    const int64_t* data = column.data()->values<int64_t>(1);
    values.insert(values.end(), data, data + column.length());
  }
  return values;
}

std::vector<int64_t> row_counts(const std::vector<RecordBatch>& batches) {
  std::vector<int64_t> counts;
  counts.reserve(batches.size());
  for (const RecordBatch& batch : batches) {
    counts.push_back(batch.num_rows());
  }
  return counts;
}

std::vector<int64_t> iota_values(int64_t first, int64_t count) {
  std::vector<int64_t> values(static_cast<size_t>(count));
  std::iota(values.begin(), values.end(), first);
  return values;
}

TEST(EstimateBatchBytes, FixedWidthColumnsCountTheirRowsOnly) {
  const RecordBatch batch = counting_batch(0, 1000);
  EXPECT_EQ(estimate_batch_bytes(batch), 8000);
  // A slice counts its own rows, not the buffers it shares with the whole batch.
  EXPECT_EQ(estimate_batch_bytes(batch.slice(990, 10)), 80);
  EXPECT_EQ(estimate_batch_bytes(batch.slice(0, 10)), 80);
}

TEST(EstimateBatchBytes, StringsCountTheirOffsetsAndTheBytesTheyAddress) {
  const RecordBatch batch =
      batch_of({{"s", strings({std::string(100, 'a'), std::nullopt, std::string(10, 'b'), "c"})}});
  // Validity (1 byte), 5 offsets of 4 bytes, 111 bytes of data.
  EXPECT_EQ(estimate_batch_bytes(batch), 1 + 20 + 111);
  EXPECT_EQ(estimate_batch_bytes(batch.slice(2, 2)), 1 + 12 + 11);
}

TEST(SplitBatch, CutsAtTheRowLimit) {
  const RecordBatch batch = counting_batch(0, 25);
  const std::vector<RecordBatch> slices = split_batch(batch, 10, int64_t{1} << 30);
  EXPECT_EQ(row_counts(slices), (std::vector<int64_t>{10, 10, 5}));
  EXPECT_EQ(values_of(slices), iota_values(0, 25));
  // Zero-copy: every slice points into the batch's buffer.
  for (const RecordBatch& slice : slices) {
    EXPECT_EQ(slice.column(0).data()->buffers[1], batch.column(0).data()->buffers[1]);
  }
}

TEST(SplitBatch, ABatchWithinTheLimitsIsKeptWhole) {
  const RecordBatch batch = counting_batch(0, 10);
  const std::vector<RecordBatch> slices = split_batch(batch, 10, 80);
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_TRUE(slices[0].equals(batch));
}

TEST(SplitBatch, CutsAtTheByteLimit) {
  // 8 bytes per row: 100 bytes hold 12 rows.
  const std::vector<RecordBatch> slices = split_batch(counting_batch(0, 30), 1000, 100);
  EXPECT_EQ(row_counts(slices), (std::vector<int64_t>{12, 12, 6}));
  EXPECT_EQ(values_of(slices), iota_values(0, 30));
}

TEST(SplitBatch, NeverCutsBelowOneRow) {
  const std::vector<RecordBatch> slices = split_batch(counting_batch(0, 3), 1000, 1);
  EXPECT_EQ(row_counts(slices), (std::vector<int64_t>{1, 1, 1}));
}

TEST(SplitBatch, TheTighterLimitWins) {
  EXPECT_EQ(row_counts(split_batch(counting_batch(0, 20), 5, 80)),
            (std::vector<int64_t>{5, 5, 5, 5}));
  EXPECT_EQ(row_counts(split_batch(counting_batch(0, 20), 15, 80)), (std::vector<int64_t>{10, 10}));
}

TEST(SplitBatch, AnEmptyBatchGivesNoSlice) {
  EXPECT_TRUE(split_batch(counting_batch(0, 0), 10, 100).empty());
}

TEST(SplitBatch, RefusesLimitsBelowOne) {
  EXPECT_NE(testing::error_message<InvalidArgument>([] {
              split_batch(counting_batch(0, 3), 0, 100);
            }).find("rows per batch must be positive, got 0"),
            std::string::npos);
  EXPECT_NE(testing::error_message<InvalidArgument>([] {
              split_batch(counting_batch(0, 3), 10, -1);
            }).find("bytes per batch must be positive, got -1"),
            std::string::npos);
}

// Reads every partition of `batches` cut into `partition_rows`.
std::vector<std::vector<RecordBatch>> partitions_of(const std::vector<RecordBatch>& batches,
                                                    int64_t partition_rows) {
  TableBatchReader reader(Table::from_batches(batches[0].schema(), batches));
  Partitioner partitioner(reader, partition_rows);
  std::vector<std::vector<RecordBatch>> partitions;
  while (std::optional<std::vector<RecordBatch>> partition = partitioner.next()) {
    partitions.push_back(std::move(*partition));
  }
  EXPECT_FALSE(partitioner.next()) << "a partitioner stays exhausted";
  return partitions;
}

TEST(Partitioner, CutsInsideInputBatches) {
  const std::vector<std::vector<RecordBatch>> partitions =
      partitions_of({counting_batch(0, 7), counting_batch(7, 3), counting_batch(10, 12)}, 5);
  ASSERT_EQ(partitions.size(), 5u);
  EXPECT_EQ(row_counts(partitions[0]), (std::vector<int64_t>{5}));
  EXPECT_EQ(row_counts(partitions[1]), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(row_counts(partitions[2]), (std::vector<int64_t>{5}));
  EXPECT_EQ(row_counts(partitions[3]), (std::vector<int64_t>{5}));
  EXPECT_EQ(row_counts(partitions[4]), (std::vector<int64_t>{2}));
  std::vector<RecordBatch> all;
  for (const std::vector<RecordBatch>& partition : partitions) {
    all.insert(all.end(), partition.begin(), partition.end());
  }
  EXPECT_EQ(values_of(all), iota_values(0, 22));
}

TEST(Partitioner, ExactBoundariesMakeNoEmptyPartition) {
  const std::vector<std::vector<RecordBatch>> partitions =
      partitions_of({counting_batch(0, 4), counting_batch(4, 4)}, 4);
  ASSERT_EQ(partitions.size(), 2u);
  EXPECT_EQ(values_of(partitions[1]), iota_values(4, 4));
}

TEST(Partitioner, JoinsSmallBatchesAndSkipsEmptyOnes) {
  const std::vector<std::vector<RecordBatch>> partitions = partitions_of(
      {counting_batch(0, 2), counting_batch(2, 0), counting_batch(2, 2), counting_batch(4, 1)},
      1000);
  ASSERT_EQ(partitions.size(), 1u);
  EXPECT_EQ(row_counts(partitions[0]), (std::vector<int64_t>{2, 2, 1}));
}

TEST(Partitioner, EmptyInputHasNoPartition) {
  EXPECT_TRUE(partitions_of({counting_batch(0, 0)}, 10).empty());
  TableBatchReader reader(Table::from_batches(counting_batch(0, 0).schema(), {}));
  Partitioner partitioner(reader, 10);
  EXPECT_FALSE(partitioner.next());
}

TEST(Partitioner, RefusesAPartitionSizeBelowOne) {
  TableBatchReader reader(Table::from_batches({counting_batch(0, 1)}));
  EXPECT_NE(testing::error_message<InvalidArgument>([&] {
              Partitioner(reader, 0);
            }).find("rows per partition must be positive"),
            std::string::npos);
}

}  // namespace
}  // namespace bowstring::udf
