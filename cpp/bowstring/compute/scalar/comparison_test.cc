#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/array/builder.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/scalar/predicates.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {
namespace {

using bowstring::testing::make_array;
using bowstring::testing::make_decimal_array;
using bowstring::testing::make_string_array;

const std::nullopt_t kNull = std::nullopt;
using Bools = std::vector<std::optional<bool>>;

constexpr CompareOp kAllOps[] = {CompareOp::kEqual,   CompareOp::kNotEqual,
                                 CompareOp::kLess,    CompareOp::kLessEqual,
                                 CompareOp::kGreater, CompareOp::kGreaterEqual};

/// The values of a boolean datum (a scalar gives one value).
Bools bools_of(const Datum& datum) {
  EXPECT_EQ(datum.type()->id(), TypeId::kBoolean);
  datum.array().validate_full();
  Bools out;
  const BooleanArray array(datum.array());
  for (int64_t i = 0; i < array.length(); ++i) {
    out.push_back(array.is_null(i) ? std::optional<bool>() : array.value(i));
  }
  return out;
}

Datum scalar_of(const Array& one) { return Datum::scalar(one); }

/// The expected result of `op` on an ordering result (-1, 0, 1).
bool expected(CompareOp op, int order) {
  switch (op) {
    case CompareOp::kEqual:
      return order == 0;
    case CompareOp::kNotEqual:
      return order != 0;
    case CompareOp::kLess:
      return order < 0;
    case CompareOp::kLessEqual:
      return order <= 0;
    case CompareOp::kGreater:
      return order > 0;
    case CompareOp::kGreaterEqual:
      return order >= 0;
  }
  return false;
}

TEST(CompareTest, IntegersEveryOperatorWithNulls) {
  const Array left = make_array<int32_t>({1, 2, 3, kNull, 5, -7});
  const Array right = make_array<int32_t>({1, 3, 2, 4, kNull, -7});
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, left, right)),
            (Bools{true, false, false, kNull, kNull, true}));
  EXPECT_EQ(bools_of(compare(CompareOp::kNotEqual, left, right)),
            (Bools{false, true, true, kNull, kNull, false}));
  EXPECT_EQ(bools_of(compare(CompareOp::kLess, left, right)),
            (Bools{false, true, false, kNull, kNull, false}));
  EXPECT_EQ(bools_of(compare(CompareOp::kLessEqual, left, right)),
            (Bools{true, true, false, kNull, kNull, true}));
  EXPECT_EQ(bools_of(compare(CompareOp::kGreater, left, right)),
            (Bools{false, false, true, kNull, kNull, false}));
  EXPECT_EQ(bools_of(compare(CompareOp::kGreaterEqual, left, right)),
            (Bools{true, false, true, kNull, kNull, true}));
}

TEST(CompareTest, ArrayScalarAndScalarArray) {
  const Array values = make_array<int64_t>({1, 5, kNull, 10});
  const Datum five = scalar_of(make_array<int64_t>({5}));
  EXPECT_EQ(bools_of(compare(CompareOp::kLess, values, five)), (Bools{true, false, kNull, false}));
  EXPECT_EQ(bools_of(compare(CompareOp::kLess, five, values)), (Bools{false, false, kNull, true}));
  EXPECT_EQ(bools_of(compare(CompareOp::kGreaterEqual, five, values)),
            (Bools{true, true, kNull, false}));
  const Datum both = compare(CompareOp::kEqual, five, five);
  EXPECT_TRUE(both.is_scalar());
  EXPECT_EQ(bools_of(both), (Bools{true}));
}

TEST(CompareTest, NullScalarGivesNullRows) {
  const Array values = make_array<int32_t>({1, 2, 3});
  const Datum null = Datum::null_scalar(int32());
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, values, null)), (Bools{kNull, kNull, kNull}));
  EXPECT_EQ(bools_of(compare(CompareOp::kLess, null, values)), (Bools{kNull, kNull, kNull}));
  const Datum scalar = compare(CompareOp::kEqual, null, null);
  EXPECT_TRUE(scalar.is_scalar());
  EXPECT_EQ(bools_of(scalar), (Bools{kNull}));
}

