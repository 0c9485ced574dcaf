"""The Bowstring compute demo: Spark SQL expressions evaluated by the engine's vectorized
kernels over the demo's sensor readings, each checked against pyarrow.compute.

- arithmetic: ``temperature * 9 / 5 + 32`` (Spark's ``/`` gives a double);
- strings: ``upper(city)`` and ``concat_ws('-', city, sensor)``;
- a filter: the readings above 30 degrees;
- a grouped aggregation: per city, ``count(*)``, ``sum(temperature)``, ``avg(temperature)``;
- Spark's ANSI mode: ``2147483647 + 1`` on INT raises ArithmeticException.

Exits with status 1 when a result differs from pyarrow's.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from bowstring import compute, errors  # noqa: E402
from udf_demo import READINGS, make_readings  # noqa: E402


def timed(label: str, run):
    """`run()`, printing how long it took."""
    started = time.perf_counter()
    result = run()
    print(f"{label:<48}{time.perf_counter() - started:8.3f} s")
    return result


def main() -> int:
    readings = make_readings(READINGS)
    temperature = readings.column("temperature").combine_chunks()
    city = readings.column("city").combine_chunks().cast(pa.string())
    sensor = readings.column("sensor").combine_chunks()
    print(f"{readings.num_rows:,} readings\n")
    failures = []

    fahrenheit = timed(
        "temperature * 9 / 5 + 32",
        lambda: compute.call("+", compute.call("/", compute.call("*", temperature, 9), 5), 32),
    )
    expected = pc.add(pc.divide(pc.multiply(temperature, 9.0), 5.0), 32.0)
    if not pa.array(fahrenheit).equals(expected):
        failures.append("temperature * 9 / 5 + 32")

    upper = timed("upper(city)", lambda: compute.call("upper", city))
    if not pa.array(upper).equals(pc.utf8_upper(city)):
        failures.append("upper(city)")

    labels = timed("concat_ws('-', city, sensor)",
                   lambda: compute.call("concat_ws", "-", city, compute.call("cast", sensor,
                                                                             to="string")))
    if not pa.array(labels).equals(pc.binary_join_element_wise(city, pc.cast(sensor, pa.string()),
                                                               "-")):
        failures.append("concat_ws")

    hot = timed("filter: temperature > 30",
                lambda: compute.filter(temperature, compute.call(">", temperature, 30)))
    if not pa.array(hot).equals(pc.filter(temperature, pc.greater(temperature, 30.0))):
        failures.append("filter")

    grouped = timed(
        "count(*), sum, avg of temperature by city",
        lambda: pa.table(compute.group_by(
            [city], [("count", []), ("sum", [temperature]), ("avg", [temperature])])),
    )
    by_pyarrow = (
        pa.table({"city": city, "t": temperature})
        .group_by("city", use_threads=False)
        .aggregate([([], "count_all"), ("t", "sum"), ("t", "mean")])
    )
    ours = sorted(zip(*[column.to_pylist() for column in grouped.columns]))
    theirs = sorted(zip(*[by_pyarrow.column(name).to_pylist()
                          for name in ("city", "count_all", "t_sum", "t_mean")]))
    close = len(ours) == len(theirs) and all(
        a[0] == b[0] and a[1] == b[1] and abs(a[2] - b[2]) < 1e-6 * abs(b[2])
        and abs(a[3] - b[3]) < 1e-9 * abs(b[3]) for a, b in zip(ours, theirs))
    if not close:
        failures.append("grouped aggregation")
    print()
    for row in ours:
        print(f"  {row[0]:<8} count {row[1]:>7,}  sum {row[2]:>14,.1f}  avg {row[3]:6.2f}")

    try:
        compute.call("+", pa.array([2147483647], pa.int32()), 1)
        failures.append("ANSI overflow did not raise")
    except errors.ArithmeticException as error:
        print(f"\nINT overflow in ANSI mode: {error}")

    if failures:
        print("differs from pyarrow: " + ", ".join(failures), file=sys.stderr)
        return 1
    print("\nevery result equals pyarrow's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
