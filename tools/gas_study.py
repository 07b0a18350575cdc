#!/usr/bin/python3
"""Energy balance of an elastic gas against dt_safety (docs/integration.md,
"Time-step accuracy").

800 frictionless Linear spheres (R = 1.5 mm, E = 1e8 Pa, rho = 2500 kg/m^3)
generated at random (seeded) in a 5 x 5 cm walled box between the floor and
0.3 m, dropped under gravity, no damping, dt: auto, 0.6 s. Nothing
dissipates, so the balance error at the end is the integration error of the
impacts, each of random sign: several packings (seeds) per dt_safety show
its scatter. Prints the table of docs/integration.md; --json writes it and
the numbers the page quotes (for tools/doc_numbers.py); --quick runs two
short runs only (a smoke test of the script).

usage: python3 tools/gas_study.py [--floe build/floe] [--out out/gas] [--jobs 2] [--json FILE] [--quick]
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# dt_safety -> seeds of the random packings run at it (more near the default)
RUNS = {0.05: [1], 0.07: [1, 2, 3], 0.1: [1, 2, 3, 4, 5], 0.15: [1, 2, 3], 0.2: [1], 0.3: [1], 0.5: [1]}
QUICK = {0.1: [1], 0.5: [1]}
DEFAULT_SAFETY = 0.1
T_END, QUICK_T = 0.6, 0.05
R, L, TOP, N = 0.0015, 0.05, 0.3, 800

SCENE = """world:
  gravity: [0, 0, -9.81]
  dt: auto
  dt_safety: {safety!r}
  damping: 0.0
run:
  time: {time!r}
materials:
  - {{name: glass, model: linear, density: 2500, young: 1e8, tan_phi: 0}}
walls:
  - {{axis: z, pos: 0.0, sense: 1, material: glass}}
  - {{axis: x, pos: 0.0, sense: 1, material: glass}}
  - {{axis: x, pos: {L!r}, sense: -1, material: glass}}
  - {{axis: y, pos: 0.0, sense: 1, material: glass}}
  - {{axis: y, pos: {L!r}, sense: -1, material: glass}}
generators:
  - random:
      box: [[{R!r}, {R!r}, {R!r}], [{inner!r}, {inner!r}, {TOP!r}]]
      radius: {R!r}
      count: {N}
      seed: {seed}
      material: glass
output:
  energy: {{every: 200}}
"""


def scene_text(safety, seed, time=T_END):
    """The scene of one run: the gas at `safety` from the packing of `seed`."""
    return SCENE.format(safety=safety, time=time, L=L, R=R, inner=L - R, TOP=TOP, N=N, seed=seed)


def run_one(floe, out, safety, seed, time):
    """The balance error at the end of one run, and its steps per simulated second."""
    d = os.path.join(out, f"s{safety:.2f}_seed{seed}")
    os.makedirs(d, exist_ok=True)
    scene = os.path.join(d, "scene.yaml")
    with open(scene, "w") as f:
        f.write(scene_text(safety, seed, time))
    subprocess.run([floe, "run", scene, "--out", d, "--threads", "1"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with open(os.path.join(d, "energy.csv")) as f:
        last = list(csv.DictReader(f))[-1]
    return float(last["error"]), int(last["step"]) / float(last["time"])


def sci(x, digits=2):
    """x as the docs write it: 5.5·10⁻⁴."""
    if x == 0:
        return "0"
    e = math.floor(math.log10(abs(x)))
    m = round(x / 10 ** e, digits - 1)
    if abs(m) >= 10:
        m, e = m / 10, e + 1
    sup = str(e).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return ("%.*f·10%s" % (digits - 1, m, sup)).replace("-", "−")


def numbers(res):
    """The table of docs/integration.md and the numbers its prose quotes."""
    lines = ["| `dt_safety` | balance error at 0.6 s (random packings) | steps per simulated second |",
             "|---|---|---|"]
    out = {}
    for s, rows in sorted(res.items()):
        name = "**%g** (default)" % s if s == DEFAULT_SAFETY else "%g" % s
        rate = sum(r for _, r in rows) / len(rows)
        lines.append("| %s | %s | %s |" % (name, ", ".join(sci(e) for e, _ in rows), sci(rate)))
        k = "s%03d_" % round(100 * s)
        out[k + "worst"] = max(abs(e) for e, _ in rows)
        out[k + "runs"] = len(rows)
        out[k + "above"] = sum(abs(e) >= 1e-3 for e, _ in rows)
        out[k + "steps_per_s"] = rate
    out["table"] = "\n".join(lines)
    # the largest dt_safety whose every packing keeps |balance error| below 1e-3
    ok = [s for s in sorted(res) if all(abs(e) < 1e-3 for e, _ in res[s])]
    out["largest_below"] = max(ok) if ok else 0
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--floe", default="build/floe")
    ap.add_argument("--out", default="out/gas")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="also write the numbers docs/integration.md quotes into this file")
    ap.add_argument("--quick", action="store_true", help=f"two runs of {QUICK_T} s only")
    a = ap.parse_args()
    runs, time = (QUICK, QUICK_T) if a.quick else (RUNS, T_END)
    jobs = [(s, seed) for s in runs for seed in runs[s]]
    jobs.sort(key=lambda j: j[0])  # the smallest steps (longest runs) first
    with ThreadPoolExecutor(a.jobs) as ex:
        got = list(ex.map(lambda j: run_one(a.floe, a.out, j[0], j[1], time), jobs))
    res = {}
    for (s, _), r in zip(jobs, got):
        res.setdefault(s, []).append(r)
    nums = numbers(res)
    print(nums["table"])
    if a.json:
        with open(a.json, "w") as f:
            json.dump(nums, f, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
