#include "bowstring/io/csv/csv_writer.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "bowstring/array/array.h"
#include "bowstring/compute/cast/cast_text.h"
#include "bowstring/compute/datetime/datetime_format.h"
#include "bowstring/compute/datetime/datetime_parse.h"
#include "bowstring/io/file_bytes.h"
#include "bowstring/runtime/parallel.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::io::csv {

namespace {
constexpr int64_t kMicrosPerDay = 86400LL * 1000000;
// Bytes gathered before they go to the sink.
constexpr size_t kFlushBytes = 1 << 20;
// Rows worth formatting on a thread of their own.
constexpr int64_t kRowsPerSlice = 16384;
}  // namespace

/// Appends the text of one column's values as Spark's CSV writer prints them.
class ColumnFormatter {
 public:
  ColumnFormatter(const bowstring::Field& field, const CsvWriteOptions& options)
      : type_(field.type()), zone_(&compute::TimeZone::get(options.time_zone)) {
    switch (type_->id()) {
      case TypeId::kBoolean:
      case TypeId::kInt8:
      case TypeId::kInt16:
      case TypeId::kInt32:
      case TypeId::kInt64:
      case TypeId::kFloat32:
      case TypeId::kFloat64:
      case TypeId::kDecimal128:
      case TypeId::kString:
      case TypeId::kLargeString:
        return;
      case TypeId::kDate32:
        pattern_ = std::make_unique<compute::DateTimePattern>(options.date_format);
        default_date_format_ = options.date_format == "yyyy-MM-dd";
        return;
      case TypeId::kTimestamp: {
        const auto& timestamp_type = static_cast<const TimestampType&>(*type_);
        if (timestamp_type.unit() != TimeUnit::kMicro) {
          break;
        }
        ntz_ = timestamp_type.timezone().empty();
        pattern_ = std::make_unique<compute::DateTimePattern>(ntz_ ? options.timestamp_ntz_format
                                                                   : options.timestamp_format);
        return;
      }
      default:
        break;
    }
    throw NotImplemented("CSV cannot write column '" + field.name() + "' of type " +
                         spark_type_name(*type_) +
                         " (Spark's CSV data source does not support it)");
  }

  void bind(const Array& array) {
    array_ = array;
    has_nulls_ = array.null_count() > 0;
    switch (type_->id()) {
      case TypeId::kBoolean:
        booleans_.emplace(array.as<BooleanArray>());
        break;
      case TypeId::kDecimal128:
        decimals_.emplace(array.as<DecimalArray>());
        break;
      case TypeId::kString:
        strings_.emplace(array.as<StringArray>());
        break;
      case TypeId::kLargeString:
        large_strings_.emplace(array.as<LargeStringArray>());
        break;
      case TypeId::kInt8:
        values_ = array.as<Int8Array>().raw_values();
        break;
      case TypeId::kInt16:
        values_ = array.as<Int16Array>().raw_values();
        break;
      case TypeId::kInt32:
      case TypeId::kDate32:
        values_ = array.as<Int32Array>().raw_values();
        break;
      case TypeId::kInt64:
      case TypeId::kTimestamp:
        values_ = array.as<Int64Array>().raw_values();
        break;
      case TypeId::kFloat32:
        values_ = array.as<FloatArray>().raw_values();
        break;
      case TypeId::kFloat64:
        values_ = array.as<DoubleArray>().raw_values();
        break;
      default:
        break;
    }
  }

