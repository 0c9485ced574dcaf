#include "bowstring/memory/buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include "bowstring/memory/buffer_builder.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring {
namespace {

bool padding_is_zero(const Buffer& buffer) {
  for (int64_t i = buffer.size(); i < padded_size(buffer.size()); ++i) {
    if (buffer.data()[i] != 0) {
      return false;
    }
  }
  return true;
}

TEST(BufferTest, CopyOfIsPaddedAndZeroed) {
  const char text[] = "apache arrow";
  std::shared_ptr<Buffer> buffer = Buffer::copy_of(text, 12);
  EXPECT_EQ(buffer->size(), 12);
  EXPECT_GE(buffer->capacity(), 64);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer->data()) % kAlignment, 0u);
  EXPECT_EQ(std::memcmp(buffer->data(), text, 12), 0);
  EXPECT_TRUE(padding_is_zero(*buffer));
  EXPECT_EQ(buffer->allocator(), default_allocator());
}

TEST(BufferTest, IsFreedWhenTheLastReferenceGoes) {
  CheckedAllocator checked(system_allocator());
  std::shared_ptr<Buffer> first = Buffer::zeros(100, &checked);
  std::shared_ptr<Buffer> second = first;
  first.reset();
  EXPECT_EQ(checked.leaks().size(), 1u);
  second.reset();
  EXPECT_TRUE(checked.leaks().empty());
}

TEST(BufferTest, SliceKeepsItsParentAlive) {
  CheckedAllocator checked(system_allocator());
  const char text[] = "hello, world";
  std::shared_ptr<Buffer> parent = Buffer::copy_of(text, 12, &checked);
  std::shared_ptr<Buffer> slice = Buffer::slice(parent, 7, 5);
  std::shared_ptr<Buffer> nested = Buffer::slice(slice, 1, 3);
  parent.reset();
  slice.reset();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(nested->data()), 3), "orl");
  EXPECT_EQ(checked.leaks().size(), 1u);
  nested.reset();
  EXPECT_TRUE(checked.leaks().empty());
}

TEST(BufferTest, SliceOutOfRangeThrows) {
  std::shared_ptr<Buffer> buffer = Buffer::zeros(10);
  EXPECT_THROW(Buffer::slice(buffer, 5, 6), IndexError);
  EXPECT_THROW(Buffer::slice(buffer, -1, 2), IndexError);
  EXPECT_NO_THROW(Buffer::slice(buffer, 10, 0));
}

TEST(BufferTest, WrapKeepsTheOwnerAlive) {
  auto owner = std::make_shared<std::vector<uint8_t>>(std::vector<uint8_t>{1, 2, 3});
  std::weak_ptr<std::vector<uint8_t>> watch = owner;
  std::shared_ptr<Buffer> wrapped = Buffer::wrap(owner->data(), 3, owner);
  owner.reset();
  EXPECT_FALSE(watch.expired());
  EXPECT_EQ(wrapped->data()[2], 3);
  EXPECT_EQ(wrapped->allocator(), nullptr);
  wrapped.reset();
  EXPECT_TRUE(watch.expired());
}

TEST(BufferTest, EqualsAndHex) {
  const uint8_t bytes[] = {0x01, 0xff, 0x00, 0x10};
  std::shared_ptr<Buffer> a = Buffer::copy_of(bytes, 4);
  std::shared_ptr<Buffer> b = Buffer::copy_of(bytes, 4);
  std::shared_ptr<Buffer> c = Buffer::copy_of(bytes, 3);
  EXPECT_TRUE(a->equals(*b));
  EXPECT_FALSE(a->equals(*c));
  EXPECT_EQ(a->to_hex(), "01 ff 00 10");
  EXPECT_EQ(a->to_hex(2), "01 ff ...");
  EXPECT_EQ(a->to_hex(0), "...");
  EXPECT_EQ(a->to_hex(-1), "...") << "a negative limit shows nothing, as 0 does";
  EXPECT_EQ(a->to_hex(-5), "...");
  EXPECT_EQ(Buffer::copy_of(bytes, 0)->to_hex(), "");
}

TEST(BufferTest, EmptyBuffersAreEqualWhereverTheyPoint) {
  // Memory imported from elsewhere may have no address when it is empty (a null buffer of the C
  // Data Interface); comparing it must not pass that null pointer to memcmp.
  std::shared_ptr<Buffer> imported = Buffer::wrap(nullptr, 0, nullptr);
  std::shared_ptr<Buffer> owned = Buffer::copy_of("", 0);
  EXPECT_TRUE(imported->equals(*owned));
  EXPECT_TRUE(owned->equals(*imported));
}

