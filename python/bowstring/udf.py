"""Python functions run over Arrow data in a pool of worker processes, as PySpark runs
``mapInArrow``, ``mapInPandas``, pandas UDFs and Python UDFs in its Python workers.

The function is pickled with cloudpickle and shipped to ``python -m bowstring.worker``
processes, which receive the data as Arrow record batches (through a Unix socket or shared
memory), call the function, and send its results back. The data is cut into partitions that run
on several workers at once; results come back in input order.

Examples
--------
>>> import pyarrow as pa
>>> import pyarrow.compute as pc
>>> from bowstring import udf
>>> table = pa.table({"id": [1, 2, 3], "v": [1.0, 2.0, 3.0]})
>>> def double(batches):
...     for batch in batches:
...         yield batch.set_column(1, "v", pc.multiply(batch.column("v"), 2))
>>> pa.table(udf.map_batches(double, table)).column("v").to_pylist()
[2.0, 4.0, 6.0]
>>> def plus_one(v):
...     return v + 1
>>> result = udf.map_batches(plus_one, table.select(["v"]), kind="pandas_series",
...                          schema="v double")
>>> pa.table(result).column("v").to_pylist()
[2.0, 3.0, 4.0]
"""

from __future__ import annotations

import atexit
import math
import os
import sys
import threading
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Dict, List, Mapping, Optional, Type, Union

import cloudpickle
import pyarrow as pa

from bowstring._core import _udf
from bowstring._core import parse_spark_schema, parse_spark_type, thread_pool_size
from bowstring._protocols import ArrowArrayLike, ArrowSchemaExportable
from bowstring.errors import ParseException

__all__ = ["RunResult", "WorkerPool", "map_batches", "shutdown"]

#: The results of :func:`map_batches`: a single-use stream of record batches (see its
#: docstring), readable by iteration, ``read_all()`` or any Arrow library through
#: ``__arrow_c_stream__``, with ``cancel()`` and ``metrics``.
RunResult = _udf.RunResult

#: The kinds of function :func:`map_batches` runs.
KINDS = ("arrow", "pandas", "pandas_series", "pandas_series_iter", "rows")
# Kinds whose results are built from values rather than tables, so the result columns cannot
# be taken from the input.
_KINDS_NEEDING_A_SCHEMA = ("pandas_series", "rows")

# The directory holding the bowstring package: workers import this same package from it.
_PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)


