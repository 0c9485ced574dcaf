#include "bowstring/compute/vector/selection.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "bowstring/array/validate.h"
#include "bowstring/compute/core/predicate_util.h"
#include "bowstring/util/bit_util.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {
namespace {

// --- bitmaps ---------------------------------------------------------------------------------

/// Bits [offset, offset + count) of `bits` (count <= 64) as a word, bit 0 first. Reads only the
/// bytes that hold those bits.
inline uint64_t read_bits(const uint8_t* bits, int64_t offset, int64_t count) {
  const uint8_t* start = bits + (offset >> 3);
  const int shift = static_cast<int>(offset & 7);
  const int64_t bytes = bit_util::bytes_for_bits(shift + count);
  uint64_t word = 0;
  if (bytes >= 8) {
    std::memcpy(&word, start, 8);
  } else {
    std::memcpy(&word, start, static_cast<size_t>(bytes));
  }
  word >>= shift;
  if (bytes == 9) {
    word |= static_cast<uint64_t>(start[8]) << (64 - shift);
  }
  if (count < 64) {
    word &= (uint64_t{1} << count) - 1;
  }
  return word;
}

/// A boolean mask read a word of 64 rows at a time: true where the value is true and valid.
class MaskWords {
 public:
  explicit MaskWords(const Array& mask) : length_(mask.length()) {
    const ArrayData& data = *mask.data();
    offset_ = data.offset;
    values_ = data.buffers[1]->data();
    validity_ =
        data.buffers[0] != nullptr && data.null_count() > 0 ? data.buffers[0]->data() : nullptr;
  }
  int64_t length() const { return length_; }
  int64_t num_words() const { return (length_ + 63) / 64; }
  /// The selected rows among rows [64 * w, 64 * w + 64).
  uint64_t word(int64_t w) const {
    const int64_t start = w * 64;
    const int64_t count = std::min<int64_t>(64, length_ - start);
    uint64_t bits = read_bits(values_, offset_ + start, count);
    if (validity_ != nullptr) {
      bits &= read_bits(validity_, offset_ + start, count);
    }
    return bits;
  }
  int64_t count_selected() const {
    int64_t total = 0;
    for (int64_t w = 0; w < num_words(); ++w) {
      total += std::popcount(word(w));
    }
    return total;
  }

 private:
  int64_t length_;
  int64_t offset_;
  const uint8_t* values_;
  const uint8_t* validity_;
};

void check_mask(const Array& mask) {
  if (mask.type_id() != TypeId::kBoolean) {
    throw TypeError("filter: the mask must be boolean, got " + mask.type()->to_string());
  }
}

void check_mask(const Array& mask, int64_t length) {
  check_mask(mask);
  if (mask.length() != length) {
    throw InvalidArgument("filter: the mask has " + std::to_string(mask.length()) +
                          " rows but the values have " + std::to_string(length));
  }
}

/// The validity bitmap of `data` when it has nulls in its window, else nullptr.
const uint8_t* validity_of(const ArrayData& data) {
  if (data.buffers.empty() || data.buffers[0] == nullptr || data.null_count() == 0) {
    return nullptr;
  }
  return data.buffers[0]->data();
}

// --- indices ---------------------------------------------------------------------------------

/// Row numbers to take, relative to the window of the array they address; a null index gives a
/// null row (its number is not read). `I` is int32_t or int64_t.
template <typename I>
struct Indices {
  const I* values;
  int64_t length;
  const uint8_t* validity = nullptr;  ///< nullptr: no nulls
  int64_t validity_offset = 0;

  bool valid(int64_t i) const {
    return validity == nullptr || bit_util::get_bit(validity, validity_offset + i);
  }
};

/// int64 row numbers built by a kernel for a child array; -1 stands for a null row.
class ChildIndices {
 public:
  void reserve(int64_t count) { rows_.reserve(static_cast<size_t>(count)); }
  void append(int64_t row) { rows_.push_back(row); }
  void append_null() {
    rows_.push_back(-1);
    has_nulls_ = true;
  }
  void append_range(int64_t start, int64_t end) {
    for (int64_t row = start; row < end; ++row) {
      rows_.push_back(row);
    }
  }
  int64_t length() const { return static_cast<int64_t>(rows_.size()); }

  /// The rows as `Indices`, with a validity bitmap when some are null.
  Indices<int64_t> view() {
    Indices<int64_t> indices{rows_.data(), length()};
    if (has_nulls_) {
      validity_.assign(static_cast<size_t>(bit_util::bytes_for_bits(length())), 0);
      for (int64_t i = 0; i < length(); ++i) {
        if (rows_[static_cast<size_t>(i)] >= 0) {
          bit_util::set_bit(validity_.data(), i);
        }
      }
      indices.validity = validity_.data();
    }
    return indices;
  }

