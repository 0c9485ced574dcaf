"""Arrow IPC streams and files, byte-compatible with every Arrow implementation.

The *stream* format is a sequence of messages read front to back (pipes, sockets, the
``pyarrow.ipc.new_stream`` output); the *file* format adds a footer for random access
(``pyarrow.ipc.new_file``, Feather version 2). Both may compress their bodies with LZ4 or ZSTD.

Reading is zero-copy wherever the format allows: from a path the file is memory-mapped and the
table's buffers point into the mapping; from a bytes-like object they point into that object's
memory. Writing takes any object exposing the Arrow PyCapsule interface (a pyarrow Table or
RecordBatchReader, a Polars DataFrame, a ``bowstring.Table``...).

Examples
--------
>>> import pyarrow as pa
>>> from bowstring import ipc
>>> table = pa.table({"id": [1, 2, 3], "name": ["a", "b", None]})
>>> ipc.write_file(table, "people.arrow", compression="zstd")
>>> pa.table(ipc.read_file("people.arrow")).equals(table)
True
"""

from __future__ import annotations

import os
import stat
from typing import IO, TYPE_CHECKING, Callable, Optional, Union

from bowstring._core import Table, _ipc
from bowstring._protocols import ArrowArrayLike

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["read_file", "read_stream", "write_file", "write_stream"]

# Accepted values of the ``compression`` argument of the writers, besides None.
_COMPRESSIONS = ("lz4", "zstd")

PathLike = Union[str, "os.PathLike[str]"]
#: What the readers take: a path, an object exposing the buffer protocol (bytes, bytearray,
#: memoryview, mmap, numpy array, pyarrow Buffer...) or a binary file object.
Source = Union[PathLike, "Buffer", IO[bytes]]
#: Where the writers write: a path or a binary file object.
Sink = Union[PathLike, IO[bytes]]


def _path_of(source: object) -> Optional[str]:
    """The path ``source`` names, or None when it is not a path."""
    if isinstance(source, str):
        return source
    if isinstance(source, os.PathLike):
        return os.fsdecode(os.fspath(source))
    return None


def _compression_name(compression: Optional[str]) -> str:
    if compression is None:
        return "none"
    if not isinstance(compression, str):
        raise TypeError(
            f"compression must be None or one of {', '.join(map(repr, _COMPRESSIONS))}, "
            f"got {type(compression).__name__}"
        )
    if compression.lower() not in _COMPRESSIONS:
        raise ValueError(
            f"unknown compression {compression!r}: expected None, "
            f"{' or '.join(map(repr, _COMPRESSIONS))}"
        )
    return compression.lower()


def _read(read: Callable[[Source, bool], Table], source: Source, validate: bool) -> Table:
    """Calls the native reader ``read`` on ``source``: a path that is not a regular file (a
    pipe, a device) is opened and read as a file object, since it cannot be mapped."""
    path = _path_of(source)
    if path is None:
        return read(source, validate)
    # Opened here, so that a missing or unreadable path raises Python's own OSError subclass
    # naming it; and opened once: a FIFO opened twice can lose its writer in between.
    with open(path, "rb", buffering=0) as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            return read(file, validate)
    return read(path, validate)


def read_stream(source: Source, *, validate: bool = True) -> Table:
    """Reads an Arrow IPC stream into a Table.

    Parameters
    ----------
    source : str, os.PathLike, bytes-like object or binary file object
        Where the stream is:

        - a path: a regular file is memory-mapped and the table's buffers point into the
          mapping, which they keep alive (the file must not be truncated meanwhile); other
          files (pipes, devices) are read front to back;
        - an object exposing the buffer protocol (``bytes``, ``bytearray``, ``memoryview``,
          ``mmap.mmap``, a contiguous NumPy array, a ``pyarrow.Buffer``...): the table's
          buffers point into its memory, which they keep alive; mutating a mutable object
          afterwards changes the table;
        - a binary file object (with a ``read(n)`` method, such as ``io.BytesIO``, a file
          opened with ``"rb"`` or ``socket.makefile("rb")``): read up to the end-of-stream
          marker, so the file object is left just past the stream.
    validate : bool, default True
        Checks every value (offsets, UTF-8, dictionary indices, union type ids and offsets)
        on top of the structural checks that always run. Pass False only for trusted data,
        such as streams Bowstring wrote itself: reading malformed data without full
        validation may give arrays whose use crashes the process.

    Returns
    -------
    Table
        The stream's batches as the table's chunks, with the stream's schema and metadata.
        It exposes ``__arrow_c_stream__``: ``pyarrow.table(result)`` takes it without a copy.

    Raises
    ------
    ValueError
        The bytes are not a valid IPC stream; the message names the problem (which message,
        field and buffer).
    OSError
        The path cannot be opened (FileNotFoundError, PermissionError...) or read.
    TypeError
        ``source`` is none of the above.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from bowstring import ipc
    >>> sink = pa.BufferOutputStream()
    >>> with pa.ipc.new_stream(sink, pa.schema([("x", pa.int64())])) as writer:
    ...     writer.write_table(pa.table({"x": [1, 2, 3]}))
    >>> ipc.read_stream(sink.getvalue()).num_rows
    3
    """
    return _read(_ipc.read_stream, source, validate)


