#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bowstring/compute/collection/array_kernels.h"
#include "bowstring/compute/core/coercion.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/lambda_function.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/compute/scalar/regex.h"
#include "bowstring/compute/scalar/string_function.h"
#include "bowstring/compute/scalar/string_util.h"
#include "bowstring/util/utf8.h"

namespace bowstring::compute {

namespace strings {

namespace {

bool is_string_like(TypeId id) { return id == TypeId::kString || id == TypeId::kLargeString; }
bool is_binary_like(TypeId id) { return id == TypeId::kBinary || id == TypeId::kLargeBinary; }

/// Whether Spark casts a value of this type to STRING implicitly where a string is expected.
bool casts_to_string(const DataType& type) {
  const SparkType spark = spark_type_of(type);
  return spark != SparkType::kOther && spark != SparkType::kNull;
}

std::string ordinal(size_t index) {
  static const char* const kNames[] = {"first", "second", "third", "fourth", "fifth"};
  return index < 5 ? kNames[index] : std::to_string(index + 1) + "th";
}

[[noreturn]] void throw_mismatch(const std::string& function, size_t index, const char* expected,
                                 const DataType& type) {
  throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                      "Cannot resolve \"" + function + "\" due to data type mismatch: the " +
                          ordinal(index) + " parameter requires the " + expected +
                          " type, however it has the type " + spark_type_name(type) + ".");
}

}  // namespace

std::string quote(std::string_view text) {
  std::string quoted(1, '\'');
  quoted.append(escape_invalid_utf8(text));
  quoted.push_back('\'');
  return quoted;
}

namespace {

Resolution resolve_string_arguments(const std::string& name, std::span<const Param> params,
                                    const TypePtr& output, std::span<const TypePtr> arguments) {
  Resolution resolution;
  // STRING-or-BINARY parameters are all BINARY when every such argument is, else all STRING
  // (Spark's rule for concat, contains...).
  bool all_binary = true;
  bool any_binary_param = false;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Param param = params[std::min(i, params.size() - 1)];
    if (param == Param::kStringOrBinary) {
      any_binary_param = true;
      const SparkType spark = spark_type_of(*arguments[i]);
      all_binary = all_binary && (spark == SparkType::kBinary || spark == SparkType::kNull);
    }
  }
  const bool binary = any_binary_param && all_binary;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Param param = params[std::min(i, params.size() - 1)];
    const TypePtr& type = arguments[i];
    const TypeId id = type->id();
    TypePtr resolved;
    if (id == TypeId::kNull) {
      resolved = type;
    } else if (param == Param::kInt || param == Param::kBigint) {
      const bool bigint = param == Param::kBigint;
      const SparkType spark = spark_type_of(*type);
      if (is_integral(spark)) {
        resolved = spark_storage_type(type);
      } else if (spark == SparkType::kString) {
        resolved = bigint ? int64() : int32();
      } else {
        throw_mismatch(name, i, bigint ? "BIGINT" : "INT", *type);
      }
    } else if (param == Param::kBinary) {
      if (!is_binary_like(id) && !is_string_like(id)) {
        throw_mismatch(name, i, "BINARY", *type);
      }
      resolved = type;
    } else if (param == Param::kStringOnly) {
      if (!is_string_like(id)) {
        throw_mismatch(name, i, "STRING", *type);
      }
      resolved = type;
    } else if (param == Param::kStringOrArray &&
               (id == TypeId::kList || id == TypeId::kLargeList)) {
      const TypeId element = static_cast<const ListType&>(*type).value_type()->id();
      resolved = is_string_like(element) || element == TypeId::kNull ? type : list(utf8());
    } else if (param == Param::kStringOrBinary && binary) {
      resolved = is_binary_like(id) ? type : bowstring::binary();
    } else if (is_string_like(id)) {
      resolved = type;
    } else if (casts_to_string(*type)) {
      resolved = utf8();
    } else {
      throw_mismatch(name, i, param == Param::kString ? "STRING" : "STRING or BINARY", *type);
    }
    resolution.arguments.push_back(std::move(resolved));
  }
  if (output != nullptr) {
    resolution.output = output;
  } else {
    resolution.output = binary ? bowstring::binary() : utf8();
  }
  return resolution;
}

}  // namespace

void add_function(FunctionRegistry& registry, std::string name, std::vector<std::string> aliases,
                  Function::Arity arity, std::string description,
                  std::vector<std::string> signatures, std::vector<Param> params, TypePtr output,
                  Kernel kernel, NullHandling null_handling) {
  registry.add(
      std::make_shared<LambdaScalarFunction>(
          std::move(name), arity, null_handling, std::move(description), std::move(signatures),
          [params = std::move(params), output = std::move(output)](
              const std::string& function, std::span<const TypePtr> arguments) {
            return resolve_string_arguments(function, params, output, arguments);
          },
          [kernel = std::move(kernel)](std::span<const Datum> arguments, const TypePtr&,
                                       ExecContext& context) {
            return kernel(arguments, context);
          }),
      std::move(aliases));
}

