"""bowstring.ipc against pyarrow: every type written by one and read by the other, in both IPC
formats and every compression; zero-copy reads; sources, sinks and malformed input."""

from __future__ import annotations

import functools
import gc
import io
import os
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pyarrow as pa
import pytest

import bowstring
from arrow_samples import EVERY_TYPE, ROWS, random_array
from bowstring import ipc

COMPRESSIONS = [None, "lz4", "zstd"]
FORMATS = ["stream", "file"]

READERS: dict[str, Callable[..., bowstring.Table]] = {
    "stream": ipc.read_stream,
    "file": ipc.read_file,
}
WRITERS: dict[str, Callable[..., None]] = {"stream": ipc.write_stream, "file": ipc.write_file}


@pytest.fixture
def rng(request: pytest.FixtureRequest) -> np.random.Generator:
    # Seeded by the test's name, the same in every run.
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))


@pytest.fixture
def no_leaks() -> Iterator[None]:
    """Fails the test when Bowstring's allocator holds more at its end than at its start."""
    gc.collect()
    baseline = bowstring.allocator_stats()["bytes_in_use"]
    yield
    gc.collect()
    assert bowstring.allocator_stats()["bytes_in_use"] == baseline


# --- pyarrow's side -------------------------------------------------------------------------


def pyarrow_bytes(
    table: pa.Table, format_: str, compression: str | None = None, **options: Any
) -> bytes:
    sink = pa.BufferOutputStream()
    write_options = pa.ipc.IpcWriteOptions(compression=compression, **options)
    opener = pa.ipc.new_stream if format_ == "stream" else pa.ipc.new_file
    with opener(sink, table.schema, options=write_options) as writer:
        for batch in table.to_batches():
            writer.write_batch(batch)
    return sink.getvalue().to_pybytes()


def pyarrow_reader(data: Any, format_: str) -> Any:
    return pa.ipc.open_stream(data) if format_ == "stream" else pa.ipc.open_file(data)


def pyarrow_read(data: Any, format_: str) -> pa.Table:
    return pyarrow_reader(data, format_).read_all()


def bowstring_bytes(data: Any, format_: str, compression: str | None = None) -> bytes:
    sink = io.BytesIO()
    WRITERS[format_](data, sink, compression=compression)
    return sink.getvalue()


def assert_same_table(actual: Any, expected: pa.Table) -> None:
    """`actual` (anything exposing __arrow_c_stream__) holds `expected`'s values, schema and
    metadata, and its arrays pass pyarrow's full validation."""
    table = pa.table(actual)
    table.validate(full=True)
    assert table.schema.equals(expected.schema, check_metadata=True), (
        f"{table.schema}\n!=\n{expected.schema}"
    )
    assert table.equals(expected, check_metadata=True), f"{table}\n!=\n{expected}"


# --- data -----------------------------------------------------------------------------------


def sample_table(type_: pa.DataType, rng: np.random.Generator, *, one_dictionary: bool) -> pa.Table:
    """Batches of `type_` values with metadata on the schema and the field: full, sliced and
    empty batches. `one_dictionary`: every batch is a slice of one array, so dictionaries do
    not change between batches (an IPC file cannot replace them); otherwise batches are drawn
    independently and a stream has to replace them."""
    schema = pa.schema(
        [
            pa.field("value", type_, metadata={"doc": "random values", "type": str(type_)}),
            pa.field("row", pa.int32(), nullable=False),
        ],
        metadata={"origin": "test_ipc", "empty": ""},
    )
    whole = random_array(type_, 2 * ROWS, rng)
    if one_dictionary:
        values = [whole.slice(0, ROWS), whole.slice(ROWS + 7, 31), whole.slice(0, 0), whole]
    else:
        other = random_array(type_, ROWS, rng)
        values = [whole, other.slice(7, 31), whole.slice(0, 0), other]
    batches = [
        pa.record_batch([array, pa.array(np.arange(len(array), dtype=np.int32))], schema=schema)
        for array in values
    ]
    return pa.Table.from_batches(batches, schema=schema)


