#include "bowstring/compute/vector/sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

using bowstring::testing::array_of;
using bowstring::testing::booleans;
using bowstring::testing::doubles;
using bowstring::testing::error_message;
using bowstring::testing::int32s;
using bowstring::testing::int64s;
using bowstring::testing::make_struct_array;
using bowstring::testing::strings;

std::vector<uint64_t> rows_of(const Array& indices) {
  indices.validate_full();
  EXPECT_EQ(indices.type_id(), TypeId::kUInt64);
  const UInt64Array view(indices);
  return {view.values().begin(), view.values().end()};
}

std::vector<uint64_t> sorted(const Array& key, SortKey order = {}) {
  return rows_of(sort_indices(key, order));
}

using Rows = std::vector<uint64_t>;
const SortKey kAscending{true, std::nullopt};
const SortKey kDescending{false, std::nullopt};

TEST(SortIndices, IntegersWithSparkNullDefaults) {
  const Array values = int64s({3, std::nullopt, 1, 3, std::nullopt, -2});
  // Ascending puts nulls first, descending last (Spark's defaults); ties keep input order.
  EXPECT_EQ(sorted(values), (Rows{1, 4, 5, 2, 0, 3}));
  EXPECT_EQ(sorted(values, kDescending), (Rows{0, 3, 2, 5, 1, 4}));
  EXPECT_EQ(sorted(values, SortKey{true, false}), (Rows{5, 2, 0, 3, 1, 4}));
  EXPECT_EQ(sorted(values, SortKey{false, true}), (Rows{1, 4, 0, 3, 2, 5}));
}

TEST(SortIndices, EveryIntegerWidthAndTemporalType) {
  EXPECT_EQ(sorted(array_of<int8_t>(int8(), {5, -128, 127, std::nullopt})), (Rows{3, 1, 0, 2}));
  EXPECT_EQ(sorted(array_of<uint8_t>(uint8(), {200, 1, 255})), (Rows{1, 0, 2}));
  EXPECT_EQ(sorted(array_of<int16_t>(int16(), {-1, -32768, 1})), (Rows{1, 0, 2}));
  EXPECT_EQ(sorted(array_of<uint16_t>(uint16(), {65535, 0})), (Rows{1, 0}));
  EXPECT_EQ(sorted(int32s({2147483647, -2147483647 - 1, 0})), (Rows{1, 2, 0}));
  EXPECT_EQ(sorted(array_of<uint32_t>(uint32(), {4000000000u, 7})), (Rows{1, 0}));
  EXPECT_EQ(sorted(array_of<uint64_t>(uint64(), {18446744073709551615ull, 0, 1ull << 63})),
            (Rows{1, 2, 0}));
  EXPECT_EQ(sorted(array_of<int64_t>(int64(), {INT64_MAX, INT64_MIN, -1})), (Rows{1, 2, 0}));
  EXPECT_EQ(sorted(array_of<int32_t>(date32(), {19000, -5, std::nullopt})), (Rows{2, 1, 0}));
  EXPECT_EQ(sorted(array_of<int64_t>(timestamp(TimeUnit::kMicro, "UTC"), {5, -5}), kDescending),
            (Rows{0, 1}));
  EXPECT_EQ(sorted(array_of<int64_t>(duration(TimeUnit::kSecond), {3, 1, 2})), (Rows{1, 2, 0}));
  EXPECT_EQ(sorted(array_of<int32_t>(time32(TimeUnit::kMilli), {9, 8})), (Rows{1, 0}));
}

TEST(SortIndices, FloatsOrderNanAsSparkDoes) {
  const double nan = std::nan("");
  const Array values =
      doubles({nan, INFINITY, -0.0, std::nullopt, 0.0, -INFINITY, -nan, 1.5, -1e300});
  // NaN above +infinity, all NaNs equal (input order kept), -0.0 equal to 0.0.
  EXPECT_EQ(sorted(values), (Rows{3, 5, 8, 2, 4, 7, 1, 0, 6}));
  EXPECT_EQ(sorted(values, kDescending), (Rows{0, 6, 1, 7, 2, 4, 8, 5, 3}));
  const Array floats = array_of<float>(float32(), {NAN, 1.0f, -INFINITY, -0.0f, 0.0f});
  EXPECT_EQ(sorted(floats), (Rows{2, 3, 4, 1, 0}));
  // float16: 0x7E00 NaN, 0x3C00 1.0, 0xC000 -2.0, 0x8000 -0.0, 0x7C00 +infinity.
  const Array halves = array_of<uint16_t>(float16(), {0x7E00, 0x3C00, 0xC000, 0x8000, 0x7C00});
  EXPECT_EQ(sorted(halves), (Rows{2, 3, 1, 4, 0}));
}

TEST(SortIndices, BooleansFalseFirst) {
  EXPECT_EQ(sorted(booleans({true, false, std::nullopt, true, false})), (Rows{2, 1, 4, 0, 3}));
  EXPECT_EQ(sorted(booleans({true, false, std::nullopt, true}), kDescending), (Rows{0, 3, 1, 2}));
}

