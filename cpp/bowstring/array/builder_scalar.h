#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "bowstring/array/builder.h"

namespace bowstring {

/// How dictionary and run-end encoded builders see the values they compare one by one: as
/// bytes. A value's bytes are its fixed-width little-endian representation (numbers, dates,
/// times, timestamps, durations, intervals, decimals, fixed_size_binary), one byte 0 or 1
/// (boolean), or the bytes of a string or binary value (the utf8 and binary families, views
/// included).
enum class ScalarKind : uint8_t { kUnsupported, kBoolean, kFixedWidth, kBinary };

ScalarKind scalar_kind(const DataType& type);

/// C types whose object representation is a value's bytes (see `ScalarKind`).
template <typename T>
concept ScalarValue = std::is_arithmetic_v<T> || std::is_same_v<T, DayTimeInterval> ||
    std::is_same_v<T, MonthDayNanoInterval>;

template <ScalarValue T>
std::string_view scalar_value_bytes(const T& value) {
  return {reinterpret_cast<const char*>(&value), sizeof(T)};
}

/// The bytes of valid value `i` (relative to the view) of `data`, whose type has a supported
/// `ScalarKind`. Valid until `data` goes away.
std::string_view scalar_bytes(const ArrayData& data, int64_t i);

/// Appends values given as bytes to a builder of a type with a supported `ScalarKind`, and
/// checks that given bytes fit that type.
class ScalarAppender {
 public:
  /// Throws `NotImplemented` when the builder's type has no supported `ScalarKind`; `owner`
  /// names the builder that needs one in the message.
  ScalarAppender(ArrayBuilder& builder, const char* owner);

  ScalarKind kind() const { return kind_; }
  /// Bytes per value for fixed-width kinds, 0 otherwise.
  int byte_width() const { return width_; }

  /// Where bytes handed to `check` come from: a C++ bool, integer, floating-point number or
  /// interval struct, or a string.
  enum class Source : uint8_t { kBool, kInteger, kFloat, kInterval, kBytes };

  template <ScalarValue T>
  static constexpr Source source_of() {
    if constexpr (std::is_same_v<T, bool>) {
      return Source::kBool;
    } else if constexpr (std::is_integral_v<T>) {
      return Source::kInteger;
    } else if constexpr (std::is_floating_point_v<T>) {
      return Source::kFloat;
    } else {
      return Source::kInterval;
    }
  }

  /// Throws `TypeError` unless `size` bytes from `source` are a value of the builder's type:
  /// a bool for boolean, a string for the binary kinds, a C++ value of the type's kind and width
  /// or a string of the type's width (raw bytes) for fixed-width types.
  void check(size_t size, Source source) const {
    const bool right_width = static_cast<int64_t>(size) == width_;
    const bool fits =
        source == Source::kBytes
            ? kind_ == ScalarKind::kBinary || (kind_ == ScalarKind::kFixedWidth && right_width)
            : source == number_source_ && (kind_ == ScalarKind::kBoolean || right_width);
    if (!fits) [[unlikely]] {
      throw_mismatch(size, source);
    }
  }
  void append(std::string_view bytes) { append_(*builder_, bytes); }

 private:
  [[noreturn]] void throw_mismatch(size_t size, Source source) const;

  ArrayBuilder* builder_;
  ScalarKind kind_;
  int width_;
  Source number_source_;  // the kind of C++ value that holds one value of the type
  void (*append_)(ArrayBuilder&, std::string_view);
};

}  // namespace bowstring
