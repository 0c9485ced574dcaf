#include "bowstring/compute/regex.h"

#include <re2/re2.h>

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/compute/errors.h"
#include "bowstring/compute/function.h"
#include "bowstring/compute/string_function.h"
#include "bowstring/compute/string_util.h"

namespace bowstring::compute {

namespace {

[[noreturn]] void throw_bad_pattern(std::string_view pattern, std::string_view function,
                                    std::string_view reason) {
  throw IllegalArgumentError("INVALID_PARAMETER_VALUE.PATTERN",
                             "The value of parameter(s) `regexp` in `" + std::string(function) +
                                 "` is invalid: " + strings::quote(pattern) + ": " +
                                 std::string(reason) + ".");
}

/// RE2's name for a Java POSIX class name (`\p{Alpha}`), or nullptr.
const char* posix_class(std::string_view name) {
  static const std::pair<const char*, const char*> kClasses[] = {
      {"Lower", "lower"}, {"Upper", "upper"},         {"ASCII", "ascii"},
      {"Alpha", "alpha"}, {"Digit", "digit"},         {"Alnum", "alnum"},
      {"Punct", "punct"}, {"Graph", "graph"},         {"Print", "print"},
      {"Blank", "blank"}, {"Cntrl", "cntrl"},         {"XDigit", "xdigit"},
      {"Space", "space"}, {"javaLowerCase", "lower"}, {"javaUpperCase", "upper"}};
  for (const auto& [java, re2] : kClasses) {
    if (name == java) {
      return re2;
    }
  }
  return nullptr;
}

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

}  // namespace

std::string java_regex_to_re2(std::string_view pattern, std::string_view function) {
  std::string out;
  out.reserve(pattern.size() + 8);
  bool in_class = false;
  // Whether the last token was a quantifier: a '+' after one makes it possessive.
  bool after_quantifier = false;
  // Whether a '{' opened a counted repetition that its '}' closes.
  bool in_repetition = false;
  size_t i = 0;
  const size_t n = pattern.size();
  while (i < n) {
    const char c = pattern[i];
    bool quantifier = false;
    if (c == '\\' && i + 1 < n) {
      const char next = pattern[i + 1];
      if (next >= '1' && next <= '9' && !in_class) {
        throw_bad_pattern(pattern, function, "backreferences are not supported");
      }
      if (next == 'k' && i + 2 < n && pattern[i + 2] == '<') {
        throw_bad_pattern(pattern, function, "backreferences are not supported");
      }
      if (next == 'Q') {
        const size_t close = pattern.find("\\E", i + 2);
        const size_t end = close == std::string_view::npos ? n : close + 2;
        out.append(pattern.substr(i, end - i));
        i = end;
        after_quantifier = false;
        continue;
      }
      if (next == 'u' && i + 5 < n && is_hex(pattern[i + 2]) && is_hex(pattern[i + 3]) &&
          is_hex(pattern[i + 4]) && is_hex(pattern[i + 5])) {
        out += "\\x{";
        out.append(pattern.substr(i + 2, 4));
        out += "}";
        i += 6;
        after_quantifier = false;
        continue;
      }
      // Java's \h and \v are classes of horizontal and vertical white space (RE2's \v is the
      // vertical tab alone); \R is any line break.
      if (next == 'h' || next == 'v') {
        const char* members =
            next == 'h'
                ? " \\t\\x{A0}\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}"
                : "\\n\\x{0B}\\f\\r\\x{85}\\x{2028}\\x{2029}";
        out += in_class ? std::string(members) : "[" + std::string(members) + "]";
        i += 2;
        after_quantifier = false;
        continue;
      }
      if (next == 'R' && !in_class) {
        out += "(?:\\r\\n|[\\n\\x{0B}\\f\\r\\x{85}\\x{2028}\\x{2029}])";
        i += 2;
        after_quantifier = false;
        continue;
      }
      if ((next == 'p' || next == 'P') && i + 2 < n && pattern[i + 2] == '{') {
        const size_t close = pattern.find('}', i + 3);
        if (close != std::string_view::npos) {
          std::string_view name = pattern.substr(i + 3, close - i - 3);
          const bool negated = next == 'P';
          if (const char* posix = posix_class(name)) {
            const std::string item = std::string("[:") + (negated ? "^" : "") + posix + ":]";
            out += in_class ? item : "[" + item + "]";
          } else {
            // Java's IsLatin, IsL... are RE2's Latin, L.
            if (name.starts_with("Is")) {
              name.remove_prefix(2);
            }
            out += negated ? "\\P{" : "\\p{";
            out.append(name);
            out += "}";
          }
          i = close + 1;
          after_quantifier = false;
          continue;
        }
      }
      out.append(pattern.substr(i, 2));
      i += 2;
      after_quantifier = false;
      continue;
    }
    if (in_class) {
      if (c == '[') {
        throw_bad_pattern(pattern, function, "nested character classes are not supported");
      }
      if (c == '&' && i + 1 < n && pattern[i + 1] == '&') {
        throw_bad_pattern(pattern, function, "character class intersections are not supported");
      }
      if (c == ']') {
        in_class = false;
      }
      out += c;
      ++i;
      continue;
    }
    switch (c) {
      case '[':
        in_class = true;
        out += c;
        ++i;
        // A leading ']' (after an optional '^') is a literal in both syntaxes.
        if (i < n && pattern[i] == '^') {
          out += '^';
          ++i;
        }
        if (i < n && pattern[i] == ']') {
          out += ']';
          ++i;
        }
        after_quantifier = false;
        continue;
      case '(':
        if (i + 2 < n && pattern[i + 1] == '?') {
          const char kind = pattern[i + 2];
          if (kind == '=' || kind == '!') {
            throw_bad_pattern(pattern, function, "lookahead is not supported");
          }
          if (kind == '>') {
            throw_bad_pattern(pattern, function, "atomic groups are not supported");
          }
          if (kind == '<' && i + 3 < n && (pattern[i + 3] == '=' || pattern[i + 3] == '!')) {
            throw_bad_pattern(pattern, function, "lookbehind is not supported");
          }
          if (kind == '<') {
            out += "(?P<";
            i += 3;
            after_quantifier = false;
            continue;
          }
        }
        break;
      case '+':
        if (after_quantifier) {
          throw_bad_pattern(pattern, function, "possessive quantifiers are not supported");
        }
        quantifier = true;
        break;
      case '*':
        quantifier = true;
        break;
      case '{':
        in_repetition = true;
        break;
      case '}':
        // Closes a counted repetition, or is a literal brace.
        quantifier = in_repetition;
        in_repetition = false;
        break;
      case '?':
        // '?' after a quantifier makes it lazy, which RE2 knows; otherwise it quantifies.
        quantifier = !after_quantifier;
        break;
      default:
        break;
    }
    out += c;
    ++i;
    after_quantifier = quantifier;
  }
  return out;
}

namespace {

using strings::IntArg;
using strings::StringArg;
using strings::StringOutput;

/// A compiled Java regular expression.
std::unique_ptr<RE2> compile(std::string_view pattern, std::string_view function) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(RE2::Options::EncodingUTF8);
  auto regex = std::make_unique<RE2>(java_regex_to_re2(pattern, function), options);
  if (!regex->ok()) {
    throw_bad_pattern(pattern, function, regex->error());
  }
  return regex;
}

/// The compiled pattern of each row: compiled once when the pattern is a scalar, else per
/// distinct pattern through a small cache.
class PatternSource {
 public:
  PatternSource(const Datum& pattern, std::string function)
      : pattern_(pattern), function_(std::move(function)) {
    if (pattern.is_scalar() && !pattern.scalar_is_null()) {
      constant_ = compile(pattern_.value(0), function_);
    }
  }
  const RE2& get(int64_t i) {
    if (constant_ != nullptr) {
      return *constant_;
    }
    const std::string_view text = pattern_.value(i);
    auto found = cache_.find(std::string(text));
    if (found != cache_.end()) {
      return *found->second;
    }
    if (cache_.size() >= kCacheSize) {
      cache_.clear();
    }
    return *cache_.emplace(std::string(text), compile(text, function_)).first->second;
  }

