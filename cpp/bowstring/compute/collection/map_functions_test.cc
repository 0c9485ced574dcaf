#include <gtest/gtest.h>

#include "bowstring/compute/collection/collection_testing.h"
#include "bowstring/compute/core/errors.h"

namespace bowstring::compute::collection {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace)
using bowstring::testing::make_array;

/// Maps {1: a, 2: b}, {}, null, {3: null} built from arrays of keys and values.
Datum sample_maps() {
  return run("map_from_arrays",
             {sliced_int_lists({Ints{1, 2}, Ints{}, kNull, Ints{3}}),
              string_lists({Strings{"a", "b"}, Strings{}, Strings{}, Strings{kNull}})});
}

TEST(MapFunctionsTest, KeysValuesEntriesShareTheMapsData) {
  const Datum maps = sample_maps();
  EXPECT_TRUE(maps.type()->equals(*map(int32(), utf8())));
  expect_equal(run("map_keys", {maps}), int_lists({Ints{1, 2}, Ints{}, kNull, Ints{3}}));
  expect_equal(run("map_values", {maps}),
               string_lists({Strings{"a", "b"}, Strings{}, kNull, Strings{kNull}}));
  expect_equal(run("size", {maps}), ints({2, 0, kNull, 1}));
  const Datum entries = run("map_entries", {maps});
  EXPECT_EQ(entries.type()->field(0)->type()->field(0)->name(), "key");
  expect_equal(run("map_from_entries", {entries}), maps.array());
  // On a slice of the maps too.
  expect_equal(run("map_keys", {Datum(maps.array().slice(1, 3))}),
               int_lists({Ints{}, kNull, Ints{3}}));
}

TEST(MapFunctionsTest, LookUpByKey) {
  const Datum maps = sample_maps();
  expect_equal(run("element_at", {maps, int_scalar(2)}), strings({"b", kNull, kNull, kNull}));
  expect_equal(run("try_element_at", {maps, ints({1, 1, 1, 3})}),
               strings({"a", kNull, kNull, kNull}));
  expect_equal(run("map_contains_key", {maps, ints({2, 2, 2, 3})}),
               make_array<bool>({true, false, kNull, true}));
}

TEST(MapFunctionsTest, CreateMapAndConcat) {
  const Datum maps =
      run("map", {ints({1, 2}), strings({"a", "b"}), int_scalar(5), strings({"c", kNull})});
  expect_equal(run("map_keys", {maps}), int_lists({Ints{1, 5}, Ints{2, 5}}));
  expect_equal(run("map_values", {maps}), string_lists({Strings{"a", "c"}, Strings{"b", kNull}}));
  const Datum joined = run("map_concat", {maps, run("map", {int_scalar(7), string_scalar("z")})});
  expect_equal(run("map_keys", {joined}), int_lists({Ints{1, 5, 7}, Ints{2, 5, 7}}));
  EXPECT_EQ(condition_of([&] { run("map", {int_scalar(1)}); }),
            "WRONG_NUM_ARGS.WITHOUT_SUGGESTION");
}

TEST(MapFunctionsTest, RepeatedKeysFollowTheDedupPolicy) {
  const std::vector<Datum> arguments{ints({1, 1}), strings({"a", "b"}), ints({2, 1}),
                                     strings({"c", "d"})};
  EXPECT_EQ(condition_of([&] { run("map", arguments); }), "DUPLICATED_MAP_KEY");
  // LAST_WIN keeps the last value in the first key's place.
  const Datum last_win = run("map", arguments, true, MapKeyDedupPolicy::kLastWin);
  expect_equal(run("map_keys", {last_win}), int_lists({Ints{1, 2}, Ints{1}}));
  expect_equal(run("map_values", {last_win}), string_lists({Strings{"a", "c"}, Strings{"d"}}));
  EXPECT_EQ(condition_of([&] {
              run("map_from_arrays", {int_lists({Ints{1, 1}}), string_lists({Strings{"a", "b"}})});
            }),
            "DUPLICATED_MAP_KEY");
}

TEST(MapFunctionsTest, NullKeysAndLengthMismatchesAreRefused) {
  EXPECT_EQ(condition_of([&] { run("map", {ints({kNull}), strings({"a"})}); }), "NULL_MAP_KEY");
  EXPECT_EQ(condition_of([&] {
              run("map_from_arrays", {int_lists({Ints{kNull}}), string_lists({Strings{"a"}})});
            }),
            "NULL_MAP_KEY");
  EXPECT_FALSE(condition_of([&] {
                 run("map_from_arrays", {int_lists({Ints{1, 2}}), string_lists({Strings{"a"}})});
               }).empty());
  EXPECT_EQ(condition_of([&] {
              run("element_at", {sample_maps(), string_scalar("1")});
            }),
            "DATATYPE_MISMATCH.MAP_FUNCTION_DIFF_TYPES");
}

TEST(MapFunctionsTest, StrToMapSplitsAroundRegularExpressions) {
  const Datum maps = run("str_to_map", {strings({"a:1,b", kNull, "", "k:v:w"})});
  expect_equal(run("map_keys", {maps}),
               string_lists({Strings{"a", "b"}, kNull, Strings{""}, Strings{"k"}}));
  expect_equal(run("map_values", {maps}),
               string_lists({Strings{"1", kNull}, kNull, Strings{kNull}, Strings{"v:w"}}));
  const Datum custom =
      run("str_to_map", {strings({"x=1;y=2"}), string_scalar(";"), string_scalar("=")});
  expect_equal(run("map_keys", {custom}), string_lists({Strings{"x", "y"}}));
  // '.' is a regular expression: every character splits, giving empty keys twice.
  EXPECT_EQ(condition_of([&] {
              run("str_to_map", {strings({"a.b"}), string_scalar("."), string_scalar("x")});
            }),
            "DUPLICATED_MAP_KEY");
}

TEST(StructFunctionsTest, StructAndNamedStruct) {
  const Datum made = run("struct", {ints({1, kNull}), string_scalar("x")});
  EXPECT_EQ(made.type()->field(0)->name(), "col1");
  EXPECT_EQ(made.type()->field(1)->name(), "col2");
  expect_equal(made, bowstring::testing::make_struct_array(
                         {{"col1", ints({1, kNull})}, {"col2", strings({"x", "x"})}}));
  const Datum named = run(
      "named_struct", {string_scalar("a"), ints({1, 2}), string_scalar("b"), string_scalar("y")});
  EXPECT_EQ(named.type()->field(0)->name(), "a");
  EXPECT_EQ(named.type()->field(1)->name(), "b");
  EXPECT_EQ(condition_of([&] {
              run("named_struct", {strings({"a", "b"}), ints({1, 2})});
            }),
            "DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING");
}

}  // namespace
}  // namespace bowstring::compute::collection
