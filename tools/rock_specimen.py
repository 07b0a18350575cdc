#!/usr/bin/python3
"""Dense and loose soft-bond specimens in unconfined compression.

Runs examples/rock-specimen.yaml (spheres grown by radius expansion to a
solid fraction of 0.60, bonds across gaps up to 0.1 mm) and
examples/softbond-ucs.yaml (random placement, solid fraction 0.33, bonds
across gaps up to 0.6 mm), both as they stand (zeta = 2, top platen pushed
down at 0.3 and 0.1 m/s), side by side, then prints their UCS, the strain at the
peak, the secant modulus up to half the peak and the bonds per sphere, and
draws the two stress-strain curves.

usage: /usr/bin/python3 tools/rock_specimen.py [--floe build/floe] [--out out/rock-specimen]
                                               [--png docs/img/rock-specimen.png] [--json FILE]
--json writes the numbers docs/models/softbond.md quotes (for tools/doc_numbers.py).
Needs Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import csv
import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

AREA = 0.02 * 0.02     # specimen cross-section [m^2], both scenes
HEIGHT = 0.04          # distance between the platens [m], both scenes
# name, scene, platen speed [m/s] (from the scenes)
CASES = (("dense", "rock-specimen.yaml", 0.3), ("loose", "softbond-ucs.yaml", 0.1))


def run(floe, scene, outdir):
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "log.txt"), "w") as log:
        subprocess.run([floe, "run", scene, "--out", outdir, "--threads", "1"],
                       stdout=log, stderr=subprocess.STDOUT, check=True)


def curve(outdir, speed):
    eps, sig, bonds = [], [], []
    with open(os.path.join(outdir, "history.csv"), newline="") as f:
        for row in csv.DictReader(f):
            t = float(row["time"])
            force = 0.5 * (float(row["bottom_fz"]) - float(row["top_fz"]))   # compression positive
            eps.append(speed * t / HEIGHT)
            sig.append(-force / AREA * 1e-6)
            bonds.append(int(row["bonded"]))
    return eps, sig, bonds


def spheres(outdir):
    with open(os.path.join(outdir, "particles.csv"), newline="") as f:
        return sum(1 for r in csv.DictReader(f) if r["shape"] == "sphere")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--floe", default=os.path.join(root, "build", "floe"))
    ap.add_argument("--out", default=os.path.join(root, "out", "rock-specimen"))
    ap.add_argument("--png", default=os.path.join(root, "docs", "img", "rock-specimen.png"))
    ap.add_argument("--plot-only", action="store_true", help="reuse the runs in --out")
    ap.add_argument("--json", help="also write the numbers docs/models/softbond.md quotes into this file")
    args = ap.parse_args()
    if not args.plot_only:
        with ThreadPoolExecutor(max_workers=2) as pool:
            futures = [pool.submit(run, args.floe, os.path.join(root, "examples", scene), os.path.join(args.out, name))
                       for name, scene, _ in CASES]
            for fu in futures:
                fu.result()
    lines = ["| specimen | spheres | bonds per sphere | UCS [MPa] | strain at peak | secant modulus to UCS/2 [MPa] |",
             "|---|---|---|---|---|---|"]
    curves, nums = {}, {}
    for name, scene, speed in CASES:
        d = os.path.join(args.out, name)
        eps, sig, bonds = curve(d, speed)
        sig0 = sig[0]
        sig = [s - sig0 for s in sig]       # the platens' load at step 0 (residual overlaps) taken off
        curves[name] = (eps, sig)
        n = spheres(d)
        i = max(range(len(sig)), key=sig.__getitem__)
        j = next(k for k in range(len(sig)) if sig[k] >= 0.5 * sig[i])
        b = next((x for x in bonds if x > 0), 0)
        lines.append("| %s (`%s`) | %d | %.2f | %.2f | %.2e | %.0f |" % (
            name, scene, n, 2.0 * b / n, sig[i], eps[i], sig[j] / eps[j] if eps[j] > 0 else float("nan")))
        print("%s: platen stress at step 0 %.3f MPa (taken off)" % (name, sig0))
        nums.update({name + "_spheres": n, name + "_bonds_per_sphere": 2.0 * b / n, name + "_ucs_MPa": sig[i],
                     name + "_strain": eps[i], name + "_secant_MPa": sig[j] / eps[j], name + "_step0_MPa": sig0})
    table = "\n".join(lines)
    print(table)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(table + "\n")
    if args.json:
        nums.update({"table": table, "ucs_ratio": nums["dense_ucs_MPa"] / nums["loose_ucs_MPa"],
                     "secant_ratio": nums["dense_secant_MPa"] / nums["loose_secant_MPa"]})
        with open(args.json, "w") as f:
            json.dump(nums, f, indent=1)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, scene, _ in CASES:
        eps, sig = curves[name]
        ax.plot([e * 1e3 for e in eps], sig, label="%s (%s)" % (name, scene))
    ax.set_xlabel("axial strain [10⁻³]")
    ax.set_ylabel("axial stress [MPa]")
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title("soft-bond specimens in unconfined compression, σ_c = 5 MPa, ζ = 2", fontsize=10)
    fig.tight_layout()
    os.makedirs(os.path.dirname(args.png), exist_ok=True)
    fig.savefig(args.png, dpi=110)
    print("plot:", args.png)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
