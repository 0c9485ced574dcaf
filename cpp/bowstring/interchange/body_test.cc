#include "bowstring/interchange/body.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/array/concatenate.h"
#include "bowstring/memory/buffer_builder.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/ipc_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/types/storage.h"
#include "bowstring/util/error.h"

namespace bowstring::ipc {
namespace {

using testing::batch_of;
using testing::error_message;
using ::testing::HasSubstr;

const std::nullopt_t kNull = std::nullopt;

/// The dictionary-encoded fields under `type` in pre-order, numbered from `out.size()` (written
/// here independently of metadata.cc, so that the two can be checked against each other).
void collect_dictionary_fields(const TypePtr& type, std::vector<DictionaryField>& out) {
  const TypePtr storage = storage_of(type);
  if (storage->id() == TypeId::kDictionary) {
    auto dictionary = std::static_pointer_cast<const DictionaryType>(storage);
    out.push_back({static_cast<int64_t>(out.size()), dictionary});
    for (const FieldPtr& child : storage_of(dictionary->value_type())->fields()) {
      collect_dictionary_fields(child->type(), out);
    }
    return;
  }
  for (const FieldPtr& child : storage->fields()) {
    collect_dictionary_fields(child->type(), out);
  }
}

std::vector<DictionaryField> dictionary_fields(const Schema& schema) {
  std::vector<DictionaryField> fields;
  for (const FieldPtr& field : schema.fields()) {
    collect_dictionary_fields(field->type(), fields);
  }
  return fields;
}

/// The dictionaries of `data`, numbered as `collect_dictionary_fields` numbers their fields and
/// listed with nested dictionaries before the dictionaries whose values use them.
void collect_dictionaries(const ArrayData& data, int64_t& next_id,
                          std::vector<std::pair<int64_t, Array>>& out) {
  if (storage_of(data.type)->id() == TypeId::kDictionary) {
    const int64_t id = next_id++;
    for (const ArrayDataPtr& child : data.dictionary->children) {
      collect_dictionaries(*child, next_id, out);
    }
    out.emplace_back(id, Array(data.dictionary));
    return;
  }
  for (const ArrayDataPtr& child : data.children) {
    collect_dictionaries(*child, next_id, out);
  }
}

/// The encoded buffers laid out in one body, as a writer would send it.
std::shared_ptr<Buffer> assemble(const EncodedBody& body) {
  BufferBuilder bytes;
  for (size_t i = 0; i < body.buffers.size(); ++i) {
    const BufferRange& range = body.header.buffers[i];
    EXPECT_EQ(range.offset % 8, 0) << "buffer " << i;
    EXPECT_EQ(range.length, body.buffers[i]->size()) << "buffer " << i;
    EXPECT_GE(range.offset, bytes.size()) << "buffer " << i;
    bytes.resize(range.offset);
    bytes.append(body.buffers[i]->data(), body.buffers[i]->size());
  }
  EXPECT_EQ(body.body_length % 8, 0);
  EXPECT_GE(body.body_length, bytes.size());
  bytes.resize(body.body_length);
  return bytes.finish();
}

struct EncodedMessage {
  RecordBatchHeader header;
  std::shared_ptr<Buffer> body;
};

EncodedMessage encode(const std::vector<Array>& columns, int64_t length,
                      const WriteOptions& options = {}) {
  const EncodedBody body = encode_body(columns, length, options);
  return {body.header, assemble(body)};
}

/// A batch with its dictionaries as dictionary batches and its columns as a record batch.
struct EncodedBatch {
  std::vector<std::pair<int64_t, EncodedMessage>> dictionaries;
  EncodedMessage batch;
};

EncodedBatch encode_batch(const RecordBatch& batch, const WriteOptions& options = {}) {
  EncodedBatch encoded;
  int64_t next_id = 0;
  std::vector<std::pair<int64_t, Array>> dictionaries;
  for (const Array& column : batch.columns()) {
    collect_dictionaries(*column.data(), next_id, dictionaries);
  }
  for (const auto& [id, values] : dictionaries) {
    encoded.dictionaries.emplace_back(id, encode({values}, values.length(), options));
  }
  encoded.batch = encode(batch.columns(), batch.num_rows(), options);
  return encoded;
}

RecordBatch decode_batch(const SchemaPtr& schema, const EncodedBatch& encoded,
                         const ReadOptions& options = {}) {
  DictionaryMemo memo(dictionary_fields(*schema));
  for (const auto& [id, message] : encoded.dictionaries) {
    read_dictionary_batch({id, false, message.header}, message.body, memo, options,
                          "dictionary batch");
  }
  return decode_record_batch(schema, encoded.batch.header, encoded.batch.body, memo, options,
                             "record batch");
}

RecordBatch round_trip(const RecordBatch& batch, const WriteOptions& write_options = {},
                       const ReadOptions& read_options = {}) {
  return decode_batch(batch.schema(), encode_batch(batch, write_options), read_options);
}

void expect_round_trip(const std::string& name, const Array& array) {
  SCOPED_TRACE(name + ": " + array.type()->to_string() + " offset " +
               std::to_string(array.offset()) + " length " + std::to_string(array.length()));
  const RecordBatch batch = batch_of({{"column", array}});
  for (const bool full : {true, false}) {
    ReadOptions options;
    options.validate_full = full;
    const RecordBatch read = round_trip(batch, {}, options);
    ASSERT_EQ(read.num_rows(), array.length());
    const Array& column = read.column(0);
    EXPECT_NO_THROW(column.validate_full());
    EXPECT_EQ(column.offset(), 0);
    EXPECT_TRUE(column.equals(array))
        << "wrote " << array.to_string() << "\nread  " << column.to_string();
  }
}

/// `array` repeated until it has at least `length` values.
Array repeated(const Array& array, int64_t length) {
  std::vector<Array> parts{array};
  while (static_cast<int64_t>(parts.size()) * array.length() < length) {
    parts.push_back(array);
  }
  return concatenate(parts);
}

// --- round trips --------------------------------------------------------------------------

TEST(BodyRoundTrip, EverySampleArray) {
  for (const auto& [name, array] : testing::sample_arrays()) {
    expect_round_trip(name, array);
  }
}

TEST(BodyRoundTrip, EverySampleArraySlicedAtOddOffsets) {
  for (const auto& [name, sample] : testing::sample_arrays()) {
    if (sample.length() == 0) {
      continue;
    }
    const Array array = repeated(sample, 24);
    for (const auto& [offset, length] : std::vector<std::pair<int64_t, int64_t>>{
             {3, 11}, {1, 1}, {7, 9}, {8, 13}, {9, 0}, {0, 5}, {5, array.length() - 5}}) {
      expect_round_trip(name + " slice", array.slice(offset, length));
    }
    expect_round_trip(name + " whole", array);
  }
}

TEST(BodyRoundTrip, ZeroLengthColumns) {
  std::vector<std::pair<std::string, Array>> columns;
  for (const auto& [name, array] : testing::sample_arrays()) {
    columns.emplace_back(name, array.slice(array.length() > 0 ? 1 : 0, 0));
  }
  const RecordBatch batch = batch_of(columns);
  const RecordBatch read = round_trip(batch);
  EXPECT_EQ(read.num_rows(), 0);
  EXPECT_TRUE(read.equals(batch));
}

TEST(BodyRoundTrip, BatchWithoutColumns) {
  const RecordBatch batch(schema({}), 5, {});
  const EncodedMessage encoded = encode({}, 5);
  EXPECT_EQ(encoded.header.length, 5);
  EXPECT_TRUE(encoded.header.nodes.empty());
  EXPECT_TRUE(encoded.header.buffers.empty());
  const RecordBatch read = round_trip(batch);
  EXPECT_EQ(read.num_rows(), 5);
  EXPECT_EQ(read.num_columns(), 0);
}

TEST(BodyRoundTrip, SeveralColumns) {
  const RecordBatch batch = batch_of({
      {"ids", testing::int64s({1, 2, kNull, 4})},
      {"names", testing::strings({"a", kNull, "ccc", "dd"})},
      {"flags", testing::booleans({true, false, kNull, true})},
      {"codes", testing::dictionary_of(dictionary(int8(), utf8()), {0, 1, kNull, 0},
                                       testing::strings({"x", "y"}))},
      {"more codes", testing::dictionary_of(dictionary(int32(), int64()), {2, 2, 1, 0},
                                            testing::int64s({7, kNull, 9}))},
  });
  EXPECT_TRUE(round_trip(batch).equals(batch));
  EXPECT_TRUE(round_trip(batch.slice(1, 3)).equals(batch.slice(1, 3)));
}

TEST(BodyRoundTrip, NestedCombinations) {
  using testing::int32s;
  using testing::strings;
  const TypePtr point = struct_({field("x", int32()), field("tag", utf8())});
  const Array points =
      testing::struct_of(point, 6,
                         {int32s({1, 2, 3, kNull, 5, 6}),
                          strings({"a", "b", kNull, "d", "long enough to matter", "f"})},
                         {true, true, false, true, true, true});
  const Array list_of_structs =
      testing::list_of(list(point), {0, 2, 2, 5, 6}, points, {true, false, true, true});
  expect_round_trip("list<struct>", list_of_structs);
  expect_round_trip("list<struct> slice", list_of_structs.slice(1, 3));
  expect_round_trip("list<struct> slice at end", list_of_structs.slice(3));

  const Array map_array =
      testing::make_string_list_array(list(utf8()), {{{"a", "b"}}, kNull, {{}}, {{kNull, "c"}}});
  expect_round_trip("list<utf8> slice", map_array.slice(1, 3));

  const Array views = testing::views({"short", kNull, "a string longer than twelve bytes",
                                      "another string that does not fit inline", "x"});
  const Array list_of_views = testing::list_of(list(utf8_view()), {0, 3, 5}, views);
  expect_round_trip("list<utf8_view>", list_of_views);
  expect_round_trip("list<utf8_view> slice", list_of_views.slice(1));

  const TypePtr inner = dictionary(int16(), utf8());
  const Array inner_dictionary =
      testing::dictionary_of(inner, {2, kNull, 0, 1, 1}, strings({"p", "q", "r"}));
  const TypePtr outer = dictionary(int8(), list(inner));
  const Array nested_dictionary = testing::dictionary_of(
      outer, {1, 0, kNull, 1, 2},
      testing::list_of(list(inner), {0, 2, 2, 5}, inner_dictionary, {true, false, true}));
  expect_round_trip("dictionary<list<dictionary>>", nested_dictionary);
  expect_round_trip("dictionary<list<dictionary>> slice", nested_dictionary.slice(2, 3));

  const TypePtr dense = dense_union({field("i", int32()), field("s", list(utf8()))}, {3, 9});
  const Array string_lists =
      testing::make_string_list_array(list(utf8()), {{{"a"}}, {{"b", "c"}}, kNull, {{"d"}}});
  const Array dense_array = testing::dense_union_of(
      dense, {9, 3, 3, 9, 9, 3, 9}, {1, 0, 1, 1, 2, 2, 3}, {int32s({10, kNull, 30}), string_lists});
  expect_round_trip("dense_union<int32, list<utf8>>", dense_array);
  for (int64_t offset = 0; offset < 7; ++offset) {
    for (int64_t length = 0; offset + length <= 7; ++length) {
      expect_round_trip("dense_union slice", dense_array.slice(offset, length));
    }
  }

  const TypePtr runs = run_end_encoded(int32(), point);
  const Array run_array = testing::run_end_encoded_of(runs, {2, 3, 7, 8, 12}, points.slice(1, 5));
  for (int64_t offset = 0; offset < 12; ++offset) {
    for (int64_t length = 0; offset + length <= 12; length += 3) {
      expect_round_trip("run_end_encoded<struct> slice", run_array.slice(offset, length));
    }
  }

  const Array list_views = testing::list_view_of(
      list_view(utf8()), {4, 0, 1, 7, 2}, {2, 0, 3, 100, 2},
      strings({"a", "b", "c", "d", "e", "f", "g"}), {true, true, true, false, true});
  expect_round_trip("list_view with a bogus null", list_views);
  expect_round_trip("list_view slice", list_views.slice(1, 3));
}

TEST(BodyRoundTrip, ExtensionAroundNestedStorage) {
  const TypePtr codes = dictionary(int8(), utf8());
  const TypePtr storage = struct_({field("k", codes), field("v", int64())});
  const Array array =
      testing::make_array(extension(storage, "example.pair"), 3, {nullptr},
                          {testing::dictionary_of(codes, {1, 0, 1}, testing::strings({"a", "b"})),
                           testing::int64s({1, kNull, 3})});
  expect_round_trip("extension<struct<dictionary>>", array);
  expect_round_trip("extension<struct<dictionary>> slice", array.slice(1));
}

/// `storage` typed as `type`, an extension type stored as `storage`'s type.
Array as_extension(const TypePtr& type, const Array& storage) {
  auto data = std::make_shared<ArrayData>(*storage.data());
  data->type = type;
  return Array(std::move(data));
}

TEST(BodyRoundTrip, ExtensionOverDictionary) {
  const TypePtr codes = dictionary(int8(), utf8());
  const TypePtr category = extension(codes, "example.category");
  const Array categories = as_extension(
      category,
      testing::dictionary_of(codes, {1, kNull, 0, 2, 1}, testing::strings({"a", "b", "c"})));
  expect_round_trip("extension<dictionary>", categories);
  expect_round_trip("extension<dictionary> slice", categories.slice(1, 3));
  const TypePtr pair = struct_({field("c", category), field("n", int32())});
  expect_round_trip("struct<extension<dictionary>>",
                    testing::struct_of(pair, 5, {categories, testing::int32s({1, 2, 3, 4, 5})},
                                       {true, true, false, true, true})
                        .slice(1));
  expect_round_trip("list<extension<dictionary>>",
                    testing::list_of(list(category), {0, 2, 2, 5}, categories));
  // An extension over a dictionary whose values hold another one.
  const TypePtr nested = extension(dictionary(int16(), list(category)), "example.lists");
  expect_round_trip(
      "extension<dictionary<list<extension<dictionary>>>>",
      as_extension(
          nested, testing::dictionary_of(dictionary(int16(), list(category)), {1, 0, kNull, 1},
                                         testing::list_of(list(category), {0, 3, 5}, categories))));
}

TEST(BodyEncoding, ExtensionOverDictionaryWritesOnlyIndices) {
  const TypePtr codes = dictionary(int16(), utf8());
  const Array array =
      as_extension(extension(codes, "example.category"),
                   testing::dictionary_of(codes, {1, 0, kNull}, testing::strings({"a", "b"})));
  const EncodedBody body = encode_body({array}, 3, {});
  ASSERT_EQ(body.header.nodes.size(), 1u);
  EXPECT_EQ(body.header.nodes[0].null_count, 1);
  ASSERT_EQ(body.header.buffers.size(), 2u);
  EXPECT_EQ(body.header.buffers[1].length, 6);
}

TEST(DictionaryNumbering, ExtensionsOverDictionariesCount) {
  const TypePtr codes = dictionary(int8(), utf8());
  const TypePtr category = extension(codes, "example.category");
  const Array categories =
      as_extension(category, testing::dictionary_of(codes, {0, 1}, testing::strings({"p", "q"})));
  const TypePtr wrapper = struct_({field("x", category)});
  const Array wrapped = testing::struct_of(wrapper, 2, {categories});
  const TypePtr holder_values = struct_({field("c", category)});
  const TypePtr holder_storage = dictionary(int16(), holder_values);
  const Array holder_dictionary = testing::struct_of(holder_values, 2, {categories});
  const Array holders =
      as_extension(extension(holder_storage, "example.holder"),
                   testing::dictionary_of(holder_storage, {1, 0}, holder_dictionary));
  const RecordBatch batch = batch_of({{"plain", testing::int32s({1, 2})},
                                      {"cat", categories},
                                      {"s", wrapped},
                                      {"holder", holders}});

  const std::vector<std::string> paths = dictionary_field_paths(*batch.schema());
  EXPECT_EQ(paths, (std::vector<std::string>{"cat", "s.x", "holder", "holder.c"}));
  ASSERT_EQ(dictionary_fields(*batch.schema()).size(), paths.size());

  const std::vector<UsedDictionary> used = used_dictionaries(batch.columns());
  ASSERT_EQ(used.size(), 4u);
  EXPECT_EQ(used[0].position, 0u);
  EXPECT_EQ(used[0].values.data(), categories.data()->dictionary);
  EXPECT_EQ(used[1].position, 1u);
  EXPECT_EQ(used[1].values.data(), categories.data()->dictionary);
  // The dictionary inside the holder's values comes before the holder's own.
  EXPECT_EQ(used[2].position, 3u);
  EXPECT_EQ(used[2].values.data(), categories.data()->dictionary);
  EXPECT_EQ(used[3].position, 2u);
  EXPECT_EQ(used[3].values.data(), holder_dictionary.data());

  const RecordBatch read = round_trip(batch);
  EXPECT_TRUE(read.equals(batch)) << read.to_string();
}

TEST(DictionaryNumbering, PathsAndUsedDictionariesFollowThePreOrder) {
  const TypePtr inner = dictionary(int16(), utf8());
  const TypePtr outer = dictionary(int8(), list(inner));
  const Array inner_values = testing::dictionary_of(inner, {0, 1}, testing::strings({"p", "q"}));
  const Array outer_array =
      testing::dictionary_of(outer, {0}, testing::list_of(list(inner), {0, 2}, inner_values));
  const Array plain =
      testing::dictionary_of(dictionary(int8(), int64()), {0}, testing::int64s({5}));
  const TypePtr pair = struct_({field("a", int32()), field("b", plain.type())});
  const Array pairs = testing::struct_of(pair, 1, {testing::int32s({1}), plain});
  const RecordBatch batch = batch_of({{"outer", outer_array}, {"pairs", pairs}});

  const std::vector<std::string> paths = dictionary_field_paths(*batch.schema());
  EXPECT_EQ(paths, (std::vector<std::string>{"outer", "outer.item", "pairs.b"}));
  ASSERT_EQ(dictionary_fields(*batch.schema()).size(), paths.size());

  const std::vector<UsedDictionary> used = used_dictionaries(batch.columns());
  ASSERT_EQ(used.size(), 3u);
  // The inner dictionary comes before the outer one, whose values refer to it.
  EXPECT_EQ(used[0].position, 1u);
  EXPECT_EQ(used[0].values.data(), inner_values.data()->dictionary);
  EXPECT_EQ(used[1].position, 0u);
  EXPECT_EQ(used[1].values.data(), outer_array.data()->dictionary);
  EXPECT_EQ(used[2].position, 2u);
  EXPECT_EQ(used[2].values.data(), plain.data()->dictionary);
}

// --- layout of what is written ------------------------------------------------------------

TEST(BodyEncoding, LeavesOutValidityWithoutNulls) {
  const EncodedBody body = encode_body({testing::int32s({1, 2, 3})}, 3, {});
  ASSERT_EQ(body.header.nodes.size(), 1u);
  EXPECT_EQ(body.header.nodes[0].length, 3);
  EXPECT_EQ(body.header.nodes[0].null_count, 0);
  ASSERT_EQ(body.header.buffers.size(), 2u);
  EXPECT_EQ(body.header.buffers[0].length, 0);
  EXPECT_EQ(body.header.buffers[1].length, 12);
  EXPECT_EQ(body.body_length, 16);
}

TEST(BodyEncoding, WritesOnlyTheSlicedBytes) {
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < 1000; ++i) {
    values.push_back(i % 7 == 0 ? std::nullopt : std::optional<int64_t>(i));
  }
  const Array ints = testing::int64s(values);
  const EncodedBody body = encode_body({ints.slice(16, 6)}, 6, {});
  // A byte-aligned bitmap window and the values are zero-copy slices of the array's buffers.
  EXPECT_EQ(body.header.nodes[0].null_count, 1);
  EXPECT_EQ(body.header.buffers[0].length, 1);
  EXPECT_EQ(body.buffers[0]->data(), ints.data()->buffers[0]->data() + 2);
  EXPECT_EQ(body.header.buffers[1].length, 48);
  EXPECT_EQ(body.buffers[1]->data(), ints.data()->buffers[1]->data() + int64_t{16} * 8);
  EXPECT_EQ(body.body_length, 56);

