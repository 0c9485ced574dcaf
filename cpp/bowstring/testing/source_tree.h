#pragma once

#include <filesystem>
#include <string_view>

namespace bowstring::testing {

/// `relative` inside the source tree the tests were built from (e.g. "fuzz/regressions").
std::filesystem::path source_tree_path(std::string_view relative);

}  // namespace bowstring::testing
