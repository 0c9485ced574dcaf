#pragma once

#include "bowstring/array/array_data.h"

namespace bowstring {

/// Levels of children and dictionaries below the top-level array that validation accepts (the
/// limit Arrow's IPC reader applies). Deeper arrays are rejected so that validation, and the
/// recursive code that reads validated arrays, cannot exhaust the stack.
inline constexpr int kMaxNestingDepth = 64;

/// What validation checks of the dictionaries of dictionary-encoded arrays, at any depth.
enum class DictionaryCheck {
  /// Each dictionary is validated like a child.
  kValues,
  /// Each dictionary is only checked to be there with the right type; indices are still
  /// checked against its length. For dictionaries validated already, such as those of an IPC
  /// reader, checked once when their dictionary batch was read and shared by many batches.
  kIndicesOnly,
};

// Validation is the gate for data from outside (IPC messages, arrays imported through the C Data
// Interface): nothing else may read such an array before it passes. Both functions accept any
// ArrayData, however corrupted: they never read outside its buffers, overflow an integer or
// recurse more than kMaxNestingDepth levels; every problem is a `FormatError` naming it and
// where it is, e.g. "last offset 9 is past the end of the child array of length 4 in buffer 1
// (offsets) of child 0 'a' of struct<a: list<...>>".
//
// The two levels make different promises about what is then safe to read.

/// Cheap structural checks, O(1) per buffer and child. When `validate` returns, the array and,
/// recursively, every child and dictionary satisfy:
/// - a type is set; the number of buffers and children is the one the type asks for; children
///   and the dictionary have the types the parent's type names (a dictionary exactly for
///   dictionary types); nesting is at most kMaxNestingDepth levels;
/// - 0 <= offset, 0 <= length, offset + length <= INT64_MAX; a cached null count lies in
///   [0, length], is 0 for union and run-end encoded arrays (which have no validity bitmap) and
///   equals the length for null arrays;
/// - every buffer the layout needs is present and covers the slots [offset, offset + length):
///   validity and boolean bitmaps, fixed-width values, offsets (one more entry for lists and
///   binaries, one per slot for list views and dense unions), list view sizes, union type ids
///   and the 16-byte views of view types;
/// - the first and last offsets of binary and list arrays lie in [0, data size] or
///   [0, child length]; fixed-size list children hold (offset + length) * list_size values;
///   struct and sparse union children (which share the parent's offset) are at least
///   offset + length long; a run-end encoded array has no more run ends than values and, unless
///   empty, a last run end of at least offset + length.
/// So after `validate`, these are in bounds: `null_count()`, the validity bitmap of any slot,
/// and reading the raw numbers stored for any slot (fixed-width values, booleans, offsets,
/// sizes, type ids, dictionary indices, the 16-byte views). Not checked, and so NOT safe to
/// follow: anything addressed through such a number. Offsets between the first and the last,
/// list view ranges, view data buffer references, dictionary indices, union type ids and dense
/// union offsets, and the order of run ends may all point anywhere; strings may be malformed
/// UTF-8. Do not read values through typed arrays, compare, print or concatenate an array that
/// passed only `validate`.
void validate(const ArrayData& data, DictionaryCheck dictionaries = DictionaryCheck::kValues);

/// `validate` plus every value, O(length): offsets do not decrease; strings are UTF-8; each
/// view's data buffer, range and prefix are right and its unused inline bytes zero; list view
/// ranges lie inside the child; dictionary indices inside the dictionary; union type ids are
/// type codes of the union and dense union offsets inside the selected child; run ends are
/// positive and strictly increasing; decimals fit their precision; map keys are not null; a
/// cached null count matches the validity bitmap.
///
/// After `validate_full`, every slot's value is addressable: value access through the typed
/// arrays (`value(i)`, `value_slice(i)`, `index(i)`, `child_id(i)`, `value_offset(i)`,
/// `physical_index(i)`), `Array::is_null`, `arrays_equal`, `array_range_equal`,
/// `pretty_print`, `format_value`, `hex_dump`, `concatenate` and slicing stay in bounds and
/// within the stack limit. One exception, as in Arrow: what lies under a null slot is
/// unspecified, and the views, list view ranges, dictionary indices, UTF-8 and decimal values of
/// null slots are not checked. Read them only for valid slots, as the library's own functions do
/// (offsets of binary and list arrays are checked for every slot, null or not).
void validate_full(const ArrayData& data, DictionaryCheck dictionaries = DictionaryCheck::kValues);

/// Run end `i` of `run_ends`, the int16, int32 or int64 run ends child of a run-end encoded
/// array that passed `validate` (so that `i` below its length is in bounds).
int64_t run_end_at(const ArrayData& run_ends, int64_t i);

}  // namespace bowstring
