"""Aggregate functions through bowstring.compute.group_by and bowstring.compute.call, compared
with DuckDB (whose semantics match Spark's for these functions: nulls skipped, sample statistics
of one row null, NaN above every number in min/max) on randomized data, and with literal Spark
answers where DuckDB differs."""

from __future__ import annotations

import decimal
import math
import random
from typing import Any, Dict, List, Optional, Tuple

import duckdb
import pyarrow as pa
import pytest

from bowstring import compute, errors

ROWS = 2000


def random_table(seed: int, key_count: int) -> pa.Table:
    """Keys with nulls drawn from `key_count` values, integer, double, string and boolean values
    with nulls."""
    rng = random.Random(seed)

    def maybe(value: Any) -> Any:
        return None if rng.random() < 0.1 else value

    return pa.table(
        {
            "k": pa.array([maybe(rng.randrange(key_count)) for _ in range(ROWS)], pa.int64()),
            "s": pa.array([maybe(f"s{rng.randrange(key_count)}") for _ in range(ROWS)]),
            "i": pa.array([maybe(rng.randrange(-1000, 1000)) for _ in range(ROWS)], pa.int32()),
            "d": pa.array([maybe(rng.uniform(-100, 100)) for _ in range(ROWS)], pa.float64()),
            "b": pa.array([maybe(rng.random() < 0.7) for _ in range(ROWS)], pa.bool_()),
        }
    )


def duck(sql: str, data: pa.Table) -> pa.Table:
    """The result of a DuckDB query over the table `data` (named so in `sql`), as a pyarrow
    Table."""
    connection = duckdb.connect()
    connection.register("data", data)
    return connection.sql(sql).to_arrow_table()


def by_key(table: pa.Table, keys: List[str]) -> Dict[Tuple[Any, ...], Dict[str, Any]]:
    """Rows of `table` indexed by their key columns."""
    rows = table.to_pylist()
    return {tuple(row[k] for k in keys): row for row in rows}


def close(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) or isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return bool(a == b)


AGGREGATES: List[Tuple[str, str, str]] = [
    # (bowstring function, argument column, DuckDB expression)
    ("sum", "i", "sum(i)"),
    ("sum", "d", "sum(d)"),
    ("avg", "i", "avg(i)"),
    ("avg", "d", "avg(d)"),
    ("min", "i", "min(i)"),
    ("max", "d", "max(d)"),
    ("min", "s", "min(s)"),
    ("max", "s", "max(s)"),
    ("count", "d", "count(d)"),
    ("count_distinct", "i", "count(distinct i)"),
    ("stddev_samp", "d", "stddev_samp(d)"),
    ("stddev_pop", "i", "stddev_pop(i)"),
    ("var_samp", "i", "var_samp(i)"),
    ("var_pop", "d", "var_pop(d)"),
    ("bool_and", "b", "bool_and(b)"),
    ("bool_or", "b", "bool_or(b)"),
]


@pytest.mark.parametrize("seed, key_count", [(1, 3), (2, 50), (3, 700)])
@pytest.mark.parametrize("keys", [["k"], ["s"], ["k", "s"]])
def test_grouped_aggregates_match_duckdb(seed: int, key_count: int, keys: List[str]) -> None:
    data = random_table(seed, key_count)
    names = keys + [f"a{n}" for n in range(len(AGGREGATES) + 1)]
    result = pa.table(
        compute.group_by(
            [data[k] for k in keys],
            [(name, [data[column]]) for name, column, _ in AGGREGATES] + [("count", [])],
            names=names,
        )
    )
    expressions = ", ".join(f"{sql} as a{n}" for n, (_, _, sql) in enumerate(AGGREGATES))
    key_list = ", ".join(keys)
    expected = duck(
        f"select {key_list}, {expressions}, count(*) as a{len(AGGREGATES)} "
        f"from data group by {key_list}", data)
    ours = by_key(result, keys)
    theirs = by_key(expected, keys)
    assert ours.keys() == theirs.keys()
    for key, row in theirs.items():
        for column in names[len(keys) :]:
            mine = ours[key][column]
            assert close(mine, row[column]), (key, column, mine, row[column])


def test_two_keys_with_nulls_and_many_groups_match_pyarrow() -> None:
    # A string and an integer key, nulls in either, more than 2^16 combinations, over a slice.
    rng = random.Random(11)
    rows = 150_000

    def maybe(value: Any) -> Any:
        return None if rng.random() < 0.05 else value

    names = pa.array([maybe(f"name{rng.randrange(400)}") for _ in range(rows)])
    numbers = pa.array([maybe(rng.randrange(300)) for _ in range(rows)], pa.int64())
    values = pa.array([rng.randrange(-50, 50) for _ in range(rows)], pa.int64())
    names, numbers, values = names[7:], numbers[7:], values[7:]
    result = pa.table(
        compute.group_by([names, numbers], [("sum", [values])], names=["s", "k", "v"])
    )
    table = pa.table({"s": names, "k": numbers, "v": values})
    expected = table.group_by(["s", "k"]).aggregate([("v", "sum")])
    assert result.num_rows == expected.num_rows > 65536
    ours = {(row["s"], row["k"]): row["v"] for row in result.to_pylist()}
    theirs = {(row["s"], row["k"]): row["v_sum"] for row in expected.to_pylist()}
    assert ours == theirs


