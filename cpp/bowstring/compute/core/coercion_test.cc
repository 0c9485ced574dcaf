#include "bowstring/compute/core/coercion.h"

#include <gtest/gtest.h>

#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

using testing::error_message;

// The Spark spelling of an optional type, "none" when absent.
std::string name_of(const std::optional<TypePtr>& type) {
  return type ? spark_type_name(**type) : "none";
}

std::string wider_of(std::vector<TypePtr> types) { return name_of(wider_common_type(types)); }

TEST(SparkTypeOf, MapsArrowTypesToSparkTypes) {
  EXPECT_EQ(spark_type_of(*int8()), SparkType::kByte);
  EXPECT_EQ(spark_type_of(*uint8()), SparkType::kShort);
  EXPECT_EQ(spark_type_of(*uint16()), SparkType::kInt);
  EXPECT_EQ(spark_type_of(*uint32()), SparkType::kLong);
  EXPECT_EQ(spark_type_of(*uint64()), SparkType::kDecimal);
  EXPECT_EQ(spark_type_of(*large_utf8()), SparkType::kString);
  EXPECT_EQ(spark_type_of(*utf8_view()), SparkType::kString);
  EXPECT_EQ(spark_type_of(*binary_view()), SparkType::kBinary);
  EXPECT_EQ(spark_type_of(*timestamp(TimeUnit::kMicro, "UTC")), SparkType::kTimestamp);
  EXPECT_EQ(spark_type_of(*timestamp(TimeUnit::kMicro)), SparkType::kTimestampNtz);
  EXPECT_EQ(spark_type_of(*decimal256(40, 2)), SparkType::kOther);
  EXPECT_EQ(spark_type_of(*list(int32())), SparkType::kOther);
  EXPECT_TRUE(is_numeric(SparkType::kDecimal));
  EXPECT_FALSE(is_numeric(SparkType::kString));
  EXPECT_TRUE(is_integral(SparkType::kByte));
  EXPECT_FALSE(is_integral(SparkType::kFloat));
}

TEST(SparkStorageType, WidensUnsignedAndNormalizesUnits) {
  EXPECT_TRUE(spark_storage_type(uint8())->equals(*int16()));
  EXPECT_TRUE(spark_storage_type(uint32())->equals(*int64()));
  EXPECT_TRUE(spark_storage_type(uint64())->equals(*decimal128(20, 0)));
  EXPECT_TRUE(spark_storage_type(decimal64(10, 2))->equals(*decimal128(10, 2)));
  EXPECT_TRUE(spark_storage_type(date64())->equals(*date32()));
  EXPECT_TRUE(spark_storage_type(timestamp(TimeUnit::kNano, "UTC"))
                  ->equals(*timestamp(TimeUnit::kMicro, "UTC")));
  EXPECT_TRUE(spark_storage_type(utf8_view())->equals(*utf8_view()));
}

TEST(DecimalFor, FollowsDecimalTypeForType) {
  EXPECT_EQ(name_of(decimal_for(int8())), "DECIMAL(3,0)");
  EXPECT_EQ(name_of(decimal_for(int16())), "DECIMAL(5,0)");
  EXPECT_EQ(name_of(decimal_for(int32())), "DECIMAL(10,0)");
  EXPECT_EQ(name_of(decimal_for(int64())), "DECIMAL(20,0)");
  EXPECT_EQ(name_of(decimal_for(float32())), "DECIMAL(14,7)");
  EXPECT_EQ(name_of(decimal_for(float64())), "DECIMAL(30,15)");
  EXPECT_EQ(name_of(decimal_for(utf8())), "none");
  EXPECT_EQ(spark_type_name(*wider_decimal_type(*decimal128(10, 2), *decimal128(5, 4))),
            "DECIMAL(12,4)");
  EXPECT_EQ(spark_type_name(*wider_decimal_type(*decimal128(38, 0), *decimal128(38, 38))),
            "DECIMAL(38,38)");
}

TEST(TightestCommonType, FollowsAnsiTypeCoercion) {
  EXPECT_EQ(name_of(tightest_common_type(int8(), int16())), "SMALLINT");
  EXPECT_EQ(name_of(tightest_common_type(int32(), int64())), "BIGINT");
  // An integral with FLOAT gives DOUBLE; FLOAT with FLOAT stays FLOAT.
  EXPECT_EQ(name_of(tightest_common_type(int32(), float32())), "DOUBLE");
  EXPECT_EQ(name_of(tightest_common_type(float32(), float32())), "FLOAT");
  EXPECT_EQ(name_of(tightest_common_type(null(), utf8())), "STRING");
  EXPECT_EQ(name_of(tightest_common_type(int32(), decimal128(12, 1))), "DECIMAL(12,1)");
  EXPECT_EQ(name_of(tightest_common_type(int32(), decimal128(10, 1))), "none");
  EXPECT_EQ(name_of(tightest_common_type(decimal128(10, 1), decimal128(10, 2))), "none");
  EXPECT_EQ(name_of(tightest_common_type(date32(), timestamp(TimeUnit::kMicro))), "TIMESTAMP_NTZ");
  EXPECT_EQ(name_of(tightest_common_type(timestamp(TimeUnit::kMicro),
                                         timestamp(TimeUnit::kMicro, "UTC"))),
            "TIMESTAMP");
  EXPECT_EQ(name_of(tightest_common_type(utf8(), int32())), "none");
  EXPECT_TRUE((*tightest_common_type(utf8(), large_utf8()))->equals(*large_utf8()));
  EXPECT_EQ(name_of(tightest_common_type(list(int32()), list(int64()))), "ARRAY<BIGINT>");
}