 private:
  std::vector<int64_t> rows_;
  std::vector<uint8_t> validity_;
  bool has_nulls_ = false;
};

template <typename T>
[[noreturn]] void throw_out_of_range(T index, int64_t length) {
  throw IndexError("take: index " + std::to_string(index) + " is out of bounds for an array of " +
                   "length " + std::to_string(length));
}

/// Throws `IndexError` for the first valid index outside [0, length).
template <typename T>
void check_bounds(const T* values, int64_t count, const uint8_t* validity, int64_t validity_offset,
                  int64_t length) {
  const auto limit = static_cast<uint64_t>(length);
  auto outside = [limit](T value) {
    // A negative value converts to a huge unsigned one: one comparison covers both ends.
    if constexpr (std::is_signed_v<T>) {
      return static_cast<uint64_t>(static_cast<int64_t>(value)) >= limit;
    } else {
      return static_cast<uint64_t>(value) >= limit;
    }
  };
  if (validity == nullptr) {
    bool any = false;
    for (int64_t i = 0; i < count; ++i) {
      any |= outside(values[i]);
    }
    if (!any) {
      return;
    }
  }
  for (int64_t i = 0; i < count; ++i) {
    if ((validity == nullptr || bit_util::get_bit(validity, validity_offset + i)) &&
        outside(values[i])) {
      throw_out_of_range(values[i], length);
    }
  }
}

// --- output buffers --------------------------------------------------------------------------

template <typename T>
T* output_values(MutableBuffer& buffer, int64_t count) {
  buffer.resize(count * static_cast<int64_t>(sizeof(T)));
  return reinterpret_cast<T*>(buffer.mutable_data());
}

/// Room for `count` values of `T` that the kernel writes every one of (not zero-filled first).
template <typename T>
detail::UninitializedBuffer uninitialized_values(int64_t count, Allocator* allocator) {
  return detail::UninitializedBuffer(count * static_cast<int64_t>(sizeof(T)), allocator);
}

template <typename T>
T* values_in(detail::UninitializedBuffer& buffer) {
  return reinterpret_cast<T*>(buffer.mutable_data());
}

/// The validity of rows taken from `values` at `indices`: null where the index or the value
/// is. Returns nullptr when no row is null.
template <typename I>
std::shared_ptr<Buffer> take_validity(const ArrayData& values, const Indices<I>& indices,
                                      Allocator* allocator, int64_t* null_count) {
  const uint8_t* value_validity = validity_of(values);
  *null_count = 0;
  if (value_validity == nullptr && indices.validity == nullptr) {
    return nullptr;
  }
  MutableBuffer bitmap(bit_util::bytes_for_bits(indices.length), allocator);
  uint8_t* out = bitmap.mutable_data();
  const int64_t offset = values.offset;
  int64_t valid_count = 0;
  if (indices.validity == nullptr) {
    for (int64_t i = 0; i < indices.length; ++i) {
      const bool valid = bit_util::get_bit(value_validity, offset + indices.values[i]);
      out[i >> 3] |= static_cast<uint8_t>(static_cast<unsigned>(valid) << (i & 7));
      valid_count += valid;
    }
  } else {
    for (int64_t i = 0; i < indices.length; ++i) {
      const bool valid =
          indices.valid(i) && (value_validity == nullptr ||
                               bit_util::get_bit(value_validity, offset + indices.values[i]));
      out[i >> 3] |= static_cast<uint8_t>(static_cast<unsigned>(valid) << (i & 7));
      valid_count += valid;
    }
  }
  *null_count = indices.length - valid_count;
  if (*null_count == 0) {
    return nullptr;
  }
  return bitmap.finish();
}

template <typename T, typename I>
void gather(const T* source, const Indices<I>& indices, T* out) {
  const I* rows = indices.values;
  if (indices.validity == nullptr) {
    for (int64_t i = 0; i < indices.length; ++i) {
      out[i] = source[rows[i]];
    }
  } else {
    for (int64_t i = 0; i < indices.length; ++i) {
      out[i] = indices.valid(i) ? source[rows[i]] : T{};
    }
  }
}

struct Bytes16 {
  uint64_t words[2];
};
struct Bytes32 {
  uint64_t words[4];
};

/// Calls `use.template operator()<T>()` with `T` a plain type of `width` bytes (1, 2, 4, 8, 16
/// or 32), so that fixed-width values are copied as whole words; false for other widths.
template <typename Use>
bool with_word_of_width(int64_t width, Use&& use) {
  switch (width) {
    case 1:
      use.template operator()<uint8_t>();
      return true;
    case 2:
      use.template operator()<uint16_t>();
      return true;
    case 4:
      use.template operator()<uint32_t>();
      return true;
    case 8:
      use.template operator()<uint64_t>();
      return true;
    case 16:
      use.template operator()<Bytes16>();
      return true;
    case 32:
      use.template operator()<Bytes32>();
      return true;
    default:
      return false;
  }
}

/// Values of type `T` gathered into a buffer that `gather` writes completely.
template <typename T, typename I>
std::shared_ptr<Buffer> gather_values(const uint8_t* source, const Indices<I>& indices,
                                      Allocator* allocator) {
  detail::UninitializedBuffer buffer = uninitialized_values<T>(indices.length, allocator);
  gather(reinterpret_cast<const T*>(source), indices, values_in<T>(buffer));
  return buffer.finish();
}

/// Values of `width` bytes each, gathered; `source` points at the window's first value.
template <typename I>
std::shared_ptr<Buffer> gather_fixed_width(const uint8_t* source, int64_t width,
                                           const Indices<I>& indices, Allocator* allocator) {
  std::shared_ptr<Buffer> gathered;
  if (with_word_of_width(
          width, [&]<typename T>() { gathered = gather_values<T>(source, indices, allocator); })) {
    return gathered;
  }
  // Rows of a null index stay zero.
  MutableBuffer buffer(indices.length * width, allocator);
  uint8_t* out = buffer.mutable_data();
  for (int64_t i = 0; i < indices.length; ++i) {
    if (indices.valid(i) && width > 0) {
      std::memcpy(out + i * width, source + static_cast<int64_t>(indices.values[i]) * width,
                  static_cast<size_t>(width));
    }
  }
  return buffer.finish();
}

/// Byte width of the values of a type laid out as fixed-width values (0 for booleans).
int64_t value_width(const DataType& type) {
  if (type.id() == TypeId::kFixedSizeBinary) {
    return static_cast<const FixedSizeBinaryType&>(type).width();
  }
  return type.byte_width();
}

template <typename I>
ArrayDataPtr take_impl(const ArrayData& values, const Indices<I>& indices, Allocator* allocator);

template <typename I>
ArrayDataPtr take_fixed_width(const ArrayData& values, const Indices<I>& indices,
                              Allocator* allocator) {
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = take_validity(values, indices, allocator, &null_count);
  const int64_t width = value_width(*values.type);
  const uint8_t* source = values.buffers[1]->data() + values.offset * width;
  return std::make_shared<ArrayData>(
      values.type, indices.length,
      std::vector<std::shared_ptr<Buffer>>{std::move(validity),
                                           gather_fixed_width(source, width, indices, allocator)},
      null_count);
}

template <typename I>
ArrayDataPtr take_boolean(const ArrayData& values, const Indices<I>& indices,
                          Allocator* allocator) {
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = take_validity(values, indices, allocator, &null_count);
  MutableBuffer bits(bit_util::bytes_for_bits(indices.length), allocator);
  uint8_t* out = bits.mutable_data();
  const uint8_t* source = values.buffers[1]->data();
  for (int64_t i = 0; i < indices.length; ++i) {
    if (indices.valid(i) && bit_util::get_bit(source, values.offset + indices.values[i])) {
      bit_util::set_bit(out, i);
    }
  }
  return std::make_shared<ArrayData>(
      values.type, indices.length,
      std::vector<std::shared_ptr<Buffer>>{std::move(validity), bits.finish()}, null_count);
}

/// Offsets of the lists or strings taken: each row gets the size of the one it copies, 0 for a
/// null index. Throws when the total does not fit `O`.
template <typename O, typename I>
std::shared_ptr<Buffer> take_offsets(const O* offsets, const Indices<I>& indices,
                                     Allocator* allocator, const char* what) {
  detail::UninitializedBuffer buffer = uninitialized_values<O>(indices.length + 1, allocator);
  O* out = values_in<O>(buffer);
  int64_t total = 0;
  out[0] = 0;
  for (int64_t i = 0; i < indices.length; ++i) {
    if (indices.valid(i)) {
      const int64_t row = indices.values[i];
      total += static_cast<int64_t>(offsets[row + 1]) - static_cast<int64_t>(offsets[row]);
    }
    if (total > std::numeric_limits<O>::max()) [[unlikely]] {
      throw InvalidArgument(std::string("take: the ") + what + " taken hold more than " +
                            std::to_string(std::numeric_limits<O>::max()) +
                            " values, too many for 32-bit offsets");
    }
    out[i + 1] = static_cast<O>(total);
  }
  return buffer.finish();
}

template <typename O, typename I>
ArrayDataPtr take_binary(const ArrayData& values, const Indices<I>& indices, Allocator* allocator) {
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = take_validity(values, indices, allocator, &null_count);
  const O* offsets = values.values<O>(1);
  std::shared_ptr<Buffer> out_offsets = take_offsets(offsets, indices, allocator, "strings");
  const O* new_offsets = out_offsets->data_as<O>();
  detail::UninitializedBuffer data(static_cast<int64_t>(new_offsets[indices.length]), allocator);
  uint8_t* out = data.mutable_data();
  const uint8_t* bytes = values.buffers[2] != nullptr ? values.buffers[2]->data() : nullptr;
  for (int64_t i = 0; i < indices.length; ++i) {
    const auto size = static_cast<size_t>(new_offsets[i + 1] - new_offsets[i]);
    if (size > 0) {
      std::memcpy(out + new_offsets[i], bytes + offsets[indices.values[i]], size);
    }
  }
  return std::make_shared<ArrayData>(
      values.type, indices.length,
      std::vector<std::shared_ptr<Buffer>>{std::move(validity), std::move(out_offsets),
                                           data.finish()},
      null_count);
}

template <typename I>
ArrayDataPtr take_binary_view(const ArrayData& values, const Indices<I>& indices,
                              Allocator* allocator) {
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = take_validity(values, indices, allocator, &null_count);
  const uint8_t* source = values.buffers[1]->data() + values.offset * 16;
  std::vector<std::shared_ptr<Buffer>> buffers{std::move(validity),
                                               gather_fixed_width(source, 16, indices, allocator)};
  // The views keep pointing at the same data buffers, shared rather than copied.
  buffers.insert(buffers.end(), values.buffers.begin() + 2, values.buffers.end());
  return std::make_shared<ArrayData>(values.type, indices.length, std::move(buffers), null_count);
}

template <typename O, typename I>
ArrayDataPtr take_list(const ArrayData& values, const Indices<I>& indices, Allocator* allocator) {
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = take_validity(values, indices, allocator, &null_count);
  const O* offsets = values.values<O>(1);
  std::shared_ptr<Buffer> out_offsets = take_offsets(offsets, indices, allocator, "lists");
  ChildIndices child_rows;
  child_rows.reserve(static_cast<int64_t>(out_offsets->data_as<O>()[indices.length]));
  for (int64_t i = 0; i < indices.length; ++i) {
    if (indices.valid(i)) {
      const int64_t row = indices.values[i];
      child_rows.append_range(offsets[row], offsets[row + 1]);
    }
  }
  ArrayDataPtr child = take_impl(*values.children[0], child_rows.view(), allocator);
  return std::make_shared<ArrayData>(
      values.type, indices.length,
      std::vector<std::shared_ptr<Buffer>>{std::move(validity), std::move(out_offsets)}, null_count,
      0, std::vector<ArrayDataPtr>{std::move(child)});
}

template <typename O, typename I>
ArrayDataPtr take_list_view(const ArrayData& values, const Indices<I>& indices,
                            Allocator* allocator) {
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = take_validity(values, indices, allocator, &null_count);
  const auto width = static_cast<int64_t>(sizeof(O));
  const uint8_t* offsets = values.buffers[1]->data() + values.offset * width;
  const uint8_t* sizes = values.buffers[2]->data() + values.offset * width;
  // Offsets and sizes still address the same child, which is shared.
  return std::make_shared<ArrayData>(
      values.type, indices.length,
      std::vector<std::shared_ptr<Buffer>>{std::move(validity),
                                           gather_fixed_width(offsets, width, indices, allocator),
                                           gather_fixed_width(sizes, width, indices, allocator)},
      null_count, 0, values.children);
}

template <typename I>
ArrayDataPtr take_fixed_size_list(const ArrayData& values, const Indices<I>& indices,
                                  Allocator* allocator) {
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = take_validity(values, indices, allocator, &null_count);
  const int64_t size = static_cast<const FixedSizeListType&>(*values.type).list_size();
  ChildIndices child_rows;
  child_rows.reserve(indices.length * size);
  for (int64_t i = 0; i < indices.length; ++i) {
    if (indices.valid(i)) {
      const int64_t start = (values.offset + indices.values[i]) * size;
      child_rows.append_range(start, start + size);
    } else {
      for (int64_t k = 0; k < size; ++k) {
        child_rows.append_null();
      }
    }
  }
  ArrayDataPtr child = take_impl(*values.children[0], child_rows.view(), allocator);
  return std::make_shared<ArrayData>(values.type, indices.length,
                                     std::vector<std::shared_ptr<Buffer>>{std::move(validity)},
                                     null_count, 0, std::vector<ArrayDataPtr>{std::move(child)});
}

template <typename I>
ArrayDataPtr take_struct(const ArrayData& values, const Indices<I>& indices, Allocator* allocator) {
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = take_validity(values, indices, allocator, &null_count);
  std::vector<ArrayDataPtr> children;
  children.reserve(values.children.size());
  for (const ArrayDataPtr& child : values.children) {
    // Children share the parent's offset: cut them to its window first.
    children.push_back(take_impl(*child->slice(values.offset, values.length), indices, allocator));
  }
  return std::make_shared<ArrayData>(values.type, indices.length,
                                     std::vector<std::shared_ptr<Buffer>>{std::move(validity)},
                                     null_count, 0, std::move(children));
}

template <typename I>
ArrayDataPtr take_dictionary(const ArrayData& values, const Indices<I>& indices,
                             Allocator* allocator) {
  ArrayDataPtr taken = take_fixed_width(values, indices, allocator);
  auto result = std::make_shared<ArrayData>(*taken);
  result->dictionary = values.dictionary;
  return result;
}

/// The type code of a union's first child: what a null index selects (with a null in it).
int8_t first_type_code(const ArrayData& values) {
  return static_cast<const UnionType&>(*values.type).type_codes().front();
}

template <typename I>
ArrayDataPtr take_sparse_union(const ArrayData& values, const Indices<I>& indices,
                               Allocator* allocator) {
  const int8_t* codes = values.values<int8_t>(1);
  MutableBuffer type_ids(allocator);
  int8_t* out = output_values<int8_t>(type_ids, indices.length);
  const int8_t null_code = values.children.empty() ? 0 : first_type_code(values);
  for (int64_t i = 0; i < indices.length; ++i) {
    out[i] = indices.valid(i) ? codes[indices.values[i]] : null_code;
  }
  std::vector<ArrayDataPtr> children;
  for (const ArrayDataPtr& child : values.children) {
    children.push_back(take_impl(*child->slice(values.offset, values.length), indices, allocator));
  }
  return std::make_shared<ArrayData>(
      values.type, indices.length, std::vector<std::shared_ptr<Buffer>>{nullptr, type_ids.finish()},
      0, 0, std::move(children));
}

template <typename I>
ArrayDataPtr take_dense_union(const ArrayData& values, const Indices<I>& indices,
                              Allocator* allocator) {
  const auto& type = static_cast<const UnionType&>(*values.type);
  const int8_t* codes = values.values<int8_t>(1);
  const int32_t* offsets = values.values<int32_t>(2);
  MutableBuffer type_ids(allocator);
  MutableBuffer value_offsets(allocator);
  int8_t* out_codes = output_values<int8_t>(type_ids, indices.length);
  int32_t* out_offsets = output_values<int32_t>(value_offsets, indices.length);
  std::vector<ChildIndices> child_rows(values.children.size());
  for (int64_t i = 0; i < indices.length; ++i) {
    int child;
    if (indices.valid(i)) {
      const int64_t row = indices.values[i];
      out_codes[i] = codes[row];
      child = type.child_index(codes[row]);
      out_offsets[i] = static_cast<int32_t>(child_rows[static_cast<size_t>(child)].length());
      child_rows[static_cast<size_t>(child)].append(offsets[row]);
    } else {
      out_codes[i] = first_type_code(values);
      child = 0;
      out_offsets[i] = static_cast<int32_t>(child_rows[0].length());
      child_rows[0].append_null();
    }
  }
  std::vector<ArrayDataPtr> children;
  for (size_t c = 0; c < values.children.size(); ++c) {
    children.push_back(take_impl(*values.children[c], child_rows[c].view(), allocator));
  }
  return std::make_shared<ArrayData>(
      values.type, indices.length,
      std::vector<std::shared_ptr<Buffer>>{nullptr, type_ids.finish(), value_offsets.finish()}, 0,
      0, std::move(children));
}

template <typename R, typename I>
ArrayDataPtr take_run_end_encoded(const ArrayData& values, const Indices<I>& indices,
                                  Allocator* allocator) {
  const ArrayData& run_ends_data = *values.children[0];
  const R* run_ends = run_ends_data.values<R>(1);
  const int64_t num_runs = run_ends_data.length;
  if (indices.length > std::numeric_limits<R>::max()) {
    throw InvalidArgument("take: " + std::to_string(indices.length) +
                          " rows do not fit the run ends of " + values.type->to_string());
  }
  MutableBuffer out_run_ends(allocator);
  std::vector<int64_t> physical;  // the value of each output run, -1 for null
  std::vector<R> ends;
  int64_t previous = -2;
  for (int64_t i = 0; i < indices.length; ++i) {
    int64_t run = -1;
    if (indices.valid(i)) {
      const int64_t logical = values.offset + indices.values[i];
      run = std::upper_bound(run_ends, run_ends + num_runs, logical,
                             [](int64_t value, R end) { return value < end; }) -
            run_ends;
    }
    if (run != previous) {
      if (i > 0) {
        ends.push_back(static_cast<R>(i));
      }
      physical.push_back(run);
      previous = run;
    }
  }
  if (indices.length > 0) {
    ends.push_back(static_cast<R>(indices.length));
  }
  R* out = output_values<R>(out_run_ends, static_cast<int64_t>(ends.size()));
  std::copy(ends.begin(), ends.end(), out);
  ChildIndices value_rows;
  for (int64_t run : physical) {
    if (run < 0) {
      value_rows.append_null();
    } else {
      value_rows.append(run);
    }
  }
  ArrayDataPtr run_values = take_impl(*values.children[1], value_rows.view(), allocator);
  auto run_ends_out = std::make_shared<ArrayData>(
      run_ends_data.type, static_cast<int64_t>(ends.size()),
      std::vector<std::shared_ptr<Buffer>>{nullptr, out_run_ends.finish()}, 0);
  return std::make_shared<ArrayData>(
      values.type, indices.length, std::vector<std::shared_ptr<Buffer>>{nullptr}, 0, 0,
      std::vector<ArrayDataPtr>{std::move(run_ends_out), std::move(run_values)});
}

template <typename I>
ArrayDataPtr take_extension(const ArrayData& values, const Indices<I>& indices,
                            Allocator* allocator) {
  ArrayData storage(values);
  storage.type = static_cast<const ExtensionType&>(*values.type).storage_type();
  ArrayDataPtr taken = take_impl(storage, indices, allocator);
  auto result = std::make_shared<ArrayData>(*taken);
  result->type = values.type;
  return result;
}

template <typename I>
ArrayDataPtr take_impl(const ArrayData& values, const Indices<I>& indices, Allocator* allocator) {
  switch (values.type->id()) {
    case TypeId::kNull:
      return std::make_shared<ArrayData>(values.type, indices.length,
                                         std::vector<std::shared_ptr<Buffer>>{nullptr},
                                         indices.length);
    case TypeId::kBoolean:
      return take_boolean(values, indices, allocator);
    case TypeId::kString:
    case TypeId::kBinary:
      return take_binary<int32_t>(values, indices, allocator);
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      return take_binary<int64_t>(values, indices, allocator);
    case TypeId::kStringView:
    case TypeId::kBinaryView:
      return take_binary_view(values, indices, allocator);
    case TypeId::kList:
    case TypeId::kMap:
      return take_list<int32_t>(values, indices, allocator);
    case TypeId::kLargeList:
      return take_list<int64_t>(values, indices, allocator);
    case TypeId::kListView:
      return take_list_view<int32_t>(values, indices, allocator);
    case TypeId::kLargeListView:
      return take_list_view<int64_t>(values, indices, allocator);
    case TypeId::kFixedSizeList:
      return take_fixed_size_list(values, indices, allocator);
    case TypeId::kStruct:
      return take_struct(values, indices, allocator);
    case TypeId::kDictionary:
      return take_dictionary(values, indices, allocator);
    case TypeId::kSparseUnion:
      return take_sparse_union(values, indices, allocator);
    case TypeId::kDenseUnion:
      return take_dense_union(values, indices, allocator);
    case TypeId::kRunEndEncoded:
      switch (values.children[0]->type->id()) {
        case TypeId::kInt16:
          return take_run_end_encoded<int16_t>(values, indices, allocator);
        case TypeId::kInt32:
          return take_run_end_encoded<int32_t>(values, indices, allocator);
        default:
          return take_run_end_encoded<int64_t>(values, indices, allocator);
      }
    case TypeId::kExtension:
      return take_extension(values, indices, allocator);
    default:
      return take_fixed_width(values, indices, allocator);
  }
}

/// Indices of any integer type, checked against `length` and read as int32 or int64 (narrower
/// types are widened into `widened`).
template <typename Visit>
ArrayDataPtr with_checked_indices(const Array& indices, int64_t length, Visit&& visit) {
  const ArrayData& data = *indices.data();
  const uint8_t* validity = validity_of(data);
  const int64_t count = data.length;
  auto checked = [&]<typename T>(const T* values) {
    check_bounds(values, count, validity, data.offset, length);
    return values;
  };
  auto widen = [&]<typename Wide, typename T>(const T* values) {
    checked(values);
    std::vector<Wide> widened(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
      widened[static_cast<size_t>(i)] = static_cast<Wide>(values[i]);
    }
    return visit(Indices<Wide>{widened.data(), count, validity, data.offset});
  };
  switch (indices.type_id()) {
    case TypeId::kInt8:
      return widen.template operator()<int32_t>(data.values<int8_t>(1));
    case TypeId::kUInt8:
      return widen.template operator()<int32_t>(data.values<uint8_t>(1));
    case TypeId::kInt16:
      return widen.template operator()<int32_t>(data.values<int16_t>(1));
    case TypeId::kUInt16:
      return widen.template operator()<int32_t>(data.values<uint16_t>(1));
    case TypeId::kInt32:
      return visit(
          Indices<int32_t>{checked(data.values<int32_t>(1)), count, validity, data.offset});
    case TypeId::kUInt32:
      return widen.template operator()<int64_t>(data.values<uint32_t>(1));
    case TypeId::kInt64:
      return visit(
          Indices<int64_t>{checked(data.values<int64_t>(1)), count, validity, data.offset});
    case TypeId::kUInt64: {
      // Every valid index is below `length` once checked, so it reads the same as int64.
      const auto* values = checked(data.values<uint64_t>(1));
      return visit(
          Indices<int64_t>{reinterpret_cast<const int64_t*>(values), count, validity, data.offset});
    }
    default:
      throw TypeError("take: the indices must be integers, got " + indices.type()->to_string());
  }
}

// --- filter ----------------------------------------------------------------------------------

/// Whether `filter` copies values of this type directly, a word of the mask at a time.
bool filters_directly(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
    case TypeId::kFixedSizeBinary:
      return true;
    case TypeId::kDictionary:
    case TypeId::kExtension:
      return false;
    default:
      return type.byte_width() > 0;
  }
}

