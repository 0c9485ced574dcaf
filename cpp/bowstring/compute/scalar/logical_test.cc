#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "bowstring/compute/scalar/predicates.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {
namespace {

using bowstring::testing::make_array;
using bowstring::testing::make_string_array;

const std::nullopt_t kNull = std::nullopt;
using Bool = std::optional<bool>;
using Bools = std::vector<Bool>;

Bools bools_of(const Datum& datum) {
  EXPECT_EQ(datum.type()->id(), TypeId::kBoolean);
  datum.array().validate_full();
  Bools out;
  const BooleanArray array(datum.array());
  for (int64_t i = 0; i < array.length(); ++i) {
    out.push_back(array.is_null(i) ? Bool() : array.value(i));
  }
  return out;
}

Datum bool_scalar(Bool value) {
  return value ? Datum::scalar(make_array<bool>({*value})) : Datum::null_scalar(boolean());
}

Bool kleene_and_of(Bool a, Bool b) {
  if (a == false || b == false) {
    return false;
  }
  if (!a || !b) {
    return kNull;
  }
  return true;
}

Bool kleene_or_of(Bool a, Bool b) {
  if (a == true || b == true) {
    return true;
  }
  if (!a || !b) {
    return kNull;
  }
  return false;
}

// Every pair of {true, false, null}: the nine rows of the truth tables.
const Bools kLeft = {true, true, true, false, false, false, kNull, kNull, kNull};
const Bools kRight = {true, false, kNull, true, false, kNull, true, false, kNull};

TEST(KleeneTest, AndTruthTable) {
  EXPECT_EQ(bools_of(kleene_and(make_array<bool>(kLeft), make_array<bool>(kRight))),
            (Bools{true, false, kNull, false, false, false, kNull, false, kNull}));
}

TEST(KleeneTest, OrTruthTable) {
  EXPECT_EQ(bools_of(kleene_or(make_array<bool>(kLeft), make_array<bool>(kRight))),
            (Bools{true, true, true, true, false, kNull, true, kNull, kNull}));
}

TEST(KleeneTest, TruthTablesWithScalarsOnEitherSide) {
  const Array column = make_array<bool>({true, false, kNull});
  for (Bool s : {Bool(true), Bool(false), Bool()}) {
    Bools and_expected;
    Bools or_expected;
    for (Bool c : {Bool(true), Bool(false), Bool()}) {
      and_expected.push_back(kleene_and_of(s, c));
      or_expected.push_back(kleene_or_of(s, c));
    }
    EXPECT_EQ(bools_of(kleene_and(bool_scalar(s), column)), and_expected);
    EXPECT_EQ(bools_of(kleene_and(column, bool_scalar(s))), and_expected);
    EXPECT_EQ(bools_of(kleene_or(bool_scalar(s), column)), or_expected);
    EXPECT_EQ(bools_of(kleene_or(column, bool_scalar(s))), or_expected);
    for (Bool t : {Bool(true), Bool(false), Bool()}) {
      const Datum both = kleene_and(bool_scalar(s), bool_scalar(t));
      EXPECT_TRUE(both.is_scalar());
      EXPECT_EQ(bools_of(both), Bools{kleene_and_of(s, t)});
      EXPECT_EQ(bools_of(kleene_or(bool_scalar(s), bool_scalar(t))), Bools{kleene_or_of(s, t)});
    }
  }
}

TEST(KleeneTest, RandomSlicedArraysAgainstLoop) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> pick(0, 2);
  Bools a;
  Bools b;
  for (int i = 0; i < 333; ++i) {
    const int x = pick(rng);
    const int y = pick(rng);
    a.push_back(x == 2 ? Bool() : Bool(x == 1));
    b.push_back(y == 2 ? Bool() : Bool(y == 1));
  }
  const Datum left = make_array<bool>(a).slice(13, 300);
  const Datum right = make_array<bool>(b).slice(29, 300);
  const Bools and_result = bools_of(kleene_and(left, right));
  const Bools or_result = bools_of(kleene_or(left, right));
  for (size_t i = 0; i < 300; ++i) {
    EXPECT_EQ(and_result[i], kleene_and_of(a[i + 13], b[i + 29])) << i;
    EXPECT_EQ(or_result[i], kleene_or_of(a[i + 13], b[i + 29])) << i;
  }
}

