// Encodings of bytes as text and back (base64, unbase64, hex, unhex), of text in charsets
// (encode, decode), to_binary and UTF-8 validation
// (is_valid_utf8, make_valid_utf8, validate_utf8, try_validate_utf8), as Spark computes them.

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "bowstring/compute/core/coercion.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/lambda_function.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/compute/scalar/string_function.h"
#include "bowstring/compute/scalar/string_util.h"

namespace bowstring::compute {

namespace {

using strings::IntArg;
using strings::StringArg;
using strings::StringOutput;

// --- base64 ---------------------------------------------------------------------------------

constexpr char kBase64Digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Java's base64 alphabet by byte: the digit's value, kPad for '=', kSkip for the rest.
constexpr int8_t kPad = -2;
constexpr int8_t kSkip = -1;
constexpr std::array<int8_t, 256> base64_values() {
  std::array<int8_t, 256> values{};
  for (auto& value : values) {
    value = kSkip;
  }
  for (int i = 0; i < 64; ++i) {
    values[static_cast<uint8_t>(kBase64Digits[i])] = static_cast<int8_t>(i);
  }
  values['='] = kPad;
  return values;
}
constexpr std::array<int8_t, 256> kBase64Values = base64_values();

Datum base64(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const std::string_view bytes = value.value(i);
    const auto* in = reinterpret_cast<const uint8_t*>(bytes.data());
    const size_t size = bytes.size();
    const int64_t encoded = static_cast<int64_t>((size + 2) / 3 * 4);
    out.check_room(encoded);
    uint8_t* o = out.extend(encoded);
    size_t k = 0;
    for (; k + 3 <= size; k += 3) {
      const uint32_t bits = (uint32_t{in[k]} << 16) | (uint32_t{in[k + 1]} << 8) | in[k + 2];
      *o++ = static_cast<uint8_t>(kBase64Digits[bits >> 18]);
      *o++ = static_cast<uint8_t>(kBase64Digits[(bits >> 12) & 0x3F]);
      *o++ = static_cast<uint8_t>(kBase64Digits[(bits >> 6) & 0x3F]);
      *o++ = static_cast<uint8_t>(kBase64Digits[bits & 0x3F]);
    }
    if (k < size) {
      const bool two = k + 1 < size;
      const uint32_t bits = (uint32_t{in[k]} << 16) | (two ? uint32_t{in[k + 1]} << 8 : 0);
      *o++ = static_cast<uint8_t>(kBase64Digits[bits >> 18]);
      *o++ = static_cast<uint8_t>(kBase64Digits[(bits >> 12) & 0x3F]);
      *o++ = two ? static_cast<uint8_t>(kBase64Digits[(bits >> 6) & 0x3F]) : '=';
      *o++ = '=';
    }
    return true;
  });
}

/// Spark decodes with Java's MIME decoder, whose malformed input raises Java's
/// IllegalArgumentException, an error without a Spark condition: its class stands for one.
[[noreturn]] void throw_base64_error(const std::string& message) {
  throw IllegalArgumentError("java.lang.IllegalArgumentException", message);
}

/// Appends the bytes of base64 `text` as Java's MIME decoder reads them: bytes outside the
/// alphabet are skipped; '=' ends the digits and must complete a unit of four; only skipped
/// bytes may follow.
void append_unbase64(std::string_view text, StringOutput& out) {
  const auto* in = reinterpret_cast<const uint8_t*>(text.data());
  const size_t size = text.size();
  uint8_t* o = out.extend(static_cast<int64_t>(size / 4 * 3 + 3));
  uint8_t* const start = o;
  uint32_t bits = 0;
  int shift = 18;
  size_t k = 0;
  while (k < size) {
    const int8_t digit = kBase64Values[in[k++]];
    if (digit == kSkip) {
      continue;
    }
    if (digit == kPad) {
      if (shift == 18 || (shift == 6 && (k == size || in[k++] != '='))) {
        throw_base64_error("Input byte array has wrong 4-byte ending unit");
      }
      break;
    }
    bits |= static_cast<uint32_t>(digit) << shift;
    shift -= 6;
    if (shift < 0) {
      *o++ = static_cast<uint8_t>(bits >> 16);
      *o++ = static_cast<uint8_t>(bits >> 8);
      *o++ = static_cast<uint8_t>(bits);
      shift = 18;
      bits = 0;
    }
  }
  if (shift == 6) {
    *o++ = static_cast<uint8_t>(bits >> 16);
  } else if (shift == 0) {
    *o++ = static_cast<uint8_t>(bits >> 16);
    *o++ = static_cast<uint8_t>(bits >> 8);
  } else if (shift == 12) {
    throw_base64_error("Last unit does not have enough valid bits");
  }
  for (; k < size; ++k) {
    if (kBase64Values[in[k]] != kSkip) {
      throw_base64_error("Input byte array has incorrect ending byte at " + std::to_string(k + 1));
    }
  }
  out.retract(static_cast<int64_t>(size / 4 * 3 + 3) - (o - start));
}

