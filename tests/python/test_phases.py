"""Phased group motion from Python (w.set_phases, group_phases, group_phase,
group_servo; docs/python.md, docs/laboratory.md), each against a closed form."""
import math
import re

import numpy as np
import pytest

import floe
from conftest import glass_world


def test_rotation_about_an_outside_axis_keeps_the_radius():
    # A sphere 0.1 m from an axis (z through (0.05, 0, 0)) that lies outside it
    # (radius 0.01): a rigid rotation keeps the distance to the axis and turns
    # the sphere by rate * t. The engine rotates by an exact quaternion per
    # step, so the radius is kept to round-off (tolerance 1e-12 relative) and
    # the angle to 1e-9 rad.
    w = glass_world(dt=1e-4)
    i = w.add_sphere((0.15, 0, 0), 0.01, group="arm")
    w.set_phases("arm", [dict(kind="rotate", axis=(0, 0, 2), rate=2.0, point=(0.05, 0, 0))])
    w.run(5000)  # t = 0.5 s, 1 rad
    p = np.array(w.positions[i]) - (0.05, 0, 0)
    assert math.hypot(p[0], p[1]) == pytest.approx(0.1, rel=1e-12)
    assert math.atan2(p[1], p[0]) == pytest.approx(1.0, abs=1e-9)
    assert p[2] == pytest.approx(0.0, abs=1e-15)
    assert w.group_phase("arm") == 0


def test_velocity_phase_starting_at_a_time_moves_by_v_times_t_minus_t0():
    # Free until t0 = 0.01 s, then v = (0.2, 0, -0.1) m/s: at t = 0.03 s the
    # displacement is v (t - t0) = (0.004, 0, -0.002) m. The trigger is checked
    # at the start of a step, so the start is exact to one step (dt 1e-5 s:
    # 2e-6 m at 0.2 m/s); tolerance 2.5e-6 m.
    w = glass_world(dt=1e-5)
    i = w.add_sphere((0, 0, 0), 0.01, group="piston")
    w.set_phases("piston", [dict(kind="free"),
                            dict(kind="velocity", velocity=(0.2, 0, -0.1), start=dict(time=0.01))])
    w.run(time=0.005)
    assert w.group_phase("piston") == 0
    w.run(time=0.025)
    assert w.group_phase("piston") == 1
    d = np.array(w.positions[i])
    assert d[0] == pytest.approx(0.004, abs=2.5e-6)
    assert d[2] == pytest.approx(-0.002, abs=2.5e-6)


def test_load_phase_accelerates_by_force_over_mass():
    # A free sphere under a constant force F from t0 = 0: x = F t^2 / (2 m).
    # Symplectic Euler gives x_n = a dt^2 n (n + 1) / 2, relative error 1/n
    # (n = 2000 steps: 5e-4); tolerance 1e-3 relative.
    w = glass_world(dt=1e-5)
    i = w.add_sphere((0, 0, 0), 0.01, group="probe")
    m = float(w.masses[i])
    F = 1e-3
    w.set_phases("probe", [dict(kind="load", force=(F, 0, 0))])
    w.run(2000)
    t = 2000 * 1e-5
    assert float(w.positions[i][0]) == pytest.approx(F * t * t / (2 * m), rel=1e-3)


def test_servo_lid_reaches_its_target_force():
    # A lid sphere pressed down on a fixed sphere by a servo with target
    # 5 N: in equilibrium the contact's normal force equals the target. The
    # automatic gain closes alpha = 0.5 of the error per step, so after
    # the approach (max_speed 0.05 m/s over a 1e-4 m gap) the error decays
    # geometrically; tolerance 0.5 % of the target, read from both the
    # servo's measurement and the contact force itself.
    w = glass_world(dt=1e-6)
    w.add_sphere((0, 0, 0), 0.01, fixed=True)
    w.add_sphere((0, 0, 0.0201), 0.01, group="lid")
    w.set_phases("lid", [dict(kind="servo", direction=(0, 0, -1), force=5.0, max_speed=0.05)])
    w.run(20000)
    s = w.group_servo("lid")
    assert s["target"] == 5.0
    assert s["measured"] == pytest.approx(5.0, rel=5e-3)
    assert abs(s["velocity"]) < 1e-3
    fn = w.contacts()["force_local"][:, 0]
    assert len(fn) == 1 and -fn[0] == pytest.approx(5.0, rel=5e-3)
    assert w.group_force("lid")[2] == pytest.approx(5.0, rel=5e-3)


