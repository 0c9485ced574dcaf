#pragma once

#include <string>
#include <string_view>

namespace bowstring::compute {

class FunctionRegistry;

/// Adds like, ilike, rlike (regexp, regexp_like), regexp_extract, regexp_replace and split.
void register_regex_functions(FunctionRegistry& registry);

/// A Java regular expression (Spark's syntax) rewritten for RE2: `\uXXXX` as `\x{XXXX}`, named
/// groups `(?<name>` as `(?P<name>`, Java's POSIX classes (`\p{Alpha}`...) as RE2's. Throws
/// `IllegalArgumentError` (INVALID_PARAMETER_VALUE.PATTERN) naming `function` and the pattern
/// for what RE2 cannot do: backreferences, lookaround, atomic groups, possessive quantifiers,
/// class unions and intersections.
std::string java_regex_to_re2(std::string_view pattern, std::string_view function);

}  // namespace bowstring::compute
