#include "bowstring/types/spark_type_names.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "bowstring/util/spark_error.h"

namespace bowstring {
namespace {

constexpr int64_t kMaxDecimalPrecision = 38;

/// The types Spark names with one keyword; the first name of a type is the one printed.
struct KeywordType {
  std::string_view name;
  TypeId id;
};

constexpr std::array<KeywordType, 17> kKeywordTypes{{
    {"boolean", TypeId::kBoolean},
    {"tinyint", TypeId::kInt8},
    {"byte", TypeId::kInt8},
    {"smallint", TypeId::kInt16},
    {"short", TypeId::kInt16},
    {"int", TypeId::kInt32},
    {"integer", TypeId::kInt32},
    {"bigint", TypeId::kInt64},
    {"long", TypeId::kInt64},
    {"float", TypeId::kFloat32},
    {"real", TypeId::kFloat32},
    {"double", TypeId::kFloat64},
    {"string", TypeId::kString},
    {"binary", TypeId::kBinary},
    {"date", TypeId::kDate32},
    {"void", TypeId::kNull},
    {"null", TypeId::kNull},
}};

/// The fields an interval type of Spark's starts and ends with, in order.
enum class IntervalField : uint8_t { kYear, kMonth, kDay, kHour, kMinute, kSecond };

constexpr std::array<std::string_view, 6> kIntervalFieldNames{"year", "month",  "day",
                                                              "hour", "minute", "second"};

bool is_year_month(IntervalField field) { return field <= IntervalField::kMonth; }

bool is_word_byte(unsigned char c) {
  // Bytes of non-ASCII UTF-8 characters count as letters, so that such names need no quotes.
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return out;
}

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
  });
  return out;
}

enum class TokenKind : uint8_t { kWord, kNumber, kQuotedName, kString, kSymbol, kEnd };

struct Token {
  TokenKind kind;
  /// A word or number as written, a quoted name or string literal unescaped, or the symbol.
  std::string text;
  /// Where the token starts in the text, and how many bytes it spans there.
  size_t position;
  size_t length;

  bool is_symbol(char symbol) const {
    return kind == TokenKind::kSymbol && text.size() == 1 && text[0] == symbol;
  }
};

/// Reads one type or one column list, with Spark's grammar of types (`dataType`, `colTypeList`
/// in SqlBaseParser.g4), by recursive descent over the tokens of the whole text.
class SparkTypeParser {
 public:
  SparkTypeParser(std::string_view text, std::string_view session_time_zone)
      : text_(text), session_time_zone_(session_time_zone) {
    if (session_time_zone_.empty()) {
      throw InvalidArgument(
          "Spark type names need a session time zone (the zone of TIMESTAMP), got an empty one");
    }
    tokenize();
  }

  TypePtr whole_type() {
    TypePtr type = data_type();
    expect_end("expected the end of the data type");
    return type;
  }

  FieldVector whole_schema() {
    if (peek().kind == TokenKind::kEnd) {
      syntax_error(peek(), "expected a column definition such as 'id BIGINT'");
    }
    FieldVector fields{column("column")};
    while (accept(',')) {
      fields.push_back(column("column"));
    }
    expect_end("expected ',' or the end of the schema");
    return fields;
  }

 private:
  // --- errors ---

