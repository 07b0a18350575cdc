#!/usr/bin/env python3
"""Reference forces, torques and energies of floe's contact models at fixed
contact configurations, computed from the models' published formulas
(docs/models/*.md, with the sources they cite: Woo's Linear, LinEl6 and Ice
models, Itasca PFC's soft-bond page, the Hertz-Mindlin formulas of LIGGGHTS
and EDEM with Tsuji's damping), independently of floe's C code, and
written to tests/models/<model>.yaml, which tests/test_model_reference.c
runs through the models.

A case is one contact between bodies A and B: their radii (the lengths of
the series springs, the radii of curvature, and the area pi min(rA, rB)^2),
their masses (0: a body that does not move freely), their materials and
the law parameters, and per step the gap uN (< 0: overlap) and the relative
velocity and angular velocity of B with respect to A in the contact frame
(x along the normal from A to B); forces and torques are those on A, in
that frame, tension positive (docs/decisions.md#sign-conventions-and-forces-on-particle-a-g1).
Energies per step: elastic is what the contact stores now; plastic, dashpot
and broken what this step dissipated or released.

Conventions floe documents and these formulas follow: an incremental
spring's force grows by k v dt; slip work is the mid-step force times the
plastic slip (docs/decisions.md#plastic-energy-with-the-mid-step-force-g5);
a contact that is deleted releases its stored energy plus the half step of
work of its last force (docs/decisions.md#a-frictional-contact-that-opens-books-its-shear-spring).

usage: tools/model_reference.py          write tests/models/*.yaml
       tools/model_reference.py --check  exit 1 if a file differs from what it would write
Python 3 standard library only.
"""
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "models")


def norm2(y, z):
    return math.sqrt(y * y + z * z)


def area_of(r):
    rho = min(r)
    return math.pi * rho * rho


def contact_mass(m):
    a, b = m
    if a == 0:
        return b if b != 0 else math.inf
    if b == 0:
        return a
    return a * b / (a + b)


def mean(a, b):
    return 0.5 * (a + b)


def series_kn(r, ea, eb, area):
    """Woo's FrictMat: two springs of length r_i and modulus E_i over the area, in series."""
    return 1.0 / (r[0] / (ea * area) + r[1] / (eb * area))


def slip_work(o, t, ratio, k):
    """G5: yield force at mid-step (mean of the old force o and the returned one ratio*t) times
    the plastic slip (1 - ratio) t / k, component by component."""
    if not k > 0:
        return 0.0
    return 0.5 * (1.0 - ratio) * sum((oi + ratio * ti) * ti for oi, ti in zip(o, t)) / k


def cap(t, lim):
    """t scaled back to |t| = lim if longer; returns (t, ratio, capped)."""
    n = math.sqrt(sum(x * x for x in t))
    if n > lim:
        r = lim / n
        return [x * r for x in t], r, True
    return list(t), 1.0, False


# ---- materials: defaults of each model (docs/scene-format.md#materials) ----

MAT_DEFAULTS = {
    "linear": {"density": 1000, "young": 1e9, "kt_div_kn": 0.2, "tan_phi": 0.5},
    "linel6": {"density": 1000, "young": 1e9, "kt_div_kn": 0.2, "tan_phi": 0.5},
    "ice": {"density": 1000, "young": 1e9, "kt_div_kn": 0.2, "tan_phi": 0.5, "break_n": 1e-4, "alpha_w": 1,
            "alpha_r": 1, "beta_t": 0.1, "beta_w": 0.1, "beta_r": 0.1, "mu": 0.05},
    "hertz": {"density": 1000, "young": 1e9, "kt_div_kn": 0.2, "tan_phi": 0.5, "poisson": 0.25,
              "restitution": 0.5, "rolling_friction": 0},
    "softbond": {"density": 1000, "young": 1e9, "kt_div_kn": 0.4, "tan_phi": 0, "kn": 0, "ks": 0},
}


def mat(spec, model):
    """A material of the case's model unless it names its own: its model's defaults, then the keys given."""
    m = dict(MAT_DEFAULTS[spec.get("model", model)])
    m.update({k: v for k, v in spec.items() if k != "model"})
    return m


def friction(m):
    return m["tan_phi"]


# ---- Linear (docs/models/linear.md) ----

def linear(case):
    a, b = (mat(x, "linear") for x in case["materials"])
    lp = dict(no_slip=0, no_break=0, ini_eqlb=0, kn=0, kt=0, dp_nratio=0, dp_sratio=0, dp_mode=0)
    lp.update(case.get("law", {}))
    r, dt = case["radii"], case["dt"]
    A = area_of(r)
    kn = lp["kn"] if lp["kn"] > 0 else series_kn(r, a["young"], b["young"], A)
    kt = lp["kt"] if lp["kt"] > 0 else mean(a["kt_div_kn"], b["kt_div_kn"]) * kn
    mu = min(a["tan_phi"], b["tan_phi"])  # a mixed pair's Linear model: the min of the pair
    mc = contact_mass(case["masses"])
    # dashpots: fractions of critical damping of the pair's mass on each spring
    cn = 2 * lp["dp_nratio"] * math.sqrt(mc * kn) if math.isfinite(mc) else 0.0
    cs = 2 * lp["dp_sratio"] * math.sqrt(mc * kt) if math.isfinite(mc) else 0.0
    uN0 = case["steps"][0]["uN"] if lp["ini_eqlb"] else 0.0
    ft = [0.0, 0.0]  # shear spring force
    out = []
    for s in case["steps"]:
        v = s.get("vel", [0, 0, 0])
        u = s["uN"] - uN0
        if u > 0 and not lp["no_break"]:
            # the contact opens and goes; its shear spring lets go of its
            # energy and of its last half step of work
            lost = 0.0
            if kt > 0 and (ft[0] != 0 or ft[1] != 0):
                lost = 0.5 * (ft[0] ** 2 + ft[1] ** 2) / kt + 0.5 * dt * (ft[0] * v[1] + ft[1] * v[2])
            out.append(dict(keep=0, broken=lost if lp["no_slip"] else 0.0, plastic=0.0 if lp["no_slip"] else lost))
            break
        fn = kn * u  # total formulation, negative in compression
        old = ft
        trial = [old[0] + dt * kt * v[1], old[1] + dt * kt * v[2]]
        plastic, sliding = 0.0, False
        if mu == 0:
            ft = [0.0, 0.0]  # no friction: no shear force
        elif lp["no_slip"]:
            ft = trial
        else:
            ft, ratio, sliding = cap(trial, abs(fn) * mu)  # Coulomb
            if sliding:
                plastic = slip_work(old, trial, ratio, kt)
        dn, dy, dz = cn * v[0], cs * v[1], cs * v[2]
        if lp["dp_mode"] in (1, 3) and fn + dn > 0:
            dn = -fn  # no net tension from the dashpot
        if lp["dp_mode"] in (2, 3) and sliding:
            dy = dz = 0.0  # no shear dashpot while sliding
        elastic = 0.5 * fn * fn / kn + (0.5 * (ft[0] ** 2 + ft[1] ** 2) / kt if kt > 0 else 0.0)
        out.append(dict(f=[fn + dn, ft[0] + dy, ft[1] + dz], m=[0, 0, 0], elastic=elastic, plastic=plastic,
                        dashpot=(dn * v[0] + dy * v[1] + dz * v[2]) * dt, state={"slipping": int(sliding and (ft[0] != 0 or ft[1] != 0))}))
    return out


