#include "bowstring/array/concatenate.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "bowstring/array/equal.h"
#include "bowstring/memory/buffer_builder.h"
#include "bowstring/types/storage.h"
#include "bowstring/util/error.h"

namespace bowstring {

namespace {

using Pieces = std::vector<ArrayDataPtr>;

/// Throws when `total`, a count of bytes or child values, does not fit offsets of type `Offset`.
template <typename Offset>
void check_offset_limit(int64_t total, const DataType& type, const char* what) {
  if (total > std::numeric_limits<Offset>::max()) {
    throw InvalidArgument("concatenated " + type.to_string() + " arrays hold " +
                          std::to_string(total) + " " + what + ", more than the " +
                          std::to_string(std::numeric_limits<Offset>::max()) +
                          " their offsets can address");
  }
}

int64_t total_length(const Pieces& pieces) {
  int64_t length = 0;
  for (const ArrayDataPtr& piece : pieces) {
    // Arrays without buffers (null, empty struct) may be as long as int64 allows.
    if (__builtin_add_overflow(length, piece->length, &length)) {
      throw InvalidArgument("concatenated " + piece->type->to_string() + " arrays hold more than " +
                            std::to_string(std::numeric_limits<int64_t>::max()) + " values");
    }
  }
  return length;
}

class Concatenator {
 public:
  explicit Concatenator(Allocator* allocator) : allocator_(allocator) {}

  /// Concatenates arrays of one type (the type of the first is used for the result).
  ArrayDataPtr concatenate(const Pieces& pieces) {
    const TypePtr& type = pieces[0]->type;
    const DataType& storage = storage_of(*type);
    const int64_t length = total_length(pieces);
    std::vector<std::shared_ptr<Buffer>> buffers;
    std::vector<ArrayDataPtr> children;
    ArrayDataPtr dictionary;
    int64_t null_count = 0;
    buffers.push_back(storage.layout()[0].kind == BufferKind::kValidity
                          ? validity(pieces, length, &null_count)
                          : nullptr);
    switch (storage.id()) {
      case TypeId::kNull:
        null_count = length;
        break;
      case TypeId::kBoolean: {
        BitmapBuilder bits(allocator_);
        bits.reserve(length);
        for (const ArrayDataPtr& piece : pieces) {
          bits.append_bits(piece->buffers[1]->data(), piece->offset, piece->length);
        }
        buffers.push_back(bits.finish());
        break;
      }
      case TypeId::kString:
      case TypeId::kBinary:
        binaries<int32_t>(pieces, storage, buffers);
        break;
      case TypeId::kLargeString:
      case TypeId::kLargeBinary:
        binaries<int64_t>(pieces, storage, buffers);
        break;
      case TypeId::kStringView:
      case TypeId::kBinaryView:
        views(pieces, length, buffers);
        break;
      case TypeId::kList:
      case TypeId::kMap:
        lists<int32_t>(pieces, storage, buffers, children);
        break;
      case TypeId::kLargeList:
        lists<int64_t>(pieces, storage, buffers, children);
        break;
      case TypeId::kListView:
        list_views<int32_t>(pieces, storage, buffers, children);
        break;
      case TypeId::kLargeListView:
        list_views<int64_t>(pieces, storage, buffers, children);
        break;
      case TypeId::kFixedSizeList: {
        const int64_t size = static_cast<const FixedSizeListType&>(storage).list_size();
        Pieces values;
        for (const ArrayDataPtr& piece : pieces) {
          values.push_back(piece->children[0]->slice(piece->offset * size, piece->length * size));
        }
        children.push_back(concatenate(values));
        break;
      }
      case TypeId::kStruct:
        children = windowed_children(pieces);
        break;
      case TypeId::kSparseUnion:
        buffers.push_back(fixed_width(pieces, 1));
        children = windowed_children(pieces);
        break;
      case TypeId::kDenseUnion:
        dense_union(pieces, static_cast<const UnionType&>(storage), buffers, children);
        break;
      case TypeId::kDictionary:
        dictionary =
            dictionaries(pieces, *type, static_cast<const DictionaryType&>(storage), buffers);
        break;
      case TypeId::kRunEndEncoded:
        switch (static_cast<const RunEndEncodedType&>(storage).run_end_type()->id()) {
          case TypeId::kInt16:
            runs<int16_t>(pieces, storage, children);
            break;
          case TypeId::kInt32:
            runs<int32_t>(pieces, storage, children);
            break;
          default:
            runs<int64_t>(pieces, storage, children);
            break;
        }
        break;
      default:
        buffers.push_back(fixed_width(pieces, storage.byte_width()));
        break;
    }
    return std::make_shared<ArrayData>(type, length, std::move(buffers), null_count, 0,
                                       std::move(children), std::move(dictionary));
  }

