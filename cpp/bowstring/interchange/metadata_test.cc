#include "bowstring/interchange/metadata.h"

#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bowstring/array/validate.h"
#include "bowstring/interchange/format/File_generated.h"
#include "bowstring/interchange/format/Message_generated.h"
#include "bowstring/interchange/format/Schema_generated.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring::ipc {
namespace {

using bowstring::testing::error_message;

MessageHeader decode(const Buffer& buffer) { return decode_message(buffer.data(), buffer.size()); }

/// Encodes `schema` with the standard dictionary numbering and decodes it again.
SchemaHeader round_trip(const SchemaPtr& schema) {
  const auto encoded = encode_schema_message({schema, number_dictionaries(*schema)});
  MessageHeader header = decode(*encoded);
  EXPECT_EQ(header.type, MessageType::kSchema);
  EXPECT_EQ(header.version, MetadataVersion::kV5);
  EXPECT_EQ(header.body_length, 0);
  EXPECT_TRUE(header.schema.has_value());
  EXPECT_FALSE(header.record_batch.has_value());
  return std::move(*header.schema);
}

void expect_round_trip(const SchemaPtr& schema) {
  const SchemaHeader decoded = round_trip(schema);
  EXPECT_TRUE(decoded.schema->equals(*schema, /*check_metadata=*/true))
      << "expected\n"
      << schema->to_string() << "\ngot\n"
      << decoded.schema->to_string();
  EXPECT_EQ(decoded.schema->to_string(), schema->to_string());
}

void expect_type_round_trip(const TypePtr& type, bool nullable = true) {
  SCOPED_TRACE(type->to_string());
  expect_round_trip(schema({field("f", type, nullable)}));
}

TEST(MetadataSchemaTest, RoundTripsEveryPrimitiveType) {
  for (const TypePtr& type : {null(),
                              boolean(),
                              int8(),
                              int16(),
                              int32(),
                              int64(),
                              uint8(),
                              uint16(),
                              uint32(),
                              uint64(),
                              float16(),
                              float32(),
                              float64(),
                              date32(),
                              date64(),
                              month_interval(),
                              day_time_interval(),
                              month_day_nano_interval(),
                              utf8(),
                              large_utf8(),
                              binary(),
                              large_binary(),
                              utf8_view(),
                              binary_view()}) {
    expect_type_round_trip(type);
    expect_type_round_trip(type, /*nullable=*/false);
  }
}

TEST(MetadataSchemaTest, RoundTripsParametricTypes) {
  for (const TypePtr& type : {
           decimal32(9, 2),
           decimal64(18, -3),
           decimal128(38, 10),
           decimal256(76, 0),
           time32(TimeUnit::kSecond),
           time32(TimeUnit::kMilli),
           time64(TimeUnit::kMicro),
           time64(TimeUnit::kNano),
           timestamp(TimeUnit::kSecond),
           timestamp(TimeUnit::kMilli, "UTC"),
           timestamp(TimeUnit::kMicro, "Europe/Paris"),
           timestamp(TimeUnit::kNano, "+07:30"),
           duration(TimeUnit::kSecond),
           duration(TimeUnit::kMilli),
           duration(TimeUnit::kMicro),
           duration(TimeUnit::kNano),
           fixed_size_binary(0),
           fixed_size_binary(16),
       }) {
    expect_type_round_trip(type);
  }
}

TEST(MetadataSchemaTest, RoundTripsNestedTypesWithChildNames) {
  const TypePtr item_struct =
      struct_({field("x", int32(), false), field("y", list(field("element", utf8())))});
  for (const TypePtr& type : {
           list(int64()),
           list(field("element", float64(), false)),
           large_list(field("values", utf8())),
           list_view(int16()),
           large_list_view(field("v", binary_view(), false)),
           fixed_size_list(field("xyz", float32(), false), 3),
           fixed_size_list(int8(), 0),
           item_struct,
           struct_({}),
           map(utf8(), int32()),
           map(int64(), item_struct, /*keys_sorted=*/true),
           TypePtr(std::make_shared<MapType>(
               field("pairs", struct_({field("k", utf8(), false), field("v", int8(), false)}),
                     false),
               false)),
           sparse_union({field("a", int32()), field("b", utf8())}),
           dense_union({field("a", int32()), field("b", utf8()), field("c", null())}, {5, 7, 127}),
           sparse_union({}),
           run_end_encoded(int16(), utf8()),
           run_end_encoded(int32(), list(int8())),
           run_end_encoded(int64(), float64()),
           list(list(list(struct_({field("deep", large_list(decimal128(10, 2)))})))),
       }) {
    expect_type_round_trip(type);
  }
}

TEST(MetadataSchemaTest, KeepsTheNamesOfMapAndListChildren) {
  const TypePtr pairs = std::make_shared<MapType>(
      field("pairs", struct_({field("k", utf8(), false), field("v", int8(), false)}), false), true);
  const SchemaHeader decoded =
      round_trip(schema({field("m", pairs), field("l", large_list(field("element", int8())))}));
  const auto& map_type = type_cast<MapType>(*decoded.schema->field(0)->type());
  EXPECT_EQ(map_type.entries_field()->name(), "pairs");
  EXPECT_EQ(map_type.key_field()->name(), "k");
  EXPECT_EQ(map_type.item_field()->name(), "v");
  EXPECT_FALSE(map_type.item_field()->nullable());
  EXPECT_TRUE(map_type.keys_sorted());
  EXPECT_EQ(type_cast<ListType>(*decoded.schema->field(1)->type()).value_field()->name(),
            "element");
}

TEST(MetadataSchemaTest, RoundTripsMetadataAndEmptySchemas) {
  expect_round_trip(schema({}));
  expect_round_trip(schema({}, {{"k", "v"}}));
  expect_round_trip(schema(
      {field("a", int32(), true, {{"field key", "field value"}, {"", ""}, {"dup", "1"}}),
       field("a", struct_({field("child", utf8(), true, {{"nested", std::string("\0x", 2)}})}),
             false)},
      {{"schema", "metadata"}, {"dup", "1"}, {"dup", "2"}}));
}

TEST(MetadataSchemaTest, RoundTripsExtensionTypes) {
  const TypePtr uuid = extension(fixed_size_binary(16), "arrow.uuid");
  const TypePtr tagged = extension(struct_({field("a", int8())}), "tagged", "params\x01\x02");
  expect_type_round_trip(uuid);
  expect_type_round_trip(list(tagged));
  expect_round_trip(schema({field("e", uuid, true, {{"other", "kept"}})}));

  // Stale extension keys in the field metadata give way to the type's own.
  const SchemaHeader decoded =
      round_trip(schema({field("e", uuid, true, {{"ARROW:extension:name", "stale"}, {"x", "y"}})}));
  const FieldPtr& e = decoded.schema->field(0);
  ASSERT_EQ(e->type()->id(), TypeId::kExtension);
  EXPECT_EQ(type_cast<ExtensionType>(*e->type()).extension_name(), "arrow.uuid");
  EXPECT_EQ(type_cast<ExtensionType>(*e->type()).serialized(), "");
  EXPECT_EQ(e->metadata(), (Metadata{{"x", "y"}}));
}

TEST(MetadataSchemaTest, ExtensionKeysOnTheWireMatchArrow) {
  // After the field's own metadata, the serialized parameters, then the name: the order of
  // Arrow's IPC writer (pyarrow 26, and the generated_extension gold files).
  const auto encoded = encode_schema_message(
      {schema({field("e", extension(int64(), "my.ext", "blob"), true, {{"x", "y"}})}), {}});
  const auto* message = fb::GetMessage(encoded->data());
  const fb::Field* wire = message->header_as_Schema()->fields()->Get(0);
  EXPECT_EQ(wire->type_type(), fb::Type::Int);
  ASSERT_EQ(wire->custom_metadata()->size(), 3u);
  EXPECT_EQ(wire->custom_metadata()->Get(0)->key()->str(), "x");
  EXPECT_EQ(wire->custom_metadata()->Get(1)->key()->str(), "ARROW:extension:metadata");
  EXPECT_EQ(wire->custom_metadata()->Get(1)->value()->str(), "blob");
  EXPECT_EQ(wire->custom_metadata()->Get(2)->key()->str(), "ARROW:extension:name");
  EXPECT_EQ(wire->custom_metadata()->Get(2)->value()->str(), "my.ext");
}

std::string hex_of(const Buffer& buffer) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (int64_t i = 0; i < buffer.size(); ++i) {
    hex += kDigits[buffer.data()[i] >> 4];
    hex += kDigits[buffer.data()[i] & 0xf];
  }
  return hex;
}