# ---- LinEl6 (docs/models/linear.md#linel6-model-linel6) ----

def linel6(case):
    a, b = (mat(x, "linel6") for x in case["materials"])
    lp = dict(char_len=1)
    lp.update(case.get("law", {}))
    r, dt = case["radii"], case["dt"]
    kn = series_kn(r, a["young"], b["young"], area_of(r))
    kt = mean(a["kt_div_kn"], b["kt_div_kn"]) * kn
    kw, kb = lp["char_len"] * kn, lp["char_len"] * kt  # Woo's documentation: k_w = l kn, k_b = l kt
    f, m = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
    out = []
    for s in case["steps"]:
        v, w = s.get("vel", [0, 0, 0]), s.get("angvel", [0, 0, 0])
        f = [kn * s["uN"], f[1] + dt * kt * v[1], f[2] + dt * kt * v[2]]
        m = [m[0] + dt * kw * w[0], m[1] + dt * kb * w[1], m[2] + dt * kb * w[2]]
        elastic = (0.5 * f[0] ** 2 / kn + 0.5 * (f[1] ** 2 + f[2] ** 2) / kt + 0.5 * m[0] ** 2 / kw +
                   0.5 * (m[1] ** 2 + m[2] ** 2) / kb)
        out.append(dict(f=list(f), m=list(m), elastic=elastic))
    return out


# ---- Ice (docs/models/ice.md) ----

def ice(case):
    a, b = (mat(x, "ice") for x in case["materials"])
    lp = dict(bonds0=0, bonds1=0, step01=3, ini_eqlb=1, bond_tol=0)
    lp.update(case.get("law", {}))
    r, dt = case["radii"], case["dt"]
    A = area_of(r)
    kn = series_kn(r, a["young"], b["young"], A)
    kt = mean(a["kt_div_kn"], b["kt_div_kn"]) * kn
    kw = A * mean(a["alpha_w"], b["alpha_w"]) * kt
    kr = A * mean(a["alpha_r"], b["alpha_r"]) * kn
    # bond strength: the breakage strain times the pair's modulus E' = (l_A + l_B) / (l_A/E_A + l_B/E_B)
    cn = mean(a["break_n"], b["break_n"]) * (r[0] + r[1]) / (r[0] / a["young"] + r[1] / b["young"])
    fnb = cn * A
    ftb = mean(a["beta_t"], b["beta_t"]) * cn * A
    twb = mean(a["beta_w"], b["beta_w"]) * ftb * math.sqrt(A)  # twist with F_tb (G2)
    trb = mean(a["beta_r"], b["beta_r"]) * fnb * math.sqrt(A)  # rolling with F_nb (G2)
    mu_t, mu_r = min(a["tan_phi"], b["tan_phi"]), min(a["mu"], b["mu"])  # minima (I1)
    bonds = int(lp["bonds0"] if case.get("created", 0) < lp["step01"] else lp["bonds1"])
    uN0 = case["steps"][0]["uN"] if lp["ini_eqlb"] else 0.0
    rc = math.sqrt(A / math.pi)
    f, m = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
    out = []

    def energy(f, m):
        return (0.5 * f[0] ** 2 / kn + 0.5 * (f[1] ** 2 + f[2] ** 2) / kt + 0.5 * m[0] ** 2 / kw +
                0.5 * (m[1] ** 2 + m[2] ** 2) / kr)

    for s in case["steps"]:
        v, w = s.get("vel", [0, 0, 0]), s.get("angvel", [0, 0, 0])
        f0, m0 = f, m
        # 1. trial values
        f = [kn * (s["uN"] - uN0), f0[1] + dt * kt * v[1], f0[2] + dt * kt * v[2]]
        m = [m0[0] + dt * kw * w[0], m0[1] + dt * kr * w[1], m0[2] + dt * kr * w[2]]
        # 2. a bonded breakable sense over its strength breaks every bond (compression never breaks)
        brk = bonds & (bonds >> 4)
        over = ((brk & 1 and f[0] > fnb) or (brk & 2 and norm2(f[1], f[2]) > ftb) or
                (brk & 4 and abs(m[0]) > twb) or (brk & 8 and norm2(m[1], m[2]) > trb))
        was_bonded = bonds & 15
        if over:
            bonds &= ~15
        # 3. unbonded in the normal sense and in tension: the contact goes
        if not bonds & 1 and f[0] > 0:
            if was_bonded:  # a bond lets go of all its springs
                lost = energy(f0, m0) + 0.5 * dt * (sum(x * y for x, y in zip(f0, v)) + sum(x * y for x, y in zip(m0, w)))
                out.append(dict(keep=0, broke=int(bool(over)), broken=lost))
            else:  # the shear, twist and rolling springs, as slip would take them
                fs = [0.0, f0[1], f0[2]]
                lost = energy(fs, m0) + 0.5 * dt * (sum(x * y for x, y in zip(fs, v)) + sum(x * y for x, y in zip(m0, w)))
                out.append(dict(keep=0, broke=int(bool(over)), plastic=lost))
            break
        # 4. plastic limits on the unbonded senses; limits vanish in tension
        p = max(-f[0], 0.0)
        slip = 0.0
        if not bonds & 2:
            t = f[1:]
            ft, ratio, capped = cap(t, p * mu_t)
            if capped:
                slip += slip_work(f0[1:], t, ratio, kt)
                f = [f[0]] + ft
        if not bonds & 4:
            t = [m[0]]
            mt, ratio, capped = cap(t, rc * p * mu_t)
            if capped:
                slip += slip_work([m0[0]], t, ratio, kw)
                m = mt + m[1:]
        if not bonds & 8:
            t = m[1:]
            mr, ratio, capped = cap(t, rc * p * mu_r)
            if capped:
                slip += slip_work(m0[1:], t, ratio, kr)
                m = [m[0]] + mr
        row = dict(f=list(f), m=list(m), elastic=energy(f, m), broke=int(bool(over)))
        row["broken" if over else "plastic"] = slip
        row["state"] = {"bonds": bonds}
        out.append(row)
    return out


