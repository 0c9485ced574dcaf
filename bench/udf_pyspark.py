"""The PySpark side of bench/udf.py, run by the Python of the .venv-pyspark environment.

Times, in a local Spark session of N threads (local[N]), the jobs bench/udf.py runs in
Bowstring's worker pool, over a cached DataFrame of the same shape (k: int64, v: float64):
mapInArrow returning its batches, a Series-to-Series pandas_udf and a Python udf computing
v * 2 + 1. Each job writes to the "noop" sink, which computes every result and keeps none.
Prints one JSON object: {job: best time in seconds}.

Usage: python bench/udf_pyspark.py ROWS WORKERS REPETITIONS
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Callable, Dict, Iterator

import pandas as pd
import pyarrow as pa


def main() -> None:
    rows, workers, repetitions = (int(arg) for arg in sys.argv[1:4])
    # Spark's Python workers run this same interpreter.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession
    from pyspark.sql.functions import col, pandas_udf, udf

    spark = (
        SparkSession.builder.master(f"local[{workers}]")
        .appName("bowstring-udf-bench")
        .config("spark.driver.memory", "4g")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "10000")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", str(workers))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    data = (
        spark.range(0, rows, numPartitions=workers)
        .select(col("id").alias("k"), (col("id") * 0.5).alias("v"))
        .cache()
    )
    data.count()

    def identity(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        yield from batches

    @pandas_udf("double")
    def times_two_plus_one(v: pd.Series) -> pd.Series:
        return v * 2 + 1

    @udf("double")
    def row_times_two_plus_one(v):
        return v * 2 + 1

    jobs: Dict[str, Callable[[], Any]] = {
        "arrow": lambda: data.mapInArrow(identity, data.schema),
        "pandas_series": lambda: data.select(times_two_plus_one("v")),
        "rows": lambda: data.select(row_times_two_plus_one("v")),
    }
    times: Dict[str, float] = {}
    for name, job in jobs.items():
        best = float("inf")
        # The first run warms the Python workers up and is not counted.
        for repetition in range(repetitions + 1):
            started = time.perf_counter()
            job().write.format("noop").mode("overwrite").save()
            elapsed = time.perf_counter() - started
            if repetition > 0:
                best = min(best, elapsed)
        times[name] = best
    spark.stop()
    print(json.dumps(times))


if __name__ == "__main__":
    main()
