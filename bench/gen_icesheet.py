#!/usr/bin/env python3
"""Write the floe scene of the bonded "icesheet" benchmark.

usage: gen_icesheet.py [options] > scene.yaml
       gen_icesheet.py --nx 100 --ny 100 --nz 2 -o icesheet_20k.yaml

The scene repeats the Yade peer scene icesheet.py (peer benchmark material,
outside this repository) with floe's Ice model, parameters mapped as the peer
description says (see bench/bonded/README.md for every parameter):

  sheet   nx*ny*nz spheres r = 0.01 m, rho = 917, simple cubic lattice of spacing
          2r, site (i, j, k) -> id i + nx*(j + ny*k) at
          x = (2i - (nx-1)) r, y = (2j - (ny-1)) r, z = 2k r   (computed with the
          same double-precision expression as icesheet.py, written with repr(),
          so floe reads the same bits as Yade builds)
          columns i = 0 and i = nx-1 (all j, k) fixed (all 6 DOF)
  bonds   every pair within 1.02 (ri + rj) at step 0 (bond_tol = 0.04 x r),
          bonds0 = 63 (bondN|bondT|bondW|bondR|brkN|brkT), bonds1 = 0, step01 = 1
  ball    id N, R = 0.2 m, rho = 7800, centre (0, 0, z_top + gap + R), v = (0, 0, -2)
  world   gravity -9.81 z, damping 0, dt = 4.788005848e-6 s (fixed), skin 0.001 m

Options:
  --nx --ny --nz      lattice size (default 100 100 2)
  --steps N           run.steps for `floe run` (default 2200 = 200 warm-up + 2000 timed;
                      floe_bench ignores it)
  --bonds0 M          Ice bonds0 mask (default 63; 255 = also breakable in twist and
                      rolling, with beta_w = beta_r = 2 the outcome should not change)
  --ncoh PA           normal cohesion of the Yade scene (default 1e6): break_n = ncoh/(2 E_Y)
  --scoh PA           shear cohesion (default 1e6): beta_t = scoh/ncoh
  --gap M             initial gap ball - sheet top (default 0.001)
  --ball-linear       ball-sheet contacts use floe's Linear model (Fn = kn overlap,
                      Coulomb shear, no moments: closer to Yade's ball contact than
                      Ice's, which keeps a limited twist torque) instead of Ice
  --history N         write history.csv every N steps (0 = off; default 1) with the
                      bond counters and the ball's z and v_z, for the physics check
  --vtk               keep floe's default VTK output (off by default)
  -o FILE             write to FILE instead of stdout
Only the standard library is used.
"""
import math
import sys

# ---- the Yade scene (icesheet.py) ----
R_S = 0.01            # sheet sphere radius [m]
RHO_S = 917.0         # [kg/m^3]
E_Y = 1e9             # Yade young (both materials)
NU_Y = 0.3            # Yade poisson = ks/kn
TANPHI = 0.5          # tan(frictionAngle)
ALPHA_KR = 2.0        # Yade alphaKr
ALPHA_KTW = 2.0       # Yade alphaKtw
R_B = 0.2             # ball radius [m]
RHO_B = 7800.0
V_B = 2.0             # ball speed, downwards [m/s]
G = 9.81
DT = 4.788005848e-6   # 0.5 * Yade PWaveTimeStep() = 0.5 r sqrt(rho/E), fixed
VERLET = 0.001        # Yade InsertionSortCollider.verletDist [m]
DETECT = 1.02         # Yade interactionDetectionFactor at step 0

# ---- mapping to floe's Ice model (bench/bonded/README.md, section 2) ----
# Ice, lens = radii, A = pi min(r)^2:  kn = E pi r / 2 for two equal spheres
E_ICE = 2.0 * E_Y / math.pi                     # kn = E_Y r = 1e7 N/m
KT_DIV_KN = NU_Y                                # kt = 3e6 N/m
ALPHA_W = ALPHA_KTW / math.pi                   # k_w = alpha_w kt pi r^2 = alphaKtw ks r^2 = 600
ALPHA_R = ALPHA_KR * NU_Y / math.pi             # k_r = alpha_r kn pi r^2 = alphaKr ks r^2 = 600
# ball: series springs with A = pi r^2, lens (R, r) give Yade's 2 E r R / (r + R)
E_BALL = 2.0 * E_Y * R_B ** 2 / (math.pi * R_S ** 2)
BOND_TOL = float("%.12g" % (2.0 * (DETECT - 1.0)))  # gap <= (1.02 - 1) * 2r = 0.04 r


def fmt(x):
    return repr(float(x))


