"""Times Python functions run in Bowstring's worker pool against PySpark 4 running the same
functions in local mode, and against the same computation done in this process.

Data: ROWS rows (10 million by default) of k: int64 and v: float64, in batches of 10,000 rows.
Jobs, each with 1 and 2 workers and, for Bowstring, both transports (batches through the
socket, or in shared memory):

- ``arrow``: the batches returned as they are (PySpark: ``mapInArrow``);
- ``pandas_series``: ``v * 2 + 1`` on pandas Series (PySpark: a Series-to-Series
  ``pandas_udf``);
- ``rows``: ``v * 2 + 1`` called once per row (PySpark: ``udf``).

The floor of the pandas job is the same computation in this process, batch by batch (the
conversions a worker does, without processes or IPC) and over the whole column at once.
PySpark runs in its own environment, .venv-pyspark (created on first use: pyspark 4.3.0,
pyarrow 26.0.1, pandas 3.1.1, numpy; Java 17), as a subprocess with local[1] and local[2];
its jobs write to the "noop" sink, Bowstring's results are read into a pyarrow Table.
Times are wall-clock seconds, the best of the repetitions after a warm-up run.

Each ratio pairs N of Bowstring's worker processes with PySpark's local[N] (N task threads,
each with its Python worker); the floor runs on one thread in this process, and the lines
comparing the worker pool with it say so. Setup lines name each side's threads and allocators.

Usage: python bench/udf.py [BUILD_DIR] [--rows N] [--repetitions N] [--no-pyspark]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional, Tuple

import numpy as np
import pyarrow as pa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from bowstring import udf  # noqa: E402
from benchmark_runs import Side, best_time, bowstring_allocator, setup_line, threads  # noqa: E402

PYSPARK_VENV = ROOT / ".venv-pyspark"
PYSPARK_REQUIREMENTS = ["pyspark==4.3.0", "pyarrow==26.0.1", "pandas==3.1.1", "numpy"]
BATCH_SIZE = 10_000
WORKER_COUNTS = (1, 2)
TRANSPORTS = ("socket", "shm")
JOBS = ("arrow", "pandas_series", "rows")


def identity(batches):
    yield from batches


def times_two_plus_one(v):
    return v * 2 + 1


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "build",
        nargs="?",
        default="build",
        help="the CMake build directory, which builds bowstring's extension module in place",
    )
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--no-pyspark", action="store_true", help="skip the PySpark runs")
    return parser.parse_args()



def bowstring_times(table: pa.Table, repetitions: int) -> Dict[Tuple[str, int, str], float]:
    """{(job, workers, transport): seconds}."""
    values = table.select(["v"])
    # job: (function, data, kind, schema)
    jobs = {
        "arrow": (identity, table, "arrow", None),
        "pandas_series": (times_two_plus_one, values, "pandas_series", "v double"),
        "rows": (times_two_plus_one, values, "rows", "v double"),
    }
    times = {}
    for workers in WORKER_COUNTS:
        with udf.WorkerPool(max_workers=workers) as pool:
            for name, (function, data, kind, schema) in jobs.items():
                for transport in TRANSPORTS:

                    def job() -> pa.Table:
                        return pa.table(
                            udf.map_batches(
                                function,
                                data,
                                kind=kind,
                                schema=schema,
                                workers=workers,
                                batch_size=BATCH_SIZE,
                                pool=pool,
                                transport=transport,
                            )
                        )

                    seconds = best_time(job, repetitions)
                    times[(name, workers, transport)] = seconds
                    print(
                        f"  bowstring {name:14} {workers} worker(s) {transport:7}{seconds:8.3f} s",
                        file=sys.stderr,
                    )
    return times


def floor_times(table: pa.Table, repetitions: int) -> Dict[str, float]:
    """The jobs done in this process: pandas batch by batch and over the whole column, and
    the per-row function batch by batch."""
    batches = table.select(["v"]).to_batches(max_chunksize=BATCH_SIZE)

    def pandas_batches() -> pa.Table:
        return pa.Table.from_batches(
            [
                pa.record_batch([pa.array(times_two_plus_one(batch.column(0).to_pandas()))], ["v"])
                for batch in batches
            ]
        )

    def pandas_table() -> pa.Table:
        return pa.table({"v": pa.array(times_two_plus_one(table.column("v").to_pandas()))})

    def rows_batches() -> pa.Table:
        return pa.Table.from_batches(
            [
                pa.record_batch(
                    [pa.array([times_two_plus_one(v) for v in batch.column(0).to_pylist()])],
                    ["v"],
                )
                for batch in batches
            ]
        )

    return {
        "pandas_series batches": best_time(pandas_batches, repetitions),
        "pandas_series table": best_time(pandas_table, repetitions),
        "rows batches": best_time(rows_batches, repetitions),
    }


def pyspark_python() -> Path:
    """The Python of .venv-pyspark, created with PySpark and its pinned dependencies when
    missing."""
    python = PYSPARK_VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {PYSPARK_VENV} (downloads about 400 MB)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(PYSPARK_VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", *PYSPARK_REQUIREMENTS], check=True
        )
    return python


def pyspark_times(rows: int, repetitions: int) -> Dict[Tuple[str, int], float]:
    """{(job, workers): seconds} from bench/udf_pyspark.py in local[workers]."""
    python = pyspark_python()
    times = {}
    for workers in WORKER_COUNTS:
        output = subprocess.run(
            [
                str(python),
                str(ROOT / "bench" / "udf_pyspark.py"),
                str(rows),
                str(workers),
                str(repetitions),
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for name, seconds in json.loads(output.strip().splitlines()[-1]).items():
            times[(name, workers)] = seconds
            print(
                f"  pyspark   {name:14} local[{workers}]        {seconds:8.3f} s", file=sys.stderr
            )
    return times


def pyarrow_pin() -> str:
    """The pyarrow version .venv-pyspark installs."""
    return next(pin for pin in PYSPARK_REQUIREMENTS if pin.startswith("pyarrow==")).split("==")[1]


def worker_allocator(pyarrow_version: str) -> str:
    """The allocator of the pyarrow batches a Python worker of pyarrow `pyarrow_version` makes:
    its default memory pool, known when it is the version this process runs."""
    if pyarrow_version == pa.__version__:
        return f"pyarrow {pyarrow_version} {pa.default_memory_pool().backend_name} in the workers"
    return f"pyarrow {pyarrow_version}'s default pool in the workers"


def pairing_sides(workers: int) -> Tuple[Side, Side]:
    """Bowstring's worker pool and PySpark's local[workers], as a table's rows pair them."""
    ours = Side(
        "Bowstring",
        threads(workers, "worker process", "worker processes") + ", 1 thread each",
        f"{bowstring_allocator()} in the engine, {worker_allocator(pa.__version__)}",
    )
    spark = Side(
        "PySpark " + PYSPARK_REQUIREMENTS[0].split("==")[1],
        f"local[{workers}] ({threads(workers, 'task thread')}, a Python worker each)",
        f"the JVM's heap (4g), {worker_allocator(pyarrow_pin())}",
    )
    return ours, spark


