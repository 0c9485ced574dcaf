#include "bowstring/udf/batch_frames.h"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bowstring/array/concatenate.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/table/table.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/ipc_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/udf/shared_memory.h"

namespace bowstring::udf {
namespace {

using testing::batch_of;

// Both ends of a connected socket pair.
struct SocketPair {
  SocketPair() {
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
      throw IoError("socketpair failed");
    }
    engine.emplace(UniqueFd(ends[0]), "test engine");
    worker.emplace(UniqueFd(ends[1]), "test worker");
  }
  std::optional<FrameSocket> engine;
  std::optional<FrameSocket> worker;
};

// How a batch travels: in a BATCH frame or in a memory file sent with a SHM_BATCH frame.
enum class Carrier { kSocket, kSharedMemory };
constexpr Carrier kCarriers[] = {Carrier::kSocket, Carrier::kSharedMemory};

const char* carrier_name(Carrier carrier) {
  return carrier == Carrier::kSocket ? "BATCH" : "SHM_BATCH";
}

void write_frame(FrameSocket& socket, const RecordBatch& batch, Carrier carrier) {
  if (carrier == Carrier::kSocket) {
    write_batch_frame(socket, batch);
  } else {
    write_shm_batch_frame(socket, batch);
  }
}

// Sends `batch` from one end on a thread of its own (a frame may be larger than the socket's
// buffer) and reads the frame at the other end.
Frame send(SocketPair& sockets, const RecordBatch& batch, Carrier carrier) {
  std::exception_ptr write_error;
  std::thread writer([&] {
    try {
      write_frame(*sockets.engine, batch, carrier);
    } catch (...) {
      write_error = std::current_exception();
    }
  });
  Frame frame = sockets.worker->read();
  writer.join();
  if (write_error) {
    std::rethrow_exception(write_error);
  }
  return frame;
}

// The descriptors open in this process.
int count_open_fds() {
  int count = 0;
  DIR* directory = ::opendir("/proc/self/fd");
  while (::readdir(directory) != nullptr) {
    ++count;
  }
  ::closedir(directory);
  return count;
}

int count_batch_mappings() {
  std::ifstream maps("/proc/self/maps");
  int count = 0;
  for (std::string line; std::getline(maps, line);) {
    count += line.find("/memfd:bowstring-batch ") != std::string::npos ? 1 : 0;
  }
  return count;
}

RecordBatch int64_batch(int64_t rows) {
  std::vector<std::optional<int64_t>> values(static_cast<size_t>(rows));
  std::iota(values.begin(), values.end(), 0);
  std::vector<std::optional<double>> halves;
  for (int64_t i = 0; i < rows; ++i) {
    halves.emplace_back(i % 7 == 0 ? std::nullopt : std::optional<double>(0.5 * i));
  }
  return batch_of({{"v", testing::int64s(values)}, {"h", testing::doubles(halves)}});
}

bool points_into(const Array& array, const Buffer& memory) {
  const uint8_t* values = array.data()->buffers[1]->data();
  return values >= memory.data() && values < memory.data() + memory.size();
}

TEST(BatchFrames, EverySampleTypeRoundTripsThroughBothTransports) {
  SocketPair sockets;
  const int fds_before = count_open_fds();
  for (const auto& [name, sample] : testing::sample_arrays()) {
    const Array array = concatenate(std::vector<Array>(5, sample));
    const RecordBatch batch = batch_of({{"values", array}});
    const std::vector<RecordBatch> cases = {batch, batch.slice(3, array.length() / 2),
                                            batch.slice(array.length() - 1)};
    for (const Carrier carrier : kCarriers) {
      for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(name + " through " + carrier_name(carrier) + ", case " + std::to_string(i));
        const RecordBatch received = read_batch_frame(send(sockets, cases[i], carrier));
        EXPECT_TRUE(received.equals(cases[i])) << received.to_string();
        received.validate_full();
      }
    }
  }
  EXPECT_EQ(count_open_fds(), fds_before);
  EXPECT_EQ(count_batch_mappings(), 0);
}

TEST(BatchFrames, ABatchFrameDecodesInPlace) {
  SocketPair sockets;
  const RecordBatch batch = int64_batch(100000);
  const Frame frame = send(sockets, batch, Carrier::kSocket);
  EXPECT_EQ(frame.type, FrameType::kBatch);
  EXPECT_FALSE(frame.fd);
  const RecordBatch received = read_batch_frame(frame);
  EXPECT_TRUE(received.equals(batch));
  EXPECT_TRUE(points_into(received.column(0), *frame.payload));
  EXPECT_TRUE(points_into(received.column(1), *frame.payload));
}

