"""Times Bowstring's sort of struct and list keys against pyarrow, in this process, and prints
the ratios.

Cases (ROWS = 1 million unless --rows says otherwise; about 5% nulls at every level):

- ``struct<int64,double>`` and ``struct<string,int32>``: against pyarrow's multi-key
  ``sort_indices`` of a table of the struct's fields (pyarrow cannot sort a struct column; the
  flat fields are the same work);
- ``list<int32>`` (0 to 5 elements of 20 values): pyarrow cannot sort lists, so the peer is its
  sort of one flat int64 column of ROWS values, a yardstick rather than the same work.

Each case runs once to warm up, then REPETITIONS times; the best time counts. A ratio above 1
means Bowstring is faster than the peer.

Usage: python bench/sort_nested.py [--rows N] [--repetitions N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, List, Tuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from bowstring import compute  # noqa: E402
from benchmark_runs import best_time  # noqa: E402

Case = Tuple[str, Callable[[], object], Callable[[], object]]



def cases(rows: int) -> List[Case]:
    """(name, Bowstring's sort, the peer's) for every case, over random data of `rows` rows."""
    rng = np.random.default_rng(7)

    def nulls() -> np.ndarray:
        return rng.random(rows) < 0.05

    numbers = pa.array(rng.integers(-(10**6), 10**6, rows), mask=nulls())
    fractions = pa.array(rng.random(rows) * 100, mask=nulls())
    pairs = pa.StructArray.from_arrays(
        [numbers, fractions], names=["a", "b"], mask=pa.array(nulls())
    )
    words = pa.array([f"w{x}" for x in rng.integers(0, 50_000, rows)], mask=nulls())
    small = pa.array(rng.integers(-1000, 1000, rows).astype(np.int32), mask=nulls())
    labelled = pa.StructArray.from_arrays([words, small], names=["s", "i"], mask=pa.array(nulls()))
    lengths = rng.integers(0, 6, rows)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    element_count = int(offsets[-1])
    elements = pa.array(
        rng.integers(0, 20, element_count).astype(np.int32),
        mask=rng.random(element_count) < 0.05,
    )
    lists = pa.ListArray.from_arrays(pa.array(offsets), elements, mask=pa.array(nulls()))
    flat = pa.array(rng.integers(-(10**6), 10**6, rows))

    def struct_case(name: str, key: pa.StructArray) -> Case:
        table = pa.table({field.name: key.field(i) for i, field in enumerate(key.type)})
        order = [(field.name, "ascending") for field in key.type]
        return (
            name,
            lambda: compute.sort_indices([key]),
            lambda: pc.sort_indices(table, sort_keys=order),
        )

    return [
        struct_case("struct<int64,double>", pairs),
        struct_case("struct<string,int32>", labelled),
        ("list<int32>", lambda: compute.sort_indices([lists]), lambda: pc.sort_indices(flat)),
    ]


def main() -> None:
    """Runs every case and prints Bowstring's time, the peer's and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repetitions", type=int, default=5)
    arguments = parser.parse_args()
    for name, ours, peer in cases(arguments.rows):
        our_time = best_time(ours, arguments.repetitions)
        peer_time = best_time(peer, arguments.repetitions)
        print(
            f"{name:22s} bowstring {our_time * 1000:8.1f} ms   pyarrow {peer_time * 1000:8.1f} ms"
            f"   ratio {peer_time / our_time:5.2f}"
        )


if __name__ == "__main__":
    main()
