#include "bowstring/compute/core/function.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <mutex>

#include "bowstring/compute/core/coercion.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/predicate_util.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/util/suggest.h"

namespace bowstring::compute {

namespace {

std::string lower_case(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string list = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    list += (i > 0 ? ", `" : "`") + names[i] + "`";
  }
  return list + "]";
}

}  // namespace

Function::Function(std::string name, Kind kind, Arity arity, NullHandling null_handling,
                   std::string description)
    : name_(std::move(name)),
      kind_(kind),
      arity_(arity),
      null_handling_(null_handling),
      description_(std::move(description)) {}

Function::~Function() = default;

void Function::check_arity(int64_t count) const {
  const bool too_few = count < arity_.min_args;
  const bool too_many = arity_.max_args >= 0 && count > arity_.max_args;
  if (!too_few && !too_many) {
    return;
  }
  std::string expected;
  if (arity_.max_args == arity_.min_args) {
    expected = std::to_string(arity_.min_args);
  } else if (arity_.max_args < 0) {
    expected = "at least " + std::to_string(arity_.min_args);
  } else {
    expected =
        "between " + std::to_string(arity_.min_args) + " and " + std::to_string(arity_.max_args);
  }
  throw AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                      "The `" + name_ + "` requires " + expected + " parameters but the actual " +
                          "number is " + std::to_string(count) + ".");
}

Resolution Function::resolve_with(std::span<const TypePtr> arguments,
                                  const FunctionOptions& options,
                                  const ResolveContext& /*context*/) const {
  return resolve(arguments, options);
}

std::optional<RowWords> Function::rows_reading(size_t index, std::span<const Datum> arguments,
                                               int64_t length) const {
  if (kind_ != Kind::kScalar || null_handling_ != NullHandling::kPropagates) {
    return std::nullopt;
  }
  return rows_where_valid(arguments.first(std::min(index, arguments.size())), length);
}

std::optional<RowWords> rows_where_valid(std::span<const Datum> arguments, int64_t length) {
  std::optional<RowWords> rows;
  for (const Datum& argument : arguments) {
    const detail::BitSource valid = detail::validity_source(argument);
    if (valid.bits == nullptr && valid.fill != 0) {
      continue;
    }
    if (!rows) {
      rows.emplace(static_cast<size_t>((length + 63) / 64), ~uint64_t{0});
    }
    for (int64_t row = 0; row < length; row += 64) {
      (*rows)[static_cast<size_t>(row / 64)] &=
          valid.word(row, std::min<int64_t>(64, length - row));
    }
  }
  if (rows && length % 64 != 0) {
    rows->back() &= (uint64_t{1} << (length % 64)) - 1;
  }
  return rows;
}

namespace {

/// `value` with the rows outside `rows` null: a scalar read by no row becomes a null of type
/// `to`; an array gets a new validity bitmap (its values shared) when that hides a valid row.
Datum keep_rows(const Datum& value, const RowWords& rows, int64_t length, const TypePtr& to,
                Allocator* allocator) {
  if (value.is_scalar()) {
    const bool any = std::any_of(rows.begin(), rows.end(), [](uint64_t word) { return word != 0; });
    return any ? value : Datum::null_scalar(to, allocator);
  }
  const ArrayData& data = *value.data();
  const TypeId id = data.type->storage_id();
  // These layouts keep their nulls elsewhere than in a validity bitmap.
  if (id == TypeId::kNull || id == TypeId::kDenseUnion || id == TypeId::kSparseUnion ||
      id == TypeId::kRunEndEncoded) {
    return value;
  }
  const detail::BitSource valid = detail::validity_source(value);
  RowWords kept(rows.size());
  bool hides_a_value = false;
  int64_t valid_count = 0;
  for (int64_t row = 0; row < length; row += 64) {
    const auto w = static_cast<size_t>(row / 64);
    const int64_t count = std::min<int64_t>(64, length - row);
    const uint64_t tail = count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
    const uint64_t valid_word = valid.word(row, count) & tail;
    kept[w] = valid_word & rows[w];
    hides_a_value = hides_a_value || kept[w] != valid_word;
    valid_count += std::popcount(kept[w]);
  }
  if (!hides_a_value) {
    return value;
  }
  MutableBuffer bitmap(bit_util::bytes_for_bits(data.offset + length), allocator);
  bit_util::copy_bitmap(reinterpret_cast<const uint8_t*>(kept.data()), 0, length,
                        bitmap.mutable_data(), data.offset);
  std::vector<std::shared_ptr<Buffer>> buffers = data.buffers;
  buffers[0] = bitmap.finish();
  return Array(std::make_shared<ArrayData>(data.type, length, std::move(buffers),
                                           length - valid_count, data.offset, data.children,
                                           data.dictionary));
}

}  // namespace