def every_format_and_compression(
    type_: pa.DataType, rng: np.random.Generator
) -> Iterator[tuple[str, str | None, pa.Table]]:
    """(format, compression, sample table) for every format and compression: one table per
    format, whose dictionaries a file may hold (see `sample_table`)."""
    for format_ in FORMATS:
        table = sample_table(type_, rng, one_dictionary=format_ == "file")
        for compression in COMPRESSIONS:
            yield format_, compression, table


@functools.lru_cache(maxsize=None)
def wide_table(rows: int = 5_000) -> pa.Table:
    """A table of common types, big enough for its buffers to be told apart (immutable, so
    made once per size)."""
    rng = np.random.default_rng(7)
    strings = [f"value {i} " * int(rng.integers(0, 5)) for i in range(rows)]
    cities = ["Paris", "Lyon", None, "Nantes"]
    return pa.table(
        {
            "id": pa.array(np.arange(rows)),
            "ratio": pa.array(rng.standard_normal(rows)),
            "name": pa.array(strings),
            "flag": pa.array(rng.random(rows) < 0.5),
            "tags": pa.array([[i, i + 1][: i % 3] for i in range(rows)], pa.list_(pa.int32())),
            "city": pa.array([cities[i % 4] for i in range(rows)]).dictionary_encode(),
            "point": pa.array([{"x": i, "y": str(i)} for i in range(rows)]),
        },
        metadata={"kind": "wide"},
    )


def all_buffers(array: pa.Array) -> list[pa.Buffer]:
    """Every non-empty buffer of an array, its children and its dictionary."""
    found = [b for b in array.buffers() if b is not None and b.size > 0]
    if pa.types.is_dictionary(array.type):
        found += all_buffers(array.dictionary)
    return found


def table_buffers(table: pa.Table) -> list[pa.Buffer]:
    return [b for column in table.columns for chunk in column.chunks for b in all_buffers(chunk)]


def address_of(data: bytes) -> int:
    return np.frombuffer(data, dtype=np.uint8).ctypes.data


def assert_buffers_inside(table: pa.Table, start: int, size: int) -> None:
    buffers = table_buffers(table)
    assert buffers
    for buffer in buffers:
        assert start <= buffer.address and buffer.address + buffer.size <= start + size, (
            f"buffer at {buffer.address:#x} (+{buffer.size}) is outside [{start:#x}, +{size})"
        )


# --- pyarrow writes, Bowstring reads --------------------------------------------------------


@pytest.mark.parametrize("type_", EVERY_TYPE, ids=str)
def test_bowstring_reads_every_type_pyarrow_writes(
    type_: pa.DataType, rng: np.random.Generator
) -> None:
    for format_, compression, table in every_format_and_compression(type_, rng):
        data = pyarrow_bytes(table, format_, compression)
        result = READERS[format_](data)
        assert result.num_rows == table.num_rows
        assert_same_table(result, pyarrow_read(data, format_))
        assert_same_table(result, table)


@pytest.mark.parametrize("type_", EVERY_TYPE, ids=str)
def test_bowstring_reads_older_metadata_and_framing(
    type_: pa.DataType, rng: np.random.Generator
) -> None:
    # Metadata version V4 (unions, and run-end encoded arrays as Arrow writes them there, have a
    # validity buffer) and the 4-byte message framing of Arrow before 0.15.
    table = sample_table(type_, rng, one_dictionary=True)
    older = [
        {"metadata_version": pa.ipc.MetadataVersion.V4},
        {"metadata_version": pa.ipc.MetadataVersion.V4, "use_legacy_format": True},
    ]
    for options in older:
        for format_ in FORMATS:
            data = pyarrow_bytes(table, format_, **options)
            assert_same_table(READERS[format_](data), table)


