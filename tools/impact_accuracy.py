#!/usr/bin/python3
"""Energy error of one elastic impact against the time step.

A Linear sphere (R = 3 mm, rho = 2500 kg/m^3, E = 5e7 Pa; no friction, no
dashpot, no gravity) hits a wall head-on at 1 m/s, and two such spheres hit
each other head-on. The exact rebound speed equals the impact speed, so the
kinetic energy after the impact minus the one before, over the one before,
is the integration error of that impact. It depends on dt / t_c (t_c the
contact time) and on where in a step the contact begins, so every dt_safety
is run with the first touch at NPHASE phases spread over one step.

dt: auto gives dt = dt_safety * 2 / omega here, omega^2 = kn / m against the
wall and 2 kn / m between the spheres (the critical step of one contact,
exact: docs/integration.md#time-step), so dt / t_c = 2 dt_safety / pi in
both. With W = omega dt = pi dt / t_c, leapfrog turns a contact entered a fraction
phi of a step late and left a fraction psi early into the energy ratio
[1 - W^2 phi (1 - phi)] / [1 - W^2 psi (1 - psi)] (docs/integration.md), so
no phase errs by more than the bound (W^2/4) / (1 - W^2/4).

Prints the table of docs/integration.md and draws docs/img/impact-accuracy.png
(--json: that table and the numbers the page quotes, for tools/doc_numbers.py).

usage: /usr/bin/python3 tools/impact_accuracy.py [--floe build/floe] [--out out/impact-accuracy]
                                                 [--png docs/img/impact-accuracy.png] [--jobs 2] [--json FILE]
Needs Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

R, RHO, E, V0 = 0.003, 2500.0, 5e7, 1.0
SAFETIES = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 0.9]
NPHASE = 20
DEFAULT_SAFETY = 0.1

MASS = 4.0 / 3.0 * math.pi * R ** 3 * RHO
KN = math.pi * R * E / 2          # series stiffness of two lengths R (sphere-sphere and sphere-wall alike)
# contact time: half a period of the spring against the contact mass (m at a wall, m/2 between two spheres)
TC = {"wall": math.pi * math.sqrt(MASS / KN), "spheres": math.pi * math.sqrt(0.5 * MASS / KN)}

SCENE = """world:
  dt: auto
  dt_safety: {safety}
run:
  steps: {steps}
materials:
  - {{name: glass, model: linear, density: {rho}, young: {young}, tan_phi: 0}}
{bodies}
output:
  energy: {{every: 1}}
