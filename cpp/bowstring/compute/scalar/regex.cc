#include "bowstring/compute/scalar/regex.h"

#include <re2/re2.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/scalar/string_function.h"
#include "bowstring/compute/scalar/string_util.h"

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

namespace {

/// Java's line terminators (\r\n, \n, \r, U+0085, U+2028, U+2029), or \n alone in UNIX_LINES
/// mode, as an RE2 alternation.
const char* line_terminator(bool unix_lines) {
  return unix_lines ? "\\n" : "\\r\\n|[\\n\\r\\x{85}\\x{2028}\\x{2029}]";
}

/// The inline flags of a Java pattern that the translation follows itself.
struct Flags {
  bool dotall = false;
  bool multiline = false;
  bool unix_lines = false;
};

/// Applies the flags of `(?idmsux-idmsux` (the text between "(?" and ')' or ':') to `flags`, and
/// returns them in RE2's spelling (without d and u, which RE2 does not know).
std::string apply_flags(std::string_view spec, Flags& flags) {
  std::string kept;
  bool on = true;
  for (const char c : spec) {
    if (c == '-') {
      on = false;
    } else if (c == 's') {
      flags.dotall = on;
    } else if (c == 'm') {
      flags.multiline = on;
    } else if (c == 'd') {
      flags.unix_lines = on;
      continue;
    } else if (c == 'u') {
      continue;
    }
    kept += c;
  }
  return kept == "-" ? std::string() : kept;
}

}  // namespace

