#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/memory/allocator.h"

namespace bowstring::compute {

/// A vectorized hash table that maps rows of key columns to dense group ids 0, 1, 2... in order
/// of first appearance. Keys may be of any hashable type: integers, floats, decimals, strings
/// and binary, dates, timestamps, booleans, dictionary-encoded values (grouped by value) and
/// nested types. Groups follow Spark's rules: nulls form one group (per combination of the
/// other keys), every NaN is one value, and -0.0 is the same as 0.0.
///
/// A grouper is fed batch after batch with `consume`; the group ids stay valid across batches.
class Grouper {
 public:
  /// A grouper for keys of `key_types` (at least one). Chooses a specialized table: a single
  /// key of at most 8 bytes (integers, dates, timestamps, floats, booleans, small decimals)
  /// hashes its value directly, a single string or binary key hashes its bytes, anything else
  /// hashes an encoding of the whole row.
  static std::unique_ptr<Grouper> make(std::span<const TypePtr> key_types,
                                       Allocator* allocator = default_allocator());

  virtual ~Grouper();
  Grouper(const Grouper&) = delete;
  Grouper& operator=(const Grouper&) = delete;

  /// Writes the group id of each row of `keys` (one array per key column, all of the same
  /// length, of the types given to `make`) to `group_ids`, creating groups for keys not seen
  /// before. Throws `InvalidArgument` on a wrong number of columns, types or lengths.
  virtual void consume(std::span<const Array> keys, uint32_t* group_ids) = 0;
  /// Same, returning the group ids.
  std::vector<uint32_t> consume(std::span<const Array> keys);

  /// Number of groups so far.
  virtual uint32_t num_groups() const = 0;

  /// One array per key column, one row per group, in group id order. Floats come out
  /// normalized (0.0 for -0.0) and dictionary-encoded keys as their value type.
  virtual std::vector<Array> unique_keys() const = 0;

  const std::vector<TypePtr>& key_types() const { return key_types_; }

 protected:
  Grouper(std::vector<TypePtr> key_types, Allocator* allocator)
      : key_types_(std::move(key_types)), allocator_(allocator) {}
  /// Throws `InvalidArgument` unless `keys` match the key types and have one length.
  void check_keys(std::span<const Array> keys) const;

  std::vector<TypePtr> key_types_;
  Allocator* allocator_;
};

}  // namespace bowstring::compute