"""


def bound(x):
    """Largest |dE/E| of one impact at dt / t_c = x (any phase)."""
    q = (math.pi * x) ** 2 / 4
    return q / (1 - q)


def bodies(config, gap):
    """The bodies of one run: the first touch after a free flight of `gap`."""
    if config == "wall":
        return ("walls:\n  - {axis: z, pos: 0, sense: 1}\n"
                f"particles:\n  - {{radius: {R!r}, pos: [0, 0, {R + gap!r}], vel: [0, 0, {-V0!r}]}}")
    # each sphere covers half the gap
    z = R + 0.5 * gap
    return ("particles:\n"
            f"  - {{radius: {R!r}, pos: [0, 0, {z!r}], vel: [0, 0, {-V0!r}]}}\n"
            f"  - {{radius: {R!r}, pos: [0, 0, {-z!r}], vel: [0, 0, {V0!r}]}}")


def step(config, safety):
    """The step dt: auto gives: dt_safety times the critical step 2/omega of the one contact."""
    return safety * 2 / math.sqrt(KN / MASS * (1 if config == "wall" else 2))


def n_steps(config, safety):
    """Steps of one run: the first overlap in step 3, then well past the separation."""
    return 2 + math.ceil(1.5 * TC[config] / step(config, safety)) + 4


def scene_text(config, safety, phase):
    """The scene of one impact: `config` wall or spheres, the first overlap `phase` of a step into step 3."""
    speed = V0 if config == "wall" else 2 * V0          # closing speed
    gap = (2 + phase) * speed * step(config, safety)   # first overlap `phase` of a step into step 3
    return SCENE.format(safety=safety, steps=n_steps(config, safety), rho=RHO, young=E, bodies=bodies(config, gap))


def run_one(floe, out, config, safety, phase):
    """Relative energy error of one impact and the step in use."""
    dt, steps = step(config, safety), n_steps(config, safety)
    d = os.path.join(out, f"{config}_{safety:.2f}_{phase:.4f}")
    os.makedirs(d, exist_ok=True)
    scene = os.path.join(d, "scene.yaml")
    with open(scene, "w") as f:
        f.write(scene_text(config, safety, phase))
    subprocess.run([floe, "run", scene, "--out", d, "--threads", "1"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(d, "energy.csv")) as f:
        rows = list(csv.DictReader(f))
    first, last = rows[0], rows[-1]
    if float(last["elastic"]) != 0:
        sys.exit(f"{d}: the bodies are still in contact after {steps} steps")
    dt_run = float(rows[1]["time"])
    if abs(dt_run - dt) > 1e-9 * dt:
        sys.exit(f"{d}: dt {dt_run} differs from dt_safety x the critical step {dt}")
    return float(last["kinetic"]) / float(first["kinetic"]) - 1, dt


def numbers(table):
    """The table of docs/integration.md and the numbers its prose quotes. Sphere-wall and
    sphere-sphere share dt/t_c; the table's row is the worse of the two."""
    lines = ["| `dt_safety` | dt/t_c | steps per contact | worst phase (measured) | bound | mean over phases |",
             "|---|---|---|---|---|---|"]
    out = {}
    for s in SAFETIES:
        x = table[("wall", s)][0][1] / TC["wall"]
        errs = {c: [e for e, _ in table[(c, s)]] for c in ("wall", "spheres")}
        worst = max(abs(e) for c in errs for e in errs[c])
        mean = max((sum(v) / len(v) for v in errs.values()), key=abs)
        b = bound(x)
        name = "**%g** (default)" % s if s == DEFAULT_SAFETY else "%g" % s
        lines.append("| %s | %.3f | %.1f | %.2f %% | %.2f %% | %+.3f %% |" % (name, x, 1 / x, 100 * worst, 100 * b,
                                                                         100 * mean))
        k = "s%03d_" % round(100 * s)
        out.update({k + "steps": 1 / x, k + "worst_pct": 100 * worst, k + "bound_pct": 100 * b, k + "W": math.pi * x})
        xs = table[("spheres", s)][0][1] / TC["spheres"]  # the same dt/t_c for both configurations
        out[k + "configs_dx"] = abs(xs - x) / x
    out["table"] = "\n".join(lines)
    out["safety_1pct"] = max(s for s in SAFETIES if bound(table[("wall", s)][0][1] / TC["wall"]) <= 0.01)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--floe", default="build/floe")
    ap.add_argument("--out", default="out/impact-accuracy")
    ap.add_argument("--png", default="docs/img/impact-accuracy.png")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="also write the numbers docs/integration.md quotes into this file")
    a = ap.parse_args()
    phases = [(k + 0.5) / NPHASE for k in range(NPHASE)]
    jobs = [(c, s, p) for c in ("wall", "spheres") for s in SAFETIES for p in phases]
    with ThreadPoolExecutor(a.jobs) as ex:
        res = list(ex.map(lambda j: run_one(a.floe, a.out, *j), jobs))
    table = {}
    for (c, s, _), (err, dt) in zip(jobs, res):
        table.setdefault((c, s), []).append((err, dt))

    print("| dt_safety | config | dt/t_c | steps per contact | max \\|ΔE/E\\| | bound | mean ΔE/E |")
    print("|---|---|---|---|---|---|---|")
    curves = {c: ([], [], [], []) for c in ("wall", "spheres")}
    for c in ("wall", "spheres"):
        for s in SAFETIES:
            errs = [e for e, _ in table[(c, s)]]
            x = table[(c, s)][0][1] / TC[c]
            worst, mean, b = max(abs(e) for e in errs), sum(errs) / len(errs), bound(x)
            name = "sphere–wall" if c == "wall" else "sphere–sphere"
            mark = " (default)" if s == DEFAULT_SAFETY else ""
            print(f"| {s:.2f}{mark} | {name} | {x:.3f} | {1 / x:.1f} | {100 * worst:.2f} % | "
                  f"{100 * b:.2f} % | {100 * mean:+.3f} % |")
            for lst, v in zip(curves[c], (x, worst, b, abs(mean))):
                lst.append(v)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    xs = [0.02 + i / 200 * 0.57 for i in range(201)]
    ax.plot(xs, [bound(x) for x in xs], "k-", lw=1, label="bound q/(1−q), q = (π dt/t$_c$)²/4")
    for c, col, lab in (("wall", "C0", "sphere–wall"), ("spheres", "C3", "sphere–sphere")):
        x, worst, _, mean = curves[c]
        ax.plot(x, worst, "o", color=col, label=f"{lab}: worst phase")
        ax.plot(x, mean, "x", color=col, label=f"{lab}: |mean| over phases")
        ax.axvline(x[SAFETIES.index(DEFAULT_SAFETY)], color=col, ls=":", lw=1,
                   label=f"{lab}: default dt_safety {DEFAULT_SAFETY}")
    ax.set_yscale("log")
    ax.set_ylim(3e-8, 10)
    ax.set_xlabel("dt / contact time")
    ax.set_ylabel("|ΔE / E| of one elastic impact")
    ax.set_title("Leapfrog energy error of one impact (Linear, restitution 1)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    os.makedirs(os.path.dirname(a.png) or ".", exist_ok=True)
    fig.savefig(a.png, dpi=110)
    print(f"picture: {a.png}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(numbers(table), f, indent=1)


if __name__ == "__main__":
    main()
