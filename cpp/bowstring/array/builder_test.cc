#include "bowstring/array/builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_decimal.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/builder_union.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring {
namespace {

using testing::make_array;
using testing::make_string_array;

/// The values of a typed view as optionals (nullopt for nulls).
template <typename T, typename View>
std::vector<std::optional<T>> values_of(const View& view) {
  std::vector<std::optional<T>> out;
  for (int64_t i = 0; i < view.length(); ++i) {
    if (view.is_null(i)) {
      out.emplace_back(std::nullopt);
    } else {
      out.emplace_back(T(view.value(i)));
    }
  }
  return out;
}

// --- numeric ------------------------------------------------------------------------------

template <typename T>
class NumericBuilderTest : public ::testing::Test {};

using NumericTypes = ::testing::Types<int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t,
                                      uint32_t, uint64_t, float, double>;
TYPED_TEST_SUITE(NumericBuilderTest, NumericTypes);

TYPED_TEST(NumericBuilderTest, RoundTripsValuesAndNulls) {
  using T = TypeParam;
  std::unique_ptr<ArrayBuilder> builder = make_builder(testing::default_type_for<T>());
  auto& typed = builder->as<NumericBuilder<T>>();
  typed.append(T(1));
  typed.append_null();
  typed.append(std::numeric_limits<T>::max());
  typed.append(std::numeric_limits<T>::lowest());
  EXPECT_EQ(builder->length(), 4);
  EXPECT_EQ(builder->null_count(), 1);
  Array array = builder->finish();
  EXPECT_EQ(builder->length(), 0);
  EXPECT_EQ(builder->null_count(), 0);
  ASSERT_EQ(array.length(), 4);
  EXPECT_EQ(array.data()->known_null_count(), 1);
  ASSERT_NE(array.data()->buffers[0], nullptr);
  NumericArray<T> view(array);
  EXPECT_EQ(values_of<T>(view),
            (std::vector<std::optional<T>>{T(1), std::nullopt, std::numeric_limits<T>::max(),
                                           std::numeric_limits<T>::lowest()}));
  EXPECT_EQ(view.value(1), T(0)) << "null slots hold zero";
}

TEST(NumericBuilderTest, NoNullsMeansNoValidityBuffer) {
  Int64Builder builder;
  for (int64_t i = 0; i < 1000; ++i) {
    builder.append(i);
  }
  Array array = builder.finish();
  EXPECT_EQ(array.data()->buffers.size(), 2u);
  EXPECT_EQ(array.data()->buffers[0], nullptr);
  EXPECT_EQ(array.data()->known_null_count(), 0);
  EXPECT_EQ(array.data()->buffers[1]->size(), 8000);
  Int64Array view(array);
  for (int64_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(view.value(i), i);
  }
}

TEST(NumericBuilderTest, FirstNullAfterManyValuesMarksEarlierValuesValid) {
  Int32Builder builder;
  for (int32_t i = 0; i < 100; ++i) {
    builder.append(i);
  }
  builder.append_null();
  builder.append(7);
  Array array = builder.finish();
  EXPECT_EQ(array.null_count(), 1);
  for (int64_t i = 0; i < 100; ++i) {
    ASSERT_TRUE(array.is_valid(i)) << i;
  }
  EXPECT_TRUE(array.is_null(100));
  EXPECT_TRUE(array.is_valid(101));
  EXPECT_EQ(Int32Array(array).value(101), 7);
}

TEST(NumericBuilderTest, UnsafeAppendAfterReserveWithNullsInBetween) {
  Int64Builder builder;
  builder.reserve(300);
  for (int64_t i = 0; i < 300; ++i) {
    if (i % 7 == 3) {
      builder.append_null();
    } else {
      builder.unsafe_append(i);
    }
  }
  Array array = builder.finish();
  Int64Array view(array);
  int64_t nulls = 0;
  for (int64_t i = 0; i < 300; ++i) {
    if (i % 7 == 3) {
      ASSERT_TRUE(view.is_null(i));
      ++nulls;
    } else {
      ASSERT_EQ(view.value(i), i);
    }
  }
  EXPECT_EQ(array.null_count(), nulls);
}

TEST(NumericBuilderTest, AppendValuesWithValidBytesAndBitmap) {
  Int16Builder builder;
  const std::vector<int16_t> values = {1, 2, 3, 4, 5};
  builder.append_values(values);
  const uint8_t valid[] = {1, 0, 1, 1, 0};
  builder.append_values(values, valid);
  // Bits 3..7 of 0b01011000: 1, 1, 0, 1, 0.
  const uint8_t bitmap[] = {0b01011000};
  builder.append_values(values, bitmap, 3);
  builder.append_values(values, nullptr, 0);
  Array array = builder.finish();
  ASSERT_EQ(array.length(), 20);
  EXPECT_EQ(array.null_count(), 4);
  const std::vector<std::optional<int16_t>> expected = {
      1, 2, 3, 4, 5, 1, std::nullopt, 3, 4, std::nullopt, 1, 2, std::nullopt, 4, std::nullopt,
      1, 2, 3, 4, 5};
  EXPECT_EQ(values_of<int16_t>(Int16Array(array)), expected);
}

TEST(NumericBuilderTest, AppendValuesAllValidBytesKeepsNoBitmap) {
  DoubleBuilder builder;
  const std::vector<double> values = {1.5, 2.5};
  const uint8_t valid[] = {1, 1};
  builder.append_values(values, valid);
  Array array = builder.finish();
  EXPECT_EQ(array.data()->buffers[0], nullptr);
  EXPECT_EQ(DoubleArray(array).value(1), 2.5);
}

TEST(NumericBuilderTest, NullsAndEmptyValues) {
  UInt8Builder builder;
  builder.append_nulls(3);
  builder.append_empty_values(2);
  builder.append_empty_value();
  builder.append_nulls(0);
  Array array = builder.finish();
  EXPECT_EQ(array.length(), 6);
  EXPECT_EQ(array.null_count(), 3);
  EXPECT_TRUE(array.is_null(2));
  EXPECT_TRUE(array.is_valid(3));
  EXPECT_EQ(UInt8Array(array).value(5), 0);
  EXPECT_THROW(builder.append_nulls(-1), InvalidArgument);
}

TEST(NumericBuilderTest, TemporalAndIntervalBuilders) {
  Date32Builder dates;
  dates.append(19000);
  EXPECT_EQ(dates.finish().type()->id(), TypeId::kDate32);
  Date64Builder dates64;
  dates64.append(86400000);
  EXPECT_EQ(Date64Array(dates64.finish()).value(0), 86400000);

  TimestampBuilder stamps(timestamp(TimeUnit::kMicro, "UTC"));
  stamps.append(1);
  stamps.append_null();
  Array stamp_array = stamps.finish();
  EXPECT_EQ(stamp_array.type()->to_string(), "timestamp[us, tz=UTC]");
  EXPECT_EQ(TimestampArray(stamp_array).value(0), 1);
  EXPECT_TRUE(stamp_array.is_null(1));

  Time32Builder times32(time32(TimeUnit::kMilli));
  times32.append(1000);
  EXPECT_TRUE(times32.finish().type()->equals(*time32(TimeUnit::kMilli)));
  Time64Builder times64(time64(TimeUnit::kNano));
  times64.append(5);
  EXPECT_EQ(Time64Array(times64.finish()).value(0), 5);
  DurationBuilder durations(duration(TimeUnit::kSecond));
  durations.append(-3);
  EXPECT_EQ(DurationArray(durations.finish()).value(0), -3);

  MonthIntervalBuilder months;
  months.append(14);
  EXPECT_EQ(MonthIntervalArray(months.finish()).value(0), 14);
  DayTimeIntervalBuilder day_times;
  day_times.append({3, 500});
  day_times.append_null();
  Array day_time_array = day_times.finish();
  EXPECT_EQ(DayTimeIntervalArray(day_time_array).value(0), (DayTimeInterval{3, 500}));
  EXPECT_TRUE(day_time_array.is_null(1));
  MonthDayNanoIntervalBuilder month_day_nanos;
  month_day_nanos.append({1, 2, 3});
  EXPECT_EQ(MonthDayNanoIntervalArray(month_day_nanos.finish()).value(0),
            (MonthDayNanoInterval{1, 2, 3}));
}

TEST(NumericBuilderTest, MakeBuilderCreatesTheConcreteBuilder) {
  EXPECT_NO_THROW(make_builder(int64())->as<Int64Builder>());
  EXPECT_NO_THROW(make_builder(uint16())->as<UInt16Builder>());
  EXPECT_NO_THROW(make_builder(float16())->as<HalfFloatBuilder>());
  EXPECT_NO_THROW(make_builder(date64())->as<Date64Builder>());
  EXPECT_NO_THROW(make_builder(timestamp(TimeUnit::kNano))->as<TimestampBuilder>());
  EXPECT_NO_THROW(make_builder(duration(TimeUnit::kNano))->as<NumericBuilder<int64_t>>());
  EXPECT_NO_THROW(make_builder(time32(TimeUnit::kSecond))->as<Time32Builder>());
  EXPECT_NO_THROW(make_builder(day_time_interval())->as<DayTimeIntervalBuilder>());
  EXPECT_THROW(make_builder(int64())->as<Int32Builder>(), TypeError);
  EXPECT_THROW(make_builder(int64())->as<StringBuilder>(), TypeError);
  try {
    make_builder(int64())->as<StringBuilder>();
    FAIL() << "an int64 builder is not a StringBuilder";
  } catch (const TypeError& error) {
    EXPECT_STREQ(error.what(), "the builder of int64 is not a bowstring::StringBuilder");
  }
}

TEST(NumericBuilderTest, WrongTypesAreRejected) {
  EXPECT_THROW(TimestampBuilder{int64()}, TypeError);
  EXPECT_THROW(Time32Builder(time64(TimeUnit::kNano)), TypeError);
  EXPECT_THROW(NumericBuilder<int64_t>{int32()}, TypeError);
  EXPECT_THROW(NumericBuilder<int32_t>{utf8()}, TypeError);
  EXPECT_THROW(NumericBuilder<int32_t>(decimal32(5, 2)), TypeError);
  EXPECT_THROW(NumericBuilder<uint8_t>{boolean()}, TypeError);
  EXPECT_THROW(NumericBuilder<int64_t>(nullptr), InvalidArgument);
  EXPECT_THROW(make_builder(nullptr), InvalidArgument);
}

TEST(NumericBuilderTest, ReuseProducesIndependentArrays) {
  Int64Builder builder;
  builder.append(1);
  builder.append_null();
  Array first = builder.finish();
  builder.append(10);
  builder.append(20);
  builder.append(30);
  Array second = builder.finish();
  Array third = builder.finish();
  builder.append(99);
  Array fourth = builder.finish();
  EXPECT_EQ(values_of<int64_t>(Int64Array(first)),
            (std::vector<std::optional<int64_t>>{1, std::nullopt}));
  EXPECT_EQ(values_of<int64_t>(Int64Array(second)),
            (std::vector<std::optional<int64_t>>{10, 20, 30}));
  EXPECT_EQ(second.data()->buffers[0], nullptr) << "validity does not leak across finishes";
  EXPECT_EQ(third.length(), 0);
  EXPECT_EQ(Int64Array(third).values().size(), 0u);
  EXPECT_EQ(values_of<int64_t>(Int64Array(fourth)), (std::vector<std::optional<int64_t>>{99}));
}

TEST(NumericBuilderTest, ResetDropsValues) {
  Int64Builder builder;
  builder.append(1);
  builder.append_null();
  builder.reset();
  EXPECT_EQ(builder.length(), 0);
  EXPECT_EQ(builder.null_count(), 0);
  builder.append(5);
  Array array = builder.finish();
  EXPECT_EQ(array.length(), 1);
  EXPECT_EQ(array.null_count(), 0);
  EXPECT_EQ(Int64Array(array).value(0), 5);
}

TEST(NumericBuilderTest, SlicesOfSlicesReadTheRightValues) {
  Array array = make_array<int32_t>({0, 1, std::nullopt, 3, 4, std::nullopt, 6, 7, 8, 9});
  Array slice = array.slice(1, 8).slice(2, 5);  // values 3..7
  Int32Array view(slice);
  EXPECT_EQ(values_of<int32_t>(view),
            (std::vector<std::optional<int32_t>>{3, 4, std::nullopt, 6, 7}));
  EXPECT_EQ(slice.null_count(), 1);
  EXPECT_EQ(array.slice(3, 2).null_count(), 0);
}

TEST(NumericBuilderTest, NonNullableBuilderRefusesNulls) {
  Int64Builder builder;
  builder.set_nullable(false);
  builder.append(1);
  EXPECT_THROW(builder.append_null(), InvalidArgument);
  EXPECT_THROW(builder.append_nulls(2), InvalidArgument);
  const std::vector<int64_t> values = {1, 2};
  const uint8_t valid[] = {1, 0};
  EXPECT_THROW(builder.append_values(values, valid), InvalidArgument);
  EXPECT_EQ(builder.length(), 1);
  builder.append_empty_value();
  EXPECT_EQ(builder.finish().null_count(), 0);
}

TEST(NumericBuilderTest, BuildsThroughAnotherAllocator) {
  CheckedAllocator checked(system_allocator());
  {
    Int64Builder builder(&checked);
    builder.append(3);
    builder.append_null();
    EXPECT_GT(checked.bytes_in_use(), 0);
    Array array = builder.finish();
    EXPECT_EQ(array.data()->buffers[1]->allocator(), &checked);
    EXPECT_EQ(array.data()->buffers[0]->allocator(), &checked);
  }
  EXPECT_TRUE(checked.leaks().empty());
}

// --- float16 ------------------------------------------------------------------------------

TEST(HalfFloatTest, ConvertsFloatsToNearestHalf) {
  EXPECT_EQ(float16_from_float(0.0f), 0x0000);
  EXPECT_EQ(float16_from_float(-0.0f), 0x8000);
  EXPECT_EQ(float16_from_float(1.0f), 0x3C00);
  EXPECT_EQ(float16_from_float(-2.0f), 0xC000);
  EXPECT_EQ(float16_from_float(65504.0f), 0x7BFF);
  EXPECT_EQ(float16_from_float(65520.0f), 0x7C00);  // rounds up to infinity
  EXPECT_EQ(float16_from_float(1e10f), 0x7C00);
  EXPECT_EQ(float16_from_float(-std::numeric_limits<float>::infinity()), 0xFC00);
  EXPECT_EQ(float16_from_float(0x1p-24f), 0x0001);         // smallest subnormal
  EXPECT_EQ(float16_from_float(0x1p-25f), 0x0000);         // tie rounds to even zero
  EXPECT_EQ(float16_from_float(0x1.8p-24f), 0x0002);       // tie rounds to even two
  EXPECT_EQ(float16_from_float(0x1p-14f), 0x0400);         // smallest normal
  EXPECT_EQ(float16_from_float(1.0f + 0x1p-11f), 0x3C00);  // tie to even
  EXPECT_EQ(float16_from_float(1.0f + 0x1.8p-11f), 0x3C01);
  const uint16_t nan = float16_from_float(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(std::isnan(float16_to_float(nan)));
}

TEST(HalfFloatTest, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const auto half = static_cast<uint16_t>(bits);
    const float value = float16_to_float(half);
    if (std::isnan(value)) {
      continue;
    }
    ASSERT_EQ(float16_from_float(value), half) << std::hex << bits;
  }
}

TEST(HalfFloatTest, BuilderAppendsBitsAndFloats) {
  HalfFloatBuilder builder;
  builder.append(0x3C00);
  builder.append_float(-1.5f);
  builder.append_null();
  const std::vector<float> floats = {0.5f, 2.0f};
  builder.append_floats(floats);
  Array array = builder.finish();
  EXPECT_EQ(array.type()->id(), TypeId::kFloat16);
  HalfFloatArray view(array);
  EXPECT_EQ(float16_to_float(view.value(0)), 1.0f);
  EXPECT_EQ(float16_to_float(view.value(1)), -1.5f);
  EXPECT_TRUE(view.is_null(2));
  EXPECT_EQ(float16_to_float(view.value(3)), 0.5f);
  EXPECT_EQ(float16_to_float(view.value(4)), 2.0f);
}

// --- null and boolean ---------------------------------------------------------------------

TEST(NullBuilderTest, CountsNulls) {
  NullBuilder builder;
  builder.append_null();
  builder.append_nulls(3);
  builder.append_empty_value();
  Array array = builder.finish();
  EXPECT_EQ(array.type_id(), TypeId::kNull);
  EXPECT_EQ(array.length(), 5);
  EXPECT_EQ(array.null_count(), 5);
  ASSERT_EQ(array.data()->buffers.size(), 1u);
  EXPECT_EQ(array.data()->buffers[0], nullptr);
  EXPECT_EQ(array.slice(1, 2).null_count(), 2);
  EXPECT_NO_THROW(NullArray{array});
  EXPECT_EQ(builder.finish().length(), 0);
}

TEST(BooleanBuilderTest, RoundTripsValuesAndNulls) {
  BooleanBuilder builder;
  builder.append(true);
  builder.append(false);
  builder.append_null();
  builder.append(true);
  Array array = builder.finish();
  BooleanArray view(array);
  EXPECT_EQ(values_of<bool>(view),
            (std::vector<std::optional<bool>>{true, false, std::nullopt, true}));
  EXPECT_EQ(view.true_count(), 2);
  EXPECT_EQ(array.null_count(), 1);
}

TEST(BooleanBuilderTest, AppendValuesBitsAndUnsafe) {
  BooleanBuilder builder;
  const std::vector<uint8_t> bytes = {1, 0, 7, 0, 1, 1, 0, 1, 1, 0};
  builder.append_values(bytes);
  const bool bools[] = {false, true, true};
  const uint8_t valid[] = {1, 0, 1};
  builder.append_values(std::span<const bool>(bools), valid);
  const uint8_t bits[] = {0b00000110};
  const uint8_t validity[] = {0b00000101};
  builder.append_bits(bits, 1, 3, validity, 0);  // values 1, 1, 0; validity 1, 0, 1
  builder.reserve(2);
  builder.unsafe_append(true);
  builder.unsafe_append(false);
  builder.append_empty_values(2);
  Array array = builder.finish();
  const std::vector<std::optional<bool>> expected = {
      true,  false,        true, false, true,         true,  false, true,  true,  false,
      false, std::nullopt, true, true,  std::nullopt, false, true,  false, false, false};
  EXPECT_EQ(values_of<bool>(BooleanArray(array)), expected);
  EXPECT_EQ(array.null_count(), 2);
}

TEST(BooleanBuilderTest, SlicesOfSlices) {
  Array array = make_array<bool>({true, std::nullopt, false, true, true, std::nullopt, false});
  Array slice = array.slice(1, 6).slice(1, 4);  // false, true, true, null
  EXPECT_EQ(values_of<bool>(BooleanArray(slice)),
            (std::vector<std::optional<bool>>{false, true, true, std::nullopt}));
  EXPECT_EQ(BooleanArray(slice).true_count(), 2);
  EXPECT_EQ(slice.null_count(), 1);
}

TEST(BooleanBuilderTest, Reuse) {
  BooleanBuilder builder;
  builder.append_nulls(2);
  Array first = builder.finish();
  builder.append(true);
  Array second = builder.finish();
  EXPECT_EQ(first.null_count(), 2);
  EXPECT_EQ(second.null_count(), 0);
  EXPECT_EQ(second.data()->buffers[0], nullptr);
  EXPECT_TRUE(BooleanArray(second).value(0));
}

// --- binary and strings -------------------------------------------------------------------

template <typename B>
class BinaryBuilderTest : public ::testing::Test {};

using BinaryBuilders =
    ::testing::Types<StringBuilder, BinaryBuilder, LargeStringBuilder, LargeBinaryBuilder>;
TYPED_TEST_SUITE(BinaryBuilderTest, BinaryBuilders);

TYPED_TEST(BinaryBuilderTest, RoundTripsStringsAndNulls) {
  using Offset = std::conditional_t<TypeParam::kLarge, int64_t, int32_t>;
  TypeParam builder;
  builder.append("hello");
  builder.append_null();
  builder.append("");
  builder.append(std::string_view("a\0b", 3));
  builder.append_empty_value();
  EXPECT_EQ(builder.value(0), "hello");
  EXPECT_EQ(builder.value(3), std::string_view("a\0b", 3));
  EXPECT_EQ(builder.value_data_length(), 8);
  Array array = builder.finish();
  BaseBinaryArray<Offset> view(array);
  ASSERT_EQ(array.length(), 5);
  EXPECT_EQ(array.null_count(), 1);
  EXPECT_EQ(view.value(0), "hello");
  EXPECT_TRUE(view.is_null(1));
  EXPECT_EQ(view.value(2), "");
  EXPECT_EQ(view.value(3), std::string_view("a\0b", 3));
  EXPECT_EQ(view.value(4), "");
  const std::vector<Offset> offsets(view.offsets().begin(), view.offsets().end());
  EXPECT_EQ(offsets, (std::vector<Offset>{0, 5, 5, 5, 8, 8}));
  EXPECT_EQ(array.data()->buffers[2]->size(), 8);
}

TYPED_TEST(BinaryBuilderTest, EmptyArrayHasOneOffset) {
  using Offset = std::conditional_t<TypeParam::kLarge, int64_t, int32_t>;
  TypeParam builder;
  Array array = builder.finish();
  EXPECT_EQ(array.length(), 0);
  ASSERT_EQ(array.data()->buffers.size(), 3u);
  EXPECT_EQ(array.data()->buffers[1]->size(), static_cast<int64_t>(sizeof(Offset)));
  EXPECT_EQ(array.data()->buffers[1]->template data_as<Offset>()[0], 0);
  EXPECT_NE(array.data()->buffers[2], nullptr);
}

TYPED_TEST(BinaryBuilderTest, AppendValuesAndUnsafeAppend) {
  using Offset = std::conditional_t<TypeParam::kLarge, int64_t, int32_t>;
  TypeParam builder;
  const std::vector<std::string> strings = {"x", "yy", "zzz"};
  builder.append_values(strings);
  const std::vector<std::string_view> views = {"p", "ignored", "rr"};
  const uint8_t valid[] = {1, 0, 1};
  builder.append_values(views, valid);
  builder.reserve(2);
  builder.reserve_data(6);
  builder.unsafe_append("abc");
  builder.unsafe_append("def");
  builder.append_nulls(2);
  const uint8_t bits[] = {0b00000100};  // bits 1..3: 0, 1, 0
  builder.append_values(strings, bits, 1);
  Array array = builder.finish();
  BaseBinaryArray<Offset> view(array);
  std::vector<std::optional<std::string>> got;
  for (int64_t i = 0; i < view.length(); ++i) {
    got.push_back(view.is_null(i) ? std::nullopt : std::optional<std::string>(view.value(i)));
  }
  EXPECT_EQ(got, (std::vector<std::optional<std::string>>{"x", "yy", "zzz", "p", std::nullopt, "rr",
                                                          "abc", "def", std::nullopt, std::nullopt,
                                                          std::nullopt, "yy", std::nullopt}));
  EXPECT_EQ(array.data()->buffers[2]->size(), 17) << "null strings add no bytes";
  EXPECT_EQ(array.null_count(), 5);
}

TYPED_TEST(BinaryBuilderTest, ReuseAndSlices) {
  using Offset = std::conditional_t<TypeParam::kLarge, int64_t, int32_t>;
  TypeParam builder;
  for (int i = 0; i < 10; ++i) {
    if (i % 4 == 1) {
      builder.append_null();
    } else {
      builder.append(std::string(static_cast<size_t>(i), 'a' + static_cast<char>(i)));
    }
  }
  Array first = builder.finish();
  builder.append("second");
  Array second = builder.finish();
  Array slice = first.slice(2, 7).slice(2, 4);  // rows 4..7
  BaseBinaryArray<Offset> view(slice);
  EXPECT_EQ(view.value(0), "eeee");
  EXPECT_TRUE(view.is_null(1));
  EXPECT_EQ(view.value(2), "gggggg");
  EXPECT_EQ(view.value(3), "hhhhhhh");
  EXPECT_EQ(slice.null_count(), 1);
  EXPECT_EQ(BaseBinaryArray<Offset>(second).value(0), "second");
  EXPECT_EQ(second.data()->buffers[0], nullptr);
}

TEST(BinaryBuilderTest, TypesOfTheConcreteBuilders) {
  EXPECT_EQ(StringBuilder().type()->id(), TypeId::kString);
  EXPECT_EQ(BinaryBuilder().type()->id(), TypeId::kBinary);
  EXPECT_EQ(LargeStringBuilder().type()->id(), TypeId::kLargeString);
  EXPECT_EQ(LargeBinaryBuilder().type()->id(), TypeId::kLargeBinary);
  EXPECT_NO_THROW(make_builder(utf8())->as<StringBuilder>());
  EXPECT_NO_THROW(make_builder(binary())->as<BaseBinaryBuilder<int32_t>>());
  EXPECT_NO_THROW(make_builder(large_utf8())->as<LargeStringBuilder>());
  EXPECT_THROW(make_builder(large_utf8())->as<BaseBinaryBuilder<int32_t>>(), TypeError);
  EXPECT_THROW(BaseBinaryBuilder<int32_t>{large_utf8()}, TypeError);
  EXPECT_THROW(BaseBinaryBuilder<int64_t>{int64()}, TypeError);
}

TEST(BinaryBuilderTest, AppendsItsOwnValuesAgain) {
  // value(i) points into the builder's data, which appending it again may move.
  const std::string text = "a value of thirty bytes, long.";
  StringBuilder strings;
  strings.append(text);
  FixedSizeBinaryBuilder fixed(fixed_size_binary(30));
  fixed.append(text);
  DecimalBuilder decimals(decimal128(38, 0));
  decimals.append_string("-12345678901234567890123456789");
  for (int i = 0; i < 10; ++i) {
    strings.append(strings.value(0));
    fixed.append(fixed.value(0));
    decimals.append_raw(decimals.value_bytes(0));
  }
  StringArray string_array(strings.finish());
  FixedSizeBinaryArray fixed_array(fixed.finish());
  DecimalArray decimal_array(decimals.finish());
  for (int64_t i = 0; i < 11; ++i) {
    EXPECT_EQ(string_array.value(i), text) << i;
    EXPECT_EQ(fixed_array.value(i), text) << i;
    EXPECT_EQ(decimal_array.format_value(i), "-12345678901234567890123456789") << i;
  }
}

TEST(BinaryBuilderTest, Int32OffsetsOverflowIsAClearError) {
  // Reserving past what int32 offsets address fails before any memory is touched.
  StringBuilder builder;
  EXPECT_THROW(builder.reserve_data(int64_t{1} << 31), InvalidArgument);
  try {
    builder.reserve_data(int64_t{3} << 30);
    FAIL() << "expected an overflow error";
  } catch (const InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("large"), std::string::npos) << error.what();
  }
  LargeStringBuilder large;
  EXPECT_NO_THROW(large.reserve_data(1 << 20));
}

