"""The laboratory from Python: the periodic cell (set_periodic,
set_velocity_gradient, affine_velocities, set_cell_servo, cell, wraps) and
the measurements (stress, solid_fraction, coordination, fabric) against
closed forms (docs/periodic.md, docs/measurements.md)."""
import math

import numpy as np
import pytest

import floe


def cubic_lattice(n=3, R=0.01, d=0.0198, threads=1, damping=0.0, young=1e8, jitter=0.0, seed=0):
    """n^3 spheres on a simple-cubic lattice of spacing d < 2R (each moved
    by up to `jitter` per axis, drawn from `seed`) in a cell
    periodic in x, y and z: every sphere touches its six neighbours, a third
    of the contacts through a face of the cell."""
    w = floe.World(dt=1e-6, threads=threads, damping=damping)
    w.add_material("m", "linear", density=2500, young=young, tan_phi=0.5)
    for ax in "xyz":
        w.set_periodic(ax, 0.0, n * d)
    g = (np.arange(n) + 0.5) * d
    pos = np.array([(x, y, z) for x in g for y in g for z in g])
    if jitter:
        pos += np.random.default_rng(seed).uniform(-jitter, jitter, pos.shape)
    w.add_spheres(pos, R, material="m")
    return w


def test_lattice_stress_against_closed_form():
    """Each axis carries n^3 contacts of force F = kn (2R - d) along branch
    vectors of length d, so the Love-Weber stress over the cell of volume
    (n d)^3 is sigma_kk = -n^3 d F / (n d)^3 = -F / d^2 on every axis, and
    zero off the diagonal (to 1e-9 of it). Coordination: z = 6, no rattler;
    fabric: 1/3 on the diagonal; solid fraction: n^3 (4/3 pi R^3) minus the
    lenses is not asked of it (the measurement counts whole spheres), so
    n^3 (4/3) pi R^3 / (n d)^3."""
    n, R, d = 3, 0.01, 0.0198
    w = cubic_lattice(n, R, d)
    w.start()
    c = w.contacts()
    assert len(c["ids"]) == 3 * n**3
    F = float(np.mean(np.linalg.norm(c["force"], axis=1)))
    assert np.allclose(np.linalg.norm(c["force"], axis=1), F, rtol=1e-12)
    assert F == pytest.approx(float(c["kn"][0]) * (2 * R - d), rel=1e-9)
    s = w.stress()
    assert np.allclose(np.diag(s), -F / d**2, rtol=1e-9)
    assert np.max(np.abs(s - np.diag(np.diag(s)))) < 1e-9 * F / d**2
    z = w.coordination()
    assert z["particles"] == n**3 and z["rattlers"] == 0 and z["z"] == pytest.approx(6.0)
    assert np.allclose(w.fabric(), np.eye(3) / 3, atol=1e-12)
    assert w.solid_fraction() == pytest.approx(n**3 * 4 / 3 * math.pi * R**3 / (n * d) ** 3, rel=1e-12)
    cell = w.cell()
    assert cell["axes"] == "xyz" and cell["volume"] == pytest.approx((n * d) ** 3, rel=1e-14)
    assert np.allclose(cell["h"], np.eye(3) * n * d)