TEST(MetadataSchemaTest, BytesMatchArrow) {
  // pyarrow 26's Schema message for the same schema (pa.Schema.serialize, without framing):
  // the tables are laid out as Arrow builds them, so even the bytes are the same.
  const char* pyarrow_schema =
      "1000000000000a000e000600050008000a000000000104001000000000000a000c000000040008000a000000"
      "2c0000000400000001000000040000005cfeffff1000000004000000020000007376000002000000736b0000"
      "020000009400000014000000100014000800000007000c0000001000100000000000000c1400000018000000"
      "040000000100000010000000010000006c00000058ffffff54ffffff00000105140000004400000020000000"
      "0400000000000000040000006974656d00000a0014000c00080007000a000000000000010c00000001000000"
      "00000000dcfeffff0000000108000000acffffff4effffff0000010d1c000000480000000800000018000000"
      "02000000a8000000480000000100000073000000010000000400000044ffffff100000000400000001000000"
      "3100000001000000660000000400040004000000100018000800060007000c00100014001000000000000105"
      "14000000380000001c0000000400000000000000010000006400000008000800000004000800000004000000"
      "88ffffff000000011000000004000600040000000000120018000800060007000c0000001000140012000000"
      "00000102140000004c0000000800000010000000000000000100000078000000010000000c00000008000c00"
      "040008000800000010000000040000000100000076000000010000006b00000008000c000800070008000000"
      "0000000120000000";
  const SchemaPtr s = schema({field("s",
                                    struct_({field("x", int32(), true, {{"k", "v"}}),
                                             field("d", dictionary(int16(), utf8()))}),
                                    true, {{"f", "1"}}),
                              field("l", list(dictionary(int8(), utf8(), true)), false)},
                             {{"sk", "sv"}});
  EXPECT_EQ(hex_of(*encode_schema_message({s, {}})), pyarrow_schema);
}

TEST(MetadataSchemaTest, RoundTripsExtensionsOverDictionaries) {
  const TypePtr category = extension(dictionary(int8(), utf8()), "example.category", "v1");
  const TypePtr ordered = extension(dictionary(uint32(), list(int64()), true), "example.ranks");
  expect_type_round_trip(category);
  expect_type_round_trip(ordered, false);
  expect_type_round_trip(list(category));
  expect_type_round_trip(struct_({field("a", int32()), field("c", category)}));
  expect_type_round_trip(extension(struct_({field("c", category)}), "example.holder"));
  // Inside the values of another dictionary, and holding one in its own values.
  expect_type_round_trip(dictionary(int16(), struct_({field("c", category)})));
  expect_type_round_trip(
      extension(dictionary(int8(), struct_({field("d", dictionary(int8(), binary()))})), "nest"));
  expect_round_trip(schema({field("c", category, true, {{"x", "y"}})}));

  // The schema's dictionaries are the storage dictionaries, numbered in pre-order.
  const SchemaPtr s = schema({field("c", category), field("l", list(ordered))});
  const SchemaHeader decoded = round_trip(s);
  ASSERT_EQ(decoded.dictionaries.size(), 2u);
  EXPECT_EQ(decoded.dictionaries[0].id, 0);
  EXPECT_TRUE(decoded.dictionaries[0].type->equals(*dictionary(int8(), utf8())));
  EXPECT_EQ(decoded.dictionaries[1].id, 1);
  EXPECT_TRUE(decoded.dictionaries[1].type->equals(*dictionary(uint32(), list(int64()), true)));
}

TEST(MetadataSchemaTest, ExtensionOverDictionaryOnTheWireMatchesArrow) {
  // Arrow writes the dictionary encoding on the field, the value type as the field's type and
  // the extension keys in the field's metadata.
  const auto encoded = encode_schema_message(
      {schema({field("c", extension(dictionary(int8(), utf8(), true), "my.cat", "blob"), true,
                     {{"x", "y"}})}),
       {}});
  const auto* message = fb::GetMessage(encoded->data());
  const fb::Field* wire = message->header_as_Schema()->fields()->Get(0);
  EXPECT_EQ(wire->type_type(), fb::Type::Utf8);
  ASSERT_NE(wire->dictionary(), nullptr);
  EXPECT_EQ(wire->dictionary()->id(), 0);
  EXPECT_TRUE(wire->dictionary()->is_ordered());
  EXPECT_EQ(wire->dictionary()->index_type()->bit_width(), 8);
  EXPECT_TRUE(wire->dictionary()->index_type()->is_signed());
  ASSERT_EQ(wire->custom_metadata()->size(), 3u);
  EXPECT_EQ(wire->custom_metadata()->Get(0)->key()->str(), "x");
  EXPECT_EQ(wire->custom_metadata()->Get(1)->key()->str(), "ARROW:extension:metadata");
  EXPECT_EQ(wire->custom_metadata()->Get(1)->value()->str(), "blob");
  EXPECT_EQ(wire->custom_metadata()->Get(2)->key()->str(), "ARROW:extension:name");
  EXPECT_EQ(wire->custom_metadata()->Get(2)->value()->str(), "my.cat");
}