JavaPattern translate_java_regex(std::string_view pattern, std::string_view function) {
  JavaPattern result;
  std::string& out = result.re2;
  out.reserve(pattern.size() + 8);
  int groups = 0;
  auto add_anchor = [&](AnchorKind kind, bool unix_lines) {
    result.anchors.push_back({++groups, kind});
    switch (kind) {
      case AnchorKind::kEnd:
        out += std::string("(?:(") + line_terminator(unix_lines) + ")?\\z)";
        break;
      case AnchorKind::kLineEnd:
        out += std::string("(?:(") + line_terminator(unix_lines) + ")|\\z)";
        break;
      case AnchorKind::kLineStart:
        // The group is empty at the start, else the terminator.
        out += std::string("(\\A|") + line_terminator(unix_lines) + ")";
        break;
    }
  };
  // Flags of each open group, innermost last.
  std::vector<Flags> flags(1);
  bool in_class = false;
  // Whether the last token was a quantifier: a '+' after one makes it possessive.
  bool after_quantifier = false;
  // Whether a '{' opened a counted repetition that its '}' closes.
  bool in_repetition = false;
  // Whether nothing of the current alternative has been written yet.
  bool branch_start = true;
  size_t i = 0;
  const size_t n = pattern.size();
  while (i < n) {
    const char c = pattern[i];
    bool quantifier = false;
    const bool at_branch_start = branch_start;
    branch_start = false;
    if (c == '\\' && i + 1 < n) {
      const char next = pattern[i + 1];
      if (next >= '1' && next <= '9' && !in_class) {
        throw_bad_pattern(pattern, function, "backreferences are not supported");
      }
      if (next == 'k' && i + 2 < n && pattern[i + 2] == '<') {
        throw_bad_pattern(pattern, function, "backreferences are not supported");
      }
      if (next == 'Z' && !in_class) {
        // The end, or before a final line terminator.
        add_anchor(AnchorKind::kEnd, flags.back().unix_lines);
        i += 2;
        after_quantifier = false;
        continue;
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
    const Flags& current = flags.back();
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
      case '.':
        // Java's '.' stops at every line terminator, not at \n alone.
        out += current.dotall       ? "(?s:.)"
               : current.unix_lines ? "[^\\n]"
                                    : "[^\\n\\r\\x{85}\\x{2028}\\x{2029}]";
        ++i;
        after_quantifier = false;
        continue;
      case '$':
        if (!current.multiline) {
          add_anchor(AnchorKind::kEnd, current.unix_lines);
        } else if (i + 1 == n || pattern[i + 1] == '|' || pattern[i + 1] == ')') {
          // At the end of an alternative the terminator may be taken and given back.
          add_anchor(AnchorKind::kLineEnd, current.unix_lines);
        } else {
          out += c;
        }
        ++i;
        after_quantifier = false;
        continue;
      case '^':
        if (current.multiline && at_branch_start) {
          add_anchor(AnchorKind::kLineStart, current.unix_lines);
          branch_start = true;
        } else {
          out += c;
        }
        ++i;
        after_quantifier = false;
        continue;
      case '|':
        branch_start = true;
        break;
      case ')':
        if (flags.size() > 1) {
          flags.pop_back();
        }
        break;
      case '(':
        branch_start = true;
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
            result.java_groups.push_back(++groups);
            flags.push_back(current);
            out += "(?P<";
            i += 3;
            after_quantifier = false;
            continue;
          }
          // Inline flags: (?flags) for the rest of the group, (?flags:...) for the group.
          size_t k = i + 2;
          while (k < n && std::string_view("idmsuxU-").find(pattern[k]) != std::string_view::npos) {
            ++k;
          }
          if (k < n && (pattern[k] == ')' || pattern[k] == ':')) {
            Flags changed = current;
            const std::string kept = apply_flags(pattern.substr(i + 2, k - i - 2), changed);
            if (pattern[k] == ':') {
              flags.push_back(changed);
              out += "(?" + kept + ":";
            } else {
              flags.back() = changed;
              if (!kept.empty()) {
                out += "(?" + kept + ")";
              }
            }
            i = k + 1;
            after_quantifier = false;
            branch_start = pattern[k] == ':' || at_branch_start;
            continue;
          }
          flags.push_back(current);
        } else {
          result.java_groups.push_back(++groups);
          flags.push_back(current);
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
  return result;
}

std::string java_regex_to_re2(std::string_view pattern, std::string_view function) {
  return translate_java_regex(pattern, function).re2;
}

namespace {

using strings::IntArg;
using strings::StringArg;
using strings::StringOutput;

/// A Java regular expression compiled for RE2.
struct CompiledRegex {
  std::unique_ptr<RE2> re2;
  JavaPattern java;
  /// Java's groups, by number (0: the whole match), as RE2 numbers them.
  std::vector<int> re2_group;
  bool has_line_start = false;

  int group_count() const { return static_cast<int>(java.java_groups.size()); }
};

std::unique_ptr<CompiledRegex> compile(std::string_view pattern, std::string_view function) {
  auto compiled = std::make_unique<CompiledRegex>();
  compiled->java = translate_java_regex(pattern, function);
  RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(RE2::Options::EncodingUTF8);
  compiled->re2 = std::make_unique<RE2>(compiled->java.re2, options);
  if (!compiled->re2->ok()) {
    throw_bad_pattern(pattern, function, compiled->re2->error());
  }
  compiled->re2_group.push_back(0);
  for (const int group : compiled->java.java_groups) {
    compiled->re2_group.push_back(group);
  }
  for (const JavaPattern::Anchor& anchor : compiled->java.anchors) {
    compiled->has_line_start |= anchor.kind == AnchorKind::kLineStart;
  }
  return compiled;
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
  const CompiledRegex& get(int64_t i) {
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
  std::unique_ptr<CompiledRegex> constant_;
  std::unordered_map<std::string, std::unique_ptr<CompiledRegex>> cache_;
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

/// Size of the line terminator that ends just before `at` in `value` (0 if none).
size_t terminator_before(std::string_view value, size_t at) {
  if (at == 0) {
    return 0;
  }
  const auto last = static_cast<uint8_t>(value[at - 1]);
  if (last == '\n') {
    return at >= 2 && value[at - 2] == '\r' ? 2 : 1;
  }
  if (last == '\r') {
    return 1;
  }
  if (at >= 2 && last == 0x85 && static_cast<uint8_t>(value[at - 2]) == 0xC2) {
    return 2;
  }
  if (at >= 3 && (last == 0xA8 || last == 0xA9) && static_cast<uint8_t>(value[at - 2]) == 0x80 &&
      static_cast<uint8_t>(value[at - 3]) == 0xE2) {
    return 3;
  }
  return 0;
}

/// Finds matches as Java's Matcher.find() does, with Java's groups: the anchor groups of the
/// translation are checked (no position between \r and \n, no line start at the very end) and
/// their terminators given back.
class Finder {
 public:
  /// The first match in `value` at or after byte `from`; `groups` receives the whole match and
  /// Java's groups (null pieces for groups that took no part).
  bool find(const CompiledRegex& regex, std::string_view value, size_t from,
            std::vector<re2::StringPiece>& groups) {
    const RE2& re2 = *regex.re2;
    const size_t size = value.size();
    raw_.resize(static_cast<size_t>(re2.NumberOfCapturingGroups()) + 1);
    groups.resize(regex.re2_group.size());
    // A line start right at `from` takes the terminator before it.
    size_t search = regex.has_line_start ? from - terminator_before(value, from) : from;
    while (search <= size) {
      if (!re2.Match(piece(value), search, size, RE2::UNANCHORED, raw_.data(),
                     static_cast<int>(raw_.size()))) {
        return false;
      }
      const auto begin = static_cast<size_t>(raw_[0].data() - value.data());
      size_t low = 0;
      size_t high = size;
      if (accept(regex, value, &low, &high) && std::max(begin, low) >= from) {
        for (size_t k = 0; k < groups.size(); ++k) {
          const re2::StringPiece& group = raw_[static_cast<size_t>(regex.re2_group[k])];
          if (group.data() == nullptr) {
            groups[k] = re2::StringPiece();
            continue;
          }
          const auto start = static_cast<size_t>(group.data() - value.data());
          const size_t clamped_start = std::clamp(start, low, high);
          const size_t clamped_end = std::clamp(start + group.size(), low, high);
          groups[k] = re2::StringPiece(value.data() + clamped_start, clamped_end - clamped_start);
        }
        return true;
      }
      if (begin >= size) {
        return false;
      }
      search = std::max(from, begin + static_cast<size_t>(strings::sequence_length(
                                          static_cast<uint8_t>(value[begin]))));
    }
    return false;
  }

 private:
  /// Checks the anchor groups of the last match; narrows [low, high] to where Java's match
  /// lies (after a line start's terminator, before an end's).
  bool accept(const CompiledRegex& regex, std::string_view value, size_t* low, size_t* high) {
    for (const JavaPattern::Anchor& anchor : regex.java.anchors) {
      const re2::StringPiece& taken = raw_[static_cast<size_t>(anchor.group)];
      if (taken.data() == nullptr) {
        continue;
      }
      const auto start = static_cast<size_t>(taken.data() - value.data());
      const size_t end = start + taken.size();
      if (anchor.kind == AnchorKind::kLineStart) {
        // Not at the very end (even of an empty text), nor between \r and \n.
        if (end == value.size() || (taken == "\r" && value[end] == '\n')) {
          return false;
        }
        *low = std::max(*low, end);
      } else {
        if (taken == "\n" && start > 0 && value[start - 1] == '\r') {
          return false;
        }
        *high = std::min(*high, start);
      }
    }
    return true;
  }

  std::vector<re2::StringPiece> raw_;
};

[[noreturn]] void throw_group_index(std::string_view function, int count, int64_t group) {
  throw IllegalArgumentError("INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX",
                             "The value of parameter(s) `idx` in `" + std::string(function) +
                                 "` is invalid: Expects group index between 0 and " +
                                 std::to_string(count) + ", but got " + std::to_string(group) +
                                 ".");
}

/// The text of `group` (a group that took no part in the match gives an empty string).
std::string_view group_text(const re2::StringPiece& group) {
  return group.data() != nullptr ? std::string_view(group.data(), group.size())
                                 : std::string_view();
}

/// The text and pattern arguments of a regular-expression function (the first two), with
/// what its row loop needs to find Java's matches.
struct RowMatcher {
  /// `malformed_matters`: whether malformed UTF-8 must be decoded as Spark does before matching
  /// (a check of every byte), or may be left to RE2 (see `may_match_malformed`).
  RowMatcher(std::span<const Datum> arguments, std::string function, bool malformed_matters = true)
      : text(arguments[0]), patterns(arguments[1], std::move(function)) {
    const ArrayData& data = *arguments[0].data();
    if (!malformed_matters || data.type->id() == TypeId::kNull || data.length == 0) {
      return;
    }
    // One check of all the bytes; a row could still start inside a sequence that the row
    // before it ends.
    const int64_t rows = arguments[0].is_scalar() ? 1 : data.length;
    const std::string_view first_row = text.value(0);
    const std::string_view last_row = text.value(rows - 1);
    const auto* begin = reinterpret_cast<const uint8_t*>(first_row.data());
    const auto* end = reinterpret_cast<const uint8_t*>(last_row.data() + last_row.size());
    checked_ =
        !strings::is_ascii(begin, end - begin) && !strings::is_valid_utf8(begin, end - begin);
    for (int64_t i = 0; i < rows && !checked_; ++i) {
      const std::string_view row = text.value(i);
      checked_ = !row.empty() && strings::is_continuation(static_cast<uint8_t>(row[0]));
    }
  }

  /// The text of row `i` as Spark matches it: malformed UTF-8 read as U+FFFD (the view lasts
  /// until another row is asked for).
  std::string_view value(int64_t i) {
    const std::string_view raw = text.value(i);
    if (!checked_) {
      return raw;
    }
    if (i != replaced_row_) {
      if (strings::is_valid_utf8(reinterpret_cast<const uint8_t*>(raw.data()),
                                 static_cast<int64_t>(raw.size()))) {
        return raw;  // a well-formed row is matched in place
      }
      replaced_row_ = i;
      replaced_.clear();
      strings::append_replacing_malformed(raw, replaced_);
    }
    return replaced_;
  }

  /// Finds the first match of row `i`, into `groups`.
  bool first(int64_t i) { return finder.find(patterns.get(i), value(i), 0, groups); }
  /// Calls `found(groups)` for each match of row `i` from byte `from`, as Java's
  /// Matcher.find() goes on (see `search_after_match`); stops early when `found` returns false.
  template <typename Found>
  void each(int64_t i, size_t from, Found&& found) {
    const std::string_view row = value(i);
    const CompiledRegex& regex = patterns.get(i);
    size_t search = from;
    while (search <= row.size() && finder.find(regex, row, search, groups)) {
      const auto begin = static_cast<size_t>(groups[0].data() - row.data());
      if (!found(groups)) {
        return;
      }
      search = search_after_match(row, begin, begin + groups[0].size());
    }
  }

  StringArg text;
  PatternSource patterns;
  Finder finder;
  std::vector<re2::StringPiece> groups;

 private:
  /// Whether rows may hold malformed UTF-8, and must be checked one by one.
  bool checked_ = false;
  int64_t replaced_row_ = -1;
  std::string replaced_;
};

/// Whether `value` may hold a line terminator (\n, \r, U+0085, U+2028, U+2029); a byte of
/// those last three alone is enough. One pass without branches, which vectorizes.
bool may_hold_terminator(std::string_view value) {
  uint8_t found = 0;
  for (const char c : value) {
    const auto byte = static_cast<uint8_t>(c);
    found |= static_cast<uint8_t>(byte == '\n') | static_cast<uint8_t>(byte == '\r') |
             static_cast<uint8_t>(byte == 0x85) | static_cast<uint8_t>((byte & 0xFE) == 0xA8);
  }
  return found != 0;
}

/// Whether a Java pattern could tell malformed UTF-8 (RE2 matches no malformed byte) from the
/// U+FFFD Spark decodes it to: with '.', a class, a property or class escape, a code point
/// escape or U+FFFD itself. Literals, \d, \w, \s, anchors and alternations cannot, so whether
/// they match somewhere is the same either way.
bool may_match_malformed(std::string_view pattern) {
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '.' || c == '[' || static_cast<uint8_t>(c) == 0xEF) {
      return true;
    }
    if (c == '\\' && i + 1 < pattern.size()) {
      if (std::string_view("pPDWSXHVhvux0").find(pattern[i + 1]) != std::string_view::npos) {
        return true;
      }
      ++i;
    }
  }
  return false;
}

Datum rlike(std::span<const Datum> arguments, ExecContext& context) {
  const bool constant = arguments[1].is_scalar() && !arguments[1].scalar_is_null();
  RowMatcher matcher(arguments, "rlike",
                     !constant || may_match_malformed(StringArg(arguments[1]).value(0)));
  return strings::map_to_boolean(arguments, context, [&](int64_t i) {
    const CompiledRegex& regex = matcher.patterns.get(i);
    const std::string_view value = matcher.value(i);
    if (!regex.re2->Match(piece(value), 0, value.size(), RE2::UNANCHORED, nullptr, 0)) {
      return false;
    }
    // The translation's anchor groups only widen what RE2 matches, and need checking only
    // where a line terminator is (or the text is empty).
    if (regex.java.anchors.empty() || (!value.empty() && !may_hold_terminator(value))) {
      return true;
    }
    return matcher.first(i);
  });
}

/// regexp_extract: a group index outside the pattern's groups fails on the rows that match
/// only, as in Spark (the others give an empty string).
Datum regexp_extract(std::span<const Datum> arguments, ExecContext& context) {
  RowMatcher matcher(arguments, "regexp_extract");
  const bool has_index = arguments.size() > 2;
  std::optional<IntArg> index;
  if (has_index) {
    index.emplace(arguments[2]);
  }
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const int64_t group = has_index ? index->value(i) : 1;
    if (matcher.first(i)) {
      const int count = matcher.patterns.get(i).group_count();
      if (group < 0 || group > count) {
        throw_group_index("regexp_extract", count, group);
      }
      out.append(group_text(matcher.groups[static_cast<size_t>(group)]));
    }
    return true;
  });
}

/// Builds an ARRAY<STRING> result row by row.
class StringListOutput {
 public:
  StringListOutput(std::span<const Datum> arguments, ExecContext& context)
      : arguments_(arguments),
        length_(result_length(arguments)),
        validity_(and_validity(arguments, length_, context.allocator, &null_count_)),
        offsets_(context.allocator),
        values_(context.allocator) {
    offsets_.reserve(length_ + 1);
    offsets_.unsafe_append(0);
  }
  int64_t length() const { return length_; }
  bool row_valid(int64_t i) const { return strings::row_valid(validity_, i); }
  void append(std::string_view value) {
    values_.append(value);
    ++count_;
  }
  void finish_row() {
    if (count_ > std::numeric_limits<int32_t>::max()) {
      throw InvalidArgument(
          "the result of a regular expression function passes 2^31 - 1 "
          "strings in one array");
    }
    offsets_.unsafe_append(static_cast<int32_t>(count_));
  }
  Datum finish() {
    Array child = values_.finish();
    Array array(std::make_shared<ArrayData>(
        list(utf8()), length_,
        std::vector<std::shared_ptr<Buffer>>{std::move(validity_), offsets_.finish()}, null_count_,
        0, std::vector<ArrayDataPtr>{child.data()}));
    return all_scalars(arguments_) ? Datum::scalar(std::move(array)) : Datum(std::move(array));
  }

 private:
  std::span<const Datum> arguments_;
  int64_t length_;
  int64_t null_count_ = 0;
  std::shared_ptr<Buffer> validity_;
  TypedBufferBuilder<int32_t> offsets_;
  StringBuilder values_;
  int64_t count_ = 0;
};

/// regexp_extract_all: group idx (1 by default) of every match; the group index is checked on
/// the rows that match, as regexp_extract does.
Datum regexp_extract_all(std::span<const Datum> arguments, ExecContext& context) {
  RowMatcher matcher(arguments, "regexp_extract_all");
  const bool has_index = arguments.size() > 2;
  std::optional<IntArg> index;
  if (has_index) {
    index.emplace(arguments[2]);
  }
  StringListOutput out(arguments, context);
  for (int64_t i = 0; i < out.length(); ++i) {
    if (out.row_valid(i)) {
      const int count = matcher.patterns.get(i).group_count();
      const int64_t group = has_index ? index->value(i) : 1;
      matcher.each(i, 0, [&](const auto& found) {
        if (group < 0 || group > count) {
          throw_group_index("regexp_extract_all", count, group);
        }
        out.append(group_text(found[static_cast<size_t>(group)]));
        return true;
      });
    }
    out.finish_row();
  }
  return out.finish();
}

Datum regexp_count(std::span<const Datum> arguments, ExecContext& context) {
  RowMatcher matcher(arguments, "regexp_count");
  return strings::map_to_int32(arguments, context, [&](int64_t i) {
    int32_t count = 0;
    matcher.each(i, 0, [&](const auto&) {
      ++count;
      return true;
    });
    return count;
  });
}

/// regexp_substr: the first match, or null when there is none or it is empty (Spark's
/// nullif(regexp_extract(str, regexp, 0), '')).
Datum regexp_substr(std::span<const Datum> arguments, ExecContext& context) {
  RowMatcher matcher(arguments, "regexp_substr");
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    if (!matcher.first(i) || matcher.groups[0].empty()) {
      return false;
    }
    out.append(group_text(matcher.groups[0]));
    return true;
  });
}

