"""The labels bench/*.py print above their ratios (bench/benchmark_runs.py): each side's threads
and allocator, and the notes of rows that are not paired alike."""

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import benchmark_runs  # noqa: E402
from benchmark_runs import (  # noqa: E402
    SAME_MIMALLOC,
    Side,
    allocator_label,
    exactly,
    libarrow_sides,
    paired_setup_line,
    pairing_note,
    setup_line,
    threads,
    unpaired_note,
)

CONTEXT = {
    "bowstring_allocator": "mimalloc",
    "bowstring_threads": "2",
    "libarrow_version": "26.0.1",
    "libarrow_pool": "mimalloc",
    "libarrow_threads": "2",
}


def test_thread_counts_in_words():
    assert threads(1) == "1 thread"
    assert threads(2) == "2 threads"
    assert threads(3, "worker process", "worker processes") == "3 worker processes"


def test_setup_line_names_every_side():
    line = setup_line(Side("Bowstring", "2 threads", "mimalloc"),
                      Side("pyarrow 26.0.1", "2 threads", "jemalloc"))
    assert line == "Bowstring: 2 threads, mimalloc | pyarrow 26.0.1: 2 threads, jemalloc"


def test_unpaired_note_names_what_differs_from_the_setup_line():
    paired = Side("pyarrow 26.0.1", "2 threads", "mimalloc")
    assert unpaired_note(paired, paired) == ""
    assert (unpaired_note(Side("pyarrow 26.0.1", "1 thread", "mimalloc"), paired)
            == "unpaired: pyarrow 26.0.1 on 1 thread")
    assert (unpaired_note(Side("pyarrow 26.0.1", "1 thread", "system"), paired)
            == "unpaired: pyarrow 26.0.1 on 1 thread, system")


def test_pairing_note_of_two_libraries():
    ours = Side("Bowstring", "1 thread", "mimalloc")
    assert pairing_note(ours, Side("libarrow", "1 thread", "mimalloc")) == ""
    assert (pairing_note(ours, Side("libarrow", "1 thread", "jemalloc"))
            == "unpaired: allocators differ")
    assert (pairing_note(ours, Side("libarrow", "2 threads", "jemalloc"))
            == "unpaired: threads and allocators differ")


def test_mimalloc_label_names_its_arena(monkeypatch):
    monkeypatch.delenv("MIMALLOC_RESERVE_OS_MEMORY", raising=False)
    assert allocator_label("mimalloc") == "mimalloc"
    assert allocator_label("mimalloc", "1GiB") == "mimalloc + 1GiB arena"
    assert allocator_label("system", "1GiB") == "system"
    # The environment's arena is every mimalloc's, the allocator's own one included.
    assert (allocator_label("mimalloc", "1GiB", {"MIMALLOC_RESERVE_OS_MEMORY": "2GiB"})
            == "mimalloc + 2GiB arena")
    monkeypatch.setenv("MIMALLOC_RESERVE_OS_MEMORY", "512MiB")
    assert allocator_label("mimalloc") == "mimalloc + 512MiB arena"


def test_libarrow_sides_are_paired_only_with_the_same_arena(monkeypatch):
    monkeypatch.delenv("MIMALLOC_RESERVE_OS_MEMORY", raising=False)
    same = libarrow_sides(CONTEXT, "1 thread", "1 thread", SAME_MIMALLOC)
    assert paired_setup_line(*same) == (
        "Bowstring: 1 thread, mimalloc + 1GiB arena | libarrow 26.0.1: 1 thread, "
        "mimalloc + 1GiB arena"
    )
    defaults = libarrow_sides(CONTEXT, "1 thread", "1 thread", {})
    assert paired_setup_line(*defaults).endswith(
        "libarrow 26.0.1: 1 thread, mimalloc (unpaired: allocators differ)"
    )
    chosen = libarrow_sides(CONTEXT, "1 thread", "1 thread", {}, "system", "system")
    assert [side.allocator for side in chosen] == ["system", "system"]


def test_exact_filter_makes_brackets_literal():
    # Google Benchmark's filters are POSIX extended expressions: no backslash escapes.
    assert (exactly(["int64_append/bowstring[system]", "Memcpy/int64x16[64MiB]/bowstring"])
            == "^(int64_append/bowstring[[]system[]]|Memcpy/int64x16[[]64MiB[]]/bowstring)$")


def test_bowstring_threads_are_the_thread_pools_size():
    # The pool is sized once per process, so the setting is tried in a fresh interpreter.
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import benchmark_runs; "
            "print(benchmark_runs.bowstring_threads())")
    environment = dict(os.environ, BOWSTRING_THREADS="3")
    result = subprocess.run([sys.executable, "-c", code, str(BENCH)], env=environment,
                            capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "3"
