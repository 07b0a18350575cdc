"""One name for friction (docs/decisions.md#one-name-for-friction): the
soft-bond model's friction coefficient is tan_phi, as in Linear and Hertz;
its former name fric is taken everywhere with a deprecation warning (Python)
or a scene warning, restart files written under it restore it, and both
names give the same run."""
import warnings

import numpy as np
import pytest

import floe


def pair(**friction):
    """Two soft-bond spheres pressed and sheared: the friction coefficient decides the shear force."""
    w = floe.World(dt=1e-7)
    w.add_material("rock", "softbond", density=2500, young=1e9, **friction)
    w.add_sphere((0, 0, 0), 0.01, fixed=True)
    w.add_sphere((0.0199, 0, 0), 0.01, vel=(0, 0.5, 0), block="xyzXYZ")
    return w


def test_tan_phi_is_the_name_and_fric_warns():
    assert "tan_phi" in floe.models()["softbond"]["material_params"]
    assert "fric" not in floe.models()["softbond"]["material_params"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = pair(tan_phi=0.5)  # no warning
    with pytest.warns(DeprecationWarning, match=r"fric=: the former name of model softbond's tan_phi"):
        old = pair(fric=0.5)
    assert new.material_params("rock")["tan_phi"] == old.material_params("rock")["tan_phi"] == 0.5
    with pytest.warns(DeprecationWarning):
        old.set_material("rock", fric=0.25)
    assert old.material_params("rock")["tan_phi"] == 0.25
    old.set_material("rock", tan_phi=0.5)
    new.run(200)
    old.run(200)
    np.testing.assert_array_equal(new.contacts()["force"], old.contacts()["force"])
    assert abs(new.contacts()["force_local"][0, 1]) > 0  # sheared: the friction coefficient is read


SCENE = """world: {dt: 1e-7}
run: {steps: 10}
materials:
  - {name: rock, model: softbond, density: 2500, young: 1e9, %s}
particles:
  - {radius: 0.01, pos: [0, 0, 0], fixed: true}
  - {radius: 0.01, pos: [0.0199, 0, 0]}
"""


def test_scenes_take_the_former_name_with_a_warning(tmp_path):
    p = tmp_path / "old.yaml"
    p.write_text(SCENE % "fric: 0.5")
    with pytest.warns(floe.SceneWarning, match=r"old.yaml:4:\d+: warning: materials\[0\].fric: 'fric' is the former "
                                               r"name of model softbond's 'tan_phi'"):
        w = floe.load(p, out=None)
    assert w.material_params("rock")["tan_phi"] == 0.5
    p.write_text(SCENE % "fric: 0.5, tan_phi: 0.5")
    with pytest.raises(floe.SceneError, match=r"materials\[0\].fric: give tan_phi or its former name fric, not both"):
        floe.load(p, out=None)


def test_a_restart_file_written_under_the_former_name_restores_it(tmp_path):
    # A restart file lists each model's material keys (/models/<model>/mat_params); one written
    # before the rename says fric where it now says tan_phi. The file's raw strings are rewritten
    # in place (fixed-length, NUL-padded, not checksummed: only HDF5's metadata is).
    w = pair(tan_phi=0.5)
    f = tmp_path / "state.h5"
    w.save(str(f))
    data = f.read_bytes()
    assert data.count(b"tan_phi\x00") >= 1
    f.write_bytes(data.replace(b"tan_phi\x00", b"fric\x00\x00\x00\x00"))
    assert floe.restore(str(f)).material_params("rock")["tan_phi"] == 0.5
