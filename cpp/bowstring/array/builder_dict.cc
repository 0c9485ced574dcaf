#include "bowstring/array/builder_dict.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace bowstring {

namespace {

uint64_t load_bytes(const char* p, size_t n) {
  uint64_t word = 0;
  std::memcpy(&word, p, n);
  return word;
}

/// A fast 64-bit hash of a byte string: 8-byte words mixed by multiplication and rotation,
/// then a final avalanche so that low bits (the table index) depend on every input bit.
uint64_t hash_bytes(std::string_view bytes) {
  constexpr uint64_t kMul1 = 0x9E3779B97F4A7C15ull;
  constexpr uint64_t kMul2 = 0xC2B2AE3D27D4EB4Full;
  const char* p = bytes.data();
  size_t n = bytes.size();
  uint64_t h = (n + 1) * kMul1;
  for (; n >= 8; p += 8, n -= 8) {
    h = std::rotl(h ^ (load_bytes(p, 8) * kMul2), 31) * kMul1;
  }
  if (n > 0) {
    h = std::rotl(h ^ (load_bytes(p, n) * kMul2), 31) * kMul1;
  }
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 33;
  return h;
}

}  // namespace

/// The distinct values of a dictionary (their bytes) and their indices, in an open-addressing
/// hash table with linear probing, kept at most half full.
class DictionaryMemo {
 public:
  explicit DictionaryMemo(Allocator* allocator)
      : slots_(allocator), bytes_(allocator), ends_(allocator), indices_(allocator) {}

  struct Probe {
    uint64_t hash;
    int64_t slot;
  };

  /// The index of `value`, or -1 with where to insert it in `probe`.
  int64_t find(std::string_view value, Probe* probe) {
    if (slots_.length() == 0) {
      rehash(kInitialSlots);
    }
    const uint64_t hash = hash_bytes(value);
    const auto mask = static_cast<uint64_t>(slots_.length() - 1);
    for (uint64_t pos = hash & mask;; pos = (pos + 1) & mask) {
      const Slot& slot = slots_[static_cast<int64_t>(pos)];
      if (slot.entry == 0) {
        *probe = {hash, static_cast<int64_t>(pos)};
        return -1;
      }
      if (slot.hash == hash && entry_bytes(slot.entry - 1) == value) {
        return indices_[slot.entry - 1];
      }
    }
  }

  /// Adds `value` with `index` where `find` said.
  void insert(std::string_view value, const Probe& probe, int64_t index) {
    bytes_.append(value.data(), static_cast<int64_t>(value.size()));
    ends_.append(bytes_.size());
    indices_.append(index);
    slots_[probe.slot] = {probe.hash, indices_.length()};
    if (indices_.length() * 2 > slots_.length()) {
      rehash(slots_.length() * 2);
    }
  }

  void clear() {
    slots_.reset();
    bytes_.reset();
    ends_.reset();
    indices_.reset();
  }

 private:
  static constexpr int64_t kInitialSlots = 64;

  struct Slot {
    uint64_t hash;
    int64_t entry;  // 1 + the entry's number; 0 for an empty slot
  };

  std::string_view entry_bytes(int64_t entry) const {
    const int64_t begin = entry == 0 ? 0 : ends_[entry - 1];
    return {reinterpret_cast<const char*>(bytes_.data()) + begin,
            static_cast<size_t>(ends_[entry] - begin)};
  }

  void rehash(int64_t slot_count) {
    TypedBufferBuilder<Slot> slots(slots_.allocator());
    slots.resize(slot_count);
    const auto mask = static_cast<uint64_t>(slot_count - 1);
    for (int64_t i = 0; i < slots_.length(); ++i) {
      const Slot& slot = slots_[i];
      if (slot.entry != 0) {
        uint64_t pos = slot.hash & mask;
        while (slots[static_cast<int64_t>(pos)].entry != 0) {
          pos = (pos + 1) & mask;
        }
        slots[static_cast<int64_t>(pos)] = slot;
      }
    }
    slots_ = std::move(slots);
  }

  TypedBufferBuilder<Slot> slots_;
  BufferBuilder bytes_;
  TypedBufferBuilder<int64_t> ends_;     // where each entry's bytes end
  TypedBufferBuilder<int64_t> indices_;  // each entry's dictionary index
};

namespace {

int64_t max_index_of(const DataType& index_type) {
  const int bits = index_type.bit_width();
  if (index_type.is_signed_integer() || bits == 64) {
    return bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
  }
  return (int64_t{1} << bits) - 1;
}

}  // namespace