TEST(MetadataSchemaTest, DictionaryOfExtensionValuesIsWrittenAsArrowDoesAndReadAsArrowDoes) {
  // Arrow writes a dictionary of extension values exactly as an extension over the dictionary,
  // so both read back as the latter.
  const TypePtr of_values = dictionary(int8(), extension(utf8(), "my.text", "p"));
  const TypePtr over_dictionary = extension(dictionary(int8(), utf8()), "my.text", "p");
  const auto bytes_of = [](const TypePtr& type) {
    const auto encoded = encode_schema_message({schema({field("t", type)}), {}});
    return std::string(reinterpret_cast<const char*>(encoded->data()),
                       static_cast<size_t>(encoded->size()));
  };
  EXPECT_EQ(bytes_of(of_values), bytes_of(over_dictionary));
  const SchemaHeader decoded = round_trip(schema({field("t", of_values)}));
  EXPECT_TRUE(decoded.schema->field(0)->type()->equals(*over_dictionary))
      << decoded.schema->field(0)->type()->to_string();
}

TEST(MetadataSchemaTest, RefusesWhatIpcCannotHold) {
  const auto message_of = [](const TypePtr& type) {
    return error_message<NotImplemented>([&] {
      encode_schema_message({schema({field("d", type)}), {}});
    });
  };
  EXPECT_EQ(message_of(dictionary(int8(), dictionary(int8(), utf8()))),
            "field 0 'd': a dictionary whose values are dictionary-encoded "
            "(dictionary<values=dictionary<values=string, indices=int8, ordered=0>, "
            "indices=int8, ordered=0>) cannot be written to IPC");
  EXPECT_NE(message_of(dictionary(int8(), extension(dictionary(int8(), utf8()), "x")))
                .find("a dictionary whose values are dictionary-encoded"),
            std::string::npos);
  EXPECT_NE(message_of(extension(dictionary(int8(), extension(utf8(), "inner")), "outer"))
                .find("cannot be written to IPC: it has two extension types"),
            std::string::npos);
}

TEST(MetadataSchemaTest, RefusesToWriteTextThatIsNotUtf8) {
  // Flatbuffer strings are UTF-8, and the reader refuses anything else.
  const auto message_of = [](const SchemaPtr& schema) {
    return error_message<InvalidArgument>([&] { encode_schema_message({schema, {}}); });
  };
  EXPECT_EQ(message_of(schema({field("s", struct_({field("b\xff", int32())}))})),
            "field 0 's' child 0 'b\\xff': name 'b\\xff' is not valid UTF-8 (byte 1 of 2); IPC "
            "field names must be UTF-8");
  EXPECT_EQ(message_of(schema({field("a", int32())}, {{"k", "\xc0\xaf"}})),
            "schema: metadata value 0 (of key 'k') '\\xc0\\xaf' is not valid UTF-8 (byte 0 of "
            "2); IPC metadata must be UTF-8");
  EXPECT_EQ(message_of(schema({field("a", int32(), true, {{"ok", ""}, {"\x80", ""}})})),
            "field 0 'a': metadata key 1 '\\x80' is not valid UTF-8 (byte 0 of 1); IPC metadata "
            "must be UTF-8");
  EXPECT_NE(message_of(schema({field("t", timestamp(TimeUnit::kSecond, "UTC\xff"))}))
                .find("field 0 't': timezone 'UTC\\xff' is not valid UTF-8"),
            std::string::npos);
  Footer footer;
  footer.schema = {schema({}), {}};
  footer.custom_metadata = {{"k", "\xff"}};
  EXPECT_NE(error_message<InvalidArgument>([&] {
              encode_footer(footer);
            }).find("file footer: metadata value 0 (of key 'k')"),
            std::string::npos);
  // Valid UTF-8 beyond ASCII is fine.
  expect_round_trip(
      schema({field("caf\xc3\xa9", int32(), true, {{"\xe2\x82\xac", "\xf0\x9f\x8e\xbb"}})}));
}

TEST(MetadataDictionaryTest, NumbersDictionariesInPreOrder) {
  const TypePtr inner = dictionary(int8(), utf8());
  const TypePtr outer = dictionary(
      int16(), struct_({field("a", inner), field("b", list(dictionary(int32(), int64())))}));
  const SchemaPtr s = schema({
      field("plain", int32()),
      field("outer", outer),
      field("list", list(field("item", dictionary(uint8(), float64(), true)))),
      field("ext", extension(int8(), "e")),
      field("ext_dict", extension(dictionary(int32(), utf8()), "dict.ext")),
  });
  const std::vector<DictionaryField> numbered = number_dictionaries(*s);
  ASSERT_EQ(numbered.size(), 5u);
  for (size_t i = 0; i < numbered.size(); ++i) {
    EXPECT_EQ(numbered[i].id, static_cast<int64_t>(i));
  }
  EXPECT_TRUE(numbered[0].type->equals(*outer));
  EXPECT_TRUE(numbered[1].type->equals(*inner));
  EXPECT_EQ(numbered[2].type->value_type()->id(), TypeId::kInt64);
  EXPECT_EQ(numbered[3].type->value_type()->id(), TypeId::kFloat64);
  EXPECT_TRUE(numbered[3].type->ordered());
  EXPECT_TRUE(numbered[4].type->equals(*dictionary(int32(), utf8())));

  const SchemaHeader decoded = round_trip(s);
  EXPECT_TRUE(decoded.schema->equals(*s, true)) << decoded.schema->to_string();
  ASSERT_EQ(decoded.dictionaries.size(), numbered.size());
  for (size_t i = 0; i < numbered.size(); ++i) {
    EXPECT_EQ(decoded.dictionaries[i].id, numbered[i].id);
    EXPECT_TRUE(decoded.dictionaries[i].type->equals(*numbered[i].type)) << i;
  }
}

