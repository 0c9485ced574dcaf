import os
import subprocess
import sys
from pathlib import Path

import pytest

import bowstring

PACKAGE_ROOT = Path(bowstring.__file__).resolve().parent.parent


def stats_in_subprocess(allocator: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, BOWSTRING_ALLOCATOR=allocator, PYTHONPATH=str(PACKAGE_ROOT))
    return subprocess.run(
        [sys.executable, "-c", "import bowstring; print(bowstring.allocator_stats()['allocator'])"],
        env=env,
        capture_output=True,
        text=True,
    )


def test_version_matches_the_project_version() -> None:
    assert bowstring.__version__ == "0.1.0"


def test_allocator_stats_report_the_default_allocator() -> None:
    stats = bowstring.allocator_stats()
    assert stats["allocator"] in {"system", "mimalloc"}
    for key in ("bytes_in_use", "peak_bytes", "total_allocated", "allocations", "live_allocations"):
        assert isinstance(stats[key], int) and stats[key] >= 0
    assert stats["peak_bytes"] >= stats["bytes_in_use"]
    assert stats["allocations"] >= stats["live_allocations"]


@pytest.mark.parametrize("allocator", ["system", "mimalloc"])
def test_environment_variable_chooses_the_default_allocator(allocator: str) -> None:
    result = stats_in_subprocess(allocator)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == allocator


def test_unknown_allocator_name_is_a_value_error_naming_it() -> None:
    result = stats_in_subprocess("tcmalloc")
    assert result.returncode != 0
    assert "ValueError" in result.stderr
    assert "unknown allocator 'tcmalloc'" in result.stderr
