#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/core/lambda_function.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/compute/datetime/calendar.h"
#include "bowstring/compute/datetime/datetime_format.h"
#include "bowstring/compute/datetime/datetime_parse.h"
#include "bowstring/compute/datetime/timezone.h"

namespace bowstring::compute {

namespace {

// ---- Types -------------------------------------------------------------------------------------

bool is_null_type(const TypePtr& type) { return type->id() == TypeId::kNull; }
bool is_timestamp(const TypePtr& type) { return type->id() == TypeId::kTimestamp; }
bool is_date(const TypePtr& type) { return type->id() == TypeId::kDate32; }
bool is_utf8(const TypePtr& type) {
  return type->id() == TypeId::kString || type->id() == TypeId::kLargeString;
}
// Arrow timestamps with a zone are Spark's TIMESTAMP (instants); without, TIMESTAMP_NTZ.
bool is_instant(const DataType& type) {
  return !static_cast<const TimestampType&>(type).timezone().empty();
}

[[noreturn]] void type_mismatch(const std::string& function, size_t index, const TypePtr& type,
                                const std::string& expected) {
  throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                      "Cannot resolve \"" + function + "\": parameter " +
                          std::to_string(index + 1) + " requires the " + expected +
                          " type, however it has the type " + spark_type_name(*type) + ".");
}

// An argument Spark casts to DATE: dates and timestamps are read natively (timestamps in the
// session zone), strings are cast.
TypePtr date_argument(const std::string& function, size_t index, const TypePtr& type) {
  if (is_date(type) || is_timestamp(type) || is_null_type(type)) return type;
  if (type->is_string()) return date32();
  type_mismatch(function, index, type, "\"DATE\"");
}

// An argument Spark casts to TIMESTAMP: timestamps and dates are read natively, strings cast.
TypePtr timestamp_argument(const std::string& function, size_t index, const TypePtr& type) {
  if (is_date(type) || is_timestamp(type) || is_null_type(type)) return type;
  if (type->is_string()) return timestamp(TimeUnit::kMicro, "UTC");
  type_mismatch(function, index, type, "\"TIMESTAMP\"");
}

TypePtr int_argument(const std::string& function, size_t index, const TypePtr& type) {
  if (is_null_type(type) || type->id() == TypeId::kInt32) return type;
  if (type->id() == TypeId::kInt8 || type->id() == TypeId::kInt16 || type->is_string()) {
    return int32();
  }
  type_mismatch(function, index, type, "(\"INT\" or \"SMALLINT\" or \"TINYINT\")");
}

TypePtr string_argument(const std::string& function, size_t index, const TypePtr& type) {
  if (is_utf8(type) || is_null_type(type)) return type;
  if (type->is_string()) return utf8();
  type_mismatch(function, index, type, "\"STRING\"");
}

// The TIMESTAMP type of results: the zone of a timestamp argument, else UTC (the values are
// UTC instants either way; the session zone decides how they are shown).
TypePtr instant_type_like(std::span<const TypePtr> arguments) {
  for (const TypePtr& type : arguments) {
    if (is_timestamp(type) && is_instant(*type)) {
      return timestamp(TimeUnit::kMicro, static_cast<const TimestampType&>(*type).timezone());
    }
  }
  return timestamp(TimeUnit::kMicro, "UTC");
}

// ---- Reading arguments -------------------------------------------------------------------------

// Values of a fixed-width argument: an array's (from its offset) or a scalar's, repeated.
template <typename T>
struct Column {
  const T* values;
  int64_t stride;
  T operator[](int64_t i) const { return values[i * stride]; }
};

template <typename T>
Column<T> column_of(const Datum& datum) {
  const ArrayData& data = *datum.data();
  return {reinterpret_cast<const T*>(data.buffers[1]->data()) + data.offset,
          datum.is_scalar() ? 0 : 1};
}

// Values of an argument read in place, or converted by the derived column's constructor into
// storage of its own; either way read with the argument's stride (0 for a scalar).
template <typename T>
class ConvertedColumn {
 public:
  T operator[](int64_t i) const { return values_[i * stride_]; }

 protected:
  void read_in_place(const T* values, int64_t stride) {
    values_ = values;
    stride_ = stride;
  }
  // Storage for `count` converted values, which the column then reads.
  T* convert(int64_t count) {
    converted_.resize(static_cast<size_t>(count));
    values_ = converted_.data();
    return converted_.data();
  }
  int64_t stride_ = 1;

