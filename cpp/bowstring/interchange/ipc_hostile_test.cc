// Hostile and costly inputs: what a reader must refuse, and work it must not repeat, however
// the input is shaped.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/interchange/body.h"
#include "bowstring/interchange/compression.h"
#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/interchange/message.h"
#include "bowstring/interchange/metadata.h"
#include "bowstring/memory/allocator.h"
#include "bowstring/table/table.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/ipc_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring::ipc {
namespace {

using testing::flatten;
using ::testing::HasSubstr;

/// A compressed buffer as a body stores it: the uncompressed length, then one frame.
std::string compressed_frame(Compression compression, const std::vector<uint8_t>& raw) {
  std::unique_ptr<Codec> codec = Codec::make(compression);
  std::vector<uint8_t> frame(
      static_cast<size_t>(codec->max_compressed_size(static_cast<int64_t>(raw.size()))));
  const int64_t size = codec->compress(raw.data(), static_cast<int64_t>(raw.size()), frame.data(),
                                       static_cast<int64_t>(frame.size()));
  const auto length = static_cast<int64_t>(raw.size());
  std::string stored(reinterpret_cast<const char*>(&length), sizeof(length));
  stored.append(reinterpret_cast<const char*>(frame.data()), static_cast<size_t>(size));
  return stored;
}

// --- decompression bombs --------------------------------------------------------------------

/// A header listing 64 buffers that all alias one frame of about 500 bytes inflating to 16 MiB:
/// every listed buffer would cost 16 MiB if decompressed, but the schema takes none of them.
TEST(HostileIpc, AliasedCompressedBuffersAreRefusedBeforeDecompressing) {
  const std::string frame = compressed_frame(Compression::kZstd, std::vector<uint8_t>(16 << 20));
  ASSERT_LT(frame.size(), 2048u);
  const std::shared_ptr<Buffer> body = testing::bytes_of(frame);
  RecordBatchHeader header;
  header.length = 1;
  header.nodes = {{1, 1}};
  header.compression = Compression::kZstd;
  for (int i = 0; i < 64; ++i) {
    header.buffers.push_back({0, static_cast<int64_t>(frame.size())});
  }
  const SchemaPtr nulls = schema({field("n", null())});
  const DictionaryMemo memo({});
  for (const int threads : {0, 1, 4}) {
    BudgetedAllocator budget(default_allocator(), 64 << 20, "bomb budget");
    ReadOptions options;
    options.allocator = &budget;
    options.decompression_threads = threads;
    try {
      decode_record_batch(nulls, header, body, memo, options, "message 1 (record batch)");
      FAIL() << "the aliased buffers were accepted";
    } catch (const FormatError& error) {
      EXPECT_THAT(error.what(), HasSubstr("the header has 64 buffers, the schema needs 0"));
    }
    EXPECT_EQ(budget.stats().peak_bytes, 0) << "threads " << threads;
  }
}

/// Buffers the schema takes may alias one frame: each is decompressed as the walk uses it.
TEST(HostileIpc, AliasedBuffersTheSchemaTakesAreDecompressedAsUsed) {
  std::vector<uint8_t> raw(4 << 20, 0);
  raw[0] = 1;
  const std::string frame = compressed_frame(Compression::kZstd, raw);
  const std::shared_ptr<Buffer> body = testing::bytes_of(frame);
  RecordBatchHeader header;
  header.length = 2;
  header.nodes = {{2, 1}};
  header.compression = Compression::kZstd;
  header.buffers = {{0, static_cast<int64_t>(frame.size())},
                    {0, static_cast<int64_t>(frame.size())}};
  const DictionaryMemo memo({});
  for (const int threads : {1, 4}) {
    BudgetedAllocator budget(default_allocator(), 64 << 20, "alias budget");
    ReadOptions options;
    options.allocator = &budget;
    options.decompression_threads = threads;
    const RecordBatch batch = decode_record_batch(schema({field("i", int8())}), header, body, memo,
                                                  options, "message 1 (record batch)");
    // Both buffers start with byte 1: validity slot 0 set, slot 1 null; value 1.
    EXPECT_EQ(batch.column(0).to_string(),
              testing::array_of<int8_t>(int8(), {1, std::nullopt}).to_string());
    EXPECT_LE(budget.stats().peak_bytes, 2 * ((4 << 20) + 64));
  }
}

/// Parallel decompression takes buffers stored in any order, and aliases, back to the walk.
TEST(HostileIpc, BuffersStoredOutOfOrderDecodeWithAnyThreads) {
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < 300'000; ++i) {
    values.push_back(i % 977);
  }
  const Array column = testing::array_of<int64_t>(int64(), values);
  const SchemaPtr longs = schema({field("a", int64()), field("b", int64())});
  WriteOptions write;
  write.compression = Compression::kZstd;
  const EncodedBody encoded = encode_body({column, column}, column.length(), write);
  ASSERT_EQ(encoded.buffers.size(), 4u);
  // Lay the buffers out last first, and let the second column's values alias the first's.
  std::string bytes;
  RecordBatchHeader header = encoded.header;
  for (size_t i = encoded.buffers.size(); i-- > 0;) {
    header.buffers[i] = {static_cast<int64_t>(bytes.size()), encoded.buffers[i]->size()};
    bytes.append(reinterpret_cast<const char*>(encoded.buffers[i]->data()),
                 static_cast<size_t>(encoded.buffers[i]->size()));
    bytes.resize((bytes.size() + 7) / 8 * 8);
  }
  header.buffers[3] = header.buffers[1];
  const std::shared_ptr<Buffer> body = testing::bytes_of(bytes);
  const DictionaryMemo memo({});
  for (const int threads : {1, 4}) {
    ReadOptions options;
    options.decompression_threads = threads;
    const RecordBatch batch =
        decode_record_batch(longs, header, body, memo, options, "message 1 (record batch)");
    EXPECT_TRUE(batch.column(0).equals(column));
    EXPECT_TRUE(batch.column(1).equals(column));
  }
}

