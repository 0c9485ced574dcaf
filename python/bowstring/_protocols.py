"""The Arrow PyCapsule interface as typing protocols, for the annotations of the package.

An object is Arrow data to Bowstring when it has one of these methods (pyarrow, Polars, DuckDB
and Bowstring objects do); the capsules they return are opaque ``PyCapsule`` objects, typed as
``object``.
"""

from __future__ import annotations

from typing import Optional, Protocol, Tuple, Union, runtime_checkable

__all__ = [
    "ArrowArrayExportable",
    "ArrowArrayLike",
    "ArrowSchemaExportable",
    "ArrowStreamExportable",
]


@runtime_checkable
class ArrowSchemaExportable(Protocol):
    """A type, field or schema: ``__arrow_c_schema__`` returns an 'arrow_schema' capsule."""

    def __arrow_c_schema__(self) -> object: ...


@runtime_checkable
class ArrowArrayExportable(Protocol):
    """An array or record batch: ``__arrow_c_array__`` returns ('arrow_schema', 'arrow_array')
    capsules."""

    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...


@runtime_checkable
class ArrowStreamExportable(Protocol):
    """A chunked array, table or reader: ``__arrow_c_stream__`` returns an
    'arrow_array_stream' capsule."""

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...


#: What the functions taking columns accept: anything exposing either export.
ArrowArrayLike = Union[ArrowArrayExportable, ArrowStreamExportable]
