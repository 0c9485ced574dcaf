#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "bowstring/array/builder.h"

namespace bowstring {

/// Throws `InvalidArgument`: a list builder's values passed what its offsets can address.
[[noreturn]] void throw_list_overflow(const DataType& type, int64_t child_length);

/// Builds the children of nested builders: `make_builder(field.type())`, refusing nulls when the
/// field is not nullable.
std::unique_ptr<ArrayBuilder> make_field_builder(const Field& field, Allocator* allocator);

/// list, large_list (kView false), list_view and large_list_view (kView true). `append()`
/// starts a list; its values are then appended to `value_builder()`, and the list ends where
/// the next one starts (or at `finish`). The concrete builders below fix the type id.
template <typename Offset, bool kView>
class BaseListBuilder : public ArrayBuilder {
 public:
  static constexpr bool kLarge = sizeof(Offset) == 8;

  /// Starts a new valid list.
  void append() {
    offsets_.append(next_offset());
    append_valid();
  }
  /// Starts a new list, valid or null (a null list holds no values).
  void append(bool is_valid) {
    if (is_valid) {
      append();
    } else {
      append_null();
    }
  }
  /// `append()` without checking capacity: call `reserve` first.
  void unsafe_append() {
    offsets_.unsafe_append(next_offset());
    unsafe_append_valid();
  }

  /// The builder of the values of every list.
  ArrayBuilder& value_builder() { return *values_; }

  void append_null() final {
    append_null_slots(1);
    offsets_.append(next_offset());
  }
  void append_nulls(int64_t count) final {
    append_null_slots(count);
    offsets_.append_fill(count, next_offset());
  }
  void append_empty_value() final { append(); }
  void append_empty_values(int64_t count) final {
    offsets_.append_fill(count, next_offset());
    append_valid(count);
  }
  void reserve(int64_t additional) final {
    offsets_.reserve(additional);
    reserve_validity(additional);
  }
  void reset() override;

 protected:
  BaseListBuilder(TypePtr type, TypeId id, const char* name, Allocator* allocator);
  BaseListBuilder(std::unique_ptr<ArrayBuilder> value_builder, TypePtr type, TypeId id,
                  const char* name, Allocator* allocator);
  void prepare_finish() final;
  ArrayDataPtr finish_impl() final;

 private:
  Offset next_offset() const {
    const int64_t child_length = values_->length();
    if constexpr (!kLarge) {
      if (child_length > std::numeric_limits<int32_t>::max()) [[unlikely]] {
        throw_list_overflow(*type_, child_length);
      }
    }
    return static_cast<Offset>(child_length);
  }

  std::unique_ptr<ArrayBuilder> values_;
  TypedBufferBuilder<Offset> offsets_;  // the start of each list; finish adds the closing end
  TypedBufferBuilder<Offset> sizes_;    // list views: reserved by prepare_finish, filled by finish
};

extern template class BaseListBuilder<int32_t, false>;
extern template class BaseListBuilder<int64_t, false>;
extern template class BaseListBuilder<int32_t, true>;
extern template class BaseListBuilder<int64_t, true>;

/// list<T>. Lists whose values pass 2^31 - 1 in total throw `InvalidArgument` (use large_list).
class ListBuilder final : public BaseListBuilder<int32_t, false> {
 public:
  explicit ListBuilder(TypePtr type, Allocator* allocator = default_allocator())
      : BaseListBuilder(std::move(type), TypeId::kList, "ListBuilder", allocator) {}
  /// A list<value_builder's type> builder appending its values to `value_builder`.
  explicit ListBuilder(std::unique_ptr<ArrayBuilder> value_builder,
                       Allocator* allocator = default_allocator())
      : BaseListBuilder(std::move(value_builder), nullptr, TypeId::kList, "ListBuilder",
                        allocator) {}
};

class LargeListBuilder final : public BaseListBuilder<int64_t, false> {
 public:
  explicit LargeListBuilder(TypePtr type, Allocator* allocator = default_allocator())
      : BaseListBuilder(std::move(type), TypeId::kLargeList, "LargeListBuilder", allocator) {}
  explicit LargeListBuilder(std::unique_ptr<ArrayBuilder> value_builder,
                            Allocator* allocator = default_allocator())
      : BaseListBuilder(std::move(value_builder), nullptr, TypeId::kLargeList, "LargeListBuilder",
                        allocator) {}
};

/// list_view<T>, built like a list: each list's offset is where its values start in the value
/// builder and its size how many were appended before the next list started.
class ListViewBuilder final : public BaseListBuilder<int32_t, true> {
 public:
  explicit ListViewBuilder(TypePtr type, Allocator* allocator = default_allocator())
      : BaseListBuilder(std::move(type), TypeId::kListView, "ListViewBuilder", allocator) {}
  explicit ListViewBuilder(std::unique_ptr<ArrayBuilder> value_builder,
                           Allocator* allocator = default_allocator())
      : BaseListBuilder(std::move(value_builder), nullptr, TypeId::kListView, "ListViewBuilder",
                        allocator) {}
};

class LargeListViewBuilder final : public BaseListBuilder<int64_t, true> {
 public:
  explicit LargeListViewBuilder(TypePtr type, Allocator* allocator = default_allocator())
      : BaseListBuilder(std::move(type), TypeId::kLargeListView, "LargeListViewBuilder",
                        allocator) {}
  explicit LargeListViewBuilder(std::unique_ptr<ArrayBuilder> value_builder,
                                Allocator* allocator = default_allocator())
      : BaseListBuilder(std::move(value_builder), nullptr, TypeId::kLargeListView,
                        "LargeListViewBuilder", allocator) {}
};

/// fixed_size_list<T>[n]: `append()` starts a list, then exactly n values are appended to
/// `value_builder()`. A null list gets n placeholder values by itself. `finish` throws
/// `InvalidArgument` when the value builder does not hold exactly length() * n values.
class FixedSizeListBuilder final : public ArrayBuilder {
 public:
  explicit FixedSizeListBuilder(TypePtr type, Allocator* allocator = default_allocator());

