#include "bowstring/compute/join/hash_join.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/aggregate/key_encoding.h"
#include "bowstring/compute/scalar/hash.h"
#include "bowstring/runtime/parallel.h"
#include "bowstring/util/bit_util.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {

std::string_view join_type_name(JoinType type) {
  switch (type) {
    case JoinType::kInner:
      return "inner";
    case JoinType::kLeftOuter:
      return "left outer";
    case JoinType::kRightOuter:
      return "right outer";
    case JoinType::kFullOuter:
      return "full outer";
    case JoinType::kLeftSemi:
      return "left semi";
    case JoinType::kLeftAnti:
      return "left anti";
    case JoinType::kRightSemi:
      return "right semi";
    case JoinType::kRightAnti:
      return "right anti";
  }
  return "unknown";
}

// --- Pairs ---------------------------------------------------------------------------------

JoinPairs::JoinPairs(Allocator* allocator)
    : probe_rows_(StlAllocator<int64_t>(allocator)),
      build_rows_(StlAllocator<int64_t>(allocator)) {}

void JoinPairs::clear() {
  probe_rows_.clear();
  build_rows_.clear();
}

void JoinPairs::reserve(int64_t pairs) {
  probe_rows_.reserve(static_cast<size_t>(pairs));
  build_rows_.reserve(static_cast<size_t>(pairs));
}

void JoinPairs::append(int64_t probe_row, std::span<const int64_t> build_rows) {
  probe_rows_.insert(probe_rows_.end(), build_rows.size(), probe_row);
  build_rows_.insert(build_rows_.end(), build_rows.begin(), build_rows.end());
}

namespace {

/// `rows` as an int64 array, null where a row is `kNoRow`.
Array index_array(std::span<const int64_t> rows, Allocator* allocator) {
  Int64Builder builder(allocator);
  builder.reserve(static_cast<int64_t>(rows.size()));
  for (const int64_t row : rows) {
    if (row == kNoRow) {
      builder.append_null();
    } else {
      builder.append(row);
    }
  }
  return builder.finish();
}

}  // namespace

Array JoinPairs::probe_indices(Allocator* allocator) const {
  return index_array(probe_rows_, allocator);
}

Array JoinPairs::build_indices(Allocator* allocator) const {
  return index_array(build_rows_, allocator);
}

// --- Key layouts ---------------------------------------------------------------------------

namespace {

/// Rows looked up (or encoded) at a time: their slots are prefetched together.
constexpr int64_t kBlock = 1024;

/// How one key column is read into a packed 64-bit key.
enum class PackedColumn : uint8_t { kBool, kRaw, kHalf, kFloat, kDouble };

struct PackedColumnPlan {
  PackedColumn kind;
  int width;  // bytes of the value
};

/// Whether a hash table can compare keys of `type`; throws `TypeError` if not.
void check_key_type(const DataType& type) {
  if (type.is_union() || type.id() == TypeId::kRunEndEncoded) {
    throw TypeError("hash join: keys of type " + type.to_string() + " cannot be joined on");
  }
  if (type.id() == TypeId::kDictionary) {
    check_key_type(*type_cast<DictionaryType>(type).value_type());
  } else if (type.id() == TypeId::kExtension) {
    check_key_type(*type_cast<ExtensionType>(type).storage_type());
  }
  for (const auto& field : type.fields()) {
    check_key_type(*field->type());
  }
}

/// The plan of a column packed into a 64-bit key, if its values are fixed-width scalars.
std::optional<PackedColumnPlan> packed_plan(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return PackedColumnPlan{PackedColumn::kBool, 1};
    case TypeId::kFloat16:
      return PackedColumnPlan{PackedColumn::kHalf, 2};
    case TypeId::kFloat32:
      return PackedColumnPlan{PackedColumn::kFloat, 4};
    case TypeId::kFloat64:
      return PackedColumnPlan{PackedColumn::kDouble, 8};
    case TypeId::kNull:
    case TypeId::kDictionary:
    case TypeId::kExtension:
      return std::nullopt;
    default:
      break;
  }
  const int width = type.byte_width();
  if (type.is_nested() || type.is_binary_like() ||
      (width != 1 && width != 2 && width != 4 && width != 8)) {
    return std::nullopt;
  }
  return PackedColumnPlan{PackedColumn::kRaw, width};
}

/// Whether value `i` (relative to the window) is null, looking through dictionaries (a valid
/// index to a null value is a null key) and extension types.
bool key_is_null(const ArrayData& data, int64_t i) {
  if (data.type->id() == TypeId::kNull || data.is_null_in_bitmap(i)) {
    return true;
  }
  if (data.type->id() == TypeId::kDictionary) {
    return key_is_null(*data.dictionary, dictionary_index(data, i));
  }
  return false;
}

/// Whether a column may hold null keys at all (cheap: null counts only).
bool may_have_null_keys(const ArrayData& data) {
  if (data.type->id() == TypeId::kNull) {
    return data.length > 0;
  }
  if (data.null_count() != 0) {
    return true;
  }
  return data.type->id() == TypeId::kDictionary && may_have_null_keys(*data.dictionary);
}

