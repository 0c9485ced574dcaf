#include "bowstring/compute/scalar/regex.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

using bowstring::testing::error_message;
using bowstring::testing::make_array;
using bowstring::testing::make_string_array;
using bowstring::testing::make_string_list_array;
using ::testing::HasSubstr;

const std::nullopt_t kNull = std::nullopt;
using Strings = std::vector<std::optional<std::string>>;

Datum run(std::string_view name, std::vector<Datum> arguments) {
  Datum result = call(name, arguments);
  EXPECT_NO_THROW(result.array().validate_full());
  return result;
}

Array strs(const Strings& values) { return make_string_array(values); }
Datum str(std::string value) { return Datum::scalar(strs({std::move(value)})); }
Datum int_scalar(int32_t value) { return Datum::scalar(make_array<int32_t>({value})); }
Array bools(const std::vector<std::optional<bool>>& values) { return make_array<bool>(values); }
Array string_lists(
    const std::vector<std::optional<std::vector<std::optional<std::string>>>>& lists) {
  return make_string_list_array(list(utf8()), lists);
}

void expect_array(const Datum& got, const Array& expected) {
  ASSERT_TRUE(got.is_array()) << got.to_string();
  EXPECT_TRUE(got.array().equals(expected))
      << "got " << got.array().to_string() << "\nexpected " << expected.to_string();
}

TEST(JavaRegexTest, TranslatesWhatRe2SpellsDifferently) {
  EXPECT_EQ(java_regex_to_re2("\\u00e9+", "rlike"), "\\x{00e9}+");
  EXPECT_EQ(java_regex_to_re2("(?<year>\\d{4})", "rlike"), "(?P<year>\\d{4})");
  EXPECT_EQ(java_regex_to_re2("\\p{Alpha}[\\p{Digit}_]\\P{Upper}", "rlike"),
            "[[:alpha:]][[:digit:]_][[:^upper:]]");
  EXPECT_EQ(java_regex_to_re2("\\p{IsLatin}\\p{L}", "rlike"), "\\p{Latin}\\p{L}");
  EXPECT_EQ(java_regex_to_re2("a+?b*c{2}?\\Q(x)\\E", "rlike"), "a+?b*c{2}?\\Q(x)\\E");
  EXPECT_EQ(java_regex_to_re2("[]a][^]b]", "rlike"), "[]a][^]b]");
  EXPECT_EQ(java_regex_to_re2("a{2}?b}+", "rlike"), "a{2}?b}+");
  EXPECT_EQ(java_regex_to_re2("\\v", "rlike"), "[\\n\\x{0B}\\f\\r\\x{85}\\x{2028}\\x{2029}]");
  EXPECT_EQ(java_regex_to_re2("[\\h.]", "rlike"),
            "[ \\t\\x{A0}\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}.]");
}

TEST(JavaRegexTest, LineTerminatorsAsJava) {
  EXPECT_EQ(
      java_regex_to_re2("a.b$", "rlike"),
      "a[^\\n\\r\\x{85}\\x{2028}\\x{2029}]b(?:(\\r\\n|[\\n\\r\\x{85}\\x{2028}\\x{2029}])?\\z)");
  EXPECT_EQ(java_regex_to_re2("(?d)^.(?s:.)", "rlike"), "^[^\\n](?s:(?s:.))");
  // Checked against Spark 4.3.
  const std::vector<std::tuple<std::string, std::string, int32_t>> counts{
      {"a\rb", ".", 2},       {"a\u2028b\u0085c", ".", 3},
      {"a\rb", "(?d).", 3},   {"a\nb", "(?s).", 3},
      {"ab\n", "$", 2},       {"ab\n\n", "b$", 0},
      {"ab\r\n", "\\Z", 2},   {"a\r\n", "(?m)$", 2},
      {"a\r\nb", "(?m)^", 2}, {"a\n", "(?m)^", 1},
      {"", "(?m)^", 0},       {"x\r\ny\rz\u2029w\n", "(?m)^(\\w)", 4},
  };
  for (const auto& [text, pattern, expected] : counts) {
    SCOPED_TRACE(pattern);
    expect_array(run("regexp_count", {strs({text}), str(pattern)}),
                 make_array<int32_t>({expected}));
  }
  expect_array(run("rlike", {strs({"\u2028", "ab\u2028", "a\r\n"}), str("^$|b$|\\r$")}),
               bools({true, true, false}));
  expect_array(run("regexp_replace", {strs({"ab\r\n"}), str("$"), str("<$0>")}),
               strs({"ab<>\r\n<>"}));
  expect_array(run("regexp_extract", {strs({"ab\n"}), str("(b)$"), int_scalar(0)}), strs({"b"}));
}

