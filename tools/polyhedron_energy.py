#!/usr/bin/python3
"""Energy behaviour of the polyhedron contact (docs/geometry.md#polyhedra).

1. Elastic impacts against the step: a 0.1 m cube of 1 kg falls at 1 m/s
   on a wall (linear model, kn = 1e6 N/m, no damping, no friction, no
   gravity), face down and corner first, and a sphere of the same mass on
   the same wall. The relative change of kinetic energy over the impact,
   for dt from 4e-5 s down to 2.5e-6 s (face down and sphere: the root mean
   square over 8 first touches spread over one step, since the linear law's
   kink at first touch makes the error depend on where in a step it falls).
2. A cube dropped 2 mm onto a wall tilted by 0.1 rad under gravity, without
   damping or friction, rocks and bounces for 0.5 s: kinetic plus
   gravitational energy against time, at two steps. In contact the
   contact's potential makes up the dips; in flight (no contact) it is the
   whole energy and must come back to the start.

Draws docs/img/polyhedron-energy.png and prints the numbers.

usage: /usr/bin/python3 tools/polyhedron_energy.py [--img docs/img]
Needs the Python module (build/python, `make build`), python3-numpy and
python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "build", "python"))
import numpy as np  # noqa: E402

import floe  # noqa: E402

A, KN = 0.1, 1e6
CUBE = [(A * ((k & 1) - 0.5), A * (((k >> 1) & 1) - 0.5), A * (k >> 2)) for k in range(8)]
CORNER = (0.88047623, 0.27984814, 0.36470519, 0.115916)


def world(dt, gravity):
    w = floe.World(gravity=gravity, dt=dt, threads=1)
    w.add_material("m", "linear", density=1000, kt_div_kn=0)
    w.set_model("linear", kn=KN)
    w.add_wall("z")
    return w


def qrot(q, v):
    w, x, y, z = q
    u = np.array([x, y, z])
    t = 2 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def kinetic(w, i):
    m, v, om, q, inertia = w.masses[i], w.velocities[i], w.angular_velocities[i], w.orientations[i], w.inertia[i]
    qc = (q[0], -q[1], -q[2], -q[3])
    ob = qrot(qc, np.array(om))
    return 0.5 * m * float(np.dot(v, v)) + 0.5 * float(np.dot(inertia, ob * ob))


def impact(dt, kind, lift):
    w = world(dt, (0, 0, 0))
    if kind == "sphere":
        r = (3e-3 / (4 * math.pi)) ** (1 / 3)
        i = w.add_sphere((0, 0, r + 0.001 + lift), r, vel=(0, 0, -1))
    else:
        q = np.array(CORNER) / np.linalg.norm(CORNER) if kind == "corner" else np.array([1.0, 0, 0, 0])
        low = min(qrot(q, np.array(v))[2] for v in CUBE)
        i = w.add_polyhedron((0, 0, 0.001 + lift - low), CUBE, ori=tuple(q), vel=(0, 0, -1))
    e0 = kinetic(w, i)
    w.run(int((0.1 if kind == "corner" else 0.012) / dt))
    return (kinetic(w, i) - e0) / e0


def rocking(dt, tilt=0.1, time=0.5):
    w = world(dt, (0, 0, -9.81))
    t = tilt / 2
    i = w.add_polyhedron((0, 0, 0.002 + A / 2 * math.sin(tilt)), CUBE, ori=(math.cos(t), math.sin(t), 0, 0))
    m = w.masses[i]
    ts, es, free = [], [], []
    every = max(1, int(1e-4 / dt))
    for s in range(int(time / dt) // every):
        w.run(every)
        ts.append((s + 1) * every * dt)
        es.append(kinetic(w, i) + m * 9.81 * w.positions[i][2])
        free.append(w.contact_count == 0)
    return np.array(ts), np.array(es), np.array(free)


def main():
    import warnings

    warnings.simplefilter("ignore", RuntimeWarning)  # the balance's elastic term, docs/geometry.md#polyhedra
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--img", default=os.path.join(HERE, "..", "docs", "img"))
    args = ap.parse_args()
    dts = [4e-5 / 2**k for k in range(5)]
    face, sphere, corner = [], [], []
    for dt in dts:
        f = [impact(dt, "face", dt * j / 8) for j in range(8)]
        s = [impact(dt, "sphere", dt * j / 8) for j in range(8)]
        face.append(math.sqrt(sum(x * x for x in f) / 8))
        sphere.append(math.sqrt(sum(x * x for x in s) / 8))
        corner.append(abs(impact(dt, "corner", 0)))
        print(f"dt {dt:.2e} s: face down {face[-1]:.3e} (rms), sphere {sphere[-1]:.3e} (rms), "
              f"corner first {corner[-1]:.1e}")
    print(f"face down: {face[0] / face[-1]:.0f}x smaller over {len(dts) - 1} halvings "
          f"(second order: {4 ** (len(dts) - 1)}x)")
    runs = [(dt, *rocking(dt)) for dt in (2e-5, 1e-5)]
    for dt, t, e, free in runs:
        print(f"rocking cube, dt {dt:.0e} s: kinetic + gravity energy {e[0]:.6f} J at the start; in contact it "
              f"dips by up to {np.max(e[0] - e):.2e} J (the contact's potential); in flight ({np.sum(free)} of "
              f"{len(free)} samples) it is off by at most {np.max(np.abs(e[free] - e[0])):.2e} J")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    a1.loglog(dts, face, "o-", label="cube, face down (rms over 8 touches)")
    a1.loglog(dts, sphere, "x--", label="sphere of the same mass (rms)")
    a1.loglog(dts, [max(c, 1e-17) for c in corner], "s-", label="cube, corner first")
    a1.loglog(dts, [face[0] * (dt / dts[0]) ** 2 for dt in dts], ":", color="grey", label="slope 2")
    a1.set_xlabel("time step dt [s]")
    a1.set_ylabel("|kinetic energy change| / kinetic energy")
    a1.set_title("Elastic impact on a wall (kn = 1e6 N/m, 1 kg)")
    a1.legend(fontsize=8)
    for dt, t, e, free in runs:
        a2.plot(t, e - e[0], label=f"dt = {dt:.0e} s")
        a2.plot(t[free], (e - e[0])[free], ".", ms=2, color="k")
    a2.set_xlabel("time [s]")
    a2.set_ylabel("kinetic + gravitational energy - initial [J]")
    a2.set_title("Cube dropped tilted 0.1 rad, no damping or friction\n(black: in flight, no contact)")
    a2.legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(args.img, exist_ok=True)
    path = os.path.join(args.img, "polyhedron-energy.png")
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    main()