 private:
  const T* values_ = nullptr;
  std::vector<T> converted_;
};

// Microseconds since the epoch of timestamps in any unit, of dates (midnight), as an instant
// (`zone` given: local midnight of dates in that zone) or as wall-clock values.
class MicrosColumn : public ConvertedColumn<int64_t> {
 public:
  MicrosColumn(const Datum& datum, int64_t length, const TimeZone* date_zone) {
    const TypePtr& type = datum.type();
    const int64_t count = datum.is_scalar() ? 1 : length;
    stride_ = datum.is_scalar() ? 0 : 1;
    if (is_date(type)) {
      Column<int32_t> days = column_of<int32_t>(datum);
      int64_t* micros = convert(count);
      for (int64_t i = 0; i < count; ++i) {
        const int64_t local_seconds = static_cast<int64_t>(days.values[i]) * kSecondsPerDay;
        const int64_t seconds =
            date_zone != nullptr ? date_zone->utc_from_local(local_seconds) : local_seconds;
        micros[i] = seconds * kMicrosPerSecond;
      }
      return;
    }
    Column<int64_t> raw = column_of<int64_t>(datum);
    const TimeUnit unit = static_cast<const TimestampType&>(*type).unit();
    if (unit == TimeUnit::kMicro) {
      read_in_place(raw.values, stride_);
      return;
    }
    int64_t* micros = convert(count);
    for (int64_t i = 0; i < count; ++i) {
      const int64_t v = raw.values[i];
      switch (unit) {
        case TimeUnit::kSecond:
          micros[i] = v * kMicrosPerSecond;
          break;
        case TimeUnit::kMilli:
          micros[i] = v * 1000;
          break;
        default:
          micros[i] = floor_div(v, 1000);
          break;
      }
    }
  }
};

// Days of a DATE argument, or the local dates of a timestamp argument as Spark's implicit
// CAST(... AS DATE) gives them (instants in the session zone, TIMESTAMP_NTZ on their own
// wall clock).
class DaysColumn : public ConvertedColumn<int32_t> {
 public:
  DaysColumn(const Datum& datum, int64_t length, const std::string& session_zone) {
    if (is_date(datum.type())) {
      const Column<int32_t> days = column_of<int32_t>(datum);
      read_in_place(days.values, days.stride);
      return;
    }
    const int64_t count = datum.is_scalar() ? 1 : length;
    stride_ = datum.is_scalar() ? 0 : 1;
    const MicrosColumn micros(datum, count, nullptr);
    const TimeZone* zone = is_instant(*datum.type()) ? &TimeZone::get(session_zone) : nullptr;
    int32_t* days = convert(count);
    for (int64_t i = 0; i < count; ++i) {
      const int64_t seconds = floor_div(micros[i], kMicrosPerSecond);
      const int64_t local = zone == nullptr ? seconds : zone->local_from_utc(seconds);
      days[i] = static_cast<int32_t>(floor_div(local, kSecondsPerDay));
    }
  }
};

// Shifts UTC microseconds to wall-clock microseconds in a zone.
class LocalClock {
 public:
  explicit LocalClock(const TimeZone* zone) : zone_(zone) {
    if (zone_ != nullptr && zone_->is_fixed()) {
      fixed_ = static_cast<int64_t>(zone_->fixed_offset()) * kMicrosPerSecond;
      zone_ = nullptr;
    }
  }
  int64_t local(int64_t utc_micros) const {
    if (zone_ == nullptr) return utc_micros + fixed_;
    return utc_micros +
           static_cast<int64_t>(zone_->offset_at_utc(floor_div(utc_micros, kMicrosPerSecond))) *
               kMicrosPerSecond;
  }