TEST(BatchFrames, AnShmBatchFrameDecodesInTheMappingWhichTheBatchKeepsAlive) {
  SocketPair sockets;
  const int fds_before = count_open_fds();
  const RecordBatch batch = int64_batch(100000);
  std::optional<RecordBatch> received;
  {
    const Frame frame = send(sockets, batch, Carrier::kSharedMemory);
    EXPECT_EQ(frame.type, FrameType::kShmBatch);
    ASSERT_TRUE(frame.fd);
    EXPECT_NE(::fcntl(frame.fd.get(), F_GETFD) & FD_CLOEXEC, 0);
    // Only the descriptor and the stream's length travel through the socket.
    EXPECT_EQ(frame.text(),
              R"({"length":)" + std::to_string(EncodedBatch::encode(batch).size()) + "}");
    received = read_batch_frame(frame);
  }
  // The frame and its descriptor are gone; the batch still reads the mapping.
  EXPECT_EQ(count_open_fds(), fds_before);
  EXPECT_EQ(count_batch_mappings(), 1);
  EXPECT_TRUE(received->equals(batch));
  const Array column = received->column(0);
  received.reset();
  EXPECT_EQ(count_batch_mappings(), 1);
  EXPECT_EQ(column.length(), 100000);
  EXPECT_EQ(column.data()->values<int64_t>(1)[99999], 99999);
  EXPECT_EQ(column.data()->buffers[1]->allocator(), nullptr);
}

TEST(BatchFrames, MappingsAreReleasedWithTheirBatches) {
  SocketPair sockets;
  const RecordBatch batch = int64_batch(1000);
  {
    std::vector<RecordBatch> received;
    received.reserve(5);
    for (int i = 0; i < 5; ++i) {
      received.push_back(read_batch_frame(send(sockets, batch, Carrier::kSharedMemory)));
    }
    EXPECT_EQ(count_batch_mappings(), 5);
  }
  EXPECT_EQ(count_batch_mappings(), 0);
}

TEST(EncodedBatch, IsTheStreamTheIpcWriterWrites) {
  for (const RecordBatch& batch : {int64_batch(10), int64_batch(100000).slice(777, 5000)}) {
    const EncodedBatch encoded = EncodedBatch::encode(batch);
    const std::shared_ptr<Buffer> expected = ipc::write_stream(Table::from_batches({batch}));
    const std::shared_ptr<Buffer> bytes = encoded.to_buffer();
    EXPECT_EQ(encoded.size(), expected->size());
    EXPECT_TRUE(bytes->equals(*expected));
    int64_t total = 0;
    for (const std::span<const uint8_t> part : encoded.parts()) {
      total += static_cast<int64_t>(part.size());
    }
    EXPECT_EQ(total, encoded.size());
  }
}

TEST(EncodedBatch, ReferencesLargeColumnBuffersInsteadOfCopyingThem) {
  const RecordBatch batch = int64_batch(100000);
  const EncodedBatch encoded = EncodedBatch::encode(batch);
  const uint8_t* values = batch.column(0).data()->buffers[1]->data();
  bool referenced = false;
  for (const std::span<const uint8_t> part : encoded.parts()) {
    referenced = referenced || part.data() == values;
  }
  EXPECT_TRUE(referenced);
  // Metadata and padding come in a few parts, not one per write.
  EXPECT_LE(encoded.parts().size(), 8u);
}

TEST(EncodedBatch, FillsASealedMemoryFileOfExactlyItsSize) {
  const RecordBatch batch = int64_batch(3000);
  const EncodedBatch encoded = EncodedBatch::encode(batch);
  const UniqueFd fd = encoded.to_shared_memory();
  EXPECT_EQ(::lseek(fd.get(), 0, SEEK_END), encoded.size());
  EXPECT_NE(::fcntl(fd.get(), F_GET_SEALS) & F_SEAL_WRITE, 0);
  const std::shared_ptr<Buffer> mapped = map_shared_memory(fd.get(), encoded.size(), "test");
  EXPECT_TRUE(mapped->equals(*encoded.to_buffer()));
}

// A frame made by hand.
Frame frame_of(FrameType type, std::shared_ptr<Buffer> payload, UniqueFd fd = {}) {
  return Frame{type, std::move(payload), std::move(fd)};
}

