#!/usr/bin/python3
"""Sections through two dense packings made by radius expansion.

Writes two scenes with a `dense` generator (equal spheres in a box at a
solid fraction of 0.62; log-normal radii in a cylinder at 0.60), loads each
with `floe run` for one step (the final state table is the packing, moved
by one step), and draws the spheres cut by a vertical mid-plane, each as
the circle of its section, into docs/img/dense-packing.png. Prints the
solid fraction (sum of sphere volumes over the region's volume) of each.

usage: /usr/bin/python3 tools/packing_picture.py [--floe build/floe] [--out out/packing]
                                        [--png docs/img/dense-packing.png]
Needs Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import csv
import math
import os
import subprocess

SCENES = {
    "box": ("equal spheres in a box of 15 diameters, solid fraction 0.62",
            "  - dense: {box: [[0, 0, 0], [0.03, 0.03, 0.03]], radius: 0.001, solid_fraction: 0.62,\n"
            "            max_overlap: 0.05, seed: 1, material: a}\n",
            0.03 ** 3),
    "cylinder": ("log-normal radii (σ = 0.3) in a cylinder, solid fraction 0.60",
                 "  - dense: {cylinder: {base: [0.015, 0.015, 0], radius: 0.015, height: 0.03},\n"
                 "            radius: {dist: lognormal, median: 0.001, sigma: 0.3, min: 0.0005, max: 0.002},\n"
                 "            solid_fraction: 0.6, max_overlap: 0.02, seed: 2, material: a}\n",
                 math.pi * 0.015 ** 2 * 0.03),
}


def spheres(floe, name, gen, out):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    scene = os.path.join(d, "scene.yaml")
    with open(scene, "w") as f:
        f.write("run: {steps: 1}\nmaterials: [{name: a, density: 2500, young: 1e8}]\n"
                "output: {vtk: false, energy: false}\ngenerators:\n" + gen)
    subprocess.run([floe, "run", scene, "--out", d], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(d, "particles.csv"), newline="") as f:
        return [(float(r["x"]), float(r["y"]), float(r["z"]), float(r["radius"]))
                for r in csv.DictReader(f) if r["shape"] == "sphere"]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--floe", default=os.path.join(root, "build", "floe"))
    ap.add_argument("--out", default=os.path.join(root, "out", "packing"))
    ap.add_argument("--png", default=os.path.join(root, "docs", "img", "dense-packing.png"))
    args = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle
    fig, axes = plt.subplots(1, 2, figsize=(9, 4.8))
    for ax, (name, (title, gen, vol)) in zip(axes, SCENES.items()):
        s = spheres(args.floe, name, gen, args.out)
        phi = sum(4 / 3 * math.pi * r ** 3 for *_, r in s) / vol
        print("%s: %d spheres, solid fraction %.4f" % (name, len(s), phi))
        y0 = 0.015
        for x, y, z, r in s:
            h = abs(y - y0)
            if h < r:
                ax.add_patch(Circle((x * 1e3, z * 1e3), math.sqrt(r * r - h * h) * 1e3, fc="#8aa9c9", ec="#2d4a66",
                                    lw=0.4))
        ax.plot([0, 30, 30, 0, 0], [0, 0, 30, 30, 0], color="k", lw=0.8)
        ax.set_xlim(-1, 31)
        ax.set_ylim(-1, 31)
        ax.set_aspect("equal")
        ax.set_xlabel("x [mm]")
        ax.set_ylabel("z [mm]")
        ax.set_title("%s\n%d spheres; section y = 15 mm" % (title, len(s)), fontsize=9)
    fig.suptitle("dense packings by radius expansion (generators: dense)")
    fig.tight_layout()
    os.makedirs(os.path.dirname(args.png), exist_ok=True)
    fig.savefig(args.png, dpi=110)
    print("plot:", args.png)


if __name__ == "__main__":
    main()
