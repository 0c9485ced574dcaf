"""Compares Bowstring's Arrow IPC writing and reading with Apache Arrow's C++ library (libarrow).

Runs bench/ipc_benchmark.cc, which writes and reads the same record batches (about 1 MiB of
int64, float64 or utf8 values in 1, 16 or 256 columns) through both libraries in one process,
and prints per case the time of each, the ratio Bowstring/libarrow (below 1: Bowstring is
faster) and Bowstring's throughput over the batch's body bytes, next to memcpy's.

Times are wall-clock time per iteration (libarrow compresses on its thread pool), the minimum
over the repetitions, which are interleaved at random so that both sides see the same machine
load.
Usage: python bench/ipc.py [BUILD_DIR] [--repetitions N] [--min-time SECONDS] [--filter RE]
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
from pathlib import Path


def run(binary: Path, repetitions: int, min_time: float, case_filter: str) -> dict:
    output = subprocess.run(
        [str(binary), f"--benchmark_filter={case_filter}", "--benchmark_format=json",
         f"--benchmark_min_time={min_time}", f"--benchmark_repetitions={repetitions}",
         "--benchmark_enable_random_interleaving=true"],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(output)


def best(report: dict) -> dict[tuple[str, str], dict[str, tuple[float, float]]]:
    """{(operation, workload): {side: (fastest time in microseconds, bytes per second)}}."""
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    cases: dict[tuple[str, str], dict[str, tuple[float, float]]] = {}
    for bench in report["benchmarks"]:
        if bench.get("run_type") != "iteration":
            continue
        operation, workload, side = bench["run_name"].split("/")[:3]
        time = bench["real_time"] * scale[bench["time_unit"]]
        cell = cases.setdefault((operation, workload), {})
        if time < cell.get(side, (math.inf, 0.0))[0]:
            cell[side] = (time, bench.get("bytes_per_second", 0.0))
    return cases


def fmt(value: float | None, width: int, digits: int = 0) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default="build", help="the CMake build directory")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.1, help="seconds per repetition")
    parser.add_argument("--filter", default=".*", help="regular expression on benchmark names")
    args = parser.parse_args()

    binary = Path(args.build) / "bench" / "bowstring_bench_ipc"
    cases = best(run(binary, args.repetitions, args.min_time, args.filter))
    # The cases in the order the binary registers them (the runs were interleaved).
    listed = subprocess.run(
        [str(binary), f"--benchmark_filter={args.filter}", "--benchmark_list_tests=true"],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    order = list(dict.fromkeys(tuple(name.split("/")[:2]) for name in listed))
    memcpy = {workload: sides["bowstring"][1] for (op, workload), sides in cases.items()
              if op == "Memcpy" and "bowstring" in sides}
    print(f"Wall-clock time per iteration in microseconds, best of {args.repetitions}; "
          "ratio = Bowstring / libarrow, lower is better; GB/s over the batch's body bytes")
    print()
    print(f"{'operation':32}{'workload':18}{'bowstring':>11}{'libarrow':>11}{'ratio':>8}"
          f"{'GB/s':>8}{'memcpy GB/s':>13}")
    for operation, workload in sorted(order, key=lambda case: (case[1], order.index(case))):
        sides = cases.get((operation, workload), {})
        if operation == "Memcpy":
            continue
        bow = sides.get("bowstring")
        arrow = sides.get("libarrow")
        ratio = bow[0] / arrow[0] if bow and arrow else None
        line = (f"{operation:32}{workload:18}{fmt(bow and bow[0], 11, 1)}"
                f"{fmt(arrow and arrow[0], 11, 1)}{fmt(ratio, 8, 2)}"
                f"{fmt(bow and bow[1] / 1e9, 8, 2)}")
        if operation.startswith("WriteStream") and workload in memcpy:
            line += fmt(memcpy[workload] / 1e9, 13, 2)
        print(line)


if __name__ == "__main__":
    main()
