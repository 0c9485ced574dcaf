// String functions that pick parts by delimiter (substring_index, split_part, find_in_set, elt),
// compare or code text (levenshtein, soundex) and build it (chr, quote), as Spark computes them.

#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/scalar/string_function.h"
#include "bowstring/compute/scalar/string_util.h"

namespace bowstring::compute {

namespace {

using strings::IntArg;
using strings::StringArg;
using strings::StringOutput;

// --- parts by delimiter ---------------------------------------------------------------------

/// Spark's subStringIndex: the text before the count-th delimiter from the left (count > 0) or
/// after the count-th from the right (count < 0); occurrences may overlap.
std::string_view substring_index(std::string_view text, std::string_view delim, int64_t count) {
  if (delim.empty() || count == 0) {
    return {};
  }
  if (count > 0) {
    size_t at = std::string_view::npos;
    for (int64_t found = 0; found < count; ++found) {
      at = text.find(delim, at == std::string_view::npos ? 0 : at + 1);
      if (at == std::string_view::npos) {
        return text;
      }
    }
    return text.substr(0, at);
  }
  if (delim.size() > text.size()) {
    return text;
  }
  size_t at = text.size() - delim.size() + 1;
  for (int64_t found = 0; found < -count; ++found) {
    if (at == 0) {
      return text;
    }
    at = text.rfind(delim, at - 1);
    if (at == std::string_view::npos) {
      return text;
    }
  }
  return text.substr(at + delim.size());
}

Datum substring_index_kernel(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  StringArg delim(arguments[1]);
  IntArg count(arguments[2]);
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    out.append(substring_index(text.value(i), delim.value(i), count.value(i)));
    return true;
  });
}

Datum split_part(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  StringArg delim(arguments[1]);
  IntArg part(arguments[2]);
  std::vector<std::string_view> parts;
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const int64_t index = part.value(i);
    if (index == 0) {
      throw SparkRuntimeError("INVALID_INDEX_OF_ZERO",
                              "The index 0 is invalid. An index shall be either < 0 or > 0 (the "
                              "first element has index 1).");
    }
    const std::string_view value = text.value(i);
    const std::string_view separator = delim.value(i);
    // Spark splits left to right; an empty delimiter leaves the string whole.
    parts.clear();
    if (separator.empty()) {
      parts.push_back(value);
    } else {
      size_t begin = 0;
      for (size_t at = value.find(separator); at != std::string_view::npos;
           at = value.find(separator, begin)) {
        parts.push_back(value.substr(begin, at - begin));
        begin = at + separator.size();
      }
      parts.push_back(value.substr(begin));
    }
    const auto count = static_cast<int64_t>(parts.size());
    // A part past either end is the empty string.
    if (index > 0 && index <= count) {
      out.append(parts[static_cast<size_t>(index - 1)]);
    } else if (index < 0 && -index <= count) {
      out.append(parts[static_cast<size_t>(count + index)]);
    }
    return true;
  });
}

/// Spark's findInSet: the 1-based position of `match` among the comma-separated items of
/// `list`, 0 when absent or when `match` contains a comma.
int32_t find_in_set(std::string_view match, std::string_view list) {
  if (match.find(',') != std::string_view::npos) {
    return 0;
  }
  int32_t position = 1;
  size_t begin = 0;
  while (true) {
    const size_t comma = list.find(',', begin);
    const std::string_view item = list.substr(
        begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin);
    if (item == match) {
      return position;
    }
    if (comma == std::string_view::npos) {
      return 0;
    }
    begin = comma + 1;
    ++position;
  }
}

Datum find_in_set_kernel(std::span<const Datum> arguments, ExecContext& context) {
  StringArg match(arguments[0]);
  StringArg list(arguments[1]);
  return strings::map_to_int32(
      arguments, context, [&](int64_t i) { return find_in_set(match.value(i), list.value(i)); });
}

