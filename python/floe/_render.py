#!/usr/bin/python3
"""Pictures of a floe run: a PNG of one frame, a GIF or MP4 of the run.

    floe render OUT_DIR                          # the last frame -> OUT_DIR/render_<step>.png
    floe render OUT_DIR --frame 0 --color group  # the first frame, by group
    floe render OUT_DIR --movie run.gif          # every frame (run.mp4 with Debian's ffmpeg)

From Python: floe.render(dir, frame=-1, ...), floe.animate(dir, path, ...)
and World.render(png, ...). What is drawn, the colour fields and the views:
docs/render.md.

It reads the ParaView series a run writes into OUT_DIR (particles.pvd and,
when present, contacts.pvd, boundaries.pvd, shapes.pvd; docs/outputs.md)
and draws them with matplotlib's Agg backend: offscreen, no display needed.
This file stands alone (numpy and matplotlib, Debian's python3-numpy and
python3-matplotlib; GIF through Pillow, python3-pil; MP4 through ffmpeg):
the `floe render` command runs it as a script, the floe module imports it.
"""
import argparse
import math
import os
import re
import shutil
import sys

__all__ = ["render", "animate", "frames", "read_frame", "render_world", "FIELDS", "VIEWS"]

# colour fields (docs/render.md#colour)
FIELDS = ("speed", "group", "floe", "stress", "none")
# views: the axis looked along is dropped; (horizontal, vertical) axes kept
VIEWS = {"side": (0, 2), "top": (0, 1), "front": (1, 2)}
_LOOK = {"side": 1, "top": 2, "front": 0}  # the axis each view looks along
# shape codes of the frames (docs/outputs.md)
WALL, FACET, CYLINDER, WATER, CELL = 1, 2, 5, -1, -2


class RenderError(Exception):
    """A run directory, frame or option that cannot be drawn, with the reason."""


def _need_plotting():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:
        raise RenderError(
            "%s: floe render draws with matplotlib and numpy: install Debian's python3-matplotlib and "
            "python3-numpy (apt-get install python3-matplotlib python3-numpy, or "
            "tools/ensure-deps.sh python3-matplotlib python3-numpy) and use /usr/bin/python3" % e) from None


# ---- reading floe's VTK XML files --------------------------------------------

_TYPES = {"Float64": "f8", "Float32": "f4", "Int64": "i8", "Int32": "i4", "UInt32": "u4", "UInt8": "u1",
          "UInt64": "u8", "Int8": "i1"}


