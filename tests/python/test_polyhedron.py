"""Polyhedra from Python (World.add_polyhedron; docs/python.md): the body's
mass, centroid and principal moments against the closed forms of a box,
bad vertex lists raise, a cube set down on a wall carries its weight, and a
world of polyhedra saved and restored continues bit for bit."""
import numpy as np
import pytest

import floe


def box(a, b, c):
    return [(a * (k & 1), b * ((k >> 1) & 1), c * (k >> 2)) for k in range(8)]


def test_box_mass_properties():
    """A box a x b x c of density 2000: m = rho a b c at its centre,
    principal moments m (b^2 + c^2)/12 and the like (rel 1e-12)."""
    a, b, c, rho = 0.3, 0.2, 0.1, 2000.0
    w = floe.World()
    w.add_material("m", "linear", density=rho)
    i = w.add_polyhedron((1, 2, 3), box(a, b, c))
    m = rho * a * b * c
    assert w.masses[i] == pytest.approx(m, rel=1e-12)
    assert np.allclose(w.positions[i], (1 + a / 2, 2 + b / 2, 3 + c / 2), rtol=0, atol=1e-15)
    want = sorted([m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12])
    assert np.allclose(sorted(w.inertia[i]), want, rtol=1e-12, atol=0)


@pytest.mark.parametrize(
    "verts, words",
    [
        ([(0, 0, 0), (1, 0, 0), (0, 1, 0)], ["4 to 32", "got 3"]),
        ([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)], ["span no volume"]),
    ],
)
def test_bad_vertices(verts, words):
    w = floe.World()
    w.add_material("m", "linear")
    with pytest.raises((floe.ArgumentError, ValueError)) as e:
        w.add_polyhedron((0, 0, 0), verts)
    for word in words:
        assert word in str(e.value)


def resting_cube():
    w = floe.World(gravity=(0, 0, -9.81), dt=2e-5)
    w.add_material("m", "linear", density=1000)
    w.set_model("linear", kn=1e6, dp_nratio=0.3)
    w.add_wall("z")
    cube = [(x - 0.05, y - 0.05, z) for x, y, z in box(0.1, 0.1, 0.1)]
    i = w.add_polyhedron((0.2, -0.1, 0), cube)
    return w, i


def test_cube_carries_its_weight():
    """Set down flat: after 0.2 s the contact force is m g (1 kg, rel 1e-9)
    and the cube does not move."""
    w, i = resting_cube()
    w.run(10000)
    x0 = np.array(w.positions[i])
    w.run(1000)
    c = w.contacts()
    assert len(c["force"]) == 1
    assert -c["force"][0][2] == pytest.approx(9.81, rel=1e-9)  # on A, the wall
    assert np.array_equal(w.positions[i], x0)


def test_save_and_restore(tmp_path):
    a, i = resting_cube()
    b, _ = resting_cube()
    a.run(2000)
    b.run(1000)
    b.save(tmp_path / "state.h5")
    c = floe.restore(tmp_path / "state.h5")
    c.run(1000)
    assert np.array_equal(a.positions, c.positions)
    assert np.array_equal(a.orientations, c.orientations)
