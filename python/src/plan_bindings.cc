// The query engine for Python: expressions (expr/expression.h), logical plans built as the
// DataFrame API reads (plan/logical_plan.h), their analysis, optimization and explanation, and
// their execution (exec/executor.h). A query runs on a thread of its own while the caller waits
// without the GIL in steps, checking for signals in between, so that Ctrl-C cancels it.

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_decimal.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/exec/executor.h"
#include "bowstring/exec/physical_plan.h"
#include "bowstring/expr/expression.h"
#include "bowstring/memory/allocator.h"
#include "bowstring/plan/analyzer.h"
#include "bowstring/plan/explain.h"
#include "bowstring/plan/logical_plan.h"
#include "bowstring/plan/optimizer.h"
#include "bowstring/table/table.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/cancellation.h"
#include "bowstring/util/error.h"
#include "compute_bindings.h"
#include "interchange_bindings.h"
#include "plan_bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {
namespace {

struct PyExpression {
  expr::ExprPtr expression;
};

std::vector<expr::ExprPtr> expressions_of(const std::vector<PyExpression>& items) {
  std::vector<expr::ExprPtr> out;
  out.reserve(items.size());
  for (const PyExpression& item : items) {
    out.push_back(item.expression);
  }
  return out;
}

// --- literals -----------------------------------------------------------------------------

// Days from 0001-01-01 (ordinal 1) to 1970-01-01.
constexpr int64_t kUnixEpochOrdinal = 719163;

template <typename Builder>
expr::ExprPtr literal_from(Builder& builder) {
  return expr::lit(compute::Datum::scalar(builder.finish()));
}

expr::ExprPtr integer_literal(nb::handle value) {
  int overflow = 0;
  const long long number = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0) {
    throw InvalidArgument("the integer literal " + nb::cast<std::string>(nb::str(value)) +
                          " is outside the BIGINT range; use a decimal.Decimal for it");
  }
  if (number == -1 && PyErr_Occurred() != nullptr) {
    throw nb::python_error();
  }
  if (number >= INT32_MIN && number <= INT32_MAX) {
    return expr::lit(static_cast<int32_t>(number));
  }
  return expr::lit(static_cast<int64_t>(number));
}

// Microseconds between `value` and the Unix epoch, computed by Python's datetime arithmetic
// (exact, whatever the value's time zone).
int64_t epoch_microseconds(nb::handle value, const nb::module_& datetime, bool zoned) {
  nb::object epoch = zoned ? datetime.attr("datetime")(
                                 1970, 1, 1, "tzinfo"_a = datetime.attr("timezone").attr("utc"))
                           : datetime.attr("datetime")(1970, 1, 1);
  nb::object microsecond = datetime.attr("timedelta")("microseconds"_a = 1);
  return nb::cast<int64_t>((value - epoch).floor_div(microsecond));
}

// Spark's type of a Decimal: the digits it has (at least the scale) and the digits after the
// point (none for a positive exponent: 1.5E+3 is 1500).
expr::ExprPtr decimal_literal(nb::handle value) {
  if (!nb::cast<bool>(value.attr("is_finite")())) {
    throw InvalidArgument("a decimal literal must be finite, got " +
                          nb::cast<std::string>(nb::str(value)));
  }
  nb::object parts = value.attr("as_tuple")();
  const auto digits = static_cast<int32_t>(nb::len(nb::object(parts.attr("digits"))));
  const auto exponent = nb::cast<int32_t>(parts.attr("exponent"));
  const int32_t scale = exponent < 0 ? -exponent : 0;
  const int32_t precision =
      std::max({exponent > 0 ? digits + exponent : digits, scale, int32_t{1}});
  if (precision > 38) {
    throw InvalidArgument("the decimal literal " + nb::cast<std::string>(nb::str(value)) +
                          " needs " + std::to_string(precision) +
                          " digits; Spark's decimals have at most 38");
  }
  DecimalBuilder builder(decimal128(precision, scale));
  builder.append_string(
      nb::cast<std::string>(nb::str(nb::module_::import_("builtins").attr("format")(value, "f"))));
  return literal_from(builder);
}

