#!/usr/bin/python3
"""Triaxial and Brazilian tests on a dense soft-bonded specimen: Mohr-Coulomb fit, UCS/BTS.

Runs examples/triaxial.yaml (dense specimen, servo side walls at the
confining stress sigma_3, top platen loading at 0.3 m/s after 2.5 ms of
consolidation; docs/laboratory.md) unconfined (sigma_3 = 0: the side walls
are moved 10 mm away and never close in) and at sigma_3 = 0.5, 1 and
1.5 MPa, and examples/brazilian.yaml (a disc between curved jaws), for the
softening factors zeta = sb_soft given with --zetas.

Triaxial: sigma_1 = mean platen force / (12 mm)^2; the strength is the
largest sigma_1 while the platen loads (phase 1) and at least half of the
bonds present at the start of the loading remain. Unconfined, that is the
peak before the force drop; confined, the curve has a knee where the bonds
break, and after it the debonded granular remnant hardens by friction as
it compacts (q still rising at 4 % strain); that hardening is not the
bonded material's strength, so the table also lists the largest q of the
run for comparison. The least-squares line sigma_1 = sigma_c + N sigma_3 through
the four strengths is the Mohr-Coulomb envelope, with

    N = (1 + sin phi) / (1 - sin phi),   sigma_c = 2 c sqrt(N),

so phi = asin((N - 1) / (N + 1)) and c = sigma_c / (2 sqrt(N)).
Brazilian: BTS = 2 F / (pi D t) for the peak jaw force F (mean of the two
jaws), D = 20 mm, t = 6 mm. UCS/BTS uses the measured unconfined strength.

usage: /usr/bin/python3 tools/triaxial_study.py [--floe build/floe] [--out out/triaxial]
                                                [--png docs/img/triaxial.png] [--jobs 2] [--zetas 0,2,4]
                                                [--json FILE]
--json writes the numbers docs/laboratory.md quotes (for tools/doc_numbers.py).
Needs Debian's python3-matplotlib (hence /usr/bin/python3) for the plot.
"""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SIGMA3 = (0.0, 0.5e6, 1.0e6, 1.5e6)  # confining stresses [Pa]
AREA = 0.012 * 0.012                # platen area [m^2]
HEIGHT = 0.024                      # specimen height [m]
SPEED = 0.3                         # platen speed [m/s]
T_LOAD = 0.0025                     # loading starts [s]
DISC_D, DISC_T = 0.02, 0.006        # Brazilian disc diameter and thickness [m]
HALF = 0.5                          # strength: largest sigma_1 while this fraction of the bonds remains


def set_zeta(text, zeta):
    out, n = re.subn(r"sb_soft: [0-9.e+-]+", "sb_soft: %g" % zeta, text)
    if n != 1:
        sys.exit("triaxial_study: the scene no longer has one sb_soft")
    return out


def triaxial_variant(text, sigma3, zeta):
    out, n = re.subn(r"stress: [0-9.e+-]+", "stress: %g" % sigma3, text)
    if n != 5:
        sys.exit("triaxial_study: the scene no longer has five servo stresses")
    if sigma3 == 0:   # unconfined: side walls far away and still
        for v in ("0.2, 0, 0", "-0.2, 0, 0", "0, 0.2, 0", "0, -0.2, 0"):
            out = out.replace("velocity: [%s]" % v, "velocity: [0, 0, 0]")
        out = out.replace("pos: -0.00015", "pos: -0.01").replace("pos: 0.01215", "pos: 0.022")
    return set_zeta(out, zeta)


def run(floe, text, outdir):
    os.makedirs(outdir, exist_ok=True)
    scene = os.path.join(outdir, "scene.yaml")
    with open(scene, "w") as f:
        f.write(text)
    with open(os.path.join(outdir, "log.txt"), "w") as log:
        subprocess.run([floe, "run", scene, "--out", outdir, "--threads", "1"], stdout=log,
                       stderr=subprocess.STDOUT, check=True)


def rows(outdir):
    with open(os.path.join(outdir, "history.csv"), newline="") as f:
        return list(csv.DictReader(f))


def spheres(outdir):
    with open(os.path.join(outdir, "particles.csv"), newline="") as f:
        return sum(1 for r in csv.DictReader(f) if r["shape"] == "sphere")


def servo_error(outdir, sigma3, keep=0.95):
    """Largest relative deviation of the side-wall stress from sigma3 while the
    platen loads and at least `keep` of the bonds remain."""
    eps, q, lat, bonds = triaxial_curve(outdir, sigma3)
    return max(abs(x / sigma3 - 1) for x, b in zip(lat, bonds) if b >= keep * bonds[0])


def triaxial_curve(outdir, sigma3):
    """Axial strain, deviatoric stress q = sigma_1 - sigma_3, side-wall stress, bonds while loading."""
    eps, q, lateral, bonds = [], [], [], []
    for row in rows(outdir):
        if row["top_phase"] != "1":
            continue
        t = float(row["t"])
        s1 = 0.5 * (float(row["top_fz"]) - float(row["bottom_fz"])) / AREA
        eps.append(SPEED * (t - T_LOAD) / HEIGHT)
        q.append(s1 - sigma3)
        lateral.append(0.5 * (float(row["sx"]) + float(row["sy"])))
        bonds.append(int(row["bonded"]))
    return eps, q, lateral, bonds


