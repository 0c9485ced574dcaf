#include "bowstring/compute/aggregate/grouper.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>

#include "bowstring/array/builder.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/builder_scalar.h"
#include "bowstring/array/concatenate.h"
#include "bowstring/compute/aggregate/key_encoding.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/scalar/hash.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {

Grouper::~Grouper() = default;

std::vector<uint32_t> Grouper::consume(std::span<const Array> keys) {
  std::vector<uint32_t> group_ids(keys.empty() ? 0 : static_cast<size_t>(keys[0].length()));
  consume(keys, group_ids.data());
  return group_ids;
}

void Grouper::check_keys(std::span<const Array> keys) const {
  if (keys.size() != key_types_.size()) {
    throw InvalidArgument("grouper: expected " + std::to_string(key_types_.size()) +
                          " key columns, got " + std::to_string(keys.size()));
  }
  for (size_t c = 0; c < keys.size(); ++c) {
    if (!keys[c].type()->equals(*key_types_[c])) {
      throw InvalidArgument("grouper: key column " + std::to_string(c) + " has type " +
                            keys[c].type()->to_string() + ", expected " +
                            key_types_[c]->to_string());
    }
    if (keys[c].length() != keys[0].length()) {
      throw InvalidArgument(
          "grouper: key columns have different lengths: " + std::to_string(keys[0].length()) +
          " and " + std::to_string(keys[c].length()));
    }
  }
}

namespace {

constexpr uint32_t kNoGroup = UINT32_MAX;

[[noreturn]] void throw_too_many_groups() {
  throw InvalidArgument("grouper: more than 4294967294 groups");
}

// --- One key of at most 8 bytes ------------------------------------------------------------

/// Which value loader a single fixed-width key uses.
/// Signed integers are sign-extended, so that a range of small negative and positive keys stays
/// a small range of 64-bit keys (see `IntegerGrouper`'s direct table).
enum class ScalarKey : uint8_t {
  kBool,
  kU8,
  kU16,
  kU32,
  kI8,
  kI16,
  kI32,
  kU64,
  kPair,  // two 32-bit group ids (high and low halves), as `CombinedGrouper` pairs them
  kHalf,
  kFloat,
  kDouble
};

/// A single key whose values fit 64 bits: open addressing on the (normalized) value.
class IntegerGrouper final : public Grouper {
 public:
  IntegerGrouper(TypePtr type, ScalarKey kind, Allocator* allocator)
      : Grouper({std::move(type)}, allocator),
        kind_(kind),
        direct_(kind != ScalarKey::kHalf && kind != ScalarKey::kFloat &&
                kind != ScalarKey::kDouble) {
    if (!direct_) {
      resize_table(1024);
    }
  }

  void consume(std::span<const Array> keys, uint32_t* group_ids) override {
    check_keys(keys);
    const ArrayData& data = *keys[0].data();
    switch (kind_) {
      case ScalarKey::kBool: {
        const uint8_t* bits = data.buffers[1]->data();
        consume_values(data, group_ids, [&](int64_t i) -> uint64_t {
          return bit_util::get_bit(bits, data.offset + i) ? 1 : 0;
        });
        return;
      }
      case ScalarKey::kU8:
        return consume_integers<uint8_t>(data, group_ids);
      case ScalarKey::kU16:
        return consume_integers<uint16_t>(data, group_ids);
      case ScalarKey::kU32:
        return consume_integers<uint32_t>(data, group_ids);
      case ScalarKey::kI8:
        return consume_integers<int8_t>(data, group_ids);
      case ScalarKey::kI16:
        return consume_integers<int16_t>(data, group_ids);
      case ScalarKey::kI32:
        return consume_integers<int32_t>(data, group_ids);
      case ScalarKey::kU64:
      case ScalarKey::kPair:
        return consume_integers<uint64_t>(data, group_ids);
      case ScalarKey::kHalf: {
        const auto* values = data.values<uint16_t>(1);
        consume_values(data, group_ids, [&](int64_t i) -> uint64_t {
          const uint16_t bits = values[i];
          if ((bits & 0x7c00) == 0x7c00 && (bits & 0x03ff) != 0) {
            return 0x7e00;
          }
          return (bits & 0x7fff) == 0 ? 0 : bits;
        });
        return;
      }
      case ScalarKey::kFloat: {
        const auto* values = data.values<float>(1);
        consume_values(data, group_ids,
                       [&](int64_t i) -> uint64_t { return normalized_float_bits(values[i]); });
        return;
      }
      case ScalarKey::kDouble: {
        const auto* values = data.values<double>(1);
        consume_values(data, group_ids,
                       [&](int64_t i) -> uint64_t { return normalized_double_bits(values[i]); });
        return;
      }
    }
  }

