#include "bowstring/compute/core/signature.h"

#include <cctype>
#include <utility>

#include "bowstring/compute/core/errors.h"
#include "bowstring/types/spark_type_names.h"

namespace bowstring::compute {

namespace {

constexpr std::pair<std::string_view, TypeClass> kClassNames[] = {
    {"any", TypeClass::kAny},
    {"numeric", TypeClass::kNumeric},
    {"integral", TypeClass::kIntegral},
    {"decimal", TypeClass::kDecimal},
    {"orderable", TypeClass::kOrderable},
    {"comparable", TypeClass::kComparable},
    {"type", TypeClass::kType},
};

std::optional<TypeClass> class_named(std::string_view name) {
  for (const auto& [class_name, type_class] : kClassNames) {
    if (class_name == name) return type_class;
  }
  return std::nullopt;
}

std::string_view class_name(TypeClass type_class) {
  for (const auto& [name, named] : kClassNames) {
    if (named == type_class) return name;
  }
  return "any";
}

bool is_variable_name(std::string_view word) {
  return word.size() == 1 && std::isupper(static_cast<unsigned char>(word[0]));
}

/// A reader of one signature's text that reports where it stops making sense.
class SignatureReader {
 public:
  explicit SignatureReader(std::string_view text) : text_(text) {}

  Signature::Parts read() {
    Signature::Parts parts;
    expect("(");
    parts.elements = read_elements(/*in_group=*/false);
    expect(")");
    expect(" -> ");
    parts.result = read_pattern(parts.elements);
    if (accept(" for every ")) {
      const std::string class_word = read_word();
      const std::optional<TypeClass> type_class = class_named(class_word);
      if (!type_class) fail("'" + class_word + "' is not a type class");
      expect(" ");
      const std::string variable = read_word();
      if (!is_variable_name(variable)) fail("'" + variable + "' is not a type variable");
      parts.constraints.emplace_back(variable, *type_class);
    }
    if (position_ != text_.size()) fail("unexpected text");
    return parts;
  }

 private:
  std::vector<SignatureElement> read_elements(bool in_group) {
    std::vector<SignatureElement> elements;
    while (position_ < text_.size()) {
      const char next = text_[position_];
      if (next == ')' || next == ']') break;
      if (next == '[') {
        ++position_;
        if (!elements.empty() || in_group) expect(", ");
        SignatureElement group;
        group.group = read_elements(/*in_group=*/true);
        if (group.group.empty()) fail("an empty optional group");
        expect("]");
        group.repeated = accept("...");
        elements.push_back(std::move(group));
        continue;
      }
      // A group's first parameter follows the ", " read after its "[".
      if (!elements.empty()) expect(", ");
      elements.push_back(read_parameter(elements));
    }
    return elements;
  }

  SignatureElement read_parameter(const std::vector<SignatureElement>& earlier) {
    SignatureElement parameter;
    const size_t colon = text_.find(": ", position_);
    const size_t word_end = text_.find_first_of(",)[]|", position_);
    if (colon != std::string_view::npos && colon < word_end) {
      parameter.name = std::string(text_.substr(position_, colon - position_));
      for (const char c : parameter.name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
          fail("'" + parameter.name + "' is not a parameter name");
        }
      }
      position_ = colon + 2;
    }
    parameter.type = read_pattern(earlier);
    parameter.repeated = accept("...");
    return parameter;
  }

