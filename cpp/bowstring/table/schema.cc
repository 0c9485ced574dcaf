#include "bowstring/table/schema.h"

#include "bowstring/util/error.h"

namespace bowstring {

Schema::Schema(FieldVector fields, Metadata metadata)
    : fields_(std::move(fields)), metadata_(std::move(metadata)) {
  by_name_.reserve(fields_.size());
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i] == nullptr) {
      throw InvalidArgument("schema field " + std::to_string(i) + " is null");
    }
    const auto [entry, inserted] = by_name_.emplace(fields_[i]->name(), static_cast<int>(i));
    if (!inserted) {
      entry->second = kDuplicateName;
    }
  }
}

void Schema::check_field_index(int i) const {
  if (i < 0 || i >= num_fields()) {
    throw IndexError("field index " + std::to_string(i) + " is outside a schema of " +
                     std::to_string(num_fields()) + " fields (" + describe_names() + ")");
  }
}

const FieldPtr& Schema::field(int i) const {
  check_field_index(i);
  return fields_[static_cast<size_t>(i)];
}

int Schema::field_index(std::string_view name) const {
  const auto found = by_name_.find(name);
  if (found == by_name_.end()) {
    throw InvalidArgument("no field named '" + std::string(name) + "' in the schema; fields are " +
                          describe_names());
  }
  if (found->second == kDuplicateName) {
    std::string positions;
    for (const int i : field_indices(name)) {
      positions += positions.empty() ? "" : ", ";
      positions += std::to_string(i);
    }
    throw InvalidArgument("field name '" + std::string(name) +
                          "' is ambiguous: the schema has several fields of that name (at " +
                          positions + ")");
  }
  return found->second;
}

std::vector<int> Schema::field_indices(std::string_view name) const {
  std::vector<int> indices;
  for (int i = 0; i < num_fields(); ++i) {
    if (fields_[static_cast<size_t>(i)]->name() == name) {
      indices.push_back(i);
    }
  }
  return indices;
}

std::vector<std::string> Schema::field_names() const {
  std::vector<std::string> names;
  names.reserve(fields_.size());
  for (const FieldPtr& field : fields_) {
    names.push_back(field->name());
  }
  return names;
}

std::string Schema::describe_names() const {
  if (fields_.empty()) {
    return "none";
  }
  static constexpr size_t kMaxNames = 50;
  std::string out;
  for (size_t i = 0; i < fields_.size() && i < kMaxNames; ++i) {
    out += i > 0 ? ", '" : "'";
    out += fields_[i]->name();
    out += '\'';
  }
  if (fields_.size() > kMaxNames) {
    out += " and " + std::to_string(fields_.size() - kMaxNames) + " more";
  }
  return out;
}

std::string Schema::to_string() const {
  std::string out;
  for (const FieldPtr& field : fields_) {
    if (!out.empty()) {
      out += '\n';
    }
    out += field->to_string();
  }
  if (!metadata_.empty()) {
    out += out.empty() ? "-- metadata --" : "\n-- metadata --";
    for (const auto& [key, value] : metadata_) {
      out += '\n';
      out += key;
      out += ": ";
      out += value;
    }
  }
  return out;
}

bool Schema::equals(const Schema& other, bool check_metadata) const {
  if (this == &other) {
    return true;
  }
  if (fields_.size() != other.fields_.size() || (check_metadata && metadata_ != other.metadata_)) {
    return false;
  }
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!fields_[i]->equals(*other.fields_[i], check_metadata)) {
      return false;
    }
  }
  return true;
}

SchemaPtr Schema::with_metadata(Metadata metadata) const {
  return std::make_shared<Schema>(fields_, std::move(metadata));
}

SchemaPtr Schema::add_field(int i, FieldPtr field) const {
  if (i < 0 || i > num_fields()) {
    throw IndexError("cannot add a field at index " + std::to_string(i) + " of a schema of " +
                     std::to_string(num_fields()) + " fields");
  }
  FieldVector fields = fields_;
  fields.insert(fields.begin() + i, std::move(field));
  return std::make_shared<Schema>(std::move(fields), metadata_);
}

SchemaPtr Schema::remove_field(int i) const {
  check_field_index(i);
  FieldVector fields = fields_;
  fields.erase(fields.begin() + i);
  return std::make_shared<Schema>(std::move(fields), metadata_);
}

SchemaPtr Schema::set_field(int i, FieldPtr field) const {
  check_field_index(i);
  FieldVector fields = fields_;
  fields[static_cast<size_t>(i)] = std::move(field);
  return std::make_shared<Schema>(std::move(fields), metadata_);
}

SchemaPtr schema(FieldVector fields, Metadata metadata) {
  return std::make_shared<Schema>(std::move(fields), std::move(metadata));
}

}  // namespace bowstring
