#include "bowstring/expr/expression.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_map>

#include "bowstring/array/array.h"
#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::expr {

using compute::Datum;

Expression::Expression(Kind kind, std::string name, Datum value, std::vector<ExprPtr> operands,
                       compute::FunctionOptions options, TypePtr cast_type, bool flag)
    : kind_(kind),
      name_(std::move(name)),
      value_(std::move(value)),
      operands_(std::move(operands)),
      options_(std::move(options)),
      cast_type_(std::move(cast_type)),
      flag_(flag) {
  for (const ExprPtr& operand : operands_) {
    if (operand == nullptr) {
      throw InvalidArgument("expression operand is null");
    }
  }
}

namespace {

ExprPtr make(Expression::Kind kind, std::vector<ExprPtr> operands, std::string name = {},
             bool flag = false) {
  return std::make_shared<const Expression>(kind, std::move(name), Datum(), std::move(operands),
                                            compute::FunctionOptions{}, nullptr, flag);
}

/// Java's Double.toString, which Spark uses for double values in names: "1.5", "10.0",
/// "1.0E20", "1.0E-5", "NaN", "Infinity".
std::string java_double_string(double value, bool single_precision) {
  if (std::isnan(value)) {
    return "NaN";
  }
  if (std::isinf(value)) {
    return value > 0 ? "Infinity" : "-Infinity";
  }
  std::array<char, 64> buffer{};
  std::to_chars_result result =
      single_precision ? std::to_chars(buffer.data(), buffer.data() + buffer.size(),
                                       static_cast<float>(value), std::chars_format::scientific)
                       : std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                       std::chars_format::scientific);
  std::string scientific(buffer.data(), result.ptr);
  // "d.ddde[+-]XX": split into the digits and the decimal exponent.
  const size_t e = scientific.find('e');
  std::string mantissa = scientific.substr(0, e);
  const int exponent = std::stoi(scientific.substr(e + 1));
  const bool negative = mantissa[0] == '-';
  if (negative) {
    mantissa.erase(0, 1);
  }
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') {
      digits += c;
    }
  }
  std::string out = negative ? "-" : "";
  const double magnitude = std::fabs(value);
  if (magnitude == 0.0 || (magnitude >= 1e-3 && magnitude < 1e7)) {
    if (exponent >= 0) {
      const size_t integer_digits = static_cast<size_t>(exponent) + 1;
      while (digits.size() < integer_digits + 1) {
        digits += '0';
      }
      out += digits.substr(0, integer_digits) + "." + digits.substr(integer_digits);
    } else {
      out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    }
    return out;
  }
  if (digits.size() == 1) {
    digits += '0';
  }
  out += digits.substr(0, 1) + "." + digits.substr(1) + "E" + std::to_string(exponent);
  return out;
}

/// "yyyy-MM-dd" of a day count since the epoch (proleptic Gregorian).
std::string format_date(int64_t days) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t month_index = (5 * day_of_year + 2) / 153;
  const int64_t day = day_of_year - (153 * month_index + 2) / 5 + 1;
  const int64_t month = month_index < 10 ? month_index + 3 : month_index - 9;
  const int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  std::array<char, 96> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%04lld-%02lld-%02lld", static_cast<long long>(year),
                static_cast<long long>(month), static_cast<long long>(day));
  return buffer.data();
}

/// "yyyy-MM-dd HH:mm:ss[.ffffff]" of microseconds since the epoch, in UTC.
std::string format_timestamp(int64_t micros) {
  constexpr int64_t kMicrosPerDay = 86'400'000'000;
  int64_t days = micros / kMicrosPerDay;
  int64_t rest = micros % kMicrosPerDay;
  if (rest < 0) {
    rest += kMicrosPerDay;
    --days;
  }
  const int64_t seconds = rest / 1'000'000;
  const int64_t fraction = rest % 1'000'000;
  std::array<char, 96> buffer{};
  std::snprintf(buffer.data(), buffer.size(), " %02lld:%02lld:%02lld",
                static_cast<long long>(seconds / 3600), static_cast<long long>(seconds / 60 % 60),
                static_cast<long long>(seconds % 60));
  std::string out = format_date(days) + buffer.data();
  if (fraction != 0) {
    std::snprintf(buffer.data(), buffer.size(), ".%06lld", static_cast<long long>(fraction));
    std::string digits = buffer.data();
    while (digits.back() == '0') {
      digits.pop_back();
    }
    out += digits;
  }
  return out;
}

int64_t timestamp_micros(int64_t value, TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return value * 1'000'000;
    case TimeUnit::kMilli:
      return value * 1000;
    case TimeUnit::kMicro:
      return value;
    case TimeUnit::kNano:
      return value / 1000;
  }
  return value;
}

std::string quote_string(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out + "'";
}

