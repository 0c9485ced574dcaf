#include "bowstring/array/builder_nested.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring {
namespace {

using testing::make_list_array;

std::vector<std::optional<int64_t>> int64_values(const Array& array) {
  Int64Array view(array);
  std::vector<std::optional<int64_t>> out;
  for (int64_t i = 0; i < view.length(); ++i) {
    out.push_back(view.is_null(i) ? std::nullopt : std::optional<int64_t>(view.value(i)));
  }
  return out;
}

std::vector<std::optional<std::string>> string_values(const Array& array) {
  StringArray view(array);
  std::vector<std::optional<std::string>> out;
  for (int64_t i = 0; i < view.length(); ++i) {
    out.push_back(view.is_null(i) ? std::nullopt : std::optional<std::string>(view.value(i)));
  }
  return out;
}

using Int64Lists = std::vector<std::optional<std::vector<std::optional<int64_t>>>>;

/// The lists of any list-like array of int64 values, read through its typed view.
Int64Lists lists_of(const Array& array) {
  Int64Lists out;
  for (int64_t i = 0; i < array.length(); ++i) {
    if (array.is_null(i)) {
      out.emplace_back(std::nullopt);
      continue;
    }
    Array values;
    switch (array.type_id()) {
      case TypeId::kList:
        values = ListArray(array).value_slice(i);
        break;
      case TypeId::kLargeList:
        values = LargeListArray(array).value_slice(i);
        break;
      case TypeId::kListView:
        values = ListViewArray(array).value_slice(i);
        break;
      case TypeId::kLargeListView:
        values = LargeListViewArray(array).value_slice(i);
        break;
      default:
        values = FixedSizeListArray(array).value_slice(i);
        break;
    }
    out.emplace_back(int64_values(values));
  }
  return out;
}

// --- variable-size lists ------------------------------------------------------------------

template <typename B>
class ListBuilderTest : public ::testing::Test {};

using ListBuilders =
    ::testing::Types<ListBuilder, LargeListBuilder, ListViewBuilder, LargeListViewBuilder>;
TYPED_TEST_SUITE(ListBuilderTest, ListBuilders);

template <typename B>
TypeId id_of() {
  if constexpr (std::is_same_v<B, ListBuilder>) {
    return TypeId::kList;
  } else if constexpr (std::is_same_v<B, LargeListBuilder>) {
    return TypeId::kLargeList;
  } else if constexpr (std::is_same_v<B, ListViewBuilder>) {
    return TypeId::kListView;
  } else {
    return TypeId::kLargeListView;
  }
}

TYPED_TEST(ListBuilderTest, RoundTripsListsNullsAndEmptyLists) {
  TypeParam builder(list_of_kind(id_of<TypeParam>(), int64()));
  auto& values = builder.value_builder().template as<Int64Builder>();
  builder.append();
  values.append(1);
  values.append(2);
  builder.append_null();
  builder.append();
  builder.append(true);
  values.append_null();
  values.append(4);
  builder.append_empty_value();
  builder.append_nulls(2);
  builder.append_empty_values(1);
  builder.reserve(1);
  builder.unsafe_append();
  values.append(9);
  EXPECT_EQ(builder.length(), 9);
  EXPECT_EQ(builder.null_count(), 3);
  Array array = builder.finish();
  EXPECT_EQ(array.type_id(), id_of<TypeParam>());
  EXPECT_EQ(array.null_count(), 3);
  EXPECT_EQ(lists_of(array), (Int64Lists{{{1, 2}},
                                         std::nullopt,
                                         {{}},
                                         {{std::nullopt, 4}},
                                         {{}},
                                         std::nullopt,
                                         std::nullopt,
                                         {{}},
                                         {{9}}}));
  EXPECT_EQ(array.data()->children.size(), 1u);
  EXPECT_EQ(array.data()->children[0]->length, 5);
}

TYPED_TEST(ListBuilderTest, SlicesOfSlices) {
  TypeParam builder(list_of_kind(id_of<TypeParam>(), int64()));
  auto& values = builder.value_builder().template as<Int64Builder>();
  for (int64_t i = 0; i < 10; ++i) {
    if (i % 3 == 2) {
      builder.append_null();
      continue;
    }
    builder.append();
    for (int64_t j = 0; j < i; ++j) {
      values.append(i * 10 + j);
    }
  }
  Array array = builder.finish();
  Array slice = array.slice(3, 6).slice(1, 3);  // rows 4, 5, 6
  EXPECT_EQ(lists_of(slice),
            (Int64Lists{{{40, 41, 42, 43}}, std::nullopt, {{60, 61, 62, 63, 64, 65}}}));
  EXPECT_EQ(slice.null_count(), 1);
}

TYPED_TEST(ListBuilderTest, ReuseGivesIndependentArrays) {
  TypeParam builder(list_of_kind(id_of<TypeParam>(), utf8()));
  auto& values = builder.value_builder().template as<StringBuilder>();
  builder.append();
  values.append("a");
  builder.append_null();
  Array first = builder.finish();
  EXPECT_EQ(builder.value_builder().length(), 0);
  builder.append();
  values.append("b");
  values.append("c");
  Array second = builder.finish();
  EXPECT_EQ(first.length(), 2);
  EXPECT_EQ(first.null_count(), 1);
  EXPECT_EQ(string_values(Array(first.data()->children[0])),
            (std::vector<std::optional<std::string>>{"a"}));
  EXPECT_EQ(second.length(), 1);
  EXPECT_EQ(second.data()->buffers[0], nullptr);
  EXPECT_EQ(string_values(Array(second.data()->children[0])),
            (std::vector<std::optional<std::string>>{"b", "c"}));
}

TEST(ListBuilderTest, OffsetsFollowTheFormat) {
  ListBuilder builder(list(int32()));
  auto& values = builder.value_builder().as<Int32Builder>();
  builder.append();
  values.append(1);
  builder.append_null();
  builder.append();
  values.append(2);
  values.append(3);
  Array array = builder.finish();
  ListArray view(array);
  const std::vector<int32_t> offsets(view.offsets().begin(), view.offsets().end());
  EXPECT_EQ(offsets, (std::vector<int32_t>{0, 1, 1, 3}));
  EXPECT_EQ(array.data()->buffers.size(), 2u);

  ListViewBuilder views(list_view(int32()));
  auto& view_values = views.value_builder().as<Int32Builder>();
  views.append();
  view_values.append(1);
  views.append_null();
  views.append();
  view_values.append(2);
  view_values.append(3);
  Array view_array = views.finish();
  ASSERT_EQ(view_array.data()->buffers.size(), 3u);
  const int32_t* view_offsets = view_array.data()->buffers[1]->data_as<int32_t>();
  const int32_t* sizes = view_array.data()->buffers[2]->data_as<int32_t>();
  EXPECT_EQ(std::vector<int32_t>(view_offsets, view_offsets + 3), (std::vector<int32_t>{0, 1, 1}));
  EXPECT_EQ(std::vector<int32_t>(sizes, sizes + 3), (std::vector<int32_t>{1, 0, 2}));
  EXPECT_EQ(view_array.data()->buffers[1]->size(), 12) << "list views have one offset per list";

  ListBuilder empty(list(int32()));
  Array empty_array = empty.finish();
  EXPECT_EQ(empty_array.data()->buffers[1]->size(), 4);
  EXPECT_EQ(ListArray(empty_array).offsets()[0], 0);
}

TEST(ListBuilderTest, ListOfList) {
  ListBuilder outer(list(list(int64())));
  auto& inner = outer.value_builder().as<ListBuilder>();
  auto& values = inner.value_builder().as<Int64Builder>();
  outer.append();  // [[1, 2], null, []]
  inner.append();
  values.append(1);
  values.append(2);
  inner.append_null();
  inner.append();
  outer.append_null();
  outer.append();  // [[3]]
  inner.append();
  values.append(3);
  Array array = outer.finish();
  ListArray view(array);
  ASSERT_EQ(array.length(), 3);
  EXPECT_TRUE(array.is_null(1));
  Array first = view.value_slice(0);
  EXPECT_EQ(lists_of(first), (Int64Lists{{{1, 2}}, std::nullopt, {{}}}));
  EXPECT_EQ(lists_of(view.value_slice(2)), (Int64Lists{{{3}}}));
  EXPECT_EQ(lists_of(array.slice(2).as<ListArray>().value_slice(0)), (Int64Lists{{{3}}}));
}

TEST(ListBuilderTest, GivenValueBuilderAndTypeChecks) {
  ListBuilder builder(std::make_unique<StringBuilder>());
  EXPECT_EQ(builder.type()->to_string(), "list<item: string>");
  builder.append();
  builder.value_builder().as<StringBuilder>().append("x");
  EXPECT_EQ(builder.finish().length(), 1);
  EXPECT_THROW(ListBuilder{int64()}, TypeError);
  EXPECT_THROW(ListBuilder{large_list(int64())}, TypeError);
  EXPECT_THROW(ListBuilder(std::unique_ptr<ArrayBuilder>()), InvalidArgument);
  EXPECT_THROW(LargeListViewBuilder{list(int64())}, TypeError);
  EXPECT_NO_THROW(make_builder(list_view(int8()))->as<ListViewBuilder>());
  EXPECT_NO_THROW(make_builder(large_list(int8()))->as<LargeListBuilder>());
}

TEST(ListBuilderTest, NonNullableItemsRefuseNulls) {
  ListBuilder builder(list(field("item", int64(), false)));
  EXPECT_FALSE(builder.value_builder().nullable());
  builder.append();
  EXPECT_THROW(builder.value_builder().append_null(), InvalidArgument);
  builder.append_null();  // a null list holds no values: fine
  EXPECT_EQ(builder.finish().null_count(), 1);
}

TEST(ListBuilderTest, TooManyValuesForInt32OffsetsIsAClearError) {
  // A list of nulls holds 2^31 values without memory for them.
  ListBuilder builder(list(null()));
  builder.append();
  builder.value_builder().append_nulls(int64_t{1} << 31);
  try {
    builder.append();
    FAIL() << "expected an overflow error";
  } catch (const InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("large list"), std::string::npos) << error.what();
  }
  EXPECT_THROW(builder.finish(), InvalidArgument);
  builder.reset();
  EXPECT_EQ(builder.value_builder().length(), 0);