def brazilian_curve(outdir):
    """Jaw closure (m) and mean jaw force (N) from first contact; bonds at the start (the first row with any)."""
    d, f, b0 = [], [], 0
    for row in rows(outdir):
        b0 = b0 or int(row["bonded"])
        if row["phase"] == "0":
            continue
        gap = float(row["right_x"]) - float(row["left_x"])
        d.append(gap)
        f.append(0.5 * (float(row["right_fx"]) - float(row["left_fx"])))
    d = [d[0] - x for x in d]
    return d, f, b0


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


def numbers(args, zetas, jobs, peaks, fits, bts):
    """The numbers docs/laboratory.md quotes, for --json."""
    z0, z1 = zetas[0], zetas[-1]
    tri0 = jobs[("tri", SIGMA3[1], z0)][0]
    nums = {"spheres": spheres(tri0), "bonds": peaks[(SIGMA3[1], z0)][3],
            "disc_spheres": spheres(jobs[("braz", 0, z0)][0]), "disc_bonds": bts[z0][3]}
    nums["bonds_per_sphere"] = 2 * nums["bonds"] / nums["spheres"]
    for z in zetas:
        a, N, phi, c = fits[z]
        ucs = peaks[(0.0, z)][0]
        k = "z%g_" % z
        nums.update({k + "ucs_MPa": ucs / 1e6, k + "sigma_c_MPa": a / 1e6, k + "N": N, k + "phi": phi,
                     k + "c_MPa": c / 1e6, k + "F_N": bts[z][0], k + "bts_MPa": bts[z][1] / 1e6,
                     k + "ucs_bts": ucs / bts[z][1]})
        for s3 in SIGMA3[1:]:
            nums[k + "servo_%g_pct" % (s3 / 1e6)] = 100 * servo_error(jobs[("tri", s3, z)][0], s3)
    fit_gap = [abs(fits[z][0] - peaks[(0.0, z)][0]) / 1e6 for z in zetas]
    lat = sorted(((abs(peaks[(s3, z)][2] / s3 - 1), peaks[(s3, z)][2], s3, z) for z in zetas for s3 in SIGMA3[1:]),
                 reverse=True)
    nums.update({"phi_min": min(fits[z][2] for z in zetas), "phi_max": max(fits[z][2] for z in zetas),
                 "c_min_MPa": min(fits[z][3] for z in zetas) / 1e6, "c_max_MPa": max(fits[z][3] for z in zetas) / 1e6,
                 "fit_gap_max_MPa": max(fit_gap),
                 "ucs_rise_pct": 100 * (peaks[(0.0, z1)][0] / peaks[(0.0, z0)][0] - 1),
                 "bts_rise_pct": 100 * (bts[z1][1] / bts[z0][1] - 1),
                 "lat_peak_worst_MPa": lat[0][1] / 1e6, "lat_peak_worst_target_MPa": lat[0][2] / 1e6,
                 "lat_peak_worst_zeta": lat[0][3], "lat_peak_next_pct": 100 * lat[1][0]})
    return nums


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser()
    ap.add_argument("--floe", default=os.path.join(root, "build", "floe"))
    ap.add_argument("--out", default=os.path.join(root, "out", "triaxial"))
    ap.add_argument("--png", default=os.path.join(root, "docs", "img", "triaxial.png"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--zetas", default="0,2,4", help="softening factors, comma-separated")
    ap.add_argument("--reuse", action="store_true", help="reuse the runs already in --out")
    ap.add_argument("--json", help="also write the numbers docs/laboratory.md quotes into this file")
    args = ap.parse_args()
    zetas = tuple(float(z) for z in args.zetas.split(","))
    with open(os.path.join(root, "examples", "triaxial.yaml")) as f:
        tri = f.read()
    with open(os.path.join(root, "examples", "brazilian.yaml")) as f:
        braz = f.read()
    jobs = {}
    for z in zetas:
        for s3 in SIGMA3:
            jobs[("tri", s3, z)] = (os.path.join(args.out, "zeta%g_s3_%g" % (z, s3 / 1e6)), triaxial_variant(tri, s3, z))
        jobs[("braz", 0, z)] = (os.path.join(args.out, "zeta%g_brazilian" % z), set_zeta(braz, z))
    todo = [k for k in jobs if not (args.reuse and os.path.exists(os.path.join(jobs[k][0], "history.csv")))]
    with ThreadPoolExecutor(args.jobs) as ex:
        list(ex.map(lambda k: run(args.floe, jobs[k][1], jobs[k][0]), todo))

    curves, peaks, bcurves, bts = {}, {}, {}, {}
    for z in zetas:
        for s3 in SIGMA3:
            eps, q, lat, bonds = triaxial_curve(jobs[("tri", s3, z)][0], s3)
            # the bonded specimen's strength: the largest q while at least half the bonds remain
            n = next((i for i in range(len(q)) if bonds[i] < HALF * bonds[0]), len(q))
            k = max(range(n), key=lambda i: q[i])
            m = max(range(len(q)), key=lambda i: q[i])
            curves[(s3, z)] = (eps, q)
            peaks[(s3, z)] = (q[k], eps[k], lat[k], bonds[0], bonds[k], q[m], eps[m])
        d, f, b0 = brazilian_curve(jobs[("braz", 0, z)][0])
        k = max(range(len(f)), key=lambda i: f[i])
        bcurves[z] = (d, f)
        bts[z] = (f[k], 2 * f[k] / (math.pi * DISC_D * DISC_T), d[k], b0)
    out = []
    out.append("| ζ | σ_3 (MPa) | peak q (MPa) | σ_1 at peak (MPa) | axial strain at peak (%) | "
               "side-wall stress at peak (MPa) | bonds at loading start / at peak | largest q in the run (MPa) "
               "at strain (%) |")
    out.append("|---|---|---|---|---|---|---|---|")
    for z in zetas:
        for s3 in SIGMA3:
            q, e, lat, b0, bk, qm, em = peaks[(s3, z)]
            out.append("| %g | %.1f | %.2f | %.2f | %.2f | %.2f | %d / %d | %.2f at %.2f |" % (
                z, s3 / 1e6, q / 1e6, (q + s3) / 1e6, 100 * e, lat / 1e6, b0, bk, qm / 1e6, 100 * em))
    fits = {}
    out.append("")
    out.append("| ζ | UCS measured (MPa) | σ_c fit (MPa) | N | φ (°) | c (MPa) | peak F Brazilian (N) | BTS (MPa) | "
               "UCS/BTS |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for z in zetas:
        pts = [(s3, peaks[(s3, z)][0] + s3) for s3 in SIGMA3]
        fits[z] = fit(pts)
        a, N, phi, c = fits[z]
        ucs = peaks[(0.0, z)][0]
        F, b, _, _ = bts[z]
        out.append("| %g | %.2f | %.2f | %.2f | %.1f | %.2f | %.1f | %.2f | %.2f |" % (
            z, ucs / 1e6, a / 1e6, N, phi, c / 1e6, F, b / 1e6, ucs / b))
    text = "\n".join(out)
    print(text)
    if args.json:
        nums = numbers(args, zetas, jobs, peaks, fits, bts)
        nums["table_runs"] = "\n".join(out[:out.index("")])
        nums["table_fits"] = "\n".join(out[out.index("") + 1:])
        with open(args.json, "w") as f:
            json.dump(nums, f, indent=1)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(text + "\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: no plot", file=sys.stderr)
        return
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.4))
    colours = dict(zip(SIGMA3, ("k", "C0", "C1", "C3")))
    styles = dict(zip(zetas, ("--", "-", ":", "-.")))
    for (s3, z), (eps, q) in curves.items():
        ax[0].plot([100 * e for e in eps], [v / 1e6 for v in q], color=colours[s3], ls=styles[z],
                   label="$\\sigma_3$ = %.1f MPa, $\\zeta$ = %g" % (s3 / 1e6, z))
    ax[0].set_xlabel("axial strain (%)")
    ax[0].set_ylabel("deviatoric stress $q = \\sigma_1 - \\sigma_3$ (MPa)")
    ax[0].legend(fontsize=6, ncol=2)
    ax[0].grid(alpha=0.3)
    for i, z in enumerate(zetas):
        a, N, phi, cc = fits[z]
        xs = [s3 / 1e6 for s3 in SIGMA3]
        col = "C%d" % (i + 4)
        ax[1].plot(xs, [(peaks[(s3, z)][0] + s3) / 1e6 for s3 in SIGMA3], "o", color=col)
        ax[1].plot(xs, [(a + N * s3) / 1e6 for s3 in SIGMA3], ls=styles[z], color=col,
                   label="$\\zeta$ = %g: $\\phi$ = %.1f°, c = %.2f MPa" % (z, phi, cc / 1e6))
    ax[1].set_xlabel("$\\sigma_3$ (MPa)")
    ax[1].set_ylabel("peak $\\sigma_1$ (MPa)")
    ax[1].legend(fontsize=8)
    ax[1].grid(alpha=0.3)
    for i, z in enumerate(zetas):
        d, f = bcurves[z]
        ax[2].plot([1e3 * x for x in d], f, ls=styles[z], color="C%d" % (i + 4),
                   label="$\\zeta$ = %g: BTS = %.2f MPa, UCS/BTS = %.2f" % (z, bts[z][1] / 1e6,
                                                                          peaks[(0.0, z)][0] / bts[z][1]))
    ax[2].set_xlabel("jaw closure since the first jaw touched (mm)")
    ax[2].set_ylabel("jaw force F (N)")
    ax[2].legend(fontsize=8)
    ax[2].grid(alpha=0.3)
    fig.suptitle("Dense soft-bonded specimen: servo triaxial tests (examples/triaxial.yaml) and Brazilian tests "
                 "(examples/brazilian.yaml)")
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print("wrote", args.png)


if __name__ == "__main__":
    main()
