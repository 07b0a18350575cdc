#!/usr/bin/python3
"""mu(I) of frictional disks in periodic simple shear at constant volume.

A 2D world of 400 polydisperse disks (spheres held in the xy plane, radii
uniform in [0.8, 1.2] x 0.5 mm, density 2500 kg/m^3) in a cell periodic in
x and y (docs/periodic.md), in two runs of the floe command per solid
fraction phi:

1. compaction: the cell shrinks isotropically (velocity gradient
   L = -c I) from a hexagonal arrangement at phi = 0.59 to phi; the bodies
   feel it only through their images across the faces;
2. shear: the packing (positions and velocities of run 1's particles.csv)
   is sheared at constant volume at gamma_dot (L_xy, Lees-Edwards images,
   affine start velocities) for a shear strain of 8.

The pressure P = -(sigma_xx + sigma_yy) / 2 and shear stress
tau = sigma_xy are the Love-Weber stress of the contacts over the cell
(the kinetic stress is left out: a few per cent at the largest I), averaged
over the strain after a transient of 3. Each phi gives one point

    I = gamma_dot d / sqrt(P / rho_2D),   mu = tau / P,

d the mean diameter, rho_2D the disks' mass per unit area (the 2D form of
GDR MiDi 2004 and da Cruz et al. 2005). The fit is the mu(I) law of Jop,
Forterre and Pouliquen 2006, mu(I) = mu_s + (mu_2 - mu_s) / (I_0 / I + 1).

Contacts: the Linear law, k_n = 1e6 N/m (k_n / P >= 1e3 at every point:
the stiffness level above which da Cruz et al. 2005 found the rheology
nearly independent of it), k_t = k_n / 2, contact friction 0.4, normal
dashpot 0.5 of critical. For disks of contact friction 0.4, da Cruz et al.
2005 report mu_s ~ 0.25-0.3 and mu rising about linearly with I below
I ~ 0.2.

usage: /usr/bin/python3 tools/mu_i_study.py [--floe build/floe] [--out out/mu-i]
                                            [--png docs/img/mu-i.png] [--jobs 2] [--json FILE]
Prints the table; writes the PNG (--json: the numbers docs/periodic.md quotes). Needs Debian's python3-matplotlib, numpy
and scipy (hence /usr/bin/python3).
"""
import argparse
import csv
import json
import math
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

PHIS = (0.83, 0.82, 0.815, 0.81, 0.80, 0.79, 0.78, 0.76, 0.74)
N_SIDE = 20                 # 20 x 20 disks
R0 = 0.5e-3                 # mean radius [m]
RHO = 2500.0                # grain density [kg/m^3]
KN = 1e6                    # N/m
FRICTION = 0.4
GDOT = 1000.0               # shear rate [1/s] ...
GDOT_DENSE = 250.0          # ... and at phi >= 0.805, where P is larger: k_n / P stays >= 1e3
RATE = 200.0                # compaction rate [1/s]
STRAIN = 8.0                # shear strain per run
TRANSIENT = 3.0             # strain left out of the averages


def packing():
    rnd = random.Random(7)
    radii = [R0 * (0.8 + 0.4 * rnd.random()) for _ in range(N_SIDE * N_SIDE)]
    s = 2.5 * R0   # hexagonal rows, spacing above the largest diameter
    lx, ly = N_SIDE * s, N_SIDE * s * math.sqrt(3) / 2
    pos = []
    for j in range(N_SIDE):
        for i in range(N_SIDE):
            pos.append(((i + 0.25 + 0.5 * (j % 2)) * s, (j + 0.5) * s * math.sqrt(3) / 2))
    return radii, pos, lx, ly


def header(dt, steps_or_time):
    return [
        "world: {dimension: 2, gravity: [0, 0, 0], dt: %.9e}" % dt,
        "run: {%s}" % steps_or_time,
        "materials:",
        "  - {name: g, model: linear, density: %g, tan_phi: %g}" % (RHO, FRICTION),
        "models:",
        "  linear: {kn: %g, kt: %g, dp_nratio: 0.5}" % (KN, 0.5 * KN),
    ]


