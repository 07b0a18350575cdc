#!/usr/bin/python3
"""Level ice against a sloping structure: floe against Croasdale's 2D model
(docs/models/water.md#level-ice-against-a-slope).

1. Three-point bending, in air, of a beam cut from the same bonded Ice
   lattice as the sheet (one layer of spheres, or two): simply supported on
   two fixed spheres a span L apart, loaded at mid-span by a sphere pushed
   down at a small constant speed. The elastic slope of load against
   mid-span deflection gives E = P L^3 / (48 w I), I = b h^3 / 12; the peak
   load gives the flexural strength sigma_f = 3 P L / (2 b h^2).
2. A floating sheet of the same lattice, pushed by a row of driven spheres
   (and carried by a current of the same speed) into a fixed ramp at slope
   alpha. The mean horizontal force on the ramp over the second half of the
   push is compared with Croasdale's 2D load per unit width (ISO 19906),
       H = H_B + H_R,
       H_B = 0.68 xi sigma_f (rho_w g h^5 / E)^(1/4),
       H_R = P / (cos a - mu sin a),  P = W_r (sin a + mu cos a),
       xi  = (sin a + mu cos a) / (cos a - mu sin a),
   W_r the weight per unit width of the ice riding up on the slope, measured
   as the particles whose centres are lifted out of the floating sheet
   (and, for comparison, W_r = rho_i g h z / sin a with z the ramp's height
   above the water: the slope covered to its top).

The sheet is a strip of the 2D problem: its particles move in the x-z plane
(y translation and rotations about x and z blocked).

usage: /usr/bin/python3 tools/croasdale_study.py [--floe build/floe] [--out out/croasdale]
                                                 [--img docs/img] [--quick] [--json FILE]
       /usr/bin/python3 tools/croasdale_study.py --demo-line --e E --sigma SIGMA [--json FILE]
Writes docs/img/croasdale.png and prints the table of docs/models/water.md
(--json: the numbers that page quotes, for tools/doc_numbers.py).
--demo-line prints the prediction the demo's load is drawn against, from
the two-layer lattice's E and sigma_f.
Needs Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys

G, RHO_W, RHO_I = 9.81, 1025.0, 900.0
R = 0.1  # sphere radius [m]; lattice spacing 2R
MU = 0.1  # ice-ramp friction (min of the pair: the ramp's tan_phi)
YOUNG = 1e7  # softened (docs/softened-modulus.md)
BREAK_N = 2.8e-3  # bond strength c_n = break_n E = 28 kPa
BETA_R = 0.25  # rolling strength T_rb = beta_r c_n A sqrt(A)

ICE = f"""  - name: ice
    model: ice
    density: {RHO_I}
    young: {YOUNG}
    kt_div_kn: 0.3
    tan_phi: 0.3
    break_n: {BREAK_N}
    alpha_w: 0.159
    alpha_r: 0.0796
    beta_t: 1.0
    beta_w: 0.5
    beta_r: {BETA_R}
    mu: 0.05
"""
ICE_MODEL = """models:
  ice:
    bonds0: [bondN, bondT, bondW, bondR, brkN, brkT, brkW, brkR]
    bonds1: 0
    bond_tol: 1e-3
