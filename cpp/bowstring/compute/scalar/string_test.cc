#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bowstring/array/builder.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

using bowstring::testing::error_message;
using bowstring::testing::make_array;
using bowstring::testing::make_string_array;
using ::testing::HasSubstr;

const std::nullopt_t kNull = std::nullopt;
using Strings = std::vector<std::optional<std::string>>;

Datum run(std::string_view name, std::vector<Datum> arguments) {
  Datum result = call(name, arguments);
  EXPECT_NO_THROW(result.array().validate_full());
  return result;
}

Array strs(const Strings& values, TypePtr type = utf8()) {
  return make_string_array(values, std::move(type));
}
Datum str(std::string value) { return Datum::scalar(strs({std::move(value)})); }
Datum int_scalar(int32_t value) { return Datum::scalar(make_array<int32_t>({value})); }
Array ints(const std::vector<std::optional<int32_t>>& values) {
  return make_array<int32_t>(values);
}
Array bools(const std::vector<std::optional<bool>>& values) { return make_array<bool>(values); }

void expect_array(const Datum& got, const Array& expected) {
  ASSERT_TRUE(got.is_array()) << got.to_string();
  EXPECT_TRUE(got.array().equals(expected))
      << "got " << got.array().to_string() << "\nexpected " << expected.to_string();
}

void expect_scalar(const Datum& got, const Array& expected) {
  ASSERT_TRUE(got.is_scalar()) << got.to_string();
  EXPECT_TRUE(got.array().equals(expected))
      << "got " << got.array().to_string() << "\nexpected " << expected.to_string();
}

/// `name` applied to each string of `input` (one argument) gives `expected`; also checked on a
/// slice, on an empty array and on a scalar.
void expect_unary(std::string_view name, const Strings& input, const Array& expected) {
  const Array array = strs(input);
  expect_array(run(name, {array}), expected);
  if (array.length() > 1) {
    expect_array(run(name, {array.slice(1)}), expected.slice(1));
  }
  expect_array(run(name, {array.slice(0, 0)}), expected.slice(0, 0));
  expect_scalar(run(name, {Datum::scalar(array.slice(0, 1))}), expected.slice(0, 1));
}

TEST(StringLengthTest, CountsCharactersOfStringsAndBytesOfBinary) {
  expect_unary("length", {"abc", "", kNull, "é日本😀", "naïve"}, ints({3, 0, kNull, 4, 5}));
  expect_array(run("char_length", {strs({"日本"}, large_utf8())}), ints({2}));
  expect_array(run("character_length", {strs({"é", kNull}, binary())}), ints({2, kNull}));
}

TEST(StringLengthTest, OctetAndBitLengthCountBytes) {
  // UTF-8 bytes: é 2, 日 3, 本 3, 😀 4.
  expect_unary("octet_length", {"abc", "", kNull, "é日本😀"}, ints({3, 0, kNull, 12}));
  expect_unary("bit_length", {"abc", "", kNull, "é日本😀"}, ints({24, 0, kNull, 96}));
  expect_array(
      run("bit_length", {strs({"\x01\x02\x03\x04\x05\x06\x07\x08", kNull}, large_binary())}),
      ints({64, kNull}));
}

TEST(StringCaseTest, UpperAndLowerOnAsciiAndUnicode) {
  expect_unary("upper", {"abc xyz 09", kNull, "", "MiXeD"},
               strs({"ABC XYZ 09", kNull, "", "MIXED"}));
  expect_unary("upper", {"é日本😀", "straße", "ÿµ", "αβγ ςω άέ", "привет ёж", "ıſžł"},
               strs({"É日本😀", "STRASSE", "ŸΜ", "ΑΒΓ ΣΩ ΆΈ", "ПРИВЕТ ЁЖ", "ISŽŁ"}));
  expect_unary("lower", {"ÀÉÎ Õ", kNull, "ΑΒΓ ΣΑ", "ПРИВЕТ ЁЖ", "İ", "ŸŽŁ", "ABC"},
               strs({"àéî õ", kNull, "αβγ σα", "привет ёж", "i\u0307", "ÿžł", "abc"}));
  expect_array(run("lcase", {strs({"ÄB"}, large_utf8())}), strs({"äb"}));
  // Checked against Spark 4: digraphs and ligatures.
  expect_array(run("upper", {strs({"ǆ ǅ ǎ ȁ", "ﬀ ﬁx"})}), strs({"Ǆ Ǆ Ǎ Ȁ", "FF FIX"}));
  expect_array(run("lower", {strs({"ǅ Ǆ Ǎ Ȁ"})}), strs({"ǆ ǆ ǎ ȁ"}));
}

