#include "bowstring/compute/string_util.h"

#include <algorithm>

#include "bowstring/array/builder.h"
#include "bowstring/compute/kernel_util.h"

namespace bowstring::compute::strings {

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

/// In a block where upper and lower case alternate, whether `cp` is the lower one: the odd
/// code points when the block starts its pairs on an even one.
bool odd(char32_t cp) { return (cp & 1u) != 0; }

/// Latin Extended-B (U+0180..U+024F): the digraphs (DŽ Dž dž, LJ Lj lj, NJ Nj nj, DZ Dz dz), whose
/// title-case form upper-cases to the capital and lower-cases to the small one, and the blocks of
/// alternating pairs; the other letters of the block map to themselves.
bool digraph(char32_t cp) { return (cp >= 0x1C4 && cp <= 0x1CC) || (cp >= 0x1F1 && cp <= 0x1F3); }

/// The capital of a digraph triple: its first code point.
char32_t digraph_capital(char32_t cp) {
  return cp >= 0x1F1 ? 0x1F1 : 0x1C4 + 3 * ((cp - 0x1C4) / 3);
}

bool odd_pair_block(char32_t cp) { return cp >= 0x1CD && cp <= 0x1DC; }
bool even_pair_block(char32_t cp) {
  return (cp >= 0x1DE && cp <= 0x1EF) || cp == 0x1F4 || cp == 0x1F5 ||
         (cp >= 0x1F8 && cp <= 0x21F) || (cp >= 0x222 && cp <= 0x233);
}

char32_t latin_extended_b_upper(char32_t cp) {
  if (digraph(cp)) {
    return digraph_capital(cp);
  }
  if (odd_pair_block(cp) && !odd(cp)) {
    return cp - 1;
  }
  if (even_pair_block(cp) && odd(cp)) {
    return cp - 1;
  }
  return cp;
}

char32_t latin_extended_b_lower(char32_t cp) {
  if (digraph(cp)) {
    return digraph_capital(cp) + 2;
  }
  if (odd_pair_block(cp) && odd(cp)) {
    return cp + 1;
  }
  if (even_pair_block(cp) && !odd(cp)) {
    return cp + 1;
  }
  return cp;
}

}  // namespace

char32_t to_upper(char32_t cp) {
  if (cp < 0x80) {
    return cp - 'a' < 26u ? cp - 32 : cp;
  }
  if (cp < 0x100) {
    if ((cp >= 0xE0 && cp <= 0xFE && cp != 0xF7)) {
      return cp - 32;
    }
    if (cp == 0xFF) {
      return 0x178;
    }
    return cp == 0xB5 ? 0x39C : cp;
  }
  if (cp < 0x180) {
    if (cp == 0x131) {
      return 'I';
    }
    if (cp == 0x17F) {
      return 'S';
    }
    if ((cp < 0x130 || (cp >= 0x132 && cp <= 0x137) || (cp >= 0x14A && cp <= 0x177)) && odd(cp)) {
      return cp - 1;
    }
    if (((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E)) && !odd(cp)) {
      return cp - 1;
    }
    return cp;
  }
  if (cp < 0x250) {
    return latin_extended_b_upper(cp);
  }
  if (cp >= 0x370 && cp < 0x400) {
    if ((cp >= 0x3B1 && cp <= 0x3CB)) {
      return cp == 0x3C2 ? 0x3A3 : cp - 32;
    }
    if (cp == 0x3AC) {
      return 0x386;
    }
    if (cp >= 0x3AD && cp <= 0x3AF) {
      return cp - 37;
    }
    if (cp == 0x3CC) {
      return 0x38C;
    }
    if (cp == 0x3CD || cp == 0x3CE) {
      return cp - 63;
    }
    return cp;
  }
  if (cp >= 0x400 && cp < 0x530) {
    if (cp >= 0x430 && cp <= 0x44F) {
      return cp - 32;
    }
    if (cp >= 0x450 && cp <= 0x45F) {
      return cp - 80;
    }
    if (((cp >= 0x460 && cp <= 0x481) || (cp >= 0x48A && cp <= 0x4BF) || cp >= 0x4D0) && odd(cp)) {
      return cp - 1;
    }
    if (cp >= 0x4C2 && cp <= 0x4CE && !odd(cp)) {
      return cp - 1;
    }
    return cp == 0x4CF ? 0x4C0 : cp;
  }
  if (cp >= 0x561 && cp <= 0x586) {
    return cp - 48;
  }
  if (cp >= 0x1E00 && cp <= 0x1EFF) {
    return ((cp <= 0x1E95 || cp >= 0x1EA0) && odd(cp)) ? cp - 1 : cp;
  }
  if (cp >= 0xFF41 && cp <= 0xFF5A) {
    return cp - 32;
  }
  return cp;
}

