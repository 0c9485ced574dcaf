// Array functions that keep, drop, move or look up elements: each computes, from the offsets,
// which elements of the flattened child every result row holds and gathers them in one `take`.

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bowstring/array/concatenate.h"
#include "bowstring/compute/collection/array_kernels.h"
#include "bowstring/compute/collection/collection_function.h"
#include "bowstring/compute/collection/list_util.h"
#include "bowstring/compute/core/coercion.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/compute/scalar/string_util.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/compute/vector/sort.h"
#include "bowstring/types/spark_type_names.h"

namespace bowstring::compute::collection {

void add_function(FunctionRegistry& registry, std::string name, std::vector<std::string> aliases,
                  Function::Arity arity, NullHandling null_handling, std::string description,
                  std::vector<std::string> signatures, LambdaResolver resolver,
                  LambdaScalarFunction::Kernel kernel) {
  registry.add(std::make_shared<LambdaScalarFunction>(std::move(name), arity, null_handling,
                                                      std::move(description), std::move(signatures),
                                                      std::move(resolver), std::move(kernel)),
               std::move(aliases));
}

const DataType* require_array(const std::string& function, std::span<const TypePtr> arguments,
                              size_t index) {
  const DataType& type = *arguments[index];
  if (type.id() == TypeId::kNull) {
    return nullptr;
  }
  if (!is_array_type(type)) {
    throw_input_type(function, index, "\"ARRAY\"", type);
  }
  return &type;
}

const DataType* require_map(const std::string& function, std::span<const TypePtr> arguments,
                            size_t index) {
  const DataType& type = *arguments[index];
  if (type.id() == TypeId::kNull) {
    return nullptr;
  }
  if (type.id() != TypeId::kMap) {
    throw_input_type(function, index, "\"MAP\"", type);
  }
  return &type;
}

TypePtr integer_argument(const std::string& function, std::span<const TypePtr> arguments,
                         size_t index, const TypePtr& to) {
  const TypePtr& type = arguments[index];
  const SparkType spark = spark_type_of(*type);
  if (spark == SparkType::kNull || is_integral(spark) || spark == SparkType::kString) {
    return spark == SparkType::kNull ? type : to;
  }
  throw_input_type(function, index, "\"" + spark_type_name(*to) + "\"", *type);
}

TypePtr element_and_value_type(const std::string& function, const TypePtr& array,
                               const TypePtr& value) {
  const TypePtr& element =
      array->id() == TypeId::kNull ? array : static_cast<const ListType&>(*array).value_type();
  const std::optional<TypePtr> common = wider_type_without_string_promotion(element, value);
  if (!common) {
    throw_diff_types("ARRAY_FUNCTION_DIFF_TYPES", function,
                     "\"ARRAY\" followed by a value with same element type", *array, *value);
  }
  return *common;
}

void throw_diff_types(const std::string& condition, const std::string& function,
                      const std::string& expected, const DataType& first, const DataType& second) {
  throw AnalysisError("DATATYPE_MISMATCH." + condition,
                      "Cannot resolve \"" + function + "\" due to data type mismatch: Input to `" +
                          function + "` should have been " + expected + ", but it's [\"" +
                          spark_type_name(first) + "\", \"" + spark_type_name(second) + "\"].");
}

namespace {

TypePtr array_of(const TypePtr& element) { return list(element); }

// --- array, size ------------------------------------------------------------------------------

Resolution resolve_array(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr element =
      arguments.empty() ? null() : wider_type(arguments, name, StringPromotion::kYes);
  return {array_of(element), std::vector<TypePtr>(arguments.size(), element)};
}

Datum array_kernel(std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
  const int64_t length = result_length(arguments);
  const auto width = static_cast<int64_t>(arguments.size());
  std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const TypePtr& element = element_type(*output);
  // Row i's element j is row i of argument j: at j * length + i of the arguments one after the
  // other.
  const Array pool = pool_of(columns, element, nullptr, context.allocator);
  ListGather out(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    for (int64_t j = 0; j < width; ++j) {
      out.add(j * length + i);
    }
    out.finish_row();
  }
  return result_of(out.finish(output, pool), arguments);
}

Resolution resolve_size(const std::string& name, std::span<const TypePtr> arguments) {
  const TypeId id = arguments[0]->id();
  if (id != TypeId::kList && id != TypeId::kMap && id != TypeId::kNull) {
    throw_input_type(name, 0, "(\"ARRAY\" or \"MAP\")", *arguments[0]);
  }
  return {int32(), {arguments[0]}};
}

/// size and cardinality give -1 for a null collection when ANSI mode is off (Spark's
/// `spark.sql.legacy.sizeOfNull`, which holds only without ANSI), null with it; array_size
/// always gives null.
template <bool kLegacyNull>
Datum size_kernel(std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
  const int64_t length = arguments[0].length();
  const bool minus_one = kLegacyNull && !context.ansi;
  OutputValues<int32_t> values(length, context.allocator);
  int32_t* out = values.data();
  if (arguments[0].type()->id() == TypeId::kNull) {
    std::fill(out, out + length, -1);
    return result_of(
        make_fixed_width_array(
            int32(), length,
            minus_one ? nullptr
                      : Buffer::zeros(bit_util::bytes_for_bits(length), context.allocator),
            minus_one ? 0 : length, values.finish()),
        arguments);
  }
  const ListColumn list(arguments[0].array());
  for (int64_t i = 0; i < length; ++i) {
    out[i] = list.offsets[i + 1] - list.offsets[i];
  }
  const int64_t null_count = list.array.null_count();
  if (null_count > 0 && minus_one) {
    for (int64_t i = 0; i < length; ++i) {
      out[i] = list.is_valid(i) ? out[i] : -1;
    }
  }
  std::shared_ptr<Buffer> validity =
      minus_one ? nullptr : copy_validity(*list.data, context.allocator);
  return result_of(make_fixed_width_array(int32(), length, std::move(validity),
                                          minus_one ? 0 : null_count, values.finish()),
                   arguments);
}

// --- array_contains, array_position, array_remove ---------------------------------------------

Resolution resolve_array_and_value(const std::string& name, std::span<const TypePtr> arguments,
                                   const TypePtr& output) {
  require_array(name, arguments, 0);
  const TypePtr common = element_and_value_type(name, arguments[0], arguments[1]);
  return {output != nullptr ? output : array_of(common), {array_of(common), common}};
}

/// For each element of `list` in [first(), end()), whether it equals its row's `value` (null
/// where the element or the value is null).
/// `value` is the call's argument: a scalar is compared with every element as it is.
BooleanArray match_elements(const ListColumn& list, const Datum& value, ExecContext& context) {
  const Array elements = list.values.slice(list.first(), list.end() - list.first());
  if (value.is_scalar()) {
    const Datum arguments[] = {Datum(elements), value};
    return BooleanArray(call("=", arguments, {}, &context).array());
  }
  const std::vector<int32_t> rows = element_rows(list);
  const Array probe = take(value.array(), std::span<const int32_t>(rows), context.allocator);
  return BooleanArray(equal_values(elements, probe, context));
}

Datum array_contains_kernel(std::span<const Datum> arguments, const TypePtr&,
                            ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const ListColumn list(columns[0]);
  const BooleanArray matches = match_elements(list, arguments[1], context);
  BooleanOutput out(length, context.allocator);
  const ArrayData& match_data = *matches.data();
  const uint8_t* match_valid =
      match_data.buffers[0] != nullptr ? match_data.buffers[0]->data() : nullptr;
  const uint8_t* match_bits = match_data.buffers[1]->data();
  const int64_t base = match_data.offset - list.first();
  for (int64_t i = 0; i < length; ++i) {
    bool found = false;
    bool saw_null = false;
    for (int64_t k = list.offsets[i] + base; k < list.offsets[i + 1] + base; ++k) {
      if (match_valid != nullptr && !bit_util::get_bit(match_valid, k)) {
        saw_null = true;
      } else if (bit_util::get_bit(match_bits, k)) {
        found = true;
        break;
      }
    }
    // Not found among elements some of which are null: unknown, as Spark's three-valued logic.
    out.set(i, list.is_valid(i) && columns[1].is_valid(i) && (found || !saw_null), found);
  }
  return out.finish(arguments);
}

Datum array_position_kernel(std::span<const Datum> arguments, const TypePtr&,
                            ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const ListColumn list(columns[0]);
  const BooleanArray matches = match_elements(list, arguments[1], context);
  OutputValues<int64_t> values(length, context.allocator);
  int64_t* out = values.data();
  ValidityOutput validity(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    out[i] = 0;
    const int64_t begin = list.offsets[i] - list.first();
    for (int64_t k = begin; k < list.offsets[i + 1] - list.first(); ++k) {
      if (matches.is_valid(k) && matches.value(k)) {
        out[i] = k - begin + 1;
        break;
      }
    }
    validity.set(i, list.is_valid(i) && columns[1].is_valid(i));
  }
  const int64_t null_count = validity.null_count();
  return result_of(
      make_fixed_width_array(int64(), length, validity.finish(), null_count, values.finish()),
      arguments);
}

Datum array_remove_kernel(std::span<const Datum> arguments, const TypePtr& output,
                          ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const ListColumn list(columns[0]);
  const BooleanArray matches = match_elements(list, arguments[1], context);
  ListGather out(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    const bool valid = list.is_valid(i) && columns[1].is_valid(i);
    if (valid) {
      for (int64_t k = list.offsets[i]; k < list.offsets[i + 1]; ++k) {
        const int64_t m = k - list.first();
        if (matches.is_null(m) || !matches.value(m)) {
          out.add(k);
        }
      }
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, list.values), arguments);
}

// --- element_at, try_element_at, get ----------------------------------------------------------

enum class OutOfBounds : uint8_t {
  /// Raise INVALID_ARRAY_INDEX_IN_ELEMENT_AT with ANSI on, null without (element_at).
  kAnsiError,
  /// Null (try_element_at, get).
  kNull,
};

[[noreturn]] void throw_index_of_zero() {
  throw SparkRuntimeError("INVALID_INDEX_OF_ZERO",
                          "The index 0 is invalid. An index shall be either < 0 or > 0 (the "
                          "first element has index 1).");
}

/// The element index in the child of `index` (1-based from the start, negative from the end,
/// `one_based` false: 0-based, negative invalid) in row `i`, or -1 when out of bounds.
int64_t element_index(const ListColumn& list, int64_t i, int64_t index, bool one_based) {
  const int64_t size = list.size(i);
  int64_t position = 0;
  if (one_based) {
    if (index == 0) {
      throw_index_of_zero();
    }
    position = index > 0 ? index - 1 : size + index;
  } else {
    position = index;
  }
  return position >= 0 && position < size ? list.offsets[i] + position : -1;
}

Resolution resolve_element_at(const std::string& name, std::span<const TypePtr> arguments) {
  if (arguments[0]->id() == TypeId::kMap) {
    const TypePtr key = map_key_argument(name, arguments);
    return {static_cast<const MapType&>(*arguments[0]).item_type(), {arguments[0], key}};
  }
  const DataType* array = require_array(name, arguments, 0);
  const TypePtr element = array != nullptr ? element_type(*array) : null();
  return {element, {arguments[0], integer_argument(name, arguments, 1, int32())}};
}

Datum element_at_array(std::span<const Datum> arguments, const TypePtr& output,
                       ExecContext& context, bool one_based, OutOfBounds out_of_bounds) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const ListColumn list(columns[0]);
  const NumericArray<int32_t> index(columns[1]);
  const bool raise = out_of_bounds == OutOfBounds::kAnsiError && context.ansi;
  std::vector<int64_t> picks(static_cast<size_t>(length), -1);
  for (int64_t i = 0; i < length; ++i) {
    if (!list.is_valid(i) || index.is_null(i)) {
      continue;
    }
    const int64_t pick = element_index(list, i, index.value(i), one_based);
    if (pick < 0 && raise) {
      throw SparkRuntimeError(
          "INVALID_ARRAY_INDEX_IN_ELEMENT_AT",
          "The index " + std::to_string(index.value(i)) + " is out of bounds. The array has " +
              std::to_string(list.size(i)) +
              " elements. Use `try_element_at` to tolerate accessing element at invalid index "
              "and return NULL instead. " +
              kAnsiBypassHint);
    }
    picks[static_cast<size_t>(i)] = pick;
  }
  (void)output;
  return result_of(take_or_null(list.values, picks, context.allocator), arguments);
}

template <OutOfBounds kOutOfBounds>
Datum element_at_kernel(std::span<const Datum> arguments, const TypePtr& output,
                        ExecContext& context) {
  if (arguments[0].type()->id() == TypeId::kMap) {
    return map_value_of_key(arguments, context);
  }
  return element_at_array(arguments, output, context, true, kOutOfBounds);
}

Resolution resolve_get(const std::string& name, std::span<const TypePtr> arguments) {
  const DataType* array = require_array(name, arguments, 0);
  const TypePtr element = array != nullptr ? element_type(*array) : null();
  return {element, {arguments[0], integer_argument(name, arguments, 1, int32())}};
}

Datum get_kernel(std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
  return element_at_array(arguments, output, context, false, OutOfBounds::kNull);
}

// --- slice, array_repeat, flatten, array_compact, array_append, array_prepend ----------------

Resolution resolve_slice(const std::string& name, std::span<const TypePtr> arguments) {
  require_array(name, arguments, 0);
  return {arguments[0],
          {arguments[0], integer_argument(name, arguments, 1, int32()),
           integer_argument(name, arguments, 2, int32())}};
}

Datum slice_kernel(std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const ListColumn list(columns[0]);
  const NumericArray<int32_t> starts(columns[1]);
  const NumericArray<int32_t> lengths(columns[2]);
  ListGather out(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    const bool valid = list.is_valid(i) && starts.is_valid(i) && lengths.is_valid(i);
    if (valid) {
      const int64_t start = starts.value(i);
      const int64_t count = lengths.value(i);
      if (start == 0) {
        throw SparkRuntimeError("INVALID_PARAMETER_VALUE.START",
                                "The value of parameter(s) `start` in `slice` is invalid: "
                                "Expects a positive or a negative value for `start`, but got 0.");
      }
      if (count < 0) {
        throw SparkRuntimeError("INVALID_PARAMETER_VALUE.LENGTH",
                                "The value of parameter(s) `length` in `slice` is invalid: "
                                "Expects `length` greater than or equal to 0, but got " +
                                    std::to_string(count) + ".");
      }
      const int64_t size = list.size(i);
      const int64_t first = start > 0 ? start - 1 : size + start;
      if (first >= 0 && first < size) {
        const int64_t last = std::min(size, first + count);
        out.add_range(list.offsets[i] + first, list.offsets[i] + last);
      }
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, list.values), arguments);
}

Resolution resolve_array_repeat(const std::string& name, std::span<const TypePtr> arguments) {
  return {array_of(arguments[0]), {arguments[0], integer_argument(name, arguments, 1, int32())}};
}

/// Spark's limit on the elements of one array (`ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH`).
constexpr int64_t kMaxArrayLength = std::numeric_limits<int32_t>::max() - 15;

[[noreturn]] void throw_too_many_elements(const std::string& function, int64_t count) {
  throw SparkRuntimeError(
      "COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER",
      "Can't create array with " + std::to_string(count) +
          " elements which exceeding the array size limit " + std::to_string(kMaxArrayLength) +
          ", the value of parameter(s) `count` is invalid in `" + function + "`.");
}

Datum array_repeat_kernel(std::span<const Datum> arguments, const TypePtr& output,
                          ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  ListGather out(length, context.allocator);
  if (columns[1].type()->id() == TypeId::kNull) {
    for (int64_t i = 0; i < length; ++i) {
      out.finish_row(false);
    }
    return result_of(out.finish(output, columns[0]), arguments);
  }
  const NumericArray<int32_t> counts(columns[1]);
  for (int64_t i = 0; i < length; ++i) {
    const bool valid = counts.is_valid(i);
    if (valid) {
      if (counts.value(i) > kMaxArrayLength) {
        throw_too_many_elements("array_repeat", counts.value(i));
      }
      for (int32_t k = 0; k < counts.value(i); ++k) {
        out.add(i);
      }
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, columns[0]), arguments);
}

Resolution resolve_flatten(const std::string& name, std::span<const TypePtr> arguments) {
  const DataType* outer = require_array(name, arguments, 0);
  if (outer == nullptr) {
    return {null(), {arguments[0]}};
  }
  const TypePtr& inner = element_type(*outer);
  if (!is_array_type(*inner) && inner->id() != TypeId::kNull) {
    throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                        "Cannot resolve \"" + name +
                            "\" due to data type mismatch: the first parameter requires the "
                            "\"ARRAY\" of \"ARRAY\" type, however it has the type " +
                            spark_type_name(*arguments[0]) + ".");
  }
  const TypePtr result = inner->id() == TypeId::kNull ? array_of(null()) : inner;
  return {result, {inner->id() == TypeId::kNull ? array_of(array_of(null())) : arguments[0]}};
}

