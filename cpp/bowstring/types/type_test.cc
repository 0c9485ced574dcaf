#include "bowstring/types/type.h"
#include "bowstring/types/type_hash.h"

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "bowstring/util/error.h"

namespace bowstring {
namespace {

TEST(TypeTest, PrimitiveNamesAndWidths) {
  EXPECT_EQ(int32()->to_string(), "int32");
  EXPECT_EQ(utf8()->to_string(), "string");
  EXPECT_EQ(float16()->bit_width(), 16);
  EXPECT_EQ(boolean()->bit_width(), 1);
  EXPECT_EQ(boolean()->byte_width(), 0);
  EXPECT_EQ(month_day_nano_interval()->byte_width(), 16);
  EXPECT_EQ(utf8()->bit_width(), 0);
  EXPECT_EQ(int64(), int64()) << "parameterless types are singletons";
  EXPECT_EQ(primitive(TypeId::kUInt16), uint16());
  EXPECT_THROW(primitive(TypeId::kTimestamp), InvalidArgument);
}

TEST(TypeTest, ParametricTypesPrintLikeArrow) {
  EXPECT_EQ(timestamp(TimeUnit::kMicro, "UTC")->to_string(), "timestamp[us, tz=UTC]");
  EXPECT_EQ(timestamp(TimeUnit::kNano)->to_string(), "timestamp[ns]");
  EXPECT_EQ(time32(TimeUnit::kMilli)->to_string(), "time32[ms]");
  EXPECT_EQ(duration(TimeUnit::kSecond)->to_string(), "duration[s]");
  EXPECT_EQ(decimal128(10, 2)->to_string(), "decimal128(10, 2)");
  EXPECT_EQ(fixed_size_binary(16)->to_string(), "fixed_size_binary[16]");
  EXPECT_EQ(list(int64())->to_string(), "list<item: int64>");
  EXPECT_EQ(large_list_view(utf8())->to_string(), "large_list_view<item: string>");
  EXPECT_EQ(fixed_size_list(float32(), 3)->to_string(), "fixed_size_list<item: float>[3]");
  EXPECT_EQ(struct_({field("a", int8()), field("b", utf8(), false)})->to_string(),
            "struct<a: int8, b: string not null>");
  EXPECT_EQ(map(utf8(), int32())->to_string(), "map<string, int32>");
  EXPECT_EQ(dictionary(int16(), utf8())->to_string(),
            "dictionary<values=string, indices=int16, ordered=0>");
  EXPECT_EQ(dense_union({field("i", int32()), field("s", utf8())}, {5, 7})->to_string(),
            "dense_union<i: int32=5, s: string=7>");
  EXPECT_EQ(run_end_encoded(int32(), utf8())->to_string(),
            "run_end_encoded<run_ends: int32, values: string>");
  EXPECT_EQ(extension(fixed_size_binary(16), "arrow.uuid")->to_string(),
            "extension<arrow.uuid, storage=fixed_size_binary[16]>");
}

TEST(TypeTest, EqualityComparesParametersAndFields) {
  EXPECT_TRUE(timestamp(TimeUnit::kMilli, "UTC")->equals(*timestamp(TimeUnit::kMilli, "UTC")));
  EXPECT_FALSE(timestamp(TimeUnit::kMilli, "UTC")->equals(*timestamp(TimeUnit::kMilli)));
  EXPECT_FALSE(decimal128(10, 2)->equals(*decimal128(10, 3)));
  EXPECT_FALSE(decimal128(10, 2)->equals(*decimal256(10, 2)));
  EXPECT_TRUE(list(int64())->equals(*list(int64())));
  EXPECT_FALSE(list(int64())->equals(*list(field("element", int64()))));
  EXPECT_FALSE(list(int64())->equals(*large_list(int64())));
  EXPECT_FALSE(fixed_size_list(int8(), 2)->equals(*fixed_size_list(int8(), 3)));
  EXPECT_FALSE(struct_({field("a", int8())})->equals(*struct_({field("a", int8(), false)})));
  EXPECT_FALSE(
      sparse_union({field("a", int8())}, {1})->equals(*sparse_union({field("a", int8())}, {2})));
  EXPECT_FALSE(dictionary(int8(), utf8())->equals(*dictionary(int16(), utf8())));
  EXPECT_TRUE(types_equal(nullptr, nullptr));
  EXPECT_FALSE(types_equal(int8(), nullptr));
}

// Pairs of types built separately that are equal, and so must hash equal.
std::vector<std::pair<TypePtr, TypePtr>> equal_type_pairs() {
  const Metadata note = {{"k", "v"}};
  return {
      {int32(), primitive(TypeId::kInt32)},
      {decimal128(10, 2), decimal128(10, 2)},
      {time32(TimeUnit::kMilli), time32(TimeUnit::kMilli)},
      {timestamp(TimeUnit::kMicro, "UTC"), timestamp(TimeUnit::kMicro, "UTC")},
      {fixed_size_binary(7), fixed_size_binary(7)},
      {list(utf8()), list(field("item", utf8()))},
      {fixed_size_list(int8(), 3), fixed_size_list(int8(), 3)},
      // Metadata does not count in equals, so it must not count in the hash.
      {struct_({field("a", int8(), true, note)}), struct_({field("a", int8())})},
      // Nor do the names of a map's entries struct and key field.
      {map(utf8(), int64()),
       std::make_shared<MapType>(
           field("pairs", struct_({field("k", utf8(), false), field("item", int64())}), false),
           false)},
      {dictionary(int16(), utf8(), true), dictionary(int16(), utf8(), true)},
      {dense_union({field("a", int8())}, {4}), dense_union({field("a", int8())}, {4})},
      {run_end_encoded(int32(), float64()), run_end_encoded(int32(), float64())},
      {extension(fixed_size_binary(16), "arrow.uuid"),
       extension(fixed_size_binary(16), "arrow.uuid")},
  };
}

TEST(TypeTest, EqualTypesHashEqual) {
  for (const auto& [a, b] : equal_type_pairs()) {
    ASSERT_TRUE(a->equals(*b)) << a->to_string() << " vs " << b->to_string();
    EXPECT_EQ(hash_type(*a), hash_type(*b)) << a->to_string();
  }
}

TEST(TypeTest, TypesThatDifferHashDifferently) {
  const std::vector<TypePtr> distinct = {
      int32(),
      int64(),
      utf8(),
      large_utf8(),
      decimal128(10, 2),
      decimal128(10, 3),
      decimal256(10, 2),
      time32(TimeUnit::kSecond),
      time32(TimeUnit::kMilli),
      duration(TimeUnit::kMilli),
      timestamp(TimeUnit::kMicro),
      timestamp(TimeUnit::kMicro, "UTC"),
      timestamp(TimeUnit::kNano, "UTC"),
      fixed_size_binary(7),
      fixed_size_binary(8),
      list(utf8()),
      list(field("element", utf8())),
      list(field("item", utf8(), false)),
      large_list(utf8()),
      fixed_size_list(int8(), 3),
      fixed_size_list(int8(), 4),
      struct_({field("a", int8())}),
      struct_({field("b", int8())}),
      struct_({field("a", int8()), field("b", int8())}),
      struct_({field("b", int8()), field("a", int8())}),
      map(utf8(), int64()),
      map(utf8(), int64(), true),
      map(int64(), utf8()),
      dictionary(int16(), utf8()),
      dictionary(int16(), utf8(), true),
      dictionary(int8(), utf8()),
      sparse_union({field("a", int8())}, {1}),
      sparse_union({field("a", int8())}, {2}),
      dense_union({field("a", int8())}, {1}),
      extension(fixed_size_binary(16), "arrow.uuid"),
      extension(fixed_size_binary(16), "other"),
      extension(fixed_size_binary(16), "arrow.uuid", "params"),
  };
  for (size_t i = 0; i < distinct.size(); ++i) {
    for (size_t j = i + 1; j < distinct.size(); ++j) {
      ASSERT_FALSE(distinct[i]->equals(*distinct[j]));
      EXPECT_NE(hash_type(*distinct[i]), hash_type(*distinct[j]))
          << distinct[i]->to_string() << " vs " << distinct[j]->to_string();
    }
  }
}

TEST(TypeTest, FieldHashFollowsEquals) {
  EXPECT_EQ(hash_field(*field("a", int8())), hash_field(*field("a", int8(), true, {{"k", "v"}})));
  EXPECT_NE(hash_field(*field("a", int8())), hash_field(*field("b", int8())));
  EXPECT_NE(hash_field(*field("a", int8())), hash_field(*field("a", int8(), false)));
  EXPECT_NE(hash_field(*field("a", int8())), hash_field(*field("a", int16())));
}

TEST(TypeTest, FieldIndexOutsideTheFieldsIsAnIndexError) {
  const TypePtr type = struct_({field("a", int8())});
  EXPECT_EQ(type->field(0)->name(), "a");
  try {
    type->field(1);
    FAIL() << "expected IndexError";
  } catch (const IndexError& error) {
    EXPECT_STREQ(error.what(), "field index 1 is outside the 1 fields of struct<a: int8>");
  }
  EXPECT_THROW(type->field(-1), IndexError);
  EXPECT_THROW(int64()->field(0), IndexError);
}

TEST(TypeTest, MetadataCountsOnlyWhenAsked) {
  const TypePtr plain = struct_({field("a", int8())});
  const TypePtr annotated = struct_({field("a", int8(), true, {{"k", "v"}})});
  EXPECT_TRUE(plain->equals(*annotated));
  EXPECT_FALSE(plain->equals(*annotated, /*check_metadata=*/true));
}

TEST(TypeTest, MapKeysAreNotNullableAndEntriesAreNamedFreely) {
  const TypePtr type = map(utf8(), int64());
  const auto& map_type = type_cast<MapType>(*type);
  EXPECT_FALSE(map_type.key_field()->nullable());
  EXPECT_EQ(map_type.entries_field()->name(), "entries");
  const TypePtr renamed = std::make_shared<MapType>(
      field("kv", struct_({field("k", utf8(), false), field("v", int64())}), false), false);
  EXPECT_TRUE(map_type.equals(*renamed));
  EXPECT_THROW(MapType(field("kv", struct_({field("k", utf8())}), false), false), TypeError);
}

TEST(TypeTest, LayoutsFollowTheColumnarFormat) {
  using K = BufferKind;
  auto kinds = [](const TypePtr& type) {
    std::vector<K> out;
    for (const BufferSpec& spec : type->layout()) {
      out.push_back(spec.kind);
    }
    return out;
  };
  EXPECT_EQ(kinds(null()), std::vector<K>({K::kAlwaysNull}));
  EXPECT_EQ(kinds(boolean()), std::vector<K>({K::kValidity, K::kBitmap}));
  EXPECT_EQ(kinds(int32()), std::vector<K>({K::kValidity, K::kFixedWidth}));
  EXPECT_EQ(int32()->layout()[1].byte_width, 4);
  EXPECT_EQ(decimal256(40, 2)->layout()[1].byte_width, 32);
  EXPECT_EQ(kinds(utf8()), std::vector<K>({K::kValidity, K::kOffsets32, K::kData}));
  EXPECT_EQ(kinds(large_binary()), std::vector<K>({K::kValidity, K::kOffsets64, K::kData}));
  EXPECT_EQ(kinds(utf8_view()), std::vector<K>({K::kValidity, K::kViews}));
  EXPECT_EQ(kinds(list(int8())), std::vector<K>({K::kValidity, K::kOffsets32}));
  EXPECT_EQ(kinds(large_list_view(int8())),
            std::vector<K>({K::kValidity, K::kOffsets64, K::kSizes64}));
  EXPECT_EQ(kinds(fixed_size_list(int8(), 2)), std::vector<K>({K::kValidity}));
  EXPECT_EQ(kinds(struct_({})), std::vector<K>({K::kValidity}));
  EXPECT_EQ(kinds(sparse_union({field("a", int8())})),
            std::vector<K>({K::kAlwaysNull, K::kTypeIds}));
  EXPECT_EQ(kinds(dense_union({field("a", int8())})),
            std::vector<K>({K::kAlwaysNull, K::kTypeIds, K::kOffsets32}));
  EXPECT_EQ(kinds(dictionary(int16(), utf8())), std::vector<K>({K::kValidity, K::kFixedWidth}));
  EXPECT_EQ(kinds(run_end_encoded(int32(), utf8())), std::vector<K>({K::kAlwaysNull}));
  EXPECT_EQ(kinds(extension(int64(), "x")), kinds(int64()));
  EXPECT_EQ(extension(null(), "x")->storage_id(), TypeId::kNull);
  EXPECT_EQ(int64()->storage_id(), TypeId::kInt64);
}

TEST(TypeTest, InvalidParametersAreRejectedWithClearErrors) {
  EXPECT_THROW(decimal32(10, 2), InvalidArgument);
  EXPECT_THROW(decimal128(0, 0), InvalidArgument);
  EXPECT_THROW(decimal64(5, 6), InvalidArgument);
  EXPECT_THROW(time32(TimeUnit::kNano), InvalidArgument);
  EXPECT_THROW(time64(TimeUnit::kSecond), InvalidArgument);
  EXPECT_THROW(fixed_size_binary(-1), InvalidArgument);
  EXPECT_THROW(fixed_size_list(int8(), -2), InvalidArgument);
  EXPECT_THROW(dictionary(utf8(), utf8()), TypeError);
  EXPECT_THROW(run_end_encoded(uint32(), utf8()), TypeError);
  EXPECT_THROW(sparse_union({field("a", int8()), field("b", int8())}, {1, 1}), InvalidArgument);
  EXPECT_THROW(sparse_union({field("a", int8())}, {-3}), InvalidArgument);
  EXPECT_THROW(sparse_union({field("a", int8())}, {1, 2}), InvalidArgument);
  EXPECT_THROW(extension(extension(int8(), "a"), "b"), TypeError);
  EXPECT_THROW(field("x", nullptr), InvalidArgument);
  try {
    decimal32(12, 2);
  } catch (const InvalidArgument& error) {
    EXPECT_STREQ(error.what(), "decimal32 precision must be between 1 and 9, got 12");
  }
}

TEST(TypeTest, FixedSizeBinaryWidthFitsItsBitWidth) {
  constexpr int32_t kWidest = std::numeric_limits<int32_t>::max() / 8;
  EXPECT_EQ(fixed_size_binary(kWidest)->byte_width(), kWidest);
  EXPECT_THROW(fixed_size_binary(kWidest + 1), InvalidArgument);
  EXPECT_THROW(fixed_size_binary(std::numeric_limits<int32_t>::max()), InvalidArgument);
}

TEST(TypeTest, UnionOfTooManyChildrenSaysSo) {
  FieldVector fields;
  for (int i = 0; i < 130; ++i) {
    fields.push_back(field(std::to_string(i), int8()));
  }
  try {
    sparse_union(fields);
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& error) {
    EXPECT_STREQ(error.what(), "a union has at most 128 children (type codes 0 to 127), got 130");
  }
  fields.resize(128);
  EXPECT_EQ(type_cast<UnionType>(*dense_union(fields)).child_index(127), 127);
}

TEST(TypeTest, UnionMapsTypeCodesToChildren) {
  const TypePtr union_type = dense_union({field("a", int8()), field("b", utf8())}, {3, 9});
  const auto& type = type_cast<UnionType>(*union_type);
  EXPECT_EQ(type.mode(), UnionMode::kDense);
  EXPECT_EQ(type.child_index(3), 0);
  EXPECT_EQ(type.child_index(9), 1);
  EXPECT_EQ(type.child_index(4), -1);
}

TEST(TypeTest, ListOfKindMakesEachListType) {
  EXPECT_TRUE(list_of_kind(TypeId::kList, int8())->equals(*list(int8())));
  EXPECT_TRUE(list_of_kind(TypeId::kLargeList, int8())->equals(*large_list(int8())));
  EXPECT_TRUE(list_of_kind(TypeId::kListView, int8())->equals(*list_view(int8())));
  EXPECT_TRUE(list_of_kind(TypeId::kLargeListView, int8())->equals(*large_list_view(int8())));
  EXPECT_THROW(list_of_kind(TypeId::kStruct, int8()), InvalidArgument);
}

TEST(TypeTest, TypeCastChecksTheClass) {
  EXPECT_NO_THROW(type_cast<TimestampType>(*timestamp(TimeUnit::kSecond)));
  EXPECT_THROW(type_cast<TimestampType>(*int64()), TypeError);
  try {
    type_cast<ListType>(*int32());
    FAIL() << "int32 is not a list type";
  } catch (const TypeError& error) {
    EXPECT_STREQ(error.what(), "type int32 is not a bowstring::ListType");
  }
}

TEST(FieldTest, PrintsAndCopiesWithChanges) {
  const FieldPtr base = field("x", int32(), false, {{"origin", "sensor"}});
  EXPECT_EQ(base->to_string(), "x: int32 not null");
  EXPECT_EQ(base->with_name("y")->name(), "y");
  EXPECT_TRUE(base->with_nullable(true)->nullable());
  EXPECT_EQ(base->with_type(utf8())->type(), utf8());
  EXPECT_TRUE(base->with_metadata({})->equals(*base));
  EXPECT_FALSE(base->with_metadata({})->equals(*base, true));
}

TEST(TypeTest, Predicates) {
  EXPECT_TRUE(int8()->is_signed_integer());
  EXPECT_TRUE(uint64()->is_unsigned_integer());
  EXPECT_TRUE(float16()->is_floating());
  EXPECT_TRUE(decimal64(3, 1)->is_numeric());
  EXPECT_TRUE(timestamp(TimeUnit::kSecond)->is_temporal());
  EXPECT_TRUE(binary_view()->is_binary_like());
  EXPECT_FALSE(binary()->is_string());
  EXPECT_TRUE(map(utf8(), utf8())->is_list_like());
  EXPECT_TRUE(struct_({field("a", int8())})->is_nested());
  EXPECT_FALSE(int8()->is_nested());
}

}  // namespace
}  // namespace bowstring
