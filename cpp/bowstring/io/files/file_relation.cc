#include "bowstring/io/files/file_relation.h"

#include <algorithm>
#include <utility>

#include "bowstring/compute/cast/cast.h"
#include "bowstring/expr/expression.h"

namespace bowstring::io {
namespace {

/// The partition columns of `files` cast to the types a user's schema gives them (null: the
/// inferred type stays), as Spark types partition columns a user's schema names.
void retype_partitions(FileSet& files, const std::vector<TypePtr>& types) {
  FieldVector fields = files.partition_schema->fields();
  std::vector<Array> columns = files.partition_values.columns();
  compute::ExecContext context;
  for (size_t p = 0; p < types.size(); ++p) {
    if (types[p] == nullptr || types[p]->equals(*fields[p]->type())) {
      continue;
    }
    columns[p] = compute::cast(compute::Datum(columns[p]), types[p], context).array();
    fields[p] = field(fields[p]->name(), types[p], true);
  }
  files.partition_schema = schema(std::move(fields));
  files.partition_values =
      RecordBatch(files.partition_schema, files.partition_values.num_rows(), std::move(columns));
}

}  // namespace

FileRelationPtr open_file_relation(const std::vector<std::string>& paths, FileFormatPtr format,
                                   const FileSetOptions& options,
                                   const SplitOptions& split_options) {
  auto relation = std::make_shared<FileRelation>();
  relation->split_options = split_options;
  relation->files = list_files(paths, options);
  relation->format = std::move(format);
  const SchemaPtr inferred = relation->format->infer_schema(relation->files.files);
  // Held: retyping replaces the file set's schema.
  const SchemaPtr partition_schema = relation->files.partition_schema;
  const Schema& partitions = *partition_schema;
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
  std::vector<TypePtr> typed_by_user(partition_names.size());
  for (const FieldPtr& field : inferred->fields()) {
    const auto found = std::find(partition_names.begin(), partition_names.end(),
                                 expr::detail::ascii_lower(field->name()));
    const int partition =
        found == partition_names.end() ? -1 : static_cast<int>(found - partition_names.begin());
    if (partition >= 0 && user_schema) {
      typed_by_user[static_cast<size_t>(partition)] = field->type();
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
  retype_partitions(relation->files, typed_by_user);
  for (int p = 0; p < partitions.num_fields(); ++p) {
    if (!placed[static_cast<size_t>(p)]) {
      relation->data_index.push_back(-1);
      relation->partition_index.push_back(p);
      fields.push_back(relation->files.partition_schema->field(p));
    }
  }
  relation->data_schema = schema(std::move(data_fields));
  relation->schema = schema(std::move(fields));
  return relation;
}

}  // namespace bowstring::io
