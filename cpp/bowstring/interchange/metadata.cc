#include "bowstring/interchange/metadata.h"

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bowstring/array/validate.h"
#include "bowstring/interchange/format/File_generated.h"
#include "bowstring/interchange/format/Message_generated.h"
#include "bowstring/interchange/format/Schema_generated.h"
#include "bowstring/types/storage.h"
#include "bowstring/util/error.h"
#include "bowstring/util/utf8.h"

namespace bowstring::ipc {

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

constexpr std::string_view kExtensionNameKey = "ARROW:extension:name";
constexpr std::string_view kExtensionMetadataKey = "ARROW:extension:metadata";

/// Flatbuffer tables nest a few levels deeper than fields do (message, schema, field, type,
/// dictionary encoding, index type), so this lets the depth check of the decoder, which names
/// the field, see anything up to twice our nesting limit; deeper input fails verification.
constexpr flatbuffers::uoffset_t kVerifierMaxDepth = 2 * kMaxNestingDepth;
/// Every table takes bytes of its own, so a buffer holds far fewer tables than this many per
/// byte; more means tables referenced many times over, and the verifier stops counting there
/// (Arrow's readers use the same bound).
constexpr int64_t kVerifierTablesPerByte = 8;

/// `name` between single quotes, its bytes that are not UTF-8 escaped: error messages are text.
std::string quoted(std::string_view name) { return "'" + escape_invalid_utf8(name) + "'"; }

/// Flatbuffer strings are UTF-8 (and names reach Python as `str`): `text` must be, or `fail`
/// is called with the problem, to which it prefixes where the text is.
template <typename Fail>
void check_utf8(std::string_view text, std::string_view what, Fail&& fail) {
  const int64_t bad = invalid_utf8_position(reinterpret_cast<const uint8_t*>(text.data()),
                                            static_cast<int64_t>(text.size()));
  if (bad >= 0) {
    fail(std::string(what) + " " + quoted(text) + " is not valid UTF-8 (byte " +
         std::to_string(bad) + " of " + std::to_string(text.size()) + ")");
  }
}

/// Checks that the keys and values of `metadata` are UTF-8.
template <typename Fail>
void check_metadata_utf8(const Metadata& metadata, Fail&& fail) {
  for (size_t i = 0; i < metadata.size(); ++i) {
    const auto& [key, value] = metadata[i];
    check_utf8(key, "metadata key " + std::to_string(i), fail);
    check_utf8(value, "metadata value " + std::to_string(i) + " (of key " + quoted(key) + ")",
               fail);
  }
}

// --- Encoding ------------------------------------------------------------------------------

std::shared_ptr<Buffer> finish(FlatBufferBuilder& builder) {
  return Buffer::copy_of(builder.GetBufferPointer(), builder.GetSize());
}

/// Writes `metadata`, refusing text that is not UTF-8 (the reader refuses it too); `where()`
/// names the metadata's owner for that error.
template <typename Where>
Offset<flatbuffers::Vector<Offset<fb::KeyValue>>> encode_metadata(FlatBufferBuilder& builder,
                                                                  const Metadata& metadata,
                                                                  Where&& where) {
  if (metadata.empty()) {
    return 0;
  }
  check_metadata_utf8(metadata, [&](const std::string& problem) {
    throw InvalidArgument(where() + ": " + problem + "; IPC metadata must be UTF-8");
  });
  std::vector<Offset<fb::KeyValue>> entries;
  entries.reserve(metadata.size());
  for (const auto& [key, value] : metadata) {
    // Key before value, as Arrow builds them (the bytes then match Arrow's).
    const auto key_offset = builder.CreateString(key);
    const auto value_offset = builder.CreateString(value);
    entries.push_back(fb::CreateKeyValue(builder, key_offset, value_offset));
  }
  return builder.CreateVector(entries);
}

fb::TimeUnit encode_time_unit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return fb::TimeUnit::SECOND;
    case TimeUnit::kMilli:
      return fb::TimeUnit::MILLISECOND;
    case TimeUnit::kMicro:
      return fb::TimeUnit::MICROSECOND;
    case TimeUnit::kNano:
      return fb::TimeUnit::NANOSECOND;
  }
  throw InvalidArgument("unknown time unit " + std::to_string(static_cast<int>(unit)));
}

Offset<fb::Int> encode_int(FlatBufferBuilder& builder, const DataType& type) {
  return fb::CreateInt(builder, type.bit_width(), type.is_signed_integer());
}

/// Writes the fields of a schema, taking dictionary ids from the list in pre-order.
class SchemaEncoder {
 public:
  SchemaEncoder(FlatBufferBuilder& builder, const std::vector<DictionaryField>& dictionaries)
      : builder_(builder), dictionaries_(dictionaries) {}

  Offset<fb::Schema> encode(const Schema& schema) {
    std::vector<Offset<fb::Field>> fields;
    fields.reserve(static_cast<size_t>(schema.num_fields()));
    for (int i = 0; i < schema.num_fields(); ++i) {
      path_.push_back({i, &schema.field(i)->name()});
      fields.push_back(encode_field(*schema.field(i)));
      path_.pop_back();
    }
    if (next_dictionary_ != dictionaries_.size()) {
      throw InvalidArgument("the schema has " + std::to_string(next_dictionary_) +
                            " dictionary-encoded fields but " +
                            std::to_string(dictionaries_.size()) + " dictionary ids were given");
    }
    const auto fields_offset = builder_.CreateVector(fields);
    const auto metadata_offset =
        encode_metadata(builder_, schema.metadata(), [] { return std::string("schema"); });
    return fb::CreateSchema(builder_, fb::Endianness::Little, fields_offset, metadata_offset);
  }

 private:
  /// "field 0 'a' child 1 'b'": where the field being written is, for errors.
  std::string path() const {
    std::string out;
    for (const auto& [index, name] : path_) {
      out += (out.empty() ? "field " : " child ") + std::to_string(index) + " " + quoted(*name);
    }
    return out;
  }