TEST(CompareTest, EmptyArrays) {
  const Array empty = make_array<double>(std::vector<std::optional<double>>{});
  for (CompareOp op : kAllOps) {
    EXPECT_EQ(compare(op, empty, empty).length(), 0);
    EXPECT_EQ(compare(op, empty, scalar_of(make_array<double>({1.0}))).length(), 0);
  }
}

TEST(CompareTest, NullTypeGivesNulls) {
  const Array nulls(
      std::make_shared<ArrayData>(null(), 3, std::vector<std::shared_ptr<Buffer>>{nullptr}, 3));
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, nulls, nulls)), (Bools{kNull, kNull, kNull}));
  EXPECT_EQ(bools_of(equal_null_safe(nulls, nulls)), (Bools{true, true, true}));
}

TEST(CompareTest, FloatsFollowSparkNaNRules) {
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  const Array left = make_array<double>({nan, nan, 1.0, inf, -0.0, 0.0, kNull});
  const Array right = make_array<double>({nan, 1.0, nan, nan, 0.0, -0.0, nan});
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, left, right)),
            (Bools{true, false, false, false, true, true, kNull}));
  EXPECT_EQ(bools_of(compare(CompareOp::kLess, left, right)),
            (Bools{false, false, true, true, false, false, kNull}));
  EXPECT_EQ(bools_of(compare(CompareOp::kGreater, left, right)),
            (Bools{false, true, false, false, false, false, kNull}));
  EXPECT_EQ(bools_of(compare(CompareOp::kLessEqual, left, right)),
            (Bools{true, false, true, true, true, true, kNull}));
  EXPECT_EQ(bools_of(compare(CompareOp::kNotEqual, left, right)),
            (Bools{false, true, true, true, false, false, kNull}));
  const Array floats = make_array<float>({std::nanf(""), 2.0f});
  EXPECT_EQ(bools_of(compare(CompareOp::kGreaterEqual, floats,
                             scalar_of(make_array<float>({std::nanf("")})))),
            (Bools{true, false}));
}

/// Random values of T with about one null in five, as optionals and as an array.
template <typename T>
std::vector<std::optional<T>> random_values(std::mt19937& rng, int64_t length, int range) {
  std::uniform_int_distribution<int> value(-range, range);
  std::uniform_int_distribution<int> null(0, 4);
  std::vector<std::optional<T>> out;
  for (int64_t i = 0; i < length; ++i) {
    if (null(rng) == 0) {
      out.emplace_back();
    } else {
      out.emplace_back(static_cast<T>(value(rng)));
    }
  }
  return out;
}

/// Compares random arrays (sliced, so offsets are not multiples of 8) against a plain loop,
/// array-array and array-scalar, over every operator.
template <typename T>
void check_random_against_loop(TypePtr type) {
  std::mt19937 rng(42);
  const int64_t length = 300;
  const auto a = random_values<T>(rng, length + 5, 6);
  const auto b = random_values<T>(rng, length + 3, 6);
  const Array left = make_array<T>(type, a).slice(5, length);
  const Array right = make_array<T>(type, b).slice(3, length);
  const Datum scalar = scalar_of(make_array<T>(type, {static_cast<T>(2)}));
  for (CompareOp op : kAllOps) {
    const Bools result = bools_of(compare(op, left, right));
    const Bools with_scalar = bools_of(compare(op, left, scalar));
    ASSERT_EQ(static_cast<int64_t>(result.size()), length);
    for (int64_t i = 0; i < length; ++i) {
      const auto& x = a[static_cast<size_t>(i + 5)];
      const auto& y = b[static_cast<size_t>(i + 3)];
      if (!x || !y) {
        EXPECT_FALSE(result[static_cast<size_t>(i)].has_value());
      } else {
        EXPECT_EQ(result[static_cast<size_t>(i)], expected(op, (*x > *y) - (*x < *y)))
            << type->to_string() << " row " << i;
      }
      if (!x) {
        EXPECT_FALSE(with_scalar[static_cast<size_t>(i)].has_value());
      } else {
        const T two = static_cast<T>(2);
        EXPECT_EQ(with_scalar[static_cast<size_t>(i)], expected(op, (*x > two) - (*x < two)));
      }
    }
  }
}

