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
>>> compute.call("+", pa.array([1, 2, None]), 10).to_pylist()
[11, 12, None]
"""

from __future__ import annotations

import datetime
import decimal
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple, Union

from bowstring._protocols import ArrowArrayExportable, ArrowArrayLike, ArrowStreamExportable

if TYPE_CHECKING:
    import pyarrow as pa
    from typing_extensions import TypedDict

    from bowstring._core import Array, Table

    class FunctionInfo(TypedDict):
        """One entry of `functions()`."""

        name: str
        aliases: List[str]
        kind: str
        signatures: List[str]
        description: str
        null_handling: str
        deterministic: bool

__all__ = [
    "call", "filter", "functions", "generate", "generators", "group_by", "sort_indices", "take",
    "top_n", "window",
]

_INT32_MIN = -(2**31)
_INT32_MAX = 2**31 - 1

#: A value standing for the same value in every row: a pyarrow scalar or a Python value.
ScalarValue = Union[
    None, bool, int, float, str, bytes, decimal.Decimal, datetime.date, datetime.datetime,
    "pa.Scalar",
]
#: An argument of `call`: a column or a scalar value.
Argument = Union[ArrowArrayLike, ScalarValue]


def _scalar_array(value: ScalarValue) -> pa.Array:
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


def _argument(value: Argument) -> Tuple[ArrowArrayLike, bool]:
    """(array-like, is_scalar) for one argument of `call`."""
    if isinstance(value, (ArrowArrayExportable, ArrowStreamExportable)):
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
    *args: Argument,
    session_time_zone: str = "UTC",
    ansi: bool = True,
    map_key_dedup_policy: str = "EXCEPTION",
    **options: object,
) -> Array:
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
    map_key_dedup_policy : str
        Spark's ``spark.sql.mapKeyDedupPolicy``: ``"EXCEPTION"`` raises DUPLICATED_MAP_KEY when
        a map is built with a repeated key, ``"LAST_WIN"`` keeps the value inserted last.
    **options
        Options of the function that are not columns, such as ``to`` of ``cast`` (a pyarrow
        type or a Spark type name like ``"decimal(10,2)"``; ``"timestamp"`` is Spark's
        TIMESTAMP_LTZ, in ``session_time_zone``).

    Returns
    -------
    bowstring.Array
        One value per row; when every argument is a scalar (or an aggregate function is
        called), an array of one value.

    Raises
    ------
    bowstring.errors.AnalysisException
        Unknown function, wrong number of arguments or argument types; its subclass
        ``ParseException`` for a type name that does not parse.
    bowstring.errors.ArithmeticException, NumberFormatException, DateTimeException
        Runtime errors of Spark's ANSI mode.
    """
    from bowstring import _core

    arguments = [_argument(arg) for arg in args]
    result, _is_scalar = _core._compute.call(
        name, arguments, options, session_time_zone, ansi, map_key_dedup_policy
    )
    return result


def generate(
    name: str,
    *args: Argument,
    session_time_zone: str = "UTC",
    ansi: bool = True,
) -> Tuple[Dict[str, Array], Array]:
    """Run the generator (table function) `name` on `args`: ``explode``, ``explode_outer``,
    ``posexplode``, ``posexplode_outer``, ``inline``, ``inline_outer`` or ``stack``.

    Parameters
    ----------
    name : str
        The generator's Spark name (case-insensitive).
    *args
        Arrow arrays, pyarrow scalars or Python values, as for `call`; ``stack``'s first
        argument (the number of rows) must be a scalar.
    session_time_zone : str
        Spark's ``spark.sql.session.timeZone``.
    ansi : bool
        Spark's ``spark.sql.ansi.enabled``.

    Returns
    -------
    tuple of (dict, bowstring.Array)
        The output columns by Spark's names (``col``; ``pos`` and ``col``; ``key`` and
        ``value``; the struct's fields; ``col0``, ``col1``...), in order, and for each output
        row the input row it came from (int64).

    Raises
    ------
    bowstring.errors.AnalysisException
        Unknown generator, wrong number of arguments or argument types.

    Examples
    --------
    >>> import pyarrow as pa
    >>> columns, rows = generate("posexplode", pa.array([[1, 2], [], [3]]))
    >>> list(columns), pa.array(columns["col"]).to_pylist(), pa.array(rows).to_pylist()
    (['pos', 'col'], [1, 2, 3], [0, 0, 2])
    """
    from bowstring import _core

    arguments = [_argument(arg) for arg in args]
    names, columns, input_rows = _core._compute.generate(
        name, arguments, session_time_zone, ansi
    )
    return dict(zip(names, columns)), input_rows