  Offset<fb::Field> encode_field(const Field& field) {
    // A field holds at most one extension type and one dictionary encoding: an extension over a
    // dictionary (as Arrow types it) and a dictionary of extension values both become a
    // dictionary-encoded field with the extension keys in its metadata, as Arrow writes them.
    TypePtr type = field.type();
    const ExtensionType* ext = nullptr;
    if (type->id() == TypeId::kExtension) {
      ext = &type_cast<ExtensionType>(*type);
      type = ext->storage_type();
    }
    const DictionaryType* dict = nullptr;
    int64_t dictionary_id = 0;
    if (type->id() == TypeId::kDictionary) {
      dict = &type_cast<DictionaryType>(*type);
      // Taken now: a dictionary's id comes before the ids of the dictionaries in its values.
      dictionary_id = take_dictionary_id(*dict);
      type = dict->value_type();
      if (type->storage_id() == TypeId::kDictionary) {
        throw NotImplemented(path() + ": a dictionary whose values are dictionary-encoded (" +
                             field.type()->to_string() + ") cannot be written to IPC");
      }
      if (type->id() == TypeId::kExtension) {
        if (ext != nullptr) {
          throw NotImplemented(path() + ": " + field.type()->to_string() +
                               " cannot be written to IPC: it has two extension types and a "
                               "field holds the keys of one");
        }
        ext = &type_cast<ExtensionType>(*type);
        type = ext->storage_type();
      }
    }
    Metadata metadata = field.metadata();
    if (ext != nullptr) {
      std::erase_if(metadata, [](const auto& entry) {
        return entry.first == kExtensionNameKey || entry.first == kExtensionMetadataKey;
      });
      // In the order Arrow's IPC writer puts them (its C Data export has the other order).
      metadata.emplace_back(kExtensionMetadataKey, ext->serialized());
      metadata.emplace_back(kExtensionNameKey, ext->extension_name());
    }
    std::vector<Offset<fb::Field>> children;
    children.reserve(type->fields().size());
    for (int i = 0; i < type->num_fields(); ++i) {
      path_.push_back({i, &type->field(i)->name()});
      children.push_back(encode_field(*type->field(i)));
      path_.pop_back();
    }
    // The parts in the order Arrow builds them, so that the bytes match Arrow's.
    const auto [type_type, type_offset] = encode_type(*type);
    Offset<fb::DictionaryEncoding> dictionary = 0;
    if (dict != nullptr) {
      const auto index = encode_int(builder_, *dict->index_type());
      dictionary = fb::CreateDictionaryEncoding(builder_, dictionary_id, index, dict->ordered(),
                                                fb::DictionaryKind::DenseArray);
    }
    check_utf8(field.name(), "name", [&](const std::string& problem) {
      throw InvalidArgument(path() + ": " + problem + "; IPC field names must be UTF-8");
    });
    const auto metadata_offset = encode_metadata(builder_, metadata, [&] { return path(); });
    const auto name_offset = builder_.CreateString(field.name());
    const auto children_offset = builder_.CreateVector(children);
    return fb::CreateField(builder_, name_offset, field.nullable(), type_type, type_offset,
                           dictionary, children_offset, metadata_offset);
  }

  /// The id of the next dictionary-encoded field in pre-order, checked to be for `dict`.
  int64_t take_dictionary_id(const DictionaryType& dict) {
    if (next_dictionary_ >= dictionaries_.size()) {
      throw InvalidArgument(path() + ": the schema has more dictionary-encoded fields than the " +
                            std::to_string(dictionaries_.size()) + " dictionary ids given");
    }
    const DictionaryField& entry = dictionaries_[next_dictionary_++];
    if (entry.type == nullptr || !entry.type->equals(dict)) {
      throw InvalidArgument(path() + ": dictionary id " + std::to_string(entry.id) + " is for " +
                            (entry.type ? entry.type->to_string() : std::string("no type")) +
                            ", not for " + dict.to_string() +
                            " (ids must follow the order of number_dictionaries)");
    }
    return entry.id;
  }

  std::pair<fb::Type, Offset<void>> encode_type(const DataType& type) {
    FlatBufferBuilder& b = builder_;
    switch (type.id()) {
      case TypeId::kNull:
        return {fb::Type::Null, fb::CreateNull(b).Union()};
      case TypeId::kBoolean:
        return {fb::Type::Bool, fb::CreateBool(b).Union()};
      case TypeId::kInt8:
      case TypeId::kUInt8:
      case TypeId::kInt16:
      case TypeId::kUInt16:
      case TypeId::kInt32:
      case TypeId::kUInt32:
      case TypeId::kInt64:
      case TypeId::kUInt64:
        return {fb::Type::Int, encode_int(b, type).Union()};
      case TypeId::kFloat16:
        return {fb::Type::FloatingPoint, fb::CreateFloatingPoint(b, fb::Precision::HALF).Union()};
      case TypeId::kFloat32:
        return {fb::Type::FloatingPoint, fb::CreateFloatingPoint(b, fb::Precision::SINGLE).Union()};
      case TypeId::kFloat64:
        return {fb::Type::FloatingPoint, fb::CreateFloatingPoint(b, fb::Precision::DOUBLE).Union()};
      case TypeId::kDecimal32:
      case TypeId::kDecimal64:
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: {
        const auto& decimal = type_cast<DecimalType>(type);
        return {fb::Type::Decimal,
                fb::CreateDecimal(b, decimal.precision(), decimal.scale(), decimal.bit_width())
                    .Union()};
      }
      case TypeId::kDate32:
        return {fb::Type::Date, fb::CreateDate(b, fb::DateUnit::DAY).Union()};
      case TypeId::kDate64:
        return {fb::Type::Date, fb::CreateDate(b, fb::DateUnit::MILLISECOND).Union()};
      case TypeId::kTime32:
      case TypeId::kTime64: {
        const auto& time = type_cast<TemporalUnitType>(type);
        return {fb::Type::Time,
                fb::CreateTime(b, encode_time_unit(time.unit()), time.bit_width()).Union()};
      }
      case TypeId::kTimestamp: {
        const auto& timestamp = type_cast<TimestampType>(type);
        check_utf8(timestamp.timezone(), "timezone", [&](const std::string& problem) {
          throw InvalidArgument(path() + ": " + problem + "; IPC metadata must be UTF-8");
        });
        const auto timezone =
            timestamp.timezone().empty() ? 0 : b.CreateString(timestamp.timezone());
        return {fb::Type::Timestamp,
                fb::CreateTimestamp(b, encode_time_unit(timestamp.unit()), timezone).Union()};
      }
      case TypeId::kDuration:
        return {fb::Type::Duration,
                fb::CreateDuration(b, encode_time_unit(type_cast<TemporalUnitType>(type).unit()))
                    .Union()};
      case TypeId::kIntervalMonths:
        return {fb::Type::Interval, fb::CreateInterval(b, fb::IntervalUnit::YEAR_MONTH).Union()};
      case TypeId::kIntervalDayTime:
        return {fb::Type::Interval, fb::CreateInterval(b, fb::IntervalUnit::DAY_TIME).Union()};
      case TypeId::kIntervalMonthDayNano:
        return {fb::Type::Interval,
                fb::CreateInterval(b, fb::IntervalUnit::MONTH_DAY_NANO).Union()};
      case TypeId::kString:
        return {fb::Type::Utf8, fb::CreateUtf8(b).Union()};
      case TypeId::kLargeString:
        return {fb::Type::LargeUtf8, fb::CreateLargeUtf8(b).Union()};
      case TypeId::kBinary:
        return {fb::Type::Binary, fb::CreateBinary(b).Union()};
      case TypeId::kLargeBinary:
        return {fb::Type::LargeBinary, fb::CreateLargeBinary(b).Union()};
      case TypeId::kStringView:
        return {fb::Type::Utf8View, fb::CreateUtf8View(b).Union()};
      case TypeId::kBinaryView:
        return {fb::Type::BinaryView, fb::CreateBinaryView(b).Union()};
      case TypeId::kFixedSizeBinary:
        return {fb::Type::FixedSizeBinary,
                fb::CreateFixedSizeBinary(b, type_cast<FixedSizeBinaryType>(type).width()).Union()};
      case TypeId::kList:
        return {fb::Type::List, fb::CreateList(b).Union()};
      case TypeId::kLargeList:
        return {fb::Type::LargeList, fb::CreateLargeList(b).Union()};
      case TypeId::kListView:
        return {fb::Type::ListView, fb::CreateListView(b).Union()};
      case TypeId::kLargeListView:
        return {fb::Type::LargeListView, fb::CreateLargeListView(b).Union()};
      case TypeId::kFixedSizeList:
        return {fb::Type::FixedSizeList,
                fb::CreateFixedSizeList(b, type_cast<FixedSizeListType>(type).list_size()).Union()};
      case TypeId::kStruct:
        return {fb::Type::Struct_, fb::CreateStruct_(b).Union()};
      case TypeId::kMap:
        return {fb::Type::Map, fb::CreateMap(b, type_cast<MapType>(type).keys_sorted()).Union()};
      case TypeId::kDenseUnion:
      case TypeId::kSparseUnion: {
        const auto& union_type = type_cast<UnionType>(type);
        std::vector<int32_t> type_ids(union_type.type_codes().begin(),
                                      union_type.type_codes().end());
        const auto ids_offset = b.CreateVector(type_ids);
        const fb::UnionMode mode =
            union_type.mode() == UnionMode::kDense ? fb::UnionMode::Dense : fb::UnionMode::Sparse;
        return {fb::Type::Union, fb::CreateUnion(b, mode, ids_offset).Union()};
      }
      case TypeId::kRunEndEncoded:
        return {fb::Type::RunEndEncoded, fb::CreateRunEndEncoded(b).Union()};
      case TypeId::kDictionary:
      case TypeId::kExtension:
        // Unwrapped by encode_field; seen here only when nested where IPC cannot hold them.
        break;
    }
    throw NotImplemented(path() + ": type " + type.to_string() + " cannot be written to IPC here");
  }