TEST(CompareTest, RandomSlicedArraysOfEveryNumericType) {
  check_random_against_loop<int8_t>(int8());
  check_random_against_loop<int16_t>(int16());
  check_random_against_loop<int32_t>(int32());
  check_random_against_loop<int64_t>(int64());
  check_random_against_loop<uint8_t>(uint8());
  check_random_against_loop<uint16_t>(uint16());
  check_random_against_loop<uint32_t>(uint32());
  check_random_against_loop<uint64_t>(uint64());
  check_random_against_loop<float>(float32());
  check_random_against_loop<double>(float64());
  check_random_against_loop<int32_t>(date32());
  check_random_against_loop<int64_t>(timestamp(TimeUnit::kMicro, "UTC"));
  check_random_against_loop<int64_t>(date64());
  check_random_against_loop<int64_t>(duration(TimeUnit::kMicro));
}

/// Spark's order of two floats: NaN equals NaN and is above everything, -0.0 equals 0.0.
template <typename T>
int spark_float_order(T x, T y) {
  const bool x_nan = std::isnan(x);
  const bool y_nan = std::isnan(y);
  if (x_nan || y_nan) {
    return static_cast<int>(x_nan) - static_cast<int>(y_nan);
  }
  return (x > y) - (x < y);
}

/// Floats drawn from NaN, both zeros, infinities and a few numbers, with nulls, compared on
/// lengths around multiples of 8 and 64, at offsets 0, 3 and 8, array-array and against every
/// value as a scalar on either side.
template <typename T>
void check_floats_against_spark_order(TypePtr type) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T inf = std::numeric_limits<T>::infinity();
  const std::vector<T> pool = {nan,  static_cast<T>(-0.0), static_cast<T>(0.0), inf,
                               -inf, static_cast<T>(1.5),  static_cast<T>(-2.0)};
  std::mt19937 rng(7);
  std::uniform_int_distribution<size_t> pick(0, pool.size());
  auto draw = [&](int64_t count) {
    std::vector<std::optional<T>> out;
    for (int64_t i = 0; i < count; ++i) {
      const size_t k = pick(rng);
      out.push_back(k == pool.size() ? std::optional<T>() : std::optional<T>(pool[k]));
    }
    return out;
  };
  for (const int64_t length : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{8}, int64_t{9},
                               int64_t{63}, int64_t{64}, int64_t{65}, int64_t{130}}) {
    for (const int64_t offset : {int64_t{0}, int64_t{3}, int64_t{8}}) {
      const auto a = draw(length + offset);
      const auto b = draw(length + 5);
      const Array left = make_array<T>(type, a).slice(offset, length);
      const Array right = make_array<T>(type, b).slice(5, length);
      for (CompareOp op : kAllOps) {
        const Bools result = bools_of(compare(op, left, right));
        ASSERT_EQ(static_cast<int64_t>(result.size()), length);
        for (int64_t i = 0; i < length; ++i) {
          const auto& x = a[static_cast<size_t>(i + offset)];
          const auto& y = b[static_cast<size_t>(i + 5)];
          const std::optional<bool> want =
              x && y ? std::optional<bool>(expected(op, spark_float_order(*x, *y))) : kNull;
          EXPECT_EQ(result[static_cast<size_t>(i)], want)
              << type->to_string() << " length " << length << " offset " << offset << " row " << i;
        }
        for (const T constant : pool) {
          const Datum scalar = scalar_of(make_array<T>(type, {constant}));
          const Bools array_scalar = bools_of(compare(op, left, scalar));
          const Bools scalar_array = bools_of(compare(op, scalar, left));
          for (int64_t i = 0; i < length; ++i) {
            const auto& x = a[static_cast<size_t>(i + offset)];
            const std::optional<bool> want_right =
                x ? std::optional<bool>(expected(op, spark_float_order(*x, constant))) : kNull;
            const std::optional<bool> want_left =
                x ? std::optional<bool>(expected(op, spark_float_order(constant, *x))) : kNull;
            EXPECT_EQ(array_scalar[static_cast<size_t>(i)], want_right)
                << type->to_string() << " row " << i << " against " << constant;
            EXPECT_EQ(scalar_array[static_cast<size_t>(i)], want_left)
                << type->to_string() << " row " << i << " against " << constant;
          }
        }
      }
    }
  }
}

