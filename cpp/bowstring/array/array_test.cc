#include "bowstring/array/array.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace bowstring
