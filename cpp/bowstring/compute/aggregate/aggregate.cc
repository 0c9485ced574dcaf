#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bowstring/array/builder.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/builder_scalar.h"
#include "bowstring/compute/aggregate/aggregate_util.h"
#include "bowstring/compute/aggregate/grouper.h"
#include "bowstring/compute/aggregate/hyperloglog.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/core/lambda_function.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/compute/scalar/decimal.h"
#include "bowstring/compute/scalar/hash.h"
#include "bowstring/compute/vector/sort.h"

namespace bowstring::compute {

namespace {

using int128_t = __int128;

// --- Helpers ---------------------------------------------------------------------------------

/// The argument as an array of `length` rows (scalars repeated).
Array as_array(const Datum& argument, int64_t length, Allocator* allocator) {
  return argument.is_scalar() ? argument.to_array(length, allocator) : argument.array();
}

const uint8_t* validity_bits(const ArrayData& data) {
  return data.buffers.empty() || data.buffers[0] == nullptr ? nullptr : data.buffers[0]->data();
}

/// Calls `visit(i)` for every non-null row of `data`.
template <typename Visit>
void for_each_valid_row(const ArrayData& data, Visit&& visit) {
  const uint8_t* validity = data.null_count() == 0 ? nullptr : validity_bits(data);
  for_each_set_bit(validity, data.offset, data.length, visit);
}

/// A validity bitmap from one byte per row (nullptr when every row is valid).
std::shared_ptr<Buffer> validity_from(const std::vector<uint8_t>& valid, Allocator* allocator,
                                      int64_t* null_count) {
  const auto length = static_cast<int64_t>(valid.size());
  int64_t nulls = 0;
  for (const uint8_t v : valid) {
    nulls += v == 0;
  }
  *null_count = nulls;
  if (nulls == 0) {
    return nullptr;
  }
  MutableBuffer bits(bit_util::bytes_for_bits(length), allocator);
  for (int64_t i = 0; i < length; ++i) {
    if (valid[static_cast<size_t>(i)] != 0) {
      bit_util::set_bit(bits.mutable_data(), i);
    }
  }
  return bits.finish();
}

/// A fixed-width array of `type` from values and one validity byte per row.
template <typename T>
Array fixed_array(const TypePtr& type, const std::vector<T>& values,
                  const std::vector<uint8_t>& valid, Allocator* allocator) {
  const auto length = static_cast<int64_t>(values.size());
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = validity_from(valid, allocator, &null_count);
  OutputValues<T> out(length, allocator);
  if (length > 0) {
    std::memcpy(out.data(), values.data(), values.size() * sizeof(T));
  }
  return make_fixed_width_array(type, length, std::move(validity), null_count, out.finish());
}

Array boolean_array(const std::vector<uint8_t>& values, const std::vector<uint8_t>& valid,
                    Allocator* allocator) {
  const auto length = static_cast<int64_t>(values.size());
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = validity_from(valid, allocator, &null_count);
  MutableBuffer bits(bit_util::bytes_for_bits(length), allocator);
  for (int64_t i = 0; i < length; ++i) {
    if (values[static_cast<size_t>(i)] != 0) {
      bit_util::set_bit(bits.mutable_data(), i);
    }
  }
  return Array(std::make_shared<ArrayData>(
      boolean(), length, std::vector<std::shared_ptr<Buffer>>{validity, bits.finish()},
      null_count));
}

template <typename T>
struct TypeTag {
  using type = T;
};

/// Calls `f(TypeTag<T>{})` with the C type of an integer or floating-point type id.
template <typename F>
void visit_numeric(TypeId id, F&& f) {
  switch (id) {
    case TypeId::kInt8:
      return f(TypeTag<int8_t>{});
    case TypeId::kInt16:
      return f(TypeTag<int16_t>{});
    case TypeId::kInt32:
      return f(TypeTag<int32_t>{});
    case TypeId::kInt64:
      return f(TypeTag<int64_t>{});
    case TypeId::kUInt8:
      return f(TypeTag<uint8_t>{});
    case TypeId::kUInt16:
      return f(TypeTag<uint16_t>{});
    case TypeId::kUInt32:
      return f(TypeTag<uint32_t>{});
    case TypeId::kUInt64:
      return f(TypeTag<uint64_t>{});
    case TypeId::kFloat32:
      return f(TypeTag<float>{});
    case TypeId::kFloat64:
      return f(TypeTag<double>{});
    default:
      throw TypeError("aggregate: not a numeric type: " + std::string(type_id_name(id)));
  }
}

/// The unscaled value of decimal row `i` (relative to the window) as a 128-bit integer.
int128_t decimal_at(const ArrayData& data, int64_t i) {
  const uint8_t* bytes = data.buffers[1]->data();
  const int64_t row = data.offset + i;
  switch (data.type->id()) {
    case TypeId::kDecimal32: {
      int32_t value;
      std::memcpy(&value, bytes + row * 4, 4);
      return value;
    }
    case TypeId::kDecimal64: {
      int64_t value;
      std::memcpy(&value, bytes + row * 8, 8);
      return value;
    }
    case TypeId::kDecimal256: {
      // Values of at most 38 digits: the low 128 bits (little-endian) hold them.
      int128_t value;
      std::memcpy(&value, bytes + row * 32, 16);
      return value;
    }
    default: {
      int128_t value;
      std::memcpy(&value, bytes + row * 16, 16);
      return value;
    }
  }
}

/// The most digits of Spark's decimals.
constexpr int32_t kMaxDecimalPrecision = 38;

int128_t power_of_ten(int exponent) {
  int128_t result = 1;
  for (int i = 0; i < exponent; ++i) {
    result *= 10;
  }
  return result;
}

bool is_integral(const DataType& type) { return type.is_integer(); }

bool is_fractional(const DataType& type) {
  return type.id() == TypeId::kFloat32 || type.id() == TypeId::kFloat64;
}

[[noreturn]] void throw_type_mismatch(const std::string& function, const TypePtr& type,
                                      const std::string& expected) {
  throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                      "Cannot resolve \"" + function + "\": the argument has the type " +
                          spark_type_name(*type) + ", expected " + expected);
}

/// Base of the aggregators: keeps the context and the number of groups.
class AggregatorBase : public GroupedAggregator {
 public:
  explicit AggregatorBase(ExecContext& context) : context_(context) {}

 protected:
  Allocator* allocator() const { return context_.allocator; }
  ExecContext& context_;
};

// --- count -----------------------------------------------------------------------------------

/// count(*), count(x), count(x, y...): rows where every argument is non-null.
class CountAggregator final : public AggregatorBase {
 public:
  using AggregatorBase::AggregatorBase;

  void resize(int64_t num_groups) override { counts_.resize(static_cast<size_t>(num_groups), 0); }

  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    std::vector<const ArrayData*> columns;
    for (const Datum& argument : arguments) {
      if (argument.scalar_is_null()) {
        return;
      }
      if (argument.is_array() && argument.data()->null_count() > 0) {
        columns.push_back(argument.data().get());
      }
    }
    const auto rows = static_cast<int64_t>(group_ids.size());
    if (columns.empty()) {
      for (int64_t i = 0; i < rows; ++i) {
        ++counts_[group_ids[static_cast<size_t>(i)]];
      }
      return;
    }
    for (int64_t i = 0; i < rows; ++i) {
      bool valid = true;
      for (const ArrayData* column : columns) {
        valid = valid && !column->is_null_in_bitmap(i);
      }
      counts_[group_ids[static_cast<size_t>(i)]] += valid ? 1 : 0;
    }
  }

  std::vector<TypePtr> state_types() const override { return {int64()}; }
  std::vector<Array> state() override { return {finish()}; }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    const Int64Array counts(state[0]);
    for (size_t i = 0; i < group_ids.size(); ++i) {
      counts_[group_ids[i]] += counts.value(static_cast<int64_t>(i));
    }
  }
  Array finish() override {
    return fixed_array(int64(), counts_, std::vector<uint8_t>(counts_.size(), 1), allocator());
  }

 private:
  std::vector<int64_t> counts_;
};

// --- sum and avg -----------------------------------------------------------------------------

[[noreturn]] void throw_long_overflow(const char* function) {
  throw ArithmeticError("ARITHMETIC_OVERFLOW",
                        std::string("long overflow in ") + function +
                            ". Use 'try_sum' to tolerate overflow and return NULL instead. If "
                            "necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
                            "this error.");
}