# ---- Hertz-Mindlin (docs/models/hertz.md) ----

def hertz(case):
    a, b = (mat(x, "hertz") for x in case["materials"])
    lp = dict(restitution=0, no_tension=0)
    lp.update(case.get("law", {}))
    r, dt = case["radii"], case["dt"]
    rstar = 1.0 / (1.0 / r[0] + 1.0 / r[1])
    na, nb, ea, eb = a["poisson"], b["poisson"], a["young"], b["young"]
    estar = 1.0 / ((1 - na * na) / ea + (1 - nb * nb) / eb)
    ga, gb = ea / (2 * (1 + na)), eb / (2 * (1 + nb))
    gstar = 1.0 / ((2 - na) / ga + (2 - nb) / gb)
    e = lp["restitution"] if lp["restitution"] > 0 else min(a["restitution"], b["restitution"])
    mc = contact_mass(case["masses"])
    # Tsuji: damping coefficient 2 sqrt(5/6) beta sqrt(S m*), beta = -ln e / sqrt(ln^2 e + pi^2)
    beta = -math.log(e) / math.sqrt(math.log(e) ** 2 + math.pi ** 2) if e < 1 else 0.0
    mu = min(a["tan_phi"], b["tan_phi"])
    mur = min(a["rolling_friction"], b["rolling_friction"])
    out = []
    ft, mr = [0.0, 0.0], [0.0, 0.0]  # tangential spring force, rolling torque
    st0 = kr0 = 0.0                   # last step's stiffnesses
    fdn0, fdt0 = 0.0, [0.0, 0.0]      # last step's damping forces

    def damp(S):
        return 2.0 * math.sqrt(5.0 / 6.0) * beta * math.sqrt(S * mc) if math.isfinite(mc) else 0.0

    def spring(k0, k, old, d, lim):
        """Incremental 2-component spring whose stiffness changes from k0 to k: the old force
        scaled with the stiffness while it falls, the increment k d, the limit; returns the
        new force, whether it sits on the limit, and the energy the spring did not keep."""
        ratio = k / k0 if k < k0 else 1.0
        t = [ratio * old[0] + k * d[0], ratio * old[1] + k * d[1]]
        new, q, at = cap(t, lim)
        e0 = 0.5 * (old[0] ** 2 + old[1] ** 2) / k0 if k0 > 0 else 0.0
        e1 = 0.5 * (new[0] ** 2 + new[1] ** 2) / k if k > 0 else 0.0
        work = 0.5 * ((old[0] + new[0]) * d[0] + (old[1] + new[1]) * d[1])
        return new, at, work - (e1 - e0)

    for s in case["steps"]:
        v, w = s.get("vel", [0, 0, 0]), s.get("angvel", [0, 0, 0])
        delta = -s["uN"]
        if not delta > 0:
            # the contact opens: the last damping forces did their half step of work
            out.append(dict(keep=0, dashpot=0.5 * dt * (fdn0 * v[0] + fdt0[0] * v[1] + fdt0[1] * v[2])))
            break
        fe = 4.0 / 3.0 * estar * math.sqrt(rstar) * delta ** 1.5  # Hertz, magnitude
        sn = 2.0 * estar * math.sqrt(rstar * delta)                # dF/d(delta)
        st = 8.0 * gstar * math.sqrt(rstar * delta)                # Mindlin, no slip
        fdn = damp(sn) * v[0]
        if lp["no_tension"] and -fe + fdn > 0:
            fdn = fe
        ft, slip, lost = spring(st0, st, ft, [v[1] * dt, v[2] * dt], mu * fe)
        gt = 0.0 if slip else damp(st)  # no tangential damping while sliding
        fdt = [gt * v[1], gt * v[2]]
        # rolling: k_r = 2.25 mu_r^2 R*^2 k_n, k_n = F/delta; limit mu_r R* F (Ai et al. 2011)
        kr = 2.25 * mur * mur * rstar * rstar * fe / delta
        rolling_limit = False
        if mur > 0:
            mr, rolling_limit, lr = spring(kr0, kr, mr, [w[1] * dt, w[2] * dt], mur * rstar * fe)
            lost += lr
        elastic = 0.4 * fe * delta + 0.5 * (ft[0] ** 2 + ft[1] ** 2) / st + (
            0.5 * (mr[0] ** 2 + mr[1] ** 2) / kr if kr > 0 else 0.0)
        dashpot = 0.5 * dt * ((fdn0 + fdn) * v[0] + (fdt0[0] + fdt[0]) * v[1] + (fdt0[1] + fdt[1]) * v[2])
        out.append(dict(f=[-fe + fdn, ft[0] + fdt[0], ft[1] + fdt[1]], m=[0.0, mr[0], mr[1]], elastic=elastic,
                        plastic=lost, dashpot=dashpot,
                        state={"slipping": int(slip), "rolling_limit": int(rolling_limit)}))
        st0, kr0, fdn0, fdt0 = st, kr, fdn, fdt
    return out


# ---- soft-bond (docs/models/softbond.md; PFC's softbond page) ----

