#!/usr/bin/python3
"""Soft-bond specimen in direct tension and unconfined compression.

Runs examples/softbond-ucs.yaml for each softening factor zeta (sb_soft) in
{0, 1, 2, 4}, once with the top platen pulled up (direct tension) and once
pushed down (unconfined compression), then prints the table of peak
stresses and the ratio UCS / tensile strength, and draws the stress-strain
curves.

usage: /usr/bin/python3 tools/softbond_ucs.py [--floe build/floe] [--out out/softbond-ucs]
                                              [--png docs/img/softbond-ucs.png] [--jobs 2] [--json FILE]
--json writes the numbers docs/models/softbond.md quotes (for tools/doc_numbers.py).
Needs Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ZETAS = (0, 1, 2, 4)
SPEED = 0.1                      # platen speed [m/s]
TIME = {"tension": 0.004, "compression": 0.016}   # run lengths [s]: 1 % and 4 % strain, past the peaks

# Specimen geometry, from the scene (see its header): the packing fills a
# 20 x 20 mm cross-section between platens 40 mm apart.
AREA = 0.02 * 0.02
HEIGHT = 0.04


def variant(text, zeta, test):
    """The scene with sb_soft = zeta and the platen moving for `test`."""
    v = SPEED if test == "tension" else -SPEED
    out, n1 = re.subn(r"sb_soft: [0-9.e+-]+", "sb_soft: %g" % zeta, text)
    out, n2 = re.subn(r"velocity: \[0, 0, [0-9.e+-]+\]", "velocity: [0, 0, %g]" % v, out)
    out, n3 = re.subn(r"(?m)^  time: [0-9.e+-]+", "  time: %g" % TIME[test], out)
    if (n1, n2, n3) != (1, 1, 1):
        sys.exit("softbond_ucs: the scene no longer has one sb_soft, one platen velocity and one run time")
    return out


def run(floe, scene_text, outdir, threads):
    os.makedirs(outdir, exist_ok=True)
    scene = os.path.join(outdir, "scene.yaml")
    with open(scene, "w") as f:
        f.write(scene_text)
    with open(os.path.join(outdir, "log.txt"), "w") as log:
        subprocess.run([floe, "run", scene, "--out", outdir, "--threads", str(threads)],
                       stdout=log, stderr=subprocess.STDOUT, check=True)


def curve(outdir, test):
    """Strain and axial stress (positive in the sense of the test), MPa."""
    eps, sig = [], []
    sign = 1.0 if test == "compression" else -1.0
    with open(os.path.join(outdir, "history.csv"), newline="") as f:
        for row in csv.DictReader(f):
            t = float(row["time"])
            force = 0.5 * (float(row["top_fz"]) - float(row["bottom_fz"]))  # mean of the two platens
            eps.append(SPEED * t / HEIGHT)
            sig.append(sign * force / AREA * 1e-6)
    return eps, sig


def spheres(outdir):
    with open(os.path.join(outdir, "particles.csv"), newline="") as f:
        return sum(1 for r in csv.DictReader(f) if r["shape"] == "sphere")


def bonds_per_sphere(outdir):
    """2 x the bonds at the first history row that has any, per sphere."""
    with open(os.path.join(outdir, "history.csv"), newline="") as f:
        b = next((int(r["bonded"]) for r in csv.DictReader(f) if int(r["bonded"]) > 0), 0)
    return 2.0 * b / spheres(outdir)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--floe", default=os.path.join(root, "build", "floe"))
    ap.add_argument("--scene", default=os.path.join(root, "examples", "softbond-ucs.yaml"))
    ap.add_argument("--out", default=os.path.join(root, "out", "softbond-ucs"))
    ap.add_argument("--png", default=os.path.join(root, "docs", "img", "softbond-ucs.png"))
    ap.add_argument("--jobs", type=int, default=2, help="runs side by side (one thread each)")
    ap.add_argument("--plot-only", action="store_true", help="reuse the runs in --out")
    ap.add_argument("--json", help="also write the numbers docs/models/softbond.md quotes into this file")
    args = ap.parse_args()
    with open(args.scene) as f:
        text = f.read()
    cases = [(z, t) for z in ZETAS for t in ("compression", "tension")]
    if not args.plot_only:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(run, args.floe, variant(text, z, t),
                                   os.path.join(args.out, "%s-zeta%g" % (t, z)), 1) for z, t in cases]
            for fu in futures:
                fu.result()
    curves = {(z, t): curve(os.path.join(args.out, "%s-zeta%g" % (t, z)), t) for z, t in cases}

    lines = ["| ζ (sb_soft) | tensile strength [MPa] | UCS [MPa] | UCS / tension | strain at peak, tension / compression |",
             "|---|---|---|---|---|"]
    ratios, nums = [], {}
    for z in ZETAS:
        pk = {}
        for t in ("tension", "compression"):
            eps, sig = curves[(z, t)]
            i = max(range(len(sig)), key=sig.__getitem__)
            pk[t] = (sig[i], eps[i])
        ratio = pk["compression"][0] / pk["tension"][0]
        ratios.append(ratio)
        nums.update({"z%g_tension_MPa" % z: pk["tension"][0], "z%g_ucs_MPa" % z: pk["compression"][0],
                     "z%g_ratio" % z: ratio})
        lines.append("| %g | %.3f | %.2f | %.2f | %.2e / %.2e |" % (
            z, pk["tension"][0], pk["compression"][0], ratio, pk["tension"][1], pk["compression"][1]))
    table = "\n".join(lines)
    print(table)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(table + "\n")
    increasing = all(b > a for a, b in zip(ratios, ratios[1:]))
    print("UCS / tension increases with zeta:", "yes" if increasing else "NO")
    if args.json:
        path = os.path.join(args.out, "compression-zeta%g" % ZETAS[0])
        nums.update({"table": table, "ratio_min": min(ratios), "ratio_max": max(ratios),
                     "ratio_rises": "grows" if increasing else "does not grow", "spheres": spheres(path),
                     "bonds_per_sphere": bonds_per_sphere(path)})
        with open(args.json, "w") as f:
            json.dump(nums, f, indent=1)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, t in zip(axes, ("tension", "compression")):
        for z in ZETAS:
            eps, sig = curves[(z, t)]
            ax.plot([e * 1e3 for e in eps], sig, label="ζ = %g" % z)
        ax.set_title("direct tension" if t == "tension" else "unconfined compression")
        ax.set_xlabel("axial strain [10⁻³]")
        ax.set_ylabel("axial stress [MPa]")
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle("soft-bond specimen, 2300 spheres (examples/softbond-ucs.yaml), σ_c = 5 MPa, γ = 0")
    fig.tight_layout()
    os.makedirs(os.path.dirname(args.png), exist_ok=True)
    fig.savefig(args.png, dpi=110)
    print("plot:", args.png)
    return 0 if increasing or args.json else 1


if __name__ == "__main__":
    sys.exit(main())
