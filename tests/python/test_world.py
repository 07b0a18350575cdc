"""floe.World built in code: settings, materials and their schema checks,
every body type and generator, groups and prescribed motion, model methods,
run() with its limits and callbacks, and two closed-form checks that the
numbers read through the module are the engine's."""
import math

import numpy as np
import pytest

import floe
from conftest import DATA, glass_world


def test_world_settings():
    w = floe.World(gravity=(0, 0, -9.81), dt=2e-6, damping=0.3, threads=1)
    assert np.array_equal(w.gravity, [0, 0, -9.81])
    assert w.dt == 2e-6 and not w.dt_auto and w.threads == 1
    w.gravity = (1, 2, 3)
    assert np.array_equal(w.gravity, [1, 2, 3])
    w.dt = 1e-6
    assert w.dt == 1e-6
    assert floe.World().dt_auto
    assert w.count == len(w) == 0 and w.step_count == 0 and w.time == 0.0
    assert "0 particles" in repr(w)
    w.close()
    assert w.closed and "closed" in repr(w)


def test_sphere_orientation_setting():
    """sphere_orientation=False: a spinning sphere keeps the orientation it
    was given, everything else as with the default (True)."""
    runs = []
    for turn in (True, False):
        w = floe.World(dt=1e-4, sphere_orientation=turn)
        w.add_material("grain", "linear", density=1000)
        w.add_sphere((0, 0, 0), 0.01, angvel=(0, 0, 5))
        w.run(steps=20)
        runs.append((w.orientations.copy(), w.angular_velocities.copy()))
    (q_on, om_on), (q_off, om_off) = runs
    assert np.array_equal(om_on, om_off)
    assert np.array_equal(q_off[0], [1, 0, 0, 0])
    # 20 steps at 5 rad/s about z: a turn of 0.01 rad
    assert q_on[0] == pytest.approx([math.cos(0.005), 0, 0, math.sin(0.005)], abs=1e-14)


@pytest.mark.parametrize(
    "kw, words",
    [
        (dict(damping=1.5), ["damping = 1.5", "[0, 1)"]),
        (dict(dt_safety=0), ["dt_safety", "(0, 1]"]),
        (dict(dimension=4), ["dimension = 4", "2 or 3"]),
        (dict(gravity=(0, 0, float("nan"))), ["gravity", "finite"]),
    ],
)
def test_world_settings_refused(kw, words):
    with pytest.raises(floe.ArgumentError) as e:
        floe.World(**kw)
    for word in words:
        assert word in str(e.value)


def test_world_settings_types():
    with pytest.raises(TypeError):
        floe.World(gravity=3)
    with pytest.raises(floe.ArgumentError, match="out of range"):
        floe.World(threads=-1)
    with pytest.raises(floe.ArgumentError, match="auto"):
        floe.World(dt="fast")


def test_materials_checked_against_the_schema():
    w = floe.World()
    m = w.add_material("ice", "ice", density=917, young=5e9)
    assert m == 0 and w.materials == ("ice",)
    assert w.material_model("ice") == "ice"
    p = w.material_params(m)
    assert p["density"] == 917 and p["young"] == 5e9
    schema = floe.models()["ice"]["material_params"]
    assert set(p) == set(schema)
    with pytest.raises(floe.ArgumentError) as e:
        w.set_material("ice", density=-1)
    assert "density = -1" in str(e.value) and "out of range (0, inf)" in str(e.value)
    with pytest.raises(floe.ArgumentError, match="unknown parameter 'densty'"):
        w.set_material(0, densty=900)
    with pytest.raises(floe.ArgumentError, match="unknown parameter 'densty'"):
        w.set_material(0, young=7e9, densty=900)
    assert w.material_params(0)["young"] == 5e9  # all or nothing
    with pytest.raises(floe.ArgumentError, match="young = 0 is out of range"):
        w.add_material("snow", "ice", young=0)
    assert w.materials == ("ice",)  # a refused material is not added
    with pytest.raises(floe.ArgumentError, match="unknown contact model 'jkr'.*linear"):
        w.add_material("x", "jkr")
    with pytest.raises(floe.ArgumentError, match="defined twice"):
        w.add_material("ice", "ice")
    with pytest.raises(floe.ArgumentError, match="unknown material 'ise'"):
        w.material_params("ise")
    with pytest.raises(TypeError):
        w.set_material("ice", density="heavy")


