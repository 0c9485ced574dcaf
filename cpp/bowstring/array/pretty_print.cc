#include "bowstring/array/pretty_print.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

namespace bowstring {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

void append_hex_byte(std::string& out, uint8_t byte) {
  out += kHexDigits[byte >> 4];
  out += kHexDigits[byte & 0xF];
}

template <typename Integer>
void append_integer(std::string& out, Integer value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

/// `value` in decimal with at least `width` digits (zero padded); `value` is non-negative.
void append_padded(std::string& out, int64_t value, int width) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  for (auto digits = result.ptr - buffer; digits < width; ++digits) {
    out += '0';
  }
  out.append(buffer, result.ptr);
}

// --- strings ---------------------------------------------------------------------------------

/// Length of the well-formed UTF-8 sequence at the start of `bytes` (whose first byte is not
/// ASCII), or 0 when it is malformed, overlong, a surrogate or past U+10FFFF.
size_t utf8_sequence_length(const unsigned char* bytes, size_t available) {
  const unsigned char lead = bytes[0];
  size_t length;
  unsigned char second_min = 0x80;
  unsigned char second_max = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    second_min = lead == 0xE0 ? 0xA0 : 0x80;
    second_max = lead == 0xED ? 0x9F : 0xBF;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    second_min = lead == 0xF0 ? 0x90 : 0x80;
    second_max = lead == 0xF4 ? 0x8F : 0xBF;
  } else {
    return 0;
  }
  if (available < length || bytes[1] < second_min || bytes[1] > second_max) {
    return 0;
  }
  for (size_t k = 2; k < length; ++k) {
    if (bytes[k] < 0x80 || bytes[k] > 0xBF) {
      return 0;
    }
  }
  return length;
}

/// `value` between double quotes with quotes, backslashes and control characters escaped. Text
/// keeps well-formed UTF-8 sequences; every other byte outside printable ASCII becomes `\xHH`.
void append_quoted(std::string& out, std::string_view value, bool text) {
  out += '"';
  const auto* bytes = reinterpret_cast<const unsigned char*>(value.data());
  size_t i = 0;
  while (i < value.size()) {
    const unsigned char byte = bytes[i];
    switch (byte) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        const size_t sequence =
            text && byte >= 0x80 ? utf8_sequence_length(bytes + i, value.size() - i) : 0;
        if (sequence > 0) {
          out.append(value.substr(i, sequence));
          i += sequence;
          continue;
        }
        if (byte >= 0x20 && byte < 0x7F) {
          out += static_cast<char>(byte);
        } else {
          out += "\\x";
          append_hex_byte(out, byte);
        }
        break;
      }
    }
    ++i;
  }
  out += '"';
}

// --- floating point --------------------------------------------------------------------------

/// Shortest round-trip form: fixed notation for magnitudes in [1e-4, 1e16), scientific outside
/// (as Python's repr does), `NaN`, `+Inf` and `-Inf`.
template <typename Float>
void append_float(std::string& out, Float value) {
  if (std::isnan(value)) {
    out += "NaN";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "+Inf" : "-Inf";
    return;
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const char* exponent_text =
      static_cast<const char*>(std::memchr(buffer, 'e', static_cast<size_t>(result.ptr - buffer)));
  int exponent = 0;
  std::from_chars(exponent_text + (exponent_text[1] == '+' ? 2 : 1), result.ptr, exponent);
  if (value == 0 || (exponent >= -4 && exponent < 16)) {
    result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  }
  out.append(buffer, result.ptr);
}

double half_to_double(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  double magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(mantissa, -24);
  } else if (exponent == 0x1F) {
    magnitude = mantissa != 0 ? std::nan("") : INFINITY;
  } else {
    magnitude = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return (bits & 0x8000) != 0 ? -magnitude : magnitude;
}

/// The half-precision value nearest to `value` (ties to even), for finite values.
uint16_t double_to_half(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  const double magnitude = std::fabs(value);
  if (magnitude >= 65520.0) {
    return sign | 0x7C00;
  }
  if (magnitude < 0x1p-14) {
    // Subnormal: multiples of 2^-24; rounding up to 0x400 lands on the smallest normal.
    return sign | static_cast<uint16_t>(std::nearbyint(magnitude * 0x1p24));
  }
  int exponent;
  std::frexp(magnitude, &exponent);
  --exponent;  // magnitude is in [2^exponent, 2^(exponent + 1))
  int mantissa = static_cast<int>(std::nearbyint(std::ldexp(magnitude, 10 - exponent)));
  if (mantissa == 2048) {
    mantissa = 1024;
    ++exponent;
  }
  return sign | static_cast<uint16_t>(((exponent + 15) << 10) | (mantissa - 1024));
}

/// A float16 in the fewest significant digits that read back as the same half-precision value.
void append_half(std::string& out, uint16_t bits) {
  const double value = half_to_double(bits);
  if (!std::isfinite(value) || value == 0) {
    append_float(out, value);
    return;
  }
  char buffer[32];
  double shortest = value;
  for (int digits = 1; digits <= 5; ++digits) {
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value,
                                      std::chars_format::scientific, digits - 1);
    double parsed;
    std::from_chars(buffer, result.ptr, parsed);
    if (double_to_half(parsed) == bits) {
      shortest = parsed;
      break;
    }
  }
  // Five significant digits fit a float exactly, so its shortest form has the same digits.
  append_float(out, static_cast<float>(shortest));
}

