#pragma once

#include "bowstring/memory/allocator.h"

namespace bowstring::testing {

/// The checked allocator every test runs under (the process default in test binaries).
inline CheckedAllocator& checked_default_allocator() {
  return dynamic_cast<CheckedAllocator&>(*default_allocator());
}

}  // namespace bowstring::testing
