#include "bowstring/interchange/body.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bowstring/array/concatenate.h"
#include "bowstring/array/validate.h"
#include "bowstring/memory/buffer_builder.h"
#include "bowstring/runtime/parallel.h"
#include "bowstring/types/storage.h"
#include "bowstring/util/bit_util.h"
#include "bowstring/util/error.h"

namespace bowstring::ipc {

namespace {

/// Where a field sits: its name and its parent's place, up to a column (or a dictionary's
/// values). Turned into a dotted path ("a.b.item") only when needed, for an error or a
/// dictionary field, so that walking wide types with long names copies no strings.
struct FieldPath {
  const FieldPath* parent = nullptr;
  std::string_view name;

  std::string to_string() const {
    std::vector<std::string_view> names;
    size_t size = 0;
    for (const FieldPath* at = this; at != nullptr; at = at->parent) {
      names.push_back(at->name);
      size += at->name.size() + 1;
    }
    std::string path;
    path.reserve(size);
    for (size_t i = names.size(); i-- > 0;) {
      path.append(names[i]);
      if (i > 0) {
        path.push_back('.');
      }
    }
    return path;
  }
};

int count_nested_dictionaries(const DataType& type);

/// Dictionary-encoded fields at or below a field of `type`, in the pre-order of `DictionaryField`.
int count_dictionaries(const DataType& type) {
  const DataType& storage = storage_of(type);
  if (storage.id() == TypeId::kDictionary) {
    return 1 + count_nested_dictionaries(*static_cast<const DictionaryType&>(storage).value_type());
  }
  return count_nested_dictionaries(storage);
}

/// Dictionary-encoded fields among the children of `type` and below them.
int count_nested_dictionaries(const DataType& type) {
  int count = 0;
  for (const FieldPtr& child : storage_of(type).fields()) {
    count += count_dictionaries(*child->type());
  }
  return count;
}

void collect_dictionary_paths(const DataType& type, const FieldPath& path,
                              std::vector<std::string>& out) {
  const DataType& storage = storage_of(type);
  const DataType* walked = &storage;
  if (storage.id() == TypeId::kDictionary) {
    out.push_back(path.to_string());
    walked = &storage_of(*static_cast<const DictionaryType&>(storage).value_type());
  }
  for (const FieldPtr& child : walked->fields()) {
    collect_dictionary_paths(*child->type(), FieldPath{&path, child->name()}, out);
  }
}

void collect_used_dictionaries(const ArrayData& data, size_t& next_position,
                               std::vector<UsedDictionary>& out) {
  if (storage_of(*data.type).id() == TypeId::kDictionary) {
    const size_t position = next_position++;
    for (const ArrayDataPtr& child : data.dictionary->children) {
      collect_used_dictionaries(*child, next_position, out);
    }
    out.push_back({position, Array(data.dictionary)});
    return;
  }
  for (const ArrayDataPtr& child : data.children) {
    collect_used_dictionaries(*child, next_position, out);
  }
}

int64_t read_int64_le(const uint8_t* bytes) {
  int64_t value;
  std::memcpy(&value, bytes, sizeof(value));
  return value;
}

// --- encoding -----------------------------------------------------------------------------

/// Flattens arrays into field nodes and buffers, pre-order, cutting every buffer down to the
/// bytes the array's window uses.
class BodyEncoder {
 public:
  explicit BodyEncoder(Allocator* allocator)
      : allocator_(allocator), empty_(Buffer::wrap(&kNoBytes, 0, nullptr)) {}

  void encode(const ArrayData& data) {
    const DataType& type = storage_of(*data.type);
    const int64_t offset = data.offset;
    const int64_t length = data.length;
    switch (type.id()) {
      case TypeId::kNull:
        nodes_.push_back({length, length});
        return;
      case TypeId::kBoolean:
        add_node_and_validity(data);
        add(bitmap_window(data.buffers[1], offset, length));
        return;
      case TypeId::kString:
      case TypeId::kBinary: {
        add_node_and_validity(data);
        const auto [first, last] = add_offsets<int32_t>(data);
        add(data_window(data.buffers[2], first, last - first));
        return;
      }
      case TypeId::kLargeString:
      case TypeId::kLargeBinary: {
        add_node_and_validity(data);
        const auto [first, last] = add_offsets<int64_t>(data);
        add(data_window(data.buffers[2], first, last - first));
        return;
      }
      case TypeId::kStringView:
      case TypeId::kBinaryView:
        add_node_and_validity(data);
        add(Buffer::slice(data.buffers[1], offset * 16, length * 16));
        // A view may point anywhere in any data buffer: they all go, whole.
        for (size_t i = 2; i < data.buffers.size(); ++i) {
          add(data.buffers[i]);
        }
        variadic_counts_.push_back(static_cast<int64_t>(data.buffers.size()) - 2);
        return;
      case TypeId::kList:
      case TypeId::kMap: {
        add_node_and_validity(data);
        const auto [first, last] = add_offsets<int32_t>(data);
        encode(*data.children[0]->slice(first, last - first));
        return;
      }
      case TypeId::kLargeList: {
        add_node_and_validity(data);
        const auto [first, last] = add_offsets<int64_t>(data);
        encode(*data.children[0]->slice(first, last - first));
        return;
      }
      case TypeId::kListView:
        encode_list_view<int32_t>(data);
        return;
      case TypeId::kLargeListView:
        encode_list_view<int64_t>(data);
        return;
      case TypeId::kFixedSizeList: {
        add_node_and_validity(data);
        const int64_t size = static_cast<const FixedSizeListType&>(type).list_size();
        encode(*data.children[0]->slice(offset * size, length * size));
        return;
      }
      case TypeId::kStruct:
        add_node_and_validity(data);
        for (const ArrayDataPtr& child : data.children) {
          encode(*child->slice(offset, length));
        }
        return;
      case TypeId::kSparseUnion:
        nodes_.push_back({length, 0});
        add(Buffer::slice(data.buffers[1], offset, length));
        for (const ArrayDataPtr& child : data.children) {
          encode(*child->slice(offset, length));
        }
        return;
      case TypeId::kDenseUnion:
        encode_dense_union(data, static_cast<const UnionType&>(type));
        return;
      case TypeId::kRunEndEncoded:
        encode_run_end_encoded(data);
        return;
      default: {
        // Fixed-width values: numbers, decimals, temporal types, fixed_size_binary, and the
        // indices of dictionary arrays (whose values travel in dictionary batches).
        add_node_and_validity(data);
        const int64_t width = type.byte_width();
        add(Buffer::slice(data.buffers[1], offset * width, length * width));
        return;
      }
    }
  }