/// Spark's message for a decimal sum (of `sum` or `avg`) that left its type's precision.
[[noreturn]] void throw_decimal_sum_overflow(const std::string& function) {
  throw ArithmeticError("ARITHMETIC_OVERFLOW",
                        "Overflow in sum of decimals. Use 'try_" + function +
                            "' to tolerate overflow and return NULL instead. " + kAnsiBypassHint);
}

/// The flags of Spark's sum buffer, per group: whether a non-null value came in (Spark's
/// `isEmpty`, negated) and whether the sum overflowed (null for try_sum).
struct SumFlags {
  std::vector<uint8_t> non_empty;
  std::vector<uint8_t> overflowed;

  void resize(int64_t num_groups) {
    non_empty.resize(static_cast<size_t>(num_groups), 0);
    overflowed.resize(static_cast<size_t>(num_groups), 0);
  }
  /// Groups whose sum is a value: non-empty and not overflowed.
  std::vector<uint8_t> valid() const {
    std::vector<uint8_t> result(non_empty.size());
    for (size_t g = 0; g < result.size(); ++g) {
      result[g] = non_empty[g] != 0 && overflowed[g] == 0;
    }
    return result;
  }
  /// The state columns of sums of `type`: the sum (null when empty or overflowed) and the
  /// non-empty flag, as Spark's buffer keeps them, so that an overflowed partial sum is not
  /// taken for an empty one.
  template <typename T>
  std::vector<Array> state(const TypePtr& type, const std::vector<T>& sums,
                           Allocator* allocator) const {
    return {fixed_array(type, sums, valid(), allocator),
            boolean_array(non_empty, std::vector<uint8_t>(non_empty.size(), 1), allocator)};
  }
  /// Folds state rows (as `state` gives them) into groups `group_ids`: overflowed partial sums
  /// mark their group; `add(group, row)` adds the others.
  template <typename Add>
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids, Add&& add) {
    const ArrayData& sums = *state[0].data();
    const BooleanArray flags(state[1]);
    for (size_t i = 0; i < group_ids.size(); ++i) {
      const auto row = static_cast<int64_t>(i);
      if (!flags.value(row)) {
        continue;
      }
      const uint32_t g = group_ids[i];
      non_empty[g] = 1;
      if (sums.is_null_in_bitmap(row)) {
        overflowed[g] = 1;
      } else {
        add(g, row);
      }
    }
  }
};

/// sum of integers: a bigint, with an overflow error in ANSI mode (wrapping otherwise, null
/// for try_sum).
class IntegerSumAggregator final : public AggregatorBase {
 public:
  IntegerSumAggregator(ExecContext& context, bool try_mode)
      : AggregatorBase(context), try_mode_(try_mode) {}

  void resize(int64_t num_groups) override {
    sums_.resize(static_cast<size_t>(num_groups), 0);
    flags_.resize(num_groups);
  }

  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    const Array values =
        as_array(arguments[0], static_cast<int64_t>(group_ids.size()), allocator());
    const ArrayData& data = *values.data();
    visit_numeric(data.type->id(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T>) {
        const T* raw = data.values<T>(1);
        const uint32_t* groups = group_ids.data();
        int64_t* sums = sums_.data();
        uint8_t* non_empty = flags_.non_empty.data();
        bool overflow = false;
        for_each_valid_row(data, [&](int64_t i) {
          const uint32_t g = groups[i];
          non_empty[g] = 1;
          if constexpr (std::is_same_v<T, uint64_t>) {
            overflow |= raw[i] > static_cast<uint64_t>(INT64_MAX);
          }
          overflow |= __builtin_add_overflow(sums[g], static_cast<int64_t>(raw[i]), &sums[g]);
        });
        if (overflow) [[unlikely]] {
          redo_with_checks(data, raw, group_ids);
        }
      }
    });
  }

  std::vector<TypePtr> state_types() const override { return {int64(), boolean()}; }
  std::vector<Array> state() override { return flags_.state(int64(), sums_, allocator()); }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    const int64_t* raw = state[0].data()->values<int64_t>(1);
    flags_.merge(state, group_ids, [&](uint32_t g, int64_t row) { add(g, raw[row]); });
  }
  Array finish() override { return fixed_array(int64(), sums_, flags_.valid(), allocator()); }

 private:
  /// Some sum overflowed in the fast pass: undo it and add again value by value, raising or
  /// marking the overflowing groups.
  template <typename T>
  void redo_with_checks(const ArrayData& data, const T* raw, std::span<const uint32_t> group_ids) {
    for_each_valid_row(data, [&](int64_t i) {
      const uint32_t g = group_ids[static_cast<size_t>(i)];
      sums_[g] =
          static_cast<int64_t>(static_cast<uint64_t>(sums_[g]) - static_cast<uint64_t>(raw[i]));
    });
    for_each_valid_row(data, [&](int64_t i) { add(group_ids[static_cast<size_t>(i)], raw[i]); });
  }

  template <typename T>
  void add(uint32_t group, T value) {
    flags_.non_empty[group] = 1;
    int64_t result;
    bool overflow;
    if constexpr (std::is_same_v<T, uint64_t>) {
      overflow = value > static_cast<uint64_t>(INT64_MAX) ||
                 __builtin_add_overflow(sums_[group], static_cast<int64_t>(value), &result);
      if (value > static_cast<uint64_t>(INT64_MAX)) {
        result = static_cast<int64_t>(static_cast<uint64_t>(sums_[group]) + value);
      }
    } else {
      overflow = __builtin_add_overflow(sums_[group], static_cast<int64_t>(value), &result);
    }
    if (overflow) [[unlikely]] {
      if (try_mode_) {
        flags_.overflowed[group] = 1;
      } else if (context_.ansi) {
        throw_long_overflow("sum");
      }
    }
    sums_[group] = result;
  }

  bool try_mode_;
  std::vector<int64_t> sums_;
  SumFlags flags_;
};

/// sum of floating-point values (and the sum of avg for numbers other than decimals): a double.
class DoubleSumAggregator final : public AggregatorBase {
 public:
  using AggregatorBase::AggregatorBase;

  void resize(int64_t num_groups) override {
    sums_.resize(static_cast<size_t>(num_groups), 0.0);
    flags_.resize(num_groups);
  }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    const Array values =
        as_array(arguments[0], static_cast<int64_t>(group_ids.size()), allocator());
    const ArrayData& data = *values.data();
    visit_numeric(data.type->id(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* raw = data.values<T>(1);
      const uint32_t* groups = group_ids.data();
      double* sums = sums_.data();
      uint8_t* non_empty = flags_.non_empty.data();
      for_each_valid_row(data, [&](int64_t i) {
        const uint32_t g = groups[i];
        sums[g] += static_cast<double>(raw[i]);
        non_empty[g] = 1;
      });
    });
  }
  std::vector<TypePtr> state_types() const override { return {float64(), boolean()}; }
  std::vector<Array> state() override { return flags_.state(float64(), sums_, allocator()); }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    const double* raw = state[0].data()->values<double>(1);
    flags_.merge(state, group_ids, [&](uint32_t g, int64_t row) { sums_[g] += raw[row]; });
  }
  Array finish() override { return fixed_array(float64(), sums_, flags_.valid(), allocator()); }

  /// avg: the sum divided by `counts`.
  Array average(const std::vector<int64_t>& counts) {
    std::vector<double> averages(sums_.size(), 0.0);
    for (size_t g = 0; g < sums_.size(); ++g) {
      averages[g] = counts[g] > 0 ? sums_[g] / static_cast<double>(counts[g]) : 0.0;
    }
    return fixed_array(float64(), averages, flags_.valid(), allocator());
  }

 private:
  std::vector<double> sums_;
  SumFlags flags_;
};

/// A sum of unscaled decimals in 192 bits: 128 bits and how many times they wrapped, so that a
/// sum may leave 38 digits midway and come back.
struct WideSum {
  int128_t low = 0;
  int64_t wraps = 0;

  void add(int128_t value) {
    if (__builtin_add_overflow(low, value, &low)) {
      wraps += value < 0 ? -1 : 1;
    }
  }
  /// Whether the sum is within (-bound, bound).
  bool within(int128_t bound) const { return wraps == 0 && low < bound && low > -bound; }
};