  int32_t list_size() const { return list_size_; }
  ArrayBuilder& value_builder() { return *values_; }

  void append() { append_valid(); }
  void append(bool is_valid) {
    if (is_valid) {
      append();
    } else {
      append_null();
    }
  }
  void unsafe_append() { unsafe_append_valid(); }

  void append_null() override;
  void append_nulls(int64_t count) override;
  /// A valid list of n placeholder values.
  void append_empty_value() override;
  void append_empty_values(int64_t count) override;
  void reserve(int64_t additional) override { reserve_validity(additional); }
  void reset() override;

 protected:
  void prepare_finish() override;
  ArrayDataPtr finish_impl() override;

 private:
  int32_t list_size_;
  std::unique_ptr<ArrayBuilder> values_;
};

/// struct<...>: `append()` starts a row, then one value is appended to every
/// `field_builder(i)`. `append_null()` appends a null row and fills each field by itself (a
/// null, or a placeholder for fields declared not null). `finish` throws `InvalidArgument`
/// naming the field when the field builders' lengths differ from the struct's.
class StructBuilder final : public ArrayBuilder {
 public:
  explicit StructBuilder(TypePtr type, Allocator* allocator = default_allocator());
  /// A builder of `type` appending fields to `field_builders` (one per field, of its type).
  StructBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> field_builders,
                Allocator* allocator = default_allocator());

  int num_fields() const { return static_cast<int>(fields_.size()); }
  /// The builder of field `i`; throws `IndexError` when there is no such field.
  ArrayBuilder& field_builder(int i) {
    if (i < 0 || i >= num_fields()) [[unlikely]] {
      throw_no_field(i);
    }
    return *fields_[static_cast<size_t>(i)];
  }

  void append() { append_valid(); }
  void append(bool is_valid) {
    if (is_valid) {
      append();
    } else {
      append_null();
    }
  }
  void unsafe_append() { unsafe_append_valid(); }

  void append_null() override;
  void append_nulls(int64_t count) override;
  /// A valid row of placeholder values.
  void append_empty_value() override;
  void append_empty_values(int64_t count) override;
  void reserve(int64_t additional) override { reserve_validity(additional); }
  void reset() override;

 protected:
  void prepare_finish() override;
  ArrayDataPtr finish_impl() override;

 private:
  [[noreturn]] void throw_no_field(int i) const;

  std::vector<std::unique_ptr<ArrayBuilder>> fields_;
};

/// map<key, item>: `append()` starts a map, then its entries are appended as keys to
/// `key_builder()` and as many items to `item_builder()`. Keys are never null: appending a null
/// key throws `InvalidArgument`. Starting a map, or finishing, with a different number of keys
/// and items throws `InvalidArgument`.
class MapBuilder final : public ArrayBuilder {
 public:
  explicit MapBuilder(TypePtr type, Allocator* allocator = default_allocator());

  ArrayBuilder& key_builder() { return *keys_; }
  ArrayBuilder& item_builder() { return *items_; }

  void append() {
    offsets_.append(next_offset());
    append_valid();
  }
  void append(bool is_valid) {
    if (is_valid) {
      append();
    } else {
      append_null();
    }
  }

  void append_null() override;
  void append_nulls(int64_t count) override;
  /// An empty map.
  void append_empty_value() override { append(); }
  void append_empty_values(int64_t count) override;
  void reserve(int64_t additional) override;
  void reset() override;

 protected:
  void prepare_finish() override;
  ArrayDataPtr finish_impl() override;

 private:
  int32_t next_offset() const;

  std::unique_ptr<ArrayBuilder> keys_;
  std::unique_ptr<ArrayBuilder> items_;
  TypedBufferBuilder<int32_t> offsets_;
};

/// extension<...>: wraps the builder of the storage type. Values are appended to
/// `storage_builder()`; `finish` gives the storage array typed with the extension type.
/// length() and null_count() are the storage builder's.
class ExtensionBuilder final : public ArrayBuilder {
 public:
  explicit ExtensionBuilder(TypePtr type, Allocator* allocator = default_allocator());

  ArrayBuilder& storage_builder() { return *storage_; }

  void set_nullable(bool nullable) override;
  void append_null() override { storage_->append_null(); }
  void append_nulls(int64_t count) override { storage_->append_nulls(count); }
  void append_empty_value() override { storage_->append_empty_value(); }
  void append_empty_values(int64_t count) override { storage_->append_empty_values(count); }
  void reserve(int64_t additional) override { storage_->reserve(additional); }
  void reset() override;

 protected:
  void prepare_finish() override;
  ArrayDataPtr finish_impl() override;

 private:
  std::unique_ptr<ArrayBuilder> storage_;
};

}  // namespace bowstring