std::shared_ptr<Buffer> text(const std::string& value) {
  return Buffer::copy_of(value.data(), static_cast<int64_t>(value.size()));
}

std::shared_ptr<Buffer> concatenated(const Buffer& first, const Buffer& second) {
  MutableBuffer bytes(first.size() + second.size(), default_allocator());
  std::memcpy(bytes.mutable_data(), first.data(), static_cast<size_t>(first.size()));
  std::memcpy(bytes.mutable_data() + first.size(), second.data(),
              static_cast<size_t>(second.size()));
  return bytes.finish();
}

TEST(ReadBatchFrame, RefusesStreamsThatAreNotExactlyOneBatch) {
  const RecordBatch batch = int64_batch(3);
  const std::shared_ptr<Buffer> one = EncodedBatch::encode(batch).to_buffer();
  const std::shared_ptr<Buffer> two = ipc::write_stream(Table::from_batches({batch, batch}));
  const std::shared_ptr<Buffer> none = ipc::write_stream(Table::from_batches(batch.schema(), {}));
  EXPECT_EQ(testing::error_message<FormatError>(
                [&] { read_batch_frame(frame_of(FrameType::kBatch, two)); }),
            "BATCH stream holds more than one record batch");
  EXPECT_EQ(testing::error_message<FormatError>(
                [&] { read_batch_frame(frame_of(FrameType::kBatch, none)); }),
            "BATCH stream holds no record batch");
  const std::shared_ptr<Buffer> trailing = concatenated(*one, *text("junk"));
  EXPECT_EQ(testing::error_message<FormatError>(
                [&] { read_batch_frame(frame_of(FrameType::kBatch, trailing)); }),
            "BATCH stream ends after " + std::to_string(one->size()) +
                " bytes but the frame holds " + std::to_string(one->size() + 4) + " bytes");
  EXPECT_THROW(read_batch_frame(frame_of(FrameType::kBatch, text("not a stream"))), FormatError);
}

TEST(ReadBatchFrame, RefusesFramesOfOtherKindsAndMisplacedDescriptors) {
  const RecordBatch batch = int64_batch(3);
  const std::shared_ptr<Buffer> stream = EncodedBatch::encode(batch).to_buffer();
  EXPECT_EQ(testing::error_message<FormatError>(
                [&] { read_batch_frame(frame_of(FrameType::kComplete, text("{}"))); }),
            "expected a BATCH or SHM_BATCH frame, got COMPLETE");
  EXPECT_EQ(testing::error_message<FormatError>([&] {
              read_batch_frame(frame_of(FrameType::kBatch, stream,
                                        create_shared_memory("bowstring-test-extra", 0)));
            }),
            "BATCH frame carries a file descriptor");
  EXPECT_EQ(testing::error_message<FormatError>(
                [&] { read_batch_frame(frame_of(FrameType::kShmBatch, text(R"({"length":1})"))); }),
            "SHM_BATCH frame carries no file descriptor");
}

TEST(ReadBatchFrame, RefusesBadShmBatchPayloads) {
  const EncodedBatch encoded = EncodedBatch::encode(int64_batch(3));
  const auto read_shm = [&](const std::string& payload) {
    read_batch_frame(frame_of(FrameType::kShmBatch, text(payload), encoded.to_shared_memory()));
  };
  EXPECT_NE(testing::error_message<FormatError>([&] {
              read_shm("{");
            }).find("SHM_BATCH payload is not JSON"),
            std::string::npos);
  EXPECT_EQ(testing::error_message<FormatError>([&] { read_shm(R"({"length":"7"})"); }),
            R"(SHM_BATCH payload has no integer "length": {"length":"7"})");
  EXPECT_EQ(testing::error_message<FormatError>([&] { read_shm(R"({"length":-7})"); }),
            "SHM_BATCH payload claims a negative length: -7");
  const std::string too_long = R"({"length":)" + std::to_string(encoded.size() + 1) + "}";
  EXPECT_EQ(testing::error_message<IoError>([&] { read_shm(too_long); }),
            "SHM_BATCH frame claims " + std::to_string(encoded.size() + 1) +
                " bytes but its memory file holds " + std::to_string(encoded.size()) + " bytes");
  const std::string too_short = R"({"length":)" + std::to_string(encoded.size() - 8) + "}";
  EXPECT_THROW(read_shm(too_short), FormatError);
  EXPECT_EQ(count_batch_mappings(), 0);
}

}  // namespace
}  // namespace bowstring::udf
