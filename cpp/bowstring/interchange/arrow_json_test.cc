#include "bowstring/testing/arrow_json.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bowstring/testing/arrow_testing_data.h"
#include "bowstring/testing/test_util.h"
#include "bowstring/util/error.h"

namespace bowstring::testing {
namespace {

/// A document of one field and one batch of `count` rows holding `column`.
std::string document(const std::string& field, int64_t count, const std::string& column,
                     const std::string& dictionaries = "[]") {
  return R"({"schema": {"fields": [)" + field + R"(]}, "dictionaries": )" + dictionaries +
         R"(, "batches": [{"count": )" + std::to_string(count) + R"(, "columns": [)" + column +
         "]}]}";
}

/// The single column of `document(field, count, column)`.
Array read_column(const std::string& field, int64_t count, const std::string& column,
                  const std::string& dictionaries = "[]") {
  JsonIntegrationData data = parse_json_integration(document(field, count, column, dictionaries));
  EXPECT_EQ(data.batches.size(), 1u);
  return data.batches.at(0).column(0);
}

std::string field(const std::string& type, const std::string& children = "",
                  const std::string& extra = "") {
  return R"({"name": "f", "nullable": true, "type": )" + type + R"(, "children": [)" + children +
         "]" + extra + "}";
}

std::string column(int64_t count, const std::string& buffers) {
  return R"({"name": "f", "count": )" + std::to_string(count) + ", " + buffers + "}";
}

TEST(ArrowJson, BooleansAndIntegers) {
  EXPECT_EQ(read_column(field(R"({"name": "bool"})"), 3,
                        column(3, R"("VALIDITY": [1, 0, 1], "DATA": [true, true, false])"))
                .to_string(),
            "[true null false]");
  const Array int8s = read_column(field(R"({"name": "int", "isSigned": true, "bitWidth": 8})"), 3,
                                  column(3, R"("VALIDITY": [1, 1, 0], "DATA": [-128, 127, 5])"));
  EXPECT_EQ(int8s.type()->to_string(), "int8");
  EXPECT_EQ(int8s.to_string(), "[-128 127 null]");
  EXPECT_EQ(int8s.null_count(), 1);
  // 64-bit values are strings.
  const Array int64s =
      read_column(field(R"({"name": "int", "isSigned": true, "bitWidth": 64})"), 2,
                  column(2, R"("VALIDITY": [1, 1], "DATA": ["-9223372036854775808", "42"])"));
  EXPECT_EQ(int64s.to_string(), "[-9223372036854775808 42]");
  EXPECT_EQ(int64s.data()->buffers[0], nullptr);
  EXPECT_EQ(read_column(field(R"({"name": "int", "isSigned": false, "bitWidth": 64})"), 1,
                        column(1, R"("VALIDITY": [1], "DATA": ["18446744073709551615"])"))
                .to_string(),
            "[18446744073709551615]");
  EXPECT_EQ(read_column(field(R"({"name": "int", "isSigned": false, "bitWidth": 16})"), 1,
                        column(1, R"("VALIDITY": [1], "DATA": [65535])"))
                .type()
                ->to_string(),
            "uint16");
}

TEST(ArrowJson, Floats) {
  EXPECT_EQ(read_column(field(R"({"name": "floatingpoint", "precision": "DOUBLE"})"), 3,
                        column(3, R"("VALIDITY": [1, 0, 1], "DATA": [1.5, 0, -2.25])"))
                .to_string(),
            "[1.5 null -2.25]");
  EXPECT_EQ(read_column(field(R"({"name": "floatingpoint", "precision": "SINGLE"})"), 2,
                        column(2, R"("VALIDITY": [1, 1], "DATA": [0.1, 3])"))
                .to_string(),
            "[0.1 3]");
  // Half floats are written as numbers and rounded to the nearest half (ties to even).
  const Array halves = read_column(field(R"({"name": "floatingpoint", "precision": "HALF"})"), 7,
                                   column(7, R"("VALIDITY": [1, 1, 1, 1, 1, 1, 1],
                               "DATA": [1, -2, 65504, 1e6, 5.960464477539063e-08, 1e-9, 1.0009765625])"));
  EXPECT_EQ(halves.type()->to_string(), "halffloat");
  const HalfFloatArray bits(halves);
  EXPECT_EQ(bits.value(0), 0x3C00);
  EXPECT_EQ(bits.value(1), 0xC000);
  EXPECT_EQ(bits.value(2), 0x7BFF);
  EXPECT_EQ(bits.value(3), 0x7C00);  // overflows to infinity
  EXPECT_EQ(bits.value(4), 0x0001);  // the smallest subnormal
  EXPECT_EQ(bits.value(5), 0x0000);  // underflows to zero
  EXPECT_EQ(bits.value(6), 0x3C01);
}

TEST(ArrowJson, Decimals) {
  EXPECT_EQ(read_column(field(R"({"name": "decimal", "precision": 5, "scale": 2, "bitWidth": 32})"),
                        3, column(3, R"("VALIDITY": [1, 1, 0], "DATA": ["12345", "-5", "0"])"))
                .to_string(),
            "[123.45 -0.05 null]");
  EXPECT_EQ(
      read_column(field(R"({"name": "decimal", "precision": 18, "scale": 0, "bitWidth": 64})"), 2,
                  column(2, R"("VALIDITY": [1, 1], "DATA": ["-999999999999999999", "7"])"))
          .to_string(),
      "[-999999999999999999 7]");
  // No bitWidth: decimal128.
  const Array wide =
      read_column(field(R"({"name": "decimal", "precision": 38, "scale": 3})"), 2,
                  column(2, R"("VALIDITY": [1, 1], "DATA": ["18446744073709551617", "-1"])"));
  EXPECT_EQ(wide.type()->to_string(), "decimal128(38, 3)");
  EXPECT_EQ(wide.to_string(), "[18446744073709551.617 -0.001]");
  EXPECT_EQ(
      read_column(
          field(R"({"name": "decimal", "precision": 76, "scale": 0, "bitWidth": 256})"), 2,
          column(
              2,
              R"("VALIDITY": [1, 1], "DATA": ["-9999999999999999999999999999999999999999999999999999999999999999999999999999", "123"])"))
          .to_string(),
      "[-9999999999999999999999999999999999999999999999999999999999999999999999999999 123]");
  const std::string too_wide = error_message<FormatError>([] {
    read_column(field(R"({"name": "decimal", "precision": 9, "scale": 0, "bitWidth": 32})"), 1,
                column(1, R"("VALIDITY": [1], "DATA": ["2147483648"])"));
  });
  EXPECT_NE(too_wide.find("DATA[0]: decimal value 2147483648 does not fit 32 bits"),
            std::string::npos)
      << too_wide;
}

TEST(ArrowJson, DatesTimesAndDurations) {
  EXPECT_EQ(read_column(field(R"({"name": "date", "unit": "DAY"})"), 2,
                        column(2, R"("VALIDITY": [1, 0], "DATA": [19753, 0])"))
                .to_string(),
            "[2024-01-31 null]");
  EXPECT_EQ(read_column(field(R"({"name": "date", "unit": "MILLISECOND"})"), 1,
                        column(1, R"("VALIDITY": [1], "DATA": ["1706659200000"])"))
                .to_string(),
            "[2024-01-31]");
  EXPECT_EQ(read_column(field(R"({"name": "time", "unit": "MILLISECOND", "bitWidth": 32})"), 1,
                        column(1, R"("VALIDITY": [1], "DATA": [45296789])"))
                .to_string(),
            "[12:34:56.789]");
  EXPECT_EQ(read_column(field(R"({"name": "time", "unit": "NANOSECOND", "bitWidth": 64})"), 1,
                        column(1, R"("VALIDITY": [1], "DATA": ["86399999999999"])"))
                .to_string(),
            "[23:59:59.999999999]");
  const Array stamps =
      read_column(field(R"({"name": "timestamp", "unit": "SECOND", "timezone": "UTC"})"), 1,
                  column(1, R"("VALIDITY": [1], "DATA": ["1706704496"])"));
  EXPECT_EQ(stamps.type()->to_string(), "timestamp[s, tz=UTC]");
  EXPECT_EQ(stamps.to_string(), "[2024-01-31T12:34:56Z]");
  EXPECT_EQ(read_column(field(R"({"name": "timestamp", "unit": "MICROSECOND"})"), 1,
                        column(1, R"("VALIDITY": [1], "DATA": ["1706704496789012"])"))
                .to_string(),
            "[2024-01-31T12:34:56.789012]");
  EXPECT_EQ(read_column(field(R"({"name": "duration", "unit": "MILLISECOND"})"), 2,
                        column(2, R"("VALIDITY": [1, 0], "DATA": ["-1500", "0"])"))
                .to_string(),
            "[-1500ms null]");
}

TEST(ArrowJson, Intervals) {
  EXPECT_EQ(read_column(field(R"({"name": "interval", "unit": "YEAR_MONTH"})"), 2,
                        column(2, R"("VALIDITY": [1, 1], "DATA": [14, -1])"))
                .to_string(),
            "[14M -1M]");
  EXPECT_EQ(read_column(field(R"({"name": "interval", "unit": "DAY_TIME"})"), 2,
                        column(2, R"("VALIDITY": [1, 0],
                                     "DATA": [{"days": 1, "milliseconds": 2},
                                              {"days": 0, "milliseconds": 0}])"))
                .to_string(),
            "[1d2ms null]");
  EXPECT_EQ(read_column(field(R"({"name": "interval", "unit": "MONTH_DAY_NANO"})"), 2,
                        column(2, R"("VALIDITY": [1, 1],
                                     "DATA": [{"months": 1, "days": 2, "nanoseconds": 3},
                                              {"months": -1, "days": 0,
                                               "nanoseconds": -8901258854880139867}])"))
                .to_string(),
            "[1M2d3ns -1M0d-8901258854880139867ns]");
}

TEST(ArrowJson, StringsAndBinaries) {
  EXPECT_EQ(read_column(field(R"({"name": "utf8"})"), 3,
                        column(3, R"("VALIDITY": [1, 0, 1], "OFFSET": [0, 6, 6, 9],
                                     "DATA": ["h\u00e9llo", "", "abc"])"))
                .to_string(),
            R"(["héllo" null "abc"])");
  EXPECT_EQ(read_column(field(R"({"name": "binary"})"), 2,
                        column(2, R"("VALIDITY": [1, 1], "OFFSET": [0, 3, 3],
                                     "DATA": ["00FF41", ""])"))
                .to_string(),
            R"(["\x00\xffA" ""])");
  EXPECT_EQ(read_column(field(R"({"name": "largeutf8"})"), 2,
                        column(2, R"("VALIDITY": [1, 1], "OFFSET": ["0", "1", "3"],
                                     "DATA": ["a", "bc"])"))
                .to_string(),
            R"(["a" "bc"])");
  EXPECT_EQ(read_column(field(R"({"name": "largebinary"})"), 1,
                        column(1, R"("VALIDITY": [1], "OFFSET": ["0", "2"], "DATA": ["abcd"])"))
                .to_string(),
            R"(["\xab\xcd"])");
  EXPECT_EQ(read_column(field(R"({"name": "fixedsizebinary", "byteWidth": 3})"), 2,
                        column(2, R"("VALIDITY": [1, 0], "DATA": ["010203", "000000"])"))
                .to_string(),
            "[010203 null]");
  // An empty array may give no offsets at all.
  EXPECT_EQ(read_column(field(R"({"name": "utf8"})"), 0,
                        column(0, R"("VALIDITY": [], "OFFSET": [], "DATA": [])"))
                .to_string(),
            "[]");
  EXPECT_NE(error_message<FormatError>([] {
              read_column(field(R"({"name": "utf8"})"), 2,
                          column(2, R"("VALIDITY": [1, 1], "OFFSET": [0, 1, 2],
                                       "DATA": ["a", "bc"])"));
            }).find("batch 0 column 'f' DATA[1]: 2 bytes where OFFSET gives 1"),
            std::string::npos);
}

TEST(ArrowJson, ViewsAreBuiltAsWritten) {
  // Inline values: UTF-8 text for utf8_view, hex for binary_view. Longer ones: a prefix and a
  // place in a variadic data buffer (always hex).
  const Array strings =
      read_column(field(R"({"name": "utf8view"})"), 3, column(3, R"("VALIDITY": [1, 0, 1],
                   "VIEWS": [{"SIZE": 2, "INLINED": "\u00e9"},
                             {"SIZE": 0, "INLINED": ""},
                             {"SIZE": 13, "PREFIX_HEX": "61626364", "BUFFER_INDEX": 1,
                              "OFFSET": 2}],
                   "VARIADIC_DATA_BUFFERS": ["", "78786162636465666768696A6B6C6D",
                                             "6E6F"])"));
  EXPECT_EQ(strings.type()->to_string(), "string_view");
  EXPECT_EQ(strings.to_string(), "[\"é\" null \"abcdefghijklm\"]");
  EXPECT_EQ(strings.data()->buffers.size(), 5u);  // validity, views and three data buffers
  const Array binaries =
      read_column(field(R"({"name": "binaryview"})"), 1, column(1, R"("VALIDITY": [1],
                   "VIEWS": [{"SIZE": 2, "INLINED": "FF00"}], "VARIADIC_DATA_BUFFERS": [])"));
  EXPECT_EQ(binaries.to_string(), R"(["\xff\x00"])");
}

TEST(ArrowJson, ViewsReferToTheirBuffersExactly) {
  const Array strings =
      read_column(field(R"({"name": "utf8view"})"), 1, column(1, R"("VALIDITY": [1],
                   "VIEWS": [{"SIZE": 13, "PREFIX_HEX": "61626364", "BUFFER_INDEX": 0,
                              "OFFSET": 0}],
                   "VARIADIC_DATA_BUFFERS": ["6162636465666768696A6B6C6D"])"));
  const BinaryViewArray views(strings);
  EXPECT_EQ(views.num_data_buffers(), 1);
  EXPECT_EQ(views.view(0).ref.buffer_index, 0);
  EXPECT_EQ(views.value(0), "abcdefghijklm");
}

TEST(ArrowJson, Lists) {
  const std::string item = R"({"name": "item", "nullable": true,
                              "type": {"name": "int", "isSigned": true, "bitWidth": 32},
                              "children": []})";
  const std::string items = R"({"name": "item", "count": 4, "VALIDITY": [1, 1, 0, 1],
                               "DATA": [1, 2, 0, 4]})";
  EXPECT_EQ(read_column(field(R"({"name": "list"})", item), 3,
                        column(3, R"("VALIDITY": [1, 0, 1], "OFFSET": [0, 2, 2, 4],
                                     "children": [)" +
                                      items + "]"))
                .to_string(),
            "[[1 2] null [null 4]]");
  const Array large = read_column(field(R"({"name": "largelist"})", item), 2,
                                  column(2, R"("VALIDITY": [1, 1], "OFFSET": ["0", "3", "4"],
                                               "children": [)" +
                                                items + "]"));
  EXPECT_EQ(large.type()->to_string(), "large_list<item: int32>");
  EXPECT_EQ(large.to_string(), "[[1 2 null] [4]]");
  EXPECT_EQ(read_column(field(R"({"name": "listview"})", item), 3,
                        column(3, R"("VALIDITY": [1, 1, 0], "OFFSET": [3, 0, 0],
                                     "SIZE": [1, 2, 0], "children": [)" +
                                      items + "]"))
                .to_string(),
            "[[4] [1 2] null]");
  EXPECT_EQ(read_column(field(R"({"name": "largelistview"})", item), 1,
                        column(1, R"("VALIDITY": [1], "OFFSET": ["1"], "SIZE": ["3"],
                                     "children": [)" +
                                      items + "]"))
                .to_string(),
            "[[2 null 4]]");
  const Array fixed = read_column(field(R"({"name": "fixedsizelist", "listSize": 2})", item), 2,
                                  column(2, R"("VALIDITY": [1, 0], "children": [)" + items + "]"));
  EXPECT_EQ(fixed.type()->to_string(), "fixed_size_list<item: int32>[2]");
  EXPECT_EQ(fixed.to_string(), "[[1 2] null]");
}

TEST(ArrowJson, StructsAndMaps) {
  const std::string children = R"({"name": "a", "nullable": true,
        "type": {"name": "int", "isSigned": true, "bitWidth": 16}, "children": []},
      {"name": "b", "nullable": false, "type": {"name": "utf8"}, "children": []})";
  const Array structs = read_column(field(R"({"name": "struct"})", children), 2,
                                    column(2, R"("VALIDITY": [1, 0], "children": [
          {"name": "a", "count": 2, "VALIDITY": [0, 1], "DATA": [0, 7]},
          {"name": "b", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 2], "DATA": ["x", "y"]}])"));
  EXPECT_EQ(structs.type()->to_string(), "struct<a: int16, b: string not null>");
  EXPECT_EQ(structs.to_string(), R"([{a: null, b: "x"} null])");

  const std::string entries = R"({"name": "entries", "nullable": false, "type": {"name": "struct"},
      "children": [{"name": "key", "nullable": false, "type": {"name": "utf8"}, "children": []},
                   {"name": "value", "nullable": true,
                    "type": {"name": "int", "isSigned": true, "bitWidth": 32},
                    "children": []}]})";
  const Array maps =
      read_column(field(R"({"name": "map", "keysSorted": false})", entries), 3,
                  column(3, R"("VALIDITY": [1, 0, 1], "OFFSET": [0, 2, 2, 3], "children": [
          {"name": "entries", "count": 3, "VALIDITY": [1, 1, 1], "children": [
            {"name": "key", "count": 3, "VALIDITY": [1, 1, 1], "OFFSET": [0, 1, 2, 3],
             "DATA": ["k", "j", "z"]},
            {"name": "value", "count": 3, "VALIDITY": [1, 1, 0], "DATA": [1, 2, 0]}]}])"));
  EXPECT_EQ(maps.type()->to_string(), "map<string, int32>");
  EXPECT_EQ(maps.to_string(), R"([{"k": 1, "j": 2} null {"z": null}])");
}

TEST(ArrowJson, Unions) {
  const std::string children = R"({"name": "i", "nullable": true,
        "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "children": []},
      {"name": "s", "nullable": true, "type": {"name": "utf8"}, "children": []})";
  const Array sparse =
      read_column(field(R"({"name": "union", "mode": "SPARSE", "typeIds": [5, 7]})", children), 3,
                  column(3, R"("TYPE_ID": [5, 7, 5], "children": [
          {"name": "i", "count": 3, "VALIDITY": [1, 0, 0], "DATA": [1, 0, 0]},
          {"name": "s", "count": 3, "VALIDITY": [0, 1, 0], "OFFSET": [0, 0, 1, 1],
           "DATA": ["", "x", ""]}])"));
  EXPECT_EQ(sparse.type()->to_string(), "sparse_union<i: int32=5, s: string=7>");
  EXPECT_EQ(sparse.to_string(), R"([1 "x" null])");
  const Array dense =
      read_column(field(R"({"name": "union", "mode": "DENSE", "typeIds": [0, 1]})", children), 4,
                  column(4, R"("TYPE_ID": [1, 0, 0, 0], "OFFSET": [0, 0, 1, 2], "children": [
          {"name": "i", "count": 3, "VALIDITY": [1, 0, 1], "DATA": [10, 0, 20]},
          {"name": "s", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["a"]}])"));
  EXPECT_EQ(dense.to_string(), R"(["a" 10 null 20])");
  // Old files give unions a validity bitmap: accepted when every slot is valid.
  EXPECT_EQ(read_column(field(R"({"name": "union", "mode": "DENSE", "typeIds": [0, 1]})", children),
                        1, column(1, R"("VALIDITY": [1], "TYPE_ID": [0], "OFFSET": [0],
                                        "children": [
          {"name": "i", "count": 1, "VALIDITY": [1], "DATA": [3]},
          {"name": "s", "count": 0, "VALIDITY": [], "OFFSET": [0], "DATA": []}])"))
                .to_string(),
            "[3]");
}

TEST(ArrowJson, RunEndEncoded) {
  const Array runs = read_column(field(R"({"name": "runendencoded"})", R"(
          {"name": "run_ends", "nullable": false,
           "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "children": []},
          {"name": "values", "nullable": true,
           "type": {"name": "int", "isSigned": true, "bitWidth": 64}, "children": []})"),
                                 5, column(5, R"("children": [
          {"name": "run_ends", "count": 3, "VALIDITY": [1, 1, 1], "DATA": [2, 3, 5]},
          {"name": "values", "count": 3, "VALIDITY": [1, 0, 1], "DATA": ["1", "0", "3"]}])"));
  EXPECT_EQ(runs.type()->to_string(), "run_end_encoded<run_ends: int32, values: int64>");
  EXPECT_EQ(runs.to_string(), "[1 1 null 3 3]");
}

TEST(ArrowJson, NullArrays) {
  const Array nulls = read_column(field(R"({"name": "null"})"), 3, column(3, R"("name": "f")"));
  EXPECT_EQ(nulls.type()->to_string(), "null");
  EXPECT_EQ(nulls.to_string(), "[null null null]");
}

TEST(ArrowJson, Dictionaries) {
  const std::string json = R"({
    "schema": {"fields": [
      {"name": "a", "nullable": true, "type": {"name": "utf8"}, "children": [],
       "dictionary": {"id": 3, "indexType": {"name": "int", "isSigned": true, "bitWidth": 8},
                      "isOrdered": true}},
      {"name": "b", "nullable": true, "type": {"name": "utf8"}, "children": [],
       "dictionary": {"id": 3, "indexType": {"name": "int", "isSigned": false, "bitWidth": 16},
                      "isOrdered": false}}]},
    "dictionaries": [{"id": 3, "data": {"count": 2, "columns": [
      {"name": "DICT3", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 3, 6],
       "DATA": ["foo", "bar"]}]}}],
    "batches": [{"count": 3, "columns": [
      {"name": "a", "count": 3, "VALIDITY": [1, 0, 1], "DATA": [1, 0, 0]},
      {"name": "b", "count": 3, "VALIDITY": [1, 1, 1], "DATA": [0, 0, 1]}]}]})";
  const JsonIntegrationData data = parse_json_integration(json);
  ASSERT_EQ(data.batches.size(), 1u);
  const RecordBatch& batch = data.batches[0];
  EXPECT_EQ(batch.column(0).type()->to_string(),
            "dictionary<values=string, indices=int8, ordered=1>");
  EXPECT_EQ(batch.column(0).to_string(), R"(["bar" null "foo"])");
  EXPECT_EQ(batch.column(1).type()->to_string(),
            "dictionary<values=string, indices=uint16, ordered=0>");
  EXPECT_EQ(batch.column(1).to_string(), R"(["foo" "foo" "bar"])");
  // Both columns share one dictionary.
  EXPECT_EQ(batch.column(0).data()->dictionary, batch.column(1).data()->dictionary);
  ASSERT_EQ(data.dictionaries.size(), 1u);
  EXPECT_EQ(data.dictionaries.at(3).to_string(), R"(["foo" "bar"])");
}

TEST(ArrowJson, NestedDictionaries) {
  // Dictionary 1 holds lists of values encoded with dictionary 0; it is listed first.
  const std::string json = R"({
    "schema": {"fields": [
      {"name": "lists", "nullable": true, "type": {"name": "list"},
       "dictionary": {"id": 1, "indexType": {"name": "int", "isSigned": true, "bitWidth": 32},
                      "isOrdered": false},
       "children": [{"name": "item", "nullable": true, "type": {"name": "utf8"}, "children": [],
                     "dictionary": {"id": 0, "indexType": {"name": "int", "isSigned": true,
                                                           "bitWidth": 8},
                                    "isOrdered": false}}]}]},
    "dictionaries": [
      {"id": 1, "data": {"count": 2, "columns": [
        {"name": "DICT1", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 2, 3], "children": [
          {"name": "item", "count": 3, "VALIDITY": [1, 0, 1], "DATA": [1, 0, 0]}]}]}},
      {"id": 0, "data": {"count": 2, "columns": [
        {"name": "DICT0", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 2],
         "DATA": ["x", "y"]}]}}],
    "batches": [{"count": 3, "columns": [
      {"name": "lists", "count": 3, "VALIDITY": [1, 1, 0], "DATA": [1, 0, 0]}]}]})";
  const JsonIntegrationData data = parse_json_integration(json);
  const Array& lists = data.batches.at(0).column(0);
  EXPECT_EQ(lists.type()->to_string(),
            "dictionary<values=list<item: dictionary<values=string, indices=int8, ordered=0>>, "
            "indices=int32, ordered=0>");
  EXPECT_EQ(lists.to_string(), R"([["x"] ["y" null] null])");
}

