#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "bowstring/exec/executor.h"
#include "bowstring/plan/analyzer.h"
#include "bowstring/plan/optimizer.h"
#include "bowstring/table/table.h"

namespace bowstring::exec::testing {

/// Runs an unresolved plan the whole way: analysis, optimization, physical planning, execution.
inline Table run_query(const plan::PlanPtr& plan, const QueryOptions& options = {},
                       compute::ExecContext context = {}) {
  const plan::PlanPtr optimized = plan::optimize(plan::analyze(plan));
  const PhysicalPtr physical = plan_physical(optimized, context);
  return execute(physical, context, options);
}

/// The rows of `table`, each as "v1, v2, ..." (values as arrays print them), in order.
inline std::vector<std::string> rows_of(const Table& table) {
  std::vector<std::string> rows(static_cast<size_t>(table.num_rows()));
  for (const ChunkedArray& column : table.columns()) {
    int64_t row = 0;
    for (const Array& chunk : column.chunks()) {
      for (int64_t i = 0; i < chunk.length(); ++i, ++row) {
        std::string text = chunk.slice(i, 1).to_string();
        // "[x]" without the brackets.
        text = text.substr(1, text.size() - 2);
        std::string& out = rows[static_cast<size_t>(row)];
        out += (out.empty() ? "" : ", ") + text;
      }
    }
  }
  return rows;
}

/// `rows_of`, sorted: for results whose order the query does not fix.
inline std::vector<std::string> sorted_rows_of(const Table& table) {
  std::vector<std::string> rows = rows_of(table);
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace bowstring::exec::testing
