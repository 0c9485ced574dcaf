#pragma once

#include "bowstring/array/array_data.h"

namespace bowstring {

/// Levels of children and dictionaries below the top-level array that validation accepts (the
/// limit Arrow's IPC reader applies). Deeper arrays are rejected so that validation, and the
/// recursive code that reads validated arrays, cannot exhaust the stack.
inline constexpr int kMaxNestingDepth = 64;

/// Cheap structural checks, O(1) per buffer and child, recursing into children and the
/// dictionary: the number of buffers the type's layout asks for, that required buffers are
/// present and large enough for offset + length, the number, types and lengths of children,
/// the null count against the length, the absence of a validity bitmap for null, union and
/// run-end encoded arrays, the presence of a dictionary exactly for dictionary arrays, and the
/// first and last offsets of binary and list arrays against their data.
///
/// Throws `FormatError` naming the problem and where it is, e.g. "last offset 9 is past the end
/// of the child array of length 4 in buffer 1 (offsets) of child 0 'a' of struct<a: list<...>>".
void validate(const ArrayData& data);

/// `validate` plus every value, O(length): offsets monotone, UTF-8 of string values, the views
/// of view arrays, offsets and sizes of list views, dictionary indices, union type ids and dense
/// offsets, run ends, decimal values within their precision, map keys not null, and cached null
/// counts against the validity bitmap. Throws `FormatError` naming the first problem found.
void validate_full(const ArrayData& data);

}  // namespace bowstring
