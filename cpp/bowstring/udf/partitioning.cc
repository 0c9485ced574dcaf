#include "bowstring/udf/partitioning.h"

#include <algorithm>
#include <string>
#include <utility>

#include "bowstring/types/storage.h"
#include "bowstring/util/bit_util.h"
#include "bowstring/util/error.h"

namespace bowstring::udf {

namespace {

// Every byte `data` references (its buffers and its children's), dictionaries aside.
int64_t referenced_bytes(const ArrayData& data) {
  int64_t total = 0;
  for (const std::shared_ptr<Buffer>& buffer : data.buffers) {
    total += buffer == nullptr ? 0 : buffer->size();
  }
  for (const ArrayDataPtr& child : data.children) {
    total += referenced_bytes(*child);
  }
  return total;
}

template <typename Offset>
std::pair<int64_t, int64_t> offset_range(const ArrayData& data, int64_t first, int64_t length) {
  const Offset* offsets = data.buffers[1]->data_as<Offset>();
  return {offsets[first], offsets[first + length] - offsets[first]};
}

// The bytes of `length` values of `data` from `start` (counted from the array's own offset).
int64_t range_bytes(const ArrayData& data, int64_t start, int64_t length) {
  if (length <= 0) {
    return 0;
  }
  const DataType& type = storage_of(*data.type);
  const int64_t first = data.offset + start;
  const bool has_validity = !data.buffers.empty() && data.buffers[0] != nullptr;
  const int64_t validity = has_validity ? bit_util::bytes_for_bits(length) : 0;
  switch (type.id()) {
    case TypeId::kNull:
      return 0;
    case TypeId::kBoolean:
      return validity + bit_util::bytes_for_bits(length);
    case TypeId::kString:
    case TypeId::kBinary:
      return validity + 4 * (length + 1) + offset_range<int32_t>(data, first, length).second;
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      return validity + 8 * (length + 1) + offset_range<int64_t>(data, first, length).second;
    case TypeId::kList:
    case TypeId::kMap: {
      const auto [child_start, child_length] = offset_range<int32_t>(data, first, length);
      return validity + 4 * (length + 1) +
             range_bytes(*data.children[0], child_start, child_length);
    }
    case TypeId::kLargeList: {
      const auto [child_start, child_length] = offset_range<int64_t>(data, first, length);
      return validity + 8 * (length + 1) +
             range_bytes(*data.children[0], child_start, child_length);
    }
    case TypeId::kFixedSizeList: {
      const int64_t size = static_cast<const FixedSizeListType&>(type).list_size();
      return validity + range_bytes(*data.children[0], first * size, length * size);
    }
    case TypeId::kStruct:
    case TypeId::kSparseUnion: {
      int64_t total = validity + (type.id() == TypeId::kSparseUnion ? length : 0);
      for (const ArrayDataPtr& child : data.children) {
        total += range_bytes(*child, first, length);
      }
      return total;
    }
    default:
      break;
  }
  // Fixed-width values (dictionary indices among them: a dictionary type's layout is its
  // index type's).
  const std::vector<BufferSpec> layout = type.layout();
  if (layout.size() == 2 && layout[1].kind == BufferKind::kFixedWidth) {
    return validity + length * layout[1].byte_width;
  }
  // Views, list views, dense unions, run-end encoded arrays: their ranges are scattered, so take
  // the share of what the array references that its rows are of its extent.
  const auto extent = static_cast<double>(std::max<int64_t>(1, data.offset + data.length));
  return static_cast<int64_t>(static_cast<double>(referenced_bytes(data)) *
                              static_cast<double>(length) / extent);
}

void check_positive(int64_t value, const char* what) {
  if (value <= 0) {
    throw InvalidArgument(std::string(what) + " must be positive, got " + std::to_string(value));
  }
}

}  // namespace

int64_t estimate_batch_bytes(const RecordBatch& batch) {
  int64_t total = 0;
  for (const Array& column : batch.columns()) {
    total += range_bytes(*column.data(), 0, column.length());
  }
  return total;
}

std::vector<RecordBatch> split_batch(const RecordBatch& batch, int64_t max_rows,
                                     int64_t max_bytes) {
  check_positive(max_rows, "the largest number of rows per batch");
  check_positive(max_bytes, "the largest number of bytes per batch");
  const int64_t rows = batch.num_rows();
  if (rows == 0) {
    return {};
  }
  const double row_bytes =
      static_cast<double>(estimate_batch_bytes(batch)) / static_cast<double>(rows);
  int64_t slice_rows = std::min(max_rows, rows);
  if (row_bytes * static_cast<double>(slice_rows) > static_cast<double>(max_bytes)) {
    slice_rows =
        std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(max_bytes) / row_bytes));
  }
  std::vector<RecordBatch> slices;
  if (slice_rows == rows) {
    slices.push_back(batch);
    return slices;
  }
  slices.reserve(static_cast<size_t>((rows + slice_rows - 1) / slice_rows));
  for (int64_t offset = 0; offset < rows; offset += slice_rows) {
    slices.push_back(batch.slice(offset, std::min(slice_rows, rows - offset)));
  }
  return slices;
}

Partitioner::Partitioner(RecordBatchReader& input, int64_t partition_rows)
    : input_(input), partition_rows_(partition_rows) {
  check_positive(partition_rows, "the number of rows per partition");
}

std::optional<std::vector<RecordBatch>> Partitioner::next() {
  std::vector<RecordBatch> batches;
  int64_t rows = 0;
  while (rows < partition_rows_) {
    std::optional<RecordBatch> batch = std::exchange(carried_, std::nullopt);
    if (!batch && !exhausted_) {
      batch = input_.next();
      exhausted_ = !batch;
    }
    if (!batch) {
      break;
    }
    const int64_t available = batch->num_rows();
    const int64_t taken = std::min(available, partition_rows_ - rows);
    if (taken == 0) {
      continue;
    }
    if (taken < available) {
      carried_ = batch->slice(taken);
      batch = batch->slice(0, taken);
    }
    rows += taken;
    batches.push_back(std::move(*batch));
  }
  if (batches.empty()) {
    return std::nullopt;
  }
  return batches;
}

}  // namespace bowstring::udf