 private:
  std::shared_ptr<Buffer> validity(const Pieces& pieces, int64_t length, int64_t* null_count) {
    *null_count = 0;
    for (const ArrayDataPtr& piece : pieces) {
      *null_count += piece->null_count();
    }
    if (*null_count == 0) {
      return nullptr;
    }
    BitmapBuilder bitmap(allocator_);
    bitmap.reserve(length);
    for (const ArrayDataPtr& piece : pieces) {
      const Buffer* bits = piece->buffers[0].get();
      bitmap.append_bits(bits == nullptr ? nullptr : bits->data(), piece->offset, piece->length);
    }
    return bitmap.finish();
  }

  std::shared_ptr<Buffer> fixed_width(const Pieces& pieces, int64_t width) {
    BufferBuilder bytes(allocator_);
    for (const ArrayDataPtr& piece : pieces) {
      bytes.append(piece->buffers[1]->data() + piece->offset * width, piece->length * width);
    }
    return bytes.finish();
  }

  /// Children that share the parent's offset (struct, sparse union), cut to each window.
  Pieces windowed_children(const Pieces& pieces) {
    Pieces children;
    for (size_t child = 0; child < pieces[0]->children.size(); ++child) {
      Pieces parts;
      for (const ArrayDataPtr& piece : pieces) {
        parts.push_back(piece->children[child]->slice(piece->offset, piece->length));
      }
      children.push_back(concatenate(parts));
    }
    return children;
  }

  /// Appends the offsets of `piece` to `out`, rebased from its first offset to `base`.
  template <typename Offset>
  static void append_rebased(const ArrayData& piece, int64_t base,
                             TypedBufferBuilder<Offset>& out) {
    const Offset* offsets = piece.values<Offset>(1);
    const int64_t first = offsets[0];
    for (int64_t i = 1; i <= piece.length; ++i) {
      out.unsafe_append(static_cast<Offset>(base + offsets[i] - first));
    }
  }

  template <typename Offset>
  void binaries(const Pieces& pieces, const DataType& type,
                std::vector<std::shared_ptr<Buffer>>& buffers) {
    TypedBufferBuilder<Offset> offsets(allocator_);
    offsets.reserve(total_length(pieces) + 1);
    offsets.unsafe_append(0);
    BufferBuilder bytes(allocator_);
    int64_t base = 0;
    for (const ArrayDataPtr& piece : pieces) {
      const Offset* in = piece->values<Offset>(1);
      const int64_t first = in[0];
      const int64_t used = in[piece->length] - first;
      check_offset_limit<Offset>(base + used, type, "bytes");
      if (used > 0) {
        bytes.append(piece->buffers[2]->data() + first, used);
      }
      append_rebased<Offset>(*piece, base, offsets);
      base += used;
    }
    buffers.push_back(offsets.finish());
    buffers.push_back(bytes.finish());
  }

