"""Differential tests of the comparison, boolean and conditional functions: results of
``bowstring.compute.call`` on randomized pyarrow data against pyarrow.compute and DuckDB where
their semantics are Spark's, and against literal Spark answers where they are not.

Where the peers differ from Spark (each case is also commented where it is handled):
- pyarrow compares NaN as IEEE does (NaN = NaN is false, NaN < x is false); Spark treats NaN
  as equal to itself and greater than every other value. DuckDB orders NaN as Spark does, so
  float comparisons are checked against DuckDB.
- pyarrow's ``is_in`` says false (or true with ``skip_nulls=False`` only for null values) where
  Spark's ``IN`` says null: a value not found in a list that holds a null. DuckDB's ``IN``
  follows SQL as Spark does.
- pyarrow's ``if_else`` gives null for a null condition; Spark takes the ELSE branch.
- pyarrow's ``is_nan`` gives null for null; Spark's ``isnan(null)`` is false.
"""

from __future__ import annotations

import datetime
import decimal
import math
import random
from typing import Any, Callable, Dict, List, Optional

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from bowstring import compute, errors

ROWS = 517
SEED = 20240605


def result_array(value: Any) -> pa.Array:
    """The result of `compute.call` as a pyarrow array."""
    return pa.array(value)


def same_values(actual: Any, expected: pa.Array) -> bool:
    """Whether the result `actual` has the type and values of `expected`, NaN equal to NaN."""
    result = result_array(actual)
    if result.type != expected.type:
        return False

    def key(value: Any) -> Any:
        return "NaN" if isinstance(value, float) and math.isnan(value) else value

    return [key(v) for v in result.to_pylist()] == [key(v) for v in expected.to_pylist()]


def with_nulls(rng: random.Random, values: List[Any], null_ratio: float = 0.2) -> List[Any]:
    """`values` with about `null_ratio` of them replaced by None."""
    return [None if rng.random() < null_ratio else v for v in values]


def random_column(rng: random.Random, kind: str, rows: int = ROWS) -> pa.Array:
    """A random column of `kind` with nulls and values drawn from a small range, so that equal
    values are frequent. Sliced by 3 so that the data does not start at offset 0."""
    n = rows + 3
    if kind == "int64":
        data = pa.array(with_nulls(rng, [rng.randint(-5, 5) for _ in range(n)]), pa.int64())
    elif kind == "int32":
        data = pa.array(with_nulls(rng, [rng.randint(-5, 5) for _ in range(n)]), pa.int32())
    elif kind == "float64":
        specials = [math.nan, -0.0, 0.0, math.inf, -math.inf, 1.5, -2.25]
        data = pa.array(with_nulls(rng, [rng.choice(specials) for _ in range(n)]), pa.float64())
    elif kind == "string":
        words = ["", "a", "ab", "b", "é", "zz", "a string longer than twelve", "\u00ff"]
        data = pa.array(with_nulls(rng, [rng.choice(words) for _ in range(n)]), pa.string())
    elif kind == "large_string":
        words = ["x", "xy", "y", ""]
        data = pa.array(with_nulls(rng, [rng.choice(words) for _ in range(n)]), pa.large_string())
    elif kind == "binary":
        words = [b"", b"\x00", b"\xff", b"a", b"ab"]
        data = pa.array(with_nulls(rng, [rng.choice(words) for _ in range(n)]), pa.binary())
    elif kind == "bool":
        data = pa.array(with_nulls(rng, [rng.random() < 0.5 for _ in range(n)]), pa.bool_())
    elif kind == "date32":
        base = datetime.date(2024, 1, 1)
        days = [base + datetime.timedelta(days=rng.randint(-3, 3)) for _ in range(n)]
        data = pa.array(with_nulls(rng, days), pa.date32())
    elif kind == "timestamp":
        base = datetime.datetime(2024, 1, 1)
        times = [base + datetime.timedelta(microseconds=rng.randint(-3, 3)) for _ in range(n)]
        data = pa.array(with_nulls(rng, times), pa.timestamp("us", tz="UTC"))
    elif kind == "decimal":
        values = [decimal.Decimal(rng.randint(-300, 300)).scaleb(-2) for _ in range(n)]
        data = pa.array(with_nulls(rng, values), pa.decimal128(10, 2))
    else:
        raise ValueError(kind)
    return data.slice(3)


COMPARISONS: Dict[str, Callable[..., Any]] = {
    "=": pc.equal,
    "!=": pc.not_equal,
    "<": pc.less,
    "<=": pc.less_equal,
    ">": pc.greater,
    ">=": pc.greater_equal,
}

