#include "bowstring/compute/scalar/string_util.h"

#include <algorithm>
#include <array>
#include <vector>

#include "bowstring/array/builder.h"
#include "bowstring/compute/core/kernel_util.h"

namespace bowstring::compute::strings {

int64_t count_chars(const uint8_t* bytes, int64_t size) {
  int64_t chars = 0;
  int64_t i = 0;
  while (i < size) {
    // ASCII runs go eight bytes at a time.
    uint64_t word;
    while (i + 8 <= size &&
           (std::memcpy(&word, bytes + i, sizeof(word)), (word & 0x8080808080808080ULL) == 0)) {
      i += 8;
      chars += 8;
    }
    if (i >= size) {
      break;
    }
    i += sequence_length(bytes[i]);
    ++chars;
  }
  return chars;
}

namespace {

// Lead bytes announcing at least two, three or four bytes (C2..F4, E0..F4, F0..F4).
inline uint8_t announces_two(uint8_t byte) { return static_cast<uint8_t>(byte - 0xC2) < 0x33; }
inline uint8_t announces_three(uint8_t byte) { return static_cast<uint8_t>(byte - 0xE0) < 0x15; }
inline uint8_t announces_four(uint8_t byte) { return static_cast<uint8_t>(byte - 0xF0) < 0x05; }

/// Whether one of the last three bytes announces a sequence longer than what is left.
inline bool runs_past_end(const uint8_t* bytes, int64_t size) {
  return (size >= 1 && announces_two(bytes[size - 1])) ||
         (size >= 2 && announces_three(bytes[size - 2])) ||
         (size >= 3 && announces_four(bytes[size - 3]));
}

}  // namespace

bool walk_is_regular(const uint8_t* bytes, int64_t size) {
  // A byte must continue a sequence exactly when one of the three before it announces a
  // sequence that reaches it.
  uint8_t irregular = 0;
  for (int64_t i = 0; i < std::min<int64_t>(size, 3); ++i) {
    const auto reached = static_cast<uint8_t>((i >= 1 && announces_two(bytes[i - 1])) ||
                                              (i >= 2 && announces_three(bytes[i - 2])));
    irregular |= reached ^ static_cast<uint8_t>(is_continuation(bytes[i]));
  }
  for (int64_t i = 3; i < size; ++i) {
    const uint8_t reached =
        announces_two(bytes[i - 1]) | announces_three(bytes[i - 2]) | announces_four(bytes[i - 3]);
    irregular |= reached ^ static_cast<uint8_t>((bytes[i] & 0xC0) == 0x80);
  }
  return irregular == 0 && !runs_past_end(bytes, size);
}

namespace {

/// Whether `byte` breaks UTF-8, given the byte before it and whether a lead byte before it
/// announces a sequence that reaches it: a continuation byte exactly where one is announced,
/// no byte that starts no sequence, a second byte within the range of its lead.
inline uint8_t breaks_utf8(uint8_t byte, uint8_t before, uint8_t reached) {
  return (reached ^ static_cast<uint8_t>((byte & 0xC0) == 0x80)) |
         static_cast<uint8_t>(byte >= 0xF5) | static_cast<uint8_t>((byte & 0xFE) == 0xC0) |
         (static_cast<uint8_t>(before == 0xE0) & static_cast<uint8_t>(byte < 0xA0)) |
         (static_cast<uint8_t>(before == 0xED) & static_cast<uint8_t>(byte > 0x9F)) |
         (static_cast<uint8_t>(before == 0xF0) & static_cast<uint8_t>(byte < 0x90)) |
         (static_cast<uint8_t>(before == 0xF4) & static_cast<uint8_t>(byte > 0x8F));
}

}  // namespace

bool is_valid_utf8(const uint8_t* bytes, int64_t size) {
  uint8_t invalid = 0;
  for (int64_t i = 0; i < std::min<int64_t>(size, 3); ++i) {
    const auto reached = static_cast<uint8_t>((i >= 1 && announces_two(bytes[i - 1])) ||
                                              (i >= 2 && announces_three(bytes[i - 2])));
    invalid |= breaks_utf8(bytes[i], i >= 1 ? bytes[i - 1] : 0, reached);
  }
  // Bitwise operators only, for the loop to vectorize.
  for (int64_t i = 3; i < size; ++i) {
    const uint8_t before = bytes[i - 1];
    const uint8_t reached =
        announces_two(before) | announces_three(bytes[i - 2]) | announces_four(bytes[i - 3]);
    invalid |= breaks_utf8(bytes[i], before, reached);
  }
  return invalid == 0 && !runs_past_end(bytes, size);
}

void append_replacing_malformed(std::string_view text, std::string& out) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const uint8_t* end = p + text.size();
  uint8_t bytes[4];
  while (p < end) {
    const int n = encode(decode(&p, end), bytes);
    out.append(reinterpret_cast<const char*>(bytes), static_cast<size_t>(n));
  }
}

