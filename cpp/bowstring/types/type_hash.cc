#include "bowstring/types/type_hash.h"

#include <functional>
#include <string>

namespace bowstring {

size_t combine_hash(size_t seed, size_t value) {
  // boost's mixing step, with the 64-bit golden ratio.
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

namespace {

size_t hash_string(const std::string& text) { return std::hash<std::string>{}(text); }

size_t hash_children(size_t seed, const DataType& type) {
  for (const FieldPtr& child : type.fields()) {
    seed = combine_hash(seed, hash_field(*child));
  }
  return seed;
}

}  // namespace

size_t hash_type(const DataType& type) {
  const size_t seed = static_cast<size_t>(type.id());
  switch (type.id()) {
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const auto& decimal = static_cast<const DecimalType&>(type);
      return combine_hash(combine_hash(seed, static_cast<size_t>(decimal.precision())),
                          static_cast<size_t>(decimal.scale()));
    }
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kDuration:
      return combine_hash(seed,
                          static_cast<size_t>(static_cast<const TemporalUnitType&>(type).unit()));
    case TypeId::kTimestamp: {
      const auto& timestamp = static_cast<const TimestampType&>(type);
      return combine_hash(combine_hash(seed, static_cast<size_t>(timestamp.unit())),
                          hash_string(timestamp.timezone()));
    }
    case TypeId::kFixedSizeBinary:
      return combine_hash(
          seed, static_cast<size_t>(static_cast<const FixedSizeBinaryType&>(type).width()));
    case TypeId::kFixedSizeList:
      return combine_hash(
          hash_children(seed, type),
          static_cast<size_t>(static_cast<const FixedSizeListType&>(type).list_size()));
    case TypeId::kMap: {
      // As MapType::equals: the names of the entries struct and its fields do not count.
      const auto& map = static_cast<const MapType&>(type);
      size_t hash = combine_hash(seed, map.keys_sorted() ? 1 : 0);
      hash = combine_hash(hash, hash_type(*map.key_type()));
      hash = combine_hash(hash, hash_type(*map.item_type()));
      return combine_hash(hash, map.item_field()->nullable() ? 1 : 0);
    }
    case TypeId::kDictionary: {
      const auto& dictionary = static_cast<const DictionaryType&>(type);
      const size_t hash = combine_hash(seed, dictionary.ordered() ? 1 : 0);
      return combine_hash(combine_hash(hash, hash_type(*dictionary.index_type())),
                          hash_type(*dictionary.value_type()));
    }
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: {
      size_t hash = hash_children(seed, type);
      for (const int8_t code : static_cast<const UnionType&>(type).type_codes()) {
        hash = combine_hash(hash, static_cast<size_t>(code));
      }
      return hash;
    }
    case TypeId::kExtension: {
      const auto& extension = static_cast<const ExtensionType&>(type);
      const size_t hash = combine_hash(seed, hash_string(extension.extension_name()));
      return combine_hash(combine_hash(hash, hash_string(extension.serialized())),
                          hash_type(*extension.storage_type()));
    }
    default:
      // Every other type is its id and its child fields (lists, structs, run-end encoded).
      return hash_children(seed, type);
  }
}

size_t hash_field(const Field& field) {
  return combine_hash(combine_hash(hash_string(field.name()), field.nullable() ? 1 : 0),
                      hash_type(*field.type()));
}

}  // namespace bowstring
