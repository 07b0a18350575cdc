#!/usr/bin/env python3
"""Write the benchmark scenes for floe and for the peer codes.

usage: gen_scenes.py OUTDIR SIZE [SIZE...]      SIZE: 10k | 50k | 100k
       gen_scenes.py --params SIZE              print the scene constants (shell)

For every SIZE it writes into OUTDIR
  settle_SIZE.yaml   floe scene: jittered lattice (floe's lattice generator)
  settle_SIZE.data   the same lattice as a LAMMPS data file for the peers
  dense_SIZE.yaml    floe scene: the shared pre-settled packing, its spheres read from
  dense_SIZE.csv     the packing as a table x,y,z,radius (17 significant digits or fewer:
                     the shortest text of each double, bitwise the same positions)
  dense_SIZE.data    the shared packing (decompressed), for the peers
The shared packings (peer benchmark material, outside this repository) are read
from $DENSE_DIR (default: see dense_dir below) as dense_SIZE.data.xz; dense is skipped with a
warning when the file is missing.

Scene (docs/performance.md and the peer benchmark's description): spheres d = 1 cm,
rho = 2500, simple cubic lattice of spacing 1.1 d, lateral jitter 0.04 d
(splitmix64, seed 0), 5 walls (floor, 4 sides), gravity -9.81 z,
kn = 1e5 N/m, kt = kn/2, mu = 0.5, viscous normal dashpot with restitution
0.5 for particle pairs (F = m_eff gamma_n v_n; m_eff = m/2 for pairs, m for
walls), dt = 0.2 sqrt(m/kn), skin 1 mm. The spheres keep their orientation
(world.sphere_orientation: false): LAMMPS's and LIGGGHTS's sphere styles have
none to turn.

Mapping to floe's Linear model: the normal dashpot is 2 dp_nratio sqrt(m_c kn) v_n
with m_c = m/2 for a pair and m for a wall. The peers' law has the same
gamma_n for both, i.e. a damping *ratio* that is sqrt(2) larger against a
wall, so walls get their own material and a pair override
dp_nratio_wall = sqrt(2) dp_nratio (restitution 0.366 against walls).
Only the standard library is used (no numpy).
"""
import lzma
import math
import os
import sys

R = 0.005
D = 2 * R
RHO = 2500.0
SPACING = 1.1 * D
JITTER = 0.04 * D
KN = 1.0e5
KT = 0.5 * KN
MU = 0.5
RESTITUTION = 0.5
SKIN = 0.1 * D
GRAVITY = 9.81
SIZES = {"10k": (20, 20, 25), "50k": (50, 40, 25), "100k": (80, 50, 25)}
MASK64 = (1 << 64) - 1


def constants(size):
    nx, ny, nz = SIZES[size]
    m = RHO * 4.0 / 3.0 * math.pi * R ** 3
    ln_e = math.log(RESTITUTION)
    zeta = -ln_e / math.sqrt(math.pi ** 2 + ln_e ** 2)  # damping ratio of a pair
    gamman = 2.0 * zeta * math.sqrt(KN / (m / 2))        # LAMMPS/LIGGGHTS gamma_n [1/s]
    dt = 0.2 * math.sqrt(m / KN)
    return {
        "N": nx * ny * nz, "NX": nx, "NY": ny, "NZ": nz,
        "LX": float("%.9g" % (nx * SPACING)), "LY": float("%.9g" % (ny * SPACING)),
        "ZHI": float("%.9g" % ((nz + 3) * SPACING)),
        "MASS": m, "RADIUS": R, "RHO": RHO,
        "DT": float("%.9g" % dt), "KN": KN, "KT": KT, "MU": MU, "SKIN": SKIN,
        "ZETA": zeta, "ZETA_WALL": zeta * math.sqrt(2.0),
        "GAMMAN": gamman, "CN_PP": (m / 2) * gamman, "CN_PW": m * gamman,
    }


def splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def u01(c):
    return (splitmix64(c) >> 11) * 2.0 ** -53


def lattice(size):
    nx, ny, nz = SIZES[size]
    # the same operations, in the same order, as floe's lattice generator with
    # origin (s/2, s/2, s/2): bitwise the same doubles
    h = SPACING / 2
    out = []
    p = 0
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                x = (h + i * SPACING) + JITTER * (2 * u01(2 * p) - 1)
                y = (h + j * SPACING) + JITTER * (2 * u01(2 * p + 1) - 1)
                out.append((x, y, h + k * SPACING))
                p += 1
    return out


def write_lammps_data(path, title, pos, c):
    with open(path, "w") as f:
        f.write("%s\n\n%d atoms\n1 atom types\n\n" % (title, len(pos)))
        f.write("0 %.9g xlo xhi\n0 %.9g ylo yhi\n-0.002 %.9g zlo zhi\n\nAtoms\n\n" % (c["LX"], c["LY"], c["ZHI"]))
        for n, (x, y, z) in enumerate(pos):
            # repr: the shortest text that reads back as the same double, so every
            # code starts from bitwise the same positions as floe's lattice generator
            f.write("%d 1 %r %r %r %r %r\n" % (n + 1, D, RHO, x, y, z))


