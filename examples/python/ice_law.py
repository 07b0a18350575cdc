#!/usr/bin/python3
"""The Ice contact law under prescribed relative motion, against its formulas.

In the style of Woo's LawTester: two spheres, both moved by the script (no
dynamics), load one contact in one sense at a time:

  normal    compression, then tension until the bond breaks (the contact goes);
  shear     along y and along z, after a normal pre-compression: elastic up to
            the shear strength F_tb, then the bond breaks and the Coulomb limit
            p tan_phi holds the force;
  twist     about the normal, after a pre-compression: k_w theta up to T_wb, then
            the twisting limit rho p tan_phi;
  bending   about y and about z, after a pre-compression: k_r theta up to T_rb,
            then the rolling limit rho p mu.

The shear displacement follows an arc about A, so that it stays tangential in
the contact frame (the frame turns with the pair, as Woo's LawTester moves
particles along the contact's local axes); twist and bending turn A and B by
-theta/2 and +theta/2, so that the contact point does not slide.

The forces and moments read from the engine are drawn against the formulas
of docs/models/ice.md (constants from the materials; law: trial values,
breakage of every sense at once, plastic limits with p = max(0, -Fn) and
rho = sqrt(A/pi)). tests/python/test_example_ice_law.py checks that they agree to
1e-9.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/ice_law.py [--quick] [--png FILE]
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

# Ice material: the model's defaults (IceMat), R = 1 cm, E = 1 GPa, as the
# worked example of docs/models/ice.md
R = 0.01
MAT = dict(density=1000.0, young=1e9, kt_div_kn=0.2, tan_phi=0.5, break_n=1e-4, alpha_w=1.0, alpha_r=1.0,
           beta_t=0.1, beta_w=0.1, beta_r=0.1, mu=0.05)
BONDS = 255  # bonded and breakable in all four senses
OVERLAP0 = 1e-8  # the spheres overlap by this much when the contact is made [m] (uN0 = -OVERLAP0)
DT = 1e-7  # [s]; the motion is prescribed, so dt only scales the velocities


def constants(mat=MAT, r=R):
    """The contact's constants by the formulas of docs/models/ice.md (two equal spheres, lens = radii)."""
    A = math.pi * r * r
    la = lb = r
    E = mat["young"]
    kn = 1 / (la / (E * A) + lb / (E * A))
    kt = mat["kt_div_kn"] * kn
    cn = mat["break_n"] * (la + lb) / (la / E + lb / E)
    fnb = cn * A
    ftb = mat["beta_t"] * cn * A
    return dict(A=A, rho=math.sqrt(A / math.pi), kn=kn, kt=kt, kw=mat["alpha_w"] * kt * A,
                kr=mat["alpha_r"] * kn * A, Fnb=fnb, Ftb=ftb, Twb=mat["beta_w"] * ftb * math.sqrt(A),
                Trb=mat["beta_r"] * fnb * math.sqrt(A), tan_phi=mat["tan_phi"], mu=mat["mu"])


def paths(c, n):
    """The six tests: a name, the sense, the axis, the pre-compression, the load's end and steps.

    Each loads one sense monotonically to twice its breaking value (normal:
    from -0.5 to 1.5 times the breaking elongation); the pre-compression puts
    the limit after the break at half the strength. The step counts put no
    sample on a breaking value (it falls between two samples)."""
    un_t = 0.5 * c["Ftb"] / (c["kn"] * c["tan_phi"])  # p tan_phi = F_tb / 2
    un_w = 0.5 * c["Twb"] / (c["rho"] * c["kn"] * c["tan_phi"])  # rho p tan_phi = T_wb / 2
    un_r = 0.5 * c["Trb"] / (c["rho"] * c["kn"] * c["mu"])  # rho p mu = T_rb / 2
    ub_n = c["Fnb"] / c["kn"]
    return [
        dict(name="normal", sense="normal", axis=0, pre=0.0, start=-0.5 * ub_n, end=1.5 * ub_n, steps=4 * n + 2),
        dict(name="shear y", sense="shear", axis=1, pre=un_t, start=0.0, end=2 * c["Ftb"] / c["kt"], steps=2 * n + 1),
        dict(name="shear z", sense="shear", axis=2, pre=un_t, start=0.0, end=2 * c["Ftb"] / c["kt"], steps=2 * n + 1),
        dict(name="twist", sense="twist", axis=0, pre=un_w, start=0.0, end=2 * c["Twb"] / c["kw"], steps=2 * n + 1),
        dict(name="bending y", sense="bending", axis=1, pre=un_r, start=0.0, end=2 * c["Trb"] / c["kr"],
             steps=2 * n + 1),
        dict(name="bending z", sense="bending", axis=2, pre=un_r, start=0.0, end=2 * c["Trb"] / c["kr"],
             steps=2 * n + 1),
    ]


