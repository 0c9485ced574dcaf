#pragma once

namespace bowstring::compute {

class FunctionRegistry;

// Each area of kernels adds its functions to the default registry through one of these.

/// + - * / % div, negative, abs, pmod, math functions, decimal arithmetic.
void register_arithmetic_functions(FunctionRegistry& registry);
/// Comparisons, <=>, and/or/not, isnull, isnotnull, isnan, coalesce, nullif, nvl, if,
/// case when, in, between, greatest, least.
void register_predicate_functions(FunctionRegistry& registry);
/// cast, try_cast.
void register_cast_functions(FunctionRegistry& registry);
/// String functions, like and regular expressions.
void register_string_functions(FunctionRegistry& registry);
/// Date and time functions.
void register_datetime_functions(FunctionRegistry& registry);
/// hash, xxhash64.
void register_hash_functions(FunctionRegistry& registry);
/// Array, map and struct functions.
void register_collection_functions(FunctionRegistry& registry);
/// md5, sha1, sha2, crc32.
void register_crypto_functions(FunctionRegistry& registry);
/// Aggregate functions.
void register_aggregate_functions(FunctionRegistry& registry);

}  // namespace bowstring::compute