TEST(SortIndices, StringsByBytes) {
  const Array values =
      strings({"b", "a long shared prefix 2", "\xc3\xa9", "", "a long shared prefix 1",
               std::nullopt, "B", "a long shared prefix", "a"});
  // Upper case before lower case, é (0xC3 0xA9) after ASCII, a prefix before its extensions.
  const Rows expected{5, 3, 6, 8, 7, 4, 1, 0, 2};
  for (const TypePtr& type : {utf8(), large_utf8(), binary(), large_binary()}) {
    EXPECT_EQ(sorted(bowstring::testing::strings(
                  {"b", "a long shared prefix 2", "\xc3\xa9", "", "a long shared prefix 1",
                   std::nullopt, "B", "a long shared prefix", "a"},
                  type)),
              expected)
        << type->to_string();
  }
  EXPECT_EQ(sorted(bowstring::testing::views({"b", "a long shared prefix 2", "\xc3\xa9", "",
                                              "a long shared prefix 1", std::nullopt, "B",
                                              "a long shared prefix", "a"})),
            expected);
  EXPECT_EQ(sorted(values.slice(1, 4), kDescending), (Rows{1, 0, 3, 2}));
  const Array fixed =
      bowstring::testing::make_string_array({"bb", "ab", std::nullopt, "ba"}, fixed_size_binary(2));
  EXPECT_EQ(sorted(fixed), (Rows{2, 1, 3, 0}));
}

TEST(SortIndices, Decimals) {
  for (const TypePtr& type :
       {decimal32(9, 2), decimal64(18, 2), decimal128(38, 2), decimal256(76, 2)}) {
    const Array values = bowstring::testing::make_decimal_array(
        type, {"1.50", "-1.50", std::nullopt, "0.00", "-0.01", "1.49"});
    EXPECT_EQ(sorted(values), (Rows{2, 1, 4, 3, 5, 0})) << type->to_string();
    EXPECT_EQ(sorted(values.slice(1), kDescending), (Rows{4, 2, 3, 0, 1})) << type->to_string();
  }
}

TEST(SortIndices, DictionaryByValues) {
  const Array dictionary = strings({"pear", "apple", std::nullopt, "fig", "apple"});
  const Array codes = bowstring::testing::dictionary_of(
      bowstring::dictionary(int8(), utf8()), {0, 1, 2, std::nullopt, 3, 4, 1}, dictionary);
  // A null index and an index to a null value are both null; the two "apple" entries tie.
  EXPECT_EQ(sorted(codes), (Rows{2, 3, 1, 5, 6, 4, 0}));
  EXPECT_EQ(sorted(codes.slice(1, 4), kDescending), (Rows{3, 0, 1, 2}));
}

TEST(SortIndices, RunEndEncodedExtensionAndNull) {
  const Array runs = bowstring::testing::run_end_encoded_of(
      run_end_encoded(int32(), int64()), {2, 3, 5}, int64s({7, std::nullopt, 1}));
  EXPECT_EQ(sorted(runs), (Rows{2, 3, 4, 0, 1}));
  EXPECT_EQ(sorted(runs.slice(1, 3)), (Rows{1, 2, 0}));
  const Array ticks =
      bowstring::testing::make_array(extension(int64(), "example.ticks"), 3,
                                     {nullptr, bowstring::testing::buffer_of<int64_t>({3, 1, 2})});
  EXPECT_EQ(sorted(ticks), (Rows{1, 2, 0}));
  const Array nothing = bowstring::testing::make_array(null(), 3, {nullptr});
  EXPECT_EQ(sorted(nothing), (Rows{0, 1, 2}));
}

TEST(SortIndices, EmptyAndSliced) {
  EXPECT_EQ(sorted(int64s({})), Rows{});
  EXPECT_EQ(sorted(strings({})), Rows{});
  EXPECT_EQ(sorted(int64s({9, 4, std::nullopt, 1, 8}).slice(1, 3)), (Rows{1, 2, 0}));
  EXPECT_EQ(sorted(booleans({true, true, false, std::nullopt}).slice(1)), (Rows{2, 1, 0}));
}

TEST(SortIndices, ManyKeysBreakTies) {
  const Array first = strings({"b", "a", "b", std::nullopt, "a", std::nullopt});
  const Array second = int64s({1, 2, std::nullopt, 5, 2, 4});
  const Array third = doubles({0.5, 1.0, 0.0, 0.0, -1.0, 0.0});
  const std::vector<Array> keys{first, second, third};
  const std::vector<SortKey> order{kAscending, kDescending, kAscending};
  // Nulls of the first key tie and are ordered by the second key (descending: 5 before 4).
  EXPECT_EQ(rows_of(sort_indices(keys, order)), (Rows{3, 5, 4, 1, 0, 2}));
}