TEST(FixedSizeBinaryBuilderTest, RoundTripAndWidthCheck) {
  FixedSizeBinaryBuilder builder(fixed_size_binary(3));
  EXPECT_EQ(builder.byte_width(), 3);
  builder.append("abc");
  builder.append_null();
  const uint8_t raw[] = {'x', 'y', 'z'};
  builder.append(raw);
  builder.reserve(1);
  builder.unsafe_append(raw);
  const uint8_t many[] = {'1', '2', '3', '4', '5', '6'};
  const uint8_t valid[] = {0, 1};
  builder.append_values(many, 2, valid);
  builder.append_empty_value();
  EXPECT_THROW(builder.append("ab"), InvalidArgument);
  EXPECT_THROW(builder.append("abcd"), InvalidArgument);
  EXPECT_EQ(builder.length(), 7);
  EXPECT_EQ(builder.value(2), "xyz");
  Array array = builder.finish();
  FixedSizeBinaryArray view(array);
  EXPECT_EQ(view.value(0), "abc");
  EXPECT_TRUE(view.is_null(1));
  EXPECT_EQ(view.value(2), "xyz");
  EXPECT_EQ(view.value(3), "xyz");
  EXPECT_TRUE(view.is_null(4));
  EXPECT_EQ(view.value(5), "456");
  EXPECT_EQ(view.value(6), std::string(3, '\0'));
  EXPECT_EQ(array.null_count(), 2);
  EXPECT_EQ(array.data()->buffers[1]->size(), 21);
  Array slice = array.slice(1, 5).slice(1, 3);
  EXPECT_EQ(FixedSizeBinaryArray(slice).value(0), "xyz");
  EXPECT_TRUE(slice.is_null(2));
  EXPECT_THROW(FixedSizeBinaryBuilder{binary()}, TypeError);
}