/// Shifts the values of rows [start, start + count) of a packed column into `keys` (and its
/// null flag after them when `flagged`), values read by `load`.
template <typename Load>
void pack_column(const ArrayData& data, int64_t start, int64_t count, int width, bool flagged,
                 Load load, uint64_t* keys) {
  const int shift = width * 8;
  const bool nulls = data.null_count() != 0;
  if (!nulls && !flagged && shift == 64) {
    for (int64_t j = 0; j < count; ++j) {
      keys[j] = load(start + j);
    }
    return;
  }
  for (int64_t j = 0; j < count; ++j) {
    const bool valid = !nulls || !data.is_null_in_bitmap(start + j);
    const uint64_t value = valid ? load(start + j) : 0;
    uint64_t key = shift == 64 ? value : (keys[j] << shift) | value;
    if (flagged) {
      key = (key << 8) | (valid ? 1 : 0);
    }
    keys[j] = key;
  }
}

/// `pack_column` with the loader of the column's plan: normalized floats, booleans as 0 or 1,
/// other values as their bytes.
void pack_column(const ArrayData& data, PackedColumnPlan plan, int64_t start, int64_t count,
                 bool flagged, uint64_t* keys) {
  const auto pack = [&](auto load) {
    pack_column(data, start, count, plan.width, flagged, load, keys);
  };
  switch (plan.kind) {
    case PackedColumn::kBool: {
      const uint8_t* bits = data.buffers[1]->data();
      return pack([bits, &data](int64_t i) -> uint64_t {
        return bit_util::get_bit(bits, data.offset + i) ? 1 : 0;
      });
    }
    case PackedColumn::kHalf: {
      const auto* values = data.values<uint16_t>(1);
      return pack([values](int64_t i) -> uint64_t {
        const uint16_t bits = values[i];
        if ((bits & 0x7c00) == 0x7c00 && (bits & 0x03ff) != 0) {
          return 0x7e00;
        }
        return (bits & 0x7fff) == 0 ? 0 : bits;
      });
    }
    case PackedColumn::kFloat: {
      const auto* values = data.values<float>(1);
      return pack([values](int64_t i) -> uint64_t { return normalized_float_bits(values[i]); });
    }
    case PackedColumn::kDouble: {
      const auto* values = data.values<double>(1);
      return pack([values](int64_t i) -> uint64_t { return normalized_double_bits(values[i]); });
    }
    case PackedColumn::kRaw:
      break;
  }
  const auto raw = [&pack, &data](auto width_tag) {
    using T = decltype(width_tag);
    const T* values = data.values<T>(1);
    pack([values](int64_t i) -> uint64_t { return values[i]; });
  };
  switch (plan.width) {
    case 1:
      return raw(uint8_t{});
    case 2:
      return raw(uint16_t{});
    case 4:
      return raw(uint32_t{});
    default:
      return raw(uint64_t{});
  }
}

}  // namespace

namespace {

/// Keys of a block of rows in the table's layout: per row whether it can match (no null in a
/// non-null-safe key), its hash, and its packed key or its bytes.
struct KeyBlock {
  explicit KeyBlock(Allocator* allocator)
      : usable(StlAllocator<uint8_t>(allocator)),
        hashes(StlAllocator<uint64_t>(allocator)),
        packed(StlAllocator<uint64_t>(allocator)),
        bytes(StlAllocator<std::string_view>(allocator)) {}

  ScratchVector<uint8_t> usable;
  ScratchVector<uint64_t> hashes;
  ScratchVector<uint64_t> packed;
  ScratchVector<std::string_view> bytes;  // into the key arrays or `encoded`
  // Block-sized scratch of the row encoding.
  std::vector<int64_t> offsets;
  std::string encoded;
};

}  // namespace

/// How rows of keys become the keys the tables compare: packed into 64 bits (fixed-width
/// scalar keys whose values and null flags fit), the bytes of a single string or binary key,
/// or the row encoding of key_encoding.h (anything else).
struct JoinHashTable::Layout {
  enum class Kind : uint8_t { kPacked, kRawBinary, kEncoded };
  Kind kind = Kind::kEncoded;
  std::vector<PackedColumnPlan> packed;  // kPacked: per key column

  /// The keys of rows [start, start + count) of `keys`.
  void encode(const std::vector<bool>& null_safe, std::span<const Array> keys, int64_t start,
              int64_t count, KeyBlock& block) const;
};

void JoinHashTable::Layout::encode(const std::vector<bool>& null_safe, std::span<const Array> keys,
                                   int64_t start, int64_t count, KeyBlock& block) const {
  const auto size = static_cast<size_t>(count);
  block.usable.assign(size, 1);
  block.hashes.resize(size);
  for (size_t c = 0; c < keys.size(); ++c) {
    const ArrayData& data = *keys[c].data();
    if (null_safe[c] || !may_have_null_keys(data)) {
      continue;
    }
    for (int64_t j = 0; j < count; ++j) {
      if (key_is_null(data, start + j)) {
        block.usable[static_cast<size_t>(j)] = 0;
      }
    }
  }
  if (kind == Kind::kPacked) {
    block.packed.assign(size, 0);
    for (size_t c = 0; c < keys.size(); ++c) {
      pack_column(*keys[c].data(), packed[c], start, count, null_safe[c], block.packed.data());
    }
    for (size_t j = 0; j < size; ++j) {
      block.hashes[j] = hash_u64(block.packed[j]);
    }
    return;
  }
  block.bytes.resize(size);
  if (kind == Kind::kRawBinary) {
    const ArrayData& data = *keys[0].data();
    const bool narrow = data.type->id() == TypeId::kString || data.type->id() == TypeId::kBinary;
    const int32_t* offsets = narrow ? data.values<int32_t>(1) : nullptr;
    const char* chars = narrow && data.buffers[2] != nullptr
                            ? reinterpret_cast<const char*>(data.buffers[2]->data())
                            : nullptr;
    for (int64_t j = 0; j < count; ++j) {
      const auto slot = static_cast<size_t>(j);
      if (block.usable[slot] == 0) {
        block.bytes[slot] = {};
        continue;
      }
      const int64_t i = start + j;
      block.bytes[slot] = narrow
                              ? std::string_view(chars + offsets[i],
                                                 static_cast<size_t>(offsets[i + 1] - offsets[i]))
                              : binary_value(data, i);
    }
  } else {
    encode_key_rows(keys, start, count, block.offsets, block.encoded);
    for (size_t j = 0; j < size; ++j) {
      block.bytes[j] =
          std::string_view(block.encoded.data() + block.offsets[j],
                           static_cast<size_t>(block.offsets[j + 1] - block.offsets[j]));
    }
  }
  for (size_t j = 0; j < size; ++j) {
    block.hashes[j] =
        hash_bytes(block.bytes[j].data(), static_cast<int64_t>(block.bytes[j].size()));
  }
}