Datum unbase64(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return strings::map_to_string(arguments, bowstring::binary(), context,
                                [&](int64_t i, StringOutput& out) {
                                  append_unbase64(value.value(i), out);
                                  return true;
                                });
}

// --- hex ------------------------------------------------------------------------------------

constexpr char kHexDigits[] = "0123456789ABCDEF";

Datum hex_bytes(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const std::string_view bytes = value.value(i);
    const int64_t size = static_cast<int64_t>(bytes.size());
    out.check_room(2 * size);
    uint8_t* o = out.extend(2 * size);
    for (const char c : bytes) {
      const auto byte = static_cast<uint8_t>(c);
      *o++ = static_cast<uint8_t>(kHexDigits[byte >> 4]);
      *o++ = static_cast<uint8_t>(kHexDigits[byte & 0x0F]);
    }
    return true;
  });
}

/// Java's Long.toHexString in upper case: the two's complement without leading zeros.
Datum hex_integer(std::span<const Datum> arguments, ExecContext& context) {
  IntArg value(arguments[0]);
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    auto bits = static_cast<uint64_t>(value.value(i));
    uint8_t digits[16];
    int count = 0;
    do {
      digits[15 - count++] = static_cast<uint8_t>(kHexDigits[bits & 0x0F]);
      bits >>= 4;
    } while (bits != 0);
    std::memcpy(out.extend(count), digits + 16 - count, static_cast<size_t>(count));
    return true;
  });
}

Datum hex(std::span<const Datum> arguments, const TypePtr&, ExecContext& context) {
  const TypeId id = arguments[0].type()->id();
  if (id == TypeId::kString || id == TypeId::kLargeString || id == TypeId::kBinary ||
      id == TypeId::kLargeBinary) {
    return hex_bytes(arguments, context);
  }
  return hex_integer(arguments, context);
}

Resolution resolve_hex(const std::string& name, std::span<const TypePtr> arguments) {
  const TypePtr& type = arguments[0];
  const SparkType spark = spark_type_of(*type);
  TypePtr resolved;
  if (spark == SparkType::kString || spark == SparkType::kBinary || spark == SparkType::kNull) {
    resolved = type;
  } else if (is_integral(spark) || spark == SparkType::kDecimal || spark == SparkType::kFloat ||
             spark == SparkType::kDouble) {
    // Spark casts numbers to BIGINT implicitly (hex(1.5) is hex(1)).
    resolved = int64();
  } else {
    throw AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                        "Cannot resolve \"" + name +
                            "\" due to data type mismatch: the first parameter requires the "
                            "(\"BIGINT\" or \"BINARY\" or \"STRING\") type, however it has the "
                            "type " +
                            spark_type_name(*type) + ".");
  }
  return {utf8(), {resolved}};
}

/// The value of a hex digit, or -1.
int hex_value(uint8_t c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  const uint8_t lower = c | 0x20;
  if (lower >= 'a' && lower <= 'f') {
    return lower - 'a' + 10;
  }
  return -1;
}

