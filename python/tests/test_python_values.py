"""Bowstring data as Python values: ``to_pylist``, indexing, slicing and iteration agree with
pyarrow's for every type."""

from __future__ import annotations

import datetime
from typing import Any, Callable, List

import numpy as np
import pyarrow as pa
import pytest

import bowstring
from arrow_samples import EVERY_TYPE, ROWS, random_array


def pyarrow_outcome(convert: Callable[[], List[Any]]) -> Any:
    """The values, or the class of the error raised converting them."""
    try:
        return convert()
    except Exception as error:  # noqa: BLE001 - the class is the outcome compared
        return type(error)


def assert_same_values(ours: Callable[[], List[Any]], theirs: Callable[[], List[Any]]) -> None:
    expected = pyarrow_outcome(theirs)
    if isinstance(expected, type):
        with pytest.raises(expected):
            ours()
        return
    actual = ours()
    assert actual == expected
    # repr also tells apart what == does not: Decimal('1.50') from Decimal('1.5'), a datetime's
    # zone, pandas Timestamps from datetimes, MonthDayNano from plain tuples.
    assert repr(actual) == repr(expected)


@pytest.mark.parametrize("arrow_type", EVERY_TYPE, ids=str)
def test_to_pylist_matches_pyarrow_for_every_type(arrow_type: pa.DataType) -> None:
    data = random_array(arrow_type, ROWS, np.random.default_rng(7))
    array = bowstring.Array(data)
    assert_same_values(array.to_pylist, data.to_pylist)
    window = data.slice(11, 23)
    assert_same_values(bowstring.Array(window).to_pylist, window.to_pylist)
    assert_same_values(lambda: array.slice(11, 23).to_pylist(), window.to_pylist)


@pytest.mark.parametrize(
    "arrow_type",
    [pa.timestamp("s"), pa.timestamp("ms", "UTC"), pa.duration("s"), pa.duration("ms")],
    ids=str,
)
def test_temporal_values_in_range_convert_and_out_of_range_ones_overflow(
    arrow_type: pa.DataType,
) -> None:
    in_range = pa.array([0, -1, 86_400 * 365, None, 253_402_300_799], pa.int64()).cast(arrow_type)
    assert_same_values(bowstring.Array(in_range).to_pylist, in_range.to_pylist)
    too_far = pa.array([10**18], pa.int64()).cast(arrow_type)
    with pytest.raises(OverflowError, match="outside the range of datetime"):
        bowstring.Array(too_far).to_pylist()


def test_zoned_timestamps_carry_their_zone() -> None:
    data = pa.array([0, 1_700_000_000_000_000], pa.timestamp("us", "Asia/Kolkata"))
    values = bowstring.Array(data).to_pylist()
    assert values[0] == datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    assert str(values[1].tzinfo) == "Asia/Kolkata"
    assert values[1].utcoffset() == datetime.timedelta(hours=5, minutes=30)


def test_getitem_takes_negative_indices_and_raises_index_error_outside() -> None:
    array = bowstring.Array(pa.array(["a", None, "c"]))
    assert [array[0], array[1], array[2]] == ["a", None, "c"]
    assert array[-1] == "c" and array[-3] == "a"
    for outside in (3, -4, 2**40):
        with pytest.raises(IndexError, match=f"value index {outside} is out of range for 3"):
            array[outside]


@pytest.mark.parametrize("arrow_type", EVERY_TYPE, ids=str)
def test_getitem_gives_each_value_as_to_pylist_does(arrow_type: pa.DataType) -> None:
    data = random_array(arrow_type, 12, np.random.default_rng(3))
    array = bowstring.Array(data)
    expected = pyarrow_outcome(data.to_pylist)
    if isinstance(expected, type):
        with pytest.raises(expected):
            [array[i] for i in range(len(array))]
        return
    assert repr([array[i] for i in range(len(array))]) == repr(expected)
    assert repr(list(array)) == repr(expected)


