#include "bowstring/testing/array_testing.h"

#include "bowstring/array/builder_binary.h"

namespace bowstring::testing {

void append_optional_string(ArrayBuilder& builder, const std::optional<std::string>& value) {
  if (!value.has_value()) {
    builder.append_null();
    return;
  }
  switch (builder.type()->id()) {
    case TypeId::kString:
    case TypeId::kBinary:
      builder.as<BaseBinaryBuilder<int32_t>>().append(*value);
      break;
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      builder.as<BaseBinaryBuilder<int64_t>>().append(*value);
      break;
    case TypeId::kStringView:
    case TypeId::kBinaryView:
      builder.as<BinaryViewBuilder>().append(*value);
      break;
    case TypeId::kFixedSizeBinary:
      builder.as<FixedSizeBinaryBuilder>().append(*value);
      break;
    default:
      throw TypeError("cannot append a string to a builder of " + builder.type()->to_string());
  }
}

Array make_string_array(const std::vector<std::optional<std::string>>& values, TypePtr type) {
  std::unique_ptr<ArrayBuilder> builder = make_builder(std::move(type));
  for (const std::optional<std::string>& value : values) {
    append_optional_string(*builder, value);
  }
  return builder->finish();
}

Array make_struct_array(const std::vector<std::pair<std::string, Array>>& fields,
                        const std::vector<bool>& validity) {
  if (fields.empty()) {
    throw InvalidArgument("make_struct_array needs at least one field");
  }
  const int64_t length = fields.front().second.length();
  FieldVector struct_fields;
  std::vector<ArrayDataPtr> children;
  for (const auto& [name, child] : fields) {
    if (child.length() != length) {
      throw InvalidArgument("struct field '" + name + "' has " + std::to_string(child.length()) +
                            " values, expected " + std::to_string(length));
    }
    struct_fields.push_back(field(name, child.type()));
    children.push_back(child.data());
  }
  std::shared_ptr<Buffer> bitmap;
  int64_t null_count = 0;
  if (!validity.empty()) {
    if (static_cast<int64_t>(validity.size()) != length) {
      throw InvalidArgument("struct validity has " + std::to_string(validity.size()) +
                            " entries, expected " + std::to_string(length));
    }
    BitmapBuilder bits;
    for (const bool valid : validity) {
      bits.append(valid);
    }
    null_count = bits.false_count();
    bitmap = null_count > 0 ? bits.finish() : nullptr;
  }
  return Array(std::make_shared<ArrayData>(struct_(std::move(struct_fields)), length,
                                           std::vector<std::shared_ptr<Buffer>>{bitmap}, null_count,
                                           0, std::move(children)));
}

}  // namespace bowstring::testing