int64_t char_offset(std::string_view text, int64_t n) {
  const auto* begin = reinterpret_cast<const uint8_t*>(text.data());
  const uint8_t* p = begin;
  const uint8_t* end = begin + text.size();
  for (; n > 0 && p < end; --n) {
    p += sequence_length(*p);
  }
  return std::min<int64_t>(p - begin, static_cast<int64_t>(text.size()));
}

bool is_ascii(const uint8_t* bytes, int64_t size) {
  int64_t i = 0;
  uint64_t high = 0;
  // Blocks of 64 bytes, so that non-ASCII text is recognized early.
  for (; i + 64 <= size; i += 64) {
    for (int k = 0; k < 64; k += 8) {
      uint64_t word;
      std::memcpy(&word, bytes + i + k, sizeof(word));
      high |= word;
    }
    if ((high & 0x8080808080808080ULL) != 0) {
      return false;
    }
  }
  for (; i + 8 <= size; i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes + i, sizeof(word));
    high |= word;
  }
  for (; i < size; ++i) {
    high |= bytes[i];
  }
  return (high & 0x8080808080808080ULL) == 0;
}

namespace {

#include "bowstring/compute/scalar/case_tables.inc"

/// The full mapping of `cp` in `table` (sorted by code point), or nullptr.
const CaseMapping* find_mapping(std::span<const CaseMapping> table, char32_t cp) {
  const auto found = std::lower_bound(
      table.begin(), table.end(), cp,
      [](const CaseMapping& entry, char32_t key) { return entry.code_point < key; });
  return found != table.end() && found->code_point == cp ? &*found : nullptr;
}

bool in_ranges(std::span<const CodePointRange> ranges, char32_t cp) {
  const auto found =
      std::upper_bound(ranges.begin(), ranges.end(), cp,
                       [](char32_t key, const CodePointRange& range) { return key < range.first; });
  return found != ranges.begin() && cp <= (found - 1)->last;
}

int write_mapping(const CaseMapping& mapping, uint8_t* out) {
  int written = 0;
  for (const char32_t mapped : mapping.mapped) {
    if (mapped == 0) {
      break;
    }
    written += encode(mapped, out + written);
  }
  return written;
}

/// The BMP blocks of one direction, built once from its table.
struct BuiltCaseMap {
  CaseMap map{};
  std::vector<std::array<uint16_t, 256>> blocks;