  // Strings: offsets rebased to start at 0, only the bytes used.
  const Array strings = testing::strings({"zero", "one", "two", "three", "four"});
  const EncodedBody string_body = encode_body({strings.slice(2, 2)}, 2, {});
  ASSERT_EQ(string_body.buffers.size(), 3u);
  const auto* offsets = string_body.buffers[1]->data_as<int32_t>();
  EXPECT_EQ(string_body.buffers[1]->size(), 12);
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[1], 3);
  EXPECT_EQ(offsets[2], 8);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(string_body.buffers[2]->data()),
                        static_cast<size_t>(string_body.buffers[2]->size())),
            "twothree");
}

TEST(BodyEncoding, ShiftsBitmapsOfUnalignedSlices) {
  const Array bools =
      testing::booleans({true, false, kNull, true, true, false, true, false, true, kNull, false});
  const Array slice = bools.slice(3, 7);
  const EncodedBody body = encode_body({slice}, 7, {});
  ASSERT_EQ(body.buffers.size(), 2u);
  EXPECT_EQ(body.header.nodes[0].null_count, 1);
  EXPECT_EQ(body.buffers[0]->size(), 1);
  EXPECT_EQ(body.buffers[1]->size(), 1);
  // Values true, true, false, true, false, true, null -> bits 0b?101011 with validity 0b0111111.
  EXPECT_EQ(body.buffers[0]->data()[0] & 0x7F, 0x3F);
  EXPECT_EQ(body.buffers[1]->data()[0] & 0x3F, 0x2B);
}

