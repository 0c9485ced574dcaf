"""Uses an installed bowstring from outside the source tree (run by tools/install_check.sh with
the virtualenv's interpreter, the virtualenv's directory as argument): the package and its
extension come from the virtualenv's site-packages, with the type stub and the py.typed marker,
and a compute call and a Python UDF give the right results."""

import importlib.metadata
import sys
import sysconfig
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

import bowstring
import bowstring.compute
import bowstring.udf

venv = Path(sys.argv[1]).resolve()
site_packages = Path(sysconfig.get_paths()["purelib"]).resolve()
package = Path(bowstring.__file__).resolve().parent
assert site_packages.is_relative_to(venv), f"{site_packages} is not in {venv}"
assert package == site_packages / "bowstring", f"bowstring was imported from {package}"
assert Path(bowstring._core.__file__).resolve().parent == package, bowstring._core.__file__
for name in ("_core.pyi", "py.typed"):
    assert (package / name).is_file(), f"{name} is not installed in {package}"
# The wheel holds one extension module, the one its build made (not one from a development
# build in the source tree), beside the stub and the marker.
recorded = [str(path) for path in importlib.metadata.files("bowstring") or []]
extensions = [p for p in recorded if p.startswith("bowstring/_core") and p.endswith(".so")]
assert len(extensions) == 1, f"the wheel holds the extensions {extensions}"
assert {"bowstring/_core.pyi", "bowstring/py.typed"} <= set(recorded), recorded

total = bowstring.compute.call("+", pa.array([1, 2, None]), 10)
assert total.to_pylist() == [11, 12, None], total.to_pylist()


def double(batches):
    for batch in batches:
        yield batch.set_column(0, "x", pc.multiply(batch.column("x"), 2))


doubled = pa.table(bowstring.udf.map_batches(double, pa.table({"x": [1, 2, 3]})))
assert doubled.column("x").to_pylist() == [2, 4, 6], doubled
bowstring.udf.shutdown()
print(f"bowstring {bowstring.__version__} installed in {package} works")
