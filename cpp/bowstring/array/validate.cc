#include "bowstring/array/validate.h"

#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/types/storage.h"
#include "bowstring/util/error.h"
#include "bowstring/util/utf8.h"

namespace bowstring {

namespace {

/// Where in a nested array a check is looking. Turned into text only when a check fails, so that
/// validating deep types costs no string building.
struct Location {
  const Location* parent = nullptr;
  const DataType* type = nullptr;  ///< the top-level array's type
  int child_index = -1;            ///< -1 means the dictionary of `parent`
  std::string_view child_name;
  int depth = 0;  ///< levels of children and dictionaries above this array

  std::string describe() const {
    if (parent == nullptr) {
      return type->to_string();
    }
    if (child_index < 0) {
      return "dictionary of " + parent->describe();
    }
    return "child " + std::to_string(child_index) + " '" + std::string(child_name) + "' of " +
           parent->describe();
  }
};

std::string buffer_role(const DataType& type, size_t index) {
  const std::vector<BufferSpec> layout = type.layout();
  if (index >= layout.size()) {
    return "data buffer " + std::to_string(index - layout.size());
  }
  return std::string(buffer_role(layout[index].kind, type.id() == TypeId::kDictionary));
}

/// `count * width`, saturated so that an absurd length fails the size check instead of
/// overflowing.
int64_t bytes_needed(int64_t count, int64_t width) {
  int64_t bytes;
  if (__builtin_mul_overflow(count, width, &bytes)) {
    return std::numeric_limits<int64_t>::max();
  }
  return bytes;
}

class Validator {
 public:
  Validator(bool full, DictionaryCheck dictionaries) : full_(full), dictionaries_(dictionaries) {}

  void validate(const ArrayData& data, const Location& where) {
    if (where.depth > kMaxNestingDepth) {
      fail(where, "array is nested more than " + std::to_string(kMaxNestingDepth) + " levels deep");
    }
    const DataType& type = storage_of(*data.type);
    check_length(data, where);
    check_buffers(data, type, where);
    check_children(data, type, where);
    for (size_t i = 0; i < data.children.size(); ++i) {
      const Location child{&where, nullptr, static_cast<int>(i),
                           type.field(static_cast<int>(i))->name(), where.depth + 1};
      validate(*data.children[i], child);
    }
    if (data.dictionary != nullptr && dictionaries_ == DictionaryCheck::kValues) {
      validate(*data.dictionary, Location{&where, nullptr, -1, {}, where.depth + 1});
    }
    check_bounds(data, type, where);
    if (full_) {
      check_values(data, type, where);
    }
  }

 private:
  [[noreturn]] static void fail(const Location& where, const std::string& problem) {
    throw FormatError(problem + " in " + where.describe());
  }

  [[noreturn]] static void fail_buffer(const Location& where, const DataType& type, size_t index,
                                       const std::string& problem) {
    throw FormatError(problem + " in buffer " + std::to_string(index) + " (" +
                      buffer_role(type, index) + ") of " + where.describe());
  }

  static void require_buffer(const ArrayData& data, const DataType& type, const Location& where,
                             size_t index, int64_t bytes) {
    const Buffer* buffer = data.buffers[index].get();
    if (buffer == nullptr) {
      fail_buffer(where, type, index, "required buffer is missing");
    }
    if (buffer->size() < bytes) {
      fail_buffer(where, type, index,
                  "buffer has " + std::to_string(buffer->size()) + " bytes, fewer than the " +
                      std::to_string(bytes) + " needed for offset " + std::to_string(data.offset) +
                      " + length " + std::to_string(data.length));
    }
  }

  static void check_length(const ArrayData& data, const Location& where) {
    if (data.length < 0 || data.offset < 0) {
      fail(where, "length " + std::to_string(data.length) + " and offset " +
                      std::to_string(data.offset) + " must be non-negative");
    }
    if (data.length > std::numeric_limits<int64_t>::max() - data.offset) {
      fail(where, "offset " + std::to_string(data.offset) + " + length " +
                      std::to_string(data.length) + " overflows");
    }
    const int64_t known = data.known_null_count();
    if (known != ArrayData::kUnknownNullCount && (known < 0 || known > data.length)) {
      fail(where, "null count " + std::to_string(known) + " is outside [0, length " +
                      std::to_string(data.length) + "]");
    }
  }

