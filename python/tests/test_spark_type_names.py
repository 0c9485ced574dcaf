"""Spark type names and DDL schemas read by the engine's parser (bowstring._core) into types
that pyarrow takes, and written back in Spark's spelling."""

import pyarrow as pa
import pytest

from bowstring import _core
from bowstring.errors import AnalysisException, BowstringException, ParseException


def parse_data_type(text: str, session_time_zone: str = "UTC") -> pa.DataType:
    return pa.field(_core.parse_spark_type(text, session_time_zone)).type


def parse_schema(text: str, session_time_zone: str = "UTC") -> pa.Schema:
    return pa.schema(_core.parse_spark_schema(text, session_time_zone))


def test_two_columns():
    assert parse_schema("k long, w double") == pa.schema([("k", pa.int64()), ("w", pa.float64())])


@pytest.mark.parametrize(
    "ddl, expected",
    [
        ("boolean", pa.bool_()),
        ("tinyint", pa.int8()),
        ("byte", pa.int8()),
        ("smallint", pa.int16()),
        ("short", pa.int16()),
        ("int", pa.int32()),
        ("integer", pa.int32()),
        ("bigint", pa.int64()),
        ("long", pa.int64()),
        ("float", pa.float32()),
        ("real", pa.float32()),
        ("double", pa.float64()),
        ("string", pa.string()),
        ("varchar(20)", pa.string()),
        ("char(3)", pa.string()),
        ("binary", pa.binary()),
        ("date", pa.date32()),
        ("timestamp", pa.timestamp("us", tz="UTC")),
        ("timestamp_ltz", pa.timestamp("us", tz="UTC")),
        ("timestamp_ntz", pa.timestamp("us")),
        ("decimal(10,2)", pa.decimal128(10, 2)),
        ("decimal(38, 0)", pa.decimal128(38, 0)),
        ("decimal", pa.decimal128(10, 0)),
        ("dec(5)", pa.decimal128(5, 0)),
        ("numeric(7,7)", pa.decimal128(7, 7)),
        ("void", pa.null()),
        ("null", pa.null()),
        ("interval day to second", pa.duration("us")),
        ("interval", pa.month_day_nano_interval()),
        ("array<string>", pa.list_(pa.string())),
        ("array<array<int>>", pa.list_(pa.list_(pa.int32()))),
        ("map<string,int>", pa.map_(pa.string(), pa.int32())),
        ("map<int, array<double>>", pa.map_(pa.int32(), pa.list_(pa.float64()))),
        ("struct<x:int,y:string>", pa.struct([("x", pa.int32()), ("y", pa.string())])),
        ("struct<x int, y string>", pa.struct([("x", pa.int32()), ("y", pa.string())])),
        ("struct<>", pa.struct([])),
        ("BIGINT", pa.int64()),
        ("Array<Long>", pa.list_(pa.int64())),
    ],
)
def test_types(ddl, expected):
    assert parse_data_type(ddl) == expected
    assert parse_schema(f"c {ddl}") == pa.schema([("c", expected)])


def test_interval_types():
    # Spark's Arrow types of its intervals: YearMonthIntervalType is Arrow's month interval
    # (pyarrow has no factory for it), DayTimeIntervalType a duration in microseconds.
    assert str(parse_data_type("interval year to month")) == "month_interval"
    assert str(parse_data_type("INTERVAL MONTH")) == "month_interval"
    assert parse_data_type("interval hour to second") == pa.duration("us")


def test_timestamp_is_in_the_session_time_zone():
    assert parse_data_type("timestamp", "America/New_York") == pa.timestamp(
        "us", tz="America/New_York"
    )
    assert parse_data_type("timestamp_ltz", "+02:00") == pa.timestamp("us", tz="+02:00")
    schema = parse_schema("f timestamp, g timestamp_ntz", "Asia/Tokyo")
    assert schema.field("f").type == pa.timestamp("us", tz="Asia/Tokyo")
    assert schema.field("g").type == pa.timestamp("us")


def test_every_type_of_the_brief_in_one_schema():
    ddl = (
        "a int, b array<string>, c struct<x:int,y:string>, d map<string,int>, "
        "e decimal(10,2), f timestamp, g timestamp_ntz, h date, i binary, j boolean"
    )
    assert parse_schema(ddl, "Europe/Paris") == pa.schema(
        [
            ("a", pa.int32()),
            ("b", pa.list_(pa.string())),
            ("c", pa.struct([("x", pa.int32()), ("y", pa.string())])),
            ("d", pa.map_(pa.string(), pa.int32())),
            ("e", pa.decimal128(10, 2)),
            ("f", pa.timestamp("us", tz="Europe/Paris")),
            ("g", pa.timestamp("us")),
            ("h", pa.date32()),
            ("i", pa.binary()),
            ("j", pa.bool_()),
        ]
    )


def test_names_keep_their_case_and_may_be_quoted():
    schema = parse_schema("Id long, `my col` string, `a``b` int, `int` int")
    assert schema.names == ["Id", "my col", "a`b", "int"]


def test_colon_after_a_column_name():
    assert parse_schema("a: int, b: string") == pa.schema([("a", pa.int32()), ("b", pa.string())])


