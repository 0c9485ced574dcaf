#include "bowstring/interchange/c_data.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "bowstring/array/validate.h"
#include "bowstring/types/storage.h"
#include "bowstring/util/error.h"
#include "bowstring/util/utf8.h"

namespace bowstring {
namespace {

constexpr std::string_view kExtensionNameKey = "ARROW:extension:name";
constexpr std::string_view kExtensionMetadataKey = "ARROW:extension:metadata";

// Stands in for a buffer a producer left null because it needs no bytes (and for the single
// zero offset of an empty binary or list array), so that every required buffer of an imported
// array exists.
alignas(64) constexpr uint8_t kZeroBytes[64] = {};

template <typename Struct>
void release_if_live(Struct* c_struct) {
  if (c_struct->release != nullptr) {
    c_struct->release(c_struct);
  }
}

// A C struct owned by us: taken from the caller (whose copy is marked released, as the
// specification's "move" says) and released when this goes away.
template <typename Struct>
class Owned {
 public:
  explicit Owned(Struct* source) noexcept : was_null_(source == nullptr) {
    std::memset(&value_, 0, sizeof(value_));
    if (source != nullptr) {
      value_ = *source;
      source->release = nullptr;
    }
  }
  Owned(Owned&& other) noexcept : value_(other.value_), was_null_(other.was_null_) {
    other.value_.release = nullptr;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Owned& operator=(Owned&&) = delete;
  ~Owned() { release_if_live(&value_); }

  /// Throws `InvalidArgument` unless a live struct was taken.
  void check_live(const char* struct_name) const {
    if (was_null_) {
      throw InvalidArgument(std::string("the ") + struct_name + " pointer is null");
    }
    if (value_.release == nullptr) {
      throw InvalidArgument(std::string("the ") + struct_name +
                            " has already been released (or moved)");
    }
  }
  Struct& get() { return value_; }

 private:
  Struct value_;
  bool was_null_;
};

// --- export: schemas ----------------------------------------------------------------------

char unit_letter(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return 's';
    case TimeUnit::kMilli:
      return 'm';
    case TimeUnit::kMicro:
      return 'u';
    case TimeUnit::kNano:
      break;
  }
  return 'n';
}

// The types whose format is one character.
struct PrimitiveCode {
  char code;
  TypeId id;
};
constexpr PrimitiveCode kPrimitiveCodes[] = {
    {'n', TypeId::kNull},    {'b', TypeId::kBoolean},     {'c', TypeId::kInt8},
    {'C', TypeId::kUInt8},   {'s', TypeId::kInt16},       {'S', TypeId::kUInt16},
    {'i', TypeId::kInt32},   {'I', TypeId::kUInt32},      {'l', TypeId::kInt64},
    {'L', TypeId::kUInt64},  {'e', TypeId::kFloat16},     {'f', TypeId::kFloat32},
    {'g', TypeId::kFloat64}, {'u', TypeId::kString},      {'U', TypeId::kLargeString},
    {'z', TypeId::kBinary},  {'Z', TypeId::kLargeBinary},
};

/// The one-character format of `id`, or '\0' when its format is longer.
char code_of_primitive(TypeId id) {
  for (const PrimitiveCode& entry : kPrimitiveCodes) {
    if (entry.id == id) {
      return entry.code;
    }
  }
  return '\0';
}

/// The type of a one-character format, or nullptr.
TypePtr primitive_of_code(char code) {
  for (const PrimitiveCode& entry : kPrimitiveCodes) {
    if (entry.code == code) {
      return primitive(entry.id);
    }
  }
  return nullptr;
}

// The format string of a type that is neither an extension nor a dictionary.
std::string format_of(const DataType& type) {
  if (const char code = code_of_primitive(type.id()); code != '\0') {
    return std::string(1, code);
  }
  switch (type.id()) {
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const auto& decimal = static_cast<const DecimalType&>(type);
      std::string format =
          "d:" + std::to_string(decimal.precision()) + "," + std::to_string(decimal.scale());
      // 128 bits is the default width; spelling it out would only confuse older consumers.
      if (type.id() != TypeId::kDecimal128) {
        format += "," + std::to_string(decimal.bit_width());
      }
      return format;
    }
    case TypeId::kDate32:
      return "tdD";
    case TypeId::kDate64:
      return "tdm";
    case TypeId::kTime32:
    case TypeId::kTime64:
      return std::string("tt") + unit_letter(static_cast<const TemporalUnitType&>(type).unit());
    case TypeId::kDuration:
      return std::string("tD") + unit_letter(static_cast<const TemporalUnitType&>(type).unit());
    case TypeId::kTimestamp: {
      const auto& timestamp = static_cast<const TimestampType&>(type);
      return std::string("ts") + unit_letter(timestamp.unit()) + ":" + timestamp.timezone();
    }
    case TypeId::kIntervalMonths:
      return "tiM";
    case TypeId::kIntervalDayTime:
      return "tiD";
    case TypeId::kIntervalMonthDayNano:
      return "tin";
    case TypeId::kStringView:
      return "vu";
    case TypeId::kBinaryView:
      return "vz";
    case TypeId::kFixedSizeBinary:
      return "w:" + std::to_string(static_cast<const FixedSizeBinaryType&>(type).width());
    case TypeId::kList:
      return "+l";
    case TypeId::kLargeList:
      return "+L";
    case TypeId::kListView:
      return "+vl";
    case TypeId::kLargeListView:
      return "+vL";
    case TypeId::kFixedSizeList:
      return "+w:" + std::to_string(static_cast<const FixedSizeListType&>(type).list_size());
    case TypeId::kStruct:
      return "+s";
    case TypeId::kMap:
      return "+m";
    case TypeId::kDenseUnion:
    case TypeId::kSparseUnion: {
      std::string format = type.id() == TypeId::kDenseUnion ? "+ud:" : "+us:";
      const auto& codes = static_cast<const UnionType&>(type).type_codes();
      for (size_t i = 0; i < codes.size(); ++i) {
        format += (i > 0 ? "," : "") + std::to_string(codes[i]);
      }
      return format;
    }
    case TypeId::kRunEndEncoded:
      return "+r";
    default:
      break;
  }
  throw InvalidArgument("no C data interface format for type " + type.to_string());
}

void append_int32(std::string& out, int32_t value) {
  char bytes[sizeof(value)];
  std::memcpy(bytes, &value, sizeof(value));
  out.append(bytes, sizeof(value));
}

int32_t checked_length(const std::string& text, const char* what) {
  if (text.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    throw InvalidArgument(std::string("metadata ") + what + " of " + std::to_string(text.size()) +
                          " bytes is too long for the C data interface");
  }
  return static_cast<int32_t>(text.size());
}

// The specification's binary metadata: int32 count, then an int32 length and the bytes of
// each key and value, integers in native byte order.
std::string encode_metadata(const Metadata& metadata) {
  std::string out;
  if (metadata.empty()) {
    return out;
  }
  if (metadata.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    throw InvalidArgument("too many metadata entries for the C data interface");
  }
  append_int32(out, static_cast<int32_t>(metadata.size()));
  for (const auto& [key, value] : metadata) {
    append_int32(out, checked_length(key, "key"));
    out += key;
    append_int32(out, checked_length(value, "value"));
    out += value;
  }
  return out;
}

// private_data of an exported ArrowSchema: everything its pointers point to.
struct ExportedSchema {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
  ArrowSchema dictionary{};

