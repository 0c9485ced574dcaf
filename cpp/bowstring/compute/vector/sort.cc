#include "bowstring/compute/vector/sort.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/memory/scratch.h"
#include "bowstring/util/bit_util.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {
namespace {

constexpr uint64_t kSignBit = uint64_t{1} << 63;

// --- keys as unsigned numbers ----------------------------------------------------------------

/// Order-preserving maps of values to uint64: a < b in Spark's order iff key(a) < key(b).
inline uint64_t signed_key(int64_t value) { return static_cast<uint64_t>(value) ^ kSignBit; }

inline uint64_t double_key(double value) {
  if (std::isnan(value)) {
    return ~uint64_t{0};  // every NaN is one value, above +infinity
  }
  if (value == 0.0) {
    value = 0.0;  // -0.0 sorts with 0.0
  }
  const auto bits = std::bit_cast<uint64_t>(value);
  return (bits & kSignBit) != 0 ? ~bits : bits | kSignBit;
}

/// The key of every row of a fixed-width array, complemented when descending (so that an
/// ascending sort of keys gives the descending order and ties stay in row order).
template <typename T, typename Map>
void fill_keys(const ArrayData& data, bool descending, ScratchVector<uint64_t>& keys, Map map) {
  const T* values = data.values<T>(1);
  const uint64_t flip = descending ? ~uint64_t{0} : 0;
  keys.resize(static_cast<size_t>(data.length));
  for (int64_t i = 0; i < data.length; ++i) {
    keys[static_cast<size_t>(i)] = map(values[i]) ^ flip;
  }
}

/// Whether `type`'s values map to one uint64 key: booleans and every number or temporal value
/// held as one number of at most 64 bits (day-time and month-day-nano intervals hold several).
bool has_number_key(const DataType& type) {
  const TypeId id = type.id();
  return id == TypeId::kBoolean || type.is_integer() || type.is_floating() ||
         id == TypeId::kDecimal32 || id == TypeId::kDecimal64 ||
         (type.is_temporal() && id != TypeId::kIntervalDayTime &&
          id != TypeId::kIntervalMonthDayNano);
}

void number_keys(const ArrayData& data, bool descending, ScratchVector<uint64_t>& keys) {
  auto as_signed = [](auto value) { return signed_key(static_cast<int64_t>(value)); };
  auto as_unsigned = [](auto value) { return static_cast<uint64_t>(value); };
  switch (data.type->id()) {
    case TypeId::kBoolean: {
      keys.resize(static_cast<size_t>(data.length));
      const uint64_t flip = descending ? ~uint64_t{0} : 0;
      const uint8_t* bits = data.buffers[1]->data();
      for (int64_t i = 0; i < data.length; ++i) {
        keys[static_cast<size_t>(i)] =
            static_cast<uint64_t>(bit_util::get_bit(bits, data.offset + i)) ^ flip;
      }
      return;
    }
    case TypeId::kInt8:
      return fill_keys<int8_t>(data, descending, keys, as_signed);
    case TypeId::kInt16:
      return fill_keys<int16_t>(data, descending, keys, as_signed);
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kIntervalMonths:
    case TypeId::kDecimal32:
      return fill_keys<int32_t>(data, descending, keys, as_signed);
    case TypeId::kUInt8:
      return fill_keys<uint8_t>(data, descending, keys, as_unsigned);
    case TypeId::kUInt16:
      return fill_keys<uint16_t>(data, descending, keys, as_unsigned);
    case TypeId::kUInt32:
      return fill_keys<uint32_t>(data, descending, keys, as_unsigned);
    case TypeId::kUInt64:
      return fill_keys<uint64_t>(data, descending, keys, as_unsigned);
    case TypeId::kFloat16:
      return fill_keys<uint16_t>(data, descending, keys, [](uint16_t bits) {
        return double_key(static_cast<double>(float16_to_float(bits)));
      });
    case TypeId::kFloat32:
      return fill_keys<float>(data, descending, keys,
                              [](float value) { return double_key(static_cast<double>(value)); });
    case TypeId::kFloat64:
      return fill_keys<double>(data, descending, keys, double_key);
    default:
      return fill_keys<int64_t>(data, descending, keys, as_signed);
  }
}

// --- sorting (key, row) entries ----------------------------------------------------------------

struct NumberEntry {
  uint64_t key;
  uint64_t row;
};

/// Stable LSD radix sort of entries by key, a byte at a time; bytes equal in every key are
/// skipped. `entries` must be in ascending row order for ties to stay so.
void radix_sort(ScratchVector<NumberEntry>& entries) {
  const size_t count = entries.size();
  std::vector<std::array<uint64_t, 256>> histograms(8);
  for (auto& histogram : histograms) {
    histogram.fill(0);
  }
  for (const NumberEntry& entry : entries) {
    for (int digit = 0; digit < 8; ++digit) {
      ++histograms[static_cast<size_t>(digit)][(entry.key >> (8 * digit)) & 0xFF];
    }
  }
  ScratchVector<NumberEntry> scratch(count, entries.get_allocator());
  for (int digit = 0; digit < 8; ++digit) {
    auto& histogram = histograms[static_cast<size_t>(digit)];
    if (std::find(histogram.begin(), histogram.end(), count) != histogram.end()) {
      continue;  // every key has the same byte here
    }
    uint64_t position = 0;
    for (uint64_t& bucket : histogram) {
      const uint64_t size = bucket;
      bucket = position;
      position += size;
    }
    const int shift = 8 * digit;
    for (const NumberEntry& entry : entries) {
      scratch[histogram[(entry.key >> shift) & 0xFF]++] = entry;
    }
    entries.swap(scratch);
  }
}

/// Runs of equal keys among sorted entries: the start of each run after the first.
template <typename Entries, typename Equal>
void find_runs(const Entries& entries, ScratchVector<int64_t>* run_starts, Equal equal) {
  for (size_t i = 1; i < entries.size(); ++i) {
    if (!equal(entries[i - 1], entries[i])) {
      run_starts->push_back(static_cast<int64_t>(i));
    }
  }
}

// --- sort columns ------------------------------------------------------------------------------

/// One sort key prepared for sorting: knows which rows are null and how to order the others.
class SortColumn {
 public:
  /// `data` is kept alive: the column reads its validity bitmap and values in place.
  SortColumn(ArrayDataPtr data_ptr, SortKey order, Allocator* allocator)
      : allocator_(allocator),
        descending_(!order.ascending),
        nulls_first_(order.nulls_go_first()),
        data_(std::move(data_ptr)) {
    const ArrayData& data = *data_;
    if (data.type->id() == TypeId::kNull) {
      all_null_ = true;
      has_nulls_ = data.length > 0;
    } else if (data.buffers[0] != nullptr && data.null_count() > 0) {
      validity_ = data.buffers[0]->data();
      validity_offset_ = data.offset;
      has_nulls_ = true;
    }
  }
  virtual ~SortColumn() = default;

