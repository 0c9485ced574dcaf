#include "bowstring/io/csv/csv_values.h"

#include "bowstring/compute/cast/cast_text.h"
#include "bowstring/compute/datetime/datetime_parse.h"

namespace bowstring::io::csv {
namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000000;

std::unique_ptr<compute::DateTimePattern> pattern_of(const std::optional<std::string>& text) {
  return text ? std::make_unique<compute::DateTimePattern>(*text) : nullptr;
}

int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

}  // namespace

ValueParser::ValueParser(const CsvReadOptions& options)
    : options_(options),
      date_pattern_(pattern_of(options.date_format)),
      timestamp_pattern_(pattern_of(options.timestamp_format)),
      timestamp_ntz_pattern_(pattern_of(options.timestamp_ntz_format)),
      zone_(&compute::TimeZone::get(options.time_zone)) {}

ValueParser::~ValueParser() = default;

bool ValueParser::integer(std::string_view text, int64_t min, int64_t max, int64_t* out) {
  // Java's parseInt takes no surrounding whitespace and no fraction.
  if (text.empty() || compute::cast_text::is_trimmed(text.front()) ||
      compute::cast_text::is_trimmed(text.back())) {
    return false;
  }
  return compute::cast_text::parse_integer(text.data(), text.data() + text.size(), min, max, false,
                                           out) == compute::cast_text::ParseResult::kOk;
}

template <typename T>
bool ValueParser::special_floating(std::string_view text, T* out) const {
  if (text == options_.nan_value) {
    *out = std::numeric_limits<T>::quiet_NaN();
  } else if (text == options_.positive_inf) {
    *out = std::numeric_limits<T>::infinity();
  } else if (text == options_.negative_inf) {
    *out = -std::numeric_limits<T>::infinity();
  } else {
    return false;
  }
  return true;
}

bool ValueParser::floating(std::string_view text, double* out) const {
  return special_floating(text, out) ||
         compute::cast_text::parse_double(text.data(), text.data() + text.size(), out) ==
             compute::cast_text::ParseResult::kOk;
}

bool ValueParser::floating(std::string_view text, float* out) const {
  return special_floating(text, out) ||
         compute::cast_text::parse_float(text.data(), text.data() + text.size(), out) ==
             compute::cast_text::ParseResult::kOk;
}

bool ValueParser::boolean(std::string_view text, bool* out) {
  auto equals_folded = [text](std::string_view word) {
    if (text.size() != word.size()) {
      return false;
    }
    for (size_t i = 0; i < word.size(); ++i) {
      if ((text[i] | 0x20) != word[i]) {
        return false;
      }
    }
    return true;
  };
  if (equals_folded("true")) {
    *out = true;
    return true;
  }
  if (equals_folded("false")) {
    *out = false;
    return true;
  }
  return false;
}

std::optional<int32_t> ValueParser::date(std::string_view text) const {
  if (date_pattern_ == nullptr) {
    return compute::parse_date(text);
  }
  const std::optional<int64_t> micros = date_pattern_->parse_local(text);
  if (!micros) {
    return std::nullopt;
  }
  return static_cast<int32_t>(floor_div(*micros, kMicrosPerDay));
}

std::optional<int64_t> ValueParser::timestamp(std::string_view text) const {
  if (timestamp_pattern_ == nullptr) {
    return compute::parse_timestamp(text, *zone_);
  }
  return timestamp_pattern_->parse(text, *zone_);
}

std::optional<int64_t> ValueParser::timestamp_ntz(std::string_view text) const {
  if (timestamp_ntz_pattern_ == nullptr) {
    return compute::parse_timestamp_ntz(text);
  }
  return timestamp_ntz_pattern_->parse_local(text);
}

}  // namespace bowstring::io::csv