  uint32_t num_groups() const override { return static_cast<uint32_t>(group_keys_.size()); }

  /// Groups `length` keys given as 64-bit values, none null.
  void consume_keys(const uint64_t* keys, int64_t length, uint32_t* group_ids) {
    consume_values(nullptr, 0, length, group_ids, [keys](int64_t i) { return keys[i]; });
  }

  /// The key of each group, in group id order.
  const std::vector<uint64_t>& group_keys() const { return group_keys_; }

  std::vector<Array> unique_keys() const override {
    const TypePtr& type = key_types_[0];
    const auto length = static_cast<int64_t>(group_keys_.size());
    std::shared_ptr<Buffer> validity;
    int64_t null_count = 0;
    if (null_group_ != kNoGroup) {
      MutableBuffer bits(bit_util::bytes_for_bits(length), allocator_);
      bit_util::set_bits_to(bits.mutable_data(), 0, length, true);
      bit_util::clear_bit(bits.mutable_data(), null_group_);
      validity = bits.finish();
      null_count = 1;
    }
    if (kind_ == ScalarKey::kBool) {
      MutableBuffer bits(bit_util::bytes_for_bits(length), allocator_);
      for (int64_t g = 0; g < length; ++g) {
        if (group_keys_[static_cast<size_t>(g)] != 0) {
          bit_util::set_bit(bits.mutable_data(), g);
        }
      }
      return {Array(std::make_shared<ArrayData>(
          type, length, std::vector<std::shared_ptr<Buffer>>{validity, bits.finish()},
          null_count))};
    }
    const int width = type->byte_width();
    MutableBuffer values(length * width, allocator_);
    uint8_t* out = values.mutable_data();
    for (int64_t g = 0; g < length; ++g) {
      // Little-endian: the low `width` bytes of the 64-bit key are the value.
      std::memcpy(out + g * width, &group_keys_[static_cast<size_t>(g)],
                  static_cast<size_t>(width));
    }
    return {Array(std::make_shared<ArrayData>(
        type, length, std::vector<std::shared_ptr<Buffer>>{validity, values.finish()},
        null_count))};
  }

 private:
  struct Slot {
    uint64_t key;
    uint32_t group_plus_one;  // 0: empty
  };

  size_t slot_of(uint64_t key) const {
    uint64_t mixed = key ^ (key >> 29);
    mixed *= 0xbf58476d1ce4e5b9ULL;
    return static_cast<size_t>(mixed >> shift_);
  }

  void resize_table(size_t capacity) {
    std::vector<Slot> slots(capacity, Slot{0, 0});
    shift_ = 64 - std::countr_zero(capacity);
    mask_ = capacity - 1;
    for (size_t g = 0; g < group_keys_.size(); ++g) {
      if (g == null_group_) {
        continue;
      }
      size_t slot = slot_of(group_keys_[g]);
      while (slots[slot].group_plus_one != 0) {
        slot = (slot + 1) & mask_;
      }
      slots[slot] = Slot{group_keys_[g], static_cast<uint32_t>(g + 1)};
    }
    slots_ = std::move(slots);
  }

  uint32_t new_group(uint64_t key) {
    if (group_keys_.size() >= kNoGroup - 1) {
      throw_too_many_groups();
    }
    group_keys_.push_back(key);
    return static_cast<uint32_t>(group_keys_.size() - 1);
  }

  uint32_t null_group() {
    if (null_group_ == kNoGroup) {
      null_group_ = new_group(0);
    }
    return null_group_;
  }

  /// Integers as 64-bit keys: signed ones sign-extended, unsigned ones zero-extended.
  template <typename T>
  void consume_integers(const ArrayData& data, uint32_t* group_ids) {
    const T* values = data.values<T>(1);
    consume_values(data, group_ids,
                   [values](int64_t i) { return static_cast<uint64_t>(values[i]); });
  }

  template <typename Load>
  void consume_values(const ArrayData& data, uint32_t* group_ids, Load load) {
    consume_values(
        data.null_count() != 0 && data.buffers[0] != nullptr ? data.buffers[0]->data() : nullptr,
        data.offset, data.length, group_ids, load);
  }