def test_stress_from_the_contacts():
    """The Love-Weber stress over the cell recomputed from contacts() and
    the positions, sum over contacts of (x_B + image_shift - x_A) f / V, is
    w.stress() (to 1e-12 of its largest component; the same sums in the
    same order) for a jittered frictional lattice sheared and compressed
    (H_xy != 0: the shifts are not the offsets times the sides); every
    body's force and torque summed from the rows (force and torque_a on A,
    -force and torque_b on B) is w.forces and w.torques (to 1e-12)."""
    w = cubic_lattice(3, jitter=2e-4, seed=4)
    L = np.array([[-5.0, 100.0, 0], [0, -5.0, 0], [0, 0, -5.0]])
    w.set_velocity_gradient(L)
    w.affine_velocities()
    w.run(steps=300)
    c = w.contacts()
    x = w.positions
    a, b = c["ids"][:, 0], c["ids"][:, 1]
    l = x[b] + c["image_shift"] - x[a]
    assert np.any(c["image"] != 0) and np.any(c["image_shift"][c["image"][:, 1] != 0, 0] != 0)
    assert np.any(c["force_local"][:, 1:] != 0)  # friction
    s = np.einsum("ci,cj->ij", l, c["force"]) / w.cell()["volume"]
    ref = w.stress()
    assert np.max(np.abs(s - ref)) <= 1e-12 * np.max(np.abs(ref))
    f, t = np.zeros_like(x), np.zeros_like(x)
    np.add.at(f, a, c["force"])
    np.add.at(f, b, -c["force"])
    np.add.at(t, a, c["torque_a"])
    np.add.at(t, b, c["torque_b"])
    assert np.max(np.abs(f - w.forces)) <= 1e-12 * np.max(np.abs(w.forces))
    assert np.max(np.abs(t - w.torques)) <= 1e-12 * np.max(np.abs(w.torques))


def test_stress_needs_a_box_without_a_full_cell():
    w = floe.World()
    with pytest.raises(floe.ArgumentError, match="box"):
        w.stress()
    with pytest.raises(TypeError):
        w.stress(box=(0, 1))
    assert w.cell() is None


def test_crossing_body_wraps_and_keeps_its_velocity():
    """One sphere starting at x = 0.05 m, moving at 1 m/s along x in a cell
    of length 0.1 m, crosses the face at 0.05, 0.15 and 0.25 s: after 0.34 s
    it wrapped 3 times and sits at 0.05 + 0.34 - 3 * 0.1 (to 1e-12 m), its
    velocity untouched."""
    w = floe.World(dt=1e-4)
    w.add_material("m", "linear", density=1000, young=1e7)
    w.set_periodic("x", 0.0, 0.1)
    i = w.add_sphere((0.05, 0, 0), 0.01, material="m", vel=(1, 0, 0))
    w.run(steps=3400)
    assert w.wraps(i) == (3, 0, 0)
    assert w.positions[i][0] == pytest.approx(0.05 + 0.34 - 0.3, abs=1e-12)
    assert w.velocities[i][0] == 1.0


def test_cell_follows_velocity_gradient():
    """Simple shear L_xy = 0.5 /s for 0.2 s: H_xy grows by L_xy H_yy t =
    0.5 * 0.3 * 0.2 = 0.03 m (the cell flips only past H_yy/2), strain_xy =
    0.1; affine_velocities gives a body at y the velocity L_xy (y - lo)."""
    w = floe.World(dt=1e-3)
    w.add_material("m", "linear", density=1000, young=1e7)
    w.set_periodic("x", 0.0, 0.3)
    w.set_periodic("y", 0.0, 0.3)
    i = w.add_sphere((0.1, 0.2, 0), 0.01, material="m")
    L = np.zeros((3, 3))
    L[0, 1] = 0.5
    w.set_velocity_gradient(L)
    w.affine_velocities()
    assert w.velocities[i][0] == pytest.approx(0.5 * 0.2)
    w.run(steps=200)
    cell = w.cell()
    assert cell["h"][0, 1] == pytest.approx(0.03, rel=1e-9)
    assert cell["strain"][0, 1] == pytest.approx(0.1, rel=1e-9)
    with pytest.raises(TypeError, match="3 x 3"):
        w.set_velocity_gradient([1, 2, 3])


