// Map functions. A map is a list of (key, value) entries; building one gathers its keys and
// values from pools by index, refuses null keys and resolves repeated keys by Spark's
// `spark.sql.mapKeyDedupPolicy` with one hash table over the (row, key) pairs of every row.

#include <string>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/concatenate.h"
#include "bowstring/compute/aggregate/grouper.h"
#include "bowstring/compute/collection/array_kernels.h"
#include "bowstring/compute/collection/collection_function.h"
#include "bowstring/compute/collection/list_util.h"
#include "bowstring/compute/core/coercion.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/types/spark_type_names.h"

namespace bowstring::compute::collection {

namespace {

/// Field `index` of a struct array, cut to the struct's window.
Array struct_field(const Array& array, int index) {
  return Array(array.data()->children[static_cast<size_t>(index)])
      .slice(array.offset(), array.length());
}

/// The entries of a map array (the struct of keys and values, as stored) and its keys and
/// values, indexed as the entries are.
struct MapColumn {
  explicit MapColumn(const Array& map)
      : list(map), keys(struct_field(list.values, 0)), items(struct_field(list.values, 1)) {}

  ListColumn list;
  Array keys;
  Array items;
};

/// The text of a key in Spark's messages: the key cast to STRING.
std::string key_text(const Array& keys, int64_t index, ExecContext& context) {
  const Datum key[] = {Datum::scalar(keys.slice(index, 1))};
  const Datum text = call("cast", key, {{"to", utf8()}}, &context);
  return std::string(StringArray(text.array()).value(0));
}

/// A map result being gathered: each entry is a key index into a key pool and a value index
/// into a value pool.
class MapGather {
 public:
  MapGather(int64_t length, Allocator* allocator) : validity_(length, allocator) {
    offsets_.push_back(0);
  }

  void add(int64_t key, int64_t value) {
    keys_.push_back(key);
    values_.push_back(value);
  }
  void finish_row(bool valid) {
    validity_.set(static_cast<int64_t>(offsets_.size()) - 1, valid);
    offsets_.push_back(static_cast<int32_t>(keys_.size()));
  }

  /// The maps of `type`: throws NULL_MAP_KEY for a null key, DUPLICATED_MAP_KEY for a key
  /// repeated in a row unless the policy is LAST_WIN (which keeps the last value in the first
  /// key's place).
  Array finish(const TypePtr& type, const Array& key_pool, const Array& value_pool,
               ExecContext& context) {
    for (const int64_t key : keys_) {
      if (key_pool.is_null(key)) {
        throw SparkRuntimeError("NULL_MAP_KEY", "Cannot use null as map key.");
      }
    }
    const Array normalized_keys = normalize_zeros(key_pool, context.allocator);
    Array keys = take(normalized_keys, std::span<const int64_t>(keys_), context.allocator);
    deduplicate(keys, context);
    if (keys.length() != static_cast<int64_t>(values_.size())) {
      keys = take(normalized_keys, std::span<const int64_t>(keys_), context.allocator);
    }
    Array values = take_or_null(value_pool, values_, context.allocator);
    const auto& map_type = static_cast<const MapType&>(*type);
    const int64_t entries = keys.length();
    const Array entry_array(std::make_shared<const ArrayData>(
        map_type.entries_field()->type(), entries, std::vector<std::shared_ptr<Buffer>>{nullptr}, 0,
        0, std::vector<ArrayDataPtr>{keys.data(), values.data()}));
    const auto length = static_cast<int64_t>(offsets_.size()) - 1;
    const int64_t null_count = validity_.null_count();
    return make_list(
        type, length, validity_.finish(), null_count,
        Buffer::copy_of(offsets_.data(), static_cast<int64_t>(offsets_.size() * sizeof(int32_t)),
                        context.allocator),
        entry_array);
  }

