"""Bowstring's C++ core"""

from collections.abc import Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any, overload

from typing_extensions import CapsuleType

import bowstring._protocols


def allocator_stats() -> dict[str, str | int]:
    """
    Statistics of the process-wide default allocator: its name, bytes in use, peak bytes, total bytes allocated, and the numbers of allocations made and still live.
    """

def thread_pool_size() -> int:
    """
    Threads of the process-wide pool that runs parallel work (created on first use: BOWSTRING_THREADS, else the CPUs the process may use). Raises ValueError if BOWSTRING_THREADS is not a whole number from 1 to 4096.
    """

class DataType:
    """
    An Arrow data type. Construct one from any object exposing ``__arrow_c_schema__`` (a pyarrow DataType, for one).
    """

    def __init__(self, source: bowstring._protocols.ArrowSchemaExportable | CapsuleType) -> None: ...

    @property
    def id(self) -> str:
        """
        The type's kind as Arrow names it ('int32', 'large_utf8', 'dense_union'...).
        """

    def equals(self, other: DataType) -> bool:
        """Whether both types are the same (field names and nullability count)."""

    def __eq__(self, other: object, /) -> bool: ...

    def __hash__(self) -> int:
        """A hash of what ``==`` compares: equal types hash equal."""

    def __str__(self) -> str: ...

    def __repr__(self) -> str: ...

    def __arrow_c_schema__(self) -> CapsuleType:
        """Exports the type as a PyCapsule holding an ArrowSchema."""

class Field:
    """
    A named, typed column or child with nullability and metadata. Construct one from any object exposing ``__arrow_c_schema__``.
    """

    def __init__(self, source: bowstring._protocols.ArrowSchemaExportable | CapsuleType) -> None: ...

    @property
    def name(self) -> str: ...

    @property
    def type(self) -> DataType: ...

    @property
    def nullable(self) -> bool: ...

    @property
    def metadata(self) -> dict[bytes, bytes]:
        """The field's metadata as a dict of bytes to bytes."""

    def equals(self, other: Field, check_metadata: bool = False) -> bool: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __hash__(self) -> int:
        """A hash of the name, type and nullability, as ``==`` compares them."""

    def __repr__(self) -> str: ...

    def __arrow_c_schema__(self) -> CapsuleType:
        """Exports the field as a PyCapsule holding an ArrowSchema."""

class Schema:
    """
    The fields of a record batch or table, with metadata. Construct one from any object exposing ``__arrow_c_schema__`` (a pyarrow Schema, for one) or from an 'arrow_schema' PyCapsule.
    """

    def __init__(self, source: bowstring._protocols.ArrowSchemaExportable | CapsuleType) -> None: ...

    @property
    def names(self) -> list[str]:
        """The field names, in order."""

    @property
    def metadata(self) -> dict[bytes, bytes]:
        """The schema's metadata as a dict of bytes to bytes."""

    @overload
    def field(self, i: int) -> Field:
        """Field ``i`` (negative indices count from the end)."""

    @overload
    def field(self, name: str) -> Field:
        """The field named exactly ``name``."""

    def __len__(self) -> int: ...

    def equals(self, other: Schema, check_metadata: bool = False) -> bool: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __hash__(self) -> int:
        """A hash of the fields, as ``==`` compares them (metadata aside)."""

    def __repr__(self) -> str: ...

    def __arrow_c_schema__(self) -> CapsuleType:
        """
        Exports the schema as a PyCapsule holding an ArrowSchema (a struct type).
        """

