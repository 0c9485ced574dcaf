#include "bowstring/io/files/file_set.h"

#include <glob.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <system_error>
#include <utility>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/cast/cast.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/expr/expression.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/error.h"

namespace bowstring::io {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kDefaultPartitionName = "__HIVE_DEFAULT_PARTITION__";

/// Spark prints local paths with the `file:` scheme.
std::string qualified(const std::string& path) { return "file:" + path; }

[[noreturn]] void throw_path_not_found(const std::string& path) {
  throw compute::AnalysisError("PATH_NOT_FOUND", "Path does not exist: " + qualified(path) + ".");
}

std::string normalized(const std::string& path) {
  std::string out = fs::absolute(fs::path(path)).lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') {
    out.pop_back();
  }
  return out;
}

bool is_glob(const std::string& path) { return path.find_first_of("*?[{") != std::string::npos; }

/// Whether a listed name is left out of a read (InMemoryFileIndex's hidden names).
bool hidden_name(const std::string& name) {
  const bool excluded = (name.starts_with('_') && name.find('=') == std::string::npos) ||
                        name.starts_with('.') || name.ends_with("._COPYING_");
  return excluded;
}

void list_directory(const fs::path& directory, std::vector<DataFile>& out) {
  std::error_code error;
  fs::directory_iterator entries(directory, error);
  if (error) {
    throw IoError("cannot list '" + directory.string() + "': " + error.message());
  }
  for (const fs::directory_entry& entry : entries) {
    if (hidden_name(entry.path().filename().string())) {
      continue;
    }
    if (entry.is_directory(error)) {
      list_directory(entry.path(), out);
    } else if (entry.is_regular_file(error)) {
      out.push_back(DataFile{entry.path().string(), static_cast<int64_t>(entry.file_size(error))});
    }
  }
}

std::vector<std::string> expand_glob(const std::string& pattern) {
  glob_t matches{};
  const int status = glob(pattern.c_str(), GLOB_BRACE, nullptr, &matches);
  std::vector<std::string> out;
  if (status == 0) {
    for (size_t i = 0; i < matches.gl_pathc; ++i) {
      out.emplace_back(matches.gl_pathv[i]);
    }
  }
  globfree(&matches);
  if (status != 0 && status != GLOB_NOMATCH) {
    throw IoError("cannot expand the glob '" + pattern + "'");
  }
  return out;
}

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Java's Integer.parseInt / Long.parseLong: an optional sign, then decimal digits, in range.
std::optional<int64_t> parse_java_integer(std::string_view text, int64_t min, int64_t max) {
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    text.remove_prefix(1);
  }
  if (!all_digits(text)) {
    return std::nullopt;
  }
  __int128 value = 0;
  for (char c : text) {
    value = value * 10 + (c - '0');
    if (value > static_cast<__int128>(max) + 1) {
      return std::nullopt;
    }
  }
  value = negative ? -value : value;
  if (value < min || value > max) {
    return std::nullopt;
  }
  return static_cast<int64_t>(value);
}

/// Java's Double.parseDouble for decimal texts: surrounding blanks, a sign, NaN, Infinity or
/// digits with a fraction and exponent, and an optional f/F/d/D suffix.
std::optional<double> parse_java_double(std::string_view text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') {
    text.remove_prefix(1);
  }
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') {
    text.remove_suffix(1);
  }
  std::string_view body = text;
  const bool negative = !body.empty() && body[0] == '-';
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    body.remove_prefix(1);
  }
  if (body == "NaN") {
    return std::nan("");
  }
  if (body == "Infinity") {
    return negative ? -INFINITY : INFINITY;
  }
  if (!body.empty() && std::string_view("fFdD").find(body.back()) != std::string_view::npos) {
    body.remove_suffix(1);
  }
  size_t i = 0;
  size_t digits = 0;
  while (i < body.size() && body[i] >= '0' && body[i] <= '9') {
    ++i;
    ++digits;
  }
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9') {
      ++i;
      ++digits;
    }
  }
  if (digits == 0) {
    return std::nullopt;
  }
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) {
      ++i;
    }
    if (!all_digits(body.substr(std::min(i, body.size())))) {
      return std::nullopt;
    }
    i = body.size();
  }
  if (i != body.size()) {
    return std::nullopt;
  }
  const std::string number(body);
  const double value = std::strtod(number.c_str(), nullptr);
  return negative ? -value : value;
}