  static void check_buffers(const ArrayData& data, const DataType& type, const Location& where) {
    const std::vector<BufferSpec> layout = type.layout();
    const bool views = is_view_type(type.id());
    const size_t count = data.buffers.size();
    if (views ? count < 2 : count != layout.size()) {
      fail(where, "array has " + std::to_string(count) + " buffers, expected " +
                      (views ? std::string("at least 2 (validity and views)")
                             : std::to_string(layout.size())));
    }
    const int64_t end = data.offset + data.length;
    const int64_t known_nulls = data.known_null_count();
    for (size_t i = 0; i < layout.size(); ++i) {
      switch (layout[i].kind) {
        case BufferKind::kValidity:
          if (data.buffers[i] != nullptr) {
            require_buffer(data, type, where, i, bit_util::bytes_for_bits(end));
          } else if (known_nulls > 0) {
            fail(where, "null count is " + std::to_string(known_nulls) +
                            " but there is no validity bitmap");
          }
          break;
        case BufferKind::kAlwaysNull:
          if (data.buffers[i] != nullptr) {
            fail_buffer(where, type, i,
                        "buffer must be absent: " + std::string(type_id_name(type.id())) +
                            " arrays have no validity bitmap");
          }
          break;
        case BufferKind::kBitmap:
          require_buffer(data, type, where, i, bit_util::bytes_for_bits(end));
          break;
        case BufferKind::kFixedWidth:
          require_buffer(data, type, where, i, bytes_needed(end, layout[i].byte_width));
          break;
        case BufferKind::kOffsets32:
        case BufferKind::kOffsets64: {
          // Lists and binaries have one offset more than values; list views and dense unions
          // have one per value.
          const bool per_value = type.id() == TypeId::kDenseUnion ||
                                 type.id() == TypeId::kListView ||
                                 type.id() == TypeId::kLargeListView;
          const int width = layout[i].kind == BufferKind::kOffsets32 ? 4 : 8;
          int64_t entries;
          if (__builtin_add_overflow(end, per_value ? 0 : 1, &entries)) {
            entries = std::numeric_limits<int64_t>::max();
          }
          require_buffer(data, type, where, i, bytes_needed(entries, width));
          break;
        }
        case BufferKind::kSizes32:
          require_buffer(data, type, where, i, bytes_needed(end, 4));
          break;
        case BufferKind::kSizes64:
          require_buffer(data, type, where, i, bytes_needed(end, 8));
          break;
        case BufferKind::kTypeIds:
          require_buffer(data, type, where, i, end);
          break;
        case BufferKind::kViews:
          require_buffer(data, type, where, i, bytes_needed(end, 16));
          break;
        case BufferKind::kData:
          break;  // may be absent when no value has bytes; checked against the offsets
      }
    }
    if (views) {
      for (size_t i = 2; i < count; ++i) {
        if (data.buffers[i] == nullptr) {
          fail_buffer(where, type, i, "data buffer is missing");
        }
      }
    }
    if (known_nulls != ArrayData::kUnknownNullCount) {
      if (type.id() == TypeId::kNull && known_nulls != data.length) {
        fail(where, "null count " + std::to_string(known_nulls) +
                        " of a null array differs from its length " + std::to_string(data.length));
      }
      if ((type.is_union() || type.id() == TypeId::kRunEndEncoded) && known_nulls != 0) {
        fail(where, "null count is " + std::to_string(known_nulls) + " but " +
                        std::string(type_id_name(type.id())) +
                        " arrays keep their nulls in their children");
      }
    }
  }

