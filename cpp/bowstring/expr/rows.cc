#include "bowstring/expr/rows.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <string>

#include "bowstring/array/concatenate.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/util/bit_util.h"
#include "bowstring/util/error.h"

namespace bowstring::expr {

RowMask RowMask::none(int64_t length) {
  return RowMask{std::vector<uint64_t>(static_cast<size_t>((length + 63) / 64), 0), length};
}

RowMask RowMask::all(int64_t length) {
  RowMask mask{std::vector<uint64_t>(static_cast<size_t>((length + 63) / 64), ~uint64_t{0}),
               length};
  mask.clear_tail();
  return mask;
}

int64_t RowMask::count() const {
  int64_t count = 0;
  for (uint64_t word : words) {
    count += std::popcount(word);
  }
  return count;
}

void RowMask::clear_tail() {
  if (length % 64 != 0) {
    words.back() &= (uint64_t{1} << (length % 64)) - 1;
  }
}

Array RowMask::to_array(Allocator* allocator) const {
  const int64_t bytes = static_cast<int64_t>(words.size() * sizeof(uint64_t));
  MutableBuffer bits(bytes, allocator);
  std::memcpy(bits.mutable_data(), words.data(), static_cast<size_t>(bytes));
  return Array(std::make_shared<ArrayData>(
      boolean(), length, std::vector<std::shared_ptr<Buffer>>{nullptr, bits.finish()}, 0));
}

namespace {

/// Types laid out as a validity bitmap and one buffer of fixed-width values (or bits), which
/// are moved row by row with plain copies.
bool is_flat(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
    case TypeId::kInt8:
    case TypeId::kUInt8:
    case TypeId::kInt16:
    case TypeId::kUInt16:
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat16:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
    case TypeId::kDate32:
    case TypeId::kDate64:
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
    case TypeId::kIntervalMonths:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalMonthDayNano:
    case TypeId::kFixedSizeBinary:
      return true;
    default:
      return false;
  }
}

MutableBuffer zeroed(int64_t bytes, Allocator* allocator) {
  MutableBuffer buffer(bytes, allocator);
  std::memset(buffer.mutable_data(), 0, static_cast<size_t>(bytes));
  return buffer;
}

/// Calls `visit(row, index)` for each target row of `piece`, with the index of its value.
template <typename Visit>
void for_each_target(const RowPiece& piece, Visit&& visit) {
  const std::vector<uint64_t>& target = piece.target->words;
  if (piece.values.is_scalar() || piece.in_place) {
    const bool scalar = piece.values.is_scalar();
    for (size_t w = 0; w < target.size(); ++w) {
      for (uint64_t word = target[w]; word != 0; word &= word - 1) {
        const int64_t row = static_cast<int64_t>(w * 64) + std::countr_zero(word);
        visit(row, scalar ? 0 : row);
      }
    }
    return;
  }
  // Compact values: the k-th source row holds value k.
  const std::vector<uint64_t>& source = piece.source->words;
  int64_t index = 0;
  for (size_t w = 0; w < source.size(); ++w) {
    const uint64_t taken = target[w];
    for (uint64_t word = source[w]; word != 0; word &= word - 1) {
      const int bit = std::countr_zero(word);
      if ((taken >> bit) & 1) {
        visit(static_cast<int64_t>(w * 64) + bit, index);
      }
      ++index;
    }
  }
}

/// Moves the values and validity of one piece into the flat output buffers.
template <int kWidth>
int64_t scatter_flat(const RowPiece& piece, uint8_t* values, uint8_t* validity, int width) {
  const ArrayData& data = *piece.values.data();
  const uint8_t* source = data.buffers[1]->data();
  const uint8_t* source_validity = data.buffers[0] ? data.buffers[0]->data() : nullptr;
  const int64_t offset = data.offset;
  int64_t nulls = 0;
  for_each_target(piece, [&](int64_t row, int64_t index) {
    const int64_t at = offset + index;
    if constexpr (kWidth == 0) {
      bit_util::set_bit_to(values, row, bit_util::get_bit(source, at));
    } else if constexpr (kWidth > 0) {
      std::memcpy(values + row * kWidth, source + at * kWidth, kWidth);
    } else {
      std::memcpy(values + row * width, source + at * width, static_cast<size_t>(width));
    }
    const bool valid = source_validity == nullptr || bit_util::get_bit(source_validity, at);
    if (valid) {
      bit_util::set_bit(validity, row);
    } else {
      ++nulls;
    }
  });
  return nulls;
}

int64_t scatter_flat_piece(const RowPiece& piece, const DataType& type, uint8_t* values,
                           uint8_t* validity) {
  if (type.id() == TypeId::kBoolean) {
    return scatter_flat<0>(piece, values, validity, 0);
  }
  const int width = type.byte_width();
  switch (width) {
    case 1:
      return scatter_flat<1>(piece, values, validity, width);
    case 2:
      return scatter_flat<2>(piece, values, validity, width);
    case 4:
      return scatter_flat<4>(piece, values, validity, width);
    case 8:
      return scatter_flat<8>(piece, values, validity, width);
    case 16:
      return scatter_flat<16>(piece, values, validity, width);
    default:
      return scatter_flat<-1>(piece, values, validity, width);
  }
}

}  // namespace

Array scatter(const TypePtr& type, int64_t length, std::span<const RowPiece> pieces,
              Allocator* allocator) {
  if (is_flat(*type)) {
    const int64_t bitmap_bytes = bit_util::bytes_for_bits(length);
    MutableBuffer values = zeroed(
        type->id() == TypeId::kBoolean ? bitmap_bytes : length * type->byte_width(), allocator);
    MutableBuffer validity = zeroed(bitmap_bytes, allocator);
    int64_t covered = 0;
    int64_t nulls = 0;
    for (const RowPiece& piece : pieces) {
      nulls += scatter_flat_piece(piece, *type, values.mutable_data(), validity.mutable_data());
      covered += piece.target->count();
    }
    nulls += length - covered;
    std::shared_ptr<Buffer> bitmap = nulls > 0 ? validity.finish() : nullptr;
    return Array(std::make_shared<ArrayData>(
        type, length, std::vector<std::shared_ptr<Buffer>>{bitmap, values.finish()}, nulls));
  }
  // Any other type: every piece's values one after the other, with a null at the end for rows
  // no piece covers, then each result row taken from there.
  std::vector<Array> parts;
  std::vector<int64_t> source(static_cast<size_t>(length), -1);
  int64_t base = 0;
  for (const RowPiece& piece : pieces) {
    for_each_target(piece, [&](int64_t row, int64_t index) {
      source[static_cast<size_t>(row)] = base + index;
    });
    parts.push_back(piece.values.array());
    base += piece.values.length();
  }
  bool uncovered = false;
  for (int64_t& row : source) {
    if (row < 0) {
      row = base;
      uncovered = true;
    }
  }
  if (uncovered) {
    parts.push_back(compute::Datum::null_scalar(type, allocator).array());
  }
  if (parts.empty()) {
    return compute::Datum::null_scalar(type, allocator).to_array(length, allocator);
  }
  const Array all = parts.size() == 1 ? parts[0] : concatenate(parts, allocator);
  return compute::take(all, std::span<const int64_t>(source), allocator);
}

}  // namespace bowstring::expr
