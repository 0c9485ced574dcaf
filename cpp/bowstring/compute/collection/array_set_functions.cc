// Set operations on arrays: one hash table over (row, element) pairs of every row at once gives
// each distinct element of a row an id; the ids decide what each row keeps.

#include <string>
#include <vector>

#include "bowstring/array/concatenate.h"
#include "bowstring/compute/aggregate/grouper.h"
#include "bowstring/compute/collection/collection_function.h"
#include "bowstring/compute/collection/list_util.h"
#include "bowstring/compute/core/coercion.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/types/spark_type_names.h"

namespace bowstring::compute::collection {

namespace {

/// Group ids of the (row, element) pairs of one or more list columns of one element type, in a
/// shared table: equal elements of the same row get the same id (nulls one id, NaNs one id).
class ElementIds {
 public:
  explicit ElementIds(const TypePtr& element, Allocator* allocator) : allocator_(allocator) {
    const TypePtr types[] = {int32(), element};
    grouper_ = Grouper::make(types, allocator);
  }

  /// The id of each element of `list` in [first(), end()).
  std::vector<uint32_t> ids_of(const ListColumn& list) {
    const std::vector<int32_t> rows = element_rows(list);
    const auto count = static_cast<int64_t>(rows.size());
    const Array keys[] = {
        make_fixed_width_array(
            int32(), count, nullptr, 0,
            Buffer::copy_of(rows.data(), count * static_cast<int64_t>(sizeof(int32_t)),
                            allocator_)),
        list.values.slice(list.first(), count)};
    return grouper_->consume(keys);
  }
  uint32_t count() const { return grouper_->num_groups(); }

