#include "bowstring/array/builder_binary.h"

#include <string>

namespace bowstring {

void throw_binary_overflow(const DataType& type, int64_t size, int64_t needed, int64_t limit) {
  throw InvalidArgument("cannot append " + std::to_string(needed) + " bytes to a " +
                        type.to_string() + " builder holding " + std::to_string(size) +
                        " bytes: its offsets address at most " + std::to_string(limit) +
                        " bytes (use the large type)");
}

template <typename Offset>
TypePtr BaseBinaryBuilder<Offset>::checked_type(TypePtr type) {
  if (type == nullptr) {
    throw InvalidArgument("a binary builder needs a type");
  }
  const TypeId id = type->id();
  const bool matches = kLarge ? (id == TypeId::kLargeString || id == TypeId::kLargeBinary)
                              : (id == TypeId::kString || id == TypeId::kBinary);
  if (!matches) {
    throw TypeError(std::string(kLarge ? "a large binary builder builds large_utf8 or large_binary"
                                       : "a binary builder builds utf8 or binary") +
                    " arrays, not " + type->to_string());
  }
  return type;
}

template class BaseBinaryBuilder<int32_t>;
template class BaseBinaryBuilder<int64_t>;

// --- FixedSizeBinaryBuilder ---------------------------------------------------------------

FixedSizeBinaryBuilder::FixedSizeBinaryBuilder(TypePtr type, Allocator* allocator)
    : ArrayBuilder(
          checked_builder_type(std::move(type), TypeId::kFixedSizeBinary, "FixedSizeBinaryBuilder"),
          allocator),
      width_(static_cast<const FixedSizeBinaryType&>(*type_).width()),
      data_(allocator) {}

void FixedSizeBinaryBuilder::append_values(const uint8_t* values, int64_t count,
                                           const uint8_t* valid_bytes) {
  append_validity_bytes(valid_bytes, count);
  data_.append(values, count * width_);
}

void FixedSizeBinaryBuilder::append_null() {
  append_null_slots(1);
  data_.append_fill(width_, 0);
}

void FixedSizeBinaryBuilder::append_nulls(int64_t count) {
  append_null_slots(count);
  data_.append_fill(count * width_, 0);
}

void FixedSizeBinaryBuilder::append_empty_value() {
  data_.append_fill(width_, 0);
  append_valid();
}

void FixedSizeBinaryBuilder::append_empty_values(int64_t count) {
  data_.append_fill(count * width_, 0);
  append_valid(count);
}

void FixedSizeBinaryBuilder::reserve(int64_t additional) {
  data_.reserve(additional * width_);
  reserve_validity(additional);
}

void FixedSizeBinaryBuilder::reset() {
  ArrayBuilder::reset();
  data_.reset();
}

ArrayDataPtr FixedSizeBinaryBuilder::finish_impl() {
  std::shared_ptr<Buffer> validity = finish_validity();
  return std::make_shared<ArrayData>(
      type_, length_, std::vector<std::shared_ptr<Buffer>>{std::move(validity), data_.finish()},
      null_count_);
}

void FixedSizeBinaryBuilder::throw_wrong_width(int64_t size) const {
  throw InvalidArgument("a " + type_->to_string() + " value must have " + std::to_string(width_) +
                        " bytes, got " + std::to_string(size));
}

// --- BinaryViewBuilder --------------------------------------------------------------------

namespace {

TypePtr checked_view_type(TypePtr type) {
  if (type == nullptr) {
    throw InvalidArgument("a binary view builder needs a type");
  }
  if (type->id() != TypeId::kStringView && type->id() != TypeId::kBinaryView) {
    throw TypeError("a binary view builder builds utf8_view or binary_view arrays, not " +
                    type->to_string());
  }
  return type;
}

}  // namespace

BinaryViewBuilder::BinaryViewBuilder(TypePtr type, Allocator* allocator, int64_t block_size)
    : ArrayBuilder(checked_view_type(std::move(type)), allocator),
      block_size_(block_size),
      views_(allocator),
      current_(allocator) {
  if (block_size <= BinaryView::kInlineSize || block_size > std::numeric_limits<int32_t>::max()) {
    throw InvalidArgument("the data block size of a view builder must be between 13 and " +
                          std::to_string(std::numeric_limits<int32_t>::max()) + " bytes, got " +
                          std::to_string(block_size));
  }
}

void BinaryViewBuilder::start_block(int64_t size) {
  if (size > std::numeric_limits<int32_t>::max()) {
    throw InvalidArgument("a " + type_->to_string() + " value cannot exceed " +
                          std::to_string(std::numeric_limits<int32_t>::max()) + " bytes, got " +
                          std::to_string(size));
  }
  if (current_.size() > 0) {
    blocks_.push_back(current_.finish());
  }
  current_.reserve(std::max(size, block_size_));
}

template <typename S>
void BinaryViewBuilder::append_many(std::span<const S> values, const uint8_t* valid_bytes,
                                    const uint8_t* validity, int64_t validity_offset) {
  const auto count = static_cast<int64_t>(values.size());
  if (valid_bytes != nullptr) {
    append_validity_bytes(valid_bytes, count);
  } else {
    append_validity_bits(validity, validity_offset, count);
  }
  views_.reserve(count);
  for (int64_t i = 0; i < count; ++i) {
    const bool valid = valid_bytes != nullptr ? valid_bytes[i] != 0
                       : validity != nullptr  ? bit_util::get_bit(validity, validity_offset + i)
                                              : true;
    views_.unsafe_append(valid ? make_view(values[static_cast<size_t>(i)]) : BinaryView{});
  }
}

void BinaryViewBuilder::append_values(std::span<const std::string_view> values,
                                      const uint8_t* valid_bytes) {
  append_many(values, valid_bytes, nullptr, 0);
}

void BinaryViewBuilder::append_values(std::span<const std::string> values,
                                      const uint8_t* valid_bytes) {
  append_many(values, valid_bytes, nullptr, 0);
}

void BinaryViewBuilder::append_values(std::span<const std::string_view> values,
                                      const uint8_t* validity, int64_t validity_offset) {
  append_many(values, nullptr, validity, validity_offset);
}

void BinaryViewBuilder::append_values(std::span<const std::string> values, const uint8_t* validity,
                                      int64_t validity_offset) {
  append_many(values, nullptr, validity, validity_offset);
}

void BinaryViewBuilder::append_null() {
  append_null_slots(1);
  views_.append(BinaryView{});
}

void BinaryViewBuilder::append_nulls(int64_t count) {
  append_null_slots(count);
  views_.append_fill(count, BinaryView{});
}

void BinaryViewBuilder::append_empty_value() {
  views_.append(BinaryView{});
  append_valid();
}

void BinaryViewBuilder::append_empty_values(int64_t count) {
  views_.append_fill(count, BinaryView{});
  append_valid(count);
}

void BinaryViewBuilder::reserve(int64_t additional) {
  views_.reserve(additional);
  reserve_validity(additional);
}

void BinaryViewBuilder::reset() {
  ArrayBuilder::reset();
  views_.reset();
  current_.reset();
  blocks_.clear();
}

ArrayDataPtr BinaryViewBuilder::finish_impl() {
  std::vector<std::shared_ptr<Buffer>> buffers;
  buffers.reserve(blocks_.size() + 3);
  buffers.push_back(finish_validity());
  buffers.push_back(views_.finish());
  for (std::shared_ptr<Buffer>& block : blocks_) {
    buffers.push_back(std::move(block));
  }
  blocks_.clear();
  if (current_.size() > 0) {
    buffers.push_back(current_.finish());
  } else {
    current_.reset();
  }
  return std::make_shared<ArrayData>(type_, length_, std::move(buffers), null_count_);
}

}  // namespace bowstring
