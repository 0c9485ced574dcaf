"""``python -m bowstring.worker --fork-server [--control-fd N]``: the engine's fork server."""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

# Each worker runs one function on one core, next to the other workers (PySpark sets
# OMP_NUM_THREADS the same way). Native thread pools started by numpy's OpenBLAS would only
# compete with them, and their idle threads spin. Set before numpy is imported; a value the
# user gave (PoolOptions.environment) is kept.
_SINGLE_THREADED_LIBRARIES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def main(argv: Optional[List[str]] = None) -> int:
    """Parses the command line and runs the fork server; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bowstring.worker",
        description="Bowstring's Python worker fork server, started by the engine.",
    )
    parser.add_argument(
        "--fork-server",
        action="store_true",
        required=True,
        help="serve the engine's SPAWN requests on the control socket",
    )
    parser.add_argument(
        "--control-fd",
        type=int,
        default=3,
        metavar="N",
        help="descriptor of the control socket (default: 3)",
    )
    arguments = parser.parse_args(argv)
    for variable in _SINGLE_THREADED_LIBRARIES:
        os.environ.setdefault(variable, "1")
    from bowstring.worker import fork_server

    return fork_server.main(arguments.control_fd)


if __name__ == "__main__":
    sys.exit(main())
