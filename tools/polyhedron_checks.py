#!/usr/bin/python3
"""Polyhedra against closed forms (docs/geometry.md#polyhedra): the full
studies whose short forms run in tests/test_polyhedron.c.

1. Incline: a block (base b = 0.2 m, height h, depth 0.1 m) on a wall under
   gravity tilted by theta (the incline), friction mu = 0.3, linear model
   (kn = 1e7 N/m, normal dashpot 0.5): its acceleration along the slope
   against g (sin theta - mu cos theta) above tan theta = mu and 0 below; and
   a block of base 0.05 m and height 0.2 m (b / h = 0.25) on a steep-friction
   incline (mu = 0.8): it stays upright while tan theta < b / h and tips
   beyond. The incline rises to theta over 0.1 s (quasi-static: a load
   applied at once would overshoot to twice the static moment).
2. Floating: a cube of side 0.5 m and density rho in water of 1025 kg/m^3
   (damped): its draft against rho / rho_w a, for density ratios where the
   upright cube is stable (below 0.211 and above 0.789).
3. Mass properties: random hulls of 8 to 32 points against a Monte Carlo
   integration over a brute-force hull (no Qhull): volume and centroid,
   with their standard errors.

Draws docs/img/polyhedron-checks.png and prints the numbers.

usage: /usr/bin/python3 tools/polyhedron_checks.py [--img docs/img]
Needs the Python module (build/python, `make build`), python3-numpy and
python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import itertools
import math
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "build", "python"))
import numpy as np  # noqa: E402

import floe  # noqa: E402

G = 9.81


def block(b, h, d=0.1):
    return [(b * ((k & 1) - 0.5), d * (((k >> 1) & 1) - 0.5), h * (k >> 2)) for k in range(8)]


def incline(theta, mu, b, h, t_run=0.2, kn=1e7):
    """Acceleration along the slope (from two samples after a settling
    time) and the tilt reached. The incline rises from 0 to theta over
    0.1 s (a load applied at once overshoots: twice the static tilting
    moment), then stays."""
    w = floe.World(gravity=(0, 0, -G), dt=1e-5, threads=1)
    w.add_material("m", "linear", density=1000, tan_phi=mu)
    w.set_model("linear", kn=kn, dp_nratio=0.5)
    w.add_wall("z")
    m = 1000 * b * 0.1 * h
    i = w.add_polyhedron((0, 0, -m * G / kn), block(b, h))
    for k in range(1, 101):
        a = theta * k / 100
        w.gravity = (G * math.sin(a), 0, -G * math.cos(a))
        w.run(100)
    w.run(5000)
    x1, v1 = w.positions[i][0], w.velocities[i][0]
    n = int(t_run / 1e-5)
    w.run(n)
    t = n * 1e-5
    q = w.orientations[i]
    tilt = 2 * math.asin(min(1.0, math.sqrt(q[1] ** 2 + q[2] ** 2 + q[3] ** 2)))
    return 2 * (w.positions[i][0] - x1 - v1 * t) / (t * t), tilt


def draft(rho, a=0.5):
    w = floe.World(gravity=(0, 0, -G), dt=1e-3, damping=0.7, threads=1)
    w.add_material("m", "linear", density=rho)
    w.set_water(level=0.0)
    want = rho / 1025.0 * a
    i = w.add_polyhedron((0, 0, 0.01 - want), block(a, a, a))
    w.run(30000)
    return a / 2 - w.positions[i][2], want


def brute_planes(p):
    out = []
    for i, j, k in itertools.combinations(range(len(p)), 3):
        n = np.cross(p[j] - p[i], p[k] - p[i])
        if np.linalg.norm(n) < 1e-12:
            continue
        n /= np.linalg.norm(n)
        s = (p - p[i]) @ n
        if np.any(s > 1e-12) and np.any(s < -1e-12):
            continue
        if np.any(s > 1e-12):
            n = -n
        out.append((n, float(n @ p[i])))
    return out


def mass_check(n, rng, samples=400000):
    p = rng.random((n, 3)) - 0.5
    planes = brute_planes(p)
    lo, hi = p.min(0), p.max(0)
    x = lo + (hi - lo) * rng.random((samples, 3))
    inside = np.ones(samples, bool)
    for nn, d in planes:
        inside &= x @ nn <= d
    vbox = float(np.prod(hi - lo))
    f = inside.mean()
    v_mc, s_v = vbox * f, vbox * math.sqrt(f * (1 - f) / samples)
    c_mc = x[inside].mean(0)
    s_c = x[inside].std(0) / math.sqrt(inside.sum())
    w = floe.World()
    w.add_material("m", "linear", density=1.0)
    i = w.add_polyhedron((0, 0, 0), [tuple(v) for v in p])
    return w.masses[i], v_mc, s_v, np.array(w.positions[i]), c_mc, s_c


def main():
    warnings.simplefilter("ignore", RuntimeWarning)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--img", default=os.path.join(HERE, "..", "docs", "img"))
    args = ap.parse_args()

    mu = 0.3
    thetas = np.radians([5, 10, 14, 16, 18, 20, 25, 30, 35])
    acc = []
    for th in thetas:
        a, tilt = incline(th, mu, 0.2, 0.1)
        want = max(0.0, G * (math.sin(th) - mu * math.cos(th)))
        acc.append(a)
        print(f"incline {math.degrees(th):4.1f} deg, mu {mu}: acceleration {a:.5f} m/s^2, "
              f"g (sin - mu cos) = {want:.5f} (0 below tan = mu), tilt {tilt:.1e} rad")
    tips = {}
    tip_th = np.radians([6, 8, 9, 10, 11, 12, 13, 13.5, 14.5, 15, 17])
    for kn in (1e7, 1e9):
        tips[kn] = []
        for th in tip_th:
            a, tilt = incline(th, 0.8, 0.05, 0.2, t_run=0.3, kn=kn)
            tips[kn].append(tilt)
            print(f"tall block (b/h = 0.25, atan = {math.degrees(math.atan(0.25)):.2f} deg), kn {kn:.0e} N/m, at "
                  f"{math.degrees(th):4.1f} deg, mu 0.8: tilt {tilt:.3f} rad after 0.3 s")
    ratios = [0.05, 0.1, 0.15, 0.2, 0.8, 0.85, 0.9, 0.95]
    drafts = []
    for r in ratios:
        got, want = draft(1025.0 * r)
        drafts.append((got, want))
        print(f"floating cube, rho / rho_w {r}: draft {got:.12f} m, closed form {want:.12f} m "
              f"(rel {abs(got - want) / want:.1e})")
    rng = np.random.default_rng(7)
    masses = []
    for n in (8, 12, 16, 24, 32):
        v, v_mc, s_v, c, c_mc, s_c = mass_check(n, rng)
        masses.append((n, (v - v_mc) / s_v, np.max(np.abs(c - c_mc) / s_c)))
        print(f"random hull of {n} points: volume {v:.6f}, Monte Carlo {v_mc:.6f} +- {s_v:.6f} "
              f"({(v - v_mc) / s_v:+.2f} sigma); centroid within {np.max(np.abs(c - c_mc) / s_c):.2f} sigma")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(1, 3, figsize=(14, 4.2))
    th = np.linspace(0, math.radians(36), 200)
    ax[0].plot(np.degrees(th), np.maximum(0, G * (np.sin(th) - mu * np.cos(th))), "-", color="grey",
               label="g (sin θ − μ cos θ), 0 below tan θ = μ")
    ax[0].plot(np.degrees(thetas), acc, "o", label="block 0.2 × 0.1 m, μ = 0.3")
    ax2 = ax[0].twinx()
    for kn, mk in ((1e7, "s"), (1e9, "^")):
        ax2.plot(np.degrees(tip_th), tips[kn], mk, color="C3", mfc="none" if kn > 1e8 else "C3",
                 label=f"tall block b/h = 0.25, μ = 0.8, kn = {kn:.0e} N/m: tilt after 0.3 s")
    ax2.axvline(math.degrees(math.atan(0.25)), color="C3", ls=":", label="tan θ = b / h")
    ax2.set_ylabel("tilt [rad]", color="C3")
    ax[0].set_xlabel("incline θ [deg]")
    ax[0].set_ylabel("acceleration along the slope [m/s²]")
    ax[0].set_title("Block on an incline: sticks, slides or tips")
    h1, l1 = ax[0].get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax[0].legend(h1 + h2, l1 + l2, fontsize=7, loc="upper left")
    ax[1].plot([r for r in ratios], [abs(g - w_) / w_ for g, w_ in drafts], "o")
    ax[1].set_yscale("log")
    ax[1].set_xlabel("density ratio ρ / ρ_w")
    ax[1].set_ylabel("|draft − ρ/ρ_w a| / (ρ/ρ_w a)")
    ax[1].set_title("Floating cube (upright where stable)")
    ax[2].bar([str(n) for n, _, _ in masses], [abs(s) for _, s, _ in masses], label="volume")
    ax[2].plot([str(n) for n, _, _ in masses], [c for _, _, c in masses], "ko", label="centroid (worst axis)")
    ax[2].axhline(2, color="grey", ls=":")
    ax[2].set_xlabel("points of the random hull")
    ax[2].set_ylabel("|floe − Monte Carlo| / standard error")
    ax[2].set_title("Mass properties against Monte Carlo")
    ax[2].legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(args.img, exist_ok=True)
    path = os.path.join(args.img, "polyhedron-checks.png")
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    main()
