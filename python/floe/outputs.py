"""Reading floe's own output files back into numpy (docs/python.md, "Reading
outputs"; the files: docs/outputs.md).

    run = floe.read("out")              # a run's output directory
    run.energy["error"][-1]             # energy.csv as a structured array
    run.history["time"], run.events, run.particles, run.contacts, run.measurements
    f = run.frames("particles")         # the ParaView series, frame by frame
    f.times, f.at(0.02)["velocity"]     # the frame nearest t = 0.02 s, its arrays
    w = run.restart()                   # the newest restart file's state, a floe.World

Tables are numpy structured arrays, one field per column; each field's
unit is in its dtype's metadata (floe.unit(table, "time") -> "s") and in
floe.OUTPUT_UNITS. pandas=True gives pandas DataFrames (Debian's
python3-pandas), the units in df.attrs["units"].
"""
import csv
import os
import re
import warnings
import xml.etree.ElementTree as ET

import numpy as np

from ._floe import ENERGY_TERMS

_ENERGY_UNITS = {t: "J" for t in ENERGY_TERMS}
_ENERGY_UNITS["error"] = "-"

# units of the columns whose meaning the file fixes (docs/outputs.md); a
# history column's unit follows its quantity, which the file does not name
OUTPUT_UNITS = {
    "energy.csv": dict({"step": "-", "time": "s"}, **_ENERGY_UNITS),
    "history.csv": {"step": "-", "time": "s"},
    "events.csv": {
        "step": "-", "time": "s", "type": "-", "a": "-", "b": "-", "fn": "N", "ft_y": "N", "ft_z": "N",
        "tw": "N m", "tr_y": "N m", "tr_z": "N m", "detail": "-", "value1": "model's", "value2": "model's",
    },
    "particles.csv": dict(
        {"id": "-", "shape": "-", "material": "-", "groups": "-", "blocked": "-", "radius": "m", "mass": "kg"},
        **{k: u for keys, u in (("x y z", "m"), ("vx vy vz", "m/s"), ("wx wy wz", "rad/s"),
                                ("qw qx qy qz", "-"), ("fx fy fz", "N"), ("tx ty tz", "N m"))
           for k in keys.split()}),
    "contacts.csv": dict(
        {"a": "-", "b": "-", "model": "-", "uN": "m", "kn": "N/m", "kt": "N/m", "lens0": "m", "lens1": "m",
         "area": "m^2", "step_created": "-"},
        **{k: u for keys, u in (("nx ny nz", "-"), ("px py pz", "m"), ("fn fty ftz", "N"), ("tw try trz", "N m"),
                                ("fx fy fz", "N"), ("tax tay taz tbx tby tbz", "N m"), ("t1x t1y t1z", "-"),
                                ("ix iy iz", "-"), ("sx sy sz", "m"))
           for k in keys.split()}),
    "measurements.csv": {"source": "-", "name": "-", "quantity": "-", "value": "the quantity's"},
}

_TEXT = {"shape", "model", "type", "source", "name", "quantity"}
_INT = {"step", "id", "material", "groups", "blocked", "a", "b", "detail", "step_created", "ix", "iy", "iz"}
_TABLES = ("energy", "history", "events", "particles", "contacts", "measurements")


def unit(table, column):
    """unit(table, column) -> str or None: the unit of a column of a table floe.read returned."""
    if hasattr(table, "attrs"):  # a DataFrame
        return table.attrs.get("units", {}).get(column)
    md = table.dtype.fields[column][0].metadata
    return md.get("unit") if md else None


def _names(header, path):
    """Header names, a repeated one renamed NAME_1, NAME_2, ... with a warning."""
    seen, out = {}, []
    for h in header:
        if h in seen:
            seen[h] += 1
            new = "%s_%d" % (h, seen[h])
            warnings.warn("%s: the column %r appears twice; the second is read as %r" % (path, h, new),
                          stacklevel=4)
            out.append(new)
        else:
            seen[h] = 0
            out.append(h)
    return out


def _number(s):
    return float(s) if s != "" else np.nan  # an empty field: a contact whose model has no such state


