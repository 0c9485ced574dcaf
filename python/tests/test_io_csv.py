"""The CSV reader and writer (bowstring._core.read_csv / write_csv) with Spark's options and
parse modes, compared with what pyarrow.csv and DuckDB read from the same files. Where Spark's
documented behaviour differs from theirs, the test says so and asserts Spark's."""

from __future__ import annotations

import datetime
import decimal
import gzip
import math
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.csv as pacsv
import pytest

from bowstring import _core

UTC = datetime.timezone.utc


def write(tmp_path: Path, text: str | bytes, name: str = "data.csv") -> str:
    path = tmp_path / name
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8", newline="")
    else:
        path.write_bytes(text)
    return str(path)


def read(path: str | list[str], options: dict[str, str] | None = None, schema: Any = None,
         columns: list[int] | None = None) -> pa.Table:
    paths = [path] if isinstance(path, str) else path
    return pa.table(_core.read_csv(paths, options or {}, schema, columns))


def duck(path: str, **kwargs: Any) -> pa.Table:
    arguments = ", ".join(f"{key}={value!r}" for key, value in kwargs.items())
    query = f"SELECT * FROM read_csv('{path}'{', ' + arguments if arguments else ''})"
    return duckdb.sql(query).to_arrow_table()


# --- options ---------------------------------------------------------------------------------


def test_header_and_infer_schema_match_pyarrow_and_duckdb(tmp_path: Path) -> None:
    path = write(tmp_path, "id,price,name,day\n1,1.5,ann,2024-01-02\n2,2.25,bob,2024-02-03\n")
    ours = read(path, {"header": "true", "inferSchema": "true"})
    assert ours.schema.types == [pa.int32(), pa.float64(), pa.string(), pa.date32()]
    arrow = pacsv.read_csv(path)
    duckdb_table = duck(path, header=True)
    for name in ["id", "price", "name", "day"]:
        assert ours[name].to_pylist() == arrow[name].to_pylist() == duckdb_table[name].to_pylist()


def test_without_header_columns_are_c0_c1(tmp_path: Path) -> None:
    path = write(tmp_path, "a,b\nc,d\n")
    ours = read(path)
    assert ours.column_names == ["_c0", "_c1"]
    assert ours.to_pydict() == {"_c0": ["a", "c"], "_c1": ["b", "d"]}


def test_without_infer_schema_everything_is_a_string(tmp_path: Path) -> None:
    # pyarrow and DuckDB always infer; Spark reads strings unless inferSchema is set.
    path = write(tmp_path, "n\n1\n2\n")
    assert read(path, {"header": "true"}).schema.types == [pa.string()]


def test_duplicate_and_empty_header_names_as_spark(tmp_path: Path) -> None:
    # Spark appends the index to names that repeat (case-insensitively) and names empty ones
    # _c<i>; DuckDB writes a_1 and column1 instead.
    path = write(tmp_path, "a,A,,b\n1,2,3,4\n")
    assert read(path, {"header": "true"}).column_names == ["a0", "A1", "_c2", "b"]


@pytest.mark.parametrize("key", ["sep", "delimiter", "SEP"])
def test_separator(tmp_path: Path, key: str) -> None:
    path = write(tmp_path, "a|b\n1|2\n")
    ours = read(path, {key: "|", "header": "true"})
    arrow = pacsv.read_csv(path, parse_options=pacsv.ParseOptions(delimiter="|"),
                           convert_options=pacsv.ConvertOptions(column_types={"a": pa.string(),
                                                                              "b": pa.string()}))
    assert ours.to_pydict() == arrow.to_pydict()


def test_tab_separator_written_as_backslash_t(tmp_path: Path) -> None:
    path = write(tmp_path, "a\tb\n")
    assert read(path, {"sep": "\\t"}).to_pydict() == {"_c0": ["a"], "_c1": ["b"]}


def test_quote_and_escape(tmp_path: Path) -> None:
    path = write(tmp_path, "'a,b','it\\'s'\n")
    assert read(path, {"quote": "'"}).to_pydict() == {"_c0": ["a,b"], "_c1": ["it's"]}
    # The empty quote turns quoting off.
    unquoted = read(write(tmp_path, '"a,b"\n', "u.csv"), {"quote": ""})
    assert unquoted.to_pydict() == {"_c0": ['"a'], "_c1": ['b"']}


