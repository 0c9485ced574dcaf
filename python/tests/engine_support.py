"""Helpers of the engine tests: expressions built as the DataFrame API names them."""

from __future__ import annotations

from bowstring import _core

E = _core.Expression


def col(name: str) -> _core.Expression:
    return E.col(name)


def lit(value: object) -> _core.Expression:
    return E.lit(value)


def call(name: str, *arguments: _core.Expression) -> _core.Expression:
    return E.call(name, list(arguments))
