#include "bowstring/util/utf8.h"

#include <cstring>

namespace bowstring {

int64_t invalid_utf8_position(const uint8_t* bytes, int64_t size) {
  int64_t i = 0;
  while (i < size) {
    // Most text is ASCII: skip it eight bytes at a time.
    while (i + 8 <= size) {
      uint64_t word;
      std::memcpy(&word, bytes + i, sizeof(word));
      if ((word & 0x8080808080808080ULL) != 0) {
        break;
      }
      i += 8;
    }
    if (i >= size) {
      break;
    }
    const uint8_t lead = bytes[i];
    if (lead < 0x80) {
      ++i;
      continue;
    }
    int sequence_length;
    uint8_t second_min = 0x80;
    uint8_t second_max = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      sequence_length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      sequence_length = 3;
      second_min = lead == 0xE0 ? 0xA0 : 0x80;  // overlong
      second_max = lead == 0xED ? 0x9F : 0xBF;  // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      sequence_length = 4;
      second_min = lead == 0xF0 ? 0x90 : 0x80;  // overlong
      second_max = lead == 0xF4 ? 0x8F : 0xBF;  // past U+10FFFF
    } else {
      return i;
    }
    if (i + sequence_length > size || bytes[i + 1] < second_min || bytes[i + 1] > second_max) {
      return i;
    }
    for (int k = 2; k < sequence_length; ++k) {
      if ((bytes[i + k] & 0xC0) != 0x80) {
        return i;
      }
    }
    i += sequence_length;
  }
  return -1;
}

bool is_valid_utf8(std::string_view text) {
  return invalid_utf8_position(reinterpret_cast<const uint8_t*>(text.data()),
                               static_cast<int64_t>(text.size())) < 0;
}

std::string escape_invalid_utf8(std::string_view text) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  const auto size = static_cast<int64_t>(text.size());
  std::string out;
  out.reserve(text.size());
  int64_t start = 0;
  while (start < size) {
    const int64_t bad = invalid_utf8_position(bytes + start, size - start);
    if (bad < 0) {
      out.append(text.substr(static_cast<size_t>(start)));
      break;
    }
    out.append(text.substr(static_cast<size_t>(start), static_cast<size_t>(bad)));
    static constexpr char kHexDigits[] = "0123456789abcdef";
    const uint8_t byte = bytes[start + bad];
    out += "\\x";
    out += kHexDigits[byte >> 4];
    out += kHexDigits[byte & 0xF];
    start += bad + 1;
  }
  return out;
}

}  // namespace bowstring
