"""Conversions of the worker between Arrow and what functions see, in one process: time zones
at any nesting depth, sliced input, and results given with time zones."""

from __future__ import annotations

import datetime
import zoneinfo

import pandas as pd
import pyarrow as pa
import pytest

from bowstring.worker.conversion import InputConverter, OutputConverter, ResultMismatchError

ZONE = "America/New_York"
UTC = datetime.timezone.utc
INSTANT = datetime.datetime(2024, 7, 1, 12, 0, tzinfo=UTC)
# INSTANT as a wall-clock time in ZONE (EDT, UTC-4).
WALL = datetime.datetime(2024, 7, 1, 8, 0)
ZONED = pa.timestamp("us", tz="UTC")

NESTED_TYPES = [
    pa.list_(ZONED),
    pa.large_list(ZONED),
    pa.list_(ZONED, 2),
    pa.struct([("at", ZONED), ("n", pa.int64())]),
    pa.map_(pa.string(), ZONED),
    pa.list_(pa.struct([("at", ZONED)])),
]


def nested_value(data_type: pa.DataType, instant: datetime.datetime) -> object:
    if pa.types.is_struct(data_type):
        return {field.name: nested_value(field.type, instant) for field in data_type}
    if pa.types.is_map(data_type):
        return [("k", instant)]
    if pa.types.is_timestamp(data_type):
        return instant
    if pa.types.is_integer(data_type):
        return 1
    size = data_type.list_size if pa.types.is_fixed_size_list(data_type) else 1
    return [nested_value(data_type.value_type, instant)] * size


@pytest.mark.parametrize("data_type", NESTED_TYPES, ids=str)
def test_zoned_timestamps_at_any_depth_of_a_sliced_column(data_type: pa.DataType) -> None:
    other = INSTANT - datetime.timedelta(days=1)
    column = pa.array(
        [nested_value(data_type, other), None, nested_value(data_type, INSTANT)], data_type
    )
    schema = pa.schema([("c", data_type)])
    batch = pa.record_batch([column], schema=schema).slice(1)
    seen = InputConverter(schema, ZONE).to_pylists(batch)[0]
    expected = nested_value(data_type, WALL)
    if pa.types.is_map(data_type):
        expected = dict(expected)
    assert seen == [None, expected]
    # Wall-clock times read back in the session zone give the original instants.
    output = OutputConverter(schema, "f", ZONE)
    values = [None, nested_value(data_type, WALL)]
    result = output.from_rows(values, "for input batch 0")
    assert result.column(0).equals(batch.column(0))


def test_row_results_with_time_zones_keep_their_instants() -> None:
    schema = pa.schema([("t", ZONED), ("s", pa.struct([("at", ZONED)]))])
    tokyo = zoneinfo.ZoneInfo("Asia/Tokyo")
    aware = INSTANT.astimezone(tokyo)
    output = OutputConverter(schema, "f", ZONE)
    result = output.from_rows([(aware, {"at": aware}), (WALL, {"at": WALL})], "for input batch 0")
    assert result.column("t").to_pylist() == [INSTANT, INSTANT]
    assert result.column("s").to_pylist() == [{"at": INSTANT}, {"at": INSTANT}]


def test_pandas_results_with_time_zones_keep_their_instants() -> None:
    schema = pa.schema([("t", pa.timestamp("us", tz="Europe/Paris"))])
    output = OutputConverter(schema, "f", ZONE)
    aware = pd.Series(pd.to_datetime([INSTANT])).dt.tz_convert("Asia/Tokyo")
    naive = pd.Series(pd.to_datetime([WALL]))
    for series in (aware, naive):
        result = output.from_series_result(series, "for input batch 0")
        assert result.schema == schema
        assert result.column(0).cast(ZONED).to_pylist() == [INSTANT]


def test_pandas_kind_sees_naive_session_times_and_categoricals() -> None:
    schema = pa.schema([("t", ZONED), ("c", pa.dictionary(pa.int32(), pa.string()))])
    batch = pa.record_batch(
        [pa.array([INSTANT], ZONED), pa.array(["x"]).dictionary_encode()], schema=schema
    )
    frame = InputConverter(schema, ZONE).to_pandas(batch)
    assert frame["t"].iloc[0] == pd.Timestamp(WALL)
    assert frame["t"].dt.tz is None
    assert isinstance(frame["c"].dtype, pd.CategoricalDtype)


def test_nanosecond_results_are_truncated_to_the_output_unit() -> None:
    schema = pa.schema([("t", pa.timestamp("us"))])
    output = OutputConverter(schema, "f", ZONE)
    series = pd.Series([pd.Timestamp("2024-01-01 00:00:00.000001999")])
    result = output.from_series_result(series, "for input batch 0")
    assert result.column(0).to_pylist() == [datetime.datetime(2024, 1, 1, 0, 0, 0, 1)]