TEST(FixedSizeBinaryBuilderTest, ZeroWidth) {
  FixedSizeBinaryBuilder builder(fixed_size_binary(0));
  builder.append("");
  builder.append_null();
  Array array = builder.finish();
  EXPECT_EQ(array.length(), 2);
  EXPECT_EQ(array.data()->buffers[1]->size(), 0);
  EXPECT_EQ(FixedSizeBinaryArray(array).value(0), "");
}

TEST(BinaryViewBuilderTest, InlinesShortValuesAndReferencesLongOnes) {
  StringViewBuilder builder;
  builder.append("short");
  builder.append("exactly12byt");
  builder.append("thirteen byte");
  builder.append_null();
  builder.append("");
  Array array = builder.finish();
  EXPECT_EQ(array.type_id(), TypeId::kStringView);
  BinaryViewArray view(array);
  ASSERT_EQ(view.num_data_buffers(), 1);
  EXPECT_TRUE(view.view(0).is_inline());
  EXPECT_TRUE(view.view(1).is_inline());
  EXPECT_FALSE(view.view(2).is_inline());
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(view.view(2).ref.prefix), 4), "thir");
  EXPECT_EQ(view.view(2).ref.buffer_index, 0);
  EXPECT_EQ(view.view(2).ref.offset, 0);
  EXPECT_EQ(view.value(0), "short");
  EXPECT_EQ(view.value(1), "exactly12byt");
  EXPECT_EQ(view.value(2), "thirteen byte");
  EXPECT_TRUE(view.is_null(3));
  EXPECT_EQ(view.value(4), "");
  // Inline views are zero padded, so views can be compared as bytes.
  const BinaryView& inlined = view.view(0);
  for (int i = 5; i < BinaryView::kInlineSize; ++i) {
    EXPECT_EQ(inlined.inlined[i], 0);
  }
}

