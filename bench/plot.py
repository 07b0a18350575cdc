#!/usr/bin/env python3
"""Plot throughput against N and threads from bench/run.sh's results.tsv.

usage: plot.py results.tsv [more.tsv ...] OUT.png

One panel per bench (settle, dense): particle-steps/s (median over the
passes, log scale) against N, one colour per code, solid lines for 1
thread/process and dashed for 2. Needs python3-matplotlib (Debian).
"""
import collections
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"floe": "#d62728", "lammps": "#1f77b4", "liggghts": "#2ca02c", "yade": "#9467bd"}
STYLE = {1: "-", 2: "--"}
MARK = {1: "o", 2: "s"}


def main(paths, out):
    loops = collections.defaultdict(list)
    for p in paths:
        hdr = None
        for ln in open(p):
            if ln.startswith("#"):
                continue
            t = ln.rstrip("\n").split("\t")
            if hdr is None:
                hdr = t
                continue
            r = dict(zip(hdr, t))
            if r["code"] not in COLORS or r["status"] != "ok" or not r["loop_s"]:
                continue
            n, steps = int(r["N"]), int(r["steps"])
            loops[(r["bench"], r["code"], int(r["threads"]), n)].append(n * steps / float(r["loop_s"]))
    benches = [b for b in ("settle", "dense") if any(k[0] == b for k in loops)]
    fig, axes = plt.subplots(1, len(benches), figsize=(6 * len(benches), 4.6), squeeze=False)
    for ax, b in zip(axes[0], benches):
        for code in COLORS:
            for th in (1, 2):
                pts = sorted((k[3], statistics.median(v)) for k, v in loops.items() if k[:3] == (b, code, th))
                if not pts:
                    continue
                ax.plot([p[0] for p in pts], [p[1] for p in pts], STYLE.get(th, ":"), marker=MARK.get(th, "^"),
                        color=COLORS[code], label="%s, %d %s" % (code, th, "thread" if th == 1 else "threads/procs"))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ns = sorted({k[3] for k in loops if k[0] == b})
        ax.set_xticks(ns)
        ax.set_xticklabels(["%dk" % (n // 1000) for n in ns])
        ax.minorticks_off()
        ax.set_xlim(ns[0] / 1.6, ns[-1] * 1.6)
        ax.set_xlabel("particles N")
        ax.set_ylabel("particle-steps per second")
        ax.set_title("%s (%s)" % (b, "dilute, free fall onto the floor" if b == "settle" else "settled packing, 2.2 contacts/particle"))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    fig.suptitle("throughput of the timed loop (median over passes); higher is better", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1:-1], sys.argv[-1])
