#pragma once

#include <cstddef>

#include "bowstring/types/type.h"

namespace bowstring {

/// A hash of what `DataType::equals` compares without metadata (the id, the parameters and the
/// child fields, but not the names of a map's entries): types that are equal hash equal.
size_t hash_type(const DataType& type);

/// A hash of the name, type and nullability (not the metadata), consistent with `Field::equals`.
size_t hash_field(const Field& field);

/// Mixes `value` into the running hash `seed`; the result depends on the order of the values.
size_t combine_hash(size_t seed, size_t value);

}  // namespace bowstring
