#pragma once

#include "bowstring/io/csv/csv_options.h"
#include "bowstring/io/files/file_format.h"

namespace bowstring::io::csv {

/// CSV as a file format of scans and writes: Spark's CSV reader and writer options.
class CsvFormat final : public FileFormat {
 public:
  /// `schema`: the user's (Spark's `schema` option), or null to take it from the files.
  CsvFormat(CsvReadOptions read_options, SchemaPtr schema, CsvWriteOptions write_options = {});

  std::string_view name() const override { return "csv"; }
  std::string_view display_name() const override { return "CSV"; }
  SchemaPtr infer_schema(const std::vector<DataFile>& files) const override;
  bool user_schema() const override { return schema_ != nullptr; }
  bool splittable(const DataFile& file) const override;
  std::vector<RecordBatch> read(const SplitRead& read) const override;
  std::string extension() const override;
  std::unique_ptr<FileWriter> open_writer(const std::string& path,
                                          const SchemaPtr& schema) const override;

 private:
  CsvReadOptions read_options_;
  SchemaPtr schema_;
  CsvWriteOptions write_options_;
};

}  // namespace bowstring::io::csv
