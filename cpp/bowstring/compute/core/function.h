#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/exec_context.h"
#include "bowstring/compute/core/signature.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/types/type.h"

namespace bowstring::compute {

/// An option of a function call that is not a column: `to` of `cast`, `pattern` of `rlike`
/// when given by name... Most Spark functions take such values as (literal) arguments instead.
using OptionValue = std::variant<bool, int64_t, double, std::string, TypePtr>;
using FunctionOptions = std::map<std::string, OptionValue, std::less<>>;

/// How nulls in the arguments decide the result.
enum class NullHandling : uint8_t {
  /// Any null argument gives null, without looking at the others (most functions).
  kPropagates,
  /// The function looks at nulls itself (coalesce, <=>, isnull, and, or, count...).
  kCustom,
};

/// A set of rows of a call: bit i of the 64-bit words (row 0 in the lowest bit of the first
/// word) is set when row i belongs to it; bits past the call's length are zero.
using RowWords = std::vector<uint64_t>;

/// What `Function::resolve` decides for the argument types it is given.
struct Resolution {
  /// Type of the result.
  TypePtr output;
  /// The type each argument must be cast to before `execute` (Spark's implicit casts); equal to
  /// the given type when no cast is needed.
  std::vector<TypePtr> arguments;
};

/// What a call's resolution may look at beyond the argument types and options.
struct ResolveContext {
  /// Spark's `spark.sql.ansi.enabled`: it changes the implicit coercion (a STRING operand of
  /// arithmetic is read as BIGINT with it, as DOUBLE without) and which casts exist.
  bool ansi = true;
  /// One entry per argument: its value when it is a constant (a literal, a scalar given to
  /// `call`), nullptr when it varies by row. Empty when that is not known.
  std::span<const Datum* const> constants;
  /// `spark.sql.session.timeZone`: the zone of a TIMESTAMP a type name (`cast`'s `to`) spells.
  std::string_view session_time_zone = "UTC";

  /// The constant value of argument `index`, or nullptr (also when constants are not known).
  const Datum* constant(size_t index) const {
    return index < constants.size() ? constants[index] : nullptr;
  }
  /// Whether argument `index` is known to vary by row.
  bool varies(size_t index) const {
    return index < constants.size() && constants[index] == nullptr;
  }
};

/// A function of the registry, under its Spark name. Scalar functions compute one value per
/// row (`ScalarFunction`); aggregate functions fold rows into one value per group
/// (`AggregateFunction`).
class Function {
 public:
  enum class Kind : uint8_t { kScalar, kAggregate };
  /// Argument counts: `max_args` -1 means any number from `min_args`.
  struct Arity {
    int min_args;
    int max_args;
  };

  Function(std::string name, Kind kind, Arity arity, NullHandling null_handling,
           std::string description);
  virtual ~Function();
  Function(const Function&) = delete;
  Function& operator=(const Function&) = delete;

  /// Spark's name, lower case ("+", "substring", "approx_count_distinct").
  const std::string& name() const { return name_; }
  Kind kind() const { return kind_; }
  Arity arity() const { return arity_; }
  NullHandling null_handling() const { return null_handling_; }
  /// One sentence on what the function computes.
  const std::string& description() const { return description_; }
  /// False for functions whose result changes from call to call (rand); current_timestamp is
  /// deterministic within a statement.
  virtual bool deterministic() const { return true; }

  /// The accepted signatures, for listing and checking: "(int, int) -> int",
  /// "(string, pos: int[, len: int]) -> string" as typed data (see signature.h).
  virtual std::vector<Signature> signatures() const = 0;

  /// Checks the argument types (`arguments.size()` is within the arity, checked before) and
  /// decides the result type and implicit casts, following Spark's type coercion. Throws
  /// `AnalysisError` (DATATYPE_MISMATCH) naming the function, the argument and the types.
  virtual Resolution resolve(std::span<const TypePtr> arguments,
                             const FunctionOptions& options) const = 0;

  /// As `resolve`, for a call whose ANSI flag and constant arguments are known (`call` and the
  /// expression binder use this one): the result type may depend on a constant's value
  /// (`round(d, 2)`), coercion on the flag. The default ignores `context` and calls `resolve`.
  /// (A distinct name, not an overload, so that overriding one `resolve` hides nothing.)
  virtual Resolution resolve_with(std::span<const TypePtr> arguments,
                                  const FunctionOptions& options,
                                  const ResolveContext& context) const;

  /// Throws `AnalysisError` (WRONG_NUM_ARGS) unless `count` is within the arity.
  void check_arity(int64_t count) const;

  /// The rows of a call on which the function reads argument `index`. Spark evaluates an
  /// argument row by row and only where the function needs it, so `call` applies an implicit
  /// cast to these rows only: a malformed value on a row that never reads it raises nothing.
  /// `arguments` are the call's, those before `index` already cast to the resolved types and
  /// the others as given; `length` is the call's row count (1 when all are scalars). Returns
  /// nullopt when any row may read the argument.
  /// The default, for a scalar function whose nulls propagate: the rows where every earlier
  /// argument is non-null (Spark evaluates them from left to right and stops at the first
  /// null); every row for other functions.
  virtual std::optional<RowWords> rows_reading(size_t index, std::span<const Datum> arguments,
                                               int64_t length) const;

