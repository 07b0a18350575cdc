#!/usr/bin/env python3
"""Angle of repose of a 2D fixed-base heap (a validation, docs/repose.md).

Beads (spheres of a 2D world: they move in the xy plane, gravity -y) are
poured by an inlet onto a finite rough base: a row of fixed spheres of
width L. Beads that roll over the base's ends fall into a sink. Once the
heap covers the base, its slope is set by the avalanches and no longer by
the amount poured: a "fixed-base" heap.

The angle is measured from the final particle positions (particles.csv):
the free surface is the highest bead top (y + r) in bins of width 2 d along
x; on each side of the crest a straight line is fitted by least squares to
the surface points between 20 % and 80 % of the half base (this leaves out
the rounded crest under the pour and the toe at the base's end); the angle
is the mean of the two sides' slopes, atan(|s|). A second, integral
measure: the area A under the surface (bins of one diameter, above the
base's top) set equal to a triangle's on the same base, tan(theta_A) =
A / L_h^2 (L_h the half base); it includes the rounded crest, so it lies
above the slope angle on a convex heap, but it is far less noisy.

Runs a grid of sliding friction mu and rolling friction mu_r (Hertz-Mindlin
with the elastic-plastic rolling spring, docs/models/hertz.md), writes
docs/img/repose.csv and docs/img/repose.png and prints the table.

  python3 tools/repose_study.py [--floe build/floe] [--out out/repose]
                                [--only MU,MUR] [--json FILE]

--json writes the numbers docs/repose.md quotes (for tools/doc_numbers.py),
with those of the example scene, examples/repose.yaml, run and measured
alike.
"""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import subprocess
import sys

R = 1.5e-3           # mean bead radius [m]
D = 2 * R
SCENE = """# 2D fixed-base heap (tools/repose_study.py)
world: {{dimension: 2, gravity: [0, -9.81, 0], dt: auto, dt_safety: 0.5}}
materials:
  - {{name: bead, model: hertz, density: 2500, young: 5e6, poisson: 0.25,
     restitution: 0.5, tan_phi: {mu}, rolling_friction: {mur}}}
run: {{time: {time}}}
groups: [{{name: base}}, {{name: beads}}]
generators:
  # the rough base: a row of fixed beads of the mean radius, touching
  - lattice: {{origin: [{x0}, 0, 0], spacing: {d}, counts: [{nbase}, 1, 1],
              radius: {r}, fixed: true, material: bead, group: base}}
inlets:
  - name: pour
    box: [[{ilo}, {ih0}, 0], [{ihi}, {ih1}, 0]]
    rate: {rate}
    end: {tend}
    radius: [{rmin}, {rmax}]
    vel: [0, -0.3, 0]
    vel_spread: 0.05
    material: bead
    group: beads
    seed: {seed}
sinks:
  - {{name: below, plane: {{point: [0, -0.02, 0], normal: [0, -1, 0]}}}}
output:
  vtk: {vtk}
  energy: false
  history: {{interval: 0.1, columns: [{{name: poured, counter: inserted}}]}}
"""


def scene_text(mu, mur, half_base=20, seed=1, vtk="false"):
    """half_base: the half width of the base in mean diameters."""
    nbase = 2 * half_base + 1
    top = half_base * D * math.tan(math.radians(40))   # above the tallest heap
    # three times the beads of a heap of 40 degrees on the base (area
    # fraction ~0.8): with rolling resistance the heap first grows with a
    # flat top and steep flanks and reaches its slope only later
    area = (half_base * D) ** 2 * math.tan(math.radians(40))
    n = 3 * area * 0.8 / (math.pi * R * R)
    rate = 300.0
    tend = n / rate
    return SCENE.format(mu=mu, mur=mur, time=round(tend + 1.0, 3), x0=-half_base * D, d=D, nbase=nbase, r=R,
                        ilo=-2 * R, ihi=2 * R, ih0=top + 3 * D, ih1=top + 4 * D, rate=rate, tend=round(tend, 3),
                        rmin=0.8 * R, rmax=1.2 * R, seed=seed, vtk=vtk)


def read_beads(path):
    xs, ys, rs = [], [], []
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["shape"] != "sphere" or int(row["blocked"]) & 1:
                continue            # the fixed base
            xs.append(float(row["x"]))
            ys.append(float(row["y"]))
            rs.append(float(row["radius"]))
    return xs, ys, rs


