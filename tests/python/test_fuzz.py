"""No call from Python crashes the interpreter: thousands of random calls on
a few Worlds (bad ids, NaN and infinities, negative and huge sizes, wrong
types and shapes, calls after close, views kept across adds, removals and closes),
seeded so that a failure replays. Every call may raise, but only a proper
exception: a SystemError means the module returned without setting one,
and a crash ends the test process. CTest runs this in `make test` (3000
calls, seconds) and, under `make sanitize`, with AddressSanitizer and
UBSan loaded into the interpreter (tests/python/README.md).

FLOE_FUZZ_CALLS and FLOE_FUZZ_SEED change the length and the seed."""
import gc
import math
import os
import random

import numpy as np
import pytest

import floe
from conftest import DATA

CALLS = int(os.environ.get("FLOE_FUZZ_CALLS", "3000"))
SEED = int(os.environ.get("FLOE_FUZZ_SEED", "20240611"))

# methods whose numbers set how much work a call does: kept small
BOUNDED = {"run", "step", "add_lattice", "add_random", "reserve", "record", "add_spheres", "schedule_method"}


class Boom:
    """An object that refuses every conversion."""

    def __float__(self):
        raise RuntimeError("no float")

    def __index__(self):
        raise RuntimeError("no index")

    def __len__(self):
        raise RuntimeError("no len")

    def __iter__(self):
        raise RuntimeError("no iter")


def values(rng, bounded):
    """One random argument value."""
    small = [0, 1, 2, 3, -1, 5, 7, True, np.int64(2), np.int32(-3)]
    big = [2**31, 2**63, -(2**63), 10**30, 2**31 - 1, 10**6]
    floats = [0.0, -0.0, 1e-3, 0.5, -1.0, math.nan, math.inf, -math.inf, 1e308, 5e-324, 1e100, 1e-300, np.float32(0.1)]
    strings = ["", "x", "glass", "ice", "linear", "softbond", "bond", "z", "q", "xyz", "all", "none", "broken",
               "sphere", "capsule", "\u00e9\u4e2d", "a" * 300, "auto", "pos.z", "kinetic", "g0"]
    vecs = [(0, 0, 0), (1, 2, 3), (math.nan, 0, 0), (1e300, 0, 0), [0.1, 0.2], [1, 2, 3, 4], "abc",
            np.zeros(3), np.ones((2, 3)), np.zeros((0, 3)), np.full((4, 3), np.nan), np.arange(9.0).reshape(3, 3),
            np.zeros((3, 3), dtype=np.int8), np.zeros(3, dtype=complex), [[0, 0, 0], [1, 0, 0], [0, 1, 0]]]
    others = [None, Boom(), object(), {}, {"name": "c", "particle": 0, "quantity": "pos.x"},
              [{"name": "e", "energy": "kinetic"}], [{"name": "c", "contact": (0, 1), "quantity": "fn"}],
              [{"name": "g", "group": "g0", "quantity": "force.z"}, {"bad": 1}],
              lambda *a: None, lambda *a: True, lambda *a: 1 / 0, ((0, 0, 0), (1, 1, 1)), ((0, 0, 0), (0.1, 0.1, 0.1)),
              (0.01, 0.02), [0, 1, 2], np.array([0, 1, 1000]), np.array([0.5]), (1, 1, 1), (2, 2, 2), (1000, 1000, 1000),
              DATA / "ramp_ascii.stl", DATA / "bad_garbage.stl", "/dev/zero", "/nonexistent/x.stl", b"bytes"]
    kind = rng.random()
    if kind < 0.25:
        v = rng.choice(small)
    elif kind < 0.32:
        v = rng.choice(big)
    elif kind < 0.52:
        v = rng.choice(floats)
    elif kind < 0.65:
        v = rng.choice(strings)
    elif kind < 0.82:
        v = rng.choice(vecs)
    else:
        v = rng.choice(others)
    if bounded and isinstance(v, (int, np.integer)) and not isinstance(v, bool) and abs(int(v)) > 1000:
        v = 10
    if bounded and isinstance(v, tuple) and v == (1000, 1000, 1000):
        v = (3, 3, 3)
    if bounded and isinstance(v, float) and v > 1 and math.isfinite(v):
        v = 1e-4  # a time of 1e308 s is a very long run
    return v


KEYWORDS = ["material", "group", "vel", "angvel", "ori", "fixed", "block", "axis", "sense", "half_thick", "center",
            "scale", "translate", "skip_degenerate", "origin", "jitter", "seed", "radius", "shape", "shaft",
            "semi_axes", "velocity", "angular_velocity", "start", "end", "force", "torque", "steps", "time", "until",
            "every", "callback", "on_event", "clear", "columns", "density", "young", "tan_phi", "kn", "bonds0",
            "model", "unknown_key"]


