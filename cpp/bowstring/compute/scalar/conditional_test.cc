#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/array/equal.h"
#include "bowstring/compute/scalar/predicates.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {
namespace {

using bowstring::testing::make_array;
using bowstring::testing::make_decimal_array;
using bowstring::testing::make_list_array;
using bowstring::testing::make_string_array;
using bowstring::testing::make_struct_array;

const std::nullopt_t kNull = std::nullopt;
using Bool = std::optional<bool>;
using Bools = std::vector<Bool>;
using Ints = std::vector<std::optional<int64_t>>;
using Strings = std::vector<std::optional<std::string>>;

Bools bools_of(const Datum& datum) {
  EXPECT_EQ(datum.type()->id(), TypeId::kBoolean);
  Bools out;
  const BooleanArray array(datum.array());
  for (int64_t i = 0; i < array.length(); ++i) {
    out.push_back(array.is_null(i) ? Bool() : array.value(i));
  }
  return out;
}

/// Checks that `actual` is a valid array equal to `expected`, printing both otherwise.
void expect_array(const Datum& actual, const Array& expected) {
  ASSERT_TRUE(actual);
  EXPECT_NO_THROW(actual.array().validate_full());
  EXPECT_TRUE(actual.array().equals(expected))
      << "actual " << actual.array().to_string() << "\nexpected " << expected.to_string();
}

Datum int_scalar(int64_t value) { return Datum::scalar(make_array<int64_t>({value})); }
Datum bool_scalar(Bool value) {
  return value ? Datum::scalar(make_array<bool>({*value})) : Datum::null_scalar(boolean());
}

/// The condition most tests use: true, false, null, true, false.
Array cond() { return make_array<bool>({true, false, kNull, true, false}); }

TEST(IfElseTest, IntegersNullConditionTakesOtherwise) {
  expect_array(if_else(cond(), make_array<int64_t>({1, 2, 3, kNull, 5}),
                       make_array<int64_t>({10, kNull, 30, 40, 50})),
               make_array<int64_t>({1, kNull, 30, kNull, 50}));
}

TEST(IfElseTest, ScalarBranchesAndScalarCondition) {
  expect_array(if_else(cond(), int_scalar(1), int_scalar(0)), make_array<int64_t>({1, 0, 0, 1, 0}));
  expect_array(if_else(cond(), int_scalar(1), Datum::null_scalar(int64())),
               make_array<int64_t>({1, kNull, kNull, 1, kNull}));
  const Array values = make_array<int64_t>({1, 2, 3});
  expect_array(if_else(bool_scalar(true), values, int_scalar(9)), values);
  expect_array(if_else(bool_scalar(kNull), values, int_scalar(9)), make_array<int64_t>({9, 9, 9}));
  const Datum scalar = if_else(bool_scalar(false), int_scalar(1), int_scalar(2));
  EXPECT_TRUE(scalar.is_scalar());
  expect_array(scalar, make_array<int64_t>({2}));
}

TEST(IfElseTest, EveryLayout) {
  const Strings a = {"apple", kNull, "a string longer than twelve bytes", "d", "e"};
  const Strings b = {"x", "y", "z", "another string longer than twelve", kNull};
  const Strings want = {"apple", "y", "z", "d", kNull};
  for (const TypePtr& type : {utf8(), large_utf8(), utf8_view(), binary(), large_binary()}) {
    expect_array(if_else(cond(), make_string_array(a, type), make_string_array(b, type)),
                 make_string_array(want, type));
  }
  expect_array(if_else(cond(), make_array<bool>({true, true, true, kNull, true}),
                       make_array<bool>({false, false, false, false, kNull})),
               make_array<bool>({true, false, false, kNull, kNull}));
  expect_array(if_else(cond(), make_array<double>({1.5, 2.5, 3.5, 4.5, 5.5}),
                       make_array<double>({-1, -2, -3, -4, -5})),
               make_array<double>({1.5, -2, -3, 4.5, -5}));
  const TypePtr decimal = decimal128(10, 2);
  expect_array(if_else(cond(), make_decimal_array(decimal, {"1.00", "2.00", "3.00", "4.00", "5"}),
                       make_decimal_array(decimal, {"-1", "-2", "-3", "-4", kNull})),
               make_decimal_array(decimal, {"1.00", "-2", "-3", "4.00", kNull}));
}

TEST(IfElseTest, NestedTypes) {
  const Array lists_a = make_list_array<int32_t>({{{1, 2}}, {{3}}, kNull, {{}}, {{4}}});
  const Array lists_b = make_list_array<int32_t>({{{9}}, kNull, {{8, 7}}, {{6}}, {{5, kNull}}});
  expect_array(if_else(cond(), lists_a, lists_b),
               make_list_array<int32_t>({{{1, 2}}, kNull, {{8, 7}}, {{}}, {{5, kNull}}}));

  const Array struct_a = make_struct_array({{"n", make_array<int64_t>({1, 2, 3, 4, 5})},
                                            {"s", make_string_array({"a", "b", "c", "d", "e"})}},
                                           {true, true, true, false, true});
  const Array struct_b = make_struct_array({{"n", make_array<int64_t>({10, 20, 30, 40, 50})},
                                            {"s", make_string_array({"v", "w", "x", "y", "z"})}});
  const Datum result = if_else(cond(), struct_a, struct_b);
  const Array want = make_struct_array({{"n", make_array<int64_t>({1, 20, 30, 4, 50})},
                                        {"s", make_string_array({"a", "w", "x", "d", "z"})}},
                                       {true, true, true, false, true});
  expect_array(result, want);
}

TEST(IfElseTest, SlicedAndEmptyInputs) {
  const Array values = make_array<int64_t>({0, 1, 2, 3, 4, 5, 6});
  const Array others = make_array<int64_t>({-0, -1, -2, -3, -4, -5, -6});
  expect_array(if_else(make_array<bool>({false, true, false}).slice(1, 2), values.slice(3, 2),
                       others.slice(5, 2)),
               make_array<int64_t>({3, -6}));
  const Array no_rows = make_array<int64_t>(Ints{});
  EXPECT_EQ(if_else(make_array<bool>(Bools{}), no_rows, no_rows).length(), 0);
}

TEST(IfElseTest, LongSlicedArraysAgainstLoop) {
  Bools conds;
  Ints a;
  Ints b;
  for (int i = 0; i < 200; ++i) {
    conds.push_back(i % 7 == 0 ? Bool() : Bool(i % 3 != 0));
    a.push_back(i % 5 == 0 ? std::nullopt : std::optional<int64_t>(i));
    b.push_back(i % 4 == 0 ? std::nullopt : std::optional<int64_t>(-i));
  }
  const Datum result =
      if_else(make_array<bool>(conds).slice(1, 190), make_array<int64_t>(a).slice(2, 190),
              make_array<int64_t>(b).slice(3, 190));
  Ints want;
  for (size_t i = 0; i < 190; ++i) {
    want.push_back(conds[i + 1] == true ? a[i + 2] : b[i + 3]);
  }
  expect_array(result, make_array<int64_t>(want));
  Ints with_scalar;
  for (size_t i = 0; i < 190; ++i) {
    with_scalar.push_back(conds[i + 1] == true ? std::optional<int64_t>(7) : std::nullopt);
  }
  expect_array(
      if_else(make_array<bool>(conds).slice(1, 190), int_scalar(7), Datum::null_scalar(int64())),
      make_array<int64_t>(with_scalar));
}

TEST(IfElseTest, RefusesMismatchedTypes) {
  EXPECT_THROW(
      if_else(cond(), make_array<int64_t>({1, 2, 3, 4, 5}), make_array<int32_t>({1, 2, 3, 4, 5})),
      TypeError);
  EXPECT_THROW(if_else(make_array<int64_t>({1}), int_scalar(1), int_scalar(2)), TypeError);
}

TEST(CaseWhenTest, FirstTrueConditionWins) {
  const Array c1 = make_array<bool>({true, false, kNull, false, true});
  const Array c2 = make_array<bool>({true, true, true, kNull, false});
  const Datum conditions[] = {c1, c2};
  const Datum values[] = {int_scalar(1), make_array<int64_t>({20, 21, kNull, 23, 24})};
  expect_array(case_when(conditions, values, int_scalar(0)),
               make_array<int64_t>({1, 21, kNull, 0, 1}));
  expect_array(case_when(conditions, values, Datum()),
               make_array<int64_t>({1, 21, kNull, kNull, 1}));
}

TEST(CaseWhenTest, ScalarConditions) {
  const Datum conditions[] = {bool_scalar(kNull), bool_scalar(true)};
  const Datum values[] = {make_string_array({"a", "b"}), make_string_array({"c", kNull})};
  expect_array(case_when(conditions, values, Datum()), make_string_array({"c", kNull}));
  const Datum all_scalar[] = {int_scalar(1), int_scalar(2)};
  const Datum result = case_when(conditions, all_scalar, int_scalar(3));
  EXPECT_TRUE(result.is_scalar());
  expect_array(result, make_array<int64_t>({2}));
}

TEST(CoalesceTest, FirstNonNull) {
  const Datum values[] = {make_array<int64_t>({1, kNull, kNull, kNull}),
                          make_array<int64_t>({10, 20, kNull, kNull}).slice(0, 4),
                          Datum::null_scalar(int64()), make_array<int64_t>({7, 7, 7, kNull})};
  expect_array(coalesce(values), make_array<int64_t>({1, 20, 7, kNull}));
  const Datum strings[] = {make_string_array({kNull, "x", kNull}),
                           Datum::scalar(make_string_array({"default"}))};
  expect_array(coalesce(strings), make_string_array({"default", "x", "default"}));
  const Datum one[] = {make_array<int64_t>({kNull, 2})};
  expect_array(coalesce(one), make_array<int64_t>({kNull, 2}));
  const Datum empty[] = {make_array<int64_t>(Ints{}), int_scalar(1)};
  EXPECT_EQ(coalesce(empty).length(), 0);
}

TEST(NullIfTest, NullWhereEqual) {
  expect_array(
      null_if(make_array<int64_t>({1, 2, kNull, 4}), make_array<int64_t>({1, 3, 3, kNull})),
      make_array<int64_t>({kNull, 2, kNull, 4}));
  expect_array(null_if(make_string_array({"a", "b"}), Datum::scalar(make_string_array({"a"}))),
               make_string_array({kNull, "b"}));
  expect_array(null_if(make_array<int64_t>({1, 2}), Datum::null_scalar(int64())),
               make_array<int64_t>({1, 2}));
}

TEST(NanValueTest, ReplacesNaNOnly) {
  const double nan = std::nan("");
  expect_array(nan_value(make_array<double>({1.0, nan, kNull, nan}),
                         make_array<double>({9.0, 2.0, 3.0, kNull})),
               make_array<double>({1.0, 2.0, kNull, kNull}));
  expect_array(
      nan_value(make_array<float>({std::nanf("")}), Datum::scalar(make_array<float>({0.5f}))),
      make_array<float>({0.5f}));
}

TEST(IsInTest, SparkNullSemantics) {
  const Array values = make_array<int64_t>({1, 2, kNull, 4});
  const Datum list[] = {int_scalar(1), int_scalar(4)};
  EXPECT_EQ(bools_of(is_in(values, list)), (Bools{true, false, kNull, true}));
  const Datum with_null[] = {int_scalar(1), Datum::null_scalar(int64())};
  // Not found with a null in the list: null; found: true even with the null.
  EXPECT_EQ(bools_of(is_in(values, with_null)), (Bools{true, kNull, kNull, kNull}));
  const Datum columns[] = {make_array<int64_t>({5, 2, 1, kNull})};
  EXPECT_EQ(bools_of(is_in(values, columns)), (Bools{false, true, kNull, kNull}));
  const double nan = std::nan("");
  const Datum nan_list[] = {Datum::scalar(make_array<double>({nan}))};
  EXPECT_EQ(bools_of(is_in(make_array<double>({nan, 1.0}), nan_list)), (Bools{true, false}));
  const Datum strings[] = {Datum::scalar(make_string_array({"b"})),
                           Datum::scalar(make_string_array({"c"}))};
  EXPECT_EQ(bools_of(is_in(make_string_array({"a", "b", "c"}).slice(1, 2), strings)),
            (Bools{true, true}));
}

TEST(IsInTest, LongListsOfScalarsAgainstLoop) {
  std::vector<std::optional<int64_t>> rows;
  for (int i = 0; i < 150; ++i) {
    rows.push_back(i % 11 == 0 ? std::nullopt : std::optional<int64_t>(i % 40 - 20));
  }
  std::vector<Datum> list;
  for (int64_t v : {-20, -7, -3, 0, 2, 5, 9, 13, 17, 19, 5}) {
    list.push_back(int_scalar(v));
  }
  const std::vector<int64_t> members = {-20, -7, -3, 0, 2, 5, 9, 13, 17, 19};
  const Bools result = bools_of(is_in(make_array<int64_t>(rows).slice(5, 140), list));
  list.push_back(Datum::null_scalar(int64()));
  const Bools with_null = bools_of(is_in(make_array<int64_t>(rows).slice(5, 140), list));
  for (size_t i = 0; i < 140; ++i) {
    const auto& x = rows[i + 5];
    if (!x) {
      EXPECT_FALSE(result[i].has_value());
      EXPECT_FALSE(with_null[i].has_value());
      continue;
    }
    const bool found = std::find(members.begin(), members.end(), *x) != members.end();
    EXPECT_EQ(result[i], found) << i;
    EXPECT_EQ(with_null[i], found ? Bool(true) : Bool()) << i;
  }
}

TEST(IsInTest, LongListsOfWideRangeIntegers) {
  std::vector<Datum> list;
  for (int64_t v : {-4000000000LL, -70000LL, -1LL, 0LL, 1LL, 2LL, 3LL, 100000LL, 4000000000LL}) {
    list.push_back(int_scalar(v));
  }
  EXPECT_EQ(bools_of(is_in(make_array<int64_t>({4000000000LL, 4, kNull, -70000, 99999}), list)),
            (Bools{true, false, kNull, true, false}));
}

TEST(CoalesceTest, LongSlicedArraysAgainstLoop) {
  Ints a;
  Ints b;
  for (int i = 0; i < 300; ++i) {
    a.push_back(i % 3 == 0 ? std::nullopt : std::optional<int64_t>(i));
    b.push_back(i % 5 == 0 ? std::nullopt : std::optional<int64_t>(-i));
  }
  const Datum values[] = {make_array<int64_t>(a).slice(4, 290),
                          make_array<int64_t>(b).slice(9, 290)};
  Ints want;
  for (size_t i = 0; i < 290; ++i) {
    want.push_back(a[i + 4] ? a[i + 4] : b[i + 9]);
  }
  expect_array(coalesce(values), make_array<int64_t>(want));
  const Datum with_default[] = {make_array<int64_t>(a).slice(4, 290), int_scalar(0)};
  Ints filled;
  for (size_t i = 0; i < 290; ++i) {
    filled.push_back(a[i + 4] ? a[i + 4] : std::optional<int64_t>(0));
  }
  expect_array(coalesce(with_default), make_array<int64_t>(filled));
}

TEST(IsInTest, LongListsOfFloatsAndStrings) {
  const double nan = std::nan("");
  std::vector<Datum> floats;
  for (double v : {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, nan, 0.0}) {
    floats.push_back(Datum::scalar(make_array<double>({v})));
  }
  EXPECT_EQ(bools_of(is_in(make_array<double>({nan, -0.0, 9.0, kNull, 8.0}), floats)),
            (Bools{true, true, false, kNull, true}));
  std::vector<Datum> strings;
  for (const char* v : {"a", "b", "c", "d", "e", "f", "g", "h", "i", "a string longer than 12"}) {
    strings.push_back(Datum::scalar(make_string_array({v}, utf8_view())));
  }
  EXPECT_EQ(
      bools_of(is_in(make_string_array({"a string longer than 12", "z", kNull, "i"}, utf8_view()),
                     strings)),
      (Bools{true, false, kNull, true}));
}

TEST(BetweenTest, InclusiveWithKleeneNulls) {
  const Array values = make_array<int64_t>({0, 1, 5, 10, 11, kNull});
  EXPECT_EQ(bools_of(between(values, int_scalar(1), int_scalar(10))),
            (Bools{false, true, true, true, false, kNull}));
  // A null bound still gives false where the other bound fails.
  EXPECT_EQ(bools_of(between(values, Datum::null_scalar(int64()), int_scalar(4))),
            (Bools{kNull, kNull, false, false, false, kNull}));
}

}  // namespace
}  // namespace bowstring::compute
