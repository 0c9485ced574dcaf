"""Compares Bowstring's builders and slicing with Apache Arrow's C++ library (libarrow).

Runs bench/builder_benchmark.cc, which builds the same arrays from the same data through both
libraries in one process, and prints per case the time of each and the ratio Bowstring/libarrow
(below 1: Bowstring is faster). Every case runs on the calling thread. Three pairings, each
column group named with both sides' allocators above the table:

- both on the C library's allocator;
- both on mimalloc (the system's libmimalloc for Bowstring, libarrow's bundled copy, not the
  same release), each with the committed arena Bowstring's reserves (the binary runs with
  MIMALLOC_RESERVE_OS_MEMORY for these cases);
- each library with its default allocator as it ships (Bowstring's mimalloc reserves its arena,
  libarrow's pool does not), the only pairing of the slicing cases, which allocate no buffers.

Times are CPU time per iteration (page faults included, as system time), the minimum over the
repetitions, which are interleaved at random so that both sides see the same machine load.
Usage: python bench/builders.py [BUILD_DIR] [--repetitions N] [--min-time SECONDS] [--filter RE]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from benchmark_runs import (
    MICROSECONDS,
    SAME_MIMALLOC,
    cell,
    exactly,
    libarrow_sides,
    listed,
    paired_setup_line,
    parse_args,
    run,
    threads,
)


@dataclass(frozen=True)
class Pairing:
    """One column group: the suffixes of its Bowstring and libarrow variants, the allocator
    both use ("": each library's default, read from the run's context) and the environment of
    their run."""

    label: str
    bowstring: str
    libarrow: str
    allocator: str
    environment: Mapping[str, str]


PAIRINGS = [
    Pairing("system allocator", "bowstring[system]", "libarrow[system]", "system", {}),
    Pairing("mimalloc", "bowstring[mimalloc]", "libarrow[mimalloc]", "mimalloc", SAME_MIMALLOC),
    Pairing("defaults", "bowstring", "libarrow", "", {}),
]


def best_times(report: dict, times: dict[str, dict[str, float]]) -> None:
    """Adds to `times` ({case: {variant: fastest CPU time in microseconds}}) the report's."""
    for bench in report["benchmarks"]:
        if bench.get("run_type") != "iteration":
            continue
        case, _, variant = bench["run_name"].partition("/")
        time = bench["cpu_time"] * MICROSECONDS[bench["time_unit"]]
        variants = times.setdefault(case, {})
        variants[variant] = min(time, variants.get(variant, math.inf))


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], repetitions=5, min_time=0.2)

    binary = Path(args.build) / "bench" / "bowstring_bench_builders"
    names = listed(binary, args.filter)
    times: dict[str, dict[str, float]] = {}
    contexts: dict[str, Mapping[str, str]] = {}
    # Pairings that share an environment share a run, interleaved.
    for environment in ({}, SAME_MIMALLOC):
        variants = {side for pairing in PAIRINGS if pairing.environment == environment
                    for side in (pairing.bowstring, pairing.libarrow)}
        chosen = [name for name in names if name.partition("/")[2] in variants]
        if not chosen:
            continue
        report = run(binary, args.repetitions, args.min_time, exactly(chosen), environment)
        best_times(report, times)
        for pairing in PAIRINGS:
            if pairing.environment == environment:
                contexts[pairing.label] = report["context"]
    order = list(dict.fromkeys(name.partition("/")[0] for name in names))
    print(f"CPU time per iteration in microseconds, best of {args.repetitions}; "
          "ratio = Bowstring / libarrow, lower is better")
    print("a builder case builds one array of 1M values; a slicing case takes 1000 slices")
    print()
    for pairing in PAIRINGS:
        if pairing.label in contexts:
            # Builders run on the calling thread.
            sides = libarrow_sides(contexts[pairing.label], threads(1), threads(1),
                                   pairing.environment, pairing.allocator, pairing.allocator)
            print(f"{pairing.label + ':':18}{paired_setup_line(*sides)}")
    print()
    header = f"{'case':22}"
    rule = f"{'':22}"
    for pairing in PAIRINGS:
        header += f" | {pairing.label:^28}"
        rule += f" | {'bowstring':>10}{'libarrow':>10}{'ratio':>8}"
    print(header)
    print(rule)
    for case in order:
        variants = times.get(case, {})
        line = f"{case:22}"
        for pairing in PAIRINGS:
            bow, arrow = variants.get(pairing.bowstring), variants.get(pairing.libarrow)
            ratio = bow / arrow if bow is not None and arrow is not None else None
            line += f" | {cell(bow, 10)}{cell(arrow, 10)}{cell(ratio, 8, 2)}"
        print(line)


if __name__ == "__main__":
    main()
