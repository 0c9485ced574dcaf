#pragma once

// Helpers of the tests of string and binary functions: arrays from optional strings, calls
// checked over whole arrays, slices, empty arrays and scalars, and the errors calls raise.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/exec_context.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/testing/array_testing.h"

namespace bowstring::compute::string_function_testing {

using bowstring::testing::make_string_array;

inline const std::nullopt_t kNull = std::nullopt;
using Strings = std::vector<std::optional<std::string>>;

inline Array strs(const Strings& values, TypePtr type = utf8()) {
  return make_string_array(values, std::move(type));
}
inline Array bins(const Strings& values) { return make_string_array(values, binary()); }

inline Datum run(std::string_view name, std::vector<Datum> arguments, bool ansi = true) {
  ExecContext context;
  context.ansi = ansi;
  Datum result = call(name, arguments, {}, &context);
  EXPECT_NO_THROW(result.array().validate_full());
  return result;
}

inline void expect_equal(const Datum& got, const Array& expected) {
  EXPECT_TRUE(got.array().equals(expected))
      << "got " << got.array().to_string() << "\nexpected " << expected.to_string();
}

/// `name` over `input` (then `rest`, scalars) gives `expected`: as a whole array, from an
/// offset (a slice), empty, and as a scalar of its first row.
inline void expect_rows(std::string_view name, const Array& input, const Array& expected,
                        const std::vector<Datum>& rest = {}) {
  auto arguments = [&](Datum first) {
    std::vector<Datum> all{std::move(first)};
    all.insert(all.end(), rest.begin(), rest.end());
    return all;
  };
  const Datum whole = run(name, arguments(input));
  ASSERT_TRUE(whole.is_array());
  expect_equal(whole, expected);
  expect_equal(run(name, arguments(input.slice(1))), expected.slice(1));
  expect_equal(run(name, arguments(input.slice(0, 0))), expected.slice(0, 0));
  const Datum scalar = run(name, arguments(Datum::scalar(input.slice(0, 1))));
  ASSERT_TRUE(scalar.is_scalar());
  expect_equal(scalar, expected.slice(0, 1));
}

/// The condition of the error `name` raises over `arguments`, and its message.
struct Failure {
  std::string condition;
  std::string message;
};
inline Failure failure(std::string_view name, std::vector<Datum> arguments) {
  try {
    call(name, arguments);
  } catch (const SparkError& error) {
    return {error.condition(), error.what()};
  }
  ADD_FAILURE() << name << " raised no error";
  return {};
}

}  // namespace bowstring::compute::string_function_testing
