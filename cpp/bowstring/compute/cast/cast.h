#pragma once

#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/exec_context.h"
#include "bowstring/types/type.h"

namespace bowstring::compute {

/// Spark's `CAST(value AS to)`. With `context.ansi`, a value that cannot be represented
/// (overflow, a string that does not parse) raises ArithmeticError or NumberFormatError /
/// DateTimeError naming the value and both types; without it, such values become null.
/// Scalars give scalars. Throws `AnalysisError` (DATATYPE_MISMATCH) when Spark has no cast
/// between the two types.
Datum cast(const Datum& value, const TypePtr& to, ExecContext& context);

/// Spark's `try_cast`: as `cast`, but values that cannot be converted become null.
Datum try_cast(const Datum& value, const TypePtr& to, ExecContext& context);

/// Whether Spark (in ANSI mode) can cast `from` to `to` at all (`Cast.canAnsiCast`).
bool can_cast(const DataType& from, const DataType& to);

}  // namespace bowstring::compute
