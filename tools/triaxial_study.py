#!/usr/bin/python3
"""Servo-controlled triaxial tests on a soft-bonded specimen: Mohr-Coulomb fit.

Runs examples/triaxial.yaml (servo side walls at the confining stress
sigma_3, top platen loading at 0.1 m/s; docs/laboratory.md) at
sigma_3 = 0 (unconfined: the side walls never touch), 0.5, 1 and 2 MPa, for
the softening factors zeta = sb_soft = 0 and 2. For each run the peak axial
stress sigma_1 = mean platen force / (20 mm)^2 is read from history.csv; the
least-squares line sigma_1 = sigma_c + N sigma_3 through the four peaks is
the Mohr-Coulomb envelope, with

    N = (1 + sin phi) / (1 - sin phi),   sigma_c = 2 c sqrt(N),

so phi = asin((N - 1) / (N + 1)) and c = sigma_c / (2 sqrt(N)). Prints the
markdown table of docs/laboratory.md and draws the deviatoric stress
against axial strain with the envelope.

usage: /usr/bin/python3 tools/triaxial_study.py [--floe build/floe] [--out out/triaxial]
                                                [--png docs/img/triaxial.png] [--jobs 2]
Needs Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SIGMA3 = (0.0, 0.5e6, 1.0e6, 2.0e6)  # confining stresses [Pa]
ZETAS = (0, 2)
AREA = 0.02 * 0.02                  # platen area [m^2]
HEIGHT = 0.04                       # specimen height [m]
SPEED = 0.1                         # platen speed [m/s]
T_LOAD = 0.012                      # loading starts [s]


def variant(text, sigma3, zeta):
    out, n1 = re.subn(r"stress: [0-9.e+-]+", "stress: %g" % sigma3, text)
    out, n2 = re.subn(r"sb_soft: [0-9.e+-]+", "sb_soft: %g" % zeta, out)
    if (n1, n2) != (5, 1):
        sys.exit("triaxial_study: the scene no longer has five servo stresses and one sb_soft")
    return out


def run(floe, text, outdir):
    os.makedirs(outdir, exist_ok=True)
    scene = os.path.join(outdir, "scene.yaml")
    with open(scene, "w") as f:
        f.write(text)
    with open(os.path.join(outdir, "log.txt"), "w") as log:
        subprocess.run([floe, "run", scene, "--out", outdir, "--threads", "1"], stdout=log,
                       stderr=subprocess.STDOUT, check=True)


def curve(outdir, sigma3):
    """Axial strain and deviatoric stress q = sigma_1 - sigma_3 while loading (phase 1)."""
    eps, q, lateral = [], [], []
    with open(os.path.join(outdir, "history.csv"), newline="") as f:
        for row in csv.DictReader(f):
            if row["top_phase"] != "1":
                continue
            t = float(row["t"])
            s1 = 0.5 * (float(row["top_fz"]) - float(row["bottom_fz"])) / AREA
            eps.append(SPEED * (t - T_LOAD) / HEIGHT)
            q.append(s1 - sigma3)
            lateral.append(0.5 * (float(row["sx"]) + float(row["sy"])))
    return eps, q, lateral


def fit(points):
    """Least squares sigma_1 = a + N sigma_3; returns a, N, phi [deg], c."""
    n = len(points)
    sx = sum(p[0] for p in points)
    sy = sum(p[1] for p in points)
    sxx = sum(p[0] * p[0] for p in points)
    sxy = sum(p[0] * p[1] for p in points)
    N = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    a = (sy - N * sx) / n
    phi = math.degrees(math.asin((N - 1) / (N + 1))) if N > 1 else float("nan")
    c = a / (2 * math.sqrt(N)) if N > 0 else float("nan")
    return a, N, phi, c


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser()
    ap.add_argument("--floe", default=os.path.join(root, "build", "floe"))
    ap.add_argument("--out", default=os.path.join(root, "out", "triaxial"))
    ap.add_argument("--png", default=os.path.join(root, "docs", "img", "triaxial.png"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--zetas", default="0,2", help="softening factors, comma-separated")
    ap.add_argument("--reuse", action="store_true", help="reuse the runs already in --out")
    args = ap.parse_args()
    global ZETAS
    ZETAS = tuple(float(z) for z in args.zetas.split(","))
    with open(os.path.join(root, "examples", "triaxial.yaml")) as f:
        text = f.read()
    cases = [(s3, z) for z in ZETAS for s3 in SIGMA3]
    dirs = {c: os.path.join(args.out, "zeta%g_s3_%g" % (c[1], c[0] / 1e6)) for c in cases}
    with ThreadPoolExecutor(args.jobs) as ex:
        todo = [c for c in cases if not (args.reuse and os.path.exists(os.path.join(dirs[c], "history.csv")))]
        list(ex.map(lambda c: run(args.floe, variant(text, *c), dirs[c]), todo))
    curves, peaks = {}, {}
    for c in cases:
        eps, q, lat = curve(dirs[c], c[0])
        k = max(range(len(q)), key=lambda i: q[i])
        curves[c] = (eps, q)
        peaks[c] = (q[k], eps[k], lat[k])
    print("| zeta | sigma_3 (MPa) | peak q (MPa) | sigma_1 at peak (MPa) | axial strain at peak (%) | "
          "side-wall stress at peak (MPa) |")
    print("|---|---|---|---|---|---|")
    for c in cases:
        q, e, lat = peaks[c]
        print("| %g | %.1f | %.2f | %.2f | %.2f | %.2f |" % (c[1], c[0] / 1e6, q / 1e6, (q + c[0]) / 1e6, 100 * e,
                                                           lat / 1e6))
    fits = {}
    print()
    print("| zeta | sigma_c (MPa) | N | friction angle (deg) | cohesion (MPa) |")
    print("|---|---|---|---|---|")
    for z in ZETAS:
        pts = [(s3, peaks[(s3, z)][0] + s3) for s3 in SIGMA3]
        fits[z] = fit(pts)
        a, N, phi, c = fits[z]
        print("| %g | %.2f | %.2f | %.1f | %.2f |" % (z, a / 1e6, N, phi, c / 1e6))
        if not N > 1:
            print("zeta %g: N = %.2f <= 1: the peak stress does not grow with the confinement, no Mohr-Coulomb "
                  "envelope" % (z, N))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: no plot", file=sys.stderr)
        return
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    colours = dict(zip(SIGMA3, ("k", "C0", "C1", "C3")))
    for c in cases:
        eps, q = curves[c]
        ax[0].plot([100 * e for e in eps], [v / 1e6 for v in q], color=colours[c[0]],
                   ls="-" if c[1] == ZETAS[-1] else "--",
                   label="$\\sigma_3$ = %.1f MPa, $\\zeta$ = %g" % (c[0] / 1e6, c[1]))
    ax[0].set_xlabel("axial strain (%)")
    ax[0].set_ylabel("deviatoric stress $q = \\sigma_1 - \\sigma_3$ (MPa)")
    ax[0].legend(fontsize=7)
    ax[0].grid(alpha=0.3)
    for z in ZETAS:
        a, N, phi, cc = fits[z]
        xs = [s3 / 1e6 for s3 in SIGMA3]
        ax[1].plot(xs, [(peaks[(s3, z)][0] + s3) / 1e6 for s3 in SIGMA3], "o",
                   color="C0" if z == ZETAS[-1] else "C2", label="peaks, $\\zeta$ = %g" % z)
        if N > 1:
            ax[1].plot(xs, [(a + N * s3) / 1e6 for s3 in SIGMA3], "-" if z == ZETAS[-1] else "--",
                       color="C0" if z == ZETAS[-1] else "C2",
                       label="$\\zeta$ = %g: $\\phi$ = %.1f°, c = %.2f MPa" % (z, phi, cc / 1e6))
    ax[1].set_xlabel("$\\sigma_3$ (MPa)")
    ax[1].set_ylabel("peak $\\sigma_1$ (MPa)")
    ax[1].legend(fontsize=8)
    if not any(fits[z][1] > 1 for z in ZETAS):
        ax[1].set_title("no envelope: the loose specimen collapses under confinement", fontsize=9)
    ax[1].grid(alpha=0.3)
    fig.suptitle("Soft-bonded specimen, servo-controlled triaxial tests (examples/triaxial.yaml)")
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)
    print("wrote", args.png)


if __name__ == "__main__":
    main()
