#include "bowstring/memory/buffer.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <utility>

#include "bowstring/util/error.h"

namespace bowstring {

namespace {

class OwnedBuffer final : public Buffer {
 public:
  OwnedBuffer(Allocator* allocator, uint8_t* data, int64_t size, int64_t capacity) noexcept
      : Buffer(data, size, capacity) {
    allocator_ = allocator;
  }
  ~OwnedBuffer() override { allocator_->free(const_cast<uint8_t*>(data_), capacity_); }
};

class ViewBuffer final : public Buffer {
 public:
  ViewBuffer(const uint8_t* data, int64_t size, std::shared_ptr<const Buffer> parent,
             std::shared_ptr<const void> owner) noexcept
      : Buffer(data, size, size) {
    parent_ = std::move(parent);
    owner_ = std::move(owner);
  }
};

}  // namespace

Buffer::~Buffer() = default;

bool Buffer::equals(const Buffer& other) const {
  // An empty buffer may have a null address, which memcmp must not see even for zero bytes.
  return size_ == other.size_ && (size_ == 0 || data_ == other.data_ ||
                                  std::memcmp(data_, other.data_, static_cast<size_t>(size_)) == 0);
}

std::string Buffer::to_hex(int64_t max_bytes) const {
  static constexpr char kDigits[] = "0123456789abcdef";
  const int64_t shown = std::clamp<int64_t>(max_bytes, 0, size_);
  std::string out;
  out.reserve(static_cast<size_t>(shown * 3 + 4));
  for (int64_t i = 0; i < shown; ++i) {
    if (i > 0) {
      out += ' ';
    }
    out += kDigits[data_[i] >> 4];
    out += kDigits[data_[i] & 0xF];
  }
  if (shown < size_) {
    out += shown > 0 ? " ..." : "...";
  }
  return out;
}

std::shared_ptr<Buffer> Buffer::adopt(Allocator* allocator, uint8_t* data, int64_t size,
                                      int64_t capacity) {
  return std::make_shared<OwnedBuffer>(allocator, data, size, capacity);
}

std::shared_ptr<Buffer> Buffer::zeros(int64_t size, Allocator* allocator) {
  MutableBuffer buffer(size, allocator);
  return buffer.finish();
}

std::shared_ptr<Buffer> Buffer::copy_of(const void* data, int64_t size, Allocator* allocator) {
  MutableBuffer buffer(allocator);
  buffer.resize(size);
  if (size > 0) {
    std::memcpy(buffer.mutable_data(), data, static_cast<size_t>(size));
  }
  return buffer.finish();
}

std::shared_ptr<Buffer> Buffer::slice(const std::shared_ptr<const Buffer>& parent, int64_t offset,
                                      int64_t length) {
  if (offset < 0 || length < 0 || offset > parent->size() || length > parent->size() - offset) {
    throw IndexError("buffer slice [" + std::to_string(offset) + ", +" + std::to_string(length) +
                     ") is outside a buffer of " + std::to_string(parent->size()) + " bytes");
  }
  return std::make_shared<ViewBuffer>(parent->data() + offset, length, parent, nullptr);
}

std::shared_ptr<Buffer> Buffer::wrap(const void* data, int64_t size,
                                     std::shared_ptr<const void> owner) {
  if (size < 0) {
    throw InvalidArgument("cannot wrap a negative number of bytes: " + std::to_string(size));
  }
  return std::make_shared<ViewBuffer>(static_cast<const uint8_t*>(data), size, nullptr,
                                      std::move(owner));
}

// --- MutableBuffer ------------------------------------------------------------------------

MutableBuffer::MutableBuffer(int64_t size, Allocator* allocator) : allocator_(allocator) {
  resize(size);
}

MutableBuffer::~MutableBuffer() { release(); }

MutableBuffer::MutableBuffer(MutableBuffer&& other) noexcept
    : allocator_(other.allocator_),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

MutableBuffer& MutableBuffer::operator=(MutableBuffer&& other) noexcept {
  if (this != &other) {
    release();
    allocator_ = other.allocator_;
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

void MutableBuffer::release() {
  if (data_ != nullptr) {
    allocator_->free(data_, capacity_);
    data_ = nullptr;
  }
  size_ = 0;
  capacity_ = 0;
}

void MutableBuffer::grow_to(int64_t new_capacity) {
  new_capacity = padded_size(new_capacity);
  if (data_ == nullptr) {
    data_ = allocator_->allocate(new_capacity);
  } else {
    data_ = allocator_->reallocate(data_, capacity_, new_capacity);
  }
  if (new_capacity > capacity_) {
    std::memset(data_ + capacity_, 0, static_cast<size_t>(new_capacity - capacity_));
  }
  capacity_ = new_capacity;
}

void throw_buffer_too_large(int64_t held, int64_t additional, int64_t width) {
  throw OutOfMemory("cannot make room for " + std::to_string(additional) + " more " +
                    std::to_string(width) + "-byte values after " + std::to_string(held) +
                    ": a buffer holds at most " + std::to_string(kMaxBufferSize) + " bytes");
}

void MutableBuffer::reserve(int64_t capacity) {
  if (capacity < 0) {
    throw InvalidArgument("buffer capacity must be non-negative, got " + std::to_string(capacity));
  }
  if (capacity > kMaxBufferSize) {
    throw_buffer_too_large(size_, capacity - size_, 1);
  }
  if (capacity > capacity_ || data_ == nullptr) {
    grow_to(std::max(capacity, std::min(capacity_ * 2, kMaxBufferSize)));
  }
}

void MutableBuffer::resize(int64_t size) {
  if (size < 0) {
    throw InvalidArgument("buffer size must be non-negative, got " + std::to_string(size));
  }
  reserve(size);
  if (size < size_) {
    std::memset(data_ + size, 0, static_cast<size_t>(size_ - size));
  }
  size_ = size;
}

void MutableBuffer::shrink_to_fit() {
  if (data_ != nullptr && padded_size(size_) < capacity_) {
    const int64_t new_capacity = padded_size(size_);
    data_ = allocator_->reallocate(data_, capacity_, new_capacity);
    capacity_ = new_capacity;
  }
}

std::shared_ptr<Buffer> MutableBuffer::finish() {
  if (data_ == nullptr) {
    grow_to(0);
  }
  // Padding must be zero so that buffers hash, compare and serialize deterministically. Memory
  // past the padding was zeroed when it was reserved.
  std::memset(data_ + size_, 0, static_cast<size_t>(padded_size(size_) - size_));
  std::shared_ptr<Buffer> result = Buffer::adopt(allocator_, data_, size_, capacity_);
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
  return result;
}

}  // namespace bowstring
