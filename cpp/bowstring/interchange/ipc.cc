#include "bowstring/interchange/ipc.h"

#include <cstring>
#include <limits>
#include <string_view>
#include <utility>

#include "bowstring/array/equal.h"
#include "bowstring/interchange/body.h"
#include "bowstring/interchange/ipc_format.h"
#include "bowstring/interchange/message.h"
#include "bowstring/interchange/metadata.h"
#include "bowstring/util/error.h"

namespace bowstring::ipc {

namespace {

/// "ARROW1", the magic at both ends of an IPC file; the leading one is padded to 8 bytes.
constexpr std::string_view kMagic{"ARROW1", 6};
constexpr int64_t kPaddedMagicSize = 8;
/// What follows the footer: its length (int32) and the magic.
constexpr int64_t kTrailerSize = 4 + static_cast<int64_t>(kMagic.size());

/// Throws `InvalidArgument` unless `actual`, the schema of a `what` ("record batch"), has the
/// fields of `expected` (metadata aside).
void check_schema(const Schema& expected, const Schema& actual, const std::string& what) {
  if (&actual == &expected) {
    return;
  }
  if (actual.num_fields() != expected.num_fields()) {
    throw InvalidArgument(what + " has " + std::to_string(actual.num_fields()) + " fields (" +
                          actual.describe_names() + "), the writer's schema has " +
                          std::to_string(expected.num_fields()) + " (" + expected.describe_names() +
                          ")");
  }
  for (int i = 0; i < actual.num_fields(); ++i) {
    if (!actual.field(i)->equals(*expected.field(i))) {
      throw InvalidArgument("field " + std::to_string(i) + " of the " + what + " is '" +
                            actual.field(i)->to_string() + "', the writer's schema has '" +
                            expected.field(i)->to_string() + "'");
    }
  }
}

/// What the writers share: the schema message, dictionary decisions and batch messages.
class MessageWriter {
 public:
  /// `file`: dictionaries may not be replaced, and every message's place is recorded.
  MessageWriter(std::shared_ptr<OutputStream> sink, SchemaPtr schema, WriteOptions options,
                bool file)
      : sink_(std::move(sink)),
        schema_(std::move(schema)),
        options_(options),
        file_(file),
        dictionaries_(number_dictionaries(checked_schema(schema_))),
        dictionary_paths_(dictionary_field_paths(*schema_)),
        last_dictionaries_(dictionaries_.size()) {
    for (const DictionaryField& dictionary : dictionaries_) {
      nested_dictionaries_.push_back(contains_dictionary(*dictionary.type->value_type()));
    }
    if (sink_ == nullptr) {
      throw InvalidArgument("an IPC writer needs a sink");
    }
    if (dictionaries_.size() != dictionary_paths_.size()) {
      throw InvalidArgument("the schema's dictionary fields could not be numbered consistently");
    }
    start_ = sink_->position();
  }

  OutputStream& sink() { return *sink_; }
  const SchemaPtr& schema() const { return schema_; }
  const std::vector<DictionaryField>& dictionaries() const { return dictionaries_; }
  const std::vector<FileBlock>& dictionary_blocks() const { return dictionary_blocks_; }
  const std::vector<FileBlock>& record_batch_blocks() const { return record_batch_blocks_; }
  const IpcStats& stats() const { return stats_; }
  /// Bytes written since the writer started.
  int64_t written() const { return sink_->position() - start_; }

  void write_schema() {
    const std::shared_ptr<Buffer> metadata = encode_schema_message({schema_, dictionaries_});
    write(*metadata, EncodedBody{});
  }