/// The rows of a fixed-width or boolean array that `mask` selects, `selected` of them.
ArrayDataPtr filter_directly(const ArrayData& values, const MaskWords& mask, int64_t selected,
                             Allocator* allocator) {
  const bool boolean = values.type->id() == TypeId::kBoolean;
  const int64_t width = boolean ? 0 : value_width(*values.type);
  const uint8_t* value_validity = validity_of(values);
  const uint8_t* source = values.buffers[1]->data();
  MutableBuffer out_values(boolean ? bit_util::bytes_for_bits(selected) : selected * width,
                           allocator);
  uint8_t* out = out_values.mutable_data();
  MutableBuffer out_validity(allocator);
  uint8_t* valid_out = nullptr;
  if (value_validity != nullptr) {
    out_validity.resize(bit_util::bytes_for_bits(selected));
    valid_out = out_validity.mutable_data();
  }
  const int64_t offset = values.offset;
  int64_t position = 0;
  auto copy_one = [&](int64_t row) {
    if (boolean) {
      if (bit_util::get_bit(source, offset + row)) {
        bit_util::set_bit(out, position);
      }
    } else {
      std::memcpy(out + position * width, source + (offset + row) * width,
                  static_cast<size_t>(width));
    }
    if (valid_out != nullptr && bit_util::get_bit(value_validity, offset + row)) {
      bit_util::set_bit(valid_out, position);
    }
    ++position;
  };
  for (int64_t w = 0; w < mask.num_words(); ++w) {
    uint64_t bits = mask.word(w);
    const int64_t base = w * 64;
    if (bits == ~uint64_t{0}) {
      // A run of 64 selected rows: copied as one block.
      if (boolean) {
        bit_util::copy_bitmap(source, offset + base, 64, out, position);
      } else {
        std::memcpy(out + position * width, source + (offset + base) * width,
                    static_cast<size_t>(64 * width));
      }
      if (valid_out != nullptr) {
        bit_util::copy_bitmap(value_validity, offset + base, 64, valid_out, position);
      }
      position += 64;
      continue;
    }
    while (bits != 0) {
      copy_one(base + std::countr_zero(bits));
      bits &= bits - 1;
    }
  }
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity;
  if (valid_out != nullptr) {
    null_count = selected - bit_util::count_set_bits(valid_out, 0, selected);
    if (null_count > 0) {
      validity = out_validity.finish();
    }
  }
  return std::make_shared<ArrayData>(
      values.type, selected,
      std::vector<std::shared_ptr<Buffer>>{std::move(validity), out_values.finish()}, null_count);
}

