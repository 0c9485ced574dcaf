"""Times Bowstring's vectorized kernels against pyarrow.compute (and DuckDB where it computes
the same thing) on the same data, in this process, and prints the ratios.

Cases (ROWS = 10 million unless --rows says otherwise):

- ``add``: int64 + int64 (Bowstring checks overflow as Spark's ANSI mode does, so the peer is
  pyarrow's ``add_checked``);
- ``greater+filter``: ``v > 0`` on int64, then the rows where it holds;
- ``upper``, ``contains``: on short ASCII strings;
- ``cast string->int``: decimal integers as strings to int64;
- ``sort int64`` (10M) and ``sort strings`` (1M): sort indices, ascending;
- ``group sum``: sum of a float64 column grouped by an int64 key with 10, 10K and 1M groups,
  against pyarrow's ``group_by`` and DuckDB's ``GROUP BY`` over the same Arrow table;
- ``group sum, string+int keys``: the same sum grouped by a string key of 8 values and an
  int64 key of 10 (80 groups);
- ``hash int64``: Spark's ``hash`` (Murmur3) against DuckDB's ``hash`` (there is no hash in
  pyarrow.compute): different functions of the same cost class.

Threads: Bowstring's kernels run on the calling thread, except grouped aggregation, which
splits inputs of millions of rows over the engine's threads (one per 2^20 rows, at most one per
core); pyarrow.compute's kernels run on the calling thread and its ``group_by`` on its thread
pool (``pa.set_cpu_count``). Each table pairs the peers on Bowstring's thread count: DuckDB's
``threads`` setting, pyarrow's pool size (``use_threads=False`` for one thread). A row on
another count (``pyarrow 1t``: pyarrow on one thread against Bowstring's several) says so in
its note. Every table's first line names both sides' threads and allocators.

Each case runs once to warm up, then REPETITIONS times; the best time counts. A ratio above 1
means Bowstring is faster than the peer.

Usage: python bench/compute.py [BUILD_DIR] [--rows N] [--repetitions N] [--filter REGEX]
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterator, List

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from bowstring import compute  # noqa: E402
from benchmark_runs import (  # noqa: E402
    Side,
    best_time,
    bowstring_side,
    bowstring_threads,
    duckdb_side,
    pyarrow_side,
    ratio_header,
    ratio_row,
    setup_line,
    unpaired_note,
)

CASE_WIDTH = 28

# Rows per thread of Bowstring's grouped aggregation (GroupByOptions::min_rows_per_thread).
GROUP_BY_ROWS_PER_THREAD = 1 << 20


@dataclass
class Peer:
    """A peer's run of a case: `library` ("pyarrow" or "duckdb") on `threads` threads."""

    label: str
    library: str
    threads: int
    run: Callable[[], object]
    note: str = ""


@dataclass
class Case:
    """Bowstring's run of a case on `threads` threads, and its peers'."""

    threads: int
    bowstring: Callable[[], object]
    peers: List[Peer] = field(default_factory=list)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default="build", help="the CMake build directory")
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--filter", default=".*", help="regular expression on case names")
    return parser.parse_args()


def peer_side(library: str, threads: int) -> Side:
    return pyarrow_side(threads) if library == "pyarrow" else duckdb_side(threads)


@contextlib.contextmanager
def pyarrow_cpu_count(threads: int) -> Iterator[None]:
    """pyarrow's thread pool resized to `threads` for the duration."""
    before = pa.cpu_count()
    pa.set_cpu_count(threads)
    try:
        yield
    finally:
        pa.set_cpu_count(before)


def pyarrow_group_sum(table: pa.Table, keys: List[str], threads: int) -> Callable[[], object]:
    """pyarrow's grouped sum of `v` by `keys`: on its thread pool, which `main` sizes to
    `threads`, or on the calling thread (use_threads=False) for one."""
    return lambda: table.group_by(keys, use_threads=threads > 1).aggregate([("v", "sum")])


def duckdb_query(sql: str, threads: int, **tables: pa.Table) -> Callable[[], object]:
    """A run of `sql` in DuckDB on `threads` threads over the given Arrow tables, fetched as
    Arrow."""
    import duckdb

    connection = duckdb.connect()
    connection.execute(f"SET threads TO {threads}")
    for name, table in tables.items():
        connection.register(name, table)
    return lambda: connection.sql(sql).to_arrow_table()