/// A reference: std::stable_sort with a comparator over the values read one by one.
Rows reference_sort(const std::vector<std::optional<int64_t>>& a,
                    const std::vector<std::optional<double>>& b, SortKey order_a, SortKey order_b) {
  Rows rows(a.size());
  std::iota(rows.begin(), rows.end(), 0);
  auto compare_a = [&](uint64_t x, uint64_t y) -> int {
    const auto &u = a[x], &v = a[y];
    if (!u.has_value() || !v.has_value()) {
      if (u.has_value() == v.has_value()) return 0;
      return !u.has_value() == order_a.nulls_go_first() ? -1 : 1;
    }
    const int raw = *u < *v ? -1 : (*u > *v ? 1 : 0);
    return order_a.ascending ? raw : -raw;
  };
  auto compare_b = [&](uint64_t x, uint64_t y) -> int {
    const auto &u = b[x], &v = b[y];
    if (!u.has_value() || !v.has_value()) {
      if (u.has_value() == v.has_value()) return 0;
      return !u.has_value() == order_b.nulls_go_first() ? -1 : 1;
    }
    // Spark: NaN above everything, NaN == NaN.
    const bool nan_u = std::isnan(*u), nan_v = std::isnan(*v);
    int raw;
    if (nan_u || nan_v) {
      raw = nan_u == nan_v ? 0 : (nan_u ? 1 : -1);
    } else {
      raw = *u < *v ? -1 : (*u > *v ? 1 : 0);
    }
    return order_b.ascending ? raw : -raw;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](uint64_t x, uint64_t y) {
    const int c = compare_a(x, y);
    return c != 0 ? c < 0 : compare_b(x, y) < 0;
  });
  return rows;
}

TEST(SortIndices, RandomizedAgainstReference) {
  std::mt19937_64 random(11);
  for (const int length : {0, 1, 7, 300, 5000}) {
    for (const int64_t range : {int64_t{3}, int64_t{1000}, int64_t{1} << 62}) {
      std::vector<std::optional<int64_t>> a;
      std::vector<std::optional<double>> b;
      for (int i = 0; i < length; ++i) {
        a.push_back(
            random() % 10 == 0
                ? std::nullopt
                : std::optional<int64_t>(
                      static_cast<int64_t>(random() % static_cast<uint64_t>(range)) - range / 2));
        const uint64_t pick = random() % 20;
        b.push_back(pick == 0   ? std::nullopt
                    : pick == 1 ? std::optional<double>(std::nan(""))
                    : pick == 2 ? std::optional<double>(-0.0)
                                : std::optional<double>(static_cast<double>(random() % 50) - 25));
      }
      const Array key_a = array_of<int64_t>(int64(), a);
      const Array key_b = doubles(b);
      for (const SortKey order_a : {kAscending, kDescending, SortKey{true, false}}) {
        for (const SortKey order_b : {kAscending, kDescending, SortKey{false, true}}) {
          const Rows expected = reference_sort(a, b, order_a, order_b);
          const std::vector<Array> keys{key_a, key_b};
          const std::vector<SortKey> order{order_a, order_b};
          ASSERT_EQ(rows_of(sort_indices(keys, order)), expected)
              << "length " << length << " range " << range;
          for (const int64_t n : {0, 1, 5, length / 2, length + 3}) {
            const Rows top = rows_of(top_n(keys, order, n));
            const Rows prefix(expected.begin(),
                              expected.begin() + std::min<int64_t>(n, std::ssize(expected)));
            ASSERT_EQ(top, prefix) << "top " << n << " of " << length;
          }
        }
      }
    }
  }
}

TEST(TopN, StringsAndNullsFirst) {
  const Array values = strings({"d", std::nullopt, "a", "c", std::nullopt, "a", "b"});
  const std::vector<Array> keys{values};
  const std::vector<SortKey> ascending{kAscending};
  EXPECT_EQ(rows_of(top_n(keys, ascending, 3)), (Rows{1, 4, 2}));
  EXPECT_EQ(rows_of(top_n(keys, ascending, 1)), (Rows{1}));
  const std::vector<SortKey> descending{kDescending};
  EXPECT_EQ(rows_of(top_n(keys, descending, 2)), (Rows{0, 3}));
  EXPECT_EQ(rows_of(top_n(keys, descending, 7)), (Rows{0, 3, 6, 2, 5, 1, 4}));
  EXPECT_THROW(top_n(keys, ascending, -1), InvalidArgument);
}

TEST(SortIndices, Errors) {
  const std::vector<Array> keys{int64s({1, 2}), int64s({1})};
  const std::vector<SortKey> order{kAscending, kAscending};
  EXPECT_EQ(error_message<InvalidArgument>([&] { sort_indices(keys, order); }),
            "sort_indices: sort key 1 has 1 rows but key 0 has 2");
  EXPECT_EQ(error_message<InvalidArgument>(
                [&] { sort_indices(std::span<const Array>(keys.data(), 1), order); }),
            "sort_indices: 1 sort keys but 2 orders");
  EXPECT_THROW(sort_indices(std::span<const Array>(), std::span<const SortKey>()), InvalidArgument);
  // Spark cannot order maps ([DATATYPE_MISMATCH.INVALID_ORDERING_TYPE]), nor structs or arrays
  // holding one.
  const Array maps = bowstring::testing::list_of(
      map(int64(), int64()), {0, 1},
      make_struct_array({{"key", int64s({1})}, {"value", int64s({2})}}));
  EXPECT_EQ(error_message<TypeError>([&] { sort_indices(maps); }),
            "sort_indices: cannot sort values of type " + maps.type()->to_string());
  const Array holder = make_struct_array({{"m", maps}});
  EXPECT_EQ(error_message<TypeError>([&] { sort_indices(holder); }),
            "sort_indices: cannot sort values of type " + holder.type()->to_string());
  const SortKey ascending{};
  EXPECT_EQ(error_message<TypeError>([&] {
              top_n(std::span<const Array>(&holder, 1), std::span<const SortKey>(&ascending, 1), 1);
            }),
            "top_n: cannot sort values of type " + holder.type()->to_string());
}