 private:
  /// Drops the repeated keys of each row (or raises), rewriting keys_, values_ and offsets_.
  void deduplicate(const Array& keys, ExecContext& context) {
    const auto count = static_cast<int64_t>(keys_.size());
    std::vector<int32_t> rows(static_cast<size_t>(count));
    for (size_t i = 0; i + 1 < offsets_.size(); ++i) {
      std::fill(rows.begin() + offsets_[i], rows.begin() + offsets_[i + 1],
                static_cast<int32_t>(i));
    }
    const TypePtr types[] = {int32(), keys.type()};
    std::unique_ptr<Grouper> grouper = Grouper::make(types, context.allocator);
    const Array key_columns[] = {
        make_fixed_width_array(
            int32(), count, nullptr, 0,
            Buffer::copy_of(rows.data(), count * static_cast<int64_t>(sizeof(int32_t)),
                            context.allocator)),
        keys};
    const std::vector<uint32_t> ids = grouper->consume(key_columns);
    if (grouper->num_groups() == ids.size()) {
      return;
    }
    std::vector<int64_t> last_value(grouper->num_groups(), -1);
    for (int64_t k = 0; k < count; ++k) {
      const uint32_t id = ids[static_cast<size_t>(k)];
      if (last_value[id] >= 0 && context.map_key_dedup_policy == MapKeyDedupPolicy::kException) {
        throw SparkRuntimeError(
            "DUPLICATED_MAP_KEY",
            "Duplicate map key " + key_text(keys, k, context) +
                " was found, please check the input data. If you want to remove the duplicated "
                "keys, you can set \"spark.sql.mapKeyDedupPolicy\" to \"LAST_WIN\" so that the "
                "key inserted at last takes precedence.");
      }
      last_value[id] = values_[static_cast<size_t>(k)];
    }
    std::vector<bool> placed(grouper->num_groups(), false);
    std::vector<int64_t> kept_keys;
    std::vector<int64_t> kept_values;
    std::vector<int32_t> kept_offsets{0};
    for (size_t i = 0; i + 1 < offsets_.size(); ++i) {
      for (int32_t k = offsets_[i]; k < offsets_[i + 1]; ++k) {
        const uint32_t id = ids[static_cast<size_t>(k)];
        if (!placed[id]) {
          placed[id] = true;
          kept_keys.push_back(keys_[static_cast<size_t>(k)]);
          kept_values.push_back(last_value[id]);
        }
      }
      kept_offsets.push_back(static_cast<int32_t>(kept_keys.size()));
    }
    keys_ = std::move(kept_keys);
    values_ = std::move(kept_values);
    offsets_ = std::move(kept_offsets);
  }

