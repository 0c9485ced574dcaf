#include "bowstring/array/builder_run_end_encoded.h"

#include <limits>

#include "bowstring/array/builder_nested.h"

namespace bowstring {

RunEndEncodedBuilder::RunEndEncodedBuilder(TypePtr type, Allocator* allocator)
    : ArrayBuilder(
          checked_builder_type(std::move(type), TypeId::kRunEndEncoded, "RunEndEncodedBuilder"),
          allocator),
      values_(make_field_builder(*type_->field(1), allocator)),
      run_ends_(allocator),
      narrow_run_ends_(allocator) {
  switch (run_end_encoded_type().run_end_type()->id()) {
    case TypeId::kInt16:
      max_length_ = std::numeric_limits<int16_t>::max();
      break;
    case TypeId::kInt32:
      max_length_ = std::numeric_limits<int32_t>::max();
      break;
    default:
      max_length_ = std::numeric_limits<int64_t>::max();
      break;
  }
  if (scalar_kind(*values_->type()) != ScalarKind::kUnsupported) {
    appender_ = std::make_unique<ScalarAppender>(*values_, "RunEndEncodedBuilder");
  }
}

RunEndEncodedBuilder::~RunEndEncodedBuilder() = default;

void RunEndEncodedBuilder::check_count(int64_t count) const {
  if (count < 0) {
    throw InvalidArgument("cannot append a negative number of values to a run: " +
                          std::to_string(count));
  }
  if (count > max_length_ - length_) {
    throw InvalidArgument("a " + type_->to_string() + " builder holds at most " +
                          std::to_string(max_length_) + " values; cannot append " +
                          std::to_string(count) + " to its " + std::to_string(length_));
  }
}

void RunEndEncodedBuilder::throw_unsupported() const {
  throw NotImplemented("a RunEndEncodedBuilder cannot compare values of " +
                       values_->type()->to_string() +
                       "; append them to value_builder() and end runs with append_run");
}

void RunEndEncodedBuilder::append_run(int64_t length) {
  if (values_->length() != num_runs() + 1) {
    throw InvalidArgument(
        "append_run ends a run of the one value appended to the value builder "
        "since the previous run, but the value builder of a " +
        type_->to_string() + " builder has " + std::to_string(values_->length()) + " values for " +
        std::to_string(num_runs()) + " runs");
  }
  if (length <= 0) {
    throw InvalidArgument("a run must hold at least one value, got a length of " +
                          std::to_string(length));
  }
  check_count(length);
  length_ += length;
  run_ends_.append(length_);
  last_ = Last::kUnknown;
}

void RunEndEncodedBuilder::append_checked(std::string_view bytes, int64_t count) {
  if (count == 0) {
    return;
  }
  if (last_ == Last::kValue && bytes == last_value_) {
    run_ends_.back() += count;
  } else {
    appender_->append(bytes);
    run_ends_.append(length_ + count);
    last_ = Last::kValue;
    last_value_.assign(bytes);
  }
  length_ += count;
}

void RunEndEncodedBuilder::append_bytes(std::string_view bytes, ScalarAppender::Source source,
                                        int64_t count) {
  if (appender_ == nullptr) {
    throw_unsupported();
  }
  appender_->check(bytes.size(), source);
  check_count(count);
  append_checked(bytes, count);
}

void RunEndEncodedBuilder::append_array(const Array& values) {
  if (!values.type()->equals(*values_->type())) {
    throw TypeError("cannot run-end encode an array of " + values.type()->to_string() + " with a " +
                    type_->to_string() + " builder");
  }
  if (appender_ == nullptr) {
    throw_unsupported();
  }
  const ArrayData& data = *values.data();
  check_count(data.length);
  for (int64_t i = 0; i < data.length; ++i) {
    if (data.is_null_in_bitmap(i)) {
      append_nulls(1);
    } else {
      append_checked(scalar_bytes(data, i), 1);
    }
  }
}

void RunEndEncodedBuilder::append_nulls(int64_t count) {
  check_count(count);
  check_nulls_allowed(count);
  if (count == 0) {
    return;
  }
  if (last_ == Last::kNull) {
    run_ends_.back() += count;
  } else {
    values_->append_null();
    run_ends_.append(length_ + count);
    last_ = Last::kNull;
  }
  length_ += count;
}

void RunEndEncodedBuilder::append_empty_values(int64_t count) {
  check_count(count);
  if (count == 0) {
    return;
  }
  values_->append_empty_value();
  length_ += count;
  run_ends_.append(length_);
  last_ = Last::kUnknown;
}

void RunEndEncodedBuilder::reserve(int64_t additional) { run_ends_.reserve(additional); }

void RunEndEncodedBuilder::reset() {
  ArrayBuilder::reset();
  values_->reset();
  run_ends_.reset();
  narrow_run_ends_.reset();
  last_ = Last::kUnknown;
  last_value_.clear();
}

namespace {

/// Writes `run_ends` as `RunEnd` values to `narrow`, which has room for them.
template <typename RunEnd>
std::shared_ptr<Buffer> narrow_run_ends(const TypedBufferBuilder<int64_t>& run_ends,
                                        BufferBuilder& narrow) {
  for (int64_t i = 0; i < run_ends.length(); ++i) {
    const auto run_end = static_cast<RunEnd>(run_ends[i]);
    narrow.unsafe_append(&run_end, sizeof(run_end));
  }
  return narrow.finish();
}

}  // namespace

void RunEndEncodedBuilder::prepare_finish() {
  if (values_->length() != num_runs()) {
    throw InvalidArgument("the value builder of a " + type_->to_string() + " builder has " +
                          std::to_string(values_->length()) + " values for " +
                          std::to_string(num_runs()) +
                          " runs: end each value's run with append_run");
  }
  const int run_end_width = run_end_encoded_type().run_end_type()->byte_width();
  if (run_end_width < 8) {
    narrow_run_ends_.reserve(num_runs() * run_end_width);
  }
  prepare_child(*values_);
}

ArrayDataPtr RunEndEncodedBuilder::finish_impl() {
  const TypePtr& run_end_type = run_end_encoded_type().run_end_type();
  const int64_t runs = num_runs();
  std::shared_ptr<Buffer> run_end_buffer;
  switch (run_end_type->id()) {
    case TypeId::kInt16:
      run_end_buffer = narrow_run_ends<int16_t>(run_ends_, narrow_run_ends_);
      break;
    case TypeId::kInt32:
      run_end_buffer = narrow_run_ends<int32_t>(run_ends_, narrow_run_ends_);
      break;
    default:
      run_end_buffer = run_ends_.finish();
      break;
  }
  auto run_ends = std::make_shared<ArrayData>(
      run_end_type, runs, std::vector<std::shared_ptr<Buffer>>{nullptr, std::move(run_end_buffer)},
      0);
  run_ends_.reset();
  last_ = Last::kUnknown;
  last_value_.clear();
  return std::make_shared<ArrayData>(
      type_, length_, std::vector<std::shared_ptr<Buffer>>{nullptr}, 0, 0,
      std::vector<ArrayDataPtr>{std::move(run_ends), finish_child(*values_)});
}

}  // namespace bowstring