  // Appends the text of row `i` (not null) to `out`.
  void format(int64_t i, std::string& out) const {
    char digits[64];
    switch (type_->id()) {
      case TypeId::kBoolean:
        out += booleans_->value(i) ? "true" : "false";
        return;
      case TypeId::kInt8:
        append_integer(value<int8_t>(i), out);
        return;
      case TypeId::kInt16:
        append_integer(value<int16_t>(i), out);
        return;
      case TypeId::kInt32:
        append_integer(value<int32_t>(i), out);
        return;
      case TypeId::kInt64:
        append_integer(value<int64_t>(i), out);
        return;
      case TypeId::kFloat32:
        out.append(digits,
                   static_cast<size_t>(compute::cast_text::format_float(value<float>(i), digits)));
        return;
      case TypeId::kFloat64:
        out.append(digits, static_cast<size_t>(
                               compute::cast_text::format_double(value<double>(i), digits)));
        return;
      case TypeId::kDecimal128: {
        __int128 unscaled = 0;
        std::memcpy(&unscaled, decimals_->value_bytes(i), sizeof(unscaled));
        out.append(digits, static_cast<size_t>(compute::cast_text::format_decimal(
                               unscaled, decimals_->scale(), digits)));
        return;
      }
      case TypeId::kString:
        out += strings_->value(i);
        return;
      case TypeId::kLargeString:
        out += large_strings_->value(i);
        return;
      case TypeId::kDate32: {
        const int32_t days = value<int32_t>(i);
        int64_t micros = 0;
        // Dates past the range of timestamps have no instant to format with a pattern; the
        // default pattern prints as CAST(date AS STRING) does, for every date.
        if (default_date_format_ ||
            __builtin_mul_overflow(static_cast<int64_t>(days), kMicrosPerDay, &micros)) {
          char text[compute::kMaxDateTextLength];
          out.append(text, static_cast<size_t>(compute::format_date(days, text)));
        } else {
          pattern_->format(micros, compute::TimeZone::utc(), out);
        }
        return;
      }
      case TypeId::kTimestamp:
        pattern_->format(value<int64_t>(i), ntz_ ? compute::TimeZone::utc() : *zone_, out);
        return;
      default:
        return;
    }
  }

  bool is_null(int64_t i) const { return has_nulls_ && array_.is_null(i); }
  // Row `i` of a string column.
  std::string_view string_value(int64_t i) const {
    return strings_ ? strings_->value(i) : large_strings_->value(i);
  }
  bool is_string() const {
    return type_->id() == TypeId::kString || type_->id() == TypeId::kLargeString;
  }

 private:
  template <typename T>
  T value(int64_t i) const {
    return static_cast<const T*>(values_)[i];
  }

  static void append_integer(int64_t value, std::string& out) {
    char digits[24];
    out.append(digits, static_cast<size_t>(compute::cast_text::format_int64(value, digits)));
  }

  TypePtr type_;
  const compute::TimeZone* zone_;
  std::unique_ptr<compute::DateTimePattern> pattern_;
  bool ntz_ = false;
  bool default_date_format_ = false;
  // The bound column, and views of it made once per batch.
  Array array_;
  bool has_nulls_ = false;
  const void* values_ = nullptr;
  std::optional<BooleanArray> booleans_;
  std::optional<DecimalArray> decimals_;
  std::optional<StringArray> strings_;
  std::optional<LargeStringArray> large_strings_;
};

CsvWriter::CsvWriter(std::shared_ptr<OutputStream> sink, SchemaPtr schema, CsvWriteOptions options)
    : schema_(std::move(schema)), options_(std::move(options)) {
  for (const FieldPtr& field : schema_->fields()) {
    formatters_.push_back(std::make_unique<ColumnFormatter>(*field, options_));
  }
  sink_ = options_.compression == Compression::kNone
              ? std::move(sink)
              : std::shared_ptr<OutputStream>(compressing_stream(
                    std::move(sink), options_.compression == Compression::kZstd));
}

CsvWriter::~CsvWriter() = default;

void CsvWriter::append_value(std::string_view text, std::string& out) const {
  if (options_.ignore_leading_whitespace) {
    while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') {
      text.remove_prefix(1);
    }
  }
  if (options_.ignore_trailing_whitespace) {
    while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') {
      text.remove_suffix(1);
    }
  }
  const char quote = options_.quote;
  bool needs_quotes = options_.quote_all;
  bool has_quote = false;
  for (const char c : text) {
    if (c == options_.separator || c == '\n' || c == '\r') {
      needs_quotes = true;
    } else if (quote != '\0' && c == quote) {
      has_quote = true;
    }
  }
  if (has_quote && options_.escape_quotes) {
    needs_quotes = true;
  }
  if (!needs_quotes || quote == '\0') {
    out += text;
    return;
  }
  out += quote;
  for (const char c : text) {
    if (c == quote && (options_.escape_quotes || options_.quote_all)) {
      out += options_.escape;
    }
    out += c;
  }
  out += quote;
}