  LargeListBuilder large(large_list(null()));
  large.append();
  large.value_builder().append_nulls(int64_t{1} << 31);
  large.append();
  Array array = large.finish();
  EXPECT_EQ(LargeListArray(array).value_length(0), int64_t{1} << 31);
}

TEST(ListBuilderTest, MakeListArrayHelper) {
  Array lists = make_list_array<int64_t>({{{1, 2}}, std::nullopt, {{}}, {{std::nullopt}}});
  EXPECT_EQ(lists.type()->to_string(), "list<item: int64>");
  EXPECT_EQ(lists_of(lists), (Int64Lists{{{1, 2}}, std::nullopt, {{}}, {{std::nullopt}}}));
  Array fixed = make_list_array<int64_t>(fixed_size_list(int64(), 2), {{{1, 2}}, std::nullopt});
  EXPECT_EQ(lists_of(fixed), (Int64Lists{{{1, 2}}, std::nullopt}));
  EXPECT_THROW(make_list_array<int64_t>(fixed_size_list(int64(), 2), {{{1}}}), InvalidArgument);
  Array strings = testing::make_string_list_array(large_list(utf8()), {{{"a", std::nullopt}}});
  EXPECT_EQ(strings.type_id(), TypeId::kLargeList);
}

// --- fixed-size lists ---------------------------------------------------------------------

