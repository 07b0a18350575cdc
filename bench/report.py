#!/usr/bin/env python3
"""Turn bench/run.sh's results.tsv into the markdown tables of docs/performance.md.

usage: report.py results.tsv [more.tsv ...]     (several files are pooled)

Prints: the throughput table (median loop time per case over the passes,
particle-steps/s, ns per particle-step, ns per contact-step, peak RSS, RSS per
contact, floe's bytes per contact record, floe/peer ratio), floe
against the fastest peer, the speed targets, and the physics check against
the bands of the shared peer benchmark (outside this repository).
"""
import collections
import os
import statistics
import sys

CODE_ORDER = ["floe", "lammps", "liggghts", "yade", "floe-cli"]

# Physics bands at step 2200 from the shared peer benchmark README
# (LIGGGHTS / LAMMPS / Yade; Yade stops at step 1200 on dense 100k).
BANDS = {
    ("settle", 10000): dict(ke=[0.9300, 0.9309, 0.9314], zcm=[0.127792], pp=[2197, 2239, 2312], wall=[287, 289, 322]),
    ("settle", 100000): dict(ke=[9.339, 9.340, 9.353], zcm=[0.127787], pp=[21360, 21355, 21741], wall=[2450, 2451, 2592]),
    ("dense", 10000): dict(ke=[2.29e-6, 2.38e-6, 2.44e-6], zcm=[0.098060], pp=[21746, 21751, 21742], wall=[1465, 1463, 1463]),
    ("dense", 100000): dict(ke=[6.15e-5, 6.15e-5], zcm=[0.096210], pp=[223033, 222994, 222079], wall=[7352, 7350, 7351]),
}
BAND_STEP = 2200
# Tolerance around the peers' range: the peers agree on KE to 0.15 % (settle)
# and on mean z to 5 digits; contact counts differ by up to 5 %; the dense KE
# is a tiny residual (1e-6 J) that differs by 6 % between the peers.
# BENCH_BG_MAX=x: leave out the runs during which other processes used more
# than x cores beyond the ones the run left free (bg_cores - (cpus - threads)),
# when the case has a quieter run. Default: keep every run.
BG_MAX = float(os.environ["BENCH_BG_MAX"]) if os.environ.get("BENCH_BG_MAX") else None
NCPU = os.cpu_count() or 2
TOL = {"ke": {"settle": 0.0025, "dense": 0.10}, "zcm": 1e-5, "pp": 0.05, "wall": 0.05}


def load(paths):
    rows, comments = [], []
    for p in paths:
        with open(p) as f:
            hdr = None
            for ln in f:
                ln = ln.rstrip("\n")
                if ln.startswith("#"):
                    comments.append(ln[1:].strip())
                    continue
                t = ln.split("\t")
                if hdr is None:
                    hdr = t
                    continue
                rows.append(dict(zip(hdr, t)))
    return rows, comments