  std::vector<FieldNode> take_nodes() { return std::move(nodes_); }
  std::vector<std::shared_ptr<const Buffer>> take_buffers() { return std::move(buffers_); }
  std::vector<int64_t> take_variadic_counts() { return std::move(variadic_counts_); }

 private:
  static constexpr uint8_t kNoBytes = 0;

  void add(std::shared_ptr<const Buffer> buffer) { buffers_.push_back(std::move(buffer)); }

  void add_node_and_validity(const ArrayData& data) {
    const int64_t null_count = data.null_count();
    nodes_.push_back({data.length, null_count});
    // Without nulls the bitmap is left out (a zero-length buffer), as the format allows.
    add(null_count == 0 ? empty_ : bitmap_window(data.buffers[0], data.offset, data.length));
  }

  /// Bits [offset, offset + length) of `bits` starting at bit 0: a slice when the window starts
  /// on a byte boundary, else a shifted copy.
  std::shared_ptr<const Buffer> bitmap_window(const std::shared_ptr<Buffer>& bits, int64_t offset,
                                              int64_t length) {
    const int64_t bytes = bit_util::bytes_for_bits(length);
    if (offset % 8 == 0) {
      return Buffer::slice(bits, offset / 8, bytes);
    }
    MutableBuffer shifted(bytes, allocator_);
    bit_util::copy_bitmap(bits->data(), offset, length, shifted.mutable_data(), 0);
    return shifted.finish();
  }

  /// `length` bytes from `offset` of a data buffer that may be absent when nothing is used.
  std::shared_ptr<const Buffer> data_window(const std::shared_ptr<Buffer>& data, int64_t offset,
                                            int64_t length) {
    if (data == nullptr) {
      return empty_;
    }
    return Buffer::slice(data, offset, length);
  }

  /// Writes the window's length + 1 offsets starting at 0 (a slice when they already do);
  /// returns the first and last original offsets, the range of data or child values used.
  template <typename Offset>
  std::pair<int64_t, int64_t> add_offsets(const ArrayData& data) {
    const Offset* offsets = data.values<Offset>(1);
    const int64_t count = data.length + 1;
    const Offset first = offsets[0];
    if (first == 0) {
      add(Buffer::slice(data.buffers[1], data.offset * static_cast<int64_t>(sizeof(Offset)),
                        count * static_cast<int64_t>(sizeof(Offset))));
    } else {
      TypedBufferBuilder<Offset> rebased(allocator_);
      rebased.reserve(count);
      for (int64_t i = 0; i < count; ++i) {
        rebased.unsafe_append(static_cast<Offset>(offsets[i] - first));
      }
      add(rebased.finish());
    }
    return {first, offsets[data.length]};
  }

  /// List views: offsets and sizes rewritten relative to the smallest offset of a valid,
  /// non-empty list, the child cut to the range the valid lists cover. Null lists become empty.
  template <typename Offset>
  void encode_list_view(const ArrayData& data) {
    add_node_and_validity(data);
    const Offset* offsets = data.values<Offset>(1);
    const Offset* sizes = data.values<Offset>(2);
    int64_t low = std::numeric_limits<int64_t>::max();
    int64_t high = 0;
    for (int64_t i = 0; i < data.length; ++i) {
      if (sizes[i] > 0 && !data.is_null_in_bitmap(i)) {
        low = std::min<int64_t>(low, offsets[i]);
        high = std::max<int64_t>(high, static_cast<int64_t>(offsets[i]) + sizes[i]);
      }
    }
    if (high == 0) {
      low = 0;
    }
    TypedBufferBuilder<Offset> new_offsets(allocator_);
    TypedBufferBuilder<Offset> new_sizes(allocator_);
    new_offsets.reserve(data.length);
    new_sizes.reserve(data.length);
    for (int64_t i = 0; i < data.length; ++i) {
      const bool used = sizes[i] > 0 && !data.is_null_in_bitmap(i);
      new_offsets.unsafe_append(used ? static_cast<Offset>(offsets[i] - low) : Offset{0});
      new_sizes.unsafe_append(used ? sizes[i] : Offset{0});
    }
    add(new_offsets.finish());
    add(new_sizes.finish());
    encode(*data.children[0]->slice(low, high - low));
  }

