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

def read(format: str, paths: Sequence[str], options: Mapping[str, str] = {}, schema: str | bowstring._protocols.ArrowSchemaExportable | None = None, session_time_zone: str = 'UTC') -> LogicalPlan:
    """
    A plan reading the files of `paths` in `format` ('csv', 'arrow') with Spark's reader options, as spark.read.format(format).options(...).load(paths): paths are files, folders (listed recursively, '_' and '.' names skipped) or globs; name=value folders become partition columns typed as Spark infers them (options basePath, recursiveFileLookup). `schema` is a DDL string or an Arrow schema (None: from the files). Filters on partition columns prune files before any is opened; the files are read in byte ranges on every thread. Raises AnalysisException (PATH_NOT_FOUND, DATA_SOURCE_NOT_FOUND) and ValueError for a bad option.
    """

def write(plan: LogicalPlan, format: str, path: str, mode: str = 'errorifexists', partition_by: Sequence[str] = [], options: Mapping[str, str] = {}, morsel_rows: int = 65536, threads: int = 0) -> None:
    """
    Runs `plan` and writes its rows to the folder `path` in `format` as df.write.format(format).mode(mode).partitionBy(*partition_by).save(path) does: part-NNNNN-<uuid>-c000.<ext> files (name=value folders for `partition_by`) and _SUCCESS. Modes: 'error'/'errorifexists' (raises AnalysisException PATH_ALREADY_EXISTS when `path` exists), 'append', 'overwrite', 'ignore'. The files are written beside `path` and moved into place only when the query succeeded: a failure or Ctrl-C leaves `path` as it was.
    """

def read_csv(paths: Sequence[str], options: Mapping[str, str], schema: str | bowstring._protocols.ArrowSchemaExportable | None = None, columns: Sequence[int] | None = None) -> RecordBatchReader:
    """
    Reads CSV files with Spark's options (string keys, case-insensitive, and values) as a RecordBatchReader (`__arrow_c_stream__`). `schema` is a DDL string or an Arrow schema (None: from the header, inferred with inferSchema); `columns` picks the schema's columns by index. Raises ValueError for a bad option or a malformed record in FAILFAST mode, OSError for a file that cannot be read.
    """

def write_csv(stream: bowstring._protocols.ArrowStreamExportable | bowstring._protocols.ArrowArrayLike, path: str, options: Mapping[str, str]) -> None:
    """
    Writes the batches of `stream` (any `__arrow_c_stream__` or `__arrow_c_array__` exporter) to a new CSV file at `path` with Spark's writer options (header, sep, quote, escape, quoteAll, escapeQuotes, nullValue, emptyValue, dateFormat, timestampFormat, lineSep, compression).
    """

class Expression:
    """
    An unresolved expression of the query engine: column references by name, literals, function calls by Spark name, casts, CASE WHEN, IN, null tests and boolean logic. Immutable; str() is its Spark SQL text.
    """

    @staticmethod
    def col(name: str) -> Expression:
        """
        A column by name, matched case-insensitively; dots reach struct fields ('address.city') or the columns of an aliased relation ('l.id'); '*' and 't.*' stand for every column in a select.
        """

    @staticmethod
    def lit(value: object | None) -> Expression:
        """
        A literal, typed as Spark types literals: None is NULL (of the null type), bool BOOLEAN, int INT when it fits (else BIGINT), float DOUBLE, str STRING, bytes BINARY, decimal.Decimal DECIMAL of its digits and scale, datetime.date DATE, a datetime with a time zone TIMESTAMP (in UTC) and one without TIMESTAMP_NTZ. An Arrow array of one value (__arrow_c_array__) gives a literal of its type. Raises TypeError for other values, ValueError for an int outside BIGINT or a decimal of more than 38 digits.
        """

    @staticmethod
    def call(name: str, arguments: Sequence[Expression], options: dict | None = None) -> Expression:
        """
        A call of the function registered as `name` (Spark's name, operators by their symbol: '+', '=', '<=>'), resolved when the plan is analysed. `options` maps option names to bool, int, float, str or data type values.
        """

    @staticmethod
    def case_when(branches: Sequence[tuple[Expression, Expression]], otherwise: Expression | None = None) -> Expression:
        """
        CASE WHEN c1 THEN v1 ... ELSE otherwise END over (condition, value) pairs; without `otherwise` rows matching no condition are null.
        """

    def cast(self, type: object, session_time_zone: str = 'UTC') -> Expression:
        """
        CAST(self AS type): `type` is a Spark type name ('int', 'decimal(10,2)', 'array<string>'; TIMESTAMP in `session_time_zone`) or any object with __arrow_c_schema__. ANSI casts raise on values that do not convert. Raises bowstring.errors.ParseException for a type name that does not parse.
        """

    def try_cast(self, type: object, session_time_zone: str = 'UTC') -> Expression:
        """
        TRY_CAST(self AS type): as cast, but values that do not convert become null.
        """

    def alias(self, name: str) -> Expression:
        """self AS name: names the output column."""

    def isin(self, values: Sequence[Expression]) -> Expression:
        """
        self IN (values...), with Spark's nulls: null when nothing matches and self or a value is null.
        """

    def is_null(self) -> Expression:
        """self IS NULL."""

    def is_not_null(self) -> Expression:
        """self IS NOT NULL."""

    def and_(self, other: Expression) -> Expression:
        """self AND other, three-valued."""

    def or_(self, other: Expression) -> Expression:
        """self OR other, three-valued."""

    def not_(self) -> Expression:
        """NOT self, three-valued."""

    @property
    def output_name(self) -> str:
        """
        The name Spark gives the column the expression produces: its alias, the column's name, or its SQL text ('(a + 1)').
        """

    def __str__(self) -> str: ...

    def __repr__(self) -> str: ...