DictionaryBuilder::DictionaryBuilder(TypePtr type, Allocator* allocator)
    : ArrayBuilder(checked_builder_type(std::move(type), TypeId::kDictionary, "DictionaryBuilder"),
                   allocator),
      index_width_(dictionary_type().index_type()->byte_width()),
      max_index_(max_index_of(*dictionary_type().index_type())),
      kind_(scalar_kind(*dictionary_type().value_type())),
      value_width_(dictionary_type().value_type()->byte_width()),
      value_id_(dictionary_type().value_type()->id()),
      indices_(allocator),
      values_(make_builder(dictionary_type().value_type(), allocator)) {
  if (kind_ != ScalarKind::kUnsupported) {
    appender_ = std::make_unique<ScalarAppender>(*values_, "DictionaryBuilder");
    memo_ = std::make_unique<DictionaryMemo>(allocator);
  }
}

DictionaryBuilder::DictionaryBuilder(TypePtr type, const Array& dictionary, Allocator* allocator)
    : DictionaryBuilder(std::move(type), allocator) {
  if (!dictionary) {
    throw InvalidArgument("a DictionaryBuilder with a fixed dictionary needs the dictionary");
  }
  if (!dictionary.type()->equals(*dictionary_type().value_type())) {
    throw TypeError("the dictionary of a " + type_->to_string() + " builder must be of " +
                    dictionary_type().value_type()->to_string() + ", not " +
                    dictionary.type()->to_string());
  }
  fixed_dictionary_ = dictionary.data();
}

DictionaryBuilder::~DictionaryBuilder() = default;

int64_t DictionaryBuilder::dictionary_length() const {
  return fixed_dictionary_ != nullptr ? fixed_dictionary_->length : values_->length();
}

void DictionaryBuilder::write_index(int64_t index) {
  switch (index_width_) {
    case 1: {
      const auto narrow = static_cast<uint8_t>(index);
      indices_.append(&narrow, 1);
      break;
    }
    case 2: {
      const auto narrow = static_cast<uint16_t>(index);
      indices_.append(&narrow, 2);
      break;
    }
    case 4: {
      const auto narrow = static_cast<uint32_t>(index);
      indices_.append(&narrow, 4);
      break;
    }
    default:
      indices_.append(&index, 8);
      break;
  }
}

void DictionaryBuilder::write_indices(int64_t index, int64_t count) {
  if (index == 0) {
    indices_.append_fill(count * index_width_, 0);
    return;
  }
  indices_.reserve(count * index_width_);
  for (int64_t i = 0; i < count; ++i) {
    write_index(index);
  }
}

namespace {

/// All NaNs of a float type as one value: the bytes of the type's canonical quiet NaN.
std::string_view canonical_nan(TypeId id, std::string_view bytes) {
  static constexpr uint16_t kHalfNan = 0x7E00;
  static constexpr uint32_t kFloatNan = 0x7FC00000u;
  static constexpr uint64_t kDoubleNan = 0x7FF8000000000000ull;
  switch (id) {
    case TypeId::kFloat16: {
      uint16_t bits;
      std::memcpy(&bits, bytes.data(), sizeof(bits));
      return (bits & 0x7FFF) > 0x7C00 ? scalar_value_bytes(kHalfNan) : bytes;
    }
    case TypeId::kFloat32: {
      float value;
      std::memcpy(&value, bytes.data(), sizeof(value));
      return std::isnan(value) ? scalar_value_bytes(kFloatNan) : bytes;
    }
    case TypeId::kFloat64: {
      double value;
      std::memcpy(&value, bytes.data(), sizeof(value));
      return std::isnan(value) ? scalar_value_bytes(kDoubleNan) : bytes;
    }
    default:
      return bytes;
  }
}

}  // namespace

void DictionaryBuilder::seed_memo() {
  // The fixed dictionary's first occurrence of each value is the index that value appends.
  const ArrayData& dictionary = *fixed_dictionary_;
  for (int64_t i = 0; i < dictionary.length; ++i) {
    if (!dictionary.is_null_in_bitmap(i)) {
      const std::string_view bytes = canonical_nan(value_id_, scalar_bytes(dictionary, i));
      DictionaryMemo::Probe probe{};
      if (memo_->find(bytes, &probe) < 0) {
        memo_->insert(bytes, probe, i);
      }
    }
  }
  memo_seeded_ = true;
}

int64_t DictionaryBuilder::index_of(std::string_view bytes) {
  bytes = canonical_nan(value_id_, bytes);
  if (fixed_dictionary_ != nullptr && !memo_seeded_) {
    seed_memo();
  }
  DictionaryMemo::Probe probe{};
  const int64_t found = memo_->find(bytes, &probe);
  if (found >= 0) {
    if (found > max_index_) [[unlikely]] {
      throw_bad_index(found);
    }
    return found;
  }
  if (fixed_dictionary_ != nullptr) {
    throw InvalidArgument("the value appended to a " + type_->to_string() +
                          " builder is not in its fixed dictionary of " +
                          std::to_string(fixed_dictionary_->length) + " values");
  }
  const int64_t index = values_->length();
  if (index > max_index_) {
    throw InvalidArgument("a " + type_->to_string() + " builder cannot add a dictionary value " +
                          "past index " + std::to_string(max_index_) +
                          ", the largest its index type holds");
  }
  appender_->append(bytes);
  memo_->insert(bytes, probe, index);
  return index;
}

