#include "bowstring/compute/scalar/hash.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/types/storage.h"

namespace bowstring::compute {

// --- Murmur3 x86_32 as Spark's Murmur3_x86_32 -----------------------------------------------

namespace {

constexpr uint32_t kMurmurC1 = 0xcc9e2d51U;
constexpr uint32_t kMurmurC2 = 0x1b873593U;

uint32_t murmur_mix_k1(uint32_t k1) {
  k1 *= kMurmurC1;
  k1 = std::rotl(k1, 15);
  return k1 * kMurmurC2;
}

uint32_t murmur_mix_h1(uint32_t h1, uint32_t k1) {
  h1 ^= k1;
  h1 = std::rotl(h1, 13);
  return h1 * 5 + 0xe6546b64U;
}

uint32_t murmur_fmix(uint32_t h1, uint32_t length) {
  h1 ^= length;
  h1 ^= h1 >> 16;
  h1 *= 0x85ebca6bU;
  h1 ^= h1 >> 13;
  h1 *= 0xc2b2ae35U;
  h1 ^= h1 >> 16;
  return h1;
}

uint32_t load_u32(const uint8_t* bytes) {
  uint32_t value;
  std::memcpy(&value, bytes, sizeof(value));
  return value;
}

uint64_t load_u64(const uint8_t* bytes) {
  uint64_t value;
  std::memcpy(&value, bytes, sizeof(value));
  return value;
}

}  // namespace

int32_t spark_murmur3_int(int32_t value, int32_t seed) {
  const uint32_t h1 =
      murmur_mix_h1(static_cast<uint32_t>(seed), murmur_mix_k1(static_cast<uint32_t>(value)));
  return static_cast<int32_t>(murmur_fmix(h1, 4));
}

int32_t spark_murmur3_long(int64_t value, int32_t seed) {
  const auto bits = static_cast<uint64_t>(value);
  uint32_t h1 =
      murmur_mix_h1(static_cast<uint32_t>(seed), murmur_mix_k1(static_cast<uint32_t>(bits)));
  h1 = murmur_mix_h1(h1, murmur_mix_k1(static_cast<uint32_t>(bits >> 32)));
  return static_cast<int32_t>(murmur_fmix(h1, 8));
}

int32_t spark_murmur3_bytes(const uint8_t* bytes, int64_t length, int32_t seed) {
  const int64_t aligned = length - length % 4;
  auto h1 = static_cast<uint32_t>(seed);
  for (int64_t i = 0; i < aligned; i += 4) {
    h1 = murmur_mix_h1(h1, murmur_mix_k1(load_u32(bytes + i)));
  }
  for (int64_t i = aligned; i < length; ++i) {
    // Spark mixes each trailing byte as a whole block, sign extended.
    const auto byte = static_cast<int32_t>(static_cast<int8_t>(bytes[i]));
    h1 = murmur_mix_h1(h1, murmur_mix_k1(static_cast<uint32_t>(byte)));
  }
  return static_cast<int32_t>(murmur_fmix(h1, static_cast<uint32_t>(length)));
}

// --- XXH64 as Spark's XXH64 ------------------------------------------------------------------

namespace {

constexpr uint64_t kXxPrime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kXxPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kXxPrime3 = 0x165667B19E3779F9ULL;
constexpr uint64_t kXxPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t kXxPrime5 = 0x27D4EB2F165667C5ULL;

uint64_t xx_fmix(uint64_t hash) {
  hash ^= hash >> 33;
  hash *= kXxPrime2;
  hash ^= hash >> 29;
  hash *= kXxPrime3;
  hash ^= hash >> 32;
  return hash;
}

uint64_t xx_round(uint64_t accumulator, uint64_t input) {
  accumulator += input * kXxPrime2;
  return std::rotl(accumulator, 31) * kXxPrime1;
}

uint64_t xx_merge_round(uint64_t hash, uint64_t accumulator) {
  hash ^= xx_round(0, accumulator);
  return hash * kXxPrime1 + kXxPrime4;
}

}  // namespace

int64_t spark_xxhash64_int(int32_t value, int64_t seed) {
  uint64_t hash = static_cast<uint64_t>(seed) + kXxPrime5 + 4;
  hash ^= static_cast<uint64_t>(static_cast<uint32_t>(value)) * kXxPrime1;
  hash = std::rotl(hash, 23) * kXxPrime2 + kXxPrime3;
  return static_cast<int64_t>(xx_fmix(hash));
}

int64_t spark_xxhash64_long(int64_t value, int64_t seed) {
  uint64_t hash = static_cast<uint64_t>(seed) + kXxPrime5 + 8;
  hash ^= xx_round(0, static_cast<uint64_t>(value));
  hash = std::rotl(hash, 27) * kXxPrime1 + kXxPrime4;
  return static_cast<int64_t>(xx_fmix(hash));
}

int64_t spark_xxhash64_bytes(const uint8_t* bytes, int64_t length, int64_t seed) {
  const auto useed = static_cast<uint64_t>(seed);
  const uint8_t* end = bytes + length;
  const uint8_t* p = bytes;
  uint64_t hash;
  if (length >= 32) {
    uint64_t v1 = useed + kXxPrime1 + kXxPrime2;
    uint64_t v2 = useed + kXxPrime2;
    uint64_t v3 = useed;
    uint64_t v4 = useed - kXxPrime1;
    const uint8_t* limit = end - 32;
    do {
      v1 = xx_round(v1, load_u64(p));
      v2 = xx_round(v2, load_u64(p + 8));
      v3 = xx_round(v3, load_u64(p + 16));
      v4 = xx_round(v4, load_u64(p + 24));
      p += 32;
    } while (p <= limit);
    hash = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    hash = xx_merge_round(hash, v1);
    hash = xx_merge_round(hash, v2);
    hash = xx_merge_round(hash, v3);
    hash = xx_merge_round(hash, v4);
  } else {
    hash = useed + kXxPrime5;
  }
  hash += static_cast<uint64_t>(length);
  for (; p + 8 <= end; p += 8) {
    hash ^= xx_round(0, load_u64(p));
    hash = std::rotl(hash, 27) * kXxPrime1 + kXxPrime4;
  }
  if (p + 4 <= end) {
    hash ^= static_cast<uint64_t>(load_u32(p)) * kXxPrime1;
    hash = std::rotl(hash, 23) * kXxPrime2 + kXxPrime3;
    p += 4;
  }
  for (; p < end; ++p) {
    hash ^= static_cast<uint64_t>(*p) * kXxPrime5;
    hash = std::rotl(hash, 11) * kXxPrime1;
  }
  return static_cast<int64_t>(xx_fmix(hash));
}

std::pair<int64_t, int64_t> list_element_range(const ArrayData& data, int64_t row) {
  const DataType& type = storage_of(*data.type);
  const uint8_t* offsets = data.buffers[1] != nullptr ? data.buffers[1]->data() : nullptr;
  switch (type.id()) {
    case TypeId::kList:
    case TypeId::kMap:
      return {reinterpret_cast<const int32_t*>(offsets)[row],
              reinterpret_cast<const int32_t*>(offsets)[row + 1]};
    case TypeId::kLargeList:
      return {reinterpret_cast<const int64_t*>(offsets)[row],
              reinterpret_cast<const int64_t*>(offsets)[row + 1]};
    case TypeId::kListView: {
      const int64_t begin = reinterpret_cast<const int32_t*>(offsets)[row];
      return {begin, begin + reinterpret_cast<const int32_t*>(data.buffers[2]->data())[row]};
    }
    case TypeId::kLargeListView: {
      const int64_t begin = reinterpret_cast<const int64_t*>(offsets)[row];
      return {begin, begin + reinterpret_cast<const int64_t*>(data.buffers[2]->data())[row]};
    }
    default: {
      const int64_t size = type_cast<FixedSizeListType>(type).list_size();
      return {row * size, (row + 1) * size};
    }
  }
}

std::string_view binary_value(const ArrayData& data, int64_t i) {
  const int64_t row = data.offset + i;
  const auto* bytes = reinterpret_cast<const char*>(
      data.buffers.size() > 2 && data.buffers[2] != nullptr ? data.buffers[2]->data() : nullptr);
  switch (data.type->storage_id()) {
    case TypeId::kString:
    case TypeId::kBinary: {
      const auto* offsets = reinterpret_cast<const int32_t*>(data.buffers[1]->data()) + row;
      return {bytes + offsets[0], static_cast<size_t>(offsets[1] - offsets[0])};
    }
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: {
      const auto* offsets = reinterpret_cast<const int64_t*>(data.buffers[1]->data()) + row;
      return {bytes + offsets[0], static_cast<size_t>(offsets[1] - offsets[0])};
    }
    default: {
      const BinaryView& view = reinterpret_cast<const BinaryView*>(data.buffers[1]->data())[row];
      if (view.is_inline()) {
        return {reinterpret_cast<const char*>(view.inlined), static_cast<size_t>(view.size)};
      }
      const Buffer& buffer = *data.buffers[2 + static_cast<size_t>(view.ref.buffer_index)];
      return {reinterpret_cast<const char*>(buffer.data()) + view.ref.offset,
              static_cast<size_t>(view.size)};
    }
  }
}

int64_t dictionary_index(const ArrayData& data, int64_t i) {
  const int64_t row = data.offset + i;
  const uint8_t* indices = data.buffers[1]->data();
  switch (type_cast<DictionaryType>(*data.type).index_type()->id()) {
    case TypeId::kInt8:
      return reinterpret_cast<const int8_t*>(indices)[row];
    case TypeId::kUInt8:
      return indices[row];
    case TypeId::kInt16:
      return reinterpret_cast<const int16_t*>(indices)[row];
    case TypeId::kUInt16:
      return reinterpret_cast<const uint16_t*>(indices)[row];
    case TypeId::kInt32:
      return reinterpret_cast<const int32_t*>(indices)[row];
    case TypeId::kUInt32:
      return reinterpret_cast<const uint32_t*>(indices)[row];
    default:
      return reinterpret_cast<const int64_t*>(indices)[row];
  }
}

// --- Spark's hash over columns ---------------------------------------------------------------

namespace {

struct Murmur3 {
  using Seed = int32_t;
  static Seed of_int(int32_t value, Seed seed) { return spark_murmur3_int(value, seed); }
  static Seed of_long(int64_t value, Seed seed) { return spark_murmur3_long(value, seed); }
  static Seed of_bytes(const uint8_t* bytes, int64_t length, Seed seed) {
    return spark_murmur3_bytes(bytes, length, seed);
  }
};

struct XxHash64 {
  using Seed = int64_t;
  static Seed of_int(int32_t value, Seed seed) { return spark_xxhash64_int(value, seed); }
  static Seed of_long(int64_t value, Seed seed) { return spark_xxhash64_long(value, seed); }
  static Seed of_bytes(const uint8_t* bytes, int64_t length, Seed seed) {
    return spark_xxhash64_bytes(bytes, length, seed);
  }
};

int32_t spark_float_bits(float value) { return static_cast<int32_t>(normalized_float_bits(value)); }

int64_t spark_double_bits(double value) {
  return static_cast<int64_t>(normalized_double_bits(value));
}

/// Microseconds from a time value of `unit` (Spark's timestamps are in microseconds).
int64_t to_micros(int64_t value, TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return value * 1000000;
    case TimeUnit::kMilli:
      return value * 1000;
    case TimeUnit::kMicro:
      return value;
    case TimeUnit::kNano:
      return value >= 0 ? value / 1000 : -((-value + 999) / 1000);
  }
  return value;
}

/// Days from milliseconds since the epoch (date64), rounding down.
int32_t date64_days(int64_t millis) {
  constexpr int64_t kMillisPerDay = 86400000;
  const int64_t days =
      millis >= 0 ? millis / kMillisPerDay : -((-millis + kMillisPerDay - 1) / kMillisPerDay);
  return static_cast<int32_t>(days);
}

/// Spark hashes decimals wider than 18 digits by the bytes of Java's BigInteger.toByteArray of
/// the unscaled value: the shortest big-endian two's complement form.
template <typename H>
typename H::Seed hash_wide_decimal(const uint8_t* little_endian, int width, typename H::Seed seed) {
  uint8_t big_endian[32];
  for (int i = 0; i < width; ++i) {
    big_endian[i] = little_endian[width - 1 - i];
  }
  int start = 0;
  while (start < width - 1) {
    const uint8_t lead = big_endian[start];
    const bool next_negative = (big_endian[start + 1] & 0x80) != 0;
    if ((lead == 0x00 && !next_negative) || (lead == 0xff && next_negative)) {
      ++start;
    } else {
      break;
    }
  }
  return H::of_bytes(big_endian + start, width - start, seed);
}

template <typename H>
typename H::Seed hash_decimal(const DecimalType& type, const uint8_t* bytes,
                              typename H::Seed seed) {
  const int width = type.byte_width();
  if (type.precision() <= 18) {
    int64_t unscaled;
    if (width == 4) {
      int32_t narrow;
      std::memcpy(&narrow, bytes, sizeof(narrow));
      unscaled = narrow;
    } else {
      std::memcpy(&unscaled, bytes, sizeof(unscaled));
    }
    return H::of_long(unscaled, seed);
  }
  return hash_wide_decimal<H>(bytes, width, seed);
}

[[noreturn]] void throw_unhashable(const DataType& type) {
  throw TypeError("hash: values of type " + type.to_string() + " cannot be hashed");
}

template <typename H>
typename H::Seed hash_value(const ArrayData& data, int64_t i, typename H::Seed seed);

/// Folds the elements [begin, end) of `child` into `seed`, as Spark hashes arrays.
template <typename H>
typename H::Seed hash_elements(const ArrayData& child, int64_t begin, int64_t end,
                               typename H::Seed seed) {
  for (int64_t j = begin; j < end; ++j) {
    seed = hash_value<H>(child, j, seed);
  }
  return seed;
}

/// The hash of value `i` of `data` (relative to its window) with `seed`; the seed itself for a
/// null.
template <typename H>
typename H::Seed hash_value(const ArrayData& data, int64_t i, typename H::Seed seed) {
  const DataType& type = *data.type;
  if (type.id() == TypeId::kNull || data.is_null_in_bitmap(i)) {
    return seed;
  }
  const int64_t row = data.offset + i;
  const auto* values =
      data.buffers.size() > 1 && data.buffers[1] != nullptr ? data.buffers[1]->data() : nullptr;
  switch (type.id()) {
    case TypeId::kBoolean:
      return H::of_int(bit_util::get_bit(values, row) ? 1 : 0, seed);
    case TypeId::kInt8:
      return H::of_int(reinterpret_cast<const int8_t*>(values)[row], seed);
    case TypeId::kUInt8:
      return H::of_int(values[row], seed);
    case TypeId::kInt16:
      return H::of_int(reinterpret_cast<const int16_t*>(values)[row], seed);
    case TypeId::kUInt16:
      return H::of_int(reinterpret_cast<const uint16_t*>(values)[row], seed);
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kIntervalMonths:
      return H::of_int(reinterpret_cast<const int32_t*>(values)[row], seed);
    case TypeId::kUInt32:
      return H::of_long(reinterpret_cast<const uint32_t*>(values)[row], seed);
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kTime64:
      return H::of_long(reinterpret_cast<const int64_t*>(values)[row], seed);
    case TypeId::kDate64:
      return H::of_int(date64_days(reinterpret_cast<const int64_t*>(values)[row]), seed);
    case TypeId::kTimestamp:
      return H::of_long(to_micros(reinterpret_cast<const int64_t*>(values)[row],
                                  type_cast<TimestampType>(type).unit()),
                        seed);
    case TypeId::kDuration:
      return H::of_long(to_micros(reinterpret_cast<const int64_t*>(values)[row],
                                  type_cast<TemporalUnitType>(type).unit()),
                        seed);
    case TypeId::kFloat16:
      return H::of_int(
          spark_float_bits(float16_to_float(reinterpret_cast<const uint16_t*>(values)[row])), seed);
    case TypeId::kFloat32:
      return H::of_int(spark_float_bits(reinterpret_cast<const float*>(values)[row]), seed);
    case TypeId::kFloat64:
      return H::of_long(spark_double_bits(reinterpret_cast<const double*>(values)[row]), seed);
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const auto& decimal = type_cast<DecimalType>(type);
      return hash_decimal<H>(decimal, values + row * decimal.byte_width(), seed);
    }
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalMonthDayNano:
    case TypeId::kFixedSizeBinary: {
      const int width = type.byte_width();
      return H::of_bytes(values + row * width, width, seed);
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
    case TypeId::kStringView:
    case TypeId::kBinaryView: {
      const std::string_view value = binary_value(data, i);
      return H::of_bytes(reinterpret_cast<const uint8_t*>(value.data()),
                         static_cast<int64_t>(value.size()), seed);
    }
    case TypeId::kList:
    case TypeId::kMap: {
      const auto* offsets = reinterpret_cast<const int32_t*>(values) + row;
      const ArrayData& child = *data.children[0];
      if (type.id() == TypeId::kMap) {
        // Spark hashes a map's keys and values in entry order: key, value, key, value...
        const ArrayData& keys = *child.children[0];
        const ArrayData& items = *child.children[1];
        for (int64_t j = offsets[0]; j < offsets[1]; ++j) {
          seed = hash_value<H>(keys, child.offset + j, seed);
          seed = hash_value<H>(items, child.offset + j, seed);
        }
        return seed;
      }
      return hash_elements<H>(child, offsets[0], offsets[1], seed);
    }
    case TypeId::kLargeList: {
      const auto* offsets = reinterpret_cast<const int64_t*>(values) + row;
      return hash_elements<H>(*data.children[0], offsets[0], offsets[1], seed);
    }
    case TypeId::kListView:
    case TypeId::kLargeListView: {
      const uint8_t* sizes = data.buffers[2]->data();
      int64_t offset = 0;
      int64_t size = 0;
      if (type.id() == TypeId::kListView) {
        offset = reinterpret_cast<const int32_t*>(values)[row];
        size = reinterpret_cast<const int32_t*>(sizes)[row];
      } else {
        offset = reinterpret_cast<const int64_t*>(values)[row];
        size = reinterpret_cast<const int64_t*>(sizes)[row];
      }
      return hash_elements<H>(*data.children[0], offset, offset + size, seed);
    }
    case TypeId::kFixedSizeList: {
      const int64_t size = type_cast<FixedSizeListType>(type).list_size();
      return hash_elements<H>(*data.children[0], row * size, (row + 1) * size, seed);
    }
    case TypeId::kStruct:
      for (const auto& child : data.children) {
        seed = hash_value<H>(*child, row, seed);
      }
      return seed;
    case TypeId::kDictionary:
      return hash_value<H>(*data.dictionary, dictionary_index(data, i), seed);
    case TypeId::kExtension: {
      ArrayData storage(data);
      storage.type = type_cast<ExtensionType>(type).storage_type();
      return hash_value<H>(storage, i, seed);
    }
    default:
      throw_unhashable(type);
  }
}

/// Calls `visit(i)` for each valid row i of `data`.
template <typename Visit>
void for_each_valid(const ArrayData& data, Visit&& visit) {
  const uint8_t* validity = data.buffers[0] != nullptr ? data.buffers[0]->data() : nullptr;
  for_each_set_bit(validity, data.offset, data.length, visit);
}

template <typename H>
void hash_column_spark(const Array& column, typename H::Seed* hashes) {
  const ArrayData& data = *column.data();
  switch (data.type->id()) {
    case TypeId::kNull:
      return;
    case TypeId::kInt8: {
      const auto* values = data.values<int8_t>(1);
      for_each_valid(data, [&](int64_t i) { hashes[i] = H::of_int(values[i], hashes[i]); });
      return;
    }
    case TypeId::kInt16: {
      const auto* values = data.values<int16_t>(1);
      for_each_valid(data, [&](int64_t i) { hashes[i] = H::of_int(values[i], hashes[i]); });
      return;
    }
    case TypeId::kInt32:
    case TypeId::kDate32: {
      const auto* values = data.values<int32_t>(1);
      for_each_valid(data, [&](int64_t i) { hashes[i] = H::of_int(values[i], hashes[i]); });
      return;
    }
    case TypeId::kInt64: {
      const auto* values = data.values<int64_t>(1);
      for_each_valid(data, [&](int64_t i) { hashes[i] = H::of_long(values[i], hashes[i]); });
      return;
    }
    case TypeId::kFloat64: {
      const auto* values = data.values<double>(1);
      for_each_valid(data, [&](int64_t i) {
        hashes[i] = H::of_long(spark_double_bits(values[i]), hashes[i]);
      });
      return;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      const auto* offsets = data.values<int32_t>(1);
      const uint8_t* bytes = data.buffers[2] != nullptr ? data.buffers[2]->data() : nullptr;
      for_each_valid(data, [&](int64_t i) {
        hashes[i] = H::of_bytes(bytes + offsets[i], offsets[i + 1] - offsets[i], hashes[i]);
      });
      return;
    }
    default:
      break;
  }
  const DataType& type = *data.type;
  if (type.is_union() || type.id() == TypeId::kRunEndEncoded) {
    throw_unhashable(type);
  }
  for (int64_t i = 0; i < data.length; ++i) {
    hashes[i] = hash_value<H>(data, i, hashes[i]);
  }
}

}  // namespace

