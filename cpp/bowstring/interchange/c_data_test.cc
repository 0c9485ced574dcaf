#include "bowstring/interchange/c_data.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/array/validate.h"
#include "bowstring/table/table.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace {
// While set, operator new fails on this thread: for the paths no Allocator reaches, such as
// copying an error message.
thread_local bool fail_operator_new = false;
}  // namespace

void* operator new(std::size_t size) {
  void* memory = fail_operator_new ? nullptr : std::malloc(size == 0 ? 1 : size);
  if (memory == nullptr) {
    throw std::bad_alloc();
  }
  return memory;
}
// Not inlined, so that the compiler does not see a free() of what operator new returned.
__attribute__((noinline)) void operator delete(void* memory) noexcept { std::free(memory); }
__attribute__((noinline)) void operator delete(void* memory, std::size_t) noexcept {
  std::free(memory);
}

namespace bowstring {
namespace {

using testing::error_message;

// Exported structs that release themselves at the end of a test unless they were consumed.
struct CSchema : ArrowSchema {
  CSchema() : ArrowSchema{} {}
  CSchema(const CSchema&) = delete;
  CSchema& operator=(const CSchema&) = delete;
  ~CSchema() {
    if (release != nullptr) {
      release(this);
    }
  }
};

struct CArray : ArrowArray {
  CArray() : ArrowArray{} {}
  CArray(const CArray&) = delete;
  CArray& operator=(const CArray&) = delete;
  ~CArray() {
    if (release != nullptr) {
      release(this);
    }
  }
};

struct CStream : ArrowArrayStream {
  CStream() : ArrowArrayStream{} {}
  CStream(const CStream&) = delete;
  CStream& operator=(const CStream&) = delete;
  ~CStream() {
    if (release != nullptr) {
      release(this);
    }
  }
};

std::string format_of(const TypePtr& type) {
  CSchema schema;
  export_type(*type, &schema);
  return schema.format;
}

Array round_trip(const Array& array, const CDataImportOptions& options = {}) {
  CArray c_array;
  CSchema c_schema;
  export_array(array, &c_array, &c_schema);
  Array imported = import_array(&c_array, &c_schema, options);
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(c_schema.release, nullptr);
  return imported;
}

/// The imported array points at the very bytes of the original, all the way down.
void expect_same_memory(const ArrayData& original, const ArrayData& imported,
                        const std::string& where) {
  ASSERT_EQ(original.buffers.size(), imported.buffers.size()) << where;
  EXPECT_EQ(original.offset, imported.offset) << where;
  for (size_t i = 0; i < original.buffers.size(); ++i) {
    const Buffer* before = original.buffers[i].get();
    const Buffer* after = imported.buffers[i].get();
    ASSERT_EQ(before == nullptr, after == nullptr) << where << " buffer " << i;
    if (before != nullptr && before->size() > 0) {
      EXPECT_EQ(before->data(), after->data()) << where << " buffer " << i;
    }
  }
  ASSERT_EQ(original.children.size(), imported.children.size()) << where;
  for (size_t i = 0; i < original.children.size(); ++i) {
    expect_same_memory(*original.children[i], *imported.children[i],
                       where + " child " + std::to_string(i));
  }
  ASSERT_EQ(original.dictionary == nullptr, imported.dictionary == nullptr) << where;
  if (original.dictionary != nullptr) {
    expect_same_memory(*original.dictionary, *imported.dictionary, where + " dictionary");
  }
}

// --- types --------------------------------------------------------------------------------

TEST(CDataTypes, FormatStrings) {
  EXPECT_EQ(format_of(null()), "n");
  EXPECT_EQ(format_of(boolean()), "b");
  EXPECT_EQ(format_of(int8()), "c");
  EXPECT_EQ(format_of(uint64()), "L");
  EXPECT_EQ(format_of(float16()), "e");
  EXPECT_EQ(format_of(decimal32(9, 2)), "d:9,2,32");
  EXPECT_EQ(format_of(decimal64(18, -3)), "d:18,-3,64");
  EXPECT_EQ(format_of(decimal128(38, 10)), "d:38,10");
  EXPECT_EQ(format_of(decimal256(76, 0)), "d:76,0,256");
  EXPECT_EQ(format_of(date32()), "tdD");
  EXPECT_EQ(format_of(date64()), "tdm");
  EXPECT_EQ(format_of(time32(TimeUnit::kMilli)), "ttm");
  EXPECT_EQ(format_of(time64(TimeUnit::kNano)), "ttn");
  EXPECT_EQ(format_of(timestamp(TimeUnit::kMicro, "Europe/Paris")), "tsu:Europe/Paris");
  EXPECT_EQ(format_of(timestamp(TimeUnit::kSecond)), "tss:");
  EXPECT_EQ(format_of(duration(TimeUnit::kMilli)), "tDm");
  EXPECT_EQ(format_of(month_interval()), "tiM");
  EXPECT_EQ(format_of(day_time_interval()), "tiD");
  EXPECT_EQ(format_of(month_day_nano_interval()), "tin");
  EXPECT_EQ(format_of(large_utf8()), "U");
  EXPECT_EQ(format_of(large_binary()), "Z");
  EXPECT_EQ(format_of(utf8_view()), "vu");
  EXPECT_EQ(format_of(binary_view()), "vz");
  EXPECT_EQ(format_of(fixed_size_binary(42)), "w:42");
  EXPECT_EQ(format_of(list(int32())), "+l");
  EXPECT_EQ(format_of(large_list(int32())), "+L");
  EXPECT_EQ(format_of(list_view(int32())), "+vl");
  EXPECT_EQ(format_of(large_list_view(int32())), "+vL");
  EXPECT_EQ(format_of(fixed_size_list(int32(), 3)), "+w:3");
  EXPECT_EQ(format_of(struct_({field("a", int32())})), "+s");
  EXPECT_EQ(format_of(map(utf8(), int32())), "+m");
  EXPECT_EQ(format_of(dense_union({field("a", int32()), field("b", utf8())}, {5, 7})), "+ud:5,7");
  EXPECT_EQ(format_of(sparse_union({field("a", int32())})), "+us:0");
  EXPECT_EQ(format_of(sparse_union({})), "+us:");
  EXPECT_EQ(format_of(run_end_encoded(int16(), utf8())), "+r");
  EXPECT_EQ(format_of(dictionary(int16(), decimal128(12, 5))), "s");
  EXPECT_EQ(format_of(extension(int64(), "example.ticks")), "l");
}

std::vector<TypePtr> every_type() {
  const FieldVector union_fields{field("a", int32()), field("b", utf8(), false)};
  return {
      null(),
      boolean(),
      int8(),
      uint8(),
      int16(),
      uint16(),
      int32(),
      uint32(),
      int64(),
      uint64(),
      float16(),
      float32(),
      float64(),
      decimal32(9, 2),
      decimal64(18, -3),
      decimal128(38, 10),
      decimal256(76, 0),
      date32(),
      date64(),
      time32(TimeUnit::kSecond),
      time32(TimeUnit::kMilli),
      time64(TimeUnit::kMicro),
      time64(TimeUnit::kNano),
      timestamp(TimeUnit::kSecond),
      timestamp(TimeUnit::kNano, "America/New_York"),
      duration(TimeUnit::kMicro),
      month_interval(),
      day_time_interval(),
      month_day_nano_interval(),
      utf8(),
      large_utf8(),
      binary(),
      large_binary(),
      utf8_view(),
      binary_view(),
      fixed_size_binary(0),
      fixed_size_binary(16),
      list(int32()),
      list(field("element", utf8(), false, {{"k", "v"}})),
      large_list(float64()),
      list_view(int16()),
      large_list_view(utf8()),
      fixed_size_list(field("x", float32(), false), 3),
      struct_({}),
      struct_({field("a", int32()), field("b", list(utf8()), false, {{"doc", "the b column"}})}),
      map(utf8(), int32()),
      map(int64(), list(utf8()), true),
      dictionary(int8(), utf8()),
      dictionary(uint32(), list(int64()), true),
      sparse_union(union_fields, {5, 7}),
      dense_union(union_fields),
      sparse_union({}),
      run_end_encoded(int16(), utf8()),
      run_end_encoded(int64(), struct_({field("x", int8())})),
      extension(int64(), "example.ticks", "unit=ms"),
      extension(struct_({field("lat", float64()), field("lon", float64())}), "geo.point"),
      extension(dictionary(int32(), utf8()), "example.category", std::string("\0\x01", 2)),
      dictionary(int16(), extension(utf8(), "example.json")),
      list(dictionary(int8(), struct_({field("a", dictionary(int8(), utf8()))}))),
  };
}

TEST(CDataTypes, EveryTypeRoundTrips) {
  for (const TypePtr& type : every_type()) {
    CSchema schema;
    export_type(*type, &schema);
    const TypePtr imported = import_type(&schema);
    EXPECT_EQ(schema.release, nullptr);
    EXPECT_TRUE(imported->equals(*type, true))
        << type->to_string() << " came back as " << imported->to_string();
  }
}

TEST(CDataTypes, FieldsKeepNameNullabilityAndMetadata) {
  const FieldPtr original = field("price", decimal128(10, 2), false, {{"unit", "EUR"}, {"a", ""}});
  CSchema schema;
  export_field(*original, &schema);
  EXPECT_STREQ(schema.name, "price");
  EXPECT_EQ(schema.flags, 0);
  const FieldPtr imported = import_field(&schema);
  EXPECT_TRUE(imported->equals(*original, true)) << imported->to_string();
  EXPECT_EQ(imported->metadata(), original->metadata());
}

TEST(CDataTypes, FlagsAndMetadataEncoding) {
  CSchema nullable;
  export_field(*field("a", int32(), true, {{"key1", "value1"}}), &nullable);
  EXPECT_EQ(nullable.flags, ARROW_FLAG_NULLABLE);
  // The specification's own example, on a little-endian machine.
  const std::string expected("\x01\0\0\0\x04\0\0\0key1\x06\0\0\0value1", 22);
  EXPECT_EQ(std::string(nullable.metadata, expected.size()), expected);

  CSchema ordered;
  export_type(*dictionary(int8(), utf8(), true), &ordered);
  EXPECT_EQ(ordered.flags, ARROW_FLAG_NULLABLE | ARROW_FLAG_DICTIONARY_ORDERED);
  ASSERT_NE(ordered.dictionary, nullptr);
  EXPECT_STREQ(ordered.dictionary->format, "u");
  EXPECT_EQ(ordered.metadata, nullptr);

  CSchema sorted;
  export_type(*map(utf8(), int32(), true), &sorted);
  EXPECT_EQ(sorted.flags & ARROW_FLAG_MAP_KEYS_SORTED, ARROW_FLAG_MAP_KEYS_SORTED);
  ASSERT_EQ(sorted.n_children, 1);
  EXPECT_STREQ(sorted.children[0]->name, "entries");
  EXPECT_STREQ(sorted.children[0]->children[0]->name, "key");
  EXPECT_EQ(sorted.children[0]->children[0]->flags & ARROW_FLAG_NULLABLE, 0);
}

TEST(CDataTypes, ExtensionMetadataIsMovedIntoTheStruct) {
  CSchema schema;
  export_field(*field("t", extension(int64(), "example.ticks", "unit=ms"), true, {{"x", "y"}}),
               &schema);
  EXPECT_STREQ(schema.format, "l");
  const std::string expected =
      std::string("\x03\0\0\0", 4) + std::string("\x01\0\0\0x\x01\0\0\0y", 10) +
      std::string("\x14\0\0\0", 4) + "ARROW:extension:name" + std::string("\x0d\0\0\0", 4) +
      "example.ticks" + std::string("\x18\0\0\0", 4) + "ARROW:extension:metadata" +
      std::string("\x07\0\0\0", 4) + "unit=ms";
  EXPECT_EQ(std::string(schema.metadata, expected.size()), expected);
  const FieldPtr imported = import_field(&schema);
  // The extension keys become the type again; the rest stays field metadata.
  EXPECT_EQ(imported->type()->id(), TypeId::kExtension);
  EXPECT_EQ(imported->metadata(), (Metadata{{"x", "y"}}));
}

TEST(CDataTypes, ExtensionOverDictionaryIsADictionaryWithTheExtensionKeys) {
  // As Arrow exports it: the index format with the dictionary's flags, the values in the
  // dictionary member, and the extension keys on the field itself.
  const TypePtr category = extension(dictionary(int8(), utf8(), true), "example.category", "v1");
  CSchema schema;
  export_field(*field("c", category, true, {{"x", "y"}}), &schema);
  EXPECT_STREQ(schema.format, "c");
  EXPECT_EQ(schema.flags, ARROW_FLAG_NULLABLE | ARROW_FLAG_DICTIONARY_ORDERED);
  EXPECT_EQ(schema.n_children, 0);
  ASSERT_NE(schema.dictionary, nullptr);
  EXPECT_STREQ(schema.dictionary->format, "u");
  EXPECT_EQ(schema.dictionary->metadata, nullptr);
  const std::string expected =
      std::string("\x03\0\0\0", 4) + std::string("\x01\0\0\0x\x01\0\0\0y", 10) +
      std::string("\x14\0\0\0", 4) + "ARROW:extension:name" + std::string("\x10\0\0\0", 4) +
      "example.category" + std::string("\x18\0\0\0", 4) + "ARROW:extension:metadata" +
      std::string("\x02\0\0\0", 4) + "v1";
  EXPECT_EQ(std::string(schema.metadata, expected.size()), expected);
  const FieldPtr imported = import_field(&schema);
  EXPECT_TRUE(imported->type()->equals(*category)) << imported->type()->to_string();
  EXPECT_EQ(imported->metadata(), (Metadata{{"x", "y"}}));

  // Likewise as a struct's child.
  const SchemaPtr nested = bowstring::schema({field("s", struct_({field("c", category)}))});
  CSchema c_schema;
  export_schema(*nested, &c_schema);
  const ArrowSchema& child = *c_schema.children[0]->children[0];
  EXPECT_STREQ(child.format, "c");
  ASSERT_NE(child.dictionary, nullptr);
  EXPECT_STREQ(child.dictionary->format, "u");
  const SchemaPtr imported_schema = import_schema(&c_schema);
  EXPECT_TRUE(imported_schema->equals(*nested, true)) << imported_schema->to_string();
}

TEST(CDataTypes, SchemasRoundTripWithMetadata) {
  const SchemaPtr original = schema({field("id", int64(), false), field("tags", list(utf8())),
                                     field("t", timestamp(TimeUnit::kMicro, "UTC"))},
                                    {{"origin", "test"}});
  CSchema c_schema;
  export_schema(*original, &c_schema);
  EXPECT_STREQ(c_schema.format, "+s");
  const SchemaPtr imported = import_schema(&c_schema);
  EXPECT_TRUE(imported->equals(*original, true)) << imported->to_string();
}

TEST(CDataTypes, ReadingDoesNotTakeOwnership) {
  CSchema c_schema;
  export_schema(*schema({field("a", int32())}), &c_schema);
  EXPECT_EQ(read_schema(c_schema)->num_fields(), 1);
  EXPECT_NE(c_schema.release, nullptr);
  EXPECT_EQ(read_type(c_schema)->id(), TypeId::kStruct);
  EXPECT_EQ(read_field(c_schema)->type()->num_fields(), 1);
  EXPECT_NE(c_schema.release, nullptr);
}

TEST(CDataTypes, ASchemaMustBeAStruct) {
  CSchema c_schema;
  export_type(*int32(), &c_schema);
  const std::string message = error_message<FormatError>([&] { import_schema(&c_schema); });
  EXPECT_NE(message.find("format 'i'"), std::string::npos) << message;
  EXPECT_EQ(c_schema.release, nullptr);
}

// --- arrays -------------------------------------------------------------------------------

TEST(CDataArrays, EverySampleRoundTripsWithoutCopying) {
  for (const auto& [name, array] : testing::sample_arrays()) {
    SCOPED_TRACE(name);
    const Array imported = round_trip(array, {.validate_full = true});
    EXPECT_TRUE(imported.type()->equals(*array.type(), true)) << imported.type()->to_string();
    EXPECT_TRUE(imported.equals(array)) << imported.to_string() << " vs " << array.to_string();
    EXPECT_EQ(imported.null_count(), array.null_count());
    expect_same_memory(*array.data(), *imported.data(), name);
  }
}

TEST(CDataArrays, ExtensionAndNestedDictionaries) {
  const Array words = testing::strings({"x", "y", "z"});
  const Array categories =
      testing::dictionary_of(dictionary(int32(), utf8()), {2, std::nullopt, 0}, words);
  const TypePtr extension_type = extension(categories.type(), "example.category");
  auto extension_data = std::make_shared<ArrayData>(*categories.data());
  extension_data->type = extension_type;
  const Array extension_array(extension_data);
  const Array list_of_dictionaries =
      testing::list_of(list(categories.type()), {0, 2, 3}, categories);
  const Array struct_of_extensions = testing::struct_of(
      struct_({field("c", extension_type)}), extension_array.length(), {extension_array});

  CArray c_array;
  export_array(extension_array, &c_array);
  EXPECT_EQ(c_array.n_buffers, 2);
  EXPECT_EQ(c_array.n_children, 0);
  ASSERT_NE(c_array.dictionary, nullptr);
  EXPECT_EQ(c_array.dictionary->length, 3);
  EXPECT_EQ(c_array.dictionary->n_buffers, 3);

  for (const Array& array : {extension_array, list_of_dictionaries, struct_of_extensions}) {
    const Array imported = round_trip(array, {.validate_full = true});
    EXPECT_TRUE(imported.type()->equals(*array.type()));
    EXPECT_TRUE(imported.equals(array)) << imported.to_string();
    expect_same_memory(*array.data(), *imported.data(), array.type()->to_string());
  }
}

TEST(CDataArrays, BuffersFollowTheCLayout) {
  CArray nulls;
  export_array(testing::make_array(null(), 3, {nullptr}), &nulls);
  EXPECT_EQ(nulls.n_buffers, 0);
  EXPECT_EQ(nulls.null_count, 3);

  const FieldVector union_fields{field("a", int32()), field("b", utf8())};
  CArray sparse;
  export_array(testing::sparse_union_of(sparse_union(union_fields), {0, 1},
                                        {testing::int32s({1, 2}), testing::strings({"a", "b"})}),
               &sparse);
  EXPECT_EQ(sparse.n_buffers, 1);
  EXPECT_EQ(sparse.n_children, 2);

  CArray dense;
  export_array(testing::dense_union_of(dense_union(union_fields), {0, 1}, {0, 0},
                                       {testing::int32s({1}), testing::strings({"a"})}),
               &dense);
  EXPECT_EQ(dense.n_buffers, 2);

  CArray runs;
  export_array(testing::run_end_encoded_of(run_end_encoded(int32(), int64()), {2, 5},
                                           testing::int64s({1, 2})),
               &runs);
  EXPECT_EQ(runs.n_buffers, 0);
  EXPECT_EQ(runs.n_children, 2);

  const Array views = testing::views({"short", "a string longer than twelve", "another long one!"},
                                     utf8_view(), 32);
  CArray c_views;
  export_array(views, &c_views);
  const int64_t data_buffers = static_cast<int64_t>(views.data()->buffers.size()) - 2;
  ASSERT_GT(data_buffers, 0);
  EXPECT_EQ(c_views.n_buffers, 2 + data_buffers + 1);
  const auto* sizes = static_cast<const int64_t*>(c_views.buffers[c_views.n_buffers - 1]);
  for (int64_t i = 0; i < data_buffers; ++i) {
    EXPECT_EQ(sizes[i], views.data()->buffers[static_cast<size_t>(2 + i)]->size());
  }
}

TEST(CDataArrays, OffsetsAndNullCountsAreExportedAsTheyAre) {
  const Array ints = testing::int64s({0, 1, std::nullopt, 3, 4, 5});
  ASSERT_EQ(ints.null_count(), 1);
  const Array slice = ints.slice(1, 4);
  CArray c_array;
  export_array(slice, &c_array);
  EXPECT_EQ(c_array.offset, 1);
  EXPECT_EQ(c_array.length, 4);
  EXPECT_EQ(c_array.null_count, -1);  // the slice's nulls were never counted
  EXPECT_EQ(c_array.buffers[1], ints.data()->buffers[1]->data());

  CArray counted;
  export_array(ints, &counted);
  EXPECT_EQ(counted.null_count, 1);
  CArray no_nulls;
  export_array(testing::int64s({1, 2}), &no_nulls);
  EXPECT_EQ(no_nulls.null_count, 0);
  EXPECT_EQ(no_nulls.buffers[0], nullptr);
}

TEST(CDataArrays, RecordBatchesRoundTrip) {
  const SchemaPtr batch_schema =
      schema({field("id", int64(), false), field("name", utf8())}, {{"source", "test"}});
  const RecordBatch batch(batch_schema, {testing::int64s({1, 2, 3, 4}),
                                         testing::strings({"a", std::nullopt, "c", "d"})});
  for (const RecordBatch& original : {batch, batch.slice(1, 2)}) {
    CArray c_array;
    CSchema c_schema;
    export_record_batch(original, &c_array, &c_schema);
    EXPECT_STREQ(c_schema.format, "+s");
    EXPECT_EQ(c_array.n_children, 2);
    const RecordBatch imported = import_record_batch(&c_array, &c_schema);
    EXPECT_TRUE(imported.equals(original, true)) << imported.to_string();
    EXPECT_EQ(imported.column(1).data()->buffers[2]->data(),
              original.column(1).data()->buffers[2]->data());
  }
}

TEST(CDataArrays, StructOffsetsSliceTheImportedColumns) {
  const TypePtr type = struct_({field("a", int32()), field("b", utf8())});
  const Array rows = testing::struct_of(
      type, 4, {testing::int32s({1, 2, 3, 4}), testing::strings({"w", "x", "y", "z"})});
  CArray c_array;
  export_array(rows.slice(1, 2), &c_array);
  const RecordBatch batch =
      import_record_batch(&c_array, schema({field("a", int32()), field("b", utf8())}));
  EXPECT_EQ(batch.num_rows(), 2);
  EXPECT_TRUE(batch.column(1).equals(testing::strings({"x", "y"})));
}

TEST(CDataArrays, RecordBatchesCannotHaveNullRows) {
  const TypePtr type = struct_({field("a", int32())});
  const Array rows = testing::struct_of(type, 2, {testing::int32s({1, 2})}, {true, false});
  CArray c_array;
  export_array(rows, &c_array);
  const std::string message = error_message<FormatError>(
      [&] { import_record_batch(&c_array, schema({field("a", int32())})); });
  EXPECT_NE(message.find("null rows"), std::string::npos) << message;
  EXPECT_EQ(c_array.release, nullptr);
}

TEST(CDataArrays, FullValidationIsAnOption) {
  // "\xff" is not UTF-8: structurally fine, wrong in value.
  const Array bad_utf8 = testing::strings({"ok", "\xff"}, utf8());
  EXPECT_NO_THROW(round_trip(bad_utf8));
  const std::string message =
      error_message<FormatError>([&] { round_trip(bad_utf8, {.validate_full = true}); });
  EXPECT_NE(message.find("UTF-8"), std::string::npos) << message;
}

// --- release semantics --------------------------------------------------------------------

TEST(CDataRelease, ReleasingAnExportFreesEverything) {
  const int64_t before = default_allocator()->bytes_in_use();
  {
    CArray c_array;
    CSchema c_schema;
    {
      const Array array =
          testing::list_of(list(utf8()), {0, 2, 3}, testing::strings({"a", "b", std::nullopt}));
      export_array(array, &c_array, &c_schema);
    }
    // The export alone keeps the data alive.
    EXPECT_GT(default_allocator()->bytes_in_use(), before);
    c_array.release(&c_array);
    c_schema.release(&c_schema);
    EXPECT_EQ(c_array.release, nullptr);
    EXPECT_EQ(c_schema.release, nullptr);
  }
  EXPECT_EQ(default_allocator()->bytes_in_use(), before);
}

TEST(CDataRelease, MovedStructsAndChildren) {
  const TypePtr type = struct_({field("a", int32()), field("b", utf8())});
  const Array rows = testing::struct_of(
      type, 3, {testing::int32s({1, std::nullopt, 3}), testing::strings({"x", "y", "z"})});
  CArray moved;
  {
    CArray original;
    export_array(rows, &original);
    // A bitwise move: the source is marked released without calling its callback.
    std::memcpy(static_cast<ArrowArray*>(&moved), static_cast<ArrowArray*>(&original),
                sizeof(ArrowArray));
    original.release = nullptr;
  }
  // Keep only child 1: move it out, then release the parent.
  CArray child;
  std::memcpy(static_cast<ArrowArray*>(&child), moved.children[1], sizeof(ArrowArray));
  moved.children[1]->release = nullptr;
  moved.release(&moved);
  const Array imported = import_array(&child, utf8());
  EXPECT_TRUE(imported.equals(testing::strings({"x", "y", "z"})));
}

TEST(CDataRelease, ImportedDataOutlivesTheExporter) {
  Array imported;
  {
    CArray c_array;
    CSchema c_schema;
    export_array(testing::strings({"kept", std::nullopt, "alive"}), &c_array, &c_schema);
    imported = import_array(&c_array, &c_schema);
  }
  EXPECT_TRUE(imported.equals(testing::strings({"kept", std::nullopt, "alive"})));
}

// A C producer's int32 array that counts how often it is released.
struct CountingProducer {
  std::vector<int32_t> values{1, 2, 3, 4};
  const void* buffers[2] = {nullptr, nullptr};
  int releases = 0;

