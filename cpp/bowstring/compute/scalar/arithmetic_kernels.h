#pragma once

// Loops shared by the arithmetic and math functions: element-wise kernels over raw values of
// one or two arguments (arrays or scalars), whose rows may fail (overflow, division by zero)
// and then raise, become null or keep their wrapped value, as Spark's mode asks.

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/exec_context.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/types/type.h"
#include "bowstring/util/bit_util.h"

namespace bowstring::compute {

class FunctionRegistry;

/// Adds sqrt, exp, ln/log, pow, round, floor, ceil, sign, greatest, least... (math.cc).
void register_math_functions(FunctionRegistry& registry);

/// What a row's operation reports: nothing, an overflow or a zero divisor.
enum Failure : uint8_t { kNoFailure = 0, kOverflow = 1, kZeroDivisor = 2, kInvalid = 4 };

/// What happens to a row that fails in a way.
enum class OnFailure : uint8_t { kRaise, kNull, kKeep };

/// Spark's treatment of failing rows: ANSI raises; without ANSI integer overflow wraps and
/// division by zero gives null; the try_ functions give null for every failure.
struct FailurePolicy {
  OnFailure overflow;
  OnFailure zero_divisor;

  static FailurePolicy of(const ExecContext& context, bool try_variant,
                          OnFailure overflow_without_ansi = OnFailure::kKeep) {
    if (try_variant) {
      return {OnFailure::kNull, OnFailure::kNull};
    }
    if (context.ansi) {
      return {OnFailure::kRaise, OnFailure::kRaise};
    }
    return {overflow_without_ansi, OnFailure::kNull};
  }
  OnFailure action(uint8_t failure) const { return failure == kOverflow ? overflow : zero_divisor; }
};

/// The all-null result of `type` for `arguments` (an array of their length, or a null scalar).
Datum null_result(const TypePtr& type, std::span<const Datum> arguments, ExecContext& context);

/// The result datum: a scalar when every argument is one.
Datum wrap_result(Array array, std::span<const Datum> arguments);

/// Validity of a result under construction, to which failing rows add nulls.
class ResultValidity {
 public:
  ResultValidity(std::span<const Datum> arguments, int64_t length, Allocator* allocator)
      : length_(length), allocator_(allocator) {
    base_ = and_validity(arguments, length, allocator, &null_count_);
  }
  bool is_valid(int64_t row) const {
    if (editable_) {
      return bit_util::get_bit(editable_->data(), row);
    }
    return !base_ || bit_util::get_bit(base_->data(), row);
  }
  /// Makes row `row` (valid so far) null.
  void set_null(int64_t row) {
    if (!editable_) {
      const int64_t bytes = bit_util::bytes_for_bits(length_);
      editable_ = std::make_unique<MutableBuffer>(bytes, allocator_);
      if (base_) {
        std::memcpy(editable_->mutable_data(), base_->data(), static_cast<size_t>(bytes));
      } else {
        bit_util::set_bits_to(editable_->mutable_data(), 0, length_, true);
      }
      base_.reset();
    }
    bit_util::clear_bit(editable_->mutable_data(), row);
    ++null_count_;
  }
  /// The finished bitmap (nullptr when no row is null) and its null count.
  std::shared_ptr<Buffer> finish(int64_t* null_count) {
    *null_count = null_count_;
    if (editable_) {
      return editable_->finish();
    }
    return std::move(base_);
  }

