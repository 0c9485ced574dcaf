"""Bowstring: a data-processing engine whose in-memory format is Apache Arrow.

The data classes exchange data with any Arrow library (pyarrow, Polars, DuckDB...) through the
Arrow PyCapsule interface, without copying: ``bowstring.Table(pyarrow_table)`` imports,
``pyarrow.table(bowstring_table)`` exports. ``bowstring.ipc`` reads and writes Arrow IPC streams
and files. ``bowstring.udf`` runs Python functions over Arrow data in pooled worker processes;
``bowstring.errors`` holds the exceptions they raise. ``bowstring.compute`` calls the engine's
vectorized functions by their Spark SQL names.
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

__all__ = sorted(_CORE_NAMES | _SUBMODULES)


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