TEST(CompareTest, FloatsAgainstSparkOrderAtEveryLengthAndOffset) {
  check_floats_against_spark_order<double>(float64());
  check_floats_against_spark_order<float>(float32());
}

TEST(CompareTest, ValidityOfOneSideWithNullsIsSharedWhenByteAligned) {
  std::vector<std::optional<int64_t>> values;
  for (int i = 0; i < 100; ++i) {
    values.push_back(i % 5 == 0 ? std::nullopt : std::optional<int64_t>(i));
  }
  const Array with_nulls = make_array<int64_t>(values);
  std::vector<std::optional<int64_t>> dense(100, int64_t{40});
  const Array without_nulls = make_array<int64_t>(dense);
  for (const int64_t offset : {int64_t{0}, int64_t{8}, int64_t{3}}) {
    const int64_t length = 90;
    const Array left = with_nulls.slice(offset, length);
    const Array right = without_nulls.slice(1, length);
    const Datum less = compare(CompareOp::kLess, left, right);
    const Datum greater = compare(CompareOp::kGreater, right, left);
    const Bools result = bools_of(less);
    EXPECT_EQ(bools_of(greater), result);
    for (int64_t i = 0; i < length; ++i) {
      const auto& x = values[static_cast<size_t>(i + offset)];
      EXPECT_EQ(result[static_cast<size_t>(i)], x ? std::optional<bool>(*x < 40) : kNull) << i;
    }
    EXPECT_EQ(less.data()->null_count(), left.data()->null_count());
    const uint8_t* validity = less.data()->buffers[0]->data();
    const uint8_t* input = with_nulls.data()->buffers[0]->data();
    // On a byte boundary the input's bitmap is the result's; elsewhere it is realigned.
    EXPECT_EQ(validity == input + offset / 8, offset % 8 == 0) << offset;
  }
}

TEST(CompareTest, BothSidesWithNullsAtByteAlignedAndOtherOffsets) {
  std::mt19937 rng(11);
  const auto a = random_values<int32_t>(rng, 220, 3);
  const auto b = random_values<int32_t>(rng, 220, 3);
  for (const auto& [left_offset, right_offset] :
       {std::pair<int64_t, int64_t>{0, 0}, {8, 16}, {3, 8}, {8, 5}}) {
    const int64_t length = 200;
    const Array left = make_array<int32_t>(a).slice(left_offset, length);
    const Array right = make_array<int32_t>(b).slice(right_offset, length);
    const Bools result = bools_of(compare(CompareOp::kEqual, left, right));
    for (int64_t i = 0; i < length; ++i) {
      const auto& x = a[static_cast<size_t>(i + left_offset)];
      const auto& y = b[static_cast<size_t>(i + right_offset)];
      EXPECT_EQ(result[static_cast<size_t>(i)], x && y ? std::optional<bool>(*x == *y) : kNull)
          << i;
    }
  }
}