Datum flatten_kernel(std::span<const Datum> arguments, const TypePtr& output,
                     ExecContext& context) {
  const Array& outer_array = arguments[0].array();
  const int64_t length = outer_array.length();
  const ListColumn outer(outer_array);
  const ListColumn inner(outer.values);
  // Row i holds the inner lists [offsets[i], offsets[i + 1]), whose elements are one range of
  // the innermost child: no element is copied.
  MutableBuffer offsets((length + 1) * static_cast<int64_t>(sizeof(int32_t)), context.allocator);
  auto* out = reinterpret_cast<int32_t*>(offsets.mutable_data());
  ValidityOutput validity(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    bool valid = outer.is_valid(i);
    for (int64_t k = outer.offsets[i]; valid && k < outer.offsets[i + 1]; ++k) {
      valid = inner.is_valid(k);
    }
    validity.set(i, valid);
    out[i] = inner.offsets[outer.offsets[i]];
  }
  out[length] = inner.offsets[outer.offsets[length]];
  const int64_t null_count = validity.null_count();
  if (null_count == 0) {
    return result_of(make_list(output, length, nullptr, 0, offsets.finish(), inner.values),
                     arguments);
  }
  // A null row must hold no elements once its inner lists are gone: gather the valid rows.
  ListGather gather(length, context.allocator);
  std::shared_ptr<Buffer> bits = validity.finish();
  for (int64_t i = 0; i < length; ++i) {
    const bool valid = bit_util::get_bit(bits->data(), i);
    if (valid) {
      gather.add_range(out[i], out[i + 1]);
    }
    gather.finish_row(valid);
  }
  return result_of(gather.finish(output, inner.values), arguments);
}