def _running_python_version() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def _worker_environment(environment: Optional[Mapping[str, str]]) -> Dict[str, str]:
    """``environment`` with the bowstring package's parent directory prepended to the
    ``PYTHONPATH`` it sets, or else to the one this process has."""
    merged = dict(environment or {})
    existing = merged.get("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    merged["PYTHONPATH"] = os.pathsep.join(p for p in (_PACKAGE_PARENT, existing) if p)
    return merged


class WorkerPool:
    """A pool of Python worker processes, forked on demand from one fork server and reused
    across calls. Use it as a context manager, or call :meth:`close` when done.

    Parameters
    ----------
    max_workers : int, optional
        Workers alive at once; a call that needs another waits for one to be free. Defaults to
        :func:`bowstring.thread_pool_size`: the CPUs this process may use (its affinity mask
        and cgroup quota), or ``BOWSTRING_THREADS``.
    python_executable : str, optional
        The interpreter that runs the workers. Defaults to ``sys.executable``; it must be able
        to import pyarrow, pandas and cloudpickle.
    environment : dict, optional
        Variables set for the workers on top of this process's environment. The directory
        holding this bowstring package is prepended to their ``PYTHONPATH``, so that workers
        import the same package.
    reuse_workers : bool, default True
        Keep a worker after a call for the next one (``spark.python.worker.reuse``); when False
        every call gets a fresh worker.
    idle_timeout : float, default 60.0
        Seconds after which an idle worker is stopped.
    memory_limit : int, default 0
        Bytes each worker may allocate beyond its start-up size
        (``spark.executor.pyspark.memory``); more raises ``MemoryError`` in the function.
        0 means no limit.
    expected_python_version : str, optional
        ``"major.minor"`` every worker's Python must have, because a function pickled by one
        Python version cannot be loaded by another. Defaults to this interpreter's version;
        an empty string accepts any.

    A process forked from the one that started a pool (multiprocessing's ``fork`` start
    method, a pre-forking server) cannot use it: its methods raise ``ValueError`` there, and
    closing or dropping it there leaves the parent's workers, fork server and socket alone. The
    default pool of :func:`map_batches` is replaced by a new one in such a process.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from bowstring import udf
    >>> with udf.WorkerPool(max_workers=2, memory_limit=1 << 30) as pool:
    ...     result = udf.map_batches(lambda batches: batches, pa.table({"x": [1]}), pool=pool)
    ...     pa.table(result).num_rows
    1
    """

    def __init__(
        self,
        max_workers: Optional[int] = None,
        *,
        python_executable: Optional[str] = None,
        environment: Optional[Mapping[str, str]] = None,
        reuse_workers: bool = True,
        idle_timeout: float = 60.0,
        memory_limit: int = 0,
        expected_python_version: Optional[str] = None,
    ) -> None:
        self._pool = _udf.WorkerPool(
            python_executable=python_executable or sys.executable,
            environment=_worker_environment(environment),
            max_workers=max_workers if max_workers is not None else thread_pool_size(),
            reuse_workers=reuse_workers,
            idle_timeout=idle_timeout,
            memory_limit=memory_limit,
            expected_python_version=(
                _running_python_version()
                if expected_python_version is None
                else expected_python_version
            ),
        )

    def close(self) -> None:
        """Stops the workers and the fork server. Runs still reading results fail. Calling it
        again does nothing. In a forked process it only drops this process's reference."""
        self._pool.close()

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._pool.closed

    @property
    def max_workers(self) -> int:
        """Workers alive at once, at most."""
        return self._pool.max_workers

    @property
    def stats(self) -> Dict[str, int]:
        """Counters: ``workers_started``, ``workers_alive``, ``workers_idle``,
        ``workers_failed`` and ``connections_rejected``."""
        return self._pool.stats

    @property
    def socket_path(self) -> str:
        """The Unix socket workers connect to (mode 0600, in a private directory)."""
        return self._pool.socket_path

    @property
    def fork_server_pid(self) -> int:
        """The process id of the fork server, the parent of every worker."""
        return self._pool.fork_server_pid

    @property
    def worker_pids(self) -> List[int]:
        """The process ids of the workers alive."""
        return self._pool.worker_pids

    def __repr__(self) -> str:
        if self.closed:
            return "WorkerPool(closed)"
        return f"WorkerPool(max_workers={self.max_workers}, stats={self.stats})"


_default_pool: Optional[WorkerPool] = None
_default_pool_lock = threading.Lock()


def _pool_for(workers: Optional[int]) -> WorkerPool:
    """The process-wide default pool, started on first use with ``max(thread_pool_size(), workers)``
    workers, and replaced by a larger one when a call asks for more workers than it has. The
    old one is not closed: runs still using it keep it alive, and it stops after the last."""
    global _default_pool
    with _default_pool_lock:
        wanted = max(thread_pool_size(), workers or 0)
        if _default_pool is None or _default_pool.closed or _default_pool.max_workers < wanted:
            _default_pool = WorkerPool(max_workers=wanted)
        return _default_pool


def shutdown() -> None:
    """Stops the process-wide default pool, if it was started; the next call to
    :func:`map_batches` without ``pool`` starts a new one. Also run at interpreter exit."""
    global _default_pool
    with _default_pool_lock:
        if _default_pool is not None:
            _default_pool.close()
            _default_pool = None


atexit.register(shutdown)


def _forget_the_parents_pool() -> None:
    """Runs in a process just forked from this one: the default pool is the parent's (its
    threads did not survive the fork, its workers serve the parent), so the child starts its own
    on first use; the parent's is left alone (see WorkerPool's fork notes). The lock is new as
    well: another thread may have held it at the fork."""
    global _default_pool, _default_pool_lock
    _default_pool = None
    _default_pool_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_the_parents_pool)


def _known_row_count(data: Any) -> Optional[int]:
    """The rows of ``data`` when it knows them without being read (a table or a batch)."""
    num_rows = getattr(data, "num_rows", None)
    if isinstance(num_rows, int):
        return num_rows
    try:
        return len(data)
    except TypeError:
        return None