# Types whose comparison pyarrow computes as Spark does (no NaN involved).
PYARROW_COMPARABLE = ["int64", "string", "large_string", "binary", "bool", "date32", "timestamp",
                      "decimal"]


@pytest.mark.parametrize("kind", PYARROW_COMPARABLE)
@pytest.mark.parametrize("op", sorted(COMPARISONS))
def test_comparison_matches_pyarrow(kind: str, op: str) -> None:
    rng = random.Random(f"{SEED}-{kind}-{op}")
    left = random_column(rng, kind)
    right = random_column(rng, kind)
    expected = COMPARISONS[op](left, right)
    assert result_array(compute.call(op, left, right)).equals(expected)
    # Array against scalar, scalar against array.
    scalar = right.drop_null()[0]
    assert result_array(compute.call(op, left, scalar)).equals(COMPARISONS[op](left, scalar))
    assert result_array(compute.call(op, scalar, left)).equals(COMPARISONS[op](scalar, left))


def test_comparison_aliases() -> None:
    rng = random.Random(SEED)
    left = random_column(rng, "int64")
    right = random_column(rng, "int64")
    assert result_array(compute.call("==", left, right)).equals(pc.equal(left, right))
    assert result_array(compute.call("<>", left, right)).equals(pc.not_equal(left, right))


def duckdb_query(sql: str, **columns: pa.Array) -> pa.Array:
    """The single result column of `sql` run by DuckDB over a table of `columns` (named `t`)."""
    table = pa.table(columns)
    connection = duckdb.connect()
    connection.register("t", table)
    return connection.sql(sql).to_arrow_table().column(0).combine_chunks()


@pytest.mark.parametrize("op", sorted(COMPARISONS))
def test_float_comparison_matches_duckdb(op: str) -> None:
    # pyarrow follows IEEE for NaN; DuckDB, like Spark, has NaN = NaN and NaN above +inf.
    rng = random.Random(f"{SEED}-float-{op}")
    left = random_column(rng, "float64")
    right = random_column(rng, "float64")
    expected = duckdb_query(f"select a {op} b from t", a=left, b=right)
    assert result_array(compute.call(op, left, right)).equals(expected)


def test_null_safe_equal_matches_duckdb() -> None:
    rng = random.Random(f"{SEED}-nullsafe")
    for kind in ["int64", "float64", "string", "bool"]:
        left = random_column(rng, kind)
        right = random_column(rng, kind)
        expected = duckdb_query("select a is not distinct from b from t", a=left, b=right)
        assert result_array(compute.call("<=>", left, right)).equals(expected), kind
        assert result_array(compute.call("equal_null", left, right)).equals(expected), kind


def test_kleene_logic_matches_pyarrow() -> None:
    rng = random.Random(f"{SEED}-kleene")
    left = random_column(rng, "bool")
    right = random_column(rng, "bool")
    assert result_array(compute.call("and", left, right)).equals(pc.and_kleene(left, right))
    assert result_array(compute.call("or", left, right)).equals(pc.or_kleene(left, right))
    assert result_array(compute.call("not", left)).equals(pc.invert(left))
    for scalar in [True, False, pa.scalar(None, pa.bool_())]:
        assert result_array(compute.call("and", left, scalar)).equals(
            pc.and_kleene(left, scalar))
        assert result_array(compute.call("or", scalar, left)).equals(pc.or_kleene(scalar, left))


def test_null_tests_match_pyarrow() -> None:
    rng = random.Random(f"{SEED}-nulls")
    for kind in ["int64", "string", "float64", "decimal"]:
        values = random_column(rng, kind)
        assert result_array(compute.call("isnull", values)).equals(pc.is_null(values))
        assert result_array(compute.call("isnotnull", values)).equals(pc.is_valid(values))


def test_isnan_matches_pyarrow_except_null() -> None:
    rng = random.Random(f"{SEED}-nan")
    values = random_column(rng, "float64")
    # pyarrow gives null for a null; Spark's isnan(null) is false.
    expected = pc.fill_null(pc.is_nan(values), False)
    assert result_array(compute.call("isnan", values)).equals(expected)


def test_coalesce_matches_pyarrow() -> None:
    rng = random.Random(f"{SEED}-coalesce")
    for kind in ["int64", "string", "float64", "bool", "decimal", "date32"]:
        a = random_column(rng, kind)
        b = random_column(rng, kind)
        c = random_column(rng, kind)
        assert same_values(compute.call("coalesce", a, b, c), pc.coalesce(a, b, c)), kind
        assert same_values(compute.call("nvl", a, b), pc.coalesce(a, b)), kind
        assert same_values(compute.call("ifnull", a, b), pc.coalesce(a, b)), kind