def test_frames_are_matched_by_name_or_else_by_position() -> None:
    schema = pa.schema([("a", pa.int64()), ("b", pa.string())])
    output = OutputConverter(schema, "f", ZONE)
    by_name = output.from_frame(pd.DataFrame({"b": ["x"], "a": [1]}), "in output batch 0")
    by_position = output.from_frame(pd.DataFrame([[1, "x"]]), "in output batch 0")
    assert by_name.equals(by_position)
    assert by_name.to_pylist() == [{"a": 1, "b": "x"}]
    with pytest.raises(ResultMismatchError, match=r"a DataFrame with columns \['a', 'c'\]"):
        output.from_frame(pd.DataFrame({"a": [1], "c": ["x"]}), "in output batch 0")


def test_frame_without_columns_or_rows_is_an_empty_result() -> None:
    # PySpark accepts pd.DataFrame() as "no rows" from mapInPandas and applyInPandas functions.
    schema = pa.schema([("a", pa.int64()), ("b", pa.string())])
    output = OutputConverter(schema, "f", ZONE)
    result = output.from_frame(pd.DataFrame(), "in output batch 0")
    assert result.schema == schema and result.num_rows == 0
    with pytest.raises(ResultMismatchError, match=r"a DataFrame of 0 columns \[\], expected 2"):
        output.from_frame(pd.DataFrame(index=range(3)), "in output batch 0")


@pytest.mark.parametrize(
    "values,message",
    [
        ([(1, "x"), (2,)], r"row 1 has 1 values, expected 2 \(a, b\)"),
        ([(1, "x"), 5], "row 1 is a int, expected a tuple, list or dict of 2 values"),
        ([{"a": 1, "b": 2}], r"column 'b': expected string, got int values \(row 0: 2\)"),
    ],
)
def test_row_results_that_do_not_convert_name_the_row(values: list, message: str) -> None:
    schema = pa.schema([("a", pa.int64()), ("b", pa.string())])
    output = OutputConverter(schema, "f", ZONE)
    with pytest.raises(ResultMismatchError, match=message):
        output.from_rows(values, "for input batch 3")


def test_wall_clock_times_in_a_transition_are_read_as_standard_time() -> None:
    # 02:30 does not exist on 2024-03-10 in New York and 01:30 occurs twice on 2024-11-03: both
    # are read with the offset of standard time (UTC-5), as Python's datetime.timestamp() and
    # the JVM read a time skipped by the clock.
    walls = [datetime.datetime(2024, 3, 10, 2, 30), datetime.datetime(2024, 11, 3, 1, 30)]
    instants = [
        datetime.datetime(2024, 3, 10, 7, 30, tzinfo=UTC),
        datetime.datetime(2024, 11, 3, 6, 30, tzinfo=UTC),
    ]
    schema = pa.schema([("t", ZONED)])
    output = OutputConverter(schema, "f", ZONE)
    from_rows = output.from_rows(walls, "for input batch 0")
    from_series = output.from_series_result(pd.Series(walls), "for input batch 0")
    assert from_rows.column(0).to_pylist() == instants
    assert from_series.column(0).to_pylist() == instants


@pytest.mark.parametrize(
    "series,data_type,expected",
    [
        (pd.Series([1.5, float("nan"), -2.0]), pa.float64(), [1.5, None, -2.0]),
        (pd.Series([1.5, float("nan")], dtype="float32"), pa.float64(), [1.5, None]),
        (pd.Series([1, 2, 3]), pa.float64(), [1.0, 2.0, 3.0]),
        (pd.Series([1.0, float("nan"), 3.0]), pa.int32(), [1, None, 3]),
        (pd.Series([7, -8], dtype="int8"), pa.int64(), [7, -8]),
        (pd.Series([True, False]), pa.bool_(), [True, False]),
        (pd.Series([1, None], dtype="Int64"), pa.int64(), [1, None]),
    ],
)
def test_numeric_series_convert_with_nan_as_null(
    series: pd.Series, data_type: pa.DataType, expected: list
) -> None:
    output = OutputConverter(pa.schema([("v", data_type)]), "f", ZONE)
    result = output.from_series_result(series, "for input batch 0")
    assert result.column(0).type == data_type
    assert result.column(0).to_pylist() == expected


@pytest.mark.parametrize(
    "series,data_type",
    [
        (pd.Series([1.5]), pa.int64()),
        (pd.Series([300]), pa.int8()),
        (pd.Series([2**63], dtype="uint64"), pa.int64()),
    ],
)
def test_numeric_series_that_do_not_fit_are_refused(series: pd.Series, data_type) -> None:
    output = OutputConverter(pa.schema([("v", data_type)]), "f", ZONE)
    with pytest.raises(ResultMismatchError, match=f"column 'v': expected {data_type}"):
        output.from_series_result(series, "for input batch 0")
