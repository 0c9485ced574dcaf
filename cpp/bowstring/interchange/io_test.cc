#include "bowstring/interchange/io.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring {
namespace {

using testing::error_message;

constexpr int64_t kHuge = int64_t{1} << 60;

std::string pattern(int64_t size, uint32_t seed = 1) {
  std::mt19937 generator(seed);
  std::string bytes(static_cast<size_t>(size), '\0');
  for (char& byte : bytes) {
    byte = static_cast<char>(generator());
  }
  return bytes;
}

std::string to_string(const Buffer& buffer) {
  return {reinterpret_cast<const char*>(buffer.data()), static_cast<size_t>(buffer.size())};
}

std::shared_ptr<Buffer> buffer_of(const std::string& bytes) {
  return Buffer::copy_of(bytes.data(), static_cast<int64_t>(bytes.size()));
}

// Both ends of a pipe (or socket pair), closed at the end of the test unless handed over.
struct FdPair {
  int read_end = -1;
  int write_end = -1;

  static FdPair pipe() {
    int fds[2];
    EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);
    return {fds[0], fds[1]};
  }
  static FdPair socket_pair() {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    return {fds[0], fds[1]};
  }
  FdPair(int r, int w) : read_end(r), write_end(w) {}
  FdPair(const FdPair&) = delete;
  FdPair& operator=(const FdPair&) = delete;
  FdPair(FdPair&& other) noexcept
      : read_end(std::exchange(other.read_end, -1)),
        write_end(std::exchange(other.write_end, -1)) {}
  ~FdPair() {
    close_read();
    close_write();
  }
  void close_read() {
    if (read_end >= 0) {
      ::close(std::exchange(read_end, -1));
    }
  }
  void close_write() {
    if (write_end >= 0) {
      ::close(std::exchange(write_end, -1));
    }
  }
};

