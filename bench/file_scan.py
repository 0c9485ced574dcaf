"""Times queries over a CSV file and a folder of files through the engine's file scan against
DuckDB and pyarrow.dataset answering the same questions over the same files.

Generates the file of bench/csv_read.py (--rows rows), then, in this process:
- aggregate: SELECT city, sum(price), count(*) GROUP BY city (columns pruned to two);
- filter: SELECT name WHERE quantity > 900 (a data filter run in the scan);
- pruned: the same file written as a folder partitioned by city (the engine's own writer),
  then the aggregate of one city (partition pruning: five of six folders never opened).
Each time is the best of --repetitions runs; ratios are Bowstring/peer (below 1: faster). The
results are checked equal before timing.

Usage: PYTHONPATH=python python bench/file_scan.py [--rows N] [--repetitions N] [--dir DIR]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Callable

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pads

from bowstring import _core
from csv_read import SCHEMA_DDL, generate

E = _core.Expression


def best_of(repetitions: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def totals(table: pa.Table) -> list[tuple]:
    return sorted((row["city"], round(row["total"], 2), row["n"]) for row in table.to_pylist())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--dir", default=None, help="where to put the files (default: a temp dir)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as directory:
        path = Path(directory) / "bench.csv"
        generate(path, args.rows)
        file = str(path)
        folder = str(Path(directory) / "by_city")
        options = {"header": "true"}
        scan = _core.read("csv", [file], options, SCHEMA_DDL)
        _core.write(scan, "csv", folder, partition_by=["city"], options=options)
        by_city = _core.read("csv", [folder], options, SCHEMA_DDL.replace("city STRING, ", ""))
        arrow_schema = pa.schema(pa.table(_core.execute(scan.limit(1))).schema)
        dataset = pads.dataset(file, format=pads.CsvFileFormat(), schema=arrow_schema)
        partitioned = pads.dataset(folder, format="csv", partitioning="hive")

        def aggregate(plan: _core.LogicalPlan) -> _core.LogicalPlan:
            return plan.aggregate([E.col("city")], [
                E.col("city"), E.call("sum", [E.col("price")]).alias("total"),
                E.call("count", [E.lit(1)]).alias("n")])

        def arrow_aggregate(table: pa.Table) -> pa.Table:
            grouped = table.group_by("city").aggregate([("price", "sum"), ("price", "count")])
            return grouped.select(["city", "price_sum", "price_count"]).rename_columns(
                ["city", "total", "n"])

        lisbon = E.call("=", [E.col("city"), E.lit("Lisbon")])
        duck_csv = f"read_csv('{file}')"
        duck_folder = f"read_csv('{folder}/*/*.csv', hive_partitioning=true)"
        queries: dict[str, dict[str, Callable[[], pa.Table]]] = {
            "aggregate": {
                "bowstring": lambda: pa.table(_core.execute(aggregate(scan))),
                "duckdb": lambda: duckdb.sql(
                    f"SELECT city, sum(price) AS total, count(*) AS n FROM {duck_csv} "
                    "GROUP BY city").to_arrow_table(),
                "pyarrow": lambda: arrow_aggregate(dataset.to_table(columns=["city", "price"])),
            },
            "filter": {
                "bowstring": lambda: pa.table(_core.execute(scan.filter(
                    E.call(">", [E.col("quantity"), E.lit(900)])).select([E.col("name")]))),
                "duckdb": lambda: duckdb.sql(
                    f"SELECT name FROM {duck_csv} WHERE quantity > 900").to_arrow_table(),
                "pyarrow": lambda: dataset.to_table(columns=["name"],
                                                    filter=pc.field("quantity") > 900),
            },
            "pruned": {
                "bowstring": lambda: pa.table(_core.execute(aggregate(by_city.filter(lisbon)))),
                "duckdb": lambda: duckdb.sql(
                    f"SELECT city, sum(price) AS total, count(*) AS n FROM {duck_folder} "
                    "WHERE city = 'Lisbon' GROUP BY city").to_arrow_table(),
                "pyarrow": lambda: arrow_aggregate(partitioned.to_table(
                    columns=["city", "price"], filter=pc.field("city") == "Lisbon")),
            },
        }
        print(f"{args.rows} rows, {path.stat().st_size / 1e6:.0f} MB; bowstring on "
              f"{_core.thread_pool_size()} threads; best of {args.repetitions}")
        for name, runs in queries.items():
            answers = {peer: run() for peer, run in runs.items()}
            if name == "filter":
                counts = {peer: answer.num_rows for peer, answer in answers.items()}
                assert len(set(counts.values())) == 1, counts
            else:
                expected = totals(answers["duckdb"])
                for peer, answer in answers.items():
                    assert totals(answer) == expected, (name, peer, totals(answer), expected)
            times = {peer: best_of(args.repetitions, run) for peer, run in runs.items()}
            line = "  ".join(f"{peer} {seconds:7.3f} s" for peer, seconds in times.items())
            ratios = "  ".join(f"/{peer} {times['bowstring'] / times[peer]:.2f}"
                               for peer in times if peer != "bowstring")
            print(f"{name:10s} {line}   ratio bowstring{ratios}")


if __name__ == "__main__":
    main()