  bool has_nulls() const { return has_nulls_; }
  bool nulls_first() const { return nulls_first_; }
  /// How many of the columns after this one order only its non-null rows (a struct's fields);
  /// its null rows are ordered by the columns after those.
  size_t null_skip() const { return null_skip_; }
  void set_null_skip(size_t count) { null_skip_ = count; }
  bool is_null(uint64_t row) const {
    return all_null_ ||
           (validity_ != nullptr &&
            !bit_util::get_bit(validity_, validity_offset_ + static_cast<int64_t>(row)));
  }

  /// Sorts `count` non-null rows, given in ascending row order, stably by value. When
  /// `run_starts` is given, appends the positions (from `rows`) where a new value starts.
  virtual void sort_values(uint64_t* rows, int64_t count, ScratchVector<int64_t>* run_starts) = 0;
  /// Moves to the front of `rows` (non-null, ascending row order) every row whose value is
  /// among the `m` first in sort order, ties with the m-th included; returns how many, with
  /// those rows in ascending row order.
  virtual int64_t select_first(uint64_t* rows, int64_t count, int64_t m) = 0;

 protected:
  Allocator* allocator_;  // for the scratch space of sorting
  bool descending_;

 private:
  bool nulls_first_;
  ArrayDataPtr data_;
  bool all_null_ = false;
  bool has_nulls_ = false;
  size_t null_skip_ = 0;
  const uint8_t* validity_ = nullptr;
  int64_t validity_offset_ = 0;
};

/// A column whose values map to uint64 keys (numbers, booleans, dates, dictionary ranks...).
class NumberColumn final : public SortColumn {
 public:
  NumberColumn(ArrayDataPtr data, SortKey order, ScratchVector<uint64_t> keys)
      : SortColumn(std::move(data), order, keys.get_allocator().allocator()),
        keys_(std::move(keys)) {}

  void sort_values(uint64_t* rows, int64_t count, ScratchVector<int64_t>* run_starts) override {
    ScratchVector<NumberEntry> entries(static_cast<size_t>(count),
                                       StlAllocator<NumberEntry>(allocator_));
    for (int64_t i = 0; i < count; ++i) {
      entries[static_cast<size_t>(i)] = {keys_[rows[i]], rows[i]};
    }
    if (count > 256) {
      radix_sort(entries);
    } else {
      std::sort(entries.begin(), entries.end(), [](const NumberEntry& a, const NumberEntry& b) {
        return a.key < b.key || (a.key == b.key && a.row < b.row);
      });
    }
    for (int64_t i = 0; i < count; ++i) {
      rows[i] = entries[static_cast<size_t>(i)].row;
    }
    if (run_starts != nullptr) {
      find_runs(entries, run_starts,
                [](const NumberEntry& a, const NumberEntry& b) { return a.key == b.key; });
    }
  }