 private:
  Allocator* allocator_;
  std::unique_ptr<Grouper> grouper_;
};

Resolution resolve_two_arrays(const std::string& name, std::span<const TypePtr> arguments,
                              const TypePtr& output) {
  require_array(name, arguments, 0);
  require_array(name, arguments, 1);
  const std::optional<TypePtr> common =
      wider_type_without_string_promotion(arguments[0], arguments[1]);
  if (!common) {
    throw_diff_types("BINARY_ARRAY_DIFF_TYPES", name, "two \"ARRAY\" with same element type",
                     *arguments[0], *arguments[1]);
  }
  return {output != nullptr ? output : *common, {*common, *common}};
}

Datum array_distinct_kernel(std::span<const Datum> arguments, const TypePtr& output,
                            ExecContext& context) {
  const ListColumn list(arguments[0].array());
  ElementIds table(element_type(*output), context.allocator);
  const std::vector<uint32_t> ids = table.ids_of(list);
  std::vector<bool> seen(table.count(), false);
  ListGather out(list.length, context.allocator);
  for (int64_t i = 0; i < list.length; ++i) {
    const bool valid = list.is_valid(i);
    for (int64_t k = list.offsets[i]; valid && k < list.offsets[i + 1]; ++k) {
      const uint32_t id = ids[static_cast<size_t>(k - list.first())];
      if (!seen[id]) {
        seen[id] = true;
        out.add(k);
      }
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, normalize_zeros(list.values, context.allocator)), arguments);
}

/// What a binary set operation keeps of each row.
enum class SetOperation : uint8_t { kUnion, kIntersect, kExcept };

template <SetOperation kOperation>
Datum set_operation_kernel(std::span<const Datum> arguments, const TypePtr& output,
                           ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const ListColumn left(columns[0]);
  const ListColumn right(columns[1]);
  ElementIds table(element_type(*output), context.allocator);
  const std::vector<uint32_t> left_ids = table.ids_of(left);
  const std::vector<uint32_t> right_ids = table.ids_of(right);
  std::vector<bool> in_right(table.count(), false);
  for (const uint32_t id : right_ids) {
    in_right[id] = true;
  }
  std::vector<bool> emitted(table.count(), false);
  // The pool is the left child followed by the right one.
  const Array parts[] = {left.values, right.values};
  const Array pool = concatenate(parts, context.allocator);
  const int64_t right_base = left.values.length();
  ListGather out(length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    const bool valid = left.is_valid(i) && right.is_valid(i);
    if (valid) {
      for (int64_t k = left.offsets[i]; k < left.offsets[i + 1]; ++k) {
        const uint32_t id = left_ids[static_cast<size_t>(k - left.first())];
        const bool keep = kOperation == SetOperation::kUnion       ? true
                          : kOperation == SetOperation::kIntersect ? in_right[id]
                                                                   : !in_right[id];
        if (keep && !emitted[id]) {
          emitted[id] = true;
          out.add(k);
        }
      }
      if constexpr (kOperation == SetOperation::kUnion) {
        for (int64_t k = right.offsets[i]; k < right.offsets[i + 1]; ++k) {
          const uint32_t id = right_ids[static_cast<size_t>(k - right.first())];
          if (!emitted[id]) {
            emitted[id] = true;
            out.add(right_base + k);
          }
        }
      }
    }
    out.finish_row(valid);
  }
  return result_of(out.finish(output, normalize_zeros(pool, context.allocator)), arguments);
}

Datum arrays_overlap_kernel(std::span<const Datum> arguments, const TypePtr&,
                            ExecContext& context) {
  const int64_t length = result_length(arguments);
  const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
  const ListColumn left(columns[0]);
  const ListColumn right(columns[1]);
  ElementIds table(element_type(*columns[0].type()), context.allocator);
  const std::vector<uint32_t> left_ids = table.ids_of(left);
  const std::vector<uint32_t> right_ids = table.ids_of(right);
  std::vector<bool> in_right(table.count(), false);
  for (int64_t k = 0; k < static_cast<int64_t>(right_ids.size()); ++k) {
    if (right.values.is_valid(right.first() + k)) {
      in_right[right_ids[static_cast<size_t>(k)]] = true;
    }
  }
  BooleanOutput out(length, context.allocator);
  const auto has_null = [](const ListColumn& list, int64_t i) {
    for (int64_t k = list.offsets[i]; k < list.offsets[i + 1]; ++k) {
      if (list.values.is_null(k)) {
        return true;
      }
    }
    return false;
  };
  for (int64_t i = 0; i < length; ++i) {
    bool overlap = false;
    const bool both = left.is_valid(i) && right.is_valid(i);
    for (int64_t k = left.offsets[i]; both && !overlap && k < left.offsets[i + 1]; ++k) {
      overlap =
          left.values.is_valid(k) && in_right[left_ids[static_cast<size_t>(k - left.first())]];
    }
    // No common element, both non-empty and a null among them: unknown.
    const bool unknown = !overlap && left.size(i) > 0 && right.size(i) > 0 &&
                         (has_null(left, i) || has_null(right, i));
    out.set(i, both && !unknown, overlap);
  }
  return out.finish(arguments);
}

}  // namespace

void register_array_set_functions(FunctionRegistry& registry) {
  constexpr NullHandling kPropagates = NullHandling::kPropagates;
  add_function(
      registry, "array_distinct", {}, {1, 1}, kPropagates,
      "The array without repeated elements, each kept where it first occurs.",
      {"(array<T>) -> array<T>"},
      [](const std::string& name, std::span<const TypePtr> arguments) {
        require_array(name, arguments, 0);
        return Resolution{arguments[0], {arguments[0]}};
      },
      array_distinct_kernel);
  const auto same_array = [](const std::string& name, std::span<const TypePtr> arguments) {
    return resolve_two_arrays(name, arguments, nullptr);
  };
  add_function(registry, "array_union", {}, {2, 2}, kPropagates,
               "The distinct elements of both arrays, those of the first first.",
               {"(array<T>, array<T>) -> array<T>"}, same_array,
               set_operation_kernel<SetOperation::kUnion>);
  add_function(registry, "array_intersect", {}, {2, 2}, kPropagates,
               "The distinct elements of the first array that the second holds.",
               {"(array<T>, array<T>) -> array<T>"}, same_array,
               set_operation_kernel<SetOperation::kIntersect>);
  add_function(registry, "array_except", {}, {2, 2}, kPropagates,
               "The distinct elements of the first array that the second lacks.",
               {"(array<T>, array<T>) -> array<T>"}, same_array,
               set_operation_kernel<SetOperation::kExcept>);
  add_function(
      registry, "arrays_overlap", {}, {2, 2}, kPropagates,
      "Whether the arrays share a non-null element; null when they do not, both are non-empty "
      "and one holds a null.",
      {"(array<T>, array<T>) -> boolean"},
      [](const std::string& name, std::span<const TypePtr> arguments) {
        return resolve_two_arrays(name, arguments, boolean());
      },
      arrays_overlap_kernel);
}

}  // namespace bowstring::compute::collection