TEST(CompareTest, UnsignedValuesCompareAsUnsigned) {
  const Array left = make_array<uint64_t>({uint64_t{1} << 63, 1});
  const Array right = make_array<uint64_t>({1, uint64_t{1} << 63});
  EXPECT_EQ(bools_of(compare(CompareOp::kGreater, left, right)), (Bools{true, false}));
}

TEST(CompareTest, StringsInByteOrderForEveryLayout) {
  const std::vector<std::optional<std::string>> a = {
      "a", "ab", "b", "", "\xff", kNull, "a string longer than twelve", "same"};
  const std::vector<std::optional<std::string>> b = {
      "ab", "a", "a", "a", "z", "x", "a string longer than twelvf", "same"};
  for (const TypePtr& type :
       {utf8(), large_utf8(), utf8_view(), binary(), large_binary(), binary_view()}) {
    const Array left = make_string_array(a, type);
    const Array right = make_string_array(b, type);
    EXPECT_EQ(bools_of(compare(CompareOp::kLess, left, right)),
              (Bools{true, false, false, true, false, kNull, true, false}))
        << type->to_string();
    EXPECT_EQ(bools_of(compare(CompareOp::kEqual, left, right)),
              (Bools{false, false, false, false, false, kNull, false, true}))
        << type->to_string();
    EXPECT_EQ(bools_of(compare(CompareOp::kGreaterEqual, left.slice(1, 3),
                               scalar_of(make_string_array({"ab"}, type)))),
              (Bools{true, true, false}))
        << type->to_string();
  }
}

TEST(CompareTest, FixedSizeBinary) {
  const TypePtr type = fixed_size_binary(2);
  const Array left = make_string_array({"ab", "zz", kNull}, type);
  const Array right = make_string_array({"ac", "zz", "aa"}, type);
  EXPECT_EQ(bools_of(compare(CompareOp::kLess, left, right)), (Bools{true, false, kNull}));
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, left, right)), (Bools{false, true, kNull}));
}

TEST(CompareTest, DecimalsOfEveryWidth) {
  for (const TypePtr& type :
       {decimal32(9, 2), decimal64(18, 2), decimal128(38, 2), decimal256(76, 2)}) {
    const Array left = make_decimal_array(type, {"-1.50", "12.34", "0.00", kNull, "-100.00"});
    const Array right = make_decimal_array(type, {"-1.49", "12.34", "-0.01", "1.00", "99.99"});
    EXPECT_EQ(bools_of(compare(CompareOp::kLess, left, right)),
              (Bools{true, false, false, kNull, true}))
        << type->to_string();
    EXPECT_EQ(bools_of(compare(CompareOp::kEqual, left, right)),
              (Bools{false, true, false, kNull, false}))
        << type->to_string();
  }
}

TEST(CompareTest, BooleansOrderFalseBeforeTrue) {
  const Array left = make_array<bool>({false, false, true, true, kNull});
  const Array right = make_array<bool>({false, true, false, true, true});
  EXPECT_EQ(bools_of(compare(CompareOp::kLess, left, right)),
            (Bools{false, true, false, false, kNull}));
  EXPECT_EQ(bools_of(compare(CompareOp::kGreaterEqual, left, right)),
            (Bools{true, false, true, true, kNull}));
  EXPECT_EQ(bools_of(compare(CompareOp::kNotEqual, left, right)),
            (Bools{false, true, true, false, kNull}));
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, scalar_of(make_array<bool>({true})), left)),
            (Bools{false, false, true, true, kNull}));
}