// --- nested keys: expectations checked with Spark 4 (ORDER BY key, id) ------------------------

/// struct<a: int64, b: double> over the rows (1, 2.0), null, (null, 5.0), (1, NaN), (1, null),
/// (0, 9.0), (1, Infinity), (null, null), (1, -0.0), (1, 0.0).
Array spark_structs() {
  const double nan = std::nan("");
  return make_struct_array(
      {{"a", int64s({1, 7, std::nullopt, 1, 1, 0, 1, std::nullopt, 1, 1})},
       {"b", doubles({2.0, 7.0, 5.0, nan, std::nullopt, 9.0, INFINITY, std::nullopt, -0.0, 0.0})}},
      {true, false, true, true, true, true, true, true, true, true});
}

TEST(SortNested, StructsFieldByField) {
  const Array values = spark_structs();
  // Fields compare in order, each ascending with its nulls smallest; NaN above Infinity, -0.0
  // ties 0.0. Descending reverses the whole comparison, nulls inside the fields included.
  EXPECT_EQ(sorted(values), (Rows{1, 7, 2, 5, 4, 8, 9, 0, 6, 3}));
  EXPECT_EQ(sorted(values, kDescending), (Rows{3, 6, 0, 8, 9, 4, 5, 2, 7, 1}));
  EXPECT_EQ(sorted(values, SortKey{true, false}), (Rows{7, 2, 5, 4, 8, 9, 0, 6, 3, 1}));
  EXPECT_EQ(sorted(values, SortKey{false, true}), (Rows{1, 3, 6, 0, 8, 9, 4, 5, 2, 7}));
  // Rows 2 to 6: (null, 5.0), (1, NaN), (1, null), (0, 9.0), (1, Infinity).
  EXPECT_EQ(sorted(values.slice(2, 5)), (Rows{0, 3, 2, 4, 1}));
  EXPECT_EQ(sorted(values.slice(2, 5), kDescending), (Rows{1, 4, 2, 3, 0}));
}

using DoubleLists = std::vector<std::optional<std::vector<std::optional<double>>>>;

/// array<double>: [1.0, 2.0], null, [], [1.0], [null], [1.0, null], [NaN], [1.0, NaN], [2.0],
/// [null, 1.0], [-0.0, 1.0], [0.0].
DoubleLists spark_lists() {
  const double nan = std::nan("");
  return {{{1.0, 2.0}},
          std::nullopt,
          {{}},
          {{1.0}},
          std::vector<std::optional<double>>{std::nullopt},
          {{1.0, std::nullopt}},
          {{nan}},
          {{1.0, nan}},
          {{2.0}},
          {{std::nullopt, 1.0}},
          {{-0.0, 1.0}},
          {{0.0}}};
}

TEST(SortNested, ListsElementByElementThenByLength) {
  for (const TypePtr& type :
       {list(float64()), large_list(float64()), list_view(float64()), large_list_view(float64())}) {
    const Array values = bowstring::testing::make_list_array<double>(type, spark_lists());
    // A null element is smaller than any value; a list is smaller than its extensions.
    EXPECT_EQ(sorted(values), (Rows{1, 2, 4, 9, 11, 10, 3, 5, 0, 7, 8, 6})) << type->to_string();
    EXPECT_EQ(sorted(values, kDescending), (Rows{6, 8, 7, 0, 5, 3, 10, 11, 9, 4, 2, 1}))
        << type->to_string();
    EXPECT_EQ(sorted(values, SortKey{true, false}), (Rows{2, 4, 9, 11, 10, 3, 5, 0, 7, 8, 6, 1}))
        << type->to_string();
    EXPECT_EQ(sorted(values, SortKey{false, true}), (Rows{1, 6, 8, 7, 0, 5, 3, 10, 11, 9, 4, 2}))
        << type->to_string();
    // Rows 3 to 8: [1.0], [null], [1.0, null], [NaN], [1.0, NaN], [2.0].
    EXPECT_EQ(sorted(values.slice(3, 6)), (Rows{1, 0, 2, 4, 5, 3})) << type->to_string();
  }
}

TEST(SortNested, FixedSizeLists) {
  using Int64Lists = std::vector<std::optional<std::vector<std::optional<int64_t>>>>;
  const Array values = bowstring::testing::make_list_array<int64_t>(
      fixed_size_list(int64(), 2),
      Int64Lists{
          {{1, 2}}, {{std::nullopt, 5}}, std::nullopt, {{1, std::nullopt}}, {{0, 9}}, {{1, 2}}});
  EXPECT_EQ(sorted(values), (Rows{2, 1, 4, 3, 0, 5}));
  EXPECT_EQ(sorted(values, kDescending), (Rows{0, 5, 3, 4, 1, 2}));
  EXPECT_EQ(sorted(values.slice(1, 4)), (Rows{1, 0, 3, 2}));
}