/// The precision of a decimal without fraction that Java's BigDecimal reads from `text` (an
/// optional sign, digits, an optional '.' with no digits after it), or nullopt.
std::optional<int32_t> integral_decimal_precision(std::string_view text) {
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    text.remove_prefix(1);
  }
  if (text.ends_with('.')) {
    text.remove_suffix(1);
  }
  if (!all_digits(text)) {
    return std::nullopt;
  }
  const size_t first = std::min(text.find_first_not_of('0'), text.size() - 1);
  const auto precision = static_cast<int32_t>(text.size() - first);
  if (precision > 38) {
    return std::nullopt;
  }
  return precision;
}

bool two_digits(std::string_view text, size_t at) {
  return at + 2 <= text.size() && all_digits(text.substr(at, 2));
}

/// `yyyy-MM-dd`: a year of four digits or more, then two-digit month and day.
std::optional<size_t> date_prefix(std::string_view text) {
  size_t year = 0;
  while (year < text.size() && text[year] >= '0' && text[year] <= '9') {
    ++year;
  }
  if (year < 4 || year + 6 > text.size() || text[year] != '-' || !two_digits(text, year + 1) ||
      text[year + 3] != '-' || !two_digits(text, year + 4)) {
    return std::nullopt;
  }
  return year + 6;
}

/// Whether the date or timestamp text also casts to `type` (what Spark checks after parsing).
bool casts_to(std::string_view text, const TypePtr& type, const std::string& time_zone) {
  StringBuilder builder;
  builder.append(text);
  compute::ExecContext context;
  context.session_time_zone = time_zone;
  try {
    const compute::Datum value =
        compute::try_cast(compute::Datum::scalar(builder.finish()), type, context);
    return !value.scalar_is_null();
  } catch (const Error&) {
    return false;
  }
}

bool is_date(std::string_view text, const std::string& time_zone) {
  const std::optional<size_t> end = date_prefix(text);
  return end && *end == text.size() && casts_to(text, date32(), time_zone);
}

/// `yyyy-MM-dd HH:mm:ss[.S]`, the pattern Spark parses partition timestamps with.
bool is_timestamp(std::string_view text, const TypePtr& type, const std::string& time_zone) {
  const std::optional<size_t> date_end = date_prefix(text);
  if (!date_end) {
    return false;
  }
  size_t at = *date_end;
  if (at + 9 > text.size() || text[at] != ' ' || !two_digits(text, at + 1) || text[at + 3] != ':' ||
      !two_digits(text, at + 4) || text[at + 6] != ':' || !two_digits(text, at + 7)) {
    return false;
  }
  at += 9;
  if (at < text.size()) {
    const std::string_view fraction = text.substr(at + 1);
    if (text[at] != '.' || !all_digits(fraction) || fraction.size() > 9) {
      return false;
    }
  }
  return casts_to(text, type, time_zone);
}

TypePtr timestamp_type(const std::string& time_zone) {
  return parse_spark_type("timestamp", time_zone);
}

bool is_integral_decimal(const TypePtr& type) {
  return type->id() == TypeId::kDecimal128 && static_cast<const DecimalType&>(*type).scale() == 0;
}

int32_t integral_digits(const TypePtr& type) {
  switch (type->id()) {
    case TypeId::kInt32:
      return 10;
    case TypeId::kInt64:
      return 20;
    default:
      return static_cast<const DecimalType&>(*type).precision();
  }
}

/// A folder name's column and raw value, when it is `name=value`.
std::optional<std::pair<std::string, std::string>> partition_folder(const std::string& name) {
  const size_t equals = name.find('=');
  if (equals == std::string::npos || equals == 0) {
    return std::nullopt;
  }
  return std::make_pair(unescape_path_name(name.substr(0, equals)), name.substr(equals + 1));
}

/// The partition columns of the folders between `base` and the file `path`, outermost first,
/// as Spark's parsePartition reads them walking up from the file's folder: it stops at the
/// base, or at a folder that is not `name=value` once it has found some.
std::vector<std::pair<std::string, std::string>> partition_columns(const std::string& path,
                                                                   const std::string& base) {
  std::vector<std::pair<std::string, std::string>> columns;
  fs::path folder = fs::path(path).parent_path();
  while (folder.string().size() > base.size() && folder.string().starts_with(base)) {
    const std::optional<std::pair<std::string, std::string>> column =
        partition_folder(folder.filename().string());
    if (!column) {
      if (!columns.empty()) {
        break;
      }
    } else {
      if (column->second.empty()) {
        throw InvalidArgument("Empty partition column value in '" + folder.filename().string() +
                              "' (file " + qualified(path) + ")");
      }
      columns.push_back(*column);
    }
    folder = folder.parent_path();
  }
  std::reverse(columns.begin(), columns.end());
  return columns;
}

std::string joined_names(const std::vector<std::pair<std::string, std::string>>& columns) {
  std::string out;
  for (const auto& column : columns) {
    out += out.empty() ? "" : ", ";
    out += column.first;
  }
  return out;
}

