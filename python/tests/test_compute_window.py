"""Window functions through bowstring.compute.window, compared with the same windows in DuckDB
(whose semantics match Spark's for these functions and frames) on randomized data, plus Spark's
error conditions."""

from __future__ import annotations

import random
from typing import Any, List, Optional, Tuple

import duckdb
import pyarrow as pa
import pytest

from bowstring import compute, errors

ROWS = 600


def sorted_table(seed: int, descending: bool) -> Tuple[pa.Table, List[int]]:
    """Rows with a partition key p, an order key k (nulls, ties), a unique id and values, sorted
    by (p, k, id) with k's nulls last; and the partition offsets."""
    rng = random.Random(seed)

    def maybe(value: Any) -> Any:
        return None if rng.random() < 0.15 else value

    data = pa.table(
        {
            "p": pa.array([rng.randrange(12) for _ in range(ROWS)], pa.int64()),
            "k": pa.array([maybe(rng.randrange(40)) for _ in range(ROWS)], pa.int64()),
            "id": pa.array(range(ROWS), pa.int64()),
            "v": pa.array([maybe(rng.randrange(-500, 500)) for _ in range(ROWS)], pa.int64()),
            "d": pa.array([maybe(rng.uniform(-10, 10)) for _ in range(ROWS)], pa.float64()),
            "s": pa.array([maybe(f"s{rng.randrange(30)}") for _ in range(ROWS)]),
        }
    )
    direction = "DESC" if descending else "ASC"
    ordered = duckdb.sql(f"SELECT * FROM data ORDER BY p, k {direction} NULLS LAST, id").arrow()
    if isinstance(ordered, pa.RecordBatchReader):
        ordered = ordered.read_all()
    partitions = ordered.column("p").to_pylist()
    offsets = [0] + [i for i in range(1, ROWS) if partitions[i] != partitions[i - 1]] + [ROWS]
    return ordered, offsets


def duckdb_column(data: pa.Table, expression: str, descending: bool) -> List[Any]:
    """`expression` (see CASES) evaluated by DuckDB, in the order of `data`."""
    direction = "DESC" if descending else "ASC"
    windows = {
        "w": f"PARTITION BY p ORDER BY k {direction} NULLS LAST, id",
        "wk": f"PARTITION BY p ORDER BY k {direction} NULLS LAST",
    }
    rows = duckdb.sql(f"SELECT id, {expression.format(**windows)} AS r FROM data").fetchall()
    values = dict(rows)
    return [values[i] for i in data.column("id").to_pylist()]


def close(a: Optional[float], b: Optional[float]) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


# (bowstring call, DuckDB expression, whether the window orders by (k, id) rather than k). In
# the expressions {w} stands for the window ordered by (k, id), {wk} for the one ordered by k.
CASES = [
    (("row_number", []), "row_number() OVER ({w})", True),
    (("rank", []), "rank() OVER ({wk})", False),
    (("dense_rank", []), "dense_rank() OVER ({wk})", False),
    (("percent_rank", []), "percent_rank() OVER ({wk})", False),
    (("cume_dist", []), "cume_dist() OVER ({wk})", False),
    (("ntile", [3]), "ntile(3) OVER ({w})", True),
    (("lag", ["v", 2, 0]), "lag(v, 2, 0) OVER ({w})", True),
    (("lead", ["s"]), "lead(s) OVER ({w})", True),
    (("sum", ["v"]), "sum(v) OVER ({wk})", False),
    (("sum", ["v"], {}, ("rows", -3, 1)),
     "sum(v) OVER ({w} ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING)", True),
    (("count", ["v"], {}, ("rows", None, "current_row")),
     "count(v) OVER ({w} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)", True),
    (("avg", ["d"], {}, ("rows", -5, -1)),
     "avg(d) OVER ({w} ROWS BETWEEN 5 PRECEDING AND 1 PRECEDING)", True),
    (("max", ["s"], {}, ("rows", 0, 4)),
     "max(s) OVER ({w} ROWS BETWEEN CURRENT ROW AND 4 FOLLOWING)", True),
    (("min", ["d"], {}, ("range", -3, 2)),
     "min(d) OVER ({wk} RANGE BETWEEN 3 PRECEDING AND 2 FOLLOWING)", False),
    (("sum", ["v"], {}, ("range", -5, None)),
     "sum(v) OVER ({wk} RANGE BETWEEN 5 PRECEDING AND UNBOUNDED FOLLOWING)", False),
    (("stddev_samp", ["d"], {}, ("range", "current_row", 4)),
     "stddev_samp(d) OVER ({wk} RANGE BETWEEN CURRENT ROW AND 4 FOLLOWING)", False),
    (("first", ["s"], {"ignore_nulls": True}, ("rows", -2, 2)),
     "first_value(s IGNORE NULLS) OVER ({w} ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING)", True),
]


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("case", CASES, ids=[case[1] for case in CASES])
def test_matches_duckdb(case: Tuple[Any, str, bool], descending: bool) -> None:
    table, offsets = sorted_table(7, descending)
    call, expression, by_id = case
    function, arguments = call[0], call[1]
    columns = [table.column(a).combine_chunks() if isinstance(a, str) else a for a in arguments]
    engine_call = (function, columns) + tuple(call[2:])
    keys = [table.column("k").combine_chunks()]
    if by_id:
        keys.append(table.column("id").combine_chunks())
    result = compute.window(
        offsets, keys, [engine_call], ascending=not descending, nulls_first=False, names=["r"]
    ).to_pydict()["r"]
    expected = duckdb_column(table, expression, descending)
    assert len(result) == len(expected)
    for row, (actual, wanted) in enumerate(zip(result, expected)):
        if isinstance(wanted, float) or isinstance(actual, float):
            assert close(actual, wanted), (row, actual, wanted)
        else:
            assert actual == wanted, (row, actual, wanted)


def test_invalid_frames_raise_spark_conditions() -> None:
    values = pa.array([1, 2, 3])
    with pytest.raises(errors.AnalysisException, match="SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON"):
        compute.window([0, 3], [values], [("sum", [values], {}, ("rows", 2, 1))])
    with pytest.raises(errors.AnalysisException, match="RANGE_FRAME_MULTI_ORDER"):
        compute.window([0, 3], [values, values], [("sum", [values], {}, ("range", -1, 1))])
    with pytest.raises(errors.AnalysisException, match="_LEGACY_ERROR_TEMP_1037"):
        compute.window([0, 3], [], [("rank", [])])