TEST(MetadataDictionaryTest, KeepsTheGivenIds) {
  const SchemaPtr s = schema(
      {field("a", dictionary(int8(), utf8())), field("b", list(dictionary(int64(), binary())))});
  std::vector<DictionaryField> dictionaries = number_dictionaries(*s);
  dictionaries[0].id = 42;
  dictionaries[1].id = -7;
  const MessageHeader header = decode(*encode_schema_message({s, dictionaries}));
  ASSERT_EQ(header.schema->dictionaries.size(), 2u);
  EXPECT_EQ(header.schema->dictionaries[0].id, 42);
  EXPECT_EQ(header.schema->dictionaries[1].id, -7);
  EXPECT_TRUE(header.schema->dictionaries[1].type->equals(*dictionary(int64(), binary())));
}

TEST(MetadataDictionaryTest, RefusesIdsThatDoNotMatchTheSchema) {
  const SchemaPtr s = schema({field("a", dictionary(int8(), utf8()))});
  std::vector<DictionaryField> wrong = {
      {0, std::static_pointer_cast<const DictionaryType>(dictionary(int8(), binary()))}};
  EXPECT_THROW(encode_schema_message({s, wrong}), InvalidArgument);
  std::vector<DictionaryField> too_many = number_dictionaries(*s);
  too_many.push_back(too_many[0]);
  EXPECT_THROW(encode_schema_message({s, too_many}), InvalidArgument);
}

TEST(MetadataBatchTest, RecordBatchHeaderRoundTrips) {
  RecordBatchHeader header;
  header.length = 5;
  header.nodes = {{5, 1}, {5, 0}, {12, 12}};
  header.buffers = {{0, 8}, {8, 40}, {48, 0}, {48, 16}, {64, 64}};
  header.compression = Compression::kZstd;
  header.variadic_buffer_counts = {0, 3};
  const MessageHeader decoded = decode(*encode_record_batch_message(header, 128));
  EXPECT_EQ(decoded.type, MessageType::kRecordBatch);
  EXPECT_EQ(decoded.body_length, 128);
  ASSERT_TRUE(decoded.record_batch.has_value());
  const RecordBatchHeader& got = *decoded.record_batch;
  EXPECT_EQ(got.length, 5);
  ASSERT_EQ(got.nodes.size(), 3u);
  EXPECT_EQ(got.nodes[2].length, 12);
  EXPECT_EQ(got.nodes[2].null_count, 12);
  ASSERT_EQ(got.buffers.size(), 5u);
  EXPECT_EQ(got.buffers[4].offset, 64);
  EXPECT_EQ(got.buffers[4].length, 64);
  EXPECT_EQ(got.compression, Compression::kZstd);
  EXPECT_EQ(got.variadic_buffer_counts, (std::vector<int64_t>{0, 3}));

  header.compression = Compression::kLz4Frame;
  header.variadic_buffer_counts.clear();
  const MessageHeader lz4 = decode(*encode_record_batch_message(header, 128));
  EXPECT_EQ(lz4.record_batch->compression, Compression::kLz4Frame);
  EXPECT_TRUE(lz4.record_batch->variadic_buffer_counts.empty());

  header.compression = Compression::kNone;
  const MessageHeader plain = decode(*encode_record_batch_message(header, 128));
  EXPECT_EQ(plain.record_batch->compression, Compression::kNone);

  const MessageHeader empty = decode(*encode_record_batch_message({}, 0));
  EXPECT_EQ(empty.record_batch->length, 0);
  EXPECT_TRUE(empty.record_batch->nodes.empty());
}

TEST(MetadataBatchTest, DictionaryBatchHeaderRoundTrips) {
  DictionaryBatchHeader header;
  header.id = 3;
  header.is_delta = true;
  header.data.length = 2;
  header.data.nodes = {{2, 0}};
  header.data.buffers = {{0, 0}, {0, 16}, {16, 8}};
  header.data.compression = Compression::kLz4Frame;
  header.data.variadic_buffer_counts = {1};
  const MessageHeader decoded = decode(*encode_dictionary_batch_message(header, 24));
  EXPECT_EQ(decoded.type, MessageType::kDictionaryBatch);
  EXPECT_EQ(decoded.body_length, 24);
  ASSERT_TRUE(decoded.dictionary_batch.has_value());
  EXPECT_EQ(decoded.dictionary_batch->id, 3);
  EXPECT_TRUE(decoded.dictionary_batch->is_delta);
  EXPECT_EQ(decoded.dictionary_batch->data.buffers.size(), 3u);
  EXPECT_EQ(decoded.dictionary_batch->data.compression, Compression::kLz4Frame);
  EXPECT_EQ(decoded.dictionary_batch->data.variadic_buffer_counts, std::vector<int64_t>{1});
}

TEST(MetadataBatchTest, RefusesBadLengthsAndRanges) {
  RecordBatchHeader header;
  header.length = -1;
  EXPECT_NE(error_message<FormatError>([&] {
              decode(*encode_record_batch_message(header, 0));
            }).find("negative length -1"),
            std::string::npos);
  header.length = 1;
  header.nodes = {{1, 2}};
  EXPECT_NE(error_message<FormatError>([&] {
              decode(*encode_record_batch_message(header, 0));
            }).find("node 0"),
            std::string::npos);
  header.nodes = {{1, 0}};
  header.buffers = {{8, 16}};
  EXPECT_NE(error_message<FormatError>([&] {
              decode(*encode_record_batch_message(header, 16));
            }).find("buffer 0 (offset 8, length 16) is not inside the body of 16 bytes"),
            std::string::npos);
  header.buffers = {{-8, 8}};
  EXPECT_THROW(decode(*encode_record_batch_message(header, 16)), FormatError);
  header.buffers = {{8, std::numeric_limits<int64_t>::max()}};
  EXPECT_THROW(decode(*encode_record_batch_message(header, 16)), FormatError);
  header.buffers = {};
  header.variadic_buffer_counts = {-1};
  EXPECT_THROW(decode(*encode_record_batch_message(header, 16)), FormatError);
  header.variadic_buffer_counts = {};
  EXPECT_NE(error_message<FormatError>([&] {
              decode(*encode_record_batch_message(header, -8));
            }).find("negative body length"),
            std::string::npos);
}

