#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bowstring::compute {

class FunctionRegistry;

/// Adds like, ilike, rlike (regexp, regexp_like), regexp_extract, regexp_extract_all,
/// regexp_count, regexp_substr, regexp_instr, regexp_replace and split.
void register_regex_functions(FunctionRegistry& registry);

/// How a group added by the translation stands for a Java anchor that RE2 cannot express (a
/// position before or after a line terminator): the group takes the terminator, and the match
/// loops check it and give it back.
enum class AnchorKind : uint8_t {
  /// `$` (and `\Z`): the end, or before a line terminator that ends the text.
  kEnd,
  /// `$` in MULTILINE mode at the end of an alternative: before any line terminator or the end.
  kLineEnd,
  /// `^` in MULTILINE mode at the start of an alternative: the start, or after a line
  /// terminator, where the text does not end (the group is empty at the start).
  kLineStart,
};

/// A Java regular expression in RE2's syntax.
struct JavaPattern {
  std::string re2;
  /// RE2's number of each group of the Java pattern, in order (the translation adds groups).
  std::vector<int> java_groups;
  /// The added groups.
  struct Anchor {
    int group;
    AnchorKind kind;
  };
  std::vector<Anchor> anchors;
};

/// A Java regular expression (Spark's syntax) rewritten for RE2: `\uXXXX` as `\x{XXXX}`, named
/// groups `(?<name>` as `(?P<name>`, Java's POSIX classes (`\p{Alpha}`...) as RE2's, `.` and the
/// anchors `^`, `$`, `\Z` with Java's line terminators (see `AnchorKind`; a MULTILINE anchor
/// inside an alternative keeps RE2's meaning, \n alone). Throws `IllegalArgumentError`
/// (INVALID_PARAMETER_VALUE.PATTERN) naming `function` and the pattern for what RE2 cannot do:
/// backreferences, lookaround, atomic groups, possessive quantifiers, class unions and
/// intersections.
JavaPattern translate_java_regex(std::string_view pattern, std::string_view function);

/// The RE2 syntax of `translate_java_regex`.
std::string java_regex_to_re2(std::string_view pattern, std::string_view function);

}  // namespace bowstring::compute
