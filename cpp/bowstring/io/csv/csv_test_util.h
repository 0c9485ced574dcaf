// Helpers of the CSV tests: reading text into one batch per column.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bowstring/array/concatenate.h"
#include "bowstring/io/csv/csv_options.h"
#include "bowstring/io/csv/csv_reader.h"
#include "bowstring/table/record_batch.h"

namespace bowstring::io::csv::testing {

/// What a read of `text` gives: its schema and every column concatenated over the batches.
struct ReadResult {
  SchemaPtr schema;
  std::vector<Array> columns;
  int64_t rows = 0;
  int64_t batches = 0;
};

inline ReadResult read_text(std::string_view text, const OptionMap& options,
                            SchemaPtr schema = nullptr,
                            std::optional<std::vector<int>> columns = {}) {
  const std::unique_ptr<RecordBatchReader> reader =
      read_csv_text(text, "test.csv", parse_read_options(options), std::move(schema), columns);
  ReadResult result;
  result.schema = reader->schema();
  std::vector<std::vector<Array>> chunks(static_cast<size_t>(result.schema->num_fields()));
  while (const std::optional<RecordBatch> batch = reader->next()) {
    ++result.batches;
    result.rows += batch->num_rows();
    for (int c = 0; c < batch->num_columns(); ++c) {
      chunks[static_cast<size_t>(c)].push_back(batch->column(c));
    }
  }
  for (size_t c = 0; c < chunks.size(); ++c) {
    result.columns.push_back(chunks[c].empty() ? Array() : concatenate(chunks[c]));
  }
  return result;
}

}  // namespace bowstring::io::csv::testing
