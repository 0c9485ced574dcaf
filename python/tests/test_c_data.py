"""Data exchange with pyarrow through the Arrow PyCapsule interface: every type in both
directions, zero-copy, lifetimes, streams and errors."""

from __future__ import annotations

import ctypes
import gc
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

import bowstring
from arrow_samples import EVERY_TYPE, ROWS, addresses, random_array

# --- types pyarrow names only through the C data interface ----------------------------------


class _CSchema(ctypes.Structure):
    pass


_ReleaseSchema = ctypes.CFUNCTYPE(None, ctypes.POINTER(_CSchema))
_CSchema._fields_ = [
    ("format", ctypes.c_char_p),
    ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_char_p),
    ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.c_void_p),
    ("dictionary", ctypes.c_void_p),
    ("release", _ReleaseSchema),
    ("private_data", ctypes.c_void_p),
]


@_ReleaseSchema
def _release_static_schema(schema: Any) -> None:
    schema.contents.release = _ReleaseSchema()


def type_from_format(format_string: bytes) -> pa.DataType:
    """The pyarrow type of a C data interface format string, through a hand-made ArrowSchema."""
    schema = _CSchema(format=format_string, name=b"", release=_release_static_schema)
    return pa.DataType._import_from_c(ctypes.addressof(schema))


MONTH_INTERVAL = type_from_format(b"tiM")
DAY_TIME_INTERVAL = type_from_format(b"tiD")


def round_trip(array: pa.Array) -> tuple[bowstring.Array, pa.Array]:
    ours = bowstring.Array(array)
    back = pa.array(ours)
    # pyarrow's importer sizes the views buffer of an empty view array at 0 bytes, which its own
    # validation then rejects when the array has an offset (as pyarrow-to-pyarrow does too).
    empty_view = len(array) == 0 and (
        pa.types.is_string_view(array.type) or pa.types.is_binary_view(array.type)
    )
    if not empty_view:
        back.validate(full=True)
    return ours, back


@pytest.fixture
def rng(request: pytest.FixtureRequest) -> np.random.Generator:
    return np.random.default_rng(abs(hash(request.node.name)) % 2**32)


@pytest.mark.parametrize("type_", EVERY_TYPE, ids=str)
def test_every_type_round_trips_without_copying(
    type_: pa.DataType, rng: np.random.Generator
) -> None:
    original = random_array(type_, ROWS, rng)
    for array in (original, original.slice(7, 31), original.slice(ROWS)):
        ours, back = round_trip(array)
        assert back.type == array.type
        assert back.equals(array)
        assert back.offset == array.offset
        assert len(ours) == len(array)
        assert ours.null_count == array.null_count
        # The same bytes, all the way down: nothing was copied in either direction.
        before, after = addresses(array), addresses(back)
        assert len(before) == len(after)
        for index, (a, b) in enumerate(zip(before, after)):
            if a is not None and b is not None:
                assert a == b, f"buffer {index} moved"
        own = [a for a in ours.buffer_addresses() if a is not None]
        assert set(own) <= {a for a in before + after if a is not None}


def test_types_fields_and_schemas_round_trip() -> None:
    # pyarrow has no arrays of the two older interval types, only the types (their arrays are
    # covered by the C++ tests).
    for type_ in [*EVERY_TYPE, MONTH_INTERVAL, DAY_TIME_INTERVAL]:
        ours = bowstring.DataType(type_)
        assert pa.DataType._import_from_c_capsule(ours.__arrow_c_schema__()) == type_
    field = pa.field("price", pa.decimal128(10, 2), nullable=False, metadata={"unit": "EUR"})
    ours_field = bowstring.Field(field)
    assert (ours_field.name, ours_field.nullable) == ("price", False)
    assert ours_field.metadata == {b"unit": b"EUR"}
    assert str(ours_field.type) == "decimal128(10, 2)"
    assert pa.field(ours_field).equals(field, check_metadata=True)

    schema = pa.schema(
        [
            pa.field("id", pa.int64(), nullable=False),
            pa.field("tags", pa.list_(pa.string()), metadata={"doc": "labels"}),
            pa.field("key", pa.uuid()),
        ],
        metadata={"origin": "test"},
    )
    ours_schema = bowstring.Schema(schema)
    assert ours_schema.names == ["id", "tags", "key"]
    assert len(ours_schema) == 3
    assert ours_schema.metadata == {b"origin": b"test"}
    assert ours_schema.field("tags").metadata == {b"doc": b"labels"}
    assert ours_schema.field(-1).type.id == "extension"
    assert pa.schema(ours_schema).equals(schema, check_metadata=True)
    assert bowstring.Schema(ours_schema) == ours_schema
    assert bowstring.Schema(schema.__arrow_c_schema__()) == ours_schema