/// The values of one partition column as an array of `type`, from the folders' texts.
Array partition_column(const std::vector<std::optional<std::string>>& raw, const TypePtr& type,
                       const std::string& time_zone) {
  switch (type->id()) {
    case TypeId::kInt32:
    case TypeId::kInt64: {
      const bool is_int = type->id() == TypeId::kInt32;
      Int32Builder ints;
      Int64Builder longs;
      for (const std::optional<std::string>& text : raw) {
        const std::optional<int64_t> value =
            text ? parse_java_integer(*text, INT64_MIN, INT64_MAX) : std::nullopt;
        if (is_int) {
          value ? ints.append(static_cast<int32_t>(*value)) : ints.append_null();
        } else {
          value ? longs.append(*value) : longs.append_null();
        }
      }
      return is_int ? ints.finish() : longs.finish();
    }
    case TypeId::kFloat64: {
      DoubleBuilder doubles;
      for (const std::optional<std::string>& text : raw) {
        const std::optional<double> value = text ? parse_java_double(*text) : std::nullopt;
        value ? doubles.append(*value) : doubles.append_null();
      }
      return doubles.finish();
    }
    default: {
      // Strings are the folder names decoded; decimals, dates and timestamps cast from them.
      StringBuilder strings;
      for (const std::optional<std::string>& text : raw) {
        text ? strings.append(unescape_path_name(*text)) : strings.append_null();
      }
      Array values = strings.finish();
      if (type->id() == TypeId::kString) {
        return values;
      }
      compute::ExecContext context;
      context.session_time_zone = time_zone;
      return compute::cast(compute::Datum(values), type, context).array();
    }
  }
}

}  // namespace

std::string unescape_path_name(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      const int high = hex(text[i + 1]);
      const int low = hex(text[i + 2]);
      if (high >= 0 && low >= 0) {
        out += static_cast<char>(high * 16 + low);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

std::string escape_path_name(std::string_view text) {
  static constexpr std::string_view kEscaped = "\"#%'*/:=?\\\x7F{[]^";
  std::string out;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte >= 0x01 && byte <= 0x1F) || kEscaped.find(c) != std::string_view::npos) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out += c;
    }
  }
  return out;
}

TypePtr infer_partition_type(std::string_view raw, const std::string& time_zone) {
  if (parse_java_integer(raw, INT32_MIN, INT32_MAX)) {
    return int32();
  }
  if (parse_java_integer(raw, INT64_MIN, INT64_MAX)) {
    return int64();
  }
  if (const std::optional<int32_t> precision = integral_decimal_precision(raw)) {
    return decimal128(*precision, 0);
  }
  if (parse_java_double(raw)) {
    return float64();
  }
  const TypePtr timestamp = timestamp_type(time_zone);
  if (is_timestamp(unescape_path_name(raw), timestamp, time_zone)) {
    return timestamp;
  }
  if (is_date(raw, time_zone)) {
    return date32();
  }
  return raw == kDefaultPartitionName ? null() : utf8();
}

TypePtr wider_partition_type(const TypePtr& a, const TypePtr& b) {
  const TypeId x = a->id();
  const TypeId y = b->id();
  if (a->equals(*b)) {
    return a;
  }
  if (x == TypeId::kNull) {
    return b;
  }
  if (y == TypeId::kNull) {
    return a;
  }
  auto integral = [](const TypePtr& t) {
    return t->id() == TypeId::kInt32 || t->id() == TypeId::kInt64 || is_integral_decimal(t);
  };
  if (integral(a) && integral(b)) {
    if (x == TypeId::kDecimal128 || y == TypeId::kDecimal128) {
      return decimal128(std::max(integral_digits(a), integral_digits(b)), 0);
    }
    return int64();
  }
  if ((x == TypeId::kInt32 && y == TypeId::kFloat64) ||
      (x == TypeId::kFloat64 && y == TypeId::kInt32)) {
    return float64();
  }
  const bool a_time = x == TypeId::kDate32 || x == TypeId::kTimestamp;
  const bool b_time = y == TypeId::kDate32 || y == TypeId::kTimestamp;
  if (a_time && b_time) {
    return x == TypeId::kTimestamp ? a : b;
  }
  return utf8();
}

