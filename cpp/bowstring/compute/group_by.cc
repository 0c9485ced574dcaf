#include "bowstring/compute/group_by.h"

#include <memory>
#include <string>

#include "bowstring/compute/errors.h"
#include "bowstring/compute/grouper.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {

namespace {

/// `argument` cast to `type` with the registry's `cast`, as `call` casts arguments.
Datum cast_to(const Datum& argument, const TypePtr& type, ExecContext& context,
              const FunctionRegistry& registry) {
  const FunctionOptions options{{"to", type}};
  const Datum arguments[] = {argument};
  return call("cast", arguments, options, &context, registry);
}

}  // namespace

std::vector<Array> group_by(std::span<const Array> keys, std::span<const AggregateCall> aggregates,
                            ExecContext& context, const FunctionRegistry& registry) {
  if (keys.empty()) {
    throw InvalidArgument("group_by needs at least one key column");
  }
  const int64_t rows = keys[0].length();
  std::vector<TypePtr> key_types;
  for (const Array& key : keys) {
    if (key.length() != rows) {
      throw InvalidArgument("group_by: key columns have different lengths: " +
                            std::to_string(rows) + " and " + std::to_string(key.length()));
    }
    key_types.push_back(key.type());
  }

  struct Prepared {
    std::vector<Datum> arguments;
    std::unique_ptr<GroupedAggregator> aggregator;
  };
  std::vector<Prepared> prepared;
  for (const AggregateCall& aggregate : aggregates) {
    const Function& function = registry.get(aggregate.function);
    if (function.kind() != Function::Kind::kAggregate) {
      throw AnalysisError("UNSUPPORTED_GROUPING_EXPRESSION",
                          "`" + aggregate.function + "` is not an aggregate function");
    }
    function.check_arity(static_cast<int64_t>(aggregate.arguments.size()));
    std::vector<TypePtr> types;
    for (size_t i = 0; i < aggregate.arguments.size(); ++i) {
      const Datum& argument = aggregate.arguments[i];
      if (argument.is_array() && argument.length() != rows) {
        throw InvalidArgument("group_by: argument " + std::to_string(i + 1) + " of `" +
                              aggregate.function + "` has " + std::to_string(argument.length()) +
                              " rows, the keys " + std::to_string(rows));
      }
      types.push_back(argument.type());
    }
    const Resolution resolution = function.resolve(types, aggregate.options);
    std::vector<Datum> arguments = aggregate.arguments;
    for (size_t i = 0; i < arguments.size() && i < resolution.arguments.size(); ++i) {
      if (!types_equal(arguments[i].type(), resolution.arguments[i])) {
        arguments[i] = cast_to(arguments[i], resolution.arguments[i], context, registry);
      }
    }
    prepared.push_back(
        {std::move(arguments), static_cast<const AggregateFunction&>(function).make_aggregator(
                                   resolution.arguments, aggregate.options, context)});
  }

  std::unique_ptr<Grouper> grouper = Grouper::make(key_types, context.allocator);
  const std::vector<uint32_t> group_ids = grouper->consume(keys);
  std::vector<Array> result = grouper->unique_keys();
  for (Prepared& entry : prepared) {
    entry.aggregator->resize(grouper->num_groups());
    entry.aggregator->update(entry.arguments, group_ids);
    result.push_back(entry.aggregator->finish());
  }
  return result;
}

}  // namespace bowstring::compute