  /// Throws `ParseError` with `condition` and `message`, then Spark's account of where:
  /// "(line L, pos P)" and the text with dashes and carets under the position.
  [[noreturn]] void fail_at(size_t position, const std::string& condition,
                            const std::string& message) const {
    size_t line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < position; ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    // Spark counts characters, not bytes: skip UTF-8 continuation bytes.
    size_t column = 0;
    for (size_t i = line_start; i < position; ++i) {
      column += (static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80 ? 1 : 0;
    }
    size_t line_end = text_.find('\n', line_start);
    if (line_end == std::string_view::npos) {
      line_end = text_.size();
    }
    std::string out = message + " (line " + std::to_string(line) + ", pos " +
                      std::to_string(column) + ")\n\n== SQL ==\n";
    out.append(text_.substr(0, line_end)).append("\n").append(column, '-').append("^^^");
    if (line_end < text_.size()) {
      out.append("\n").append(text_.substr(line_end + 1));
    }
    throw ParseError(condition, out);
  }

  std::string describe(const Token& token) const {
    if (token.kind == TokenKind::kEnd) {
      return "end of input";
    }
    std::string quoted(1, '\'');
    quoted.append(text_.substr(token.position, token.length)).push_back('\'');
    return quoted;
  }

  [[noreturn]] void syntax_error(const Token& token, const std::string& detail) const {
    fail_at(token.position, "PARSE_SYNTAX_ERROR",
            "Syntax error at or near " + describe(token) + ": " + detail + ".");
  }

  [[noreturn]] void unsupported(const Token& token, std::string_view spelled,
                                const std::string& reason = "") const {
    fail_at(token.position, "UNSUPPORTED_DATATYPE",
            "Unsupported data type \"" + upper(spelled) + "\"" + reason + ".");
  }

  // --- tokens ---

  void tokenize() {
    size_t i = 0;
    while (i < text_.size()) {
      const char c = text_[i];
      const size_t start = i;
      if (is_space(c)) {
        ++i;
      } else if (std::string_view("<>(),:").find(c) != std::string_view::npos) {
        tokens_.push_back({TokenKind::kSymbol, std::string(1, c), start, 1});
        ++i;
      } else if (c == '`') {
        std::string name;
        for (++i;; ++i) {
          if (i >= text_.size()) {
            fail_at(start, "PARSE_SYNTAX_ERROR",
                    "Syntax error at or near '`': unterminated quoted name.");
          }
          if (text_[i] == '`') {
            if (i + 1 < text_.size() && text_[i + 1] == '`') {
              name.push_back('`');
              ++i;
              continue;
            }
            break;
          }
          name.push_back(text_[i]);
        }
        ++i;
        tokens_.push_back({TokenKind::kQuotedName, std::move(name), start, i - start});
      } else if (c == '\'' || c == '"') {
        tokens_.push_back({TokenKind::kString, string_literal(i), start, 0});
        tokens_.back().length = i - start;
      } else if (is_word_byte(static_cast<unsigned char>(c))) {
        while (i < text_.size() && is_word_byte(static_cast<unsigned char>(text_[i]))) {
          ++i;
        }
        const std::string_view word = text_.substr(start, i - start);
        tokens_.push_back({std::all_of(word.begin(), word.end(), is_digit) ? TokenKind::kNumber
                                                                           : TokenKind::kWord,
                           std::string(word), start, i - start});
      } else {
        fail_at(start, "PARSE_SYNTAX_ERROR",
                "Syntax error at or near '" + std::string(1, c) + "': unexpected character.");
      }
    }
    tokens_.push_back({TokenKind::kEnd, "", text_.size(), 0});
  }

  /// The string literal starting at `i` (its quote), unescaped as Spark unescapes SQL strings;
  /// leaves `i` after the closing quote.
  std::string string_literal(size_t& i) {
    const size_t start = i;
    const char quote = text_[i++];
    std::string value;
    while (true) {
      if (i >= text_.size()) {
        fail_at(
            start, "PARSE_SYNTAX_ERROR",
            "Syntax error at or near " + std::string(1, quote) + ": unterminated string literal.");
      }
      const char c = text_[i++];
      if (c == quote) {
        return value;
      }
      if (c != '\\' || i >= text_.size()) {
        value.push_back(c);
        continue;
      }
      const char escaped = text_[i++];
      switch (escaped) {
        case 'n':
          value.push_back('\n');
          break;
        case 't':
          value.push_back('\t');
          break;
        case 'r':
          value.push_back('\r');
          break;
        case 'b':
          value.push_back('\b');
          break;
        case '0':
          value.push_back('\0');
          break;
        default:
          value.push_back(escaped);
      }
    }
  }

  const Token& peek() const { return tokens_[index_]; }

  const Token& next() {
    const Token& token = tokens_[index_];
    if (token.kind != TokenKind::kEnd) {
      ++index_;
    }
    return token;
  }

  bool accept(char symbol) {
    if (peek().is_symbol(symbol)) {
      ++index_;
      return true;
    }
    return false;
  }

  void expect(char symbol, const std::string& context) {
    if (!accept(symbol)) {
      syntax_error(peek(), std::string("expected '") + symbol + "' " + context);
    }
  }

  bool accept_keyword(std::string_view keyword) {
    if (peek().kind == TokenKind::kWord && lower(peek().text) == keyword) {
      ++index_;
      return true;
    }
    return false;
  }

  void expect_end(const std::string& detail) const {
    if (peek().kind != TokenKind::kEnd) {
      syntax_error(peek(), detail);
    }
  }

  /// A non-negative integer, saturated far above any meaningful value.
  int64_t number(const std::string& what) {
    const Token& token = next();
    if (token.kind != TokenKind::kNumber) {
      syntax_error(token, "expected " + what);
    }
    int64_t value = 0;
    for (const char digit : token.text) {
      value = std::min<int64_t>(value * 10 + (digit - '0'), int64_t{1} << 40);
    }
    return value;
  }

  // --- grammar ---

  /// `name [:] type [NOT NULL] [COMMENT 'text']`, a column of a schema or a field of a struct.
  FieldPtr column(const std::string& what) {
    const Token& name = next();
    if (name.kind != TokenKind::kWord && name.kind != TokenKind::kQuotedName) {
      syntax_error(name, "expected a " + what + " name");
    }
    accept(':');
    if (peek().kind != TokenKind::kWord) {
      syntax_error(peek(), "expected a data type for " + what + " " + describe(name));
    }
    TypePtr type = data_type();
    bool nullable = true;
    Metadata metadata;
    if (accept_keyword("not")) {
      if (!accept_keyword("null")) {
        syntax_error(peek(), "expected NULL after NOT");
      }
      nullable = false;
    }
    if (accept_keyword("comment")) {
      const Token& comment = next();
      if (comment.kind != TokenKind::kString) {
        syntax_error(comment, "expected a quoted string after COMMENT");
      }
      metadata.emplace_back("comment", comment.text);
    }
    return field(name.text, std::move(type), nullable, std::move(metadata));
  }

  TypePtr data_type() {
    const Token& token = next();
    if (token.kind != TokenKind::kWord) {
      syntax_error(token, "expected a data type");
    }
    const std::string name = lower(token.text);
    for (const KeywordType& keyword : kKeywordTypes) {
      if (keyword.name == name) {
        refuse_parameters(token);
        return primitive(keyword.id);
      }
    }
    if (name == "timestamp" || name == "timestamp_ltz") {
      refuse_parameters(token);
      return timestamp(TimeUnit::kMicro, std::string(session_time_zone_));
    }
    if (name == "timestamp_ntz") {
      refuse_parameters(token);
      return timestamp(TimeUnit::kMicro);
    }
    if (name == "decimal" || name == "dec" || name == "numeric") {
      return decimal_type();
    }
    if (name == "char" || name == "varchar") {
      expect('(', "after " + upper(name));
      number("a length");
      expect(')', "after the length of " + upper(name));
      return utf8();
    }
    if (name == "array") {
      expect('<', "after ARRAY");
      TypePtr element = data_type();
      expect('>', "to close ARRAY<");
      return list(std::move(element));
    }
    if (name == "map") {
      expect('<', "after MAP");
      TypePtr key = data_type();
      expect(',', "between the key and value types of MAP");
      TypePtr value = data_type();
      expect('>', "to close MAP<");
      return map(std::move(key), std::move(value));
    }
    if (name == "struct") {
      expect('<', "after STRUCT");
      FieldVector fields;
      if (!accept('>')) {
        do {
          fields.push_back(column("field"));
        } while (accept(','));
        expect('>', "or ',' in STRUCT<");
      }
      return struct_(std::move(fields));
    }
    if (name == "interval") {
      return interval_type();
    }
    if (name == "variant" || name == "time") {
      unsupported(token, token.text, ": Bowstring has no Arrow type for it");
    }
    unsupported(token, token.text);
  }

  /// Spark reads `INT(3)` as an unknown type named so, not as a syntax error.
  void refuse_parameters(const Token& type_name) {
    if (!peek().is_symbol('(')) {
      return;
    }
    size_t end = peek().position + 1;
    for (size_t i = index_; i < tokens_.size() && tokens_[i].kind != TokenKind::kEnd; ++i) {
      end = tokens_[i].position + tokens_[i].length;
      if (tokens_[i].is_symbol(')')) {
        break;
      }
    }
    unsupported(type_name, text_.substr(type_name.position, end - type_name.position));
  }

  TypePtr decimal_type() {
    if (!accept('(')) {
      return decimal128(10, 0);
    }
    const Token& precision_token = peek();
    const int64_t precision = number("a precision");
    int64_t scale = 0;
    const Token* scale_token = nullptr;
    if (accept(',')) {
      scale_token = &peek();
      scale = number("a scale");
    }
    expect(')', "after the precision and scale of DECIMAL");
    if (precision > kMaxDecimalPrecision) {
      fail_at(precision_token.position, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
              "Decimal precision " + precision_token.text + " exceeds max precision " +
                  std::to_string(kMaxDecimalPrecision) + ".");
    }
    if (precision < 1) {
      fail_at(precision_token.position, "UNSUPPORTED_DATATYPE",
              "Unsupported data type \"DECIMAL(0," + std::to_string(scale) +
                  ")\": the precision of a decimal is at least 1.");
    }
    if (scale > precision) {
      fail_at(scale_token->position, "_LEGACY_ERROR_TEMP_1228",
              "Decimal scale (" + scale_token->text + ") cannot be greater than precision (" +
                  precision_token.text + ").");
    }
    return decimal128(static_cast<int32_t>(precision), static_cast<int32_t>(scale));
  }

  std::optional<IntervalField> interval_field(const Token& token) const {
    if (token.kind != TokenKind::kWord) {
      return std::nullopt;
    }
    const std::string word = lower(token.text);
    for (size_t i = 0; i < kIntervalFieldNames.size(); ++i) {
      if (kIntervalFieldNames[i] == word) {
        return static_cast<IntervalField>(i);
      }
    }
    return std::nullopt;
  }

  /// `INTERVAL` alone (CalendarIntervalType), `INTERVAL f [TO g]`: YEAR and MONTH make
  /// YearMonthIntervalType, DAY, HOUR, MINUTE and SECOND DayTimeIntervalType.
  TypePtr interval_type() {
    const std::optional<IntervalField> from = interval_field(peek());
    if (!from.has_value()) {
      return month_day_nano_interval();
    }
    const Token& from_token = next();
    if (accept_keyword("to")) {
      const Token& to_token = next();
      const std::optional<IntervalField> to = interval_field(to_token);
      if (!to.has_value()) {
        syntax_error(to_token, "expected YEAR, MONTH, DAY, HOUR, MINUTE or SECOND after TO");
      }
      if (*to <= *from || is_year_month(*from) != is_year_month(*to)) {
        fail_at(from_token.position, "_LEGACY_ERROR_TEMP_0028",
                "Intervals FROM " + lower(from_token.text) + " TO " + lower(to_token.text) +
                    " are not supported.");
      }
    }
    return is_year_month(*from) ? month_interval() : duration(TimeUnit::kMicro);
  }

  std::string_view text_;
  std::string_view session_time_zone_;
  std::vector<Token> tokens_;
  size_t index_ = 0;
};

// --- printing ---

enum class Style : uint8_t {
  kSimple,  ///< DataType.simpleString: "struct<a:int>"
  kSql,     ///< DataType.sql: "STRUCT<a: INT>"
};

/// `name` as Spark's `quoteIfNeeded` writes it: bare when it is a plain word, else backquoted.
std::string quote_if_needed(const std::string& name) {
  const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return is_word_byte(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80;
  }) && !std::all_of(name.begin(), name.end(), is_digit);
  if (plain) {
    return name;
  }
  std::string quoted = "`";
  for (const char c : name) {
    quoted.append(c == '`' ? "``" : std::string(1, c));
  }
  return quoted + "`";
}

