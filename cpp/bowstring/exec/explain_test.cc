#include "bowstring/exec/explain.h"

#include <gtest/gtest.h>

#include <regex>

namespace bowstring::exec {
namespace {

using expr::call;
using expr::col;
using expr::lit;

std::string without_ids(const std::string& text) {
  return std::regex_replace(text, std::regex("#[0-9]+"), "#N");
}

plan::PlanPtr sample_query() {
  return plan::limit(
      plan::sort(plan::aggregate(plan::filter(plan::range(0, 10, 1, 2),
                                              call(">", {col("id"), lit(int64_t{2})})),
                                 {expr::alias(call("%", {col("id"), lit(int64_t{3})}), "g")},
                                 {col("g"), expr::alias(call("sum", {col("id")}), "s")}),
                 {{col("s"), compute::SortKey{false, std::nullopt}}}),
      2);
}

TEST(Explain, SimplePrintsThePhysicalPlan) {
  EXPECT_EQ(without_ids(explain(sample_query(), ExplainMode::kSimple)),
            "== Physical Plan ==\n"
            "TakeOrderedAndProject(limit=2, orderBy=[s#NL DESC NULLS LAST], output=[g#NL, s#NL])\n"
            "+- Project [g#NL, sum(id)#NL AS s#NL]\n"
            "   +- HashAggregate(keys=[g#NL], functions=[sum(id#NL)])\n"
            "      +- Filter (id#NL > 2L)\n"
            "         +- Range (0, 10, step=1, splits=Some(2))\n\n");
}

TEST(Explain, ExtendedPrintsEveryStage) {
  const std::string text = without_ids(explain(sample_query(), ExplainMode::kExtended));
  const size_t parsed = text.find(
      "== Parsed Logical Plan ==\nLimit 2\n+- 'Sort ['s DESC NULLS "
      "LAST], true\n");
  const size_t analyzed = text.find("== Analyzed Logical Plan ==\nLimit 2\n+- Sort [s#NL DESC");
  const size_t optimized = text.find("== Optimized Logical Plan ==\n");
  const size_t physical = text.find("== Physical Plan ==\nTakeOrderedAndProject");
  EXPECT_NE(parsed, std::string::npos) << text;
  EXPECT_NE(analyzed, std::string::npos) << text;
  EXPECT_LT(parsed, analyzed);
  EXPECT_LT(analyzed, optimized);
  EXPECT_LT(optimized, physical);
  EXPECT_NE(text.find("Aggregate [(id#NL % 3L)], [(id#NL % 3L) AS g#NL"), std::string::npos)
      << text;
}

TEST(Explain, FormattedNumbersTheOperators) {
  const std::string text = without_ids(explain(sample_query(), ExplainMode::kFormatted));
  EXPECT_EQ(text.substr(0, text.find("\n\n")),
            "== Physical Plan ==\n"
            "TakeOrderedAndProject (5)\n"
            "+- Project (4)\n"
            "   +- HashAggregate (3)\n"
            "      +- Filter (2)\n"
            "         +- Range (1)");
  EXPECT_NE(text.find("(2) Filter\nInput [1]: [id#NL]\nOutput [1]: [id#NL]\nArguments: Filter "
                      "(id#NL > 2L)\n"),
            std::string::npos)
      << text;
}

TEST(Explain, ModesParseByName) {
  EXPECT_EQ(parse_explain_mode("EXTENDED"), ExplainMode::kExtended);
  EXPECT_EQ(parse_explain_mode("cost"), ExplainMode::kCost);
  EXPECT_THROW(parse_explain_mode("codegen"), InvalidArgument);
  EXPECT_EQ(explain(sample_query(), ExplainMode::kCost).find("== Parsed"), std::string::npos);
}

}  // namespace
}  // namespace bowstring::exec