/// Appends the bytes hex `text` encodes (an odd count read with a leading 0); false, with
/// nothing appended, when a character is not a hex digit.
bool append_unhex(std::string_view text, StringOutput& out) {
  const auto* in = reinterpret_cast<const uint8_t*>(text.data());
  const size_t size = text.size();
  const int64_t decoded = static_cast<int64_t>((size + 1) / 2);
  uint8_t* o = out.extend(decoded);
  size_t k = 0;
  if (size % 2 == 1) {
    const int digit = hex_value(in[0]);
    if (digit < 0) {
      out.retract(decoded);
      return false;
    }
    *o++ = static_cast<uint8_t>(digit);
    k = 1;
  }
  for (; k < size; k += 2) {
    const int high = hex_value(in[k]);
    const int low = hex_value(in[k + 1]);
    if (high < 0 || low < 0) {
      out.retract(decoded);
      return false;
    }
    *o++ = static_cast<uint8_t>((high << 4) | low);
  }
  return true;
}

Datum unhex(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return strings::map_to_string(
      arguments, bowstring::binary(), context,
      [&](int64_t i, StringOutput& out) { return append_unhex(value.value(i), out); });
}

// --- UTF-8 validation -----------------------------------------------------------------------

bool valid_utf8(std::string_view text) {
  return strings::is_valid_utf8(reinterpret_cast<const uint8_t*>(text.data()),
                                static_cast<int64_t>(text.size()));
}

Datum is_valid_utf8(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return strings::map_to_boolean(arguments, context,
                                 [&](int64_t i) { return valid_utf8(value.value(i)); });
}

Datum make_valid_utf8(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  std::string repaired;
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const std::string_view text = value.value(i);
    if (valid_utf8(text)) {
      out.append(text);
    } else {
      repaired.clear();
      strings::append_replacing_malformed(text, repaired);
      out.append(repaired);
    }
    return true;
  });
}

[[noreturn]] void throw_invalid_utf8(std::string_view text) {
  std::string bytes;
  for (const char c : text) {
    const auto byte = static_cast<uint8_t>(c);
    bytes += "\\x";
    bytes += kHexDigits[byte >> 4];
    bytes += kHexDigits[byte & 0x0F];
  }
  throw IllegalArgumentError("INVALID_UTF8_STRING",
                             "Invalid UTF8 byte sequence found in string: " + bytes + ".");
}

template <bool kTry>
Datum validate_utf8(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const std::string_view text = value.value(i);
    if (!valid_utf8(text)) {
      if constexpr (kTry) {
        return false;
      } else {
        throw_invalid_utf8(text);
      }
    }
    out.append(text);
    return true;
  });
}

// --- encode, decode -------------------------------------------------------------------------

/// The charsets Spark 4 accepts (without spark.sql.legacy.javaCharsets).
enum class Charset : uint8_t { kUsAscii, kLatin1, kUtf8, kUtf16Be, kUtf16Le, kUtf16, kUtf32 };

Charset parse_charset(std::string_view name, const char* function) {
  static constexpr std::pair<std::string_view, Charset> kCharsets[] = {
      {"US-ASCII", Charset::kUsAscii}, {"ISO-8859-1", Charset::kLatin1},
      {"UTF-8", Charset::kUtf8},       {"UTF-16BE", Charset::kUtf16Be},
      {"UTF-16LE", Charset::kUtf16Le}, {"UTF-16", Charset::kUtf16},
      {"UTF-32", Charset::kUtf32}};
  for (const auto& [known, charset] : kCharsets) {
    if (known.size() == name.size() &&
        std::equal(known.begin(), known.end(), name.begin(), [](char a, char b) {
          return a == (b >= 'a' && b <= 'z' ? static_cast<char>(b - 32) : b);
        })) {
      return charset;
    }
  }
  throw IllegalArgumentError(
      "INVALID_PARAMETER_VALUE.CHARSET",
      std::string("The value of parameter(s) `charset` in `") + function +
          "` is invalid: expects one of the US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, "
          "UTF-16, UTF-32, but got " +
          std::string(name) + ".");
}

[[noreturn]] void throw_malformed_coding(const char* function, Charset charset) {
  static constexpr const char* kNames[] = {"US-ASCII", "ISO-8859-1", "UTF-8", "UTF-16BE",
                                           "UTF-16LE", "UTF-16",     "UTF-32"};
  throw SparkRuntimeError("MALFORMED_CHARACTER_CODING",
                          std::string("Invalid value found when performing `") + function +
                              "` with `" + kNames[static_cast<int>(charset)] + "`");
}