// --- Build side ----------------------------------------------------------------------------

/// The rows of one `add` call that can match, scattered by partition: entries
/// [part_begin[p], part_begin[p + 1]) belong to partition p, in row order.
struct JoinHashTable::Run {
  explicit Run(Allocator* allocator)
      : part_begin(StlAllocator<int64_t>(allocator)),
        rows(StlAllocator<int64_t>(allocator)),
        keys(StlAllocator<uint64_t>(allocator)),
        hashes(StlAllocator<uint64_t>(allocator)),
        key_offsets(StlAllocator<int64_t>(allocator)),
        key_bytes(StlAllocator<char>(allocator)) {}

  ScratchVector<int64_t> part_begin;
  ScratchVector<int64_t> rows;
  ScratchVector<uint64_t> keys;        // packed layout
  ScratchVector<uint64_t> hashes;      // byte layouts
  ScratchVector<int64_t> key_offsets;  // byte layouts: entry e spans [key_offsets[e], [e + 1])
  ScratchVector<char> key_bytes;
  bool complete = false;
};

namespace {

struct PackedSlot {
  uint64_t key;
  uint32_t begin;  // the key's rows are rows[begin, begin + count)
  uint32_t count;  // 0: empty slot
};

struct ByteSlot {
  uint32_t tag;             // bits 24..55 of the hash, compared before the key bytes
  uint32_t group_plus_one;  // 0: empty slot
};

/// A key of a byte layout: where its bytes are, and its rows (one struct, so that a lookup
/// reads one place besides the slot and the bytes).
struct ByteGroup {
  int64_t key_offset;
  uint32_t key_length;
  uint32_t begin;  // the key's rows are rows[begin, begin + count)
  uint32_t count;
};

uint32_t tag_of(uint64_t hash) { return static_cast<uint32_t>(hash >> 24); }

constexpr size_t kMinSlots = 16;

/// Probes prefetch slots once all slots take more than this (about a core's L2 cache).
constexpr int64_t kPrefetchFromSlotBytes = int64_t{1} << 20;

}  // namespace

/// The table of one partition: its rows grouped by key, and an open-addressing table from keys
/// to their rows (linear probing, at most half full).
struct JoinHashTable::Partition {
  explicit Partition(Allocator* allocator)
      : rows(StlAllocator<int64_t>(allocator)),
        packed_slots(StlAllocator<PackedSlot>(allocator)),
        byte_slots(StlAllocator<ByteSlot>(allocator)),
        byte_groups(StlAllocator<ByteGroup>(allocator)),
        key_bytes(StlAllocator<char>(allocator)),
        group_marked(StlAllocator<uint64_t>(allocator)) {}

  ScratchVector<int64_t> rows;
  ScratchVector<PackedSlot> packed_slots;  // packed layout
  ScratchVector<ByteSlot> byte_slots;      // byte layouts
  ScratchVector<ByteGroup> byte_groups;    // byte layouts
  ScratchVector<char> key_bytes;
  // A bit per position of `rows`, set at a group's first row once its rows are marked matched.
  ScratchVector<uint64_t> group_marked;
  uint64_t mask = 0;
  int64_t groups = 0;
};

/// The build rows of one probe row's key (none: `count` 0).
struct JoinHashTable::Match {
  const int64_t* rows = nullptr;
  uint32_t count = 0;
  uint32_t begin = 0;
  Partition* partition = nullptr;
};

JoinHashTable::JoinHashTable(std::vector<TypePtr> key_types, std::vector<bool> null_safe,
                             JoinType type, Allocator* allocator, JoinTableOptions options)
    : key_types_(std::move(key_types)),
      null_safe_(std::move(null_safe)),
      type_(type),
      allocator_(allocator),
      layout_(std::make_unique<Layout>()),
      matched_(StlAllocator<uint64_t>(allocator)) {
  if (key_types_.empty()) {
    throw InvalidArgument("hash join: at least one key column is needed");
  }
  if (null_safe_.empty()) {
    null_safe_.assign(key_types_.size(), false);
  }
  if (null_safe_.size() != key_types_.size()) {
    throw InvalidArgument("hash join: " + std::to_string(null_safe_.size()) +
                          " null-safe flags for " + std::to_string(key_types_.size()) + " keys");
  }
  if (options.partitions < 1 || options.partitions > 1024 ||
      !std::has_single_bit(static_cast<unsigned>(options.partitions))) {
    throw InvalidArgument("hash join: partitions must be a power of two from 1 to 1024, got " +
                          std::to_string(options.partitions));
  }
  partition_bits_ = std::countr_zero(static_cast<unsigned>(options.partitions));
  int packed_bits = 0;
  bool packable = true;
  for (size_t c = 0; c < key_types_.size(); ++c) {
    check_key_type(*key_types_[c]);
    const std::optional<PackedColumnPlan> plan = packed_plan(*key_types_[c]);
    if (!plan.has_value()) {
      packable = false;
      continue;
    }
    layout_->packed.push_back(*plan);
    packed_bits += plan->width * 8 + (null_safe_[c] ? 8 : 0);
  }
  if (packable && packed_bits <= 64) {
    layout_->kind = Layout::Kind::kPacked;
  } else if (key_types_.size() == 1 && key_types_[0]->is_binary_like() && !null_safe_[0]) {
    layout_->kind = Layout::Kind::kRawBinary;
  }
  if (layout_->kind != Layout::Kind::kPacked) {
    layout_->packed.clear();
  }
}

