#include "bowstring/exec/file_scan.h"

#include <algorithm>
#include <utility>

#include "bowstring/array/array.h"
#include "bowstring/compute/core/datum.h"
#include "bowstring/plan/expression_util.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::exec {
namespace {

using expr::Expression;
using EKind = Expression::Kind;

std::vector<std::string> column_texts(const std::vector<plan::Attribute>& attributes) {
  std::vector<std::string> out;
  for (const plan::Attribute& attribute : attributes) {
    out.push_back(attribute.to_string());
  }
  return out;
}

expr::BoundExpression bind_over(const expr::ExprPtr& condition,
                                const std::vector<plan::Attribute>& attributes,
                                compute::ExecContext& context,
                                const compute::FunctionRegistry& registry) {
  const std::vector<std::string> texts = column_texts(attributes);
  return expr::bind_expression(condition, *plan::internal_schema(attributes), registry, &context,
                               texts);
}

/// The indices of the files whose partition values pass every partition filter.
std::vector<size_t> selected_files(const plan::FileScan& scan, compute::ExecContext& context,
                                   const compute::FunctionRegistry& registry) {
  const io::FileSet& files = scan.relation->files;
  std::vector<size_t> selected;
  if (scan.partition_filters.empty()) {
    for (size_t i = 0; i < files.files.size(); ++i) {
      selected.push_back(i);
    }
    return selected;
  }
  // The partition values, with columns named by the partition attributes' ids.
  std::vector<plan::Attribute> partition_attributes(
      static_cast<size_t>(files.partition_schema->num_fields()));
  for (size_t i = 0; i < scan.attributes.size(); ++i) {
    const int p = scan.relation->partition_index[i];
    if (p >= 0) {
      partition_attributes[static_cast<size_t>(p)] = scan.attributes[i];
    }
  }
  const RecordBatch values(plan::internal_schema(partition_attributes),
                           files.partition_values.num_rows(), files.partition_values.columns());
  const expr::BoundExpression predicate = bind_over(plan::combine_conjuncts(scan.partition_filters),
                                                    partition_attributes, context, registry);
  const Array keep =
      predicate.evaluate(values, context).to_array(values.num_rows(), context.allocator);
  const auto& flags = keep.as<BooleanArray>();
  for (int64_t i = 0; i < flags.length(); ++i) {
    if (!flags.is_null(i) && flags.value(i)) {
      selected.push_back(static_cast<size_t>(i));
    }
  }
  return selected;
}

std::string location_text(const io::FileSet& files) {
  std::string paths;
  for (const std::string& path : files.root_paths) {
    paths += paths.empty() ? "file:" : ", file:";
    paths += path;
  }
  return "InMemoryFileIndex(" + std::to_string(files.root_paths.size()) + " paths)[" + paths + "]";
}

std::string filters_text(const std::vector<expr::ExprPtr>& filters,
                         const std::vector<plan::Attribute>& attributes) {
  std::string out;
  for (const expr::ExprPtr& filter : filters) {
    out += out.empty() ? "" : ", ";
    out += plan::expression_text(filter, attributes);
  }
  return "[" + out + "]";
}

/// The attribute name a plain column reference reads, or nullopt.
std::optional<std::string> column_of(const expr::ExprPtr& expression,
                                     const std::vector<plan::Attribute>& attributes) {
  if (expression->kind() != EKind::kColumn) {
    return std::nullopt;
  }
  const std::optional<plan::AttributeId> id = plan::attribute_of(expression->name());
  for (const plan::Attribute& attribute : attributes) {
    if (id && attribute.id == *id && expression->name() == plan::column_name(*id)) {
      return attribute.name;
    }
  }
  return std::nullopt;
}

std::optional<std::string> literal_of(const expr::ExprPtr& expression) {
  if (expression->kind() != EKind::kLiteral) {
    return std::nullopt;
  }
  return expr::detail::literal_sql(expression->value(), true);
}

}  // namespace

