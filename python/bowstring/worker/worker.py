"""The command loop of a worker process (docs/worker-protocol.md, "A call").

A worker connects to the engine, authenticates with ``HELLO``, then serves ``COMMAND`` frames
one after another until the engine closes the connection. For each call it unpickles the
function, reads input batches only as the function asks for them (so socket buffers bound what
is in flight), converts them as PySpark does, checks and sends every result, and ends the call
with ``END_OF_DATA`` followed by ``COMPLETE`` (metrics) or ``ERROR`` (the exception, its
traceback trimmed to the user's frames, and the input batch being processed).
"""

from __future__ import annotations

import errno
import fcntl
import mmap
import os
import platform
import resource
import socket
import time
import traceback
from typing import Any, Callable, Iterator, List, Optional

import cloudpickle
import pandas as pd
import pyarrow as pa

from bowstring.worker.conversion import (
    InputConverter,
    OutputConverter,
    ResultMismatchError,
    load_zone,
)
from bowstring.worker.protocol import (
    PROTOCOL_VERSION,
    FrameSocket,
    FrameType,
    ProtocolError,
    consume,
    decode_json,
    encode_json,
    require_field,
)

__all__ = [
    "KINDS",
    "TRANSPORTS",
    "FunctionLoadError",
    "Worker",
    "connect",
    "format_user_traceback",
    "run_worker",
]

KINDS = ("arrow", "pandas", "pandas_series", "pandas_series_iter", "rows")
TRANSPORTS = ("socket", "shm")

_PACKAGE_DIRECTORY = os.path.dirname(os.path.abspath(__file__)) + os.sep
# Address space given back when a MemoryError must be reported, so that formatting and sending
# the report can allocate. Mapped without being touched: it costs no resident memory.
_RESERVE_SIZE = 8 << 20
_MEMORY_ERROR_PAYLOAD = encode_json(
    {"exception": "MemoryError", "message": "", "traceback": "", "batch": None}
)
_clock = time.perf_counter
# Explicit options: the defaults are looked up in the environment on every stream.
_WRITE_OPTIONS = pa.ipc.IpcWriteOptions()
# Mapping every page at once is cheaper than faulting them in one by one as they are read.
_INPUT_MAP_FLAGS = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)
_RESULT_SEALS = fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE | fcntl.F_SEAL_SEAL
_END_OF_STREAM = b"\xff\xff\xff\xff\x00\x00\x00\x00"
# What an iterator function yields; returned instead, it is a mistake.
_SINGLE_RESULTS = (pd.DataFrame, pd.Series, pa.RecordBatch, pa.Table)


class FunctionLoadError(Exception):
    """The pickled function of a command could not be loaded in the worker."""


class Call:
    """One ``COMMAND``: what it asks for, and the state and metrics of running it."""

    __slots__ = (
        "kind",
        "name",
        "transport",
        "config",
        "input_schema",
        "output_schema",
        "pickled_function",
        "rows_in",
        "batches_in",
        "rows_out",
        "batches_out",
        "function_seconds",
        "input_seconds",
        "current_batch",
        "input_rows",
        "input_done",
        "broken",
        "schema_message",
    )

    def __init__(
        self,
        kind: str,
        name: str,
        transport: str,
        config: dict,
        input_schema: pa.Schema,
        output_schema: pa.Schema,
        pickled_function: pa.Buffer,
    ) -> None:
        self.kind = kind
        self.name = name
        self.transport = transport
        self.config = config
        self.input_schema = input_schema
        self.output_schema = output_schema
        self.pickled_function = pickled_function
        self.rows_in = 0
        self.batches_in = 0
        self.rows_out = 0
        self.batches_out = 0
        self.function_seconds = 0.0
        # Time spent reading and converting input while the function pulled it.
        self.input_seconds = 0.0
        # Index of the input batch the function is working on (None before the first one).
        self.current_batch: Optional[int] = None
        # Rows of each input batch read so far (checked against pandas_series_iter results).
        self.input_rows: List[int] = []
        self.input_done = False
        # A failure of the connection or of the engine's input, raised while the function was
        # pulling input: it ends the worker even if the function caught it.
        self.broken: Optional[ProtocolError] = None
        # A stream of a batch without dictionaries is this schema message, the batch's message
        # and the end-of-stream marker: sent as three parts without building the stream.
        self.schema_message: Optional[pa.Buffer] = None
        if not any(_holds_dictionary(field.type) for field in output_schema):
            self.schema_message = output_schema.serialize()

    def metrics(self) -> dict:
        """The ``COMPLETE`` payload."""
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {
            "rows_in": self.rows_in,
            "batches_in": self.batches_in,
            "rows_out": self.rows_out,
            "batches_out": self.batches_out,
            "function_seconds": self.function_seconds,
            "peak_memory_bytes": usage.ru_maxrss * 1024,
        }


