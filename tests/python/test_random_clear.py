"""add_random's spheres keep clear of what is already in the world, as a
scene's random generator does (they are the same C function,
floe_gen_random_world): a wall across the box and a big sphere inside it.
Overlap measured here: a sphere that crosses the wall's plane
(|z - 0.05| < r: a contact of the run; one wholly behind it makes none),
or a centre distance below the radii's sum. Exact: no tolerance. The
same draw without the test (a world without the two) puts 11 of the 100
spheres across one of them."""
import numpy as np

import floe
from conftest import glass_world

BOX = ((0, 0, 0), (0.1, 0.1, 0.1))


def test_add_random_keeps_clear_of_walls_and_bodies(tmp_path):
    w = glass_world()
    w.add_wall("z", 0.05, sense=1)
    big = w.add_sphere((0.05, 0.05, 0.075), 0.015)
    ids = w.add_random(BOX, 100, radius=(0.003, 0.005), seed=4)
    p, r = w.positions[ids], w.radii[ids]
    assert len(ids) == 100
    assert np.all(np.abs(p[:, 2] - 0.05) >= r)
    d = np.linalg.norm(p - w.positions[big], axis=1)
    assert np.all(d >= r + 0.015)
    # the scene's generator gives the same spheres
    (tmp_path / "s.yaml").write_text(
        "run: {steps: 1}\nmaterials: [{name: glass, density: 2500, young: 1e8}]\n"
        "walls: [{axis: z, pos: 0.05, sense: 1}]\nparticles: [{radius: 0.015, pos: [0.05, 0.05, 0.075]}]\n"
        "generators: [{random: {box: [[0, 0, 0], [0.1, 0.1, 0.1]], radius: [0.003, 0.005], count: 100, seed: 4}}]\n")
    s = floe.load(str(tmp_path / "s.yaml"), out=None)
    assert np.array_equal(s.positions[2:], p) and np.array_equal(s.radii[2:], r)