  /// Dense unions: each child cut to the range of offsets the window selects from it, and the
  /// offsets rebased per child when a range does not start at 0.
  void encode_dense_union(const ArrayData& data, const UnionType& type) {
    nodes_.push_back({data.length, 0});
    const int8_t* codes = data.values<int8_t>(1);
    const int32_t* offsets = data.values<int32_t>(2);
    const size_t num_children = data.children.size();
    std::vector<int64_t> low(num_children, std::numeric_limits<int64_t>::max());
    std::vector<int64_t> high(num_children, 0);
    std::vector<int> child_of(static_cast<size_t>(data.length));
    for (int64_t i = 0; i < data.length; ++i) {
      const int child = type.child_index(codes[i]);
      if (child < 0) {
        throw InvalidArgument("union type id " + std::to_string(codes[i]) + " at index " +
                              std::to_string(i) + " is not a type code of " + type.to_string());
      }
      child_of[static_cast<size_t>(i)] = child;
      const auto c = static_cast<size_t>(child);
      low[c] = std::min<int64_t>(low[c], offsets[i]);
      high[c] = std::max<int64_t>(high[c], static_cast<int64_t>(offsets[i]) + 1);
    }
    bool rebase = false;
    for (size_t c = 0; c < num_children; ++c) {
      if (high[c] == 0) {
        low[c] = 0;
      }
      rebase = rebase || low[c] != 0;
    }
    add(Buffer::slice(data.buffers[1], data.offset, data.length));
    if (rebase) {
      TypedBufferBuilder<int32_t> rebased(allocator_);
      rebased.reserve(data.length);
      for (int64_t i = 0; i < data.length; ++i) {
        rebased.unsafe_append(
            static_cast<int32_t>(offsets[i] - low[static_cast<size_t>(child_of[i])]));
      }
      add(rebased.finish());
    } else {
      add(Buffer::slice(data.buffers[2], data.offset * 4, data.length * 4));
    }
    for (size_t c = 0; c < num_children; ++c) {
      encode(*data.children[c]->slice(low[c], high[c] - low[c]));
    }
  }

  /// Run-end encoded arrays: only the runs the window touches, with run ends made relative to
  /// the window's start and the last one clamped to its end.
  void encode_run_end_encoded(const ArrayData& data) {
    nodes_.push_back({data.length, 0});
    const ArrayData& run_ends = *data.children[0];
    const ArrayData& values = *data.children[1];
    const int64_t start = data.offset;
    const int64_t end = data.offset + data.length;
    int64_t first_run = 0;
    int64_t runs = 0;
    if (data.length > 0) {
      const auto run_end = [&run_ends](int64_t i) { return run_end_at(run_ends, i); };
      first_run = partition_point(run_ends.length, [&](int64_t i) { return run_end(i) <= start; });
      const int64_t last_run =
          partition_point(run_ends.length, [&](int64_t i) { return run_end(i) < end; });
      if (last_run >= run_ends.length || last_run < first_run) {
        throw InvalidArgument("run ends of " + data.type->to_string() +
                              " are not increasing or do not cover the array");
      }
      runs = last_run - first_run + 1;
    }
    const bool whole = start == 0 && first_run == 0 && runs == run_ends.length &&
                       (runs == 0 || run_end_at(run_ends, runs - 1) == end);
    if (whole) {
      encode(run_ends);
      encode(values);
      return;
    }
    switch (run_ends.type->id()) {
      case TypeId::kInt16:
        encode(rebased_run_ends<int16_t>(run_ends, first_run, runs, start, data.length));
        break;
      case TypeId::kInt32:
        encode(rebased_run_ends<int32_t>(run_ends, first_run, runs, start, data.length));
        break;
      default:
        encode(rebased_run_ends<int64_t>(run_ends, first_run, runs, start, data.length));
        break;
    }
    encode(*values.slice(first_run, runs));
  }

