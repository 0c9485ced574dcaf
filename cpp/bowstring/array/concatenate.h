#pragma once

#include <span>

#include "bowstring/array/array.h"
#include "bowstring/memory/allocator.h"

namespace bowstring {

/// One array holding the values of `arrays` one after the other. The arrays must all have the
/// same type (`TypeError` naming both types otherwise) and there must be at least one
/// (`InvalidArgument`). Slices are honoured: only the values in each array's window are copied,
/// offsets are rebased and children are cut to the ranges the parents use.
///
/// New buffers come from `allocator`. Some immutable buffers are shared instead of copied: the
/// data buffers of utf8_view/binary_view arrays (the views are rewritten to point at them) and a
/// dictionary that all the inputs have in common. Dictionary arrays with different dictionaries
/// get the concatenation of the distinct dictionaries, with indices shifted to match; that fails
/// with `InvalidArgument` when the index type cannot address the result, as does a total size
/// that 32-bit offsets or the run end type cannot hold.
Array concatenate(std::span<const Array> arrays, Allocator* allocator = default_allocator());

}  // namespace bowstring
