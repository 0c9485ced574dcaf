// Arrays shared across threads: producers build arrays and hand them through a queue to
// consumers that slice, read and drop them. Reference counts are atomic, so whichever thread
// drops the last reference frees the buffers, and nothing may be left outstanding at the end.

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/testing/test_util.h"

namespace bowstring {
namespace {

/// A closable multi-producer, multi-consumer queue.
template <typename T>
class BlockingQueue {
 public:
  void push(T value) {
    {
      std::lock_guard lock(mutex_);
      items_.push_back(std::move(value));
    }
    ready_.notify_one();
  }
  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    ready_.notify_all();
  }
  std::optional<T> pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [this] { return closed_ || !items_.empty(); });
    if (items_.empty()) {
      return std::nullopt;
    }
    T value = std::move(items_.front());
    items_.pop_front();
    return value;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<T> items_;
  bool closed_ = false;
};

struct Work {
  int64_t producer;
  int64_t sequence;
  Array numbers;
  Array words;
};

constexpr int kProducers = 3;
constexpr int kConsumers = 3;
constexpr int kArraysPerProducer = 200;
constexpr int kLength = 500;

int64_t expected_value(int64_t producer, int64_t sequence, int64_t i) {
  return producer * 1'000'000'000 + sequence * 1000 + i;
}

TEST(ConcurrencyTest, ArraysBuiltOnOneThreadAreSlicedReadAndDroppedOnOthers) {
  CheckedAllocator& allocator = testing::checked_default_allocator();
  BlockingQueue<Work> queue;
  std::atomic<int64_t> rows_checked{0};
  std::atomic<int64_t> mismatches{0};

  std::vector<std::thread> producers;
  producers.reserve(kProducers);
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&queue, p] {
      // One builder per producer, reused for every array: each finish() leaves it empty.
      Int64Builder numbers;
      StringBuilder words;
      for (int s = 0; s < kArraysPerProducer; ++s) {
        numbers.reserve(kLength);
        for (int i = 0; i < kLength; ++i) {
          if (i % 7 == 3) {
            numbers.append_null();
            words.append_null();
          } else {
            numbers.unsafe_append(expected_value(p, s, i));
            words.append(std::to_string(expected_value(p, s, i)));
          }
        }
        queue.push(Work{p, s, numbers.finish(), words.finish()});
      }
    });
  }

  std::vector<std::thread> consumers;
  consumers.reserve(kConsumers);
  for (int c = 0; c < kConsumers; ++c) {
    consumers.emplace_back([&] {
      while (std::optional<Work> work = queue.pop()) {
        // Slices of slices on this thread; the original handles are dropped first so that the
        // slices alone keep the buffers alive.
        Array middle = work->numbers.slice(100, 300).slice(50, 200);
        Array middle_words = work->words.slice(100, 300).slice(50, 200);
        const int64_t producer = work->producer;
        const int64_t sequence = work->sequence;
        work.reset();
        const Int64Array numbers(middle);
        const StringArray words(middle_words);
        for (int64_t i = 0; i < numbers.length(); ++i) {
          const int64_t original = 150 + i;
          const bool null = original % 7 == 3;
          const int64_t expected = expected_value(producer, sequence, original);
          if (numbers.is_null(i) != null || words.is_null(i) != null ||
              (!null &&
               (numbers.value(i) != expected || words.value(i) != std::to_string(expected)))) {
            ++mismatches;
          }
          ++rows_checked;
        }
      }
    });
  }

  for (std::thread& producer : producers) {
    producer.join();
  }
  queue.close();
  for (std::thread& consumer : consumers) {
    consumer.join();
  }
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(rows_checked.load(), int64_t{kProducers} * kArraysPerProducer * 200);
  EXPECT_TRUE(allocator.leaks().empty());
  EXPECT_EQ(allocator.bytes_in_use(), 0);
}

}  // namespace
}  // namespace bowstring
