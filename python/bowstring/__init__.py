"""Bowstring: a data-processing engine whose in-memory format is Apache Arrow.

The data classes exchange data with any Arrow library (pyarrow, Polars, DuckDB...) through the
Arrow PyCapsule interface, without copying: ``bowstring.Table(pyarrow_table)`` imports,
``pyarrow.table(bowstring_table)`` exports. ``bowstring.ipc`` reads and writes Arrow IPC streams
and files.
"""

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
from bowstring import ipc

__all__ = [
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
    "ipc",
]
