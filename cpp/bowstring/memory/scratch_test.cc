#include "bowstring/memory/scratch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "bowstring/util/error.h"

namespace bowstring {
namespace {

TEST(ScratchVectorTest, DrawsItsElementsFromTheAllocator) {
  CheckedAllocator checked(system_allocator());
  {
    ScratchVector<uint64_t> values{StlAllocator<uint64_t>(&checked)};
    values.resize(1000);
    std::iota(values.begin(), values.end(), uint64_t{0});
    EXPECT_GE(checked.bytes_in_use(), 8000);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(values.data()) % kAlignment, 0U);
    values.push_back(1000);  // growth moves the elements to a new allocation
    EXPECT_EQ(values[999], 999U);
    EXPECT_EQ(values[1000], 1000U);
    ScratchVector<uint64_t> copy = values;  // a copy uses the same allocator
    EXPECT_EQ(copy.get_allocator().allocator(), &checked);
    EXPECT_TRUE(std::equal(copy.begin(), copy.end(), values.begin(), values.end()));
  }
  EXPECT_EQ(checked.bytes_in_use(), 0);
  EXPECT_TRUE(checked.leaks().empty());
}

TEST(ScratchVectorTest, ABudgetRefusesScratchPastIt) {
  BudgetedAllocator budget(system_allocator(), 4096, "sort budget");
  ScratchVector<uint64_t> values{StlAllocator<uint64_t>(&budget)};
  values.resize(256);
  EXPECT_THROW(values.resize(1024), OutOfMemory);
  EXPECT_EQ(values.size(), 256U);  // the failed growth kept the elements
  values.clear();
  values.shrink_to_fit();
  EXPECT_EQ(budget.bytes_in_use(), 0);
}

TEST(ScratchVectorTest, RefusesACountWhoseBytesOverflow) {
  StlAllocator<uint64_t> allocator(system_allocator());
  EXPECT_THROW(static_cast<void>(allocator.allocate(SIZE_MAX / 4)), std::bad_array_new_length);
}

}  // namespace
}  // namespace bowstring
