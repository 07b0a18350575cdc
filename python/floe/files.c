/* Files: floe.load (a scene with its outputs), floe.restore and
 * World.save (restart files), World.write_vtk and the CSV tables of the
 * current state. */
#include "_floe.h"

#include <string.h>

/* path argument -> bytes (new reference) or NULL. */
static PyObject *fs_path(PyObject *o) {
    PyObject *b = NULL;
    if (!PyUnicode_FSConverter(o, &b)) return NULL;
    return b;
}

/* Scene warnings, one Python warning per line. */
static int warn_lines(const char *text) {
    if (!text) return 0;
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        PyObject *msg = PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "replace");
        if (!msg) return -1;
        int rc = PyErr_WarnEx(SceneWarning, PyUnicode_AsUTF8(msg), 1);
        Py_DECREF(msg);
        if (rc < 0) return -1;
        p += n + (e != NULL);
    }
    return 0;
}

PyObject *floe_py_load(PyObject *mod, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"path", "out", "threads", NULL};
    PyObject *path_o, *out_o = NULL, *threads_o = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$O:load", kwlist, &path_o, &out_o, &threads_o)) return NULL;
    long long threads = -1;
    if (threads_o != Py_None && floe_py_int(threads_o, "threads", 0, FLOE_MAX_THREADS, &threads)) return NULL;
    PyObject *path = fs_path(path_o), *dir = NULL;
    if (!path) return NULL;
    if (!out_o) out_o = PyUnicode_FromString("out");
    else Py_INCREF(out_o);
    if (out_o != Py_None && !(dir = fs_path(out_o))) {
        Py_DECREF(path);
        Py_DECREF(out_o);
        return NULL;
    }
    Py_DECREF(out_o);
    floe_scene sc;
    char err[4096];
    int rc;
    PyThreadState *ts = PyEval_SaveThread(); /* generators and tables may take a while */
    rc = floe_scene_load_interruptible(PyBytes_AS_STRING(path), floe_py_interrupt, NULL, &sc, err, sizeof err);
    PyEval_RestoreThread(ts);
    Py_DECREF(path);
    if (rc != 0) {
        Py_XDECREF(dir);
        if (!PyErr_Occurred()) PyErr_SetString(SceneError, err); /* else Ctrl-C's KeyboardInterrupt */
        return NULL;
    }
    if (warn_lines(sc.warnings)) {
        floe_scene_free(&sc);
        Py_XDECREF(dir);
        return NULL;
    }
    if (threads >= 0) floe_set_threads(sc.world, (int)threads);
    int64_t total = floe_scene_total_steps(&sc);
    int64_t steps = sc.steps;
    double duration = sc.duration;
    World *self = floe_py_world_new(&sc);
    if (!self) {
        Py_XDECREF(dir);
        return NULL;
    }
    self->from_scene = 1;
    self->total = steps;
    self->duration = duration;
    if (dir) {
        self->out = floe_output_open(PyBytes_AS_STRING(dir), &self->sc.out, self->sc.world, total, err, sizeof err);
        Py_DECREF(dir);
        if (!self->out) {
            PyErr_SetString(OutputError, err);
            Py_DECREF(self);
            return NULL;
        }
    }
    return (PyObject *)self;
}

