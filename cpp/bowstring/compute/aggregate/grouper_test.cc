#include "bowstring/compute/aggregate/grouper.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/equal.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring::compute {
namespace {

/// NaN equals NaN, and floating-point results are compared to within rounding.
EqualOptions same_values() {
  EqualOptions options;
  options.nans_equal = true;
  options.approximate = true;
  options.absolute_tolerance = 1e-12;
  return options;
}

using testing::make_array;
using testing::make_decimal_array;
using testing::make_dictionary_array;
using testing::make_list_array;
using testing::make_string_array;
using testing::make_struct_array;

using Ids = std::vector<uint32_t>;

std::unique_ptr<Grouper> grouper_for(std::initializer_list<Array> keys) {
  std::vector<TypePtr> types;
  for (const Array& key : keys) {
    types.push_back(key.type());
  }
  return Grouper::make(types);
}

/// Groups `keys` in one batch; checks the unique keys equal `expected_keys`.
Ids group(std::initializer_list<Array> keys, const std::vector<Array>& expected_keys) {
  std::unique_ptr<Grouper> grouper = grouper_for(keys);
  const std::vector<Array> columns(keys);
  Ids ids = grouper->consume(columns);
  const std::vector<Array> unique = grouper->unique_keys();
  EXPECT_EQ(grouper->num_groups(), expected_keys.empty() ? 0 : expected_keys[0].length());
  EXPECT_EQ(unique.size(), expected_keys.size());
  for (size_t c = 0; c < unique.size() && c < expected_keys.size(); ++c) {
    EXPECT_TRUE(unique[c].equals(expected_keys[c], same_values()))
        << unique[c].to_string() << " vs " << expected_keys[c].to_string();
  }
  return ids;
}

TEST(Grouper, Integers) {
  const Array keys = make_array<int64_t>({5, 7, std::nullopt, 5, std::nullopt, -1, 7});
  EXPECT_EQ(group({keys}, {make_array<int64_t>({5, 7, std::nullopt, -1})}),
            (Ids{0, 1, 2, 0, 2, 3, 1}));
  EXPECT_EQ(group({make_array<int8_t>({-1, 1, -1})}, {make_array<int8_t>({-1, 1})}),
            (Ids{0, 1, 0}));
  EXPECT_EQ(group({make_array<uint16_t>({9, 9})}, {make_array<uint16_t>({9})}), (Ids{0, 0}));
  EXPECT_EQ(
      group({make_array<int32_t>({3, std::nullopt, 3})}, {make_array<int32_t>({3, std::nullopt})}),
      (Ids{0, 1, 0}));
}

TEST(Grouper, FloatsGroupNaNAndSignedZeros) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(group({make_array<double>({0.0, -0.0, nan, -nan, 1.5, std::nullopt})},
                  {make_array<double>({0.0, nan, 1.5, std::nullopt})}),
            (Ids{0, 0, 1, 1, 2, 3}));
  const float fnan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(
      group({make_array<float>({-0.0f, fnan, 0.0f, fnan})}, {make_array<float>({0.0f, fnan})}),
      (Ids{0, 1, 0, 1}));
}

TEST(Grouper, BooleansDatesTimestampsDecimals) {
  EXPECT_EQ(group({make_array<bool>({true, false, std::nullopt, true})},
                  {make_array<bool>({true, false, std::nullopt})}),
            (Ids{0, 1, 2, 0}));
  EXPECT_EQ(group({make_array<int32_t>(date32(), {19000, 19001, 19000})},
                  {make_array<int32_t>(date32(), {19000, 19001})}),
            (Ids{0, 1, 0}));
  const TypePtr ts = timestamp(TimeUnit::kMicro, "UTC");
  EXPECT_EQ(group({make_array<int64_t>(ts, {1, 2, 1})}, {make_array<int64_t>(ts, {1, 2})}),
            (Ids{0, 1, 0}));
  EXPECT_EQ(group({make_decimal_array(decimal128(20, 2), {"1.00", "2.50", "1.00", std::nullopt})},
                  {make_decimal_array(decimal128(20, 2), {"1.00", "2.50", std::nullopt})}),
            (Ids{0, 1, 0, 2}));
  EXPECT_EQ(group({make_decimal_array(decimal64(10, 2), {"1.00", "2.50", "1.00"})},
                  {make_decimal_array(decimal64(10, 2), {"1.00", "2.50"})}),
            (Ids{0, 1, 0}));
}