"""


def unit_draft(f):
    """Height of the surface above the centre of a unit sphere whose cap below holds f of its volume."""
    return 2 * math.cos((2 * math.pi - math.acos(1 - 2 * f)) / 3)


def water_level(layers):
    """Level at which a lattice of `layers` layers (bottom centres at z = 0) floats:
    the lower layers are under water, the top layer holds the rest of the buoyancy."""
    f_top = layers * RHO_I / RHO_W - (layers - 1)
    return 2 * R * (layers - 1) + unit_draft(f_top) * R


def foundation_k(layers):
    """Foundation modulus of the lattice on water: rho_w g times the top layer's
    waterplane per lattice cell (l = 2R)."""
    d = water_level(layers) - 2 * R * (layers - 1)
    return RHO_W * G * math.pi * (R * R - d * d) / (4 * R * R)


def run(floe, text, out):
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "scene.yaml")
    with open(path, "w") as f:
        f.write(text)
    subprocess.run([floe, "run", path, "--out", os.path.join(out, "run"), "--threads", "1"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, "run", "history.csv")) as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


# ---- 1. three-point bending in air ------------------------------------------------------


def bending_scene(layers):
    """The three-point bending scene of a beam of `layers` layers, and its geometry."""
    ny = 2
    span_cells = 20 if layers == 1 else 30  # span L = 2R x cells: L/h = 20 and 15
    nx = span_cells + 5
    i0, i1, ic = 2, 2 + span_cells, 2 + span_cells // 2
    L, b, h = 2 * R * span_cells, 2 * R * ny, 2 * R * layers
    v = 0.01  # pin speed [m/s]
    zs = math.sqrt((2 * R) ** 2 - R * R)  # a support sphere at y = R touches both chains
    ztop = 2 * R * (layers - 1)

    def pid(i, j, k):
        return i + nx * (j + ny * k)

    cols = [{"name": "P", "group": "pin", "quantity": "force.z"}]
    for tag, i in (("c", ic), ("a", i0), ("b", i1)):
        for j in range(ny):
            cols.append({"name": f"z{tag}{j}", "particle": pid(i, j, 0), "quantity": "pos.z"})
    col_text = "\n".join(
        f"      - {{name: {c['name']}, {'group' if 'group' in c else 'particle'}: "
        f"{c.get('group', c.get('particle'))}, quantity: {c['quantity']}}}" for c in cols)
    t_end = 0.5 * h / v if layers == 1 else 0.4 * h / v
    text = f"""world: {{gravity: [0, 0, 0], dt: auto, damping: 0.2}}
run: {{time: {t_end}}}
materials:
{ICE}  - {{name: support, model: linear, density: 7800, young: 1e8, tan_phi: 0.0}}
{ICE_MODEL}groups:
  - {{name: pin, velocity: [0, 0, {-v}]}}
generators:
  - lattice: {{origin: [0, 0, 0], spacing: {2 * R}, counts: [{nx}, {ny}, {layers}], radius: {R}, material: ice, group: beam}}
particles:
  - {{pos: [{2 * R * i0}, {R}, {-zs}], radius: {R}, material: support, fixed: true}}
  - {{pos: [{2 * R * i1}, {R}, {-zs}], radius: {R}, material: support, fixed: true}}
  - {{pos: [{2 * R * ic}, {R}, {ztop + zs}], radius: {R}, material: support, group: pin}}