def test_models_and_pairs():
    w = floe.World()
    a = w.add_material("a", "ice")
    b = w.add_material("b", "linear")
    w.set_model("ice", bonds0=15, step01=100)
    with pytest.raises(floe.ArgumentError, match="bonds0 = 300"):
        w.set_model("ice", bonds0=300, step01=5)
    with pytest.raises(floe.ArgumentError, match="no model override"):
        w.set_pair(a, b, kn=1)
    w.set_pair("a", "b", model="linel6")
    w.set_pair(a, b, "linear", kn=1e5)
    with pytest.raises(floe.ArgumentError, match="kn = -1"):
        w.set_pair(a, b, kn=-1)
    info = floe.models()
    assert set(info) >= {"linear", "linel6", "ice", "softbond"}
    assert "bonds" in info["ice"]["state"]
    assert info["linear"]["law_params"]["kn"]["unit"] == "N/m"


def test_bodies_of_every_kind(tmp_path):
    w = glass_world()
    s = w.add_sphere((0, 0, 1), 0.01, vel=(1, 0, 0), block="z")
    c = w.add_capsule((1, 0, 1), 0.01, 0.04, axis=(0, 0, 1))
    e = w.add_ellipsoid((2, 0, 1), (0.01, 0.02, 0.03), ori=(1, 0, 0, 0))
    wall = w.add_wall("z", 0.5, sense=1)
    f = w.add_facet([[0, 0, 0], [1, 0, 0], [0, 1, 0]], half_thick=0.001)
    cyl = w.add_cylinder("y", (5, 0, 5), 0.1, angvel=(0, 2, 0))
    mesh = w.add_mesh(DATA / "ramp_ascii.stl", scale=2, translate=(0, 0, 3))
    assert (s, c, e, wall, f, cyl) == (0, 1, 2, 3, 4, 5) and list(mesh) == [6, 7]
    names = [floe.SHAPES[k] for k in w.shapes]
    assert names == ["sphere", "capsule", "ellipsoid", "wall", "facet", "cylinder", "facet", "facet"]
    # the capsule's shaft along z: its body x axis turned onto z
    q = w.orientations[c]
    x_axis = np.array([1 - 2 * (q[2] ** 2 + q[3] ** 2), 2 * (q[1] * q[2] + q[0] * q[3]), 2 * (q[1] * q[3] - q[0] * q[2])])
    assert np.allclose(x_axis, [0, 0, 1], atol=1e-15)
    # walls sit at pos along their axis; a mesh's facets share one reference point
    assert w.positions[wall][2] == 0.5
    assert np.array_equal(w.positions[6], w.positions[7])
    assert np.allclose(w.positions[6], [1, 1, 3.5])  # centroid (0.5, 0.5, 0.25) scaled by 2, then translated
    assert w.blocked[s] == 4 and w.blocked[wall] == 63
    assert w.masses[s] == pytest.approx(2500 * 4 / 3 * math.pi * 0.01**3, rel=1e-14)
    with pytest.raises(floe.ArgumentError, match="either ori or axis"):
        w.add_capsule((0, 0, 0), 0.01, 0.02, axis=(1, 0, 0), ori=(1, 0, 0, 0))
    with pytest.raises(floe.ArgumentError, match="along the cylinder's axis"):
        w.add_cylinder("x", (0, 0, 0), 0.1, vel=(0, 1, 0))
    with pytest.raises(floe.ArgumentError, match="radius = -1 is out of range"):
        w.add_sphere((0, 0, 0), -1)
    with pytest.raises(floe.ArgumentError, match="degenerate"):
        w.add_facet([[0, 0, 0], [1, 0, 0], [2, 0, 0]])
    bad = tmp_path / "bad.stl"
    bad.write_text("solid x\n  facet normal 0 0 1\n    outer loop\n      vertex 0 0 0\n")
    with pytest.raises(floe.ArgumentError, match="bad.stl:"):
        w.add_mesh(bad)
    assert w.count == 8  # nothing refused was added


