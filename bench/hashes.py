"""Times Bowstring's digests against DuckDB's on the same strings, in this process, and prints
the ratios.

Cases (ROWS = 1 million unless --rows says otherwise), over strings of 5 to 40 ASCII letters:

- ``sha2(256)``: Spark's ``sha2(s, 256)`` against DuckDB's ``sha256(s)``;
- ``md5``: Spark's ``md5(s)`` against DuckDB's ``md5(s)``.

Both return lower-case hex strings; the script checks the two sides agree before timing.
Bowstring's kernels run on the calling thread; DuckDB runs on one thread (``SET threads TO 1``)
over the same Arrow table, its result fetched as Arrow.

Each case runs once to warm up, then REPETITIONS times; the best time counts. A ratio above 1
means Bowstring is faster than DuckDB.

Usage: python bench/hashes.py [--rows N] [--repetitions N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from bowstring import compute  # noqa: E402
from benchmark_runs import (  # noqa: E402
    best_time,
    bowstring_side,
    duckdb_side,
    paired_setup_line,
    ratio_header,
    ratio_row,
)


def random_strings(rows: int) -> pa.Array:
    """`rows` strings of 5 to 40 lower-case ASCII letters."""
    rng = np.random.default_rng(11)
    lengths = rng.integers(5, 41, rows)
    offsets = np.zeros(rows + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    data = rng.integers(ord("a"), ord("z") + 1, int(offsets[-1]), dtype=np.uint8)
    return pa.StringArray.from_buffers(rows, pa.py_buffer(offsets), pa.py_buffer(data))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()

    import duckdb

    strings = random_strings(args.rows)
    connection = duckdb.connect()
    connection.execute("SET threads TO 1")
    connection.register("t", pa.table({"s": strings}))

    cases = {
        "sha2(256)": (lambda: compute.call("sha2", strings, 256), "SELECT sha256(s) FROM t"),
        "md5": (lambda: compute.call("md5", strings), "SELECT md5(s) FROM t"),
    }
    print(paired_setup_line(bowstring_side(1), duckdb_side(1)))
    print(f"{args.rows} strings of 5 to 40 ASCII letters")
    width = 12
    print(ratio_header(width))
    for name, (ours, sql) in cases.items():
        theirs = lambda sql=sql: connection.sql(sql).to_arrow_table()  # noqa: E731
        if ours().to_pylist() != theirs().column(0).to_pylist():
            raise SystemExit(f"{name}: Bowstring and DuckDB disagree")
        ours_time = best_time(ours, args.repetitions)
        theirs_time = best_time(theirs, args.repetitions)
        print(ratio_row(name, ours_time, "duckdb", theirs_time, "", width))


if __name__ == "__main__":
    main()