 private:
  const TimeZone* zone_;
  int64_t fixed_ = 0;
};

std::string_view string_at(const Datum& datum, int64_t i) {
  const int64_t row = datum.is_scalar() ? 0 : i;
  if (datum.type()->id() == TypeId::kLargeString) {
    return BaseBinaryArray<int64_t>(datum.array()).value(row);
  }
  return BaseBinaryArray<int32_t>(datum.array()).value(row);
}

// ---- Results -----------------------------------------------------------------------------------

Datum as_result(Array array, std::span<const Datum> arguments) {
  if (all_scalars(arguments)) return Datum::scalar(std::move(array));
  return Datum(std::move(array));
}

// A result with a null wherever an argument is null; `compute(i)` gives row i's value (called
// for every row; null rows' values are ignored).
template <typename Out, typename Compute>
Datum map_rows(std::span<const Datum> arguments, TypePtr type, ExecContext& context,
               Compute&& compute) {
  const int64_t length = result_length(arguments);
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity =
      and_validity(arguments, length, context.allocator, &null_count);
  OutputValues<Out> values(length, context.allocator);
  Out* out = values.data();
  if (null_count == length && length > 0) {
    std::memset(out, 0, static_cast<size_t>(length) * sizeof(Out));
  } else {
    for (int64_t i = 0; i < length; ++i) out[i] = compute(i);
  }
  return as_result(make_fixed_width_array(std::move(type), length, std::move(validity), null_count,
                                          values.finish()),
                   arguments);
}

// As `map_rows`, but `compute(i, &value)` may also return false for a null, and is called for
// rows whose arguments are all valid only.
template <typename Out, typename Compute>
Datum map_valid_rows(std::span<const Datum> arguments, TypePtr type, ExecContext& context,
                     Compute&& compute) {
  const int64_t length = result_length(arguments);
  int64_t null_count = 0;
  std::shared_ptr<Buffer> input_validity =
      and_validity(arguments, length, context.allocator, &null_count);
  OutputValues<Out> values(length, context.allocator);
  Out* out = values.data();
  std::memset(out, 0, static_cast<size_t>(length) * sizeof(Out));
  MutableBuffer bits(bit_util::bytes_for_bits(length), context.allocator);
  uint8_t* valid = bits.mutable_data();
  std::memset(valid, 0, static_cast<size_t>(bit_util::bytes_for_bits(length)));
  int64_t valid_count = 0;
  const uint8_t* input_bits = input_validity ? input_validity->data() : nullptr;
  for_each_set_bit(input_bits, 0, length, [&](int64_t i) {
    if (compute(i, &out[i])) {
      bit_util::set_bit(valid, i);
      ++valid_count;
    }
  });
  std::shared_ptr<Buffer> validity;
  if (valid_count < length) validity = bits.finish();
  return as_result(make_fixed_width_array(std::move(type), length, std::move(validity),
                                          length - valid_count, values.finish()),
                   arguments);
}

// A string result; `compute(i, out)` appends row i's text and returns false for a null.
template <typename Compute>
Datum map_strings(std::span<const Datum> arguments, ExecContext& context, Compute&& compute) {
  const int64_t length = result_length(arguments);
  int64_t null_count = 0;
  std::shared_ptr<Buffer> input_validity =
      and_validity(arguments, length, context.allocator, &null_count);
  const uint8_t* input_bits = input_validity ? input_validity->data() : nullptr;
  StringBuilder builder(context.allocator);
  builder.reserve(length);
  std::string text;
  for (int64_t i = 0; i < length; ++i) {
    text.clear();
    if ((input_bits == nullptr || bit_util::get_bit(input_bits, i)) && compute(i, text)) {
      builder.append(text);
    } else {
      builder.append_null();
    }
  }
  return as_result(builder.finish(), arguments);
}

// ---- Registration ------------------------------------------------------------------------------

// Local days of a date-like argument (dates as they are; timestamps in the session zone).
template <typename Visit>
Datum map_days(std::span<const Datum> arguments, const TypePtr& output, ExecContext& context,
               Visit&& visit) {
  const Datum& argument = arguments[0];
  if (is_date(argument.type())) {
    const Column<int32_t> days = column_of<int32_t>(argument);
    return map_rows<int32_t>(arguments, output, context, [&](int64_t i) { return visit(days[i]); });
  }
  const MicrosColumn micros(argument, result_length(arguments), nullptr);
  const LocalClock clock(is_instant(*argument.type()) ? &TimeZone::get(context.session_time_zone)
                                                      : nullptr);
  return map_rows<int32_t>(arguments, output, context, [&](int64_t i) {
    return visit(floor_div(clock.local(micros[i]), kMicrosPerDay));
  });
}

// Local microseconds of the day of a timestamp-like argument in the session zone.
template <typename Visit>
Datum map_time_of_day(std::span<const Datum> arguments, const TypePtr& output, ExecContext& context,
                      Visit&& visit) {
  const Datum& argument = arguments[0];
  if (is_date(argument.type())) {
    return map_rows<int32_t>(arguments, output, context, [&](int64_t) { return visit(0); });
  }
  const MicrosColumn micros(argument, result_length(arguments), nullptr);
  const LocalClock clock(is_instant(*argument.type()) ? &TimeZone::get(context.session_time_zone)
                                                      : nullptr);
  return map_rows<int32_t>(arguments, output, context, [&](int64_t i) {
    return visit(floor_mod(clock.local(micros[i]), kMicrosPerDay));
  });
}

void add_date_field(FunctionRegistry& registry, const std::string& name,
                    const std::string& description, std::vector<std::string> aliases,
                    int32_t (*field)(int64_t days)) {
  registry.add(
      std::make_shared<LambdaScalarFunction>(
          name, Function::Arity{1, 1}, NullHandling::kPropagates, description,
          std::vector<std::string>{"(date) -> int"},
          [](const std::string& function, std::span<const TypePtr> types) {
            return Resolution{int32(), {date_argument(function, 0, types[0])}};
          },
          [field](std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
            return map_days(arguments, output, context, field);
          }),
      std::move(aliases));
}

void add_time_field(FunctionRegistry& registry, const std::string& name,
                    const std::string& description, int32_t (*field)(int64_t micros_of_day)) {
  registry.add(std::make_shared<LambdaScalarFunction>(
      name, Function::Arity{1, 1}, NullHandling::kPropagates, description,
      std::vector<std::string>{"(timestamp) -> int"},
      [](const std::string& function, std::span<const TypePtr> types) {
        return Resolution{int32(), {timestamp_argument(function, 0, types[0])}};
      },
      [field](std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
        return map_time_of_day(arguments, output, context, field);
      }));
}

// ---- Month arithmetic --------------------------------------------------------------------------

// Spark's add_months: the same day of the month `months` later, or the month's last day when
// it is shorter.
int32_t add_months_to_days(int64_t days, int64_t months) {
  const CivilDate date = civil_from_days(days);
  const int64_t total = date.year * 12 + (date.month - 1) + months;
  const int64_t year = floor_div(total, 12);
  const int32_t month = static_cast<int32_t>(floor_mod(total, 12)) + 1;
  const int32_t day = std::min(date.day, days_in_month(year, month));
  const int64_t result = days_from_civil(year, month, day);
  if (result < INT32_MIN || result > INT32_MAX) {
    throw ArithmeticError("ARITHMETIC_OVERFLOW",
                          "overflow in add_months: " + std::to_string(months) +
                              " months after day " + std::to_string(days) +
                              " is past the range of DATE.");
  }
  return static_cast<int32_t>(result);
}

// A moment as months_between sees it: its local day and the whole seconds elapsed since the
// day began (real time, which differs from the wall clock's on days clocks change).
struct DayAndSeconds {
  int64_t days;
  int64_t seconds;
};

DayAndSeconds day_and_seconds(int64_t utc_micros, const TimeZone& zone) {
  const int64_t days =
      floor_div(zone.local_from_utc(floor_div(utc_micros, kMicrosPerSecond)), kSecondsPerDay);
  const int64_t day_start = zone.utc_from_local(days * kSecondsPerDay) * kMicrosPerSecond;
  // Java's MICROSECONDS.toSeconds truncates toward zero.
  return {days, (utc_micros - day_start) / kMicrosPerSecond};
}

// Spark's months_between: whole months when both days are the same or both the last of their
// months, else the difference over 31-day months.
double months_between_days(DayAndSeconds first, DayAndSeconds second, bool round_off) {
  const int64_t days1 = first.days;
  const int64_t days2 = second.days;
  const CivilDate date1 = civil_from_days(days1);
  const CivilDate date2 = civil_from_days(days2);
  const int64_t month_diff = (date1.year * 12 + date1.month) - (date2.year * 12 + date2.month);
  const bool last1 = date1.day == days_in_month(date1.year, date1.month);
  const bool last2 = date2.day == days_in_month(date2.year, date2.month);
  if (date1.day == date2.day || (last1 && last2)) {
    return static_cast<double>(month_diff);
  }
  const int64_t seconds1 = date1.day * kSecondsPerDay + first.seconds;
  const int64_t seconds2 = date2.day * kSecondsPerDay + second.seconds;
  const double seconds_in_month = 31.0 * static_cast<double>(kSecondsPerDay);
  const double result =
      static_cast<double>(month_diff) + static_cast<double>(seconds1 - seconds2) / seconds_in_month;
  if (!round_off) return result;
  // Spark rounds to 8 decimal places with Math.round (half up, toward positive infinity).
  return std::floor(result * 1e8 + 0.5) / 1e8;
}

// ---- Truncation --------------------------------------------------------------------------------

enum class TruncLevel {
  kInvalid,
  kYear,
  kQuarter,
  kMonth,
  kWeek,
  kDay,
  kHour,
  kMinute,
  kSecond,
  kMillisecond,
  kMicrosecond
};

std::string upper(std::string_view text) {
  std::string result(text);
  for (char& c : result) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  }
  return result;
}