  /// The first index in [0, count) for which `before` is false (`before` true, then false).
  template <typename Predicate>
  static int64_t partition_point(int64_t count, Predicate before) {
    int64_t low = 0;
    int64_t high = count;
    while (low < high) {
      const int64_t middle = low + (high - low) / 2;
      if (before(middle)) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

  template <typename RunEnd>
  ArrayData rebased_run_ends(const ArrayData& run_ends, int64_t first_run, int64_t runs,
                             int64_t start, int64_t length) {
    TypedBufferBuilder<RunEnd> rebased(allocator_);
    rebased.reserve(runs);
    const RunEnd* ends = run_ends.values<RunEnd>(1);
    for (int64_t i = first_run; i < first_run + runs; ++i) {
      rebased.unsafe_append(static_cast<RunEnd>(std::min<int64_t>(ends[i] - start, length)));
    }
    return ArrayData(run_ends.type, runs, {nullptr, rebased.finish()}, 0);
  }

  Allocator* allocator_;
  std::shared_ptr<const Buffer> empty_;
  std::vector<FieldNode> nodes_;
  std::vector<std::shared_ptr<const Buffer>> buffers_;
  std::vector<int64_t> variadic_counts_;
};

/// One buffer of a compressed body: the uncompressed length (int64, little endian) and the
/// compressed bytes, or -1 and the raw bytes when compressing does not make it smaller.
/// Compresses into `scratch` (codecs ask for room well beyond what small buffers need), then
/// copies the result into a buffer of its exact size.
std::shared_ptr<const Buffer> compress_buffer(Codec& codec, const Buffer& buffer,
                                              MutableBuffer& scratch, Allocator* allocator) {
  constexpr int64_t kPrefix = 8;
  const int64_t size = buffer.size();
  const int64_t room = std::max(codec.max_compressed_size(size), size);
  if (scratch.size() < kPrefix + room) {
    scratch.resize(kPrefix + room);
  }
  uint8_t* out = scratch.mutable_data();
  int64_t prefix = size;
  int64_t stored = codec.compress(buffer.data(), size, out + kPrefix, room);
  if (stored >= size) {
    prefix = -1;
    stored = size;
    std::memcpy(out + kPrefix, buffer.data(), static_cast<size_t>(size));
  }
  std::memcpy(out, &prefix, sizeof(prefix));
  return Buffer::copy_of(out, kPrefix + stored, allocator);
}

/// Threads worth using for `bytes` of codec work: one per `kParallelCodecBytes`, at most
/// `requested` (0: the thread pool's size).
constexpr int64_t kParallelCodecBytes = int64_t{512} * 1024;
int codec_threads(int requested, int64_t bytes) {
  const int64_t limit = requested > 0 ? requested : hardware_threads();
  return static_cast<int>(std::clamp<int64_t>(bytes / kParallelCodecBytes, 1, limit));
}

/// Compresses every non-empty buffer in place (see `compress_buffer`), large bodies on several
/// threads, each with its own codec and scratch memory.
void compress_buffers(std::vector<std::shared_ptr<const Buffer>>& buffers,
                      const WriteOptions& options) {
  int64_t bytes = 0;
  for (const std::shared_ptr<const Buffer>& buffer : buffers) {
    bytes += buffer->size();
  }
  const int threads = codec_threads(options.compression_threads, bytes);
  std::vector<std::unique_ptr<Codec>> codecs(static_cast<size_t>(threads));
  std::vector<MutableBuffer> scratch;
  scratch.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) {
    scratch.emplace_back(options.allocator);
  }
  parallel_for(static_cast<int64_t>(buffers.size()), threads, [&](int64_t i, int worker) {
    std::shared_ptr<const Buffer>& buffer = buffers[static_cast<size_t>(i)];
    if (buffer->size() == 0) {
      return;
    }
    std::unique_ptr<Codec>& codec = codecs[static_cast<size_t>(worker)];
    if (codec == nullptr) {
      codec = Codec::make(options.compression, options.compression_level);
    }
    buffer =
        compress_buffer(*codec, *buffer, scratch[static_cast<size_t>(worker)], options.allocator);
  });
}

// --- decoding -----------------------------------------------------------------------------

/// Bytes that values read from a buffer of this kind need their address aligned to.
int64_t required_alignment(const BufferSpec& spec) {
  switch (spec.kind) {
    case BufferKind::kFixedWidth: {
      int64_t alignment = 1;
      while (alignment < 8 && spec.byte_width % (alignment * 2) == 0 && spec.byte_width > 0) {
        alignment *= 2;
      }
      return alignment;
    }
    case BufferKind::kOffsets32:
    case BufferKind::kSizes32:
      return 4;
    case BufferKind::kOffsets64:
    case BufferKind::kSizes64:
    case BufferKind::kViews:
      return 8;
    default:
      return 1;
  }
}

/// What the fields of a message take from its header, variadic data buffers aside.
struct BufferDemand {
  int64_t buffers = 0;
  int64_t view_fields = 0;
};

/// Adds the buffers a field of `type` takes, as `BodyDecoder::decode` takes them (a dictionary
/// field only its indices: the values travel in dictionary batches). False when the type is
/// nested too deep to count; the walk reports that.
bool add_buffer_demand(const DataType& type, MetadataVersion version, int depth,
                       BufferDemand& demand) {
  if (depth > kMaxNestingDepth) {
    return false;
  }
  const DataType& storage = storage_of(type);
  const auto layout_size = static_cast<int64_t>(storage.layout().size());
  switch (storage.id()) {
    case TypeId::kNull:
      return true;
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion:
    case TypeId::kRunEndEncoded:
      // No validity buffer, except the one V4 metadata still carries.
      demand.buffers += layout_size - 1 + (version == MetadataVersion::kV4 ? 1 : 0);
      break;
    default:
      demand.buffers += layout_size;
      break;
  }
  if (is_view_type(storage.id())) {
    ++demand.view_fields;
  }
  if (storage.id() == TypeId::kDictionary) {
    return true;
  }
  for (const FieldPtr& child : storage.fields()) {
    if (!add_buffer_demand(*child->type(), version, depth + 1, demand)) {
      return false;
    }
  }
  return true;
}

/// Rebuilds arrays from the field nodes and buffers of one message, checking each count and
/// range before it is used. Content is checked afterwards by validation.
class BodyDecoder {
 public:
  /// `fields`: the types of the fields the message holds, in order.
  BodyDecoder(const RecordBatchHeader& header, const std::shared_ptr<Buffer>& body,
              const DictionaryMemo& memo, const ReadOptions& options, const std::string& what,
              MetadataVersion version, const std::vector<const DataType*>& fields)
      : header_(header),
        body_(body != nullptr ? body : Buffer::wrap(&kNoBytes, 0, nullptr)),
        memo_(memo),
        options_(options),
        what_(what),
        version_(version) {
    // More buffers than the fields take is refused before any is decompressed: a hostile
    // header may list many aliases of one small frame that inflates to a large buffer.
    const std::optional<int64_t> needed = buffers_needed(fields);
    const auto listed = static_cast<int64_t>(header.buffers.size());
    if (needed.has_value() && listed > *needed) {
      fail_header("the header has " + std::to_string(listed) + " buffers, the schema needs " +
                  std::to_string(*needed));
    }
    if (header.compression != Compression::kNone) {
      codec_ = Codec::make(header.compression);
      if (needed.has_value()) {
        predecompress();
      }
    }
  }