Datum cast_where_read(const Function& function, size_t index, std::span<const Datum> arguments,
                      int64_t length, const ScalarFunction& cast, const TypePtr& to,
                      ExecContext& context) {
  // A widening cast (to the tightest common type of both: INT as BIGINT, FLOAT as DOUBLE)
  // raises for no value, so the rows it reads do not matter and it takes the argument as is.
  const std::optional<TypePtr> widened = tightest_common_type(arguments[index].type(), to);
  const std::optional<RowWords> rows = widened && (*widened)->equals(*to)
                                           ? std::nullopt
                                           : function.rows_reading(index, arguments, length);
  const Datum input =
      rows ? keep_rows(arguments[index], *rows, length, to, context.allocator) : arguments[index];
  if (input.is_scalar() && input.scalar_is_null() && input.type()->equals(*to)) {
    return input;
  }
  const FunctionOptions options{{"to", to}};
  const Datum cast_arguments[] = {input};
  return cast.execute(cast_arguments, options, context);
}

ScalarFunction::ScalarFunction(std::string name, Arity arity, NullHandling null_handling,
                               std::string description)
    : Function(std::move(name), Kind::kScalar, arity, null_handling, std::move(description)) {}

AggregateFunction::AggregateFunction(std::string name, Arity arity, NullHandling null_handling,
                                     std::string description)
    : Function(std::move(name), Kind::kAggregate, arity, null_handling, std::move(description)) {}

GroupedAggregator::~GroupedAggregator() = default;

void FunctionRegistry::add(std::shared_ptr<const Function> function,
                           std::vector<std::string> aliases) {
  if (!function) {
    throw InvalidArgument("cannot register a null function");
  }
  // A malformed signature fails here, when the function is registered, not when it is listed.
  // (Listing them reads their text.)
  function->signatures();
  aliases.insert(aliases.begin(), function->name());
  for (const std::string& alias : aliases) {
    if (by_name_.contains(lower_case(alias))) {
      throw InvalidArgument("a function named '" + alias + "' is already registered");
    }
  }
  for (const std::string& alias : aliases) {
    by_name_.emplace(lower_case(alias), function.get());
  }
  functions_.push_back(std::move(function));
}

const Function* FunctionRegistry::find(std::string_view name) const {
  auto found = by_name_.find(lower_case(name));
  return found == by_name_.end() ? nullptr : found->second;
}

const Function& FunctionRegistry::get(std::string_view name) const {
  if (const Function* function = find(name)) {
    return *function;
  }
  const std::vector<std::string> all = names();
  const std::vector<std::string> closest = closest_names(name, all, 3);
  throw AnalysisError("UNRESOLVED_ROUTINE", "Cannot resolve routine `" + std::string(name) + "`" +
                                                (closest.empty() ? std::string(".")
                                                                 : ". Did you mean one of " +
                                                                       quoted_list(closest) + "?"));
}

std::vector<std::string> FunctionRegistry::names() const {
  std::vector<std::string> all;
  all.reserve(by_name_.size());
  for (const auto& [name, function] : by_name_) {
    all.push_back(name);
  }
  std::sort(all.begin(), all.end());
  return all;
}

std::vector<const Function*> FunctionRegistry::functions() const {
  std::vector<const Function*> all;
  all.reserve(functions_.size());
  for (const auto& function : functions_) {
    all.push_back(function.get());
  }
  std::sort(all.begin(), all.end(), [](const Function* a, const Function* b) {
    return lower_case(a->name()) < lower_case(b->name());
  });
  return all;
}

std::vector<std::string> FunctionRegistry::names_of(const Function& function) const {
  std::vector<std::string> names{lower_case(function.name())};
  for (const auto& [name, registered] : by_name_) {
    if (registered == &function && name != names[0]) {
      names.push_back(name);
    }
  }
  std::sort(names.begin() + 1, names.end());
  return names;
}