class RationalType(pa.ExtensionType):
    """A Python-defined extension type with serialized parameters."""

    def __init__(self, reduced: bool = True) -> None:
        self.reduced = reduced
        storage = pa.struct([("numerator", pa.int64()), ("denominator", pa.int64())])
        super().__init__(storage, "bowstring.test.rational")

    def __arrow_ext_serialize__(self) -> bytes:
        return b"reduced" if self.reduced else b"raw"

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type: pa.DataType, serialized: bytes) -> Any:
        return cls(serialized == b"reduced")


def test_python_extension_types_keep_their_parameters(rng: np.random.Generator) -> None:
    type_ = RationalType(reduced=False)
    pa.register_extension_type(type_)
    try:
        storage = random_array(type_.storage_type, ROWS, rng)
        array = pa.ExtensionArray.from_storage(type_, storage)
        ours, back = round_trip(array.slice(3))
        assert ours.type.id == "extension"
        assert "bowstring.test.rational" in str(ours.type)
        assert isinstance(back.type, RationalType) and not back.type.reduced
        assert back.equals(array.slice(3))
        field = bowstring.Field(pa.field("ratio", type_, metadata={"note": "kept"}))
        assert field.metadata == {b"note": b"kept"}
        assert pa.field(field).type == type_
    finally:
        pa.unregister_extension_type("bowstring.test.rational")


def table_of_three_batches() -> pa.Table:
    schema = pa.schema([("id", pa.int64()), ("name", pa.string())], metadata={"k": "v"})
    batches = [
        pa.record_batch([pa.array([1, 2]), pa.array(["a", None])], schema=schema),
        pa.record_batch([pa.array([3]), pa.array(["c"])], schema=schema),
        pa.record_batch([pa.array([4, 5, 6]), pa.array(["d", "e", "f"])], schema=schema),
    ]
    return pa.Table.from_batches(batches)


def test_tables_keep_their_chunks_and_metadata() -> None:
    table = table_of_three_batches()
    ours = bowstring.Table(table)
    assert (ours.num_rows, ours.num_columns, len(ours)) == (6, 2, 6)
    assert ours.column_names == ["id", "name"]
    assert ours.column(0).num_chunks == 3
    assert ours.column("name").null_count == 1
    back = pa.table(ours)
    assert back.equals(table, check_metadata=True)
    assert back.column(1).num_chunks == 3
    assert addresses(back.column(1).chunk(2)) == addresses(table.column(1).chunk(2))
    assert [len(b) for b in ours.to_batches()] == [2, 1, 3]
    assert [len(b) for b in ours.to_batches(max_chunksize=1)] == [1] * 6
    assert pa.table(ours.slice(1, 3)).equals(table.slice(1, 3))
    assert ours.equals(bowstring.Table(table))
    assert "name: string" in repr(ours)


def test_record_batches_round_trip_with_offsets() -> None:
    batch = table_of_three_batches().combine_chunks().to_batches()[0]
    for original in (batch, batch.slice(2, 3)):
        ours = bowstring.RecordBatch(original)
        assert (ours.num_rows, ours.num_columns) == (original.num_rows, 2)
        back = pa.record_batch(ours)
        assert back.equals(original, check_metadata=True)
        assert back.column(0).offset == original.column(0).offset
        assert pa.array(ours.column("id")).equals(original.column(0))
        assert pa.table(ours).equals(pa.Table.from_batches([original]))
    # A stream of several batches becomes one batch.
    combined = bowstring.RecordBatch(table_of_three_batches())
    assert combined.num_rows == 6
    empty = bowstring.RecordBatch(table_of_three_batches().slice(0, 0))
    assert empty.num_rows == 0 and empty.column_names == ["id", "name"]


def test_chunked_arrays_and_arrays_from_streams() -> None:
    chunked = pa.chunked_array([["a", None], [], ["b", "c"]])
    ours = bowstring.ChunkedArray(chunked)
    assert (ours.num_chunks, len(ours), ours.null_count) == (3, 4, 1)
    assert pa.chunked_array(ours).equals(chunked)
    # An Array from a stream of several chunks concatenates them.
    assert pa.array(bowstring.Array(chunked)).equals(chunked.combine_chunks())
    assert len(bowstring.Array(pa.chunked_array([], pa.int32()))) == 0
    single = pa.chunked_array([[1, 2, 3]])
    assert bowstring.Array(single).buffer_addresses()[1] == single.chunk(0).buffers()[1].address


