#pragma once

#include "bowstring/io/files/file_format.h"

namespace bowstring::io::arrow {

/// Arrow IPC files (and streams) as a file format: reads map the file and hand out its record
/// batches zero-copy (the arrays point into the mapping, which they keep alive); writes are IPC
/// files. A file is one split: its batches are already the unit of work.
class ArrowFormat final : public FileFormat {
 public:
  /// `schema`: the user's, checked against the files', or null to take the first file's.
  explicit ArrowFormat(SchemaPtr schema = nullptr) : schema_(std::move(schema)) {}

  std::string_view name() const override { return "arrow"; }
  std::string_view display_name() const override { return "Arrow"; }
  SchemaPtr infer_schema(const std::vector<DataFile>& files) const override;
  bool user_schema() const override { return schema_ != nullptr; }
  bool splittable(const DataFile&) const override { return false; }
  std::vector<RecordBatch> read(const SplitRead& read) const override;
  std::string extension() const override { return "arrow"; }
  std::unique_ptr<FileWriter> open_writer(const std::string& path,
                                          const SchemaPtr& schema) const override;

 private:
  SchemaPtr schema_;
};

}  // namespace bowstring::io::arrow
