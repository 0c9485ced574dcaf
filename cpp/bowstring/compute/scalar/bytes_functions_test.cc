// Functions over the bytes of strings and binary values: base64 and hex encodings, UTF-8
// validation, digests (md5, sha1, sha2) and crc32. Expected values checked against Spark 4.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/scalar/string_function_testing.h"

namespace bowstring::compute {
namespace {

using bowstring::testing::make_array;
using ::testing::HasSubstr;
using namespace string_function_testing;

// --- digests --------------------------------------------------------------------------------

TEST(DigestTest, Md5AndSha1OfStringsAndBinary) {
  const Strings input{"abc", "", kNull, "é"};
  expect_rows("md5", strs(input),
              strs({"900150983cd24fb0d6963f7d28e17f72", "d41d8cd98f00b204e9800998ecf8427e", kNull,
                    "66ddcd97cfdeabb2f6fb8a999b4bc76f"}));
  expect_rows("md5", bins(input),
              strs({"900150983cd24fb0d6963f7d28e17f72", "d41d8cd98f00b204e9800998ecf8427e", kNull,
                    "66ddcd97cfdeabb2f6fb8a999b4bc76f"}));
  const Array sha1 =
      strs({"a9993e364706816aba3e25717850c26c9cd0d89d", "da39a3ee5e6b4b0d3255bfef95601890afd80709",
            kNull, "bf15be717ac1b080b4f1c456692825891ff5073d"});
  expect_rows("sha1", strs(input), sha1);
  expect_rows("sha", strs(input, large_utf8()), sha1);
}

TEST(DigestTest, Sha2ByBitLengthAndNullForOthers) {
  const Array abc = strs({"abc", kNull, ""});
  const auto bits = [](int32_t value) { return Datum::scalar(make_array<int32_t>({value})); };
  const std::string sha256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  const std::string empty256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  expect_rows("sha2", abc, strs({sha256, kNull, empty256}), {bits(256)});
  expect_rows("sha2", abc, strs({sha256, kNull, empty256}), {bits(0)});
  expect_rows("sha2", abc,
              strs({"23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7", kNull,
                    "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"}),
              {bits(224)});
  const Datum sha384 = run("sha2", {Datum::scalar(strs({"abc"})), bits(384)});
  EXPECT_EQ(sha384.array().to_string(), strs({"cb00753f45a35e8bb5a03d699ac65007272c32ab0eded163"
                                              "1a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"})
                                            .to_string());
  const Datum sha512 = run("sha2", {Datum::scalar(strs({"abc"})), bits(512)});
  EXPECT_EQ(sha512.array().to_string(),
            strs({"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a8"
                  "36ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"})
                .to_string());
  // Other bit lengths give null, as Spark; a column of bit lengths mixes digests.
  expect_rows("sha2", abc, strs({kNull, kNull, kNull}), {bits(1)});
  expect_equal(
      run("sha2", {strs({"abc", "abc", "abc", "abc"}), make_array<int32_t>({256, 7, kNull, 224})}),
      strs({sha256, kNull, kNull, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"}));
}

TEST(DigestTest, Crc32AsBigint) {
  expect_rows("crc32", strs({"abc", "", kNull, "é"}),
              make_array<int64_t>({891568578, 0, kNull, 235179326}));
  expect_rows("crc32", bins({"\xff\xfe", kNull}),
              make_array<int64_t>({int64_t{0x88F83096}, kNull}));
}

TEST(DigestTest, NonBinaryArgumentsAreRejectedAsSpark) {
  for (const char* name : {"md5", "sha1", "crc32", "base64"}) {
    const std::string message = failure(name, {Datum::scalar(make_array<int32_t>({123}))}).message;
    EXPECT_THAT(message, HasSubstr("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")) << name;
    EXPECT_THAT(message, HasSubstr("BINARY")) << name;
  }
}

// --- base64 ---------------------------------------------------------------------------------

TEST(Base64Test, EncodesWithPadding) {
  expect_rows("base64", strs({"ab", "", kNull, "abc", "a", "é日"}),
              strs({"YWI=", "", kNull, "YWJj", "YQ==", "w6nml6U="}));
  expect_rows("base64", bins({std::string("\xff\x00\x80", 3), kNull}), strs({"/wCA", kNull}));
}

TEST(Base64Test, DecodesAsJavasMimeDecoder) {
  // Characters outside the alphabet are skipped, missing padding is accepted.
  expect_rows("unbase64", strs({"YWI=", kNull, "", "YQ", "Y W\nI=", "w6nml6U=", "é/wCA"}),
              bins({"ab", kNull, "", "a", "ab", "é日", std::string("\xff\x00\x80", 3)}));
  for (const char* bad : {"a", "Y Q=", "YQ=x", "YQ==YQ==", "="}) {
    EXPECT_EQ(failure("unbase64", {strs({bad})}).condition, "java.lang.IllegalArgumentException")
        << bad;
  }
  EXPECT_THAT(failure("unbase64", {strs({"YQ==YQ=="})}).message,
              HasSubstr("Input byte array has incorrect ending byte at 5"));
  EXPECT_THAT(failure("unbase64", {strs({"a"})}).message,
              HasSubstr("Last unit does not have enough valid bits"));
}

// --- hex ------------------------------------------------------------------------------------

TEST(HexTest, BytesOfStringsAndBinaryInUpperCase) {
  expect_rows("hex", strs({"é", "", kNull, "abc"}), strs({"C3A9", "", kNull, "616263"}));
  expect_rows("hex", bins({"\x0a\xff", kNull}), strs({"0AFF", kNull}));
}

TEST(HexTest, IntegersAsTwosComplementWithoutLeadingZeros) {
  expect_rows("hex", make_array<int64_t>({-1, 0, kNull, 255, std::numeric_limits<int64_t>::min()}),
              strs({"FFFFFFFFFFFFFFFF", "0", kNull, "FF", "8000000000000000"}));
  // Narrower integers are cast to BIGINT first: -1 is the 64-bit -1.
  expect_rows("hex", make_array<int8_t>({-1, 17}), strs({"FFFFFFFFFFFFFFFF", "11"}));
  expect_rows("hex", make_array<double>({1.5, 26.0}), strs({"1", "1A"}));
  EXPECT_THAT(failure("hex", {make_array<bool>({true})}).message,
              HasSubstr("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"));
}

TEST(HexTest, UnhexReadsOddCountsAndGivesNullForOtherCharacters) {
  expect_rows("unhex", strs({"abc", "", kNull, "0AFF", "zz", " 1", "c3A9", "1"}),
              bins({"\x0a\xbc", "", kNull, "\x0a\xff", kNull, kNull, "é", "\x01"}));
}

// --- encode, decode -------------------------------------------------------------------------

std::string bytes_of(std::initializer_list<int> values) {
  std::string bytes;
  for (const int value : values) {
    bytes.push_back(static_cast<char>(value));
  }
  return bytes;
}

TEST(CharsetTest, EncodesInEachCharsetSparkAccepts) {
  const Array text = strs({"aé", kNull, "", "😀"});
  const auto charset = [](const char* name) { return Datum::scalar(strs({name})); };
  expect_rows("encode", text, bins({"aé", kNull, "", "😀"}), {charset("utf-8")});
  expect_rows("encode", text.slice(0, 3), bins({bytes_of({'a', 0xE9}), kNull, ""}),
              {charset("ISO-8859-1")});
  expect_rows("encode", text,
              bins({bytes_of({0, 'a', 0, 0xE9}), kNull, "", bytes_of({0xD8, 0x3D, 0xDE, 0x00})}),
              {charset("UTF-16BE")});
  expect_rows("encode", text,
              bins({bytes_of({'a', 0, 0xE9, 0}), kNull, "", bytes_of({0x3D, 0xD8, 0x00, 0xDE})}),
              {charset("UTF-16LE")});
  expect_rows("encode", text.slice(0, 3),
              bins({bytes_of({0xFE, 0xFF, 0, 'a', 0, 0xE9}), kNull, ""}), {charset("UTF-16")});
  expect_rows("encode", text.slice(0, 3),
              bins({bytes_of({0, 0, 0, 'a', 0, 0, 0, 0xE9}), kNull, ""}), {charset("UTF-32")});
  const Failure ascii = failure("encode", {strs({"aé"}), charset("US-ASCII")});
  EXPECT_EQ(ascii.condition, "MALFORMED_CHARACTER_CODING");
  EXPECT_THAT(ascii.message, HasSubstr("`encode` with `US-ASCII`"));
  const Failure unknown = failure("encode", {strs({"a"}), charset("WINDOWS-1252")});
  EXPECT_EQ(unknown.condition, "INVALID_PARAMETER_VALUE.CHARSET");
  EXPECT_THAT(unknown.message, HasSubstr("but got WINDOWS-1252"));
}

TEST(CharsetTest, DecodesAndRejectsMalformedInput) {
  const auto charset = [](const char* name) { return Datum::scalar(strs({name})); };
  expect_rows("decode", bins({bytes_of({'a', 0xE9}), kNull, ""}), strs({"aé", kNull, ""}),
              {charset("iso-8859-1")});
  expect_rows("decode",
              bins({bytes_of({0xFF, 0xFE, 'a', 0, 0x3D, 0xD8, 0x00, 0xDE}), kNull,
                    bytes_of({0, 'a'}), bytes_of({0xFE, 0xFF, 0, 'b'})}),
              strs({"a😀", kNull, "a", "b"}), {charset("UTF-16")});
  expect_rows("decode",
              bins({bytes_of({0, 0, 0, 'a'}), bytes_of({0xFF, 0xFE, 0, 0, 'b', 0, 0, 0})}),
              strs({"a", "b"}), {charset("UTF-32")});
  for (const auto& [bad, name] :
       std::vector<std::pair<std::string, const char*>>{{"\xff", "UTF-8"},
                                                        {"\x80", "US-ASCII"},
                                                        {bytes_of({0}), "UTF-16BE"},
                                                        {bytes_of({0xDC, 0x00}), "UTF-16BE"},
                                                        {bytes_of({0xD8, 0x3D}), "UTF-16BE"},
                                                        {bytes_of({0, 0x11, 0, 0}), "UTF-32"}}) {
    EXPECT_EQ(failure("decode", {bins({bad}), charset(name)}).condition,
              "MALFORMED_CHARACTER_CODING")
        << name;
  }
  EXPECT_EQ(failure("decode", {bins({"a"}), charset("UTF-7")}).condition,
            "INVALID_PARAMETER_VALUE.CHARSET");
}

TEST(ToBinaryTest, HexUtf8AndBase64WithSparksErrors) {
  const auto fmt = [](const char* name) { return Datum::scalar(strs({name})); };
  expect_rows("to_binary", strs({"abc", kNull, "", "0AFF"}),
              bins({"\x0a\xbc", kNull, "", "\x0a\xff"}));
  expect_rows("to_binary", strs({"abc", kNull}), bins({"\x0a\xbc", kNull}), {fmt("HEX")});
  expect_rows("to_binary", strs({"é", kNull, ""}), bins({"é", kNull, ""}), {fmt("utf8")});
  // Java's white space, U+2028 included, is skipped.
  expect_rows("to_binary", strs({"YWI=", kNull, "", "YWI", "Y W I =", "YW\u2028I"}),
              bins({"ab", kNull, "", "ab", "ab", "ab"}), {fmt("base64")});
  expect_rows("try_to_binary", strs({"zz", "abc", "é"}), bins({kNull, "\x0a\xbc", kNull}));
  expect_rows("try_to_binary", strs({"a", "YQ==YQ==", "YWI", "é"}),
              bins({kNull, kNull, "ab", kNull}), {fmt("base64")});
  expect_rows("try_to_binary", strs({"a"}), bins({kNull}), {fmt("xyz")});
  expect_rows("to_binary", strs({"a"}), bins({kNull}), {Datum::scalar(strs({kNull}))});
  const Failure hex = failure("to_binary", {strs({"zz"})});
  EXPECT_EQ(hex.condition, "CONVERSION_INVALID_INPUT");
  EXPECT_THAT(hex.message, HasSubstr("The value 'zz' ('HEX') cannot be converted to \"BINARY\""));
  EXPECT_EQ(failure("to_binary", {strs({"a"}), fmt("base64")}).condition,
            "CONVERSION_INVALID_INPUT");
  EXPECT_EQ(failure("to_binary", {strs({"a"}), fmt("xyz")}).condition,
            "DATATYPE_MISMATCH.INVALID_ARG_VALUE");
}

// --- UTF-8 validation -----------------------------------------------------------------------

TEST(Utf8ValidationTest, ValidityRepairAndErrors) {
  const Strings input{"ok é", "", kNull, "a\xff\x80\xe2\x82", "\xed\xa0\x80"};
  expect_rows("is_valid_utf8", bins(input), make_array<bool>({true, true, kNull, false, false}));
  expect_rows("make_valid_utf8", bins(input),
              strs({"ok é", "", kNull, "a\uFFFD\uFFFD\uFFFD", "\uFFFD\uFFFD\uFFFD"}));
  expect_rows("try_validate_utf8", bins(input), strs({"ok é", "", kNull, kNull, kNull}));
  expect_rows("validate_utf8", strs({"ok é", "", kNull}), strs({"ok é", "", kNull}));
  EXPECT_EQ(failure("validate_utf8", {bins({"ok", "a\xff\x80"})}).condition, "INVALID_UTF8_STRING");
  EXPECT_THAT(failure("validate_utf8", {bins({"a\xff\x80"})}).message,
              HasSubstr("Invalid UTF8 byte sequence found in string: \\x61\\xFF\\x80."));
}

}  // namespace
}  // namespace bowstring::compute
