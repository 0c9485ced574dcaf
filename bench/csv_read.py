"""Times Bowstring's CSV reader and writer against pyarrow.csv and DuckDB on the same file.

Generates a CSV file of --rows rows (default 10M, about 0.9 GB: integers, doubles, strings of
which every tenth holds a comma and is quoted, dates; written by Bowstring's writer), then
reads it with each library in this process: Bowstring with a given schema (no inference), with inferSchema on (one extra pass over
the file) and with inferSchema off (every column a string, as Spark reads it), pyarrow's
multi-threaded reader and DuckDB's read_csv into an Arrow table. The write side writes the
table read back out with each library. Each time is the best of --repetitions runs; ratios are
Bowstring/peer (below 1: Bowstring is faster). Polars is not installed, so it is not a peer.

Usage: PYTHONPATH=python python bench/csv_read.py [--rows N] [--repetitions N] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

import bowstring
from bowstring import _core

SCHEMA_DDL = ("id BIGINT, quantity INT, price DOUBLE, ratio DOUBLE, name STRING, "
              "city STRING, day DATE, note STRING")


def generate(path: Path, rows: int) -> None:
    """Writes the benchmark file, a million rows at a time. Only values that need quotes (the
    names holding a comma) are quoted."""
    rng = np.random.default_rng(42)
    cities = np.array(["Lisbon", "Osaka", "Lima", "Oslo", "Cairo", "Quito"])
    chunk = 1_000_000

    def batches() -> Iterator[pa.RecordBatch]:
        for start in range(0, rows, chunk):
            n = min(chunk, rows - start)
            ids = np.arange(start, start + n, dtype=np.int64)
            names = np.char.add("customer_", ids.astype(str))
            names = np.where(ids % 10 == 0, np.char.add(names, ", jr"), names)
            yield pa.record_batch({
                "id": ids,
                "quantity": rng.integers(-1000, 1000, n, dtype=np.int32),
                "price": np.round(rng.random(n) * 10000, 2),
                "ratio": rng.random(n),
                "name": names,
                "city": cities[rng.integers(0, len(cities), n)],
                "day": pa.array(rng.integers(0, 20000, n).astype("datetime64[D]")),
                "note": np.where(ids % 7 == 0, "fragile", "standard delivery"),
            })

    first = next(batches())
    stream = pa.RecordBatchReader.from_batches(first.schema, batches())
    _core.write_csv(stream, str(path), {"header": "true"})


def best_of(repetitions: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repetitions", type=int, default=1)
    parser.add_argument("--dir", default=None, help="where to put the files (default: a temp dir)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as directory:
        path = Path(directory) / "bench.csv"
        generate(path, args.rows)
        size = path.stat().st_size
        duckdb_threads = duckdb.sql("SELECT current_setting('threads')").fetchall()[0][0]
        print(f"{args.rows} rows, {size / 1e6:.0f} MB; bowstring on "
              f"{bowstring._core.thread_pool_size()} threads, pyarrow on {pa.cpu_count()}, "
              f"DuckDB on {duckdb_threads}; best of {args.repetitions}")
        file = str(path)
        reads: dict[str, Callable[[], object]] = {
            "bowstring (schema given)": lambda: pa.table(
                _core.read_csv([file], {"header": "true"}, SCHEMA_DDL)),
            "bowstring (inferSchema on)": lambda: pa.table(
                _core.read_csv([file], {"header": "true", "inferSchema": "true"})),
            "bowstring (inferSchema off, strings)": lambda: pa.table(
                _core.read_csv([file], {"header": "true"})),
            "pyarrow": lambda: pacsv.read_csv(file),
            "duckdb": lambda: duckdb.sql(f"SELECT * FROM read_csv('{file}')").to_arrow_table(),
        }
        times = {name: best_of(args.repetitions, run) for name, run in reads.items()}
        table = pacsv.read_csv(file)
        out = str(Path(directory) / "out.csv")
        connection = duckdb.connect()
        connection.register("bench_table", table)
        writes: dict[str, Callable[[], object]] = {
            "bowstring write": lambda: _core.write_csv(table, out, {"header": "true"}),
            "pyarrow write": lambda: pacsv.write_csv(table, out),
            "duckdb write": lambda: connection.sql(f"COPY bench_table TO '{out}' (HEADER)"),
        }
        times.update({name: best_of(args.repetitions, run) for name, run in writes.items()})
        os.remove(out)

    for name, seconds in times.items():
        print(f"{name:40s} {seconds:8.3f} s  {size / seconds / 1e6:8.0f} MB/s")
    for ours in [name for name in times if name.startswith("bowstring (")]:
        for peer in ["pyarrow", "duckdb"]:
            print(f"ratio {ours} / {peer}: {times[ours] / times[peer]:.2f}")
    for peer in ["pyarrow write", "duckdb write"]:
        print(f"ratio bowstring write / {peer}: {times['bowstring write'] / times[peer]:.2f}")


if __name__ == "__main__":
    main()