// --- costs that must not grow with input shape ------------------------------------------------

/// A struct with a 1 MiB name and 20,000 children: paths are only spelled out for errors, so
/// decoding does not copy the long name once per child (20 GB per batch).
TEST(HostileIpc, WideStructWithLongNameDecodesWithoutCopyingItsName) {
  constexpr int kChildren = 20'000;
  FieldVector children;
  std::vector<Array> columns;
  for (int i = 0; i < kChildren; ++i) {
    std::string name = "child ";
    name += std::to_string(i);
    children.push_back(field(name, null()));
    columns.push_back(testing::make_array(null(), 1, {nullptr}));
  }
  const TypePtr wide = struct_(children);
  const SchemaPtr long_named = schema({field(std::string(1 << 20, 'n'), wide)});
  const RecordBatch batch(long_named, 1, {testing::struct_of(wide, 1, columns)});
  auto sink = std::make_shared<BufferOutputStream>();
  StreamWriter writer(sink, long_named);
  writer.write(batch);
  writer.write(batch);
  writer.close();
  const Table table = read_stream(sink->finish());
  EXPECT_EQ(table.num_rows(), 2);
}

// --- dictionaries whose values hold dictionaries ---------------------------------------------

/// x: dictionary<int32, struct<b: dictionary<int8, utf8>>>, with `words` inner values and one
/// outer value per inner index.
class NestedDictionaries : public ::testing::Test {
 protected:
  const TypePtr inner_ = dictionary(int8(), utf8());
  const TypePtr values_type_ = struct_({field("b", inner_)});
  const TypePtr outer_ = dictionary(int32(), values_type_);
  const SchemaPtr schema_ = schema({field("x", outer_)});

  Array outer_values(int words, const std::vector<std::optional<int64_t>>& inner_indices) const {
    std::vector<std::optional<std::string>> strings;
    strings.reserve(words);
    for (int i = 0; i < words; ++i) {
      strings.push_back(std::string("w") + std::to_string(i));
    }
    const Array inner = testing::dictionary_of(inner_, inner_indices, testing::strings(strings));
    return testing::struct_of(values_type_, static_cast<int64_t>(inner_indices.size()), {inner});
  }

  /// A batch using every outer value once.
  RecordBatch batch(int words, const std::vector<std::optional<int64_t>>& inner_indices) const {
    std::vector<std::optional<int64_t>> indices;
    for (size_t i = 0; i < inner_indices.size(); ++i) {
      indices.push_back(static_cast<int64_t>(i));
    }
    return RecordBatch(
        schema_, static_cast<int64_t>(indices.size()),
        {testing::dictionary_of(outer_, indices, outer_values(words, inner_indices))});
  }
};

TEST_F(NestedDictionaries, StreamWriterReplacesInsteadOfSendingDeltas) {
  auto sink = std::make_shared<BufferOutputStream>();
  StreamWriter writer(sink, schema_);
  const RecordBatch first = batch(100, {0});
  const RecordBatch second = batch(120, {0, 100});
  writer.write(first);
  writer.write(second);
  writer.close();
  // The inner dictionary (plain strings) grows by a delta; the outer one is replaced.
  EXPECT_EQ(writer.stats().dictionary_deltas, 1);
  EXPECT_EQ(writer.stats().dictionary_replacements, 1);
  auto reader = StreamReader::open(std::make_shared<BufferInputStream>(sink->finish()));
  for (const RecordBatch* expected : {&first, &second}) {
    const std::optional<RecordBatch> read = reader->next();
    ASSERT_TRUE(read.has_value());
    EXPECT_TRUE(read->column(0).equals(expected->column(0)));
  }
}

TEST_F(NestedDictionaries, FileWriterRefusesToExtendThemNamingTheField) {
  auto sink = std::make_shared<BufferOutputStream>();
  FileWriter writer(sink, schema_);
  writer.write(batch(100, {0}));
  EXPECT_THAT(
      testing::error_message<InvalidArgument>([&] {
        writer.write(batch(120, {0, 100}));
      }),
      HasSubstr("the dictionary of field 'x' changed and holds dictionaries in its values"));
}

