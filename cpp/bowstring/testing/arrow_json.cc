#include "bowstring/testing/arrow_json.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "bowstring/memory/buffer_builder.h"
#include "bowstring/util/error.h"

namespace bowstring::testing {

namespace {

using Json = nlohmann::json;

constexpr std::string_view kExtensionName = "ARROW:extension:name";
constexpr std::string_view kExtensionMetadata = "ARROW:extension:metadata";
/// Deeper documents are refused rather than risk the stack (validation's limit, with room for
/// the top level).
constexpr int kMaxDepth = 80;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw FormatError("integration JSON: " + where + ": " + what);
}

std::string in_quotes(std::string_view text) { return "'" + std::string(text) + "'"; }

// --- JSON access ------------------------------------------------------------------------

const Json* find(const Json& object, const char* key, const std::string& where) {
  if (!object.is_object()) {
    fail(where, "expected a JSON object, got " + std::string(object.type_name()));
  }
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

const Json& member(const Json& object, const char* key, const std::string& where) {
  const Json* value = find(object, key, where);
  if (value == nullptr) {
    fail(where, std::string("missing \"") + key + "\"");
  }
  return *value;
}

const Json& array_member(const Json& object, const char* key, const std::string& where) {
  const Json& value = member(object, key, where);
  if (!value.is_array()) {
    fail(where, std::string("\"") + key + "\" must be a list, got " + value.type_name());
  }
  return value;
}

/// The list `key` of a column, which must have `size` entries.
const Json& buffer_member(const Json& column, const char* key, int64_t size,
                          const std::string& where) {
  const Json& list = array_member(column, key, where);
  if (static_cast<int64_t>(list.size()) != size) {
    fail(where, std::string(key) + " has " + std::to_string(list.size()) + " entries, expected " +
                    std::to_string(size));
  }
  return list;
}

const std::string& string_of(const Json& value, const std::string& where) {
  if (!value.is_string()) {
    fail(where, "expected a string, got " + value.dump());
  }
  return value.get_ref<const std::string&>();
}

const std::string& string_member(const Json& object, const char* key, const std::string& where) {
  return string_of(member(object, key, where), where + " \"" + key + "\"");
}

bool bool_member(const Json& object, const char* key, bool fallback, const std::string& where) {
  const Json* value = find(object, key, where);
  if (value == nullptr) {
    return fallback;
  }
  if (!value->is_boolean()) {
    fail(where, std::string("\"") + key + "\" must be true or false, got " + value->dump());
  }
  return value->get<bool>();
}

/// An integer written as a JSON number or, as the format does for 64-bit values, a string.
template <typename T>
T integer_of(const Json& value, const std::string& where) {
  static_assert(std::is_integral_v<T>);
  if (value.is_number_unsigned()) {
    const auto number = value.get<uint64_t>();
    if (number <= static_cast<uint64_t>(std::numeric_limits<T>::max())) {
      return static_cast<T>(number);
    }
  } else if (value.is_number_integer()) {
    const auto number = value.get<int64_t>();
    if (std::is_signed_v<T>
            ? number >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
                  number <= static_cast<int64_t>(std::numeric_limits<T>::max())
            : number >= 0 && static_cast<uint64_t>(number) <=
                                 static_cast<uint64_t>(std::numeric_limits<T>::max())) {
      return static_cast<T>(number);
    }
  } else if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    T number{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error == std::errc() && end == text.data() + text.size()) {
      return number;
    }
  } else {
    fail(where, "expected an integer, got " + value.dump());
  }
  fail(where, value.dump() + " is not an integer in [" +
                  std::to_string(std::numeric_limits<T>::min()) + ", " +
                  std::to_string(std::numeric_limits<T>::max()) + "]");
}

template <typename T>
T integer_member(const Json& object, const char* key, const std::string& where) {
  return integer_of<T>(member(object, key, where), where + " \"" + key + "\"");
}

double double_of(const Json& value, const std::string& where) {
  if (!value.is_number()) {
    fail(where, "expected a number, got " + value.dump());
  }
  return value.get<double>();
}

int hex_digit(char c) {
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
}

std::string hex_decode(const std::string& hex, const std::string& where) {
  if (hex.size() % 2 != 0) {
    fail(where, "hex string of odd length " + std::to_string(hex.size()));
  }
  std::string bytes(hex.size() / 2, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    const int high = hex_digit(hex[2 * i]);
    const int low = hex_digit(hex[2 * i + 1]);
    if (high < 0 || low < 0) {
      fail(where, "not a hex string: \"" + hex + "\"");
    }
    bytes[i] = static_cast<char>(high * 16 + low);
  }
  return bytes;
}

std::string entry(const std::string& where, const char* buffer, size_t i) {
  return where + " " + buffer + "[" + std::to_string(i) + "]";
}

// --- values -----------------------------------------------------------------------------

/// The bits of the half-precision float nearest to `value` (ties to even), as IEEE 754 rounds.
uint16_t half_float_bits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const auto sign = static_cast<uint16_t>((bits >> 48) & 0x8000);
  const auto exponent = static_cast<int>((bits >> 52) & 0x7FF);
  const uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
  if (exponent == 0x7FF) {
    return static_cast<uint16_t>(sign | 0x7C00 | (mantissa != 0 ? 0x200 : 0));
  }
  // Rounds `significand` >> `shift` to nearest, ties to even.
  const auto round_shift = [](uint64_t significand, int shift) {
    const uint64_t kept = significand >> shift;
    const uint64_t rest = significand & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    return kept + (rest > half || (rest == half && (kept & 1) != 0) ? 1 : 0);
  };
  const int half_exponent = exponent - 1023 + 15;
  if (half_exponent >= 31) {
    return static_cast<uint16_t>(sign | 0x7C00);
  }
  if (half_exponent <= 0) {
    // Subnormal: the value in units of 2^-24.
    const int shift = 43 - half_exponent;
    if (exponent == 0 || shift > 54) {
      return sign;
    }
    return static_cast<uint16_t>(sign | round_shift(mantissa | (uint64_t{1} << 52), shift));
  }
  // A carry out of the mantissa moves to the next exponent, up to infinity (0x7C00).
  const uint64_t magnitude =
      (static_cast<uint64_t>(half_exponent) << 10) + round_shift(mantissa, 42);
  return static_cast<uint16_t>(sign | std::min<uint64_t>(magnitude, 0x7C00));
}

