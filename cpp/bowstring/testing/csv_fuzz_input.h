// The CSV reader fuzz target's input layout and checks, shared with the test that replays
// fuzz/regressions/csv_reader/: the first byte picks options (header, inferSchema, multiLine,
// mode, escape, unescapedQuoteHandling), the second a schema (none, or typed columns with a
// corrupt-record column); the rest is the CSV text.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "bowstring/interchange/io.h"
#include "bowstring/io/csv/csv_reader.h"
#include "bowstring/io/csv/csv_writer.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::testing::csv_fuzz {

using bowstring::io::csv::CsvReadOptions;
using bowstring::io::csv::OptionMap;

inline OptionMap options_of(uint8_t flags) {
  static const char* const modes[] = {"PERMISSIVE", "DROPMALFORMED", "FAILFAST", "PERMISSIVE"};
  static const char* const handlings[] = {"STOP_AT_DELIMITER", "STOP_AT_CLOSING_QUOTE",
                                          "BACK_TO_DELIMITER", "SKIP_VALUE"};
  OptionMap options{{"header", (flags & 1) ? "true" : "false"},
                    {"inferSchema", (flags & 2) ? "true" : "false"},
                    {"multiLine", (flags & 4) ? "true" : "false"},
                    {"mode", modes[(flags >> 3) & 3]},
                    {"unescapedQuoteHandling", handlings[(flags >> 6) & 3]},
                    {"comment", "#"},
                    {"batchRows", "7"},
                    {"escape", (flags & 32) ? "\"" : "\\"}};
  return options;
}

inline bowstring::SchemaPtr schema_of(uint8_t choice) {
  switch (choice % 4) {
    case 1:
      return std::make_shared<const bowstring::Schema>(bowstring::parse_spark_schema(
          "a INT, b DOUBLE, c STRING, d DATE, e TIMESTAMP, _corrupt_record STRING", "UTC"));
    case 2:
      return std::make_shared<const bowstring::Schema>(bowstring::parse_spark_schema(
          "a BIGINT, b DECIMAL(10,2), c BOOLEAN, d TIMESTAMP_NTZ, e FLOAT", "UTC"));
    case 3:
      return std::make_shared<const bowstring::Schema>(
          bowstring::parse_spark_schema("a STRING, b STRING", "UTC"));
    default:
      return nullptr;
  }
}

// Reads `text` whole, checking every batch; writes the batches to `written` when not null.
inline void read_checked(std::string_view text, const CsvReadOptions& options,
                         const bowstring::SchemaPtr& schema, std::string* written) {
  const std::unique_ptr<bowstring::RecordBatchReader> reader =
      bowstring::io::csv::read_csv_text(text, "fuzz.csv", options, schema);
  auto sink = std::make_shared<bowstring::BufferOutputStream>();
  std::unique_ptr<bowstring::io::csv::CsvWriter> writer;
  if (written != nullptr) {
    writer = std::make_unique<bowstring::io::csv::CsvWriter>(sink, reader->schema(),
                                                             bowstring::io::csv::CsvWriteOptions{});
  }
  while (const std::optional<bowstring::RecordBatch> batch = reader->next()) {
    batch->validate_full();
    if (batch->num_rows() > options.batch_rows) {
      std::abort();
    }
    if (writer != nullptr) {
      writer->write(*batch);
    }
  }
  if (writer != nullptr) {
    writer->close();
    const std::shared_ptr<bowstring::Buffer> bytes = sink->finish();
    *written = std::string(reinterpret_cast<const char*>(bytes->data()),
                           static_cast<size_t>(bytes->size()));
  }
}

/// Runs one fuzz input: it must read into valid batches or, in FAILFAST mode only, throw
/// FormatError (anything else escapes or aborts); what was read is written, and the written
/// text must read again.
inline void run(const uint8_t* bytes, size_t size) {
  if (size < 2) {
    return;
  }
  const CsvReadOptions options = bowstring::io::csv::parse_read_options(options_of(bytes[0]));
  const bowstring::SchemaPtr schema = schema_of(bytes[1]);
  const std::string_view text(reinterpret_cast<const char*>(bytes) + 2, size - 2);
  std::string written;
  try {
    read_checked(text, options, schema, &written);
  } catch (const bowstring::FormatError&) {
    if (options.mode != bowstring::io::csv::ParseMode::kFailFast) {
      std::abort();
    }
    return;
  }
  // Written values may hold line breaks: the text is read back as multi-line CSV.
  const CsvReadOptions again = bowstring::io::csv::parse_read_options({{"multiLine", "true"}});
  read_checked(written, again, nullptr, nullptr);
}

}  // namespace bowstring::testing::csv_fuzz