def test_phases_round_trip_and_current_phase():
    w = glass_world()
    w.add_sphere((0, 0, 0), 0.01, group="g")
    assert w.group_phases("g") == [] and w.group_phase("g") == -1
    ph = [dict(kind="servo", direction=(0, 0, -2), stress=2e3, area=1.6e-3, max_speed=0.1),
          dict(kind="velocity", start=dict(force_above=3.0, direction=(0, 0, 1)), velocity=(0, 0, 0.05)),
          dict(kind="rotate", start=dict(step=10), axis=(0, 0, 3), rate=1.5),
          dict(kind="load", start=dict(displacement=-0.01), force_rate=(0.5, 0, 0)),
          dict(kind="free", start=dict(force_drop=0.5))]
    w.set_phases("g", ph)
    back = w.group_phases("g")
    assert [p["kind"] for p in back] == ["servo", "velocity", "rotate", "load", "free"]
    assert back[0]["stress"] == 2e3 and back[0]["area"] == 1.6e-3
    assert list(back[0]["direction"]) == [0, 0, -1]
    assert back[1]["start"]["force_above"] == 3.0
    assert back[2]["start"] == {"step": 10} and back[2]["rate"] == 1.5
    assert list(back[2]["axis"]) == [0, 0, 1]
    w.set_phases("g", back)  # what comes back is accepted again
    assert w.group_phases("g")[3]["start"]["displacement"] == -0.01
    w.set_phases("g", [])
    assert w.group_phases("g") == []


def test_phase_errors_name_the_key_and_the_range():
    w = glass_world()
    w.add_sphere((0, 0, 0), 0.01, group="g")
    with pytest.raises(floe.ArgumentError, match=r"phases\[0\]\.speed: unknown key \(known: kind, start, velocity"):
        w.set_phases("g", [dict(kind="velocity", speed=1)])
    with pytest.raises(floe.ArgumentError, match=r"phases\[0\]\.rate: a velocity phase does not take it \(it takes: kind, start, velocity"):
        w.set_phases("g", [dict(kind="velocity", rate=1)])
    with pytest.raises(floe.ArgumentError, match=r"phases\[0\]\.kind: unknown kind 'spin'; allowed: free, velocity"):
        w.set_phases("g", [dict(kind="spin")])
    with pytest.raises(floe.ArgumentError, match=r"phases\[1\]: missing 'start'"):
        w.set_phases("g", [dict(kind="free"), dict(kind="free")])
    with pytest.raises(floe.ArgumentError, match=r"phases\[0\]\.start: unknown key 'when' \(known: time, step"):
        w.set_phases("g", [dict(kind="free", start=dict(when=1))])
    # values: the engine's message (a scene's words), with the value and its range
    with pytest.raises(floe.ArgumentError, match=r"phases\[0\]\.alpha = 1\.5 is out of range \(0, 1\)"):
        w.set_phases("g", [dict(kind="servo", direction=(0, 0, 1), force=1, alpha=1.5)])
    with pytest.raises(floe.ArgumentError, match=r"phases\[0\]\.start\.force_drop = 2 is out of range \(0, 1\)"):
        w.set_phases("g", [dict(kind="free", start=dict(force_drop=2))])
    with pytest.raises(floe.ArgumentError, match=r"phases\[0\]: a stress target needs 'area' \(m\^2\)"):
        w.set_phases("g", [dict(kind="servo", direction=(0, 0, 1), stress=1)])
    with pytest.raises(floe.ArgumentError, match=r"phases\[0\]\.rate: 0 rad/s turns nothing"):
        w.set_phases("g", [dict(kind="rotate", axis=(0, 0, 1), rate=0)])
    # a body in two motion-controlled groups: the engine names both
    w.set_phases("g", [dict(kind="velocity")])
    w.add_group("h")
    w2 = glass_world()
    w2.add_sphere((0, 0, 0), 0.01, group=["a", "b"])
    w2.set_phases("a", [dict(kind="velocity")])
    with pytest.raises(floe.ArgumentError, match=r"'a'.*'b'|'b'.*'a'"):
        w2.set_phases("b", [dict(kind="velocity")])