def test_cell_servo_holds_the_lattice_stress():
    """The lattice (touching, d = 2R, E = 1e7, damping 0.3) under a servo
    on every axis to a pressure P = 2e4 Pa: the cell shrinks until
    F/d^2 = P with F = kn (2R - d), i.e. d = (-kn + sqrt(kn^2 + 8 R kn P))
    / (2 P). After 60000 steps of 1e-6 s the stress is within 1e-6 of -P
    and the spacing within 1e-9 of d (the C test's figures)."""
    n, R, P = 3, 0.01, 2e4
    w = cubic_lattice(n, R, 2 * R, damping=0.3, young=1e7)
    for ax in "xyz":
        w.set_cell_servo(ax, -P, 2e-3, 20.0)
    w.run(steps=60000)
    s = w.stress()
    assert np.allclose(np.diag(s), -P, rtol=1e-6), np.diag(s)
    kn = float(w.contacts()["kn"][0])
    d = (-kn + math.sqrt(kn * kn + 8 * R * kn * P)) / (2 * P)
    assert np.allclose(np.diag(w.cell()["h"]) / n, d, rtol=1e-9)
    # the message names the value that is wrong, with its range
    with pytest.raises(floe.ArgumentError, match=r"gain = -1 1/\(Pa s\) is out of range \[0, 1e\+100\]") as e:
        w.set_cell_servo("x", -P, -1.0, 20.0)
    assert "stress" not in str(e.value) and "max_rate" not in str(e.value)
    with pytest.raises(floe.ArgumentError, match=r"max_rate = 0 1/s is out of range \(0, 1e\+06\]") as e:
        w.set_cell_servo("x", -P, 1.0, 0.0)
    assert "gain" not in str(e.value)


def test_cell_servo_without_a_gain_moves_a_loose_cell_at_max_rate():
    """Without a gain the servo's G is alpha / (K dt) (docs/periodic.md):
    with no contact (a lattice with 1 mm gaps, K = 0) the axis moves at
    -max_rate towards a compressive target, and the cell's side after N
    steps is L0 (1 - max_rate dt)^N (to 1e-12) while no contact forms. With
    a fixed gain the same loose cell moves at gain x |target|."""
    n, R, gap, P, rate = 3, 0.01, 1e-3, 2e4, 7.0
    w = cubic_lattice(n, R, 2 * R + gap)
    for ax in "xyz":
        w.set_cell_servo(ax, -P, max_rate=rate)
    w.run(steps=40)
    c = w.cell()
    assert np.allclose(np.diag(c["velocity_gradient"]), -rate, rtol=0, atol=0)
    assert np.allclose(np.diag(c["h"]), n * (2 * R + gap) * (1 - rate * 1e-6) ** 40, rtol=1e-12)
    assert len(w.contacts()["ids"]) == 0
    w = cubic_lattice(n, R, 2 * R + gap)
    w.set_cell_servo("x", -P, 1e-5, rate)
    w.step()
    assert w.cell()["velocity_gradient"][0, 0] == pytest.approx(-1e-5 * P, rel=1e-12)
    with pytest.raises(floe.ArgumentError, match="max_rate"):
        w.set_cell_servo("y", -P)
    with pytest.raises(floe.ArgumentError, match="alpha"):
        w.set_cell_servo("y", -P, max_rate=1.0, alpha=2.0)
    w.set_cell_servo("x", None)  # off: L_xx stays as the last step set it
    w.step()
    assert w.cell()["velocity_gradient"][0, 0] == pytest.approx(-1e-5 * P, rel=1e-12)