  static void check_children(const ArrayData& data, const DataType& type, const Location& where) {
    const size_t expected = static_cast<size_t>(type.num_fields());
    if (data.children.size() != expected) {
      fail(where, "array has " + std::to_string(data.children.size()) + " children, expected " +
                      std::to_string(expected));
    }
    for (size_t i = 0; i < expected; ++i) {
      const Field& field = *type.field(static_cast<int>(i));
      const std::string name = "child " + std::to_string(i) + " '" + field.name() + "'";
      if (data.children[i] == nullptr) {
        fail(where, name + " is missing");
      }
      if (data.children[i]->type == nullptr) {
        fail(where, name + " has no type");
      }
      if (!data.children[i]->type->equals(*field.type())) {
        fail(where, name + " has type " + data.children[i]->type->to_string() + ", expected " +
                        field.type()->to_string());
      }
    }
    if (type.id() == TypeId::kDictionary) {
      const auto& dictionary_type = static_cast<const DictionaryType&>(type);
      if (data.dictionary == nullptr) {
        fail(where, "dictionary array has no dictionary");
      }
      if (data.dictionary->type == nullptr) {
        fail(where, "dictionary has no type");
      }
      if (!data.dictionary->type->equals(*dictionary_type.value_type())) {
        fail(where, "dictionary has type " + data.dictionary->type->to_string() + ", expected " +
                        dictionary_type.value_type()->to_string());
      }
    } else if (data.dictionary != nullptr) {
      fail(where, "array has a dictionary but its type is not a dictionary type");
    }
  }

  // --- cheap checks that read a few values ------------------------------------------------

  static void check_bounds(const ArrayData& data, const DataType& type, const Location& where) {
    const int64_t end = data.offset + data.length;
    switch (type.id()) {
      case TypeId::kString:
      case TypeId::kBinary:
        check_offset_range<int32_t>(data, type, where, data_size(data), false);
        break;
      case TypeId::kLargeString:
      case TypeId::kLargeBinary:
        check_offset_range<int64_t>(data, type, where, data_size(data), false);
        break;
      case TypeId::kList:
      case TypeId::kMap:
        check_offset_range<int32_t>(data, type, where, data.children[0]->length, true);
        break;
      case TypeId::kLargeList:
        check_offset_range<int64_t>(data, type, where, data.children[0]->length, true);
        break;
      case TypeId::kFixedSizeList: {
        const int32_t list_size = static_cast<const FixedSizeListType&>(type).list_size();
        const int64_t needed = bytes_needed(end, list_size);
        if (data.children[0]->length < needed) {
          fail(where, "child 0 '" + type.field(0)->name() + "' has length " +
                          std::to_string(data.children[0]->length) + ", fewer than the " +
                          std::to_string(needed) + " values of offset " +
                          std::to_string(data.offset) + " + length " + std::to_string(data.length) +
                          " lists of size " + std::to_string(list_size));
        }
        break;
      }
      case TypeId::kStruct:
      case TypeId::kSparseUnion:
        // These children share the parent's offset and are not sliced to its window.
        for (size_t i = 0; i < data.children.size(); ++i) {
          if (data.children[i]->length < end) {
            fail(where, "child " + std::to_string(i) + " '" +
                            type.field(static_cast<int>(i))->name() + "' has length " +
                            std::to_string(data.children[i]->length) +
                            ", shorter than the parent's offset " + std::to_string(data.offset) +
                            " + length " + std::to_string(data.length));
          }
        }
        break;
      case TypeId::kRunEndEncoded: {
        const ArrayData& run_ends = *data.children[0];
        const ArrayData& values = *data.children[1];
        // Counting nulls is left to the full check; a count already known costs nothing.
        if (run_ends.known_null_count() > 0) {
          fail_null_run_ends(run_ends, where);
        }
        if (run_ends.length > values.length) {
          fail(where, "array has " + std::to_string(run_ends.length) + " run ends but only " +
                          std::to_string(values.length) + " values");
        }
        if (data.length > 0) {
          if (run_ends.length == 0) {
            fail(where, "array has length " + std::to_string(data.length) + " but no runs");
          }
          const int64_t last = run_end_at(run_ends, run_ends.length - 1);
          if (last < end) {
            fail(where, "last run end " + std::to_string(last) + " is smaller than offset " +
                            std::to_string(data.offset) + " + length " +
                            std::to_string(data.length));
          }
        }
        break;
      }
      default:
        break;
    }
  }

  static int64_t data_size(const ArrayData& data) {
    return data.buffers[2] == nullptr ? 0 : data.buffers[2]->size();
  }