TEST(Grouper, Strings) {
  for (const TypePtr& type : {utf8(), large_utf8(), utf8_view(), binary()}) {
    const Array keys = make_string_array(
        {"b", "a", std::nullopt, "b", "", "a string longer than twelve bytes", "", std::nullopt},
        type);
    EXPECT_EQ(group({keys},
                    {make_string_array(
                        {"b", "a", std::nullopt, "", "a string longer than twelve bytes"}, type)}),
              (Ids{0, 1, 2, 0, 3, 4, 3, 2}))
        << type->to_string();
  }
}

TEST(Grouper, DictionariesGroupByValue) {
  const Array dictionary = make_string_array({"x", "y", "x", std::nullopt});
  const Array keys = make_dictionary_array(int32(), {0, 1, 2, std::nullopt, 3, 1}, dictionary);
  // Indices 0 and 2 hold the same value; a null index and a null value are both null.
  EXPECT_EQ(group({keys}, {make_string_array({"x", "y", std::nullopt})}), (Ids{0, 1, 0, 2, 2, 1}));
}

TEST(Grouper, SeveralColumns) {
  const Array names = make_string_array({"a", "a", "b", std::nullopt, "a", std::nullopt});
  const Array numbers = make_array<int64_t>({1, 2, 1, 1, 1, 1});
  const Array flags = make_array<bool>({true, true, true, true, true, std::nullopt});
  EXPECT_EQ(group({names, numbers, flags},
                  {make_string_array({"a", "a", "b", std::nullopt, std::nullopt}),
                   make_array<int64_t>({1, 2, 1, 1, 1}),
                   make_array<bool>({true, true, true, true, std::nullopt})}),
            (Ids{0, 1, 2, 3, 0, 4}));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(group({make_array<double>({-0.0, 0.0, nan}), make_array<int8_t>({1, 1, 1})},
                  {make_array<double>({0.0, nan}), make_array<int8_t>({1, 1})}),
            (Ids{0, 0, 1}));
}

TEST(Grouper, NestedKeys) {
  const Array lists = make_list_array<int32_t>({{{1, 2}}, std::nullopt, {{1, 2}}, {{2}}, {{}}});
  EXPECT_EQ(group({lists}, {make_list_array<int32_t>({{{1, 2}}, std::nullopt, {{2}}, {{}}})}),
            (Ids{0, 1, 0, 2, 3}));
  const Array rows = make_struct_array(
      {{"a", make_array<int32_t>({1, 1, 2})}, {"b", make_string_array({"x", "x", "x"})}});
  const Array ints = make_array<int64_t>({1, 1, 1});
  EXPECT_EQ(group({rows, ints}, {make_struct_array({{"a", make_array<int32_t>({1, 2})},
                                                    {"b", make_string_array({"x", "x"})}}),
                                 make_array<int64_t>({1, 1})}),
            (Ids{0, 0, 1}));
}