/// array<struct<x: string, y: array<int32>>> over the rows [("b", [1])], [("a", null)],
/// [("a", [])], [null], [], [("a", [null])], [("a", [0, 1])], null, [(null, [5])],
/// [("a", [0]), null]. The null structs hold values that must not matter.
Array spark_deep() {
  using Int32Lists = std::vector<std::optional<std::vector<std::optional<int32_t>>>>;
  const Array y = bowstring::testing::make_list_array<int32_t>(
      list(int32()), Int32Lists{{{1}},
                                std::nullopt,
                                {{}},
                                {{9}},
                                std::vector<std::optional<int32_t>>{std::nullopt},
                                {{0, 1}},
                                {{5}},
                                {{0}},
                                std::nullopt});
  const Array x = strings({"b", "a", "a", "z", "a", "a", std::nullopt, "a", "q"});
  const Array elements = make_struct_array(
      {{"x", x}, {"y", y}}, {true, true, true, false, true, true, true, true, false});
  return bowstring::testing::list_of(list(elements.type()), {0, 1, 2, 3, 4, 4, 5, 6, 6, 7, 9},
                                     elements,
                                     {true, true, true, true, true, true, true, false, true, true});
}

TEST(SortNested, ListsOfStructsOfLists) {
  const Array values = spark_deep();
  EXPECT_EQ(sorted(values), (Rows{7, 4, 3, 8, 1, 2, 5, 9, 6, 0}));
  EXPECT_EQ(sorted(values, kDescending), (Rows{0, 6, 9, 5, 2, 1, 8, 3, 4, 7}));
  // Rows 5 to 9 keep the relative order of the whole sort: 7, 8, 5, 9, 6.
  EXPECT_EQ(sorted(values.slice(5, 5)), (Rows{2, 3, 0, 4, 1}));
  // A struct whose field is that list, with the list's order reused inside.
  const Array outer =
      make_struct_array({{"v", values}, {"n", int64s({0, 0, 0, 0, 0, 0, 0, 0, 0, 0})}});
  EXPECT_EQ(sorted(outer), (Rows{7, 4, 3, 8, 1, 2, 5, 9, 6, 0}));
  EXPECT_EQ(sorted(outer.slice(5, 5), kDescending), (Rows{1, 4, 0, 3, 2}));
}

TEST(SortNested, DictionaryRunEndAndExtensionOfStructs) {
  const Array structs = spark_structs();
  // Rows pick structs 3 (1, NaN), 1 (null), 5 (0, 9.0), 8 (1, -0.0), 9 (1, 0.0), null index.
  const Array codes = bowstring::testing::dictionary_of(
      bowstring::dictionary(int8(), structs.type()), {3, 1, 5, 8, 9, std::nullopt}, structs);
  EXPECT_EQ(sorted(codes), (Rows{1, 5, 2, 3, 4, 0}));
  EXPECT_EQ(sorted(codes, kDescending), (Rows{0, 3, 4, 2, 1, 5}));
  const Array runs = bowstring::testing::run_end_encoded_of(
      run_end_encoded(int32(), structs.type()), {2, 3, 5}, structs.slice(4, 3));
  // Runs of (1, null), (0, 9.0), (1, Infinity).
  EXPECT_EQ(sorted(runs), (Rows{2, 0, 1, 3, 4}));
  const Array wrapped = bowstring::testing::make_array(
      extension(structs.type(), "example.point"), structs.length(), structs.data()->buffers,
      {StructArray(structs).field(0), StructArray(structs).field(1)});
  EXPECT_EQ(sorted(wrapped), (Rows{1, 7, 2, 5, 4, 8, 9, 0, 6, 3}));
  const Array listed = bowstring::testing::list_of(list(wrapped.type()), {0, 2, 3}, wrapped);
  EXPECT_EQ(sorted(listed), (Rows{1, 0}));
}

TEST(SortNested, EmptyAndAllNull) {
  EXPECT_EQ(sorted(spark_structs().slice(3, 0)), Rows{});
  EXPECT_EQ(sorted(spark_deep().slice(0, 0), kDescending), Rows{});
  const Array nulls = make_struct_array({{"a", int64s({1, 2, 3})}}, {false, false, false});
  EXPECT_EQ(sorted(nulls), (Rows{0, 1, 2}));
  EXPECT_EQ(sorted(nulls, kDescending), (Rows{0, 1, 2}));
}

