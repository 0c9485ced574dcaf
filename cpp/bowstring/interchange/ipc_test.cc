#include "bowstring/interchange/ipc.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bowstring/array/concatenate.h"
#include "bowstring/interchange/body.h"
#include "bowstring/interchange/message.h"
#include "bowstring/interchange/metadata.h"
#include "bowstring/memory/buffer_builder.h"
#include "bowstring/table/table.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/ipc_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring::ipc {
namespace {

using testing::batch_of;
using testing::error_message;
using ::testing::HasSubstr;

const std::nullopt_t kNull = std::nullopt;

constexpr Compression kCompressions[] = {Compression::kNone, Compression::kLz4Frame,
                                         Compression::kZstd};

WriteOptions compressed(Compression compression) {
  WriteOptions options;
  options.compression = compression;
  return options;
}

Table table_of(const std::vector<RecordBatch>& batches) {
  return Table::from_batches(batches[0].schema(), batches);
}

/// The bytes `Writer` (StreamWriter or FileWriter) produces for `batches`.
template <typename Writer>
std::shared_ptr<Buffer> written_by(const std::vector<RecordBatch>& batches,
                                   const WriteOptions& options) {
  auto sink = std::make_shared<BufferOutputStream>();
  Writer writer(sink, batches[0].schema(), options);
  for (const RecordBatch& batch : batches) {
    writer.write(batch);
  }
  writer.close();
  return sink->finish();
}

std::shared_ptr<Buffer> stream_of(const std::vector<RecordBatch>& batches,
                                  const WriteOptions& options = {}) {
  return written_by<StreamWriter>(batches, options);
}

std::shared_ptr<Buffer> file_of(const std::vector<RecordBatch>& batches,
                                const WriteOptions& options = {}) {
  return written_by<FileWriter>(batches, options);
}

std::vector<RecordBatch> read_stream_batches(const std::shared_ptr<Buffer>& data,
                                             const ReadOptions& options = {}) {
  std::unique_ptr<StreamReader> reader =
      StreamReader::open(std::make_shared<BufferInputStream>(data), options);
  std::vector<RecordBatch> batches;
  while (std::optional<RecordBatch> batch = reader->next()) {
    batches.push_back(std::move(*batch));
  }
  return batches;
}

std::vector<RecordBatch> read_file_batches(const std::shared_ptr<Buffer>& data,
                                           const ReadOptions& options = {}) {
  std::unique_ptr<FileReader> reader =
      FileReader::open(std::make_shared<BufferSource>(data), options);
  std::vector<RecordBatch> batches;
  batches.reserve(static_cast<size_t>(reader->num_record_batches()));
  for (int i = 0; i < reader->num_record_batches(); ++i) {
    batches.push_back(reader->record_batch(i));
  }
  return batches;
}

void expect_same_batches(const std::vector<RecordBatch>& read,
                         const std::vector<RecordBatch>& written) {
  ASSERT_EQ(read.size(), written.size());
  for (size_t i = 0; i < read.size(); ++i) {
    EXPECT_TRUE(read[i].schema()->equals(*written[i].schema(), true)) << "batch " << i;
    EXPECT_TRUE(read[i].equals(written[i])) << "batch " << i << "\nread:\n"
                                            << read[i].to_string() << "\nwritten:\n"
                                            << written[i].to_string();
  }
}

/// Writes `batches` as a stream and as a file with every compression, reads them back and
/// checks the batches are the same.
void expect_round_trips(const std::vector<RecordBatch>& batches) {
  for (const Compression compression : kCompressions) {
    SCOPED_TRACE(std::string(compression_name(compression)));
    expect_same_batches(read_stream_batches(stream_of(batches, compressed(compression))), batches);
    expect_same_batches(read_file_batches(file_of(batches, compressed(compression))), batches);
  }
}

// --- round trips --------------------------------------------------------------------------

TEST(IpcRoundTrip, EverySampleArray) {
  for (const auto& [name, array] : testing::sample_arrays()) {
    SCOPED_TRACE(name);
    const RecordBatch batch = batch_of({{"values", array},
                                        {"row", testing::int32s(std::vector<std::optional<int32_t>>(
                                                    static_cast<size_t>(array.length()), 1))}});
    expect_round_trips({batch, batch.slice(1), batch.slice(0, 0)});
  }
}

TEST(IpcRoundTrip, SlicesAtOddOffsets) {
  for (const auto& [name, sample] : testing::sample_arrays()) {
    SCOPED_TRACE(name);
    std::vector<Array> parts(8, sample);
    const Array array = concatenate(parts);
    const RecordBatch batch = batch_of({{"values", array}});
    expect_round_trips({batch.slice(3, array.length() / 2), batch.slice(9, 1), batch.slice(1)});
  }
}

TEST(IpcRoundTrip, AllSamplesInOneBatchWithSeveralChunks) {
  std::vector<std::pair<std::string, Array>> columns;
  for (const auto& [name, sample] : testing::sample_arrays()) {
    std::vector<Array> parts(6, sample);
    const Array array = concatenate(parts);
    columns.emplace_back(name, array.slice(0, 12));
  }
  const RecordBatch batch = batch_of(columns);
  const Table table = table_of({batch.slice(0, 5), batch.slice(5, 1), batch.slice(6)});
  for (const Compression compression : kCompressions) {
    SCOPED_TRACE(std::string(compression_name(compression)));
    const Table from_stream = read_stream(write_stream(table, compressed(compression)));
    EXPECT_TRUE(from_stream.equals(table));
    EXPECT_EQ(from_stream.column(0).num_chunks(), 3);
    const Table from_file = read_file(write_file(table, compressed(compression)));
    EXPECT_TRUE(from_file.equals(table));
    EXPECT_EQ(from_file.column(0).num_chunks(), 3);
  }
}

TEST(IpcRoundTrip, EmptyStreamsAndFiles) {
  const SchemaPtr empty_schema = schema({field("a", int32()), field("b", utf8())});
  const Table empty(empty_schema, 0, {ChunkedArray(int32(), {}), ChunkedArray(utf8(), {})});
  const Table from_stream = read_stream(write_stream(empty));
  EXPECT_EQ(from_stream.num_rows(), 0);
  EXPECT_TRUE(from_stream.schema()->equals(*empty_schema));
  const Table from_file = read_file(write_file(empty));
  EXPECT_EQ(from_file.num_rows(), 0);
  EXPECT_TRUE(from_file.schema()->equals(*empty_schema));

  const RecordBatch zero = batch_of({{"a", testing::int32s({})}, {"b", testing::strings({})}});
  expect_round_trips({zero, zero});
}

TEST(IpcRoundTrip, CustomMetadataOnSchemaFieldsAndFooter) {
  const FieldPtr annotated =
      field("a", list(field("item", int64(), true, {{"inner", "yes"}})), false, {{"k", "v"}});
  const SchemaPtr with_metadata =
      schema({annotated, field("b", utf8())}, {{"origin", "test"}, {"empty", ""}});
  const RecordBatch batch(with_metadata, 2,
                          {testing::list_of(list(field("item", int64(), true, {{"inner", "yes"}})),
                                            {0, 1, 3}, testing::int64s({1, 2, 3})),
                           testing::strings({"x", "y"})});
  expect_round_trips({batch});

  auto sink = std::make_shared<BufferOutputStream>();
  FileWriter writer(sink, with_metadata, {}, {{"footer", "note"}});
  writer.write(batch);
  writer.close();
  const std::unique_ptr<FileReader> reader =
      FileReader::open(std::make_shared<BufferSource>(sink->finish()));
  EXPECT_EQ(reader->footer_metadata(), (Metadata{{"footer", "note"}}));
  EXPECT_TRUE(reader->schema()->equals(*with_metadata, true));
}

TEST(IpcRoundTrip, BatchesMayCarryOtherSchemaMetadata) {
  const RecordBatch plain = batch_of({{"a", testing::int32s({1, 2})}});
  const RecordBatch annotated = batch_of({{"a", testing::int32s({3})}}, {{"note", "x"}});
  const std::vector<RecordBatch> read = read_stream_batches(stream_of({plain, annotated}));
  ASSERT_EQ(read.size(), 2u);
  EXPECT_TRUE(read[1].equals(annotated));
}

// --- dictionaries -------------------------------------------------------------------------

const TypePtr kCodes = dictionary(int8(), utf8());

RecordBatch codes_batch(const std::vector<std::optional<int64_t>>& indices,
                        const std::vector<std::optional<std::string>>& values) {
  return batch_of({{"codes", testing::dictionary_of(kCodes, indices, testing::strings(values))}});
}

TEST(IpcDictionaries, SameDictionaryIsSentOnce) {
  const RecordBatch first = codes_batch({0, 1, kNull}, {"a", "b"});
  const RecordBatch second =
      batch_of({{"codes", testing::dictionary_of(kCodes, {1, 1},
                                                 DictionaryArray(first.column(0)).dictionary())}});
  const RecordBatch equal_copy = codes_batch({0}, {"a", "b"});
  auto sink = std::make_shared<BufferOutputStream>();
  StreamWriter writer(sink, first.schema());
  writer.write(first);
  writer.write(second);
  writer.write(equal_copy);
  writer.close();
  EXPECT_EQ(writer.stats().dictionary_batches, 1);
  EXPECT_EQ(writer.stats().record_batches, 3);
  EXPECT_EQ(writer.stats().messages, 5);
  expect_same_batches(read_stream_batches(sink->finish()), {first, second, equal_copy});
}

TEST(IpcDictionaries, DeltasAndReplacementsInStreams) {
  const std::vector<RecordBatch> batches{
      codes_batch({0, 1}, {"a", "b"}), codes_batch({2, 0, kNull}, {"a", "b", "c"}),  // delta: "c"
      codes_batch({1, 0}, {"x", "y"}),                                               // replacement
      codes_batch({3, 2, 1}, {"x", "y", "z", "w"}),  // delta: "z", "w"
  };
  for (const Compression compression : kCompressions) {
    auto sink = std::make_shared<BufferOutputStream>();
    StreamWriter writer(sink, batches[0].schema(), compressed(compression));
    for (const RecordBatch& batch : batches) {
      writer.write(batch);
    }
    writer.close();
    EXPECT_EQ(writer.stats().dictionary_batches, 4);
    EXPECT_EQ(writer.stats().dictionary_deltas, 2);
    EXPECT_EQ(writer.stats().dictionary_replacements, 1);

    std::unique_ptr<StreamReader> reader =
        StreamReader::open(std::make_shared<BufferInputStream>(sink->finish()));
    std::vector<RecordBatch> read;
    while (std::optional<RecordBatch> batch = reader->next()) {
      read.push_back(std::move(*batch));
    }
    expect_same_batches(read, batches);
    EXPECT_EQ(reader->stats().dictionary_deltas, 2);
    EXPECT_EQ(reader->stats().dictionary_replacements, 1);
    EXPECT_EQ(reader->stats().record_batches, 4);
    EXPECT_EQ(reader->stats().body_bytes, writer.stats().body_bytes);
  }
}

TEST(IpcDictionaries, WithoutDeltasEveryChangeIsAReplacement) {
  WriteOptions options;
  options.emit_dictionary_deltas = false;
  const std::vector<RecordBatch> batches{codes_batch({0}, {"a"}), codes_batch({1}, {"a", "b"})};
  auto sink = std::make_shared<BufferOutputStream>();
  StreamWriter writer(sink, batches[0].schema(), options);
  writer.write(batches[0]);
  writer.write(batches[1]);
  writer.close();
  EXPECT_EQ(writer.stats().dictionary_deltas, 0);
  EXPECT_EQ(writer.stats().dictionary_replacements, 1);
  expect_same_batches(read_stream_batches(sink->finish()), batches);
}

TEST(IpcDictionaries, FilesTakeDeltasButRefuseReplacements) {
  const std::vector<RecordBatch> growing{codes_batch({0}, {"a"}), codes_batch({1, 0}, {"a", "b"}),
                                         codes_batch({2}, {"a", "b", "c"})};
  expect_same_batches(read_file_batches(file_of(growing)), growing);

  const SchemaPtr nested_schema = schema({field("s", struct_({field("inner", kCodes)}))});
  auto sink = std::make_shared<BufferOutputStream>();
  FileWriter writer(sink, nested_schema);
  const auto nested = [&](const std::vector<std::optional<std::string>>& values) {
    return RecordBatch(
        nested_schema, 1,
        {testing::struct_of(nested_schema->field(0)->type(), 1,
                            {testing::dictionary_of(kCodes, {0}, testing::strings(values))})});
  };
  writer.write(nested({"a", "b"}));
  EXPECT_THAT(error_message<InvalidArgument>([&] { writer.write(nested({"b"})); }),
              HasSubstr("the dictionary of field 's.inner' changed"));
  // The refused batch wrote nothing: the file is still complete and readable.
  writer.write(nested({"a", "b", "c"}));
  writer.close();
  const std::vector<RecordBatch> read = read_file_batches(sink->finish());
  ASSERT_EQ(read.size(), 2u);
  EXPECT_TRUE(read[1].equals(nested({"a", "b", "c"})));
}

TEST(IpcDictionaries, NestedDictionaries) {
  const TypePtr inner = dictionary(int16(), utf8());
  const TypePtr outer = dictionary(int8(), list(inner));
  const auto batch_with = [&](const std::vector<std::optional<std::string>>& words) {
    const Array inner_values =
        testing::dictionary_of(inner, {1, 0, kNull}, testing::strings(words));
    const Array lists = testing::list_of(list(inner), {0, 2, 3}, inner_values);
    return batch_of({{"plain", testing::dictionary_of(kCodes, {0, 0, 0}, testing::strings({"p"}))},
                     {"nested", testing::dictionary_of(outer, {1, 0, 1}, lists)},
                     {"list", testing::list_of(list(kCodes), {0, 1, 3, 3},
                                               testing::dictionary_of(kCodes, {0, 1, 0},
                                                                      testing::strings(words)))}});
  };
  const std::vector<RecordBatch> batches{batch_with({"a", "b"}), batch_with({"a", "b", "c"}),
                                         batch_with({"c", "d"})};
  expect_same_batches(read_stream_batches(stream_of(batches)), batches);
  expect_same_batches(read_file_batches(file_of({batches[0], batches[1]})),
                      {batches[0], batches[1]});
}

TEST(IpcDictionaries, RecordBatchBeforeItsDictionaryIsRefused) {
  const RecordBatch batch = codes_batch({0, 1}, {"a", "b"});
  auto sink = std::make_shared<BufferOutputStream>();
  const std::vector<DictionaryField> dictionaries = number_dictionaries(*batch.schema());
  write_message(*sink, *encode_schema_message({batch.schema(), dictionaries}), EncodedBody{});
  const EncodedBody body = encode_body(batch.columns(), batch.num_rows(), {});
  write_message(*sink, *encode_record_batch_message(body.header, body.body_length), body);
  write_end_of_stream(*sink);
  const std::shared_ptr<Buffer> stream = sink->finish();
  EXPECT_THAT(error_message<FormatError>([&] { read_stream_batches(stream); }),
              HasSubstr("message 1 (record batch): field 'codes': dictionary 0 has not been read"));
}

// --- extension types stored as dictionaries ---------------------------------------------

const TypePtr kCategory = extension(kCodes, "example.category", "v1");

/// An extension<dictionary<int8, utf8>> array.
Array categories_of(const std::vector<std::optional<int64_t>>& indices,
                    const std::vector<std::optional<std::string>>& values) {
  auto data = std::make_shared<ArrayData>(
      *testing::dictionary_of(kCodes, indices, testing::strings(values)).data());
  data->type = kCategory;
  return Array(std::move(data));
}

TEST(IpcExtensionDictionaries, DeltasAndReplacementsAtTopLevelAndNested) {
  const TypePtr holder = struct_({field("inner", kCategory)});
  const auto batch_with = [&](const std::vector<std::optional<int64_t>>& indices,
                              const std::vector<std::optional<std::string>>& values) {
    const Array categories = categories_of(indices, values);
    return batch_of(
        {{"c", categories}, {"s", testing::struct_of(holder, categories.length(), {categories})}});
  };
  const std::vector<RecordBatch> batches{
      batch_with({0, 1, kNull}, {"a", "b"}),   // the first dictionaries
      batch_with({2, 0, 1}, {"a", "b", "c"}),  // delta: "c"
      batch_with({1, 0, 0}, {"x", "y"}),       // replacement
  };
  EXPECT_EQ(batches[0].schema()->field(0)->type()->to_string(),
            "extension<example.category, storage=dictionary<values=string, indices=int8, "
            "ordered=0>>");
  auto sink = std::make_shared<BufferOutputStream>();
  StreamWriter writer(sink, batches[0].schema());
  for (const RecordBatch& batch : batches) {
    writer.write(batch);
  }
  writer.close();
  EXPECT_EQ(writer.stats().dictionary_batches, 6);
  EXPECT_EQ(writer.stats().dictionary_deltas, 2);
  EXPECT_EQ(writer.stats().dictionary_replacements, 2);
  expect_same_batches(read_stream_batches(sink->finish()), batches);
  expect_same_batches(read_file_batches(file_of({batches[0], batches[1]})),
                      {batches[0], batches[1]});
  expect_round_trips({batches[0], batches[1].slice(1)});
}

// --- byte compatibility with Apache Arrow -------------------------------------------------

/// Written by pyarrow 26: a stream of one batch whose field "c" (metadata {"x": "y"}) is of an
/// extension type "example.category" (serialized "v1") over dictionary<int8, utf8>, holding
/// ["b", null, "a", "b"] as indices [1, null, 0, 1] into ["a", "b"].
constexpr const char* kPyarrowCategoryStream =
    "ffffffff400100001000000000000a000c000600050008000a00000000010400040000000cffffff04000000"
    "0100000018000000000012001c000800060007000c00100014001800120000000000010518000000ec000000"
    "c80000000800000010000000000000000100000063000000030000008800000048000000040000008cffffff"
    "2000000004000000100000006578616d706c652e63617465676f727900000000140000004152524f573a6578"
    "74656e73696f6e3a6e616d6500000000ccffffff10000000040000000200000076310000180000004152524f"
    "573a657874656e73696f6e3a6d657461646174610000000008000c0004000800080000001000000004000000"
    "010000007900000001000000780000000800080000000400080000000c00000008000c000800070008000000"
    "0000000108000000040004000400000000000000ffffffffa800000014000000000000000c00140006000500"
    "08000c000c0000000002040014000000180000000000000008000a0000000400080000001000000000000a00"
    "18000c00040008000a0000004c00000010000000020000000000000000000000030000000000000000000000"
    "000000000000000000000000000000000c000000000000001000000000000000020000000000000000000000"
    "0100000002000000000000000000000000000000000000000100000002000000000000006162000000000000"
    "ffffffff8800000014000000000000000c0016000600050008000c000c000000000304001800000010000000"
    "0000000000000a0018000c00040008000a0000003c0000001000000004000000000000000000000002000000"
    "0000000000000000010000000000000008000000000000000400000000000000000000000100000004000000"
    "0000000001000000000000000d000000000000000100000100000000ffffffff00000000";

std::string hex_of(const Buffer& buffer) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(static_cast<size_t>(buffer.size()) * 2);
  for (int64_t i = 0; i < buffer.size(); ++i) {
    hex += kDigits[buffer.data()[i] >> 4];
    hex += kDigits[buffer.data()[i] & 0xf];
  }
  return hex;
}