TEST(BufferTest, SharedAcrossThreadsIsFreedOnce) {
  std::shared_ptr<Buffer> buffer = Buffer::zeros(1 << 16);
  std::vector<std::thread> threads;
  threads.reserve(4);
  std::atomic<int64_t> sum{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([copy = buffer, &sum]() mutable {
      for (int i = 0; i < 1000; ++i) {
        std::shared_ptr<Buffer> slice = Buffer::slice(copy, i, 64);
        sum += slice->data()[0];
      }
      copy.reset();
    });
  }
  buffer.reset();
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(sum.load(), 0);
}

TEST(MutableBufferTest, ResizeZeroesGrowthAndFinishFreezes) {
  MutableBuffer buffer;
  buffer.resize(10);
  std::memset(buffer.mutable_data(), 7, 10);
  buffer.resize(4);
  buffer.resize(200);
  for (int64_t i = 4; i < 200; ++i) {
    ASSERT_EQ(buffer.data()[i], 0) << i;
  }
  std::shared_ptr<Buffer> frozen = buffer.finish();
  EXPECT_EQ(frozen->size(), 200);
  EXPECT_EQ(frozen->data()[3], 7);
  EXPECT_TRUE(padding_is_zero(*frozen));
  EXPECT_EQ(buffer.size(), 0);
  EXPECT_EQ(buffer.capacity(), 0);
}

TEST(MutableBufferTest, ShrinkToFitReleasesCapacity) {
  MutableBuffer buffer;
  buffer.reserve(4096);
  buffer.resize(10);
  buffer.shrink_to_fit();
  EXPECT_EQ(buffer.capacity(), 64);
}

TEST(MutableBufferTest, FailedGrowthUnderABudgetLeavesTheBufferIntact) {
  BudgetedAllocator budget(default_allocator(), 1024, "test budget");
  MutableBuffer buffer(&budget);
  buffer.resize(100);
  buffer.mutable_data()[99] = 42;
  EXPECT_THROW(buffer.resize(4096), OutOfMemory);
  EXPECT_EQ(buffer.size(), 100);
  EXPECT_EQ(buffer.data()[99], 42);
}

TEST(BufferBuilderTest, AppendsWithAmortizedGrowth) {
  BufferBuilder builder;
  int reallocations = 0;
  int64_t last_capacity = 0;
  for (int i = 0; i < 100000; ++i) {
    const uint8_t byte = static_cast<uint8_t>(i);
    builder.append(&byte, 1);
    if (builder.capacity() != last_capacity) {
      ++reallocations;
      last_capacity = builder.capacity();
    }
  }
  EXPECT_LT(reallocations, 20);
  builder.append_fill(3, 0xEE);
  std::shared_ptr<Buffer> buffer = builder.finish();
  ASSERT_EQ(buffer->size(), 100003);
  EXPECT_EQ(buffer->data()[1000], static_cast<uint8_t>(1000));
  EXPECT_EQ(buffer->data()[100002], 0xEE);
  EXPECT_EQ(builder.size(), 0);
}

TEST(TypedBufferBuilderTest, AppendsValuesSpansAndFills) {
  TypedBufferBuilder<int64_t> builder;
  builder.append(1);
  const int64_t more[] = {2, 3, 4};
  builder.append(more, 3);
  builder.append_fill(2, -1);
  builder.reserve(1);
  builder.unsafe_append(9);
  ASSERT_EQ(builder.length(), 7);
  std::shared_ptr<Buffer> buffer = builder.finish();
  const std::vector<int64_t> expected = {1, 2, 3, 4, -1, -1, 9};
  ASSERT_EQ(buffer->size(), 7 * 8);
  EXPECT_EQ(std::vector<int64_t>(buffer->data_as<int64_t>(), buffer->data_as<int64_t>() + 7),
            expected);
  EXPECT_TRUE(padding_is_zero(*buffer));
  EXPECT_EQ(builder.length(), 0);
  builder.append(5);
  std::shared_ptr<Buffer> second = builder.finish();
  EXPECT_EQ(second->data_as<int64_t>()[0], 5);
  EXPECT_EQ(buffer->data_as<int64_t>()[0], 1);
}

