#include "bowstring/compute/vector/selection.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bowstring/array/concatenate.h"
#include "bowstring/array/equal.h"
#include "bowstring/table/schema.h"
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
using bowstring::testing::sample_arrays;
using bowstring::testing::strings;

/// Checks that `taken` holds row `rows[i]` of `values` at each i (a null row for nullopt) and
/// passes full validation.
void expect_rows(const Array& values, const std::vector<std::optional<int64_t>>& rows,
                 const Array& taken, const std::string& name) {
  ASSERT_NO_THROW(taken.validate_full()) << name;
  ASSERT_EQ(taken.length(), static_cast<int64_t>(rows.size())) << name;
  ASSERT_TRUE(taken.type()->equals(*values.type())) << name;
  EqualOptions options;
  options.nans_equal = true;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto position = static_cast<int64_t>(i);
    if (!rows[i].has_value()) {
      EXPECT_TRUE(taken.is_null(position)) << name << " row " << i;
    } else {
      EXPECT_TRUE(array_range_equal(taken, position, values, *rows[i], 1, options))
          << name << " row " << i << ": " << taken.to_string() << " vs " << values.to_string();
    }
  }
}

/// `count` indices into an array of `length` rows, some null when `with_nulls`.
std::vector<std::optional<int64_t>> random_rows(int64_t length, int64_t count, bool with_nulls,
                                                std::mt19937_64& random) {
  std::vector<std::optional<int64_t>> rows;
  for (int64_t i = 0; i < count; ++i) {
    if (length == 0 || (with_nulls && random() % 5 == 0)) {
      rows.push_back(std::nullopt);
    } else {
      rows.push_back(static_cast<int64_t>(random() % static_cast<uint64_t>(length)));
    }
  }
  return rows;
}

/// Every sample array, and each one repeated to a few hundred rows (so that masks have whole
/// words of selected and unselected rows).
std::vector<std::pair<std::string, Array>> arrays_under_test() {
  std::vector<std::pair<std::string, Array>> result;
  for (const auto& [name, array] : sample_arrays()) {
    result.emplace_back(name, array);
    if (array.length() > 0) {
      std::vector<Array> copies(static_cast<size_t>(300 / array.length() + 1), array);
      result.emplace_back(name + " repeated", concatenate(copies));
    }
  }
  return result;
}

TEST(Take, EveryTypeWithNullIndices) {
  std::mt19937_64 random(42);
  for (const auto& [name, values] : arrays_under_test()) {
    for (const bool with_nulls : {false, true}) {
      const std::vector<std::optional<int64_t>> rows =
          random_rows(values.length(), 2 * values.length() + 3, with_nulls, random);
      const Array indices = array_of<int64_t>(int64(), rows);
      expect_rows(values, rows, take(values, indices), name);
      const Array narrow = array_of<int32_t>(int32(), [&] {
        std::vector<std::optional<int32_t>> narrow_rows;
        for (const auto& row : rows) {
          narrow_rows.push_back(row.has_value() ? std::optional<int32_t>(static_cast<int32_t>(*row))
                                                : std::nullopt);
        }
        return narrow_rows;
      }());
      expect_rows(values, rows, take(values, narrow), name + " int32 indices");
    }
  }
}

TEST(Take, SlicedIndicesAndEveryIndexType) {
  const Array values = strings({"a", "b", std::nullopt, "d"});
  const std::vector<std::optional<int64_t>> rows{3, std::nullopt, 0, 2};
  for (const TypePtr& type :
       {int8(), uint8(), int16(), uint16(), int32(), uint32(), int64(), uint64()}) {
    std::vector<std::optional<int64_t>> padded{1, 1};
    padded.insert(padded.end(), rows.begin(), rows.end());
    const Array indices = testing::make_array<int64_t>(int64(), padded);
    // Converted to each index type through a hand-built array of that width.
    std::vector<int64_t> raw;
    std::vector<bool> validity;
    for (const auto& row : padded) {
      raw.push_back(row.value_or(0));
      validity.push_back(row.has_value());
    }
    const Array typed =
        testing::make_array(type, static_cast<int64_t>(raw.size()),
                            {testing::validity_of(validity), testing::integers_of(*type, raw)});
    expect_rows(values, rows, take(values, typed.slice(2)), type->to_string());
    EXPECT_EQ(indices.length(), typed.length());
  }
}