def test_default_material_rules():
    w = floe.World()
    with pytest.raises(floe.ArgumentError, match="no material yet"):
        w.add_sphere((0, 0, 0), 0.01)
    w.add_material("a")
    w.add_sphere((0, 0, 0), 0.01)  # the only material
    w.add_material("b")
    with pytest.raises(floe.ArgumentError, match="give material="):
        w.add_sphere((1, 0, 0), 0.01)
    w.add_sphere((1, 0, 0), 0.01, material="b")
    assert list(w.material_ids) == [0, 1]


def test_add_spheres_vectorised():
    w = glass_world()
    pos = np.array([[i * 0.1, 0, 0] for i in range(5)])
    ids = w.add_spheres(pos, [0.01, 0.02, 0.03, 0.04, 0.05], vel=(0, 0, 1), group="g")
    assert list(ids) == [0, 1, 2, 3, 4]
    assert np.array_equal(w.positions, pos) and np.array_equal(w.radii, [0.01, 0.02, 0.03, 0.04, 0.05])
    assert np.all(w.velocities[:, 2] == 1) and list(w.group_members("g")) == [0, 1, 2, 3, 4]
    with pytest.raises(floe.ArgumentError, match=r"body 2 of 3 \(2 added before it stay\).*radius = -1"):
        w.add_spheres(np.zeros((3, 3)) + 1, [0.01, 0.01, -1])
    assert w.count == 7
    with pytest.raises(ValueError, match="one radius or 2"):
        w.add_spheres(np.zeros((2, 3)), [0.1, 0.2, 0.3])


def test_generators_match_their_recipes():
    w = glass_world()
    ids = w.add_lattice(0.03, (3, 2, 2), 0.01, origin=(1, 2, 3))
    assert len(ids) == 12
    # site p = i + nx (j + ny k): p = 10 is (i, j, k) = (1, 1, 1)
    assert np.allclose(w.positions[10], [1.03, 2.03, 3.03], rtol=0, atol=1e-15)
    r = w.add_random(((0, 0, 0), (0.2, 0.2, 0.2)), 30, radius=(0.01, 0.02), seed=5)
    pos, rad = w.positions[r], w.radii[r]
    assert np.all(np.diff(rad) <= 0)  # placed largest first
    d = np.linalg.norm(pos[:, None, :] - pos[None, :, :], axis=2) + np.eye(len(r))
    assert np.all(d >= rad[:, None] + rad[None, :] - 1e-15)
    assert np.all(pos - rad[:, None] >= 0) and np.all(pos + rad[:, None] <= 0.2)
    caps = w.add_random(((1, 1, 1), (1.2, 1.2, 1.2)), 10, shape="capsule", radius=0.01, shaft=(0.01, 0.03))
    ell = w.add_random(((2, 2, 2), (2.2, 2.2, 2.2)), 10, shape="ellipsoid", semi_axes=(0.01, (0.01, 0.02), 0.015))
    assert all(floe.SHAPES[k] == "capsule" for k in w.shapes[caps])
    assert all(floe.SHAPES[k] == "ellipsoid" for k in w.shapes[ell])
    with pytest.raises(floe.ArgumentError, match="too full"):
        w.add_random(((0, 0, 0), (0.05, 0.05, 0.05)), 1000, radius=0.01)
    with pytest.raises(floe.ArgumentError, match="shaft is not a size of shape 'sphere'"):
        w.add_random(((0, 0, 0), (1, 1, 1)), 1, radius=0.01, shaft=0.1)
    with pytest.raises(TypeError, match="needs semi_axes"):
        w.add_random(((0, 0, 0), (1, 1, 1)), 1, shape="ellipsoid")