TEST(JavaRegexTest, RejectsWhatRe2CannotDo) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"(a)\\1", "backreferences"},
      {"(?<n>a)\\k<n>", "backreferences"},
      {"a(?=b)", "lookahead"},
      {"a(?!b)", "lookahead"},
      {"(?<=a)b", "lookbehind"},
      {"(?<!a)b", "lookbehind"},
      {"(?>ab)", "atomic groups"},
      {"a++", "possessive"},
      {"a*+", "possessive"},
      {"a?+", "possessive"},
      {"[a-z&&[^b]]", "intersections"},
      {"[a[b]]", "nested"},
  };
  for (const auto& [pattern, reason] : cases) {
    const std::string message =
        error_message<IllegalArgumentError>([&] { java_regex_to_re2(pattern, "rlike"); });
    EXPECT_THAT(message, HasSubstr("[INVALID_PARAMETER_VALUE.PATTERN]")) << pattern;
    EXPECT_THAT(message, HasSubstr("'" + pattern + "'")) << pattern;
    EXPECT_THAT(message, HasSubstr(reason)) << pattern;
  }
}

TEST(RlikeTest, PartialMatchWithConstantAndPerRowPatterns) {
  const Array text = strs({"abc", "xyz", kNull, "", "日本"});
  expect_array(run("rlike", {text, str("b|z")}), bools({true, true, kNull, false, false}));
  expect_array(run("regexp", {text, str("^$")}), bools({false, false, kNull, true, false}));
  expect_array(run("regexp_like", {text.slice(4), str("^.本$")}), bools({true}));
  expect_array(run("rlike", {strs({"a\tb", "a\nb", "a\r\nb"}), str("a\\hb")}),
               bools({true, false, false}));
  expect_array(run("rlike", {strs({"a\tb", "a\nb", "a\r\nb"}), str("^a\\Rb$")}),
               bools({false, true, true}));
  expect_array(run("rlike", {text, strs({"^a", "^a", "x", "", "\\p{IsHan}"})}),
               bools({true, false, kNull, true, true}));
  EXPECT_THAT(error_message<IllegalArgumentError>([&] {
                run("rlike", {text, str("[")});
              }),
              HasSubstr("The value of parameter(s) `regexp` in `rlike` is invalid: '['"));
  EXPECT_THAT(error_message<IllegalArgumentError>([&] {
                run("rlike", {text, strs({"a", "(", "", "", ""})});
              }),
              HasSubstr("'('"));
}

TEST(RegexpExtractTest, GroupsAndSparkCornerCases) {
  const Array text = strs({"abc-123", "ac", kNull, "zzz"});
  expect_array(run("regexp_extract", {text, str("([a-z]+)-(\\d+)")}), strs({"abc", "", kNull, ""}));
  expect_array(run("regexp_extract", {text, str("([a-z]+)-(\\d+)"), int_scalar(2)}),
               strs({"123", "", kNull, ""}));
  expect_array(run("regexp_extract", {text, str("a(b)?c"), int_scalar(0)}),
               strs({"abc", "ac", kNull, ""}));
  // Checked against Spark 4: a group that took no part in the match gives ''.
  expect_array(run("regexp_extract", {text.slice(1, 1), str("a(b)?c"), int_scalar(1)}), strs({""}));
  expect_array(run("regexp_extract", {strs({"aaa"}), str("a*?"), int_scalar(0)}), strs({""}));
  expect_array(run("regexp_extract", {strs({"ab"}), str("(?<x>a)b")}), strs({"a"}));
  EXPECT_THAT(error_message<IllegalArgumentError>([&] {
                run("regexp_extract", {text, str("(a)"), int_scalar(3)});
              }),
              HasSubstr("[INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX] The value of parameter(s) "
                        "`idx` in `regexp_extract` is invalid: Expects group index between 0 and "
                        "1, but got 3."));
}