JoinHashTable::~JoinHashTable() = default;

void JoinHashTable::check_keys(std::span<const Array> keys, std::string_view what) const {
  if (keys.size() != key_types_.size()) {
    throw InvalidArgument("hash join: expected " + std::to_string(key_types_.size()) + " " +
                          std::string(what) + " key columns, got " + std::to_string(keys.size()));
  }
  for (size_t c = 0; c < keys.size(); ++c) {
    if (!keys[c].type()->equals(*key_types_[c])) {
      throw InvalidArgument("hash join: " + std::string(what) + " key column " + std::to_string(c) +
                            " has type " + keys[c].type()->to_string() + ", expected " +
                            key_types_[c]->to_string());
    }
    if (keys[c].length() != keys[0].length()) {
      throw InvalidArgument(
          "hash join: " + std::string(what) + " key columns have different lengths: " +
          std::to_string(keys[0].length()) + " and " + std::to_string(keys[c].length()));
    }
  }
}

int64_t JoinHashTable::add(std::span<const Array> keys) {
  check_keys(keys, "build");
  const int64_t length = keys[0].length();
  Run* run = nullptr;
  int64_t first_row = 0;
  {
    std::lock_guard<std::mutex> lock(add_mutex_);
    if (finalized_) {
      throw InvalidArgument("hash join: rows added after finalize");
    }
    first_row = rows_added_;
    rows_added_ += length;
    runs_.push_back(std::make_unique<Run>(allocator_));
    run = runs_.back().get();
  }
  const bool packed = layout_->kind == Layout::Kind::kPacked;
  // The usable rows in row order first, then scattered by partition.
  ScratchVector<int64_t> rows{StlAllocator<int64_t>(allocator_)};
  ScratchVector<uint64_t> hashes{StlAllocator<uint64_t>(allocator_)};
  ScratchVector<uint64_t> packed_keys{StlAllocator<uint64_t>(allocator_)};
  ScratchVector<int64_t> key_offsets{StlAllocator<int64_t>(allocator_)};
  ScratchVector<char> key_bytes{StlAllocator<char>(allocator_)};
  key_offsets.push_back(0);
  KeyBlock block(allocator_);
  for (int64_t start = 0; start < length; start += kBlock) {
    const int64_t count = std::min(kBlock, length - start);
    layout_->encode(null_safe_, keys, start, count, block);
    for (int64_t j = 0; j < count; ++j) {
      const auto slot = static_cast<size_t>(j);
      if (block.usable[slot] == 0) {
        continue;
      }
      rows.push_back(first_row + start + j);
      hashes.push_back(block.hashes[slot]);
      if (packed) {
        packed_keys.push_back(block.packed[slot]);
      } else {
        key_bytes.insert(key_bytes.end(), block.bytes[slot].begin(), block.bytes[slot].end());
        key_offsets.push_back(static_cast<int64_t>(key_bytes.size()));
      }
    }
  }
  const size_t partitions = size_t{1} << partition_bits_;
  run->part_begin.assign(partitions + 1, 0);
  for (const uint64_t hash : hashes) {
    ++run->part_begin[partition_of(hash) + 1];
  }
  for (size_t p = 0; p < partitions; ++p) {
    run->part_begin[p + 1] += run->part_begin[p];
  }
  ScratchVector<int64_t> cursor(run->part_begin.begin(), run->part_begin.end() - 1,
                                StlAllocator<int64_t>(allocator_));
  const size_t entries = rows.size();
  // Each entry's position in partition order.
  ScratchVector<int64_t> position(entries, 0, StlAllocator<int64_t>(allocator_));
  for (size_t e = 0; e < entries; ++e) {
    position[e] = cursor[partition_of(hashes[e])]++;
  }
  run->rows.resize(entries);
  for (size_t e = 0; e < entries; ++e) {
    run->rows[static_cast<size_t>(position[e])] = rows[e];
  }
  if (packed) {
    run->keys.resize(entries);
    for (size_t e = 0; e < entries; ++e) {
      run->keys[static_cast<size_t>(position[e])] = packed_keys[e];
    }
  } else {
    run->hashes.resize(entries);
    run->key_offsets.assign(entries + 1, 0);
    for (size_t e = 0; e < entries; ++e) {
      const auto to = static_cast<size_t>(position[e]);
      run->hashes[to] = hashes[e];
      run->key_offsets[to + 1] = key_offsets[e + 1] - key_offsets[e];
    }
    for (size_t e = 0; e < entries; ++e) {
      run->key_offsets[e + 1] += run->key_offsets[e];
    }
    run->key_bytes.resize(key_bytes.size());
    for (size_t e = 0; e < entries; ++e) {
      const int64_t size = key_offsets[e + 1] - key_offsets[e];
      if (size > 0) {
        std::memcpy(run->key_bytes.data() + run->key_offsets[static_cast<size_t>(position[e])],
                    key_bytes.data() + key_offsets[e], static_cast<size_t>(size));
      }
    }
  }
  run->complete = true;
  return first_row;
}