  template <typename Offset>
  void lists(const Pieces& pieces, const DataType& type,
             std::vector<std::shared_ptr<Buffer>>& buffers, Pieces& children) {
    TypedBufferBuilder<Offset> offsets(allocator_);
    offsets.reserve(total_length(pieces) + 1);
    offsets.unsafe_append(0);
    Pieces values;
    int64_t base = 0;
    for (const ArrayDataPtr& piece : pieces) {
      const Offset* in = piece->values<Offset>(1);
      const int64_t first = in[0];
      const int64_t used = in[piece->length] - first;
      check_offset_limit<Offset>(base + used, type, "child values");
      append_rebased<Offset>(*piece, base, offsets);
      values.push_back(piece->children[0]->slice(first, used));
      base += used;
    }
    buffers.push_back(offsets.finish());
    children.push_back(concatenate(values));
  }

  template <typename Offset>
  void list_views(const Pieces& pieces, const DataType& type,
                  std::vector<std::shared_ptr<Buffer>>& buffers, Pieces& children) {
    TypedBufferBuilder<Offset> offsets(allocator_);
    TypedBufferBuilder<Offset> sizes(allocator_);
    Pieces values;
    int64_t base = 0;
    for (const ArrayDataPtr& piece : pieces) {
      const Offset* in_offsets = piece->values<Offset>(1);
      const Offset* in_sizes = piece->values<Offset>(2);
      const auto used = [&](int64_t i) { return in_sizes[i] > 0 && !piece->is_null_in_bitmap(i); };
      // The range of the child that the piece's lists use; views may come in any order.
      int64_t low = std::numeric_limits<int64_t>::max();
      int64_t high = 0;
      for (int64_t i = 0; i < piece->length; ++i) {
        if (used(i)) {
          low = std::min<int64_t>(low, in_offsets[i]);
          high = std::max(high, int64_t{in_offsets[i]} + in_sizes[i]);
        }
      }
      if (low > high) {
        low = high = 0;
      }
      check_offset_limit<Offset>(base + high - low, type, "child values");
      offsets.reserve(piece->length);
      sizes.reserve(piece->length);
      for (int64_t i = 0; i < piece->length; ++i) {
        // Null and empty lists point at the start of the piece's range, so every offset is valid.
        offsets.unsafe_append(static_cast<Offset>(used(i) ? base + in_offsets[i] - low : base));
        sizes.unsafe_append(used(i) ? in_sizes[i] : 0);
      }
      values.push_back(piece->children[0]->slice(low, high - low));
      base += high - low;
    }
    buffers.push_back(offsets.finish());
    buffers.push_back(sizes.finish());
    children.push_back(concatenate(values));
  }

  void views(const Pieces& pieces, int64_t length, std::vector<std::shared_ptr<Buffer>>& buffers) {
    TypedBufferBuilder<BinaryView> out(allocator_);
    out.reserve(length);
    // Data buffers are shared, not copied; each buffer is listed once however many pieces use it.
    std::vector<std::shared_ptr<Buffer>> data_buffers;
    std::unordered_map<const Buffer*, int32_t> data_index;
    for (const ArrayDataPtr& piece : pieces) {
      const BinaryView* in = piece->values<BinaryView>(1);
      for (int64_t i = 0; i < piece->length; ++i) {
        BinaryView view;
        if (piece->is_null_in_bitmap(i)) {
          std::memset(&view, 0, sizeof(view));
        } else {
          view = in[i];
        }
        if (!view.is_inline()) {
          const std::shared_ptr<Buffer>& buffer =
              piece->buffers[2 + static_cast<size_t>(view.ref.buffer_index)];
          const auto [it, added] =
              data_index.emplace(buffer.get(), static_cast<int32_t>(data_buffers.size()));
          if (added) {
            data_buffers.push_back(buffer);
          }
          view.ref.buffer_index = it->second;
        }
        out.unsafe_append(view);
      }
    }
    buffers.push_back(out.finish());
    buffers.insert(buffers.end(), data_buffers.begin(), data_buffers.end());
  }