TEST(Take, OutOfRangeNamesIndexAndLength) {
  const Array values = int64s({1, 2, 3});
  EXPECT_EQ(error_message<IndexError>([&] {
              take(values, int32s({0, 3}));
            }),
            "take: index 3 is out of bounds for an array of length 3");
  EXPECT_EQ(error_message<IndexError>([&] { take(values, int64s({-1})); }),
            "take: index -1 is out of bounds for an array of length 3");
  EXPECT_EQ(error_message<IndexError>(
                [&] { take(values, array_of<uint64_t>(uint64(), {18446744073709551615ull})); }),
            "take: index 18446744073709551615 is out of bounds for an array of length 3");
  const std::vector<int64_t> span_rows{0, 7};
  EXPECT_EQ(error_message<IndexError>([&] { take(values, std::span<const int64_t>(span_rows)); }),
            "take: index 7 is out of bounds for an array of length 3");
  // A null index is never out of range, whatever number its slot holds.
  const Array null_index = testing::raw_array<int64_t>(int64(), {99, 1}, {false, true});
  expect_rows(values, {std::nullopt, 1}, take(values, null_index), "null index");
  EXPECT_THROW(take(values, doubles({1.0})), TypeError);
}

TEST(Take, LongIndicesAreCheckedBlockByBlock) {
  std::vector<std::optional<int64_t>> numbers;
  for (int64_t i = 0; i < 100; ++i) {
    numbers.push_back(i % 7 == 0 ? std::nullopt : std::optional<int64_t>(i));
  }
  const Array values = int64s(numbers).slice(3, 90);
  std::mt19937_64 random(9);
  const std::vector<std::optional<int64_t>> rows = random_rows(90, 5001, false, random);
  std::vector<std::optional<int32_t>> narrow_rows;
  for (const auto& row : rows) {
    narrow_rows.push_back(static_cast<int32_t>(*row));
  }
  const Array wide = array_of<int64_t>(int64(), rows);
  const Array narrow = array_of<int32_t>(int32(), narrow_rows);
  const std::vector<std::optional<int64_t>> tail(rows.begin() + 1, rows.end());
  expect_rows(values, tail, take(values, wide.slice(1)), "int64 indices");
  expect_rows(values, tail, take(values, narrow.slice(1)), "int32 indices");
  expect_rows(int32s({5, 6, 7, 8}).slice(1), {2, 0, 2},
              take(int32s({5, 6, 7, 8}).slice(1), int64s({2, 0, 2})), "int32 values");
  // The first index out of range is named, in a later block as in the first.
  std::vector<std::optional<int64_t>> bad = rows;
  bad[4500] = 90;
  bad[4700] = -1;
  EXPECT_EQ(error_message<IndexError>([&] { take(values, array_of<int64_t>(int64(), bad)); }),
            "take: index 90 is out of bounds for an array of length 90");
  bad[3] = -2;
  EXPECT_EQ(error_message<IndexError>([&] { take(values, array_of<int64_t>(int64(), bad)); }),
            "take: index -2 is out of bounds for an array of length 90");
}

TEST(Take, EmptyInputs) {
  for (const auto& [name, values] : sample_arrays()) {
    expect_rows(values, {}, take(values, int64s({})), name);
    expect_rows(values.slice(0, 0), {std::nullopt, std::nullopt},
                take(values.slice(0, 0), int64s({std::nullopt, std::nullopt})), name + " empty");
  }
}

TEST(Take, SpanForms) {
  const Array values = strings({"zero", "one", std::nullopt, "three"}).slice(1);
  const std::vector<int32_t> narrow{2, 0, 0, 1};
  const std::vector<int64_t> wide{1, 2};
  expect_rows(values, {2, 0, 0, 1}, take(values, std::span<const int32_t>(narrow)), "int32 span");
  expect_rows(values, {1, 2}, take(values, std::span<const int64_t>(wide)), "int64 span");
}

TEST(Take, SharesDictionaryAndViewBuffers) {
  const Array dictionary = strings({"x", "y"});
  const Array codes =
      testing::dictionary_of(bowstring::dictionary(int8(), utf8()), {1, 0, 1}, dictionary);
  const Array taken = take(codes, int32s({2, 0}));
  EXPECT_EQ(taken.data()->dictionary, codes.data()->dictionary);
  const Array views = testing::views({"a string longer than twelve", "b"});
  const Array taken_views = take(views, int32s({0, 0}));
  EXPECT_EQ(taken_views.data()->buffers[2], views.data()->buffers[2]);
}

TEST(Take, RecordBatch) {
  auto schema = std::make_shared<Schema>(FieldVector{field("id", int64()), field("name", utf8())});
  const RecordBatch batch(schema, {int64s({1, 2, 3}), strings({"a", std::nullopt, "c"})});
  const RecordBatch taken = take(batch, int32s({2, std::nullopt, 0}));
  ASSERT_EQ(taken.num_rows(), 3);
  EXPECT_TRUE(taken.column(0).equals(int64s({3, std::nullopt, 1})));
  EXPECT_TRUE(taken.column(1).equals(strings({"c", std::nullopt, "a"})));
  EXPECT_THROW(take(batch, int32s({3})), IndexError);
}