/// " COMMENT '...'" for a field whose metadata has a comment, as Spark's DDL writes it.
std::string comment_clause(const Field& field) {
  for (const auto& [key, value] : field.metadata()) {
    if (key == "comment") {
      std::string escaped;
      for (const char c : value) {
        if (c == '\\' || c == '\'') {
          escaped.push_back('\\');
        }
        escaped.push_back(c);
      }
      return " COMMENT '" + escaped + "'";
    }
  }
  return "";
}

std::string keyword_of(TypeId id) {
  for (const KeywordType& keyword : kKeywordTypes) {
    if (keyword.id == id) {
      return std::string(keyword.name);
    }
  }
  return "";
}

std::string type_string(const DataType& type, Style style) {
  const bool sql = style == Style::kSql;
  const auto keyword = [sql](std::string_view name) {
    return sql ? upper(name) : std::string(name);
  };
  switch (type.id()) {
    case TypeId::kNull:
    case TypeId::kBoolean:
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kDate32:
      return keyword(keyword_of(type.id()));
    case TypeId::kLargeString:
    case TypeId::kStringView:
      return keyword("string");
    case TypeId::kLargeBinary:
    case TypeId::kBinaryView:
      return keyword("binary");
    case TypeId::kDate64:
      return keyword("date");
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const auto& decimal = type_cast<DecimalType>(type);
      return keyword("decimal") + "(" + std::to_string(decimal.precision()) + "," +
             std::to_string(decimal.scale()) + ")";
    }
    case TypeId::kTimestamp:
      return keyword(type_cast<TimestampType>(type).timezone().empty() ? "timestamp_ntz"
                                                                       : "timestamp");
    case TypeId::kIntervalMonths:
      return keyword("interval year to month");
    case TypeId::kIntervalMonthDayNano:
      return keyword("interval");
    case TypeId::kDuration:
      if (type_cast<TemporalUnitType>(type).unit() == TimeUnit::kMicro) {
        return keyword("interval day to second");
      }
      return type.to_string();
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kFixedSizeList:
      return keyword("array") + "<" + type_string(*type.field(0)->type(), style) + ">";
    case TypeId::kMap: {
      const auto& map = type_cast<MapType>(type);
      return keyword("map") + "<" + type_string(*map.key_type(), style) + (sql ? ", " : ",") +
             type_string(*map.item_type(), style) + ">";
    }
    case TypeId::kStruct: {
      std::string out = keyword("struct") + "<";
      for (int i = 0; i < type.num_fields(); ++i) {
        const Field& child = *type.field(i);
        out.append(i > 0 ? (sql ? ", " : ",") : "")
            .append(quote_if_needed(child.name()))
            .append(sql ? ": " : ":")
            .append(type_string(*child.type(), style))
            .append(sql ? comment_clause(child) : "");
      }
      return out + ">";
    }
    case TypeId::kDictionary:
      return type_string(*type_cast<DictionaryType>(type).value_type(), style);
    case TypeId::kExtension:
      return type_string(*type_cast<ExtensionType>(type).storage_type(), style);
    default:
      return type.to_string();
  }
}

}  // namespace

TypePtr parse_spark_type(std::string_view text, std::string_view session_time_zone) {
  return SparkTypeParser(text, session_time_zone).whole_type();
}

FieldVector parse_spark_schema(std::string_view text, std::string_view session_time_zone) {
  return SparkTypeParser(text, session_time_zone).whole_schema();
}

std::string spark_type_name(const DataType& type) { return type_string(type, Style::kSql); }

std::string spark_simple_string(const DataType& type) { return type_string(type, Style::kSimple); }

std::string spark_schema_ddl(const FieldVector& fields) {
  std::string out;
  for (const FieldPtr& column : fields) {
    out.append(out.empty() ? "" : ",")
        .append(quote_if_needed(column->name()))
        .append(" ")
        .append(spark_type_name(*column->type()))
        .append(column->nullable() ? "" : " NOT NULL")
        .append(comment_clause(*column));
  }
  return out;
}

}  // namespace bowstring
