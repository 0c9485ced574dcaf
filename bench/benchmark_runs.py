"""What the comparison scripts share: running a Google Benchmark binary, printing columns, and
saying what each printed ratio compares (the threads and allocator of both sides)."""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

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


def run(binary: Path, repetitions: int, min_time: float, case_filter: str,
        environment: Mapping[str, str] | None = None) -> dict:
    """The JSON report of the benchmarks matching `case_filter`, repetitions interleaved, run
    with `environment` added to this process's."""
    output = subprocess.run(
        [str(binary), f"--benchmark_filter={case_filter}", "--benchmark_format=json",
         f"--benchmark_min_time={min_time}", f"--benchmark_repetitions={repetitions}",
         "--benchmark_enable_random_interleaving=true"],
        check=True, capture_output=True, text=True, env={**os.environ, **(environment or {})},
    ).stdout
    return json.loads(output)


def exactly(names: list[str]) -> str:
    """The benchmark filter matching `names` and nothing else. Google Benchmark reads filters
    as POSIX extended expressions, where a bracket expression, not a backslash, makes a
    character literal."""
    def literal(name: str) -> str:
        return "".join(c if c.isalnum() or c in "_/" else f"[{c}]" for c in name)

    return "^(" + "|".join(literal(name) for name in names) + ")$"


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


# --- What a ratio compares -----------------------------------------------------------------
#
# Every table starts with one setup line naming each side's threads and allocator, the pairing
# its rows share; a row whose side differs from that line carries a note saying how.


@dataclass(frozen=True)
class Side:
    """One side of a comparison: who runs, on how many threads, with which allocator."""

    name: str
    threads: str  # "2 threads", "1 thread", "2 worker processes"...
    allocator: str

    def __str__(self) -> str:
        return f"{self.name}: {self.threads}, {self.allocator}"


def threads(count: int, unit: str = "thread", units: str = "") -> str:
    """`count` threads (or other units) in words: "1 thread", "2 threads"."""
    return f"{count} {unit}" if count == 1 else f"{count} {units or unit + 's'}"


def setup_line(*sides: Side) -> str:
    """The header line of a table: 'Bowstring: 2 threads, mimalloc | pyarrow 26.0.1: ...'."""
    return " | ".join(str(side) for side in sides)


def unpaired_note(side: Side, paired: Side) -> str:
    """The note of a row whose `side` differs from the `paired` one of its table's setup line,
    naming what differs; empty when the row is the paired one."""
    differences = []
    if side.threads != paired.threads:
        differences.append(side.threads)
    if side.allocator != paired.allocator:
        differences.append(side.allocator)
    return f"unpaired: {side.name} on {', '.join(differences)}" if differences else ""


def pairing_note(ours: Side, theirs: Side) -> str:
    """Empty when two libraries' sides run on the same threads with the same allocator, else a
    note naming what differs."""
    differences = [what for what, mine, other in (("threads", ours.threads, theirs.threads),
                                                  ("allocators", ours.allocator, theirs.allocator))
                   if mine != other]
    return f"unpaired: {' and '.join(differences)} differ" if differences else ""


def bowstring_threads() -> int:
    """The threads Bowstring's parallel work (grouped aggregation, IPC compression) runs on: the
    size of the engine's process-wide thread pool (affinity mask, cgroup quota, BOWSTRING_THREADS).
    """
    import bowstring

    return bowstring.thread_pool_size()


# What Bowstring's mimalloc allocator adds to mimalloc's defaults (memory/allocator.cc): an arena
# of this size, reserved and committed at load, unless MIMALLOC_RESERVE_OS_MEMORY asks for one.
BOWSTRING_MIMALLOC_ARENA = "1GiB"


def allocator_label(name: str, own_arena: str = "",
                    environment: Mapping[str, str] | None = None) -> str:
    """An allocator's name, and for mimalloc the committed arena it holds: the one
    MIMALLOC_RESERVE_OS_MEMORY gives every mimalloc of the process (in this process's
    environment with `environment` added), else `own_arena`, the one its user reserves."""
    arena = {**os.environ, **(environment or {})}.get("MIMALLOC_RESERVE_OS_MEMORY") or own_arena
    return f"mimalloc + {arena} arena" if name == "mimalloc" and arena else name