// --- temporal --------------------------------------------------------------------------------

/// Floor division and the matching non-negative remainder, without overflow.
void floor_divmod(int64_t value, int64_t divisor, int64_t* quotient, int64_t* remainder) {
  *quotient = value / divisor;
  *remainder = value % divisor;
  if (*remainder < 0) {
    *quotient -= 1;
    *remainder += divisor;
  }
}

int fraction_digits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return 0;
    case TimeUnit::kMilli:
      return 3;
    case TimeUnit::kMicro:
      return 6;
    case TimeUnit::kNano:
      break;
  }
  return 9;
}

/// The proleptic Gregorian date `days` after 1970-01-01, as YYYY-MM-DD. Years outside 0..9999
/// get as many digits as they need and a sign when negative.
void append_date(std::string& out, int64_t days) {
  // Shift to 0000-03-01 so that leap days end each 400-year era, then split into eras, years of
  // the era and days of the (March-based) year.
  const int64_t shifted = days + 719468;
  int64_t era;
  int64_t day_of_era;
  floor_divmod(shifted, 146097, &era, &day_of_era);
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t march_month = (5 * day_of_year + 2) / 153;
  const int64_t day = day_of_year - (153 * march_month + 2) / 5 + 1;
  const int64_t month = march_month < 10 ? march_month + 3 : march_month - 9;
  const int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0) {
    out += '-';
  }
  append_padded(out, year < 0 ? -year : year, 4);
  out += '-';
  append_padded(out, month, 2);
  out += '-';
  append_padded(out, day, 2);
}

/// HH:MM:SS followed by the unit's fraction digits, for a non-negative count of `unit`s.
void append_clock(std::string& out, uint64_t units, TimeUnit unit) {
  const auto per_second = static_cast<uint64_t>(units_per_second(unit));
  const uint64_t seconds = units / per_second;
  append_padded(out, static_cast<int64_t>(seconds / 3600), 2);
  out += ':';
  append_padded(out, static_cast<int64_t>(seconds / 60 % 60), 2);
  out += ':';
  append_padded(out, static_cast<int64_t>(seconds % 60), 2);
  if (const int digits = fraction_digits(unit); digits > 0) {
    out += '.';
    append_padded(out, static_cast<int64_t>(units % per_second), digits);
  }
}

/// A time of day; out-of-range values (invalid, but printable) keep their sign and hours.
void append_time_of_day(std::string& out, int64_t value, TimeUnit unit) {
  if (value < 0) {
    out += '-';
  }
  append_clock(out, value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value),
               unit);
}

bool is_utc_name(std::string_view timezone) {
  return timezone == "UTC" || timezone == "Etc/UTC" || timezone == "Z";
}

/// Seconds east of UTC for a "+HH:MM" / "-HH:MM" zone, or nullopt for any other spelling.
std::optional<int64_t> parse_fixed_offset(std::string_view timezone) {
  const auto digit = [&](size_t k) { return timezone[k] >= '0' && timezone[k] <= '9'; };
  if (timezone.size() != 6 || (timezone[0] != '+' && timezone[0] != '-') || !digit(1) ||
      !digit(2) || timezone[3] != ':' || !digit(4) || !digit(5)) {
    return std::nullopt;
  }
  const int64_t hours = (timezone[1] - '0') * 10 + (timezone[2] - '0');
  const int64_t minutes = (timezone[4] - '0') * 10 + (timezone[5] - '0');
  if (hours > 23 || minutes > 59) {
    return std::nullopt;
  }
  const int64_t seconds = hours * 3600 + minutes * 60;
  return timezone[0] == '-' ? -seconds : seconds;
}