std::shared_ptr<Buffer> from_hex(std::string_view hex) {
  BufferBuilder bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    const auto byte = static_cast<uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
    bytes.append(&byte, 1);
  }
  return bytes.finish();
}

TEST(IpcArrowBytes, ExtensionOverDictionaryReadsAndWritesAsPyarrow) {
  const RecordBatch expected(schema({field("c", kCategory, true, {{"x", "y"}})}), 4,
                             {categories_of({1, kNull, 0, 1}, {"a", "b"})});
  expect_same_batches(read_stream_batches(from_hex(kPyarrowCategoryStream)), {expected});
  EXPECT_EQ(hex_of(*stream_of({expected})), kPyarrowCategoryStream);
}

// --- zero copy ----------------------------------------------------------------------------

bool points_into(const Buffer& buffer, const Buffer& data) {
  return buffer.data() >= data.data() && buffer.data() + buffer.size() <= data.data() + data.size();
}

void expect_buffers_inside(const ArrayData& array, const Buffer& data) {
  for (const std::shared_ptr<Buffer>& buffer : array.buffers) {
    if (buffer != nullptr) {
      EXPECT_TRUE(points_into(*buffer, data)) << array.type->to_string();
    }
  }
  for (const ArrayDataPtr& child : array.children) {
    expect_buffers_inside(*child, data);
  }
  if (array.dictionary != nullptr) {
    expect_buffers_inside(*array.dictionary, data);
  }
}