/// sum of decimal(p, s) (and the sum of avg): decimal(min(38, p + 10), s). Spark's grouped
/// aggregation keeps each group's sum in a buffer of that type, where a sum that leaves the
/// precision midway turns null for good (an error in ANSI mode, null for try_sum); its global
/// aggregation keeps the sum unbounded and only checks the end result. `grouped` says which.
class DecimalSumAggregator final : public AggregatorBase {
 public:
  DecimalSumAggregator(ExecContext& context, TypePtr sum_type, std::string function, bool try_mode,
                       bool grouped)
      : AggregatorBase(context),
        sum_type_(std::move(sum_type)),
        function_(std::move(function)),
        try_mode_(try_mode),
        grouped_(grouped),
        bound_(power_of_ten(type_cast<DecimalType>(*sum_type_).precision())) {}

  void resize(int64_t num_groups) override {
    sums_.resize(static_cast<size_t>(num_groups));
    flags_.resize(num_groups);
  }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    const Array values =
        as_array(arguments[0], static_cast<int64_t>(group_ids.size()), allocator());
    const ArrayData& data = *values.data();
    for_each_valid_row(
        data, [&](int64_t i) { add(group_ids[static_cast<size_t>(i)], decimal_at(data, i)); });
  }
  std::vector<TypePtr> state_types() const override { return {sum_type_, boolean()}; }
  std::vector<Array> state() override {
    mark_overflows();
    return flags_.state(sum_type_, lows(), allocator());
  }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    const ArrayData& data = *state[0].data();
    flags_.merge(state, group_ids, [&](uint32_t g, int64_t row) { add(g, decimal_at(data, row)); });
  }
  Array finish() override {
    mark_overflows();
    check_overflows();
    return fixed_array(sum_type_, lows(), flags_.valid(), allocator());
  }

  /// avg: the sum divided by `counts`, as `output` (a scale at least the sum's), rounded half
  /// up. An average that does not fit `output` raises Spark's NUMERIC_VALUE_OUT_OF_RANGE in
  /// ANSI mode, and is null otherwise.
  Array average(const std::vector<int64_t>& counts, const TypePtr& output) {
    mark_overflows();
    check_overflows();
    const auto& shape = type_cast<DecimalType>(*output);
    const int128_t scale = power_of_ten(shape.scale() - type_cast<DecimalType>(*sum_type_).scale());
    const int128_t bound = power_of_ten(shape.precision());
    std::vector<int128_t> averages(counts.size(), 0);
    std::vector<uint8_t> valid = flags_.valid();
    for (size_t g = 0; g < counts.size(); ++g) {
      if (valid[g] == 0) {
        continue;
      }
      int128_t scaled = 0;
      bool overflow = __builtin_mul_overflow(sums_[g].low, scale, &scaled);
      if (!overflow) {
        const int128_t count = counts[g];
        averages[g] = scaled / count;
        const int128_t remainder = scaled % count;
        const int128_t twice = remainder < 0 ? -remainder * 2 : remainder * 2;
        if (twice >= count) {
          averages[g] += scaled < 0 ? -1 : 1;
        }
        overflow = averages[g] >= bound || averages[g] <= -bound;
      }
      if (overflow) {
        if (context_.ansi && !try_mode_) {
          throw ArithmeticError(
              "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
              "The average of the sum " +
                  decimal::to_string(sums_[g].low, type_cast<DecimalType>(*sum_type_).scale()) +
                  " over " + std::to_string(counts[g]) + " values cannot be represented as " +
                  decimal::type_name({shape.precision(), shape.scale()}) +
                  ". If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this "
                  "error, and return NULL instead.");
        }
        valid[g] = 0;
      }
    }
    return fixed_array(output, averages, valid, allocator());
  }

 private:
  void add(uint32_t group, int128_t value) {
    flags_.non_empty[group] = 1;
    WideSum& sum = sums_[group];
    sum.add(value);
    if (grouped_ && !sum.within(bound_)) [[unlikely]] {
      flags_.overflowed[group] = 1;
      sum = WideSum{};
    }
  }
  /// Marks the sums past the precision (only a global sum gets there unmarked).
  void mark_overflows() {
    for (size_t g = 0; g < sums_.size(); ++g) {
      if (!sums_[g].within(bound_)) {
        flags_.overflowed[g] = 1;
        sums_[g] = WideSum{};
      }
    }
  }
  void check_overflows() const {
    if (try_mode_ || !context_.ansi) {
      return;
    }
    for (size_t g = 0; g < sums_.size(); ++g) {
      if (flags_.overflowed[g] != 0) {
        throw_decimal_sum_overflow(function_);
      }
    }
  }
  std::vector<int128_t> lows() const {
    std::vector<int128_t> result(sums_.size());
    for (size_t g = 0; g < sums_.size(); ++g) {
      result[g] = sums_[g].low;
    }
    return result;
  }

  TypePtr sum_type_;
  std::string function_;
  bool try_mode_;
  bool grouped_;
  int128_t bound_;
  std::vector<WideSum> sums_;
  SumFlags flags_;
};

/// avg: the sum of `Sum` (its `average` divides it) and a count per group. The state is the
/// sum's followed by the counts.
template <typename Sum>
class AvgAggregator final : public AggregatorBase {
 public:
  template <typename... SumArguments>
  AvgAggregator(ExecContext& context, TypePtr output, SumArguments&&... sum_arguments)
      : AggregatorBase(context),
        output_(std::move(output)),
        sum_(context, std::forward<SumArguments>(sum_arguments)...) {}

  void resize(int64_t num_groups) override {
    sum_.resize(num_groups);
    counts_.resize(static_cast<size_t>(num_groups), 0);
  }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    sum_.update(arguments, group_ids);
    if (arguments[0].is_scalar()) {
      if (!arguments[0].scalar_is_null()) {
        for (const uint32_t g : group_ids) {
          ++counts_[g];
        }
      }
      return;
    }
    const ArrayData& data = *arguments[0].data();
    int64_t* counts = counts_.data();
    const uint32_t* groups = group_ids.data();
    for_each_valid_row(data, [&](int64_t i) { ++counts[groups[i]]; });
  }
  std::vector<TypePtr> state_types() const override {
    std::vector<TypePtr> types = sum_.state_types();
    types.push_back(int64());
    return types;
  }
  std::vector<Array> state() override {
    std::vector<Array> state = sum_.state();
    state.push_back(
        fixed_array(int64(), counts_, std::vector<uint8_t>(counts_.size(), 1), allocator()));
    return state;
  }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    sum_.merge(state.first(2), group_ids);
    const int64_t* counts = state[2].data()->values<int64_t>(1);
    for (size_t i = 0; i < group_ids.size(); ++i) {
      counts_[group_ids[i]] += counts[i];
    }
  }
  Array finish() override {
    if constexpr (std::is_same_v<Sum, DecimalSumAggregator>) {
      return sum_.average(counts_, output_);
    } else {
      return sum_.average(counts_);
    }
  }

 private:
  TypePtr output_;
  Sum sum_;
  std::vector<int64_t> counts_;
};

// --- min and max -----------------------------------------------------------------------------

/// min or max of a fixed-width type read as `T` (integers, floats, dates, timestamps,
/// decimals as 128-bit integers, booleans as bytes).
template <typename T, bool kMax>
class FixedMinMaxAggregator final : public AggregatorBase {
 public:
  FixedMinMaxAggregator(ExecContext& context, TypePtr type)
      : AggregatorBase(context), type_(std::move(type)) {}

  void resize(int64_t num_groups) override {
    values_.resize(static_cast<size_t>(num_groups), T{});
    valid_.resize(static_cast<size_t>(num_groups), 0);
  }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    const Array values =
        as_array(arguments[0], static_cast<int64_t>(group_ids.size()), allocator());
    fold(*values.data(), group_ids);
  }
  std::vector<TypePtr> state_types() const override { return {type_}; }
  std::vector<Array> state() override { return {finish()}; }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    fold(*state[0].data(), group_ids);
  }
  Array finish() override {
    if (type_->id() == TypeId::kBoolean) {
      std::vector<uint8_t> bytes(values_.begin(), values_.end());
      return boolean_array(bytes, valid_, allocator());
    }
    return fixed_array(type_, values_, valid_, allocator());
  }

 private:
  T value_at(const ArrayData& data, int64_t i) const {
    if constexpr (std::is_same_v<T, int128_t>) {
      return decimal_at(data, i);
    } else if constexpr (std::is_same_v<T, uint8_t>) {
      if (data.type->id() == TypeId::kBoolean) {
        return bit_util::get_bit(data.buffers[1]->data(), data.offset + i) ? 1 : 0;
      }
      return data.values<T>(1)[i];
    } else {
      return data.values<T>(1)[i];
    }
  }

  void fold(const ArrayData& data, std::span<const uint32_t> group_ids) {
    const uint32_t* groups = group_ids.data();
    T* values = values_.data();
    uint8_t* valid = valid_.data();
    for_each_valid_row(data, [&](int64_t i) {
      const uint32_t g = groups[i];
      const T value = value_at(data, i);
      if (valid[g] == 0) {
        values[g] = value;
        valid[g] = 1;
      } else if (kMax ? spark_less(values[g], value) : spark_less(value, values[g])) {
        values[g] = value;
      }
    });
  }

  TypePtr type_;
  std::vector<T> values_;
  std::vector<uint8_t> valid_;
};