TEST(StringTrimTest, SpacesByDefaultOrTheGivenCharacters) {
  expect_unary("trim", {"  a b  ", kNull, "", "\ta\t", "   "},
               strs({"a b", kNull, "", "\ta\t", ""}));
  expect_unary("ltrim", {"  a  ", "x"}, strs({"a  ", "x"}));
  expect_unary("rtrim", {"  a  ", "x"}, strs({"  a", "x"}));
  // Spark's two-argument form takes the characters first: trim(trimStr, str).
  expect_array(run("trim", {str("xé"), strs({"xéaxé", "éé", kNull, "axa"})}),
               strs({"a", "", kNull, "axa"}));
  expect_array(run("ltrim", {str("x"), strs({"xxa"})}), strs({"a"}));
  expect_array(run("rtrim", {str("日"), strs({"本日日"})}), strs({"本"}));
  expect_array(run("ltrim", {str("xa"), strs({"x"})}), strs({""}));
}

TEST(SubstringTest, FollowsSparkPositionRules) {
  const Array abc = strs({"abc"});
  auto substring = [&](int32_t pos, std::optional<int32_t> len) {
    std::vector<Datum> arguments{abc, int_scalar(pos)};
    if (len) {
      arguments.push_back(int_scalar(*len));
    }
    return run("substring", arguments);
  };
  // Checked against Spark 4: substring('abc', -5, 3) is 'a', pos 0 acts as 1.
  expect_array(substring(-5, 3), strs({"a"}));
  expect_array(substring(0, 2), strs({"ab"}));
  expect_array(substring(2, std::nullopt), strs({"bc"}));
  expect_array(substring(5, std::nullopt), strs({""}));
  expect_array(substring(1, -1), strs({""}));
  expect_array(substring(-2, std::nullopt), strs({"bc"}));
  expect_array(run("substr", {strs({"é日本😀x", kNull, ""}), ints({2, 1, 1}), ints({3, 1, kNull})}),
               strs({"日本😀", kNull, kNull}));
  expect_array(run("substring", {strs({"abcd"}, binary()), int_scalar(-2)}),
               strs({"cd"}, binary()));
  expect_array(run("substring", {strs({"xabc", "yz"}).slice(1), int_scalar(2)}), strs({"z"}));
}

TEST(StringLeftRightTest, TakeCharactersFromEitherEnd) {
  expect_array(run("left", {strs({"日本語", "ab", kNull}), int_scalar(2)}),
               strs({"日本", "ab", kNull}));
  expect_array(run("left", {strs({"abc"}), int_scalar(-1)}), strs({""}));
  expect_array(run("right", {strs({"日本語", "a"}), int_scalar(2)}), strs({"本語", "a"}));
  expect_array(run("right", {strs({"abc"}), int_scalar(0)}), strs({""}));
}

TEST(ConcatTest, NullWhenAnyArgumentIsNull) {
  expect_array(run("concat", {strs({"a", kNull, "é"}), str("-"), strs({"x", "y", kNull})}),
               strs({"a-x", kNull, kNull}));
  expect_scalar(run("concat", {str("a"), str("b")}), strs({"ab"}));
  expect_scalar(run("concat", {}), strs({""}));
  expect_array(run("concat", {strs({"a"}, binary()), strs({"b"}, binary())}),
               strs({"ab"}, binary()));
  expect_array(run("concat", {strs({"a", "b"}), Datum::null_scalar(utf8())}), strs({kNull, kNull}));
  expect_array(run("concat", {strs({"a", "b"}), Datum::null_scalar(null())}), strs({kNull, kNull}));
}

