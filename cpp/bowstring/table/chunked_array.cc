#include "bowstring/table/chunked_array.h"

#include <algorithm>

#include "bowstring/array/concatenate.h"

#include "bowstring/util/error.h"

namespace bowstring {

namespace {

/// Rethrows a chunk's validation error with the chunk named.
template <typename Check>
void validate_chunks(const std::vector<Array>& chunks, const Check& check) {
  for (size_t i = 0; i < chunks.size(); ++i) {
    try {
      check(chunks[i]);
    } catch (const FormatError& error) {
      throw FormatError("chunk " + std::to_string(i) + ": " + error.what());
    }
  }
}

}  // namespace

ChunkedArray::ChunkedArray(TypePtr type, std::vector<Array> chunks)
    : type_(std::move(type)), chunks_(std::move(chunks)) {
  check_chunks();
}

ChunkedArray::ChunkedArray(std::vector<Array> chunks) : chunks_(std::move(chunks)) {
  if (!chunks_.empty() && chunks_[0]) {
    type_ = chunks_[0].type();
  }
  check_chunks();
}

ChunkedArray::ChunkedArray(Array chunk) : ChunkedArray(std::vector<Array>{std::move(chunk)}) {}

void ChunkedArray::check_chunks() {
  if (type_ == nullptr) {
    throw InvalidArgument("a chunked array needs a type");
  }
  for (size_t i = 0; i < chunks_.size(); ++i) {
    const Array& chunk = chunks_[i];
    if (!chunk) {
      throw InvalidArgument("chunk " + std::to_string(i) + " of a chunked array has no data");
    }
    if (!chunk.type()->equals(*type_)) {
      throw TypeError("chunk " + std::to_string(i) + " has type " + chunk.type()->to_string() +
                      ", expected " + type_->to_string());
    }
    length_ += chunk.length();
  }
}

int64_t ChunkedArray::null_count() const {
  int64_t count = 0;
  for (const Array& chunk : chunks_) {
    count += chunk.null_count();
  }
  return count;
}

const Array& ChunkedArray::chunk(int i) const {
  if (i < 0 || i >= num_chunks()) {
    throw IndexError("chunk index " + std::to_string(i) + " is outside a chunked array of " +
                     std::to_string(num_chunks()) + " chunks");
  }
  return chunks_[static_cast<size_t>(i)];
}

ChunkedArray ChunkedArray::slice(int64_t offset, int64_t length) const {
  if (offset < 0 || length < 0 || offset > length_ || length > length_ - offset) {
    throw IndexError("slice [" + std::to_string(offset) + ", +" + std::to_string(length) +
                     ") is outside a chunked array of length " + std::to_string(length_));
  }
  std::vector<Array> pieces;
  int64_t chunk_start = 0;
  for (const Array& chunk : chunks_) {
    if (length == 0) {
      break;
    }
    const int64_t chunk_length = chunk.length();
    if (offset < chunk_start + chunk_length) {
      const int64_t begin = offset - chunk_start;
      const int64_t count = std::min(length, chunk_length - begin);
      pieces.push_back(begin == 0 && count == chunk_length ? chunk : chunk.slice(begin, count));
      offset += count;
      length -= count;
    }
    chunk_start += chunk_length;
  }
  return ChunkedArray(type_, std::move(pieces));
}

ChunkedArray ChunkedArray::slice(int64_t offset) const {
  if (offset < 0 || offset > length_) {
    throw IndexError("slice offset " + std::to_string(offset) +
                     " is outside a chunked array of length " + std::to_string(length_));
  }
  return slice(offset, length_ - offset);
}

ChunkedArray ChunkedArray::combine_chunks(Allocator* allocator) const {
  if (chunks_.size() <= 1) {
    return *this;
  }
  return ChunkedArray(type_, {concatenate(chunks_, allocator)});
}

bool ChunkedArray::equals(const ChunkedArray& other, const EqualOptions& options) const {
  if (length_ != other.length_ || !type_->equals(*other.type_, options.check_metadata)) {
    return false;
  }
  // Walk both chunk lists together, comparing the overlapping ranges.
  size_t left = 0;
  size_t right = 0;
  int64_t left_offset = 0;
  int64_t right_offset = 0;
  for (int64_t remaining = length_; remaining > 0;) {
    while (left_offset == chunks_[left].length()) {
      ++left;
      left_offset = 0;
    }
    while (right_offset == other.chunks_[right].length()) {
      ++right;
      right_offset = 0;
    }
    const Array& left_chunk = chunks_[left];
    const Array& right_chunk = other.chunks_[right];
    const int64_t count =
        std::min(left_chunk.length() - left_offset, right_chunk.length() - right_offset);
    if (!array_range_equal(left_chunk, left_offset, right_chunk, right_offset, count, options)) {
      return false;
    }
    left_offset += count;
    right_offset += count;
    remaining -= count;
  }
  return true;
}

std::string ChunkedArray::to_string(const PrettyPrintOptions& options) const {
  PrettyPrintOptions chunk_options = options;
  chunk_options.indent = 0;
  std::string out(static_cast<size_t>(std::max(options.indent, 0)), ' ');
  out += '[';
  const int64_t count = num_chunks();
  const int64_t window = options.window;
  const bool elide = window >= 0 && count - window > window;
  for (int64_t k = 0; k < count; ++k) {
    if (k > 0) {
      out += ' ';
    }
    if (elide && k == window) {
      out += "...";
      k = count - window - 1;
      continue;
    }
    out += pretty_print(chunks_[static_cast<size_t>(k)], chunk_options);
  }
  out += ']';
  return out;
}

void ChunkedArray::validate() const {
  validate_chunks(chunks_, [](const Array& chunk) { chunk.validate(); });
}

void ChunkedArray::validate_full() const {
  validate_chunks(chunks_, [](const Array& chunk) { chunk.validate_full(); });
}

}  // namespace bowstring
