#include "bowstring/array/builder_union.h"

#include <limits>
#include <string>

#include "bowstring/array/builder_nested.h"

namespace bowstring {

namespace {

TypePtr checked_union_type(TypePtr type, UnionMode mode) {
  const bool dense = mode == UnionMode::kDense;
  return checked_builder_type(std::move(type), dense ? TypeId::kDenseUnion : TypeId::kSparseUnion,
                              dense ? "DenseUnionBuilder" : "SparseUnionBuilder");
}

}  // namespace

UnionBuilder::UnionBuilder(TypePtr type, UnionMode mode, Allocator* allocator)
    : ArrayBuilder(checked_union_type(std::move(type), mode), allocator),
      union_type_(&static_cast<const UnionType&>(*type_)),
      type_codes_(allocator) {
  for (const FieldPtr& field : type_->fields()) {
    children_.push_back(make_field_builder(*field, allocator));
  }
}

void UnionBuilder::throw_no_child(int i) const {
  throw IndexError("union child index " + std::to_string(i) + " is outside " + type_->to_string());
}

void UnionBuilder::throw_bad_code(int8_t type_code) const {
  std::string codes;
  for (const int8_t code : union_type_->type_codes()) {
    codes += (codes.empty() ? "" : ", ") + std::to_string(code);
  }
  throw InvalidArgument("type code " + std::to_string(type_code) + " is not a code of " +
                        type_->to_string() + " (its codes are " + codes + ")");
}

void UnionBuilder::append_nulls(int64_t count) {
  if (count <= 0) {
    if (count < 0) {
      throw InvalidArgument("cannot append a negative number of nulls: " + std::to_string(count));
    }
    return;
  }
  check_nulls_allowed(count);
  for (int i = 0; i < num_children(); ++i) {
    if (children_[static_cast<size_t>(i)]->nullable()) {
      append_slots(i, count, true);
      return;
    }
  }
  throw InvalidArgument("cannot append a null to a " + type_->to_string() +
                        " builder: none of its children is nullable");
}

void UnionBuilder::append_empty_values(int64_t count) {
  if (children_.empty()) {
    throw InvalidArgument("a union without children holds no values");
  }
  append_slots(0, count, false);
}

void UnionBuilder::reserve(int64_t additional) { type_codes_.reserve(additional); }

void UnionBuilder::reset() {
  ArrayBuilder::reset();
  type_codes_.reset();
  for (const std::unique_ptr<ArrayBuilder>& child : children_) {
    child->reset();
  }
}

// --- DenseUnionBuilder --------------------------------------------------------------------

DenseUnionBuilder::DenseUnionBuilder(TypePtr type, Allocator* allocator)
    : UnionBuilder(std::move(type), UnionMode::kDense, allocator), offsets_(allocator) {}

int32_t DenseUnionBuilder::checked_offset(int64_t offset) const {
  if (offset > std::numeric_limits<int32_t>::max()) [[unlikely]] {
    throw InvalidArgument("a child of a " + type_->to_string() + " builder has " +
                          std::to_string(offset) +
                          " values, more than its int32 offsets can address");
  }
  return static_cast<int32_t>(offset);
}

void DenseUnionBuilder::append_slots(int child, int64_t count, bool null) {
  ArrayBuilder& builder = *children_[static_cast<size_t>(child)];
  const int64_t start = builder.length();
  checked_offset(start + count - 1);
  if (null) {
    builder.append_nulls(count);
  } else {
    builder.append_empty_values(count);
  }
  offsets_.reserve(count);
  for (int64_t i = 0; i < count; ++i) {
    offsets_.unsafe_append(static_cast<int32_t>(start + i));
  }
  type_codes_.append_fill(count, union_type_->type_codes()[static_cast<size_t>(child)]);
  length_ += count;
}

void DenseUnionBuilder::reserve(int64_t additional) {
  UnionBuilder::reserve(additional);
  offsets_.reserve(additional);
}

void DenseUnionBuilder::reset() {
  UnionBuilder::reset();
  offsets_.reset();
}

void DenseUnionBuilder::prepare_finish() {
  std::vector<int64_t> selected(children_.size(), 0);
  for (int64_t i = 0; i < type_codes_.length(); ++i) {
    ++selected[static_cast<size_t>(union_type_->child_index(type_codes_[i]))];
  }
  for (int i = 0; i < num_children(); ++i) {
    const int64_t child_length = children_[static_cast<size_t>(i)]->length();
    if (child_length != selected[static_cast<size_t>(i)]) {
      throw InvalidArgument("child '" + type_->field(i)->name() + "' (type code " +
                            std::to_string(union_type_->type_codes()[static_cast<size_t>(i)]) +
                            ") of a " + type_->to_string() + " builder has " +
                            std::to_string(child_length) + " values but " +
                            std::to_string(selected[static_cast<size_t>(i)]) +
                            " slots select it: append one value per slot");
    }
  }
  for (const std::unique_ptr<ArrayBuilder>& child : children_) {
    prepare_child(*child);
  }
}

ArrayDataPtr DenseUnionBuilder::finish_impl() {
  std::vector<ArrayDataPtr> children;
  for (const std::unique_ptr<ArrayBuilder>& child : children_) {
    children.push_back(finish_child(*child));
  }
  std::shared_ptr<Buffer> type_codes = type_codes_.finish();
  return std::make_shared<ArrayData>(
      type_, length_,
      std::vector<std::shared_ptr<Buffer>>{nullptr, std::move(type_codes), offsets_.finish()}, 0, 0,
      std::move(children));
}

// --- SparseUnionBuilder -------------------------------------------------------------------

SparseUnionBuilder::SparseUnionBuilder(TypePtr type, Allocator* allocator)
    : UnionBuilder(std::move(type), UnionMode::kSparse, allocator) {}

ArrayBuilder& SparseUnionBuilder::append(int8_t type_code) {
  const int child = child_index(type_code);
  for (int i = 0; i < num_children(); ++i) {
    if (i != child) {
      children_[static_cast<size_t>(i)]->append_empty_value();
    }
  }
  type_codes_.append(type_code);
  ++length_;
  return *children_[static_cast<size_t>(child)];
}

void SparseUnionBuilder::append_slots(int child, int64_t count, bool null) {
  for (int i = 0; i < num_children(); ++i) {
    ArrayBuilder& builder = *children_[static_cast<size_t>(i)];
    if (i == child && null) {
      builder.append_nulls(count);
    } else {
      builder.append_empty_values(count);
    }
  }
  type_codes_.append_fill(count, union_type_->type_codes()[static_cast<size_t>(child)]);
  length_ += count;
}

void SparseUnionBuilder::prepare_finish() {
  for (int i = 0; i < num_children(); ++i) {
    const int64_t child_length = children_[static_cast<size_t>(i)]->length();
    if (child_length != length_) {
      throw InvalidArgument("child '" + type_->field(i)->name() + "' (type code " +
                            std::to_string(union_type_->type_codes()[static_cast<size_t>(i)]) +
                            ") of a " + type_->to_string() + " builder has " +
                            std::to_string(child_length) + " values but the union has " +
                            std::to_string(length_) +
                            " slots: append one value to the selected child per slot");
    }
  }
  for (const std::unique_ptr<ArrayBuilder>& child : children_) {
    prepare_child(*child);
  }
}

ArrayDataPtr SparseUnionBuilder::finish_impl() {
  std::vector<ArrayDataPtr> children;
  for (const std::unique_ptr<ArrayBuilder>& child : children_) {
    children.push_back(finish_child(*child));
  }
  return std::make_shared<ArrayData>(
      type_, length_, std::vector<std::shared_ptr<Buffer>>{nullptr, type_codes_.finish()}, 0, 0,
      std::move(children));
}

}  // namespace bowstring