def softbond(case):
    a, b = (mat(x, "softbond") for x in case["materials"])
    lp = dict(rgap=0, proximity=0, sb_mode=0, sb_bmul=1, sb_tmul=1, sb_rmul=1, user_area=0, sb_soft=0, sb_cut=1,
              sb_mcf=1, sb_ten=0, sb_coh=0, sb_fa=0, sb_shear_zero=0, dp_nratio=0, dp_sratio=0, dp_mode=0)
    lp.update(case.get("law", {}))
    assert lp["user_area"] == 0, "not covered here"
    d3 = case.get("dim", 3) != 2
    r, dt = case["radii"], case["dt"]

    def inherit(x, y):  # PFC: series of two non-zero values, else the non-zero one
        return x * y / (x + y) if x > 0 and y > 0 else (x if x > 0 else y)

    kn = inherit(a["kn"], b["kn"]) or 1.0 / (r[0] / a["young"] + r[1] / b["young"])
    ks = inherit(a["ks"], b["ks"]) if a["ks"] > 0 or b["ks"] > 0 else mean(a["kt_div_kn"], b["kt_div_kn"]) * kn
    mu = min(friction(a), friction(b))
    # cross-section (eq. 4): R = lambda min(R_A, R_B), A = pi R^2, I = pi R^4 / 4, J = pi R^4 / 2;
    # 2D: a strip of unit thickness, A = 2 R, I = 2/3 R^3, no twist (docs/decisions.md#two-dimensional-worlds-s10)
    R = lp["sb_rmul"] * min(r)
    if d3:
        A, I, J = math.pi * R * R, 0.25 * math.pi * R ** 4, 0.5 * math.pi * R ** 4
    else:
        A, I, J = 2.0 * R, 2.0 / 3.0 * R ** 3, 0.0
    Kn, Ks, Kb, Kt = kn * A, ks * A, kn * I, ks * J
    mc = contact_mass(case["masses"])
    cn = 2.0 * lp["dp_nratio"] * math.sqrt(mc * Kn) if math.isfinite(mc) else 0.0
    cs = 2.0 * lp["dp_sratio"] * math.sqrt(mc * Ks) if math.isfinite(mc) else 0.0
    tan_fa = math.tan(math.radians(lp["sb_fa"])) if lp["sb_fa"] > 0 else 0.0
    gap_max = max(0.0, lp["rgap"], lp["proximity"])

    def strain(fn, fs, mt, mb):  # eq. 24
        return 0.5 * fn * fn / Kn + 0.5 * (fs[0] ** 2 + fs[1] ** 2) / Ks + 0.5 * (mb[0] ** 2 + mb[1] ** 2) / Kb + (
            0.5 * mt * mt / Kt if Kt > 0 else 0.0)

    def lost(old, new, d):
        """Work of the mid-step force over the displacement less the change of stored energy,
        over the springs (fn, fs, mt, mb): what the return map took out."""
        (fn0, fs0, mt0, mb0), (fn1, fs1, mt1, mb1) = old, new
        work = 0.5 * ((fn0 + fn1) * d[0] + (fs0[0] + fs1[0]) * d[1] + (fs0[1] + fs1[1]) * d[2] +
                      (mt0 + mt1) * d[3] + (mb0[0] + mb1[0]) * d[4] + (mb0[1] + mb1[1]) * d[5])
        return work - (strain(fn1, fs1, mt1, mb1) - strain(fn0, fs0, mt0, mb0))

    # bond states: 0 unbonded, 1 and 2 broken in tension and in shear, 3 bonded, 4 softening, 5 unloaded
    B, released, active = 0, False, False
    fn, fs, mt, mb, fd = 0.0, [0.0, 0.0], 0.0, [0.0, 0.0], [0.0, 0.0, 0.0]
    mode, zeta, gamma, sig_c = lp["sb_mode"], lp["sb_soft"], lp["sb_cut"], lp["sb_ten"]
    lc = lstar = dl = sig_m = 0.0
    dthb = [0.0, 0.0]
    out = []
    for i, s in enumerate(case["steps"]):
        v, w = s.get("vel", [0, 0, 0]), s.get("angvel", [0, 0, 0])
        if s.get("method", [None])[0] == "bond" and B < 3 and s["uN"] <= 0:
            B, mode, released = 3, 1, False
        bonded = B >= 3
        du = [x * dt for x in v]
        dth = [x * dt for x in w]
        gs = s["uN"] - lp["rgap"]
        if not bonded and gs > 0:  # inactive: springs and dashpots let go
            row = dict(keep=int(not s["uN"] > gap_max), f=[0, 0, 0], m=[0, 0, 0], elastic=0.0)
            if active:
                row["dashpot"] = 0.5 * (fd[0] * du[0] + fd[1] * du[1] + fd[2] * du[2])
                if released:
                    row["broken"] = lost((fn, fs, mt, mb), (0.0, [0.0, 0.0], 0.0, [0.0, 0.0]),
                                         du[:1] + du[1:] + dth[:1] + dth[1:])
            fn, fs, mt, mb, fd = 0.0, [0.0, 0.0], 0.0, [0.0, 0.0], [0.0, 0.0, 0.0]
            active = released = False
            out.append(row)
            if not row["keep"]:
                break
            continue
        if not active:
            # activation: only the part of this step's approach after touching loads the springs
            if i > 0 and not bonded and du[0] < 0:
                corr = gs / du[0]
                if 0 <= corr < 1:
                    du = [x * corr for x in du]
                    dth = [x * corr for x in dth]
            active = True
        d6 = du[:1] + du[1:] + dth[:1] + dth[1:]
        old = (fn, list(fs), mt, list(mb))
        loss, to_broken, broke = 0.0, False, 0
        if not bonded:
            # Jiang-type contact (eqs. 5, 6): absolute or incremental normal force, compression only
            fn = (Kn * gs if gs < 0 else 0.0) if (i == 0 or mode == 0) else min(fn + Kn * du[0], 0.0)
            fs = [fs[0] + Ks * du[1], fs[1] + Ks * du[2]]
            mt = mt + Kt * dth[0] if d3 else 0.0
            mb = [mb[0] + Kb * dth[1], mb[1] + Kb * dth[2]]
            p = -fn
            fs, _, slip_s = cap(fs, mu * p)
            mb, _, slip_b = cap(mb, 0.525 * lp["sb_bmul"] * p * R)
            tl = 0.65 * lp["sb_tmul"] * mu * p * R
            slip_t = d3 and abs(mt) > tl
            if slip_t:
                mt = math.copysign(tl, mt)
            if released:  # what the limits strip from a failed bond's springs is bond damage
                loss, to_broken, released = lost(old, (fn, fs, mt, mb), d6), True, False
            else:  # slip work of each sense that slid
                if slip_s:
                    loss += lost((0.0, old[1], 0.0, [0.0, 0.0]), (0.0, fs, 0.0, [0.0, 0.0]), d6)
                if slip_b:
                    loss += lost((0.0, [0.0, 0.0], 0.0, old[3]), (0.0, [0.0, 0.0], 0.0, mb), d6)
                if slip_t:
                    loss += lost((0.0, [0.0, 0.0], old[2], [0.0, 0.0]), (0.0, [0.0, 0.0], mt, [0.0, 0.0]), d6)
            sliding_shear = slip_s
            state = {"sb_state": B, "sb_slip": int(slip_s), "sb_slipb": int(slip_b), "sb_slipt": int(slip_t)}
        else:
            # bonded: incremental springs, the state machine of the tensile envelope, shear failure (eq. 23)
            beta = lp["sb_mcf"]
            fn += Kn * du[0]
            fs = [fs[0] + Ks * du[1], fs[1] + Ks * du[2]]
            mb = [mb[0] + Kb * dth[1], mb[1] + Kb * dth[2]]
            mt = mt + Kt * dth[0] if d3 else 0.0
            sigma = fn / A + beta * norm2(mb[0], mb[1]) * R / I  # peripheral stresses (eq. 16)
            if B in (4, 5):  # elongation and bending since softening began (eq. 20)
                dl += du[0]
                dthb = [dthb[0] + dth[1], dthb[1] + dth[2]]
            damaged = False
            if B == 3 and sigma > sig_c:
                if not zeta > 0 or not gamma < 1:
                    broke = 1  # brittle, as a parallel bond
                else:  # onset of softening (eq. 17): l_c from this step's stress
                    B, lc, dl, dthb = 4, sigma / kn, 0.0, [0.0, 0.0]
                    lstar = (1.0 + zeta) * lc
            elif B == 5 and sigma > sig_m:
                B = 4  # back on the envelope
            if B == 4 and not broke:
                ell = lc + dl + R * norm2(dthb[0], dthb[1])              # eq. 19
                sstar = max(0.0, sig_c * (lstar - ell) / (zeta * lc))  # eq. 18
                if sigma >= sstar:  # on the envelope: F_n and M_b scaled back to it (eq. 21)
                    ratio = sstar / sigma if sigma > 0 else 0.0
                    fn, mb = fn * ratio, [mb[0] * ratio, mb[1] * ratio]
                    sigma, damaged = sstar, True
                    if sigma <= gamma * sig_c:
                        broke = 1  # eq. 22
                else:  # unloading inside the envelope
                    B, sig_m = 5, sigma
            tau = norm2(fs[0], fs[1]) / A + (beta * abs(mt) * R / J if J > 0 else 0.0)
            if not broke and tau > lp["sb_coh"] - min(fn / A, sig_c) * tan_fa:
                broke = 2
            if broke:
                B = broke
                if broke == 1 or lp["sb_shear_zero"]:
                    fn, fs, mt, mb = 0.0, [0.0, 0.0], 0.0, [0.0, 0.0]
                    damaged = True
                else:
                    released = True  # springs kept: the friction limits act from the next step
            if damaged:  # softening and failure are bond damage
                loss, to_broken = lost(old, (fn, fs, mt, mb), d6), True
            sliding_shear = False
            state = {"sb_state": B}
        # dashpots, as in the Linear model
        fdn = [cn * v[0], cs * v[1], cs * v[2]]
        if lp["dp_mode"] & 1 and B < 3 and fn + fdn[0] > 0:
            fdn[0] = -fn
        if lp["dp_mode"] & 2 and sliding_shear:
            fdn[1] = fdn[2] = 0.0
        edash = 0.5 * sum((x + y) * z for x, y, z in zip(fd, fdn, [c * dt for c in v]))
        fd = fdn
        row = dict(f=[fn + fd[0], fs[0] + fd[1], fs[1] + fd[2]], m=[mt, mb[0], mb[1]],
                   elastic=strain(fn, fs, mt, mb), dashpot=edash, broke=int(bool(broke)))
        row["broken" if to_broken else "plastic"] = loss
        row["state"] = state
        out.append(row)
    return out