std::optional<std::string> source_filter_text(const expr::ExprPtr& condition,
                                              const std::vector<plan::Attribute>& attributes) {
  const std::vector<expr::ExprPtr>& operands = condition->operands();
  switch (condition->kind()) {
    case EKind::kIsNull:
    case EKind::kIsNotNull: {
      const std::optional<std::string> column = column_of(operands[0], attributes);
      if (!column) {
        return std::nullopt;
      }
      return std::string(condition->kind() == EKind::kIsNull ? "IsNull(" : "IsNotNull(") + *column +
             ")";
    }
    case EKind::kAnd:
    case EKind::kOr: {
      const std::optional<std::string> left = source_filter_text(operands[0], attributes);
      const std::optional<std::string> right = source_filter_text(operands[1], attributes);
      if (!left || !right) {
        return std::nullopt;
      }
      return std::string(condition->kind() == EKind::kAnd ? "And(" : "Or(") + *left + "," + *right +
             ")";
    }
    case EKind::kNot: {
      const std::optional<std::string> inner = source_filter_text(operands[0], attributes);
      return inner ? std::optional("Not(" + *inner + ")") : std::nullopt;
    }
    case EKind::kIn: {
      const std::optional<std::string> column = column_of(operands[0], attributes);
      std::string values;
      for (size_t i = 1; i < operands.size(); ++i) {
        const std::optional<std::string> value = literal_of(operands[i]);
        if (!value) {
          return std::nullopt;
        }
        values += (i > 1 ? "," : "") + *value;
      }
      return column ? std::optional("In(" + *column + ", [" + values + "])") : std::nullopt;
    }
    case EKind::kCall: {
      if (operands.size() != 2) {
        return std::nullopt;
      }
      struct Comparison {
        std::string_view op;
        std::string_view name;
        std::string_view flipped;
      };
      static constexpr Comparison kComparisons[] = {
          {"=", "EqualTo", "EqualTo"},
          {"==", "EqualTo", "EqualTo"},
          {"<=>", "EqualNullSafe", "EqualNullSafe"},
          {">", "GreaterThan", "LessThan"},
          {">=", "GreaterThanOrEqual", "LessThanOrEqual"},
          {"<", "LessThan", "GreaterThan"},
          {"<=", "LessThanOrEqual", "GreaterThanOrEqual"},
          {"startswith", "StringStartsWith", ""},
          {"endswith", "StringEndsWith", ""},
          {"contains", "StringContains", ""},
      };
      const std::string name = expr::detail::ascii_lower(condition->name());
      for (const Comparison& comparison : kComparisons) {
        if (name != comparison.op) {
          continue;
        }
        std::optional<std::string> column = column_of(operands[0], attributes);
        std::optional<std::string> value = literal_of(operands[1]);
        std::string_view filter = comparison.name;
        if ((!column || !value) && !comparison.flipped.empty()) {
          column = column_of(operands[1], attributes);
          value = literal_of(operands[0]);
          filter = comparison.flipped;
        }
        if (!column || !value) {
          return std::nullopt;
        }
        return std::string(filter) + "(" + *column + "," + *value + ")";
      }
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::shared_ptr<const FileScanPlan> plan_file_scan(const plan::LogicalPlan& scan_node,
                                                   compute::ExecContext& context,
                                                   const compute::FunctionRegistry& registry,
                                                   int parallelism) {
  const plan::FileScan& scan = *scan_node.file_scan;
  const io::FileRelation& relation = *scan.relation;
  auto out = std::make_shared<FileScanPlan>();
  out->relation = scan.relation;
  out->schema = plan::internal_schema(scan_node.output);

  const std::vector<size_t> selected = selected_files(scan, context, registry);
  out->files_selected = selected.size();
  std::vector<bool> splittable;
  for (const io::DataFile& file : relation.files.files) {
    splittable.push_back(relation.format->splittable(file));
  }
  io::SplitOptions split_options = relation.split_options;
  split_options.parallelism = std::max(1, parallelism);
  out->splits = io::split_files(relation.files.files, selected, splittable, split_options);

  // The columns read: the output's data columns, then those only the filters read.
  auto index_of = [&](plan::AttributeId id) {
    for (size_t i = 0; i < scan.attributes.size(); ++i) {
      if (scan.attributes[i].id == id) {
        return i;
      }
    }
    throw InvalidArgument("a file scan outputs a column it does not have: #" + std::to_string(id));
  };
  std::vector<plan::Attribute> read_attributes;
  auto read_position = [&](size_t attribute) {
    const int data = relation.data_index[attribute];
    for (size_t i = 0; i < out->data_columns.size(); ++i) {
      if (out->data_columns[i] == data) {
        return static_cast<int>(i);
      }
    }
    out->data_columns.push_back(data);
    read_attributes.push_back(scan.attributes[attribute]);
    return static_cast<int>(out->data_columns.size() - 1);
  };
  for (const plan::Attribute& attribute : scan_node.output) {
    const size_t i = index_of(attribute.id);
    const int partition = relation.partition_index[i];
    out->output_sources.push_back(partition >= 0 ? -1 - partition : read_position(i));
  }
  for (const expr::ExprPtr& filter : scan.data_filters) {
    for (plan::AttributeId id : plan::referenced_attributes(filter)) {
      read_position(index_of(id));
    }
  }
  if (!scan.data_filters.empty()) {
    out->filter =
        bind_over(plan::combine_conjuncts(scan.data_filters), read_attributes, context, registry);
  }
  return out;
}

std::vector<RecordBatch> read_file_split(const FileScanPlan& scan, size_t index, int64_t batch_rows,
                                         compute::ExecContext& context) {
  const io::FileSplit& split = scan.splits.at(index);
  const io::FileRelation& relation = *scan.relation;
  io::SplitRead read;
  read.file = &relation.files.files[split.file];
  read.split = split;
  read.data_schema = relation.data_schema;
  read.columns = scan.data_columns;
  read.filter = scan.filter ? &*scan.filter : nullptr;
  read.batch_rows = batch_rows;
  read.context = &context;
  const std::vector<RecordBatch> batches = relation.format->read(read);
  const RecordBatch& partition_values = relation.files.partition_values;
  std::vector<RecordBatch> out;
  for (const RecordBatch& batch : batches) {
    if (batch.num_rows() == 0) {
      continue;
    }
    std::vector<Array> columns;
    for (int source : scan.output_sources) {
      if (source >= 0) {
        columns.push_back(batch.column(source));
      } else {
        const Array& values = partition_values.column(-1 - source);
        columns.push_back(compute::Datum::scalar(values.slice(static_cast<int64_t>(split.file), 1))
                              .to_array(batch.num_rows(), context.allocator));
      }
    }
    out.emplace_back(scan.schema, batch.num_rows(), std::move(columns));
  }
  return out;
}

std::string file_scan_description(const plan::LogicalPlan& scan_node) {
  const plan::FileScan& scan = *scan_node.file_scan;
  const io::FileRelation& relation = *scan.relation;
  std::string columns;
  for (const plan::Attribute& attribute : scan_node.output) {
    columns += columns.empty() ? "" : ",";
    columns += attribute.to_string();
  }
  std::string pushed;
  for (const expr::ExprPtr& filter : scan.data_filters) {
    for (const expr::ExprPtr& conjunct : plan::split_conjuncts(filter)) {
      if (const std::optional<std::string> text = source_filter_text(conjunct, scan.attributes)) {
        pushed += pushed.empty() ? "" : ", ";
        pushed += *text;
      }
    }
  }
  FieldVector read_fields;
  for (const plan::Attribute& attribute : scan_node.output) {
    for (size_t i = 0; i < scan.attributes.size(); ++i) {
      if (scan.attributes[i].id == attribute.id && relation.data_index[i] >= 0) {
        read_fields.push_back(attribute.field());
      }
    }
  }
  return "FileScan " + std::string(relation.format->name()) + " [" + columns +
         "] Batched: false, DataFilters: " + filters_text(scan.data_filters, scan.attributes) +
         ", Format: " + std::string(relation.format->display_name()) +
         ", Location: " + location_text(relation.files) +
         ", PartitionFilters: " + filters_text(scan.partition_filters, scan.attributes) +
         ", PushedFilters: [" + pushed +
         "], ReadSchema: " + spark_simple_string(*struct_(std::move(read_fields)));
}

}  // namespace bowstring::exec
