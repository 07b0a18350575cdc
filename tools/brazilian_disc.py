#!/usr/bin/python3
"""A random packing of spheres in a disc, for the Brazilian test (examples/brazilian.yaml).

Random sequential placement: spheres of radii uniform in [0.6, 1.0] mm (the
specimen of examples/softbond-ucs.yaml) whose centres lie in a disc of
diameter D = 30 mm (in the xz plane, centre (0, 0, D/2)) and thickness
t = 10 mm (along y), each wholly inside it and overlapping none placed
before, until the solid fraction reaches 0.33 (the fill of the box
specimen) or the tries run out. Deterministic for a seed.

usage: python3 tools/brazilian_disc.py [--seed 7] [--out examples/brazilian-disc.csv]
"""
import argparse
import math
import random

D, T = 0.03, 0.01
R_MIN, R_MAX = 0.6e-3, 1.0e-3
FILL = 0.33


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default="examples/brazilian-disc.csv")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    vol = math.pi * (D / 2) ** 2 * T
    cell = 2 * R_MAX
    grid = {}
    placed, solid, tries = [], 0.0, 0
    while solid < FILL * vol and tries < 2000000:
        tries += 1
        r = rng.uniform(R_MIN, R_MAX)
        rho = (D / 2 - r) * math.sqrt(rng.random())
        th = rng.uniform(0, 2 * math.pi)
        x, z = rho * math.cos(th), D / 2 + rho * math.sin(th)
        y = rng.uniform(-T / 2 + r, T / 2 - r)
        key = (int(math.floor(x / cell)), int(math.floor(y / cell)), int(math.floor(z / cell)))
        ok = True
        for i in range(-1, 2):
            for j in range(-1, 2):
                for k in range(-1, 2):
                    for (a, b, c, s) in grid.get((key[0] + i, key[1] + j, key[2] + k), ()):
                        if (a - x) ** 2 + (b - y) ** 2 + (c - z) ** 2 < (s + r) ** 2:
                            ok = False
                            break
                    if not ok:
                        break
                if not ok:
                    break
            if not ok:
                break
        if not ok:
            continue
        grid.setdefault(key, []).append((x, y, z, r))
        placed.append((x, y, z, r))
        solid += 4 / 3 * math.pi * r ** 3
    with open(args.out, "w") as f:
        f.write("# %d spheres in a disc D = 30 mm, t = 10 mm (tools/brazilian_disc.py --seed %d): "
                "solid fraction %.3f\n" % (len(placed), args.seed, solid / vol))
        f.write("x,y,z,radius\n")
        for (x, y, z, r) in placed:
            f.write("%.9g,%.9g,%.9g,%.9g\n" % (x, y, z, r))
    print("%d spheres, solid fraction %.3f, %d tries" % (len(placed), solid / vol, tries))


if __name__ == "__main__":
    main()