/// The rows a mask selects, as take's row numbers.
std::vector<std::optional<int64_t>> selected_rows(const std::vector<std::optional<bool>>& mask) {
  std::vector<std::optional<int64_t>> rows;
  for (size_t i = 0; i < mask.size(); ++i) {
    if (mask[i].value_or(false)) {
      rows.push_back(static_cast<int64_t>(i));
    }
  }
  return rows;
}

TEST(Filter, EveryTypeWithNullMask) {
  std::mt19937_64 random(7);
  for (const auto& [name, values] : arrays_under_test()) {
    // Sparse, dense (whole words selected) and all-null masks.
    for (const int density : {10, 90, 100, 0}) {
      std::vector<std::optional<bool>> mask;
      for (int64_t i = 0; i < values.length(); ++i) {
        if (density > 0 && density < 100 && random() % 10 == 0) {
          mask.push_back(std::nullopt);
        } else {
          mask.push_back(static_cast<int>(random() % 100) < density);
        }
      }
      const Array mask_array = booleans(mask);
      expect_rows(values, selected_rows(mask), filter(values, mask_array),
                  name + " density " + std::to_string(density));
      const SelectionVector selection = selection_from_mask(mask_array);
      expect_rows(values, selected_rows(mask), take(values, selection), name + " selection");
    }
  }
}

TEST(Filter, SlicedMask) {
  const Array values = int64s({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}).slice(3, 5);
  const Array mask =
      booleans({true, true, true, false, true, std::nullopt, true, false, true, true}).slice(3, 5);
  expect_rows(values, {1, 3}, filter(values, mask), "sliced");
  const SelectionVector selection = selection_from_mask(mask);
  ASSERT_FALSE(selection.is_wide());
  EXPECT_EQ(std::vector<int32_t>(selection.narrow().begin(), selection.narrow().end()),
            (std::vector<int32_t>{1, 3}));
  EXPECT_TRUE(selection.to_array().equals(int32s({1, 3})));
}

TEST(Filter, LongBooleanAndFixedWidthWithOffsets) {
  // Unaligned offsets and runs of whole selected words exercise the word-wise copy.
  std::mt19937_64 random(3);
  std::vector<std::optional<bool>> bits;
  std::vector<std::optional<int16_t>> shorts;
  std::vector<std::optional<bool>> mask;
  for (int i = 0; i < 1000; ++i) {
    bits.push_back(i % 7 == 0 ? std::nullopt : std::optional<bool>(random() % 2 == 0));
    shorts.push_back(i % 11 == 0 ? std::nullopt : std::optional<int16_t>(i));
    mask.push_back(i < 300 || random() % 3 == 0);
  }
  for (const int64_t offset : {0, 3, 64, 129}) {
    const Array bool_values = booleans(bits).slice(offset);
    const Array short_values = array_of<int16_t>(int16(), shorts).slice(offset);
    const Array mask_array = booleans(mask).slice(0, 1000 - offset);
    std::vector<std::optional<bool>> mask_window(mask.begin(), mask.end() - offset);
    expect_rows(bool_values, selected_rows(mask_window), filter(bool_values, mask_array), "bool");
    expect_rows(short_values, selected_rows(mask_window), filter(short_values, mask_array),
                "int16");
  }
}

TEST(Filter, AllAndNoneSelected) {
  const Array values = strings({"a", "b"});
  EXPECT_TRUE(filter(values, booleans({true, true})).equals(values));
  const Array none = filter(values, booleans({false, std::nullopt}));
  EXPECT_EQ(none.length(), 0);
  none.validate_full();
  EXPECT_EQ(filter(int64s({}), booleans({})).length(), 0);
}

TEST(Filter, Errors) {
  const Array values = int64s({1, 2, 3});
  EXPECT_EQ(error_message<InvalidArgument>([&] { filter(values, booleans({true})); }),
            "filter: the mask has 1 rows but the values have 3");
  EXPECT_EQ(error_message<TypeError>([&] {
              filter(values, int64s({1, 0, 1}));
            }),
            "filter: the mask must be boolean, got int64");
}

TEST(Filter, RecordBatch) {
  auto schema =
      std::make_shared<Schema>(FieldVector{field("id", int64()), field("tags", list(int64()))});
  const Array tags =
      testing::make_list_array<int64_t>({{{1, 2}}, std::nullopt, {{}}, {{std::nullopt}}});
  const RecordBatch batch(schema, {int64s({1, 2, 3, 4}), tags});
  const RecordBatch filtered = filter(batch, booleans({true, std::nullopt, false, true}));
  ASSERT_EQ(filtered.num_rows(), 2);
  filtered.validate_full();
  EXPECT_TRUE(filtered.column(0).equals(int64s({1, 4})));
  EXPECT_TRUE(
      filtered.column(1).equals(testing::make_list_array<int64_t>({{{1, 2}}, {{std::nullopt}}})));
  EXPECT_THROW(filter(batch, booleans({true})), InvalidArgument);
}

}  // namespace
}  // namespace bowstring::compute
