"""Times Bowstring's vectorized kernels against pyarrow.compute (and DuckDB where it computes
the same thing) on the same data, in this process, and prints the ratios.

Cases (ROWS = 10 million unless --rows says otherwise):

- ``add``: int64 + int64 (Bowstring checks overflow as Spark's ANSI mode does, so the peer is
  pyarrow's ``add_checked``);
- ``greater+filter``: ``v > 0`` on int64, then the rows where it holds;
- ``upper``, ``contains``: on short ASCII strings;
- ``cast string->int``: decimal integers as strings to int64;
- ``sort int64`` (10M) and ``sort strings`` (1M): sort indices, ascending;
- ``group sum``: sum of a float64 column grouped by an int64 key with 10, 10K and 1M groups
  (also DuckDB's ``GROUP BY`` over the same Arrow table, on one thread, and pyarrow on one
  thread, ``pyarrow 1t``). Bowstring's ``group_by`` and pyarrow's default both split inputs of
  millions of rows over every core;
- ``group sum, string+int keys``: the same sum grouped by a string key of 8 values and an
  int64 key of 10 (80 groups);
- ``hash int64``: Spark's ``hash`` (Murmur3) against DuckDB's ``hash`` (there is no hash in
  pyarrow.compute): different functions of the same cost class.

Each case runs once to warm up, then REPETITIONS times; the best time counts. A ratio above 1
means Bowstring is faster than the peer.

Usage: python bench/compute.py [BUILD_DIR] [--rows N] [--repetitions N] [--filter REGEX]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Callable, Dict, List

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from bowstring import compute  # noqa: E402
from benchmark_runs import best_time  # noqa: E402


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default="build", help="the CMake build directory")
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--filter", default=".*", help="regular expression on case names")
    return parser.parse_args()



def duckdb_query(sql: str, **tables: pa.Table) -> Callable[[], object]:
    """A run of `sql` in DuckDB over the given Arrow tables, fetched as Arrow."""
    import duckdb

    connection = duckdb.connect()
    connection.execute("SET threads TO 1")
    for name, table in tables.items():
        connection.register(name, table)
    return lambda: connection.sql(sql).to_arrow_table()


def make_cases(rows: int) -> Dict[str, Dict[str, Callable[[], object]]]:
    """For each case: the Bowstring run and its peers' runs, by peer name."""
    rng = np.random.default_rng(7)
    left = pa.array(rng.integers(-1_000_000, 1_000_000, rows))
    right = pa.array(rng.integers(-1_000_000, 1_000_000, rows))
    string_rows = rows
    words = np.array(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"])
    strings = pa.array(
        np.char.add(words[rng.integers(0, len(words), string_rows)],
                    rng.integers(0, 1000, string_rows).astype(str))
    )
    digits = pa.array(rng.integers(-10**9, 10**9, rows).astype(str))
    sort_strings = pa.array(rng.integers(0, 10**12, min(rows, 1_000_000)).astype(str))
    values = pa.array(rng.random(rows))

    cases: Dict[str, Dict[str, Callable[[], object]]] = {
        "add int64": {
            "bowstring": lambda: compute.call("+", left, right),
            "pyarrow": lambda: pc.add_checked(left, right),
        },
        "greater+filter": {
            "bowstring": lambda: compute.filter(left, compute.call(">", left, 0)),
            "pyarrow": lambda: pc.filter(left, pc.greater(left, 0)),
        },
        "upper": {
            "bowstring": lambda: compute.call("upper", strings),
            "pyarrow": lambda: pc.utf8_upper(strings),
        },
        "contains": {
            "bowstring": lambda: compute.call("contains", strings, "lie"),
            "pyarrow": lambda: pc.match_substring(strings, "lie"),
        },
        "cast string->int": {
            "bowstring": lambda: compute.call("cast", digits, to="bigint"),
            "pyarrow": lambda: pc.cast(digits, pa.int64()),
        },
        "sort int64": {
            "bowstring": lambda: compute.sort_indices([left]),
            "pyarrow": lambda: pc.sort_indices(left),
        },
        "sort strings (1M)": {
            "bowstring": lambda: compute.sort_indices([sort_strings]),
            "pyarrow": lambda: pc.sort_indices(sort_strings),
        },
        "hash int64": {
            "bowstring": lambda: compute.call("hash", left),
            "duckdb": duckdb_query("SELECT hash(x) FROM t", t=pa.table({"x": left})),
        },
    }
    for groups in (10, 10_000, 1_000_000):
        keys = pa.array(rng.integers(0, groups, rows))
        table = pa.table({"k": keys, "v": values})
        cases[f"group sum, {groups:,} groups"] = {
            "bowstring": lambda keys=keys: compute.group_by([keys], [("sum", [values])]),
            "pyarrow": lambda table=table: table.group_by("k").aggregate([("v", "sum")]),
            "pyarrow 1t": lambda table=table: table.group_by("k", use_threads=False).aggregate(
                [("v", "sum")]
            ),
            "duckdb": duckdb_query("SELECT k, sum(v) FROM t GROUP BY k", t=table),
        }
    names = pa.array(words[rng.integers(0, len(words), rows)])
    small_keys = pa.array(rng.integers(0, 10, rows))
    two_keys = pa.table({"s": names, "k": small_keys, "v": values})
    cases["group sum, string+int keys"] = {
        "bowstring": lambda: compute.group_by([names, small_keys], [("sum", [values])]),
        "pyarrow": lambda: two_keys.group_by(["s", "k"]).aggregate([("v", "sum")]),
        "pyarrow 1t": lambda: two_keys.group_by(["s", "k"], use_threads=False).aggregate(
            [("v", "sum")]
        ),
        "duckdb": duckdb_query("SELECT s, k, sum(v) FROM t GROUP BY s, k", t=two_keys),
    }
    return cases


def main() -> int:
    args = parse_args()
    if not list((ROOT / "python" / "bowstring").glob("_core*.so")):
        sys.exit(f"bowstring's extension module is not built: run `make build` ({args.build})")
    pattern = re.compile(args.filter)
    cases = {name: runs for name, runs in make_cases(args.rows).items() if pattern.search(name)}
    print(f"{args.rows:,} rows, best of {args.repetitions} after a warm-up; "
          "ratio = peer time / Bowstring time (above 1: Bowstring is faster)\n")
    header = f"{'case':<26}{'bowstring s':>12}{'peer':>11}{'peer s':>10}{'ratio':>8}"
    print(header)
    print("-" * len(header))
    slower: List[str] = []
    for name, runs in cases.items():
        ours = best_time(runs["bowstring"], args.repetitions)
        first = True
        for peer, run in runs.items():
            if peer == "bowstring":
                continue
            theirs = best_time(run, args.repetitions)
            ratio = theirs / ours
            label = name if first else ""
            ours_cell = f"{ours:>12.4f}" if first else " " * 12
            print(f"{label:<26}{ours_cell}{peer:>11}{theirs:>10.4f}{ratio:>8.2f}")
            first = False
            if peer.startswith("pyarrow") and ratio < 1.0:
                slower.append(f"{name} vs {peer} ({ratio:.2f}x)")
    print()
    if slower:
        print("slower than pyarrow.compute: " + ", ".join(slower))
    else:
        print("not slower than pyarrow.compute on any case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
