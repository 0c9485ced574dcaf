"""Array, map and struct functions and the generators through bowstring.compute, on pyarrow
inputs: nulls, empty collections, sliced arrays, nested element types and Spark's errors."""

from typing import Any, List

import pyarrow as pa
import pytest

from bowstring import compute
from bowstring.errors import AnalysisException, SparkRuntimeException

INTS = pa.list_(pa.int32())
LISTS = [[1, 2, None, 2], [], None, [3]]


def values(result: Any) -> List[Any]:
    return pa.array(result).to_pylist()


def sliced(lists: List[Any], type_: pa.DataType = INTS) -> pa.Array:
    """`lists` as a window of a longer array whose other rows hold elements."""
    return pa.array([[-1, -2]] + lists + [[-3]], type_).slice(1, len(lists))


@pytest.mark.parametrize("make", [lambda v: pa.array(v, INTS), sliced])
@pytest.mark.parametrize("name,extra,expected", [
    ("size", [], [4, 0, None, 1]),
    ("array_contains", [2], [True, False, None, False]),
    ("array_contains", [9], [None, False, None, False]),
    ("array_position", [2], [2, 0, None, 0]),
    ("array_remove", [2], [[1, None], [], None, [3]]),
    ("try_element_at", [-1], [2, None, None, 3]),
    ("get", [1], [2, None, None, None]),
    ("slice", [2, 2], [[2, None], [], None, []]),
    ("array_distinct", [], [[1, 2, None], [], None, [3]]),
    ("array_compact", [], [[1, 2, 2], [], None, [3]]),
    ("array_append", [5], [[1, 2, None, 2, 5], [5], None, [3, 5]]),
    ("array_max", [], [2, None, None, 3]),
    ("sort_array", [False], [[2, 2, 1, None], [], None, [3]]),
    ("array_sort", [], [[1, 2, 2, None], [], None, [3]]),
    ("reverse", [], [[2, None, 2, 1], [], None, [3]]),
])
def test_array_functions(make: Any, name: str, extra: List[Any], expected: List[Any]) -> None:
    assert values(compute.call(name, make(LISTS), *extra)) == expected


def test_size_without_ansi_gives_minus_one_for_null() -> None:
    assert values(compute.call("size", pa.array(LISTS, INTS), ansi=False)) == [4, 0, -1, 1]


def test_set_operations_on_strings() -> None:
    left = pa.array([["a", "b", "a", None], None], pa.list_(pa.string()))
    right = pa.array([["b", "c", None], ["x"]], pa.list_(pa.string()))
    assert values(compute.call("array_union", left, right)) == [["a", "b", None, "c"], None]
    assert values(compute.call("array_intersect", left, right)) == [["b", None], None]
    assert values(compute.call("array_except", left, right)) == [["a"], None]
    assert values(compute.call("arrays_overlap", left, right)) == [True, None]


def test_nested_elements() -> None:
    structs = pa.array([[{"a": 1}, {"a": 1}, {"a": 2}], []], pa.list_(pa.struct([("a", pa.int32())])))
    assert values(compute.call("array_distinct", structs)) == [[{"a": 1}, {"a": 2}], []]
    nested = pa.array([[[1], [2, 3]], [[4], None]], pa.list_(INTS))
    assert values(compute.call("flatten", nested)) == [[1, 2, 3], None]
    assert values(compute.call("concat", pa.array([[1]], INTS), pa.array([[2, 3]], INTS))) == [
        [1, 2, 3]]


def test_element_at_errors_with_ansi_and_nulls_without() -> None:
    lists = pa.array([[1, 2]], INTS)
    with pytest.raises(SparkRuntimeException, match="INVALID_ARRAY_INDEX_IN_ELEMENT_AT"):
        compute.call("element_at", lists, 3)
    assert values(compute.call("element_at", lists, 3, ansi=False)) == [None]
    with pytest.raises(SparkRuntimeException, match="INVALID_INDEX_OF_ZERO"):
        compute.call("element_at", lists, 0, ansi=False)
    with pytest.raises(AnalysisException, match="ARRAY_FUNCTION_DIFF_TYPES"):
        compute.call("array_contains", lists, "x")


def test_maps() -> None:
    maps = compute.call("map_from_arrays", pa.array([[1, 2], [], None], INTS),
                        pa.array([["a", "b"], [], []], pa.list_(pa.string())))
    assert values(compute.call("map_keys", maps)) == [[1, 2], [], None]
    assert values(compute.call("map_values", maps)) == [["a", "b"], [], None]
    assert values(compute.call("element_at", maps, 2)) == ["b", None, None]
    assert values(compute.call("map_contains_key", maps, 1)) == [True, False, None]
    assert values(compute.call("map_entries", maps))[0] == [{"key": 1, "value": "a"},
                                                           {"key": 2, "value": "b"}]


def test_map_keys_are_checked() -> None:
    with pytest.raises(SparkRuntimeException, match="DUPLICATED_MAP_KEY"):
        compute.call("map", 1, "a", 1, "b")
    last = compute.call("map", 1, "a", 1, "b", map_key_dedup_policy="LAST_WIN")
    assert values(compute.call("map_values", last)) == [["b"]]
    with pytest.raises(SparkRuntimeException, match="NULL_MAP_KEY"):
        compute.call("map", pa.array([None], pa.int32()), "a")


def test_structs() -> None:
    made = pa.array(compute.call("named_struct", "x", pa.array([1, None]), "y", "s"))
    assert made.type.names == ["x", "y"]
    assert made.to_pylist() == [{"x": 1, "y": "s"}, {"x": None, "y": "s"}]
    assert pa.array(compute.call("struct", pa.array([1]))).type.names == ["col1"]


def test_generators() -> None:
    columns, rows = compute.generate("posexplode_outer", sliced([[1, None], [], None, [3]]))
    assert list(columns) == ["pos", "col"]
    assert values(columns["pos"]) == [0, 1, None, None, 0]
    assert values(columns["col"]) == [1, None, None, None, 3]
    assert values(rows) == [0, 0, 1, 2, 3]
    columns, rows = compute.generate("stack", 2, pa.array([1, 2]), pa.array([3, 4]))
    assert values(columns["col0"]) == [1, 3, 2, 4]
    assert values(rows) == [0, 0, 1, 1]
    assert "inline_outer" in compute.generators()
    with pytest.raises(AnalysisException, match="UNRESOLVED_ROUTINE"):
        compute.generate("implode", pa.array([[1]]))


def test_set_operations_and_map_keys_normalise_negative_zero() -> None:
    doubles = pa.array([[-0.0, 0.0, float("nan"), float("nan")]], pa.list_(pa.float64()))
    distinct = values(compute.call("array_distinct", doubles))[0]
    assert str(distinct) == "[0.0, nan]"
    keys = compute.call("map_keys", compute.call("map", -0.0, 1))
    assert str(values(keys)[0]) == "[0.0]"


def test_array_contains_refuses_an_untyped_null() -> None:
    with pytest.raises(AnalysisException, match="NULL_TYPE"):
        compute.call("array_contains", pa.array([[1]], INTS), None)


def test_str_to_map_and_array_insert_and_sequence() -> None:
    assert values(compute.call("str_to_map", pa.array(["a:1,b", None]))) == [
        [("a", "1"), ("b", None)], None]
    assert values(compute.call("array_insert", pa.array([[1, 2]], INTS), -5, 9)) == [
        [9, None, None, 1, 2]]
    assert values(compute.call("sequence", 5, 1)) == [[5, 4, 3, 2, 1]]