def test_readers_stream_batches_both_ways() -> None:
    table = table_of_three_batches()
    source = pa.RecordBatchReader.from_batches(table.schema, table.to_batches())
    reader = bowstring.RecordBatchReader(source)
    assert reader.schema == bowstring.Schema(table.schema)
    batches = list(reader)
    assert [b.num_rows for b in batches] == [2, 1, 3]
    with pytest.raises(StopIteration):
        reader.read_next_batch()

    ours = bowstring.Table(table).to_reader(max_chunksize=2)
    back = pa.RecordBatchReader.from_stream(ours)
    assert ours.closed
    with pytest.raises(ValueError, match="can no longer be read"):
        ours.read_all()
    assert back.read_all().equals(table)


def test_threads_may_share_a_reader() -> None:
    table = pa.table({"x": pa.array(range(5_000))})
    reader = bowstring.RecordBatchReader(table.to_reader(max_chunksize=10))
    counts: list[int] = []

    def drain() -> None:
        counts.extend(batch.num_rows for batch in reader)

    threads = [threading.Thread(target=drain) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(counts) == 5_000


_GIL_HOLDING_CONSUMER = """
import ctypes, threading, time
import pyarrow as pa
import bowstring

table = pa.table({"x": [1, 2, 3]})
started = threading.Event()

def slow_batches():
    started.set()
    time.sleep(0.3)  # the source resumes only once it has the GIL again
    yield from table.to_batches()
    yield from table.to_batches()

source = pa.RecordBatchReader.from_batches(table.schema, slow_batches())
reader = bowstring.RecordBatchReader(source)
first = []
reading = threading.Thread(target=lambda: first.append(reader.read_next_batch()))
reading.start()
started.wait()
capsule = reader.__arrow_c_stream__()
get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
stream = get_pointer(capsule, b"arrow_array_stream")
slots = (ctypes.c_void_p * 5).from_address(stream)
# A consumer that calls get_next holding the GIL (PYFUNCTYPE keeps it), while the other thread
# reads the same reader and its source waits for the GIL.
get_next = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(slots[1])
array = (ctypes.c_void_p * 10)()
assert get_next(stream, ctypes.addressof(array)) == 0
ctypes.CFUNCTYPE(None, ctypes.c_void_p)(array[8])(ctypes.addressof(array))
reading.join()
print(first[0].num_rows)
"""


def test_a_consumer_holding_the_gil_does_not_deadlock_with_a_reading_thread() -> None:
    root = Path(bowstring.__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    result = subprocess.run(
        [sys.executable, "-c", _GIL_HOLDING_CONSUMER],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["3"]


def test_stream_producer_errors_carry_the_producers_message() -> None:
    table = table_of_three_batches()

    def failing_batches() -> Iterator[pa.RecordBatch]:
        yield table.to_batches()[0]
        raise RuntimeError("the generator broke down")

    source = pa.RecordBatchReader.from_batches(table.schema, failing_batches())
    with pytest.raises((ValueError, OSError), match="the generator broke down"):
        bowstring.Table(source)

    source = pa.RecordBatchReader.from_batches(table.schema, failing_batches())
    reader = bowstring.RecordBatchReader(source)
    assert reader.read_next_batch().num_rows == 2
    with pytest.raises((ValueError, OSError), match="get_next"):
        reader.read_next_batch()


def test_requested_schema_is_honoured_only_as_it_is() -> None:
    ours = bowstring.Array(pa.array([1, 2, 3]))
    assert pa.array(ours, type=pa.int64()).equals(pa.array([1, 2, 3]))
    with pytest.raises(NotImplementedError, match="does not convert"):
        pa.array(ours, type=pa.int32())
    table = bowstring.Table(table_of_three_batches())
    assert pa.table(table, schema=table_of_three_batches().schema).num_rows == 6
    with pytest.raises(NotImplementedError, match="requested schema"):
        table.__arrow_c_stream__(pa.schema([("id", pa.int32())]).__arrow_c_schema__())
    with pytest.raises(TypeError, match="requested_schema must be a PyCapsule"):
        table.__arrow_c_stream__(42)


# --- lifetimes ------------------------------------------------------------------------------


def test_imported_data_outlives_the_pyarrow_objects() -> None:
    gc.collect()
    baseline = pa.total_allocated_bytes()
    values = list(range(10_000))
    original = pa.array(values)
    address = original.buffers()[1].address
    ours = bowstring.Array(original)
    del original
    gc.collect()
    # The data stays where it was, owned by the import now.
    assert pa.total_allocated_bytes() > baseline
    assert ours.buffer_addresses()[1] == address
    assert pa.array(ours).to_pylist() == values
    del ours
    gc.collect()
    assert pa.total_allocated_bytes() == baseline


def test_exported_data_outlives_the_bowstring_objects() -> None:
    gc.collect()
    baseline = bowstring.allocator_stats()["bytes_in_use"]
    # Concatenating chunks makes an array in bowstring's own memory.
    ours = bowstring.Array(pa.chunked_array([list(range(5000)), list(range(5000))]))
    assert bowstring.allocator_stats()["bytes_in_use"] > baseline
    exported = pa.array(ours)
    assert exported.buffers()[1].address == ours.buffer_addresses()[1]
    del ours
    gc.collect()
    assert exported.to_pylist() == list(range(5000)) * 2
    assert bowstring.allocator_stats()["bytes_in_use"] > baseline
    del exported
    gc.collect()
    assert bowstring.allocator_stats()["bytes_in_use"] == baseline


def test_unconsumed_capsules_release_their_data() -> None:
    gc.collect()
    baseline = bowstring.allocator_stats()["bytes_in_use"]
    ours = bowstring.Array(pa.chunked_array([[1, 2], [3]]))
    capsules = ours.__arrow_c_array__()
    stream = bowstring.Table(table_of_three_batches()).combine_chunks().__arrow_c_stream__()
    del ours
    gc.collect()
    assert bowstring.allocator_stats()["bytes_in_use"] > baseline
    del capsules, stream
    gc.collect()
    assert bowstring.allocator_stats()["bytes_in_use"] == baseline


def test_everything_is_released_after_a_round_trip_of_every_type(rng: np.random.Generator) -> None:
    gc.collect()
    pyarrow_baseline = pa.total_allocated_bytes()
    ours_baseline = bowstring.allocator_stats()["bytes_in_use"]
    for type_ in EVERY_TYPE:
        array = random_array(type_, ROWS, rng)
        assert pa.array(bowstring.Array(array)).equals(array)
        del array
    gc.collect()
    assert pa.total_allocated_bytes() == pyarrow_baseline
    assert bowstring.allocator_stats()["bytes_in_use"] == ours_baseline


# --- errors ---------------------------------------------------------------------------------


class Exposes:
    """An object exposing whatever capsule methods it is given."""

    def __init__(self, **methods: Any) -> None:
        for name, method in methods.items():
            setattr(self, name, method)


def test_objects_without_the_protocol_are_type_errors() -> None:
    with pytest.raises(TypeError, match=r"Array\(\) takes an object exposing __arrow_c_array__"):
        bowstring.Array(42)
    with pytest.raises(TypeError, match="__arrow_c_stream__"):
        bowstring.Table("not a table")
    with pytest.raises(TypeError, match="__arrow_c_stream__"):
        bowstring.RecordBatchReader(pa.array([1]))
    with pytest.raises(TypeError, match="__arrow_c_schema__"):
        bowstring.Schema(object())


def test_bad_capsules_are_rejected() -> None:
    array = pa.array([1, 2])
    with pytest.raises(TypeError, match="must return a tuple of two PyCapsules"):
        bowstring.Array(Exposes(__arrow_c_array__=lambda requested_schema=None: 42))
    schema_capsule, array_capsule = array.__arrow_c_array__()
    swapped = Exposes(
        __arrow_c_array__=lambda requested_schema=None: (array_capsule, schema_capsule)
    )
    with pytest.raises(ValueError, match="named 'arrow_schema', got one named 'arrow_array'"):
        bowstring.Array(swapped)
    with pytest.raises(TypeError, match="must be a PyCapsule named 'arrow_array_stream'"):
        bowstring.Table(Exposes(__arrow_c_stream__=lambda requested_schema=None: "nope"))


def test_a_capsule_is_consumed_once() -> None:
    capsules = pa.array([1, 2]).__arrow_c_array__()
    reuse = Exposes(__arrow_c_array__=lambda requested_schema=None: capsules)
    assert len(bowstring.Array(reuse)) == 2
    with pytest.raises(ValueError, match="released"):
        bowstring.Array(reuse)


def test_a_schema_must_be_a_struct() -> None:
    with pytest.raises(ValueError, match="not a schema"):
        bowstring.Schema(pa.int32())
    with pytest.raises(ValueError, match="null rows"):
        bowstring.RecordBatch(pa.array([{"a": 1}, None]))


def test_indices_and_slices() -> None:
    ours = bowstring.RecordBatch(table_of_three_batches().combine_chunks().to_batches()[0])
    with pytest.raises(IndexError):
        ours.column(2)
    with pytest.raises(ValueError, match="no field named 'missing'"):
        ours.column("missing")
    assert pa.array(ours.column(-1)).equals(pa.array(["a", None, "c", "d", "e", "f"]))
    array = bowstring.Array(pa.array(range(10)))
    assert pa.array(array.slice(-3)).to_pylist() == [7, 8, 9]
    assert pa.array(array.slice(2, 100)).to_pylist() == list(range(2, 10))
    with pytest.raises(ValueError, match="must not be negative"):
        array.slice(0, -1)
