#pragma once

// The rows on which the conditional functions (and IN) read each argument
// (`Function::rows_reading`), as Spark evaluates them: a branch only on the rows that take it, a
// fallback only on the rows that need it. Arguments before `index` have their resolved types;
// `length` is the call's row count (1 when every argument is a scalar). Nullopt stands for every
// row.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/function.h"

namespace bowstring::compute {

/// if(cond, then, else): `then` where the condition is true, `else` where it is not.
std::optional<RowWords> if_rows_reading(size_t index, std::span<const Datum> arguments,
                                        int64_t length);

/// nvl2(value, then, else): `then` where the value is not null, `else` where it is.
std::optional<RowWords> nvl2_rows_reading(size_t index, std::span<const Datum> arguments,
                                          int64_t length);

/// coalesce and nvl: argument i where every earlier one is null.
std::optional<RowWords> coalesce_rows_reading(size_t index, std::span<const Datum> arguments,
                                              int64_t length);

/// case_when(cond1, value1, cond2, value2, ..., [else]): a condition where no earlier one is
/// true, its value where it is true as well, the else value where no condition is true.
std::optional<RowWords> case_when_rows_reading(size_t index, std::span<const Datum> arguments,
                                               int64_t length);

/// nanvl(value, fallback): the fallback where the value is NaN.
std::optional<RowWords> nanvl_rows_reading(size_t index, std::span<const Datum> arguments,
                                           int64_t length);

/// value IN (item1, item2...): an item where the value is not null and no earlier item equals
/// it (Spark stops at the first match).
std::optional<RowWords> in_rows_reading(size_t index, std::span<const Datum> arguments,
                                        int64_t length);

}  // namespace bowstring::compute
