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

Runs the scenes with the floe command and draws docs/img/water-heave.png and
docs/img/water-drift.png.

usage: /usr/bin/python3 tools/water_plots.py [--floe build/floe] [--out out/water-plots] [--img docs/img]
Needs Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import csv
import math
import os
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

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


def heave(floe, out, img):
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


def drift(floe, out, img):
    a, b, c = 2.0, 2.0, 0.3
    delta = unit_draft(RHO_I / RHO_W)
    d = delta * c
    m = RHO_I * 4 / 3 * math.pi * a * b * c
    a_wet = math.pi * a * b
    front = b * c * (math.acos(-delta) + delta * math.sqrt(1 - delta * delta))
    a_dry = math.pi * a * b * (1 - delta * delta)
    K = RHO_W * (C_W * a_wet + 0.5 * C_D * front)
    fig, axs = plt.subplots(1, 2, figsize=(10, 3.6))
    # released at rest in a current
    U = 0.2
    tau = m / (K * U)
    dt = tau / 2000
    scene = f"""world: {{gravity: [0, 0, -{G}], dt: {dt!r}}}
water: {{level: 0, current: [{U}, 0, 0]}}
materials:
  - {{name: ice, model: linear, density: {RHO_I}, young: 1e4}}  # no contacts: only the pre-run dt check reads it
ellipsoids:
  - {{pos: [0, 0, {-d!r}], semi_axes: [{a}, {b}, {c}], material: ice}}
run: {{steps: {int(4 * tau / dt)}}}
output:
  vtk: false
  history: {{every: 20, columns: [{{name: u, particle: 0, quantity: vel.x}}, {{name: t, counter: time}}]}}
"""
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
    U, Ua = 0.1, 20.0
    W = RHO_A * C_A * a_dry * Ua * Ua
    cx, tau_w = math.sqrt(W / K), m / math.sqrt(K * W)
    dt = tau_w / 2000
    scene = f"""world: {{gravity: [0, 0, -{G}], dt: {dt!r}}}
water: {{level: 0, current: [{U}, 0, 0], wind: [{Ua}, 0, 0]}}
materials:
  - {{name: ice, model: linear, density: {RHO_I}, young: 1e4}}  # no contacts: only the pre-run dt check reads it
ellipsoids:
  - {{pos: [0, 0, {-d!r}], vel: [{U}, 0, 0], semi_axes: [{a}, {b}, {c}], material: ice}}
run: {{steps: {int(4 * tau_w / dt)}}}
output:
  vtk: false
  history: {{every: 20, columns: [{{name: u, particle: 0, quantity: vel.x}}, {{name: t, counter: time}}]}}
"""
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


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--floe", default="build/floe")
    p.add_argument("--out", default="out/water-plots")
    p.add_argument("--img", default="docs/img")
    args = p.parse_args()
    os.makedirs(args.img, exist_ok=True)
    heave(args.floe, args.out, args.img)
    drift(args.floe, args.out, args.img)


if __name__ == "__main__":
    main()
