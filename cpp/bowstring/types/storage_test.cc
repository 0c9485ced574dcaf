#include "bowstring/types/storage.h"

#include <gtest/gtest.h>

#include "bowstring/util/error.h"

namespace bowstring {
namespace {

TEST(StorageOfTest, AnExtensionTypeIsStoredAsItsStorageType) {
  const TypePtr storage = fixed_size_binary(16);
  const TypePtr uuid = extension(storage, "arrow.uuid");
  EXPECT_EQ(&storage_of(*uuid), storage.get());
  EXPECT_EQ(storage_of(uuid), storage) << "the pointer overload shares the storage type";
}

TEST(StorageOfTest, EveryOtherTypeIsItsOwnStorage) {
  for (const TypePtr& type : {int32(), utf8_view(), list(int64()), struct_({field("a", utf8())}),
                              dictionary(int8(), utf8())}) {
    EXPECT_EQ(&storage_of(*type), type.get()) << type->to_string();
    EXPECT_EQ(storage_of(type), type) << type->to_string();
  }
}

TEST(StorageOfTest, ADictionaryUnderAnExtensionIsNotLookedThrough) {
  const TypePtr dict = dictionary(int16(), utf8());
  const TypePtr labels = extension(dict, "example.labels");
  EXPECT_EQ(storage_of(labels), dict);
  EXPECT_EQ(storage_of(*labels).id(), TypeId::kDictionary);
}

TEST(StorageOfTest, OneStepSufficesBecauseExtensionsDoNotNest) {
  const TypePtr inner = extension(int64(), "example.inner");
  EXPECT_THROW(extension(inner, "example.outer"), TypeError);
}

TEST(IsViewTypeTest, OnlyTheTwoViewTypes) {
  for (int id = 0; id <= static_cast<int>(TypeId::kExtension); ++id) {
    const auto type_id = static_cast<TypeId>(id);
    EXPECT_EQ(is_view_type(type_id),
              type_id == TypeId::kStringView || type_id == TypeId::kBinaryView)
        << type_id_name(type_id);
  }
  EXPECT_FALSE(is_view_type(extension(utf8_view(), "example.text")->id()))
      << "an extension's own id is not a view: callers ask about storage_of(type)";
  EXPECT_TRUE(is_view_type(storage_of(*extension(utf8_view(), "example.text")).id()));
}

}  // namespace
}  // namespace bowstring
