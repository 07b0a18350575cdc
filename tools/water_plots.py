#!/usr/bin/python3
"""Water validation pictures (docs/models/water.md#validation).

1. Heave: an ice sphere (R = 1 m, rho = 900 kg/m^3) floats in sea water
   (1025 kg/m^3), lifted 5 cm from its draft and released without drag. Its
   height against the small-amplitude motion z0 + a cos(2 pi t / T),
   T = 2 pi sqrt(m / (rho_w g A_wp)), the draft from the cubic of the
   spherical cap (tests/test_water_float.c).
2. Drift: a flat ice ellipsoid (2, 2, 0.3) m at its draft, released in a
   0.2 m/s current: u(t) against U t / (t + tau), tau = m / (K U),
   K = rho_w (C_w A_wet + C_d A_front / 2); and in a 20 m/s wind over a
   0.1 m/s current, started with the current: u - U = c tanh(t / tau_w),
   c = sqrt(W / K), tau_w = m / sqrt(K W), W = rho_a C_a A_dry U_a^2.

3. Free drift: the flat floe, and a floating ice sphere of radius 1 m,
   from rest in a 20 m/s wind over still water with the default drag (skin
   and form), and the flat floe with skin drag only: the terminal speed as
   a share of the wind's, against sqrt(W/K) / U_a.

Runs the scenes with the floe command and draws docs/img/water-heave.png and
docs/img/water-drift.png; --json writes the drift speeds the docs quote.

usage: /usr/bin/python3 tools/water_plots.py [--floe build/floe] [--out out/water-plots] [--img docs/img]
                                             [--json FILE]
Needs Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import csv
import json
import math
import os
import subprocess

G, RHO_W, RHO_I = 9.81, 1025.0, 900.0
C_W, C_D, RHO_A, C_A = 5.5e-3, 1.0, 1.3, 1.2e-3


def unit_draft(f):
    """Height of the surface above the centre of a unit sphere whose cap below holds f of its volume."""
    return 2 * math.cos((2 * math.pi - math.acos(1 - 2 * f)) / 3)


def run(floe, scene_text, out):
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "scene.yaml")
    with open(path, "w") as f:
        f.write(scene_text)
    subprocess.run([floe, "run", path, "--out", os.path.join(out, "run")], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "run", "history.csv")) as f:
        rows = list(csv.DictReader(f))
    return rows


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def heave(floe, out, img):
    plt = pyplot()
    R = 1.0
    f = RHO_I / RHO_W
    d = unit_draft(f) * R
    m = RHO_I * 4 / 3 * math.pi * R ** 3
    awp = math.pi * (R * R - d * d)
    T = 2 * math.pi * math.sqrt(m / (RHO_W * G * awp))
    z0, a, dt = -d, 0.05, T / 2000
    scene = f"""world: {{gravity: [0, 0, -{G}], dt: {dt!r}}}
water: {{level: 0, density: {RHO_W}, skin_drag: 0, form_drag: 0, rotational_drag: 0}}
materials:
  - {{name: ice, model: linear, density: {RHO_I}, young: 1e4}}  # no contacts: only the pre-run dt check reads it
particles:
  - {{pos: [0, 0, {z0 + a!r}], radius: {R}, material: ice}}
run: {{steps: {int(4 * T / dt)}}}
output:
  vtk: false
  history: {{every: 10, columns: [{{name: z, particle: 0, quantity: pos.z}}, {{name: t, counter: time}}]}}