def test_slices_with_step_one_are_zero_copy_arrays() -> None:
    data = pa.array(np.arange(100, dtype=np.int64))
    array = bowstring.Array(data)
    window = array[10:20]
    assert isinstance(window, bowstring.Array)
    assert window.to_pylist() == list(range(10, 20))
    assert window.offset == 10 and window.buffer_addresses() == array.buffer_addresses()
    assert array[-5:].to_pylist() == [95, 96, 97, 98, 99]
    assert array[90:200].to_pylist() == list(range(90, 100))
    assert len(array[50:10]) == 0


@pytest.mark.parametrize("key", [slice(None, None, 2), slice(None, None, -1), slice(8, 1, -3)])
def test_slices_with_other_steps_select_like_python_lists(key: slice) -> None:
    data = pa.array(["a", None, "b", "c", None, "d", "e", "f", "g", "h"])
    assert bowstring.Array(data)[key].to_pylist() == data.to_pylist()[key]


def test_len_and_iteration() -> None:
    array = bowstring.Array(pa.array([[1, 2], None, []]))
    assert len(array) == 3
    assert list(array) == [[1, 2], None, []]
    assert [value for value in array] == array.to_pylist()


def test_chunked_arrays_convert_across_chunks() -> None:
    data = pa.chunked_array([[1, None], [], [3, 4, 5]])
    chunked = bowstring.ChunkedArray(data)
    assert chunked.to_pylist() == data.to_pylist()
    assert [chunked[i] for i in range(len(chunked))] == data.to_pylist()
    assert chunked[-1] == 5 and list(chunked) == data.to_pylist()
    with pytest.raises(IndexError, match="value index 5 is out of range for 5"):
        chunked[5]


@pytest.mark.parametrize("make", [pa.table, pa.record_batch], ids=["Table", "RecordBatch"])
def test_tables_and_batches_give_rows_and_columns(make: Callable[..., Any]) -> None:
    data = make({"id": [1, 2, 3], "name": ["a", None, "c"], "tags": [["x"], [], None]})
    ours = bowstring.Table(data) if make is pa.table else bowstring.RecordBatch(data)
    assert ours.to_pylist() == data.to_pylist()
    assert ours.to_pydict() == data.to_pydict()
    assert len(ours) == ours.num_rows == 3


def test_chunked_arrays_slice_across_chunks() -> None:
    data = pa.chunked_array([[0, 1, 2], [], [3, 4], [5, 6, 7, 8, 9]])
    chunked = bowstring.ChunkedArray(data)
    window = chunked[2:7]
    assert isinstance(window, bowstring.ChunkedArray)
    assert window.to_pylist() == [2, 3, 4, 5, 6]
    assert chunked.slice(8).to_pylist() == [8, 9]
    assert chunked.slice(1, 2).to_pylist() == [1, 2]
    for key in (slice(None, None, 3), slice(None, None, -2), slice(9, 0, -4), slice(5, 5, 2)):
        assert chunked[key].to_pylist() == data.to_pylist()[key]


@pytest.mark.parametrize("make", [pa.table, pa.record_batch], ids=["Table", "RecordBatch"])
def test_tables_and_batches_index_columns_and_slice_rows(make: Callable[..., Any]) -> None:
    data = make({"id": [1, 2, 3, 4], "name": ["a", None, "c", "d"]})
    ours = bowstring.Table(data) if make is pa.table else bowstring.RecordBatch(data)
    assert ours["name"].to_pylist() == ["a", None, "c", "d"]
    assert ours[0].to_pylist() == [1, 2, 3, 4] and ours[-1].to_pylist() == ours["name"].to_pylist()
    with pytest.raises(IndexError, match="column index 2 is out of range for 2 columns"):
        ours[2]
    assert ours[1:3].to_pydict() == {"id": [2, 3], "name": [None, "c"]}
    assert ours[3:1].num_rows == 0
    with pytest.raises(ValueError, match="slicing rows takes a step of 1, got 2"):
        ours[::2]