// Expectations checked against Spark 4 (`typeof(coalesce(...))`).
TEST(WiderCommonType, MatchesSpark) {
  EXPECT_EQ(wider_of({utf8(), int32()}), "BIGINT");
  EXPECT_EQ(wider_of({utf8(), decimal128(2, 1)}), "DOUBLE");
  EXPECT_EQ(wider_of({utf8(), float64()}), "DOUBLE");
  EXPECT_EQ(wider_of({utf8(), date32()}), "DATE");
  EXPECT_EQ(wider_of({utf8(), boolean()}), "BOOLEAN");
  EXPECT_EQ(wider_of({int32(), float32()}), "DOUBLE");
  EXPECT_EQ(wider_of({int64(), float32()}), "DOUBLE");
  EXPECT_EQ(wider_of({int8(), int16()}), "SMALLINT");
  EXPECT_EQ(wider_of({int32(), decimal128(2, 1)}), "DECIMAL(11,1)");
  EXPECT_EQ(wider_of({int64(), decimal128(2, 1)}), "DECIMAL(21,1)");
  EXPECT_EQ(wider_of({decimal128(2, 1), float32()}), "DOUBLE");
  EXPECT_EQ(wider_of({timestamp(TimeUnit::kMicro), date32()}), "TIMESTAMP_NTZ");
  EXPECT_EQ(wider_of({list(int32()), list(int64())}), "ARRAY<BIGINT>");
  EXPECT_EQ(wider_of({int32(), binary()}), "none");
  EXPECT_EQ(wider_of({boolean(), int32()}), "none");
  // Strings convert first, wherever they stand: (1, '2', 1.5D) is DOUBLE, not BIGINT then fail.
  EXPECT_EQ(wider_of({int32(), utf8(), float64()}), "DOUBLE");
  EXPECT_EQ(wider_of({}), "VOID");
  EXPECT_EQ(wider_of({null(), null()}), "VOID");
}

TEST(WiderType, NamesFunctionAndTypes) {
  const std::vector<TypePtr> mismatched{int32(), binary()};
  EXPECT_EQ(error_message<AnalysisError>([&] { wider_type(mismatched, "coalesce"); }),
            "[DATATYPE_MISMATCH] Cannot resolve \"coalesce\" due to data type mismatch: Input to "
            "`coalesce` should all be the same type, but it's (\"INT\" or \"BINARY\").");
  const std::vector<TypePtr> with_string{int32(), utf8()};
  EXPECT_EQ(spark_type_name(*wider_type(with_string, "coalesce")), "BIGINT");
  // Spark's greatest and least do not convert strings.
  EXPECT_EQ(error_message<AnalysisError>(
                [&] { wider_type(with_string, "greatest", StringPromotion::kNo); }),
            "[DATATYPE_MISMATCH] Cannot resolve \"greatest\" due to data type mismatch: Input to "
            "`greatest` should all be the same type, but it's [\"INT\", \"STRING\"].");
  const std::vector<TypePtr> numbers{int32(), null(), decimal128(3, 2)};
  EXPECT_EQ(spark_type_name(*wider_type(numbers, "greatest", StringPromotion::kNo)),
            "DECIMAL(12,2)");
}

TEST(ComparisonType, FollowsAnsiRules) {
  EXPECT_EQ(name_of(comparison_type(utf8(), int32())), "BIGINT");
  EXPECT_EQ(name_of(comparison_type(utf8(), float32())), "DOUBLE");
  EXPECT_EQ(name_of(comparison_type(utf8(), decimal128(2, 1))), "DOUBLE");
  EXPECT_EQ(name_of(comparison_type(date32(), utf8())), "DATE");
  EXPECT_EQ(name_of(comparison_type(utf8(), timestamp(TimeUnit::kMicro, "UTC"))), "TIMESTAMP");
  EXPECT_EQ(name_of(comparison_type(decimal128(5, 2), decimal128(10, 0))), "DECIMAL(12,2)");
  EXPECT_EQ(name_of(comparison_type(decimal128(5, 2), int64())), "DECIMAL(22,2)");
  EXPECT_EQ(name_of(comparison_type(decimal128(5, 2), float32())), "DOUBLE");
  EXPECT_EQ(name_of(comparison_type(utf8(), large_utf8())), "STRING");
  EXPECT_EQ(name_of(comparison_type(boolean(), int32())), "none");
}

}  // namespace
}  // namespace bowstring::compute
