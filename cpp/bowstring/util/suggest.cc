#include "bowstring/util/suggest.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace bowstring {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> previous(b.size() + 1);
  std::vector<size_t> current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      current[j] =
          std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::vector<std::string> closest_names(std::string_view name,
                                       std::span<const std::string> candidates, size_t limit) {
  std::vector<std::pair<size_t, size_t>> ranked;  // (distance, candidate index)
  ranked.reserve(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) {
    ranked.emplace_back(edit_distance(name, candidates[i]), i);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> closest;
  for (size_t k = 0; k < ranked.size() && k < limit; ++k) {
    closest.push_back(candidates[ranked[k].second]);
  }
  return closest;
}

}  // namespace bowstring