  ArrowArray make() {
    buffers[1] = values.data();
    ArrowArray array{};
    array.length = static_cast<int64_t>(values.size());
    array.n_buffers = 2;
    array.buffers = buffers;
    array.release = [](ArrowArray* self) {
      ++static_cast<CountingProducer*>(self->private_data)->releases;
      self->release = nullptr;
    };
    array.private_data = this;
    return array;
  }
};

TEST(CDataRelease, ImportReleasesOnceWhenTheLastBufferGoes) {
  CountingProducer producer;
  ArrowArray c_array = producer.make();
  std::optional<Array> imported = import_array(&c_array, int32());
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(imported->data()->buffers[1]->data(),
            reinterpret_cast<const uint8_t*>(producer.values.data()));
  std::optional<Array> slice = imported->slice(1, 2);
  std::shared_ptr<Buffer> values = imported->data()->buffers[1];
  imported.reset();
  slice.reset();
  // One buffer still uses the producer's memory.
  EXPECT_EQ(producer.releases, 0);
  values.reset();
  EXPECT_EQ(producer.releases, 1);
}

TEST(CDataRelease, FailedImportsReleaseOnce) {
  CountingProducer producer;
  ArrowArray c_array = producer.make();
  c_array.n_buffers = 1;
  EXPECT_THROW(import_array(&c_array, int32()), FormatError);
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(producer.releases, 1);

  // An unusable schema still consumes the array given with it.
  CountingProducer second;
  ArrowArray c_second = second.make();
  ArrowSchema released_schema{};
  EXPECT_THROW(import_array(&c_second, &released_schema), InvalidArgument);
  EXPECT_EQ(second.releases, 1);
}

TEST(CDataRelease, ReleasedOrNullStructsAreRejected) {
  ArrowArray released{};
  EXPECT_NE(error_message<InvalidArgument>([&] {
              import_array(&released, int32());
            }).find("already been released"),
            std::string::npos);
  EXPECT_NE(error_message<InvalidArgument>([&] { import_array(nullptr, int32()); }).find("null"),
            std::string::npos);
  ArrowSchema schema{};
  EXPECT_THROW(import_type(&schema), InvalidArgument);
  ArrowArrayStream stream{};
  EXPECT_THROW(import_reader(&stream), InvalidArgument);
}

// --- malformed input ----------------------------------------------------------------------

std::string format_error(const char* format, int64_t n_children = 0) {
  std::vector<ArrowSchema> child_structs(static_cast<size_t>(n_children));
  std::vector<ArrowSchema*> children;
  for (ArrowSchema& child : child_structs) {
    child = ArrowSchema{};
    child.format = "i";
    child.release = [](ArrowSchema* self) { self->release = nullptr; };
    children.push_back(&child);
  }
  ArrowSchema schema{};
  schema.format = format;
  schema.n_children = n_children;
  schema.children = children.empty() ? nullptr : children.data();
  schema.release = [](ArrowSchema* self) {
    for (int64_t i = 0; i < self->n_children; ++i) {
      self->children[i]->release(self->children[i]);
    }
    self->release = nullptr;
  };
  return error_message<FormatError>([&] { import_type(&schema); });
}

TEST(CDataMalformed, FormatStringsNameTheFormatAndPosition) {
  EXPECT_EQ(format_error(""),
            "malformed format string '' at position 0 of ArrowSchema: the format "
            "string is empty");
  EXPECT_EQ(format_error("x"),
            "malformed format string 'x' at position 0 of ArrowSchema: unknown format");
  EXPECT_EQ(format_error("ii"),
            "malformed format string 'ii' at position 1 of ArrowSchema: "
            "unexpected characters after a complete format");
  EXPECT_EQ(format_error("d:12"),
            "malformed format string 'd:12' at position 4 of ArrowSchema: "
            "the format string ends too early");
  EXPECT_EQ(format_error("d:12,2,100"),
            "malformed format string 'd:12,2,100' at position 7 of ArrowSchema: decimal bit width "
            "must be 32, 64, 128 or 256, got 100");
  EXPECT_EQ(format_error("w:"),
            "malformed format string 'w:' at position 2 of ArrowSchema: "
            "expected the byte width (a decimal integer)");
  EXPECT_EQ(format_error("w:99999999999"),
            "malformed format string 'w:99999999999' at position 2 of ArrowSchema: the byte width "
            "does not fit a 32-bit integer");
  EXPECT_EQ(format_error("tsu"),
            "malformed format string 'tsu' at position 3 of ArrowSchema: the "
            "format string ends too early");
  EXPECT_EQ(format_error("tx"),
            "malformed format string 'tx' at position 1 of ArrowSchema: "
            "unknown temporal format");
  EXPECT_EQ(format_error("+ud:1,200", 2),
            "malformed format string '+ud:1,200' at position 6 of ArrowSchema: union type code "
            "must be between 0 and 127, got 200");
  EXPECT_EQ(format_error("+w:-2", 1),
            "malformed format string '+w:-2' at position 5 of "
            "ArrowSchema: the list size must not be negative");
  // Parameters the types reject.
  EXPECT_NE(format_error("d:99,2").find("precision"), std::string::npos);
  EXPECT_NE(format_error("w:-1").find("fixed_size_binary width"), std::string::npos);
}

TEST(CDataMalformed, NamesMustBeUtf8) {
  // The specification wants names in UTF-8; the error escapes the bad bytes, since it is text.
  CSchema c_schema;
  export_field(*field("s", struct_({field("ok", int32()), field("b", utf8())})), &c_schema);
  static const char kBadName[] = "b\xff";
  c_schema.children[1]->name = kBadName;
  EXPECT_EQ(error_message<FormatError>([&] { import_field(&c_schema); }),
            "ArrowSchema.children[1]('b\\xff') has name 'b\\xff', which is not valid UTF-8 (byte "
            "1 of 2)");

  // So must extension names, which name a type; other metadata values are bytes.
  CSchema extension_schema;
  export_type(*int32(), &extension_schema);
  const std::string key = "ARROW:extension:name";
  std::string metadata("\x01\0\0\0", 4);
  metadata += std::string(1, static_cast<char>(key.size())) + std::string(3, '\0') + key;
  metadata += std::string("\x01\0\0\0\xfe", 5);
  extension_schema.metadata = metadata.data();
  EXPECT_EQ(error_message<FormatError>([&] { import_type(&extension_schema); }),
            "ArrowSchema has extension name '\\xfe', which is not valid UTF-8");
}

TEST(CDataTypes, MetadataIsBytesButNamesAreUtf8) {
  // Metadata keys and values are bytes in the C data interface, kept as they are.
  const std::string binary("\xff\x00\x80", 3);
  const FieldPtr original = field("caf\xc3\xa9", int32(), true, {{binary, binary}});
  CSchema schema;
  export_field(*original, &schema);
  const FieldPtr imported = import_field(&schema);
  EXPECT_TRUE(imported->equals(*original, true));

  CSchema refused;
  EXPECT_EQ(error_message<InvalidArgument>([&] {
              export_field(*field("s", struct_({field("\xc0\xaf", int32())})), &refused);
            }),
            "field name '\\xc0\\xaf' is not valid UTF-8, which the C data interface requires of "
            "names");
  EXPECT_EQ(refused.release, nullptr);
}

TEST(CDataMalformed, ChildCounts) {
  EXPECT_EQ(format_error("+l"), "ArrowSchema with format '+l' takes 1 child, got 0");
  EXPECT_EQ(format_error("+r", 1), "ArrowSchema with format '+r' takes 2 children, got 1");
  EXPECT_EQ(format_error("+ud:0,1", 1),
            "ArrowSchema with format '+ud:0,1' takes 2 children, got 1");
  EXPECT_EQ(format_error("i", 1), "ArrowSchema with format 'i' takes 0 children, got 1");
  // run ends must be integers of 16, 32 or 64 bits; our test children are int32, so use a map.
  EXPECT_NE(format_error("+m", 1).find("a struct of a key and an item"), std::string::npos);
}

TEST(CDataMalformed, DictionaryIndicesMustBeIntegers) {
  CSchema c_schema;
  export_type(*dictionary(int8(), utf8()), &c_schema);
  c_schema.format = "u";
  const std::string message = error_message<FormatError>([&] { import_type(&c_schema); });
  EXPECT_NE(message.find("must be an integer index type"), std::string::npos) << message;
}

TEST(CDataMalformed, NestingDepthIsLimited) {
  TypePtr deep = int32();
  for (int i = 0; i <= kMaxNestingDepth; ++i) {
    deep = list(deep);
  }
  CSchema c_schema;
  export_type(*deep, &c_schema);
  const std::string message = error_message<FormatError>([&] { import_type(&c_schema); });
  EXPECT_NE(message.find("nested more than 64 levels deep"), std::string::npos) << message;

  TypePtr allowed = int32();
  for (int i = 0; i < kMaxNestingDepth; ++i) {
    allowed = list(allowed);
  }
  CSchema ok;
  export_type(*allowed, &ok);
  EXPECT_TRUE(import_type(&ok)->equals(*allowed));
}

TEST(CDataMalformed, BadArrayStructs) {
  const auto import_tampered = [](const Array& array, auto tamper) {
    CArray c_array;
    export_array(array, &c_array);
    tamper(c_array);
    std::string message = error_message<FormatError>([&] { import_array(&c_array, array.type()); });
    EXPECT_EQ(c_array.release, nullptr);
    return message;
  };
  const Array strings = testing::strings({"a", std::nullopt, "ccc"});
  ASSERT_EQ(strings.null_count(), 1);  // counted, so the export carries it
  EXPECT_EQ(import_tampered(strings, [](ArrowArray& a) { a.n_buffers = 2; }),
            "ArrowArray of type string has 2 buffers, expected 3");
  EXPECT_EQ(import_tampered(strings, [](ArrowArray& a) { a.buffers[1] = nullptr; }),
            "ArrowArray.buffers[1] (offsets) is null but 16 bytes are needed");
  EXPECT_EQ(import_tampered(strings, [](ArrowArray& a) { a.buffers[0] = nullptr; }),
            "ArrowArray.buffers[0] (validity) is null but null_count is 1");
  EXPECT_EQ(import_tampered(strings, [](ArrowArray& a) { a.length = -1; }),
            "ArrowArray has length -1 and offset 0; both must be non-negative");
  EXPECT_EQ(import_tampered(strings, [](ArrowArray& a) { a.null_count = 4; }),
            "ArrowArray has null_count 4, outside [-1, length 3]");
  EXPECT_EQ(import_tampered(strings, [](ArrowArray& a) { a.offset = INT64_MAX; }),
            "ArrowArray: offset 9223372036854775807 + length 3 overflows");

  const Array lists = testing::list_of(list(int64()), {0, 2, 3}, testing::int64s({1, 2, 3}));
  EXPECT_EQ(import_tampered(lists, [](ArrowArray& a) { a.n_children = 0; }),
            "ArrowArray of type list<item: int64> has 0 children, expected 1");
  EXPECT_EQ(import_tampered(lists, [](ArrowArray& a) { a.children[0]->n_buffers = 3; }),
            "ArrowArray.children[0]('item') of type int64 has 3 buffers, expected 2");
  // The child holds fewer values than the offsets reach: structural validation names it.
  EXPECT_NE(import_tampered(lists, [](ArrowArray& a) { a.children[0]->length = 2; })
                .find("past the end of the child"),
            std::string::npos);

  const Array codes =
      testing::dictionary_of(dictionary(int8(), utf8()), {0, 1}, testing::strings({"x", "y"}));
  EXPECT_EQ(import_tampered(codes, [](ArrowArray& a) { a.dictionary = nullptr; }),
            "ArrowArray of type dictionary<values=string, indices=int8, ordered=0> has no "
            "dictionary");

  const Array views = testing::views({"a string longer than twelve"});
  EXPECT_EQ(import_tampered(views, [](ArrowArray& a) { a.buffers[a.n_buffers - 1] = nullptr; }),
            "ArrowArray.buffers[3] (variadic buffer sizes) is null but there are 1 data buffers");
}

TEST(CDataMalformed, ReleasedChildren) {
  const Array lists = testing::list_of(list(int64()), {0, 2, 3}, testing::int64s({1, 2, 3}));
  CArray c_array;
  export_array(lists, &c_array);
  // A child moved out (and so marked released) leaves the parent unusable.
  CArray child;
  std::memcpy(static_cast<ArrowArray*>(&child), c_array.children[0], sizeof(ArrowArray));
  c_array.children[0]->release = nullptr;
  EXPECT_EQ(error_message<FormatError>([&] { import_array(&c_array, lists.type()); }),
            "ArrowArray.children[0]('item') has been released");
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_NE(child.release, nullptr);
}

TEST(CDataMalformed, EmptyArraysMayOmitBuffers) {
  // Some producers leave every buffer of an empty array null, offsets included.
  const void* buffers[3] = {nullptr, nullptr, nullptr};
  ArrowArray c_array{};
  c_array.n_buffers = 3;
  c_array.buffers = buffers;
  c_array.release = [](ArrowArray* self) { self->release = nullptr; };
  const Array imported = import_array(&c_array, utf8(), {.validate_full = true});
  EXPECT_EQ(imported.length(), 0);
  EXPECT_TRUE(imported.equals(testing::strings({})));
}

// --- streams ------------------------------------------------------------------------------

Table three_batch_table() {
  const SchemaPtr table_schema =
      schema({field("id", int64()), field("name", utf8())}, {{"origin", "stream test"}});
  return Table::from_batches(
      table_schema,
      {RecordBatch(table_schema, {testing::int64s({1, 2}), testing::strings({"a", "b"})}),
       RecordBatch(table_schema, {testing::int64s({3}), testing::strings({std::nullopt})}),
       RecordBatch(table_schema, {testing::int64s({4, 5, 6}), testing::strings({"d", "e", "f"})})});
}

TEST(CDataStreams, ReadersRoundTrip) {
  const Table table = three_batch_table();
  CStream stream;
  export_reader(std::make_shared<TableBatchReader>(table), &stream);
  std::unique_ptr<RecordBatchReader> reader = import_reader(&stream);
  EXPECT_EQ(stream.release, nullptr);
  EXPECT_TRUE(reader->schema()->equals(*table.schema(), true));
  const Table read = reader->read_all();
  EXPECT_TRUE(read.equals(table, true)) << read.to_string();
  EXPECT_EQ(read.column(0).num_chunks(), 3);
  EXPECT_EQ(read.column(1).chunk(2).data()->buffers[2]->data(),
            table.column(1).chunk(2).data()->buffers[2]->data());
  EXPECT_FALSE(reader->next().has_value());
}

TEST(CDataStreams, ChunkedArraysRoundTrip) {
  const ChunkedArray chunks(utf8(), {testing::strings({"a", std::nullopt}), testing::strings({}),
                                     testing::strings({"b"})});
  CStream stream;
  export_chunked_array(chunks, &stream);
  const ChunkedArray imported = import_chunked_array(&stream);
  EXPECT_EQ(imported.num_chunks(), 3);
  EXPECT_TRUE(imported.equals(chunks));

  CStream empty;
  export_chunked_array(ChunkedArray(int32(), {}), &empty);
  const ChunkedArray none = import_chunked_array(&empty);
  EXPECT_EQ(none.num_chunks(), 0);
  EXPECT_TRUE(none.type()->equals(*int32()));
}

// Yields one batch of `table`, then throws `error`.
template <typename Error>
class FailingReader final : public RecordBatchReader {
 public:
  explicit FailingReader(std::string message) : message_(std::move(message)) {}
  SchemaPtr schema() const override { return table_.schema(); }
  std::optional<RecordBatch> next() override {
    if (calls_++ == 0) {
      return table_.to_batches()[0];
    }
    throw Error(message_);
  }

