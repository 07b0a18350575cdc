#!/usr/bin/python3
"""Heaps of clumps against heaps of spheres (docs/clumps.md#heaps).

A column of grains collapses in a narrow channel (3 grain diameters wide,
walls on both sides, a floor; Linear contacts, mu = 0.5 on every contact,
a normal dashpot of 0.3 of critical, no rolling resistance) and spreads
until it rests; the heap's slope is fitted to the top of its surface
(the highest grain per bin of x) between 20 % and 80 % of the run-out.
Grains: spheres; dumbbells (two pebbles at 1.2 r); trimers (three
pebbles in a triangle). Each grain has the volume of a sphere of radius
r_eq = 5 mm, so only the shape changes. The trend to see: grains that
cannot roll freely (clumps, angular grains) stand steeper than spheres,
which without rolling resistance spread into low heaps.

usage: /usr/bin/python3 tools/clump_heap.py [--img docs/img] [--json FILE] [--time 1.5]
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

R_EQ = 0.005


def templates():
    """Pebble lists of the three grains, scaled to the volume of a sphere of R_EQ."""
    out = {"spheres": None}
    for name, peb in (("dumbbells", [[0, 0, 0, 1.0], [1.2, 0, 0, 1.0]]),
                      ("trimers", [[0, 0, 0, 1.0], [1.2, 0, 0, 1.0], [0.6, 1.2 * math.sqrt(3) / 2, 0, 1.0]])):
        w = floe.World()
        w.add_material("m", "linear", density=1.0)
        c = w.add_clump((0, 0, 0), peb)
        vol = w.masses[c]
        s = (4 / 3 * math.pi * R_EQ ** 3 / vol) ** (1 / 3)
        out[name] = [[x * s for x in row] for row in peb]
    return out


def heap(kind, peb, T, seed=1):
    rng = np.random.default_rng(seed)
    w = floe.World(gravity=(0, 0, -9.81), threads=1)
    w.add_material("grain", "linear", density=2500, young=5e6, tan_phi=0.5)
    w.set_model("linear", dp_nratio=0.3)
    width = 6 * R_EQ
    w.add_wall("z", 0, sense=1)
    w.add_wall("x", 0, sense=1)
    w.add_wall("y", 0, sense=1)
    w.add_wall("y", width, sense=-1)
    w.add_wall("x", 0.6, sense=-1)
    step = 2.6 * R_EQ if peb is None else 3.2 * R_EQ
    nx, nz = int(0.12 / step), int(0.3 / step)
    n = 0
    for k in range(nz):
        for i in range(nx):
            # jittered: a perfect stack of spheres would stand as a column
            x, z = step * (i + 0.6) + rng.uniform(-0.15, 0.15) * R_EQ, step * (k + 0.6)
            y = width / 2 + rng.uniform(-1, 1) * R_EQ
            if peb is None:
                w.add_sphere((x, y, z), R_EQ)
            else:
                a = rng.uniform(0, 2 * math.pi)
                w.add_clump((x, y, z), peb, ori=(math.cos(a / 2), 0, math.sin(a / 2), 0))
            n += 1
    w.run(time=T)
    pos, rad, m = w.positions, w.radii, w.masses
    grains = [i for i in range(len(m)) if m[i] > 0 or (peb is None and rad[i] > 0)]
    # the surface: the top of the highest pebble (or sphere) per bin of x
    tops = {}
    for i in range(len(rad)):
        if not (rad[i] > 0) or not (pos[i][2] > 0):
            continue
        b = int(pos[i][0] / (2 * R_EQ))
        tops[b] = max(tops.get(b, 0), pos[i][2] + rad[i])
    xs = np.array(sorted(tops)) * 2 * R_EQ + R_EQ
    zs = np.array([tops[b] for b in sorted(tops)])
    run = xs[zs > 2 * R_EQ].max() if np.any(zs > 2 * R_EQ) else xs.max()
    sel = (xs >= 0.2 * run) & (xs <= 0.8 * run)
    slope = -np.polyfit(xs[sel], zs[sel], 1)[0] if sel.sum() >= 3 else float("nan")
    ke = 0.5 * sum(m[i] * float(np.dot(w.velocities[i], w.velocities[i])) for i in grains)
    return {"grains": n, "angle_deg": math.degrees(math.atan(slope)), "runout_m": float(run),
            "kinetic_J": ke, "profile": [xs.tolist(), zs.tolist()]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--img", default=str(ROOT / "docs" / "img"))
    ap.add_argument("--json")
    ap.add_argument("--time", type=float, default=1.5)
    args = ap.parse_args()
    res = {}
    for kind, peb in templates().items():
        res[kind] = heap(kind, peb, args.time)
        print(f"{kind}: {res[kind]['grains']} grains, slope {res[kind]['angle_deg']:.1f} deg, run-out "
              f"{res[kind]['runout_m']:.3f} m, kinetic energy left {res[kind]['kinetic_J']:.2e} J", flush=True)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for kind, r in res.items():
        xs, zs = r["profile"]
        ax.plot(xs, zs, "o-", ms=3, label=f"{kind}: {r['angle_deg']:.1f}°")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("surface height [m]")
    ax.set_aspect("equal")
    ax.legend()
    ax.set_title("Collapsed columns: the heaps' surfaces")
    fig.tight_layout()
    os.makedirs(args.img, exist_ok=True)
    fig.savefig(os.path.join(args.img, "clump-heap.png"), dpi=110)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({k: {kk: vv for kk, vv in v.items() if kk != "profile"} for k, v in res.items()}, f, indent=1)


if __name__ == "__main__":
    main()
