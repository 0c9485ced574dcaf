#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/interchange/compression.h"
#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/table/schema.h"
#include "bowstring/types/type.h"

/// The pieces the IPC readers and writers are built from: message headers as plain structs
/// (metadata.h converts them to and from flatbuffers), message framing (message.h) and message
/// bodies (body.h).
namespace bowstring::ipc {

/// One array in a batch, in pre-order over the fields and their children.
struct FieldNode {
  int64_t length = 0;
  int64_t null_count = 0;
};

/// A buffer's place in a message body, in bytes from the start of the body.
struct BufferRange {
  int64_t offset = 0;
  int64_t length = 0;
};

/// The header of a RecordBatch message: how its body splits into arrays and buffers.
struct RecordBatchHeader {
  int64_t length = 0;
  /// Pre-order: each field, then its children (a dictionary-encoded field's node describes the
  /// indices; the dictionary's values travel in DictionaryBatch messages).
  std::vector<FieldNode> nodes;
  /// In the same order, each array's buffers as its type's layout lists them (validity first;
  /// none for null, none for union and run-end-encoded validity; views then variadic data).
  std::vector<BufferRange> buffers;
  /// Per-buffer body compression, `kNone` when the body is not compressed.
  Compression compression = Compression::kNone;
  /// Number of variadic data buffers of each view array (utf8_view, binary_view), pre-order.
  std::vector<int64_t> variadic_buffer_counts;
};

struct DictionaryBatchHeader {
  int64_t id = 0;
  bool is_delta = false;
  /// One column: the dictionary's values.
  RecordBatchHeader data;
};

/// The dictionary-encoded fields of a schema, in the order of a pre-order walk: visit a field;
/// if its type is a dictionary (or an extension type stored as one), record it, then walk the
/// children of its value type; otherwise walk the children of its (storage) type. `type` is the
/// dictionary itself, without the extension around it. Writers number dictionaries 0, 1, 2... in
/// this order; readers take the ids from the schema message. Every dictionary-encoded field has its
/// own entry, in that order, but fields of a read schema may share an id (and so one dictionary),
/// as Arrow allows, when they agree on the value type.
struct DictionaryField {
  int64_t id = 0;
  std::shared_ptr<const DictionaryType> type;
};

struct SchemaHeader {
  SchemaPtr schema;
  std::vector<DictionaryField> dictionaries;
};

enum class MessageType { kSchema, kDictionaryBatch, kRecordBatch };

/// A verified and decoded message header.
struct MessageHeader {
  MetadataVersion version = MetadataVersion::kV5;
  MessageType type = MessageType::kSchema;
  int64_t body_length = 0;
  /// Exactly one of these is set, according to `type`.
  std::optional<SchemaHeader> schema;
  std::optional<RecordBatchHeader> record_batch;
  std::optional<DictionaryBatchHeader> dictionary_batch;
  Metadata custom_metadata;
};

/// A message read from a stream or file: its header and its body bytes (zero-copy views of the
/// source when the source is memory).
struct Message {
  MessageHeader header;
  std::shared_ptr<Buffer> body;
};

/// A message's place in an IPC file, as the footer records it.
struct FileBlock {
  /// From the start of the file to the message's framing.
  int64_t offset = 0;
  /// Framing plus metadata flatbuffer plus padding to 8 bytes.
  int32_t metadata_length = 0;
  int64_t body_length = 0;
};

struct Footer {
  MetadataVersion version = MetadataVersion::kV5;
  SchemaHeader schema;
  std::vector<FileBlock> dictionaries;
  std::vector<FileBlock> record_batches;
  Metadata custom_metadata;
};

}  // namespace bowstring::ipc
