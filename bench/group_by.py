"""Compares Bowstring's grouped aggregation and hashing with pyarrow and DuckDB.

Grouped sum over 10M int64 rows with 10, 10K and 1M groups (bowstring.compute.group_by,
pyarrow.Table.group_by(...).aggregate, DuckDB's GROUP BY on one thread), and Spark's hash of
10M int64 (bowstring.compute.call("hash"), DuckDB's hash() on one thread). Prints the best wall
time of the repetitions and the ratio Bowstring / peer (below 1: Bowstring is faster). pyarrow
may use several threads; Bowstring runs on one.
Usage: python bench/group_by.py [--rows N] [--repetitions N]
"""

from __future__ import annotations

import argparse
import time
from typing import Callable

import duckdb
import numpy as np
import pyarrow as pa

from bowstring import compute


def best_of(repetitions: int, run: Callable[[], object]) -> float:
    """The fastest of `repetitions` runs, in milliseconds."""
    best = float("inf")
    for _ in range(repetitions):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repetitions", type=int, default=3)
    args = parser.parse_args()

    rng = np.random.default_rng(42)
    values = pa.array(rng.integers(-1000, 1000, args.rows), pa.int64())
    connection = duckdb.connect()
    connection.execute("SET threads = 1")
    print(f"{args.rows} rows; wall time in milliseconds, best of {args.repetitions}")
    print(f"{'case':28} {'bowstring':>10} {'pyarrow':>10} {'ratio':>7} {'duckdb':>10} {'ratio':>7}")
    for groups in (10, 10_000, 1_000_000):
        keys = pa.array(rng.integers(0, groups, args.rows), pa.int64())
        table = pa.table({"k": keys, "v": values})
        connection.register("data", table)
        ours = best_of(args.repetitions, lambda: compute.group_by([keys], [("sum", [values])]))
        arrow = best_of(args.repetitions, lambda: table.group_by("k").aggregate([("v", "sum")]))
        duck = best_of(
            args.repetitions,
            lambda: connection.sql("select k, sum(v) from data group by k").to_arrow_table(),
        )
        print(f"{'grouped sum, ' + str(groups) + ' groups':28} {ours:10.1f} {arrow:10.1f} "
              f"{ours / arrow:7.2f} {duck:10.1f} {ours / duck:7.2f}")
    ours = best_of(args.repetitions, lambda: compute.call("hash", values))
    duck = best_of(
        args.repetitions, lambda: connection.sql("select hash(v) from data").to_arrow_table()
    )
    print(f"{'hash of int64':28} {ours:10.1f} {'':>10} {'':>7} {duck:10.1f} {ours / duck:7.2f}")


if __name__ == "__main__":
    main()
