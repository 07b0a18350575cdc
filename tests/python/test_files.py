"""Scenes, outputs and restart files from Python: floe.load runs a scene to
the same bytes as `floe run`; w.save / floe.restore continue bit for bit,
outputs included, as `floe resume` does; scene errors keep file:line:col;
ParaView series and CSV tables on demand."""
import filecmp
import os
import subprocess

import numpy as np
import pytest

import floe
from conftest import CLI, DATA, glass_world

SCENE = DATA / "python_indent.yaml"


def outputs(d):
    """Every output file of a run directory, relative names (restart files left out)."""
    names = []
    for root, _, files in os.walk(d):
        for f in files:
            if not f.endswith(".h5") and not f.startswith("."):
                names.append(os.path.relpath(os.path.join(root, f), d))
    return sorted(names)


def same_outputs(a, b):
    na, nb = outputs(a), outputs(b)
    assert na == nb and len(na) == 20  # 5 CSVs, 3 collections, 4 frames of 3 series
    different = [n for n in na if not filecmp.cmp(os.path.join(a, n), os.path.join(b, n), shallow=False)]
    assert different == []


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    r = subprocess.run([str(CLI), "run", str(SCENE), "--out", str(d)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return d


def test_load_runs_like_the_cli(cli_run, tmp_path):
    w = floe.load(SCENE, out=tmp_path)
    assert w.end == ("steps", 1500) and w.has_outputs() and w.scene.endswith("python_indent.yaml")
    assert w.run() == 1500
    assert w.run() == 0  # at the scene's end
    w.close()
    same_outputs(cli_run, tmp_path)  # every CSV, frame and collection, byte for byte
    assert "broken" in (tmp_path / "events.csv").read_text()


def test_load_in_pieces_with_callbacks_writes_the_same(cli_run, tmp_path):
    """Steps taken in several run() calls, with callbacks reading views and
    events kept, write the same outputs: the module only watches."""
    w = floe.load(SCENE, out=tmp_path)
    w.keep_events("all")
    seen = []
    w.run(700, every=7, callback=lambda w: seen.append(w.positions[5][2]))
    broken = []
    w.run(on_event=lambda e: broken.append(e) if e.type == "broken" else None)
    w.close()
    same_outputs(cli_run, tmp_path)
    assert len(seen) == 100
    rows = (tmp_path / "events.csv").read_text().splitlines()[1:]
    csv_broken = [r for r in rows if ",broken," in r and int(r.split(",")[0]) > 700]
    assert len(broken) == len(csv_broken) > 0
    first = broken[0]
    assert isinstance(first, floe.Event) and first.step > 700 and len(first.force) == 3


def test_events_and_history_tables(tmp_path):
    w = floe.load(SCENE, out=None)
    w.record(every=100, columns=[{"name": "fz", "group": "indenter", "quantity": "force.z"},
                                 {"name": "fn01", "contact": (1, 2), "quantity": "fn"}])
    w.run()
    h = w.history()
    assert list(h["step"]) == list(range(0, 1501, 100))
    assert h["fz"][-1] > 0 and h["breaks"][-1] == 352 and h["particles"][0] == 130
    assert set(floe.ENERGY_TERMS) <= set(h)
    ev = w.events()
    assert set(ev["type"]) == {"broken"}  # the default kept types
    assert len(ev["type"]) == 352 and ev["ids"].shape == (352, 2)
    assert len(w.events()["step"]) == 0  # cleared by the first call
    floe.write_csv(tmp_path / "h.csv", h)
    lines = (tmp_path / "h.csv").read_text().splitlines()
    assert lines[0].startswith("step,time,kinetic") and len(lines) == 17
    with pytest.raises(floe.ArgumentError, match="used twice"):
        w.record(columns=[{"name": "time", "counter": "time"}])
    with pytest.raises(floe.ArgumentError, match="particle 999"):
        w.record(columns=[{"name": "x", "particle": 999, "quantity": "pos.x"}])


def test_save_and_restore_continue_bit_for_bit(cli_run, tmp_path):
    d = tmp_path / "out"
    w = floe.load(SCENE, out=d)
    w.run(800)
    w.save(d / "state.h5")
    w.close()  # the final files of an interrupted run, replaced on resume
    w2 = floe.restore(d / "state.h5", out=d)
    assert w2.step_count == 800 and w2.end == ("steps", 1500)
    w2.run()
    w2.close()
    same_outputs(cli_run, d)  # as if never interrupted, like `floe resume`


def test_restore_a_world_built_in_code(tmp_path):
    def build():
        w = glass_world(dt=1e-5, gravity=(0, 0, -9.81))
        w.add_wall("z")
        w.add_lattice(0.0101, (4, 4, 4), 0.005, origin=(0, 0, 0.006), jitter=(5e-4, 5e-4, 0))
        return w

    a, b = build(), build()
    a.run(300)
    b.run(150)
    b.save(tmp_path / "b.h5")
    c = floe.restore(tmp_path / "b.h5")
    assert c.end is None and c.count == a.count
    c.run(150)
    assert np.array_equal(a.positions, c.positions) and np.array_equal(a.velocities, c.velocities)
    with pytest.raises(floe.ArgumentError, match="steps=, time= or until="):
        c.run()
    with pytest.raises(floe.OutputError, match="no/such"):
        c.save(tmp_path / "no" / "such" / "x.h5")
    (tmp_path / "junk.h5").write_bytes(b"not hdf5")
    with pytest.raises(floe.SceneError, match="junk.h5"):
        floe.restore(tmp_path / "junk.h5")


def test_scene_errors_keep_the_position(tmp_path):
    with pytest.raises(floe.SceneError) as e:
        floe.load(DATA / "bad_range.yaml", out=None)
    assert "bad_range.yaml:3:12:" in str(e.value) and "damping" in str(e.value)
    with pytest.raises(floe.SceneError, match="No such file"):
        floe.load(tmp_path / "none.yaml")
    with pytest.warns(floe.SceneWarning, match="implausibly"):
        w = floe.load(DATA / "warn_materials.yaml", out=None)
    w.close()


def test_vtk_series_and_tables(tmp_path):
    w = glass_world(dt=1e-5, gravity=(0, 0, -9.81))
    w.add_wall("z")
    w.add_sphere((0, 0, 0.02), 0.005)
    w.add_capsule((0.1, 0, 0.02), 0.005, 0.01)
    w.write_vtk(tmp_path / "vtk")
    w.run(100)
    w.write_vtk(tmp_path / "vtk")
    names = sorted(os.listdir(tmp_path / "vtk"))
    assert "particles_000100.vtu" in names and "shapes_000000.vtp" in names and "boundaries.pvd" in names
    assert (tmp_path / "vtk" / "particles.pvd").read_text().count("<DataSet") == 2
    w.write_particles_csv(tmp_path / "p.csv")
    w.write_contacts_csv(tmp_path / "c.csv")
    rows = (tmp_path / "p.csv").read_text().splitlines()
    assert len(rows) == 4  # header and three bodies
    (tmp_path / "file").write_text("")
    with pytest.raises(floe.OutputError, match="not a directory"):
        w.write_vtk(tmp_path / "file")


def test_a_zero_step_scene_checks_its_dt_at_the_first_run(tmp_path):
    """A scene of run length 0 loads whatever its checks before the run find
    (docs/scene-format.md#checks-before-the-run); the first run that takes a
    step meets the finding, as `floe run --steps N` does: two touching
    spheres at dt = 1e-3 s, far above their critical step (a few 1e-5 s)."""
    scene = tmp_path / "pair.yaml"
    scene.write_text("world: {dt: 1e-3, gravity: [0, 0, 0]}\nrun: {steps: 0}\n"
                     "materials: [{name: g, density: 2500, young: 1e8}]\n"
                     "particles:\n  - {radius: 0.01, pos: [0, 0, 0]}\n"
                     "  - {radius: 0.01, pos: [0.0199, 0, 0]}\n")
    w = floe.load(str(scene))
    assert w.run(steps=0) == 0  # no step, nothing to check
    with pytest.raises(floe.SceneError, match=r"pair.yaml:1:\d+: world.dt = 0.001 s is above the critical"):
        w.run(steps=10)
    with pytest.raises(floe.SceneError, match="above the critical"):
        w.step()
    assert w.step_count == 0
