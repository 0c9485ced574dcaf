#pragma once

// What the collection functions share: reading list and map arguments through their offsets,
// and building list results from new offsets and the child elements they gather (one `take`
// over the flattened elements instead of a value built per row).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/exec_context.h"
#include "bowstring/memory/buffer.h"

namespace bowstring::compute::collection {

/// A list (or map) array read through its offsets: row i holds the elements
/// [offsets[i], offsets[i + 1]) of `values`, the child as stored (not cut to the window).
struct ListColumn {
  explicit ListColumn(const Array& array);

  bool is_valid(int64_t i) const { return !data->is_null_in_bitmap(i); }
  int64_t size(int64_t i) const { return offsets[i + 1] - offsets[i]; }
  /// The index in `values` of the first element of row 0 and one past the last of the last row.
  int64_t first() const { return offsets[0]; }
  int64_t end() const { return offsets[length]; }

  Array array;
  const ArrayData* data;
  const int32_t* offsets;
  int64_t length;
  Array values;
};

/// The row of each element of `list` in [first(), end()): element first() + k belongs to row
/// `result[k]`.
std::vector<int32_t> element_rows(const ListColumn& list);

/// A validity bitmap written row by row: `finish` gives nullptr when no row is null.
class ValidityOutput {
 public:
  ValidityOutput(int64_t length, Allocator* allocator);
  void set(int64_t i, bool valid);
  int64_t null_count() const { return null_count_; }
  std::shared_ptr<Buffer> finish();

 private:
  MutableBuffer bits_;
  int64_t null_count_ = 0;
};

/// A boolean result written row by row.
class BooleanOutput {
 public:
  BooleanOutput(int64_t length, Allocator* allocator);
  void set(int64_t i, bool valid, bool value);
  /// The result of a call of `arguments` (a scalar when every argument is one).
  Datum finish(std::span<const Datum> arguments);

 private:
  int64_t length_;
  MutableBuffer bits_;
  ValidityOutput validity_;
};

/// `parts` one after the other, as one pool of elements of `type` (a null of `type` when there
/// are no parts); `bases` receives where each part starts in it.
Array pool_of(std::span<const Array> parts, const TypePtr& type, std::vector<int64_t>* bases,
              Allocator* allocator);

/// A list array of `type` from its parts: validity (nullptr: no nulls), `length + 1` offsets
/// into `values`.
Array make_list(TypePtr type, int64_t length, std::shared_ptr<Buffer> validity, int64_t null_count,
                std::shared_ptr<Buffer> offsets, Array values);

/// A list result being gathered: each row's elements are indices into a pool of elements
/// (index -1 gives a null element). `finish` takes them from the pool in one pass.
class ListGather {
 public:
  ListGather(int64_t length, Allocator* allocator);

  void add(int64_t index) { indices_.push_back(index); }
  void add_null() { indices_.push_back(-1); }
  /// Adds elements [begin, end) of the pool.
  void add_range(int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      indices_.push_back(k);
    }
  }
  /// Ends the current row, valid or null.
  void finish_row(bool valid = true);
  int64_t rows() const { return static_cast<int64_t>(offsets_.size()) - 1; }

  /// The list of `type` (whose elements are of the pool's type).
  Array finish(const TypePtr& type, const Array& pool);

 private:
  Allocator* allocator_;
  std::vector<int64_t> indices_;
  std::vector<int32_t> offsets_;
  ValidityOutput validity_;
};

/// Rows `indices` of `pool`, an index below 0 giving a null row. Rewrites the negative indices.
Array take_or_null(const Array& pool, std::vector<int64_t>& indices, Allocator* allocator);

/// `values` with every -0.0 as 0.0 when they are floating point numbers (Spark's set
/// operations and map keys normalise them so), else `values` itself.
Array normalize_zeros(const Array& values, Allocator* allocator);

/// Each argument as an array of `length` rows (scalars repeated).
std::vector<Array> arrays_of(std::span<const Datum> arguments, int64_t length,
                             Allocator* allocator);

/// `array` as a call's result: a scalar when every argument is one.
Datum result_of(Array array, std::span<const Datum> arguments);

/// The element type of a list type, or of a map's entries (a struct of key and value).
const TypePtr& element_type(const DataType& list_type);

/// Whether `type` is an array in Spark's sense here (a list with 32-bit offsets).
bool is_array_type(const DataType& type);

/// Spark's "the Nth parameter requires the X type" mismatch, naming `function`.
[[noreturn]] void throw_input_type(const std::string& function, size_t index,
                                   const std::string& expected, const DataType& type);

/// Row-wise `left = right` (Spark's equality: NaN equals NaN, nested values compared field by
/// field) as a boolean array, null where either side is.
Array equal_values(const Array& left, const Array& right, ExecContext& context);

}  // namespace bowstring::compute::collection