Datum elt(std::span<const Datum> arguments, ExecContext& context) {
  IntArg index(arguments[0]);
  std::vector<StringArg> inputs;
  for (size_t k = 1; k < arguments.size(); ++k) {
    inputs.emplace_back(arguments[k]);
  }
  const auto count = static_cast<int64_t>(inputs.size());
  const int64_t length = result_length(arguments);
  // Only the index and the input it picks decide whether a row is null.
  // The inputs are all binary or all strings once resolved.
  const bool binary = std::any_of(arguments.begin() + 1, arguments.end(), [](const Datum& input) {
    const TypeId id = input.type()->id();
    return id == TypeId::kBinary || id == TypeId::kLargeBinary;
  });
  const TypePtr type = binary ? bowstring::binary() : utf8();
  StringOutput out(type, length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    if (index.is_null(i)) {
      out.finish_null_row();
      continue;
    }
    const int64_t n = index.value(i);
    if (n < 1 || n > count) {
      if (context.ansi) {
        throw SparkRuntimeError("INVALID_ARRAY_INDEX",
                                "The index " + std::to_string(n) +
                                    " is out of bounds. The array has " + std::to_string(count) +
                                    " elements. Use the SQL function `get()` to tolerate "
                                    "accessing element at invalid index and return NULL instead.");
      }
      out.finish_null_row();
      continue;
    }
    const StringArg& input = inputs[static_cast<size_t>(n - 1)];
    if (input.is_null(i)) {
      out.finish_null_row();
      continue;
    }
    out.append(input.value(i));
    out.finish_row();
  }
  return out.finish(all_scalars(arguments));
}

// --- comparing and coding -------------------------------------------------------------------

/// The characters of `text` as Spark walks them (see strings::sequence_length), each packed
/// with its bytes into one number so that equal characters give equal numbers.
void pack_chars(std::string_view text, std::vector<uint64_t>& chars) {
  chars.clear();
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  const size_t size = text.size();
  for (size_t k = 0; k < size;) {
    const size_t n =
        std::min<size_t>(static_cast<size_t>(strings::sequence_length(bytes[k])), size - k);
    uint64_t packed = n;
    for (size_t b = 0; b < n; ++b) {
      packed = (packed << 8) | bytes[k + b];
    }
    chars.push_back(packed);
    k += n;
  }
}

/// Edit distance over characters, with one row of the table kept.
int64_t edit_distance(const std::vector<uint64_t>& left, const std::vector<uint64_t>& right,
                      std::vector<int64_t>& row) {
  row.resize(right.size() + 1);
  for (size_t j = 0; j <= right.size(); ++j) {
    row[j] = static_cast<int64_t>(j);
  }
  for (size_t i = 1; i <= left.size(); ++i) {
    int64_t diagonal = row[0];
    row[0] = static_cast<int64_t>(i);
    for (size_t j = 1; j <= right.size(); ++j) {
      const int64_t above = row[j];
      const int64_t substitution = diagonal + (left[i - 1] == right[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
      diagonal = above;
    }
  }
  return row[right.size()];
}

Datum levenshtein(std::span<const Datum> arguments, ExecContext& context) {
  StringArg left(arguments[0]);
  StringArg right(arguments[1]);
  const bool limited = arguments.size() == 3;
  std::optional<IntArg> threshold;
  if (limited) {
    threshold.emplace(arguments[2]);
  }
  std::vector<uint64_t> left_chars;
  std::vector<uint64_t> right_chars;
  std::vector<int64_t> row;
  return strings::map_to_int32(arguments, context, [&](int64_t i) {
    pack_chars(left.value(i), left_chars);
    pack_chars(right.value(i), right_chars);
    const int64_t distance = edit_distance(left_chars, right_chars, row);
    // With a threshold, a distance past it is -1.
    if (limited && distance > threshold->value(i)) {
      return -1;
    }
    return static_cast<int32_t>(distance);
  });
}

/// Spark's soundex: the first letter and three digits coding the consonants after it; text
/// that does not start with an ASCII letter is returned as it is.
Datum soundex(std::span<const Datum> arguments, ExecContext& context) {
  // The codes of A to Z; 7 (H, W) neither codes nor separates equal codes, 0 (vowels, Y)
  // separates them.
  static constexpr char kCodes[] = "01230127022455012623017202";
  StringArg text(arguments[0]);
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const std::string_view value = text.value(i);
    const auto letter = [](char c) -> int {
      const auto upper = static_cast<unsigned char>(c >= 'a' && c <= 'z' ? c - 32 : c);
      return upper >= 'A' && upper <= 'Z' ? upper - 'A' : -1;
    };
    if (value.empty() || letter(value[0]) < 0) {
      out.append(value);
      return true;
    }
    char code[4] = {static_cast<char>('A' + letter(value[0])), '0', '0', '0'};
    int filled = 1;
    char last = kCodes[letter(value[0])];
    for (size_t k = 1; k < value.size() && filled < 4; ++k) {
      const int index = letter(value[k]);
      if (index < 0) {
        last = '0';
        continue;
      }
      const char c = kCodes[index];
      if (c == '7') {
        continue;
      }
      if (c != '0' && c != last) {
        code[filled++] = c;
      }
      last = c;
    }
    out.append(std::string_view(code, 4));
    return true;
  });
}

