"""The worker runtime end to end, driven by a pure-Python stand-in for the engine: every
function kind over every column type PySpark knows, both transports, result validation, user
errors, memory limits, crashes, output and shutdown."""

from __future__ import annotations

import ctypes
import datetime
import decimal
import json
import os
import signal
import subprocess
import sys
import time
from typing import Any, Iterator, List

import cloudpickle
import pandas as pd
import pyarrow as pa
import pytest

from bowstring.worker.protocol import FrameType
from worker_harness import (
    PACKAGE_ROOT,
    TIMEOUT,
    Engine,
    WorkerGone,
    command_payload,
    send_batch,
    wait_until,
)

# Functions defined here are sent by value: workers cannot import this module.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

SESSION_ZONE = "America/New_York"
CONFIG = {"session_time_zone": SESSION_ZONE, "max_records_per_batch": "10000"}
TRANSPORTS = [("socket", "socket"), ("shm", "shm"), ("socket", "shm"), ("shm", "socket")]
KINDS = ["arrow", "pandas", "pandas_series", "pandas_series_iter", "rows"]

UTC = datetime.timezone.utc
# 01:30 EST and 08:00 EDT in the session zone.
WINTER_INSTANT = datetime.datetime(2024, 3, 10, 6, 30, tzinfo=UTC)
SUMMER_INSTANT = datetime.datetime(2024, 7, 1, 12, 0, tzinfo=UTC)


def all_types_batch() -> pa.RecordBatch:
    """One column of every type PySpark knows, with a null in each."""
    return pa.record_batch(
        {
            "i8": pa.array([1, None, -128], pa.int8()),
            "i16": pa.array([1, None, -32768], pa.int16()),
            "i32": pa.array([1, None, 2**31 - 1], pa.int32()),
            "i64": pa.array([1, None, -(2**53)], pa.int64()),
            "f32": pa.array([1.5, None, -2.25], pa.float32()),
            "f64": pa.array([1.5, None, 1e300], pa.float64()),
            "flag": pa.array([True, None, False]),
            "text": pa.array(["a", None, "ünïcødé"]),
            "large_text": pa.array(["long", None, "x" * 1000], pa.large_string()),
            "blob": pa.array([b"\x00\x01", None, b""], pa.binary()),
            "day": pa.array([datetime.date(2024, 3, 10), None, datetime.date(1969, 12, 31)]),
            "local_time": pa.array(
                [
                    datetime.datetime(2024, 3, 10, 1, 30),
                    None,
                    datetime.datetime(1999, 12, 31, 23, 59, 59, 999999),
                ],
                pa.timestamp("us"),
            ),
            "instant": pa.array(
                [WINTER_INSTANT, None, SUMMER_INSTANT], pa.timestamp("us", tz="UTC")
            ),
            "amount": pa.array(
                [decimal.Decimal("12.34"), None, decimal.Decimal("-0.01")], pa.decimal128(10, 2)
            ),
            "numbers": pa.array([[1, 2], None, []], pa.list_(pa.int64())),
            "point": pa.array(
                [{"x": 1.0, "label": "a"}, None, {"x": -2.0, "label": None}],
                pa.struct([("x", pa.float64()), ("label", pa.string())]),
            ),
            "attributes": pa.array([{"a": 1}, None, {}], pa.map_(pa.string(), pa.int64())),
            "category": pa.array(["red", None, "red"], pa.string()).dictionary_encode(),
            "instants": pa.array(
                [[WINTER_INSTANT, None], None, [SUMMER_INSTANT]],
                pa.list_(pa.timestamp("us", tz="UTC")),
            ),
            "event": pa.array(
                [{"at": WINTER_INSTANT, "n": 1}, None, {"at": None, "n": 3}],
                pa.struct([("at", pa.timestamp("us", tz="Asia/Tokyo")), ("n", pa.int32())]),
            ),
            "schedule": pa.array(
                [{"start": SUMMER_INSTANT}, None, {}],
                pa.map_(pa.string(), pa.timestamp("us", tz="UTC")),
            ),
        }
    )