Resolution resolve_single_array(const std::string& name, std::span<const TypePtr> arguments) {
  require_array(name, arguments, 0);
  return {arguments[0], {arguments[0]}};
}

Datum array_compact_kernel(std::span<const Datum> arguments, const TypePtr& output,
                           ExecContext& context) {
  const ListColumn list(arguments[0].array());
  ListGather out(list.length, context.allocator);
  for (int64_t i = 0; i < list.length; ++i) {
    const bool valid = list.is_valid(i);
    for (int64_t k = list.offsets[i]; valid && k < list.offsets[i + 1]; ++k) {
      if (list.values.is_valid(k)) {
        out.add(k);
      }
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, list.values), arguments);
}

Resolution resolve_append(const std::string& name, std::span<const TypePtr> arguments) {
  const DataType* array = require_array(name, arguments, 0);
  if (array == nullptr) {
    return {array_of(arguments[1]), {array_of(arguments[1]), arguments[1]}};
  }
  const TypePtr common = element_and_value_type(name, arguments[0], arguments[1]);
  return {array_of(common), {array_of(common), common}};
}

/// array_append (kAtEnd) and array_prepend: a null array gives null, a null element is added.
template <bool kAtEnd>
Datum append_kernel(std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const ListColumn list(columns[0]);
  // The pool is the child followed by the values to add.
  const Array parts[] = {list.values, columns[1]};
  const Array pool = concatenate(parts, context.allocator);
  const int64_t value_base = list.values.length();
  ListGather out(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    const bool valid = list.is_valid(i);
    if (valid) {
      if (!kAtEnd) {
        out.add(value_base + i);
      }
      out.add_range(list.offsets[i], list.offsets[i + 1]);
      if (kAtEnd) {
        out.add(value_base + i);
      }
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, pool), arguments);
}