namespace {

/// A function of strings (or binaries) that takes arrays too (reverse, concat): `array_resolver`
/// gives the resolution when the arguments call for the array form, nullopt otherwise.
void add_string_or_array_function(
    FunctionRegistry& registry, std::string name, Function::Arity arity, std::string description,
    std::vector<std::string> signatures, Kernel string_kernel,
    std::function<std::optional<Resolution>(const std::string&, std::span<const TypePtr>)>
        array_resolver,
    LambdaScalarFunction::Kernel array_kernel) {
  const std::vector<Param> params{Param::kStringOrBinary};
  registry.add(std::make_shared<LambdaScalarFunction>(
      std::move(name), arity, NullHandling::kPropagates, std::move(description),
      std::move(signatures),
      [params, array_resolver = std::move(array_resolver)](const std::string& function,
                                                           std::span<const TypePtr> arguments) {
        if (std::optional<Resolution> resolution = array_resolver(function, arguments)) {
          return *std::move(resolution);
        }
        return resolve_string_arguments(function, params, nullptr, arguments);
      },
      [string_kernel = std::move(string_kernel), array_kernel = std::move(array_kernel)](
          std::span<const Datum> arguments, const TypePtr& output, ExecContext& context) {
        return output->id() == TypeId::kList ? array_kernel(arguments, output, context)
                                             : string_kernel(arguments, context);
      }));
}

// --- length, upper, lower --------------------------------------------------------------------

template <typename Offset>
Datum length_kernel(const Datum& argument, ExecContext& context) {
  const ArrayData& data = *argument.data();
  const Offset* offsets = data.values<Offset>(1);
  const uint8_t* bytes = data.buffers[2] != nullptr ? data.buffers[2]->data() : nullptr;
  OutputValues<int32_t> values(data.length, context.allocator);
  int32_t* out = values.data();
  // In ASCII text (the common case) characters are bytes; in other text they are the bytes
  // that do not continue a sequence, unless malformed bytes make Spark's walk count otherwise.
  if (!is_string_like(data.type->id()) ||
      is_ascii(bytes + offsets[0], offsets[data.length] - offsets[0])) {
    for (int64_t i = 0; i < data.length; ++i) {
      out[i] = static_cast<int32_t>(offsets[i + 1] - offsets[i]);
    }
  } else {
    // One pass over all the bytes checks the walk; a row starting inside a sequence (its
    // first byte a continuation byte) would make it count otherwise too.
    const int64_t first = offsets[0];
    bool regular = walk_is_regular(bytes + first, offsets[data.length] - first);
    for (int64_t i = 0; i < data.length; ++i) {
      const int64_t size = offsets[i + 1] - offsets[i];
      regular = regular && (size == 0 || !is_continuation(bytes[offsets[i]]));
      out[i] = static_cast<int32_t>(size - count_continuations(bytes + offsets[i], size));
    }
    if (!regular) {
      for (int64_t i = 0; i < data.length; ++i) {
        out[i] = static_cast<int32_t>(count_chars(bytes + offsets[i], offsets[i + 1] - offsets[i]));
      }
    }
  }
  Array array = make_fixed_width_array(int32(), data.length, copy_validity(data, context.allocator),
                                       data.null_count(), values.finish());
  return argument.is_scalar() ? Datum::scalar(std::move(array)) : Datum(std::move(array));
}

Datum length(std::span<const Datum> arguments, ExecContext& context) {
  const TypeId id = arguments[0].type()->id();
  return id == TypeId::kLargeString || id == TypeId::kLargeBinary
             ? length_kernel<int64_t>(arguments[0], context)
             : length_kernel<int32_t>(arguments[0], context);
}

Datum octet_length(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return map_to_int32(arguments, context,
                      [&](int64_t i) { return static_cast<int32_t>(value.value(i).size()); });
}

Datum bit_length(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return map_to_int32(arguments, context, [&](int64_t i) {
    const int64_t bits = static_cast<int64_t>(value.value(i).size()) * 8;
    // Spark's INT result would wrap past 256 MiB; a wrong count is worse than an error.
    if (bits > std::numeric_limits<int32_t>::max()) {
      throw ArithmeticError(
          "ARITHMETIC_OVERFLOW",
          "bit_length of a value of " + std::to_string(bits / 8) + " bytes does not fit INT.");
    }
    return static_cast<int32_t>(bits);
  });
}

template <bool kUpper>
void ascii_case(const uint8_t* in, int64_t size, uint8_t* out) {
  for (int64_t i = 0; i < size; ++i) {
    const uint8_t byte = in[i];
    if constexpr (kUpper) {
      out[i] = static_cast<uint8_t>(byte - ((static_cast<unsigned>(byte - 'a') < 26u) ? 32 : 0));
    } else {
      out[i] = static_cast<uint8_t>(byte + ((static_cast<unsigned>(byte - 'A') < 26u) ? 32 : 0));
    }
  }
}

template <typename Offset, bool kUpper>
Datum case_kernel(const Datum& argument, ExecContext& context) {
  const ArrayData& data = *argument.data();
  const int64_t length = data.length;
  const Offset* offsets = data.values<Offset>(1);
  const uint8_t* bytes = data.buffers[2] != nullptr ? data.buffers[2]->data() : nullptr;
  const int64_t first = offsets[0];
  const int64_t total = offsets[length] - first;
  std::shared_ptr<Buffer> validity = copy_validity(data, context.allocator);
  const int64_t null_count = data.null_count();
  MutableBuffer out_offsets((length + 1) * static_cast<int64_t>(sizeof(int32_t)),
                            context.allocator);
  auto* out_offset = reinterpret_cast<int32_t*>(out_offsets.mutable_data());
  MutableBuffer out_data(context.allocator);
  if (is_ascii(bytes + first, total)) {
    // Case conversion keeps every ASCII byte in place: the offsets are the input's, rebased.
    if (total > std::numeric_limits<int32_t>::max()) {
      throw InvalidArgument("the result of a case conversion passes 2 GiB of string data");
    }
    for (int64_t i = 0; i <= length; ++i) {
      out_offset[i] = static_cast<int32_t>(offsets[i] - first);
    }
    out_data.resize(total);
    ascii_case<kUpper>(bytes + first, total, out_data.mutable_data());
  } else {
    // Most text keeps its size; a row may grow threefold at most (ΐ: two bytes to six), so
    // the buffer grows (doubling) only when a row could pass its end.
    out_data.resize(total + total / 8 + 64);
    const CaseMap& map = case_map(kUpper);
    int64_t written = 0;
    out_offset[0] = 0;
    for (int64_t i = 0; i < length; ++i) {
      const uint8_t* in = bytes + offsets[i];
      const int64_t size = offsets[i + 1] - offsets[i];
      if (written + 3 * size > out_data.size()) [[unlikely]] {
        out_data.resize(std::max(2 * out_data.size(), written + 3 * size));
      }
      uint8_t* out = out_data.mutable_data() + written;
      written += write_case<kUpper>(map, in, size, out);
      if (written > std::numeric_limits<int32_t>::max()) {
        throw InvalidArgument("the result of a case conversion passes 2 GiB of string data");
      }
      out_offset[i + 1] = static_cast<int32_t>(written);
    }
    out_data.resize(written);
  }
  Array array(
      std::make_shared<ArrayData>(utf8(), length,
                                  std::vector<std::shared_ptr<Buffer>>{
                                      std::move(validity), out_offsets.finish(), out_data.finish()},
                                  null_count));
  return argument.is_scalar() ? Datum::scalar(std::move(array)) : Datum(std::move(array));
}

template <bool kUpper>
Datum change_case(std::span<const Datum> arguments, ExecContext& context) {
  return arguments[0].type()->id() == TypeId::kLargeString
             ? case_kernel<int64_t, kUpper>(arguments[0], context)
             : case_kernel<int32_t, kUpper>(arguments[0], context);
}

// --- trim -----------------------------------------------------------------------------------

enum class TrimSide : uint8_t { kBoth, kLeft, kRight };

/// Whether the character `c` (its bytes) is one of the characters of `set`, both cut into
/// characters as Spark cuts them.
bool contains_char(std::string_view set, std::string_view c) {
  size_t k = 0;
  while (k < set.size()) {
    const auto n = static_cast<size_t>(sequence_length(static_cast<uint8_t>(set[k])));
    if (set.substr(k, n) == c) {
      return true;
    }
    k += n;
  }
  return false;
}

/// `text` without the leading and/or trailing characters that are in `set`.
std::string_view trim_view(std::string_view text, std::string_view set, TrimSide side) {
  size_t begin = 0;
  size_t end = text.size();
  if (side != TrimSide::kRight) {
    while (begin < end) {
      const auto n = static_cast<size_t>(sequence_length(static_cast<uint8_t>(text[begin])));
      if (!contains_char(set, text.substr(begin, n))) {
        break;
      }
      begin += n;
    }
  }
  if (side != TrimSide::kLeft) {
    // Characters are cut going forward, as Spark does: the text ends after the last character
    // that is not in the set.
    size_t kept_end = begin;
    size_t k = begin;
    while (k < end) {
      const size_t n = std::min<size_t>(
          static_cast<size_t>(sequence_length(static_cast<uint8_t>(text[k]))), end - k);
      if (!contains_char(set, text.substr(k, n))) {
        kept_end = k + n;
      }
      k += n;
    }
    end = kept_end;
  }
  return text.substr(begin, end - begin);
}

template <TrimSide kSide>
Datum trim(std::span<const Datum> arguments, ExecContext& context) {
  // Spark's two-argument form is (trimStr, str).
  StringArg text(arguments[arguments.size() - 1]);
  if (arguments.size() == 1) {
    return map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
      std::string_view value = text.value(i);
      size_t begin = 0;
      size_t end = value.size();
      if (kSide != TrimSide::kRight) {
        while (begin < end && value[begin] == ' ') {
          ++begin;
        }
      }
      if (kSide != TrimSide::kLeft) {
        while (end > begin && value[end - 1] == ' ') {
          --end;
        }
      }
      out.append(value.substr(begin, end - begin));
      return true;
    });
  }
  StringArg set(arguments[0]);
  return map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    out.append(trim_view(text.value(i), set.value(i), kSide));
    return true;
  });
}