TEST(BodyEncoding, NullUnionAndRunEndEncodedHaveNoValidityBuffer) {
  const EncodedBody nulls = encode_body({testing::make_array(null(), 4, {nullptr})}, 4, {});
  ASSERT_EQ(nulls.header.nodes.size(), 1u);
  EXPECT_EQ(nulls.header.nodes[0].null_count, 4);
  EXPECT_TRUE(nulls.header.buffers.empty());
  EXPECT_EQ(nulls.body_length, 0);

  const TypePtr sparse = sparse_union({field("a", int32())});
  const EncodedBody unions =
      encode_body({testing::sparse_union_of(sparse, {0, 0}, {testing::int32s({1, kNull})})}, 2, {});
  ASSERT_EQ(unions.header.nodes.size(), 2u);
  // Type ids, then the child's validity and values.
  ASSERT_EQ(unions.header.buffers.size(), 3u);
  EXPECT_EQ(unions.header.buffers[0].length, 2);

  const Array runs = testing::run_end_encoded_of(run_end_encoded(int16(), int64()), {2, 5},
                                                 testing::int64s({7, 8}));
  const EncodedBody run_body = encode_body({runs}, 5, {});
  ASSERT_EQ(run_body.header.nodes.size(), 3u);
  EXPECT_EQ(run_body.header.buffers.size(), 4u);
}