TEST(CompareTest, RandomSlicedBooleansAgainstLoop) {
  std::mt19937 rng(7);
  std::bernoulli_distribution coin(0.5);
  std::vector<std::optional<bool>> a;
  std::vector<std::optional<bool>> b;
  for (int i = 0; i < 211; ++i) {
    a.push_back(coin(rng) ? std::optional<bool>(coin(rng)) : std::nullopt);
    b.push_back(coin(rng) ? std::optional<bool>(coin(rng)) : std::nullopt);
  }
  const Array left = make_array<bool>(a).slice(3, 200);
  const Array right = make_array<bool>(b).slice(11, 200);
  for (CompareOp op : kAllOps) {
    const Bools result = bools_of(compare(op, left, right));
    for (size_t i = 0; i < 200; ++i) {
      const auto& x = a[i + 3];
      const auto& y = b[i + 11];
      if (!x || !y) {
        EXPECT_FALSE(result[i].has_value());
      } else {
        EXPECT_EQ(result[i], expected(op, static_cast<int>(*x) - static_cast<int>(*y)));
      }
    }
  }
}

TEST(CompareTest, DifferentTypesAreRefused) {
  EXPECT_THROW(compare(CompareOp::kEqual, make_array<int32_t>({1}), make_array<int64_t>({1})),
               TypeError);
  EXPECT_THROW(compare(CompareOp::kEqual, make_decimal_array(decimal128(10, 2), {"1.00"}),
                       make_decimal_array(decimal128(10, 3), {"1.000"})),
               TypeError);
}

TEST(CompareTest, DifferentLengthsAreRefused) {
  EXPECT_THROW(compare(CompareOp::kEqual, make_array<int32_t>({1, 2}), make_array<int32_t>({1})),
               InvalidArgument);
}

TEST(EqualNullSafeTest, TruthTable) {
  const Array left = make_array<int32_t>({1, 1, kNull, kNull, 2});
  const Array right = make_array<int32_t>({1, kNull, 1, kNull, 3});
  EXPECT_EQ(bools_of(equal_null_safe(left, right)), (Bools{true, false, false, true, false}));
  const Datum null = Datum::null_scalar(int32());
  EXPECT_EQ(bools_of(equal_null_safe(left, null)), (Bools{false, false, true, true, false}));
  EXPECT_EQ(bools_of(equal_null_safe(null, right)), (Bools{false, true, false, true, false}));
  EXPECT_EQ(bools_of(equal_null_safe(null, null)), (Bools{true}));
  EXPECT_EQ(bools_of(equal_null_safe(make_array<double>({std::nan("")}),
                                     make_array<double>({std::nan("")}))),
            (Bools{true}));
}

TEST(EqualNullSafeTest, SlicedStringsLongerThanAWord) {
  std::vector<std::optional<std::string>> a;
  std::vector<std::optional<std::string>> b;
  for (int i = 0; i < 150; ++i) {
    a.push_back(i % 3 == 0 ? std::nullopt : std::optional<std::string>(std::to_string(i % 7)));
    b.push_back(i % 5 == 0 ? std::nullopt : std::optional<std::string>(std::to_string(i % 4)));
  }
  const Bools result = bools_of(
      equal_null_safe(make_string_array(a).slice(2, 140), make_string_array(b).slice(2, 140)));
  for (size_t i = 0; i < 140; ++i) {
    EXPECT_EQ(result[i], a[i + 2] == b[i + 2]) << i;
  }
}

// Structs and arrays compare as Spark 4.3 does (checked in PySpark): field by field, element by
// element then by length, a null inside equal to a null and smaller than any value.

using IntLists = std::vector<std::optional<std::vector<std::optional<int32_t>>>>;
using bowstring::testing::make_list_array;
using bowstring::testing::make_struct_array;