TEST(ConcatWsTest, SkipsNullsAndNullSeparatorGivesNull) {
  expect_array(
      run("concat_ws", {str(","), strs({"a", kNull, kNull}), strs({kNull, "b", kNull}), str("c")}),
      strs({"a,c", "b,c", "c"}));
  expect_array(run("concat_ws", {strs({"-", kNull}), strs({"x", "y"}), str("z")}),
               strs({"x-z", kNull}));
  expect_scalar(run("concat_ws", {str(",")}), strs({""}));
  expect_array(run("concat_ws", {str("/"), strs({"a", "b"}), Datum::null_scalar(null())}),
               strs({"a", "b"}));
}

TEST(ConcatWsTest, ArraysAreFlattenedAndTheirNullsSkipped) {
  // Checked against Spark 4.3: concat_ws('-', array('a', null, 'b'), 'c', null, array()) is
  // 'a-b-c'; concat_ws(',', array(null, null)) is ''; a null array is skipped.
  const Array lists = bowstring::testing::make_string_list_array(
      list(utf8()), {std::vector<std::optional<std::string>>{"x"},
                     std::vector<std::optional<std::string>>{"a", kNull, "b"},
                     std::vector<std::optional<std::string>>{kNull, kNull}, std::nullopt,
                     std::vector<std::optional<std::string>>{}});
  expect_array(run("concat_ws", {str("-"), lists.slice(1), str("c")}),
               strs({"a-b-c", "c", "c", "c"}));
  expect_array(run("concat_ws", {str(","), lists}), strs({"x", "a,b", "", "", ""}));
  expect_scalar(run("concat_ws", {str("+"), Datum::scalar(lists.slice(1, 1)), str("z")}),
                strs({"a+b+z"}));
  const Function& concat_ws = default_registry().get("concat_ws");
  const std::vector<TypePtr> types{utf8(), list(utf8()), int32()};
  EXPECT_TRUE(concat_ws.resolve(types, {}).arguments[1]->equals(*list(utf8())));
  EXPECT_TRUE(concat_ws.resolve(types, {}).arguments[2]->equals(*utf8()));
}

TEST(ContainsTest, ConstantNeedleOverTheWholeBuffer) {
  const Array haystack = strs({"hello", "ab", "cd", kNull, "", "xxabcxx", "日本語"});
  expect_array(run("contains", {haystack, str("bc")}),
               bools({false, false, false, kNull, false, true, false}));
  expect_array(run("contains", {haystack, str("")}),
               bools({true, true, true, kNull, true, true, true}));
  expect_array(run("contains", {haystack, str("本")}),
               bools({false, false, false, kNull, false, false, true}));
  expect_array(run("contains", {haystack.slice(2, 4), str("c")}),
               bools({true, kNull, false, true}));
  expect_array(run("contains", {haystack, Datum::null_scalar(utf8())}),
               bools({kNull, kNull, kNull, kNull, kNull, kNull, kNull}));
  expect_array(run("contains", {strs({"abc", "abc", kNull}), strs({"b", "x", "a"})}),
               bools({true, false, kNull}));
  expect_array(run("contains", {strs({"abc"}, large_utf8()), str("c")}), bools({true}));
  expect_array(run("contains", {strs({"a\x01z"}, binary()), strs({"\x01"}, binary())}),
               bools({true}));
  expect_scalar(run("contains", {str("abc"), str("b")}), bools({true}));
}