/// ISO-8601 with the unit's precision. UTC zones end in `Z`; "+HH:MM" zones show the local time
/// and the offset; named zones show the UTC instant and the name (`...Z[Europe/Paris]`), which
/// needs no time zone database.
void append_timestamp(std::string& out, int64_t value, const TimestampType& type) {
  const int64_t per_second = units_per_second(type.unit());
  int64_t seconds;
  int64_t fraction;
  floor_divmod(value, per_second, &seconds, &fraction);
  int64_t days;
  int64_t second_of_day;
  floor_divmod(seconds, 86400, &days, &second_of_day);
  const std::string& timezone = type.timezone();
  const std::optional<int64_t> offset = parse_fixed_offset(timezone);
  if (offset) {
    second_of_day += *offset;
    if (second_of_day < 0) {
      second_of_day += 86400;
      --days;
    } else if (second_of_day >= 86400) {
      second_of_day -= 86400;
      ++days;
    }
  }
  append_date(out, days);
  out += 'T';
  append_clock(out, static_cast<uint64_t>(second_of_day * per_second + fraction), type.unit());
  if (timezone.empty()) {
    return;
  }
  if (offset) {
    out += timezone;
  } else if (is_utc_name(timezone)) {
    out += 'Z';
  } else {
    out += "Z[";
    out += timezone;
    out += ']';
  }
}

// --- values ----------------------------------------------------------------------------------

template <typename T>
T value_at(const Array& array, int64_t i) {
  T value;
  std::memcpy(&value, array.data()->values<T>(1) + i, sizeof(T));
  return value;
}

/// Writes values and arrays into one string, eliding long sequences.
class ValuePrinter {
 public:
  ValuePrinter(const PrettyPrintOptions& options, std::string& out)
      : options_(options), out_(out) {}

  /// `[v v ...]` for `count` values of `values` from `begin`.
  void write_sequence(const Array& values, int64_t begin, int64_t count) {
    out_ += '[';
    write_elided(count, " ", [&](int64_t k) { write_value(values, begin + k); });
    out_ += ']';
  }

  void write_value(const Array& array, int64_t i) {
    // Types whose nulls are decided elsewhere (indices, children, runs, storage) recurse first.
    switch (array.type_id()) {
      case TypeId::kNull:
        out_ += options_.null_string;
        return;
      case TypeId::kDictionary:
        write_dictionary_value(DictionaryArray(array), i);
        return;
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion:
        write_union_value(UnionArray(array), i);
        return;
      case TypeId::kRunEndEncoded: {
        const RunEndEncodedArray runs(array);
        write_value(runs.values(), runs.physical_index(i));
        return;
      }
      case TypeId::kExtension:
        write_value(ExtensionArray(array).storage(), i);
        return;
      default:
        break;
    }
    if (array.data()->is_null_in_bitmap(i)) {
      out_ += options_.null_string;
      return;
    }
    write_valid_value(array, i);
  }

 private:
  /// Calls `write_one(k)` for k in [0, count) with `separator` between, replacing the middle of
  /// long sequences by `...`.
  template <typename WriteOne>
  void write_elided(int64_t count, const char* separator, const WriteOne& write_one) {
    const int64_t window = options_.window;
    const bool elide = window >= 0 && count - window > window;
    for (int64_t k = 0; k < count; ++k) {
      if (k > 0) {
        out_ += separator;
      }
      if (elide && k == window) {
        out_ += "...";
        k = count - window - 1;
        continue;
      }
      write_one(k);
    }
  }