  int64_t select_first(uint64_t* rows, int64_t count, int64_t m) override {
    ScratchVector<uint64_t> candidates(static_cast<size_t>(count),
                                       StlAllocator<uint64_t>(allocator_));
    for (int64_t i = 0; i < count; ++i) {
      candidates[static_cast<size_t>(i)] = keys_[rows[i]];
    }
    std::nth_element(candidates.begin(), candidates.begin() + (m - 1), candidates.end());
    const uint64_t threshold = candidates[static_cast<size_t>(m - 1)];
    int64_t kept = 0;
    for (int64_t i = 0; i < count; ++i) {
      if (keys_[rows[i]] <= threshold) {
        rows[kept++] = rows[i];
      }
    }
    return kept;
  }

 private:
  ScratchVector<uint64_t> keys_;
};

/// A struct key's own nulls: its non-null rows all tie here; the columns of its fields follow.
class ValidityColumn final : public SortColumn {
 public:
  using SortColumn::SortColumn;

  void sort_values(uint64_t*, int64_t, ScratchVector<int64_t>*) override {}
  int64_t select_first(uint64_t*, int64_t count, int64_t) override { return count; }
};

/// Entries of columns compared by a value type other than one number.
template <typename Key>
struct KeyEntry {
  Key key;
  uint64_t row;
};

/// Strings and binaries: an 8-byte big-endian prefix decides most comparisons; the bytes after
/// it are compared only when the prefixes tie.
struct StringKey {
  uint64_t prefix;
  std::string_view value;
};

inline uint64_t string_prefix(std::string_view value) {
  uint64_t prefix = 0;
  std::memcpy(&prefix, value.data(), std::min<size_t>(8, value.size()));
  return __builtin_bswap64(prefix);
}

inline int compare_keys(const StringKey& a, const StringKey& b) {
  if (a.prefix != b.prefix) {
    return a.prefix < b.prefix ? -1 : 1;
  }
  const int bytes = a.value.compare(b.value);
  return bytes < 0 ? -1 : (bytes > 0 ? 1 : 0);
}

/// Decimal128 and decimal256: W words, most significant first, the first with its sign flipped.
template <size_t W>
using WideKey = std::array<uint64_t, W>;

template <size_t W>
inline int compare_keys(const WideKey<W>& a, const WideKey<W>& b) {
  for (size_t w = 0; w < W; ++w) {
    if (a[w] != b[w]) {
      return a[w] < b[w] ? -1 : 1;
    }
  }
  return 0;
}

/// A column whose keys are read by `Source::key(row)` and compared with `compare_keys`.
template <typename Source>
class ComparedColumn final : public SortColumn {
  using Key = decltype(std::declval<const Source&>().key(0));
  using Entry = KeyEntry<Key>;

 public:
  ComparedColumn(ArrayDataPtr data, SortKey order, Source source, Allocator* allocator)
      : SortColumn(std::move(data), order, allocator), source_(std::move(source)) {}

  void sort_values(uint64_t* rows, int64_t count, ScratchVector<int64_t>* run_starts) override {
    ScratchVector<Entry> entries = entries_of(rows, count);
    std::sort(entries.begin(), entries.end(), less());
    for (int64_t i = 0; i < count; ++i) {
      rows[i] = entries[static_cast<size_t>(i)].row;
    }
    if (run_starts != nullptr) {
      find_runs(entries, run_starts,
                [](const Entry& a, const Entry& b) { return compare_keys(a.key, b.key) == 0; });
    }
  }

  int64_t select_first(uint64_t* rows, int64_t count, int64_t m) override {
    ScratchVector<Entry> entries = entries_of(rows, count);
    std::nth_element(entries.begin(), entries.begin() + (m - 1), entries.end(), less());
    const Key threshold = entries[static_cast<size_t>(m - 1)].key;
    const int direction = descending_ ? -1 : 1;
    int64_t kept = 0;
    for (int64_t i = 0; i < count; ++i) {
      if (direction * compare_keys(source_.key(rows[i]), threshold) <= 0) {
        rows[kept++] = rows[i];
      }
    }
    return kept;
  }

 private:
  ScratchVector<Entry> entries_of(const uint64_t* rows, int64_t count) const {
    ScratchVector<Entry> entries(static_cast<size_t>(count), StlAllocator<Entry>(allocator_));
    for (int64_t i = 0; i < count; ++i) {
      entries[static_cast<size_t>(i)] = {source_.key(rows[i]), rows[i]};
    }
    return entries;
  }
  auto less() const {
    const int direction = descending_ ? -1 : 1;
    return [direction](const Entry& a, const Entry& b) {
      const int order = direction * compare_keys(a.key, b.key);
      return order < 0 || (order == 0 && a.row < b.row);
    };
  }