TEST(ArrowJson, ExtensionTypesAndMetadata) {
  const std::string json = R"({
    "schema": {
      "fields": [
        {"name": "uuid", "nullable": true, "type": {"name": "fixedsizebinary", "byteWidth": 2},
         "children": [],
         "metadata": [{"key": "ARROW:extension:name", "value": "my.uuid"},
                      {"key": "ARROW:extension:metadata", "value": "params"},
                      {"key": "other", "value": "kept"}]},
        {"name": "labels", "nullable": true, "type": {"name": "utf8"}, "children": [],
         "dictionary": {"id": 0, "indexType": {"name": "int", "isSigned": true, "bitWidth": 8},
                        "isOrdered": false},
         "metadata": [{"key": "ARROW:extension:name", "value": "dict-ext"}]}],
      "metadata": [{"key": "schema_key", "value": "schema_value"}]},
    "dictionaries": [{"id": 0, "data": {"count": 1, "columns": [
      {"name": "DICT0", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["x"]}]}}],
    "batches": [{"count": 2, "columns": [
      {"name": "uuid", "count": 2, "VALIDITY": [1, 0], "DATA": ["ABCD", "0000"]},
      {"name": "labels", "count": 2, "VALIDITY": [0, 1], "DATA": [0, 0]}]}]})";
  const JsonIntegrationData data = parse_json_integration(json);
  const Schema& schema = *data.schema;
  EXPECT_EQ(schema.metadata(), (Metadata{{"schema_key", "schema_value"}}));
  EXPECT_EQ(schema.field(0)->type()->to_string(),
            "extension<my.uuid, storage=fixed_size_binary[2]>");
  EXPECT_EQ(type_cast<ExtensionType>(*schema.field(0)->type()).serialized(), "params");
  // The extension keys move into the type; other metadata stays on the field.
  EXPECT_EQ(schema.field(0)->metadata(), (Metadata{{"other", "kept"}}));
  EXPECT_EQ(schema.field(1)->type()->to_string(),
            "extension<dict-ext, storage=dictionary<values=string, indices=int8, ordered=0>>");
  EXPECT_TRUE(schema.field(1)->metadata().empty());
  EXPECT_EQ(data.batches.at(0).column(0).to_string(), "[abcd null]");
  EXPECT_EQ(data.batches.at(0).column(1).to_string(), R"([null "x"])");
}