  /// The array of a field named `path`; `dictionary_position` is the position in
  /// `memo.fields()` of the next dictionary-encoded field met (see `DictionaryField`).
  ArrayDataPtr decode(const TypePtr& type, const FieldPath& path, size_t& dictionary_position,
                      int depth) {
    if (depth > kMaxNestingDepth) {
      fail(path, "nested more than " + std::to_string(kMaxNestingDepth) + " levels deep");
    }
    const FieldNode node = next_node(path);
    const DataType& storage = storage_of(*type);
    const std::vector<BufferSpec> layout = storage.layout();
    const bool dictionary = storage.id() == TypeId::kDictionary;
    std::vector<std::shared_ptr<Buffer>> buffers;
    int64_t null_count = node.null_count;
    switch (storage.id()) {
      case TypeId::kNull:
        // No buffers at all; every value is null.
        return std::make_shared<ArrayData>(
            type, node.length, std::vector<std::shared_ptr<Buffer>>{nullptr}, node.length);
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion:
      case TypeId::kRunEndEncoded:
        // Nulls live in the children. Before V5, unions had a validity buffer too, and Arrow
        // writes one for run-end encoded arrays as well when asked for V4 metadata.
        if (version_ == MetadataVersion::kV4) {
          next_buffer(path, {BufferKind::kValidity}, false);
          if (node.null_count != 0) {
            fail(path,
                 "a union or run-end encoded array with top-level nulls (metadata V4) is not "
                 "supported");
          }
        }
        null_count = 0;
        buffers.push_back(nullptr);
        break;
      default: {
        std::shared_ptr<Buffer> validity = next_buffer(path, layout[0], dictionary);
        buffers.push_back(node.null_count == 0 ? nullptr : std::move(validity));
        break;
      }
    }
    for (size_t i = 1; i < layout.size(); ++i) {
      buffers.push_back(next_buffer(path, layout[i], dictionary));
      const BufferKind kind = layout[i].kind;
      const bool one_per_value_plus_one =
          (kind == BufferKind::kOffsets32 || kind == BufferKind::kOffsets64) &&
          !storage.is_union() && storage.id() != TypeId::kListView &&
          storage.id() != TypeId::kLargeListView;
      if (one_per_value_plus_one && node.length == 0 && buffers.back()->size() == 0) {
        // Some writers leave the offsets of an empty array out; it has one offset, 0.
        buffers.back() = Buffer::zeros(8, options_.allocator);
      }
    }
    if (is_view_type(storage.id())) {
      const int64_t data_buffers = next_variadic_count(path);
      for (int64_t i = 0; i < data_buffers; ++i) {
        buffers.push_back(next_buffer(path, {BufferKind::kData}, false));
      }
    }

    std::vector<ArrayDataPtr> children;
    std::shared_ptr<const ArrayData> dictionary_values;
    if (dictionary) {
      dictionary_values = dictionary_for(path, dictionary_position);
      const auto& dictionary_type = static_cast<const DictionaryType&>(storage);
      dictionary_position +=
          1 + static_cast<size_t>(count_nested_dictionaries(*dictionary_type.value_type()));
    } else {
      for (const FieldPtr& child : storage.fields()) {
        children.push_back(
            decode(child->type(), FieldPath{&path, child->name()}, dictionary_position, depth + 1));
      }
    }
    return std::make_shared<ArrayData>(type, node.length, std::move(buffers), null_count, 0,
                                       std::move(children), std::move(dictionary_values));
  }

  /// Checks that every node, buffer and variadic count of the header was used.
  void check_all_used() const {
    if (node_index_ != header_.nodes.size()) {
      fail_header("the header has " + std::to_string(header_.nodes.size()) +
                  " field nodes, the schema needs " + std::to_string(node_index_));
    }
    if (buffer_index_ != header_.buffers.size()) {
      fail_header("the header has " + std::to_string(header_.buffers.size()) +
                  " buffers, the schema needs " + std::to_string(buffer_index_));
    }
    if (variadic_index_ != header_.variadic_buffer_counts.size()) {
      fail_header("the header has " + std::to_string(header_.variadic_buffer_counts.size()) +
                  " variadic buffer counts, the schema has " + std::to_string(variadic_index_) +
                  " view fields");
    }
  }

  [[noreturn]] void fail(const FieldPath& path, const std::string& problem) const {
    throw FormatError(what_ + ": field '" + path.to_string() + "': " + problem);
  }

  [[noreturn]] void fail_header(const std::string& problem) const {
    throw FormatError(what_ + ": " + problem);
  }

 private:
  static constexpr uint8_t kNoBytes = 0;

  FieldNode next_node(const FieldPath& path) {
    if (node_index_ >= header_.nodes.size()) {
      fail(path, "needs field node " + std::to_string(node_index_) + " but the header has only " +
                     std::to_string(header_.nodes.size()));
    }
    const FieldNode node = header_.nodes[node_index_++];
    if (node.length < 0 || node.null_count < 0 || node.null_count > node.length) {
      fail(path, "field node " + std::to_string(node_index_ - 1) + " has length " +
                     std::to_string(node.length) + " and null count " +
                     std::to_string(node.null_count) +
                     " (both must be non-negative, the null count at most the length)");
    }
    return node;
  }

  int64_t next_variadic_count(const FieldPath& path) {
    if (variadic_index_ >= header_.variadic_buffer_counts.size()) {
      fail(path, "needs variadic buffer count " + std::to_string(variadic_index_) +
                     " but the header has only " +
                     std::to_string(header_.variadic_buffer_counts.size()));
    }
    const int64_t count = header_.variadic_buffer_counts[variadic_index_++];
    const auto remaining = static_cast<int64_t>(header_.buffers.size() - buffer_index_);
    if (count < 0 || count > remaining) {
      fail(path, "variadic buffer count " + std::to_string(count) +
                     " is negative or more than the " + std::to_string(remaining) +
                     " buffers left in the header");
    }
    return count;
  }