  FlatBufferBuilder& builder_;
  const std::vector<DictionaryField>& dictionaries_;
  size_t next_dictionary_ = 0;
  std::vector<std::pair<int, const std::string*>> path_;
};

Offset<fb::Schema> encode_schema(FlatBufferBuilder& builder, const SchemaHeader& header) {
  if (header.schema == nullptr) {
    throw InvalidArgument("schema message needs a schema");
  }
  if (header.dictionaries.empty()) {
    // Callers that do not care about ids get the standard numbering.
    const std::vector<DictionaryField> numbered = number_dictionaries(*header.schema);
    return SchemaEncoder(builder, numbered).encode(*header.schema);
  }
  return SchemaEncoder(builder, header.dictionaries).encode(*header.schema);
}

Offset<fb::RecordBatch> encode_record_batch(FlatBufferBuilder& builder,
                                            const RecordBatchHeader& header) {
  std::vector<fb::FieldNode> nodes;
  nodes.reserve(header.nodes.size());
  for (const FieldNode& node : header.nodes) {
    nodes.emplace_back(node.length, node.null_count);
  }
  std::vector<fb::Buffer> buffers;
  buffers.reserve(header.buffers.size());
  for (const BufferRange& range : header.buffers) {
    buffers.emplace_back(range.offset, range.length);
  }
  const auto nodes_offset = builder.CreateVectorOfStructs(nodes);
  const auto buffers_offset = builder.CreateVectorOfStructs(buffers);
  Offset<fb::BodyCompression> compression = 0;
  switch (header.compression) {
    case Compression::kNone:
      break;
    case Compression::kLz4Frame:
      compression = fb::CreateBodyCompression(builder, fb::CompressionType::LZ4_FRAME,
                                              fb::BodyCompressionMethod::BUFFER);
      break;
    case Compression::kZstd:
      compression = fb::CreateBodyCompression(builder, fb::CompressionType::ZSTD,
                                              fb::BodyCompressionMethod::BUFFER);
      break;
  }
  const auto variadic_offset = header.variadic_buffer_counts.empty()
                                   ? 0
                                   : builder.CreateVector(header.variadic_buffer_counts);
  return fb::CreateRecordBatch(builder, header.length, nodes_offset, buffers_offset, compression,
                               variadic_offset);
}

std::shared_ptr<Buffer> encode_message(FlatBufferBuilder& builder, fb::MessageHeader type,
                                       Offset<void> header, int64_t body_length) {
  builder.Finish(fb::CreateMessage(builder, fb::MetadataVersion::V5, type, header, body_length));
  return finish(builder);
}

// --- Decoding ------------------------------------------------------------------------------

/// The flatbuffer bytes at an 8-byte aligned address, copied when they are not already: the
/// flatbuffers accessors read 8-byte scalars in place.
class AlignedBytes {
 public:
  AlignedBytes(const uint8_t* data, int64_t size) : data_(data) {
    const bool copyable =
        data != nullptr && size > 0 && size < static_cast<int64_t>(FLATBUFFERS_MAX_BUFFER_SIZE);
    if (copyable && reinterpret_cast<uintptr_t>(data) % alignof(uint64_t) != 0) {
      copy_.resize((static_cast<size_t>(size) + 7) / 8);
      std::memcpy(copy_.data(), data, static_cast<size_t>(size));
      data_ = reinterpret_cast<const uint8_t*>(copy_.data());
    }
  }
  const uint8_t* data() const { return data_; }

 private:
  const uint8_t* data_;
  std::vector<uint64_t> copy_;
};

