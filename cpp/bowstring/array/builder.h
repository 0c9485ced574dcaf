#pragma once

#include <cstdint>
#include <memory>
#include <typeinfo>

#include "bowstring/array/array.h"
#include "bowstring/memory/buffer_builder.h"
#include "bowstring/types/type.h"

namespace bowstring {

/// Base of every array builder. A builder appends values and nulls, then `finish()` freezes
/// them into an immutable `Array` and leaves the builder empty and ready for the next array
/// (its type, child builders and settings stay; its memory moves into the finished array).
///
/// The typed builders (`Int64Builder`, `StringBuilder`, `ListBuilder`...) add `append(value)`,
/// `unsafe_append(value)` (after `reserve`) and `append_values(span, validity)`. Their hot
/// methods are inline and non-virtual: call them through the typed builder, not through this
/// base. `make_builder` creates the right builder for any type.
///
/// The validity bitmap is only allocated when the first null arrives, so a finished array
/// without nulls has no validity buffer; the null count of a finished array is always exact.
///
/// A `finish` that throws keeps the builder as it was (see `finish`). An append that throws for
/// want of memory may have recorded part of its slot (the value but not its validity bit):
/// `reset()` the builder, or drop it, rather than append to it again.
class ArrayBuilder {
 public:
  virtual ~ArrayBuilder();
  ArrayBuilder(const ArrayBuilder&) = delete;
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;

  /// The type of the arrays this builder produces.
  const TypePtr& type() const { return type_; }
  Allocator* allocator() const { return allocator_; }
  /// Number of values appended since the last `finish()` or `reset()`.
  int64_t length() const { return counts_->length_; }
  /// Number of nulls among them. Always 0 for unions and run-end encoded builders, whose nulls
  /// live in their children (as in the finished ArrayData).
  int64_t null_count() const { return counts_->null_count_; }

  /// False when nulls are refused (map keys, and fields declared not null): appending one then
  /// throws `InvalidArgument`. Nested builders set it on the builders of their children.
  bool nullable() const { return nullable_; }
  virtual void set_nullable(bool nullable) { nullable_ = nullable; }

  virtual void append_null() = 0;
  virtual void append_nulls(int64_t count) = 0;
  /// Appends a valid placeholder value: zero, an empty string or list, a struct of placeholders,
  /// a union slot of its first child. It fills slots that the format requires to exist but that
  /// hold nothing meaningful (children of null struct slots, other children of a sparse union).
  virtual void append_empty_value() = 0;
  virtual void append_empty_values(int64_t count) = 0;
  /// Makes room for `additional` more values, so that the `unsafe_append` methods of typed
  /// builders may be used for them. Nested builders reserve their own slots, not their children's.
  virtual void reserve(int64_t additional) = 0;

  /// Freezes the appended values into an immutable array and leaves the builder empty. When it
  /// throws (out of memory, or children of a nested builder that disagree with it), the builder
  /// keeps everything appended: finishing again once the cause is gone gives the whole array.
  Array finish() { return Array(finish_data()); }
  /// `finish()`, returning the ArrayData.
  ArrayDataPtr finish_data();
  /// Drops everything appended (and its memory); the builder stays usable.
  virtual void reset();

  /// This builder as a `B`; throws `TypeError` when it is not one (for example
  /// `make_builder(int64())->as<Int64Builder>()`, `list.value_builder().as<StringBuilder>()`).
  template <typename B>
  B& as() {
    if (auto* typed = dynamic_cast<B*>(this)) {
      return *typed;
    }
    throw_cast_error(typeid(B));
  }

 protected:
  ArrayBuilder(TypePtr type, Allocator* allocator);