  template <typename Offset>
  static void check_offset_range(const ArrayData& data, const DataType& type, const Location& where,
                                 int64_t limit, bool into_child) {
    const Offset* offsets = data.values<Offset>(1);
    const int64_t first = offsets[0];
    const int64_t last = offsets[data.length];
    if (first < 0) {
      fail_buffer(where, type, 1, "first offset " + std::to_string(first) + " is negative");
    }
    if (last < first) {
      fail_buffer(where, type, 1,
                  "last offset " + std::to_string(last) + " is smaller than the first offset " +
                      std::to_string(first));
    }
    if (last > limit) {
      fail_buffer(where, type, 1,
                  "last offset " + std::to_string(last) + " is past the end of the " +
                      (into_child ? "child array of length " + std::to_string(limit)
                                  : std::to_string(limit) + "-byte data buffer"));
    }
  }

  // --- full checks ------------------------------------------------------------------------

  static void check_values(const ArrayData& data, const DataType& type, const Location& where) {
    check_null_count(data, type, where);
    switch (type.id()) {
      case TypeId::kString:
        check_offsets_increase<int32_t>(data, type, where);
        check_utf8<int32_t>(data, where);
        break;
      case TypeId::kLargeString:
        check_offsets_increase<int64_t>(data, type, where);
        check_utf8<int64_t>(data, where);
        break;
      case TypeId::kBinary:
      case TypeId::kList:
        check_offsets_increase<int32_t>(data, type, where);
        break;
      case TypeId::kLargeBinary:
      case TypeId::kLargeList:
        check_offsets_increase<int64_t>(data, type, where);
        break;
      case TypeId::kMap:
        check_offsets_increase<int32_t>(data, type, where);
        check_map_keys(data, where);
        break;
      case TypeId::kStringView:
      case TypeId::kBinaryView:
        check_views(data, type, where);
        break;
      case TypeId::kListView:
        check_list_views<int32_t>(data, where);
        break;
      case TypeId::kLargeListView:
        check_list_views<int64_t>(data, where);
        break;
      case TypeId::kDictionary:
        check_indices(data, type, where);
        break;
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion:
        check_union(data, type, where);
        break;
      case TypeId::kRunEndEncoded:
        check_run_ends(data, where);
        break;
      case TypeId::kDecimal32:
      case TypeId::kDecimal64:
      case TypeId::kDecimal128:
      case TypeId::kDecimal256:
        check_decimals(data, type, where);
        break;
      default:
        break;
    }
  }

  static void check_null_count(const ArrayData& data, const DataType& type, const Location& where) {
    const int64_t known = data.known_null_count();
    if (known == ArrayData::kUnknownNullCount || type.layout()[0].kind != BufferKind::kValidity) {
      return;
    }
    const Buffer* validity = data.buffers[0].get();
    const int64_t actual =
        validity == nullptr
            ? 0
            : data.length - bit_util::count_set_bits(validity->data(), data.offset, data.length);
    if (actual != known) {
      fail(where, "null count is " + std::to_string(known) + " but the validity bitmap has " +
                      std::to_string(actual) + " nulls");
    }
  }

  template <typename Offset>
  static void check_offsets_increase(const ArrayData& data, const DataType& type,
                                     const Location& where) {
    const Offset* offsets = data.values<Offset>(1);
    for (int64_t i = 1; i <= data.length; ++i) {
      if (offsets[i] < offsets[i - 1]) {
        fail_buffer(where, type, 1,
                    "offset " + std::to_string(i) + " (value " + std::to_string(offsets[i]) +
                        ") is smaller than the previous offset " + std::to_string(offsets[i - 1]));
      }
    }
  }

  static void check_utf8_value(const uint8_t* bytes, int64_t size, int64_t index,
                               const Location& where) {
    const int64_t bad = invalid_utf8_position(bytes, size);
    if (bad >= 0) {
      fail(where, "value " + std::to_string(index) + " is not valid UTF-8 (byte " +
                      std::to_string(bad) + " of " + std::to_string(size) + ")");
    }
  }

