#include "bowstring/compute/core/function.h"

#include <gtest/gtest.h>

#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/suggest.h"

namespace bowstring::compute {
namespace {

using testing::error_message;
using testing::make_array;

// int64 + int64 with nulls propagated: enough of a function to exercise the registry.
class AddInt64 final : public ScalarFunction {
 public:
  AddInt64() : ScalarFunction("add_int64", {2, 2}, NullHandling::kPropagates, "Adds.") {}
  std::vector<Signature> signatures() const override {
    return parse_signatures({"(bigint, bigint) -> bigint"});
  }
  Resolution resolve(std::span<const TypePtr> arguments, const FunctionOptions&) const override {
    for (const TypePtr& type : arguments) {
      if (type->id() != TypeId::kInt64 && type->id() != TypeId::kInt32) {
        throw AnalysisError("DATATYPE_MISMATCH",
                            "add_int64 takes integers, not " + spark_type_name(*type));
      }
    }
    return {int64(), {int64(), int64()}};
  }
  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext& context) const override {
    const bool scalars = arguments[0].is_scalar() && arguments[1].is_scalar();
    const int64_t length = scalars ? 1 : std::max(arguments[0].length(), arguments[1].length());
    int64_t null_count = 0;
    auto validity = and_validity(arguments, length, context.allocator, &null_count);
    OutputValues<int64_t> out(length, context.allocator);
    const Int64Array left(arguments[0].array());
    const Int64Array right(arguments[1].array());
    for (int64_t i = 0; i < length; ++i) {
      out.data()[i] = left.value(arguments[0].is_scalar() ? 0 : i) +
                      right.value(arguments[1].is_scalar() ? 0 : i);
    }
    Array result = make_fixed_width_array(int64(), length, validity, null_count, out.finish());
    return scalars ? Datum::scalar(result) : Datum(result);
  }
};

// Widens int32 to int64 so that `call` has a cast to apply.
class WidenCast final : public ScalarFunction {
 public:
  WidenCast() : ScalarFunction("cast", {1, 1}, NullHandling::kPropagates, "Casts.") {}
  std::vector<Signature> signatures() const override {
    return parse_signatures({"(int) -> bigint"});
  }
  Resolution resolve(std::span<const TypePtr>, const FunctionOptions&) const override {
    return {int64(), {int32()}};
  }
  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext&) const override {
    const Int32Array values(arguments[0].array());
    Int64Builder builder;
    for (int64_t i = 0; i < values.length(); ++i) {
      if (values.is_null(i)) {
        builder.append_null();
      } else {
        builder.append(values.value(i));
      }
    }
    Array result = builder.finish();
    return arguments[0].is_scalar() ? Datum::scalar(result) : Datum(result);
  }
};

// Sums int64 per group; state is the sums.
class SumAggregator final : public GroupedAggregator {
 public:
  void resize(int64_t num_groups) override { sums_.resize(static_cast<size_t>(num_groups)); }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    const Int64Array values(arguments[0].array());
    for (size_t i = 0; i < group_ids.size(); ++i) {
      if (values.is_valid(static_cast<int64_t>(i))) {
        sums_[group_ids[i]] += values.value(static_cast<int64_t>(i));
      }
    }
  }
  std::vector<TypePtr> state_types() const override { return {int64()}; }
  std::vector<Array> state() override { return {finish()}; }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    const Int64Array sums(state[0]);
    for (size_t i = 0; i < group_ids.size(); ++i) {
      sums_[group_ids[i]] += sums.value(static_cast<int64_t>(i));
    }
  }
  Array finish() override {
    Int64Builder builder;
    for (int64_t sum : sums_) {
      builder.append(sum);
    }
    return builder.finish();
  }

 private:
  std::vector<int64_t> sums_;
};

class SumInt64 final : public AggregateFunction {
 public:
  SumInt64() : AggregateFunction("sum_int64", {1, 1}, NullHandling::kCustom, "Sums.") {}
  std::vector<Signature> signatures() const override {
    return parse_signatures({"(bigint) -> bigint"});
  }
  Resolution resolve(std::span<const TypePtr>, const FunctionOptions&) const override {
    return {int64(), {int64()}};
  }
  std::unique_ptr<GroupedAggregator> make_aggregator(std::span<const TypePtr>,
                                                     const FunctionOptions&,
                                                     ExecContext&) const override {
    return std::make_unique<SumAggregator>();
  }
};