/// Runs `verify` over the flatbuffer, which must pass before anything is read from it.
template <typename Verify>
void verify_flatbuffer(const uint8_t* data, int64_t size, std::string_view what, Verify verify) {
  if (size <= 0 || data == nullptr) {
    throw FormatError(std::string(what) + " is empty");
  }
  if (size >= static_cast<int64_t>(FLATBUFFERS_MAX_BUFFER_SIZE)) {
    throw FormatError(std::string(what) + " of " + std::to_string(size) +
                      " bytes is larger than a flatbuffer can be");
  }
  flatbuffers::Verifier::Options options;
  options.max_depth = kVerifierMaxDepth;
  options.max_tables = static_cast<flatbuffers::uoffset_t>(
      std::min<int64_t>(kVerifierTablesPerByte * size, std::numeric_limits<uint32_t>::max()));
  flatbuffers::Verifier verifier(data, static_cast<size_t>(size), options);
  if (!verify(verifier)) {
    throw FormatError(std::string(what) + " (" + std::to_string(size) +
                      " bytes) is not a valid flatbuffer: offsets out of range, misaligned, "
                      "more tables than its size allows, or nested more than " +
                      std::to_string(kVerifierMaxDepth) + " tables deep");
  }
}

/// Element `i` of a vector of structs (or scalars), copied: the verifier checks that the
/// vector lies inside the buffer but not that 8-byte elements are 8-byte aligned.
template <typename T, typename Vector>
T element_at(const Vector& vector, flatbuffers::uoffset_t i) {
  T value;
  std::memcpy(static_cast<void*>(&value), vector.Data() + static_cast<size_t>(i) * sizeof(T),
              sizeof(T));
  return value;
}

std::string_view view_of(const flatbuffers::String* string) {
  return string == nullptr ? std::string_view() : string->string_view();
}

/// Flatbuffer offsets may point at one table or string many times over, so a few bytes could
/// describe a schema of billions of fields. Writers never share that way: what a message
/// decodes to is about as large as the message. This bounds it to a small multiple.
class DecodeBudget {
 public:
  explicit DecodeBudget(int64_t metadata_size) : remaining_(4 * metadata_size + 4096) {}

  /// Accounts for one decoded item (a field, a key/value pair) holding `bytes` of text.
  void charge(size_t bytes) {
    remaining_ -= static_cast<int64_t>(bytes) + kItemCost;
    if (remaining_ < 0) {
      throw FormatError(
          "metadata decodes to far more fields or text than its size allows: parts of the "
          "flatbuffer are referenced many times over");
    }
  }

 private:
  static constexpr int64_t kItemCost = 16;
  int64_t remaining_;
};

/// Reads key/value metadata, refusing text that is not UTF-8; `where()` names its owner.
template <typename Where>
Metadata decode_metadata(const flatbuffers::Vector<Offset<fb::KeyValue>>* entries,
                         DecodeBudget& budget, Where&& where) {
  Metadata metadata;
  if (entries == nullptr) {
    return metadata;
  }
  metadata.reserve(entries->size());
  for (const fb::KeyValue* entry : *entries) {
    const std::string_view key = view_of(entry->key());
    const std::string_view value = view_of(entry->value());
    budget.charge(key.size() + value.size());
    metadata.emplace_back(key, value);
  }
  check_metadata_utf8(
      metadata, [&](const std::string& problem) { throw FormatError(where() + " " + problem); });
  return metadata;
}

MetadataVersion decode_version(fb::MetadataVersion version, std::string_view what) {
  switch (version) {
    case fb::MetadataVersion::V4:
      return MetadataVersion::kV4;
    case fb::MetadataVersion::V5:
      return MetadataVersion::kV5;
    case fb::MetadataVersion::V1:
    case fb::MetadataVersion::V2:
    case fb::MetadataVersion::V3:
      throw FormatError(std::string(what) + " has metadata version V" +
                        std::to_string(static_cast<int>(version) + 1) +
                        ", written by Arrow before 0.8; only V4 and V5 are supported");
  }
  throw FormatError(std::string(what) + " has unknown metadata version " +
                    std::to_string(static_cast<int>(version)) +
                    " (newer than V5?); only V4 and V5 are supported");
}

/// Reads the fields of a schema, checking every type parameter and the nesting depth, and
/// collecting the dictionary-encoded fields in pre-order. Errors name the field by its path
/// ("schema field 0 'a' child 1 'b'"), built only when needed.
class SchemaDecoder {
 public:
  SchemaDecoder(std::string what, DecodeBudget& budget) : what_(std::move(what)), budget_(budget) {}

  SchemaHeader decode(const fb::Schema* schema) {
    if (schema == nullptr) {
      throw FormatError(what_ + " is missing");
    }
    switch (schema->endianness()) {
      case fb::Endianness::Little:
        break;
      case fb::Endianness::Big:
        throw FormatError(what_ + " describes big-endian data; big-endian data is not supported");
      default:
        throw FormatError(what_ + " has unknown endianness " +
                          std::to_string(static_cast<int>(schema->endianness())));
    }
    FieldVector fields;
    if (const auto* fb_fields = schema->fields()) {
      fields.reserve(fb_fields->size());
      for (flatbuffers::uoffset_t i = 0; i < fb_fields->size(); ++i) {
        fields.push_back(decode_child(*fb_fields->Get(i), i, 0));
      }
    }
    SchemaHeader header;
    header.schema = std::make_shared<const Schema>(
        std::move(fields),
        decode_metadata(schema->custom_metadata(), budget_, [&] { return what_; }));
    header.dictionaries = std::move(dictionaries_);
    return header;
  }

 private:
  std::string path() const {
    std::string out = what_;
    for (size_t i = 0; i < path_.size(); ++i) {
      out += (i == 0 ? " field " : " child ") + std::to_string(path_[i].first) + " " +
             quoted(path_[i].second);
    }
    return out;
  }

  [[noreturn]] void fail(const std::string& problem) const { throw FormatError(path() + problem); }

  FieldPtr decode_child(const fb::Field& field, flatbuffers::uoffset_t index, int depth) {
    path_.push_back({static_cast<int64_t>(index), view_of(field.name())});
    FieldPtr decoded = decode_field(field, depth);
    path_.pop_back();
    return decoded;
  }