  /// Throws now whatever finishing could throw (a failed check, an allocation), so that
  /// `finish_impl` cannot fail half way through moving the builder's contents out. Nested
  /// builders prepare their children with `prepare_child`.
  virtual void prepare_finish() {}
  /// Builds the ArrayData of everything appended, after `prepare_finish`; it must not throw
  /// (but for std::bad_alloc). Implementations take the validity with `finish_validity()` and
  /// the null count with `null_count()`, and finish their children with `finish_child`; then
  /// the base resets the counters.
  virtual ArrayDataPtr finish_impl() = 0;
  static void prepare_child(ArrayBuilder& child) { child.prepare_finish(); }
  /// `child.finish_data()` for a child already prepared by `prepare_child`.
  static ArrayDataPtr finish_child(ArrayBuilder& child) { return child.finish_prepared(); }

  /// Records one valid slot (the caller appends the value).
  void append_valid() {
    if (has_validity_) {
      validity_.append(true);
    }
    ++length_;
  }
  /// Same, after `reserve_validity`.
  void unsafe_append_valid() {
    if (has_validity_) {
      validity_.unsafe_append(true);
    }
    ++length_;
  }
  /// Records `count` valid slots; throws `InvalidArgument` when `count` is negative.
  void append_valid(int64_t count) {
    if (count < 0) [[unlikely]] {
      throw_negative_count(count);
    }
    if (has_validity_) {
      validity_.append_n(count, true);
    }
    length_ += count;
  }
  /// Records `count` null slots; throws when this builder refuses nulls.
  void append_null_slots(int64_t count);
  /// Records one slot per byte of `valid_bytes` (non-zero is valid; nullptr means all valid).
  void append_validity_bytes(const uint8_t* valid_bytes, int64_t count);
  /// Records `count` slots from bits [offset, offset + count) of `validity` (nullptr: all valid).
  void append_validity_bits(const uint8_t* validity, int64_t offset, int64_t count);
  /// Makes room for `additional` validity bits, now or when the bitmap comes into existence.
  void reserve_validity(int64_t additional) {
    if (length_ + additional > reserved_) {
      reserved_ = length_ + additional;
    }
    if (has_validity_) {
      validity_.reserve(additional);
    }
  }
  /// The validity bitmap of the appended values, or nullptr when none is null; leaves the
  /// bitmap empty.
  std::shared_ptr<Buffer> finish_validity();
  /// Whether slot `i` (appended so far) is valid.
  bool is_valid_slot(int64_t i) const { return !has_validity_ || validity_.get(i); }
  /// Throws `InvalidArgument` naming this builder's type when it refuses nulls.
  void check_nulls_allowed(int64_t count) const {
    if (count > 0 && !nullable_) [[unlikely]] {
      throw_null_refused();
    }
  }
  /// Makes length() and null_count() report the counters of `other` (a wrapped builder).
  void share_counts_of(ArrayBuilder& other) { counts_ = other.counts_; }

  TypePtr type_;
  Allocator* allocator_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;

 private:
  ArrayDataPtr finish_prepared();
  void start_validity(int64_t upcoming);
  [[noreturn]] void throw_null_refused() const;
  [[noreturn]] static void throw_negative_count(int64_t count);
  [[noreturn]] void throw_cast_error(const std::type_info& wanted) const;

  BitmapBuilder validity_;
  bool has_validity_ = false;
  bool nullable_ = true;
  int64_t reserved_ = 0;
  const ArrayBuilder* counts_ = this;
};

/// Creates a builder for arrays of `type`, with builders for its children, recursively. The
/// result is the concrete builder for the type (`Int64Builder` for int64, `TimestampBuilder`
/// for timestamps, `ListBuilder` for lists...), reachable with `as<...>()`.
std::unique_ptr<ArrayBuilder> make_builder(TypePtr type,
                                           Allocator* allocator = default_allocator());

/// Returns `type` after checking that its id is `expected`: throws `TypeError` naming `builder`
/// otherwise (`InvalidArgument` when it is null).
TypePtr checked_builder_type(TypePtr type, TypeId expected, const char* builder);

}  // namespace bowstring