/// A decimal's unscaled value, a decimal integer string, as `width` bytes of little-endian two's
/// complement.
void decimal_bytes(const std::string& text, int width, uint8_t* out, const std::string& where) {
  constexpr int kLimbs = 4;
  uint64_t limbs[kLimbs] = {};
  size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (negative || (!text.empty() && text[0] == '+')) {
    i = 1;
  }
  if (i == text.size()) {
    fail(where, "not a decimal integer: \"" + text + "\"");
  }
  const auto too_wide = [&] {
    fail(where, "decimal value " + text + " does not fit " + std::to_string(width * 8) + " bits");
  };
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') {
      fail(where, "not a decimal integer: \"" + text + "\"");
    }
    unsigned __int128 carry = static_cast<unsigned>(text[i] - '0');
    for (uint64_t& limb : limbs) {
      const unsigned __int128 product = static_cast<unsigned __int128>(limb) * 10 + carry;
      limb = static_cast<uint64_t>(product);
      carry = product >> 64;
    }
    if (carry != 0) {
      too_wide();
    }
  }
  // The magnitude must stay below 2^(width * 8 - 1), or equal it for the most negative value.
  const int sign_bit = width * 8 - 1;
  const int sign_limb = sign_bit / 64;
  const uint64_t sign_mask = uint64_t{1} << (sign_bit % 64);
  bool higher_limbs_zero = true;
  for (int limb = sign_limb + 1; limb < kLimbs; ++limb) {
    higher_limbs_zero = higher_limbs_zero && limbs[limb] == 0;
  }
  bool lower_limbs_zero = true;
  for (int limb = 0; limb < sign_limb; ++limb) {
    lower_limbs_zero = lower_limbs_zero && limbs[limb] == 0;
  }
  const uint64_t top = limbs[sign_limb];
  const bool below = higher_limbs_zero && top < sign_mask;
  const bool most_negative = negative && higher_limbs_zero && lower_limbs_zero && top == sign_mask;
  if (!below && !most_negative) {
    too_wide();
  }
  if (negative) {
    // Two's complement over all the limbs: invert and add one.
    bool carry = true;
    for (uint64_t& limb : limbs) {
      limb = ~limb + (carry ? 1 : 0);
      carry = carry && limb == 0;
    }
  }
  // The host is little-endian, as Bowstring requires: the low bytes come first.
  std::memcpy(out, limbs, static_cast<size_t>(width));
}

TimeUnit time_unit_of(const std::string& name, const std::string& where) {
  if (name == "SECOND") {
    return TimeUnit::kSecond;
  }
  if (name == "MILLISECOND") {
    return TimeUnit::kMilli;
  }
  if (name == "MICROSECOND") {
    return TimeUnit::kMicro;
  }
  if (name == "NANOSECOND") {
    return TimeUnit::kNano;
  }
  fail(where, "unknown time unit \"" + name + "\"");
}

Metadata metadata_of(const Json* list, const std::string& where) {
  Metadata metadata;
  if (list == nullptr || list->is_null()) {
    return metadata;
  }
  if (!list->is_array()) {
    fail(where, "metadata must be a list of {\"key\", \"value\"} objects");
  }
  for (const Json& item : *list) {
    metadata.emplace_back(string_member(item, "key", where + " metadata"),
                          string_member(item, "value", where + " metadata"));
  }
  return metadata;
}

// --- schema -----------------------------------------------------------------------------

/// A field as the document describes it: the field, and for dictionary-encoded fields the
/// dictionary id. `children` describe the children of the field's type, or of the value type
/// when the field is dictionary-encoded.
struct JsonField {
  FieldPtr field;
  bool dictionary_encoded = false;
  int64_t dictionary_id = 0;
  std::vector<JsonField> children;
};

TypePtr integer_type(const Json& type, const std::string& where) {
  const bool is_signed = bool_member(type, "isSigned", true, where);
  switch (integer_member<int>(type, "bitWidth", where)) {
    case 8:
      return is_signed ? int8() : uint8();
    case 16:
      return is_signed ? int16() : uint16();
    case 32:
      return is_signed ? int32() : uint32();
    case 64:
      return is_signed ? int64() : uint64();
    default:
      fail(where, "integer bit width must be 8, 16, 32 or 64, got " +
                      member(type, "bitWidth", where).dump());
  }
}