TEST(MetadataFooterTest, RoundTrips) {
  Footer footer;
  footer.schema = {
      schema({field("a", dictionary(int8(), utf8())), field("b", int64())}, {{"k", "v"}}), {}};
  footer.schema.dictionaries = number_dictionaries(*footer.schema.schema);
  footer.dictionaries = {{8, 136, 64}};
  footer.record_batches = {{208, 200, 1024}, {1432, 200, std::int64_t{1} << 40}};
  footer.custom_metadata = {{"footer", "yes"}};
  const auto encoded = encode_footer(footer);
  const Footer decoded = decode_footer(encoded->data(), encoded->size());
  EXPECT_EQ(decoded.version, MetadataVersion::kV5);
  EXPECT_TRUE(decoded.schema.schema->equals(*footer.schema.schema, true));
  ASSERT_EQ(decoded.schema.dictionaries.size(), 1u);
  ASSERT_EQ(decoded.dictionaries.size(), 1u);
  EXPECT_EQ(decoded.dictionaries[0].offset, 8);
  EXPECT_EQ(decoded.dictionaries[0].metadata_length, 136);
  EXPECT_EQ(decoded.dictionaries[0].body_length, 64);
  ASSERT_EQ(decoded.record_batches.size(), 2u);
  EXPECT_EQ(decoded.record_batches[1].offset, 1432);
  EXPECT_EQ(decoded.record_batches[1].body_length, std::int64_t{1} << 40);
  EXPECT_EQ(decoded.custom_metadata, footer.custom_metadata);

  // A Block is 24 bytes on the wire: offset, metadata length, 4 bytes of padding, body length.
  static_assert(sizeof(fb::Block) == 24);
  footer.record_batches = {{-1, 8, 8}};
  const auto bad = encode_footer(footer);
  EXPECT_NE(error_message<FormatError>([&] {
              decode_footer(bad->data(), bad->size());
            }).find("footer record batch block 0"),
            std::string::npos);
}

TEST(MetadataDecodeTest, AcceptsMisalignedInput) {
  const auto encoded = encode_schema_message(
      {schema({field("a", list(int64())), field("t", timestamp(TimeUnit::kNano, "UTC"))}), {}});
  std::vector<uint8_t> storage(static_cast<size_t>(encoded->size()) + 8);
  for (int shift = 1; shift < 8; ++shift) {
    std::memcpy(storage.data() + shift, encoded->data(), static_cast<size_t>(encoded->size()));
    const MessageHeader header = decode_message(storage.data() + shift, encoded->size());
    EXPECT_EQ(header.schema->schema->field(1)->type()->to_string(), "timestamp[ns, tz=UTC]");
  }
}

// --- Hand-built malformed metadata -----------------------------------------------------------

/// Builds schema messages field by field, to produce what our encoder never would.
class RawSchema {
 public:
  flatbuffers::FlatBufferBuilder builder;

  flatbuffers::Offset<fb::Field> field(
      const std::string& name, fb::Type type_type, flatbuffers::Offset<void> type,
      const std::vector<flatbuffers::Offset<fb::Field>>& children = {}, bool nullable = true,
      flatbuffers::Offset<fb::DictionaryEncoding> dictionary = 0) {
    const auto name_offset = builder.CreateString(name);
    const auto children_offset = builder.CreateVector(children);
    return fb::CreateField(builder, name_offset, nullable, type_type, type, dictionary,
                           children_offset);
  }
  flatbuffers::Offset<fb::Field> int_field(const std::string& name, int bit_width = 32,
                                           bool nullable = true) {
    return field(name, fb::Type::Int, fb::CreateInt(builder, bit_width, true).Union(), {},
                 nullable);
  }

  std::shared_ptr<Buffer> finish(const std::vector<flatbuffers::Offset<fb::Field>>& fields,
                                 fb::Endianness endianness = fb::Endianness::Little,
                                 fb::MetadataVersion version = fb::MetadataVersion::V5) {
    const auto fields_offset = builder.CreateVector(fields);
    const auto schema = fb::CreateSchema(builder, endianness, fields_offset);
    builder.Finish(
        fb::CreateMessage(builder, version, fb::MessageHeader::Schema, schema.Union(), 0));
    return Buffer::copy_of(builder.GetBufferPointer(), builder.GetSize());
  }
};

std::string decode_error(const std::shared_ptr<Buffer>& message) {
  return error_message<FormatError>([&] { decode(*message); });
}

TEST(MetadataMalformedTest, RefusesWrongChildCounts) {
  {
    RawSchema raw;
    auto child = raw.int_field("c");
    auto f = raw.field("a", fb::Type::Int, fb::CreateInt(raw.builder, 32, true).Union(), {child});
    EXPECT_NE(decode_error(raw.finish({f}))
                  .find("schema field 0 'a': a int32 field has 0 "
                        "children, got 1"),
              std::string::npos)
        << decode_error(raw.finish({f}));
  }
  {
    RawSchema raw;
    auto f = raw.field("l", fb::Type::List, fb::CreateList(raw.builder).Union());
    EXPECT_NE(decode_error(raw.finish({f})).find("'l': a list field has 1 child, got 0"),
              std::string::npos);
  }
  {
    RawSchema raw;
    auto inner = raw.field("s", fb::Type::Struct_, fb::CreateStruct_(raw.builder).Union(),
                           {raw.int_field("x"), raw.int_field("y")});
    auto f = raw.field("r", fb::Type::RunEndEncoded, fb::CreateRunEndEncoded(raw.builder).Union(),
                       {inner});
    const std::string error = decode_error(raw.finish(
        {raw.field("outer", fb::Type::Struct_, fb::CreateStruct_(raw.builder).Union(), {f})}));
    EXPECT_NE(error.find("schema field 0 'outer' child 0 'r': a run_end_encoded field has 2 "
                         "children, got 1"),
              std::string::npos)
        << error;
  }
}