def test_cell_phases_compress_then_shear_in_one_run(tmp_path):
    """Cell phases (docs/periodic.md#phases): L0 = -e I from time 0, then
    simple shear L_xy = 20 1/s from t = 2e-3 s with the affine start. Phase 0
    is the cell's phase at step 0; the shear starts at the first state whose
    time is >= 2e-3 s; the strain is (I + dt L1)^N1 (1 - e dt)^N0 - I (the
    steps' closed form, to 1e-12). The phases read back as they were given,
    and a world saved before the switch and restored goes on bit for bit."""
    e, gd, T, dt = 5.0, 20.0, 2e-3, 1e-6
    phases = [
        dict(velocity_gradient=-e * np.eye(3)),
        dict(start=dict(time=T), velocity_gradient=[[0, gd, 0], [0, 0, 0], [0, 0, 0]], affine_velocities=True),
    ]

    def build():
        w = cubic_lattice(3, 0.01, 0.0201)
        w.set_cell_phases(phases)
        return w

    w = build()
    got = w.cell_phases()
    assert got[0]["start"] == {"time": 0.0} and np.array_equal(got[0]["velocity_gradient"], -e * np.eye(3))
    assert got[1]["servo"] == {} and got[1]["affine_velocities"] is True and got[1]["start"] == {"time": T}
    w.start()
    assert w.cell_phase() == 0 and w.cell()["phase"] == 0
    b = build()
    b.run(steps=1500)
    b.save(tmp_path / "b.h5")
    c = floe.restore(tmp_path / "b.h5")
    switch, t = None, 0.0
    for s in range(1, 3001):
        w.step()
        t += dt
        if switch is None and w.cell_phase() == 1:
            switch = s
            assert t >= T and t - dt < T
    assert switch in (2000, 2001)
    st = w.cell()["strain"]
    s0 = (1 - e * dt) ** switch
    assert st[0, 0] == pytest.approx(s0 - 1, abs=1e-12)
    assert st[0, 1] == pytest.approx(s0 * (3000 - switch) * dt * gd, abs=1e-12)
    assert w.cell()["velocity_gradient"][0, 1] == gd and w.cell()["velocity_gradient"][0, 0] == 0
    c.run(steps=1500)
    assert c.cell_phase() == 1
    assert np.array_equal(w.positions, c.positions) and np.array_equal(w.velocities, c.velocities)
    assert np.array_equal(w.cell()["h"], c.cell()["h"])
    # a servo and a strain trigger read back as given
    w.set_cell_phases([dict(servo=dict(x=dict(stress=-1e4, max_rate=5.0), y=dict(stress=-1e4, gain=1e-4))),
                       dict(start=dict(strain=-0.1, component="xx"))])
    got = w.cell_phases()
    assert got[0]["servo"] == {"x": {"stress": -1e4, "alpha": 0.5, "max_rate": 5.0},
                               "y": {"stress": -1e4, "gain": 1e-4, "max_rate": 1e6}}
    assert got[1]["start"] == {"strain": -0.1, "component": "xx"}
    with pytest.raises(floe.ArgumentError, match="missing 'start'"):
        w.set_cell_phases([{}, {}])
    with pytest.raises(floe.ArgumentError, match="component"):
        w.set_cell_phases([dict(start=dict(strain=0.1))])
    with pytest.raises(floe.ArgumentError, match="unknown key"):
        w.set_cell_phases([dict(velocity=1)])
    w.set_cell_phases([])
    assert w.cell_phase() == -1 and w.cell_phases() == []


def test_periodic_refuses_bad_input():
    w = floe.World()
    with pytest.raises(floe.ArgumentError):
        w.set_periodic("x", 1.0, 0.0)
    with pytest.raises(floe.ArgumentError, match="axis"):
        w.set_periodic("w", 0.0, 1.0)


@pytest.mark.parametrize("kind", ["compression", "shear"])
def test_deforming_cell_closes_the_energy_balance(kind):
    """A deforming cell does work on the bodies through the contacts with
    images (F_A . L H n per contact) and through the velocity jumps at wraps;
    both are booked as boundary work, so the balance closes (docs/periodic.md).
    64 jittered spheres, no damping: isotropic compression L = -20 I for 3000
    steps (the elastic energy grows from 0.2 to 24 J; error measured 1.4e-4,
    0.96 before the work was booked) and simple shear L_xy = 5 /s for 20000
    steps with wraps (error 1.1e-5, 0.40 before); bound 1e-3."""
    w = cubic_lattice(4, 0.01, 0.0199, young=1e7, jitter=1e-4, seed=1 if kind == "compression" else 2)
    L = np.zeros((3, 3))
    if kind == "compression":
        L = -20.0 * np.eye(3)
        steps = 3000
    else:
        L[0, 1] = 5.0
        steps = 20000
    w.set_velocity_gradient(L)
    w.affine_velocities()
    w.run(steps=steps)
    e = w.energy
    assert e["boundary"] > 0.1
    assert abs(e["error"]) < 1e-3, e
