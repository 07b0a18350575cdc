#!/usr/bin/python3
"""Render the final state of an ice run as a PNG: particles coloured by floe.

A floe is a connected set of particles joined by bonded contacts (the
`bonded` column of contacts.csv). The largest floe (the intact sheet) is
grey; the others get distinct colours. Two views: from above and from the
side.

With --level Z the side view draws the water surface z = Z. With --load PNG2
a second picture shows the horizontal load on the structure (the history
column ramp_fx of OUT_DIR/history.csv, and its 1 s running mean) against
time, with the predicted load --croasdale H (N) as a line.

With --json FILE it writes what it measured (the docs quote it through
tools/doc_numbers.py): particles, floes and the largest; with --past X the
particles whose centre is beyond x = X (the ramp's top); the run's steps;
from the load history its mean over the second half, its 1 s running mean
(largest, when, its least after that, at the end) and its most negative
sample; from the ParaView frames (OUT_DIR/particles.pvd) the deepest
particle centre, when, and at the end.

usage: tools/render_floes.py OUT_DIR PNG [--level Z] [--load PNG2 [--croasdale H]] [--past X] [--json FILE]
Needs Debian's python3-matplotlib and python3-numpy (run with /usr/bin/python3).
"""
import argparse
import csv
import json
import re
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


def vtu_points(path):
    """The points of a floe .vtu frame (raw appended data, UInt64 block sizes)."""
    with open(path, "rb") as f:
        data = f.read()
    head = data[:data.index(b"<AppendedData")].decode()
    n = int(re.search(r'NumberOfPoints="(\d+)"', head).group(1))
    off = int(re.search(r'Name="Points"[^>]*offset="(\d+)"', head).group(1))
    start = data.index(b"_", data.index(b"<AppendedData")) + 1
    return np.frombuffer(data, dtype="<f8", count=3 * n, offset=start + off + 8).reshape(n, 3)


def deepest(out_dir):
    """(time, lowest centre z) of every frame of particles.pvd (spheres only)."""
    with open(f"{out_dir}/particles.pvd") as f:
        frames = re.findall(r'timestep="([^"]+)"[^>]*file="([^"]+)"', f.read())
    return [(float(t), float(vtu_points(f"{out_dir}/{name}")[:, 2].min())) for t, name in frames]


def main(out_dir, png, level=None, past=None):
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
    if level is not None:
        side.axhline(level, color="#3182bd", lw=1.2, zorder=0)
        side.axhspan(side.get_ylim()[0], level, color="#c6dbef", alpha=0.5, zorder=-1, lw=0)
        side.set_title(f"side view (blue: water below z = {level:g} m)")
    else:
        side.set_title("side view")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"{png}: {len(ids)} particles, {nfloes} floes")
    out = {"particles": int(len(ids)), "floes": nfloes, "largest": int(sizes.max())}
    if past is not None:
        out["past"] = int((xyz[:, 0] > past).sum())
    return out


def load_plot(out_dir, png, croasdale):
    rows = read_csv(f"{out_dir}/history.csv")
    t = np.array([float(r["time"] if "time" in r else r["t"]) for r in rows])
    fx = np.array([float(r["ramp_fx"]) for r in rows]) / 1e3
    n = max(1, int(round(1.0 / (t[1] - t[0]))))
    mean = np.convolve(fx, np.ones(n) / n, mode="valid")
    fig, ax = plt.subplots(figsize=(9, 3.6))
    ax.plot(t, fx, lw=0.5, color="#9ecae1", label="horizontal load on the ramp")
    ax.plot(t[n - 1:], mean, lw=1.8, color="#08519c", label="its 1 s running mean")
    if croasdale is not None:
        ax.axhline(croasdale / 1e3, color="#d62728", ls="--", lw=1.2,
                   label=f"Croasdale (ISO 19906) H_B + H_R = {croasdale / 1e3:.1f} kN")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("load (kN)")
    ax.set_ylim(bottom=min(0, fx.min()), top=max(fx.max() * 0.6, (croasdale or 0) / 1e3 * 1.6))
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    half = fx[t >= t[-1] / 2].mean()
    print(f"{png}: load history, {len(t)} samples, mean over the second half {half:.3f} kN")
    tm = t[n - 1:]
    k = int(np.argmax(mean))
    j = k + int(np.argmin(mean[k:]))
    i = int(np.argmin(fx))
    out = {"load_samples": len(t), "mean_half_kN": float(half), "running_max_kN": float(mean[k]),
           "running_max_s": float(tm[k]), "running_min_after_kN": float(mean[j]), "running_min_after_s": float(tm[j]),
           "running_end_kN": float(mean[-1]), "most_negative_kN": float(fx[i]), "most_negative_s": float(t[i])}
    if croasdale is not None:
        out["mean_half_ratio"] = float(half * 1e3 / croasdale)
        out["running_max_ratio"] = float(mean[k] * 1e3 / croasdale)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("out_dir")
    ap.add_argument("png")
    ap.add_argument("--level", type=float, help="water level z (m) to draw in the side view")
    ap.add_argument("--load", help="also draw the load history (history column ramp_fx) into this PNG")
    ap.add_argument("--croasdale", type=float, help="predicted horizontal load (N) drawn as a line")
    ap.add_argument("--past", type=float, help="count the particles whose centre is beyond this x (m)")
    ap.add_argument("--json", help="write what was measured into this file")
    a = ap.parse_args()
    out = main(a.out_dir, a.png, a.level, a.past)
    if a.load:
        out.update(load_plot(a.out_dir, a.load, a.croasdale))
    if a.json:
        with open(f"{a.out_dir}/energy.csv") as f:
            out["steps"] = int(list(csv.DictReader(f))[-1]["step"])
        frames = deepest(a.out_dir)
        k = min(range(len(frames)), key=lambda i: frames[i][1])
        r = float(min(float(p["radius"]) for p in read_csv(f"{a.out_dir}/particles.csv") if p["shape"] == "sphere"))
        out.update({"frames": len(frames), "deepest_z": frames[k][1], "deepest_s": frames[k][0],
                    "deepest_end_z": frames[-1][1], "deepest_below_sheet": (frames[0][1] - r) - frames[k][1]})
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
