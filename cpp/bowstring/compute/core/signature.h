#pragma once

// The signatures a function lists: typed parameters and result, written at registration in a
// compact notation that is checked when read, and printed back in that notation:
//
//   (string, pos: int[, len: int]) -> string     named parameters, nested trailing optional ones
//   (T, T...) -> T                               a type variable; T... repeats T zero or more times
//   (boolean, T[, boolean, T]...[, T]) -> T      an optional group repeated zero or more times
//   (sep: string, (string | array<string>)...)   one of several types
//   (numeric[, int]) -> numeric                  type classes (see `TypeClass`)
//   (decimal(p, s)) -> decimal(p + 10, s)        a decimal whose precision and scale follow p, s
//   (T, T) -> boolean for every comparable T     a type variable limited to a class
//   (any, to: type) -> to                        a type given as an option; the result is it
//   (map<K, V>, K) -> V                          arrays and maps of patterns
//   (array<struct<a:int,b:string>>) -> int       concrete nested types, as Spark's simple string
//                                                spells them
//
// Concrete types are Spark type names (`parse_spark_type`): int, bigint, array<string>...

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bowstring/types/type.h"

namespace bowstring::compute {

/// A set of types a parameter or result may take.
enum class TypeClass : uint8_t {
  /// Every type.
  kAny,
  /// Integers, floating point numbers and decimals.
  kNumeric,
  /// Integers (tinyint to bigint).
  kIntegral,
  /// Decimals of any precision and scale.
  kDecimal,
  /// Types whose values sort (numbers, strings, binary, booleans, dates, timestamps).
  kOrderable,
  /// Types whose values compare for equality.
  kComparable,
  /// A data type itself, given as an option (`cast`'s `to`), not a column.
  kType,
};

/// `p`, `s`, `p - s + 1`, `10`: a precision or scale computed from the symbols p and s of a
/// decimal parameter `decimal(p, s)`.
struct DecimalTerm {
  int p = 0;
  int s = 0;
  int constant = 0;

  /// The value for a parameter of precision `precision` and scale `scale`.
  int evaluate(int precision, int scale) const { return p * precision + s * scale + constant; }
  bool operator==(const DecimalTerm&) const = default;
};

/// What a parameter or the result may be.
struct TypePattern {
  enum class Kind : uint8_t {
    /// Exactly `type`.
    kConcrete,
    /// Any type of `type_class`.
    kClass,
    /// The type variable `name` (T, U): every use in a signature is the same type.
    kVariable,
    /// A decimal of precision `precision` and scale `scale`.
    kDecimal,
    /// An array whose elements match `members[0]`.
    kArray,
    /// A map whose keys match `members[0]` and values `members[1]`.
    kMap,
    /// Any one of `members`.
    kOneOf,
    /// The type the parameter `name` (of class `type`) gives.
    kTypeOf,
  };

  Kind kind = Kind::kClass;
  TypePtr type;
  TypeClass type_class = TypeClass::kAny;
  std::string name;
  DecimalTerm precision;
  DecimalTerm scale;
  std::vector<TypePattern> members;
};

/// A parameter, or a bracketed group of them that a call may leave out.
struct SignatureElement {
  /// For a parameter: its name, empty when unnamed.
  std::string name;
  /// For a parameter: what its argument may be.
  TypePattern type;
  /// For an optional group (`[, len: int]`): its elements; empty for a parameter.
  std::vector<SignatureElement> group;
  /// `T...`, `[, boolean, T]...`: the parameter or group may be given any number of times,
  /// none included.
  bool repeated = false;

  bool is_group() const { return !group.empty(); }
};

/// One accepted form of a call.
class Signature {
 public:
  /// What a signature is made of, as `parse` reads it.
  struct Parts {
    std::vector<SignatureElement> elements;
    TypePattern result;
    /// `for every comparable T`: a type variable and the class it is limited to.
    std::vector<std::pair<std::string, TypeClass>> constraints;
  };

  explicit Signature(Parts parts);

  /// Reads the notation above; throws `InvalidArgument` naming the text and what is wrong,
  /// also for text that does not print back as given (`decimal(p,s)` for `decimal(p, s)`).
  static Signature parse(std::string_view text);

  const std::vector<SignatureElement>& elements() const { return elements_; }
  const TypePattern& result() const { return result_; }
  /// `for every comparable T`: the class each such type variable is limited to.
  std::optional<TypeClass> class_of(std::string_view variable) const;

  /// The notation `parse` reads.
  std::string to_string() const;

 private:
  std::vector<SignatureElement> elements_;
  TypePattern result_;
  std::vector<std::pair<std::string, TypeClass>> constraints_;
};

/// Parses each of `texts` (see `Signature::parse`).
std::vector<Signature> parse_signatures(const std::vector<std::string>& texts);

/// Whether `type` belongs to `type_class`.
bool in_type_class(const DataType& type, TypeClass type_class);

}  // namespace bowstring::compute