# The environment under which both libraries' default allocators are mimalloc with the same
# committed arena: BOWSTRING_ALLOCATOR and ARROW_DEFAULT_MEMORY_POOL choose the allocators, and
# each copy of mimalloc reads MIMALLOC_RESERVE_OS_MEMORY when it starts.
SAME_MIMALLOC = {
    "BOWSTRING_ALLOCATOR": "mimalloc",
    "ARROW_DEFAULT_MEMORY_POOL": "mimalloc",
    "MIMALLOC_RESERVE_OS_MEMORY": BOWSTRING_MIMALLOC_ARENA,
}


def bowstring_allocator() -> str:
    """Bowstring's default allocator in this process."""
    import bowstring

    return allocator_label(bowstring.allocator_stats()["allocator"], BOWSTRING_MIMALLOC_ARENA)


def bowstring_side(thread_count: int) -> Side:
    """Bowstring in this process on `thread_count` threads."""
    return Side("Bowstring", threads(thread_count), bowstring_allocator())


def pyarrow_side(thread_count: int) -> Side:
    """pyarrow in this process on `thread_count` threads, with its default memory pool."""
    import pyarrow as pa

    backend = pa.default_memory_pool().backend_name
    return Side(f"pyarrow {pa.__version__}", threads(thread_count), allocator_label(backend))


def duckdb_side(thread_count: int) -> Side:
    """DuckDB in this process on `thread_count` threads (its `threads` setting)."""
    import duckdb

    return Side(f"DuckDB {duckdb.__version__}", threads(thread_count), duckdb_allocator())


@functools.lru_cache(maxsize=None)
def duckdb_allocator() -> str:
    """The allocator DuckDB's Python module was built with: its own copy of jemalloc (symbols
    prefixed duckdb_je_) when the module contains one, else the C library's malloc."""
    import duckdb

    package = Path(duckdb.__file__).parent
    for module in sorted(package.parent.glob("_duckdb*.so")) + sorted(package.glob("*.so")):
        if b"duckdb_je_malloc" in module.read_bytes():
            return "jemalloc (bundled)"
    return "system malloc"


def libarrow_sides(context: Mapping[str, str], our_threads: str, their_threads: str,
                   environment: Mapping[str, str], our_allocator: str = "",
                   their_allocator: str = "") -> tuple[Side, Side]:
    """Bowstring's and libarrow's side of a Google Benchmark run under `environment`, from the
    context the binary reports (bench/setup_context.h): each library's default allocator
    unless the run's cases choose `our_allocator` and `their_allocator`."""
    ours = our_allocator or context.get("bowstring_allocator", "?")
    theirs = their_allocator or context.get("libarrow_pool", "?")
    return (
        Side("Bowstring", our_threads,
             allocator_label(ours, BOWSTRING_MIMALLOC_ARENA, environment)),
        Side(f"libarrow {context.get('libarrow_version', '(not built)')}", their_threads,
             allocator_label(theirs, "", environment)),
    )


def paired_setup_line(ours: Side, theirs: Side) -> str:
    """The setup line of two libraries' sides, with a note when they are not paired alike."""
    note = pairing_note(ours, theirs)
    return setup_line(ours, theirs) + (f" ({note})" if note else "")


# --- Tables of peer/Bowstring ratios (compute.py, sort_nested.py) ------------------------------


def ratio_header(case_width: int) -> str:
    """The column names of a table of times in seconds and peer/Bowstring ratios."""
    return (f"{'case':<{case_width}}{'bowstring s':>12}{'peer':>11}{'peer s':>10}{'ratio':>8}"
            "  note")


def ratio_row(case: str, ours: float, peer: str, theirs: float, note: str, case_width: int,
              first: bool = True) -> str:
    """One peer's line of such a table; the case's name and Bowstring's time only on its `first`
    line."""
    case_cells = f"{case:<{case_width}}{ours:>12.4f}" if first else " " * (case_width + 12)
    return f"{case_cells}{peer:>11}{theirs:>10.4f}{theirs / ours:>8.2f}  {note}".rstrip()
