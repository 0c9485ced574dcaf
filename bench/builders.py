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

import math
from pathlib import Path

from benchmark_runs import MICROSECONDS, cell, listed, parse_args, run

# Column label, then the suffix of the Bowstring and libarrow variants of each case.
PAIRINGS = [
    ("default allocators", "bowstring", "libarrow"),
    ("system allocator", "bowstring[system]", "libarrow[system]"),
    ("mimalloc", "bowstring[mimalloc]", "libarrow[mimalloc]"),
]


def best_times(report: dict) -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    """{case: {variant: fastest CPU time in microseconds}}, and the run's context."""
    times: dict[str, dict[str, float]] = {}
    for bench in report["benchmarks"]:
        if bench.get("run_type") != "iteration":
            continue
        case, _, variant = bench["run_name"].partition("/")
        time = bench["cpu_time"] * MICROSECONDS[bench["time_unit"]]
        variants = times.setdefault(case, {})
        variants[variant] = min(time, variants.get(variant, math.inf))
    return times, report["context"]


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], repetitions=5, min_time=0.2)

    binary = Path(args.build) / "bench" / "bowstring_bench_builders"
    times, context = best_times(run(binary, args.repetitions, args.min_time, args.filter))
    order = list(dict.fromkeys(name.partition("/")[0] for name in listed(binary, args.filter)))
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
