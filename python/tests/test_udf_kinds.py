"""bowstring.udf.map_batches end to end: every kind of function over every column type the
worker converts, with nulls, empty and one-row inputs and large strings; results are compared
with the same computation done in this process by pyarrow or pandas."""

from __future__ import annotations

import decimal
import math
import sys
from zoneinfo import ZoneInfo

import cloudpickle
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from bowstring import udf
from udf_support import (
    SESSION_TIME_ZONE,
    all_null_table,
    assert_tables_equal,
    every_type_table,
)

# The workers cannot import this module: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ROWS = 100
# Small batches, so that every run has several batches and partitions.
BATCH_SIZE = 16
TABLE = every_type_table(ROWS)
COLUMNS = TABLE.column_names


@pytest.fixture(scope="module")
def pool():
    with udf.WorkerPool(max_workers=2) as workers:
        yield workers


def run(pool, function, data, **options) -> pa.Table:
    options.setdefault("batch_size", BATCH_SIZE)
    options.setdefault("session_time_zone", SESSION_TIME_ZONE)
    return pa.table(udf.map_batches(function, data, pool=pool, **options))


def identity_batches(batches):
    yield from batches


def identity_frames(frames):
    for frame in frames:
        yield frame


def identity_series(series):
    return series


def identity_series_iter(batches):
    for series in batches:
        yield series


def identity_row(value):
    return value


# --- identities over every column type ---


@pytest.mark.parametrize("transport", ["socket", "shm"])
def test_arrow_identity_every_type(pool, transport):
    assert_tables_equal(run(pool, identity_batches, TABLE, transport=transport), TABLE)


@pytest.mark.parametrize("transport", ["socket", "shm"])
def test_pandas_identity_every_type(pool, transport):
    assert_tables_equal(
        run(pool, identity_frames, TABLE, kind="pandas", transport=transport), TABLE
    )


def without_struct_nulls(data: pa.Table) -> pa.Table:
    """What a series function's identity gives: as in PySpark, a struct column reaches it as a
    DataFrame of the struct's fields, which has no null rows, so a null struct comes back as a
    struct whose fields are null."""
    columns = []
    for column in data.columns:
        if pa.types.is_struct(column.type):
            column = pa.chunked_array(
                [
                    pa.StructArray.from_arrays(chunk.flatten(), fields=list(column.type))
                    for chunk in column.chunks
                ],
                type=column.type,
            )
        columns.append(column)
    return pa.table(columns, schema=data.schema)


@pytest.mark.parametrize("column", COLUMNS)
def test_pandas_series_identity(pool, column):
    data = TABLE.select([column])
    result = run(pool, identity_series, data, kind="pandas_series", schema=data.schema)
    assert_tables_equal(result, without_struct_nulls(data))


@pytest.mark.parametrize("column", COLUMNS)
def test_pandas_series_iter_identity(pool, column):
    data = TABLE.select([column])
    result = run(pool, identity_series_iter, data, kind="pandas_series_iter", schema=data.schema)
    assert_tables_equal(result, without_struct_nulls(data))


@pytest.mark.parametrize("column", COLUMNS)
def test_rows_identity(pool, column):
    data = TABLE.select([column])
    result = run(pool, identity_row, data, kind="rows", schema=data.schema)
    assert_tables_equal(result, data)


KIND_IDENTITIES = {
    "arrow": identity_batches,
    "pandas": identity_frames,
    "pandas_series_iter": identity_series_iter,
}


@pytest.mark.parametrize("kind", sorted(KIND_IDENTITIES))
def test_schema_defaults_to_the_input_schema(pool, kind):
    data = TABLE.select(["i64"]) if kind == "pandas_series_iter" else TABLE
    assert_tables_equal(run(pool, KIND_IDENTITIES[kind], data, kind=kind), data)


# --- nulls, empty and one-row inputs ---

ALL_KINDS = {
    "arrow": identity_batches,
    "pandas": identity_frames,
    "pandas_series": identity_series,
    "pandas_series_iter": identity_series_iter,
    "rows": identity_row,
}