/// regexp_instr: the 1-based character position of the first match, or 0. Spark 4 takes the
/// group index but reports the start of the whole match whatever it is.
Datum regexp_instr(std::span<const Datum> arguments, ExecContext& context) {
  RowMatcher matcher(arguments, "regexp_instr");
  return strings::map_to_int32(arguments, context, [&](int64_t i) {
    if (!matcher.first(i)) {
      return 0;
    }
    const std::string_view value = matcher.value(i);
    return static_cast<int32_t>(strings::count_chars(reinterpret_cast<const uint8_t*>(value.data()),
                                                     matcher.groups[0].data() - value.data()) +
                                1);
  });
}

/// A part of a Java replacement string: literal text, or the number of a group to insert.
struct ReplacementPart {
  std::string literal;
  int group = -1;
};

/// Parses Java's replacement syntax: `$n` and `${name}` insert groups, `\x` is x.
std::vector<ReplacementPart> parse_replacement(std::string_view replacement,
                                               const CompiledRegex& regex) {
  std::vector<ReplacementPart> parts;
  std::string literal;
  const int count = regex.group_count();
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
        const auto& names = regex.re2->NamedCapturingGroups();
        const auto found = names.find(name);
        if (found == names.end()) {
          fail("no group with name {" + name + "}");
        }
        // RE2's number of the group, as Java numbers it.
        group = static_cast<int>(
            std::find(regex.re2_group.begin(), regex.re2_group.end(), found->second) -
            regex.re2_group.begin());
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
  RowMatcher matcher(arguments, "regexp_replace");
  StringArg replacement(arguments[2]);
  const bool has_position = arguments.size() > 3;
  std::optional<IntArg> position;
  if (has_position) {
    position.emplace(arguments[3]);
  }
  const bool constant = arguments[1].is_scalar() && arguments[2].is_scalar();
  std::vector<ReplacementPart> parts;
  bool parsed = false;
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    if (!constant || !parsed) {
      parts = parse_replacement(replacement.value(i), matcher.patterns.get(i));
      parsed = true;
    }
    const int64_t from_char = has_position ? position->value(i) : 1;
    if (from_char < 1) {
      throw IllegalArgumentError("INVALID_PARAMETER_VALUE.REGEX_POSITION",
                                 "The value of parameter(s) `position` in `regexp_replace` is "
                                 "invalid: expects a positive position, but got " +
                                     std::to_string(from_char) + ".");
    }
    const std::string_view value = matcher.value(i);
    const size_t from = static_cast<size_t>(strings::char_offset(value, from_char - 1));
    if (from_char - 1 > 0 && from >= value.size()) {
      out.append(value);
      return true;
    }
    size_t copied = 0;
    matcher.each(i, from, [&](const auto& found) {
      const auto begin = static_cast<size_t>(found[0].data() - value.data());
      out.append(value.substr(copied, begin - copied));
      for (const ReplacementPart& part : parts) {
        out.append(part.group < 0 ? std::string_view(part.literal)
                                  : group_text(found[static_cast<size_t>(part.group)]));
      }
      copied = begin + found[0].size();
      return true;
    });
    out.append(value.substr(copied));
    return true;
  });
}