/// Values of `T` at `rows`, checked against `length` a block at a time just before the block is
/// gathered: the check is a vectorized pass over indices still in cache, so they are read from
/// memory once rather than twice.
template <typename T, typename I>
std::shared_ptr<Buffer> gather_checked(const uint8_t* source_bytes, const I* rows, int64_t count,
                                       int64_t length, Allocator* allocator) {
  constexpr int64_t kBlock = 2048;
  const T* source = reinterpret_cast<const T*>(source_bytes);
  detail::UninitializedBuffer buffer = uninitialized_values<T>(count, allocator);
  T* out = values_in<T>(buffer);
  for (int64_t start = 0; start < count; start += kBlock) {
    const int64_t block = std::min(kBlock, count - start);
    const I* block_rows = rows + start;
    check_bounds(block_rows, block, nullptr, 0, length);
    T* block_out = out + start;
    for (int64_t i = 0; i < block; ++i) {
      block_out[i] = source[block_rows[i]];
    }
  }
  return buffer.finish();
}

/// `take` of fixed-width values (of 1 to 32 bytes) at int32 or int64 indices without nulls,
/// with the bounds check fused into the gather; nullptr for other arguments.
ArrayDataPtr take_plain_values(const ArrayData& values, const ArrayData& indices,
                               Allocator* allocator) {
  const TypeId index_type = indices.type->id();
  if ((index_type != TypeId::kInt32 && index_type != TypeId::kInt64) ||
      validity_of(indices) != nullptr || !filters_directly(*values.type) ||
      values.type->id() == TypeId::kBoolean) {
    return nullptr;
  }
  const int64_t width = value_width(*values.type);
  const uint8_t* source = values.buffers[1]->data() + values.offset * width;
  const auto gather_with = [&]<typename I>(const I* rows) -> ArrayDataPtr {
    std::shared_ptr<Buffer> gathered;
    if (!with_word_of_width(width, [&]<typename T>() {
          gathered = gather_checked<T>(source, rows, indices.length, values.length, allocator);
        })) {
      return nullptr;
    }
    int64_t null_count = 0;
    std::shared_ptr<Buffer> validity =
        take_validity(values, Indices<I>{rows, indices.length}, allocator, &null_count);
    return std::make_shared<ArrayData>(
        values.type, indices.length,
        std::vector<std::shared_ptr<Buffer>>{std::move(validity), std::move(gathered)}, null_count);
  };
  return index_type == TypeId::kInt32 ? gather_with(indices.values<int32_t>(1))
                                      : gather_with(indices.values<int64_t>(1));
}