def read_file(source: Source, *, validate: bool = True) -> Table:
    """Reads an Arrow IPC file (the random-access format, also known as Feather version 2) into
    a Table.

    Parameters
    ----------
    source : str, os.PathLike, bytes-like object or binary file object
        Where the file is:

        - a path: the file is memory-mapped and the table's buffers point into the mapping,
          which they keep alive (the file must not be truncated meanwhile);
        - an object exposing the buffer protocol (``bytes``, ``bytearray``, ``memoryview``,
          ``mmap.mmap``, a contiguous NumPy array, a ``pyarrow.Buffer``...): the table's
          buffers point into its memory, which they keep alive; mutating a mutable object
          afterwards changes the table;
        - a binary file object (with a ``read()`` method): read whole into memory first;
          so is a path that is not a regular file (a pipe).
    validate : bool, default True
        Checks every value (offsets, UTF-8, dictionary indices, union type ids and offsets)
        on top of the structural checks that always run. Pass False only for trusted data:
        reading malformed data without full validation may give arrays whose use crashes the
        process.

    Returns
    -------
    Table
        Every record batch of the file, in order, as the table's chunks. It exposes
        ``__arrow_c_stream__``: ``pyarrow.table(result)`` takes it without a copy.

    Raises
    ------
    ValueError
        The bytes are not a valid IPC file; the message names the problem (magic, footer, or
        which batch, field and buffer).
    OSError
        The path cannot be opened (FileNotFoundError, PermissionError...) or mapped.
    TypeError
        ``source`` is none of the above.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from bowstring import ipc
    >>> ipc.write_file(pa.table({"x": [1, 2, 3]}), "numbers.arrow")
    >>> ipc.read_file("numbers.arrow").column_names
    ['x']
    """
    return _read(_ipc.read_file, source, validate)


def _write(
    data: ArrowArrayLike, sink: Sink, compression: Optional[str], file_format: bool
) -> None:
    name = _compression_name(compression)
    path = _path_of(sink)
    if path is not None:
        _ipc.write(data, path, name, file_format)
    elif hasattr(sink, "write"):
        _ipc.write(data, sink, name, file_format)
    else:
        function = "write_file" if file_format else "write_stream"
        raise TypeError(
            f"bowstring.ipc.{function}() writes to a path or a binary file object, "
            f"got {type(sink).__name__}"
        )


def write_stream(data: ArrowArrayLike, sink: Sink, compression: Optional[str] = None) -> None:
    """Writes data as an Arrow IPC stream.

    The batches are encoded one at a time as they are produced, so a stream source (a
    ``pyarrow.RecordBatchReader``, a query's output) is never held in memory whole. Dictionaries
    that grow from batch to batch are sent as deltas, dictionaries that change otherwise as
    replacements.

    Parameters
    ----------
    data : object exposing ``__arrow_c_stream__`` or ``__arrow_c_array__``
        A table or stream of record batches (pyarrow Table or RecordBatchReader, bowstring
        Table...), or one record batch (a pyarrow RecordBatch, a struct array...).
    sink : str, os.PathLike or binary file object
        A path (created, or truncated when it exists), or a blocking binary file object with
        a ``write(b)`` method (``io.BytesIO``, a file opened with ``"wb"``,
        ``socket.makefile("wb")``...), which is flushed at the end but left open. ``write``
        may take part of the bytes and return how many; returning None means it took all.
    compression : str, optional
        ``"lz4"`` (LZ4 frame) or ``"zstd"`` body compression; None (the default) writes the
        bodies uncompressed.

    Raises
    ------
    ValueError
        ``compression`` is not one of the accepted names, or the data cannot be written (a
        batch whose schema differs from the first one's, invalid arrays).
    TypeError
        ``data`` does not expose the Arrow PyCapsule interface, or ``sink`` is neither a path
        nor a file object.
    OSError
        The sink cannot be created or written.

    Examples
    --------
    >>> import io
    >>> import pyarrow as pa
    >>> from bowstring import ipc
    >>> sink = io.BytesIO()
    >>> ipc.write_stream(pa.table({"x": [1, 2, 3]}), sink, compression="lz4")
    >>> pa.ipc.open_stream(sink.getvalue()).read_all().num_rows
    3
    """
    _write(data, sink, compression, file_format=False)


def write_file(data: ArrowArrayLike, sink: Sink, compression: Optional[str] = None) -> None:
    """Writes data as an Arrow IPC file (the random-access format, also known as Feather
    version 2).

    The batches are encoded one at a time as they are produced; the footer listing them is
    written at the end. A file cannot replace a dictionary: dictionaries may only grow from
    batch to batch (they are then written as deltas).

    Parameters
    ----------
    data : object exposing ``__arrow_c_stream__`` or ``__arrow_c_array__``
        A table or stream of record batches (pyarrow Table or RecordBatchReader, bowstring
        Table...), or one record batch (a pyarrow RecordBatch, a struct array...).
    sink : str, os.PathLike or binary file object
        A path (created, or truncated when it exists), or a blocking binary file object with
        a ``write(b)`` method (``io.BytesIO``, a file opened with ``"wb"``...), which is
        flushed at the end but left open. ``write`` may take part of the bytes and return how
        many; returning None means it took all.
    compression : str, optional
        ``"lz4"`` (LZ4 frame) or ``"zstd"`` body compression; None (the default) writes the
        bodies uncompressed.

    Raises
    ------
    ValueError
        ``compression`` is not one of the accepted names, or the data cannot be written (a
        batch whose schema differs from the first one's, a dictionary replaced by one that does
        not extend it, invalid arrays).
    TypeError
        ``data`` does not expose the Arrow PyCapsule interface, or ``sink`` is neither a path
        nor a file object.
    OSError
        The sink cannot be created or written.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from bowstring import ipc
    >>> ipc.write_file(pa.table({"x": [1, 2, 3]}), "numbers.arrow", compression="zstd")
    >>> pa.ipc.open_file("numbers.arrow").num_record_batches
    1
    """
    _write(data, sink, compression, file_format=True)