TEST(StartsEndsWithTest, PrefixesAndSuffixes) {
  const Array values = strs({"apple", "", kNull, "pineapple"});
  expect_array(run("startswith", {values, str("app")}), bools({true, false, kNull, false}));
  expect_array(run("endswith", {values, str("pple")}), bools({true, false, kNull, true}));
  expect_array(run("endswith", {values.slice(3), str("")}), bools({true}));
  expect_array(run("startswith", {strs({"\x02\x03"}, binary()), strs({"\x02"}, binary())}),
               bools({true}));
}

TEST(ReplaceTest, EveryOccurrenceAndEmptySearchKeepsTheString) {
  expect_array(run("replace", {strs({"aXbXc", kNull, "XX"}), str("X"), str("日")}),
               strs({"a日b日c", kNull, "日日"}));
  expect_array(run("replace", {strs({"abcabc"}), str("bc")}), strs({"aa"}));
  expect_array(run("replace", {strs({"abc"}), str(""), str("z")}), strs({"abc"}));
}

TEST(TranslateTest, MapsAndDeletesCharacters) {
  // Checked against Spark 4: translate('abcab', 'ab', 'x') is 'xcx'.
  expect_array(run("translate", {strs({"abcab", kNull}), str("ab"), str("x")}),
               strs({"xcx", kNull}));
  expect_array(run("translate", {strs({"日本é"}), str("é日日"), str("eJK")}), strs({"J本e"}));
  expect_array(run("translate", {strs({kNull, "ab"}), str("a"), str("b")}), strs({kNull, "bb"}));
  expect_array(run("translate", {strs({"ab", "ab"}), strs({"a", "b"}), strs({"x", ""})}),
               strs({"xb", "a"}));
}

TEST(PadTest, PadsOrTruncatesToTheLength) {
  // Checked against Spark 4.
  expect_array(run("lpad", {strs({"hello", "hi", "hi", kNull}), ints({3, 5, -1, 4}), str("x")}),
               strs({"hel", "xxxhi", "", kNull}));
  expect_array(run("lpad", {strs({"hi"}), int_scalar(5), str("")}), strs({"hi"}));
  expect_array(run("rpad", {strs({"hi"}), int_scalar(7), str("ab")}), strs({"hiababa"}));
  expect_array(run("rpad", {strs({"日本"}), int_scalar(4)}), strs({"日本  "}));
  expect_array(run("lpad", {strs({"é"}), int_scalar(4), str("日本")}), strs({"日本日é"}));
}

TEST(PadTest, BinaryPadsByBytes) {
  // Checked against Spark 4.3: BINARY in, BINARY out, padded with a zero byte by default.
  const auto bin = [](const Strings& values) { return strs(values, binary()); };
  expect_array(run("lpad", {bin({"\x01\x02", "\x01\x02", "\x01\x02", kNull}), ints({4, 1, 0, 3}),
                            Datum::scalar(bin({"\xFF"}))}),
               bin({"\xFF\xFF\x01\x02", "\x01", "", kNull}));
  expect_array(run("rpad", {bin({"\x01\x02"}), int_scalar(5), Datum::scalar(bin({"\xAA\xBB"}))}),
               bin({"\x01\x02\xAA\xBB\xAA"}));
  expect_array(run("lpad", {bin({"\x01"}), int_scalar(3)}), bin({std::string("\0\0\x01", 3)}));
  expect_array(run("rpad", {bin({"\x01\x02"}).slice(0), int_scalar(3)}),
               bin({std::string("\x01\x02\0", 3)}));
  expect_array(run("lpad", {bin({"\x01\x02"}), int_scalar(5), Datum::scalar(bin({""}))}),
               bin({"\x01\x02"}));
  expect_array(run("lpad", {bin({"\x01\x02"}), int_scalar(-1), Datum::scalar(bin({"\xFF"}))}),
               bin({""}));
  // A string pad makes both strings.
  expect_array(run("lpad", {bin({"\x01"}), int_scalar(3), str("a")}), strs({"aa\x01"}));
}