def read_csv(path, pandas=False):
    """read_csv(path, pandas=False) -> structured ndarray (or DataFrame)

    One of floe's CSV outputs (energy, history, events, particles, contacts,
    measurements; docs/outputs.md): a field per column, integers for ids,
    steps and masks, str for names, float64 otherwise (an empty field:
    NaN); units in each field's dtype metadata (floe.unit).
    """
    path = os.fspath(path)
    units = OUTPUT_UNITS.get(os.path.basename(path), {})
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError("%s: empty file (floe writes at least a header line)" % path)
    names = _names(rows[0], path)
    body = rows[1:]
    for i, r in enumerate(body):
        if len(r) != len(names):
            raise ValueError("%s:%d: %d fields, the header has %d (a damaged or truncated file?)"
                             % (path, i + 2, len(r), len(names)))
    cols, fields = [], []
    for k, name in enumerate(names):
        raw = [r[k] for r in body]
        base = re.sub(r"_\d+$", "", name)
        if base in _TEXT:
            a = np.array(raw, dtype=str) if raw else np.zeros(0, dtype="U1")
        elif base in _INT:
            a = np.array([int(v) for v in raw], dtype=np.int64)
        else:
            a = np.array([_number(v) for v in raw], dtype=np.float64)
        u = units.get(name)
        fields.append((name, np.dtype(a.dtype, metadata={"unit": u}) if u else a.dtype))
        cols.append(a)
    table = np.empty(len(body), dtype=fields)
    for (name, _), a in zip(fields, cols):
        table[name] = a
    return _as_pandas(table) if pandas else table


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise ImportError("floe.read(..., pandas=True) needs pandas: apt-get install python3-pandas (Debian), "
                          "or pip install pandas in a venv") from e
    return pandas


def _as_pandas(table):
    pd = _pandas()
    df = pd.DataFrame({name: table[name] for name in table.dtype.names})
    df.attrs["units"] = {name: unit(table, name) for name in table.dtype.names}
    return df


_VTK_TYPES = {"Float64": "f8", "Float32": "f4", "Int64": "i8", "Int32": "i4", "UInt64": "u8", "UInt32": "u4",
              "UInt8": "u1", "Int8": "i1"}