  void write_batch(const RecordBatch& batch) {
    if (closed_) {
      throw InvalidArgument("cannot write a record batch: the writer is closed");
    }
    check_schema(*schema_, *batch.schema(), "record batch");
    for (int i = 0; i < batch.num_columns(); ++i) {
      try {
        batch.column(i).validate();
      } catch (const FormatError& error) {
        throw InvalidArgument("column '" + batch.column_name(i) +
                              "' cannot be written: " + error.what());
      }
    }
    // Decide every dictionary before writing anything, so that a refused batch leaves nothing
    // half-written.
    struct Pending {
      size_t position;
      Array values;
      bool delta;
    };
    std::vector<Pending> pending;
    for (UsedDictionary& used : used_dictionaries(batch.columns())) {
      const std::optional<Array>& last = last_dictionaries_[used.position];
      if (!last.has_value()) {
        pending.push_back({used.position, std::move(used.values), false});
        continue;
      }
      if (last->data() == used.values.data() || last->equals(used.values)) {
        continue;
      }
      // A dictionary with dictionaries in its values is only ever replaced (see
      // `contains_dictionary`).
      const bool nested = nested_dictionaries_[used.position];
      const int64_t known = last->length();
      if (options_.emit_dictionary_deltas && !nested && used.values.length() > known &&
          array_range_equal(used.values, 0, *last, 0, known)) {
        pending.push_back({used.position, std::move(used.values), true});
        continue;
      }
      if (file_) {
        throw InvalidArgument(
            "the dictionary of field '" + dictionary_paths_[used.position] + "' changed and " +
            (nested ? "holds dictionaries in its values, so it cannot be extended with a delta"
                    : "is not an extension of the previous one") +
            ": an IPC file cannot replace a dictionary");
      }
      pending.push_back({used.position, std::move(used.values), false});
    }
    for (Pending& dictionary : pending) {
      write_dictionary(dictionary.position, std::move(dictionary.values), dictionary.delta);
    }
    const EncodedBody body = encode_body(batch.columns(), batch.num_rows(), options_);
    const std::shared_ptr<Buffer> metadata =
        encode_record_batch_message(body.header, body.body_length);
    const FileBlock block = write(*metadata, body);
    if (file_) {
      record_batch_blocks_.push_back(block);
    }
    ++stats_.record_batches;
  }

  void write_table(const Table& table) {
    check_schema(*schema_, *table.schema(), "table");
    for (const RecordBatch& batch : table.to_batches()) {
      write_batch(batch);
    }
  }

  /// Marks the writer closed; returns false when it already was.
  bool close() { return !std::exchange(closed_, true); }

 private:
  static const Schema& checked_schema(const SchemaPtr& schema) {
    if (schema == nullptr) {
      throw InvalidArgument("an IPC writer needs a schema");
    }
    return *schema;
  }

  void write_dictionary(size_t position, Array values, bool delta) {
    std::optional<Array>& last = last_dictionaries_[position];
    const Array sent = delta ? values.slice(last->length()) : values;
    const EncodedBody body = encode_body({sent}, sent.length(), options_);
    const DictionaryBatchHeader header{dictionaries_[position].id, delta, body.header};
    const std::shared_ptr<Buffer> metadata =
        encode_dictionary_batch_message(header, body.body_length);
    const FileBlock block = write(*metadata, body);
    if (file_) {
      dictionary_blocks_.push_back(block);
    }
    ++stats_.dictionary_batches;
    if (delta) {
      ++stats_.dictionary_deltas;
    } else if (last.has_value()) {
      ++stats_.dictionary_replacements;
    }
    last = std::move(values);
  }

  FileBlock write(const Buffer& metadata, const EncodedBody& body) {
    // The message starts where the sink stands now; the file counts from the writer's start.
    const int64_t offset = written();
    FileBlock block = write_message(*sink_, metadata, body);
    block.offset = offset;
    ++stats_.messages;
    stats_.body_bytes += body.body_length;
    return block;
  }

