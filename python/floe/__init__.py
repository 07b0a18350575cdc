"""floe: a discrete element method engine for bonded and granular matter.

    import floe
    w = floe.load("examples/ice-floe.yaml", out="out")   # a scene, with its outputs
    w.run()                                               # to the scene's end

    w = floe.World(gravity=(0, 0, -9.81))                 # or a world built in code
    w.add_material("glass", "linear", density=2500, young=1e9)
    w.add_wall("z")
    w.add_sphere((0, 0, 0.1), 0.005)
    w.run(time=0.2)
    print(w.positions[1], w.energy["kinetic"])

floe.World is the simulation; floe.load and floe.restore make one from a
scene or a restart file; floe.read reads a run's output files back; floe.models() lists the contact models and their
parameters. Errors raise floe.FloeError (ArgumentError, SceneError,
RunawayError, OutputError) with floe's own message. floe.render(dir) and
World.render(png) draw pictures (docs/render.md). The tutorial and the
API reference: docs/python.md.
"""
import os as _os

# libgomp reads OMP_WAIT_POLICY once, when it is loaded (with the extension
# below): its default, spinning, makes threads ~10x slower beside another
# busy process. As the floe command does, wait passively unless the user
# chose a policy (docs/decisions.md#the-cli-re-executes-itself-for-a-passive-openmp-wait).
if "OMP_WAIT_POLICY" not in _os.environ and "GOMP_SPINCOUNT" not in _os.environ:
    _os.environ["OMP_WAIT_POLICY"] = "passive"



def _wrong_interpreter(why):
    """The message of an import by an interpreter floe's module was not built for."""
    import sys

    try:
        from ._build import NUMPY, PYTHON
    except ImportError:
        PYTHON, NUMPY = "/usr/bin/python3", "Debian's"
    here = _os.path.dirname(_os.path.abspath(__file__))
    return ("floe: %s (Python %s) %s. floe's module in %s was built for %s with numpy %s (Debian's "
            "python3-numpy). Run it with that interpreter (PYTHONPATH=%s %s), or install floe for the one you "
            "use, from the clone: %s -m venv --system-site-packages .venv && .venv/bin/pip install "
            "--no-build-isolation . (docs/python.md#install)"
            % (sys.executable, sys.version.split()[0], why, here, PYTHON, NUMPY, _os.path.dirname(here), PYTHON,
               PYTHON))


try:
    import numpy as _numpy  # noqa: F401
except ImportError as _e:
    raise ImportError(_wrong_interpreter("has no numpy")) from _e
try:
    from . import _floe  # noqa: F401
except ImportError as _e:
    if "numpy" not in str(_e) and "multiarray" not in str(_e):
        raise
    raise ImportError(_wrong_interpreter("cannot load it (%s, with numpy %s)" % (_e, _numpy.__version__))) from _e

from ._floe import (  # noqa: E402
    ENERGY_TERMS,
    EVENT_TYPES,
    MAX_COORD,
    MAX_GROUPS,
    MAX_THREADS,
    ROOM,
    SHAPES,
    ArgumentError,
    Event,
    FloeError,
    OutputError,
    RunawayError,
    SceneError,
    SceneWarning,
    StaleViewError,
    View,
    World,
    __version__,
    load,
    models,
    restore,
)

from .outputs import OUTPUT_UNITS, Frames, Run, read, read_csv, read_vtk, unit  # noqa: E402
from ._render import animate, render  # noqa: E402  (pictures: docs/render.md)

__all__ = [
    "World", "load", "restore", "models", "write_csv", "Event", "render", "animate",
    "FloeError", "ArgumentError", "SceneError", "RunawayError", "OutputError", "SceneWarning",
    "StaleViewError", "View",
    "ENERGY_TERMS", "EVENT_TYPES", "SHAPES", "MAX_COORD", "MAX_GROUPS", "MAX_THREADS", "ROOM",
    "read", "read_csv", "read_vtk", "unit", "Run", "Frames", "OUTPUT_UNITS",
]


def write_csv(path, table):
    """write_csv(path, table)

    Writes a dict of equal-length columns (w.history(), w.events(), w.contacts(),
    or any dict of 1-D and 2-D arrays) as a CSV file: one header line, one row
    per entry; a 2-D column of k components becomes k columns NAME_0 ... NAME_k-1.
    Numbers are written with 17 significant digits (they read back exactly).
    """
    import numpy as np

    names, cols = [], []
    n = None
    for key, col in table.items():
        a = np.asarray(col)
        if a.ndim == 0 or a.ndim > 2:
            raise ValueError("write_csv: column %r must be 1-D or 2-D, not %d-D" % (key, a.ndim))
        if n is None:
            n = len(a)
        elif len(a) != n:
            raise ValueError("write_csv: column %r has %d rows, the first has %d" % (key, len(a), n))
        if a.ndim == 1:
            names.append(str(key))
            cols.append(a)
        else:
            for k in range(a.shape[1]):
                names.append("%s_%d" % (key, k))
                cols.append(a[:, k])

    def fmt(v):
        if isinstance(v, (float, np.floating)):
            return "%.17g" % v
        if isinstance(v, (bool, np.bool_)):
            return "1" if v else "0"
        return str(v)

    tmp = str(path) + ".tmp"
    with open(tmp, "w") as f:
        f.write(",".join(names) + "\n")
        for i in range(n or 0):
            f.write(",".join(fmt(c[i]) for c in cols) + "\n")
    _os.replace(tmp, path)
