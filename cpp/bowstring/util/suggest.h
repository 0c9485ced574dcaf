#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bowstring {

/// Levenshtein distance between `a` and `b`, compared case-insensitively (ASCII).
size_t edit_distance(std::string_view a, std::string_view b);

/// The candidates closest to `name` by edit distance, nearest first (ties in the candidates'
/// order), at most `limit` of them: what "Did you mean ...?" messages suggest.
std::vector<std::string> closest_names(std::string_view name,
                                       std::span<const std::string> candidates, size_t limit = 5);

}  // namespace bowstring