@pytest.mark.parametrize("type_", EVERY_TYPE, ids=str)
def test_pyarrow_reads_every_type_bowstring_writes(
    type_: pa.DataType, rng: np.random.Generator
) -> None:
    for format_, compression, table in every_format_and_compression(type_, rng):
        data = bowstring_bytes(table, format_, compression)
        reader = pyarrow_reader(data, format_)
        back = reader.read_all()
        back.validate(full=True)
        assert back.schema.equals(table.schema, check_metadata=True)
        assert back.equals(table, check_metadata=True)
        # Zero-length batches are written, not skipped.
        assert [len(b) for b in back.to_batches()] == [len(b) for b in table.to_batches()]
        # Bowstring reads its own output back.
        assert_same_table(READERS[format_](data), table)


def test_nothing_stays_allocated_after_every_type_both_ways(
    rng: np.random.Generator, no_leaks: None
) -> None:
    for type_ in EVERY_TYPE:
        table = sample_table(type_, rng, one_dictionary=True)
        for format_ in FORMATS:
            for compression in COMPRESSIONS:
                ours = bowstring_bytes(table, format_, compression)
                theirs = pyarrow_bytes(table, format_, compression)
                assert pa.table(READERS[format_](theirs)).num_rows == table.num_rows
                assert pyarrow_read(ours, format_).num_rows == table.num_rows


@pytest.mark.parametrize("format_", FORMATS)
def test_empty_streams_and_files_hold_the_schema(format_: str) -> None:
    schema = pa.schema(
        [
            pa.field("a", pa.dictionary(pa.int8(), pa.string()), metadata={"k": "v"}),
            pa.field("b", pa.int8()),
        ],
        metadata={"m": "n"},
    )
    empty = schema.empty_table()
    for compression in COMPRESSIONS:
        result = READERS[format_](pyarrow_bytes(empty, format_, compression))
        assert (result.num_rows, result.column_names) == (0, ["a", "b"])
        assert pa.schema(result.schema).equals(schema, check_metadata=True)
        back = pyarrow_reader(bowstring_bytes(empty, format_, compression), format_)
        assert back.schema.equals(schema, check_metadata=True)
        assert back.read_all().num_rows == 0
    # A reader with no batch at all.
    no_batches = pa.RecordBatchReader.from_batches(schema, [])
    assert pyarrow_read(bowstring_bytes(no_batches, format_), format_).num_rows == 0


def edge_tables() -> dict[str, pa.Table]:
    inner = pa.struct([pa.field("a", pa.int32(), metadata={"inner": "1"})])
    items = pa.list_(pa.field("item", pa.string(), metadata={"item": "x"}))
    three_rows = pa.record_batch({"x": [1, 2, 3]})
    return {
        "metadata on nested fields": pa.table(
            {"s": pa.array([{"a": 1}, None], inner), "l": pa.array([["x"], []], items)}
        ),
        "duplicate names": pa.table([pa.array([1]), pa.array(["a"])], names=["dup", "dup"]),
        "empty and non-ASCII names": pa.table(
            [pa.array([1]), pa.array([2.5])], names=["", "ñ日本😀"]
        ),
        "no columns": pa.schema([]).empty_table(),
        "no columns but rows": pa.Table.from_batches([three_rows.select([])]),
        "large metadata": pa.table({"x": [1]}).replace_schema_metadata({"k" * 1000: "v" * 100_000}),
    }


@pytest.mark.parametrize("name", list(edge_tables()))
@pytest.mark.parametrize("format_", FORMATS)
def test_edge_schemas_both_ways(format_: str, name: str) -> None:
    table = edge_tables()[name]
    result = pa.table(READERS[format_](pyarrow_bytes(table, format_)))
    assert result.num_rows == table.num_rows
    assert_same_table(result, table)
    back = pyarrow_read(bowstring_bytes(table, format_), format_)
    assert back.num_rows == table.num_rows
    assert back.schema.equals(table.schema, check_metadata=True)
    assert back.equals(table)