// --- array_insert, sequence -------------------------------------------------------------------

Resolution resolve_array_insert(const std::string& name, std::span<const TypePtr> arguments) {
  const DataType* array = require_array(name, arguments, 0);
  const TypePtr position = integer_argument(name, arguments, 1, int32());
  if (array == nullptr) {
    return {array_of(arguments[2]), {array_of(arguments[2]), position, arguments[2]}};
  }
  const TypePtr common = element_and_value_type(name, arguments[0], arguments[2]);
  return {array_of(common), {array_of(common), position, common}};
}

/// array_insert(array, pos, value): pos counts from 1, or from -1 after the last element;
/// a position past either end pads the array with nulls.
Datum array_insert_kernel(std::span<const Datum> arguments, const TypePtr& output,
                          ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const ListColumn list(columns[0]);
  const bool untyped_position = columns[1].type()->id() == TypeId::kNull;
  const Array parts[] = {list.values, columns[2]};
  std::vector<int64_t> bases;
  const Array pool = pool_of(parts, element_type(*output), &bases, context.allocator);
  ListGather out(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    const bool valid = list.is_valid(i) && !untyped_position && columns[1].is_valid(i);
    if (valid) {
      const int64_t position = NumericArray<int32_t>(columns[1]).value(i);
      if (position == 0) {
        throw_index_of_zero();
      }
      const int64_t size = list.size(i);
      const int64_t index = position > 0 ? position - 1 : size + position + 1;
      if (std::max(size + 1, std::abs(index) + 1) > kMaxArrayLength) {
        throw_too_many_elements("array_insert", std::max(size + 1, std::abs(index) + 1));
      }
      if (index < 0) {
        out.add(bases[1] + i);
        for (int64_t k = 0; k < -index; ++k) {
          out.add_null();
        }
        out.add_range(list.offsets[i], list.offsets[i + 1]);
      } else {
        out.add_range(list.offsets[i], list.offsets[i] + std::min(index, size));
        for (int64_t k = size; k < index; ++k) {
          out.add_null();
        }
        out.add(bases[1] + i);
        out.add_range(list.offsets[i] + std::min(index, size), list.offsets[i + 1]);
      }
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, pool), arguments);
}

Resolution resolve_sequence(const std::string& name, std::span<const TypePtr> arguments) {
  std::vector<TypePtr> integers;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const SparkType spark = spark_type_of(*arguments[i]);
    if (!is_integral(spark) && spark != SparkType::kNull) {
      throw_input_type(name, i, "\"INTEGRAL\"", *arguments[i]);
    }
    integers.push_back(arguments[i]);
  }
  const TypePtr common = wider_type(integers, name, StringPromotion::kNo);
  const TypePtr element = common->id() == TypeId::kNull ? int32() : spark_storage_type(common);
  return {array_of(element), std::vector<TypePtr>(arguments.size(), element)};
}

