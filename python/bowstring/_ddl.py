"""Spark SQL DDL strings ("id long, tags array<string>") parsed into pyarrow schemas and types.

The types map to Arrow as PySpark's Arrow conversions map Spark's types:

================================  =========================================
DDL                               pyarrow
================================  =========================================
``boolean``                       ``bool_()``
``tinyint``, ``byte``             ``int8()``
``smallint``, ``short``           ``int16()``
``int``, ``integer``              ``int32()``
``bigint``, ``long``              ``int64()``
``float``, ``real``               ``float32()``
``double``                        ``float64()``
``string``, ``varchar(n)``,       ``string()``
``char(n)``
``binary``                        ``binary()``
``date``                          ``date32()``
``timestamp``, ``timestamp_ltz``  ``timestamp("us", tz=<session time zone>)``
``timestamp_ntz``                 ``timestamp("us")``
``decimal(p, s)``, ``dec``,       ``decimal128(p, s)`` (``decimal`` alone is
``numeric``                       ``decimal(10, 0)``)
``void``                          ``null()``
``array<T>``                      ``list_(T)``
``map<K, V>``                     ``map_(K, V)``
``struct<a: T, b U>``             ``struct([...])``
================================  =========================================

A column is ``name type [NOT NULL] [COMMENT 'text']``, with an optional colon after the name;
names may be quoted with backticks (```my column```, a doubled backtick inside is one backtick).
Keywords are case-insensitive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional

import pyarrow as pa

from bowstring.errors import ParseException

__all__ = ["parse_data_type", "parse_schema"]

# Decimal128 holds at most 38 digits, as Spark's DecimalType.
_MAX_DECIMAL_PRECISION = 38


def _simple_types(session_time_zone: str) -> Dict[str, Callable[[], pa.DataType]]:
    """The types written as one keyword, by lower-case name."""
    return {
        "boolean": pa.bool_,
        "tinyint": pa.int8,
        "byte": pa.int8,
        "smallint": pa.int16,
        "short": pa.int16,
        "int": pa.int32,
        "integer": pa.int32,
        "bigint": pa.int64,
        "long": pa.int64,
        "float": pa.float32,
        "real": pa.float32,
        "double": pa.float64,
        "string": pa.string,
        "binary": pa.binary,
        "date": pa.date32,
        "timestamp": lambda: pa.timestamp("us", tz=session_time_zone),
        "timestamp_ltz": lambda: pa.timestamp("us", tz=session_time_zone),
        "timestamp_ntz": lambda: pa.timestamp("us"),
        "void": pa.null,
    }


# Spark types that have no Arrow mapping here.
_UNSUPPORTED_TYPES = ("interval", "variant", "object", "time")


@dataclass(frozen=True)
class _Token:
    kind: str  # "name", "quoted", "number", "string", "symbol" or "end"
    text: str
    position: int

    def describe(self) -> str:
        if self.kind == "end":
            return "end of input"
        if self.kind == "quoted":
            return f"`{self.text}`"
        return repr(self.text)


_SYMBOLS = "<>(),:"


def _tokenize(text: str) -> List[_Token]:
    tokens: List[_Token] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char.isspace():
            i += 1
        elif char in _SYMBOLS:
            tokens.append(_Token("symbol", char, i))
            i += 1
        elif char == "`":
            start = i
            i += 1
            name: List[str] = []
            while True:
                if i >= len(text):
                    raise _error(text, start, "unterminated backtick-quoted name starting")
                if text[i] == "`":
                    if i + 1 < len(text) and text[i + 1] == "`":
                        name.append("`")
                        i += 2
                        continue
                    i += 1
                    break
                name.append(text[i])
                i += 1
            tokens.append(_Token("quoted", "".join(name), start))
        elif char in "'\"":
            start = i
            i += 1
            literal: List[str] = []
            while True:
                if i >= len(text):
                    raise _error(text, start, "unterminated string literal starting")
                if text[i] == "\\" and i + 1 < len(text):
                    literal.append(text[i + 1])
                    i += 2
                    continue
                if text[i] == char:
                    i += 1
                    break
                literal.append(text[i])
                i += 1
            tokens.append(_Token("string", "".join(literal), start))
        elif char.isdigit():
            start = i
            while i < len(text) and text[i].isdigit():
                i += 1
            tokens.append(_Token("number", text[start:i], start))
        elif char.isalpha() or char == "_":
            start = i
            while i < len(text) and (text[i].isalnum() or text[i] == "_"):
                i += 1
            tokens.append(_Token("name", text[start:i], start))
        else:
            raise _error(text, i, f"unexpected character {char!r}")
    tokens.append(_Token("end", "", len(text)))
    return tokens


def _error(text: str, position: int, what: str) -> ParseException:
    """``what`` at ``position``, with the DDL string and a caret under the position."""
    return ParseException(
        f"{what} at position {position} of the DDL string:\n  {text}\n  {' ' * position}^"
    )


class _Parser:
    def __init__(self, text: str, session_time_zone: str) -> None:
        self._text = text
        self._tokens = _tokenize(text)
        self._index = 0
        self._simple_types = _simple_types(session_time_zone)

    # --- tokens ---

    def _peek(self) -> _Token:
        return self._tokens[self._index]

    def _next(self) -> _Token:
        token = self._tokens[self._index]
        if token.kind != "end":
            self._index += 1
        return token

    def _fail(self, token: _Token, what: str) -> ParseException:
        return _error(self._text, token.position, f"{what}, got {token.describe()}")

    def _accept(self, symbol: str) -> bool:
        token = self._peek()
        if token.kind == "symbol" and token.text == symbol:
            self._index += 1
            return True
        return False

    def _expect(self, symbol: str, context: str) -> None:
        if not self._accept(symbol):
            raise self._fail(self._peek(), f"expected '{symbol}' {context}")

    def _accept_keyword(self, keyword: str) -> bool:
        token = self._peek()
        if token.kind == "name" and token.text.lower() == keyword:
            self._index += 1
            return True
        return False

    def _expect_end(self) -> None:
        token = self._peek()
        if token.kind != "end":
            raise self._fail(token, "expected ',' or the end of the DDL string")

    # --- grammar ---

    def schema(self) -> pa.Schema:
        if self._peek().kind == "end":
            raise self._fail(self._peek(), "expected a column definition such as 'id long'")
        fields = [self._field("column")]
        while self._accept(","):
            fields.append(self._field("column"))
        self._expect_end()
        return pa.schema(fields)

    def data_type(self) -> pa.DataType:
        data_type = self._type()
        token = self._peek()
        if token.kind != "end":
            raise self._fail(token, "expected the end of the data type")
        return data_type

    def _field(self, what: str) -> pa.Field:
        token = self._next()
        if token.kind not in ("name", "quoted"):
            raise self._fail(token, f"expected a {what} name")
        self._accept(":")
        if self._peek().kind == "end" or (
            self._peek().kind == "symbol" and self._peek().text in ",>"
        ):
            raise self._fail(self._peek(), f"expected a data type for {what} '{token.text}'")
        data_type = self._type()
        nullable = True
        metadata: Optional[Dict[str, str]] = None
        if self._accept_keyword("not"):
            if not self._accept_keyword("null"):
                raise self._fail(self._peek(), "expected NULL after NOT")
            nullable = False
        if self._accept_keyword("comment"):
            comment = self._next()
            if comment.kind != "string":
                raise self._fail(comment, "expected a quoted string after COMMENT")
            metadata = {"comment": comment.text}
        return pa.field(token.text, data_type, nullable=nullable, metadata=metadata)

    def _type(self) -> pa.DataType:
        token = self._next()
        if token.kind != "name":
            raise self._fail(token, "expected a data type")
        name = token.text.lower()
        if name in self._simple_types:
            return self._simple_types[name]()
        if name in ("decimal", "dec", "numeric"):
            return self._decimal()
        if name in ("char", "varchar"):
            self._expect("(", f"after {name.upper()}")
            self._number("a length")
            self._expect(")", f"after the length of {name.upper()}")
            return pa.string()
        if name == "array":
            self._expect("<", "after ARRAY")
            element = self._type()
            self._expect(">", "to close ARRAY<")
            return pa.list_(element)
        if name == "map":
            self._expect("<", "after MAP")
            key = self._type()
            self._expect(",", "between the key and value types of MAP")
            value = self._type()
            self._expect(">", "to close MAP<")
            return pa.map_(key, value)
        if name == "struct":
            self._expect("<", "after STRUCT")
            fields: List[pa.Field] = []
            if not self._accept(">"):
                fields.append(self._field("field"))
                while self._accept(","):
                    fields.append(self._field("field"))
                self._expect(">", "or ',' in STRUCT<")
            return pa.struct(fields)
        if name in _UNSUPPORTED_TYPES:
            raise _error(self._text, token.position, f"unsupported data type {token.describe()}")
        raise _error(self._text, token.position, f"unknown data type {token.describe()}")

    def _number(self, what: str) -> int:
        token = self._next()
        if token.kind != "number":
            raise self._fail(token, f"expected {what}")
        return int(token.text)

    def _decimal(self) -> pa.DataType:
        precision, scale = 10, 0
        if self._accept("("):
            precision_token = self._peek()
            precision = self._number("a precision")
            if self._accept(","):
                scale_token = self._peek()
                scale = self._number("a scale")
                if scale > precision:
                    raise _error(
                        self._text,
                        scale_token.position,
                        f"decimal scale {scale} is larger than its precision {precision}",
                    )
            self._expect(")", "after the precision and scale of DECIMAL")
            if not 1 <= precision <= _MAX_DECIMAL_PRECISION:
                raise _error(
                    self._text,
                    precision_token.position,
                    f"decimal precision {precision} is outside 1..{_MAX_DECIMAL_PRECISION}",
                )
        return pa.decimal128(precision, scale)


def parse_schema(ddl: str, session_time_zone: str = "UTC") -> pa.Schema:
    """Parses a DDL column list such as ``"id long, scores array<double> NOT NULL"``.

    Parameters
    ----------
    ddl : str
        Comma-separated ``name type`` definitions.
    session_time_zone : str
        The time zone of ``timestamp`` columns.

    Returns
    -------
    pyarrow.Schema

    Raises
    ------
    bowstring.errors.ParseException
        Naming the position and the token that could not be parsed.
    """
    return _Parser(ddl, session_time_zone).schema()


def parse_data_type(ddl: str, session_time_zone: str = "UTC") -> pa.DataType:
    """Parses one DDL data type such as ``"map<string, array<int>>"``.

    Parameters
    ----------
    ddl : str
        The type.
    session_time_zone : str
        The time zone of ``timestamp`` values.

    Returns
    -------
    pyarrow.DataType

    Raises
    ------
    bowstring.errors.ParseException
        Naming the position and the token that could not be parsed.
    """
    return _Parser(ddl, session_time_zone).data_type()