void CsvWriter::write_header() {
  header_written_ = true;
  if (!options_.header) {
    return;
  }
  for (int i = 0; i < schema_->num_fields(); ++i) {
    if (i > 0) {
      buffer_ += options_.separator;
    }
    append_value(schema_->field(i)->name(), buffer_);
  }
  buffer_ += options_.line_separator;
}

void CsvWriter::write(const RecordBatch& batch) {
  if (!batch.schema()->equals(*schema_)) {
    throw InvalidArgument("a batch of schema " + batch.schema()->to_string() +
                          " cannot be written by a CSV writer of schema " + schema_->to_string());
  }
  if (!header_written_) {
    write_header();
  }
  for (int c = 0; c < batch.num_columns(); ++c) {
    formatters_[static_cast<size_t>(c)]->bind(batch.column(c));
  }
  // Slices of rows are formatted in parallel, then written in order.
  const int64_t rows = batch.num_rows();
  const int64_t slices =
      std::min<int64_t>(hardware_threads(), (rows + kRowsPerSlice - 1) / kRowsPerSlice);
  if (slices <= 1) {
    format_rows(0, rows, buffer_);
  } else {
    // The slices' texts keep their memory from batch to batch.
    slice_texts_.resize(static_cast<size_t>(slices));
    const int64_t step = (rows + slices - 1) / slices;
    parallel_for(slices, static_cast<int>(slices), [&](int64_t slice, int) {
      std::string& text = slice_texts_[static_cast<size_t>(slice)];
      text.clear();
      format_rows(slice * step, std::min(rows, (slice + 1) * step), text);
    });
    for (const std::string& text : slice_texts_) {
      buffer_ += text;
    }
  }
  if (buffer_.size() >= kFlushBytes) {
    sink_->write(buffer_.data(), static_cast<int64_t>(buffer_.size()));
    buffer_.clear();
  }
}

void CsvWriter::format_rows(int64_t begin, int64_t end, std::string& out) const {
  std::string value;
  for (int64_t row = begin; row < end; ++row) {
    for (size_t c = 0; c < formatters_.size(); ++c) {
      if (c > 0) {
        out += options_.separator;
      }
      const ColumnFormatter& formatter = *formatters_[c];
      if (formatter.is_null(row)) {
        out += options_.null_value;
        continue;
      }
      if (formatter.is_string()) {
        const std::string_view text = formatter.string_value(row);
        if (text.empty()) {
          out += options_.empty_value;
        } else {
          append_value(text, out);
        }
        continue;
      }
      // Numbers, dates and timestamps are written in place and rarely need quotes or
      // trimming; when they do, they take the general path.
      const size_t start = out.size();
      formatter.format(row, out);
      if (needs_care(std::string_view(out).substr(start))) {
        value.assign(out, start);
        out.resize(start);
        append_value(value, out);
      }
    }
    out += options_.line_separator;
  }
}

bool CsvWriter::needs_care(std::string_view text) const {
  if (options_.quote_all || text.empty()) {
    return true;
  }
  if (static_cast<unsigned char>(text.front()) <= ' ' ||
      static_cast<unsigned char>(text.back()) <= ' ') {
    return true;
  }
  for (const char c : text) {
    if (c == options_.separator || c == options_.quote || c == '\n' || c == '\r') {
      return true;
    }
  }
  return false;
}

void CsvWriter::close() {
  if (!header_written_) {
    write_header();
  }
  if (!buffer_.empty()) {
    sink_->write(buffer_.data(), static_cast<int64_t>(buffer_.size()));
    buffer_.clear();
  }
  sink_->close();
}

void write_csv(RecordBatchReader& batches, const std::string& path,
               const CsvWriteOptions& options) {
  CsvWriter writer(std::make_shared<FileOutputStream>(path), batches.schema(), options);
  while (const std::optional<RecordBatch> batch = batches.next()) {
    writer.write(*batch);
  }
  writer.close();
}

}  // namespace bowstring::io::csv
