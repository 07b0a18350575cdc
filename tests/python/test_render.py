"""Pictures of a run (docs/render.md): floe.render, floe.animate,
World.render and `floe render`. The pictures are opened and checked by
size and content: in a side view of spheres floating on water before a
ramp, the two groups' colours appear in the order of the spheres, the ramp's
pixels (its edge-on facets) lie to the right of them and rise to the right, the water's colour
fills the view below the floating spheres and not above them. The mean
stress of two pressed spheres is checked against its closed form."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import floe
from conftest import CLI, ROOT

mpl_image = pytest.importorskip("matplotlib.image")

BLUE, ORANGE = (31, 119, 180), (255, 127, 14)  # the first two group colours (tab10)
WATER = (221, 233, 245)  # #c6dbef at alpha 0.6 over white


def scene(tmp_path, frames=3):
    """Six spheres of group a (x = 0 .. 1) and two of group b (x = 1.2, 1.4)
    floating at z = 0 on water of level 0, a ramp of two facets rising from
    (2, z = -1) to (3, z = 0.5) across y = -1 .. 1; `frames` frames in
    tmp_path/out."""
    w = floe.World(gravity=(0, 0, -9.81), dt=1e-4)
    w.add_material("ice", "linear", density=900, young=1e7)
    w.add_group("a")
    w.add_group("b")
    for k in range(6):
        w.add_sphere((0.2 * k, 0, 0), 0.1, group="a")
    for x in (1.2, 1.4):
        w.add_sphere((x, 0, 0), 0.1, group="b")
    p = [(2, -1, -1), (3, -1, 0.5), (3, 1, 0.5), (2, 1, -1)]
    w.add_facet([p[0], p[1], p[2]])
    w.add_facet([p[0], p[2], p[3]])
    w.set_water(level=0.0)
    out = tmp_path / "out"
    for _ in range(frames):
        w.write_vtk(str(out))
        w.run(steps=5)
    return w, out


def near(img, rgb, tol):
    """Mask of the pixels within tol (0..255) of rgb in every channel."""
    px = img[:, :, :3] * 255.0
    return np.all(np.abs(px - np.array(rgb)) <= tol, axis=2)


def axes_box(img):
    """Rows and columns inside the frame of the (single) axes: the black
    lines that run over more than a third of the picture."""
    dark = np.all(img[:, :, :3] < 0.15, axis=2)
    rows = np.where(dark.mean(axis=1) > 0.33)[0]
    cols = np.where(dark.mean(axis=0) > 0.2)[0]
    assert len(rows) >= 2 and len(cols) >= 2, "no axes frame found"
    return rows.min() + 2, rows.max() - 2, cols.min() + 2, cols.max() - 2


def test_png_size_and_content(tmp_path):
    w, out = scene(tmp_path)
    png = floe.render(str(out), -1, str(tmp_path / "side.png"), color="group", view="side")
    img = mpl_image.imread(png)
    assert img.shape[:2] == (800, 1200)  # the default size, pixels
    r0, r1, c0, c1 = axes_box(img)
    inside = np.zeros(img.shape[:2], dtype=bool)
    inside[r0:r1, c0:c1] = True
    blue, orange = near(img, BLUE, 12) & inside, near(img, ORANGE, 12) & inside
    # the spheres' discs: group a (6 spheres) has 3 times group b's pixels
    assert blue.sum() > 500 and orange.sum() > 150
    assert 2.0 < blue.sum() / orange.sum() < 4.0
    bc, oc = np.nonzero(blue)[1], np.nonzero(orange)[1]
    assert bc.max() < oc.min()  # a left of b, as the spheres lie
    # the ramp, edge on: its brown line (#5b4a32), right of the spheres, rising to the right
    px = img[:, :, :3] * 255
    brown = (px[:, :, 0] - px[:, :, 2] > 15) & (px[:, :, 0] < 170) & inside
    brown[:, : oc.max() + 5] = False
    gr, gc = np.nonzero(brown)
    assert len(gc) > 100
    assert np.corrcoef(gc, gr)[0, 1] < -0.9  # rows count down: higher is a smaller row
    # the water: fills the view below the spheres' centres, nothing of it above their tops
    water = near(img, WATER, 6) & inside
    top = np.nonzero(blue)[0].min()
    centre = (np.nonzero(blue)[0].min() + np.nonzero(blue)[0].max()) // 2
    assert water[:top].sum() == 0
    below = water[centre + 10 : r1, c0 : bc.min()]
    assert below.mean() > 0.9


def test_sizes_fields_and_views(tmp_path):
    w, out = scene(tmp_path)
    for color in floe._render.FIELDS:
        png = floe.render(str(out), 0, str(tmp_path / ("%s.png" % color)), color=color, size=(600, 400))
        assert mpl_image.imread(png).shape[:2] == (400, 600)
    png = floe.render(str(out), time=0.0, view="top,side")
    assert os.path.basename(png) == "render_000000.png" and os.path.dirname(png) == str(out)
    with pytest.raises(floe._render.RenderError, match="frame 7 is out of range: the run has 3 frames"):
        floe.render(str(out), 7)
    with pytest.raises(floe._render.RenderError, match="view 'sideways': allowed are auto, side, top, front"):
        floe.render(str(out), view="sideways")
    with pytest.raises(floe._render.RenderError, match="colour 'heat': allowed are speed, group"):
        floe.render(str(out), color="heat")
    with pytest.raises(floe._render.RenderError, match="no particles.pvd here"):
        floe.render(str(tmp_path))


def test_world_render(tmp_path):
    w, out = scene(tmp_path, frames=1)
    png = w.render(str(tmp_path / "w.png"), color="group", view="side", size=(800, 500))
    img = mpl_image.imread(png)
    assert img.shape[:2] == (500, 800)
    assert near(img, BLUE, 12).sum() > 100 and near(img, ORANGE, 12).sum() > 30
    os.chdir(tmp_path)  # the default: render_<step>.png here
    assert w.render() == "render_%06d.png" % w.step_count and os.path.exists(tmp_path / w.render())


def test_empty_frame(tmp_path):
    """A frame without particles (its placeholder point is not drawn)."""
    w = floe.World(gravity=(0, 0, -9.81), dt=1e-4)
    w.add_material("ice", "linear", density=900, young=1e7)
    w.add_wall("z", 0.0, sense=1)
    w.write_vtk(str(tmp_path / "out"))
    frame = floe._render.read_frame(str(tmp_path / "out"))
    assert list(frame["particles"]["point"]["id"]) == [-1]
    png = floe.render(str(tmp_path / "out"), color="none", png=str(tmp_path / "e.png"))
    img = mpl_image.imread(png)
    assert near(img, (140, 153, 173), 10).sum() == 0  # no particle colour


def test_stress_closed_form(tmp_path):
    """Two spheres pressed together, no gravity: each one's mean stress is
    p = |l| F / (3 V), l from its centre to the contact point, F the
    contact force, V = 4/3 pi r^3 (a sum of l (x) f over one contact);
    compression positive. Relative tolerance 1e-12."""
    w = floe.World(gravity=(0, 0, 0), dt=1e-6)
    w.add_material("glass", "linear", density=2500, young=1e8)
    r = 0.01
    w.add_sphere((0, 0, 0), r)
    w.add_sphere((2 * r - 2e-4, 0, 0), r)
    w.step()
    w.write_vtk(str(tmp_path / "out"))
    fr = floe._render.read_frame(str(tmp_path / "out"))
    p = floe._render._bodies(fr["particles"])
    c = fr["contacts"]["cell"]
    assert len(c["id_a"]) == 1
    f = np.linalg.norm(c["force_global"][0])
    got = floe._render._pressure(p, fr["contacts"])
    for k in range(2):
        lk = np.linalg.norm(c["point"][0] - p["pos"][k])
        want = lk * f / (3 * 4.0 / 3.0 * np.pi * r**3)
        assert got[k] == pytest.approx(want, rel=1e-12)
        assert got[k] > 0


def test_gif_and_mp4(tmp_path):
    w, out = scene(tmp_path, frames=4)
    gif = floe.animate(str(out), str(tmp_path / "run.gif"), color="speed", size=(400, 300), fps=5)
    from PIL import Image

    with Image.open(gif) as im:
        assert im.size == (400, 300)
        assert im.n_frames == 4
    if shutil.which("ffmpeg"):
        mp4 = floe.animate(str(out), str(tmp_path / "run.mp4"), size=(400, 300))
        with open(mp4, "rb") as f:
            assert f.read(12)[4:8] == b"ftyp"
    else:
        with pytest.raises(floe._render.RenderError, match="an MP4 needs ffmpeg, which is not on PATH"):
            floe.animate(str(out), str(tmp_path / "run.mp4"))


def test_cli(tmp_path):
    w, out = scene(tmp_path, frames=2)
    png = tmp_path / "cli.png"
    r = subprocess.run([str(CLI), "render", str(out), "--png", str(png), "--view", "side", "--color", "group",
                        "--size", "640x480"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "floe render: wrote %s" % png in r.stdout
    assert mpl_image.imread(str(png)).shape[:2] == (480, 640)
    r = subprocess.run([str(CLI), "render", str(tmp_path / "nowhere")], capture_output=True, text=True)
    assert r.returncode == 2 and "no such directory" in r.stderr
    r = subprocess.run([str(CLI), "render", str(out), "--size", "10x10"], capture_output=True, text=True)
    assert r.returncode == 2 and "WIDTHxHEIGHT in pixels, each 64 .. 8000" in r.stderr
    env = dict(os.environ, FLOE_RENDER_PYTHON=str(tmp_path / "no-python"))
    r = subprocess.run([str(CLI), "render", str(out)], capture_output=True, text=True, env=env)
    assert r.returncode == 1 and "floe render needs Python 3 with matplotlib and numpy" in r.stderr
    # an interpreter without matplotlib (-S: no site packages)
    script = ROOT / "python" / "floe" / "_render.py"
    r = subprocess.run([sys.executable, "-S", str(script), str(out)], capture_output=True, text=True)
    assert r.returncode == 2 and "install Debian's python3-matplotlib" in r.stderr


def test_vtk_reads_the_frames(tmp_path):
    """VTK's own XML readers (the ones ParaView uses; python3-vtk9, skipped
    without it) read the frames as floe means them: an empty particles
    frame has its one placeholder point and every point array; in a
    boundaries frame with a periodic cell, a wall and water, the cell data
    of the 12 lines (VTK_LINE, shape -2) come before the wall's and the
    water's quads (VTK_QUAD, shapes 1 and -1)."""
    vtk = pytest.importorskip("vtk")
    w = floe.World(gravity=(0, 0, -9.81), dt=1e-5)
    w.add_material("m", "linear", density=900, young=1e7)
    w.add_wall("z", 0.0, sense=1)
    w.write_vtk(str(tmp_path / "empty"))
    w.add_sphere((0.5, 0.5, 0.1), 0.1)
    w.add_sphere((0.5, 1.5, 0.3), 0.1)
    w.set_periodic(0, 0.0, 1.0)
    w.set_periodic(1, 0.0, 2.0)
    w.set_water(level=0.2)
    w.write_vtk(str(tmp_path / "full"))

    def read(reader, pattern):
        (path,) = list(tmp_path.glob(pattern))
        r = reader()
        r.SetFileName(str(path))
        r.Update()
        return r.GetOutput()

    d = read(vtk.vtkXMLUnstructuredGridReader, "empty/particles_*.vtu")
    pd = d.GetPointData()
    assert (d.GetNumberOfPoints(), d.GetNumberOfCells(), pd.GetNumberOfArrays()) == (1, 0, 13)
    assert pd.GetArray("id").GetValue(0) == -1 and pd.GetArray("velocity").GetNumberOfTuples() == 1
    d = read(vtk.vtkXMLPolyDataReader, "full/boundaries_*.vtp")
    shape = d.GetCellData().GetArray("shape")
    cells = [(d.GetCellType(i), int(shape.GetValue(i))) for i in range(d.GetNumberOfCells())]
    assert cells == [(vtk.VTK_LINE, -2)] * 12 + [(vtk.VTK_QUAD, 1), (vtk.VTK_QUAD, -1)]
    assert d.GetBounds()[4] < 0.2 and d.GetPoint(d.GetCell(13).GetPointId(0))[2] == 0.2