template <typename T>
Datum sequence_of(const std::vector<Array>& columns, const TypePtr& output, ExecContext& context) {
  const int64_t length = columns[0].length();
  const NumericArray<T> starts(columns[0]);
  const NumericArray<T> stops(columns[1]);
  std::vector<int32_t> offsets{0};
  std::vector<T> values;
  ValidityOutput validity(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    const bool has_step = columns.size() > 2;
    const bool valid = starts.is_valid(i) && stops.is_valid(i) &&
                       (!has_step || NumericArray<T>(columns[2]).is_valid(i));
    validity.set(i, valid);
    if (valid) {
      const auto start = static_cast<int64_t>(starts.value(i));
      const auto stop = static_cast<int64_t>(stops.value(i));
      const int64_t step = has_step ? static_cast<int64_t>(NumericArray<T>(columns[2]).value(i))
                           : start <= stop ? 1
                                           : -1;
      if (step == 0 ? start != stop : (step > 0) != (start <= stop)) {
        throw IllegalArgumentError("_LEGACY_ERROR_TEMP_3243",
                                   "Illegal sequence boundaries: " + std::to_string(start) +
                                       " to " + std::to_string(stop) + " by " +
                                       std::to_string(step));
      }
      // |stop - start| / |step| + 1 elements, counted in unsigned arithmetic (no overflow).
      const uint64_t distance = start <= stop
                                    ? static_cast<uint64_t>(stop) - static_cast<uint64_t>(start)
                                    : static_cast<uint64_t>(start) - static_cast<uint64_t>(stop);
      const uint64_t count =
          step == 0 ? 1 : distance / static_cast<uint64_t>(step > 0 ? step : -step) + 1;
      if (count > static_cast<uint64_t>(kMaxArrayLength)) {
        throw_too_many_elements("sequence", static_cast<int64_t>(std::min<uint64_t>(
                                                count, std::numeric_limits<int64_t>::max())));
      }
      for (uint64_t k = 0; k < count; ++k) {
        values.push_back(static_cast<T>(start + static_cast<int64_t>(k) * step));
      }
    }
    offsets.push_back(static_cast<int32_t>(values.size()));
  }
  const auto count = static_cast<int64_t>(values.size());
  const Array elements = make_fixed_width_array(
      element_type(*output), count, nullptr, 0,
      Buffer::copy_of(values.data(), count * static_cast<int64_t>(sizeof(T)), context.allocator));
  const int64_t null_count = validity.null_count();
  return make_list(
      output, length, validity.finish(), null_count,
      Buffer::copy_of(offsets.data(), static_cast<int64_t>(offsets.size() * sizeof(int32_t)),
                      context.allocator),
      elements);
}

Datum sequence_kernel(std::span<const Datum> arguments, const TypePtr& output,
                      ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  Datum result;
  switch (element_type(*output)->id()) {
    case TypeId::kInt8:
      result = sequence_of<int8_t>(columns, output, context);
      break;
    case TypeId::kInt16:
      result = sequence_of<int16_t>(columns, output, context);
      break;
    case TypeId::kInt32:
      result = sequence_of<int32_t>(columns, output, context);
      break;
    default:
      result = sequence_of<int64_t>(columns, output, context);
      break;
  }
  return result_of(result.array(), arguments);
}

// --- array_join ------------------------------------------------------------------------------

Resolution resolve_array_join(const std::string& name, std::span<const TypePtr> arguments) {
  const DataType* array = require_array(name, arguments, 0);
  if (array != nullptr) {
    const TypeId element = element_type(*array)->id();
    if (element != TypeId::kString && element != TypeId::kNull) {
      throw_input_type(name, 0, "\"ARRAY<STRING>\"", *arguments[0]);
    }
  }
  std::vector<TypePtr> cast(arguments.begin(), arguments.end());
  cast[0] = array_of(utf8());
  for (size_t i = 1; i < cast.size(); ++i) {
    const SparkType spark = spark_type_of(*cast[i]);
    if (spark != SparkType::kString && spark != SparkType::kNull) {
      throw_input_type(name, i, "\"STRING\"", *cast[i]);
    }
    cast[i] = utf8();
  }
  return {utf8(), std::move(cast)};
}

Datum array_join_kernel(std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const ListColumn list(columns[0]);
  const StringArray elements(list.values);
  const StringArray delimiters(columns[1]);
  const bool has_replacement = columns.size() > 2;
  const StringArray replacements(has_replacement ? columns[2] : columns[1]);
  strings::StringOutput out(utf8(), length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    // A null replacement string makes the row null, as Spark's ArrayJoin does.
    if (!list.is_valid(i) || delimiters.is_null(i) ||
        (has_replacement && replacements.is_null(i))) {
      out.finish_null_row();
      continue;
    }
    bool first = true;
    for (int64_t k = list.offsets[i]; k < list.offsets[i + 1]; ++k) {
      if (elements.is_null(k) && !has_replacement) {
        continue;
      }
      if (!first) {
        out.append(delimiters.value(i));
      }
      first = false;
      out.append(elements.is_null(k) ? replacements.value(i) : elements.value(k));
    }
    out.finish_row();
  }
  return out.finish(all_scalars(arguments));
}

// --- array_max, array_min, sort_array, array_sort ---------------------------------------------

Resolution resolve_array_extreme(const std::string& name, std::span<const TypePtr> arguments) {
  const DataType* array = require_array(name, arguments, 0);
  return {array != nullptr ? element_type(*array) : null(), {arguments[0]}};
}

/// array_max and array_min: the max or min aggregate over the elements, grouped by their row.
template <bool kMax>
Datum array_extreme_kernel(std::span<const Datum> arguments, const TypePtr& output,
                           ExecContext& context) {
  const ListColumn list(arguments[0].array());
  const Function& aggregate = default_registry().get(kMax ? "max" : "min");
  const TypePtr types[] = {output};
  std::unique_ptr<GroupedAggregator> aggregator =
      static_cast<const AggregateFunction&>(aggregate).make_aggregator(types, {}, context);
  aggregator->resize(list.length);
  const std::vector<int32_t> rows = element_rows(list);
  const std::vector<uint32_t> groups(rows.begin(), rows.end());
  const Datum elements[] = {Datum(list.values.slice(list.first(), list.end() - list.first()))};
  aggregator->update(elements, groups);
  return result_of(aggregator->finish(), arguments);
}