@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
def test_columns_of_nulls_only(pool, kind):
    table = all_null_table(40)
    for column in table.column_names:
        data = table.select([column])
        result = run(pool, ALL_KINDS[kind], data, kind=kind, schema=data.schema)
        assert_tables_equal(result, data)


@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
def test_empty_input(pool, kind):
    data = TABLE.slice(0, 0) if kind in ("arrow", "pandas") else TABLE.select(["i64"]).slice(0, 0)
    result = run(pool, ALL_KINDS[kind], data, kind=kind, schema=data.schema)
    assert result.num_rows == 0
    assert result.schema.equals(data.schema)


def test_empty_stream_without_batches(pool):
    reader = pa.RecordBatchReader.from_batches(TABLE.schema, iter(()))
    result = run(pool, identity_batches, reader)
    assert result.num_rows == 0
    assert result.schema.equals(TABLE.schema)


@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
def test_one_row(pool, kind):
    if kind in ("pandas_series", "pandas_series_iter", "rows"):
        for column in ("i64", "ts_kolkata", "amount", "point", "counts", "category"):
            data = TABLE.select([column]).slice(3, 1)
            assert_tables_equal(
                run(pool, ALL_KINDS[kind], data, kind=kind, schema=data.schema), data
            )
    else:
        data = TABLE.slice(3, 1)
        assert_tables_equal(run(pool, ALL_KINDS[kind], data, kind=kind), data)


@pytest.mark.parametrize("kind", ["arrow", "pandas", "rows"])
@pytest.mark.parametrize("string_type", [pa.string(), pa.large_string()])
def test_large_strings(pool, kind, string_type):
    # Twelve 8 MiB values: more than a batch may hold in bytes, so batches hold fewer rows.
    values = [chr(ord("a") + i) * (8 << 20) for i in range(12)]
    values[5] = None
    data = pa.table({"s": pa.array(values, type=string_type)})
    result = run(pool, ALL_KINDS[kind], data, kind=kind, schema=data.schema)
    assert_tables_equal(result, data)


# --- computations compared with the same computation in this process ---


def arrow_compute(batches):
    for batch in batches:
        yield pa.record_batch(
            {
                "i64": batch.column("i64"),
                "twice": pc.multiply(batch.column("f64"), 2),
                "upper": pc.utf8_upper(batch.column("text")),
                "n": pc.list_value_length(batch.column("ints")),
                "late": pc.greater(batch.column("day"), pa.scalar(10000, pa.date32())),
            }
        )


def test_arrow_computation(pool):
    expected = pa.Table.from_batches(list(arrow_compute(TABLE.to_batches())))
    result = run(pool, arrow_compute, TABLE, schema=expected.schema)
    assert_tables_equal(result, expected)


def test_arrow_function_filtering_rows_and_returning_tables(pool):
    def positive(batches):
        for batch in batches:
            yield pa.Table.from_batches([batch.filter(pc.greater(batch.column("f64"), 0))])

    expected = TABLE.filter(pc.greater(TABLE.column("f64"), 0))
    assert_tables_equal(run(pool, positive, TABLE), expected)


def pandas_compute(frames):
    for frame in frames:
        yield pd.DataFrame(
            {
                "i32": frame["i32"],
                "scaled": frame["f64"] * 2 + 1,
                "length": frame["text"].str.len(),
            }
        )


PANDAS_SCHEMA = pa.schema([("i32", pa.int32()), ("scaled", pa.float64()), ("length", pa.int64())])


def test_pandas_computation(pool):
    expected = pa.Table.from_pandas(
        next(pandas_compute([TABLE.to_pandas()])), schema=PANDAS_SCHEMA, preserve_index=False
    )
    result = run(
        pool, pandas_compute, TABLE, kind="pandas", schema="i32 int, scaled double, length long"
    )
    assert_tables_equal(result, expected)