/// min or max of strings or binary: byte-wise comparison, as Spark compares them.
template <bool kMax>
class BinaryMinMaxAggregator final : public AggregatorBase {
 public:
  BinaryMinMaxAggregator(ExecContext& context, TypePtr type)
      : AggregatorBase(context), type_(std::move(type)) {}

  void resize(int64_t num_groups) override {
    values_.resize(static_cast<size_t>(num_groups));
    valid_.resize(static_cast<size_t>(num_groups), 0);
  }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    const Array values =
        as_array(arguments[0], static_cast<int64_t>(group_ids.size()), allocator());
    fold(*values.data(), group_ids);
  }
  std::vector<TypePtr> state_types() const override { return {type_}; }
  std::vector<Array> state() override { return {finish()}; }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    fold(*state[0].data(), group_ids);
  }
  Array finish() override {
    std::unique_ptr<ArrayBuilder> builder = make_builder(type_, allocator());
    ScalarAppender appender(*builder, "min/max");
    for (size_t g = 0; g < values_.size(); ++g) {
      if (valid_[g] != 0) {
        appender.append(values_[g]);
      } else {
        builder->append_null();
      }
    }
    return builder->finish();
  }

 private:
  void fold(const ArrayData& data, std::span<const uint32_t> group_ids) {
    for_each_valid_row(data, [&](int64_t i) {
      const uint32_t g = group_ids[static_cast<size_t>(i)];
      const std::string_view value = binary_value(data, i);
      if (valid_[g] == 0 ||
          (kMax ? std::string_view(values_[g]) < value : value < std::string_view(values_[g]))) {
        values_[g].assign(value);
        valid_[g] = 1;
      }
    });
  }

  TypePtr type_;
  std::vector<std::string> values_;
  std::vector<uint8_t> valid_;
};

/// min or max of structs and arrays, in Spark's order (`sort_indices`'s). Each batch keeps one
/// candidate per group, its first smallest (largest) row; `finish` orders the candidates of
/// every batch and keeps each group's first, so that among equal values the first one wins,
/// as in Spark.
template <bool kMax>
class NestedMinMaxAggregator final : public AggregatorBase {
 public:
  NestedMinMaxAggregator(ExecContext& context, TypePtr type)
      : AggregatorBase(context), type_(std::move(type)) {}

  void resize(int64_t num_groups) override { num_groups_ = num_groups; }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    add(as_array(arguments[0], static_cast<int64_t>(group_ids.size()), allocator()), group_ids);
  }
  std::vector<TypePtr> state_types() const override { return {type_}; }
  std::vector<Array> state() override { return {finish()}; }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    add(state[0], group_ids);
  }
  Array finish() override {
    const Array candidates = gather_rows(type_, sources_, candidates_, allocator());
    const Array chosen = first_per_group(candidates, groups_);
    const auto* first = chosen.data()->values<int64_t>(1);
    const Array sources[] = {candidates};
    std::vector<RowRef> rows(static_cast<size_t>(num_groups_));
    for (int64_t g = 0; g < num_groups_; ++g) {
      if (first[g] >= 0) {
        rows[static_cast<size_t>(g)] = RowRef{0, first[g]};
      }
    }
    return gather_rows(type_, sources, rows, allocator());
  }

 private:
  /// For each group, the row of `values` (of groups `group_ids`) that comes first in the order,
  /// -1 for none, as an int64 array of num_groups_ rows.
  Array first_per_group(const Array& values, std::span<const uint32_t> group_ids) const {
    OutputValues<int64_t> first(num_groups_, allocator());
    std::fill(first.data(), first.data() + num_groups_, int64_t{-1});
    if (values.length() > 0) {
      SortKey key;
      key.ascending = !kMax;
      const Array sorted = sort_indices(values, key, allocator());
      const auto* rows = sorted.data()->values<uint64_t>(1);
      for (int64_t i = 0; i < sorted.length(); ++i) {
        const auto row = static_cast<int64_t>(rows[i]);
        int64_t& slot = first.data()[group_ids[static_cast<size_t>(row)]];
        if (slot < 0 && values.is_valid(row)) {
          slot = row;
        }
      }
    }
    return make_fixed_width_array(int64(), num_groups_, nullptr, 0, first.finish());
  }

  void add(const Array& values, std::span<const uint32_t> group_ids) {
    const Array chosen = first_per_group(values, group_ids);
    const auto* rows = chosen.data()->values<int64_t>(1);
    const auto source = static_cast<uint32_t>(sources_.size());
    sources_.push_back(values);
    for (int64_t g = 0; g < num_groups_; ++g) {
      if (rows[g] >= 0) {
        candidates_.push_back(RowRef{source, rows[g]});
        groups_.push_back(static_cast<uint32_t>(g));
      }
    }
  }

  TypePtr type_;
  int64_t num_groups_ = 0;
  std::vector<Array> sources_;
  std::vector<RowRef> candidates_;  // in arrival order
  std::vector<uint32_t> groups_;    // the group of each candidate
};

template <bool kMax>
std::unique_ptr<GroupedAggregator> make_min_max(const TypePtr& type, ExecContext& context) {
  const DataType& t = *type;
  if (t.is_binary_like()) {
    return std::make_unique<BinaryMinMaxAggregator<kMax>>(context, type);
  }
  if (t.is_nested()) {
    return std::make_unique<NestedMinMaxAggregator<kMax>>(context, type);
  }
  if (t.id() == TypeId::kBoolean) {
    return std::make_unique<FixedMinMaxAggregator<uint8_t, kMax>>(context, type);
  }
  switch (t.id()) {
    case TypeId::kDecimal32:
      return std::make_unique<FixedMinMaxAggregator<int32_t, kMax>>(context, type);
    case TypeId::kDecimal64:
      return std::make_unique<FixedMinMaxAggregator<int64_t, kMax>>(context, type);
    case TypeId::kDecimal128:
      return std::make_unique<FixedMinMaxAggregator<int128_t, kMax>>(context, type);
    case TypeId::kInt8:
      return std::make_unique<FixedMinMaxAggregator<int8_t, kMax>>(context, type);
    case TypeId::kInt16:
      return std::make_unique<FixedMinMaxAggregator<int16_t, kMax>>(context, type);
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kIntervalMonths:
      return std::make_unique<FixedMinMaxAggregator<int32_t, kMax>>(context, type);
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
      return std::make_unique<FixedMinMaxAggregator<int64_t, kMax>>(context, type);
    case TypeId::kUInt8:
      return std::make_unique<FixedMinMaxAggregator<uint8_t, kMax>>(context, type);
    case TypeId::kUInt16:
      return std::make_unique<FixedMinMaxAggregator<uint16_t, kMax>>(context, type);
    case TypeId::kUInt32:
      return std::make_unique<FixedMinMaxAggregator<uint32_t, kMax>>(context, type);
    case TypeId::kUInt64:
      return std::make_unique<FixedMinMaxAggregator<uint64_t, kMax>>(context, type);
    case TypeId::kFloat32:
      return std::make_unique<FixedMinMaxAggregator<float, kMax>>(context, type);
    case TypeId::kFloat64:
      return std::make_unique<FixedMinMaxAggregator<double, kMax>>(context, type);
    default:
      throw_type_mismatch(kMax ? "max" : "min", type, "an orderable type");
  }
}

bool orderable(const DataType& type) {
  switch (type.id()) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
    case TypeId::kDate32:
    case TypeId::kDate64:
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
    case TypeId::kIntervalMonths:
    case TypeId::kBoolean:
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
      return true;
    case TypeId::kStruct:
      for (const auto& field : type.fields()) {
        if (!orderable(*field->type())) {
          return false;
        }
      }
      return true;
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kFixedSizeList:
      return orderable(*type.field(0)->type());
    default:
      return type.is_binary_like();
  }
}

// --- bool_and / bool_or ----------------------------------------------------------------------