 private:
  static constexpr size_t kCacheSize = 64;
  StringArg pattern_;
  std::string function_;
  std::unique_ptr<RE2> constant_;
  std::unordered_map<std::string, std::unique_ptr<RE2>> cache_;
};

re2::StringPiece piece(std::string_view text) { return {text.data(), text.size()}; }

/// Where the next search of `value` starts after a match of [begin, end): at its end, or after
/// an empty match one character further, as in Java; past the end of `value` when an empty
/// match ends it (the search loops stop there).
size_t search_after_match(std::string_view value, size_t begin, size_t end) {
  if (end != begin) {
    return end;
  }
  if (end >= value.size()) {
    return value.size() + 1;
  }
  return end + static_cast<size_t>(strings::sequence_length(static_cast<uint8_t>(value[end])));
}

Datum rlike(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  PatternSource patterns(arguments[1], "rlike");
  return strings::map_to_boolean(arguments, context, [&](int64_t i) {
    return RE2::PartialMatch(piece(text.value(i)), patterns.get(i));
  });
}

Datum regexp_extract(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  PatternSource patterns(arguments[1], "regexp_extract");
  const bool has_index = arguments.size() > 2;
  std::optional<IntArg> index;
  if (has_index) {
    index.emplace(arguments[2]);
  }
  std::vector<re2::StringPiece> groups;
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const RE2& regex = patterns.get(i);
    const int64_t group = has_index ? index->value(i) : 1;
    const int count = regex.NumberOfCapturingGroups();
    if (group < 0 || group > count) {
      throw IllegalArgumentError(
          "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX",
          "The value of parameter(s) `idx` in `regexp_extract` is invalid: Expects group index "
          "between 0 and " +
              std::to_string(count) + ", but got " + std::to_string(group) + ".");
    }
    groups.assign(static_cast<size_t>(group) + 1, re2::StringPiece());
    const std::string_view value = text.value(i);
    if (regex.Match(piece(value), 0, value.size(), RE2::UNANCHORED, groups.data(),
                    static_cast<int>(group) + 1)) {
      const re2::StringPiece& found = groups[static_cast<size_t>(group)];
      if (found.data() != nullptr) {
        out.append({found.data(), found.size()});
      }
    }
    return true;
  });
}

