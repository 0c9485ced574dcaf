#include "bowstring/testing/array_data_testing.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "bowstring/util/error.h"

namespace bowstring::testing {

std::shared_ptr<Buffer> bytes_of(std::string_view bytes) {
  return Buffer::copy_of(bytes.data(), static_cast<int64_t>(bytes.size()));
}

std::shared_ptr<Buffer> bitmap_of(const std::vector<bool>& bits) {
  std::vector<uint8_t> bytes(
      static_cast<size_t>(bit_util::bytes_for_bits(static_cast<int64_t>(bits.size()))), 0);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) {
      bit_util::set_bit(bytes.data(), static_cast<int64_t>(i));
    }
  }
  return buffer_of(bytes);
}

std::shared_ptr<Buffer> validity_of(const std::vector<bool>& validity) {
  return validity.empty() ? nullptr : bitmap_of(validity);
}

namespace {

template <typename T>
std::shared_ptr<Buffer> narrowed(const std::vector<int64_t>& values) {
  std::vector<T> out;
  out.reserve(values.size());
  for (const int64_t value : values) {
    out.push_back(static_cast<T>(value));
  }
  return buffer_of(out);
}

}  // namespace

std::shared_ptr<Buffer> integers_of(const DataType& type, const std::vector<int64_t>& values) {
  switch (type.id()) {
    case TypeId::kInt8:
      return narrowed<int8_t>(values);
    case TypeId::kUInt8:
      return narrowed<uint8_t>(values);
    case TypeId::kInt16:
      return narrowed<int16_t>(values);
    case TypeId::kUInt16:
      return narrowed<uint16_t>(values);
    case TypeId::kInt32:
      return narrowed<int32_t>(values);
    case TypeId::kUInt32:
      return narrowed<uint32_t>(values);
    case TypeId::kInt64:
      return narrowed<int64_t>(values);
    case TypeId::kUInt64:
      return narrowed<uint64_t>(values);
    default:
      throw TypeError("not an integer type: " + type.to_string());
  }
}

Array make_array(TypePtr type, int64_t length, std::vector<std::shared_ptr<Buffer>> buffers,
                 const std::vector<Array>& children, const Array& dictionary, int64_t offset) {
  std::vector<ArrayDataPtr> child_data;
  child_data.reserve(children.size());
  for (const Array& child : children) {
    child_data.push_back(child.data());
  }
  return Array(std::make_shared<ArrayData>(
      std::move(type), length, std::move(buffers), ArrayData::kUnknownNullCount, offset,
      std::move(child_data), dictionary ? dictionary.data() : nullptr));
}

Array with_null_count(const Array& array, int64_t null_count) {
  const ArrayData& data = *array.data();
  return Array(std::make_shared<ArrayData>(data.type, data.length, data.buffers, null_count,
                                           data.offset, data.children, data.dictionary));
}

Array int32s(const std::vector<std::optional<int32_t>>& values) {
  return array_of<int32_t>(int32(), values);
}

Array int64s(const std::vector<std::optional<int64_t>>& values) {
  return array_of<int64_t>(int64(), values);
}

Array doubles(const std::vector<std::optional<double>>& values) {
  return array_of<double>(float64(), values);
}

Array booleans(const std::vector<std::optional<bool>>& values) {
  std::vector<bool> bits;
  std::vector<bool> validity;
  bool any_null = false;
  for (const std::optional<bool>& value : values) {
    bits.push_back(value.value_or(false));
    validity.push_back(value.has_value());
    any_null = any_null || !value.has_value();
  }
  return make_array(boolean(), static_cast<int64_t>(values.size()),
                    {any_null ? bitmap_of(validity) : nullptr, bitmap_of(bits)});
}

