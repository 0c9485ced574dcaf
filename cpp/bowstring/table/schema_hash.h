#pragma once

#include <cstddef>

#include "bowstring/table/schema.h"

namespace bowstring {

/// A hash of the fields (names, types, nullability; not the metadata), consistent with
/// `Schema::equals`.
size_t hash_schema(const Schema& schema);

}  // namespace bowstring