TEST(KleeneTest, WithoutNullsTheResultHasNoValidity) {
  const Datum result = kleene_and(make_array<bool>({true, false}), make_array<bool>({true, true}));
  EXPECT_EQ(result.data()->buffers[0], nullptr);
  EXPECT_EQ(bools_of(result), (Bools{true, false}));
}

TEST(KleeneTest, EmptyAndNullTypedArguments) {
  const Array empty = make_array<bool>(Bools{});
  EXPECT_EQ(kleene_or(empty, empty).length(), 0);
  const Array nulls(
      std::make_shared<ArrayData>(null(), 2, std::vector<std::shared_ptr<Buffer>>{nullptr}, 2));
  EXPECT_EQ(bools_of(kleene_and(nulls, make_array<bool>({false, true}))), (Bools{false, kNull}));
  EXPECT_EQ(bools_of(kleene_or(nulls, make_array<bool>({false, true}))), (Bools{kNull, true}));
}

TEST(KleeneTest, NonBooleanArgumentsAreRefused) {
  EXPECT_THROW(kleene_and(make_array<int32_t>({1}), make_array<bool>({true})), TypeError);
  EXPECT_THROW(logical_not(make_array<int32_t>({1})), TypeError);
}

TEST(NotTest, NegatesAndKeepsNulls) {
  EXPECT_EQ(bools_of(logical_not(make_array<bool>({true, false, kNull}))),
            (Bools{false, true, kNull}));
  EXPECT_EQ(bools_of(logical_not(make_array<bool>({true, true, false, kNull}).slice(2, 2))),
            (Bools{true, kNull}));
  EXPECT_EQ(bools_of(logical_not(bool_scalar(true))), (Bools{false}));
  EXPECT_EQ(bools_of(logical_not(bool_scalar(kNull))), (Bools{kNull}));
  EXPECT_EQ(logical_not(make_array<bool>(Bools{})).length(), 0);
}

TEST(NullTestTest, IsNullAndIsNotNull) {
  const Array values = make_string_array({"a", kNull, "c", kNull});
  EXPECT_EQ(bools_of(is_null(values)), (Bools{false, true, false, true}));
  EXPECT_EQ(bools_of(is_not_null(values)), (Bools{true, false, true, false}));
  EXPECT_EQ(bools_of(is_null(values.slice(1, 2))), (Bools{true, false}));
  EXPECT_EQ(bools_of(is_null(make_array<int32_t>({1, 2}))), (Bools{false, false}));
  EXPECT_EQ(bools_of(is_null(Datum::null_scalar(int64()))), (Bools{true}));
  EXPECT_TRUE(is_not_null(Datum::null_scalar(int64())).is_scalar());
  EXPECT_EQ(is_null(make_array<int32_t>(std::vector<std::optional<int32_t>>{})).length(), 0);
  const Array nulls(
      std::make_shared<ArrayData>(null(), 2, std::vector<std::shared_ptr<Buffer>>{nullptr}, 2));
  EXPECT_EQ(bools_of(is_null(nulls)), (Bools{true, true}));
}

TEST(NullTestTest, LongSlicedArrays) {
  std::vector<std::optional<int64_t>> values;
  for (int i = 0; i < 200; ++i) {
    values.push_back(i % 3 == 0 ? std::nullopt : std::optional<int64_t>(i));
  }
  const Bools result = bools_of(is_null(make_array<int64_t>(values).slice(7, 190)));
  for (size_t i = 0; i < 190; ++i) {
    EXPECT_EQ(result[i], (i + 7) % 3 == 0) << i;
  }
}

