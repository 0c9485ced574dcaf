#pragma once

#include <cstdint>
#include <string>

#include "bowstring/array/array.h"

namespace bowstring {

/// How arrays are rendered as text.
struct PrettyPrintOptions {
  /// Values shown at each end of an array (or list, or map) longer than 2 * window; the values in
  /// between are replaced by `...`. Applies at every nesting level. Negative: show everything.
  int64_t window = 10;
  /// Spaces put before every line of the output.
  int indent = 0;
  /// How a null value is spelled.
  std::string null_string = "null";
};

/// The values of `array` on one line, space-separated between brackets:
/// `["hello" "apache arrow" null]`, `[[1 2] null []]`, `[{a: 1, b: "x"} null]`,
/// `[{"k": 1, "j": 2}]`. Strings are quoted and escaped, binary values are quoted with non-ASCII
/// bytes escaped, fixed_size_binary is hex, floats use their shortest round-trip form, temporal
/// values are ISO-8601. Dictionary, union, run-end encoded and extension arrays show the values
/// they stand for. A slice shows only its own window.
std::string pretty_print(const Array& array, const PrettyPrintOptions& options = {});

/// Value `i` of `array` alone, formatted as inside `pretty_print` (without indentation).
std::string format_value(const Array& array, int64_t i, const PrettyPrintOptions& options = {});

/// The physical layout of `array`: one section per buffer naming its role (validity bitmap,
/// offsets, data...) with its bytes in lines of 16 (offset, hex, ASCII), then the same for each
/// child and the dictionary. Whole buffers are shown, also for slices; at most
/// `max_bytes_per_buffer` bytes of each. Unlike the functions above, safe on arrays that fail
/// validation (the null count shows as "unknown" when the bitmap is too short to count it).
std::string hex_dump(const Array& array, int64_t max_bytes_per_buffer = 1024);

}  // namespace bowstring
