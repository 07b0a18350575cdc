#!/usr/bin/env python3
"""The Python module against the floe command on the dense 10k scene
(docs/performance.md, "Python"; docs/python.md, "Performance").

usage: bench/python_bench.py [--build DIR] [--reps N] [--threads T] [--steps S] [--warmup W]
                             [--scenes DIR] [--size 10k]

Two figures:
  1. the same run through `floe run` and through floe.load(...).run(S): the
     scene (bench/gen_scenes.py's dense_SIZE.yaml: 2200 steps, energy.csv
     every 200, final particles.csv / contacts.csv) with its outputs, W
     untimed warm-up steps, then S timed steps: `floe run --warmup W` reports
     the rate of those; the Python run times w.run(S) after w.run(W). Each
     repetition runs each in a fresh process, alternating, and the medians
     are compared.
  2. a Python callback every step: w.run(S, callback=f) against w.run(S),
     with f empty (the cost of calling into Python each step) and with f
     reading the positions through a view (w.positions, the z of 10k
     bodies, their maximum): the difference per step, in microseconds.

Both use one build (default build/: the floe command and build/python), so
the same engine code runs in both and only the front end differs. Timing
figures depend on the machine and on what else runs on it: the script
prints the load average before and after. The shared packing comes from
$DENSE_DIR as for bench/run.sh (bench/gen_scenes.py).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

PY_RUN = r"""
import os, sys, time
sys.path.insert(0, {pypath!r})
import floe
w = floe.load({scene!r}, out={out!r}, threads={threads})
w.run({warmup})
t0 = time.perf_counter()
w.run({steps})
t1 = time.perf_counter()
w.close()
print("PY_LOOP %.9f" % (t1 - t0))
"""

PY_CALLBACK = r"""
import os, sys, time
sys.path.insert(0, {pypath!r})
import floe
w = floe.load({scene!r}, out=None, threads={threads})
w.run({warmup})
acc = []
def empty(w):
    pass
def view(w):
    acc.append(w.positions[:, 2].max())
res = {{}}
for name, cb in (("none", None), ("empty", empty), ("view", view)) * {inner}:
    t0 = time.perf_counter()
    w.run({steps}, callback=cb)
    res.setdefault(name, []).append(time.perf_counter() - t0)
for name, ts in res.items():
    print("PY_CB %s %s" % (name, " ".join("%.9f" % t for t in ts)))
"""


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def scene_path(args):
    d = args.scenes or tempfile.mkdtemp(prefix="floe_pybench_")
    scene = os.path.join(d, "dense_%s.yaml" % args.size)
    if not os.path.exists(scene):
        subprocess.check_call([sys.executable, os.path.join(HERE, "gen_scenes.py"), d, args.size])
    if not os.path.exists(scene):
        sys.exit("python_bench: no %s (is DENSE_DIR set? see bench/gen_scenes.py)" % scene)
    return scene


def cli_once(args, scene, out):
    r = subprocess.run([os.path.join(args.build, "floe"), "run", scene, "--out", out, "--threads", str(args.threads),
                        "--warmup", str(args.warmup), "--steps", str(args.warmup + args.steps)],
                       capture_output=True, text=True, env=dict(os.environ, OMP_WAIT_POLICY="passive"))
    m = re.search(r"after %d warm-up steps: (\d+) steps in ([0-9.]+) s" % args.warmup, r.stderr)
    if r.returncode != 0 or not m or int(m.group(1)) != args.steps:
        sys.exit("python_bench: floe run failed:\n" + r.stderr)
    return float(m.group(2))


def py_once(args, scene, out):
    code = PY_RUN.format(pypath=os.path.join(args.build, "python"), scene=scene, out=out, threads=args.threads,
                         warmup=args.warmup, steps=args.steps)
    r = subprocess.run([args.python, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, OMP_WAIT_POLICY="passive"))
    m = re.search(r"PY_LOOP ([0-9.]+)", r.stdout)
    if r.returncode != 0 or not m:
        sys.exit("python_bench: the Python run failed:\n" + r.stderr)
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--scenes", default=None, help="directory of the generated scenes (default: a new one)")
    ap.add_argument("--size", default="10k")
    args = ap.parse_args()
    scene = scene_path(args)
    print("python_bench: %s, %d threads, %d + %d steps, %d repetitions; load average %s"
          % (os.path.basename(scene), args.threads, args.warmup, args.steps, args.reps, loadavg()))
    with tempfile.TemporaryDirectory(prefix="floe_pybench_out_") as tmp:
        cli, py = [], []
        for i in range(args.reps):
            cli.append(cli_once(args, scene, os.path.join(tmp, "cli")))
            py.append(py_once(args, scene, os.path.join(tmp, "py")))
            print("  rep %d: floe run %.3f s, w.run %.3f s" % (i + 1, cli[-1], py[-1]), flush=True)
        c, p = statistics.median(cli), statistics.median(py)
        print("1. %d steps: floe run %.3f s (median), w.run %.3f s: Python/CLI = %.4f (%+.1f %%)"
              % (args.steps, c, p, p / c, 100 * (p / c - 1)))
        code = PY_CALLBACK.format(pypath=os.path.join(args.build, "python"), scene=scene, threads=args.threads,
                                  warmup=args.warmup, steps=args.steps, inner=args.reps)
        r = subprocess.run([args.python, "-c", code], capture_output=True, text=True,
                           env=dict(os.environ, OMP_WAIT_POLICY="passive"))
        if r.returncode != 0:
            sys.exit("python_bench: the callback runs failed:\n" + r.stderr)
        times = {}
        for line in r.stdout.splitlines():
            if line.startswith("PY_CB "):
                name, *ts = line.split()[1:]
                times[name] = statistics.median(float(t) for t in ts)
        base = times["none"] / args.steps
        print("2. per step: no callback %.1f us; an empty callback every step +%.2f us (%+.2f %%); one reading "
              "w.positions[:, 2].max() +%.2f us (%+.2f %%)"
              % (1e6 * base, 1e6 * (times["empty"] / args.steps - base), 100 * (times["empty"] / times["none"] - 1),
                 1e6 * (times["view"] / args.steps - base), 100 * (times["view"] / times["none"] - 1)))
    print("python_bench: load average %s" % loadavg())


if __name__ == "__main__":
    main()
