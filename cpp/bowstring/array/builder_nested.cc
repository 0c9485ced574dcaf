#include "bowstring/array/builder_nested.h"

#include <string>

namespace bowstring {

void throw_list_overflow(const DataType& type, int64_t child_length) {
  throw InvalidArgument("a " + type.to_string() + " builder cannot address its " +
                        std::to_string(child_length) + " values with int32 offsets (at most " +
                        std::to_string(std::numeric_limits<int32_t>::max()) +
                        "); use the large list type");
}

std::unique_ptr<ArrayBuilder> make_field_builder(const Field& field, Allocator* allocator) {
  std::unique_ptr<ArrayBuilder> builder = make_builder(field.type(), allocator);
  if (!field.nullable()) {
    builder->set_nullable(false);
  }
  return builder;
}

namespace {

/// `builder`'s type must be `expected`: the child builders a caller hands to a nested builder
/// must build what the nested type says.
void check_child_builder(const ArrayBuilder& builder, const TypePtr& expected,
                         const std::string& what) {
  if (!builder.type()->equals(*expected)) {
    throw TypeError(what + " must build " + expected->to_string() + ", not " +
                    builder.type()->to_string());
  }
}

/// The type of a list builder given its value builder: `type` when given (checked to be a list
/// type with id `id`), else the list type of the value builder's type.
TypePtr list_builder_type(const ArrayBuilder* value_builder, TypePtr type, TypeId id,
                          const char* name) {
  if (value_builder == nullptr) {
    throw InvalidArgument(std::string(name) + " needs a value builder");
  }
  if (type != nullptr) {
    return checked_builder_type(std::move(type), id, name);
  }
  return list_of_kind(id, value_builder->type());
}

}  // namespace

// --- BaseListBuilder ----------------------------------------------------------------------

template <typename Offset, bool kView>
BaseListBuilder<Offset, kView>::BaseListBuilder(TypePtr type, TypeId id, const char* name,
                                                Allocator* allocator)
    : ArrayBuilder(checked_builder_type(std::move(type), id, name), allocator),
      values_(make_field_builder(*type_->field(0), allocator)),
      offsets_(allocator),
      sizes_(allocator) {}

template <typename Offset, bool kView>
BaseListBuilder<Offset, kView>::BaseListBuilder(std::unique_ptr<ArrayBuilder> value_builder,
                                                TypePtr type, TypeId id, const char* name,
                                                Allocator* allocator)
    : ArrayBuilder(list_builder_type(value_builder.get(), std::move(type), id, name), allocator),
      values_(std::move(value_builder)),
      offsets_(allocator),
      sizes_(allocator) {
  check_child_builder(*values_, type_->field(0)->type(),
                      std::string("the value builder of ") + name);
  if (!type_->field(0)->nullable()) {
    values_->set_nullable(false);
  }
}

template <typename Offset, bool kView>
void BaseListBuilder<Offset, kView>::reset() {
  ArrayBuilder::reset();
  offsets_.reset();
  sizes_.reset();
  values_->reset();
}

template <typename Offset, bool kView>
void BaseListBuilder<Offset, kView>::prepare_finish() {
  next_offset();  // throws when the values are past what the offsets address
  if constexpr (kView) {
    sizes_.reserve(offsets_.length());
  } else {
    offsets_.reserve(1);
  }
  prepare_child(*values_);
}

template <typename Offset, bool kView>
ArrayDataPtr BaseListBuilder<Offset, kView>::finish_impl() {
  const Offset end = next_offset();
  std::shared_ptr<Buffer> validity = finish_validity();
  std::vector<std::shared_ptr<Buffer>> buffers;
  if constexpr (kView) {
    // Each list's size is the distance to where the next one starts.
    for (int64_t i = 0; i < offsets_.length(); ++i) {
      const Offset next = i + 1 < offsets_.length() ? offsets_[i + 1] : end;
      sizes_.unsafe_append(static_cast<Offset>(next - offsets_[i]));
    }
    buffers = {std::move(validity), offsets_.finish(), sizes_.finish()};
  } else {
    offsets_.unsafe_append(end);
    buffers = {std::move(validity), offsets_.finish()};
  }
  return std::make_shared<ArrayData>(type_, length_, std::move(buffers), null_count_, 0,
                                     std::vector<ArrayDataPtr>{finish_child(*values_)});
}

template class BaseListBuilder<int32_t, false>;
template class BaseListBuilder<int64_t, false>;
template class BaseListBuilder<int32_t, true>;
template class BaseListBuilder<int64_t, true>;

// --- FixedSizeListBuilder -----------------------------------------------------------------

FixedSizeListBuilder::FixedSizeListBuilder(TypePtr type, Allocator* allocator)
    : ArrayBuilder(
          checked_builder_type(std::move(type), TypeId::kFixedSizeList, "FixedSizeListBuilder"),
          allocator),
      list_size_(static_cast<const FixedSizeListType&>(*type_).list_size()),
      values_(make_field_builder(*type_->field(0), allocator)) {}

void FixedSizeListBuilder::append_null() { append_nulls(1); }

void FixedSizeListBuilder::append_nulls(int64_t count) {
  append_null_slots(count);
  values_->append_empty_values(count * list_size_);
}

void FixedSizeListBuilder::append_empty_value() { append_empty_values(1); }

void FixedSizeListBuilder::append_empty_values(int64_t count) {
  values_->append_empty_values(count * list_size_);
  append_valid(count);
}

void FixedSizeListBuilder::reset() {
  ArrayBuilder::reset();
  values_->reset();
}

void FixedSizeListBuilder::prepare_finish() {
  const int64_t expected = length_ * list_size_;
  if (values_->length() != expected) {
    throw InvalidArgument("a " + type_->to_string() + " builder of " + std::to_string(length_) +
                          " lists needs " + std::to_string(expected) +
                          " values, but its value builder has " +
                          std::to_string(values_->length()));
  }
  prepare_child(*values_);
}

ArrayDataPtr FixedSizeListBuilder::finish_impl() {
  std::shared_ptr<Buffer> validity = finish_validity();
  return std::make_shared<ArrayData>(
      type_, length_, std::vector<std::shared_ptr<Buffer>>{std::move(validity)}, null_count_, 0,
      std::vector<ArrayDataPtr>{finish_child(*values_)});
}

// --- StructBuilder ------------------------------------------------------------------------

StructBuilder::StructBuilder(TypePtr type, Allocator* allocator)
    : ArrayBuilder(checked_builder_type(std::move(type), TypeId::kStruct, "StructBuilder"),
                   allocator) {
  for (const FieldPtr& field : type_->fields()) {
    fields_.push_back(make_field_builder(*field, allocator));
  }
}

StructBuilder::StructBuilder(TypePtr type,
                             std::vector<std::unique_ptr<ArrayBuilder>> field_builders,
                             Allocator* allocator)
    : ArrayBuilder(checked_builder_type(std::move(type), TypeId::kStruct, "StructBuilder"),
                   allocator),
      fields_(std::move(field_builders)) {
  if (static_cast<int>(fields_.size()) != type_->num_fields()) {
    throw InvalidArgument(type_->to_string() + " has " + std::to_string(type_->num_fields()) +
                          " fields but " + std::to_string(fields_.size()) +
                          " field builders were given");
  }
  for (int i = 0; i < num_fields(); ++i) {
    const ArrayBuilder* builder = fields_[static_cast<size_t>(i)].get();
    if (builder == nullptr) {
      throw InvalidArgument("the builder of struct field " + std::to_string(i) + " is null");
    }
    const Field& field = *type_->field(i);
    check_child_builder(*builder, field.type(),
                        "the builder of struct field '" + field.name() + "'");
    if (!field.nullable()) {
      fields_[static_cast<size_t>(i)]->set_nullable(false);
    }
  }
}

void StructBuilder::throw_no_field(int i) const {
  throw IndexError("struct field index " + std::to_string(i) + " is outside " + type_->to_string());
}

void StructBuilder::append_null() { append_nulls(1); }

void StructBuilder::append_nulls(int64_t count) {
  append_null_slots(count);
  for (const std::unique_ptr<ArrayBuilder>& field : fields_) {
    if (field->nullable()) {
      field->append_nulls(count);
    } else {
      field->append_empty_values(count);
    }
  }
}

void StructBuilder::append_empty_value() { append_empty_values(1); }

void StructBuilder::append_empty_values(int64_t count) {
  for (const std::unique_ptr<ArrayBuilder>& field : fields_) {
    field->append_empty_values(count);
  }
  append_valid(count);
}

void StructBuilder::reset() {
  ArrayBuilder::reset();
  for (const std::unique_ptr<ArrayBuilder>& field : fields_) {
    field->reset();
  }
}

void StructBuilder::prepare_finish() {
  for (int i = 0; i < num_fields(); ++i) {
    const int64_t field_length = fields_[static_cast<size_t>(i)]->length();
    if (field_length != length_) {
      throw InvalidArgument("struct field '" + type_->field(i)->name() + "' (index " +
                            std::to_string(i) + ") has " + std::to_string(field_length) +
                            " values but the struct has " + std::to_string(length_) +
                            " rows: append one value to every field per row");
    }
  }
  for (const std::unique_ptr<ArrayBuilder>& field : fields_) {
    prepare_child(*field);
  }
}

ArrayDataPtr StructBuilder::finish_impl() {
  std::vector<ArrayDataPtr> children;
  children.reserve(fields_.size());
  for (const std::unique_ptr<ArrayBuilder>& field : fields_) {
    children.push_back(finish_child(*field));
  }
  std::shared_ptr<Buffer> validity = finish_validity();
  return std::make_shared<ArrayData>(type_, length_,
                                     std::vector<std::shared_ptr<Buffer>>{std::move(validity)},
                                     null_count_, 0, std::move(children));
}

// --- MapBuilder ---------------------------------------------------------------------------

MapBuilder::MapBuilder(TypePtr type, Allocator* allocator)
    : ArrayBuilder(checked_builder_type(std::move(type), TypeId::kMap, "MapBuilder"), allocator),
      keys_(make_builder(static_cast<const MapType&>(*type_).key_type(), allocator)),
      items_(make_field_builder(*static_cast<const MapType&>(*type_).item_field(), allocator)),
      offsets_(allocator) {
  keys_->set_nullable(false);
}

int32_t MapBuilder::next_offset() const {
  const int64_t keys = keys_->length();
  if (keys != items_->length()) [[unlikely]] {
    throw InvalidArgument("the maps of a " + type_->to_string() + " builder have " +
                          std::to_string(keys) + " keys but " + std::to_string(items_->length()) +
                          " items: append one item per key");
  }
  if (keys > std::numeric_limits<int32_t>::max()) [[unlikely]] {
    throw_list_overflow(*type_, keys);
  }
  return static_cast<int32_t>(keys);
}

void MapBuilder::append_null() {
  append_null_slots(1);
  offsets_.append(next_offset());
}

void MapBuilder::append_nulls(int64_t count) {
  append_null_slots(count);
  offsets_.append_fill(count, next_offset());
}

void MapBuilder::append_empty_values(int64_t count) {
  offsets_.append_fill(count, next_offset());
  append_valid(count);
}

void MapBuilder::reserve(int64_t additional) {
  offsets_.reserve(additional);
  reserve_validity(additional);
}

void MapBuilder::reset() {
  ArrayBuilder::reset();
  offsets_.reset();
  keys_->reset();
  items_->reset();
}

void MapBuilder::prepare_finish() {
  next_offset();  // throws when keys and items disagree or overflow the offsets
  offsets_.reserve(1);
  prepare_child(*keys_);
  prepare_child(*items_);
}

ArrayDataPtr MapBuilder::finish_impl() {
  const int32_t end = next_offset();
  offsets_.unsafe_append(end);
  std::shared_ptr<Buffer> validity = finish_validity();
  std::shared_ptr<Buffer> offsets = offsets_.finish();
  ArrayDataPtr keys = finish_child(*keys_);
  ArrayDataPtr items = finish_child(*items_);
  auto entries =
      std::make_shared<ArrayData>(static_cast<const MapType&>(*type_).entries_field()->type(), end,
                                  std::vector<std::shared_ptr<Buffer>>{nullptr}, 0, 0,
                                  std::vector<ArrayDataPtr>{std::move(keys), std::move(items)});
  return std::make_shared<ArrayData>(
      type_, length_, std::vector<std::shared_ptr<Buffer>>{std::move(validity), std::move(offsets)},
      null_count_, 0, std::vector<ArrayDataPtr>{std::move(entries)});
}

// --- ExtensionBuilder ---------------------------------------------------------------------

ExtensionBuilder::ExtensionBuilder(TypePtr type, Allocator* allocator)
    : ArrayBuilder(checked_builder_type(std::move(type), TypeId::kExtension, "ExtensionBuilder"),
                   allocator),
      storage_(make_builder(static_cast<const ExtensionType&>(*type_).storage_type(), allocator)) {
  share_counts_of(*storage_);
}

void ExtensionBuilder::set_nullable(bool nullable) {
  ArrayBuilder::set_nullable(nullable);
  storage_->set_nullable(nullable);
}

void ExtensionBuilder::reset() {
  ArrayBuilder::reset();
  storage_->reset();
}

void ExtensionBuilder::prepare_finish() { prepare_child(*storage_); }

ArrayDataPtr ExtensionBuilder::finish_impl() {
  auto data = std::make_shared<ArrayData>(*finish_child(*storage_));
  data->type = type_;
  return data;
}

}  // namespace bowstring
