#!/usr/bin/python3
"""Render the final state of an ice run as a PNG: particles coloured by floe.

A floe is a connected set of particles joined by bonded contacts (the
`bonded` column of contacts.csv). The largest floe (the intact sheet) is
grey; the others get distinct colours. Two views: from above and from the
side.

usage: tools/render_floes.py OUT_DIR PNG
Needs Debian's python3-matplotlib and python3-numpy (run with /usr/bin/python3).
"""
import csv
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
except ImportError as e:
    sys.exit(f"render_floes.py: {e}: install Debian's python3-matplotlib and python3-numpy "
             "(tools/ensure-deps.sh python3-matplotlib python3-numpy) and run with /usr/bin/python3")


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def find(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def main(out_dir, png):
    parts = read_csv(f"{out_dir}/particles.csv")
    spheres = [p for p in parts if p["shape"] == "sphere"]
    ids = np.array([int(p["id"]) for p in spheres])
    xyz = np.array([[float(p[k]) for k in ("x", "y", "z")] for p in spheres])
    radius = np.array([float(p["radius"]) for p in spheres])
    index = {pid: i for i, pid in enumerate(ids)}

    parent = list(range(len(ids)))
    for c in read_csv(f"{out_dir}/contacts.csv"):
        if c.get("bonded") not in ("1",):
            continue
        a, b = index.get(int(c["a"])), index.get(int(c["b"]))
        if a is None or b is None:
            continue
        ra, rb = find(parent, a), find(parent, b)
        if ra != rb:
            parent[ra] = rb
    roots = np.array([find(parent, i) for i in range(len(ids))])
    labels, sizes = np.unique(roots, return_counts=True)
    order = np.argsort(-sizes)
    rank = {labels[k]: n for n, k in enumerate(order)}
    floe = np.array([rank[r] for r in roots])
    nfloes = int((sizes >= 2).sum())

    rng = np.random.default_rng(1)
    palette = rng.uniform(0.15, 0.95, size=(len(labels), 3))
    palette[0] = (0.72, 0.75, 0.78)  # the intact sheet
    colours = palette[floe]

    fig, (top, side) = plt.subplots(2, 1, figsize=(11, 7.5), gridspec_kw={"height_ratios": [2.2, 1]})
    s = (radius / radius.max()) ** 2 * 9
    top.scatter(xyz[:, 0], xyz[:, 1], c=colours, s=s, linewidths=0)
    top.set_aspect("equal")
    top.set_xlabel("x [m]")
    top.set_ylabel("y [m]")
    top.set_title(f"{len(ids)} particles, {nfloes} floes of 2+ particles "
                  f"(largest {sizes.max()}), view from above")
    behind = np.argsort(-xyz[:, 1])
    side.scatter(xyz[behind, 0], xyz[behind, 2], c=colours[behind], s=s[behind], linewidths=0)
    side.set_aspect("equal")
    side.set_xlabel("x [m]")
    side.set_ylabel("z [m]")
    side.set_title("side view")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"{png}: {len(ids)} particles, {nfloes} floes")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