TEST(Grouper, SlicesBatchesAndEmpty) {
  const Array keys = make_array<int64_t>({9, 1, 2, std::nullopt, 1});
  std::unique_ptr<Grouper> grouper = grouper_for({keys});
  const Array first[] = {keys.slice(1, 2)};
  const Array second[] = {keys.slice(2, 3)};
  const Array empty[] = {keys.slice(0, 0)};
  EXPECT_EQ(grouper->consume(first), (Ids{0, 1}));
  EXPECT_EQ(grouper->consume(empty), Ids{});
  EXPECT_EQ(grouper->consume(second), (Ids{1, 2, 0}));
  EXPECT_TRUE(grouper->unique_keys()[0].equals(make_array<int64_t>({1, 2, std::nullopt})));

  const Array strings = make_string_array({"zz", "a", std::nullopt, "a"});
  std::unique_ptr<Grouper> string_grouper = grouper_for({strings});
  const Array sliced[] = {strings.slice(1, 3)};
  EXPECT_EQ(string_grouper->consume(sliced), (Ids{0, 1, 0}));

  const Array lists = make_list_array<int32_t>({{{1}}, {{2}}, {{1}}});
  std::unique_ptr<Grouper> list_grouper = grouper_for({lists, keys.slice(0, 3)});
  const Array list_batch1[] = {lists.slice(0, 2), keys.slice(0, 2)};
  const Array list_batch2[] = {lists.slice(2, 1), keys.slice(0, 1)};
  EXPECT_EQ(list_grouper->consume(list_batch1), (Ids{0, 1}));
  EXPECT_EQ(list_grouper->consume(list_batch2), (Ids{0}));
  EXPECT_TRUE(list_grouper->unique_keys()[0].equals(make_list_array<int32_t>({{{1}}, {{2}}})));

  std::unique_ptr<Grouper> unused = grouper_for({strings});
  EXPECT_EQ(unused->num_groups(), 0u);
  EXPECT_EQ(unused->unique_keys()[0].length(), 0);
}

TEST(Grouper, ManyGroupsGrowTheTable) {
  Int64Builder builder;
  StringBuilder strings;
  for (int64_t i = 0; i < 100000; ++i) {
    builder.append((i * 7919) % 30011);
    strings.append(std::to_string((i * 7919) % 30011));
  }
  const Array keys[] = {builder.finish()};
  const Array string_keys[] = {strings.finish()};
  for (std::span<const Array> columns :
       {std::span<const Array>(keys), std::span<const Array>(string_keys)}) {
    std::unique_ptr<Grouper> grouper = Grouper::make(std::vector<TypePtr>{columns[0].type()});
    const Ids ids = grouper->consume(columns);
    EXPECT_EQ(grouper->num_groups(), 30011u);
    EXPECT_EQ(ids[30011], ids[0]);
    EXPECT_EQ(ids[1], 1u);
    EXPECT_EQ(grouper->unique_keys()[0].length(), 30011);
  }
}

TEST(Grouper, SeveralColumnsWithNullsInEither) {
  const Array names = make_string_array({"a", std::nullopt, "a", std::nullopt, "b", "a", "a"});
  const Array numbers = make_array<int64_t>({1, 1, std::nullopt, std::nullopt, 1, 1, std::nullopt});
  EXPECT_EQ(group({names, numbers}, {make_string_array({"a", std::nullopt, "a", std::nullopt, "b"}),
                                     make_array<int64_t>({1, 1, std::nullopt, std::nullopt, 1})}),
            (Ids{0, 1, 2, 3, 4, 0, 2}));
  // The null of one column and the empty string or zero of the other stay apart.
  const Array empties = make_string_array({"", std::nullopt, ""});
  const Array zeros = make_array<int32_t>({0, 0, std::nullopt});
  EXPECT_EQ(group({empties, zeros, empties}, {make_string_array({"", std::nullopt, ""}),
                                              make_array<int32_t>({0, 0, std::nullopt}),
                                              make_string_array({"", std::nullopt, ""})}),
            (Ids{0, 1, 2}));
}

TEST(Grouper, SeveralColumnsNormalizeFloats) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Array floats = make_array<float>({-0.0f, 0.0f, nan, -nan, nan, 0.0f});
  const Array labels = make_string_array({"x", "x", "x", "x", "y", "y"});
  EXPECT_EQ(group({labels, floats}, {make_string_array({"x", "x", "y", "y"}),
                                     make_array<float>({0.0f, nan, nan, 0.0f})}),
            (Ids{0, 0, 1, 1, 2, 3}));
}