TEST(BodyEncoding, RebasesRunEndsOfSlices) {
  const Array runs = testing::run_end_encoded_of(run_end_encoded(int32(), int64()), {2, 5, 9},
                                                 testing::int64s({1, kNull, 3}));
  const EncodedBody body = encode_body({runs.slice(3, 4)}, 4, {});
  ASSERT_EQ(body.header.nodes.size(), 3u);
  EXPECT_EQ(body.header.nodes[1].length, 2);  // runs 1 and 2 only
  const auto* ends = body.buffers[1]->data_as<int32_t>();
  EXPECT_EQ(ends[0], 2);
  EXPECT_EQ(ends[1], 4);
  EXPECT_EQ(body.header.nodes[2].length, 2);
  EXPECT_EQ(body.header.nodes[2].null_count, 1);
}

TEST(BodyEncoding, RebasesDenseUnionOffsetsPerChild) {
  const TypePtr type = dense_union({field("i", int32()), field("s", utf8())});
  const Array array =
      testing::dense_union_of(type, {0, 1, 0, 1, 0}, {0, 0, 1, 1, 2},
                              {testing::int32s({5, 6, 7}), testing::strings({"a", "b"})});
  const EncodedBody body = encode_body({array.slice(2, 3)}, 3, {});
  // Nodes: the union, then child "i" cut to values 1..2 and child "s" to value 1.
  ASSERT_EQ(body.header.nodes.size(), 3u);
  EXPECT_EQ(body.header.nodes[1].length, 2);
  EXPECT_EQ(body.header.nodes[2].length, 1);
  const auto* offsets = body.buffers[1]->data_as<int32_t>();
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[1], 0);
  EXPECT_EQ(offsets[2], 1);
}

