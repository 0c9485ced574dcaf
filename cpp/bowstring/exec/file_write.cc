#include "bowstring/exec/file_write.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <system_error>
#include <utility>

#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/cast/cast.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/expr/expression.h"
#include "bowstring/interchange/io.h"
#include "bowstring/io/files/file_set.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::exec {
namespace {

namespace fs = std::filesystem;

/// A random (version 4) UUID: the job's, in every file name it writes.
std::string random_uuid() {
  std::random_device device;
  std::mt19937_64 generator((static_cast<uint64_t>(device()) << 32) ^ device());
  uint64_t high = generator();
  uint64_t low = generator();
  high = (high & ~0xF000ULL) | 0x4000ULL;
  low = (low & ~(3ULL << 62)) | (2ULL << 62);
  char text[37];
  std::snprintf(text, sizeof(text), "%08x-%04x-%04x-%04x-%012llx",
                static_cast<unsigned>(high >> 32), static_cast<unsigned>((high >> 16) & 0xFFFF),
                static_cast<unsigned>(high & 0xFFFF), static_cast<unsigned>(low >> 48),
                static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFULL));
  return text;
}

/// Where the files go and how they are named; shared by every thread of the write.
struct WriteJob {
  const FileWrite& write;
  std::string staging;
  std::string uuid;
  SchemaPtr file_schema;
  /// Indices of the output's partition columns, and of the columns the files hold.
  std::vector<int> partition_columns;
  std::vector<int> file_columns;
  compute::ExecContext context;
  std::atomic<int> next_part{0};

  std::string next_file(const std::string& folder) {
    char name[16];
    std::snprintf(name, sizeof(name), "part-%05d-", next_part.fetch_add(1));
    const fs::path directory = fs::path(staging) / folder;
    fs::create_directories(directory);
    return (directory / (name + uuid + "-c000." + write.format->extension())).string();
  }
};

/// The folder of each row of `batch` ("day=2024-01-02/n=1"), as Spark names partition
/// folders: values as strings cast them, escaped, null and empty as the default partition.
std::vector<std::string> partition_folders(const RecordBatch& batch, WriteJob& job) {
  std::vector<std::string> folders(static_cast<size_t>(batch.num_rows()));
  for (int column : job.partition_columns) {
    const Array text =
        compute::cast(compute::Datum(batch.column(column)), utf8(), job.context).array();
    const auto& strings = text.as<StringArray>();
    const std::string name = io::escape_path_name(batch.schema()->field(column)->name());
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      std::string& folder = folders[static_cast<size_t>(row)];
      const bool missing = strings.is_null(row) || strings.value(row).empty();
      folder += folder.empty() ? "" : "/";
      folder += name;
      folder += '=';
      folder += missing ? std::string("__HIVE_DEFAULT_PARTITION__")
                        : io::escape_path_name(strings.value(row));
    }
  }
  return folders;
}

/// The files one thread writes: one per partition folder it has rows for.
class FilesPart final : public ResultParts::Part {
 public:
  explicit FilesPart(WriteJob& job) : job_(job) {}

  void write(const RecordBatch& batch) override {
    std::vector<Array> columns;
    for (int column : job_.file_columns) {
      columns.push_back(batch.column(column));
    }
    const RecordBatch data(job_.file_schema, batch.num_rows(), std::move(columns));
    if (job_.partition_columns.empty()) {
      writer_for("").write(data);
      return;
    }
    std::map<std::string, std::vector<int64_t>> rows;
    const std::vector<std::string> folders = partition_folders(batch, job_);
    for (size_t row = 0; row < folders.size(); ++row) {
      rows[folders[row]].push_back(static_cast<int64_t>(row));
    }
    for (const auto& [folder, indices] : rows) {
      Int64Builder builder;
      builder.reserve(static_cast<int64_t>(indices.size()));
      for (int64_t index : indices) {
        builder.append(index);
      }
      writer_for(folder).write(compute::take(data, builder.finish()));
    }
  }

  void close() override {
    for (auto& [folder, writer] : writers_) {
      writer->close();
    }
  }

 private:
  io::FileWriter& writer_for(const std::string& folder) {
    std::unique_ptr<io::FileWriter>& writer = writers_[folder];
    if (writer == nullptr) {
      writer = job_.write.format->open_writer(job_.next_file(folder), job_.file_schema);
    }
    return *writer;
  }

  WriteJob& job_;
  std::map<std::string, std::unique_ptr<io::FileWriter>> writers_;
};

class FilesParts final : public ResultParts {
 public:
  explicit FilesParts(WriteJob& job) : job_(job) {}
  std::unique_ptr<Part> open_part() override { return std::make_unique<FilesPart>(job_); }

 private:
  WriteJob& job_;
};

void write_success_marker(const std::string& folder) {
  FileOutputStream(folder + "/_SUCCESS").close();
}

/// Every file below `root`, relative to it.
std::vector<fs::path> files_below(const fs::path& root) {
  std::vector<fs::path> out;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) {
      out.push_back(fs::relative(entry.path(), root));
    }
  }
  return out;
}

