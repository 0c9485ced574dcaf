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
    "BowstringException",
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


class ParseException(BowstringException, ValueError):
    """A string in a small language (a DDL schema such as ``"id long, name string"``) could not
    be parsed; the message names the position and the offending token. Also a ``ValueError``."""