def parse_command(payload: pa.Buffer) -> Call:
    """Parses a ``COMMAND`` payload: u32 header length, JSON header, then the input schema,
    output schema and pickled function blobs.

    Raises
    ------
    ProtocolError
        Naming the field or blob that is wrong.
    """
    size = payload.size
    if size < 4:
        raise ProtocolError(f"COMMAND payload of {size} bytes has no header length")
    header_length = int.from_bytes(memoryview(payload)[:4], "little")
    if 4 + header_length > size:
        raise ProtocolError(
            f"COMMAND header length {header_length} exceeds the payload of {size} bytes"
        )
    header = decode_json(payload.slice(4, header_length), "COMMAND header")
    what = "COMMAND header"
    kind = require_field(header, "kind", str, what)
    if kind not in KINDS:
        raise ProtocolError(f"COMMAND kind '{kind}' is not one of {', '.join(KINDS)}")
    name = require_field(header, "name", str, what)
    transport = require_field(header, "transport", str, what)
    if transport not in TRANSPORTS:
        raise ProtocolError(
            f"COMMAND transport '{transport}' is not one of {', '.join(TRANSPORTS)}"
        )
    config = require_field(header, "config", dict, what)
    for key, value in config.items():
        if not isinstance(value, str):
            raise ProtocolError(
                f"COMMAND config '{key}' is a JSON {type(value).__name__}, expected a string"
            )
    lengths = []
    for field in ("input_schema_length", "output_schema_length", "function_length"):
        length = require_field(header, field, int, what)
        if length < 0:
            raise ProtocolError(f"COMMAND {field} is negative ({length})")
        lengths.append(length)
    offset = 4 + header_length
    if offset + sum(lengths) != size:
        raise ProtocolError(
            f"COMMAND payload is {size} bytes, but its header and blobs add up to "
            f"{offset + sum(lengths)}"
        )
    blobs = []
    for length in lengths:
        blobs.append(payload.slice(offset, length))
        offset += length
    return Call(
        kind,
        name,
        transport,
        config,
        _read_schema(blobs[0], "input schema"),
        _read_schema(blobs[1], "output schema"),
        blobs[2],
    )


def _read_schema(blob: pa.Buffer, what: str) -> pa.Schema:
    """The schema of an IPC stream that holds a schema and no batch."""
    try:
        reader = pa.ipc.open_stream(blob)
        schema = reader.schema
        reader.read_next_batch()
    except StopIteration:
        return schema
    except pa.ArrowException as error:
        raise ProtocolError(f"COMMAND {what} is not an Arrow IPC stream: {error}") from None
    raise ProtocolError(f"COMMAND {what} stream holds a record batch, expected only a schema")


def format_user_traceback(error: BaseException) -> str:
    """The formatted traceback of ``error`` (and of its causes) without the frames of
    ``bowstring.worker``, so that it shows the user's code only."""
    formatted = traceback.TracebackException.from_exception(error)
    pending = [formatted]
    seen = set()
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        current.stack = traceback.StackSummary.from_list(
            [frame for frame in current.stack if not frame.filename.startswith(_PACKAGE_DIRECTORY)]
        )
        pending.extend((current.__cause__, current.__context__))
    return "".join(formatted.format())