  FieldPtr decode_field(const fb::Field& field, int depth) {
    if (depth > kMaxNestingDepth) {
      fail(" is nested more than " + std::to_string(kMaxNestingDepth) + " levels deep");
    }
    const std::string_view name = view_of(field.name());
    budget_.charge(name.size());
    check_utf8(name, ": name", [&](const std::string& problem) { fail(problem); });
    // Pre-order: a dictionary is numbered before the dictionaries inside its values.
    const fb::DictionaryEncoding* encoding = field.dictionary();
    const size_t dictionary_slot = dictionaries_.size();
    if (encoding != nullptr) {
      dictionaries_.push_back({encoding->id(), nullptr});
    }
    // The values of a dictionary are one level below its indices.
    const int child_depth = depth + (encoding != nullptr ? 2 : 1);
    FieldVector children;
    if (const auto* fb_children = field.children()) {
      children.reserve(fb_children->size());
      for (flatbuffers::uoffset_t i = 0; i < fb_children->size(); ++i) {
        children.push_back(decode_child(*fb_children->Get(i), i, child_depth));
      }
    }
    Metadata metadata = decode_metadata(field.custom_metadata(), budget_, [&] { return path(); });
    TypePtr type;
    try {
      type = decode_type(field, std::move(children));
      if (encoding != nullptr) {
        auto dict = decode_dictionary(*encoding, std::move(type));
        check_shared_dictionary(encoding->id(), *dict);
        dictionaries_[dictionary_slot].type = dict;
        type = std::move(dict);
      }
      // As Arrow reads it: the extension type of a dictionary-encoded field is stored as the
      // dictionary, extension<dictionary<...>>.
      type = apply_extension(std::move(type), metadata);
    } catch (const FormatError&) {
      throw;
    } catch (const Error& error) {
      // A type constructor refused a parameter the checks here let through.
      fail(std::string(": ") + error.what());
    }
    return std::make_shared<const Field>(std::string(name), std::move(type), field.nullable(),
                                         std::move(metadata));
  }

  /// Turns `ARROW:extension:*` metadata into an extension type (and removes those keys).
  static TypePtr apply_extension(TypePtr storage, Metadata& metadata) {
    std::optional<std::string> name;
    std::string serialized;
    for (const auto& [key, value] : metadata) {
      if (key == kExtensionNameKey) {
        name = value;
      } else if (key == kExtensionMetadataKey) {
        serialized = value;
      }
    }
    if (!name.has_value()) {
      return storage;
    }
    std::erase_if(metadata, [](const auto& entry) {
      return entry.first == kExtensionNameKey || entry.first == kExtensionMetadataKey;
    });
    return extension(std::move(storage), std::move(*name), std::move(serialized));
  }

  /// Fields may share a dictionary (as Arrow allows) only if they agree on its value type: the
  /// one dictionary batch is read as that type.
  void check_shared_dictionary(int64_t id, const DictionaryType& dict) {
    const auto [entry, inserted] = value_types_.emplace(id, dict.value_type());
    if (!inserted && !entry->second->equals(*dict.value_type())) {
      fail(": dictionary id " + std::to_string(id) + " holds " + dict.value_type()->to_string() +
           " here but " + entry->second->to_string() + " in an earlier field");
    }
  }

  std::shared_ptr<const DictionaryType> decode_dictionary(const fb::DictionaryEncoding& encoding,
                                                          TypePtr value_type) const {
    if (encoding.dictionary_kind() != fb::DictionaryKind::DenseArray) {
      fail(": unknown dictionary kind " +
           std::to_string(static_cast<int>(encoding.dictionary_kind())));
    }
    // Arrow's format reads a missing index type as int32.
    const TypePtr index_type = encoding.index_type() == nullptr
                                   ? int32()
                                   : decode_int(*encoding.index_type(), " dictionary index");
    return std::make_shared<const DictionaryType>(index_type, std::move(value_type),
                                                  encoding.is_ordered());
  }

  /// The integer type of an Int table; `where` adds to the path (" dictionary index").
  TypePtr decode_int(const fb::Int& int_type, std::string_view where = {}) const {
    const bool is_signed = int_type.is_signed();
    switch (int_type.bit_width()) {
      case 8:
        return is_signed ? int8() : uint8();
      case 16:
        return is_signed ? int16() : uint16();
      case 32:
        return is_signed ? int32() : uint32();
      case 64:
        return is_signed ? int64() : uint64();
      default:
        fail(std::string(where) + ": integer bit width " + std::to_string(int_type.bit_width()) +
             " is not 8, 16, 32 or 64");
    }
  }

  TimeUnit decode_time_unit(fb::TimeUnit unit) const {
    switch (unit) {
      case fb::TimeUnit::SECOND:
        return TimeUnit::kSecond;
      case fb::TimeUnit::MILLISECOND:
        return TimeUnit::kMilli;
      case fb::TimeUnit::MICROSECOND:
        return TimeUnit::kMicro;
      case fb::TimeUnit::NANOSECOND:
        return TimeUnit::kNano;
    }
    fail(": unknown time unit " + std::to_string(static_cast<int>(unit)));
  }

  void expect_children(const FieldVector& children, size_t expected,
                       std::string_view type_name) const {
    if (children.size() != expected) {
      fail(": a " + std::string(type_name) + " field has " + std::to_string(expected) +
           (expected == 1 ? " child" : " children") + ", got " + std::to_string(children.size()));
    }
  }

  /// The table of union member `T`, which must be present.
  template <typename T>
  const T& table(const T* table, std::string_view type_name) const {
    if (table == nullptr) {
      fail(": the " + std::string(type_name) + " type table is missing");
    }
    return *table;
  }

  TypePtr leaf(const FieldVector& children, TypePtr type) const {
    expect_children(children, 0, type->to_string());
    return type;
  }

