#pragma once

// Where Apache Arrow's test data (the arrow-testing repository) is on this machine: in
// shared/arrow-testing beside the source tree, or beside the nearest ancestor folder that has it
// (a checkout may sit deeper than the shared folder); the environment variable
// BOWSTRING_ARROW_TESTING_DIR overrides that. Tests that need the data skip without it, except
// under CI (environment CI=true), where a missing folder is a failure.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace bowstring::testing {

/// The result of looking for the folder of Arrow's IPC integration gold files
/// (arrow-testing/data/arrow-ipc-stream/integration).
struct ArrowIntegrationDir {
  /// The folder; empty when it was not found.
  std::filesystem::path path;
  /// Why it was not found (the places looked at), empty when it was.
  std::string missing_reason;
  /// Whether the data is required (CI=true), so that its absence fails rather than skips.
  bool required = false;

  bool found() const { return !path.empty(); }
};

/// Looks for the gold files: BOWSTRING_ARROW_TESTING_DIR when set (an arrow-testing checkout, or
/// the integration folder itself), else shared/arrow-testing beside the source tree or beside
/// the nearest of its ancestors.
ArrowIntegrationDir find_arrow_integration_dir();

/// What is known to be wrong with the data of a gold case (`path` names any of its files, in
/// its version folder), or "" for a sound case. Such data is read only with full validation
/// off: `validate_full` rightly rejects it.
std::string gold_file_known_issue(const std::filesystem::path& path);

}  // namespace bowstring::testing

/// In a test body: binds `variable` to the gold file folder, or ends the test, skipped (or
/// failed, when the data is required under CI) with the reason.
#define BOWSTRING_ARROW_INTEGRATION_DIR_OR_SKIP(variable)                             \
  const ::bowstring::testing::ArrowIntegrationDir variable##_lookup =                 \
      ::bowstring::testing::find_arrow_integration_dir();                             \
  if (!variable##_lookup.found()) {                                                   \
    if (variable##_lookup.required) {                                                 \
      FAIL() << "required under CI (CI=true): " << variable##_lookup.missing_reason;  \
    }                                                                                 \
    GTEST_SKIP() << variable##_lookup.missing_reason;                                 \
  }                                                                                   \
  /* The argument names the variable declared here, so it cannot be parenthesized. */ \
  const std::filesystem::path& variable = /* NOLINT(bugprone-macro-parentheses) */    \
      variable##_lookup.path