TEST(FixedSizeListBuilderTest, RoundTripWithNullsFilledByTheBuilder) {
  FixedSizeListBuilder builder(fixed_size_list(int64(), 3));
  EXPECT_EQ(builder.list_size(), 3);
  auto& values = builder.value_builder().as<Int64Builder>();
  builder.append();
  values.append_values(std::vector<int64_t>{1, 2, 3});
  builder.append_null();
  builder.append();
  values.append(4);
  values.append_null();
  values.append(6);
  builder.append_empty_value();
  builder.append_nulls(2);
  Array array = builder.finish();
  EXPECT_EQ(array.length(), 6);
  EXPECT_EQ(array.null_count(), 3);
  ASSERT_EQ(array.data()->children[0]->length, 18) << "the child has length * list_size values";
  EXPECT_EQ(lists_of(array), (Int64Lists{{{1, 2, 3}},
                                         std::nullopt,
                                         {{4, std::nullopt, 6}},
                                         {{0, 0, 0}},
                                         std::nullopt,
                                         std::nullopt}));
  Array slice = array.slice(1, 4).slice(1, 2);
  EXPECT_EQ(lists_of(slice), (Int64Lists{{{4, std::nullopt, 6}}, {{0, 0, 0}}}));
}

TEST(FixedSizeListBuilderTest, WrongNumberOfValuesIsAnError) {
  FixedSizeListBuilder builder(fixed_size_list(int32(), 2));
  builder.append();
  builder.value_builder().as<Int32Builder>().append(1);
  try {
    builder.finish();
    FAIL() << "expected an error";
  } catch (const InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("needs 2 values"), std::string::npos) << error.what();
  }
  builder.value_builder().as<Int32Builder>().append(2);
  Array array = builder.finish();
  EXPECT_EQ(array.length(), 1);
  EXPECT_THROW(FixedSizeListBuilder{list(int32())}, TypeError);
}