def test_doubled_quotes_with_escape_set_to_the_quote(tmp_path: Path) -> None:
    path = write(tmp_path, 'x,"say ""hi"""\n')
    ours = read(path, {"escape": '"'})
    arrow = pacsv.read_csv(path, read_options=pacsv.ReadOptions(autogenerate_column_names=True))
    assert ours["_c1"].to_pylist() == arrow["f1"].to_pylist() == ['say "hi"']


def test_comment_lines_are_skipped(tmp_path: Path) -> None:
    path = write(tmp_path, "#c\na\n#d\nb\n")
    assert read(path, {"comment": "#"})["_c0"].to_pylist() == ["a", "b"]


def test_null_value_empty_value_and_nan_inf(tmp_path: Path) -> None:
    path = write(tmp_path, 'NA,"",x,NaN\n1,,y,Inf\n2,"",z,-Inf\n')
    ours = read(path, {"nullValue": "NA", "emptyValue": "<empty>"},
                "a INT, b STRING, c STRING, d DOUBLE")
    assert ours["a"].to_pylist() == [None, 1, 2]
    assert ours["b"].to_pylist() == ["<empty>", None, "<empty>"]
    values = ours["d"].to_pylist()
    assert math.isnan(values[0]) and values[1] == math.inf and values[2] == -math.inf
    custom = read(write(tmp_path, "nan!\nplus\nminus\n", "n.csv"),
                  {"nanValue": "nan!", "positiveInf": "plus", "negativeInf": "minus"}, "d DOUBLE")
    values = custom["d"].to_pylist()
    assert math.isnan(values[0]) and values[1:] == [math.inf, -math.inf]


def test_default_empty_quoted_field_is_null_as_in_spark(tmp_path: Path) -> None:
    # Spark: a quoted empty field is emptyValue (""), which equals the default nullValue (""),
    # so it reads as null. pyarrow (by default) reads it as an empty string.
    path = write(tmp_path, 'a,""\nb,c\n')
    assert read(path)["_c1"].to_pylist() == [None, "c"]
    arrow = pacsv.read_csv(path, read_options=pacsv.ReadOptions(autogenerate_column_names=True))
    assert arrow["f1"].to_pylist() == ["", "c"]


def test_date_and_timestamp_formats(tmp_path: Path) -> None:
    path = write(tmp_path, "31/01/2024,31/01/2024 10:30\n")
    ours = read(path, {"dateFormat": "dd/MM/yyyy", "timestampFormat": "dd/MM/yyyy HH:mm"},
                "d DATE, t TIMESTAMP")
    assert ours["d"].to_pylist() == [datetime.date(2024, 1, 31)]
    assert ours["t"].to_pylist() == [datetime.datetime(2024, 1, 31, 10, 30, tzinfo=UTC)]


def test_timestamp_ntz_format_and_time_zone(tmp_path: Path) -> None:
    path = write(tmp_path, "2024-01-31 10:30:00,2024-01-31 10:30:00\n")
    ours = read(path, {"timeZone": "America/New_York"}, "ltz TIMESTAMP, ntz TIMESTAMP_NTZ")
    assert ours["ltz"].to_pylist() == [datetime.datetime(2024, 1, 31, 15, 30, tzinfo=UTC)]
    assert ours["ntz"].to_pylist() == [datetime.datetime(2024, 1, 31, 10, 30)]
    custom = read(write(tmp_path, "31.01.2024 10:30\n", "n.csv"),
                  {"timestampNTZFormat": "dd.MM.yyyy HH:mm"}, "ntz TIMESTAMP_NTZ")
    assert custom["ntz"].to_pylist() == [datetime.datetime(2024, 1, 31, 10, 30)]


def test_whitespace_options(tmp_path: Path) -> None:
    path = write(tmp_path, "  a  ,  b  \n")
    assert read(path).to_pydict() == {"_c0": ["  a  "], "_c1": ["  b  "]}
    assert read(path, {"ignoreLeadingWhiteSpace": "true"}).to_pydict() == {
        "_c0": ["a  "], "_c1": ["b  "]}
    assert read(path, {"ignoreTrailingWhiteSpace": "true"}).to_pydict() == {
        "_c0": ["  a"], "_c1": ["  b"]}


