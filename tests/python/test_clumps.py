"""Clumps from Python (docs/clumps.md): add_clump places the pebbles where
pos + ori (template point) says, the body at the union's centroid with
the union's mass (two equal spheres half overlapping: 2 V - V_lens, the
lens of two unit spheres at distance 1 being 5 pi / 12), its pebbles as
massless sphere particles; a clump dropped on a floor lands on its
three pebbles; a saved world resumes bit for bit."""
import math

import numpy as np
import pytest

import floe
from conftest import glass_world


def test_add_clump_places_pebbles_and_mass():
    w = glass_world(dt=1e-6)
    q = (math.cos(0.3), 0, 0, math.sin(0.3))  # 0.6 rad about z
    peb = np.array([[0, 0, 0, 1.0], [1.0, 0, 0, 1.0]])
    c = w.add_clump((1, 2, 3), peb, ori=q)
    assert c == 0 and w.count == 3
    assert [floe.SHAPES[s] for s in w.shapes] == ["clump", "sphere", "sphere"]
    # the pebbles where the template puts them (0.6 rad about z)
    assert np.allclose(w.positions[1], [1, 2, 3], atol=1e-12)
    assert np.allclose(w.positions[2], [1 + math.cos(0.6), 2 + math.sin(0.6), 3], atol=1e-12)
    # the body halfway; the union's mass, overlap once (quadrature: 1e-5)
    assert np.allclose(w.positions[0], [1 + 0.5 * math.cos(0.6), 2 + 0.5 * math.sin(0.6), 3], atol=1e-9)
    union = 2 * 4 / 3 * math.pi - 5 * math.pi / 12
    assert w.masses[0] == pytest.approx(2500 * union, rel=1e-5)
    assert w.masses[1] == 0 and w.masses[2] == 0
    # scale: the template's size, the mass times its cube
    big = w.add_clump((5, 0, 0), peb, scale=0.5)
    assert w.masses[big] == pytest.approx(w.masses[0] / 8, rel=1e-12)
    assert w.radii[big + 1] == 0.5
    with pytest.raises(ValueError, match="scale"):
        w.add_clump((0, 0, 0), peb, scale=0)
    with pytest.raises(ValueError, match="rows"):
        w.add_clump((0, 0, 0), [[0, 0, 0]])
    with pytest.raises(floe.FloeError, match="radius"):
        w.add_clump((0, 0, 0), [[0, 0, 0, -1]])


def test_clump_rests_and_resumes(tmp_path):
    w = glass_world(dt=2e-6, gravity=(0, 0, -9.81), threads=1)
    w.add_wall("z", 0, sense=1)
    peb = [[0, 0, 0, 0.01], [0.012, 0, 0, 0.01], [0.006, 0.01, -0.002, 0.008]]
    c = w.add_clump((0, 0, 0.01001), peb)
    most = 0  # contacts at some step: it lands on its three pebbles
    for _ in range(30):
        w.run(steps=100)
        most = max(most, len(w.contacts()["ids"]))
    w.save(str(tmp_path / "half.h5"))
    b = floe.restore(str(tmp_path / "half.h5"))
    w.run(steps=3000)
    b.run(steps=3000)
    assert np.array_equal(w.positions, b.positions)
    assert np.array_equal(w.orientations, b.orientations)
    assert most == 3
    assert w.positions[c][2] < 0.02