// A literal of a Python value, typed as Spark types literals (see the docstring of `lit`).
expr::ExprPtr literal_of(nb::handle value) {
  if (value.is_none()) {
    return expr::null_literal(null());
  }
  if (nb::isinstance<nb::bool_>(value)) {
    return expr::lit(nb::cast<bool>(value));
  }
  if (nb::isinstance<nb::int_>(value)) {
    return integer_literal(value);
  }
  if (nb::isinstance<nb::float_>(value)) {
    return expr::lit(nb::cast<double>(value));
  }
  if (nb::isinstance<nb::str>(value)) {
    return expr::lit(nb::cast<std::string>(value));
  }
  if (nb::isinstance<nb::bytes>(value)) {
    BinaryBuilder builder;
    const auto bytes = nb::cast<nb::bytes>(value);
    builder.append(std::string_view(bytes.c_str(), bytes.size()));
    return literal_from(builder);
  }
  const nb::module_ datetime = nb::module_::import_("datetime");
  if (nb::isinstance(value, datetime.attr("datetime"))) {
    const bool zoned = !value.attr("utcoffset")().is_none();
    NumericBuilder<int64_t> builder(timestamp(TimeUnit::kMicro, zoned ? "UTC" : ""));
    builder.append(epoch_microseconds(value, datetime, zoned));
    return literal_from(builder);
  }
  if (nb::isinstance(value, datetime.attr("date"))) {
    NumericBuilder<int32_t> builder(date32());
    builder.append(
        static_cast<int32_t>(nb::cast<int64_t>(value.attr("toordinal")()) - kUnixEpochOrdinal));
    return literal_from(builder);
  }
  if (nb::isinstance(value, nb::module_::import_("decimal").attr("Decimal"))) {
    return decimal_literal(value);
  }
  if (nb::hasattr(value, "__arrow_c_array__")) {
    Array array = array_from(value);
    if (array.length() != 1) {
      throw InvalidArgument("a literal from an Arrow array needs exactly one value, got " +
                            std::to_string(array.length()));
    }
    return expr::lit(compute::Datum::scalar(std::move(array)));
  }
  throw TypeError("cannot make a literal of a value of type '" +
                  std::string(nb::inst_name(value).c_str()) +
                  "': pass None, bool, int, float, str, bytes, decimal.Decimal, datetime.date, "
                  "datetime.datetime or an Arrow array of one value (__arrow_c_array__)");
}

// A Spark type name ("decimal(10,2)", "array<int>") or any object with `__arrow_c_schema__`.
TypePtr cast_target(nb::handle type, const std::string& session_time_zone) {
  if (nb::isinstance<nb::str>(type)) {
    return parse_spark_type(nb::cast<std::string>(type), session_time_zone);
  }
  return type_from(type, "Expression.cast");
}

// --- plans --------------------------------------------------------------------------------

PyLogicalPlan from_arrow(nb::handle data) {
  std::unique_ptr<RecordBatchReader> reader = record_batches_from(data, "LogicalPlan.from_arrow");
  std::vector<RecordBatch> batches;
  {
    nb::gil_scoped_release unlocked;
    while (std::optional<RecordBatch> batch = reader->next()) {
      batches.push_back(std::move(*batch));
    }
  }
  return {plan::local_relation(Table::from_batches(reader->schema(), batches))};
}

using SortItem = std::tuple<PyExpression, bool, std::optional<bool>>;

PyLogicalPlan sorted_by(const PyLogicalPlan& self, const std::vector<SortItem>& items) {
  std::vector<plan::SortOrder> orders;
  orders.reserve(items.size());
  for (const auto& [expression, ascending, nulls_first] : items) {
    orders.push_back({expression.expression, compute::SortKey{ascending, nulls_first}});
  }
  return {plan::sort(self.plan, std::move(orders))};
}

PyLogicalPlan union_of(const PyLogicalPlan& self, const std::vector<PyLogicalPlan>& others,
                       bool by_name, bool allow_missing_columns) {
  std::vector<plan::PlanPtr> children{self.plan};
  for (const PyLogicalPlan& other : others) {
    children.push_back(other.plan);
  }
  return {plan::union_all(std::move(children), by_name, allow_missing_columns)};
}