TEST(PadTest, TooLargeResultFailsOnItsRowOnly) {
  // Spark sizes each row's result with Math.toIntExact: 'a' left-padded with '日' to 1.5e9
  // characters (4.5e9 bytes) fails with "integer overflow"; the other rows are not affected.
  expect_array(run("lpad", {strs({kNull, "a"}), ints({1500000000, 3}), str("日")}),
               strs({kNull, "日日a"}));
  expect_array(run("lpad", {strs({"abc"}), ints({2147483647}), str("")}), strs({"abc"}));
  EXPECT_THAT(error_message<ArithmeticError>([&] {
                run("lpad", {strs({"x", "a"}), ints({2, 1500000000}), str("日")});
              }),
              HasSubstr("integer overflow in 'lpad'"));
}

TEST(RepeatTest, RepeatsOrGivesEmpty) {
  expect_array(run("repeat", {strs({"ab", kNull, "é"}), ints({3, 2, -1})}),
               strs({"ababab", kNull, ""}));
}

TEST(RepeatTest, HugeCountsFailOrGiveEmptyWithoutOverflow) {
  // A BIGINT count whose product with the size passes 64 bits is refused, not wrapped; an empty
  // string repeated any number of times is empty at once.
  const Datum huge = Datum::scalar(make_array<int64_t>({int64_t{1} << 62}));
  EXPECT_THROW(run("repeat", {strs({"ab"}), huge}), ArithmeticError);
  expect_array(run("repeat", {strs({""}), huge}), strs({""}));
  // Checked against Spark 4.3: repeat('\u2028', 2147483647) fails with "integer overflow" on its
  // row (a null row beside it is null).
  expect_array(run("repeat", {strs({kNull, "ab"}), ints({2147483647, 2})}), strs({kNull, "abab"}));
  EXPECT_THAT(error_message<ArithmeticError>([&] {
                run("repeat", {strs({"\u2028"}), ints({2147483647})});
              }),
              HasSubstr("[ARITHMETIC_OVERFLOW] integer overflow in 'repeat'"));
}

TEST(PositionTest, InstrAndLocateCountCharacters) {
  expect_array(
      run("instr", {strs({"日本語", "abc", "abc", kNull, "😀a"}), strs({"語", "", "x", "a", "a"})}),
      ints({3, 1, 0, kNull, 2}));
  // Checked against Spark 4: a position below 1 gives 0, a null position gives 0, and an empty
  // substring is found at 1 from any valid position.
  const Array text = strs({"abcabc"});
  expect_array(run("locate", {str("b"), text}), ints({2}));
  expect_array(run("locate", {str("b"), text, int_scalar(3)}), ints({5}));
  expect_array(run("locate", {str("b"), text, int_scalar(0)}), ints({0}));
  expect_array(run("locate", {str(""), text, int_scalar(9)}), ints({1}));
  expect_array(run("locate", {str("b"), text, Datum::null_scalar(int32())}), ints({0}));
  expect_scalar(run("locate", {str("b"), Datum::null_scalar(utf8()), int_scalar(1)}),
                ints({kNull}));
  expect_array(run("position", {str("本"), strs({"日本日本"}), int_scalar(3)}), ints({4}));
}

TEST(AsciiTest, FirstCodePoint) {
  expect_unary("ascii", {"A", "", kNull, "é", "😀"}, ints({65, 0, kNull, 233, 128512}));
}

TEST(ReverseTest, ByCharacters) {
  expect_unary("reverse", {"日本é", "", kNull, "ab😀"}, strs({"é本日", "", kNull, "😀ba"}));
}

TEST(ReverseTest, BinaryByBytes) {
  // Checked against Spark 4: reverse(X'010203') is the BINARY X'030201'.
  expect_array(run("reverse", {strs({"\x01\x02\x03", kNull, ""}, binary())}),
               strs({"\x03\x02\x01", kNull, ""}, binary()));
  expect_scalar(run("reverse", {Datum::scalar(strs({"\xE6\x97\xA5"}, binary()))}),
                strs({"\xA5\x97\xE6"}, binary()));
}

