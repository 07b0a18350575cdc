#!/usr/bin/env python3
"""Discharged mass against time for examples/hopper.yaml.

Usage: /usr/bin/python3 tools/plot_hopper.py OUT_DIR [PNG]   (Debian's python3-matplotlib)

Reads OUT_DIR/history.csv (columns inserted_mass and discharged_mass, the
history counters inserted_mass and removed_mass of docs/scene-format.md),
fits a straight line to the discharged mass while it grows steadily (from
20 % to 80 % of the final discharged mass) and writes the plot (default
docs/img/hopper_discharge.png) with the mass flow rate of the fit."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    png = sys.argv[2] if len(sys.argv) > 2 else "docs/img/hopper_discharge.png"
    t, m_in, m_out = [], [], []
    with open(out + "/history.csv") as f:
        for row in csv.DictReader(f):
            t.append(float(row["time"]))
            m_in.append(float(row["inserted_mass"]))
            m_out.append(float(row["discharged_mass"]))
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


if __name__ == "__main__":
    main()
