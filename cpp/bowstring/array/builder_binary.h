#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/array/builder.h"

namespace bowstring {

/// Throws `InvalidArgument`: `needed` more bytes would take the data of a `type` array past
/// `limit` bytes.
[[noreturn]] void throw_binary_overflow(const DataType& type, int64_t size, int64_t needed,
                                        int64_t limit);

/// utf8 and binary (int32 offsets), large_utf8 and large_binary (int64 offsets). The concrete
/// builders below fix the type. Appending more than 2^31 - 1 bytes in total to a 32-bit builder
/// throws `InvalidArgument` (use the large type).
template <typename Offset>
class BaseBinaryBuilder : public ArrayBuilder {
 public:
  static constexpr bool kLarge = sizeof(Offset) == 8;
  /// The most bytes of data an array of this offset width can address.
  static constexpr int64_t kMaxDataSize = std::numeric_limits<Offset>::max();

  explicit BaseBinaryBuilder(TypePtr type, Allocator* allocator = default_allocator())
      : ArrayBuilder(checked_type(std::move(type)), allocator),
        offsets_(allocator),
        data_(allocator) {}

  void append(std::string_view value) {
    check_room(static_cast<int64_t>(value.size()));
    offsets_.append(static_cast<Offset>(data_.size()));
    data_.append(value.data(), static_cast<int64_t>(value.size()));
    append_valid();
  }
  void append(const uint8_t* value, int64_t length) {
    append(std::string_view(reinterpret_cast<const char*>(value), static_cast<size_t>(length)));
  }
  /// Appends without checking capacity: call `reserve` for the values and `reserve_data` for
  /// their bytes first.
  void unsafe_append(std::string_view value) {
    offsets_.unsafe_append(static_cast<Offset>(data_.size()));
    data_.unsafe_append(value.data(), static_cast<int64_t>(value.size()));
    unsafe_append_valid();
  }
  /// Appends `values`; `valid_bytes` has one byte per value, zero for a null (nullptr: no
  /// nulls). The strings of null slots are ignored.
  void append_values(std::span<const std::string_view> values,
                     const uint8_t* valid_bytes = nullptr) {
    append_many(values, valid_bytes, nullptr, 0);
  }
  void append_values(std::span<const std::string> values, const uint8_t* valid_bytes = nullptr) {
    append_many(values, valid_bytes, nullptr, 0);
  }
  /// Same, valid where bits [validity_offset, +size) of `validity` are set.
  void append_values(std::span<const std::string_view> values, const uint8_t* validity,
                     int64_t validity_offset) {
    append_many(values, nullptr, validity, validity_offset);
  }
  void append_values(std::span<const std::string> values, const uint8_t* validity,
                     int64_t validity_offset) {
    append_many(values, nullptr, validity, validity_offset);
  }

  void append_null() final {
    append_null_slots(1);
    offsets_.append(static_cast<Offset>(data_.size()));
  }
  void append_nulls(int64_t count) final {
    append_null_slots(count);
    offsets_.append_fill(count, static_cast<Offset>(data_.size()));
  }
  void append_empty_value() final {
    offsets_.append(static_cast<Offset>(data_.size()));
    append_valid();
  }
  void append_empty_values(int64_t count) final {
    offsets_.append_fill(count, static_cast<Offset>(data_.size()));
    append_valid(count);
  }
  void reserve(int64_t additional) final {
    offsets_.reserve(additional);
    reserve_validity(additional);
  }
  /// Makes room for `additional` more bytes of value data.
  void reserve_data(int64_t additional) {
    check_room(additional);
    data_.reserve(additional);
  }
  void reset() final {
    ArrayBuilder::reset();
    offsets_.reset();
    data_.reset();
  }

  /// Bytes of value data appended so far.
  int64_t value_data_length() const { return data_.size(); }
  /// Value `i` among those appended so far, valid until the next append; `append` may append
  /// it again (not `append_values`, whose spans must not point into the builder).
  std::string_view value(int64_t i) const {
    const int64_t begin = offsets_[i];
    const int64_t end = i + 1 < offsets_.length() ? offsets_[i + 1] : data_.size();
    return {reinterpret_cast<const char*>(data_.data()) + begin, static_cast<size_t>(end - begin)};
  }

