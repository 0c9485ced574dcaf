#include "bowstring/io/csv/csv_format.h"

#include <utility>

#include "bowstring/interchange/io.h"
#include "bowstring/io/csv/csv_reader.h"
#include "bowstring/io/csv/csv_writer.h"

namespace bowstring::io::csv {
namespace {

class CsvFileWriter final : public FileWriter {
 public:
  CsvFileWriter(const std::string& path, const SchemaPtr& schema, const CsvWriteOptions& options)
      : writer_(std::make_shared<FileOutputStream>(path), schema, options) {}
  void write(const RecordBatch& batch) override { writer_.write(batch); }
  void close() override { writer_.close(); }

 private:
  CsvWriter writer_;
};

}  // namespace

CsvFormat::CsvFormat(CsvReadOptions read_options, SchemaPtr schema, CsvWriteOptions write_options)
    : read_options_(std::move(read_options)),
      schema_(std::move(schema)),
      write_options_(std::move(write_options)) {}

SchemaPtr CsvFormat::infer_schema(const std::vector<DataFile>& files) const {
  CsvReadRequest request;
  for (const DataFile& file : files) {
    request.paths.push_back(file.path);
  }
  request.options = read_options_;
  request.schema = schema_;
  return resolve_csv_schema(request);
}

bool CsvFormat::splittable(const DataFile& file) const {
  return csv_splittable(file.path, read_options_);
}

std::vector<RecordBatch> CsvFormat::read(const SplitRead& read) const {
  CsvReadOptions options = read_options_;
  options.batch_rows = read.batch_rows;
  std::vector<RecordBatch> batches =
      read_csv_split(read.file->path, read.split.offset, read.split.length, options,
                     read.data_schema, read.columns);
  if (read.filter != nullptr) {
    for (RecordBatch& batch : batches) {
      batch = keep_matching(batch, read.filter, *read.context);
    }
  }
  return batches;
}

std::string CsvFormat::extension() const {
  switch (write_options_.compression) {
    case Compression::kGzip:
      return "csv.gz";
    case Compression::kZstd:
      return "csv.zst";
    case Compression::kNone:
      break;
  }
  return "csv";
}

std::unique_ptr<FileWriter> CsvFormat::open_writer(const std::string& path,
                                                   const SchemaPtr& schema) const {
  return std::make_unique<CsvFileWriter>(path, schema, write_options_);
}

}  // namespace bowstring::io::csv