def numbered_batches(count: int, rows: int) -> List[pa.RecordBatch]:
    """``count`` batches of ``rows`` consecutive integers in column "x"."""
    return [
        pa.record_batch({"x": pa.array(range(i * rows, (i + 1) * rows), pa.int64())})
        for i in range(count)
    ]


@pytest.fixture(scope="module")
def engine() -> Iterator[Engine]:
    engine = Engine()
    try:
        yield engine
    except BaseException:
        engine.kill()
        raise
    engine.close()


@pytest.fixture(scope="module")
def worker(engine: Engine) -> Any:
    return engine.spawn()


# Identity functions of each kind.


def same_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    yield from batches


def same_frames(frames: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    yield from frames


def same_series(*columns: pd.Series) -> pd.DataFrame:
    return pd.concat(columns, axis=1)


def same_series_iter(batches: Iterator[Any]) -> Iterator[pd.DataFrame]:
    for columns in batches:
        yield pd.concat(columns, axis=1)


def same_row(*values: Any) -> tuple:
    return values


IDENTITY = {
    "arrow": same_batches,
    "pandas": same_frames,
    "pandas_series": same_series,
    "pandas_series_iter": same_series_iter,
    "rows": same_row,
}


def assert_tables_equal(actual: pa.Table, expected: pa.Table) -> None:
    assert actual.schema == expected.schema
    for name, data_type in zip(expected.column_names, expected.schema.types):
        actual_column, expected_column = actual[name], expected[name]
        assert actual_column.to_pylist() == expected_column.to_pylist(), name
        if pa.types.is_dictionary(data_type):
            # A batch's dictionary may hold only the values it uses.
            actual_column = actual_column.cast(data_type.value_type)
            expected_column = expected_column.cast(data_type.value_type)
        assert actual_column.equals(expected_column), name


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("input_transport,transport", TRANSPORTS[:2])
def test_every_type_round_trips_through_every_kind(
    engine: Engine, worker: Any, kind: str, input_transport: str, transport: str
) -> None:
    batch = all_types_batch()
    batches = [batch, batch.slice(1, 1), batch.slice(0, 1)]
    result = engine.call(
        worker,
        kind,
        IDENTITY[kind],
        batches,
        batch.schema,
        batch.schema,
        transport=transport,
        input_transport=input_transport,
        config=CONFIG,
    )
    assert result.error is None, result.error
    assert set(result.transports) == {transport}
    assert_tables_equal(result.table(batch.schema), pa.Table.from_batches(batches))
    metrics = result.metrics
    assert metrics["rows_in"] == metrics["rows_out"] == 5
    assert metrics["batches_in"] == metrics["batches_out"] == 3
    assert metrics["function_seconds"] >= 0
    assert metrics["peak_memory_bytes"] > 10 << 20


@pytest.mark.parametrize("kind", KINDS)
def test_empty_input_and_empty_batches(engine: Engine, worker: Any, kind: str) -> None:
    schema = all_types_batch().schema
    empty = engine.call(worker, kind, IDENTITY[kind], [], schema, schema, config=CONFIG)
    assert empty.error is None and empty.batches == []
    assert empty.metrics["batches_in"] == 0
    no_rows = all_types_batch().slice(0, 0)
    result = engine.call(worker, kind, IDENTITY[kind], [no_rows], schema, schema, config=CONFIG)
    assert result.error is None, result.error
    assert result.table(schema).num_rows == 0
    assert result.metrics["batches_in"] == 1


def describe_values(values: dict) -> dict:
    """What a function saw, as JSON-friendly text."""
    return {name: f"{type(value).__name__}:{value!r}" for name, value in values.items()}


def describe_first_frame(frames: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    for frame in frames:
        seen = describe_values(frame.iloc[0].to_dict())
        seen["dtypes"] = {name: str(dtype) for name, dtype in frame.dtypes.items()}
        yield pd.DataFrame({"seen": [json.dumps(seen)]})


def describe_first_row(*values: Any) -> str:
    return json.dumps(describe_values(dict(zip(all_types_batch().schema.names, values))))


def test_pandas_functions_see_values_as_pyspark_shows_them(engine: Engine, worker: Any) -> None:
    batch = all_types_batch()
    output = pa.schema([("seen", pa.string())])
    result = engine.call(
        worker, "pandas", describe_first_frame, [batch], batch.schema, output, config=CONFIG
    )
    assert result.error is None, result.error
    seen = json.loads(result.batches[0].column(0)[0].as_py())
    dtypes = seen.pop("dtypes")
    assert dtypes["i64"] == "float64"  # nulls in an integer column, as pandas does
    assert dtypes["instant"] == "datetime64[ns]"  # naive, in the session time zone
    assert dtypes["local_time"] == "datetime64[ns]"
    assert dtypes["category"] == "category"
    assert seen["instant"] == "Timestamp:Timestamp('2024-03-10 01:30:00')"
    assert seen["local_time"] == "Timestamp:Timestamp('2024-03-10 01:30:00')"
    assert seen["day"] == "date:datetime.date(2024, 3, 10)"
    assert seen["amount"] == "Decimal:Decimal('12.34')"
    assert seen["numbers"] == "ndarray:array([1, 2])"
    assert seen["point"] == "dict:{'x': 1.0, 'label': 'a'}"
    assert seen["attributes"] == "dict:{'a': 1}"
    assert seen["blob"] == "bytes:b'\\x00\\x01'"
    assert seen["category"] == "str:'red'"


def test_row_functions_see_python_values(engine: Engine, worker: Any) -> None:
    batch = all_types_batch()
    output = pa.schema([("seen", pa.string())])
    result = engine.call(
        worker, "rows", describe_first_row, [batch], batch.schema, output, config=CONFIG
    )
    assert result.error is None, result.error
    first, null_row, last = [json.loads(text) for text in result.batches[0].column(0).to_pylist()]
    assert first["i8"] == "int:1"
    assert first["f32"] == "float:1.5"
    assert first["flag"] == "bool:True"
    assert first["instant"] == "datetime:datetime.datetime(2024, 3, 10, 1, 30)"
    assert last["instant"] == "datetime:datetime.datetime(2024, 7, 1, 8, 0)"
    assert first["day"] == "date:datetime.date(2024, 3, 10)"
    assert first["amount"] == "Decimal:Decimal('12.34')"
    assert first["numbers"] == "list:[1, 2]"
    assert first["point"] == "dict:{'x': 1.0, 'label': 'a'}"
    assert first["attributes"] == "dict:{'a': 1}"
    assert first["category"] == "str:'red'"
    assert first["instants"] == "list:[datetime.datetime(2024, 3, 10, 1, 30), None]"
    assert first["event"] == "dict:{'at': datetime.datetime(2024, 3, 10, 1, 30), 'n': 1}"
    assert last["schedule"] == "dict:{}"
    assert set(null_row.values()) == {"NoneType:None"}


def plus_one_series(values: pd.Series) -> pd.Series:
    return values + 1


def plus_one_iter(batches: Iterator[pd.Series]) -> Iterator[pd.Series]:
    for values in batches:
        yield values + 1


def plus_one_row(value: int) -> int:
    return value + 1


def plus_one_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.Table]:
    import pyarrow.compute as pc

    for batch in batches:
        yield pa.table({"x": pc.add(batch.column(0), 1)})


def plus_one_frames(frames: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    for frame in frames:
        yield frame + 1


PLUS_ONE = {
    "arrow": plus_one_batches,
    "pandas": plus_one_frames,
    "pandas_series": plus_one_series,
    "pandas_series_iter": plus_one_iter,
    "rows": plus_one_row,
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("input_transport,transport", TRANSPORTS)
def test_many_batches_in_order(
    engine: Engine, worker: Any, kind: str, input_transport: str, transport: str
) -> None:
    batches = numbered_batches(20, 500)
    schema = batches[0].schema
    result = engine.call(
        worker,
        kind,
        PLUS_ONE[kind],
        batches,
        schema,
        schema,
        transport=transport,
        input_transport=input_transport,
    )
    assert result.error is None, result.error
    assert result.table(schema).column("x").to_pylist() == list(range(1, 10001))
    assert result.metrics["batches_in"] == 20


def utc_offsets(values: pd.Series) -> pd.Series:
    # Results given as time-zone aware timestamps keep their instant.
    return values.dt.tz_localize("Asia/Tokyo")


def test_results_with_a_time_zone_keep_their_instant(engine: Engine, worker: Any) -> None:
    batch = pa.record_batch({"t": pa.array([datetime.datetime(2024, 1, 1, 9)], pa.timestamp("us"))})
    output = pa.schema([("t", pa.timestamp("us", tz="UTC"))])
    result = engine.call(
        worker, "pandas_series", utc_offsets, [batch], batch.schema, output, config=CONFIG
    )
    assert result.error is None, result.error
    assert result.batches[0].column(0)[0].as_py() == datetime.datetime(2024, 1, 1, 0, tzinfo=UTC)


def several_columns(value: int) -> dict:
    return {"doubled": value * 2, "text": str(value)}


def test_row_function_returning_several_columns(engine: Engine, worker: Any) -> None:
    batches = numbered_batches(2, 3)
    output = pa.schema([("text", pa.string()), ("doubled", pa.int32())])
    result = engine.call(worker, "rows", several_columns, batches, batches[0].schema, output)
    assert result.error is None, result.error
    table = result.table(output)
    assert table.column("doubled").to_pylist() == [0, 2, 4, 6, 8, 10]
    assert table.column("text").to_pylist() == ["0", "1", "2", "3", "4", "5"]


def pair_as_list(value: int) -> list:
    return [value, value * 0.5]


def test_row_function_returning_a_struct_as_a_list(engine: Engine, worker: Any) -> None:
    batches = numbered_batches(1, 2)
    output = pa.schema([("pair", pa.struct([("n", pa.int64()), ("half", pa.float64())]))])
    result = engine.call(worker, "rows", pair_as_list, batches, batches[0].schema, output)
    assert result.error is None, result.error
    assert result.batches[0].column(0).to_pylist() == [{"n": 0, "half": 0.0}, {"n": 1, "half": 0.5}]


def pair_frame(values: pd.Series) -> pd.DataFrame:
    return pd.DataFrame({"half": values * 0.5, "n": values})


def test_series_function_returning_a_struct_as_a_frame(engine: Engine, worker: Any) -> None:
    batches = numbered_batches(1, 2)
    output = pa.schema([("pair", pa.struct([("n", pa.int64()), ("half", pa.float64())]))])
    result = engine.call(worker, "pandas_series", pair_frame, batches, batches[0].schema, output)
    assert result.error is None, result.error
    assert result.batches[0].column(0).to_pylist() == [{"n": 0, "half": 0.0}, {"n": 1, "half": 0.5}]


def two_columns_iter(batches: Iterator[pd.Series]) -> Iterator[pd.DataFrame]:
    for values in batches:
        yield pd.DataFrame({"a": values, "b": values.astype(str)})


def test_series_iterator_with_one_column_and_several_outputs(engine: Engine, worker: Any) -> None:
    batches = numbered_batches(3, 2)
    output = pa.schema([("a", pa.int64()), ("b", pa.string())])
    result = engine.call(
        worker, "pandas_series_iter", two_columns_iter, batches, batches[0].schema, output
    )
    assert result.error is None, result.error
    assert result.table(output).column("b").to_pylist() == ["0", "1", "2", "3", "4", "5"]


def take_first(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    yield next(batches)


def test_unread_input_is_skipped(engine: Engine, worker: Any) -> None:
    batches = numbered_batches(50, 1000)
    schema = batches[0].schema
    result = engine.call(worker, "arrow", take_first, batches, schema, schema)
    assert result.error is None, result.error
    assert result.table(schema).num_rows == 1000
    assert result.metrics["batches_in"] == 1
    follow_up = engine.call(worker, "rows", plus_one_row, numbered_batches(1, 3), schema, schema)
    assert follow_up.table(schema).column(0).to_pylist() == [1, 2, 3]


# Result validation.


def shorten_batch_two(values: pd.Series) -> pd.Series:
    return values.iloc[:9] if values.iloc[0] == 20 else values


def words_for_doubles(frames: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    for frame in frames:
        yield pd.DataFrame({"x": frame["x"], "w": ["word"] * len(frame)})


def renamed_columns(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        yield batch.rename_columns(["y"])


def text_for_integers(value: int) -> str:
    return "text" if value == 4 else value


def list_instead_of_series(values: pd.Series) -> list:
    return values.tolist()


def one_result_too_few(batches: Iterator[pd.Series]) -> Iterator[pd.Series]:
    for index, values in enumerate(batches):
        if index < 2:
            yield values


@pytest.mark.parametrize(
    "kind,function,output,batch,message",
    [
        (
            "pandas_series",
            shorten_batch_two,
            pa.schema([("x", pa.int64())]),
            2,
            "function 'shorten_batch_two' returned 9 rows for input batch 2 of 10 rows",
        ),
        (
            "pandas",
            words_for_doubles,
            pa.schema([("x", pa.int64()), ("w", pa.float64())]),
            0,
            "function 'words_for_doubles' returned a wrong result in output batch 0: "
            "column 'w': expected double, got str values",
        ),
        (
            "arrow",
            renamed_columns,
            pa.schema([("x", pa.int64())]),
            0,
            "function 'renamed_columns' returned a wrong result in output batch 0: "
            "columns ['y'], expected ['x']",
        ),
        (
            "rows",
            text_for_integers,
            pa.schema([("x", pa.int64())]),
            0,
            "function 'text_for_integers' returned a wrong result for input batch 0: column 'x': "
            "expected int64, got str values (row 4: 'text')",
        ),
        (
            "pandas_series",
            list_instead_of_series,
            pa.schema([("x", pa.int64())]),
            0,
            "function 'list_instead_of_series' returned a wrong result for input batch 0: a list, "
            "expected a pandas.Series",
        ),
        (
            "pandas_series_iter",
            one_result_too_few,
            pa.schema([("x", pa.int64())]),
            2,
            "function 'one_result_too_few' returned 2 results for 3 input batches; it must return "
            "one per input batch",
        ),
    ],
)
def test_results_that_do_not_match_are_errors(
    engine: Engine,
    worker: Any,
    kind: str,
    function: Any,
    output: pa.Schema,
    batch: int,
    message: str,
) -> None:
    batches = numbered_batches(3, 10)
    result = engine.call(worker, kind, function, batches, batches[0].schema, output)
    assert result.metrics is None
    assert result.error["exception"] == "ResultMismatchError"
    assert result.error["message"] == message
    assert result.error["batch"] == batch
    assert "bowstring/worker" not in result.error["traceback"]
    # The worker goes on serving calls after the error.
    again = engine.call(worker, "rows", plus_one_row, batches, batches[0].schema, batches[0].schema)
    assert again.error is None and again.metrics["rows_out"] == 30


def test_non_nullable_output_column_rejects_nulls(engine: Engine, worker: Any) -> None:
    batch = pa.record_batch({"x": pa.array([1, None])})
    output = pa.schema([pa.field("x", pa.int64(), nullable=False)])
    result = engine.call(worker, "arrow", same_batches, [batch], batch.schema, output)
    assert result.error["message"] == (
        "function 'same_batches' returned a wrong result in output batch 0: column 'x' is not "
        "nullable but holds 1 nulls"
    )


def test_arrow_results_are_cast_safely_to_the_output_types(engine: Engine, worker: Any) -> None:
    batch = pa.record_batch({"x": pa.array([1, 2], pa.int32())})
    wider = pa.schema([("x", pa.int64())])
    result = engine.call(worker, "arrow", same_batches, [batch], batch.schema, wider)
    assert result.error is None and result.batches[0].schema == wider
    lossy = pa.record_batch({"x": pa.array([1, 300], pa.int64())})
    narrower = pa.schema([("x", pa.int8())])
    result = engine.call(worker, "arrow", same_batches, [lossy], lossy.schema, narrower)
    assert result.error["message"].endswith("column 'x': expected int8, got int64")


# User errors.


def reciprocal(value: int) -> int:
    return 1 // value


@pytest.mark.parametrize("input_transport", ["socket", "shm"])
def test_user_exception_is_reported_with_its_traceback(
    engine: Engine, worker: Any, input_transport: str
) -> None:
    batches = [pa.record_batch({"x": pa.array(values)}) for values in ([1, 2], [3, 0], [5, 6])]
    result = engine.call(
        worker,
        "rows",
        reciprocal,
        batches,
        batches[0].schema,
        batches[0].schema,
        input_transport=input_transport,
    )
    error = result.error
    assert error["exception"] == "ZeroDivisionError"
    assert error["message"] == "integer division or modulo by zero"
    assert error["batch"] == 1
    traceback = error["traceback"]
    assert traceback.startswith("Traceback (most recent call last):\n")
    assert "in reciprocal\n    return 1 // value" in traceback
    assert traceback.rstrip().endswith("ZeroDivisionError: integer division or modulo by zero")
    assert "bowstring" not in traceback
    assert len(result.batches) == 1


def failing_generator(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    for frame in batches:
        if frame["x"].iloc[0] >= 20:
            raise KeyError("missing")
        yield frame


def test_error_in_an_iterator_names_the_batch_being_processed(engine: Engine, worker: Any) -> None:
    batches = numbered_batches(5, 10)
    result = engine.call(
        worker, "pandas", failing_generator, batches, batches[0].schema, batches[0].schema
    )
    assert result.error["exception"] == "KeyError"
    assert result.error["message"] == "'missing'"
    assert result.error["batch"] == 2
    assert len(result.batches) == 2


def test_unknown_session_time_zone_is_an_error(engine: Engine, worker: Any) -> None:
    batches = numbered_batches(2, 2)
    result = engine.call(
        worker,
        "rows",
        plus_one_row,
        batches,
        batches[0].schema,
        batches[0].schema,
        config={"session_time_zone": "Mars/Olympus"},
    )
    assert result.error["exception"] == "ZoneInfoNotFoundError"
    assert result.error["batch"] is None


def unpicklable_function() -> Any:
    raise RuntimeError("cannot be loaded")


class LoadFailure:
    def __reduce__(self) -> Any:
        return (unpicklable_function, ())


def test_function_that_cannot_be_loaded_is_an_error(engine: Engine, worker: Any) -> None:
    batches = numbered_batches(2, 2)
    result = engine.call(
        worker, "rows", LoadFailure(), batches, batches[0].schema, batches[0].schema, name="broken"
    )
    assert result.error["exception"] == "RuntimeError"
    assert result.error["message"] == "cannot be loaded"


# Processes.


def allocate_too_much(value: int) -> int:
    blocks = [bytearray(64 << 20) for _ in range(64)]
    return len(blocks)


def test_memory_limit_raises_memory_error(engine: Engine) -> None:
    worker = engine.spawn(memory_limit=512 << 20)
    batches = numbered_batches(2, 2)
    result = engine.call(
        worker, "rows", allocate_too_much, batches, batches[0].schema, batches[0].schema
    )
    assert result.error["exception"] == "MemoryError"
    assert result.error["batch"] == 0
    again = engine.call(worker, "rows", plus_one_row, batches, batches[0].schema, batches[0].schema)
    assert again.error is None and again.table(batches[0].schema).column(0).to_pylist() == [
        1,
        2,
        3,
        4,
    ]


def exit_with_three(value: int) -> int:
    os._exit(3)


def crash(value: int) -> int:
    ctypes.memset(0, 0, 1)  # writes to the null address: SIGSEGV
    return value


@pytest.mark.parametrize(
    "function,exit_code,signal_number", [(exit_with_three, 3, None), (crash, None, signal.SIGSEGV)]
)
def test_worker_that_dies_is_reported_by_the_fork_server(
    engine: Engine, function: Any, exit_code: Any, signal_number: Any
) -> None:
    worker = engine.spawn()
    batches = numbered_batches(1, 1)
    schema = batches[0].schema
    with pytest.raises(WorkerGone):
        engine.call(worker, "rows", function, batches, schema, schema)
    report = engine.wait_exit(worker)
    assert report == {
        "worker_id": worker.worker_id,
        "pid": worker.pid,
        "exit_code": exit_code,
        "signal": signal_number,
    }
    if signal_number is not None:
        # The stack of the crash is in the output the engine shows with the failure.
        assert "Fatal Python error: Segmentation fault" in worker.output.text()
        assert "in crash" in worker.output.text()


def chatty(value: int) -> int:
    print(f"row {value}")
    print("to stderr", file=sys.stderr)
    return value


def test_print_output_arrives_on_the_pipe(engine: Engine, worker: Any) -> None:
    batches = numbered_batches(1, 2)
    schema = batches[0].schema
    result = engine.call(worker, "rows", chatty, batches, schema, schema)
    assert result.error is None
    assert wait_until(
        lambda: {"row 0", "row 1", "to stderr"} <= set(worker.output.lines)
    ), worker.output.lines


def sleep_long(value: int) -> int:
    time.sleep(60)
    return value


def test_fork_server_stops_its_workers_when_the_control_socket_closes(tmp_path: Any) -> None:
    subreaper = ctypes.CDLL(None).prctl
    PR_SET_CHILD_SUBREAPER = 36
    # Orphans of the fork server would be reparented to this process, which can then see them.
    assert subreaper(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    try:
        engine = Engine()
        try:
            idle = engine.spawn()
            busy = engine.spawn()
            batches = numbered_batches(1, 1)
            schema = batches[0].schema
            busy.connection.write(
                FrameType.COMMAND, command_payload("rows", sleep_long, schema, schema)
            )
            send_batch(busy.connection, batches[0], "socket")
            assert sorted(engine.fork_server_children()) == sorted([idle.pid, busy.pid])
            assert engine.shutdown() == 0
        except BaseException:
            engine.kill()
            raise
        for pid in (idle.pid, busy.pid):
            with pytest.raises(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
    finally:
        subreaper(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def test_worker_rejected_by_the_engine_exits_with_a_message(engine: Engine) -> None:
    worker = engine.spawn(welcome=False)
    report = engine.wait_exit(worker)
    assert report["exit_code"] == 1
    assert f"bowstring worker {worker.worker_id}: the engine closed the connection before " in (
        worker.output.text()
    )


def test_fork_server_refuses_frames_other_than_spawn() -> None:
    engine = Engine()
    try:
        engine.control.write(FrameType.BATCH, b"")
        assert engine.control.read() is None
        assert engine.fork_server.wait(TIMEOUT) == 1
        assert (
            "bowstring fork server: engine sent a BATCH frame to the fork server, which accepts "
            "only SPAWN" in engine.log()
        )
    finally:
        engine.kill()


def test_workers_die_with_the_fork_server() -> None:
    engine = Engine()
    try:
        worker = engine.spawn()
        engine.fork_server.kill()
        engine.fork_server.wait(TIMEOUT)
        # The worker's end of its output pipe closes when it dies.
        worker.output.join(TIMEOUT)
        assert not worker.output.is_alive()
        assert wait_until(lambda: not os.path.exists(f"/proc/{worker.pid}"))
    finally:
        engine.kill()


def test_worker_runs_without_the_compiled_extension() -> None:
    # A None entry in sys.modules makes every import of the extension fail.
    script = (
        "import sys\n"
        "sys.modules['bowstring._core'] = None\n"
        "import bowstring, bowstring.worker.__main__, bowstring.worker.fork_server\n"
        "try:\n"
        "    bowstring.Table\n"
        "except ImportError:\n"
        "    print('extension needed only for Table')\n"
    )
    environment = dict(os.environ, PYTHONPATH=str(PACKAGE_ROOT))
    result = subprocess.run(
        [sys.executable, "-c", script], env=environment, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "extension needed only for Table\n"
