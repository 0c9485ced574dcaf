// Compression and decompression of large bodies on several threads: the bytes and the data
// must not depend on the number of threads, and errors must still name the buffer.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/interchange/body.h"
#include "bowstring/memory/allocator.h"
#include "bowstring/testing/ipc_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring::ipc {
namespace {

using testing::flatten;
using ::testing::HasSubstr;

/// Four columns of about 1.6 MB each, compressible, with nulls.
RecordBatch large_batch() {
  constexpr int64_t kRows = 200'000;
  Int64Builder ints;
  DoubleBuilder doubles;
  StringBuilder strings;
  Int32Builder small;
  for (int64_t i = 0; i < kRows; ++i) {
    ints.append(i % 1000);
    if (i % 7 == 0) {
      doubles.append_null();
    } else {
      doubles.append(static_cast<double>(i % 300) / 8.0);
    }
    strings.append("row-" + std::to_string(i % 5000));
    small.append(static_cast<int32_t>(i % 13));
  }
  return RecordBatch(
      schema({field("i", int64()), field("d", float64()), field("s", utf8()), field("k", int32())}),
      {ints.finish(), doubles.finish(), strings.finish(), small.finish()});
}

RecordBatch decode(const RecordBatch& batch, const EncodedBody& encoded,
                   const std::shared_ptr<Buffer>& body, int threads) {
  ReadOptions options;
  options.decompression_threads = threads;
  const DictionaryMemo memo({});
  return decode_record_batch(batch.schema(), encoded.header, body, memo, options,
                             "message 1 (record batch)");
}

TEST(ParallelCodecs, BytesAndDataDoNotDependOnThreads) {
  const RecordBatch batch = large_batch();
  for (const Compression compression : {Compression::kLz4Frame, Compression::kZstd}) {
    WriteOptions serial;
    serial.compression = compression;
    serial.compression_threads = 1;
    WriteOptions parallel = serial;
    parallel.compression_threads = 4;
    const EncodedBody one = encode_body(batch.columns(), batch.num_rows(), serial);
    const EncodedBody four = encode_body(batch.columns(), batch.num_rows(), parallel);
    ASSERT_EQ(one.body_length, four.body_length);
    const std::shared_ptr<Buffer> body = flatten(one);
    EXPECT_TRUE(body->equals(*flatten(four)));
    EXPECT_LT(one.body_length, 4 * 1'600'000);
    for (const int threads : {1, 2, 4}) {
      EXPECT_TRUE(decode(batch, one, body, threads).equals(batch)) << threads << " threads";
    }
  }
}

TEST(ParallelCodecs, ACorruptFrameIsReportedWithItsBuffer) {
  const RecordBatch batch = large_batch();
  WriteOptions options;
  options.compression = Compression::kZstd;
  const EncodedBody encoded = encode_body(batch.columns(), batch.num_rows(), options);
  MutableBuffer bytes(encoded.body_length, default_allocator());
  const std::shared_ptr<Buffer> good = flatten(encoded);
  std::memcpy(bytes.mutable_data(), good->data(), static_cast<size_t>(good->size()));
  // Buffer 3 holds the doubles; its length prefix now claims 64 bytes more than its frame has.
  const BufferRange range = encoded.header.buffers[3];
  int64_t claimed = 0;
  std::memcpy(&claimed, bytes.mutable_data() + range.offset, sizeof(claimed));
  claimed += 64;
  std::memcpy(bytes.mutable_data() + range.offset, &claimed, sizeof(claimed));
  const std::shared_ptr<Buffer> corrupt = bytes.finish();
  for (const int threads : {1, 4}) {
    const std::string message =
        testing::error_message<FormatError>([&] { decode(batch, encoded, corrupt, threads); });
    EXPECT_THAT(message, HasSubstr("message 1 (record batch)")) << threads << " threads";
    EXPECT_THAT(message, HasSubstr("buffer 3")) << threads << " threads";
  }
}

TEST(ParallelCodecs, AnErrorOnACompressingThreadReachesTheWriter) {
  const RecordBatch batch = large_batch();
  // Too small for any buffer's compressed copy: every compressing task runs out of memory.
  BudgetedAllocator budget(default_allocator(), 64 * 1024, "the test's budget");
  WriteOptions options;
  options.compression = Compression::kZstd;
  options.compression_threads = 4;
  options.allocator = &budget;
  const std::string message = testing::error_message<OutOfMemory>(
      [&] { encode_body(batch.columns(), batch.num_rows(), options); });
  EXPECT_THAT(message, HasSubstr("the test's budget"));
  EXPECT_EQ(budget.stats().bytes_in_use, 0);
  // The pool keeps working after the failure.
  options.allocator = default_allocator();
  const EncodedBody encoded = encode_body(batch.columns(), batch.num_rows(), options);
  EXPECT_TRUE(decode(batch, encoded, flatten(encoded), 4).equals(batch));
}

}  // namespace
}  // namespace bowstring::ipc
