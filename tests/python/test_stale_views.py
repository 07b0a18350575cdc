"""Views and removal (docs/python.md, "Views"): removing bodies (w.remove,
a sink) shifts the ids after a removed one, so a view taken before raises
floe.StaleViewError at every use, while the World goes on: a view held out
of reach (IPython's output cache) never stops a run. Inlets fill the arrays
only up to the room the views keep, so views never dangle. The notebook
itself is tested in a real kernel by test_notebook.py."""
import gc

import numpy as np
import pytest

import floe
from conftest import glass_world


def address(a):
    return a.__array_interface__["data"][0]


def row_world(n=6):
    w = glass_world()
    w.add_spheres([(0.01 * k, 0, 0) for k in range(n)], 0.004)
    return w


STALE_USES = {
    "index": lambda v: v[0],
    "write": lambda v: v.__setitem__(0, 0.0),
    "repr": repr,
    "str": str,
    "iterate": list,
    "method": lambda v: v.max(),
    "attribute": lambda v: v.shape,
    "copy": lambda v: v.copy(),
    "arithmetic": lambda v: v + 1,
    "in place": lambda v: v.__iadd__(0),
    "ufunc": np.sqrt,
    "comparison": lambda v: v == 0,
    "function": np.sum,
    "function of a list": lambda v: np.concatenate([v, v]),
    "linalg": np.linalg.norm,
    "ufunc out": lambda v: np.add(1.0, 1.0, out=v),
}


@pytest.mark.parametrize("use", sorted(STALE_USES))
def test_removal_makes_earlier_views_stale(use):
    # A view and a slice of it, taken before w.remove([1]): every use raises,
    # naming the step the view was taken at and the step of the removal.
    w = row_world()
    p = w.positions
    head, at = p[:3, 0], address(p)
    assert not head.stale
    w.remove([1])  # allowed with views alive
    assert len(w) == 5 and p.stale and head.stale
    for v in (p, head):
        with pytest.raises(floe.StaleViewError, match=r"taken at step 0, and bodies were removed since \(at step 0"):
            STALE_USES[use](v)
    # a new read shows the bodies now: body 2 (x = 0.02) is body 1 now
    q = w.positions
    assert not q.stale and q.shape == (5, 3) and q[1, 0] == 0.02
    assert address(q) == at  # the arrays did not move


def test_views_stay_current_across_adds_and_results_are_plain():
    # Adds within the room leave views current; arithmetic and numpy's
    # functions give plain arrays of their own memory.
    w = row_world(2)
    p = w.positions
    w.add_sphere((1, 0, 0), 0.004)
    assert not p.stale and p.shape == (2, 3)
    assert type(p) is floe.View and isinstance(p, np.ndarray)
    for r in (p * 2, p.max(axis=0), np.linalg.norm(p, axis=1), np.array(p)):
        assert type(r) is np.ndarray and not np.shares_memory(r, p)
    out = np.add(p, 0.0, out=p)
    assert out is p  # an `out` that was a view comes back as itself


def test_a_world_with_inlets_and_sinks_runs_with_views_alive():
    # The notebook case: a view kept (here `held`, in a notebook Out[n]) and
    # a world whose sink removes bodies. The run goes on; `held` is stale
    # from the callback after the first removal; views taken during the run
    # are current until the next removal.
    w = glass_world(dt=1e-4, gravity=(0, 0, -9.81))
    w.add_inlet("feed", box=((0, 0, 0.05), (0.1, 0.1, 0.1)), rate=2000, radius=1e-3, seed=1)
    w.add_sink("floor", plane=((0, 0, 0.045), (0, 0, -1)))  # below z = 0.045: in 0.1 s a body falls 0.05 m
    w.run(10)
    held = w.positions[:3]
    stale_at = []

    def look(w):
        if held.stale and not stale_at:
            stale_at.append(w.sinks()[0]["removed"])
        fresh = w.positions
        assert fresh.shape == (len(w), 3) and np.all(fresh[:, 2] >= 0.045)

    w.run(1500, every=50, callback=look)
    assert w.sinks()[0]["removed"] > 0 and stale_at and stale_at[0] > 0
    with pytest.raises(floe.StaleViewError):
        held.max()


def test_inlets_stop_at_the_room_of_live_views():
    # With a room of 64 bodies a view keeps the arrays at 64: the inlet,
    # owing 1000 bodies/s x 0.1 s = 100, stops there with FloeError (the
    # view still shows the same memory); once the views are gone the arrays
    # grow and the inlet fills its count.
    floe._floe._set_room(64)
    try:
        w = glass_world(dt=1e-4)
        w.add_inlet("feed", box=((0, 0, 0), (1, 1, 1)), rate=1000, radius=1e-3, seed=2)
        v = w.positions
        with pytest.raises(floe.FloeError, match="filled the room of 64 bodies"):
            w.run(1000)
        assert len(w) == 64 and address(w.positions) == address(v)
        del v
        gc.collect()
        w.run(1000 - w.step_count)
        assert len(w) == 100
    finally:
        floe._floe._set_room(floe.ROOM)