  void dense_union(const Pieces& pieces, const UnionType& type,
                   std::vector<std::shared_ptr<Buffer>>& buffers, Pieces& children) {
    const size_t num_children = static_cast<size_t>(type.num_fields());
    TypedBufferBuilder<int32_t> offsets(allocator_);
    std::vector<Pieces> values(num_children);
    std::vector<int64_t> bases(num_children, 0);
    for (const ArrayDataPtr& piece : pieces) {
      const int8_t* ids = piece->values<int8_t>(1);
      const int32_t* in = piece->values<int32_t>(2);
      // The range of each child that the piece's slots use.
      std::vector<int64_t> low(num_children, std::numeric_limits<int64_t>::max());
      std::vector<int64_t> high(num_children, 0);
      for (int64_t i = 0; i < piece->length; ++i) {
        const size_t child = static_cast<size_t>(type.child_index(ids[i]));
        low[child] = std::min<int64_t>(low[child], in[i]);
        high[child] = std::max(high[child], int64_t{in[i]} + 1);
      }
      offsets.reserve(piece->length);
      for (int64_t i = 0; i < piece->length; ++i) {
        const size_t child = static_cast<size_t>(type.child_index(ids[i]));
        offsets.unsafe_append(static_cast<int32_t>(bases[child] + in[i] - low[child]));
      }
      for (size_t child = 0; child < num_children; ++child) {
        if (low[child] > high[child]) {
          low[child] = high[child] = 0;
        }
        values[child].push_back(
            piece->children[child]->slice(low[child], high[child] - low[child]));
        bases[child] += high[child] - low[child];
        check_offset_limit<int32_t>(bases[child], type, "values in one child");
      }
    }
    buffers.push_back(fixed_width(pieces, 1));
    buffers.push_back(offsets.finish());
    for (const Pieces& parts : values) {
      children.push_back(concatenate(parts));
    }
  }

  ArrayDataPtr dictionaries(const Pieces& pieces, const DataType& type,
                            const DictionaryType& dictionary_type,
                            std::vector<std::shared_ptr<Buffer>>& buffers) {
    // The distinct dictionaries in order of first use, and where each starts once they are
    // concatenated; each piece's indices shift by the start of its dictionary.
    Pieces distinct;
    std::vector<int64_t> starts;
    std::vector<int64_t> shifts;
    int64_t total = 0;
    EqualOptions same_values;
    same_values.nans_equal = true;
    for (const ArrayDataPtr& piece : pieces) {
      size_t k = 0;
      while (k < distinct.size() && distinct[k] != piece->dictionary &&
             !arrays_equal(Array(distinct[k]), Array(piece->dictionary), same_values)) {
        ++k;
      }
      if (k == distinct.size()) {
        distinct.push_back(piece->dictionary);
        starts.push_back(total);
        total += piece->dictionary->length;
      }
      shifts.push_back(starts[k]);
    }
    const TypeId index_id = dictionary_type.index_type()->id();
    if (distinct.size() == 1) {
      buffers.push_back(fixed_width(pieces, dictionary_type.index_type()->byte_width()));
      return distinct[0];
    }
    switch (index_id) {
      case TypeId::kInt8:
        buffers.push_back(shifted_indices<int8_t>(pieces, shifts, total, type));
        break;
      case TypeId::kUInt8:
        buffers.push_back(shifted_indices<uint8_t>(pieces, shifts, total, type));
        break;
      case TypeId::kInt16:
        buffers.push_back(shifted_indices<int16_t>(pieces, shifts, total, type));
        break;
      case TypeId::kUInt16:
        buffers.push_back(shifted_indices<uint16_t>(pieces, shifts, total, type));
        break;
      case TypeId::kInt32:
        buffers.push_back(shifted_indices<int32_t>(pieces, shifts, total, type));
        break;
      case TypeId::kUInt32:
        buffers.push_back(shifted_indices<uint32_t>(pieces, shifts, total, type));
        break;
      case TypeId::kInt64:
        buffers.push_back(shifted_indices<int64_t>(pieces, shifts, total, type));
        break;
      default:
        buffers.push_back(shifted_indices<uint64_t>(pieces, shifts, total, type));
        break;
    }
    return concatenate(distinct);
  }

