#include <gtest/gtest.h>

#include "bowstring/compute/collection/collection_testing.h"
#include "bowstring/compute/core/errors.h"

namespace bowstring::compute::collection {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace)

const IntLists kLists{Ints{1, 2, kNull, 2}, Ints{}, kNull, Ints{3}};

/// `name(lists, extra...)` gives `expected` on the lists as they are and as a slice of a longer
/// array (whose offsets do not start at 0 and whose child holds elements outside the window).
void expect_on_lists(std::string_view name, std::vector<Datum> extra, const Array& expected) {
  for (const Array& input : {int_lists(kLists), sliced_int_lists(kLists)}) {
    std::vector<Datum> arguments{input};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    expect_equal(run(name, arguments), expected);
  }
}

TEST(ArrayFunctionsTest, ArrayOfColumnsAndScalars) {
  expect_equal(run("array", {ints({1, kNull}), int_scalar(7)}),
               int_lists({Ints{1, 7}, Ints{kNull, 7}}));
  const Datum scalar = run("array", {int_scalar(1), int_scalar(2)});
  EXPECT_TRUE(scalar.is_scalar());
  expect_equal(scalar, int_lists({Ints{1, 2}}));
  // Arguments are cast to their common type.
  EXPECT_TRUE(run("array", {int_scalar(1), string_scalar("2")}).type()->equals(*list(int64())));
}

TEST(ArrayFunctionsTest, SizeIsNullForANullArrayWithAnsiAndMinusOneWithout) {
  expect_on_lists("size", {}, ints({4, 0, kNull, 1}));
  expect_on_lists("array_size", {}, ints({4, 0, kNull, 1}));
  expect_equal(run("cardinality", {int_lists(kLists)}, /*ansi=*/false), ints({4, 0, -1, 1}));
  expect_equal(run("array_size", {int_lists(kLists)}, /*ansi=*/false), ints({4, 0, kNull, 1}));
}

TEST(ArrayFunctionsTest, ArrayContainsFollowsThreeValuedLogic) {
  using bowstring::testing::make_array;
  expect_on_lists("array_contains", {int_scalar(2)}, make_array<bool>({true, false, kNull, false}));
  // Not found but a null element: unknown.
  expect_on_lists("array_contains", {int_scalar(5)},
                  make_array<bool>({kNull, false, kNull, false}));
  expect_on_lists("array_contains", {Datum::null_scalar(int32())},
                  make_array<bool>({kNull, kNull, kNull, kNull}));
  expect_equal(
      run("array_contains", {string_lists({Strings{"a", "b"}, Strings{}}), strings({"b", "b"})}),
      make_array<bool>({true, false}));
}

TEST(ArrayFunctionsTest, PositionAndRemove) {
  using bowstring::testing::make_array;
  expect_on_lists("array_position", {int_scalar(2)}, make_array<int64_t>({2, 0, kNull, 0}));
  expect_on_lists("array_remove", {int_scalar(2)},
                  int_lists({Ints{1, kNull}, Ints{}, kNull, Ints{3}}));
}

TEST(ArrayFunctionsTest, ElementAtCountsFromOneAndFromTheEnd) {
  expect_on_lists("try_element_at", {int_scalar(1)}, ints({1, kNull, kNull, 3}));
  const Array lists = sliced_int_lists({Ints{1, 2, 3}, Ints{4}});
  expect_equal(run("element_at", {lists, int_scalar(-1)}), ints({3, 4}));
  expect_equal(run("element_at", {lists, ints({2, kNull})}), ints({2, kNull}));
  expect_equal(run("try_element_at", {lists, int_scalar(3)}), ints({3, kNull}));
  expect_equal(run("element_at", {lists, int_scalar(3)}, /*ansi=*/false), ints({3, kNull}));
  expect_equal(run("get", {lists, int_scalar(0)}), ints({1, 4}));
  expect_equal(run("get", {lists, int_scalar(-1)}), ints({kNull, kNull}));
}

