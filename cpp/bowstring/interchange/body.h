#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/interchange/ipc_format.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/table/record_batch.h"

/// Message bodies: arrays flattened into field nodes and buffers, and back.
namespace bowstring::ipc {

/// A body ready to write: `buffers[i]` goes at `header.buffers[i].offset` (each padded with
/// zeros to a multiple of 8 bytes); `body_length` includes the padding.
struct EncodedBody {
  RecordBatchHeader header;
  std::vector<std::shared_ptr<const Buffer>> buffers;
  int64_t body_length = 0;
};

/// Flattens `columns` (all of `length` rows): sliced arrays have their offsets rebased and
/// bitmaps shifted so that only the sliced values are written; dictionary-encoded columns
/// contribute their indices. List views keep their layout: offsets and sizes are rewritten
/// relative to the smallest range used, and the child is cut to the ranges the valid lists
/// use. Compresses each buffer when `options.compression` says so (a buffer that does not get
/// smaller is stored raw, with the uncompressed length -1). Each column first passes
/// `validate` (cheap), so malformed arrays are refused with `InvalidArgument` instead of being
/// read out of bounds.
EncodedBody encode_body(const std::vector<Array>& columns, int64_t length,
                        const WriteOptions& options);

/// Where each dictionary-encoded field of `schema` sits, as a dotted path of field names
/// ("a.item"), in the pre-order of `DictionaryField` (a field inside a dictionary's values is
/// named after the dictionary field: "codes.item").
std::vector<std::string> dictionary_field_paths(const Schema& schema);

/// One dictionary used by a batch: the position of its field in the pre-order numbering of
/// `DictionaryField` and the dictionary's values.
struct UsedDictionary {
  size_t position = 0;
  Array values;
};

/// The dictionaries `columns` use, nested dictionaries (those inside a dictionary's values)
/// before the dictionaries whose values refer to them, so that a reader meets them in an order
/// it can decode.
std::vector<UsedDictionary> used_dictionaries(const std::vector<Array>& columns);

/// Whether `type` holds a dictionary-encoded type at any depth (through extension storage,
/// children and dictionary values). A dictionary whose values do is never extended by a delta,
/// only replaced, as in Arrow: the indices in a delta's values would need nested dictionaries
/// of their own.
bool contains_dictionary(const DataType& type);

/// The dictionaries read so far, by id.
class DictionaryMemo {
 public:
  explicit DictionaryMemo(std::vector<DictionaryField> fields);
  const std::vector<DictionaryField>& fields() const { return fields_; }
  /// Position of dictionary `id` in `fields()`; throws `FormatError` for an unknown id.
  int index_of(int64_t id) const;
  /// Sets (or replaces) the dictionary `id`.
  void set(int64_t id, Array values);
  /// Appends `values` to dictionary `id` (a delta); throws `FormatError` when it has none yet.
  /// Deltas are kept aside and joined to the dictionary (with `allocator`) when it is next
  /// asked for, so that many small deltas cost one concatenation, not one each.
  void append(int64_t id, const Array& values, Allocator* allocator);
  bool has(int64_t id) const;
  /// The current dictionary `id`, deltas included; throws `FormatError` when none has been read
  /// or when the deltas cannot be joined to it (its offsets would overflow).
  const Array& get(int64_t id) const;

 private:
  struct Dictionary {
    std::optional<Array> values;
    /// Deltas not yet joined to `values`, and the memory to join them with.
    std::vector<Array> deltas;
    Allocator* allocator = nullptr;
  };

  std::vector<DictionaryField> fields_;
  /// Position in `fields_` of each id (of its first field, should two share an id).
  std::unordered_map<int64_t, int> positions_;
  /// Mutable so that `get` can join pending deltas, which changes no dictionary's content.
  mutable std::vector<Dictionary> dictionaries_;
};

/// Rebuilds a record batch from its header and body. Buffers are zero-copy slices of `body`
/// unless compressed. Every node count, buffer count and range, length and nesting depth is
/// checked against the schema; `options.validate_full` adds full content validation. Errors
/// are `FormatError`s prefixed by `what` ("message 3 (record batch)") and naming the field and
/// buffer. `version` is the message's metadata version: V4 unions carry an (empty) validity
/// buffer that V5 dropped.
RecordBatch decode_record_batch(const SchemaPtr& schema, const RecordBatchHeader& header,
                                const std::shared_ptr<Buffer>& body, const DictionaryMemo& memo,
                                const ReadOptions& options, const std::string& what,
                                MetadataVersion version = MetadataVersion::kV5);

/// Decodes a dictionary batch and records it in `memo` (set, or append for deltas). Dictionaries
/// nested in the values must have been read before.
void read_dictionary_batch(const DictionaryBatchHeader& header, const std::shared_ptr<Buffer>& body,
                           DictionaryMemo& memo, const ReadOptions& options,
                           const std::string& what, MetadataVersion version = MetadataVersion::kV5);

}  // namespace bowstring::ipc
