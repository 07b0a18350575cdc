"""Inlets, sinks, removal and the dense generator from Python (w.add_inlet,
add_sink, inlets, sinks, remove, add_dense; docs/python.md, docs/supply.md),
each against a count, a mass or a fraction known in closed form."""
import math

import numpy as np
import pytest

import floe
from conftest import glass_world

RHO = 2500.0  # glass_world's density [kg/m^3]


def sphere_mass(r):
    return RHO * 4.0 / 3.0 * math.pi * r ** 3


def test_inlet_at_a_count_rate_inserts_floor_rate_times_t():
    # rate 1234 bodies/s for t = 500 steps of 1e-4 s = 0.05 s: it owes
    # 61.7 bodies and inserts while it owes at least one, so floor(61.7) =
    # 61 bodies, each of mass rho 4/3 pi r^3 (room for all: 61 spheres of
    # radius 1 mm in a 0.1 m box, volume fraction 6e-5).
    w = glass_world(dt=1e-4)
    w.add_inlet("feed", box=((0, 0, 0), (0.1, 0.1, 0.1)), rate=1234, radius=1e-3, seed=3)
    w.run(500)
    s = w.inlets()[0]
    assert s["name"] == "feed"
    assert s["inserted"] == math.floor(1234 * 0.05) == 61 == len(w)
    assert s["mass"] == pytest.approx(61 * sphere_mass(1e-3), rel=1e-12)
    assert s["asked"] == pytest.approx(61.7, rel=1e-9)
    assert s["missed"] == 0 and not s["short_of_rate"]
    p = np.array(w.positions)
    assert (p >= 0).all() and (p <= 0.1).all()


def test_inlet_by_mass_and_window():
    # mass_rate M = 0.05 kg/s active from 0.01 s to 0.03 s: it owes M (0.02 s)
    # = 1e-3 kg and inserts a body while it owes that body's mass, so the
    # inserted mass is within one body's mass below 1e-3 kg (radii uniform in
    # [1, 1.5] mm: the largest body weighs 3.53e-5 kg).
    w = glass_world(dt=1e-4)
    w.add_inlet("m", cylinder=dict(base=(0, 0, 0), axis=(0, 0, 0.1), radius=0.05), mass_rate=0.05,
                start=0.01, end=0.03, radius=(1e-3, 1.5e-3), seed=1)
    w.run(400)
    s = w.inlets()[0]
    assert 1e-3 - sphere_mass(1.5e-3) <= s["mass"] <= 1e-3 + 1e-12
    assert s["asked"] == pytest.approx(1e-3, rel=1e-9)
    r = np.array(w.radii)
    assert (r >= 1e-3).all() and (r <= 1.5e-3).all()


def test_sink_removes_the_right_count_and_mass():
    # A 3 x 3 x 3 lattice (spacing 0.01 m, radius 4 mm) without gravity: the
    # box sink x < 0.005 holds the 9 bodies of the first layer, the plane
    # sink z > 0.015 (normal +z) the 6 of the top layer not already
    # removed: 15 bodies, 15 m, and 12 stay.
    w = glass_world(dt=1e-5)
    w.add_lattice(0.01, (3, 3, 3), 0.004)
    w.add_sink("left", box=((-1, -1, -1), (0.005, 1, 1)))
    w.add_sink("top", plane=((0, 0, 0.015), (0, 0, 1)))
    w.run(1)
    m = sphere_mass(0.004)
    left, top = w.sinks()
    assert left["removed"] == 9 and left["mass"] == pytest.approx(9 * m, rel=1e-12)
    assert top["removed"] == 6 and top["mass"] == pytest.approx(6 * m, rel=1e-12)
    assert len(w) == 12
    p = np.array(w.positions)
    assert (p[:, 0] > 0.005).all() and (p[:, 2] < 0.015).all()


def test_inlet_recycles_a_sink():
    # Bodies fall through a plane sink and the inlet re-inserts each one it
    # removes: the count stays what the first inlet put in (2000/s for
    # 0.01025 s: floor(20.5) = 20).
    w = glass_world(dt=1e-4, gravity=(0, 0, -9.81))
    w.add_sink("floor", plane=((0, 0, 0), (0, 0, -1)))
    w.add_inlet("fill", box=((0, 0, 0.05), (0.1, 0.1, 0.1)), rate=2000, end=0.01025, radius=1e-3, seed=2)
    w.add_inlet("back", box=((0, 0, 0.05), (0.1, 0.1, 0.1)), recycle="floor", radius=1e-3, seed=4)
    w.run(1500)  # 0.15 s: a body from 0.1 m falls out after at most 0.143 s
    fill, back = w.inlets()
    removed = w.sinks()[0]["removed"]
    assert fill["inserted"] == 20 and removed > 0
    assert back["inserted"] == removed
    assert len(w) == 20


def test_remove_shifts_ids():
    w = glass_world()
    ids = w.add_spheres([(0.01 * k, 0, 0) for k in range(6)], 0.004)
    assert list(ids) == list(range(6))
    assert w.remove([3, 1]) == 0.0  # before the first step nothing leaves the balance
    assert len(w) == 4
    np.testing.assert_array_equal(np.array(w.positions)[:, 0], [0.0, 0.02, 0.04, 0.05])
    with pytest.raises(floe.ArgumentError, match=r"id 4 \(entry 0\) is out of range \[0, 4\)"):
        w.remove([4])
    with pytest.raises(floe.ArgumentError):
        w.remove([0, 0])  # the engine refuses a repeated id