def generators() -> List[str]:
    """The names of the generators `generate` runs, sorted."""
    from bowstring import _core

    return list(_core._compute.generators())


def functions() -> List[FunctionInfo]:
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


def filter(  # noqa: A001 - Spark's and pyarrow's name
    values: ArrowArrayLike, mask: ArrowArrayLike
) -> Array:
    """The rows of `values` where `mask` is true, as ``DataFrame.filter`` keeps them.

    Parameters
    ----------
    values
        An Arrow array of any type (anything exposing ``__arrow_c_array__`` or
        ``__arrow_c_stream__``).
    mask
        A boolean Arrow array of the same length. A null in it drops the row, as a null
        condition does in Spark's ``WHERE``.

    Returns
    -------
    bowstring.Array
        The selected rows, in order.

    Raises
    ------
    TypeError
        The mask is not boolean.
    ValueError
        The mask and the values differ in length.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from bowstring import compute
    >>> compute.filter(pa.array([1, 2, 3]), pa.array([True, None, True])).to_pylist()
    [1, 3]
    """
    from bowstring import _core

    return _core._compute_filter(values, mask)


def take(values: ArrowArrayLike, indices: ArrowArrayLike) -> Array:
    """Row ``indices[i]`` of `values` for each i.

    Parameters
    ----------
    values
        An Arrow array of any type.
    indices
        An Arrow array of any integer type; a null index gives a null row.

    Returns
    -------
    bowstring.Array
        One row per index.

    Raises
    ------
    IndexError
        An index is negative or not below ``len(values)``; the message names it.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from bowstring import compute
    >>> compute.take(pa.array(["a", "b"]), pa.array([1, None, 0])).to_pylist()
    ['b', None, 'a']
    """
    from bowstring import _core

    return _core._compute_take(values, indices)


def _sort_orders(
    keys: Sequence[ArrowArrayLike],
    ascending: Union[bool, Sequence[bool]],
    nulls_first: Union[Optional[bool], Sequence[Optional[bool]]],
) -> Tuple[List[ArrowArrayLike], List[bool], List[Optional[bool]]]:
    """The keys as a list, with one `ascending` and one `nulls_first` entry per key."""
    key_list = list(keys)
    if isinstance(ascending, bool):
        ascending = [ascending] * len(key_list)
    if nulls_first is None or isinstance(nulls_first, bool):
        nulls_first = [nulls_first] * len(key_list)
    return key_list, list(ascending), list(nulls_first)


def sort_indices(
    keys: Sequence[ArrowArrayLike],
    ascending: Union[bool, Sequence[bool]] = True,
    nulls_first: Union[Optional[bool], Sequence[Optional[bool]]] = None,
) -> Array:
    """The row numbers that sort `keys` as Spark's ``orderBy`` does (a stable sort).

    Spark's order: NaN is greater than every other value (infinity included) and equal to
    every NaN, -0.0 equals 0.0, strings and binaries compare by their bytes, false comes
    before true, dictionary arrays sort by their values.

    Parameters
    ----------
    keys : list
        Arrow arrays of equal length; the first decides first, the next break its ties.
    ascending : bool or list of bool
        The direction of each key (one value for all keys, or one per key).
    nulls_first : bool, None, or a list of them
        Where each key's nulls go; None is Spark's default: first when ascending, last when
        descending (``asc_nulls_first`` / ``desc_nulls_last``).

    Returns
    -------
    bowstring.Array
        The row numbers (uint64) in sorted order.

    Raises
    ------
    TypeError
        A key has a type that cannot be sorted (structs, lists, maps, unions).
    ValueError
        The keys differ in length, or there are none.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from bowstring import compute
    >>> values = pa.array([2.0, None, float("nan"), -1.0])
    >>> compute.sort_indices([values]).to_pylist()
    [1, 3, 0, 2]
    >>> compute.sort_indices([values], ascending=False).to_pylist()
    [2, 0, 3, 1]
    """
    from bowstring import _core

    key_list, ascending_list, nulls_first_list = _sort_orders(keys, ascending, nulls_first)
    return _core._compute_sort_indices(key_list, ascending_list, nulls_first_list)


