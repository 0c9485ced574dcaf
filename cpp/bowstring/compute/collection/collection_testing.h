#pragma once

// Helpers of the collection functions' tests: lists of ints and strings, calls that check their
// result is valid, and comparisons that print both sides.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/compute/core/function.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/util/spark_error.h"

namespace bowstring::compute::collection::testing {

using Ints = std::vector<std::optional<int32_t>>;
using IntLists = std::vector<std::optional<Ints>>;
using Strings = std::vector<std::optional<std::string>>;
using StringLists = std::vector<std::optional<Strings>>;

inline const std::nullopt_t kNull = std::nullopt;

inline Array int_lists(const IntLists& lists) {
  return bowstring::testing::make_list_array<int32_t>(lists);
}
inline Array string_lists(const StringLists& lists) {
  return bowstring::testing::make_string_list_array(list(utf8()), lists);
}
inline Array ints(const Ints& values) { return bowstring::testing::make_array<int32_t>(values); }
inline Array strings(const Strings& values) {
  return bowstring::testing::make_string_array(values);
}
inline Datum int_scalar(int32_t value) { return Datum::scalar(ints({value})); }
inline Datum string_scalar(std::string value) { return Datum::scalar(strings({std::move(value)})); }

/// `int_lists(lists)` as the window [1, 1 + lists.size()) of a longer list array, whose first
/// and last rows hold elements outside the window.
inline Array sliced_int_lists(const IntLists& lists) {
  IntLists padded{Ints{-100, -101}};
  padded.insert(padded.end(), lists.begin(), lists.end());
  padded.push_back(Ints{-102});
  return int_lists(padded).slice(1, static_cast<int64_t>(lists.size()));
}

/// Calls `name` (with ANSI mode as given) and checks the result is a valid array.
inline Datum run(std::string_view name, std::vector<Datum> arguments, bool ansi = true,
                 MapKeyDedupPolicy policy = MapKeyDedupPolicy::kException) {
  ExecContext context;
  context.ansi = ansi;
  context.map_key_dedup_policy = policy;
  Datum result = call(name, arguments, {}, &context);
  EXPECT_NO_THROW(result.array().validate_full());
  return result;
}

inline void expect_equal(const Datum& got, const Array& expected) {
  EXPECT_TRUE(got.array().equals(expected))
      << "got " << got.array().to_string() << "\nexpected " << expected.to_string();
}

/// The condition of the `SparkError` that `body` raises, or "" when it raises none.
template <typename Body>
std::string condition_of(Body&& body) {
  try {
    body();
  } catch (const SparkError& error) {
    return error.condition();
  }
  return "";
}

}  // namespace bowstring::compute::collection::testing