  template <typename Offset>
  static void check_utf8(const ArrayData& data, const Location& where) {
    const Offset* offsets = data.values<Offset>(1);
    const uint8_t* bytes = data.buffers[2] == nullptr ? nullptr : data.buffers[2]->data();
    if (data.length == 0 || bytes == nullptr) {
      return;
    }
    // Fast path for short values: when all the values' bytes form valid UTF-8 and no value
    // starts on a continuation byte, every value is a whole number of valid sequences. Bytes
    // under nulls may be anything, so otherwise check the values one by one.
    const int64_t begin = offsets[0];
    const int64_t end = offsets[data.length];
    if (invalid_utf8_position(bytes + begin, end - begin) < 0) {
      bool starts_on_sequences = true;
      for (int64_t i = 1; i < data.length; ++i) {
        const int64_t start = offsets[i];
        starts_on_sequences &= start >= end || (bytes[start] & 0xC0) != 0x80;
      }
      if (starts_on_sequences) {
        return;
      }
    }
    for (int64_t i = 0; i < data.length; ++i) {
      const int64_t size = offsets[i + 1] - offsets[i];
      if (size > 0 && !data.is_null_in_bitmap(i)) {
        check_utf8_value(bytes + offsets[i], size, i, where);
      }
    }
  }

  static void check_views(const ArrayData& data, const DataType& type, const Location& where) {
    const BinaryView* views = data.values<BinaryView>(1);
    const int64_t data_buffers = static_cast<int64_t>(data.buffers.size()) - 2;
    const bool utf8 = type.id() == TypeId::kStringView;
    // Views under null slots are unspecified, as the values under nulls of any other type.
    for (int64_t i = 0; i < data.length; ++i) {
      if (data.is_null_in_bitmap(i)) {
        continue;
      }
      const BinaryView& view = views[i];
      const std::string name = "view " + std::to_string(i);
      if (view.size < 0) {
        fail_buffer(where, type, 1, name + " has negative size " + std::to_string(view.size));
      }
      const uint8_t* bytes;
      if (view.is_inline()) {
        for (int32_t k = view.size; k < BinaryView::kInlineSize; ++k) {
          if (view.inlined[k] != 0) {
            fail_buffer(where, type, 1,
                        name + " is inline with size " + std::to_string(view.size) +
                            " but its unused bytes are not zero");
          }
        }
        bytes = view.inlined;
      } else {
        const int32_t index = view.ref.buffer_index;
        if (index < 0 || index >= data_buffers) {
          fail_buffer(where, type, 1,
                      name + " refers to data buffer " + std::to_string(index) +
                          " but the array has " + std::to_string(data_buffers) + " data buffers");
        }
        const Buffer& buffer = *data.buffers[2 + static_cast<size_t>(index)];
        if (view.ref.offset < 0 || view.ref.offset > buffer.size() - view.size) {
          fail_buffer(where, type, 1,
                      name + " (offset " + std::to_string(view.ref.offset) + ", size " +
                          std::to_string(view.size) + ") is past the end of data buffer " +
                          std::to_string(index) + " of " + std::to_string(buffer.size()) +
                          " bytes");
        }
        bytes = buffer.data() + view.ref.offset;
        if (std::memcmp(view.ref.prefix, bytes, sizeof(view.ref.prefix)) != 0) {
          fail_buffer(where, type, 1,
                      name + " has a prefix that differs from the first 4 bytes of its value");
        }
      }
      if (utf8) {
        check_utf8_value(bytes, view.size, i, where);
      }
    }
  }

  template <typename Offset>
  static void check_list_views(const ArrayData& data, const Location& where) {
    const Offset* offsets = data.values<Offset>(1);
    const Offset* sizes = data.values<Offset>(2);
    const int64_t child_length = data.children[0]->length;
    for (int64_t i = 0; i < data.length; ++i) {
      if (data.is_null_in_bitmap(i)) {
        continue;
      }
      const int64_t offset = offsets[i];
      const int64_t size = sizes[i];
      if (offset < 0 || size < 0 || offset > child_length - size) {
        fail(where, "list view " + std::to_string(i) + " (offset " + std::to_string(offset) +
                        ", size " + std::to_string(size) +
                        ") is outside the child array of length " + std::to_string(child_length));
      }
    }
  }

