#include "bowstring/io/csv/csv_reader.h"

#include <algorithm>
#include <deque>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_decimal.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/cast/cast_text.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/io/csv/csv_infer.h"
#include "bowstring/io/csv/csv_tokenizer.h"
#include "bowstring/io/csv/csv_values.h"
#include "bowstring/io/file_bytes.h"
#include "bowstring/runtime/parallel.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"
#include "bowstring/util/utf8.h"

namespace bowstring::io::csv {
namespace {

// Ranges smaller than this are not worth a task of their own.
constexpr int64_t kMinRangeBytes = 1 << 20;

// The text of a field as Spark compares it with `nullValue`: an empty unquoted field is null
// and an empty quoted one is `emptyValue`. nullopt for a null.
std::optional<std::string_view> field_text(const Field& field, const CsvReadOptions& options) {
  if (field.skipped || (field.text.empty() && !field.quoted)) {
    return std::nullopt;
  }
  const std::string_view text =
      field.text.empty() ? std::string_view(options.empty_value) : field.text;
  if (text == options.null_value) {
    return std::nullopt;
  }
  return text;
}

// `text` with each byte that is not part of valid UTF-8 replaced by U+FFFD, as Java's decoder
// (which Spark reads text with) replaces malformed input; written to `out`.
std::string_view replace_invalid_utf8(std::string_view text, std::string& out) {
  out.clear();
  while (!text.empty()) {
    const int64_t bad = invalid_utf8_position(reinterpret_cast<const uint8_t*>(text.data()),
                                              static_cast<int64_t>(text.size()));
    if (bad < 0) {
      out += text;
      break;
    }
    out.append(text.data(), static_cast<size_t>(bad));
    out += "\xEF\xBF\xBD";
    text.remove_prefix(static_cast<size_t>(bad) + 1);
  }
  return out;
}

// Converts the fields of one column into its Arrow builder.
class ColumnConverter {
 public:
  enum class Kind : uint8_t {
    kString,
    kBoolean,
    kInteger,
    kFloat,
    kDouble,
    kDecimal,
    kDate,
    kTimestamp,
    kTimestampNtz
  };

  static Kind kind_of(const bowstring::Field& field) {
    const DataType& type = *field.type();
    switch (type.id()) {
      case TypeId::kString:
        return Kind::kString;
      case TypeId::kBoolean:
        return Kind::kBoolean;
      case TypeId::kInt8:
      case TypeId::kInt16:
      case TypeId::kInt32:
      case TypeId::kInt64:
        return Kind::kInteger;
      case TypeId::kFloat32:
        return Kind::kFloat;
      case TypeId::kFloat64:
        return Kind::kDouble;
      case TypeId::kDecimal128:
        return Kind::kDecimal;
      case TypeId::kDate32:
        return Kind::kDate;
      case TypeId::kTimestamp: {
        const auto& timestamp_type = static_cast<const TimestampType&>(type);
        if (timestamp_type.unit() != TimeUnit::kMicro) {
          break;
        }
        return timestamp_type.timezone().empty() ? Kind::kTimestampNtz : Kind::kTimestamp;
      }
      default:
        break;
    }
    throw NotImplemented("CSV cannot read column '" + field.name() + "' of type " +
                         spark_type_name(type) +
                         ": its types are strings, booleans, integers, floats, doubles, "
                         "decimals, dates and timestamps (microseconds)");
  }

  explicit ColumnConverter(const bowstring::Field& field)
      : kind_(kind_of(field)), builder_(make_builder(field.type())) {
    const DataType& type = *field.type();
    switch (type.id()) {
      case TypeId::kInt8:
        range_ = {INT8_MIN, INT8_MAX};
        break;
      case TypeId::kInt16:
        range_ = {INT16_MIN, INT16_MAX};
        break;
      case TypeId::kInt32:
        range_ = {INT32_MIN, INT32_MAX};
        break;
      case TypeId::kDecimal128: {
        const auto& decimal = static_cast<const DecimalType&>(type);
        precision_ = decimal.precision();
        scale_ = decimal.scale();
        break;
      }
      default:
        break;
    }
  }

  void append_null() { builder_->append_null(); }