// The levels of date_trunc and (dates only, up to WEEK) trunc.
TruncLevel trunc_level(std::string_view format, bool date_only) {
  const std::string name = upper(format);
  if (name == "YEAR" || name == "YYYY" || name == "YY") return TruncLevel::kYear;
  if (name == "QUARTER") return TruncLevel::kQuarter;
  if (name == "MONTH" || name == "MM" || name == "MON") return TruncLevel::kMonth;
  if (name == "WEEK") return TruncLevel::kWeek;
  if (date_only) return TruncLevel::kInvalid;
  if (name == "DAY" || name == "DD") return TruncLevel::kDay;
  if (name == "HOUR") return TruncLevel::kHour;
  if (name == "MINUTE") return TruncLevel::kMinute;
  if (name == "SECOND") return TruncLevel::kSecond;
  if (name == "MILLISECOND") return TruncLevel::kMillisecond;
  if (name == "MICROSECOND") return TruncLevel::kMicrosecond;
  return TruncLevel::kInvalid;
}

int64_t trunc_days(int64_t days, TruncLevel level) {
  switch (level) {
    case TruncLevel::kYear:
      return days_from_civil(civil_from_days(days).year, 1, 1);
    case TruncLevel::kQuarter: {
      const CivilDate date = civil_from_days(days);
      return days_from_civil(date.year, (date.month - 1) / 3 * 3 + 1, 1);
    }
    case TruncLevel::kMonth: {
      const CivilDate date = civil_from_days(days);
      return days_from_civil(date.year, date.month, 1);
    }
    case TruncLevel::kWeek:
      return days - (iso_day_of_week(days) - 1);
    default:
      return days;
  }
}

// ---- Patterns ----------------------------------------------------------------------------------

// The pattern of a format argument for row i, compiled once per distinct consecutive value.
class PatternCache {
 public:
  explicit PatternCache(const Datum* format) : format_(format) {}
  const DateTimePattern& at(int64_t i) {
    const std::string_view text =
        format_ == nullptr ? kDefaultTimestampPattern : string_at(*format_, i);
    if (!pattern_ || pattern_->pattern() != text) {
      pattern_ = std::make_unique<DateTimePattern>(text);
    }
    return *pattern_;
  }

 private:
  const Datum* format_;
  std::unique_ptr<DateTimePattern> pattern_;
};

[[noreturn]] void cannot_parse(std::string_view text, std::string_view pattern,
                               const char* try_function) {
  throw DateTimeError("CANNOT_PARSE_TIMESTAMP",
                      "Text '" + std::string(text) + "' could not be parsed with the pattern '" +
                          std::string(pattern) + "'. Use `" + try_function +
                          "` to tolerate invalid input string and return NULL instead.");
}

// `text` parsed with `pattern` as an instant; nullopt if it does not parse, or under ANSI the
// error that points to `try_function`.
std::optional<int64_t> parse_with_pattern(std::string_view text, const DateTimePattern& pattern,
                                          const TimeZone& zone, bool ansi,
                                          const char* try_function) {
  std::optional<int64_t> micros = pattern.parse(text, zone);
  if (!micros && ansi) cannot_parse(text, pattern.pattern(), try_function);
  return micros;
}

[[noreturn]] void cast_invalid(std::string_view text, const char* type) {
  throw DateTimeError("CAST_INVALID_INPUT",
                      "The value '" + std::string(text) +
                          "' of the type \"STRING\" cannot be cast to \"" + type +
                          "\" because it is malformed. Correct the value as per the syntax, "
                          "or change its target type. Use `try_cast` to tolerate malformed input "
                          "and return NULL instead.");
}

// Instants (microseconds) of a string argument parsed by Spark's rules: with a pattern when
// `format` is given, else as CAST(... AS TIMESTAMP). Unparseable strings raise in ANSI mode
// and are null otherwise.
template <typename Emit>
bool parse_instant(const Datum& strings, const Datum* format, int64_t i, PatternCache& patterns,
                   const TimeZone& zone, ExecContext& context, const char* try_function,
                   Emit&& emit) {
  const std::string_view text = string_at(strings, i);
  std::optional<int64_t> micros;
  if (format == nullptr) {
    micros = parse_timestamp(text, zone, context.statement_time_us);
    if (!micros && context.ansi) cast_invalid(text, "TIMESTAMP");
  } else {
    micros = parse_with_pattern(text, patterns.at(i), zone, context.ansi, try_function);
  }
  if (!micros) return false;
  emit(*micros);
  return true;
}

TypePtr pattern_argument(const std::string& name, size_t index, std::span<const TypePtr> types) {
  return string_argument(name, index, types[index]);
}