MODELS = {"linear": linear, "linel6": linel6, "ice": ice, "hertz": hertz, "softbond": softbond}


def body_steps(case):
    """The contact's steps of a case given by two bodies (spheres A and B, fully blocked: each
    keeps its velocity and spin), evaluated at the start (step 0) and after every step, each
    body moved by v dt: positions on the x axis and motion along it, or spins at fixed
    positions whose sum has no x component (the frame does not turn). The frame of a contact
    along +x is n = x, t1 = -y, t2 = -z (docs/geometry.md: the first tangent from the axis
    least aligned with the normal, z for a tie); the contact point is the middle of the
    overlap, the relative velocity that of B's surface point there less A's. Returns the
    index of the step that creates the contact and the contact's steps from it on."""
    bd, dt, r = case["bodies"], case["dt"], case["radii"]
    xa, xb = list(bd["pos"][0]), list(bd["pos"][1])
    va, vb = bd["vel"]
    wa, wb = bd["angvel"]
    assert xa[1:] == [0, 0] and xb[1:] == [0, 0] and va[1:] == [0, 0] and vb[1:] == [0, 0] and xb[0] > xa[0]
    assert wa[0] + wb[0] == 0 and (not any(wa + wb) or va[0] == vb[0] == 0)
    out, created = [], None
    for k in range(case["nsteps"]):
        if k > 0:
            xa[0] += va[0] * dt
            xb[0] += vb[0] * dt
        uN = (xb[0] - xa[0]) - (r[0] + r[1])
        if created is None and not uN < 0:
            continue
        if created is None:
            created = k
        da, db = r[0] + 0.5 * uN, -(r[1] + 0.5 * uN)  # contact point less the centres, along x
        # w x (d ex) = (0, w_z d, -w_y d)
        vy = wb[2] * db - wa[2] * da
        vz = -wb[1] * db + wa[1] * da
        out.append(dict(uN=uN, vel=[vb[0] - va[0], -vy, -vz],
                        angvel=[wb[0] - wa[0], -(wb[1] - wa[1]), -(wb[2] - wa[2])]))
    return created, out

# ---- the cases ----------------------------------------------------------------------------------

R = [0.01, 0.01]
DT = 1e-6
M = [4.1887902047863905e-3, 4.1887902047863905e-3]  # 1000 kg/m^3 spheres of 1 cm


def ramp(u0, du, n, vel=(0, 0, 0), angvel=(0, 0, 0), dt=DT):
    """n steps whose gap moves by du each step from u0 (vel.x = du / dt) with the given
    tangential and angular velocities."""
    return [dict(uN=u0 + k * du, vel=[du / dt, vel[1], vel[2]], angvel=list(angvel)) for k in range(n)]


