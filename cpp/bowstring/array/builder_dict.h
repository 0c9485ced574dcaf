#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "bowstring/array/builder.h"
#include "bowstring/array/builder_scalar.h"

namespace bowstring {

class DictionaryMemo;

/// dictionary<values=V, indices=I> for any integer index type I. Two ways to build:
///
/// - Deduplicating (the default constructor): appending a value looks it up among the values
///   seen so far (a hash table) and appends its index, adding it to the dictionary when it is
///   new. Values are given typed (`append(int64_t{5})`, `append("text")`, the C type of V), as
///   an array (`append_array`) or as raw indices into the dictionary built so far. This works
///   for value types whose values compare as bytes (see `ScalarKind`: numbers, temporals,
///   decimals, booleans, fixed_size_binary, the string and binary families); NaNs are one value.
///   `finish` gives the indices with their dictionary and starts the next array from an empty
///   dictionary.
/// - Against a fixed dictionary (given to the constructor, kept across `finish`): indices are
///   appended as raw indices, or found by value (a value not in the dictionary throws
///   `InvalidArgument`).
///
/// A new value whose index does not fit the index type throws `InvalidArgument`.
class DictionaryBuilder final : public ArrayBuilder {
 public:
  explicit DictionaryBuilder(TypePtr type, Allocator* allocator = default_allocator());
  DictionaryBuilder(TypePtr type, const Array& dictionary,
                    Allocator* allocator = default_allocator());
  ~DictionaryBuilder() override;

  const DictionaryType& dictionary_type() const {
    return static_cast<const DictionaryType&>(*type_);
  }
  /// Number of values in the dictionary so far.
  int64_t dictionary_length() const;
  /// Whether the dictionary was given (and is fixed) rather than built.
  bool has_fixed_dictionary() const { return fixed_dictionary_ != nullptr; }

  /// Appends the index of `value`, the C type of the value type (int64_t for int64 and
  /// timestamps, double for float64, uint16_t bits for float16, bool for boolean...).
  template <ScalarValue T>
  void append(const T& value) {
    append_bytes(scalar_value_bytes(value), ScalarAppender::source_of<T>());
  }
  /// Appends the index of a string or binary value, or of the raw bytes of a fixed-width value
  /// (fixed_size_binary, decimals).
  void append(std::string_view value) { append_bytes(value, ScalarAppender::Source::kBytes); }
  /// Appends the index of every value of `values` (of the value type); nulls stay null.
  void append_array(const Array& values);

  /// Appends `index`, an index into the dictionary (as built so far, or fixed); throws
  /// `IndexError` when it is outside.
  void append_index(int64_t index);
  /// Appends `indices`, with one validity byte per index (nullptr: no nulls); null slots'
  /// indices are ignored.
  void append_indices(std::span<const int64_t> indices, const uint8_t* valid_bytes = nullptr);

  void append_null() override;
  void append_nulls(int64_t count) override;
  /// Index 0; an empty dictionary being built first gets the value type's placeholder (0, "",
  /// false) as value 0.
  void append_empty_value() override;
  void append_empty_values(int64_t count) override;
  void reserve(int64_t additional) override;
  void reset() override;

 protected:
  void prepare_finish() override;
  ArrayDataPtr finish_impl() override;

 private:
  void append_bytes(std::string_view bytes, ScalarAppender::Source source);
  /// The index of a value's bytes, adding the value when new (or throwing, when fixed).
  int64_t index_of(std::string_view bytes);
  void write_index(int64_t index);
  void write_indices(int64_t index, int64_t count);
  void seed_memo();
  [[noreturn]] void throw_bad_index(int64_t index) const;
  [[noreturn]] void throw_unsupported() const;

  int index_width_;
  int64_t max_index_;
  ScalarKind kind_;
  int value_width_;
  TypeId value_id_;
  BufferBuilder indices_;
  std::unique_ptr<ArrayBuilder> values_;  // the dictionary being built (deduplicating mode)
  std::unique_ptr<ScalarAppender> appender_;
  std::unique_ptr<DictionaryMemo> memo_;
  ArrayDataPtr fixed_dictionary_;
  bool memo_seeded_ = false;
};

}  // namespace bowstring