// --- substring, left, right -----------------------------------------------------------------

/// Spark's substring of `text` from the 1-based position `pos` (negative: from the end; 0 acts
/// as 1) for `length` characters (or bytes, for binary).
std::string_view substring_view(std::string_view text, int64_t pos, int64_t length,
                                bool characters) {
  const auto size = static_cast<int64_t>(text.size());
  int64_t start = 0;
  if (pos > 0) {
    start = pos - 1;
  } else if (pos < 0) {
    start = (characters ? count_chars(reinterpret_cast<const uint8_t*>(text.data()), size) : size) +
            pos;
  }
  const int64_t end = start + length;
  start = std::max<int64_t>(start, 0);
  if (start >= end) {
    return {};
  }
  if (!characters) {
    const int64_t begin = std::min(start, size);
    return text.substr(static_cast<size_t>(begin),
                       static_cast<size_t>(std::min(end, size) - begin));
  }
  const int64_t begin = char_offset(text, start);
  const std::string_view rest = text.substr(static_cast<size_t>(begin));
  return rest.substr(0, static_cast<size_t>(char_offset(rest, end - start)));
}

constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();

/// Spark's overlay: `input` with `replace` in place of the `len` characters (bytes, for binary)
/// from the 1-based `pos`; a negative `len` (the default) stands for the length of `replace`.
Datum overlay(std::span<const Datum> arguments, ExecContext& context) {
  StringArg input(arguments[0]);
  StringArg replace(arguments[1]);
  IntArg pos(arguments[2]);
  std::optional<IntArg> len;
  if (arguments.size() == 4) {
    len.emplace(arguments[3]);
  }
  const TypeId id = arguments[0].type()->id();
  const bool characters = !is_binary_like(id);
  const TypePtr type = characters ? utf8() : bowstring::binary();
  return map_to_string(arguments, type, context, [&](int64_t i, StringOutput& out) {
    const std::string_view text = input.value(i);
    const std::string_view replacement = replace.value(i);
    const int64_t start = pos.value(i);
    int64_t length = len.has_value() ? len->value(i) : -1;
    if (length < 0) {
      length = characters ? count_chars(reinterpret_cast<const uint8_t*>(replacement.data()),
                                        static_cast<int64_t>(replacement.size()))
                          : static_cast<int64_t>(replacement.size());
    }
    out.append(substring_view(text, 1, start - 1, characters));
    out.append(replacement);
    out.append(substring_view(text, start + length, kIntMax, characters));
    return true;
  });
}