def growing_dictionary_table(nested: bool = False) -> pa.Table:
    """Batches whose dictionaries each extend the previous one."""
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    batches = []
    for size in (2, 2, 4, 6):
        dictionary = pa.array(words[:size])
        indices = pa.array([i % size for i in range(5)] + [None], pa.int16())
        array = pa.DictionaryArray.from_arrays(indices, dictionary)
        if nested:
            array = pa.StructArray.from_arrays([array], names=["word"])
        batches.append(pa.record_batch({"word": array}))
    return pa.Table.from_batches(batches)


def changing_dictionary_table() -> pa.Table:
    """Batches whose dictionaries replace each other (none extends the previous one)."""
    batches = []
    for words in (["a", "b"], ["c", "a"], ["a", "b"], ["x"]):
        indices = pa.array([0, len(words) - 1, None], pa.int8())
        array = pa.DictionaryArray.from_arrays(indices, pa.array(words))
        batches.append(pa.record_batch({"letter": array}))
    return pa.Table.from_batches(batches)


@pytest.mark.parametrize("nested", [False, True], ids=["top-level", "in-a-struct"])
@pytest.mark.parametrize("format_", FORMATS)
def test_dictionary_deltas_both_ways(format_: str, nested: bool, no_leaks: None) -> None:
    table = growing_dictionary_table(nested)
    for compression in COMPRESSIONS:
        data = pyarrow_bytes(table, format_, compression, emit_dictionary_deltas=True)
        result = READERS[format_](data)
        assert_same_table(result, pyarrow_read(data, format_))
        # A stream's batches see the dictionary as it was when they came; a file's dictionaries
        # are all read first, so every batch sees the last one: the values are the same.
        if format_ == "stream":
            assert_same_table(result, table)
        assert pa.table(result).to_pylist() == table.to_pylist()

        reader = pyarrow_reader(bowstring_bytes(table, format_, compression), format_)
        back = reader.read_all()
        assert back.to_pylist() == table.to_pylist()
        if format_ == "stream":
            assert back.equals(table)
        # Two deltas: the dictionary grows twice (the second batch reuses the first one's).
        assert reader.stats.num_dictionary_deltas == 2
        assert reader.stats.num_replaced_dictionaries == 0


def test_dictionary_replacements_in_streams() -> None:
    table = changing_dictionary_table()
    for compression in COMPRESSIONS:
        data = pyarrow_bytes(table, "stream", compression)
        assert_same_table(ipc.read_stream(data), table)

        reader = pa.ipc.open_stream(bowstring_bytes(table, "stream", compression))
        assert reader.read_all().equals(table)
        assert reader.stats.num_replaced_dictionaries == 3
    with pytest.raises(ValueError, match="field 'letter'.*cannot replace a dictionary"):
        ipc.write_file(table, io.BytesIO())


# --- sources --------------------------------------------------------------------------------


def sources_of(data: bytes, tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "data.arrow"
    path.write_bytes(data)
    return {
        "str path": str(path),
        "pathlib path": path,
        "bytes": data,
        "bytearray": bytearray(data),
        "memoryview": memoryview(data),
        "numpy array": np.frombuffer(data, dtype=np.uint8),
        "pyarrow buffer": pa.py_buffer(data),
        "BytesIO": io.BytesIO(data),
    }


@pytest.mark.parametrize("format_", FORMATS)
def test_every_kind_of_source(format_: str, tmp_path: Path, no_leaks: None) -> None:
    table = wide_table(200)
    data = pyarrow_bytes(table, format_)
    for name, source in sources_of(data, tmp_path).items():
        assert pa.table(READERS[format_](source)).equals(table), name
    with open(tmp_path / "data.arrow", "rb") as file:
        assert pa.table(READERS[format_](file)).equals(table)
    with open(tmp_path / "data.arrow", "rb", buffering=0) as raw:
        assert pa.table(READERS[format_](raw)).equals(table)


def test_a_stream_is_read_up_to_its_end_marker() -> None:
    first, second = wide_table(10), wide_table(20)
    both = io.BytesIO(pyarrow_bytes(first, "stream") + pyarrow_bytes(second, "stream"))
    assert pa.table(ipc.read_stream(both)).equals(first)
    assert pa.table(ipc.read_stream(both)).equals(second)
    assert both.read() == b""


def test_streams_from_pipes(tmp_path: Path) -> None:
    data = pyarrow_bytes(wide_table(3_000), "stream")
    read_end, write_end = os.pipe()

    def feed() -> None:
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(data)

    feeder = threading.Thread(target=feed)
    feeder.start()
    with os.fdopen(read_end, "rb", buffering=0) as pipe:
        result = ipc.read_stream(pipe)
    feeder.join()
    assert pa.table(result).equals(wide_table(3_000))

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(data))
    writer.start()
    result = ipc.read_stream(fifo)
    writer.join()
    assert pa.table(result).equals(wide_table(3_000))