/// A part of a Java replacement string: literal text, or the number of a group to insert.
struct ReplacementPart {
  std::string literal;
  int group = -1;
};

/// Parses Java's replacement syntax: `$n` and `${name}` insert groups, `\x` is x.
std::vector<ReplacementPart> parse_replacement(std::string_view replacement, const RE2& regex) {
  std::vector<ReplacementPart> parts;
  std::string literal;
  const int count = regex.NumberOfCapturingGroups();
  auto fail = [&](const std::string& reason) {
    throw IllegalArgumentError("INVALID_PARAMETER_VALUE",
                               "The value of parameter(s) `rep` in `regexp_replace` is invalid: " +
                                   strings::quote(replacement) + ": " + reason + ".");
  };
  for (size_t i = 0; i < replacement.size(); ++i) {
    const char c = replacement[i];
    if (c == '\\') {
      if (i + 1 >= replacement.size()) {
        fail("character to be escaped is missing");
      }
      literal += replacement[++i];
    } else if (c == '$') {
      if (i + 1 >= replacement.size()) {
        fail("illegal group reference: group index is missing");
      }
      int group = -1;
      if (replacement[i + 1] == '{') {
        const size_t close = replacement.find('}', i + 2);
        if (close == std::string_view::npos) {
          fail("named capturing group is missing trailing '}'");
        }
        const std::string name(replacement.substr(i + 2, close - i - 2));
        const auto& names = regex.NamedCapturingGroups();
        const auto found = names.find(name);
        if (found == names.end()) {
          fail("no group with name {" + name + "}");
        }
        group = found->second;
        i = close;
      } else {
        const char digit = replacement[i + 1];
        if (digit < '0' || digit > '9') {
          fail("illegal group reference");
        }
        group = digit - '0';
        ++i;
        if (group > count) {
          fail("no group " + std::to_string(group));
        }
        // More digits extend the number while it stays a group of the pattern, as in Java.
        while (i + 1 < replacement.size() && replacement[i + 1] >= '0' &&
               replacement[i + 1] <= '9' && group * 10 + (replacement[i + 1] - '0') <= count) {
          group = group * 10 + (replacement[++i] - '0');
        }
      }
      if (!literal.empty()) {
        parts.push_back({std::move(literal), -1});
        literal.clear();
      }
      parts.push_back({{}, group});
    } else {
      literal += c;
    }
  }
  if (!literal.empty()) {
    parts.push_back({std::move(literal), -1});
  }
  return parts;
}

