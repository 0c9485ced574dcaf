#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/array/equal.h"
#include "bowstring/array/pretty_print.h"
#include "bowstring/memory/allocator.h"

namespace bowstring {

/// One logical column made of several arrays ("chunks") of the same type, as a table holds it.
/// A cheap copyable value: copying copies the chunk handles, never the data.
class ChunkedArray {
 public:
  /// Chunks of `type`; throws `TypeError` naming the first chunk of another type.
  ChunkedArray(TypePtr type, std::vector<Array> chunks);
  /// Chunks typed as the first one; throws `InvalidArgument` when there is none.
  explicit ChunkedArray(std::vector<Array> chunks);
  /// A single chunk.
  explicit ChunkedArray(Array chunk);

  const TypePtr& type() const { return type_; }
  int64_t length() const { return length_; }
  int64_t null_count() const;
  int num_chunks() const { return static_cast<int>(chunks_.size()); }
  /// Chunk `i`; throws `IndexError` when out of range.
  const Array& chunk(int i) const;
  const std::vector<Array>& chunks() const { return chunks_; }

  /// `length` logical values from `offset`, as slices of the chunks that hold them; chunks
  /// outside the range are left out. Zero-copy, O(number of chunks).
  ChunkedArray slice(int64_t offset, int64_t length) const;
  ChunkedArray slice(int64_t offset) const;

  /// The values in at most one chunk: the chunks concatenated into new buffers from
  /// `allocator` when there are several, this array itself otherwise.
  ChunkedArray combine_chunks(Allocator* allocator = default_allocator()) const;

  /// Same type and the same logical values (in the sense of `arrays_equal`), wherever the
  /// chunk boundaries are.
  bool equals(const ChunkedArray& other, const EqualOptions& options = {}) const;
  /// The chunks, each printed as `pretty_print` does, between brackets: `[[1 2] [3]]`. The
  /// window also limits how many chunks are shown.
  std::string to_string(const PrettyPrintOptions& options = {}) const;

  /// `Array::validate` on every chunk; errors name the chunk.
  void validate() const;
  /// `Array::validate_full` on every chunk; errors name the chunk.
  void validate_full() const;

 private:
  /// Checks the type of every chunk against `type_` and sums their lengths.
  void check_chunks();

  TypePtr type_;
  std::vector<Array> chunks_;
  int64_t length_ = 0;
};

}  // namespace bowstring
