#include "bowstring/table/schema_hash.h"

#include "bowstring/types/type_hash.h"

namespace bowstring {

size_t hash_schema(const Schema& schema) {
  size_t seed = schema.fields().size();
  for (const FieldPtr& field : schema.fields()) {
    seed = combine_hash(seed, hash_field(*field));
  }
  return seed;
}

}  // namespace bowstring