def make_cases(rows: int) -> Dict[str, Case]:
    """Every case: Bowstring's run and its peers', each on its thread count."""
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

    def single_threaded(ours: Callable[[], object], peer: Callable[[], object],
                        library: str = "pyarrow", note: str = "") -> Case:
        return Case(1, ours, [Peer(library, library, 1, peer, note)])

    cases: Dict[str, Case] = {
        "add int64": single_threaded(lambda: compute.call("+", left, right),
                                     lambda: pc.add_checked(left, right)),
        "greater+filter": single_threaded(
            lambda: compute.filter(left, compute.call(">", left, 0)),
            lambda: pc.filter(left, pc.greater(left, 0))),
        "upper": single_threaded(lambda: compute.call("upper", strings),
                                 lambda: pc.utf8_upper(strings)),
        "contains": single_threaded(lambda: compute.call("contains", strings, "lie"),
                                    lambda: pc.match_substring(strings, "lie")),
        "cast string->int": single_threaded(lambda: compute.call("cast", digits, to="bigint"),
                                            lambda: pc.cast(digits, pa.int64())),
        "sort int64": single_threaded(lambda: compute.sort_indices([left]),
                                      lambda: pc.sort_indices(left)),
        "sort strings (1M)": single_threaded(lambda: compute.sort_indices([sort_strings]),
                                             lambda: pc.sort_indices(sort_strings)),
        "hash int64": single_threaded(
            lambda: compute.call("hash", left),
            duckdb_query("SELECT hash(x) FROM t", 1, t=pa.table({"x": left})),
            library="duckdb", note="a different hash function"),
    }

    threads = min(bowstring_threads(), max(1, rows // GROUP_BY_ROWS_PER_THREAD))

    def grouped(ours: Callable[[], object], table: pa.Table, keys: List[str]) -> Case:
        sql = f"SELECT {', '.join(keys)}, sum(v) FROM t GROUP BY {', '.join(keys)}"
        peers = [
            Peer("pyarrow", "pyarrow", threads, pyarrow_group_sum(table, keys, threads)),
            Peer("duckdb", "duckdb", threads, duckdb_query(sql, threads, t=table)),
        ]
        if threads > 1:
            peers.append(Peer("pyarrow 1t", "pyarrow", 1, pyarrow_group_sum(table, keys, 1)))
        return Case(threads, ours, peers)

    for groups in (10, 10_000, 1_000_000):
        keys = pa.array(rng.integers(0, groups, rows))
        cases[f"group sum, {groups:,} groups"] = grouped(
            lambda keys=keys: compute.group_by([keys], [("sum", [values])]),
            pa.table({"k": keys, "v": values}), ["k"])
    names = pa.array(words[rng.integers(0, len(words), rows)])
    small_keys = pa.array(rng.integers(0, 10, rows))
    cases["group sum, string+int keys"] = grouped(
        lambda: compute.group_by([names, small_keys], [("sum", [values])]),
        pa.table({"s": names, "k": small_keys, "v": values}), ["s", "k"])
    return cases


def time_peer(peer: Peer, repetitions: int) -> float:
    """The best time of `peer`, pyarrow's thread pool sized to its thread count meanwhile."""
    if peer.library != "pyarrow":
        return best_time(peer.run, repetitions)
    with pyarrow_cpu_count(peer.threads):
        return best_time(peer.run, repetitions)


def main() -> int:
    args = parse_args()
    if not list((ROOT / "python" / "bowstring").glob("_core*.so")):
        sys.exit(f"bowstring's extension module is not built: run `make build` ({args.build})")
    pattern = re.compile(args.filter)
    cases = {name: case for name, case in make_cases(args.rows).items() if pattern.search(name)}
    print(f"{args.rows:,} rows, best of {args.repetitions} after a warm-up; "
          "ratio = peer time / Bowstring time (above 1: Bowstring is faster)")
    header = ratio_header(CASE_WIDTH)
    slower: List[str] = []
    # One table per Bowstring thread count, its setup line naming the paired sides.
    for threads in dict.fromkeys(case.threads for case in cases.values()):
        paired = {"pyarrow": pyarrow_side(threads), "duckdb": duckdb_side(threads)}
        print()
        print(setup_line(bowstring_side(threads), *paired.values()))
        print(header)
        print("-" * len(header))
        for name, case in cases.items():
            if case.threads != threads:
                continue
            ours = best_time(case.bowstring, args.repetitions)
            for index, peer in enumerate(case.peers):
                theirs = time_peer(peer, args.repetitions)
                note = unpaired_note(peer_side(peer.library, peer.threads), paired[peer.library])
                notes = "; ".join(text for text in (note, peer.note) if text)
                print(ratio_row(name, ours, peer.label, theirs, notes, CASE_WIDTH, index == 0))
                if peer.library == "pyarrow" and not note and theirs < ours:
                    slower.append(f"{name} ({theirs / ours:.2f}x)")
    print()
    if slower:
        print("slower than pyarrow.compute on the same threads: " + ", ".join(slower))
    else:
        print("not slower than pyarrow.compute on the same threads on any case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