void put_unit(uint32_t unit, int bytes, bool big_endian, uint8_t* out) {
  for (int k = 0; k < bytes; ++k) {
    const int shift = big_endian ? 8 * (bytes - 1 - k) : 8 * k;
    out[k] = static_cast<uint8_t>(unit >> shift);
  }
}

/// Appends `text` (its malformed UTF-8 read as U+FFFD, as a Java string holds it) encoded in
/// `charset`; characters the charset cannot hold are an error, as Spark reports them.
void encode_text(std::string_view text, Charset charset, StringOutput& out) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const uint8_t* end = p + text.size();
  if (charset == Charset::kUtf8) {
    if (valid_utf8(text)) {
      out.append(text);
      return;
    }
  } else if (charset == Charset::kUtf16 && p < end) {
    put_unit(0xFEFF, 2, true, out.extend(2));
  }
  while (p < end) {
    const char32_t cp = strings::decode(&p, end);
    switch (charset) {
      case Charset::kUsAscii:
      case Charset::kLatin1:
        if (cp >= (charset == Charset::kUsAscii ? 0x80U : 0x100U)) {
          throw_malformed_coding("encode", charset);
        }
        *out.extend(1) = static_cast<uint8_t>(cp);
        break;
      case Charset::kUtf8: {
        uint8_t* at = out.extend(4);
        out.retract(4 - strings::encode(cp, at));
        break;
      }
      case Charset::kUtf16Be:
      case Charset::kUtf16Le:
      case Charset::kUtf16: {
        const bool big_endian = charset != Charset::kUtf16Le;
        if (cp < 0x10000) {
          put_unit(cp, 2, big_endian, out.extend(2));
        } else {
          uint8_t* at = out.extend(4);
          put_unit(0xD800 + ((cp - 0x10000) >> 10), 2, big_endian, at);
          put_unit(0xDC00 + ((cp - 0x10000) & 0x3FF), 2, big_endian, at + 2);
        }
        break;
      }
      case Charset::kUtf32:
        put_unit(cp, 4, true, out.extend(4));
        break;
    }
  }
}

bool is_surrogate(uint32_t unit) { return unit >= 0xD800 && unit <= 0xDFFF; }

uint32_t get_unit(const uint8_t* in, int bytes, bool big_endian) {
  uint32_t unit = 0;
  for (int k = 0; k < bytes; ++k) {
    unit |= uint32_t{in[k]} << (big_endian ? 8 * (bytes - 1 - k) : 8 * k);
  }
  return unit;
}