  std::shared_ptr<Buffer> next_buffer(const FieldPath& path, const BufferSpec& spec,
                                      bool dictionary) {
    const size_t index = buffer_index_++;
    const std::string_view role = buffer_role(spec.kind, dictionary);
    if (index >= header_.buffers.size()) {
      fail(path, "needs buffer " + std::to_string(index) + " (" + std::string(role) +
                     ") but the header has only " + std::to_string(header_.buffers.size()));
    }
    const BufferRange range = header_.buffers[index];
    const int64_t body_size = body_->size();
    if (range.offset < 0 || range.length < 0 || range.offset > body_size ||
        range.length > body_size - range.offset) {
      fail_buffer(path, index, role,
                  "range [" + std::to_string(range.offset) + ", +" + std::to_string(range.length) +
                      ") is outside the " + std::to_string(body_size) + "-byte body");
    }
    std::shared_ptr<Buffer> buffer = Buffer::slice(body_, range.offset, range.length);
    if (codec_ != nullptr && range.length > 0) {
      buffer = decompress(*buffer, path, index, role);
    }
    const int64_t alignment = required_alignment(spec);
    if (reinterpret_cast<uintptr_t>(buffer->data()) % static_cast<uintptr_t>(alignment) != 0) {
      // Typed reads need aligned addresses (a body may sit anywhere in a caller's memory).
      buffer = Buffer::copy_of(buffer->data(), buffer->size(), options_.allocator);
    }
    return buffer;
  }

  std::shared_ptr<Buffer> decompress(const Buffer& stored, const FieldPath& path, size_t index,
                                     std::string_view role) {
    if (index < predecompressed_.size() && predecompressed_[index] != nullptr) {
      return std::move(predecompressed_[index]);
    }
    std::string problem;
    std::shared_ptr<Buffer> out = try_decompress(stored, *codec_, problem);
    if (out == nullptr) {
      fail_buffer(path, index, role, problem);
    }
    return out;
  }

  /// `stored` (length prefix and frame) decompressed by `codec`, or nullptr with `problem` set
  /// when it is malformed.
  std::shared_ptr<Buffer> try_decompress(const Buffer& stored, Codec& codec,
                                         std::string& problem) const {
    constexpr int64_t kPrefix = 8;
    if (stored.size() < kPrefix) {
      problem = "compressed buffer has " + std::to_string(stored.size()) +
                " bytes, fewer than its 8-byte length prefix";
      return nullptr;
    }
    const int64_t uncompressed = read_int64_le(stored.data());
    const uint8_t* frame = stored.data() + kPrefix;
    const int64_t frame_size = stored.size() - kPrefix;
    if (uncompressed == -1) {
      return Buffer::slice(body_, frame - body_->data(), frame_size);
    }
    if (uncompressed < 0 || uncompressed > options_.max_decompressed_size ||
        uncompressed > kMaxBufferSize) {
      problem = "claimed uncompressed length " + std::to_string(uncompressed) +
                " is negative or larger than the limit of " +
                std::to_string(std::min(options_.max_decompressed_size, kMaxBufferSize)) + " bytes";
      return nullptr;
    }
    // Neither codec expands a frame by more than this (zstd's best, a run-length block, turns
    // 4 bytes into 128 KiB; LZ4 stays below 256x), so a larger claim is a lie, refused before
    // it can make us allocate.
    constexpr int64_t kMaxExpansion = 65536;
    if ((uncompressed - kMaxExpansion) / kMaxExpansion > frame_size) {
      problem = "claimed uncompressed length " + std::to_string(uncompressed) +
                " is more than any codec expands a " + std::to_string(frame_size) +
                "-byte frame to";
      return nullptr;
    }
    // Adopted at once so that a failing decompression frees it; not zeroed, as it is about to
    // be overwritten.
    const int64_t capacity = padded_size(uncompressed);
    uint8_t* bytes = options_.allocator->allocate(capacity);
    std::shared_ptr<Buffer> out = Buffer::adopt(options_.allocator, bytes, uncompressed, capacity);
    std::memset(bytes + uncompressed, 0, static_cast<size_t>(capacity - uncompressed));
    if (uncompressed > 0) {
      try {
        codec.decompress(frame, frame_size, bytes, uncompressed);
      } catch (const FormatError& error) {
        problem = error.what();
        return nullptr;
      }
    }
    return out;
  }

  /// The buffers the message's fields take from the header, or nullopt when the header's
  /// variadic counts do not fit the fields (the walk then reports what is wrong).
  std::optional<int64_t> buffers_needed(const std::vector<const DataType*>& fields) const {
    BufferDemand demand;
    for (const DataType* type : fields) {
      if (!add_buffer_demand(*type, version_, 0, demand)) {
        return std::nullopt;
      }
    }
    const std::vector<int64_t>& counts = header_.variadic_buffer_counts;
    if (demand.view_fields != static_cast<int64_t>(counts.size())) {
      return std::nullopt;
    }
    const auto listed = static_cast<int64_t>(header_.buffers.size());
    int64_t needed = demand.buffers;
    for (const int64_t count : counts) {
      if (count < 0 || count > listed) {
        return std::nullopt;
      }
      needed += count;
    }
    return needed;
  }