  void write_valid_value(const Array& array, int64_t i) {
    const DataType& type = *array.type();
    switch (type.id()) {
      case TypeId::kBoolean:
        out_ += bit_util::get_bit(array.data()->buffers[1]->data(), array.offset() + i) ? "true"
                                                                                        : "false";
        return;
      case TypeId::kInt8:
        return append_integer(out_, value_at<int8_t>(array, i));
      case TypeId::kUInt8:
        return append_integer(out_, value_at<uint8_t>(array, i));
      case TypeId::kInt16:
        return append_integer(out_, value_at<int16_t>(array, i));
      case TypeId::kUInt16:
        return append_integer(out_, value_at<uint16_t>(array, i));
      case TypeId::kInt32:
        return append_integer(out_, value_at<int32_t>(array, i));
      case TypeId::kUInt32:
        return append_integer(out_, value_at<uint32_t>(array, i));
      case TypeId::kInt64:
        return append_integer(out_, value_at<int64_t>(array, i));
      case TypeId::kUInt64:
        return append_integer(out_, value_at<uint64_t>(array, i));
      case TypeId::kFloat16:
        return append_half(out_, value_at<uint16_t>(array, i));
      case TypeId::kFloat32:
        return append_float(out_, value_at<float>(array, i));
      case TypeId::kFloat64:
        return append_float(out_, value_at<double>(array, i));
      case TypeId::kDecimal32:
      case TypeId::kDecimal64:
      case TypeId::kDecimal128:
      case TypeId::kDecimal256:
        out_ += DecimalArray(array).format_value(i);
        return;
      case TypeId::kDate32:
        return append_date(out_, value_at<int32_t>(array, i));
      case TypeId::kDate64: {
        int64_t days;
        int64_t milliseconds;
        floor_divmod(value_at<int64_t>(array, i), 86400000, &days, &milliseconds);
        return append_date(out_, days);
      }
      case TypeId::kTime32:
        return append_time_of_day(out_, value_at<int32_t>(array, i),
                                  static_cast<const TemporalUnitType&>(type).unit());
      case TypeId::kTime64:
        return append_time_of_day(out_, value_at<int64_t>(array, i),
                                  static_cast<const TemporalUnitType&>(type).unit());
      case TypeId::kTimestamp:
        return append_timestamp(out_, value_at<int64_t>(array, i),
                                static_cast<const TimestampType&>(type));
      case TypeId::kDuration:
        append_integer(out_, value_at<int64_t>(array, i));
        out_ += time_unit_name(static_cast<const TemporalUnitType&>(type).unit());
        return;
      case TypeId::kIntervalMonths:
        append_integer(out_, value_at<int32_t>(array, i));
        out_ += 'M';
        return;
      case TypeId::kIntervalDayTime: {
        const auto interval = value_at<DayTimeInterval>(array, i);
        append_integer(out_, interval.days);
        out_ += 'd';
        append_integer(out_, interval.milliseconds);
        out_ += "ms";
        return;
      }
      case TypeId::kIntervalMonthDayNano: {
        const auto interval = value_at<MonthDayNanoInterval>(array, i);
        append_integer(out_, interval.months);
        out_ += 'M';
        append_integer(out_, interval.days);
        out_ += 'd';
        append_integer(out_, interval.nanoseconds);
        out_ += "ns";
        return;
      }
      case TypeId::kString:
        return append_quoted(out_, StringArray(array).value(i), true);
      case TypeId::kBinary:
        return append_quoted(out_, BinaryArray(array).value(i), false);
      case TypeId::kLargeString:
        return append_quoted(out_, LargeStringArray(array).value(i), true);
      case TypeId::kLargeBinary:
        return append_quoted(out_, LargeBinaryArray(array).value(i), false);
      case TypeId::kStringView:
      case TypeId::kBinaryView:
        return append_quoted(out_, BinaryViewArray(array).value(i),
                             type.id() == TypeId::kStringView);
      case TypeId::kFixedSizeBinary:
        for (const char byte : FixedSizeBinaryArray(array).value(i)) {
          append_hex_byte(out_, static_cast<uint8_t>(byte));
        }
        return;
      case TypeId::kList:
      case TypeId::kLargeList:
      case TypeId::kListView:
      case TypeId::kLargeListView:
      case TypeId::kFixedSizeList:
        return write_list_value(array, i);
      case TypeId::kStruct:
        return write_struct_value(array, i);
      case TypeId::kMap:
        return write_map_value(ListArray(array), i);
      default:
        // Null, dictionary, union, run-end encoded and extension values are written by
        // write_value; only a corrupted type id gets here.
        throw InvalidArgument("unknown type id " + std::to_string(static_cast<int>(type.id())));
    }
  }