TEST(MetadataMalformedTest, RefusesTextThatIsNotUtf8) {
  {
    // The error quotes the name with its bad bytes escaped: error messages are text.
    RawSchema raw;
    auto f = raw.field("outer", fb::Type::Struct_, fb::CreateStruct_(raw.builder).Union(),
                       {raw.int_field("ok"), raw.int_field("b\xff")});
    EXPECT_EQ(decode_error(raw.finish({f})),
              "schema field 0 'outer' child 1 'b\\xff': name 'b\\xff' is not valid UTF-8 (byte 1 "
              "of 2)");
  }
  {
    RawSchema raw;
    auto& b = raw.builder;
    const auto key = b.CreateString("k");
    const auto value = b.CreateString("\xed\xa0\x80");  // a surrogate
    const std::vector<flatbuffers::Offset<fb::KeyValue>> entries{fb::CreateKeyValue(b, key, value)};
    const auto metadata = b.CreateVector(entries);
    const auto name = b.CreateString("m");
    const auto type = fb::CreateInt(b, 32, true).Union();
    const auto f = fb::CreateField(b, name, true, fb::Type::Int, type, 0, 0, metadata);
    EXPECT_EQ(decode_error(raw.finish({f})),
              "schema field 0 'm' metadata value 0 (of key 'k') '\\xed\\xa0\\x80' is not valid "
              "UTF-8 (byte 0 of 3)");
  }
  {
    RawSchema raw;
    const auto timezone = raw.builder.CreateString("\xc3");
    const auto type = fb::CreateTimestamp(raw.builder, fb::TimeUnit::SECOND, timezone).Union();
    EXPECT_EQ(decode_error(raw.finish({raw.field("t", fb::Type::Timestamp, type)})),
              "schema field 0 't': timezone '\\xc3' is not valid UTF-8 (byte 0 of 1)");
  }
}

TEST(MetadataMalformedTest, RefusesBadMaps) {
  {
    RawSchema raw;
    auto f = raw.field("m", fb::Type::Map, fb::CreateMap(raw.builder).Union(),
                       {raw.int_field("entries", 32, false)});
    EXPECT_NE(decode_error(raw.finish({f})).find("must be a struct of a key and an item"),
              std::string::npos);
  }
  {
    RawSchema raw;
    auto entries = raw.field("entries", fb::Type::Struct_, fb::CreateStruct_(raw.builder).Union(),
                             {raw.int_field("k", 32, false), raw.int_field("v")}, true);
    auto f = raw.field("m", fb::Type::Map, fb::CreateMap(raw.builder).Union(), {entries});
    EXPECT_NE(decode_error(raw.finish({f})).find("entries field of a map must not be nullable"),
              std::string::npos);
  }
  {
    RawSchema raw;
    auto entries = raw.field("entries", fb::Type::Struct_, fb::CreateStruct_(raw.builder).Union(),
                             {raw.int_field("k", 32, true), raw.int_field("v")}, false);
    auto f = raw.field("m", fb::Type::Map, fb::CreateMap(raw.builder).Union(), {entries});
    EXPECT_NE(decode_error(raw.finish({f})).find("key field of a map must not be nullable"),
              std::string::npos);
  }
}

TEST(MetadataMalformedTest, RefusesBadUnions) {
  const auto union_message = [](const std::vector<int32_t>& ids, fb::UnionMode mode) {
    RawSchema raw;
    auto children = std::vector{raw.int_field("a"), raw.int_field("b")};
    auto ids_offset = raw.builder.CreateVector(ids);
    auto f = raw.field("u", fb::Type::Union, fb::CreateUnion(raw.builder, mode, ids_offset).Union(),
                       children);
    return raw.finish({f});
  };
  EXPECT_NE(decode_error(union_message({1}, fb::UnionMode::Dense))
                .find("union has 2 children but 1 type ids"),
            std::string::npos);
  EXPECT_NE(decode_error(union_message({1, 128}, fb::UnionMode::Dense))
                .find("union type id 128 of child 1 is not between 0 and 127"),
            std::string::npos);
  EXPECT_NE(decode_error(union_message({-1, 1}, fb::UnionMode::Sparse)).find("type id -1"),
            std::string::npos);
  EXPECT_NE(decode_error(union_message({3, 3}, fb::UnionMode::Sparse)).find("used twice"),
            std::string::npos);
  EXPECT_NE(decode_error(union_message({0, 1}, static_cast<fb::UnionMode>(2)))
                .find("unknown union mode 2"),
            std::string::npos);
  const MessageHeader good = decode(*union_message({9, 4}, fb::UnionMode::Dense));
  EXPECT_EQ(good.schema->schema->field(0)->type()->to_string(),
            "dense_union<a: int32=9, b: int32=4>");
}

TEST(MetadataMalformedTest, RefusesBadTypeParameters) {
  const auto single = [](auto make) {
    RawSchema raw;
    auto [type_type, type] = make(raw.builder);
    return raw.finish({raw.field("f", type_type, type)});
  };
  using B = flatbuffers::FlatBufferBuilder;
  const auto expect_error = [&](auto make, const std::string& expected) {
    const std::string error = decode_error(single(make));
    EXPECT_NE(error.find(expected), std::string::npos) << error;
  };
  expect_error(
      [](B& b) {
        return std::pair{fb::Type::Int, fb::CreateInt(b, 12, true).Union()};
      },
      "integer bit width 12 is not 8, 16, 32 or 64");
  expect_error(
      [](B& b) {
        return std::pair{fb::Type::FloatingPoint,
                         fb::CreateFloatingPoint(b, static_cast<fb::Precision>(3)).Union()};
      },
      "unknown floating point precision 3");
  expect_error(
      [](B& b) {
        return std::pair{fb::Type::Decimal, fb::CreateDecimal(b, 10, 2, 96).Union()};
      },
      "decimal bit width 96");
  expect_error(
      [](B& b) {
        return std::pair{fb::Type::Decimal, fb::CreateDecimal(b, 39, 2, 128).Union()};
      },
      "decimal precision 39 is not between 1 and 38");
  expect_error(
      [](B& b) {
        return std::pair{fb::Type::Decimal, fb::CreateDecimal(b, 0, 0, 32).Union()};
      },
      "decimal precision 0");
  expect_error(
      [](B& b) {
        return std::pair{fb::Type::Decimal, fb::CreateDecimal(b, 5, 6, 64).Union()};
      },
      "decimal scale 6 is larger than its precision 5");
  expect_error(
      [](B& b) {
        return std::pair{fb::Type::Time, fb::CreateTime(b, fb::TimeUnit::NANOSECOND, 32).Union()};
      },
      "time of unit ns has 64 bits, got 32");
  expect_error(
      [](B& b) {
        return std::pair{fb::Type::Timestamp,
                         fb::CreateTimestamp(b, static_cast<fb::TimeUnit>(9)).Union()};
      },
      "unknown time unit 9");
  expect_error(
      [](B& b) {
        return std::pair{fb::Type::Date, fb::CreateDate(b, static_cast<fb::DateUnit>(2)).Union()};
      },
      "unknown date unit 2");
  expect_error(
      [](B& b) {
        return std::pair{fb::Type::Interval,
                         fb::CreateInterval(b, static_cast<fb::IntervalUnit>(3)).Union()};
      },
      "unknown interval unit 3");
  expect_error(
      [](B& b) {
        return std::pair{fb::Type::FixedSizeBinary, fb::CreateFixedSizeBinary(b, -1).Union()};
      },
      "fixed_size_binary width -1 is negative");
  expect_error(
      [](B& b) {
        return std::pair{static_cast<fb::Type>(99), fb::CreateNull(b).Union()};
      },
      "unknown type 99");
  expect_error(
      [](B&) {
        return std::pair{fb::Type::NONE, flatbuffers::Offset<void>()};
      },
      "has no type");
  expect_error(
      [](B&) {
        return std::pair{fb::Type::Int, flatbuffers::Offset<void>()};
      },
      "the Int type table is missing");
}