TEST(InitcapTest, SpaceSeparatedWords) {
  // Checked against Spark 4: only spaces separate words.
  expect_unary("initcap", {"hello-world foo_bar  x ÉCOLE", kNull, "a.b c"},
               strs({"Hello-world Foo_bar  X École", kNull, "A.b C"}));
  expect_unary("initcap", {"x\ty z", " a", "ab cd  ef", ""},
               strs({"X\ty Z", " A", "Ab Cd  Ef", ""}));
}

TEST(InitcapTest, TitleCaseAndFinalSigma) {
  // Checked against Spark 4.3: the first letter of a word takes its title case (digraphs,
  // ligatures and ß become two letters), the rest lower case with the final sigma rule.
  expect_unary("initcap",
               {"ǆemal ǉubljana ǌ", "ßa", "ﬁx", "ŉa", "ΣΑΣ ΟΔΟΣ", "İSTANBUL", "aİ", "ǅa", "ǉǉ", "ᾳ",
                "ı", "ǰ"},
               strs({"ǅemal ǈubljana ǋ", "Ssa", "Fix", "ʼNa", "Σας Οδος", "İstanbul", "Ai\u0307",
                     "ǅa", "ǈǉ", "ᾼ", "I", "J\u030C"}));
}

TEST(StringCaseTest, FinalSigmaAndFullUnicodeMappings) {
  // Checked against Spark 4.3 (ICU's rule: a cased letter before, none after, marks and
  // apostrophes skipped; digits are neither).
  expect_unary("lower",
               {"ΟΔΟΣ", "ΑΣ", "Σ", "ΣΣ", "Α1Σ", "Α.Σ", "Α-Σ", "ΑΣ\u0301b", "ΑΣ x", "ΑΣΑ", "1Σ",
                "Α·Σ", "ΑΣ1"},
               strs({"οδος", "ας", "σ", "σς", "α1σ", "α.ς", "α-σ", "ασ\u0301b", "ας x", "ασα", "1σ",
                     "α·ς", "ας1"}));
  expect_unary("upper", {"ǰ", "ᾳ", "ﬓ", "ⓐ", "𐐨", "ɐ", "ιͅ", "ꭰ", "ｚ"},
               strs({"J\u030C", "ΑΙ", "ՄՆ", "Ⓐ", "𐐀", "Ɐ", "ΙΙ", "Ꭰ", "Ｚ"}));
  expect_unary("lower", {"\u2126", "\u212A", "ẞ", "𐐀", "ᾈ", "Ⓐ", "Ꙁ", "ǅ"},
               strs({"ω", "k", "ß", "𐐨", "ᾀ", "ⓐ", "ꙁ", "ǆ"}));
}

/// `name` applied to one string of raw bytes (possibly invalid UTF-8).
Datum call_on_bytes(std::string_view name, std::string bytes, std::vector<Datum> more = {}) {
  std::vector<Datum> arguments{strs({std::move(bytes)})};
  arguments.insert(arguments.end(), more.begin(), more.end());
  return call(name, arguments);
}

std::string text_of(const Datum& result) {
  return std::string(result.array().as<StringArray>().value(0));
}

TEST(InvalidUtf8Test, CaseFunctionsReplaceMalformedSequencesAsSpark) {
  // Checked against Spark 4.3: one U+FFFD per maximal malformed part, as Java decodes.
  const std::string replacement = "\xEF\xBF\xBD";
  EXPECT_EQ(text_of(call_on_bytes("lower",
                                  "A\xFF"
                                  "B")),
            "a" + replacement + "b");
  EXPECT_EQ(text_of(call_on_bytes("upper", "\xC0\xAF")), replacement + replacement);
  EXPECT_EQ(text_of(call_on_bytes("lower", "\xED\xA0\x80")),
            replacement + replacement + replacement);
  EXPECT_EQ(text_of(call_on_bytes("lower", "\xF4\x90\x80\x80")),
            replacement + replacement + replacement + replacement);
  EXPECT_EQ(text_of(call_on_bytes("lower",
                                  "\xE2"
                                  "A")),
            replacement + "a");
  EXPECT_EQ(text_of(call_on_bytes("lower", "a\xE2\x82")), "a" + replacement);
  EXPECT_EQ(text_of(call_on_bytes("lower", "\xF0\x90\x80")), replacement);
  EXPECT_EQ(text_of(call_on_bytes("upper", "\xE0\x80\x80")),
            replacement + replacement + replacement);
  EXPECT_EQ(text_of(call_on_bytes("initcap",
                                  "\xE2"
                                  "AB")),
            replacement + "ab");
  expect_array(call_on_bytes("ascii",
                             "\xE2"
                             "AB"),
               ints({65533}));
  expect_array(call_on_bytes("ascii", "\x80"), ints({65533}));
}

