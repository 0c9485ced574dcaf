#include "bowstring/array/array.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "bowstring/array/builder_nested.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/builder_union.h"

namespace bowstring {
namespace {

TEST(ArrayTest, ExtensionOfNullIsAllNullInEverySlice) {
  ExtensionBuilder builder(extension(null(), "example.empty"));
  builder.append_nulls(4);
  Array array = builder.finish();
  EXPECT_EQ(array.null_count(), 4);
  EXPECT_TRUE(array.is_null(1));
  Array slice = array.slice(1, 2);
  EXPECT_EQ(slice.null_count(), 2);
  EXPECT_TRUE(slice.is_null(0));
  Array recounted(std::make_shared<ArrayData>(array.type(), 3, array.data()->buffers));
  EXPECT_EQ(recounted.null_count(), 3);
}

TEST(ArrayTest, ExtensionOfAUnionTakesItsNullsFromTheChildren) {
  ExtensionBuilder builder(
      extension(sparse_union({field("i", int32()), field("s", utf8())}), "example.either"));
  auto& unions = builder.storage_builder().as<SparseUnionBuilder>();
  unions.append(0).as<Int32Builder>().append(7);
  unions.append_null();
  Array array = builder.finish();
  EXPECT_EQ(array.null_count(), 0) << "as for the union itself, the nulls live in the children";
  EXPECT_FALSE(array.is_null(0));
  EXPECT_TRUE(array.is_null(1));
  EXPECT_TRUE(array.slice(1).is_null(0));
}

TEST(ArrayTest, FormatDecimalHandlesSignsScalesAndWidths) {
  const auto format32 = [](int32_t unscaled, int32_t scale) {
    uint8_t bytes[4];
    std::memcpy(bytes, &unscaled, 4);
    return format_decimal(bytes, 4, scale);
  };
  EXPECT_EQ(format32(1230, 2), "12.30");
  EXPECT_EQ(format32(-1230, 2), "-12.30");
  EXPECT_EQ(format32(5, 3), "0.005");
  EXPECT_EQ(format32(-5, 3), "-0.005");
  EXPECT_EQ(format32(0, 0), "0");
  EXPECT_EQ(format32(123, -2), "123E+2");
  EXPECT_EQ(format32(0, -2), "0E+2");
  EXPECT_EQ(format32(-7, std::numeric_limits<int32_t>::min()), "-7E+2147483648");
  uint8_t min256[32] = {};
  min256[31] = 0x80;
  EXPECT_EQ(format_decimal(min256, 32, 0),
            "-57896044618658097711785492504343953926634992332820282019728792003956564819968");
}

}  // namespace
}  // namespace bowstring