  ExportedSchema() = default;
  ExportedSchema(const ExportedSchema&) = delete;
  ExportedSchema& operator=(const ExportedSchema&) = delete;
  // Children a consumer moved out are marked released and are not ours to release.
  ~ExportedSchema() {
    for (ArrowSchema& child : children) {
      release_if_live(&child);
    }
    release_if_live(&dictionary);
  }
};

void release_exported_schema(ArrowSchema* schema) {
  std::unique_ptr<ExportedSchema>(static_cast<ExportedSchema*>(schema->private_data)).reset();
  schema->release = nullptr;
}

void fill_schema(const DataType& type, std::string name, bool nullable, Metadata metadata,
                 ArrowSchema* out) {
  auto exported = std::make_unique<ExportedSchema>();
  const DataType* storage = &type;
  if (type.id() == TypeId::kExtension) {
    const auto& extension = static_cast<const ExtensionType&>(type);
    std::erase_if(metadata, [](const auto& entry) {
      return entry.first == kExtensionNameKey || entry.first == kExtensionMetadataKey;
    });
    metadata.emplace_back(kExtensionNameKey, extension.extension_name());
    metadata.emplace_back(kExtensionMetadataKey, extension.serialized());
    storage = extension.storage_type().get();
  }
  int64_t flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  bool has_dictionary = false;
  if (storage->id() == TypeId::kDictionary) {
    const auto& dictionary = static_cast<const DictionaryType&>(*storage);
    exported->format = format_of(*dictionary.index_type());
    if (dictionary.ordered()) {
      flags |= ARROW_FLAG_DICTIONARY_ORDERED;
    }
    fill_schema(*dictionary.value_type(), "", true, {}, &exported->dictionary);
    has_dictionary = true;
  } else {
    exported->format = format_of(*storage);
    if (storage->id() == TypeId::kMap && static_cast<const MapType&>(*storage).keys_sorted()) {
      flags |= ARROW_FLAG_MAP_KEYS_SORTED;
    }
    const size_t num_children = storage->fields().size();
    exported->children.resize(num_children, ArrowSchema{});
    exported->child_pointers.resize(num_children);
    for (size_t i = 0; i < num_children; ++i) {
      const Field& child = *storage->fields()[i];
      fill_schema(*child.type(), child.name(), child.nullable(), child.metadata(),
                  &exported->children[i]);
      exported->child_pointers[i] = &exported->children[i];
    }
  }
  // The specification wants names in UTF-8; metadata keys and values are bytes.
  if (!is_valid_utf8(name)) {
    throw InvalidArgument("field name '" + escape_invalid_utf8(name) +
                          "' is not valid UTF-8, which the C data interface requires of names");
  }
  exported->name = std::move(name);
  exported->metadata = encode_metadata(metadata);

  ExportedSchema& kept = *exported;
  *out = ArrowSchema{
      kept.format.c_str(),
      kept.name.c_str(),
      kept.metadata.empty() ? nullptr : kept.metadata.data(),
      flags,
      static_cast<int64_t>(kept.children.size()),
      kept.children.empty() ? nullptr : kept.child_pointers.data(),
      has_dictionary ? &kept.dictionary : nullptr,
      &release_exported_schema,
      exported.release(),
  };
}

// --- export: arrays -----------------------------------------------------------------------

// private_data of an exported ArrowArray: the array data (which keeps the buffers alive) and
// what the struct's pointers point to.
struct ExportedArray {
  ArrayDataPtr data;
  std::vector<const void*> buffers;
  /// View types: the byte size of each variadic data buffer, exported as the last buffer.
  std::vector<int64_t> variadic_sizes;
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
  ArrowArray dictionary{};

  ExportedArray() = default;
  ExportedArray(const ExportedArray&) = delete;
  ExportedArray& operator=(const ExportedArray&) = delete;
  ~ExportedArray() {
    for (ArrowArray& child : children) {
      release_if_live(&child);
    }
    release_if_live(&dictionary);
  }
};

void release_exported_array(ArrowArray* array) {
  std::unique_ptr<ExportedArray>(static_cast<ExportedArray*>(array->private_data)).reset();
  array->release = nullptr;
}

// The null count without counting: -1 ("not computed") when a bitmap was never counted.
int64_t exported_null_count(const ArrayData& data, const DataType& storage) {
  switch (storage.id()) {
    case TypeId::kNull:
      return data.length;
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion:
    case TypeId::kRunEndEncoded:
      return 0;
    default:
      return data.buffers[0] == nullptr ? 0 : data.known_null_count();
  }
}

void fill_array(const ArrayDataPtr& data, ArrowArray* out) {
  auto exported = std::make_unique<ExportedArray>();
  const DataType& storage = storage_of(*data->type);
  // Null, union and run-end encoded arrays have no validity slot in the C layout.
  const size_t first = storage.layout()[0].kind == BufferKind::kAlwaysNull ? 1 : 0;
  for (size_t i = first; i < data->buffers.size(); ++i) {
    const Buffer* buffer = data->buffers[i].get();
    exported->buffers.push_back(buffer != nullptr ? buffer->data() : nullptr);
  }
  if (is_view_type(storage.id())) {
    for (size_t i = 2; i < data->buffers.size(); ++i) {
      const Buffer* buffer = data->buffers[i].get();
      exported->variadic_sizes.push_back(buffer != nullptr ? buffer->size() : 0);
    }
    exported->buffers.push_back(exported->variadic_sizes.data());
  }
  const size_t num_children = data->children.size();
  exported->children.resize(num_children, ArrowArray{});
  exported->child_pointers.resize(num_children);
  for (size_t i = 0; i < num_children; ++i) {
    fill_array(data->children[i], &exported->children[i]);
    exported->child_pointers[i] = &exported->children[i];
  }
  const bool has_dictionary = data->dictionary != nullptr;
  if (has_dictionary) {
    fill_array(data->dictionary, &exported->dictionary);
  }
  exported->data = data;

  ExportedArray& kept = *exported;
  *out = ArrowArray{
      data->length,
      exported_null_count(*data, storage),
      data->offset,
      static_cast<int64_t>(kept.buffers.size()),
      static_cast<int64_t>(num_children),
      kept.buffers.empty() ? nullptr : kept.buffers.data(),
      num_children == 0 ? nullptr : kept.child_pointers.data(),
      has_dictionary ? &kept.dictionary : nullptr,
      &release_exported_array,
      exported.release(),
  };
}

// A batch as the struct array the specification equates it with: no validity, offset 0, the
// columns (each with its own offset) as children.
ArrayDataPtr batch_as_struct(const RecordBatch& batch) {
  std::vector<ArrayDataPtr> children;
  children.reserve(batch.columns().size());
  for (const Array& column : batch.columns()) {
    children.push_back(column.data());
  }
  return std::make_shared<ArrayData>(struct_(batch.schema()->fields()), batch.num_rows(),
                                     std::vector<std::shared_ptr<Buffer>>{nullptr}, 0, 0,
                                     std::move(children));
}

// --- export: streams ----------------------------------------------------------------------

// What an exported stream reads from.
class StreamSource {
 public:
  virtual ~StreamSource() = default;
  virtual void get_schema(ArrowSchema* out) = 0;
  /// Fills `out` with the next array, or marks it released at the end of the stream.
  virtual void get_next(ArrowArray* out) = 0;
};

class BatchSource final : public StreamSource {
 public:
  explicit BatchSource(std::shared_ptr<RecordBatchReader> reader) : reader_(std::move(reader)) {}
  void get_schema(ArrowSchema* out) override { export_schema(*reader_->schema(), out); }
  void get_next(ArrowArray* out) override {
    std::optional<RecordBatch> batch = reader_->next();
    if (batch.has_value()) {
      export_record_batch(*batch, out);
    } else {
      out->release = nullptr;
    }
  }