TEST(SortNested, ManyKeysAndTopN) {
  using Int64Lists = std::vector<std::optional<std::vector<std::optional<int64_t>>>>;
  const Array lists =
      bowstring::testing::make_list_array<int64_t>(list(int64()), Int64Lists{{{1}},
                                                                             {{1}},
                                                                             std::nullopt,
                                                                             {{0, std::nullopt}},
                                                                             {{1}},
                                                                             std::nullopt,
                                                                             {{0, std::nullopt}}});
  const Array numbers = int64s({3, 1, 2, 5, 2, 1, 4});
  const std::vector<Array> keys{lists, numbers};
  const std::vector<SortKey> up_down{kAscending, kDescending};
  EXPECT_EQ(rows_of(sort_indices(keys, up_down)), (Rows{2, 5, 3, 6, 0, 4, 1}));
  EXPECT_EQ(rows_of(top_n(keys, up_down, 3)), (Rows{2, 5, 3}));
  const std::vector<SortKey> down_up{kDescending, kAscending};
  EXPECT_EQ(rows_of(sort_indices(keys, down_up)), (Rows{1, 4, 0, 6, 3, 5, 2}));
  EXPECT_EQ(rows_of(top_n(keys, down_up, 4)), (Rows{1, 4, 0, 6}));
  // The nested key second, breaking the ties of a flat one; sliced keys.
  const std::vector<Array> flat_first{numbers.slice(1), lists.slice(1)};
  EXPECT_EQ(rows_of(sort_indices(flat_first, up_down)), (Rows{0, 4, 3, 1, 5, 2}));
  EXPECT_EQ(rows_of(top_n(flat_first, up_down, 2)), (Rows{0, 4}));
}

// --- nested keys against a reference --------------------------------------------------------

/// A value of a nested key as the reference sees it: null, a number, or the fields of a struct
/// or the elements of a list.
struct Node {
  bool null = false;
  bool leaf = false;
  double number = 0;
  std::vector<Node> children;
};

/// Spark's ascending order: nulls smallest, NaN above every number, then field by field or
/// element by element, a list before its extensions.
int compare_nodes(const Node& a, const Node& b) {
  if (a.null || b.null) {
    return static_cast<int>(b.null) - static_cast<int>(a.null);
  }
  if (a.leaf) {
    const bool nan_a = std::isnan(a.number);
    const bool nan_b = std::isnan(b.number);
    if (nan_a || nan_b) {
      return static_cast<int>(nan_a) - static_cast<int>(nan_b);
    }
    return a.number < b.number ? -1 : (a.number > b.number ? 1 : 0);
  }
  const size_t common = std::min(a.children.size(), b.children.size());
  for (size_t i = 0; i < common; ++i) {
    const int order = compare_nodes(a.children[i], b.children[i]);
    if (order != 0) {
      return order;
    }
  }
  return a.children.size() < b.children.size() ? -1
                                               : (a.children.size() > b.children.size() ? 1 : 0);
}

Node leaf_node(std::optional<double> value) {
  return value.has_value() ? Node{false, true, *value, {}} : Node{true, true, 0, {}};
}

/// Rows `offset` to `offset + length` of (key, tie) sorted by the reference, tie ascending.
Rows reference_nested_sort(const std::vector<Node>& key, const std::vector<int64_t>& tie,
                           SortKey order, size_t offset, size_t length) {
  Rows rows(length);
  std::iota(rows.begin(), rows.end(), 0);
  auto compare_key = [&](uint64_t x, uint64_t y) {
    const Node& a = key[offset + x];
    const Node& b = key[offset + y];
    if (a.null || b.null) {
      if (a.null == b.null) {
        return 0;
      }
      return a.null == order.nulls_go_first() ? -1 : 1;
    }
    const int raw = compare_nodes(a, b);
    return order.ascending ? raw : -raw;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](uint64_t x, uint64_t y) {
    const int order_key = compare_key(x, y);
    return order_key != 0 ? order_key < 0 : tie[offset + x] < tie[offset + y];
  });
  return rows;
}

/// Sorts (key, tie) whole and sliced, in every order, and takes the first rows, against the
/// reference.
void expect_nested_sorts_like_reference(const Array& key, const std::vector<Node>& nodes,
                                        const std::vector<int64_t>& tie_values) {
  const Array tie =
      int64s(std::vector<std::optional<int64_t>>(tie_values.begin(), tie_values.end()));
  const auto length = static_cast<size_t>(key.length());
  std::vector<std::pair<size_t, size_t>> windows{{0, length}};
  if (length > 20) {
    windows.emplace_back(7, length - 13);
  }
  for (const SortKey order :
       {kAscending, kDescending, SortKey{true, false}, SortKey{false, true}}) {
    for (const auto& [offset, count] : windows) {
      const Rows expected = reference_nested_sort(nodes, tie_values, order, offset, count);
      const std::vector<Array> keys{
          key.slice(static_cast<int64_t>(offset), static_cast<int64_t>(count)),
          tie.slice(static_cast<int64_t>(offset), static_cast<int64_t>(count))};
      const std::vector<SortKey> orders{order, kAscending};
      ASSERT_EQ(rows_of(sort_indices(keys, orders)), expected)
          << key.type()->to_string() << " ascending " << order.ascending << " nulls first "
          << order.nulls_go_first() << " offset " << offset;
      for (const int64_t n : {int64_t{0}, int64_t{1}, int64_t{5}, std::ssize(expected) / 2,
                              std::ssize(expected) + 3}) {
        const Rows prefix(expected.begin(),
                          expected.begin() + std::min<int64_t>(n, std::ssize(expected)));
        ASSERT_EQ(rows_of(top_n(keys, orders, n)), prefix)
            << key.type()->to_string() << " top " << n << " offset " << offset;
      }
      if (offset == 0) {
        ASSERT_EQ(sorted(key, order),
                  reference_nested_sort(nodes, std::vector<int64_t>(length, 0), order, 0, length));
      }
    }
  }
}