def fnum(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def fmt_rate(x):
    return "%.3g" % x if x is not None else "–"


def size_label(n):
    return "%dk" % (n // 1000) if n % 1000 == 0 else str(n)


def band_range(key, bench, vals):
    lo, hi = min(vals), max(vals)
    if key == "ke":
        t = TOL["ke"][bench]
        return lo * (1 - t), hi * (1 + t)
    if key == "zcm":
        return lo - TOL["zcm"], hi + TOL["zcm"]
    return lo * (1 - TOL[key]), hi * (1 + TOL[key])


def main(paths):
    rows, comments = load(paths)
    out = []
    w = out.append
    if comments:
        w("Run: " + "; ".join(comments) + "\n")

    # ---- throughput -------------------------------------------------------
    timed = collections.defaultdict(list)
    for r in rows:
        if r["code"] == "floe-cli" or r["status"] != "ok" or fnum(r["loop_s"]) is None:
            continue
        timed[(r["bench"], int(r["N"]), int(r["threads"]), r["code"])].append(r)
    med = {}
    for k, rs in timed.items():
        # runs during which other processes took more than BG_MAX cores are
        # left out when the case has at least one quieter run
        quiet = [r for r in rs if BG_MAX is None or fnum(r.get("bg_cores")) is None
                 or fnum(r.get("bg_cores")) - (NCPU - k[2]) <= BG_MAX]
        ntot = len(rs)
        rs = quiet or rs
        loops = [float(r["loop_s"]) for r in rs]
        steps = int(rs[0]["steps"])
        lm = statistics.median(loops)
        rss = [fnum(r["rss_MB"]) for r in rs if fnum(r["rss_MB"]) is not None]
        bgs = [fnum(r.get("bg_cores")) for r in rs if fnum(r.get("bg_cores")) is not None]
        med[k] = dict(loop=lm, lo=min(loops), hi=max(loops), n=len(loops), ntot=ntot, steps=steps,
                      bg=statistics.median(bgs) if bgs else None, contended=not quiet,
                      rate=k[1] * steps / lm, ns=lm / (k[1] * steps) * 1e9,
                      rss=statistics.median(rss) if rss else None)
    # contacts per case: floe's mean contact count over the timed steps (the same
    # for every thread count: floe is bitwise deterministic); the peers run the
    # same scene with the same physics, so the same count divides their times
    ncon, recb = {}, {}
    for r in rows:
        if r["code"] == "floe" and r["status"] == "ok" and fnum(r.get("mean_contacts")):
            ncon.setdefault((r["bench"], int(r["N"]), int(r["steps"])), []).append(fnum(r["mean_contacts"]))
            if fnum(r.get("contact_B")):
                recb[(r["bench"], int(r["N"]))] = fnum(r["contact_B"])
    ncon = {k: statistics.median(v) for k, v in ncon.items()}
    for k, m in med.items():
        nc = ncon.get((k[0], k[1], m["steps"]))
        m["ncon"] = nc
        m["ns_con"] = m["loop"] / (nc * m["steps"]) * 1e9 if nc else None
        m["rss_con"] = m["rss"] * 1048576 / nc if nc and m["rss"] else None
        m["rec"] = recb.get(k[:2]) if k[3] == "floe" else None
    cases = sorted({k[:3] for k in med}, key=lambda c: (c[0] != "settle", c[1], c[2]))
    w("## Throughput (median of the timed loop over the passes)\n")
    w("particle-steps/s = N × timed steps / median loop time. *others*: median CPU (cores) that other "
      "processes used while the run went on (the machine has %d); with 1 thread the free core is theirs. "
      "peak RSS: `/usr/bin/time -v`, the largest process (one rank for 2 MPI processes)." % NCPU)
    if BG_MAX is not None:
        w(" Runs during which other processes took more than %.2f cores beyond the free ones are left out when "
          "the case has a quieter run (\"k of n\" runs kept)." % BG_MAX)
    w(" *contacts*: floe's contact count averaged over the timed steps (all contacts it keeps, walls included). "
      "*ns/contact-step* = median loop time / (contacts × timed steps) for every code, with floe's count: the "
      "scenes are identical and the physics the same (the contact counts of the physics check below agree), so "
      "one count serves all. *RSS B/contact*: peak RSS / contacts (the whole process: particles, neighbour "
      "lists, everything), comparable between codes. *record B/contact* (floe only): the bytes the contact pass "
      "reads and writes per contact and step, its hot record plus its slot of model state (plus the warm "
      "record where the model's kernel reads it; sizeof, bench/floe_bench.c); the peers "
      "keep contact history in neighbour-list pages that cannot be measured the same way.")
    w("")
    w("| bench | N | threads | code | particle-steps/s | ns/particle-step | contacts | ns/contact-step | loop s: median (min–max, runs) | steps | peak RSS MB | RSS B/contact | record B/contact | others | floe/code |")
    w("|---|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    for c in cases:
        fl = med.get(c + ("floe",))
        for code in CODE_ORDER:
            m = med.get(c + (code,))
            if not m:
                continue
            ratio = "%.2f" % (fl["rate"] / m["rate"]) if fl and code != "floe" else ""
            runs = "%d" % m["n"] if m["n"] == m["ntot"] else "%d of %d" % (m["n"], m["ntot"])
            rng = "%.3g (%.3g–%.3g, %s)" % (m["loop"], m["lo"], m["hi"], runs) if m["n"] > 1 else "%.3g (%s)" % (m["loop"], runs)
            if m["contended"]:
                rng += " ⚠ busy machine"
            w("| %s | %s | %d | %s | %s | %.0f | %s | %s | %s | %d | %s | %s | %s | %s | %s |" % (
                c[0], size_label(c[1]), c[2], code, fmt_rate(m["rate"]), m["ns"],
                "%.0f" % m["ncon"] if m["ncon"] else "–", "%.1f" % m["ns_con"] if m["ns_con"] else "–",
                rng, m["steps"], "%.0f" % m["rss"] if m["rss"] is not None else "–",
                "%.0f" % m["rss_con"] if m["rss_con"] else "–", "%.0f" % m["rec"] if m["rec"] else "",
                "%.2f" % m["bg"] if m["bg"] is not None else "–", ratio))
    w("")

    # ---- floe against the fastest peer ------------------------------------------
    w("## floe against the fastest peer\n")
    w("| bench | N | threads | floe p-steps/s | fastest peer | peer p-steps/s | floe/fastest |")
    w("|---|---:|---:|---:|---|---:|---:|")
    for c in cases:
        fl = med.get(c + ("floe",))
        peers = [(med[c + (p,)]["rate"], p) for p in CODE_ORDER[1:4] if c + (p,) in med]
        if not fl or not peers:
            continue
        best = max(peers)
        w("| %s | %s | %d | %s | %s | %s | **%.2f** |" % (c[0], size_label(c[1]), c[2], fmt_rate(fl["rate"]), best[1],
                                                          fmt_rate(best[0]), fl["rate"] / best[0]))
    w("")

    # ---- speed targets (docs/performance.md) -------------------------------------
    w("## Targets\n")
    w("| target | measured | met |")
    w("|---|---|---|")
    PEERS = ("lammps", "liggghts", "yade")

    def vs_fastest(b, n):
        f = med.get((b, n, 1, "floe"))
        peers = [(med[(b, n, 1, p)]["rate"], p) for p in PEERS if (b, n, 1, p) in med]
        if not f or not peers:
            return None
        best = max(peers)
        return f["rate"] / best[0], best[1]

    for b, n in (("dense", 100000), ("dense", 10000), ("settle", 100000)):
        r = vs_fastest(b, n)
        if r:
            w("| %s %s, 1 thread, ≥ 2x the fastest peer | %.2fx (%s) | %s |" % (
                b, size_label(n), r[0], r[1], "yes" if r[0] >= 2 else "**no**"))
    for b in ("dense", "settle"):
        for n in sorted({c[1] for c in cases if c[0] == b}):
            f1n, f2n = med.get((b, n, 1, "floe")), med.get((b, n, 2, "floe"))
            if f1n and f2n:
                sp = f2n["rate"] / f1n["rate"]
                w("| %s %s, 2 threads ≥ 1.9x 1 thread | %.2fx | %s |" % (
                    b, size_label(n), sp, "yes" if sp >= 1.9 else "**no**"))
    big, small = med.get(("dense", 100000, 1, "floe")), med.get(("dense", 10000, 1, "floe"))
    if big and small:
        q = (big["loop"] / big["steps"]) / (small["loop"] / small["steps"])
        w("| dense time(100k)/time(10k) ≤ 11 | %.2f | %s |" % (q, "yes" if q <= 11 else "**no**"))
    lam = med.get(("dense", 100000, 1, "lammps"))
    if big and lam and big["rss"] and lam["rss"]:
        q = big["rss"] / lam["rss"]
        w("| dense 100k peak RSS ≤ 0.7x LAMMPS | %.0f vs %.0f MB (%.2fx) | %s |" % (
            big["rss"], lam["rss"], q, "yes" if q <= 0.7 else "**no**"))
    w("")
    w("The bonded sheet against Yade (≥ 20x) is measured by `make bench-bonded` (bench/run_bonded.sh).")
    w("")

    # ---- physics check ---------------------------------------------------------
    w("## Physics check (state after warm-up + timed steps)\n")
    w("KE: translational kinetic energy (J); z: mean height of the spheres (m); "
      "pp / wall: particle-particle / particle-wall overlaps. `floe` is the timing driver "
      "(bench/floe_bench.c), `floe-cli` is `floe run` checked from its own energy.csv, "
      "particles.csv and contacts.csv. A check mark means: inside the band of the shared "
      "peer benchmark (step %d) widened by the tolerance: KE ±%.2g %% (settle) / ±%.0f %% (dense), "
      "z ±%.0e m, contacts ±%.0f %%.\n" % (BAND_STEP, TOL["ke"]["settle"] * 100, TOL["ke"]["dense"] * 100,
                                              TOL["zcm"], TOL["pp"] * 100))
    w("| bench | N | code | step | KE (J) | mean z (m) | pp contacts | wall contacts | in band |")
    w("|---|---:|---|---:|---:|---:|---:|---:|---|")
    phys = collections.OrderedDict()
    for r in rows:
        if r["status"] not in ("ok", "physics-only") or fnum(r["ke"]) is None:
            continue
        n = int(r["N"])
        step = int(r["nwarm"]) + int(r["steps"])
        key = (r["bench"], n, r["code"])
        phys.setdefault(key, {})
        # rounded as printed, so that runs differing only in the last bits share a row
        vals = (float("%.6g" % fnum(r["ke"])), round(fnum(r["zcm"]), 6), fnum(r["pp"]), fnum(r["wall"]), step)
        phys[key].setdefault(vals, []).append(r["threads"])
    keys = sorted(phys, key=lambda k: (k[0] != "settle", k[1], CODE_ORDER.index(k[2]) if k[2] in CODE_ORDER else 9))
    last_case = None
    for k in keys:
        b, n, code = k
        band = BANDS.get((b, n))
        if last_case != (b, n) and band:
            w("| %s | %s | *peers (README)* | %d | %s | %s | %s | %s | |" % (
                b, size_label(n), BAND_STEP, " / ".join("%.4g" % v for v in band["ke"]),
                " / ".join("%.6f" % v for v in band["zcm"]), " / ".join("%d" % v for v in band["pp"]),
                " / ".join("%d" % v for v in band["wall"])))
        last_case = (b, n)
        for vals, threads in phys[k].items():
            ke, zcm, pp, wall, step = vals
            verdict = ""
            if band and step == BAND_STEP:
                marks = []
                for name, v in (("ke", ke), ("zcm", zcm), ("pp", pp), ("wall", wall)):
                    lo, hi = band_range(name, b, band[name])
                    marks.append(("✓" if lo <= v <= hi else "✗ " + name))
                verdict = "all ✓" if all(m == "✓" for m in marks) else ", ".join(m for m in marks if m != "✓")
            elif band:
                verdict = "(no reference at this step)"
            w("| %s | %s | %s%s | %d | %.6g | %.6f | %d | %d | %s |" % (
                b, size_label(n), code, " [%s thr]" % ",".join(sorted(set(threads))) if code != "floe-cli" else "",
                step, ke, zcm, pp, wall, verdict))
    w("")
    print("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1:])