plan::PlanPtr optimized_plan(const PyLogicalPlan& self) {
  return plan::optimize(plan::analyze(self.plan));
}

std::string analyzed_output_line(const plan::PlanPtr& analyzed) {
  std::string out;
  for (const plan::Attribute& attribute : analyzed->output) {
    out += (out.empty() ? "" : ", ") + attribute.name + ": " + spark_simple_string(*attribute.type);
  }
  return out.empty() ? out : out + "\n";
}

// As Spark's QueryExecution prints a query: `simpleString` for "simple", `toString` for
// "extended".
std::string explain(const PyLogicalPlan& self, const std::string& mode) {
  if (mode != "simple" && mode != "extended") {
    throw InvalidArgument("unknown explain mode '" + mode +
                          "'; the accepted modes are 'simple' and 'extended'");
  }
  const plan::PlanPtr analyzed = plan::analyze(self.plan);
  const plan::PlanPtr optimized = plan::optimize(analyzed);
  compute::ExecContext context;
  const std::string physical = exec::physical_tree_string(exec::plan_physical(optimized, context));
  if (mode == "simple") {
    return "== Physical Plan ==\n" + physical + "\n";
  }
  return "== Parsed Logical Plan ==\n" + plan::tree_string(self.plan) +
         "\n== Analyzed Logical Plan ==\n" + analyzed_output_line(analyzed) +
         plan::tree_string(analyzed) + "\n== Optimized Logical Plan ==\n" +
         plan::tree_string(optimized) + "\n== Physical Plan ==\n" + physical;
}

// --- execution ----------------------------------------------------------------------------

// Keeps the memory of a result buffer's allocator alive: members are destroyed in reverse
// order, the buffer (returning its memory) before the allocator.
struct BudgetedBuffer {
  std::shared_ptr<const Allocator> allocator;
  std::shared_ptr<Buffer> buffer;
};

ArrayDataPtr keeping_allocator(const ArrayDataPtr& data,
                               const std::shared_ptr<const Allocator>& allocator) {
  if (data == nullptr) {
    return nullptr;
  }
  std::vector<std::shared_ptr<Buffer>> buffers;
  buffers.reserve(data->buffers.size());
  for (const std::shared_ptr<Buffer>& buffer : data->buffers) {
    if (buffer == nullptr) {
      buffers.push_back(nullptr);
      continue;
    }
    buffers.push_back(Buffer::wrap(buffer->data(), buffer->size(),
                                   std::make_shared<BudgetedBuffer>(allocator, buffer)));
  }
  std::vector<ArrayDataPtr> children;
  children.reserve(data->children.size());
  for (const ArrayDataPtr& child : data->children) {
    children.push_back(keeping_allocator(child, allocator));
  }
  return std::make_shared<ArrayData>(data->type, data->length, std::move(buffers),
                                     data->known_null_count(), data->offset, std::move(children),
                                     keeping_allocator(data->dictionary, allocator));
}

// The same table, zero-copy, with every buffer keeping `allocator` alive: a query's budgeted
// allocator must outlive every buffer of its result, wherever they are exported to.
Table keeping_allocator(const Table& table, const std::shared_ptr<const Allocator>& allocator) {
  std::vector<ChunkedArray> columns;
  columns.reserve(table.columns().size());
  for (const ChunkedArray& column : table.columns()) {
    std::vector<Array> chunks;
    chunks.reserve(column.chunks().size());
    for (const Array& chunk : column.chunks()) {
      chunks.emplace_back(keeping_allocator(chunk.data(), allocator));
    }
    columns.emplace_back(column.type(), std::move(chunks));
  }
  return Table(table.schema(), table.num_rows(), std::move(columns));
}