TEST(SortNested, RandomizedStructsAgainstReference) {
  // struct<a: int64, b: struct<c: int32, d: double>> with nulls at every level; null structs
  // hold random fields that must not matter. Few distinct values, so that ties reach every
  // field and the tie-breaking key.
  std::mt19937_64 random(5);
  const double nan = std::nan("");
  const std::vector<std::optional<double>> doubles_pool{nan, -0.0, 0.0, 1.5, -1.0, std::nullopt};
  for (const int length : {0, 1, 9, 400, 3000}) {
    std::vector<std::optional<int64_t>> a;
    std::vector<std::optional<int32_t>> c;
    std::vector<std::optional<double>> d;
    std::vector<bool> b_valid;
    std::vector<bool> s_valid;
    std::vector<Node> nodes;
    std::vector<int64_t> tie;
    auto maybe = [&random](int64_t value) {
      return random() % 7 == 0 ? std::nullopt : std::optional<int64_t>(value);
    };
    for (int i = 0; i < length; ++i) {
      a.push_back(maybe(static_cast<int64_t>(random() % 5) - 2));
      const std::optional<int64_t> c_value = maybe(static_cast<int64_t>(random() % 3) - 1);
      c.push_back(c_value.has_value() ? std::optional<int32_t>(static_cast<int32_t>(*c_value))
                                      : std::nullopt);
      d.push_back(doubles_pool[random() % doubles_pool.size()]);
      b_valid.push_back(random() % 6 != 0);
      s_valid.push_back(random() % 8 != 0);
      tie.push_back(static_cast<int64_t>(random() % 3));
      Node b_node{!b_valid.back(), false, 0, {leaf_node(c.back()), leaf_node(d.back())}};
      const std::optional<double> a_number =
          a.back().has_value() ? std::optional<double>(static_cast<double>(*a.back()))
                               : std::nullopt;
      nodes.push_back(Node{!s_valid.back(), false, 0, {leaf_node(a_number), b_node}});
    }
    const Array b =
        make_struct_array({{"c", array_of<int32_t>(int32(), c)}, {"d", doubles(d)}}, b_valid);
    const Array key = make_struct_array({{"a", array_of<int64_t>(int64(), a)}, {"b", b}}, s_valid);
    expect_nested_sorts_like_reference(key, nodes, tie);
  }
}

TEST(SortNested, RandomizedListsAgainstReference) {
  // list<int32> with null lists, empty lists, null elements and shared prefixes; then the same
  // lists as the first field of a struct.
  using Int32Lists = std::vector<std::optional<std::vector<std::optional<int32_t>>>>;
  std::mt19937_64 random(9);
  for (const int length : {0, 1, 9, 400, 3000}) {
    Int32Lists lists;
    std::vector<Node> nodes;
    std::vector<std::optional<int64_t>> numbers;
    std::vector<Node> struct_nodes;
    std::vector<int64_t> tie;
    for (int i = 0; i < length; ++i) {
      Node node;
      if (random() % 10 == 0) {
        lists.emplace_back(std::nullopt);
        node.null = true;
      } else {
        std::vector<std::optional<int32_t>> elements;
        const uint64_t size = random() % 5;
        for (uint64_t k = 0; k < size; ++k) {
          elements.push_back(random() % 6 == 0 ? std::nullopt
                                               : std::optional<int32_t>(random() % 3));
          node.children.push_back(leaf_node(elements.back().has_value()
                                                ? std::optional<double>(*elements.back())
                                                : std::nullopt));
        }
        lists.emplace_back(elements);
      }
      nodes.push_back(node);
      numbers.push_back(random() % 5 == 0 ? std::nullopt : std::optional<int64_t>(random() % 2));
      struct_nodes.push_back(
          Node{false,
               false,
               0,
               {node, leaf_node(numbers.back().has_value() ? std::optional<double>(*numbers.back())
                                                           : std::nullopt)}});
      tie.push_back(static_cast<int64_t>(random() % 3));
    }
    for (const TypePtr& type : {list(int32()), large_list(int32()), list_view(int32())}) {
      const Array key = bowstring::testing::make_list_array<int32_t>(type, lists);
      expect_nested_sorts_like_reference(key, nodes, tie);
    }
    const Array key = bowstring::testing::make_list_array<int32_t>(list(int32()), lists);
    const Array holder =
        make_struct_array({{"l", key}, {"n", array_of<int64_t>(int64(), numbers)}});
    expect_nested_sorts_like_reference(holder, struct_nodes, tie);
  }
}