  BuiltCaseMap(std::span<const CaseMapping> table, bool lower) {
    std::array<int, 256> block_of;
    block_of.fill(-1);
    for (const CaseMapping& entry : table) {
      const char32_t high = entry.code_point >> 8;
      if (entry.code_point >= 0x10000 || block_of[high] >= 0) {
        continue;
      }
      block_of[high] = static_cast<int>(blocks.size());
      std::array<uint16_t, 256>& block = blocks.emplace_back();
      for (int k = 0; k < 256; ++k) {
        block[k] = static_cast<uint16_t>((high << 8) | k);
      }
    }
    for (const CaseMapping& entry : table) {
      if (entry.code_point >= 0x10000) {
        continue;
      }
      const bool simple = entry.mapped[1] == 0 && entry.mapped[0] < 0x10000;
      blocks[block_of[entry.code_point >> 8]][entry.code_point & 0xFF] =
          simple ? static_cast<uint16_t>(entry.mapped[0]) : kSpecialCase;
    }
    if (lower) {
      // Σ lowers to ς at the end of a word.
      blocks[block_of[0x3]][0xA3] = kSpecialCase;
    }
    for (int high = 0; high < 256; ++high) {
      map.blocks[high] = block_of[high] >= 0 ? blocks[block_of[high]].data() : nullptr;
    }
    for (char32_t cp = 0; cp < 0x800; ++cp) {
      const uint16_t* block = map.blocks[cp >> 8];
      map.two_byte[cp] = block != nullptr ? block[cp & 0xFF] : static_cast<uint16_t>(cp);
    }
  }
};

/// The two properties of the code points below U+0800 (bit 0: cased, bit 1: case-ignorable),
/// the others looked up in the ranges.
const std::array<uint8_t, 0x800>& small_case_kinds() {
  static const std::array<uint8_t, 0x800> kinds = [] {
    std::array<uint8_t, 0x800> built{};
    for (char32_t cp = 0; cp < 0x800; ++cp) {
      built[cp] = static_cast<uint8_t>(in_ranges(kCasedRanges, cp) |
                                       (in_ranges(kCaseIgnorableRanges, cp) << 1));
    }
    return built;
  }();
  return kinds;
}

bool is_cased(char32_t cp) {
  return cp < 0x800 ? (small_case_kinds()[cp] & 1) != 0 : in_ranges(kCasedRanges, cp);
}
bool is_case_ignorable(char32_t cp) {
  return cp < 0x800 ? (small_case_kinds()[cp] & 2) != 0 : in_ranges(kCaseIgnorableRanges, cp);
}

}  // namespace

const CaseMap& case_map(bool upper) {
  static const BuiltCaseMap kUpper(kUpperMappings, false);
  static const BuiltCaseMap kLower(kLowerMappings, true);
  return upper ? kUpper.map : kLower.map;
}

int write_full_case(char32_t cp, bool upper, uint8_t* out) {
  const CaseMapping* mapping = find_mapping(upper ? std::span<const CaseMapping>(kUpperMappings)
                                                  : std::span<const CaseMapping>(kLowerMappings),
                                            cp);
  return mapping != nullptr ? write_mapping(*mapping, out) : encode(cp, out);
}

int write_title_case(char32_t cp, uint8_t* out) {
  if (cp < 0x80) {
    out[0] = static_cast<uint8_t>(cp - 'a' < 26u ? cp - 32 : cp);
    return 1;
  }
  const CaseMapping* mapping = find_mapping(kTitleMappings, cp);
  return mapping != nullptr ? write_mapping(*mapping, out) : write_full_case(cp, true, out);
}

bool is_final_sigma(const uint8_t* begin, const uint8_t* at, const uint8_t* after,
                    const uint8_t* end) {
  bool cased_before = false;
  const uint8_t* p = at;
  while (p > begin) {
    const uint8_t* start = p - 1;
    while (start > begin && is_continuation(*start) && p - start < 4) {
      --start;
    }
    const uint8_t* next = start;
    const char32_t cp = decode(&next, p);
    p = start;
    if (!is_case_ignorable(cp)) {
      cased_before = is_cased(cp);
      break;
    }
  }
  if (!cased_before) {
    return false;
  }
  p = after;
  while (p < end) {
    const char32_t cp = decode(&p, end);
    if (!is_case_ignorable(cp)) {
      return !is_cased(cp);
    }
  }
  return true;
}

