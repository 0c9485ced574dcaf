#include "bowstring/plan/logical_plan.h"

#include <atomic>
#include <charconv>
#include <utility>

#include "bowstring/compute/core/errors.h"
#include "bowstring/util/error.h"

namespace bowstring::plan {

FieldPtr Attribute::field() const { return bowstring::field(name, type, nullable); }

FieldPtr Attribute::internal_field() const {
  return bowstring::field(column_name(id), type, nullable);
}

std::string Attribute::to_string() const {
  std::string out = name;
  out += '#';
  out += std::to_string(id);
  if (type->id() == TypeId::kInt64) {
    out += 'L';
  }
  return out;
}

AttributeId new_attribute_id() {
  static std::atomic<AttributeId> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

std::string column_name(AttributeId id) {
  std::string out = "#";
  out += std::to_string(id);
  return out;
}

std::optional<AttributeId> attribute_of(const std::string& column) {
  if (column.size() < 2 || column[0] != '#') {
    return std::nullopt;
  }
  const size_t end = column.find('.');
  const std::string_view digits =
      std::string_view(column).substr(1, end == std::string::npos ? std::string::npos : end - 1);
  AttributeId id = 0;
  const auto [last, error] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (error != std::errc() || last != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return id;
}

SchemaPtr internal_schema(const std::vector<Attribute>& attributes) {
  FieldVector fields;
  fields.reserve(attributes.size());
  for (const Attribute& attribute : attributes) {
    fields.push_back(attribute.internal_field());
  }
  return schema(std::move(fields));
}

SchemaPtr output_schema(const std::vector<Attribute>& attributes) {
  FieldVector fields;
  fields.reserve(attributes.size());
  for (const Attribute& attribute : attributes) {
    fields.push_back(attribute.field());
  }
  return schema(std::move(fields));
}

std::optional<Table> CachedRows::rows() const {
  const std::lock_guard lock(mutex_);
  return rows_;
}

Table CachedRows::store(Table rows) {
  const std::lock_guard lock(mutex_);
  if (!rows_) {
    rows_ = std::move(rows);
  }
  return *rows_;
}

void CachedRows::clear() {
  const std::lock_guard lock(mutex_);
  rows_.reset();
}

std::string_view join_type_name(JoinType type) {
  switch (type) {
    case JoinType::kInner:
      return "Inner";
    case JoinType::kLeftOuter:
      return "LeftOuter";
    case JoinType::kRightOuter:
      return "RightOuter";
    case JoinType::kFullOuter:
      return "FullOuter";
    case JoinType::kLeftSemi:
      return "LeftSemi";
    case JoinType::kLeftAnti:
      return "LeftAnti";
    case JoinType::kCross:
      return "Cross";
  }
  return "Unknown";
}

JoinType parse_join_type(std::string_view how) {
  std::string key;
  for (char c : how) {
    if (c != '_') {
      key += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
  }
  struct Name {
    std::string_view name;
    JoinType type;
  };
  static constexpr Name kNames[] = {
      {"inner", JoinType::kInner},           {"cross", JoinType::kCross},
      {"outer", JoinType::kFullOuter},       {"full", JoinType::kFullOuter},
      {"fullouter", JoinType::kFullOuter},   {"left", JoinType::kLeftOuter},
      {"leftouter", JoinType::kLeftOuter},   {"right", JoinType::kRightOuter},
      {"rightouter", JoinType::kRightOuter}, {"semi", JoinType::kLeftSemi},
      {"leftsemi", JoinType::kLeftSemi},     {"anti", JoinType::kLeftAnti},
      {"leftanti", JoinType::kLeftAnti},
  };
  for (const Name& name : kNames) {
    if (key == name.name) {
      return name.type;
    }
  }
  throw compute::AnalysisError(
      "UNSUPPORTED_JOIN_TYPE",
      "Unsupported join type '" + std::string(how) +
          "'. Supported join types include: 'inner', 'outer', 'full', 'fullouter', "
          "'full_outer', 'leftouter', 'left', 'left_outer', 'rightouter', 'right', "
          "'right_outer', 'leftsemi', 'left_semi', 'semi', 'leftanti', 'left_anti', 'anti', "
          "'cross'.");
}

std::string_view LogicalPlan::node_name() const {
  switch (kind) {
    case Kind::kLocalRelation:
      return "LocalRelation";
    case Kind::kRange:
      return "Range";
    case Kind::kProject:
      return "Project";
    case Kind::kFilter:
      return "Filter";
    case Kind::kAggregate:
      return "Aggregate";
    case Kind::kSort:
      return "Sort";
    case Kind::kLimit:
      return "Limit";
    case Kind::kUnion:
      return "Union";
    case Kind::kDistinct:
      return "Distinct";
    case Kind::kSubqueryAlias:
      return "SubqueryAlias";
    case Kind::kJoin:
      return "Join";
    case Kind::kSetOperation:
      return set_operation == SetOperation::kIntersect ? "Intersect" : "Except";
    case Kind::kDeduplicate:
      return "Deduplicate";
    case Kind::kSample:
      return "Sample";
    case Kind::kRepartition:
      return grouping.empty() ? "Repartition" : "RepartitionByExpression";
    case Kind::kExpand:
      return "Expand";
    case Kind::kReplicate:
      return "Replicate";
    case Kind::kGenerate:
      return "Generate";
    case Kind::kCache:
      return "InMemoryRelation";
    case Kind::kWindow:
      return "Window";
    case Kind::kFileScan:
      return "Relation";
  }
  return "Unknown";
}

PlanPtr LogicalPlan::with_children(std::vector<PlanPtr> new_children) const {
  auto copy = std::make_shared<LogicalPlan>(*this);
  copy->children = std::move(new_children);
  return copy;
}

namespace {

std::shared_ptr<LogicalPlan> node(LogicalPlan::Kind kind, std::vector<PlanPtr> children) {
  for (const PlanPtr& child : children) {
    if (child == nullptr) {
      throw InvalidArgument("a plan node needs its input plans");
    }
  }
  auto plan = std::make_shared<LogicalPlan>(kind);
  plan->children = std::move(children);
  return plan;
}

void check_expressions(const std::vector<expr::ExprPtr>& expressions, std::string_view where) {
  for (const expr::ExprPtr& expression : expressions) {
    if (expression == nullptr) {
      throw InvalidArgument(std::string(where) + " got a null expression");
    }
  }
}

}  // namespace

PlanPtr local_relation(Table table) {
  auto plan = node(LogicalPlan::Kind::kLocalRelation, {});
  plan->table = std::move(table);
  return plan;
}

PlanPtr file_scan(io::FileRelationPtr relation) {
  if (relation == nullptr) {
    throw InvalidArgument("a file scan needs its files");
  }
  auto plan = node(LogicalPlan::Kind::kFileScan, {});
  auto scan = std::make_shared<FileScan>();
  scan->relation = std::move(relation);
  plan->file_scan = std::move(scan);
  return plan;
}

PlanPtr range(int64_t start, int64_t end, int64_t step, int num_partitions) {
  if (step == 0) {
    throw InvalidArgument("range needs a non-zero step");
  }
  if (num_partitions < 0) {
    throw InvalidArgument("range needs a positive number of partitions, not " +
                          std::to_string(num_partitions));
  }
  auto plan = node(LogicalPlan::Kind::kRange, {});
  plan->start = start;
  plan->end = end;
  plan->step = step;
  plan->num_partitions = num_partitions;
  return plan;
}

PlanPtr project(PlanPtr child, std::vector<expr::ExprPtr> expressions) {
  check_expressions(expressions, "select");
  auto plan = node(LogicalPlan::Kind::kProject, {std::move(child)});
  plan->expressions = std::move(expressions);
  return plan;
}

PlanPtr filter(PlanPtr child, expr::ExprPtr condition) {
  if (condition == nullptr) {
    throw InvalidArgument("filter needs a condition");
  }
  auto plan = node(LogicalPlan::Kind::kFilter, {std::move(child)});
  plan->condition = std::move(condition);
  return plan;
}

PlanPtr aggregate(PlanPtr child, std::vector<expr::ExprPtr> grouping,
                  std::vector<expr::ExprPtr> outputs) {
  check_expressions(grouping, "groupBy");
  check_expressions(outputs, "agg");
  auto plan = node(LogicalPlan::Kind::kAggregate, {std::move(child)});
  plan->grouping = std::move(grouping);
  plan->expressions = std::move(outputs);
  return plan;
}

PlanPtr aggregate_grouping_sets(PlanPtr child, std::vector<expr::ExprPtr> grouping,
                                std::vector<std::vector<int>> sets,
                                std::vector<expr::ExprPtr> outputs) {
  for (const std::vector<int>& set : sets) {
    for (int index : set) {
      if (index < 0 || index >= static_cast<int>(grouping.size())) {
        throw InvalidArgument("a grouping set names key " + std::to_string(index) + " of " +
                              std::to_string(grouping.size()));
      }
    }
  }
  if (sets.empty()) {
    throw InvalidArgument("grouping sets need at least one set");
  }
  PlanPtr plan = aggregate(std::move(child), std::move(grouping), std::move(outputs));
  auto node = std::make_shared<LogicalPlan>(*plan);
  node->grouping_sets = std::move(sets);
  return node;
}

PlanPtr rollup(PlanPtr child, std::vector<expr::ExprPtr> grouping,
               std::vector<expr::ExprPtr> outputs) {
  std::vector<std::vector<int>> sets;
  for (int size = static_cast<int>(grouping.size()); size >= 0; --size) {
    std::vector<int> set;
    for (int i = 0; i < size; ++i) {
      set.push_back(i);
    }
    sets.push_back(std::move(set));
  }
  return aggregate_grouping_sets(std::move(child), std::move(grouping), std::move(sets),
                                 std::move(outputs));
}

PlanPtr cube(PlanPtr child, std::vector<expr::ExprPtr> grouping,
             std::vector<expr::ExprPtr> outputs) {
  const size_t keys = grouping.size();
  if (keys > 12) {
    throw InvalidArgument("cube of " + std::to_string(keys) +
                          " keys would make too many grouping sets (at most 12 keys)");
  }
  // Spark's order: the full set first, then sets with keys left out from the last one.
  std::vector<std::vector<int>> sets;
  for (uint32_t missing = 0; missing < (1U << keys); ++missing) {
    std::vector<int> set;
    for (size_t i = 0; i < keys; ++i) {
      if ((missing & (1U << (keys - 1 - i))) == 0) {
        set.push_back(static_cast<int>(i));
      }
    }
    sets.push_back(std::move(set));
  }
  return aggregate_grouping_sets(std::move(child), std::move(grouping), std::move(sets),
                                 std::move(outputs));
}

PlanPtr sort(PlanPtr child, std::vector<SortOrder> orders) {
  for (const SortOrder& order : orders) {
    if (order.expression == nullptr) {
      throw InvalidArgument("orderBy got a null expression");
    }
  }
  auto plan = node(LogicalPlan::Kind::kSort, {std::move(child)});
  plan->orders = std::move(orders);
  return plan;
}

PlanPtr limit(PlanPtr child, int64_t limit, int64_t offset) {
  if (limit < -1) {
    throw InvalidArgument("limit needs a number of rows of at least 0, not " +
                          std::to_string(limit));
  }
  if (offset < 0) {
    throw InvalidArgument("offset needs a number of rows of at least 0, not " +
                          std::to_string(offset));
  }
  auto plan = node(LogicalPlan::Kind::kLimit, {std::move(child)});
  plan->limit = limit;
  plan->offset = offset;
  return plan;
}

PlanPtr union_all(std::vector<PlanPtr> children, bool by_name, bool allow_missing_columns) {
  if (children.empty()) {
    throw InvalidArgument("union needs at least one input plan");
  }
  auto plan = node(LogicalPlan::Kind::kUnion, std::move(children));
  plan->by_name = by_name;
  plan->allow_missing_columns = allow_missing_columns;
  return plan;
}

PlanPtr distinct(PlanPtr child) { return node(LogicalPlan::Kind::kDistinct, {std::move(child)}); }

PlanPtr subquery_alias(PlanPtr child, std::string alias) {
  auto plan = node(LogicalPlan::Kind::kSubqueryAlias, {std::move(child)});
  plan->alias = std::move(alias);
  return plan;
}

PlanPtr join(PlanPtr left, PlanPtr right, JoinType type, expr::ExprPtr condition) {
  auto plan = node(LogicalPlan::Kind::kJoin, {std::move(left), std::move(right)});
  plan->join_type = type;
  plan->condition = std::move(condition);
  return plan;
}

namespace {

PlanPtr set_operation(PlanPtr left, PlanPtr right, LogicalPlan::SetOperation operation,
                      bool is_all) {
  auto plan = node(LogicalPlan::Kind::kSetOperation, {std::move(left), std::move(right)});
  plan->set_operation = operation;
  plan->is_all = is_all;
  return plan;
}

}  // namespace

PlanPtr intersect(PlanPtr left, PlanPtr right, bool is_all) {
  return set_operation(std::move(left), std::move(right), LogicalPlan::SetOperation::kIntersect,
                       is_all);
}

PlanPtr except(PlanPtr left, PlanPtr right, bool is_all) {
  return set_operation(std::move(left), std::move(right), LogicalPlan::SetOperation::kExcept,
                       is_all);
}

PlanPtr drop_duplicates(PlanPtr child, std::vector<std::string> subset) {
  auto plan = node(LogicalPlan::Kind::kDeduplicate, {std::move(child)});
  for (std::string& name : subset) {
    plan->grouping.push_back(expr::col(std::move(name)));
  }
  return plan;
}

PlanPtr sample(PlanPtr child, double fraction, bool with_replacement, int64_t seed) {
  if (!(fraction >= 0) || (!with_replacement && fraction > 1)) {
    throw InvalidArgument("sample needs a fraction " +
                          std::string(with_replacement ? "of at least 0" : "between 0 and 1") +
                          ", not " + std::to_string(fraction));
  }
  auto plan = node(LogicalPlan::Kind::kSample, {std::move(child)});
  plan->fraction = fraction;
  plan->with_replacement = with_replacement;
  plan->seed = seed;
  return plan;
}

PlanPtr repartition(PlanPtr child, int num_partitions, std::vector<expr::ExprPtr> keys) {
  if (num_partitions < 1) {
    throw InvalidArgument("repartition needs a positive number of partitions, not " +
                          std::to_string(num_partitions));
  }
  check_expressions(keys, "repartition");
  auto plan = node(LogicalPlan::Kind::kRepartition, {std::move(child)});
  plan->num_partitions = num_partitions;
  plan->grouping = std::move(keys);
  return plan;
}

PlanPtr window(PlanPtr child, std::vector<WindowExpression> windows) {
  if (windows.empty()) {
    throw InvalidArgument("a window node needs at least one window expression");
  }
  for (const WindowExpression& window : windows) {
    if (window.function == nullptr || window.function->kind() != expr::Expression::Kind::kCall) {
      throw InvalidArgument("a window expression needs a function call");
    }
    check_expressions(window.partition_by, "partitionBy");
    for (const SortOrder& order : window.order_by) {
      if (order.expression == nullptr) {
        throw InvalidArgument("orderBy got a null expression");
      }
    }
  }
  auto plan = node(LogicalPlan::Kind::kWindow, {std::move(child)});
  plan->windows = std::move(windows);
  return plan;
}

PlanPtr cache(PlanPtr child) {
  auto plan = node(LogicalPlan::Kind::kCache, {std::move(child)});
  plan->cache = std::make_shared<CachedRows>();
  return plan;
}

}  // namespace bowstring::plan
