"""Spark's hash (Murmur3, seed 42) and xxhash64 through bowstring.compute.call, compared with
values computed by Spark 4 (`SELECT hash(...)`, `SELECT xxhash64(...)`)."""

from __future__ import annotations

import datetime
import decimal
from typing import Any, List

import pyarrow as pa
import pytest

from bowstring import compute, errors


def values(result: Any) -> List[Any]:
    """The Python values of a bowstring array."""
    return pa.array(result).to_pylist()


@pytest.mark.parametrize(
    "argument, murmur3",
    [
        (pa.array([1], pa.int32()), -559580957),
        (pa.array([1], pa.int8()), -559580957),
        (pa.array([1], pa.int16()), -559580957),
        (pa.array([1], pa.int64()), -1712319331),
        (pa.array([-1], pa.int64()), -939490007),
        (pa.array([2**31 - 1], pa.int32()), 133916647),
        (pa.array([2**63 - 1], pa.int64()), -1604625029),
        (pa.array([True]), -559580957),
        (pa.array([False]), 933211791),
        (pa.array(["Spark"]), 228093765),
        (pa.array([""]), 142593372),
        (pa.array(["abcde"]), 814637928),
        (pa.array(["héllo wörld!"]), -1532567133),
        (pa.array(["Spark"], pa.large_string()), 228093765),
        (pa.array([b"\x01\x02\xff"]), 456895484),
        (pa.array([1.5]), 1290763749),
        (pa.array([-0.0]), -1670924195),
        (pa.array([float("nan")]), -1281358385),
        (pa.array([1.5], pa.float32()), -221251528),
        (pa.array([decimal.Decimal("12.34")], pa.decimal128(10, 2)), -1028144669),
        (pa.array([decimal.Decimal("-12.34")], pa.decimal128(30, 2)), -378694793),
        (pa.array([datetime.date(2024, 3, 1)]), 260758936),
        (
            pa.array([datetime.datetime(2024, 3, 1, 12, 34, 56, 789000)], pa.timestamp("us")),
            1107679108,
        ),
        (pa.array([[1, None, 3]], pa.list_(pa.int32())), 1066699649),
        (
            pa.array([{"a": 1, "b": "x"}], pa.struct([("a", pa.int32()), ("b", pa.string())])),
            -1305545736,
        ),
        (pa.array([None], pa.int32()), 42),
    ],
)
def test_hash_matches_spark(argument: pa.Array, murmur3: int) -> None:
    assert values(compute.call("hash", argument)) == [murmur3]


@pytest.mark.parametrize(
    "argument, xxhash64",
    [
        (pa.array([1], pa.int32()), -6698625589789238999),
        (pa.array([1], pa.int64()), -7001672635703045582),
        (pa.array(["Spark"]), -4294468057691064905),
        (pa.array(["abcdefghijklmnopqrstuvwxyz0123456789ABCDEF"]), 1498839116691236264),
        (pa.array([-0.0]), -5252525462095825812),
        (pa.array([float("nan")]), -3127944061524951246),
        (pa.array([decimal.Decimal("12.34")], pa.decimal128(10, 2)), -3802813071951760351),
        (pa.array([[1, None, 3]], pa.list_(pa.int32())), -3383274367486667931),
        (pa.array([None], pa.string()), 42),
    ],
)
def test_xxhash64_matches_spark(argument: pa.Array, xxhash64: int) -> None:
    assert values(compute.call("xxhash64", argument)) == [xxhash64]


def test_several_arguments_chain_and_nulls_are_skipped() -> None:
    # Spark: hash(1, 2) = hash(1, null, 2) = -222940379; hash(1, 'a', 2.5D, true) = -1125248331.
    ones = pa.array([1, 1], pa.int32())
    twos = pa.array([2, 2], pa.int32())
    nulls = pa.array([None, None], pa.int32())
    assert values(compute.call("hash", ones, twos)) == [-222940379] * 2
    assert values(compute.call("hash", ones, nulls, twos)) == [-222940379] * 2
    assert values(compute.call("hash", 1, "a", 2.5, True)) == [-1125248331]
    assert values(compute.call("xxhash64", 1, "a", 2.5, True)) == [-2911450530931841648]
    assert values(compute.call("xxhash64", ones, twos)) == [-8133857028838179022] * 2


def test_slices_and_types() -> None:
    strings = pa.array(["zz", "Spark", None, "a"])
    assert values(compute.call("hash", strings.slice(1))) == [228093765, 42, 1485273170]
    assert pa.array(compute.call("hash", strings)).type == pa.int32()
    assert pa.array(compute.call("xxhash64", strings)).type == pa.int64()


def test_errors() -> None:
    with pytest.raises(errors.AnalysisException):
        compute.call("hash")
    with pytest.raises(errors.AnalysisException, match="HASH_MAP_TYPE"):
        compute.call("hash", pa.array([[(1, 2)]], pa.map_(pa.int32(), pa.int32())))
