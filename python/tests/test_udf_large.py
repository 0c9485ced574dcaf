"""Ten million rows through the worker pool with every kind of function (the arrow and
pandas_series kinds on both transports), compared with numpy, pyarrow and pandas computing the
same in this process; and a run of half a gigabyte of results whose memory stays flat."""

from __future__ import annotations

import json
import subprocess
import sys

import cloudpickle
import numpy as np
import pyarrow as pa
import pytest

from bowstring import udf

# The workers cannot import this module: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ROWS = 10_000_000


@pytest.fixture(scope="module")
def table() -> pa.Table:
    rng = np.random.default_rng(11)
    return pa.table(
        {
            "k": pa.array(np.arange(ROWS, dtype=np.int64)),
            "v": pa.array(rng.standard_normal(ROWS)),
        }
    )


@pytest.fixture(scope="module")
def pool():
    with udf.WorkerPool(max_workers=2) as workers:
        yield workers


def identity(batches):
    yield from batches


def times_two_plus_one(v):
    return v * 2 + 1


@pytest.mark.parametrize("transport", ["socket", "shm"])
def test_arrow_identity(pool, table, transport):
    result = udf.map_batches(identity, table, pool=pool, transport=transport)
    assert pa.table(result).equals(table)
    metrics = result.metrics
    assert metrics["rows_in"] == ROWS
    assert metrics["rows_out"] == ROWS
    assert metrics["batches_in"] == ROWS // 10_000
    assert metrics["partitions"] == 2


@pytest.mark.parametrize("transport", ["socket", "shm"])
def test_pandas_series(pool, table, transport):
    values = table.select(["v"])
    expected = pa.table({"v": pa.array(times_two_plus_one(values.column("v").to_pandas()))})
    result = udf.map_batches(
        times_two_plus_one,
        values,
        kind="pandas_series",
        schema="v double",
        pool=pool,
        transport=transport,
    )
    assert pa.table(result).equals(expected)


def shifted_frames(frames):
    for frame in frames:
        yield frame.assign(v=frame.v * 2 + 1)


def test_pandas(pool, table):
    expected = table.set_column(1, "v", pa.array(table.column("v").to_numpy() * 2 + 1))
    result = udf.map_batches(shifted_frames, table, kind="pandas", pool=pool)
    assert pa.table(result).equals(expected)


def shifted_series(series_batches):
    for v in series_batches:
        yield v * 2 + 1


def test_pandas_series_iter(pool, table):
    values = table.select(["v"])
    expected = pa.table({"v": pa.array(values.column("v").to_numpy() * 2 + 1)})
    result = udf.map_batches(
        shifted_series, values, kind="pandas_series_iter", schema="v double", pool=pool
    )
    assert pa.table(result).equals(expected)


def key_plus_value(k, v):
    return k + v


def test_rows(pool, table):
    expected = pa.table(
        {"s": pa.array(table.column("k").to_numpy() + table.column("v").to_numpy())}
    )
    result = udf.map_batches(key_plus_value, table, kind="rows", schema="s double", pool=pool)
    assert pa.table(result).equals(expected)


# A run whose results outweigh by far what may wait in memory: PARTITIONS partitions of
# BATCHES results of one MiB each, read slowly, in a fresh interpreter whose peak memory is its
# own. It prints the growth of its peak resident size and of the allocator's peak over the run.
BOUNDED_RUN = r"""
import json, resource, sys, time
import pyarrow as pa
import bowstring
from bowstring import udf

PARTITIONS, BATCHES, BATCH_BYTES = 8, 64, 1 << 20
workers = int(sys.argv[1])

def explode(count):
    def results(batches):
        blob = pa.array([b"x" * BATCH_BYTES], pa.binary())
        for _ in batches:
            for _ in range(count):
                yield pa.record_batch([blob], names=["blob"])
    return results

def peak_rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

data = pa.table({"k": pa.array(range(PARTITIONS), pa.int64())})
options = dict(schema="blob binary", batch_size=1, partition_rows=1, workers=workers)
with udf.WorkerPool(max_workers=2) as pool:
    # Starts the workers, with one result per partition.
    udf.map_batches(explode(1), data, pool=pool, **options).read_all()
    rss_before, allocator_before = peak_rss(), bowstring.allocator_stats()["bytes_in_use"]
    received = 0
    for batch in udf.map_batches(explode(BATCHES), data, pool=pool, **options):
        received += batch.num_rows
        time.sleep(0.003)
    print(json.dumps({
        "received": received,
        "rss_growth": peak_rss() - rss_before,
        "allocator_growth": bowstring.allocator_stats()["peak_bytes"] - allocator_before,
    }))
"""


@pytest.mark.parametrize("workers", [2, 6], ids=["as_many_as_the_pool", "more_than_the_pool"])
def test_results_waiting_for_a_slow_reader_stay_bounded(workers):
    """Every partition keeps only a few results waiting for the reader, also partitions run
    ahead of the one being read, so memory stays flat whatever the output size; with more
    partitions at once than the pool has workers the run still completes (the partition read
    is never left without a worker)."""
    completed = subprocess.run(
        [sys.executable, "-c", BOUNDED_RUN, str(workers)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    figures = json.loads(completed.stdout)
    assert figures["received"] == 8 * 64
    total = 8 * 64 << 20
    # Two partitions of eight one-MiB results each wait at most (one worker each), about 20 MiB
    # with the results being read and decoded; 64 MiB would be one partition's whole output.
    # The resident size also holds memory freed to the C library's per-thread arenas, which
    # grows with the number of slot threads.
    assert figures["allocator_growth"] < total // 12, figures
    assert figures["rss_growth"] < total // 4, figures
