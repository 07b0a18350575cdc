#!/usr/bin/python3
"""Servo-controlled triaxial tests on a soft-bonded specimen, and its Mohr-Coulomb envelope.

The specimen: spheres of radii 0.6-1.0 mm, placed at random in a prism twice
as tall as wide and packed by its six walls at 0.1 MPa (frictionless, in a
world of its own that only shapes the packing); then the soft bonds of
examples/softbond-ucs.yaml (E* = 1 GPa, kappa* = 2.5, tensile strength
sigma_c = 5 MPa, softening zeta = 2 down to zero, friction 0.5) cement every
pair closer than 0.1 mm, and the platens are glued to it. Unlike that scene,
whose specimen fails in unconfined compression with shear failure inhibited,
the bonds here have a finite cohesion, c = sigma_c = 5 MPa: under confinement
they fail in shear too. The cemented specimen is saved once (w.save) and every
test starts from it (floe.restore).

A servo written here in Python moves each lateral wall (frictionless) so that
the stress on it stays at the confining stress sigma_3:

    v_p = alpha (sigma_3 - sigma) A / (k dt_servo),   v_wall = v_p + k_i sum(v_p)

(capped at V_MAX) with A the wall's loaded area and k the sum of the normal
stiffnesses of its contacts: the wall moves by alpha of the distance that
would close the stress error, once per servo period dt_servo (PFC's wall
servo, written per period), plus, while the specimen is loaded, an integral
term that follows its steady lateral expansion without a standing error.
A test:

  1. consolidation: the top platen and the lateral walls are servo-controlled
     to sigma_3 until every wall's stress is within TOL of it;
  2. axial loading: the top platen moves down at a constant strain rate, the
     lateral walls stay on the servo, until the deviatoric stress
     q = sigma_1 - sigma_3 (its mean over the last WINDOW of axial strain) has
     fallen to 80 % of its peak, or the axial strain reaches MAX_STRAIN.

Three confinements give three peak states (sigma_3, sigma_1); the straight
line sigma_1 = sigma_ucs + N sigma_3 through them (least squares) is the
Mohr-Coulomb envelope, N = (1 + sin phi) / (1 - sin phi), sigma_ucs =
2 c sqrt(N). The plot has the stress-strain curves, the volumetric strains and
the Mohr circles at the peaks with the envelope (docs/python-examples.md).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/triaxial.py [--quick] [--png FILE]
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np

try:
    import floe
except ImportError:  # run from a clone without PYTHONPATH: the build tree's module
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "python"))
    import floe

# the specimen: spheres of radii 0.6-1.0 mm, first placed at random at the
# volume fraction of examples/softbond-ucs.yaml in a box twice as tall as wide
R_MIN, R_MAX = 0.6e-3, 1.0e-3
FILL = 0.33
SPECIMENS = {"quick": dict(width=11e-3, seed=7), "full": dict(width=14e-3, seed=7)}  # box width [m]
CONFINEMENTS = (0.1e6, 0.25e6, 0.5e6)  # sigma_3 [Pa]
# packing (a world that only shapes the packing: frictionless, heavy, lightly damped)
SEAT = 0.1e6  # the walls pack the placement at this stress [Pa] ...
PACK_RATE = 10.0  # ... closing in at up to this strain rate [1/s] ...
PACK_STEPS = 15000  # ... for this many steps (the fill then changes by < 1 % per 5000 steps)
PACK_MASS = 100  # density factor: a 10 x longer time step
# bonds (else as examples/softbond-ucs.yaml)
BOND_GAP = 1e-4  # pairs closer than this are bonded [m]
SB_COH = 5e6  # bond cohesion [Pa]
# loading and servo
STRAIN_RATE = 5.0  # axial [1/s]: quasi-static with the local damping of 0.7
MAX_STRAIN = 0.08
SERVO_EVERY = 10  # steps between two servo updates
STIFFNESS_EVERY = 50  # servo updates between two sums of the walls' contact stiffnesses
MAX_SERVO_STEPS = 200000
ALPHA = 0.5  # fraction of the stress error a wall closes per servo period ...
KI = 0.05  # ... plus this fraction of it summed over the periods (integral action)
V_MAX = 0.2  # fastest wall [m/s]
TOL = 0.02  # consolidated: every wall within 2 % of sigma_3 ...
SETTLE = 5  # ... at this many servo updates in a row
DROP = 0.8  # stop when q has fallen to this fraction of its peak
WINDOW = 0.002  # q averaged over this much axial strain for the peak and the drop


def sphere_count(width, height):
    mean_r3 = (R_MAX**4 - R_MIN**4) / (4 * (R_MAX - R_MIN))  # <r^3> of radii uniform in [R_MIN, R_MAX]
    return int(round(FILL * width * width * height / (4 / 3 * math.pi * mean_r3)))


class Specimen:
    """The specimen's world: spheres, two platens (groups bottom, top) and four
    lateral walls (x0, x1, y0, y1), with the stress and servo helpers."""

    WALLS = (("x0", 0, +1), ("x1", 0, -1), ("y0", 1, +1), ("y1", 1, -1))  # name, axis, inward normal sign
    SERVOED = ("x0", "x1", "y0", "y1", "top")

    def __init__(self, w):
        self.w = w
        self.ids = {g: int(w.group_members(g)[0]) for g in ("bottom", "top") + tuple(x[0] for x in self.WALLS)}
        self.wall_of = {v: k for k, v in self.ids.items()}
        self.spheres = w.group_members("rock")
        self.k = None  # wall stiffnesses, refreshed every STIFFNESS_EVERY updates
        self.vi = {}  # integral terms of the servo [m/s]
        self.updates = 0

    @classmethod
    def build(cls, width, height, pos, radius, threads):
        """The specimen world: spheres (pos, radius) in a box [0, width]^2 x [0, height]
        closed by the platens and the lateral walls; nothing bonded yet."""
        w = floe.World(dt="auto", dt_safety=0.5, damping=0.7, threads=threads)
        w.add_material("rock", "softbond", density=2500, young=1e9, kt_div_kn=0.4, tan_phi=0.5)
        w.add_material("platen", "softbond", density=7800, young=1e9, kt_div_kn=0.4, tan_phi=0.5)
        w.add_material("side", "softbond", density=7800, young=1e9, kt_div_kn=0.4, tan_phi=0.0)
        w.set_model("softbond", proximity=BOND_GAP, sb_ten=5e6, sb_coh=SB_COH, sb_soft=2, sb_cut=0)
        # platens glued to the specimen (as examples/softbond-ucs.yaml); lateral
        # walls frictionless and never bonded: a Linear pair, tan_phi = min(0.5, 0)
        w.set_pair("rock", "platen", "softbond", proximity=BOND_GAP, sb_ten=1e12, sb_coh=1e12)
        w.set_pair("rock", "side", "linear")
        add_box(w, width, height, "platen", "side")
        w.add_spheres(pos, radius, material="rock", group="rock")
        return cls(w)

    def box(self):
        p = self.w.positions
        i = self.ids
        return (p[i["x1"]][0] - p[i["x0"]][0], p[i["y1"]][1] - p[i["y0"]][1], p[i["top"]][2] - p[i["bottom"]][2])

    def stresses(self):
        """Compressive stress on each wall [Pa] and the current box (lx, ly, h)."""
        lx, ly, h = self.box()
        s = {}
        for name, axis, sign in self.WALLS:
            area = (ly if axis == 0 else lx) * h
            s[name] = -sign * self.w.group_force(name)[axis] / area  # the particles push the wall outwards
        s["top"] = self.w.group_force("top")[2] / (lx * ly)
        s["bottom"] = -self.w.group_force("bottom")[2] / (lx * ly)
        return s, (lx, ly, h)

    def stiffness(self):
        """Sum of the normal stiffnesses of each wall's contacts [N/m]."""
        c = self.w.contacts()
        k = {name: 0.0 for name in self.ids}
        for (a, b), kn in zip(c["ids"], c["kn"]):
            for body in (a, b):
                name = self.wall_of.get(int(body))
                if name:
                    k[name] += kn
        return k

    def servo(self, names, target, dt_servo, integral=False):
        """One servo update of the walls `names` towards `target` [Pa]; returns the stresses.
        integral: with the integral term (while the specimen is loaded)."""
        s, (lx, ly, h) = self.stresses()
        if self.k is None or self.updates % STIFFNESS_EVERY == 0 or any(self.k[n] <= 0 for n in names):
            self.k = self.stiffness()  # w.contacts() is the costly part of an update
        self.updates += 1
        for name in names:
            if name == "top":
                axis, sign, area = 2, -1, lx * ly
            else:
                _, axis, sign = next(x for x in self.WALLS if x[0] == name)
                area = (ly if axis == 0 else lx) * h
            err = target - s[name]
            if self.k[name] > 0:
                p = ALPHA * err * area / (self.k[name] * dt_servo)
                # the integral term carries the steady part of the motion (the
                # specimen's lateral expansion while it is loaded), which a
                # proportional servo would follow only with a standing error
                self.vi[name] = self.vi.get(name, 0.0) + (KI * p if integral else 0.0)
                v = max(-V_MAX, min(V_MAX, p + self.vi[name]))
            else:  # touching nothing: close in
                v = V_MAX if err > 0 else 0.0
            vel = [0.0, 0.0, 0.0]
            vel[axis] = sign * v
            self.w.set_motion(name, velocity=vel)
        return s

    def consolidate(self, target, what):
        """Servo the lateral walls and the top platen to `target` until all are within TOL of it."""
        w = self.w
        dt_servo = SERVO_EVERY * w.dt
        settled, n0 = 0, w.step_count
        while settled < SETTLE:
            w.step(SERVO_EVERY)
            s = self.servo(self.SERVOED, target, dt_servo)
            ok = all(abs(s[n] / target - 1) < TOL for n in self.SERVOED)
            settled = settled + 1 if ok else 0
            if w.step_count - n0 > MAX_SERVO_STEPS:
                raise RuntimeError("%s: the walls did not settle at %g Pa in %d steps" % (what, target,
                                                                                          MAX_SERVO_STEPS))
        for n in self.SERVOED:
            w.set_motion(n)
        self.vi = {}
        return w.step_count - n0

    def fill(self):
        lx, ly, h = self.box()
        r = self.w.radii[self.spheres]
        return float(np.sum(4 / 3 * math.pi * r**3) / (lx * ly * h))