 private:
  std::shared_ptr<RecordBatchReader> reader_;
};

class ChunkSource final : public StreamSource {
 public:
  explicit ChunkSource(ChunkedArray array) : array_(std::move(array)) {}
  void get_schema(ArrowSchema* out) override { export_type(*array_.type(), out); }
  void get_next(ArrowArray* out) override {
    if (next_chunk_ < array_.num_chunks()) {
      export_array(array_.chunk(next_chunk_), out);
      ++next_chunk_;
    } else {
      out->release = nullptr;
    }
  }

 private:
  ChunkedArray array_;
  int next_chunk_ = 0;
};

struct ExportedStream {
  std::unique_ptr<StreamSource> source;
  std::string last_error;
  /// Set instead of `last_error` when copying the message failed for want of memory.
  const char* fixed_error = nullptr;
  /// The error code of a failed get_next, returned again by every later call: the source must
  /// not be read after an error.
  int failed_code = 0;
};

ExportedStream& exported_stream(ArrowArrayStream* stream) {
  return *static_cast<ExportedStream*>(stream->private_data);
}

// Keeps a copy of `message` as the stream's last error. The copy allocates, and this runs
// where nothing may throw: when memory is short, a fixed text stands in.
void set_last_error(ExportedStream& stream, const char* message) noexcept {
  try {
    stream.last_error = message;
    stream.fixed_error = nullptr;
  } catch (...) {
    stream.fixed_error = "out of memory (while keeping the error message)";
  }
}

// Runs `call`, turning any exception into an errno code and the stream's last error: nothing
// may unwind through a C caller.
template <typename Call>
int report_errors(ExportedStream& stream, Call call) noexcept {
  try {
    call();
    return 0;
  } catch (const OutOfMemory& error) {
    set_last_error(stream, error.what());
    return ENOMEM;
  } catch (const std::bad_alloc&) {
    set_last_error(stream, "out of memory");
    return ENOMEM;
  } catch (const NotImplemented& error) {
    set_last_error(stream, error.what());
    return ENOSYS;
  } catch (const IoError& error) {
    set_last_error(stream, error.what());
    return EIO;
  } catch (const Error& error) {
    set_last_error(stream, error.what());
    return EINVAL;
  } catch (const std::exception& error) {
    set_last_error(stream, error.what());
    return EIO;
  } catch (...) {
    set_last_error(stream, "unknown exception");
    return EIO;
  }
}

int stream_get_schema(ArrowArrayStream* stream, ArrowSchema* out) {
  ExportedStream& exported = exported_stream(stream);
  return report_errors(exported, [&] { exported.source->get_schema(out); });
}

int stream_get_next(ArrowArrayStream* stream, ArrowArray* out) {
  ExportedStream& exported = exported_stream(stream);
  if (exported.failed_code != 0) {
    return exported.failed_code;
  }
  exported.failed_code = report_errors(exported, [&] { exported.source->get_next(out); });
  return exported.failed_code;
}

const char* stream_get_last_error(ArrowArrayStream* stream) {
  const ExportedStream& exported = exported_stream(stream);
  if (exported.fixed_error != nullptr) {
    return exported.fixed_error;
  }
  return exported.last_error.empty() ? nullptr : exported.last_error.c_str();
}

void release_exported_stream(ArrowArrayStream* stream) {
  std::unique_ptr<ExportedStream>(static_cast<ExportedStream*>(stream->private_data)).reset();
  stream->release = nullptr;
}

void fill_stream(std::unique_ptr<StreamSource> source, ArrowArrayStream* out) {
  auto exported = std::make_unique<ExportedStream>();
  exported->source = std::move(source);
  *out = ArrowArrayStream{&stream_get_schema, &stream_get_next, &stream_get_last_error,
                          &release_exported_stream, exported.release()};
}

// --- import: schemas ----------------------------------------------------------------------

std::string child_path(const std::string& parent, int64_t index, const char* name) {
  std::string path = parent + ".children[" + std::to_string(index) + "]";
  if (name != nullptr && *name != '\0') {
    // Escaped: the name may not be UTF-8 yet, and errors are text.
    path += "('" + escape_invalid_utf8(name) + "')";
  }
  return path;
}

// Type constructors reject bad parameters with InvalidArgument or TypeError; coming from a C
// struct, those are malformed input.
template <typename Make>
TypePtr make_type(const std::string& path, Make make) {
  try {
    return make();
  } catch (const InvalidArgument& error) {
    throw FormatError(std::string(error.what()) + " in " + path);
  } catch (const TypeError& error) {
    throw FormatError(std::string(error.what()) + " in " + path);
  }
}

int32_t read_int32(const char*& cursor) {
  int32_t value;
  std::memcpy(&value, cursor, sizeof(value));
  cursor += sizeof(value);
  return value;
}

Metadata decode_metadata(const char* encoded, const std::string& path) {
  Metadata metadata;
  if (encoded == nullptr) {
    return metadata;
  }
  const char* cursor = encoded;
  const int32_t count = read_int32(cursor);
  if (count < 0) {
    throw FormatError("metadata of " + path + " has a negative number of entries (" +
                      std::to_string(count) + ")");
  }
  const auto read_string = [&](int32_t entry, const char* what) {
    const int32_t length = read_int32(cursor);
    if (length < 0) {
      throw FormatError("metadata " + std::string(what) + " " + std::to_string(entry) + " of " +
                        path + " has a negative length (" + std::to_string(length) + ")");
    }
    std::string text(cursor, static_cast<size_t>(length));
    cursor += length;
    return text;
  };
  for (int32_t i = 0; i < count; ++i) {
    std::string key = read_string(i, "key");
    std::string value = read_string(i, "value");
    metadata.emplace_back(std::move(key), std::move(value));
  }
  return metadata;
}

// What a format string says. Formats of types without children produce the type directly;
// nested formats give the kind and parameters, and the type is built once the children are read.
struct ParsedFormat {
  TypeId id = TypeId::kNull;
  TypePtr type;
  int32_t list_size = 0;
  std::vector<int8_t> type_codes;
};

class FormatParser {
 public:
  FormatParser(const char* format, const std::string& path) : format_(format), path_(path) {}