def test_coalesce_widens_types() -> None:
    ints = pa.array([None, 2, None], pa.int32())
    longs = pa.array([10, None, None], pa.int64())
    result = result_array(compute.call("coalesce", ints, longs, 7))
    assert result.type == pa.int64()
    assert result.to_pylist() == [10, 2, 7]


def test_if_else_matches_pyarrow_with_null_condition_as_false() -> None:
    rng = random.Random(f"{SEED}-if")
    cond = random_column(rng, "bool")
    # pyarrow's if_else gives null for a null condition; Spark's IF takes the else branch.
    spark_cond = pc.fill_null(cond, False)
    for kind in ["int64", "string", "float64", "bool", "decimal", "timestamp", "binary"]:
        a = random_column(rng, kind)
        b = random_column(rng, kind)
        assert same_values(compute.call("if", cond, a, b), pc.if_else(spark_cond, a, b)), kind
    a = random_column(rng, "int64")
    assert result_array(compute.call("if", cond, a, 0)).equals(
        pc.if_else(spark_cond, a, pa.scalar(0, pa.int64())))


def test_if_else_on_nested_values() -> None:
    cond = pa.array([True, None, False, True])
    lists = pa.array([[1], [2, 3], None, []], pa.list_(pa.int64()))
    others = pa.array([[9], None, [8, 8], [7]], pa.list_(pa.int64()))
    assert result_array(compute.call("if", cond, lists, others)).to_pylist() == [
        [1], None, [8, 8], []]
    structs = pa.array([{"x": 1}, {"x": 2}, None, {"x": 4}])
    other_structs = pa.array([{"x": -1}, {"x": -2}, {"x": -3}, None])
    assert result_array(compute.call("if", cond, structs, other_structs)).to_pylist() == [
        {"x": 1}, {"x": -2}, {"x": -3}, {"x": 4}]


def test_is_in_matches_duckdb() -> None:
    # pyarrow's is_in answers false where Spark's IN answers null (not found, null in the list).
    rng = random.Random(f"{SEED}-in")
    values = random_column(rng, "int64")
    for listed in [[1, 2], [1, None], [None], [-5, 0, 5, 3]]:
        sql_list = ", ".join("null" if v is None else str(v) for v in listed)
        expected = duckdb_query(f"select a in ({sql_list}) from t", a=values)
        got = result_array(compute.call("in", values, *[pa.scalar(v, pa.int64())
                                                        for v in listed]))
        assert got.equals(expected), listed
    strings = random_column(rng, "string")
    expected = duckdb_query("select a in ('a', 'zz', null) from t", a=strings)
    assert result_array(compute.call("in", strings, "a", "zz", None)).equals(expected)
    floats = random_column(rng, "float64")
    expected = duckdb_query("select a in ('nan'::double, 1.5) from t", a=floats)
    assert result_array(compute.call("in", floats, math.nan, 1.5)).equals(expected)
    other = random_column(rng, "int64")
    expected = duckdb_query("select a in (b, 3) from t", a=values, b=other)
    assert result_array(compute.call("in", values, other, pa.scalar(3, pa.int64()))).equals(
        expected)


def test_between_matches_duckdb() -> None:
    rng = random.Random(f"{SEED}-between")
    for kind in ["int64", "float64", "string", "date32"]:
        x = random_column(rng, kind)
        lo = random_column(rng, kind)
        hi = random_column(rng, kind)
        expected = duckdb_query("select x between lo and hi from t", x=x, lo=lo, hi=hi)
        assert result_array(compute.call("between", x, lo, hi)).equals(expected), kind


def test_case_when_matches_duckdb() -> None:
    rng = random.Random(f"{SEED}-case")
    c1 = random_column(rng, "bool")
    c2 = random_column(rng, "bool")
    v1 = random_column(rng, "string")
    v2 = random_column(rng, "string")
    otherwise = random_column(rng, "string")
    expected = duckdb_query("select case when c1 then v1 when c2 then v2 else e end from t",
                            c1=c1, c2=c2, v1=v1, v2=v2, e=otherwise)
    assert result_array(compute.call("case_when", c1, v1, c2, v2, otherwise)).equals(expected)
    expected = duckdb_query("select case when c1 then v1 when c2 then v2 end from t",
                            c1=c1, c2=c2, v1=v1, v2=v2)
    assert result_array(compute.call("case_when", c1, v1, c2, v2)).equals(expected)