TEST(InvalidUtf8Test, CharacterFunctionsCountAsSparkDoes) {
  // Checked against Spark 4.3: a lead byte takes the bytes it announces whatever they are;
  // stray continuation bytes and C0, C1, F5..FF are characters of their own.
  expect_array(call_on_bytes("length", "\x80\x80"), ints({2}));
  expect_array(call_on_bytes("length",
                             "\xE2"
                             "AB"),
               ints({1}));
  expect_array(call_on_bytes("length", "\xF5\x80\x80\x80"), ints({4}));
  expect_array(call_on_bytes("length", "a\xE2"), ints({2}));
  expect_array(call_on_bytes("length", "\xC0\xAF"), ints({2}));
  const std::vector<std::tuple<std::string, std::string, std::vector<Datum>, std::string>> rows{
      {"reverse",
       "\xE2"
       "AB",
       {},
       "\xE2"
       "AB"},
      {"reverse",
       "A\x80\xE2",
       {},
       "\xE2\x80"
       "A"},
      {"reverse",
       "\xC0\xAF"
       "A",
       {},
       "A\xAF\xC0"},
      {"lpad",
       "\xE2"
       "AB",
       {int_scalar(5), str("x")},
       "xxxx\xE2"
       "AB"},
      {"rpad",
       "\xE2"
       "AB",
       {int_scalar(2), str("x")},
       "\xE2"
       "ABx"},
      {"left",
       "\xE2"
       "AB",
       {int_scalar(1)},
       "\xE2"
       "AB"},
      {"substring",
       "\xC0\xAF"
       "A",
       {int_scalar(2)},
       "\xAF"
       "A"},
  };
  for (const auto& [name, bytes, more, expected] : rows) {
    SCOPED_TRACE(name);
    EXPECT_EQ(text_of(call_on_bytes(name, bytes, more)), expected);
  }
  // instr('\xE2AB', 'B') is 0: the lead byte takes 'AB' into its character.
  expect_array(call("instr", std::vector<Datum>{strs({"\xE2"
                                                      "AB",
                                                      "a\xFF"
                                                      "B"}),
                                                str("B")}),
               ints({0, 3}));
  // trim's two-argument form is (trimStr, str); invalid bytes are characters of their own.
  EXPECT_EQ(text_of(call("trim", std::vector<Datum>{str("\xAF"), strs({"\xAF"
                                                                       "a\xAF"})})),
            "a");
  EXPECT_EQ(text_of(call("rtrim", std::vector<Datum>{str("\xE2"), strs({"a\xE2"
                                                                        "bc"})})),
            "a\xE2"
            "bc");
}