  Source source_;
};

template <typename View>
struct StringSource {
  View view;
  StringKey key(uint64_t row) const {
    const std::string_view value = view.value(static_cast<int64_t>(row));
    return {string_prefix(value), value};
  }
};

template <size_t W>
struct WideSource {
  const uint64_t* words;  // W words per value, least significant first
  WideKey<W> key(uint64_t row) const {
    WideKey<W> key;
    const uint64_t* value = words + row * W;
    for (size_t w = 0; w < W; ++w) {
      key[w] = value[W - 1 - w];
    }
    key[0] ^= kSignBit;
    return key;
  }
};

std::unique_ptr<SortColumn> make_column(const Array& array, SortKey order, Allocator* allocator);

/// The rank of each value of `array` in ascending order (equal values share a rank); null
/// values get no rank (`valid` false).
ScratchVector<uint64_t> value_ranks(const Array& dictionary, std::vector<bool>& valid,
                                    Allocator* allocator) {
  std::unique_ptr<SortColumn> column = make_column(dictionary, SortKey{}, allocator);
  ScratchVector<uint64_t> rows{StlAllocator<uint64_t>(allocator)};
  valid.assign(static_cast<size_t>(dictionary.length()), true);
  for (int64_t i = 0; i < dictionary.length(); ++i) {
    if (column->is_null(static_cast<uint64_t>(i))) {
      valid[static_cast<size_t>(i)] = false;
    } else {
      rows.push_back(static_cast<uint64_t>(i));
    }
  }
  ScratchVector<int64_t> run_starts{StlAllocator<int64_t>(allocator)};
  column->sort_values(rows.data(), static_cast<int64_t>(rows.size()), &run_starts);
  ScratchVector<uint64_t> ranks(static_cast<size_t>(dictionary.length()), 0,
                                StlAllocator<uint64_t>(allocator));
  uint64_t rank = 0;
  size_t next_run = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (next_run < run_starts.size() && static_cast<int64_t>(i) == run_starts[next_run]) {
      ++rank;
      ++next_run;
    }
    ranks[rows[i]] = rank;
  }
  return ranks;
}

/// A dictionary array as a number column of value ranks; rows whose value is null become null.
std::unique_ptr<SortColumn> make_dictionary_column(const Array& array, SortKey order,
                                                   Allocator* allocator) {
  const DictionaryArray view(array);
  std::vector<bool> valid;
  const ScratchVector<uint64_t> ranks = value_ranks(view.dictionary(), valid, allocator);
  const int64_t length = array.length();
  ScratchVector<uint64_t> keys(static_cast<size_t>(length), StlAllocator<uint64_t>(allocator));
  BooleanBuilder validity(allocator);
  bool any_null = false;
  const uint64_t flip = order.ascending ? 0 : ~uint64_t{0};
  for (int64_t i = 0; i < length; ++i) {
    bool row_valid = !array.data()->is_null_in_bitmap(i);
    if (row_valid) {
      const auto index = static_cast<size_t>(view.index(i));
      row_valid = valid[index];
      keys[static_cast<size_t>(i)] = ranks[index] ^ flip;
    }
    any_null |= !row_valid;
    validity.append(row_valid);
  }
  // The column reads nulls from a boolean array standing in for the dictionary's validity.
  const Array validity_bits = validity.finish();
  std::shared_ptr<Buffer> bitmap = any_null ? validity_bits.data()->buffers[1] : nullptr;
  auto nulls = std::make_shared<ArrayData>(uint64(), length,
                                           std::vector<std::shared_ptr<Buffer>>{bitmap, nullptr},
                                           any_null ? ArrayData::kUnknownNullCount : 0);
  return std::make_unique<NumberColumn>(std::move(nulls), order, std::move(keys));
}

// --- nested keys -------------------------------------------------------------------------------

/// Where the elements of list `i` sit in the child array, for each list layout.
template <typename Offset>
struct ListSpans {
  const Offset* offsets;
  int64_t start(int64_t i) const { return offsets[i]; }
  int64_t length(int64_t i) const { return offsets[i + 1] - offsets[i]; }
};

template <typename Offset>
struct ListViewSpans {
  const Offset* offsets;
  const Offset* sizes;
  int64_t start(int64_t i) const { return offsets[i]; }
  int64_t length(int64_t i) const { return sizes[i]; }
};

struct FixedSizeSpans {
  int64_t offset;  // the array's offset, in lists
  int64_t size;
  int64_t start(int64_t i) const { return (offset + i) * size; }
  int64_t length(int64_t) const { return size; }
};

/// Sorts entries by key only (ties in any order): radix for large inputs.
void sort_by_key(ScratchVector<NumberEntry>& entries) {
  if (entries.size() > 256) {
    radix_sort(entries);
  } else {
    std::sort(entries.begin(), entries.end(),
              [](const NumberEntry& a, const NumberEntry& b) { return a.key < b.key; });
  }
}