  // Appends the field's value; false (and a null appended) when it cannot be read.
  // `valid_utf8`: the whole range is known to be valid UTF-8.
  bool append(const Field& field, const ValueParser& values, const CsvReadOptions& options,
              bool valid_utf8) {
    std::optional<std::string_view> text = field_text(field, options);
    if (text && !valid_utf8 && kind_ == Kind::kString && !is_valid_utf8(*text)) {
      text = replace_invalid_utf8(*text, replaced_);
    }
    if (!text) {
      builder_->append_null();
      return true;
    }
    if (options.max_chars_per_column > 0 &&
        static_cast<int64_t>(text->size()) > options.max_chars_per_column) {
      builder_->append_null();
      return false;
    }
    if (convert(*text, values)) {
      return true;
    }
    builder_->append_null();
    return false;
  }

  Array finish() { return builder_->finish(); }

 private:
  bool convert(std::string_view text, const ValueParser& values) {
    switch (kind_) {
      case Kind::kString:
        static_cast<StringBuilder&>(*builder_).append(text);
        return true;
      case Kind::kBoolean: {
        bool value = false;
        if (!ValueParser::boolean(text, &value)) {
          return false;
        }
        static_cast<BooleanBuilder&>(*builder_).append(value);
        return true;
      }
      case Kind::kInteger: {
        int64_t value = 0;
        if (!ValueParser::integer(text, range_.first, range_.second, &value)) {
          return false;
        }
        append_integer(value);
        return true;
      }
      case Kind::kFloat: {
        float value = 0;
        if (!values.floating(text, &value)) {
          return false;
        }
        static_cast<FloatBuilder&>(*builder_).append(value);
        return true;
      }
      case Kind::kDouble: {
        double value = 0;
        if (!values.floating(text, &value)) {
          return false;
        }
        static_cast<DoubleBuilder&>(*builder_).append(value);
        return true;
      }
      case Kind::kDecimal: {
        __int128 unscaled = 0;
        if (compute::cast_text::parse_decimal(text.data(), text.data() + text.size(), precision_,
                                              scale_,
                                              &unscaled) != compute::cast_text::ParseResult::kOk) {
          return false;
        }
        static_cast<DecimalBuilder&>(*builder_).append_raw(
            reinterpret_cast<const uint8_t*>(&unscaled));
        return true;
      }
      case Kind::kDate: {
        const std::optional<int32_t> days = values.date(text);
        if (!days) {
          return false;
        }
        static_cast<Date32Builder&>(*builder_).append(*days);
        return true;
      }
      case Kind::kTimestamp:
      case Kind::kTimestampNtz: {
        const std::optional<int64_t> micros =
            kind_ == Kind::kTimestamp ? values.timestamp(text) : values.timestamp_ntz(text);
        if (!micros) {
          return false;
        }
        static_cast<TimestampBuilder&>(*builder_).append(*micros);
        return true;
      }
    }
    return false;
  }

  void append_integer(int64_t value) {
    switch (builder_->type()->id()) {
      case TypeId::kInt8:
        static_cast<Int8Builder&>(*builder_).append(static_cast<int8_t>(value));
        break;
      case TypeId::kInt16:
        static_cast<Int16Builder&>(*builder_).append(static_cast<int16_t>(value));
        break;
      case TypeId::kInt32:
        static_cast<Int32Builder&>(*builder_).append(static_cast<int32_t>(value));
        break;
      default:
        static_cast<Int64Builder&>(*builder_).append(value);
        break;
    }
  }

