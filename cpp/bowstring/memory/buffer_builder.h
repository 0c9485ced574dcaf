#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "bowstring/memory/buffer.h"
#include "bowstring/util/bit_util.h"
#include "bowstring/util/error.h"

namespace bowstring {

/// A growing buffer of fixed-width values of type `T` (amortized doubling), frozen by `finish()`.
/// Every operation but growth is inline: builders append through it in their hot loops.
template <typename T>
class TypedBufferBuilder {
  static_assert(std::is_trivially_copyable_v<T>);
  static constexpr int64_t kWidth = static_cast<int64_t>(sizeof(T));

 public:
  explicit TypedBufferBuilder(Allocator* allocator = default_allocator()) : allocator_(allocator) {}
  ~TypedBufferBuilder() { reset(); }
  TypedBufferBuilder(const TypedBufferBuilder&) = delete;
  TypedBufferBuilder& operator=(const TypedBufferBuilder&) = delete;
  TypedBufferBuilder(TypedBufferBuilder&& other) noexcept
      : allocator_(other.allocator_),
        data_(std::exchange(other.data_, nullptr)),
        length_(std::exchange(other.length_, 0)),
        capacity_(std::exchange(other.capacity_, 0)),
        capacity_bytes_(std::exchange(other.capacity_bytes_, 0)) {}
  TypedBufferBuilder& operator=(TypedBufferBuilder&& other) noexcept {
    if (this != &other) {
      reset();
      allocator_ = other.allocator_;
      data_ = std::exchange(other.data_, nullptr);
      length_ = std::exchange(other.length_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
      capacity_bytes_ = std::exchange(other.capacity_bytes_, 0);
    }
    return *this;
  }

  int64_t length() const { return length_; }
  int64_t capacity() const { return capacity_; }
  T* mutable_data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](int64_t i) { return data_[i]; }
  const T& operator[](int64_t i) const { return data_[i]; }
  /// The last value appended; the builder must not be empty.
  const T& back() const { return data_[length_ - 1]; }
  T& back() { return data_[length_ - 1]; }
  Allocator* allocator() const { return allocator_; }

  /// Ensures `additional` more values can be appended without reallocating.
  void reserve(int64_t additional) {
    if (additional > capacity_ - length_) [[unlikely]] {
      grow(additional);
    }
  }
  void append(T value) {
    if (length_ == capacity_) [[unlikely]] {
      grow(1);
    }
    data_[length_++] = value;
  }
  /// Appends without checking capacity: call `reserve` first.
  void unsafe_append(T value) { data_[length_++] = value; }
  /// Appends `count` values from `values`, which may point into this builder's own values.
  void append(const T* values, int64_t count) {
    if (count > capacity_ - length_) [[unlikely]] {
      values = grow_keeping(values, count);
    }
    unsafe_append(values, count);
  }
  void unsafe_append(const T* values, int64_t count) {
    if (count > 0) {
      std::memcpy(static_cast<void*>(data_ + length_), values, static_cast<size_t>(count * kWidth));
    }
    length_ += count;
  }
  void append_fill(int64_t count, T value) {
    if (count <= 0) {
      return;
    }
    reserve(count);
    std::fill(data_ + length_, data_ + length_ + count, value);
    length_ += count;
  }
  /// Sets the length; values past the old length are zero.
  void resize(int64_t length) {
    if (length < 0) {
      throw InvalidArgument("buffer length must be non-negative, got " + std::to_string(length));
    }
    if (length > capacity_) {
      grow(length - length_);
    }
    if (length > length_) {
      std::memset(static_cast<void*>(data_ + length_), 0,
                  static_cast<size_t>((length - length_) * kWidth));
    }
    length_ = length;
  }

