#include "bowstring/io/arrow/arrow_format.h"

#include <cstring>
#include <utility>

#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::io::arrow {
namespace {

/// Whether the mapped bytes start with the IPC file format's magic.
bool is_ipc_file(const MemoryMappedFile& file) {
  static constexpr char kMagic[] = "ARROW1";
  return file.size() >= 6 && std::memcmp(file.buffer()->data(), kMagic, 6) == 0;
}

/// The batches of an IPC file or stream at `path`, zero-copy, with its schema.
std::pair<SchemaPtr, std::vector<RecordBatch>> read_batches(const std::string& path,
                                                            bool schema_only) {
  const std::shared_ptr<MemoryMappedFile> mapped = MemoryMappedFile::open(path);
  std::vector<RecordBatch> batches;
  try {
    if (is_ipc_file(*mapped)) {
      const std::unique_ptr<ipc::FileReader> reader = ipc::FileReader::open(mapped);
      for (int i = 0; !schema_only && i < reader->num_record_batches(); ++i) {
        batches.push_back(reader->record_batch(i));
      }
      return {reader->schema(), std::move(batches)};
    }
    const std::unique_ptr<ipc::StreamReader> reader =
        ipc::StreamReader::open(std::make_shared<SourceInputStream>(mapped));
    while (!schema_only) {
      std::optional<RecordBatch> batch = reader->next();
      if (!batch) {
        break;
      }
      batches.push_back(std::move(*batch));
    }
    return {reader->schema(), std::move(batches)};
  } catch (const FormatError& error) {
    throw FormatError("'" + path + "' is not a readable Arrow IPC file or stream: " + error.what());
  }
}

bool same_columns(const Schema& a, const Schema& b) {
  if (a.num_fields() != b.num_fields()) {
    return false;
  }
  for (int i = 0; i < a.num_fields(); ++i) {
    if (a.field(i)->name() != b.field(i)->name() ||
        !a.field(i)->type()->equals(*b.field(i)->type())) {
      return false;
    }
  }
  return true;
}

class ArrowFileWriter final : public FileWriter {
 public:
  ArrowFileWriter(const std::string& path, const SchemaPtr& schema)
      : writer_(std::make_shared<FileOutputStream>(path), schema) {}
  void write(const RecordBatch& batch) override { writer_.write(batch); }
  void close() override { writer_.close(); }

 private:
  ipc::FileWriter writer_;
};

}  // namespace

SchemaPtr ArrowFormat::infer_schema(const std::vector<DataFile>& files) const {
  if (schema_ != nullptr) {
    return schema_;
  }
  if (files.empty()) {
    return schema(FieldVector{});
  }
  return read_batches(files.front().path, true).first;
}

std::vector<RecordBatch> ArrowFormat::read(const SplitRead& read) const {
  auto [file_schema, batches] = read_batches(read.file->path, false);
  if (!same_columns(*file_schema, *read.data_schema)) {
    throw FormatError("the Arrow file '" + read.file->path + "' has the columns " +
                      spark_simple_string(*struct_(file_schema->fields())) + ", not " +
                      spark_simple_string(*struct_(read.data_schema->fields())));
  }
  FieldVector fields;
  for (int index : read.columns) {
    fields.push_back(read.data_schema->field(index));
  }
  const SchemaPtr projected = schema(std::move(fields));
  std::vector<RecordBatch> out;
  for (const RecordBatch& batch : batches) {
    for (int64_t offset = 0; offset < batch.num_rows(); offset += read.batch_rows) {
      const RecordBatch piece =
          batch.slice(offset, std::min(read.batch_rows, batch.num_rows() - offset));
      std::vector<Array> columns;
      for (int index : read.columns) {
        columns.push_back(piece.column(index));
      }
      const RecordBatch selected(projected, piece.num_rows(), std::move(columns));
      RecordBatch kept = keep_matching(selected, read.filter, *read.context);
      if (kept.num_rows() > 0) {
        out.push_back(std::move(kept));
      }
    }
  }
  return out;
}

std::unique_ptr<FileWriter> ArrowFormat::open_writer(const std::string& path,
                                                     const SchemaPtr& schema) const {
  return std::make_unique<ArrowFileWriter>(path, schema);
}

}  // namespace bowstring::io::arrow