// The arguments of a function of a string with an optional datetime pattern, or of one value
// of another type that `value_argument` checks.
std::vector<TypePtr> string_or_value_arguments(const std::string& name,
                                               std::span<const TypePtr> types,
                                               TypePtr (*value_argument)(const std::string&, size_t,
                                                                         const TypePtr&)) {
  if (types.size() == 2) {
    return {string_argument(name, 0, types[0]), pattern_argument(name, 1, types)};
  }
  return {types[0]->is_string() ? string_argument(name, 0, types[0])
                                : value_argument(name, 0, types[0])};
}

/// The fields of a date (year, month, day...) and of a timestamp's time of day.
void add_date_parts(FunctionRegistry& registry) {
  add_date_field(registry, "year", "The year of a date or timestamp.", {},
                 [](int64_t days) { return static_cast<int32_t>(civil_from_days(days).year); });
  add_date_field(registry, "month", "The month (1-12) of a date or timestamp.", {},
                 [](int64_t days) { return civil_from_days(days).month; });
  add_date_field(registry, "dayofmonth", "The day of the month (1-31) of a date or timestamp.",
                 {"day"}, [](int64_t days) { return civil_from_days(days).day; });
  add_date_field(registry, "dayofweek", "The day of the week, 1 = Sunday to 7 = Saturday.", {},
                 [](int64_t days) { return sunday_first_day_of_week(days); });
  add_date_field(registry, "dayofyear", "The day of the year (1-366).", {},
                 [](int64_t days) { return day_of_year(days); });
  add_date_field(registry, "weekofyear", "The ISO 8601 week of the year (1-53).", {},
                 [](int64_t days) { return iso_week_of_year(days); });
  add_date_field(registry, "quarter", "The quarter of the year (1-4).", {},
                 [](int64_t days) { return quarter_of_month(civil_from_days(days).month); });
  add_time_field(
      registry, "hour", "The hour (0-23) of a timestamp in the session time zone.",
      [](int64_t micros) { return static_cast<int32_t>(micros / (3600 * kMicrosPerSecond)); });
  add_time_field(
      registry, "minute", "The minute (0-59) of a timestamp in the session time zone.",
      [](int64_t micros) { return static_cast<int32_t>(micros / (60 * kMicrosPerSecond) % 60); });
  add_time_field(registry, "second", "The second (0-59) of a timestamp.", [](int64_t micros) {
    return static_cast<int32_t>(micros / kMicrosPerSecond % 60);
  });
}

/// date_add, date_sub, add_months, datediff and months_between.
void add_date_arithmetic(FunctionRegistry& registry) {
  // date_add, date_sub, datediff, add_months.
  auto day_shift = [](int64_t sign) {
    return [sign](std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
      const DaysColumn days(arguments[0], result_length(arguments), context.session_time_zone);
      const Column<int32_t> shift = column_of<int32_t>(arguments[1]);
      return map_rows<int32_t>(arguments, output, context, [&](int64_t i) {
        return static_cast<int32_t>(static_cast<uint32_t>(days[i]) +
                                    static_cast<uint32_t>(sign * shift[i]));
      });
    };
  };
  auto date_and_int = [](const std::string& name, std::span<const TypePtr> types) {
    return Resolution{date32(),
                      {date_argument(name, 0, types[0]), int_argument(name, 1, types[1])}};
  };
  // add_months takes any number of months Spark casts to INT (bigint, decimal, double...).
  auto date_and_months = [](const std::string& name, std::span<const TypePtr> types) {
    const TypePtr& months = types[1];
    const bool castable = months->is_integer() || months->is_floating() ||
                          months->id() == TypeId::kDecimal128 ||
                          months->id() == TypeId::kDecimal256;
    return Resolution{
        date32(),
        {date_argument(name, 0, types[0]), castable ? int32() : int_argument(name, 1, months)}};
  };
  registry.add(std::make_shared<LambdaScalarFunction>(
      "date_add", Function::Arity{2, 2}, NullHandling::kPropagates,
      "The date `days` days after `start`.", std::vector<std::string>{"(date, int) -> date"},
      date_and_int, day_shift(1)));
  registry.add(std::make_shared<LambdaScalarFunction>(
      "date_sub", Function::Arity{2, 2}, NullHandling::kPropagates,
      "The date `days` days before `start`.", std::vector<std::string>{"(date, int) -> date"},
      date_and_int, day_shift(-1)));
  registry.add(std::make_shared<LambdaScalarFunction>(
      "add_months", Function::Arity{2, 2}, NullHandling::kPropagates,
      "The date `months` months after `start`, clamped to the end of shorter months.",
      std::vector<std::string>{"(date, int) -> date"}, date_and_months,
      [](std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
        const DaysColumn days(arguments[0], result_length(arguments), context.session_time_zone);
        const Column<int32_t> months = column_of<int32_t>(arguments[1]);
        return map_rows<int32_t>(arguments, output, context,
                                 [&](int64_t i) { return add_months_to_days(days[i], months[i]); });
      }));
  registry.add(std::make_shared<LambdaScalarFunction>(
      "datediff", Function::Arity{2, 2}, NullHandling::kPropagates,
      "The number of days from `start` to `end`.", std::vector<std::string>{"(date, date) -> int"},
      [](const std::string& name, std::span<const TypePtr> types) {
        return Resolution{int32(),
                          {date_argument(name, 0, types[0]), date_argument(name, 1, types[1])}};
      },
      [](std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
        const DaysColumn end(arguments[0], result_length(arguments), context.session_time_zone);
        const DaysColumn start(arguments[1], result_length(arguments), context.session_time_zone);
        return map_rows<int32_t>(arguments, output, context, [&](int64_t i) {
          return static_cast<int32_t>(static_cast<uint32_t>(end[i]) -
                                      static_cast<uint32_t>(start[i]));
        });
      }));

  registry.add(std::make_shared<LambdaScalarFunction>(
      "months_between", Function::Arity{2, 3}, NullHandling::kPropagates,
      "Months from `timestamp2` to `timestamp1`, fractional over 31-day months, rounded to 8 "
      "digits unless `roundOff` is false.",
      std::vector<std::string>{"(timestamp, timestamp[, boolean]) -> double"},
      [](const std::string& name, std::span<const TypePtr> types) {
        std::vector<TypePtr> arguments = {timestamp_argument(name, 0, types[0]),
                                          timestamp_argument(name, 1, types[1])};
        if (types.size() == 3) {
          if (types[2]->id() != TypeId::kBoolean && !is_null_type(types[2])) {
            type_mismatch(name, 2, types[2], "\"BOOLEAN\"");
          }
          arguments.push_back(types[2]);
        }
        return Resolution{float64(), arguments};
      },
      [](std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
        const TimeZone& zone = TimeZone::get(context.session_time_zone);
        const int64_t length = result_length(arguments);
        const MicrosColumn first(arguments[0], length, &zone);
        const MicrosColumn second(arguments[1], length, &zone);
        // Spark casts TIMESTAMP_NTZ arguments to TIMESTAMP: wall-clock times in the session zone.
        auto instant = [&](const Datum& datum, int64_t micros) {
          if (!is_timestamp(datum.type()) || is_instant(*datum.type())) return micros;
          const int64_t seconds = floor_div(micros, kMicrosPerSecond);
          return zone.utc_from_local(seconds) * kMicrosPerSecond +
                 (micros - seconds * kMicrosPerSecond);
        };
        const Datum* round = arguments.size() == 3 ? &arguments[2] : nullptr;
        return map_rows<double>(arguments, output, context, [&](int64_t i) {
          const bool round_off =
              round == nullptr || BooleanArray(round->array()).value(round->is_scalar() ? 0 : i);
          return months_between_days(day_and_seconds(instant(arguments[0], first[i]), zone),
                                     day_and_seconds(instant(arguments[1], second[i]), zone),
                                     round_off);
        });
      }));
}