/// bool_and (every) or bool_or (some, any): the boolean minimum or maximum.
template <bool kOr>
std::unique_ptr<GroupedAggregator> make_bool(ExecContext& context) {
  return std::make_unique<FixedMinMaxAggregator<uint8_t, kOr>>(context, boolean());
}

// --- stddev and variance ---------------------------------------------------------------------

enum class Moment : uint8_t { kVarPop, kVarSamp, kStddevPop, kStddevSamp };

/// Count, mean and sum of squared deviations (Welford), merged as Spark's CentralMomentAgg
/// merges them. A sample statistic of one row is null, as in Spark 4.
class MomentAggregator final : public AggregatorBase {
 public:
  MomentAggregator(ExecContext& context, Moment moment)
      : AggregatorBase(context), moment_(moment) {}

  void resize(int64_t num_groups) override {
    n_.resize(static_cast<size_t>(num_groups), 0.0);
    mean_.resize(static_cast<size_t>(num_groups), 0.0);
    m2_.resize(static_cast<size_t>(num_groups), 0.0);
  }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    const Array values =
        as_array(arguments[0], static_cast<int64_t>(group_ids.size()), allocator());
    const ArrayData& data = *values.data();
    if (data.type->is_decimal()) {
      const double unit = std::pow(10.0, type_cast<DecimalType>(*data.type).scale());
      for_each_valid_row(data, [&](int64_t i) {
        add(group_ids[static_cast<size_t>(i)], static_cast<double>(decimal_at(data, i)) / unit);
      });
      return;
    }
    if (data.type->id() == TypeId::kNull) {
      return;
    }
    visit_numeric(data.type->id(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* raw = data.values<T>(1);
      for_each_valid_row(data, [&](int64_t i) {
        add(group_ids[static_cast<size_t>(i)], static_cast<double>(raw[i]));
      });
    });
  }
  std::vector<TypePtr> state_types() const override { return {float64(), float64(), float64()}; }
  std::vector<Array> state() override {
    const std::vector<uint8_t> all(n_.size(), 1);
    return {fixed_array(float64(), n_, all, allocator()),
            fixed_array(float64(), mean_, all, allocator()),
            fixed_array(float64(), m2_, all, allocator())};
  }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    const DoubleArray n2s(state[0]);
    const DoubleArray mean2s(state[1]);
    const DoubleArray m2s(state[2]);
    for (size_t i = 0; i < group_ids.size(); ++i) {
      const auto row = static_cast<int64_t>(i);
      const uint32_t g = group_ids[i];
      const double n1 = n_[g];
      const double n2 = n2s.value(row);
      const double n = n1 + n2;
      const double delta = mean2s.value(row) - mean_[g];
      const double delta_n = n == 0.0 ? 0.0 : delta / n;
      mean_[g] += delta_n * n2;
      m2_[g] += m2s.value(row) + delta * delta_n * n1 * n2;
      n_[g] = n;
    }
  }
  Array finish() override {
    std::vector<double> results(n_.size(), 0.0);
    std::vector<uint8_t> valid(n_.size(), 0);
    const bool sample = moment_ == Moment::kVarSamp || moment_ == Moment::kStddevSamp;
    const bool root = moment_ == Moment::kStddevPop || moment_ == Moment::kStddevSamp;
    for (size_t g = 0; g < n_.size(); ++g) {
      const double divisor = sample ? n_[g] - 1.0 : n_[g];
      if (n_[g] == 0.0 || divisor == 0.0) {
        continue;
      }
      const double variance = m2_[g] / divisor;
      results[g] = root ? std::sqrt(variance) : variance;
      valid[g] = 1;
    }
    return fixed_array(float64(), results, valid, allocator());
  }

 private:
  void add(uint32_t g, double value) {
    const double n = n_[g] + 1.0;
    const double delta = value - mean_[g];
    const double delta_n = delta / n;
    mean_[g] += delta_n;
    m2_[g] += delta * (delta - delta_n);
    n_[g] = n;
  }

  Moment moment_;
  std::vector<double> n_;
  std::vector<double> mean_;
  std::vector<double> m2_;
};

// --- first, last, any_value ------------------------------------------------------------------

/// Whether nulls are skipped: the `ignore_nulls` option, or a boolean literal second argument.
bool ignore_nulls_of(std::span<const Datum> arguments, const FunctionOptions& options) {
  if (arguments.size() > 1) {
    const Datum& flag = arguments[1];
    if (!flag.is_scalar() || flag.type()->id() != TypeId::kBoolean || flag.scalar_is_null()) {
      throw AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                          "The ignoreNulls argument of first/last must be a boolean literal");
    }
    return BooleanArray(flag.array()).value(0);
  }
  const auto it = options.find("ignore_nulls");
  return it != options.end() && std::get<bool>(it->second);
}

/// first / last (and any_value): a reference to the chosen row of an input kept alive, so that
/// values of every type are supported.
template <bool kLast>
class FirstLastAggregator final : public AggregatorBase {
 public:
  FirstLastAggregator(ExecContext& context, TypePtr type, FunctionOptions options)
      : AggregatorBase(context), type_(std::move(type)), options_(std::move(options)) {}

  void resize(int64_t num_groups) override {
    refs_.resize(static_cast<size_t>(num_groups));
    set_.resize(static_cast<size_t>(num_groups), 0);
  }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    const bool ignore_nulls = ignore_nulls_of(arguments, options_);
    const Array values =
        as_array(arguments[0], static_cast<int64_t>(group_ids.size()), allocator());
    const auto source = static_cast<uint32_t>(sources_.size());
    sources_.push_back(values);
    for (size_t i = 0; i < group_ids.size(); ++i) {
      const auto row = static_cast<int64_t>(i);
      if (ignore_nulls && values.is_null(row)) {
        continue;
      }
      take(group_ids[i], source, row);
    }
  }
  std::vector<TypePtr> state_types() const override { return {type_, boolean()}; }
  std::vector<Array> state() override {
    return {finish(), boolean_array(set_, std::vector<uint8_t>(set_.size(), 1), allocator())};
  }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    const BooleanArray set(state[1]);
    const auto source = static_cast<uint32_t>(sources_.size());
    sources_.push_back(state[0]);
    for (size_t i = 0; i < group_ids.size(); ++i) {
      if (set.value(static_cast<int64_t>(i))) {
        take(group_ids[i], source, static_cast<int64_t>(i));
      }
    }
  }
  Array finish() override { return gather_rows(type_, sources_, refs_, allocator()); }

 private:
  void take(uint32_t group, uint32_t source, int64_t row) {
    if (kLast || set_[group] == 0) {
      refs_[group] = RowRef{source, row};
      set_[group] = 1;
    }
  }

  TypePtr type_;
  FunctionOptions options_;
  std::vector<Array> sources_;
  std::vector<RowRef> refs_;
  std::vector<uint8_t> set_;
};

// --- collect_list, collect_set, count_distinct -----------------------------------------------

/// A uint32 array of `group_ids`, to group on (group, value) pairs.
Array group_id_array(std::span<const uint32_t> group_ids, Allocator* allocator) {
  OutputValues<uint32_t> out(static_cast<int64_t>(group_ids.size()), allocator);
  if (!group_ids.empty()) {
    std::memcpy(out.data(), group_ids.data(), group_ids.size() * sizeof(uint32_t));
  }
  return make_fixed_width_array(uint32(), static_cast<int64_t>(group_ids.size()), nullptr, 0,
                                out.finish());
}

/// Distinct (group, value...) pairs, for collect_set and count_distinct: `add` reports which
/// rows bring a pair not seen before.
class DistinctPairs {
 public:
  DistinctPairs(std::span<const TypePtr> value_types, Allocator* allocator)
      : allocator_(allocator) {
    std::vector<TypePtr> types{uint32()};
    types.insert(types.end(), value_types.begin(), value_types.end());
    grouper_ = Grouper::make(types, allocator);
  }

  /// Calls `on_new(i)` for each row i of `values` whose (group, values) pair is new.
  template <typename OnNew>
  void add(std::span<const uint32_t> group_ids, std::span<const Array> values, OnNew&& on_new) {
    std::vector<Array> keys{group_id_array(group_ids, allocator_)};
    keys.insert(keys.end(), values.begin(), values.end());
    const std::vector<uint32_t> pair_ids = grouper_->consume(keys);
    for (size_t i = 0; i < pair_ids.size(); ++i) {
      if (pair_ids[i] == seen_) {
        ++seen_;
        on_new(static_cast<int64_t>(i));
      }
    }
  }

 private:
  Allocator* allocator_;
  std::unique_ptr<Grouper> grouper_;
  uint32_t seen_ = 0;
};

