// Every signature a registered function lists whose argument and result types are concrete
// Spark types (int, string, date...) is resolved with those types: the result type must be the
// one listed. Signatures over type classes (T, any, numeric, decimal(p, s)...) or repeated
// arguments are not instantiated here.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/compute/core/function.h"

namespace bowstring::compute {
namespace {

/// The Arrow type Bowstring computes the Spark type `name` with, or nullptr when `name` is not
/// a concrete type.
TypePtr concrete_type(std::string_view name) {
  if (const size_t colon = name.find(": "); colon != std::string_view::npos) {
    name.remove_prefix(colon + 2);  // a named parameter, "pos: int"
  }
  if (name == "boolean") return boolean();
  if (name == "int") return int32();
  if (name == "bigint") return int64();
  if (name == "float") return float32();
  if (name == "double") return float64();
  if (name == "string") return utf8();
  if (name == "binary") return binary();
  if (name == "date") return date32();
  if (name == "timestamp") return timestamp(TimeUnit::kMicro, "UTC");
  if (name == "array<string>") return list(utf8());
  return nullptr;
}

std::vector<std::string_view> split_arguments(std::string_view text) {
  std::vector<std::string_view> parts;
  while (!text.empty()) {
    const size_t comma = text.find(", ");
    parts.push_back(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 2);
  }
  return parts;
}

/// A signature instantiated with concrete types: the arguments of one call and its result.
struct Instance {
  std::vector<TypePtr> arguments;
  TypePtr result;
};

/// The calls `signature` ("(string, pos: int[, len: int]) -> string") stands for, one per
/// number of trailing optional arguments given; nullopt when any type is not concrete or the
/// form is not a list of arguments with nested trailing optional ones.
std::optional<std::vector<Instance>> instantiate(std::string_view signature) {
  const size_t arrow = signature.find(") -> ");
  if (signature.empty() || signature.front() != '(' || arrow == std::string_view::npos) {
    return std::nullopt;
  }
  const TypePtr result = concrete_type(signature.substr(arrow + 5));
  std::string_view arguments = signature.substr(1, arrow - 1);
  if (result == nullptr || arguments.find("...") != std::string_view::npos ||
      arguments.find('|') != std::string_view::npos) {
    return std::nullopt;
  }
  // "a, b[, c[, d]]": the required list, then each optional one inside the brackets before.
  std::vector<std::vector<std::string_view>> groups;
  while (true) {
    const size_t open = arguments.find('[');
    groups.push_back(split_arguments(arguments.substr(0, open)));
    if (open == std::string_view::npos) break;
    arguments = arguments.substr(open + 1);
    if (!arguments.starts_with(", ") && !groups.back().empty()) return std::nullopt;
    if (arguments.starts_with(", ")) arguments.remove_prefix(2);
    while (arguments.ends_with("]")) arguments.remove_suffix(1);
  }
  std::vector<Instance> instances;
  std::vector<TypePtr> types;
  for (const std::vector<std::string_view>& group : groups) {
    for (const std::string_view name : group) {
      const TypePtr type = concrete_type(name);
      if (type == nullptr) return std::nullopt;
      types.push_back(type);
    }
    instances.push_back({types, result});
  }
  return instances;
}

TEST(SignaturesTest, InstantiatingReadsOptionalAndNamedArguments) {
  const auto instances = instantiate("(string, pos: int[, len: int]) -> string");
  ASSERT_TRUE(instances.has_value());
  ASSERT_EQ(instances->size(), 2u);
  EXPECT_EQ((*instances)[0].arguments.size(), 2u);
  EXPECT_EQ((*instances)[1].arguments.size(), 3u);
  EXPECT_TRUE((*instances)[1].arguments[2]->equals(*int32()));
  EXPECT_EQ(instantiate("() -> date")->front().arguments.size(), 0u);
  EXPECT_FALSE(instantiate("(T, T) -> T").has_value());
  EXPECT_FALSE(instantiate("(string...) -> string").has_value());
  EXPECT_FALSE(instantiate("(numeric) -> double").has_value());
}

TEST(SignaturesTest, ConcreteSignaturesResolveToTheListedResult) {
  int checked = 0;
  for (const Function* function : default_registry().functions()) {
    for (const std::string& signature : function->signatures()) {
      const auto instances = instantiate(signature);
      if (!instances.has_value()) continue;
      for (const Instance& instance : *instances) {
        SCOPED_TRACE(function->name() + " " + signature + " with " +
                     std::to_string(instance.arguments.size()) + " arguments");
        const auto arity = function->arity();
        const auto count = static_cast<int>(instance.arguments.size());
        ASSERT_TRUE(count >= arity.min_args && (arity.max_args < 0 || count <= arity.max_args))
            << "the signature lists a number of arguments the arity refuses";
        const Resolution resolution = function->resolve(instance.arguments, {});
        EXPECT_TRUE(resolution.output->equals(*instance.result))
            << "resolves to " << resolution.output->to_string() << ", the signature says "
            << instance.result->to_string();
        ++checked;
      }
    }
  }
  // Most functions of the registry have such a signature; a change that loses them fails here.
  EXPECT_GT(checked, 80);
}

}  // namespace
}  // namespace bowstring::compute