/// to_date, to_timestamp and unix_timestamp, which parse strings (with a datetime pattern when
/// given).
void add_parsing(FunctionRegistry& registry) {
  registry.add(std::make_shared<LambdaScalarFunction>(
      "to_date", Function::Arity{1, 2}, NullHandling::kPropagates,
      "A string parsed as a date (with a datetime pattern when given), or a timestamp's date.",
      std::vector<std::string>{"(string[, string]) -> date", "(timestamp) -> date",
                               "(date) -> date"},
      [](const std::string& name, std::span<const TypePtr> types) {
        return Resolution{date32(), string_or_value_arguments(name, types, date_argument)};
      },
      [](std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
        const Datum& value = arguments[0];
        if (!value.type()->is_string()) {
          return map_days(arguments, output, context,
                          [](int64_t days) { return static_cast<int32_t>(days); });
        }
        const Datum* format = arguments.size() == 2 ? &arguments[1] : nullptr;
        const TimeZone& zone = TimeZone::get(context.session_time_zone);
        PatternCache patterns(format);
        return map_valid_rows<int32_t>(arguments, output, context, [&](int64_t i, int32_t* out) {
          const std::string_view text = string_at(value, i);
          if (format == nullptr) {
            std::optional<int32_t> days = parse_date(text);
            if (!days && context.ansi) cast_invalid(text, "DATE");
            if (!days) return false;
            *out = *days;
            return true;
          }
          // Spark parses a timestamp (the zone or offset in the text wins over the session
          // zone) and takes its date in the session zone.
          const std::optional<int64_t> micros =
              parse_with_pattern(text, patterns.at(i), zone, context.ansi, "try_to_date");
          if (!micros) return false;
          *out = static_cast<int32_t>(
              floor_div(zone.local_from_utc(floor_div(*micros, kMicrosPerSecond)), kSecondsPerDay));
          return true;
        });
      }));

  registry.add(std::make_shared<LambdaScalarFunction>(
      "to_timestamp", Function::Arity{1, 2}, NullHandling::kPropagates,
      "A string parsed as a timestamp in the session time zone (with a datetime pattern when "
      "given), or a date or timestamp as a timestamp.",
      std::vector<std::string>{"(string[, string]) -> timestamp", "(date) -> timestamp",
                               "(timestamp) -> timestamp"},
      [](const std::string& name, std::span<const TypePtr> types) {
        return Resolution{instant_type_like(types),
                          string_or_value_arguments(name, types, timestamp_argument)};
      },
      [](std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
        const Datum& value = arguments[0];
        const TimeZone& zone = TimeZone::get(context.session_time_zone);
        if (!value.type()->is_string()) {
          const MicrosColumn micros(value, result_length(arguments), &zone);
          // TIMESTAMP_NTZ values are wall-clock times in the session zone.
          if (is_timestamp(value.type()) && !is_instant(*value.type())) {
            return map_rows<int64_t>(arguments, output, context, [&](int64_t i) {
              const int64_t seconds = floor_div(micros[i], kMicrosPerSecond);
              return zone.utc_from_local(seconds) * kMicrosPerSecond +
                     (micros[i] - seconds * kMicrosPerSecond);
            });
          }
          return map_rows<int64_t>(arguments, output, context,
                                   [&](int64_t i) { return micros[i]; });
        }
        const Datum* format = arguments.size() == 2 ? &arguments[1] : nullptr;
        PatternCache patterns(format);
        return map_valid_rows<int64_t>(arguments, output, context, [&](int64_t i, int64_t* out) {
          return parse_instant(value, format, i, patterns, zone, context, "try_to_timestamp",
                               [&](int64_t micros) { *out = micros; });
        });
      }));

  registry.add(std::make_shared<LambdaScalarFunction>(
      "unix_timestamp", Function::Arity{0, 2}, NullHandling::kPropagates,
      "Seconds since the epoch of a timestamp, a date, or a string parsed with a datetime "
      "pattern ('yyyy-MM-dd HH:mm:ss' by default); of the statement's time without argument.",
      std::vector<std::string>{"() -> bigint", "(timestamp) -> bigint", "(date) -> bigint",
                               "(string[, string]) -> bigint"},
      [](const std::string& name, std::span<const TypePtr> types) {
        std::vector<TypePtr> arguments;
        if (!types.empty()) {
          arguments.push_back(types[0]->is_string() ? string_argument(name, 0, types[0])
                                                    : timestamp_argument(name, 0, types[0]));
        }
        if (types.size() == 2) arguments.push_back(pattern_argument(name, 1, types));
        return Resolution{int64(), arguments};
      },
      [](std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
        if (arguments.empty()) {
          Int64Builder builder(context.allocator);
          builder.append(floor_div(context.statement_time_us, kMicrosPerSecond));
          return Datum::scalar(builder.finish());
        }
        const Datum& value = arguments[0];
        const TimeZone& zone = TimeZone::get(context.session_time_zone);
        if (!value.type()->is_string()) {
          // Spark divides the microseconds as they are (TIMESTAMP_NTZ's too, with no zone),
          // truncating toward zero.
          const MicrosColumn micros(value, result_length(arguments), &zone);
          return map_rows<int64_t>(arguments, output, context,
                                   [&](int64_t i) { return micros[i] / kMicrosPerSecond; });
        }
        const Datum* format = arguments.size() == 2 ? &arguments[1] : nullptr;
        PatternCache patterns(format);
        return map_valid_rows<int64_t>(arguments, output, context, [&](int64_t i, int64_t* out) {
          const std::string_view text = string_at(value, i);
          const std::optional<int64_t> micros =
              parse_with_pattern(text, patterns.at(i), zone, context.ansi, "try_to_timestamp");
          if (!micros) return false;
          *out = *micros / kMicrosPerSecond;
          return true;
        });
      }));
}

