"""The tests import bowstring from the source tree (python/), where the in-place build puts the
compiled module, so that `python -m pytest python/tests` works as `make test-python` does."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