FunctionRegistry test_registry() {
  FunctionRegistry registry;
  registry.add(std::make_shared<AddInt64>(), {"plus"});
  registry.add(std::make_shared<WidenCast>());
  registry.add(std::make_shared<SumInt64>());
  return registry;
}

TEST(FunctionRegistryTest, FindsFunctionsByAnyNameIgnoringCase) {
  const FunctionRegistry registry = test_registry();
  EXPECT_EQ(registry.find("ADD_INT64"), registry.find("Plus"));
  EXPECT_NE(registry.find("plus"), nullptr);
  EXPECT_EQ(registry.find("minus"), nullptr);
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"add_int64", "cast", "plus", "sum_int64"}));
  EXPECT_EQ(registry.names_of(*registry.find("plus")),
            (std::vector<std::string>{"add_int64", "plus"}));
  ASSERT_EQ(registry.functions().size(), 3u);
  EXPECT_EQ(registry.functions()[0]->name(), "add_int64");
}

TEST(FunctionRegistryTest, RefusesATakenName) {
  FunctionRegistry registry = test_registry();
  EXPECT_EQ(error_message<InvalidArgument>(
                [&] { registry.add(std::make_shared<SumInt64>(), {"other"}); }),
            "a function named 'sum_int64' is already registered");
  EXPECT_EQ(registry.find("other"), nullptr);
}

TEST(FunctionRegistryTest, UnknownNamesSuggestTheClosest) {
  const FunctionRegistry registry = test_registry();
  const std::string message = error_message<AnalysisError>([&] { registry.get("sum_in64"); });
  EXPECT_EQ(message,
            "[UNRESOLVED_ROUTINE] Cannot resolve routine `sum_in64`. Did you mean one of "
            "[`sum_int64`, `add_int64`, `cast`]?");
}

TEST(FunctionCallTest, ChecksTheArgumentCount) {
  const FunctionRegistry registry = test_registry();
  const Datum one[] = {Datum(make_array<int64_t>({1}))};
  EXPECT_EQ(error_message<AnalysisError>([&] { call("plus", one, {}, nullptr, registry); }),
            "[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The `add_int64` requires 2 parameters but the "
            "actual number is 1.");
}

TEST(FunctionCallTest, AppliesImplicitCastsAndBroadcastsScalars) {
  const FunctionRegistry registry = test_registry();
  const Array values = make_array<int32_t>({1, std::nullopt, 3, 4}).slice(1);
  const Datum arguments[] = {Datum(values), Datum::scalar(make_array<int64_t>({10}))};
  const Datum result = call("plus", arguments, {}, nullptr, registry);
  ASSERT_TRUE(result.is_array());
  EXPECT_TRUE(result.array().equals(make_array<int64_t>({std::nullopt, 13, 14})));
}

TEST(FunctionCallTest, ImplicitCastsNeedTheRegistrysCast) {
  FunctionRegistry registry;
  registry.add(std::make_shared<AddInt64>());
  const Datum arguments[] = {Datum(make_array<int32_t>({1})), Datum(make_array<int64_t>({2}))};
  const std::string message =
      error_message<AnalysisError>([&] { call("add_int64", arguments, {}, nullptr, registry); });
  EXPECT_EQ(message.rfind("[UNRESOLVED_ROUTINE] Cannot resolve routine `cast`", 0), 0u) << message;
}

TEST(FunctionCallTest, ScalarArgumentsGiveAScalar) {
  const FunctionRegistry registry = test_registry();
  const Datum arguments[] = {Datum::scalar(make_array<int64_t>({2})), Datum::null_scalar(int64())};
  const Datum result = call("plus", arguments, {}, nullptr, registry);
  ASSERT_TRUE(result.is_scalar());
  EXPECT_TRUE(result.scalar_is_null());
}