TEST_F(NestedDictionaries, ReaderRefusesDeltas) {
  const std::vector<DictionaryField> dictionaries = number_dictionaries(*schema_);
  ASSERT_EQ(dictionaries.size(), 2u);
  auto sink = std::make_shared<BufferOutputStream>();
  write_message(*sink, *encode_schema_message({schema_, dictionaries}), EncodedBody{});
  const auto send = [&](int64_t id, const Array& values, bool delta) {
    const EncodedBody body = encode_body({values}, values.length(), {});
    write_message(
        *sink, *encode_dictionary_batch_message({id, delta, body.header}, body.body_length), body);
  };
  send(dictionaries[1].id, testing::strings({"a", "b"}), false);
  send(dictionaries[0].id, outer_values(2, {0}), false);
  send(dictionaries[0].id, outer_values(2, {1}), true);
  write_end_of_stream(*sink);
  auto reader = StreamReader::open(std::make_shared<BufferInputStream>(sink->finish()));
  EXPECT_THAT(testing::error_message<FormatError>([&] { reader->next(); }),
              HasSubstr("message 3 (dictionary batch): delta for dictionary " +
                        std::to_string(dictionaries[0].id) +
                        ", whose values hold dictionary-encoded fields"));
}

// --- many small deltas --------------------------------------------------------------------------

/// Deltas wait until the dictionary is used and are then joined in one concatenation: 200
/// one-value deltas to a dictionary of 10,000 strings copy it once, not 200 times.
TEST(HostileIpc, DeltasAreJoinedOnceWhenTheDictionaryIsUsed) {
  const TypePtr type = dictionary(int32(), utf8());
  // Declared first: the joined dictionary the memo holds is freed into it.
  BudgetedAllocator budget(default_allocator(), 1 << 30, "delta budget");
  DictionaryMemo memo({{5, std::static_pointer_cast<const DictionaryType>(type)}});
  std::vector<std::optional<std::string>> words;
  words.reserve(10'000);
  for (int i = 0; i < 10'000; ++i) {
    words.push_back("word number " + std::to_string(i));
  }
  memo.set(5, testing::strings(words));
  for (int i = 0; i < 200; ++i) {
    words.push_back("delta " + std::to_string(i));
    memo.append(5, testing::strings({words.back()}), &budget);
  }
  EXPECT_EQ(budget.stats().total_allocated, 0);
  EXPECT_TRUE(memo.get(5).equals(testing::strings(words)));
  const int64_t joined = budget.stats().total_allocated;
  EXPECT_GT(joined, 0);
  EXPECT_LT(joined, 512 * 1024);
  memo.get(5);
  EXPECT_EQ(budget.stats().total_allocated, joined);
}

// --- dictionaries are validated once ---------------------------------------------------------

/// A dictionary is validated when its dictionary batch is read, and record batches check only
/// their indices against it. Shown with a malformed dictionary that a trusting read let in:
/// record batches validated in full accept it (they do not look at its values again), while
/// a validating read refuses it at its own message.
TEST(HostileIpc, RecordBatchesCheckOnlyIndicesAgainstTheirDictionaries) {
  const TypePtr type = dictionary(int32(), utf8());
  const SchemaPtr words = schema({field("d", type)});
  const Array malformed = testing::strings({"ok", std::string("\xff", 1)});
  const EncodedBody dictionary_body = encode_body({malformed}, malformed.length(), {});
  const std::vector<DictionaryField> fields = number_dictionaries(*words);
  const DictionaryBatchHeader dictionary_header{fields[0].id, false, dictionary_body.header};
  {
    DictionaryMemo strict(fields);
    EXPECT_THAT(testing::error_message<FormatError>([&] {
                  read_dictionary_batch(dictionary_header, flatten(dictionary_body), strict, {},
                                        "message 1 (dictionary batch)");
                }),
                HasSubstr("message 1 (dictionary batch): dictionary " +
                          std::to_string(fields[0].id) + ": "));
  }
  DictionaryMemo memo(fields);
  ReadOptions trusting;
  trusting.validate_full = false;
  read_dictionary_batch(dictionary_header, flatten(dictionary_body), memo, trusting,
                        "message 1 (dictionary batch)");
  const ReadOptions full;
  ASSERT_TRUE(full.validate_full);
  const auto decode = [&](std::optional<int64_t> index) {
    const Array column = testing::dictionary_of(type, {index}, malformed);
    const EncodedBody body = encode_body({column}, 1, {});
    return decode_record_batch(words, body.header, flatten(body), memo, full,
                               "message 2 (record batch)");
  };
  EXPECT_EQ(decode(0).num_rows(), 1);
  EXPECT_THAT(testing::error_message<FormatError>([&] { decode(2); }),
              HasSubstr("outside the dictionary of length 2"));
}

}  // namespace
}  // namespace bowstring::ipc