Datum regexp_replace(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  PatternSource patterns(arguments[1], "regexp_replace");
  StringArg replacement(arguments[2]);
  const bool has_position = arguments.size() > 3;
  std::optional<IntArg> position;
  if (has_position) {
    position.emplace(arguments[3]);
  }
  const bool constant = arguments[1].is_scalar() && arguments[2].is_scalar();
  std::vector<ReplacementPart> parts;
  bool parsed = false;
  std::vector<re2::StringPiece> groups;
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const RE2& regex = patterns.get(i);
    if (!constant || !parsed) {
      parts = parse_replacement(replacement.value(i), regex);
      parsed = true;
    }
    const int64_t from_char = has_position ? position->value(i) : 1;
    if (from_char < 1) {
      throw IllegalArgumentError("INVALID_PARAMETER_VALUE.REGEX_POSITION",
                                 "The value of parameter(s) `position` in `regexp_replace` is "
                                 "invalid: expects a positive position, but got " +
                                     std::to_string(from_char) + ".");
    }
    const std::string_view value = text.value(i);
    const size_t size = value.size();
    groups.resize(static_cast<size_t>(regex.NumberOfCapturingGroups()) + 1);
    size_t search = static_cast<size_t>(strings::char_offset(value, from_char - 1));
    if (from_char - 1 > 0 && search >= size) {
      out.append(value);
      return true;
    }
    size_t copied = 0;
    while (search <= size && regex.Match(piece(value), search, size, RE2::UNANCHORED, groups.data(),
                                         static_cast<int>(groups.size()))) {
      const auto begin = static_cast<size_t>(groups[0].data() - value.data());
      const size_t end = begin + groups[0].size();
      out.append(value.substr(copied, begin - copied));
      for (const ReplacementPart& part : parts) {
        if (part.group < 0) {
          out.append(part.literal);
        } else {
          const re2::StringPiece& group = groups[static_cast<size_t>(part.group)];
          out.append({group.data(), group.size()});
        }
      }
      copied = end;
      search = search_after_match(value, begin, end);
    }
    out.append(value.substr(copied));
    return true;
  });
}