TEST(FunctionCallTest, RefusesArraysOfDifferentLengths) {
  const FunctionRegistry registry = test_registry();
  const Datum arguments[] = {Datum(make_array<int64_t>({1, 2})), Datum(make_array<int64_t>({1}))};
  EXPECT_EQ(error_message<InvalidArgument>([&] { call("plus", arguments, {}, nullptr, registry); }),
            "the arguments of `add_int64` have different lengths: 2 and 1");
}

TEST(FunctionCallTest, TypeErrorsComeFromResolve) {
  const FunctionRegistry registry = test_registry();
  const Datum arguments[] = {Datum(make_array<double>({1.5})), Datum(make_array<int64_t>({1}))};
  EXPECT_EQ(error_message<AnalysisError>([&] { call("plus", arguments, {}, nullptr, registry); }),
            "[DATATYPE_MISMATCH] add_int64 takes integers, not DOUBLE");
}

// Its result type tells what `resolve_with` saw: INT with ANSI on, BIGINT without; DOUBLE
// when the argument is known to be a constant, FLOAT when it is known to vary by row.
class ContextProbe final : public ScalarFunction {
 public:
  ContextProbe() : ScalarFunction("probe", {1, 1}, NullHandling::kPropagates, "Probes.") {}
  std::vector<Signature> signatures() const override { return parse_signatures({"(any) -> any"}); }
  Resolution resolve(std::span<const TypePtr> arguments, const FunctionOptions&) const override {
    return {int8(), {arguments[0]}};
  }
  Resolution resolve_with(std::span<const TypePtr> arguments, const FunctionOptions&,
                          const ResolveContext& context) const override {
    if (context.constant(0) != nullptr) {
      return remember({float64(), {arguments[0]}});
    }
    if (context.varies(0)) {
      return remember({float32(), {arguments[0]}});
    }
    return remember({context.ansi ? int32() : int64(), {arguments[0]}});
  }
  Datum execute(std::span<const Datum>, const FunctionOptions&, ExecContext&) const override {
    return Datum::null_scalar(resolved_);
  }

 private:
  Resolution remember(Resolution resolution) const {
    resolved_ = resolution.output;
    return resolution;
  }
  mutable TypePtr resolved_ = null();
};

TEST(ResolveContextTest, DefaultCallsResolveAndCallPassesTheFlagAndConstants) {
  const AddInt64 add;
  const TypePtr types[] = {int32(), int64()};
  EXPECT_TRUE(add.resolve_with(types, {}, ResolveContext{false, {}}).output->equals(*int64()));

  const ContextProbe probe;
  const TypePtr one[] = {int32()};
  EXPECT_TRUE(probe.resolve_with(one, {}, ResolveContext{}).output->equals(*int32()));
  EXPECT_TRUE(probe.resolve_with(one, {}, ResolveContext{false, {}}).output->equals(*int64()));
  const Datum value = Datum::scalar(make_array<int32_t>({1}));
  const Datum* constant[] = {&value};
  const ResolveContext with_constant{true, constant};
  EXPECT_EQ(with_constant.constant(0), &value);
  EXPECT_TRUE(probe.resolve_with(one, {}, with_constant).output->equals(*float64()));
  EXPECT_EQ(ResolveContext{}.constant(0), nullptr);
  EXPECT_FALSE(ResolveContext{}.varies(0));
  const Datum* varying[] = {nullptr};
  const ResolveContext with_column{true, varying};
  EXPECT_TRUE(with_column.varies(0));
  EXPECT_TRUE(probe.resolve_with(one, {}, with_column).output->equals(*float32()));

  // `call` passes the flag and its scalars as constants: the probe returns a null of the type
  // it resolved.
  FunctionRegistry registry;
  registry.add(std::make_shared<ContextProbe>());
  const Datum scalar[] = {value};
  EXPECT_TRUE(call("probe", scalar, {}, nullptr, registry).type()->equals(*float64()));
  const Datum column[] = {Datum(make_array<int32_t>({1}))};
  EXPECT_TRUE(call("probe", column, {}, nullptr, registry).type()->equals(*float32()));
}