TEST(Grouper, SeveralColumnsSlicedAcrossBatches) {
  const Array names = make_string_array({"zz", "a", "b", std::nullopt, "a", "b"});
  const Array numbers = make_array<int16_t>({9, 1, 2, 1, 1, std::nullopt});
  std::unique_ptr<Grouper> grouper = grouper_for({names, numbers});
  const Array first[] = {names.slice(1, 2), numbers.slice(1, 2)};
  const Array empty[] = {names.slice(0, 0), numbers.slice(0, 0)};
  const Array second[] = {names.slice(2, 4), numbers.slice(2, 4)};
  EXPECT_EQ(grouper->consume(first), (Ids{0, 1}));
  EXPECT_EQ(grouper->consume(empty), Ids{});
  EXPECT_EQ(grouper->consume(second), (Ids{1, 2, 0, 3}));
  const std::vector<Array> unique = grouper->unique_keys();
  EXPECT_TRUE(unique[0].equals(make_string_array({"a", "b", std::nullopt, "b"})));
  EXPECT_TRUE(unique[1].equals(make_array<int16_t>({1, 2, 1, std::nullopt})));

  std::unique_ptr<Grouper> unused = grouper_for({names, numbers});
  EXPECT_EQ(unused->num_groups(), 0u);
  EXPECT_EQ(unused->unique_keys()[1].length(), 0);
}

TEST(Grouper, SeveralColumnsOfDictionaryAndNestedTypes) {
  const Array dictionary = make_string_array({"x", "y", "x"});
  const Array words = make_dictionary_array(int8(), {0, 1, 2, std::nullopt, 0}, dictionary);
  const Array lists = make_list_array<int32_t>({{{1}}, {{1}}, {{1}}, {{1}}, {{2}}});
  const Array flags = make_array<bool>({true, true, true, true, true});
  EXPECT_EQ(group({words, lists, flags}, {make_string_array({"x", "y", std::nullopt, "x"}),
                                          make_list_array<int32_t>({{{1}}, {{1}}, {{1}}, {{2}}}),
                                          make_array<bool>({true, true, true, true})}),
            (Ids{0, 1, 0, 2, 3}));
}

TEST(Grouper, ShortAndLongStringsHashByEveryByte) {
  // Strings of every length up to 40 that differ in a single byte each form their own group.
  StringBuilder builder;
  int64_t distinct = 0;
  for (int length = 0; length <= 40; ++length) {
    const std::string base(static_cast<size_t>(length), 'q');
    builder.append(base);
    ++distinct;
    for (int position = 0; position < length; ++position) {
      std::string changed = base;
      changed[static_cast<size_t>(position)] = 'r';
      builder.append(changed);
      ++distinct;
    }
    builder.append(base);
  }
  const Array strings[] = {builder.finish()};
  std::unique_ptr<Grouper> grouper = Grouper::make(std::vector<TypePtr>{strings[0].type()});
  grouper->consume(strings);
  EXPECT_EQ(grouper->num_groups(), static_cast<uint32_t>(distinct));
  const StringArray unique(grouper->unique_keys()[0]);
  ASSERT_EQ(unique.length(), distinct);
  EXPECT_EQ(unique.value(0), "");
  EXPECT_EQ(unique.value(distinct - 1), std::string(39, 'q') + "r");
}

TEST(Grouper, SeveralColumnsWithMoreThan65536Groups) {
  // 300 x 400 = 120000 combinations, each value of both columns repeated.
  StringBuilder names;
  Int64Builder numbers;
  constexpr int64_t kRows = 240000;
  for (int64_t i = 0; i < kRows; ++i) {
    const int64_t combination = (i * 7919) % 120000;
    names.append("name" + std::to_string(combination % 300));
    numbers.append(combination / 300);
  }
  const Array keys[] = {names.finish(), numbers.finish()};
  std::unique_ptr<Grouper> grouper =
      Grouper::make(std::vector<TypePtr>{keys[0].type(), keys[1].type()});
  const Ids ids = grouper->consume(keys);
  ASSERT_EQ(grouper->num_groups(), 120000u);
  const std::vector<Array> unique = grouper->unique_keys();
  const StringArray unique_names(unique[0]);
  const auto* unique_numbers = unique[1].data()->values<int64_t>(1);
  const StringArray key_names(keys[0]);
  const auto* key_numbers = keys[1].data()->values<int64_t>(1);
  for (int64_t i = 0; i < kRows; ++i) {
    const uint32_t g = ids[static_cast<size_t>(i)];
    ASSERT_EQ(unique_names.value(g), key_names.value(i));
    ASSERT_EQ(unique_numbers[g], key_numbers[i]);
  }
  EXPECT_EQ(ids[120000], ids[0]);
}

