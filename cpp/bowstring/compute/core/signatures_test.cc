// The signatures functions list are typed (core/signature.h), read from text checked when a
// function is registered; and every signature of the registry is instantiated here with
// concrete types (a representative few per type class and type variable), resolved, and its
// result compared with what the signature declares.

#include "bowstring/compute/core/signature.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/lambda_function.h"
#include "bowstring/types/spark_type_names.h"

namespace bowstring::compute {
namespace {

TypePtr spark(std::string_view name) { return parse_spark_type(name, "UTC"); }

TEST(SignaturesTest, ParsesParametersOptionalGroupsAndPatterns) {
  const Signature substring = Signature::parse("(string, pos: int[, len: int]) -> string");
  ASSERT_EQ(substring.elements().size(), 3u);
  EXPECT_EQ(substring.elements()[1].name, "pos");
  EXPECT_TRUE(substring.elements()[1].type.type->equals(*int32()));
  ASSERT_TRUE(substring.elements()[2].is_group());
  EXPECT_EQ(substring.elements()[2].group[0].name, "len");
  EXPECT_TRUE(substring.result().type->equals(*utf8()));

  const Signature case_when = Signature::parse("(boolean, T[, boolean, T]...[, T]) -> T");
  ASSERT_EQ(case_when.elements().size(), 4u);
  EXPECT_TRUE(case_when.elements()[2].repeated);
  EXPECT_EQ(case_when.elements()[2].group.size(), 2u);
  EXPECT_FALSE(case_when.elements()[3].repeated);
  EXPECT_EQ(case_when.result().kind, TypePattern::Kind::kVariable);

  const Signature round = Signature::parse("(decimal(p, s)) -> decimal(p - s + 1, 0)");
  EXPECT_EQ(round.result().precision, (DecimalTerm{1, -1, 1}));
  EXPECT_EQ(round.result().scale, (DecimalTerm{0, 0, 0}));

  const Signature compare = Signature::parse("(T, T) -> boolean for every comparable T");
  EXPECT_EQ(compare.class_of("T"), TypeClass::kComparable);
  EXPECT_EQ(compare.class_of("U"), std::nullopt);

  const Signature cast = Signature::parse("(any, to: type) -> to");
  EXPECT_EQ(cast.result().kind, TypePattern::Kind::kTypeOf);

  const Signature concat_ws =
      Signature::parse("(sep: string, (string | array<string>)...) -> string");
  EXPECT_EQ(concat_ws.elements()[1].type.kind, TypePattern::Kind::kOneOf);
  EXPECT_TRUE(concat_ws.elements()[1].type.members[1].type->equals(*list(utf8())));
  EXPECT_TRUE(concat_ws.elements()[1].repeated);
  EXPECT_EQ(Signature::parse("(T) -> array<T>").result().kind, TypePattern::Kind::kArray);

  const Signature element_at = Signature::parse("(map<K, V>, key: K) -> V");
  EXPECT_EQ(element_at.elements()[0].type.kind, TypePattern::Kind::kMap);
  EXPECT_EQ(element_at.elements()[0].type.members[1].name, "V");
  EXPECT_EQ(element_at.to_string(), "(map<K, V>, key: K) -> V");
  const Signature nested = Signature::parse("(array<struct<a:int,b:string>>) -> map<string,int>");
  EXPECT_TRUE(nested.elements()[0].type.type->equals(
      *list(struct_({field("a", int32()), field("b", utf8())}))));
  EXPECT_TRUE(nested.result().type->equals(*map(utf8(), int32())));
}

TEST(SignaturesTest, MalformedTextIsRefused) {
  for (const char* text :
       {"(int, int) > int", "int -> int", "(int, int -> int", "(integer) -> int",
        "(decimal(p,s)) -> decimal(p, s)", "(intt) -> int", "(int) -> int trailing",
        "(int[]) -> int", "(T) -> boolean for every sortable T", "(int) -> to", "((int)) -> int",
        "(decimal(p, q)) -> int"}) {
    EXPECT_THROW(Signature::parse(text), InvalidArgument) << text;
  }
}

/// A function whose class lists a malformed signature.
class MalformedSignatureFunction final : public ScalarFunction {
 public:
  MalformedSignatureFunction()
      : ScalarFunction("g", {1, 1}, NullHandling::kPropagates, "A test function.") {}
  std::vector<Signature> signatures() const override { return parse_signatures({"(int -> int"}); }
  Resolution resolve(std::span<const TypePtr> arguments, const FunctionOptions&) const override {
    return {arguments[0], {arguments[0]}};
  }
  Datum execute(std::span<const Datum> arguments, const FunctionOptions&,
                ExecContext&) const override {
    return arguments[0];
  }
};

TEST(SignaturesTest, RegisteringAFunctionWithAMalformedSignatureFails) {
  const auto make = [](std::string signature) {
    return std::make_shared<LambdaScalarFunction>(
        "f", Function::Arity{1, 1}, NullHandling::kPropagates, "A test function.",
        std::vector<std::string>{std::move(signature)},
        [](const std::string&, std::span<const TypePtr> arguments) {
          return Resolution{arguments[0], {arguments[0]}};
        },
        [](std::span<const Datum> arguments, const TypePtr&, ExecContext&) {
          return arguments[0];
        });
  };
  FunctionRegistry registry;
  EXPECT_THROW(registry.add(make("(T) => T")), InvalidArgument);
  EXPECT_EQ(registry.find("f"), nullptr);
  registry.add(make("(T) -> T"));
  EXPECT_NE(registry.find("f"), nullptr);
  EXPECT_THROW(registry.add(std::make_shared<MalformedSignatureFunction>()), InvalidArgument);
  EXPECT_EQ(registry.find("g"), nullptr);
}

/// The parameters of one call a signature stands for, in order.
using Slots = std::vector<const SignatureElement*>;

/// Every call `elements` stand for with each optional group left out or given, and each
/// repeated parameter or group given 0, 1 or 2 times.
std::vector<Slots> expand(const std::vector<SignatureElement>& elements) {
  std::vector<Slots> calls{{}};
  for (const SignatureElement& element : elements) {
    std::vector<Slots> choices;
    if (element.is_group()) {
      choices.emplace_back();
      const std::vector<Slots> inner = expand(element.group);
      choices.insert(choices.end(), inner.begin(), inner.end());
      if (element.repeated) {
        for (const Slots& once : inner) {
          Slots twice = once;
          twice.insert(twice.end(), once.begin(), once.end());
          choices.push_back(twice);
        }
      }
    } else if (element.repeated) {
      choices = {{}, {&element}, {&element, &element}};
    } else {
      choices = {{&element}};
    }
    std::vector<Slots> next;
    for (const Slots& call : calls) {
      for (const Slots& choice : choices) {
        Slots longer = call;
        longer.insert(longer.end(), choice.begin(), choice.end());
        next.push_back(longer);
      }
    }
    calls = std::move(next);
  }
  return calls;
}

/// The concrete types standing for `type_class` in the instances.
std::vector<TypePtr> representatives(TypeClass type_class) {
  switch (type_class) {
    case TypeClass::kNumeric:
      return {int32(), int64(), float64(), spark("decimal(10,2)")};
    case TypeClass::kIntegral:
      return {int32(), int64()};
    case TypeClass::kDecimal:
      return {spark("decimal(10,2)")};
    case TypeClass::kOrderable:
    case TypeClass::kComparable:
      return {int32(), utf8(), date32()};
    case TypeClass::kAny:
    case TypeClass::kType:
      return {int32(), utf8()};
  }
  return {};
}

/// One call of a signature with concrete types.
struct Instance {
  std::vector<TypePtr> arguments;
  FunctionOptions options;
  std::map<std::string, TypePtr> variables;
  /// p and s of the decimal(p, s) parameter.
  int precision = 0;
  int scale = 0;
};

/// The concrete types `pattern` stands for in `instance` (whose variables bound so far stay),
/// each with the instance it extends it to (a new variable bound, p and s set).
std::vector<std::pair<TypePtr, Instance>> candidates(const TypePattern& pattern,
                                                     const Signature& signature,
                                                     const Instance& instance) {
  std::vector<std::pair<TypePtr, Instance>> found;
  switch (pattern.kind) {
    case TypePattern::Kind::kConcrete:
      found.emplace_back(pattern.type, instance);
      break;
    case TypePattern::Kind::kClass:
      for (const TypePtr& type : representatives(pattern.type_class)) {
        found.emplace_back(type, instance);
      }
      break;
    case TypePattern::Kind::kVariable: {
      if (const auto bound = instance.variables.find(pattern.name);
          bound != instance.variables.end()) {
        found.emplace_back(bound->second, instance);
        break;
      }
      for (const TypePtr& type :
           representatives(signature.class_of(pattern.name).value_or(TypeClass::kAny))) {
        Instance extended = instance;
        extended.variables[pattern.name] = type;
        found.emplace_back(type, std::move(extended));
      }
      break;
    }
    case TypePattern::Kind::kDecimal: {
      Instance extended = instance;
      extended.precision = 10;
      extended.scale = 2;
      found.emplace_back(spark("decimal(10,2)"), std::move(extended));
      break;
    }
    case TypePattern::Kind::kArray:
      for (auto& [element, extended] : candidates(pattern.members[0], signature, instance)) {
        found.emplace_back(list(element), std::move(extended));
      }
      break;
    case TypePattern::Kind::kMap:
      for (auto& [key, with_key] : candidates(pattern.members[0], signature, instance)) {
        for (auto& [value, extended] : candidates(pattern.members[1], signature, with_key)) {
          found.emplace_back(map(key, value), std::move(extended));
        }
      }
      break;
    case TypePattern::Kind::kOneOf:
      for (const TypePattern& member : pattern.members) {
        for (auto& candidate : candidates(member, signature, instance)) {
          found.push_back(std::move(candidate));
        }
      }
      break;
    case TypePattern::Kind::kTypeOf:
      ADD_FAILURE() << signature.to_string() << ": a parameter cannot be another's type";
      break;
  }
  return found;
}

std::vector<Instance> instantiate(const Signature& signature, const Slots& slots) {
  std::vector<Instance> instances{{}};
  for (const SignatureElement* slot : slots) {
    std::vector<Instance> next;
    for (const Instance& instance : instances) {
      for (auto& [type, extended] : candidates(slot->type, signature, instance)) {
        if (slot->type.kind == TypePattern::Kind::kClass &&
            slot->type.type_class == TypeClass::kType) {
          extended.options[slot->name] = type;
        } else {
          extended.arguments.push_back(type);
        }
        next.push_back(std::move(extended));
      }
    }
    instances = std::move(next);
  }
  return instances;
}

/// Whether `type` is what `pattern` declares for `instance`.
bool matches(const TypePattern& pattern, const DataType& type, const Signature& signature,
             const Instance& instance) {
  switch (pattern.kind) {
    case TypePattern::Kind::kConcrete:
      return type.equals(*pattern.type);
    case TypePattern::Kind::kClass:
      return in_type_class(type, pattern.type_class);
    case TypePattern::Kind::kVariable: {
      const auto bound = instance.variables.find(pattern.name);
      return bound != instance.variables.end()
                 ? type.equals(*bound->second)
                 : in_type_class(type, signature.class_of(pattern.name).value_or(TypeClass::kAny));
    }
    case TypePattern::Kind::kDecimal: {
      if (type.id() != TypeId::kDecimal128) return false;
      const auto& decimal = static_cast<const DecimalType&>(type);
      return decimal.precision() ==
                 pattern.precision.evaluate(instance.precision, instance.scale) &&
             decimal.scale() == pattern.scale.evaluate(instance.precision, instance.scale);
    }
    case TypePattern::Kind::kArray:
      return type.id() == TypeId::kList &&
             matches(pattern.members[0], *static_cast<const ListType&>(type).value_type(),
                     signature, instance);
    case TypePattern::Kind::kMap: {
      if (type.id() != TypeId::kMap) return false;
      const auto& map_type = static_cast<const MapType&>(type);
      return matches(pattern.members[0], *map_type.key_type(), signature, instance) &&
             matches(pattern.members[1], *map_type.item_type(), signature, instance);
    }
    case TypePattern::Kind::kOneOf:
      for (const TypePattern& member : pattern.members) {
        if (matches(member, type, signature, instance)) return true;
      }
      return false;
    case TypePattern::Kind::kTypeOf: {
      const auto option = instance.options.find(pattern.name);
      return option != instance.options.end() && type.equals(*std::get<TypePtr>(option->second));
    }
  }
  return false;
}

std::string type_list(const std::vector<TypePtr>& types) {
  std::string text = "(";
  for (size_t i = 0; i < types.size(); ++i) {
    text += (i > 0 ? ", " : "") + spark_simple_string(*types[i]);
  }
  return text + ")";
}

TEST(SignaturesTest, EveryRegisteredSignatureReadsBackFromItsText) {
  int signatures = 0;
  for (const Function* function : default_registry().functions()) {
    for (const Signature& signature : function->signatures()) {
      const std::string text = signature.to_string();
      EXPECT_EQ(Signature::parse(text).to_string(), text) << function->name();
      ++signatures;
    }
  }
  EXPECT_GT(signatures, 150);
}

TEST(SignaturesTest, EverySignatureResolvesToItsDeclaredResult) {
  int functions_checked = 0;
  int calls_checked = 0;
  int functions = 0;
  for (const Function* function : default_registry().functions()) {
    ++functions;
    bool checked = false;
    for (const Signature& signature : function->signatures()) {
      const std::string text = signature.to_string();
      for (const Slots& slots : expand(signature.elements())) {
        for (const Instance& instance : instantiate(signature, slots)) {
          const std::string call = function->name() + type_list(instance.arguments) + " of " + text;
          const auto arity = function->arity();
          const auto count = static_cast<int>(instance.arguments.size());
          EXPECT_TRUE(count >= arity.min_args && (arity.max_args < 0 || count <= arity.max_args))
              << call << ": the signature lists a number of arguments the arity refuses";
          try {
            const Resolution resolution = function->resolve(instance.arguments, instance.options);
            EXPECT_TRUE(matches(signature.result(), *resolution.output, signature, instance))
                << call << " resolves to " << spark_simple_string(*resolution.output);
          } catch (const std::exception& error) {
            ADD_FAILURE() << call << " does not resolve: " << error.what();
          }
          ++calls_checked;
          checked = true;
        }
      }
    }
    functions_checked += checked ? 1 : 0;
  }
  RecordProperty("functions", functions);
  RecordProperty("calls_checked", calls_checked);
  // Every function lists at least one signature and each of them is instantiated.
  EXPECT_EQ(functions_checked, functions);
  EXPECT_GE(functions, 150);
  EXPECT_GT(calls_checked, 500);
}

}  // namespace
}  // namespace bowstring::compute
