#!/usr/bin/env python3
"""The Python module against the floe command on the dense 10k scene
(docs/performance.md, "Python"; docs/python.md, "Performance").

usage: bench/python_bench.py [--build DIR] [--reps N] [--threads T] [--steps S] [--warmup W]
                             [--scenes DIR] [--size 10k]

Two figures (and a third that bounds the first):
  0. one body, 200000 steps, through both: what each front end adds to a
     step the engine takes in a few microseconds;
  1. the same run through `floe run` and through floe.load(...).run(S): the
     scene (bench/gen_scenes.py's dense_SIZE.yaml: 2200 steps, energy.csv
     every 200, final particles.csv / contacts.csv) with its outputs, W
     untimed warm-up steps, then S timed steps: `floe run --warmup W` reports
     the time of those and of closing the outputs (the final-state tables);
     the Python run times w.run(S) and w.close() after w.run(W). Each
     repetition runs each in a fresh process, alternating, and the medians
     are compared.
     Wall times on a busy machine vary by tens of percent from run to run,
     so the script also compares CPU time (rusage: what the process used,
     not what it waited for a core): of a run of W + S steps less that of a
     run of none, for each front end (1b).
  2. a Python callback every step: w.run(S, callback=f) against w.run(S),
     with f empty (the cost of calling into Python each step) and with f
     reading the positions through a view (w.positions, the z of 10k
     bodies, their maximum): the difference per step, in microseconds; and,
     less disturbed by other processes, the two parts measured apart: the
     cost of coming back to Python each step (on a 1-body world, whose step
     takes a microsecond) and the callback's own time (timeit).

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
w.close()  # the final particles.csv and contacts.csv, which `floe run` also writes inside its timing
t1 = time.perf_counter()
print("PY_LOOP %.9f" % (t1 - t0))
"""

PY_CALLBACK = r"""
import os, sys, time, timeit
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
# the callback's own work, alone: w.positions (a new view) and the max of 10k z
print("PY_VIEW %.9f" % (min(timeit.repeat(lambda: view(w), number=1000, repeat=5)) / 1000))
# the cost of coming back to Python each step, on a world whose step is ~1 us
t = floe.World(dt=1e-6)
t.add_material("m")
t.add_sphere((0, 0, 0), 0.01)
n = 200000
diff = []
for _ in range(9):
    t0 = time.perf_counter(); t.run(n); t1 = time.perf_counter(); t.run(n, callback=empty); t2 = time.perf_counter()
    diff.append(((t2 - t1) - (t1 - t0)) / n)
print("PY_CALL %.9f %.9f" % (sorted(diff)[4], (t1 - t0) / n))
"""


PY_CPU = r"""
import sys
sys.path.insert(0, {pypath!r})
import floe
w = floe.load({scene!r}, out={out!r}, threads={threads})
w.run({steps})
w.close()
"""


def cpu_of(cmd):
    """User + system CPU seconds of a child process (rusage), which time the
    process spends waiting for a core does not count in."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         env=dict(os.environ, OMP_WAIT_POLICY="passive"))
    _, status, ru = os.wait4(p.pid, 0)
    err = p.stderr.read().decode()
    p.stderr.close()
    if status != 0:
        sys.exit("python_bench: %s failed:\n%s" % (cmd[:3], err))
    return ru.ru_utime + ru.ru_stime


def cpu_steps(args, scene, out, python):
    """CPU seconds of W + S steps, outputs included: a run of W + S steps less
    a run of none (loading, start-up and the final tables cancel out)."""
    n = args.warmup + args.steps

    def once(steps):
        if python:
            code = PY_CPU.format(pypath=os.path.join(args.build, "python"), scene=scene, out=out,
                                 threads=args.threads, steps=steps)
            return cpu_of([args.python, "-c", code])
        return cpu_of([os.path.join(args.build, "floe"), "run", scene, "--out", out, "--threads", str(args.threads),
                       "--steps", str(steps)])

    return once(n) - once(0)


ONE_BODY = """# one sphere, nothing else: the per-step cost of the front end (bench/python_bench.py)
world: {dt: 1e-6}
run: {steps: 200000}
materials:
  - {name: m, density: 1000}
particles:
  - {radius: 0.01, pos: [0, 0, 0]}
