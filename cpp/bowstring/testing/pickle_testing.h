#pragma once

#include <string>
#include <string_view>

/// Python functions pickled for tests of the Python runner.
namespace bowstring::testing {

/// The cloudpickle bytes of the function named `name` that the Python code `source` defines, as
/// a driver pickles a function written in its main script (by value, with the globals it uses).
/// Runs the interpreter the build was configured with; throws `Error` when the code does not run
/// (its errors go to stderr).
std::string pickle_function(std::string_view source, std::string_view name = "f");

}  // namespace bowstring::testing
