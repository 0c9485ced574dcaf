// Implicit casts apply only to the rows where the function reads the argument, as Spark
// evaluates per row: expected values and errors checked against PySpark 4.3 (ANSI mode).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/scalar/conditional.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

using bowstring::testing::error_message;
using bowstring::testing::make_array;
using bowstring::testing::make_string_array;
using std::nullopt;

Datum run(std::string_view name, std::vector<Datum> arguments) { return call(name, arguments); }

void expect_array(const Datum& actual, const Array& expected) {
  ASSERT_TRUE(actual.is_array()) << actual.to_string();
  EXPECT_NO_THROW(actual.array().validate_full());
  EXPECT_TRUE(actual.array().equals(expected))
      << "actual " << actual.array().to_string() << "\nexpected " << expected.to_string();
}

std::string cast_error(std::string_view name, std::vector<Datum> arguments) {
  return error_message<NumberFormatError>([&] { run(name, std::move(arguments)); });
}

Datum string_scalar(const std::string& value) { return Datum::scalar(make_string_array({value})); }

// n: 1, null, 3, null. t: malformed where n is null.
Array numbers() { return make_array<int32_t>({1, nullopt, 3, nullopt}); }
Array texts() { return make_string_array({"2", "abc", "4", "1e400"}); }
// Malformed where n is not null.
Array other_texts() { return make_string_array({"abc", "5", "xyz", "6"}); }

TEST(LazyCastTest, ArithmeticSkipsRowsAfterANull) {
  // SELECT n + t: NULL where n is NULL, the malformed string never read.
  expect_array(run("+", {numbers(), texts()}), make_array<int64_t>({3, nullopt, 7, nullopt}));
  expect_array(run("*", {numbers(), texts()}), make_array<int64_t>({2, nullopt, 12, nullopt}));
  // SELECT t + n: Spark reads the left side first and raises.
  EXPECT_TRUE(cast_error("+", {texts(), numbers()}).starts_with("[CAST_INVALID_INPUT]"));
  EXPECT_TRUE(cast_error("-", {texts(), numbers()}).starts_with("[CAST_INVALID_INPUT]"));
  // The divisor is read first, the dividend only where the divisor is not null.
  expect_array(run("/", {texts(), numbers()}),
               make_array<double>({2.0, nullopt, 4.0 / 3.0, nullopt}));
  expect_array(run("%", {texts(), numbers()}), make_array<int64_t>({0, nullopt, 1, nullopt}));
  expect_array(run("div", {texts(), numbers()}), make_array<int64_t>({2, nullopt, 1, nullopt}));
  expect_array(run("pmod", {texts(), numbers()}), make_array<int64_t>({0, nullopt, 1, nullopt}));
  EXPECT_TRUE(cast_error("/", {numbers(), texts()}).starts_with("[CAST_INVALID_INPUT]"));
  EXPECT_TRUE(cast_error("pmod", {numbers(), texts()}).starts_with("[CAST_INVALID_INPUT]"));
  // A zero divisor still reads the dividend: the malformed string raises first.
  EXPECT_TRUE(cast_error("/", {make_string_array({"abc"}), make_array<int32_t>({0})})
                  .starts_with("[CAST_INVALID_INPUT]"));
}

TEST(LazyCastTest, ErrorsRemainWhereTheValueIsRead) {
  const std::string message = cast_error(
      "+", {make_array<int32_t>({1, nullopt, 2}), make_string_array({"1", "zz", "abc"})});
  EXPECT_TRUE(message.starts_with("[CAST_INVALID_INPUT] The value 'abc' of the type \"STRING\""))
      << message;
}

TEST(LazyCastTest, SlicesAndScalars) {
  // Slices at an offset: the new validity honours the offset of the shared values.
  const Array n = make_array<int32_t>({9, 9, 9, 1, nullopt, 3, nullopt, 9}).slice(3, 4);
  const Array t = make_string_array({"q", "2", "abc", "4", "1e400", "z"}).slice(1, 4);
  expect_array(run("+", {n, t}), make_array<int64_t>({3, nullopt, 7, nullopt}));
  // A null scalar: no row reads the string.
  const Datum sum = run("+", {Datum::null_scalar(int32()), string_scalar("abc")});
  ASSERT_TRUE(sum.is_scalar());
  EXPECT_TRUE(sum.scalar_is_null());
  EXPECT_TRUE(sum.type()->equals(*int64()));
  expect_array(run("+", {make_array<int32_t>({nullopt, nullopt}), string_scalar("abc")}),
               make_array<int64_t>({nullopt, nullopt}));
  EXPECT_TRUE(cast_error("+", {n, string_scalar("abc")}).starts_with("[CAST_INVALID_INPUT]"));
  // Empty input.
  expect_array(run("+", {make_array<int32_t>({}), make_string_array({})}), make_array<int64_t>({}));
}

