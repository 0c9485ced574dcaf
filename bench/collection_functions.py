"""Times Bowstring's collection functions against DuckDB's list functions on the same arrays,
in this process, and prints the ratios. (Not named collections.py: run as a script, that name
would hide the standard library's collections module.)

Cases (ROWS = 1 million arrays of 0 to 20 int64 elements, 5% null elements, 2% null arrays,
unless --rows says otherwise):

- ``size``: Spark's ``size`` against DuckDB's ``len``;
- ``array_contains``: Spark's ``array_contains(a, 7)`` (three-valued: null when not found among
  null elements) against DuckDB's ``list_contains(a, 7)``;
- ``explode``: the ``explode`` generator (the elements as a column and the input row of each)
  against DuckDB's ``SELECT unnest(a)`` (the elements only).

Both sides run on one thread: Bowstring's kernels run on the calling thread, DuckDB with
``SET threads TO 1``. DuckDB's times include its scan of the registered Arrow table and the
conversion of its result to Arrow; Bowstring's are a call of the kernel on the Arrow array.

Each case runs once to warm up, then REPETITIONS times; the best time counts. A ratio above 1
means Bowstring is faster than DuckDB.

Usage: python bench/collection_functions.py [--rows N] [--repetitions N] [--filter REGEX]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import numpy as np
import pyarrow as pa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from bowstring import compute  # noqa: E402
from benchmark_runs import (  # noqa: E402
    best_time,
    bowstring_side,
    duckdb_side,
    ratio_header,
    ratio_row,
    setup_line,
)

CASE_WIDTH = 16


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--filter", default=".*", help="regular expression on case names")
    return parser.parse_args()


def make_lists(rows: int) -> pa.ListArray:
    """`rows` arrays of 0 to 20 int64 values in [0, 100), some elements and arrays null."""
    rng = np.random.default_rng(11)
    sizes = rng.integers(0, 21, rows)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    values = pa.array(rng.integers(0, 100, int(offsets[-1])),
                      mask=rng.random(int(offsets[-1])) < 0.05)
    null_lists = pa.array(rng.random(rows) < 0.02)
    return pa.ListArray.from_arrays(pa.array(offsets), values, mask=null_lists)


def duckdb_query(sql: str, table: pa.Table) -> Callable[[], object]:
    """A run of `sql` in DuckDB on one thread over `table` (registered as t), fetched as Arrow."""
    import duckdb

    connection = duckdb.connect()
    connection.execute("SET threads TO 1")
    connection.register("t", table)
    return lambda: connection.sql(sql).to_arrow_table()


def make_cases(rows: int) -> Dict[str, Tuple[Callable[[], object], Callable[[], object]]]:
    lists = make_lists(rows)
    table = pa.table({"a": lists})
    return {
        "size": (lambda: compute.call("size", lists), duckdb_query("SELECT len(a) FROM t", table)),
        "array_contains": (lambda: compute.call("array_contains", lists, 7),
                           duckdb_query("SELECT list_contains(a, 7) FROM t", table)),
        "explode": (lambda: compute.generate("explode", lists),
                    duckdb_query("SELECT unnest(a) FROM t", table)),
    }


def main() -> int:
    args = parse_args()
    if not list((ROOT / "python" / "bowstring").glob("_core*.so")):
        sys.exit("bowstring's extension module is not built: run `make build`")
    pattern = re.compile(args.filter)
    cases = {name: case for name, case in make_cases(args.rows).items() if pattern.search(name)}
    print(f"{args.rows:,} arrays, best of {args.repetitions} after a warm-up; "
          "ratio = DuckDB time / Bowstring time (above 1: Bowstring is faster)")
    print()
    print(setup_line(bowstring_side(1), duckdb_side(1)))
    header = ratio_header(CASE_WIDTH)
    print(header)
    print("-" * len(header))
    slower: List[str] = []
    for name, (ours_run, theirs_run) in cases.items():
        ours = best_time(ours_run, args.repetitions)
        theirs = best_time(theirs_run, args.repetitions)
        print(ratio_row(name, ours, "duckdb", theirs, "", CASE_WIDTH))
        if theirs < ours:
            slower.append(f"{name} ({theirs / ours:.2f}x)")
    print()
    print("slower than DuckDB: " + ", ".join(slower) if slower
          else "not slower than DuckDB on any case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
