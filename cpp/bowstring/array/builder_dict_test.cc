#include "bowstring/array/builder_dict.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_nested.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring {
namespace {

using testing::make_array;
using testing::make_string_array;

std::vector<std::optional<int64_t>> indices_of(const Array& array) {
  DictionaryArray view(array);
  std::vector<std::optional<int64_t>> out;
  for (int64_t i = 0; i < view.length(); ++i) {
    out.push_back(view.is_null(i) ? std::nullopt : std::optional<int64_t>(view.index(i)));
  }
  return out;
}

std::vector<std::string> strings_of(const Array& array) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < array.length(); ++i) {
    switch (array.type_id()) {
      case TypeId::kString:
        out.emplace_back(StringArray(array).value(i));
        break;
      case TypeId::kLargeString:
        out.emplace_back(LargeStringArray(array).value(i));
        break;
      case TypeId::kFixedSizeBinary:
        out.emplace_back(FixedSizeBinaryArray(array).value(i));
        break;
      default:
        out.emplace_back(BinaryViewArray(array).value(i));
        break;
    }
  }
  return out;
}

TEST(DictionaryBuilderTest, DeduplicatesStrings) {
  DictionaryBuilder builder(dictionary(int32(), utf8()));
  builder.append("apple");
  builder.append("pear");
  builder.append("apple");
  builder.append_null();
  builder.append("");
  builder.append("pear");
  EXPECT_EQ(builder.dictionary_length(), 3);
  EXPECT_EQ(builder.null_count(), 1);
  Array array = builder.finish();
  EXPECT_EQ(array.type()->to_string(), "dictionary<values=string, indices=int32, ordered=0>");
  EXPECT_EQ(indices_of(array), (std::vector<std::optional<int64_t>>{0, 1, 0, std::nullopt, 2, 1}));
  DictionaryArray view(array);
  EXPECT_EQ(strings_of(view.dictionary()), (std::vector<std::string>{"apple", "pear", ""}));
  EXPECT_EQ(view.dictionary().null_count(), 0);
  EXPECT_EQ(array.null_count(), 1);
  ASSERT_EQ(array.data()->buffers.size(), 2u);
  EXPECT_EQ(array.data()->buffers[1]->size(), 6 * 4);
  EXPECT_EQ(view.indices().type_id(), TypeId::kInt32);
}

TEST(DictionaryBuilderTest, EveryIndexType) {
  for (const TypePtr& index_type :
       {int8(), uint8(), int16(), uint16(), int32(), uint32(), int64(), uint64()}) {
    DictionaryBuilder builder(dictionary(index_type, int64()));
    for (int64_t i = 0; i < 100; ++i) {
      builder.append(int64_t{i % 7});
    }
    builder.append_null();
    Array array = builder.finish();
    EXPECT_EQ(array.data()->buffers[1]->size(), 101 * index_type->byte_width());
    DictionaryArray view(array);
    EXPECT_EQ(view.dictionary().length(), 7);
    for (int64_t i = 0; i < 100; ++i) {
      ASSERT_EQ(view.index(i), i % 7) << index_type->to_string();
      ASSERT_EQ(Int64Array(view.dictionary()).value(view.index(i)), i % 7);
    }
    EXPECT_TRUE(view.is_null(100));
  }
}

TEST(DictionaryBuilderTest, IndexTypeOverflowIsAnError) {
  DictionaryBuilder builder(dictionary(int8(), int32()));
  for (int32_t i = 0; i < 128; ++i) {
    builder.append(i);
  }
  builder.append(int32_t{5});  // already there: fine
  EXPECT_THROW(builder.append(int32_t{128}), InvalidArgument);
  EXPECT_EQ(builder.dictionary_length(), 128);
  Array array = builder.finish();
  EXPECT_EQ(DictionaryArray(array).index(127), 127);

  DictionaryBuilder unsigned_builder(dictionary(uint8(), int32()));
  for (int32_t i = 0; i < 256; ++i) {
    unsigned_builder.append(i);
  }
  EXPECT_THROW(unsigned_builder.append(int32_t{256}), InvalidArgument);
  EXPECT_EQ(DictionaryArray(unsigned_builder.finish()).index(255), 255);
}