output: {vtk: false, energy: false, progress: false, events: none, final_state: false}
"""

PY_ONE = r"""
import sys, time
sys.path.insert(0, {pypath!r})
import floe
w = floe.load({scene!r}, out=None)
t0 = time.perf_counter()
w.run()
print("PY_ONE %.9f" % (time.perf_counter() - t0))
"""


def one_body(args, tmp):
    """Per-step time of a 1-body world through floe run and through w.run():
    the engine's fixed cost of a step plus each front end's."""
    scene = os.path.join(tmp, "one.yaml")
    with open(scene, "w") as f:
        f.write(ONE_BODY)
    cli, py = [], []
    for _ in range(5):
        r = subprocess.run([os.path.join(args.build, "floe"), "run", scene, "--out", os.path.join(tmp, "one")],
                           capture_output=True, text=True, env=dict(os.environ, OMP_WAIT_POLICY="passive"))
        m = re.search(r"200000 steps in ([0-9.]+) s", r.stderr)
        if not m:
            sys.exit("python_bench: floe run one.yaml failed:\n" + r.stderr)
        cli.append(float(m.group(1)) / 200000)
        r = subprocess.run([args.python, "-c", PY_ONE.format(pypath=os.path.join(args.build, "python"), scene=scene)],
                           capture_output=True, text=True, env=dict(os.environ, OMP_WAIT_POLICY="passive"))
        m = re.search(r"PY_ONE ([0-9.]+)", r.stdout)
        if not m:
            sys.exit("python_bench: w.run on one.yaml failed:\n" + r.stderr)
        py.append(float(m.group(1)) / 200000)
    c, p = statistics.median(cli), statistics.median(py)
    print("0. one body, 200000 steps: floe run %.2f us a step, w.run %.2f us (medians of 5): %+.2f us a step"
          % (1e6 * c, 1e6 * p, 1e6 * (p - c)), flush=True)


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
        one_body(args, tmp)
        cli, py = [], []
        for i in range(args.reps):
            cli.append(cli_once(args, scene, os.path.join(tmp, "cli")))
            py.append(py_once(args, scene, os.path.join(tmp, "py")))
            print("  rep %d: floe run %.3f s, w.run %.3f s" % (i + 1, cli[-1], py[-1]), flush=True)
        c, p = statistics.median(cli), statistics.median(py)
        paired = statistics.median(b / a for a, b in zip(cli, py))
        print("1. %d steps: floe run %.3f s, w.run %.3f s (medians): Python/CLI = %.4f; median of the paired "
              "ratios %.4f (%+.1f %%); fastest runs %.3f s and %.3f s: %.4f (%+.1f %%)"
              % (args.steps, c, p, p / c, paired, 100 * (paired - 1), min(cli), min(py), min(py) / min(cli),
                 100 * (min(py) / min(cli) - 1)))
        cc, pc = [], []
        for i in range(args.reps):
            cc.append(cpu_steps(args, scene, os.path.join(tmp, "cli"), False))
            pc.append(cpu_steps(args, scene, os.path.join(tmp, "py"), True))
            print("  rep %d: CPU time of %d steps: floe run %.3f s, w.run %.3f s"
                  % (i + 1, args.warmup + args.steps, cc[-1], pc[-1]), flush=True)
        c, p = statistics.median(cc), statistics.median(pc)
        print("1b. CPU time of %d steps (a run less a run of none): floe run %.3f s, w.run %.3f s (medians): "
              "Python/CLI = %.4f (%+.1f %%); fastest %.3f s and %.3f s: %.4f"
              % (args.warmup + args.steps, c, p, p / c, 100 * (p / c - 1), min(cc), min(pc), min(pc) / min(cc)))
        code = PY_CALLBACK.format(pypath=os.path.join(args.build, "python"), scene=scene, threads=args.threads,
                                  warmup=args.warmup, steps=args.steps, inner=args.reps)
        r = subprocess.run([args.python, "-c", code], capture_output=True, text=True,
                           env=dict(os.environ, OMP_WAIT_POLICY="passive"))
        if r.returncode != 0:
            sys.exit("python_bench: the callback runs failed:\n" + r.stderr)
        times, view, call, tiny = {}, None, None, None
        for line in r.stdout.splitlines():
            f = line.split()
            if f[0] == "PY_CB":
                times[f[1]] = [float(t) for t in f[2:]]
            elif f[0] == "PY_VIEW":
                view = float(f[1])
            elif f[0] == "PY_CALL":
                call, tiny = float(f[1]), float(f[2])
        base = statistics.median(times["none"]) / args.steps
        # each repetition ran none, empty, view in a row: differences within it, then their median
        d_empty = statistics.median((e - n) / args.steps for n, e in zip(times["none"], times["empty"]))
        d_view = statistics.median((v - n) / args.steps for n, v in zip(times["none"], times["view"]))
        print("2. per step, w.run(%d) with a callback every step against without (median of %d paired "
              "differences; a step takes %.0f us): an empty callback %+.1f us (%+.2f %%); one reading "
              "w.positions[:, 2].max() %+.1f us (%+.2f %%)"
              % (args.steps, args.reps, 1e6 * base, 1e6 * d_empty, 100 * d_empty / base, 1e6 * d_view,
                 100 * d_view / base))
        print("   measured apart: coming back to Python for a callback %.2f us a step (median of 9 paired runs on a "
              "1-body world whose step takes %.1f us); the callback w.positions[:, 2].max() on %s bodies %.2f us "
              "(timeit); together %.1f us = %.2f %% of a %.0f us step"
              % (1e6 * call, 1e6 * tiny, args.size, 1e6 * view, 1e6 * (call + view), 100 * (call + view) / base,
                 1e6 * base))
    print("python_bench: load average %s" % loadavg())


if __name__ == "__main__":
    main()