def heap_angle(xs, ys, rs, half_width, d=D, lo=0.2, hi=0.8):
    """Returns (angle_deg, left_deg, right_deg, surface points)."""
    nb = int(math.ceil(half_width / d))
    top = {}
    for x, y, r in zip(xs, ys, rs):
        if y < 0 or abs(x) > half_width:
            continue
        b = int(math.floor(x / d))
        if b not in top or y + r > top[b]:
            top[b] = y + r
    pts = sorted(((b + 0.5) * d, h) for b, h in top.items())
    sides = []
    for sgn in (-1, 1):
        sel = [(abs(x), h) for x, h in pts if sgn * x > 0 and lo * half_width <= abs(x) <= hi * half_width]
        if len(sel) < 3:
            return float("nan"), float("nan"), float("nan"), pts
        n = len(sel)
        mx = sum(p[0] for p in sel) / n
        my = sum(p[1] for p in sel) / n
        sxx = sum((p[0] - mx) ** 2 for p in sel)
        sxy = sum((p[0] - mx) * (p[1] - my) for p in sel)
        sides.append(math.degrees(math.atan(-sxy / sxx)))
    del nb
    return 0.5 * (sides[0] + sides[1]), sides[0], sides[1], pts


def area_angle(xs, ys, rs, half_width, d=D):
    nb = int(round(half_width / d))
    top = [R] * (2 * nb)                      # the base's top
    for x, y, r in zip(xs, ys, rs):
        if y < 0 or abs(x) >= half_width:
            continue
        b = int(math.floor((x + half_width) / d))
        top[b] = max(top[b], y + r)
    a = sum((t - R) * d for t in top)
    return math.degrees(math.atan(a / half_width ** 2))


# Published bands for frictional monosized spheres (docs/repose.md): DEM
# without rolling resistance 20-25 deg (mu >= 0.3); with mu_r 0.05-0.1,
# 30-35 deg. Glass beads in experiments: 22-28 deg.
def band(mu, mur):
    if mur == 0:
        return (20.0, 25.0)
    return (30.0, 35.0)


def poured(d):
    with open(os.path.join(d, "history.csv")) as f:
        return int(float(list(csv.DictReader(f))[-1]["poured"]))


def band_text(mu, mur):
    if mur == 0:
        return "20–25° (DEM), 22–28° (glass beads)"
    return "30–35°" + (" (lower for μ = 0.3)" if mu == 0.3 else "")


def numbers(rows, example):
    """The numbers docs/repose.md quotes, for --json."""
    rows = sorted(rows, key=lambda r: (r["mu_r"], r["mu"]))
    lines = ["| μ | μ_r | beads on the base | slope angle (left / right) | area angle | published band |",
             "|---|---|---|---|---|---|"]
    out = {}
    for r in rows:
        lines.append(f"| {r['mu']:g} | {r['mu_r']:g} | {r['beads']} | {r['angle']:.1f}° ({r['left']:.1f} / "
                     f"{r['right']:.1f}) | {r['area']:.1f}° | {band_text(r['mu'], r['mu_r'])} |")
        k = f"mu{round(10 * r['mu'])}_mur{round(100 * r['mu_r']):02d}_"
        out.update({k + "beads": r["beads"], k + "angle": r["angle"], k + "left": r["left"], k + "right": r["right"],
                    k + "area": r["area"], k + "poured": r["poured"]})
    out["table"] = "\n".join(lines)
    plain = [r for r in rows if r["mu_r"] == 0]
    roll = [r for r in rows if r["mu_r"] > 0]
    roll1 = [r for r in rows if r["mu_r"] == 0.1]
    flank = max(rows, key=lambda r: abs(r["left"] - r["right"]))
    out.update({"beads_min": min(r["beads"] for r in rows), "beads_max": max(r["beads"] for r in rows),
                "poured_min": min(r["poured"] for r in rows), "poured_max": max(r["poured"] for r in rows),
                "plain_angle_min": min(r["angle"] for r in plain), "plain_angle_max": max(r["angle"] for r in plain),
                "plain_area_min": min(r["area"] for r in plain), "plain_area_max": max(r["area"] for r in plain),
                "roll_angle_min": min(r["angle"] for r in roll), "roll_angle_max": max(r["angle"] for r in roll),
                "roll1_area_min": min(r["area"] for r in roll1), "roll1_area_max": max(r["area"] for r in roll1),
                "area_over_slope_min": min(r["area"] - r["angle"] for r in roll),
                "area_over_slope_max": max(r["area"] - r["angle"] for r in roll),
                "flank_diff_max": abs(flank["left"] - flank["right"]), "flank_mu": flank["mu"],
                "flank_mur": flank["mu_r"], "flank_left": flank["left"], "flank_right": flank["right"]})
    if example:
        out.update({"example_" + k: v for k, v in example.items()})
    return out


