"""Example 1: triaxial tests and the Mohr-Coulomb envelope
(examples/python/triaxial.py, docs/python-examples.md) in its short form:
peaks found, the envelope refitted here and its friction angle in a band."""
import math

import numpy as np

from example_run import run_example


def test_triaxial_finds_peaks_and_an_envelope(tmp_path):
    """Three servo-controlled triaxial tests on the quick specimen (386
    soft-bonded spheres). Checked: the servo holds the lateral stress at the
    peak within 10 % of sigma_3; every test reaches a peak and runs on until q
    has fallen to 80 % of it; the dense cemented specimen dilates after the
    peak (volumetric strain falls); the peak sigma_1 grows with sigma_3; the
    envelope refitted here (least squares sigma_1 = s_c + N sigma_3, sin phi =
    (N - 1)/(N + 1), c = s_c / (2 sqrt N)) agrees with the script's.

    Plausible band: the friction angle between 10 and 45 degrees, around the
    particles' atan(0.5) = 26.6 degrees, which bounds the sliding of broken
    bonds. The confinements (sigma_3 <= 0.07 UCS; higher ones turn the small
    specimen ductile) make the fit sensitive to the specimen's scatter: the
    quick specimen packed from seeds 1, 2, 3 and 7 gives 22.8, 35.0, 25.4 and
    16.7 degrees (seed 7 is the script's). The cohesion positive and below
    the bonds' own strength, 5 MPa (the bonds of a failure plane do not all
    carry load at once); measured 2.66 MPa (seed 7)."""
    out, text = run_example("triaxial", tmp_path)
    tests = out["tests"]
    assert len(tests) == 3
    for t in tests:
        pk = t["peak"]
        assert t["dropped"], "sigma_3 = %g: %s" % (t["sigma3_target"], t["stop"])
        q = np.array(t["q"])
        ea = np.array(t["axial_strain"])
        ev = np.array(t["vol_strain"])
        assert pk["q"] > 0 and 0 < pk["axial_strain"] < ea[-1]
        # the run went on past the peak until q (its mean over the last 0.2 % of strain) fell to 80 %
        tail = ea > ea[-1] - out["window"]
        assert q[tail].mean() <= out["drop"] * pk["q"] * (1 + 1e-9)
        assert abs(pk["sigma3"] / t["sigma3_target"] - 1) < 0.1
        i_peak = int(np.argmin(np.abs(ea - pk["axial_strain"])))
        assert ev[-1] < ev[i_peak]
    s3 = np.array([t["peak"]["sigma3"] for t in tests])
    s1 = np.array([t["peak"]["sigma1"] for t in tests])
    assert np.all(np.diff(s1) > 0)
    A = np.vstack([np.ones_like(s3), s3]).T
    sc, N = np.linalg.lstsq(A, s1, rcond=None)[0]
    phi = math.degrees(math.asin((N - 1) / (N + 1)))
    c = sc / (2 * math.sqrt(N))
    env = out["envelope"]
    assert abs(env["phi_deg"] - phi) < 1e-6 and abs(env["cohesion"] / c - 1) < 1e-6
    assert 10 <= phi <= 45, "friction angle %.1f deg" % phi
    assert 0 < c < 5e6, "cohesion %.3g Pa" % c
    assert "friction angle" in text
