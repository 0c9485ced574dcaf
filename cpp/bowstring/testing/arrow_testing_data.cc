#include "bowstring/testing/arrow_testing_data.h"

#include <cstdlib>
#include <string_view>
#include <system_error>

namespace bowstring::testing {

namespace {
constexpr std::string_view kIntegrationSubdir = "data/arrow-ipc-stream/integration";
}  // namespace

ArrowIntegrationDir find_arrow_integration_dir() {
  ArrowIntegrationDir result;
  const char* ci = std::getenv("CI");
  result.required = ci != nullptr && std::string_view(ci) == "true";
  std::error_code error;
  const auto found = [&](const std::filesystem::path& folder) {
    if (!std::filesystem::is_directory(folder, error)) {
      return false;
    }
    result.path = std::filesystem::weakly_canonical(folder, error);
    if (error) {
      result.path = folder;
    }
    return true;
  };
  const char* override_dir = std::getenv("BOWSTRING_ARROW_TESTING_DIR");
  if (override_dir != nullptr && *override_dir != '\0') {
    // The variable may name the root of an arrow-testing checkout or the folder itself.
    const std::filesystem::path named = override_dir;
    if (!found(named / kIntegrationSubdir) && !found(named)) {
      result.missing_reason = "Arrow's integration gold files are not at " + named.string() +
                              " (from BOWSTRING_ARROW_TESTING_DIR)";
    }
    return result;
  }
  const std::filesystem::path source = std::filesystem::absolute(BOWSTRING_SOURCE_DIR, error);
  for (std::filesystem::path folder = source.parent_path();; folder = folder.parent_path()) {
    if (found(folder / "shared" / "arrow-testing" / kIntegrationSubdir)) {
      return result;
    }
    if (folder == folder.parent_path()) {
      break;
    }
  }
  result.missing_reason =
      "Arrow's integration gold files are not in shared/arrow-testing/" +
      std::string(kIntegrationSubdir) + " beside " + source.string() +
      " or any of its ancestors (set BOWSTRING_ARROW_TESTING_DIR to an arrow-testing checkout or "
      "its data/arrow-ipc-stream/integration folder)";
  return result;
}

std::string gold_file_known_issue(const std::filesystem::path& path) {
  const std::string version = path.parent_path().filename().string();
  const std::string file = path.filename().string();
  const std::string name = file.substr(0, file.find('.'));
  // Arrow's generator drew decimal values without regard to the precision until Arrow 2.0;
  // most values of these cases have more digits than their type allows.
  if ((version == "0.14.1" || version.starts_with("1.0.0-")) &&
      (name == "generated_decimal" || name == "generated_decimal256")) {
    return "decimal values with more digits than their precision (written by Arrow " + version +
           ")";
  }
  return {};
}

}  // namespace bowstring::testing