TEST(IpcZeroCopy, FileReadFromABufferPointsIntoIt) {
  const RecordBatch batch = batch_of({
      {"ints", testing::int64s({1, kNull, 3})},
      {"strings", testing::strings({"a", kNull, "ccc"})},
      {"lists", testing::make_list_array<int32_t>({{{1, 2}}, kNull, {{3}}})},
      {"codes", testing::dictionary_of(kCodes, {0, 1, 0}, testing::strings({"x", "y"}))},
  });
  const std::shared_ptr<Buffer> file = file_of({batch});
  const std::vector<RecordBatch> read = read_file_batches(file);
  ASSERT_EQ(read.size(), 1u);
  for (const Array& column : read[0].columns()) {
    expect_buffers_inside(*column.data(), *file);
  }
  const std::vector<RecordBatch> streamed = read_stream_batches(stream_of({batch}));
  ASSERT_EQ(streamed.size(), 1u);
  EXPECT_TRUE(streamed[0].equals(batch));
}

TEST(IpcZeroCopy, MemoryMappedFilesToo) {
  std::string directory = "/tmp/bowstring_ipc_test_XXXXXX";
  ASSERT_NE(::mkdtemp(directory.data()), nullptr);
  const std::string path = directory + "/batches.arrow";
  const std::vector<RecordBatch> batches = {
      batch_of({{"s", testing::strings({"a", kNull, "ccc"})}}),
      batch_of({{"s", testing::strings({"dd"})}})};
  {
    FileWriter writer(std::make_shared<FileOutputStream>(path), batches[0].schema());
    for (const RecordBatch& batch : batches) {
      writer.write(batch);
    }
    writer.close();
  }
  const std::shared_ptr<MemoryMappedFile> mapped = MemoryMappedFile::open(path);
  const std::unique_ptr<FileReader> from_map = FileReader::open(mapped);
  const RecordBatch first = from_map->record_batch(0);
  expect_buffers_inside(*first.column(0).data(), *mapped->buffer());
  EXPECT_TRUE(first.equals(batches[0]));
  const Table read = FileReader::open(ReadableFile::open(path))->read_all();
  EXPECT_TRUE(read.equals(table_of(batches)));
  std::filesystem::remove_all(directory);
}