TEST(NestedCompareTest, ListsElementByElementThenByLength) {
  // array(1, 2) vs array(1, 2, 0); array(1, null) vs array(1, null); array(1, null) vs
  // array(1, 2); array(null, 1) vs array(1); array(3) vs array(1, 2); array() vs array(1);
  // a null array.
  const Array left = make_list_array<int32_t>(IntLists{
      std::vector<std::optional<int32_t>>{1, 2}, std::vector<std::optional<int32_t>>{1, kNull},
      std::vector<std::optional<int32_t>>{1, kNull}, std::vector<std::optional<int32_t>>{kNull, 1},
      std::vector<std::optional<int32_t>>{3}, std::vector<std::optional<int32_t>>{}, kNull});
  const Array right = make_list_array<int32_t>(IntLists{
      std::vector<std::optional<int32_t>>{1, 2, 0}, std::vector<std::optional<int32_t>>{1, kNull},
      std::vector<std::optional<int32_t>>{1, 2}, std::vector<std::optional<int32_t>>{1},
      std::vector<std::optional<int32_t>>{1, 2}, std::vector<std::optional<int32_t>>{1},
      std::vector<std::optional<int32_t>>{1}});
  const int orders[] = {-1, 0, -1, -1, 1, -1};
  for (const CompareOp op : kAllOps) {
    Bools want;
    for (const int order : orders) {
      want.push_back(expected(op, order));
    }
    want.push_back(kNull);
    EXPECT_EQ(bools_of(compare(op, left, right)), want);
  }
  EXPECT_EQ(bools_of(equal_null_safe(left, right)),
            (Bools{false, true, false, false, false, false, false}));
  EXPECT_EQ(bools_of(equal_null_safe(left, left)), Bools(7, true));
  // Sliced inputs and scalars: row 1 of `left` is array(1, null).
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, left.slice(1, 3), right.slice(1, 3))),
            (Bools{true, false, false}));
  EXPECT_EQ(bools_of(compare(CompareOp::kLess, left.slice(2, 2), scalar_of(right.slice(0, 1)))),
            (Bools{true, true}));
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, scalar_of(left.slice(1, 1)),
                             scalar_of(right.slice(1, 1)))),
            (Bools{true}));
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, left.slice(0, 0), right.slice(0, 0))), Bools{});
}

TEST(NestedCompareTest, ListsOfDoublesFollowNaNRules) {
  using DoubleLists = std::vector<std::optional<std::vector<std::optional<double>>>>;
  const double nan = std::nan("");
  const Array left = make_list_array<double>(DoubleLists{std::vector<std::optional<double>>{nan},
                                                         std::vector<std::optional<double>>{0.0},
                                                         std::vector<std::optional<double>>{nan}});
  const Array right = make_list_array<double>(
      DoubleLists{std::vector<std::optional<double>>{nan}, std::vector<std::optional<double>>{-0.0},
                  std::vector<std::optional<double>>{1e300}});
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, left, right)), (Bools{true, true, false}));
  EXPECT_EQ(bools_of(compare(CompareOp::kGreater, left, right)), (Bools{false, false, true}));
}

TEST(NestedCompareTest, StructsFieldByFieldWithNullsInside) {
  // named_struct('a', 1, 'b', null) = named_struct('a', 1, 'b', null) is true in Spark; (1, null)
  // < (1, 3); (2, null) > (1, 3); (1, null) < (2, 3).
  const Array left =
      make_struct_array({{"a", make_array<int32_t>({1, 1, 2, 1, 5})},
                         {"b", make_array<int32_t>({kNull, kNull, kNull, kNull, 6})}},
                        {true, true, true, true, false});
  const Array right = make_struct_array({{"a", make_array<int32_t>({1, 1, 1, 2, 5})},
                                         {"b", make_array<int32_t>({kNull, 3, 3, 3, 6})}});
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, left, right)),
            (Bools{true, false, false, false, kNull}));
  EXPECT_EQ(bools_of(compare(CompareOp::kLess, left, right)),
            (Bools{false, true, false, true, kNull}));
  EXPECT_EQ(bools_of(compare(CompareOp::kGreaterEqual, left, right)),
            (Bools{true, false, true, false, kNull}));
  EXPECT_EQ(bools_of(equal_null_safe(left, right)), (Bools{true, false, false, false, false}));
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, left.slice(1, 3), scalar_of(right.slice(2, 1)))),
            (Bools{false, false, false}));
  EXPECT_EQ(bools_of(compare(CompareOp::kGreater, left.slice(2, 1), right.slice(2, 1))),
            (Bools{true}));
}