bool readable_now(int fd) {
  pollfd poll_fd{fd, POLLIN, 0};
  return ::poll(&poll_fd, 1, 0) == 1;
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = "/tmp/bowstring_io_test_XXXXXX";
    ASSERT_NE(::mkdtemp(name.data()), nullptr);
    dir_ = name;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  void write_file(const std::string& file, const std::string& bytes) const {
    std::ofstream out(file, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::string read_file(const std::string& file) const {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  std::filesystem::path dir_;
};

// --- Buffers ------------------------------------------------------------------------------

TEST(BufferOutputStream, CollectsWritesAndEmptiesOnFinish) {
  BufferOutputStream out;
  out.write("abc", 3);
  out.write(buffer_of("defg"));
  out.write(nullptr, 0);
  EXPECT_EQ(out.position(), 7);
  std::shared_ptr<Buffer> bytes = out.finish();
  EXPECT_EQ(to_string(*bytes), "abcdefg");
  EXPECT_EQ(out.position(), 0);
  EXPECT_EQ(out.finish()->size(), 0);
}

TEST(BufferOutputStream, NegativeSizeIsInvalid) {
  BufferOutputStream out;
  EXPECT_NE(error_message<InvalidArgument>([&] { out.write("x", -1); }).find("negative"),
            std::string::npos);
}

TEST(BufferInputStream, ReadsFrontToBackAndStopsAtTheEnd) {
  BufferInputStream in(buffer_of("0123456789"));
  char out[8] = {};
  EXPECT_EQ(in.read(out, 4), 4);
  EXPECT_EQ(std::string(out, 4), "0123");
  EXPECT_EQ(in.position(), 4);
  EXPECT_EQ(in.read(out, 8), 6);
  EXPECT_EQ(std::string(out, 6), "456789");
  EXPECT_EQ(in.read(out, 8), 0);
  EXPECT_EQ(in.position(), 10);
}

TEST(BufferInputStream, ReadBufferIsAZeroCopySlice) {
  std::shared_ptr<Buffer> source = buffer_of("0123456789");
  BufferInputStream in(source);
  std::shared_ptr<Buffer> first = in.read_buffer(3);
  EXPECT_EQ(first->data(), source->data());
  EXPECT_EQ(first->parent(), source);
  std::shared_ptr<Buffer> rest = in.read_buffer(kHuge);
  EXPECT_EQ(rest->data(), source->data() + 3);
  EXPECT_EQ(to_string(*rest), "3456789");
  EXPECT_EQ(in.read_buffer(5)->size(), 0);
}

TEST(BufferInputStream, NegativeSizesAreInvalid) {
  BufferInputStream in(buffer_of("abc"));
  char out[1];
  EXPECT_THROW(in.read(out, -1), InvalidArgument);
  EXPECT_THROW(in.read_buffer(-1), InvalidArgument);
  EXPECT_THROW(BufferInputStream(nullptr), InvalidArgument);
}

TEST(BufferSource, ReadAtSlicesAndChecksTheRange) {
  std::shared_ptr<Buffer> bytes = buffer_of("0123456789");
  auto source = std::make_shared<BufferSource>(bytes);
  EXPECT_TRUE(source->zero_copy());
  EXPECT_EQ(source->size(), 10);
  std::shared_ptr<Buffer> middle = source->read_at(2, 5);
  EXPECT_EQ(middle->data(), bytes->data() + 2);
  EXPECT_EQ(to_string(*middle), "23456");
  EXPECT_EQ(source->read_at(10, 0)->size(), 0);
  const std::string message = error_message<IoError>([&] { source->read_at(8, 3); });
  EXPECT_NE(message.find("3 bytes at offset 8"), std::string::npos) << message;
  EXPECT_NE(message.find("10 bytes"), std::string::npos) << message;
  EXPECT_THROW(source->read_at(-1, 1), IoError);
  EXPECT_THROW(source->read_at(1, -1), IoError);
  EXPECT_THROW(source->read_at(11, 0), IoError);
  // offset + length overflows int64_t; the check must not wrap around.
  EXPECT_THROW(source->read_at(5, INT64_MAX), IoError);
  EXPECT_THROW(source->read_at(INT64_MAX, INT64_MAX), IoError);
}

TEST(SourceInputStream, ReadsASourceFrontToBack) {
  std::shared_ptr<Buffer> bytes = buffer_of("0123456789");
  SourceInputStream in(std::make_shared<BufferSource>(bytes));
  char out[4];
  EXPECT_EQ(in.read(out, 4), 4);
  EXPECT_EQ(std::string(out, 4), "0123");
  std::shared_ptr<Buffer> rest = in.read_buffer(kHuge);
  EXPECT_EQ(rest->data(), bytes->data() + 4);
  EXPECT_EQ(rest->size(), 6);
  EXPECT_EQ(in.read(out, 4), 0);
  EXPECT_EQ(in.read_buffer(4)->size(), 0);
  EXPECT_EQ(in.position(), 10);
  EXPECT_THROW(in.read_buffer(-2), InvalidArgument);
}

// --- Files --------------------------------------------------------------------------------

using FileIo = TempDir;

TEST_F(FileIo, RoundTripThroughEverySource) {
  const std::string file = path("data.bin");
  const std::string bytes = pattern(300000);
  {
    FileOutputStream out(file, 1000);
    // Small writes are buffered, writes of the buffer's size or more go straight through.
    out.write(bytes.data(), 10);
    out.write(bytes.data() + 10, 990);
    out.write(bytes.data() + 1000, 5000);
    out.write(bytes.data() + 6000, 1);
    out.write(bytes.data() + 6001, static_cast<int64_t>(bytes.size()) - 6001);
    EXPECT_EQ(out.position(), static_cast<int64_t>(bytes.size()));
    out.close();
    out.close();
    EXPECT_EQ(out.fd(), -1);
  }
  EXPECT_EQ(read_file(file), bytes);

  std::shared_ptr<ReadableFile> readable = ReadableFile::open(file);
  EXPECT_FALSE(readable->zero_copy());
  EXPECT_EQ(readable->size(), static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(to_string(*readable->read_at(123, 4567)), bytes.substr(123, 4567));
  SourceInputStream from_file(readable);
  EXPECT_EQ(to_string(*from_file.read_buffer(kHuge)), bytes);

  std::shared_ptr<MemoryMappedFile> mapped = MemoryMappedFile::open(file);
  EXPECT_TRUE(mapped->zero_copy());
  EXPECT_EQ(to_string(*mapped->buffer()), bytes);
  EXPECT_EQ(to_string(*mapped->read_at(299990, 10)), bytes.substr(299990));

  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  FdInputStream in(fd, true);
  std::string head(100, '\0');
  EXPECT_EQ(in.read(head.data(), 100), 100);
  EXPECT_EQ(head, bytes.substr(0, 100));
  std::shared_ptr<Buffer> rest = in.read_buffer(kHuge);
  EXPECT_EQ(to_string(*rest), bytes.substr(100));
  EXPECT_EQ(in.position(), static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(in.read_buffer(10)->size(), 0);
}

TEST_F(FileIo, DestructorFlushes) {
  const std::string file = path("flushed.bin");
  {
    FileOutputStream out(file);
    out.write("buffered", 8);
  }
  EXPECT_EQ(read_file(file), "buffered");
}

TEST_F(FileIo, UnbufferedStream) {
  const std::string file = path("unbuffered.bin");
  FileOutputStream out(file, 0);
  out.write("ab", 2);
  out.write("c", 1);
  EXPECT_EQ(read_file(file), "abc");
  out.flush();
  EXPECT_EQ(out.position(), 3);
}

TEST_F(FileIo, WriteAfterCloseFails) {
  FileOutputStream out(path("closed.bin"));
  out.close();
  const std::string message = error_message<IoError>([&] { out.write("x", 1); });
  EXPECT_NE(message.find("closed.bin"), std::string::npos) << message;
  EXPECT_NE(message.find("closed"), std::string::npos) << message;
}

TEST_F(FileIo, MemoryMapOutlivesItsSource) {
  const std::string file = path("mapped.bin");
  const std::string bytes = pattern(100000, 7);
  write_file(file, bytes);
  std::shared_ptr<Buffer> slice;
  std::shared_ptr<Buffer> whole;
  {
    std::shared_ptr<MemoryMappedFile> mapped = MemoryMappedFile::open(file);
    whole = mapped->buffer();
    slice = mapped->read_at(5000, 60000);
    // Zero-copy: the slice points into the mapping.
    EXPECT_GE(slice->data(), whole->data());
    EXPECT_LE(slice->data() + slice->size(), whole->data() + whole->size());
    EXPECT_EQ(slice->data(), whole->data() + 5000);
  }
  whole.reset();
  EXPECT_EQ(to_string(*slice), bytes.substr(5000, 60000));
}

TEST_F(FileIo, EmptyFiles) {
  const std::string file = path("empty.bin");
  write_file(file, "");
  std::shared_ptr<MemoryMappedFile> mapped = MemoryMappedFile::open(file);
  EXPECT_EQ(mapped->size(), 0);
  EXPECT_EQ(mapped->read_at(0, 0)->size(), 0);
  EXPECT_NE(mapped->buffer()->data(), nullptr);
  EXPECT_THROW(mapped->read_at(0, 1), IoError);
  std::shared_ptr<ReadableFile> readable = ReadableFile::open(file);
  EXPECT_EQ(readable->size(), 0);
  EXPECT_EQ(readable->read_at(0, 0)->size(), 0);
  SourceInputStream in(readable);
  EXPECT_EQ(in.read_buffer(10)->size(), 0);
}

TEST_F(FileIo, MissingFilesNameThePathAndTheSystemError) {
  const std::string missing = path("missing.bin");
  for (const std::string& message :
       {error_message<IoError>([&] { MemoryMappedFile::open(missing); }),
        error_message<IoError>([&] { ReadableFile::open(missing); }),
        error_message<IoError>([&] { FileOutputStream{path("no/such/dir/out.bin")}; })}) {
    EXPECT_NE(message.find(dir_.string()), std::string::npos) << message;
    EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
  }
}

TEST_F(FileIo, DirectoriesAreNotFiles) {
  for (const std::string& message :
       {error_message<IoError>([&] { MemoryMappedFile::open(dir_.string()); }),
        error_message<IoError>([&] { ReadableFile::open(dir_.string()); })}) {
    EXPECT_NE(message.find("not a regular file"), std::string::npos) << message;
  }
}

TEST_F(FileIo, BadRangesNameOffsetLengthAndSize) {
  const std::string file = path("small.bin");
  write_file(file, "0123456789");
  std::shared_ptr<MemoryMappedFile> mapped = MemoryMappedFile::open(file);
  std::shared_ptr<ReadableFile> readable = ReadableFile::open(file);
  for (const RandomAccessSource* source :
       {static_cast<const RandomAccessSource*>(mapped.get()),
        static_cast<const RandomAccessSource*>(readable.get())}) {
    const std::string message = error_message<IoError>([&] { source->read_at(4, 7); });
    EXPECT_NE(message.find("7 bytes at offset 4 of " + file), std::string::npos) << message;
    EXPECT_NE(message.find("10 bytes"), std::string::npos) << message;
    EXPECT_THROW(source->read_at(1, INT64_MAX), IoError);
    EXPECT_THROW(source->read_at(INT64_MAX, 1), IoError);
    EXPECT_THROW(source->read_at(-1, 2), IoError);
  }
}

TEST_F(FileIo, FileThatShrankAfterOpening) {
  const std::string file = path("shrinking.bin");
  write_file(file, pattern(1000));
  std::shared_ptr<ReadableFile> readable = ReadableFile::open(file);
  std::filesystem::resize_file(file, 100);
  const std::string message = error_message<IoError>([&] { readable->read_at(50, 200); });
  EXPECT_NE(message.find("ends after 100 bytes"), std::string::npos) << message;
}

TEST_F(FileIo, NegativeBufferSizeClosesTheFile) {
  EXPECT_THROW((FileOutputStream{path("negative.bin"), -1}), InvalidArgument);
}

// --- Pipes and sockets --------------------------------------------------------------------

// Writes `bytes` through an FdOutputStream in pieces of varying size from another thread,
// while this thread reads them back with `read_all`.
template <typename ReadAll>
void round_trip(FdPair pair, const std::string& bytes, ReadAll read_all) {
  std::thread writer([&bytes, fd = std::exchange(pair.write_end, -1)] {
    FdOutputStream out(fd, true, 4096);
    std::mt19937 generator(3);
    size_t done = 0;
    while (done < bytes.size()) {
      const size_t piece = std::min<size_t>(bytes.size() - done, generator() % 20000);
      out.write(bytes.data() + done, static_cast<int64_t>(piece));
      done += piece;
    }
    out.close();
  });
  FdInputStream in(std::exchange(pair.read_end, -1), true);
  read_all(in);
  writer.join();
}

TEST(PipeIo, RoundTripWithReadBuffer) {
  const std::string bytes = pattern(3 << 20);
  round_trip(FdPair::pipe(), bytes, [&](FdInputStream& in) {
    std::shared_ptr<Buffer> first = in.read_buffer(1000);
    EXPECT_EQ(to_string(*first), bytes.substr(0, 1000));
    std::shared_ptr<Buffer> rest = in.read_buffer(kHuge);
    EXPECT_EQ(to_string(*rest), bytes.substr(1000));
    EXPECT_EQ(in.position(), static_cast<int64_t>(bytes.size()));
  });
}

TEST(SocketIo, RoundTripWithRead) {
  const std::string bytes = pattern(2 << 20, 5);
  round_trip(FdPair::socket_pair(), bytes, [&](FdInputStream& in) {
    std::string received(bytes.size() + 10, '\0');
    // One read returns everything up to the end of the stream, however the peer split it.
    EXPECT_EQ(in.read(received.data(), static_cast<int64_t>(received.size())),
              static_cast<int64_t>(bytes.size()));
    received.resize(bytes.size());
    EXPECT_EQ(received, bytes);
    EXPECT_EQ(in.read(received.data(), 1), 0);
  });
}

TEST(PipeIo, HostileReadBufferSizeAllocatesOnlyWhatArrives) {
  FdPair pair = FdPair::pipe();
  ASSERT_EQ(::write(pair.write_end, "short", 5), 5);
  pair.close_write();
  // Any allocation near the requested size would pass this budget.
  BudgetedAllocator budget(default_allocator(), 1 << 20);
  FdInputStream in(std::exchange(pair.read_end, -1), true, &budget);
  std::shared_ptr<Buffer> bytes = in.read_buffer(kHuge);
  EXPECT_EQ(to_string(*bytes), "short");
  EXPECT_LE(bytes->capacity(), 64);
  EXPECT_LE(budget.stats().peak_bytes, int64_t{64} * 1024);
}

TEST(PipeIo, LargeReadBufferGrowsWithTheData) {
  const std::string bytes = pattern(1 << 20, 9);
  FdPair pair = FdPair::pipe();
  std::thread writer([&bytes, fd = std::exchange(pair.write_end, -1)] {
    FdOutputStream out(fd, true);
    out.write(bytes.data(), static_cast<int64_t>(bytes.size()));
  });
  BudgetedAllocator budget(default_allocator(), 4 << 20);
  FdInputStream in(std::exchange(pair.read_end, -1), true, &budget);
  std::shared_ptr<Buffer> received = in.read_buffer(int64_t{1} << 40);
  writer.join();
  EXPECT_EQ(to_string(*received), bytes);
  // Doubling growth: at most twice the data, never the requested size.
  EXPECT_LE(budget.stats().peak_bytes, 2 * static_cast<int64_t>(bytes.size()) + int64_t{64} * 1024);
}

TEST(PipeIo, NegativeSizesAreInvalid) {
  FdPair pair = FdPair::pipe();
  FdInputStream in(pair.read_end, false);
  char out[1];
  EXPECT_THROW(in.read(out, -1), InvalidArgument);
  EXPECT_THROW(in.read_buffer(-1), InvalidArgument);
  FdOutputStream out_stream(pair.write_end, false);
  EXPECT_THROW(out_stream.write("x", -1), InvalidArgument);
}

TEST(PipeIo, BufferedBytesWaitForFlushUnlessLarge) {
  FdPair pair = FdPair::pipe();
  FdOutputStream out(pair.write_end, false, 16);
  out.write("small", 5);
  EXPECT_FALSE(readable_now(pair.read_end));
  out.flush();
  EXPECT_TRUE(readable_now(pair.read_end));
  char drained[64];
  EXPECT_EQ(::read(pair.read_end, drained, sizeof(drained)), 5);
  out.write("more", 4);
  // A write as large as the buffer sends the buffered bytes first, then itself.
  out.write("0123456789abcdef", 16);
  EXPECT_EQ(::read(pair.read_end, drained, sizeof(drained)), 20);
  EXPECT_EQ(std::string(drained, 20), "more0123456789abcdef");
  EXPECT_EQ(out.position(), 25);
  out.close();
  // Not owned: closing the stream leaves the descriptor open.
  EXPECT_EQ(::write(pair.write_end, "x", 1), 1);
}

bool sigpipe_pending() {
  sigset_t pending;
  sigemptyset(&pending);
  sigpending(&pending);
  return sigismember(&pending, SIGPIPE) == 1;
}

TEST(PipeIo, WriteToClosedPipeThrowsInsteadOfKillingTheProcess) {
  FdPair pair = FdPair::pipe();
  pair.close_read();
  FdOutputStream out(std::exchange(pair.write_end, -1), true, 0, "pipe to worker");
  const std::string message = error_message<IoError>([&] { out.write("lost", 4); });
  EXPECT_NE(message.find("pipe to worker"), std::string::npos) << message;
  EXPECT_NE(message.find("Broken pipe"), std::string::npos) << message;
  EXPECT_FALSE(sigpipe_pending());
}

TEST(PipeIo, FailedFlushDropsTheBufferedBytes) {
  FdPair pair = FdPair::pipe();
  pair.close_read();
  FdOutputStream out(std::exchange(pair.write_end, -1), true);
  out.write("buffered", 8);
  EXPECT_THROW(out.flush(), IoError);
  // Nothing left to flush: closing succeeds.
  out.close();
  EXPECT_EQ(out.fd(), -1);
}

TEST(PipeIo, CloseReportsTheFailedFinalFlushOnce) {
  FdPair pair = FdPair::pipe();
  pair.close_read();
  FdOutputStream out(std::exchange(pair.write_end, -1), true);
  out.write("buffered", 8);
  EXPECT_THROW(out.close(), IoError);
  EXPECT_EQ(out.fd(), -1);
  out.close();
}

TEST(SocketIo, WriteToClosedSocketThrows) {
  FdPair pair = FdPair::socket_pair();
  pair.close_read();
  FdOutputStream out(std::exchange(pair.write_end, -1), true);
  const std::string message = error_message<IoError>([&] {
    out.write("x", 1);
    out.flush();
  });
  EXPECT_NE(message.find("Broken pipe"), std::string::npos) << message;
  EXPECT_FALSE(sigpipe_pending());
}

TEST(PipeIo, DestructorSwallowsAFailedFlush) {
  FdPair pair = FdPair::pipe();
  pair.close_read();
  {
    FdOutputStream out(std::exchange(pair.write_end, -1), true);
    out.write("never read", 10);
  }
  EXPECT_FALSE(sigpipe_pending());
}

TEST(PipeIo, BadDescriptorsNameTheStream) {
  const std::string message =
      error_message<IoError>([] { FdOutputStream(-1, false, 16, "nowhere"); });
  EXPECT_NE(message.find("nowhere"), std::string::npos) << message;
  FdInputStream in(-1, false);
  char out[1];
  const std::string read_message = error_message<IoError>([&] { in.read(out, 1); });
  EXPECT_NE(read_message.find("fd -1"), std::string::npos) << read_message;
}

std::atomic<int> interruptions{0};

void count_interruption(int /*signal*/) { interruptions.fetch_add(1); }

TEST(PipeIo, ReadsRetryWhenInterruptedBySignals) {
  // No SA_RESTART: a blocked read returns EINTR when the signal arrives.
  struct sigaction action {};
  action.sa_handler = count_interruption;
  sigemptyset(&action.sa_mask);
  struct sigaction previous {};
  ASSERT_EQ(sigaction(SIGUSR1, &action, &previous), 0);
  interruptions = 0;

  FdPair pair = FdPair::pipe();
  std::atomic<bool> reading{false};
  std::string received;
  std::thread reader([&] {
    FdInputStream in(pair.read_end, false);
    reading = true;
    received = to_string(*in.read_buffer(6));
  });
  while (!reading) {
    std::this_thread::yield();
  }
  for (int i = 0; i < 5; ++i) {
    usleep(2000);
    pthread_kill(reader.native_handle(), SIGUSR1);
  }
  usleep(2000);
  ASSERT_EQ(::write(pair.write_end, "abc", 3), 3);
  pthread_kill(reader.native_handle(), SIGUSR1);
  usleep(2000);
  ASSERT_EQ(::write(pair.write_end, "def", 3), 3);
  reader.join();
  sigaction(SIGUSR1, &previous, nullptr);
  EXPECT_EQ(received, "abcdef");
  EXPECT_GT(interruptions.load(), 0);
}

}  // namespace
}  // namespace bowstring
