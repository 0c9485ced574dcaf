#include "bowstring/interchange/message.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "bowstring/interchange/metadata.h"
#include "bowstring/testing/arrow_testing_data.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring::ipc {
namespace {

using bowstring::testing::error_message;

MessageReader reader_of(const std::shared_ptr<const Buffer>& bytes) {
  return MessageReader(std::make_shared<BufferInputStream>(bytes));
}

int32_t int32_at(const Buffer& bytes, int64_t offset) {
  int32_t value;
  std::memcpy(&value, bytes.data() + offset, sizeof(value));
  return value;
}

std::shared_ptr<const Buffer> bytes_of(const std::string& text) {
  return Buffer::copy_of(text.data(), static_cast<int64_t>(text.size()));
}

SchemaPtr sample_schema() {
  return schema({field("a", int64()), field("b", dictionary(int8(), utf8()))});
}

/// A record batch body of two buffers with a gap between them.
EncodedBody sample_body() {
  EncodedBody body;
  body.header.length = 3;
  body.header.nodes = {{3, 0}};
  body.header.buffers = {{0, 0}, {0, 5}, {8, 3}};
  body.buffers = {nullptr, bytes_of("hello"), bytes_of("xyz")};
  body.body_length = 16;
  return body;
}

TEST(MessageFramingTest, WritesContinuationLengthPaddingAndBody) {
  BufferOutputStream sink;
  const std::vector<uint8_t> lead(8, 0xAB);
  sink.write(lead.data(), 8);
  const auto schema_metadata = encode_schema_message({sample_schema(), {}});
  const FileBlock schema_block = write_message(sink, *schema_metadata, EncodedBody{});
  const EncodedBody body = sample_body();
  const auto batch_metadata = encode_record_batch_message(body.header, body.body_length);
  const FileBlock batch_block = write_message(sink, *batch_metadata, body);
  write_end_of_stream(sink);

  const std::shared_ptr<Buffer> written = sink.finish();
  const Buffer& bytes = *written;
  EXPECT_EQ(schema_block.offset, 8);
  EXPECT_EQ(schema_block.body_length, 0);
  EXPECT_EQ(schema_block.metadata_length % 8, 0);
  EXPECT_GE(schema_block.metadata_length, 8 + schema_metadata->size());
  EXPECT_LT(schema_block.metadata_length, 8 + schema_metadata->size() + 8);
  EXPECT_EQ(int32_at(bytes, 8), -1);
  EXPECT_EQ(int32_at(bytes, 12), schema_block.metadata_length - 8);
  EXPECT_EQ(std::memcmp(bytes.data() + 16, schema_metadata->data(),
                        static_cast<size_t>(schema_metadata->size())),
            0);
  for (int64_t i = 8 + schema_metadata->size(); i < schema_block.metadata_length; ++i) {
    EXPECT_EQ(bytes.data()[8 + i], 0) << i;
  }

  EXPECT_EQ(batch_block.offset, schema_block.offset + schema_block.metadata_length);
  EXPECT_EQ(batch_block.body_length, 16);
  const int64_t body_start = batch_block.offset + batch_block.metadata_length;
  const std::string body_bytes(reinterpret_cast<const char*>(bytes.data() + body_start), 16);
  EXPECT_EQ(body_bytes, std::string("hello\0\0\0xyz\0\0\0\0\0", 16));
  // End of stream: the marker and a zero length.
  ASSERT_EQ(bytes.size(), body_start + 16 + 8);
  EXPECT_EQ(int32_at(bytes, body_start + 16), -1);
  EXPECT_EQ(int32_at(bytes, body_start + 20), 0);
}

TEST(MessageFramingTest, ReaderReadsWhatTheWriterWrote) {
  BufferOutputStream sink;
  write_message(sink, *encode_schema_message({sample_schema(), {}}), EncodedBody{});
  const EncodedBody body = sample_body();
  write_message(sink, *encode_record_batch_message(body.header, body.body_length), body);
  write_end_of_stream(sink);
  const std::shared_ptr<const Buffer> bytes = sink.finish();

  // From memory (zero-copy bodies) and from a file descriptor (bodies read into new buffers).
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("bowstring_message_test_" + std::to_string(getpid()));
  {
    FileOutputStream file(path.string());
    file.write(bytes->data(), bytes->size());
    file.close();
  }
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  std::filesystem::remove(path);
  for (const bool from_memory : {true, false}) {
    SCOPED_TRACE(from_memory ? "memory" : "file descriptor");
    MessageReader reader =
        from_memory ? reader_of(bytes)
                    : MessageReader(std::make_shared<FdInputStream>(fd, /*owns_fd=*/true));
    std::optional<Message> schema_message = reader.next();
    ASSERT_TRUE(schema_message.has_value());
    EXPECT_EQ(schema_message->header.type, MessageType::kSchema);
    EXPECT_TRUE(schema_message->header.schema->schema->equals(*sample_schema()));
    EXPECT_EQ(schema_message->body->size(), 0);
    std::optional<Message> batch = reader.next();
    ASSERT_TRUE(batch.has_value());
    EXPECT_EQ(batch->header.type, MessageType::kRecordBatch);
    EXPECT_EQ(batch->header.record_batch->buffers.size(), 3u);
    ASSERT_EQ(batch->body->size(), 16);
    EXPECT_EQ(std::memcmp(batch->body->data(), "hello", 5), 0);
    EXPECT_EQ(std::memcmp(batch->body->data() + 8, "xyz", 3), 0);
    const bool inside =
        batch->body->data() >= bytes->data() && batch->body->data() < bytes->data() + bytes->size();
    EXPECT_EQ(inside, from_memory);
    EXPECT_EQ(reader.messages_read(), 2);
    EXPECT_FALSE(reader.next().has_value());
    EXPECT_FALSE(reader.next().has_value());
    EXPECT_EQ(reader.messages_read(), 2);
  }
}

TEST(MessageFramingTest, ReaderStopsAtTheCleanEndOfInput) {
  BufferOutputStream sink;
  write_message(sink, *encode_schema_message({sample_schema(), {}}), EncodedBody{});
  MessageReader reader = reader_of(sink.finish());
  EXPECT_TRUE(reader.next().has_value());
  EXPECT_FALSE(reader.next().has_value());
  EXPECT_FALSE(reader_of(bytes_of("")).next().has_value());
}

TEST(MessageFramingTest, ReaderAcceptsLegacyFraming) {
  // Before Arrow 0.15: the metadata length alone, and a zero length to end the stream.
  const auto metadata = encode_schema_message({sample_schema(), {}});
  BufferOutputStream sink;
  const int32_t length = static_cast<int32_t>((metadata->size() + 4 + 7) / 8 * 8 - 4);
  sink.write(&length, 4);
  sink.write(metadata->data(), metadata->size());
  const std::vector<uint8_t> padding(static_cast<size_t>(length - metadata->size()), 0);
  sink.write(padding.data(), static_cast<int64_t>(padding.size()));
  const int32_t end = 0;
  sink.write(&end, 4);
  sink.write("garbage after the end", 21);
  MessageReader reader = reader_of(sink.finish());
  const std::optional<Message> message = reader.next();
  ASSERT_TRUE(message.has_value());
  EXPECT_TRUE(message->header.schema->schema->equals(*sample_schema()));
  EXPECT_FALSE(reader.next().has_value());
}

TEST(MessageFramingTest, TruncatedStreamsNameTheMessageAndTheShortfall) {
  BufferOutputStream sink;
  const FileBlock schema_block =
      write_message(sink, *encode_schema_message({sample_schema(), {}}), EncodedBody{});
  const EncodedBody body = sample_body();
  const FileBlock batch_block =
      write_message(sink, *encode_record_batch_message(body.header, body.body_length), body);
  const std::shared_ptr<Buffer> all = sink.finish();
  for (size_t cut = 1; cut < static_cast<size_t>(all->size()); ++cut) {
    SCOPED_TRACE(cut);
    MessageReader reader = reader_of(Buffer::slice(all, 0, static_cast<int64_t>(cut)));
    const auto boundary = static_cast<size_t>(schema_block.metadata_length);
    try {
      while (reader.next().has_value()) {
      }
      EXPECT_EQ(cut, boundary);
    } catch (const FormatError& error) {
      const std::string what = error.what();
      EXPECT_EQ(what.rfind(cut < boundary ? "message 0: truncated" : "message 1: truncated", 0), 0)
          << what;
    }
  }
  const auto cut_at = [&](int64_t size) {
    return error_message<FormatError>([&] {
      MessageReader reader = reader_of(Buffer::slice(all, 0, size));
      while (reader.next().has_value()) {
      }
    });
  };
  EXPECT_EQ(cut_at(2), "message 0: truncated framing: expected 4 bytes, got 2");
  EXPECT_EQ(cut_at(6),
            "message 0: truncated framing: expected a 4-byte metadata length after the "
            "continuation marker, got 2 bytes");
  EXPECT_EQ(cut_at(20), "message 0: truncated metadata: expected " +
                            std::to_string(schema_block.metadata_length - 8) +
                            " bytes, got 12 bytes");
  EXPECT_EQ(cut_at(batch_block.offset + batch_block.metadata_length + 5),
            "message 1: truncated body: expected 16 bytes, got 5 bytes");
}

TEST(MessageFramingTest, RefusesNegativeLengthsAndBadMetadata) {
  const int32_t framing[2] = {-1, -16};
  EXPECT_EQ(error_message<FormatError>([&] { reader_of(Buffer::copy_of(framing, 8)).next(); }),
            "message 0: metadata length -16 is negative");
  const int32_t legacy_negative = -2;
  EXPECT_THROW(reader_of(Buffer::copy_of(&legacy_negative, 4)).next(), FormatError);
  std::vector<uint8_t> junk = {0xFF, 0xFF, 0xFF, 0xFF, 16, 0, 0, 0};
  junk.resize(24, 0x5A);
  const std::string error =
      error_message<FormatError>([&] { reader_of(Buffer::copy_of(junk.data(), 24)).next(); });
  EXPECT_EQ(error.rfind("message 0: message metadata (16 bytes) is not a valid flatbuffer", 0), 0)
      << error;
  // The reader stays failed: it no longer knows where the next message starts.
  MessageReader failed = reader_of(Buffer::copy_of(junk.data(), 24));
  EXPECT_THROW(failed.next(), FormatError);
  EXPECT_EQ(error_message<FormatError>([&] { failed.next(); }), error);
  // A hostile length does not make the reader reserve memory it never receives.
  const int32_t huge[2] = {-1, 0x7FFFFFF8};
  EXPECT_EQ(error_message<FormatError>([&] { reader_of(Buffer::copy_of(huge, 8)).next(); }),
            "message 0: truncated metadata: expected 2147483640 bytes, got 0 bytes");
}

TEST(MessageFramingTest, WriteRefusesInconsistentBodies) {
  BufferOutputStream sink;
  const auto metadata = encode_record_batch_message({}, 0);
  EncodedBody body = sample_body();
  body.buffers.pop_back();
  EXPECT_THROW(write_message(sink, *metadata, body), InvalidArgument);
  body = sample_body();
  body.header.buffers[2].offset = 2;
  EXPECT_THROW(write_message(sink, *metadata, body), InvalidArgument);
  body = sample_body();
  body.header.buffers[1].length = 6;
  EXPECT_THROW(write_message(sink, *metadata, body), InvalidArgument);
  body = sample_body();
  body.body_length = 8;
  EXPECT_THROW(write_message(sink, *metadata, body), InvalidArgument);
}

TEST(MessageFileTest, ReadsMessagesAtBlocks) {
  BufferOutputStream sink;
  sink.write("ARROW1\0\0", 8);
  write_message(sink, *encode_schema_message({sample_schema(), {}}), EncodedBody{});
  const EncodedBody body = sample_body();
  const FileBlock block =
      write_message(sink, *encode_record_batch_message(body.header, body.body_length), body);
  const std::shared_ptr<const Buffer> bytes = sink.finish();
  const BufferSource source(bytes);

  const Message message = read_message_at(source, block, "record batch 0");
  EXPECT_EQ(message.header.type, MessageType::kRecordBatch);
  ASSERT_EQ(message.body->size(), 16);
  EXPECT_EQ(std::memcmp(message.body->data() + 8, "xyz", 3), 0);

  const auto error_at = [&](FileBlock bad) {
    return error_message<FormatError>([&] { read_message_at(source, bad, "record batch 0"); });
  };
  FileBlock bad = block;
  bad.body_length = 24;
  EXPECT_EQ(error_at(bad).rfind("record batch 0: block at offset", 0), 0) << error_at(bad);
  bad = block;
  bad.body_length = 8;
  EXPECT_EQ(error_at(bad),
            "record batch 0: the message has a body of 16 bytes but the footer gives 8 bytes");
  bad = block;
  bad.metadata_length -= 8;
  EXPECT_NE(error_at(bad).find("but the footer gives"), std::string::npos) << error_at(bad);
  bad = block;
  bad.offset = -8;
  EXPECT_THROW(read_message_at(source, bad, "x"), FormatError);
  bad = block;
  bad.offset = INT64_MAX - 4;
  EXPECT_THROW(read_message_at(source, bad, "x"), FormatError);
  bad = block;
  bad.offset = 0;  // the magic, not a message
  EXPECT_THROW(read_message_at(source, bad, "x"), FormatError);
  bad = block;
  bad.metadata_length = 2;
  EXPECT_THROW(read_message_at(source, bad, "x"), FormatError);
}

// --- Files written by Apache Arrow (the integration "gold" files of arrow-testing) ------------

std::shared_ptr<const Buffer> read_file(const std::filesystem::path& path) {
  return MemoryMappedFile::open(path.string())->buffer();
}

std::vector<std::filesystem::path> gold_files(const std::filesystem::path& dir,
                                              const std::string& extension, bool big_endian) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const bool is_big = entry.path().parent_path().filename() == "1.0.0-bigendian";
    if (entry.path().extension() == extension && is_big == big_endian) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

SchemaPtr gold_schema(const std::filesystem::path& dir, const std::string& relative) {
  MessageReader reader = reader_of(read_file(dir / relative));
  std::optional<Message> first = reader.next();
  EXPECT_TRUE(first.has_value());
  EXPECT_EQ(first->header.type, MessageType::kSchema);
  return first->header.schema->schema;
}

TEST(MessageGoldTest, EveryMessageOfEveryLittleEndianStreamDecodes) {
  BOWSTRING_ARROW_INTEGRATION_DIR_OR_SKIP(dir);
  const auto files = gold_files(dir, ".stream", false);
  EXPECT_GT(files.size(), 50u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    MessageReader reader = reader_of(read_file(path));
    try {
      std::optional<Message> message = reader.next();
      ASSERT_TRUE(message.has_value());
      ASSERT_EQ(message->header.type, MessageType::kSchema);
      const size_t dictionaries = message->header.schema->dictionaries.size();
      std::map<MessageType, int> counts;
      while ((message = reader.next())) {
        ++counts[message->header.type];
        EXPECT_NE(message->header.type, MessageType::kSchema);
        EXPECT_EQ(message->body->size(), message->header.body_length);
      }
      if (dictionaries == 0) {
        EXPECT_EQ(counts[MessageType::kDictionaryBatch], 0);
      }
    } catch (const FormatError& error) {
      ADD_FAILURE() << error.what();
    }
  }
}

TEST(MessageGoldTest, EveryLittleEndianFileFooterAndBlockDecodes) {
  BOWSTRING_ARROW_INTEGRATION_DIR_OR_SKIP(dir);
  const auto files = gold_files(dir, ".arrow_file", false);
  EXPECT_GT(files.size(), 50u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const auto bytes = read_file(path);
    ASSERT_GT(bytes->size(), 18);
    ASSERT_EQ(std::memcmp(bytes->data(), "ARROW1", 6), 0);
    ASSERT_EQ(std::memcmp(bytes->data() + bytes->size() - 6, "ARROW1", 6), 0);
    int32_t footer_length;
    std::memcpy(&footer_length, bytes->data() + bytes->size() - 10, 4);
    ASSERT_GT(footer_length, 0);
    ASSERT_LE(footer_length, bytes->size() - 18);
    try {
      const Footer footer =
          decode_footer(bytes->data() + bytes->size() - 10 - footer_length, footer_length);
      // Through pread, so that bodies are copies rather than views of the mapping.
      const auto readable = ReadableFile::open(path.string());
      const RandomAccessSource& source = *readable;
      for (size_t i = 0; i < footer.dictionaries.size(); ++i) {
        const Message message =
            read_message_at(source, footer.dictionaries[i], "dictionary " + std::to_string(i));
        EXPECT_EQ(message.header.type, MessageType::kDictionaryBatch);
      }
      for (size_t i = 0; i < footer.record_batches.size(); ++i) {
        const Message message =
            read_message_at(source, footer.record_batches[i], "record batch " + std::to_string(i));
        EXPECT_EQ(message.header.type, MessageType::kRecordBatch);
      }
      // The footer repeats the stream's schema.
      std::filesystem::path stream = path;
      stream.replace_extension(".stream");
      if (std::filesystem::exists(stream)) {
        EXPECT_TRUE(footer.schema.schema->equals(
            *gold_schema(dir, std::filesystem::relative(stream, dir)), true));
      }
    } catch (const FormatError& error) {
      ADD_FAILURE() << error.what();
    }
  }
}

TEST(MessageGoldTest, BigEndianSchemasAreRefused) {
  BOWSTRING_ARROW_INTEGRATION_DIR_OR_SKIP(dir);
  const auto files = gold_files(dir, ".stream", true);
  EXPECT_GT(files.size(), 10u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const std::string error =
        error_message<FormatError>([&] { reader_of(read_file(path)).next(); });
    EXPECT_EQ(error,
              "message 0: schema describes big-endian data; big-endian data is not supported");
  }
}

TEST(MessageGoldTest, SchemasDecodeAsArrowWroteThem) {
  BOWSTRING_ARROW_INTEGRATION_DIR_OR_SKIP(dir);
  const std::map<std::string, std::string> expected = {
      {"cpp-21.0.0/generated_list_view.stream",
       "lv: list_view<item: float>\nllv: large_list_view<item: float>"},
      {"cpp-21.0.0/generated_binary_view.stream", "bv: binary_view\nsv: string_view"},
      {"cpp-21.0.0/generated_run_end_encoded.stream",
       "ree16_int32: run_end_encoded<run_ends: int16, values: int32>\n"
       "ree32_utf8: run_end_encoded<run_ends: int32, values: string>\n"
       "ree64_float32: run_end_encoded<run_ends: int64, values: float>\n"
       "ree16_bool: run_end_encoded<run_ends: int64, values: bool>\nbool: bool"},
      {"cpp-21.0.0/generated_decimal32.stream",
       "f0: decimal32(3, 2)\nf1: decimal32(4, 2)\nf2: decimal32(5, 2)\nf3: decimal32(6, 2)\n"
       "f4: decimal32(7, 2)\nf5: decimal32(8, 2)\nf6: decimal32(9, 2)"},
      {"cpp-21.0.0/generated_interval_mdn.stream", "f1: month_day_nano_interval"},
      {"cpp-21.0.0/generated_union.stream",
       "sparse_1: sparse_union<f1: int32=5, f2: string=7>\n"
       "dense_1: dense_union<f1: int16=10, f2: binary=20>\n"
       "sparse_2: sparse_union<f1: float not null=5, f2: bool=7> not null\n"
       "dense_2: dense_union<f1: uint8 not null=42, f2: uint16=43, f3: null=44> not null"},
      {"1.0.0-littleendian/generated_extension.stream",
       "uuids: extension<uuid, storage=fixed_size_binary[16]>\n"
       "dict_exts: extension<dict-extension, storage=dictionary<values=string, indices=int8, "
       "ordered=0>>"},
      {"1.0.0-littleendian/generated_nested_dictionary.stream",
       "list_dict: dictionary<values=list<str_dict: dictionary<values=string, indices=int8, "
       "ordered=0>>, indices=int8, ordered=0>\n"
       "struct_dict: dictionary<values=struct<str_dict_a: dictionary<values=string, "
       "indices=int8, ordered=0>, str_dict_b: dictionary<values=string, indices=int8, "
       "ordered=0>>, indices=int8, ordered=0>"},
      {"1.0.0-littleendian/generated_map_non_canonical.stream",
       "map_other_names: map<string, int32>"},
      {"1.0.0-littleendian/generated_datetime.stream",
       "f0: date32\nf1: date64\nf2: time32[s]\nf3: time32[ms]\nf4: time64[us]\nf5: time64[ns]\n"
       "f6: timestamp[s]\nf7: timestamp[ms]\nf8: timestamp[us]\nf9: timestamp[ns]\n"
       "f10: timestamp[ms]\nf11: timestamp[s, tz=UTC]\nf12: timestamp[ms, tz=US/Eastern]\n"
       "f13: timestamp[us, tz=Europe/Paris]\nf14: timestamp[ns, tz=US/Pacific]"},
      {"1.0.0-littleendian/generated_interval.stream",
       "f1: duration[s]\nf2: duration[ms]\nf3: duration[us]\nf4: duration[ns]\n"
       "f5: month_interval\nf6: day_time_interval"},
      {"1.0.0-littleendian/generated_recursive_nested.stream",
       "lists_list: list<inner_list: list<item: int16>>\n"
       "structs_list: list<inner_struct: struct<f1: int32, f2: string>>"},
      {"1.0.0-littleendian/generated_duplicate_fieldnames.stream",
       "ints: int8\nints: int32\nstruct: struct<: int32, : string>"},
      {"1.0.0-littleendian/generated_null.stream",
       "f0: null\nf1: int32\nf2: null\nf3: double\nf4: null"},
      {"4.0.0-shareddict/generated_shared_dict.stream",
       "col1: dictionary<values=string, indices=int16, ordered=0>\n"
       "col2: dictionary<values=string, indices=int16, ordered=0>"},
      {"0.14.1/generated_nested.stream",
       "list_nullable: list<item: int32>\nfixedsizelist_nullable: fixed_size_list<item: int32>[4]\n"
       "struct_nullable: struct<f1: int32, f2: string>"},
  };
  for (const auto& [file, schema_text] : expected) {
    SCOPED_TRACE(file);
    EXPECT_EQ(gold_schema(dir, file)->to_string(), schema_text);
  }

  const SchemaPtr decimals = gold_schema(dir, "1.0.0-littleendian/generated_decimal256.stream");
  ASSERT_EQ(decimals->num_fields(), 33);
  EXPECT_EQ(decimals->field(32)->type()->to_string(), "decimal256(69, 5)");

  // Field and schema metadata; the extension keys of an unknown extension become the type.
  const SchemaPtr custom = gold_schema(dir, "1.0.0-littleendian/generated_custom_metadata.stream");
  EXPECT_EQ(custom->metadata(), (Metadata{{"schema_custom_0", "{}"}, {"schema_custom_1", "{}"}}));
  EXPECT_EQ(custom->field(0)->metadata(), (Metadata{{"pandas", "{}"}}));
  EXPECT_EQ(custom->field(1)->metadata().size(), 9u);
  EXPECT_EQ(custom->field(2)->to_string(),
            "unregistered_extension: extension<!nonexistent, "
            "storage=int8>");
  EXPECT_EQ(custom->field(2)->metadata(),
            (Metadata{{"ARROW:integration:allow_unregistered_extension", "true"}}));
  EXPECT_EQ(type_cast<ListType>(*custom->field(3)->type()).value_field()->metadata(),
            (Metadata{{"odd_values", "{}"}}));
}

TEST(MessageGoldTest, DictionaryIdsAndBatchHeaders) {
  BOWSTRING_ARROW_INTEGRATION_DIR_OR_SKIP(dir);
  {
    MessageReader reader =
        reader_of(read_file(dir / "1.0.0-littleendian/generated_nested_dictionary.stream"));
    const Message schema_message = *reader.next();
    const auto& dictionaries = schema_message.header.schema->dictionaries;
    ASSERT_EQ(dictionaries.size(), 5u);
    // Pre-order: list_dict, its str_dict, struct_dict, str_dict_a, str_dict_b.
    EXPECT_EQ(dictionaries[0].type->value_type()->id(), TypeId::kList);
    EXPECT_EQ(dictionaries[1].type->value_type()->id(), TypeId::kString);
    EXPECT_EQ(dictionaries[2].type->value_type()->id(), TypeId::kStruct);
    std::vector<int64_t> schema_ids;
    schema_ids.reserve(dictionaries.size());
    for (const DictionaryField& dictionary : dictionaries) {
      schema_ids.push_back(dictionary.id);
    }
    std::vector<int64_t> batch_ids;
    while (std::optional<Message> message = reader.next()) {
      if (message->header.type == MessageType::kDictionaryBatch) {
        batch_ids.push_back(message->header.dictionary_batch->id);
        EXPECT_EQ(message->header.dictionary_batch->data.nodes.front().length,
                  message->header.dictionary_batch->data.length);
      }
    }
    std::sort(schema_ids.begin(), schema_ids.end());
    std::sort(batch_ids.begin(), batch_ids.end());
    EXPECT_EQ(schema_ids, batch_ids);
  }
  {
    MessageReader reader =
        reader_of(read_file(dir / "4.0.0-shareddict/generated_shared_dict.stream"));
    const Message schema_message = *reader.next();
    const auto& dictionaries = schema_message.header.schema->dictionaries;
    ASSERT_EQ(dictionaries.size(), 2u);
    EXPECT_EQ(dictionaries[0].id, dictionaries[1].id);
  }
  for (const auto& [file, compression] : std::vector<std::pair<std::string, Compression>>{
           {"2.0.0-compression/generated_lz4.stream", Compression::kLz4Frame},
           {"2.0.0-compression/generated_zstd.stream", Compression::kZstd},
           {"1.0.0-littleendian/generated_primitive.stream", Compression::kNone}}) {
    SCOPED_TRACE(file);
    MessageReader reader = reader_of(read_file(dir / file));
    reader.next();
    const Message batch = *reader.next();
    ASSERT_EQ(batch.header.type, MessageType::kRecordBatch);
    EXPECT_EQ(batch.header.record_batch->compression, compression);
  }
  {
    MessageReader reader = reader_of(read_file(dir / "cpp-21.0.0/generated_binary_view.stream"));
    reader.next();
    const Message batch = *reader.next();
    EXPECT_EQ(batch.header.record_batch->variadic_buffer_counts.size(), 2u);
    EXPECT_EQ(batch.header.version, MetadataVersion::kV5);
  }
  {
    // Legacy framing and V4 metadata.
    MessageReader reader = reader_of(read_file(dir / "0.14.1/generated_primitive.stream"));
    EXPECT_EQ(reader.next()->header.version, MetadataVersion::kV4);
  }
}

TEST(MessageGoldTest, MutatedStreamsNeverCrash) {
  BOWSTRING_ARROW_INTEGRATION_DIR_OR_SKIP(dir);
  std::mt19937_64 rng(7);
  for (const char* file :
       {"cpp-21.0.0/generated_nested_dictionary.stream", "cpp-21.0.0/generated_union.stream",
        "0.14.1/generated_map.stream", "2.0.0-compression/generated_zstd.stream"}) {
    const auto original = read_file(dir / file);
    for (int iteration = 0; iteration < 2000; ++iteration) {
      std::vector<uint8_t> bytes(original->data(), original->data() + original->size());
      for (int flips = 1 + static_cast<int>(rng() % 3); flips > 0; --flips) {
        bytes[rng() % bytes.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
      }
      if (rng() % 4 == 0) {
        bytes.resize(rng() % bytes.size());
      }
      MessageReader reader =
          reader_of(Buffer::copy_of(bytes.data(), static_cast<int64_t>(bytes.size())));
      try {
        while (reader.next().has_value()) {
        }
      } catch (const FormatError&) {
      }
    }
  }
}

}  // namespace
}  // namespace bowstring::ipc