# Cases given by two bodies: dyadic radii, step and speeds, so that the positions and gaps
# are exact whatever the order of operations.
RB = 2.0 ** -7
DTB = 2.0 ** -20
X0 = 2 * RB + 2.0 ** -21 + 2.0 ** -23  # B's centre: a gap of 6e-7 m, closed at 0.25 m/s in 2.5 steps


def bodies(x_b, v_b=0.0, w_a=(0, 0, 0), w_b=(0, 0, 0)):
    return dict(pos=[[0.0, 0.0, 0.0], [x_b, 0.0, 0.0]], vel=[[0.0, 0.0, 0.0], [v_b, 0.0, 0.0]],
                angvel=[list(w_a), list(w_b)])


APPROACH = bodies(X0, -0.25)                         # touches between the evaluations 2 and 3
RETREAT = bodies(2 * RB - 2.0 ** -21 - 2.0 ** -23, 0.25)  # opens between 2 and 3
OVERLAP = 2 * RB - 2.0 ** -21                        # a fixed overlap of 4.8e-7 m

CASES = {
    "linear": [
        dict(name="approach", what="normal spring, total formulation: Fn = kn uN",
             dt=DT, radii=R, masses=M, materials=[{"young": 1e8}, {"young": 3e8}],
             steps=ramp(-1e-7, -2e-7, 4)),
        dict(name="slide", what="shear spring grows by kt v dt until the Coulomb limit, then slides",
             dt=DT, radii=[0.01, 0.02], masses=M, materials=[{"tan_phi": 0.3}, {"tan_phi": 0.6}],
             steps=ramp(-1.2e-6, 0, 6, vel=(0, 0.4, -0.3))),
        dict(name="dashpots", what="viscous dashpots (fractions of critical damping), no net tension (dp_mode 1)",
             dt=DT, radii=R, masses=M, materials=[{}, {}], law=dict(dp_nratio=0.3, dp_sratio=0.2, dp_mode=1),
             steps=ramp(-1e-6, -3e-7, 3, vel=(0, 0.1, 0)) + ramp(-1.6e-6, 8e-7, 3, vel=(0, 0.1, 0))),
        dict(name="opens", what="a sliding contact opens: deleted, its shear spring booked as plastic",
             dt=DT, radii=R, masses=M, materials=[{}, {}],
             steps=ramp(-6e-7, 0, 3, vel=(0, 0.5, 0)) + [dict(uN=1e-8, vel=[6.1e-1, 0.5, 0])]),
        dict(name="mixed-pair", what="Linear model of a Linear material and a LinEl6 material: kt_div_kn by the "
             "mean, tan_phi (a row LinEl6 does not read) by the min",
             dt=DT, radii=R, masses=M,
             materials=[{"young": 2e9, "kt_div_kn": 0.2, "tan_phi": 0.5},
                        {"model": "linel6", "young": 5e8, "kt_div_kn": 0.4, "tan_phi": 0.125}],
             steps=ramp(-1e-6, 0, 5, vel=(0, 0.6, 0))),
        dict(name="given-stiffness", what="kn, kt given directly, no_break carries tension, ini_eqlb",
             dt=DT, radii=R, masses=M, materials=[{}, {}], law=dict(kn=2e6, kt=5e5, no_break=1, ini_eqlb=1),
             steps=ramp(-1e-6, 4e-7, 5, vel=(0, 0, 0.2))),
        dict(name="bodies-approach", what="two blocked spheres, B approaching: no contact until they overlap, "
             "then Fn = kn uN", dt=DTB, radii=[RB, RB], materials=[{}, {}], bodies=APPROACH, nsteps=6),
        dict(name="bodies-slide", what="two spheres spinning the same way about z at fixed positions: their "
             "surfaces slide (v = w d), the shear spring reaches the Coulomb limit",
             dt=DTB, radii=[RB, RB], materials=[{"tan_phi": 0.2}, {}], bodies=bodies(OVERLAP, 0, (0, 0, 8.0), (0, 0, 8.0)),
             nsteps=6),
        dict(name="bodies-mixed-slide", what="the same with a LinEl6 material for B: the pair's model is Linear, "
             "and B's tan_phi, which LinEl6 does not read, is the pair's (min)",
             dt=DTB, radii=[RB, RB], materials=[{"tan_phi": 0.5}, {"model": "linel6", "tan_phi": 0.125}],
             bodies=bodies(OVERLAP, 0, (0, 0, 8.0), (0, 0, 8.0)), nsteps=6),
    ],
    "linel6": [
        dict(name="six-springs", what="elastic in all six relative motions: normal total, the others incremental",
             dt=DT, radii=[0.01, 0.015], masses=M, materials=[{"kt_div_kn": 0.3}, {"kt_div_kn": 0.5}],
             law=dict(char_len=0.02),
             steps=ramp(-5e-7, -1e-7, 5, vel=(0, 0.2, -0.1), angvel=(3.0, -2.0, 5.0))),
        dict(name="bodies-twist-roll", what="two blocked spheres spinning opposite ways about x (twist) and z "
             "(rolling without slip)", dt=DTB, radii=[RB, RB], materials=[{}, {}], law=dict(char_len=0.01),
             bodies=bodies(OVERLAP, 0, (-40.0, 0, -50.0), (40.0, 0, 50.0)), nsteps=4),
    ],
    "ice": [
        dict(name="bond-tension", what="bonded in all senses, pulled apart: breaks in tension (F_n > F_nb), "
             "the bond's springs released as broken and the contact goes",
             dt=DT, radii=R, masses=M, materials=[{"young": 1e9, "break_n": 1e-4}, {"young": 1e9, "break_n": 1e-4}],
             law=dict(bonds0=255),
             steps=ramp(0.0, 3e-7, 8)),
        dict(name="bond-shear", what="bonded, sheared past F_tb: every bond breaks, the shear force comes back "
             "to the friction limit the same step (booked as broken)",
             dt=DT, radii=R, masses=M, materials=[{"tan_phi": 0.05}, {"tan_phi": 0.05}],
             law=dict(bonds0=255, ini_eqlb=0), steps=ramp(-2e-6, 0, 6, vel=(0, 0.3, 0))),
        dict(name="unbonded-limits", what="unbonded: Coulomb shear, twist and rolling limits from the normal force",
             dt=DT, radii=R, masses=M, materials=[{"tan_phi": 0.4, "mu": 0.1}, {"tan_phi": 0.3, "mu": 0.2}],
             law=dict(ini_eqlb=0),
             steps=ramp(-1e-6, 0, 6, vel=(0, 0.3, 0.2), angvel=(40.0, 20.0, -30.0))),
        dict(name="unbonded-opens", what="unbonded contact pulled apart: goes, its shear and rolling springs booked "
             "as plastic", dt=DT, radii=R, masses=M, materials=[{}, {}], law=dict(ini_eqlb=0),
             steps=ramp(-3e-7, 0, 2, vel=(0, 0.1, 0), angvel=(0, 5.0, 0)) + [dict(uN=2e-8, vel=[0.32, 0.1, 0],
                                                                                   angvel=[0, 5.0, 0])]),
        dict(name="bodies-bond-retreat", what="two blocked spheres bonded at the start (bonds0), pulled apart: "
             "the bond breaks in tension and the contact goes", dt=DTB, radii=[RB, RB],
             materials=[{"break_n": 2e-5}, {"break_n": 2e-5}], law=dict(bonds0=255, ini_eqlb=0), bodies=RETREAT,
             nsteps=6),
        dict(name="bodies-twist-roll", what="unbonded spheres spinning opposite ways about x and z: twist and "
             "rolling springs up to their limits", dt=DTB, radii=[RB, RB], materials=[{"mu": 0.01}, {}],
             law=dict(ini_eqlb=0), bodies=bodies(OVERLAP, 0, (-12.0, 0, -8.0), (12.0, 0, 8.0)), nsteps=6),
    ],
    "hertz": [
        dict(name="impact", what="Hertz normal force with Tsuji damping (restitution 0.5): approach then "
             "rebound until the contact opens",
             dt=DT, radii=R, masses=M, materials=[{"young": 1e8}, {"young": 1e8}],
             steps=ramp(-1e-6, -1e-6, 4) + ramp(-4e-6, 1.5e-6, 3) + [dict(uN=5e-7, vel=[1.0, 0, 0])]),
        dict(name="impact-no-tension", what="the same impact with no_tension: the damping force is cut where the "
             "normal force would pull", dt=DT, radii=R, masses=M, materials=[{"young": 1e8}, {"young": 1e8}],
             law=dict(no_tension=1, restitution=0.2),
             steps=ramp(-1e-6, -1e-6, 4) + ramp(-4e-6, 1.5e-6, 3) + [dict(uN=5e-7, vel=[1.0, 0, 0])]),
        dict(name="slide", what="Mindlin tangential spring, stiffness changing with the overlap, Coulomb limit "
             "(no tangential damping while sliding)",
             dt=DT, radii=[0.01, 0.02], masses=M, materials=[{"poisson": 0.3, "tan_phi": 0.2}, {"poisson": 0.2}],
             steps=ramp(-2e-6, -1e-7, 4, vel=(0, 0.1, 0.04)) + ramp(-2.3e-6, 2e-7, 4, vel=(0, 0.1, 0.04))),
        dict(name="rolling", what="rolling resistance: elastic-plastic spring k_r = 2.25 mu_r^2 R*^2 k_n, limit "
             "mu_r R* F", dt=DT, radii=R, masses=M,
             materials=[{"rolling_friction": 0.1, "restitution": 0.9}, {"rolling_friction": 0.2}],
             law=dict(no_tension=1),
             steps=ramp(-3e-6, 0, 5, angvel=(0, 2000.0, -1000.0))),
        dict(name="bodies-approach", what="two blocked spheres, B approaching (no damping: the bodies do not "
             "move freely)", dt=DTB, radii=[RB, RB], materials=[{}, {}], bodies=APPROACH, nsteps=6),
        dict(name="bodies-rolling", what="two blocked spheres rolling on each other (opposite spins about z)",
             dt=DTB, radii=[RB, RB], materials=[{"rolling_friction": 0.3}, {"rolling_friction": 0.3}],
             bodies=bodies(OVERLAP, 0, (0, 0, -20.0), (0, 0, 20.0)), nsteps=7),
    ],
    "softbond": [
        dict(name="unbonded", what="Jiang-type contact: absolute normal force, shear, bending and twisting "
             "limits |Fs| <= mu |Fn|, |Mb| <= 0.525 |Fn| R, |Mt| <= 0.65 mu |Fn| R",
             dt=DT, radii=R, masses=M, materials=[{"tan_phi": 0.5}, {"tan_phi": 0.4}],
             steps=ramp(-1e-6, 0, 7, vel=(0, 0.2, 0.1), angvel=(60.0, 80.0, -40.0))),
        dict(name="bond-tension", what="bonded by the bond method, pulled: brittle failure in tension "
             "(sigma > sigma_c, zeta 0), springs released as broken; then unbonded and open",
             dt=DT, radii=R, masses=M, materials=[{"tan_phi": 0.3}, {"tan_phi": 0.3}],
             law=dict(sb_ten=5e3, sb_coh=1e9),
             steps=[dict(ramp(-1e-8, 0, 1)[0], method=["bond"])] + ramp(0.0, 5e-8, 6)),
        dict(name="bond-shear", what="bonded, sheared: shear failure (tau > c - sigma tan phi); the springs "
             "stay and meet the friction limits the next step (bond damage)",
             dt=DT, radii=R, masses=M, materials=[{"tan_phi": 0.3}, {"tan_phi": 0.3}],
             law=dict(sb_ten=1e9, sb_coh=5e4, sb_fa=30),
             steps=[dict(ramp(-2e-7, 0, 1)[0], method=["bond"])] + ramp(-2e-7, 0, 5, vel=(0, 1.0, 0))),
        dict(name="softening", what="bonded with tensile softening (zeta 2, gamma 0.3): on the envelope past "
             "sigma_c, unloaded inside it, reloaded onto it, broken in tension at gamma sigma_c",
             dt=DT, radii=R, masses=M, materials=[{"tan_phi": 0.3}, {"tan_phi": 0.3}],
             law=dict(sb_ten=5e3, sb_coh=1e9, sb_soft=2, sb_cut=0.3),
             steps=[dict(ramp(-1e-8, 0, 1)[0], method=["bond"])] + ramp(0.0, 4e-8, 5) + ramp(1.6e-7, -3e-8, 2) +
             ramp(1.0e-7, 4e-8, 7, angvel=(0, 3e-3, 0))),
        dict(name="bond-bending-2d", what="2D (a strip of unit thickness): bonded, bent about the out-of-plane "
             "axis until the peripheral stress beta |Mb| R / I passes sigma_c", dt=DT, dim=2, radii=R, masses=M,
             materials=[{"tan_phi": 0.3}, {"tan_phi": 0.3}], law=dict(sb_ten=5e3, sb_coh=1e9),
             steps=[dict(ramp(-1e-8, 0, 1)[0], method=["bond"])] + ramp(-1e-8, 0, 5, angvel=(0, 0, 4.0))),
        dict(name="unbonded-2d", what="2D unbonded: shear and bending limits, no twist",
             dt=DT, dim=2, radii=R, masses=M, materials=[{"tan_phi": 0.4}, {"tan_phi": 0.4}],
             steps=ramp(-1e-6, 0, 6, vel=(0, 0.2, 0), angvel=(50.0, 0, 90.0))),
        dict(name="dashpots", what="unbonded with dashpots: no net tension (dp_mode 1)",
             dt=DT, radii=R, masses=M, materials=[{"tan_phi": 0.5}, {"tan_phi": 0.5}],
             law=dict(dp_nratio=0.4, dp_sratio=0.3, dp_mode=1),
             steps=ramp(-5e-7, -2e-7, 2, vel=(0, 0.1, 0)) + ramp(-9e-7, 5e-7, 3, vel=(0, 0.1, 0))),
        dict(name="bodies-approach", what="two blocked spheres, B approaching: the normal force from the "
             "overlap (absolute, sb_mode 0)",
             dt=DTB, radii=[RB, RB], materials=[{"tan_phi": 0.5}, {"tan_phi": 0.5}], bodies=APPROACH, nsteps=6),
        dict(name="bodies-slide", what="two blocked spheres spinning the same way about z: sliding at w d",
             dt=DTB, radii=[RB, RB], materials=[{"tan_phi": 0.2}, {"tan_phi": 0.2}],
             bodies=bodies(OVERLAP, 0, (0, 0, 8.0), (0, 0, 8.0)), nsteps=6),
    ],
}