TEST(BodyEncoding, CountsVariadicBuffersOfViews) {
  const Array views = testing::views(
      {"short", "a string longer than twelve bytes", "and another string past twelve"}, utf8_view(),
      40);
  const int64_t data_buffers = BinaryViewArray(views).num_data_buffers();
  ASSERT_GE(data_buffers, 2);
  const EncodedBody body = encode_body({views.slice(1)}, 2, {});
  ASSERT_EQ(body.header.variadic_buffer_counts.size(), 1u);
  EXPECT_EQ(body.header.variadic_buffer_counts[0], data_buffers);
  EXPECT_EQ(static_cast<int64_t>(body.header.buffers.size()), 2 + data_buffers);
  EXPECT_EQ(body.header.buffers[1].length, 32);
}

TEST(BodyEncoding, DictionaryColumnsWriteOnlyIndices) {
  const Array array = testing::dictionary_of(dictionary(int16(), utf8()), {1, 0, kNull},
                                             testing::strings({"a", "b"}));
  const EncodedBody body = encode_body({array}, 3, {});
  ASSERT_EQ(body.header.nodes.size(), 1u);
  ASSERT_EQ(body.header.buffers.size(), 2u);
  EXPECT_EQ(body.header.buffers[1].length, 6);
}

TEST(BodyEncoding, RefusesColumnsOfTheWrongLength) {
  EXPECT_THAT(error_message<InvalidArgument>([] {
                encode_body({testing::int32s({1, 2})}, 3, {});
              }),
              HasSubstr("column 0 has 2 values, expected 3"));
}

TEST(BodyEncoding, RefusesMalformedArrays) {
  const Array broken =
      testing::make_array(int64(), 10, {nullptr, testing::buffer_of<int64_t>({1})});
  EXPECT_THAT(error_message<InvalidArgument>([&] { encode_body({broken}, 10, {}); }),
              HasSubstr("column 0 cannot be written"));
}

// --- compression ------------------------------------------------------------------------

TEST(BodyCompression, EverySampleArrayWithEveryCodec) {
  for (const Compression compression : {Compression::kLz4Frame, Compression::kZstd}) {
    WriteOptions options;
    options.compression = compression;
    for (const auto& [name, sample] : testing::sample_arrays()) {
      SCOPED_TRACE(name + " " + std::string(compression_name(compression)));
      const RecordBatch batch = batch_of({{"column", repeated(sample, 40).slice(3)}});
      const EncodedBatch encoded = encode_batch(batch, options);
      EXPECT_EQ(encoded.batch.header.compression, compression);
      EXPECT_TRUE(decode_batch(batch.schema(), encoded).equals(batch));
    }
  }
}

int64_t prefix_of(const Buffer& buffer) {
  int64_t prefix;
  std::memcpy(&prefix, buffer.data(), sizeof(prefix));
  return prefix;
}

TEST(BodyCompression, StoresIncompressibleBuffersRawAndEmptyOnesEmpty) {
  std::vector<std::optional<int64_t>> noise;
  uint64_t state = 88172645463325252ULL;
  for (int i = 0; i < 64; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    noise.push_back(static_cast<int64_t>(state));
  }
  std::vector<std::optional<int64_t>> zeros(4096, int64_t{0});
  WriteOptions options;
  options.compression = Compression::kZstd;
  const EncodedBody body =
      encode_body({testing::int64s(noise), testing::int64s(zeros).slice(0, 64)}, 64, options);
  ASSERT_EQ(body.buffers.size(), 4u);
  // No nulls: the validity buffers stay empty, without a length prefix.
  EXPECT_EQ(body.buffers[0]->size(), 0);
  EXPECT_EQ(body.buffers[2]->size(), 0);
  // Random values do not shrink: stored as they are after the -1 prefix.
  ASSERT_EQ(body.buffers[1]->size(), 8 + 64 * 8);
  EXPECT_EQ(prefix_of(*body.buffers[1]), -1);
  // Zeros do.
  EXPECT_LT(body.buffers[3]->size(), 64 * 8);
  EXPECT_EQ(prefix_of(*body.buffers[3]), 64 * 8);

  const RecordBatch batch =
      batch_of({{"noise", testing::int64s(noise)}, {"zeros", testing::int64s(zeros).slice(0, 64)}});
  const RecordBatch read = decode_record_batch(batch.schema(), body.header, assemble(body),
                                               DictionaryMemo({}), {}, "record batch");
  EXPECT_TRUE(read.equals(batch));
}

TEST(BodyCompression, RefusesBadPrefixesAndFrames) {
  const Array ints = testing::int64s(std::vector<std::optional<int64_t>>(512, int64_t{7}));
  const SchemaPtr ints_schema = batch_of({{"i", ints}}).schema();
  WriteOptions options;
  options.compression = Compression::kLz4Frame;
  const EncodedBody body = encode_body({ints}, 512, options);
  ASSERT_EQ(prefix_of(*body.buffers[1]), 512 * 8);
  const auto decode_error = [&](const std::shared_ptr<const Buffer>& values,
                                const ReadOptions& read_options) {
    EncodedBody changed = body;
    changed.buffers[1] = values;
    changed.header.buffers[1].length = values->size();
    return error_message<FormatError>([&] {
      decode_record_batch(ints_schema, changed.header, assemble(changed), DictionaryMemo({}),
                          read_options, "message 1");
    });
  };
  const auto with_prefix = [&](int64_t prefix) {
    BufferBuilder bytes;
    bytes.append(body.buffers[1]->data(), body.buffers[1]->size());
    std::memcpy(bytes.mutable_data(), &prefix, sizeof(prefix));
    return std::shared_ptr<const Buffer>(bytes.finish());
  };
  EXPECT_THAT(decode_error(Buffer::copy_of("1234", 4), {}),
              HasSubstr("message 1: field 'i': buffer 1 (values): compressed buffer has 4 bytes, "
                        "fewer than its 8-byte length prefix"));
  EXPECT_THAT(decode_error(with_prefix(-2), {}),
              HasSubstr("claimed uncompressed length -2 is negative"));
  EXPECT_THAT(decode_error(with_prefix(int64_t{1} << 40), {}),
              HasSubstr("claimed uncompressed length 1099511627776 is more than any codec"));
  ReadOptions small;
  small.max_decompressed_size = 1000;
  EXPECT_THAT(decode_error(body.buffers[1], small),
              HasSubstr("claimed uncompressed length 4096 is negative or larger than the limit "
                        "of 1000 bytes"));
  EXPECT_THAT(decode_error(with_prefix(4095), {}), HasSubstr("field 'i': buffer 1 (values): "));
  BufferBuilder garbage;
  garbage.append(body.buffers[1]->data(), 8);
  garbage.append_fill(32, 0xAB);
  EXPECT_THAT(decode_error(garbage.finish(), {}), HasSubstr("field 'i': buffer 1 (values): "));
}