"""
    rows = run(floe, scene, os.path.join(out, "heave"))
    t = [float(r["t"]) for r in rows]
    z = [float(r["z"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 3.9))
    ax.plot(t, [1e3 * (v - z0) for v in z], lw=2.5, color="#9ecae1", label="floe")
    ax.plot(t, [1e3 * a * math.cos(2 * math.pi * s / T) for s in t], "--", color="#08519c", lw=1,
            label=f"a cos(2πt/T), T = 2π√(m/(ρ_w g A_wp)) = {T:.4f} s")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("height above the draft (mm)")
    ax.set_title(f"Ice sphere (R = 1 m, ρ = {RHO_I:.0f}) heaving 5 cm in sea water, draft {R + d:.4f} m", fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(os.path.join(img, "water-heave.png"), dpi=110)
    print(f"heave: T = {T:.6f} s; picture {os.path.join(img, 'water-heave.png')}")


FLOE_AXES = (2.0, 2.0, 0.3)  # the flat floe: an ellipsoid's semi-axes [m]


def floe_drag():
    """Mass, water drag factor K = rho_w (C_w A_wet + C_d A_front / 2) and dry
    footprint of the flat floe floating at its draft; its draft d."""
    a, b, c = FLOE_AXES
    delta = unit_draft(RHO_I / RHO_W)
    m = RHO_I * 4 / 3 * math.pi * a * b * c
    a_wet = math.pi * a * b
    front = b * c * (math.acos(-delta) + delta * math.sqrt(1 - delta * delta))
    a_dry = math.pi * a * b * (1 - delta * delta)
    return m, RHO_W * (C_W * a_wet + 0.5 * C_D * front), a_dry, delta * c


def sphere_drag(r=1.0):
    """The same for an ice sphere of radius r: wet footprint the section through the
    centre (the surface lies above it), front the submerged part of the silhouette."""
    delta = unit_draft(RHO_I / RHO_W)
    m = RHO_I * 4 / 3 * math.pi * r ** 3
    front = r * r * (math.asin(delta) + math.pi / 2 + delta * math.sqrt(1 - delta * delta))
    a_dry = math.pi * r * r * (1 - delta * delta)
    return m, RHO_W * (C_W * math.pi * r * r + 0.5 * C_D * front), a_dry, delta * r


def drift_scene(case):
    """The scene of a drift run and (dt, U, the closed form's parameters):
    current  the flat floe released at rest in a 0.2 m/s current;
    wind     the flat floe in a 20 m/s wind over a 0.1 m/s current, started with the current;
    floe, floe_skin, sphere  free drift from rest in a 20 m/s wind over still water, the
             flat floe with the default drag (skin and form), the flat floe with skin drag
             only (form_drag: 0), a floating ice sphere of radius 1 m with the default drag."""
    U = {"current": 0.2, "wind": 0.1}.get(case, 0.0)
    Ua = 0.0 if case == "current" else 20.0
    m, K, a_dry, d = sphere_drag() if case == "sphere" else floe_drag()
    if case == "floe_skin":
        a, b, c = FLOE_AXES
        K = RHO_W * C_W * math.pi * a * b
    if case == "current":
        tau = m / (K * U)
        dt, steps, par = tau / 2000, 8000, {"tau": tau, "U": U}
    else:
        W = RHO_A * C_A * a_dry * Ua * Ua
        c, tau_w = math.sqrt(W / K), m / math.sqrt(K * W)
        # free drift: 8 time constants (tanh(8) = 1 - 2e-7), at most 0.05 s a step (the check of dt
        # against the material's stiffness)
        dt = tau_w / 2000 if case == "wind" else min(tau_w / 2000, 0.05)
        steps, par = (8000 if case == "wind" else math.ceil(8 * tau_w / dt)), {"c": c, "tau_w": tau_w, "U": U, "Ua": Ua}
    water = f"level: 0, current: [{U}, 0, 0]" + (f", wind: [{Ua}, 0, 0]" if Ua else "")
    water += ", form_drag: 0" if case == "floe_skin" else ""
    if case == "sphere":
        body = f"particles:\n  - {{pos: [0, 0, {-d!r}], radius: 1.0, material: ice}}"
    else:
        body = (f"ellipsoids:\n  - {{pos: [0, 0, {-d!r}], vel: [{U}, 0, 0], semi_axes: [{', '.join(map(str, FLOE_AXES))}],"
                f" material: ice}}")
    scene = f"""world: {{gravity: [0, 0, -{G}], dt: {dt!r}}}
water: {{{water}}}
materials:
  - {{name: ice, model: linear, density: {RHO_I}, young: 1e4}}  # no contacts: only the pre-run dt check reads it
{body}
run: {{steps: {steps}}}
output:
  vtk: false
  history: {{every: 20, columns: [{{name: u, particle: 0, quantity: vel.x}}, {{name: t, counter: time}}]}}
"""
    return scene, dict(par, dt=dt)


def drift(floe, out, img):
    plt = pyplot()
    fig, axs = plt.subplots(1, 2, figsize=(10, 3.6))
    # released at rest in a current
    scene, p = drift_scene("current")
    U, tau, dt = p["U"], p["tau"], p["dt"]
    rows = run(floe, scene, os.path.join(out, "current"))
    t = [float(r["t"]) - dt / 2 for r in rows]
    u = [float(r["u"]) for r in rows]
    ax = axs[0]
    ax.plot(t, u, lw=2.5, color="#a1d99b", label="floe")
    ax.plot(t, [U * s / (s + tau) for s in t], "--", color="#006d2c", lw=1, label=f"U t/(t + τ), τ = m/(KU) = {tau:.2f} s")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("drift speed (m/s)")
    ax.set_title(f"Released in a {U} m/s current")
    ax.legend(loc="lower right", fontsize=8)
    # in a wind over a current, starting with the current
    scene, p = drift_scene("wind")
    U, Ua, cx, tau_w, dt = p["U"], p["Ua"], p["c"], p["tau_w"], p["dt"]
    rows = run(floe, scene, os.path.join(out, "wind"))
    t = [float(r["t"]) - dt / 2 for r in rows]
    u = [float(r["u"]) for r in rows]
    ax = axs[1]
    ax.plot(t, u, lw=2.5, color="#fdae6b", label="floe")
    ax.plot(t, [U + cx * math.tanh(s / tau_w) for s in t], "--", color="#a63603", lw=1,
            label=f"U + c tanh(t/τ_w), c = √(W/K), τ_w = {tau_w:.1f} s")
    ax.axhline(U + cx, color="grey", lw=0.6)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("drift speed (m/s)")
    ax.set_title(f"{Ua:.0f} m/s wind over a {U} m/s current")
    ax.legend(loc="lower right", fontsize=8)
    fig.suptitle("Flat ice floe (2 × 2 × 0.3 m ellipsoid): quadratic skin, form and wind drag", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(img, "water-drift.png"), dpi=110)
    print(f"drift: tau = {tau:.4f} s, free drift {U + cx:.6f} m/s (tau_w = {tau_w:.3f} s); "
          f"picture {os.path.join(img, 'water-drift.png')}")
    return {"drift_wind_free_ms": float(u[-1]), "drift_wind_closed_ms": U + cx}


def free_drift(floe, out):
    """Free drift from rest in a wind over still water, as a share of the wind speed (%):
    measured (the last sample, 8 time constants in) and the closed form sqrt(W/K) / U_a."""
    res = {}
    for case in ("floe", "floe_skin", "sphere"):
        scene, p = drift_scene(case)
        rows = run(floe, scene, os.path.join(out, "free_" + case))
        res[f"free_{case}_pct"] = 100 * float(rows[-1]["u"]) / p["Ua"]
        res[f"free_{case}_closed_pct"] = 100 * p["c"] / p["Ua"]
        print(f"free drift, {case}: {res[f'free_{case}_pct']:.4f} % of the wind "
              f"(closed form {res[f'free_{case}_closed_pct']:.4f} %)")
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--floe", default="build/floe")
    p.add_argument("--out", default="out/water-plots")
    p.add_argument("--img", default="docs/img")
    p.add_argument("--json", help="also write the numbers the docs quote into this file")
    args = p.parse_args()
    os.makedirs(args.img, exist_ok=True)
    heave(args.floe, args.out, args.img)
    nums = drift(args.floe, args.out, args.img)
    nums.update(free_drift(args.floe, args.out))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(nums, f, indent=1)


if __name__ == "__main__":
    main()