/// Gives each of `rows` its ordinal (1 + dense rank) in `ordinals`, rows compared as sequences:
/// `key_at(row, position)` is the key of the row's element at `position` (1 to `max_key`), or 0
/// once the row's sequence has ended, so that a sequence sorts before its extensions. Rows are
/// sorted by the keys at the first positions, then each group of equal keys by the next ones, and
/// so on (MSD), so a position is read only for rows still tied there. As many positions as fit
/// are packed into one 64-bit sort key: small element ranks take one pass for several positions.
template <typename KeyAt>
void rank_sequences(ScratchVector<uint64_t>& rows, KeyAt key_at, uint64_t max_key,
                    ScratchVector<uint64_t>& ordinals, Allocator* allocator) {
  const int bits = std::bit_width(max_key);
  const int64_t positions_per_key = bits > 32 ? 1 : 64 / bits;
  const uint64_t last_position_mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  auto packed_key = [&key_at, bits, positions_per_key](uint64_t row, int64_t position) {
    uint64_t key = key_at(row, position);
    for (int64_t j = 1; j < positions_per_key; ++j) {
      key = (key << bits) | key_at(row, position + j);
    }
    return key;
  };
  struct Group {
    size_t begin;
    size_t end;
    int64_t position;  // negative: every row of the group is equal
  };
  ScratchVector<Group> pending{StlAllocator<Group>(allocator)};
  ScratchVector<NumberEntry> entries{StlAllocator<NumberEntry>(allocator)};
  ScratchVector<Group> runs{StlAllocator<Group>(allocator)};
  if (!rows.empty()) {
    pending.push_back({0, rows.size(), 0});
  }
  uint64_t next_ordinal = 1;
  // Groups are taken from the back: subgroups are pushed last first, so ordinals go in order.
  while (!pending.empty()) {
    const Group group = pending.back();
    pending.pop_back();
    const size_t count = group.end - group.begin;
    if (group.position < 0 || count == 1) {
      for (size_t i = group.begin; i < group.end; ++i) {
        ordinals[rows[i]] = next_ordinal;
      }
      ++next_ordinal;
      continue;
    }
    entries.resize(count);
    for (size_t i = 0; i < count; ++i) {
      const uint64_t row = rows[group.begin + i];
      entries[i] = {packed_key(row, group.position), row};
    }
    sort_by_key(entries);
    runs.clear();
    size_t start = 0;
    for (size_t i = 0; i < count; ++i) {
      rows[group.begin + i] = entries[i].row;
      if (i + 1 == count || entries[i + 1].key != entries[i].key) {
        // Rows whose sequences ended together are equal (a sequence that ended has only 0 keys
        // after, so the last position packed tells).
        const int64_t next =
            (entries[i].key & last_position_mask) == 0 ? -1 : group.position + positions_per_key;
        runs.push_back({group.begin + start, group.begin + i + 1, next});
        start = i + 1;
      }
    }
    pending.insert(pending.end(), runs.rbegin(), runs.rend());
  }
}

ScratchVector<uint64_t> ordinal_keys(const Array& array, Allocator* allocator);

/// The rows of `array` whose own validity bit is set.
ScratchVector<uint64_t> valid_rows(const ArrayData& data, Allocator* allocator) {
  ScratchVector<uint64_t> rows{StlAllocator<uint64_t>(allocator)};
  rows.reserve(static_cast<size_t>(data.length));
  for (int64_t i = 0; i < data.length; ++i) {
    if (!data.is_null_in_bitmap(i)) {
      rows.push_back(static_cast<uint64_t>(i));
    }
  }
  return rows;
}

uint64_t max_ordinal(std::span<const ScratchVector<uint64_t>> ordinals) {
  uint64_t largest = 0;
  for (const ScratchVector<uint64_t>& values : ordinals) {
    for (const uint64_t value : values) {
      largest = std::max(largest, value);
    }
  }
  return largest;
}

/// Structs compare field by field, each field in its ascending order.
ScratchVector<uint64_t> struct_ordinals(const Array& array, Allocator* allocator) {
  const StructArray view(array);
  std::vector<ScratchVector<uint64_t>> fields;
  for (int i = 0; i < view.num_fields(); ++i) {
    fields.push_back(ordinal_keys(view.field(i), allocator));
  }
  const auto field_count = static_cast<int64_t>(fields.size());
  ScratchVector<uint64_t> ordinals(static_cast<size_t>(array.length()), 0,
                                   StlAllocator<uint64_t>(allocator));
  ScratchVector<uint64_t> rows = valid_rows(*array.data(), allocator);
  rank_sequences(
      rows,
      [&fields, field_count](uint64_t row, int64_t position) {
        return position < field_count ? fields[static_cast<size_t>(position)][row] + 1 : 0;
      },
      max_ordinal(fields) + 1, ordinals, allocator);
  return ordinals;
}