  TypePtr decode_type(const fb::Field& field, FieldVector children) const {
    switch (field.type_type()) {
      case fb::Type::NONE:
        fail(" has no type");
      case fb::Type::Null:
        table(field.type_as_Null(), "Null");
        return leaf(children, null());
      case fb::Type::Bool:
        table(field.type_as_Bool(), "Bool");
        return leaf(children, boolean());
      case fb::Type::Int:
        return leaf(children, decode_int(table(field.type_as_Int(), "Int")));
      case fb::Type::FloatingPoint:
        return leaf(
            children,
            decode_float(table(field.type_as_FloatingPoint(), "FloatingPoint").precision()));
      case fb::Type::Binary:
        table(field.type_as_Binary(), "Binary");
        return leaf(children, binary());
      case fb::Type::Utf8:
        table(field.type_as_Utf8(), "Utf8");
        return leaf(children, utf8());
      case fb::Type::LargeBinary:
        table(field.type_as_LargeBinary(), "LargeBinary");
        return leaf(children, large_binary());
      case fb::Type::LargeUtf8:
        table(field.type_as_LargeUtf8(), "LargeUtf8");
        return leaf(children, large_utf8());
      case fb::Type::BinaryView:
        table(field.type_as_BinaryView(), "BinaryView");
        return leaf(children, binary_view());
      case fb::Type::Utf8View:
        table(field.type_as_Utf8View(), "Utf8View");
        return leaf(children, utf8_view());
      case fb::Type::Decimal:
        return leaf(children, decode_decimal(table(field.type_as_Decimal(), "Decimal")));
      case fb::Type::Date:
        return leaf(children, decode_date(table(field.type_as_Date(), "Date").unit()));
      case fb::Type::Time:
        return leaf(children, decode_time(table(field.type_as_Time(), "Time")));
      case fb::Type::Timestamp: {
        const auto& timestamp = table(field.type_as_Timestamp(), "Timestamp");
        const std::string_view timezone = view_of(timestamp.timezone());
        budget_.charge(timezone.size());
        check_utf8(timezone, ": timezone", [&](const std::string& problem) { fail(problem); });
        return leaf(children, bowstring::timestamp(decode_time_unit(timestamp.unit()),
                                                   std::string(timezone)));
      }
      case fb::Type::Duration:
        return leaf(children,
                    duration(decode_time_unit(table(field.type_as_Duration(), "Duration").unit())));
      case fb::Type::Interval:
        return leaf(children, decode_interval(table(field.type_as_Interval(), "Interval").unit()));
      case fb::Type::FixedSizeBinary: {
        const int32_t width =
            table(field.type_as_FixedSizeBinary(), "FixedSizeBinary").byte_width();
        if (width < 0) {
          fail(": fixed_size_binary width " + std::to_string(width) + " is negative");
        }
        return leaf(children, fixed_size_binary(width));
      }
      case fb::Type::List:
        table(field.type_as_List(), "List");
        return list_like(TypeId::kList, std::move(children));
      case fb::Type::LargeList:
        table(field.type_as_LargeList(), "LargeList");
        return list_like(TypeId::kLargeList, std::move(children));
      case fb::Type::ListView:
        table(field.type_as_ListView(), "ListView");
        return list_like(TypeId::kListView, std::move(children));
      case fb::Type::LargeListView:
        table(field.type_as_LargeListView(), "LargeListView");
        return list_like(TypeId::kLargeListView, std::move(children));
      case fb::Type::FixedSizeList: {
        const int32_t size = table(field.type_as_FixedSizeList(), "FixedSizeList").list_size();
        if (size < 0) {
          fail(": fixed_size_list size " + std::to_string(size) + " is negative");
        }
        expect_children(children, 1, "fixed_size_list");
        return fixed_size_list(std::move(children[0]), size);
      }
      case fb::Type::Struct_:
        table(field.type_as_Struct_(), "Struct_");
        return struct_(std::move(children));
      case fb::Type::Map:
        return decode_map(table(field.type_as_Map(), "Map"), std::move(children));
      case fb::Type::Union:
        return decode_union(table(field.type_as_Union(), "Union"), std::move(children));
      case fb::Type::RunEndEncoded:
        table(field.type_as_RunEndEncoded(), "RunEndEncoded");
        return decode_run_end_encoded(std::move(children));
    }
    fail(": unknown type " + std::to_string(static_cast<int>(field.type_type())) +
         " (written by a newer Arrow?)");
  }

  TypePtr decode_float(fb::Precision precision) const {
    switch (precision) {
      case fb::Precision::HALF:
        return float16();
      case fb::Precision::SINGLE:
        return float32();
      case fb::Precision::DOUBLE:
        return float64();
    }
    fail(": unknown floating point precision " + std::to_string(static_cast<int>(precision)));
  }

  TypePtr decode_date(fb::DateUnit unit) const {
    switch (unit) {
      case fb::DateUnit::DAY:
        return date32();
      case fb::DateUnit::MILLISECOND:
        return date64();
    }
    fail(": unknown date unit " + std::to_string(static_cast<int>(unit)));
  }

  TypePtr decode_interval(fb::IntervalUnit unit) const {
    switch (unit) {
      case fb::IntervalUnit::YEAR_MONTH:
        return month_interval();
      case fb::IntervalUnit::DAY_TIME:
        return day_time_interval();
      case fb::IntervalUnit::MONTH_DAY_NANO:
        return month_day_nano_interval();
    }
    fail(": unknown interval unit " + std::to_string(static_cast<int>(unit)));
  }

  TypePtr decode_decimal(const fb::Decimal& decimal) const {
    TypeId id;
    switch (decimal.bit_width()) {
      case 32:
        id = TypeId::kDecimal32;
        break;
      case 64:
        id = TypeId::kDecimal64;
        break;
      case 128:
        id = TypeId::kDecimal128;
        break;
      case 256:
        id = TypeId::kDecimal256;
        break;
      default:
        fail(": decimal bit width " + std::to_string(decimal.bit_width()) +
             " is not 32, 64, 128 or 256");
    }
    const int32_t max_precision = DecimalType::max_precision(id);
    if (decimal.precision() < 1 || decimal.precision() > max_precision) {
      fail(": decimal precision " + std::to_string(decimal.precision()) + " is not between 1 and " +
           std::to_string(max_precision) + " for " + std::to_string(decimal.bit_width()) +
           "-bit decimals");
    }
    if (decimal.scale() > decimal.precision()) {
      fail(": decimal scale " + std::to_string(decimal.scale()) + " is larger than its precision " +
           std::to_string(decimal.precision()));
    }
    return std::make_shared<DecimalType>(id, decimal.precision(), decimal.scale());
  }

  TypePtr decode_time(const fb::Time& time) const {
    const TimeUnit unit = decode_time_unit(time.unit());
    const bool coarse = unit == TimeUnit::kSecond || unit == TimeUnit::kMilli;
    const int expected_width = coarse ? 32 : 64;
    if (time.bit_width() != expected_width) {
      fail(": time of unit " + std::string(time_unit_name(unit)) + " has " +
           std::to_string(expected_width) + " bits, got " + std::to_string(time.bit_width()));
    }
    return coarse ? time32(unit) : time64(unit);
  }

  TypePtr list_like(TypeId id, FieldVector children) const {
    expect_children(children, 1, type_id_name(id));
    return std::make_shared<ListType>(id, std::move(children[0]));
  }

  TypePtr decode_map(const fb::Map& map, FieldVector children) const {
    expect_children(children, 1, "map");
    const FieldPtr& entries = children[0];
    if (entries->type()->id() != TypeId::kStruct || entries->type()->num_fields() != 2) {
      fail(": the entries of a map must be a struct of a key and an item, got " +
           entries->type()->to_string());
    }
    if (entries->nullable()) {
      fail(": the entries field of a map must not be nullable");
    }
    if (entries->type()->field(0)->nullable()) {
      fail(": the key field of a map must not be nullable");
    }
    return std::make_shared<MapType>(entries, map.keys_sorted());
  }

