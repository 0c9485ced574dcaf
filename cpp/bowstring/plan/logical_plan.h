#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/compute/vector/sort.h"
#include "bowstring/compute/window/window.h"
#include "bowstring/expr/expression.h"
#include "bowstring/io/files/file_relation.h"
#include "bowstring/table/schema.h"
#include "bowstring/table/table.h"
#include "bowstring/types/type.h"

namespace bowstring::plan {

/// Identifies one column of a plan for its whole life, whatever it is renamed to: the analyzer
/// gives every column a new id where it is produced, and resolved expressions refer to columns
/// by id, so that rules may move expressions around the plan without names getting confused.
using AttributeId = int64_t;

/// A column a plan node produces.
struct Attribute {
  AttributeId id = 0;
  /// The user's name for it (Spark's `AttributeReference.name`).
  std::string name;
  TypePtr type;
  bool nullable = true;
  /// The alias of the relation it belongs to (`df.alias("l")`); empty when it has none.
  std::string qualifier;

  /// The field the column has in query results: the user's name, type and nullability.
  FieldPtr field() const;
  /// The field the column has inside the engine, named by `column_name(id)`.
  FieldPtr internal_field() const;
  /// As Spark prints it in plans: "name#12", with an "L" after the id for BIGINT columns.
  std::string to_string() const;
};

/// A fresh id, unique in the process.
AttributeId new_attribute_id();
/// The name of the column for attribute `id` in the batches of the engine, and in resolved
/// expressions: "#12" (struct fields follow after dots: "#12.city").
std::string column_name(AttributeId id);
/// The attribute id a resolved column reference names, or nullopt for a user's name.
std::optional<AttributeId> attribute_of(const std::string& column);

/// The schema with one `internal_field()` per attribute.
SchemaPtr internal_schema(const std::vector<Attribute>& attributes);
/// The schema of query results: one `field()` per attribute.
SchemaPtr output_schema(const std::vector<Attribute>& attributes);

enum class JoinType : uint8_t {
  kInner,
  kLeftOuter,
  kRightOuter,
  kFullOuter,
  kLeftSemi,
  kLeftAnti,
  kCross,
};
/// Spark's name of the join type in plans: "Inner", "LeftOuter", "LeftSemi"...
std::string_view join_type_name(JoinType type);
/// The join type of a PySpark `how` argument ("inner", "left", "leftouter", "left_outer",
/// "outer", "full", "semi", "anti", "cross"...); throws `AnalysisError` (UNSUPPORTED_JOIN_TYPE)
/// listing the accepted names otherwise.
JoinType parse_join_type(std::string_view how);

/// One key of a sort: an expression and its order.
struct SortOrder {
  expr::ExprPtr expression;
  compute::SortKey key;
};

/// The rows of a cached plan, once computed: shared by every plan that reads the cache.
class CachedRows {
 public:
  /// The rows, or nullopt before the first query computed them.
  std::optional<Table> rows() const;
  /// Keeps `rows` unless another query stored them first; returns the rows kept.
  Table store(Table rows);
  /// Forgets the rows (`unpersist`): the next query computes them again.
  void clear();

