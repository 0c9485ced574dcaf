#include "bowstring/table/chunked_array.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring {
namespace {

using testing::error_message;

using testing::make_array;

/// An int64 array of 3 values whose values buffer holds only one: validation rejects it.
Array broken_int64_array() {
  return make_array(int64(), 3, {nullptr, testing::buffer_of(std::vector<int64_t>{1})});
}

/// [1 2 3] [] [4 null] [6]
ChunkedArray four_chunks() {
  return ChunkedArray({make_array<int64_t>({1, 2, 3}), make_array<int64_t>({}),
                       make_array<int64_t>({4, std::nullopt}), make_array<int64_t>({6})});
}

TEST(ChunkedArray, LengthNullCountAndChunks) {
  const ChunkedArray column = four_chunks();
  EXPECT_EQ(column.type()->to_string(), "int64");
  EXPECT_EQ(column.length(), 6);
  EXPECT_EQ(column.null_count(), 1);
  EXPECT_EQ(column.num_chunks(), 4);
  EXPECT_EQ(column.chunk(2).length(), 2);
  EXPECT_EQ(error_message<IndexError>([&] { column.chunk(4); }),
            "chunk index 4 is outside a chunked array of 4 chunks");
}

TEST(ChunkedArray, EmptyNeedsAType) {
  const ChunkedArray empty(utf8(), {});
  EXPECT_EQ(empty.length(), 0);
  EXPECT_EQ(empty.num_chunks(), 0);
  EXPECT_EQ(empty.to_string(), "[]");
  EXPECT_EQ(error_message<InvalidArgument>([] { ChunkedArray(std::vector<Array>{}); }),
            "a chunked array needs a type");
}

TEST(ChunkedArray, ChunksMustShareTheType) {
  const Array ints32 = make_array<int32_t>({});
  EXPECT_EQ(error_message<TypeError>([&] {
              ChunkedArray({make_array<int64_t>({1}), ints32});
            }),
            "chunk 1 has type int32, expected int64");
  EXPECT_EQ(error_message<InvalidArgument>([] { ChunkedArray(int64(), {Array()}); }),
            "chunk 0 of a chunked array has no data");
}

TEST(ChunkedArray, SliceAcrossChunks) {
  const ChunkedArray column = four_chunks();
  const ChunkedArray middle = column.slice(2, 3);
  EXPECT_EQ(middle.length(), 3);
  EXPECT_EQ(middle.to_string(), "[[3] [4 null]]");
  EXPECT_EQ(middle.null_count(), 1);
  EXPECT_EQ(column.slice(3).to_string(), "[[4 null] [6]]");
  EXPECT_EQ(column.slice(0, 3).to_string(), "[[1 2 3]]");
  EXPECT_EQ(column.slice(6).num_chunks(), 0);
  EXPECT_EQ(column.slice(2, 0).length(), 0);
}

TEST(ChunkedArray, SliceIsZeroCopy) {
  const ChunkedArray column = four_chunks();
  const ChunkedArray sliced = column.slice(1, 5);
  EXPECT_EQ(sliced.chunk(0).data()->buffers[1], column.chunk(0).data()->buffers[1]);
  EXPECT_EQ(sliced.chunk(0).offset(), 1);
  // Whole chunks are kept as they are.
  EXPECT_EQ(sliced.chunk(1).data(), column.chunk(2).data());
}

TEST(ChunkedArray, SliceOfSlice) {
  const ChunkedArray column = four_chunks();
  const ChunkedArray twice = column.slice(1, 4).slice(1, 2);
  EXPECT_EQ(twice.to_string(), "[[3] [4]]");
  EXPECT_EQ(twice.chunk(0).offset(), 2);
}

TEST(ChunkedArray, SliceOutOfRange) {
  const ChunkedArray column = four_chunks();
  EXPECT_EQ(error_message<IndexError>([&] { column.slice(4, 3); }),
            "slice [4, +3) is outside a chunked array of length 6");
  EXPECT_EQ(error_message<IndexError>([&] { column.slice(7); }),
            "slice offset 7 is outside a chunked array of length 6");
  EXPECT_THROW(column.slice(-1, 1), IndexError);
}

TEST(ChunkedArray, EqualsIgnoresChunkBoundaries) {
  const ChunkedArray column = four_chunks();
  const ChunkedArray rechunked(
      {make_array<int64_t>({1}), make_array<int64_t>({2, 3, 4, std::nullopt, 6})});
  EXPECT_TRUE(column.equals(rechunked));
  EXPECT_TRUE(rechunked.equals(column));
  EXPECT_TRUE(column.equals(ChunkedArray(make_array<int64_t>({1, 2, 3, 4, std::nullopt, 6}))));
  EXPECT_FALSE(column.equals(ChunkedArray(make_array<int64_t>({1, 2, 3, 4, 5, 6}))));
  EXPECT_FALSE(column.equals(column.slice(1)));
  EXPECT_TRUE(column.slice(2, 2).equals(ChunkedArray(make_array<int64_t>({3, 4}))));
  EXPECT_TRUE(ChunkedArray(int64(), {}).equals(ChunkedArray({make_array<int64_t>({})})));
  EXPECT_FALSE(ChunkedArray(int64(), {}).equals(ChunkedArray(utf8(), {})));
}

TEST(ChunkedArray, CombineChunks) {
  const ChunkedArray column = four_chunks();
  const ChunkedArray combined = column.combine_chunks();
  EXPECT_EQ(combined.num_chunks(), 1);
  EXPECT_EQ(combined.to_string(), "[[1 2 3 4 null 6]]");
  EXPECT_TRUE(combined.equals(column));
  // Slices are honoured; a single chunk is kept as it is.
  EXPECT_EQ(column.slice(2, 3).combine_chunks().to_string(), "[[3 4 null]]");
  const ChunkedArray single = column.slice(0, 2);
  EXPECT_EQ(single.combine_chunks().chunk(0).data(), single.chunk(0).data());
  EXPECT_EQ(ChunkedArray(utf8(), {}).combine_chunks().num_chunks(), 0);
}

TEST(ChunkedArray, EqualsWithOptions) {
  const double nan = std::nan("");
  const ChunkedArray left({make_array<double>({1.0, nan}), make_array<double>({2.0})});
  const ChunkedArray right(make_array<double>({1.0, nan, 2.0 + 1e-12}));
  EXPECT_FALSE(left.equals(right));
  EqualOptions options;
  options.nans_equal = true;
  EXPECT_FALSE(left.equals(right, options));
  options.approximate = true;
  EXPECT_TRUE(left.equals(right, options));
}

TEST(ChunkedArray, NaNsDoNotEqualThemselvesInTheSameObject) {
  // As for arrays: whether values are equal does not depend on which object holds them.
  const ChunkedArray column({make_array<double>({1.0, std::nan("")})});
  const ChunkedArray copy({column.chunk(0)});
  EXPECT_FALSE(column.equals(column));
  EXPECT_FALSE(column.equals(copy));
  EXPECT_EQ(column.equals(column), column.chunk(0).equals(column.chunk(0)));
  EqualOptions options;
  options.nans_equal = true;
  EXPECT_TRUE(column.equals(column, options));
  EXPECT_TRUE(four_chunks().equals(four_chunks()));
}

TEST(ChunkedArray, ToStringElidesChunksAndValues) {
  std::vector<Array> chunks;
  for (int64_t i = 0; i < 5; ++i) {
    chunks.push_back(make_array<int64_t>({i, i, i}));
  }
  PrettyPrintOptions options;
  options.window = 1;
  options.indent = 2;
  EXPECT_EQ(ChunkedArray(chunks).to_string(options), "  [[0 ... 0] ... [4 ... 4]]");
  options.window = 2;
  EXPECT_EQ(ChunkedArray(make_array<int64_t>({1, 2, 3, 4, 5})).to_string(options),
            "  [[1 2 ... 4 5]]");
}

TEST(ChunkedArray, ValidateNamesTheChunk) {
  const ChunkedArray column({make_array<int64_t>({1, 2, 3}), broken_int64_array()});
  const std::string expected =
      "chunk 1: buffer has 8 bytes, fewer than the 24 needed for offset 0 + length 3 in buffer 1 "
      "(values) of int64";
  EXPECT_EQ(error_message<FormatError>([&] { column.validate(); }), expected);
  EXPECT_EQ(error_message<FormatError>([&] { column.validate_full(); }), expected);
  EXPECT_NO_THROW(four_chunks().validate_full());
}

}  // namespace
}  // namespace bowstring