Array conditions() { return make_array<bool>({true, false, true, false}); }

TEST(LazyCastTest, BranchesAreCastOnlyWhereTaken) {
  const Array expected = make_array<int64_t>({1, 5, 3, 6});
  // if(c, n, t): the else branch only where c is not true.
  expect_array(run("if", {conditions(), numbers(), other_texts()}), expected);
  // A null condition takes the else branch.
  expect_array(run("if", {make_array<bool>({true, nullopt}), make_array<int32_t>({1, 2}),
                          make_string_array({"abc", "7"})}),
               make_array<int64_t>({1, 7}));
  EXPECT_TRUE(cast_error("if", {make_array<bool>({false}), make_array<int32_t>({1}),
                                make_string_array({"abc"})})
                  .starts_with("[CAST_INVALID_INPUT]"));
  // A scalar condition: the branch no row takes is not cast.
  expect_array(
      run("if", {Datum::scalar(make_array<bool>({true})), numbers(), string_scalar("abc")}),
      make_array<int64_t>({1, nullopt, 3, nullopt}));
  expect_array(run("nvl2", {numbers(), numbers(), other_texts()}), expected);
  expect_array(run("coalesce", {numbers(), other_texts()}), expected);
  expect_array(run("nvl", {numbers(), other_texts()}), expected);
  expect_array(run("ifnull", {numbers(), other_texts()}), expected);
  EXPECT_TRUE(cast_error("coalesce", {make_array<int32_t>({nullopt}), make_string_array({"abc"})})
                  .starts_with("[CAST_INVALID_INPUT]"));
  expect_array(run("case_when", {conditions(), numbers(), other_texts()}), expected);
  // The second value only where the first condition is not true and the second is; the else
  // value where neither is.
  expect_array(
      run("case_when", {make_array<bool>({true, false, false, false}), numbers(),
                        make_array<bool>({true, true, false, false}), other_texts(), numbers()}),
      make_array<int64_t>({1, 5, 3, nullopt}));
  EXPECT_TRUE(cast_error("case_when", {make_array<bool>({false}), make_array<int32_t>({1}),
                                       make_string_array({"abc"})})
                  .starts_with("[CAST_INVALID_INPUT]"));
}

TEST(LazyCastTest, NanvlAndInReadLaterArgumentsOnlyWhereNeeded) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // nanvl(x, s) over (1.0, 'abc'), (NULL, 'abc'), (NaN, '2.5'): DOUBLE, the fallback read on
  // the NaN row only.
  expect_array(run("nanvl", {make_array<double>({1.0, nullopt, nan}),
                             make_string_array({"abc", "abc", "2.5"})}),
               make_array<double>({1.0, nullopt, 2.5}));
  // nanvl(f, s) with a FLOAT f is DOUBLE too.
  expect_array(run("nanvl", {make_array<float>({1.0f}), make_string_array({"abc"})}),
               make_array<double>({1.0}));
  EXPECT_TRUE(cast_error("nanvl", {make_array<double>({nan}), make_string_array({"abc"})})
                  .starts_with("[CAST_INVALID_INPUT]"));
  // x IN (s, 1) with x NULL is NULL; x IN (1, s) with x = 1 stops at the match.
  const Datum one = Datum::scalar(make_array<int32_t>({1}));
  const Datum in_null = run("in", {Datum::null_scalar(int32()), string_scalar("abc"), one});
  ASSERT_TRUE(in_null.is_scalar());
  EXPECT_TRUE(in_null.scalar_is_null());
  expect_array(run("in", {make_array<int32_t>({1, nullopt}), one, make_string_array({"abc", "x"})}),
               make_array<bool>({true, nullopt}));
  // x IN (2, s) with x = 1 reads s.
  EXPECT_TRUE(cast_error("in", {make_array<int32_t>({1}), Datum::scalar(make_array<int32_t>({2})),
                                make_string_array({"abc"})})
                  .starts_with("[CAST_INVALID_INPUT]"));
}

