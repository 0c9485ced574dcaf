#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace bowstring {

/// Position of the first byte of `bytes` that does not start a well-formed UTF-8 sequence
/// (RFC 3629: no overlong forms, surrogates or code points past U+10FFFF), or -1 when all
/// `size` bytes are well-formed UTF-8.
int64_t invalid_utf8_position(const uint8_t* bytes, int64_t size);

/// Whether `text` is well-formed UTF-8 (see `invalid_utf8_position`).
bool is_valid_utf8(std::string_view text);

/// `text` with every byte that is not part of a well-formed UTF-8 sequence written as `\xHH`,
/// so that text from untrusted input can go into an error message, which must be UTF-8.
std::string escape_invalid_utf8(std::string_view text);

}  // namespace bowstring