TEST(RegexpExtractTest, GroupIndexIsCheckedOnMatchingRowsOnly) {
  // Checked against Spark 4.3: regexp_extract('xyz', 'b', 1) is '' while
  // regexp_extract('abc', 'b', 1) fails; so does a negative index on a matching row.
  expect_array(run("regexp_extract", {strs({"xyz", kNull, "zz"}), str("b"), int_scalar(1)}),
               strs({"", kNull, ""}));
  expect_array(run("regexp_extract", {strs({"xyz"}), str("(b)"), int_scalar(-1)}), strs({""}));
  EXPECT_THAT(error_message<IllegalArgumentError>([&] {
                run("regexp_extract", {strs({"xyz", "abc"}), str("b"), int_scalar(1)});
              }),
              HasSubstr("Expects group index between 0 and 0, but got 1."));
  EXPECT_THAT(error_message<IllegalArgumentError>([&] {
                run("regexp_extract", {strs({"abc"}), str("(b)"), int_scalar(-1)});
              }),
              HasSubstr("Expects group index between 0 and 1, but got -1."));
}

TEST(RegexpExtractAllTest, EveryMatchOfAGroup) {
  // Checked against Spark 4.3.
  const Array text = strs({"pad", "a1b22c333", "abc", kNull, "", "ab"});
  expect_array(run("regexp_extract_all", {text.slice(1), str("(\\d+)")}),
               string_lists({{{"1", "22", "333"}}, {{}}, std::nullopt, {{}}, {{}}}));
  expect_array(run("regexp_extract_all", {text.slice(1, 1), str("(\\d)(\\d*)"), int_scalar(2)}),
               string_lists({{{"", "2", "33"}}}));
  expect_array(run("regexp_extract_all", {text.slice(1, 1), str("\\d+"), int_scalar(0)}),
               string_lists({{{"1", "22", "333"}}}));
  expect_array(run("regexp_extract_all", {text.slice(4), str("(a*)")}),
               string_lists({{{""}}, {{"a", "", ""}}}));
  expect_array(run("regexp_extract_all", {strs({"abab"}), str("(x)?b"), int_scalar(1)}),
               string_lists({{{"", ""}}}));
  expect_array(run("regexp_extract_all", {text.slice(0, 0), str("a")}), string_lists({}));
  const Datum scalar = run("regexp_extract_all", {str("a1a2"), str("a(\\d)")});
  ASSERT_TRUE(scalar.is_scalar());
  EXPECT_TRUE(scalar.array().equals(string_lists({{{"1", "2"}}})));
  // regexp_extract_all('xyz', '(b)', 2) is [], regexp_extract_all('abc', 'b', 1) fails.
  expect_array(run("regexp_extract_all", {strs({"xyz"}), str("(b)"), int_scalar(2)}),
               string_lists({{{}}}));
  EXPECT_THAT(error_message<IllegalArgumentError>([&] {
                run("regexp_extract_all", {strs({"xyz", "abc"}), str("b"), int_scalar(1)});
              }),
              HasSubstr("[INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX] The value of parameter(s) "
                        "`idx` in `regexp_extract_all` is invalid: Expects group index between 0 "
                        "and 0, but got 1."));
}

