"""Example 3: the Ice law in six senses (examples/python/ice_law.py,
docs/python-examples.md) in its short form, against the formulas of
docs/models/ice.md recomputed here."""
import math

import numpy as np

from example_run import run_example


def ice_constants(mat, r):
    """docs/models/ice.md for two spheres of one material, lens = radii."""
    A = math.pi * r * r
    E = mat["young"]
    kn = E * A / (2 * r)  # 1 / (r/(E A) + r/(E A))
    kt = mat["kt_div_kn"] * kn
    cn = mat["break_n"] * E  # break_n (r + r) / (r/E + r/E)
    fnb, ftb = cn * A, mat["beta_t"] * cn * A
    return dict(kn=kn, kt=kt, kw=mat["alpha_w"] * kt * A, kr=mat["alpha_r"] * kn * A, Fnb=fnb, Ftb=ftb,
                Twb=mat["beta_w"] * ftb * math.sqrt(A), Trb=mat["beta_r"] * fnb * math.sqrt(A),
                rho=math.sqrt(A / math.pi))


def test_ice_law_matches_its_formulas(tmp_path):
    """Each sense loaded monotonically (after a pre-compression p for the
    frictional senses): elastic k u while bonded; the first sample whose trial
    value exceeds the strength breaks every sense; then the contact goes
    (normal, tension) or the value is held at its plastic limit (shear
    p tan_phi, twist rho p tan_phi, rolling rho p mu). Agreement to 1e-9 of the
    value (of 1 % of the strength where the load passes through 0); what the
    engine reads differs from the formula only by round-off in the gap
    |x_B - x_A| - 2R, a difference of numbers 1e6 times larger (measured
    8e-11 at most)."""
    out, _ = run_example("ice_law", tmp_path)
    mat, r = out["material"], out["radius"]
    c = ice_constants(mat, r)
    # the worked example of docs/models/ice.md (IceMat defaults, R = 1 cm, E = 1 GPa), to its printed digits
    doc = dict(kn=1.5707963e7, kw=986.9604, kr=4934.8022, Fnb=31.415927, Ftb=3.1415927, Twb=5.568328e-3,
               Trb=5.568328e-2)
    for k, v in doc.items():
        assert abs(c[k] / v - 1) < 1e-7, k
    senses = {}
    for t in out["tests"]:
        u, val, fn = (np.array(t[k]) for k in ("u", "value", "fn"))
        p = c["kn"] * t["pre"]
        k, strength, limit = {
            "normal": (c["kn"], c["Fnb"], 0.0),
            "shear": (c["kt"], c["Ftb"], p * mat["tan_phi"]),
            "twist": (c["kw"], c["Twb"], c["rho"] * p * mat["tan_phi"]),
            "bending": (c["kr"], c["Trb"], c["rho"] * p * mat["mu"]),
        }[t["sense"]]
        trial = k * u
        broken = np.cumsum(trial > strength) > 0
        assert broken.any() and not broken[0], t["name"]  # the bond broke within the run
        expect = np.where(broken, np.minimum(trial, limit), trial)
        fn_expect = expect if t["sense"] == "normal" else np.full_like(u, -p)
        floor = 0.01 * strength
        err = np.abs(val - expect) / np.maximum(np.abs(expect), floor)
        assert err.max() < 1e-9, "%s: relative error %.2e at u = %g" % (t["name"], err.max(), u[err.argmax()])
        err_n = np.abs(fn - fn_expect) / np.maximum(np.abs(fn_expect), 0.01 * c["Fnb"])
        assert err_n.max() < 1e-9, "%s: normal force off by %.2e" % (t["name"], err_n.max())
        # nothing in any other direction
        assert t["off_axis"] <= 1e-9 * strength, t["name"]
        # the loading went past the break: the samples after it sit on the limit
        assert broken.sum() >= 0.25 * len(u), t["name"]
        senses[t["name"]] = t["sense"]
    assert sorted(senses) == ["bending y", "bending z", "normal", "shear y", "shear z", "twist"]