def formula(c, test, u):
    """The law of docs/models/ice.md for a monotonic load u (array) after the
    pre-compression: the value along the loaded direction (force [N] or moment
    [N m]) and the normal force Fn (tension > 0)."""
    u = np.asarray(u, dtype=float)
    if test["sense"] == "normal":
        fn = c["kn"] * u
        broken = np.cumsum(fn > c["Fnb"]) > 0  # the bond breaks, the contact opens and goes
        fn = np.where(broken, 0.0, fn)
        return fn, fn
    p = c["kn"] * test["pre"]  # compressive normal force, constant while this sense is loaded
    k, strength, limit = {
        "shear": (c["kt"], c["Ftb"], p * c["tan_phi"]),
        "twist": (c["kw"], c["Twb"], c["rho"] * p * c["tan_phi"]),
        "bending": (c["kr"], c["Trb"], c["rho"] * p * c["mu"]),
    }[test["sense"]]
    trial = k * u
    broken = np.cumsum(trial > strength) > 0  # all senses unbond; the value is kept, then limited
    return np.where(broken, np.minimum(trial, limit), trial), np.full_like(u, -p)


def strength(c, test):
    return {"normal": c["Fnb"], "shear": c["Ftb"], "twist": c["Twb"], "bending": c["Trb"]}[test["sense"]]


def rel_error(value, expect, scale):
    """|value - expect| relative to |expect|, or to 1 % of the sense's
    strength where the formula is near zero (the load passes through 0)."""
    return np.abs(np.asarray(value) - expect) / np.maximum(np.abs(expect), 0.01 * scale)


def unit(axis):
    e = np.zeros(3)
    e[axis] = 1.0
    return e