  Kind kind_;
  std::unique_ptr<ArrayBuilder> builder_;
  std::string replaced_;
  std::pair<int64_t, int64_t> range_{INT64_MIN, INT64_MAX};
  int32_t precision_ = 0;
  int32_t scale_ = 0;
};

// How the schema's fields map onto the records' fields, and which are produced.
struct ReadPlan {
  SchemaPtr schema;  // the full schema (data fields and the corrupt-record field)
  int data_width = 0;
  int corrupt_field = -1;           // index in `schema`, -1 if none
  std::vector<int> token_of_field;  // per schema field: its record field, -1 for corrupt
  std::vector<int> columns;         // schema fields produced, in order
  SchemaPtr output_schema;
};

ReadPlan make_plan(SchemaPtr schema, const CsvReadOptions& options,
                   const std::optional<std::vector<int>>& columns) {
  ReadPlan plan;
  plan.schema = schema;
  for (int i = 0; i < schema->num_fields(); ++i) {
    const FieldPtr& field = schema->field(i);
    if (field->name() == options.column_name_of_corrupt_record) {
      if (field->type()->id() != TypeId::kString || !field->nullable()) {
        throw InvalidArgument("the field for corrupt records '" + field->name() +
                              "' must be a nullable string, not " +
                              spark_type_name(*field->type()));
      }
      plan.corrupt_field = i;
      plan.token_of_field.push_back(-1);
    } else {
      plan.token_of_field.push_back(plan.data_width++);
    }
  }
  if (columns) {
    for (int index : *columns) {
      if (index < 0 || index >= schema->num_fields()) {
        throw IndexError("CSV column index " + std::to_string(index) + " is outside the schema's " +
                         std::to_string(schema->num_fields()) + " columns");
      }
    }
    plan.columns = *columns;
  } else {
    for (int i = 0; i < schema->num_fields(); ++i) {
      plan.columns.push_back(i);
    }
  }
  FieldVector fields;
  for (int index : plan.columns) {
    if (index != plan.corrupt_field) {
      ColumnConverter::kind_of(*schema->field(index));  // rejects unsupported types early
    }
    fields.push_back(schema->field(index));
  }
  plan.output_schema = std::make_shared<const Schema>(std::move(fields));
  return plan;
}

// Byte offsets splitting `text` into ranges that each start a record.
std::vector<int64_t> range_starts(std::string_view text, const CsvReadOptions& options) {
  const int64_t size = static_cast<int64_t>(text.size());
  std::vector<int64_t> starts{0};
  if (options.multi_line) {
    return starts;
  }
  const int64_t pieces = static_cast<int64_t>(hardware_threads()) * 8;
  const int64_t step = std::max<int64_t>(kMinRangeBytes, size / std::max<int64_t>(pieces, 1));
  for (int64_t at = step; at < size; at += step) {
    const int64_t start = next_line_start(text, at, options.line_separator);
    if (start < size && start > starts.back()) {
      starts.push_back(start);
    }
  }
  return starts;
}

// The text of range `index` of those starting at `starts`.
std::string_view range_text(std::string_view text, const std::vector<int64_t>& starts,
                            size_t index) {
  const size_t begin = static_cast<size_t>(starts[index]);
  const size_t end =
      index + 1 < starts.size() ? static_cast<size_t>(starts[index + 1]) : text.size();
  return text.substr(begin, end - begin);
}

struct Malformed {
  int64_t line = 0;  // line breaks before the record within its range
  std::string message;
};

struct RangeOutput {
  std::vector<RecordBatch> batches;
  int64_t lines = 0;
  std::optional<Malformed> failure;
};

// Parses one range of a file into batches of the plan's output columns.
class RangeParser {
 public:
  RangeParser(const ReadPlan& plan, const CsvReadOptions& options, const ValueParser& values)
      : plan_(plan), options_(options), values_(values) {
    for (int index : plan.columns) {
      if (index == plan.corrupt_field) {
        converters_.emplace_back(nullptr);
      } else {
        converters_.push_back(std::make_unique<ColumnConverter>(*plan.schema->field(index)));
      }
    }
  }

  RangeOutput parse(std::string_view text, bool skip_header) {
    RangeOutput out;
    valid_utf8_ = is_valid_utf8(text);
    Tokenizer tokenizer(options_, text);
    Record record;
    while (tokenizer.next(record)) {
      if (skip_header) {
        skip_header = false;
        continue;
      }
      if (!convert(record, out)) {
        return out;  // FAILFAST: the read fails, its batches are of no use
      }
      if (rows_ == options_.batch_rows) {
        flush(out);
      }
    }
    flush(out);
    out.lines = tokenizer.lines();
    return out;
  }