 private:
  int64_t length_;
  Allocator* allocator_;
  std::shared_ptr<Buffer> base_;
  std::unique_ptr<MutableBuffer> editable_;
  int64_t null_count_ = 0;
};

/// Applies `policy` to the valid rows of `validity` whose operation failed: `failure_at(i)`
/// recomputes row i's `Failure` bits and `raise_at(i, failure)` throws for a row to raise.
template <typename FailureAt, typename RaiseAt>
void handle_failures(ResultValidity& validity, int64_t length, FailurePolicy policy,
                     FailureAt failure_at, RaiseAt raise_at) {
  for (int64_t i = 0; i < length; ++i) {
    const uint8_t failure = failure_at(i);
    if (failure == 0 || !validity.is_valid(i)) {
      continue;
    }
    switch (policy.action(failure)) {
      case OnFailure::kRaise:
        raise_at(i, failure);
        break;
      case OnFailure::kNull:
        validity.set_null(i);
        break;
      case OnFailure::kKeep:
        break;
    }
  }
}

/// The result of a kernel: `values` with `validity`, a scalar when every argument is one.
template <typename Out>
Datum finish_result(const TypePtr& out_type, int64_t length, ResultValidity& validity,
                    OutputValues<Out>& values, std::span<const Datum> arguments) {
  int64_t null_count = 0;
  std::shared_ptr<Buffer> bits = validity.finish(&null_count);
  return wrap_result(
      make_fixed_width_array(out_type, length, std::move(bits), null_count, values.finish()),
      arguments);
}

/// Element-wise `op(x, y, &out)` over two arguments of C type In (arrays or scalars, not null
/// scalars), writing Out values. `op` returns a `Failure` bit set; failing rows that are valid
/// are handled by `policy`, and `raise(failure, x, y)` throws for the ones to raise. The loop
/// runs without branches on the common path and revisits rows only when something failed.
template <typename In, typename Out, typename Op, typename Raise>
Datum binary_kernel(const Datum& a, const Datum& b, const TypePtr& out_type, Op op,
                    FailurePolicy policy, Raise raise, ExecContext& context) {
  const Datum arguments[] = {a, b};
  if (a.scalar_is_null() || b.scalar_is_null()) {
    return null_result(out_type, arguments, context);
  }
  const int64_t length = result_length(arguments);
  const In* x = a.data()->values<In>(1);
  const In* y = b.data()->values<In>(1);
  OutputValues<Out> values(length, context.allocator);
  Out* out = values.data();
  uint8_t failed = 0;
  if (a.is_array() && b.is_array()) {
    for (int64_t i = 0; i < length; ++i) {
      failed |= op(x[i], y[i], &out[i]);
    }
  } else if (a.is_array()) {
    const In right = y[0];
    for (int64_t i = 0; i < length; ++i) {
      failed |= op(x[i], right, &out[i]);
    }
  } else if (b.is_array()) {
    const In left = x[0];
    for (int64_t i = 0; i < length; ++i) {
      failed |= op(left, y[i], &out[i]);
    }
  } else {
    failed |= op(x[0], y[0], &out[0]);
  }
  ResultValidity validity(arguments, length, context.allocator);
  if (failed != 0) {
    const int64_t x_step = a.is_array() ? 1 : 0;
    const int64_t y_step = b.is_array() ? 1 : 0;
    handle_failures(
        validity, length, policy,
        [&](int64_t i) {
          Out ignored;
          return op(x[i * x_step], y[i * y_step], &ignored);
        },
        [&](int64_t i, uint8_t failure) { raise(failure, x[i * x_step], y[i * y_step]); });
  }
  return finish_result(out_type, length, validity, values, arguments);
}

/// Element-wise `op(x, &out)` over one argument; as `binary_kernel`.
template <typename In, typename Out, typename Op, typename Raise>
Datum unary_kernel(const Datum& a, const TypePtr& out_type, Op op, FailurePolicy policy,
                   Raise raise, ExecContext& context) {
  const Datum arguments[] = {a};
  if (a.scalar_is_null()) {
    return null_result(out_type, arguments, context);
  }
  const int64_t length = a.length();
  const In* x = a.data()->values<In>(1);
  OutputValues<Out> values(length, context.allocator);
  Out* out = values.data();
  uint8_t failed = 0;
  for (int64_t i = 0; i < length; ++i) {
    failed |= op(x[i], &out[i]);
  }
  ResultValidity validity(arguments, length, context.allocator);
  if (failed != 0) {
    handle_failures(
        validity, length, policy,
        [&](int64_t i) {
          Out ignored;
          return op(x[i], &ignored);
        },
        [&](int64_t i, uint8_t failure) { raise(failure, x[i]); });
  }
  return finish_result(out_type, length, validity, values, arguments);
}

/// Calls `visit(T{})` with T the C type of a Spark numeric storage type: int8_t, int16_t,
/// int32_t, int64_t, float, double or decimal::int128 (decimal128).
template <typename Visit>
decltype(auto) visit_numeric(const DataType& type, Visit&& visit) {
  switch (type.id()) {
    case TypeId::kInt8:
      return visit(int8_t{});
    case TypeId::kInt16:
      return visit(int16_t{});
    case TypeId::kInt32:
      return visit(int32_t{});
    case TypeId::kInt64:
      return visit(int64_t{});
    case TypeId::kFloat32:
      return visit(float{});
    case TypeId::kFloat64:
      return visit(double{});
    case TypeId::kDecimal128:
      return visit(__int128{});
    default:
      throw TypeError("no numeric kernel for " + type.to_string());
  }
}

/// A value for error messages: integers in decimal, floating point in the shortest form that
/// reads back the same.
std::string format_number(int64_t value);
std::string format_number(double value);

}  // namespace bowstring::compute
