#include "bowstring/udf/frame.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring::udf {
namespace {

using testing::error_message;

struct SocketPair {
  FrameSocket engine;
  FrameSocket worker;
};

SocketPair make_pair() {
  int fds[2];
  EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  return {FrameSocket(UniqueFd(fds[0]), "worker 7"), FrameSocket(UniqueFd(fds[1]), "engine")};
}

std::span<const uint8_t> bytes(std::string_view text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

// A raw header, for frames FrameSocket::write refuses to produce.
std::array<uint8_t, 16> header(uint32_t type, uint32_t reserved, uint64_t length) {
  std::array<uint8_t, 16> out{};
  for (int i = 0; i < 4; ++i) {
    out[i] = static_cast<uint8_t>(type >> (8 * i));
  }
  for (int i = 0; i < 4; ++i) {
    out[4 + i] = static_cast<uint8_t>(reserved >> (8 * i));
  }
  for (int i = 0; i < 8; ++i) {
    out[8 + i] = static_cast<uint8_t>(length >> (8 * i));
  }
  return out;
}

void send_raw(int socket, std::span<const uint8_t> data, std::vector<int> fds = {}) {
  iovec iov{const_cast<uint8_t*>(data.data()), data.size()};
  msghdr message{};
  message.msg_iov = &iov;
  message.msg_iovlen = 1;
  std::vector<char> control(CMSG_SPACE(sizeof(int) * fds.size()));
  if (!fds.empty()) {
    message.msg_control = control.data();
    message.msg_controllen = control.size();
    cmsghdr* cmsg = CMSG_FIRSTHDR(&message);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(cmsg), fds.data(), sizeof(int) * fds.size());
  }
  ASSERT_EQ(::sendmsg(socket, &message, MSG_NOSIGNAL), static_cast<ssize_t>(data.size()));
}

struct Pipe {
  UniqueFd read;
  UniqueFd write;
};

Pipe make_pipe() {
  int fds[2];
  EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

TEST(FrameTest, TypeNames) {
  EXPECT_EQ(frame_type_name(FrameType::kReady), "READY");
  EXPECT_EQ(frame_type_name(FrameType::kShmBatch), "SHM_BATCH");
  EXPECT_EQ(frame_type_name(FrameType::kEndOfData), "END_OF_DATA");
  EXPECT_EQ(frame_type_name(static_cast<FrameType>(99)), "frame type 99");
}

TEST(FrameTest, ExcerptsQuoteLongTextInPart) {
  EXPECT_EQ(excerpt("{}"), "{}");
  EXPECT_EQ(excerpt(std::string(200, 'a')), std::string(200, 'a'));
  EXPECT_EQ(excerpt(std::string(201, 'a')), std::string(200, 'a') + "... (201 bytes in all)");
}

TEST(FrameTest, RoundTripsTextAndEmptyPayloads) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  engine.write(FrameType::kWelcome, "{}");
  engine.write(FrameType::kEndOfData);
  Frame welcome = worker.read();
  EXPECT_EQ(welcome.type, FrameType::kWelcome);
  EXPECT_EQ(welcome.text(), "{}");
  EXPECT_FALSE(welcome.fd);
  Frame end = worker.read();
  EXPECT_EQ(end.type, FrameType::kEndOfData);
  ASSERT_NE(end.payload, nullptr);
  EXPECT_EQ(end.payload->size(), 0);
}

TEST(FrameTest, GathersPartsIntoOneAlignedPayload) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  const std::string first = "header:";
  const std::string second(1000, 'x');
  const std::string third = ":end";
  const std::array<std::span<const uint8_t>, 4> parts = {bytes(first), bytes(""), bytes(second),
                                                         bytes(third)};
  engine.write(FrameType::kCommand, parts);
  Frame frame = worker.read();
  EXPECT_EQ(frame.type, FrameType::kCommand);
  EXPECT_EQ(frame.text(), first + second + third);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(frame.payload->data()) % 64, 0u);
}

TEST(FrameTest, ManyPartsAreSentInSeveralCalls) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  std::vector<std::string> pieces;
  std::string expected;
  for (int i = 0; i < 3000; ++i) {
    pieces.push_back(std::to_string(i) + ",");
    expected += pieces.back();
  }
  std::vector<std::span<const uint8_t>> parts;
  parts.reserve(pieces.size());
  for (const auto& piece : pieces) {
    parts.push_back(bytes(piece));
  }
  std::thread writer([&] { engine.write(FrameType::kBatch, parts); });
  Frame frame = worker.read();
  writer.join();
  EXPECT_EQ(frame.text(), expected);
}