def top_n(
    keys: Sequence[ArrowArrayLike],
    n: int,
    ascending: Union[bool, Sequence[bool]] = True,
    nulls_first: Union[Optional[bool], Sequence[Optional[bool]]] = None,
) -> Array:
    """The first `n` row numbers of ``sort_indices(keys, ascending, nulls_first)``, found
    without sorting every row (Spark's ``orderBy(...).limit(n)``).

    Parameters
    ----------
    keys : list
        Arrow arrays of equal length, as for `sort_indices`.
    n : int
        How many row numbers to return (all of them when there are fewer rows).
    ascending, nulls_first
        As for `sort_indices`.

    Returns
    -------
    bowstring.Array
        At most `n` row numbers (uint64) in sorted order.

    Raises
    ------
    ValueError
        `n` is negative, or the keys differ in length.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from bowstring import compute
    >>> compute.top_n([pa.array([5, 1, None, 3])], 2, ascending=False).to_pylist()
    [0, 3]
    """
    from bowstring import _core

    key_list, ascending_list, nulls_first_list = _sort_orders(keys, ascending, nulls_first)
    return _core._compute_top_n(key_list, ascending_list, nulls_first_list, n)


#: One aggregation of `group_by`: (function, arguments) or (function, arguments, options).
Aggregation = Union[
    Tuple[str, Sequence[Argument]],
    Tuple[str, Sequence[Argument], Dict[str, object]],
]


def group_by(
    keys: Sequence[ArrowArrayLike],
    aggregations: Sequence[Aggregation],
    names: Optional[Sequence[str]] = None,
    ansi: bool = True,
) -> Table:
    """Group rows by key columns and compute aggregates per group, as Spark's
    ``df.groupBy(*keys).agg(...)`` does.

    Parameters
    ----------
    keys : sequence of array-like
        The key columns: Arrow arrays of one length (anything exposing ``__arrow_c_array__``
        or ``__arrow_c_stream__``). Nulls form a group; NaN values group together, and -0.0
        with 0.0.
    aggregations : sequence of tuple
        ``(function, [arguments])`` or ``(function, [arguments], options)``: an aggregate
        function's Spark name (``"sum"``, ``"count"``, ``"avg"``, ``"collect_list"``...) and its
        arguments, arrays as long as the keys or scalars (``("count", [])`` is ``count(*)``).
    names : sequence of str, optional
        Names of the result's columns, one per key then one per aggregation; by default
        ``key0, key1...`` then ``function(i)`` for the i-th aggregation's function.
    ansi : bool
        Spark's ``spark.sql.ansi.enabled``: when True an overflowing sum raises.

    Returns
    -------
    bowstring.Table
        The unique keys, then one column per aggregation; one row per group, in order of the
        groups' first appearance. It exposes ``__arrow_c_stream__`` (``pyarrow.table(result)``).

    Examples
    --------
    >>> import pyarrow as pa
    >>> from bowstring import compute
    >>> result = compute.group_by([pa.array(["a", "b", "a"])], [("sum", [pa.array([1, 2, 3])])])
    >>> result.to_pydict()
    {'key0': ['a', 'b'], 'sum(0)': [4, 2]}
    """
    from bowstring import _core

    prepared = []
    for aggregation in aggregations:
        function, arguments = aggregation[0], aggregation[1]
        options = dict(aggregation[2]) if len(aggregation) > 2 else {}
        prepared.append((function, [_argument(arg) for arg in arguments], options))
    if names is None:
        names = [f"key{i}" for i in range(len(keys))] + [
            f"{aggregation[0]}({i})" for i, aggregation in enumerate(aggregations)
        ]
    return _core._compute.group_by(list(keys), prepared, list(names), ansi)


