#!/usr/bin/python3
"""One-dimensional compaction of a dense packing under a servo-controlled lid.

A dense packing of equal glass spheres (w.add_dense, solid fraction 0.52)
fills a box closed by five fixed walls and a lid (a wall in group "lid").
The lid follows three phases (w.set_phases, the keys of a scene's
groups[].phases): a servo holding a vertical stress s1 on the packing,
then, from t1, a servo holding s2 = 4 s1, then, from t2, a velocity phase
that lifts it off. The script records the lid's servo (w.group_servo), the
packing's solid fraction between the walls (w.solid_fraction) and its
mean vertical stress from the contacts (-sigma_zz of w.stress, Love-Weber;
docs/measurements.md). At the end of each servo phase the lid's measured
stress (its contact force over the box's cross-section) is on its target,
and the packing is denser under the larger stress. The packing's mean
-sigma_zz is not the lid's stress: the side walls carry part of the load
by friction (Janssen), less than the lid's under loading, and the
stresses locked in by friction keep it above after the relaxation from
the generator's residual overlaps.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/compaction.py [--quick] [--png FILE] [--json FILE]
"""
import argparse
import json
import os
import sys

import numpy as np

try:
    import floe
except ImportError:  # run from a clone without PYTHONPATH: the build tree's module
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "python"))
    import floe

R = 1e-3  # sphere radius [m]
RHO = 2500  # density [kg/m^3]
E = 1e8  # Young's modulus [Pa], softened (docs/softened-modulus.md)
S1 = 2e4  # first target stress [Pa]


def run(side, steps_per_phase):
    """The compaction in a box of `side` [m]; the recorded rows and the phase-end checks."""
    h = side
    box = ((0, 0, 0), (side, side, h))
    w = floe.World(dt=2e-7, damping=0.3)
    w.add_material("glass", "linear", density=RHO, young=E, tan_phi=0.3)
    n = len(w.add_dense(box=box, radius=R, solid_fraction=0.52, seed=1))
    phi0 = w.solid_fraction(box)
    for axis in "xy":
        w.add_wall(axis, 0.0, sense=1)
        w.add_wall(axis, side, sense=-1)
    w.add_wall("z", 0.0, sense=1)
    lid = w.add_wall("z", h, sense=-1, group="lid")
    area = side * side
    dt = w.dt
    # half a step after the last state of a phase's run: the switch (at the first state with
    # t >= t1) then falls on the next run's first step whatever the rounding of the summed time,
    # and the state the check reads is still the servo's
    t1, t2 = (steps_per_phase + 0.5) * dt, (2 * steps_per_phase + 0.5) * dt
    w.set_phases("lid", [
        dict(kind="servo", direction=(0, 0, -1), stress=S1, area=area, max_speed=0.05),
        dict(kind="servo", start=dict(time=t1), direction=(0, 0, -1), stress=4 * S1, area=area, max_speed=0.05),
        dict(kind="velocity", start=dict(time=t2), velocity=(0, 0, 0.05)),
    ])
    rows, checks = [], []

    def sample(w):
        top = float(w.positions[lid][2])
        region = ((0, 0, 0), (side, side, top))
        s = w.group_servo("lid")
        rows.append(dict(time=w.time, phase=w.group_phase("lid"), lid=top, measured=s["measured"],
                         target=s["target"], phi=w.solid_fraction(region),
                         szz=-float(w.stress(region)[2][2])))

    every = max(1, steps_per_phase // 40)
    for k in range(3):
        w.run(steps_per_phase, every=every, callback=sample)
        if k < 2:  # the end of a servo phase: the lid and the packing balance
            r = rows[-1]
            checks.append(dict(target=r["target"], measured=r["measured"], szz=r["szz"], phi=r["phi"]))
    w.close()
    return dict(count=n, phi0=phi0, rows=rows, checks=checks, steps_per_phase=steps_per_phase)


def plot(out, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    t = np.array([r["time"] for r in out["rows"]]) * 1e3
    fig, (a, b) = plt.subplots(2, 1, sharex=True, figsize=(6, 5))
    a.plot(t, [r["target"] / 1e3 for r in out["rows"]], "k--", label="target")
    a.plot(t, [r["measured"] / 1e3 for r in out["rows"]], label="lid (servo measured)")
    a.plot(t, [r["szz"] / 1e3 for r in out["rows"]], label=r"packing $-\sigma_{zz}$ (contacts)")
    a.set_ylabel("stress [kPa]")
    a.legend()
    b.plot(t, [r["phi"] for r in out["rows"]])
    b.set_ylabel("solid fraction")
    b.set_xlabel("time [ms]")
    fig.tight_layout()
    fig.savefig(path, dpi=80)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smaller box and shorter phases (the test's form)")
    ap.add_argument("--png", default="compaction.png")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    out = run(0.010, 6000) if a.quick else run(0.016, 20000)
    print("%d spheres, solid fraction %.4f in the box" % (out["count"], out["phi0"]))
    for c in out["checks"]:
        print("target %7.0f Pa: lid measures %7.0f Pa, packing -sigma_zz %7.0f Pa, solid fraction %.4f" % (
            c["target"], c["measured"], c["szz"], c["phi"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f)
    plot(out, a.png)


if __name__ == "__main__":
    main()