def test_remove_after_start_books_the_kinetic_energy():
    # A body at 2 m/s removed after the first step takes m v^2 / 2 out of
    # the balance (docs/decisions.md#removed-bodies-leave-through-the-boundary-term).
    w = glass_world(dt=1e-5)
    w.add_sphere((0, 0, 0), 0.005, vel=(2, 0, 0))
    w.add_sphere((0.1, 0, 0), 0.005)
    w.run(1)
    assert w.remove([0]) == pytest.approx(0.5 * sphere_mass(0.005) * 4.0, rel=1e-12)


def test_add_dense_reaches_its_solid_fraction():
    # Equal spheres (r = 1 mm) in a 16 mm box at solid fraction 0.55: the
    # radii are scaled so that their volume is exactly 0.55 of the box's;
    # w.solid_fraction(box) counts only the parts inside the box, which
    # lacks the caps poking through the faces (depth <= max_overlap r =
    # 1e-5 m: a cap of at most pi h^2 (r - h/3) = 3e-13 m^3 each, <1e-4 of
    # the solid fraction summed over all spheres); tolerance 1e-3.
    w = glass_world()
    box = ((0, 0, 0), (0.016, 0.016, 0.016))
    ids = w.add_dense(box=box, radius=1e-3, solid_fraction=0.55, seed=1)
    n = len(ids)
    r = np.array(w.radii)
    assert n == len(w)
    assert n * 4 / 3 * math.pi * r[0] ** 3 / 0.016 ** 3 == pytest.approx(0.55, rel=1e-9)
    assert np.ptp(r) == 0 and r[0] == pytest.approx(1e-3, rel=0.02)
    assert w.solid_fraction(box) == pytest.approx(0.55, abs=1e-3)
    # no overlap above max_overlap = 1 % of a radius
    w.start()
    fn = w.contacts()["ids"]
    p = np.array(w.positions)
    if len(fn):
        gap = np.linalg.norm(p[fn[:, 0]] - p[fn[:, 1]], axis=1) - 2 * r[0]
        assert gap.min() >= -0.0101 * r[0]


def test_add_dense_in_a_cylinder_with_a_distribution():
    # Lognormal radii, cylinder R = 6 mm, H = 12 mm, solid fraction 0.5: the
    # spheres' volume is 0.5 of pi R^2 H (to round-off).
    w = glass_world()
    ids = w.add_dense(cylinder=dict(base=(0, 0, 0), radius=0.006, height=0.012), solid_fraction=0.5,
                      radius=dict(dist="lognormal", median=8e-4, sigma=0.2, min=5e-4, max=1.2e-3), seed=2)
    r = np.array(w.radii)
    v = (4 / 3 * math.pi * r ** 3).sum()
    assert v / (math.pi * 0.006 ** 2 * 0.012) == pytest.approx(0.5, rel=1e-9)
    p = np.array(w.positions)
    assert len(ids) == len(w) and (np.hypot(p[:, 0], p[:, 1]) < 0.006).all()


def test_supply_errors_name_the_key_and_the_range():
    w = glass_world()
    with pytest.raises(floe.ArgumentError, match=r"rate = -1 bodies/s is out of range \(0, 1e\+12\]"):
        w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=-1, radius=1e-3)
    with pytest.raises(floe.ArgumentError, match=r"give rate \(bodies/s\) or mass_rate \(kg/s\), or recycle"):
        w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), radius=1e-3)
    with pytest.raises(floe.ArgumentError, match=r"give the region: box, cylinder or triangles"):
        w.add_inlet("a", rate=1, radius=1e-3)
    with pytest.raises(floe.ArgumentError, match=r"radius: unknown key 'median2' \(known: dist, min, max"):
        w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=1, radius=dict(dist="lognormal", median2=1))
    with pytest.raises(floe.ArgumentError, match=r"radius.std: a uniform distribution does not take it"):
        w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=1, radius=dict(dist="uniform", min=1, max=2, std=1))
    with pytest.raises(floe.ArgumentError, match=r"shaft: not a size of shape sphere"):
        w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=1, radius=1e-3, shaft=1e-3)
    with pytest.raises(floe.ArgumentError, match=r"cylinder: unknown key 'height' \(known: base, axis, radius\)"):
        w.add_inlet("a", cylinder=dict(base=(0, 0, 0), height=1), rate=1, radius=1e-3)
    with pytest.raises(floe.ArgumentError, match=r"recycle: unknown sink 'nope'"):
        w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), recycle="nope", radius=1e-3)
    with pytest.raises(floe.ArgumentError, match=r"normal"):
        w.add_sink("s", plane=((0, 0, 0), (0, 0, 0)))
    with pytest.raises(floe.ArgumentError, match=r"solid_fraction: 0\.8 is out of range \(0, 0\.7405\]"):
        w.add_dense(box=((0, 0, 0), (0.01, 0.01, 0.01)), radius=1e-3, solid_fraction=0.8)
    with pytest.raises(floe.ArgumentError, match=r"did not reach solid_fraction 0\.7"):
        w.add_dense(box=((0, 0, 0), (0.01, 0.01, 0.01)), radius=1e-3, solid_fraction=0.7, max_iterations=300)
    w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=1, radius=1e-3)
    with pytest.raises(floe.ArgumentError, match=r"'a'"):
        w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=1, radius=1e-3)  # a name already used