/// Rows of retained inputs, each assigned to a group, in arrival order: the elements of
/// collect_list / collect_set, or the distinct values of count_distinct.
class GroupedRows {
 public:
  void add(uint32_t group, uint32_t source, int64_t row) {
    groups_.push_back(group);
    refs_.push_back(RowRef{source, row});
  }
  uint32_t add_source(const Array& array) {
    sources_.push_back(array);
    return static_cast<uint32_t>(sources_.size() - 1);
  }
  /// A list array with one list per group (groups [0, num_groups)), elements in arrival order.
  Array lists(const TypePtr& type, int64_t num_groups, Allocator* allocator) const {
    std::vector<int64_t> counts(static_cast<size_t>(num_groups) + 1, 0);
    for (const uint32_t g : groups_) {
      ++counts[g + 1];
    }
    for (size_t g = 1; g < counts.size(); ++g) {
      counts[g] += counts[g - 1];
    }
    OutputValues<int32_t> offsets(num_groups + 1, allocator);
    for (int64_t g = 0; g <= num_groups; ++g) {
      offsets.data()[g] = static_cast<int32_t>(counts[static_cast<size_t>(g)]);
    }
    std::vector<RowRef> ordered(refs_.size());
    std::vector<int64_t> next(counts.begin(), counts.end() - 1);
    for (size_t i = 0; i < refs_.size(); ++i) {
      ordered[static_cast<size_t>(next[groups_[i]]++)] = refs_[i];
    }
    const Array elements = gather_rows(type, sources_, ordered, allocator);
    return Array(std::make_shared<ArrayData>(
        list(type), num_groups, std::vector<std::shared_ptr<Buffer>>{nullptr, offsets.finish()}, 0,
        0, std::vector<ArrayDataPtr>{elements.data()}));
  }

 private:
  std::vector<uint32_t> groups_;
  std::vector<RowRef> refs_;
  std::vector<Array> sources_;
};

/// For each element of the lists of a state column, the group of its list.
std::vector<uint32_t> element_groups(const ListArray& lists, std::span<const uint32_t> group_ids) {
  std::vector<uint32_t> groups;
  for (int64_t i = 0; i < lists.length(); ++i) {
    groups.insert(groups.end(), static_cast<size_t>(lists.value_length(i)),
                  group_ids[static_cast<size_t>(i)]);
  }
  return groups;
}

/// The elements of a state column of lists, as one array (the lists are contiguous).
Array list_elements(const ListArray& lists) {
  const int64_t begin = lists.length() == 0 ? 0 : lists.value_offset(0);
  const int64_t end = lists.length() == 0 ? 0 : lists.value_offset(lists.length());
  return lists.values().slice(begin, end - begin);
}

/// collect_list / collect_set: the non-null values of each group, as an array.
template <bool kSet>
class CollectAggregator final : public AggregatorBase {
 public:
  CollectAggregator(ExecContext& context, TypePtr type)
      : AggregatorBase(context), type_(std::move(type)) {
    if constexpr (kSet) {
      const TypePtr types[] = {type_};
      distinct_ = std::make_unique<DistinctPairs>(types, context.allocator);
    }
  }

  void resize(int64_t num_groups) override { num_groups_ = num_groups; }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    const Array values =
        as_array(arguments[0], static_cast<int64_t>(group_ids.size()), allocator());
    add(values, group_ids);
  }
  std::vector<TypePtr> state_types() const override { return {list(type_)}; }
  std::vector<Array> state() override { return {finish()}; }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    const ListArray lists(state[0]);
    const std::vector<uint32_t> groups = element_groups(lists, group_ids);
    add(list_elements(lists), groups);
  }
  Array finish() override { return rows_.lists(type_, num_groups_, allocator()); }

 private:
  void add(const Array& values, std::span<const uint32_t> group_ids) {
    const uint32_t source = rows_.add_source(values);
    const ArrayData& data = *values.data();
    if constexpr (kSet) {
      const Array columns[] = {values};
      distinct_->add(group_ids, columns, [&](int64_t i) {
        if (!data.is_null_in_bitmap(i)) {
          rows_.add(group_ids[static_cast<size_t>(i)], source, i);
        }
      });
    } else {
      for_each_valid_row(
          data, [&](int64_t i) { rows_.add(group_ids[static_cast<size_t>(i)], source, i); });
    }
  }

  TypePtr type_;
  int64_t num_groups_ = 0;
  GroupedRows rows_;
  std::unique_ptr<DistinctPairs> distinct_;
};

/// count(DISTINCT x, y...): distinct tuples with no null member.
class CountDistinctAggregator final : public AggregatorBase {
 public:
  CountDistinctAggregator(ExecContext& context, std::span<const TypePtr> types)
      : AggregatorBase(context),
        types_(types.begin(), types.end()),
        distinct_(types, context.allocator),
        rows_(types.size()) {}

  void resize(int64_t num_groups) override {
    counts_.resize(static_cast<size_t>(num_groups), 0);
    num_groups_ = num_groups;
  }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    std::vector<Array> values;
    for (const Datum& argument : arguments) {
      values.push_back(as_array(argument, static_cast<int64_t>(group_ids.size()), allocator()));
    }
    add(values, group_ids);
  }
  std::vector<TypePtr> state_types() const override {
    std::vector<TypePtr> types;
    for (const TypePtr& type : types_) {
      types.push_back(list(type));
    }
    return types;
  }
  std::vector<Array> state() override {
    std::vector<Array> lists;
    for (size_t c = 0; c < types_.size(); ++c) {
      lists.push_back(rows_[c].lists(types_[c], num_groups_, allocator()));
    }
    return lists;
  }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    std::vector<Array> values;
    std::vector<uint32_t> groups;
    for (size_t c = 0; c < state.size(); ++c) {
      const ListArray lists(state[c]);
      if (c == 0) {
        groups = element_groups(lists, group_ids);
      }
      values.push_back(list_elements(lists));
    }
    add(values, groups);
  }
  Array finish() override {
    return fixed_array(int64(), counts_, std::vector<uint8_t>(counts_.size(), 1), allocator());
  }

 private:
  void add(std::span<const Array> values, std::span<const uint32_t> group_ids) {
    std::vector<uint32_t> sources;
    for (size_t c = 0; c < values.size(); ++c) {
      sources.push_back(rows_[c].add_source(values[c]));
    }
    distinct_.add(group_ids, values, [&](int64_t i) {
      for (const Array& column : values) {
        if (column.is_null(i)) {
          return;
        }
      }
      const uint32_t g = group_ids[static_cast<size_t>(i)];
      ++counts_[g];
      for (size_t c = 0; c < values.size(); ++c) {
        rows_[c].add(g, sources[c], i);
      }
    });
  }

  std::vector<TypePtr> types_;
  DistinctPairs distinct_;
  std::vector<GroupedRows> rows_;
  std::vector<int64_t> counts_;
  int64_t num_groups_ = 0;
};

// --- approx_count_distinct -------------------------------------------------------------------

double rsd_of(std::span<const Datum> arguments, const FunctionOptions& options) {
  if (arguments.size() > 1) {
    const Datum& rsd = arguments[1];
    if (!rsd.is_scalar() || rsd.type()->id() != TypeId::kFloat64 || rsd.scalar_is_null()) {
      throw AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                          "The relativeSD argument of approx_count_distinct must be a double "
                          "literal");
    }
    return DoubleArray(rsd.array()).value(0);
  }
  const auto it = options.find("rsd");
  return it != options.end() ? std::get<double>(it->second) : 0.05;
}

class ApproxCountDistinctAggregator final : public AggregatorBase {
 public:
  ApproxCountDistinctAggregator(ExecContext& context, FunctionOptions options)
      : AggregatorBase(context), options_(std::move(options)), sketches_(rsd_of({}, options_)) {}