void append_lower(std::string_view text, std::string& out) {
  const size_t old_size = out.size();
  out.resize(old_size + 3 * text.size());
  const int64_t written = write_case<false>(
      case_map(false), reinterpret_cast<const uint8_t*>(text.data()),
      static_cast<int64_t>(text.size()), reinterpret_cast<uint8_t*>(out.data() + old_size));
  out.resize(old_size + static_cast<size_t>(written));
}

StringArg::StringArg(const Datum& datum) : scalar_(datum.is_scalar()) {
  const ArrayData& data = *datum.data();
  const TypeId id = data.type->id();
  large_ = id == TypeId::kLargeString || id == TypeId::kLargeBinary;
  if (!large_ && id != TypeId::kString && id != TypeId::kBinary) {
    throw TypeError("string kernel given an argument of type " + data.type->to_string());
  }
  validity_ = data.buffers[0] != nullptr ? data.buffers[0]->data() : nullptr;
  offset_ = data.offset;
  if (large_) {
    offsets64_ = data.values<int64_t>(1);
  } else {
    offsets32_ = data.values<int32_t>(1);
  }
  bytes_ = data.buffers[2] != nullptr ? data.buffers[2]->data() : nullptr;
}

IntArg::IntArg(const Datum& datum) : scalar_(datum.is_scalar()) {
  const ArrayData& data = *datum.data();
  switch (data.type->id()) {
    case TypeId::kInt8:
      width_ = 1;
      break;
    case TypeId::kInt16:
      width_ = 2;
      break;
    case TypeId::kInt32:
      width_ = 4;
      break;
    case TypeId::kInt64:
      width_ = 8;
      break;
    default:
      throw TypeError("string kernel given an integer argument of type " + data.type->to_string());
  }
  validity_ = data.buffers[0] != nullptr ? data.buffers[0]->data() : nullptr;
  offset_ = data.offset;
  values_ = data.buffers[1]->data();
}

StringOutput::StringOutput(TypePtr type, int64_t length, Allocator* allocator)
    : type_(std::move(type)),
      length_(length),
      offset_builder_(allocator),
      data_(allocator),
      validity_(allocator) {
  offset_builder_.resize(length + 1);
  offsets_ = offset_builder_.mutable_data();
}

void StringOutput::finish_null_row() {
  if (validity_.size() == 0) {
    validity_.resize(bit_util::bytes_for_bits(length_));
    bit_util::set_bits_to(validity_.mutable_data(), 0, length_, true);
  }
  bit_util::clear_bit(validity_.mutable_data(), row_);
  ++null_count_;
  finish_row();
}

void StringOutput::throw_too_large() const {
  // A runtime failure of the rows that make the array too large (a row of its own may be
  // as large as Spark's limit, which a JVM seldom has the memory for either).
  throw SparkRuntimeError("COLLECTION_SIZE_LIMIT_EXCEEDED",
                          "The result of a string function passes 2 GiB of " + type_->to_string() +
                              " data in one array.");
}

Datum StringOutput::finish(bool scalar) {
  std::shared_ptr<Buffer> validity = null_count_ > 0 ? validity_.finish() : nullptr;
  auto data = std::make_shared<ArrayData>(
      type_, length_,
      std::vector<std::shared_ptr<Buffer>>{std::move(validity), offset_builder_.finish(),
                                           data_.finish()},
      null_count_);
  Array array(std::move(data));
  return scalar ? Datum::scalar(std::move(array)) : Datum(std::move(array));
}

Datum all_null(const TypePtr& type, std::span<const Datum> arguments, Allocator* allocator) {
  const int64_t length = result_length(arguments);
  std::unique_ptr<ArrayBuilder> builder = make_builder(type, allocator);
  builder->append_nulls(length);
  Array array = builder->finish();
  return all_scalars(arguments) ? Datum::scalar(std::move(array)) : Datum(std::move(array));
}

}  // namespace bowstring::compute::strings