/// Appends the pieces of Java's `Pattern.split(value, limit)` (Spark's split, where a limit of
/// zero or less means no limit and trailing empty strings are kept).
void split_row(std::string_view value, const RE2& regex, bool empty_pattern, int64_t limit,
               StringBuilder& out, int64_t* count) {
  const size_t size = value.size();
  if (empty_pattern && size > 0) {
    // Spark splits into characters, without a trailing empty string.
    const int64_t chars = strings::count_chars(reinterpret_cast<const uint8_t*>(value.data()),
                                               static_cast<int64_t>(size));
    const int64_t pieces = (limit <= 0 || limit > chars) ? chars : limit;
    size_t at = 0;
    for (int64_t k = 0; k + 1 < pieces; ++k) {
      const auto n = static_cast<size_t>(strings::sequence_length(static_cast<uint8_t>(value[at])));
      out.append(value.substr(at, n));
      at += n;
    }
    out.append(value.substr(at));
    *count += pieces;
    return;
  }
  re2::StringPiece match;
  size_t index = 0;
  size_t search = 0;
  int64_t pieces = 0;
  bool found_any = false;
  while (search <= size && regex.Match(piece(value), search, size, RE2::UNANCHORED, &match, 1)) {
    const auto begin = static_cast<size_t>(match.data() - value.data());
    const size_t end = begin + match.size();
    found_any = true;
    if (limit <= 0 || pieces < limit - 1) {
      // A zero-width match at the very beginning yields no leading empty string.
      if (!(begin == 0 && end == 0)) {
        out.append(value.substr(index, begin - index));
        ++pieces;
        index = end;
      }
    } else {
      break;
    }
    search = search_after_match(value, begin, end);
  }
  if (!found_any || index == 0) {
    if (pieces == 0) {
      out.append(value);
      *count += 1;
      return;
    }
  }
  out.append(value.substr(index));
  *count += pieces + 1;
}

Datum split(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  StringArg pattern_text(arguments[1]);
  PatternSource patterns(arguments[1], "split");
  const bool has_limit = arguments.size() > 2;
  std::optional<IntArg> limit;
  if (has_limit) {
    limit.emplace(arguments[2]);
  }
  const int64_t length = strings::result_length(arguments);
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity =
      and_validity(arguments, length, context.allocator, &null_count);
  TypedBufferBuilder<int32_t> offsets(context.allocator);
  offsets.reserve(length + 1);
  offsets.unsafe_append(0);
  StringBuilder values(context.allocator);
  int64_t count = 0;
  for (int64_t i = 0; i < length; ++i) {
    if (strings::row_valid(validity, i)) {
      split_row(text.value(i), patterns.get(i), pattern_text.value(i).empty(),
                has_limit ? limit->value(i) : -1, values, &count);
      if (count > std::numeric_limits<int32_t>::max()) {
        throw InvalidArgument("the result of split passes 2^31 - 1 strings in one array");
      }
    }
    offsets.unsafe_append(static_cast<int32_t>(count));
  }
  Array child = values.finish();
  Array array(std::make_shared<ArrayData>(
      list(utf8()), length,
      std::vector<std::shared_ptr<Buffer>>{std::move(validity), offsets.finish()}, null_count, 0,
      std::vector<ArrayDataPtr>{child.data()}));
  return strings::all_scalars(arguments) ? Datum::scalar(std::move(array))
                                         : Datum(std::move(array));
}

// --- like, ilike ------------------------------------------------------------------------------

/// A compiled LIKE pattern: literal runs, '_' (one character) and '%' (any characters).
class LikePattern {
 public:
  LikePattern(std::string_view pattern, char32_t escape) {
    std::string literal;
    auto flush = [&] {
      if (!literal.empty()) {
        tokens_.push_back({Token::kLiteral, std::move(literal)});
        literal.clear();
      }
    };
    const auto* p = reinterpret_cast<const uint8_t*>(pattern.data());
    const uint8_t* end = p + pattern.size();
    while (p < end) {
      const uint8_t* start = p;
      const char32_t cp = strings::decode(&p, end);
      if (cp == escape) {
        if (p >= end) {
          throw AnalysisError("INVALID_FORMAT.ESC_AT_THE_END",
                              "The format is invalid: " + strings::quote(pattern) +
                                  ". The escape character is not allowed to end with.");
        }
        const uint8_t* next_start = p;
        const char32_t next = strings::decode(&p, end);
        if (next != '_' && next != '%' && next != escape) {
          throw AnalysisError("INVALID_FORMAT.ESC_IN_THE_MIDDLE",
                              "The format is invalid: " + strings::quote(pattern) +
                                  ". The escape character is not allowed to precede " +
                                  strings::quote({reinterpret_cast<const char*>(next_start),
                                                  static_cast<size_t>(p - next_start)}) +
                                  ".");
        }
        literal.append(reinterpret_cast<const char*>(next_start),
                       static_cast<size_t>(p - next_start));
      } else if (cp == '%') {
        flush();
        if (tokens_.empty() || tokens_.back().kind != Token::kAnyRun) {
          tokens_.push_back({Token::kAnyRun, {}});
        }
      } else if (cp == '_') {
        flush();
        tokens_.push_back({Token::kOne, {}});
      } else {
        literal.append(reinterpret_cast<const char*>(start), static_cast<size_t>(p - start));
      }
    }
    flush();
    classify();
  }

