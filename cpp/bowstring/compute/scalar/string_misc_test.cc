// substring_index, split_part, find_in_set, elt, levenshtein, soundex, chr, quote and btrim.
// Expected values as Spark 4 gives them.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bowstring/compute/scalar/string_function_testing.h"

namespace bowstring::compute {
namespace {

using bowstring::testing::make_array;
using ::testing::HasSubstr;
using namespace string_function_testing;

Datum int_scalar(int32_t value) { return Datum::scalar(make_array<int32_t>({value})); }
Datum str(const std::string& value) { return Datum::scalar(strs({value})); }

TEST(SubstringIndexTest, CountsFromEitherEnd) {
  const Array input = strs({"www.apache.org", kNull, "", "no dots", "a.b.c", "日.本.語"});
  expect_rows("substring_index", input, strs({"www.apache", kNull, "", "no dots", "a.b", "日.本"}),
              {str("."), int_scalar(2)});
  expect_rows("substring_index", input, strs({"apache.org", kNull, "", "no dots", "b.c", "本.語"}),
              {str("."), int_scalar(-2)});
  expect_rows("substring_index", input, strs({"", kNull, "", "", "", ""}),
              {str("."), int_scalar(0)});
  expect_rows("substring_index", input, strs({"", kNull, "", "", "", ""}),
              {str(""), int_scalar(1)});
  // Occurrences may overlap, as Spark's byte search steps by one.
  expect_equal(run("substring_index", {strs({"aaa"}), str("aa"), int_scalar(2)}), strs({"a"}));
  expect_equal(run("substring_index", {strs({"aaa"}), str("aa"), int_scalar(-2)}), strs({"a"}));
  expect_equal(run("substring_index", {strs({"a.b"}), str("."), int_scalar(5)}), strs({"a.b"}));
}

TEST(SplitPartTest, PartsFromEitherEndAndEmptyPastThem) {
  const Array input = strs({"11.12.13", kNull, "", "a", "x.é.y"});
  expect_rows("split_part", input, strs({"13", kNull, "", "", "y"}), {str("."), int_scalar(3)});
  expect_rows("split_part", input, strs({"13", kNull, "", "a", "y"}), {str("."), int_scalar(-1)});
  expect_rows("split_part", input, strs({"", kNull, "", "", ""}), {str("."), int_scalar(4)});
  expect_rows("split_part", input, strs({"", kNull, "", "", ""}), {str("."), int_scalar(-4)});
  expect_rows("split_part", input, strs({"11.12.13", kNull, "", "a", "x.é.y"}),
              {str(""), int_scalar(1)});
  expect_equal(run("split_part", {strs({"a,,b"}), str(","), int_scalar(2)}), strs({""}));
  const Failure zero = failure("split_part", {strs({"a.b"}), str("."), int_scalar(0)});
  EXPECT_EQ(zero.condition, "INVALID_INDEX_OF_ZERO");
  EXPECT_THAT(zero.message, HasSubstr("The index 0 is invalid."));
}

TEST(FindInSetTest, PositionAmongCommaSeparatedItems) {
  expect_rows("find_in_set", strs({"ab", kNull, "", "a,b", "x", "é"}),
              make_array<int32_t>({3, kNull, 4, 0, 0, 5}), {str("abc,b,ab,,é")});
  expect_rows("find_in_set", strs({"é", "", "ab"}), make_array<int32_t>({0, 1, 0}),
              {Datum::scalar(strs({""}).slice(0, 1))});
  expect_equal(run("find_in_set", {str("é"), strs({"é", "", "a,é"})}),
               make_array<int32_t>({1, 0, 2}));
}

TEST(EltTest, PicksTheNthInputAndFailsOutOfRangeInAnsiMode) {
  const Array picks = make_array<int32_t>({1, 2, kNull, 2});
  expect_rows("elt", picks, strs({"scala", kNull, kNull, kNull}),
              {str("scala"), Datum::scalar(strs({kNull}))});
  expect_equal(run("elt", {picks, strs({"a", "b", "c", "d"}), strs({"w", "x", "y", "z"})}),
               strs({"a", "x", kNull, "z"}));
  expect_equal(run("elt", {picks, bins({"a", "b", "c", "d"}), bins({"w", "x", "y", "z"})}),
               bins({"a", "x", kNull, "z"}));
  expect_equal(run("elt", {make_array<int32_t>({0, 3, 1}), strs({"a", "b", "c"})}, false),
               strs({kNull, kNull, "c"}));
  const Failure out = failure("elt", {int_scalar(3), str("a"), str("b")});
  EXPECT_EQ(out.condition, "INVALID_ARRAY_INDEX");
  EXPECT_THAT(out.message, HasSubstr("The index 3 is out of bounds. The array has 2 elements."));
}

TEST(LevenshteinTest, DistanceInCharactersAndThreshold) {
  const Array left = strs({"kitten", kNull, "", "é", "日本語", "abc"});
  const Array right = strs({"sitting", "x", "abc", "e", "日本", "abc"});
  expect_equal(run("levenshtein", {left, right}), make_array<int32_t>({3, kNull, 3, 1, 1, 0}));
  expect_equal(run("levenshtein", {left.slice(3), right.slice(3)}), make_array<int32_t>({1, 1, 0}));
  expect_equal(run("levenshtein", {left, right, int_scalar(2)}),
               make_array<int32_t>({-1, kNull, -1, 1, 1, 0}));
  expect_equal(run("levenshtein", {left, right, int_scalar(3)}),
               make_array<int32_t>({3, kNull, 3, 1, 1, 0}));
}

TEST(SoundexTest, CodesLettersAndKeepsOtherText) {
  expect_rows(
      "soundex",
      strs({"Miller", kNull, "", "Robert", "Rupert", "Tymczak", "Ashcraft", "a", "123", "élan",
            "Pfister"}),
      strs({"M460", kNull, "", "R163", "R163", "T522", "A261", "A000", "123", "élan", "P236"}));
}

TEST(SoundexTest, TakesOnlyStrings) {
  const Failure number = failure("soundex", {make_array<int32_t>({1})});
  EXPECT_EQ(number.condition, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
  EXPECT_THAT(number.message, HasSubstr("STRING"));
}

TEST(ChrTest, CodePointModulo256) {
  expect_rows("chr", make_array<int64_t>({65, kNull, 321, 256, -1, 233, 0}),
              strs({"A", kNull, "A", std::string(1, '\0'), "", "é", std::string(1, '\0')}));
  expect_equal(run("char", {make_array<int32_t>({97})}), strs({"a"}));
}

TEST(BinTest, TwosComplementWithoutLeadingZeros) {
  expect_rows("bin", make_array<int64_t>({13, kNull, 0, -1, 1}),
              strs({"1101", kNull, "0", std::string(64, '1'), "1"}));
  expect_equal(run("bin", {make_array<int8_t>({-128})}), strs({std::string(57, '1') + "0000000"}));
  // Strings are cast to BIGINT, not INT.
  expect_equal(run("bin", {strs({"2147483648"})}), strs({"1" + std::string(31, '0')}));
}

TEST(OverlayTest, ReplacesFromPositionForLengthOfCharactersOrBytes) {
  const Array input = strs({"Spark SQL", kNull, "", "日本語テキスト"});
  expect_rows("overlay", input, strs({"Spark_SQL", kNull, "_", "日本語テキ_ト"}),
              {str("_"), int_scalar(6)});
  expect_equal(run("overlay", {input, str("CORE"), int_scalar(7)}),
               strs({"Spark CORE", kNull, "CORE", "日本語テキスCORE"}));
  expect_equal(run("overlay", {input, str("ANSI "), int_scalar(7), int_scalar(0)}),
               strs({"Spark ANSI SQL", kNull, "ANSI ", "日本語テキスANSI ト"}));
  expect_equal(run("overlay", {input, str("tructured"), int_scalar(2), int_scalar(4)}),
               strs({"Structured SQL", kNull, "tructured", "日tructuredスト"}));
  expect_equal(run("overlay", {input, str("_"), int_scalar(-1)}),
               strs({"_Spark SQL", kNull, "_", "_日本語テキスト"}));
  expect_equal(
      run("overlay", {bins({"Spark SQL", "日本"}), Datum::scalar(bins({"_"})), int_scalar(3)}),
      bins({"Sp_rk SQL", "\xe6\x97_\xe6\x9c\xac"}));
}

TEST(QuoteTest, EscapesBackslashesAndQuotes) {
  expect_rows("quote", strs({"Don't", kNull, "", "a\\b", "'", "日"}),
              strs({"'Don\\'t'", kNull, "''", "'a\\\\b'", "'\\''", "'日'"}));
}

TEST(BtrimTest, TrimsBothEndsWithTheCharactersSecond) {
  expect_rows("btrim", strs({"  a b  ", kNull, "", "   "}), strs({"a b", kNull, "", ""}));
  expect_rows("btrim", strs({"xxaxx", kNull, "éaé"}), strs({"a", kNull, "a"}), {str("xé")});
}

}  // namespace
}  // namespace bowstring::compute
