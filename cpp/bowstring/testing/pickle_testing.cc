#include "bowstring/testing/pickle_testing.h"

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "bowstring/testing/python_testing.h"
#include "bowstring/util/error.h"

namespace bowstring::testing {

namespace {

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (const char byte : bytes) {
    const auto value = static_cast<unsigned char>(byte);
    text += kDigits[value >> 4];
    text += kDigits[value & 15];
  }
  return text;
}

}  // namespace

std::string pickle_function(std::string_view source, std::string_view name) {
  // The code runs as the main module, so cloudpickle stores the function by value. Source and
  // name travel hex-encoded, which needs no quoting in the shell command.
  const std::string script =
      "import sys, cloudpickle; exec(bytes.fromhex(sys.argv[1]).decode(), globals()); "
      "sys.stdout.buffer.write(cloudpickle.dumps(globals()[bytes.fromhex(sys.argv[2]).decode()]))";
  const std::string command =
      python_executable() + " -c '" + script + "' " + hex(source) + " " + hex(name);
  FILE* pipe = ::popen(command.c_str(), "re");
  if (pipe == nullptr) {
    throw Error("cannot run " + python_executable() + " to pickle a function");
  }
  std::string output;
  char chunk[4096];
  for (size_t read = 0; (read = std::fread(chunk, 1, sizeof(chunk), pipe)) > 0;) {
    output.append(chunk, read);
  }
  const int status = ::pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw Error("pickling Python function '" + std::string(name) +
                "' failed (the interpreter's errors are on stderr)");
  }
  return output;
}

}  // namespace bowstring::testing
