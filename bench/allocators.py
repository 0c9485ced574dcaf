"""Compares allocators on Bowstring's allocation patterns and prints ratios against glibc.

Runs bench/allocator_benchmark.cc three times: as is (glibc's posix_memalign as `system`, and
Bowstring's mimalloc allocator, which reserves a committed arena, in-process), then with
jemalloc and with mimalloc preloaded, on their default settings, so that they serve `system`'s
posix_memalign. Every ratio compares one case on the same threads (the `threads` column) with
two allocators, named in the columns' header lines. Usage: python bench/allocators.py BUILD_DIR
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from benchmark_runs import BOWSTRING_MIMALLOC_ARENA, allocator_label

# Column: (what serves the allocations, the library preloaded for it)
PRELOADS = {
    "jemalloc (preloaded)": ("jemalloc, serving posix_memalign", "libjemalloc.so.2"),
    "mimalloc (preloaded)": (allocator_label("mimalloc") + ", serving posix_memalign",
                             "libmimalloc.so.2"),
}
IN_PROCESS = {
    "glibc": "glibc posix_memalign (Bowstring's system allocator), the reference",
    "mimalloc (in-process)": allocator_label("mimalloc", BOWSTRING_MIMALLOC_ARENA)
    + " (Bowstring's mimalloc allocator)",
}


def run(binary: Path, preload: str | None,
        case_filter: str) -> dict[str, tuple[float, int]]:
    """{benchmark name: (wall-clock time, threads allocating at once)}."""
    env = dict(os.environ)
    if preload:
        env["LD_PRELOAD"] = preload
    output = subprocess.run(
        [str(binary), f"--benchmark_filter={case_filter}", "--benchmark_format=json",
         "--benchmark_min_time=0.2"],
        env=env, check=True, capture_output=True, text=True,
    ).stdout
    benchmarks = json.loads(output)["benchmarks"]
    return {b["name"]: (b["real_time"], int(b["threads"])) for b in benchmarks}


def main() -> None:
    binary = Path(sys.argv[1] if len(sys.argv) > 1 else "build") / "bench" / "bowstring_bench_allocators"
    baseline = run(binary, None, ".*")
    columns: dict[str, dict[str, float]] = {"glibc": {}, "mimalloc (in-process)": {}}
    case_threads: dict[str, int] = {}
    for name, (time, threads) in baseline.items():
        case, _, rest = name.partition("/")
        backend, _, size = rest.partition("/")
        key = f"{case}/{size}" if size else case
        columns["glibc" if backend == "0" else "mimalloc (in-process)"][key] = time
        case_threads[key] = threads
    for label, (_, library) in PRELOADS.items():
        columns[label] = {}
        for name, (time, _) in run(binary, library, r".*/0(/|$)").items():
            case, _, rest = name.partition("/")
            _, _, size = rest.partition("/")
            columns[label][f"{case}/{size}" if size else case] = time
    for label, allocator in {**IN_PROCESS, **{k: v[0] for k, v in PRELOADS.items()}}.items():
        print(f"{label + ':':24}{allocator}")
    print()
    labels = list(columns)
    print(f"{'case':32}{'threads':>8}" + "".join(f"{label:>24}" for label in labels))
    for key, reference in columns["glibc"].items():
        cells = "".join(f"{columns[label].get(key, float('nan')) / reference:>24.2f}" for label in labels)
        print(f"{key:32}{case_threads[key]:>8}{cells}")
    print("(time relative to glibc posix_memalign on the same case and threads; lower is faster)")


if __name__ == "__main__":
    main()