 private:
  Table table_ = three_batch_table();
  std::string message_;
  int calls_ = 0;
};

TEST(CDataStreams, ExportedReadersReportErrorsThroughGetLastError) {
  CStream stream;
  export_reader(std::make_shared<FailingReader<FormatError>>("bad message 3"), &stream);
  CArray first;
  ASSERT_EQ(stream.get_next(&stream, &first), 0);
  EXPECT_NE(first.release, nullptr);
  CArray second;
  EXPECT_EQ(stream.get_next(&stream, &second), EINVAL);
  EXPECT_STREQ(stream.get_last_error(&stream), "bad message 3");
  EXPECT_EQ(second.release, nullptr);
  // The error sticks: the reader is not asked again.
  EXPECT_EQ(stream.get_next(&stream, &second), EINVAL);

  CStream out_of_memory;
  export_reader(std::make_shared<FailingReader<OutOfMemory>>("budget exceeded"), &out_of_memory);
  CArray ignored;
  ASSERT_EQ(out_of_memory.get_next(&out_of_memory, &ignored), 0);
  CArray failed;
  EXPECT_EQ(out_of_memory.get_next(&out_of_memory, &failed), ENOMEM);
}

// Throws an error whose message cannot be copied: memory runs out as it is thrown.
class ErrorWithoutMemoryReader final : public RecordBatchReader {
 public:
  SchemaPtr schema() const override { return schema_; }
  std::optional<RecordBatch> next() override {
    const FormatError error(std::string(200, 'x'));
    fail_operator_new = true;
    throw error;
  }