Resolution resolve_sort_array(const std::string& name, std::span<const TypePtr> arguments) {
  require_array(name, arguments, 0);
  std::vector<TypePtr> cast{arguments[0]};
  if (arguments.size() > 1) {
    if (arguments[1]->id() != TypeId::kBoolean) {
      throw_input_type(name, 1, "\"BOOLEAN\"", *arguments[1]);
    }
    cast.push_back(arguments[1]);
  }
  return {arguments[0], std::move(cast)};
}

/// How a row of sort_array is sorted.
enum class RowOrder : uint8_t { kAscending, kDescending, kNull };

/// The elements of each row in order: one sort of every element by (row, element) per order
/// the rows ask for. `ascending` places the nulls of ascending rows; descending rows have their
/// nulls last.
Array sort_elements(const ListColumn& list, const TypePtr& output, bool nulls_first,
                    const std::vector<RowOrder>& row_orders, ExecContext& context) {
  const std::vector<int32_t> rows = element_rows(list);
  const int64_t count = list.end() - list.first();
  const Array elements = list.values.slice(list.first(), count);
  const Array row_keys = make_fixed_width_array(
      int32(), count, nullptr, 0,
      Buffer::copy_of(rows.data(), count * static_cast<int64_t>(sizeof(int32_t)),
                      context.allocator));
  std::vector<uint64_t> orders[2];
  for (const RowOrder order : {RowOrder::kAscending, RowOrder::kDescending}) {
    if (std::find(row_orders.begin(), row_orders.end(), order) == row_orders.end()) {
      continue;
    }
    const bool ascending = order == RowOrder::kAscending;
    const Array keys[] = {row_keys, elements};
    const SortKey sort_keys[] = {SortKey{}, SortKey{ascending, ascending && nulls_first}};
    const Array indices = sort_indices(keys, sort_keys, context.allocator);
    const auto* values = indices.data()->values<uint64_t>(1);
    orders[ascending ? 0 : 1].assign(values, values + count);
  }
  ListGather out(list.length, context.allocator);
  int64_t cursor = 0;
  for (int64_t i = 0; i < list.length; ++i) {
    const RowOrder order = row_orders[static_cast<size_t>(i)];
    const bool valid = list.is_valid(i) && order != RowOrder::kNull;
    if (valid) {
      const std::vector<uint64_t>& sorted = orders[order == RowOrder::kAscending ? 0 : 1];
      for (int64_t k = cursor; k < cursor + list.size(i); ++k) {
        out.add(list.first() + static_cast<int64_t>(sorted[static_cast<size_t>(k)]));
      }
    }
    cursor += list.size(i);
    out.finish_row(valid);
  }
  return out.finish(output, list.values);
}

Datum sort_array_kernel(std::span<const Datum> arguments, const TypePtr& output,
                        ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  std::vector<RowOrder> orders(static_cast<size_t>(length), RowOrder::kAscending);
  if (columns.size() > 1) {
    const BooleanArray ascending(columns[1]);
    for (int64_t i = 0; i < length; ++i) {
      orders[static_cast<size_t>(i)] = ascending.is_null(i) ? RowOrder::kNull
                                       : ascending.value(i) ? RowOrder::kAscending
                                                            : RowOrder::kDescending;
    }
  }
  return result_of(sort_elements(ListColumn(columns[0]), output, true, orders, context), arguments);
}

Datum array_sort_kernel(std::span<const Datum> arguments, const TypePtr& output,
                        ExecContext& context) {
  const ListColumn list(arguments[0].array());
  const std::vector<RowOrder> orders(static_cast<size_t>(list.length), RowOrder::kAscending);
  return result_of(sort_elements(list, output, false, orders, context), arguments);
}

// --- arrays_zip ------------------------------------------------------------------------------

Resolution resolve_arrays_zip(const std::string& name, std::span<const TypePtr> arguments) {
  FieldVector fields;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const DataType* array = require_array(name, arguments, i);
    fields.push_back(field(std::to_string(i), array != nullptr ? element_type(*array) : null()));
  }
  return {array_of(struct_(std::move(fields))),
          std::vector<TypePtr>(arguments.begin(), arguments.end())};
}

Datum arrays_zip_kernel(std::span<const Datum> arguments, const TypePtr& output,
                        ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const auto& struct_type = static_cast<const StructType&>(*element_type(*output));
  std::vector<std::vector<int64_t>> picks(columns.size());
  std::vector<int32_t> offsets{0};
  ValidityOutput validity(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    bool valid = true;
    int64_t longest = 0;
    for (const Array& column : columns) {
      if (column.type()->id() == TypeId::kNull || column.is_null(i)) {
        valid = false;
        break;
      }
      longest = std::max<int64_t>(longest, ListColumn(column).size(i));
    }
    validity.set(i, valid);
    if (valid) {
      // Shorter arrays are padded with nulls up to the longest one.
      for (size_t c = 0; c < columns.size(); ++c) {
        const ListColumn list(columns[c]);
        for (int64_t k = 0; k < longest; ++k) {
          picks[c].push_back(k < list.size(i) ? list.offsets[i] + k : -1);
        }
      }
    }
    offsets.push_back(offsets.back() + static_cast<int32_t>(valid ? longest : 0));
  }
  std::vector<ArrayDataPtr> children;
  for (size_t c = 0; c < columns.size(); ++c) {
    const Array pool =
        columns[c].type()->id() == TypeId::kNull
            ? Datum::null_scalar(struct_type.field(static_cast<int>(c))->type(), context.allocator)
                  .array()
            : ListColumn(columns[c]).values;
    children.push_back(take_or_null(pool, picks[c], context.allocator).data());
  }
  const int64_t entries = offsets.back();
  const Array entries_array(std::make_shared<const ArrayData>(
      element_type(*output), entries, std::vector<std::shared_ptr<Buffer>>{nullptr}, 0, 0,
      std::move(children)));
  const int64_t null_count = validity.null_count();
  return result_of(make_list(output, length, validity.finish(), null_count,
                             Buffer::copy_of(offsets.data(),
                                             static_cast<int64_t>(offsets.size() * sizeof(int32_t)),
                                             context.allocator),
                             entries_array),
                   arguments);
}

