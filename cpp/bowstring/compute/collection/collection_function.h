#pragma once

// How the collection functions are registered, and the type rules they share.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/lambda_function.h"

namespace bowstring::compute::collection {

/// Adds a scalar function of this area under `name` and `aliases`.
void add_function(FunctionRegistry& registry, std::string name, std::vector<std::string> aliases,
                  Function::Arity arity, NullHandling null_handling, std::string description,
                  std::vector<std::string> signatures, LambdaResolver resolver,
                  LambdaScalarFunction::Kernel kernel);

/// The list type of argument `index`, or `DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE` naming
/// `function` unless it is an ARRAY (or NULL: then nullptr).
const DataType* require_array(const std::string& function, std::span<const TypePtr> arguments,
                              size_t index);

/// The map type of argument `index`, as `require_array` for maps.
const DataType* require_map(const std::string& function, std::span<const TypePtr> arguments,
                            size_t index);

/// Argument `index` as an integer of type `to`: integers are widened, strings cast, NULL kept;
/// other types are a mismatch naming `function`.
TypePtr integer_argument(const std::string& function, std::span<const TypePtr> arguments,
                         size_t index, const TypePtr& to);

/// The type an array's elements and a value are both cast to (Spark's
/// `findWiderTypeWithoutStringPromotionForTwo`); `DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES`
/// naming `function` when there is none.
TypePtr element_and_value_type(const std::string& function, const TypePtr& array,
                               const TypePtr& value);

/// Spark's `DATATYPE_MISMATCH.<condition>` for a call of `function` whose two arguments' types
/// do not agree: "Input to `function` should have been <expected>, but it's [first, second]."
[[noreturn]] void throw_diff_types(const std::string& condition, const std::string& function,
                                   const std::string& expected, const DataType& first,
                                   const DataType& second);

/// The key type of map argument 0 when argument 1 is a key of it (`element_at`,
/// `map_contains_key`): `DATATYPE_MISMATCH.MAP_FUNCTION_DIFF_TYPES` otherwise.
TypePtr map_key_argument(const std::string& function, std::span<const TypePtr> arguments);

/// `WRONG_NUM_ARGS` unless `function` (map, named_struct) has an even number of arguments.
void check_pairs(const std::string& function, size_t count);

/// The registration of each file of this area.
void register_array_functions(FunctionRegistry& registry);
void register_array_set_functions(FunctionRegistry& registry);
void register_map_functions(FunctionRegistry& registry);
void register_struct_functions(FunctionRegistry& registry);

}  // namespace bowstring::compute::collection
