"""Writes python/bowstring/_core.pyi, the type stub of the compiled extension, with nanobind's
stubgen (``make stubs``). The extension is imported from python/, where the development build
puts it; ``--output`` writes the stub elsewhere (the test comparing it with the checked-in one)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "python" / "bowstring" / "_core.pyi"
PATTERNS = ROOT / "tools" / "stubgen_patterns.txt"


def generate(output: Path) -> None:
    """Writes the stub of bowstring._core to ``output``; raises CalledProcessError (with
    stubgen's output) when stubgen fails."""
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    command = [
        sys.executable, "-m", "nanobind.stubgen", "--quiet",
        # The private functions too: the package's modules call them.
        "--include-private",
        "--module", "bowstring._core",
        "--pattern-file", str(PATTERNS),
        "--output-file", str(output),
    ]
    subprocess.run(command, env=environment, check=True, capture_output=True, text=True)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", type=Path, default=STUB, help="where to write the stub")
    arguments = parser.parse_args(argv)
    try:
        generate(arguments.output)
    except subprocess.CalledProcessError as error:
        sys.stderr.write(error.stdout + error.stderr)
        return 1
    print(f"wrote {arguments.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
