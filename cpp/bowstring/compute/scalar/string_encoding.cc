// Encodings of bytes as text and back (base64, unbase64, hex, unhex) and UTF-8 validation
// (is_valid_utf8, make_valid_utf8, validate_utf8, try_validate_utf8), as Spark computes them.

#include <array>
#include <cstring>
#include <string>

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

Datum unbase64(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return strings::map_to_string(
      arguments, bowstring::binary(), context, [&](int64_t i, StringOutput& out) {
        const std::string_view text = value.value(i);
        const auto* in = reinterpret_cast<const uint8_t*>(text.data());
        const size_t size = text.size();
        uint8_t* o = out.extend(static_cast<int64_t>(size / 4 * 3 + 3));
        uint8_t* const start = o;
        // As Java's MIME decoder: bytes outside the alphabet are skipped; '=' ends the digits
        // and must complete a unit of four; only skipped bytes may follow.
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
            throw_base64_error("Input byte array has incorrect ending byte at " +
                               std::to_string(k + 1));
          }
        }
        out.retract(static_cast<int64_t>(size / 4 * 3 + 3) - (o - start));
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

Datum unhex(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return strings::map_to_string(arguments, bowstring::binary(), context,
                                [&](int64_t i, StringOutput& out) {
                                  const std::string_view text = value.value(i);
                                  const auto* in = reinterpret_cast<const uint8_t*>(text.data());
                                  const size_t size = text.size();
                                  const int64_t decoded = static_cast<int64_t>((size + 1) / 2);
                                  uint8_t* o = out.extend(decoded);
                                  size_t k = 0;
                                  // An odd number of digits: the first stands alone, as if a 0 came
                                  // before it.
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
                                });
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