TEST(DictionaryBuilderTest, ValueTypesOfEveryKind) {
  DictionaryBuilder doubles(dictionary(int16(), float64()));
  doubles.append(1.5);
  doubles.append(std::numeric_limits<double>::quiet_NaN());
  doubles.append(-std::numeric_limits<double>::quiet_NaN());
  doubles.append(1.5);
  doubles.append(0.0);
  doubles.append(-0.0);
  Array double_array = doubles.finish();
  EXPECT_EQ(indices_of(double_array), (std::vector<std::optional<int64_t>>{0, 1, 1, 0, 2, 3}))
      << "NaNs are one value; 0.0 and -0.0 differ";

  DictionaryBuilder bools(dictionary(int8(), boolean()));
  bools.append(true);
  bools.append(false);
  bools.append(true);
  Array bool_array = bools.finish();
  EXPECT_EQ(indices_of(bool_array), (std::vector<std::optional<int64_t>>{0, 1, 0}));
  EXPECT_TRUE(BooleanArray(DictionaryArray(bool_array).dictionary()).value(0));

  DictionaryBuilder fixed(dictionary(int8(), fixed_size_binary(2)));
  fixed.append("ab");
  fixed.append("cd");
  fixed.append("ab");
  EXPECT_THROW(fixed.append("abc"), TypeError);
  Array fixed_array = fixed.finish();
  EXPECT_EQ(strings_of(DictionaryArray(fixed_array).dictionary()),
            (std::vector<std::string>{"ab", "cd"}));

  DictionaryBuilder views(dictionary(int32(), utf8_view()));
  const std::string longer = "a value longer than twelve bytes";
  views.append(longer);
  views.append("short");
  views.append(longer);
  Array view_array = views.finish();
  EXPECT_EQ(indices_of(view_array), (std::vector<std::optional<int64_t>>{0, 1, 0}));
  EXPECT_EQ(strings_of(DictionaryArray(view_array).dictionary()),
            (std::vector<std::string>{longer, "short"}));

  DictionaryBuilder stamps(dictionary(int32(), timestamp(TimeUnit::kMilli, "UTC")));
  stamps.append(int64_t{1000});
  stamps.append(int64_t{1000});
  EXPECT_EQ(DictionaryArray(stamps.finish()).dictionary().type()->to_string(),
            "timestamp[ms, tz=UTC]");

  DictionaryBuilder decimals(dictionary(int32(), decimal128(10, 2)));
  uint8_t raw[16] = {42};
  decimals.append(std::string_view(reinterpret_cast<const char*>(raw), 16));
  decimals.append(std::string_view(reinterpret_cast<const char*>(raw), 16));
  Array decimal_array = decimals.finish();
  EXPECT_EQ(DecimalArray(DictionaryArray(decimal_array).dictionary()).format_value(0), "0.42");
  EXPECT_EQ(DictionaryArray(decimal_array).dictionary().length(), 1);
}

TEST(DictionaryBuilderTest, WrongValueTypesAreErrors) {
  DictionaryBuilder strings(dictionary(int32(), utf8()));
  EXPECT_THROW(strings.append(int64_t{1}), TypeError);
  EXPECT_THROW(strings.append(true), TypeError);
  DictionaryBuilder ints(dictionary(int32(), int64()));
  EXPECT_THROW(ints.append(int32_t{1}), TypeError);
  EXPECT_THROW(ints.append("12345678x"), TypeError);
  EXPECT_THROW(ints.append(1.0), TypeError) << "a double is not an int64 even at 8 bytes";
  EXPECT_EQ(ints.length(), 0);
  EXPECT_THROW(DictionaryBuilder{utf8()}, TypeError);
}

TEST(DictionaryBuilderTest, AppendArrayEncodesEveryValue) {
  DictionaryBuilder builder(dictionary(int16(), utf8()));
  Array values = make_string_array({"x", "y", std::nullopt, "x", "z", "y"});
  builder.append_array(values.slice(1));
  builder.append_array(values);
  Array array = builder.finish();
  EXPECT_EQ(indices_of(array), (std::vector<std::optional<int64_t>>{0, std::nullopt, 1, 2, 0, 1, 0,
                                                                    std::nullopt, 1, 2, 0}));
  EXPECT_EQ(strings_of(DictionaryArray(array).dictionary()),
            (std::vector<std::string>{"y", "x", "z"}));
  EXPECT_THROW(builder.append_array(make_string_array({"a"}, large_utf8())), TypeError);

  DictionaryBuilder ints(dictionary(int8(), int32()));
  ints.append_array(make_array<int32_t>({5, 5, std::nullopt, 6}));
  EXPECT_EQ(indices_of(ints.finish()),
            (std::vector<std::optional<int64_t>>{0, 0, std::nullopt, 1}));
}

