"""Vectorized functions with Spark SQL's semantics, called by their Spark names.

``call("+", a, b)`` runs the engine's kernel for ``a + b`` on Arrow data: pyarrow arrays and
chunked arrays, Bowstring arrays, any object exposing ``__arrow_c_array__`` or
``__arrow_c_stream__``, pyarrow scalars and plain Python values (which stand for the same value
in every row). Semantics are Spark 4's with ANSI mode on: integer overflow raises
``bowstring.errors.ArithmeticException``, a string that is not a number raises
``NumberFormatException`` when cast, and so on; ``ansi=False`` gives Spark's non-ANSI results.

Examples
--------
>>> import pyarrow as pa
>>> from bowstring import compute
>>> pa.array(compute.call("+", pa.array([1, 2, None]), 10)).to_pylist()
[11, 12, None]
"""

from __future__ import annotations

import datetime
import decimal
from typing import Any, Dict, List, Tuple

__all__ = ["call", "functions"]

_INT32_MIN = -(2**31)
_INT32_MAX = 2**31 - 1


def _scalar_array(value: Any) -> Any:
    """A pyarrow array of one value for a Python value or pyarrow scalar, typed as Spark types
    literals: ints as INT when they fit (else BIGINT), floats as DOUBLE, str as STRING."""
    import pyarrow as pa

    if isinstance(value, pa.Scalar):
        return pa.array([value.as_py()], type=value.type)
    if value is None:
        return pa.array([None], type=pa.null())
    if isinstance(value, bool):
        return pa.array([value], type=pa.bool_())
    if isinstance(value, int):
        if _INT32_MIN <= value <= _INT32_MAX:
            return pa.array([value], type=pa.int32())
        return pa.array([value], type=pa.int64())
    if isinstance(value, float):
        return pa.array([value], type=pa.float64())
    if isinstance(value, str):
        return pa.array([value], type=pa.string())
    if isinstance(value, (bytes, bytearray, memoryview)):
        return pa.array([bytes(value)], type=pa.binary())
    if isinstance(value, decimal.Decimal):
        return pa.array([value])
    if isinstance(value, datetime.datetime):
        unit_type = pa.timestamp("us", tz="UTC" if value.tzinfo is not None else None)
        return pa.array([value], type=unit_type)
    if isinstance(value, datetime.date):
        return pa.array([value], type=pa.date32())
    raise TypeError(
        f"cannot use a value of type {type(value).__name__!r} as a function argument: pass an "
        "Arrow array (an object with __arrow_c_array__ or __arrow_c_stream__), a pyarrow "
        "scalar, or a None, bool, int, float, str, bytes, Decimal, date or datetime value"
    )


def _argument(value: Any) -> Tuple[Any, bool]:
    """(array-like, is_scalar) for one argument of `call`."""
    if hasattr(value, "__arrow_c_array__") or hasattr(value, "__arrow_c_stream__"):
        try:
            import pyarrow as pa
        except ImportError:
            return value, False
        if isinstance(value, pa.Scalar):
            return _scalar_array(value), True
        return value, False
    return _scalar_array(value), True


def call(
    name: str,
    *args: Any,
    session_time_zone: str = "UTC",
    ansi: bool = True,
    **options: Any,
) -> Any:
    """Call the function registered as `name` (Spark's name: ``"+"``, ``"substring"``,
    ``"sum"``...; case-insensitive) on `args`.

    Parameters
    ----------
    name : str
        The function's Spark name or one of its aliases (see `functions`).
    *args
        Arrow arrays (anything exposing ``__arrow_c_array__`` or ``__arrow_c_stream__``),
        pyarrow scalars or Python values; arrays must have the same length, scalars stand for
        every row.
    session_time_zone : str
        Spark's ``spark.sql.session.timeZone``: the zone in which timestamps are split into
        fields, parsed and formatted.
    ansi : bool
        Spark's ``spark.sql.ansi.enabled``: when False, overflow and invalid input give null
        (or wrap) instead of raising.
    **options
        Options of the function that are not columns, such as ``to`` of ``cast`` (a pyarrow
        type or a Spark type name like ``"decimal(10,2)"``).

    Returns
    -------
    bowstring.Array
        One value per row; when every argument is a scalar (or an aggregate function is
        called), an array of one value.

    Raises
    ------
    bowstring.errors.AnalysisException
        Unknown function, wrong number of arguments or argument types.
    bowstring.errors.ArithmeticException, NumberFormatException, DateTimeException
        Runtime errors of Spark's ANSI mode.
    """
    from bowstring import _core

    arguments = [_argument(arg) for arg in args]
    result, _is_scalar = _core._compute.call(name, arguments, options, session_time_zone, ansi)
    return result


def functions() -> List[Dict[str, Any]]:
    """Every registered function, sorted by name.

    Returns
    -------
    list of dict
        One dict per function: ``name``, ``aliases`` (other names it is called by), ``kind``
        (``"scalar"`` or ``"aggregate"``), ``signatures`` (such as ``"(int, int) -> int"``),
        ``description``, ``null_handling`` (``"propagates"``: any null argument gives null;
        ``"custom"``) and ``deterministic``.
    """
    from bowstring import _core

    return list(_core._compute.functions())