/// Appends the pieces of Java's `Pattern.split(value, limit)` (Spark's split, where a limit of
/// zero or less means no limit and trailing empty strings are kept).
void split_row(RowMatcher& matcher, int64_t i, bool empty_pattern, int64_t limit,
               StringListOutput& out) {
  const std::string_view value = matcher.value(i);
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
    return;
  }
  size_t index = 0;
  int64_t pieces = 0;
  matcher.each(i, 0, [&](const auto& found) {
    if (limit > 0 && pieces >= limit - 1) {
      return false;
    }
    const auto begin = static_cast<size_t>(found[0].data() - value.data());
    const size_t end = begin + found[0].size();
    // A zero-width match at the very beginning yields no leading empty string.
    if (end != 0) {
      out.append(value.substr(index, begin - index));
      ++pieces;
      index = end;
    }
    return true;
  });
  out.append(value.substr(index));
}

Datum split(std::span<const Datum> arguments, ExecContext& context) {
  RowMatcher matcher(arguments, "split");
  StringArg pattern_text(arguments[1]);
  const bool has_limit = arguments.size() > 2;
  std::optional<IntArg> limit;
  if (has_limit) {
    limit.emplace(arguments[2]);
  }
  StringListOutput out(arguments, context);
  for (int64_t i = 0; i < out.length(); ++i) {
    if (out.row_valid(i)) {
      split_row(matcher, i, pattern_text.value(i).empty(), has_limit ? limit->value(i) : -1, out);
    }
    out.finish_row();
  }
  return out.finish();
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

  /// Where the character at byte `at` of `text` ends, malformed UTF-8 cut as Spark's decoding
  /// cuts it (Spark matches LIKE on the decoded text).
  static size_t next_char(std::string_view text, size_t at) {
    const auto* begin = reinterpret_cast<const uint8_t*>(text.data());
    const uint8_t* p = begin + at;
    strings::decode(&p, begin + text.size());
    return static_cast<size_t>(p - begin);
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
        t = next_char(text, t);
        ++k;
      } else if (k < tokens_.size() && tokens_[k].kind == Token::kAnyRun) {
        star_token = k++;
        star_text = t;
      } else if (star_token != SIZE_MAX) {
        k = star_token + 1;
        star_text = next_char(text, star_text);
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
  add_function(registry, "regexp_extract_all", {}, {2, 3},
               "The text of group idx (1 by default) of every match of the regular expression.",
               {"(string, regexp: string[, idx: int]) -> array<string>"}, {kStr, kStr, kInt},
               list(utf8()), regexp_extract_all);
  add_function(registry, "regexp_count", {}, {2, 2},
               "The number of matches of the regular expression in the string.",
               {"(string, regexp: string) -> int"}, {kStr}, int32(), regexp_count);
  add_function(registry, "regexp_substr", {}, {2, 2},
               "The first match of the regular expression, or null when there is none or it is "
               "empty.",
               {"(string, regexp: string) -> string"}, {kStr}, utf8(), regexp_substr);
  add_function(registry, "regexp_instr", {}, {2, 3},
               "The 1-based position of the first match of the regular expression, or 0; idx is "
               "accepted and, as in Spark, does not change the answer.",
               {"(string, regexp: string[, idx: int]) -> int"}, {kStr, kStr, kInt}, int32(),
               regexp_instr);
  add_function(registry, "split", {}, {2, 3},
               "The parts of the string around matches of the regular expression, at most limit "
               "of them when limit is positive.",
               {"(string, regexp: string[, limit: int]) -> array<string>"}, {kStr, kStr, kInt},
               list(utf8()), split);
}

}  // namespace bowstring::compute
