#pragma once

#include <string>

namespace bowstring {

/// The C++ spelling of a mangled type name, as `std::type_info::name()` gives it
/// ("bowstring::ListType" for "N9bowstring8ListTypeE"), so that error messages name classes
/// readably; `mangled` itself when it cannot be demangled.
std::string demangle_type_name(const char* mangled);

}  // namespace bowstring