/// btrim(str[, trimStr]): trim's two-argument form with its arguments the other way round.
Datum btrim(std::span<const Datum> arguments, ExecContext& context) {
  if (arguments.size() == 1) {
    return trim<TrimSide::kBoth>(arguments, context);
  }
  const Datum swapped[] = {arguments[1], arguments[0]};
  return trim<TrimSide::kBoth>(swapped, context);
}

Datum substring(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  IntArg pos(arguments[1]);
  const bool has_length = arguments.size() > 2;
  const Datum& length_argument = has_length ? arguments[2] : arguments[1];
  IntArg length(length_argument);
  const bool characters = is_string_like(arguments[0].type()->id());
  const TypePtr type = characters ? utf8() : binary();
  return map_to_string(arguments, type, context, [&](int64_t i, StringOutput& out) {
    out.append(substring_view(text.value(i), pos.value(i), has_length ? length.value(i) : kIntMax,
                              characters));
    return true;
  });
}

Datum left(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  IntArg length(arguments[1]);
  return map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const int64_t n = length.value(i);
    if (n > 0) {
      out.append(substring_view(text.value(i), 1, n, true));
    }
    return true;
  });
}

Datum right(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  IntArg length(arguments[1]);
  return map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const int64_t n = length.value(i);
    if (n > 0) {
      out.append(substring_view(text.value(i), -n, kIntMax, true));
    }
    return true;
  });
}

// --- concat, concat_ws ------------------------------------------------------------------------

Datum concat(std::span<const Datum> arguments, ExecContext& context) {
  const bool binary = !arguments.empty() && is_binary_like(arguments[0].type()->id());
  std::vector<StringArg> parts;
  parts.reserve(arguments.size());
  for (const Datum& argument : arguments) {
    parts.emplace_back(argument);
  }
  return map_to_string(arguments, binary ? bowstring::binary() : utf8(), context,
                       [&](int64_t i, StringOutput& out) {
                         for (const StringArg& part : parts) {
                           out.append(part.value(i));
                         }
                         return true;
                       });
}

/// An argument of concat_ws: a string, or an array of strings whose non-null elements all
/// join (an array of the null type has none).
class JoinPart {
 public:
  explicit JoinPart(const Datum& datum) : scalar_(datum.is_scalar()) {
    const ArrayData& data = *datum.data();
    const TypeId id = data.type->id();
    if (id != TypeId::kList && id != TypeId::kLargeList) {
      string_.emplace(datum);
      return;
    }
    validity_ = data.buffers[0] != nullptr ? data.buffers[0]->data() : nullptr;
    offset_ = data.offset;
    large_ = id == TypeId::kLargeList;
    if (large_) {
      offsets64_ = data.values<int64_t>(1);
    } else {
      offsets32_ = data.values<int32_t>(1);
    }
    if (data.children[0]->type->id() != TypeId::kNull) {
      elements_.emplace(Datum(Array(data.children[0])));
    }
  }

  /// Calls `join(text)` for each non-null string of row `i`.
  template <typename Join>
  void for_each(int64_t i, Join&& join) const {
    if (string_) {
      if (!string_->is_null(i)) {
        join(string_->value(i));
      }
      return;
    }
    const int64_t row = scalar_ ? 0 : i;
    if ((validity_ != nullptr && !bit_util::get_bit(validity_, offset_ + row)) || !elements_) {
      return;
    }
    const int64_t begin = large_ ? offsets64_[row] : offsets32_[row];
    const int64_t end = large_ ? offsets64_[row + 1] : offsets32_[row + 1];
    for (int64_t k = begin; k < end; ++k) {
      if (!elements_->is_null(k)) {
        join(elements_->value(k));
      }
    }
  }

 private:
  std::optional<StringArg> string_;
  std::optional<StringArg> elements_;
  const uint8_t* validity_ = nullptr;
  int64_t offset_ = 0;
  const int32_t* offsets32_ = nullptr;
  const int64_t* offsets64_ = nullptr;
  bool large_ = false;
  bool scalar_ = false;
};

Datum concat_ws(std::span<const Datum> arguments, ExecContext& context) {
  if (arguments[0].type()->id() == TypeId::kNull) {
    return all_null(utf8(), arguments, context.allocator);
  }
  StringArg separator(arguments[0]);
  // Null-typed arguments are null in every row, and concat_ws skips nulls.
  std::vector<JoinPart> parts;
  for (const Datum& argument : arguments.subspan(1)) {
    if (argument.type()->id() != TypeId::kNull) {
      parts.emplace_back(argument);
    }
  }
  const int64_t length = result_length(arguments);
  StringOutput out(utf8(), length, context.allocator);
  for (int64_t i = 0; i < length; ++i) {
    if (separator.is_null(i)) {
      out.finish_null_row();
      continue;
    }
    bool first = true;
    for (const JoinPart& part : parts) {
      part.for_each(i, [&](std::string_view text) {
        if (!first) {
          out.append(separator.value(i));
        }
        out.append(text);
        first = false;
      });
    }
    out.finish_row();
  }
  return out.finish(all_scalars(arguments));
}

// --- contains, startswith, endswith ---------------------------------------------------------

