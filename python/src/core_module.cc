// The bowstring._core extension module: Python's view of the C++ engine.

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "bowstring/memory/allocator.h"

namespace nb = nanobind;

NB_MODULE(_core, module) {
  module.doc() = "Bowstring's C++ core";
  module.attr("__version__") = BOWSTRING_VERSION;

  module.def(
      "allocator_stats",
      [] {
        const bowstring::AllocatorStats stats = bowstring::default_allocator()->stats();
        nb::dict out;
        out["allocator"] = bowstring::default_allocator()->name();
        out["bytes_in_use"] = stats.bytes_in_use;
        out["peak_bytes"] = stats.peak_bytes;
        out["total_allocated"] = stats.total_allocated;
        out["allocations"] = stats.allocations;
        out["live_allocations"] = stats.live_allocations;
        return out;
      },
      "Statistics of the process-wide default allocator.");
}