# A phase refused from Python and from a scene file in the same words: the
# text after the phase's path ("phases[0]" in Python, "groups[0].phases[0]"
# in the scene, behind file:line:col) is the same. Each case is a dict for
# set_phases and the same phase in YAML flow syntax.
SAME_WORDS = [
    # a stress servo with area 0 would be a force target of 1000 N
    (dict(kind="servo", direction=(0, 0, -1), stress=1e3, area=0.0),
     "{kind: servo, direction: [0, 0, -1], stress: 1e3, area: 0}",
     r"\.area = 0 is out of range \(0, 1e\+100\]"),
    (dict(kind="servo", direction=(0, 0, -1), stress=1e3, area=1e300),
     "{kind: servo, direction: [0, 0, -1], stress: 1e3, area: 1e300}",
     r"\.area = 1e\+300 is out of range \(0, 1e\+100\]"),
    (dict(kind="servo", direction=(0, 0, -1), stress=1e3),
     "{kind: servo, direction: [0, 0, -1], stress: 1e3}",
     r": a stress target needs 'area' \(m\^2\)"),
    (dict(kind="servo", direction=(0, 0, 1), force=1, alpha=1.5),
     "{kind: servo, direction: [0, 0, 1], force: 1, alpha: 1.5}",
     r"\.alpha = 1\.5 is out of range \(0, 1\)"),
    (dict(kind="free", start=dict(force_above=1, direction=(0, 0, 0))),
     "{kind: free, start: {force_above: 1, direction: [0, 0, 0]}}",
     r"\.start\.direction: \(0, 0, 0\) has no direction"),
    (dict(kind="rotate", axis=(0, 0, 1), rate=0),
     "{kind: rotate, axis: [0, 0, 1], rate: 0}",
     r"\.rate: 0 rad/s turns nothing"),
    (dict(kind="velocity", velocity=(1e200, 0, 0)),
     "{kind: velocity, velocity: [1e200, 0, 0]}",
     r"\.velocity: \(1e\+200, 0, 0\) is out of range: each component in \[-1e\+100, 1e\+100\]"),
    (dict(kind="free", start=dict(force_drop=2)),
     "{kind: free, start: {force_drop: 2}}",
     r"\.start\.force_drop = 2 is out of range \(0, 1\)"),
]


@pytest.mark.parametrize("phase,yaml,words", SAME_WORDS)
def test_phase_refused_as_the_scene_refuses_it(tmp_path, phase, yaml, words):
    w = glass_world()
    w.add_sphere((0, 0, 0), 0.01, group="g")
    with pytest.raises(floe.ArgumentError) as py:
        w.set_phases("g", [phase])
    scene = tmp_path / "s.yaml"
    scene.write_text("run: {steps: 1}\nmaterials: [{name: m, density: 1000, young: 1e7}]\n"
                     "particles: [{pos: [0, 0, 0], radius: 0.01, group: g}]\n"
                     "groups: [{name: g, phases: [" + yaml + "]}]\n")
    with pytest.raises(floe.SceneError) as sc:
        floe.load(str(scene), out=None)
    py_tail = str(py.value).split("phases[0]", 1)[1]
    sc_tail = str(sc.value).split("groups[0].phases[0]", 1)[1]
    assert py_tail == sc_tail
    assert re.match(words, py_tail), py_tail


def test_phase_limits_are_said():
    # area = inf is refused with the range, as 1e300 is
    w = glass_world()
    w.add_sphere((0, 0, 0), 0.01, group="g")
    with pytest.raises(floe.ArgumentError, match=r"phases\[0\]\.area = inf is out of range \(0, 1e\+100\]"):
        w.set_phases("g", [dict(kind="servo", direction=(0, 0, -1), stress=1e3, area=math.inf)])


def test_directions_of_any_length_are_taken():
    # Directions are normalised, whatever their length: a rotation axis
    # whose length overflows (1e200 * sqrt(2)) and a servo direction whose
    # square underflows give the unit vectors (1, 1, 0)/sqrt(2) and
    # (0, 0, -1), to round-off (1e-15).
    w = glass_world()
    w.add_sphere((0, 0, 0), 0.01, group="g")
    w.set_phases("g", [dict(kind="rotate", axis=(1e200, 1e200, 0), rate=2.0),
                       dict(kind="servo", start=dict(time=1), direction=(0, 0, -1e-200), force=1.0)])
    rot, servo = w.group_phases("g")
    assert rot["axis"] == pytest.approx((2 ** -0.5, 2 ** -0.5, 0), abs=1e-15) and rot["rate"] == pytest.approx(2.0)
    assert list(servo["direction"]) == [0, 0, -1]