TEST(BinaryViewBuilderTest, StartsNewDataBuffersWhenOneFills) {
  BinaryViewBuilder builder(binary_view(), default_allocator(), 64);
  std::vector<std::string> expected;
  for (int i = 0; i < 40; ++i) {
    expected.push_back(
        std::string(static_cast<size_t>(13 + i % 20), static_cast<char>('a' + i % 26)));
    builder.append(expected.back());
  }
  const std::string huge(1000, 'h');
  builder.append(huge);
  expected.push_back(huge);
  Array array = builder.finish();
  BinaryViewArray view(array);
  EXPECT_GT(view.num_data_buffers(), 5);
  for (int64_t i = 0; i < view.length(); ++i) {
    const BinaryView& v = view.view(i);
    ASSERT_LT(v.ref.buffer_index, view.num_data_buffers());
    const Buffer& data = *array.data()->buffers[2 + static_cast<size_t>(v.ref.buffer_index)];
    ASSERT_LE(v.ref.offset + v.size, data.size());
    ASSERT_EQ(view.value(i), expected[static_cast<size_t>(i)]) << i;
  }
  // The huge value got a buffer of its own.
  EXPECT_EQ(array.data()->buffers.back()->size(), 1000);
}

TEST(BinaryViewBuilderTest, AppendValuesReuseAndSlices) {
  BinaryViewBuilder builder;
  const std::vector<std::string> values = {"a", "a much longer string value", "c", "dd"};
  const uint8_t valid[] = {1, 1, 0, 1};
  builder.append_values(values, valid);
  builder.append_nulls(2);
  builder.append_empty_values(1);
  const uint8_t bits[] = {0b00000010};  // bits 1..2: 1, 0
  builder.append_values(std::vector<std::string_view>{"a long value past twelve", "x"}, bits, 1);
  Array first = builder.finish();
  builder.append("again, a long string");
  Array second = builder.finish();
  Array empty = builder.finish();
  BinaryViewArray view(first);
  EXPECT_EQ(first.length(), 9);
  EXPECT_EQ(first.null_count(), 4);
  EXPECT_EQ(view.value(7), "a long value past twelve");
  EXPECT_TRUE(view.is_null(8));
  EXPECT_EQ(view.value(1), "a much longer string value");
  EXPECT_EQ(view.value(3), "dd");
  EXPECT_EQ(view.value(6), "");
  Array slice = first.slice(1, 5).slice(1, 3);  // null, "dd", null
  EXPECT_TRUE(slice.is_null(0));
  EXPECT_EQ(BinaryViewArray(slice).value(1), "dd");
  EXPECT_EQ(slice.null_count(), 2);
  EXPECT_EQ(BinaryViewArray(second).value(0), "again, a long string");
  EXPECT_EQ(BinaryViewArray(second).num_data_buffers(), 1);
  EXPECT_EQ(empty.length(), 0);
  EXPECT_EQ(BinaryViewArray(empty).num_data_buffers(), 0);
  EXPECT_THROW(BinaryViewBuilder(utf8(), default_allocator()), TypeError);
  EXPECT_THROW(BinaryViewBuilder(binary_view(), default_allocator(), 4), InvalidArgument);
}