def test_nullif_and_nvl2_match_duckdb() -> None:
    rng = random.Random(f"{SEED}-nullif")
    a = random_column(rng, "int64")
    b = random_column(rng, "int64")
    c = random_column(rng, "int64")
    assert result_array(compute.call("nullif", a, b)).equals(
        duckdb_query("select nullif(a, b) from t", a=a, b=b))
    assert result_array(compute.call("nvl2", a, b, c)).equals(
        duckdb_query("select case when a is not null then b else c end from t", a=a, b=b, c=c))


def test_nanvl() -> None:
    values = pa.array([1.0, math.nan, None, math.nan])
    replacements = pa.array([9.0, 2.0, 3.0, None])
    assert result_array(compute.call("nanvl", values, replacements)).to_pylist() == [
        1.0, 2.0, None, None]


# Literal answers of Spark 4.x (spark.sql.ansi.enabled=true), checked by hand with PySpark.
SPARK_EXPECTATIONS = [
    # NaN = NaN is true; NaN sorts above every other value, +inf included.
    ("=", [math.nan, math.nan], True),
    (">", [math.nan, 1e308], True),
    ("<", [math.nan, math.inf], False),
    ("=", [-0.0, 0.0], True),
    # IN: found beats a null in the list; not found with a null is null; a null value is null.
    ("in", [1, 1, None], True),
    ("in", [2, 1, None], None),
    ("in", [None, 1, 2], None),
    ("in", [math.nan, math.nan], True),
    ("nullif", [1, 1], None),
    ("nullif", [1, None], 1),
    ("nullif", [1, 1.0], None),
    ("between", [5, None, 4], False),
    ("between", [5, 1, None], None),
    ("nanvl", [math.nan, 1.0], 1.0),
    ("isnan", [None], False),
    ("and", [True, None], None),
    ("and", [False, None], False),
    ("or", [True, None], True),
    ("or", [False, None], None),
    ("<=>", [None, None], True),
    ("<=>", [1, None], False),
    ("coalesce", [None, 1, 2], 1),
    ("nvl2", [None, 1, 2], 2),
    ("nvl2", [0, 1, 2], 1),
    ("if", [None, 1, 2], 2),
    ("<", ["a", "ab"], True),
    ("<", ["abc", "abd"], True),
    (">", [b"\xff", b"\x00"], True),
    ("=", ["1", 1], True),
    ("=", ["1.5", 1.5], True),
    (">", [True, False], True),
    # Strings are cast for isnan (to DOUBLE) and NOT, AND, OR (to BOOLEAN).
    ("isnan", ["NaN"], True),
    ("isnan", [" nan "], True),
    ("isnan", ["1.5"], False),
    ("not", ["no"], True),
    ("not", [" yes "], False),
    ("and", ["true", True], True),
    ("or", [False, "f"], False),
]


@pytest.mark.parametrize("name,args,expected", SPARK_EXPECTATIONS)
def test_spark_expectations(name: str, args: List[Any], expected: Optional[Any]) -> None:
    assert result_array(compute.call(name, *args)).to_pylist() == [expected]


def test_incompatible_comparison_raises_analysis_exception() -> None:
    with pytest.raises(errors.AnalysisException) as raised:
        compute.call("=", pa.array([1]), pa.array([b"x"]))
    assert raised.value.getCondition().startswith("DATATYPE_MISMATCH")


def test_string_against_number_that_does_not_parse_raises_in_ansi_mode() -> None:
    # Spark compares STRING with INT as BIGINT: '1.5x' fails to cast in ANSI mode.
    with pytest.raises(errors.NumberFormatException):
        compute.call("=", pa.array(["1.5x"]), 1)


def test_empty_inputs() -> None:
    empty = pa.array([], pa.int64())
    assert result_array(compute.call("<", empty, empty)).to_pylist() == []
    assert result_array(compute.call("coalesce", empty, 1)).to_pylist() == []
    assert result_array(compute.call("in", empty, 1, None)).to_pylist() == []


def test_strings_that_do_not_parse_raise_for_isnan_and_not() -> None:
    # Spark: isnan('abc') and NOT 'abc' raise CAST_INVALID_INPUT; 'y' AND 'n' is
    # DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE.
    with pytest.raises(errors.NumberFormatException):
        compute.call("isnan", pa.array(["abc"]))
    with pytest.raises(errors.SparkRuntimeException):
        compute.call("not", pa.array(["abc"]))
    with pytest.raises(errors.AnalysisException) as raised:
        compute.call("and", pa.array(["y"]), pa.array(["n"]))
    assert raised.value.getCondition() == "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE"


