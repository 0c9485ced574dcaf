#include "bowstring/expr/rows.h"

#include <cstring>
#include <memory>
#include <string>

#include "bowstring/array/concatenate.h"
#include "bowstring/compute/selection.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/util/bit_util.h"
#include "bowstring/util/error.h"

namespace bowstring::expr {

namespace {

/// Types laid out as a validity bitmap and one buffer of fixed-width values, which are moved
/// row by row with plain copies.
bool is_flat_fixed_width(const DataType& type) {
  switch (type.id()) {
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

/// A zeroed bitmap of `length` bits.
MutableBuffer zeroed_bitmap(int64_t length, Allocator* allocator) {
  MutableBuffer bitmap(bit_util::bytes_for_bits(length), allocator);
  std::memset(bitmap.mutable_data(), 0, static_cast<size_t>(bitmap.size()));
  return bitmap;
}

/// Copies value `from` of `source` (`width` bytes each, or bits when width is 0) to slot `to`.
template <int kWidth>
void copy_values(const uint8_t* source, int64_t source_offset, std::span<const int64_t> from,
                 uint8_t* target, std::span<const int64_t> to, int width) {
  const size_t n = from.empty() ? to.size() : from.size();
  for (size_t j = 0; j < n; ++j) {
    const int64_t in = from.empty() ? 0 : from[j];
    const int64_t out = to.empty() ? static_cast<int64_t>(j) : to[j];
    if constexpr (kWidth == 0) {
      bit_util::set_bit_to(target, out, bit_util::get_bit(source, source_offset + in));
    } else if constexpr (kWidth > 0) {
      std::memcpy(target + out * kWidth, source + (source_offset + in) * kWidth, kWidth);
    } else {
      std::memcpy(target + out * width, source + (source_offset + in) * width,
                  static_cast<size_t>(width));
    }
  }
}

/// Copies values `from[j]` of `source` into slots `to[j]` of `target`; an empty `from` means
/// value 0 for every target slot (a scalar), an empty `to` means slots 0, 1, 2...
void move_values(const ArrayData& source, std::span<const int64_t> from, uint8_t* target,
                 std::span<const int64_t> to) {
  const uint8_t* values = source.buffers[1]->data();
  const int width = source.type->byte_width();
  if (source.type->id() == TypeId::kBoolean) {
    copy_values<0>(values, source.offset, from, target, to, 0);
    return;
  }
  switch (width) {
    case 1:
      copy_values<1>(values, source.offset, from, target, to, width);
      break;
    case 2:
      copy_values<2>(values, source.offset, from, target, to, width);
      break;
    case 4:
      copy_values<4>(values, source.offset, from, target, to, width);
      break;
    case 8:
      copy_values<8>(values, source.offset, from, target, to, width);
      break;
    case 16:
      copy_values<16>(values, source.offset, from, target, to, width);
      break;
    default:
      copy_values<-1>(values, source.offset, from, target, to, width);
      break;
  }
}

/// Copies the validity of values `from[j]` of `source` into bits `to[j]` (same conventions as
/// `move_values`); returns the number of nulls copied.
int64_t move_validity(const ArrayData& source, std::span<const int64_t> from, uint8_t* target,
                      std::span<const int64_t> to) {
  const size_t n = from.empty() ? to.size() : from.size();
  const uint8_t* validity = source.buffers[0] ? source.buffers[0]->data() : nullptr;
  int64_t nulls = 0;
  for (size_t j = 0; j < n; ++j) {
    const int64_t in = from.empty() ? 0 : from[j];
    const int64_t out = to.empty() ? static_cast<int64_t>(j) : to[j];
    const bool valid = validity == nullptr || bit_util::get_bit(validity, source.offset + in);
    bit_util::set_bit_to(target, out, valid);
    nulls += valid ? 0 : 1;
  }
  return nulls;
}

bool is_flat(const DataType& type) {
  return type.id() == TypeId::kBoolean || is_flat_fixed_width(type);
}

}  // namespace

Array gather(const Array& array, std::span<const int64_t> rows, Allocator* allocator) {
  return compute::take(array, rows, allocator);
}

Array scatter(const TypePtr& type, int64_t length, std::span<const RowPiece> pieces,
              Allocator* allocator) {
  if (is_flat(*type)) {
    const bool boolean = type->id() == TypeId::kBoolean;
    MutableBuffer values = boolean ? zeroed_bitmap(length, allocator)
                                   : MutableBuffer(length * type->byte_width(), allocator);
    if (!boolean) {
      std::memset(values.mutable_data(), 0, static_cast<size_t>(values.size()));
    }
    MutableBuffer bitmap = zeroed_bitmap(length, allocator);
    int64_t covered = 0;
    int64_t nulls = 0;
    for (const RowPiece& piece : pieces) {
      if (piece.rows.empty()) {
        continue;
      }
      const ArrayData& data = *piece.values.data();
      // A scalar is read at index 0 for every row.
      std::span<const int64_t> from = piece.from;
      std::vector<int64_t> identity;
      if (!piece.values.is_scalar() && from.empty()) {
        identity.resize(piece.rows.size());
        for (size_t j = 0; j < identity.size(); ++j) {
          identity[j] = static_cast<int64_t>(j);
        }
        from = identity;
      }
      move_values(data, from, values.mutable_data(), piece.rows);
      nulls += move_validity(data, from, bitmap.mutable_data(), piece.rows);
      covered += static_cast<int64_t>(piece.rows.size());
    }
    nulls += length - covered;
    std::shared_ptr<Buffer> validity = nulls > 0 ? bitmap.finish() : nullptr;
    return Array(std::make_shared<ArrayData>(
        type, length, std::vector<std::shared_ptr<Buffer>>{validity, values.finish()}, nulls));
  }
  // Any other type: every piece's values one after the other, with a null at the end for rows
  // no piece covers, then each result row gathered from there.
  std::vector<Array> parts;
  std::vector<int64_t> source(static_cast<size_t>(length), -1);
  int64_t base = 0;
  for (const RowPiece& piece : pieces) {
    if (piece.rows.empty()) {
      continue;
    }
    for (size_t j = 0; j < piece.rows.size(); ++j) {
      source[static_cast<size_t>(piece.rows[j])] =
          base + (piece.values.is_scalar() ? 0
                  : piece.from.empty()     ? static_cast<int64_t>(j)
                                           : piece.from[j]);
    }
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
  const Array all = parts.size() == 1 ? parts[0] : concatenate(parts, allocator);
  return compute::take(all, std::span<const int64_t>(source), allocator);
}

}  // namespace bowstring::expr
