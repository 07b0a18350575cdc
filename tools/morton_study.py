#!/usr/bin/python3
"""Particles in memory order: would a Morton (Z-order) numbering speed floe up?

usage: tools/morton_study.py [--size 100k] [--reps 3] [--warmup 200] [--steps 500]
                             [--cg-size 100k] [--cg-steps 10] [--no-timing] [--no-cachegrind]
                             [--ll 1048576,16,64 --ll 33554432,16,64] [--bench build-release/floe_bench]
                             [--cg-bench build-cg/floe_bench] [--scenes build-bench/scenes]
                             [--out build-bench/morton] [--png docs/img/morton_study.png]

floe itself is not changed: the study renumbers the particles of the dense
bench scene in its input table (bench/gen_scenes.py writes dense_SIZE.csv),
which gives floe the same packing with other particle ids:

  file    the table as the shared packing lists it
  morton  sorted by the Morton key of the positions (21 bits per axis over the
          packing's bounding box, bits interleaved x, y, z; ties keep file order)
  random  a random permutation (seed 1): an input nobody sorted, the worst case

For each order it measures
  * locality: over the sphere pairs that touch (|xi - xj| < ri + rj, the
    bench's pp count), the index distance |i - j| of the two spheres in that
    order (mean, median, 90th percentile, share within 64 ids);
  * time: floe_bench --threads 1 --warmup W --steps S, the orders alternating
    inside each of REPS rounds (the machine is shared: alternation spreads
    the other processes' load over all orders; load1 and the cores other
    processes used are recorded per run); wall time and the process's CPU
    time of the timed loop (which leaves out the time slices others took);
  * cache misses: valgrind --tool=cachegrind --cache-sim=yes over CG_STEPS
    steps, as the difference of a run of 2 + CG_STEPS steps and one of 2
    steps (both without warm-up): loading and the first steps (broad-phase
    build, contact creation) cancel, the regular steps remain. Valgrind
    decodes no AVX-512, so this floe_bench is a separate build for x86-64-v3
    (AVX2) in build-cg/ (built here when missing, as bench/run.sh builds
    build-release/). Cachegrind simulates two levels, so the last level is
    given (--ll, repeatable; default twice: 1 MB, this machine's private L2,
    and 32 MB, an L3 slice); valgrind would otherwise take the 512 MB the
    virtual machine reports for its L3, in which everything fits.

Outputs: OUT/morton_study.tsv (every run), a markdown summary on stdout, and
the plot PNG (matplotlib). Only the standard library is needed otherwise.
"""
import argparse
import bisect
import math
import os
import random
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDERS = ("file", "morton", "random")


def read_table(path):
    head, rows = [], []
    with open(path) as f:
        for ln in f:
            if ln.startswith("#") or not rows and ln.startswith("x,"):
                head.append(ln)
                continue
            t = ln.strip().split(",")
            if len(t) >= 4:
                rows.append(ln if ln.endswith("\n") else ln + "\n")
    return head, rows


def parse_xyzr(rows):
    return [tuple(float(v) for v in r.split(",")[:4]) for r in rows]


def spread3(v):
    """The 21 low bits of v spread to every third bit (Morton interleave)."""
    out = 0
    for b in range(21):
        out |= ((v >> b) & 1) << (3 * b)
    return out


def morton_order(pts):
    lo = [min(p[a] for p in pts) for a in range(3)]
    hi = [max(p[a] for p in pts) for a in range(3)]
    scale = [((1 << 21) - 1) / (hi[a] - lo[a]) if hi[a] > lo[a] else 0.0 for a in range(3)]
    keys = []
    for i, p in enumerate(pts):
        q = [int((p[a] - lo[a]) * scale[a]) for a in range(3)]
        keys.append((spread3(q[0]) | spread3(q[1]) << 1 | spread3(q[2]) << 2, i))
    keys.sort()
    return [i for _, i in keys]


def touching_pairs(pts):
    """Pairs (i, j), i < j, of spheres closer than the sum of their radii: cell grid of 2 r_max."""
    rmax = max(p[3] for p in pts)
    h = 2 * rmax
    lo = [min(p[a] for p in pts) for a in range(3)]
    cells = {}
    for i, p in enumerate(pts):
        cells.setdefault(tuple(int((p[a] - lo[a]) / h) for a in range(3)), []).append(i)
    pairs = []
    for (cx, cy, cz), items in cells.items():
        near = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    near.extend(cells.get((cx + dx, cy + dy, cz + dz), ()))
        for i in items:
            xi, yi, zi, ri = pts[i]
            for j in near:
                if j <= i:
                    continue
                xj, yj, zj, rj = pts[j]
                d2 = (xi - xj) ** 2 + (yi - yj) ** 2 + (zi - zj) ** 2
                if d2 < (ri + rj) ** 2:
                    pairs.append((i, j))
    return pairs