// --- shuffle ---------------------------------------------------------------------------------

/// shuffle(array[, seed]): each row's elements in a random order, from one generator seeded by
/// `seed` (a random seed without it) that runs on from row to row, so a fixed seed gives the
/// same order for the same rows.
class ShuffleFunction final : public ScalarFunction {
 public:
  ShuffleFunction()
      : ScalarFunction("shuffle", {1, 2}, NullHandling::kPropagates,
                       "The elements of the array in a random order; the same for a fixed "
                       "seed.") {}

  bool deterministic() const override { return false; }

  std::vector<Signature> signatures() const override {
    return parse_signatures({"(array<T>[, seed: bigint]) -> array<T>"});
  }

  Resolution resolve(std::span<const TypePtr> arguments, const FunctionOptions&) const override {
    require_array(name(), arguments, 0);
    std::vector<TypePtr> cast{arguments[0]};
    if (arguments.size() > 1) {
      cast.push_back(integer_argument(name(), arguments, 1, int64()));
    }
    return {arguments[0], std::move(cast)};
  }

  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext& context) const override {
    uint64_t state = std::random_device{}();
    if (arguments.size() > 1 && arguments[1].type()->id() == TypeId::kInt64) {
      if (!arguments[1].is_scalar()) {
        throw AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                            "Cannot resolve \"shuffle\" due to data type mismatch: the input "
                            "`seed` should be a foldable \"BIGINT\" expression; however, got a "
                            "column.");
      }
      if (!arguments[1].scalar_is_null()) {
        state = static_cast<uint64_t>(NumericArray<int64_t>(arguments[1].array()).value(0));
      }
    }
    if (arguments[0].type()->id() == TypeId::kNull) {
      return arguments[0];
    }
    const ListColumn list(arguments[0].array());
    ListGather out(list.length, context.allocator);
    std::vector<int64_t> order;
    for (int64_t i = 0; i < list.length; ++i) {
      const bool valid = list.is_valid(i);
      if (valid) {
        order.resize(static_cast<size_t>(list.size(i)));
        for (size_t k = 0; k < order.size(); ++k) {
          order[k] = list.offsets[i] + static_cast<int64_t>(k);
        }
        // Fisher-Yates with splitmix64 draws.
        for (size_t k = order.size(); k > 1; --k) {
          std::swap(order[k - 1], order[next_random(state) % k]);
        }
        for (const int64_t index : order) {
          out.add(index);
        }
      }
      out.finish_row(valid);
    }
    return result_of(out.finish(arguments[0].type(), list.values), arguments.first(1));
  }

 private:
  static uint64_t next_random(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

}  // namespace

// --- reverse and concat of arrays (reached through the string functions of those names) ------

Datum reverse_array(std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
  const ListColumn list(arguments[0].array());
  ListGather out(list.length, context.allocator);
  for (int64_t i = 0; i < list.length; ++i) {
    const bool valid = list.is_valid(i);
    for (int64_t k = list.offsets[i + 1] - 1; valid && k >= list.offsets[i]; --k) {
      out.add(k);
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, list.values), arguments);
}

std::optional<Resolution> resolve_array_concat(const std::string& name,
                                               std::span<const TypePtr> arguments) {
  const bool any_array = std::any_of(arguments.begin(), arguments.end(),
                                     [](const TypePtr& type) { return is_array_type(*type); });
  if (!any_array) {
    return std::nullopt;
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (!is_array_type(*arguments[i]) && arguments[i]->id() != TypeId::kNull) {
      throw AnalysisError("DATATYPE_MISMATCH.DATA_DIFF_TYPES",
                          "Cannot resolve \"" + name + "\" due to data type mismatch: Input to `" +
                              name + "` should all be the same type, but it's an array and " +
                              spark_type_name(*arguments[i]) + ".");
    }
  }
  const TypePtr common = wider_type(arguments, name, StringPromotion::kNo);
  return Resolution{common, std::vector<TypePtr>(arguments.size(), common)};
}

Datum concat_arrays(std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  std::vector<ListColumn> lists;
  std::vector<Array> children;
  for (const Array& column : columns) {
    lists.emplace_back(column);
    children.push_back(lists.back().values);
  }
  std::vector<int64_t> bases;
  const Array pool = pool_of(children, element_type(*output), &bases, context.allocator);
  ListGather out(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    bool valid = true;
    for (const ListColumn& list : lists) {
      valid = valid && list.is_valid(i);
    }
    for (size_t c = 0; valid && c < lists.size(); ++c) {
      out.add_range(bases[c] + lists[c].offsets[i], bases[c] + lists[c].offsets[i + 1]);
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, pool), arguments);
}

