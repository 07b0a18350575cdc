"""Shared set-up of the Python module's tests (tests/python, run by CTest as
python_test_*): where the module, the test data, the examples and the floe
command are, and small worlds the tests build on."""
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
if "PYTHONPATH" not in os.environ:  # run by hand: the build tree's module
    sys.path.insert(0, str(ROOT / "build" / "python"))

import floe  # noqa: E402

DATA = pathlib.Path(os.environ.get("FLOE_TEST_DATA", ROOT / "tests" / "data"))
EXAMPLES = pathlib.Path(os.environ.get("FLOE_EXAMPLES", ROOT / "examples"))
CLI = pathlib.Path(os.environ.get("FLOE_CLI", ROOT / "build" / "floe"))
SANITIZED = os.environ.get("FLOE_SANITIZED") == "1"


def glass_world(dt=1e-6, gravity=(0, 0, 0), **kw):
    """A world with one Linear material 'glass' (2500 kg/m^3, 1e8 Pa)."""
    w = floe.World(gravity=gravity, dt=dt, **kw)
    w.add_material("glass", "linear", density=2500, young=1e8)
    return w


@pytest.fixture
def world():
    w = glass_world()
    yield w
    w.close()
