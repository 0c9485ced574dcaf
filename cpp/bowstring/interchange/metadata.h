#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "bowstring/interchange/ipc_format.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/table/schema.h"

/// Conversion between message headers and the Arrow flatbuffer metadata (format/*.fbs).
/// Decoding runs the flatbuffers verifier first and then checks every value it uses (type
/// parameters, nesting depth against validate.h's kMaxNestingDepth, non-negative lengths,
/// union and dictionary consistency), so hostile bytes give a `FormatError`, never a crash.
///
/// Text in the metadata (field names, custom metadata keys and values, timezones) is stored as
/// flatbuffer strings, which are UTF-8: encoding refuses other bytes with `InvalidArgument` and
/// decoding with `FormatError`, naming the field. (`Metadata` itself holds bytes, as the C data
/// interface carries them; such metadata can be exported there but not written to IPC.)
namespace bowstring::ipc {

/// The dictionary-encoded fields of `schema` in pre-order (see `DictionaryField`), numbered
/// 0, 1, 2...
std::vector<DictionaryField> number_dictionaries(const Schema& schema);

/// Flatbuffer bytes (no framing) of a Schema message. `schema.dictionaries` gives the ids, one
/// entry per dictionary-encoded field in the order of `number_dictionaries`; when it is empty the
/// schema's dictionaries are numbered by `number_dictionaries`. Extension types are written as
/// their storage type with `ARROW:extension:name` / `ARROW:extension:metadata` field metadata;
/// an extension type stored as a dictionary, like a dictionary of extension values, is a
/// dictionary-encoded field with those keys (as Arrow writes both), and decodes as Arrow reads
/// it: extension<dictionary<...>>. Throws `InvalidArgument` when the ids do not match the
/// schema, `NotImplemented` for what IPC cannot hold (a dictionary of dictionaries, two
/// extension types on one field).
std::shared_ptr<Buffer> encode_schema_message(const SchemaHeader& schema);
std::shared_ptr<Buffer> encode_record_batch_message(const RecordBatchHeader& header,
                                                    int64_t body_length);
std::shared_ptr<Buffer> encode_dictionary_batch_message(const DictionaryBatchHeader& header,
                                                        int64_t body_length);
/// Verifies and decodes a Message flatbuffer (any alignment; copied when not 8-byte aligned).
/// Throws `FormatError` for anything malformed or unsupported (big-endian data, metadata
/// versions before V4, tensors), saying what and where ("schema field 0 'a' child 1 'b': ...").
/// Record batch buffers are checked to lie inside the message's body length.
MessageHeader decode_message(const uint8_t* data, int64_t size);

/// Flatbuffer bytes of an IPC file footer.
std::shared_ptr<Buffer> encode_footer(const Footer& footer);
/// Verifies and decodes an IPC file footer; throws `FormatError` as `decode_message` does.
/// A footer version older than V4 (left at its default by Arrow 0.14 and others) reads as V4:
/// the versions that count are the messages' own.
Footer decode_footer(const uint8_t* data, int64_t size);

}  // namespace bowstring::ipc
