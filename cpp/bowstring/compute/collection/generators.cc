#include "bowstring/compute/collection/generators.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <utility>

#include "bowstring/array/concatenate.h"
#include "bowstring/compute/collection/list_util.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/types/spark_type_names.h"

namespace bowstring::compute {

Generator::Generator(std::string name, Function::Arity arity, std::string description)
    : name_(std::move(name)), arity_(arity), description_(std::move(description)) {}

Generator::~Generator() = default;

void Generator::check_arity(int64_t count) const {
  if (count >= arity_.min_args && (arity_.max_args < 0 || count <= arity_.max_args)) {
    return;
  }
  std::string expected;
  if (arity_.max_args == arity_.min_args) {
    expected = std::to_string(arity_.min_args);
  } else if (arity_.max_args < 0) {
    expected.append("> ").append(std::to_string(arity_.min_args - 1));
  } else {
    expected.append("[")
        .append(std::to_string(arity_.min_args))
        .append(", ")
        .append(std::to_string(arity_.max_args))
        .append("]");
  }
  throw AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                      "The `" + name_ + "` requires " + expected +
                          " parameters but the actual number is " + std::to_string(count) + ".");
}

namespace collection {
namespace {

/// Output rows of a generator, written in place: per output row its input row, the index of
/// the element it shows (-1: null) and, when asked, its position (-1: null).
struct RowPicks {
  RowPicks(int64_t count, bool with_positions, Allocator* allocator)
      : count(count),
        input_rows(count, allocator),
        elements(static_cast<size_t>(count)),
        positions(with_positions ? static_cast<size_t>(count) : 0) {}

  void set(int64_t k, int64_t row, int64_t element, int32_t position) {
    input_rows.data()[k] = row;
    elements[static_cast<size_t>(k)] = element;
    if (!positions.empty()) {
      positions[static_cast<size_t>(k)] = position;
    }
  }

  Array rows_array() {
    return make_fixed_width_array(int64(), count, nullptr, 0, input_rows.finish());
  }

  Array positions_array(Allocator* allocator) const {
    const auto count = static_cast<int64_t>(positions.size());
    ValidityOutput validity(count, allocator);
    OutputValues<int32_t> values(count, allocator);
    for (int64_t k = 0; k < count; ++k) {
      const int32_t position = positions[static_cast<size_t>(k)];
      validity.set(k, position >= 0);
      values.data()[k] = std::max(position, 0);
    }
    const int64_t null_count = validity.null_count();
    return make_fixed_width_array(int32(), count, validity.finish(), null_count, values.finish());
  }

  int64_t count;
  OutputValues<int64_t> input_rows;
  std::vector<int64_t> elements;
  std::vector<int32_t> positions;
};

/// Field `index` of a struct array, cut to the struct's window.
Array struct_field(const Array& array, int index) {
  return Array(array.data()->children[static_cast<size_t>(index)])
      .slice(array.offset(), array.length());
}

/// Which rows an outer generator adds: one row of nulls for a null or empty collection.
RowPicks pick_elements(const ListColumn& list, bool outer, bool skip_null_elements,
                       bool with_positions, Allocator* allocator) {
  int64_t count = 0;
  for (int64_t i = 0; i < list.length; ++i) {
    const int64_t size = list.is_valid(i) ? list.size(i) : 0;
    count += size == 0 ? (outer ? 1 : 0) : size;
  }
  RowPicks picks(count, with_positions, allocator);
  int64_t k = 0;
  for (int64_t i = 0; i < list.length; ++i) {
    const int64_t size = list.is_valid(i) ? list.size(i) : 0;
    if (size == 0) {
      if (outer) {
        picks.set(k++, i, -1, -1);
      }
      continue;
    }
    for (int64_t e = 0; e < size; ++e) {
      const int64_t element = list.offsets[i] + e;
      const bool null_element = skip_null_elements && list.values.is_null(element);
      picks.set(k++, i, null_element ? -1 : element, static_cast<int32_t>(e));
    }
  }
  return picks;
}

/// explode, explode_outer, posexplode, posexplode_outer.
class ExplodeGenerator final : public Generator {
 public:
  ExplodeGenerator(std::string name, bool outer, bool with_position, std::string description)
      : Generator(std::move(name), {1, 1}, std::move(description)),
        outer_(outer),
        with_position_(with_position) {}