def test_not_null_and_comment():
    schema = parse_schema("id long NOT NULL COMMENT 'the key', s struct<x: int not null>")
    assert not schema.field("id").nullable
    assert schema.field("id").metadata == {b"comment": b"the key"}
    assert schema.field("s").nullable
    assert not schema.field("s").type.field("x").nullable


def test_nested_closing_angle_brackets():
    assert parse_data_type("map<string,array<map<int,string>>>") == pa.map_(
        pa.string(), pa.list_(pa.map_(pa.int32(), pa.string()))
    )


def error_of(ddl: str) -> ParseException:
    with pytest.raises(ParseException) as info:
        parse_schema(ddl)
    return info.value


def test_unknown_type_names_position_and_token():
    error = error_of("a int, b strin")
    assert error.getCondition() == "UNSUPPORTED_DATATYPE"
    assert str(error) == (
        '[UNSUPPORTED_DATATYPE] Unsupported data type "STRIN". (line 1, pos 9)\n\n'
        "== SQL ==\na int, b strin\n---------^^^"
    )


def test_syntax_errors_name_position_and_token():
    error = error_of("a int b")
    assert error.getCondition() == "PARSE_SYNTAX_ERROR"
    assert str(error).startswith(
        "[PARSE_SYNTAX_ERROR] Syntax error at or near 'b': expected ',' or the end of the "
        "schema. (line 1, pos 6)"
    )
    assert "expected a data type for column 'a'. (line 1, pos 1)" in str(error_of("a"))
    assert "near ',': expected a data type for column 'a'" in str(error_of("a, b int"))
    assert "expected a column definition" in str(error_of(""))


def test_unclosed_and_malformed_nested_types():
    assert "near end of input: expected '>' to close ARRAY<" in str(error_of("a array<int"))
    assert "near '>': expected ',' between the key and value types of MAP" in str(
        error_of("a map<int>")
    )
    assert "near '>': expected a field name. (line 1, pos 15)" in str(error_of("a struct<x int,>"))
    assert "near ',': expected '<' after ARRAY" in str(error_of("a array, b int"))


def test_decimal_bounds():
    error = error_of("a decimal(40,2)")
    assert error.getCondition() == "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION"
    assert "Decimal precision 40 exceeds max precision 38. (line 1, pos 10)" in str(error)
    assert "Decimal scale (6) cannot be greater than precision (5)" in str(
        error_of("a decimal(5,6)")
    )
    assert "near 'x': expected a precision" in str(error_of("a decimal(x)"))


def test_lexical_errors():
    assert "unterminated quoted name. (line 1, pos 2)" in str(error_of("a `b int"))
    assert "unterminated string literal" in str(error_of("a int comment 'x"))
    assert "near ';': unexpected character. (line 1, pos 5)" in str(error_of("a int;"))


def test_not_and_comment_need_their_operands():
    assert "expected NULL after NOT" in str(error_of("a int not"))
    assert "near '5': expected a quoted string after COMMENT" in str(error_of("a int comment 5"))


def test_unsupported_spark_types():
    assert 'Unsupported data type "VARIANT": Bowstring has no Arrow type for it' in str(
        error_of("a variant")
    )
    assert error_of("a interval month to year").getCondition() == "_LEGACY_ERROR_TEMP_0028"


def test_data_type_rejects_trailing_tokens():
    with pytest.raises(ParseException, match="near 'x': expected the end of the data type"):
        parse_data_type("int x")


def test_parse_exception_is_an_analysis_exception_and_a_value_error():
    for expected in (ValueError, AnalysisException, BowstringException):
        with pytest.raises(expected):
            parse_schema("a strin")


def test_printed_names_parse_back():
    types = [
        pa.int64(),
        pa.list_(pa.int32()),
        pa.struct([("a", pa.int32()), ("b c", pa.string())]),
        pa.decimal128(10, 2),
        pa.map_(pa.string(), pa.list_(pa.float64())),
        pa.timestamp("us", tz="UTC"),
        pa.timestamp("us"),
        pa.null(),
        pa.duration("us"),
    ]
    printed = [_core.spark_simple_string(t) for t in types]
    assert printed[:4] == ["bigint", "array<int>", "struct<a:int,`b c`:string>", "decimal(10,2)"]
    for text, expected in zip(printed, types):
        assert parse_data_type(text) == expected, text
    schema = pa.schema(
        [
            pa.field("id", pa.int64(), nullable=False, metadata={"comment": "it's"}),
            pa.field("tags", pa.list_(pa.string())),
        ]
    )
    ddl = _core.spark_schema_ddl(schema)
    assert ddl == "id BIGINT NOT NULL COMMENT 'it\\'s',tags ARRAY<STRING>"
    assert parse_schema(ddl).equals(schema, check_metadata=True)


def test_the_session_time_zone_is_required():
    with pytest.raises(TypeError):
        _core.parse_spark_type("int")


def test_cast_reads_its_type_name_with_the_same_parser():
    from bowstring import compute

    stamps = compute.call(
        "cast", pa.array(["2020-01-05 10:11:12"]), to="timestamp", session_time_zone="Asia/Tokyo"
    )
    assert pa.array(stamps).type == pa.timestamp("us", tz="Asia/Tokyo")
    with pytest.raises(ParseException, match=r"near end of input: expected '>' to close ARRAY<"):
        compute.call("cast", pa.array(["1"]), to="array<int")
