#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bowstring/types/type.h"

namespace bowstring {

/// The fields of a record batch or table, in column order, with custom metadata. Immutable and
/// shared through `SchemaPtr`; the `with_*`, `add_field`, `remove_field` and `set_field` methods
/// return new schemas. Duplicate field names are allowed (as in Arrow), but looking a column up
/// by a duplicated name is an error.
class Schema {
 public:
  explicit Schema(FieldVector fields, Metadata metadata = {});

  const FieldVector& fields() const { return fields_; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  const Metadata& metadata() const { return metadata_; }

  /// Field `i`; throws `IndexError` naming the fields when out of range.
  const FieldPtr& field(int i) const;
  /// The field named exactly `name`; see `field_index`.
  const FieldPtr& field(std::string_view name) const { return field(field_index(name)); }
  /// Index of the field named exactly `name`. Throws `InvalidArgument` listing the field names
  /// when there is none, or naming the positions when several fields have that name.
  int field_index(std::string_view name) const;
  /// Indices of every field named exactly `name` (empty when there is none).
  std::vector<int> field_indices(std::string_view name) const;
  bool contains(std::string_view name) const { return by_name_.contains(name); }
  /// The field names in order.
  std::vector<std::string> field_names() const;

  /// One `name: type` line per field (Arrow's spelling), then the metadata, if any, under a
  /// `-- metadata --` line.
  std::string to_string() const;
  /// Same fields (names, types, nullability) in the same order; field and schema metadata too
  /// when `check_metadata`.
  bool equals(const Schema& other, bool check_metadata = false) const;

  std::shared_ptr<const Schema> with_metadata(Metadata metadata) const;
  /// A schema with `field` inserted before position `i` (0 <= i <= num_fields()).
  std::shared_ptr<const Schema> add_field(int i, FieldPtr field) const;
  std::shared_ptr<const Schema> remove_field(int i) const;
  /// A schema with field `i` replaced by `field`.
  std::shared_ptr<const Schema> set_field(int i, FieldPtr field) const;

  /// The field names as "'a', 'b', 'c'" for error messages (long lists are cut).
  std::string describe_names() const;

 private:
  static constexpr int kDuplicateName = -1;

  /// Throws `IndexError` naming the fields unless 0 <= i < num_fields().
  void check_field_index(int i) const;

  FieldVector fields_;
  Metadata metadata_;
  /// Name -> index, or kDuplicateName when several fields share the name. Keys view the names
  /// held by `fields_`.
  std::unordered_map<std::string_view, int> by_name_;
};

using SchemaPtr = std::shared_ptr<const Schema>;

SchemaPtr schema(FieldVector fields, Metadata metadata = {});

}  // namespace bowstring