/// Moves the written files of `staging` into the folder `destination`, which exists; on a
/// failure, moves back those already moved.
void move_files_into(const fs::path& staging, const fs::path& destination) {
  std::vector<fs::path> moved;
  try {
    for (const fs::path& file : files_below(staging)) {
      if (file.filename() == "_SUCCESS") {
        continue;
      }
      fs::create_directories((destination / file).parent_path());
      fs::rename(staging / file, destination / file);
      moved.push_back(file);
    }
    write_success_marker(destination.string());
  } catch (...) {
    for (const fs::path& file : moved) {
      std::error_code ignored;
      fs::rename(destination / file, staging / file, ignored);
    }
    throw;
  }
}

/// Puts the complete folder `staging` in the place of `destination`.
void commit(const fs::path& staging, const fs::path& destination, SaveMode mode) {
  if (mode == SaveMode::kAppend && fs::exists(destination)) {
    move_files_into(staging, destination);
    fs::remove_all(staging);
    return;
  }
  if (mode == SaveMode::kOverwrite && fs::exists(destination)) {
    // The old folder steps aside, and comes back if the new one cannot take its place.
    const fs::path old = fs::path(staging.string() + "-old");
    fs::rename(destination, old);
    try {
      fs::rename(staging, destination);
    } catch (...) {
      std::error_code ignored;
      fs::rename(old, destination, ignored);
      throw;
    }
    fs::remove_all(old);
    return;
  }
  fs::create_directories(destination.parent_path());
  fs::rename(staging, destination);
}

}  // namespace

SaveMode parse_save_mode(std::string_view name) {
  const std::string mode = expr::detail::ascii_lower(name);
  if (mode == "error" || mode == "errorifexists" || mode == "default") {
    return SaveMode::kErrorIfExists;
  }
  if (mode == "append") {
    return SaveMode::kAppend;
  }
  if (mode == "overwrite") {
    return SaveMode::kOverwrite;
  }
  if (mode == "ignore") {
    return SaveMode::kIgnore;
  }
  throw compute::AnalysisError("INVALID_SAVE_MODE",
                               "The specified save mode \"" + std::string(name) +
                                   "\" is invalid. Valid save modes include \"append\", "
                                   "\"overwrite\", \"ignore\", \"error\", \"errorifexists\", and "
                                   "\"default\".");
}

void write_files(const PhysicalPtr& plan, const FileWrite& write,
                 const compute::ExecContext& context, const QueryOptions& options) {
  if (plan == nullptr || write.format == nullptr) {
    throw InvalidArgument("a write needs a plan and a format");
  }
  const fs::path destination = fs::absolute(fs::path(write.path)).lexically_normal();
  const bool exists = fs::exists(destination);
  if (exists && write.mode == SaveMode::kErrorIfExists) {
    throw compute::AnalysisError("PATH_ALREADY_EXISTS",
                                 "Path file:" + destination.string() +
                                     " already exists. Set mode as \"overwrite\" to overwrite "
                                     "the existing path.");
  }
  if (exists && write.mode == SaveMode::kIgnore) {
    return;
  }
  if (exists && !fs::is_directory(destination)) {
    throw IoError("cannot write files into '" + destination.string() + "': it is a file");
  }

  const SchemaPtr output = plan::output_schema(plan->output);
  WriteJob job{write, {}, random_uuid(), nullptr, {}, {}, context, {}};
  std::vector<bool> partitioned(static_cast<size_t>(output->num_fields()), false);
  for (const std::string& name : write.partition_by) {
    const std::vector<std::string> names = output->field_names();
    const auto found = std::find_if(names.begin(), names.end(), [&](const std::string& column) {
      return expr::detail::ascii_lower(column) == expr::detail::ascii_lower(name);
    });
    if (found == names.end()) {
      throw compute::AnalysisError("COLUMN_NOT_FOUND",
                                   "The column `" + name +
                                       "` cannot be found. Verify the spelling and correctness "
                                       "of the column name according to the SQL config "
                                       "spark.sql.caseSensitive.");
    }
    const auto index = static_cast<int>(found - names.begin());
    if (partitioned[static_cast<size_t>(index)]) {
      throw compute::AnalysisError("COLUMN_ALREADY_EXISTS",
                                   "The column `" + expr::detail::ascii_lower(name) +
                                       "` already exists. Choose "
                                       "another name or rename the existing column.");
    }
    partitioned[static_cast<size_t>(index)] = true;
    job.partition_columns.push_back(index);
  }
  FieldVector file_fields;
  for (int i = 0; i < output->num_fields(); ++i) {
    if (!partitioned[static_cast<size_t>(i)]) {
      job.file_columns.push_back(i);
      file_fields.push_back(output->field(i));
    }
  }
  if (!write.partition_by.empty() && file_fields.empty()) {
    throw compute::AnalysisError("ALL_PARTITION_COLUMNS_NOT_ALLOWED",
                                 "Cannot use all columns for partition columns.");
  }
  job.file_schema = schema(std::move(file_fields));
  // Beside the destination, so that moving it into place is a rename on one file system.
  fs::create_directories(destination.parent_path());
  std::string staging_name = ".";
  staging_name += destination.filename().string();
  staging_name += "-" + job.uuid + ".staging";
  job.staging = (destination.parent_path() / staging_name).string();
  fs::create_directories(job.staging);
  try {
    FilesParts parts(job);
    execute_into(plan, context, options, parts);
    write_success_marker(job.staging);
    commit(job.staging, destination, write.mode);
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(job.staging, ignored);
    throw;
  }
}

}  // namespace bowstring::exec
