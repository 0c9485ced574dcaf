#include "bowstring/compute/predicates.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "bowstring/compute/errors.h"
#include "bowstring/compute/function.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

using bowstring::testing::error_message;
using bowstring::testing::make_array;
using bowstring::testing::make_string_array;

const std::nullopt_t kNull = std::nullopt;
using Bools = std::vector<std::optional<bool>>;

Bools bools_of(const Datum& datum) {
  EXPECT_EQ(datum.type()->id(), TypeId::kBoolean);
  Bools out;
  const BooleanArray array(datum.array());
  for (int64_t i = 0; i < array.length(); ++i) {
    out.push_back(array.is_null(i) ? std::optional<bool>() : array.value(i));
  }
  return out;
}

Resolution resolve(std::string_view name, std::vector<TypePtr> types) {
  return default_registry().get(name).resolve(types, {});
}

TEST(PredicateRegistryTest, EveryFunctionIsRegisteredUnderSparkNames) {
  for (const char* name :
       {"=",      "==",        "!=",         "<>",        "<",   "<=",     ">",
        ">=",     "<=>",       "equal_null", "and",       "or",  "not",    "!",
        "isnull", "isnotnull", "isnan",      "coalesce",  "nvl", "ifnull", "nvl2",
        "nullif", "nanvl",     "if",         "case_when", "in",  "between"}) {
    EXPECT_NE(default_registry().find(name), nullptr) << name;
  }
  EXPECT_EQ(default_registry().find("="), default_registry().find("=="));
  EXPECT_EQ(default_registry().find("<=>"), default_registry().find("equal_null"));
}

TEST(PredicateRegistryTest, ComparisonsCastToTheComparisonType) {
  Resolution r = resolve("=", {int32(), int64()});
  EXPECT_TRUE(r.output->equals(*boolean()));
  EXPECT_TRUE(r.arguments[0]->equals(*int64()));
  EXPECT_TRUE(r.arguments[1]->equals(*int64()));
  r = resolve("<", {int32(), float64()});
  EXPECT_TRUE(r.arguments[0]->equals(*float64()));
  r = resolve("<", {utf8(), int32()});
  EXPECT_TRUE(r.arguments[0]->equals(*int64()));
  r = resolve("<=>", {date32(), utf8()});
  EXPECT_TRUE(r.arguments[1]->equals(*date32()));
}

TEST(PredicateRegistryTest, IncompatibleComparisonNamesTheTypes) {
  const std::string message = error_message<AnalysisError>([] {
    resolve("=", {int32(), binary()});
  });
  EXPECT_NE(message.find("DATATYPE_MISMATCH"), std::string::npos) << message;
  EXPECT_NE(message.find("\"INT\""), std::string::npos) << message;
  EXPECT_NE(message.find("\"BINARY\""), std::string::npos) << message;
  EXPECT_THROW(resolve("and", {boolean(), int32()}), AnalysisError);
  EXPECT_THROW(resolve("isnan", {utf8()}), AnalysisError);
  EXPECT_THROW(resolve("if", {int32(), int32(), int32()}), AnalysisError);
  // Spark accepts IF(NULL, ...) but refuses CASE WHEN NULL THEN ...
  EXPECT_NO_THROW(resolve("if", {null(), int32(), int32()}));
  EXPECT_THROW(resolve("case_when", {null(), int32()}), AnalysisError);
}