/// contains over an array with a constant needle: one scan of the whole data buffer finds the
/// occurrences, and each marks the row it lies in (an occurrence across two rows marks none).
template <typename Offset>
Datum contains_constant(const Datum& haystack, std::string_view needle, ExecContext& context) {
  const ArrayData& data = *haystack.data();
  const int64_t length = data.length;
  const Offset* offsets = data.values<Offset>(1);
  const uint8_t* bytes = data.buffers[2] != nullptr ? data.buffers[2]->data() : nullptr;
  MutableBuffer bits(bit_util::bytes_for_bits(length), context.allocator);
  uint8_t* out = bits.mutable_data();
  if (needle.empty()) {
    bit_util::set_bits_to(out, 0, length, true);
  } else if (length > 0) {
    const auto needle_size = static_cast<int64_t>(needle.size());
    int64_t position = offsets[0];
    const int64_t end = offsets[length];
    int64_t row = 0;
    while (end - position >= needle_size) {
      const void* found = memmem(bytes + position, static_cast<size_t>(end - position),
                                 needle.data(), needle.size());
      if (found == nullptr) {
        break;
      }
      const int64_t at = static_cast<const uint8_t*>(found) - bytes;
      while (offsets[row + 1] <= at) {
        ++row;
      }
      if (at + needle_size <= offsets[row + 1]) {
        bit_util::set_bit(out, row);
        position = offsets[row + 1];
      } else {
        position = at + 1;
      }
    }
  }
  Array array = make_fixed_width_array(boolean(), length, copy_validity(data, context.allocator),
                                       data.null_count(), bits.finish());
  return haystack.is_scalar() ? Datum::scalar(std::move(array)) : Datum(std::move(array));
}

Datum contains(std::span<const Datum> arguments, ExecContext& context) {
  if (arguments[1].is_scalar() && !arguments[1].scalar_is_null() && arguments[0].is_array()) {
    const std::string_view needle = StringArg(arguments[1]).value(0);
    const TypeId id = arguments[0].type()->id();
    return id == TypeId::kLargeString || id == TypeId::kLargeBinary
               ? contains_constant<int64_t>(arguments[0], needle, context)
               : contains_constant<int32_t>(arguments[0], needle, context);
  }
  StringArg text(arguments[0]);
  StringArg needle(arguments[1]);
  return map_to_boolean(arguments, context, [&](int64_t i) {
    return text.value(i).find(needle.value(i)) != std::string_view::npos;
  });
}

/// startswith (kPrefix) or endswith over an array with a constant affix.
template <typename Offset, bool kPrefix>
Datum affix_constant(const Datum& haystack, std::string_view affix, ExecContext& context) {
  const ArrayData& data = *haystack.data();
  const int64_t length = data.length;
  const Offset* offsets = data.values<Offset>(1);
  const uint8_t* bytes = data.buffers[2] != nullptr ? data.buffers[2]->data() : nullptr;
  const auto affix_size = static_cast<int64_t>(affix.size());
  MutableBuffer bits(bit_util::bytes_for_bits(length), context.allocator);
  uint8_t* out = bits.mutable_data();
  // Eight rows make one output byte.
  for (int64_t i = 0; i < length; i += 8) {
    const int64_t block_end = std::min<int64_t>(i + 8, length);
    unsigned byte = 0;
    for (int64_t row = i; row < block_end; ++row) {
      const int64_t size = offsets[row + 1] - offsets[row];
      const uint8_t* start = bytes + (kPrefix ? offsets[row] : offsets[row + 1] - affix_size);
      const bool match = size >= affix_size && std::memcmp(start, affix.data(), affix.size()) == 0;
      byte |= static_cast<unsigned>(match) << (row - i);
    }
    out[i >> 3] = static_cast<uint8_t>(byte);
  }
  Array array = make_fixed_width_array(boolean(), length, copy_validity(data, context.allocator),
                                       data.null_count(), bits.finish());
  return haystack.is_scalar() ? Datum::scalar(std::move(array)) : Datum(std::move(array));
}

template <bool kPrefix>
Datum affix(std::span<const Datum> arguments, ExecContext& context) {
  if (arguments[1].is_scalar() && !arguments[1].scalar_is_null() && arguments[0].is_array()) {
    const std::string_view constant = StringArg(arguments[1]).value(0);
    const TypeId id = arguments[0].type()->id();
    return id == TypeId::kLargeString || id == TypeId::kLargeBinary
               ? affix_constant<int64_t, kPrefix>(arguments[0], constant, context)
               : affix_constant<int32_t, kPrefix>(arguments[0], constant, context);
  }
  StringArg text(arguments[0]);
  StringArg other(arguments[1]);
  return map_to_boolean(arguments, context, [&](int64_t i) {
    return kPrefix ? text.value(i).starts_with(other.value(i))
                   : text.value(i).ends_with(other.value(i));
  });
}

// --- replace, translate -----------------------------------------------------------------------

Datum replace(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  StringArg search(arguments[1]);
  const bool has_replacement = arguments.size() > 2;
  StringArg replacement(arguments[has_replacement ? 2 : 1]);
  return map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const std::string_view value = text.value(i);
    const std::string_view pattern = search.value(i);
    if (pattern.empty()) {
      out.append(value);
      return true;
    }
    const std::string_view with = has_replacement ? replacement.value(i) : std::string_view();
    size_t from = 0;
    for (size_t at = value.find(pattern); at != std::string_view::npos;
         at = value.find(pattern, from)) {
      out.append(value.substr(from, at - from));
      out.append(with);
      from = at + pattern.size();
    }
    out.append(value.substr(from));
    return true;
  });
}

std::vector<char32_t> code_points(std::string_view text) {
  std::vector<char32_t> result;
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const uint8_t* end = p + text.size();
  while (p < end) {
    result.push_back(decode(&p, end));
  }
  return result;
}

void append_code_point(char32_t cp, StringOutput& out) {
  uint8_t bytes[4];
  const int size = encode(cp, bytes);
  out.append({reinterpret_cast<const char*>(bytes), static_cast<size_t>(size)});
}

