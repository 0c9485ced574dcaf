// Validation is the gate untrusted data (IPC messages, imported C arrays) passes before anything
// else reads it. These tests corrupt valid arrays at random and check that validate_full either
// accepts the result or throws FormatError, and that whatever it accepts can be printed,
// compared, sliced and concatenated. Every buffer is copied to the end of readable memory, so
// that reading past it faults.

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bowstring/array/concatenate.h"
#include "bowstring/array/equal.h"
#include "bowstring/array/pretty_print.h"
#include "bowstring/array/validate.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/util/error.h"

namespace bowstring {
namespace {

using namespace testing;

/// A copy of the first `size` bytes of `bytes` that ends where readable memory ends (up to 7
/// bytes of alignment slack), so that reading past it faults. Under AddressSanitizer, an
/// exact-size heap block instead, whose end the sanitizer watches to the byte.
std::shared_ptr<Buffer> exact_buffer(const uint8_t* bytes, int64_t size) {
#if defined(__SANITIZE_ADDRESS__)
  auto storage = std::make_shared<std::vector<uint8_t>>(bytes, bytes + size);
  const uint8_t* data = storage->data();
  return Buffer::wrap(data, size, std::move(storage));
#else
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t data_pages = (static_cast<size_t>(size) + page - 1) / page;
  const size_t mapped = (data_pages + 1) * page;
  // Everything mapped unreadable, then the data pages opened.
  void* base = mmap(nullptr, mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) {
    throw std::runtime_error("mmap failed");
  }
  std::shared_ptr<void> pages(base, [mapped](void* pointer) { munmap(pointer, mapped); });
  if (data_pages > 0 && mprotect(base, data_pages * page, PROT_READ | PROT_WRITE) != 0) {
    throw std::runtime_error("mprotect failed: " + std::string(std::strerror(errno)));
  }
  uint8_t* guard = static_cast<uint8_t*>(base) + data_pages * page;
  // The block ends at the guard page and starts 8-byte aligned, as buffer data is.
  const auto misalignment = static_cast<int64_t>(
      (reinterpret_cast<uintptr_t>(guard) - static_cast<uintptr_t>(size)) & uintptr_t{7});
  uint8_t* const start = guard - size - misalignment;
  if (size > 0) {
    std::memcpy(start, bytes, static_cast<size_t>(size));
  }
  return Buffer::wrap(start, size, std::move(pages));
#endif
}

class Corruptor {
 public:
  explicit Corruptor(uint64_t seed) : random_(seed) {}

  /// A copy of `data` with exact-size buffers and, with some probability, each of: bytes of a
  /// buffer changed, a buffer cut short, dropped or added, the length, offset or null count
  /// replaced, a child dropped; the same, recursively, for children and the dictionary.
  ArrayDataPtr corrupt(const ArrayData& data) {
    std::vector<std::shared_ptr<Buffer>> buffers;
    for (const std::shared_ptr<Buffer>& buffer : data.buffers) {
      buffers.push_back(buffer == nullptr ? nullptr : corrupt_buffer(*buffer));
    }
    if (chance(2)) {
      buffers[static_cast<size_t>(below(static_cast<int64_t>(buffers.size())))] = nullptr;
    }
    if (chance(2)) {
      const uint8_t byte = 0xFF;
      buffers.push_back(exact_buffer(&byte, 1));
    }
    std::vector<ArrayDataPtr> children;
    for (const ArrayDataPtr& child : data.children) {
      children.push_back(corrupt(*child));
    }
    if (!children.empty() && chance(2)) {
      children.pop_back();
    }
    ArrayDataPtr dictionary = data.dictionary == nullptr ? nullptr : corrupt(*data.dictionary);
    const int64_t null_count = chance(5) ? odd_value() : data.known_null_count();
    auto out = std::make_shared<ArrayData>(data.type, 0, std::move(buffers), null_count, 0,
                                           std::move(children), std::move(dictionary));
    // Assigned after construction so that negative values, which the constructor refuses,
    // reach validation too.
    out->length = chance(5) ? odd_value() : data.length;
    out->offset = chance(5) ? odd_value() : data.offset;
    return out;
  }

 private:
  bool chance(int percent) { return below(100) < percent; }

  int64_t below(int64_t bound) {
    return std::uniform_int_distribution<int64_t>(0, bound - 1)(random_);
  }

  /// Values that tend to break size arithmetic, and small ones that slip past it.
  int64_t odd_value() {
    static constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    static constexpr int64_t kValues[] = {-1,
                                          0,
                                          1,
                                          2,
                                          3,
                                          7,
                                          8,
                                          9,
                                          16,
                                          63,
                                          64,
                                          65,
                                          1000,
                                          std::numeric_limits<int32_t>::max(),
                                          int64_t{std::numeric_limits<int32_t>::max()} + 1,
                                          std::numeric_limits<int32_t>::min(),
                                          kMax,
                                          kMax - 1,
                                          kMax - 7,
                                          kMax / 2,
                                          kMax / 8 + 1,
                                          std::numeric_limits<int64_t>::min()};
    return kValues[below(std::size(kValues))];
  }