// Spark with spark.sql.ansi.enabled=false: '10' + 4 = 14.0 and '10.5' / 4 = 2.625 (DOUBLE),
// '1' + '2' = 3.0, 'x' + 1 = NULL, '10' % 3 = 1.0, '10' * CAST(2 AS DECIMAL(5,2)) = 20.0
// (DOUBLE), NULL + '1' is DOUBLE; '10' div 4 is BINARY_OP_DIFF_TYPES ("DOUBLE" and "BIGINT").
// With ANSI on, '10' + 4 = 14 (BIGINT).
TEST(ResolveContextTest, StringArithmeticWithoutAnsiIsDouble) {
  ExecContext legacy;
  legacy.ansi = false;
  auto run = [](std::string_view name, std::vector<Datum> arguments, ExecContext* context) {
    return call(name, arguments, {}, context);
  };
  const Array text = testing::make_string_array({"9", "10", "10.5", "x", std::nullopt}).slice(1);
  const Datum four = Datum::scalar(make_array<int32_t>({4}));
  EXPECT_TRUE(run("+", {text, four}, &legacy)
                  .array()
                  .equals(make_array<double>({14.0, 14.5, std::nullopt, std::nullopt})));
  EXPECT_TRUE(run("/", {text.slice(1), four}, &legacy)
                  .array()
                  .equals(make_array<double>({2.625, std::nullopt, std::nullopt})));
  EXPECT_TRUE(
      run("try_add", {text.slice(0, 1), four}, &legacy).array().equals(make_array<double>({14.0})));
  const Datum one = Datum::scalar(testing::make_string_array({"1"}));
  const Datum two = Datum::scalar(testing::make_string_array({"2"}));
  const Datum sum = run("+", {one, two}, &legacy);
  EXPECT_TRUE(sum.is_scalar() && sum.array().equals(make_array<double>({3.0})));
  EXPECT_TRUE(run("%", {text.slice(0, 1), Datum::scalar(make_array<int32_t>({3}))}, &legacy)
                  .array()
                  .equals(make_array<double>({1.0})));
  const Datum price = Datum::scalar(testing::make_decimal_array(decimal128(5, 2), {"2.00"}));
  EXPECT_TRUE(
      run("*", {text.slice(0, 1), price}, &legacy).array().equals(make_array<double>({20.0})));
  EXPECT_TRUE(run("+", {Datum::null_scalar(null()), one}, &legacy).type()->equals(*float64()));
  EXPECT_EQ(error_message<AnalysisError>([&] {
              run("div", {text, four}, &legacy);
            }),
            "[DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES] Cannot resolve \"div\" due to data type "
            "mismatch: the left and right operands of the binary operator have incompatible types "
            "(\"DOUBLE\" and \"BIGINT\").");
  EXPECT_TRUE(
      run("+", {text.slice(0, 1), four}, nullptr).array().equals(make_array<int64_t>({14})));
}