Datum translate(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  StringArg matching(arguments[1]);
  StringArg replacing(arguments[2]);
  // A character of `matching` maps to the one at its position in `replacing` (the first
  // occurrence decides), or to nothing when `replacing` is shorter.
  constexpr char32_t kDelete = 0xFFFFFFFF;
  std::vector<std::pair<char32_t, char32_t>> mapping;
  const bool constant = arguments[1].is_scalar() && arguments[2].is_scalar();
  bool built = false;
  return map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    if (!constant || !built) {
      built = true;
      mapping.clear();
      const std::vector<char32_t> from = code_points(matching.value(i));
      const std::vector<char32_t> to = code_points(replacing.value(i));
      for (size_t k = 0; k < from.size(); ++k) {
        const bool seen = std::any_of(mapping.begin(), mapping.end(),
                                      [&](const auto& entry) { return entry.first == from[k]; });
        if (!seen) {
          mapping.emplace_back(from[k], k < to.size() ? to[k] : kDelete);
        }
      }
    }
    const std::string_view value = text.value(i);
    const auto* p = reinterpret_cast<const uint8_t*>(value.data());
    const uint8_t* end = p + value.size();
    while (p < end) {
      const char32_t cp = decode(&p, end);
      char32_t mapped = cp;
      for (const auto& [from, to] : mapping) {
        if (from == cp) {
          mapped = to;
          break;
        }
      }
      if (mapped != kDelete) {
        append_code_point(mapped, out);
      }
    }
    return true;
  });
}

// --- lpad, rpad, repeat -----------------------------------------------------------------------

/// The characters of a string, or the bytes of a binary value, for the functions that count
/// either.
struct Units {
  bool characters;
  int64_t count(std::string_view text) const {
    return characters ? count_chars(reinterpret_cast<const uint8_t*>(text.data()),
                                    static_cast<int64_t>(text.size()))
                      : static_cast<int64_t>(text.size());
  }
  /// The first `n` units of `text`.
  std::string_view prefix(std::string_view text, int64_t n) const {
    const int64_t bytes =
        characters ? char_offset(text, n) : std::min<int64_t>(n, static_cast<int64_t>(text.size()));
    return text.substr(0, static_cast<size_t>(bytes));
  }
};

/// lpad and rpad: of strings by characters, of binary values by bytes (padded with a zero
/// byte by default).
template <bool kLeft>
Datum pad(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  IntArg length(arguments[1]);
  const bool has_pad = arguments.size() > 2;
  StringArg padding(arguments[has_pad ? 2 : 0]);
  const TypePtr type = arguments[0].type();
  const Units units{is_string_like(type->id())};
  const std::string_view default_pad =
      units.characters ? std::string_view(" ") : std::string_view("\0", 1);
  return map_to_string(
      arguments, units.characters ? utf8() : binary(), context, [&](int64_t i, StringOutput& out) {
        const std::string_view value = text.value(i);
        const std::string_view with = has_pad ? padding.value(i) : default_pad;
        const int64_t target = length.value(i);
        const int64_t missing = target - units.count(value);
        if (missing <= 0 || with.empty()) {
          // Spark truncates to `target` units (nothing when it is not positive).
          if (target > 0) {
            out.append(units.prefix(value, target));
          }
          return true;
        }
        const int64_t pad_units = units.count(with);
        const int64_t whole = missing / pad_units;
        const std::string_view rest = units.prefix(with, missing % pad_units);
        const int64_t size = static_cast<int64_t>(value.size()) +
                             whole * static_cast<int64_t>(with.size()) +
                             static_cast<int64_t>(rest.size());
        if (size > kIntMax) {
          // Spark sizes the result with Math.toIntExact, which fails on this row only.
          throw ArithmeticError("ARITHMETIC_OVERFLOW",
                                std::string("integer overflow in '") + (kLeft ? "lpad" : "rpad") +
                                    "': padding to " + std::to_string(target) +
                                    " characters makes a result of " + std::to_string(size) +
                                    " bytes, more than " + std::to_string(kIntMax) + ".");
        }
        out.check_room(size);
        if (!kLeft) {
          out.append(value);
        }
        for (int64_t k = 0; k < whole; ++k) {
          out.append(with);
        }
        out.append(rest);
        if (kLeft) {
          out.append(value);
        }
        return true;
      });
}

Datum repeat_string(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  IntArg times(arguments[1]);
  return map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const std::string_view value = text.value(i);
    const int64_t n = times.value(i);
    if (value.empty() || n <= 0) {
      return true;
    }
    // Compared by division: the product of a BIGINT count and the size can pass 64 bits.
    // Spark sizes the result with Math.multiplyExact, which fails on this row only.
    if (n > kIntMax / static_cast<int64_t>(value.size())) {
      throw ArithmeticError("ARITHMETIC_OVERFLOW", "integer overflow in 'repeat': a string of " +
                                                       std::to_string(value.size()) +
                                                       " bytes repeated " + std::to_string(n) +
                                                       " times passes " + std::to_string(kIntMax) +
                                                       " bytes.");
    }
    out.check_room(n * static_cast<int64_t>(value.size()));
    for (int64_t k = 0; k < n; ++k) {
      out.append(value);
    }
    return true;
  });
}

// --- instr, locate, ascii ---------------------------------------------------------------------

/// 1-based character position of `needle` in `text` at or after character `from` (0-based), or 0.
int32_t find_position(std::string_view text, std::string_view needle, int64_t from) {
  // Spark compares at the start of each character only (as it walks them, see
  // `sequence_length`), which matters in malformed text alone.
  size_t position = static_cast<size_t>(char_offset(text, from));
  int64_t chars = from;
  size_t at = text.find(needle, position);
  while (at != std::string_view::npos) {
    while (position < at) {
      position += static_cast<size_t>(sequence_length(static_cast<uint8_t>(text[position])));
      ++chars;
    }
    if (position == at) {
      return static_cast<int32_t>(chars + 1);
    }
    at = text.find(needle, position);
  }
  return 0;
}

Datum instr(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  StringArg needle(arguments[1]);
  return map_to_int32(arguments, context,
                      [&](int64_t i) { return find_position(text.value(i), needle.value(i), 0); });
}