def measure(d, hw):
    xs, ys, rs = read_beads(os.path.join(d, "particles.csv"))
    ang, left, right, pts = heap_angle(xs, ys, rs, hw)
    return dict(beads=len(xs), angle=ang, left=left, right=right, area=area_angle(xs, ys, rs, hw),
                poured=poured(d)), pts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--floe", default="build/floe")
    ap.add_argument("--out", default="out/repose")
    ap.add_argument("--img", default="docs/img")
    ap.add_argument("--half-base", type=int, default=25)
    ap.add_argument("--only", default="")
    ap.add_argument("--no-run", action="store_true", help="only measure existing runs")
    ap.add_argument("-j", type=int, default=1, help="runs side by side (each on one thread)")
    ap.add_argument("--json", help="also write the numbers docs/repose.md quotes, and run and measure "
                                   "examples/repose.yaml too")
    a = ap.parse_args()
    grid = [(mu, mur) for mur in (0.0, 0.1) for mu in (0.3, 0.5, 0.7)] + [(0.5, 0.05)]
    if a.only:
        grid = [tuple(float(v) for v in a.only.split(","))]
    hw = a.half_base * D
    rows = []

    def run(case):
        mu, mur = case
        d = os.path.join(a.out, f"mu{mu}_mur{mur}")
        os.makedirs(d, exist_ok=True)
        scene = os.path.join(d, "scene.yaml")
        with open(scene, "w") as f:
            f.write(scene_text(mu, mur, a.half_base))
        if not a.no_run:
            subprocess.run([a.floe, "run", scene, "--out", d, "--threads", "1"], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return d

    def run_example():
        d = os.path.join(a.out, "example")
        subprocess.run([a.floe, "run", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples",
                                                     "repose.yaml"), "--out", d, "--threads", "1"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return d

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
        example = ex.submit(run_example) if a.json and not a.no_run else None
        dirs = list(ex.map(run, grid))
        example = example.result() if example else None
    for (mu, mur), d in zip(grid, dirs):
        m, pts = measure(d, hw)
        lo, hi = band(mu, mur)
        rows.append(dict(m, mu=mu, mu_r=mur, band_lo=lo, band_hi=hi, pts=pts))
        print(f"mu={mu} mu_r={mur} beads={m['beads']} angle={m['angle']:.1f} (left {m['left']:.1f}, right "
              f"{m['right']:.1f}) area {m['area']:.1f} band {lo:.0f}-{hi:.0f}", flush=True)
    if a.json:
        ex_m = measure(example, 25 * D)[0] if example else None
        with open(a.json, "w") as f:
            json.dump(numbers(rows, ex_m), f, indent=1)
    if a.only:
        return
    os.makedirs(a.img, exist_ok=True)
    with open(os.path.join(a.img, "repose.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["mu", "mu_r", "beads", "angle_deg", "left_deg", "right_deg", "area_angle_deg", "band_lo", "band_hi"])
        for r in rows:
            w.writerow([r["mu"], r["mu_r"], r["beads"], f"{r['angle']:.1f}", f"{r['left']:.1f}",
                        f"{r['right']:.1f}", f"{r['area']:.1f}", r["band_lo"], r["band_hi"]])
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for mur, c in zip((0.0, 0.05, 0.1), ("C0", "C1", "C2")):
        sel = [r for r in rows if r["mu_r"] == mur]
        ax1.plot([r["mu"] for r in sel], [r["angle"] for r in sel], "o-", color=c, label=f"slope fit, $\\mu_r$ = {mur}")
        ax1.plot([r["mu"] for r in sel], [r["area"] for r in sel], "s--", color=c, mfc="none",
                 label=f"area angle, $\\mu_r$ = {mur}")
        ax1.fill_between([r["mu"] for r in sel], [r["band_lo"] for r in sel], [r["band_hi"] for r in sel],
                         color=c, alpha=0.15)
    ax1.set_xlabel("sliding friction $\\mu$")
    ax1.set_ylabel("angle of repose [deg]")
    ax1.set_title("2D fixed-base heap; shaded: published bands")
    ax1.legend(fontsize=8)
    colour = {0.0: "C0", 0.05: "C1", 0.1: "C2"}
    for r in rows:
        if r["mu"] == 0.5:
            ax2.plot([p[0] * 1e3 for p in r["pts"]], [p[1] * 1e3 for p in r["pts"]], ".-", color=colour.get(r["mu_r"]),
                     label=f"$\\mu_r$ = {r['mu_r']}: {r['angle']:.1f}°")
    ax2.axvspan(-0.8 * hw * 1e3, -0.2 * hw * 1e3, color="grey", alpha=0.1)
    ax2.axvspan(0.2 * hw * 1e3, 0.8 * hw * 1e3, color="grey", alpha=0.1)
    ax2.set_aspect("equal")
    ax2.set_xlabel("x [mm]")
    ax2.set_ylabel("surface height [mm]")
    ax2.set_title("free surface, $\\mu$ = 0.5 (fit in the grey bands)")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(a.img, "repose.png"), dpi=110)


if __name__ == "__main__":
    main()
