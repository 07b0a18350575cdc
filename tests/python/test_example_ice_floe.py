"""Example 2: the ice demo until its load has peaked and fallen
(examples/python/ice_floe.py, docs/python-examples.md) in its short form:
when the load came, how the stop was decided, that it came early."""
import math

import numpy as np

from example_run import run_example


def test_ice_floe_stops_after_the_load_peaked_and_fell(tmp_path):
    """The scene's sheet front (sphere centres at x = 9.95 m, radius 0.05 m,
    on z = 0) moves at 1 m/s towards the ramp, whose plane rises at 40 degrees
    from (10.5, -0.05); a sphere touches the plane when its centre is 0.05 m
    from it, at x = 10.5 + (0.05 - 0.05/cos 40)/tan 40 = 10.482 m, so the first
    force on the ramp comes at t = 0.532 s (to one look at the force, 10 steps,
    and one step of the sheet's approach). The run must then stop, before the
    scene's end, once the 10 ms mean of the force has stayed below 20 % of its
    peak for 20 ms, with bonds broken."""
    out, text = run_example("ice_floe", tmp_path, "--out", str(tmp_path / "out"))
    t, fx, mean = (np.array(out[k]) for k in ("t", "fx", "mean_fx"))
    assert out["stopped_early"] and out["end"][0] == "time" and out["stop_time"] < out["end"][1]
    assert out["breaks"] > 0
    # first contact with the ramp where the geometry puts it
    a = math.radians(40)
    x_touch = 10.5 + (0.05 - 0.05 / math.cos(a)) / math.tan(a)
    t_touch = x_touch - 9.95
    t_first = t[np.flatnonzero(fx != 0)[0]]
    dt = out["stop_time"] / out["stop_step"]
    assert t_touch - dt <= t_first <= t_touch + (out["every"] + 1) * dt, (t_first, t_touch)
    # the mean the script used, recomputed: over the samples of the last 10 ms
    for i in range(0, len(t), 7):
        inside = (t >= t[i] - out["window"]) & (t <= t[i])
        assert abs(mean[i] - fx[inside].mean()) <= 1e-9 * max(1.0, abs(mean[i]))
    peak = mean.max()
    i_peak = int(mean.argmax())
    assert peak > 0 and abs(out["peak_mean_force"] - peak) <= 1e-9 * peak
    # fallen: below 20 % of the peak for the last 20 ms, and not before the peak
    last = t >= out["stop_time"] - out["hold"] - 1e-12
    assert np.all(mean[last] < out["fall"] * peak)
    assert t[i_peak] < out["stop_time"] - out["hold"]
    # and it stopped as soon as that held: 20 ms before the stop the mean was not yet low for 20 ms
    earlier = (t < out["stop_time"] - 1e-12) & (t >= out["stop_time"] - 2 * out["hold"])
    assert not np.all(mean[earlier] < out["fall"] * peak)
    assert "stopped at" in text