/// Prints unary and binary operators, IN, IS NULL... as Spark's `sql` does; other functions as
/// `name(arguments)`.
const std::unordered_map<std::string_view, std::string_view>& binary_operators() {
  static const std::unordered_map<std::string_view, std::string_view> operators = {
      {"+", "+"},     {"-", "-"},     {"*", "*"},   {"/", "/"},     {"%", "%"},
      {"div", "div"}, {"=", "="},     {"==", "="},  {"<=>", "<=>"}, {"<", "<"},
      {"<=", "<="},   {">", ">"},     {">=", ">="}, {"&", "&"},     {"|", "|"},
      {"^", "^"},     {"and", "AND"}, {"or", "OR"}, {"||", "||"}};
  return operators;
}

std::string join(const std::vector<std::string>& parts, size_t begin, size_t end) {
  std::string out;
  for (size_t i = begin; i < end; ++i) {
    if (i > begin) {
      out += ", ";
    }
    out += parts[i];
  }
  return out;
}

using ColumnText = Expression::ColumnText;

std::string render(const Expression& expression, bool plain, const ColumnText* columns);

std::vector<std::string> render_operands(const Expression& expression, bool plain,
                                         const ColumnText* columns) {
  std::vector<std::string> out;
  out.reserve(expression.operands().size());
  for (const ExprPtr& operand : expression.operands()) {
    out.push_back(render(*operand, plain, columns));
  }
  return out;
}

std::string render_column(const std::string& name, bool plain) {
  std::string out;
  for (const std::string& part : detail::name_parts(name)) {
    if (!out.empty()) {
      out += '.';
    }
    out += plain ? part : detail::quote_identifier(part);
  }
  return out;
}

std::string render(const Expression& expression, bool plain, const ColumnText* columns) {
  using Kind = Expression::Kind;
  switch (expression.kind()) {
    case Kind::kColumn:
      return columns != nullptr ? (*columns)(expression.name())
                                : render_column(expression.name(), plain);
    case Kind::kLiteral:
      return detail::literal_sql(expression.value(), plain);
    case Kind::kCall:
      return detail::call_sql(expression.name(), render_operands(expression, plain, columns));
    case Kind::kCast:
      return std::string(expression.is_try() ? "TRY_CAST(" : "CAST(") +
             render(*expression.operands()[0], plain, columns) + " AS " +
             spark_type_name(*expression.cast_type()) + ")";
    case Kind::kCaseWhen: {
      const std::vector<std::string> operands = render_operands(expression, plain, columns);
      const size_t branches = (operands.size() - (expression.has_else() ? 1 : 0)) / 2;
      std::string out = "CASE";
      for (size_t i = 0; i < branches; ++i) {
        out += " WHEN " + operands[2 * i] + " THEN " + operands[2 * i + 1];
      }
      if (expression.has_else()) {
        out += " ELSE " + operands.back();
      }
      return out + " END";
    }
    case Kind::kIn: {
      const std::vector<std::string> operands = render_operands(expression, plain, columns);
      return "(" + operands[0] + " IN (" + join(operands, 1, operands.size()) + "))";
    }
    case Kind::kIsNull:
      return "(" + render(*expression.operands()[0], plain, columns) + " IS NULL)";
    case Kind::kIsNotNull:
      return "(" + render(*expression.operands()[0], plain, columns) + " IS NOT NULL)";
    case Kind::kAnd:
      return "(" + render(*expression.operands()[0], plain, columns) + " AND " +
             render(*expression.operands()[1], plain, columns) + ")";
    case Kind::kOr:
      return "(" + render(*expression.operands()[0], plain, columns) + " OR " +
             render(*expression.operands()[1], plain, columns) + ")";
    case Kind::kNot:
      return "(NOT " + render(*expression.operands()[0], plain, columns) + ")";
    case Kind::kAlias:
      if (plain) {
        return render(*expression.operands()[0], plain, columns);
      }
      return render(*expression.operands()[0], plain, columns) + " AS " +
             detail::quote_identifier(expression.name());
  }
  return {};
}

}  // namespace