  /// Whether a row whose evaluation raises gives NULL instead (Spark's try_ functions, which
  /// catch their implicit casts' errors too): `call` then applies its implicit casts as
  /// `try_cast`.
  virtual bool null_on_error() const { return false; }

 private:
  std::string name_;
  Kind kind_;
  Arity arity_;
  NullHandling null_handling_;
  std::string description_;
};

class ScalarFunction : public Function {
 public:
  ScalarFunction(std::string name, Arity arity, NullHandling null_handling,
                 std::string description);

  /// Computes the function over arguments already cast to `resolve`'s argument types. Arrays
  /// among them have the same length; any may be a scalar. The result is an array of that
  /// length, or a scalar when every argument is a scalar (or there are none).
  virtual Datum execute(std::span<const Datum> arguments, const FunctionOptions& options,
                        ExecContext& context) const = 0;
};

/// The running state of one aggregate over many groups, identified by dense ids 0, 1, 2...
/// An aggregation runs in parallel as partial aggregators (one per thread or partition) that
/// `update` from input rows, hand over their `state`, and a final aggregator that `merge`s the
/// states and `finish`es one value per group.
class GroupedAggregator {
 public:
  virtual ~GroupedAggregator();

  /// Makes room for groups [0, num_groups); the number of groups only grows. New groups start
  /// empty (count 0, sum null...).
  virtual void resize(int64_t num_groups) = 0;
  /// Folds row i of `arguments` (cast to the resolved types; scalars stand for every row) into
  /// group `group_ids[i]`; every id is below the size given to `resize`.
  virtual void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) = 0;

  /// The types of the state columns (a sum and a count for avg, a sketch for HyperLogLog).
  virtual std::vector<TypePtr> state_types() const = 0;
  /// The state of every group: one array per state column, one row per group, in group order.
  virtual std::vector<Array> state() = 0;
  /// Folds state row i (as `state()` gives it, possibly from another aggregator) into group
  /// `group_ids[i]`.
  virtual void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) = 0;
  /// The result: one value per group, in group order.
  virtual Array finish() = 0;
};

class AggregateFunction : public Function {
 public:
  AggregateFunction(std::string name, Arity arity, NullHandling null_handling,
                    std::string description);

  /// A new, empty aggregator for arguments of the resolved types.
  virtual std::unique_ptr<GroupedAggregator> make_aggregator(std::span<const TypePtr> arguments,
                                                             const FunctionOptions& options,
                                                             ExecContext& context) const = 0;
};

/// The functions known by name. Names are matched case-insensitively, as Spark does; one
/// function may be known under several names (`==` and `=`, `ln` and `log`...).
class FunctionRegistry {
 public:
  /// Adds `function` under its name and `aliases`; throws `InvalidArgument` when a name is
  /// taken.
  void add(std::shared_ptr<const Function> function, std::vector<std::string> aliases = {});
  /// The function called `name`, or nullptr.
  const Function* find(std::string_view name) const;
  /// The function called `name`; throws `AnalysisError` (UNRESOLVED_ROUTINE) naming it and
  /// suggesting the closest names.
  const Function& get(std::string_view name) const;
  /// Every name, aliases included, sorted.
  std::vector<std::string> names() const;
  /// Every function once, sorted by name (compared in lower case).
  std::vector<const Function*> functions() const;
  /// The names `function` is known under (its own first).
  std::vector<std::string> names_of(const Function& function) const;

 private:
  std::vector<std::shared_ptr<const Function>> functions_;
  std::unordered_map<std::string, const Function*> by_name_;
};

/// The registry with every built-in function, created on first use.
const FunctionRegistry& default_registry();

/// Calls the function `name` of `registry`: checks the arity, resolves the types, applies the
/// implicit casts and executes. An aggregate function folds every row of its array arguments
/// into one scalar (with only scalar arguments, their one row; with no arguments, no rows).
Datum call(std::string_view name, std::span<const Datum> arguments,
           const FunctionOptions& options = {}, ExecContext* context = nullptr,
           const FunctionRegistry& registry = default_registry());

/// The rows where every one of `arguments` is non-null (a scalar counts for every row), among
/// `length`; nullopt when that is every row.
std::optional<RowWords> rows_where_valid(std::span<const Datum> arguments, int64_t length);

/// Argument `index` of a call of `function` (see `Function::rows_reading` for `arguments` and
/// `length`) cast to `to` by `cast` (the registry's `cast` or `try_cast`) on the rows where the
/// function reads it; the other rows of the result are null. A cast array is a view of the
/// argument with those rows nulled (its values shared) when that hides a non-null row; a scalar
/// no row reads becomes a null of type `to` without being cast. A widening cast, which cannot
/// raise, takes the argument as it is.
Datum cast_where_read(const Function& function, size_t index, std::span<const Datum> arguments,
                      int64_t length, const ScalarFunction& cast, const TypePtr& to,
                      ExecContext& context);

}  // namespace bowstring::compute
