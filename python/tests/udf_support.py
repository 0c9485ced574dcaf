"""Helpers shared by the tests of bowstring.udf: process and descriptor accounting from /proc,
and data of every column type the worker converts."""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from typing import Callable, Iterable, List, Optional

import numpy as np
import pandas as pd
import pyarrow as pa

from arrow_samples import random_array

# The session time zone of the tests: not UTC, and with daylight saving time.
SESSION_TIME_ZONE = "America/New_York"


def wait_until(predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Polls ``predicate`` until it holds or ``timeout`` seconds pass; returns its last value.
    Processes are reaped and descriptors closed by other threads, shortly after the event
    that ends them."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() > deadline:
            return predicate()
        time.sleep(0.02)


def open_descriptors() -> Counter:
    """How many descriptors this process has open on each kind of target: a path, "socket",
    "pipe", "anon_inode:[eventfd]"... (sockets and pipes without their inode number, which
    differs between a connection and the one replacing it)."""
    found: Counter = Counter()
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except FileNotFoundError:
            # The descriptor of the listing itself, closed by now.
            continue
        found[re.sub(r"^(socket|pipe):\[\d+\]$", r"\1", target)] += 1
    return found


def process_states() -> List[tuple]:
    """(pid, state, parent pid) of every process, from /proc/<pid>/stat."""
    states = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as file:
                stat = file.read()
        except OSError:
            continue
        # The command name is in parentheses and may itself hold spaces and parentheses.
        fields = stat[stat.rfind(")") + 2 :].split()
        states.append((int(name), fields[0], int(fields[1])))
    return states


def zombies_of(parents: Iterable[Optional[int]]) -> List[int]:
    """Zombie processes whose parent is one of ``parents``."""
    wanted = {parent for parent in parents if parent}
    return [pid for pid, state, parent in process_states() if state == "Z" and parent in wanted]


def children_of(parent: int) -> List[int]:
    return [pid for pid, _, ppid in process_states() if ppid == parent]


def unique_key_maps(rng: np.random.Generator, n: int) -> pa.Array:
    """map<string, int32> values with distinct keys in each map (a dict cannot hold two equal
    keys, so maps with repeated keys do not survive a round trip through Python), some null."""
    values = []
    for i in range(n):
        if rng.random() < 0.2:
            values.append(None)
            continue
        size = int(rng.integers(0, 4))
        values.append(
            [
                (f"k{j}", None if rng.random() < 0.2 else int(rng.integers(-100, 100)))
                for j in range(size)
            ]
        )
    return pa.array(values, type=pa.map_(pa.string(), pa.int32()))


def categories(rng: np.random.Generator, n: int) -> pa.Array:
    """A dictionary<int32, string> column, some null; its dictionary holds distinct values and
    no null, as a pandas Categorical's categories must."""
    dictionary = pa.array(["red", "green", "blue", "", "ünïcödé", "😀", "a longer category name"])
    indices = pa.array(rng.integers(0, len(dictionary), n), pa.int32(), mask=rng.random(n) < 0.2)
    return pa.DictionaryArray.from_arrays(indices, dictionary)


def float_exact_int64(rng: np.random.Generator, n: int) -> pa.Array:
    """int64 values exactly representable as float64 (pandas holds integer columns with nulls
    as float64), some null."""
    values = rng.integers(-(2**53), 2**53, n)
    return pa.array(values, type=pa.int64(), mask=rng.random(n) < 0.2)


def unambiguous_timestamps(rng: np.random.Generator, n: int, type_: pa.DataType) -> pa.Array:
    """Timestamps, some null, none between midnight and 4 am in the session time zone: a
    naive local time in the hour clocks are set back names two instants, so values there
    do not survive a conversion to local time and back."""
    values = rng.integers(-(10**15), 10**15, n)
    local_hours = (
        pd.to_datetime(values, unit="us", utc=True).tz_convert(SESSION_TIME_ZONE).hour.to_numpy()
    )
    values = np.where(local_hours < 4, values + 6 * 3_600_000_000, values)
    return pa.array(values, type=pa.int64(), mask=rng.random(n) < 0.2).view(type_)


def int64_lists(rng: np.random.Generator, n: int) -> pa.Array:
    """list<int64> values, some null, holding some nulls, each exactly representable as a
    float64 (pandas holds a list of integers with nulls as a float64 array)."""
    offsets = np.concatenate([[0], np.cumsum(rng.integers(0, 5, n))]).astype(np.int32)
    values = float_exact_int64(rng, int(offsets[-1]))
    mask = pa.array(rng.random(n) < 0.2)
    return pa.ListArray.from_arrays(pa.array(offsets), values, mask=mask)


def every_type_table(rows: int, seed: int = 7) -> pa.Table:
    """One column of each type the worker converts, about a fifth of each null."""
    rng = np.random.default_rng(seed)
    columns = {
        "i8": random_array(pa.int8(), rows, rng),
        "i16": random_array(pa.int16(), rows, rng),
        "i32": random_array(pa.int32(), rows, rng),
        "i64": float_exact_int64(rng, rows),
        "f32": random_array(pa.float32(), rows, rng),
        "f64": random_array(pa.float64(), rows, rng),
        "flag": random_array(pa.bool_(), rows, rng),
        "text": random_array(pa.string(), rows, rng),
        "large_text": random_array(pa.large_string(), rows, rng),
        "blob": random_array(pa.binary(), rows, rng),
        "day": random_array(pa.date32(), rows, rng),
        "ts_utc": unambiguous_timestamps(rng, rows, pa.timestamp("us", "UTC")),
        "ts_kolkata": unambiguous_timestamps(rng, rows, pa.timestamp("us", "Asia/Kolkata")),
        "ts_session": unambiguous_timestamps(rng, rows, pa.timestamp("us", SESSION_TIME_ZONE)),
        "ts_naive": random_array(pa.timestamp("us"), rows, rng),
        "amount": random_array(pa.decimal128(10, 2), rows, rng),
        "ints": int64_lists(rng, rows),
        "words": random_array(pa.list_(pa.string()), rows, rng),
        "point": random_array(pa.struct([("x", pa.int32()), ("y", pa.string())]), rows, rng),
        "counts": unique_key_maps(rng, rows),
        "category": categories(rng, rows),
    }
    return pa.table(columns)


def all_null_table(rows: int) -> pa.Table:
    """Columns of several types holding only nulls."""
    types = {
        "i64": pa.int64(),
        "f64": pa.float64(),
        "text": pa.string(),
        "day": pa.date32(),
        "ts": pa.timestamp("us", "UTC"),
        "amount": pa.decimal128(10, 2),
        "ints": pa.list_(pa.int64()),
    }
    return pa.table({name: pa.nulls(rows, type=t) for name, t in types.items()})


def decoded(table: pa.Table) -> pa.Table:
    """``table`` with its dictionary columns decoded (a dictionary built again from the same
    values may order them differently) and one chunk per column."""
    columns = [
        column.cast(column.type.value_type) if pa.types.is_dictionary(column.type) else column
        for column in table.columns
    ]
    return pa.table(columns, names=table.column_names).combine_chunks()


def assert_tables_equal(actual: pa.Table, expected: pa.Table) -> None:
    """Same schema (metadata aside), same values in each column; a difference is reported with
    its column, row and both values."""
    assert actual.schema.equals(
        expected.schema
    ), f"schemas differ:\n{actual.schema}\nexpected:\n{expected.schema}"
    assert actual.num_rows == expected.num_rows
    actual, expected = decoded(actual), decoded(expected)
    for name in expected.column_names:
        if actual[name].equals(expected[name]):
            continue
        got, wanted = actual[name].to_pylist(), expected[name].to_pylist()
        for row, (value, expected_value) in enumerate(zip(got, wanted)):
            assert value == expected_value, (
                f"column {name!r} differs first at row {row}: got {value!r}, "
                f"expected {expected_value!r}"
            )
        raise AssertionError(f"column {name!r} differs: {actual[name]} != {expected[name]}")
