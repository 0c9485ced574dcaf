"""Implicit casts through bowstring.compute.call apply only to the rows a function reads.

Spark evaluates a function's arguments row by row and only where they are needed: a malformed
string on a row whose earlier argument is NULL, or in a branch no row takes, raises nothing,
and the try_ functions give NULL for it. Every expectation below is a literal checked in
PySpark 4.3 (ANSI mode); no peer engine evaluates lazily the same way. A randomized test checks
the lazy path against the eager one wherever both are defined.
"""

from __future__ import annotations

import random
from typing import Any, List, Optional

import pyarrow as pa
import pytest

from bowstring import compute, errors

NUMBERS = pa.array([1, None, 3, None], type=pa.int32())
# Malformed where NUMBERS is null.
TEXTS = pa.array(["2", "abc", "4", "1e400"])
# Malformed where NUMBERS is not null.
OTHER_TEXTS = pa.array(["abc", "5", "xyz", "6"])
CONDITIONS = pa.array([True, False, True, False])


def run(name: str, *arguments: Any) -> List[Any]:
    """The function through the engine, as Python values."""
    return pa.array(compute.call(name, *arguments)).to_pylist()


def test_null_intolerant_functions_skip_rows_after_a_null() -> None:
    assert run("+", NUMBERS, TEXTS) == [3, None, 7, None]
    assert run("*", NUMBERS, TEXTS) == [2, None, 12, None]
    # The divisor is read first, the dividend only where the divisor is not null.
    assert run("/", TEXTS, NUMBERS) == [2.0, None, 4 / 3, None]
    assert run("pmod", TEXTS, NUMBERS) == [0, None, 1, None]
    # Slices at an offset.
    assert run("+", NUMBERS.slice(1), TEXTS.slice(1)) == [None, 7, None]
    # A NULL of type INT plus a malformed literal.
    assert run("+", pa.scalar(None, pa.int32()), "abc") == [None]


def test_errors_remain_where_the_value_is_read() -> None:
    # Spark reads the left side of + first, and the divisor of / first.
    with pytest.raises(errors.NumberFormatException, match=r"CAST_INVALID_INPUT.*'abc'"):
        compute.call("+", TEXTS, NUMBERS)
    with pytest.raises(errors.NumberFormatException, match=r"CAST_INVALID_INPUT"):
        compute.call("/", NUMBERS, TEXTS)
    with pytest.raises(errors.NumberFormatException, match=r"CAST_INVALID_INPUT"):
        compute.call("+", NUMBERS, OTHER_TEXTS)


def test_branches_are_cast_only_where_taken() -> None:
    expected = [1, 5, 3, 6]
    assert run("if", CONDITIONS, NUMBERS, OTHER_TEXTS) == expected
    assert run("case_when", CONDITIONS, NUMBERS, OTHER_TEXTS) == expected
    assert run("coalesce", NUMBERS, OTHER_TEXTS) == expected
    assert run("nvl", NUMBERS, OTHER_TEXTS) == expected
    assert run("nvl2", NUMBERS, NUMBERS, OTHER_TEXTS) == expected
    # A scalar condition: the branch no row takes is never cast.
    assert run("if", True, NUMBERS, "abc") == [1, None, 3, None]
    with pytest.raises(errors.NumberFormatException):
        compute.call("if", pa.array([False]), pa.array([1]), pa.array(["abc"]))


def test_nanvl_and_in_read_later_arguments_only_where_needed() -> None:
    nan = float("nan")
    assert run("nanvl", pa.array([1.0, None, nan]), pa.array(["abc", "abc", "2.5"])) == [
        1.0,
        None,
        2.5,
    ]
    # x IN (1, s) stops at the first match; a NULL x reads no item.
    assert run("in", pa.array([1, None], pa.int32()), 1, pa.array(["abc", "x"])) == [True, None]
    with pytest.raises(errors.NumberFormatException):
        compute.call("in", pa.array([1], pa.int32()), 2, pa.array(["abc"]))


def test_nullif_and_between_compare_from_the_left() -> None:
    assert run("nullif", pa.array([None, 2], pa.int32()), pa.array(["abc", "2"])) == [None, None]
    assert run("between", pa.array([None, 2], pa.int32()), pa.array(["abc", "1"]), 3) == [
        None,
        True,
    ]
    with pytest.raises(errors.NumberFormatException):
        compute.call("nullif", pa.array(["abc"]), pa.array([None], pa.int32()))


def test_try_functions_give_null_for_malformed_strings() -> None:
    assert run("try_add", "abc", 1) == [None]
    assert run("try_add", OTHER_TEXTS, 1) == [None, 6, None, 7]
    assert run("try_subtract", OTHER_TEXTS, 1) == [None, 4, None, 5]
    assert run("try_multiply", OTHER_TEXTS, 2) == [None, 10, None, 12]
    assert run("try_mod", OTHER_TEXTS, 2) == [None, 1, None, 0]
    assert run("try_divide", pa.array(["abc", "abc", "6", "6"]), pa.array([0, 2, 0, 2])) == [
        None,
        None,
        None,
        3.0,
    ]


def test_randomized_lazy_and_eager_agree_on_well_formed_rows() -> None:
    rng = random.Random(7)
    for _ in range(20):
        length = rng.randint(0, 300)
        numbers: List[Optional[int]] = [
            None if rng.random() < 0.3 else rng.randint(-1000, 1000) for _ in range(length)
        ]
        # Malformed only where the number is null; well-formed elsewhere.
        texts = [
            "bad" if number is None and rng.random() < 0.5 else str(rng.randint(-1000, 1000))
            for number in numbers
        ]
        offset = rng.randint(0, length)
        left = pa.array(numbers, type=pa.int32()).slice(offset)
        right = pa.array(texts).slice(offset)
        expected = [
            None if n is None else n + int(t) for n, t in zip(numbers[offset:], texts[offset:])
        ]
        assert run("+", left, right) == expected
        conditions = pa.array([n is not None for n in numbers]).slice(offset)
        assert run("if", conditions, right, left) == [
            int(t) if n is not None else None for n, t in zip(numbers[offset:], texts[offset:])
        ]
