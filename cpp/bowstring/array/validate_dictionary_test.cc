// Validation that trusts dictionaries validated before (DictionaryCheck::kIndicesOnly).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "bowstring/array/validate.h"
#include "bowstring/testing/array_data_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring {
namespace {

using testing::error_message;
using ::testing::HasSubstr;

TEST(ValidateDictionaries, IndicesOnlyLeavesTheDictionaryValuesAlone) {
  const TypePtr type = dictionary(int32(), utf8());
  const Array malformed = testing::strings({"ok", std::string("\xff", 1)});
  const Array array = testing::dictionary_of(type, {0, 1, std::nullopt}, malformed);
  EXPECT_THAT(error_message<FormatError>([&] { validate_full(*array.data()); }),
              HasSubstr("UTF-8"));
  validate_full(*array.data(), DictionaryCheck::kIndicesOnly);
  validate(*array.data(), DictionaryCheck::kIndicesOnly);
}

TEST(ValidateDictionaries, IndicesOnlyStillChecksIndicesAndTheDictionaryType) {
  const TypePtr type = dictionary(int32(), utf8());
  const Array out_of_range = testing::dictionary_of(type, {0, 2}, testing::strings({"a", "b"}));
  EXPECT_THAT(error_message<FormatError>(
                  [&] { validate_full(*out_of_range.data(), DictionaryCheck::kIndicesOnly); }),
              HasSubstr("outside the dictionary of length 2"));
  // Nested in a struct too.
  const TypePtr wrapper = struct_({field("d", type)});
  const Array nested = testing::struct_of(wrapper, 2, {out_of_range});
  EXPECT_THAT(error_message<FormatError>(
                  [&] { validate_full(*nested.data(), DictionaryCheck::kIndicesOnly); }),
              HasSubstr("outside the dictionary of length 2"));
  const auto wrong_type = std::make_shared<ArrayData>(*out_of_range.data());
  wrong_type->dictionary = testing::int32s({1, 2}).data();
  EXPECT_THAT(
      error_message<FormatError>([&] { validate(*wrong_type, DictionaryCheck::kIndicesOnly); }),
      HasSubstr("dictionary has type int32"));
}

}  // namespace
}  // namespace bowstring
