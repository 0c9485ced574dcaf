#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/compute/core/exec_context.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/expr/bind.h"
#include "bowstring/io/files/file_relation.h"
#include "bowstring/plan/logical_plan.h"

namespace bowstring::exec {

/// A planned scan of files: the splits to read (of the files its partition filters keep) and
/// how each batch read becomes a batch of the scan's output.
struct FileScanPlan {
  io::FileRelationPtr relation;
  std::vector<io::FileSplit> splits;
  /// Files kept by the partition filters, of all the relation's.
  size_t files_selected = 0;
  /// Columns of the files read (indices into `relation->data_schema`): the output's, then
  /// those only the data filters read.
  std::vector<int> data_columns;
  /// The data filters, bound to the columns read.
  std::optional<expr::BoundExpression> filter;
  /// Per output column: its index among `data_columns`, or -1 - its partition column index.
  std::vector<int> output_sources;
  /// The output's batches' schema (columns named by attribute id).
  SchemaPtr schema;
};

/// Plans the scan `scan` (a resolved kFileScan node): evaluates its partition filters on the
/// partition values of its files, without opening any, and splits the files kept over
/// `parallelism` threads.
std::shared_ptr<const FileScanPlan> plan_file_scan(const plan::LogicalPlan& scan,
                                                   compute::ExecContext& context,
                                                   const compute::FunctionRegistry& registry,
                                                   int parallelism);

/// The rows of split `index` of `scan` as batches of the scan's output, at most `batch_rows`
/// rows each: the format's batches (only rows passing the data filters) with the file's
/// partition values appended.
std::vector<RecordBatch> read_file_split(const FileScanPlan& scan, size_t index, int64_t batch_rows,
                                         compute::ExecContext& context);

/// The line Spark's explain prints for the scan: "FileScan csv [a#0,day#1] Batched: false,
/// DataFilters: [...], Format: CSV, Location: InMemoryFileIndex(1 paths)[file:/data],
/// PartitionFilters: [...], PushedFilters: [...], ReadSchema: struct<a:int>".
std::string file_scan_description(const plan::LogicalPlan& scan);

/// A data filter as Spark names the source filter it pushes ("GreaterThan(a,1)",
/// "IsNotNull(b)", "In(c, [1,2])"), or nullopt for a condition Spark pushes no filter for.
std::optional<std::string> source_filter_text(const expr::ExprPtr& condition,
                                              const std::vector<plan::Attribute>& attributes);

}  // namespace bowstring::exec
