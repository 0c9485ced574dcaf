"""Spark DDL strings parsed into pyarrow schemas (bowstring._ddl)."""

import pyarrow as pa
import pytest

from bowstring._ddl import parse_data_type, parse_schema
from bowstring.errors import BowstringException, ParseException


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
        ("timestamp_ntz", pa.timestamp("us")),
        ("decimal(10,2)", pa.decimal128(10, 2)),
        ("decimal(38, 0)", pa.decimal128(38, 0)),
        ("decimal", pa.decimal128(10, 0)),
        ("dec(5)", pa.decimal128(5, 0)),
        ("numeric(7,7)", pa.decimal128(7, 7)),
        ("void", pa.null()),
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


def test_timestamp_is_in_the_session_time_zone():
    assert parse_data_type("timestamp", "America/New_York") == pa.timestamp(
        "us", tz="America/New_York"
    )
    assert parse_data_type("timestamp_ltz") == pa.timestamp("us", tz="UTC")
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


def error_of(ddl):
    with pytest.raises(ParseException) as info:
        parse_schema(ddl)
    return str(info.value)


def test_unknown_type_names_position_and_token():
    message = error_of("a int, b strin")
    assert "unknown data type 'strin' at position 9" in message
    assert message.endswith("  a int, b strin\n           ^")


def test_missing_comma():
    assert "expected ',' or the end of the DDL string, got 'b' at position 6" in error_of("a int b")


def test_missing_type():
    assert "expected a data type for column 'a', got end of input at position 1" in error_of("a")
    assert "for column 'a', got ','" in error_of("a, b int")


def test_empty_string():
    assert "expected a column definition" in error_of("")


def test_unclosed_and_malformed_nested_types():
    assert "expected '>' to close ARRAY<, got end of input" in error_of("a array<int")
    assert "between the key and value types of MAP, got '>'" in error_of("a map<int>")
    assert "expected a field name, got '>' at position 15" in error_of("a struct<x int,>")
    assert "expected '<' after ARRAY, got ','" in error_of("a array, b int")


def test_decimal_bounds():
    assert "decimal precision 40 is outside 1..38 at position 10" in error_of("a decimal(40,2)")
    assert "decimal scale 6 is larger than its precision 5" in error_of("a decimal(5,6)")
    assert "expected a precision, got 'x'" in error_of("a decimal(x)")


def test_lexical_errors():
    assert "unterminated backtick-quoted name starting at position 2" in error_of("a `b int")
    assert "unterminated string literal" in error_of("a int comment 'x")
    assert "unexpected character ';' at position 5" in error_of("a int;")


def test_not_and_comment_need_their_operands():
    assert "expected NULL after NOT" in error_of("a int not")
    assert "expected a quoted string after COMMENT, got '5'" in error_of("a int comment 5")


def test_unsupported_spark_types():
    assert "unsupported data type 'interval'" in error_of("a interval")
    assert "unsupported data type 'variant'" in error_of("a variant")


def test_data_type_rejects_trailing_tokens():
    with pytest.raises(ParseException, match="expected the end of the data type, got 'x'"):
        parse_data_type("int x")


def test_parse_exception_is_a_value_error_and_a_bowstring_exception():
    with pytest.raises(ValueError):
        parse_schema("a strin")
    with pytest.raises(BowstringException):
        parse_schema("a strin")