def sh(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), r.stdout[-2000:], r.stderr[-2000:]))


def compact_scene(phi):
    """The compaction run's scene (the hexagonal packing shrunk to phi) and what the shear run needs."""
    radii, pos, lx, ly = packing()
    area = sum(math.pi * r * r for r in radii)
    mass = sum(RHO * 4.0 / 3.0 * math.pi * r ** 3 for r in radii)
    rho2d, d = mass / area, 2 * sum(radii) / len(radii)
    dt = 0.2 * math.sqrt(RHO * 4.0 / 3.0 * math.pi * min(radii) ** 3 / KN)
    phi0 = area / (lx * ly)
    # H_kk after N steps: (1 - RATE dt)^N of the start; area ratio phi0 / phi
    n = int(round(math.log(phi0 / phi) / (2 * math.log(1 - RATE * dt))))
    f = (1 - RATE * dt) ** n
    lines = header(dt, "steps: %d" % n) + [
        "periodic:",
        "  x: [0, %.12g]" % lx,
        "  y: [0, %.12g]" % ly,
        "  velocity_gradient: [[%g, 0, 0], [0, %g, 0], [0, 0, 0]]" % (-RATE, -RATE),
        "particles:",
    ] + ["  - {pos: [%.12g, %.12g, 0], radius: %.12g}" % (p[0], p[1], r) for p, r in zip(pos, radii)] + [
        "output: {vtk: false, energy: false, progress: false}"]
    return "\n".join(lines) + "\n", dict(radii=radii, rho2d=rho2d, d=d, dt=dt, f=f, lx=lx, ly=ly)