// --- zero copy and alignment --------------------------------------------------------------

bool points_into(const Buffer& buffer, const Buffer& body) {
  return buffer.data() >= body.data() && buffer.data() + buffer.size() <= body.data() + body.size();
}

TEST(BodyDecoding, BuffersAreSlicesOfTheBody) {
  const Array strings = testing::strings({"a", kNull, "bcd"});
  const EncodedMessage encoded = encode({strings}, 3);
  const DictionaryMemo memo({});
  const RecordBatch batch = decode_record_batch(batch_of({{"s", strings}}).schema(), encoded.header,
                                                encoded.body, memo, {}, "record batch");
  const ArrayData& data = *batch.column(0).data();
  for (const auto& buffer : data.buffers) {
    ASSERT_NE(buffer, nullptr);
    EXPECT_TRUE(points_into(*buffer, *encoded.body));
  }
}

TEST(BodyDecoding, CopiesMisalignedBuffers) {
  const Array ints = testing::int64s({1, kNull, 3});
  const EncodedMessage encoded = encode({ints}, 3);
  // The same body one byte past an aligned address.
  BufferBuilder shifted;
  shifted.append("x", 1);
  shifted.append(encoded.body->data(), encoded.body->size());
  const std::shared_ptr<Buffer> whole = shifted.finish();
  const std::shared_ptr<Buffer> body = Buffer::slice(whole, 1, encoded.body->size());
  const DictionaryMemo memo({});
  const RecordBatch batch = decode_record_batch(batch_of({{"i", ints}}).schema(), encoded.header,
                                                body, memo, {}, "record batch");
  const ArrayData& data = *batch.column(0).data();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data.buffers[1]->data()) % 8, 0u);
  EXPECT_FALSE(points_into(*data.buffers[1], *body));
  // Bitmaps need no alignment and stay zero-copy.
  EXPECT_TRUE(points_into(*data.buffers[0], *body));
  EXPECT_TRUE(batch.column(0).equals(ints));
}

// --- dictionaries -------------------------------------------------------------------------

TEST(DictionaryMemo, SetsAppendsAndReportsUnknownIds) {
  const TypePtr type = dictionary(int8(), utf8());
  DictionaryMemo memo({{7, std::static_pointer_cast<const DictionaryType>(type)}});
  EXPECT_EQ(memo.index_of(7), 0);
  EXPECT_FALSE(memo.has(7));
  EXPECT_THAT(error_message<FormatError>([&] { memo.get(7); }), HasSubstr("not been read"));
  EXPECT_THAT(error_message<FormatError>([&] { memo.index_of(3); }),
              HasSubstr("dictionary id 3 is not in the schema (ids: 7)"));
  EXPECT_THAT(error_message<FormatError>(
                  [&] { memo.append(7, testing::strings({"z"}), default_allocator()); }),
              HasSubstr("delta for dictionary 7 before any dictionary"));
  memo.set(7, testing::strings({"a", "b"}));
  memo.append(7, testing::strings({"c"}), default_allocator());
  EXPECT_TRUE(memo.get(7).equals(testing::strings({"a", "b", "c"})));
  memo.set(7, testing::strings({"x"}));
  EXPECT_TRUE(memo.get(7).equals(testing::strings({"x"})));
}

TEST(DictionaryBatches, DeltasAppendAndReplacementsReplace) {
  const TypePtr type = dictionary(int8(), utf8());
  const SchemaPtr batch_schema = schema({field("d", type)});
  DictionaryMemo memo(dictionary_fields(*batch_schema));
  const auto send = [&memo](const Array& values, bool delta) {
    const EncodedMessage message = encode({values}, values.length());
    read_dictionary_batch({0, delta, message.header}, message.body, memo, {}, "dictionary batch");
  };
  send(testing::strings({"a", "b"}), false);
  send(testing::strings({"c"}), true);
  EXPECT_TRUE(memo.get(0).equals(testing::strings({"a", "b", "c"})));

  const Array indices_only =
      testing::dictionary_of(type, {2, 0, kNull}, testing::strings({"a", "b", "c"}));
  const EncodedMessage batch = encode({indices_only}, 3);
  const RecordBatch read =
      decode_record_batch(batch_schema, batch.header, batch.body, memo, {}, "record batch");
  EXPECT_TRUE(read.column(0).equals(indices_only));

  send(testing::strings({"x", "y", "z"}), false);
  const RecordBatch replaced =
      decode_record_batch(batch_schema, batch.header, batch.body, memo, {}, "record batch");
  EXPECT_TRUE(replaced.column(0).equals(
      testing::dictionary_of(type, {2, 0, kNull}, testing::strings({"x", "y", "z"}))));
}

TEST(DictionaryBatches, RefuseUnknownIdsAndEarlyDeltas) {
  const TypePtr type = dictionary(int8(), utf8());
  const SchemaPtr batch_schema = schema({field("d", type)});
  DictionaryMemo memo(dictionary_fields(*batch_schema));
  const EncodedMessage values = encode({testing::strings({"a"})}, 1);
  EXPECT_THAT(error_message<FormatError>([&] {
                read_dictionary_batch({5, false, values.header}, values.body, memo, {},
                                      "message 1 (dictionary batch)");
              }),
              HasSubstr("message 1 (dictionary batch): dictionary id 5 is not in the schema"));
  EXPECT_THAT(error_message<FormatError>([&] {
                read_dictionary_batch({0, true, values.header}, values.body, memo, {},
                                      "message 1 (dictionary batch)");
              }),
              HasSubstr("delta for dictionary 0 before any dictionary"));
}

