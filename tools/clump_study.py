#!/usr/bin/python3
"""Clumps in motion (docs/clumps.md#studies).

1. Free tumbling: a clump of three pebbles (three distinct principal
   moments), spun at 10 rad/s about its intermediate axis with a 5 %
   perturbation on the others, no gravity, no contacts. Its kinetic energy
   and angular momentum over time (relative to their first values), and the
   body-frame angular velocity against the torque-free Euler equations
   integrated here by RK4 at a tenth of floe's step (the same principal
   moments): the intermediate-axis flips come when Euler's equations say.
   Run for three time steps to show the energy error's dt^2 scaling.
2. Incline: a tripod clump (three equal pebbles) on a floor with gravity
   tilted by theta, Linear contacts with mu = 0.5: the acceleration along
   the slope against g (sin theta - mu cos theta) above tan theta = mu, 0
   below.

Draws docs/img/clump-tumbling.png and docs/img/clump-incline.png; --json
writes the numbers the docs quote.

usage: /usr/bin/python3 tools/clump_study.py [--img docs/img] [--json FILE]
Needs the Python module (build/python, make build) and Debian's
python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import json
import math
import os
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "build" / "python"))
import floe  # noqa: E402

PEBBLES = [[0, 0, 0, 0.1], [0.13, 0, 0, 0.08], [0, 0.08, 0.01, 0.06]]


def qrot(q, v):
    """R(q) v for q = (w, x, y, z)."""
    w, u = q[0], np.asarray(q[1:])
    t = 2 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def qconj(q):
    return np.array([q[0], -q[1], -q[2], -q[3]])


def euler_rk4(I, w0, h, n):
    """Torque-free Euler equations in the body frame, n RK4 steps of h."""
    def f(w):
        return np.array([(I[1] - I[2]) * w[1] * w[2] / I[0], (I[2] - I[0]) * w[2] * w[0] / I[1],
                         (I[0] - I[1]) * w[0] * w[1] / I[2]])
    out = np.empty((n + 1, 3))
    w = np.array(w0, float)
    out[0] = w
    for k in range(n):
        k1 = f(w)
        k2 = f(w + h / 2 * k1)
        k3 = f(w + h / 2 * k2)
        k4 = f(w + h * k3)
        w = w + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out[k + 1] = w
    return out


def tumble(dt, T=8.0, Om=10.0, eps=0.05):
    w = floe.World(gravity=(0, 0, 0), dt=dt, threads=1)
    w.add_material("rock", "linear", density=2000, young=1e7)
    c = w.add_clump((0, 0, 0), PEBBLES)
    I = w.inertia[c].copy()
    q0 = w.orientations[c].copy()
    wb0 = np.array([eps * Om, Om, eps * Om])
    w.set_angular_velocity(c, tuple(qrot(q0, wb0)))
    n = int(round(T / dt))
    t, E, L, wb = [], [], [], []
    every = max(1, n // 2000)
    for s in range(n // every):
        w.run(steps=every)
        q = w.orientations[c]
        om = w.angular_velocities[c]
        b = qrot(qconj(q), om)
        Lg = qrot(q, I * b)
        t.append(w.step_count * dt - dt / 2)  # omega at half steps
        E.append(0.5 * np.dot(om, Lg))
        L.append(Lg)
        wb.append(b)
    return I, wb0, np.array(t), np.array(E), np.array(L), np.array(wb)


def flips(t, y):
    s = np.signbit(y)
    return [t[i] for i in range(1, len(y)) if s[i] != s[i - 1]]


def incline(theta_deg, mu=0.5):
    th = math.radians(theta_deg)
    g = 9.81
    w = floe.World(gravity=(g * math.sin(th), 0, -g * math.cos(th)), threads=1)
    w.add_material("rock", "linear", density=2000, young=1e7, tan_phi=mu)
    w.set_model("linear", dp_nratio=0.5)
    w.add_wall("z", 0, sense=1)
    r, a = 0.05, 0.06
    z = r - 2e-5
    peb = [[a, 0, z, r], [-a / 2, a * math.sqrt(3) / 2, z, r], [-a / 2, -a * math.sqrt(3) / 2, z, r]]
    c = w.add_clump((0, 0, 0), peb)
    w.run(time=0.25)
    v1, t1 = w.velocities[c][0], w.time
    w.run(time=0.25)
    return (w.velocities[c][0] - v1) / (w.time - t1), max(0.0, g * (math.sin(th) - mu * math.cos(th)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--img", default=str(ROOT / "docs" / "img"))
    ap.add_argument("--json")
    args = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    numbers = {}
    fig, ax = plt.subplots(3, 1, figsize=(7.5, 8.5), sharex=True)
    for dt, style in ((4e-3, ":"), (2e-3, "--"), (1e-3, "-")):
        I, wb0, t, E, L, wb = tumble(dt)
        dE = (E - E[0]) / E[0]
        dL = np.linalg.norm(L - L[0], axis=1) / np.linalg.norm(L[0])
        ax[0].plot(t, dE, style, label=f"dt = {dt * 1e3:g} ms")
        ax[1].semilogy(t, np.maximum(dL, 1e-17), style, label=f"dt = {dt * 1e3:g} ms")
        numbers[f"tumble_dE_{dt:g}"] = float(np.max(np.abs(dE)))
        numbers[f"tumble_dL_{dt:g}"] = float(np.max(dL))
        if dt == 1e-3:
            ref = euler_rk4(I, wb0, dt / 10, int(round(t[-1] / (dt / 10))) + 1)
            tr = (np.arange(len(ref)) * dt / 10)
            # ref starts at t = dt/2, where floe's first omega is
            tr = tr + dt / 2
            ax[2].plot(tr, ref[:, 1], "k-", lw=3, alpha=0.3, label="RK4 on Euler's equations")
            ax[2].plot(t, wb[:, 1], "C2-", lw=1, label="floe (dt = 1 ms)")
            ax[2].plot(t, wb[:, 0], "C0-", lw=1, label="floe, ω₁ (smallest moment)")
            numbers["flips_floe"] = [float(x) for x in flips(t, wb[:, 1])]
            numbers["flips_rk4"] = [float(x) for x in flips(tr, ref[:, 1])]
    ax[0].set_ylabel("(E − E₀) / E₀")
    ax[0].legend(fontsize=8)
    ax[1].set_ylabel("|L − L₀| / |L₀|")
    ax[2].set_ylabel("body ω₂ (intermediate axis) [rad/s]")
    ax[2].set_xlabel("t [s]")
    ax[2].legend(fontsize=8, loc="lower left")
    fig.suptitle("Free tumbling of a three-pebble clump about its intermediate axis")
    fig.tight_layout()
    os.makedirs(args.img, exist_ok=True)
    fig.savefig(os.path.join(args.img, "clump-tumbling.png"), dpi=110)

    thetas = [10, 15, 20, 25, 28, 30, 35, 40, 45]
    got, want = zip(*(incline(th) for th in thetas))
    numbers["incline"] = {str(th): [float(a), float(b)] for th, a, b in zip(thetas, got, want)}
    fig2, a2 = plt.subplots(figsize=(6.5, 4))
    tt = np.linspace(5, 47, 200)
    a2.plot(tt, [max(0, 9.81 * (math.sin(math.radians(x)) - 0.5 * math.cos(math.radians(x)))) for x in tt], "k-",
            label="g (sin θ − μ cos θ), 0 below tan θ = μ")
    a2.plot(thetas, got, "o", label="tripod clump (floe)")
    a2.axvline(math.degrees(math.atan(0.5)), color="gray", lw=0.8, ls=":")
    a2.set_xlabel("slope θ [°]")
    a2.set_ylabel("acceleration along the slope [m/s²]")
    a2.legend()
    fig2.tight_layout()
    fig2.savefig(os.path.join(args.img, "clump-incline.png"), dpi=110)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(numbers, f, indent=1)
    print(json.dumps(numbers, indent=1))


if __name__ == "__main__":
    main()
