"""What the comparison scripts share: running a Google Benchmark binary and printing columns."""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path
from typing import Callable

# Microseconds per unit of a benchmark's "time_unit".
MICROSECONDS = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def parse_args(description: str, repetitions: int, min_time: float) -> argparse.Namespace:
    """The command line every script takes, with its own default repetitions and min time."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("build", nargs="?", default="build", help="the CMake build directory")
    parser.add_argument("--repetitions", type=int, default=repetitions)
    parser.add_argument("--min-time", type=float, default=min_time, help="seconds per repetition")
    parser.add_argument("--filter", default=".*", help="regular expression on benchmark names")
    return parser.parse_args()


def run(binary: Path, repetitions: int, min_time: float, case_filter: str) -> dict:
    """The JSON report of the benchmarks matching `case_filter`, repetitions interleaved."""
    output = subprocess.run(
        [str(binary), f"--benchmark_filter={case_filter}", "--benchmark_format=json",
         f"--benchmark_min_time={min_time}", f"--benchmark_repetitions={repetitions}",
         "--benchmark_enable_random_interleaving=true"],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(output)


def listed(binary: Path, case_filter: str) -> list[str]:
    """The names of the benchmarks matching `case_filter`, in the order the binary registers
    them (the runs themselves are interleaved)."""
    return subprocess.run(
        [str(binary), f"--benchmark_filter={case_filter}", "--benchmark_list_tests=true"],
        check=True, capture_output=True, text=True,
    ).stdout.split()


def cell(value: float | None, width: int, digits: int = 0) -> str:
    """`value` right-aligned in `width` characters, or a dash when there is none."""
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"


def best_time(run: Callable[[], object], repetitions: int) -> float:
    """The best wall-clock time of `repetitions` runs of `run` after one warm-up run, in seconds."""
    run()
    best = float("inf")
    for _ in range(repetitions):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best