class Array:
    """
    An immutable Arrow array. Construct one from any object exposing ``__arrow_c_array__`` (zero-copy) or ``__arrow_c_stream__`` (a chunked array: its chunks are concatenated when there are several).

    Indexing and iteration give Python values, as pyarrow's ``as_py()`` does; a slice is a zero-copy Array.

    >>> import pyarrow as pa
    >>> import bowstring
    >>> array = bowstring.Array(pa.array([1, None, 3]))
    >>> array.to_pylist()
    [1, None, 3]
    >>> array[-1], len(array)
    (3, 3)
    >>> array[1:].to_pylist()
    [None, 3]
    """

    def __init__(self, source: bowstring._protocols.ArrowArrayLike) -> None: ...

    @property
    def type(self) -> DataType: ...

    @property
    def null_count(self) -> int: ...

    @property
    def offset(self) -> int:
        """The array's offset into its buffers."""

    def __len__(self) -> int: ...

    def to_pylist(self) -> list[Any]:
        """
        The values as Python objects, as pyarrow's ``to_pylist()`` gives them: None for nulls, Decimal, datetime.date, datetime (zoned when the type has a time zone), timedelta, dicts for structs, (key, item) tuples for maps, a dictionary's values...
        """

    @overload
    def __getitem__(self, index: int) -> Any:
        """
        Value ``index`` as a Python object (negative indices count from the end); raises IndexError outside the array.
        """

    @overload
    def __getitem__(self, range: slice) -> Array:
        """
        The values selected by a slice: a zero-copy Array for a step of 1, a copy of the selected values for any other step.
        """

    def __iter__(self) -> Iterator[Any]:
        """Iterates over the values as Python objects (see ``to_pylist``)."""

    def slice(self, offset: int = 0, length: int | None = None) -> Array:
        """A zero-copy slice of ``length`` values (to the end by default)."""

    def buffer_addresses(self) -> list[int | None]:
        """
        The address of each of the array's own buffers (None for an absent one), in Arrow's order: validity first, then the type's buffers (and a view type's data buffers).
        """

    def validate(self, full: bool = False) -> None:
        """
        Checks the array's structure (every value too when ``full``); raises ValueError naming the problem.
        """

    def equals(self, other: Array) -> bool:
        """Whether both arrays have the same type and values."""

    def __eq__(self, other: object, /) -> bool: ...

    def to_string(self) -> str:
        """The values, pretty-printed."""

    def __repr__(self) -> str: ...

    def __arrow_c_array__(self, requested_schema: CapsuleType | None = None) -> tuple[CapsuleType, CapsuleType]:
        """
        Exports the array as a pair of PyCapsules (ArrowSchema, ArrowArray), zero-copy. ``requested_schema`` (a PyCapsule holding an ArrowSchema, or None) is honoured when it describes the data as it is (metadata may differ); bowstring does not convert data on export, so any other request raises NotImplementedError.
        """

    __hash__: None  # type: ignore[assignment]

class ChunkedArray:
    """
    A column made of several arrays of one type. Construct one from any object exposing ``__arrow_c_stream__`` or ``__arrow_c_array__``.
    """

    def __init__(self, source: bowstring._protocols.ArrowArrayLike) -> None: ...

    @property
    def type(self) -> DataType: ...

    @property
    def null_count(self) -> int: ...

    @property
    def num_chunks(self) -> int: ...

    @property
    def chunks(self) -> list[Array]: ...

    def chunk(self, i: int) -> Array: ...

    def __len__(self) -> int: ...

    def to_pylist(self) -> list[Any]:
        """
        The values of every chunk as Python objects, as ``Array.to_pylist`` gives them.
        """

    @overload
    def __getitem__(self, index: int) -> Any:
        """
        Value ``index`` as a Python object (negative indices count from the end).
        """

    @overload
    def __getitem__(self, range: slice) -> ChunkedArray:
        """
        The values selected by a slice: zero-copy for a step of 1, a copy of the selected values in one chunk for any other step.
        """

    def slice(self, offset: int = 0, length: int | None = None) -> ChunkedArray:
        """A zero-copy slice of ``length`` values (to the end by default)."""

    def __iter__(self) -> Iterator[Any]:
        """Iterates over the values as Python objects."""

    def equals(self, other: ChunkedArray) -> bool: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __repr__(self) -> str: ...

    def __arrow_c_stream__(self, requested_schema: CapsuleType | None = None) -> CapsuleType:
        """
        Exports the chunks as a PyCapsule holding an ArrowArrayStream. ``requested_schema`` (a PyCapsule holding an ArrowSchema, or None) is honoured when it describes the data as it is (metadata may differ); bowstring does not convert data on export, so any other request raises NotImplementedError.
        """

    __hash__: None  # type: ignore[assignment]

