// The bowstring._core extension module: Python's view of the C++ engine.

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "bowstring/memory/allocator.h"
#include "bowstring/runtime/parallel.h"
#include "bowstring/util/error.h"
#include "interchange_bindings.h"

namespace nb = nanobind;

namespace bowstring::python {
// ipc_bindings.cc: the engine of bowstring.ipc, Arrow IPC streams and files.
void bind_ipc(nb::module_& module);
// udf_bindings.cc: the engine of bowstring.udf, Python worker pools and function runs.
void bind_udf(nb::module_& module);
// compute_bindings.cc: the engine of bowstring.compute, calls of functions by Spark name.
void bind_compute(nb::module_& module);
// compute_group_by_bindings.cc: grouped aggregation for bowstring.compute.group_by.
void bind_compute_group_by(nb::module_& module);
// compute_window_bindings.cc: window functions for bowstring.compute.window.
void bind_compute_window(nb::module_& module);
// compute_selection_bindings.cc: filter, take, sort_indices and top_n of bowstring.compute.
void bind_compute_selection(nb::module_& module);
// spark_type_bindings.cc: Spark type names and DDL schemas read into types and written back.
void bind_spark_types(nb::module_& module);
// io_bindings.cc: CSV files read and written with Spark's options.
void bind_io(nb::module_& module);
// plan_bindings.cc: expressions, logical plans, explain and execution of the query engine.
void bind_plan(nb::module_& module);
}  // namespace bowstring::python

namespace {

// Bowstring errors surface as the Python exceptions a Python user expects for each kind.
void translate_error(const std::exception_ptr& error, void* /*payload*/) {
  try {
    std::rethrow_exception(error);
  } catch (const bowstring::InvalidArgument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const bowstring::FormatError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const bowstring::TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const bowstring::IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const bowstring::OutOfMemory& e) {
    PyErr_SetString(PyExc_MemoryError, e.what());
  } catch (const bowstring::IoError& e) {
    PyErr_SetString(PyExc_OSError, e.what());
  } catch (const bowstring::NotImplemented& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  }
}

}  // namespace

NB_MODULE(_core, module) {
  module.doc() = "Bowstring's C++ core";
  module.attr("__version__") = BOWSTRING_VERSION;
  nb::register_exception_translator(translate_error);

  module.def(
      "allocator_stats",
      [] {
        bowstring::Allocator* allocator = bowstring::default_allocator();
        const bowstring::AllocatorStats stats = allocator->stats();
        nb::dict out;
        out["allocator"] = allocator->name();
        out["bytes_in_use"] = stats.bytes_in_use;
        out["peak_bytes"] = stats.peak_bytes;
        out["total_allocated"] = stats.total_allocated;
        out["allocations"] = stats.allocations;
        out["live_allocations"] = stats.live_allocations;
        return out;
      },
      nb::sig("def allocator_stats() -> dict[str, str | int]"),
      "Statistics of the process-wide default allocator: its name, bytes in use, peak bytes, "
      "total bytes allocated, and the numbers of allocations made and still live.");

  module.def("thread_pool_size", &bowstring::hardware_threads,
             "Threads of the process-wide pool that runs parallel work (created on first use: "
             "BOWSTRING_THREADS, else the CPUs the process may use). Raises ValueError if "
             "BOWSTRING_THREADS is not a whole number from 1 to 4096.");

  bowstring::python::bind_interchange(module);
  bowstring::python::bind_ipc(module);
  bowstring::python::bind_udf(module);
  bowstring::python::bind_compute(module);
  bowstring::python::bind_compute_group_by(module);
  bowstring::python::bind_compute_window(module);
  bowstring::python::bind_compute_selection(module);
  bowstring::python::bind_spark_types(module);
  bowstring::python::bind_io(module);
  bowstring::python::bind_plan(module);
}