/// locate(substr, str[, pos]): a null position gives 0 whatever the strings are, as in Spark.
Datum locate(std::span<const Datum> arguments, ExecContext& context) {
  const int64_t length = result_length(arguments);
  const bool has_position = arguments.size() > 2;
  const bool position_null_typed = has_position && arguments[2].type()->id() == TypeId::kNull;
  const bool strings_null_typed =
      arguments[0].type()->id() == TypeId::kNull || arguments[1].type()->id() == TypeId::kNull;
  std::optional<IntArg> position;
  if (has_position && !position_null_typed) {
    position.emplace(arguments[2]);
  }
  std::optional<StringArg> needle;
  std::optional<StringArg> text;
  if (!strings_null_typed) {
    needle.emplace(arguments[0]);
    text.emplace(arguments[1]);
  }
  OutputValues<int32_t> values(length, context.allocator);
  int32_t* out = values.data();
  BitmapBuilder validity(context.allocator);
  validity.reserve(length);
  for (int64_t i = 0; i < length; ++i) {
    out[i] = 0;
    if (position_null_typed || (position && position->is_null(i))) {
      validity.unsafe_append(true);
    } else if (strings_null_typed || needle->is_null(i) || text->is_null(i)) {
      validity.unsafe_append(false);
    } else {
      const int64_t from = position ? position->value(i) : 1;
      if (from >= 1) {
        out[i] = needle->value(i).empty()
                     ? 1
                     : find_position(text->value(i), needle->value(i), from - 1);
      }
      validity.unsafe_append(true);
    }
  }
  const int64_t null_count = validity.false_count();
  std::shared_ptr<Buffer> bitmap = validity.finish();
  Array array = make_fixed_width_array(int32(), length, null_count > 0 ? bitmap : nullptr,
                                       null_count, values.finish());
  return all_scalars(arguments) ? Datum::scalar(std::move(array)) : Datum(std::move(array));
}

Datum ascii(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  return map_to_int32(arguments, context, [&](int64_t i) {
    const std::string_view value = text.value(i);
    if (value.empty()) {
      return 0;
    }
    const auto* p = reinterpret_cast<const uint8_t*>(value.data());
    return static_cast<int32_t>(decode(&p, p + value.size()));
  });
}

// --- reverse, initcap -------------------------------------------------------------------------

Datum reverse(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  const bool characters = is_string_like(arguments[0].type()->id());
  return map_to_string(arguments, characters ? utf8() : binary(), context,
                       [&](int64_t i, StringOutput& out) {
                         const std::string_view value = text.value(i);
                         const auto size = static_cast<int64_t>(value.size());
                         const auto* in = reinterpret_cast<const uint8_t*>(value.data());
                         uint8_t* dest = out.extend(size);
                         if (!characters) {
                           std::reverse_copy(in, in + size, dest);
                           return true;
                         }
                         // Each character's bytes keep their order; the characters swap ends.
                         int64_t k = 0;
                         while (k < size) {
                           const int64_t n = std::min<int64_t>(sequence_length(in[k]), size - k);
                           std::memcpy(dest + size - k - n, in + k, static_cast<size_t>(n));
                           k += n;
                         }
                         return true;
                       });
}

/// initcap: words are cut at spaces only, as Spark cuts them; the first character of each is
/// in title case (ǆ -> ǅ, ß -> Ss), the others in lower case, with the final sigma rule applied
/// over the whole string.
Datum initcap(std::span<const Datum> arguments, ExecContext& context) {
  StringArg text(arguments[0]);
  const CaseMap& lower = case_map(false);
  return map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const std::string_view value = text.value(i);
    const auto* begin = reinterpret_cast<const uint8_t*>(value.data());
    const uint8_t* end = begin + value.size();
    uint8_t* dest = out.extend(3 * static_cast<int64_t>(value.size()));
    uint8_t* written = dest;
    const uint8_t* p = begin;
    while (p < end) {
      if (*p == ' ') {
        *written++ = ' ';
        ++p;
        continue;
      }
      written += write_title_case(decode(&p, end), written);
      const auto* space =
          static_cast<const uint8_t*>(std::memchr(p, ' ', static_cast<size_t>(end - p)));
      const uint8_t* word_end = space != nullptr ? space : end;
      written += write_case<false>(lower, begin, p, word_end, written);
      p = word_end;
    }
    out.retract(3 * static_cast<int64_t>(value.size()) - (written - dest));
    return true;
  });
}
}  // namespace

}  // namespace strings

