"""Arithmetic and math functions of bowstring.compute against peers on randomized inputs.

pyarrow.compute is the peer where its semantics are Spark's (checked integer arithmetic,
floating point functions, floor/ceil); Python's `decimal` module stands in for Java's
BigDecimal (decimal arithmetic, HALF_UP / HALF_EVEN rounding of shortest representations).
Where Spark differs from both, the expectations are literal values checked on Spark 4 with
ANSI mode on, and each difference is named in the test.
"""

from __future__ import annotations

import decimal
import math
import random
from typing import Any, Callable, List, Optional

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from bowstring import compute, errors

ROWS = 2000


def to_list(result: Any) -> List[Any]:
    """The values of a bowstring result as Python objects."""
    return pa.array(result).to_pylist()


def random_ints(rng: random.Random, low: int, high: int, null_share: float = 0.1) -> List[Optional[int]]:
    """`ROWS` integers in [low, high], about `null_share` of them None."""
    return [None if rng.random() < null_share else rng.randint(low, high) for _ in range(ROWS)]


def random_doubles(rng: random.Random, scale: float, null_share: float = 0.1) -> List[Optional[float]]:
    """`ROWS` doubles of magnitude up to `scale`, with some None, zeros and halves."""
    values: List[Optional[float]] = []
    for _ in range(ROWS):
        pick = rng.random()
        if pick < null_share:
            values.append(None)
        elif pick < null_share + 0.05:
            values.append(rng.randint(-20, 20) + 0.5)
        else:
            values.append(rng.uniform(-scale, scale))
    return values


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(
    "name,peer", [("+", "add_checked"), ("-", "subtract_checked"), ("*", "multiply_checked")]
)
def test_integer_arithmetic_matches_checked_pyarrow(seed: int, name: str, peer: str) -> None:
    rng = random.Random(seed)
    a = pa.array(random_ints(rng, -(2**31), 2**31), pa.int64())
    b = pa.array(random_ints(rng, -(2**31), 2**31), pa.int64())
    assert to_list(compute.call(name, a, b)) == getattr(pc, peer)(a, b).to_pylist()
    # Sliced inputs and a scalar operand.
    sliced_a, sliced_b = a.slice(7, 1000), b.slice(3, 1000)
    expected = getattr(pc, peer)(sliced_a, sliced_b).to_pylist()
    assert to_list(compute.call(name, sliced_a, sliced_b)) == expected
    seven = pa.scalar(7, pa.int64())
    assert to_list(compute.call(name, a, seven)) == getattr(pc, peer)(a, seven).to_pylist()


def test_integer_overflow_raises_like_pyarrow_checked_and_spark() -> None:
    a = pa.array([2**31 - 1, 1, None], pa.int32())
    one = pa.scalar(1, pa.int32())
    with pytest.raises(pa.ArrowInvalid):
        pc.add_checked(a, one)
    with pytest.raises(errors.ArithmeticException) as raised:
        compute.call("+", a, one)
    assert raised.value.getCondition() == "ARITHMETIC_OVERFLOW"
    assert "2147483647 + 1" in str(raised.value)
    # Spark: try_add gives NULL; with ANSI off the sum wraps as in Java.
    assert to_list(compute.call("try_add", a, one)) == [None, 2, None]
    assert to_list(compute.call("+", a, one, ansi=False)) == [-(2**31), 2, None]


@pytest.mark.parametrize("seed", [4, 5])
def test_division_matches_pyarrow_on_doubles(seed: int) -> None:
    rng = random.Random(seed)
    a = pa.array(random_ints(rng, -1000, 1000), pa.int64())
    b = pa.array([v if v != 0 else 3 for v in random_ints(rng, -50, 50)], pa.int64())
    a_double, b_double = a.cast(pa.float64()), b.cast(pa.float64())
    # Spark divides integers as doubles: `/` takes DOUBLE arguments (the cast is the caller's).
    assert to_list(compute.call("/", a_double, b_double)) == pc.divide(a_double, b_double).to_pylist()


def test_division_by_zero_is_an_error_unlike_pyarrow() -> None:
    # Difference: pyarrow's divide on doubles gives inf; Spark raises DIVIDE_BY_ZERO in ANSI mode
    # (also for 0.0 and -0.0) and gives NULL without it.
    a = pa.array([1.0, 2.0])
    zero = pa.array([0.0, -0.0])
    assert pc.divide(a, zero).to_pylist() == [math.inf, -math.inf]
    with pytest.raises(errors.ArithmeticException) as raised:
        compute.call("/", a, zero)
    assert raised.value.getCondition() == "DIVIDE_BY_ZERO"
    assert to_list(compute.call("/", a, zero, ansi=False)) == [None, None]
    assert to_list(compute.call("try_divide", a, zero)) == [None, None]
    with pytest.raises(errors.ArithmeticException) as remainder:
        compute.call("%", pa.array([7], pa.int64()), pa.scalar(0, pa.int64()))
    assert remainder.value.getCondition() == "REMAINDER_BY_ZERO"