/// from_unixtime and date_format.
void add_formatting(FunctionRegistry& registry) {
  registry.add(std::make_shared<LambdaScalarFunction>(
      "from_unixtime", Function::Arity{1, 2}, NullHandling::kPropagates,
      "Seconds since the epoch formatted in the session time zone with a datetime pattern "
      "('yyyy-MM-dd HH:mm:ss' by default).",
      std::vector<std::string>{"(bigint[, string]) -> string"},
      [](const std::string& name, std::span<const TypePtr> types) {
        std::vector<TypePtr> arguments;
        if (is_null_type(types[0]) || types[0]->id() == TypeId::kInt64) {
          arguments.push_back(types[0]);
        } else if (types[0]->is_integer() || types[0]->is_string()) {
          arguments.push_back(int64());
        } else {
          type_mismatch(name, 0, types[0], "\"BIGINT\"");
        }
        if (types.size() == 2) arguments.push_back(pattern_argument(name, 1, types));
        return Resolution{utf8(), arguments};
      },
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        const Column<int64_t> seconds = column_of<int64_t>(arguments[0]);
        const TimeZone& zone = TimeZone::get(context.session_time_zone);
        PatternCache patterns(arguments.size() == 2 ? &arguments[1] : nullptr);
        return map_strings(arguments, context, [&](int64_t i, std::string& out) {
          // Spark multiplies the seconds by 10^6 in 64 bits, wrapping on overflow.
          const int64_t micros = static_cast<int64_t>(static_cast<uint64_t>(seconds[i]) *
                                                      static_cast<uint64_t>(kMicrosPerSecond));
          patterns.at(i).format(micros, zone, out);
          return true;
        });
      }));

  registry.add(std::make_shared<LambdaScalarFunction>(
      "date_format", Function::Arity{2, 2}, NullHandling::kPropagates,
      "A timestamp formatted in the session time zone with a datetime pattern.",
      std::vector<std::string>{"(timestamp, string) -> string"},
      [](const std::string& name, std::span<const TypePtr> types) {
        return Resolution{
            utf8(), {timestamp_argument(name, 0, types[0]), pattern_argument(name, 1, types)}};
      },
      [](std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
        const Datum& value = arguments[0];
        const TimeZone& zone = TimeZone::get(context.session_time_zone);
        const bool wall_clock = is_timestamp(value.type()) && !is_instant(*value.type());
        const MicrosColumn micros(value, result_length(arguments), wall_clock ? nullptr : &zone);
        PatternCache patterns(&arguments[1]);
        return map_strings(arguments, context, [&](int64_t i, std::string& out) {
          if (wall_clock) {
            // Wall-clock values are shown as they are, in a zone of offset zero.
            patterns.at(i).format(micros[i], TimeZone::utc(), out);
          } else {
            patterns.at(i).format(micros[i], zone, out);
          }
          return true;
        });
      }));
}

