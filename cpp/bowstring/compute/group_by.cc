#include "bowstring/compute/group_by.h"

#include <algorithm>
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
    std::vector<const Datum*> constants;
    for (size_t i = 0; i < aggregate.arguments.size(); ++i) {
      const Datum& argument = aggregate.arguments[i];
      if (argument.is_array() && argument.length() != rows) {
        throw InvalidArgument("group_by: argument " + std::to_string(i + 1) + " of `" +
                              aggregate.function + "` has " + std::to_string(argument.length()) +
                              " rows, the keys " + std::to_string(rows));
      }
      types.push_back(argument.type());
      constants.push_back(argument.is_scalar() ? &argument : nullptr);
    }
    const Resolution resolution =
        function.resolve_with(types, aggregate.options, ResolveContext{context.ansi, constants});
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

  // Rows go through in batches, so that the group ids of a batch stay in the caches between
  // the grouper and the aggregators (and no array of ids as long as the input is allocated).
  constexpr int64_t kBatchRows = 64 * 1024;
  std::unique_ptr<Grouper> grouper = Grouper::make(key_types, context.allocator);
  std::vector<uint32_t> group_ids(static_cast<size_t>(std::min(rows, kBatchRows)));
  std::vector<Array> batch_keys(keys.size());
  std::vector<Datum> batch_arguments;
  for (int64_t begin = 0; begin < rows; begin += kBatchRows) {
    const int64_t length = std::min(kBatchRows, rows - begin);
    const bool whole = begin == 0 && length == rows;
    for (size_t c = 0; c < keys.size(); ++c) {
      batch_keys[c] = whole ? keys[c] : keys[c].slice(begin, length);
    }
    grouper->consume(batch_keys, group_ids.data());
    const std::span<const uint32_t> ids(group_ids.data(), static_cast<size_t>(length));
    for (Prepared& entry : prepared) {
      batch_arguments.clear();
      for (const Datum& argument : entry.arguments) {
        batch_arguments.push_back(argument.is_scalar() || whole
                                      ? argument
                                      : Datum(argument.array().slice(begin, length)));
      }
      entry.aggregator->resize(grouper->num_groups());
      entry.aggregator->update(batch_arguments, ids);
    }
  }
  std::vector<Array> result = grouper->unique_keys();
  for (Prepared& entry : prepared) {
    entry.aggregator->resize(grouper->num_groups());
    result.push_back(entry.aggregator->finish());
  }
  return result;
}

}  // namespace bowstring::compute