 private:
  mutable std::mutex mutex_;
  std::optional<Table> rows_;
};

/// A window function call over a window: `function OVER (PARTITION BY ... ORDER BY ... frame)`.
struct WindowExpression {
  /// The call: a window function (row_number, rank, dense_rank, percent_rank, cume_dist, ntile,
  /// lag, lead, first_value, last_value, nth_value) or any aggregate of the registry.
  expr::ExprPtr function;
  std::vector<expr::ExprPtr> partition_by;
  std::vector<SortOrder> order_by;
  /// Unset: Spark's default frame.
  std::optional<compute::WindowFrame> frame;
  /// The output column's name; empty for Spark's ("rank() OVER (...)").
  std::string name;
};

/// What a scan of files reads: the relation, its columns, and the filters pushed into it.
struct FileScan {
  io::FileRelationPtr relation;
  /// Resolved: one attribute per column of `relation->schema` (the node's `output` is those
  /// the query reads).
  std::vector<Attribute> attributes;
  /// Conjuncts on partition columns only: the files whose folders fail them are not read.
  std::vector<expr::ExprPtr> partition_filters;
  /// Conjuncts on the files' columns only: the scan keeps only the rows that pass them.
  std::vector<expr::ExprPtr> data_filters;
};

class LogicalPlan;
/// Plans are immutable trees that share subtrees.
using PlanPtr = std::shared_ptr<const LogicalPlan>;

/// A node of a logical plan. The builder functions below make unresolved plans, whose
/// expressions name columns as the user wrote them; the analyzer (analyzer.h) turns them into
/// resolved plans, where every node knows its `output` and expressions name columns by
/// attribute id. The fields used depend on the kind; the others stay empty.
class LogicalPlan {
 public:
  enum class Kind : uint8_t {
    /// Rows held in memory: `table`.
    kLocalRelation,
    /// The BIGINT column `id` from `start` to `end` (exclusive) by `step`.
    kRange,
    /// `expressions` computed over the child's rows.
    kProject,
    /// The child's rows where `condition` is true.
    kFilter,
    /// Rows grouped by `grouping`. Unresolved: `expressions` are the output columns, which may
    /// mix aggregate calls and grouping expressions. Resolved: `expressions` are only the
    /// aggregate calls (arguments cast as the function resolved them), and the output is one
    /// column per grouping expression, then one per aggregate call.
    kAggregate,
    /// The child's rows ordered by `orders`.
    kSort,
    /// At most `limit` rows (-1: no limit) after skipping `offset` rows, of the child's order.
    kLimit,
    /// The rows of every child: by position, or by name when `by_name` (then
    /// `allow_missing_columns` fills the columns a child lacks with nulls).
    kUnion,
    /// The child's distinct rows.
    kDistinct,
    /// The child, its columns qualified by `alias`.
    kSubqueryAlias,
    /// The rows of the two children paired by `join_type` where `condition` (possibly null:
    /// every pair) holds.
    kJoin,
    /// INTERSECT (`set_operation` kIntersect) or EXCEPT of the two children, distinct rows or
    /// ALL (`is_all`). The analyzer rewrites it into a union, an aggregate and a replication.
    kSetOperation,
    /// The child's rows with duplicates of `grouping` (the columns, by name) dropped; every
    /// column when empty.
    kDeduplicate,
    /// A random sample of the child's rows: each kept with probability `fraction`, or repeated
    /// a Poisson(`fraction`) number of times `with_replacement`, drawn from `seed`.
    kSample,
    /// The child's rows spread over `num_partitions` partitions, by hash of `grouping` or round
    /// robin without. Results do not change; the engine takes it as a hint of parallelism.
    kRepartition,
    /// Made by the analyzer: every child row once per list of `projections` (grouping sets).
    kExpand,
    /// Made by the analyzer: every child row repeated as many times as `expressions[0]` says.
    kReplicate,
    /// The child's rows each joined with the rows the generator call `expressions[0]`
    /// (explode, posexplode, inline, stack and their _outer forms) makes of it. Built by the
    /// analyzer from a projection selecting a generator.
    kGenerate,
    /// The child's rows, computed by the first query that reads them and kept in `cache` for
    /// the queries after it (`DataFrame.cache()`).
    kCache,
    /// The child's rows with one column per window function of `windows`. Unresolved, each
    /// window has its own specification; resolved, every window of the node shares one
    /// partitioning and ordering (`grouping`, `orders`), and the analyzer chains a node per
    /// specification.
    kWindow,
    /// The rows of files: `file_scan`.
    kFileScan,
  };
  enum class SetOperation : uint8_t { kIntersect, kExcept };

  Kind kind;
  std::vector<PlanPtr> children;

  std::optional<Table> table;
  int64_t start = 0;
  int64_t end = 0;
  int64_t step = 1;
  /// Partitions the source is split into, or 0 to let the engine decide.
  int num_partitions = 0;
  std::vector<expr::ExprPtr> expressions;
  std::vector<expr::ExprPtr> grouping;
  expr::ExprPtr condition;
  std::vector<SortOrder> orders;
  int64_t limit = -1;
  int64_t offset = 0;
  bool by_name = false;
  bool allow_missing_columns = false;
  std::string alias;
  JoinType join_type = JoinType::kInner;
  /// kAggregate with grouping sets: the indices into `grouping` of each set (empty: a plain
  /// GROUP BY).
  std::vector<std::vector<int>> grouping_sets;
  SetOperation set_operation = SetOperation::kIntersect;
  bool is_all = false;
  double fraction = 0;
  bool with_replacement = false;
  int64_t seed = 0;
  std::vector<std::vector<expr::ExprPtr>> projections;
  std::shared_ptr<CachedRows> cache;
  std::vector<WindowExpression> windows;
  std::shared_ptr<const FileScan> file_scan;

