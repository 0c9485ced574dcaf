#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "bowstring/array/builder.h"

namespace bowstring {

/// Dense and sparse unions. `append(type_code)` starts a slot holding a value of the child
/// selected by `type_code`; that one value is then appended to `child_builder(i)` (with
/// `i = child_index(type_code)`). Unions have no validity of their own: a null is a null in a
/// child (the first nullable one), and `null_count()` stays 0 as in the finished ArrayData.
class UnionBuilder : public ArrayBuilder {
 public:
  const UnionType& union_type() const { return *union_type_; }
  int num_children() const { return static_cast<int>(children_.size()); }
  /// The builder of child `i`; throws `IndexError` when there is no such child.
  ArrayBuilder& child_builder(int i) {
    if (i < 0 || i >= num_children()) [[unlikely]] {
      throw_no_child(i);
    }
    return *children_[static_cast<size_t>(i)];
  }
  /// The index of the child selected by `type_code`; throws `InvalidArgument` when the union
  /// type has no such code.
  int child_index(int8_t type_code) const {
    const int child = union_type_->child_index(type_code);
    if (child < 0) [[unlikely]] {
      throw_bad_code(type_code);
    }
    return child;
  }

  /// Starts a slot of the child selected by `type_code`; returns that child's builder, which
  /// must then receive exactly one value.
  virtual ArrayBuilder& append(int8_t type_code) = 0;

  /// A null in the first child whose builder accepts nulls.
  void append_null() final { append_nulls(1); }
  void append_nulls(int64_t count) final;
  /// A placeholder value of the first child.
  void append_empty_value() final { append_empty_values(1); }
  void append_empty_values(int64_t count) final;
  void reserve(int64_t additional) override;
  void reset() override;

 protected:
  UnionBuilder(TypePtr type, UnionMode mode, Allocator* allocator);

  /// Appends `count` slots of child `child`, and a placeholder or null in that child for each.
  virtual void append_slots(int child, int64_t count, bool null) = 0;

  const UnionType* union_type_;
  std::vector<std::unique_ptr<ArrayBuilder>> children_;
  TypedBufferBuilder<int8_t> type_codes_;

 private:
  [[noreturn]] void throw_no_child(int i) const;
  [[noreturn]] void throw_bad_code(int8_t type_code) const;
};

/// dense_union: the slot records the child's type code and the offset of its value in that
/// child. `finish` throws `InvalidArgument` when a child did not receive exactly one value per
/// slot that selected it.
class DenseUnionBuilder final : public UnionBuilder {
 public:
  explicit DenseUnionBuilder(TypePtr type, Allocator* allocator = default_allocator());

  ArrayBuilder& append(int8_t type_code) override {
    const int child = child_index(type_code);
    ArrayBuilder& builder = *children_[static_cast<size_t>(child)];
    offsets_.append(checked_offset(builder.length()));
    type_codes_.append(type_code);
    ++length_;
    return builder;
  }

  void reserve(int64_t additional) override;
  void reset() override;

 protected:
  void append_slots(int child, int64_t count, bool null) override;
  void prepare_finish() override;
  ArrayDataPtr finish_impl() override;

 private:
  int32_t checked_offset(int64_t offset) const;

  TypedBufferBuilder<int32_t> offsets_;
};

/// sparse_union: every child has one value per slot. `append(type_code)` gives the other
/// children a placeholder value by itself, so only the selected child receives a value from
/// the caller. `finish` throws `InvalidArgument` when a child's length differs from the union's.
class SparseUnionBuilder final : public UnionBuilder {
 public:
  explicit SparseUnionBuilder(TypePtr type, Allocator* allocator = default_allocator());

  ArrayBuilder& append(int8_t type_code) override;

 protected:
  void append_slots(int child, int64_t count, bool null) override;
  void prepare_finish() override;
  ArrayDataPtr finish_impl() override;
};

}  // namespace bowstring
