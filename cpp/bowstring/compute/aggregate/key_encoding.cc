#include "bowstring/compute/aggregate/key_encoding.h"

#include <cstring>

#include "bowstring/compute/scalar/hash.h"
#include "bowstring/util/bit_util.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {

namespace {

void append_raw(std::string& out, const void* data, size_t size) {
  out.append(static_cast<const char*>(data), size);
}

}  // namespace

void encode_key_value(const ArrayData& data, int64_t i, std::string& out) {
  const DataType& type = *data.type;
  if (type.id() == TypeId::kNull || data.is_null_in_bitmap(i)) {
    out.push_back(0);
    return;
  }
  if (type.id() == TypeId::kDictionary) {
    encode_key_value(*data.dictionary, dictionary_index(data, i), out);
    return;
  }
  if (type.id() == TypeId::kExtension) {
    ArrayData storage(data);
    storage.type = type_cast<ExtensionType>(type).storage_type();
    encode_key_value(storage, i, out);
    return;
  }
  out.push_back(1);
  const int64_t row = data.offset + i;
  switch (type.id()) {
    case TypeId::kBoolean:
      out.push_back(bit_util::get_bit(data.buffers[1]->data(), row) ? 1 : 0);
      return;
    case TypeId::kFloat32: {
      const uint32_t bits = normalized_float_bits(data.values<float>(1)[i]);
      append_raw(out, &bits, sizeof(bits));
      return;
    }
    case TypeId::kFloat64: {
      const uint64_t bits = normalized_double_bits(data.values<double>(1)[i]);
      append_raw(out, &bits, sizeof(bits));
      return;
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
    case TypeId::kStringView:
    case TypeId::kBinaryView: {
      const std::string_view value = binary_value(data, i);
      const auto size = static_cast<uint32_t>(value.size());
      append_raw(out, &size, sizeof(size));
      out.append(value);
      return;
    }
    case TypeId::kStruct:
      for (const auto& child : data.children) {
        encode_key_value(*child, row, out);
      }
      return;
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kFixedSizeList: {
      const auto [begin, end] = list_element_range(data, row);
      const auto count = static_cast<uint32_t>(end - begin);
      append_raw(out, &count, sizeof(count));
      for (int64_t j = begin; j < end; ++j) {
        encode_key_value(*data.children[0], j, out);
      }
      return;
    }
    default:
      break;
  }
  if (type.is_union() || type.id() == TypeId::kRunEndEncoded || type.byte_width() == 0) {
    throw TypeError("grouper: keys of type " + type.to_string() + " cannot be grouped");
  }
  if (type.id() == TypeId::kFloat16) {
    uint16_t bits = data.values<uint16_t>(1)[i];
    if ((bits & 0x7c00) == 0x7c00 && (bits & 0x03ff) != 0) {
      bits = 0x7e00;
    } else if ((bits & 0x7fff) == 0) {
      bits = 0;
    }
    append_raw(out, &bits, sizeof(bits));
    return;
  }
  const int width = type.byte_width();
  append_raw(out, data.buffers[1]->data() + row * width, static_cast<size_t>(width));
}

void encode_key_rows(std::span<const Array> keys, int64_t start, int64_t count,
                     std::vector<int64_t>& offsets, std::string& rows) {
  offsets.assign(static_cast<size_t>(count) + 1, 0);
  std::vector<std::string> others;
  // Sizes first (shifted by one so that the prefix sum gives the offsets).
  for (const Array& key : keys) {
    const ArrayData& data = *key.data();
    const TypeId id = data.type->id();
    const int64_t width = data.type->byte_width();
    const bool binary = data.type->is_binary_like();
    const bool fixed = !binary && width > 0 && id != TypeId::kDictionary &&
                       id != TypeId::kFloat16 && id != TypeId::kExtension;
    for (int64_t j = 0; j < count; ++j) {
      const int64_t i = start + j;
      int64_t size = 1;
      if (id == TypeId::kNull || data.is_null_in_bitmap(i)) {
        size = 1;
      } else if (fixed) {
        size = 1 + width;
      } else if (id == TypeId::kBoolean) {
        size = 2;
      } else if (binary) {
        size = 1 + 4 + static_cast<int64_t>(binary_value(data, i).size());
      } else {
        std::string encoded;
        encode_key_value(data, i, encoded);
        size = static_cast<int64_t>(encoded.size());
        others.push_back(std::move(encoded));
      }
      offsets[static_cast<size_t>(j) + 1] += size;
    }
  }
  for (int64_t j = 0; j < count; ++j) {
    offsets[static_cast<size_t>(j) + 1] += offsets[static_cast<size_t>(j)];
  }
  rows.resize(static_cast<size_t>(offsets[static_cast<size_t>(count)]));
  std::vector<int64_t> cursor(offsets.begin(), offsets.end() - 1);
  size_t next_other = 0;
  for (const Array& key : keys) {
    const ArrayData& data = *key.data();
    const TypeId id = data.type->id();
    const int64_t width = data.type->byte_width();
    const bool binary = data.type->is_binary_like();
    const bool fixed = !binary && width > 0 && id != TypeId::kDictionary &&
                       id != TypeId::kFloat16 && id != TypeId::kExtension;
    const uint8_t* values = fixed ? data.buffers[1]->data() + data.offset * width : nullptr;
    for (int64_t j = 0; j < count; ++j) {
      const int64_t i = start + j;
      char* out = rows.data() + cursor[static_cast<size_t>(j)];
      if (id == TypeId::kNull || data.is_null_in_bitmap(i)) {
        *out = 0;
        cursor[static_cast<size_t>(j)] += 1;
        continue;
      }
      if (fixed) {
        *out = 1;
        if (id == TypeId::kFloat32) {
          const uint32_t bits = normalized_float_bits(data.values<float>(1)[i]);
          std::memcpy(out + 1, &bits, sizeof(bits));
        } else if (id == TypeId::kFloat64) {
          const uint64_t bits = normalized_double_bits(data.values<double>(1)[i]);
          std::memcpy(out + 1, &bits, sizeof(bits));
        } else {
          std::memcpy(out + 1, values + i * width, static_cast<size_t>(width));
        }
        cursor[static_cast<size_t>(j)] += 1 + width;
      } else if (id == TypeId::kBoolean) {
        out[0] = 1;
        out[1] = bit_util::get_bit(data.buffers[1]->data(), data.offset + i) ? 1 : 0;
        cursor[static_cast<size_t>(j)] += 2;
      } else if (binary) {
        const std::string_view value = binary_value(data, i);
        const auto size = static_cast<uint32_t>(value.size());
        out[0] = 1;
        std::memcpy(out + 1, &size, sizeof(size));
        std::memcpy(out + 5, value.data(), value.size());
        cursor[static_cast<size_t>(j)] += 5 + size;
      } else {
        const std::string& encoded = others[next_other++];
        std::memcpy(out, encoded.data(), encoded.size());
        cursor[static_cast<size_t>(j)] += static_cast<int64_t>(encoded.size());
      }
    }
  }
}

}  // namespace bowstring::compute