def java_remainder(a: int, b: int) -> int:
    """Java's `%`: the result has the sign of the dividend."""
    result = abs(a) % abs(b)
    return -result if a < 0 else result


def java_divide(a: int, b: int) -> int:
    """Java's integer `/`: truncation toward zero."""
    quotient = abs(a) // abs(b)
    return -quotient if (a < 0) != (b < 0) else quotient


@pytest.mark.parametrize("seed", [6, 7])
def test_remainder_pmod_and_div_follow_java(seed: int) -> None:
    # Difference: pyarrow has no truncating remainder or pmod; Python's % floors. The peer is
    # Java's arithmetic written out in Python.
    rng = random.Random(seed)
    a_values = random_ints(rng, -10**12, 10**12)
    b_values = [v if v != 0 else 7 for v in random_ints(rng, -1000, 1000)]
    a, b = pa.array(a_values, pa.int64()), pa.array(b_values, pa.int64())
    both = list(zip(a_values, b_values))
    expected_rem = [None if x is None or y is None else java_remainder(x, y) for x, y in both]
    assert to_list(compute.call("%", a, b)) == expected_rem
    assert to_list(compute.call("mod", a, b)) == expected_rem
    expected_pmod = [
        None if r is None else (java_remainder(r + y, y) if r < 0 else r)
        for r, (_, y) in zip(expected_rem, both)
    ]
    assert to_list(compute.call("pmod", a, b)) == expected_pmod
    expected_div = [None if x is None or y is None else java_divide(x, y) for x, y in both]
    assert to_list(compute.call("div", a, b)) == expected_div


def decimal_values(rng: random.Random, precision: int, scale: int) -> List[Optional[decimal.Decimal]]:
    """`ROWS` random decimals that fit DECIMAL(precision, scale), some None."""
    limit = 10**precision - 1
    values: List[Optional[decimal.Decimal]] = []
    for _ in range(ROWS):
        if rng.random() < 0.1:
            values.append(None)
        else:
            values.append(decimal.Decimal(rng.randint(-limit, limit)).scaleb(-scale))
    return values


def quantize(value: decimal.Decimal, scale: int, rounding: str = decimal.ROUND_HALF_UP) -> decimal.Decimal:
    """`value` rounded to `scale` fractional digits."""
    with decimal.localcontext() as context:
        context.prec = 200
        return value.quantize(decimal.Decimal(1).scaleb(-scale), rounding=rounding)


@pytest.mark.parametrize("seed", [8, 9])
def test_decimal_arithmetic_matches_exact_arithmetic(seed: int) -> None:
    # Spark's result types: + and - DECIMAL(13,4) for (10,2) and (9,4); * DECIMAL(20,6);
    # / DECIMAL(24,12) (scale max(6, s1 + p2 + 1)); HALF_UP rounding to the result scale.
    rng = random.Random(seed)
    a_values = decimal_values(rng, 10, 2)
    b_values = [v if v != 0 else decimal.Decimal("1.0000") for v in decimal_values(rng, 9, 4)]
    a = pa.array(a_values, pa.decimal128(10, 2))
    b = pa.array(b_values, pa.decimal128(9, 4))
    cases: List[tuple[str, pa.DataType, Callable[[decimal.Decimal, decimal.Decimal], decimal.Decimal]]] = [
        ("+", pa.decimal128(13, 4), lambda x, y: x + y),
        ("-", pa.decimal128(13, 4), lambda x, y: x - y),
        ("*", pa.decimal128(20, 6), lambda x, y: x * y),
        ("/", pa.decimal128(24, 12), lambda x, y: x / y),
    ]
    with decimal.localcontext() as context:
        context.prec = 100
        for name, result_type, operation in cases:
            result = pa.array(compute.call(name, a, b))
            assert result.type == result_type, name
            expected = [
                None if x is None or y is None else quantize(operation(x, y), result_type.scale)
                for x, y in zip(a_values, b_values)
            ]
            assert result.to_pylist() == expected, name


def test_decimal_overflow_raises_numeric_value_out_of_range() -> None:
    big = pa.array([decimal.Decimal("9" * 38)], pa.decimal128(38, 0))
    one = pa.array([decimal.Decimal(1)], pa.decimal128(38, 0))
    with pytest.raises(errors.ArithmeticException) as raised:
        compute.call("+", big, one)
    assert raised.value.getCondition() == "NUMERIC_VALUE_OUT_OF_RANGE"
    assert to_list(compute.call("+", big, one, ansi=False)) == [None]