PyObject *floe_py_restore(PyObject *mod, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"path", "out", NULL};
    PyObject *path_o, *out_o = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:restore", kwlist, &path_o, &out_o)) return NULL;
    PyObject *path = fs_path(path_o), *dir = NULL;
    if (!path) return NULL;
    if (out_o != Py_None && !(dir = fs_path(out_o))) {
        Py_DECREF(path);
        return NULL;
    }
    floe_restart r;
    char err[4096];
    int rc = floe_restart_load(PyBytes_AS_STRING(path), &r, err, sizeof err);
    Py_DECREF(path);
    if (rc != 0) {
        Py_XDECREF(dir);
        PyErr_SetString(SceneError, err);
        return NULL;
    }
    if (r.stopped &&
        PyErr_WarnEx(PyExc_RuntimeWarning, "this restart file holds the state of a run that blew up (a runaway)", 1)) {
        floe_restart_free(&r);
        Py_XDECREF(dir);
        return NULL;
    }
    /* outputs missing beside the file start afresh (r.output is adjusted) */
    char note[1024] = "";
    if (dir && r.has_output &&
        floe_restart_fresh_outputs(PyBytes_AS_STRING(dir), &r, note, sizeof note, err, sizeof err) != 0) {
        Py_DECREF(dir);
        floe_restart_free(&r);
        PyErr_SetString(OutputError, err);
        return NULL;
    }
    int64_t total = r.total_steps;
    double duration = r.scene.duration;
    World *self = floe_py_world_new(&r.scene); /* takes the scene (and the world) over */
    if (!self) {
        Py_XDECREF(dir);
        floe_restart_free(&r);
        return NULL;
    }
    self->from_scene = self->sc.path[0] || total > 0 || duration > 0;
    self->total = total;
    self->duration = duration;
    int want_out = dir != NULL;
    if (dir) {
        const char *d = PyBytes_AS_STRING(dir);
        if (r.has_output) self->out = floe_output_resume(d, &self->sc.out, self->sc.world, &r.output, err, sizeof err);
        else self->out = floe_output_open(d, &self->sc.out, self->sc.world, total, err, sizeof err);
        Py_DECREF(dir);
    }
    floe_restart_free(&r); /* the frame lists (the scene is the World's now) */
    if (want_out && !self->out) {
        PyErr_SetString(OutputError, err);
        Py_DECREF(self);
        return NULL;
    }
    if (note[0] && PyErr_WarnEx(PyExc_UserWarning, note, 1) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *World_save(World *self, PyObject *path_o) {
    if (floe_py_open(self)) return NULL;
    PyObject *path = fs_path(path_o);
    if (!path) return NULL;
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene = self->sc; /* borrowed: r is not freed */
    r.scene.duration = self->duration;
    r.scene.steps = self->total;
    r.total_steps = self->duration > 0 ? floe_scene_total_steps(&r.scene) : self->total;
    char err[4096];
    if (self->out) {
        if (floe_output_get_state(self->out, &r.output) != 0) {
            PyErr_Format(OutputError, "save: %s", floe_output_error(self->out));
            Py_DECREF(path);
            return NULL;
        }
        r.has_output = 1;
    }
    int rc = floe_restart_save_file(PyBytes_AS_STRING(path), &r, err, sizeof err);
    Py_DECREF(path);
    if (rc != 0) {
        PyErr_SetString(OutputError, err);
        return NULL;
    }
    Py_RETURN_NONE;
}

static void series_free(PyObject *cap) { floe_vtk_series_close(PyCapsule_GetPointer(cap, "floe.vtk_series")); }

static PyObject *World_write_vtk(World *self, PyObject *dir_o) {
    if (floe_py_open(self)) return NULL;
    PyObject *dir = fs_path(dir_o);
    if (!dir) return NULL;
    if (!self->series && !(self->series = PyDict_New())) {
        Py_DECREF(dir);
        return NULL;
    }
    char err[2048];
    PyObject *cap = PyDict_GetItem(self->series, dir);
    if (!cap) {
        floe_vtk_series *s = floe_vtk_series_open(PyBytes_AS_STRING(dir), err, sizeof err);
        if (!s) {
            Py_DECREF(dir);
            PyErr_SetString(OutputError, err);
            return NULL;
        }
        cap = PyCapsule_New(s, "floe.vtk_series", series_free);
        if (!cap || PyDict_SetItem(self->series, dir, cap)) {
            if (!cap) floe_vtk_series_close(s);
            Py_XDECREF(cap);
            Py_DECREF(dir);
            return NULL;
        }
        Py_DECREF(cap);
    }
    Py_DECREF(dir);
    if (floe_vtk_series_write(PyCapsule_GetPointer(cap, "floe.vtk_series"), self->sc.world, err, sizeof err)) {
        PyErr_SetString(OutputError, err);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *write_table(World *self, PyObject *path_o, int contacts) {
    if (floe_py_open(self)) return NULL;
    PyObject *path = fs_path(path_o);
    if (!path) return NULL;
    char err[2048];
    int rc = contacts ? floe_csv_write_contacts(PyBytes_AS_STRING(path), self->sc.world, err, sizeof err)
                      : floe_csv_write_particles(PyBytes_AS_STRING(path), self->sc.world, err, sizeof err);
    Py_DECREF(path);
    if (rc) {
        PyErr_SetString(OutputError, err);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *World_write_particles_csv(World *self, PyObject *p) { return write_table(self, p, 0); }
static PyObject *World_write_contacts_csv(World *self, PyObject *p) { return write_table(self, p, 1); }

static PyObject *World_close_outputs(World *self, PyObject *unused) {
    if (floe_py_open(self)) return NULL;
    if (self->in_run) {
        PyErr_SetString(FloeError, "close_outputs(): called from a callback of run()");
        return NULL;
    }
    if (floe_py_close_outputs(self)) return NULL;
    Py_RETURN_NONE;
}

static PyObject *get_has_outputs(World *self, PyObject *unused) {
    if (floe_py_open(self)) return NULL;
    return PyBool_FromLong(self->out != NULL);
}

/* World.render: the picture is drawn in Python (floe/_render.py) from a
 * frame that write_vtk puts in a temporary directory. */
static PyObject *World_render(PyObject *self, PyObject *args, PyObject *kw) {
    PyObject *mod = PyImport_ImportModule("floe._render");
    if (!mod) return NULL;
    PyObject *fn = PyObject_GetAttrString(mod, "render_world");
    Py_DECREF(mod);
    if (!fn) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *all = PyTuple_New(n + 1);
    if (!all) {
        Py_DECREF(fn);
        return NULL;
    }
    Py_INCREF(self);
    PyTuple_SET_ITEM(all, 0, self);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyTuple_GET_ITEM(args, i);
        Py_INCREF(a);
        PyTuple_SET_ITEM(all, i + 1, a);
    }
    PyObject *r = PyObject_Call(fn, all, kw);
    Py_DECREF(all);
    Py_DECREF(fn);
    return r;
}

PyMethodDef floe_py_file_methods[] = {
    {"save", (PyCFunction)World_save, METH_O,
     "save(path)\n\n"
     "Writes a restart file (HDF5, docs/restart.md) at `path`, atomically: floe.restore(path) continues\n"
     "bit for bit, with the outputs if any are attached (their counters are in the file)."},
    {"write_vtk", (PyCFunction)World_write_vtk, METH_O,
     "write_vtk(dir)\n\n"
     "Adds a ParaView frame of the current state to `dir` (created if needed): particles_<step>.vtu,\n"
     "contacts_<step>.vtp, and boundaries_/shapes_<step>.vtp when there are such bodies, with the\n"
     "collections particles.pvd, ... listing every frame this World wrote there (docs/outputs.md)."},
    {"render", (PyCFunction)(void (*)(void))World_render, METH_VARARGS | METH_KEYWORDS,
     "render(png=None, color=\"speed\", view=\"auto\", size=(1200, 800), dpi=100) -> str\n\n"
     "Writes a PNG picture of the current state (particles coloured by speed, group, floe or stress,\n"
     "walls, facets, the water surface, the periodic cell), by default render_<step>.png in the current\n"
     "directory, and returns its path; needs matplotlib (Debian's python3-matplotlib). floe.render\n"
     "draws a run's frames (docs/render.md)."},
    {"write_particles_csv", (PyCFunction)World_write_particles_csv, METH_O,
     "write_particles_csv(path)\n\nThe particles.csv table of the current state (docs/outputs.md)."},
    {"write_contacts_csv", (PyCFunction)World_write_contacts_csv, METH_O,
     "write_contacts_csv(path)\n\nThe contacts.csv table of the current state (docs/outputs.md)."},
    {"close_outputs", (PyCFunction)World_close_outputs, METH_NOARGS,
     "close_outputs()\n\n"
     "Closes the outputs of a loaded scene now (final state files, as at the end of `floe run`); the\n"
     "World stays usable. close() does this too."},
    {"has_outputs", (PyCFunction)get_has_outputs, METH_NOARGS,
     "has_outputs() -> bool\n\nWhether outputs are attached."},
    {NULL, NULL, 0, NULL}};