/// The type `type` names, with `children` as its child fields.
TypePtr make_type(const Json& type, const std::vector<JsonField>& children,
                  const std::string& where) {
  const std::string& name = string_member(type, "name", where + " type");
  FieldVector fields;
  for (const JsonField& child : children) {
    fields.push_back(child.field);
  }
  const auto expect_children = [&](size_t count) {
    if (fields.size() != count) {
      fail(where, "type " + name + " needs " + std::to_string(count) + " child field(s), got " +
                      std::to_string(fields.size()));
    }
  };
  if (name != "list" && name != "largelist" && name != "listview" && name != "largelistview" &&
      name != "fixedsizelist" && name != "struct" && name != "map" && name != "union" &&
      name != "runendencoded") {
    expect_children(0);
  }
  if (name == "null") {
    return null();
  }
  if (name == "bool") {
    return boolean();
  }
  if (name == "int") {
    return integer_type(type, where);
  }
  if (name == "floatingpoint") {
    const std::string& precision = string_member(type, "precision", where);
    if (precision == "HALF") {
      return float16();
    }
    if (precision == "SINGLE") {
      return float32();
    }
    if (precision == "DOUBLE") {
      return float64();
    }
    fail(where, "unknown floating point precision \"" + precision + "\"");
  }
  if (name == "utf8") {
    return utf8();
  }
  if (name == "largeutf8") {
    return large_utf8();
  }
  if (name == "utf8view") {
    return utf8_view();
  }
  if (name == "binary") {
    return binary();
  }
  if (name == "largebinary") {
    return large_binary();
  }
  if (name == "binaryview") {
    return binary_view();
  }
  if (name == "fixedsizebinary") {
    return fixed_size_binary(integer_member<int32_t>(type, "byteWidth", where));
  }
  if (name == "decimal") {
    const auto precision = integer_member<int32_t>(type, "precision", where);
    const auto scale = integer_member<int32_t>(type, "scale", where);
    const Json* bit_width = find(type, "bitWidth", where);
    switch (bit_width == nullptr ? 128 : integer_of<int>(*bit_width, where + " \"bitWidth\"")) {
      case 32:
        return decimal32(precision, scale);
      case 64:
        return decimal64(precision, scale);
      case 128:
        return decimal128(precision, scale);
      case 256:
        return decimal256(precision, scale);
      default:
        fail(where, "decimal bit width must be 32, 64, 128 or 256, got " + bit_width->dump());
    }
  }
  if (name == "date") {
    const std::string& unit = string_member(type, "unit", where);
    if (unit == "DAY") {
      return date32();
    }
    if (unit == "MILLISECOND") {
      return date64();
    }
    fail(where, "unknown date unit \"" + unit + "\"");
  }
  if (name == "time") {
    const TimeUnit unit = time_unit_of(string_member(type, "unit", where), where);
    const bool is_32 = unit == TimeUnit::kSecond || unit == TimeUnit::kMilli;
    const Json* bit_width = find(type, "bitWidth", where);
    if (bit_width != nullptr &&
        integer_of<int>(*bit_width, where + " \"bitWidth\"") != (is_32 ? 32 : 64)) {
      fail(where, "time in " + std::string(time_unit_name(unit)) + " must have bit width " +
                      (is_32 ? "32" : "64") + ", got " + bit_width->dump());
    }
    return is_32 ? time32(unit) : time64(unit);
  }
  if (name == "timestamp") {
    const Json* timezone = find(type, "timezone", where);
    return timestamp(time_unit_of(string_member(type, "unit", where), where),
                     timezone == nullptr || timezone->is_null()
                         ? std::string()
                         : string_of(*timezone, where + " \"timezone\""));
  }
  if (name == "duration") {
    return duration(time_unit_of(string_member(type, "unit", where), where));
  }
  if (name == "interval") {
    const std::string& unit = string_member(type, "unit", where);
    if (unit == "YEAR_MONTH") {
      return month_interval();
    }
    if (unit == "DAY_TIME") {
      return day_time_interval();
    }
    if (unit == "MONTH_DAY_NANO") {
      return month_day_nano_interval();
    }
    fail(where, "unknown interval unit \"" + unit + "\"");
  }
  if (name == "list" || name == "largelist" || name == "listview" || name == "largelistview") {
    expect_children(1);
    const TypeId id = name == "list"        ? TypeId::kList
                      : name == "largelist" ? TypeId::kLargeList
                      : name == "listview"  ? TypeId::kListView
                                            : TypeId::kLargeListView;
    return std::make_shared<const ListType>(id, fields[0]);
  }
  if (name == "fixedsizelist") {
    expect_children(1);
    return fixed_size_list(fields[0], integer_member<int32_t>(type, "listSize", where));
  }
  if (name == "struct") {
    return struct_(std::move(fields));
  }
  if (name == "map") {
    expect_children(1);
    return std::make_shared<const MapType>(fields[0],
                                           bool_member(type, "keysSorted", false, where));
  }
  if (name == "union") {
    const std::string& mode = string_member(type, "mode", where);
    if (mode != "SPARSE" && mode != "DENSE") {
      fail(where, "union mode must be SPARSE or DENSE, got \"" + mode + "\"");
    }
    std::vector<int8_t> type_codes;
    const Json* ids = find(type, "typeIds", where);
    if (ids != nullptr && !ids->is_null()) {
      const Json& list = array_member(type, "typeIds", where);
      for (size_t i = 0; i < list.size(); ++i) {
        type_codes.push_back(integer_of<int8_t>(list[i], entry(where, "typeIds", i)));
      }
    }
    return mode == "SPARSE" ? sparse_union(std::move(fields), std::move(type_codes))
                            : dense_union(std::move(fields), std::move(type_codes));
  }
  if (name == "runendencoded") {
    expect_children(2);
    return run_end_encoded(fields[0]->type(), fields[1]->type());
  }
  fail(where, "unknown type \"" + name + "\"");
}

