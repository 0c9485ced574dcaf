"""Compares allocators on Bowstring's allocation patterns and prints ratios against glibc.

Runs bench/allocator_benchmark.cc three times: as is (glibc's posix_memalign as `system`, and
mimalloc loaded in-process), then with jemalloc and with mimalloc preloaded so that they serve
`system`'s posix_memalign. Usage: python bench/allocators.py BUILD_DIR
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PRELOADS = {
    "jemalloc (preloaded)": "libjemalloc.so.2",
    "mimalloc (preloaded)": "libmimalloc.so.2",
}


def run(binary: Path, preload: str | None, case_filter: str) -> dict[str, float]:
    env = dict(os.environ)
    if preload:
        env["LD_PRELOAD"] = preload
    output = subprocess.run(
        [str(binary), f"--benchmark_filter={case_filter}", "--benchmark_format=json",
         "--benchmark_min_time=0.2"],
        env=env, check=True, capture_output=True, text=True,
    ).stdout
    return {b["name"]: b["real_time"] for b in json.loads(output)["benchmarks"]}


def main() -> None:
    binary = Path(sys.argv[1] if len(sys.argv) > 1 else "build") / "bench" / "bowstring_bench_allocators"
    baseline = run(binary, None, ".*")
    columns = {"glibc": {}, "mimalloc (in-process)": {}}
    for name, time in baseline.items():
        case, _, rest = name.partition("/")
        backend, _, size = rest.partition("/")
        key = f"{case}/{size}" if size else case
        columns["glibc" if backend == "0" else "mimalloc (in-process)"][key] = time
    for label, library in PRELOADS.items():
        columns[label] = {}
        for name, time in run(binary, library, r".*/0(/|$)").items():
            case, _, rest = name.partition("/")
            _, _, size = rest.partition("/")
            columns[label][f"{case}/{size}" if size else case] = time
    labels = list(columns)
    print(f"{'case':32}" + "".join(f"{label:>24}" for label in labels))
    for key, reference in columns["glibc"].items():
        cells = "".join(f"{columns[label].get(key, float('nan')) / reference:>24.2f}" for label in labels)
        print(f"{key:32}{cells}")
    print("(time relative to glibc posix_memalign; lower is faster)")


if __name__ == "__main__":
    main()