const FunctionRegistry& default_registry() {
  static const FunctionRegistry registry = [] {
    FunctionRegistry built;
    register_arithmetic_functions(built);
    register_predicate_functions(built);
    register_cast_functions(built);
    register_string_functions(built);
    register_datetime_functions(built);
    register_hash_functions(built);
    register_crypto_functions(built);
    register_aggregate_functions(built);
    register_collection_functions(built);
    return built;
  }();
  return registry;
}

namespace {

const ScalarFunction& cast_function(const FunctionRegistry& registry, std::string_view name) {
  // A registry without a cast function reports it as any unknown routine.
  const Function& cast = registry.get(name);
  if (cast.kind() != Function::Kind::kScalar) {
    throw InvalidArgument("the registry's `" + std::string(name) + "` is not a scalar function");
  }
  return static_cast<const ScalarFunction&>(cast);
}

// Rows go through in batches so that the group ids (all 0) stay small and in cache.
constexpr int64_t kAggregateBatchRows = 64 * 1024;

Datum aggregate_all(const AggregateFunction& function, std::span<const Datum> arguments,
                    std::span<const TypePtr> types, const FunctionOptions& options,
                    ExecContext& context) {
  // Without arrays there is one row: the scalars'. Without arguments there are no rows to see.
  int64_t rows = arguments.empty() ? 0 : 1;
  bool any_array = false;
  for (const Datum& argument : arguments) {
    if (argument.is_array()) {
      rows = argument.length();
      any_array = true;
    }
  }
  std::unique_ptr<GroupedAggregator> aggregator = function.make_aggregator(types, options, context);
  aggregator->resize(1);
  const std::vector<uint32_t> group_ids(static_cast<size_t>(std::min(rows, kAggregateBatchRows)),
                                        0);
  std::vector<Datum> batch(arguments.begin(), arguments.end());
  for (int64_t start = 0; start < rows; start += kAggregateBatchRows) {
    const int64_t length = std::min(kAggregateBatchRows, rows - start);
    if (any_array) {
      for (size_t i = 0; i < batch.size(); ++i) {
        if (arguments[i].is_array()) {
          batch[i] = Datum(arguments[i].array().slice(start, length));
        }
      }
    }
    aggregator->update(batch,
                       std::span<const uint32_t>(group_ids).first(static_cast<size_t>(length)));
  }
  return Datum::scalar(aggregator->finish());
}

}  // namespace

Datum call(std::string_view name, std::span<const Datum> arguments, const FunctionOptions& options,
           ExecContext* context, const FunctionRegistry& registry) {
  ExecContext default_context;
  ExecContext& exec = context != nullptr ? *context : default_context;
  const Function& function = registry.get(name);
  function.check_arity(static_cast<int64_t>(arguments.size()));

  int64_t rows = -1;
  std::vector<TypePtr> types;
  types.reserve(arguments.size());
  std::vector<const Datum*> constants;
  constants.reserve(arguments.size());
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Datum& argument = arguments[i];
    if (!argument) {
      throw InvalidArgument("argument " + std::to_string(i + 1) + " of `" + function.name() +
                            "` holds no value");
    }
    if (argument.is_array()) {
      if (rows >= 0 && argument.length() != rows) {
        throw InvalidArgument("the arguments of `" + function.name() +
                              "` have different lengths: " + std::to_string(rows) + " and " +
                              std::to_string(argument.length()));
      }
      rows = argument.length();
    }
    types.push_back(argument.type());
    constants.push_back(argument.is_scalar() ? &argument : nullptr);
  }

  const Resolution resolution = function.resolve_with(
      types, options, ResolveContext{exec.ansi, constants, exec.session_time_zone});
  std::vector<Datum> cast_arguments(arguments.begin(), arguments.end());
  const ScalarFunction* cast = nullptr;
  for (size_t i = 0; i < cast_arguments.size() && i < resolution.arguments.size(); ++i) {
    if (!types_equal(cast_arguments[i].type(), resolution.arguments[i])) {
      if (cast == nullptr) {
        cast = &cast_function(registry, function.null_on_error() ? "try_cast" : "cast");
      }
      cast_arguments[i] = cast_where_read(function, i, cast_arguments, rows < 0 ? 1 : rows, *cast,
                                          resolution.arguments[i], exec);
    }
  }
  if (function.kind() == Function::Kind::kAggregate) {
    return aggregate_all(static_cast<const AggregateFunction&>(function), cast_arguments,
                         resolution.arguments, options, exec);
  }
  return static_cast<const ScalarFunction&>(function).execute(cast_arguments, options, exec);
}

}  // namespace bowstring::compute
