#include "bowstring/compute/scalar/predicates.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/types/type.h"

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
  EXPECT_THROW(resolve("isnan", {binary()}), AnalysisError);
  EXPECT_THROW(resolve("isnan", {date32()}), AnalysisError);
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

// Checked in PySpark 4.3 (ANSI on): isnan('NaN') = true, isnan('1.5') = false, isnan(' nan ')
// = true, isnan('abc') raises CAST_INVALID_INPUT (to DOUBLE); NOT 'true' = false, NOT 'no' =
// true, NOT ' yes ' = false, NOT 'abc' raises CAST_INVALID_INPUT (to BOOLEAN); 'true' AND true
// = true, true AND 'f' = false; 'y' AND 'n' is BINARY_OP_WRONG_TYPE, 1 AND true is
// BINARY_OP_DIFF_TYPES, NOT 1 is UNEXPECTED_INPUT_TYPE.
TEST(PredicateRegistryTest, StringsAreCastForIsnanNotAndLogic) {
  const Datum text[] = {make_string_array({"NaN", "1.5", " nan ", kNull})};
  EXPECT_EQ(bools_of(call("isnan", text)), (Bools{true, false, true, false}));
  const Datum bad[] = {make_string_array({"1", "abc"})};
  EXPECT_NE(error_message<NumberFormatError>([&] {
              call("isnan", bad);
            }).find("The value 'abc' of the type \"STRING\" cannot be cast to \"DOUBLE\""),
            std::string::npos);
  const Datum words[] = {make_string_array({"true", "false", "t", "no", " yes ", kNull})};
  EXPECT_EQ(bools_of(call("not", words)), (Bools{false, true, false, true, false, kNull}));
  const Datum bad_word[] = {make_string_array({"abc"}).slice(0)};
  EXPECT_NE(error_message<SparkRuntimeError>([&] {
              call("not", bad_word);
            }).find("The value 'abc' of the type \"STRING\" cannot be cast to \"BOOLEAN\""),
            std::string::npos);
  const Datum mixed[] = {make_string_array({"true", "f", kNull}),
                         Datum::scalar(make_array<bool>({true}))};
  EXPECT_EQ(bools_of(call("and", mixed)), (Bools{true, false, kNull}));
  const Datum mixed_or[] = {Datum::scalar(make_array<bool>({false})),
                            make_string_array({"true", "f", kNull})};
  EXPECT_EQ(bools_of(call("or", mixed_or)), (Bools{true, false, kNull}));

  EXPECT_EQ(error_message<AnalysisError>([] {
              resolve("and", {utf8(), utf8()});
            }),
            "[DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE] Cannot resolve \"and\" due to data type "
            "mismatch: the binary operator requires the input type \"BOOLEAN\", not \"STRING\".");
  EXPECT_NE(error_message<AnalysisError>([] {
              resolve("and", {utf8(), null()});
            }).find("BINARY_OP_WRONG_TYPE"),
            std::string::npos);
  EXPECT_EQ(error_message<AnalysisError>([] {
              resolve("or", {int32(), boolean()});
            }),
            "[DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES] Cannot resolve \"or\" due to data type "
            "mismatch: the left and right operands of the binary operator have incompatible "
            "types (\"INT\" and \"BOOLEAN\").");
  EXPECT_NO_THROW(resolve("and", {null(), boolean()}));
  EXPECT_NO_THROW(resolve("not", {null()}));
  EXPECT_THROW(resolve("not", {int32()}), AnalysisError);
  EXPECT_THROW(resolve("not", {binary()}), AnalysisError);
}