def add_box(w, width, height, platen, side):
    """Platens (groups bottom, top) and lateral walls (x0, x1, y0, y1) around
    [0, width]^2 x [0, height], each held still by a prescribed motion."""
    w.add_wall("z", 0.0, sense=+1, material=platen, group="bottom")
    w.add_wall("z", height, sense=-1, material=platen, group="top")
    for name, axis, sign in Specimen.WALLS:
        w.add_wall("xyz"[axis], 0.0 if sign > 0 else width, sense=sign, material=side, group=name)
    for g in ("bottom", "top") + tuple(x[0] for x in Specimen.WALLS):
        w.set_motion(g)


def pack(width, seed, threads):
    """A dense packing: spheres placed at random (fill 0.33) in a width x width x
    2 width box, pushed together by the walls towards SEAT without friction.
    Only the geometry is kept, so this world may scale the density up by
    PACK_MASS (a longer time step: its dynamics do not matter)."""
    h = 2 * width
    w = floe.World(dt="auto", dt_safety=0.5, damping=0.2, threads=threads)
    w.add_material("grain", "linear", density=2500 * PACK_MASS, young=1e9, tan_phi=0.0)
    add_box(w, width, h, "grain", "grain")
    w.add_random(((0, 0, 0), (width, width, h)), sphere_count(width, h), radius=(R_MIN, R_MAX), seed=seed,
                 group="rock")
    sp = Specimen(w)
    fill0 = sp.fill()
    # every wall closes in at up to PACK_RATE (as a strain rate), slowing down
    # as its stress nears SEAT and backing off above it
    for _ in range(PACK_STEPS // SERVO_EVERY):
        s, (lx, ly, h) = sp.stresses()
        for name, axis, sign in Specimen.WALLS + (("top", 2, -1),):
            v = [0.0, 0.0, 0.0]
            half = 0.5 * (lx, ly, 2 * h)[axis]  # the top closes the height alone
            v[axis] = sign * PACK_RATE * half * max(-1.0, min(1.0, 1 - s[name] / SEAT))
            w.set_motion(name, velocity=v)
        w.step(SERVO_EVERY)
    steps = w.step_count
    lx, ly, hh = sp.box()
    origin = np.array([w.positions[sp.ids[n]][k] for n, k in (("x0", 0), ("y0", 1), ("bottom", 2))])
    pos = np.array(w.positions[sp.spheres]) - origin
    radius = np.array(w.radii[sp.spheres])
    info = dict(fill_placed=fill0, fill=sp.fill(), packing_steps=steps)
    w.close()
    return (lx, ly, hh), pos, radius, info


def make_specimen(width, seed, threads, path, log=print):
    """Packs the spheres, cements them and saves the specimen (a restart file)."""
    t0 = time.monotonic()
    (lx, ly, h), pos, radius, info = pack(width, seed, threads)
    sp = Specimen.build(lx, h, pos, radius, threads)
    w = sp.w
    # the walls where the packing left them (lx and ly differ slightly)
    w.positions[sp.ids["x1"]] = (lx, 0, 0)
    w.positions[sp.ids["y1"]] = (0, ly, 0)
    w.start()
    # cement every pair closer than BOND_GAP (and the platens to the specimen)
    bonds = w.apply_method("softbond", "bond", -math.inf, BOND_GAP)
    w.step(SERVO_EVERY)
    info.update(spheres=len(sp.spheres), bonds=bonds, bonds_per_sphere=2 * w.bonded_count / len(sp.spheres),
                box=list(sp.box()), wall_time=time.monotonic() - t0)
    log("specimen: %d spheres packed from a fill of %.3f to %.3f at %.2f MPa in %d steps; %d bonds (%.1f per sphere);"
        " box %.2f x %.2f x %.2f mm (%.0f s)" % (info["spheres"], info["fill_placed"], info["fill"], SEAT / 1e6,
                                                 info["packing_steps"], bonds, info["bonds_per_sphere"],
                                                 *(1e3 * np.array(info["box"])), info["wall_time"]))
    w.save(path)
    w.close()
    return info


def triaxial(path, sigma3, threads, log=print):
    """One test on the specimen saved at `path`; returns its record (curves and peak)."""
    w = floe.restore(path)
    if threads is not None:
        w.threads = threads
    sp = Specimen(w)
    dt_servo = SERVO_EVERY * w.dt
    lateral = [x[0] for x in Specimen.WALLS]
    t0 = time.monotonic()
    # 1. consolidation to sigma_3 on all sides (the bottom platen stays)
    steps_consolidation = sp.consolidate(sigma3, "sigma_3 = %g Pa" % sigma3)
    lx0, ly0, h0 = sp.box()
    v0 = lx0 * ly0 * h0
    breaks0 = w.break_count
    # 2. axial loading at a constant rate, lateral walls on the servo
    vz = STRAIN_RATE * h0
    w.set_motion("top", velocity=(0, 0, -vz))
    rows = []  # axial strain, volumetric strain, sigma_1, sigma_3 (mean of the walls), q
    q_peak, i_peak, stop = -math.inf, 0, None
    window = []  # (axial strain, q) within WINDOW of the last
    while True:
        w.step(SERVO_EVERY)
        s = sp.servo(lateral, sigma3, dt_servo, integral=True)
        lx, ly, h = sp.box()
        ea = 1 - h / h0
        ev = 1 - lx * ly * h / v0  # compression positive
        s1 = 0.5 * (s["top"] + s["bottom"])
        s3 = sum(s[n] for n in lateral) / 4
        rows.append((ea, ev, s1, s3, s1 - s3))
        # q averaged over the last WINDOW of axial strain
        window.append((ea, s1 - s3))
        while window[0][0] < ea - WINDOW:
            window.pop(0)
        qm = sum(q for _, q in window) / len(window)
        if qm > q_peak:
            q_peak, i_peak = qm, len(rows) - 1
        if ea > rows[i_peak][0] + WINDOW and qm < DROP * q_peak:
            stop = "q fell to %.0f %% of its peak" % (100 * qm / q_peak)
            break
        if ea >= MAX_STRAIN:
            stop = "axial strain reached %g" % MAX_STRAIN
            break
    arr = np.array(rows)
    # the peak state: the means over the strain window that ends at the peak
    win = (arr[:, 0] > arr[i_peak, 0] - WINDOW) & (np.arange(len(arr)) <= i_peak)
    peak = dict(axial_strain=float(arr[i_peak, 0]), sigma1=float(arr[win, 2].mean()),
                sigma3=float(arr[win, 3].mean()), q=float(arr[win, 4].mean()), vol_strain=float(arr[i_peak, 1]))
    rec = dict(sigma3_target=sigma3, steps=w.step_count, steps_consolidation=steps_consolidation, dt=w.dt,
               breaks_consolidation=int(breaks0), breaks=int(w.break_count), stop=stop,
               dropped=stop.startswith("q fell"), peak=peak, wall_time=time.monotonic() - t0, box0=[lx0, ly0, h0],
               axial_strain=arr[:, 0].tolist(), vol_strain=arr[:, 1].tolist(), sigma1=arr[:, 2].tolist(),
               sigma3=arr[:, 3].tolist(), q=arr[:, 4].tolist())
    log("  sigma_3 = %.2f MPa: consolidated in %d steps; peak q = %.3f MPa (sigma_1 = %.3f MPa) at axial strain %.4f;"
        " stopped at %.4f (%s); %d bonds broken, %d steps, %.0f s"
        % (sigma3 / 1e6, steps_consolidation, peak["q"] / 1e6, peak["sigma1"] / 1e6, peak["axial_strain"],
           arr[-1, 0], stop, w.break_count, w.step_count, rec["wall_time"]))
    w.close()
    return rec


def mohr_coulomb(s3, s1):
    """Least-squares line sigma_1 = sigma_ucs + N sigma_3; friction angle [deg] and cohesion [Pa]."""
    N, ucs = np.polyfit(np.asarray(s3), np.asarray(s1), 1)
    phi = math.asin((N - 1) / (N + 1)) if N > 1 else float("nan")
    c = ucs / (2 * math.sqrt(N)) if N > 0 else float("nan")
    return dict(N=float(N), sigma_ucs=float(ucs), phi_deg=math.degrees(phi), cohesion=float(c))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short form: a smaller specimen")
    ap.add_argument("--png", default="triaxial.png", help="plot file (default: ./triaxial.png)")
    ap.add_argument("--json", default=None, help="numbers as JSON (default: the plot's name with .json)")
    ap.add_argument("--threads", type=int, default=None, help="OpenMP threads (default: 1 quick, 2 full)")
    args = ap.parse_args()
    spec = SPECIMENS["quick" if args.quick else "full"]
    threads = args.threads if args.threads is not None else (1 if args.quick else 2)
    width = spec["width"]
    print("triaxial tests: specimen %.0f x %.0f x %.0f mm, about %d spheres; axial strain rate %g /s"
          % (width * 1e3, width * 1e3, 2 * width * 1e3, sphere_count(width, 2 * width), STRAIN_RATE))
    json_path = args.json or os.path.splitext(args.png)[0] + ".json"
    specimen_file = os.path.splitext(json_path)[0] + "-specimen.h5"  # the cemented specimen, a restart file
    specimen = make_specimen(width, spec["seed"], threads, specimen_file)
    tests = [triaxial(specimen_file, s3, threads) for s3 in CONFINEMENTS]
    s3 = [t["peak"]["sigma3"] for t in tests]
    s1 = [t["peak"]["sigma1"] for t in tests]
    mc = mohr_coulomb(s3, s1)
    print("Mohr-Coulomb envelope through the three peaks: sigma_1 = %.3f MPa + %.3f sigma_3" % (mc["sigma_ucs"] / 1e6,
                                                                                              mc["N"]))
    print("friction angle %.1f deg, cohesion %.3f MPa" % (mc["phi_deg"], mc["cohesion"] / 1e6))
    with open(json_path, "w") as f:
        json.dump(dict(width=width, quick=args.quick, strain_rate=STRAIN_RATE, drop=DROP, window=WINDOW,
                       seat=SEAT, bond_gap=BOND_GAP, specimen=specimen, tests=tests, envelope=mc), f, indent=1)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a1, a2, a3) = plt.subplots(1, 3, figsize=(15, 4.6))
    for k, t in enumerate(tests):
        lab = r"$\sigma_3$ = %g MPa" % (t["sigma3_target"] / 1e6)
        ea = np.array(t["axial_strain"]) * 100
        a1.plot(ea, np.array(t["q"]) / 1e6, "-", color="C%d" % k, lw=1, label=lab)
        a1.plot([t["peak"]["axial_strain"] * 100], [t["peak"]["q"] / 1e6], "v", color="C%d" % k, ms=7)
        a2.plot(ea, np.array(t["vol_strain"]) * 100, "-", color="C%d" % k, lw=1, label=lab)
        c, r = 0.5 * (t["peak"]["sigma1"] + t["peak"]["sigma3"]), 0.5 * (t["peak"]["sigma1"] - t["peak"]["sigma3"])
        th = np.linspace(0, math.pi, 200)
        a3.plot((c + r * np.cos(th)) / 1e6, r * np.sin(th) / 1e6, "-", color="C%d" % k, label=lab)
    a1.set_xlabel("axial strain [%]")
    a1.set_ylabel(r"deviatoric stress $q = \sigma_1 - \sigma_3$ [MPa]")
    a1.set_title("stress-strain (▼ peak; stopped at %d %% of it)" % (DROP * 100))
    a2.set_xlabel("axial strain [%]")
    a2.set_ylabel("volumetric strain [%] (compression > 0)")
    a2.set_title("volumetric strain")
    smax = max(s1) / 1e6 * 1.05
    sig = np.linspace(0, smax, 10)
    tan = math.tan(math.radians(mc["phi_deg"]))
    a3.plot(sig, mc["cohesion"] / 1e6 + sig * tan, "k--", lw=1.2,
            label=r"$\tau = c + \sigma\tan\varphi$: $\varphi$ = %.1f°, c = %.2f MPa" % (mc["phi_deg"],
                                                                                      mc["cohesion"] / 1e6))
    a3.set_xlim(0, smax)
    a3.set_ylim(0, 0.75 * smax)
    a3.set_aspect("equal")
    a3.set_xlabel(r"normal stress $\sigma$ [MPa]")
    a3.set_ylabel(r"shear stress $\tau$ [MPa]")
    a3.set_title("Mohr circles at the peaks and the envelope")
    for ax in (a1, a2, a3):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc={a1: "lower right", a2: "lower left", a3: "upper left"}[ax])
    fig.suptitle("Servo-controlled triaxial tests on a soft-bonded specimen (%d spheres, %.0f x %.0f x %.0f mm)"
                 % (specimen["spheres"], width * 1e3, width * 1e3, 2 * width * 1e3))
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print("plot: %s" % args.png)


if __name__ == "__main__":
    main()
