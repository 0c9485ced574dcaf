#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>

#include "bowstring/memory/allocator.h"

namespace bowstring {

/// A contiguous, immutable byte range, shared through `std::shared_ptr<Buffer>` (atomic reference
/// counts, so any thread may hold and drop references). What keeps the bytes alive depends on how
/// the buffer was made:
/// - an *owned* buffer holds memory from an allocator and returns it when the last reference goes;
/// - a *slice* holds a reference to its parent buffer;
/// - a *wrapped* buffer holds an arbitrary owner (a memory map, an imported C array...).
class Buffer {
 public:
  virtual ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  /// Bytes usable past `data()`: the size plus any padding. The padding up to the next multiple
  /// of 64 bytes is zero; capacity beyond that (left by a builder's growth) may hold anything.
  int64_t capacity() const { return capacity_; }
  /// The allocator that owns this memory, or nullptr for slices and wrapped memory.
  Allocator* allocator() const { return allocator_; }
  /// The buffer this one is a slice of, or nullptr.
  const std::shared_ptr<const Buffer>& parent() const { return parent_; }

  template <typename T>
  std::span<const T> span_as() const {
    return {reinterpret_cast<const T*>(data_), static_cast<size_t>(size_) / sizeof(T)};
  }
  template <typename T>
  const T* data_as() const {
    return reinterpret_cast<const T*>(data_);
  }

  /// Byte-wise equality of the first `size()` bytes.
  bool equals(const Buffer& other) const;
  /// The first `max_bytes` bytes as space-separated hex pairs ("01 ff 00 ...").
  std::string to_hex(int64_t max_bytes = 256) const;

  /// Takes ownership of `capacity` bytes at `data` from `allocator`; `size` of them are used.
  static std::shared_ptr<Buffer> adopt(Allocator* allocator, uint8_t* data, int64_t size,
                                       int64_t capacity);
  /// Allocates a zero-filled buffer of `size` bytes (capacity padded to 64 bytes).
  static std::shared_ptr<Buffer> zeros(int64_t size, Allocator* allocator = default_allocator());
  /// Copies `size` bytes from `data` into a new owned, padded buffer.
  static std::shared_ptr<Buffer> copy_of(const void* data, int64_t size,
                                         Allocator* allocator = default_allocator());
  /// A zero-copy view of `length` bytes from `offset`, keeping `parent` alive. Throws
  /// `IndexError` when the range is outside the parent.
  static std::shared_ptr<Buffer> slice(const std::shared_ptr<const Buffer>& parent, int64_t offset,
                                       int64_t length);
  /// Memory that somebody else owns: `owner` is kept alive as long as the buffer is.
  static std::shared_ptr<Buffer> wrap(const void* data, int64_t size,
                                      std::shared_ptr<const void> owner);

 protected:
  Buffer(const uint8_t* data, int64_t size, int64_t capacity) noexcept
      : data_(data), size_(size), capacity_(capacity) {}

  const uint8_t* data_;
  int64_t size_;
  int64_t capacity_;
  Allocator* allocator_ = nullptr;
  std::shared_ptr<const Buffer> parent_;
  std::shared_ptr<const void> owner_;

 private:
  friend class MutableBuffer;
};

/// A buffer under construction: owned memory that can be written, resized and then frozen into
/// an immutable `Buffer` by `finish()`. Growth is amortized (capacity at least doubles).
class MutableBuffer {
 public:
  explicit MutableBuffer(Allocator* allocator = default_allocator()) : allocator_(allocator) {}
  /// A buffer of `size` bytes, zero-filled.
  MutableBuffer(int64_t size, Allocator* allocator);
  ~MutableBuffer();
  MutableBuffer(MutableBuffer&& other) noexcept;
  MutableBuffer& operator=(MutableBuffer&& other) noexcept;
  MutableBuffer(const MutableBuffer&) = delete;
  MutableBuffer& operator=(const MutableBuffer&) = delete;

  uint8_t* mutable_data() { return data_; }
  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }
  Allocator* allocator() const { return allocator_; }

  /// Ensures room for `capacity` bytes without moving again. New memory is zeroed.
  void reserve(int64_t capacity);
  /// Sets the size, growing if needed; bytes past the old size are zero.
  void resize(int64_t size);
  /// Releases unused capacity beyond the size rounded up to 64 bytes.
  void shrink_to_fit();

  /// Freezes the contents into an immutable buffer (padding zeroed) and leaves this one empty.
  std::shared_ptr<Buffer> finish();

 private:
  void grow_to(int64_t new_capacity);
  void release();

  Allocator* allocator_;
  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

/// Rounds a byte count up to the 64-byte padding Bowstring gives every buffer.
constexpr int64_t padded_size(int64_t size) { return (size + kAlignment - 1) & ~(kAlignment - 1); }

/// The largest buffer size: its padded size still fits an int64_t.
inline constexpr int64_t kMaxBufferSize = std::numeric_limits<int64_t>::max() & ~(kAlignment - 1);

/// Throws `OutOfMemory`: `additional` more values of `width` bytes after `held` of them would
/// take a buffer past `kMaxBufferSize`.
[[noreturn]] void throw_buffer_too_large(int64_t held, int64_t additional, int64_t width);

}  // namespace bowstring