/// Lists compare element by element; when one is a prefix of the other the shorter comes first.
template <typename Spans>
ScratchVector<uint64_t> list_ordinals(const Array& array, Spans spans, const Array& elements,
                                      Allocator* allocator) {
  const ScratchVector<uint64_t> element_ordinals = ordinal_keys(elements, allocator);
  ScratchVector<uint64_t> ordinals(static_cast<size_t>(array.length()), 0,
                                   StlAllocator<uint64_t>(allocator));
  ScratchVector<uint64_t> rows = valid_rows(*array.data(), allocator);
  rank_sequences(
      rows,
      [&element_ordinals, spans](uint64_t row, int64_t position) {
        const auto list = static_cast<int64_t>(row);
        return position < spans.length(list)
                   ? element_ordinals[static_cast<size_t>(spans.start(list) + position)] + 1
                   : 0;
      },
      max_ordinal(std::span<const ScratchVector<uint64_t>>(&element_ordinals, 1)) + 1, ordinals,
      allocator);
  return ordinals;
}

bool is_nested_orderable(TypeId id) {
  switch (id) {
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kFixedSizeList:
      return true;
    default:
      return false;
  }
}

/// Every value of `array` as a number in Spark's ascending order, where a null is smaller than
/// every value: 0 for null, 1 + its rank among the distinct values otherwise. Flat values take
/// their ranks from the flat sort, so NaN, -0.0 and byte order follow its rules.
ScratchVector<uint64_t> ordinal_keys(const Array& array, Allocator* allocator) {
  const ArrayData& data = *array.data();
  switch (array.type_id()) {
    case TypeId::kStruct:
      return struct_ordinals(array, allocator);
    case TypeId::kList:
      return list_ordinals(array, ListSpans<int32_t>{data.values<int32_t>(1)},
                           ListArray(array).values(), allocator);
    case TypeId::kLargeList:
      return list_ordinals(array, ListSpans<int64_t>{data.values<int64_t>(1)},
                           LargeListArray(array).values(), allocator);
    case TypeId::kListView:
      return list_ordinals(array,
                           ListViewSpans<int32_t>{data.values<int32_t>(1), data.values<int32_t>(2)},
                           ListViewArray(array).values(), allocator);
    case TypeId::kLargeListView:
      return list_ordinals(array,
                           ListViewSpans<int64_t>{data.values<int64_t>(1), data.values<int64_t>(2)},
                           LargeListViewArray(array).values(), allocator);
    case TypeId::kFixedSizeList: {
      const FixedSizeListArray view(array);
      return list_ordinals(array, FixedSizeSpans{data.offset, view.list_size()}, view.values(),
                           allocator);
    }
    case TypeId::kMap:
      // Spark cannot order maps, not even inside a struct or an array.
      throw TypeError("sort_indices: cannot sort values of type " + array.type()->to_string());
    case TypeId::kExtension: {
      const Array storage = ExtensionArray(array).storage();
      if (is_nested_orderable(storage.type_id())) {
        return ordinal_keys(storage, allocator);
      }
      break;
    }
    default:
      break;
  }
  std::vector<bool> valid;
  ScratchVector<uint64_t> ordinals = value_ranks(array, valid, allocator);
  for (size_t i = 0; i < ordinals.size(); ++i) {
    ordinals[i] = valid[i] ? ordinals[i] + 1 : 0;
  }
  return ordinals;
}

/// A struct or list key as a number column of its values' ordinals. Descending complements
/// them, which reverses the whole comparison, nulls inside the values included, as Spark's
/// descending order does; only the key's own nulls follow `nulls_first`.
std::unique_ptr<SortColumn> make_nested_column(const Array& array, SortKey order,
                                               Allocator* allocator) {
  ScratchVector<uint64_t> keys = ordinal_keys(array, allocator);
  if (!order.ascending) {
    for (uint64_t& key : keys) {
      key = ~key;
    }
  }
  return std::make_unique<NumberColumn>(array.data(), order, std::move(keys));
}