TEST(TypedBufferBuilderTest, ResizeZeroesNewValues) {
  TypedBufferBuilder<int32_t> builder;
  builder.append(7);
  builder.resize(1000);
  for (int64_t i = 1; i < 1000; ++i) {
    ASSERT_EQ(builder[i], 0);
  }
  builder.resize(1);
  EXPECT_EQ(builder[0], 7);
  EXPECT_THROW(builder.resize(-1), InvalidArgument);
  EXPECT_EQ(builder.length(), 1);
  BufferBuilder bytes;
  EXPECT_THROW(bytes.resize(-8), InvalidArgument);
  EXPECT_EQ(bytes.size(), 0);
}

TEST(TypedBufferBuilderTest, ReservingMoreThanABufferCanHoldThrows) {
  // Sizes whose byte count overflows an int64_t once multiplied by the width or padded must be
  // refused, not wrap around to a small allocation that later unsafe appends overrun.
  constexpr int64_t kHuge = std::numeric_limits<int64_t>::max();
  TypedBufferBuilder<int64_t> values;
  values.append(7);
  EXPECT_THROW(values.reserve(int64_t{1} << 61), OutOfMemory);
  EXPECT_THROW(values.reserve(kHuge), OutOfMemory);
  EXPECT_THROW(values.resize(kHuge), OutOfMemory);
  EXPECT_EQ(values.length(), 1);
  EXPECT_EQ(values[0], 7);
  BufferBuilder bytes;
  EXPECT_THROW(bytes.reserve(kHuge), OutOfMemory);
  MutableBuffer buffer;
  EXPECT_THROW(buffer.reserve(kHuge), OutOfMemory);
  EXPECT_THROW(buffer.resize(kHuge - 1), OutOfMemory);
}

/// Allocates through the default allocator but cannot move an allocation, as an allocator out
/// of memory could not.
class UnmovableAllocator final : public Allocator {
 public:
  std::string name() const override { return "unmovable"; }

 protected:
  uint8_t* do_allocate(int64_t size) override { return default_allocator()->allocate(size); }
  uint8_t* do_reallocate(uint8_t* /*ptr*/, int64_t /*old_size*/, int64_t new_size) override {
    throw OutOfMemory("cannot move to " + std::to_string(new_size) + " bytes");
  }
  void do_free(uint8_t* ptr, int64_t size) override { default_allocator()->free(ptr, size); }
};

TEST(TypedBufferBuilderTest, FinishKeepsTheLargerBlockWhenItCannotShrink) {
  // Finishing must not fail for want of memory: the builders' finish relies on it.
  UnmovableAllocator allocator;
  TypedBufferBuilder<int64_t> values(&allocator);
  values.reserve(10000);
  values.append(42);
  std::shared_ptr<Buffer> buffer = values.finish();
  EXPECT_EQ(buffer->size(), 8);
  EXPECT_EQ(buffer->data_as<int64_t>()[0], 42);
  EXPECT_TRUE(padding_is_zero(*buffer));
  EXPECT_EQ(values.length(), 0);
}

TEST(TypedBufferBuilderTest, ResetFreesMemory) {
  CheckedAllocator checked(system_allocator());
  {
    TypedBufferBuilder<double> builder(&checked);
    builder.append_fill(1000, 1.5);
    builder.reset();
    EXPECT_TRUE(checked.leaks().empty());
    builder.append(2.5);
  }
  EXPECT_TRUE(checked.leaks().empty());
}

TEST(BitmapBuilderTest, CountsFalseBitsAndPacksLsbFirst) {
  BitmapBuilder builder;
  builder.append(true);
  builder.append(false);
  builder.append(true);
  builder.append_n(10, true);
  builder.append_n(3, false);
  const uint8_t bytes[] = {1, 0, 0, 1};
  builder.append_bytes(bytes, 4);
  const uint8_t source[] = {0b10110000};
  builder.append_bits(source, 4, 4);
  EXPECT_EQ(builder.length(), 24);
  EXPECT_EQ(builder.false_count(), 1 + 3 + 2 + 1);
  std::shared_ptr<Buffer> bitmap = builder.finish();
  ASSERT_EQ(bitmap->size(), 3);
  const std::string expected = "101111111111100010011101";
  for (int i = 0; i < 24; ++i) {
    EXPECT_EQ(bit_util::get_bit(bitmap->data(), i), expected[static_cast<size_t>(i)] == '1') << i;
  }
  EXPECT_EQ(builder.length(), 0);
  EXPECT_EQ(builder.false_count(), 0);
}

}  // namespace
}  // namespace bowstring