TEST(FrameTest, LargePayloadsCrossInPieces) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  std::vector<uint8_t> payload(int64_t{48} << 20);
  for (size_t i = 0; i < payload.size(); ++i) {
    payload[i] = static_cast<uint8_t>(i * 131 + 7);
  }
  const std::span<const uint8_t> part(payload);
  std::thread writer([&] { engine.write(FrameType::kBatch, {&part, 1}); });
  Frame frame = worker.read();
  writer.join();
  ASSERT_EQ(frame.payload->size(), static_cast<int64_t>(payload.size()));
  EXPECT_EQ(std::memcmp(frame.payload->data(), payload.data(), payload.size()), 0);
}

TEST(FrameTest, PayloadComesFromTheGivenAllocator) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  CheckedAllocator allocator(system_allocator());
  engine.write(FrameType::kBatch, std::string(100, 'b'));
  {
    Frame frame = worker.read(&allocator);
    EXPECT_EQ(frame.payload->allocator(), &allocator);
    EXPECT_EQ(allocator.bytes_in_use(), 128);
  }
  EXPECT_EQ(allocator.bytes_in_use(), 0);
}

TEST(FrameTest, PassesOneDescriptorWithItsFrame) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  Pipe pipe = make_pipe();
  engine.write(FrameType::kShmBatch, R"({"length": 5})", pipe.write.get());
  engine.write(FrameType::kBatch, "after");
  pipe.write.reset();

  Frame frame = worker.read();
  EXPECT_EQ(frame.type, FrameType::kShmBatch);
  EXPECT_EQ(frame.text(), R"({"length": 5})");
  ASSERT_TRUE(frame.fd);
  EXPECT_NE(::fcntl(frame.fd.get(), F_GETFD) & FD_CLOEXEC, 0);
  ASSERT_EQ(::write(frame.fd.get(), "hello", 5), 5);
  frame.fd.reset();
  char buffer[8] = {};
  EXPECT_EQ(::read(pipe.read.get(), buffer, sizeof(buffer)), 5);
  EXPECT_EQ(std::string(buffer, 5), "hello");

  Frame next = worker.read();
  EXPECT_EQ(next.text(), "after");
  EXPECT_FALSE(next.fd);
}

TEST(FrameTest, ClosedAtAFrameBoundary) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  worker.write(FrameType::kEndOfData);
  { FrameSocket closing = std::move(worker); }
  EXPECT_EQ(engine.read().type, FrameType::kEndOfData);
  EXPECT_EQ(error_message<IoError>([&] { engine.read(); }), "worker 7 closed the connection");
}

TEST(FrameTest, APeerClosingWithUnreadDataClosedTheConnection) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  engine.write(FrameType::kCommand, "never read");
  // Closing with unread data resets the connection (ECONNRESET rather than end of file).
  { FrameSocket closing = std::move(worker); }
  EXPECT_EQ(error_message<IoError>([&] { engine.read(); }), "worker 7 closed the connection");
}

TEST(FrameTest, ClosedInsideTheHeader) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  const auto raw = header(21, 0, 10);
  send_raw(worker.fd(), std::span(raw).first(5));
  { FrameSocket closing = std::move(worker); }
  EXPECT_EQ(error_message<IoError>([&] { engine.read(); }),
            "worker 7 closed the connection inside a frame header (after 5 of 16 bytes)");
}

TEST(FrameTest, ClosedInsideThePayload) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  const auto raw = header(21, 0, 100);
  send_raw(worker.fd(), raw);
  send_raw(worker.fd(), bytes("0123456789"));
  { FrameSocket closing = std::move(worker); }
  EXPECT_EQ(error_message<IoError>([&] { engine.read(); }),
            "worker 7 closed the connection inside a BATCH frame (after 10 of 100 payload bytes)");
}

TEST(FrameTest, RejectsAnUnknownType) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  send_raw(worker.fd(), header(99, 0, 0));
  EXPECT_EQ(error_message<IoError>([&] { engine.read(); }),
            "worker 7 sent a frame of unknown type 99 (payload length 0)");
}