  std::shared_ptr<OutputStream> sink_;
  SchemaPtr schema_;
  WriteOptions options_;
  bool file_;
  std::vector<DictionaryField> dictionaries_;
  std::vector<std::string> dictionary_paths_;
  /// Whether each dictionary field's values hold dictionaries.
  std::vector<bool> nested_dictionaries_;
  /// The dictionary a reader has for each dictionary field, once one was sent.
  std::vector<std::optional<Array>> last_dictionaries_;
  std::vector<FileBlock> dictionary_blocks_;
  std::vector<FileBlock> record_batch_blocks_;
  IpcStats stats_;
  int64_t start_ = 0;
  bool closed_ = false;
};

std::string describe(MessageType type) {
  switch (type) {
    case MessageType::kSchema:
      return "schema";
    case MessageType::kDictionaryBatch:
      return "dictionary batch";
    case MessageType::kRecordBatch:
      return "record batch";
  }
  return "unknown";
}

/// Reads a dictionary batch message into `memo`, counting it in `stats`.
void read_dictionary_message(const Message& message, DictionaryMemo& memo,
                             const ReadOptions& options, const std::string& what, bool file,
                             IpcStats& stats) {
  const DictionaryBatchHeader& header = *message.header.dictionary_batch;
  bool replacement = false;
  if (!header.is_delta) {
    try {
      replacement = memo.has(header.id);
    } catch (const FormatError& error) {
      throw FormatError(what + ": " + error.what());
    }
    if (replacement && file) {
      throw FormatError(what + ": replaces dictionary " + std::to_string(header.id) +
                        ", which an IPC file may only extend with deltas");
    }
  }
  read_dictionary_batch(header, message.body, memo, options, what, message.header.version);
  ++stats.messages;
  ++stats.dictionary_batches;
  stats.dictionary_deltas += header.is_delta ? 1 : 0;
  stats.dictionary_replacements += replacement ? 1 : 0;
  stats.body_bytes += message.header.body_length;
}

RecordBatch read_record_batch_message(const Message& message, const SchemaPtr& schema,
                                      const DictionaryMemo& memo, const ReadOptions& options,
                                      const std::string& what, IpcStats& stats) {
  RecordBatch batch = decode_record_batch(schema, *message.header.record_batch, message.body, memo,
                                          options, what, message.header.version);
  ++stats.messages;
  ++stats.record_batches;
  stats.body_bytes += message.header.body_length;
  return batch;
}

int32_t read_int32_le(const uint8_t* bytes) {
  int32_t value;
  std::memcpy(&value, bytes, sizeof(value));
  return value;
}

}  // namespace

// --- StreamWriter -------------------------------------------------------------------------

class StreamWriter::Impl {
 public:
  Impl(std::shared_ptr<OutputStream> sink, SchemaPtr schema, const WriteOptions& options)
      : writer(std::move(sink), std::move(schema), options, false) {
    writer.write_schema();
  }
  MessageWriter writer;
};

StreamWriter::StreamWriter(std::shared_ptr<OutputStream> sink, SchemaPtr schema,
                           WriteOptions options)
    : impl_(std::make_unique<Impl>(std::move(sink), std::move(schema), options)) {}

StreamWriter::~StreamWriter() = default;

void StreamWriter::write(const RecordBatch& batch) { impl_->writer.write_batch(batch); }

void StreamWriter::write(const Table& table) { impl_->writer.write_table(table); }

void StreamWriter::close() {
  if (impl_->writer.close()) {
    write_end_of_stream(impl_->writer.sink());
    impl_->writer.sink().flush();
  }
}

const IpcStats& StreamWriter::stats() const { return impl_->writer.stats(); }

// --- FileWriter ---------------------------------------------------------------------------

class FileWriter::Impl {
 public:
  Impl(std::shared_ptr<OutputStream> sink, SchemaPtr schema, const WriteOptions& options,
       Metadata footer_metadata)
      : writer(std::move(sink), std::move(schema), options, true),
        footer_metadata(std::move(footer_metadata)) {
    const uint8_t magic[kPaddedMagicSize] = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};
    writer.sink().write(magic, kPaddedMagicSize);
    writer.write_schema();
  }
  MessageWriter writer;
  Metadata footer_metadata;
};

FileWriter::FileWriter(std::shared_ptr<OutputStream> sink, SchemaPtr schema, WriteOptions options,
                       Metadata footer_metadata)
    : impl_(std::make_unique<Impl>(std::move(sink), std::move(schema), options,
                                   std::move(footer_metadata))) {}

FileWriter::~FileWriter() = default;

void FileWriter::write(const RecordBatch& batch) { impl_->writer.write_batch(batch); }

void FileWriter::write(const Table& table) { impl_->writer.write_table(table); }

void FileWriter::close() {
  MessageWriter& writer = impl_->writer;
  if (!writer.close()) {
    return;
  }
  OutputStream& sink = writer.sink();
  write_end_of_stream(sink);
  Footer footer;
  footer.version = MetadataVersion::kV5;
  footer.schema = {writer.schema(), writer.dictionaries()};
  footer.dictionaries = writer.dictionary_blocks();
  footer.record_batches = writer.record_batch_blocks();
  footer.custom_metadata = impl_->footer_metadata;
  const std::shared_ptr<Buffer> encoded = encode_footer(footer);
  if (encoded->size() > std::numeric_limits<int32_t>::max()) {
    throw InvalidArgument("the IPC file footer of " + std::to_string(encoded->size()) +
                          " bytes does not fit its 32-bit length");
  }
  sink.write(encoded->data(), encoded->size());
  const auto footer_length = static_cast<int32_t>(encoded->size());
  sink.write(&footer_length, sizeof(footer_length));
  sink.write(kMagic.data(), static_cast<int64_t>(kMagic.size()));
  sink.flush();
}

