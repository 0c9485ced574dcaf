#include "bowstring/compute/core/lambda_function.h"

#include <utility>

namespace bowstring::compute {

LambdaScalarFunction::LambdaScalarFunction(std::string name, Arity arity,
                                           NullHandling null_handling, std::string description,
                                           std::vector<std::string> signatures,
                                           LambdaResolver resolver, Kernel kernel,
                                           LambdaScalarTraits traits)
    : ScalarFunction(std::move(name), arity, null_handling, std::move(description)),
      signatures_(parse_signatures(signatures)),
      resolver_(std::move(resolver)),
      kernel_(std::move(kernel)),
      traits_(std::move(traits)) {}

Resolution LambdaScalarFunction::resolve(std::span<const TypePtr> arguments,
                                         const FunctionOptions& /*options*/) const {
  return resolver_(name(), arguments);
}

Resolution LambdaScalarFunction::resolve_with(std::span<const TypePtr> arguments,
                                              const FunctionOptions& options,
                                              const ResolveContext& context) const {
  if (!context.ansi && traits_.resolver_without_ansi) {
    return traits_.resolver_without_ansi(name(), arguments);
  }
  return resolve(arguments, options);
}

std::optional<RowWords> LambdaScalarFunction::rows_reading(size_t index,
                                                           std::span<const Datum> arguments,
                                                           int64_t length) const {
  if (traits_.rows_reading != nullptr) {
    return traits_.rows_reading(index, arguments, length);
  }
  return ScalarFunction::rows_reading(index, arguments, length);
}

Datum LambdaScalarFunction::execute(std::span<const Datum> arguments,
                                    const FunctionOptions& options, ExecContext& context) const {
  std::vector<TypePtr> types;
  types.reserve(arguments.size());
  bool null_typed = false;
  const Datum* an_array = nullptr;
  for (const Datum& argument : arguments) {
    types.push_back(argument.type());
    null_typed = null_typed || argument.type()->id() == TypeId::kNull;
    an_array = an_array == nullptr && argument.is_array() ? &argument : an_array;
  }
  const TypePtr output = resolve(types, options).output;
  if (null_typed && null_handling() == NullHandling::kPropagates) {
    Datum null = Datum::null_scalar(output, context.allocator);
    return an_array == nullptr ? null : Datum(null.to_array(an_array->length(), context.allocator));
  }
  return kernel_(arguments, output, context);
}

LambdaAggregateFunction::LambdaAggregateFunction(std::string name, Arity arity,
                                                 NullHandling null_handling,
                                                 std::string description,
                                                 std::vector<std::string> signatures,
                                                 LambdaResolver resolver, Maker maker)
    : AggregateFunction(std::move(name), arity, null_handling, std::move(description)),
      signatures_(parse_signatures(signatures)),
      resolver_(std::move(resolver)),
      maker_(std::move(maker)) {}

Resolution LambdaAggregateFunction::resolve(std::span<const TypePtr> arguments,
                                            const FunctionOptions& /*options*/) const {
  return resolver_(name(), arguments);
}

std::unique_ptr<GroupedAggregator> LambdaAggregateFunction::make_aggregator(
    std::span<const TypePtr> arguments, const FunctionOptions& options,
    ExecContext& context) const {
  return maker_(arguments, options, context);
}

}  // namespace bowstring::compute
