#include "bowstring/memory/allocator.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "bowstring/util/error.h"

namespace bowstring {
namespace {

bool is_aligned(const void* ptr) { return reinterpret_cast<uintptr_t>(ptr) % kAlignment == 0; }

void exercise(Allocator& allocator) {
  for (int64_t size : {0, 1, 7, 64, 100, 4096, 1 << 20}) {
    uint8_t* ptr = allocator.allocate(size);
    ASSERT_NE(ptr, nullptr);
    EXPECT_TRUE(is_aligned(ptr)) << allocator.name() << " size " << size;
    std::memset(ptr, 0xAB, static_cast<size_t>(size));
    uint8_t* grown = allocator.reallocate(ptr, size, size * 2 + 10);
    EXPECT_TRUE(is_aligned(grown));
    for (int64_t i = 0; i < size; ++i) {
      ASSERT_EQ(grown[i], 0xAB) << "reallocate lost byte " << i;
    }
    allocator.free(grown, size * 2 + 10);
  }
  EXPECT_EQ(allocator.bytes_in_use(), 0);
}

TEST(AllocatorTest, SystemAllocatesAlignedMemory) {
  SystemAllocator allocator;
  exercise(allocator);
}

TEST(AllocatorTest, MimallocAllocatesAlignedMemoryWhenAvailable) {
  ASSERT_TRUE(MimallocAllocator::available())
      << "libmimalloc.so.2 should be installed by the build setup";
  MimallocAllocator allocator;
  exercise(allocator);
}

TEST(AllocatorTest, StatisticsTrackUsePeakAndCounts) {
  SystemAllocator allocator;
  uint8_t* a = allocator.allocate(100);
  uint8_t* b = allocator.allocate(50);
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.bytes_in_use, 150);
  EXPECT_EQ(stats.allocations, 2);
  EXPECT_EQ(stats.live_allocations, 2);
  a = allocator.reallocate(a, 100, 300);
  stats = allocator.stats();
  EXPECT_EQ(stats.bytes_in_use, 350);
  EXPECT_EQ(stats.peak_bytes, 350);
  EXPECT_EQ(stats.total_allocated, 350);
  allocator.free(a, 300);
  allocator.free(b, 50);
  stats = allocator.stats();
  EXPECT_EQ(stats.bytes_in_use, 0);
  EXPECT_EQ(stats.peak_bytes, 350);
  EXPECT_EQ(stats.live_allocations, 0);
}

TEST(AllocatorTest, NegativeSizeIsRejected) {
  SystemAllocator allocator;
  EXPECT_THROW(allocator.allocate(-1), InvalidArgument);
}

TEST(CheckedAllocatorTest, ReportsEachLeakWithItsSize) {
  CheckedAllocator checked(system_allocator());
  uint8_t* kept = checked.allocate(128);
  uint8_t* freed = checked.allocate(64);
  checked.free(freed, 64);
  const std::vector<std::string> leaks = checked.leaks();
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_NE(leaks[0].find("leaked 128 bytes"), std::string::npos) << leaks[0];
  EXPECT_THROW(checked.check_no_leaks(), Error);
  checked.free(kept, 128);
  EXPECT_TRUE(checked.leaks().empty());
  EXPECT_NO_THROW(checked.check_no_leaks());
}

TEST(CheckedAllocatorTest, CountsZeroByteAllocations) {
  CheckedAllocator checked(system_allocator());
  uint8_t* empty = checked.allocate(0);
  ASSERT_EQ(checked.leaks().size(), 1u);
  checked.free(empty, 0);
  EXPECT_TRUE(checked.leaks().empty());
}

TEST(CheckedAllocatorTest, RejectsDoubleFreeAndWrongSize) {
  CheckedAllocator checked(system_allocator());
  uint8_t* ptr = checked.allocate(32);
  EXPECT_THROW(checked.free(ptr, 16), InvalidArgument);
  checked.free(ptr, 32);
  EXPECT_THROW(checked.free(ptr, 32), InvalidArgument);
}

TEST(CheckedAllocatorTest, IsSafeAcrossThreads) {
  CheckedAllocator checked(system_allocator());
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&checked] {
      for (int i = 0; i < 2000; ++i) {
        uint8_t* ptr = checked.allocate(i % 200 + 1);
        ptr = checked.reallocate(ptr, i % 200 + 1, i % 300 + 1);
        checked.free(ptr, i % 300 + 1);
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_TRUE(checked.leaks().empty());
  EXPECT_EQ(checked.stats().allocations, 8000);
  EXPECT_EQ(checked.bytes_in_use(), 0);
}

TEST(BudgetedAllocatorTest, RefusesAllocationsPastTheBudgetAndLeaksNothing) {
  CheckedAllocator checked(system_allocator());
  BudgetedAllocator budget(&checked, 1000, "query budget");
  uint8_t* a = budget.allocate(600);
  try {
    budget.allocate(500);
    FAIL() << "expected OutOfMemory";
  } catch (const OutOfMemory& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("query budget"), std::string::npos) << message;
    EXPECT_NE(message.find("1000"), std::string::npos) << message;
    EXPECT_NE(message.find("600 bytes in use"), std::string::npos) << message;
  }
  EXPECT_THROW(budget.reallocate(a, 600, 1200), OutOfMemory);
  a = budget.reallocate(a, 600, 900);
  EXPECT_EQ(budget.bytes_in_use(), 900);
  a = budget.reallocate(a, 900, 100);
  uint8_t* b = budget.allocate(900);
  budget.free(a, 100);
  budget.free(b, 900);
  EXPECT_EQ(budget.bytes_in_use(), 0);
  EXPECT_TRUE(checked.leaks().empty());
}

TEST(BudgetedAllocatorTest, RefusesAHugeRequestItself) {
  // With bytes in use, adding a request near INT64_MAX to them must not overflow past the limit
  // check and hand the request to the inner allocator.
  BudgetedAllocator budget(default_allocator(), 1000, "small budget");
  uint8_t* held = budget.allocate(100);
  try {
    budget.allocate(std::numeric_limits<int64_t>::max());
    FAIL() << "expected OutOfMemory";
  } catch (const OutOfMemory& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("small budget"), std::string::npos) << message;
  }
  EXPECT_THROW(budget.reallocate(held, 100, std::numeric_limits<int64_t>::max()), OutOfMemory);
  EXPECT_EQ(budget.bytes_in_use(), 100);
  budget.free(held, 100);
}

TEST(DefaultAllocatorTest, LooksUpAllocatorsByName) {
  EXPECT_EQ(allocator_by_name("system"), system_allocator());
  EXPECT_EQ(allocator_by_name("mimalloc"), mimalloc_allocator());
  try {
    allocator_by_name("tcmalloc");
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("tcmalloc"), std::string::npos);
  }
}

TEST(DefaultAllocatorTest, TestsRunUnderTheCheckedAllocator) {
  EXPECT_EQ(default_allocator()->name().rfind("checked(", 0), 0u) << default_allocator()->name();
}

}  // namespace
}  // namespace bowstring