output:
  vtk: false
  history:
    every: 20
    columns:
      - {{name: t, counter: time}}
      - {{name: breaks, counter: breaks}}
{col_text}
"""
    return text, {"ny": ny, "L": L, "b": b, "h": h}


def bending(floe, out, layers):
    """Returns (E, sigma_f, rows, geometry) of the three-point bending test."""
    text, geo = bending_scene(layers)
    ny, L, b, h = geo["ny"], geo["L"], geo["b"], geo["h"]
    rows = run(floe, text, os.path.join(out, f"bend{layers}"))
    for r in rows:
        zc = sum(r[f"zc{j}"] for j in range(ny)) / ny
        ze = sum(r[f"z{t}{j}"] for t in "ab" for j in range(ny)) / (2 * ny)
        r["w"] = ze - zc
    peak = max(rows, key=lambda r: r["P"])
    # elastic slope: least squares through the origin over 10-50 % of the peak load, before any break
    pts = [(r["w"], r["P"]) for r in rows if 0.1 * peak["P"] <= r["P"] <= 0.5 * peak["P"] and r["breaks"] == 0]
    k = sum(w * p for w, p in pts) / sum(w * w for w, p in pts)
    inertia = b * h ** 3 / 12
    E = k * L ** 3 / (48 * inertia)
    sigma = 3 * peak["P"] * L / (2 * b * h * h)
    return E, sigma, rows, {"L": L, "b": b, "h": h, "P_peak": peak["P"], "w_peak": peak["w"]}


def lattice_e(layers):
    """E of the lattice in pure bending (Euler-Bernoulli): rolling springs k_r = kn R^2 / 4
    (alpha_r = 1 / 4 pi) give each chain EI = pi E R^4 / 4; the normal springs of
    layers at distance z_k from the mid-plane add pi R^2 E z_k^2. Per column of width 2R."""
    zmid = R * (layers - 1)
    ei = sum(math.pi * YOUNG * R ** 4 / 4 + math.pi * R * R * YOUNG * (2 * R * k - zmid) ** 2 for k in range(layers))
    h = 2 * R * layers
    return ei / (2 * R * h ** 3 / 12)


def lattice_sigma(layers):
    """Flexural strength of the lattice in pure bending: the moment at which the first bond
    breaks (one layer: the rolling moment T_rb = beta_r c_n A sqrt(A); several: the normal
    bond of the outer layer, its share of the moment by stiffness)."""
    c_n, area = BREAK_N * YOUNG, math.pi * R * R
    h = 2 * R * layers
    if layers == 1:
        m = BETA_R * c_n * area * math.sqrt(area)
    else:
        zmid = R * (layers - 1)
        kr = math.pi * YOUNG * R ** 4 / 4
        ei = lattice_e(layers) * 2 * R * h ** 3 / 12
        # normal force of the outer layer = M z EA / EI, EA = pi R^2 E; rolling moment = M kr / EI
        m_n = c_n * area * ei / (zmid * math.pi * R * R * YOUNG)
        m_r = BETA_R * c_n * area * math.sqrt(area) * ei / kr
        m = min(m_n, m_r)
    return 6 * m / (2 * R * h * h)


# ---- 2. the sheet against the ramp ------------------------------------------------------


def xi(alpha):
    s, c = math.sin(alpha), math.cos(alpha)
    return (s + MU * c) / (c - MU * s)


def croasdale_hb(alpha, sigma, E, h, k=RHO_W * G):
    return 0.68 * xi(alpha) * sigma * (k * h ** 5 / E) ** 0.25


def croasdale_hr(alpha, weight):
    """Ride-up load per unit width from the weight per unit width of ice on the slope."""
    s, c = math.sin(alpha), math.cos(alpha)
    return weight * (s + MU * c) / (c - MU * s)


def breaking_peaks(rows, t0, width, window=0.1, merge=0.25):
    """The load of each breaking cycle: the largest `window`-mean of the horizontal load per
    unit width between one breaking event and the next (bonds breaking less than `merge`
    apart count as one event), for the events after t0."""
    t = [r["t"] for r in rows]
    f = [r["fx"] / width for r in rows]
    n = max(1, int(round(window / (t[1] - t[0]))))
    smooth = [sum(f[max(0, i - n + 1):i + 1]) / (i + 1 - max(0, i - n + 1)) for i in range(len(f))]
    events = []
    for i in range(1, len(rows)):
        if rows[i]["breaks"] > rows[i - 1]["breaks"] and (not events or t[i] - t[events[-1]] > merge):
            events.append(i)
    return [max(smooth[(events[k - 1] if k else 0):i + 1]) for k, i in enumerate(events) if t[i] >= t0]


def slope_scene(layers, alpha_deg, v, quick=False):
    """The scene of a sheet of `layers` layers pushed at v into a ramp at alpha_deg, and its geometry."""
    a = math.radians(alpha_deg)
    ny = 5
    nx = 30 if quick else 50
    W, h = 2 * R * ny, 2 * R * layers
    level = water_level(layers)
    z_ride = 0.3  # ramp top above the water [m]
    x_front = 2 * R * nx  # the sheet: x in [2R, 2R nx] (pusher row at x = 0)
    x_toe_w = x_front + R + 0.2  # where the ramp crosses the water level
    z_bot = -1.0
    x_toe = x_toe_w - (level - z_bot) / math.tan(a)
    x_top = x_toe_w + z_ride / math.tan(a)
    z_top = level + z_ride
    push = 3.0 if quick else 5.0
    t_end = push / v
    lifted = 2 * R * (layers - 1) + 1.0 * R  # a centre lifted by one radius above its floating place
    text = f"""# Level ice ({layers} layer(s), h = {h} m) pushed at {v} m/s into a {alpha_deg} degree ramp
world: {{gravity: [0, 0, {-G}], dt: auto}}
run: {{time: {t_end}}}
water: {{level: {level!r}, density: {RHO_W}, current: [{v}, 0, 0]}}
materials:
{ICE}  - {{name: steel, model: linear, density: 7800, young: 1e8, tan_phi: {MU}}}
{ICE_MODEL}groups:
  - {{name: pusher, velocity: [{v}, 0, 0]}}