namespace detail {

std::vector<std::string> name_parts(std::string_view name) {
  std::vector<std::string> parts(1);
  bool quoted = false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '`') {
      if (quoted && i + 1 < name.size() && name[i + 1] == '`') {
        parts.back() += '`';
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == '.' && !quoted) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

std::string quote_identifier(std::string_view name) {
  bool plain = !name.empty();
  bool all_digits = true;
  for (char c : name) {
    const bool digit = c >= '0' && c <= '9';
    all_digits = all_digits && digit;
    if (!(digit || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')) {
      plain = false;
    }
  }
  if (plain && !all_digits) {
    return std::string(name);
  }
  std::string out = "`";
  for (char c : name) {
    out += c;
    if (c == '`') {
      out += '`';
    }
  }
  return out + "`";
}

std::string call_sql(std::string_view function, const std::vector<std::string>& arguments) {
  const std::string name = ascii_lower(function);
  const auto& operators = binary_operators();
  if (arguments.size() == 2) {
    if (auto it = operators.find(name); it != operators.end()) {
      return "(" + arguments[0] + " " + std::string(it->second) + " " + arguments[1] + ")";
    }
    if (name == "!=" || name == "<>") {
      return "(NOT (" + arguments[0] + " = " + arguments[1] + "))";
    }
  }
  if (arguments.size() == 1) {
    if (name == "not" || name == "!") {
      return "(NOT " + arguments[0] + ")";
    }
    if (name == "isnull") {
      return "(" + arguments[0] + " IS NULL)";
    }
    if (name == "isnotnull") {
      return "(" + arguments[0] + " IS NOT NULL)";
    }
    if (name == "~") {
      return "~" + arguments[0];
    }
  }
  if (name == "if" && arguments.size() == 3) {
    return "(IF(" + join(arguments, 0, 3) + "))";
  }
  if (name == "in" && !arguments.empty()) {
    return "(" + arguments[0] + " IN (" + join(arguments, 1, arguments.size()) + "))";
  }
  return name + "(" + join(arguments, 0, arguments.size()) + ")";
}

std::string literal_sql(const Datum& scalar, bool plain) {
  const DataType& type = *scalar.type();
  if (scalar.scalar_is_null()) {
    if (plain || type.id() == TypeId::kNull) {
      return "NULL";
    }
    return "CAST(NULL AS " + spark_type_name(type) + ")";
  }
  const Array& array = scalar.array();
  switch (type.id()) {
    case TypeId::kBoolean:
      return array.as<BooleanArray>().value(0) ? "true" : "false";
    case TypeId::kInt8:
      return std::to_string(array.as<Int8Array>().value(0)) + (plain ? "" : "Y");
    case TypeId::kInt16:
      return std::to_string(array.as<Int16Array>().value(0)) + (plain ? "" : "S");
    case TypeId::kInt32:
      return std::to_string(array.as<Int32Array>().value(0));
    case TypeId::kInt64:
      return std::to_string(array.as<Int64Array>().value(0)) + (plain ? "" : "L");
    case TypeId::kFloat32: {
      const float value = array.as<FloatArray>().value(0);
      if (!plain && !std::isfinite(value)) {
        return "CAST('" + java_double_string(value, true) + "' AS FLOAT)";
      }
      return java_double_string(value, true) + (plain ? "" : "F");
    }
    case TypeId::kFloat64: {
      const double value = array.as<DoubleArray>().value(0);
      if (!plain && !std::isfinite(value)) {
        return "CAST('" + java_double_string(value, false) + "' AS DOUBLE)";
      }
      return java_double_string(value, false) + (plain ? "" : "D");
    }
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      return array.as<DecimalArray>().format_value(0) + (plain ? "" : "BD");
    case TypeId::kString:
      return plain ? std::string(array.as<StringArray>().value(0))
                   : quote_string(array.as<StringArray>().value(0));
    case TypeId::kLargeString:
      return plain ? std::string(array.as<LargeStringArray>().value(0))
                   : quote_string(array.as<LargeStringArray>().value(0));
    case TypeId::kStringView:
      return plain ? std::string(array.as<StringViewArray>().value(0))
                   : quote_string(array.as<StringViewArray>().value(0));
    case TypeId::kDate32:
      return "DATE '" + format_date(array.as<Date32Array>().value(0)) + "'";
    case TypeId::kTimestamp: {
      const auto& timestamp = type_cast<TimestampType>(type);
      const std::string text =
          format_timestamp(timestamp_micros(array.as<TimestampArray>().value(0), timestamp.unit()));
      return (timestamp.timezone().empty() ? "TIMESTAMP_NTZ '" : "TIMESTAMP '") + text + "'";
    }
    case TypeId::kBinary: {
      static constexpr char kHex[] = "0123456789ABCDEF";
      std::string out = "X'";
      for (unsigned char c : array.as<BinaryArray>().value(0)) {
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
      return out + "'";
    }
    default:
      return scalar.to_string();
  }
}

}  // namespace detail

std::string Expression::to_string() const { return render(*this, false, nullptr); }

std::string Expression::to_string(const ColumnText& column_text) const {
  return render(*this, false, &column_text);
}

std::string Expression::output_name() const {
  if (kind_ == Kind::kAlias) {
    return name_;
  }
  if (kind_ == Kind::kColumn) {
    return detail::name_parts(name_).back();
  }
  // Spark names the cast of a column after the column.
  if (kind_ == Kind::kCast && operands_[0]->kind() == Kind::kColumn) {
    return operands_[0]->output_name();
  }
  return render(*this, true, nullptr);
}

std::string Expression::output_name(const ColumnText& column_text) const {
  if (kind_ == Kind::kAlias) {
    return name_;
  }
  if (kind_ == Kind::kColumn) {
    return detail::name_parts(column_text(name_)).back();
  }
  if (kind_ == Kind::kCast && operands_[0]->kind() == Kind::kColumn) {
    return operands_[0]->output_name(column_text);
  }
  return render(*this, true, &column_text);
}

ExprPtr col(std::string name) { return make(Expression::Kind::kColumn, {}, std::move(name)); }

ExprPtr lit(Datum scalar) {
  if (!scalar.is_scalar()) {
    throw InvalidArgument("a literal needs a scalar, not an array of " +
                          std::to_string(scalar.length()) + " values");
  }
  return std::make_shared<const Expression>(Expression::Kind::kLiteral, std::string(),
                                            std::move(scalar), std::vector<ExprPtr>{},
                                            compute::FunctionOptions{}, nullptr, false);
}

ExprPtr lit(bool value) {
  BooleanBuilder builder;
  builder.append(value);
  return lit(Datum::scalar(builder.finish()));
}

ExprPtr lit(int32_t value) {
  Int32Builder builder;
  builder.append(value);
  return lit(Datum::scalar(builder.finish()));
}

ExprPtr lit(int64_t value) {
  Int64Builder builder;
  builder.append(value);
  return lit(Datum::scalar(builder.finish()));
}

ExprPtr lit(double value) {
  DoubleBuilder builder;
  builder.append(value);
  return lit(Datum::scalar(builder.finish()));
}

ExprPtr lit(std::string_view value) {
  StringBuilder builder;
  builder.append(value);
  return lit(Datum::scalar(builder.finish()));
}

ExprPtr null_literal(TypePtr type) { return lit(Datum::null_scalar(std::move(type))); }

ExprPtr call(std::string name, std::vector<ExprPtr> arguments, compute::FunctionOptions options) {
  return std::make_shared<const Expression>(Expression::Kind::kCall, std::move(name), Datum(),
                                            std::move(arguments), std::move(options), nullptr,
                                            false);
}

namespace {
ExprPtr make_cast(ExprPtr value, TypePtr type, bool is_try) {
  if (type == nullptr) {
    throw InvalidArgument("cast needs a target type");
  }
  return std::make_shared<const Expression>(Expression::Kind::kCast, std::string(), Datum(),
                                            std::vector<ExprPtr>{std::move(value)},
                                            compute::FunctionOptions{}, std::move(type), is_try);
}
}  // namespace

ExprPtr cast(ExprPtr value, TypePtr type) {
  return make_cast(std::move(value), std::move(type), false);
}

ExprPtr try_cast(ExprPtr value, TypePtr type) {
  return make_cast(std::move(value), std::move(type), true);
}

ExprPtr case_when(const std::vector<std::pair<ExprPtr, ExprPtr>>& branches, ExprPtr otherwise) {
  if (branches.empty()) {
    throw InvalidArgument("CASE WHEN needs at least one WHEN branch");
  }
  std::vector<ExprPtr> operands;
  operands.reserve(branches.size() * 2 + 1);
  for (const auto& [condition, value] : branches) {
    operands.push_back(condition);
    operands.push_back(value);
  }
  const bool has_else = otherwise != nullptr;
  if (has_else) {
    operands.push_back(std::move(otherwise));
  }
  return make(Expression::Kind::kCaseWhen, std::move(operands), {}, has_else);
}

ExprPtr in(ExprPtr value, std::vector<ExprPtr> list) {
  if (list.empty()) {
    throw InvalidArgument("IN needs at least one value in its list");
  }
  list.insert(list.begin(), std::move(value));
  return make(Expression::Kind::kIn, std::move(list));
}

ExprPtr is_null(ExprPtr value) { return make(Expression::Kind::kIsNull, {std::move(value)}); }

ExprPtr is_not_null(ExprPtr value) {
  return make(Expression::Kind::kIsNotNull, {std::move(value)});
}

ExprPtr and_(ExprPtr left, ExprPtr right) {
  return make(Expression::Kind::kAnd, {std::move(left), std::move(right)});
}

ExprPtr or_(ExprPtr left, ExprPtr right) {
  return make(Expression::Kind::kOr, {std::move(left), std::move(right)});
}

ExprPtr not_(ExprPtr value) { return make(Expression::Kind::kNot, {std::move(value)}); }

ExprPtr alias(ExprPtr value, std::string name) {
  return make(Expression::Kind::kAlias, {std::move(value)}, std::move(name));
}

}  // namespace bowstring::expr