 protected:
  void prepare_finish() final { offsets_.reserve(1); }
  ArrayDataPtr finish_impl() final {
    offsets_.unsafe_append(static_cast<Offset>(data_.size()));
    std::shared_ptr<Buffer> validity = finish_validity();
    std::shared_ptr<Buffer> offsets = offsets_.finish();
    return std::make_shared<ArrayData>(type_, length_,
                                       std::vector<std::shared_ptr<Buffer>>{
                                           std::move(validity), std::move(offsets), data_.finish()},
                                       null_count_);
  }

 private:
  static TypePtr checked_type(TypePtr type);

  void check_room(int64_t bytes) const {
    if constexpr (!kLarge) {
      if (bytes > kMaxDataSize - data_.size()) [[unlikely]] {
        throw_binary_overflow(*type_, data_.size(), bytes, kMaxDataSize);
      }
    }
  }

  /// Appends `values` with validity from `valid_bytes`, or from `validity` bits at
  /// `validity_offset`, or none (all valid).
  template <typename S>
  void append_many(std::span<const S> values, const uint8_t* valid_bytes, const uint8_t* validity,
                   int64_t validity_offset) {
    const auto count = static_cast<int64_t>(values.size());
    const auto is_valid = [&](int64_t i) {
      return valid_bytes != nullptr ? valid_bytes[i] != 0
             : validity != nullptr  ? bit_util::get_bit(validity, validity_offset + i)
                                    : true;
    };
    int64_t bytes = 0;
    for (int64_t i = 0; i < count; ++i) {
      bytes += is_valid(i) ? static_cast<int64_t>(values[static_cast<size_t>(i)].size()) : 0;
    }
    reserve_data(bytes);
    if (valid_bytes != nullptr) {
      append_validity_bytes(valid_bytes, count);
    } else {
      append_validity_bits(validity, validity_offset, count);
    }
    offsets_.reserve(count);
    for (int64_t i = 0; i < count; ++i) {
      offsets_.unsafe_append(static_cast<Offset>(data_.size()));
      if (is_valid(i)) {
        const S& value = values[static_cast<size_t>(i)];
        data_.unsafe_append(value.data(), static_cast<int64_t>(value.size()));
      }
    }
  }

  TypedBufferBuilder<Offset> offsets_;  // one per value; finish adds the closing offset
  BufferBuilder data_;
};

extern template class BaseBinaryBuilder<int32_t>;
extern template class BaseBinaryBuilder<int64_t>;

/// utf8 values. The bytes are not checked to be UTF-8 here (`Array::validate_full` does).
class StringBuilder final : public BaseBinaryBuilder<int32_t> {
 public:
  explicit StringBuilder(Allocator* allocator = default_allocator())
      : BaseBinaryBuilder<int32_t>(utf8(), allocator) {}
};

class BinaryBuilder final : public BaseBinaryBuilder<int32_t> {
 public:
  explicit BinaryBuilder(Allocator* allocator = default_allocator())
      : BaseBinaryBuilder<int32_t>(binary(), allocator) {}
};

class LargeStringBuilder final : public BaseBinaryBuilder<int64_t> {
 public:
  explicit LargeStringBuilder(Allocator* allocator = default_allocator())
      : BaseBinaryBuilder<int64_t>(large_utf8(), allocator) {}
};

class LargeBinaryBuilder final : public BaseBinaryBuilder<int64_t> {
 public:
  explicit LargeBinaryBuilder(Allocator* allocator = default_allocator())
      : BaseBinaryBuilder<int64_t>(large_binary(), allocator) {}
};

/// fixed_size_binary[width] values: every value has exactly `width` bytes.
class FixedSizeBinaryBuilder final : public ArrayBuilder {
 public:
  explicit FixedSizeBinaryBuilder(TypePtr type, Allocator* allocator = default_allocator());

  int32_t byte_width() const { return width_; }

  /// Appends `value`; throws `InvalidArgument` unless it has exactly `byte_width()` bytes.
  void append(std::string_view value) {
    if (static_cast<int64_t>(value.size()) != width_) [[unlikely]] {
      throw_wrong_width(static_cast<int64_t>(value.size()));
    }
    data_.append(value.data(), width_);
    append_valid();
  }
  /// Appends the `byte_width()` bytes at `value`.
  void append(const uint8_t* value) {
    data_.append(value, width_);
    append_valid();
  }
  /// Appends without checking capacity: call `reserve` first.
  void unsafe_append(const uint8_t* value) {
    data_.unsafe_append(value, width_);
    unsafe_append_valid();
  }
  /// Appends `count` values stored back to back at `values` (count * byte_width() bytes), with
  /// one validity byte per value (nullptr: no nulls).
  void append_values(const uint8_t* values, int64_t count, const uint8_t* valid_bytes = nullptr);