  ParsedFormat parse() {
    if (format_.empty()) {
      fail("the format string is empty");
    }
    ParsedFormat parsed;
    const char first = next();
    if (const TypePtr type = primitive_of_code(first)) {
      parsed.type = type;
    } else {
      switch (first) {
        case 'v': {
          const char kind = next();
          if (kind != 'u' && kind != 'z') {
            fail_back("expected 'u' or 'z' after 'v'");
          }
          parsed.type = kind == 'u' ? utf8_view() : binary_view();
          break;
        }
        case 'd':
          parsed.type = parse_decimal();
          break;
        case 'w': {
          expect(':');
          const int32_t width = parse_int32("the byte width");
          parsed.type = make_type(path_, [&] { return fixed_size_binary(width); });
          break;
        }
        case 't':
          parsed.type = parse_temporal();
          break;
        case '+':
          parse_nested(parsed);
          break;
        default:
          fail_back("unknown format");
      }
    }
    if (parsed.type != nullptr) {
      parsed.id = parsed.type->id();
    }
    if (position_ != format_.size()) {
      fail("unexpected characters after a complete format");
    }
    return parsed;
  }

 private:
  [[noreturn]] void fail_at(size_t position, const std::string& problem) const {
    throw FormatError("malformed format string '" + std::string(format_) + "' at position " +
                      std::to_string(position) + " of " + path_ + ": " + problem);
  }
  [[noreturn]] void fail(const std::string& problem) const { fail_at(position_, problem); }
  // Points at the character just read.
  [[noreturn]] void fail_back(const std::string& problem) const {
    fail_at(position_ == 0 ? 0 : position_ - 1, problem);
  }

  char next() {
    if (position_ >= format_.size()) {
      fail("the format string ends too early");
    }
    return format_[position_++];
  }

  void expect(char wanted) {
    if (next() != wanted) {
      fail_back(std::string("expected '") + wanted + "'");
    }
  }

  int32_t parse_int32(const char* what) {
    const size_t start = position_;
    bool negative = false;
    if (position_ < format_.size() && format_[position_] == '-') {
      negative = true;
      ++position_;
    }
    int64_t value = 0;
    size_t digits = 0;
    while (position_ < format_.size() && format_[position_] >= '0' && format_[position_] <= '9') {
      value = value * 10 + (format_[position_] - '0');
      if (value > std::numeric_limits<int32_t>::max()) {
        fail_at(start, std::string(what) + " does not fit a 32-bit integer");
      }
      ++position_;
      ++digits;
    }
    if (digits == 0) {
      fail(std::string("expected ") + what + " (a decimal integer)");
    }
    return static_cast<int32_t>(negative ? -value : value);
  }

  TypePtr parse_decimal() {
    expect(':');
    const int32_t precision = parse_int32("the precision");
    expect(',');
    const int32_t scale = parse_int32("the scale");
    int32_t bits = 128;
    if (position_ < format_.size()) {
      expect(',');
      const size_t bits_position = position_;
      bits = parse_int32("the bit width");
      if (bits != 32 && bits != 64 && bits != 128 && bits != 256) {
        fail_at(bits_position,
                "decimal bit width must be 32, 64, 128 or 256, got " + std::to_string(bits));
      }
    }
    return make_type(path_, [&] {
      switch (bits) {
        case 32:
          return decimal32(precision, scale);
        case 64:
          return decimal64(precision, scale);
        case 128:
          return decimal128(precision, scale);
        default:
          return decimal256(precision, scale);
      }
    });
  }

  TimeUnit parse_unit() {
    switch (next()) {
      case 's':
        return TimeUnit::kSecond;
      case 'm':
        return TimeUnit::kMilli;
      case 'u':
        return TimeUnit::kMicro;
      case 'n':
        return TimeUnit::kNano;
      default:
        fail_back("expected a time unit: 's', 'm', 'u' or 'n'");
    }
  }

  TypePtr parse_temporal() {
    switch (next()) {
      case 'd': {
        const char unit = next();
        if (unit == 'D') {
          return date32();
        }
        if (unit == 'm') {
          return date64();
        }
        fail_back("expected 'D' or 'm' after 'td'");
      }
      case 't': {
        const TimeUnit unit = parse_unit();
        const bool seconds_or_millis = unit == TimeUnit::kSecond || unit == TimeUnit::kMilli;
        return seconds_or_millis ? time32(unit) : time64(unit);
      }
      case 's': {
        const TimeUnit unit = parse_unit();
        expect(':');
        std::string timezone(format_.substr(position_));
        position_ = format_.size();
        return timestamp(unit, std::move(timezone));
      }
      case 'D':
        return duration(parse_unit());
      case 'i': {
        const char kind = next();
        if (kind == 'M') {
          return month_interval();
        }
        if (kind == 'D') {
          return day_time_interval();
        }
        if (kind == 'n') {
          return month_day_nano_interval();
        }
        fail_back("expected 'M', 'D' or 'n' after 'ti'");
      }
      default:
        fail_back("unknown temporal format");
    }
  }

  void parse_nested(ParsedFormat& parsed) {
    switch (next()) {
      case 'l':
        parsed.id = TypeId::kList;
        return;
      case 'L':
        parsed.id = TypeId::kLargeList;
        return;
      case 'v': {
        const char kind = next();
        if (kind != 'l' && kind != 'L') {
          fail_back("expected 'l' or 'L' after '+v'");
        }
        parsed.id = kind == 'l' ? TypeId::kListView : TypeId::kLargeListView;
        return;
      }
      case 'w':
        expect(':');
        parsed.id = TypeId::kFixedSizeList;
        parsed.list_size = parse_int32("the list size");
        if (parsed.list_size < 0) {
          fail("the list size must not be negative");
        }
        return;
      case 's':
        parsed.id = TypeId::kStruct;
        return;
      case 'm':
        parsed.id = TypeId::kMap;
        return;
      case 'r':
        parsed.id = TypeId::kRunEndEncoded;
        return;
      case 'u': {
        const char mode = next();
        if (mode != 'd' && mode != 's') {
          fail_back("expected 'd' or 's' after '+u'");
        }
        parsed.id = mode == 'd' ? TypeId::kDenseUnion : TypeId::kSparseUnion;
        expect(':');
        while (position_ < format_.size()) {
          if (!parsed.type_codes.empty()) {
            expect(',');
          }
          const size_t code_position = position_;
          const int32_t code = parse_int32("a type code");
          if (code < 0 || code > UnionType::kMaxTypeCode) {
            fail_at(code_position, "union type code must be between 0 and " +
                                       std::to_string(UnionType::kMaxTypeCode) + ", got " +
                                       std::to_string(code));
          }
          parsed.type_codes.push_back(static_cast<int8_t>(code));
        }
        return;
      }
      default:
        fail_back("unknown nested format");
    }
  }