void spark_murmur3_column(const Array& column, int32_t* hashes) {
  hash_column_spark<Murmur3>(column, hashes);
}

void spark_xxhash64_column(const Array& column, int64_t* hashes) {
  hash_column_spark<XxHash64>(column, hashes);
}

// --- The internal hash -----------------------------------------------------------------------

uint64_t hash_long_bytes(const void* data, int64_t length) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  // Two lanes of 16 bytes at a time; the last 16 bytes (overlapping if need be) end it.
  uint64_t lane = 0x9e3779b97f4a7c15ULL ^ static_cast<uint64_t>(length);
  int64_t i = 0;
  for (; i + 16 < length; i += 16) {
    lane =
        fold_multiply(load_u64(bytes + i) ^ 0xa0761d6478bd642fULL, load_u64(bytes + i + 8) ^ lane);
  }
  const uint64_t mixed = fold_multiply(load_u64(bytes + length - 16) ^ 0xe7037ed1a0b428dbULL,
                                       load_u64(bytes + length - 8) ^ lane);
  return fold_multiply(mixed ^ 0x8ebc6af09c88c6e3ULL,
                       0x589965cc75374cc3ULL ^ static_cast<uint64_t>(length));
}

namespace {

constexpr uint64_t kNullHash = 0x5bd1e9955bd1e995ULL;

template <bool Combine>
void put_hash(uint64_t* hashes, int64_t i, uint64_t hash) {
  if constexpr (Combine) {
    hashes[i] = hash_combine(hashes[i], hash);
  } else {
    hashes[i] = hash;
  }
}

template <bool Combine, typename T, typename Bits>
void hash_fixed(const ArrayData& data, uint64_t* hashes, Bits bits_of) {
  const T* values = data.values<T>(1);
  for (int64_t i = 0; i < data.length; ++i) {
    put_hash<Combine>(hashes, i, hash_u64(bits_of(values[i])));
  }
}

/// Hashes of the valid rows of `data`; null rows get garbage, fixed by the caller.
template <bool Combine>
void hash_values(const ArrayData& data, uint64_t* hashes) {
  const DataType& type = *data.type;
  const int64_t length = data.length;
  auto plain = [](auto value) { return static_cast<uint64_t>(value); };
  switch (type.storage_id()) {
    case TypeId::kNull:
      for (int64_t i = 0; i < length; ++i) {
        put_hash<Combine>(hashes, i, kNullHash);
      }
      return;
    case TypeId::kBoolean: {
      const uint8_t* bits = data.buffers[1]->data();
      for (int64_t i = 0; i < length; ++i) {
        put_hash<Combine>(hashes, i, hash_u64(bit_util::get_bit(bits, data.offset + i) ? 1 : 2));
      }
      return;
    }
    case TypeId::kFloat16: {
      const auto* values = data.values<uint16_t>(1);
      for (int64_t i = 0; i < length; ++i) {
        put_hash<Combine>(hashes, i, hash_u64(normalized_float_bits(float16_to_float(values[i]))));
      }
      return;
    }
    case TypeId::kFloat32:
      hash_fixed<Combine, float>(data, hashes, [](float v) { return normalized_float_bits(v); });
      return;
    case TypeId::kFloat64:
      hash_fixed<Combine, double>(data, hashes, [](double v) { return normalized_double_bits(v); });
      return;
    case TypeId::kDictionary: {
      const ArrayData& dictionary = *data.dictionary;
      std::vector<uint64_t> dictionary_hashes(static_cast<size_t>(dictionary.length));
      hash_values<false>(dictionary, dictionary_hashes.data());
      for (int64_t j = 0; j < dictionary.length; ++j) {
        if (dictionary.is_null_in_bitmap(j)) {
          dictionary_hashes[static_cast<size_t>(j)] = kNullHash;
        }
      }
      for (int64_t i = 0; i < length; ++i) {
        put_hash<Combine>(hashes, i,
                          dictionary_hashes[static_cast<size_t>(dictionary_index(data, i))]);
      }
      return;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      const auto* offsets = data.values<int32_t>(1);
      const uint8_t* bytes = data.buffers[2] != nullptr ? data.buffers[2]->data() : nullptr;
      for (int64_t i = 0; i < length; ++i) {
        put_hash<Combine>(hashes, i, hash_bytes(bytes + offsets[i], offsets[i + 1] - offsets[i]));
      }
      return;
    }
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
    case TypeId::kStringView:
    case TypeId::kBinaryView:
      for (int64_t i = 0; i < length; ++i) {
        const std::string_view value = binary_value(data, i);
        put_hash<Combine>(hashes, i, hash_bytes(value.data(), static_cast<int64_t>(value.size())));
      }
      return;
    case TypeId::kStruct: {
      std::vector<uint64_t> row_hashes(static_cast<size_t>(length), 0x2545f4914f6cdd1dULL);
      for (const auto& child : data.children) {
        const Array field = Array(child).slice(data.offset, length);
        hash_column(field, row_hashes.data(), true);
      }
      for (int64_t i = 0; i < length; ++i) {
        put_hash<Combine>(hashes, i, row_hashes[static_cast<size_t>(i)]);
      }
      return;
    }
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kFixedSizeList: {
      const Array child(data.children[0]);
      std::vector<uint64_t> element_hashes(static_cast<size_t>(child.length()));
      hash_column(child, element_hashes.data(), false);
      for (int64_t i = 0; i < length; ++i) {
        const int64_t row = data.offset + i;
        const auto [begin, end] = list_element_range(data, row);
        uint64_t hash = hash_u64(static_cast<uint64_t>(end - begin));
        for (int64_t j = begin; j < end; ++j) {
          hash = hash_combine(hash, element_hashes[static_cast<size_t>(j)]);
        }
        put_hash<Combine>(hashes, i, hash);
      }
      return;
    }
    default:
      break;
  }
  if (type.is_union() || type.storage_id() == TypeId::kRunEndEncoded) {
    throw_unhashable(type);
  }
  switch (type.byte_width()) {
    case 1:
      hash_fixed<Combine, uint8_t>(data, hashes, plain);
      return;
    case 2:
      hash_fixed<Combine, uint16_t>(data, hashes, plain);
      return;
    case 4:
      hash_fixed<Combine, uint32_t>(data, hashes, plain);
      return;
    case 8:
      hash_fixed<Combine, uint64_t>(data, hashes, plain);
      return;
    default: {
      const int64_t width = type.byte_width();
      const uint8_t* values = data.buffers[1]->data() + data.offset * width;
      for (int64_t i = 0; i < length; ++i) {
        put_hash<Combine>(hashes, i, hash_bytes(values + i * width, width));
      }
    }
  }
}

}  // namespace