JsonField parse_field(const Json& json, const std::string& where, int depth) {
  if (depth > kMaxDepth) {
    fail(where, "fields nested more than " + std::to_string(kMaxDepth) + " levels deep");
  }
  JsonField result;
  const std::string& name = string_member(json, "name", where);
  const std::string here = where + " " + in_quotes(name);
  const Json* children = find(json, "children", here);
  if (children != nullptr) {
    const Json& list = array_member(json, "children", here);
    for (const Json& child : list) {
      result.children.push_back(parse_field(child, here + " child", depth + 1));
    }
  }
  Metadata metadata = metadata_of(find(json, "metadata", here), here);
  TypePtr type;
  try {
    type = make_type(member(json, "type", here), result.children, here);
    if (const Json* dictionary = find(json, "dictionary", here);
        dictionary != nullptr && !dictionary->is_null()) {
      const std::string dict_where = here + " dictionary";
      result.dictionary_encoded = true;
      result.dictionary_id = integer_member<int64_t>(*dictionary, "id", dict_where);
      const TypePtr index_type =
          integer_type(member(*dictionary, "indexType", dict_where), dict_where + " indexType");
      type = bowstring::dictionary(index_type, type,
                                   bool_member(*dictionary, "isOrdered", false, dict_where));
    }
    const auto is_extension_name = [](const auto& item) { return item.first == kExtensionName; };
    if (const auto name_it = std::find_if(metadata.begin(), metadata.end(), is_extension_name);
        name_it != metadata.end()) {
      std::string extension_name = name_it->second;
      std::string serialized;
      Metadata kept;
      for (auto& [key, value] : metadata) {
        if (key == kExtensionMetadata) {
          serialized = std::move(value);
        } else if (key != kExtensionName) {
          kept.emplace_back(std::move(key), std::move(value));
        }
      }
      type = extension(std::move(type), std::move(extension_name), std::move(serialized));
      metadata = std::move(kept);
    }
  } catch (const FormatError&) {
    throw;
  } catch (const Error& error) {
    fail(here, error.what());
  }
  result.field = bowstring::field(name, std::move(type), bool_member(json, "nullable", true, here),
                                  std::move(metadata));
  return result;
}

// --- arrays -----------------------------------------------------------------------------

/// Builds arrays from the columns of the document.
class ArrayReader {
 public:
  ArrayReader(const std::vector<JsonField>& fields, const Json* dictionaries)
      : dictionaries_json_(dictionaries) {
    for (const JsonField& field : fields) {
      register_dictionaries(field);
    }
    if (dictionaries_json_ == nullptr || dictionaries_json_->is_null()) {
      return;
    }
    if (!dictionaries_json_->is_array()) {
      fail("\"dictionaries\"", "must be a list");
    }
    for (size_t i = 0; i < dictionaries_json_->size(); ++i) {
      const Json& item = (*dictionaries_json_)[i];
      const std::string where = "dictionaries[" + std::to_string(i) + "]";
      const auto id = integer_member<int64_t>(item, "id", where);
      if (bool_member(item, "isDelta", false, where)) {
        throw NotImplemented("integration JSON: " + where +
                             ": delta dictionaries are not supported");
      }
      if (!dictionary_fields_.contains(id)) {
        fail(where, "no field of the schema uses dictionary " + std::to_string(id));
      }
      if (!dictionary_entries_.emplace(id, &item).second) {
        fail(where, "dictionary " + std::to_string(id) + " appears twice");
      }
    }
  }

  /// Every dictionary the document lists, by id.
  std::map<int64_t, Array> all_dictionaries() {
    std::map<int64_t, Array> result;
    for (const auto& [id, item] : dictionary_entries_) {
      result.emplace(id, Array(dictionary(id, "dictionary " + std::to_string(id))));
    }
    return result;
  }