TEST(FrameTest, RejectsANonzeroReservedWord) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  send_raw(worker.fd(), header(23, 1, 0));
  EXPECT_EQ(error_message<IoError>([&] { engine.read(); }),
            "worker 7 sent an END_OF_DATA frame whose reserved word is 1 instead of 0");
}

TEST(FrameTest, RejectsAnOversizePayload) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  send_raw(worker.fd(), header(21, 0, (uint64_t{1} << 40) + 1));
  EXPECT_EQ(error_message<IoError>([&] { engine.read(); }),
            "worker 7 sent a BATCH frame of 1099511627777 bytes, over the limit of 1099511627776");
  SocketPair more = make_pair();
  FrameSocket& engine2 = more.engine;
  FrameSocket& worker2 = more.worker;
  send_raw(worker2.fd(), header(21, 0, ~uint64_t{0}));
  EXPECT_NE(error_message<IoError>([&] { engine2.read(); }).find("over the limit"),
            std::string::npos);
}

TEST(FrameTest, APayloadTooLargeToHoldNamesThePeerAndTheFrame) {
  SocketPair sockets = make_pair();
  send_raw(sockets.worker.fd(), header(21, 0, 100000));
  BudgetedAllocator budget(default_allocator(), 4096, "test budget");
  const std::string message = error_message<OutOfMemory>([&] { sockets.engine.read(&budget); });
  EXPECT_EQ(
      message.rfind("worker 7 sent a BATCH frame of 100000 bytes, more than can be held: ", 0), 0u)
      << message;
}

TEST(FrameTest, RejectsTwoDescriptors) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  Pipe pipe = make_pipe();
  send_raw(worker.fd(), header(22, 0, 0), {pipe.read.get(), pipe.write.get()});
  EXPECT_EQ(error_message<IoError>([&] { engine.read(); }),
            "worker 7 sent a SHM_BATCH frame with 2 descriptors; a frame carries at most one");
}

TEST(FrameTest, RejectsADescriptorArrivingInsideThePayload) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  Pipe pipe = make_pipe();
  send_raw(worker.fd(), header(22, 0, 4), {pipe.read.get()});
  send_raw(worker.fd(), bytes("ab"));
  send_raw(worker.fd(), bytes("cd"), {pipe.write.get()});
  EXPECT_EQ(error_message<IoError>([&] { engine.read(); }),
            "worker 7 sent a SHM_BATCH frame with 2 descriptors; a frame carries at most one");
}

TEST(FrameTest, RejectsAMissingOrUnexpectedDescriptor) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  worker.write(FrameType::kShmBatch, "{}");
  EXPECT_EQ(error_message<IoError>([&] { engine.read(); }),
            "worker 7 sent a SHM_BATCH frame without its file descriptor");
  Pipe pipe = make_pipe();
  worker.write(FrameType::kBatch, "x", pipe.read.get());
  EXPECT_EQ(error_message<IoError>([&] { engine.read(); }),
            "worker 7 sent a BATCH frame with a file descriptor, which BATCH frames do not carry");
}

TEST(FrameTest, WritingToAClosedPeerThrows) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  FrameSocket& worker = sockets.worker;
  { FrameSocket closing = std::move(worker); }
  const std::string message =
      error_message<IoError>([&] { engine.write(FrameType::kBatch, "data"); });
  EXPECT_EQ(message.rfind("cannot send a BATCH frame of 4 bytes to worker 7: ", 0), 0u) << message;
}

TEST(FrameTest, ShutdownUnblocksAReader) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  std::string message;
  std::thread reader([&] { message = error_message<IoError>([&] { engine.read(); }); });
  engine.shutdown();
  reader.join();
  EXPECT_EQ(message, "worker 7 closed the connection");
}

TEST(FrameTest, ShutdownUnblocksAWriter) {
  SocketPair sockets = make_pair();
  FrameSocket& engine = sockets.engine;
  // Far more than the socket buffers hold, so the writer blocks until shut down.
  const std::vector<uint8_t> payload(int64_t{64} << 20);
  const std::span<const uint8_t> part(payload);
  std::string message;
  std::thread writer([&] {
    message = error_message<IoError>([&] { engine.write(FrameType::kBatch, {&part, 1}); });
  });
  engine.shutdown();
  writer.join();
  EXPECT_NE(message.find("cannot send a BATCH frame"), std::string::npos) << message;
}

}  // namespace
}  // namespace bowstring::udf
