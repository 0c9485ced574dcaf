"""Exceptions Bowstring raises, named as in ``pyspark.errors`` so that code written against
PySpark catches the same classes.

Examples
--------
>>> import pyarrow as pa
>>> from bowstring import udf
>>> from bowstring.errors import PythonException
>>> def fail(batches):
...     for batch in batches:
...         raise ZeroDivisionError("no")
>>> try:
...     udf.map_batches(fail, pa.table({"x": [1]})).read_all()
... except PythonException as e:
...     print(e.exception_type)
ZeroDivisionError
"""

from __future__ import annotations

from typing import Optional

__all__ = [
    "AnalysisException",
    "ArithmeticException",
    "BowstringException",
    "DateTimeException",
    "IllegalArgumentException",
    "NumberFormatException",
    "SparkRuntimeException",
    "CancelledError",
    "ParseException",
    "PythonException",
    "PythonWorkerError",
]


class BowstringException(Exception):
    """Base of the exceptions Bowstring raises, as ``PySparkException`` is in PySpark.

    Parameters
    ----------
    message : str
        What went wrong; also the exception's ``str()``.
    """

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self._message = message

    def getMessage(self) -> str:
        """The message of the exception.

        Returns
        -------
        str
        """
        return self._message

    def __str__(self) -> str:
        return self._message


class PythonException(BowstringException):
    """A user-defined Python function raised in a worker, or returned something that does not
    match the declared output (wrong type, length or columns).

    The message is the worker's account of the failure: the exception and its traceback trimmed
    to the user's frames, as PySpark shows it.

    Parameters
    ----------
    message : str
        The full message, traceback included.
    exception_type : str, optional
        The class name of the exception raised in the worker (``"ZeroDivisionError"``).
    error_message : str, optional
        The text of that exception, without the traceback.
    traceback : str, optional
        The formatted traceback from the worker.
    batch : int, optional
        The index of the input batch, within its partition, being processed when it failed.
    """

    def __init__(
        self,
        message: str = "",
        exception_type: Optional[str] = None,
        error_message: Optional[str] = None,
        traceback: Optional[str] = None,
        batch: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.exception_type = exception_type
        self.error_message = error_message
        self.traceback = traceback
        self.batch = batch


class PythonWorkerError(BowstringException):
    """A Python worker could not complete a call: it exited, was killed (by a signal, for
    exceeding its memory limit or the call's timeout), broke the worker protocol, or could not
    be started. The message names the worker, how it ended and the last lines it wrote."""


class CancelledError(BowstringException):
    """The operation was cancelled by its caller."""


class SparkRuntimeException(BowstringException):
    """An error of Spark SQL's semantics at run time, carrying Spark's error condition.

    Parameters
    ----------
    message : str
        The message, starting with the condition in brackets as Spark prints it
        (``"[DIVIDE_BY_ZERO] Division by zero..."``).
    condition : str
        Spark's error condition (``"DIVIDE_BY_ZERO"``).
    """

    def __init__(self, message: str = "", condition: str = "") -> None:
        super().__init__(message)
        self._condition = condition

    def getCondition(self) -> str:
        """Spark's error condition, such as ``"ARITHMETIC_OVERFLOW"``.

        Returns
        -------
        str
        """
        return self._condition

    def getErrorClass(self) -> str:
        """The error condition under its older name in PySpark (``getErrorClass``).

        Returns
        -------
        str
        """
        return self._condition


class ArithmeticException(SparkRuntimeException, ArithmeticError):
    """Integer overflow, division by zero or a value out of a decimal's range in ANSI mode
    (conditions ARITHMETIC_OVERFLOW, DIVIDE_BY_ZERO, NUMERIC_VALUE_OUT_OF_RANGE,
    CAST_OVERFLOW). Also a Python ``ArithmeticError``."""


class NumberFormatException(SparkRuntimeException, ValueError):
    """A string that does not parse as the number, boolean or binary a cast asks for
    (condition CAST_INVALID_INPUT). Also a ``ValueError``."""


class DateTimeException(SparkRuntimeException, ValueError):
    """An invalid date, timestamp, time zone or datetime pattern. Also a ``ValueError``."""


class IllegalArgumentException(SparkRuntimeException, ValueError):
    """An argument value a function refuses, such as an invalid regular expression. Also a
    ``ValueError``."""


class AnalysisException(SparkRuntimeException):
    """An expression that cannot be analysed: unknown column or function, wrong number or
    types of arguments (conditions UNRESOLVED_COLUMN, UNRESOLVED_ROUTINE, WRONG_NUM_ARGS,
    DATATYPE_MISMATCH)."""


class ParseException(AnalysisException, ValueError):
    """A text of one of Spark's small languages, such as a type name (``"array<int>"``) or a
    DDL schema (``"id long, name string"``), that could not be parsed (conditions
    PARSE_SYNTAX_ERROR, UNSUPPORTED_DATATYPE...). The message names the line, the position and
    the token, and shows the text with a caret under the position, as Spark prints it. An
    ``AnalysisException``, as in PySpark, and also a ``ValueError``."""