  /// The array of `column`, laid out as `type` (the field's type, or for a dictionary-encoded
  /// field the dictionary's value type).
  std::shared_ptr<ArrayData> read(const TypePtr& type, const JsonField& field, const Json& column,
                                  const std::string& where) {
    const auto count = integer_member<int64_t>(column, "count", where);
    if (count < 0) {
      fail(where, "negative count " + std::to_string(count));
    }
    switch (type->id()) {
      case TypeId::kExtension: {
        std::shared_ptr<ArrayData> data =
            read(static_cast<const ExtensionType&>(*type).storage_type(), field, column, where);
        data->type = type;
        return data;
      }
      case TypeId::kDictionary: {
        const auto& dict_type = static_cast<const DictionaryType&>(*type);
        auto [validity, null_count] = read_validity(column, count, where);
        return std::make_shared<ArrayData>(
            type, count,
            std::vector<std::shared_ptr<Buffer>>{
                std::move(validity),
                fixed_width_values(*dict_type.index_type(), column, count, where)},
            null_count, 0, std::vector<ArrayDataPtr>{}, dictionary(field.dictionary_id, where));
      }
      case TypeId::kNull:
        return std::make_shared<ArrayData>(type, count,
                                           std::vector<std::shared_ptr<Buffer>>{nullptr}, count);
      case TypeId::kBoolean: {
        auto [validity, null_count] = read_validity(column, count, where);
        const Json& list = buffer_member(column, "DATA", count, where);
        BitmapBuilder bits;
        bits.reserve(count);
        for (size_t i = 0; i < list.size(); ++i) {
          bits.unsafe_append(flag_of(list[i], entry(where, "DATA", i)));
        }
        return std::make_shared<ArrayData>(
            type, count, std::vector<std::shared_ptr<Buffer>>{std::move(validity), bits.finish()},
            null_count);
      }
      case TypeId::kString:
      case TypeId::kBinary:
        return read_binary<int32_t>(type, column, count, where);
      case TypeId::kLargeString:
      case TypeId::kLargeBinary:
        return read_binary<int64_t>(type, column, count, where);
      case TypeId::kStringView:
      case TypeId::kBinaryView:
        return read_views(type, column, count, where);
      case TypeId::kList:
      case TypeId::kMap:
        return read_list<int32_t>(type, field, column, count, false, where);
      case TypeId::kLargeList:
        return read_list<int64_t>(type, field, column, count, false, where);
      case TypeId::kListView:
        return read_list<int32_t>(type, field, column, count, true, where);
      case TypeId::kLargeListView:
        return read_list<int64_t>(type, field, column, count, true, where);
      case TypeId::kFixedSizeList:
      case TypeId::kStruct: {
        auto [validity, null_count] = read_validity(column, count, where);
        return std::make_shared<ArrayData>(
            type, count, std::vector<std::shared_ptr<Buffer>>{std::move(validity)}, null_count, 0,
            read_children(field, column, where));
      }
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion:
        return read_union(type, field, column, count, where);
      case TypeId::kRunEndEncoded:
        return std::make_shared<ArrayData>(type, count,
                                           std::vector<std::shared_ptr<Buffer>>{nullptr}, 0, 0,
                                           read_children(field, column, where));
      default: {
        auto [validity, null_count] = read_validity(column, count, where);
        return std::make_shared<ArrayData>(
            type, count,
            std::vector<std::shared_ptr<Buffer>>{std::move(validity),
                                                 fixed_width_values(*type, column, count, where)},
            null_count);
      }
    }
  }

 private:
  void register_dictionaries(const JsonField& field) {
    if (field.dictionary_encoded) {
      const auto [it, inserted] = dictionary_fields_.emplace(field.dictionary_id, &field);
      if (!inserted && !value_type_of(*it->second)->equals(*value_type_of(field))) {
        fail("field " + in_quotes(field.field->name()),
             "dictionary " + std::to_string(field.dictionary_id) + " holds " +
                 value_type_of(*it->second)->to_string() + " for field " +
                 in_quotes(it->second->field->name()) + " but " +
                 value_type_of(field)->to_string() + " here");
      }
    }
    for (const JsonField& child : field.children) {
      register_dictionaries(child);
    }
  }

  static const TypePtr& value_type_of(const JsonField& field) {
    const DataType* type = field.field->type().get();
    if (type->id() == TypeId::kExtension) {
      type = static_cast<const ExtensionType&>(*type).storage_type().get();
    }
    return static_cast<const DictionaryType&>(*type).value_type();
  }

  /// The values of dictionary `id`, read on first use (a dictionary's values may themselves
  /// use other dictionaries).
  ArrayDataPtr dictionary(int64_t id, const std::string& where) {
    if (const auto it = dictionaries_.find(id); it != dictionaries_.end()) {
      return it->second;
    }
    const auto entry_it = dictionary_entries_.find(id);
    if (entry_it == dictionary_entries_.end()) {
      fail(where, "dictionary " + std::to_string(id) + " is not in \"dictionaries\"");
    }
    if (!in_progress_.insert(id).second) {
      fail(where, "dictionary " + std::to_string(id) + " contains itself");
    }
    const std::string here = "dictionary " + std::to_string(id);
    const Json& data = member(*entry_it->second, "data", here);
    const Json& columns = array_member(data, "columns", here);
    if (columns.size() != 1) {
      fail(here, "must have exactly one column, got " + std::to_string(columns.size()));
    }
    const JsonField& field = *dictionary_fields_.at(id);
    std::shared_ptr<ArrayData> values = read(value_type_of(field), field, columns[0], here);
    const auto count = integer_member<int64_t>(data, "count", here);
    if (count != values->length) {
      fail(here, "count " + std::to_string(count) + " but the column has " +
                     std::to_string(values->length) + " values");
    }
    in_progress_.erase(id);
    dictionaries_.emplace(id, values);
    return values;
  }

  static bool flag_of(const Json& value, const std::string& where) {
    if (value.is_boolean()) {
      return value.get<bool>();
    }
    if (value.is_number_integer()) {
      const auto number = value.get<int64_t>();
      if (number == 0 || number == 1) {
        return number == 1;
      }
    }
    fail(where, "expected 0, 1, true or false, got " + value.dump());
  }

  /// The validity bitmap (nullptr when every value is valid) and the null count.
  static std::pair<std::shared_ptr<Buffer>, int64_t> read_validity(const Json& column,
                                                                   int64_t count,
                                                                   const std::string& where) {
    if (find(column, "VALIDITY", where) == nullptr) {
      return {nullptr, 0};
    }
    const Json& list = buffer_member(column, "VALIDITY", count, where);
    BitmapBuilder bits;
    bits.reserve(count);
    for (size_t i = 0; i < list.size(); ++i) {
      bits.unsafe_append(flag_of(list[i], entry(where, "VALIDITY", i)));
    }
    const int64_t null_count = bits.false_count();
    if (null_count == 0) {
      return {nullptr, 0};
    }
    return {bits.finish(), null_count};
  }