// --- structs ------------------------------------------------------------------------------

TEST(StructBuilderTest, RoundTripWithNullRows) {
  StructBuilder builder(struct_({field("id", int64()), field("name", utf8())}));
  ASSERT_EQ(builder.num_fields(), 2);
  auto& ids = builder.field_builder(0).as<Int64Builder>();
  auto& names = builder.field_builder(1).as<StringBuilder>();
  builder.append();
  ids.append(1);
  names.append("one");
  builder.append_null();
  builder.append(true);
  ids.append_null();
  names.append("three");
  builder.append_empty_value();
  Array array = builder.finish();
  StructArray view(array);
  EXPECT_EQ(array.length(), 4);
  EXPECT_EQ(array.null_count(), 1);
  EXPECT_TRUE(view.is_null(1));
  EXPECT_EQ(int64_values(view.field(0)),
            (std::vector<std::optional<int64_t>>{1, std::nullopt, std::nullopt, 0}));
  EXPECT_EQ(string_values(view.field("name")),
            (std::vector<std::optional<std::string>>{"one", std::nullopt, "three", ""}));
  for (const ArrayDataPtr& child : array.data()->children) {
    EXPECT_EQ(child->length, 4) << "struct children have the struct's length";
  }
  Array slice = array.slice(1, 3).slice(1, 2);
  StructArray slice_view(slice);
  EXPECT_EQ(int64_values(slice_view.field(0)),
            (std::vector<std::optional<int64_t>>{std::nullopt, 0}));
  EXPECT_EQ(string_values(slice_view.field(1)),
            (std::vector<std::optional<std::string>>{"three", ""}));
  EXPECT_EQ(slice.null_count(), 0);
}

TEST(StructBuilderTest, NullRowsFillNonNullableFieldsWithPlaceholders) {
  StructBuilder builder(struct_({field("required", int32(), false), field("optional", int32())}));
  builder.append_nulls(2);
  Array array = builder.finish();
  StructArray view(array);
  EXPECT_EQ(view.field(0).null_count(), 0);
  EXPECT_EQ(view.field(1).null_count(), 2);
  EXPECT_THROW(builder.field_builder(0).append_null(), InvalidArgument);
}

TEST(StructBuilderTest, MismatchedFieldLengthsAreAnErrorNamingTheField) {
  StructBuilder builder(struct_({field("a", int32()), field("b", int32())}));
  builder.append();
  builder.field_builder(0).as<Int32Builder>().append(1);
  try {
    builder.finish();
    FAIL() << "expected an error";
  } catch (const InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("'b'"), std::string::npos) << error.what();
  }
  builder.field_builder(1).as<Int32Builder>().append(2);
  EXPECT_EQ(builder.finish().length(), 1);
  EXPECT_THROW(builder.field_builder(2), IndexError);
  EXPECT_THROW(builder.field_builder(-1), IndexError);
}

TEST(StructBuilderTest, AMismatchInANestedStructLeavesEveryFieldInPlace) {
  // The inner struct's error must be found before the outer struct finishes any field.
  StructBuilder builder(struct_(
      {field("x", int32()), field("y", struct_({field("a", int32()), field("b", int32())}))}));
  auto& inner = builder.field_builder(1).as<StructBuilder>();
  builder.append();
  builder.field_builder(0).as<Int32Builder>().append(1);
  inner.append();
  inner.field_builder(0).as<Int32Builder>().append(2);
  EXPECT_THROW(builder.finish(), InvalidArgument);
  EXPECT_EQ(builder.field_builder(0).length(), 1);
  inner.field_builder(1).as<Int32Builder>().append(3);
  Array array = builder.finish();
  ASSERT_EQ(array.length(), 1);
  EXPECT_EQ(Int32Array(StructArray(array).field(0)).value(0), 1);
  EXPECT_EQ(Int32Array(StructArray(StructArray(array).field(1)).field(1)).value(0), 3);
}