// --- building -------------------------------------------------------------------------------

/// Spark's chr: the character of code point n mod 256 (Latin-1), U+0000 for multiples of 256,
/// the empty string for negative n.
Datum chr(std::span<const Datum> arguments, ExecContext& context) {
  IntArg code(arguments[0]);
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const int64_t n = code.value(i);
    if (n >= 0) {
      uint8_t* at = out.extend(2);
      out.retract(2 - strings::encode(static_cast<char32_t>(n & 0xFF), at));
    }
    return true;
  });
}

/// Spark's bin: Java's Long.toBinaryString, the two's complement without leading zeros.
Datum bin(std::span<const Datum> arguments, ExecContext& context) {
  IntArg value(arguments[0]);
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const auto bits = static_cast<uint64_t>(value.value(i));
    const int width = bits == 0 ? 1 : 64 - std::countl_zero(bits);
    uint8_t* at = out.extend(width);
    for (int k = 0; k < width; ++k) {
      at[k] = static_cast<uint8_t>('0' + ((bits >> (width - 1 - k)) & 1));
    }
    return true;
  });
}

/// Spark's quote: the string in single quotes, with backslashes and single quotes escaped by a
/// backslash.
Datum quote(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const std::string_view value = text.value(i);
    out.append("'");
    // Each run up to a character to escape, then a backslash; the character starts the next.
    size_t begin = 0;
    for (size_t k = value.find_first_of("\\'"); k != std::string_view::npos;
         k = value.find_first_of("\\'", k + 1)) {
      out.append(value.substr(begin, k - begin));
      out.append("\\");
      begin = k;
    }
    out.append(value.substr(begin));
    out.append("'");
    return true;
  });
}

}  // namespace

void register_string_misc_functions(FunctionRegistry& registry) {
  using strings::add_function;
  using strings::Param;
  const Param kStr = Param::kString;
  const Param kInt = Param::kInt;
  add_function(registry, "substring_index", {}, {3, 3},
               "The string before the count-th occurrence of delim (after the -count-th from the "
               "end when count is negative).",
               {"(string, delim: string, count: int) -> string"}, {kStr, kStr, kInt}, utf8(),
               substring_index_kernel);
  add_function(registry, "split_part", {}, {3, 3},
               "The partNum-th part (from the end when negative) of the string split by delim; "
               "an empty string past the parts.",
               {"(string, delimiter: string, partNum: int) -> string"}, {kStr, kStr, kInt}, utf8(),
               split_part);
  add_function(registry, "find_in_set", {}, {2, 2},
               "The 1-based position of str among the comma-separated items of strArray, or 0.",
               {"(str: string, strArray: string) -> int"}, {kStr}, int32(), find_in_set_kernel);
  add_function(registry, "elt", {}, {2, -1},
               "The n-th of the inputs (1-based); out of range an INVALID_ARRAY_INDEX error in "
               "ANSI mode, else null.",
               {"(n: int, string, string...) -> string", "(n: int, binary, binary...) -> binary"},
               {kInt, Param::kStringOrBinary}, nullptr, elt, NullHandling::kCustom);
  add_function(registry, "levenshtein", {}, {2, 3},
               "The edit distance between two strings in characters; with a threshold, -1 when "
               "it is larger.",
               {"(left: string, right: string[, threshold: int]) -> int"}, {kStr, kStr, kInt},
               int32(), levenshtein);
  add_function(registry, "soundex", {}, {1, 1}, "The Soundex code of the string.",
               {"(string) -> string"}, {Param::kStringOnly}, utf8(), soundex);
  add_function(registry, "chr", {"char"}, {1, 1},
               "The character of code point n mod 256; empty for negative n.",
               {"(n: bigint) -> string"}, {Param::kBigint}, utf8(), chr);
  add_function(registry, "bin", {}, {1, 1},
               "The binary digits of a bigint's two's complement, without leading zeros.",
               {"(bigint) -> string"}, {Param::kBigint}, utf8(), bin);
  add_function(registry, "quote", {}, {1, 1},
               "The string in single quotes, backslashes and single quotes escaped.",
               {"(string) -> string"}, {kStr}, utf8(), quote);
}

}  // namespace bowstring::compute