TEST(LazyCastTest, NullifAndBetweenCompareFromTheLeft) {
  // nullif(x, s) and x BETWEEN s AND 3 are NULL where x is NULL; nullif(s, x) reads s first.
  expect_array(run("nullif", {make_array<int32_t>({nullopt, 2}), make_string_array({"abc", "2"})}),
               make_array<int32_t>({nullopt, nullopt}));
  EXPECT_TRUE(cast_error("nullif", {make_string_array({"abc"}), make_array<int32_t>({nullopt})})
                  .starts_with("[CAST_INVALID_INPUT]"));
  expect_array(run("between", {make_array<int32_t>({nullopt, 2}), make_string_array({"abc", "1"}),
                               Datum::scalar(make_array<int32_t>({3}))}),
               make_array<bool>({nullopt, true}));
}

RowWords reading(const std::optional<RowWords>& rows) {
  EXPECT_TRUE(rows.has_value());
  return rows.value_or(RowWords{});
}

TEST(LazyCastTest, RowsReadByConditionals) {
  const Array doubles =
      make_array<double>({1.0, std::numeric_limits<double>::quiet_NaN(), nullopt, 2.0});
  const Datum nanvl_arguments[] = {doubles, doubles};
  EXPECT_FALSE(nanvl_rows_reading(0, nanvl_arguments, 4).has_value());
  EXPECT_EQ(reading(nanvl_rows_reading(1, nanvl_arguments, 4)), RowWords{0b0010});
  const Datum conditional[] = {conditions(), numbers(), numbers()};
  EXPECT_EQ(reading(if_rows_reading(1, conditional, 4)), RowWords{0b0101});
  EXPECT_EQ(reading(if_rows_reading(2, conditional, 4)), RowWords{0b1010});
  const Datum nvl2_arguments[] = {numbers(), numbers(), numbers()};
  EXPECT_EQ(reading(nvl2_rows_reading(1, nvl2_arguments, 4)), RowWords{0b0101});
  EXPECT_EQ(reading(nvl2_rows_reading(2, nvl2_arguments, 4)), RowWords{0b1010});
  EXPECT_EQ(reading(coalesce_rows_reading(1, conditional, 4)), RowWords{0});
  const Datum values[] = {numbers(), numbers(), numbers()};
  EXPECT_EQ(reading(coalesce_rows_reading(2, values, 4)), RowWords{0b1010});
  // Conditions true on rows 0 and 1: the else value reads rows 2 and 3.
  const Datum branches[] = {make_array<bool>({true, false, nullopt, false}), numbers(),
                            make_array<bool>({false, true, true, nullopt}), numbers(), numbers()};
  EXPECT_EQ(reading(case_when_rows_reading(2, branches, 4)), RowWords{0b1110});
  EXPECT_EQ(reading(case_when_rows_reading(3, branches, 4)), RowWords{0b0110});
  EXPECT_EQ(reading(case_when_rows_reading(4, branches, 4)), RowWords{0b1000});
  // The registered functions read by these rules (nvl as coalesce); nullif reads every row.
  const Datum nvl_arguments[] = {numbers(), numbers()};
  EXPECT_EQ(reading(default_registry().get("nvl").rows_reading(1, nvl_arguments, 4)),
            RowWords{0b1010});
  EXPECT_EQ(reading(default_registry().get("ifnull").rows_reading(1, nvl_arguments, 4)),
            RowWords{0b1010});
  EXPECT_FALSE(default_registry().get("nullif").rows_reading(1, nvl_arguments, 4).has_value());
  const Datum membership[] = {make_array<int64_t>({1, 2, nullopt, 4}),
                              make_array<int64_t>({1, 5, 6, nullopt}), numbers()};
  EXPECT_EQ(reading(in_rows_reading(2, membership, 4)), RowWords{0b1010});
  // More than one word of rows.
  std::vector<std::optional<bool>> many(130, false);
  many[129] = true;
  const Datum long_condition[] = {make_array<bool>(many), Datum(), Datum()};
  const RowWords taken = reading(if_rows_reading(1, long_condition, 130));
  EXPECT_EQ(taken, (RowWords{0, 0, 0b10}));
  EXPECT_EQ(reading(if_rows_reading(2, long_condition, 130)),
            (RowWords{~uint64_t{0}, ~uint64_t{0}, 0b01}));
}