def _partition_rows(rows: Optional[int], workers: int, batch_size: int) -> int:
    """Rows per partition spreading ``rows`` evenly over ``workers`` in whole batches; 0 (the
    engine's default) when the row count is unknown."""
    if not rows:
        return 0
    per_worker = math.ceil(rows / workers)
    return math.ceil(per_worker / batch_size) * batch_size


def _function_name(function: Callable[..., Any]) -> str:
    name = getattr(function, "__qualname__", None) or getattr(function, "__name__", None)
    return name if isinstance(name, str) and name else type(function).__name__


def _output_schema(
    schema: Any, kind: str, function: Callable[..., Any], session_time_zone: str
) -> Any:
    """The output schema as an object exposing ``__arrow_c_schema__``, or None for "the
    input's"."""
    if schema is None:
        if kind in _KINDS_NEEDING_A_SCHEMA:
            raise ValueError(
                f"map_batches(kind={kind!r}) needs a schema: the function returns values, "
                f"not tables, so the result columns must be declared, for example "
                f'schema="result double"'
            )
        return None
    if isinstance(schema, str):
        try:
            return parse_spark_schema(schema, session_time_zone)
        except ParseException as schema_error:
            # A bare data type ("double") names one column after the function, as PySpark's
            # return types do.
            try:
                data_type = parse_spark_type(schema, session_time_zone)
            except ParseException:
                raise schema_error from None
            name = getattr(function, "__name__", "value")
            return pa.schema([pa.field(data_type).with_name(name)])
    if hasattr(schema, "__arrow_c_schema__"):
        return schema
    raise TypeError(
        'schema must be a DDL string such as "id long, v double" or an object exposing '
        f"__arrow_c_schema__ (a pyarrow.Schema), got {type(schema).__name__}"
    )


def _config_strings(config: Optional[Mapping[str, object]]) -> Dict[str, str]:
    """Settings as the strings Spark configurations hold (``True`` as ``"true"``)."""
    out: Dict[str, str] = {}
    for key, value in (config or {}).items():
        out[str(key)] = str(value).lower() if isinstance(value, bool) else str(value)
    return out


