#include "bowstring/io/files/file_relation.h"

#include <algorithm>
#include <utility>

#include "bowstring/expr/expression.h"

namespace bowstring::io {

FileRelationPtr open_file_relation(const std::vector<std::string>& paths, FileFormatPtr format,
                                   const FileSetOptions& options,
                                   const SplitOptions& split_options) {
  auto relation = std::make_shared<FileRelation>();
  relation->split_options = split_options;
  relation->files = list_files(paths, options);
  relation->format = std::move(format);
  const SchemaPtr inferred = relation->format->infer_schema(relation->files.files);
  const Schema& partitions = *relation->files.partition_schema;
  std::vector<std::string> partition_names;
  for (const FieldPtr& field : partitions.fields()) {
    partition_names.push_back(expr::detail::ascii_lower(field->name()));
  }
  FieldVector data_fields;
  FieldVector fields;
  for (const FieldPtr& field : inferred->fields()) {
    if (std::find(partition_names.begin(), partition_names.end(),
                  expr::detail::ascii_lower(field->name())) == partition_names.end()) {
      relation->data_index.push_back(static_cast<int>(data_fields.size()));
      relation->partition_index.push_back(-1);
      data_fields.push_back(field);
      fields.push_back(field);
    }
  }
  for (int p = 0; p < partitions.num_fields(); ++p) {
    relation->data_index.push_back(-1);
    relation->partition_index.push_back(p);
    fields.push_back(partitions.field(p));
  }
  relation->data_schema = schema(std::move(data_fields));
  relation->schema = schema(std::move(fields));
  return relation;
}

}  // namespace bowstring::io
