#!/usr/bin/env python3
"""Physics check from the output files of `floe run` (bench/run.sh).

usage: floe_outputs.py DIR

Reads DIR/energy.csv (last row: step, `kinetic`), DIR/particles.csv (final
positions; walls are rows of shape `wall`) and DIR/contacts.csv (final
contacts) and prints one line in the format of the other codes:

  RESULT steps=S atoms=N ke=... zcm=... pp_contacts=... wall_contacts=...

ke is floe's `kinetic` column (translational, full-step velocities); zcm the
mean z of the spheres; pp_contacts / wall_contacts the contacts of
contacts.csv with overlap (uN < 0) between two spheres / a sphere and a wall.
"""
import csv
import os
import sys


def main(d):
    with open(os.path.join(d, "energy.csv")) as f:
        rows = list(csv.DictReader(f))
    last = rows[-1]
    shape = []
    zsum = 0.0
    with open(os.path.join(d, "particles.csv")) as f:
        for r in csv.DictReader(f):
            shape.append(r["shape"])
            if r["shape"] == "sphere":
                zsum += float(r["z"])
    nsph = shape.count("sphere")
    pp = wc = 0
    with open(os.path.join(d, "contacts.csv")) as f:
        for r in csv.DictReader(f):
            if float(r["uN"]) >= 0:
                continue
            kinds = {shape[int(r["a"])], shape[int(r["b"])]}
            if kinds == {"sphere"}:
                pp += 1
            elif kinds == {"sphere", "wall"}:
                wc += 1
    print("RESULT steps=%d atoms=%d ke=%.6e zcm=%.6f pp_contacts=%d wall_contacts=%d"
          % (int(last["step"]), nsph, float(last["kinetic"]), zsum / max(nsph, 1), pp, wc))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