def read_lammps_data(path):
    """Atoms section 'id type diameter density x y z' -> [(x, y, z)] by id."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        lines = f.read().split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.strip().split("#")[0].strip() == "Atoms") + 1
    atoms = []
    for ln in lines[start:]:
        t = ln.split()
        if len(t) >= 7:
            if abs(float(t[2]) - D) > 1e-12 or abs(float(t[3]) - RHO) > 1e-9:
                raise SystemExit("%s: unexpected diameter/density on line '%s'" % (path, ln))
            atoms.append((int(t[0]), float(t[4]), float(t[5]), float(t[6])))
        elif t and atoms:
            break  # next section
    atoms.sort()
    return [a[1:] for a in atoms]


def floe_header(c, title):
    return """# {title}
# Generated by bench/gen_scenes.py; see docs/performance.md.
world:
  gravity: [0, 0, {g}]
  dt: {dt!r}
  skin: {skin!r}
  # the peers' sphere styles keep no orientation: the same work
  sphere_orientation: false
run: {{steps: 2200}}
materials:
  - {{name: bead, model: linear, density: {rho!r}, tan_phi: {mu!r}}}
  - {{name: wall, model: linear, density: {rho!r}, tan_phi: {mu!r}}}
models:
  # kn, kt given directly; normal dashpot of restitution 0.5 for particle pairs
  linear: {{kn: {kn!r}, kt: {kt!r}, dp_nratio: {zeta!r}, dp_sratio: 0, dp_mode: 0}}
interactions:
  # the peers' m_eff*gamma_n law has a sqrt(2) larger damping ratio against walls
  - {{materials: [bead, wall], model: linear, kn: {kn!r}, kt: {kt!r}, dp_nratio: {zwall!r}, dp_sratio: 0, dp_mode: 0}}
walls:
  - {{axis: z, pos: 0, sense: 1, material: wall}}
  - {{axis: x, pos: 0, sense: 1, material: wall}}
  - {{axis: x, pos: {lx!r}, sense: -1, material: wall}}
  - {{axis: y, pos: 0, sense: 1, material: wall}}
  - {{axis: y, pos: {ly!r}, sense: -1, material: wall}}
output:
  vtk: false
  energy: {{every: 200}}
  progress: false
  events: none
  final_state: true
""".format(title=title, g=-GRAVITY, dt=c["DT"], skin=SKIN, rho=RHO, mu=MU, kn=KN, kt=KT,
           zeta=c["ZETA"], zwall=c["ZETA_WALL"], lx=c["LX"], ly=c["LY"])


def write_settle(outdir, size, c):
    nx, ny, nz = SIZES[size]
    h = SPACING / 2
    with open(os.path.join(outdir, "settle_%s.yaml" % size), "w") as f:
        f.write(floe_header(c, "settle bench, N = %d (%dx%dx%d lattice)" % (c["N"], nx, ny, nz)))
        f.write("generators:\n  - lattice: {origin: [%r, %r, %r], spacing: %r, counts: [%d, %d, %d],\n"
                "              radius: %r, jitter: [%r, %r, 0], seed: 0, material: bead}\n"
                % (h, h, h, SPACING, nx, ny, nz, R, JITTER, JITTER))
    write_lammps_data(os.path.join(outdir, "settle_%s.data" % size),
                      "settle bench nx=%d ny=%d nz=%d (floe bench/gen_scenes.py)" % (nx, ny, nz), lattice(size), c)


def write_dense(outdir, size, c, src):
    pos = read_lammps_data(src)
    if len(pos) != c["N"]:
        raise SystemExit("%s: %d atoms, expected %d" % (src, len(pos), c["N"]))
    # the spheres go to a CSV table next to the scene (docs/scene-format.md, "Spheres
    # from a file"): a YAML list of 100k entries costs the loader far more memory
    table = "dense_%s.csv" % size
    with open(os.path.join(outdir, table), "w") as f:
        f.write("# dense bench, N = %d: the shared pre-settled packing %s\n"
                "# Generated by bench/gen_scenes.py; read by dense_%s.yaml.\n" % (c["N"], os.path.basename(src), size))
        f.write("x,y,z,radius\n")
        for x, y, z in pos:
            # repr: the shortest text that reads back as the same double
            f.write("%r,%r,%r,%r\n" % (x, y, z, R))
    with open(os.path.join(outdir, "dense_%s.yaml" % size), "w") as f:
        f.write(floe_header(c, "dense bench, N = %d: the shared pre-settled packing %s" % (c["N"], os.path.basename(src))))
        f.write("particles:\n  - {file: %s, material: bead}\n" % table)
    write_lammps_data(os.path.join(outdir, "dense_%s.data" % size),
                      "dense bench N=%d from %s (floe bench/gen_scenes.py)" % (c["N"], os.path.basename(src)), pos, c)


def main(argv):
    if len(argv) == 3 and argv[1] == "--params":
        for k, v in constants(argv[2]).items():
            print("%s=%r" % (k, v) if isinstance(v, float) else "%s=%d" % (k, v))
        return 0
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    dense_dir = os.environ.get("DENSE_DIR", os.path.join(here, "..", "..", "shared", "bench", "peers", "common"))
    for size in argv[2:]:
        if size not in SIZES:
            print("unknown size %s (one of %s)" % (size, ", ".join(SIZES)), file=sys.stderr)
            return 2
        c = constants(size)
        write_settle(outdir, size, c)
        src = os.path.join(dense_dir, "dense_%s.data.xz" % size)
        if os.path.exists(src):
            write_dense(outdir, size, c, src)
        else:
            print("gen_scenes: %s not found: no dense_%s scene" % (src, size), file=sys.stderr)
        print("gen_scenes: wrote %s scenes into %s" % (size, outdir), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