 private:
  // Appends one record; false when the read must stop (FAILFAST).
  bool convert(const Record& record, RangeOutput& out) {
    const int fields = static_cast<int>(record.fields.size());
    bool malformed = record.malformed;
    int bad_field = -1;
    for (size_t c = 0; c < converters_.size(); ++c) {
      ColumnConverter* converter = converters_[c].get();
      if (converter == nullptr) {
        continue;
      }
      const int token = plan_.token_of_field[static_cast<size_t>(plan_.columns[c])];
      // As Spark's UnivocityParser, the columns after one that fails are not converted (null).
      if (token >= fields || bad_field >= 0) {
        converter->append_null();
      } else if (!converter->append(record.fields[static_cast<size_t>(token)], values_, options_,
                                    valid_utf8_)) {
        bad_field = token;
        malformed = true;
      }
    }
    malformed = malformed || fields != plan_.data_width;
    if (malformed && options_.mode == ParseMode::kFailFast) {
      out.failure = Malformed{record.line, describe(record, bad_field)};
      return false;
    }
    for (size_t c = 0; c < converters_.size(); ++c) {
      if (converters_[c] == nullptr) {
        if (malformed) {
          corrupt_.append(valid_utf8_ ? record.raw : replace_invalid_utf8(record.raw, raw_));
        } else {
          corrupt_.append_null();
        }
      }
    }
    if (options_.mode == ParseMode::kDropMalformed) {
      keep_.append(!malformed);
      dropped_ = dropped_ || malformed;
    }
    ++rows_;
    return true;
  }

  std::string describe(const Record& record, int bad_field) const {
    if (record.malformed) {
      return record.malformed_reason;
    }
    if (bad_field >= 0) {
      const int field_index = static_cast<int>(
          std::find(plan_.token_of_field.begin(), plan_.token_of_field.end(), bad_field) -
          plan_.token_of_field.begin());
      const bowstring::Field& field = *plan_.schema->field(field_index);
      return "column " + std::to_string(bad_field + 1) + " ('" + field.name() +
             "'): cannot read '" + std::string(record.fields[static_cast<size_t>(bad_field)].text) +
             "' as " + spark_type_name(*field.type());
    }
    return "expected " + std::to_string(plan_.data_width) + " fields, found " +
           std::to_string(record.fields.size()) + " (column " +
           std::to_string(
               std::min<size_t>(record.fields.size(), static_cast<size_t>(plan_.data_width)) + 1) +
           ")";
  }

  void flush(RangeOutput& out) {
    if (rows_ == 0) {
      return;
    }
    std::vector<Array> columns;
    for (auto& converter : converters_) {
      columns.push_back(converter == nullptr ? corrupt_.finish() : converter->finish());
    }
    RecordBatch batch(plan_.output_schema, rows_, std::move(columns));
    if (options_.mode == ParseMode::kDropMalformed) {
      Array keep = keep_.finish();
      if (dropped_) {
        batch = compute::filter(batch, keep);
      }
      dropped_ = false;
    }
    if (batch.num_rows() > 0) {
      out.batches.push_back(std::move(batch));
    }
    rows_ = 0;
  }