def make_world(rng):
    kind = rng.random()
    if kind < 0.15:
        try:
            return floe.load(DATA / "python_indent.yaml", out=None)
        except floe.FloeError:
            return None
    w = floe.World(gravity=(0, 0, -9.81), dt=rng.choice([1e-5, None]))
    w.add_material("glass", "linear", density=2500, young=1e8)
    if rng.random() < 0.5:
        w.add_material("ice", "ice", density=917, young=1e8)
    if rng.random() < 0.5:
        w.add_material("rock", "softbond", density=2500, young=1e8)
    w.add_group("g0")
    w.add_wall("z", material=0)
    w.add_lattice(0.0101, (3, 3, 2), 0.005, origin=(0, 0, 0.006), material=0)
    return w


def read(v):
    """What a view shows; a view taken before a removal (w.remove succeeds now and then) refuses."""
    if getattr(v, "stale", False):
        with pytest.raises(floe.StaleViewError):
            np.nansum(v)
        return
    float(np.nansum(v)) if v.dtype.kind == "f" else int(v.sum())


def test_random_calls_never_crash():
    rng = random.Random(SEED)
    names = sorted(n for n in dir(floe.World) if not n.startswith("_")) + ["__len__", "__repr__", "__enter__"]
    worlds = [make_world(rng) for _ in range(3)]
    worlds = [w for w in worlds if w is not None] or [make_world(rng)]
    views = []
    outcomes = {"ok": 0, "raised": 0}
    for i in range(CALLS):
        r = rng.random()
        if r < 0.01:
            worlds[rng.randrange(len(worlds))].close()  # calls after close follow
            continue
        if r < 0.02:
            worlds.append(make_world(rng) or worlds[0])
            if len(worlds) > 4:
                worlds.pop(0)
            gc.collect()
            continue
        if r < 0.04:
            if views:  # read what views show, whatever happened since
                read(views[rng.randrange(len(views))])
            if len(views) > 20:
                views.pop(0)
            continue
        if r < 0.06:
            fn = rng.choice([floe.load, floe.restore, floe.World])
            args = [values(rng, True) for _ in range(rng.randrange(3))]
            kw = {rng.choice(KEYWORDS + ["out", "threads"]): values(rng, True) for _ in range(rng.randrange(2))}
            if fn is floe.load:
                kw["out"] = None
            try:
                x = fn(*args, **kw)
                if isinstance(x, floe.World):
                    x.close()
                outcomes["ok"] += 1
            except SystemError:
                raise
            except Exception:
                outcomes["raised"] += 1
            continue
        w = worlds[rng.randrange(len(worlds))]
        name = rng.choice(names)
        bounded = name in BOUNDED
        args = [values(rng, bounded) for _ in range(rng.randrange(5))]
        kw = {}
        for _ in range(rng.randrange(3)):
            kw[rng.choice(KEYWORDS)] = values(rng, bounded)
        if name in ("run", "step"):  # never an unbounded run
            kw.pop("until", None)
            if name == "run" and not args and "steps" not in kw and "time" not in kw:
                kw["steps"] = rng.randrange(5)
        if name in ("write_vtk", "write_particles_csv", "write_contacts_csv", "save"):
            args = [os.path.join(os.environ.get("TMPDIR", "/tmp"), "floe_fuzz_%d" % os.getpid(), "f%d" % (i % 5))]
            os.makedirs(os.path.dirname(args[0]), exist_ok=True)
        try:
            attr = getattr(w, name)
            x = attr(*args, **kw) if callable(attr) else attr
            if isinstance(x, np.ndarray) and x.base is not None:
                views.append(x)
            outcomes["ok"] += 1
        except SystemError:
            raise
        except (Exception, KeyboardInterrupt) as e:
            assert not isinstance(e, KeyboardInterrupt)
            outcomes["raised"] += 1
    for v in views:  # every view still readable, or stale after a removal and saying so
        read(v)
    for w in worlds:
        w.close()
    assert outcomes["ok"] > CALLS // 20 and outcomes["raised"] > CALLS // 20, outcomes


def test_properties_and_views_after_close():
    w = make_world(random.Random(1))
    p, m = w.positions, w.masses
    w.close()
    for name in dir(floe.World):
        if name.startswith("_") or name in ("close", "closed"):
            continue
        with pytest.raises(floe.FloeError, match="closed"):
            attr = getattr(w, name)  # a property raises here
            try:
                attr()
            except TypeError:
                attr(0)  # a method that takes an argument
    assert p.shape[0] == m.shape[0] > 0 and np.isfinite(p).all()
    w.close()  # twice is fine