/// date_trunc and trunc.
void add_truncation(FunctionRegistry& registry) {
  registry.add(std::make_shared<LambdaScalarFunction>(
      "date_trunc", Function::Arity{2, 2}, NullHandling::kPropagates,
      "A timestamp truncated to the unit `fmt` names ('YEAR', 'QUARTER', 'MONTH', 'WEEK', "
      "'DAY', 'HOUR', 'MINUTE', 'SECOND', 'MILLISECOND', 'MICROSECOND'...) in the session time "
      "zone; null for other units.",
      std::vector<std::string>{"(string, timestamp) -> timestamp"},
      [](const std::string& name, std::span<const TypePtr> types) {
        const TypePtr output = is_timestamp(types[1]) && !is_instant(*types[1])
                                   ? timestamp(TimeUnit::kMicro)
                                   : instant_type_like(types);
        return Resolution{
            output, {string_argument(name, 0, types[0]), timestamp_argument(name, 1, types[1])}};
      },
      [](std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
        const Datum& value = arguments[1];
        const bool wall_clock = is_timestamp(value.type()) && !is_instant(*value.type());
        const TimeZone* zone = wall_clock ? nullptr : &TimeZone::get(context.session_time_zone);
        const MicrosColumn micros(value, result_length(arguments), zone);
        const LocalClock clock(zone);
        return map_valid_rows<int64_t>(arguments, output, context, [&](int64_t i, int64_t* out) {
          const TruncLevel level = trunc_level(string_at(arguments[0], i), false);
          if (level == TruncLevel::kInvalid) return false;
          const int64_t utc = micros[i];
          int64_t unit = 0;
          switch (level) {
            case TruncLevel::kMicrosecond:
              *out = utc;
              return true;
            case TruncLevel::kMillisecond:
              unit = 1000;
              break;
            case TruncLevel::kSecond:
              unit = kMicrosPerSecond;
              break;
            default:
              break;
          }
          if (unit != 0) {
            // Offsets are whole seconds, so these units truncate the instant directly.
            *out = utc - floor_mod(utc, unit);
            return true;
          }
          const int64_t local = clock.local(utc);
          int64_t truncated;
          if (level == TruncLevel::kMinute) {
            truncated = local - floor_mod(local, 60 * kMicrosPerSecond);
          } else if (level == TruncLevel::kHour) {
            truncated = local - floor_mod(local, 3600 * kMicrosPerSecond);
          } else {
            truncated = trunc_days(floor_div(local, kMicrosPerDay), level) * kMicrosPerDay;
          }
          if (zone == nullptr) {
            *out = truncated;
            return true;
          }
          const int64_t local_seconds = floor_div(truncated, kMicrosPerSecond);
          if (level == TruncLevel::kMinute || level == TruncLevel::kHour ||
              level == TruncLevel::kDay) {
            // ZonedDateTime.truncatedTo keeps the offset when the truncated local time has it
            // (in an overlap, the later offset may be the one kept).
            const int32_t offset = zone->offset_at_utc(floor_div(utc, kMicrosPerSecond));
            if (zone->offset_at_utc(local_seconds - offset) == offset) {
              *out = (local_seconds - offset) * kMicrosPerSecond;
              return true;
            }
          }
          *out = zone->utc_from_local(local_seconds) * kMicrosPerSecond;
          return true;
        });
      }));

  registry.add(std::make_shared<LambdaScalarFunction>(
      "trunc", Function::Arity{2, 2}, NullHandling::kPropagates,
      "A date truncated to the unit `fmt` names ('year', 'yyyy', 'yy', 'quarter', 'month', "
      "'mon', 'mm', 'week'); null for other units.",
      std::vector<std::string>{"(date, string) -> date"},
      [](const std::string& name, std::span<const TypePtr> types) {
        return Resolution{date32(),
                          {date_argument(name, 0, types[0]), string_argument(name, 1, types[1])}};
      },
      [](std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
        const DaysColumn days(arguments[0], result_length(arguments), context.session_time_zone);
        return map_valid_rows<int32_t>(arguments, output, context, [&](int64_t i, int32_t* out) {
          const TruncLevel level = trunc_level(string_at(arguments[1], i), true);
          if (level == TruncLevel::kInvalid) return false;
          *out = static_cast<int32_t>(trunc_days(days[i], level));
          return true;
        });
      }));
}

/// current_date and current_timestamp, fixed for a statement.
void add_statement_time(FunctionRegistry& registry) {
  registry.add(std::make_shared<LambdaScalarFunction>(
      "current_date", Function::Arity{0, 0}, NullHandling::kPropagates,
      "The date in the session time zone when the statement started.",
      std::vector<std::string>{"() -> date"},
      [](const std::string&, std::span<const TypePtr>) {
        return Resolution{date32(), {}};
      },
      [](std::span<const Datum>, const TypePtr& output, ExecContext& context) {
        const int64_t local =
            TimeZone::get(context.session_time_zone)
                .local_from_utc(floor_div(context.statement_time_us, kMicrosPerSecond));
        NumericBuilder<int32_t> builder(output, context.allocator);
        builder.append(static_cast<int32_t>(floor_div(local, kSecondsPerDay)));
        return Datum::scalar(builder.finish());
      }));
  registry.add(std::make_shared<LambdaScalarFunction>(
      "current_timestamp", Function::Arity{0, 0}, NullHandling::kPropagates,
      "The time at which the statement started.", std::vector<std::string>{"() -> timestamp"},
      [](const std::string&, std::span<const TypePtr>) {
        return Resolution{timestamp(TimeUnit::kMicro, "UTC"), {}};
      },
      [](std::span<const Datum>, const TypePtr& output, ExecContext& context) {
        NumericBuilder<int64_t> builder(output, context.allocator);
        builder.append(context.statement_time_us);
        return Datum::scalar(builder.finish());
      }));
}

}  // namespace

void register_datetime_functions(FunctionRegistry& registry) {
  add_date_parts(registry);
  add_date_arithmetic(registry);
  add_parsing(registry);
  add_formatting(registry);
  add_truncation(registry);
  add_statement_time(registry);
}

}  // namespace bowstring::compute