@pytest.mark.parametrize("name", ["sqrt", "exp", "ln", "log10", "log2", "log1p", "sin", "cos", "tan", "atan", "cbrt"])
def test_double_functions_match_pyarrow(name: str) -> None:
    # Difference: Spark's logarithms give NULL at and below 0 where pyarrow's checked versions
    # raise and the unchecked ones give -inf or NaN; those rows are compared as NULL.
    rng = random.Random(hash(name) % 1000)
    values = random_doubles(rng, 50.0)
    array = pa.array(values, pa.float64())
    peer_name = {"cbrt": None}.get(name, name)
    if peer_name is None:
        expected = [None if v is None else math.copysign(abs(v) ** (1 / 3), v) for v in values]
        actual = to_list(compute.call(name, array))
        assert all(
            (x is None and y is None) or math.isclose(x, y, rel_tol=1e-14, abs_tol=1e-300)
            for x, y in zip(actual, expected)
        )
        return
    expected = getattr(pc, peer_name)(array).to_pylist()
    if name in ("ln", "log10", "log2"):
        expected = [None if v is None or v <= 0 else e for v, e in zip(values, expected)]
    if name == "log1p":
        expected = [None if v is None or v <= -1 else e for v, e in zip(values, expected)]
    actual = to_list(compute.call(name, array))
    assert len(actual) == len(expected)
    for x, y in zip(actual, expected):
        if y is None or x is None:
            assert x is None and y is None
        elif math.isnan(y):
            assert math.isnan(x)
        else:
            assert x == y


def spark_round_double(value: float, scale: int, rounding: str) -> float:
    """Spark's round of a DOUBLE: BigDecimal of the shortest representation, rounded, back."""
    if math.isnan(value) or math.isinf(value):
        return value
    result = float(quantize(decimal.Decimal(repr(value)), scale, rounding))
    return 0.0 if result == 0 else result


@pytest.mark.parametrize("scale", [-2, 0, 1, 2, 3])
@pytest.mark.parametrize("name,rounding", [("round", decimal.ROUND_HALF_UP), ("bround", decimal.ROUND_HALF_EVEN)])
def test_round_doubles_like_bigdecimal(scale: int, name: str, rounding: str) -> None:
    # Difference: pyarrow's round(HALF_UP) works on the binary value (round(2.675, 2) = 2.67);
    # Spark rounds the decimal string (2.68), as Python's decimal does here.
    rng = random.Random(scale + 100)
    values = [None if v is None else round(v, 3) for v in random_doubles(rng, 1000.0)]
    array = pa.array(values, pa.float64())
    expected = [None if v is None else spark_round_double(v, scale, rounding) for v in values]
    assert to_list(compute.call(name, array, scale)) == expected
    assert to_list(compute.call("round", pa.array([2.675]), 2)) == [2.68]


def test_floor_and_ceil_match_pyarrow() -> None:
    rng = random.Random(11)
    array = pa.array(random_doubles(rng, 1e6), pa.float64())
    assert to_list(compute.call("floor", array)) == pc.floor(array).cast(pa.int64()).to_pylist()
    assert to_list(compute.call("ceil", array)) == pc.ceil(array).cast(pa.int64()).to_pylist()


def test_greatest_and_least_match_pyarrow_without_nan() -> None:
    # Difference: Spark orders NaN above every number (greatest(1.0, NaN) = NaN); pyarrow's
    # element-wise max skips NaN, so the random data has none.
    rng = random.Random(12)
    arrays = [pa.array(random_ints(rng, -100, 100, 0.3), pa.int64()) for _ in range(3)]
    assert to_list(compute.call("greatest", *arrays)) == pc.max_element_wise(*arrays).to_pylist()
    assert to_list(compute.call("least", *arrays)) == pc.min_element_wise(*arrays).to_pylist()
    nan = pa.array([float("nan")])
    one = pa.array([1.0])
    assert math.isnan(to_list(compute.call("greatest", one, nan))[0])
    assert to_list(compute.call("least", one, nan)) == [1.0]


def test_spark_literal_expectations() -> None:
    # Checked on Spark 4 (ANSI on).
    assert to_list(compute.call("round", pa.array([2.5, -2.5]))) == [3.0, -3.0]
    assert to_list(compute.call("bround", pa.array([2.5, 3.5]))) == [2.0, 4.0]
    assert to_list(compute.call("round", pa.array([15, -15], pa.int32()), -1)) == [20, -20]
    assert to_list(compute.call("ln", pa.array([0.0, -1.0]))) == [None, None]
    assert to_list(compute.call("log", pa.array([10.0]), pa.array([100.0]))) == [2.0]
    assert to_list(compute.call("pmod", pa.array([-7], pa.int32()), pa.scalar(3, pa.int32()))) == [2]
    assert to_list(compute.call("%", pa.array([-7], pa.int32()), pa.scalar(3, pa.int32()))) == [-1]
    assert to_list(compute.call("sign", pa.array([-5.0, 0.0]))) == [-1.0, 0.0]
    with pytest.raises(errors.ArithmeticException):
        compute.call("negative", pa.array([-(2**31)], pa.int32()))
    with pytest.raises(errors.ArithmeticException):
        compute.call("floor", pa.array([1e20]))