def test_line_separator(tmp_path: Path) -> None:
    path = write(tmp_path, "a,b;c,d;")
    assert read(path, {"lineSep": ";"}).to_pydict() == {"_c0": ["a", "c"], "_c1": ["b", "d"]}


def test_crlf_and_cr_line_endings_as_duckdb(tmp_path: Path) -> None:
    path = write(tmp_path, "h\r\na\r\nb\r\n")
    assert read(path, {"header": "true"})["h"].to_pylist() == duck(path, header=True)[
        "h"].to_pylist()
    assert read(write(tmp_path, "a\rb\r", "cr.csv"))["_c0"].to_pylist() == ["a", "b"]


def test_multi_line_matches_pyarrow_newlines_in_values(tmp_path: Path) -> None:
    path = write(tmp_path, 'id,text\n1,"two\nlines"\n2,"x"\n')
    ours = read(path, {"header": "true", "multiLine": "true", "inferSchema": "true"})
    arrow = pacsv.read_csv(path, parse_options=pacsv.ParseOptions(newlines_in_values=True))
    assert ours.to_pydict() == arrow.to_pydict()
    # Without multiLine Spark reads line by line: the quoted line break ends the record.
    assert read(path, {"header": "true"}).num_rows == 3


def test_max_columns(tmp_path: Path) -> None:
    path = write(tmp_path, "a,b,c\n")
    table = read(path, {"maxColumns": "2"}, "x STRING, _corrupt_record STRING")
    assert table["_corrupt_record"].to_pylist() == ["a,b,c"]


def test_max_chars_per_column(tmp_path: Path) -> None:
    path = write(tmp_path, "abcdef\nab\n")
    table = read(path, {"maxCharsPerColumn": "3", "mode": "DROPMALFORMED"}, "x STRING")
    assert table["x"].to_pylist() == ["ab"]


def test_sampling_ratio_still_infers_a_type(tmp_path: Path) -> None:
    path = write(tmp_path, "".join(f"{i}\n" for i in range(10000)))
    table = read(path, {"inferSchema": "true", "samplingRatio": "0.1"})
    assert table.schema.types == [pa.int32()]
    assert table.num_rows == 10000


def test_unescaped_quote_handling(tmp_path: Path) -> None:
    path = write(tmp_path, '"a"b,c\n')
    expected = {"STOP_AT_DELIMITER": 'a"b', "BACK_TO_DELIMITER": '"a"b', "SKIP_VALUE": None,
                "STOP_AT_CLOSING_QUOTE": 'a"b,c\n'}
    for handling, value in expected.items():
        options = {"unescapedQuoteHandling": handling}
        if handling == "STOP_AT_CLOSING_QUOTE":
            options["multiLine"] = "true"
        assert read(path, options)["_c0"].to_pylist()[0] == value, handling
    raised = read(path, {"unescapedQuoteHandling": "RAISE_ERROR", "mode": "DROPMALFORMED"})
    assert raised.num_rows == 0


def test_enforce_schema_false_checks_the_header(tmp_path: Path) -> None:
    path = write(tmp_path, "x,y\n1,2\n")
    with pytest.raises(ValueError, match="CSV header does not conform to the schema"):
        read(path, {"header": "true", "enforceSchema": "false"}, "a INT, b INT")
    # enforceSchema true (the default) takes the schema and ignores the header's names.
    assert read(path, {"header": "true"}, "a INT, b INT").to_pydict() == {"a": [1], "b": [2]}