  TypePtr decode_union(const fb::Union& union_table, FieldVector children) const {
    UnionMode mode;
    switch (union_table.mode()) {
      case fb::UnionMode::Sparse:
        mode = UnionMode::kSparse;
        break;
      case fb::UnionMode::Dense:
        mode = UnionMode::kDense;
        break;
      default:
        fail(": unknown union mode " + std::to_string(static_cast<int>(union_table.mode())));
    }
    if (children.size() > UnionType::kMaxTypeCode + 1) {
      fail(": a union has at most " + std::to_string(UnionType::kMaxTypeCode + 1) +
           " children, got " + std::to_string(children.size()));
    }
    std::vector<int8_t> type_codes;
    if (const auto* ids = union_table.type_ids()) {
      if (ids->size() != children.size()) {
        fail(": union has " + std::to_string(children.size()) + " children but " +
             std::to_string(ids->size()) + " type ids");
      }
      bool seen[UnionType::kMaxTypeCode + 1] = {};
      for (flatbuffers::uoffset_t i = 0; i < ids->size(); ++i) {
        const int32_t id = ids->Get(i);
        if (id < 0 || id > UnionType::kMaxTypeCode) {
          fail(": union type id " + std::to_string(id) + " of child " + std::to_string(i) +
               " is not between 0 and " + std::to_string(UnionType::kMaxTypeCode));
        }
        if (seen[id]) {
          fail(": union type id " + std::to_string(id) + " is used twice");
        }
        seen[id] = true;
        type_codes.push_back(static_cast<int8_t>(id));
      }
    } else {
      for (size_t i = 0; i < children.size(); ++i) {
        type_codes.push_back(static_cast<int8_t>(i));
      }
    }
    return std::make_shared<UnionType>(mode, std::move(children), std::move(type_codes));
  }

  TypePtr decode_run_end_encoded(FieldVector children) const {
    expect_children(children, 2, "run_end_encoded");
    const FieldPtr& run_ends = children[0];
    const TypeId run_end_id = run_ends->type()->id();
    if (run_end_id != TypeId::kInt16 && run_end_id != TypeId::kInt32 &&
        run_end_id != TypeId::kInt64) {
      fail(": run ends must be int16, int32 or int64, got " + run_ends->type()->to_string());
    }
    if (run_ends->nullable()) {
      fail(": the run ends field of run_end_encoded must not be nullable");
    }
    return run_end_encoded(run_ends->type(), children[1]->type());
  }

  std::string what_;
  DecodeBudget& budget_;
  /// Index and name of each field from the top-level one down to the one being decoded.
  std::vector<std::pair<int64_t, std::string_view>> path_;
  std::vector<DictionaryField> dictionaries_;
  std::unordered_map<int64_t, TypePtr> value_types_;
};

RecordBatchHeader decode_record_batch(const fb::RecordBatch* batch, int64_t body_length,
                                      const std::string& what) {
  if (batch == nullptr) {
    throw FormatError(what + " header is missing");
  }
  RecordBatchHeader header;
  header.length = batch->length();
  if (header.length < 0) {
    throw FormatError(what + " has negative length " + std::to_string(header.length));
  }
  if (const auto* nodes = batch->nodes()) {
    header.nodes.reserve(nodes->size());
    for (flatbuffers::uoffset_t i = 0; i < nodes->size(); ++i) {
      const auto node = element_at<fb::FieldNode>(*nodes, i);
      if (node.length() < 0 || node.null_count() < 0 || node.null_count() > node.length()) {
        throw FormatError(what + " node " + std::to_string(i) + " has length " +
                          std::to_string(node.length()) + " and null count " +
                          std::to_string(node.null_count()) +
                          "; both must be non-negative and the null count at most the length");
      }
      header.nodes.push_back({node.length(), node.null_count()});
    }
  }
  if (const auto* buffers = batch->buffers()) {
    header.buffers.reserve(buffers->size());
    for (flatbuffers::uoffset_t i = 0; i < buffers->size(); ++i) {
      const auto buffer = element_at<fb::Buffer>(*buffers, i);
      if (buffer.offset() < 0 || buffer.length() < 0 || buffer.offset() > body_length ||
          buffer.length() > body_length - buffer.offset()) {
        throw FormatError(what + " buffer " + std::to_string(i) + " (offset " +
                          std::to_string(buffer.offset()) + ", length " +
                          std::to_string(buffer.length()) + ") is not inside the body of " +
                          std::to_string(body_length) + " bytes");
      }
      header.buffers.push_back({buffer.offset(), buffer.length()});
    }
  }
  if (const auto* compression = batch->compression()) {
    switch (compression->codec()) {
      case fb::CompressionType::LZ4_FRAME:
        header.compression = Compression::kLz4Frame;
        break;
      case fb::CompressionType::ZSTD:
        header.compression = Compression::kZstd;
        break;
      default:
        throw FormatError(what + " has unknown compression codec " +
                          std::to_string(static_cast<int>(compression->codec())));
    }
    if (compression->method() != fb::BodyCompressionMethod::BUFFER) {
      throw FormatError(what + " has unknown body compression method " +
                        std::to_string(static_cast<int>(compression->method())));
    }
  }
  if (const auto* counts = batch->variadic_buffer_counts()) {
    header.variadic_buffer_counts.reserve(counts->size());
    for (flatbuffers::uoffset_t i = 0; i < counts->size(); ++i) {
      const auto count = element_at<int64_t>(*counts, i);
      if (count < 0) {
        throw FormatError(what + " variadic buffer count " + std::to_string(i) + " is negative (" +
                          std::to_string(count) + ")");
      }
      header.variadic_buffer_counts.push_back(count);
    }
  }
  return header;
}

FileBlock decode_block(const fb::Block& block, const std::string& what) {
  if (block.offset() < 0 || block.metadata_length() < 0 || block.body_length() < 0) {
    throw FormatError(what + " has offset " + std::to_string(block.offset()) +
                      ", metadata length " + std::to_string(block.metadata_length()) +
                      " and body length " + std::to_string(block.body_length()) +
                      "; none may be negative");
  }
  return {block.offset(), block.metadata_length(), block.body_length()};
}

std::vector<FileBlock> decode_blocks(const flatbuffers::Vector<const fb::Block*>* blocks,
                                     const std::string& what) {
  std::vector<FileBlock> result;
  if (blocks == nullptr) {
    return result;
  }
  result.reserve(blocks->size());
  for (flatbuffers::uoffset_t i = 0; i < blocks->size(); ++i) {
    result.push_back(
        decode_block(element_at<fb::Block>(*blocks, i), what + " " + std::to_string(i)));
  }
  return result;
}