facets:
  - {{vertices: [[{x_toe!r}, -1, {z_bot}], [{x_top!r}, -1, {z_top!r}], [{x_toe!r}, {W + 1}, {z_bot}]], material: steel, group: ramp}}
  - {{vertices: [[{x_top!r}, -1, {z_top!r}], [{x_top!r}, {W + 1}, {z_top!r}], [{x_toe!r}, {W + 1}, {z_bot}]], material: steel, group: ramp}}
generators:
  - lattice: {{origin: [0, {R}, 0], spacing: {2 * R}, counts: [1, {ny}, {layers}], radius: {R}, material: ice, group: pusher, vel: [{v}, 0, 0]}}
  - lattice: {{origin: [{2 * R}, {R}, 0], spacing: {2 * R}, counts: [{nx - 1}, {ny}, {layers}], radius: {R}, material: ice, group: sheet, vel: [{v}, 0, 0], block: yXZ}}
output:
  vtk: false
  regions:
    - {{name: ride, min: [{x_toe_w - 3.0!r}, -1, {lifted!r}], max: [{x_top + 0.05!r}, {W + 1}, {z_top + 5!r}]}}
  history:
    interval: {0.02 if v < 0.4 else 0.01}
    columns:
      - {{name: t, counter: time}}
      - {{name: fx, group: ramp, quantity: force.x}}
      - {{name: fz, group: ramp, quantity: force.z}}
      - {{name: ride, region: ride, quantity: particles}}
      - {{name: breaks, counter: breaks}}
"""
    return text, {"a": a, "W": W, "h": h, "z_ride": z_ride, "t_end": t_end}


def slope(floe, out, layers, alpha_deg, v, quick=False):
    text, geo = slope_scene(layers, alpha_deg, v, quick)
    a, W, h, z_ride, t_end = geo["a"], geo["W"], geo["h"], geo["z_ride"], geo["t_end"]
    tag = f"slope{layers}_{alpha_deg}_{v}"
    rows = run(floe, text, os.path.join(out, tag))
    steady = [r for r in rows if r["t"] >= t_end / 2]
    fx = sum(r["fx"] for r in steady) / len(steady) / W
    fz = sum(r["fz"] for r in steady) / len(steady) / W
    n_ride = sum(r["ride"] for r in steady) / len(steady)
    peaks = breaking_peaks(rows, t_end / 2, W)
    w_ride = n_ride * RHO_I * 4 / 3 * math.pi * R ** 3 * G / W  # weight per unit width on the slope
    return {"rows": rows, "H": fx, "peaks": peaks, "V": fz, "W_ride": w_ride, "z_ride": z_ride, "a": a,
            "W_full": RHO_I * G * h * z_ride / math.sin(a), "t_end": t_end, "W": W}


def demo_line(E, sigma):
    """Croasdale's 2D load on the demo's ramp (examples/ice-on-water.yaml): the
    two-layer lattice of this study with bonds twice as strong (the strengths
    scale with break_n, the modulus does not), a 45 degree ramp rising 0.2 m
    above the water, ride-up of ice covering the slope to its top, over the
    sheet's 3.2 m width."""
    a, h, z, width = math.radians(45), 0.4, 0.2, 3.2
    hb = croasdale_hb(a, 2 * sigma, E, h)
    hr = croasdale_hr(a, RHO_I * G * h * z / math.sin(a))
    return {"line_HB": hb, "line_HR": hr, "line_H": hb + hr, "line_N": (hb + hr) * width,
            "line_kN": (hb + hr) * width / 1e3, "line_E_MPa": E / 1e6, "line_sigma_kPa": 2 * sigma / 1e3}