  template <typename T, typename Convert>
  static std::shared_ptr<Buffer> typed_values(const Json& list, const std::string& where,
                                              Convert convert) {
    TypedBufferBuilder<T> values;
    values.reserve(static_cast<int64_t>(list.size()));
    for (size_t i = 0; i < list.size(); ++i) {
      values.unsafe_append(convert(list[i], entry(where, "DATA", i)));
    }
    return values.finish();
  }

  template <typename T>
  static std::shared_ptr<Buffer> integers(const Json& list, const std::string& where) {
    return typed_values<T>(list, where, integer_of<T>);
  }

  /// The DATA of a fixed-width type (numbers, temporal values, intervals, decimals,
  /// fixed-size binaries, dictionary indices).
  static std::shared_ptr<Buffer> fixed_width_values(const DataType& type, const Json& column,
                                                    int64_t count, const std::string& where) {
    const Json& list = buffer_member(column, "DATA", count, where);
    switch (type.id()) {
      case TypeId::kInt8:
        return integers<int8_t>(list, where);
      case TypeId::kUInt8:
        return integers<uint8_t>(list, where);
      case TypeId::kInt16:
        return integers<int16_t>(list, where);
      case TypeId::kUInt16:
        return integers<uint16_t>(list, where);
      case TypeId::kInt32:
      case TypeId::kDate32:
      case TypeId::kTime32:
      case TypeId::kIntervalMonths:
        return integers<int32_t>(list, where);
      case TypeId::kUInt32:
        return integers<uint32_t>(list, where);
      case TypeId::kInt64:
      case TypeId::kDate64:
      case TypeId::kTime64:
      case TypeId::kTimestamp:
      case TypeId::kDuration:
        return integers<int64_t>(list, where);
      case TypeId::kUInt64:
        return integers<uint64_t>(list, where);
      case TypeId::kFloat16:
        return typed_values<uint16_t>(list, where, [](const Json& value, const std::string& at) {
          return half_float_bits(double_of(value, at));
        });
      case TypeId::kFloat32:
        return typed_values<float>(list, where, [](const Json& value, const std::string& at) {
          return static_cast<float>(double_of(value, at));
        });
      case TypeId::kFloat64:
        return typed_values<double>(list, where, double_of);
      case TypeId::kIntervalDayTime:
        return typed_values<DayTimeInterval>(
            list, where, [](const Json& value, const std::string& at) {
              return DayTimeInterval{integer_member<int32_t>(value, "days", at),
                                     integer_member<int32_t>(value, "milliseconds", at)};
            });
      case TypeId::kIntervalMonthDayNano:
        return typed_values<MonthDayNanoInterval>(
            list, where, [](const Json& value, const std::string& at) {
              return MonthDayNanoInterval{integer_member<int32_t>(value, "months", at),
                                          integer_member<int32_t>(value, "days", at),
                                          integer_member<int64_t>(value, "nanoseconds", at)};
            });
      case TypeId::kDecimal32:
      case TypeId::kDecimal64:
      case TypeId::kDecimal128:
      case TypeId::kDecimal256:
      case TypeId::kFixedSizeBinary: {
        const int width = type.byte_width();
        BufferBuilder bytes;
        bytes.resize(count * width);
        for (size_t i = 0; i < list.size(); ++i) {
          const std::string at = entry(where, "DATA", i);
          uint8_t* out = bytes.mutable_data() + static_cast<int64_t>(i) * width;
          if (type.id() == TypeId::kFixedSizeBinary) {
            const std::string value = hex_decode(string_of(list[i], at), at);
            if (static_cast<int64_t>(value.size()) != width) {
              fail(at, std::to_string(value.size()) + " bytes in a fixed_size_binary[" +
                           std::to_string(width) + "]");
            }
            std::copy(value.begin(), value.end(), out);
          } else {
            decimal_bytes(string_of(list[i], at), width, out, at);
          }
        }
        return bytes.finish();
      }
      default:
        fail(where, "cannot read values of type " + type.to_string());
    }
  }

  /// The values of `key`: `size` offsets (or sizes) of width `Offset`. An empty array may give
  /// no offsets at all instead of a single 0.
  template <typename Offset>
  static std::vector<Offset> offsets(const Json& column, const char* key, int64_t size,
                                     const std::string& where) {
    const Json& list = array_member(column, key, where);
    if (list.empty() && size == 1) {
      return {0};
    }
    buffer_member(column, key, size, where);
    std::vector<Offset> result;
    result.reserve(list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      result.push_back(integer_of<Offset>(list[i], entry(where, key, i)));
    }
    return result;
  }

  template <typename T>
  static std::shared_ptr<Buffer> buffer_of(const std::vector<T>& values) {
    return Buffer::copy_of(values.data(), static_cast<int64_t>(values.size() * sizeof(T)));
  }

  /// The bytes of a binary-like value: UTF-8 text for strings, hex for binaries.
  static std::string value_bytes(bool is_string, const Json& value, const std::string& where) {
    const std::string& text = string_of(value, where);
    return is_string ? text : hex_decode(text, where);
  }