def test_groups_motion_and_loads():
    w = glass_world(gravity=(0, 0, -9.81))
    g = w.add_group("piston", velocity=(0, 0, -0.5))
    assert g == 0 and w.groups == ("piston",)
    a = w.add_sphere((0, 0, 1), 0.01, group="piston")
    b = w.add_sphere((1, 0, 1), 0.01, group=["loaded", "other"])
    w.set_load("loaded", force=(0, 0, 9.81 * w.masses[b]))  # cancels gravity
    w.run(1000)
    assert w.positions[a][2] == pytest.approx(1 - 0.5 * 1000 * 1e-6, rel=1e-12)
    assert w.velocities[b][2] == pytest.approx(0, abs=1e-15)
    w.set_motion("piston", velocity=(0.1, 0, 0))
    w.run(10)
    assert w.velocities[a][0] == 0.1
    assert np.array_equal(w.group_force("piston"), [0, 0, 0])
    with pytest.raises(floe.ArgumentError, match="unknown group 'pistn'"):
        w.group_force("pistn")
    with pytest.raises(floe.ArgumentError, match="end >= start"):
        w.set_motion("piston", start=1, end=0)


def test_setters_and_blocks():
    w = glass_world()
    ids = w.add_spheres(np.zeros((3, 3)) + [[0, 0, 0], [1, 0, 0], [2, 0, 0]], 0.01)
    w.set_velocity(ids, [[1, 0, 0], [2, 0, 0], [3, 0, 0]])
    w.set_position(1, (5, 5, 5))
    w.set_angular_velocity([0, 2], (0, 0, 1))
    w.set_blocked(2, "xX")
    assert np.array_equal(w.velocities[:, 0], [1, 2, 3]) and np.array_equal(w.positions[1], [5, 5, 5])
    assert w.angular_velocities[2][2] == 1 and w.blocked[2] == 1 | 8
    with pytest.raises(floe.ArgumentError, match="particle id 9 is out of range"):
        w.set_velocity(9, (0, 0, 0))
    with pytest.raises(floe.ArgumentError, match="velocity"):
        w.set_velocity(0, (float("inf"), 0, 0))
    with pytest.raises(TypeError):
        w.set_velocity(np.array([0.5, 1.5]), (0, 0, 0))  # ids are whole numbers
    with pytest.raises(floe.ArgumentError, match="'q' is not a degree of freedom"):
        w.set_blocked(0, "q")


def test_run_limits_and_callbacks():
    w = glass_world(dt=1e-3)
    w.add_sphere((0, 0, 0), 0.01)
    assert w.run(10) == 10 and w.step_count == 10
    w.step()
    w.step(4)
    assert w.step_count == 15
    assert w.run(time=0.0105) == 11  # ceil(time/dt), as a scene's run.time
    seen = []
    n = w.run(20, every=5, callback=lambda w: seen.append(w.step_count))
    assert n == 20 and seen == [30, 35, 40, 45]  # on steps that are multiples of `every`
    n = w.run(until=lambda w: w.step_count >= 60, every=3)
    assert w.step_count == 60 and n == 14
    with pytest.raises(floe.ArgumentError, match="steps=, time= or until="):
        w.run()
    with pytest.raises(floe.ArgumentError, match="not both"):
        w.run(1, time=1)
    with pytest.raises(TypeError, match="callable"):
        w.run(1, callback=3)
    with pytest.raises(ZeroDivisionError):
        w.run(10, callback=lambda w: 1 / 0)
    assert w.step_count == 61  # stopped after the step the callback was called at
    with pytest.raises(floe.FloeError, match="callback of run"):
        w.run(2, callback=lambda w: w.run(1))
    with pytest.raises(floe.FloeError, match="running"):
        w.run(2, callback=lambda w: w.close())  # refused: the World is running
    assert not w.closed
    w2 = glass_world(dt=None)
    w2.add_sphere((0, 0, 0), 0.01)
    w2.run(time=1e-4)  # dt auto: up to the first step at or after it
    assert w2.time >= 1e-4 * (1 - 1e-12) and w2.time - w2.dt < 1e-4