void hash_column(const Array& column, uint64_t* hashes, bool combine) {
  const ArrayData& data = *column.data();
  if (combine) {
    hash_values<true>(data, hashes);
  } else {
    hash_values<false>(data, hashes);
  }
  // Dictionary values that are null already hash as kNullHash.
  if (data.buffers.empty() || data.buffers[0] == nullptr || data.type->id() == TypeId::kNull) {
    return;
  }
  const uint8_t* validity = data.buffers[0]->data();
  for (int64_t i = 0; i < data.length; ++i) {
    if (!bit_util::get_bit(validity, data.offset + i)) {
      hashes[i] = combine ? hash_combine(hashes[i], kNullHash) : kNullHash;
    }
  }
}

void hash_rows(std::span<const Array> columns, uint64_t* hashes) {
  if (columns.empty()) {
    throw InvalidArgument("hash_rows needs at least one column");
  }
  hash_column(columns[0], hashes, false);
  for (size_t c = 1; c < columns.size(); ++c) {
    hash_column(columns[c], hashes, true);
  }
}

// --- Registration ----------------------------------------------------------------------------

namespace {

bool contains_map(const DataType& type) {
  if (type.id() == TypeId::kMap) {
    return true;
  }
  if (type.id() == TypeId::kDictionary) {
    return contains_map(*type_cast<DictionaryType>(type).value_type());
  }
  for (const auto& field : type.fields()) {
    if (contains_map(*field->type())) {
      return true;
    }
  }
  return false;
}

/// `hash` (Murmur3, int) or `xxhash64` (long), chained over any number of arguments.
template <typename H>
class SparkHashFunction final : public ScalarFunction {
 public:
  SparkHashFunction(std::string name, std::string description)
      : ScalarFunction(std::move(name), Arity{1, -1}, NullHandling::kCustom,
                       std::move(description)) {}