def main(argv):
    o = dict(nx=100, ny=100, nz=2, steps=2200, bonds0=63, ncoh=1e6, scoh=1e6, gap=0.001,
             ball_linear=False, history=1, vtk=False, out=None)
    a = list(argv)
    while a:
        k = a.pop(0)
        if k in ("-h", "--help"):
            print(__doc__)
            return 0
        if k == "--ball-linear":
            o["ball_linear"] = True
            continue
        if k == "--vtk":
            o["vtk"] = True
            continue
        if not a:
            sys.exit("gen_icesheet.py: %s needs a value" % k)
        v = a.pop(0)
        if k in ("--nx", "--ny", "--nz", "--steps", "--bonds0", "--history"):
            o[k[2:]] = int(v, 0)
        elif k in ("--ncoh", "--scoh", "--gap"):
            o[k[2:]] = float(v)
        elif k == "-o":
            o["out"] = v
        else:
            sys.exit("gen_icesheet.py: unknown option %s (see --help)" % k)
    nx, ny, nz = o["nx"], o["ny"], o["nz"]
    if min(nx, ny, nz) < 1 or nx < 2:
        sys.exit("gen_icesheet.py: need nx >= 2, ny, nz >= 1")
    n = nx * ny * nz
    r = R_S
    break_n = o["ncoh"] / (2.0 * E_Y)           # F_nb = break_n 2r kn = ncoh r^2
    beta_t = o["scoh"] / o["ncoh"]              # F_tb = scoh r^2
    ztop = 2 * (nz - 1) * r + r
    zball = ztop + o["gap"] + R_B

    L = []
    w = L.append
    w("# floe version of the Yade 'icesheet' bonded benchmark (README-bonded.md sec. 3 and 5).")
    w("# generated by: bench/gen_icesheet.py %s" % " ".join(argv))
    w("# sheet %d x %d x %d = %d spheres (ids 0..%d), ball id %d; %d bonds expected at step 0"
      % (nx, ny, nz, n, n - 1, n,
         (nx - 1) * ny * nz + nx * (ny - 1) * nz + nx * ny * (nz - 1)))
    w("world:")
    w("  gravity: [0, 0, %s]" % fmt(-G))
    w("  dt: %s            # = 0.5 Yade PWaveTimeStep(), fixed" % fmt(DT))
    w("  damping: 0")
    w("  skin: %s             # = Yade verletDist" % fmt(VERLET))
    w("run: {steps: %d}" % o["steps"])
    w("materials:")
    w("  - name: sheet")
    w("    model: ice")
    w("    density: %s" % fmt(RHO_S))
    w("    young: %s       # 2 E_Y / pi: kn = E_Y r = 1e7 N/m" % fmt(E_ICE))
    w("    kt_div_kn: %s" % fmt(KT_DIV_KN))
    w("    tan_phi: %s" % fmt(TANPHI))
    w("    break_n: %s      # ncoh / (2 E_Y): F_nb = ncoh r^2" % fmt(break_n))
    w("    alpha_w: %s     # alphaKtw / pi: k_w = 600 N m/rad" % fmt(ALPHA_W))
    w("    alpha_r: %s     # alphaKr nu / pi: k_r = 600 N m/rad" % fmt(ALPHA_R))
    w("    beta_t: %s       # scoh / ncoh: F_tb = scoh r^2" % fmt(beta_t))
    w("    beta_w: 2.0")
    w("    beta_r: 2.0")
    w("    mu: 0.0")
    w("  - name: ball")
    w("    model: %s" % ("linear" if o["ball_linear"] else "ice"))
    w("    density: %s" % fmt(RHO_B))
    w("    young: %s     # 2 E_Y R^2 / (pi r^2): kn = 2 E_Y r R / (r + R)" % fmt(E_BALL))
    w("    kt_div_kn: %s" % fmt(KT_DIV_KN))
    w("    tan_phi: %s" % fmt(TANPHI))
    if not o["ball_linear"]:
        w("    break_n: %s" % fmt(break_n))
        w("    alpha_w: 0.0")
        w("    alpha_r: 0.0")
        w("    beta_t: %s" % fmt(beta_t))
        w("    beta_w: 2.0")
        w("    beta_r: 2.0")
        w("    mu: 0.0")
    w("models:")
    w("  ice: {bonds0: %d, bonds1: 0, step01: 1, ini_eqlb: false, bond_tol: %s}"
      % (o["bonds0"], fmt(BOND_TOL)))
    if o["ball_linear"]:
        w("  linear: {no_slip: false, no_break: false, ini_eqlb: false}")
    w("particles:")
    # same loop order and arithmetic as icesheet.py
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                x = (2 * i - (nx - 1)) * r
                y = (2 * j - (ny - 1)) * r
                z = 2 * k * r
                fx = ", fixed: true" if (i == 0 or i == nx - 1) else ""
                w("  - {radius: %s, pos: [%s, %s, %s], material: sheet%s}" % (fmt(r), fmt(x), fmt(y), fmt(z), fx))
    w("  - {radius: %s, pos: [0.0, 0.0, %s], vel: [0, 0, %s], material: ball}   # id %d"
      % (fmt(R_B), fmt(zball), fmt(-V_B), n))
    w("output:")
    if o["vtk"]:
        w("  vtk: true")
    else:
        w("  vtk: false")
    w("  progress: false")
    w("  energy: false")
    w("  events: none")
    w("  final_state: true")
    if o["history"] > 0:
        w("  history:")
        w("    every: %d" % o["history"])
        w("    columns:")
        w("      - {name: bonded, counter: bonded}")
        w("      - {name: breaks, counter: breaks}")
        w("      - {name: contacts, counter: contacts}")
        w("      - {name: ball_z, particle: %d, quantity: pos.z}" % n)
        w("      - {name: ball_vz, particle: %d, quantity: vel.z}" % n)
        w("      - {name: ek, energy: kinetic}")
    text = "\n".join(L) + "\n"
    if o["out"]:
        with open(o["out"], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