TEST(LazyCastTest, TryFunctionsGiveNullForMalformedStrings) {
  const Datum one = Datum::scalar(make_array<int32_t>({1}));
  const Datum two = Datum::scalar(make_array<int32_t>({2}));
  // SELECT try_add('abc', 1): NULL of type BIGINT.
  const Datum scalar = run("try_add", {string_scalar("abc"), one});
  ASSERT_TRUE(scalar.is_scalar());
  EXPECT_TRUE(scalar.scalar_is_null());
  EXPECT_TRUE(scalar.type()->equals(*int64()));
  expect_array(run("try_add", {other_texts(), one}), make_array<int64_t>({nullopt, 6, nullopt, 7}));
  expect_array(run("try_add", {one, other_texts()}), make_array<int64_t>({nullopt, 6, nullopt, 7}));
  expect_array(run("try_subtract", {other_texts(), one}),
               make_array<int64_t>({nullopt, 4, nullopt, 5}));
  expect_array(run("try_multiply", {other_texts(), two}),
               make_array<int64_t>({nullopt, 10, nullopt, 12}));
  expect_array(run("try_mod", {other_texts(), two}), make_array<int64_t>({nullopt, 1, nullopt, 0}));
  // try_divide(s, x) over ('abc', 0), ('abc', 2), ('6', 0), ('6', 2).
  expect_array(run("try_divide", {make_string_array({"abc", "abc", "6", "6"}),
                                  make_array<int32_t>({0, 2, 0, 2})}),
               make_array<double>({nullopt, nullopt, nullopt, 3.0}));
  // The plain functions still raise on those values.
  EXPECT_TRUE(cast_error("+", {other_texts(), one}).starts_with("[CAST_INVALID_INPUT]"));
}

/// A cast that hands back its input, to see what `cast_where_read` passes it.
class EchoCast final : public ScalarFunction {
 public:
  EchoCast() : ScalarFunction("cast", {1, 1}, NullHandling::kPropagates, "Echoes.") {}
  std::vector<Signature> signatures() const override { return parse_signatures({"(any) -> any"}); }
  Resolution resolve(std::span<const TypePtr> arguments, const FunctionOptions&) const override {
    return {arguments[0], {arguments[0]}};
  }
  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext&) const override {
    return arguments[0];
  }
};

TEST(LazyCastTest, CastInputIsAViewOfTheArgument) {
  const Function& plus = default_registry().get("+");
  const EchoCast echo;
  ExecContext context;
  const Array text = texts();
  // No null before the argument: the cast gets the argument itself, no bitmap is made.
  const Datum no_nulls[] = {make_array<int32_t>({1, 2, 3, 4}), text};
  EXPECT_FALSE(plus.rows_reading(1, no_nulls, 4).has_value());
  const Datum same = cast_where_read(plus, 1, no_nulls, 4, echo, int64(), context);
  EXPECT_EQ(same.data().get(), text.data().get());
  // With nulls: the same values, a new validity.
  const Datum with_nulls[] = {numbers(), text};
  const Datum view = cast_where_read(plus, 1, with_nulls, 4, echo, int64(), context);
  EXPECT_EQ(view.data()->buffers[1], text.data()->buffers[1]);
  EXPECT_EQ(view.data()->buffers[2], text.data()->buffers[2]);
  EXPECT_TRUE(view.array().equals(make_string_array({"2", nullopt, "4", nullopt})));
  // A widening cast cannot raise: it gets the argument itself.
  const Array ints = make_array<int32_t>({5, 6, 7, 8});
  const Datum widened[] = {make_array<int64_t>({1, nullopt, 3, nullopt}), ints};
  EXPECT_EQ(cast_where_read(plus, 1, widened, 4, echo, int64(), context).data().get(),
            ints.data().get());
  // Rows already null in the argument need no new bitmap either.
  const Array sparse = make_string_array({"2", nullopt, "4", nullopt});
  const Datum sparse_arguments[] = {numbers(), sparse};
  EXPECT_EQ(cast_where_read(plus, 1, sparse_arguments, 4, echo, int64(), context).data().get(),
            sparse.data().get());
}

}  // namespace
}  // namespace bowstring::compute