def read_vtk(path):
    """read_vtk(path) -> dict of ndarrays

    One frame floe wrote (a .vtu or .vtp with raw appended data;
    docs/outputs.md#paraview-series): every array by its name, (n, k) for k
    components; 'Points' the positions, 'TimeValue' and 'Step' the frame's
    time [s] and step.
    """
    path = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()
    at = data.find(b"<AppendedData")
    if at < 0:
        raise ValueError("%s: no <AppendedData> (floe writes its frames with raw appended data)" % path)
    head = ET.fromstring(data[:at] + b"</VTKFile>")
    start = data.index(b"_", data.index(b">", at)) + 1
    order = "<" if head.get("byte_order", "LittleEndian") == "LittleEndian" else ">"
    size_t = np.dtype(order + ("u8" if head.get("header_type") == "UInt64" else "u4"))
    out = {}
    for da in head.iter("DataArray"):
        t = _VTK_TYPES.get(da.get("type"))
        if t is None or da.get("format") != "appended":
            raise ValueError("%s: DataArray %r: type %s, format %s not read (floe writes appended raw data)"
                             % (path, da.get("Name"), da.get("type"), da.get("format")))
        off = start + int(da.get("offset"))
        nbytes = int(np.frombuffer(data, size_t, 1, off)[0])
        a = np.frombuffer(data, np.dtype(order + t), nbytes // np.dtype(t).itemsize, off + size_t.itemsize).copy()
        k = int(da.get("NumberOfComponents", "1"))
        if k > 1:
            a = a.reshape(-1, k)
        name = da.get("Name")
        out[name] = a[0] if name in ("TimeValue", "Step") and a.size == 1 else a
    return out


class Frames:
    """The frames of one ParaView series (particles, contacts, boundaries,
    shapes): len(f), f.times [s], f.steps, f.files; f[i] and f.at(t) read a
    frame (read_vtk), f.at(t) the one nearest time t."""

    def __init__(self, pvd):
        self.pvd = os.fspath(pvd)
        root = ET.parse(self.pvd).getroot()
        base = os.path.dirname(self.pvd)
        sets = root.findall("./Collection/DataSet")
        self.times = np.array([float(d.get("timestep")) for d in sets])
        self.files = [os.path.join(base, d.get("file")) for d in sets]
        self.steps = np.array([int(m.group(1)) if (m := re.search(r"_(\d+)\.vt[up]$", f)) else -1
                               for f in self.files], dtype=np.int64)

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return read_vtk(self.files[i])

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def at(self, time):
        """The frame nearest `time` [s]."""
        if not len(self):
            raise IndexError("%s lists no frame" % self.pvd)
        return self[int(np.argmin(np.abs(self.times - time)))]

    def __repr__(self):
        span = " from t = %g to %g s" % (self.times[0], self.times[-1]) if len(self) else ""
        return "<floe.Frames %s: %d frames%s>" % (self.pvd, len(self), span)


class Run:
    """A run's output directory (floe.read): the tables as attributes
    (energy, history, events, particles, contacts, measurements; None for a
    file the run did not write), frames(series), restarts and restart()."""

    def __init__(self, directory, pandas=False):
        self.directory = os.fspath(directory)
        if not os.path.isdir(self.directory):
            raise FileNotFoundError("floe.read: %s is not a directory" % self.directory)
        self.pandas = pandas
        if pandas:
            _pandas()
        self._tables = {}

    def __getattr__(self, name):
        if name not in _TABLES:
            raise AttributeError(name)
        if name not in self._tables:
            path = os.path.join(self.directory, name + ".csv")
            self._tables[name] = read_csv(path, self.pandas) if os.path.exists(path) else None
        return self._tables[name]

    def frames(self, series="particles"):
        """The frames of DIR/SERIES.pvd (particles, contacts, boundaries, shapes) as floe.Frames."""
        pvd = os.path.join(self.directory, series + ".pvd")
        if not os.path.exists(pvd):
            have = sorted(f[:-4] for f in os.listdir(self.directory) if f.endswith(".pvd"))
            raise FileNotFoundError("floe.read: %s has no %s.pvd (series there: %s)"
                                    % (self.directory, series, ", ".join(have) or "none"))
        return Frames(pvd)

    @property
    def restarts(self):
        """The restart files (restart_<step>.h5), oldest first."""
        found = [f for f in os.listdir(self.directory) if re.fullmatch(r"restart_\d+\.h5", f)]
        return [os.path.join(self.directory, f) for f in sorted(found)]

    def restart(self, which=-1):
        """The state of a restart file (default the newest) as a floe.World
        (floe.restore: views, contacts, energy; no outputs attached)."""
        from ._floe import restore

        files = self.restarts
        if not files:
            raise FileNotFoundError("floe.read: %s has no restart file (floe run --restart-every N writes them)"
                                    % self.directory)
        return restore(files[which], out=None)

    def __repr__(self):
        have = [t for t in _TABLES if os.path.exists(os.path.join(self.directory, t + ".csv"))]
        return "<floe.Run %s: %s>" % (self.directory, ", ".join(have) or "no tables")


def read(path, pandas=False):
    """read(path, pandas=False)

    floe's outputs back into numpy (docs/python.md, "Reading outputs"):
      a directory  -> floe.Run: .energy, .history, .events, .particles,
                      .contacts, .measurements (structured arrays, None when
                      absent), .frames('particles'), .restarts, .restart();
      a .csv file  -> its table (read_csv);
      a .pvd file  -> its frames (floe.Frames);
      a .vtu/.vtp  -> one frame, a dict of arrays (read_vtk);
      a .h5 file   -> the restart file's state as a floe.World (floe.restore).
    pandas=True gives the tables as pandas DataFrames (units in df.attrs['units']).
    """
    p = os.fspath(path)
    if os.path.isdir(p):
        return Run(p, pandas)
    ext = os.path.splitext(p)[1].lower()
    if ext == ".csv":
        return read_csv(p, pandas)
    if ext == ".pvd":
        return Frames(p)
    if ext in (".vtu", ".vtp"):
        return read_vtk(p)
    if ext == ".h5":
        from ._floe import restore

        return restore(p, out=None)
    raise ValueError("floe.read: %s is none of floe's outputs (a directory, .csv, .pvd, .vtu, .vtp, .h5)" % p)
