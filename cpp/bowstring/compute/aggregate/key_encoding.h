#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bowstring/array/array.h"

namespace bowstring::compute {

// The byte encoding of key rows that hash tables (the grouper's row table, the hash join's
// table for wide keys) compare: two rows encode to the same bytes exactly when Spark groups or
// joins them together. A value is a flag byte (0 for null, 1 for valid) followed, when valid, by
// its bytes: fixed-width values as stored (floats normalized: every NaN alike, -0.0 as 0.0),
// booleans as one byte, strings and binary as a 32-bit length and the bytes, structs field after
// field, lists and maps as a 32-bit element count and the elements; dictionary values encode as
// their value and extension values as their storage.

/// Appends value `i` of `data` (relative to its window) to `out`. Throws `TypeError` for types
/// without an encoding (unions, run-end encoded).
void encode_key_value(const ArrayData& data, int64_t i, std::string& out);

/// Encodes rows [start, start + count) of `keys` (columns of one length), each the encodings of
/// its columns one after the other, into `rows`; row j spans [offsets[j], offsets[j + 1]). Flat
/// columns are encoded a column at a time, other columns value by value.
void encode_key_rows(std::span<const Array> keys, int64_t start, int64_t count,
                     std::vector<int64_t>& offsets, std::string& rows);

}  // namespace bowstring::compute