class ChunkyReader:
    """A file object whose read() returns at most 7 bytes at a time, as a socket may."""

    def __init__(self, data: bytes) -> None:
        self.stream = io.BytesIO(data)

    def read(self, size: int = -1) -> bytes:
        return self.stream.read(min(size, 7) if size >= 0 else 7)


def test_short_reads_are_retried() -> None:
    table = wide_table(100)
    assert pa.table(ipc.read_stream(ChunkyReader(pyarrow_bytes(table, "stream")))).equals(table)


# --- sinks and data -------------------------------------------------------------------------


class ListSink:
    """A file-like object that keeps what it is given and returns None from write()."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.chunks.append(bytes(data))


class TrickleSink(io.RawIOBase):
    """A raw file that accepts at most 1000 bytes per write(), as a pipe may."""

    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        taken = bytes(data)[:1000]
        self.data += taken
        return len(taken)


@pytest.mark.parametrize("format_", FORMATS)
def test_every_kind_of_sink(format_: str, tmp_path: Path, no_leaks: None) -> None:
    table = wide_table()
    write = WRITERS[format_]
    for compression in COMPRESSIONS:
        path = tmp_path / f"out-{compression}.arrow"
        write(table, path, compression=compression)
        assert pyarrow_read(pa.memory_map(str(path)), format_).equals(table)
        write(table, str(path), compression=compression)
        assert pyarrow_read(path.read_bytes(), format_).equals(table)

        with open(path, "wb") as file:
            write(table, file, compression=compression)
            assert not file.closed
        assert pyarrow_read(path.read_bytes(), format_).equals(table)

        list_sink, trickle = ListSink(), TrickleSink()
        write(table, list_sink, compression=compression)
        write(table, trickle, compression=compression)
        assert pyarrow_read(b"".join(list_sink.chunks), format_).equals(table)
        assert pyarrow_read(bytes(trickle.data), format_).equals(table)


def test_every_kind_of_data() -> None:
    table = wide_table(300)
    batch = table.combine_chunks().to_batches()[0]
    sources = {
        "pyarrow Table": table,
        "pyarrow RecordBatch": batch,
        "pyarrow RecordBatchReader": table.to_reader(max_chunksize=64),
        "pyarrow StructArray": batch.to_struct_array(),
        "bowstring Table": bowstring.Table(table),
        "bowstring RecordBatch": bowstring.RecordBatch(batch),
        "bowstring RecordBatchReader": bowstring.Table(table).to_reader(max_chunksize=100),
        "stream capsule": table.__arrow_c_stream__(),
    }
    for name, data in sources.items():
        back = pa.ipc.open_stream(bowstring_bytes(data, "stream")).read_all()
        assert back.equals(table.replace_schema_metadata(back.schema.metadata)), name


def test_streams_are_written_as_they_are_produced() -> None:
    big = pa.record_batch({"x": np.arange(100_000)})
    sink = io.BytesIO()
    seen_before_each_batch: list[int] = []

    def batches() -> Iterator[pa.RecordBatch]:
        for _ in range(3):
            seen_before_each_batch.append(len(sink.getvalue()))
            yield big

    ipc.write_stream(pa.RecordBatchReader.from_batches(big.schema, batches()), sink)
    # Each batch (800 KB) reached the sink before the next one was asked for.
    assert seen_before_each_batch[1] > 800_000
    assert seen_before_each_batch[2] > 1_600_000
    assert pa.ipc.open_stream(sink.getvalue()).read_all().num_rows == 300_000


def test_producer_and_sink_errors_reach_the_caller(tmp_path: Path) -> None:
    table = wide_table(10)

    def failing() -> Iterator[pa.RecordBatch]:
        yield table.to_batches()[0]
        raise RuntimeError("the producer broke down")

    with pytest.raises((ValueError, OSError), match="the producer broke down"):
        ipc.write_stream(pa.RecordBatchReader.from_batches(table.schema, failing()), io.BytesIO())

    class BrokenSink:
        def write(self, data: bytes) -> int:
            raise ConnectionResetError("the peer went away")

    with pytest.raises(ConnectionResetError, match="the peer went away"):
        ipc.write_file(table, BrokenSink())

    class BrokenSource:
        def __init__(self) -> None:
            self.stream = io.BytesIO(pyarrow_bytes(table, "stream"))

        def read(self, size: int) -> bytes:
            if self.stream.tell() > 100:
                raise ConnectionResetError("the peer went away")
            return self.stream.read(size)

    with pytest.raises(ConnectionResetError, match="the peer went away"):
        ipc.read_stream(BrokenSource())

    with open(tmp_path / "text.arrow", "w") as text_file, pytest.raises(TypeError):
        ipc.write_stream(table, text_file)
    with open(tmp_path / "text.arrow") as text_file, pytest.raises(TypeError, match="binary"):
        ipc.read_stream(text_file)


# --- zero-copy ------------------------------------------------------------------------------


@pytest.mark.parametrize("format_", FORMATS)
def test_reads_from_bytes_point_into_them(format_: str) -> None:
    table = wide_table()
    data = pyarrow_bytes(table, format_)
    result = pa.table(READERS[format_](data))
    assert result.equals(table)
    assert_buffers_inside(result, address_of(data), len(data))


def mapped_ranges(path: Path) -> list[tuple[int, int]]:
    """The address ranges at which this process maps `path`."""
    ranges = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split(maxsplit=5)
            if len(fields) == 6 and fields[5].strip() == str(path):
                start, end = (int(x, 16) for x in fields[0].split("-"))
                ranges.append((start, end))
    return ranges


@pytest.mark.parametrize("format_", FORMATS)
def test_reads_from_paths_point_into_the_mapping(format_: str, tmp_path: Path) -> None:
    table = wide_table(20_000)
    path = tmp_path / "mapped.arrow"
    path.write_bytes(pyarrow_bytes(table, format_))
    gc.collect()
    before = bowstring.allocator_stats()["bytes_in_use"]
    result = READERS[format_](path)
    # Nothing near the data's size was allocated: the columns live in the mapping.
    assert bowstring.allocator_stats()["bytes_in_use"] - before < path.stat().st_size // 10
    [(start, end)] = mapped_ranges(path)
    exported = pa.table(result)
    assert_buffers_inside(exported, start, end - start)
    assert exported.equals(table)
    # The mapping lives as long as any of its buffers does.
    del result
    gc.collect()
    assert mapped_ranges(path) == [(start, end)]
    column = exported.column("name")
    del exported
    gc.collect()
    assert mapped_ranges(path) == [(start, end)]
    assert column.equals(table.column("name"))
    del column
    gc.collect()
    assert mapped_ranges(path) == []


def test_the_source_object_lives_as_long_as_the_table() -> None:
    data = pyarrow_bytes(wide_table(100), "stream")
    references = sys.getrefcount(data)
    result = ipc.read_stream(data)
    assert sys.getrefcount(data) > references
    exported = pa.table(result)
    del result
    gc.collect()
    assert sys.getrefcount(data) > references
    del exported
    gc.collect()
    assert sys.getrefcount(data) == references

    # A bytearray cannot be resized under a table that views it.
    mutable = bytearray(data)
    result = ipc.read_stream(mutable)
    with pytest.raises(BufferError):
        mutable.extend(b"more")
    del result
    gc.collect()
    mutable.extend(b"more")


def test_tables_alive_at_interpreter_exit_are_fine(tmp_path: Path) -> None:
    # Buffers over Python objects and mappings still alive when the interpreter tears itself
    # down: releasing them then must neither crash nor hang.
    path = str(tmp_path / "exit.arrow")
    script = f"""