// --- every type ---------------------------------------------------------------------------

std::vector<TypePtr> every_type() {
  return {null(),
          boolean(),
          int8(),
          int16(),
          int32(),
          int64(),
          uint8(),
          uint16(),
          uint32(),
          uint64(),
          float16(),
          float32(),
          float64(),
          decimal32(9, 2),
          decimal64(18, 2),
          decimal128(38, 2),
          decimal256(76, 2),
          date32(),
          date64(),
          time32(TimeUnit::kMilli),
          time64(TimeUnit::kMicro),
          timestamp(TimeUnit::kNano, "Europe/Paris"),
          duration(TimeUnit::kSecond),
          month_interval(),
          day_time_interval(),
          month_day_nano_interval(),
          utf8(),
          large_utf8(),
          binary(),
          large_binary(),
          fixed_size_binary(5),
          utf8_view(),
          binary_view(),
          list(int32()),
          large_list(utf8()),
          list_view(boolean()),
          large_list_view(float64()),
          fixed_size_list(int16(), 3),
          struct_({field("a", int32()), field("b", list(utf8()))}),
          map(utf8(), int64()),
          dictionary(int16(), utf8()),
          dense_union({field("i", int32()), field("s", utf8())}, {3, 7}),
          sparse_union({field("i", int32()), field("s", utf8())}),
          sparse_union({field("d", dictionary(int8(), utf8())), field("s", utf8())}),
          run_end_encoded(int32(), utf8()),
          extension(int64(), "example.ext")};
}