def test_struct_and_array_comparisons_match_spark() -> None:
    # Spark 4.3: named_struct('a', 1, 'b', null) = named_struct('a', 1, 'b', null) is true, and
    # so is <=>; (1, null) < (1, 3); array(1, null) = array(1, null); array(1, 2) < array(1, 2,
    # 0); array(null, 1) < array(1); array(3) > array(1, 2); array(NaN) = array(NaN).
    struct_type = pa.struct([("a", pa.int32()), ("b", pa.int32())])
    left = pa.array([{"a": 1, "b": None}, {"a": 1, "b": None}, None], struct_type)
    right = pa.array([{"a": 1, "b": None}, {"a": 1, "b": 3}, {"a": 1, "b": 3}], struct_type)
    assert result_array(compute.call("=", left, right)).to_pylist() == [True, False, None]
    assert result_array(compute.call("<", left, right)).to_pylist() == [False, True, None]
    assert result_array(compute.call("<=>", left, right)).to_pylist() == [True, False, False]
    lists = pa.array([[1, None], [1, 2], [None, 1], [3], [float("nan")]], pa.list_(pa.float64()))
    others = pa.array([[1, None], [1, 2, 0], [1], [1, 2], [float("nan")]], pa.list_(pa.float64()))
    assert result_array(compute.call("=", lists, others)).to_pylist() == [
        True, False, False, False, True]
    assert result_array(compute.call("<", lists, others)).to_pylist() == [
        False, True, True, False, False]
    # array(1) = array(1L) widens; array(1) IN (array(1L)) is true.
    ints = pa.array([[1]], pa.list_(pa.int32()))
    longs = pa.array([[1]], pa.list_(pa.int64()))
    assert result_array(compute.call("=", ints, longs)).to_pylist() == [True]
    assert result_array(compute.call("in", ints, longs)).to_pylist() == [True]


def test_maps_are_not_comparable() -> None:
    # Spark: [DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] ... The `=` does not support ordering on
    # type "MAP<INT, INT>".
    maps = pa.array([[(1, 2)]], pa.map_(pa.int32(), pa.int32()))
    for name in ["=", "<=>", "<", "in"]:
        with pytest.raises(errors.AnalysisException) as raised:
            compute.call(name, maps, maps)
        assert raised.value.getCondition() == "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE"


def test_dictionary_arguments_compare_by_value() -> None:
    rng = random.Random(SEED)
    words = ["apple", "pear", "fig", "kiwi", None]
    plain = pa.array([rng.choice(words) for _ in range(ROWS)]).slice(2)
    encoded = plain.dictionary_encode()
    other = pa.array([rng.choice(words) for _ in range(ROWS)]).slice(2)
    for op in sorted(COMPARISONS):
        expected = result_array(compute.call(op, plain, other)).to_pylist()
        assert result_array(compute.call(op, encoded, other)).to_pylist() == expected
        assert result_array(compute.call(op, encoded, other.dictionary_encode())).to_pylist() \
            == expected
        assert result_array(compute.call(op, encoded, "kiwi")).to_pylist() == \
            result_array(compute.call(op, plain, "kiwi")).to_pylist()
    assert result_array(compute.call("<=>", encoded, other)).to_pylist() == \
        result_array(compute.call("<=>", plain, other)).to_pylist()
    assert result_array(compute.call("in", encoded, "fig", "pear")).to_pylist() == \
        result_array(compute.call("in", plain, "fig", "pear")).to_pylist()
    assert result_array(compute.call("nullif", encoded, "fig")).to_pylist() == \
        result_array(compute.call("nullif", plain, "fig")).to_pylist()
    assert result_array(compute.call("between", encoded, "fig", "pear")).to_pylist() == \
        result_array(compute.call("between", plain, "fig", "pear")).to_pylist()
    # Encoded strings are cast as plain ones for isnan, NOT and AND.
    numbers = pa.array(["NaN", "1", None, "NaN"]).dictionary_encode()
    assert result_array(compute.call("isnan", numbers)).to_pylist() == [True, False, False, True]
    words = pa.array(["true", "no", None]).dictionary_encode()
    assert result_array(compute.call("not", words)).to_pylist() == [False, True, None]
    assert result_array(compute.call("and", words, True)).to_pylist() == [True, False, None]