template <typename I>
Array take_span(const Array& values, std::span<const I> rows, Allocator* allocator) {
  const int64_t count = static_cast<int64_t>(rows.size());
  check_bounds(rows.data(), count, nullptr, 0, values.length());
  return Array(take_impl(*values.data(), Indices<I>{rows.data(), count}, allocator));
}

}  // namespace

Array take(const Array& values, const Array& indices, Allocator* allocator) {
  if (ArrayDataPtr taken = take_plain_values(*values.data(), *indices.data(), allocator)) {
    return Array(std::move(taken));
  }
  return Array(with_checked_indices(indices, values.length(), [&](const auto& rows) {
    return take_impl(*values.data(), rows, allocator);
  }));
}

Array take(const Array& values, std::span<const int32_t> indices, Allocator* allocator) {
  return take_span(values, indices, allocator);
}

Array take(const Array& values, std::span<const int64_t> indices, Allocator* allocator) {
  return take_span(values, indices, allocator);
}

Array take(const Array& values, const SelectionVector& selection, Allocator* allocator) {
  return selection.is_wide() ? take(values, selection.wide(), allocator)
                             : take(values, selection.narrow(), allocator);
}

RecordBatch take(const RecordBatch& batch, const Array& indices, Allocator* allocator) {
  std::vector<Array> columns;
  columns.reserve(batch.columns().size());
  for (const Array& column : batch.columns()) {
    columns.push_back(take(column, indices, allocator));
  }
  if (columns.empty()) {
    with_checked_indices(indices, batch.num_rows(), [](const auto&) { return ArrayDataPtr(); });
  }
  return RecordBatch(batch.schema(), indices.length(), std::move(columns));
}