  /// Decompresses the buffers of a large compressed body on several threads before the walk
  /// needs them. Only buffers stored one after the other are taken: a range that overlaps or
  /// precedes the previous one taken is left to the walk, so that aliases of one frame are
  /// decompressed only as often as the fields use them. A buffer that fails here is left to
  /// the walk too, which decompresses it again and reports the problem with its field's path.
  void predecompress() {
    constexpr int64_t kPrefix = 8;
    std::vector<size_t> chosen;
    int64_t claimed = 0;
    int64_t end_of_previous = 0;
    for (size_t i = 0; i < header_.buffers.size(); ++i) {
      const BufferRange range = header_.buffers[i];
      if (range.offset < end_of_previous || range.length < kPrefix ||
          range.offset > body_->size() || range.length > body_->size() - range.offset) {
        continue;
      }
      chosen.push_back(i);
      end_of_previous = range.offset + range.length;
      const int64_t length = read_int64_le(body_->data() + range.offset);
      if (length > 0 && length <= options_.max_decompressed_size) {
        // Saturating: the claims are untrusted and their sum may overflow.
        claimed = length >= kMaxBufferSize - claimed ? kMaxBufferSize : claimed + length;
      }
    }
    const int threads = codec_threads(options_.decompression_threads, claimed);
    if (threads <= 1) {
      return;
    }
    predecompressed_.resize(header_.buffers.size());
    std::vector<std::unique_ptr<Codec>> codecs(static_cast<size_t>(threads));
    parallel_for(static_cast<int64_t>(chosen.size()), threads, [&](int64_t i, int worker) {
      const size_t index = chosen[static_cast<size_t>(i)];
      const BufferRange range = header_.buffers[index];
      std::unique_ptr<Codec>& codec = codecs[static_cast<size_t>(worker)];
      if (codec == nullptr) {
        codec = Codec::make(header_.compression);
      }
      std::string problem;
      predecompressed_[index] =
          try_decompress(*Buffer::slice(body_, range.offset, range.length), *codec, problem);
    });
  }

  [[noreturn]] void fail_buffer(const FieldPath& path, size_t index, std::string_view role,
                                const std::string& problem) const {
    fail(path, "buffer " + std::to_string(index) + " (" + std::string(role) + "): " + problem);
  }

  std::shared_ptr<const ArrayData> dictionary_for(const FieldPath& path, size_t position) {
    const std::vector<DictionaryField>& fields = memo_.fields();
    if (position >= fields.size()) {
      fail(path, "is dictionary-encoded field " + std::to_string(position) +
                     " but the schema numbers only " + std::to_string(fields.size()));
    }
    const int64_t id = fields[position].id;
    if (!memo_.has(id)) {
      fail(path, "dictionary " + std::to_string(id) + " has not been read yet");
    }
    try {
      return memo_.get(id).data();
    } catch (const FormatError& error) {
      fail(path, error.what());
    }
  }

