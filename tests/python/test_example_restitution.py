"""Example 4: restitution against dp_nratio (examples/python/restitution.py,
docs/python-examples.md) in its short form, against the closed form derived
here."""
import math

from example_run import run_example


def test_restitution_follows_the_closed_form(tmp_path):
    """Linear spring-dashpot, contact ending at zero overlap: with zeta =
    dp_nratio (c_n = 2 zeta sqrt(m kn), src/models/linear.c, the critical
    damping of m u'' + c u' + kn u = 0 is 2 sqrt(m kn)), u(t) = -(v0/w_d)
    exp(-zeta w t) sin(w_d t) returns to 0 at t = pi/w_d with speed
    v0 exp(-zeta w pi/w_d): e = exp(-pi zeta / sqrt(1 - zeta^2)).

    Tolerance: the contact starts and ends between two steps, so each end is
    off by up to one step's dashpot impulse at the impact speed, c_n v0 dt,
    relative to m v0: 2 zeta w dt = 2 pi zeta / N with N = t_c/dt steps per
    (undamped) contact; plus 1e-6 for the undamped bounce (measured 5e-10)."""
    out, text = run_example("restitution", tmp_path)
    n = out["steps_per_contact"]
    rows = out["rows"]
    zetas = [r["dp_nratio"] for r in rows]
    assert zetas[0] == 0 and max(zetas) >= 0.8 and len(rows) >= 6
    for r in rows:
        z = r["dp_nratio"]
        e = math.exp(-math.pi * z / math.sqrt(1 - z * z))
        tol = 2 * math.pi * z / n + 1e-6
        assert abs(r["e"] - e) <= tol, "dp_nratio %g: e = %.6f, closed form %.6f (tolerance %.1e)" % (
            z, r["e"], e, tol)
    # the restitution falls as the damping grows
    es = [r["e"] for r in rows]
    assert all(a > b for a, b in zip(es, es[1:]))
    assert "closed form" in text
