#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "bowstring/array/builder.h"
#include "bowstring/array/builder_scalar.h"

namespace bowstring {

/// run_end_encoded<run_ends: int16|int32|int64, values: V>. Two ways to append:
///
/// - Values, typed (`append(int64_t{5})`, `append("text", 3)`, the C type of V, with a count of
///   copies), as an array (`append_array`) or as nulls: a value equal to the previous one
///   extends the current run instead of starting a new one, and so do consecutive nulls. This
///   works for value types whose values compare as bytes (see `ScalarKind`).
/// - Runs of any value type: append one value to `value_builder()`, then `append_run(n)` makes
///   it a run of n slots (never merged with its neighbours).
///
/// The finished array has no buffers of its own; its children are the run ends (non-null,
/// strictly increasing, the last one equal to the length) and the values. Its null count is 0
/// (nulls are null values), as is `null_count()`. Passing the largest length the run-end type
/// holds throws `InvalidArgument`.
class RunEndEncodedBuilder final : public ArrayBuilder {
 public:
  explicit RunEndEncodedBuilder(TypePtr type, Allocator* allocator = default_allocator());
  ~RunEndEncodedBuilder() override;

  const RunEndEncodedType& run_end_encoded_type() const {
    return static_cast<const RunEndEncodedType&>(*type_);
  }
  /// The builder of the run values (one per run).
  ArrayBuilder& value_builder() { return *values_; }
  int64_t num_runs() const { return run_ends_.length(); }

  /// Ends a run of `length` (> 0) slots holding the one value appended to `value_builder()`
  /// since the previous run; throws `InvalidArgument` otherwise.
  void append_run(int64_t length);

  /// Appends `count` copies of `value`, the C type of the value type.
  template <ScalarValue T>
  void append(const T& value, int64_t count = 1) {
    append_bytes(scalar_value_bytes(value), ScalarAppender::source_of<T>(), count);
  }
  /// Appends `count` copies of a string or binary value, or of the raw bytes of a fixed-width
  /// value (fixed_size_binary, decimals).
  void append(std::string_view value, int64_t count = 1) {
    append_bytes(value, ScalarAppender::Source::kBytes, count);
  }
  /// Appends every value of `values` (of the value type), merging equal neighbours into runs.
  void append_array(const Array& values);

  void append_null() override { append_nulls(1); }
  void append_nulls(int64_t count) override;
  /// A run of placeholder values (not merged).
  void append_empty_value() override { append_empty_values(1); }
  void append_empty_values(int64_t count) override;
  void reserve(int64_t additional) override;
  void reset() override;

 protected:
  void prepare_finish() override;
  ArrayDataPtr finish_impl() override;

 private:
  enum class Last : uint8_t { kUnknown, kNull, kValue };

  void append_bytes(std::string_view bytes, ScalarAppender::Source source, int64_t count);
  void append_checked(std::string_view bytes, int64_t count);
  /// Throws unless `count` is non-negative and `count` more slots fit the run-end type.
  void check_count(int64_t count) const;
  [[noreturn]] void throw_unsupported() const;

  int64_t max_length_;
  std::unique_ptr<ArrayBuilder> values_;
  std::unique_ptr<ScalarAppender> appender_;
  TypedBufferBuilder<int64_t> run_ends_;
  BufferBuilder narrow_run_ends_;  // int16/int32 run ends: reserved by prepare_finish
  Last last_ = Last::kUnknown;
  std::string last_value_;
};

}  // namespace bowstring
