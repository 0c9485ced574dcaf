#pragma once

// A reader of Apache Arrow's JSON integration format: the human-readable form in which Arrow's
// cross-implementation tests describe a schema, its dictionaries and its record batches. Its
// gold files (arrow-testing's data/arrow-ipc-stream/integration) pair each case's JSON with the
// IPC stream and file that Arrow wrote for it, which makes the JSON the reference our IPC reader
// is checked against.
//
// A document looks like
//   {"schema": {"fields": [...], "metadata": [{"key": ..., "value": ...}]},
//    "dictionaries": [{"id": 0, "data": {"count": 3, "columns": [...]}}],
//    "batches": [{"count": 3, "columns": [...]}]}
// where each column gives its "count" and the buffers of its layout as JSON lists ("VALIDITY",
// "OFFSET", "SIZE", "TYPE_ID", "DATA", "VIEWS", "VARIADIC_DATA_BUFFERS") and its "children".
// 64-bit integers and decimals are strings, binary values are hex, dictionary-encoded fields name
// their dictionary by id, and extension types are fields with `ARROW:extension:name` metadata.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/table/record_batch.h"
#include "bowstring/table/schema.h"

namespace bowstring::testing {

/// The content of one integration JSON document.
struct JsonIntegrationData {
  /// Fields with their metadata, and the schema's metadata. A field with `ARROW:extension:name`
  /// metadata has an extension type (of its dictionary type, when it is dictionary-encoded);
  /// the `ARROW:extension:name` and `ARROW:extension:metadata` keys move from the field's
  /// metadata into the type, as the IPC reader does.
  SchemaPtr schema;
  /// The record batches, in order; every dictionary-encoded column refers to its dictionary.
  std::vector<RecordBatch> batches;
  /// The values of each dictionary, by id.
  std::map<int64_t, Array> dictionaries;
};

struct JsonReadOptions {
  /// Check every batch and dictionary with `validate_full`; with false, only the structural
  /// `validate` runs. Some old gold files hold decimal values with more digits than their
  /// precision, which only the full validation rejects (see `gold_file_known_issue`).
  bool validate_full = true;
};

/// Parses a document. Every array is built from the document's buffers as they are written
/// (validity bitmaps, offsets, views and data buffers), then validated. Throws `FormatError`
/// naming the field, column or buffer for anything malformed or inconsistent, and
/// `NotImplemented` for features the format has but this reader does not (delta dictionaries,
/// union-level nulls of old files).
JsonIntegrationData parse_json_integration(std::string_view json,
                                           const JsonReadOptions& options = {});

/// Reads and parses a `.json` file, or a gzip-compressed `.json.gz` one. Throws `IoError` when
/// the file cannot be read; parse errors name the path.
JsonIntegrationData read_json_integration(const std::string& path,
                                          const JsonReadOptions& options = {});

}  // namespace bowstring::testing