  std::vector<int64_t> keys_;
  std::vector<int64_t> values_;
  std::vector<int32_t> offsets_;
  ValidityOutput validity_;
};

// --- create_map, map_from_arrays, map_from_entries, map_concat ---------------------------------

Resolution resolve_create_map(const std::string& name, std::span<const TypePtr> arguments) {
  check_pairs(name, arguments.size());
  std::vector<TypePtr> keys;
  std::vector<TypePtr> values;
  for (size_t i = 0; i < arguments.size(); ++i) {
    (i % 2 == 0 ? keys : values).push_back(arguments[i]);
  }
  const TypePtr key = keys.empty() ? null() : wider_type(keys, name, StringPromotion::kYes);
  const TypePtr value = values.empty() ? null() : wider_type(values, name, StringPromotion::kYes);
  if (key->id() == TypeId::kMap) {
    throw AnalysisError("DATATYPE_MISMATCH.INVALID_MAP_KEY_TYPE",
                        "Cannot resolve \"" + name +
                            "\" due to data type mismatch: The key of map cannot be/contain \"" +
                            spark_type_name(*key) + "\".");
  }
  std::vector<TypePtr> cast;
  for (size_t i = 0; i < arguments.size(); ++i) {
    cast.push_back(i % 2 == 0 ? key : value);
  }
  return {map(key, value), std::move(cast)};
}

Datum create_map_kernel(std::span<const Datum> arguments, const TypePtr& output,
                        ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const auto& map_type = static_cast<const MapType&>(*output);
  std::vector<Array> keys;
  std::vector<Array> values;
  for (size_t i = 0; i < columns.size(); ++i) {
    (i % 2 == 0 ? keys : values).push_back(columns[i]);
  }
  const auto pairs = static_cast<int64_t>(keys.size());
  const Array key_pool = pool_of(keys, map_type.key_type(), nullptr, context.allocator);
  const Array value_pool = pool_of(values, map_type.item_type(), nullptr, context.allocator);
  MapGather out(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    for (int64_t j = 0; j < pairs; ++j) {
      out.add(j * length + i, j * length + i);
    }
    out.finish_row(true);
  }
  return result_of(out.finish(output, key_pool, value_pool, context), arguments);
}

Resolution resolve_map_from_arrays(const std::string& name, std::span<const TypePtr> arguments) {
  const DataType* keys = require_array(name, arguments, 0);
  const DataType* values = require_array(name, arguments, 1);
  const TypePtr key = keys != nullptr ? element_type(*keys) : null();
  const TypePtr value = values != nullptr ? element_type(*values) : null();
  return {map(key, value), {list(key), list(value)}};
}

Datum map_from_arrays_kernel(std::span<const Datum> arguments, const TypePtr& output,
                             ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const ListColumn keys(columns[0]);
  const ListColumn values(columns[1]);
  MapGather out(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    const bool valid = keys.is_valid(i) && values.is_valid(i);
    if (valid) {
      if (keys.size(i) != values.size(i)) {
        throw SparkRuntimeError(
            "_LEGACY_ERROR_TEMP_2128",
            "The key array and value array of MapData must have the same length.");
      }
      for (int64_t k = 0; k < keys.size(i); ++k) {
        out.add(keys.offsets[i] + k, values.offsets[i] + k);
      }
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, keys.values, values.values, context), arguments);
}

Resolution resolve_map_from_entries(const std::string& name, std::span<const TypePtr> arguments) {
  const DataType* array = require_array(name, arguments, 0);
  if (array == nullptr) {
    return {map(null(), null()), {arguments[0]}};
  }
  const TypePtr& entry = element_type(*array);
  if (entry->id() != TypeId::kStruct || entry->num_fields() != 2) {
    throw_input_type(name, 0, "\"ARRAY\" of pair \"STRUCT\"", *arguments[0]);
  }
  return {map(entry->field(0)->type(), entry->field(1)->type()), {arguments[0]}};
}

Datum map_from_entries_kernel(std::span<const Datum> arguments, const TypePtr& output,
                              ExecContext& context) {
  const ListColumn list(arguments[0].array());
  const Array keys = struct_field(list.values, 0);
  const Array values = struct_field(list.values, 1);
  MapGather out(list.length, context.allocator);
  for (int64_t i = 0; i < list.length; ++i) {
    // A null entry makes the whole map null, as Spark's MapFromEntries does.
    bool valid = list.is_valid(i);
    for (int64_t k = list.offsets[i]; valid && k < list.offsets[i + 1]; ++k) {
      valid = list.values.is_valid(k);
    }
    for (int64_t k = list.offsets[i]; valid && k < list.offsets[i + 1]; ++k) {
      out.add(k, k);
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, keys, values, context), arguments);
}

Resolution resolve_map_concat(const std::string& name, std::span<const TypePtr> arguments) {
  for (size_t i = 0; i < arguments.size(); ++i) {
    require_map(name, arguments, i);
  }
  if (arguments.empty()) {
    return {map(utf8(), utf8()), {}};
  }
  const TypePtr common = wider_type(arguments, name, StringPromotion::kNo);
  return {common, std::vector<TypePtr>(arguments.size(), common)};
}

Datum map_concat_kernel(std::span<const Datum> arguments, const TypePtr& output,
                        ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  std::vector<MapColumn> maps;
  std::vector<Array> keys;
  std::vector<Array> values;
  for (const Array& column : columns) {
    maps.emplace_back(column);
    keys.push_back(maps.back().keys);
    values.push_back(maps.back().items);
  }
  const auto& map_type = static_cast<const MapType&>(*output);
  std::vector<int64_t> bases;
  const Array key_pool = pool_of(keys, map_type.key_type(), &bases, context.allocator);
  const Array value_pool = pool_of(values, map_type.item_type(), nullptr, context.allocator);
  MapGather out(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    bool valid = true;
    for (const MapColumn& map : maps) {
      valid = valid && map.list.is_valid(i);
    }
    for (size_t c = 0; valid && c < maps.size(); ++c) {
      for (int64_t k = maps[c].list.offsets[i]; k < maps[c].list.offsets[i + 1]; ++k) {
        out.add(bases[c] + k, bases[c] + k);
      }
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, key_pool, value_pool, context), arguments);
}

// --- str_to_map --------------------------------------------------------------------------------

Resolution resolve_str_to_map(const std::string& name, std::span<const TypePtr> arguments) {
  for (size_t i = 0; i < arguments.size(); ++i) {
    const SparkType spark = spark_type_of(*arguments[i]);
    if (spark != SparkType::kString && spark != SparkType::kNull) {
      throw_input_type(name, i, "\"STRING\"", *arguments[i]);
    }
  }
  return {map(utf8(), utf8()), std::vector<TypePtr>(arguments.size(), utf8())};
}

Datum string_scalar(std::string_view text, Allocator* allocator) {
  StringBuilder builder(allocator);
  builder.append(text);
  return Datum::scalar(builder.finish());
}

Datum int_scalar(int32_t value, Allocator* allocator) {
  NumericBuilder<int32_t> builder(int32(), allocator);
  builder.append(value);
  return Datum::scalar(builder.finish());
}

/// str_to_map(text, pairDelim = ',', keyValueDelim = ':'): the text split around the pair
/// delimiter, each pair around the first key-value delimiter (both regular expressions, as
/// Spark's); a pair without one has a null value. Both splits run over every row at once.
Datum str_to_map_kernel(std::span<const Datum> arguments, const TypePtr& output,
                        ExecContext& context) {
  const int64_t length = result_length(arguments);
  Allocator* allocator = context.allocator;
  const Datum pair_delimiter = arguments.size() > 1 ? arguments[1] : string_scalar(",", allocator);
  const Datum entry_delimiter = arguments.size() > 2 ? arguments[2] : string_scalar(":", allocator);
  const Datum text = Datum(arguments[0].to_array(length, allocator));
  const Datum pair_split[] = {text, pair_delimiter, int_scalar(-1, allocator)};
  const Array pairs = call("split", pair_split, {}, &context).array();
  const ListColumn pair_lists(pairs);
  // Each pair with its row's key-value delimiter, split in one call over all pairs.
  const Array entries =
      pair_lists.values.slice(pair_lists.first(), pair_lists.end() - pair_lists.first());
  Datum entry_delimiters = entry_delimiter;
  if (entry_delimiter.is_array()) {
    const std::vector<int32_t> rows = element_rows(pair_lists);
    entry_delimiters =
        Datum(take(entry_delimiter.array(), std::span<const int32_t>(rows), allocator));
  }
  const Datum entry_split[] = {Datum(entries), entry_delimiters, int_scalar(2, allocator)};
  const Datum parts = call("split", entry_split, {}, &context);
  const Datum key_at[] = {parts, int_scalar(1, allocator)};
  const Datum value_at[] = {parts, int_scalar(2, allocator)};
  const Array keys = call("try_element_at", key_at, {}, &context).array();
  const Array values = call("try_element_at", value_at, {}, &context).array();
  MapGather out(length, allocator);
  for (int64_t i = 0; i < length; ++i) {
    const bool valid = pair_lists.is_valid(i);
    for (int64_t k = pair_lists.offsets[i]; valid && k < pair_lists.offsets[i + 1]; ++k) {
      out.add(k - pair_lists.first(), k - pair_lists.first());
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, keys, values, context), arguments);
}

// --- map_keys, map_values, map_entries, map_contains_key --------------------------------------

/// A list with the map's offsets and validity over `values` (indexed as the entries are).
Array with_map_offsets(const Array& map, const TypePtr& type, const Array& values) {
  const ArrayData& data = *map.data();
  return Array(std::make_shared<const ArrayData>(
      type, data.length, std::vector<std::shared_ptr<Buffer>>{data.buffers[0], data.buffers[1]},
      data.known_null_count(), data.offset, std::vector<ArrayDataPtr>{values.data()}));
}

template <int kPart>
Datum map_part_kernel(std::span<const Datum> arguments, const TypePtr& output, ExecContext&) {
  const Array& map = arguments[0].array();
  const Array entries(map.data()->children[0]);
  const Array values =
      kPart < 2
          ? struct_field(entries, kPart)
          : Array(std::make_shared<const ArrayData>(
                element_type(*output), entries.length(), entries.data()->buffers,
                entries.data()->known_null_count(), entries.offset(), entries.data()->children));
  return result_of(with_map_offsets(map, output, values), arguments);
}

template <int kPart>
Resolution resolve_map_part(const std::string& name, std::span<const TypePtr> arguments) {
  const DataType* type = require_map(name, arguments, 0);
  if (type == nullptr) {
    return {list(null()), {arguments[0]}};
  }
  const auto& map_type = static_cast<const MapType&>(*type);
  TypePtr element;
  if constexpr (kPart == 0) {
    element = map_type.key_type();
  } else if constexpr (kPart == 1) {
    element = map_type.item_type();
  } else {
    element =
        struct_({field("key", map_type.key_type(), false), field("value", map_type.item_type())});
  }
  return {list(element), {arguments[0]}};
}

/// For each row, the index in the entries of the first entry whose key equals the row's key,
/// or -1 (also for a null map or key).
std::vector<int64_t> find_keys(const MapColumn& map, const Array& key, ExecContext& context) {
  const std::vector<int32_t> rows = element_rows(map.list);
  const Array probe = take(key, std::span<const int32_t>(rows), context.allocator);
  const int64_t first = map.list.first();
  const BooleanArray matches(
      equal_values(map.keys.slice(first, map.list.end() - first), probe, context));
  std::vector<int64_t> found(static_cast<size_t>(map.list.length), -1);
  for (int64_t i = 0; i < map.list.length; ++i) {
    if (!map.list.is_valid(i) || key.is_null(i)) {
      continue;
    }
    for (int64_t k = map.list.offsets[i]; k < map.list.offsets[i + 1]; ++k) {
      if (matches.is_valid(k - first) && matches.value(k - first)) {
        found[static_cast<size_t>(i)] = k;
        break;
      }
    }
  }
  return found;
}

Resolution resolve_map_and_key(const std::string& name, std::span<const TypePtr> arguments) {
  if (require_map(name, arguments, 0) == nullptr) {
    return {boolean(), {arguments[0], arguments[1]}};
  }
  return {boolean(), {arguments[0], map_key_argument(name, arguments)}};
}

Datum map_contains_key_kernel(std::span<const Datum> arguments, const TypePtr&,
                              ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const MapColumn map(columns[0]);
  const std::vector<int64_t> found = find_keys(map, columns[1], context);
  BooleanOutput out(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    out.set(i, map.list.is_valid(i) && columns[1].is_valid(i), found[static_cast<size_t>(i)] >= 0);
  }
  return out.finish(arguments);
}

}  // namespace

void check_pairs(const std::string& function, size_t count) {
  if (count % 2 != 0) {
    throw AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                        "The `" + function +
                            "` requires 2n (n > 0) parameters but the actual number is " +
                            std::to_string(count) + ".");
  }
}

