"""The Bowstring Python worker demo: a day of sensor readings enriched by a pandas function run
in a pool of worker processes, as PySpark's mapInPandas runs it, checked against the same
function run in this process.

Exits with status 1 when the two results differ.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from bowstring import udf  # noqa: E402

READINGS = 1_000_000
WORKERS = 2
SESSION_TIME_ZONE = "Europe/Lisbon"
CITIES = ["Lisbon", "Nairobi", "Osaka", "Quito", "Tromsø"]
ENRICHED = pa.schema(
    [
        ("sensor", pa.int64()),
        ("hour", pa.int32()),
        ("fahrenheit", pa.float64()),
        ("humidity", pa.float32()),
        ("alert", pa.bool_()),
    ]
)


def make_readings(count: int) -> pa.Table:
    """One day of readings: sensor id, city (dictionary encoded), time, temperature (null when
    the sensor failed) and the last three humidity samples."""
    rng = np.random.default_rng(2024)
    sensors = rng.integers(0, 5000, count)
    midnight_ms = 1_717_200_000_000
    times = midnight_ms + np.sort(rng.integers(0, 86_400_000, count))
    temperatures = rng.normal(18.0, 7.5, count)
    failed = rng.random(count) < 0.01
    humidity = rng.uniform(20, 95, (count, 3)).astype(np.float32)
    return pa.table(
        {
            "sensor": pa.array(sensors, pa.int64()),
            "city": pa.DictionaryArray.from_arrays(
                pa.array(sensors % len(CITIES), pa.int8()), pa.array(CITIES)
            ),
            "time": pa.array(times, pa.timestamp("ms", "UTC")),
            "temperature": pa.array(temperatures, mask=failed),
            "humidity": pa.FixedSizeListArray.from_arrays(pa.array(humidity.ravel()), 3).cast(
                pa.list_(pa.float32())
            ),
        }
    )


def enrich(frames: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """Local hour, temperature in Fahrenheit, last humidity sample, and an alert when it is
    both hot and humid."""
    for frame in frames:
        fahrenheit = frame["temperature"] * 9 / 5 + 32
        humidity = frame["humidity"].str[-1]
        yield pd.DataFrame(
            {
                "sensor": frame["sensor"],
                "hour": frame["time"].dt.hour,
                "fahrenheit": fahrenheit,
                "humidity": humidity,
                "alert": (fahrenheit > 86) & (humidity > 80),
            }
        )


def in_process(readings: pa.Table) -> pa.Table:
    """``enrich`` over the readings as the worker presents them: timestamps in the session
    time zone."""
    frame = readings.to_pandas()
    frame["time"] = frame["time"].dt.tz_convert(SESSION_TIME_ZONE)
    return pa.Table.from_pandas(next(enrich(iter([frame]))), schema=ENRICHED, preserve_index=False)


def main() -> int:
    readings = make_readings(READINGS)
    print(f"{readings.num_rows:,} readings, {readings.nbytes / 1e6:.1f} MB:\n{readings.schema}\n")

    started = time.perf_counter()
    with udf.WorkerPool(max_workers=WORKERS) as pool:
        print(f"worker pool of {WORKERS} started in {time.perf_counter() - started:.3f} s")
        # The first call also forks the workers; the second finds them ready.
        for call in ("first call", "second call"):
            started = time.perf_counter()
            result = udf.map_batches(
                enrich,
                readings,
                kind="pandas",
                schema=ENRICHED,
                pool=pool,
                session_time_zone=SESSION_TIME_ZONE,
            )
            enriched = pa.table(result)
            metrics = result.metrics
            print(
                f"enrich in the worker pool, {call}: {time.perf_counter() - started:.3f} s "
                f"({metrics['partitions']} partitions, {metrics['batches_in']} batches, "
                f"{metrics['function_seconds']:.3f} s inside the function, "
                f"peak worker memory {metrics['peak_memory_bytes'] / 1e6:.0f} MB)"
            )

    started = time.perf_counter()
    expected = in_process(readings)
    print(f"enrich in this process: {time.perf_counter() - started:.3f} s")
    print(f"alerts: {enriched.column('alert').to_pandas().sum():,}")
    print(enriched.slice(0, 5).to_pandas().to_string(index=False))

    if not enriched.equals(expected):
        print("the worker pool's result differs from the in-process result", file=sys.stderr)
        return 1
    print("the worker pool's result equals the in-process result")
    return 0


if __name__ == "__main__":
    sys.exit(main())
