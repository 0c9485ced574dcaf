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
  // As Spark's DataSource: a user's schema names the partition columns beside the files'
  // columns, which are the others; a column the files hold under a partition column's name
  // keeps its place (the files are read by position) but takes the partition's values.
  const bool user_schema = relation->format->user_schema();
  FieldVector data_fields;
  FieldVector fields;
  std::vector<bool> placed(partition_names.size(), false);
  for (const FieldPtr& field : inferred->fields()) {
    const auto found = std::find(partition_names.begin(), partition_names.end(),
                                 expr::detail::ascii_lower(field->name()));
    const int partition =
        found == partition_names.end() ? -1 : static_cast<int>(found - partition_names.begin());
    if (partition >= 0 && user_schema) {
      continue;
    }
    if (partition >= 0) {
      relation->data_index.push_back(-1);
      relation->partition_index.push_back(partition);
      fields.push_back(partitions.field(partition));
      placed[static_cast<size_t>(partition)] = true;
    } else {
      relation->data_index.push_back(static_cast<int>(data_fields.size()));
      relation->partition_index.push_back(-1);
      fields.push_back(field);
    }
    data_fields.push_back(field);
  }
  for (int p = 0; p < partitions.num_fields(); ++p) {
    if (!placed[static_cast<size_t>(p)]) {
      relation->data_index.push_back(-1);
      relation->partition_index.push_back(p);
      fields.push_back(partitions.field(p));
    }
  }
  relation->data_schema = schema(std::move(data_fields));
  relation->schema = schema(std::move(fields));
  return relation;
}

}  // namespace bowstring::io