  FieldVector output_fields(std::span<const TypePtr> arguments,
                            const ResolveContext&) const override {
    check_arity(static_cast<int64_t>(arguments.size()));
    FieldVector fields;
    if (with_position_) {
      fields.push_back(field("pos", int32()));
    }
    const DataType& type = *arguments[0];
    if (type.id() == TypeId::kList) {
      fields.push_back(field("col", element_type(type)));
    } else if (type.id() == TypeId::kMap) {
      const auto& map_type = static_cast<const MapType&>(type);
      fields.push_back(field("key", map_type.key_type()));
      fields.push_back(field("value", map_type.item_type()));
    } else {
      throw_input_type(name(), 0, "(\"ARRAY\" or \"MAP\")", type);
    }
    return fields;
  }

  GeneratorResult generate(std::span<const Datum> arguments, ExecContext& context) const override {
    const int64_t length = result_length(arguments);
    const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
    const ListColumn list(columns[0]);
    if (shows_child_as_is(list, outer_)) {
      return explode_in_place(list, context.allocator);
    }
    RowPicks picks = pick_elements(list, outer_, false, with_position_, context.allocator);
    GeneratorResult result;
    if (with_position_) {
      result.columns.push_back(picks.positions_array(context.allocator));
    }
    if (columns[0].type()->id() == TypeId::kMap) {
      std::vector<int64_t> value_picks = picks.elements;
      result.columns.push_back(
          take_or_null(struct_field(list.values, 0), picks.elements, context.allocator));
      result.columns.push_back(
          take_or_null(struct_field(list.values, 1), value_picks, context.allocator));
    } else {
      result.columns.push_back(take_or_null(list.values, picks.elements, context.allocator));
    }
    result.input_rows = picks.rows_array();
    return result;
  }

 private:
  /// Whether the output column is the child's range [first(), end()) as it is: no null row
  /// holds elements and, for an outer generator, no row is null or empty.
  static bool shows_child_as_is(const ListColumn& list, bool outer) {
    for (int64_t i = 0; i < list.length; ++i) {
      if (list.is_valid(i) ? outer && list.size(i) == 0 : outer || list.size(i) != 0) {
        return false;
      }
    }
    return true;
  }

  /// The output of a batch whose elements are shown as they are: the columns are slices of
  /// the child, the positions and input rows written in one pass over the offsets.
  GeneratorResult explode_in_place(const ListColumn& list, Allocator* allocator) const {
    const int64_t first = list.first();
    const int64_t count = list.end() - first;
    OutputValues<int64_t> rows(count, allocator);
    OutputValues<int32_t> positions(with_position_ ? count : 0, allocator);
    int64_t* row_out = rows.data();
    int32_t* position_out = positions.data();
    for (int64_t i = 0; i < list.length; ++i) {
      const int64_t begin = list.offsets[i] - first;
      const int64_t end = list.offsets[i + 1] - first;
      std::fill(row_out + begin, row_out + end, i);
      if (with_position_) {
        for (int64_t k = begin; k < end; ++k) {
          position_out[k] = static_cast<int32_t>(k - begin);
        }
      }
    }
    GeneratorResult result;
    if (with_position_) {
      result.columns.push_back(
          make_fixed_width_array(int32(), count, nullptr, 0, positions.finish()));
    }
    const Array elements = list.values.slice(first, count);
    if (elements.type()->id() == TypeId::kStruct && list.array.type()->id() == TypeId::kMap) {
      result.columns.push_back(struct_field(elements, 0));
      result.columns.push_back(struct_field(elements, 1));
    } else {
      result.columns.push_back(elements);
    }
    result.input_rows = make_fixed_width_array(int64(), count, nullptr, 0, rows.finish());
    return result;
  }

