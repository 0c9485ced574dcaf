#pragma once

// How the string and regular-expression functions are registered, with the type rules they
// share, and the row loops most of their kernels are written with.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/scalar/string_util.h"

namespace bowstring::compute::strings {

/// What a parameter of a string function accepts.
enum class Param : uint8_t {
  /// STRING; other atomic types are cast to it, as Spark's implicit casts do.
  kString,
  /// STRING or BINARY, kept as they are.
  kStringOrBinary,
  /// An integer of any width, read as it is; strings are cast to INT.
  kInt,
  /// The same, with strings cast to BIGINT (the functions Spark types as BIGINT).
  kBigint,
  /// STRING (other atomic types cast to it) or ARRAY<STRING> (arrays of other types cast to it).
  kStringOrArray,
  /// BINARY; a STRING is read as its UTF-8 bytes (Spark's implicit cast), other types are an
  /// error.
  kBinary,
  /// STRING alone: other types are an error (soundex, which Spark casts nothing to).
  kStringOnly,
};

/// A kernel of this area: arguments cast to the types its parameters take.
using Kernel = std::function<Datum(std::span<const Datum>, ExecContext&)>;

/// Adds a function of this area to `registry` under `name` and `aliases`. `params` gives each
/// parameter's kind; arguments past its end take the last kind. `output` is the result type;
/// nullptr means STRING, or BINARY when every STRING-or-BINARY argument is binary.
void add_function(FunctionRegistry& registry, std::string name, std::vector<std::string> aliases,
                  Function::Arity arity, std::string description,
                  std::vector<std::string> signatures, std::vector<Param> params, TypePtr output,
                  Kernel kernel, NullHandling null_handling = NullHandling::kPropagates);

/// Whether row `i` of a combined validity bitmap (nullptr: no nulls) is valid.
inline bool row_valid(const std::shared_ptr<Buffer>& validity, int64_t i) {
  return validity == nullptr || bit_util::get_bit(validity->data(), i);
}

/// A string (or binary, per `type`) result: `row(i, out)` appends row i's bytes to `out` for each
/// row whose arguments are all non-null, and returns false to make the row null instead.
template <typename Row>
Datum map_to_string(std::span<const Datum> arguments, const TypePtr& type, ExecContext& context,
                    Row&& row) {
  const int64_t length = result_length(arguments);
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity =
      and_validity(arguments, length, context.allocator, &null_count);
  StringOutput out(type, length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    if (row_valid(validity, i) && row(i, out)) {
      out.finish_row();
    } else {
      out.finish_null_row();
    }
  }
  return out.finish(all_scalars(arguments));
}

/// A boolean result: `row(i)` gives row i's value for each row whose arguments are all non-null.
template <typename Row>
Datum map_to_boolean(std::span<const Datum> arguments, ExecContext& context, Row&& row) {
  const int64_t length = result_length(arguments);
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity =
      and_validity(arguments, length, context.allocator, &null_count);
  MutableBuffer bits(bit_util::bytes_for_bits(length), context.allocator);
  uint8_t* out = bits.mutable_data();
  for (int64_t i = 0; i < length; ++i) {
    if (row_valid(validity, i) && row(i)) {
      bit_util::set_bit(out, i);
    }
  }
  Array array =
      make_fixed_width_array(boolean(), length, std::move(validity), null_count, bits.finish());
  return all_scalars(arguments) ? Datum::scalar(std::move(array)) : Datum(std::move(array));
}

/// A result of fixed-width values `T` of `type`: `row(i)` gives row i's value for each row
/// whose arguments are all non-null.
template <typename T, typename Row>
Datum map_to_values(std::span<const Datum> arguments, const TypePtr& type, ExecContext& context,
                    Row&& row) {
  const int64_t length = result_length(arguments);
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity =
      and_validity(arguments, length, context.allocator, &null_count);
  OutputValues<T> values(length, context.allocator);
  T* out = values.data();
  for (int64_t i = 0; i < length; ++i) {
    out[i] = row_valid(validity, i) ? row(i) : T{0};
  }
  Array array =
      make_fixed_width_array(type, length, std::move(validity), null_count, values.finish());
  return all_scalars(arguments) ? Datum::scalar(std::move(array)) : Datum(std::move(array));
}

/// An int32 result: `row(i)` gives row i's value for each row whose arguments are all non-null.
template <typename Row>
Datum map_to_int32(std::span<const Datum> arguments, ExecContext& context, Row&& row) {
  return map_to_values<int32_t>(arguments, int32(), context, std::forward<Row>(row));
}

/// Spark's quoting of a string value in messages: 'text', invalid UTF-8 escaped.
std::string quote(std::string_view text);

}  // namespace bowstring::compute::strings

namespace bowstring::compute {

/// base64, unbase64, hex, unhex, encode, decode, to_binary and the UTF-8 validation functions
/// (string_encoding.cc).
void register_string_encoding_functions(FunctionRegistry& registry);
/// substring_index, split_part, find_in_set, elt, levenshtein, soundex, bin, chr, quote
/// (string_misc.cc).
void register_string_misc_functions(FunctionRegistry& registry);

}  // namespace bowstring::compute