TEST(MetadataMalformedTest, RefusesBadDictionaries) {
  {
    RawSchema raw;
    auto index = fb::CreateInt(raw.builder, 64, false);
    auto encoding = fb::CreateDictionaryEncoding(raw.builder, 0, index, false,
                                                 static_cast<fb::DictionaryKind>(1));
    auto f =
        raw.field("d", fb::Type::Utf8, fb::CreateUtf8(raw.builder).Union(), {}, true, encoding);
    EXPECT_NE(decode_error(raw.finish({f})).find("unknown dictionary kind 1"), std::string::npos);
  }
  {
    RawSchema raw;
    auto index = fb::CreateInt(raw.builder, 7, false);
    auto encoding = fb::CreateDictionaryEncoding(raw.builder, 0, index);
    auto f =
        raw.field("d", fb::Type::Utf8, fb::CreateUtf8(raw.builder).Union(), {}, true, encoding);
    EXPECT_NE(decode_error(raw.finish({f})).find("'d' dictionary index: integer bit width 7"),
              std::string::npos);
  }
  {
    // Arrow's format reads a missing index type as int32.
    RawSchema raw;
    auto encoding = fb::CreateDictionaryEncoding(raw.builder, 5);
    auto f =
        raw.field("d", fb::Type::Utf8, fb::CreateUtf8(raw.builder).Union(), {}, true, encoding);
    const MessageHeader header = decode(*raw.finish({f}));
    EXPECT_EQ(header.schema->schema->field(0)->type()->to_string(),
              "dictionary<values=string, indices=int32, ordered=0>");
    EXPECT_EQ(header.schema->dictionaries.at(0).id, 5);
  }
  {
    // Two fields may share a dictionary when they agree on its values (Arrow allows it)...
    RawSchema raw;
    auto a = raw.field(
        "a", fb::Type::Utf8, fb::CreateUtf8(raw.builder).Union(), {}, true,
        fb::CreateDictionaryEncoding(raw.builder, 1, fb::CreateInt(raw.builder, 8, true)));
    auto b = raw.field(
        "b", fb::Type::Utf8, fb::CreateUtf8(raw.builder).Union(), {}, true,
        fb::CreateDictionaryEncoding(raw.builder, 1, fb::CreateInt(raw.builder, 16, true)));
    const MessageHeader header = decode(*raw.finish({a, b}));
    ASSERT_EQ(header.schema->dictionaries.size(), 2u);
    EXPECT_EQ(header.schema->dictionaries[1].id, 1);
    EXPECT_EQ(header.schema->dictionaries[1].type->index_type()->id(), TypeId::kInt16);
  }
  {
    // ...but not when they disagree.
    RawSchema raw;
    auto a = raw.field("a", fb::Type::Utf8, fb::CreateUtf8(raw.builder).Union(), {}, true,
                       fb::CreateDictionaryEncoding(raw.builder, 1));
    auto b = raw.field("b", fb::Type::Binary, fb::CreateBinary(raw.builder).Union(), {}, true,
                       fb::CreateDictionaryEncoding(raw.builder, 1));
    EXPECT_NE(decode_error(raw.finish({a, b}))
                  .find("field 1 'b': dictionary id 1 holds binary here but string in an earlier "
                        "field"),
              std::string::npos);
  }
}

TEST(MetadataMalformedTest, RefusesBigEndianAndOldVersions) {
  {
    RawSchema raw;
    EXPECT_NE(decode_error(raw.finish({raw.int_field("a")}, fb::Endianness::Big))
                  .find("big-endian data is not supported"),
              std::string::npos);
  }
  {
    RawSchema raw;
    EXPECT_NE(
        decode_error(raw.finish({}, static_cast<fb::Endianness>(5))).find("unknown endianness 5"),
        std::string::npos);
  }
  {
    RawSchema raw;
    EXPECT_NE(decode_error(raw.finish({}, fb::Endianness::Little, fb::MetadataVersion::V3))
                  .find("metadata version V3, written by Arrow before 0.8; only V4 and V5"),
              std::string::npos);
  }
  {
    RawSchema raw;
    EXPECT_NE(
        decode_error(raw.finish({}, fb::Endianness::Little, static_cast<fb::MetadataVersion>(5)))
            .find("unknown metadata version 5"),
        std::string::npos);
  }
  {
    RawSchema raw;
    const MessageHeader v4 =
        decode(*raw.finish({raw.int_field("a")}, fb::Endianness::Little, fb::MetadataVersion::V4));
    EXPECT_EQ(v4.version, MetadataVersion::kV4);
  }
}

TEST(MetadataMalformedTest, RefusesOtherMessageKinds) {
  flatbuffers::FlatBufferBuilder builder;
  builder.Finish(fb::CreateMessage(builder, fb::MetadataVersion::V5, fb::MessageHeader::Tensor,
                                   fb::CreateTensor(builder).Union()));
  const auto tensor = Buffer::copy_of(builder.GetBufferPointer(), builder.GetSize());
  EXPECT_NE(decode_error(tensor).find("tensor messages are not supported"), std::string::npos);

  builder.Clear();
  builder.Finish(fb::CreateMessage(builder, fb::MetadataVersion::V5));
  const auto none = Buffer::copy_of(builder.GetBufferPointer(), builder.GetSize());
  EXPECT_NE(decode_error(none).find("message has no header"), std::string::npos);

  builder.Clear();
  builder.Finish(
      fb::CreateMessage(builder, fb::MetadataVersion::V5, fb::MessageHeader::RecordBatch));
  const auto missing = Buffer::copy_of(builder.GetBufferPointer(), builder.GetSize());
  EXPECT_NE(decode_error(missing).find("record batch header is missing"), std::string::npos);
}

/// `depth` lists around an int32.
TypePtr nested_lists(int depth) {
  TypePtr type = int32();
  for (int i = 0; i < depth; ++i) {
    type = list(type);
  }
  return type;
}

