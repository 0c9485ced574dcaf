"""Bowstring: a data-processing engine whose in-memory format is Apache Arrow.

The data classes exchange data with any Arrow library (pyarrow, Polars, DuckDB...) through the
Arrow PyCapsule interface, without copying: ``bowstring.Table(pyarrow_table)`` imports,
``pyarrow.table(bowstring_table)`` exports. ``bowstring.ipc`` reads and writes Arrow IPC streams
and files. ``bowstring.udf`` runs Python functions over Arrow data in pooled worker processes;
``bowstring.errors`` holds the exceptions they raise. ``bowstring.compute`` calls the engine's
vectorized functions by their Spark SQL names. ``bowstring.thread_pool_size()`` tells how many
threads parallel work runs on.
"""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from bowstring import compute, errors, ipc, udf
    from bowstring._core import (
        Array,
        ChunkedArray,
        DataType,
        Field,
        RecordBatch,
        RecordBatchReader,
        Schema,
        Table,
        __version__,
        allocator_stats,
    )

# The compiled extension is loaded on first use of one of its names, so that the pure-Python
# parts (the worker processes, `python -m bowstring.worker`) run where it is not built.
_CORE_NAMES = frozenset(
    {
        "Array",
        "ChunkedArray",
        "DataType",
        "Field",
        "RecordBatch",
        "RecordBatchReader",
        "Schema",
        "Table",
        "__version__",
        "allocator_stats",
    }
)
_SUBMODULES = frozenset({"compute", "errors", "ipc", "udf"})

__all__ = sorted(_CORE_NAMES | _SUBMODULES | {"thread_pool_size"})


def thread_pool_size() -> int:
    """Return the number of threads Bowstring runs parallel work on.

    One thread pool per process runs the engine's parallel work (grouped aggregation of large
    inputs, compression and decompression of large Arrow IPC bodies). It is created on first
    use with as many threads as the environment variable ``BOWSTRING_THREADS`` says, or, when
    that is unset or empty, as many as the CPUs this process may use: the CPUs of its affinity
    mask (``os.sched_getaffinity``), limited by the CPU quota of its cgroup (a container's CPU
    limit), at least 1. A process forked from one that used the pool gets a pool of its own.

    Returns
    -------
    int
        The size of the pool, at least 1.

    Raises
    ------
    ValueError
        If ``BOWSTRING_THREADS`` is not a whole number from 1 to 4096.

    Examples
    --------
    >>> import bowstring
    >>> bowstring.thread_pool_size() >= 1
    True
    """
    core = _importlib.import_module("bowstring._core")
    return int(core.thread_pool_size())


def __getattr__(name: str) -> object:
    if name in _CORE_NAMES:
        core = _importlib.import_module("bowstring._core")
        value = getattr(core, name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return _importlib.import_module(f"bowstring.{name}")
    raise AttributeError(f"module 'bowstring' has no attribute '{name}'")


def __dir__() -> _typing.List[str]:
    return sorted(set(globals()) | set(__all__))