TEST(NullTestTest, EveryOffsetAndLengthAgainstLoop) {
  std::vector<std::optional<int32_t>> values;
  for (int i = 0; i < 200; ++i) {
    values.push_back(i % 7 == 2 || i % 11 == 0 ? std::nullopt : std::optional<int32_t>(i));
  }
  const Array array = make_array<int32_t>(values);
  for (const int64_t offset : {0, 3, 8, 16, 61}) {
    for (const int64_t length : {0, 1, 8, 63, 64, 65, 129}) {
      const Array slice = array.slice(offset, length);
      const Bools nulls = bools_of(is_null(slice));
      const Datum valid = is_not_null(slice);
      const Bools not_nulls = bools_of(valid);
      for (int64_t i = 0; i < length; ++i) {
        const bool is_missing = !values[static_cast<size_t>(offset + i)].has_value();
        EXPECT_EQ(nulls[static_cast<size_t>(i)], is_missing) << offset << " " << i;
        EXPECT_EQ(not_nulls[static_cast<size_t>(i)], !is_missing) << offset << " " << i;
      }
      EXPECT_EQ(valid.data()->null_count(), 0);
    }
  }
  // isnotnull hands back the validity bitmap itself.
  EXPECT_EQ(is_not_null(array).data()->buffers[1], array.data()->buffers[0]);
}

TEST(NullTestTest, ArraysWithoutNullsGiveConstantResults) {
  for (const int length : {0, 5, 8, 13, 64, 70}) {
    const Array values = make_array<int64_t>(std::vector<std::optional<int64_t>>(
        static_cast<size_t>(length), std::optional<int64_t>(1)));
    EXPECT_EQ(bools_of(is_null(values)), Bools(static_cast<size_t>(length), false));
    EXPECT_EQ(bools_of(is_not_null(values)), Bools(static_cast<size_t>(length), true));
    // Bits past the length stay clear.
    const Datum valid = is_not_null(values);
    if (length % 8 != 0) {
      EXPECT_EQ(valid.data()->buffers[1]->data()[length / 8] >> (length % 8), 0);
    }
  }
  const Array nulls(
      std::make_shared<ArrayData>(null(), 70, std::vector<std::shared_ptr<Buffer>>{nullptr}, 70));
  EXPECT_EQ(bools_of(is_null(nulls)), Bools(70, true));
  EXPECT_EQ(bools_of(is_not_null(nulls)), Bools(70, false));
}

TEST(KleeneTest, ArraysWithoutNullsAtEveryOffsetAgainstLoop) {
  std::mt19937 rng(5);
  std::bernoulli_distribution coin(0.5);
  Bools a;
  Bools b;
  for (int i = 0; i < 300; ++i) {
    a.push_back(coin(rng));
    b.push_back(coin(rng));
  }
  const Array left_all = make_array<bool>(a);
  const Array right_all = make_array<bool>(b);
  for (const auto& [left_offset, right_offset] :
       {std::pair<int64_t, int64_t>{0, 0}, {8, 16}, {3, 8}, {8, 5}, {7, 7}}) {
    for (const int64_t length : {0, 1, 9, 64, 65, 130, 200}) {
      const Array left = left_all.slice(left_offset, length);
      const Array right = right_all.slice(right_offset, length);
      const Datum both = kleene_and(left, right);
      const Datum either = kleene_or(left, right);
      const Datum negated = logical_not(left);
      EXPECT_EQ(both.data()->null_count(), 0);
      const Bools and_result = bools_of(both);
      const Bools or_result = bools_of(either);
      const Bools not_result = bools_of(negated);
      for (int64_t i = 0; i < length; ++i) {
        const bool x = *a[static_cast<size_t>(i + left_offset)];
        const bool y = *b[static_cast<size_t>(i + right_offset)];
        EXPECT_EQ(and_result[static_cast<size_t>(i)], x && y) << i;
        EXPECT_EQ(or_result[static_cast<size_t>(i)], x || y) << i;
        EXPECT_EQ(not_result[static_cast<size_t>(i)], !x) << i;
      }
    }
  }
}

TEST(IsNanTest, NaNIsTrueNullIsFalse) {
  const double nan = std::nan("");
  EXPECT_EQ(bools_of(is_nan(make_array<double>({1.0, nan, kNull, -nan}))),
            (Bools{false, true, false, true}));
  EXPECT_EQ(bools_of(is_nan(make_array<float>({std::nanf(""), 0.0f}))), (Bools{true, false}));
  EXPECT_EQ(bools_of(is_nan(Datum::null_scalar(float64()))), (Bools{false}));
  EXPECT_EQ(bools_of(is_nan(make_array<double>({nan, 1.0, nan}).slice(1, 2))),
            (Bools{false, true}));
  EXPECT_THROW(is_nan(make_array<int32_t>({1})), TypeError);
}

}  // namespace
}  // namespace bowstring::compute