TEST(IpcZeroCopy, MisalignedStreamsAreCopiedWhereNeeded) {
  const RecordBatch batch =
      batch_of({{"i", testing::int64s({1, kNull, 3})}, {"s", testing::strings({"a", "b", kNull})}});
  const std::shared_ptr<Buffer> stream = stream_of({batch});
  BufferBuilder shifted;
  shifted.append("x", 1);
  shifted.append(stream->data(), stream->size());
  const std::shared_ptr<Buffer> whole = shifted.finish();
  const std::vector<RecordBatch> read =
      read_stream_batches(Buffer::slice(whole, 1, stream->size()));
  ASSERT_EQ(read.size(), 1u);
  EXPECT_TRUE(read[0].equals(batch));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(read[0].column(0).data()->buffers[1]->data()) % 8, 0u);
}

// --- compression --------------------------------------------------------------------------

TEST(IpcCompression, RepetitiveDataShrinksAndEveryCodecReadsBack) {
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < 10000; ++i) {
    values.push_back(i % 10);
  }
  const RecordBatch batch = batch_of({{"i", testing::int64s(values)}});
  int64_t plain_bytes = 0;
  for (const Compression compression : kCompressions) {
    auto sink = std::make_shared<BufferOutputStream>();
    StreamWriter writer(sink, batch.schema(), compressed(compression));
    writer.write(batch);
    writer.close();
    if (compression == Compression::kNone) {
      plain_bytes = writer.stats().body_bytes;
    } else {
      EXPECT_LT(writer.stats().body_bytes * 10, plain_bytes) << compression_name(compression);
    }
    expect_same_batches(read_stream_batches(sink->finish()), {batch});
  }
}