def numbers(table, bends):
    """The numbers docs/models/water.md quotes, for --json."""
    out = {}
    for layers, (E, sigma, rows, geo) in bends.items():
        le, ls = lattice_e(layers), lattice_sigma(layers)
        out.update({f"E_{layers}": E, f"sigma_{layers}": sigma, f"E_{layers}_MPa": E / 1e6,
                    f"E_{layers}_dev_pct": 100 * (E / le - 1), f"sigma_{layers}_kPa": sigma / 1e3,
                    f"lattice_E_{layers}_MPa": le / 1e6, f"lattice_sigma_{layers}_kPa": ls / 1e3,
                    f"hbk_drop_{layers}_pct": 100 * (1 - (foundation_k(layers) / (RHO_W * G)) ** 0.25)})
    for r in table:
        k = f"L{r['layers']}_v{round(10 * r['v']):02d}_a{r['alpha']}_"
        out.update({k + "mean": r["H"], k + "ratio": r["ratio"], k + "HB": r["HB"], k + "pred": r["pred"],
                    k + "brk": r["Hpk"], k + "cycles": r["npk"], k + "brk_ratio": r["Hpk"] / r["pred"]})
    broke = [r for r in table if r["npk"]]
    out.update({"mean_ratio_min": min(r["ratio"] for r in table), "mean_ratio_max": max(r["ratio"] for r in table),
                "brk_ratio_min": min(r["Hpk"] / r["pred"] for r in broke),
                "brk_ratio_max": max(r["Hpk"] / r["pred"] for r in broke),
                "brk_hb_min": min(r["Hpk"] / r["HB"] for r in broke),
                "brk_hb_max": max(r["Hpk"] / r["HB"] for r in broke),
                "mean_brk_min": min(r["H"] / r["Hpk"] for r in broke),
                "mean_brk_max": max(r["H"] / r["Hpk"] for r in broke),
                "mean_brk_avg": sum(r["H"] / r["Hpk"] for r in broke) / len(broke),
                "runs": len(table), "no_break_runs": len(table) - len(broke)})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--floe", default="build/floe")
    ap.add_argument("--out", default="out/croasdale")
    ap.add_argument("--img", default="docs/img")
    ap.add_argument("--quick", action="store_true", help="one angle, one speed, one thickness")
    ap.add_argument("--json", help="also write the numbers the docs quote into this file")
    ap.add_argument("--demo-line", action="store_true",
                    help="only print (and write to --json) the demo's prediction from --e and --sigma")
    ap.add_argument("--e", type=float, help="the two-layer lattice's E (Pa) for --demo-line")
    ap.add_argument("--sigma", type=float, help="the two-layer lattice's sigma_f (Pa) for --demo-line")
    args = ap.parse_args()
    if args.demo_line:
        line = demo_line(args.e, args.sigma)
        print("demo: H_B = %.0f N/m, H_R = %.0f N/m, H = %.0f N/m, %.0f N over the width" % (
            line["line_HB"], line["line_HR"], line["line_H"], line["line_N"]))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(line, f, indent=1)
        return 0
    layers_list = [1] if args.quick else [1, 2]
    angles = [45] if args.quick else [30, 40, 50, 60]
    speeds = [0.4] if args.quick else [0.2, 0.4]
    table, bends = [], {}
    for layers in layers_list:
        E, sigma, rows, geo = bending(args.floe, args.out, layers)
        bends[layers] = (E, sigma, rows, geo)
        print(f"bending, {layers} layer(s): E = {E:.4g} Pa (pure bending of the lattice {lattice_e(layers):.4g}), "
              f"sigma_f = {sigma:.4g} Pa (first bond in pure bending {lattice_sigma(layers):.4g}), "
              f"P_peak = {geo['P_peak']:.4g} N at w = {geo['w_peak']:.4g} m", flush=True)
        h = 2 * R * layers
        for v in speeds:
            for alpha in angles:
                s = slope(args.floe, args.out, layers, alpha, v, quick=args.quick)
                a = s["a"]
                hb = croasdale_hb(a, sigma, E, h)
                hb_k = croasdale_hb(a, sigma, E, h, foundation_k(layers))
                hr = croasdale_hr(a, s["W_ride"])
                hr_full = croasdale_hr(a, s["W_full"])
                pk = sum(s["peaks"]) / len(s["peaks"]) if s["peaks"] else float("nan")
                row = dict(layers=layers, h=h, v=v, alpha=alpha, H=s["H"], V=s["V"], Hpk=pk, npk=len(s["peaks"]), HB=hb, HBk=hb_k, HR=hr,
                           HRfull=hr_full, pred=hb + hr, ratio=s["H"] / (hb + hr), Wr=s["W_ride"])
                table.append(row)
                print(f"  {layers} layer(s) v = {v} m/s alpha = {alpha}: H = {s['H']:.1f} N/m, "
                      f"H_B = {hb:.1f} (with the lattice's foundation {hb_k:.1f}), H_R = {hr:.1f} "
                      f"(ride-up weight {s['W_ride']:.1f} N/m; slope covered to the top {hr_full:.1f}), "
                      f"H_B + H_R = {hb + hr:.1f}, measured / predicted = {s['H'] / (hb + hr):.3f}; "
                      f"breaking load {pk:.1f} N/m over {len(s['peaks'])} cycles ({pk / (hb + hr):.3f} of H_B + H_R)",
                      flush=True)
                s.pop("rows")
    lines = ["| layers | h (m) | v (m/s) | α (°) | ξ | H_B (N/m) | ride-up weight (N/m) | H_R (N/m) | H_B + H_R (N/m) "
             "| mean load (N/m) | mean / (H_B + H_R) | breaking load (N/m), cycles | breaking / (H_B + H_R) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in table:
        brk = (f"{r['Hpk']:.0f}, {r['npk']} | {r['Hpk'] / r['pred']:.2f}" if r["npk"] else "–, 0 | –")
        lines.append(f"| {r['layers']} | {r['h']:.1f} | {r['v']} | {r['alpha']} | {xi(math.radians(r['alpha'])):.3f} "
                     f"| {r['HB']:.0f} | {r['Wr']:.0f} | {r['HR']:.0f} | {r['pred']:.0f} | {r['H']:.0f} | {r['ratio']:.2f} "
                     f"| {brk} |")
    print("\n" + "\n".join(lines))
    if args.json:
        nums = numbers(table, bends)
        nums["table"] = "\n".join(lines)
        with open(args.json, "w") as f:
            json.dump(nums, f, indent=1)
    plot(args, table, bends)


def plot(args, table, bends):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1, 1.5]})
    for layers, (E, sigma, rows, geo) in bends.items():
        w = [1e3 * r["w"] for r in rows]
        p = [r["P"] for r in rows]
        ax0.plot(w, p, label=f"{layers} layer(s): E = {E / 1e6:.2f} MPa, σ_f = {sigma / 1e3:.1f} kPa")
        k = 48 * E * geo["b"] * geo["h"] ** 3 / 12 / geo["L"] ** 3
        ax0.plot([0, geo["w_peak"] * 1e3], [0, k * geo["w_peak"]], "k:", lw=0.8)
    ax0.set_xlabel("mid-span deflection (mm)")
    ax0.set_ylabel("load P (N)")
    ax0.set_title("three-point bending in air", fontsize=10)
    ax0.legend(fontsize=8)
    markers = {1: "o", 2: "s"}
    colours = {0.2: "#1f77b4", 0.4: "#d62728"}
    for r in table:
        dx = 0.6 if r["v"] == 0.4 else -0.6
        ax1.plot(r["alpha"] + dx, r["H"], markers[r["layers"]], color=colours.get(r["v"], "k"), ms=7)
        ax1.plot(r["alpha"] + dx, r["Hpk"], markers[r["layers"]], color=colours.get(r["v"], "k"), ms=7, mfc="none")
    for layers in sorted({r["layers"] for r in table}):
        rs = sorted([r for r in table if r["layers"] == layers and r["v"] == table[0]["v"]], key=lambda r: r["alpha"])
        ax1.plot([r["alpha"] for r in rs], [r["pred"] for r in rs], "--", color="k", lw=1)
        ax1.text(rs[-1]["alpha"] + 1, rs[-1]["pred"], f"{layers} layer(s)", fontsize=8, va="center")
        ax1.plot([r["alpha"] for r in rs], [r["HB"] for r in rs], ":", color="grey", lw=1)
    for v, c in colours.items():
        ax1.plot([], [], "o", color=c, label=f"floe, v = {v} m/s: mean load (filled), breaking load (open)")
    ax1.plot([], [], "ko", label="1 layer (h = 0.2 m)")
    ax1.plot([], [], "ks", label="2 layers (h = 0.4 m)")
    ax1.plot([], [], "k--", label="Croasdale H_B + H_R")
    ax1.plot([], [], ":", color="grey", label="Croasdale H_B alone")
    ax1.set_xlabel("slope α (°)")
    ax1.set_ylabel("mean horizontal load per width (N/m)")
    ax1.set_title("level ice against a slope: floe vs Croasdale (ISO 19906)", fontsize=10)
    ax1.set_xlim(25, 67)
    ax1.legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(args.img, exist_ok=True)
    png = os.path.join(args.img, "croasdale.png" if not args.quick else "croasdale-quick.png")
    fig.savefig(png, dpi=110)
    print(f"wrote {png}")


if __name__ == "__main__":
    sys.exit(main())