def test_pandas_function_changing_the_row_count(pool):
    def head(frames):
        for frame in frames:
            yield frame.head(3)

    data = TABLE.select(["i64", "text"])
    result = run(pool, head, data, kind="pandas", partition_rows=BATCH_SIZE * 2)
    # Each partition of two batches gives 3 rows per batch.
    expected = pa.concat_tables(
        [data.slice(start, 3) for start in range(0, ROWS, BATCH_SIZE)]
    ).combine_chunks()
    assert_tables_equal(result, expected)


def series_compute(f64, i32):
    return f64 * 2 + i32


def expected_series_compute() -> pa.Table:
    values = series_compute(TABLE.column("f64").to_pandas(), TABLE.column("i32").to_pandas())
    return pa.table({"series_compute": pa.array(values, type=pa.float64(), from_pandas=True)})


def test_pandas_series_computation(pool):
    result = run(
        pool, series_compute, TABLE.select(["f64", "i32"]), kind="pandas_series", schema="double"
    )
    assert_tables_equal(result, expected_series_compute())


def test_pandas_series_returning_a_data_frame(pool):
    def split(text):
        return pd.DataFrame({"text": text, "length": text.str.len()})

    data = TABLE.select(["text"])
    values = data.column("text").to_pandas()
    expected = pa.table(
        {
            "text": data.column("text"),
            "length": pa.array(values.str.len(), type=pa.int64(), from_pandas=True),
        }
    )
    assert_tables_equal(
        run(pool, split, data, kind="pandas_series", schema="text string, length long"), expected
    )


def test_pandas_series_iter_computation(pool):
    def compute(batches):
        for f64, i32 in batches:
            yield series_compute(f64, i32)

    result = run(
        pool,
        compute,
        TABLE.select(["f64", "i32"]),
        kind="pandas_series_iter",
        schema="series_compute double",
    )
    assert_tables_equal(result, expected_series_compute())


def test_rows_computation(pool):
    def describe(i64, text, amount):
        if i64 is None or text is None or amount is None:
            return None
        return f"{i64}:{text.upper()}:{amount * 2}"

    data = TABLE.select(["i64", "text", "amount"])
    expected = pa.table(
        {"describe": pa.array([describe(*row.values()) for row in data.to_pylist()], pa.string())}
    )
    assert_tables_equal(run(pool, describe, data, kind="rows", schema="describe string"), expected)


def test_rows_returning_several_columns(pool):
    def split(point):
        if point is None:
            return (None, None)
        return (point["x"], point["y"])

    data = TABLE.select(["point"])
    pairs = [split(row["point"]) for row in data.to_pylist()]
    expected = pa.table(
        {"x": pa.array([p[0] for p in pairs], pa.int32()), "y": pa.array([p[1] for p in pairs])}
    )
    assert_tables_equal(run(pool, split, data, kind="rows", schema="x int, y string"), expected)


def test_rows_see_python_values_of_each_type(pool):
    def type_names(*values):
        return ",".join(type(value).__name__ for value in values)

    row = pa.table(
        {
            "i64": [1],
            "f64": [1.5],
            "flag": [True],
            "text": ["a"],
            "blob": [b"a"],
            "day": pa.array([1], pa.date32()),
            "ts": pa.array([1], pa.timestamp("us", "UTC")),
            "ts_naive": pa.array([1], pa.timestamp("us")),
            "amount": pa.array([decimal.Decimal("1.25")], pa.decimal128(5, 2)),
            "ints": [[1, 2]],
            "point": [{"x": 1, "y": "a"}],
            "counts": pa.array([[("a", 1)]], pa.map_(pa.string(), pa.int32())),
        }
    )
    result = run(pool, type_names, row, kind="rows", schema="names string")
    assert result.column("names").to_pylist() == [
        "int,float,bool,str,bytes,date,datetime,datetime,Decimal,list,dict,dict"
    ]