TEST(ArrowJson, SeveralBatchesAndNone) {
  const std::string field_json =
      R"({"name": "x", "nullable": false, "type": {"name": "int", "isSigned": true,
          "bitWidth": 32}, "children": [], "metadata": [{"key": "k", "value": "v"}]})";
  const JsonIntegrationData none =
      parse_json_integration(R"({"schema": {"fields": [)" + field_json + R"(]}, "batches": []})");
  EXPECT_TRUE(none.batches.empty());
  EXPECT_EQ(none.schema->field(0)->to_string(), "x: int32 not null");
  EXPECT_EQ(none.schema->field(0)->metadata(), (Metadata{{"k", "v"}}));
  const JsonIntegrationData two =
      parse_json_integration(R"({"schema": {"fields": [)" + field_json + R"(]}, "batches": [
        {"count": 1, "columns": [{"name": "x", "count": 1, "VALIDITY": [1], "DATA": [1]}]},
        {"count": 2, "columns": [{"name": "x", "count": 2, "VALIDITY": [1, 1], "DATA": [2, 3]}]}]})");
  ASSERT_EQ(two.batches.size(), 2u);
  EXPECT_EQ(two.batches[1].num_rows(), 2);
  EXPECT_EQ(two.batches[1].column(0).to_string(), "[2 3]");
}

