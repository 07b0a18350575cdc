#!/usr/bin/python3
"""The ice demo (examples/ice-floe.yaml) scripted: run until the ice load has peaked and fallen.

Level ice pushed at 1 m/s into a 40-degree ramp loads the ramp as its front
rides up; when the bonds at the toe fail in bending, a floe breaks off and
the force on the structure collapses. The script loads the scene with its
outputs, watches the force on the ramp (the group `ramp`) every few steps and
stops the run once the force has peaked and fallen:

  * bonds have broken, and
  * the horizontal force, averaged over WINDOW (10 ms), has stayed below FALL
    (20 %) of its largest mean so far for HOLD (20 ms) of simulated time.

It then plots the force history and a side view of the sheet at the stop.
--quick runs the same scene on a narrower, shorter sheet (10 x 30 spheres
instead of 50 x 100, the front at the same place), written beside the
outputs; the full form runs examples/ice-floe.yaml itself.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/ice_floe.py [--quick] [--png FILE] [--out DIR]
"""
import argparse
import json
import os
import re
import sys

import numpy as np

try:
    import floe
except ImportError:  # run from a clone without PYTHONPATH: the build tree's module
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "python"))
    import floe

HERE = os.path.dirname(os.path.abspath(__file__))
SCENE = os.path.join(HERE, "..", "ice-floe.yaml")
WINDOW = 0.01  # the force is averaged over this long [s] ...
FALL = 0.2  # ... and has fallen when that mean is below this fraction of its peak ...
HOLD = 0.02  # ... for this long [s]
EVERY = 10  # steps between two looks at the force


def quick_scene(text):
    """The scene with a sheet of 10 x 30 spheres (and a pusher row of 10)
    whose front is where the full sheet's is (x = 10 m)."""
    subs = [
        (r"origin: \[0\.05, 0\.05, 0\], spacing: 0\.1, counts: \[1, 50, 1\]",
         "origin: [7.05, 0.05, 0], spacing: 0.1, counts: [1, 10, 1]"),
        (r"origin: \[0\.15, 0\.05, 0\], spacing: 0\.1, counts: \[99, 50, 1\]",
         "origin: [7.15, 0.05, 0], spacing: 0.1, counts: [29, 10, 1]"),
    ]
    for pattern, repl in subs:
        text, n = re.subn(pattern, repl, text)
        if n != 1:
            sys.exit("ice_floe.py: examples/ice-floe.yaml no longer has the lattice '%s'" % pattern)
    return text


class Watch:
    """Records the force on the ramp and decides when it has peaked and fallen.

    The force of single grains hitting the steel chatters from step to step;
    the decision uses its mean over the last WINDOW seconds."""

    def __init__(self):
        self.t, self.fx, self.fz, self.mean, self.breaks = [], [], [], [], []
        self.peak, self.t_peak, self.low_since = 0.0, None, None
        self.first = 0  # first sample inside the window

    def __call__(self, w):
        f = w.group_force("ramp")
        t = w.time
        self.t.append(t)
        self.fx.append(float(f[0]))
        self.fz.append(float(f[2]))
        self.breaks.append(w.break_count)
        while self.t[self.first] < t - WINDOW:
            self.first += 1
        m = sum(self.fx[self.first:]) / (len(self.t) - self.first)
        self.mean.append(m)
        if m > self.peak:
            self.peak, self.t_peak = m, t
        if self.peak > 0 and m < FALL * self.peak and w.break_count > 0:
            if self.low_since is None:
                self.low_since = t
            return t - self.low_since >= HOLD
        self.low_since = None
        return False