import io, pyarrow as pa
from bowstring import ipc
sink = io.BytesIO()
ipc.write_stream(pa.table({{"x": list(range(1000)), "s": ["a"] * 1000}}), sink)
data = sink.getvalue()
kept = ipc.read_stream(data)
exported = pa.table(ipc.read_stream(bytearray(data)))
ipc.write_file(kept, {path!r})
mapped = ipc.read_file({path!r})
cycle = [ipc.read_stream(memoryview(data))]
cycle.append(cycle)
print(kept.num_rows, exported.num_rows, mapped.num_rows)
"""
    root = Path(bowstring.__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.split() == ["1000", "1000", "1000"]


def test_threads_read_and_write_at_once() -> None:
    table = wide_table(2_000)
    data = pyarrow_bytes(table, "file", "zstd")
    failures: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(5):
                assert pa.table(ipc.read_file(data)).equals(table)
                assert pyarrow_read(bowstring_bytes(table, "stream", "lz4"), "stream").equals(table)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


# --- validation and malformed input ---------------------------------------------------------


def test_validation_can_be_switched_off_for_trusted_data() -> None:
    bad_utf8 = pa.array([b"ok", b"\xff\xfe"], pa.binary()).view(pa.string())
    data = pyarrow_bytes(pa.table({"s": bad_utf8}), "stream")
    with pytest.raises(ValueError, match="UTF-8"):
        ipc.read_stream(data)
    assert ipc.read_stream(data, validate=False).num_rows == 2
    good = pyarrow_bytes(wide_table(10), "file")
    assert pa.table(ipc.read_file(good, validate=False)).equals(wide_table(10))


def malformed_sample() -> pa.Table:
    rng = np.random.default_rng(11)
    types = [
        pa.string(),
        pa.list_(pa.int32()),
        pa.dictionary(pa.int8(), pa.string()),
        pa.dense_union([pa.field("a", pa.int8()), pa.field("b", pa.string())]),
        pa.string_view(),
        pa.run_end_encoded(pa.int32(), pa.int64()),
    ]
    columns = {f"c{i}": random_array(type_, 40, rng) for i, type_ in enumerate(types)}
    return pa.table(columns)


def read_or_reject(reader: Callable[..., bowstring.Table], data: bytes) -> None:
    """Reading malformed bytes either fails cleanly with a ValueError or gives data that both
    Bowstring's and pyarrow's full validations accept."""
    try:
        result = reader(data)
    except ValueError as error:
        assert str(error)
        return
    result.validate(full=True)
    pa.table(result).validate(full=True)


@pytest.mark.parametrize("format_", FORMATS)
def test_names_that_are_not_utf8_are_refused(format_: str) -> None:
    # Arrow C++ reads such names, and pyarrow then fails decoding them; flatbuffer strings are
    # UTF-8, so the bytes are malformed.
    table = pa.table({"name_A": [1, 2]}, metadata={"key_B": "value"})
    data = pyarrow_bytes(table, format_, None)
    with pytest.raises(ValueError, match=r"field 0 'name_\\xff': name 'name_\\xff' is not valid"):
        READERS[format_](data.replace(b"name_A", b"name_\xff"))
    with pytest.raises(ValueError, match=r"metadata key 0 'key_\\xfe' is not valid UTF-8"):
        READERS[format_](data.replace(b"key_B", b"key_\xfe"))


@pytest.mark.parametrize("compression", COMPRESSIONS)
@pytest.mark.parametrize("format_", FORMATS)
def test_truncated_input_is_refused(format_: str, compression: str | None, no_leaks: None) -> None:
    data = pyarrow_bytes(malformed_sample(), format_, compression)
    cuts = sorted(set(range(0, len(data), max(1, len(data) // 150))) | set(range(0, 64)))
    for cut in cuts:
        if format_ == "file":
            with pytest.raises(ValueError):
                ipc.read_file(data[:cut])
        else:
            read_or_reject(ipc.read_stream, data[:cut])


@pytest.mark.parametrize("compression", COMPRESSIONS)
@pytest.mark.parametrize("format_", FORMATS)
def test_flipped_bytes_never_crash(format_: str, compression: str | None, no_leaks: None) -> None:
    data = pyarrow_bytes(malformed_sample(), format_, compression)
    rng = np.random.default_rng(len(data))
    for position in rng.choice(len(data), size=min(len(data), 200), replace=False):
        for flip in (0x01, 0x80, 0xFF):
            corrupt = bytearray(data)
            corrupt[position] ^= flip
            read_or_reject(READERS[format_], bytes(corrupt))


def test_garbage_and_bad_magic_are_value_errors(no_leaks: None) -> None:
    rng = np.random.default_rng(3)
    for size in (0, 1, 7, 8, 64, 1000):
        garbage = rng.bytes(size)
        for reader in READERS.values():
            with pytest.raises(ValueError):
                reader(garbage)
    data = pyarrow_bytes(wide_table(10), "file")
    with pytest.raises(ValueError, match="magic"):
        ipc.read_file(b"ARROW2" + data[6:])
    with pytest.raises(ValueError, match="magic"):
        ipc.read_file(data[:-1] + b"2")
    with pytest.raises(ValueError, match="empty"):
        ipc.read_stream(b"")
    # A file is not a stream, nor the other way round.
    with pytest.raises(ValueError):
        ipc.read_stream(data)
    with pytest.raises(ValueError):
        ipc.read_file(pyarrow_bytes(wide_table(10), "stream"))


def test_errors_name_the_problem(tmp_path: Path) -> None:
    missing = tmp_path / "missing.arrow"
    for reader in READERS.values():
        with pytest.raises(FileNotFoundError) as raised:
            reader(missing)
        assert raised.value.filename == str(missing)
    with pytest.raises(IsADirectoryError):
        ipc.read_file(tmp_path)
    (tmp_path / "empty.arrow").touch()
    with pytest.raises(ValueError, match="empty"):
        ipc.read_stream(tmp_path / "empty.arrow")
    with pytest.raises(ValueError, match="at least"):
        ipc.read_file(tmp_path / "empty.arrow")
    with pytest.raises(FileNotFoundError):
        ipc.write_file(wide_table(1), tmp_path / "no" / "such" / "dir.arrow")

    with pytest.raises(TypeError, match="read_stream.*path, a bytes-like object or a binary file"):
        ipc.read_stream(42)
    with pytest.raises(TypeError, match="read_file.*got list"):
        ipc.read_file([1, 2])
    with pytest.raises(TypeError, match=r"write_stream\(\) takes an object exposing"):
        ipc.write_stream([1, 2], io.BytesIO())
    with pytest.raises(TypeError, match="writes to a path or a binary file object, got int"):
        ipc.write_file(wide_table(1), 3)
    with pytest.raises(ValueError, match="'gzip'.*'lz4' or 'zstd'"):
        ipc.write_stream(wide_table(1), io.BytesIO(), compression="gzip")
    with pytest.raises(TypeError, match="compression"):
        ipc.write_stream(wide_table(1), io.BytesIO(), compression=1)
    # Data is checked before a path is created.
    with pytest.raises(TypeError):
        ipc.write_file(object(), tmp_path / "never.arrow")
    assert not (tmp_path / "never.arrow").exists()
