#!/usr/bin/python3
"""Heaps of clumps against heaps of spheres (docs/clumps.md#heaps).

A plane world (motion in x, y; gravity along -y): a column of grains
against a wall collapses onto a floor and spreads until it rests; the
heap's slope is fitted to its surface (the highest grain top per bin of
x) between 20 % and 80 % of the run-out. Linear contacts, mu = 0.5 on
every contact, a normal dashpot of 0.3 of critical, no rolling
resistance. Grains: spheres, and trimers (three pebbles in a triangle, in
the plane) of the same volume (a sphere of r_eq), placed at random
orientations. Spheres without rolling resistance roll and spread; clumps
cannot roll freely and stand steeper.

usage: /usr/bin/python3 tools/clump_heap.py [--img docs/img] [--json FILE] [--time 2] [--req 0.003]
Needs the Python module (build/python) and python3-matplotlib; a few
minutes on one core.
"""
import argparse
import json
import math
import os
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "build" / "python"))
import floe  # noqa: E402


def trimer(r_eq):
    """Three pebbles in a triangle (in the xy plane) of the volume of a sphere of r_eq."""
    t = 1.2 * math.sqrt(3) / 2
    peb = [[0, 0, 0, 1.0], [1.2, 0, 0, 1.0], [0.6, t, 0, 1.0]]
    w = floe.World()
    w.add_material("m", "linear", density=1.0)
    c = w.add_clump((0, 0, 0), peb)
    vol = w.masses[c]
    s = (4 / 3 * math.pi * r_eq ** 3 / vol) ** (1 / 3)
    return [[x * s for x in row] for row in peb]


def heap(peb, r_eq, T, seed=1):
    rng = np.random.default_rng(seed)
    w = floe.World(gravity=(0, -9.81, 0), dimension=2, threads=1)
    w.add_material("grain", "linear", density=2500, young=5e6, tan_phi=0.5)
    w.set_model("linear", dp_nratio=0.3)
    w.add_wall("y", 0, sense=1)
    w.add_wall("x", 0, sense=1)
    w.add_wall("x", 200 * r_eq, sense=-1)
    step = 2.2 * r_eq if peb is None else 3.4 * r_eq
    nx, ny = int(24 * r_eq / step), int(80 * r_eq / step)
    for k in range(ny):
        for i in range(nx):
            x, y = step * (i + 0.6) + rng.uniform(-0.1, 0.1) * r_eq, step * (k + 0.6)
            if peb is None:
                w.add_sphere((x, y, 0), r_eq)
            else:
                a = rng.uniform(0, 2 * math.pi)
                w.add_clump((x, y, 0), peb, ori=(math.cos(a / 2), 0, 0, math.sin(a / 2)))
    w.run(time=T)
    pos, rad = w.positions, w.radii
    tops = {}
    for i in range(len(rad)):
        if not (rad[i] > 0) or floe.SHAPES[w.shapes[i]] == "clump" or floe.SHAPES[w.shapes[i]] == "wall":
            continue
        b = int(pos[i][0] / (2 * r_eq))
        tops[b] = max(tops.get(b, 0.0), pos[i][1] + rad[i])
    xs = np.array(sorted(tops)) * 2 * r_eq + r_eq
    ys = np.array([tops[b] for b in sorted(tops)])
    run = xs[ys > 3 * r_eq].max()
    sel = (xs >= 0.2 * run) & (xs <= 0.8 * run)
    slope = -np.polyfit(xs[sel], ys[sel], 1)[0]
    m = w.masses
    ke = 0.5 * float(sum(m[i] * np.dot(w.velocities[i], w.velocities[i]) for i in range(len(m))))
    return {"grains": nx * ny, "angle_deg": math.degrees(math.atan(slope)), "runout_m": float(run),
            "kinetic_J": ke, "profile": [xs.tolist(), ys.tolist()]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--img", default=str(ROOT / "docs" / "img"))
    ap.add_argument("--json")
    ap.add_argument("--time", type=float, default=2.0)
    ap.add_argument("--req", type=float, default=0.003)
    args = ap.parse_args()
    res = {}
    for kind, peb in (("spheres", None), ("trimers", trimer(args.req))):
        res[kind] = heap(peb, args.req, args.time)
        print(f"{kind}: {res[kind]['grains']} grains, slope {res[kind]['angle_deg']:.1f} deg, run-out "
              f"{res[kind]['runout_m']:.3f} m, kinetic energy left {res[kind]['kinetic_J']:.2e} J", flush=True)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for kind, r in res.items():
        xs, ys = r["profile"]
        ax.plot(xs, ys, "o-", ms=2, label=f"{kind}: {r['angle_deg']:.1f}°")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("surface height [m]")
    ax.set_aspect("equal")
    ax.legend()
    ax.set_title("Collapsed columns (plane world): the heaps' surfaces")
    fig.tight_layout()
    os.makedirs(args.img, exist_ok=True)
    fig.savefig(os.path.join(args.img, "clump-heap.png"), dpi=110)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({k: {kk: vv for kk, vv in v.items() if kk != "profile"} for k, v in res.items()}, f, indent=1)


if __name__ == "__main__":
    main()