  void write_list_value(const Array& array, int64_t i) {
    switch (array.type_id()) {
      case TypeId::kList: {
        const ListArray lists(array);
        return write_sequence(lists.values(), lists.value_offset(i), lists.value_length(i));
      }
      case TypeId::kLargeList: {
        const LargeListArray lists(array);
        return write_sequence(lists.values(), lists.value_offset(i), lists.value_length(i));
      }
      case TypeId::kListView: {
        const ListViewArray lists(array);
        return write_sequence(lists.values(), lists.value_offset(i), lists.value_length(i));
      }
      case TypeId::kLargeListView: {
        const LargeListViewArray lists(array);
        return write_sequence(lists.values(), lists.value_offset(i), lists.value_length(i));
      }
      default: {
        const FixedSizeListArray lists(array);
        return write_sequence(lists.values(), (array.offset() + i) * lists.list_size(),
                              lists.list_size());
      }
    }
  }

  void write_struct_value(const Array& array, int64_t i) {
    // Children share the struct's offset, so row i is row offset + i of each whole child.
    const DataType& type = *array.type();
    out_ += '{';
    for (int k = 0; k < type.num_fields(); ++k) {
      if (k > 0) {
        out_ += ", ";
      }
      out_ += type.field(k)->name();
      out_ += ": ";
      write_value(Array(array.data()->children[static_cast<size_t>(k)]), array.offset() + i);
    }
    out_ += '}';
  }

  void write_map_value(const ListArray& maps, int64_t i) {
    const Array entries = maps.values();
    const Array keys(entries.data()->children[0]);
    const Array items(entries.data()->children[1]);
    const int64_t begin = entries.offset() + maps.value_offset(i);
    out_ += '{';
    write_elided(maps.value_length(i), ", ", [&](int64_t k) {
      write_value(keys, begin + k);
      out_ += ": ";
      write_value(items, begin + k);
    });
    out_ += '}';
  }

  void write_dictionary_value(const DictionaryArray& array, int64_t i) {
    if (array.data()->is_null_in_bitmap(i)) {
      out_ += options_.null_string;
      return;
    }
    const Array dictionary = array.dictionary();
    const int64_t index = array.index(i);
    if (index < 0 || index >= dictionary.length()) {
      throw FormatError("dictionary index " + std::to_string(index) + " at position " +
                        std::to_string(i) + " is outside a dictionary of length " +
                        std::to_string(dictionary.length()));
    }
    write_value(dictionary, index);
  }

  void write_union_value(const UnionArray& array, int64_t i) {
    const int child = array.child_id(i);
    if (child < 0) {
      throw FormatError("union type code " + std::to_string(array.type_code(i)) + " at position " +
                        std::to_string(i) + " selects no child of " + array.type()->to_string());
    }
    write_value(array.field(child), array.value_offset(i));
  }

  const PrettyPrintOptions& options_;
  std::string& out_;
};

// --- hex dump --------------------------------------------------------------------------------

std::string buffer_role(const std::vector<BufferSpec>& layout, size_t index) {
  if (index >= layout.size()) {
    const bool variadic = !layout.empty() && layout.back().kind == BufferKind::kViews;
    return variadic ? "variadic data" : "unexpected buffer";
  }
  const BufferSpec& spec = layout[index];
  switch (spec.kind) {
    case BufferKind::kValidity:
      return "validity bitmap";
    case BufferKind::kAlwaysNull:
      return "unused";
    case BufferKind::kBitmap:
      return "values bitmap";
    case BufferKind::kFixedWidth:
      return "values, " + std::to_string(spec.byte_width) +
             (spec.byte_width == 1 ? " byte each" : " bytes each");
    case BufferKind::kOffsets32:
      return "offsets, int32";
    case BufferKind::kOffsets64:
      return "offsets, int64";
    case BufferKind::kSizes32:
      return "sizes, int32";
    case BufferKind::kSizes64:
      return "sizes, int64";
    case BufferKind::kData:
      return "data";
    case BufferKind::kTypeIds:
      return "type ids, int8";
    case BufferKind::kViews:
      return "views, 16 bytes each";
  }
  return "unknown";
}

