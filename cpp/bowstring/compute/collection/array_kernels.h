#pragma once

// Collection kernels that functions of other areas reach: reverse and concat take arrays as
// well as strings, and element_at maps as well as arrays.

#include <optional>
#include <span>
#include <string>

#include "bowstring/compute/core/function.h"

namespace bowstring::compute::collection {

/// reverse of an array: its elements in reverse order; `output` is the array's type.
Datum reverse_array(std::span<const Datum> arguments, const TypePtr& output, ExecContext& context);

/// The type rule of concat when an argument is an array: every argument must be one (or NULL)
/// and all are cast to their common type. nullopt when no argument is an array.
std::optional<Resolution> resolve_array_concat(const std::string& name,
                                               std::span<const TypePtr> arguments);

/// concat of arrays: their elements one after the other; null if any array is.
Datum concat_arrays(std::span<const Datum> arguments, const TypePtr& output, ExecContext& context);

/// element_at of a map: the value of the key (arguments: map, key of the map's key type), null
/// when the map lacks it.
Datum map_value_of_key(std::span<const Datum> arguments, ExecContext& context);

}  // namespace bowstring::compute::collection