def test_groups_come_in_order_of_first_appearance() -> None:
    keys = pa.array(["b", None, "a", "b", None])
    result = pa.table(compute.group_by([keys], [("count", [])]))
    assert result.to_pydict() == {"key0": ["b", None, "a"], "count(0)": [2, 2, 1]}


def test_collect_list_and_set_match_duckdb_as_multisets() -> None:
    data = random_table(4, 20)
    result = by_key(
        pa.table(
            compute.group_by(
                [data["k"]],
                [("collect_list", [data["i"]]), ("collect_set", [data["s"]])],
                names=["k", "l", "st"],
            )
        ),
        ["k"],
    )
    expected = by_key(
        duck(
            "select k, list(i) filter (where i is not null) as l, "
            "list(distinct s) filter (where s is not null) as st from data group by k", data),
        ["k"],
    )
    assert result.keys() == expected.keys()
    for key, row in expected.items():
        assert sorted(result[key]["l"]) == sorted(row["l"] or [])
        assert sorted(result[key]["st"]) == sorted(row["st"] or [])


def test_first_last_follow_row_order() -> None:
    keys = pa.array([1, 1, 1, 2, 2])
    values = pa.array([None, 5, 6, 7, None])
    result = pa.table(
        compute.group_by(
            [keys],
            [
                ("first", [values]),
                ("first", [values, True]),
                ("last", [values]),
                ("last", [values, True]),
            ],
            names=["k", "f", "fi", "l", "li"],
        )
    ).to_pydict()
    assert result == {"k": [1, 2], "f": [None, 7], "fi": [5, 7], "l": [6, None], "li": [6, 7]}


def test_whole_array_aggregates_match_pyarrow() -> None:
    import pyarrow.compute as pc

    data = random_table(5, 10)
    for name in ["sum", "min", "max"]:
        for column in ["i", "d"]:
            ours = pa.array(compute.call(name, data[column]))[0].as_py()
            theirs = getattr(pc, name)(data[column]).as_py()
            assert close(ours, theirs), (name, column)
    assert pa.array(compute.call("count", data["d"]))[0].as_py() == pc.count(data["d"]).as_py()
    assert close(pa.array(compute.call("avg", data["d"]))[0].as_py(), pc.mean(data["d"]).as_py())


def test_approx_count_distinct_within_error_bound_and_exact_like_spark_when_small() -> None:
    # Spark: approx_count_distinct over range(300) is 296, over range(100000) 95546.
    def estimate(count: int) -> int:
        result = compute.call("approx_count_distinct", pa.array(range(count), pa.int64()))
        return int(pa.array(result)[0].as_py())

    assert estimate(300) == 296
    assert estimate(100000) == 95546
    data = random_table(6, 700)
    result = by_key(
        pa.table(
            compute.group_by(
                [data["b"]], [("approx_count_distinct", [data["s"]])], names=["b", "n"]
            )
        ),
        ["b"],
    )
    exact = by_key(
        duck("select b, count(distinct s) as n from data group by b", data), ["b"]
    )
    for key, row in exact.items():
        assert abs(result[key]["n"] - row["n"]) <= 0.15 * row["n"] + 2


def test_decimal_sum_and_avg_types_follow_spark() -> None:
    import decimal

    values = pa.array([decimal.Decimal("1.25"), decimal.Decimal("2.50"), decimal.Decimal("3.00")],
                      pa.decimal128(10, 2))
    total = pa.array(compute.call("sum", values))
    mean = pa.array(compute.call("avg", values))
    # Spark: decimal(20,2) 6.75 and decimal(14,6) 2.250000.
    assert total.type == pa.decimal128(20, 2) and total[0].as_py() == decimal.Decimal("6.75")
    assert mean.type == pa.decimal128(14, 6) and mean[0].as_py() == decimal.Decimal("2.250000")


def test_sum_overflow_raises_arithmetic_exception() -> None:
    values = pa.array([2**63 - 1, 1], pa.int64())
    with pytest.raises(errors.ArithmeticException, match="ARITHMETIC_OVERFLOW"):
        compute.call("sum", values)
    assert pa.array(compute.call("try_sum", values))[0].as_py() is None
    with pytest.raises(errors.ArithmeticException):
        compute.group_by([pa.array([1, 1])], [("sum", [values])])


def test_try_avg_is_null_where_avg_overflows() -> None:
    # Spark 4.3: avg and try_avg of integers are the same double; over DECIMAL(38,10) values
    # x, x, -x (x = 9999999999999999999999999999.5) avg raises NUMERIC_VALUE_OUT_OF_RANGE and
    # try_avg is NULL, typed DECIMAL(38,14) as avg is.
    ints = pa.array([1, 2, None, 4], pa.int64())
    assert pa.array(compute.call("try_avg", ints)).to_pylist() == [7 / 3]
    x = "9999999999999999999999999999.5000000000"
    values = pa.array([decimal.Decimal(v) for v in (x, x, "-" + x)], pa.decimal128(38, 10))
    with pytest.raises(errors.ArithmeticException, match="NUMERIC_VALUE_OUT_OF_RANGE"):
        compute.call("avg", values)
    result = pa.array(compute.call("try_avg", values))
    assert result.type == pa.decimal128(38, 14) and result.to_pylist() == [None]
    grouped = pa.table(compute.group_by([pa.array([1, 1, 1])], [("try_avg", [values])],
                                        names=["k", "a"]))
    assert grouped.column("a").to_pylist() == [None]


