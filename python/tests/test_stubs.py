"""The checked-in type stub of the extension is what stubgen makes of the built module, the
package is marked as typed, and its public functions are annotated."""

from __future__ import annotations

import difflib
import importlib.util
import inspect
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Callable, List

import bowstring
from bowstring import compute, errors, ipc, udf

PACKAGE_DIRECTORY = Path(bowstring.__file__).resolve().parent
ROOT = PACKAGE_DIRECTORY.parent.parent


def stub_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generate_stubs", ROOT / "tools" / "generate_stubs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_checked_in_stub_matches_the_built_module(tmp_path: Path) -> None:
    generator = stub_generator()
    fresh = tmp_path / "_core.pyi"
    try:
        generator.generate(fresh)
    except subprocess.CalledProcessError as error:
        raise AssertionError(f"stubgen failed:\n{error.stdout}{error.stderr}") from error
    checked_in = generator.STUB.read_text(encoding="utf-8").splitlines(keepends=True)
    generated = fresh.read_text(encoding="utf-8").splitlines(keepends=True)
    diff = "".join(
        difflib.unified_diff(checked_in, generated, "checked-in _core.pyi", "generated _core.pyi")
    )
    assert not diff, f"python/bowstring/_core.pyi is out of date: run make stubs\n{diff}"


def test_stub_declares_the_public_classes_with_precise_signatures() -> None:
    stub = (PACKAGE_DIRECTORY / "_core.pyi").read_text(encoding="utf-8")
    for name in ("Array", "ChunkedArray", "DataType", "Field", "RecordBatch", "Schema", "Table"):
        assert f"\nclass {name}:" in stub
    assert "def __init__(self, source: bowstring._protocols.ArrowArrayLike) -> None" in stub
    assert "def to_pylist(self) -> list[Any]:" in stub
    assert "def metadata(self) -> dict[bytes, bytes]:" in stub
    assert "\n__version__: str\n" in stub


def test_package_is_marked_as_typed() -> None:
    assert (PACKAGE_DIRECTORY / "py.typed").is_file()


def public_functions() -> List[Callable[..., object]]:
    functions: List[Callable[..., object]] = [bowstring.__getattr__, bowstring.__dir__]
    for module in (compute, ipc):
        functions += [getattr(module, name) for name in module.__all__]
    functions += [udf.map_batches, udf.shutdown]
    classes = [getattr(errors, name) for name in errors.__all__] + [udf.WorkerPool]
    for cls in classes:
        functions += [
            member
            for member_name, member in vars(cls).items()
            if inspect.isfunction(member)
            and (member_name == "__init__" or not member_name.startswith("_"))
        ]
    return functions


def test_public_functions_are_annotated_without_any() -> None:
    for function in public_functions():
        signature = inspect.signature(function)
        where = f"{function.__module__}.{function.__qualname__}"
        assert signature.return_annotation is not inspect.Signature.empty, where
        for parameter in signature.parameters.values():
            if parameter.name == "self":
                continue
            assert parameter.annotation is not inspect.Parameter.empty, (where, parameter.name)
            assert "Any" not in str(parameter.annotation), (where, parameter.name)
        assert "Any" not in str(signature.return_annotation), where
