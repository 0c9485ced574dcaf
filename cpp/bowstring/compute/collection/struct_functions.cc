// struct and named_struct: the argument columns become the fields of a struct, without copying.

#include <string>
#include <vector>

#include "bowstring/compute/collection/collection_function.h"
#include "bowstring/compute/collection/list_util.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/types/spark_type_names.h"

namespace bowstring::compute::collection {

namespace {

/// A struct of `output`'s type whose fields are `columns` (never null itself).
Array make_struct(const TypePtr& output, int64_t length, const std::vector<Array>& columns) {
  std::vector<ArrayDataPtr> children;
  children.reserve(columns.size());
  for (const Array& column : columns) {
    children.push_back(column.data());
  }
  return Array(std::make_shared<const ArrayData>(
      output, length, std::vector<std::shared_ptr<Buffer>>{nullptr}, 0, 0, std::move(children)));
}

Datum struct_kernel(std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
  const int64_t length = result_length(arguments);
  return result_of(make_struct(output, length, arrays_of(arguments, length, context.allocator)),
                   arguments);
}

/// named_struct(name1, value1, ...): the names must be constant strings, so the result type is
/// known only from the call's constants.
class NamedStructFunction final : public ScalarFunction {
 public:
  NamedStructFunction()
      : ScalarFunction("named_struct", {2, -1}, NullHandling::kCustom,
                       "A struct of the values under the names given before each of them.") {}

  std::vector<Signature> signatures() const override {
    return parse_signatures({"(name: string, value: any[, name: string, value: any]...) -> any"});
  }

  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& options) const override {
    return resolve_with(arguments, options, ResolveContext{});
  }

  Resolution resolve_with(std::span<const TypePtr> arguments, const FunctionOptions&,
                          const ResolveContext& context) const override {
    check_pairs(name(), arguments.size());
    FieldVector fields;
    for (size_t i = 0; i < arguments.size(); i += 2) {
      const Datum* name = context.constant(i);
      // Without the call's constants (a resolution of types alone), the names are not known.
      if (context.constants.empty() && arguments[i]->id() == TypeId::kString) {
        fields.push_back(field("col" + std::to_string(i / 2 + 1), arguments[i + 1]));
        continue;
      }
      if (name == nullptr || arguments[i]->id() != TypeId::kString || name->scalar_is_null()) {
        throw AnalysisError("DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING",
                            "Cannot resolve \"named_struct\" due to data type mismatch: Only "
                            "foldable `STRING` expressions are allowed to appear at odd position, "
                            "but they are [\"" +
                                spark_type_name(*arguments[i]) + "\"].");
      }
      fields.push_back(field(std::string(StringArray(name->array()).value(0)), arguments[i + 1]));
    }
    return {struct_(std::move(fields)), std::vector<TypePtr>(arguments.begin(), arguments.end())};
  }

  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext& context) const override {
    const int64_t length = result_length(arguments);
    FieldVector fields;
    std::vector<Array> values;
    for (size_t i = 0; i + 1 < arguments.size(); i += 2) {
      fields.push_back(
          field(std::string(StringArray(arguments[i].array()).value(0)), arguments[i + 1].type()));
      values.push_back(arguments[i + 1].is_array()
                           ? arguments[i + 1].array()
                           : arguments[i + 1].to_array(length, context.allocator));
    }
    return result_of(make_struct(struct_(std::move(fields)), length, values), arguments);
  }
};

}  // namespace

void register_struct_functions(FunctionRegistry& registry) {
  add_function(
      registry, "struct", {}, {0, -1}, NullHandling::kCustom,
      "A struct of the arguments, as fields col1, col2...", {"(any...) -> any"},
      [](const std::string&, std::span<const TypePtr> arguments) {
        FieldVector fields;
        for (size_t i = 0; i < arguments.size(); ++i) {
          fields.push_back(field("col" + std::to_string(i + 1), arguments[i]));
        }
        return Resolution{struct_(std::move(fields)),
                          std::vector<TypePtr>(arguments.begin(), arguments.end())};
      },
      struct_kernel);
  registry.add(std::make_shared<NamedStructFunction>());
}

}  // namespace bowstring::compute::collection