/// Lines of `offset  hex bytes (two groups of 8)  |ascii|`, as `hexdump -C` prints them.
void dump_bytes(std::string& out, const Buffer& buffer, int64_t max_bytes,
                const std::string& indent) {
  const int64_t shown = std::min(buffer.size(), std::max<int64_t>(max_bytes, 0));
  const uint8_t* bytes = buffer.data();
  for (int64_t line = 0; line < shown; line += 16) {
    out += indent;
    static constexpr int kOffsetDigits = 8;
    for (int shift = (kOffsetDigits - 1) * 4; shift >= 0; shift -= 4) {
      out += kHexDigits[(line >> shift) & 0xF];
    }
    out += ' ';
    const int64_t end = std::min(line + 16, shown);
    for (int64_t k = line; k < line + 16; ++k) {
      out += k - line == 8 ? "  " : " ";
      if (k < end) {
        append_hex_byte(out, bytes[k]);
      } else {
        out += "  ";
      }
    }
    out += "  |";
    for (int64_t k = line; k < end; ++k) {
      out += bytes[k] >= 0x20 && bytes[k] < 0x7F ? static_cast<char>(bytes[k]) : '.';
    }
    out += "|\n";
  }
  if (shown < buffer.size()) {
    out += indent + "... " + std::to_string(buffer.size() - shown) + " more bytes\n";
  }
}

/// The null count, or "unknown" when counting would read past the validity bitmap: hex dumps
/// are for looking at arrays that may fail validation.
std::string describe_null_count(const ArrayData& data) {
  if (data.known_null_count() != ArrayData::kUnknownNullCount) {
    return std::to_string(data.known_null_count());
  }
  const Buffer* validity = data.buffers[0].get();
  const bool window_valid = data.length >= 0 && data.offset >= 0 &&
                            data.length <= std::numeric_limits<int64_t>::max() - data.offset;
  const int64_t end = data.offset + data.length;
  if (!window_valid ||
      (validity != nullptr && validity->size() < end / 8 + (end % 8 != 0 ? 1 : 0))) {
    return "unknown";
  }
  return std::to_string(data.null_count());
}

void dump_array(std::string& out, const ArrayData& data, const std::string& title, int depth,
                int64_t max_bytes) {
  const std::string indent(static_cast<size_t>(depth) * 2, ' ');
  out += indent + title + data.type->to_string() + " array: length " + std::to_string(data.length) +
         ", offset " + std::to_string(data.offset) + ", null count " + describe_null_count(data) +
         "\n";
  const std::vector<BufferSpec> layout = data.type->layout();
  for (size_t index = 0; index < data.buffers.size(); ++index) {
    const Buffer* buffer = data.buffers[index].get();
    out += indent + "  buffer " + std::to_string(index) + " (" + buffer_role(layout, index) + "): ";
    if (buffer == nullptr) {
      out += "absent\n";
      continue;
    }
    out += std::to_string(buffer->size()) + (buffer->size() == 1 ? " byte\n" : " bytes\n");
    dump_bytes(out, *buffer, max_bytes, indent + "    ");
  }
  const DataType& type = *data.type;
  for (size_t index = 0; index < data.children.size(); ++index) {
    std::string child_title = "child " + std::to_string(index);
    if (static_cast<int>(index) < type.num_fields()) {
      child_title += " (" + type.field(static_cast<int>(index))->name() + ")";
    }
    if (data.children[index] == nullptr) {
      out.append(indent).append("  ").append(child_title).append(": absent\n");
      continue;
    }
    dump_array(out, *data.children[index], child_title + ": ", depth + 1, max_bytes);
  }
  if (data.dictionary != nullptr) {
    dump_array(out, *data.dictionary, "dictionary: ", depth + 1, max_bytes);
  }
}

}  // namespace

std::string pretty_print(const Array& array, const PrettyPrintOptions& options) {
  std::string out(static_cast<size_t>(std::max(options.indent, 0)), ' ');
  ValuePrinter(options, out).write_sequence(array, 0, array.length());
  return out;
}

std::string format_value(const Array& array, int64_t i, const PrettyPrintOptions& options) {
  if (i < 0 || i >= array.length()) {
    throw IndexError("value index " + std::to_string(i) + " is outside an array of length " +
                     std::to_string(array.length()));
  }
  std::string out;
  ValuePrinter(options, out).write_value(array, i);
  return out;
}

std::string Array::to_string() const { return pretty_print(*this); }

std::string hex_dump(const Array& array, int64_t max_bytes_per_buffer) {
  std::string out;
  dump_array(out, *array.data(), "", 0, max_bytes_per_buffer);
  return out;
}

}  // namespace bowstring
