"""The two front ends read a section through one key table
(docs/decisions.md#one-key-table-per-def-read-by-both-front-ends): a value
out of range is refused by floe.World / add_inlet / add_sink / add_dense
with the same words as by the scene loader (whose message adds the file
position and the section's path), and floe.keys' tables give the same
keys as the keyword arguments accept."""
import pytest

import floe

HEAD = "materials: [{name: m, model: linear}]\nrun: {steps: 1}\n"

# (scene text, the Python call on a world with material m, the message both give)
CASES = [
    ("world: {damping: 1.5}\n", lambda w: floe.World(damping=1.5), "damping = 1.5 is out of range [0, 1)"),
    ("world: {dt: 0}\n", lambda w: floe.World(dt=0), "dt = 0 s is out of range (0, inf)"),
    ("world: {threads: -1}\n", lambda w: floe.World(threads=-1), "threads = -1 is out of range [0, 4096]"),
    ("world: {renorm_period: 0}\n", lambda w: floe.World(renorm_period=0),
     "renorm_period = 0 steps is out of range [1, 1e+09]"),
    ("world: {dimension: 4}\n", lambda w: floe.World(dimension=4), "dimension = 4 must be 2 or 3"),
    ("inlets: [{name: a, box: [[0, 0, 0], [1, 1, 1]], rate: -1, radius: 0.001}]\n",
     lambda w: w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=-1, radius=0.001),
     "rate = -1 bodies/s is out of range (0, 1e+12]"),
    ("inlets: [{name: a, box: [[0, 0, 0], [1, 1, 1]], mass_rate: 2e+12, radius: 0.001}]\n",
     lambda w: w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), mass_rate=2e12, radius=0.001),
     "mass_rate = 2e+12 kg/s is out of range (0, 1e+12]"),
    ("inlets: [{name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 1, radius: 0.001, vel_spread: -1}]\n",
     lambda w: w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=1, radius=0.001, vel_spread=-1),
     "vel_spread = -1 m/s is out of range [0, 1e+12]"),
    ("inlets: [{name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 1, radius: 0.001, max_tries: 0}]\n",
     lambda w: w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=1, radius=0.001, max_tries=0),
     "max_tries = 0 is out of range [1, 1e+06]"),
    ("inlets: [{name: a, cylinder: {base: [0, 0, 0], axis: [0, 0, 1], radius: -1}, rate: 1, radius: 0.001}]\n",
     lambda w: w.add_inlet("a", cylinder=dict(base=(0, 0, 0), axis=(0, 0, 1), radius=-1), rate=1, radius=0.001),
     "cylinder.radius = -1 m is out of range (0, 1e+12]"),
    ("inlets: [{name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 1, radius: 0.001, shaft: 0.001}]\n",
     lambda w: w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=1, radius=0.001, shaft=0.001),
     "shaft: not a size of shape sphere (radius)"),
    ("inlets: [{name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 1, mass_rate: 1, radius: 0.001}]\n",
     lambda w: w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=1, mass_rate=1, radius=0.001),
     ": give one rate: rate or mass_rate, not both"),
    ("inlets: [{name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 1, radius: 0.001, shape: cube}]\n",
     lambda w: w.add_inlet("a", box=((0, 0, 0), (1, 1, 1)), rate=1, radius=0.001, shape="cube"),
     "shape: unknown shape 'cube'; allowed: sphere, capsule or ellipsoid"),
    ("sinks: [{name: s, box: [[0, 0, 0], [1, 1, 1]], start: -1}]\n",
     lambda w: w.add_sink("s", box=((0, 0, 0), (1, 1, 1)), start=-1), "start = -1 s is out of range [0, 1e+15]"),
    ("sinks: [{name: s, box: [[0, 0, 0], [1, 1, 1]], start: 2, end: 1}]\n",
     lambda w: w.add_sink("s", box=((0, 0, 0), (1, 1, 1)), start=2, end=1), "end: end = 1 s is before start = 2 s"),
    ("sinks: [{name: s, plane: {point: [0, 0, 0], normal: [0, 0, 0]}}]\n",
     lambda w: w.add_sink("s", plane=((0, 0, 0), (0, 0, 0))),
     "plane.normal: the normal (pointing into the removed side) must not be zero"),
    ("generators: [{dense: {box: [[0, 0, 0], [1, 1, 1]], radius: 0.1, solid_fraction: 0.5, max_overlap: 0.6}}]\n",
     lambda w: w.add_dense(box=((0, 0, 0), (1, 1, 1)), radius=0.1, solid_fraction=0.5, max_overlap=0.6),
     "max_overlap = 0.6 is out of range (0, 0.5]"),
    ("generators: [{dense: {box: [[0, 0, 0], [1, 1, 1]], radius: 0.1, solid_fraction: 0.5, max_iterations: 0}}]\n",
     lambda w: w.add_dense(box=((0, 0, 0), (1, 1, 1)), radius=0.1, solid_fraction=0.5, max_iterations=0),
     "max_iterations = 0 is out of range [1, 1e+09]"),
]


@pytest.mark.parametrize("scene, call, words", CASES)
def test_same_words_in_both_front_ends(tmp_path, scene, call, words):
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + scene)
    with pytest.raises(floe.SceneError) as e:
        floe.load(str(path), out=None)
    assert words in str(e.value)
    assert str(e.value).startswith(str(path) + ":")  # file:line:col
    w = floe.World()
    w.add_material("m")
    with pytest.raises(floe.ArgumentError) as e:
        call(w)
    assert words in str(e.value)


def test_unknown_keyword_and_none():
    with pytest.raises(TypeError, match="unexpected keyword argument 'dampin'"):
        floe.World(dampin=0.1)
    with pytest.raises(TypeError, match="dt_check"):
        floe.World(dt_check="warn")  # the scene loader's own key
    w = floe.World(damping=None, dt=None)  # None: the default (dt auto)
    assert w.dt_auto
    assert floe.World(dt="auto").dt_auto and not floe.World(dt=1e-5).dt_auto
