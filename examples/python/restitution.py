#!/usr/bin/python3
"""Restitution of a sphere bouncing on a wall against the normal dashpot ratio.

A sphere (Linear model, no gravity, no friction in play) hits a wall head on
at v0 and leaves at v1; the coefficient of restitution is e = v1 / v0. The
Linear model's normal dashpot acts in parallel with the spring,
F_d = c_n v_n with c_n = 2 dp_nratio sqrt(m_c kn) (src/models/linear.c;
m_c = the sphere's mass against a wall), so dp_nratio is the damping ratio
zeta = c_n / (2 sqrt(m kn)) of the oscillator m u'' + c_n u' + kn u = 0. Its
solution from u = 0, u' = -v0 is u = -(v0/w_d) exp(-zeta w t) sin(w_d t),
w = sqrt(kn/m), w_d = w sqrt(1 - zeta^2); the contact ends when the overlap
is back to zero (floe deletes it when the gap opens), at t = pi/w_d, where
u' = v0 exp(-zeta w pi/w_d), so

    e = exp(-zeta pi / sqrt(1 - zeta^2))        (0 <= zeta < 1).

The script sweeps dp_nratio, measures e and plots it against that closed
form (docs/python-examples.md).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/restitution.py [--quick] [--png FILE]
"""
import argparse
import json
import math
import os
import sys

import numpy as np

try:
    import floe
except ImportError:  # run from a clone without PYTHONPATH: the build tree's module
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "python"))
    import floe

R = 0.01  # sphere radius [m]
RHO = 2500  # density [kg/m^3]
E = 1e8  # Young's modulus [Pa], softened (docs/softened-modulus.md)
V0 = 1.0  # impact speed [m/s]


def closed_form(zeta):
    """Restitution of a linear spring-dashpot whose contact ends at zero overlap."""
    zeta = np.asarray(zeta, dtype=float)
    return np.exp(-zeta * math.pi / np.sqrt(1 - zeta * zeta))


def contact_time():
    """Undamped contact duration pi sqrt(m/kn), kn = pi R E / 2 (sphere on a wall, docs/models/linear.md)."""
    m = 4 / 3 * math.pi * R**3 * RHO
    kn = math.pi * R * E / 2
    return math.pi * math.sqrt(m / kn)


def bounce(zeta, steps_per_contact):
    """Restitution measured for one dp_nratio; also the steps the contact lasted."""
    dt = contact_time() / steps_per_contact
    with floe.World(dt=dt) as w:
        w.add_material("glass", "linear", density=RHO, young=E)
        w.set_model("linear", dp_nratio=zeta)
        w.add_wall("z", 0.0, sense=+1)
        # the sphere starts 2.5 steps of travel above the wall, moving down
        s = w.add_sphere((0, 0, R + 2.5 * V0 * dt), R, vel=(0, 0, -V0))
        touched = [0]

        def separated(w):
            if w.contact_count:
                touched[0] += 1
                return False
            return touched[0] > 0

        w.run(until=separated, steps=20 * steps_per_contact)
        if not touched[0] or w.contact_count:
            raise RuntimeError("dp_nratio %g: the sphere did not bounce off within the run" % zeta)
        return w.velocities[s][2] / V0, touched[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short form: fewer points, coarser time step (seconds)")
    ap.add_argument("--png", default="restitution.png", help="plot file (default: ./restitution.png)")
    ap.add_argument("--json", default=None, help="numbers as JSON (default: the plot's name with .json)")
    args = ap.parse_args()

    if args.quick:
        zetas = np.array([0.0, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8])
        steps = 200
    else:
        zetas = np.round(np.linspace(0.0, 0.9, 19), 3)
        steps = 1000
    rows = []
    print("sphere on a wall, Linear model: R = %g m, E = %g Pa, v0 = %g m/s, dt = t_c/%d" % (R, E, V0, steps))
    print("%9s %12s %12s %11s %6s" % ("dp_nratio", "e measured", "closed form", "difference", "steps"))
    for z in zetas:
        e, n = bounce(float(z), steps)
        ec = float(closed_form(z))
        rows.append({"dp_nratio": float(z), "e": e, "closed_form": ec, "contact_steps": n})
        print("%9.3f %12.6f %12.6f %+11.2e %6d" % (z, e, ec, e - ec, n))
    worst = max(abs(r["e"] - r["closed_form"]) for r in rows)
    print("largest |e - closed form| = %.2e" % worst)

    out = {"steps_per_contact": steps, "radius": R, "young": E, "density": RHO, "v0": V0, "rows": rows,
           "max_abs_error": worst}
    with open(args.json or os.path.splitext(args.png)[0] + ".json", "w") as f:
        json.dump(out, f, indent=1)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    zz = np.linspace(0, 0.95, 400)
    fig, ax = plt.subplots(figsize=(6, 4.2))
    ax.plot(zz, closed_form(zz), "-", color="0.3", label=r"closed form $e=\exp(-\pi\zeta/\sqrt{1-\zeta^2})$")
    ax.plot([r["dp_nratio"] for r in rows], [r["e"] for r in rows], "o", color="C3",
            label="floe (dt = t$_c$/%d)" % steps)
    ax.set_xlabel(r"dp_nratio $\zeta$ (fraction of critical damping)")
    ax.set_ylabel("coefficient of restitution $e$")
    ax.set_xlim(0, 0.95)
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title("Sphere on a wall, Linear model with a normal dashpot")
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)
    print("plot: %s" % args.png)


if __name__ == "__main__":
    main()