TEST(DictionaryBuilderTest, RawIndicesIntoTheDictionarySoFar) {
  DictionaryBuilder builder(dictionary(int32(), utf8()));
  EXPECT_THROW(builder.append_index(0), IndexError);
  builder.append("a");
  builder.append("b");
  builder.append_index(1);
  builder.append_index(0);
  EXPECT_THROW(builder.append_index(2), IndexError);
  EXPECT_THROW(builder.append_index(-1), IndexError);
  const std::vector<int64_t> indices = {1, 99, 0};
  const uint8_t valid[] = {1, 0, 1};
  builder.append_indices(indices, valid);
  EXPECT_THROW(builder.append_indices(std::vector<int64_t>{0, 5}), IndexError);
  builder.append_empty_value();
  Array array = builder.finish();
  EXPECT_EQ(indices_of(array),
            (std::vector<std::optional<int64_t>>{0, 1, 1, 0, 1, std::nullopt, 0, 0}));
}

TEST(DictionaryBuilderTest, PlaceholdersOfAnEmptyDictionary) {
  DictionaryBuilder strings(dictionary(int8(), utf8()));
  strings.append_empty_values(2);
  strings.append("");
  strings.append("x");
  Array array = strings.finish();
  EXPECT_EQ(indices_of(array), (std::vector<std::optional<int64_t>>{0, 0, 0, 1}));
  EXPECT_EQ(strings_of(DictionaryArray(array).dictionary()), (std::vector<std::string>{"", "x"}));

  DictionaryBuilder ints(dictionary(int8(), int32()));
  ints.append_empty_value();
  ints.append(int32_t{0});
  Array int_array = ints.finish();
  EXPECT_EQ(indices_of(int_array), (std::vector<std::optional<int64_t>>{0, 0}));
  EXPECT_EQ(Int32Array(DictionaryArray(int_array).dictionary()).value(0), 0);

  DictionaryBuilder fixed(dictionary(int8(), utf8()), make_string_array({}));
  EXPECT_THROW(fixed.append_empty_value(), InvalidArgument);
}

TEST(DictionaryBuilderTest, PlaceholderOfAWideFixedSizeBinaryIsAllZeros) {
  // Wider than any number or decimal: the placeholder must still be zeros of the full width.
  DictionaryBuilder builder(dictionary(int8(), fixed_size_binary(100)));
  builder.append_empty_value();
  builder.append(std::string(100, '\0'));
  Array array = builder.finish();
  EXPECT_EQ(indices_of(array), (std::vector<std::optional<int64_t>>{0, 0}));
  FixedSizeBinaryArray values(DictionaryArray(array).dictionary());
  ASSERT_EQ(values.length(), 1);
  EXPECT_EQ(values.value(0), std::string(100, '\0'));
}

TEST(DictionaryBuilderTest, FixedDictionary) {
  Array dictionary_values = make_string_array({"red", "green", "blue", "green"});
  DictionaryBuilder builder(dictionary(int8(), utf8()), dictionary_values);
  EXPECT_TRUE(builder.has_fixed_dictionary());
  EXPECT_EQ(builder.dictionary_length(), 4);
  builder.append_index(2);
  builder.append_index(3);
  builder.append("green");  // found by value: its first occurrence
  builder.append_null();
  EXPECT_THROW(builder.append("purple"), InvalidArgument);
  EXPECT_THROW(builder.append_index(4), IndexError);
  Array first = builder.finish();
  EXPECT_EQ(indices_of(first), (std::vector<std::optional<int64_t>>{2, 3, 1, std::nullopt}));
  EXPECT_EQ(first.data()->dictionary, dictionary_values.data()) << "the dictionary is not copied";
  builder.append("red");
  Array second = builder.finish();
  EXPECT_EQ(indices_of(second), (std::vector<std::optional<int64_t>>{0}));
  EXPECT_EQ(second.data()->dictionary, dictionary_values.data());
  EXPECT_THROW(DictionaryBuilder(dictionary(int8(), utf8()), make_array<int32_t>({1})), TypeError);
}