TEST(IpcCompression, FullValidationCanBeSwitchedOff) {
  ReadOptions trusted;
  trusted.validate_full = false;
  for (const auto& [name, array] : testing::sample_arrays()) {
    const RecordBatch batch = batch_of({{"values", array}});
    const std::shared_ptr<Buffer> stream = stream_of({batch}, compressed(Compression::kZstd));
    expect_same_batches(read_stream_batches(stream, trusted), {batch});
  }
}

// --- writer misuse ------------------------------------------------------------------------

TEST(IpcWriter, RefusesBatchesOfAnotherSchemaAndWritesAfterClose) {
  const RecordBatch batch = batch_of({{"a", testing::int32s({1})}});
  auto sink = std::make_shared<BufferOutputStream>();
  StreamWriter writer(sink, batch.schema());
  EXPECT_THAT(error_message<InvalidArgument>([&] {
                writer.write(batch_of({{"b", testing::int32s({1})}}));
              }),
              HasSubstr("field 0 of the record batch is 'b: int32', the writer's schema has "
                        "'a: int32'"));
  EXPECT_THAT(error_message<InvalidArgument>([&] {
                writer.write(batch_of({{"a", testing::int32s({1})}, {"b", testing::int32s({1})}}));
              }),
              HasSubstr("record batch has 2 fields"));
  writer.write(batch);
  writer.close();
  writer.close();
  EXPECT_THAT(error_message<InvalidArgument>([&] { writer.write(batch); }),
              HasSubstr("the writer is closed"));
  expect_same_batches(read_stream_batches(sink->finish()), {batch});
}