const IpcStats& FileWriter::stats() const { return impl_->writer.stats(); }

// --- StreamReader -------------------------------------------------------------------------

class StreamReader::Impl {
 public:
  Impl(std::shared_ptr<InputStream> source, const ReadOptions& options)
      : messages(std::move(source)), options(options) {}

  MessageReader messages;
  ReadOptions options;
  SchemaPtr schema;
  MetadataVersion version = MetadataVersion::kV5;
  std::optional<DictionaryMemo> memo;
  IpcStats stats;
  bool finished = false;

  /// "message 3 (record batch)", for the message just read.
  std::string what(MessageType type) const {
    return "message " + std::to_string(messages.messages_read() - 1) + " (" + describe(type) + ")";
  }
};

std::unique_ptr<StreamReader> StreamReader::open(std::shared_ptr<InputStream> source,
                                                 ReadOptions options) {
  if (source == nullptr) {
    throw InvalidArgument("an IPC stream reader needs a source");
  }
  auto impl = std::make_unique<Impl>(std::move(source), options);
  std::optional<Message> first = impl->messages.next();
  if (!first.has_value()) {
    throw FormatError("the IPC stream is empty: it has no schema message");
  }
  if (first->header.type != MessageType::kSchema) {
    throw FormatError(impl->what(first->header.type) +
                      ": an IPC stream must start with a schema message");
  }
  impl->schema = first->header.schema->schema;
  impl->version = first->header.version;
  impl->memo.emplace(first->header.schema->dictionaries);
  ++impl->stats.messages;
  return std::unique_ptr<StreamReader>(new StreamReader(std::move(impl)));
}

StreamReader::StreamReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StreamReader::~StreamReader() = default;

SchemaPtr StreamReader::schema() const { return impl_->schema; }

std::optional<RecordBatch> StreamReader::next() {
  Impl& impl = *impl_;
  while (!impl.finished) {
    std::optional<Message> message = impl.messages.next();
    if (!message.has_value()) {
      impl.finished = true;
      break;
    }
    const MessageType type = message->header.type;
    switch (type) {
      case MessageType::kSchema:
        throw FormatError(impl.what(type) + ": a stream has one schema message, at its start");
      case MessageType::kDictionaryBatch:
        read_dictionary_message(*message, *impl.memo, impl.options, impl.what(type), false,
                                impl.stats);
        break;
      case MessageType::kRecordBatch:
        return read_record_batch_message(*message, impl.schema, *impl.memo, impl.options,
                                         impl.what(type), impl.stats);
    }
  }
  return std::nullopt;
}

MetadataVersion StreamReader::version() const { return impl_->version; }

const IpcStats& StreamReader::stats() const { return impl_->stats; }

// --- FileReader ---------------------------------------------------------------------------

class FileReader::Impl {
 public:
  std::shared_ptr<const RandomAccessSource> source;
  ReadOptions options;
  Footer footer;
  std::optional<DictionaryMemo> memo;
  IpcStats stats;
};