  const RecordBatchHeader& header_;
  std::shared_ptr<Buffer> body_;
  const DictionaryMemo& memo_;
  const ReadOptions& options_;
  const std::string& what_;
  MetadataVersion version_;
  std::unique_ptr<Codec> codec_;
  /// Buffers decompressed ahead of the walk by `predecompress`, by buffer index.
  std::vector<std::shared_ptr<Buffer>> predecompressed_;
  size_t node_index_ = 0;
  size_t buffer_index_ = 0;
  size_t variadic_index_ = 0;
};

/// Runs validation on a decoded array, prefixing problems with where the array came from.
/// Dictionaries come from the memo, validated when their dictionary batch was read (a delta
/// before it was appended): only indices are checked against them.
void validate_decoded(const ArrayData& data, const ReadOptions& options, const std::string& where) {
  try {
    if (options.validate_full) {
      validate_full(data, DictionaryCheck::kIndicesOnly);
    } else {
      validate(data, DictionaryCheck::kIndicesOnly);
    }
  } catch (const FormatError& error) {
    throw FormatError(where + ": " + error.what());
  }
}

void check_batch_length(int64_t length, const std::string& what) {
  if (length < 0) {
    throw FormatError(what + ": batch length " + std::to_string(length) + " is negative");
  }
}

}  // namespace

// --- encode_body --------------------------------------------------------------------------

EncodedBody encode_body(const std::vector<Array>& columns, int64_t length,
                        const WriteOptions& options) {
  BodyEncoder encoder(options.allocator);
  for (size_t i = 0; i < columns.size(); ++i) {
    const Array& column = columns[i];
    if (column.length() != length) {
      throw InvalidArgument("column " + std::to_string(i) + " has " +
                            std::to_string(column.length()) + " values, expected " +
                            std::to_string(length));
    }
    try {
      column.validate();
    } catch (const FormatError& error) {
      throw InvalidArgument("column " + std::to_string(i) + " cannot be written: " + error.what());
    }
    encoder.encode(*column.data());
  }

  EncodedBody body;
  body.header.length = length;
  body.header.nodes = encoder.take_nodes();
  body.header.variadic_buffer_counts = encoder.take_variadic_counts();
  body.header.compression = options.compression;
  body.buffers = encoder.take_buffers();
  if (options.compression != Compression::kNone) {
    compress_buffers(body.buffers, options);
  }
  int64_t offset = 0;
  body.header.buffers.reserve(body.buffers.size());
  for (const std::shared_ptr<const Buffer>& buffer : body.buffers) {
    body.header.buffers.push_back({offset, buffer->size()});
    offset += bit_util::round_up(buffer->size(), 8);
  }
  body.body_length = offset;
  return body;
}

// --- dictionaries -------------------------------------------------------------------------

std::vector<std::string> dictionary_field_paths(const Schema& schema) {
  std::vector<std::string> paths;
  for (const FieldPtr& field : schema.fields()) {
    collect_dictionary_paths(*field->type(), FieldPath{nullptr, field->name()}, paths);
  }
  return paths;
}

std::vector<UsedDictionary> used_dictionaries(const std::vector<Array>& columns) {
  std::vector<UsedDictionary> used;
  size_t next_position = 0;
  for (const Array& column : columns) {
    collect_used_dictionaries(*column.data(), next_position, used);
  }
  return used;
}

bool contains_dictionary(const DataType& type) { return count_dictionaries(type) > 0; }

// --- DictionaryMemo -----------------------------------------------------------------------

DictionaryMemo::DictionaryMemo(std::vector<DictionaryField> fields)
    : fields_(std::move(fields)), dictionaries_(fields_.size()) {
  positions_.reserve(fields_.size());
  for (size_t i = 0; i < fields_.size(); ++i) {
    positions_.emplace(fields_[i].id, static_cast<int>(i));
  }
}

int DictionaryMemo::index_of(int64_t id) const {
  const auto found = positions_.find(id);
  if (found != positions_.end()) {
    return found->second;
  }
  std::string known;
  for (const DictionaryField& field : fields_) {
    known += (known.empty() ? "" : ", ") + std::to_string(field.id);
  }
  throw FormatError("dictionary id " + std::to_string(id) + " is not in the schema (" +
                    (known.empty() ? "which has no dictionary-encoded fields" : "ids: " + known) +
                    ")");
}

void DictionaryMemo::set(int64_t id, Array values) {
  Dictionary& dictionary = dictionaries_[static_cast<size_t>(index_of(id))];
  dictionary.values = std::move(values);
  dictionary.deltas.clear();
}

void DictionaryMemo::append(int64_t id, const Array& values, Allocator* allocator) {
  Dictionary& dictionary = dictionaries_[static_cast<size_t>(index_of(id))];
  if (!dictionary.values.has_value()) {
    throw FormatError("delta for dictionary " + std::to_string(id) +
                      " before any dictionary with that id");
  }
  dictionary.deltas.push_back(values);
  dictionary.allocator = allocator;
}

bool DictionaryMemo::has(int64_t id) const {
  return dictionaries_[static_cast<size_t>(index_of(id))].values.has_value();
}

const Array& DictionaryMemo::get(int64_t id) const {
  Dictionary& dictionary = dictionaries_[static_cast<size_t>(index_of(id))];
  if (!dictionary.values.has_value()) {
    throw FormatError("dictionary " + std::to_string(id) + " has not been read yet");
  }
  if (!dictionary.deltas.empty()) {
    std::vector<Array> parts;
    parts.reserve(dictionary.deltas.size() + 1);
    parts.push_back(*dictionary.values);
    parts.insert(parts.end(), dictionary.deltas.begin(), dictionary.deltas.end());
    try {
      dictionary.values = concatenate(parts, dictionary.allocator);
    } catch (const OutOfMemory&) {
      throw;
    } catch (const Error& error) {
      throw FormatError("the deltas of dictionary " + std::to_string(id) +
                        " cannot be appended to it: " + error.what());
    }
    dictionary.deltas.clear();
  }
  return *dictionary.values;
}

// --- decoding -----------------------------------------------------------------------------

RecordBatch decode_record_batch(const SchemaPtr& schema, const RecordBatchHeader& header,
                                const std::shared_ptr<Buffer>& body, const DictionaryMemo& memo,
                                const ReadOptions& options, const std::string& what,
                                MetadataVersion version) {
  check_batch_length(header.length, what);
  std::vector<const DataType*> types;
  types.reserve(static_cast<size_t>(schema->num_fields()));
  for (const FieldPtr& field : schema->fields()) {
    types.push_back(field->type().get());
  }
  BodyDecoder decoder(header, body, memo, options, what, version, types);
  std::vector<Array> columns;
  columns.reserve(static_cast<size_t>(schema->num_fields()));
  size_t dictionary_position = 0;
  for (const FieldPtr& field : schema->fields()) {
    const FieldPath path{nullptr, field->name()};
    ArrayDataPtr data = decoder.decode(field->type(), path, dictionary_position, 0);
    if (data->length != header.length) {
      decoder.fail(path, "column has " + std::to_string(data->length) +
                             " values but the batch has " + std::to_string(header.length) +
                             " rows");
    }
    columns.emplace_back(std::move(data));
  }
  decoder.check_all_used();
  for (size_t i = 0; i < columns.size(); ++i) {
    validate_decoded(*columns[i].data(), options,
                     what + ": column '" + schema->field(static_cast<int>(i))->name() + "'");
  }
  return RecordBatch(schema, header.length, std::move(columns));
}

void read_dictionary_batch(const DictionaryBatchHeader& header, const std::shared_ptr<Buffer>& body,
                           DictionaryMemo& memo, const ReadOptions& options,
                           const std::string& what, MetadataVersion version) {
  check_batch_length(header.data.length, what);
  int position;
  try {
    position = memo.index_of(header.id);
  } catch (const FormatError& error) {
    throw FormatError(what + ": " + error.what());
  }
  const DictionaryField& field = memo.fields()[static_cast<size_t>(position)];
  const std::string name = "dictionary " + std::to_string(header.id);
  if (header.is_delta && contains_dictionary(*field.type->value_type())) {
    throw FormatError(what + ": delta for " + name +
                      ", whose values hold dictionary-encoded fields: such a dictionary can only "
                      "be replaced");
  }
  BodyDecoder decoder(header.data, body, memo, options, what, version,
                      {field.type->value_type().get()});
  size_t dictionary_position = static_cast<size_t>(position) + 1;
  const FieldPath path{nullptr, name};
  ArrayDataPtr data = decoder.decode(field.type->value_type(), path, dictionary_position, 0);
  if (data->length != header.data.length) {
    decoder.fail(path, "has " + std::to_string(data->length) + " values but the batch has " +
                           std::to_string(header.data.length) + " rows");
  }
  decoder.check_all_used();
  validate_decoded(*data, options, what + ": " + name);
  if (header.is_delta) {
    if (!memo.has(header.id)) {
      throw FormatError(what + ": delta for dictionary " + std::to_string(header.id) +
                        " before any dictionary with that id");
    }
    memo.append(header.id, Array(std::move(data)), options.allocator);
  } else {
    memo.set(header.id, Array(std::move(data)));
  }
}

}  // namespace bowstring::ipc