def read_vtk(path):
    """One .vtu/.vtp frame as floe writes it (raw appended data, UInt64 block
    sizes): a dict with 'points' (n, 3), 'point', 'cell' and 'field' (name ->
    array), 'lines' and 'polys' (lists of index arrays), 'comment'."""
    import numpy as np

    with open(path, "rb") as f:
        data = f.read()
    at = data.find(b"<AppendedData")
    if at < 0:
        raise RenderError("%s: not a VTK XML file with appended data (written by floe?)" % path)
    head = data[:at].decode("utf-8", "replace")
    start = data.index(b"_", at) + 1
    order = "<" if 'byte_order="LittleEndian"' in head else ">"
    out = {"point": {}, "cell": {}, "field": {}, "lines": [], "polys": [], "points": np.zeros((0, 3))}
    m = re.search(r"<!--(.*?)-->", head)
    out["comment"] = m.group(1).strip() if m else ""
    section = None
    conn = {}
    for tag in re.finditer(r"<(/?)(\w+)([^>]*)>", head):
        close, name, attrs = tag.groups()
        if name in ("FieldData", "PointData", "CellData", "Points", "Cells", "Lines", "Polys"):
            section = None if close else name
            continue
        if name != "DataArray" or section is None:
            continue
        a = dict(re.findall(r'(\w+)="([^"]*)"', attrs))
        dt = np.dtype(order + _TYPES[a["type"]])
        off = start + int(a["offset"])
        nbytes = int(np.frombuffer(data, dtype=order + "u8", count=1, offset=off)[0])
        arr = np.frombuffer(data, dtype=dt, count=nbytes // dt.itemsize, offset=off + 8)
        ncomp = int(a.get("NumberOfComponents", "1"))
        if ncomp > 1:
            arr = arr.reshape(-1, ncomp)
        key = a["Name"]
        if section == "FieldData":
            out["field"][key] = arr
        elif section == "PointData":
            out["point"][key] = arr
        elif section == "CellData":
            out["cell"][key] = arr
        elif section == "Points":
            out["points"] = arr.reshape(-1, 3)
        else:
            conn[(section, key)] = arr
    for sec, key in (("Lines", "lines"), ("Polys", "polys")):
        c, o = conn.get((sec, "connectivity")), conn.get((sec, "offsets"))
        if c is not None and o is not None:
            out[key] = np.split(c, o[:-1]) if len(o) else []
    return out


def _read_pvd(path):
    """[(time, file path)] of a .pvd collection, in its order."""
    with open(path) as f:
        text = f.read()
    base = os.path.dirname(path)
    return [(float(t), os.path.join(base, name)) for t, name in
            re.findall(r'timestep="([^"]+)"[^>]*file="([^"]+)"', text)]


def frames(out_dir):
    """The frames of a run directory: [(time, particles frame path)]."""
    pvd = os.path.join(out_dir, "particles.pvd")
    if not os.path.isdir(out_dir):
        raise RenderError("%s: no such directory (give the --out directory of a floe run)" % out_dir)
    if not os.path.exists(pvd):
        raise RenderError("%s: no particles.pvd here: the run wrote no ParaView frames (is output.vtk off? "
                          "docs/outputs.md)" % out_dir)
    fr = _read_pvd(pvd)
    if not fr:
        raise RenderError("%s: particles.pvd lists no frames yet" % pvd)
    return fr


def _pick(fr, frame, time):
    if time is not None:
        return min(range(len(fr)), key=lambda k: abs(fr[k][0] - time))
    if not -len(fr) <= frame < len(fr):
        raise RenderError("frame %d is out of range: the run has %d frames (0 .. %d, or -1 for the last)"
                          % (frame, len(fr), len(fr) - 1))
    return frame % len(fr)


def read_frame(out_dir, frame=-1, time=None):
    """Frame `frame` (an index into particles.pvd, negative from the end; or
    the one nearest `time` s) of a run: a dict with 'time', 'step',
    'particles', and 'contacts', 'boundaries', 'shapes' (None when the run
    did not write them; read_vtk's dicts)."""
    fr = frames(out_dir)
    k = _pick(fr, frame, time)
    t, path = fr[k]
    out = {"time": t, "index": k, "count": len(fr), "particles": read_vtk(path)}
    step = out["particles"]["field"].get("Step")
    out["step"] = int(step[0]) if step is not None and len(step) else k
    for series in ("contacts", "boundaries", "shapes"):
        out[series] = None
        pvd = os.path.join(out_dir, series + ".pvd")
        if os.path.exists(pvd):
            same = [p for tt, p in _read_pvd(pvd) if tt == t]
            if same:
                out[series] = read_vtk(same[-1])
    return out


# ---- what the picture holds ----------------------------------------------------


def _bodies(pf):
    """The particles of a frame without the placeholder of an empty frame."""
    import numpy as np

    ids = pf["point"].get("id", np.zeros(0, dtype=int))
    keep = ids >= 0
    p = {k: v[keep] for k, v in pf["point"].items()}
    p["pos"] = pf["points"][keep]
    return p


def _floes(p, contacts):
    """Floe number of each particle: connected through bonded contacts (Ice
    `bonded` = 1, soft-bond `sb_state` 3, 4 or 5), 0 the largest."""
    import numpy as np

    n = len(p["id"])
    parent = np.arange(n)
    if contacts is not None and n:
        c = contacts["cell"]
        bonded = np.zeros(len(c.get("id_a", [])), dtype=bool)
        if "bonded" in c:
            bonded |= np.nan_to_num(c["bonded"]) > 0.5
        if "sb_state" in c:
            bonded |= np.isin(np.nan_to_num(c["sb_state"]), (3, 4, 5))
        index = {int(i): k for k, i in enumerate(p["id"])}

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for a, b in zip(c["id_a"][bonded], c["id_b"][bonded]):
            ia, ib = index.get(int(a)), index.get(int(b))
            if ia is not None and ib is not None:
                ra, rb = find(ia), find(ib)
                if ra != rb:
                    parent[ra] = rb
        roots = np.array([find(i) for i in range(n)])
    else:
        roots = parent
    labels, inverse, sizes = np.unique(roots, return_inverse=True, return_counts=True)
    rank = np.empty(len(labels), dtype=int)
    rank[np.argsort(-sizes, kind="stable")] = np.arange(len(labels))
    return rank[inverse]


def _volume(p):
    """Each particle's volume: a sphere's, an ellipsoid's, a capsule's."""
    import numpy as np

    he = p["half_extents"]
    r = p["radius"]
    vol = 4.0 / 3.0 * np.pi * he[:, 0] * he[:, 1] * he[:, 2]
    caps = p["shape"] == 3
    vol[caps] = 4.0 / 3.0 * np.pi * r[caps] ** 3 + np.pi * r[caps] ** 2 * 2 * (he[caps, 0] - r[caps])
    return vol


def _pressure(p, contacts):
    """Each particle's mean stress from its contacts, compression positive:
    p = -tr(sigma)/3, sigma = (1/V) sum over its contacts of l (x) f, l from
    its centre to the contact point, f the force on it (docs/render.md)."""
    import numpy as np

    n = len(p["id"])
    out = np.zeros(n)
    if contacts is None or n == 0 or "id_a" not in contacts["cell"]:
        return out
    c = contacts["cell"]
    index = np.full(int(max(p["id"].max(), c["id_a"].max(initial=0), c["id_b"].max(initial=0))) + 1, -1)
    index[p["id"]] = np.arange(n)
    f = c["force_global"]
    pt = c["point"]
    nrm = c["normal"]
    for ids, sign in ((c["id_a"], 1.0), (c["id_b"], -1.0)):
        k = index[ids]
        ok = k >= 0
        lv = pt[ok] - p["pos"][k[ok]]
        # across a periodic face the contact point lies at A's image of B:
        # the branch is then the radius along the normal (+n for A, -n for B)
        far = np.linalg.norm(lv, axis=1) > 1.5 * p["half_extents"][k[ok]].max(axis=1)
        lv[far] = sign * nrm[ok][far] * p["radius"][k[ok]][far, None]
        trace = np.einsum("ij,ij->i", lv, sign * f[ok])
        np.add.at(out, k[ok], trace)
    return -out / (3.0 * _volume(p))


def _ellipses(p, view):
    """Width, height (m) and angle (degrees) of each particle's outline seen
    in `view`: the shadow of its ellipsoid (half_extents turned by its
    orientation; a capsule's through its tips and waist, a sphere's circle)."""
    import numpy as np

    h, v = VIEWS[view]
    q = p["orientation"]
    w, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    R = np.empty((len(q), 3, 3))
    R[:, 0, 0] = 1 - 2 * (y * y + z * z)
    R[:, 0, 1] = 2 * (x * y - w * z)
    R[:, 0, 2] = 2 * (x * z + w * y)
    R[:, 1, 0] = 2 * (x * y + w * z)
    R[:, 1, 1] = 1 - 2 * (x * x + z * z)
    R[:, 1, 2] = 2 * (y * z - w * x)
    R[:, 2, 0] = 2 * (x * z - w * y)
    R[:, 2, 1] = 2 * (y * z + w * x)
    R[:, 2, 2] = 1 - 2 * (x * x + y * y)
    A = np.einsum("nij,nj,nkj->nik", R, p["half_extents"] ** 2, R)  # R diag(a^2) R^T
    M = A[:, [h, v]][:, :, [h, v]]
    val, vec = np.linalg.eigh(M)
    val = np.sqrt(np.clip(val, 0, None))
    ang = np.degrees(np.arctan2(vec[:, 1, 1], vec[:, 0, 1]))
    return 2 * val[:, 1], 2 * val[:, 0], ang


def _colours(p, field, contacts):
    """(values or RGB rows, colour map or None, label) for the field."""
    import numpy as np

    n = len(p["id"])
    if field == "speed":
        return np.linalg.norm(p["velocity"], axis=1), "viridis", "speed (m/s)"
    if field == "stress":
        return _pressure(p, contacts) / 1e3, "RdBu_r", "mean stress, compression > 0 (kPa)"
    if field == "group":
        # one colour per group mask present (bit g: group g, in the scene's order)
        masks, inverse = np.unique(p["groups"].astype(np.int64), return_inverse=True)
        palette = np.array([_TAB10[k % len(_TAB10)] for k in range(len(masks))]).reshape(-1, 3)
        def name(m):
            bits = [str(b) for b in range(32) if m >> b & 1]
            return "no group" if not bits else ("group " if len(bits) == 1 else "groups ") + ", ".join(bits)

        legend = [(name(m), palette[k]) for k, m in enumerate(masks)]
        return palette[inverse], None, legend
    if field == "floe":
        fl = _floes(p, contacts)
        rng = np.random.default_rng(1)
        palette = rng.uniform(0.15, 0.95, size=(max(1, fl.max() + 1 if n else 1), 3))
        palette[0] = (0.72, 0.75, 0.78)  # the largest floe
        nfl = int((np.bincount(fl) >= 2).sum()) if n else 0
        return palette[fl] if n else np.zeros((0, 3)), None, "floes of 2+ particles: %d" % nfl
    return np.tile([0.55, 0.6, 0.68], (n, 1)), None, ""


def _auto_views(p, bnd):
    """The views that show a scene: side (looking along y) unless y is all
    of it; top (along z) too when the scene is deep in y."""
    import numpy as np

    pos = p["pos"]
    if len(pos) == 0:
        return ["side"]
    d = 2 * float(np.median(p["radius"])) or 1.0
    ext = pos.max(axis=0) - pos.min(axis=0)
    thin_y, thin_z = ext[1] < 3 * d, ext[2] < 3 * d
    walls = bnd is not None and (len(bnd["polys"]) or len(bnd["lines"]))
    if thin_y:
        return ["side"]
    if thin_z:
        return ["top", "side"] if walls else ["top"]
    return ["top", "side"]


def _scene_limits(p, bnd, view, pad=0.05):
    """Axis limits of a view: the particles, the facets, the cell's edges
    and, in a view from the side, the water's level; walls and the water's
    quad (as wide as the walls) do not widen it."""
    import numpy as np

    h, v = VIEWS[view]
    pts = [np.zeros((0, 2))]
    if len(p["pos"]):
        reach = p["half_extents"].max(axis=1)[:, None]
        pts += [p["pos"][:, [h, v]] - reach, p["pos"][:, [h, v]] + reach]
    level = None
    if bnd is not None:
        shape = bnd["cell"].get("shape", np.zeros(0, dtype=int))
        nl = len(bnd["lines"])
        for k, poly in enumerate(bnd["polys"]):
            if shape[nl + k] == FACET:
                pts.append(bnd["points"][poly][:, [h, v]])
            elif shape[nl + k] == WATER:
                level = float(bnd["points"][poly][0, 2])
        pts += [bnd["points"][line][:, [h, v]] for k, line in enumerate(bnd["lines"]) if shape[k] == CELL]
    allp = np.vstack(pts)
    if len(allp) == 0 and bnd is not None and len(bnd["points"]):
        allp = bnd["points"][:, [h, v]]  # walls alone
    if len(allp) == 0:
        return (-1.0, 1.0), (-1.0, 1.0)
    if level is not None and v == 2:
        allp = np.vstack([allp, [[allp[0, 0], level]]])
    lo, hi = allp.min(axis=0), allp.max(axis=0)
    span = max(float((hi - lo).max()), 1e-9)
    lo, hi = lo - pad * span, hi + pad * span
    return (float(lo[0]), float(hi[0])), (float(lo[1]), float(hi[1]))


def _union(a, b):
    if a is None:
        return b
    return ((min(a[0][0], b[0][0]), max(a[0][1], b[0][1])), (min(a[1][0], b[1][0]), max(a[1][1], b[1][1])))


_AXIS = "xyz"
_TAB10 = [(0.122, 0.467, 0.706), (1.0, 0.498, 0.055), (0.173, 0.627, 0.173), (0.839, 0.153, 0.157),
          (0.58, 0.404, 0.741), (0.549, 0.337, 0.294), (0.89, 0.467, 0.761), (0.498, 0.498, 0.498),
          (0.737, 0.741, 0.133), (0.09, 0.745, 0.812)]
WATER_RGB = "#c6dbef"
FACET_RGB, FACET_EDGE = "#d8cbb3", "#5b4a32"  # a warm grey, apart from the largest floe's cool grey
WATER_LINE = "#3182bd"


def _draw(ax, fr, view, field, limits=None, crange=None):
    """Draws frame `fr` in `view` onto the axes; returns the mappable of a
    continuous field (for its colour bar) or None."""
    import numpy as np
    from matplotlib.collections import EllipseCollection, LineCollection, PolyCollection

    h, v = VIEWS[view]
    look = _LOOK[view]
    p = _bodies(fr["particles"])
    bnd = fr["boundaries"]
    xl, yl = limits if limits is not None else _scene_limits(p, bnd, view)
    ax.set_xlim(*xl)
    ax.set_ylim(*yl)
    ax.set_aspect("equal")
    ax.set_xlabel("%s (m)" % _AXIS[h])
    ax.set_ylabel("%s (m)" % _AXIS[v])
    # the boundaries under the particles: water, walls, facets, cylinders, then the cell on top
    if bnd is not None:
        shape = bnd["cell"].get("shape", np.zeros(0, dtype=int))
        nl = len(bnd["lines"])
        walls, facets = [], []
        for k, poly in enumerate(bnd["polys"]):
            s = int(shape[nl + k])
            xy = bnd["points"][poly][:, [h, v]]
            if s == WATER:
                level = float(bnd["points"][poly][0, 2])
                if v == 2:
                    ax.axhspan(min(yl[0], level), level, color=WATER_RGB, alpha=0.6, zorder=0, lw=0)
                    ax.axhline(level, color=WATER_LINE, lw=1.2, zorder=0.5)
                else:
                    ax.set_facecolor(WATER_RGB)
            elif s == WALL:
                # a wall seen edge on is a line; one facing the viewer is the backdrop and is left out
                normal_axis = int(np.argmin(np.ptp(bnd["points"][poly], axis=0)))
                if normal_axis != look:
                    walls.append(xy)
            else:
                facets.append(xy)
        if walls:
            ax.add_collection(PolyCollection(walls, facecolors="#636363", edgecolors="#252525", alpha=0.5,
                                             linewidths=1.5, zorder=1))
        if facets:
            ax.add_collection(PolyCollection(facets, facecolors=FACET_RGB, edgecolors=FACET_EDGE, alpha=0.8,
                                             linewidths=1.5, zorder=1))
        cell = [bnd["points"][line][:, [h, v]] for k, line in enumerate(bnd["lines"]) if shape[k] == CELL]
        if cell:
            ax.add_collection(LineCollection(cell, colors="k", linestyles="--", linewidths=0.8, zorder=3))
    shp = fr["shapes"]
    if shp is not None and len(shp["polys"]):
        s = shp["point"].get("shape")
        tris = [shp["points"][t][:, [h, v]] for t in shp["polys"] if s is not None and s[t[0]] == CYLINDER]
        if tris:
            ax.add_collection(PolyCollection(tris, facecolors="#969696", edgecolors="none", alpha=0.6, zorder=1))
    mappable = None
    if len(p["id"]):
        vals, cmap, label = _colours(p, field, fr["contacts"])
        wdt, hgt, ang = _ellipses(p, view)
        # far ones first, so that near ones cover them
        if view == "side":
            order = np.argsort(-p["pos"][:, look])  # looking along +y: far is large y
        else:
            order = np.argsort(p["pos"][:, look])  # looking down z or along -x: far is small
        kw = dict(offsets=p["pos"][order][:, [h, v]], transOffset=ax.transData, units="xy", zorder=2,
                  linewidths=0.2, edgecolors="#00000055")
        col = EllipseCollection(wdt[order], hgt[order], ang[order], **kw)
        if cmap is None:
            col.set_facecolor(vals[order])
            if isinstance(label, list) and len(label) <= 12:
                from matplotlib.patches import Patch

                ax.legend(handles=[Patch(color=rgb, label=text) for text, rgb in label], fontsize=8,
                          loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
        else:
            col.set_array(np.asarray(vals, dtype=float)[order])
            col.set_cmap(cmap)
            if crange is not None:
                col.set_clim(*crange)
            mappable = (col, label)
        ax.add_collection(col)
    return mappable


def _title(fr, field, name, p):
    n = len(p["id"])
    extra = ""
    if field == "floe" and n:
        extra = ", " + _colours(p, field, fr["contacts"])[2]
    return "%s: t = %.4g s, step %d, %d particles%s" % (name, fr["time"], fr["step"], n, extra)


def _figure(views, limits, size, dpi):
    """The figure and one axes per view: stacked or side by side, whichever
    draws the scene larger."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    w, h = size
    fig = plt.figure(figsize=(w / dpi, h / dpi), dpi=dpi)
    n = len(views)

    def scale(rows, cols):  # the drawing scale (pixels per metre) the tightest view gets
        return min(min(w / cols / (lx[1] - lx[0]), h / rows / (ly[1] - ly[0])) for lx, ly in (limits[v] for v in views))

    rows, cols = (n, 1) if scale(n, 1) >= scale(1, n) else (1, n)
    axes = [fig.add_subplot(rows, cols, k + 1) for k in range(len(views))]
    return fig, axes


def _colour_bar(fig, axes, mappable):
    from matplotlib.ticker import ScalarFormatter

    fmt = ScalarFormatter(useOffset=False)
    fmt.set_powerlimits((-3, 4))
    fig.colorbar(mappable[0], ax=axes, label=mappable[1], shrink=0.8, format=fmt)


def _clim(vals, field="speed"):
    """The colour range of a field: its values' range, from 0 when they
    barely vary (a sheet at rest, a drift at one speed); stress about 0,
    so that white is no stress, red compression, blue tension."""
    import numpy as np

    if field == "stress":
        top = float(np.nanmax(np.abs(vals))) if len(vals) else 0.0
        top = top if top > 0 else 1.0
        return [-top, top]

    vals = np.asarray(vals, dtype=float)
    vals = vals[np.isfinite(vals)]
    if len(vals) == 0:
        return [0.0, 1.0]
    lo, hi = float(vals.min()), float(vals.max())
    if hi - lo <= 1e-6 * max(abs(lo), abs(hi)):
        lo, hi = min(0.0, lo), max(0.0, hi)
    if hi == lo:
        hi = lo + 1.0
    return [lo, hi]


def _parse_views(view, p, bnd):
    views = _auto_views(p, bnd) if view in (None, "auto") else [s.strip() for s in str(view).split(",")]
    for s in views:
        if s not in VIEWS:
            raise RenderError("view %r: allowed are auto, %s (or two joined by a comma: top,side)"
                              % (s, ", ".join(VIEWS)))
    return views


def _check_field(color):
    if color not in FIELDS:
        raise RenderError("colour %r: allowed are %s" % (color, ", ".join(FIELDS)))


def render(out_dir, frame=-1, png=None, color="speed", view="auto", size=(1200, 800), dpi=100, time=None,
           title=None):
    """render(out_dir, frame=-1, png=None, color="speed", view="auto", size=(1200, 800), dpi=100, time=None, title=None) -> str

    Writes a PNG of frame `frame` of the run in out_dir (an index into its
    particles.pvd, negative from the end; or the frame nearest `time` s) and
    returns its path (default OUT_DIR/render_<step>.png). color: speed,
    group, floe, stress or none; view: auto, side, top, front, or two
    joined by a comma ("top,side"); size in pixels."""
    _need_plotting()
    _check_field(color)
    fr = read_frame(out_dir, frame, time)
    p = _bodies(fr["particles"])
    views = _parse_views(view, p, fr["boundaries"])
    limits = {vw: _scene_limits(p, fr["boundaries"], vw) for vw in views}
    fig, axes = _figure(views, limits, size, dpi)
    import matplotlib.pyplot as plt

    crange = _clim(_colours(p, color, fr["contacts"])[0], color) if color in ("speed", "stress") else None
    for ax, vw in zip(axes, views):
        m = _draw(ax, fr, vw, color, limits[vw], crange)
    fig.suptitle(_title(fr, color, title or os.path.basename(os.path.abspath(out_dir)), p), fontsize=10)
    fig.tight_layout()
    if m is not None:
        _colour_bar(fig, axes, m)
    if png is None:
        png = os.path.join(out_dir, "render_%06d.png" % fr["step"])
    fig.savefig(png, dpi=dpi)
    plt.close(fig)
    return png


def animate(out_dir, path, color="speed", view="auto", size=(960, 640), dpi=100, fps=10, every=1):
    """animate(out_dir, path, color="speed", view="auto", size=(960, 640), dpi=100, fps=10, every=1) -> str

    Writes every `every`-th frame of the run as a GIF (path ending in .gif,
    Pillow) or an MP4 (.mp4, needs Debian's ffmpeg on PATH), with the same
    axes and colour scale in every frame; returns path."""
    _need_plotting()
    _check_field(color)
    import numpy as np
    import matplotlib.pyplot as plt
    from matplotlib import animation

    ext = os.path.splitext(path)[1].lower()
    if ext == ".mp4":
        if not shutil.which("ffmpeg"):
            raise RenderError("%s: an MP4 needs ffmpeg, which is not on PATH: install Debian's ffmpeg "
                              "(apt-get install ffmpeg) or write a .gif" % path)
        writer = animation.FFMpegWriter(fps=fps)
    elif ext == ".gif":
        writer = animation.PillowWriter(fps=fps)
    else:
        raise RenderError("%s: a movie is a .gif or an .mp4" % path)
    if every < 1:
        raise RenderError("every = %d: at least 1" % every)
    fr_list = frames(out_dir)
    picks = list(range(0, len(fr_list), every))
    if picks[-1] != len(fr_list) - 1:
        picks.append(len(fr_list) - 1)
    # one pass for the axes and the colour scale common to all frames
    limits, views, crange = {}, None, [math.inf, -math.inf]
    for k in picks:
        fr = read_frame(out_dir, k)
        p = _bodies(fr["particles"])
        if views is None or (view in (None, "auto") and len(p["id"]) and len(views) == 1):
            views = _parse_views(view, p, fr["boundaries"])
        for vw in VIEWS:
            limits[vw] = _union(limits.get(vw), _scene_limits(p, fr["boundaries"], vw))
        if color in ("speed", "stress") and len(p["id"]):
            vals = _colours(p, color, fr["contacts"])[0]
            crange = [min(crange[0], float(np.min(vals))), max(crange[1], float(np.max(vals)))]
    crange = _clim(crange, color) if crange[0] <= crange[1] else [0.0, 1.0]
    fig, axes = _figure(views, limits, size, dpi)
    bar = []

    def draw(k):
        fr = read_frame(out_dir, k)
        p = _bodies(fr["particles"])
        for ax, vw in zip(axes, views):
            ax.clear()
            m = _draw(ax, fr, vw, color, limits[vw], crange)
            if m is not None and not bar:
                bar.append(m)
        fig.suptitle(_title(fr, color, os.path.basename(os.path.abspath(out_dir)), p), fontsize=10)
        return []

    draw(picks[0])
    fig.tight_layout()
    if bar:
        _colour_bar(fig, axes, bar[0])
    anim = animation.FuncAnimation(fig, draw, frames=picks, blit=False)
    anim.save(path, writer=writer, dpi=dpi)
    plt.close(fig)
    return path


def render_world(world, png=None, color="speed", view="auto", size=(1200, 800), dpi=100):
    """The picture of a World's current state (World.render), by default
    render_<step>.png in the current directory: its frame is written with
    World.write_vtk into a temporary directory and drawn."""
    import tempfile

    if png is None:
        png = "render_%06d.png" % world.step_count
    with tempfile.TemporaryDirectory(prefix="floe_render_") as tmp:
        world.write_vtk(tmp)
        return render(tmp, -1, png, color=color, view=view, size=size, dpi=dpi, title="World")


# ---- the command: floe render ---------------------------------------------------


def _size(text):
    m = re.fullmatch(r"(\d+)x(\d+)", text)
    if not m or not (64 <= int(m.group(1)) <= 8000 and 64 <= int(m.group(2)) <= 8000):
        raise argparse.ArgumentTypeError("%r: WIDTHxHEIGHT in pixels, each 64 .. 8000 (e.g. 1200x800)" % text)
    return int(m.group(1)), int(m.group(2))


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="floe render",
        description="A PNG of a frame of a floe run, or a GIF/MP4 of the run (docs/render.md).")
    ap.add_argument("dir", help="the run's output directory (floe run --out DIR)")
    ap.add_argument("--frame", type=int, default=-1, help="frame index in particles.pvd (default -1: the last)")
    ap.add_argument("--time", type=float, help="the frame nearest this time (s) instead")
    ap.add_argument("--color", "--colour", default="speed", choices=FIELDS, help="colour field (default speed)")
    ap.add_argument("--view", default="auto", help="auto, side, top, front, or two: top,side (default auto)")
    ap.add_argument("--png", help="the picture's path (default DIR/render_<step>.png)")
    ap.add_argument("--size", type=_size, default=None, help="WIDTHxHEIGHT in pixels (default 1200x800)")
    ap.add_argument("--movie", help="write every frame into this .gif or .mp4 instead")
    ap.add_argument("--fps", type=int, default=10, help="movie frames per second (default 10)")
    ap.add_argument("--every", type=int, default=1, help="movie: every N-th frame (default 1)")
    a = ap.parse_args(argv)
    try:
        if a.movie:
            path = animate(a.dir, a.movie, a.color, a.view, a.size or (960, 640), fps=a.fps, every=a.every)
        else:
            path = render(a.dir, a.frame, a.png, a.color, a.view, a.size or (1200, 800), time=a.time)
    except (RenderError, OSError) as e:
        print("floe render: %s" % e, file=sys.stderr)
        return 2 if isinstance(e, RenderError) else 1
    print("floe render: wrote %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