def run(floe, out, phi):
    text, c = compact_scene(phi)
    radii, rho2d, d, dt, f, lx, ly = (c[k] for k in ("radii", "rho2d", "d", "dt", "f", "lx", "ly"))
    top = os.path.join(out, "phi_%g" % phi)
    os.makedirs(top, exist_ok=True)
    scene1 = os.path.join(top, "compact.yaml")
    open(scene1, "w").write(text)
    sh([floe, "run", scene1, "--out", os.path.join(top, "compact"), "--threads", "1"])
    # the packing: x, y, z, velocities, radius
    rows = list(csv.DictReader(open(os.path.join(top, "compact", "particles.csv"))))
    table = os.path.join(top, "packing.csv")
    with open(table, "w") as t:
        t.write("x,y,z,vx,vy,vz,radius\n")
        for r in rows:
            t.write(",".join(r[k] for k in ("x", "y", "z", "vx", "vy", "vz", "radius")) + "\n")
    gdot = GDOT_DENSE if phi >= 0.805 else GDOT
    lx2, ly2 = lx * f, ly * f
    every = max(1, int(0.02 / gdot / dt))
    lines = header(dt, "time: %.9e" % (STRAIN / gdot)) + [
        "periodic:",
        "  x: [0, %.12g]" % lx2,
        "  y: [0, %.12g]" % ly2,
        "  velocity_gradient: [[0, %g, 0], [0, 0, 0], [0, 0, 0]]" % gdot,
        "  affine_velocities: true",
        "particles:",
        "  - {file: packing.csv, material: g}",
        "output:",
        "  vtk: false",
        "  energy: false",
        "  progress: false",
        "  regions:",
        "    - {name: cell, min: [0, 0, -0.5], max: [1, 1, 0.5], whole: true}",
        "  history:",
        "    every: %d" % every,
        "    columns:",
        "      - {name: strain, counter: strain.xy}",
        "      - {name: sxy, region: cell, quantity: stress.xy}",
        "      - {name: syy, region: cell, quantity: stress.yy}",
        "      - {name: sxx, region: cell, quantity: stress.xx}",
        "      - {name: contacts, counter: contacts}",
    ]
    scene2 = os.path.join(top, "shear.yaml")
    open(scene2, "w").write("\n".join(lines) + "\n")
    sh([floe, "run", scene2, "--out", os.path.join(top, "shear"), "--threads", "1"])
    hist = list(csv.DictReader(open(os.path.join(top, "shear", "history.csv"))))
    keep = [r for r in hist if float(r["strain"]) >= TRANSIENT]
    p = [-(float(r["sxx"]) + float(r["syy"])) / 2 for r in keep]
    tau = [float(r["sxy"]) for r in keep]
    pm, tm = sum(p) / len(p), sum(tau) / len(tau)
    mu = tm / pm
    # error from 4 blocks of strain (rows are correlated)
    k = len(keep)
    bm = [sum(tau[b * k // 4:(b + 1) * k // 4]) / sum(p[b * k // 4:(b + 1) * k // 4]) for b in range(4)]
    err = math.sqrt(sum((x - mu) ** 2 for x in bm) / (4 * 3))
    i_num = gdot * d / math.sqrt(pm / rho2d)
    z = sum(float(r["contacts"]) for r in keep) / len(keep) * 2 / len(radii)
    return dict(phi=phi, gdot=gdot, I=i_num, mu=mu, err=err, p=pm, kappa=KN / pm, z=z)


def fit(res):
    import numpy as np
    from scipy.optimize import curve_fit

    def law(i, ms, m2, i0):
        return ms + (m2 - ms) / (i0 / i + 1)

    x = np.array([r["I"] for r in res])
    y = np.array([r["mu"] for r in res])
    p, _ = curve_fit(law, x, y, p0=(0.25, 0.6, 0.3), bounds=([0, 0, 1e-4], [2, 5, 100]), maxfev=20000)
    return law, p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--floe", default="build/floe")
    ap.add_argument("--out", default="out/mu-i")
    ap.add_argument("--png", default="docs/img/mu-i.png")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="also write the numbers docs/periodic.md quotes into this file")
    a = ap.parse_args()
    with ThreadPoolExecutor(a.jobs) as ex:
        res = list(ex.map(lambda f: run(a.floe, a.out, f), PHIS))
    res.sort(key=lambda r: r["I"])
    lines = ["| solid fraction | γ̇ [1/s] | I | μ = τ/P | ± | P [N/m] | k_n/P | contacts per disk |",
             "|---|---|---|---|---|---|---|---|"]
    for r in res:
        lines.append("| %.3f | %g | %.4f | %.4f | %.4f | %.4g | %.3g | %.2f |" % (
            r["phi"], r["gdot"], r["I"], r["mu"], r["err"], r["p"], r["kappa"], r["z"]))
    print("\n".join(lines))
    law, p = fit(res)
    print("fit mu(I) = mu_s + (mu_2 - mu_s)/(I_0/I + 1): mu_s = %.4f, mu_2 = %.4f, I_0 = %.4f" % tuple(p))
    if a.json:
        nums = {"table": "\n".join(lines), "mu_s": float(p[0]), "mu_2": float(p[1]), "I_0": float(p[2])}
        for r in res:
            k = "phi%d_" % round(1000 * r["phi"])
            nums.update({k + "I": r["I"], k + "mu": r["mu"], k + "kappa": r["kappa"], k + "z": r["z"]})
        with open(a.json, "w") as f:
            json.dump(nums, f, indent=1)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar([r["I"] for r in res], [r["mu"] for r in res], yerr=[r["err"] for r in res], fmt="o",
                label="floe, periodic shear, 400 disks, contact friction 0.4")
    ii = [r["I"] for r in res]
    xs = np.logspace(math.log10(min(ii) / 2), math.log10(max(ii) * 2), 200)
    ax.plot(xs, law(xs, *p), "-", label="fit: mu_s %.3f, mu_2 %.3f, I_0 %.3f" % tuple(p))
    ax.axhspan(0.25, 0.30, color="0.85", label="da Cruz et al. 2005: mu_s 0.25-0.3")
    ax.set_xscale("log")
    ax.set_xlabel("inertial number I")
    ax.set_ylabel("effective friction mu = tau / P")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(a.png, dpi=110)
    print("wrote", a.png)


if __name__ == "__main__":
    main()