  std::shared_ptr<Buffer> corrupt_buffer(const Buffer& buffer) {
    std::vector<uint8_t> bytes(buffer.data(), buffer.data() + buffer.size());
    if (!bytes.empty() && chance(30)) {
      const int64_t edits = 1 + below(3);
      for (int64_t k = 0; k < edits; ++k) {
        const auto at = static_cast<size_t>(below(static_cast<int64_t>(bytes.size())));
        if (chance(50)) {
          bytes[at] ^= static_cast<uint8_t>(1 + below(255));
        } else {
          // Overwrite an aligned word with a boundary value (offsets, sizes, run ends...).
          const size_t width = chance(50) ? 4 : 8;
          const size_t start = at / width * width;
          const int64_t value = odd_value();
          std::memcpy(bytes.data() + start, &value, std::min(width, bytes.size() - start));
        }
      }
    }
    int64_t size = static_cast<int64_t>(bytes.size());
    if (size > 0 && chance(5)) {
      size = below(size);
    }
    return exact_buffer(bytes.data(), size);
  }

  std::mt19937_64 random_;
};

volatile uint8_t bytes_read;

/// Reads the first and last byte of every buffer range that validate() promises to be in
/// bounds: the slots [offset, offset + length) of each buffer of the layout (offsets have one
/// more), in this array, its children and its dictionary.
void read_window(const ArrayData& data) {
  const DataType& type = data.type->id() == TypeId::kExtension
                             ? *static_cast<const ExtensionType&>(*data.type).storage_type()
                             : *data.type;
  const std::vector<BufferSpec> layout = type.layout();
  const bool offset_per_value = type.id() == TypeId::kDenseUnion ||
                                type.id() == TypeId::kListView ||
                                type.id() == TypeId::kLargeListView;
  for (size_t i = 0; i < layout.size(); ++i) {
    const Buffer* buffer = data.buffers[i].get();
    int64_t width = 0;
    int64_t count = data.length;
    switch (layout[i].kind) {
      case BufferKind::kValidity:
      case BufferKind::kBitmap:
        if (buffer != nullptr && data.length > 0) {
          bytes_read = buffer->data()[data.offset / 8];
          bytes_read = buffer->data()[(data.offset + data.length - 1) / 8];
        }
        continue;
      case BufferKind::kFixedWidth:
        width = layout[i].byte_width;
        break;
      case BufferKind::kOffsets32:
      case BufferKind::kSizes32:
        width = 4;
        count += layout[i].kind == BufferKind::kOffsets32 && !offset_per_value ? 1 : 0;
        break;
      case BufferKind::kOffsets64:
      case BufferKind::kSizes64:
        width = 8;
        count += layout[i].kind == BufferKind::kOffsets64 && !offset_per_value ? 1 : 0;
        break;
      case BufferKind::kTypeIds:
        width = 1;
        break;
      case BufferKind::kViews:
        width = 16;
        break;
      case BufferKind::kAlwaysNull:
      case BufferKind::kData:
        continue;
    }
    if (count > 0 && width > 0) {
      bytes_read = buffer->data()[data.offset * width];
      bytes_read = buffer->data()[(data.offset + count) * width - 1];
    }
  }
  for (const ArrayDataPtr& child : data.children) {
    read_window(*child);
  }
  if (data.dictionary != nullptr) {
    read_window(*data.dictionary);
  }
}

/// What any caller may do with an array that passed validate_full.
void use_validated(const Array& array, const Array& original) {
  (void)array.null_count();
  for (int64_t i = 0; i < array.length() && i < 64; ++i) {
    (void)array.is_null(i);
  }
  (void)array.to_string();
  (void)hex_dump(array, 64);
  (void)array.equals(array);
  (void)array.equals(original);
  if (array.length() > 0) {
    (void)format_value(array, array.length() - 1);
    const Array tail = array.slice(array.length() / 2);
    (void)tail.to_string();
    (void)array_range_equal(array, array.length() / 2, tail, 0, tail.length());
  }
  const std::vector<Array> twice{array, array};
  Array joined;
  try {
    joined = concatenate(twice);
  } catch (const InvalidArgument&) {
    return;  // twice the values may not fit the offsets, indices or run ends
  }
  joined.validate_full();
  EXPECT_TRUE(array_range_equal(joined, array.length(), array, 0, array.length(),
                                EqualOptions{.nans_equal = true}));
}

template <typename Check>
bool passes(const Check& check) {
  try {
    check();
  } catch (const FormatError&) {
    return false;
  }
  return true;
}

TEST(ValidateCorruptionTest, GuardedBuffersFaultWhenReadPastTheirEnd) {
  // The test below relies on this: a read past a buffer's end does not go unnoticed.
  const std::vector<uint8_t> bytes(24, 1);
  const std::shared_ptr<Buffer> buffer = exact_buffer(bytes.data(), 24);
  EXPECT_EQ(buffer->data()[23], 1);
  EXPECT_DEATH(bytes_read = buffer->data()[24], "");
}

TEST(ValidateCorruptionTest, CorruptedSamplesAreRejectedOrSafeToUse) {
  constexpr int kRoundsPerSample = 400;
  int64_t accepted = 0;
  int64_t rejected = 0;
  Corruptor corruptor(20240531);
  for (const auto& [name, original] : sample_arrays()) {
    for (int round = 0; round < kRoundsPerSample; ++round) {
      SCOPED_TRACE(name + ", round " + std::to_string(round));
      const Array corrupted(corruptor.corrupt(*original.data()));
      const bool structure_valid = passes([&] { corrupted.validate(); });
      if (structure_valid) {
        read_window(*corrupted.data());
        (void)corrupted.null_count();
      }
      if (passes([&] { corrupted.validate_full(); })) {
        EXPECT_TRUE(structure_valid);
        ++accepted;
        use_validated(corrupted, original);
      } else {
        ++rejected;
      }
    }
  }
  // Both outcomes must be common, or the corruption is too weak (or too strong) to test much.
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(rejected, 1000);
}

}  // namespace
}  // namespace bowstring