int64_t JoinHashTable::num_build_rows() const {
  std::lock_guard<std::mutex> lock(add_mutex_);
  return rows_added_;
}

int64_t JoinHashTable::num_groups() const {
  int64_t groups = 0;
  for (const auto& partition : partitions_) {
    groups += partition->groups;
  }
  return groups;
}

bool JoinHashTable::outputs_build_rows() const {
  return type_ == JoinType::kRightOuter || type_ == JoinType::kFullOuter ||
         type_ == JoinType::kRightSemi || type_ == JoinType::kRightAnti;
}

void JoinHashTable::finalize() {
  {
    std::lock_guard<std::mutex> lock(add_mutex_);
    if (finalized_) {
      throw InvalidArgument("hash join: finalize called twice");
    }
    for (const auto& run : runs_) {
      if (!run->complete) {
        throw InvalidArgument(
            "hash join: finalize while rows are being added, or after an add failed");
      }
    }
  }
  const size_t partitions = size_t{1} << partition_bits_;
  partitions_.clear();
  for (size_t p = 0; p < partitions; ++p) {
    partitions_.push_back(std::make_unique<Partition>(allocator_));
  }
  parallel_for(static_cast<int64_t>(partitions), hardware_threads(),
               [this](int64_t p, int) { finalize_partition(static_cast<size_t>(p)); });
  if (outputs_build_rows()) {
    matched_.assign(static_cast<size_t>((rows_added_ + 63) / 64), 0);
  }
  slot_bytes_ = 0;
  for (const auto& partition : partitions_) {
    slot_bytes_ += static_cast<int64_t>(partition->packed_slots.size() * sizeof(PackedSlot) +
                                        partition->byte_slots.size() * sizeof(ByteSlot));
  }
  runs_.clear();
  finalized_ = true;
}

namespace {

/// Rows per group turned into the start of each group's rows, for a partition of `entries`
/// rows: `count` holds each group's rows and becomes its start.
void counts_to_starts(ScratchVector<uint32_t>& count) {
  uint32_t start = 0;
  for (uint32_t& value : count) {
    const uint32_t rows = value;
    value = start;
    start += rows;
  }
}

}  // namespace

