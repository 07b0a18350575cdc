#!/usr/bin/python3
"""The main demo (examples/ice-on-water.yaml) with one input changed at a
time: what docs/models/water.md says about why its ramp reaches 3 m down
and why it keeps the study's frictions and strong bonds.

  toe_1m      the ramp's toe 1 m below the water (0.9 m below the sheet's
              bottom), as the Croasdale study has it, instead of 3 m
  weak_bonds  the study's bonds, break_n 2.8e-3 instead of 5.6e-3
  ice_mu_0.6, ice_mu_0.15    ice-ice friction (tan_phi of the ice) 0.6, 0.15
  ramp_mu_0.05, ramp_mu_0.2, ramp_mu_0.3    ice-ramp friction (the steel's)

Each runs the full 16 s and is measured by tools/render_floes.py (mean load
over the second half, deepest particle centre in the frames every 0.25 s,
floes). Prints the table; --json writes it and the numbers.

usage: /usr/bin/python3 tools/demo_variants.py [--floe build/floe] [--out out/demo-variants] [--jobs 2]
                                               [--croasdale H] [--json FILE]
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENE = os.path.join(ROOT, "examples", "ice-on-water.yaml")
LEVEL = 0.2356576


def sub(text, pattern, repl):
    out, n = re.subn(pattern, repl, text, flags=re.M)
    if n != 1:
        sys.exit("demo_variants.py: %r matches %d times in examples/ice-on-water.yaml, not once" % (pattern, n))
    return out


def variant(text, name):
    """The demo's scene with one input changed."""
    if name == "toe_1m":
        # the ramp's plane through its top edge (x 10.6, z 0.4357) at 45 degrees, cut at z = LEVEL - 1
        z = LEVEL - 1.0
        x = 10.6 - (0.4357 - z)
        return text.replace("[7.164, -1, -3.0]", "[%.4f, -1, %.7f]" % (x, z)).replace(
            "[7.164, 4.2, -3.0]", "[%.4f, 4.2, %.7f]" % (x, z))
    if name == "weak_bonds":
        return sub(text, r"^(\s*break_n:) 5\.6e-3", r"\1 2.8e-3")
    kind, mu = name.rsplit("_", 1)
    if kind == "ice_mu":
        return sub(text, r"^(\s*tan_phi:) 0\.3$", r"\g<1> " + mu)
    return sub(text, r"^(\s*tan_phi:) 0\.1( .*)$", r"\g<1> " + mu + r"\2")


NAMES = ("toe_1m", "weak_bonds", "ice_mu_0.6", "ice_mu_0.15", "ramp_mu_0.05", "ramp_mu_0.2", "ramp_mu_0.3")
LABELS = {"toe_1m": "ramp's toe 1 m below the water", "weak_bonds": "the study's bonds (`break_n` 2.8e-3)",
          "ice_mu_0.6": "ice–ice friction 0.6", "ice_mu_0.15": "ice–ice friction 0.15",
          "ramp_mu_0.05": "ice–ramp friction 0.05", "ramp_mu_0.2": "ice–ramp friction 0.2",
          "ramp_mu_0.3": "ice–ramp friction 0.3"}


def run(floe, out, name, croasdale):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(SCENE) as f:
        text = variant(f.read(), name)
    scene = os.path.join(d, "scene.yaml")
    with open(scene, "w") as f:
        f.write(text)
    with open(os.path.join(d, "log.txt"), "w") as log:
        subprocess.run([floe, "run", scene, "--out", os.path.join(d, "run"), "--threads", "1"], check=True,
                       stdout=log, stderr=subprocess.STDOUT)
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "render_floes.py"), os.path.join(d, "run"),
                        os.path.join(d, "floes.png"), "--level", repr(LEVEL), "--load", os.path.join(d, "load.png"),
                        "--croasdale", repr(croasdale), "--json", os.path.join(d, "numbers.json")],
                       check=True, stdout=log, stderr=subprocess.STDOUT)
    with open(os.path.join(d, "numbers.json")) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--floe", default=os.path.join(ROOT, "build", "floe"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "demo-variants"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--croasdale", type=float, default=18240.0, help="the demo's predicted load (N)")
    ap.add_argument("--json", help="also write the table and the numbers into this file")
    a = ap.parse_args()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        res = dict(zip(NAMES, ex.map(lambda n: run(a.floe, a.out, n, a.croasdale), NAMES)))
    lines = ["| the demo with | mean load, second half (kN) | of the prediction | deepest particle centre (m), "
             "at (s) | at the end (m) | floes, largest |", "|---|---|---|---|---|---|"]
    nums = {}
    for n in NAMES:
        r = res[n]
        lines.append("| %s | %.1f | %.2f | %.2f at %.1f | %.2f | %d, %d |" % (
            LABELS[n], r["mean_half_kN"], r["mean_half_ratio"], r["deepest_z"], r["deepest_s"], r["deepest_end_z"],
            r["floes"], r["largest"]))
        k = n.replace(".", "") + "_"
        nums.update({k + key: r[key] for key in ("mean_half_kN", "mean_half_ratio", "deepest_z", "deepest_s",
                                                 "deepest_end_z", "floes", "largest", "running_max_kN")})
    table = re.sub(r"(?<= )-(?=\d)", "\u2212", "\n".join(lines))
    print(table)
    if a.json:
        fr = [n for n in NAMES if "_mu_" in n]
        nums.update({"table": table, "friction_deepest_min": min(res[n]["deepest_z"] for n in fr),
                     "friction_deepest_max": max(res[n]["deepest_z"] for n in fr)})
        with open(a.json, "w") as f:
            json.dump(nums, f, indent=1)


if __name__ == "__main__":
    main()
