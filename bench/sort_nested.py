"""Times Bowstring's sort of struct and list keys against pyarrow and DuckDB, in this process,
and prints the ratios.

Cases (ROWS = 1 million unless --rows says otherwise; about 5% nulls at every level), each
ascending with nulls first (Spark's default) on every side:

- ``struct<int64,double>`` and ``struct<string,int32>``: against pyarrow's multi-key
  ``sort_indices`` of a table of the struct's fields (pyarrow cannot sort a struct column; the
  flat fields are the same work) and DuckDB's ``ORDER BY`` of the struct column;
- ``list<int32>`` (0 to 5 elements of 20 values): against DuckDB's ``ORDER BY`` of the list
  column (pyarrow cannot sort lists).

DuckDB sorts the rows' numbers by the key (``SELECT i FROM t ORDER BY key``) and returns them as
an Arrow table, as Bowstring returns the sorted row numbers; it puts null fields and elements
after the values (``NULLS FIRST`` applies to the key itself), where Spark puts them first: the
same work, another order, as its rows' note says. Bowstring's sort runs on the
calling thread; so do pyarrow's ``sort_indices`` and DuckDB, set to one thread. The first line
names both sides' threads and allocators.

Each case runs once to warm up, then REPETITIONS times; the best time counts. A ratio above 1
means Bowstring is faster than the peer.

Usage: python bench/sort_nested.py [--rows N] [--repetitions N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, List, Tuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from bowstring import compute  # noqa: E402
from benchmark_runs import (  # noqa: E402
    best_time,
    bowstring_side,
    duckdb_side,
    pyarrow_side,
    ratio_header,
    ratio_row,
    setup_line,
)

# (peer, its sort, a note on how it differs) of one case
Peer = Tuple[str, Callable[[], object], str]
# (name, Bowstring's sort, the peers')
Case = Tuple[str, Callable[[], object], List[Peer]]
CASE_WIDTH = 22
DUCKDB_NOTE = "nulls inside the key last"


def duckdb_sort(key: pa.Array) -> Callable[[], object]:
    """DuckDB's sort, on one thread, of the row numbers by `key` (ascending, nulls first)."""
    import duckdb

    connection = duckdb.connect()
    connection.execute("SET threads TO 1")
    connection.register("t", pa.table({"i": pa.array(np.arange(len(key))), "key": key}))
    return lambda: connection.sql("SELECT i FROM t ORDER BY key ASC NULLS FIRST").to_arrow_table()


def cases(rows: int) -> List[Case]:
    """(name, Bowstring's sort, the peers') for every case, over random data of `rows` rows."""
    rng = np.random.default_rng(7)

    def nulls() -> np.ndarray:
        return rng.random(rows) < 0.05

    numbers = pa.array(rng.integers(-(10**6), 10**6, rows), mask=nulls())
    fractions = pa.array(rng.random(rows) * 100, mask=nulls())
    pairs = pa.StructArray.from_arrays(
        [numbers, fractions], names=["a", "b"], mask=pa.array(nulls())
    )
    words = pa.array([f"w{x}" for x in rng.integers(0, 50_000, rows)], mask=nulls())
    small = pa.array(rng.integers(-1000, 1000, rows).astype(np.int32), mask=nulls())
    labelled = pa.StructArray.from_arrays([words, small], names=["s", "i"], mask=pa.array(nulls()))
    lengths = rng.integers(0, 6, rows)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    element_count = int(offsets[-1])
    elements = pa.array(
        rng.integers(0, 20, element_count).astype(np.int32),
        mask=rng.random(element_count) < 0.05,
    )
    lists = pa.ListArray.from_arrays(pa.array(offsets), elements, mask=pa.array(nulls()))

    def struct_case(name: str, key: pa.StructArray) -> Case:
        table = pa.table({field.name: key.field(i) for i, field in enumerate(key.type)})
        order = [(field.name, "ascending", "at_start") for field in key.type]

        def pyarrow_sort() -> object:
            return pc.sort_indices(table, sort_keys=order)

        return (
            name,
            lambda: compute.sort_indices([key]),
            [("pyarrow", pyarrow_sort, ""), ("duckdb", duckdb_sort(key), DUCKDB_NOTE)],
        )

    return [
        struct_case("struct<int64,double>", pairs),
        struct_case("struct<string,int32>", labelled),
        ("list<int32>", lambda: compute.sort_indices([lists]),
         [("duckdb", duckdb_sort(lists), DUCKDB_NOTE)]),
    ]


def main() -> None:
    """Runs every case and prints Bowstring's time, each peer's and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repetitions", type=int, default=5)
    arguments = parser.parse_args()
    print(f"{arguments.rows:,} rows, best of {arguments.repetitions} after a warm-up; "
          "ratio = peer time / Bowstring time (above 1: Bowstring is faster)")
    print()
    print(setup_line(bowstring_side(1), pyarrow_side(1), duckdb_side(1)))
    header = ratio_header(CASE_WIDTH)
    print(header)
    print("-" * len(header))
    for name, ours, peers in cases(arguments.rows):
        our_time = best_time(ours, arguments.repetitions)
        for index, (peer, run, note) in enumerate(peers):
            peer_time = best_time(run, arguments.repetitions)
            print(ratio_row(name, our_time, peer, peer_time, note, CASE_WIDTH, index == 0))


if __name__ == "__main__":
    main()