void add_dictionary_fields(const TypePtr& type, std::vector<DictionaryField>& out) {
  const TypePtr& storage = storage_of(type);
  if (storage->id() == TypeId::kDictionary) {
    auto dict = std::static_pointer_cast<const DictionaryType>(storage);
    out.push_back({static_cast<int64_t>(out.size()), dict});
    add_dictionary_fields(dict->value_type(), out);
    return;
  }
  for (const FieldPtr& child : storage->fields()) {
    add_dictionary_fields(child->type(), out);
  }
}

}  // namespace

std::vector<DictionaryField> number_dictionaries(const Schema& schema) {
  std::vector<DictionaryField> dictionaries;
  for (const FieldPtr& field : schema.fields()) {
    add_dictionary_fields(field->type(), dictionaries);
  }
  return dictionaries;
}

std::shared_ptr<Buffer> encode_schema_message(const SchemaHeader& schema) {
  FlatBufferBuilder builder;
  const auto header = encode_schema(builder, schema);
  return encode_message(builder, fb::MessageHeader::Schema, header.Union(), 0);
}

std::shared_ptr<Buffer> encode_record_batch_message(const RecordBatchHeader& header,
                                                    int64_t body_length) {
  FlatBufferBuilder builder;
  const auto batch = encode_record_batch(builder, header);
  return encode_message(builder, fb::MessageHeader::RecordBatch, batch.Union(), body_length);
}

std::shared_ptr<Buffer> encode_dictionary_batch_message(const DictionaryBatchHeader& header,
                                                        int64_t body_length) {
  FlatBufferBuilder builder;
  const auto data = encode_record_batch(builder, header.data);
  const auto batch = fb::CreateDictionaryBatch(builder, header.id, data, header.is_delta);
  return encode_message(builder, fb::MessageHeader::DictionaryBatch, batch.Union(), body_length);
}

MessageHeader decode_message(const uint8_t* data, int64_t size) {
  const AlignedBytes aligned(data, size);
  verify_flatbuffer(aligned.data(), size, "message metadata", [](flatbuffers::Verifier& verifier) {
    return fb::VerifyMessageBuffer(verifier);
  });
  const fb::Message* message = fb::GetMessage(aligned.data());
  MessageHeader header;
  header.version = decode_version(message->version(), "message");
  header.body_length = message->body_length();
  if (header.body_length < 0) {
    throw FormatError("message has negative body length " + std::to_string(header.body_length));
  }
  DecodeBudget budget(size);
  header.custom_metadata =
      decode_metadata(message->custom_metadata(), budget, [] { return std::string("message"); });
  switch (message->header_type()) {
    case fb::MessageHeader::Schema:
      header.type = MessageType::kSchema;
      header.schema = SchemaDecoder("schema", budget).decode(message->header_as_Schema());
      return header;
    case fb::MessageHeader::RecordBatch:
      header.type = MessageType::kRecordBatch;
      header.record_batch =
          decode_record_batch(message->header_as_RecordBatch(), header.body_length, "record batch");
      return header;
    case fb::MessageHeader::DictionaryBatch: {
      header.type = MessageType::kDictionaryBatch;
      const fb::DictionaryBatch* batch = message->header_as_DictionaryBatch();
      if (batch == nullptr) {
        throw FormatError("dictionary batch header is missing");
      }
      DictionaryBatchHeader dictionary;
      dictionary.id = batch->id();
      dictionary.is_delta = batch->is_delta();
      dictionary.data = decode_record_batch(batch->data(), header.body_length,
                                            "dictionary batch " + std::to_string(batch->id()));
      header.dictionary_batch = std::move(dictionary);
      return header;
    }
    case fb::MessageHeader::Tensor:
    case fb::MessageHeader::SparseTensor:
      throw FormatError(
          "tensor messages are not supported (only schemas, dictionary batches and "
          "record batches are)");
    case fb::MessageHeader::NONE:
      throw FormatError("message has no header");
  }
  throw FormatError("unknown message type " +
                    std::to_string(static_cast<int>(message->header_type())));
}

std::shared_ptr<Buffer> encode_footer(const Footer& footer) {
  FlatBufferBuilder builder;
  const auto schema = encode_schema(builder, footer.schema);
  const auto encode_blocks = [&builder](const std::vector<FileBlock>& blocks) {
    std::vector<fb::Block> encoded;
    encoded.reserve(blocks.size());
    for (const FileBlock& block : blocks) {
      encoded.emplace_back(block.offset, block.metadata_length, block.body_length);
    }
    return builder.CreateVectorOfStructs(encoded);
  };
  const auto dictionaries = encode_blocks(footer.dictionaries);
  const auto record_batches = encode_blocks(footer.record_batches);
  const auto metadata =
      encode_metadata(builder, footer.custom_metadata, [] { return std::string("file footer"); });
  const auto version =
      footer.version == MetadataVersion::kV4 ? fb::MetadataVersion::V4 : fb::MetadataVersion::V5;
  builder.Finish(
      fb::CreateFooter(builder, version, schema, dictionaries, record_batches, metadata));
  return finish(builder);
}

Footer decode_footer(const uint8_t* data, int64_t size) {
  const AlignedBytes aligned(data, size);
  verify_flatbuffer(aligned.data(), size, "file footer", [](flatbuffers::Verifier& verifier) {
    return fb::VerifyFooterBuffer(verifier);
  });
  const fb::Footer* fb_footer = fb::GetFooter(aligned.data());
  Footer footer;
  // Some writers (Arrow 0.14 among them) left the footer's version at its default, V1; the
  // version that matters is each message's own, checked when the message is read.
  const fb::MetadataVersion version = fb_footer->version();
  const bool old = version >= fb::MetadataVersion::V1 && version < fb::MetadataVersion::V4;
  footer.version = old ? MetadataVersion::kV4 : decode_version(version, "file footer");
  DecodeBudget budget(size);
  footer.schema = SchemaDecoder("footer schema", budget).decode(fb_footer->schema());
  footer.dictionaries = decode_blocks(fb_footer->dictionaries(), "footer dictionary block");
  footer.record_batches = decode_blocks(fb_footer->record_batches(), "footer record batch block");
  footer.custom_metadata = decode_metadata(fb_footer->custom_metadata(), budget,
                                           [] { return std::string("file footer"); });
  return footer;
}

}  // namespace bowstring::ipc