Array strings(const std::vector<std::optional<std::string>>& values, TypePtr type) {
  std::vector<int64_t> offsets{0};
  std::string bytes;
  std::vector<bool> validity;
  bool any_null = false;
  for (const std::optional<std::string>& value : values) {
    bytes += value.value_or("");
    offsets.push_back(static_cast<int64_t>(bytes.size()));
    validity.push_back(value.has_value());
    any_null = any_null || !value.has_value();
  }
  const bool large = type->id() == TypeId::kLargeString || type->id() == TypeId::kLargeBinary;
  std::shared_ptr<Buffer> offset_buffer = integers_of(large ? *int64() : *int32(), offsets);
  return make_array(
      std::move(type), static_cast<int64_t>(values.size()),
      {any_null ? bitmap_of(validity) : nullptr, std::move(offset_buffer), bytes_of(bytes)});
}

BinaryView inline_view(std::string_view value) {
  BinaryView view;
  std::memset(&view, 0, sizeof(view));
  view.size = static_cast<int32_t>(value.size());
  std::memcpy(view.inlined, value.data(), value.size());
  return view;
}

BinaryView reference_view(std::string_view value, int32_t buffer_index, int32_t offset) {
  BinaryView view;
  std::memset(&view, 0, sizeof(view));
  view.size = static_cast<int32_t>(value.size());
  std::memcpy(view.ref.prefix, value.data(), std::min<size_t>(4, value.size()));
  view.ref.buffer_index = buffer_index;
  view.ref.offset = offset;
  return view;
}

Array views(const std::vector<std::optional<std::string>>& values, TypePtr type,
            int64_t data_buffer_bytes) {
  std::vector<BinaryView> out;
  std::vector<std::string> data;
  std::vector<bool> validity;
  bool any_null = false;
  for (const std::optional<std::string>& value : values) {
    validity.push_back(value.has_value());
    any_null = any_null || !value.has_value();
    const std::string text = value.value_or("");
    if (text.size() <= static_cast<size_t>(BinaryView::kInlineSize)) {
      out.push_back(inline_view(text));
      continue;
    }
    if (data.empty() ||
        static_cast<int64_t>(data.back().size() + text.size()) > data_buffer_bytes) {
      data.emplace_back();
    }
    out.push_back(reference_view(text, static_cast<int32_t>(data.size() - 1),
                                 static_cast<int32_t>(data.back().size())));
    data.back() += text;
  }
  std::vector<std::shared_ptr<Buffer>> buffers{any_null ? bitmap_of(validity) : nullptr,
                                               buffer_of(out)};
  for (const std::string& bytes : data) {
    buffers.push_back(bytes_of(bytes));
  }
  return make_array(std::move(type), static_cast<int64_t>(values.size()), std::move(buffers));
}

namespace {

const DataType& offset_type_of(const DataType& type) {
  const bool large = type.id() == TypeId::kLargeList || type.id() == TypeId::kLargeListView ||
                     type.id() == TypeId::kLargeString || type.id() == TypeId::kLargeBinary;
  return large ? *int64() : *int32();
}

}  // namespace

Array list_of(TypePtr type, const std::vector<int64_t>& offsets, const Array& values,
              const std::vector<bool>& validity) {
  std::shared_ptr<Buffer> offset_buffer = integers_of(offset_type_of(*type), offsets);
  return make_array(std::move(type), static_cast<int64_t>(offsets.size()) - 1,
                    {validity_of(validity), std::move(offset_buffer)}, {values});
}

Array list_view_of(TypePtr type, const std::vector<int64_t>& offsets,
                   const std::vector<int64_t>& sizes, const Array& values,
                   const std::vector<bool>& validity) {
  const DataType& offset_type = offset_type_of(*type);
  std::shared_ptr<Buffer> offset_buffer = integers_of(offset_type, offsets);
  std::shared_ptr<Buffer> size_buffer = integers_of(offset_type, sizes);
  return make_array(std::move(type), static_cast<int64_t>(offsets.size()),
                    {validity_of(validity), std::move(offset_buffer), std::move(size_buffer)},
                    {values});
}

