"""Numpy views of the particle arrays: zero-copy, writable where writing
means something (positions, velocities), checked before the next step, and
never dangling: adding bodies after taking a view leaves the view showing
the current values (the arrays do not move while a view is alive), an add
that would move them is refused, and a closed or dropped World keeps the
memory its views show."""
import gc

import numpy as np
import pytest

import floe
from conftest import glass_world


def address(a):
    return a.__array_interface__["data"][0]


def test_views_are_zero_copy_and_live():
    w = glass_world(dt=1e-3, gravity=(0, 0, -10))
    w.add_sphere((0, 0, 1), 0.01)
    p, v = w.positions, w.velocities
    assert address(p) == address(w.positions) and p.base is not None
    w.run(10)
    assert p[0][2] < 1 and v[0][2] < 0  # the view shows the state after the steps, without a new read
    assert p.shape == (1, 3) and p.dtype == np.float64
    views = {
        "angular_velocities": (1, 3),
        "orientations": (1, 4),
        "forces": (1, 3),
        "torques": (1, 3),
        "radii": (1,),
        "masses": (1,),
        "inertia": (1, 3),
        "material_ids": (1,),
        "group_masks": (1,),
        "blocked": (1,),
    }
    for name, shape in views.items():
        a = getattr(w, name)
        assert a.shape == shape, name
        assert not a.flags.writeable, name
        with pytest.raises(ValueError):
            a[0] = 0
        with pytest.raises(ValueError):
            a.setflags(write=True)  # the engine's memory stays read-only
    assert w.orientations[0][0] == 1 and w.material_ids.dtype == np.int32


def test_writes_through_views_move_bodies():
    w = glass_world(dt=1e-6)
    a = w.add_sphere((0, 0, 0), 0.01)
    b = w.add_sphere((1, 0, 0), 0.01)
    w.step()
    assert w.contact_count == 0
    w.positions[b] = (0.0199, 0, 0)  # into contact with a, far beyond the Verlet skin
    w.velocities[a] = (0.5, 0, 0)
    w.step()
    assert w.contact_count == 1 and w.positions[a][0] == pytest.approx(0.5e-6, rel=1e-3)


def test_bad_values_written_are_refused_before_the_step():
    w = glass_world()
    w.add_sphere((0, 0, 0), 0.01)
    w.add_sphere((1, 0, 0), 0.01)
    p = w.positions
    p[1, 2] = np.nan
    with pytest.raises(floe.ArgumentError, match=r"particle 1: position \(1, 0, nan\)"):
        w.step()
    assert w.step_count == 0
    p[1, 2] = 0
    w.velocities[0] = (1e300, 0, 0)
    with pytest.raises(floe.ArgumentError, match="particle 0: velocity"):
        w.run(5)
    w.velocities[0] = 0
    w.run(5)
    # written in a callback: checked after it, before the next step
    with pytest.raises(floe.ArgumentError, match="particle 0: position"):
        w.run(5, callback=lambda w: w.positions.__setitem__((0, 0), np.inf))
    assert w.step_count == 6


def test_adding_bodies_after_taking_a_view():
    """Bodies added after a view was taken: no crash, no stale data."""
    w = glass_world(dt=1e-4, gravity=(0, 0, -10))
    w.add_sphere((0, 0, 1), 0.01)
    w.add_sphere((1, 0, 1), 0.01)
    p = w.positions
    tail = p[1:]  # derived arrays share the memory too
    flat = np.asarray(p).reshape(-1)
    before = address(p)
    ids = w.add_lattice(0.05, (20, 20, 5), 0.01, origin=(10, 10, 10))  # 2000 more bodies
    assert len(ids) == 2000 and w.count == 2002
    w.run(20)
    now = w.positions
    assert address(now) == before  # the arrays did not move
    assert np.array_equal(p, now[:2]) and np.array_equal(tail, now[1:2]) and np.array_equal(flat, now[:2].reshape(-1))
    assert p[0][2] < 1  # current values, not those of when the view was taken
    # an add that would move the arrays under live views is refused before anything is done
    with pytest.raises(floe.FloeError, match="numpy views of them are alive"):
        w.add_random(((0, 0, 0), (1, 1, 1)), 2_000_000, radius=1e-4)
    with pytest.raises(floe.FloeError, match="numpy views"):
        w.reserve(4_000_000)
    assert w.count == 2002
    del p, tail, flat, now
    gc.collect()
    w.reserve(10)  # no view alive: allowed (nothing to do here)
    assert w.add_sphere((5, 5, 5), 0.01) == 2002


def test_views_outlive_close_and_the_world():
    w = glass_world(dt=1e-3, gravity=(0, 0, -10))
    w.add_sphere((0, 0, 1), 0.01)
    w.run(10)
    p = w.positions
    last = p.copy()
    w.close()
    assert np.array_equal(p, last)  # the memory stays while the view does
    with pytest.raises(floe.FloeError, match="closed"):
        w.positions
    with pytest.raises(floe.FloeError, match="closed"):
        w.run(1)
    del w
    gc.collect()
    assert np.array_equal(p, last)
    r = glass_world().radii  # a World that only its view keeps
    assert r.shape == (0,)
    q = None

    def make():
        w = glass_world()
        w.add_sphere((1, 2, 3), 0.5)
        return w.positions

    q = make()
    gc.collect()
    assert np.array_equal(q, [[1, 2, 3]])


def test_contacts_as_arrays():
    w = floe.World(dt=1e-7)
    w.add_material("ice", "ice", density=917, young=1e9)
    w.add_material("grain", "linear", density=2500, young=1e8)
    w.set_model("ice", bonds0=15, step01=10)
    w.add_sphere((0, 0, 0), 0.01, material="ice")
    w.add_sphere((0.0199, 0, 0), 0.01, material="ice")
    w.add_sphere((0, 1, 0), 0.01, material="grain")
    w.add_sphere((0.0199, 1, 0), 0.01, material="grain")
    w.start()
    c = w.contacts()
    assert c["ids"].shape == (2, 2) and c["normal"].shape == (2, 3)
    names = list(floe.models())
    by_model = {names[m]: i for i, m in enumerate(c["model"])}
    ice, lin = by_model["ice"], by_model["linear"]
    assert c["bonded"][ice] and not c["bonded"][lin]
    assert np.allclose(c["normal"][ice], [1, 0, 0]) and c["un"][ice] == pytest.approx(-1e-4, rel=1e-9)
    # every model's state column by its name, NaN where the model has none;
    # ice's "bonded" state is renamed, as in contacts.csv
    assert c["bonds"][ice] == 15 and np.isnan(c["bonds"][lin])
    assert "state_bonded" in c and "slipping" in c and np.isnan(c["slipping"][ice])
    assert c["uN0"][lin] == 0  # a name two models share is one column