  bool matches(std::string_view text) const {
    switch (shape_) {
      case Shape::kEquals:
        return text == literal_;
      case Shape::kPrefix:
        return text.starts_with(literal_);
      case Shape::kSuffix:
        return text.ends_with(literal_);
      case Shape::kContains:
        return text.find(literal_) != std::string_view::npos;
      case Shape::kGeneral:
        break;
    }
    return match_general(text);
  }

 private:
  struct Token {
    enum Kind : uint8_t { kLiteral, kOne, kAnyRun } kind;
    std::string literal;
  };
  enum class Shape : uint8_t { kEquals, kPrefix, kSuffix, kContains, kGeneral };

  void classify() {
    auto literal_at = [&](size_t k) {
      return k < tokens_.size() && tokens_[k].kind == Token::kLiteral;
    };
    auto any_at = [&](size_t k) { return k < tokens_.size() && tokens_[k].kind == Token::kAnyRun; };
    const size_t n = tokens_.size();
    if (n == 0) {
      shape_ = Shape::kEquals;
    } else if (n == 1 && literal_at(0)) {
      shape_ = Shape::kEquals;
      literal_ = tokens_[0].literal;
    } else if (n == 1 && any_at(0)) {
      shape_ = Shape::kContains;
    } else if (n == 2 && literal_at(0) && any_at(1)) {
      shape_ = Shape::kPrefix;
      literal_ = tokens_[0].literal;
    } else if (n == 2 && any_at(0) && literal_at(1)) {
      shape_ = Shape::kSuffix;
      literal_ = tokens_[1].literal;
    } else if (n == 3 && any_at(0) && literal_at(1) && any_at(2)) {
      shape_ = Shape::kContains;
      literal_ = tokens_[1].literal;
    } else {
      shape_ = Shape::kGeneral;
    }
  }

  /// Wildcard matching that goes back to the last '%' on a mismatch.
  bool match_general(std::string_view text) const {
    size_t t = 0;
    size_t k = 0;
    size_t star_token = SIZE_MAX;
    size_t star_text = 0;
    const size_t n = text.size();
    while (t < n) {
      if (k < tokens_.size() && tokens_[k].kind == Token::kLiteral &&
          text.substr(t).starts_with(tokens_[k].literal)) {
        t += tokens_[k].literal.size();
        ++k;
      } else if (k < tokens_.size() && tokens_[k].kind == Token::kOne) {
        t += static_cast<size_t>(strings::sequence_length(static_cast<uint8_t>(text[t])));
        ++k;
      } else if (k < tokens_.size() && tokens_[k].kind == Token::kAnyRun) {
        star_token = k++;
        star_text = t;
      } else if (star_token != SIZE_MAX) {
        k = star_token + 1;
        star_text +=
            static_cast<size_t>(strings::sequence_length(static_cast<uint8_t>(text[star_text])));
        t = star_text;
      } else {
        return false;
      }
    }
    while (k < tokens_.size() && tokens_[k].kind == Token::kAnyRun) {
      ++k;
    }
    return k == tokens_.size() && t == n;
  }