def floor_side() -> Side:
    """The computation done in this process, the floor of the worker pool's."""
    return Side("this process", threads(1),
                f"pyarrow {pa.__version__} {pa.default_memory_pool().backend_name}")


def cell(value: Optional[float], width: int, digits: int = 3) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"


def main() -> None:
    args = parse_args()
    if not any((ROOT / "python" / "bowstring").glob("_core*.so")):
        sys.exit(f"bowstring's extension module is not built: run `make build` ({args.build})")
    keys = np.arange(args.rows, dtype=np.int64)
    table = pa.table({"k": keys, "v": keys * 0.5})
    print(
        f"{args.rows:,} rows (k int64, v float64), batches of {BATCH_SIZE:,} rows", file=sys.stderr
    )

    ours = bowstring_times(table, args.repetitions)
    floors = floor_times(table, args.repetitions)
    spark = {} if args.no_pyspark else pyspark_times(args.rows, args.repetitions)

    print()
    print(
        f"Wall-clock seconds for {args.rows:,} rows, best of {args.repetitions} after a warm-up; "
        "ratios below 1: Bowstring is faster"
    )
    print()
    for workers in WORKER_COUNTS:
        print(f"workers {workers}: {setup_line(*pairing_sides(workers))}")
    print()
    print(
        f"{'job':15}{'workers':>8}{'socket':>9}{'shm':>9}{'pyspark':>9}"
        f"{'socket/pyspark':>16}{'shm/pyspark':>13}"
    )
    for name in JOBS:
        for workers in WORKER_COUNTS:
            socket_time = ours[(name, workers, "socket")]
            shm_time = ours[(name, workers, "shm")]
            spark_time = spark.get((name, workers))
            print(
                f"{name:15}{workers:>8}{cell(socket_time, 9)}{cell(shm_time, 9)}"
                f"{cell(spark_time, 9)}"
                f"{cell(spark_time and socket_time / spark_time, 16, 2)}"
                f"{cell(spark_time and shm_time / spark_time, 13, 2)}"
            )
    print()
    print(f"The floor, in {floor_side()}:")
    for name, seconds in floors.items():
        print(f"  {name:24}{cell(seconds, 9)}")
    print()
    print("Worker pool / floor (unpaired): Bowstring on the workers column's worker processes "
          f"against {floor_side()}")
    print(f"{'job / floor':32}{'workers':>8}{'socket':>9}{'shm':>9}")
    for name, floor in (
        ("pandas_series / batches floor", floors["pandas_series batches"]),
        ("pandas_series / table floor", floors["pandas_series table"]),
    ):
        for workers in WORKER_COUNTS:
            print(
                f"{name:32}{workers:>8}"
                f"{cell(ours[('pandas_series', workers, 'socket')] / floor, 9, 2)}"
                f"{cell(ours[('pandas_series', workers, 'shm')] / floor, 9, 2)}"
            )
    for workers in WORKER_COUNTS:
        floor = floors["rows batches"]
        print(
            f"{'rows / batches floor':32}{workers:>8}"
            f"{cell(ours[('rows', workers, 'socket')] / floor, 9, 2)}"
            f"{cell(ours[('rows', workers, 'shm')] / floor, 9, 2)}"
        )


if __name__ == "__main__":
    main()