def test_callback_changes_the_world():
    """A callback may move a wall (servo control) and add bodies between steps."""
    w = glass_world(dt=1e-5)
    wall = w.add_wall("x", 0.0)
    w.add_group("piston")
    w.set_motion("piston", velocity=(0, 0, 0))

    def servo(w):
        p = w.positions
        p[wall, 0] += 1e-6  # the wall moves 1 um per callback
        if w.step_count == 50:
            w.add_sphere((1, 0, 0), 0.01)

    w.run(100, every=10, callback=servo)
    assert w.positions[wall][0] == pytest.approx(10e-6, rel=1e-12) and w.count == 2


def test_model_methods_softbond():
    w = floe.World(dt=1e-7)
    w.add_material("rock", "softbond", density=2500, young=1e9)
    w.add_sphere((0, 0, 0), 0.001)
    w.add_sphere((0.0019, 0, 0), 0.001)
    w.start()
    assert w.contact_count == 1
    assert w.apply_method("softbond", "bond", -math.inf, 1e-6) == 1
    assert w.bonded_count == 1 and bool(w.contacts()["bonded"][0])
    assert w.apply_method("softbond", "unbond") == 1 and w.bonded_count == 0
    with pytest.raises(floe.ArgumentError, match="no method 'glue'"):
        w.apply_method("softbond", "glue")
    with pytest.raises(floe.ArgumentError, match="at most 8"):
        w.apply_method("softbond", "bond", *range(9))
    w.schedule_method(5, "softbond", "bond", -math.inf, 1e-6)
    w.run(5)
    assert w.bonded_count == 0
    w.step()
    assert w.bonded_count == 1
    with pytest.raises(floe.ArgumentError):
        w.schedule_method(1, "softbond", "nothing")
    with pytest.raises(TypeError, match="only group="):
        w.apply_method("softbond", "unbond", grp=1)


def test_normal_and_shear_law_with_prescribed_motion():
    """Two spheres, B driven at prescribed velocities against fixed A (Linear,
    kn and kt given): Fn = kn uN exactly, and the shear spring grows by
    kt |v_t| dt per step until the Coulomb limit tan_phi |Fn| holds it."""
    kn, kt, tan_phi, dt = 1e5, 4e4, 0.3, 1e-6
    w = floe.World(dt=dt)
    w.add_material("g", "linear", density=2500, young=1e8, tan_phi=tan_phi)
    w.set_model("linear", kn=kn, kt=kt)
    a = w.add_sphere((0, 0, 0), 0.01, fixed=True)
    w.add_group("b", velocity=(-0.01, 0, 0), end=0.01)  # 0.1 mm of approach over 10 ms
    b = w.add_sphere((0.02, 0, 0), 0.01, group="b")
    w.run(time=0.01)
    c = w.contacts()
    assert list(c["ids"][0]) == [a, b] and w.contact_index(b, a) == 0 and w.contact_index(a, a) == -1
    un, fn = c["un"][0], c["force_local"][0][0]
    assert un == pytest.approx(-1e-4, rel=1e-6)
    assert fn == pytest.approx(kn * un, rel=1e-12) and fn < 0  # compression is negative
    assert c["kn"][0] == kn and c["kt"][0] == kt
    assert np.allclose(c["force"][0], [fn * c["normal"][0][0], 0, 0])
    # now slide B sideways: the shear force builds up, then slips at tan_phi |Fn|
    v_t = 0.1
    w.set_motion("b", velocity=(0, v_t, 0))
    rows = []
    w.run(1000, callback=lambda w: rows.append(w.contacts()["force_local"][0].copy()))
    f = np.array(rows)
    assert abs(f[0][1]) == pytest.approx(kt * v_t * dt, rel=1e-3)  # one step of shear
    assert abs(f[100][1]) == pytest.approx(101 * kt * v_t * dt, rel=1e-3)  # elastic: linear growth
    assert abs(f[-1][1]) == pytest.approx(tan_phi * abs(f[-1][0]), rel=1e-9)  # on the Coulomb limit
    assert w.contacts()["slipping"][0] == 1.0  # the model's state column by its name