 private:
  SchemaPtr schema_ = bowstring::schema({field("a", int32())});
};

TEST(CDataStreams, ErrorsAreReportedEvenWhenTheirMessageCannotBeKept) {
  // Copying the message into the stream used to let bad_alloc out of a noexcept callback.
  CStream stream;
  export_reader(std::make_shared<ErrorWithoutMemoryReader>(), &stream);
  CArray out;
  const int code = stream.get_next(&stream, &out);
  fail_operator_new = false;
  EXPECT_EQ(code, EINVAL);
  EXPECT_STREQ(stream.get_last_error(&stream), "out of memory (while keeping the error message)");
  EXPECT_EQ(out.release, nullptr);
}

TEST(CDataStreams, ImportedReadersThrowTheProducersError) {
  CStream stream;
  export_reader(std::make_shared<FailingReader<FormatError>>("bad message 3"), &stream);
  std::unique_ptr<RecordBatchReader> reader = import_reader(&stream);
  EXPECT_TRUE(reader->next().has_value());
  const std::string message = error_message<InvalidArgument>([&] { reader->next(); });
  EXPECT_EQ(message, "the C stream producer failed in get_next with error EINVAL: bad message 3");
  // Later calls report the same error.
  EXPECT_EQ(error_message<InvalidArgument>([&] { reader->next(); }), message);

  CStream memory;
  export_reader(std::make_shared<FailingReader<OutOfMemory>>("budget exceeded"), &memory);
  std::unique_ptr<RecordBatchReader> memory_reader = import_reader(&memory);
  memory_reader->next();
  EXPECT_THROW(memory_reader->next(), OutOfMemory);

  CStream io;
  export_reader(std::make_shared<FailingReader<IoError>>("disk gone"), &io);
  std::unique_ptr<RecordBatchReader> io_reader = import_reader(&io);
  io_reader->next();
  EXPECT_THROW(io_reader->next(), IoError);
}

TEST(CDataStreams, StreamSchemasMustBeStructs) {
  CStream stream;
  export_chunked_array(ChunkedArray(int32(), {}), &stream);
  const std::string message = error_message<FormatError>([&] { import_reader(&stream); });
  EXPECT_NE(message.find("not a schema"), std::string::npos) << message;
  EXPECT_EQ(stream.release, nullptr);
}

TEST(CDataStreams, StreamsAreReleasedWithTheReader) {
  const int64_t before = default_allocator()->bytes_in_use();
  {
    CStream stream;
    export_reader(std::make_shared<TableBatchReader>(three_batch_table()), &stream);
    std::unique_ptr<RecordBatchReader> reader = import_reader(&stream);
    EXPECT_TRUE(reader->next().has_value());
    // The exported reader holds the table until the stream is released with the reader.
    EXPECT_GT(default_allocator()->bytes_in_use(), before);
  }
  EXPECT_EQ(default_allocator()->bytes_in_use(), before);
}

}  // namespace
}  // namespace bowstring