TEST(DictionaryBatches, RecordBatchBeforeItsDictionaryIsRefused) {
  const Array array =
      testing::dictionary_of(dictionary(int8(), utf8()), {0}, testing::strings({"a"}));
  const RecordBatch batch = batch_of({{"codes", array}});
  const DictionaryMemo memo(dictionary_fields(*batch.schema()));
  const EncodedMessage encoded = encode({array}, 1);
  EXPECT_THAT(error_message<FormatError>([&] {
                decode_record_batch(batch.schema(), encoded.header, encoded.body, memo, {},
                                    "message 1 (record batch)");
              }),
              HasSubstr("message 1 (record batch): field 'codes': dictionary 0 has not been read"));
}

TEST(DictionaryBatches, NestedDictionaryNeedsItsInnerDictionaryFirst) {
  const TypePtr inner = dictionary(int8(), utf8());
  const TypePtr outer = dictionary(int8(), list(inner));
  const SchemaPtr batch_schema = schema({field("d", outer)});
  DictionaryMemo memo(dictionary_fields(*batch_schema));
  ASSERT_EQ(memo.fields().size(), 2u);
  const Array outer_values = testing::list_of(
      list(inner), {0, 1}, testing::dictionary_of(inner, {0}, testing::strings({"a"})));
  const EncodedMessage message = encode({outer_values}, 1);
  EXPECT_THAT(error_message<FormatError>([&] {
                read_dictionary_batch({0, false, message.header}, message.body, memo, {},
                                      "dictionary batch");
              }),
              HasSubstr("field 'dictionary 0.item': dictionary 1 has not been read"));
}

// --- malformed headers --------------------------------------------------------------------

class MalformedBody : public ::testing::Test {
 protected:
  void SetUp() override {
    // A struct of a string list and an int, with nulls: nodes struct, list, utf8, int32.
    const Array lists = testing::make_string_list_array(list(utf8()), {{{"a", "bc"}}, kNull});
    const TypePtr type = struct_({field("l", lists.type()), field("i", int32())});
    array_ = testing::struct_of(type, 2, {lists, testing::int32s({kNull, 7})}, {true, false});
    schema_ = batch_of({{"s", array_}}).schema();
    encoded_ = encode({array_}, 2);
  }

  /// The FormatError message of decoding `header` with the body.
  std::string decode_error(const RecordBatchHeader& header, bool full = true) {
    ReadOptions options;
    options.validate_full = full;
    return error_message<FormatError>(
        [&] { decode_record_batch(schema_, header, encoded_.body, memo_, options, "message 2"); });
  }

  Array array_;
  SchemaPtr schema_;
  EncodedMessage encoded_;
  DictionaryMemo memo_{{}};
};

TEST_F(MalformedBody, TheUnchangedHeaderDecodes) {
  const RecordBatch batch =
      decode_record_batch(schema_, encoded_.header, encoded_.body, memo_, {}, "message 2");
  EXPECT_TRUE(batch.column(0).equals(array_));
}

TEST_F(MalformedBody, WrongNodeCounts) {
  RecordBatchHeader missing = encoded_.header;
  missing.nodes.pop_back();
  EXPECT_THAT(decode_error(missing),
              HasSubstr("message 2: field 's.i': needs field node 3 but the header has only 3"));
  RecordBatchHeader extra = encoded_.header;
  extra.nodes.push_back({1, 0});
  EXPECT_THAT(decode_error(extra),
              HasSubstr("message 2: the header has 5 field nodes, the schema needs 4"));
}

TEST_F(MalformedBody, WrongBufferCounts) {
  RecordBatchHeader missing = encoded_.header;
  missing.buffers.pop_back();
  EXPECT_THAT(decode_error(missing),
              HasSubstr("field 's.i': needs buffer 7 (values) but the header has only 7"));
  RecordBatchHeader extra = encoded_.header;
  extra.buffers.push_back({0, 0});
  EXPECT_THAT(decode_error(extra), HasSubstr("the header has 9 buffers, the schema needs 8"));
}

TEST_F(MalformedBody, BufferRangesOutsideTheBody) {
  const int64_t size = encoded_.body->size();
  for (const BufferRange range :
       {BufferRange{size - 4, 8}, BufferRange{-8, 8}, BufferRange{0, -1},
        BufferRange{std::numeric_limits<int64_t>::max() - 2, 8},
        BufferRange{8, std::numeric_limits<int64_t>::max()}, BufferRange{size + 8, 0}}) {
    RecordBatchHeader header = encoded_.header;
    header.buffers[4] = range;
    EXPECT_THAT(decode_error(header),
                HasSubstr("field 's.l.item': buffer 4 (offsets): range [" +
                          std::to_string(range.offset) + ", +" + std::to_string(range.length) +
                          ") is outside the " + std::to_string(size) + "-byte body"));
  }
}

TEST_F(MalformedBody, BadNodeLengthsAndNullCounts) {
  for (const FieldNode node : {FieldNode{-1, 0}, FieldNode{2, -1}, FieldNode{2, 3}}) {
    RecordBatchHeader header = encoded_.header;
    header.nodes[3] = node;
    EXPECT_THAT(decode_error(header), HasSubstr("field 's.i': field node 3 has length"));
  }
}

TEST_F(MalformedBody, HugeClaimedLengths) {
  for (const size_t node : {0u, 1u, 2u, 3u}) {
    for (const int64_t length : {int64_t{1} << 40, std::numeric_limits<int64_t>::max()}) {
      RecordBatchHeader header = encoded_.header;
      header.nodes[node].length = length;
      EXPECT_FALSE(decode_error(header, false).empty()) << "node " << node;
    }
  }
  RecordBatchHeader header = encoded_.header;
  header.length = int64_t{1} << 50;
  EXPECT_THAT(decode_error(header), HasSubstr("column has 2 values but the batch has"));
  header.length = -1;
  EXPECT_THAT(decode_error(header), HasSubstr("message 2: batch length -1 is negative"));
}

TEST_F(MalformedBody, NullCountWithoutBitmap) {
  RecordBatchHeader header = encoded_.header;
  header.nodes[3].null_count = 1;
  header.buffers[6].length = 0;
  EXPECT_THAT(decode_error(header), HasSubstr("column 's'"));
}