  std::vector<Signature> signatures() const override {
    return parse_signatures(
        {std::string("(any, any...) -> ") + (sizeof(Seed) == 4 ? "int" : "bigint")});
  }

  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& /*options*/) const override {
    for (size_t i = 0; i < arguments.size(); ++i) {
      if (contains_map(*arguments[i])) {
        throw AnalysisError("DATATYPE_MISMATCH.HASH_MAP_TYPE",
                            "Cannot resolve \"" + name() + "\": input to the function " + name() +
                                " cannot contain elements of the \"MAP\" type (argument " +
                                std::to_string(i + 1) + " is " + spark_type_name(*arguments[i]) +
                                ")");
      }
      const DataType& type = *arguments[i];
      if (type.is_union() || type.storage_id() == TypeId::kRunEndEncoded) {
        throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                            "Cannot resolve \"" + name() + "\": argument " + std::to_string(i + 1) +
                                " has the unhashable type " + type.to_string());
      }
    }
    return {sizeof(Seed) == 4 ? int32() : int64(),
            std::vector<TypePtr>(arguments.begin(), arguments.end())};
  }

  Datum execute(std::span<const Datum> arguments, const FunctionOptions& /*options*/,
                ExecContext& context) const override {
    int64_t length = 1;
    bool all_scalars = true;
    for (const Datum& argument : arguments) {
      if (argument.is_array()) {
        length = argument.length();
        all_scalars = false;
      }
    }
    OutputValues<Seed> output(length, context.allocator);
    Seed* hashes = output.data();
    std::fill(hashes, hashes + length, Seed{42});
    for (const Datum& argument : arguments) {
      if (argument.is_array()) {
        hash_column_spark<H>(argument.array(), hashes);
      } else {
        const ArrayData& scalar = *argument.data();
        for (int64_t i = 0; i < length; ++i) {
          hashes[i] = hash_value<H>(scalar, 0, hashes[i]);
        }
      }
    }
    Array result = make_fixed_width_array(sizeof(Seed) == 4 ? int32() : int64(), length, nullptr, 0,
                                          output.finish());
    return all_scalars ? Datum::scalar(std::move(result)) : Datum(std::move(result));
  }

 private:
  using Seed = typename H::Seed;
};

}  // namespace

void register_hash_functions(FunctionRegistry& registry) {
  registry.add(std::make_shared<SparkHashFunction<Murmur3>>(
      "hash", "Murmur3 hash (seed 42) of the arguments, as Spark computes it."));
  registry.add(std::make_shared<SparkHashFunction<XxHash64>>(
      "xxhash64", "64-bit xxHash (seed 42) of the arguments, as Spark computes it."));
}

}  // namespace bowstring::compute
