#include "bowstring/compute/aggregate/group_by.h"

#include <algorithm>
#include <memory>
#include <string>

#include "bowstring/compute/aggregate/grouper.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/runtime/parallel.h"
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

/// The groups and aggregator states of a range of rows.
struct Partial {
  std::unique_ptr<Grouper> grouper;
  std::vector<std::unique_ptr<GroupedAggregator>> aggregators;
};

/// Groups and aggregates rows [begin, end) into `partial`.
void aggregate_rows(std::span<const Array> keys, std::span<const PreparedAggregate> aggregates,
                    int64_t begin, int64_t end, Partial& partial) {
  // Rows go through in batches, so that the group ids of a batch stay in the caches between
  // the grouper and the aggregators (and no array of ids as long as the input is allocated).
  constexpr int64_t kBatchRows = 64 * 1024;
  const bool whole = begin == 0 && end == keys[0].length();
  std::vector<uint32_t> group_ids(static_cast<size_t>(std::min(end - begin, kBatchRows)));
  std::vector<Array> batch_keys(keys.size());
  std::vector<Datum> batch_arguments;
  for (int64_t start = begin; start < end; start += kBatchRows) {
    const int64_t length = std::min(kBatchRows, end - start);
    const bool all = whole && length == end;
    for (size_t c = 0; c < keys.size(); ++c) {
      batch_keys[c] = all ? keys[c] : keys[c].slice(start, length);
    }
    partial.grouper->consume(batch_keys, group_ids.data());
    const std::span<const uint32_t> ids(group_ids.data(), static_cast<size_t>(length));
    for (size_t a = 0; a < aggregates.size(); ++a) {
      batch_arguments.clear();
      for (const Datum& argument : aggregates[a].arguments) {
        batch_arguments.push_back(
            argument.is_scalar() || all ? argument : Datum(argument.array().slice(start, length)));
      }
      partial.aggregators[a]->resize(partial.grouper->num_groups());
      partial.aggregators[a]->update(batch_arguments, ids);
    }
  }
}

}  // namespace

PreparedAggregate prepare_aggregate(const AggregateCall& aggregate, int64_t rows,
                                    std::string_view caller, ExecContext& context,
                                    const FunctionRegistry& registry) {
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
      throw InvalidArgument(std::string(caller) + ": argument " + std::to_string(i + 1) + " of `" +
                            aggregate.function + "` has " + std::to_string(argument.length()) +
                            " rows, the input " + std::to_string(rows));
    }
    types.push_back(argument.type());
    constants.push_back(argument.is_scalar() ? &argument : nullptr);
  }
  const Resolution resolution = function.resolve_with(
      types, aggregate.options, ResolveContext{context.ansi, constants, context.session_time_zone});
  std::vector<Datum> arguments = aggregate.arguments;
  for (size_t i = 0; i < arguments.size() && i < resolution.arguments.size(); ++i) {
    if (!types_equal(arguments[i].type(), resolution.arguments[i])) {
      arguments[i] = cast_to(arguments[i], resolution.arguments[i], context, registry);
    }
  }
  FunctionOptions aggregator_options = aggregate.options;
  aggregator_options.insert_or_assign("grouped", true);
  return {static_cast<const AggregateFunction*>(&function), resolution.arguments, resolution.output,
          std::move(aggregator_options), std::move(arguments)};
}

std::vector<Array> group_by(std::span<const Array> keys, std::span<const AggregateCall> aggregates,
                            ExecContext& context, const FunctionRegistry& registry,
                            const GroupByOptions& options) {
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

  std::vector<PreparedAggregate> prepared;
  for (const AggregateCall& aggregate : aggregates) {
    prepared.push_back(prepare_aggregate(aggregate, rows, "group_by", context, registry));
  }

  const int threads = options.threads > 0 ? options.threads : hardware_threads();
  const int64_t min_rows = std::max<int64_t>(1, options.min_rows_per_thread);
  const auto ranges = static_cast<int>(std::clamp<int64_t>(rows / min_rows, 1, threads));
  std::vector<Partial> partials(static_cast<size_t>(ranges));
  for (Partial& partial : partials) {
    partial.grouper = Grouper::make(key_types, context.allocator);
    for (const PreparedAggregate& aggregate : prepared) {
      partial.aggregators.push_back(aggregate.make_aggregator(context));
    }
  }
  parallel_for(ranges, ranges, [&](int64_t range, int) {
    aggregate_rows(keys, prepared, rows * range / ranges, rows * (range + 1) / ranges,
                   partials[static_cast<size_t>(range)]);
  });

  // The first range's groups and aggregators take in the others', range after range, so that
  // the groups stay in order of first appearance.
  Partial& first = partials[0];
  for (size_t p = 1; p < partials.size(); ++p) {
    const std::vector<Array> range_keys = partials[p].grouper->unique_keys();
    if (p == 1) {
      std::vector<TypePtr> unique_types;
      for (const Array& key : range_keys) {
        unique_types.push_back(key.type());
      }
      if (!std::equal(unique_types.begin(), unique_types.end(), key_types.begin(),
                      [](const TypePtr& a, const TypePtr& b) { return types_equal(a, b); })) {
        // Unique keys come out decoded (dictionaries as their values): a grouper of their types
        // takes the first range's keys, which get the same group ids.
        std::unique_ptr<Grouper> decoded = Grouper::make(unique_types, context.allocator);
        decoded->consume(first.grouper->unique_keys());
        first.grouper = std::move(decoded);
      }
    }
    const std::vector<uint32_t> ids = first.grouper->consume(range_keys);
    for (size_t a = 0; a < prepared.size(); ++a) {
      first.aggregators[a]->resize(first.grouper->num_groups());
      first.aggregators[a]->merge(partials[p].aggregators[a]->state(), ids);
    }
    partials[p] = {};
  }
  std::vector<Array> result = first.grouper->unique_keys();
  for (const std::unique_ptr<GroupedAggregator>& aggregator : first.aggregators) {
    aggregator->resize(first.grouper->num_groups());
    result.push_back(aggregator->finish());
  }
  return result;
}

}  // namespace bowstring::compute
