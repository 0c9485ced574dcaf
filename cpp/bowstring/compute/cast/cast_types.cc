#include "bowstring/compute/cast/cast_types.h"

#include <cctype>
#include <cstdint>
#include <string>

#include "bowstring/compute/core/errors.h"

namespace bowstring::compute {
namespace {

constexpr int32_t kMaxDecimalPrecision = 38;

/// A recursive-descent reader of one type name.
class TypeNameParser {
 public:
  explicit TypeNameParser(std::string_view text) : text_(text) {}

  TypePtr parse() {
    TypePtr type = read_type();
    skip_spaces();
    if (position_ != text_.size()) {
      fail("unexpected '" + std::string(text_.substr(position_)) + "'");
    }
    return type;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw AnalysisError("PARSE_SYNTAX_ERROR", "Syntax error in the data type '" +
                                                  std::string(text_) + "': " + what + ".");
  }

  void skip_spaces() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) {
      ++position_;
    }
  }

  bool accept(char symbol) {
    skip_spaces();
    if (position_ < text_.size() && text_[position_] == symbol) {
      ++position_;
      return true;
    }
    return false;
  }

  void expect(char symbol) {
    if (!accept(symbol)) {
      fail(std::string("expected '") + symbol + "'");
    }
  }

  /// A word of letters, digits and underscores, lower-cased; "" when none follows.
  std::string read_word() {
    skip_spaces();
    std::string word;
    while (position_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[position_]);
      if (!std::isalnum(c) && c != '_') {
        break;
      }
      word.push_back(static_cast<char>(std::tolower(c)));
      ++position_;
    }
    return word;
  }

  /// A field name of a struct: a word, or a name quoted in backticks.
  std::string read_field_name() {
    skip_spaces();
    if (position_ < text_.size() && text_[position_] == '`') {
      std::string name;
      ++position_;
      while (true) {
        if (position_ >= text_.size()) {
          fail("unterminated quoted name");
        }
        if (text_[position_] == '`') {
          if (position_ + 1 < text_.size() && text_[position_ + 1] == '`') {
            name.push_back('`');
            position_ += 2;
            continue;
          }
          ++position_;
          return name;
        }
        name.push_back(text_[position_++]);
      }
    }
    const size_t start = position_;
    while (
        position_ < text_.size() &&
        (std::isalnum(static_cast<unsigned char>(text_[position_])) || text_[position_] == '_')) {
      ++position_;
    }
    if (start == position_) {
      fail("expected a field name");
    }
    return std::string(text_.substr(start, position_ - start));
  }

  int32_t read_number() {
    skip_spaces();
    int64_t value = 0;
    const size_t start = position_;
    while (position_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[position_]))) {
      value = value * 10 + (text_[position_] - '0');
      if (value > 1000000) {
        fail("number too large");
      }
      ++position_;
    }
    if (start == position_) {
      fail("expected a number");
    }
    return static_cast<int32_t>(value);
  }

  TypePtr read_decimal() {
    int32_t precision = 10;
    int32_t scale = 0;
    if (accept('(')) {
      precision = read_number();
      if (accept(',')) {
        scale = read_number();
      }
      expect(')');
    }
    if (precision < 1 || precision > kMaxDecimalPrecision) {
      throw AnalysisError(
          "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
          "Decimal precision " + std::to_string(precision) + " exceeds max precision 38.");
    }
    if (scale > precision) {
      fail("decimal scale " + std::to_string(scale) + " is larger than its precision " +
           std::to_string(precision));
    }
    return decimal128(precision, scale);
  }

  TypePtr read_type() {
    const std::string name = read_word();
    if (name.empty()) {
      fail("expected a type name");
    }
    if (name == "boolean") return boolean();
    if (name == "tinyint" || name == "byte") return int8();
    if (name == "smallint" || name == "short") return int16();
    if (name == "int" || name == "integer") return int32();
    if (name == "bigint" || name == "long") return int64();
    if (name == "float" || name == "real") return float32();
    if (name == "double") return float64();
    if (name == "string") return utf8();
    if (name == "binary") return binary();
    if (name == "date") return date32();
    if (name == "timestamp" || name == "timestamp_ltz") return timestamp(TimeUnit::kMicro, "UTC");
    if (name == "timestamp_ntz") return timestamp(TimeUnit::kMicro);
    if (name == "void") return null();
    if (name == "decimal" || name == "dec" || name == "numeric") return read_decimal();
    if (name == "char" || name == "varchar") {
      expect('(');
      read_number();
      expect(')');
      return utf8();
    }
    if (name == "array") {
      expect('<');
      TypePtr element = read_type();
      expect('>');
      return list(std::move(element));
    }
    if (name == "map") {
      expect('<');
      TypePtr key = read_type();
      expect(',');
      TypePtr value = read_type();
      expect('>');
      return map(std::move(key), std::move(value));
    }
    if (name == "struct") {
      expect('<');
      FieldVector fields;
      if (!accept('>')) {
        do {
          std::string field_name = read_field_name();
          accept(':');
          fields.push_back(field(std::move(field_name), read_type()));
        } while (accept(','));
        expect('>');
      }
      return struct_(std::move(fields));
    }
    throw AnalysisError("UNSUPPORTED_DATATYPE",
                        "Unsupported data type \"" + std::string(text_) + "\".");
  }

  std::string_view text_;
  size_t position_ = 0;
};

}  // namespace

TypePtr parse_spark_type(std::string_view text) { return TypeNameParser(text).parse(); }

}  // namespace bowstring::compute
