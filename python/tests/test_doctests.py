"""The examples in the docstrings of every module of the package run and print what they show."""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import List

import pytest

import bowstring

PACKAGE_DIRECTORY = Path(bowstring.__file__).resolve().parent

# Modules not imported here, each for a reason; their source is checked to hold no examples
# instead, so an example added to one fails this test rather than being skipped. The other
# worker modules (fork_server, worker, protocol, conversion) only define names when imported:
# the fork server installs its signal handlers and the worker opens its sockets when run.
NOT_IMPORTED = {
    # The `python -m bowstring.worker` entry point: run as a program, never imported as a module.
    "bowstring.worker.__main__": "entry point of python -m bowstring.worker",
}


# Modules whose docstrings hold examples: finding none in one means they were not collected.
WITH_EXAMPLES = (
    "bowstring._core",
    "bowstring.compute",
    "bowstring.errors",
    "bowstring.ipc",
    "bowstring.udf",
)


def module_names() -> List[str]:
    names = ["bowstring"]
    for module in pkgutil.walk_packages([str(PACKAGE_DIRECTORY)], prefix="bowstring."):
        names.append(module.name)
    return sorted(names)


def source_of(name: str) -> Path:
    relative = Path(*name.split(".")[1:])
    package = PACKAGE_DIRECTORY / relative / "__init__.py"
    return package if package.exists() else PACKAGE_DIRECTORY / relative.with_suffix(".py")


def test_every_module_is_found() -> None:
    names = module_names()
    for expected in ("bowstring.compute", "bowstring.ipc", "bowstring.udf", "bowstring.worker"):
        assert expected in names
    assert set(NOT_IMPORTED) <= set(names)


@pytest.mark.parametrize("name", [n for n in module_names() if n not in NOT_IMPORTED])
def test_docstring_examples_run(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Examples that write files write them in a directory of their own.
    monkeypatch.chdir(tmp_path)
    module: ModuleType = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
    if name in WITH_EXAMPLES:
        assert result.attempted > 0, f"no examples were found in {name}"


@pytest.mark.parametrize("name", sorted(NOT_IMPORTED))
def test_modules_left_unimported_hold_no_examples(name: str) -> None:
    tree = ast.parse(source_of(name).read_text(encoding="utf-8"))
    nodes = [tree] + [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    ]
    parser = doctest.DocTestParser()
    for node in nodes:
        docstring = ast.get_docstring(node) or ""
        assert not parser.get_examples(docstring), (
            f"{name} has docstring examples but is not imported by this test "
            f"({NOT_IMPORTED[name]}): run them another way"
        )