  template <typename Load>
  void consume_values(const uint8_t* validity, int64_t offset, int64_t length, uint32_t* group_ids,
                      Load load) {
    int64_t done = 0;
    if (direct_) {
      rows_seen_ += length;
      if (kind_ == ScalarKey::kPair) {
        done = consume_pairs_direct(validity, length, group_ids, load);
      } else if (validity == nullptr) {
        done = consume_direct<false>(validity, offset, length, group_ids, load);
      } else {
        done = consume_direct<true>(validity, offset, length, group_ids, load);
      }
      if (done == length) {
        return;
      }
      // The keys spread too far: from now on they go to the hash table.
      direct_ = false;
      direct_table_ = {};
      resize_table(std::max<size_t>(1024, std::bit_ceil(group_keys_.size() * 2 + 2)));
    }
    consume_hashed(validity, offset + done, length - done, group_ids + done,
                   [&load, done](int64_t i) { return load(i + done); });
  }

  /// Looks keys up in the direct table, an array indexed by key - base (keys as signed 64-bit
  /// values), growing it for keys outside. Returns the number of rows done: all of them, unless
  /// a key is too far from the others for the table.
  template <bool kHasNulls, typename Load>
  int64_t consume_direct(const uint8_t* validity, int64_t offset, int64_t length,
                         uint32_t* group_ids, Load load) {
    uint32_t* table = direct_table_.data();
    auto base = static_cast<uint64_t>(direct_base_);
    uint64_t size = direct_table_.size();
    for (int64_t i = 0; i < length; ++i) {
      if constexpr (kHasNulls) {
        if (!bit_util::get_bit(validity, offset + i)) {
          group_ids[i] = null_group();
          continue;
        }
      }
      const uint64_t key = load(i);
      if (key - base >= size) [[unlikely]] {
        if (!grow_direct_table(static_cast<int64_t>(key))) {
          return i;
        }
        table = direct_table_.data();
        base = static_cast<uint64_t>(direct_base_);
        size = direct_table_.size();
      }
      uint32_t group = table[key - base];
      if (group == kNoGroup) [[unlikely]] {
        group = new_group(key);
        table[key - base] = group;
      }
      group_ids[i] = group;
    }
    return length;
  }

  /// The direct table of pairs: pair (high, low) at high * 2^pair_shift_ + low, for highs below
  /// pair_rows_ and lows below 2^pair_shift_. Returns the number of rows done, as
  /// `consume_direct`.
  template <typename Load>
  int64_t consume_pairs_direct(const uint8_t* validity, int64_t length, uint32_t* group_ids,
                               Load load) {
    if (validity != nullptr) {
      return 0;  // pairs of group ids are never null: nullable keys go to the hash table
    }
    uint32_t* table = direct_table_.data();
    uint64_t rows = pair_rows_;
    int shift = pair_shift_;
    for (int64_t i = 0; i < length; ++i) {
      const uint64_t key = load(i);
      const uint64_t high = key >> 32;
      const uint64_t low = key & UINT32_MAX;
      if (high >= rows || (low >> shift) != 0) [[unlikely]] {
        if (!grow_pair_table(high, low)) {
          return i;
        }
        table = direct_table_.data();
        rows = pair_rows_;
        shift = pair_shift_;
      }
      const uint64_t index = (high << shift) | low;
      uint32_t group = table[index];
      if (group == kNoGroup) [[unlikely]] {
        group = new_group(key);
        table[index] = group;
      }
      group_ids[i] = group;
    }
    return length;
  }

  /// Grows the direct table of pairs to hold (high, low), doubling its sides as needed; false
  /// when it would pass `direct_limit()`.
  bool grow_pair_table(uint64_t high, uint64_t low) {
    uint64_t rows = std::max<uint64_t>(pair_rows_, 16);
    int shift = std::max(pair_shift_, 4);
    while (rows <= high) {
      rows *= 2;
    }
    while ((low >> shift) != 0) {
      ++shift;
    }
    const int64_t limit = direct_limit();
    if (shift > 32 || rows > static_cast<uint64_t>(limit) ||
        (rows << shift) > static_cast<uint64_t>(limit)) {
      return false;
    }
    pair_rows_ = rows;
    pair_shift_ = shift;
    direct_table_.assign(static_cast<size_t>(rows << shift), kNoGroup);
    for (size_t g = 0; g < group_keys_.size(); ++g) {
      if (g == null_group_) {
        continue;
      }
      const uint64_t key = group_keys_[g];
      direct_table_[((key >> 32) << shift) | (key & UINT32_MAX)] = static_cast<uint32_t>(g);
    }
    return true;
  }

  /// The most entries of a direct table: kMaxDirectRange, and a multiple of the rows seen (so
  /// that a few spread keys do not make a large table).
  int64_t direct_limit() const {
    return std::min(kMaxDirectRange, std::max<int64_t>(4096, 32 * rows_seen_));
  }