  static void check_map_keys(const ArrayData& data, const Location& where) {
    const ArrayData& entries = *data.children[0];
    const ArrayData& keys = *entries.children[0];
    const int32_t* offsets = data.values<int32_t>(1);
    const Buffer* validity = keys.buffers[0].get();
    const bool keys_have_bitmap = storage_of(*keys.type).layout()[0].kind == BufferKind::kValidity;
    if (keys.type->id() != TypeId::kNull && (!keys_have_bitmap || validity == nullptr)) {
      return;
    }
    for (int64_t entry = offsets[0]; entry < offsets[data.length]; ++entry) {
      const int64_t at = keys.offset + entries.offset + entry;
      if (validity == nullptr || !bit_util::get_bit(validity->data(), at)) {
        fail(where, "map key of entry " + std::to_string(entry) +
                        " is null (map keys must never be null)");
      }
    }
  }

  template <typename Index>
  static void check_indices_of(const ArrayData& data, const DataType& type, const Location& where) {
    const Index* indices = data.values<Index>(1);
    const int64_t dictionary_length = data.dictionary->length;
    for (int64_t i = 0; i < data.length; ++i) {
      const Index index = indices[i];
      // A negative index converts to a huge unsigned one, so one comparison covers both ends.
      const bool in_range = static_cast<uint64_t>(index) < static_cast<uint64_t>(dictionary_length);
      if (!in_range && !data.is_null_in_bitmap(i)) {
        fail_buffer(where, type, 1,
                    "index " + std::to_string(i) + " (value " + std::to_string(index) +
                        ") is outside the dictionary of length " +
                        std::to_string(dictionary_length));
      }
    }
  }

  static void check_indices(const ArrayData& data, const DataType& type, const Location& where) {
    switch (static_cast<const DictionaryType&>(type).index_type()->id()) {
      case TypeId::kInt8:
        return check_indices_of<int8_t>(data, type, where);
      case TypeId::kUInt8:
        return check_indices_of<uint8_t>(data, type, where);
      case TypeId::kInt16:
        return check_indices_of<int16_t>(data, type, where);
      case TypeId::kUInt16:
        return check_indices_of<uint16_t>(data, type, where);
      case TypeId::kInt32:
        return check_indices_of<int32_t>(data, type, where);
      case TypeId::kUInt32:
        return check_indices_of<uint32_t>(data, type, where);
      case TypeId::kInt64:
        return check_indices_of<int64_t>(data, type, where);
      default:
        return check_indices_of<uint64_t>(data, type, where);
    }
  }

  static void check_union(const ArrayData& data, const DataType& type, const Location& where) {
    const auto& union_type = static_cast<const UnionType&>(type);
    const int8_t* type_ids = data.values<int8_t>(1);
    const int32_t* offsets = type.id() == TypeId::kDenseUnion ? data.values<int32_t>(2) : nullptr;
    // The format wants each child's values used in order: a slot's offset is never smaller than
    // that of an earlier slot of the same child (equal offsets are allowed, as in Arrow).
    std::vector<int32_t> last_offsets(offsets != nullptr ? union_type.type_codes().size() : 0, 0);
    std::vector<int64_t> last_slots(last_offsets.size(), -1);
    for (int64_t i = 0; i < data.length; ++i) {
      const int child = union_type.child_index(type_ids[i]);
      if (child < 0) {
        std::string codes;
        for (const int8_t code : union_type.type_codes()) {
          codes += (codes.empty() ? "" : ", ") + std::to_string(code);
        }
        fail_buffer(where, type, 1,
                    "type id " + std::to_string(type_ids[i]) + " at slot " + std::to_string(i) +
                        " is not one of the union's type codes [" + codes + "]");
      }
      if (offsets != nullptr) {
        const int64_t child_length = data.children[static_cast<size_t>(child)]->length;
        if (offsets[i] < 0 || offsets[i] >= child_length) {
          fail_buffer(where, type, 2,
                      "offset " + std::to_string(offsets[i]) + " at slot " + std::to_string(i) +
                          " is outside child " + std::to_string(child) + " '" +
                          type.field(child)->name() + "' of length " +
                          std::to_string(child_length));
        }
        const size_t at = static_cast<size_t>(child);
        if (offsets[i] < last_offsets[at]) {
          fail_buffer(where, type, 2,
                      "offset " + std::to_string(offsets[i]) + " at slot " + std::to_string(i) +
                          " is smaller than offset " + std::to_string(last_offsets[at]) +
                          " at slot " + std::to_string(last_slots[at]) + " into the same child " +
                          std::to_string(child) + " '" + type.field(child)->name() +
                          "' (a dense union's offsets into each child must not decrease)");
        }
        last_offsets[at] = offsets[i];
        last_slots[at] = i;
      }
    }
  }