FileSet list_files(const std::vector<std::string>& paths, const FileSetOptions& options) {
  FileSet set;
  // Every file with the root it was found under: partition folders start below the root.
  std::vector<std::pair<DataFile, std::string>> found;
  for (const std::string& given : paths) {
    std::vector<std::string> roots;
    if (is_glob(given)) {
      for (const std::string& match : expand_glob(normalized(given))) {
        roots.push_back(normalized(match));
      }
      if (roots.empty()) {
        throw_path_not_found(normalized(given));
      }
    } else {
      roots.push_back(normalized(given));
    }
    for (const std::string& root : roots) {
      std::error_code error;
      const fs::file_status status = fs::status(root, error);
      if (error || !fs::exists(status)) {
        throw_path_not_found(root);
      }
      set.root_paths.push_back(root);
      if (fs::is_directory(status)) {
        std::vector<DataFile> files;
        list_directory(root, files);
        for (DataFile& file : files) {
          found.emplace_back(std::move(file), root);
        }
      } else {
        const auto size = static_cast<int64_t>(fs::file_size(root, error));
        found.emplace_back(DataFile{root, size}, fs::path(root).parent_path().string());
      }
    }
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first.path < b.first.path; });
  found.erase(
      std::unique(found.begin(), found.end(),
                  [](const auto& a, const auto& b) { return a.first.path == b.first.path; }),
      found.end());

  // Partition columns of every file, which must agree.
  std::vector<std::vector<std::pair<std::string, std::string>>> columns(found.size());
  if (!options.recursive_file_lookup) {
    const std::optional<std::string> base =
        options.base_path ? std::optional(normalized(*options.base_path)) : std::nullopt;
    for (size_t i = 0; i < found.size(); ++i) {
      columns[i] = partition_columns(found[i].first.path, base ? *base : found[i].second);
    }
  }
  for (size_t i = 1; i < found.size(); ++i) {
    bool same = columns[i].size() == columns[0].size();
    for (size_t c = 0; same && c < columns[i].size(); ++c) {
      same = expr::detail::ascii_lower(columns[i][c].first) ==
             expr::detail::ascii_lower(columns[0][c].first);
    }
    if (!same) {
      throw InvalidArgument(
          "Conflicting partition column names detected:\n\tPartition column name list #0: " +
          joined_names(columns[0]) +
          "\n\tPartition column name list #1: " + joined_names(columns[i]) +
          "\nFor partitioned table directories, data files should only live in leaf "
          "directories.\nAnd directories at the same level should have the same partition "
          "column name.\nPlease check the following directories for unexpected files or "
          "inconsistent partition column names:\n\t" +
          qualified(fs::path(found[0].first.path).parent_path().string()) + "\n\t" +
          qualified(fs::path(found[i].first.path).parent_path().string()));
    }
  }

  const size_t width = found.empty() ? 0 : columns[0].size();
  FieldVector fields;
  std::vector<Array> values;
  for (size_t c = 0; c < width; ++c) {
    std::vector<std::optional<std::string>> raw;
    TypePtr type = null();
    for (size_t i = 0; i < found.size(); ++i) {
      const std::string& text = columns[i][c].second;
      raw.push_back(text == kDefaultPartitionName ? std::nullopt : std::optional(text));
      const TypePtr inferred = options.infer_partition_types
                                   ? infer_partition_type(text, options.time_zone)
                                   : (text == kDefaultPartitionName ? null() : utf8());
      type = i == 0 ? inferred : wider_partition_type(type, inferred);
    }
    if (type->id() == TypeId::kNull) {
      type = utf8();
    }
    fields.push_back(field(columns[0][c].first, type, true));
    values.push_back(partition_column(raw, type, options.time_zone));
  }
  set.partition_schema = schema(std::move(fields));
  set.partition_values =
      RecordBatch(set.partition_schema, static_cast<int64_t>(found.size()), std::move(values));
  for (auto& [file, root] : found) {
    set.files.push_back(std::move(file));
  }
  return set;
}

std::vector<FileSplit> split_files(const std::vector<DataFile>& files,
                                   const std::vector<size_t>& selected,
                                   const std::vector<bool>& splittable,
                                   const SplitOptions& options) {
  int64_t total = 0;
  for (size_t index : selected) {
    total += files[index].size + options.open_cost_bytes;
  }
  const int64_t per_thread = total / std::max(1, options.parallelism);
  const int64_t split_bytes = std::max<int64_t>(
      1, std::min(options.max_split_bytes, std::max(options.open_cost_bytes, per_thread)));
  std::vector<FileSplit> splits;
  for (size_t index : selected) {
    const int64_t size = files[index].size;
    if (!splittable[index] || size <= split_bytes) {
      splits.push_back(FileSplit{index, 0, size});
      continue;
    }
    for (int64_t offset = 0; offset < size; offset += split_bytes) {
      splits.push_back(FileSplit{index, offset, std::min(split_bytes, size - offset)});
    }
  }
  return splits;
}

}  // namespace bowstring::io