@pytest.mark.parametrize("zeta", [0.0, 0.2, 0.5])
def test_restitution_of_the_linear_dashpot(zeta):
    """A sphere hitting a wall with a linear spring and a dashpot of damping
    ratio zeta rebounds with e = exp(-pi zeta / sqrt(1 - zeta^2)) (the damped
    oscillator's half period; e.g. Schwager & Poeschel 2007); dt is 1/1000
    of the contact time, tolerance 0.5 %."""
    w = floe.World(dt=1e-6)
    w.add_material("g", "linear", density=2500, young=1e8)
    w.set_model("linear", kn=1e5, dp_nratio=zeta)
    w.add_wall("z", 0.0)
    s = w.add_sphere((0, 0, 0.0101), 0.01, vel=(0, 0, -0.1))
    w.run(until=lambda w: w.velocities[s][2] > 0 and w.contact_count == 0)
    e = w.velocities[s][2] / 0.1
    expected = math.exp(-math.pi * zeta / math.sqrt(1 - zeta**2))
    assert e == pytest.approx(expected, rel=5e-3)


def test_ids_in_arrays_are_whole_numbers():
    # A float id is refused in a list or an array as it is alone: 2.9 would
    # be truncated to body 2 by a cast to int64. Integer ids (lists, numpy
    # arrays of any integer type) and an empty list still work.
    w = glass_world()
    ids = w.add_spheres([[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]], 0.01)
    for bad in ([2.9], [1.5, 2], np.array([1.0]), [True, 2.5]):
        with pytest.raises(TypeError, match="whole numbers"):
            w.remove(bad)
        with pytest.raises(TypeError, match="whole numbers"):
            w.set_position(bad, (5, 5, 5))
        with pytest.raises(TypeError, match="whole numbers"):
            w.set_blocked(bad, "x")
    with pytest.raises(TypeError, match="whole number"):
        w.set_blocked(1.5, "x")
    assert len(w) == 4 and np.array_equal(w.positions[:, 0], [0, 1, 2, 3])
    assert w.blocked.tolist() == [0, 0, 0, 0]
    w.set_position(np.array([1], dtype=np.uint8), (5, 5, 5))
    w.set_blocked(np.array([3], dtype=np.int16), "x")
    assert w.positions[1][0] == 5 and w.blocked[3] == 1
    w.remove([])
    w.remove(np.array([ids[0]]))
    assert len(w) == 3


def bouncing_sphere(dt):
    """A sphere dropped on a floor; dt 1.47e-5 s is 0.6 of its contact's
    critical step 2 sqrt(m / kn) = 2.45e-5 s, where one impact errs by up to
    56 % of its energy (docs/integration.md#time-step-accuracy)."""
    w = floe.World(gravity=(0, 0, -9.81), dt=dt)
    w.add_material("m", "linear", density=2500, young=1e8, tan_phi=0)
    w.add_wall("z", 0.0, sense=1)
    w.add_sphere((0, 0, 0.01), 0.0015)
    return w


def test_energy_warning_once(tmp_path):
    """The balance error passing energy_warn (default 0.01) is said once: a
    RuntimeWarning and an energy_error event; not again after a restart."""
    import warnings

    w = bouncing_sphere(1.47e-5)
    with pytest.warns(RuntimeWarning, match=r"energy balance error is .* above energy_warn = 0.01"):
        w.run(time=0.1)
    ev = w.events()
    assert list(ev["type"]) == ["energy_error"]
    assert abs(ev["value"][0][0]) > 0.01 and ev["value"][0][1] == 0.01
    w.save(tmp_path / "r.h5")
    w2 = floe.restore(tmp_path / "r.h5")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        w.run(time=0.1)
        w2.run(time=0.1)
    assert len(w.events()["type"]) == 0 and len(w2.events()["type"]) == 0
    # energy_warn=0: never
    quiet = floe.World(gravity=(0, 0, -9.81), dt=1.47e-5, energy_warn=0)
    quiet.add_material("m", "linear", density=2500, young=1e8, tan_phi=0)
    quiet.add_wall("z", 0.0, sense=1)
    quiet.add_sphere((0, 0, 0.01), 0.0015)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet.run(time=0.1)