char32_t to_lower(char32_t cp) {
  if (cp < 0x80) {
    return cp - 'A' < 26u ? cp + 32 : cp;
  }
  if (cp < 0x100) {
    return (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) ? cp + 32 : cp;
  }
  if (cp < 0x180) {
    if (cp == 0x130) {
      return 'i';
    }
    if (cp == 0x178) {
      return 0xFF;
    }
    if ((cp < 0x130 || (cp >= 0x132 && cp <= 0x137) || (cp >= 0x14A && cp <= 0x177)) && !odd(cp)) {
      return cp + 1;
    }
    if (((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E)) && odd(cp)) {
      return cp + 1;
    }
    return cp;
  }
  if (cp < 0x250) {
    return latin_extended_b_lower(cp);
  }
  if (cp >= 0x370 && cp < 0x400) {
    if (cp >= 0x391 && cp <= 0x3AB && cp != 0x3A2) {
      return cp + 32;
    }
    if (cp == 0x386) {
      return 0x3AC;
    }
    if (cp >= 0x388 && cp <= 0x38A) {
      return cp + 37;
    }
    if (cp == 0x38C) {
      return 0x3CC;
    }
    if (cp == 0x38E || cp == 0x38F) {
      return cp + 63;
    }
    return cp;
  }
  if (cp >= 0x400 && cp < 0x530) {
    if (cp <= 0x40F) {
      return cp + 80;
    }
    if (cp <= 0x42F) {
      return cp + 32;
    }
    if (((cp >= 0x460 && cp <= 0x481) || (cp >= 0x48A && cp <= 0x4BF) || cp >= 0x4D0) && !odd(cp)) {
      return cp + 1;
    }
    if (cp >= 0x4C1 && cp <= 0x4CE && odd(cp)) {
      return cp + 1;
    }
    return cp == 0x4C0 ? 0x4CF : cp;
  }
  if (cp >= 0x531 && cp <= 0x556) {
    return cp + 48;
  }
  if (cp >= 0x1E00 && cp <= 0x1EFF) {
    if (cp == 0x1E9E) {
      return 0xDF;
    }
    return ((cp <= 0x1E95 || cp >= 0x1EA0) && !odd(cp)) ? cp + 1 : cp;
  }
  if (cp >= 0xFF21 && cp <= 0xFF3A) {
    return cp + 32;
  }
  return cp;
}

namespace {

/// Writes `text` (UTF-8) at `out`; returns its size.
int64_t write_literal(std::string_view text, uint8_t* out) {
  std::memcpy(out, text.data(), text.size());
  return static_cast<int64_t>(text.size());
}

}  // namespace

const uint16_t* two_byte_case_table(bool upper) {
  struct Tables {
    uint16_t upper[0x800];
    uint16_t lower[0x800];
  };
  static const Tables tables = [] {
    Tables built{};
    for (char32_t cp = 0; cp < 0x800; ++cp) {
      built.upper[cp] = static_cast<uint16_t>(to_upper(cp));
      built.lower[cp] = static_cast<uint16_t>(to_lower(cp));
    }
    built.upper[0xDF] = built.upper[0x149] = built.upper[0x390] = built.upper[0x3B0] = kSpecialCase;
    built.lower[0x130] = kSpecialCase;
    return built;
  }();
  return upper ? tables.upper : tables.lower;
}

int write_special_case(char32_t cp, bool upper, uint8_t* out) {
  if (!upper) {
    return static_cast<int>(write_literal("i\u0307", out));  // İ: i and a combining dot above
  }
  switch (cp) {
    case 0xDF:  // ß
      return static_cast<int>(write_literal("SS", out));
    case 0x149:  // ŉ
      return static_cast<int>(write_literal("\u02BCN", out));
    case 0x390:  // ΐ
      return static_cast<int>(write_literal("\u0399\u0308\u0301", out));
    case 0x3B0:  // ΰ
      return static_cast<int>(write_literal("\u03A5\u0308\u0301", out));
    default: {
      // The Latin ligatures ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ.
      static const char* const kLigatures[] = {"FF", "FI", "FL", "FFI", "FFL", "ST", "ST"};
      return static_cast<int>(write_literal(kLigatures[cp - 0xFB00], out));
    }
  }
}

void append_lower(std::string_view text, std::string& out) {
  const size_t old_size = out.size();
  out.resize(old_size + 3 * text.size());
  const int64_t written = write_case<false>(
      two_byte_case_table(false), reinterpret_cast<const uint8_t*>(text.data()),
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
  throw InvalidArgument("the result of a string function passes 2 GiB of " + type_->to_string() +
                        " data in one array");
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

bool all_scalars(std::span<const Datum> arguments) {
  for (const Datum& argument : arguments) {
    if (argument.is_array()) {
      return false;
    }
  }
  return true;
}

int64_t result_length(std::span<const Datum> arguments) {
  for (const Datum& argument : arguments) {
    if (argument.is_array()) {
      return argument.length();
    }
  }
  return 1;
}

bool any_null_type(std::span<const Datum> arguments) {
  for (const Datum& argument : arguments) {
    if (argument.type()->id() == TypeId::kNull) {
      return true;
    }
  }
  return false;
}

Datum all_null(const TypePtr& type, std::span<const Datum> arguments, Allocator* allocator) {
  const int64_t length = result_length(arguments);
  std::unique_ptr<ArrayBuilder> builder = make_builder(type, allocator);
  builder->append_nulls(length);
  Array array = builder->finish();
  return all_scalars(arguments) ? Datum::scalar(std::move(array)) : Datum(std::move(array));
}

}  // namespace bowstring::compute::strings