def test_group_by_errors() -> None:
    with pytest.raises(errors.AnalysisException):
        compute.group_by([pa.array([1])], [("no_such_aggregate", [pa.array([1])])])
    with pytest.raises(ValueError):
        compute.group_by([pa.array([1, 2])], [("sum", [pa.array([1])])])


def test_large_inputs_split_over_threads_match_duckdb() -> None:
    # More than 2^21 rows: group_by splits them into row ranges grouped on threads and merged;
    # the groups still come in order of first appearance.
    import numpy as np

    rng = np.random.default_rng(21)
    rows = 2_500_000
    keys = rng.integers(-5, 20_000, rows)
    key_nulls = rng.random(rows) < 0.01
    values = rng.integers(-1000, 1000, rows)
    data = pa.table(
        {
            "k": pa.array(keys, pa.int64(), mask=key_nulls),
            "s": pa.array(np.char.add("s", (keys % 37).astype(str)), mask=key_nulls),
            "v": pa.array(values, pa.int64(), mask=rng.random(rows) < 0.05),
            "r": pa.array(np.arange(rows)),
        }
    )
    for key_columns in (["k"], ["s"], ["s", "k"]):
        names = key_columns + ["total", "low", "high", "n", "mean"]
        result = pa.table(
            compute.group_by(
                [data[k] for k in key_columns],
                [("sum", [data["v"]]), ("min", [data["v"]]), ("max", [data["v"]]),
                 ("count", []), ("avg", [data["v"]])],
                names=names,
            )
        )
        key_list = ", ".join(key_columns)
        expected = duck(
            f"select {key_list}, sum(v) as total, min(v) as low, max(v) as high, "
            f"count(*) as n, avg(v) as mean from data group by {key_list} "
            f"order by min(r)",
            data,
        )
        assert result.num_rows == expected.num_rows
        for column in names:
            ours = result[column].to_pylist()
            theirs = expected[column].to_pylist()
            assert all(close(a, b) for a, b in zip(ours, theirs)), column


def test_decimal_sum_leaving_38_digits_midway_follows_spark() -> None:
    import decimal

    # Spark 4.3 over DECIMAL(38,10) x, x, -x (x = 9999999999999999999999999999.5): the global
    # sum is x; grouped, sum raises ARITHMETIC_OVERFLOW ("Overflow in sum of decimals") and
    # try_sum is NULL, as each group's buffer holds at most 38 digits.
    x = decimal.Decimal("9999999999999999999999999999.5000000000")
    minus_x = decimal.Decimal("-9999999999999999999999999999.5000000000")
    values = pa.array([x, x, minus_x], pa.decimal128(38, 10))
    assert pa.array(compute.call("sum", values))[0].as_py() == x
    with pytest.raises(errors.ArithmeticException, match="Overflow in sum of decimals"):
        compute.group_by([pa.array([1, 1, 1])], [("sum", [values])])
    result = pa.table(compute.group_by([pa.array([1, 1, 1])], [("try_sum", [values])],
                                       names=["k", "s"]))
    assert result["s"].to_pylist() == [None]


def test_min_max_of_structs_and_arrays_follow_spark() -> None:
    # Spark 4.3: over named_struct(a, b) (1,'x'), (1,'y'), (0,'z'), (NULL,'w') min is {NULL, w}
    # and max {1, y}; over arrays [1,2], [1], [1,NULL], [], [0,5], [NULL] min is [] and max
    # [1, 2]; over [{x: b}], [{x: a}, {x: c}] min is [{x: a}, {x: c}] and max [{x: b}].
    rows = pa.array([{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 0, "b": "z"},
                     {"a": None, "b": "w"}])
    lists = pa.array([[1, 2], [1], [1, None], [], [0, 5], [None]], pa.list_(pa.int64()))
    nested = pa.array([[{"x": "b"}], [{"x": "a"}, {"x": "c"}]])
    for values, low, high in [
        (rows, {"a": None, "b": "w"}, {"a": 1, "b": "y"}),
        (lists, [], [1, 2]),
        (nested, [{"x": "a"}, {"x": "c"}], [{"x": "b"}]),
    ]:
        keys = pa.array([7] * len(values))
        result = pa.table(compute.group_by([keys], [("min", [values]), ("max", [values])],
                                           names=["k", "low", "high"]))
        assert result["low"].to_pylist() == [low]
        assert result["high"].to_pylist() == [high]
    with pytest.raises(errors.AnalysisException, match="INVALID_ORDERING_TYPE"):
        compute.call("min", pa.array([[(1, 2)]], pa.map_(pa.int64(), pa.int64())))