  /// Grows the direct table to hold `key`, at least doubling it (towards the key), so that
  /// keys spreading batch after batch rebuild it rarely. False when the range would pass
  /// `direct_limit()`.
  bool grow_direct_table(int64_t key) {
    const auto size = static_cast<int64_t>(direct_table_.size());
    __int128 low = key;
    __int128 high = key;
    if (size > 0) {
      low = std::min<__int128>(low, direct_base_);
      high = std::max<__int128>(high, __int128{direct_base_} + size - 1);
    }
    const int64_t limit = direct_limit();
    if (high - low + 1 > limit) {
      return false;
    }
    const __int128 grown =
        std::min<__int128>(std::max<__int128>({high - low + 1, 2 * __int128{size}, 4096}), limit);
    if (size == 0) {
      // The first key in the middle: keys around it fit.
      low = std::max<__int128>(__int128{key} - grown / 2, INT64_MIN);
      high = std::min<__int128>(low + grown - 1, INT64_MAX);
    } else if (key < direct_base_) {
      low = std::max<__int128>(high - grown + 1, INT64_MIN);
    } else {
      high = std::min<__int128>(low + grown - 1, INT64_MAX);
    }
    direct_base_ = static_cast<int64_t>(low);
    direct_table_.assign(static_cast<size_t>(high - low + 1), kNoGroup);
    for (size_t g = 0; g < group_keys_.size(); ++g) {
      if (g != null_group_) {
        direct_table_[group_keys_[g] - static_cast<uint64_t>(direct_base_)] =
            static_cast<uint32_t>(g);
      }
    }
    return true;
  }