std::unique_ptr<SortColumn> make_column(const Array& array, SortKey order, Allocator* allocator) {
  const ArrayDataPtr& data_ptr = array.data();
  const ArrayData& data = *data_ptr;
  const TypeId id = array.type_id();
  if (has_number_key(*array.type())) {
    ScratchVector<uint64_t> keys{StlAllocator<uint64_t>(allocator)};
    number_keys(data, !order.ascending, keys);
    return std::make_unique<NumberColumn>(data_ptr, order, std::move(keys));
  }
  if (is_nested_orderable(id)) {
    return make_nested_column(array, order, allocator);
  }
  switch (id) {
    case TypeId::kNull:
      return std::make_unique<NumberColumn>(
          data_ptr, order, ScratchVector<uint64_t>(StlAllocator<uint64_t>(allocator)));
    case TypeId::kString:
    case TypeId::kBinary:
      return std::make_unique<ComparedColumn<StringSource<BinaryArray>>>(
          data_ptr, order, StringSource<BinaryArray>{BinaryArray(array)}, allocator);
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      return std::make_unique<ComparedColumn<StringSource<LargeBinaryArray>>>(
          data_ptr, order, StringSource<LargeBinaryArray>{LargeBinaryArray(array)}, allocator);
    case TypeId::kStringView:
    case TypeId::kBinaryView:
      return std::make_unique<ComparedColumn<StringSource<BinaryViewArray>>>(
          data_ptr, order, StringSource<BinaryViewArray>{BinaryViewArray(array)}, allocator);
    case TypeId::kFixedSizeBinary:
      return std::make_unique<ComparedColumn<StringSource<FixedSizeBinaryArray>>>(
          data_ptr, order, StringSource<FixedSizeBinaryArray>{FixedSizeBinaryArray(array)},
          allocator);
    case TypeId::kDecimal128:
      return std::make_unique<ComparedColumn<WideSource<2>>>(
          data_ptr, order, WideSource<2>{data.buffers[1]->data_as<uint64_t>() + 2 * data.offset},
          allocator);
    case TypeId::kDecimal256:
      return std::make_unique<ComparedColumn<WideSource<4>>>(
          data_ptr, order, WideSource<4>{data.buffers[1]->data_as<uint64_t>() + 4 * data.offset},
          allocator);
    case TypeId::kDictionary:
      return make_dictionary_column(array, order, allocator);
    case TypeId::kExtension:
      return make_column(ExtensionArray(array).storage(), order, allocator);
    case TypeId::kRunEndEncoded: {
      // Expanded to one value per row: sorting reads every row's value anyway.
      const RunEndEncodedArray view(array);
      ScratchVector<int64_t> physical(static_cast<size_t>(array.length()),
                                      StlAllocator<int64_t>(allocator));
      for (int64_t i = 0; i < array.length(); ++i) {
        physical[static_cast<size_t>(i)] = view.physical_index(i);
      }
      // The expanded array must outlive the column, which keeps pointers into it.
      return make_column(take(view.values(), std::span<const int64_t>(physical), allocator), order,
                         allocator);
    }
    default:
      throw TypeError("sort_indices: cannot sort values of type " + array.type()->to_string());
  }
}

// --- the sort driver ---------------------------------------------------------------------------

/// Sorts `count` rows (ascending row order) by columns[k], then ties by the following columns.
void sort_rows(std::span<const std::unique_ptr<SortColumn>> columns, size_t k, uint64_t* rows,
               int64_t count, Allocator* allocator) {
  SortColumn& column = *columns[k];
  const bool more = k + 1 < columns.size();
  int64_t null_count = 0;
  uint64_t* values = rows;
  uint64_t* nulls = rows;
  if (column.has_nulls()) {
    ScratchVector<uint64_t> null_rows{StlAllocator<uint64_t>(allocator)};
    int64_t kept = 0;
    for (int64_t i = 0; i < count; ++i) {
      if (column.is_null(rows[i])) {
        null_rows.push_back(rows[i]);
      } else {
        rows[kept++] = rows[i];
      }
    }
    null_count = static_cast<int64_t>(null_rows.size());
    if (column.nulls_first()) {
      std::move_backward(rows, rows + kept, rows + count);
      std::copy(null_rows.begin(), null_rows.end(), rows);
      values = rows + null_count;
    } else {
      std::copy(null_rows.begin(), null_rows.end(), rows + kept);
      nulls = rows + kept;
    }
  }
  const int64_t value_count = count - null_count;
  ScratchVector<int64_t> run_starts{StlAllocator<int64_t>(allocator)};
  column.sort_values(values, value_count, more ? &run_starts : nullptr);
  if (!more) {
    return;
  }
  const size_t after_nulls = k + 1 + column.null_skip();
  if (null_count > 1 && after_nulls < columns.size()) {
    sort_rows(columns, after_nulls, nulls, null_count, allocator);
  }
  int64_t start = 0;
  run_starts.push_back(value_count);
  for (const int64_t end : run_starts) {
    if (end - start > 1) {
      sort_rows(columns, k + 1, values + start, end - start, allocator);
    }
    start = end;
  }
}

/// Appends the columns of one key. A struct key becomes a column of its own nulls (when it has
/// any) and the columns of its fields, each ascending or descending with the key and with its
/// nulls smallest, so that a struct sorts as a multi-key sort, with runs of ties passed on from
/// field to field; structs in structs expand the same way.
void append_columns(const Array& array, SortKey order, Allocator* allocator,
                    std::vector<std::unique_ptr<SortColumn>>& columns) {
  if (array.type_id() == TypeId::kExtension) {
    const Array storage = ExtensionArray(array).storage();
    if (storage.type_id() == TypeId::kStruct) {
      return append_columns(storage, order, allocator, columns);
    }
  }
  if (array.type_id() != TypeId::kStruct) {
    columns.push_back(make_column(array, order, allocator));
    return;
  }
  const StructArray view(array);
  auto validity = std::make_unique<ValidityColumn>(array.data(), order, allocator);
  const size_t validity_index = columns.size();
  const bool keep_validity = validity->has_nulls() || view.num_fields() == 0;
  if (keep_validity) {
    columns.push_back(std::move(validity));
  }
  for (int i = 0; i < view.num_fields(); ++i) {
    append_columns(view.field(i), SortKey{order.ascending, std::nullopt}, allocator, columns);
  }
  if (keep_validity) {
    columns[validity_index]->set_null_skip(columns.size() - validity_index - 1);
  }
}