Array fixed_size_list_of(TypePtr type, int64_t length, const Array& values,
                         const std::vector<bool>& validity) {
  return make_array(std::move(type), length, {validity_of(validity)}, {values});
}

Array struct_of(TypePtr type, int64_t length, const std::vector<Array>& children,
                const std::vector<bool>& validity) {
  return make_array(std::move(type), length, {validity_of(validity)}, children);
}

Array dictionary_of(TypePtr type, const std::vector<std::optional<int64_t>>& indices,
                    const Array& dictionary) {
  std::vector<int64_t> raw;
  std::vector<bool> validity;
  bool any_null = false;
  for (const std::optional<int64_t>& index : indices) {
    raw.push_back(index.value_or(0));
    validity.push_back(index.has_value());
    any_null = any_null || !index.has_value();
  }
  const DataType& index_type = *static_cast<const DictionaryType&>(*type).index_type();
  std::shared_ptr<Buffer> index_buffer = integers_of(index_type, raw);
  return make_array(std::move(type), static_cast<int64_t>(indices.size()),
                    {any_null ? bitmap_of(validity) : nullptr, std::move(index_buffer)}, {},
                    dictionary);
}

Array sparse_union_of(TypePtr type, const std::vector<int8_t>& type_ids,
                      const std::vector<Array>& children) {
  return make_array(std::move(type), static_cast<int64_t>(type_ids.size()),
                    {nullptr, buffer_of(type_ids)}, children);
}

Array dense_union_of(TypePtr type, const std::vector<int8_t>& type_ids,
                     const std::vector<int32_t>& offsets, const std::vector<Array>& children) {
  return make_array(std::move(type), static_cast<int64_t>(type_ids.size()),
                    {nullptr, buffer_of(type_ids), buffer_of(offsets)}, children);
}

Array run_end_encoded_of(TypePtr type, const std::vector<int64_t>& run_ends, const Array& values) {
  const TypePtr& run_end_type = static_cast<const RunEndEncodedType&>(*type).run_end_type();
  const Array ends = make_array(run_end_type, static_cast<int64_t>(run_ends.size()),
                                {nullptr, integers_of(*run_end_type, run_ends)});
  const int64_t length = run_ends.empty() ? 0 : run_ends.back();
  return make_array(std::move(type), length, {nullptr}, {ends, values});
}

Array decimal_array(TypePtr type, const std::vector<int64_t>& values,
                    const std::vector<bool>& validity) {
  const size_t width = static_cast<size_t>(type->byte_width());
  std::vector<uint8_t> bytes;
  bytes.reserve(values.size() * width);
  for (const int64_t value : values) {
    uint8_t slot[32];
    std::memset(slot, value < 0 ? 0xFF : 0x00, sizeof(slot));
    std::memcpy(slot, &value, std::min(width, sizeof(value)));
    bytes.insert(bytes.end(), slot, slot + width);
  }
  return make_array(std::move(type), static_cast<int64_t>(values.size()),
                    {validity_of(validity), buffer_of(bytes)});
}

namespace {

Array decimals(TypePtr type, const std::vector<std::optional<int64_t>>& values) {
  std::vector<int64_t> raw;
  std::vector<bool> validity;
  for (const std::optional<int64_t>& value : values) {
    raw.push_back(value.value_or(0));
    validity.push_back(value.has_value());
  }
  return decimal_array(std::move(type), raw, validity);
}

}  // namespace