TEST(NestedCompareTest, StructsHoldingListsAndStrings) {
  // named_struct('a', array(1, 2)) > named_struct('a', array(1)); ('1', 'x') < ('1', 'y').
  const Array left = make_struct_array(
      {{"a", make_list_array<int32_t>(IntLists{std::vector<std::optional<int32_t>>{1, 2},
                                               std::vector<std::optional<int32_t>>{1}})},
       {"s", make_string_array({"x", "x"})}});
  const Array right = make_struct_array(
      {{"a", make_list_array<int32_t>(IntLists{std::vector<std::optional<int32_t>>{1},
                                               std::vector<std::optional<int32_t>>{1}})},
       {"s", make_string_array({"x", "y"})}});
  EXPECT_EQ(bools_of(compare(CompareOp::kGreater, left, right)), (Bools{true, false}));
  EXPECT_EQ(bools_of(compare(CompareOp::kLess, left, right)), (Bools{false, true}));
}

TEST(NestedCompareTest, InFindsListsWithNullElements) {
  // array(1, null) IN (array(1, null)) is true; array(1, 2) IN (array(3), null) is null.
  const Array values = make_list_array<int32_t>(IntLists{
      std::vector<std::optional<int32_t>>{1, kNull}, std::vector<std::optional<int32_t>>{1, 2}});
  const Array first =
      make_list_array<int32_t>(IntLists{std::vector<std::optional<int32_t>>{1, kNull}});
  const Array second = make_list_array<int32_t>(IntLists{kNull});
  const Datum list[] = {scalar_of(first), scalar_of(second)};
  EXPECT_EQ(bools_of(is_in(values, list)), (Bools{true, kNull}));
}

TEST(NestedCompareTest, LargeAndFixedSizeListsAndMismatchedTypes) {
  using Lists = std::vector<std::optional<std::vector<std::optional<int64_t>>>>;
  const Lists left_values{std::vector<std::optional<int64_t>>{1, 2},
                          std::vector<std::optional<int64_t>>{3, kNull}, kNull};
  const Lists right_values{std::vector<std::optional<int64_t>>{1, 3},
                           std::vector<std::optional<int64_t>>{3, kNull},
                           std::vector<std::optional<int64_t>>{0, 0}};
  for (const TypePtr& type : {large_list(int64()), fixed_size_list(int64(), 2)}) {
    const Array left = make_list_array<int64_t>(type, left_values);
    const Array right = make_list_array<int64_t>(type, right_values);
    EXPECT_EQ(bools_of(compare(CompareOp::kLess, left, right)), (Bools{true, false, kNull}))
        << type->to_string();
    EXPECT_EQ(bools_of(compare(CompareOp::kEqual, left.slice(1), right.slice(1))),
              (Bools{true, kNull}))
        << type->to_string();
  }
  const Array ints = make_struct_array({{"a", make_array<int32_t>({1})}});
  const Array longs = make_struct_array({{"a", make_array<int64_t>({1})}});
  EXPECT_THROW(compare(CompareOp::kEqual, ints, longs), TypeError);
  // Field names do not matter to the kernel.
  const Array renamed = make_struct_array({{"b", make_array<int32_t>({1})}});
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, ints, renamed)), (Bools{true}));
}

TEST(NestedCompareTest, MapsAreNotComparable) {
  EXPECT_FALSE(is_comparable(*map(int32(), int32())));
  EXPECT_FALSE(is_comparable(*list(map(int32(), int32()))));
  EXPECT_TRUE(is_comparable(*struct_({field("a", list(utf8()))})));
}

}  // namespace
}  // namespace bowstring::compute
