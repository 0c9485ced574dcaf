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
  const char* override_dir = std::getenv("BOWSTRING_ARROW_TESTING_DIR");
  const bool overridden = override_dir != nullptr && *override_dir != '\0';
  std::filesystem::path candidate = overridden ? override_dir : BOWSTRING_ARROW_INTEGRATION_DIR;
  std::error_code error;
  // The variable may also name the root of an arrow-testing checkout.
  if (overridden && std::filesystem::is_directory(candidate / kIntegrationSubdir, error)) {
    candidate /= kIntegrationSubdir;
  }
  if (std::filesystem::is_directory(candidate, error)) {
    result.path = std::filesystem::weakly_canonical(candidate, error);
    if (error) {
      result.path = candidate;
    }
    return result;
  }
  result.missing_reason =
      "Arrow's integration gold files are not at " + candidate.string() +
      (overridden ? " (from BOWSTRING_ARROW_TESTING_DIR)"
                  : " (the build's default; set BOWSTRING_ARROW_TESTING_DIR to an arrow-testing "
                    "checkout or its data/arrow-ipc-stream/integration folder)");
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