// Spark with ANSI off: NOT 'x' is DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE (The first parameter
// requires the "BOOLEAN" type, however "x" has the type "STRING"), 'x' AND true and NULL AND 'x'
// are BINARY_OP_DIFF_TYPES ("STRING" and "BOOLEAN"; "VOID" and "STRING"), 'true' AND 'true' is
// BINARY_OP_WRONG_TYPE. With ANSI on the strings are cast: NOT 'true' = false.
TEST(ResolveContextTest, LogicRefusesStringsWithoutAnsi) {
  ExecContext legacy;
  legacy.ansi = false;
  const Datum text = Datum::scalar(testing::make_string_array({"true"}));
  const Datum yes = Datum::scalar(make_array<bool>({true}));
  auto condition = [&](std::string_view name, std::vector<Datum> arguments) {
    try {
      call(name, arguments, {}, &legacy);
    } catch (const AnalysisError& error) {
      return error.condition();
    }
    return std::string("none");
  };
  EXPECT_EQ(condition("not", {text}), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
  EXPECT_EQ(condition("and", {text, yes}), "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES");
  EXPECT_EQ(condition("or", {yes, text}), "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES");
  EXPECT_EQ(condition("and", {Datum::null_scalar(null()), text}),
            "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES");
  EXPECT_EQ(condition("and", {text, text}), "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE");
  EXPECT_EQ(condition("and", {Datum::null_scalar(null()), yes}), "none");
  const Datum negated = call("not", std::vector<Datum>{text});
  EXPECT_TRUE(negated.array().equals(make_array<bool>({false})));
}

// Spark: CAST(1 AS BINARY), CAST(true AS TIMESTAMP), CAST(TIMESTAMP'2020-01-01' AS BOOLEAN) and
// CAST(DATE'2020-01-01' AS BOOLEAN) are refused by analysis with ANSI on
// (CAST_WITH_CONF_SUGGESTION), even with no rows; with ANSI off they run.
TEST(ResolveContextTest, CastsOnlyAllowedWithoutAnsiAreRefusedBeforeExecution) {
  const Function& cast = default_registry().get("cast");
  const FunctionOptions to_binary{{"to", binary()}};
  const TypePtr ints[] = {int32()};
  EXPECT_EQ(
      error_message<AnalysisError>([&] { cast.resolve_with(ints, to_binary, ResolveContext{}); }),
      "[DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION] Cannot resolve \"CAST\" due to data "
      "type mismatch: cannot cast \"INT\" to \"BINARY\" with ANSI mode on. If you have to "
      "cast \"INT\" to \"BINARY\", you can set \"spark.sql.ansi.enabled\" as 'false'.");
  EXPECT_NO_THROW(cast.resolve_with(ints, to_binary, ResolveContext{false, {}}));
  const TypePtr dates[] = {date32()};
  EXPECT_THROW(cast.resolve_with(dates, {{"to", boolean()}}, ResolveContext{}), AnalysisError);
  const TypePtr booleans[] = {boolean()};
  EXPECT_THROW(default_registry()
                   .get("try_cast")
                   .resolve_with(booleans, {{"to", timestamp(TimeUnit::kMicro, "UTC")}},
                                 ResolveContext{false, {}}),
               AnalysisError);
  const Datum empty[] = {Datum(make_array<bool>({}))};
  EXPECT_THROW(call("cast", empty, {{"to", timestamp(TimeUnit::kMicro, "UTC")}}), AnalysisError);
}

TEST(FunctionCallTest, AggregatesFoldEveryRowIntoAScalar) {
  const FunctionRegistry registry = test_registry();
  const Datum arguments[] = {Datum(make_array<int64_t>({5, 1, std::nullopt, 2}).slice(1))};
  const Datum result = call("sum_int64", arguments, {}, nullptr, registry);
  ASSERT_TRUE(result.is_scalar());
  EXPECT_TRUE(result.array().equals(make_array<int64_t>({3})));
}

TEST(FunctionCallTest, AggregatesSeeEveryRowOfLongInputs) {
  const FunctionRegistry registry = test_registry();
  Int64Builder builder;
  int64_t expected = 0;
  for (int64_t i = 0; i < 200'000; ++i) {
    builder.append(i % 7);
    expected += i % 7;
  }
  const Datum arguments[] = {Datum(builder.finish().slice(3))};
  const Datum result = call("sum_int64", arguments, {}, nullptr, registry);
  EXPECT_TRUE(result.array().equals(make_array<int64_t>({expected - 0 - 1 - 2})));
}

TEST(DatumTest, ScalarsHoldOneValue) {
  EXPECT_EQ(error_message<InvalidArgument>([] {
              Datum::scalar(make_array<int64_t>({1, 2}));
            }),
            "a scalar is an array of one value, got 2 values");
  const Datum five = Datum::scalar(make_array<int64_t>({5}));
  EXPECT_TRUE(five.is_scalar());
  EXPECT_FALSE(five.scalar_is_null());
  EXPECT_EQ(five.to_string(), "scalar [5]");
  EXPECT_TRUE(five.to_array(3).equals(make_array<int64_t>({5, 5, 5})));
  EXPECT_TRUE(Datum::null_scalar(utf8()).to_array(2).equals(
      testing::make_string_array({std::nullopt, std::nullopt})));
}

TEST(DatumTest, RepeatWorksForEveryLayout) {
  const Array strings = testing::make_string_array({"a", std::nullopt, "ccc"}).slice(1);
  EXPECT_TRUE(repeat(strings, 3)
                  .equals(testing::make_string_array(
                      {std::nullopt, "ccc", std::nullopt, "ccc", std::nullopt, "ccc"})));
  EXPECT_EQ(repeat(strings, 0).length(), 0);
  const Array ints = make_array<int16_t>({7, 8});
  EXPECT_TRUE(repeat(ints, 2).equals(make_array<int16_t>({7, 8, 7, 8})));
  EXPECT_THROW(repeat(ints, -1), InvalidArgument);
}

TEST(KernelUtilTest, AndValidityCombinesSlicesAndScalars) {
  const Array left = make_array<int64_t>({0, 1, std::nullopt, 3, 4}).slice(1);
  const Array right = make_array<int64_t>({std::nullopt, 1, 2, 3, std::nullopt}).slice(1);
  const Datum arguments[] = {Datum(left), Datum(right)};
  int64_t null_count = 0;
  auto validity = and_validity(arguments, 4, default_allocator(), &null_count);
  ASSERT_NE(validity, nullptr);
  EXPECT_EQ(null_count, 2);
  const Array combined = make_fixed_width_array(int64(), 4, validity, null_count,
                                                Buffer::zeros(32, default_allocator()));
  EXPECT_TRUE(combined.is_valid(0));
  EXPECT_TRUE(combined.is_null(1));
  EXPECT_TRUE(combined.is_valid(2));
  EXPECT_TRUE(combined.is_null(3));

  const Datum with_null_scalar[] = {Datum(left), Datum::null_scalar(int64())};
  validity = and_validity(with_null_scalar, 4, default_allocator(), &null_count);
  EXPECT_EQ(null_count, 4);
  const Datum without_nulls[] = {Datum(make_array<int64_t>({1, 2}))};
  EXPECT_EQ(and_validity(without_nulls, 2, default_allocator(), &null_count), nullptr);
  EXPECT_EQ(null_count, 0);
}

TEST(KernelUtilTest, ForEachSetBitVisitsValidRowsInOrder) {
  const Array values = make_array<int64_t>({1, std::nullopt, 3}).slice(1);
  std::vector<int64_t> visited;
  for_each_set_bit(values.data()->buffers[0]->data(), values.offset(), values.length(),
                   [&](int64_t i) { visited.push_back(i); });
  EXPECT_EQ(visited, (std::vector<int64_t>{1}));
}

TEST(KernelUtilTest, ForEachSetBitReadsWholeWordsAndPartialOnes) {
  std::vector<std::optional<int64_t>> values;
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < 300; ++i) {
    const bool valid = i % 3 == 0 || i % 7 == 0;
    values.push_back(valid ? std::optional<int64_t>(i) : std::nullopt);
  }
  for (const int64_t offset : {0, 8, 5}) {
    const Array sliced = make_array<int64_t>(values).slice(offset);
    expected.clear();
    for (int64_t i = 0; i < sliced.length(); ++i) {
      if (sliced.is_valid(i)) {
        expected.push_back(i);
      }
    }
    std::vector<int64_t> visited;
    for_each_set_bit(sliced.data()->buffers[0]->data(), sliced.offset(), sliced.length(),
                     [&](int64_t i) { visited.push_back(i); });
    EXPECT_EQ(visited, expected) << "offset " << offset;
  }
}

TEST(SuggestTest, ClosestNamesByEditDistance) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("Name", "name"), 0u);
  const std::vector<std::string> names{"name", "age", "nmae_x", "city"};
  EXPECT_EQ(closest_names("nmae", names, 2), (std::vector<std::string>{"name", "nmae_x"}));
}

TEST(SparkErrorTest, MessageStartsWithTheCondition) {
  const ArithmeticError error("DIVIDE_BY_ZERO", "Division by zero.");
  EXPECT_STREQ(error.what(), "[DIVIDE_BY_ZERO] Division by zero.");
  EXPECT_EQ(error.condition(), "DIVIDE_BY_ZERO");
}

}  // namespace
}  // namespace bowstring::compute
