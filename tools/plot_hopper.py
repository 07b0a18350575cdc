#!/usr/bin/env python3
"""Discharged mass against time for examples/hopper.yaml.

Usage: /usr/bin/python3 tools/plot_hopper.py OUT_DIR [PNG] [--json FILE]   (Debian's python3-matplotlib)

Reads OUT_DIR/history.csv (columns inserted_mass and discharged_mass, the
history counters inserted_mass and removed_mass of docs/scene-format.md),
fits a straight line to the discharged mass while it grows steadily (from
20 % to 80 % of the final discharged mass) and writes the plot (default
docs/img/hopper_discharge.png) with the mass flow rate of the fit. --json
writes what docs/supply.md quotes: the steps, the masses inserted and
discharged, the beads discharged, the first and the last discharge (to the
history's resolution) and the rate."""
import csv
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    args = sys.argv[1:]
    js = None
    if "--json" in args:
        i = args.index("--json")
        js = args[i + 1]
        del args[i:i + 2]
    if not args:
        sys.exit(__doc__)
    out = args[0]
    png = args[1] if len(args) > 1 else "docs/img/hopper_discharge.png"
    t, m_in, m_out, n_out = [], [], [], []
    with open(out + "/history.csv") as f:
        for row in csv.DictReader(f):
            t.append(float(row["time"]))
            m_in.append(float(row["inserted_mass"]))
            m_out.append(float(row["discharged_mass"]))
            n_out.append(int(float(row["discharged"])))
    final = m_out[-1]
    sel = [i for i in range(len(t)) if 0.2 * final <= m_out[i] <= 0.8 * final]
    rate = None
    if len(sel) >= 2:
        xs = [t[i] for i in sel]
        ys = [m_out[i] for i in sel]
        n = len(xs)
        mx, my = sum(xs) / n, sum(ys) / n
        sxx = sum((x - mx) ** 2 for x in xs)
        rate = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
        t0 = mx - my / rate
    fig, ax = plt.subplots(figsize=(6.4, 4))
    ax.plot(t, [1e3 * m for m in m_in], label="inserted by the inlet")
    ax.plot(t, [1e3 * m for m in m_out], label="discharged (removed by the sink)")
    if rate:
        ax.plot([xs[0], xs[-1]], [1e3 * rate * (x - t0) for x in (xs[0], xs[-1])], "k--",
                label="steady discharge: %.1f g/s" % (1e3 * rate))
    ax.set_xlabel("time [s]")
    ax.set_ylabel("mass [g]")
    ax.set_title("hopper: pour, settle, gate opens at 0.5 s, discharge")
    ax.legend(loc="upper left")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print("inserted %.4g g, discharged %.4g g; steady rate %s" %
          (1e3 * m_in[-1], 1e3 * final, "%.4g g/s" % (1e3 * rate) if rate else "n/a"))
    if js:
        with open(out + "/energy.csv") as f:
            steps = int(list(csv.DictReader(f))[-1]["step"])
        first = next(x for x, n in zip(t, n_out) if n > 0)
        last = next(x for x, n in zip(t, n_out) if n == n_out[-1])
        with open(js, "w") as f:
            json.dump({"steps": steps, "inserted_g": 1e3 * m_in[-1], "discharged_g": 1e3 * final,
                       "discharged": n_out[-1], "first_s": first, "last_s": last, "rate_gs": 1e3 * rate}, f, indent=1)


if __name__ == "__main__":
    main()
