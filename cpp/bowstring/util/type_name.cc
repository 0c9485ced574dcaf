#include "bowstring/util/type_name.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace bowstring {

std::string demangle_type_name(const char* mangled) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
  return status == 0 && demangled != nullptr ? std::string(demangled.get()) : std::string(mangled);
}

}  // namespace bowstring
