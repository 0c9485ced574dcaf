#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/types/type.h"

namespace bowstring::expr {

class Expression;
/// Expressions are immutable and shared: subtrees are reused freely between trees.
using ExprPtr = std::shared_ptr<const Expression>;

/// An unbound expression: names and functions are resolved, and types checked, by `bind_expression`
/// (bind.h). Build them with the factory functions below (`col`, `lit`, `call`...).
class Expression {
 public:
  enum class Kind : uint8_t {
    kColumn,     ///< name(): the column, "a" or "s.field" for a struct field
    kLiteral,    ///< value(): a typed scalar, possibly null
    kCall,       ///< name(): the function; operands(): its arguments; options()
    kCast,       ///< operands()[0] cast to cast_type(); is_try() for try_cast
    kCaseWhen,   ///< operands(): when1, then1, when2, then2..., then the else value if has_else()
    kIn,         ///< operands(): the value, then the list
    kIsNull,     ///< operands()[0] IS NULL
    kIsNotNull,  ///< operands()[0] IS NOT NULL
    kAnd,        ///< operands(): left, right
    kOr,         ///< operands(): left, right
    kNot,        ///< operands()[0]
    kAlias,      ///< operands()[0] named name()
  };

  Expression(Kind kind, std::string name, compute::Datum value, std::vector<ExprPtr> operands,
             compute::FunctionOptions options, TypePtr cast_type, bool flag);

  Kind kind() const { return kind_; }
  /// The column, function or alias name; empty for other kinds.
  const std::string& name() const { return name_; }
  /// The scalar of a literal.
  const compute::Datum& value() const { return value_; }
  const std::vector<ExprPtr>& operands() const { return operands_; }
  /// The options of a function call.
  const compute::FunctionOptions& options() const { return options_; }
  /// The target type of a cast.
  const TypePtr& cast_type() const { return cast_type_; }
  /// Whether a cast is a `try_cast` (null instead of an error).
  bool is_try() const { return kind_ == Kind::kCast && flag_; }
  /// Whether a CASE WHEN has an ELSE value (the last operand).
  bool has_else() const { return kind_ == Kind::kCaseWhen && flag_; }

  /// The expression as Spark SQL prints it in messages: "(a + 1)", "CASE WHEN (a = 0) THEN 0
  /// ELSE (10 / a) END", "CAST(a AS INT)", string literals quoted ('x'), BIGINT literals with
  /// an L suffix.
  std::string to_string() const;
  /// Prints a column reference's name (as the expression holds it) as text.
  using ColumnText = std::function<std::string(const std::string& name)>;
  /// `to_string` with each column printed by `column_text` (a plan prints attributes with
  /// their ids: "id#12L").
  std::string to_string(const ColumnText& column_text) const;
  /// The name Spark gives the column an unaliased expression produces: the alias, the column
  /// (or struct field) name, for a cast of a column that column's name, otherwise the SQL text
  /// with literals printed plainly ("(a + 1)", "concat(s, x)", "NULL").
  std::string output_name() const;
  /// `output_name` with each column printed by `column_text`.
  std::string output_name(const ColumnText& column_text) const;

 private:
  Kind kind_;
  std::string name_;
  compute::Datum value_;
  std::vector<ExprPtr> operands_;
  compute::FunctionOptions options_;
  TypePtr cast_type_;
  bool flag_;
};

/// A column by name, matched case-insensitively when bound. Dots separate struct fields
/// ("address.city"); a part in backticks may contain dots ("`a.b`").
ExprPtr col(std::string name);

/// A literal: `scalar` must be a scalar Datum (`Datum::scalar`, `Datum::null_scalar`).
ExprPtr lit(compute::Datum scalar);
ExprPtr lit(bool value);
/// An INT literal, as Spark types `1`.
ExprPtr lit(int32_t value);
/// A BIGINT literal, as Spark types `1L`.
ExprPtr lit(int64_t value);
/// A DOUBLE literal.
ExprPtr lit(double value);
/// A STRING literal.
ExprPtr lit(std::string_view value);
inline ExprPtr lit(const char* value) { return lit(std::string_view(value)); }
/// The null literal of `type` (Spark's untyped NULL has the null type: `null_literal(null())`).
ExprPtr null_literal(TypePtr type);

/// A call of the function registered as `name` (Spark's name; operators by their symbol: "+",
/// "=", "<=>"...).
ExprPtr call(std::string name, std::vector<ExprPtr> arguments,
             compute::FunctionOptions options = {});
/// `CAST(value AS type)`: ANSI casts raise on values that do not convert.
ExprPtr cast(ExprPtr value, TypePtr type);
/// `TRY_CAST(value AS type)`: values that do not convert become null.
ExprPtr try_cast(ExprPtr value, TypePtr type);
/// `CASE WHEN c1 THEN v1 WHEN c2 THEN v2 ... ELSE otherwise END`; without `otherwise` rows that
/// match no condition are null.
ExprPtr case_when(const std::vector<std::pair<ExprPtr, ExprPtr>>& branches,
                  ExprPtr otherwise = nullptr);
/// `value IN (list...)`, with Spark's null semantics (null when nothing matches and the list
/// holds a null).
ExprPtr in(ExprPtr value, std::vector<ExprPtr> list);
ExprPtr is_null(ExprPtr value);
ExprPtr is_not_null(ExprPtr value);
/// Three-valued AND, OR and NOT.
ExprPtr and_(ExprPtr left, ExprPtr right);
ExprPtr or_(ExprPtr left, ExprPtr right);
ExprPtr not_(ExprPtr value);
/// `value AS name`: names the output column.
ExprPtr alias(ExprPtr value, std::string name);

namespace detail {
/// Spark's SQL spelling of a literal scalar: 'x', 1, 1L, 1.5D, NULL, DATE '2020-01-02'...
/// `plain` gives the spelling of column names instead: x, 1, 1, 1.5, NULL, 2020-01-02.
std::string literal_sql(const compute::Datum& scalar, bool plain);
/// How a function call is printed.
std::string call_sql(std::string_view function, const std::vector<std::string>& arguments);
/// A name part quoted with backticks when Spark would quote it.
std::string quote_identifier(std::string_view name);
/// The parts of a column reference, backticks removed: "a.`b.c`" gives a and b.c.
std::vector<std::string> name_parts(std::string_view name);
/// `text` with ASCII letters in lower case.
std::string ascii_lower(std::string_view text);
}  // namespace detail

}  // namespace bowstring::expr
