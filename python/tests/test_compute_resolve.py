"""Type resolution that depends on the ANSI flag and on constant arguments, through
bowstring.compute.call.

Peer: DuckDB (TRY_CAST of text as DOUBLE, then DOUBLE arithmetic), which is what Spark does
with ANSI off for a STRING operand of arithmetic. Where no peer computes Spark's answer (error
conditions, result types that depend on a constant scale), the tests hold literal values checked
in PySpark 4 with spark.sql.ansi.enabled true and false.
"""

from __future__ import annotations

import decimal
import random
from typing import Any, List, Optional

import duckdb
import pyarrow as pa
import pytest

from bowstring import compute, errors


def values(result: Any) -> List[Any]:
    """The result of a call as Python values."""
    return pa.array(result).to_pylist()


def result_type(result: Any) -> pa.DataType:
    """The Arrow type of the result of a call."""
    return pa.array(result).type


def assert_close(actual: List[Optional[float]], expected: List[Optional[float]]) -> None:
    """Equal nulls, and values equal to a relative 1e-12."""
    assert [v is None for v in actual] == [v is None for v in expected]
    assert [v for v in actual if v is not None] == pytest.approx(
        [v for v in expected if v is not None], rel=1e-12)


def number_strings(rng: random.Random, count: int) -> List[Optional[str]]:
    """Plain decimal numbers as text, with some malformed values and nulls."""
    out: List[Optional[str]] = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.1:
            out.append(None)
        elif kind < 0.2:
            out.append(rng.choice(["x", "1.2.3", "", "--1"]))
        elif kind < 0.6:
            out.append(str(rng.randint(-10**6, 10**6)))
        else:
            out.append(f"{rng.uniform(-1e4, 1e4):.{rng.randint(0, 6)}f}")
    return out


@pytest.mark.parametrize("operator", ["+", "-", "*", "/"])
def test_string_arithmetic_without_ansi_reads_doubles(operator: str) -> None:
    # Spark, ANSI off: a STRING operand is cast as DOUBLE whatever the other side
    # ('10' + 4 = 14.0, 'x' + 1 = NULL); DuckDB's TRY_CAST(s AS DOUBLE) reads the same text.
    rng = random.Random(7)
    texts = number_strings(rng, 300)
    ints = [rng.choice([None, rng.randint(-1000, 1000) or 1]) for _ in texts]
    operands = pa.table({"s": pa.array(texts, pa.string()), "i": pa.array(ints, pa.int32())})
    query = duckdb.from_arrow(operands).query(
        "operands", f"SELECT TRY_CAST(s AS DOUBLE) {operator} i FROM operands")
    expected = [row[0] for row in query.fetchall()]
    got = compute.call(operator, operands["s"].combine_chunks(), operands["i"].combine_chunks(),
                       ansi=False)
    assert result_type(got) == pa.float64()
    assert_close(values(got), expected)
    # Sliced inputs read the same rows.
    sliced = compute.call(operator, operands["s"].combine_chunks().slice(5),
                          operands["i"].combine_chunks().slice(5), ansi=False)
    assert_close(values(sliced), expected[5:])


def test_string_arithmetic_literals() -> None:
    # Spark, ANSI off: '10' + 4 = 14.0, '10.5' / 4 = 2.625, '1' + '2' = 3.0, '10' % 3 = 1.0,
    # pmod('10', 3) = 1.0, '10' * CAST(2 AS DECIMAL(5,2)) = 20.0 (DOUBLE), NULL + '1' is a
    # DOUBLE NULL, '9223372036854775807' + 1 = 9.223372036854776E18, try_add('10', 4) = 14.0.
    # ANSI on: '10' + 4 = 14 (BIGINT).
    assert values(compute.call("+", pa.array(["10"]), 4, ansi=False)) == [14.0]
    assert values(compute.call("/", pa.array(["10.5"]), 4, ansi=False)) == [2.625]
    assert values(compute.call("+", "1", "2", ansi=False)) == [3.0]
    assert values(compute.call("%", pa.array(["10"]), 3, ansi=False)) == [1.0]
    assert values(compute.call("pmod", pa.array(["10"]), 3, ansi=False)) == [1.0]
    product = compute.call("*", pa.array(["10"]), decimal.Decimal("2.00"), ansi=False)
    assert result_type(product) == pa.float64() and values(product) == [20.0]
    empty = compute.call("+", None, pa.array(["1"], pa.string()).slice(1), ansi=False)
    assert result_type(empty) == pa.float64() and values(empty) == []
    assert values(compute.call("+", pa.array(["9223372036854775807"]), 1, ansi=False)) == [
        9.223372036854776e18]
    assert values(compute.call("try_add", pa.array(["10", None]), 4, ansi=False)) == [14.0, None]
    ansi_sum = compute.call("+", pa.array(["10"]), 4)
    assert result_type(ansi_sum) == pa.int64() and values(ansi_sum) == [14]