TEST(ArrayFunctionsTest, ElementAtErrors) {
  const Array lists = int_lists({Ints{1, 2, 3}});
  EXPECT_EQ(condition_of([&] {
              run("element_at", {lists, int_scalar(4)});
            }),
            "INVALID_ARRAY_INDEX_IN_ELEMENT_AT");
  EXPECT_EQ(condition_of([&] {
              run("element_at", {lists, int_scalar(0)});
            }),
            "INVALID_INDEX_OF_ZERO");
  // Index 0 is refused also without ANSI mode and by try_element_at.
  EXPECT_EQ(condition_of([&] {
              run("try_element_at", {lists, int_scalar(0)}, false);
            }),
            "INVALID_INDEX_OF_ZERO");
  EXPECT_EQ(condition_of([&] {
              run("element_at", {ints({1}), int_scalar(1)});
            }),
            "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
}

TEST(ArrayFunctionsTest, Slice) {
  expect_on_lists("slice", {int_scalar(2), int_scalar(2)},
                  int_lists({Ints{2, kNull}, Ints{}, kNull, Ints{}}));
  expect_on_lists("slice", {int_scalar(-2), int_scalar(5)},
                  int_lists({Ints{kNull, 2}, Ints{}, kNull, Ints{}}));
  const Array lists = int_lists({Ints{1}});
  EXPECT_EQ(condition_of([&] {
              run("slice", {lists, int_scalar(0), int_scalar(1)});
            }),
            "INVALID_PARAMETER_VALUE.START");
  EXPECT_EQ(condition_of([&] {
              run("slice", {lists, int_scalar(1), int_scalar(-1)});
            }),
            "INVALID_PARAMETER_VALUE.LENGTH");
}

TEST(ArrayFunctionsTest, RepeatFlattenCompactAppendPrepend) {
  expect_equal(run("array_repeat", {strings({"a", kNull}), ints({2, 1})}),
               string_lists({Strings{"a", "a"}, Strings{kNull}}));
  expect_equal(run("array_repeat", {int_scalar(1), ints({-1, kNull})}), int_lists({Ints{}, kNull}));
  const Datum lists_of_lists = run("array", {sliced_int_lists({Ints{1, 2}, kNull, Ints{}}),
                                             sliced_int_lists({Ints{3}, Ints{4}, Ints{}})});
  expect_equal(run("flatten", {lists_of_lists}), int_lists({Ints{1, 2, 3}, kNull, Ints{}}));
  expect_on_lists("array_compact", {}, int_lists({Ints{1, 2, 2}, Ints{}, kNull, Ints{3}}));
  expect_on_lists("array_append", {int_scalar(9)},
                  int_lists({Ints{1, 2, kNull, 2, 9}, Ints{9}, kNull, Ints{3, 9}}));
  expect_on_lists("array_prepend", {Datum::null_scalar(int32())},
                  int_lists({Ints{kNull, 1, 2, kNull, 2}, Ints{kNull}, kNull, Ints{kNull, 3}}));
}

TEST(ArrayFunctionsTest, ArrayInsertCountsNegativePositionsFromAfterTheLastElement) {
  const Array lists = sliced_int_lists({Ints{1, 2, 3}, Ints{1, 2}, kNull});
  const auto insert = [&](int32_t position) {
    return run("array_insert", {lists, int_scalar(position), int_scalar(9)});
  };
  expect_equal(insert(-1), int_lists({Ints{1, 2, 3, 9}, Ints{1, 2, 9}, kNull}));
  expect_equal(insert(-3), int_lists({Ints{1, 9, 2, 3}, Ints{9, 1, 2}, kNull}));
  expect_equal(insert(-5),
               int_lists({Ints{9, kNull, 1, 2, 3}, Ints{9, kNull, kNull, 1, 2}, kNull}));
  expect_equal(insert(1), int_lists({Ints{9, 1, 2, 3}, Ints{9, 1, 2}, kNull}));
  expect_equal(insert(5), int_lists({Ints{1, 2, 3, kNull, 9}, Ints{1, 2, kNull, kNull, 9}, kNull}));
  expect_equal(run("array_insert", {lists, int_scalar(1), Datum::null_scalar(int32())}),
               int_lists({Ints{kNull, 1, 2, 3}, Ints{kNull, 1, 2}, kNull}));
  EXPECT_EQ(condition_of([&] { insert(0); }), "INVALID_INDEX_OF_ZERO");
}

TEST(ArrayFunctionsTest, SequenceOfIntegers) {
  expect_equal(run("sequence", {ints({1, 5, kNull, 2}), ints({3, 1, 1, 2})}),
               int_lists({Ints{1, 2, 3}, Ints{5, 4, 3, 2, 1}, kNull, Ints{2}}));
  expect_equal(run("sequence", {int_scalar(1), int_scalar(10), int_scalar(3)}),
               int_lists({Ints{1, 4, 7, 10}}));
  EXPECT_TRUE(
      run("sequence", {int_scalar(1), Datum::scalar(bowstring::testing::make_array<int64_t>({2}))})
          .type()
          ->equals(*list(int64())));
  EXPECT_EQ(condition_of([&] {
              run("sequence", {int_scalar(1), int_scalar(5), int_scalar(-1)});
            }),
            "_LEGACY_ERROR_TEMP_3243");
}

TEST(ArrayFunctionsTest, ShuffleIsAPermutationFixedByTheSeed) {
  Ints many;
  for (int32_t k = 0; k < 50; ++k) {
    many.emplace_back(k);
  }
  const Array lists = sliced_int_lists({many, Ints{}, kNull, Ints{1, kNull}});
  const Datum seed = Datum::scalar(bowstring::testing::make_array<int64_t>({42}));
  const Datum first = run("shuffle", {lists, seed});
  expect_equal(run("shuffle", {lists, seed}), first.array());
  EXPECT_FALSE(first.array().equals(lists));
  EXPECT_FALSE(run("shuffle", {lists, Datum::scalar(bowstring::testing::make_array<int64_t>({7}))})
                   .array()
                   .equals(first.array()));
  // Sorted again, the elements are the input's.
  expect_equal(run("sort_array", {first}), run("sort_array", {lists}).array());
  EXPECT_FALSE(default_registry().get("shuffle").deterministic());
}

TEST(ArrayFunctionsTest, JoinMaxMin) {
  const Array words = string_lists({Strings{"a", kNull, "b"}, Strings{}, kNull});
  expect_equal(run("array_join", {words, string_scalar("-")}), strings({"a-b", "", kNull}));
  expect_equal(run("array_join", {words, string_scalar("-"), string_scalar("?")}),
               strings({"a-?-b", "", kNull}));
  expect_on_lists("array_max", {}, ints({2, kNull, kNull, 3}));
  expect_on_lists("array_min", {}, ints({1, kNull, kNull, 3}));
  expect_equal(run("array_max", {words}), strings({"b", kNull, kNull}));
}

TEST(ArrayFunctionsTest, SortArrayPlacesNullsByDirection) {
  expect_on_lists("sort_array", {}, int_lists({Ints{kNull, 1, 2, 2}, Ints{}, kNull, Ints{3}}));
  expect_on_lists("sort_array", {Datum::scalar(bowstring::testing::make_array<bool>({false}))},
                  int_lists({Ints{2, 2, 1, kNull}, Ints{}, kNull, Ints{3}}));
  expect_on_lists("array_sort", {}, int_lists({Ints{1, 2, 2, kNull}, Ints{}, kNull, Ints{3}}));
  expect_equal(run("sort_array", {string_lists({Strings{"b", "a", kNull}})}),
               string_lists({Strings{kNull, "a", "b"}}));
}

TEST(ArrayFunctionsTest, ReverseAndConcatTakeArraysAsWellAsStrings) {
  expect_on_lists("reverse", {}, int_lists({Ints{2, kNull, 2, 1}, Ints{}, kNull, Ints{3}}));
  expect_equal(run("reverse", {strings({"abc"})}), strings({"cba"}));
  expect_on_lists("concat", {int_lists({Ints{7}, Ints{8}, Ints{9}, kNull})},
                  int_lists({Ints{1, 2, kNull, 2, 7}, Ints{8}, kNull, kNull}));
  expect_equal(run("concat", {strings({"a"}), strings({"b"})}), strings({"ab"}));
  EXPECT_EQ(condition_of([&] {
              run("concat", {int_lists({Ints{1}}), strings({"b"})});
            }),
            "DATATYPE_MISMATCH.DATA_DIFF_TYPES");
}

TEST(ArrayFunctionsTest, SetOperationsKeepFirstOccurrences) {
  expect_on_lists("array_distinct", {}, int_lists({Ints{1, 2, kNull}, Ints{}, kNull, Ints{3}}));
  const Array other = int_lists({Ints{2, 5, kNull}, Ints{1}, Ints{1}, Ints{}});
  expect_on_lists("array_union", {other},
                  int_lists({Ints{1, 2, kNull, 5}, Ints{1}, kNull, Ints{3}}));
  expect_on_lists("array_intersect", {other}, int_lists({Ints{2, kNull}, Ints{}, kNull, Ints{}}));
  expect_on_lists("array_except", {other}, int_lists({Ints{1}, Ints{}, kNull, Ints{3}}));
  using bowstring::testing::make_array;
  expect_on_lists("arrays_overlap", {int_lists({Ints{2}, Ints{1}, Ints{1}, Ints{4}})},
                  make_array<bool>({true, false, kNull, false}));
  // No common element, both non-empty and a null among them: unknown.
  expect_on_lists("arrays_overlap", {int_lists({Ints{7}, Ints{1}, Ints{1}, Ints{kNull}})},
                  make_array<bool>({kNull, false, kNull, kNull}));
  expect_equal(run("array_distinct", {string_lists({Strings{"x", "y", "x"}})}),
               string_lists({Strings{"x", "y"}}));
}

TEST(ArrayFunctionsTest, ArraysZipPadsShorterArrays) {
  const Datum zipped = run(
      "arrays_zip", {sliced_int_lists({Ints{1, 2}, Ints{}}), string_lists({Strings{"a"}, kNull})});
  const Array expected_fields =
      bowstring::testing::make_struct_array({{"0", ints({1, 2})}, {"1", strings({"a", kNull})}});
  const Array first = Array(zipped.array().data()->children[0]);
  EXPECT_TRUE(first.equals(expected_fields)) << first.to_string();
  EXPECT_TRUE(zipped.array().is_null(1));
}

TEST(ArrayFunctionsTest, MismatchedElementTypesAreRefused) {
  EXPECT_EQ(condition_of([&] {
              run("array_contains", {int_lists({Ints{1}}), string_scalar("a")});
            }),
            "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES");
  EXPECT_EQ(condition_of([&] {
              run("array_union", {int_lists({Ints{1}}), string_lists({Strings{"a"}})});
            }),
            "DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES");
}

}  // namespace
}  // namespace bowstring::compute::collection