TEST(IpcReader, RecordBatchIndexOutOfRange) {
  const RecordBatch batch = batch_of({{"a", testing::int32s({1})}});
  const std::unique_ptr<FileReader> reader =
      FileReader::open(std::make_shared<BufferSource>(file_of({batch})));
  EXPECT_EQ(reader->num_record_batches(), 1);
  EXPECT_EQ(reader->version(), MetadataVersion::kV5);
  EXPECT_THAT(error_message<IndexError>([&] { reader->record_batch(1); }),
              HasSubstr("record batch 1 is outside an IPC file of 1 record batches"));
  EXPECT_THAT(error_message<IndexError>([&] { reader->record_batch(-1); }),
              HasSubstr("record batch -1"));
}

// --- malformed input ----------------------------------------------------------------------

/// A small stream and file with a dictionary, nulls, strings and a list in two batches.
std::vector<RecordBatch> small_batches() {
  const RecordBatch first = batch_of({
      {"codes", testing::dictionary_of(kCodes, {0, kNull, 1}, testing::strings({"x", "yy"}))},
      {"n", testing::int32s({1, kNull, 3})},
      {"s", testing::strings({"a", "bc", kNull})},
      {"l", testing::make_list_array<int64_t>({{{1}}, kNull, {{2, 3}}})},
  });
  const RecordBatch second = batch_of({
      {"codes", testing::dictionary_of(kCodes, {2}, testing::strings({"x", "yy", "z"}))},
      {"n", testing::int32s({4})},
      {"s", testing::strings({"d"})},
      {"l", testing::make_list_array<int64_t>({{{4}}})},
  });
  return {first, second};
}