  [[noreturn]] static void fail_null_run_ends(const ArrayData& run_ends, const Location& where) {
    fail(where, "run_ends child has " + std::to_string(run_ends.null_count()) +
                    " nulls; run ends must not be null");
  }

  static void check_run_ends(const ArrayData& data, const Location& where) {
    const ArrayData& run_ends = *data.children[0];
    if (run_ends.null_count() != 0) {
      fail_null_run_ends(run_ends, where);
    }
    int64_t previous = 0;
    for (int64_t i = 0; i < run_ends.length; ++i) {
      const int64_t run_end = run_end_at(run_ends, i);
      if (i == 0 && run_end <= 0) {
        fail(where, "run end 0 (value " + std::to_string(run_end) + ") must be positive");
      }
      if (i > 0 && run_end <= previous) {
        fail(where, "run end " + std::to_string(i) + " (value " + std::to_string(run_end) +
                        ") is not greater than the previous run end " + std::to_string(previous));
      }
      previous = run_end;
    }
  }

  static void check_decimals(const ArrayData& data, const DataType& type, const Location& where) {
    const auto& decimal = static_cast<const DecimalType&>(type);
    const int width = type.byte_width();
    const int limbs = width / 4;
    // 10^precision as little-endian 32-bit limbs; a value fits when its magnitude is smaller.
    uint32_t bound[8] = {1};
    for (int32_t digit = 0; digit < decimal.precision(); ++digit) {
      uint64_t carry = 0;
      for (int k = 0; k < limbs; ++k) {
        const uint64_t product = static_cast<uint64_t>(bound[k]) * 10 + carry;
        bound[k] = static_cast<uint32_t>(product);
        carry = product >> 32;
      }
    }
    const uint8_t* values = data.buffers[1]->data();
    for (int64_t i = 0; i < data.length; ++i) {
      if (data.is_null_in_bitmap(i)) {
        continue;
      }
      const uint8_t* bytes = values + (data.offset + i) * width;
      uint32_t magnitude[8] = {};
      std::memcpy(magnitude, bytes, static_cast<size_t>(width));
      if ((bytes[width - 1] & 0x80) != 0) {
        uint64_t carry = 1;
        for (int k = 0; k < limbs; ++k) {
          const uint64_t sum = static_cast<uint64_t>(~magnitude[k]) + carry;
          magnitude[k] = static_cast<uint32_t>(sum);
          carry = sum >> 32;
        }
      }
      int k = limbs - 1;
      while (k > 0 && magnitude[k] == bound[k]) {
        --k;
      }
      if (magnitude[k] >= bound[k]) {
        fail_buffer(where, type, 1,
                    "value " + std::to_string(i) + " (" +
                        format_decimal(bytes, width, decimal.scale()) + ") has more than " +
                        std::to_string(decimal.precision()) + " digits");
      }
    }
  }

  bool full_;
  DictionaryCheck dictionaries_;
};

void run_validator(const ArrayData& data, bool full, DictionaryCheck dictionaries) {
  if (data.type == nullptr) {
    throw FormatError("array has no type");
  }
  Validator(full, dictionaries).validate(data, Location{nullptr, data.type.get(), -1, {}});
}

}  // namespace

void validate(const ArrayData& data, DictionaryCheck dictionaries) {
  run_validator(data, false, dictionaries);
}

void validate_full(const ArrayData& data, DictionaryCheck dictionaries) {
  run_validator(data, true, dictionaries);
}

void Array::validate() const { bowstring::validate(*data_); }

void Array::validate_full() const { bowstring::validate_full(*data_); }

int64_t run_end_at(const ArrayData& run_ends, int64_t i) {
  switch (run_ends.type->id()) {
    case TypeId::kInt16:
      return run_ends.values<int16_t>(1)[i];
    case TypeId::kInt32:
      return run_ends.values<int32_t>(1)[i];
    default:
      return run_ends.values<int64_t>(1)[i];
  }
}

}  // namespace bowstring