@pytest.mark.parametrize("options, fragment", [
    ({"mode": "lenient"}, "'mode' has the invalid value 'lenient'"),
    ({"inferSchema": "maybe"}, "'inferSchema' has the invalid value 'maybe'"),
    ({"encoding": "ISO-8859-1"}, "only UTF-8"),
    ({"charset": "UTF-16"}, "only UTF-8"),
    ({"locale": "de-DE"}, "only en-US"),
    ({"samplingRatio": "2"}, "samplingRatio"),
    ({"unescapedQuoteHandling": "nope"}, "unescapedQuoteHandling"),
    ({"lineSep": "ab"}, "lineSep"),
    ({"compression": "lzo"}, "none, gzip or zstd"),
])
def test_bad_option_values_name_option_and_value(tmp_path: Path, options: dict[str, str],
                                                 fragment: str) -> None:
    path = write(tmp_path, "a\n")
    with pytest.raises(ValueError, match=fragment):
        read(path, options)


def test_projection_returns_the_columns_asked_for(tmp_path: Path) -> None:
    path = write(tmp_path, "1,x,bad\n2,y,worse\n")
    # The third column is never converted, so FAILFAST does not see its bad values.
    table = read(path, {"mode": "FAILFAST"}, "a INT, b STRING, c INT", columns=[1, 0])
    assert table.to_pydict() == {"b": ["x", "y"], "a": [1, 2]}


def test_several_files_in_order(tmp_path: Path) -> None:
    first = write(tmp_path, "n\n1\n2\n", "a.csv")
    second = write(tmp_path, "n\n3\n", "b.csv")
    table = read([first, second], {"header": "true", "inferSchema": "true"})
    assert table["n"].to_pylist() == [1, 2, 3]


def test_compressed_files_are_read_by_their_suffix(tmp_path: Path) -> None:
    path = write(tmp_path, gzip.compress(b"a,b\n1,2\n"), "data.csv.gz")
    assert read(path, {"header": "true"}).to_pydict() == duck(path, header=True,
                                                              all_varchar=True).to_pydict()


# --- modes -----------------------------------------------------------------------------------

MALFORMED = "1,a\nx,b\n3\n4,d,extra\n5,e\n"


def test_permissive_fills_the_corrupt_record_column(tmp_path: Path) -> None:
    # Spark 3+: too few and too many fields are malformed too; PERMISSIVE keeps what parses
    # up to the first bad field (UnivocityParser leaves the fields after it null).
    path = write(tmp_path, MALFORMED)
    table = read(path, {}, "n INT, s STRING, _corrupt_record STRING")
    assert table.to_pydict() == {
        "n": [1, None, 3, 4, 5],
        "s": ["a", None, None, "d", "e"],
        "_corrupt_record": [None, "x,b", "3", "4,d,extra", None],
    }
    renamed = read(path, {"columnNameOfCorruptRecord": "bad"}, "n INT, s STRING, bad STRING")
    assert renamed["bad"].to_pylist()[1] == "x,b"


def test_permissive_without_corrupt_column_nulls_bad_fields(tmp_path: Path) -> None:
    path = write(tmp_path, MALFORMED)
    assert read(path, {}, "n INT, s STRING")["n"].to_pylist() == [1, None, 3, 4, 5]


def test_drop_malformed(tmp_path: Path) -> None:
    path = write(tmp_path, MALFORMED)
    table = read(path, {"mode": "DROPMALFORMED"}, "n INT, s STRING")
    assert table.to_pydict() == {"n": [1, 5], "s": ["a", "e"]}


def test_fail_fast_names_file_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, MALFORMED)
    with pytest.raises(ValueError, match=r"MALFORMED_RECORD_IN_PARSING.*data.csv' at line 2: "
                                         r"column 1 \('n'\): cannot read 'x' as INT"):
        read(path, {"mode": "FAILFAST"}, "n INT, s STRING")


def test_numbers_out_of_range_follow_the_mode(tmp_path: Path) -> None:
    path = write(tmp_path, "2147483648\n1\n")
    assert read(path, {}, "n INT")["n"].to_pylist() == [None, 1]
    assert read(path, {"inferSchema": "true"}).schema.types == [pa.int64()]
    with pytest.raises(ValueError, match="cannot read '2147483648' as INT"):
        read(path, {"mode": "FAILFAST"}, "n INT")
    decimal_path = write(tmp_path, "123.456\n", "d.csv")
    # Rounded HALF_UP to the scale, as Spark's Decimal.set does; too many digits then: null.
    assert read(decimal_path, {}, "d DECIMAL(4,1)")["d"].to_pylist() == [decimal.Decimal("123.5")]
    assert read(decimal_path, {}, "d DECIMAL(3,1)")["d"].to_pylist() == [None]
    assert read(decimal_path, {}, "d DECIMAL(6,2)")["d"].to_pylist() == [decimal.Decimal("123.46")]