  /// Freezes the values into an immutable buffer (padding zeroed) and leaves the builder empty.
  /// Capacity well beyond the padded size is returned to the allocator first, so that finished
  /// arrays do not keep the slack of the doubling growth. Does not run out of memory: when the
  /// allocator cannot move the values to a smaller block, the buffer keeps the larger one.
  std::shared_ptr<Buffer> finish() {
    if (data_ == nullptr) {
      return Buffer::zeros(0, allocator_);
    }
    const int64_t size = length_ * kWidth;
    const int64_t padded = padded_size(size);
    if (capacity_bytes_ - padded > std::max<int64_t>(kShrinkSlack, padded / 8)) {
      try {
        data_ = reinterpret_cast<T*>(
            allocator_->reallocate(reinterpret_cast<uint8_t*>(data_), capacity_bytes_, padded));
        capacity_bytes_ = padded;
      } catch (const OutOfMemory&) {
        // Shrinking only saves memory; the larger block is as good a buffer.
      }
    }
    auto* bytes = reinterpret_cast<uint8_t*>(data_);
    std::memset(bytes + size, 0, static_cast<size_t>(padded - size));
    std::shared_ptr<Buffer> result = Buffer::adopt(allocator_, bytes, size, capacity_bytes_);
    data_ = nullptr;
    length_ = 0;
    capacity_ = 0;
    capacity_bytes_ = 0;
    return result;
  }
  /// Drops the contents and frees the memory.
  void reset() {
    if (data_ != nullptr) {
      allocator_->free(reinterpret_cast<uint8_t*>(data_), capacity_bytes_);
      data_ = nullptr;
    }
    length_ = 0;
    capacity_ = 0;
    capacity_bytes_ = 0;
  }

 private:
  static constexpr int64_t kShrinkSlack = 4096;

  /// The most values a buffer holds: their padded size still fits an int64_t.
  static constexpr int64_t kMaxCapacity = kMaxBufferSize / kWidth;

  /// Makes room for `additional` values past the length (at least doubling the capacity).
  [[gnu::noinline]] void grow(int64_t additional) {
    if (additional > kMaxCapacity - length_) {
      throw_buffer_too_large(length_, additional, kWidth);
    }
    const int64_t wanted = std::max(length_ + additional, std::min(capacity_ * 2, kMaxCapacity));
    // The allocation is padded to 64 bytes; a value never straddles its end.
    const int64_t new_bytes = padded_size(wanted * kWidth);
    uint8_t* bytes = data_ == nullptr ? allocator_->allocate(new_bytes)
                                      : allocator_->reallocate(reinterpret_cast<uint8_t*>(data_),
                                                               capacity_bytes_, new_bytes);
    data_ = reinterpret_cast<T*>(bytes);
    capacity_bytes_ = new_bytes;
    capacity_ = new_bytes / kWidth;
  }

  /// `grow(additional)`, returning where `values` is afterwards: moved along with the values when
  /// it pointed into them (a value appended again), else unchanged.
  [[gnu::noinline]] const T* grow_keeping(const T* values, int64_t additional) {
    const auto address = reinterpret_cast<uintptr_t>(values);
    const auto begin = reinterpret_cast<uintptr_t>(data_);
    const bool inside = data_ != nullptr && address >= begin &&
                        address - begin < static_cast<uintptr_t>(capacity_bytes_);
    grow(additional);
    return inside ? reinterpret_cast<const T*>(reinterpret_cast<const uint8_t*>(data_) +
                                               (address - begin))
                  : values;
  }

  Allocator* allocator_;
  T* data_ = nullptr;
  int64_t length_ = 0;
  int64_t capacity_ = 0;
  int64_t capacity_bytes_ = 0;
};

/// Appends bytes to a growing buffer (amortized doubling), then `finish()` freezes them.
class BufferBuilder {
 public:
  explicit BufferBuilder(Allocator* allocator = default_allocator()) : bytes_(allocator) {}

  int64_t size() const { return bytes_.length(); }
  int64_t capacity() const { return bytes_.capacity(); }
  uint8_t* mutable_data() { return bytes_.mutable_data(); }
  const uint8_t* data() const { return bytes_.data(); }
  Allocator* allocator() const { return bytes_.allocator(); }

  /// Ensures `additional` more bytes can be appended without reallocating.
  void reserve(int64_t additional) { bytes_.reserve(additional); }
  /// Sets the size; bytes past the old size are zero.
  void resize(int64_t size) { bytes_.resize(size); }
  void append(const void* data, int64_t length) {
    bytes_.append(static_cast<const uint8_t*>(data), length);
  }
  /// Appends without checking capacity: call `reserve` first.
  void unsafe_append(const void* data, int64_t length) {
    bytes_.unsafe_append(static_cast<const uint8_t*>(data), length);
  }
  /// Appends `length` copies of `byte`.
  void append_fill(int64_t length, uint8_t byte) { bytes_.append_fill(length, byte); }
  /// Freezes the bytes into an immutable buffer and leaves the builder empty.
  std::shared_ptr<Buffer> finish() { return bytes_.finish(); }
  /// Drops the contents and frees the memory.
  void reset() { bytes_.reset(); }

