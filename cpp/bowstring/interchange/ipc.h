#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/interchange/compression.h"
#include "bowstring/interchange/io.h"
#include "bowstring/memory/allocator.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/table/record_batch.h"
#include "bowstring/table/record_batch_reader.h"
#include "bowstring/table/schema.h"
#include "bowstring/table/table.h"

/// Arrow IPC stream and file formats (Arrow columnar format, "Serialization and Interprocess
/// Communication"), byte-compatible with Apache Arrow. Writers emit metadata version V5 with
/// the continuation-marker framing; readers accept V4 and V5 and the legacy 4-byte framing.
namespace bowstring::ipc {

/// Flatbuffer `MetadataVersion` values.
enum class MetadataVersion : int16_t { kV4 = 3, kV5 = 4 };

struct WriteOptions {
  /// Body compression of every buffer of every batch (and dictionary batch).
  Compression compression = Compression::kNone;
  /// The codec's level; its default when absent.
  std::optional<int> compression_level;
  /// When a dictionary changes between batches and the new one starts with every value of the
  /// previous one, send only the new values (a delta dictionary batch), unless its values
  /// hold dictionaries themselves (such a dictionary is never extended, as in Arrow). Otherwise a
  /// stream sends a replacement dictionary, and a file (which cannot replace dictionaries) refuses
  /// the batch with `InvalidArgument` naming the field.
  bool emit_dictionary_deltas = true;
  /// Memory for compressed buffers and rebased offsets of sliced arrays.
  Allocator* allocator = default_allocator();
  /// Threads that compress a batch's buffers in parallel (0: the thread pool's size). Batches
  /// under 1 MiB are compressed on the calling thread, where handing out work would cost more.
  int compression_threads = 0;
};

struct ReadOptions {
  /// Full content validation of every batch (every offset, UTF-8, dictionary index, union type
  /// id and offset), on top of the structural checks that always run. Switch off only for
  /// trusted data, such as streams between the engine and its own workers.
  bool validate_full = true;
  /// Memory for decompressed buffers and for data read from non-memory sources.
  Allocator* allocator = default_allocator();
  /// The largest size a compressed buffer may claim to decompress to. A larger claim is refused
  /// as malformed (`FormatError`) before anything is allocated; lower it for untrusted input.
  int64_t max_decompressed_size = kMaxBufferSize;
  /// Threads that decompress a message's buffers in parallel (0: the thread pool's size), for
  /// compressed bodies of 1 MiB and more.
  int decompression_threads = 0;
};

/// Counters of what a writer or reader has handled so far.
struct IpcStats {
  /// Every message, the schema message of a stream included (not the end-of-stream marker).
  int64_t messages = 0;
  int64_t record_batches = 0;
  /// Every dictionary batch; of them, the deltas and those that replaced a dictionary sent
  /// before (the first dictionary of a field is neither).
  int64_t dictionary_batches = 0;
  int64_t dictionary_deltas = 0;
  int64_t dictionary_replacements = 0;
  /// Bytes of message bodies (after compression).
  int64_t body_bytes = 0;
};

/// Writes the stream format: a schema message, then dictionary and record batch messages, then
/// the end-of-stream marker on `close()`. Batches must have the writer's schema (field names,
/// types and nullability; metadata may differ). Sliced arrays are written with their offsets
/// rebased, so only the sliced values are sent.
class StreamWriter {
 public:
  StreamWriter(std::shared_ptr<OutputStream> sink, SchemaPtr schema, WriteOptions options = {});
  ~StreamWriter();
  StreamWriter(const StreamWriter&) = delete;
  StreamWriter& operator=(const StreamWriter&) = delete;

  void write(const RecordBatch& batch);
  /// Every batch of the table, zero-copy (see `Table::to_batches`).
  void write(const Table& table);
  /// Writes the end-of-stream marker and flushes the sink (the sink itself stays open). Further
  /// writes throw `InvalidArgument`; closing again does nothing. A writer destroyed unclosed
  /// leaves the stream without its marker (readers take the end of the input as the end).
  void close();
  const IpcStats& stats() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

/// Writes the file format: `ARROW1` magic, the stream format's messages, then a footer holding
/// the schema and the location of every dictionary and record batch, then the magic again.
class FileWriter {
 public:
  FileWriter(std::shared_ptr<OutputStream> sink, SchemaPtr schema, WriteOptions options = {},
             Metadata footer_metadata = {});
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  void write(const RecordBatch& batch);
  void write(const Table& table);
  /// Writes the end-of-stream marker, the footer and the trailing magic and flushes the sink.
  /// Without it the file is incomplete and cannot be read.
  void close();
  const IpcStats& stats() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

/// Reads the stream format. Every message is checked (framing, flatbuffer verification,
/// lengths, buffer ranges, nesting depth, dictionary ids) before any data is used; errors are
/// `FormatError`s naming the message number and, for data, the field and buffer.
class StreamReader final : public RecordBatchReader {
 public:
  /// Reads the schema message; throws `FormatError` when the stream does not start with one.
  static std::unique_ptr<StreamReader> open(std::shared_ptr<InputStream> source,
                                            ReadOptions options = {});
  ~StreamReader() override;

  SchemaPtr schema() const override;
  std::optional<RecordBatch> next() override;
  MetadataVersion version() const;
  const IpcStats& stats() const;

 private:
  class Impl;
  explicit StreamReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Reads the file format with random access. From a memory-backed source (a buffer or a
/// `MemoryMappedFile`) the arrays point into the source's memory, which they keep alive.
class FileReader {
 public:
  /// Reads and checks the magic, the footer, the schema and every dictionary.
  static std::unique_ptr<FileReader> open(std::shared_ptr<const RandomAccessSource> source,
                                          ReadOptions options = {});
  ~FileReader();

  SchemaPtr schema() const;
  MetadataVersion version() const;
  const Metadata& footer_metadata() const;
  int num_record_batches() const;
  /// Record batch `i`; throws `IndexError` when out of range.
  RecordBatch record_batch(int i);
  /// Every record batch as one table, zero-copy.
  Table read_all();
  const IpcStats& stats() const;

 private:
  class Impl;
  explicit FileReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Conveniences over the classes above.
std::shared_ptr<Buffer> write_stream(const Table& table, const WriteOptions& options = {});
std::shared_ptr<Buffer> write_file(const Table& table, const WriteOptions& options = {});
Table read_stream(std::shared_ptr<const Buffer> data, const ReadOptions& options = {});
Table read_file(std::shared_ptr<const Buffer> data, const ReadOptions& options = {});

}  // namespace bowstring::ipc