  bool outer_;
  bool with_position_;
};

/// inline, inline_outer: the fields of an array's structs as columns; a null struct gives a
/// row of nulls.
class InlineGenerator final : public Generator {
 public:
  InlineGenerator(std::string name, bool outer, std::string description)
      : Generator(std::move(name), {1, 1}, std::move(description)), outer_(outer) {}

  FieldVector output_fields(std::span<const TypePtr> arguments,
                            const ResolveContext&) const override {
    check_arity(static_cast<int64_t>(arguments.size()));
    const DataType& type = *arguments[0];
    if (type.id() != TypeId::kList || element_type(type)->id() != TypeId::kStruct) {
      throw_input_type(name(), 0, "\"ARRAY<STRUCT>\"", type);
    }
    FieldVector fields;
    const DataType& element = *element_type(type);
    for (int i = 0; i < element.num_fields(); ++i) {
      fields.push_back(field(element.field(i)->name(), element.field(i)->type()));
    }
    return fields;
  }

  GeneratorResult generate(std::span<const Datum> arguments, ExecContext& context) const override {
    const int64_t length = result_length(arguments);
    const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
    const ListColumn list(columns[0]);
    RowPicks picks = pick_elements(list, outer_, true, false, context.allocator);
    GeneratorResult result;
    for (int i = 0; i < list.values.type()->num_fields(); ++i) {
      std::vector<int64_t> elements = picks.elements;
      result.columns.push_back(
          take_or_null(struct_field(list.values, i), elements, context.allocator));
    }
    result.input_rows = picks.rows_array();
    return result;
  }

 private:
  bool outer_;
};

/// stack(n, v1, v2...): the values as n rows of ceil(count / n) columns, the last row padded
/// with nulls.
class StackGenerator final : public Generator {
 public:
  StackGenerator()
      : Generator("stack", {2, -1}, "The values after n as n rows of their columns.") {}

  FieldVector output_fields(std::span<const TypePtr> arguments,
                            const ResolveContext& context) const override {
    check_arity(static_cast<int64_t>(arguments.size()));
    const Datum* count = context.constant(0);
    if (arguments[0]->id() != TypeId::kInt32) {
      throw_input_type(name(), 0, "\"INT\"", *arguments[0]);
    }
    if (count == nullptr || count->scalar_is_null()) {
      throw AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                          "Cannot resolve \"stack\" due to data type mismatch: the input `n` "
                          "should be a foldable \"INT\" expression; however, got a column.");
    }
    const int32_t rows = NumericArray<int32_t>(count->array()).value(0);
    const int64_t width = columns_of(rows, arguments.size() - 1);
    FieldVector fields;
    for (int64_t j = 0; j < width; ++j) {
      TypePtr type = null();
      for (size_t i = 1 + static_cast<size_t>(j); i < arguments.size();
           i += static_cast<size_t>(width)) {
        const TypePtr& value = arguments[i];
        if (value->id() == TypeId::kNull) {
          continue;
        }
        if (type->id() != TypeId::kNull && !type->equals(*value)) {
          throw AnalysisError("DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES",
                              "Cannot resolve \"stack\" due to data type mismatch: The data type "
                              "of the column (" +
                                  std::to_string(j) + ") do not have the same type: " +
                                  spark_type_name(*type) + " <> " + spark_type_name(*value) + ".");
        }
        type = value;
      }
      fields.push_back(field("col" + std::to_string(j), type));
    }
    return fields;
  }