def _load_function(call: Call) -> Callable:
    """The call's function, unpickled; ``FunctionLoadError`` (caused by what failed) names the
    function when that fails."""
    try:
        return cloudpickle.loads(memoryview(call.pickled_function))
    except MemoryError:
        raise
    except Exception as error:
        hint = ""
        if isinstance(error, ImportError):
            hint = (
                " (modules the function uses must be importable in the workers, or be sent "
                "with the function: cloudpickle.register_pickle_by_value)"
            )
        raise FunctionLoadError(
            f"function '{call.name}' could not be loaded in the worker: "
            f"{type(error).__name__}: {_describe(error)}{hint}"
        ) from error


def _describe(error: BaseException) -> str:
    try:
        return str(error)
    except Exception:
        return f"<{type(error).__name__} whose message cannot be shown>"


def _utf8_text(text: str) -> str:
    """``text`` with what UTF-8 cannot encode (lone surrogates, as ``os.fsdecode`` makes of
    undecodable file names) written as backslash escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _write_stream(sink: Any, batch: pa.RecordBatch) -> None:
    """Writes ``batch`` to ``sink`` as a whole IPC stream (schema, dictionaries, batch, end)."""
    with pa.ipc.RecordBatchStreamWriter(sink, batch.schema, options=_WRITE_OPTIONS) as writer:
        writer.write_batch(batch)


def _write_all(fd: int, parts: List[Any]) -> int:
    """Writes ``parts`` one after another to ``fd``; returns the bytes written."""
    views = [view for view in (memoryview(part).cast("B") for part in parts) if view.nbytes]
    total = sum(view.nbytes for view in views)
    while views:
        written = os.writev(fd, views)
        if written == 0:
            raise OSError(errno.EIO, "writing a result to shared memory made no progress")
        consume(views, written)
    return total


def _holds_dictionary(data_type: pa.DataType) -> bool:
    if pa.types.is_dictionary(data_type):
        return True
    if pa.types.is_map(data_type):
        return _holds_dictionary(data_type.key_type) or _holds_dictionary(data_type.item_type)
    return any(_holds_dictionary(data_type.field(i).type) for i in range(data_type.num_fields))


class Worker:
    """Serves the calls of one connection to the engine.

    Parameters
    ----------
    connection : FrameSocket
        Connected and authenticated.
    """

    def __init__(self, connection: FrameSocket) -> None:
        self.connection = connection
        self._reserve: Optional[mmap.mmap] = None
        self._restore_reserve()

    def _restore_reserve(self) -> None:
        if self._reserve is None:
            try:
                self._reserve = mmap.mmap(-1, _RESERVE_SIZE)
            except (MemoryError, OSError):
                self._reserve = None

    def _release_reserve(self) -> None:
        if self._reserve is not None:
            self._reserve.close()
            self._reserve = None

    def serve(self) -> None:
        """Serves calls until the engine closes the connection.

        Raises
        ------
        ProtocolError
            When the engine breaks the protocol or the connection fails inside a call.
        """
        while True:
            frame = self._read()
            if frame is None:
                return
            if frame.type != FrameType.COMMAND:
                if frame.fd is not None:
                    os.close(frame.fd)
                raise ProtocolError(
                    f"engine sent a {frame.type.name} frame between calls, expected COMMAND"
                )
            self._run(parse_command(frame.payload))

    def _read(self, skip_payload: bool = False) -> Any:
        try:
            return self.connection.read(skip_payload)
        except OSError as error:
            raise ProtocolError(f"reading from the engine failed: {error}") from None

    def _write(self, frame_type: FrameType, payload: Any = b"") -> None:
        self._write_parts(frame_type, [payload])

    def _write_parts(
        self, frame_type: FrameType, parts: List[Any], fd: Optional[int] = None
    ) -> None:
        try:
            self.connection.write_parts(frame_type, parts, fd)
        except OSError as error:
            raise ProtocolError(
                f"writing a {frame_type.name} frame to the engine failed: {error}"
            ) from None

    def _run(self, call: Call) -> None:
        report = None
        try:
            self._execute(call)
        except ProtocolError:
            raise
        except BaseException as error:
            # SystemExit and KeyboardInterrupt too: only the user's code raises them here (the
            # worker ignores SIGINT), and PySpark reports them like any other exception.
            if call.broken is not None:
                raise call.broken from None
            report = self._error_report(call, error)
        if call.broken is not None:
            raise call.broken
        if report is not None:
            # The exception and the frames it kept alive are gone by now.
            self._write(FrameType.END_OF_DATA)
            self._write(FrameType.ERROR, report)
            self._drain(call)
            self._restore_reserve()

    def _error_report(self, call: Call, error: BaseException) -> bytes:
        if isinstance(error, MemoryError):
            self._release_reserve()
        try:
            return encode_json(
                {
                    "exception": _utf8_text(type(error).__name__),
                    "message": _utf8_text(_describe(error)),
                    "traceback": _utf8_text(format_user_traceback(error)),
                    "batch": call.current_batch,
                }
            )
        except MemoryError:
            return _MEMORY_ERROR_PAYLOAD

    def _execute(self, call: Call) -> None:
        function = _load_function(call)
        zone = call.config.get("session_time_zone", "UTC")
        load_zone(zone)
        inputs = InputConverter(call.input_schema, zone)
        output = OutputConverter(call.output_schema, call.name, zone)
        run = {
            "arrow": self._run_arrow,
            "pandas": self._run_pandas,
            "pandas_series": self._run_pandas_series,
            "pandas_series_iter": self._run_pandas_series_iter,
            "rows": self._run_rows,
        }[call.kind]
        run(call, function, inputs, output)
        self._drain(call)
        self._write(FrameType.END_OF_DATA)
        self._write(FrameType.COMPLETE, encode_json(call.metrics()))

    # Input.

    def _batches(
        self, call: Call, convert: Optional[Callable[[pa.RecordBatch], Any]] = None
    ) -> Iterator[Any]:
        """Input batches (converted by ``convert``) read one at a time, as they are asked for,
        until ``END_OF_DATA``."""
        read = self._read
        shm = FrameType.SHM_BATCH
        try:
            while True:
                start = _clock()
                frame = read()
                if frame is None:
                    raise ProtocolError("engine closed the connection inside a call")
                frame_type = frame.type
                if frame_type == FrameType.BATCH:
                    buffer = frame.payload
                elif frame_type == shm:
                    buffer = self._map_shared_memory(frame, call.batches_in)
                elif frame_type == FrameType.END_OF_DATA:
                    call.input_done = True
                    return
                else:
                    if frame.fd is not None:
                        os.close(frame.fd)
                    raise ProtocolError(
                        f"engine sent a {frame_type.name} frame inside a call, expected BATCH, "
                        "SHM_BATCH or END_OF_DATA"
                    )
                batch = self._decode(call, buffer, frame_type)
                index = call.batches_in
                call.current_batch = index
                call.batches_in = index + 1
                call.rows_in += batch.num_rows
                call.input_rows.append(batch.num_rows)
                item = batch if convert is None else convert(batch)
                call.input_seconds += _clock() - start
                yield item
        except ProtocolError as error:
            call.broken = error
            raise

    def _map_shared_memory(self, frame: Any, index: int) -> pa.Buffer:
        fd = frame.fd
        try:
            length = require_field(frame.json(), "length", int, "SHM_BATCH payload")
            size = os.fstat(fd).st_size
            if length <= 0 or length > size:
                raise ProtocolError(
                    f"SHM_BATCH input batch {index} claims {length} bytes of a memfd of "
                    f"{size} bytes"
                )
            mapping = mmap.mmap(fd, length, flags=_INPUT_MAP_FLAGS, prot=mmap.PROT_READ)
        finally:
            os.close(fd)
        return pa.py_buffer(mapping)

    def _decode(self, call: Call, buffer: pa.Buffer, frame_type: FrameType) -> pa.RecordBatch:
        index = call.batches_in
        what = f"{frame_type.name} input batch {index}"
        try:
            reader = pa.ipc.open_stream(buffer)
            batch = reader.read_next_batch()
            reader.read_next_batch()
        except StopIteration:
            if reader.stats.num_record_batches == 0:
                raise ProtocolError(f"{what} holds no record batch") from None
        except pa.ArrowException as error:
            raise ProtocolError(f"{what} is not a valid Arrow IPC stream: {error}") from None
        else:
            raise ProtocolError(f"{what} holds more than one record batch")
        if not batch.schema.equals(call.input_schema):
            raise ProtocolError(
                f"{what} has schema {batch.schema}, but the command's input schema is "
                f"{call.input_schema}"
            )
        return batch

    def _drain(self, call: Call) -> int:
        """Reads and drops the input the function left unread; returns how many batches."""
        dropped = 0
        while not call.input_done:
            frame = self._read(skip_payload=True)
            if frame is None:
                raise ProtocolError("engine closed the connection inside a call")
            if frame.fd is not None:
                os.close(frame.fd)
            if frame.type in (FrameType.BATCH, FrameType.SHM_BATCH):
                dropped += 1
            elif frame.type == FrameType.END_OF_DATA:
                call.input_done = True
            else:
                raise ProtocolError(
                    f"engine sent a {frame.type.name} frame inside a call, expected BATCH, "
                    "SHM_BATCH or END_OF_DATA"
                )
        return dropped

    # Output.

    def _send(self, call: Call, batch: pa.RecordBatch) -> None:
        call.batches_out += 1
        call.rows_out += batch.num_rows
        if call.schema_message is not None:
            parts = [call.schema_message, batch.serialize(), _END_OF_STREAM]
        else:
            sink = pa.BufferOutputStream()
            _write_stream(sink, batch)
            parts = [sink.getvalue()]
        if call.transport == "socket":
            self._write_parts(FrameType.BATCH, parts)
            return
        # Written with one system call: measured three times faster than mapping the memfd
        # and copying into the mapping, whose fresh pages each fault on first touch.
        fd = os.memfd_create("bowstring-result", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        try:
            length = _write_all(fd, parts)
            # The engine maps the file and refuses one that could still shrink or change.
            fcntl.fcntl(fd, fcntl.F_ADD_SEALS, _RESULT_SEALS)
            self._write_parts(FrameType.SHM_BATCH, [encode_json({"length": length})], fd)
        finally:
            os.close(fd)

    # Function kinds.

    def _run_iterator(
        self,
        call: Call,
        function: Callable,
        inputs: Iterator[Any],
        handle: Callable[[Any, int], None],
        returns: str,
    ) -> int:
        """Calls an iterator function once and hands each result to ``handle`` with its
        index; returns how many results there were. Time spent reading input while the
        function pulls it is not counted as the function's."""
        start = _clock()
        results = function(inputs)
        if isinstance(results, _SINGLE_RESULTS):
            # Iterable, but over its columns or rows: returned where it should have yielded.
            raise ResultMismatchError(
                f"function '{call.name}' returned a {type(results).__name__}, expected an "
                f"iterator of {returns} (yield each result rather than return it)"
            )
        try:
            results = iter(results)
        except TypeError:
            raise ResultMismatchError(
                f"function '{call.name}' returned a {type(results).__name__}, expected an "
                f"iterator of {returns}"
            ) from None
        call.function_seconds += _clock() - start
        count = 0
        while True:
            start = _clock()
            read_before = call.input_seconds
            try:
                result = next(results)
            except StopIteration:
                call.function_seconds += _clock() - start - (call.input_seconds - read_before)
                return count
            call.function_seconds += _clock() - start - (call.input_seconds - read_before)
            handle(result, count)
            count += 1

    def _run_arrow(
        self, call: Call, function: Callable, inputs: InputConverter, output: OutputConverter
    ) -> None:
        def handle(result: Any, index: int) -> None:
            for batch in output.from_arrow(result, f"in output batch {index}"):
                self._send(call, batch)

        self._run_iterator(call, function, self._batches(call), handle, "pyarrow.RecordBatch")

    def _run_pandas(
        self, call: Call, function: Callable, inputs: InputConverter, output: OutputConverter
    ) -> None:
        def handle(result: Any, index: int) -> None:
            self._send(call, output.from_frame(result, f"in output batch {index}"))

        self._run_iterator(
            call, function, self._batches(call, inputs.to_pandas), handle, "pandas.DataFrame"
        )

    def _run_pandas_series(
        self, call: Call, function: Callable, inputs: InputConverter, output: OutputConverter
    ) -> None:
        for batch in self._batches(call):
            index = call.current_batch
            series = inputs.to_series(batch)
            start = _clock()
            result = function(*series)
            call.function_seconds += _clock() - start
            result_batch = output.from_series_result(result, f"for input batch {index}")
            output.check_rows(result_batch.num_rows, index, batch.num_rows)
            self._send(call, result_batch)

    def _run_pandas_series_iter(
        self, call: Call, function: Callable, inputs: InputConverter, output: OutputConverter
    ) -> None:
        def to_arguments(batch: pa.RecordBatch) -> Any:
            series = inputs.to_series(batch)
            return series[0] if len(series) == 1 else tuple(series)

        def handle(result: Any, index: int) -> None:
            if index >= len(call.input_rows):
                raise ResultMismatchError(
                    f"function '{call.name}' returned result {index} before reading input "
                    f"batch {index}"
                )
            result_batch = output.from_series_result(result, f"for input batch {index}")
            output.check_rows(result_batch.num_rows, index, call.input_rows[index])
            self._send(call, result_batch)

        results = self._run_iterator(
            call,
            function,
            self._batches(call, to_arguments),
            handle,
            "pandas.Series or pandas.DataFrame",
        )
        batches = call.batches_in + self._drain(call)
        if results != batches:
            raise ResultMismatchError(
                f"function '{call.name}' returned {results} results for {batches} input "
                "batches; it must return one per input batch"
            )

    def _run_rows(
        self, call: Call, function: Callable, inputs: InputConverter, output: OutputConverter
    ) -> None:
        for batch in self._batches(call):
            index = call.current_batch
            columns = inputs.to_pylists(batch)
            start = _clock()
            if columns:
                values = list(map(function, *columns))
            else:
                values = [function() for _ in range(batch.num_rows)]
            call.function_seconds += _clock() - start
            self._send(call, output.from_rows(values, f"for input batch {index}"))