TEST(DictionaryBuilderTest, FixedDictionaryOfANestedType) {
  Array lists = testing::make_list_array<int64_t>({{{1}}, {{2, 3}}});
  DictionaryBuilder builder(dictionary(int32(), lists.type()), lists);
  builder.append_index(1);
  builder.append_index(0);
  EXPECT_THROW(builder.append(int64_t{1}), NotImplemented);
  Array array = builder.finish();
  EXPECT_EQ(indices_of(array), (std::vector<std::optional<int64_t>>{1, 0}));
  // Without a fixed dictionary, such a builder only holds nulls.
  std::unique_ptr<ArrayBuilder> growing = make_builder(dictionary(int32(), lists.type()));
  growing->append_nulls(2);
  EXPECT_THROW(growing->as<DictionaryBuilder>().append_index(0), IndexError);
  Array nulls = growing->finish();
  EXPECT_EQ(nulls.null_count(), 2);
  EXPECT_EQ(DictionaryArray(nulls).dictionary().length(), 0);
}

TEST(DictionaryBuilderTest, ReuseStartsAFreshDictionary) {
  DictionaryBuilder builder(dictionary(int32(), utf8()));
  builder.append("a");
  builder.append("b");
  Array first = builder.finish();
  builder.append("b");
  builder.append("c");
  Array second = builder.finish();
  EXPECT_EQ(indices_of(second), (std::vector<std::optional<int64_t>>{0, 1}));
  EXPECT_EQ(strings_of(DictionaryArray(second).dictionary()), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(strings_of(DictionaryArray(first).dictionary()), (std::vector<std::string>{"a", "b"}));
  builder.append("z");
  builder.reset();
  builder.append("y");
  EXPECT_EQ(strings_of(DictionaryArray(builder.finish()).dictionary()),
            (std::vector<std::string>{"y"}));
}

TEST(DictionaryBuilderTest, SlicesOfSlicesAndManyValues) {
  DictionaryBuilder builder(dictionary(int32(), large_utf8()));
  for (int i = 0; i < 10000; ++i) {
    if (i % 11 == 0) {
      builder.append_null();
    } else {
      builder.append("value " + std::to_string(i % 1000));
    }
  }
  Array array = builder.finish();
  DictionaryArray view(array);
  EXPECT_EQ(view.dictionary().length(), 1000);
  LargeStringArray dictionary_values(view.dictionary());
  for (int i = 0; i < 10000; ++i) {
    if (i % 11 == 0) {
      ASSERT_TRUE(view.is_null(i));
    } else {
      ASSERT_EQ(dictionary_values.value(view.index(i)), "value " + std::to_string(i % 1000));
    }
  }
  Array slice = array.slice(100, 500).slice(10, 20);  // rows 110..129
  DictionaryArray slice_view(slice);
  EXPECT_TRUE(slice_view.is_null(0));
  EXPECT_EQ(LargeStringArray(slice_view.dictionary()).value(slice_view.index(1)), "value 111");
  EXPECT_EQ(slice.null_count(), 2);
}

TEST(DictionaryBuilderTest, HelperMakesDictionaryArrays) {
  Array names = make_string_array({"a", "b"});
  Array codes = testing::make_dictionary_array(int8(), {0, 1, std::nullopt, 0}, names);
  EXPECT_EQ(indices_of(codes), (std::vector<std::optional<int64_t>>{0, 1, std::nullopt, 0}));
  EXPECT_EQ(codes.data()->dictionary, names.data());
}

TEST(DictionaryBuilderTest, InsideAStruct) {
  StructBuilder builder(struct_({field("tag", dictionary(int8(), utf8()))}));
  auto& tags = builder.field_builder(0).as<DictionaryBuilder>();
  builder.append();
  tags.append("x");
  builder.append_null();
  builder.append();
  tags.append("x");
  Array array = builder.finish();
  Array tag_array = StructArray(array).field(0);
  EXPECT_EQ(indices_of(tag_array), (std::vector<std::optional<int64_t>>{0, std::nullopt, 0}));
}

}  // namespace
}  // namespace bowstring
