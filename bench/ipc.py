"""Compares Bowstring's Arrow IPC writing and reading with Apache Arrow's C++ library (libarrow).

Runs bench/ipc_benchmark.cc, which writes and reads the same record batches (about 1 MiB of
int64, float64 or utf8 values in 1, 16 or 256 columns) through both libraries in one process,
and prints per case the time of each, the ratio Bowstring/libarrow (below 1: Bowstring is
faster) and Bowstring's throughput over the batch's body bytes, next to memcpy's.

Both libraries compress and decompress bodies on several threads (Bowstring on its own,
libarrow on its CPU thread pool), the rest on the calling thread; both allocate from mimalloc
with the same committed arena (the binary runs with benchmark_runs.SAME_MIMALLOC). The first
line names both sides' threads and allocators as the binary reports them.

Times are wall-clock time per iteration (compression work on other threads included), the
minimum over the repetitions, which are interleaved at random so that both sides see the same
machine load.
Usage: python bench/ipc.py [BUILD_DIR] [--repetitions N] [--min-time SECONDS] [--filter RE]
"""

from __future__ import annotations

import math
from pathlib import Path

from benchmark_runs import (
    MICROSECONDS,
    SAME_MIMALLOC,
    cell,
    libarrow_sides,
    listed,
    paired_setup_line,
    parse_args,
    run,
    threads,
)


def compression_threads(context: dict, library: str) -> str:
    """The threads `library` ("bowstring" or "libarrow") compresses on, from the context."""
    return f"up to {threads(int(context[library + '_threads']))} for (de)compression, 1 otherwise"


def best(report: dict) -> dict[tuple[str, str], dict[str, tuple[float, float]]]:
    """{(operation, workload): {side: (fastest time in microseconds, bytes per second)}}."""
    cases: dict[tuple[str, str], dict[str, tuple[float, float]]] = {}
    for bench in report["benchmarks"]:
        if bench.get("run_type") != "iteration":
            continue
        operation, workload, side = bench["run_name"].split("/")[:3]
        time = bench["real_time"] * MICROSECONDS[bench["time_unit"]]
        sides = cases.setdefault((operation, workload), {})
        if time < sides.get(side, (math.inf, 0.0))[0]:
            sides[side] = (time, bench.get("bytes_per_second", 0.0))
    return cases


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], repetitions=3, min_time=0.1)

    binary = Path(args.build) / "bench" / "bowstring_bench_ipc"
    report = run(binary, args.repetitions, args.min_time, args.filter, SAME_MIMALLOC)
    cases = best(report)
    names = listed(binary, args.filter)
    order = list(dict.fromkeys(tuple(name.split("/")[:2]) for name in names))
    memcpy = {workload: sides["bowstring"][1] for (op, workload), sides in cases.items()
              if op == "Memcpy" and "bowstring" in sides}
    context = report["context"]
    if "libarrow_version" in context:
        print(paired_setup_line(*libarrow_sides(
            context, compression_threads(context, "bowstring"),
            compression_threads(context, "libarrow"), SAME_MIMALLOC)))
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
        line = (f"{operation:32}{workload:18}{cell(bow and bow[0], 11, 1)}"
                f"{cell(arrow and arrow[0], 11, 1)}{cell(ratio, 8, 2)}"
                f"{cell(bow and bow[1] / 1e9, 8, 2)}")
        if operation.startswith("WriteStream") and workload in memcpy:
            line += cell(memcpy[workload] / 1e9, 13, 2)
        print(line)


if __name__ == "__main__":
    main()
