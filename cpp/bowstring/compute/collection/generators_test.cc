#include "bowstring/compute/collection/generators.h"

#include <gtest/gtest.h>

#include "bowstring/compute/collection/collection_testing.h"
#include "bowstring/compute/core/errors.h"

namespace bowstring::compute {
namespace {

using namespace collection::testing;  // NOLINT(google-build-using-namespace)
using bowstring::testing::make_array;

struct Generated {
  FieldVector fields;
  GeneratorResult result;
};

Generated generate(std::string_view name, std::vector<Datum> arguments) {
  const Generator* generator = find_generator(name);
  EXPECT_NE(generator, nullptr) << name;
  std::vector<TypePtr> types;
  std::vector<const Datum*> constants;
  for (const Datum& argument : arguments) {
    types.push_back(argument.type());
    constants.push_back(argument.is_scalar() ? &argument : nullptr);
  }
  ResolveContext resolve;
  resolve.constants = constants;
  ExecContext context;
  Generated generated{generator->output_fields(types, resolve),
                      generator->generate(arguments, context)};
  EXPECT_EQ(generated.fields.size(), generated.result.columns.size());
  for (size_t i = 0; i < generated.fields.size(); ++i) {
    const Array& column = generated.result.columns[i];
    EXPECT_NO_THROW(column.validate_full());
    EXPECT_TRUE(column.type()->equals(*generated.fields[i]->type())) << column.type()->to_string();
    EXPECT_EQ(column.length(), generated.result.input_rows.length());
  }
  return generated;
}

std::vector<std::string> names(const FieldVector& fields) {
  std::vector<std::string> out;
  for (const FieldPtr& field : fields) {
    out.push_back(field->name());
  }
  return out;
}

void expect_column(const Generated& generated, size_t index, const Array& expected) {
  EXPECT_TRUE(generated.result.columns[index].equals(expected))
      << "got " << generated.result.columns[index].to_string() << "\nexpected "
      << expected.to_string();
}

void expect_rows(const Generated& generated, const std::vector<std::optional<int64_t>>& rows) {
  EXPECT_TRUE(generated.result.input_rows.equals(make_array<int64_t>(rows)))
      << generated.result.input_rows.to_string();
}

const IntLists kLists{Ints{1, kNull}, Ints{}, kNull, Ints{3}};

TEST(GeneratorsTest, ExplodeArrays) {
  const Generated exploded = generate("explode", {sliced_int_lists(kLists)});
  EXPECT_EQ(names(exploded.fields), (std::vector<std::string>{"col"}));
  expect_column(exploded, 0, ints({1, kNull, 3}));
  expect_rows(exploded, {0, 0, 3});

  const Generated outer = generate("explode_outer", {sliced_int_lists(kLists)});
  expect_column(outer, 0, ints({1, kNull, kNull, kNull, 3}));
  expect_rows(outer, {0, 0, 1, 2, 3});
}

TEST(GeneratorsTest, PosexplodeNumbersFromZero) {
  const Generated exploded = generate("posexplode", {int_lists(kLists)});
  EXPECT_EQ(names(exploded.fields), (std::vector<std::string>{"pos", "col"}));
  expect_column(exploded, 0, ints({0, 1, 0}));
  const Generated outer = generate("posexplode_outer", {int_lists(kLists)});
  expect_column(outer, 0, ints({0, 1, kNull, kNull, 0}));
  expect_rows(outer, {0, 0, 1, 2, 3});
}

TEST(GeneratorsTest, ExplodeMapsGivesKeyAndValue) {
  const Datum maps = call(
      "map_from_arrays",
      std::vector<Datum>{int_lists({Ints{1, 2}, kNull}), string_lists({Strings{"a", "b"}, kNull})});
  const Generated exploded = generate("posexplode_outer", {maps});
  EXPECT_EQ(names(exploded.fields), (std::vector<std::string>{"pos", "key", "value"}));
  expect_column(exploded, 1, ints({1, 2, kNull}));
  expect_column(exploded, 2, strings({"a", "b", kNull}));
  expect_rows(exploded, {0, 0, 1});
}

TEST(GeneratorsTest, InlineGivesStructFieldsAndNullsForNullStructs) {
  const Datum structs =
      call("array",
           std::vector<Datum>{
               call("named_struct", std::vector<Datum>{string_scalar("x"), ints({1, 2}),
                                                       string_scalar("y"), strings({"a", kNull})}),
           });
  const Generated inlined = generate("inline", {structs});
  EXPECT_EQ(names(inlined.fields), (std::vector<std::string>{"x", "y"}));
  expect_column(inlined, 0, ints({1, 2}));
  expect_column(inlined, 1, strings({"a", kNull}));
  expect_rows(inlined, {0, 1});
  EXPECT_EQ(condition_of([&] { generate("inline", {int_lists(kLists)}); }),
            "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
}

TEST(GeneratorsTest, StackSpreadsValuesOverRows) {
  const Generated stacked =
      generate("stack", {int_scalar(2), ints({1, 2}), strings({"a", "b"}), ints({3, 4})});
  EXPECT_EQ(names(stacked.fields), (std::vector<std::string>{"col0", "col1"}));
  expect_column(stacked, 0, ints({1, 3, 2, 4}));
  expect_column(stacked, 1, strings({"a", kNull, "b", kNull}));
  expect_rows(stacked, {0, 0, 1, 1});
  EXPECT_EQ(condition_of([&] {
              generate("stack", {int_scalar(2), int_scalar(1), string_scalar("a")});
            }),
            "DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES");
  EXPECT_EQ(condition_of([&] {
              generate("stack", {ints({1, 2}), int_scalar(1)});
            }),
            "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT");
}

TEST(GeneratorsTest, NamesAreListedAndLookedUpCaseInsensitively) {
  EXPECT_EQ(generator_names().size(), 7U);
  EXPECT_NE(find_generator("EXPLODE"), nullptr);
  EXPECT_EQ(find_generator("implode"), nullptr);
  EXPECT_EQ(condition_of([&] { generate("explode", {}); }), "WRONG_NUM_ARGS.WITHOUT_SUGGESTION");
}

}  // namespace
}  // namespace bowstring::compute