void DictionaryBuilder::append_bytes(std::string_view bytes, ScalarAppender::Source source) {
  if (appender_ == nullptr) {
    throw_unsupported();
  }
  appender_->check(bytes.size(), source);
  write_index(index_of(bytes));
  append_valid();
}

void DictionaryBuilder::append_array(const Array& values) {
  if (!values.type()->equals(*dictionary_type().value_type())) {
    throw TypeError("cannot dictionary-encode an array of " + values.type()->to_string() +
                    " with a " + type_->to_string() + " builder");
  }
  if (appender_ == nullptr) {
    throw_unsupported();
  }
  const ArrayData& data = *values.data();
  for (int64_t i = 0; i < data.length; ++i) {
    if (data.is_null_in_bitmap(i)) {
      append_null();
    } else {
      write_index(index_of(scalar_bytes(data, i)));
      append_valid();
    }
  }
}

void DictionaryBuilder::throw_unsupported() const {
  throw NotImplemented("a DictionaryBuilder cannot look values of " +
                       dictionary_type().value_type()->to_string() +
                       " up in its dictionary; append indices into a fixed dictionary instead");
}

void DictionaryBuilder::throw_bad_index(int64_t index) const {
  throw IndexError("dictionary index " + std::to_string(index) + " is outside the " +
                   std::to_string(dictionary_length()) + " values of the dictionary of a " +
                   type_->to_string() + " builder" +
                   (index > max_index_ ? " or its index type" : ""));
}

void DictionaryBuilder::append_index(int64_t index) {
  if (index < 0 || index >= dictionary_length() || index > max_index_) [[unlikely]] {
    throw_bad_index(index);
  }
  write_index(index);
  append_valid();
}

void DictionaryBuilder::append_indices(std::span<const int64_t> indices,
                                       const uint8_t* valid_bytes) {
  const int64_t limit = std::min(dictionary_length() - 1, max_index_);
  for (size_t i = 0; i < indices.size(); ++i) {
    if ((valid_bytes == nullptr || valid_bytes[i] != 0) && (indices[i] < 0 || indices[i] > limit)) {
      throw_bad_index(indices[i]);
    }
  }
  const auto count = static_cast<int64_t>(indices.size());
  append_validity_bytes(valid_bytes, count);
  indices_.reserve(count * index_width_);
  for (size_t i = 0; i < indices.size(); ++i) {
    write_index(valid_bytes == nullptr || valid_bytes[i] != 0 ? indices[i] : 0);
  }
}

void DictionaryBuilder::append_null() {
  append_null_slots(1);
  write_index(0);
}

void DictionaryBuilder::append_nulls(int64_t count) {
  append_null_slots(count);
  write_indices(0, count);
}

void DictionaryBuilder::append_empty_value() { append_empty_values(1); }

void DictionaryBuilder::append_empty_values(int64_t count) {
  if (count > 0 && dictionary_length() == 0) {
    if (fixed_dictionary_ != nullptr || appender_ == nullptr) {
      throw InvalidArgument("a " + type_->to_string() +
                            " builder has no dictionary value to use as a placeholder");
    }
    // The placeholder of the value type (0, "", false, zero bytes) becomes dictionary value 0.
    const int64_t placeholder_size = kind_ == ScalarKind::kBinary    ? 0
                                     : kind_ == ScalarKind::kBoolean ? 1
                                                                     : value_width_;
    index_of(std::string(static_cast<size_t>(placeholder_size), '\0'));
  }
  write_indices(0, count);
  append_valid(count);
}

void DictionaryBuilder::reserve(int64_t additional) {
  indices_.reserve(additional * index_width_);
  reserve_validity(additional);
}

void DictionaryBuilder::reset() {
  ArrayBuilder::reset();
  indices_.reset();
  values_->reset();
  if (memo_ != nullptr && fixed_dictionary_ == nullptr) {
    memo_->clear();
  }
}

void DictionaryBuilder::prepare_finish() {
  if (fixed_dictionary_ == nullptr) {
    prepare_child(*values_);
  }
}

ArrayDataPtr DictionaryBuilder::finish_impl() {
  std::shared_ptr<Buffer> validity = finish_validity();
  std::shared_ptr<Buffer> indices = indices_.finish();
  ArrayDataPtr dictionary = fixed_dictionary_;
  if (dictionary == nullptr) {
    dictionary = finish_child(*values_);
    if (memo_ != nullptr) {
      memo_->clear();
    }
  }
  return std::make_shared<ArrayData>(
      type_, length_, std::vector<std::shared_ptr<Buffer>>{std::move(validity), std::move(indices)},
      null_count_, 0, std::vector<ArrayDataPtr>{}, std::move(dictionary));
}

}  // namespace bowstring