# --- bad input -------------------------------------------------------------------------------


def test_invalid_utf8_is_replaced_as_spark_decodes_it(tmp_path: Path) -> None:
    # Spark decodes UTF-8 with Java's decoder, which replaces malformed bytes with U+FFFD;
    # pyarrow reads such columns as binary instead.
    path = write(tmp_path, b"ok,\xff\n\xc3\xa9t\xe9,x\n")
    table = read(path)
    assert table.to_pydict() == {"_c0": ["ok", "\u00e9t\ufffd"], "_c1": ["\ufffd", "x"]}
    table.validate(full=True)
    arrow = pacsv.read_csv(path, read_options=pacsv.ReadOptions(autogenerate_column_names=True))
    assert arrow.schema.types == [pa.binary(), pa.binary()]
    corrupt = read(path, {}, "a INT, _corrupt_record STRING")
    assert corrupt["_corrupt_record"].to_pylist() == ["ok,\ufffd", "\u00e9t\ufffd,x"]


def test_truncated_and_unclosed_input_never_crashes(tmp_path: Path) -> None:
    path = write(tmp_path, 'a,"unclosed\nb,c')
    assert read(path).num_rows == 2
    assert read(path, {"multiLine": "true"}).to_pydict() == {"_c0": ["a"],
                                                             "_c1": ["unclosed\nb,c"]}
    truncated = write(tmp_path, gzip.compress(b"a,b\n" * 1000)[:-20], "t.csv.gz")
    with pytest.raises(OSError, match="t.csv.gz"):
        read(truncated)


def test_missing_file_is_an_os_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="missing.csv"):
        read(str(tmp_path / "missing.csv"))


def test_unsupported_column_type(tmp_path: Path) -> None:
    path = write(tmp_path, "x\n")
    with pytest.raises(NotImplementedError, match="column 'b' of type BINARY"):
        read(path, {}, "b BINARY")


# --- the writer and round trips --------------------------------------------------------------

EVERY_SPARK_TYPE = pa.table({
    "bool": pa.array([True, False, None]),
    "byte": pa.array([1, -128, None], pa.int8()),
    "short": pa.array([2, 32767, None], pa.int16()),
    "int": pa.array([3, -2147483648, None], pa.int32()),
    "long": pa.array([4, 9223372036854775807, None], pa.int64()),
    "float": pa.array([1.5, -0.25, None], pa.float32()),
    "double": pa.array([0.1, 1e300, None], pa.float64()),
    "decimal": pa.array([decimal.Decimal("1.23"), decimal.Decimal("-99999.99"), None],
                        pa.decimal128(7, 2)),
    "string": pa.array(["plain", 'with "quote", comma', None]),
    "date": pa.array([datetime.date(2024, 1, 31), datetime.date(1, 1, 1), None]),
    "timestamp": pa.array([datetime.datetime(2024, 1, 31, 12, 30, 0, 123000, tzinfo=UTC),
                           datetime.datetime(1970, 1, 1, tzinfo=UTC), None],
                          pa.timestamp("us", "UTC")),
    "timestamp_ntz": pa.array([datetime.datetime(2024, 1, 31, 12, 30, 0, 123000),
                               datetime.datetime(2000, 2, 29), None], pa.timestamp("us")),
})


@pytest.mark.parametrize("compression, suffix", [("none", ".csv"), ("gzip", ".csv.gz"),
                                                 ("zstd", ".csv.zst")])
def test_every_spark_type_round_trips(tmp_path: Path, compression: str, suffix: str) -> None:
    path = str(tmp_path / f"out{suffix}")
    _core.write_csv(EVERY_SPARK_TYPE, path, {"header": "true", "compression": compression})
    back = read(path, {"header": "true"}, EVERY_SPARK_TYPE.schema)
    assert back.equals(EVERY_SPARK_TYPE)