class LogicalPlan:
    """
    A logical plan of the query engine, built as the DataFrame API reads: each builder returns a new plan over this one. Names are resolved when the plan is analysed (analyzed(), explain(), execute()), which raises bowstring.errors.AnalysisException with Spark's conditions (UNRESOLVED_COLUMN with suggestions, AMBIGUOUS_REFERENCE, MISSING_AGGREGATION, DATATYPE_MISMATCH...). str() is its tree.
    """

    @staticmethod
    def from_arrow(data: object) -> LogicalPlan:
        """
        The rows of an Arrow object (anything with __arrow_c_stream__ or __arrow_c_array__: a pyarrow Table or RecordBatch, a bowstring Table...), read into memory without copying.
        """

    @staticmethod
    def range(start: int, end: int, step: int = 1, num_partitions: int = 0) -> LogicalPlan:
        """
        The BIGINT column `id` from `start` to `end` (exclusive) by `step`, in `num_partitions` partitions (0: the engine decides).
        """

    def select(self, expressions: Sequence[Expression]) -> LogicalPlan:
        """The columns computed by `expressions` over each row."""

    def filter(self, condition: Expression) -> LogicalPlan:
        """The rows where the BOOLEAN `condition` is true."""

    def aggregate(self, keys: Sequence[Expression], outputs: Sequence[Expression]) -> LogicalPlan:
        """
        Groups by `keys` (none: one group of every row) and computes `outputs`, which mix aggregate calls and expressions of the keys.
        """

    def sort(self, orders: Sequence[tuple[Expression, bool, bool | None]]) -> LogicalPlan:
        """
        The rows ordered by (expression, ascending, nulls_first) keys; nulls_first None is Spark's default (first when ascending, last when descending).
        """

    def limit(self, limit: int, offset: int = 0) -> LogicalPlan:
        """
        At most `limit` rows (-1: every row) after skipping `offset`. Raises ValueError for a limit below -1 or a negative offset.
        """

    def union(self, others: Sequence[LogicalPlan], by_name: bool = False, allow_missing_columns: bool = False) -> LogicalPlan:
        """
        UNION ALL of this plan and `others`, by position, or by name (then `allow_missing_columns` fills the columns a side lacks with nulls).
        """

    def join(self, other: LogicalPlan, condition: Expression | None = None, how: str = 'inner') -> LogicalPlan:
        """
        This plan's rows paired with `other`'s where `condition` holds (None: every pair), by the join type `how` names as PySpark does ('inner', 'left', 'right', 'full', 'semi', 'anti', 'cross'...). Columns both sides have are ambiguous unless qualified through alias(). Raises AnalysisException (UNSUPPORTED_JOIN_TYPE) for another `how`.
        """

    def distinct(self) -> LogicalPlan:
        """The distinct rows."""

    def alias(self, name: str) -> LogicalPlan:
        """This plan with its columns qualified by `name` ('name.column')."""

    def analyzed(self) -> LogicalPlan:
        """The resolved plan: names bound to attributes, types checked."""

    def optimized(self) -> LogicalPlan:
        """The resolved plan rewritten by the optimizer's rules."""

    def schema(self) -> Schema:
        """The schema of the plan's results (analysing it)."""

    def tree_string(self) -> str:
        """
        The plan as Spark prints logical plans: one node per line, unresolved ones quoted.
        """

    def explain(self, mode: str = 'simple') -> str:
        """
        The plan as Spark's explain prints it: 'simple' the physical plan under '== Physical Plan ==', 'extended' the parsed, analysed (with its output columns), optimized and physical plans. Raises ValueError for another mode.
        """

    def __str__(self) -> str: ...

def execute(plan: LogicalPlan, morsel_rows: int = 65536, threads: int = 0, memory_limit: int | None = None) -> Table:
    """
    Analyses, optimizes and runs `plan` on the process-wide thread pool, in morsels of `morsel_rows` rows on at most `threads` threads (0: the whole pool), and returns every row of the result as a bowstring.Table (pyarrow.table() takes it without copying). The GIL is released while the query runs; Ctrl-C (SIGINT) cancels it and raises KeyboardInterrupt. With `memory_limit` (bytes) the query's memory is budgeted: passing the budget raises MemoryError naming the operator, and the result's buffers keep the budget alive. Raises AnalysisException for a plan that does not resolve, ArithmeticException and the other Spark errors at run time.
    """

__version__: str