Table execute(const PyLogicalPlan& query, int64_t morsel_rows, int threads,
              std::optional<int64_t> memory_limit) {
  // Declared first so that it goes last, after every buffer of a failed or discarded result.
  std::shared_ptr<BudgetedAllocator> budget;
  compute::ExecContext context;
  if (memory_limit.has_value()) {
    if (*memory_limit < 0) {
      throw InvalidArgument("memory_limit must be a number of bytes >= 0, got " +
                            std::to_string(*memory_limit));
    }
    budget = std::make_shared<BudgetedAllocator>(default_allocator(), *memory_limit,
                                                 "query memory limit");
    context.allocator = budget.get();
  }
  exec::QueryOptions options;
  options.morsel_rows = morsel_rows;
  options.threads = threads;
  Table table = run_interruptibly<Table>(
      [plan = query.plan, context, options]() mutable {
        const plan::PlanPtr optimized = plan::optimize(plan::analyze(plan));
        return exec::execute(exec::plan_physical(optimized, context), context, options);
      },
      options.cancellation);
  return budget == nullptr ? table : keeping_allocator(table, budget);
}

}  // namespace

void bind_plan(nb::module_& module) {
  nb::class_<PyExpression>(
      module, "Expression",
      "An unresolved expression of the query engine: column references by name, literals, "
      "function calls by Spark name, casts, CASE WHEN, IN, null tests and boolean logic. "
      "Immutable; str() is its Spark SQL text.")
      .def_static(
          "col", [](const std::string& name) { return PyExpression{expr::col(name)}; }, "name"_a,
          "A column by name, matched case-insensitively; dots reach struct fields "
          "('address.city') or the columns of an aliased relation ('l.id'); '*' and 't.*' "
          "stand for every column in a select.")
      .def_static(
          "lit", [](nb::handle value) { return PyExpression{literal_of(value)}; }, "value"_a.none(),
          "A literal, typed as Spark types literals: None is NULL (of the null type), bool "
          "BOOLEAN, int INT when it fits (else BIGINT), float DOUBLE, str STRING, bytes BINARY, "
          "decimal.Decimal DECIMAL of its digits and scale, datetime.date DATE, a datetime with "
          "a time zone TIMESTAMP (in UTC) and one without TIMESTAMP_NTZ. An Arrow array of one "
          "value (__arrow_c_array__) gives a literal of its type. Raises TypeError for other "
          "values, ValueError for an int outside BIGINT or a decimal of more than 38 digits.")
      .def_static(
          "call",
          [](const std::string& name, const std::vector<PyExpression>& arguments,
             std::optional<nb::dict> options) {
            return PyExpression{expr::call(name, expressions_of(arguments),
                                           options.has_value() ? function_options_from(*options)
                                                               : compute::FunctionOptions{})};
          },
          "name"_a, "arguments"_a, "options"_a = nb::none(),
          "A call of the function registered as `name` (Spark's name, operators by their "
          "symbol: '+', '=', '<=>'), resolved when the plan is analysed. `options` maps option "
          "names to bool, int, float, str or data type values.")
      .def_static(
          "case_when",
          [](const std::vector<std::pair<PyExpression, PyExpression>>& branches,
             std::optional<PyExpression> otherwise) {
            std::vector<std::pair<expr::ExprPtr, expr::ExprPtr>> pairs;
            pairs.reserve(branches.size());
            for (const auto& [condition, value] : branches) {
              pairs.emplace_back(condition.expression, value.expression);
            }
            return PyExpression{
                expr::case_when(pairs, otherwise.has_value() ? otherwise->expression : nullptr)};
          },
          "branches"_a, "otherwise"_a = nb::none(),
          "CASE WHEN c1 THEN v1 ... ELSE otherwise END over (condition, value) pairs; without "
          "`otherwise` rows matching no condition are null.")
      .def(
          "cast",
          [](const PyExpression& self, nb::handle type, const std::string& session_time_zone) {
            return PyExpression{expr::cast(self.expression, cast_target(type, session_time_zone))};
          },
          "type"_a, "session_time_zone"_a = "UTC",
          "CAST(self AS type): `type` is a Spark type name ('int', 'decimal(10,2)', "
          "'array<string>'; TIMESTAMP in `session_time_zone`) or any object with "
          "__arrow_c_schema__. ANSI casts raise on values that do not convert. Raises "
          "bowstring.errors.ParseException for a type name that does not parse.")
      .def(
          "try_cast",
          [](const PyExpression& self, nb::handle type, const std::string& session_time_zone) {
            return PyExpression{
                expr::try_cast(self.expression, cast_target(type, session_time_zone))};
          },
          "type"_a, "session_time_zone"_a = "UTC",
          "TRY_CAST(self AS type): as cast, but values that do not convert become null.")
      .def(
          "alias",
          [](const PyExpression& self, const std::string& name) {
            return PyExpression{expr::alias(self.expression, name)};
          },
          "name"_a, "self AS name: names the output column.")
      .def(
          "isin",
          [](const PyExpression& self, const std::vector<PyExpression>& values) {
            return PyExpression{expr::in(self.expression, expressions_of(values))};
          },
          "values"_a,
          "self IN (values...), with Spark's nulls: null when nothing matches and self or a "
          "value is null.")
      .def(
          "is_null",
          [](const PyExpression& self) { return PyExpression{expr::is_null(self.expression)}; },
          "self IS NULL.")
      .def(
          "is_not_null",
          [](const PyExpression& self) { return PyExpression{expr::is_not_null(self.expression)}; },
          "self IS NOT NULL.")
      .def(
          "and_",
          [](const PyExpression& self, const PyExpression& other) {
            return PyExpression{expr::and_(self.expression, other.expression)};
          },
          "other"_a, "self AND other, three-valued.")
      .def(
          "or_",
          [](const PyExpression& self, const PyExpression& other) {
            return PyExpression{expr::or_(self.expression, other.expression)};
          },
          "other"_a, "self OR other, three-valued.")
      .def(
          "not_",
          [](const PyExpression& self) { return PyExpression{expr::not_(self.expression)}; },
          "NOT self, three-valued.")
      .def_prop_ro(
          "output_name", [](const PyExpression& self) { return self.expression->output_name(); },
          "The name Spark gives the column the expression produces: its alias, the column's "
          "name, or its SQL text ('(a + 1)').")
      .def("__str__", [](const PyExpression& self) { return self.expression->to_string(); })
      .def("__repr__", [](const PyExpression& self) {
        return "Expression(" + self.expression->to_string() + ")";
      });

  nb::class_<PyLogicalPlan>(
      module, "LogicalPlan",
      "A logical plan of the query engine, built as the DataFrame API reads: each builder "
      "returns a new plan over this one. Names are resolved when the plan is analysed "
      "(analyzed(), explain(), execute()), which raises bowstring.errors.AnalysisException "
      "with Spark's conditions (UNRESOLVED_COLUMN with suggestions, AMBIGUOUS_REFERENCE, "
      "MISSING_AGGREGATION, DATATYPE_MISMATCH...). str() is its tree.")
      .def_static("from_arrow", &from_arrow, "data"_a,
                  "The rows of an Arrow object (anything with __arrow_c_stream__ or "
                  "__arrow_c_array__: a pyarrow Table or RecordBatch, a bowstring Table...), "
                  "read into memory without copying.")
      .def_static(
          "range",
          [](int64_t start, int64_t end, int64_t step, int num_partitions) {
            return PyLogicalPlan{plan::range(start, end, step, num_partitions)};
          },
          "start"_a, "end"_a, "step"_a = 1, "num_partitions"_a = 0,
          "The BIGINT column `id` from `start` to `end` (exclusive) by `step`, in "
          "`num_partitions` partitions (0: the engine decides).")
      .def(
          "select",
          [](const PyLogicalPlan& self, const std::vector<PyExpression>& expressions) {
            return PyLogicalPlan{plan::project(self.plan, expressions_of(expressions))};
          },
          "expressions"_a, "The columns computed by `expressions` over each row.")
      .def(
          "filter",
          [](const PyLogicalPlan& self, const PyExpression& condition) {
            return PyLogicalPlan{plan::filter(self.plan, condition.expression)};
          },
          "condition"_a, "The rows where the BOOLEAN `condition` is true.")
      .def(
          "aggregate",
          [](const PyLogicalPlan& self, const std::vector<PyExpression>& keys,
             const std::vector<PyExpression>& outputs) {
            return PyLogicalPlan{
                plan::aggregate(self.plan, expressions_of(keys), expressions_of(outputs))};
          },
          "keys"_a, "outputs"_a,
          "Groups by `keys` (none: one group of every row) and computes `outputs`, which mix "
          "aggregate calls and expressions of the keys.")
      .def("sort", &sorted_by, "orders"_a,
           "The rows ordered by (expression, ascending, nulls_first) keys; nulls_first None is "
           "Spark's default (first when ascending, last when descending).")
      .def(
          "limit",
          [](const PyLogicalPlan& self, int64_t limit, int64_t offset) {
            return PyLogicalPlan{plan::limit(self.plan, limit, offset)};
          },
          "limit"_a, "offset"_a = 0,
          "At most `limit` rows (-1: every row) after skipping `offset`. Raises ValueError for "
          "a limit below -1 or a negative offset.")
      .def("union", &union_of, "others"_a, "by_name"_a = false, "allow_missing_columns"_a = false,
           "UNION ALL of this plan and `others`, by position, or by name (then "
           "`allow_missing_columns` fills the columns a side lacks with nulls).")
      .def(
          "join",
          [](const PyLogicalPlan& self, const PyLogicalPlan& other,
             std::optional<PyExpression> condition, const std::string& how) {
            return PyLogicalPlan{
                plan::join(self.plan, other.plan, plan::parse_join_type(how),
                           condition.has_value() ? condition->expression : nullptr)};
          },
          "other"_a, "condition"_a = nb::none(), "how"_a = "inner",
          "This plan's rows paired with `other`'s where `condition` holds (None: every pair), "
          "by the join type `how` names as PySpark does ('inner', 'left', 'right', 'full', "
          "'semi', 'anti', 'cross'...). Columns both sides have are ambiguous unless qualified "
          "through alias(). Raises AnalysisException (UNSUPPORTED_JOIN_TYPE) for another `how`.")
      .def(
          "distinct",
          [](const PyLogicalPlan& self) { return PyLogicalPlan{plan::distinct(self.plan)}; },
          "The distinct rows.")
      .def(
          "alias",
          [](const PyLogicalPlan& self, const std::string& name) {
            return PyLogicalPlan{plan::subquery_alias(self.plan, name)};
          },
          "name"_a, "This plan with its columns qualified by `name` ('name.column').")
      .def(
          "analyzed",
          [](const PyLogicalPlan& self) { return PyLogicalPlan{plan::analyze(self.plan)}; },
          "The resolved plan: names bound to attributes, types checked.")
      .def(
          "optimized",
          [](const PyLogicalPlan& self) { return PyLogicalPlan{optimized_plan(self)}; },
          "The resolved plan rewritten by the optimizer's rules.")
      .def(
          "schema",
          [](const PyLogicalPlan& self) {
            return PySchema{plan::output_schema(plan::analyze(self.plan)->output)};
          },
          "The schema of the plan's results (analysing it).")
      .def(
          "tree_string", [](const PyLogicalPlan& self) { return plan::tree_string(self.plan); },
          "The plan as Spark prints logical plans: one node per line, unresolved ones quoted.")
      .def("explain", &explain, "mode"_a = "simple",
           "The plan as Spark's explain prints it: 'simple' the physical plan under '== "
           "Physical Plan ==', 'extended' the parsed, analysed (with its output columns), "
           "optimized and physical plans. Raises ValueError for another mode.")
      .def("__str__", [](const PyLogicalPlan& self) { return plan::tree_string(self.plan); });

  module.def("execute", &execute, "plan"_a, "morsel_rows"_a = 64 * 1024, "threads"_a = 0,
             "memory_limit"_a = nb::none(),
             "Analyses, optimizes and runs `plan` on the process-wide thread pool, in morsels of "
             "`morsel_rows` rows on at most `threads` threads (0: the whole pool), and returns "
             "every row of the result as a bowstring.Table (pyarrow.table() takes it without "
             "copying). The GIL is released while the query runs; Ctrl-C (SIGINT) cancels it "
             "and raises KeyboardInterrupt. With `memory_limit` (bytes) the query's memory is "
             "budgeted: passing the budget raises MemoryError naming the operator, and the "
             "result's buffers keep the budget alive. Raises AnalysisException for a plan that "
             "does not resolve, ArithmeticException and the other Spark errors at run time.");
}

}  // namespace bowstring::python