std::vector<std::pair<std::string, Array>> sample_arrays() {
  std::vector<std::pair<std::string, Array>> samples;
  const auto add = [&samples](std::string name, Array array) {
    samples.emplace_back(std::move(name), std::move(array));
  };
  const std::nullopt_t null_value = std::nullopt;

  add("null", make_array(null(), 4, {nullptr}));
  add("bool", booleans({true, null_value, false, true, false}));
  add("int8", array_of<int8_t>(int8(), {1, null_value, -3, 127}));
  add("uint8", array_of<uint8_t>(uint8(), {1, null_value, 255}));
  add("int16", array_of<int16_t>(int16(), {-300, null_value, 7}));
  add("uint16", array_of<uint16_t>(uint16(), {65535, 0, null_value}));
  add("int32", int32s({1, null_value, -2147483647, 4}));
  add("uint32", array_of<uint32_t>(uint32(), {4000000000u, null_value}));
  add("int64", int64s({1, 2, null_value, -4, 5}));
  add("uint64", array_of<uint64_t>(uint64(), {1, null_value, 18446744073709551615ull}));
  // 1.0, -2.0 and the smallest subnormal.
  add("halffloat", array_of<uint16_t>(float16(), {0x3C00, null_value, 0xC000, 0x0001}));
  add("float", array_of<float>(float32(), {1.5f, null_value, -0.0f, INFINITY}));
  add("double", doubles({1.5, null_value, 1e300, -INFINITY}));
  add("decimal32", decimals(decimal32(9, 2), {12345, null_value, -999999999}));
  add("decimal64", decimals(decimal64(18, 3), {-12345, null_value, 999999999999999999}));
  add("decimal128", decimals(decimal128(38, 10), {1, null_value, -7}));
  add("decimal256", decimals(decimal256(76, 0), {-1, 42, null_value}));
  add("date32", array_of<int32_t>(date32(), {19000, null_value}));
  add("date64", array_of<int64_t>(date64(), {null_value, 1641600000000}));
  add("time32", array_of<int32_t>(time32(TimeUnit::kMilli), {1000, null_value}));
  add("time64", array_of<int64_t>(time64(TimeUnit::kNano), {1, null_value, 3}));
  add("timestamp", array_of<int64_t>(timestamp(TimeUnit::kMicro, "UTC"), {1, null_value}));
  add("duration", array_of<int64_t>(duration(TimeUnit::kSecond), {-5, null_value, 5}));
  add("month_interval", array_of<int32_t>(month_interval(), {12, null_value}));
  add("day_time_interval",
      array_of<DayTimeInterval>(day_time_interval(), {DayTimeInterval{1, 2}, null_value}));
  add("month_day_nano_interval",
      array_of<MonthDayNanoInterval>(month_day_nano_interval(),
                                     {null_value, MonthDayNanoInterval{1, 2, 3}}));
  add("utf8", strings({"hello", null_value, "", "h\xc3\xa9llo w\xc3\xb6rld"}));
  add("large_utf8", strings({"a", null_value, "bcd"}, large_utf8()));
  add("binary", strings({std::string("\xff\x00\x01", 3), null_value, "x"}, binary()));
  add("large_binary", strings({null_value, std::string("\x80", 1)}, large_binary()));
  add("fixed_size_binary",
      make_array(fixed_size_binary(3), 3,
                 {bitmap_of({true, false, true}), bytes_of(std::string_view("abc\0\0\0xyz", 9))}));
  add("fixed_size_binary[0]",
      make_array(fixed_size_binary(0), 3, {bitmap_of({true, false, true}), bytes_of("")}));
  add("utf8_view", views({"short", null_value, "a string longer than twelve", "",
                          "another quite long string here", "tiny"}));
  add("binary_view",
      views({std::string("\x00\xff", 2), "binary longer than twelve bytes"}, binary_view()));
  add("list", list_of(list(int64()), {0, 2, 2, 5, 6}, int64s({1, 2, 3, null_value, 5, 6}),
                      {true, false, true, true}));
  add("large_list", list_of(large_list(utf8()), {0, 1, 3, 3}, strings({"a", "bc", null_value})));
  add("list_view", list_view_of(list_view(int32()), {3, 0, 0, 1}, {2, 0, 2, 3},
                                int32s({10, 20, null_value, 40, 50}), {true, true, false, true}));
  add("large_list_view",
      list_view_of(large_list_view(utf8()), {1, 0}, {2, 3}, strings({"x", null_value, "z"})));
  add("fixed_size_list", fixed_size_list_of(fixed_size_list(int16(), 2), 3,
                                            array_of<int16_t>(int16(), {1, 2, 0, 0, 5, null_value}),
                                            {true, false, true}));
  const TypePtr struct_type = struct_({field("a", int32()), field("b", utf8())});
  add("struct",
      struct_of(struct_type, 4, {int32s({1, 2, 3, null_value}), strings({"a", "b", "c", "d"})},
                {true, true, false, true}));
  const TypePtr map_type = map(utf8(), int32());
  add("map", list_of(map_type, {0, 2, 2, 3},
                     struct_of(map_type->field(0)->type(), 3,
                               {strings({"k1", "k2", "k1"}), int32s({1, null_value, 3})}),
                     {true, false, true}));
  add("dictionary", dictionary_of(dictionary(int8(), utf8()), {0, null_value, 2, 1, 0},
                                  strings({"x", "y", "z"})));
  add("dictionary<uint16, int64>",
      dictionary_of(dictionary(uint16(), int64()), {1, 1, null_value}, int64s({7, 8})));
  const FieldVector union_fields{field("a", int32()), field("b", utf8())};
  add("sparse_union",
      sparse_union_of(sparse_union(union_fields, {5, 7}), {5, 7, 5, 7},
                      {int32s({1, 2, null_value, 4}), strings({"w", "x", "y", null_value})}));
  add("dense_union", dense_union_of(dense_union(union_fields), {0, 1, 0, 0, 1}, {0, 0, 1, 2, 1},
                                    {int32s({1, null_value, 3}), strings({"x", "y"})}));
  add("run_end_encoded", run_end_encoded_of(run_end_encoded(int32(), utf8()), {2, 3, 6},
                                            strings({"a", null_value, "b"})));
  add("run_end_encoded<int16>",
      run_end_encoded_of(run_end_encoded(int16(), int64()), {1, 4}, int64s({null_value, 9})));
  add("run_end_encoded<int64>",
      run_end_encoded_of(run_end_encoded(int64(), float64()), {3}, doubles({0.5})));
  add("extension", make_array(extension(int64(), "example.ticks"), 3,
                              {bitmap_of({true, false, true}), buffer_of<int64_t>({1, 0, 3})}));

  // Nested and sliced layouts.
  const TypePtr inner_struct = struct_({field("a", int32()), field("b", list(utf8()))});
  add("list<struct<list>>",
      list_of(list(inner_struct), {0, 1, 3},
              struct_of(inner_struct, 3,
                        {int32s({1, 2, 3}),
                         list_of(list(utf8()), {0, 1, 1, 3}, strings({"p", "q", null_value}),
                                 {true, false, true})})));
  add("int64 slice", int64s({0, 1, null_value, 3, 4, 5}).slice(1, 4));
  add("utf8 slice", strings({"zero", "one", null_value, "three"}).slice(1, 3));
  add("utf8_view slice",
      views({"x", "a string longer than twelve", null_value, "another long string!"}).slice(1));
  add("list slice", list_of(list(int64()), {0, 2, 2, 5, 6}, int64s({1, 2, 3, null_value, 5, 6}),
                            {true, false, true, true})
                        .slice(1, 3));
  add("struct with offset",
      make_array(struct_type, 3, {bitmap_of({false, false, true, false, true})},
                 {int32s({0, 0, 1, 2, 3}), strings({"", "", "x", "y", "z"})}, {}, 2));
  add("dictionary slice",
      dictionary_of(dictionary(int32(), utf8()), {2, 1, null_value, 0}, strings({"p", "q", "r"}))
          .slice(1, 3));
  add("sparse_union slice",
      sparse_union_of(sparse_union(union_fields), {0, 1, 1, 0},
                      {int32s({1, 2, 3, 4}), strings({"a", "b", null_value, "d"})})
          .slice(1, 3));
  add("dense_union slice", dense_union_of(dense_union(union_fields), {1, 0, 1, 0}, {0, 0, 1, 1},
                                          {int32s({5, 6}), strings({"a", null_value})})
                               .slice(1, 3));
  add("run_end_encoded slice",
      run_end_encoded_of(run_end_encoded(int32(), int64()), {2, 5, 9}, int64s({1, null_value, 3}))
          .slice(3, 4));
  add("bool slice",
      booleans({true, false, null_value, true, true, false, true, false, true}).slice(3, 6));
  add("null slice", make_array(null(), 5, {nullptr}).slice(1, 3));
  add("decimal128 slice", decimals(decimal128(38, 10), {1, null_value, -7, 5}).slice(1));
  add("fixed_size_binary slice",
      make_array(fixed_size_binary(2), 4,
                 {bitmap_of({true, true, false, true}), bytes_of("abcdefgh")})
          .slice(1, 3));
  add("list_view slice",
      list_view_of(list_view(int32()), {3, 0, 0, 1}, {2, 0, 2, 3},
                   int32s({10, 20, null_value, 40, 50}), {true, true, false, true})
          .slice(1, 3));
  add("fixed_size_list slice",
      fixed_size_list_of(fixed_size_list(int16(), 2), 3,
                         array_of<int16_t>(int16(), {1, 2, 0, 0, 5, null_value}),
                         {true, false, true})
          .slice(1));
  add("map slice", list_of(map_type, {0, 2, 2, 3},
                           struct_of(map_type->field(0)->type(), 3,
                                     {strings({"k1", "k2", "k1"}), int32s({1, null_value, 3})}),
                           {true, false, true})
                       .slice(1));

  // Nesting through dictionaries, unions, run-end encoded and extension types.
  const TypePtr string_dictionary = dictionary(int8(), utf8());
  add("list<dictionary>",
      list_of(list(string_dictionary), {0, 2, 3},
              dictionary_of(string_dictionary, {1, null_value, 0}, strings({"p", "q"}))));
  const TypePtr list_dictionary = dictionary(int16(), list(int32()));
  add("dictionary<list>",
      dictionary_of(list_dictionary, {1, 0, null_value, 1},
                    list_of(list(int32()), {0, 2, 2}, int32s({7, null_value}))));
  const TypePtr runs_type = run_end_encoded(int16(), int32());
  const TypePtr union_type = dense_union({field("s", utf8()), field("l", list(int8()))});
  const TypePtr mixed_struct = struct_({field("runs", runs_type), field("either", union_type)});
  add("struct<run_end_encoded, dense_union> with offset",
      make_array(
          mixed_struct, 3, {bitmap_of({true, true, false, true})},
          {run_end_encoded_of(runs_type, {2, 4}, int32s({1, null_value})),
           dense_union_of(union_type, {0, 1, 1, 0}, {0, 0, 1, 1},
                          {strings({"a", null_value}),
                           list_of(list(int8()), {0, 1, 3}, array_of<int8_t>(int8(), {1, 2, 3}))})},
          {}, 1));
  const TypePtr pair_type = struct_({field("k", utf8()), field("v", float64())});
  add("run_end_encoded<struct>",
      run_end_encoded_of(
          run_end_encoded(int32(), pair_type), {1, 3, 4},
          struct_of(pair_type, 3, {strings({"x", "y", "z"}), doubles({1.0, -2.5, null_value})},
                    {true, false, true})));
  add("extension<struct>",
      make_array(extension(pair_type, "example.pair"), 2, {bitmap_of({false, true})},
                 {strings({"", "w"}), doubles({0, 3.25})}));
  return samples;
}

}  // namespace bowstring::testing