/// Appends `bytes` decoded from `charset` as UTF-8; malformed input is an error, as Spark
/// reports it. UTF-16 and UTF-32 read a byte order mark (big-endian without one).
void decode_bytes(std::string_view bytes, Charset charset, StringOutput& out) {
  const auto* in = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t size = bytes.size();
  switch (charset) {
    case Charset::kUtf8:
      if (!valid_utf8(bytes)) {
        throw_malformed_coding("decode", charset);
      }
      out.append(bytes);
      return;
    case Charset::kUsAscii:
    case Charset::kLatin1:
      for (size_t k = 0; k < size; ++k) {
        if (charset == Charset::kUsAscii && in[k] >= 0x80) {
          throw_malformed_coding("decode", charset);
        }
        uint8_t* at = out.extend(2);
        out.retract(2 - strings::encode(in[k], at));
      }
      return;
    default:
      break;
  }
  const int width = charset == Charset::kUtf32 ? 4 : 2;
  bool big_endian = charset != Charset::kUtf16Le;
  if ((charset == Charset::kUtf16 || charset == Charset::kUtf32) &&
      size >= static_cast<size_t>(width)) {
    if (get_unit(in, width, true) == 0xFEFF) {
      in += width;
      size -= static_cast<size_t>(width);
    } else if (get_unit(in, width, false) == 0xFEFF) {
      big_endian = false;
      in += width;
      size -= static_cast<size_t>(width);
    }
  }
  if (size % static_cast<size_t>(width) != 0) {
    throw_malformed_coding("decode", charset);
  }
  for (size_t k = 0; k < size; k += static_cast<size_t>(width)) {
    uint32_t cp = get_unit(in + k, width, big_endian);
    if (width == 2 && cp >= 0xD800 && cp < 0xDC00) {
      const uint32_t low = k + 4 <= size ? get_unit(in + k + 2, 2, big_endian) : 0;
      if (low < 0xDC00 || low > 0xDFFF) {
        throw_malformed_coding("decode", charset);
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      k += 2;
    } else if (is_surrogate(cp) || cp > 0x10FFFF) {
      throw_malformed_coding("decode", charset);
    }
    uint8_t* at = out.extend(4);
    out.retract(4 - strings::encode(cp, at));
  }
}

template <bool kEncode>
Datum code_with_charset(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  StringArg charset_name(arguments[1]);
  const TypePtr type = kEncode ? bowstring::binary() : utf8();
  return strings::map_to_string(arguments, type, context, [&](int64_t i, StringOutput& out) {
    const Charset charset = parse_charset(charset_name.value(i), kEncode ? "encode" : "decode");
    if constexpr (kEncode) {
      encode_text(value.value(i), charset, out);
    } else {
      decode_bytes(value.value(i), charset, out);
    }
    return true;
  });
}

// --- to_binary ------------------------------------------------------------------------------

enum class BinaryFormat : uint8_t { kHex, kUtf8, kBase64, kUnknown };

BinaryFormat parse_binary_format(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) {
    c = c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
  }
  if (lower == "hex") {
    return BinaryFormat::kHex;
  }
  if (lower == "utf-8" || lower == "utf8") {
    return BinaryFormat::kUtf8;
  }
  return lower == "base64" ? BinaryFormat::kBase64 : BinaryFormat::kUnknown;
}

/// Java's Character.isWhitespace.
bool is_java_whitespace(char32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x2006) || (cp >= 0x2008 && cp <= 0x200A) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x205F || cp == 0x3000;
}

/// Whether every character is a base64 digit, '=' or white space (what to_binary lets through
/// to the decoder).
bool only_base64_characters(std::string_view text) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const uint8_t* end = p + text.size();
  while (p < end) {
    const char32_t cp = strings::decode(&p, end);
    if (!(cp < 0x80 && kBase64Values[cp] != kSkip) && !is_java_whitespace(cp)) {
      return false;
    }
  }
  return true;
}

/// to_binary(str[, fmt]) and try_to_binary: str read as hex digits (the default), UTF-8 or
/// base64; malformed input is CONVERSION_INVALID_INPUT, or null for try_to_binary.
template <bool kTry>
Datum to_binary(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  std::optional<StringArg> format;
  if (arguments.size() == 2) {
    format.emplace(arguments[1]);
  }
  const char* const name = kTry ? "try_to_binary" : "to_binary";
  return strings::map_to_string(
      arguments, bowstring::binary(), context, [&](int64_t i, StringOutput& out) {
        const std::string_view text = value.value(i);
        const std::string_view format_name = format.has_value() ? format->value(i) : "hex";
        const BinaryFormat kind = parse_binary_format(format_name);
        if (kind == BinaryFormat::kUnknown) {
          if constexpr (kTry) {
            return false;
          }
          throw AnalysisError("DATATYPE_MISMATCH.INVALID_ARG_VALUE",
                              std::string("Cannot resolve \"") + name +
                                  "\" due to data type mismatch: The fmt value must to be a "
                                  "case-insensitive \"STRING\" literal of 'hex', 'utf-8', "
                                  "'utf8', or 'base64', but got " +
                                  strings::quote(format_name) + ".");
        }
        bool valid = true;
        if (kind == BinaryFormat::kUtf8) {
          encode_text(text, Charset::kUtf8, out);
        } else if (kind == BinaryFormat::kHex) {
          valid = append_unhex(text, out);
        } else if (!only_base64_characters(text)) {
          valid = false;
        } else {
          try {
            append_unbase64(text, out);
          } catch (const IllegalArgumentError&) {
            valid = false;
          }
        }
        if (valid) {
          return true;
        }
        if constexpr (kTry) {
          return false;
        }
        std::string upper(kind == BinaryFormat::kHex ? "HEX" : "BASE64");
        throw NumberFormatError(
            "CONVERSION_INVALID_INPUT",
            "The value " + strings::quote(text) + " ('" + upper +
                "') cannot be converted to \"BINARY\" because it is malformed. Correct the value "
                "as per the syntax, or change its format. Use `try_to_binary` to tolerate "
                "malformed input and return NULL instead.");
      });
}

}  // namespace

