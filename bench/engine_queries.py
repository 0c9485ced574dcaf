"""Times the query engine on db-benchmark's groupby and join questions against DuckDB and Polars.

Generates the data db-benchmark's R generators make (_data/groupby-datagen.R: the
G1_1e7_1e2_0_0 shape, 100 groups per key, no nulls, random order; _data/join-datagen.R: the
J1_1e7_NA_0_0 table x joined with small, medium and big tables), with numpy from a fixed seed
into pyarrow tables, and runs every question through Bowstring's plan builders, DuckDB's SQL and
Polars' lazy frames over the same in-memory Arrow data, in this process. Each query's three
results are checked equal first (sorted comparison of small results, else row count and column
sums); that run is the warm-up, then each time is the best of --repetitions runs. Ratios are
Bowstring/peer: below 1, Bowstring is faster. Every library runs on the size of Bowstring's
thread pool (DuckDB's `threads` setting, POLARS_MAX_THREADS set before Polars is imported).

Questions needing a function the engine lacks (median, corr, a window for the per-group top 2)
run for DuckDB and Polars only and say so; the window question waits for the window operator.

Usage: PYTHONPATH=python python bench/engine_queries.py [--rows N] [--repetitions N] [--filter RE]
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

import bowstring
from bowstring import _core

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchmark_runs import Side, bowstring_side, duckdb_side, setup_line, threads  # noqa: E402

THREADS = bowstring.thread_pool_size()
# Polars reads it once, when it is imported.
os.environ["POLARS_MAX_THREADS"] = str(THREADS)
import polars as pl  # noqa: E402

E = _core.Expression
Plan = _core.LogicalPlan
Tables = Mapping[str, pa.Table]

# --- data --------------------------------------------------------------------------------------

GROUPS = 100
SEED = 108  # db-benchmark's set.seed(108)


def labels(prefix: str, numbers: np.ndarray, width: int = 0) -> pa.Array:
    """`prefix` followed by each number, zero-padded to `width` digits ("id%03d", "id%.0f")."""
    digits = pc.cast(pa.array(numbers), pa.string())
    if width:
        digits = pc.utf8_lpad(digits, width, "0")
    return pc.binary_join_element_wise(prefix, digits, "")


def uniform_values(rng: np.random.Generator, rows: int) -> np.ndarray:
    """round(runif(rows, max=100), 6)."""
    return np.round(rng.uniform(0, 100, rows), 6)


def groupby_table(rows: int, groups: int = GROUPS, seed: int = SEED) -> pa.Table:
    """G1_<rows>_<groups>_0_0: id1, id2 of `groups` strings, id3 of rows/groups strings, id4, id5
    of `groups` ints, id6 of rows/groups ints, v1 in 1..5, v2 in 1..15, v3 a double in [0, 100)."""
    rng = np.random.default_rng(seed)
    small = labels("id", np.arange(1, groups + 1), 3)
    large = labels("id", np.arange(1, rows // groups + 1), 10)

    def sample(count: int) -> np.ndarray:
        return rng.integers(1, count + 1, rows, dtype=np.int32)

    return pa.table({
        "id1": small.take(sample(groups) - 1),
        "id2": small.take(sample(groups) - 1),
        "id3": large.take(sample(rows // groups) - 1),
        "id4": sample(groups),
        "id5": sample(groups),
        "id6": sample(rows // groups),
        "v1": rng.integers(1, 6, rows, dtype=np.int32),
        "v2": rng.integers(1, 16, rows, dtype=np.int32),
        "v3": uniform_values(rng, rows),
    })


@dataclass(frozen=True)
class JoinKeys:
    """split_xlr: keys both sides have (x), keys only the left has (l) and only the right (r)."""

    both: np.ndarray
    left_only: np.ndarray
    right_only: np.ndarray

    @staticmethod
    def split(count: int, rng: np.random.Generator) -> JoinKeys:
        keys = rng.permutation(np.arange(1, round(count * 1.1) + 1, dtype=np.int64))
        common = round(count * 0.9)
        return JoinKeys(keys[:common], keys[common:count], keys[count:])

    def left(self) -> np.ndarray:
        return np.concatenate([self.both, self.left_only])

    def right(self) -> np.ndarray:
        return np.concatenate([self.both, self.right_only])


def sample_all(values: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """`size` values drawn from `values` with each of them at least once, shuffled."""
    extra = rng.choice(values, size=max(size - len(values), 0), replace=True)
    return rng.permutation(np.concatenate([values, extra]))


def join_tables(rows: int, seed: int = SEED) -> dict[str, pa.Table]:
    """J1_<rows>_NA_0_0 (x) and the tables joined to it: small of rows/1e6, medium of rows/1e3
    and big of `rows` rows (small and medium at least 10 rows, for runs below 1e7). Ids 1..3 are
    ints, ids 4..6 the same numbers as "id<n>" strings; 90% of each side's keys match."""
    rng = np.random.default_rng(seed)
    sizes = {"small": max(rows // 10**6, 10), "medium": max(rows // 10**3, 10), "big": rows}
    keys = [JoinKeys.split(sizes[name], rng) for name in ("small", "medium", "big")]

    def with_labels(ids: list[np.ndarray], value_name: str) -> pa.Table:
        columns: dict[str, object] = {f"id{i + 1}": column for i, column in enumerate(ids)}
        for i, column in enumerate(ids):
            columns[f"id{i + 4}"] = labels("id", column)
        columns[value_name] = uniform_values(rng, len(ids[0]))
        return pa.table(columns)

    tables = {"x": with_labels([sample_all(key.left(), rows, rng) for key in keys], "v1")}
    for depth, name in enumerate(("small", "medium", "big")):
        ids = [sample_all(key.right(), sizes[name], rng) for key in keys[:depth + 1]]
        tables[name] = with_labels(ids, "v2")
    return tables


# --- queries -----------------------------------------------------------------------------------


def col(name: str) -> _core.Expression:
    return E.col(name)


def call(name: str, *arguments: _core.Expression) -> _core.Expression:
    return E.call(name, list(arguments))


def grouped(plan: Plan, keys: list[str], outputs: list[_core.Expression]) -> Plan:
    return plan.aggregate([col(key) for key in keys], [col(key) for key in keys] + outputs)


def sums(*columns: str) -> list[_core.Expression]:
    return [call("sum", col(name)).alias(name) for name in columns]


def means(*columns: str) -> list[_core.Expression]:
    return [call("avg", col(name)).alias(name) for name in columns]


def joined(plans: Mapping[str, Plan], right: str, key: str, how: str,
           right_columns: list[str]) -> Plan:
    """SELECT x.*, <right>.<c> AS <right>_<c>..., v2 FROM x [LEFT] JOIN <right> USING (key)."""
    condition = call("=", col(f"x.{key}"), col(f"{right}.{key}"))
    pairs = plans["x"].alias("x").join(plans[right].alias(right), condition, how)
    renamed = [col(f"{right}.{name}").alias(f"{right}_{name}") for name in right_columns]
    return pairs.select([col("x.*")] + renamed + [col(f"{right}.v2")])


def polars_joined(frames: Mapping[str, pl.LazyFrame], right: str, key: str, how: str,
                  right_columns: list[str]) -> pl.LazyFrame:
    other = frames[right].rename({name: f"{right}_{name}" for name in right_columns})
    return frames["x"].join(other.select([key] + [f"{right}_{n}" for n in right_columns] + ["v2"]),
                            on=key, how=how)


def join_sql(right: str, key: str, how: str, right_columns: list[str]) -> str:
    renamed = "".join(f"{right}.{name} AS {right}_{name}, " for name in right_columns)
    return f"SELECT x.*, {renamed}v2 FROM x {how}JOIN {right} USING ({key})"


@dataclass(frozen=True)
class Query:
    """One question, as each library asks it. `keys` identify a result row (sorted comparison);
    without keys results compare by row count and column sums, or by the column `ordered_by` in
    order.
    `missing` names what the engine lacks to ask it; `ours` is None then."""

    name: str
    question: str
    dataset: str  # "groupby" or "join"
    sql: str
    polars: Callable[[Mapping[str, pl.LazyFrame]], pl.LazyFrame]
    ours: Callable[[Mapping[str, Plan]], Plan] | None
    keys: tuple[str, ...] = ()
    ordered_by: str = ""
    missing: str = ""
    needs: tuple[str, ...] = field(default=())  # functions whose absence `missing` reports


def x_of(frames: Mapping[str, pl.LazyFrame]) -> pl.LazyFrame:
    return frames["x"]


QUERIES = [
    Query("groupby q1", "sum v1 by id1", "groupby",
          "SELECT id1, sum(v1) AS v1 FROM x GROUP BY id1",
          lambda f: x_of(f).group_by("id1").agg(pl.sum("v1")),
          lambda p: grouped(p["x"], ["id1"], sums("v1")), keys=("id1",)),
    Query("groupby q2", "sum v1 by id1:id2", "groupby",
          "SELECT id1, id2, sum(v1) AS v1 FROM x GROUP BY id1, id2",
          lambda f: x_of(f).group_by("id1", "id2").agg(pl.sum("v1")),
          lambda p: grouped(p["x"], ["id1", "id2"], sums("v1")), keys=("id1", "id2")),
    Query("groupby q3", "sum v1 mean v3 by id3", "groupby",
          "SELECT id3, sum(v1) AS v1, avg(v3) AS v3 FROM x GROUP BY id3",
          lambda f: x_of(f).group_by("id3").agg(pl.sum("v1"), pl.mean("v3")),
          lambda p: grouped(p["x"], ["id3"], sums("v1") + means("v3")), keys=("id3",)),
    Query("groupby q4", "mean v1:v3 by id4", "groupby",
          "SELECT id4, avg(v1) AS v1, avg(v2) AS v2, avg(v3) AS v3 FROM x GROUP BY id4",
          lambda f: x_of(f).group_by("id4").agg(pl.mean("v1"), pl.mean("v2"), pl.mean("v3")),
          lambda p: grouped(p["x"], ["id4"], means("v1", "v2", "v3")), keys=("id4",)),
    Query("groupby q5", "sum v1:v3 by id6", "groupby",
          "SELECT id6, sum(v1) AS v1, sum(v2) AS v2, sum(v3) AS v3 FROM x GROUP BY id6",
          lambda f: x_of(f).group_by("id6").agg(pl.sum("v1"), pl.sum("v2"), pl.sum("v3")),
          lambda p: grouped(p["x"], ["id6"], sums("v1", "v2", "v3")), keys=("id6",)),
    Query("groupby q6", "median v3 sd v3 by id4 id5", "groupby",
          "SELECT id4, id5, quantile_cont(v3, 0.5) AS median_v3, stddev(v3) AS sd_v3 "
          "FROM x GROUP BY id4, id5",
          lambda f: x_of(f).group_by("id4", "id5").agg(
              pl.median("v3").alias("median_v3"), pl.std("v3").alias("sd_v3")),
          None, keys=("id4", "id5"), missing="no median aggregate", needs=("median",)),
    Query("groupby q7", "max v1 - min v2 by id3", "groupby",
          "SELECT id3, max(v1) - min(v2) AS range_v1_v2 FROM x GROUP BY id3",
          lambda f: x_of(f).group_by("id3").agg(
              (pl.max("v1") - pl.min("v2")).alias("range_v1_v2")),
          lambda p: grouped(p["x"], ["id3"], [
              call("-", call("max", col("v1")), call("min", col("v2"))).alias("range_v1_v2")]),
          keys=("id3",)),
    Query("groupby q8", "largest two v3 by id6", "groupby",
          "SELECT id6, v3 AS largest2_v3 FROM (SELECT id6, v3, row_number() OVER "
          "(PARTITION BY id6 ORDER BY v3 DESC) AS order_v3 FROM x WHERE v3 IS NOT NULL) "
          "sub_query WHERE order_v3 <= 2",
          lambda f: x_of(f).drop_nulls("v3").group_by("id6").agg(
              pl.col("v3").top_k(2).alias("largest2_v3")).explode("largest2_v3"),
          None, keys=("id6", "largest2_v3"), missing="no window operator (row_number)",
          needs=("row_number",)),
    Query("groupby q9", "regression v1 v2 by id2 id4", "groupby",
          "SELECT id2, id4, pow(corr(v1, v2), 2) AS r2 FROM x GROUP BY id2, id4",
          lambda f: x_of(f).group_by("id2", "id4").agg(
              (pl.corr("v1", "v2") ** 2).alias("r2")),
          None, keys=("id2", "id4"), missing="no corr aggregate", needs=("corr",)),
    Query("groupby q10", "sum v3 count by id1:id6", "groupby",
          "SELECT id1, id2, id3, id4, id5, id6, sum(v3) AS v3, count(*) AS count "
          "FROM x GROUP BY id1, id2, id3, id4, id5, id6",
          lambda f: x_of(f).group_by("id1", "id2", "id3", "id4", "id5", "id6").agg(
              pl.sum("v3"), pl.len().alias("count")),
          lambda p: grouped(p["x"], ["id1", "id2", "id3", "id4", "id5", "id6"],
                            sums("v3") + [call("count", E.lit(1)).alias("count")]),
          keys=("id1", "id2", "id3", "id4", "id5", "id6")),
    Query("top-n", "top 100 v3", "groupby",
          "SELECT * FROM x ORDER BY v3 DESC LIMIT 100",
          lambda f: x_of(f).sort("v3", descending=True).head(100),
          lambda p: p["x"].sort([(col("v3"), False, None)]).limit(100), ordered_by="v3"),
    Query("window", "running sum v1 by id1 ordered by id4", "groupby",
          "SELECT id1, id4, sum(v1) OVER (PARTITION BY id1 ORDER BY id4 ROWS UNBOUNDED "
          "PRECEDING) AS running_v1 FROM x",
          lambda f: x_of(f).sort("id4").select(
              "id1", "id4", pl.col("v1").cum_sum().over("id1").alias("running_v1")),
          None, missing="no window operator", needs=("row_number",)),
]
JOINS = [
    ("join q1", "small inner on int", "small", "id1", "", ["id4"]),
    ("join q2", "medium inner on int", "medium", "id2", "", ["id1", "id4", "id5"]),
    ("join q3", "medium outer on int", "medium", "id2", "LEFT ", ["id1", "id4", "id5"]),
    ("join q4", "medium inner on factor", "medium", "id5", "", ["id1", "id2", "id4"]),
    ("join q5", "big inner on int", "big", "id3", "", ["id1", "id2", "id4", "id5", "id6"]),
]
for name, question, right, key, sql_how, columns in JOINS:
    how = "left" if sql_how else "inner"
    QUERIES.append(Query(
        name, question, "join", join_sql(right, key, sql_how, columns),
        lambda f, r=right, k=key, h=how, c=columns: polars_joined(f, r, k, h, c),
        lambda p, r=right, k=key, h=how, c=columns: joined(p, r, k, h, c)))

# The window question is a placeholder: none of the three runs it until the engine has windows.
PLACEHOLDERS = {"window"}

# --- running and comparing ---------------------------------------------------------------------


@dataclass
class Engines:
    """One dataset as each library holds it: Arrow tables, Bowstring plans reading them, a DuckDB
    connection with them registered, Polars lazy frames over them."""

    plans: dict[str, Plan]
    duckdb: duckdb.DuckDBPyConnection
    frames: dict[str, pl.LazyFrame]

    @staticmethod
    def of(tables: Tables, thread_count: int) -> Engines:
        connection = duckdb.connect()
        connection.execute(f"SET threads = {thread_count}")
        for name, table in tables.items():
            connection.register(name, table)
        return Engines({name: Plan.from_arrow(table) for name, table in tables.items()},
                       connection,
                       {name: pl.from_arrow(table).lazy() for name, table in tables.items()})


def runners(query: Query, engines: Engines) -> dict[str, Callable[[], pa.Table]]:
    """What runs `query` on each library that can, each returning an Arrow table."""
    result: dict[str, Callable[[], pa.Table]] = {}
    if query.ours is not None:
        plan = query.ours(engines.plans)
        result["bowstring"] = lambda: pa.table(_core.execute(plan))
    result["duckdb"] = lambda: engines.duckdb.sql(query.sql).to_arrow_table()
    lazy = query.polars(engines.frames)
    result["polars"] = lambda: lazy.collect().to_arrow()
    return result


def normalized(table: pa.Table) -> pa.Table:
    """The columns by position, numbers (ints, decimals of DuckDB's sums) as doubles."""
    columns = []
    for column in table.columns:
        kind = column.type
        numeric = pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind)
        if pa.types.is_large_string(kind) or pa.types.is_string_view(kind):
            column = column.cast(pa.string())
        columns.append(column.cast(pa.float64()) if numeric else column)
    return pa.table(columns, names=[f"c{i}" for i in range(len(columns))])


def close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


# Results of at most this many rows are compared row by row; larger ones by their sums.
ROW_BY_ROW = 200_000


def mismatched_rows(want: pa.ChunkedArray, got: pa.ChunkedArray) -> np.ndarray:
    """The positions where two columns differ: nulls in different rows, different strings, or
    numbers apart by more than rounding (NaN equal to NaN)."""
    nulls_differ = np.asarray(pc.is_null(want)) != np.asarray(pc.is_null(got))
    if pa.types.is_floating(want.type):
        a = want.to_numpy(zero_copy_only=False)
        b = got.to_numpy(zero_copy_only=False)
        values_differ = ~np.isclose(a, b, rtol=1e-9, atol=1e-9, equal_nan=True)
    else:
        values_differ = ~np.asarray(pc.fill_null(pc.equal(want, got), True))
    return np.flatnonzero(nulls_differ | values_differ)


def differences(query: Query, expected: pa.Table, actual: pa.Table) -> list[str]:
    """How `actual` differs from `expected` (empty when equal): row by row after sorting by the
    query's keys (results of up to ROW_BY_ROW rows), or the sorted column in order (rows tied on
    it may come in any order), else by row count, null counts and column sums."""
    sorted_column = f"c{expected.column_names.index(query.ordered_by)}" if query.ordered_by else ""
    expected, actual = normalized(expected), normalized(actual)
    if expected.schema != actual.schema:
        return [f"schema {actual.schema} instead of {expected.schema}"]
    if expected.num_rows != actual.num_rows:
        return [f"{actual.num_rows} rows instead of {expected.num_rows}"]
    found = []
    if sorted_column or (query.keys and expected.num_rows <= ROW_BY_ROW):
        if query.keys:
            order = [(f"c{i}", "ascending") for i in range(len(query.keys))]
            expected, actual = expected.sort_by(order), actual.sort_by(order)
        for name in [sorted_column] if sorted_column else expected.column_names:
            want, got = expected.column(name), actual.column(name)
            mismatched = mismatched_rows(want, got)
            if len(mismatched):
                i = int(mismatched[0])
                found.append(f"column {name}: {len(mismatched)} rows differ, first at {i}: "
                             f"{got[i].as_py()!r} instead of {want[i].as_py()!r}")
        return found
    for name in expected.column_names:
        want, got = expected.column(name), actual.column(name)
        if want.null_count != got.null_count:
            found.append(f"column {name}: {got.null_count} nulls instead of {want.null_count}")
        elif pa.types.is_floating(want.type) and not close(pc.sum(want).as_py(), pc.sum(got).as_py()):
            found.append(f"column {name}: sum {pc.sum(got).as_py()} instead of {pc.sum(want).as_py()}")
    return found


def timed(run: Callable[[], pa.Table], repetitions: int) -> tuple[pa.Table, float]:
    """The result of the first of `repetitions` runs and the best wall-clock time of them all."""
    result, best = None, float("inf")
    for _ in range(max(repetitions, 1)):
        started = time.perf_counter()
        table = run()
        best = min(best, time.perf_counter() - started)
        result = table if result is None else result
    return result, best


@dataclass
class Outcome:
    """A query's times per library (seconds) and what went wrong, if anything."""

    times: dict[str, float]
    rows: int
    mismatches: list[str]


def run_query(query: Query, engines: Engines, repetitions: int) -> Outcome:
    """Runs `query` on every library that can, checks the results against DuckDB's, then times
    `repetitions` more runs of each (none when 0)."""
    times, results = {}, {}
    for library, run in runners(query, engines).items():
        results[library] = run()
        if repetitions:
            times[library] = timed(run, repetitions)[1]
    reference = results["duckdb"]
    mismatches = [f"{library}: {difference}" for library, result in results.items()
                  if library != "duckdb" for difference in differences(query, reference, result)]
    return Outcome(times, reference.num_rows, mismatches)


def datasets(rows: int) -> dict[str, dict[str, pa.Table]]:
    return {"groupby": {"x": groupby_table(rows)}, "join": join_tables(rows)}


def polars_side(thread_count: int) -> Side:
    """Polars in this process on its thread pool, with the jemalloc its wheels bundle on Linux."""
    return Side(f"Polars {pl.__version__}", threads(thread_count), "jemalloc (bundled)")


def ratio(ours: float | None, theirs: float | None) -> str:
    return f"{ours / theirs:>12.2f}" if ours is not None and theirs is not None else f"{'-':>12}"


def seconds(value: float | None) -> str:
    return f"{value:>10.3f}" if value is not None else f"{'-':>10}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e7, help="rows of x (default 1e7)")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--filter", default=".*", help="regular expression on query names")
    args = parser.parse_args()
    rows = int(args.rows)

    started = time.perf_counter()
    data = datasets(rows)
    print(f"data: {rows:,} rows of x, {GROUPS} groups per key; join tables of "
          + ", ".join(f"{name} {table.num_rows:,}" for name, table in data["join"].items()
                      if name != "x")
          + f" rows (generated in {time.perf_counter() - started:.1f} s)")
    print(setup_line(bowstring_side(THREADS), duckdb_side(THREADS),
                     polars_side(pl.thread_pool_size())))
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"{'query':<12}{'question':<30}{'rows':>10}{'ours s':>10}{'duckdb s':>10}"
          f"{'polars s':>10}{'ours/duckdb':>12}{'ours/polars':>12}  note")
    engines = {name: Engines.of(tables, THREADS) for name, tables in data.items()}
    failed = False
    for query in QUERIES:
        if not re.search(args.filter, query.name):
            continue
        if query.name in PLACEHOLDERS:
            print(f"{query.name:<12}{query.question:<30}  skipped: {query.missing} yet")
            continue
        outcome = run_query(query, engines[query.dataset], args.repetitions)
        ours = outcome.times.get("bowstring")
        note = "; ".join(outcome.mismatches) or (f"not ours: {query.missing}" if query.missing else "")
        failed = failed or bool(outcome.mismatches)
        print(f"{query.name:<12}{query.question:<30}{outcome.rows:>10}{seconds(ours)}"
              f"{seconds(outcome.times.get('duckdb'))}{seconds(outcome.times.get('polars'))}"
              f"{ratio(ours, outcome.times.get('duckdb'))}{ratio(ours, outcome.times.get('polars'))}"
              f"  {note}".rstrip())
    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