TypePtr map_key_argument(const std::string& function, std::span<const TypePtr> arguments) {
  const TypePtr& key = static_cast<const MapType&>(*arguments[0]).key_type();
  const std::optional<TypePtr> common = wider_type_without_string_promotion(key, arguments[1]);
  if (!common || !(*common)->equals(*key)) {
    throw_diff_types("MAP_FUNCTION_DIFF_TYPES", function,
                     "\"MAP\" followed by a value with same key type", *arguments[0],
                     *arguments[1]);
  }
  return key;
}

Datum map_value_of_key(std::span<const Datum> arguments, ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const MapColumn map(columns[0]);
  std::vector<int64_t> found = find_keys(map, columns[1], context);
  return result_of(take_or_null(map.items, found, context.allocator), arguments);
}

void register_map_functions(FunctionRegistry& registry) {
  constexpr NullHandling kPropagates = NullHandling::kPropagates;
  constexpr NullHandling kCustom = NullHandling::kCustom;
  add_function(registry, "map", {"create_map"}, {0, -1}, kCustom,
               "A map of the arguments taken as key, value, key, value...",
               {"(key: K, value: V[, key: K, value: V]...) -> map<K, V>"}, resolve_create_map,
               create_map_kernel);
  add_function(registry, "map_from_arrays", {}, {2, 2}, kPropagates,
               "A map of the keys of the first array to the values of the second.",
               {"(keys: array<K>, values: array<V>) -> map<K, V>"}, resolve_map_from_arrays,
               map_from_arrays_kernel);
  add_function(registry, "map_from_entries", {}, {1, 1}, kPropagates,
               "A map of an array of (key, value) structs; null if an entry is null.",
               {"(entries: array<struct<key:string,value:int>>) -> map<string,int>"},
               resolve_map_from_entries, map_from_entries_kernel);
  add_function(registry, "map_concat", {}, {0, -1}, kPropagates,
               "The entries of the maps in one map.", {"(map<K, V>...) -> map<K, V>"},
               resolve_map_concat, map_concat_kernel);
  add_function(
      registry, "str_to_map", {}, {1, 3}, kPropagates,
      "A map of the text split into pairs around pairDelim (',' by default) and each "
      "pair into key and value around keyValueDelim (':'); both are regular "
      "expressions.",
      {"(text: string[, pairDelim: string[, keyValueDelim: string]]) -> map<string,string>"},
      resolve_str_to_map, str_to_map_kernel);
  add_function(registry, "map_keys", {}, {1, 1}, kPropagates, "The keys of a map, in order.",
               {"(map<K, V>) -> array<K>"}, resolve_map_part<0>, map_part_kernel<0>);
  add_function(registry, "map_values", {}, {1, 1}, kPropagates, "The values of a map, in order.",
               {"(map<K, V>) -> array<V>"}, resolve_map_part<1>, map_part_kernel<1>);
  add_function(registry, "map_entries", {}, {1, 1}, kPropagates,
               "The entries of a map as an array of (key, value) structs.",
               {"(map<K, V>) -> array<any>"}, resolve_map_part<2>, map_part_kernel<2>);
  add_function(registry, "map_contains_key", {}, {2, 2}, kPropagates,
               "Whether the map holds the key.", {"(map<K, V>, key: K) -> boolean"},
               resolve_map_and_key, map_contains_key_kernel);
}

}  // namespace bowstring::compute::collection
