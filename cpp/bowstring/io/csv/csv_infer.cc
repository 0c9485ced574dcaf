#include "bowstring/io/csv/csv_infer.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "bowstring/compute/cast/cast_text.h"
#include "bowstring/compute/datetime/datetime_parse.h"

namespace bowstring::io::csv {
namespace {

using Kind = InferredType::Kind;

// Precision of a plain integer text (sign and digits) as Java's BigDecimal counts it; 0 if the
// text is no such integer.
int32_t integer_precision(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    ++i;
  }
  if (i == text.size()) {
    return 0;
  }
  for (size_t j = i; j < text.size(); ++j) {
    if (!std::isdigit(static_cast<unsigned char>(text[j]))) {
      return 0;
    }
  }
  while (i + 1 < text.size() && text[i] == '0') {
    ++i;
  }
  return static_cast<int32_t>(text.size() - i);
}

// Whether `text` is a date alone: what `CAST(text AS DATE)` reads, without a time after it.
bool is_plain_date(std::string_view text) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  compute::cast_text::trim(begin, end);
  return std::none_of(begin, end, [](char c) { return c == ' ' || c == 'T'; });
}

InferredType of(Kind kind) { return InferredType{kind, 0, 0}; }

InferredType decimal_of_integral(Kind kind) {
  return kind == Kind::kInt ? InferredType{Kind::kDecimal, 10, 0}
                            : InferredType{Kind::kDecimal, 20, 0};
}

}  // namespace

InferredType TypeInferrer::infer(InferredType so_far, std::string_view text) const {
  if (text.empty() || text == options_.null_value) {
    return so_far;
  }
  InferredType next;
  switch (so_far.kind) {
    case Kind::kNull:
    case Kind::kInt:
      next = from_integer(text);
      break;
    case Kind::kLong:
      next = from_long(text);
      break;
    case Kind::kDecimal:
      next = from_decimal(text);
      break;
    case Kind::kDouble:
      next = from_double(text);
      break;
    case Kind::kDate:
      next = from_date(text);
      break;
    case Kind::kTimestamp:
      next = from_timestamp(text);
      break;
    case Kind::kBoolean:
      next = from_boolean(text);
      break;
    case Kind::kString:
      return so_far;
  }
  return merge(so_far, next);
}

InferredType TypeInferrer::from_integer(std::string_view text) const {
  int64_t value = 0;
  if (ValueParser::integer(text, INT32_MIN, INT32_MAX, &value)) {
    return of(Kind::kInt);
  }
  return from_long(text);
}

InferredType TypeInferrer::from_long(std::string_view text) const {
  int64_t value = 0;
  if (ValueParser::integer(text, INT64_MIN, INT64_MAX, &value)) {
    return of(Kind::kLong);
  }
  return from_decimal(text);
}

InferredType TypeInferrer::from_decimal(std::string_view text) const {
  // Spark infers decimals only for values without a fraction (scale <= 0) that fit 38 digits;
  // negative scales ("1E10") are not allowed decimals, so those are doubles.
  const int32_t precision = integer_precision(text);
  if (precision > 0 && precision <= 38) {
    return InferredType{Kind::kDecimal, precision, 0};
  }
  return from_double(text);
}

InferredType TypeInferrer::from_double(std::string_view text) const {
  double value = 0;
  if (values_.floating(text, &value)) {
    return of(Kind::kDouble);
  }
  return options_.prefer_date ? from_date(text) : from_timestamp(text);
}

InferredType TypeInferrer::from_date(std::string_view text) const {
  if ((values_.has_date_format() || is_plain_date(text)) && values_.date(text)) {
    return of(Kind::kDate);
  }
  return from_timestamp(text);
}

InferredType TypeInferrer::from_timestamp(std::string_view text) const {
  // Spark tries TIMESTAMP_NTZ texts first and infers them as the session's timestamp type
  // (TIMESTAMP by default), then TIMESTAMP texts: either way TIMESTAMP.
  if (values_.timestamp_ntz(text) || values_.timestamp(text)) {
    return of(Kind::kTimestamp);
  }
  return from_boolean(text);
}

InferredType TypeInferrer::from_boolean(std::string_view text) const {
  bool value = false;
  return of(ValueParser::boolean(text, &value) ? Kind::kBoolean : Kind::kString);
}

InferredType TypeInferrer::merge(const InferredType& a, const InferredType& b) {
  if (a == b) {
    return a;
  }
  if (a.kind == Kind::kNull) {
    return b;
  }
  if (b.kind == Kind::kNull) {
    return a;
  }
  if (a.kind == Kind::kString || b.kind == Kind::kString) {
    return of(Kind::kString);
  }
  const auto integral = [](Kind k) { return k == Kind::kInt || k == Kind::kLong; };
  if (integral(a.kind) && integral(b.kind)) {
    return of(Kind::kLong);
  }
  const auto numeric = [&](Kind k) { return integral(k) || k == Kind::kDouble; };
  if (numeric(a.kind) && numeric(b.kind)) {
    return of(Kind::kDouble);
  }
  if (integral(a.kind) && b.kind == Kind::kDecimal) {
    return merge(decimal_of_integral(a.kind), b);
  }
  if (a.kind == Kind::kDecimal && integral(b.kind)) {
    return merge(a, decimal_of_integral(b.kind));
  }
  if ((a.kind == Kind::kDouble && b.kind == Kind::kDecimal) ||
      (a.kind == Kind::kDecimal && b.kind == Kind::kDouble)) {
    return of(Kind::kDouble);
  }
  if (a.kind == Kind::kDecimal && b.kind == Kind::kDecimal) {
    const int32_t scale = std::max(a.scale, b.scale);
    const int32_t range = std::max(a.precision - a.scale, b.precision - b.scale);
    if (range + scale > 38) {
      return of(Kind::kDouble);
    }
    return InferredType{Kind::kDecimal, range + scale, scale};
  }
  // Dates mixed with timestamps, and booleans mixed with anything else, are strings.
  return of(Kind::kString);
}

TypePtr TypeInferrer::to_type(const InferredType& type, const std::string& time_zone) {
  switch (type.kind) {
    case Kind::kInt:
      return int32();
    case Kind::kLong:
      return int64();
    case Kind::kDecimal:
      return decimal128(type.precision, type.scale);
    case Kind::kDouble:
      return float64();
    case Kind::kDate:
      return date32();
    case Kind::kTimestamp:
      return timestamp(TimeUnit::kMicro, time_zone);
    case Kind::kBoolean:
      return boolean();
    case Kind::kNull:
    case Kind::kString:
      break;
  }
  return utf8();
}

std::vector<std::string> safe_header_names(const std::vector<std::string>& names,
                                           const std::string& null_value) {
  std::map<std::string, int> counts;
  auto folded = [](const std::string& name) {
    std::string out = name;
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
  };
  for (const std::string& name : names) {
    ++counts[folded(name)];
  }
  std::vector<std::string> out;
  out.reserve(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    if (name.empty() || name == null_value) {
      out.push_back("_c" + std::to_string(i));
    } else if (counts[folded(name)] > 1) {
      out.push_back(name + std::to_string(i));
    } else {
      out.push_back(name);
    }
  }
  return out;
}

}  // namespace bowstring::io::csv