 private:
  TypedBufferBuilder<uint8_t> bytes_;
};

/// A growing bitmap (validity or boolean values). Memory past the appended bits is kept zero, so
/// appending a bit only has to set ones. Counts the false bits appended (the null count, when the
/// bitmap is a validity bitmap).
class BitmapBuilder {
 public:
  explicit BitmapBuilder(Allocator* allocator = default_allocator()) : bytes_(allocator) {}

  int64_t length() const { return length_; }
  int64_t false_count() const { return false_count_; }
  const uint8_t* data() const { return bytes_.data(); }
  uint8_t* mutable_data() { return bytes_.mutable_data(); }
  Allocator* allocator() const { return bytes_.allocator(); }

  void reserve(int64_t additional_bits) {
    const int64_t needed = bit_util::bytes_for_bits(length_ + additional_bits);
    if (needed > bytes_.capacity()) [[unlikely]] {
      bytes_.reserve(needed);
    }
  }
  void append(bool value) {
    reserve(1);
    unsafe_append(value);
  }
  void unsafe_append(bool value) {
    bytes_.mutable_data()[length_ >> 3] |=
        static_cast<uint8_t>(static_cast<unsigned>(value) << (length_ & 7));
    false_count_ += !value;
    ++length_;
  }
  void append_n(int64_t count, bool value) {
    if (count <= 0) {
      return;
    }
    reserve(count);
    if (value) {
      bit_util::set_bits_to(bytes_.mutable_data(), length_, count, true);
    } else {
      false_count_ += count;
    }
    length_ += count;
  }
  /// Appends `count` bits of `bitmap` from bit `offset`; a null `bitmap` means all true.
  void append_bits(const uint8_t* bitmap, int64_t offset, int64_t count) {
    if (bitmap == nullptr) {
      append_n(count, true);
      return;
    }
    reserve(count);
    bit_util::copy_bitmap(bitmap, offset, count, bytes_.mutable_data(), length_);
    false_count_ += count - bit_util::count_set_bits(bitmap, offset, count);
    length_ += count;
  }
  /// Appends one bit per byte of `values` (non-zero is true).
  void append_bytes(const uint8_t* values, int64_t count) {
    reserve(count);
    uint8_t* out = bytes_.mutable_data();
    int64_t set = 0;
    int64_t i = 0;
    for (; i < count && ((length_ + i) & 7) != 0; ++i) {
      const unsigned bit = values[i] != 0;
      out[(length_ + i) >> 3] |= static_cast<uint8_t>(bit << ((length_ + i) & 7));
      set += bit;
    }
    // Whole output bytes at a time: eight input bytes, read as one word, pack into one. The
    // bits are counted afterwards, a word at a time rather than a byte at a time.
    const int64_t whole_from = i;
    uint8_t* whole_out = out + ((length_ + i) >> 3);
    for (; i + 8 <= count; i += 8) {
      uint64_t word;
      std::memcpy(&word, values + i, sizeof(word));
      // The high bit of each byte, set when the byte is non-zero...
      const uint64_t high =
          (((word & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | word) & 0x8080808080808080ULL;
      // ...and the multiply gathers the eight of them into the top byte, byte k to bit k.
      *whole_out++ = static_cast<uint8_t>(((high >> 7) * 0x0102040810204080ULL) >> 56);
    }
    set += bit_util::count_set_bits(out, length_ + whole_from, i - whole_from);
    for (; i < count; ++i) {
      const unsigned bit = values[i] != 0;
      out[(length_ + i) >> 3] |= static_cast<uint8_t>(bit << ((length_ + i) & 7));
      set += bit;
    }
    false_count_ += count - set;
    length_ += count;
  }
  bool get(int64_t i) const { return bit_util::get_bit(bytes_.data(), i); }

  /// Freezes the bitmap into an immutable buffer and leaves the builder empty.
  std::shared_ptr<Buffer> finish() {
    bytes_.resize(bit_util::bytes_for_bits(length_));
    length_ = 0;
    false_count_ = 0;
    return bytes_.finish();
  }
  void reset() {
    bytes_ = MutableBuffer(bytes_.allocator());
    length_ = 0;
    false_count_ = 0;
  }

 private:
  MutableBuffer bytes_;
  int64_t length_ = 0;
  int64_t false_count_ = 0;
};

}  // namespace bowstring
