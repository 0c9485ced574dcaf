#include "bowstring/testing/source_tree.h"

namespace bowstring::testing {

std::filesystem::path source_tree_path(std::string_view relative) {
  return std::filesystem::path(BOWSTRING_SOURCE_DIR) / relative;
}

}  // namespace bowstring::testing
