"""bowstring.compute.call and functions: argument conversion, the registry listing and the
mapping of Spark's errors to the exceptions pyspark.errors names."""

from __future__ import annotations

import pytest

from bowstring import compute, errors


def test_unknown_functions_raise_analysis_exception_with_condition() -> None:
    with pytest.raises(errors.AnalysisException) as raised:
        compute.call("no_such_function_at_all", 1)
    assert raised.value.getCondition() == "UNRESOLVED_ROUTINE"
    assert "`no_such_function_at_all`" in str(raised.value)
    assert str(raised.value).startswith("[UNRESOLVED_ROUTINE]")


def test_arguments_of_unknown_kinds_are_refused_by_name() -> None:
    with pytest.raises(TypeError, match="cannot use a value of type 'object' as a function argument"):
        compute.call("abs", object())


def test_spark_exceptions_are_also_python_builtins() -> None:
    assert issubclass(errors.ArithmeticException, ArithmeticError)
    assert issubclass(errors.NumberFormatException, ValueError)
    assert issubclass(errors.ArithmeticException, errors.BowstringException)
    error = errors.ArithmeticException("[DIVIDE_BY_ZERO] Division by zero.", "DIVIDE_BY_ZERO")
    assert error.getErrorClass() == error.getCondition() == "DIVIDE_BY_ZERO"
    assert error.getMessage() == "[DIVIDE_BY_ZERO] Division by zero."


def test_functions_lists_each_function_once_sorted() -> None:
    listed = compute.functions()
    names = [entry["name"] for entry in listed]
    assert names == sorted(names)
    assert len(names) == len(set(names))
    for entry in listed:
        assert entry["kind"] in ("scalar", "aggregate")
        assert entry["null_handling"] in ("propagates", "custom")
        assert isinstance(entry["signatures"], list)