TEST(MakeBuilderTest, BuildsEveryTypeWithTheLayoutOfTheFormat) {
  for (const TypePtr& type : every_type()) {
    SCOPED_TRACE(type->to_string());
    std::unique_ptr<ArrayBuilder> builder = make_builder(type);
    EXPECT_TRUE(builder->type()->equals(*type));
    builder->append_null();
    builder->append_nulls(2);
    builder->append_empty_value();
    builder->append_empty_values(2);
    const int64_t length = builder->length();
    Array array = builder->finish();
    EXPECT_EQ(builder->length(), 0);
    EXPECT_TRUE(array.type()->equals(*type));
    EXPECT_EQ(array.length(), length);
    const bool own_nulls = type->id() != TypeId::kDenseUnion &&
                           type->id() != TypeId::kSparseUnion &&
                           type->id() != TypeId::kRunEndEncoded;
    const bool all_null = type->id() == TypeId::kNull;
    EXPECT_EQ(array.data()->known_null_count(), all_null ? length : own_nulls ? 3 : 0);
    for (int64_t i = 0; i < length; ++i) {
      EXPECT_EQ(array.is_null(i), all_null || i < 3) << i;
    }
    const size_t fixed_buffers = type->layout().size();
    if (type->id() == TypeId::kStringView || type->id() == TypeId::kBinaryView) {
      EXPECT_GE(array.data()->buffers.size(), fixed_buffers);
    } else {
      EXPECT_EQ(array.data()->buffers.size(), fixed_buffers);
    }
    for (size_t b = 1; b < array.data()->buffers.size(); ++b) {
      EXPECT_NE(array.data()->buffers[b], nullptr) << "buffer " << b;
    }
    EXPECT_EQ(array.data()->children.size(),
              type->id() == TypeId::kDictionary || type->id() == TypeId::kExtension
                  ? 0u
                  : static_cast<size_t>(type->num_fields()));
    Array empty = builder->finish();
    EXPECT_EQ(empty.length(), 0);
    EXPECT_TRUE(empty.type()->equals(*type));
  }
}