  /// utf8, binary and their large variants: the offsets as written, and a data buffer that
  /// holds each DATA value where its offsets say.
  template <typename Offset>
  static std::shared_ptr<ArrayData> read_binary(const TypePtr& type, const Json& column,
                                                int64_t count, const std::string& where) {
    auto [validity, null_count] = read_validity(column, count, where);
    const std::vector<Offset> value_offsets = offsets<Offset>(column, "OFFSET", count + 1, where);
    const Json& list = buffer_member(column, "DATA", count, where);
    const bool is_string = type->is_string();
    BufferBuilder data;
    if (value_offsets[0] < 0) {
      fail(where, "negative first offset " + std::to_string(value_offsets[0]));
    }
    data.resize(value_offsets[0]);
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string at = entry(where, "DATA", i);
      const std::string value = value_bytes(is_string, list[i], at);
      const Offset expected = value_offsets[i + 1] - value_offsets[i];
      if (static_cast<int64_t>(value.size()) != static_cast<int64_t>(expected)) {
        fail(at, std::to_string(value.size()) + " bytes where OFFSET gives " +
                     std::to_string(expected));
      }
      data.append(value.data(), static_cast<int64_t>(value.size()));
    }
    return std::make_shared<ArrayData>(
        type, count,
        std::vector<std::shared_ptr<Buffer>>{std::move(validity), buffer_of(value_offsets),
                                             data.finish()},
        null_count);
  }

  /// utf8_view and binary_view, from VIEWS (inline values, or a prefix and a place in a data
  /// buffer) and VARIADIC_DATA_BUFFERS (hex), exactly as written.
  static std::shared_ptr<ArrayData> read_views(const TypePtr& type, const Json& column,
                                               int64_t count, const std::string& where) {
    auto [validity, null_count] = read_validity(column, count, where);
    const Json& views = buffer_member(column, "VIEWS", count, where);
    const bool is_string = type->is_string();
    TypedBufferBuilder<BinaryView> view_buffer;
    view_buffer.reserve(count);
    for (size_t i = 0; i < views.size(); ++i) {
      const std::string at = entry(where, "VIEWS", i);
      const Json& view = views[i];
      BinaryView out;
      std::memset(&out, 0, sizeof(out));
      out.size = integer_member<int32_t>(view, "SIZE", at);
      if (find(view, "INLINED", at) != nullptr) {
        const std::string bytes = value_bytes(is_string, member(view, "INLINED", at), at);
        if (static_cast<int64_t>(bytes.size()) != out.size || out.size > BinaryView::kInlineSize) {
          fail(at, "INLINED holds " + std::to_string(bytes.size()) + " bytes, SIZE is " +
                       std::to_string(out.size) + " (inline values have at most " +
                       std::to_string(BinaryView::kInlineSize) + ")");
        }
        std::memcpy(out.inlined, bytes.data(), bytes.size());
      } else {
        const std::string prefix = hex_decode(string_member(view, "PREFIX_HEX", at), at);
        if (prefix.size() != sizeof(out.ref.prefix)) {
          fail(at, "PREFIX_HEX must hold 4 bytes, got " + std::to_string(prefix.size()));
        }
        std::memcpy(out.ref.prefix, prefix.data(), prefix.size());
        out.ref.buffer_index = integer_member<int32_t>(view, "BUFFER_INDEX", at);
        out.ref.offset = integer_member<int32_t>(view, "OFFSET", at);
      }
      view_buffer.unsafe_append(out);
    }
    std::vector<std::shared_ptr<Buffer>> buffers{std::move(validity), view_buffer.finish()};
    const Json& data_buffers = array_member(column, "VARIADIC_DATA_BUFFERS", where);
    for (size_t i = 0; i < data_buffers.size(); ++i) {
      const std::string at = entry(where, "VARIADIC_DATA_BUFFERS", i);
      const std::string bytes = hex_decode(string_of(data_buffers[i], at), at);
      buffers.push_back(Buffer::copy_of(bytes.data(), static_cast<int64_t>(bytes.size())));
    }
    return std::make_shared<ArrayData>(type, count, std::move(buffers), null_count);
  }

  std::vector<ArrayDataPtr> read_children(const JsonField& field, const Json& column,
                                          const std::string& where) {
    const Json* list = find(column, "children", where);
    const size_t expected = field.children.size();
    const size_t got = list == nullptr ? 0 : list->size();
    if (got != expected || (list != nullptr && !list->is_array())) {
      fail(where, "\"children\" has " + std::to_string(got) + " columns, the type has " +
                      std::to_string(expected) + " fields");
    }
    std::vector<ArrayDataPtr> children;
    for (size_t i = 0; i < expected; ++i) {
      const JsonField& child = field.children[i];
      const Json& child_column = (*list)[i];
      const std::string& name = string_member(child_column, "name", where + " child");
      std::string here = where;
      here += '.';
      here += name;
      if (name != child.field->name()) {
        fail(here, "child column " + std::to_string(i) + " is named " + in_quotes(name) +
                       " but its field " + in_quotes(child.field->name()));
      }
      children.push_back(read(child.field->type(), child, child_column, here));
    }
    return children;
  }

  template <typename Offset>
  std::shared_ptr<ArrayData> read_list(const TypePtr& type, const JsonField& field,
                                       const Json& column, int64_t count, bool is_view,
                                       const std::string& where) {
    auto [validity, null_count] = read_validity(column, count, where);
    std::vector<std::shared_ptr<Buffer>> buffers{std::move(validity)};
    if (is_view) {
      buffers.push_back(buffer_of(offsets<Offset>(column, "OFFSET", count, where)));
      buffers.push_back(buffer_of(offsets<Offset>(column, "SIZE", count, where)));
    } else {
      buffers.push_back(buffer_of(offsets<Offset>(column, "OFFSET", count + 1, where)));
    }
    return std::make_shared<ArrayData>(type, count, std::move(buffers), null_count, 0,
                                       read_children(field, column, where));
  }

  std::shared_ptr<ArrayData> read_union(const TypePtr& type, const JsonField& field,
                                        const Json& column, int64_t count,
                                        const std::string& where) {
    // Files of Arrow before 1.0 give unions a validity bitmap, always all valid in practice.
    if (read_validity(column, count, where).second != 0) {
      throw NotImplemented("integration JSON: " + where +
                           ": union-level nulls (a VALIDITY with zeros) are not supported");
    }
    std::vector<std::shared_ptr<Buffer>> buffers{
        nullptr, integers<int8_t>(buffer_member(column, "TYPE_ID", count, where), where)};
    if (type->id() == TypeId::kDenseUnion) {
      buffers.push_back(buffer_of(offsets<int32_t>(column, "OFFSET", count, where)));
    }
    return std::make_shared<ArrayData>(type, count, std::move(buffers), 0, 0,
                                       read_children(field, column, where));
  }

  const Json* dictionaries_json_;
  std::map<int64_t, const JsonField*> dictionary_fields_;
  std::map<int64_t, const Json*> dictionary_entries_;
  std::map<int64_t, ArrayDataPtr> dictionaries_;
  std::set<int64_t> in_progress_;
};