void JoinHashTable::finalize_partition(size_t p) {
  Partition& part = *partitions_[p];
  size_t entries = 0;
  for (const auto& run : runs_) {
    entries += static_cast<size_t>(run->part_begin[p + 1] - run->part_begin[p]);
  }
  if (entries >= UINT32_MAX) {
    throw InvalidArgument("hash join: a partition of the build side holds " +
                          std::to_string(entries) + " rows, more than 4294967294");
  }
  // Each entry's group, in run order, and the rows of each group.
  ScratchVector<uint32_t> entry_group(entries, 0, StlAllocator<uint32_t>(allocator_));
  ScratchVector<uint32_t> group_rows{StlAllocator<uint32_t>(allocator_)};
  size_t capacity = kMinSlots;
  part.mask = capacity - 1;
  size_t next_entry = 0;
  if (layout_->kind == Layout::Kind::kPacked) {
    // During the build, a slot's `begin` holds its group and `count` is 1.
    part.packed_slots.assign(capacity, PackedSlot{0, 0, 0});
    const auto rehash = [&part](size_t new_capacity) {
      ScratchVector<PackedSlot> slots(new_capacity, PackedSlot{0, 0, 0},
                                      part.packed_slots.get_allocator());
      const uint64_t mask = new_capacity - 1;
      for (const PackedSlot& slot : part.packed_slots) {
        if (slot.count == 0) {
          continue;
        }
        uint64_t index = hash_u64(slot.key) & mask;
        while (slots[index].count != 0) {
          index = (index + 1) & mask;
        }
        slots[index] = slot;
      }
      part.packed_slots = std::move(slots);
      part.mask = mask;
    };
    for (const auto& run : runs_) {
      for (int64_t e = run->part_begin[p]; e < run->part_begin[p + 1]; ++e) {
        const uint64_t key = run->keys[static_cast<size_t>(e)];
        uint64_t index = hash_u64(key) & part.mask;
        uint32_t group = 0;
        while (true) {
          PackedSlot& slot = part.packed_slots[index];
          if (slot.count == 0) {
            group = static_cast<uint32_t>(group_rows.size());
            slot = PackedSlot{key, group, 1};
            group_rows.push_back(0);
            if (group_rows.size() * 2 > part.packed_slots.size()) {
              rehash(part.packed_slots.size() * 2);
            }
            break;
          }
          if (slot.key == key) {
            group = slot.begin;
            break;
          }
          index = (index + 1) & part.mask;
        }
        ++group_rows[group];
        entry_group[next_entry++] = group;
      }
    }
  } else {
    part.byte_slots.assign(capacity, ByteSlot{0, 0});
    ScratchVector<uint64_t> group_hashes{StlAllocator<uint64_t>(allocator_)};
    const auto rehash = [&part, &group_hashes](size_t new_capacity) {
      ScratchVector<ByteSlot> slots(new_capacity, ByteSlot{0, 0}, part.byte_slots.get_allocator());
      const uint64_t mask = new_capacity - 1;
      for (size_t g = 0; g < group_hashes.size(); ++g) {
        uint64_t index = group_hashes[g] & mask;
        while (slots[index].group_plus_one != 0) {
          index = (index + 1) & mask;
        }
        slots[index] = ByteSlot{tag_of(group_hashes[g]), static_cast<uint32_t>(g + 1)};
      }
      part.byte_slots = std::move(slots);
      part.mask = mask;
    };
    for (const auto& run : runs_) {
      for (int64_t e = run->part_begin[p]; e < run->part_begin[p + 1]; ++e) {
        const auto entry = static_cast<size_t>(e);
        const uint64_t hash = run->hashes[entry];
        const char* key = run->key_bytes.data() + run->key_offsets[entry];
        const auto size =
            static_cast<size_t>(run->key_offsets[entry + 1] - run->key_offsets[entry]);
        const uint32_t tag = tag_of(hash);
        uint64_t index = hash & part.mask;
        uint32_t group = 0;
        while (true) {
          ByteSlot& slot = part.byte_slots[index];
          if (slot.group_plus_one == 0) {
            group = static_cast<uint32_t>(group_hashes.size());
            slot = ByteSlot{tag, group + 1};
            group_hashes.push_back(hash);
            group_rows.push_back(0);
            part.byte_groups.push_back(ByteGroup{static_cast<int64_t>(part.key_bytes.size()),
                                                 static_cast<uint32_t>(size), 0, 0});
            part.key_bytes.insert(part.key_bytes.end(), key, key + size);
            if (group_hashes.size() * 2 > part.byte_slots.size()) {
              rehash(part.byte_slots.size() * 2);
            }
            break;
          }
          if (slot.tag == tag) {
            const uint32_t candidate = slot.group_plus_one - 1;
            const ByteGroup& known = part.byte_groups[candidate];
            if (known.key_length == size &&
                (size == 0 ||
                 std::memcmp(part.key_bytes.data() + known.key_offset, key, size) == 0)) {
              group = candidate;
              break;
            }
          }
          index = (index + 1) & part.mask;
        }
        ++group_rows[group];
        entry_group[next_entry++] = group;
      }
    }
  }
  part.groups = static_cast<int64_t>(group_rows.size());
  // The rows of each group together, in row order.
  ScratchVector<uint32_t> group_start(group_rows);
  counts_to_starts(group_start);
  ScratchVector<uint32_t> cursor(group_start);
  part.rows.resize(entries);
  next_entry = 0;
  for (const auto& run : runs_) {
    for (int64_t e = run->part_begin[p]; e < run->part_begin[p + 1]; ++e) {
      part.rows[cursor[entry_group[next_entry++]]++] = run->rows[static_cast<size_t>(e)];
    }
  }
  if (layout_->kind == Layout::Kind::kPacked) {
    for (PackedSlot& slot : part.packed_slots) {
      if (slot.count != 0) {
        slot.count = group_rows[slot.begin];
        slot.begin = group_start[slot.begin];
      }
    }
  } else {
    for (size_t g = 0; g < part.byte_groups.size(); ++g) {
      part.byte_groups[g].begin = group_start[g];
      part.byte_groups[g].count = group_rows[g];
    }
  }
  if (outputs_build_rows()) {
    part.group_marked.assign((entries + 63) / 64, 0);
  }
}

void JoinHashTable::mark_row(int64_t build_row) {
  uint64_t& word = matched_[static_cast<size_t>(build_row >> 6)];
  const uint64_t bit = uint64_t{1} << (build_row & 63);
  std::atomic_ref<uint64_t> atomic(word);
  if ((atomic.load(std::memory_order_relaxed) & bit) == 0) {
    atomic.fetch_or(bit, std::memory_order_relaxed);
  }
}

void JoinHashTable::mark_group(const Match& match) {
  uint64_t& word = match.partition->group_marked[match.begin >> 6];
  const uint64_t bit = uint64_t{1} << (match.begin & 63);
  std::atomic_ref<uint64_t> atomic(word);
  if ((atomic.load(std::memory_order_relaxed) & bit) != 0 ||
      (atomic.fetch_or(bit, std::memory_order_relaxed) & bit) != 0) {
    return;  // another probe row marked this key's rows
  }
  for (uint32_t i = 0; i < match.count; ++i) {
    mark_row(match.rows[i]);
  }
}

void JoinHashTable::collect_build_rows(int64_t begin, int64_t end, JoinPairs& out) const {
  if (!outputs_build_rows()) {
    throw InvalidArgument("hash join: a " + std::string(join_type_name(type_)) +
                          " join outputs no build rows after its probes");
  }
  if (!finalized_) {
    throw InvalidArgument("hash join: build rows collected before finalize");
  }
  if (begin < 0 || end < begin || end > rows_added_) {
    throw InvalidArgument("hash join: build row range [" + std::to_string(begin) + ", " +
                          std::to_string(end) + ") is outside the " + std::to_string(rows_added_) +
                          " build rows");
  }
  const bool want_matched = type_ == JoinType::kRightSemi;
  for (int64_t row = begin; row < end; ++row) {
    const bool matched = ((matched_[static_cast<size_t>(row >> 6)] >> (row & 63)) & 1) != 0;
    if (matched == want_matched) {
      out.append(kNoRow, row);
    }
  }
}