# ---- writing ----------------------------------------------------------------------------------

def num(x):
    if isinstance(x, str):
        return x
    if isinstance(x, int):
        return str(x)
    x = float(x)
    if math.isinf(x):
        return ".inf" if x > 0 else "-.inf"
    t = repr(x)
    return t


def flow(v):
    if isinstance(v, dict):
        return "{" + ", ".join("%s: %s" % (k, flow(x)) for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        if v and isinstance(v[0], str):
            return "[" + ", ".join(v) + "]"
        return "[" + ", ".join(flow(x) for x in v) + "]"
    return num(v)


def render(model):
    lines = [
        "# Reference contact forces of the %s model at fixed configurations, computed from the" % model,
        "# model's published formulas by tools/model_reference.py (which writes this file; do not",
        "# edit by hand), run by tests/test_model_reference.c: forces and torques on A in the",
        "# contact frame, energies of each step (elastic stored now; plastic, dashpot, broken",
        "# this step); keep 0: the law deletes the contact. Tolerance: 1e-12 x max(|value|, the",
        "# case's largest value of its kind). masses 0: a body that does not move freely.",
        "model: %s" % model,
        "cases:",
    ]
    for case in CASES[model]:
        steps = case.get("steps")
        if "bodies" in case:  # the contact's steps from the bodies' motion; none before it forms
            created, steps = body_steps(case)
            case = dict(case, masses=[0, 0], created=created)  # blocked bodies do not move freely
            rows = [dict(contact=0)] * created + MODELS[model](dict(case, steps=steps))
            steps = [None] * created + steps
        else:
            rows = MODELS[model](case)
        # rounding noise of a value that the formulas make zero (a spring's work less its change of
        # energy when nothing slips) is written as 0: below 1e-14 of the case's largest of its kind
        for kind in (("f",), ("m",), ("elastic", "plastic", "dashpot", "broken")):
            big = max([abs(x) for row in rows for k in kind if k in row
                       for x in (row[k] if isinstance(row[k], list) else [row[k]])] + [0.0])
            for row in rows:
                for k in kind:
                    if isinstance(row.get(k), list):
                        row[k] = [0.0 if abs(x) < 1e-14 * big else x for x in row[k]]
                    elif k in row and abs(row[k]) < 1e-14 * big:
                        row[k] = 0.0
        lines.append("  - name: %s" % case["name"])
        lines.append('    what: "%s"' % case["what"])
        for k in ("dt", "dim", "radii", "masses"):
            if k in case and not (k == "masses" and "bodies" in case):
                lines.append("    %s: %s" % (k, flow(case[k])))
        if "bodies" in case:
            lines.append("    bodies: %s" % flow(case["bodies"]))
        lines.append("    materials:")
        for m in case["materials"]:
            lines.append("      - %s" % flow(m))
        if case.get("law"):
            lines.append("    law: %s" % flow(case["law"]))
        lines.append("    steps:")
        for s, row in zip(steps, rows):
            if s is None:
                lines.append("      - {contact: 0}")
                continue
            lines.append("      - uN: %s" % num(s["uN"]))
            for k in ("vel", "angvel"):
                if any(s.get(k, [0, 0, 0])) and "bodies" not in case:
                    lines.append("        %s: %s" % (k, flow(s[k])))
            if "method" in s:
                lines.append("        method: %s" % flow(s["method"]))
            if row.get("keep", 1) != 1:
                lines.append("        keep: %d" % row["keep"])
            if row.get("broke"):
                lines.append("        broke: 1")
            for k in ("f", "m"):
                if k in row and row.get("keep", 1):
                    lines.append("        %s: %s" % (k, flow(row[k])))
            for k in ("elastic", "plastic", "dashpot", "broken"):
                if row.get(k):
                    lines.append("        %s: %s" % (k, num(row[k])))
            if row.get("state"):
                lines.append("        state: %s" % flow(row["state"]))
    return "\n".join(lines) + "\n"


def main(argv):
    check = "--check" in argv[1:]
    bad = 0
    os.makedirs(OUT, exist_ok=True)
    for model in CASES:
        text = render(model)
        path = os.path.join(OUT, model + ".yaml")
        if check:
            old = open(path).read() if os.path.exists(path) else None
            if old != text:
                print("%s: differs from what tools/model_reference.py writes" % os.path.relpath(path, ROOT))
                bad = 1
        else:
            with open(path, "w") as f:
                f.write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