  /// Resolved plans only: the columns the node produces.
  std::vector<Attribute> output;
  bool resolved = false;

  explicit LogicalPlan(Kind node_kind) : kind(node_kind) {}

  const PlanPtr& child(size_t i = 0) const { return children.at(i); }
  /// Spark's name of the node in printed plans: "Project", "Filter", "LocalRelation"...
  std::string_view node_name() const;
  /// This node with `new_children` instead of its children, every other field kept.
  PlanPtr with_children(std::vector<PlanPtr> new_children) const;
};

/// Building unresolved plans, as the DataFrame API reads.
PlanPtr local_relation(Table table);
/// The rows of the files of `relation` (`spark.read.format(...).load(paths)`).
PlanPtr file_scan(io::FileRelationPtr relation);
PlanPtr range(int64_t start, int64_t end, int64_t step = 1, int num_partitions = 0);
/// Columns computed by `expressions` (columns, aliases, `col("*")` or `col("t.*")` for every
/// column of the input or of the relation `t`).
PlanPtr project(PlanPtr child, std::vector<expr::ExprPtr> expressions);
PlanPtr filter(PlanPtr child, expr::ExprPtr condition);
/// Groups by `grouping` (none: one group of every row) and computes `outputs`.
PlanPtr aggregate(PlanPtr child, std::vector<expr::ExprPtr> grouping,
                  std::vector<expr::ExprPtr> outputs);
/// GROUP BY GROUPING SETS: one aggregation per set of `grouping` indices, rows of each set with
/// the other keys null; `grouping(key)` and `grouping_id(keys...)` tell which set a row is of.
/// Throws `InvalidArgument` on an index outside `grouping`.
PlanPtr aggregate_grouping_sets(PlanPtr child, std::vector<expr::ExprPtr> grouping,
                                std::vector<std::vector<int>> sets,
                                std::vector<expr::ExprPtr> outputs);
/// GROUP BY ROLLUP(keys): the sets (k1..kn), (k1..kn-1), ..., ().
PlanPtr rollup(PlanPtr child, std::vector<expr::ExprPtr> grouping,
               std::vector<expr::ExprPtr> outputs);
/// GROUP BY CUBE(keys): every subset of the keys.
PlanPtr cube(PlanPtr child, std::vector<expr::ExprPtr> grouping,
             std::vector<expr::ExprPtr> outputs);
PlanPtr sort(PlanPtr child, std::vector<SortOrder> orders);
/// At most `limit` rows (-1 for every row) after `offset` skipped ones; throws
/// `InvalidArgument` on a limit below -1 or a negative offset.
PlanPtr limit(PlanPtr child, int64_t limit, int64_t offset = 0);
/// UNION ALL of `children` (at least one) by position, or by name.
PlanPtr union_all(std::vector<PlanPtr> children, bool by_name = false,
                  bool allow_missing_columns = false);
PlanPtr distinct(PlanPtr child);
PlanPtr subquery_alias(PlanPtr child, std::string alias);
PlanPtr join(PlanPtr left, PlanPtr right, JoinType type, expr::ExprPtr condition = nullptr);
/// `left INTERSECT [ALL] right` and `left EXCEPT [ALL] right`: rows compared whole, nulls equal.
PlanPtr intersect(PlanPtr left, PlanPtr right, bool is_all);
PlanPtr except(PlanPtr left, PlanPtr right, bool is_all);
/// `dropDuplicates(subset)`: the first row of each distinct value of the columns `subset`
/// (every column when empty).
PlanPtr drop_duplicates(PlanPtr child, std::vector<std::string> subset = {});
/// `sample(withReplacement, fraction, seed)`; throws `InvalidArgument` on a negative fraction,
/// or one above 1 without replacement.
PlanPtr sample(PlanPtr child, double fraction, bool with_replacement, int64_t seed);
/// `repartition(n, keys...)` (no keys: round robin) and `coalesce(n)`; throws
/// `InvalidArgument` unless `num_partitions` is positive.
PlanPtr repartition(PlanPtr child, int num_partitions, std::vector<expr::ExprPtr> keys = {});
/// The child's columns, then one column per window expression.
PlanPtr window(PlanPtr child, std::vector<WindowExpression> windows);
/// `child`'s rows, computed once and then read from memory by every query over the result.
PlanPtr cache(PlanPtr child);

}  // namespace bowstring::plan
