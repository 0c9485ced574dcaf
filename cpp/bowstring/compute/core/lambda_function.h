#pragma once

// The function classes of the areas whose functions differ only in their type rules and their
// kernels: one scalar class and one aggregate class whose behaviour is given as callables, in
// one argument order (name, arity, null handling, description, signatures, resolver, body).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bowstring/compute/core/function.h"

namespace bowstring::compute {

/// Decides the result type and implicit casts for argument types (see `Function::resolve`); it
/// gets the function's name for its messages. Called once per call or batch, never per value.
using LambdaResolver =
    std::function<Resolution(const std::string& name, std::span<const TypePtr> arguments)>;

/// The rows of a call on which the function reads argument `index` (see
/// `Function::rows_reading`).
using RowsReading = std::optional<RowWords> (*)(size_t index, std::span<const Datum> arguments,
                                                int64_t length);

/// What sets a function apart beyond its type rules and kernel; the defaults are those of
/// `Function`.
struct LambdaScalarTraits {
  /// The type rules of calls with ANSI mode off, when they differ (`resolver` serves both
  /// modes when this is empty).
  LambdaResolver resolver_without_ansi;
  /// The rows each argument is read on, for functions that read some arguments only where
  /// others ask for them (the conditional functions); nullptr keeps `Function`'s rule.
  RowsReading rows_reading = nullptr;
};

/// A scalar function whose type rules and kernel are callables.
class LambdaScalarFunction final : public ScalarFunction {
 public:
  /// Computes the function over arguments cast to the resolved types; `output` is the resolved
  /// result type.
  using Kernel = std::function<Datum(std::span<const Datum> arguments, const TypePtr& output,
                                     ExecContext& context)>;

  /// `signatures` are in the notation `Signature::parse` reads; malformed text throws here.
  /// With `NullHandling::kPropagates`, an argument of the NULL type makes every row null (of
  /// the resolved type) without calling `kernel`.
  LambdaScalarFunction(std::string name, Arity arity, NullHandling null_handling,
                       std::string description, std::vector<std::string> signatures,
                       LambdaResolver resolver, Kernel kernel, LambdaScalarTraits traits = {});

  std::vector<Signature> signatures() const override { return signatures_; }
  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& options) const override;
  Resolution resolve_with(std::span<const TypePtr> arguments, const FunctionOptions& options,
                          const ResolveContext& context) const override;
  std::optional<RowWords> rows_reading(size_t index, std::span<const Datum> arguments,
                                       int64_t length) const override;
  Datum execute(std::span<const Datum> arguments, const FunctionOptions& options,
                ExecContext& context) const override;

 private:
  std::vector<Signature> signatures_;
  LambdaResolver resolver_;
  Kernel kernel_;
  LambdaScalarTraits traits_;
};

/// An aggregate function whose type rules and aggregator creation are callables.
class LambdaAggregateFunction final : public AggregateFunction {
 public:
  /// A new aggregator for arguments of the resolved types.
  using Maker = std::function<std::unique_ptr<GroupedAggregator>(
      std::span<const TypePtr> arguments, const FunctionOptions& options, ExecContext& context)>;

  LambdaAggregateFunction(std::string name, Arity arity, NullHandling null_handling,
                          std::string description, std::vector<std::string> signatures,
                          LambdaResolver resolver, Maker maker);

  std::vector<Signature> signatures() const override { return signatures_; }
  Resolution resolve(std::span<const TypePtr> arguments,
                     const FunctionOptions& options) const override;
  std::unique_ptr<GroupedAggregator> make_aggregator(std::span<const TypePtr> arguments,
                                                     const FunctionOptions& options,
                                                     ExecContext& context) const override;

 private:
  std::vector<Signature> signatures_;
  LambdaResolver resolver_;
  Maker maker_;
};

}  // namespace bowstring::compute