  void resize(int64_t num_groups) override {
    sketches_.resize(num_groups);
    num_groups_ = num_groups;
  }
  void update(std::span<const Datum> arguments, std::span<const uint32_t> group_ids) override {
    // The rsd literal is only seen here; it is the same at every update, so the sketches are
    // remade at most once, before any value went in.
    const double rsd = rsd_of(arguments, options_);
    if (HyperLogLogSketches::precision_for(rsd) != sketches_.precision() && !updated_) {
      sketches_ = HyperLogLogSketches(rsd);
      sketches_.resize(num_groups_);
    }
    updated_ = true;
    const auto rows = static_cast<int64_t>(group_ids.size());
    const Array values = as_array(arguments[0], rows, allocator());
    std::vector<int64_t> hashes(static_cast<size_t>(rows), 42);
    spark_xxhash64_column(values, hashes.data());
    for_each_valid_row(*values.data(), [&](int64_t i) {
      sketches_.add(group_ids[static_cast<size_t>(i)],
                    static_cast<uint64_t>(hashes[static_cast<size_t>(i)]));
    });
  }
  std::vector<TypePtr> state_types() const override {
    return {fixed_size_binary(static_cast<int32_t>(sketches_.registers_per_sketch()))};
  }
  std::vector<Array> state() override {
    const int64_t width = sketches_.registers_per_sketch();
    MutableBuffer bytes(num_groups_ * width, allocator());
    for (int64_t g = 0; g < num_groups_; ++g) {
      std::memcpy(bytes.mutable_data() + g * width, sketches_.registers(g),
                  static_cast<size_t>(width));
    }
    return {make_fixed_width_array(state_types()[0], num_groups_, nullptr, 0, bytes.finish())};
  }
  void merge(std::span<const Array> state, std::span<const uint32_t> group_ids) override {
    const FixedSizeBinaryArray sketches(state[0]);
    if (sketches.byte_width() != sketches_.registers_per_sketch()) {
      // A final aggregator sees no rsd literal: it takes the precision of the states, unless
      // it already holds values.
      if (updated_) {
        throw InvalidArgument("approx_count_distinct: merging sketches of different precisions");
      }
      sketches_ = HyperLogLogSketches::of_precision(
          std::countr_zero(static_cast<uint64_t>(sketches.byte_width())));
      sketches_.resize(num_groups_);
    }
    updated_ = true;
    for (size_t i = 0; i < group_ids.size(); ++i) {
      sketches_.merge(group_ids[i], sketches.value_bytes(static_cast<int64_t>(i)));
    }
  }
  Array finish() override {
    std::vector<int64_t> estimates(static_cast<size_t>(num_groups_));
    for (int64_t g = 0; g < num_groups_; ++g) {
      estimates[static_cast<size_t>(g)] = sketches_.estimate(g);
    }
    return fixed_array(int64(), estimates, std::vector<uint8_t>(estimates.size(), 1), allocator());
  }

 private:
  FunctionOptions options_;
  HyperLogLogSketches sketches_;
  int64_t num_groups_ = 0;
  bool updated_ = false;
};

// --- Resolution --------------------------------------------------------------------------------

/// Spark's decimals have at most 38 digits: wider Arrow decimals are refused by name.
void check_decimal_precision(const std::string& name, const TypePtr& type) {
  if (type->id() == TypeId::kDecimal256 &&
      type_cast<DecimalType>(*type).precision() > kMaxDecimalPrecision) {
    throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                        "Cannot resolve \"" + name + "\": the argument has the type " +
                            type->to_string() + ", of more than " +
                            std::to_string(kMaxDecimalPrecision) +
                            " digits, which Spark's decimals cannot hold");
  }
}

/// The type of sums of decimals of `type`: decimal(min(38, p + 10), s).
TypePtr decimal_sum_type(const DataType& type) {
  const auto& decimal = type_cast<DecimalType>(type);
  return decimal128(std::min(kMaxDecimalPrecision, decimal.precision() + 10), decimal.scale());
}

Resolution resolve_sum(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr& type = arguments[0];
  if (is_integral(*type)) {
    return {int64(), {type}};
  }
  if (is_fractional(*type)) {
    return {float64(), {type}};
  }
  if (type->is_decimal()) {
    check_decimal_precision(name, type);
    return {decimal_sum_type(*type), {type}};
  }
  if (type->id() == TypeId::kNull) {
    return {float64(), {float64()}};
  }
  throw_type_mismatch(name, type, "a numeric type");
}

Resolution resolve_avg(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr& type = arguments[0];
  if (is_integral(*type) || is_fractional(*type)) {
    return {float64(), {type}};
  }
  if (type->is_decimal()) {
    check_decimal_precision(name, type);
    const auto& decimal = type_cast<DecimalType>(*type);
    return {decimal128(std::min(kMaxDecimalPrecision, decimal.precision() + 4),
                       std::min(kMaxDecimalPrecision, decimal.scale() + 4)),
            {type}};
  }
  if (type->id() == TypeId::kNull) {
    return {float64(), {float64()}};
  }
  throw_type_mismatch(name, type, "a numeric type");
}

Resolution resolve_double(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr& type = arguments[0];
  if ((!type->is_numeric() && type->id() != TypeId::kNull) || type->id() == TypeId::kFloat16 ||
      type->id() == TypeId::kDecimal256) {
    throw_type_mismatch(name, type, "a numeric type");
  }
  return {float64(), {type}};
}

Resolution resolve_min_max(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr& type = arguments[0];
  if (!orderable(*type)) {
    throw AnalysisError("DATATYPE_MISMATCH.INVALID_ORDERING_TYPE",
                        "Cannot resolve \"" + name + "\" due to data type mismatch: The `" + name +
                            "` does not support ordering on type \"" + spark_type_name(*type) +
                            "\".");
  }
  return {type, {type}};
}

Resolution resolve_boolean(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr& type = arguments[0];
  if (type->id() != TypeId::kBoolean && type->id() != TypeId::kNull) {
    throw_type_mismatch(name, type, "BOOLEAN");
  }
  return {boolean(), {boolean()}};
}

void check_flag(const std::string& name, std::span<const TypePtr> arguments,
                const std::string& expected, TypeId id) {
  if (arguments.size() > 1 && arguments[1]->id() != id) {
    throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                        "Cannot resolve \"" + name + "\": the second argument has the type " +
                            spark_type_name(*arguments[1]) + ", expected " + expected);
  }
}

template <bool kLast>
void add_first_last(FunctionRegistry& registry, const std::string& name,
                    std::vector<std::string> aliases, const std::string& description) {
  registry.add(std::make_shared<LambdaAggregateFunction>(
                   name, Function::Arity{1, 2}, NullHandling::kCustom, description,
                   std::vector<std::string>{"(T[, boolean]) -> T"},
                   [](const std::string& function, std::span<const TypePtr> arguments) {
                     check_flag(function, arguments, "BOOLEAN", TypeId::kBoolean);
                     return Resolution{arguments[0],
                                       std::vector<TypePtr>(arguments.begin(), arguments.end())};
                   },
                   [](std::span<const TypePtr> arguments, const FunctionOptions& options,
                      ExecContext& context) -> std::unique_ptr<GroupedAggregator> {
                     return std::make_unique<FirstLastAggregator<kLast>>(context, arguments[0],
                                                                         options);
                   }),
               std::move(aliases));
}

void add_moment(FunctionRegistry& registry, const std::string& name, Moment moment,
                std::vector<std::string> aliases, const std::string& description) {
  registry.add(std::make_shared<LambdaAggregateFunction>(
                   name, Function::Arity{1, 1}, NullHandling::kCustom, description,
                   std::vector<std::string>{"(double) -> double"},
                   [](const std::string& function, std::span<const TypePtr> arguments) {
                     return resolve_double(function, arguments);
                   },
                   [moment](std::span<const TypePtr>, const FunctionOptions&,
                            ExecContext& context) -> std::unique_ptr<GroupedAggregator> {
                     return std::make_unique<MomentAggregator>(context, moment);
                   }),
               std::move(aliases));
}

/// Whether the aggregator serves a grouped aggregation (the `grouped` option `group_by` sets),
/// not a global one.
bool grouped_of(const FunctionOptions& options) {
  const auto it = options.find("grouped");
  return it != options.end() && std::get<bool>(it->second);
}

std::unique_ptr<GroupedAggregator> make_sum(std::span<const TypePtr> arguments,
                                            const FunctionOptions& options, ExecContext& context,
                                            bool try_mode) {
  const TypePtr& type = arguments[0];
  if (type->is_integer()) {
    return std::make_unique<IntegerSumAggregator>(context, try_mode);
  }
  if (type->is_decimal()) {
    return std::make_unique<DecimalSumAggregator>(context, decimal_sum_type(*type), "sum", try_mode,
                                                  grouped_of(options));
  }
  return std::make_unique<DoubleSumAggregator>(context);
}

std::unique_ptr<GroupedAggregator> make_avg(std::span<const TypePtr> arguments,
                                            const FunctionOptions& options, ExecContext& context,
                                            bool try_mode) {
  const TypePtr& type = arguments[0];
  const TypePtr output = resolve_avg(try_mode ? "try_avg" : "avg", arguments).output;
  if (type->is_decimal()) {
    return std::make_unique<AvgAggregator<DecimalSumAggregator>>(
        context, output, decimal_sum_type(*type), "avg", try_mode, grouped_of(options));
  }
  return std::make_unique<AvgAggregator<DoubleSumAggregator>>(context, output);
}