def test_integral_divide_of_a_string_without_ansi_is_refused() -> None:
    # Spark, ANSI off: '10' div 4 is DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES ("DOUBLE" and
    # "BIGINT"); with ANSI on it is 2.
    with pytest.raises(errors.AnalysisException) as raised:
        compute.call("div", pa.array(["10"]), 4, ansi=False)
    assert raised.value.getCondition() == "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES"
    assert '("DOUBLE" and "BIGINT")' in str(raised.value)
    assert values(compute.call("div", pa.array(["10"]), 4)) == [2]


@pytest.mark.parametrize(
    "name, arguments, condition",
    [
        ("not", ["x"], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("not", [pa.array([None], pa.string())], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"),
        ("and", ["x", True], "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES"),
        ("or", ["x", False], "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES"),
        ("and", [None, "x"], "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES"),
        ("and", ["true", "true"], "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE"),
    ],
)
def test_logic_refuses_strings_without_ansi(name: str, arguments: List[Any],
                                            condition: str) -> None:
    # Spark, ANSI off: NOT 'x', NOT CAST(NULL AS STRING), 'x' AND true, 'x' OR false,
    # NULL AND 'x' and 'true' AND 'true' fail analysis with these conditions. ANSI on casts the
    # strings as BOOLEAN: NOT 'true' = false, 'x' AND true raises CAST_INVALID_INPUT.
    with pytest.raises(errors.AnalysisException) as raised:
        compute.call(name, *arguments, ansi=False)
    assert raised.value.getCondition() == condition


def test_logic_casts_strings_with_ansi() -> None:
    assert values(compute.call("not", "true")) == [False]
    with pytest.raises(errors.SparkRuntimeException) as raised:
        compute.call("and", "x", True)
    assert raised.value.getCondition() == "CAST_INVALID_INPUT"
    assert values(compute.call("and", None, True, ansi=False)) == [None]


@pytest.mark.parametrize(
    "source, to",
    [
        (pa.array([1], pa.int32()), "binary"),
        (pa.array([True]), "timestamp"),
        (pa.array([0], pa.timestamp("us", tz="UTC")), "boolean"),
        (pa.array([0], pa.date32()), "boolean"),
    ],
)
def test_casts_allowed_only_without_ansi_are_refused_before_running(source: pa.Array,
                                                                    to: str) -> None:
    # Spark, ANSI on: CAST(1 AS BINARY), CAST(true AS TIMESTAMP), CAST(TIMESTAMP'...' AS
    # BOOLEAN), CAST(DATE'2020-01-01' AS BOOLEAN) fail analysis with
    # DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION, even over no rows; ANSI off they run
    # (CAST(DATE'2020-01-01' AS BOOLEAN) is NULL).
    for rows in (source, source.slice(1)):
        with pytest.raises(errors.AnalysisException) as raised:
            compute.call("cast", rows, to=to)
        assert raised.value.getCondition() == "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION"
        assert "with ANSI mode on" in str(raised.value)
    assert len(values(compute.call("cast", source, to=to, ansi=False))) == 1


@pytest.mark.parametrize(
    "name, scale, expected_type, expected",
    [
        ("round", 2, pa.decimal128(9, 2), ["1.23", "-10.00", None]),
        ("bround", 2, pa.decimal128(9, 2), ["1.23", "-10.00", None]),
        ("floor", 2, pa.decimal128(9, 2), ["1.23", "-10.00", None]),
        ("ceil", 2, pa.decimal128(9, 2), ["1.24", "-9.99", None]),
        ("round", -2, pa.decimal128(7, 0), ["0", "0", None]),
        ("round", 6, pa.decimal128(11, 4), ["1.2346", "-9.9950", None]),
        ("round", decimal.Decimal("1.5"), pa.decimal128(8, 1), ["1.2", "-10.0", None]),
        ("round", "2", pa.decimal128(9, 2), ["1.23", "-10.00", None]),
    ],
)
def test_rounding_type_follows_the_constant_scale(name: str, scale: Any,
                                                  expected_type: pa.DataType,
                                                  expected: List[Optional[str]]) -> None:
    # Spark: typeof(round(CAST(1 AS DECIMAL(10,4)), 2)) = decimal(9,2) (bround, floor, ceil
    # too), scale -2: decimal(7,0), 6: decimal(11,4), 1.5: decimal(8,1) (the scale cast as INT),
    # '2': decimal(9,2); round(CAST(1.23456 AS DECIMAL(10,4)), 2) = 1.23.
    column = pa.array([decimal.Decimal("1.2346"), decimal.Decimal("-9.9950"), None],
                      pa.decimal128(10, 4))
    result = compute.call(name, column, scale)
    assert result_type(result) == expected_type
    assert values(result) == [None if v is None else decimal.Decimal(v) for v in expected]