  TypePattern read_pattern(const std::vector<SignatureElement>& parameters) {
    TypePattern pattern;
    if (accept("(")) {
      pattern.kind = TypePattern::Kind::kOneOf;
      do {
        pattern.members.push_back(read_pattern(parameters));
      } while (accept(" | "));
      expect(")");
      if (pattern.members.size() < 2) fail("a choice of one type");
      return pattern;
    }
    const size_t start = position_;
    const std::string word = read_word();
    if (word.empty()) fail("a type is missing");
    if (is_variable_name(word)) {
      pattern.kind = TypePattern::Kind::kVariable;
      pattern.name = word;
      return pattern;
    }
    if (word == "decimal" && accept("(")) {
      pattern.kind = TypePattern::Kind::kDecimal;
      pattern.precision = read_term();
      expect(", ");
      pattern.scale = read_term();
      expect(")");
      return pattern;
    }
    if (word == "array" && accept("<")) {
      pattern.kind = TypePattern::Kind::kArray;
      pattern.members.push_back(read_pattern(parameters));
      expect(">");
      if (pattern.members[0].kind == TypePattern::Kind::kConcrete) {
        return concrete(start);
      }
      return pattern;
    }
    if (word == "map" && accept("<")) {
      pattern.kind = TypePattern::Kind::kMap;
      pattern.members.push_back(read_pattern(parameters));
      // A concrete map is spelled as Spark's simple string spells it: map<string,int>.
      if (!accept(", ")) expect(",");
      pattern.members.push_back(read_pattern(parameters));
      expect(">");
      if (pattern.members[0].kind == TypePattern::Kind::kConcrete &&
          pattern.members[1].kind == TypePattern::Kind::kConcrete) {
        return concrete(start);
      }
      return pattern;
    }
    if (const std::optional<TypeClass> type_class = class_named(word)) {
      pattern.kind = TypePattern::Kind::kClass;
      pattern.type_class = *type_class;
      return pattern;
    }
    for (const SignatureElement& parameter : parameters) {
      if (parameter.name == word && parameter.type.kind == TypePattern::Kind::kClass &&
          parameter.type.type_class == TypeClass::kType) {
        pattern.kind = TypePattern::Kind::kTypeOf;
        pattern.name = word;
        return pattern;
      }
    }
    if (accept("<")) {
      // A concrete nested type (struct<a: int>): its text up to the matching '>'.
      for (int depth = 1; depth > 0; ++position_) {
        if (position_ >= text_.size()) fail("'<' is not closed");
        depth += text_[position_] == '<' ? 1 : text_[position_] == '>' ? -1 : 0;
      }
    }
    return concrete(start);
  }

  /// The Spark type spelled from `start` to the current position.
  TypePattern concrete(size_t start) {
    const std::string_view name = text_.substr(start, position_ - start);
    TypePattern pattern;
    pattern.kind = TypePattern::Kind::kConcrete;
    try {
      pattern.type = parse_spark_type(name, "UTC");
    } catch (const std::exception& error) {
      fail("'" + std::string(name) + "' is not a type: " + error.what());
    }
    return pattern;
  }

  /// `p`, `s + 4`, `p - s + 1`, `0`.
  DecimalTerm read_term() {
    DecimalTerm term;
    int sign = 1;
    bool any = false;
    while (true) {
      const std::string word = read_word();
      if (word == "p") {
        term.p += sign;
      } else if (word == "s") {
        term.s += sign;
      } else if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0]))) {
        for (const char c : word) {
          if (!std::isdigit(static_cast<unsigned char>(c))) fail("'" + word + "' is not a number");
        }
        term.constant += sign * std::stoi(word);
      } else {
        fail("a decimal precision or scale is p, s, a number or a sum of them");
      }
      any = true;
      if (accept(" + ")) {
        sign = 1;
      } else if (accept(" - ")) {
        sign = -1;
      } else {
        break;
      }
    }
    if (!any) fail("a decimal precision or scale is missing");
    return term;
  }

  std::string read_word() {
    const size_t start = position_;
    while (
        position_ < text_.size() &&
        (std::isalnum(static_cast<unsigned char>(text_[position_])) || text_[position_] == '_')) {
      ++position_;
    }
    return std::string(text_.substr(start, position_ - start));
  }

  bool accept(std::string_view token) {
    if (text_.substr(position_).starts_with(token)) {
      position_ += token.size();
      return true;
    }
    return false;
  }

  void expect(std::string_view token) {
    if (!accept(token)) fail("expected '" + std::string(token) + "'");
  }

  [[noreturn]] void fail(const std::string& problem) const {
    throw InvalidArgument("malformed signature \"" + std::string(text_) + "\" at position " +
                          std::to_string(position_) + ": " + problem);
  }

  std::string_view text_;
  size_t position_ = 0;
};

std::string term_text(const DecimalTerm& term) {
  std::string text;
  const auto add = [&text](int coefficient, const std::string& what) {
    if (coefficient == 0) return;
    for (int i = 0; i < (coefficient < 0 ? -coefficient : coefficient); ++i) {
      text += text.empty() ? (coefficient < 0 ? "-" : "") : (coefficient < 0 ? " - " : " + ");
      text += what;
    }
  };
  add(term.p, "p");
  add(term.s, "s");
  if (term.constant != 0 || text.empty()) {
    const int magnitude = term.constant < 0 ? -term.constant : term.constant;
    text += text.empty() ? (term.constant < 0 ? "-" : "") : (term.constant < 0 ? " - " : " + ");
    text += std::to_string(magnitude);
  }
  return text;
}

