"""Compares Bowstring's builders and slicing with Apache Arrow's C++ library (libarrow).

Runs bench/builder_benchmark.cc, which builds the same arrays from the same data through both
libraries in one process, and prints per case the time of each and the ratio Bowstring/libarrow
(below 1: Bowstring is faster). Three pairings: each library with its default allocator, both
with the C library's allocator, and both with mimalloc.

Times are CPU time per iteration (page faults included, as system time), the minimum over the
repetitions, which are interleaved at random so that both sides see the same machine load.
Usage: python bench/builders.py [BUILD_DIR] [--repetitions N] [--min-time SECONDS] [--filter RE]
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
from pathlib import Path

# Column label, then the suffix of the Bowstring and libarrow variants of each case.
PAIRINGS = [
    ("default allocators", "bowstring", "libarrow"),
    ("system allocator", "bowstring[system]", "libarrow[system]"),
    ("mimalloc", "bowstring[mimalloc]", "libarrow[mimalloc]"),
]


def run(binary: Path, repetitions: int, min_time: float, case_filter: str) -> dict:
    output = subprocess.run(
        [str(binary), f"--benchmark_filter={case_filter}", "--benchmark_format=json",
         f"--benchmark_min_time={min_time}", f"--benchmark_repetitions={repetitions}",
         "--benchmark_enable_random_interleaving=true"],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(output)


def best_times(report: dict) -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    """{case: {variant: fastest CPU time in microseconds}}, and the run's context."""
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    times: dict[str, dict[str, float]] = {}
    for bench in report["benchmarks"]:
        if bench.get("run_type") != "iteration":
            continue
        case, _, variant = bench["run_name"].partition("/")
        time = bench["cpu_time"] * scale[bench["time_unit"]]
        cell = times.setdefault(case, {})
        cell[variant] = min(time, cell.get(variant, math.inf))
    return times, report["context"]


def cell(value: float | None, width: int, digits: int = 0) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default="build", help="the CMake build directory")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per repetition")
    parser.add_argument("--filter", default=".*", help="regular expression on benchmark names")
    args = parser.parse_args()

    binary = Path(args.build) / "bench" / "bowstring_bench_builders"
    times, context = best_times(run(binary, args.repetitions, args.min_time, args.filter))
    # The cases in the order the binary registers them (the runs were interleaved).
    listed = subprocess.run(
        [str(binary), f"--benchmark_filter={args.filter}", "--benchmark_list_tests=true"],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    order = list(dict.fromkeys(name.partition("/")[0] for name in listed))
    print(f"Bowstring default allocator: {context.get('bowstring_allocator')}; "
          f"libarrow default memory pool: {context.get('libarrow_pool')}")
    print(f"CPU time per iteration in microseconds, best of {args.repetitions}; "
          "ratio = Bowstring / libarrow, lower is better")
    print("a builder case builds one array of 1M values; a slicing case takes 1000 slices")
    print()
    header = f"{'case':22}"
    rule = f"{'':22}"
    for label, _, _ in PAIRINGS:
        header += f" | {label:^28}"
        rule += f" | {'bowstring':>10}{'libarrow':>10}{'ratio':>8}"
    print(header)
    print(rule)
    for case in order:
        variants = times.get(case, {})
        line = f"{case:22}"
        for _, bow_variant, arrow_variant in PAIRINGS:
            bow, arrow = variants.get(bow_variant), variants.get(arrow_variant)
            ratio = bow / arrow if bow is not None and arrow is not None else None
            line += f" | {cell(bow, 10)}{cell(arrow, 10)}{cell(ratio, 8, 2)}"
        print(line)


if __name__ == "__main__":
    main()