TEST(StringTypesTest, ResolutionCastsAndRejects) {
  const Function& upper = default_registry().get("upper");
  const std::vector<TypePtr> numbers{int64()};
  EXPECT_TRUE(upper.resolve(numbers, {}).arguments[0]->equals(*utf8()));
  const std::vector<TypePtr> lists{list(int32())};
  EXPECT_THAT(error_message<AnalysisError>([&] { upper.resolve(lists, {}); }),
              HasSubstr("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"));
  const Function& substring = default_registry().get("substring");
  const std::vector<TypePtr> unsigned_position{utf8(), uint16()};
  EXPECT_TRUE(substring.resolve(unsigned_position, {}).arguments[1]->equals(*int32()));
  const std::vector<TypePtr> double_position{utf8(), float64()};
  EXPECT_THAT(error_message<AnalysisError>([&] { substring.resolve(double_position, {}); }),
              HasSubstr("the second parameter requires the INT type, however it has the type "
                        "DOUBLE"));
  const std::vector<TypePtr> fixed_binary{fixed_size_binary(2), fixed_size_binary(3)};
  EXPECT_TRUE(
      default_registry().get("contains").resolve(fixed_binary, {}).arguments[0]->equals(*binary()));
  const Function& concat = default_registry().get("concat");
  const std::vector<TypePtr> mixed{binary(), utf8()};
  Resolution resolution = concat.resolve(mixed, {});
  EXPECT_TRUE(resolution.output->equals(*utf8()));
  EXPECT_TRUE(resolution.arguments[0]->equals(*utf8()));
  std::unique_ptr<ArrayBuilder> nulls = make_builder(null());
  nulls->append_nulls(2);
  expect_array(run("upper", {nulls->finish()}), strs({kNull, kNull}));
}

/// Arguments of every kind a string function takes: s a string, b a binary value, i an
/// integer (the size of the string), z the integer 0.
Array argument_of_kind(char kind, const std::vector<std::optional<std::string>>& values) {
  if (kind == 'i' || kind == 'z') {
    std::vector<std::optional<int32_t>> numbers;
    for (const auto& value : values) {
      const auto number = kind == 'z' ? 0 : static_cast<int32_t>(value ? value->size() : 0);
      numbers.push_back(value ? std::optional<int32_t>(number) : std::nullopt);
    }
    return ints(numbers);
  }
  return strs(values, kind == 'b' ? binary() : utf8());
}

TEST(StringFunctionsTest, EveryFunctionTakesEmptyNullAndSlicedInput) {
  const std::vector<std::pair<std::string, std::string>> functions{
      {"length", "s"},
      {"octet_length", "b"},
      {"bit_length", "s"},
      {"upper", "s"},
      {"lower", "s"},
      {"trim", "ss"},
      {"ltrim", "s"},
      {"rtrim", "ss"},
      {"substring", "sii"},
      {"left", "si"},
      {"right", "si"},
      {"concat", "sss"},
      {"contains", "ss"},
      {"startswith", "bb"},
      {"endswith", "ss"},
      {"replace", "sss"},
      {"translate", "sss"},
      {"lpad", "sis"},
      {"rpad", "si"},
      {"repeat", "si"},
      {"instr", "ss"},
      {"ascii", "s"},
      {"reverse", "s"},
      {"reverse", "b"},
      {"lpad", "bib"},
      {"initcap", "s"},
      {"like", "ss"},
      {"ilike", "ss"},
      {"rlike", "ss"},
      {"regexp_extract", "ssz"},
      {"regexp_replace", "sss"},
      {"split", "ss"},
  };
  const Strings values{"pad", "a", kNull, "日本", ""};
  for (const auto& [name, kinds] : functions) {
    SCOPED_TRACE(name);
    std::vector<Datum> empty;
    std::vector<Datum> nulls;
    std::vector<Datum> sliced;
    for (const char kind : kinds) {
      empty.push_back(argument_of_kind(kind, {}));
      nulls.push_back(argument_of_kind(kind, {kNull, kNull}));
      sliced.push_back(argument_of_kind(kind, values).slice(1));
    }
    EXPECT_EQ(run(name, empty).length(), 0);
    const Datum all_null = run(name, nulls);
    EXPECT_EQ(all_null.array().null_count(), 2);
    const Datum result = run(name, sliced);
    ASSERT_EQ(result.length(), 4);
    EXPECT_TRUE(result.array().is_valid(0));
    EXPECT_TRUE(result.array().is_null(1));
    EXPECT_TRUE(result.array().is_valid(2));
  }
}

}  // namespace
}  // namespace bowstring::compute