def run_test(c, test):
    """Runs one test; returns u (the prescribed displacement or rotation of B
    relative to A), the measured value along the loaded direction, the
    measured normal force, and the largest off-axis component seen."""
    d0 = 2 * R - OVERLAP0
    with floe.World(dt=DT) as w:
        w.add_material("ice", "ice", **MAT)
        w.set_model("ice", bonds0=BONDS, bonds1=0)
        a = w.add_sphere((0, 0, 0), R, group="a")
        b = w.add_sphere((d0, 0, 0), R, group="b")
        w.set_motion("a")
        w.set_motion("b")
        w.start()
        if w.contact_count != 1:
            raise RuntimeError("the two spheres should touch at the start")
        e = unit(test["axis"])
        rows = []

        def move(vb, wa=(0, 0, 0), wb=(0, 0, 0)):
            w.set_motion("a", velocity=(0, 0, 0), angular_velocity=wa)
            w.set_motion("b", velocity=vb, angular_velocity=wb)
            w.step()

        def toward(target):
            """B's velocity that takes it to `target` in this step, from where
            it is: positions land on the path without piling up round-off."""
            return (np.asarray(target, dtype=float) - w.positions[b]) / DT

        def read():
            """Force and torque on A, global."""
            return np.array(w.forces[a]), np.array(w.torques[a])

        # 1. pre-compression along the normal (B towards A) in one step: no
        # round-off piles up in the gap, whose normal force sets the limits
        d = d0 - test["pre"]
        if test["pre"] > 0:
            move(toward((d, 0, 0)))
        if test["sense"] == "normal":
            # from u = 0 down to start, then up to end, in steps of one size
            span = test["end"] - test["start"]
            du = span / test["steps"]
            n_down = int(round(-test["start"] / du))
            for k in range(n_down + test["steps"]):
                u = -(k + 1) * du if k < n_down else (k + 1 - 2 * n_down) * du
                move(toward((d + u, 0, 0)))
                f, t = read()
                if k >= n_down - 1:  # the loading branch from `start`
                    rows.append((u, f[0], f[0], max(abs(f[1]), abs(f[2]), *np.abs(t))))
            return np.array(rows)
        du = (test["end"] - test["start"]) / test["steps"]
        for k in range(test["steps"]):
            u1 = (k + 1) * du
            if test["sense"] == "shear":
                # B on the circle of radius d about A, in the plane of x and e
                # (it moves along the chord of each step)
                move(toward(d * (math.cos(u1 / d) * unit(0) + math.sin(u1 / d) * e)))
                n = math.cos(u1 / d) * unit(0) + math.sin(u1 / d) * e  # normal now
                tang = -math.sin(u1 / d) * unit(0) + math.cos(u1 / d) * e  # direction B moves in
                f, t = read()
                along = f @ tang
                fn = f @ n
                off = np.linalg.norm(f - along * tang - fn * n)
            else:
                om = du / DT * (unit(0) if test["sense"] == "twist" else e)
                move((0, 0, 0), wa=-0.5 * om, wb=0.5 * om)
                f, t = read()
                along = t @ (unit(0) if test["sense"] == "twist" else e)
                fn = f[0]
                off = max(np.linalg.norm(t - along * (unit(0) if test["sense"] == "twist" else e)),
                          abs(f[1]), abs(f[2]))
            rows.append((u1, along, fn, off))
        return np.array(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short form: fewer steps per test")
    ap.add_argument("--png", default="ice-law.png", help="plot file (default: ./ice-law.png)")
    ap.add_argument("--json", default=None, help="numbers as JSON (default: the plot's name with .json)")
    args = ap.parse_args()
    n = 50 if args.quick else 500
    c = constants()
    print("Ice contact, two spheres R = %g m, E = %g Pa (docs/models/ice.md):" % (R, MAT["young"]))
    print("  kn = %.8g N/m, kt = %.8g N/m, k_w = %.8g N m/rad, k_r = %.8g N m/rad" % (c["kn"], c["kt"], c["kw"],
                                                                                        c["kr"]))
    print("  F_nb = %.8g N, F_tb = %.8g N, T_wb = %.8g N m, T_rb = %.8g N m" % (c["Fnb"], c["Ftb"], c["Twb"],
                                                                                   c["Trb"]))
    results = []
    print("%-10s %6s %14s %14s %12s %12s" % ("test", "steps", "peak", "after break", "max rel err", "off-axis"))
    for test in paths(c, n):
        rows = run_test(c, test)
        u, val, fn = rows[:, 0], rows[:, 1], rows[:, 2]
        expect, fn_expect = formula(c, test, u)
        err = float(np.max(rel_error(val, expect, strength(c, test))))
        err_n = float(np.max(rel_error(fn, fn_expect, c["Fnb"])))
        results.append(dict(test, u=u.tolist(), value=val.tolist(), fn=fn.tolist(), off_axis=float(rows[:, 3].max()),
                            max_rel_error=err, max_rel_error_fn=err_n))
        print("%-10s %6d %14.8g %14.8g %12.2e %12.2e" % (test["name"], len(u), val.max(), val[-1], max(err, err_n),
                                                         rows[:, 3].max()))
    with open(args.json or os.path.splitext(args.png)[0] + ".json", "w") as f:
        json.dump(dict(radius=R, material=MAT, bonds=BONDS, overlap0=OVERLAP0, dt=DT, constants=c, tests=results),
                  f, indent=1)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(12, 7))
    for ax, r in zip(axes.flat, results):
        u = np.array(r["u"])
        fine = np.linspace(u[0], u[-1], 4000)
        # the formula on a fine grid, and the engine's samples
        ef, _ = formula(c, r, fine)
        moment = r["sense"] in ("twist", "bending")
        xs, ys = (1e6, 1e3) if moment else (1e6, 1.0)
        ax.plot(fine * xs, ef * ys, "-", color="0.35", lw=1.5, label="docs/models/ice.md")
        every = max(1, len(u) // 40)
        ax.plot(u[::every] * xs, np.array(r["value"])[::every] * ys, "o", ms=3.5, color="C0", label="floe")
        ax.set_title(r["name"])
        ax.set_xlabel(r"$\theta$ [µrad]" if moment else "u [µm]")
        ax.set_ylabel(("$T_w$" if r["sense"] == "twist" else "$T_r$") + " [mN m]" if moment
                      else ("$F_n$" if r["sense"] == "normal" else "$F_t$") + " [N]")
        ax.grid(alpha=0.3)
        ax.axhline(0, color="0.6", lw=0.6)
    axes.flat[0].legend(loc="upper left", fontsize=8)
    fig.suptitle("Ice law, two spheres under prescribed motion (bonds 255: bonded and breakable in all senses)")
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print("plot: %s" % args.png)


if __name__ == "__main__":
    main()