void register_string_encoding_functions(FunctionRegistry& registry) {
  using strings::add_function;
  using strings::Param;
  const Param kBin = Param::kBinary;
  const Param kStr = Param::kString;
  // The UTF-8 functions take a STRING; a BINARY argument is read as it is (its bytes are what
  // they look at, and Spark's implicit cast keeps them).
  const Param kAny = Param::kStringOrBinary;
  add_function(registry, "base64", {}, {1, 1}, "The binary value encoded in base64.",
               {"(binary) -> string"}, {kBin}, utf8(), base64);
  add_function(registry, "unbase64", {}, {1, 1},
               "The bytes a base64 string encodes (characters outside the alphabet skipped).",
               {"(string) -> binary"}, {kStr}, bowstring::binary(), unbase64);
  registry.add(std::make_shared<LambdaScalarFunction>(
      "hex", Function::Arity{1, 1}, NullHandling::kPropagates,
      "The hex digits (upper case) of the bytes of a string or binary value, or of a bigint's "
      "two's complement.",
      std::vector<std::string>{"(bigint) -> string", "(binary) -> string", "(string) -> string"},
      resolve_hex, hex));
  add_function(registry, "unhex", {}, {1, 1},
               "The bytes hex digits encode (an odd count read with a leading 0); null when a "
               "character is not a hex digit.",
               {"(string) -> binary"}, {kStr}, bowstring::binary(), unhex);
  add_function(registry, "encode", {}, {2, 2},
               "The string encoded in charset (US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, "
               "UTF-16 or UTF-32).",
               {"(string, charset: string) -> binary"}, {kStr}, bowstring::binary(),
               code_with_charset<true>);
  add_function(registry, "decode", {}, {2, 2},
               "The text that a binary value encodes in charset (US-ASCII, ISO-8859-1, UTF-8, "
               "UTF-16BE, UTF-16LE, UTF-16 or UTF-32).",
               {"(binary, charset: string) -> string"}, {kBin, kStr}, utf8(),
               code_with_charset<false>);
  add_function(registry, "to_binary", {}, {1, 2},
               "The bytes str gives read in fmt: 'hex' (the default), 'utf-8' or 'base64'; "
               "malformed input is a CONVERSION_INVALID_INPUT error.",
               {"(str: string[, fmt: string]) -> binary"}, {kStr}, bowstring::binary(),
               to_binary<false>);
  add_function(registry, "try_to_binary", {}, {1, 2},
               "to_binary, with null for malformed input or an unknown format.",
               {"(str: string[, fmt: string]) -> binary"}, {kStr}, bowstring::binary(),
               to_binary<true>);
  add_function(registry, "is_valid_utf8", {}, {1, 1}, "Whether the string is valid UTF-8.",
               {"(string) -> boolean"}, {kAny}, boolean(), is_valid_utf8);
  add_function(registry, "make_valid_utf8", {}, {1, 1},
               "The string with each maximal invalid UTF-8 sequence replaced by U+FFFD.",
               {"(string) -> string"}, {kAny}, utf8(), make_valid_utf8);
  add_function(registry, "validate_utf8", {}, {1, 1},
               "The string when it is valid UTF-8, else an INVALID_UTF8_STRING error.",
               {"(string) -> string"}, {kAny}, utf8(), validate_utf8<false>);
  add_function(registry, "try_validate_utf8", {}, {1, 1},
               "The string when it is valid UTF-8, else null.", {"(string) -> string"}, {kAny},
               utf8(), validate_utf8<true>);
}

}  // namespace bowstring::compute