TEST(PredicateRegistryTest, ConditionalsUseTheWiderType) {
  Resolution r = resolve("coalesce", {int32(), int64(), null()});
  EXPECT_TRUE(r.output->equals(*int64()));
  r = resolve("if", {boolean(), int32(), float64()});
  EXPECT_TRUE(r.output->equals(*float64()));
  EXPECT_TRUE(r.arguments[0]->equals(*boolean()));
  r = resolve("case_when", {boolean(), int8(), boolean(), int32(), int16()});
  EXPECT_TRUE(r.output->equals(*int32()));
  EXPECT_TRUE(r.arguments[2]->equals(*boolean()));
  EXPECT_TRUE(r.arguments[4]->equals(*int32()));
  r = resolve("nvl2", {utf8(), int32(), int64()});
  EXPECT_TRUE(r.output->equals(*int64()));
  EXPECT_TRUE(r.arguments[0]->equals(*utf8()));
  r = resolve("nanvl", {float32(), float64()});
  EXPECT_TRUE(r.output->equals(*float64()));
  r = resolve("nanvl", {float32(), float32()});
  EXPECT_TRUE(r.output->equals(*float32()));
  r = resolve("in", {int32(), int64(), int8()});
  EXPECT_TRUE(r.arguments[2]->equals(*int64()));
  EXPECT_THROW(resolve("coalesce", {int32(), binary()}), AnalysisError);
}

TEST(PredicateRegistryTest, CallRunsTheKernels) {
  const Datum ints[] = {make_array<int64_t>({1, 2, kNull}), make_array<int64_t>({1, 3, 3})};
  EXPECT_EQ(bools_of(call("==", ints)), (Bools{true, false, kNull}));
  EXPECT_EQ(bools_of(call("<>", ints)), (Bools{false, true, kNull}));
  EXPECT_EQ(bools_of(call("<=>", ints)), (Bools{true, false, false}));
  const Datum in_args[] = {make_array<int64_t>({1, 2, kNull}),
                           Datum::scalar(make_array<int64_t>({2})), Datum::null_scalar(int64())};
  EXPECT_EQ(bools_of(call("in", in_args)), (Bools{kNull, true, kNull}));
  const Datum logic[] = {make_array<bool>({true, kNull}), make_array<bool>({kNull, false})};
  EXPECT_EQ(bools_of(call("and", logic)), (Bools{kNull, false}));
  EXPECT_EQ(bools_of(call("OR", logic)), (Bools{true, kNull}));
  const Datum one[] = {make_array<bool>({true, kNull})};
  EXPECT_EQ(bools_of(call("not", one)), (Bools{false, kNull}));
  EXPECT_EQ(bools_of(call("isnull", one)), (Bools{false, true}));
  EXPECT_EQ(bools_of(call("isnotnull", one)), (Bools{true, false}));
}

TEST(PredicateRegistryTest, CallConditionals) {
  const Datum nvl2_args[] = {make_string_array({"a", kNull}),
                             Datum::scalar(make_array<int64_t>({1})),
                             Datum::scalar(make_array<int64_t>({2}))};
  EXPECT_TRUE(call("nvl2", nvl2_args).array().equals(make_array<int64_t>({1, 2})));
  const Datum case_args[] = {
      make_array<bool>({false, kNull, true}), Datum::scalar(make_string_array({"x"})),
      make_array<bool>({true, false, true}), Datum::scalar(make_string_array({"y"})),
      Datum::scalar(make_string_array({"z"}))};
  EXPECT_TRUE(call("case_when", case_args).array().equals(make_string_array({"y", "z", "x"})));
  const Datum nullif_args[] = {make_array<int64_t>({1, 2}), make_array<int64_t>({1, 1})};
  EXPECT_TRUE(call("nullif", nullif_args).array().equals(make_array<int64_t>({kNull, 2})));
  const Datum between_args[] = {make_array<int64_t>({1, 5, 9}),
                                Datum::scalar(make_array<int64_t>({2})),
                                Datum::scalar(make_array<int64_t>({8}))};
  EXPECT_EQ(bools_of(call("between", between_args)), (Bools{false, true, false}));
}

TEST(PredicateRegistryTest, WrongArgumentCount) {
  const Datum one[] = {make_array<int64_t>({1})};
  EXPECT_THROW(call("=", one), AnalysisError);
  EXPECT_THROW(call("case_when", one), AnalysisError);
}

}  // namespace
}  // namespace bowstring::compute