TEST(ArrowJson, MalformedDocumentsNameTheProblem) {
  const auto message = [](const std::string& json) {
    return error_message<FormatError>([&] { parse_json_integration(json); });
  };
  EXPECT_NE(message("{").find("not valid JSON"), std::string::npos);
  EXPECT_NE(message(R"({"batches": []})").find("missing \"schema\""), std::string::npos);
  EXPECT_NE(message(document(field(R"({"name": "nonsense"})"), 0, column(0, R"("DATA": [])")))
                .find("unknown type \"nonsense\""),
            std::string::npos);
  EXPECT_NE(message(document(field(R"({"name": "int", "isSigned": true, "bitWidth": 8})"), 2,
                             column(2, R"("VALIDITY": [1, 1], "DATA": [1])")))
                .find("DATA has 1 entries, expected 2"),
            std::string::npos);
  EXPECT_NE(message(document(field(R"({"name": "int", "isSigned": true, "bitWidth": 8})"), 1,
                             column(1, R"("VALIDITY": [1], "DATA": [300])")))
                .find("DATA[0]: 300 is not an integer in [-128, 127]"),
            std::string::npos);
  EXPECT_NE(message(document(field(R"({"name": "utf8"})", "",
                                   R"(, "dictionary": {"id": 4, "indexType": {"name": "int",
                                       "isSigned": true, "bitWidth": 8}, "isOrdered": false})"),
                             1, column(1, R"("VALIDITY": [1], "DATA": [0])")))
                .find("dictionary 4 is not in \"dictionaries\""),
            std::string::npos);
  // Structurally readable, but invalid: validate_full catches it.
  const std::string item = R"({"name": "item", "nullable": true,
      "type": {"name": "int", "isSigned": true, "bitWidth": 8}, "children": []})";
  const std::string decreasing =
      message(document(field(R"({"name": "list"})", item), 2,
                       column(2, R"("VALIDITY": [1, 1], "OFFSET": [0, 2, 1], "children": [
                           {"name": "item", "count": 2, "VALIDITY": [1, 1], "DATA": [1, 2]}])")));
  EXPECT_NE(decreasing.find("integration JSON: batch 0: "), std::string::npos) << decreasing;
  EXPECT_NE(decreasing.find("'f'"), std::string::npos) << decreasing;
  EXPECT_NE(message(document(field(R"({"name": "binary"})"), 1,
                             column(1, R"("VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["G0"])")))
                .find("not a hex string"),
            std::string::npos);
}

TEST(ArrowJson, ReadsPlainAndMissingFiles) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("bowstring_arrow_json_test_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream out(path);
    out << document(field(R"({"name": "bool"})"), 1,
                    column(1, R"("VALIDITY": [1], "DATA": [true])"));
  }
  const JsonIntegrationData data = read_json_integration(path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(data.batches.at(0).column(0).to_string(), "[true]");
  EXPECT_NE(
      error_message<IoError>([&] { read_json_integration(path.string()); }).find(path.string()),
      std::string::npos);
}

TEST(ArrowJson, EveryGoldFileParsesAndValidates) {
  BOWSTRING_ARROW_INTEGRATION_DIR_OR_SKIP(dir);
  std::vector<std::filesystem::path> files;
  for (const auto& item : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string name = item.path().filename().string();
    if (name.size() > 8 && name.ends_with(".json.gz")) {
      files.push_back(item.path());
    }
  }
  // arrow-testing holds 91 cases across its versions; a handful would mean the wrong folder.
  EXPECT_GE(files.size(), 80u) << "in " << dir;
  for (const std::filesystem::path& file : files) {
    SCOPED_TRACE(file.string());
    const std::string known_issue = gold_file_known_issue(file);
    try {
      if (!known_issue.empty()) {
        // Full validation rejects the data for the known reason; the structure is sound.
        const std::string message =
            error_message<FormatError>([&] { read_json_integration(file.string()); });
        EXPECT_NE(message.find("digits"), std::string::npos) << message;
      }
      const JsonIntegrationData data =
          read_json_integration(file.string(), {.validate_full = known_issue.empty()});
      EXPECT_GT(data.schema->num_fields(), 0);
      for (const RecordBatch& batch : data.batches) {
        EXPECT_EQ(batch.num_columns(), data.schema->num_fields());
      }
    } catch (const Error& error) {
      ADD_FAILURE() << error.what();
    }
  }
}

}  // namespace
}  // namespace bowstring::testing