TEST(RegexpCountSubstrInstrTest, SparkAnswers) {
  // Checked against Spark 4.3.
  const Array text = strs({"pad", "abcabc", "abc", "", "aaa", kNull});
  expect_array(run("regexp_count", {text.slice(1), str("b")}),
               make_array<int32_t>({2, 1, 0, 0, kNull}));
  expect_array(run("regexp_count", {text.slice(1), str("")}),
               make_array<int32_t>({7, 4, 1, 4, kNull}));
  expect_array(run("regexp_count", {strs({"aaa"}), str("a*")}), make_array<int32_t>({2}));
  expect_array(run("regexp_substr", {strs({"abc123def456", "abc", kNull}), str("\\d+")}),
               strs({"123", kNull, kNull}));
  expect_array(run("regexp_substr", {strs({"abc", "aaa"}), str("a*")}), strs({"a", "aaa"}));
  expect_array(run("regexp_substr", {strs({"abc"}), str("")}), strs({kNull}));
  expect_array(
      run("regexp_instr", {strs({"abc123def", "abc", kNull, "日本語x", "😀x"}), str("\\d+|x")}),
      make_array<int32_t>({4, 0, kNull, 4, 2}));
  // The group index does not change Spark's answer: regexp_instr('abc123', '(\d)(\d)', 2) is 4.
  expect_array(run("regexp_instr", {strs({"abc123"}), str("(\\d)(\\d)"), int_scalar(2)}),
               make_array<int32_t>({4}));
  expect_array(run("regexp_instr", {strs({"abc"}), str("b"), int_scalar(-1)}),
               make_array<int32_t>({2}));
  expect_array(run("regexp_instr", {strs({"abc"}), str("")}), make_array<int32_t>({1}));
  EXPECT_THAT(error_message<IllegalArgumentError>([&] {
                run("regexp_instr", {strs({"abc"}), str("(b")});
              }),
              HasSubstr("[INVALID_PARAMETER_VALUE.PATTERN] The value of parameter(s) `regexp` "
                        "in `regexp_instr` is invalid: '(b'"));
  const Datum scalar = run("regexp_count", {str("banana"), str("an")});
  ASSERT_TRUE(scalar.is_scalar());
  EXPECT_TRUE(scalar.array().equals(make_array<int32_t>({2})));
}

TEST(RegexpTest, MalformedUtf8IsMatchedAsSparkReadsIt) {
  // Checked against Spark 4.3: the text is decoded with U+FFFD for malformed bytes first.
  const Array text =
      strs({"A\xFF"
            "B",
            "\xFF", "ok", kNull});
  expect_array(run("regexp_replace", {text, str("B"), str("x")}),
               strs({"A\uFFFDx", "\uFFFD", "ok", kNull}));
  expect_array(run("rlike", {text, str("^.$")}), bools({false, true, false, kNull}));
  expect_array(run("regexp_extract_all", {strs({"\xE2"
                                                "AB"}),
                                          str("(.)"), int_scalar(1)}),
               string_lists({{{"\uFFFD", "A", "B"}}}));
  expect_array(run("split", {strs({"\xE2"
                                   "AB"}),
                             str("A")}),
               string_lists({{{"\uFFFD", "B"}}}));
  // cast(X'E2' AS STRING) LIKE '_' is true in Spark 4.3 (one U+FFFD).
  expect_array(run("like", {strs({"\xE2",
                                  "\xE2\x82"
                                  "A"}),
                            str("_")}),
               bools({true, false}));
  expect_array(run("like", {strs({"\xE2\x82"
                                  "A"}),
                            str("__")}),
               bools({true}));
}

TEST(RegexpReplaceTest, JavaReplacementSyntaxAndEmptyMatches) {
  // Checked against Spark 4.
  expect_array(run("regexp_replace", {strs({"abc", kNull}), str("x*"), str("-")}),
               strs({"-a-b-c-", kNull}));
  expect_array(run("regexp_replace", {strs({"abc"}), str("b*"), str("-")}), strs({"-a--c-"}));
  expect_array(run("regexp_replace", {strs({"abc", "日本"}), str(""), str("-")}),
               strs({"-a-b-c-", "-日-本-"}));
  expect_array(run("regexp_replace", {strs({"abc"}), str("b"), str("x"), int_scalar(3)}),
               strs({"abc"}));
  expect_array(run("regexp_replace", {strs({"a1b22"}), str("(\\d+)"), str("<$1>")}),
               strs({"a<1>b<22>"}));
  expect_array(run("regexp_replace", {strs({"abc"}), str("(b)"), str("[$1]")}), strs({"a[b]c"}));
  expect_array(run("regexp_replace", {strs({"aXbX"}), str("X"), str("\\$")}), strs({"a$b$"}));
  expect_array(run("regexp_replace", {strs({"2024-01"}), str("(?<y>\\d+)-(\\d+)"), str("$2/${y}")}),
               strs({"01/2024"}));
  expect_array(run("regexp_replace", {strs({"日本日本"}), str("日"), str("x"), int_scalar(2)}),
               strs({"日本x本"}));
  expect_array(run("regexp_replace", {strs({"aaa"}), strs({"a"}), strs({"b"})}), strs({"bbb"}));
  EXPECT_THAT(error_message<IllegalArgumentError>([&] {
                run("regexp_replace", {strs({"a"}), str("a"), str("$2")});
              }),
              HasSubstr("no group 2"));
}

