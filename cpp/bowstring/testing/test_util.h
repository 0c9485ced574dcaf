#pragma once

#include <gtest/gtest.h>

#include <string>

#include "bowstring/memory/allocator.h"

namespace bowstring::testing {

/// The checked allocator every test runs under (the process default in test binaries).
inline CheckedAllocator& checked_default_allocator() {
  return dynamic_cast<CheckedAllocator&>(*default_allocator());
}

/// The message of the `Error` that `call` throws; a test failure (and "") when it throws none.
template <typename Error, typename Call>
std::string error_message(Call call) {
  try {
    call();
  } catch (const Error& error) {
    return error.what();
  }
  ADD_FAILURE() << "expected an exception";
  return {};
}

}  // namespace bowstring::testing
