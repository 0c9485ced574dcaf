#include "bowstring/compute/aggregate/aggregate_util.h"

#include <memory>

#include "bowstring/array/builder.h"
#include "bowstring/array/builder_scalar.h"
#include "bowstring/array/concatenate.h"

namespace bowstring::compute {

Array gather_rows(const TypePtr& type, std::span<const Array> sources, std::span<const RowRef> refs,
                  Allocator* allocator) {
  if (scalar_kind(*type) != ScalarKind::kUnsupported) {
    std::unique_ptr<ArrayBuilder> builder = make_builder(type, allocator);
    ScalarAppender appender(*builder, "gather_rows");
    builder->reserve(static_cast<int64_t>(refs.size()));
    for (const RowRef& ref : refs) {
      if (ref.source == RowRef::kNullRef) {
        builder->append_null();
        continue;
      }
      const Array& source = sources[ref.source];
      if (source.is_null(ref.row)) {
        builder->append_null();
      } else {
        appender.append(scalar_bytes(*source.data(), ref.row));
      }
    }
    return builder->finish();
  }
  // Nested and other types: slices of consecutive rows of one source, concatenated.
  std::vector<Array> pieces;
  size_t i = 0;
  while (i < refs.size()) {
    const RowRef& start = refs[i];
    size_t end = i + 1;
    if (start.source == RowRef::kNullRef) {
      while (end < refs.size() && refs[end].source == RowRef::kNullRef) {
        ++end;
      }
      std::unique_ptr<ArrayBuilder> nulls = make_builder(type, allocator);
      nulls->append_nulls(static_cast<int64_t>(end - i));
      pieces.push_back(nulls->finish());
    } else {
      while (end < refs.size() && refs[end].source == start.source &&
             refs[end].row == start.row + static_cast<int64_t>(end - i)) {
        ++end;
      }
      pieces.push_back(sources[start.source].slice(start.row, static_cast<int64_t>(end - i)));
    }
    i = end;
  }
  if (pieces.empty()) {
    return make_builder(type, allocator)->finish();
  }
  return concatenate(pieces, allocator);
}

}  // namespace bowstring::compute