/// The batches `read` (read_stream_batches or read_file_batches) gets from `data`, or nullopt
/// for a FormatError. Batches that are read must be valid and printable.
std::optional<std::vector<RecordBatch>> try_read(
    std::vector<RecordBatch> (*read)(const std::shared_ptr<Buffer>&, const ReadOptions&),
    const std::shared_ptr<Buffer>& data) {
  try {
    std::vector<RecordBatch> batches = read(data, {});
    for (const RecordBatch& batch : batches) {
      batch.validate_full();
      EXPECT_FALSE(batch.to_string().empty());
    }
    return batches;
  } catch (const FormatError&) {
    return std::nullopt;
  }
}

std::optional<std::vector<RecordBatch>> try_read_stream(const std::shared_ptr<Buffer>& data) {
  return try_read(read_stream_batches, data);
}

std::optional<std::vector<RecordBatch>> try_read_file(const std::shared_ptr<Buffer>& data) {
  return try_read(read_file_batches, data);
}

std::shared_ptr<Buffer> copy_of(const Buffer& data, int64_t size) {
  return Buffer::copy_of(data.data(), size);
}

TEST(IpcMalformed, TruncatedStreamAtEveryByte) {
  for (const Compression compression : kCompressions) {
    SCOPED_TRACE(std::string(compression_name(compression)));
    const std::vector<RecordBatch> batches = small_batches();
    const std::shared_ptr<Buffer> stream = stream_of(batches, compressed(compression));
    int refused = 0;
    for (int64_t size = 0; size < stream->size(); ++size) {
      const std::optional<std::vector<RecordBatch>> read = try_read_stream(copy_of(*stream, size));
      if (!read.has_value()) {
        ++refused;
        continue;
      }
      // Cut at a message boundary: the batches before the cut, unchanged.
      ASSERT_LE(read->size(), batches.size()) << "size " << size;
      for (size_t i = 0; i < read->size(); ++i) {
        EXPECT_TRUE((*read)[i].equals(batches[i])) << "size " << size;
      }
    }
    EXPECT_GT(refused, stream->size() * 9 / 10);
  }
}

TEST(IpcMalformed, TruncatedFileAtEveryByte) {
  const std::shared_ptr<Buffer> file = file_of(small_batches());
  for (int64_t size = 0; size < file->size(); ++size) {
    EXPECT_FALSE(try_read_file(copy_of(*file, size)).has_value()) << "size " << size;
  }
}