  GeneratorResult generate(std::span<const Datum> arguments, ExecContext& context) const override {
    const int64_t length = result_length(arguments);
    const int32_t rows = NumericArray<int32_t>(arguments[0].array()).value(0);
    const auto values = static_cast<int64_t>(arguments.size()) - 1;
    const int64_t width = columns_of(rows, static_cast<size_t>(values));
    const std::vector<Array> columns = arrays_of(arguments, length, context.allocator);
    GeneratorResult result;
    std::vector<int64_t> input_rows;
    for (int64_t i = 0; i < length; ++i) {
      input_rows.insert(input_rows.end(), static_cast<size_t>(rows), i);
    }
    for (int64_t j = 0; j < width; ++j) {
      // The pool of column j is its values one after the other; output row (i, r) shows value
      // r * width + j of input row i.
      std::vector<Array> parts;
      TypePtr type = null();
      for (int64_t r = 0; r < rows && r * width + j < values; ++r) {
        const Array& part = columns[static_cast<size_t>(1 + r * width + j)];
        type = part.type()->id() != TypeId::kNull ? part.type() : type;
      }
      std::vector<int64_t> picks;
      for (int64_t r = 0; r < rows && r * width + j < values; ++r) {
        const Array& part = columns[static_cast<size_t>(1 + r * width + j)];
        parts.push_back(
            part.type()->equals(*type)
                ? part
                : Datum::null_scalar(type, context.allocator).to_array(length, context.allocator));
      }
      const auto filled = static_cast<int64_t>(parts.size());
      for (int64_t i = 0; i < length; ++i) {
        for (int64_t r = 0; r < rows; ++r) {
          picks.push_back(r < filled ? r * length + i : -1);
        }
      }
      const Array pool = pool_of(parts, type, nullptr, context.allocator);
      result.columns.push_back(take_or_null(pool, picks, context.allocator));
    }
    const auto count = static_cast<int64_t>(input_rows.size());
    result.input_rows = make_fixed_width_array(
        int64(), count, nullptr, 0,
        Buffer::copy_of(input_rows.data(), count * static_cast<int64_t>(sizeof(int64_t)),
                        context.allocator));
    return result;
  }

 private:
  int64_t columns_of(int32_t rows, size_t values) const {
    if (rows < 1) {
      throw AnalysisError("DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
                          "Cannot resolve \"stack\" due to data type mismatch: The `n` must be "
                          "between [1, 2147483647], but got " +
                              std::to_string(rows) + ".");
    }
    return (static_cast<int64_t>(values) + rows - 1) / rows;
  }
};

std::vector<std::unique_ptr<Generator>> make_generators() {
  std::vector<std::unique_ptr<Generator>> generators;
  generators.push_back(std::make_unique<ExplodeGenerator>(
      "explode", false, false, "A row per element of an array or entry of a map."));
  generators.push_back(std::make_unique<ExplodeGenerator>(
      "explode_outer", true, false, "explode, with a row of nulls for a null or empty input."));
  generators.push_back(std::make_unique<ExplodeGenerator>(
      "posexplode", false, true, "explode with each element's 0-based position."));
  generators.push_back(std::make_unique<ExplodeGenerator>(
      "posexplode_outer", true, true,
      "posexplode, with a row of nulls for a null or empty input."));
  generators.push_back(std::make_unique<InlineGenerator>(
      "inline", false, "A row per struct of an array, its fields as columns."));
  generators.push_back(std::make_unique<InlineGenerator>(
      "inline_outer", true, "inline, with a row of nulls for a null or empty array."));
  generators.push_back(std::make_unique<StackGenerator>());
  return generators;
}

const std::vector<std::unique_ptr<Generator>>& generators() {
  static const std::vector<std::unique_ptr<Generator>> all = make_generators();
  return all;
}

}  // namespace
}  // namespace collection

const Generator* find_generator(std::string_view name) {
  for (const auto& generator : collection::generators()) {
    const std::string& own = generator->name();
    if (own.size() == name.size() &&
        std::equal(own.begin(), own.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      return generator.get();
    }
  }
  return nullptr;
}

std::vector<std::string> generator_names() {
  std::vector<std::string> names;
  for (const auto& generator : collection::generators()) {
    names.push_back(generator->name());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace bowstring::compute