#: A bound of a window frame: None (unbounded), "current_row", or an offset from the current
#: row (negative before it), a number, a pyarrow duration scalar for timestamps...
FrameBoundValue = Union[None, str, ScalarValue]
#: A window frame: ("rows" or "range", start, end).
Frame = Tuple[str, FrameBoundValue, FrameBoundValue]
#: One call of `window`: (function, arguments), optionally followed by options and a frame.
WindowCall = Union[
    Tuple[str, Sequence[Argument]],
    Tuple[str, Sequence[Argument], Dict[str, object]],
    Tuple[str, Sequence[Argument], Dict[str, object], Optional[Frame]],
]


def _frame_bound(value: FrameBoundValue, unbounded: str) -> object:
    """A frame bound as the engine takes it: a kind name or an (array, is_scalar) offset."""
    if value is None:
        return unbounded
    if isinstance(value, str):
        if value != "current_row":
            raise ValueError(f"a frame bound is None, 'current_row' or an offset, not {value!r}")
        return value
    return _argument(value)


def window(
    partition_offsets: Sequence[int],
    order_keys: Sequence[ArrowArrayLike],
    calls: Sequence[WindowCall],
    ascending: Union[bool, Sequence[bool]] = True,
    nulls_first: Union[Optional[bool], Sequence[Optional[bool]]] = None,
    names: Optional[Sequence[str]] = None,
    ansi: bool = True,
) -> Table:
    """Evaluate window functions, as Spark's ``F.sum("v").over(Window.partitionBy(...)...)``,
    over rows already sorted by their partition and order keys.

    Parameters
    ----------
    partition_offsets : sequence of int
        Where each partition starts, then the number of rows: partition p holds rows
        ``[partition_offsets[p], partition_offsets[p + 1])``.
    order_keys : sequence of array-like
        The order keys (none for an unordered window), by which each partition is sorted.
    calls : sequence of tuple
        ``(function, [arguments], options, frame)``, options and frame optional: a window
        function (``"row_number"``, ``"rank"``, ``"dense_rank"``, ``"percent_rank"``,
        ``"cume_dist"``, ``"ntile"``, ``"lag"``, ``"lead"``, ``"first"``, ``"last"``,
        ``"nth_value"``) or any aggregate function, its arguments (arrays or scalars), options
        (``{"ignore_nulls": True}``) and frame: ``("rows" or "range", start, end)`` where a bound
        is None (unbounded), ``"current_row"`` or an offset from the current row, negative
        before it (Spark's ``rowsBetween(-2, 0)``). Without a frame, Spark's default: RANGE
        BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW with order keys, the whole partition
        without.
    ascending, nulls_first : bool or list
        The order of each key, as for `sort_indices`.
    names : sequence of str, optional
        Names of the result's columns; by default ``function(i)`` for the i-th call.
    ansi : bool
        Spark's ``spark.sql.ansi.enabled``.

    Returns
    -------
    bowstring.Table
        One column per call, one row per input row, in input order.

    Raises
    ------
    AnalysisException
        An invalid frame (start after end, an offset of the wrong type, a RANGE offset with
        several order keys) or a ranking function without order keys.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from bowstring import compute
    >>> values = pa.array([1, 2, 2, 5, 7])
    >>> result = compute.window([0, 3, 5], [values], [("rank", []), ("sum", [values])],
    ...                         names=["rank", "running"])
    >>> result.to_pydict()
    {'rank': [1, 2, 2, 1, 2], 'running': [1, 5, 5, 5, 12]}
    >>> compute.window([0, 5], [values], [("sum", [values], {}, ("rows", -1, 0))]).to_pydict()
    {'sum(0)': [1, 3, 4, 7, 12]}
    """
    from bowstring import _core

    key_list, ascending_list, nulls_first_list = _sort_orders(order_keys, ascending, nulls_first)
    prepared = []
    for entry in calls:
        function, arguments = entry[0], entry[1]
        options = dict(entry[2]) if len(entry) > 2 else {}
        frame = entry[3] if len(entry) > 3 else None
        engine_frame = None
        if frame is not None:
            engine_frame = (
                frame[0],
                _frame_bound(frame[1], "unbounded_preceding"),
                _frame_bound(frame[2], "unbounded_following"),
            )
        prepared.append((function, [_argument(arg) for arg in arguments], options, engine_frame))
    if names is None:
        names = [f"{entry[0]}({i})" for i, entry in enumerate(calls)]
    return _core._compute.window(
        list(partition_offsets), key_list, ascending_list, nulls_first_list, prepared,
        list(names), ansi,
    )
