#pragma once

// Comparisons, Kleene boolean logic, null tests and conditionals with Spark SQL's semantics,
// callable directly (the expression evaluator uses them to short-circuit) as well as through
// the function registry.
//
// Arguments are Datums: arrays of one common length, or scalars standing for every row. A
// result is a scalar when every argument is one, an array otherwise. Arguments of functions
// that combine values (comparisons, if_else, coalesce...) must already share one type: the
// registry's `call` casts them to it.

#include <cstdint>
#include <span>

#include "bowstring/compute/core/datum.h"
#include "bowstring/memory/allocator.h"
#include "bowstring/types/type.h"

namespace bowstring::compute {

enum class CompareOp : uint8_t { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual };

/// The SQL operator of `op` ("=", "!=", "<", "<=", ">", ">="), which is also the name its
/// function is registered under.
const char* compare_op_name(CompareOp op);

/// Whether `compare` and the functions built on it (in, between, nullif, <=>) accept values
/// of `type`: booleans, integers, floats, decimals, strings and binary of every layout, dates,
/// times, timestamps, durations, year-month intervals, the null type, and structs and lists
/// (list, large_list, fixed_size_list) of comparable types. Maps are not (Spark cannot order
/// them). Dictionary-encoded arguments are compared by their values (not checked here).
bool is_comparable(const DataType& type);

/// `left op right` row by row, as a boolean. A null on either side gives null. Floats follow
/// Spark: NaN equals NaN and is greater than every other value, -0.0 equals 0.0. Strings and
/// binary compare bytes (unsigned), shorter prefix first; booleans order false before true.
/// Structs compare field by field, lists element by element and then by length; inside them a
/// null equals a null and is smaller than any value (array(1, null) = array(1, null) is true).
/// Both sides must have the same type, struct field names aside (`TypeError` otherwise); a
/// dictionary-encoded side counts as its values.
Datum compare(CompareOp op, const Datum& left, const Datum& right,
              Allocator* allocator = default_allocator());

/// Spark's `<=>` (and `equal_null`): `=` where both sides are valid, true where both are null,
/// false where one is; never null.
Datum equal_null_safe(const Datum& left, const Datum& right,
                      Allocator* allocator = default_allocator());

/// Three-valued AND: false if either side is false, else null if either is null, else true.
Datum kleene_and(const Datum& left, const Datum& right, Allocator* allocator = default_allocator());
/// Three-valued OR: true if either side is true, else null if either is null, else false.
Datum kleene_or(const Datum& left, const Datum& right, Allocator* allocator = default_allocator());
/// NOT; null stays null.
Datum logical_not(const Datum& value, Allocator* allocator = default_allocator());

/// Whether each value is null (never null itself).
Datum is_null(const Datum& value, Allocator* allocator = default_allocator());
/// Whether each value is not null (never null itself).
Datum is_not_null(const Datum& value, Allocator* allocator = default_allocator());
/// Whether each float value is NaN; null gives false (Spark's `isnan`).
Datum is_nan(const Datum& value, Allocator* allocator = default_allocator());

/// `cond ? then : otherwise` row by row; a null condition selects `otherwise`. `then` and
/// `otherwise` have one type, any type (nested ones included).
Datum if_else(const Datum& cond, const Datum& then, const Datum& otherwise,
              Allocator* allocator = default_allocator());

/// CASE WHEN conditions[0] THEN values[0] ... ELSE otherwise END: each row takes the value of
/// the first condition that is true (null counts as false), else `otherwise`, or null when
/// `otherwise` is an empty Datum. The values (and `otherwise`) have one type, any type.
Datum case_when(std::span<const Datum> conditions, std::span<const Datum> values,
                const Datum& otherwise, Allocator* allocator = default_allocator());

/// The first non-null value of each row (null if all are); one type, any type.
Datum coalesce(std::span<const Datum> values, Allocator* allocator = default_allocator());

/// Spark's `nullif(left, right)`: null where `left = right` is true, `left` otherwise.
Datum null_if(const Datum& left, const Datum& right, Allocator* allocator = default_allocator());

/// Spark's `nanvl(left, right)`: `right` where `left` is NaN, `left` otherwise (floats).
Datum nan_value(const Datum& left, const Datum& right, Allocator* allocator = default_allocator());

/// Spark's `value IN (list...)`: true if some list element equals the value (NaN equals
/// NaN); otherwise null if the value or any list element is null; otherwise false.
Datum is_in(const Datum& value, std::span<const Datum> list,
            Allocator* allocator = default_allocator());

/// Spark's `value BETWEEN low AND high`: `value >= low AND value <= high`, Kleene logic.
Datum between(const Datum& value, const Datum& low, const Datum& high,
              Allocator* allocator = default_allocator());

}  // namespace bowstring::compute