def map_batches(
    function: Callable[..., object],
    data: ArrowArrayLike,
    kind: str = "arrow",
    schema: Union[str, ArrowSchemaExportable, None] = None,
    workers: Optional[int] = None,
    batch_size: int = 10000,
    *,
    pool: Optional[WorkerPool] = None,
    timeout: Optional[float] = None,
    transport: Optional[str] = None,
    session_time_zone: str = "UTC",
    partition_rows: Optional[int] = None,
    config: Optional[Mapping[str, object]] = None,
) -> RunResult:
    """Runs a Python function over ``data`` in worker processes and returns its results as a
    stream of record batches.

    The kinds follow PySpark's Python functions:

    ======================  ==========================================  =====================
    kind                    the function receives                        as PySpark's
    ======================  ==========================================  =====================
    ``arrow``               an iterator of ``pyarrow.RecordBatch``;      ``mapInArrow``
                            yields batches (or tables)
    ``pandas``              an iterator of ``pandas.DataFrame``;         ``mapInPandas``
                            yields DataFrames
    ``pandas_series``       one ``pandas.Series`` per input column;      Series to Series
                            returns a Series as long as its input        ``pandas_udf``
                            (a DataFrame for several output columns)
    ``pandas_series_iter``  an iterator of tuples of Series (a bare      Iterator of Series
                            Series for one column); yields one result    ``pandas_udf``
                            per input batch
    ``rows``                the values of one row, one argument per      ``udf``
                            column; returns one value (a tuple, dict or
                            list for several output columns)
    ======================  ==========================================  =====================

    Values are converted as PySpark's Arrow conversions do: timestamps with a time zone are
    shown in ``session_time_zone``, decimals are ``decimal.Decimal``, lists and maps are lists
    and dicts (numpy arrays inside pandas), nulls ``None`` (``NaN`` in pandas float columns).

    Parameters
    ----------
    function : callable
        The function; it is pickled with cloudpickle, so closures and lambdas work.
    data : object exposing ``__arrow_c_stream__`` or ``__arrow_c_array__``
        A pyarrow Table, RecordBatch or RecordBatchReader, a ``bowstring.Table``, a pandas
        DataFrame... A stream is read as the workers need it.
    kind : str, default "arrow"
        One of ``"arrow"``, ``"pandas"``, ``"pandas_series"``, ``"pandas_series_iter"``,
        ``"rows"``.
    schema : str or object exposing ``__arrow_c_schema__``, optional
        The schema of the results: a pyarrow Schema, or a DDL string such as
        ``"id long, v double"`` (a bare type such as ``"double"`` names the column after the
        function; ``timestamp`` is in ``session_time_zone``, ``timestamp_ntz`` is naive).
        Defaults to the input's schema for ``arrow``, ``pandas`` and ``pandas_series_iter``;
        required for ``pandas_series`` and ``rows``.
    workers : int, optional
        Workers used at once. Defaults to the pool's size.
    batch_size : int, default 10000
        Rows per input batch (``spark.sql.execution.arrow.maxRecordsPerBatch``).
    pool : WorkerPool, optional
        The pool to run in. Defaults to a process-wide pool started on first use with
        :func:`bowstring.thread_pool_size` workers (or ``workers``, when more); :func:`shutdown` stops it.
    timeout : float, optional
        Seconds each partition may take; a worker exceeding it is killed and the run fails
        with :class:`bowstring.errors.PythonWorkerError`.
    transport : str, optional
        ``"socket"`` (batches through the socket) or ``"shm"`` (through shared memory).
        Defaults to the faster on this platform.
    session_time_zone : str, default "UTC"
        The IANA time zone in which the function sees timestamps
        (``spark.sql.session.timeZone``).
    partition_rows : int, optional
        Rows per partition; an iterator function is called once per partition. Defaults, for
        data of known length, to its rows spread evenly over the workers in whole batches,
        and otherwise to 1,000,000.
    config : dict, optional
        More ``spark.*`` settings passed to the workers, as strings.

    Returns
    -------
    RunResult
        The results in input order, computed in the background: iterate over it, call
        ``read_all()``, or hand it to any Arrow library (``pyarrow.table(result)``) through
        ``__arrow_c_stream__``. ``cancel()`` stops the run from any thread; ``metrics`` holds
        its totals once read.

    Raises
    ------
    bowstring.errors.PythonException
        While reading: the function raised (the message carries its traceback) or returned
        results that do not match the schema.
    bowstring.errors.PythonWorkerError
        While reading: a worker died (signal, exit, memory), exceeded ``timeout``, or could not
        be started.
    bowstring.errors.CancelledError
        While reading: ``cancel()`` was called.

    Another library reading the results through ``__arrow_c_stream__`` raises its own
    exception instead (``pyarrow.lib.ArrowInvalid``, for one), with the same message.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from bowstring import udf
    >>> table = pa.table({"k": [1, 2], "v": [0.5, 1.5]})
    >>> def scale(frames):
    ...     for frame in frames:
    ...         frame["v"] = frame["v"] * 10
    ...         yield frame
    >>> pa.table(udf.map_batches(scale, table, kind="pandas")).column("v").to_pylist()
    [5.0, 15.0]
    >>> def add(k, v):
    ...     return k + v
    >>> result = udf.map_batches(add, table, kind="rows", schema="total double")
    >>> pa.table(result).column("total").to_pylist()
    [1.5, 3.5]
    """
    if not callable(function):
        raise TypeError(f"function must be callable, got {type(function).__name__}")
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}: expected one of {', '.join(map(repr, KINDS))}")
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if partition_rows is not None and partition_rows < 1:
        raise ValueError(f"partition_rows must be at least 1, got {partition_rows}")
    output_schema = _output_schema(schema, kind, function, session_time_zone)
    if pool is None:
        pool = _pool_for(workers)
    if partition_rows is None:
        partition_rows = _partition_rows(
            _known_row_count(data), workers or pool.max_workers, batch_size
        )
    return _udf.run_python(
        pool=pool._pool,
        data=data,
        name=_function_name(function),
        kind=kind,
        pickled=cloudpickle.dumps(function),
        output_schema=output_schema,
        max_records_per_batch=batch_size,
        parallelism=workers or 0,
        partition_rows=partition_rows,
        transport=transport,
        session_time_zone=session_time_zone,
        config=_config_strings(config),
        timeout=timeout,
    )