def floes(w, n):
    """A floe label per particle (0: the largest): bodies joined by bonded contacts."""
    c = w.contacts()
    parent = np.arange(n)

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for (a, b), bonded in zip(c["ids"], c["bonded"]):
        if bonded and a < n and b < n:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
    roots = np.array([find(i) for i in range(n)])
    labels, sizes = np.unique(roots, return_counts=True)
    rank = {labels[k]: r for r, k in enumerate(np.argsort(-sizes))}
    return np.array([rank[r] for r in roots])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short form: a sheet of 10 x 30 spheres (seconds)")
    ap.add_argument("--png", default="ice-floe-force.png", help="plot file (default: ./ice-floe-force.png)")
    ap.add_argument("--json", default=None, help="numbers as JSON (default: the plot's name with .json)")
    ap.add_argument("--out", default="ice-floe-out", help="the scene's outputs (default: ./ice-floe-out)")
    ap.add_argument("--threads", type=int, default=None, help="OpenMP threads (default: the scene's)")
    args = ap.parse_args()

    scene = SCENE
    if args.quick:
        os.makedirs(args.out, exist_ok=True)
        scene = os.path.join(args.out, "ice-floe-quick.yaml")
        with open(SCENE) as f:
            text = quick_scene(f.read())
        with open(scene, "w") as f:
            f.write(text)
    w = floe.load(scene, out=args.out, threads=args.threads)
    end = w.end
    print("%s: %d particles, %d contacts, runs to %s = %g" % (os.path.relpath(scene), w.count, w.contact_count,
                                                             end[0], end[1]))
    watch = Watch()
    w.run(until=watch, every=EVERY)
    t_stop = w.time
    stopped = t_stop < end[1] * (1 - 1e-9) if end[0] == "time" else w.step_count < end[1]
    t, fx, mean = np.array(watch.t), np.array(watch.fx), np.array(watch.mean)
    i_peak = int(np.argmax(mean))
    i_max = int(np.argmax(fx))
    result = dict(scene=os.path.relpath(scene), particles=w.count, quick=args.quick,
                  peak_mean_force=float(mean[i_peak]), peak_time=float(t[i_peak]), max_force=float(fx[i_max]),
                  max_force_time=float(t[i_max]), stop_time=float(t_stop), stop_step=int(w.step_count),
                  stopped_early=bool(stopped), end=list(end), breaks=int(w.break_count),
                  mean_force_at_stop=float(mean[-1]), window=WINDOW, fall=FALL, hold=HOLD, every=EVERY,
                  t=watch.t, fx=watch.fx, fz=watch.fz, mean_fx=watch.mean, broken=watch.breaks)
    if stopped:
        print("the ice load (%g ms mean) peaked at %.1f N at t = %.3f s (largest single value %.1f N at %.3f s)"
              % (WINDOW * 1e3, mean[i_peak], t[i_peak], fx[i_max], t[i_max]))
        print("it fell to %.1f N: stopped at t = %.3f s, step %d (the scene runs to %g s); %d bonds broken"
              % (mean[-1], t_stop, w.step_count, end[1], w.break_count))
    else:
        print("the scene ended (t = %.3f s) before the force had peaked and fallen; largest mean %.1f N at %.3f s"
              % (t_stop, mean[i_peak], t[i_peak]))
    sph = np.flatnonzero(np.array(w.shapes) == floe.SHAPES.index("sphere"))
    pos = np.array(w.positions)[sph]
    rad = np.array(w.radii)[sph]
    label = floes(w, w.count)[sph]
    w.close()
    with open(args.json or os.path.splitext(args.png)[0] + ".json", "w") as f:
        json.dump(result, f, indent=1)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import EllipseCollection

    fig = plt.figure(figsize=(11, 7.5))
    grid = fig.add_gridspec(2, 2, height_ratios=[3, 2.2], width_ratios=[1.6, 1])
    ax = fig.add_subplot(grid[0, :])
    ax.plot(t, fx / 1e3, "-", color="C0", lw=0.6, alpha=0.6, label="$F_x$, every %d steps" % EVERY)
    ax.plot(t, mean / 1e3, "-", color="C3", lw=1.8, label="$F_x$, mean over %g ms" % (WINDOW * 1e3))
    ax.plot([t[i_peak]], [mean[i_peak] / 1e3], "v", color="k", ms=8,
            label="peak of the mean: %.2f kN at %.3f s" % (mean[i_peak] / 1e3, t[i_peak]))
    ax.axvline(t_stop, color="0.4", ls="--", lw=1, label="stopped at %.3f s" % t_stop)
    ax.set_xlabel("time [s]")
    ax.set_ylabel("horizontal force on the ramp [kN]")
    ax.set_xlim(max(0.0, t[i_peak] - 0.15), t_stop + 0.01)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    ax.set_title("Level ice against a 40° ramp, run until the load has peaked and fallen (%d spheres)" % len(sph),
                 fontsize=10)
    # the sheet near the ramp at the stop, coloured by floe (grey: the largest)
    colours = np.where(label[:, None] == 0, np.array([[0.7, 0.7, 0.7, 1.0]]),
                       plt.get_cmap("tab10")((label - 1) % 10))
    near = pos[:, 0] > 8.5
    for k, (i, j) in enumerate(((0, 2), (0, 1))):
        a2 = fig.add_subplot(grid[1, k])
        d = 2 * rad[near]
        a2.add_collection(EllipseCollection(d, d, 0, units="xy", offsets=pos[near][:, [i, j]],
                                            transOffset=a2.transData, facecolors=colours[near], edgecolors="none"))
        if k == 0:
            a2.plot([10.5, 12.5], [-0.05, 1.628], "-", color="0.2", lw=2)
            a2.set_xlim(8.5, 11.8)
            a2.set_ylim(-0.15, 0.6)
            a2.set_title("side view at the stop, coloured by floe (grey: the intact sheet)", fontsize=9)
        else:
            a2.axvline(10.5, color="0.2", lw=1, ls=":")
            a2.set_xlim(8.5, 11.0)
            a2.set_ylim(pos[:, 1].min() - 0.1, pos[:, 1].max() + 0.1)
            a2.set_title("top view (dotted: the ramp's toe)", fontsize=9)
        a2.set_aspect("equal")
        a2.set_xlabel("x [m]")
        a2.set_ylabel("z [m]" if k == 0 else "y [m]")
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print("plot: %s; outputs: %s" % (args.png, args.out))


if __name__ == "__main__":
    main()