TEST(SplitTest, JavaSplitWithSparkLimitRules) {
  // Checked against Spark 4.
  expect_array(run("split", {strs({"a,b,,", "", ",a", kNull}), str(",")}),
               string_lists({{{"a", "b", "", ""}}, {{""}}, {{"", "a"}}, kNull}));
  expect_array(run("split", {strs({"abc", "日本"}), str("")}),
               string_lists({{{"a", "b", "c"}}, {{"日", "本"}}}));
  expect_array(run("split", {strs({"a,b,c"}), str(","), int_scalar(2)}),
               string_lists({{{"a", "b,c"}}}));
  expect_array(run("split", {strs({"a1b2"}), str("[0-9]"), int_scalar(0)}),
               string_lists({{{"a", "b", ""}}}));
  expect_array(run("split", {strs({"abc"}), str("x")}), string_lists({{{"abc"}}}));
  expect_array(run("split", {strs({"a b  c"}), str(" ")}), string_lists({{{"a", "b", "", "c"}}}));
  expect_array(run("split", {strs({"abc"}), str("b"), int_scalar(1)}), string_lists({{{"abc"}}}));
  expect_array(run("split", {strs({"abc"}), str("x|"), int_scalar(-1)}),
               string_lists({{{"a", "b", "c", ""}}}));
}

TEST(LikeTest, WildcardsEscapesAndShapes) {
  const Array text = strs({"abc", "a_c", "", kNull, "日本語", "aXc"});
  expect_array(run("like", {text, str("a%")}), bools({true, true, false, kNull, false, true}));
  expect_array(run("like", {text, str("%c")}), bools({true, true, false, kNull, false, true}));
  expect_array(run("like", {text, str("%本%")}), bools({false, false, false, kNull, true, false}));
  expect_array(run("like", {text, str("a_c")}), bools({true, true, false, kNull, false, true}));
  expect_array(run("like", {text, str("a\\_c")}), bools({false, true, false, kNull, false, false}));
  expect_array(run("like", {text, str("_本_")}), bools({false, false, false, kNull, true, false}));
  expect_array(run("like", {text, str("%")}), bools({true, true, true, kNull, true, true}));
  expect_array(run("like", {text, str("")}), bools({false, false, true, kNull, false, false}));
  expect_array(run("like", {text, str("a%b%c")}), bools({true, false, false, kNull, false, false}));
  expect_array(run("like", {text, str("a/_c"), str("/")}),
               bools({false, true, false, kNull, false, false}));
  expect_array(run("ilike", {text, str("A%C")}), bools({true, true, false, kNull, false, true}));
  expect_array(run("like", {strs({"ab", "ab"}), strs({"a%", "b%"})}), bools({true, false}));
  // Checked against Spark 4.
  EXPECT_THAT(error_message<AnalysisError>([&] {
                run("like", {text, str("a\\bc")});
              }),
              HasSubstr("[INVALID_FORMAT.ESC_IN_THE_MIDDLE] The format is invalid: 'a\\bc'. The "
                        "escape character is not allowed to precede 'b'."));
  EXPECT_THAT(error_message<AnalysisError>([&] {
                run("like", {text, str("ab\\")});
              }),
              HasSubstr("[INVALID_FORMAT.ESC_AT_THE_END]"));
}

}  // namespace
}  // namespace bowstring::compute