SelectionVector SelectionVector::from_mask(const Array& mask, Allocator* allocator) {
  check_mask(mask);
  const MaskWords words(mask);
  const int64_t selected = words.count_selected();
  const bool wide = mask.length() > std::numeric_limits<int32_t>::max();
  detail::UninitializedBuffer buffer(
      selected * static_cast<int64_t>(wide ? sizeof(int64_t) : sizeof(int32_t)), allocator);
  auto fill = [&]<typename I>(I* out) {
    int64_t position = 0;
    for (int64_t w = 0; w < words.num_words(); ++w) {
      uint64_t bits = words.word(w);
      const int64_t base = w * 64;
      if (bits == ~uint64_t{0}) {
        for (int64_t k = 0; k < 64; ++k) {
          out[position + k] = static_cast<I>(base + k);
        }
        position += 64;
        continue;
      }
      while (bits != 0) {
        out[position++] = static_cast<I>(base + std::countr_zero(bits));
        bits &= bits - 1;
      }
    }
  };
  if (wide) {
    fill(values_in<int64_t>(buffer));
  } else {
    fill(values_in<int32_t>(buffer));
  }
  return SelectionVector(buffer.finish(), selected, wide);
}

Array SelectionVector::to_array() const {
  return Array(std::make_shared<ArrayData>(wide_ ? int64() : int32(), length_,
                                           std::vector<std::shared_ptr<Buffer>>{nullptr, indices_},
                                           0));
}

SelectionVector selection_from_mask(const Array& mask, Allocator* allocator) {
  return SelectionVector::from_mask(mask, allocator);
}

Array filter(const Array& values, const Array& mask, Allocator* allocator) {
  check_mask(mask, values.length());
  const MaskWords words(mask);
  const int64_t selected = words.count_selected();
  if (selected == values.length()) {
    return values;
  }
  if (filters_directly(*values.type())) {
    return Array(filter_directly(*values.data(), words, selected, allocator));
  }
  return take(values, SelectionVector::from_mask(mask, allocator), allocator);
}

RecordBatch filter(const RecordBatch& batch, const Array& mask, Allocator* allocator) {
  check_mask(mask, batch.num_rows());
  const SelectionVector selection = SelectionVector::from_mask(mask, allocator);
  std::vector<Array> columns;
  columns.reserve(batch.columns().size());
  for (const Array& column : batch.columns()) {
    columns.push_back(selection.length() == batch.num_rows() ? column
                                                             : take(column, selection, allocator));
  }
  return RecordBatch(batch.schema(), selection.length(), std::move(columns));
}

}  // namespace bowstring::compute