std::string pattern_text(const TypePattern& pattern) {
  switch (pattern.kind) {
    case TypePattern::Kind::kConcrete:
      return spark_simple_string(*pattern.type);
    case TypePattern::Kind::kClass:
      return std::string(class_name(pattern.type_class));
    case TypePattern::Kind::kVariable:
    case TypePattern::Kind::kTypeOf:
      return pattern.name;
    case TypePattern::Kind::kDecimal:
      return "decimal(" + term_text(pattern.precision) + ", " + term_text(pattern.scale) + ")";
    case TypePattern::Kind::kArray:
      return "array<" + pattern_text(pattern.members[0]) + ">";
    case TypePattern::Kind::kMap:
      return "map<" + pattern_text(pattern.members[0]) + ", " + pattern_text(pattern.members[1]) +
             ">";
    case TypePattern::Kind::kOneOf: {
      std::string text = "(";
      for (size_t i = 0; i < pattern.members.size(); ++i) {
        text += (i > 0 ? " | " : "") + pattern_text(pattern.members[i]);
      }
      return text + ")";
    }
  }
  return "";
}

void append_elements(const std::vector<SignatureElement>& elements, bool first, std::string& text) {
  for (const SignatureElement& element : elements) {
    if (element.is_group()) {
      text += first ? "[" : "[, ";
      append_elements(element.group, /*first=*/true, text);
      text += element.repeated ? "]..." : "]";
    } else {
      text += first ? "" : ", ";
      text += element.name.empty() ? "" : element.name + ": ";
      text += pattern_text(element.type);
      text += element.repeated ? "..." : "";
    }
    first = false;
  }
}

}  // namespace

Signature::Signature(Parts parts)
    : elements_(std::move(parts.elements)),
      result_(std::move(parts.result)),
      constraints_(std::move(parts.constraints)) {}

Signature Signature::parse(std::string_view text) {
  Signature signature(SignatureReader(text).read());
  if (signature.to_string() != text) {
    throw InvalidArgument("malformed signature \"" + std::string(text) +
                          "\": it is not in the canonical spelling \"" + signature.to_string() +
                          "\"");
  }
  return signature;
}

std::optional<TypeClass> Signature::class_of(std::string_view variable) const {
  for (const auto& [name, type_class] : constraints_) {
    if (name == variable) return type_class;
  }
  return std::nullopt;
}

std::string Signature::to_string() const {
  std::string text = "(";
  append_elements(elements_, /*first=*/true, text);
  text += ") -> " + pattern_text(result_);
  for (const auto& [variable, type_class] : constraints_) {
    text += " for every " + std::string(class_name(type_class)) + " " + variable;
  }
  return text;
}

std::vector<Signature> parse_signatures(const std::vector<std::string>& texts) {
  std::vector<Signature> signatures;
  signatures.reserve(texts.size());
  for (const std::string& text : texts) {
    signatures.push_back(Signature::parse(text));
  }
  return signatures;
}

bool in_type_class(const DataType& type, TypeClass type_class) {
  const TypeId id = type.id();
  const bool integral =
      id == TypeId::kInt8 || id == TypeId::kInt16 || id == TypeId::kInt32 || id == TypeId::kInt64;
  const bool numeric =
      integral || id == TypeId::kFloat32 || id == TypeId::kFloat64 || id == TypeId::kDecimal128;
  switch (type_class) {
    case TypeClass::kAny:
    case TypeClass::kType:
      return true;
    case TypeClass::kNumeric:
      return numeric;
    case TypeClass::kIntegral:
      return integral;
    case TypeClass::kDecimal:
      return id == TypeId::kDecimal128;
    case TypeClass::kOrderable:
    case TypeClass::kComparable:
      return numeric || id == TypeId::kString || id == TypeId::kBinary || id == TypeId::kBoolean ||
             id == TypeId::kDate32 || id == TypeId::kTimestamp;
  }
  return false;
}

}  // namespace bowstring::compute
