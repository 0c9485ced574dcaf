#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/exec_context.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/expr/expression.h"
#include "bowstring/table/record_batch.h"
#include "bowstring/table/schema.h"
#include "bowstring/types/type.h"

namespace bowstring::expr {

struct BoundNode;
using BoundNodePtr = std::shared_ptr<const BoundNode>;

/// One node of a bound expression: names resolved to column positions, functions to registry
/// entries, every implicit cast explicit, and the type and nullability of each node known.
struct BoundNode {
  enum class Kind : uint8_t {
    kColumn,     ///< `path`: the column index, then struct child indices
    kLiteral,    ///< `value`: a scalar (folded constants end up here too)
    kCall,       ///< `function` over `operands`, with `options`
    kCast,       ///< operands[0] cast to `type` by `function` (cast or try_cast), option `to`
    kCaseWhen,   ///< operands: when1, then1, ..., else (always present: a null literal if none)
    kCoalesce,   ///< the first non-null operand, each evaluated only on the rows still null
    kIsNull,     ///< operands[0] IS NULL
    kIsNotNull,  ///< operands[0] IS NOT NULL
    kAnd,        ///< three-valued AND; the right side only on rows the left does not decide
    kOr,         ///< three-valued OR; likewise
    kNot,        ///< three-valued NOT
  };

  Kind kind;
  TypePtr type;
  /// Whether the node may produce nulls (a conservative answer: true when unsure).
  bool nullable = true;
  std::vector<int> path;
  compute::Datum value;
  const compute::ScalarFunction* function = nullptr;
  compute::FunctionOptions options;
  bool is_try = false;
  /// Whether the cast was inserted by binding (Spark's implicit casts).
  bool implicit = false;
  std::vector<BoundNodePtr> operands;
  /// Spark SQL text of this node, implicit casts included ("(CAST(a AS BIGINT) + b)").
  std::string sql;
  /// The top-level columns the node reads, ascending, without repeats.
  std::vector<int> columns;
  /// False when the node or a node under it calls a nondeterministic function.
  bool deterministic = true;
};

/// An expression bound to a schema: typed, ready to evaluate over batches of that schema.
/// Cheap to copy (the tree is shared and immutable); evaluation is thread-safe.
class BoundExpression {
 public:
  BoundExpression(BoundNodePtr root, std::string output_name);

  const BoundNode& root() const { return *root_; }
  const BoundNodePtr& root_ptr() const { return root_; }
  const TypePtr& type() const { return root_->type; }
  bool nullable() const { return root_->nullable; }
  /// Spark SQL text with the implicit casts binding inserted.
  const std::string& to_string() const { return root_->sql; }
  /// The name of the column this expression produces (see `Expression::output_name`).
  const std::string& output_name() const { return output_name_; }
  /// The output field: name, type and nullability.
  FieldPtr field() const;
  /// The batch columns it reads, ascending.
  const std::vector<int>& referenced_columns() const { return root_->columns; }

  /// Evaluates over every row of `batch` (which has the schema bound against): an array of
  /// `batch.num_rows()` values, or a scalar when the value is the same for every row (a literal
  /// or folded constant). Column references return the batch's arrays without copying.
  compute::Datum evaluate(const RecordBatch& batch, compute::ExecContext& context) const;

 private:
  BoundNodePtr root_;
  std::string output_name_;
};

/// Binds `expression` to `schema`: resolves column names case-insensitively (throws
/// `AnalysisError` UNRESOLVED_COLUMN with the closest names as suggestions, or
/// AMBIGUOUS_REFERENCE), resolves functions in `registry` (UNRESOLVED_ROUTINE, WRONG_NUM_ARGS),
/// checks the types and inserts the implicit casts Spark's type coercion adds
/// (DATATYPE_MISMATCH naming the expression and the types), and folds deterministic subtrees
/// of literals into literals, evaluated with `context` (a default context when null). A subtree
/// whose folding raises a Spark error stays unfolded: the error then happens only if rows
/// reach it at run time, as in Spark.
/// `column_sql`, when given, has one entry per field of `schema`: the text that stands for the
/// column in the bound SQL and in messages (a plan's internal column names are ids; messages
/// show the user's names).
BoundExpression bind_expression(
    const ExprPtr& expression, const Schema& schema,
    const compute::FunctionRegistry& registry = compute::default_registry(),
    compute::ExecContext* context = nullptr, std::span<const std::string> column_sql = {});

/// The rows of `batch` for which `predicate` (a bound BOOLEAN expression) is true; null counts
/// as false. Returns the batch itself, without copying, when every row passes.
RecordBatch filter(const RecordBatch& batch, const BoundExpression& predicate,
                   compute::ExecContext& context);

/// A batch with one column per expression, named `names` (the expressions' output names when
/// `names` is empty). Column references are passed through without copying.
RecordBatch project(const RecordBatch& batch, std::span<const BoundExpression> expressions,
                    std::span<const std::string> names, compute::ExecContext& context);

}  // namespace bowstring::expr
