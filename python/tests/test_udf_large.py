"""Ten million rows through the worker pool with every kind of function (the arrow and
pandas_series kinds on both transports), compared with numpy, pyarrow and pandas computing the
same in this process."""

from __future__ import annotations

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