JsonIntegrationData parse_document(const Json& document, const JsonReadOptions& options) {
  const Json& schema_json = member(document, "schema", "document");
  const Json& fields_json = array_member(schema_json, "fields", "schema");
  std::vector<JsonField> fields;
  FieldVector schema_fields;
  for (const Json& field_json : fields_json) {
    fields.push_back(parse_field(field_json, "field", 0));
    schema_fields.push_back(fields.back().field);
  }
  JsonIntegrationData result;
  result.schema = schema(std::move(schema_fields),
                         metadata_of(find(schema_json, "metadata", "schema"), "schema"));

  ArrayReader reader(fields, find(document, "dictionaries", "document"));
  result.dictionaries = reader.all_dictionaries();
  for (const auto& [id, values] : result.dictionaries) {
    try {
      if (options.validate_full) {
        values.validate_full();
      } else {
        values.validate();
      }
    } catch (const FormatError& error) {
      fail("dictionary " + std::to_string(id), error.what());
    }
  }

  const Json& batches = array_member(document, "batches", "document");
  for (size_t b = 0; b < batches.size(); ++b) {
    const std::string where = "batch " + std::to_string(b);
    const Json& batch = batches[b];
    const auto count = integer_member<int64_t>(batch, "count", where);
    const Json& columns = array_member(batch, "columns", where);
    if (columns.size() != fields.size()) {
      fail(where, std::to_string(columns.size()) + " columns for " + std::to_string(fields.size()) +
                      " fields");
    }
    std::vector<Array> arrays;
    for (size_t c = 0; c < columns.size(); ++c) {
      const JsonField& field = fields[c];
      const std::string& name = string_member(columns[c], "name", where);
      const std::string here = where + " column " + in_quotes(name);
      if (name != field.field->name()) {
        fail(here, "column " + std::to_string(c) + " but field " + std::to_string(c) + " is " +
                       in_quotes(field.field->name()));
      }
      arrays.emplace_back(reader.read(field.field->type(), field, columns[c], here));
    }
    try {
      RecordBatch record_batch(result.schema, count, std::move(arrays));
      if (options.validate_full) {
        record_batch.validate_full();
      } else {
        record_batch.validate();
      }
      result.batches.push_back(std::move(record_batch));
    } catch (const FormatError& error) {
      fail(where, error.what());
    } catch (const InvalidArgument& error) {
      fail(where, error.what());
    } catch (const TypeError& error) {
      fail(where, error.what());
    }
  }
  return result;
}

}  // namespace

JsonIntegrationData parse_json_integration(std::string_view json, const JsonReadOptions& options) {
  Json document;
  try {
    document = Json::parse(json.begin(), json.end());
  } catch (const Json::exception& error) {
    throw FormatError(std::string("integration JSON: not valid JSON: ") + error.what());
  }
  return parse_document(document, options);
}

JsonIntegrationData read_json_integration(const std::string& path, const JsonReadOptions& options) {
  // gzread passes uncompressed files through unchanged, so this reads .json and .json.gz alike.
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw IoError("cannot open " + path + ": " + std::strerror(errno));
  }
  std::string text;
  char chunk[1 << 16];
  while (true) {
    const int got = gzread(file, chunk, sizeof(chunk));
    if (got < 0) {
      int code = 0;
      std::string message = "cannot read " + path;
      message += ": ";
      message += gzerror(file, &code);
      gzclose(file);
      throw IoError(message);
    }
    if (got == 0) {
      break;
    }
    text.append(chunk, static_cast<size_t>(got));
  }
  gzclose(file);
  try {
    return parse_json_integration(text, options);
  } catch (const FormatError& error) {
    throw FormatError(path + ": " + error.what());
  } catch (const NotImplemented& error) {
    throw NotImplemented(path + ": " + error.what());
  }
}

}  // namespace bowstring::testing