  const ReadPlan& plan_;
  const CsvReadOptions& options_;
  const ValueParser& values_;
  std::vector<std::unique_ptr<ColumnConverter>> converters_;
  StringBuilder corrupt_;
  BooleanBuilder keep_;
  bool dropped_ = false;
  bool valid_utf8_ = true;
  std::string raw_;
  int64_t rows_ = 0;
};

[[noreturn]] void throw_malformed(const std::string& path, int64_t line, const std::string& what) {
  throw FormatError("[MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION] Malformed CSV record in '" +
                    path + "' at line " + std::to_string(line) + ": " + what +
                    ". Parse Mode: FAILFAST. To process malformed records as null result, try "
                    "setting the option 'mode' as 'PERMISSIVE'.");
}

// The batches of one file, in order.
std::vector<RecordBatch> parse_file(const FileBytes& file, const ReadPlan& plan,
                                    const CsvReadOptions& options, const ValueParser& values) {
  const std::string_view text = file.bytes;
  const std::vector<int64_t> starts = range_starts(text, options);
  std::vector<RangeOutput> outputs(starts.size());
  parallel_for(static_cast<int64_t>(starts.size()), hardware_threads(), [&](int64_t i, int) {
    const size_t index = static_cast<size_t>(i);
    RangeParser parser(plan, options, values);
    outputs[index] = parser.parse(range_text(text, starts, index), options.header && index == 0);
  });
  std::vector<RecordBatch> batches;
  int64_t lines_before = 0;
  for (RangeOutput& output : outputs) {
    if (output.failure) {
      throw_malformed(file.path, lines_before + output.failure->line + 1, output.failure->message);
    }
    lines_before += output.lines;
    for (RecordBatch& batch : output.batches) {
      batches.push_back(std::move(batch));
    }
  }
  return batches;
}

// The first record of the files (the header, or what fixes the number of columns).
std::optional<std::vector<std::string>> first_record(const std::vector<FileBytes>& files,
                                                     const CsvReadOptions& options) {
  for (const FileBytes& file : files) {
    Tokenizer tokenizer(options, file.bytes);
    Record record;
    if (tokenizer.next(record)) {
      std::vector<std::string> names;
      for (const Field& field : record.fields) {
        const std::optional<std::string_view> text = field_text(field, options);
        names.emplace_back(text ? *text : std::string_view());
      }
      return names;
    }
  }
  return std::nullopt;
}

// Column types inferred from (a sample of) every record of the files.
std::vector<InferredType> infer_types(const std::vector<FileBytes>& files,
                                      const CsvReadOptions& options, size_t width) {
  const TypeInferrer inferrer(options);
  std::vector<InferredType> types(width);
  for (const FileBytes& file : files) {
    const std::vector<int64_t> starts = range_starts(file.bytes, options);
    std::vector<std::vector<InferredType>> partial(starts.size(), std::vector<InferredType>(width));
    parallel_for(static_cast<int64_t>(starts.size()), hardware_threads(), [&](int64_t i, int) {
      const size_t index = static_cast<size_t>(i);
      Tokenizer tokenizer(options, range_text(file.bytes, starts, index));
      Record record;
      bool skip = options.header && index == 0;
      // A fixed sequence per range, so that a sampled inference is repeatable.
      uint64_t state = 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(i + 1);
      std::vector<InferredType>& row_types = partial[index];
      while (tokenizer.next(record)) {
        if (skip) {
          skip = false;
          continue;
        }
        if (options.sampling_ratio < 1.0) {
          state ^= state << 13;
          state ^= state >> 7;
          state ^= state << 17;
          if (static_cast<double>(state >> 11) * 0x1.0p-53 >= options.sampling_ratio) {
            continue;
          }
        }
        const size_t count = std::min(width, record.fields.size());
        for (size_t c = 0; c < count; ++c) {
          if (const std::optional<std::string_view> text = field_text(record.fields[c], options)) {
            row_types[c] = inferrer.infer(row_types[c], *text);
          }
        }
      }
    });
    for (const std::vector<InferredType>& range_types : partial) {
      for (size_t c = 0; c < width; ++c) {
        types[c] = TypeInferrer::merge(types[c], range_types[c]);
      }
    }
  }
  return types;
}

SchemaPtr resolve_schema(const std::vector<FileBytes>& files, const CsvReadOptions& options,
                         const SchemaPtr& given) {
  const std::optional<std::vector<std::string>> first = first_record(files, options);
  if (given != nullptr) {
    if (options.header && !options.enforce_schema && first) {
      std::vector<std::string> expected;
      for (const FieldPtr& field : given->fields()) {
        if (field->name() != options.column_name_of_corrupt_record) {
          expected.push_back(field->name());
        }
      }
      auto fold = [](std::string text) {
        std::transform(text.begin(), text.end(), text.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return text;
      };
      bool conforms = expected.size() == first->size();
      for (size_t i = 0; conforms && i < expected.size(); ++i) {
        conforms = fold(expected[i]) == fold((*first)[i]);
      }
      if (!conforms) {
        auto join = [](const std::vector<std::string>& names) {
          std::string out;
          for (const std::string& name : names) {
            out += (out.empty() ? "" : ", ") + name;
          }
          return out;
        };
        throw InvalidArgument(
            "CSV header does not conform to the schema.\n Header: " + join(*first) +
            "\n Schema: " + join(expected) + "\nCSV file: " + files.front().path);
      }
    }
    return given;
  }
  if (!first) {
    return std::make_shared<const Schema>(FieldVector{});
  }
  std::vector<std::string> names;
  if (options.header) {
    names = safe_header_names(*first, options.null_value);
  } else {
    for (size_t i = 0; i < first->size(); ++i) {
      names.push_back("_c" + std::to_string(i));
    }
  }
  std::vector<InferredType> types(names.size());
  if (options.infer_schema) {
    types = infer_types(files, options, names.size());
  }
  FieldVector fields;
  for (size_t i = 0; i < names.size(); ++i) {
    fields.push_back(field(names[i], TypeInferrer::to_type(types[i], options.time_zone)));
  }
  return std::make_shared<const Schema>(std::move(fields));
}

class CsvBatchReader final : public RecordBatchReader {
 public:
  CsvBatchReader(std::vector<FileBytes> files, CsvReadOptions options, SchemaPtr schema,
                 const std::optional<std::vector<int>>& columns)
      : files_(std::move(files)),
        options_(std::move(options)),
        values_(options_),
        plan_(make_plan(resolve_schema(files_, options_, schema), options_, columns)) {}

  SchemaPtr schema() const override { return plan_.output_schema; }

  std::optional<RecordBatch> next() override {
    while (pending_.empty() && next_file_ < files_.size()) {
      FileBytes& file = files_[next_file_++];
      std::vector<RecordBatch> batches = parse_file(file, plan_, options_, values_);
      file = FileBytes{file.path, {}, nullptr};  // done with its bytes
      pending_.assign(std::make_move_iterator(batches.begin()),
                      std::make_move_iterator(batches.end()));
    }
    if (pending_.empty()) {
      return std::nullopt;
    }
    RecordBatch batch = std::move(pending_.front());
    pending_.pop_front();
    return batch;
  }

 private:
  std::vector<FileBytes> files_;
  CsvReadOptions options_;
  ValueParser values_;
  ReadPlan plan_;
  size_t next_file_ = 0;
  std::deque<RecordBatch> pending_;
};

std::vector<FileBytes> read_files(const std::vector<std::string>& paths) {
  std::vector<FileBytes> files;
  for (const std::string& path : paths) {
    files.push_back(read_file_bytes(path));
  }
  return files;
}

// Line breaks in `text` before `end`, counted as the tokenizer counts them.
int64_t line_breaks_before(std::string_view text, int64_t end, const LineSeparator& separator) {
  int64_t lines = 0;
  for (int64_t i = 0; i < end; ++i) {
    const char c = text[static_cast<size_t>(i)];
    if (separator.any) {
      const bool lone_return = c == '\r' && (i + 1 == static_cast<int64_t>(text.size()) ||
                                             text[static_cast<size_t>(i) + 1] != '\n');
      lines += (c == '\n' || lone_return) ? 1 : 0;
    } else {
      lines += c == separator.character ? 1 : 0;
    }
  }
  return lines;
}

bool compressed(const std::string& path) { return path.ends_with(".gz") || path.ends_with(".zst"); }

}  // namespace

bool csv_splittable(const std::string& path, const CsvReadOptions& options) {
  return !options.multi_line && !compressed(path);
}

std::vector<RecordBatch> read_csv_split(const std::string& path, int64_t offset, int64_t length,
                                        const CsvReadOptions& options, const SchemaPtr& schema,
                                        const std::vector<int>& columns) {
  const FileBytes file = read_file_bytes(path);
  const std::string_view text = file.bytes;
  const auto size = static_cast<int64_t>(text.size());
  int64_t begin = 0;
  int64_t end = size;
  if (csv_splittable(path, options)) {
    begin = std::min(size, next_line_start(text, offset, options.line_separator));
    end = offset + length >= size ? size
                                  : next_line_start(text, offset + length, options.line_separator);
  } else if (offset > 0) {
    return {};  // the range at offset 0 reads the whole file
  }
  if (begin >= end) {
    return {};
  }
  const ReadPlan plan = make_plan(schema, options, columns);
  const ValueParser values(options);
  RangeParser parser(plan, options, values);
  RangeOutput output =
      parser.parse(text.substr(static_cast<size_t>(begin), static_cast<size_t>(end - begin)),
                   options.header && begin == 0);
  if (output.failure) {
    throw_malformed(
        file.path,
        line_breaks_before(text, begin, options.line_separator) + output.failure->line + 1,
        output.failure->message);
  }
  return std::move(output.batches);
}

SchemaPtr resolve_csv_schema(const CsvReadRequest& request) {
  return resolve_schema(read_files(request.paths), request.options, request.schema);
}

std::unique_ptr<RecordBatchReader> read_csv(CsvReadRequest request) {
  return std::make_unique<CsvBatchReader>(read_files(request.paths), std::move(request.options),
                                          std::move(request.schema), request.columns);
}

std::unique_ptr<RecordBatchReader> read_csv_text(std::string_view text, const std::string& name,
                                                 const CsvReadOptions& options, SchemaPtr schema,
                                                 std::optional<std::vector<int>> columns) {
  std::vector<FileBytes> files{FileBytes{name, text, nullptr}};
  return std::make_unique<CsvBatchReader>(std::move(files), options, std::move(schema), columns);
}

}  // namespace bowstring::io::csv