  template <typename Load>
  void consume_hashed(const uint8_t* validity, int64_t offset, int64_t length, uint32_t* group_ids,
                      Load load) {
    // Rows this far ahead have their slot prefetched once the table outgrows the caches.
    constexpr int64_t kAhead = 16;
    constexpr size_t kPrefetchFrom = size_t{1} << 16;
    Slot* slots = slots_.data();
    size_t mask = mask_;
    bool prefetch = slots_.size() >= kPrefetchFrom;
    for (int64_t i = 0; i < length; ++i) {
      if (prefetch && i + kAhead < length) {
        __builtin_prefetch(slots + slot_of(load(i + kAhead)));
      }
      if (validity != nullptr && !bit_util::get_bit(validity, offset + i)) {
        group_ids[i] = null_group();
        continue;
      }
      const uint64_t key = load(i);
      size_t slot = slot_of(key);
      while (true) {
        Slot& candidate = slots[slot];
        if (candidate.group_plus_one == 0) {
          const uint32_t group = new_group(key);
          candidate = Slot{key, group + 1};
          group_ids[i] = group;
          if (group_keys_.size() * 2 > slots_.size()) {
            resize_table(slots_.size() * 2);
            slots = slots_.data();
            mask = mask_;
            prefetch = slots_.size() >= kPrefetchFrom;
          }
          break;
        }
        if (candidate.key == key) {
          group_ids[i] = candidate.group_plus_one - 1;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  }

  // Keys in a range of this many values at most are looked up in a direct table (16 MiB).
  static constexpr int64_t kMaxDirectRange = int64_t{1} << 22;

  ScalarKey kind_;
  bool direct_;
  std::vector<uint32_t> direct_table_;
  int64_t direct_base_ = 0;
  int64_t rows_seen_ = 0;
  uint64_t pair_rows_ = 0;
  int pair_shift_ = 0;
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int shift_ = 0;
  std::vector<uint64_t> group_keys_;
  uint32_t null_group_ = kNoGroup;
};

// --- Keys as byte strings ------------------------------------------------------------------

/// A hash table from byte strings to group ids; the strings are kept in one arena.
class ByteKeyTable {
 public:
  ByteKeyTable() { resize(1024); }

  uint32_t size() const { return static_cast<uint32_t>(group_hashes_.size()); }
  std::string_view key(uint32_t group) const {
    return {bytes_.data() + offsets_[group],
            static_cast<size_t>(offsets_[group + 1] - offsets_[group])};
  }

  /// Adds an entry that no key finds (an empty key outside the slots), returning its number:
  /// the null group, so that entry numbers and group ids stay the same.
  uint32_t add_unfindable() {
    unfindable_ = insert(nullptr, 0, 0);
    return unfindable_;
  }

  /// Whether the slots are few enough to stay in the caches (prefetching them is no use).
  bool fits_caches() const { return slots_.size() <= (size_t{1} << 14); }

  /// Starts loading the slot where a key of hash `hash` is looked for first.
  void prefetch(uint64_t hash) const { __builtin_prefetch(slots_.data() + (hash & mask_)); }

  /// The group of `key` (whose hash is `hash`), a new one if it is not there yet.
  uint32_t find_or_insert(const char* key, int64_t length, uint64_t hash) {
    const auto tag = static_cast<uint32_t>(hash >> 32);
    const ShortWords probe = head_words(key, length);
    size_t slot = hash & mask_;
    while (true) {
      const Slot& candidate = slots_[slot];
      if (candidate.group_plus_one == 0) [[unlikely]] {
        return insert_at(slot, key, length, hash);
      }
      if (candidate.tag == tag) {
        const uint32_t group = candidate.group_plus_one - 1;
        const KeyHead& head = heads_[group];
        if (head.length == length && head.words.first == probe.first &&
            head.words.last == probe.last &&
            (length <= 16 ||
             std::memcmp(bytes_.data() + offsets_[group], key, static_cast<size_t>(length)) == 0)) {
          return group;
        }
      }
      slot = (slot + 1) & mask_;
    }
  }

 private:
  struct Slot {
    uint32_t tag;             // high half of the hash
    uint32_t group_plus_one;  // 0: empty
  };

  /// A group's key length and, for keys of at most 16 bytes, its words: compared first, so
  /// that short keys are compared without reading the arena.
  struct KeyHead {
    ShortWords words;
    int64_t length;
  };

  static ShortWords head_words(const char* key, int64_t length) {
    return length <= 16 ? short_words(key, length) : ShortWords{};
  }

  /// Adds `key` as a new group in the empty slot `slot`; out of line, as it is rare.
  [[gnu::noinline]] uint32_t insert_at(size_t slot, const char* key, int64_t length,
                                       uint64_t hash) {
    const uint32_t group = insert(key, length, hash);
    slots_[slot] = Slot{static_cast<uint32_t>(hash >> 32), group + 1};
    if (group_hashes_.size() * 2 > slots_.size()) {
      resize(slots_.size() * 2);
    }
    return group;
  }

  uint32_t insert(const char* key, int64_t length, uint64_t hash) {
    if (group_hashes_.size() >= kNoGroup - 1) {
      throw_too_many_groups();
    }
    if (length > 0) {
      bytes_.append(key, static_cast<size_t>(length));
    }
    offsets_.push_back(static_cast<int64_t>(bytes_.size()));
    heads_.push_back(KeyHead{head_words(key, length), length});
    group_hashes_.push_back(hash);
    return static_cast<uint32_t>(group_hashes_.size() - 1);
  }

  void resize(size_t capacity) {
    std::vector<Slot> slots(capacity, Slot{0, 0});
    mask_ = capacity - 1;
    for (size_t g = 0; g < group_hashes_.size(); ++g) {
      if (g == unfindable_) {
        continue;
      }
      size_t slot = group_hashes_[g] & mask_;
      while (slots[slot].group_plus_one != 0) {
        slot = (slot + 1) & mask_;
      }
      slots[slot] =
          Slot{static_cast<uint32_t>(group_hashes_[g] >> 32), static_cast<uint32_t>(g + 1)};
    }
    slots_ = std::move(slots);
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  std::vector<uint64_t> group_hashes_;
  std::vector<int64_t> offsets_{0};
  std::vector<KeyHead> heads_;
  std::string bytes_;
  uint32_t unfindable_ = kNoGroup;
};

/// Output type of a key column: dictionaries come out as their values.
TypePtr output_type(const TypePtr& type) {
  if (type->id() == TypeId::kDictionary) {
    return type_cast<DictionaryType>(*type).value_type();
  }
  return type;
}

/// A single string or binary key (any offset width, or views).
class BinaryGrouper final : public Grouper {
 public:
  BinaryGrouper(TypePtr type, Allocator* allocator) : Grouper({std::move(type)}, allocator) {}

  void consume(std::span<const Array> keys, uint32_t* group_ids) override {
    check_keys(keys);
    const ArrayData& data = *keys[0].data();
    if (data.type->id() == TypeId::kString || data.type->id() == TypeId::kBinary) {
      const auto* offsets = data.values<int32_t>(1);
      const auto* bytes = reinterpret_cast<const char*>(
          data.buffers[2] != nullptr ? data.buffers[2]->data() : nullptr);
      consume_values(data, group_ids, [&](int64_t i) {
        return std::string_view(bytes + offsets[i],
                                static_cast<size_t>(offsets[i + 1] - offsets[i]));
      });
      return;
    }
    consume_values(data, group_ids, [&](int64_t i) { return binary_value(data, i); });
  }

  uint32_t num_groups() const override { return table_.size(); }

  std::vector<Array> unique_keys() const override {
    std::unique_ptr<ArrayBuilder> builder = make_builder(key_types_[0], allocator_);
    ScalarAppender appender(*builder, "grouper");
    builder->reserve(table_.size());
    for (uint32_t group = 0; group < table_.size(); ++group) {
      if (group == null_group_) {
        builder->append_null();
      } else {
        appender.append(table_.key(group));
      }
    }
    return {builder->finish()};
  }

 private:
  /// Looks up blocks of rows: first every hash of the block, prefetching the slots, then the
  /// probes, so that the loads of many slots are under way at once.
  template <typename Get>
  void consume_values(const ArrayData& data, uint32_t* group_ids, Get get) {
    constexpr int64_t kBlock = 64;
    const uint8_t* validity =
        data.null_count() != 0 && data.buffers[0] != nullptr ? data.buffers[0]->data() : nullptr;
    uint64_t hashes[kBlock];
    for (int64_t start = 0; start < data.length; start += kBlock) {
      const int64_t count = std::min(kBlock, data.length - start);
      if (validity == nullptr && table_.fits_caches()) {
        // A table in the caches needs no prefetching: one pass.
        for (int64_t i = start; i < start + count; ++i) {
          const std::string_view key = get(i);
          const auto size = static_cast<int64_t>(key.size());
          group_ids[i] = table_.find_or_insert(key.data(), size, hash_bytes(key.data(), size));
        }
        continue;
      }
      for (int64_t j = 0; j < count; ++j) {
        const int64_t i = start + j;
        if (validity == nullptr || bit_util::get_bit(validity, data.offset + i)) {
          const std::string_view key = get(i);
          hashes[j] = hash_bytes(key.data(), static_cast<int64_t>(key.size()));
          table_.prefetch(hashes[j]);
        }
      }
      for (int64_t j = 0; j < count; ++j) {
        const int64_t i = start + j;
        if (validity != nullptr && !bit_util::get_bit(validity, data.offset + i)) {
          group_ids[i] = null_group();
          continue;
        }
        const std::string_view key = get(i);
        group_ids[i] =
            table_.find_or_insert(key.data(), static_cast<int64_t>(key.size()), hashes[j]);
      }
    }
  }

  uint32_t null_group() {
    if (null_group_ == kNoGroup) {
      null_group_ = table_.add_unfindable();
    }
    return null_group_;
  }

  ByteKeyTable table_;
  uint32_t null_group_ = kNoGroup;
};

// --- Any keys: rows encoded as bytes (key_encoding.h) -------------------------------------

/// Whether a key column is decoded from its encoding (flat types) or gathered from the
/// batches it came from (nested types).
bool is_flat(const DataType& type) {
  const DataType& value =
      type.id() == TypeId::kDictionary ? *type_cast<DictionaryType>(type).value_type() : type;
  return !value.is_nested() && value.id() != TypeId::kExtension &&
         value.id() != TypeId::kDictionary && scalar_kind(value) != ScalarKind::kUnsupported;
}

/// Appends the value encoded at `in` (a flat type) to `appender`, returning the byte after it.
const char* decode_flat(const DataType& type, const char* in, ArrayBuilder& builder,
                        ScalarAppender& appender) {
  if (*in++ == 0) {
    builder.append_null();
    return in;
  }
  switch (scalar_kind(type)) {
    case ScalarKind::kBoolean:
      appender.append({in, 1});
      return in + 1;
    case ScalarKind::kBinary: {
      uint32_t size;
      std::memcpy(&size, in, sizeof(size));
      appender.append({in + sizeof(size), size});
      return in + sizeof(size) + size;
    }
    default: {
      const auto width = static_cast<size_t>(type.byte_width());
      appender.append({in, width});
      return in + width;
    }
  }
}

/// Skips the value encoded at `in`, returning the byte after it.
const char* skip_value(const DataType& type, const char* in) {
  if (type.id() == TypeId::kDictionary) {
    return skip_value(*type_cast<DictionaryType>(type).value_type(), in);
  }
  if (type.id() == TypeId::kExtension) {
    return skip_value(*type_cast<ExtensionType>(type).storage_type(), in);
  }
  if (*in++ == 0) {
    return in;
  }
  switch (type.id()) {
    case TypeId::kBoolean:
      return in + 1;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
    case TypeId::kStringView:
    case TypeId::kBinaryView: {
      uint32_t size;
      std::memcpy(&size, in, sizeof(size));
      return in + sizeof(size) + size;
    }
    case TypeId::kStruct:
      for (const auto& field : type.fields()) {
        in = skip_value(*field->type(), in);
      }
      return in;
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kFixedSizeList: {
      uint32_t count;
      std::memcpy(&count, in, sizeof(count));
      in += sizeof(count);
      const DataType& element = *type.field(0)->type();
      for (uint32_t j = 0; j < count; ++j) {
        in = skip_value(element, in);
      }
      return in;
    }
    default:
      return in + type.byte_width();
  }
}

/// Any number of key columns of any types: each row is encoded into bytes, and the bytes are
/// the key of a `ByteKeyTable`.
class RowGrouper final : public Grouper {
 public:
  RowGrouper(std::vector<TypePtr> types, Allocator* allocator)
      : Grouper(std::move(types), allocator) {
    for (const TypePtr& type : key_types_) {
      all_flat_ = all_flat_ && is_flat(*type);
    }
  }

  void consume(std::span<const Array> keys, uint32_t* group_ids) override {
    check_keys(keys);
    const int64_t length = keys.empty() ? 0 : keys[0].length();
    int64_t batch = -1;
    if (!all_flat_) {
      batch = static_cast<int64_t>(batches_.size());
      batches_.emplace_back(keys.begin(), keys.end());
    }
    const uint32_t groups_before = table_.size();
    constexpr int64_t kBlock = 256;
    std::vector<int64_t> offsets;
    std::string rows;
    uint64_t hashes[kBlock];
    for (int64_t start = 0; start < length; start += kBlock) {
      const int64_t count = std::min(kBlock, length - start);
      encode_key_rows(keys, start, count, offsets, rows);
      for (int64_t j = 0; j < count; ++j) {
        hashes[j] = hash_bytes(rows.data() + offsets[j], offsets[j + 1] - offsets[j]);
        table_.prefetch(hashes[j]);
      }
      for (int64_t j = 0; j < count; ++j) {
        const uint32_t before = table_.size();
        const uint32_t group =
            table_.find_or_insert(rows.data() + offsets[j], offsets[j + 1] - offsets[j], hashes[j]);
        if (!all_flat_ && group == before) {
          first_rows_.emplace_back(batch, start + j);
        }
        group_ids[start + j] = group;
      }
    }
    if (!all_flat_ && table_.size() == groups_before) {
      batches_.pop_back();
    }
  }

  uint32_t num_groups() const override { return table_.size(); }

  std::vector<Array> unique_keys() const override {
    const size_t columns = key_types_.size();
    std::vector<std::unique_ptr<ArrayBuilder>> builders(columns);
    std::vector<std::unique_ptr<ScalarAppender>> appenders(columns);
    for (size_t c = 0; c < columns; ++c) {
      if (is_flat(*key_types_[c])) {
        builders[c] = make_builder(output_type(key_types_[c]), allocator_);
        appenders[c] = std::make_unique<ScalarAppender>(*builders[c], "grouper");
        builders[c]->reserve(table_.size());
      }
    }
    for (uint32_t g = 0; g < table_.size(); ++g) {
      const char* in = table_.key(g).data();
      for (size_t c = 0; c < columns; ++c) {
        const TypePtr type = output_type(key_types_[c]);
        if (builders[c] != nullptr) {
          in = decode_flat(*type, in, *builders[c], *appenders[c]);
        } else {
          in = skip_value(*key_types_[c], in);
        }
      }
    }
    std::vector<Array> result(columns);
    for (size_t c = 0; c < columns; ++c) {
      if (builders[c] != nullptr) {
        result[c] = builders[c]->finish();
        continue;
      }
      if (first_rows_.empty()) {
        result[c] = make_builder(key_types_[c], allocator_)->finish();
        continue;
      }
      std::vector<Array> rows;
      rows.reserve(first_rows_.size());
      for (const auto& [batch, row] : first_rows_) {
        rows.push_back(batches_[static_cast<size_t>(batch)][c].slice(row, 1));
      }
      result[c] = concatenate(rows, allocator_);
    }
    return result;
  }

 private:
  ByteKeyTable table_;
  bool all_flat_ = true;
  // For nested keys: the batches seen and where each group first appeared in them.
  std::vector<std::vector<Array>> batches_;
  std::vector<std::pair<int64_t, int64_t>> first_rows_;
};

// --- Several key columns ---------------------------------------------------------------------

/// Several key columns: each column is grouped on its own to dense ids, then the pairs (group
/// of the columns so far, group of the next column) are grouped as one 64-bit integer, column
/// after column. Each step is an integer lookup, much cheaper than encoding and hashing rows.
class CombinedGrouper final : public Grouper {
 public:
  CombinedGrouper(std::vector<TypePtr> types, Allocator* allocator)
      : Grouper(std::move(types), allocator) {
    for (const TypePtr& type : key_types_) {
      columns_.push_back(Grouper::make(std::span<const TypePtr>(&type, 1), allocator));
    }
    for (size_t c = 1; c < key_types_.size(); ++c) {
      pairs_.push_back(std::make_unique<IntegerGrouper>(uint64(), ScalarKey::kPair, allocator));
    }
  }

  void consume(std::span<const Array> keys, uint32_t* group_ids) override {
    check_keys(keys);
    const int64_t length = keys[0].length();
    const auto size = static_cast<size_t>(length);
    column_ids_.resize(size);
    pair_keys_.resize(size);
    // `group_ids` holds the groups of the columns so far.
    columns_[0]->consume(keys.subspan(0, 1), group_ids);
    for (size_t c = 1; c < keys.size(); ++c) {
      columns_[c]->consume(keys.subspan(c, 1), column_ids_.data());
      for (size_t i = 0; i < size; ++i) {
        pair_keys_[i] = (uint64_t{group_ids[i]} << 32) | column_ids_[i];
      }
      pairs_[c - 1]->consume_keys(pair_keys_.data(), length, group_ids);
    }
  }

  uint32_t num_groups() const override { return pairs_.back()->num_groups(); }

  std::vector<Array> unique_keys() const override {
    const size_t columns = key_types_.size();
    std::vector<Array> result(columns);
    // Walking the pairs back from the last column gives each group's row in every column's keys.
    std::vector<uint32_t> prefix_groups(num_groups());
    std::iota(prefix_groups.begin(), prefix_groups.end(), 0u);
    std::vector<int64_t> rows(prefix_groups.size());
    for (size_t c = columns - 1; c >= 1; --c) {
      const std::vector<uint64_t>& pairs = pairs_[c - 1]->group_keys();
      for (size_t g = 0; g < rows.size(); ++g) {
        const uint64_t pair = pairs[prefix_groups[g]];
        rows[g] = static_cast<int64_t>(pair & UINT32_MAX);
        prefix_groups[g] = static_cast<uint32_t>(pair >> 32);
      }
      result[c] = take(columns_[c]->unique_keys()[0], rows, allocator_);
    }
    rows.assign(prefix_groups.begin(), prefix_groups.end());
    result[0] = take(columns_[0]->unique_keys()[0], rows, allocator_);
    return result;
  }

 private:
  std::vector<std::unique_ptr<Grouper>> columns_;
  std::vector<std::unique_ptr<IntegerGrouper>> pairs_;  // pairs_[c - 1] combines column c
  std::vector<uint32_t> column_ids_;
  std::vector<uint64_t> pair_keys_;
};

}  // namespace

std::unique_ptr<Grouper> Grouper::make(std::span<const TypePtr> key_types, Allocator* allocator) {
  if (key_types.empty()) {
    throw InvalidArgument("grouper: at least one key column is needed");
  }
  if (key_types.size() == 1) {
    const TypePtr& type = key_types[0];
    switch (type->id()) {
      case TypeId::kBoolean:
        return std::make_unique<IntegerGrouper>(type, ScalarKey::kBool, allocator);
      case TypeId::kFloat16:
        return std::make_unique<IntegerGrouper>(type, ScalarKey::kHalf, allocator);
      case TypeId::kFloat32:
        return std::make_unique<IntegerGrouper>(type, ScalarKey::kFloat, allocator);
      case TypeId::kFloat64:
        return std::make_unique<IntegerGrouper>(type, ScalarKey::kDouble, allocator);
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kLargeString:
      case TypeId::kLargeBinary:
      case TypeId::kStringView:
      case TypeId::kBinaryView:
        return std::make_unique<BinaryGrouper>(type, allocator);
      case TypeId::kDictionary:
      case TypeId::kExtension:
        break;
      default:
        if (!type->is_nested()) {
          const bool is_unsigned = type->id() == TypeId::kUInt8 || type->id() == TypeId::kUInt16 ||
                                   type->id() == TypeId::kUInt32;
          switch (type->byte_width()) {
            case 1:
              return std::make_unique<IntegerGrouper>(
                  type, is_unsigned ? ScalarKey::kU8 : ScalarKey::kI8, allocator);
            case 2:
              return std::make_unique<IntegerGrouper>(
                  type, is_unsigned ? ScalarKey::kU16 : ScalarKey::kI16, allocator);
            case 4:
              return std::make_unique<IntegerGrouper>(
                  type, is_unsigned ? ScalarKey::kU32 : ScalarKey::kI32, allocator);
            case 8:
              return std::make_unique<IntegerGrouper>(type, ScalarKey::kU64, allocator);
            default:
              break;
          }
        }
    }
  }
  if (key_types.size() > 1) {
    return std::make_unique<CombinedGrouper>(
        std::vector<TypePtr>(key_types.begin(), key_types.end()), allocator);
  }
  return std::make_unique<RowGrouper>(std::vector<TypePtr>(key_types.begin(), key_types.end()),
                                      allocator);
}

}  // namespace bowstring::compute