// Checked in PySpark 4.3: map(1, 2) = map(1, 2) is DATATYPE_MISMATCH.INVALID_ORDERING_TYPE
// ("The `=` does not support ordering on type "MAP<INT, INT>"."), also for <=>, < and IN and
// for an array of maps; named_struct('a', 1) < named_struct('a', 1.5D) is true (the fields
// widen); array(1) = array('1') is BINARY_OP_DIFF_TYPES; array(1) IN (array(1L)) is true.
TEST(PredicateRegistryTest, NestedComparisons) {
  EXPECT_EQ(error_message<AnalysisError>([] {
              resolve("=", {map(int32(), int32()), map(int32(), int32())});
            }),
            "[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] Cannot resolve \"=\" due to data type "
            "mismatch: The `=` does not support ordering on type \"MAP<INT, INT>\".");
  EXPECT_NE(error_message<AnalysisError>([] {
              resolve("in", {list(map(int32(), int32())), list(map(int32(), int32()))});
            }).find("INVALID_ORDERING_TYPE"),
            std::string::npos);
  EXPECT_NE(error_message<AnalysisError>([] {
              resolve("=", {list(int32()), list(utf8())});
            }).find("BINARY_OP_DIFF_TYPES"),
            std::string::npos);
  const Resolution r =
      resolve("<", {struct_({field("a", int32())}), struct_({field("A", float64())})});
  EXPECT_TRUE(r.arguments[0]->field(0)->type()->equals(*float64()));
  EXPECT_TRUE(r.arguments[1]->field(0)->type()->equals(*float64()));
  // named_struct('a', 1) = named_struct('b', 1) is true; named_struct('a', 1) =
  // named_struct('b', 1L) is BINARY_OP_DIFF_TYPES (widening needs the names to agree).
  EXPECT_NO_THROW(resolve("=", {struct_({field("a", int32())}), struct_({field("b", int32())})}));
  EXPECT_NO_THROW(
      resolve("=", {list(struct_({field("a", int32())})), list(struct_({field("b", int32())}))}));
  EXPECT_NE(error_message<AnalysisError>([] {
              resolve("=", {struct_({field("a", int32())}), struct_({field("b", int64())})});
            }).find("BINARY_OP_DIFF_TYPES"),
            std::string::npos);

  const Datum structs[] = {testing::make_struct_array({{"a", make_array<int32_t>({1, 2})}}),
                           testing::make_struct_array({{"a", make_array<double>({1.5, 2.0})}})};
  EXPECT_EQ(bools_of(call("<", structs)), (Bools{true, false}));
  EXPECT_EQ(bools_of(call("=", structs)), (Bools{false, true}));
  const Datum lists[] = {testing::make_list_array<int32_t>({{{1}}, {{1, 2}}}),
                         Datum::scalar(testing::make_list_array<int64_t>({{{1}}}))};
  EXPECT_EQ(bools_of(call("in", lists)), (Bools{true, false}));
  EXPECT_EQ(bools_of(call("<=>", lists)), (Bools{true, false}));
  const Datum between_args[] = {testing::make_list_array<int32_t>({{{1, 2}}}),
                                Datum::scalar(testing::make_list_array<int32_t>({{{1}}})),
                                Datum::scalar(testing::make_list_array<int32_t>({{{2}}}))};
  EXPECT_EQ(bools_of(call("between", between_args)), (Bools{true}));
}

TEST(PredicateRegistryTest, DictionaryArgumentsCompareByValue) {
  const Array dictionary = make_string_array({"b", "a", "c"});
  const Array encoded =
      testing::make_dictionary_array(int32(), {0, 1, kNull, 2, 1}, dictionary).slice(1);
  const Datum against_string[] = {encoded, Datum::scalar(make_string_array({"b"}))};
  EXPECT_EQ(bools_of(call("<", against_string)), (Bools{true, kNull, false, true}));
  EXPECT_EQ(bools_of(call("=", against_string)), (Bools{false, kNull, false, false}));
  const Array other =
      testing::make_dictionary_array(int32(), {0, 0, 0, 1}, make_string_array({"a", "c"}));
  const Datum both[] = {encoded, other};
  EXPECT_EQ(bools_of(call("=", both)), (Bools{true, kNull, false, false}));
  EXPECT_EQ(bools_of(call("<=>", both)), (Bools{true, false, false, false}));
  const Datum plain[] = {encoded, make_string_array({"a", "x", "c", "b"})};
  EXPECT_EQ(bools_of(call(">=", plain)), (Bools{true, kNull, true, false}));
  EXPECT_EQ(bools_of(compare(CompareOp::kEqual, encoded, Datum::scalar(make_string_array({"a"})))),
            (Bools{true, kNull, false, true}));
}

}  // namespace
}  // namespace bowstring::compute