TEST(StructBuilderTest, GivenFieldBuildersAreChecked) {
  const TypePtr type = struct_({field("a", int32()), field("b", utf8())});
  std::vector<std::unique_ptr<ArrayBuilder>> builders;
  builders.push_back(std::make_unique<Int32Builder>());
  builders.push_back(std::make_unique<StringBuilder>());
  StructBuilder builder(type, std::move(builders));
  builder.append();
  builder.field_builder(0).as<Int32Builder>().append(1);
  builder.field_builder(1).as<StringBuilder>().append("x");
  EXPECT_EQ(builder.finish().length(), 1);

  std::vector<std::unique_ptr<ArrayBuilder>> wrong;
  wrong.push_back(std::make_unique<Int32Builder>());
  wrong.push_back(std::make_unique<Int32Builder>());
  EXPECT_THROW(StructBuilder(type, std::move(wrong)), TypeError);
  std::vector<std::unique_ptr<ArrayBuilder>> too_few;
  too_few.push_back(std::make_unique<Int32Builder>());
  EXPECT_THROW(StructBuilder(type, std::move(too_few)), InvalidArgument);
}

TEST(StructBuilderTest, ListOfStruct) {
  const TypePtr point = struct_({field("x", int32()), field("y", int32())});
  ListBuilder builder(list(point));
  auto& points = builder.value_builder().as<StructBuilder>();
  auto& xs = points.field_builder(0).as<Int32Builder>();
  auto& ys = points.field_builder(1).as<Int32Builder>();
  builder.append();
  for (int32_t i = 0; i < 3; ++i) {
    points.append();
    xs.append(i);
    ys.append(-i);
  }
  builder.append_null();
  builder.append();
  points.append_null();
  Array array = builder.finish();
  ListArray view(array);
  StructArray first(view.value_slice(0));
  EXPECT_EQ(first.length(), 3);
  EXPECT_EQ(Int32Array(first.field("y")).value(2), -2);
  StructArray last(view.value_slice(2));
  EXPECT_EQ(last.length(), 1);
  EXPECT_TRUE(last.is_null(0));
  EXPECT_TRUE(last.field(0).is_null(0));
}

TEST(StructBuilderTest, ReuseAndEmptyStruct) {
  StructBuilder builder(struct_({field("a", int8())}));
  builder.append();
  builder.field_builder(0).as<Int8Builder>().append(1);
  Array first = builder.finish();
  builder.append_null();
  Array second = builder.finish();
  EXPECT_EQ(first.null_count(), 0);
  EXPECT_EQ(first.data()->buffers[0], nullptr);
  EXPECT_EQ(Int8Array(StructArray(first).field(0)).value(0), 1);
  EXPECT_EQ(second.null_count(), 1);
  EXPECT_TRUE(StructArray(second).field(0).is_null(0));

  StructBuilder empty(struct_({}));
  empty.append();
  empty.append_null();
  Array no_fields = empty.finish();
  EXPECT_EQ(no_fields.length(), 2);
  EXPECT_EQ(no_fields.null_count(), 1);
}

// --- maps ---------------------------------------------------------------------------------

TEST(MapBuilderTest, RoundTripWithEntriesStruct) {
  MapBuilder builder(map(utf8(), int64()));
  auto& keys = builder.key_builder().as<StringBuilder>();
  auto& items = builder.item_builder().as<Int64Builder>();
  builder.append();
  keys.append("a");
  items.append(1);
  keys.append("b");
  items.append_null();
  builder.append_null();
  builder.append_empty_value();
  builder.append();
  keys.append("c");
  items.append(3);
  Array array = builder.finish();
  MapArray view(array);
  EXPECT_EQ(array.length(), 4);
  EXPECT_EQ(array.null_count(), 1);
  const std::vector<int32_t> offsets(view.offsets().begin(), view.offsets().end());
  EXPECT_EQ(offsets, (std::vector<int32_t>{0, 2, 2, 2, 3}));
  EXPECT_EQ(string_values(view.keys()), (std::vector<std::optional<std::string>>{"a", "b", "c"}));
  EXPECT_EQ(int64_values(view.items()), (std::vector<std::optional<int64_t>>{1, std::nullopt, 3}));
  const ArrayData& entries = *array.data()->children[0];
  EXPECT_EQ(entries.type->to_string(), "struct<key: string not null, value: int64>");
  EXPECT_EQ(entries.length, 3);
  EXPECT_EQ(entries.buffers[0], nullptr);
  EXPECT_EQ(entries.null_count(), 0);
  Array slice = array.slice(1, 3).slice(2, 1);
  EXPECT_EQ(MapArray(slice).value_length(0), 1);
  EXPECT_EQ(StructArray(MapArray(slice).value_slice(0)).field(0).as<StringArray>().value(0), "c");
}