TEST(MakeBuilderTest, NegativeCountsAreRejectedAndChangeNothing) {
  for (const TypePtr& type : every_type()) {
    SCOPED_TRACE(type->to_string());
    std::unique_ptr<ArrayBuilder> builder = make_builder(type);
    builder->append_null();
    builder->append_empty_value();
    EXPECT_THROW(builder->append_empty_values(-1), InvalidArgument);
    EXPECT_THROW(builder->append_nulls(-1), InvalidArgument);
    EXPECT_EQ(builder->length(), 2);
    Array array = builder->finish();
    EXPECT_EQ(array.length(), 2);
    EXPECT_NO_THROW(array.validate_full());
  }
}

TEST(MakeBuilderTest, NegativeCountsOfRawValuesAreRejected) {
  const uint8_t bytes[32] = {};
  const uint8_t valid[1] = {1};
  FixedSizeBinaryBuilder fixed(fixed_size_binary(2));
  EXPECT_THROW(fixed.append_values(bytes, -1), InvalidArgument);
  EXPECT_THROW(fixed.append_values(bytes, -1, valid), InvalidArgument);
  EXPECT_EQ(fixed.length(), 0);
  DecimalBuilder decimals(decimal128(10, 2));
  EXPECT_THROW(decimals.append_raw_values(bytes, -1), InvalidArgument);
  EXPECT_THROW(decimals.append_raw_values(bytes, -1, valid), InvalidArgument);
  EXPECT_EQ(decimals.length(), 0);
}