std::vector<std::unique_ptr<SortColumn>> prepare(std::span<const Array> keys,
                                                 std::span<const SortKey> order,
                                                 const char* function, Allocator* allocator) {
  if (keys.empty()) {
    throw InvalidArgument(std::string(function) + ": at least one sort key is needed");
  }
  if (order.size() != keys.size()) {
    throw InvalidArgument(std::string(function) + ": " + std::to_string(keys.size()) +
                          " sort keys but " + std::to_string(order.size()) + " orders");
  }
  std::vector<std::unique_ptr<SortColumn>> columns;
  for (size_t k = 0; k < keys.size(); ++k) {
    if (keys[k].length() != keys[0].length()) {
      throw InvalidArgument(std::string(function) + ": sort key " + std::to_string(k) + " has " +
                            std::to_string(keys[k].length()) + " rows but key 0 has " +
                            std::to_string(keys[0].length()));
    }
    try {
      append_columns(keys[k], order[k], allocator, columns);
    } catch (const TypeError&) {
      // Name the key's whole type, not only the field that cannot be ordered.
      throw TypeError(std::string(function) + ": cannot sort values of type " +
                      keys[k].type()->to_string());
    }
  }
  return columns;
}

Array indices_array(const uint64_t* rows, int64_t count, Allocator* allocator) {
  MutableBuffer buffer(count * 8, allocator);
  if (count > 0) {
    std::memcpy(buffer.mutable_data(), rows, static_cast<size_t>(count * 8));
  }
  return Array(std::make_shared<ArrayData>(
      uint64(), count, std::vector<std::shared_ptr<Buffer>>{nullptr, buffer.finish()}, 0));
}

}  // namespace

Array sort_indices(std::span<const Array> keys, std::span<const SortKey> order,
                   Allocator* allocator) {
  const std::vector<std::unique_ptr<SortColumn>> columns =
      prepare(keys, order, "sort_indices", allocator);
  const int64_t length = keys[0].length();
  MutableBuffer buffer(length * 8, allocator);
  auto* rows = reinterpret_cast<uint64_t*>(buffer.mutable_data());
  for (int64_t i = 0; i < length; ++i) {
    rows[i] = static_cast<uint64_t>(i);
  }
  sort_rows(columns, 0, rows, length, allocator);
  return Array(std::make_shared<ArrayData>(
      uint64(), length, std::vector<std::shared_ptr<Buffer>>{nullptr, buffer.finish()}, 0));
}

Array sort_indices(const Array& key, SortKey order, Allocator* allocator) {
  return sort_indices(std::span<const Array>(&key, 1), std::span<const SortKey>(&order, 1),
                      allocator);
}

Array top_n(std::span<const Array> keys, std::span<const SortKey> order, int64_t n,
            Allocator* allocator) {
  if (n < 0) {
    throw InvalidArgument("top_n: n must not be negative, got " + std::to_string(n));
  }
  const std::vector<std::unique_ptr<SortColumn>> columns = prepare(keys, order, "top_n", allocator);
  const int64_t length = keys[0].length();
  n = std::min(n, length);
  // Candidates: the rows the first key puts among the first n, with every row tying with the
  // n-th; only they are sorted by all keys.
  SortColumn& first = *columns[0];
  ScratchVector<uint64_t> null_rows{StlAllocator<uint64_t>(allocator)};
  ScratchVector<uint64_t> value_rows{StlAllocator<uint64_t>(allocator)};
  for (int64_t i = 0; i < length; ++i) {
    (first.is_null(static_cast<uint64_t>(i)) ? null_rows : value_rows)
        .push_back(static_cast<uint64_t>(i));
  }
  const auto null_count = static_cast<int64_t>(null_rows.size());
  ScratchVector<uint64_t> candidates{StlAllocator<uint64_t>(allocator)};
  int64_t wanted_values = n;
  if (first.nulls_first()) {
    candidates = null_rows;
    wanted_values = std::max<int64_t>(0, n - null_count);
  }
  if (wanted_values > 0) {
    const auto value_count = static_cast<int64_t>(value_rows.size());
    const int64_t kept = wanted_values >= value_count
                             ? value_count
                             : first.select_first(value_rows.data(), value_count, wanted_values);
    candidates.insert(candidates.end(), value_rows.begin(), value_rows.begin() + kept);
    if (!first.nulls_first() && kept < n) {
      candidates.insert(candidates.end(), null_rows.begin(), null_rows.end());
    }
  }
  std::sort(candidates.begin(), candidates.end());
  sort_rows(columns, 0, candidates.data(), static_cast<int64_t>(candidates.size()), allocator);
  return indices_array(candidates.data(), std::min<int64_t>(n, std::ssize(candidates)), allocator);
}

}  // namespace bowstring::compute