def test_rows_see_timestamps_as_naive_times_in_the_session_time_zone(pool):
    def as_text(ts):
        return None if ts is None else f"{ts.isoformat()} tz={ts.tzinfo}"

    data = TABLE.select(["ts_kolkata"])
    session = ZoneInfo(SESSION_TIME_ZONE)
    expected = [
        (
            None
            if value is None
            else f"{value.astimezone(session).replace(tzinfo=None).isoformat()} tz=None"
        )
        for value in data.column("ts_kolkata").to_pylist()
    ]
    result = run(pool, as_text, data, kind="rows", schema="text string")
    assert result.column("text").to_pylist() == expected


def test_pandas_sees_timestamps_in_the_session_time_zone(pool):
    def hours(series):
        return series.dt.hour

    data = TABLE.select(["ts_utc"])
    local = data.column("ts_utc").to_pandas().dt.tz_convert(SESSION_TIME_ZONE).dt.hour
    expected = pa.table({"hours": pa.array(local, type=pa.int32(), from_pandas=True)})
    assert_tables_equal(run(pool, hours, data, kind="pandas_series", schema="hours int"), expected)


def test_decimals_reach_rows_as_decimal(pool):
    def add_cent(amount):
        return None if amount is None else amount + decimal.Decimal("0.01")

    data = TABLE.select(["amount"])
    expected = pa.table(
        {
            "amount": pa.array(
                [
                    None if v is None else v + decimal.Decimal("0.01")
                    for v in data.column("amount").to_pylist()
                ],
                type=pa.decimal128(11, 2),
            )
        }
    )
    assert_tables_equal(
        run(pool, add_cent, data, kind="rows", schema="amount decimal(11,2)"), expected
    )


# --- inputs and outputs ---


def test_input_from_a_python_generator(pool):
    # The batches come from a Python generator, read by the engine's threads: this only works
    # if the caller does not hold the GIL while waiting for results.
    def produce():
        for batch in TABLE.to_batches(max_chunksize=7):
            yield batch

    reader = pa.RecordBatchReader.from_batches(TABLE.schema, produce())
    assert_tables_equal(run(pool, identity_batches, reader), TABLE)


def test_input_from_a_record_batch_and_a_bowstring_table(pool):
    import bowstring

    batch = TABLE.to_batches()[0]
    assert_tables_equal(run(pool, identity_batches, batch), pa.Table.from_batches([batch]))
    assert_tables_equal(run(pool, identity_batches, bowstring.Table(TABLE)), TABLE)


def test_result_read_by_iteration_and_read_all(pool):
    data = TABLE.select(["i64"])
    result = udf.map_batches(identity_batches, data, pool=pool, batch_size=BATCH_SIZE)
    assert pa.schema(result.schema).equals(data.schema)
    first = pa.record_batch(next(iter(result)))
    rest = pa.table(result.read_all())
    assert_tables_equal(pa.concat_tables([pa.Table.from_batches([first]), rest]), data)
    metrics = result.metrics
    assert metrics["rows_in"] == ROWS
    assert metrics["rows_out"] == ROWS
    assert metrics["batches_in"] == math.ceil(ROWS / BATCH_SIZE)
    assert metrics["partitions"] >= 1
    assert metrics["peak_memory_bytes"] > 0
    with pytest.raises(StopIteration):
        result.read_next_batch()


def test_results_handed_over_cannot_be_read_again(pool):
    result = udf.map_batches(identity_batches, TABLE, pool=pool)
    assert_tables_equal(pa.table(result), TABLE)
    with pytest.raises(ValueError, match="handed over through __arrow_c_stream__"):
        result.read_all()
    assert result.metrics["rows_out"] == ROWS


def test_partition_rows_decides_the_calls_of_an_iterator_function(pool):
    def count_batches(frames):
        frames = list(frames)
        yield pd.DataFrame({"batches": [len(frames)], "rows": [sum(len(f) for f in frames)]})

    data = TABLE.select(["i64"])
    result = run(
        pool,
        count_batches,
        data,
        kind="pandas",
        schema="batches long, rows long",
        partition_rows=32,
    )
    assert result.column("rows").to_pylist() == [32, 32, 32, 4]
    assert result.column("batches").to_pylist() == [2, 2, 2, 1]