TEST(SortNested, NullStructsTieAndFallToTheNextKey) {
  // Null structs hold different fields; they tie, so the second key alone orders them, in
  // either direction of the struct key and wherever its nulls go.
  const Array key = make_struct_array(
      {{"a", int64s({5, 1, 3, 2, 4})}, {"b", strings({"x", "y", std::nullopt, "w", "v"})}},
      {false, true, false, false, true});
  const Array second = int64s({3, 9, 1, 2, 8});
  const std::vector<Array> keys{key, second};
  for (const SortKey order : {kAscending, kDescending, SortKey{false, true}}) {
    const std::vector<SortKey> orders{order, kAscending};
    const Rows rows = rows_of(sort_indices(keys, orders));
    const Rows null_rows = order.nulls_go_first() ? Rows(rows.begin(), rows.begin() + 3)
                                                  : Rows(rows.begin() + 2, rows.end());
    EXPECT_EQ(null_rows, (Rows{2, 3, 0}));
  }
  // A struct without fields: its non-null values all tie.
  const Array empty = bowstring::testing::make_array(struct_({}), 4, {nullptr}, {});
  EXPECT_EQ(sorted(empty, kDescending), (Rows{0, 1, 2, 3}));
}

}  // namespace
}  // namespace bowstring::compute

namespace bowstring::compute {
namespace {

TEST(SortIndices, ScratchSpaceComesFromTheCallersAllocator) {
  // Keys, entries and row lists are drawn from the allocator the caller passes, so that a
  // budget bounds the whole sort and the checked allocator sees every byte returned.
  std::vector<std::optional<int64_t>> values;
  std::vector<std::optional<std::string>> texts;
  for (int64_t i = 0; i < 5000; ++i) {
    values.push_back(i % 7 == 0 ? std::nullopt : std::optional<int64_t>((i * 7919) % 1000));
    std::string text = "k";
    text += std::to_string((i * 31) % 97);
    texts.push_back(text);
  }
  const Array numbers = bowstring::testing::int64s(values);
  const Array words = bowstring::testing::strings(texts);
  const std::vector<Array> keys{numbers, words};
  const std::vector<SortKey> order{SortKey{}, SortKey{false, std::nullopt}};

  CheckedAllocator checked(system_allocator());
  const std::vector<uint64_t> expected = rows_of(sort_indices(keys, order));
  {
    const Array indices = sort_indices(keys, order, &checked);
    EXPECT_EQ(rows_of(indices), expected);
    // The result holds 8 bytes a row; keys and (key, row) entries needed at least 24 more.
    EXPECT_GE(checked.stats().peak_bytes, 32 * 5000);
    const Array first = top_n(keys, order, 10, &checked);
    EXPECT_EQ(rows_of(first), std::vector<uint64_t>(expected.begin(), expected.begin() + 10));
  }
  EXPECT_EQ(checked.bytes_in_use(), 0);
  EXPECT_TRUE(checked.leaks().empty());

  BudgetedAllocator budget(system_allocator(), 12 * 5000, "sort budget");
  EXPECT_THROW(static_cast<void>(sort_indices(keys, order, &budget)), OutOfMemory);
  EXPECT_EQ(budget.bytes_in_use(), 0);
}

TEST(SortNested, ScratchSpaceComesFromTheCallersAllocator) {
  // Ordinals of fields and elements, row lists and entries of nested keys are drawn from the
  // caller's allocator too.
  using Int64Lists = std::vector<std::optional<std::vector<std::optional<int64_t>>>>;
  Int64Lists lists;
  std::vector<std::optional<int64_t>> numbers;
  for (int64_t i = 0; i < 3000; ++i) {
    lists.push_back(i % 11 == 0 ? std::nullopt
                                : std::optional<std::vector<std::optional<int64_t>>>(
                                      {i % 3, (i * 7) % 5, std::nullopt}));
    numbers.push_back(i % 13 == 0 ? std::nullopt : std::optional<int64_t>((i * 31) % 17));
  }
  const Array list_key = bowstring::testing::make_list_array<int64_t>(list(int64()), lists);
  const Array struct_key = make_struct_array({{"l", list_key}, {"n", int64s(numbers)}});
  for (const Array& key : {list_key, struct_key}) {
    const std::vector<uint64_t> expected = sorted(key, kDescending);
    CheckedAllocator checked(system_allocator());
    {
      EXPECT_EQ(rows_of(sort_indices(key, kDescending, &checked)), expected);
      const std::vector<Array> keys{key};
      const std::vector<SortKey> order{kDescending};
      EXPECT_EQ(rows_of(top_n(keys, order, 4, &checked)),
                std::vector<uint64_t>(expected.begin(), expected.begin() + 4));
      EXPECT_GE(checked.stats().peak_bytes, 32 * 3000);
    }
    EXPECT_EQ(checked.bytes_in_use(), 0);
    EXPECT_TRUE(checked.leaks().empty());
    BudgetedAllocator budget(system_allocator(), 16 * 3000, "sort budget");
    EXPECT_THROW(static_cast<void>(sort_indices(key, kDescending, &budget)), OutOfMemory);
    EXPECT_EQ(budget.bytes_in_use(), 0);
  }
}

}  // namespace
}  // namespace bowstring::compute