// --- Probe side ----------------------------------------------------------------------------

struct JoinProbe::Lookup {
  Lookup(std::span<const Array> keys, Allocator* allocator)
      : keys(keys.begin(), keys.end()),
        block(allocator),
        matches(StlAllocator<JoinHashTable::Match>(allocator)) {}

  std::vector<Array> keys;
  KeyBlock block;
  ScratchVector<JoinHashTable::Match> matches;  // of rows [block_start, block_end)
  int64_t block_start = 0;
  int64_t block_end = 0;
};

JoinProbe JoinHashTable::probe(std::span<const Array> keys) {
  if (!finalized_) {
    throw InvalidArgument("hash join: probe before finalize");
  }
  check_keys(keys, "probe");
  return JoinProbe(*this, keys);
}

JoinProbe::JoinProbe(JoinHashTable& table, std::span<const Array> keys)
    : table_(&table),
      lookup_(std::make_unique<Lookup>(keys, table.allocator_)),
      length_(keys[0].length()),
      candidates_(table.allocator_),
      segments_(StlAllocator<Segment>(table.allocator_)) {}

JoinProbe::JoinProbe(JoinProbe&&) noexcept = default;
JoinProbe& JoinProbe::operator=(JoinProbe&&) noexcept = default;
JoinProbe::~JoinProbe() = default;

const JoinHashTable::Match& JoinProbe::current_match() {
  Lookup& lookup = *lookup_;
  if (row_ < lookup.block_end) {
    return lookup.matches[static_cast<size_t>(row_ - lookup.block_start)];
  }
  const int64_t count = std::min(kBlock, length_ - row_);
  KeyBlock& block = lookup.block;
  table_->layout_->encode(table_->null_safe_, lookup.keys, row_, count, block);
  const auto& partitions = table_->partitions_;
  const bool packed = table_->layout_->kind == JoinHashTable::Layout::Kind::kPacked;
  // The slot of the row this far ahead is loaded while the current one is looked up, so that
  // the cache misses of many lookups overlap.
  constexpr int64_t kAhead = 16;
  const auto prefetch_slot = [&](int64_t j) {
    const uint64_t hash = block.hashes[static_cast<size_t>(j)];
    const JoinHashTable::Partition& part = *partitions[table_->partition_of(hash)];
    if (packed) {
      __builtin_prefetch(part.packed_slots.data() + (hash & part.mask));
    } else {
      __builtin_prefetch(part.byte_slots.data() + (hash & part.mask));
    }
  };
  // Tables that stay in the caches gain nothing from it.
  const bool prefetch = table_->slot_bytes_ > kPrefetchFromSlotBytes;
  for (int64_t j = 0; prefetch && j < std::min(kAhead, count); ++j) {
    prefetch_slot(j);
  }
  lookup.matches.assign(static_cast<size_t>(count), JoinHashTable::Match{});
  for (int64_t j = 0; j < count; ++j) {
    if (prefetch && j + kAhead < count) {
      prefetch_slot(j + kAhead);
    }
    const auto slot_of_row = static_cast<size_t>(j);
    if (block.usable[slot_of_row] == 0) {
      continue;
    }
    const uint64_t hash = block.hashes[slot_of_row];
    JoinHashTable::Partition& part = *partitions[table_->partition_of(hash)];
    JoinHashTable::Match& match = lookup.matches[slot_of_row];
    uint64_t index = hash & part.mask;
    if (packed) {
      const uint64_t key = block.packed[slot_of_row];
      while (true) {
        const PackedSlot& slot = part.packed_slots[index];
        if (slot.count == 0) {
          break;
        }
        if (slot.key == key) {
          match =
              JoinHashTable::Match{part.rows.data() + slot.begin, slot.count, slot.begin, &part};
          __builtin_prefetch(match.rows);  // read when the pairs are given out
          break;
        }
        index = (index + 1) & part.mask;
      }
      continue;
    }
    const std::string_view key = block.bytes[slot_of_row];
    const uint32_t tag = tag_of(hash);
    while (true) {
      const ByteSlot& slot = part.byte_slots[index];
      if (slot.group_plus_one == 0) {
        break;
      }
      if (slot.tag == tag) {
        const ByteGroup& group = part.byte_groups[slot.group_plus_one - 1];
        if (group.key_length == key.size() &&
            (key.empty() ||
             std::memcmp(part.key_bytes.data() + group.key_offset, key.data(), key.size()) == 0)) {
          match =
              JoinHashTable::Match{part.rows.data() + group.begin, group.count, group.begin, &part};
          __builtin_prefetch(match.rows);
          break;
        }
      }
      index = (index + 1) & part.mask;
    }
  }
  lookup.block_start = row_;
  lookup.block_end = row_ + count;
  return lookup.matches[0];
}

void JoinProbe::next_row() {
  ++row_;
  offset_ = 0;
  row_passed_ = false;
}

namespace {

bool emits_pairs(JoinType type) {
  return type == JoinType::kInner || type == JoinType::kLeftOuter ||
         type == JoinType::kRightOuter || type == JoinType::kFullOuter;
}

/// Whether probe rows without a (passing) match are output, with no build row.
bool emits_unmatched_probe_rows(JoinType type) {
  return type == JoinType::kLeftOuter || type == JoinType::kFullOuter ||
         type == JoinType::kLeftAnti;
}

/// Pairs reserved up front for a chunk (more grow the output as needed).
constexpr int64_t kReservedPairs = 16 * 1024;

void check_max_pairs(int64_t max_pairs) {
  if (max_pairs <= 0) {
    throw InvalidArgument("hash join probe: at most " + std::to_string(max_pairs) +
                          " pairs asked for; ask for at least one");
  }
}

}  // namespace