class RecordBatch:
    """
    Equal-length columns described by a schema. Construct one from any object exposing ``__arrow_c_array__`` (a struct array, zero-copy) or ``__arrow_c_stream__`` (batches are combined into one).
    """

    def __init__(self, source: bowstring._protocols.ArrowArrayLike) -> None: ...

    @property
    def num_rows(self) -> int: ...

    @property
    def num_columns(self) -> int: ...

    @property
    def column_names(self) -> list[str]: ...

    @property
    def schema(self) -> Schema: ...

    @property
    def columns(self) -> list[Array]: ...

    @overload
    def column(self, i: int) -> Array:
        """Column ``i`` (negative indices count from the end)."""

    @overload
    def column(self, name: str) -> Array:
        """The column named exactly ``name``."""

    def __len__(self) -> int: ...

    @overload
    def __getitem__(self, i: int) -> Array:
        """Column ``i`` (negative indices count from the end)."""

    @overload
    def __getitem__(self, name: str) -> Array:
        """The column named exactly ``name``."""

    @overload
    def __getitem__(self, range: slice) -> RecordBatch:
        """The rows of a slice (of step 1), zero-copy."""

    def to_pydict(self) -> dict[str, list[Any]]:
        """The columns as a dict of column name to a list of Python values."""

    def to_pylist(self) -> list[dict[str, Any]]:
        """The rows as a list of dicts of column name to Python value."""

    def slice(self, offset: int = 0, length: int | None = None) -> RecordBatch: ...

    def validate(self, full: bool = False) -> None: ...

    def equals(self, other: RecordBatch, check_metadata: bool = False) -> bool: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __repr__(self) -> str: ...

    def __arrow_c_schema__(self) -> CapsuleType: ...

    def __arrow_c_array__(self, requested_schema: CapsuleType | None = None) -> tuple[CapsuleType, CapsuleType]:
        """
        Exports the batch as a pair of PyCapsules (ArrowSchema, ArrowArray of a struct), zero-copy. ``requested_schema`` (a PyCapsule holding an ArrowSchema, or None) is honoured when it describes the data as it is (metadata may differ); bowstring does not convert data on export, so any other request raises NotImplementedError.
        """

    def __arrow_c_stream__(self, requested_schema: CapsuleType | None = None) -> CapsuleType:
        """Exports the batch as a one-batch PyCapsule stream (ArrowArrayStream)."""

    __hash__: None  # type: ignore[assignment]

class Table:
    """
    Columns of equal length, each made of chunks. Construct one from any object exposing ``__arrow_c_stream__`` (a pyarrow Table or RecordBatchReader, for one; the stream is read to its end) or ``__arrow_c_array__``, zero-copy.
    """

    def __init__(self, source: bowstring._protocols.ArrowArrayLike) -> None: ...

    @property
    def num_rows(self) -> int: ...

    @property
    def num_columns(self) -> int: ...

    @property
    def column_names(self) -> list[str]: ...

    @property
    def schema(self) -> Schema: ...

    @property
    def columns(self) -> list[ChunkedArray]: ...

    @overload
    def column(self, i: int) -> ChunkedArray:
        """Column ``i`` as a ChunkedArray (negative indices count from the end)."""

    @overload
    def column(self, name: str) -> ChunkedArray:
        """The column named exactly ``name``, as a ChunkedArray."""

    def __len__(self) -> int: ...

    @overload
    def __getitem__(self, i: int) -> ChunkedArray:
        """Column ``i`` as a ChunkedArray (negative indices count from the end)."""

    @overload
    def __getitem__(self, name: str) -> ChunkedArray:
        """The column named exactly ``name``, as a ChunkedArray."""

    @overload
    def __getitem__(self, range: slice) -> Table:
        """The rows of a slice (of step 1), zero-copy."""

    def to_pydict(self) -> dict[str, list[Any]]:
        """The columns as a dict of column name to a list of Python values."""

    def to_pylist(self) -> list[dict[str, Any]]:
        """The rows as a list of dicts of column name to Python value."""

    def slice(self, offset: int = 0, length: int | None = None) -> Table: ...

    def validate(self, full: bool = False) -> None: ...

    def equals(self, other: Table, check_metadata: bool = False) -> bool: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __repr__(self) -> str: ...

    def __arrow_c_schema__(self) -> CapsuleType: ...

    def to_batches(self, max_chunksize: int | None = None) -> list[RecordBatch]:
        """
        The rows as zero-copy record batches of at most ``max_chunksize`` rows each.
        """

    def to_reader(self, max_chunksize: int | None = None) -> RecordBatchReader:
        """A RecordBatchReader over the table's batches."""

    def combine_chunks(self) -> Table:
        """The table with every column in at most one chunk."""

    def __arrow_c_stream__(self, requested_schema: CapsuleType | None = None) -> CapsuleType:
        """
        Exports the table's batches as a PyCapsule holding an ArrowArrayStream, zero-copy. ``requested_schema`` (a PyCapsule holding an ArrowSchema, or None) is honoured when it describes the data as it is (metadata may differ); bowstring does not convert data on export, so any other request raises NotImplementedError.
        """

    __hash__: None  # type: ignore[assignment]