def locality(pairs, perm):
    """Index distances |new(i) - new(j)| of the pairs when file id perm[k] becomes id k."""
    new = [0] * len(perm)
    for k, i in enumerate(perm):
        new[i] = k
    d = sorted(abs(new[i] - new[j]) for i, j in pairs)
    n = len(d)
    return dict(mean=sum(d) / n, median=d[n // 2], p90=d[int(0.9 * n)],
                within64=bisect.bisect_right(d, 64) / n, dists=d)


def busy_ticks():
    with open("/proc/stat") as f:
        t = f.readline().split()
    return sum(int(t[k]) for k in (1, 2, 3, 6, 7, 8))


def run_bench(bench, scene, warmup, steps):
    hz = os.sysconf("SC_CLK_TCK")
    load1 = open("/proc/loadavg").read().split()[0]
    b0, c0, t0 = busy_ticks(), os.times(), time.time()
    out = subprocess.run([bench, scene, "--threads", "1", "--warmup", str(warmup), "--steps", str(steps)],
                         capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    wall, b1, c1 = time.time() - t0, busy_ticks(), os.times()
    if out.returncode != 0:
        raise SystemExit("floe_bench failed on %s:\n%s" % (scene, out.stderr))
    own = (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)
    bg = max(0.0, ((b1 - b0) / hz - own) / wall)
    res = dict(re.findall(r"(\w+)=([-0-9.e+]+)", out.stdout))
    return dict(loop_s=float(res["loop_s"]), cpu_s=float(res.get("loop_cpu_s", "nan")),
                mean_contacts=float(res["mean_contacts"]), load1=float(load1), bg=bg)


def build_bench(builddir, march):
    """floe + floe_bench in BUILDDIR, Release with -march=MARCH (bench/build_floe.sh)."""
    print("building %s/floe_bench (-march=%s)" % (builddir, march), file=sys.stderr)
    subprocess.run([os.path.join(ROOT, "bench", "build_floe.sh"), ROOT, builddir, march], check=True)


def cachegrind(bench, scene, steps, outdir, tag, ll):
    """Cachegrind summary events of floe_bench SCENE --warmup 0 --steps STEPS."""
    cg = os.path.join(outdir, "cachegrind.%s.%d.out" % (tag, steps))
    subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--LL=" + ll, "--cachegrind-out-file=" + cg,
                    bench, scene, "--threads", "1", "--warmup", "0", "--steps", str(steps)],
                   capture_output=True, text=True, check=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    ev, desc = None, []
    for ln in open(cg):
        if ln.startswith("events:"):
            ev = ln.split()[1:]
        elif ln.startswith("desc:"):
            desc.append(ln[5:].strip())
        elif ln.startswith("summary:"):
            return dict(zip(ev, (int(v) for v in ln.split()[1:]))), desc
    raise SystemExit("no summary in " + cg)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", default="100k")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--cg-size", default=None, help="size for cachegrind (default: --size)")
    ap.add_argument("--cg-steps", type=int, default=10)
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument("--no-cachegrind", action="store_true")
    ap.add_argument("--bench", default=os.path.join(ROOT, "build-release", "floe_bench"))
    ap.add_argument("--cg-bench", default=os.path.join(ROOT, "build-cg", "floe_bench"))
    ap.add_argument("--ll", action="append", default=None,
                    help="cachegrind's last level: size,assoc,line; repeat for several (default: 1 MB and 32 MB, 16-way)")
    ap.add_argument("--scenes", default=os.path.join(ROOT, "build-bench", "scenes"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build-bench", "morton"))
    ap.add_argument("--png", default=os.path.join(ROOT, "docs", "img", "morton_study.png"))
    a = ap.parse_args()
    cg_size = a.cg_size or a.size
    a.ll = a.ll or ["1048576,16,64", "33554432,16,64"]
    llname = {ll: "%g MB" % (int(ll.split(",")[0]) / 1048576) for ll in a.ll}
    os.makedirs(a.out, exist_ok=True)
    if not a.no_timing and not os.access(a.bench, os.X_OK):
        raise SystemExit("no %s: build it as bench/run.sh does (make bench QUICK=1 builds it)" % a.bench)
    if not a.no_cachegrind and not os.access(a.cg_bench, os.X_OK):
        build_bench(os.path.dirname(a.cg_bench), "x86-64-v3")

    scenes, loc, pairs_n = {}, {}, {}
    for size in sorted({a.size, cg_size}):
        src = os.path.join(a.scenes, "dense_%s.csv" % size)
        if not os.path.exists(src):
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_scenes.py"), a.scenes, size], check=True)
        head, rows = read_table(src)
        yaml = open(os.path.join(a.scenes, "dense_%s.yaml" % size)).read()
        pts = parse_xyzr(rows)
        perms = {"file": list(range(len(rows))), "morton": morton_order(pts)}
        rnd = list(range(len(rows)))
        random.Random(1).shuffle(rnd)
        perms["random"] = rnd
        pairs = touching_pairs(pts)
        pairs_n[size] = len(pairs)
        for o in ORDERS:
            name = "dense_%s_%s" % (size, o)
            with open(os.path.join(a.out, name + ".csv"), "w") as f:
                f.writelines(head[:-1] + ["# particles renumbered: %s order (tools/morton_study.py)\n" % o, head[-1]])
                f.writelines(rows[i] for i in perms[o])
            with open(os.path.join(a.out, name + ".yaml"), "w") as f:
                f.write(yaml.replace("file: dense_%s.csv" % size, "file: %s.csv" % name))
            scenes[(size, o)] = os.path.join(a.out, name + ".yaml")
            if size == a.size:
                loc[o] = locality(pairs, perms[o])

    tsv = open(os.path.join(a.out, "morton_study.tsv"), "w")
    tsv.write("kind\tsize\torder\trep\tloop_s\tms_per_step\tcpu_ms_per_step\tmean_contacts\tload1\tbg_cores\tIr\tD1_miss\t"
              "LL_miss\tLL_config\n")
    times = {o: [] for o in ORDERS}
    if not a.no_timing:
        for rep in range(1, a.reps + 1):
            # rotate the order of the orders between rounds
            seq = ORDERS[rep % 3:] + ORDERS[:rep % 3]
            for o in seq:
                r = run_bench(a.bench, scenes[(a.size, o)], a.warmup, a.steps)
                times[o].append(r)
                tsv.write("time\t%s\t%s\t%d\t%.4f\t%.4f\t%.4f\t%.1f\t%.2f\t%.2f\t\t\t\t\n" % (
                    a.size, o, rep, r["loop_s"], r["loop_s"] / a.steps * 1e3, r["cpu_s"] / a.steps * 1e3,
                    r["mean_contacts"], r["load1"], r["bg"]))
                tsv.flush()
                print("time %s %-6s rep %d: loop %.3f s (%.2f ms/step, CPU %.2f ms/step), contacts %.0f, load1 %.2f, "
                      "others %.2f cores" % (a.size, o, rep, r["loop_s"], r["loop_s"] / a.steps * 1e3,
                                             r["cpu_s"] / a.steps * 1e3, r["mean_contacts"], r["load1"], r["bg"]),
                      file=sys.stderr)
    cgr, cgdesc = {}, []
    if not a.no_cachegrind:
        for ll in a.ll:
            for o in ORDERS:
                t0 = time.time()
                tag = "%s_%s_%s" % (cg_size, o, ll.split(",")[0])
                e0, _ = cachegrind(a.cg_bench, scenes[(cg_size, o)], 2, a.out, tag, ll)
                e1, desc = cachegrind(a.cg_bench, scenes[(cg_size, o)], 2 + a.cg_steps, a.out, tag, ll)
                cgdesc += [x for x in desc if x not in cgdesc]
                k = a.cg_steps
                d = {e: (e1[e] - e0[e]) / k for e in e1}
                c = cgr.setdefault(o, dict(Ir=d["Ir"], D1=d["D1mr"] + d["D1mw"], LL={}))
                c["LL"][ll] = d["DLmr"] + d["DLmw"]
                tsv.write("cachegrind\t%s\t%s\t\t\t\t\t\t\t\t%.0f\t%.0f\t%.0f\t%s\n" % (
                    cg_size, o, d["Ir"], d["D1mr"] + d["D1mw"], c["LL"][ll], ll))
                tsv.flush()
                print("cachegrind %s %-6s LL %s: per step Ir %.3g, D1 misses %.3g, LL misses %.3g (%.0f s)"
                      % (cg_size, o, llname[ll], d["Ir"], d["D1mr"] + d["D1mw"], c["LL"][ll], time.time() - t0),
                      file=sys.stderr)
    tsv.close()

    # ---- summary -----------------------------------------------------------------
    def median(v):
        v = sorted(v)
        return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2

    med = {o: median(r["loop_s"] for r in times[o]) for o in ORDERS if times[o]}
    cmed = {o: median(r["cpu_s"] for r in times[o]) for o in ORDERS if times[o]}
    print("## Particles in memory order: dense %s, 1 thread (tools/morton_study.py)\n" % a.size)
    print("Touching sphere pairs: %d. Timing: %d warm-up + %d timed steps, %d rounds, orders alternating; "
          "cachegrind: %s, %d regular steps.\n" % (pairs_n[a.size], a.warmup, a.steps, a.reps, cg_size, a.cg_steps))
    print("| order | mean \\|i-j\\| | median | 90 % | within 64 ids | wall ms/step: median (runs) | CPU ms/step: "
          "median (runs) | CPU vs file | contacts | load1 | others (cores) | Ir/step | D1 misses/step | " +
          " | ".join("LL misses/step (%s)" % llname[ll] for ll in a.ll) + " |")
    print("|---|---:|---:|---:|---:|---|---|---:|---:|---|---|---:|---:|" + "---:|" * len(a.ll))
    for o in ORDERS:
        L = loc[o]
        ts = times[o]
        ms = ", ".join("%.1f" % (r["loop_s"] / a.steps * 1e3) for r in ts)
        cs = ", ".join("%.1f" % (r["cpu_s"] / a.steps * 1e3) for r in ts)
        c = cgr.get(o)
        print("| %s | %.0f | %d | %d | %.1f %% | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            o, L["mean"], L["median"], L["p90"], 100 * L["within64"],
            "%.1f (%s)" % (med[o] / a.steps * 1e3, ms) if ts else "–",
            "%.1f (%s)" % (cmed[o] / a.steps * 1e3, cs) if ts else "–",
            "%.3f" % (cmed[o] / cmed["file"]) if ts and "file" in cmed else "–",
            "%.0f" % ts[0]["mean_contacts"] if ts else "–",
            "/".join("%.1f" % r["load1"] for r in ts) or "–", "/".join("%.2f" % r["bg"] for r in ts) or "–",
            "%.3g" % c["Ir"] if c else "–", "%.3g" % c["D1"] if c else "–",
            " | ".join("%.3g" % c["LL"][ll] if c and ll in c["LL"] else "–" for ll in a.ll)))
    if cgdesc:
        print("\nCachegrind caches: " + "; ".join(cgdesc))

    # ---- plot ------------------------------------------------------------------------
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return 0
    fig, ax = plt.subplots(1, 3, figsize=(13, 3.8))
    col = {"file": "C0", "morton": "C2", "random": "C3"}
    for o in ORDERS:
        d = loc[o]["dists"]
        n = len(d)
        ax[0].step([max(v, 0.5) for v in d], [(k + 1) / n for k in range(n)], where="post", color=col[o], label=o)
    ax[0].set_xscale("log")
    ax[0].set_xlabel("index distance |i - j| of touching pairs")
    ax[0].set_ylabel("fraction of pairs")
    ax[0].set_title("locality, dense %s" % a.size)
    ax[0].legend()
    if any(times.values()):
        for k, o in enumerate(ORDERS):
            ys = [r["loop_s"] / a.steps * 1e3 for r in times[o]]
            cs = [r["cpu_s"] / a.steps * 1e3 for r in times[o]]
            ax[1].bar(k, cmed[o] / a.steps * 1e3, color=col[o], alpha=0.6, label="CPU, median" if k == 0 else None)
            ax[1].plot([k - 0.1] * len(cs), cs, "kx", label="CPU, runs" if k == 0 else None)
            ax[1].plot([k + 0.1] * len(ys), ys, "k.", label="wall, runs" if k == 0 else None)
        ax[1].set_xticks(range(3), ORDERS)
        ax[1].set_ylabel("ms per step (1 thread)")
        ax[1].legend(fontsize=8)
        ax[1].set_title("time, %d steps x %d rounds" % (a.steps, a.reps))
    if cgr:
        x = range(3)
        wd = 0.8 / (1 + len(a.ll))
        ax[2].bar([k - 0.4 + wd / 2 for k in x], [cgr[o]["D1"] / 1e3 for o in ORDERS], wd, label="D1 (48 kB) misses",
                  color="C7")
        for j, ll in enumerate(a.ll):
            ax[2].bar([k - 0.4 + wd * (j + 1.5) for k in x], [cgr[o]["LL"].get(ll, 0) / 1e3 for o in ORDERS], wd,
                      label="LL misses, LL = %s" % llname[ll], color="C%d" % (1 + j))
        ax[2].set_xticks(list(x), ORDERS)
        ax[2].set_ylabel("thousand misses per step")
        ax[2].set_title("cachegrind, dense %s" % cg_size)
        ax[2].legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(a.png), exist_ok=True)
    fig.savefig(a.png, dpi=90)
    print("\nplot: %s" % os.path.relpath(a.png, ROOT), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