/// count and count_distinct.
void add_counts(FunctionRegistry& registry) {
  registry.add(std::make_shared<LambdaAggregateFunction>(
      "count", Function::Arity{0, -1}, NullHandling::kCustom,
      "Number of rows, or of rows where every argument is non-null.",
      std::vector<std::string>{"() -> bigint", "(any, any...) -> bigint"},
      [](const std::string&, std::span<const TypePtr> arguments) {
        return Resolution{int64(), std::vector<TypePtr>(arguments.begin(), arguments.end())};
      },
      [](std::span<const TypePtr>, const FunctionOptions&,
         ExecContext& context) -> std::unique_ptr<GroupedAggregator> {
        return std::make_unique<CountAggregator>(context);
      }));
  registry.add(std::make_shared<LambdaAggregateFunction>(
      "count_distinct", Function::Arity{1, -1}, NullHandling::kCustom,
      "Number of distinct tuples of the arguments with no null member (COUNT(DISTINCT ...)).",
      std::vector<std::string>{"(any, any...) -> bigint"},
      [](const std::string&, std::span<const TypePtr> arguments) {
        return Resolution{int64(), std::vector<TypePtr>(arguments.begin(), arguments.end())};
      },
      [](std::span<const TypePtr> arguments, const FunctionOptions&,
         ExecContext& context) -> std::unique_ptr<GroupedAggregator> {
        return std::make_unique<CountDistinctAggregator>(context, arguments);
      }));
}

/// sum, try_sum, avg and try_avg.
void add_sums_and_means(FunctionRegistry& registry) {
  for (const bool try_mode : {false, true}) {
    registry.add(std::make_shared<LambdaAggregateFunction>(
        try_mode ? "try_sum" : "sum", Function::Arity{1, 1}, NullHandling::kCustom,
        try_mode ? "Sum of the non-null values; null on overflow."
                 : "Sum of the non-null values (bigint for integers, with an overflow error).",
        std::vector<std::string>{"(integral) -> bigint", "(double) -> double",
                                 "(decimal(p, s)) -> decimal(p + 10, s)"},
        [](const std::string& function, std::span<const TypePtr> arguments) {
          return resolve_sum(function, arguments);
        },
        [try_mode](std::span<const TypePtr> arguments, const FunctionOptions& options,
                   ExecContext& context) {
          return make_sum(arguments, options, context, try_mode);
        }));
  }
  for (const bool try_mode : {false, true}) {
    registry.add(std::make_shared<LambdaAggregateFunction>(
                     try_mode ? "try_avg" : "avg", Function::Arity{1, 1}, NullHandling::kCustom,
                     try_mode ? "Mean of the non-null values; null when a decimal overflows."
                              : "Mean of the non-null values.",
                     std::vector<std::string>{"(integral) -> double", "(float) -> double",
                                              "(double) -> double",
                                              "(decimal(p, s)) -> decimal(p + 4, s + 4)"},
                     [](const std::string& function, std::span<const TypePtr> arguments) {
                       return resolve_avg(function, arguments);
                     },
                     [try_mode](std::span<const TypePtr> arguments, const FunctionOptions& options,
                                ExecContext& context) {
                       return make_avg(arguments, options, context, try_mode);
                     }),
                 try_mode ? std::vector<std::string>{} : std::vector<std::string>{"mean"});
  }
}

/// min, max, first, any_value and last.
void add_extremes_and_positions(FunctionRegistry& registry) {
  for (const bool is_max : {false, true}) {
    registry.add(std::make_shared<LambdaAggregateFunction>(
        is_max ? "max" : "min", Function::Arity{1, 1}, NullHandling::kCustom,
        is_max ? "Largest non-null value (NaN above every number)."
               : "Smallest non-null value (NaN above every number).",
        std::vector<std::string>{"(T) -> T for every orderable T"},
        [](const std::string& function, std::span<const TypePtr> arguments) {
          return resolve_min_max(function, arguments);
        },
        [is_max](std::span<const TypePtr> arguments, const FunctionOptions&, ExecContext& context) {
          return is_max ? make_min_max<true>(arguments[0], context)
                        : make_min_max<false>(arguments[0], context);
        }));
  }
  add_first_last<false>(registry, "first", {"first_value"},
                        "The value of the first row (of the first non-null one with "
                        "ignoreNulls).");
  add_first_last<false>(registry, "any_value", {},
                        "Some value of the group: that of its first row.");
  add_first_last<true>(registry, "last", {"last_value"},
                       "The value of the last row (of the last non-null one with ignoreNulls).");
}

/// The standard deviations and variances.
void add_moments(FunctionRegistry& registry) {
  add_moment(registry, "stddev_samp", Moment::kStddevSamp, {"stddev", "std"},
             "Sample standard deviation; null for fewer than two values.");
  add_moment(registry, "stddev_pop", Moment::kStddevPop, {}, "Population standard deviation.");
  add_moment(registry, "var_samp", Moment::kVarSamp, {"variance"},
             "Sample variance; null for fewer than two values.");
  add_moment(registry, "var_pop", Moment::kVarPop, {}, "Population variance.");
}

/// collect_list and collect_set.
void add_collections(FunctionRegistry& registry) {
  for (const bool is_set : {false, true}) {
    registry.add(
        std::make_shared<LambdaAggregateFunction>(
            is_set ? "collect_set" : "collect_list", Function::Arity{1, 1}, NullHandling::kCustom,
            is_set ? "The distinct non-null values, as an array."
                   : "The non-null values in row order, as an array.",
            std::vector<std::string>{"(T) -> array<T>"},
            [](const std::string&, std::span<const TypePtr> arguments) {
              return Resolution{list(arguments[0]), {arguments[0]}};
            },
            [is_set](std::span<const TypePtr> arguments, const FunctionOptions&,
                     ExecContext& context) -> std::unique_ptr<GroupedAggregator> {
              if (is_set) {
                return std::make_unique<CollectAggregator<true>>(context, arguments[0]);
              }
              return std::make_unique<CollectAggregator<false>>(context, arguments[0]);
            }),
        is_set ? std::vector<std::string>{} : std::vector<std::string>{"array_agg"});
  }
}

/// bool_and and bool_or.
void add_boolean_folds(FunctionRegistry& registry) {
  for (const bool is_or : {false, true}) {
    registry.add(
        std::make_shared<LambdaAggregateFunction>(
            is_or ? "bool_or" : "bool_and", Function::Arity{1, 1}, NullHandling::kCustom,
            is_or ? "True when any non-null value is true."
                  : "True when every non-null value "
                    "is true.",
            std::vector<std::string>{"(boolean) -> boolean"},
            [](const std::string& function, std::span<const TypePtr> arguments) {
              return resolve_boolean(function, arguments);
            },
            [is_or](std::span<const TypePtr>, const FunctionOptions&, ExecContext& context) {
              return is_or ? make_bool<true>(context) : make_bool<false>(context);
            }),
        is_or ? std::vector<std::string>{"some", "any"} : std::vector<std::string>{"every"});
  }
}

/// approx_count_distinct.
void add_sketches(FunctionRegistry& registry) {
  registry.add(std::make_shared<LambdaAggregateFunction>(
      "approx_count_distinct", Function::Arity{1, 2}, NullHandling::kCustom,
      "Estimated number of distinct non-null values (HyperLogLog++, relative standard "
      "deviation 0.05 unless given).",
      std::vector<std::string>{"(any[, double]) -> bigint"},
      [](const std::string& function, std::span<const TypePtr> arguments) {
        check_flag(function, arguments, "DOUBLE", TypeId::kFloat64);
        return Resolution{int64(), std::vector<TypePtr>(arguments.begin(), arguments.end())};
      },
      [](std::span<const TypePtr>, const FunctionOptions& options,
         ExecContext& context) -> std::unique_ptr<GroupedAggregator> {
        return std::make_unique<ApproxCountDistinctAggregator>(context, options);
      }));
}

}  // namespace

void register_aggregate_functions(FunctionRegistry& registry) {
  add_counts(registry);
  add_sums_and_means(registry);
  add_extremes_and_positions(registry);
  add_moments(registry);
  add_collections(registry);
  add_boolean_folds(registry);
  add_sketches(registry);
}

}  // namespace bowstring::compute