bool JoinProbe::next(int64_t max_pairs, JoinPairs& out) {
  check_max_pairs(max_pairs);
  if (resolve_pending_) {
    throw InvalidArgument("hash join probe: next called while candidates await resolve");
  }
  out.clear();
  out.reserve(std::min(max_pairs, kReservedPairs));
  const JoinType type = table_->type_;
  const bool marks = table_->outputs_build_rows();
  while (row_ < length_ && out.size() < max_pairs) {
    const JoinHashTable::Match& match = current_match();
    if (marks && match.count > 0 && offset_ == 0) {
      table_->mark_group(match);
    }
    if (emits_pairs(type)) {
      if (match.count == 0) {
        if (emits_unmatched_probe_rows(type)) {
          out.append(row_, kNoRow);
        }
        next_row();
        continue;
      }
      const int64_t take = std::min<int64_t>(match.count - offset_, max_pairs - out.size());
      if (take == 1) {
        out.append(row_, match.rows[offset_]);  // the common case, inline
      } else {
        out.append(row_, {match.rows + offset_, static_cast<size_t>(take)});
      }
      offset_ += take;
      if (offset_ == match.count) {
        next_row();
      }
      continue;
    }
    if ((type == JoinType::kLeftSemi && match.count > 0) ||
        (type == JoinType::kLeftAnti && match.count == 0)) {
      out.append(row_, kNoRow);
    }
    next_row();
  }
  return !out.empty();
}

bool JoinProbe::next_candidates(int64_t max_pairs) {
  check_max_pairs(max_pairs);
  if (resolve_pending_) {
    throw InvalidArgument(
        "hash join probe: next_candidates called before resolving the last chunk");
  }
  candidates_.clear();
  candidates_.reserve(std::min(max_pairs, kReservedPairs));
  segments_.clear();
  const JoinType type = table_->type_;
  const bool emits_unmatched = emits_unmatched_probe_rows(type);
  // Once a candidate passed, the rest of the row's candidates cannot change the output.
  const bool decided_by_a_pass = type == JoinType::kLeftSemi || type == JoinType::kLeftAnti;
  int64_t used = 0;
  while (row_ < length_ && used < max_pairs) {
    const JoinHashTable::Match& match = current_match();
    if (match.count == 0 || (decided_by_a_pass && row_passed_)) {
      if (match.count == 0 && emits_unmatched) {
        segments_.push_back(Segment{row_, candidates_.size(), candidates_.size(), true, false});
        ++used;
      }
      next_row();
      continue;
    }
    const int64_t take = std::min<int64_t>(match.count - offset_, max_pairs - used);
    const int64_t begin = candidates_.size();
    if (take == 1) {
      candidates_.append(row_, match.rows[offset_]);
    } else {
      candidates_.append(row_, {match.rows + offset_, static_cast<size_t>(take)});
    }
    offset_ += take;
    used += take;
    const bool finishes = offset_ == match.count;
    segments_.push_back(Segment{row_, begin, begin + take, finishes, row_passed_});
    if (finishes) {
      next_row();
    }
  }
  resolve_pending_ = !segments_.empty();
  return resolve_pending_;
}

void JoinProbe::resolve(const Array& passed, JoinPairs& out) {
  if (!resolve_pending_) {
    throw InvalidArgument("hash join probe: resolve without a chunk of candidates");
  }
  if (passed.type()->id() != TypeId::kBoolean) {
    throw InvalidArgument("hash join probe: the condition mask must be boolean, got " +
                          passed.type()->to_string());
  }
  if (passed.length() != candidates_.size()) {
    throw InvalidArgument("hash join probe: the condition mask has " +
                          std::to_string(passed.length()) + " values for " +
                          std::to_string(candidates_.size()) + " candidates");
  }
  out.clear();
  out.reserve(candidates_.size() + static_cast<int64_t>(segments_.size()));
  const ArrayData& mask = *passed.data();
  const uint8_t* bits = mask.length > 0 ? mask.buffers[1]->data() : nullptr;
  const bool nulls = mask.null_count() != 0;
  const auto passes = [&](int64_t k) {
    return (!nulls || !mask.is_null_in_bitmap(k)) && bit_util::get_bit(bits, mask.offset + k);
  };
  const JoinType type = table_->type_;
  const bool marks = table_->outputs_build_rows();
  const bool pairs = emits_pairs(type);
  const std::span<const int64_t> build_rows = candidates_.build_rows();
  for (const Segment& segment : segments_) {
    bool any = segment.passed_before;
    for (int64_t k = segment.begin; k < segment.end; ++k) {
      if (!passes(k)) {
        continue;
      }
      const int64_t build_row = build_rows[static_cast<size_t>(k)];
      if (marks) {
        table_->mark_row(build_row);
      }
      if (pairs) {
        out.append(segment.probe_row, build_row);
      } else if (type == JoinType::kLeftSemi && !any) {
        out.append(segment.probe_row, kNoRow);
      }
      any = true;
    }
    if (!segment.finishes) {
      row_passed_ = any;
    } else if (!any && emits_unmatched_probe_rows(type)) {
      out.append(segment.probe_row, kNoRow);
    }
  }
  resolve_pending_ = false;
}

}  // namespace bowstring::compute