TEST(MakeBuilderTest, FinishThatRunsOutOfMemoryLeavesTheBuilderAsItWas) {
  // A builder that cannot finish for want of memory must keep everything it holds (its own
  // buffers and its children's), so that finishing again once memory is freed gives the array.
  // 16 slots fill the first allocation of int32 offsets (and the second of int64 ones) but for
  // the closing offset that finishing adds; 40 slots leave room for it.
  const auto append_rows = [](ArrayBuilder& builder, int slots) {
    for (int i = 0; i < slots / 2; ++i) {
      builder.append_null();
      builder.append_empty_value();
    }
  };
  int64_t failed_finishes = 0;
  for (const int slots : {16, 40}) {
    for (const TypePtr& type : every_type()) {
      SCOPED_TRACE(type->to_string() + ", " + std::to_string(slots) + " slots");
      std::unique_ptr<ArrayBuilder> reference = make_builder(type);
      append_rows(*reference, slots);
      const Array expected = reference->finish();
      for (int64_t headroom = 0; headroom <= 1024; headroom += 8) {
        BudgetedAllocator budget(default_allocator(), int64_t{1} << 20, "test budget");
        std::unique_ptr<ArrayBuilder> builder = make_builder(type, &budget);
        append_rows(*builder, slots);
        // Leave only `headroom` bytes of the budget for finishing.
        const int64_t ballast_size = budget.limit() - budget.bytes_in_use() - headroom;
        uint8_t* ballast = budget.allocate(ballast_size);
        Array array;
        try {
          array = builder->finish();
        } catch (const OutOfMemory&) {
          ++failed_finishes;
          budget.free(ballast, ballast_size);
          ballast = nullptr;
          array = builder->finish();
        }
        if (ballast != nullptr) {
          budget.free(ballast, ballast_size);
        }
        ASSERT_NO_THROW(array.validate_full()) << "headroom " << headroom;
        ASSERT_TRUE(array.equals(expected)) << "headroom " << headroom << ": " << array.to_string();
      }
    }
  }
  EXPECT_GT(failed_finishes, 0) << "some headroom must be too small to finish in";
}

// --- test helpers -------------------------------------------------------------------------

TEST(ArrayTestingTest, MakesArraysFromOptionals) {
  Array ints = make_array<int64_t>({1, std::nullopt, 3});
  EXPECT_EQ(ints.type_id(), TypeId::kInt64);
  EXPECT_EQ(values_of<int64_t>(Int64Array(ints)),
            (std::vector<std::optional<int64_t>>{1, std::nullopt, 3}));
  Array dates = make_array<int32_t>(date32(), {18000, std::nullopt});
  EXPECT_EQ(dates.type_id(), TypeId::kDate32);
  EXPECT_EQ(dates.null_count(), 1);
  Array bools = make_array<bool>({true, std::nullopt});
  EXPECT_EQ(bools.type_id(), TypeId::kBoolean);
  Array doubles = make_array<double>({1.5});
  EXPECT_EQ(doubles.type_id(), TypeId::kFloat64);
  EXPECT_THROW(make_array<int32_t>(int64(), {1}), TypeError);
}

TEST(ArrayTestingTest, MakesStringArraysOfEveryBinaryType) {
  for (const TypePtr& type :
       {utf8(), large_utf8(), binary(), large_binary(), utf8_view(), binary_view()}) {
    Array array = make_string_array({"a", std::nullopt, "a string of more than 12 bytes"}, type);
    EXPECT_TRUE(array.type()->equals(*type));
    EXPECT_EQ(array.length(), 3);
    EXPECT_EQ(array.null_count(), 1);
  }
  Array fixed = make_string_array({"ab", std::nullopt}, fixed_size_binary(2));
  EXPECT_EQ(FixedSizeBinaryArray(fixed).value(0), "ab");
  EXPECT_EQ(StringArray(make_string_array({"x"})).value(0), "x");
  EXPECT_THROW(make_string_array({"x"}, int32()), TypeError);
}

TEST(ArrayTestingTest, MakesStructArrays) {
  Array ids = make_array<int32_t>({1, 2, 3});
  Array names = make_string_array({"a", std::nullopt, "c"});
  Array rows = testing::make_struct_array({{"id", ids}, {"name", names}}, {true, true, false});
  StructArray view(rows);
  EXPECT_EQ(rows.type()->to_string(), "struct<id: int32, name: string>");
  EXPECT_EQ(rows.null_count(), 1);
  EXPECT_EQ(Int32Array(view.field(0)).value(1), 2);
  EXPECT_TRUE(view.field("name").is_null(1));
  EXPECT_THROW(testing::make_struct_array({{"id", ids}, {"short", ids.slice(1)}}), InvalidArgument);
}

}  // namespace
}  // namespace bowstring