class RecordBatchReader:
    """
    A single-use stream of record batches. Construct one from any object exposing ``__arrow_c_stream__`` or from an 'arrow_array_stream' PyCapsule; batches are imported one at a time as they are read. Threads may share a reader: they take turns, and one waiting for its turn does not hold the GIL, even when it is a consumer of the exported stream.
    """

    def __init__(self, source: bowstring._protocols.ArrowStreamExportable | CapsuleType) -> None: ...

    @property
    def schema(self) -> Schema: ...

    @property
    def closed(self) -> bool:
        """Whether the reader was handed over through ``__arrow_c_stream__``."""

    def read_next_batch(self) -> RecordBatch:
        """The next batch; raises StopIteration at the end of the stream."""

    def read_all(self) -> Table:
        """Every remaining batch, as a Table."""

    def __iter__(self) -> RecordBatchReader: ...

    def __next__(self) -> RecordBatch: ...

    def __repr__(self) -> str: ...

    def __arrow_c_schema__(self) -> CapsuleType: ...

    def __arrow_c_stream__(self, requested_schema: CapsuleType | None = None) -> CapsuleType:
        """
        Hands the reader over as a PyCapsule holding an ArrowArrayStream; this reader is closed afterwards. ``requested_schema`` (a PyCapsule holding an ArrowSchema, or None) is honoured when it describes the data as it is (metadata may differ); bowstring does not convert data on export, so any other request raises NotImplementedError.
        """

_ipc: ModuleType

_udf: ModuleType

_compute: ModuleType

def _compute_filter(values: object, mask: object) -> Array:
    """
    The rows of ``values`` where the boolean ``mask`` is true; null mask rows are dropped.
    """

def _compute_take(values: object, indices: object) -> Array:
    """
    Row ``indices[i]`` of ``values`` for each i; a null index gives a null row.
    """

def _compute_sort_indices(keys: list, ascending: Sequence[bool], nulls_first: Sequence[bool | None]) -> Array:
    """
    The row numbers of ``keys`` in sorted order (uint64), stable, in Spark's value order.
    """

def _compute_top_n(keys: list, ascending: Sequence[bool], nulls_first: Sequence[bool | None], n: int) -> Array:
    """
    The first ``n`` row numbers of ``_compute_sort_indices`` without sorting every row.
    """

def parse_spark_type(text: str, session_time_zone: str) -> DataType:
    """
    Reads one Spark data type such as 'map<string, array<int>>' (as DataType.fromDDL reads a type); TIMESTAMP is in `session_time_zone`. Raises bowstring.errors.ParseException naming the position and the token.
    """

def parse_spark_schema(text: str, session_time_zone: str) -> Schema:
    """
    Reads a DDL column list such as 'id bigint NOT NULL, tags array<string>' (as StructType.fromDDL does); TIMESTAMP is in `session_time_zone`. Raises bowstring.errors.ParseException naming the position and the token.
    """

def spark_simple_string(type: object) -> str:
    """
    Spark's short name of a data type (DataType.simpleString): 'bigint', 'array<int>', 'struct<a:int,b:string>'. Takes any object exposing __arrow_c_schema__.
    """

def spark_schema_ddl(schema: object) -> str:
    """
    Spark's DDL of a schema's columns (StructType.toDDL): 'a INT NOT NULL,b STRING'. Takes any object exposing __arrow_c_schema__.
    """

def read_csv(paths: Sequence[str], options: Mapping[str, str], schema: str | bowstring._protocols.ArrowSchemaExportable | None = None, columns: Sequence[int] | None = None) -> RecordBatchReader:
    """
    Reads CSV files with Spark's options (string keys, case-insensitive, and values) as a RecordBatchReader (`__arrow_c_stream__`). `schema` is a DDL string or an Arrow schema (None: from the header, inferred with inferSchema); `columns` picks the schema's columns by index. Raises ValueError for a bad option or a malformed record in FAILFAST mode, OSError for a file that cannot be read.
    """

def write_csv(stream: bowstring._protocols.ArrowStreamExportable | bowstring._protocols.ArrowArrayLike, path: str, options: Mapping[str, str]) -> None:
    """
    Writes the batches of `stream` (any `__arrow_c_stream__` or `__arrow_c_array__` exporter) to a new CSV file at `path` with Spark's writer options (header, sep, quote, escape, quoteAll, escapeQuotes, nullValue, emptyValue, dateFormat, timestampFormat, lineSep, compression).
    """

__version__: str