void register_array_functions(FunctionRegistry& registry) {
  constexpr NullHandling kPropagates = NullHandling::kPropagates;
  constexpr NullHandling kCustom = NullHandling::kCustom;
  add_function(registry, "array", {}, {0, -1}, kCustom,
               "An array of the arguments (cast to their common type).", {"(T...) -> array<T>"},
               resolve_array, array_kernel);
  add_function(registry, "size", {"cardinality"}, {1, 1}, kCustom,
               "The number of elements of an array or entries of a map; null for null (-1 with "
               "ANSI mode off).",
               {"(array<T>) -> int", "(map<K, V>) -> int"}, resolve_size, size_kernel<true>);
  add_function(registry, "array_size", {}, {1, 1}, kPropagates,
               "The number of elements of an array.", {"(array<T>) -> int"}, resolve_size,
               size_kernel<false>);
  add_function(
      registry, "array_contains", {}, {2, 2}, kPropagates,
      "Whether the array holds the value; null when it does not but holds a null element.",
      {"(array<T>, T) -> boolean"},
      [](const std::string& name, std::span<const TypePtr> arguments) {
        if (arguments[1]->id() == TypeId::kNull) {
          throw AnalysisError("DATATYPE_MISMATCH.NULL_TYPE",
                              "Cannot resolve \"" + name +
                                  "\" due to data type mismatch: Null typed values cannot be "
                                  "used as arguments of `" +
                                  name + "`.");
        }
        return resolve_array_and_value(name, arguments, boolean());
      },
      array_contains_kernel);
  add_function(
      registry, "array_position", {}, {2, 2}, kPropagates,
      "The 1-based position of the first element equal to the value, 0 when there is none.",
      {"(array<T>, T) -> bigint"},
      [](const std::string& name, std::span<const TypePtr> arguments) {
        return resolve_array_and_value(name, arguments, int64());
      },
      array_position_kernel);
  add_function(
      registry, "array_remove", {}, {2, 2}, kPropagates,
      "The array without the elements equal to the value.", {"(array<T>, T) -> array<T>"},
      [](const std::string& name, std::span<const TypePtr> arguments) {
        return resolve_array_and_value(name, arguments, nullptr);
      },
      array_remove_kernel);
  add_function(registry, "element_at", {}, {2, 2}, kPropagates,
               "The element at a 1-based index (negative: from the end) of an array, or the "
               "value of a key in a map.",
               {"(array<T>, index: int) -> T", "(map<K, V>, key: K) -> V"}, resolve_element_at,
               element_at_kernel<OutOfBounds::kAnsiError>);
  add_function(registry, "try_element_at", {}, {2, 2}, kPropagates,
               "element_at, null for an index out of bounds.",
               {"(array<T>, index: int) -> T", "(map<K, V>, key: K) -> V"}, resolve_element_at,
               element_at_kernel<OutOfBounds::kNull>);
  add_function(registry, "get", {}, {2, 2}, kPropagates,
               "The element at a 0-based index of an array, null out of bounds.",
               {"(array<T>, int) -> T"}, resolve_get, get_kernel);
  add_function(registry, "slice", {}, {3, 3}, kPropagates,
               "The elements of an array from a 1-based start (negative: from the end), at most "
               "length of them.",
               {"(array<T>, start: int, length: int) -> array<T>"}, resolve_slice, slice_kernel);
  add_function(registry, "array_repeat", {}, {2, 2}, kCustom,
               "An array of the value repeated count times.", {"(T, count: int) -> array<T>"},
               resolve_array_repeat, array_repeat_kernel);
  add_function(registry, "flatten", {}, {1, 1}, kPropagates,
               "The elements of an array of arrays in one array; null if any inner one is.",
               {"(array<array<T>>) -> array<T>"}, resolve_flatten, flatten_kernel);
  add_function(registry, "array_compact", {}, {1, 1}, kPropagates,
               "The array without its null elements.", {"(array<T>) -> array<T>"},
               resolve_single_array, array_compact_kernel);
  add_function(registry, "array_append", {}, {2, 2}, kCustom,
               "The array with the value added at its end.", {"(array<T>, T) -> array<T>"},
               resolve_append, append_kernel<true>);
  add_function(registry, "array_prepend", {}, {2, 2}, kCustom,
               "The array with the value added at its start.", {"(array<T>, T) -> array<T>"},
               resolve_append, append_kernel<false>);
  add_function(registry, "array_insert", {}, {3, 3}, kCustom,
               "The array with the value inserted at a 1-based position (negative: counted from "
               "-1 after the last element), padded with nulls past either end.",
               {"(array<T>, pos: int, T) -> array<T>"}, resolve_array_insert, array_insert_kernel);
  add_function(registry, "sequence", {}, {2, 3}, kPropagates,
               "The integers from start to stop (both included) by step (1 or -1 by default).",
               {"(start: integral, stop: integral[, step: integral]) -> array<integral>"},
               resolve_sequence, sequence_kernel);
  registry.add(std::make_shared<ShuffleFunction>());
  add_function(registry, "array_join", {}, {2, 3}, kPropagates,
               "The elements joined by the delimiter; null elements skipped, or replaced by the "
               "third argument.",
               {"(array<string>, delimiter: string[, null_replacement: string]) -> string"},
               resolve_array_join, array_join_kernel);
  add_function(registry, "array_max", {}, {1, 1}, kPropagates,
               "The largest non-null element (NaN above every number).", {"(array<T>) -> T"},
               resolve_array_extreme, array_extreme_kernel<true>);
  add_function(registry, "array_min", {}, {1, 1}, kPropagates, "The smallest non-null element.",
               {"(array<T>) -> T"}, resolve_array_extreme, array_extreme_kernel<false>);
  add_function(registry, "sort_array", {}, {1, 2}, kPropagates,
               "The array sorted ascending (nulls first) or descending (nulls last).",
               {"(array<T>[, asc: boolean]) -> array<T>"}, resolve_sort_array, sort_array_kernel);
  add_function(registry, "array_sort", {}, {1, 1}, kPropagates,
               "The array sorted ascending, nulls last.", {"(array<T>) -> array<T>"},
               resolve_single_array, array_sort_kernel);
  add_function(registry, "arrays_zip", {}, {0, -1}, kPropagates,
               "An array of structs whose field i is element k of array i, shorter arrays padded "
               "with nulls.",
               {"(array<any>...) -> array<any>"}, resolve_arrays_zip, arrays_zip_kernel);
}

}  // namespace bowstring::compute::collection

namespace bowstring::compute {

void register_collection_functions(FunctionRegistry& registry) {
  collection::register_array_functions(registry);
  collection::register_array_set_functions(registry);
  collection::register_map_functions(registry);
  collection::register_struct_functions(registry);
}

}  // namespace bowstring::compute