TEST_F(MalformedBody, CorruptOffsetsAreCaughtByFullValidation) {
  BufferBuilder copy;
  copy.append(encoded_.body->data(), encoded_.body->size());
  // The list's second offset: point it backwards.
  const BufferRange offsets = encoded_.header.buffers[2];
  int32_t bad = -5;
  std::memcpy(copy.mutable_data() + offsets.offset + 4, &bad, sizeof(bad));
  const std::shared_ptr<Buffer> body = copy.finish();
  ReadOptions full;
  EXPECT_THAT(error_message<FormatError>([&] {
                decode_record_batch(schema_, encoded_.header, body, memo_, full, "message 2");
              }),
              HasSubstr("message 2: column 's'"));
}

TEST(MalformedViews, VariadicCounts) {
  const Array views = testing::views({"a string longer than twelve bytes", "x"}, utf8_view(), 64);
  const SchemaPtr views_schema = batch_of({{"v", views}}).schema();
  const EncodedMessage encoded = encode({views}, 2);
  const DictionaryMemo memo({});
  const auto decode_error = [&](const RecordBatchHeader& header) {
    return error_message<FormatError>(
        [&] { decode_record_batch(views_schema, header, encoded.body, memo, {}, "message 1"); });
  };
  RecordBatchHeader missing = encoded.header;
  missing.variadic_buffer_counts.clear();
  EXPECT_THAT(decode_error(missing),
              HasSubstr("field 'v': needs variadic buffer count 0 but the header has only 0"));
  for (const int64_t count : {int64_t{-1}, int64_t{2}, std::numeric_limits<int64_t>::max()}) {
    RecordBatchHeader header = encoded.header;
    header.variadic_buffer_counts[0] = count;
    EXPECT_THAT(decode_error(header), HasSubstr("variadic buffer count " + std::to_string(count)));
  }
  RecordBatchHeader extra = encoded.header;
  extra.variadic_buffer_counts.push_back(0);
  EXPECT_THAT(decode_error(extra), HasSubstr("1 view fields"));
}

TEST(MalformedBodies, EveryFieldNodeAndBufferOfEverySample) {
  // Shrinking, growing or moving any node or buffer of any sample gives a FormatError or a valid
  // batch, never a crash.
  for (const auto& [name, array] : testing::sample_arrays()) {
    SCOPED_TRACE(name);
    const RecordBatch batch = batch_of({{"c", array}});
    const EncodedBatch encoded = encode_batch(batch);
    const auto try_decode = [&](const RecordBatchHeader& header) {
      EncodedBatch changed = encoded;
      changed.batch.header = header;
      try {
        const RecordBatch read = decode_batch(batch.schema(), changed);
        read.validate_full();
      } catch (const FormatError&) {
      }
    };
    const RecordBatchHeader& original = encoded.batch.header;
    for (size_t i = 0; i < original.nodes.size(); ++i) {
      for (const int64_t delta : {int64_t{-1}, int64_t{1}, int64_t{1000}}) {
        RecordBatchHeader header = original;
        header.nodes[i].length += delta;
        try_decode(header);
        header = original;
        header.nodes[i].null_count += delta;
        try_decode(header);
      }
    }
    for (size_t i = 0; i < original.buffers.size(); ++i) {
      for (const int64_t delta : {int64_t{-8}, int64_t{-1}, int64_t{1}, int64_t{8}}) {
        RecordBatchHeader header = original;
        header.buffers[i].length += delta;
        try_decode(header);
        header = original;
        header.buffers[i].offset += delta;
        try_decode(header);
      }
    }
  }
}

/// Decodes `encoded` as `batch`'s schema, accepting a FormatError; a batch that decodes must
/// be fully valid and readable.
void decode_or_refuse(const RecordBatch& batch, const EncodedBatch& encoded) {
  std::optional<RecordBatch> read;
  try {
    read = decode_batch(batch.schema(), encoded);
  } catch (const FormatError&) {
    return;
  }
  EXPECT_NO_THROW(read->validate_full());
  // Whatever the values, printing and comparing them stay in bounds.
  EXPECT_FALSE(read->to_string().empty());
  static_cast<void>(read->equals(batch));
}

TEST(MalformedBodies, FlippedBodyBytes) {
  for (const auto& [name, array] : testing::sample_arrays()) {
    SCOPED_TRACE(name);
    const RecordBatch batch = batch_of({{"c", array}});
    const EncodedBatch encoded = encode_batch(batch);
    const Buffer& body = *encoded.batch.body;
    testing::for_each_flipped_byte(body, [&](std::shared_ptr<Buffer> flipped) {
      EncodedBatch changed = encoded;
      changed.batch.body = std::move(flipped);
      decode_or_refuse(batch, changed);
    });
  }
}

TEST(MalformedBodies, RandomHeaderValues) {
  std::mt19937_64 random(20240611);
  const std::vector<int64_t> interesting{0,
                                         1,
                                         2,
                                         3,
                                         7,
                                         8,
                                         9,
                                         16,
                                         64,
                                         1000,
                                         -1,
                                         -8,
                                         std::numeric_limits<int64_t>::max(),
                                         std::numeric_limits<int64_t>::min(),
                                         int64_t{1} << 31,
                                         int64_t{1} << 40};
  const auto pick = [&] { return interesting[random() % interesting.size()]; };
  for (const auto& [name, array] : testing::sample_arrays()) {
    SCOPED_TRACE(name);
    const RecordBatch batch = batch_of({{"c", array}});
    const EncodedBatch encoded = encode_batch(batch);
    for (int round = 0; round < 200; ++round) {
      EncodedBatch changed = encoded;
      RecordBatchHeader& header = changed.batch.header;
      const int changes = 1 + static_cast<int>(random() % 3);
      for (int change = 0; change < changes; ++change) {
        switch (random() % 6) {
          case 0:
            if (!header.nodes.empty()) {
              header.nodes[random() % header.nodes.size()].length = pick();
            }
            break;
          case 1:
            if (!header.nodes.empty()) {
              header.nodes[random() % header.nodes.size()].null_count = pick();
            }
            break;
          case 2:
            if (!header.buffers.empty()) {
              header.buffers[random() % header.buffers.size()].offset = pick();
            }
            break;
          case 3:
            if (!header.buffers.empty()) {
              header.buffers[random() % header.buffers.size()].length = pick();
            }
            break;
          case 4:
            if (!header.variadic_buffer_counts.empty()) {
              header.variadic_buffer_counts[0] = pick();
            }
            break;
          default:
            header.length = pick();
            break;
        }
      }
      decode_or_refuse(batch, changed);
    }
  }
}

}  // namespace
}  // namespace bowstring::ipc
