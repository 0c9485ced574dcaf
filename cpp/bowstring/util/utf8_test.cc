#include "bowstring/util/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace bowstring {
namespace {

int64_t position_of(const std::string& text) {
  return invalid_utf8_position(reinterpret_cast<const uint8_t*>(text.data()),
                               static_cast<int64_t>(text.size()));
}

TEST(Utf8Test, FindsTheFirstBadByte) {
  EXPECT_EQ(position_of(""), -1);
  EXPECT_EQ(position_of("plain ASCII text, longer than eight bytes"), -1);
  EXPECT_EQ(position_of("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xbb"), -1);
  EXPECT_EQ(position_of("abcdefghij\xff"), 10);
  EXPECT_EQ(position_of("\xc3"), 0);                   // cut short
  EXPECT_EQ(position_of("a\xc0\xaf"), 1);              // overlong '/'
  EXPECT_EQ(position_of("ab\xed\xa0\x80"), 2);         // surrogate U+D800
  EXPECT_EQ(position_of("\xf4\x90\x80\x80"), 0);       // past U+10FFFF
  EXPECT_EQ(position_of("\xe2\x82"), 0);               // three-byte sequence cut short
  EXPECT_EQ(position_of(std::string("a\0b", 3)), -1);  // NUL is a code point
  EXPECT_TRUE(is_valid_utf8("\xe2\x82\xac"));
  EXPECT_FALSE(is_valid_utf8("\x80"));
}

TEST(Utf8Test, EscapesOnlyTheBadBytes) {
  EXPECT_EQ(escape_invalid_utf8(""), "");
  EXPECT_EQ(escape_invalid_utf8("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(escape_invalid_utf8("a\xff"
                                "b\xc3\xa9\xc3"),
            "a\\xffb\xc3\xa9\\xc3");
  EXPECT_EQ(escape_invalid_utf8("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_TRUE(is_valid_utf8(escape_invalid_utf8("\xed\xa0\x80\xf8")));
}

}  // namespace
}  // namespace bowstring