def test_written_file_reads_the_same_in_pyarrow_and_duckdb(tmp_path: Path) -> None:
    table = EVERY_SPARK_TYPE.select(["int", "long", "double", "string", "date"])
    path = str(tmp_path / "out.csv")
    _core.write_csv(table, path, {"header": "true", "escape": '"'})
    arrow = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
        column_types=table.schema, strings_can_be_null=True, quoted_strings_can_be_null=False))
    assert arrow.equals(table)
    duck_table = duck(path, header=True, columns={"int": "INTEGER", "long": "BIGINT",
                                                  "double": "DOUBLE", "string": "VARCHAR",
                                                  "date": "DATE"})
    assert duck_table.to_pydict() == table.to_pydict()


def test_writer_formats_as_spark(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    _core.write_csv(EVERY_SPARK_TYPE.slice(0, 1), str(path), {"header": "false"})
    # Spark: Double.toString, BigDecimal.toString, dates as yyyy-MM-dd, timestamps with
    # yyyy-MM-dd'T'HH:mm:ss.SSSXXX in the session zone, quotes escaped with a backslash.
    assert path.read_text() == ('true,1,2,3,4,1.5,0.1,1.23,plain,2024-01-31,'
                                '2024-01-31T12:30:00.123Z,2024-01-31T12:30:00.123\n')
    second = tmp_path / "second.csv"
    _core.write_csv(EVERY_SPARK_TYPE.select(["string"]).slice(1, 2), str(second), {})
    assert second.read_text() == '"with \\"quote\\", comma"\n\n'


def test_writer_options(tmp_path: Path) -> None:
    table = pa.table({"a": ["x", "", None], "d": [datetime.date(2024, 1, 31)] * 3})
    path = tmp_path / "out.csv"
    _core.write_csv(table, str(path), {"header": "true", "sep": ";", "quoteAll": "true",
                                       "nullValue": "NULL", "emptyValue": "EMPTY",
                                       "dateFormat": "dd/MM/yyyy", "lineSep": "\r\n"})
    assert path.read_bytes() == (b'"a";"d"\r\n"x";"31/01/2024"\r\nEMPTY;"31/01/2024"\r\n'
                                 b'NULL;"31/01/2024"\r\n')
    _core.write_csv(pa.table({"t": pa.array([0], pa.timestamp("us", "UTC"))}), str(path),
                    {"timestampFormat": "yyyy/MM/dd HH:mm", "timeZone": "Asia/Tokyo"})
    assert path.read_text() == "1970/01/01 09:00\n"


def test_writer_rejects_binary(tmp_path: Path) -> None:
    with pytest.raises(NotImplementedError, match="BINARY"):
        _core.write_csv(pa.table({"b": pa.array([b"x"])}), str(tmp_path / "o.csv"), {})


def test_large_file_read_in_parallel_matches_pyarrow(tmp_path: Path) -> None:
    lines = ["id,value,name"] + [f'{i},{i * 0.5},"name, {i}"' for i in range(200000)]
    path = write(tmp_path, "\n".join(lines) + "\n")
    ours = read(path, {"header": "true", "inferSchema": "true"})
    arrow = pacsv.read_csv(path)
    assert ours.schema.types == [pa.int32(), pa.float64(), pa.string()]
    assert ours.column("id").to_pylist() == arrow.column("id").to_pylist()
    assert ours.column("name").to_pylist() == arrow.column("name").to_pylist()
    assert ours.column("value").to_pylist() == arrow.column("value").to_pylist()


def test_bad_patterns_and_zones_raise_sparks_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "a\n")
    with pytest.raises(Exception, match="DATETIME_PATTERN_RECOGNITION") as pattern_error:
        read(path, {"dateFormat": "yyyy-ww"}, "a DATE")
    assert type(pattern_error.value).__name__ == "IllegalArgumentException"
    with pytest.raises(Exception, match="INVALID_TIMEZONE"):
        read(path, {"timeZone": "Nowhere/Land"}, "a TIMESTAMP")


def test_utf8_encoding_names_and_en_us_locale_are_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, "é\n")
    for options in [{"encoding": "UTF-8"}, {"charset": "utf8"}, {"locale": "en-US"}]:
        assert read(path, options)["_c0"].to_pylist() == ["é"]