  template <typename Index>
  std::shared_ptr<Buffer> shifted_indices(const Pieces& pieces, const std::vector<int64_t>& shifts,
                                          int64_t dictionary_length, const DataType& type) {
    if (static_cast<uint64_t>(dictionary_length - 1) >
        static_cast<uint64_t>(std::numeric_limits<Index>::max())) {
      throw InvalidArgument(
          "cannot concatenate " + type.to_string() + " arrays: their dictionaries hold " +
          std::to_string(dictionary_length) + " values together, more than " +
          static_cast<const DictionaryType&>(storage_of(type)).index_type()->to_string() +
          " indices can address");
    }
    TypedBufferBuilder<Index> out(allocator_);
    for (size_t k = 0; k < pieces.size(); ++k) {
      const ArrayData& piece = *pieces[k];
      const Index* in = piece.values<Index>(1);
      out.reserve(piece.length);
      for (int64_t i = 0; i < piece.length; ++i) {
        // Indices under nulls are unspecified; write 0 rather than shift garbage.
        out.unsafe_append(piece.is_null_in_bitmap(i)
                              ? Index{0}
                              : static_cast<Index>(static_cast<int64_t>(in[i]) + shifts[k]));
      }
    }
    return out.finish();
  }

  template <typename RunEnd>
  void runs(const Pieces& pieces, const DataType& type, Pieces& children) {
    TypedBufferBuilder<RunEnd> run_ends(allocator_);
    Pieces values;
    int64_t base = 0;
    for (const ArrayDataPtr& piece : pieces) {
      if (piece->length == 0) {
        continue;
      }
      const ArrayData& in_ends = *piece->children[0];
      const RunEnd* in = in_ends.values<RunEnd>(1);
      const int64_t begin = piece->offset;
      const int64_t end = piece->offset + piece->length;
      // The runs that overlap [begin, end): from the first ending after `begin` to the first
      // ending at or after `end`.
      const int64_t first =
          std::upper_bound(in, in + in_ends.length, static_cast<RunEnd>(begin)) - in;
      const int64_t last = std::lower_bound(in, in + in_ends.length, static_cast<RunEnd>(end)) - in;
      if (base + piece->length > std::numeric_limits<RunEnd>::max()) {
        throw InvalidArgument("concatenated " + type.to_string() + " arrays have " +
                              std::to_string(base + piece->length) +
                              " values, more than their run ends can count");
      }
      run_ends.reserve(last - first + 1);
      for (int64_t run = first; run <= last; ++run) {
        run_ends.unsafe_append(static_cast<RunEnd>(base + std::min<int64_t>(in[run], end) - begin));
      }
      values.push_back(piece->children[1]->slice(first, last - first + 1));
      base += piece->length;
    }
    if (values.empty()) {
      values.push_back(pieces[0]->children[1]->slice(0, 0));
    }
    const int64_t num_runs = run_ends.length();
    children.push_back(std::make_shared<ArrayData>(
        type.field(0)->type(), num_runs,
        std::vector<std::shared_ptr<Buffer>>{nullptr, run_ends.finish()}, 0));
    children.push_back(concatenate(values));
  }

  Allocator* allocator_;
};

}  // namespace

Array concatenate(std::span<const Array> arrays, Allocator* allocator) {
  if (arrays.empty()) {
    throw InvalidArgument("concatenate needs at least one array");
  }
  Pieces pieces;
  for (size_t i = 0; i < arrays.size(); ++i) {
    if (!arrays[i]) {
      throw InvalidArgument("array " + std::to_string(i) + " to concatenate holds no data");
    }
    if (!arrays[i].type()->equals(*arrays[0].type())) {
      throw TypeError("cannot concatenate arrays of different types: array 0 is " +
                      arrays[0].type()->to_string() + " but array " + std::to_string(i) + " is " +
                      arrays[i].type()->to_string());
    }
    pieces.push_back(arrays[i].data());
  }
  return Array(Concatenator(allocator).concatenate(pieces));
}

}  // namespace bowstring