TEST(MapBuilderTest, NullKeysAndMismatchedEntriesAreErrors) {
  MapBuilder builder(map(int32(), utf8()));
  builder.append();
  EXPECT_FALSE(builder.key_builder().nullable());
  EXPECT_THROW(builder.key_builder().append_null(), InvalidArgument);
  const std::vector<int32_t> keys = {1, 2};
  const uint8_t valid[] = {1, 0};
  EXPECT_THROW(builder.key_builder().as<Int32Builder>().append_values(keys, valid),
               InvalidArgument);
  builder.key_builder().as<Int32Builder>().append(1);
  EXPECT_THROW(builder.append(), InvalidArgument);
  EXPECT_THROW(builder.finish(), InvalidArgument);
  builder.item_builder().as<StringBuilder>().append("one");
  builder.append();
  Array array = builder.finish();
  EXPECT_EQ(array.length(), 2);
  EXPECT_EQ(MapArray(array).value_length(0), 1);
  EXPECT_EQ(MapArray(array).value_length(1), 0);
}

TEST(MapBuilderTest, MapOfLists) {
  MapBuilder builder(map(utf8(), list(int64())));
  auto& keys = builder.key_builder().as<StringBuilder>();
  auto& lists = builder.item_builder().as<ListBuilder>();
  auto& values = lists.value_builder().as<Int64Builder>();
  builder.append();
  keys.append("k");
  lists.append();
  values.append(5);
  Array array = builder.finish();
  EXPECT_EQ(lists_of(MapArray(array).items()), (Int64Lists{{{5}}}));
}

// --- extension ----------------------------------------------------------------------------

TEST(ExtensionBuilderTest, WrapsTheStorageBuilder) {
  const TypePtr uuid = extension(fixed_size_binary(4), "example.uuid", "v1");
  std::unique_ptr<ArrayBuilder> builder = make_builder(uuid);
  auto& extension_builder = builder->as<ExtensionBuilder>();
  auto& storage = extension_builder.storage_builder().as<FixedSizeBinaryBuilder>();
  storage.append("abcd");
  builder->append_null();
  storage.append("wxyz");
  EXPECT_EQ(builder->length(), 3);
  EXPECT_EQ(builder->null_count(), 1);
  Array array = builder->finish();
  EXPECT_EQ(builder->length(), 0);
  EXPECT_TRUE(array.type()->equals(*uuid));
  EXPECT_EQ(array.null_count(), 1);
  ExtensionArray view(array);
  FixedSizeBinaryArray values(view.storage());
  EXPECT_EQ(values.value(0), "abcd");
  EXPECT_TRUE(values.is_null(1));
  EXPECT_EQ(values.value(2), "wxyz");
  EXPECT_TRUE(array.slice(1, 2).is_null(0));
  storage.append("next");
  Array second = builder->finish();
  EXPECT_EQ(second.length(), 1);
  EXPECT_EQ(FixedSizeBinaryArray(ExtensionArray(second).storage()).value(0), "next");
  EXPECT_EQ(FixedSizeBinaryArray(view.storage()).value(0), "abcd");
}

TEST(ExtensionBuilderTest, InsideAList) {
  const TypePtr tagged = extension(int64(), "example.tagged");
  ListBuilder builder(list(tagged));
  auto& storage =
      builder.value_builder().as<ExtensionBuilder>().storage_builder().as<Int64Builder>();
  builder.append();
  storage.append(1);
  storage.append(2);
  builder.append();
  storage.append(3);
  Array array = builder.finish();
  ListArray view(array);
  EXPECT_EQ(view.value_length(0), 2) << "the list reads its extension child's length";
  EXPECT_EQ(view.value_length(1), 1);
  EXPECT_TRUE(view.values().type()->equals(*tagged));
}

}  // namespace
}  // namespace bowstring