TEST(MetadataMalformedTest, RefusesDeepNesting) {
  const auto encoded = [](const TypePtr& type) {
    return encode_schema_message({schema({field("deep", type)}), {}});
  };
  EXPECT_NO_THROW(decode(*encoded(nested_lists(kMaxNestingDepth))));
  const std::string error = decode_error(encoded(nested_lists(kMaxNestingDepth + 1)));
  EXPECT_NE(error.find("schema field 0 'deep' child 0 'item'"), std::string::npos) << error;
  EXPECT_NE(error.find("is nested more than 64 levels deep"), std::string::npos) << error;
  // A dictionary's values count as one more level.
  TypePtr dict_nested = dictionary(int8(), nested_lists(kMaxNestingDepth - 1));
  EXPECT_NO_THROW(decode(*encoded(list(dictionary(int8(), nested_lists(kMaxNestingDepth - 2))))));
  EXPECT_THROW(decode(*encoded(list(dict_nested))), FormatError);
  // Far deeper input fails the verifier before any field is read.
  EXPECT_NE(decode_error(encoded(nested_lists(1000))).find("not a valid flatbuffer"),
            std::string::npos);
}

TEST(MetadataMalformedTest, RefusesSharedPartsThatExpandBeyondTheMessage) {
  {
    // A field referenced a thousand times by a struct that is itself referenced a thousand
    // times: a few kilobytes claiming a million fields.
    RawSchema raw;
    const auto leaf = raw.int_field("x");
    const auto wide = raw.field("wide", fb::Type::Struct_, fb::CreateStruct_(raw.builder).Union(),
                                std::vector(1000, leaf));
    const auto top = raw.field("top", fb::Type::Struct_, fb::CreateStruct_(raw.builder).Union(),
                               std::vector(1000, wide));
    const auto message = raw.finish({top});
    EXPECT_LT(message->size(), 16 * 1024);
    EXPECT_NE(decode_error(message).find("more tables than its size allows"), std::string::npos);
  }
  {
    // Few tables, but each of a thousand fields names itself with the same 100 kB string.
    RawSchema raw;
    const auto name = raw.builder.CreateString(std::string(100'000, 'x'));
    const auto type = fb::CreateInt(raw.builder, 32, true).Union();
    std::vector<flatbuffers::Offset<fb::Field>> fields;
    fields.reserve(1000);
    for (int i = 0; i < 1000; ++i) {
      fields.push_back(fb::CreateField(raw.builder, name, true, fb::Type::Int, type));
    }
    const auto message = raw.finish(fields);
    EXPECT_LT(message->size(), 200'000);
    EXPECT_NE(decode_error(message).find("referenced many times over"), std::string::npos);
  }
}

TEST(MetadataMalformedTest, RefusesGarbage) {
  EXPECT_NE(error_message<FormatError>([] { decode_message(nullptr, 0); }).find("empty"),
            std::string::npos);
  const uint8_t zeros[16] = {};
  EXPECT_THROW(decode_message(zeros, 3), FormatError);
  EXPECT_THROW(decode_message(zeros, 16), FormatError);
  EXPECT_THROW(decode_footer(zeros, 16), FormatError);
  const uint8_t* any = zeros;
  EXPECT_THROW(decode_message(any, -5), FormatError);
}

/// Valid messages of every kind, for mutation.
std::vector<std::shared_ptr<Buffer>> sample_messages() {
  const SchemaPtr s =
      schema({field("a", dictionary(int16(), struct_({field("x", dictionary(int8(), utf8()))}))),
              field("m", map(utf8(), list(decimal256(40, 3)), true)),
              field("u", dense_union({field("p", int8()), field("q", utf8_view())}, {3, 9})),
              field("r", run_end_encoded(int32(), timestamp(TimeUnit::kMicro, "UTC"))),
              field("e", extension(fixed_size_list(float16(), 4), "vec", "4")),
              field("t", time64(TimeUnit::kNano), false, {{"k", "v"}})},
             {{"schema", "meta"}});
  RecordBatchHeader batch;
  batch.length = 10;
  batch.nodes = {{10, 0}, {10, 2}, {4, 0}};
  batch.buffers = {{0, 8}, {8, 8}, {16, 40}};
  batch.compression = Compression::kLz4Frame;
  batch.variadic_buffer_counts = {2};
  DictionaryBatchHeader dict{7, true, batch};
  return {encode_schema_message({s, {}}), encode_record_batch_message(batch, 64),
          encode_dictionary_batch_message(dict, 64)};
}

/// Decoding may refuse the bytes, but only with a FormatError.
void expect_decodes_or_refuses(const std::vector<uint8_t>& bytes, bool footer) {
  try {
    if (footer) {
      decode_footer(bytes.data(), static_cast<int64_t>(bytes.size()));
    } else {
      decode_message(bytes.data(), static_cast<int64_t>(bytes.size()));
    }
  } catch (const FormatError&) {
  }
}

TEST(MetadataFuzzTest, MutatedMessagesNeverCrash) {
  std::mt19937_64 rng(20240611);
  std::vector<std::shared_ptr<Buffer>> samples = sample_messages();
  Footer footer;
  footer.schema = {schema({field("a", dictionary(int8(), list(utf8()))), field("b", int64())}), {}};
  footer.dictionaries = {{8, 128, 64}};
  footer.record_batches = {{200, 128, 64}};
  const auto encoded_footer = encode_footer(footer);
  for (int iteration = 0; iteration < 20000; ++iteration) {
    const bool is_footer = iteration % 4 == 3;
    const Buffer& sample = is_footer ? *encoded_footer : *samples[iteration % samples.size()];
    std::vector<uint8_t> bytes(sample.data(), sample.data() + sample.size());
    switch (rng() % 4) {
      case 0:  // flip a few bits
        for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips) {
          bytes[rng() % bytes.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
        }
        break;
      case 1:  // overwrite a byte with an extreme value
        bytes[rng() % bytes.size()] = (rng() % 2) ? 0xFF : 0x80;
        break;
      case 2:  // truncate
        bytes.resize(rng() % bytes.size());
        break;
      default:  // random bytes after a valid root offset
        for (size_t i = 4; i < bytes.size(); ++i) {
          if (rng() % 8 == 0) {
            bytes[i] = static_cast<uint8_t>(rng());
          }
        }
        break;
    }
    expect_decodes_or_refuses(bytes, is_footer);
  }
}

}  // namespace
}  // namespace bowstring::ipc
