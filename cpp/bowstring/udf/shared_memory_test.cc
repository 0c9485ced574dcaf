#include "bowstring/udf/shared_memory.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring::udf {
namespace {

// Mappings of the memory file named `name` in this process.
int count_mappings(const std::string& name) {
  std::ifstream maps("/proc/self/maps");
  int count = 0;
  for (std::string line; std::getline(maps, line);) {
    if (line.find("/memfd:" + name + " ") != std::string::npos) {
      ++count;
    }
  }
  return count;
}

// A sealed memory file named `name` holding `content`.
UniqueFd memory_file_with(const std::string& name, const std::string& content) {
  UniqueFd fd = create_shared_memory(name, static_cast<int64_t>(content.size()));
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(content.data()),
                                       content.size());
  write_shared_memory(fd.get(), std::vector<std::span<const uint8_t>>{bytes});
  seal_shared_memory(fd.get());
  return fd;
}

TEST(SharedMemory, IsCloseOnExecAndSizedExactly) {
  const UniqueFd fd = create_shared_memory("bowstring-test-size", 12345);
  EXPECT_NE(::fcntl(fd.get(), F_GETFD) & FD_CLOEXEC, 0);
  EXPECT_EQ(::lseek(fd.get(), 0, SEEK_END), 12345);
}

TEST(SharedMemory, MapsWhatWasWritten) {
  const std::string content = "stream bytes " + std::string(10000, 'x');
  const UniqueFd fd = memory_file_with("bowstring-test-content", content);
  const std::shared_ptr<Buffer> mapped =
      map_shared_memory(fd.get(), static_cast<int64_t>(content.size()), "test file");
  ASSERT_EQ(mapped->size(), static_cast<int64_t>(content.size()));
  EXPECT_EQ(std::string(mapped->data_as<char>(), content.size()), content);
  // Mapped memory belongs to no allocator.
  EXPECT_EQ(mapped->allocator(), nullptr);
}

TEST(SharedMemory, APrefixCanBeMapped) {
  const UniqueFd fd = memory_file_with("bowstring-test-prefix", "0123456789");
  const std::shared_ptr<Buffer> mapped = map_shared_memory(fd.get(), 4, "test file");
  EXPECT_EQ(std::string(mapped->data_as<char>(), 4), "0123");
}

TEST(SharedMemory, BuffersKeepTheMappingAliveAndTheLastOneUnmapsIt) {
  const std::string name = "bowstring-test-lifetime";
  std::shared_ptr<Buffer> slice;
  {
    UniqueFd fd = memory_file_with(name, std::string(100000, 'y'));
    std::shared_ptr<Buffer> mapped = map_shared_memory(fd.get(), 100000, "test file");
    EXPECT_EQ(count_mappings(name), 1);
    fd.reset();
    slice = Buffer::slice(mapped, 99990, 10);
  }
  // The descriptor and the whole buffer are gone; the slice still reads the mapping.
  EXPECT_EQ(count_mappings(name), 1);
  EXPECT_EQ(std::string(slice->data_as<char>(), 10), std::string(10, 'y'));
  slice.reset();
  EXPECT_EQ(count_mappings(name), 0);
}

TEST(SharedMemory, WritesPartsOneAfterTheOther) {
  // More parts than one system call takes, some of them empty.
  std::string expected;
  std::vector<std::string> pieces;
  for (int i = 0; i < 3000; ++i) {
    pieces.push_back(i % 7 == 0 ? "" : std::to_string(i) + ",");
    expected += pieces.back();
  }
  std::vector<std::span<const uint8_t>> parts;
  parts.reserve(pieces.size());
  for (const std::string& piece : pieces) {
    parts.emplace_back(reinterpret_cast<const uint8_t*>(piece.data()), piece.size());
  }
  const std::string name = "bowstring-test-parts";
  const UniqueFd fd = create_shared_memory(name, static_cast<int64_t>(expected.size()));
  write_shared_memory(fd.get(), parts);
  seal_shared_memory(fd.get());
  // Written through the file, not through a mapping of it.
  EXPECT_EQ(count_mappings(name), 0);
  EXPECT_EQ(::lseek(fd.get(), 0, SEEK_END), static_cast<off_t>(expected.size()));
  const std::shared_ptr<Buffer> mapped =
      map_shared_memory(fd.get(), static_cast<int64_t>(expected.size()), "test file");
  EXPECT_EQ(std::string(mapped->data_as<char>(), expected.size()), expected);
}

TEST(SharedMemory, ASealedFileCannotChange) {
  const UniqueFd fd = memory_file_with("bowstring-test-sealed", "fixed");
  EXPECT_NE(::ftruncate(fd.get(), 0), 0);
  EXPECT_NE(::ftruncate(fd.get(), 4096), 0);
  EXPECT_NE(::pwrite(fd.get(), "x", 1, 0), 1);
  EXPECT_NE(::fcntl(fd.get(), F_GET_SEALS) & F_SEAL_WRITE, 0);
}

TEST(SharedMemory, RefusesALengthPastTheEndOfTheFile) {
  const UniqueFd fd = memory_file_with("bowstring-test-short", "short");
  EXPECT_EQ(testing::error_message<IoError>([&] { map_shared_memory(fd.get(), 6, "frame 7"); }),
            "frame 7 claims 6 bytes but its memory file holds 5 bytes");
  EXPECT_EQ(testing::error_message<IoError>([&] { map_shared_memory(fd.get(), -1, "frame 7"); }),
            "frame 7 claims a negative length of -1 bytes");
}

TEST(SharedMemory, RefusesAFileThatCouldStillShrinkOrChange) {
  const UniqueFd fd = create_shared_memory("bowstring-test-unsealed", 64);
  EXPECT_EQ(testing::error_message<IoError>([&] { map_shared_memory(fd.get(), 64, "frame 9"); }),
            "the memory file of frame 9 is not sealed against shrinking and writing");
  ASSERT_EQ(::fcntl(fd.get(), F_ADD_SEALS, F_SEAL_SHRINK), 0);
  EXPECT_EQ(testing::error_message<IoError>([&] { map_shared_memory(fd.get(), 64, "frame 9"); }),
            "the memory file of frame 9 is not sealed against shrinking and writing");
  ASSERT_EQ(::fcntl(fd.get(), F_ADD_SEALS, F_SEAL_WRITE), 0);
  EXPECT_EQ(map_shared_memory(fd.get(), 64, "frame 9")->size(), 64);
}

TEST(SharedMemory, RefusesADescriptorThatIsNoFile) {
  int ends[2];
  ASSERT_EQ(::pipe2(ends, O_CLOEXEC), 0);
  const UniqueFd read_end(ends[0]);
  const UniqueFd write_end(ends[1]);
  EXPECT_EQ(testing::error_message<IoError>([&] { map_shared_memory(ends[0], 1, "frame 8"); }),
            "the descriptor of frame 8 is not a memory file");
}

TEST(SharedMemory, AnEmptyLengthMapsNothing) {
  const std::string name = "bowstring-test-empty";
  const UniqueFd fd = create_shared_memory(name, 0);
  seal_shared_memory(fd.get());
  const std::shared_ptr<Buffer> mapped = map_shared_memory(fd.get(), 0, "test file");
  EXPECT_EQ(mapped->size(), 0);
  EXPECT_NE(mapped->data(), nullptr);
  EXPECT_EQ(count_mappings(name), 0);
}

}  // namespace
}  // namespace bowstring::udf