def connect(socket_path: str, secret: str, worker_id: int) -> FrameSocket:
    """Connects to the engine's socket and authenticates.

    Raises
    ------
    ProtocolError
        When the engine closes the connection (rejects it) or answers other than WELCOME.
    """
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(socket_path)
        connection = FrameSocket(sock, "engine")
        connection.write(
            FrameType.HELLO,
            encode_json(
                {
                    "secret": secret,
                    "protocol_version": PROTOCOL_VERSION,
                    "python_version": platform.python_version(),
                    "worker_id": worker_id,
                    "pid": os.getpid(),
                }
            ),
        )
        frame = connection.read()
    except BaseException:
        sock.close()
        raise
    if frame is None:
        sock.close()
        raise ProtocolError("the engine closed the connection before WELCOME (rejected HELLO)")
    if frame.type != FrameType.WELCOME:
        if frame.fd is not None:
            os.close(frame.fd)
        sock.close()
        raise ProtocolError(f"engine answered HELLO with {frame.type.name}, expected WELCOME")
    return connection


def run_worker(socket_path: str, secret: str, worker_id: int) -> None:
    """Connects to the engine and serves its calls until it closes the connection."""
    connection = connect(socket_path, secret, worker_id)
    try:
        Worker(connection).serve()
    finally:
        connection.close()
