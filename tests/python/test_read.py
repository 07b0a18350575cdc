"""floe.read: floe's own output files back into numpy (docs/python.md,
"Reading outputs"), checked against the World that wrote them: the
17-digit values of particles.csv, history.csv and contacts.csv and the
binary frames read back bit for bit, energy.csv's 12-digit terms to 1e-11,
the restart file's state bit for bit."""
import warnings

import numpy as np
import pytest

import floe
from conftest import DATA

SCENE = DATA / "python_indent.yaml"  # 1500 steps, history every 50, energy every 100, frames every 500


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = tmp_path_factory.mktemp("out")
    w = floe.load(SCENE, out=str(d))
    w.run()
    state = {
        "pos": np.array(w.positions), "time": w.time, "error": w.energy["error"], "breaks": w.break_count,
        "ids": w.contacts()["ids"], "fn": w.contacts()["force_local"][:, 0],
    }
    w.save(str(d / "restart_000000001500.h5"))
    w.close()  # writes particles.csv and contacts.csv
    return d, state


def test_tables_read_back_what_was_written(run):
    d, s = run
    r = floe.read(d)
    p = r.particles
    np.testing.assert_array_equal(np.stack([p["x"], p["y"], p["z"]], axis=1), s["pos"])  # %.17g round-trips
    assert list(p["id"]) == list(range(len(s["pos"]))) and set(p["shape"]) == {"sphere", "wall"}
    h = r.history
    assert h.dtype.names == ("step", "time", "fz", "z5", "bonded")
    assert list(h["step"]) == list(range(0, 1501, 50)) and h["z5"][-1] == s["pos"][5, 2]
    e = r.energy
    assert list(e["step"]) == list(range(0, 1501, 100))
    assert e["error"][-1] == pytest.approx(s["error"], rel=1e-11, abs=1e-300)  # written with 12 digits
    assert e["time"][-1] == s["time"]
    ev = r.events
    assert set(ev["type"]) <= set(floe.EVENT_TYPES) and np.sum(ev["type"] == "broken") == s["breaks"] > 0
    c = r.contacts
    np.testing.assert_array_equal(np.stack([c["a"], c["b"]], axis=1), s["ids"])
    np.testing.assert_array_equal(c["fn"], s["fn"])
    assert r.measurements is None  # the scene has no regions
    assert floe.unit(e, "kinetic") == "J" and floe.unit(e, "error") == "-" and floe.unit(p, "x") == "m"
    assert floe.unit(c, "kn") == "N/m" and floe.unit(h, "time") == "s" and floe.unit(h, "fz") is None


def test_frames_by_time_and_the_restart_state(run):
    d, s = run
    r = floe.read(d)
    f = r.frames("particles")
    assert list(f.steps) == [0, 500, 1000, 1500] and len(f) == 4
    np.testing.assert_allclose(f.times, [0, 1e-3, 2e-3, 3e-3], rtol=1e-12, atol=0)
    last = f.at(2.9e-3)  # the nearest frame: step 1500
    assert last["Step"] == 1500 and last["TimeValue"] == s["time"]
    assert list(last["id"]) == list(range(1, len(s["pos"])))  # the wall is in boundaries.pvd
    np.testing.assert_array_equal(last["Points"], s["pos"][last["id"]])  # Float64 binary
    assert last["velocity"].shape == (len(s["pos"]) - 1, 3)
    assert len(r.frames("contacts")[3]["id_a"]) == len(s["ids"])
    with pytest.raises(FileNotFoundError, match="no shapes.pvd .series there: boundaries, contacts, particles"):
        r.frames("shapes")
    w = r.restart()
    np.testing.assert_array_equal(w.positions, s["pos"])
    assert w.step_count == 1500 and r.restarts[-1].endswith("restart_000000001500.h5")


def test_a_repeated_column_is_renamed_with_a_warning(tmp_path):
    # the history.csv an older scene could write: a second `time` column
    (tmp_path / "history.csv").write_text("step,time,time\n0,0,0\n10,0.5,0.5\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        h = floe.read(tmp_path).history
    assert h.dtype.names == ("step", "time", "time_1") and list(h["time_1"]) == [0.0, 0.5]
    assert "the column 'time' appears twice; the second is read as 'time_1'" in str(caught[0].message)
    (tmp_path / "energy.csv").write_text("step,time\n0,0\n10\n")
    with pytest.raises(ValueError, match=r"energy.csv:3: 1 fields, the header has 2"):
        floe.read(tmp_path / "energy.csv")


def test_pandas_frames_carry_the_units(run):
    d, s = run
    try:
        import pandas  # noqa: F401  (Debian's python3-pandas; not required by floe)
    except ImportError:
        with pytest.raises(ImportError, match="apt-get install python3-pandas"):
            floe.read(d, pandas=True)
        return
    df = floe.read(d, pandas=True).particles
    assert df.attrs["units"]["vx"] == "m/s" and len(df) == len(s["pos"])
    np.testing.assert_array_equal(df[["x", "y", "z"]].to_numpy(), s["pos"])