  void append_null() override;
  void append_nulls(int64_t count) override;
  void append_empty_value() override;
  void append_empty_values(int64_t count) override;
  void reserve(int64_t additional) override;
  void reset() override;

  /// Value `i` among those appended so far, valid until the next append (which may append it
  /// again).
  std::string_view value(int64_t i) const {
    return {reinterpret_cast<const char*>(data_.data()) + i * width_, static_cast<size_t>(width_)};
  }

 protected:
  ArrayDataPtr finish_impl() override;

 private:
  [[noreturn]] void throw_wrong_width(int64_t size) const;

  int32_t width_;
  BufferBuilder data_;
};

/// binary_view values: strings of up to 12 bytes are stored inline in their 16-byte view;
/// longer ones keep a 4-byte prefix, the index of a data buffer and an offset into it. Data
/// buffers are filled up to `block_size` bytes (a longer value gets a buffer of its own size)
/// and a new one is started when the current one is full. `StringViewBuilder` builds utf8_view.
class BinaryViewBuilder : public ArrayBuilder {
 public:
  static constexpr int64_t kDefaultBlockSize = int64_t{32} * 1024;

  explicit BinaryViewBuilder(Allocator* allocator = default_allocator(),
                             int64_t block_size = kDefaultBlockSize)
      : BinaryViewBuilder(binary_view(), allocator, block_size) {}
  /// A builder of `type`, utf8_view or binary_view.
  BinaryViewBuilder(TypePtr type, Allocator* allocator, int64_t block_size = kDefaultBlockSize);

  void append(std::string_view value) {
    views_.append(make_view(value));
    append_valid();
  }
  /// Appends without checking the capacity of the views: call `reserve` first (data buffers
  /// still grow as needed).
  void unsafe_append(std::string_view value) {
    views_.unsafe_append(make_view(value));
    unsafe_append_valid();
  }
  void append_values(std::span<const std::string_view> values,
                     const uint8_t* valid_bytes = nullptr);
  void append_values(std::span<const std::string> values, const uint8_t* valid_bytes = nullptr);
  /// Same, valid where bits [validity_offset, +size) of `validity` are set.
  void append_values(std::span<const std::string_view> values, const uint8_t* validity,
                     int64_t validity_offset);
  void append_values(std::span<const std::string> values, const uint8_t* validity,
                     int64_t validity_offset);

  void append_null() final;
  void append_nulls(int64_t count) final;
  void append_empty_value() final;
  void append_empty_values(int64_t count) final;
  void reserve(int64_t additional) final;
  void reset() final;

  int64_t block_size() const { return block_size_; }

 protected:
  ArrayDataPtr finish_impl() final;

 private:
  BinaryView make_view(std::string_view value) {
    BinaryView view{};
    view.size = static_cast<int32_t>(value.size());
    if (value.size() <= static_cast<size_t>(BinaryView::kInlineSize)) {
      if (!value.empty()) {
        std::memcpy(view.inlined, value.data(), value.size());
      }
      return view;
    }
    const auto size = static_cast<int64_t>(value.size());
    if (size > current_.capacity() - current_.size()) [[unlikely]] {
      start_block(size);
    }
    std::memcpy(view.ref.prefix, value.data(), sizeof(view.ref.prefix));
    view.ref.buffer_index = static_cast<int32_t>(blocks_.size());
    view.ref.offset = static_cast<int32_t>(current_.size());
    current_.unsafe_append(value.data(), size);
    return view;
  }
  /// Closes the current data buffer and opens one with room for at least `size` bytes.
  void start_block(int64_t size);
  template <typename S>
  void append_many(std::span<const S> values, const uint8_t* valid_bytes, const uint8_t* validity,
                   int64_t validity_offset);

  int64_t block_size_;
  TypedBufferBuilder<BinaryView> views_;
  BufferBuilder current_;
  std::vector<std::shared_ptr<Buffer>> blocks_;
};

/// utf8_view values.
class StringViewBuilder final : public BinaryViewBuilder {
 public:
  explicit StringViewBuilder(Allocator* allocator = default_allocator(),
                             int64_t block_size = kDefaultBlockSize)
      : BinaryViewBuilder(utf8_view(), allocator, block_size) {}
};

}  // namespace bowstring