/// Group ids by first appearance, null (nullopt) as a key of its own.
Ids reference_ids(const std::vector<std::optional<int64_t>>& keys) {
  std::map<std::optional<int64_t>, uint32_t> groups;
  Ids ids;
  for (const std::optional<int64_t>& key : keys) {
    ids.push_back(groups.emplace(key, static_cast<uint32_t>(groups.size())).first->second);
  }
  return ids;
}

TEST(Grouper, IntegerKeysInAnyRangeAcrossBatches) {
  // Keys in a small range take a direct table that grows (up, down, sideways) as batches bring
  // keys outside it; keys far apart, or a far key in the middle of a batch, move the grouper to
  // its hash table, with the same ids.
  std::mt19937_64 random(5);
  const std::vector<std::vector<int64_t>> key_sets = {
      {0, 1, 2, 3},
      {-5, 7, 1000, -1000},
      {100000, 200000, 300000, 400000},
      {std::numeric_limits<int64_t>::min(), 0, std::numeric_limits<int64_t>::max()},
  };
  for (size_t set = 0; set < key_sets.size(); ++set) {
    std::vector<std::optional<int64_t>> keys;
    for (int64_t i = 0; i < 20000; ++i) {
      const std::vector<int64_t>& values = key_sets[std::min(set, static_cast<size_t>(i / 5000))];
      const int64_t value = values[random() % values.size()];
      // Around the value, except at the ends of the range.
      const bool extreme = value == std::numeric_limits<int64_t>::min() ||
                           value == std::numeric_limits<int64_t>::max();
      const int64_t spread = extreme ? 0 : static_cast<int64_t>(random() % 101) - 50;
      keys.push_back(random() % 20 == 0 ? std::nullopt : std::optional<int64_t>(value + spread));
    }
    const Array column = make_array<int64_t>(keys);
    std::unique_ptr<Grouper> grouper = grouper_for({column});
    Ids ids;
    for (int64_t begin = 0; begin < column.length(); begin += 3000) {
      const Array batch[] = {column.slice(begin, std::min<int64_t>(3000, column.length() - begin))};
      const Ids batch_ids = grouper->consume(batch);
      ids.insert(ids.end(), batch_ids.begin(), batch_ids.end());
    }
    const Ids expected = reference_ids(keys);
    EXPECT_EQ(ids, expected) << "key set " << set;
    const Array unique = grouper->unique_keys()[0];
    ASSERT_EQ(unique.length(), static_cast<int64_t>(grouper->num_groups()));
    std::vector<int64_t> first(grouper->num_groups(), -1);
    for (size_t i = 0; i < ids.size(); ++i) {
      if (first[ids[i]] < 0) {
        first[ids[i]] = static_cast<int64_t>(i);
      }
    }
    for (uint32_t g = 0; g < grouper->num_groups(); ++g) {
      EXPECT_TRUE(unique.slice(g, 1).equals(column.slice(first[g], 1))) << g;
    }
  }
  // Small signed integers spanning zero group as themselves.
  EXPECT_EQ(group({make_array<int16_t>({-1, 1, -32768, 32767, -1})},
                  {make_array<int16_t>({-1, 1, -32768, 32767})}),
            (Ids{0, 1, 2, 3, 0}));
  EXPECT_EQ(group({make_array<uint32_t>({4294967295u, 0, 4294967295u})},
                  {make_array<uint32_t>({4294967295u, 0})}),
            (Ids{0, 1, 0}));
}

TEST(Grouper, Errors) {
  const Array ints = make_array<int64_t>({1});
  std::unique_ptr<Grouper> grouper = grouper_for({ints});
  const Array wrong_type[] = {make_array<int32_t>({1})};
  EXPECT_THROW(grouper->consume(wrong_type), InvalidArgument);
  const Array two[] = {ints, ints};
  EXPECT_THROW(grouper->consume(two), InvalidArgument);
  EXPECT_THROW(Grouper::make(std::vector<TypePtr>{}), InvalidArgument);
}

}  // namespace
}  // namespace bowstring::compute