TEST(IpcMalformed, BadMagicAndFooterLength) {
  const std::shared_ptr<Buffer> file = file_of(small_batches());
  const auto changed = [&](int64_t position, const void* bytes, size_t count) {
    BufferBuilder copy;
    copy.append(file->data(), file->size());
    std::memcpy(copy.mutable_data() + position, bytes, count);
    return copy.finish();
  };
  const auto open_error = [](const std::shared_ptr<Buffer>& data) {
    return error_message<FormatError>(
        [&] { FileReader::open(std::make_shared<BufferSource>(data)); });
  };
  EXPECT_THAT(open_error(changed(0, "ARROW2", 6)), HasSubstr("does not start with the magic"));
  EXPECT_THAT(open_error(changed(file->size() - 6, "ARROWX", 6)),
              HasSubstr("does not end with the magic"));
  for (const int32_t length :
       {0, -1, std::numeric_limits<int32_t>::max(), static_cast<int32_t>(file->size())}) {
    EXPECT_THAT(open_error(changed(file->size() - 10, &length, 4)),
                HasSubstr("footer length " + std::to_string(length)));
  }
  EXPECT_THAT(open_error(Buffer::copy_of("ARROW1", 6)), HasSubstr("an IPC file has at least"));
  int32_t footer_length;
  std::memcpy(&footer_length, file->data() + file->size() - 10, sizeof(footer_length));
  const std::vector<uint8_t> garbage(static_cast<size_t>(footer_length), 0xFF);
  EXPECT_THAT(
      open_error(changed(file->size() - 10 - footer_length, garbage.data(), garbage.size())),
      HasSubstr("IPC file footer: "));
  EXPECT_THAT(error_message<FormatError>([] { read_stream_batches(Buffer::copy_of("", 0)); }),
              HasSubstr("the IPC stream is empty"));
}

TEST(IpcMalformed, FlippedBytesInStreams) {
  for (const Compression compression : kCompressions) {
    SCOPED_TRACE(std::string(compression_name(compression)));
    const std::shared_ptr<Buffer> stream = stream_of(small_batches(), compressed(compression));
    testing::for_each_flipped_byte(*stream, try_read_stream);
  }
}

TEST(IpcMalformed, FlippedBytesInFiles) {
  const std::shared_ptr<Buffer> file = file_of(small_batches(), compressed(Compression::kZstd));
  testing::for_each_flipped_byte(*file, try_read_file);
}

TEST(IpcMalformed, HugeClaimedLengths) {
  // A record batch claiming 2^40 values and a buffer far past its body, with valid framing.
  const RecordBatch batch = batch_of({{"a", testing::int64s({1, 2})}});
  for (const auto& change : std::vector<std::function<void(RecordBatchHeader&)>>{
           [](RecordBatchHeader& header) { header.length = int64_t{1} << 40; },
           [](RecordBatchHeader& header) { header.nodes[0].length = int64_t{1} << 40; },
           [](RecordBatchHeader& header) { header.buffers[1].length = int64_t{1} << 40; },
           [](RecordBatchHeader& header) {
             header.buffers[1].offset = std::numeric_limits<int64_t>::max() - 4;
           }}) {
    auto sink = std::make_shared<BufferOutputStream>();
    write_message(*sink, *encode_schema_message({batch.schema(), {}}), EncodedBody{});
    const EncodedBody body = encode_body(batch.columns(), batch.num_rows(), {});
    RecordBatchHeader header = body.header;
    change(header);
    write_message(*sink, *encode_record_batch_message(header, body.body_length), body);
    write_end_of_stream(*sink);
    const std::shared_ptr<Buffer> stream = sink->finish();
    EXPECT_THAT(error_message<FormatError>([&] { read_stream_batches(stream); }),
                HasSubstr("message 1"));
  }
}

TEST(IpcMalformed, HugeClaimedUncompressedLength) {
  const RecordBatch batch = batch_of({{"a", testing::int64s({1, 2, 3, 4, 5, 6, 7, 8})}});
  const EncodedBody body =
      encode_body(batch.columns(), batch.num_rows(), compressed(Compression::kLz4Frame));
  ASSERT_EQ(body.buffers.size(), 2u);
  for (const int64_t claim :
       {int64_t{1} << 50, std::numeric_limits<int64_t>::max(), int64_t{-2}, int64_t{1} << 20}) {
    BufferBuilder changed;
    changed.append(body.buffers[1]->data(), body.buffers[1]->size());
    std::memcpy(changed.mutable_data(), &claim, sizeof(claim));
    EncodedBody copy = body;
    copy.buffers[1] = changed.finish();
    auto sink = std::make_shared<BufferOutputStream>();
    write_message(*sink, *encode_schema_message({batch.schema(), {}}), EncodedBody{});
    write_message(*sink, *encode_record_batch_message(copy.header, copy.body_length), copy);
    write_end_of_stream(*sink);
    const std::shared_ptr<Buffer> stream = sink->finish();
    ReadOptions options;
    options.max_decompressed_size = int64_t{1} << 30;
    EXPECT_THAT(error_message<FormatError>([&] { read_stream_batches(stream, options); }),
                HasSubstr("field 'a': buffer 1 (values)"));
  }
}

}  // namespace
}  // namespace bowstring::ipc