std::unique_ptr<FileReader> FileReader::open(std::shared_ptr<const RandomAccessSource> source,
                                             ReadOptions options) {
  if (source == nullptr) {
    throw InvalidArgument("an IPC file reader needs a source");
  }
  const int64_t size = source->size();
  if (size < kPaddedMagicSize + kTrailerSize) {
    throw FormatError("an IPC file has at least " +
                      std::to_string(kPaddedMagicSize + kTrailerSize) + " bytes, this one " +
                      std::to_string(size));
  }
  const std::shared_ptr<Buffer> head = source->read_at(0, static_cast<int64_t>(kMagic.size()));
  if (std::memcmp(head->data(), kMagic.data(), kMagic.size()) != 0) {
    throw FormatError("not an IPC file: it does not start with the magic \"ARROW1\"");
  }
  const std::shared_ptr<Buffer> trailer = source->read_at(size - kTrailerSize, kTrailerSize);
  if (std::memcmp(trailer->data() + 4, kMagic.data(), kMagic.size()) != 0) {
    throw FormatError(
        "not a complete IPC file: it does not end with the magic \"ARROW1\" (truncated?)");
  }
  const int64_t footer_length = read_int32_le(trailer->data());
  const int64_t footer_room = size - kPaddedMagicSize - kTrailerSize;
  if (footer_length <= 0 || footer_length > footer_room) {
    throw FormatError("IPC file footer length " + std::to_string(footer_length) +
                      " is not in [1, " + std::to_string(footer_room) + "], the room the " +
                      std::to_string(size) + "-byte file has for it");
  }
  const std::shared_ptr<Buffer> footer_bytes =
      source->read_at(size - kTrailerSize - footer_length, footer_length);

  auto impl = std::make_unique<Impl>();
  impl->source = std::move(source);
  impl->options = options;
  try {
    impl->footer = decode_footer(footer_bytes->data(), footer_bytes->size());
  } catch (const FormatError& error) {
    throw FormatError(std::string("IPC file footer: ") + error.what());
  }
  impl->memo.emplace(impl->footer.schema.dictionaries);
  const std::vector<FileBlock>& blocks = impl->footer.dictionaries;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const std::string what = "dictionary block " + std::to_string(i);
    const Message message = read_message_at(*impl->source, blocks[i], what);
    if (message.header.type != MessageType::kDictionaryBatch) {
      throw FormatError(what + ": holds a " + describe(message.header.type) +
                        " message, expected a dictionary batch");
    }
    read_dictionary_message(message, *impl->memo, impl->options, what, true, impl->stats);
  }
  return std::unique_ptr<FileReader>(new FileReader(std::move(impl)));
}

FileReader::FileReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

FileReader::~FileReader() = default;

SchemaPtr FileReader::schema() const { return impl_->footer.schema.schema; }

MetadataVersion FileReader::version() const { return impl_->footer.version; }

const Metadata& FileReader::footer_metadata() const { return impl_->footer.custom_metadata; }

int FileReader::num_record_batches() const {
  return static_cast<int>(impl_->footer.record_batches.size());
}

RecordBatch FileReader::record_batch(int i) {
  if (i < 0 || i >= num_record_batches()) {
    throw IndexError("record batch " + std::to_string(i) + " is outside an IPC file of " +
                     std::to_string(num_record_batches()) + " record batches");
  }
  const std::string what = "record batch " + std::to_string(i);
  const Message message =
      read_message_at(*impl_->source, impl_->footer.record_batches[static_cast<size_t>(i)], what);
  if (message.header.type != MessageType::kRecordBatch) {
    throw FormatError(what + ": holds a " + describe(message.header.type) +
                      " message, expected a record batch");
  }
  return read_record_batch_message(message, schema(), *impl_->memo, impl_->options, what,
                                   impl_->stats);
}

Table FileReader::read_all() {
  std::vector<RecordBatch> batches;
  batches.reserve(static_cast<size_t>(num_record_batches()));
  for (int i = 0; i < num_record_batches(); ++i) {
    batches.push_back(record_batch(i));
  }
  return Table::from_batches(schema(), batches);
}

const IpcStats& FileReader::stats() const { return impl_->stats; }

// --- conveniences -------------------------------------------------------------------------

std::shared_ptr<Buffer> write_stream(const Table& table, const WriteOptions& options) {
  auto sink = std::make_shared<BufferOutputStream>(options.allocator);
  StreamWriter writer(sink, table.schema(), options);
  writer.write(table);
  writer.close();
  return sink->finish();
}

std::shared_ptr<Buffer> write_file(const Table& table, const WriteOptions& options) {
  auto sink = std::make_shared<BufferOutputStream>(options.allocator);
  FileWriter writer(sink, table.schema(), options);
  writer.write(table);
  writer.close();
  return sink->finish();
}

Table read_stream(std::shared_ptr<const Buffer> data, const ReadOptions& options) {
  return StreamReader::open(std::make_shared<BufferInputStream>(std::move(data)), options)
      ->read_all();
}

Table read_file(std::shared_ptr<const Buffer> data, const ReadOptions& options) {
  return FileReader::open(std::make_shared<BufferSource>(std::move(data)), options)->read_all();
}

}  // namespace bowstring::ipc