  std::string_view format_;
  const std::string& path_;
  size_t position_ = 0;
};

int64_t expected_children(const ParsedFormat& parsed) {
  switch (parsed.id) {
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kFixedSizeList:
    case TypeId::kMap:
      return 1;
    case TypeId::kRunEndEncoded:
      return 2;
    case TypeId::kDenseUnion:
    case TypeId::kSparseUnion:
      return static_cast<int64_t>(parsed.type_codes.size());
    case TypeId::kStruct:
      return -1;  // any number
    default:
      return 0;
  }
}

FieldPtr read_field_at(const ArrowSchema& schema, int depth, const std::string& path);

// The type described by `schema` (an extension type when its metadata names one); the rest of
// its metadata goes to `metadata_out` when that is not null.
TypePtr read_type_at(const ArrowSchema& schema, int depth, const std::string& path,
                     Metadata* metadata_out) {
  if (depth > kMaxNestingDepth) {
    throw FormatError(path + " is nested more than " + std::to_string(kMaxNestingDepth) +
                      " levels deep");
  }
  if (schema.release == nullptr) {
    throw FormatError(path + " has been released");
  }
  if (schema.format == nullptr) {
    throw FormatError(path + " has no format string");
  }
  Metadata metadata = decode_metadata(schema.metadata, path);
  std::optional<std::string> extension_name;
  std::string extension_metadata;
  std::erase_if(metadata, [&](auto& entry) {
    if (entry.first == kExtensionNameKey) {
      extension_name = std::move(entry.second);
      return true;
    }
    if (entry.first == kExtensionMetadataKey) {
      extension_metadata = std::move(entry.second);
      return true;
    }
    return false;
  });

  const ParsedFormat parsed = FormatParser(schema.format, path).parse();
  const std::string format(schema.format);
  if (schema.n_children < 0) {
    throw FormatError(path + " has a negative number of children (" +
                      std::to_string(schema.n_children) + ")");
  }
  if (schema.n_children > 0 && schema.children == nullptr) {
    throw FormatError(path + " has " + std::to_string(schema.n_children) +
                      " children but a null children pointer");
  }

  TypePtr type;
  if (schema.dictionary != nullptr) {
    if (parsed.type == nullptr || !parsed.type->is_integer()) {
      throw FormatError(path + " has a dictionary, so its format '" + format +
                        "' must be an integer index type");
    }
    if (schema.n_children != 0) {
      throw FormatError(path + " is dictionary encoded with '" + format +
                        "' indices and takes no "
                        "children, got " +
                        std::to_string(schema.n_children));
    }
    const TypePtr values =
        read_type_at(*schema.dictionary, depth + 1, path + ".dictionary", nullptr);
    const bool ordered = (schema.flags & ARROW_FLAG_DICTIONARY_ORDERED) != 0;
    type = make_type(path, [&] { return dictionary(parsed.type, values, ordered); });
  } else {
    const int64_t expected = expected_children(parsed);
    if (expected >= 0 && schema.n_children != expected) {
      throw FormatError(path + " with format '" + format + "' takes " + std::to_string(expected) +
                        (expected == 1 ? " child" : " children") + ", got " +
                        std::to_string(schema.n_children));
    }
    FieldVector children;
    children.reserve(static_cast<size_t>(schema.n_children));
    for (int64_t i = 0; i < schema.n_children; ++i) {
      const ArrowSchema* child = schema.children[i];
      const char* child_name = child != nullptr ? child->name : nullptr;
      const std::string where = child_path(path, i, child_name);
      if (child == nullptr) {
        throw FormatError(where + " is a null pointer");
      }
      children.push_back(read_field_at(*child, depth + 1, where));
    }
    type = make_type(path, [&]() -> TypePtr {
      switch (parsed.id) {
        case TypeId::kList:
          return list(children[0]);
        case TypeId::kLargeList:
          return large_list(children[0]);
        case TypeId::kListView:
          return list_view(children[0]);
        case TypeId::kLargeListView:
          return large_list_view(children[0]);
        case TypeId::kFixedSizeList:
          return fixed_size_list(children[0], parsed.list_size);
        case TypeId::kStruct:
          return struct_(std::move(children));
        case TypeId::kMap: {
          const FieldPtr& entries = children[0];
          if (entries->type()->id() != TypeId::kStruct || entries->type()->num_fields() != 2) {
            throw FormatError(path +
                              " is a map, whose child must be a struct of a key and an "
                              "item, got " +
                              entries->type()->to_string());
          }
          // Keys are never null whatever the producer's flag says (the columnar format
          // requires it; full validation checks it).
          const FieldVector& key_item = entries->type()->fields();
          const FieldPtr entries_field =
              entries->with_type(struct_({key_item[0]->with_nullable(false), key_item[1]}));
          const bool keys_sorted = (schema.flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0;
          return std::make_shared<const MapType>(entries_field, keys_sorted);
        }
        case TypeId::kDenseUnion:
          return dense_union(std::move(children), parsed.type_codes);
        case TypeId::kSparseUnion:
          return sparse_union(std::move(children), parsed.type_codes);
        case TypeId::kRunEndEncoded:
          return run_end_encoded(children[0]->type(), children[1]->type());
        default:
          return parsed.type;
      }
    });
  }
  if (extension_name.has_value()) {
    if (!is_valid_utf8(*extension_name)) {
      throw FormatError(path + " has extension name '" + escape_invalid_utf8(*extension_name) +
                        "', which is not valid UTF-8");
    }
    type = make_type(path, [&] {
      return extension(type, std::move(*extension_name), std::move(extension_metadata));
    });
  }
  if (metadata_out != nullptr) {
    *metadata_out = std::move(metadata);
  }
  return type;
}

FieldPtr read_field_at(const ArrowSchema& schema, int depth, const std::string& path) {
  // Names are UTF-8 by the specification (and reach Python as str); metadata stays bytes.
  const std::string_view name = schema.name != nullptr ? schema.name : "";
  const int64_t bad = invalid_utf8_position(reinterpret_cast<const uint8_t*>(name.data()),
                                            static_cast<int64_t>(name.size()));
  if (bad >= 0) {
    throw FormatError(path + " has name '" + escape_invalid_utf8(name) +
                      "', which is not valid UTF-8 (byte " + std::to_string(bad) + " of " +
                      std::to_string(name.size()) + ")");
  }
  Metadata metadata;
  TypePtr type = read_type_at(schema, depth, path, &metadata);
  const bool nullable = (schema.flags & ARROW_FLAG_NULLABLE) != 0;
  return field(std::string(name), std::move(type), nullable, std::move(metadata));
}

SchemaPtr read_schema_at(const ArrowSchema& schema, const std::string& path) {
  if (schema.release == nullptr) {
    throw FormatError(path + " has been released");
  }
  if (schema.format == nullptr || std::string_view(schema.format) != "+s") {
    throw FormatError(path + " is not a schema: a schema is a struct type (format '+s'), got " +
                      (schema.format == nullptr ? std::string("no format")
                                                : "format '" + std::string(schema.format) + "'"));
  }
  if (schema.n_children < 0 || (schema.n_children > 0 && schema.children == nullptr)) {
    throw FormatError(path + " has " + std::to_string(schema.n_children) +
                      " children and a children pointer that does not match");
  }
  if (schema.dictionary != nullptr) {
    throw FormatError(path + " is a schema (a struct type) but has a dictionary");
  }
  FieldVector fields;
  fields.reserve(static_cast<size_t>(schema.n_children));
  for (int64_t i = 0; i < schema.n_children; ++i) {
    const ArrowSchema* child = schema.children[i];
    const std::string where = child_path(path, i, child != nullptr ? child->name : nullptr);
    if (child == nullptr) {
      throw FormatError(where + " is a null pointer");
    }
    fields.push_back(read_field_at(*child, 1, where));
  }
  return bowstring::schema(std::move(fields), decode_metadata(schema.metadata, path));
}

// --- import: arrays -----------------------------------------------------------------------

int64_t checked_multiply(int64_t count, int64_t width, const std::string& where) {
  int64_t bytes;
  if (__builtin_mul_overflow(count, width, &bytes)) {
    throw FormatError(where + ": " + std::to_string(count) + " values of " + std::to_string(width) +
                      " bytes overflow a 64-bit size");
  }
  return bytes;
}

// Builds ArrayData over an imported ArrowArray tree. Every buffer shares one owner, the moved
// base struct, whose release callback runs when the last of them is gone.
class ArrayImporter {
 public:
  explicit ArrayImporter(std::shared_ptr<const void> owner) : owner_(std::move(owner)) {}

  ArrayDataPtr import(const ArrowArray& array, const TypePtr& type, int depth,
                      const std::string& path) {
    if (depth > kMaxNestingDepth) {
      throw FormatError(path + " is nested more than " + std::to_string(kMaxNestingDepth) +
                        " levels deep");
    }
    if (array.release == nullptr) {
      throw FormatError(path + " has been released");
    }
    check_counts(array, path);
    const DataType& storage = storage_of(*type);
    const bool is_dictionary = storage.id() == TypeId::kDictionary;
    const std::vector<BufferSpec> layout = storage.layout();
    const size_t first = layout[0].kind == BufferKind::kAlwaysNull ? 1 : 0;
    const bool views = is_view_type(storage.id());

    // Buffer, child and dictionary counts as the type demands.
    const int64_t fixed_buffers = static_cast<int64_t>(layout.size() - first);
    if (views ? array.n_buffers < fixed_buffers + 1 : array.n_buffers != fixed_buffers) {
      throw FormatError(path + " of type " + type->to_string() + " has " +
                        std::to_string(array.n_buffers) + " buffers, expected " +
                        (views ? "at least 3 (validity, views, variadic buffer sizes)"
                               : std::to_string(fixed_buffers)));
    }
    if (array.n_buffers > 0 && array.buffers == nullptr) {
      throw FormatError(path + " has " + std::to_string(array.n_buffers) +
                        " buffers but a null buffers pointer");
    }
    const int64_t num_children = is_dictionary ? 0 : storage.num_fields();
    if (array.n_children != num_children) {
      throw FormatError(path + " of type " + type->to_string() + " has " +
                        std::to_string(array.n_children) + " children, expected " +
                        std::to_string(num_children));
    }
    if (array.n_children > 0 && array.children == nullptr) {
      throw FormatError(path + " has " + std::to_string(array.n_children) +
                        " children but a null children pointer");
    }
    if (is_dictionary != (array.dictionary != nullptr)) {
      throw FormatError(path + " of type " + type->to_string() +
                        (is_dictionary ? " has no dictionary" : " has a dictionary it cannot use"));
    }

    const int64_t end = array.offset + array.length;
    std::vector<std::shared_ptr<Buffer>> buffers;
    buffers.reserve(layout.size() + (views ? static_cast<size_t>(array.n_buffers) : 0));
    if (first == 1) {
      buffers.push_back(nullptr);
    }
    for (size_t i = first; i < layout.size(); ++i) {
      buffers.push_back(import_buffer(array, storage, layout, i, first, end, path));
    }
    if (views) {
      import_variadic_buffers(array, buffers, path);
    }

    std::vector<ArrayDataPtr> children;
    children.reserve(static_cast<size_t>(num_children));
    for (int64_t i = 0; i < num_children; ++i) {
      const ArrowArray* child = array.children[i];
      const FieldPtr& child_field = storage.field(static_cast<int>(i));
      const std::string where = child_path(path, i, child_field->name().c_str());
      if (child == nullptr) {
        throw FormatError(where + " is a null pointer");
      }
      children.push_back(import(*child, child_field->type(), depth + 1, where));
    }
    ArrayDataPtr dictionary;
    if (is_dictionary) {
      dictionary =
          import(*array.dictionary, static_cast<const DictionaryType&>(storage).value_type(),
                 depth + 1, path + ".dictionary");
    }

    int64_t null_count = array.null_count;
    switch (storage.id()) {
      case TypeId::kNull:
        null_count = ArrayData::kUnknownNullCount;
        break;
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion:
      case TypeId::kRunEndEncoded:
        null_count = 0;
        break;
      default:
        if (buffers[0] == nullptr) {
          null_count = 0;
        }
        break;
    }
    return std::make_shared<ArrayData>(type, array.length, std::move(buffers), null_count,
                                       array.offset, std::move(children), std::move(dictionary));
  }

 private:
  static void check_counts(const ArrowArray& array, const std::string& path) {
    if (array.length < 0 || array.offset < 0) {
      throw FormatError(path + " has length " + std::to_string(array.length) + " and offset " +
                        std::to_string(array.offset) + "; both must be non-negative");
    }
    if (array.length > std::numeric_limits<int64_t>::max() - array.offset) {
      throw FormatError(path + ": offset " + std::to_string(array.offset) + " + length " +
                        std::to_string(array.length) + " overflows");
    }
    if (array.null_count < -1 || array.null_count > array.length) {
      throw FormatError(path + " has null_count " + std::to_string(array.null_count) +
                        ", outside [-1, length " + std::to_string(array.length) + "]");
    }
    if (array.n_buffers < 0 || array.n_children < 0) {
      throw FormatError(path + " has " + std::to_string(array.n_buffers) + " buffers and " +
                        std::to_string(array.n_children) + " children; counts must be >= 0");
    }
  }

  std::shared_ptr<Buffer> import_buffer(const ArrowArray& array, const DataType& storage,
                                        const std::vector<BufferSpec>& layout, size_t i,
                                        size_t first, int64_t end, const std::string& path) {
    const int64_t c_index = static_cast<int64_t>(i - first);
    const BufferKind kind = layout[i].kind;
    const void* pointer = array.buffers[c_index];
    const std::string where = path + ".buffers[" + std::to_string(c_index) + "] (" +
                              std::string(buffer_role(kind, storage.id() == TypeId::kDictionary)) +
                              ")";
    int64_t size = 0;
    switch (kind) {
      case BufferKind::kValidity:
        if (pointer == nullptr) {
          if (array.null_count > 0) {
            throw FormatError(where + " is null but null_count is " +
                              std::to_string(array.null_count));
          }
          return nullptr;
        }
        size = end / 8 + (end % 8 != 0 ? 1 : 0);
        break;
      case BufferKind::kBitmap:
        size = end / 8 + (end % 8 != 0 ? 1 : 0);
        break;
      case BufferKind::kFixedWidth:
        size = checked_multiply(end, layout[i].byte_width, where);
        break;
      case BufferKind::kOffsets32:
      case BufferKind::kOffsets64: {
        // Lists and binaries have one offset more than values; list views and dense unions
        // one per value.
        const bool per_value = storage.id() == TypeId::kDenseUnion ||
                               storage.id() == TypeId::kListView ||
                               storage.id() == TypeId::kLargeListView;
        int64_t entries = end;
        if (!per_value && __builtin_add_overflow(end, 1, &entries)) {
          throw FormatError(where + ": offset + length + 1 overflows");
        }
        const int width = kind == BufferKind::kOffsets32 ? 4 : 8;
        size = checked_multiply(entries, width, where);
        if (pointer == nullptr && !per_value && end == 0) {
          // An empty array's single zero offset, which some producers leave out.
          pointer = kZeroBytes;
        }
        break;
      }
      case BufferKind::kSizes32:
        size = checked_multiply(end, 4, where);
        break;
      case BufferKind::kSizes64:
        size = checked_multiply(end, 8, where);
        break;
      case BufferKind::kTypeIds:
        size = end;
        break;
      case BufferKind::kViews:
        size = checked_multiply(end, static_cast<int64_t>(sizeof(BinaryView)), where);
        break;
      case BufferKind::kData: {
        // The data buffer ends where the last offset of the array's window points.
        const uint8_t* offsets = static_cast<const uint8_t*>(array.buffers[c_index - 1]);
        if (offsets == nullptr) {
          offsets = kZeroBytes;
        }
        if (layout[i - 1].kind == BufferKind::kOffsets32) {
          int32_t last;
          std::memcpy(&last, offsets + end * 4, sizeof(last));
          size = last;
        } else {
          std::memcpy(&size, offsets + end * 8, sizeof(size));
        }
        if (size < 0) {
          throw FormatError(where + ": the last offset " + std::to_string(size) + " is negative");
        }
        break;
      }
      case BufferKind::kAlwaysNull:
        break;
    }
    if (pointer == nullptr) {
      if (size != 0) {
        throw FormatError(where + " is null but " + std::to_string(size) + " bytes are needed");
      }
      pointer = kZeroBytes;
    }
    return Buffer::wrap(pointer, size, owner_);
  }

  // View types: the data buffers follow the views, and the last C buffer holds their sizes.
  void import_variadic_buffers(const ArrowArray& array, std::vector<std::shared_ptr<Buffer>>& out,
                               const std::string& path) {
    const int64_t num_data = array.n_buffers - 3;
    const auto* sizes = static_cast<const uint8_t*>(array.buffers[array.n_buffers - 1]);
    if (num_data > 0 && sizes == nullptr) {
      throw FormatError(path + ".buffers[" + std::to_string(array.n_buffers - 1) +
                        "] (variadic buffer sizes) is null but there are " +
                        std::to_string(num_data) + " data buffers");
    }
    for (int64_t j = 0; j < num_data; ++j) {
      int64_t size;
      std::memcpy(&size, sizes + j * 8, sizeof(size));
      const std::string where = path + ".buffers[" + std::to_string(2 + j) + "] (view data)";
      if (size < 0) {
        throw FormatError(where + " has a negative size " + std::to_string(size));
      }
      const void* pointer = array.buffers[2 + j];
      if (pointer == nullptr) {
        if (size != 0) {
          throw FormatError(where + " is null but has " + std::to_string(size) + " bytes");
        }
        pointer = kZeroBytes;
      }
      out.push_back(Buffer::wrap(pointer, size, owner_));
    }
  }

  std::shared_ptr<const void> owner_;
};

Array import_owned(Owned<ArrowArray> owned, const TypePtr& type,
                   const CDataImportOptions& options) {
  owned.check_live("ArrowArray");
  if (type == nullptr) {
    throw InvalidArgument("importing an ArrowArray needs a type");
  }
  auto owner = std::make_shared<Owned<ArrowArray>>(std::move(owned));
  ArrayImporter importer(owner);
  const ArrayDataPtr data = importer.import(owner->get(), type, 0, "ArrowArray");
  if (options.validate_full) {
    validate_full(*data);
  } else {
    validate(*data);
  }
  return Array(data);
}

RecordBatch batch_from_struct(const Array& array, const SchemaPtr& schema) {
  const int64_t nulls = array.null_count();
  if (nulls > 0) {
    throw FormatError("a record batch cannot have null rows, but the imported struct array has " +
                      std::to_string(nulls));
  }
  const StructArray rows(array);
  std::vector<Array> columns;
  columns.reserve(static_cast<size_t>(rows.num_fields()));
  for (int i = 0; i < rows.num_fields(); ++i) {
    columns.push_back(rows.field(i));
  }
  return RecordBatch(schema, array.length(), std::move(columns));
}

// --- import: streams ----------------------------------------------------------------------

std::string errno_name(int code) {
  switch (code) {
    case ENOMEM:
      return "ENOMEM";
    case EINVAL:
      return "EINVAL";
    case EIO:
      return "EIO";
    case ENOSYS:
      return "ENOSYS";
    case ENOTSUP:
      return "ENOTSUP";
    default:
      return std::to_string(code) + " (" + std::generic_category().message(code) + ")";
  }
}

// A producer's stream, owned: the callbacks with their error codes turned into exceptions.
class ImportedStream {
 public:
  explicit ImportedStream(ArrowArrayStream* stream) : stream_(stream) {
    stream_.check_live("ArrowArrayStream");
  }

  /// The stream's schema struct, owned.
  Owned<ArrowSchema> get_schema() {
    ArrowSchema out{};
    const int code = stream_.get().get_schema(&stream_.get(), &out);
    Owned<ArrowSchema> schema(&out);
    if (code != 0) {
      fail(code, "get_schema");
    }
    if (schema.get().release == nullptr) {
      throw FormatError("the C stream's get_schema returned a released ArrowSchema");
    }
    return schema;
  }

  /// The next array struct, owned, or a released one at the end of the stream.
  Owned<ArrowArray> get_next() {
    ArrowArray out{};
    const int code = stream_.get().get_next(&stream_.get(), &out);
    Owned<ArrowArray> array(&out);
    if (code != 0) {
      fail(code, "get_next");
    }
    return array;
  }

 private:
  [[noreturn]] void fail(int code, const char* operation) {
    std::string message = "the C stream producer failed in " + std::string(operation) +
                          " with error " + errno_name(code);
    const char* detail = stream_.get().get_last_error != nullptr
                             ? stream_.get().get_last_error(&stream_.get())
                             : nullptr;
    if (detail != nullptr) {
      message += ": ";
      message += detail;
    }
    switch (code) {
      case ENOMEM:
        throw OutOfMemory(message);
      case EINVAL:
        throw InvalidArgument(message);
      case ENOSYS:
      case ENOTSUP:
        throw NotImplemented(message);
      default:
        throw IoError(message);
    }
  }

  Owned<ArrowArrayStream> stream_;
};

class CStreamReader final : public RecordBatchReader {
 public:
  CStreamReader(ArrowArrayStream* stream, const CDataImportOptions& options)
      : stream_(stream), options_(options) {
    Owned<ArrowSchema> schema = stream_.get_schema();
    schema_ = read_schema_at(schema.get(), "ArrowArrayStream schema");
    struct_type_ = struct_(schema_->fields());
  }

  SchemaPtr schema() const override { return schema_; }

  std::optional<RecordBatch> next() override {
    if (error_ != nullptr) {
      std::rethrow_exception(error_);
    }
    if (finished_) {
      return std::nullopt;
    }
    try {
      Owned<ArrowArray> array = stream_.get_next();
      if (array.get().release == nullptr) {
        finished_ = true;
        return std::nullopt;
      }
      return batch_from_struct(import_owned(std::move(array), struct_type_, options_), schema_);
    } catch (...) {
      error_ = std::current_exception();
      throw;
    }
  }

 private:
  ImportedStream stream_;
  CDataImportOptions options_;
  SchemaPtr schema_;
  TypePtr struct_type_;
  bool finished_ = false;
  std::exception_ptr error_;
};

}  // namespace

// --- public API ---------------------------------------------------------------------------

void export_type(const DataType& type, ArrowSchema* out) { fill_schema(type, "", true, {}, out); }

void export_field(const Field& field, ArrowSchema* out) {
  fill_schema(*field.type(), field.name(), field.nullable(), field.metadata(), out);
}

void export_schema(const Schema& schema, ArrowSchema* out) {
  fill_schema(*struct_(schema.fields()), "", false, schema.metadata(), out);
}

void export_array(const Array& array, ArrowArray* out, ArrowSchema* out_schema) {
  if (!array) {
    throw InvalidArgument("cannot export an empty Array handle");
  }
  Owned<ArrowArray> exported(nullptr);
  fill_array(array.data(), &exported.get());
  if (out_schema != nullptr) {
    export_type(*array.type(), out_schema);
  }
  *out = exported.get();
  exported.get().release = nullptr;
}

void export_record_batch(const RecordBatch& batch, ArrowArray* out, ArrowSchema* out_schema) {
  Owned<ArrowArray> exported(nullptr);
  fill_array(batch_as_struct(batch), &exported.get());
  if (out_schema != nullptr) {
    export_schema(*batch.schema(), out_schema);
  }
  *out = exported.get();
  exported.get().release = nullptr;
}

void export_reader(std::shared_ptr<RecordBatchReader> reader, ArrowArrayStream* out) {
  if (reader == nullptr) {
    throw InvalidArgument("cannot export a null RecordBatchReader");
  }
  fill_stream(std::make_unique<BatchSource>(std::move(reader)), out);
}

void export_chunked_array(const ChunkedArray& array, ArrowArrayStream* out) {
  fill_stream(std::make_unique<ChunkSource>(array), out);
}

TypePtr read_type(const ArrowSchema& schema) {
  return read_type_at(schema, 0, "ArrowSchema", nullptr);
}

FieldPtr read_field(const ArrowSchema& schema) { return read_field_at(schema, 0, "ArrowSchema"); }

SchemaPtr read_schema(const ArrowSchema& schema) { return read_schema_at(schema, "ArrowSchema"); }

TypePtr import_type(ArrowSchema* schema) {
  Owned<ArrowSchema> owned(schema);
  owned.check_live("ArrowSchema");
  return read_type(owned.get());
}

FieldPtr import_field(ArrowSchema* schema) {
  Owned<ArrowSchema> owned(schema);
  owned.check_live("ArrowSchema");
  return read_field(owned.get());
}

SchemaPtr import_schema(ArrowSchema* schema) {
  Owned<ArrowSchema> owned(schema);
  owned.check_live("ArrowSchema");
  return read_schema(owned.get());
}

Array import_array(ArrowArray* array, const TypePtr& type, const CDataImportOptions& options) {
  return import_owned(Owned<ArrowArray>(array), type, options);
}

Array import_array(ArrowArray* array, ArrowSchema* schema, const CDataImportOptions& options) {
  Owned<ArrowArray> owned_array(array);
  const TypePtr type = import_type(schema);
  return import_owned(std::move(owned_array), type, options);
}

RecordBatch import_record_batch(ArrowArray* array, const SchemaPtr& schema,
                                const CDataImportOptions& options) {
  Owned<ArrowArray> owned(array);
  if (schema == nullptr) {
    throw InvalidArgument("importing a record batch needs a schema");
  }
  return batch_from_struct(import_owned(std::move(owned), struct_(schema->fields()), options),
                           schema);
}

RecordBatch import_record_batch(ArrowArray* array, ArrowSchema* schema,
                                const CDataImportOptions& options) {
  Owned<ArrowArray> owned(array);
  const SchemaPtr imported = import_schema(schema);
  return batch_from_struct(import_owned(std::move(owned), struct_(imported->fields()), options),
                           imported);
}

std::unique_ptr<RecordBatchReader> import_reader(ArrowArrayStream* stream,
                                                 const CDataImportOptions& options) {
  return std::make_unique<CStreamReader>(stream, options);
}

ChunkedArray import_chunked_array(ArrowArrayStream* stream, const CDataImportOptions& options) {
  ImportedStream imported(stream);
  const TypePtr type = [&] {
    Owned<ArrowSchema> schema = imported.get_schema();
    return read_type_at(schema.get(), 0, "ArrowArrayStream schema", nullptr);
  }();
  std::vector<Array> chunks;
  while (true) {
    Owned<ArrowArray> array = imported.get_next();
    if (array.get().release == nullptr) {
      break;
    }
    chunks.push_back(import_owned(std::move(array), type, options));
  }
  return ChunkedArray(type, std::move(chunks));
}

}  // namespace bowstring