  std::vector<Token> tokens_;
  Shape shape_ = Shape::kGeneral;
  std::string literal_;
};

char32_t escape_character(const std::string_view escape) {
  const auto* p = reinterpret_cast<const uint8_t*>(escape.data());
  const uint8_t* end = p + escape.size();
  const char32_t cp = p < end ? strings::decode(&p, end) : 0;
  if (escape.empty() || p != end) {
    throw AnalysisError(
        "INVALID_ESCAPE_CHAR",
        "The escape character of LIKE must be a string literal of length one, got " +
            strings::quote(escape) + ".");
  }
  return cp;
}

template <bool kIgnoreCase>
Datum like(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  StringArg pattern(arguments[1]);
  char32_t escape = '\\';
  if (arguments.size() > 2) {
    if (!arguments[2].is_scalar()) {
      throw AnalysisError("INVALID_ESCAPE_CHAR",
                          "The escape character of LIKE must be a constant.");
    }
    escape = escape_character(StringArg(arguments[2]).value(0));
  }
  std::optional<LikePattern> compiled;
  std::string compiled_from;
  std::string lowered;
  auto prepare = [&](std::string_view value) -> std::string_view {
    if constexpr (kIgnoreCase) {
      lowered.clear();
      strings::append_lower(value, lowered);
      return lowered;
    }
    return value;
  };
  if (arguments[1].is_scalar() && !arguments[1].scalar_is_null()) {
    compiled.emplace(prepare(pattern.value(0)), escape);
  }
  const bool constant = compiled.has_value();
  return strings::map_to_boolean(arguments, context, [&](int64_t i) {
    if (!constant) {
      const std::string_view value = pattern.value(i);
      if (!compiled || value != compiled_from) {
        compiled.emplace(prepare(value), escape);
        compiled_from = value;
      }
    }
    return compiled->matches(prepare(text.value(i)));
  });
}

}  // namespace

void register_regex_functions(FunctionRegistry& registry) {
  using strings::add_function;
  using strings::Param;
  const Param kStr = Param::kString;
  const Param kInt = Param::kInt;
  add_function(registry, "like", {}, {2, 3},
               "Whether the string matches the SQL LIKE pattern (% any characters, _ one; "
               "escape '\\' by default).",
               {"(string, pattern: string[, escape: string]) -> boolean"}, {kStr}, boolean(),
               like<false>);
  add_function(registry, "ilike", {}, {2, 3},
               "Whether the string matches the SQL LIKE pattern, ignoring case.",
               {"(string, pattern: string[, escape: string]) -> boolean"}, {kStr}, boolean(),
               like<true>);
  add_function(registry, "rlike", {"regexp", "regexp_like"}, {2, 2},
               "Whether the Java regular expression matches somewhere in the string.",
               {"(string, regexp: string) -> boolean"}, {kStr}, boolean(), rlike);
  add_function(registry, "regexp_extract", {}, {2, 3},
               "The text of group idx (1 by default) of the first match of the regular "
               "expression, or an empty string.",
               {"(string, regexp: string[, idx: int]) -> string"}, {kStr, kStr, kInt}, utf8(),
               regexp_extract);
  add_function(registry, "regexp_replace", {}, {3, 4},
               "The string with every match of the regular expression from position pos "
               "replaced; $n in the replacement inserts group n.",
               {"(string, regexp: string, rep: string[, pos: int]) -> string"},
               {kStr, kStr, kStr, kInt}, utf8(), regexp_replace);
  add_function(registry, "split", {}, {2, 3},
               "The parts of the string around matches of the regular expression, at most limit "
               "of them when limit is positive.",
               {"(string, regexp: string[, limit: int]) -> array<string>"}, {kStr, kStr, kInt},
               list(utf8()), split);
}

}  // namespace bowstring::compute