void register_string_functions(FunctionRegistry& registry) {
  using strings::add_function;
  using strings::Param;
  const Param kStr = Param::kString;
  const Param kAny = Param::kStringOrBinary;
  const Param kInt = Param::kInt;
  add_function(registry, "length", {"char_length", "character_length"}, {1, 1},
               "The number of characters of a string, or of bytes of a binary value.",
               {"(string) -> int", "(binary) -> int"}, {kAny}, int32(), strings::length);
  add_function(registry, "octet_length", {}, {1, 1},
               "The number of bytes of a string or binary value.",
               {"(string) -> int", "(binary) -> int"}, {kAny}, int32(), strings::octet_length);
  add_function(registry, "bit_length", {}, {1, 1},
               "The number of bits of a string or binary value.",
               {"(string) -> int", "(binary) -> int"}, {kAny}, int32(), strings::bit_length);
  add_function(registry, "upper", {"ucase"}, {1, 1}, "The string in upper case.",
               {"(string) -> string"}, {kStr}, utf8(), strings::change_case<true>);
  add_function(registry, "lower", {"lcase"}, {1, 1}, "The string in lower case.",
               {"(string) -> string"}, {kStr}, utf8(), strings::change_case<false>);
  add_function(registry, "trim", {}, {1, 2},
               "The string without leading and trailing spaces, or characters of trimStr.",
               {"(string) -> string", "(trimStr: string, str: string) -> string"}, {kStr}, utf8(),
               strings::trim<strings::TrimSide::kBoth>);
  add_function(registry, "ltrim", {}, {1, 2},
               "The string without leading spaces, or characters of trimStr.",
               {"(string) -> string", "(trimStr: string, str: string) -> string"}, {kStr}, utf8(),
               strings::trim<strings::TrimSide::kLeft>);
  add_function(registry, "rtrim", {}, {1, 2},
               "The string without trailing spaces, or characters of trimStr.",
               {"(string) -> string", "(trimStr: string, str: string) -> string"}, {kStr}, utf8(),
               strings::trim<strings::TrimSide::kRight>);
  add_function(registry, "btrim", {}, {1, 2},
               "The string without leading and trailing spaces, or characters of trimStr.",
               {"(str: string[, trimStr: string]) -> string"}, {kStr}, utf8(), strings::btrim);
  add_function(
      registry, "substring", {"substr"}, {2, 3},
      "The part of a string (bytes of a binary value) from the 1-based position pos "
      "(negative: from the end) for len characters.",
      {"(string, pos: int[, len: int]) -> string", "(binary, pos: int[, len: int]) -> binary"},
      {kAny, kInt}, nullptr, strings::substring);
  add_function(registry, "overlay", {}, {3, 4},
               "The input with replace in place of len characters (bytes of a binary value, len "
               "the length of replace by default) from the 1-based position pos.",
               {"(input: string, replace: string, pos: int[, len: int]) -> string",
                "(input: binary, replace: binary, pos: int[, len: int]) -> binary"},
               {kAny, kAny, kInt, kInt}, nullptr, strings::overlay);
  add_function(registry, "left", {}, {2, 2}, "The first len characters of a string.",
               {"(string, len: int) -> string"}, {kStr, kInt}, utf8(), strings::left);
  add_function(registry, "right", {}, {2, 2}, "The last len characters of a string.",
               {"(string, len: int) -> string"}, {kStr, kInt}, utf8(), strings::right);
  strings::add_string_or_array_function(
      registry, "concat", {0, -1}, "The arguments one after the other; null if any is null.",
      {"(string...) -> string", "(binary, binary...) -> binary",
       "(array<T>, array<T>...) -> array<T>"},
      strings::concat, collection::resolve_array_concat, collection::concat_arrays);
  add_function(
      registry, "concat_ws", {}, {1, -1},
      "The non-null strings (arrays of strings flattened) after the separator, joined by it.",
      {"(sep: string, (string | array<string>)...) -> string"}, {kStr, Param::kStringOrArray},
      utf8(), strings::concat_ws, NullHandling::kCustom);
  add_function(registry, "contains", {}, {2, 2}, "Whether the right value occurs in the left.",
               {"(string, string) -> boolean", "(binary, binary) -> boolean"}, {kAny}, boolean(),
               strings::contains);
  add_function(registry, "startswith", {}, {2, 2}, "Whether the left value starts with the right.",
               {"(string, string) -> boolean", "(binary, binary) -> boolean"}, {kAny}, boolean(),
               strings::affix<true>);
  add_function(registry, "endswith", {}, {2, 2}, "Whether the left value ends with the right.",
               {"(string, string) -> boolean", "(binary, binary) -> boolean"}, {kAny}, boolean(),
               strings::affix<false>);
  add_function(registry, "replace", {}, {2, 3},
               "The string with every occurrence of search replaced (by nothing by default).",
               {"(string, search: string[, replace: string]) -> string"}, {kStr}, utf8(),
               strings::replace);
  add_function(registry, "translate", {}, {3, 3},
               "The string with each character of matching replaced by the one at the same "
               "position in replace, or removed when replace is shorter.",
               {"(string, matching: string, replace: string) -> string"}, {kStr}, utf8(),
               strings::translate);
  add_function(registry, "lpad", {}, {2, 3},
               "The string left-padded with pad (a space by default) to len characters, or "
               "truncated to them.",
               {"(string, len: int[, pad: string]) -> string",
                "(binary, len: int[, pad: binary]) -> binary"},
               {kAny, kInt, kAny}, nullptr, strings::pad<true>);
  add_function(registry, "rpad", {}, {2, 3},
               "The string right-padded with pad (a space by default) to len characters, or "
               "truncated to them.",
               {"(string, len: int[, pad: string]) -> string",
                "(binary, len: int[, pad: binary]) -> binary"},
               {kAny, kInt, kAny}, nullptr, strings::pad<false>);
  add_function(registry, "repeat", {}, {2, 2}, "The string repeated n times.",
               {"(string, n: int) -> string"}, {kStr, kInt}, utf8(), strings::repeat_string);
  add_function(registry, "instr", {}, {2, 2},
               "The 1-based character position of the first occurrence of substr, or 0.",
               {"(string, substr: string) -> int"}, {kStr}, int32(), strings::instr);
  add_function(registry, "locate", {"position"}, {2, 3},
               "The 1-based character position of the first occurrence of substr at or after "
               "pos, or 0.",
               {"(substr: string, string[, pos: int]) -> int"}, {kStr, kStr, kInt}, int32(),
               strings::locate, NullHandling::kCustom);
  add_function(registry, "ascii", {}, {1, 1},
               "The code point of the first character of the string, 0 for an empty one.",
               {"(string) -> int"}, {kStr}, int32(), strings::ascii);
  strings::add_string_or_array_function(
      registry, "reverse", {1, 1},
      "The characters of the string, or the elements of the array, in reverse order.",
      {"(string) -> string", "(binary) -> binary", "(array<T>) -> array<T>"}, strings::reverse,
      [](const std::string& name, std::span<const TypePtr> arguments) -> std::optional<Resolution> {
        if (arguments[0]->id() != TypeId::kList) {
          return std::nullopt;
        }
        (void)name;
        return Resolution{arguments[0], {arguments[0]}};
      },
      collection::reverse_array);
  add_function(registry, "initcap", {}, {1, 1},
               "The string with the first letter of each space-separated word in upper case and "
               "the others in lower case.",
               {"(string) -> string"}, {kStr}, utf8(), strings::initcap);
  register_regex_functions(registry);
  register_string_encoding_functions(registry);
  register_string_misc_functions(registry);
}

}  // namespace bowstring::compute
