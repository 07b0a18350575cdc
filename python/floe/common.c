/* The helpers every file of the module uses: the exceptions, the errors of
 * engine calls and of arguments, the interrupt function, and the release
 * of a World's engine state and outputs. */
#include "_floe.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

PyObject *FloeError, *ArgumentError, *RunawayError, *SceneError, *OutputError, *SceneWarning, *StaleViewError;
PyTypeObject *Event_Type;

/* ---- errors ----------------------------------------------------------------- */

/* The engine's interrupt function (floe_set_interrupt): Ctrl-C. The engine
 * polls it from the thread that runs the world, mostly without the GIL; at
 * most every 50 ms it takes the GIL and runs Python's signal handlers. The
 * exception a handler raises (KeyboardInterrupt) stays set on the thread,
 * and the engine's call returns FLOE_INTERRUPTED: floe_py_check then leaves
 * that exception in place. */
int floe_py_interrupt(void *ctx) {
    (void)ctx;
    static _Thread_local double last = -1;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double t = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    if (last >= 0 && t - last < 0.05) return 0;
    last = t;
    PyGILState_STATE g = PyGILState_Ensure();
    int stop = PyErr_Occurred() != NULL || PyErr_CheckSignals() < 0;
    PyGILState_Release(g);
    return stop;
}

int floe_py_gen_env(World *self, floe_gen_env *env) {
    memset(env, 0, sizeof *env);
    double h[9];
    env->periodic = floe_world_get_cell(self->sc.world, h, &env->cell_lo);
    if (env->periodic && (h[1] != 0 || h[2] != 0 || h[3] != 0 || h[5] != 0 || h[6] != 0 || h[7] != 0)) {
        PyErr_SetString(ArgumentError, "the periodic cell has sheared: generators place bodies in a cell that has "
                                       "not deformed (add them before the run)");
        return -1;
    }
    env->cell_hi = (floe_vec3){env->cell_lo.x + h[0], env->cell_lo.y + h[4], env->cell_lo.z + h[8]};
    env->interrupt = floe_py_interrupt;
    return 0;
}

int floe_py_check(World *self, floe_status st) {
    if (st == FLOE_OK) return 0;
    if (st == FLOE_INTERRUPTED) { /* Ctrl-C (floe_py_interrupt) has raised already */
        if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
        return -1;
    }
    const char *msg = self && self->sc.world ? floe_last_error(self->sc.world) : "floe: error";
    if (st == FLOE_ERR_ARG) PyErr_SetString(ArgumentError, msg);
    else if (st == FLOE_ERR_RUNAWAY) PyErr_SetString(RunawayError, msg);
    else if (st == FLOE_ERR_MEMORY) PyErr_Format(PyExc_MemoryError, "%s", msg);
    else PyErr_SetString(FloeError, msg);
    return -1;
}

PyObject *floe_py_status(World *self, floe_status st) {
    if (floe_py_check(self, st)) return NULL;
    Py_RETURN_NONE;
}

int floe_py_open(World *self) {
    if (self->closed || !self->sc.world) {
        PyErr_SetString(FloeError, "this World is closed (close() was called)");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(FloeError, "this World is running in another thread: wait for its run() or step() to return");
        return -1;
    }
    return 0;
}

/* ---- argument helpers --------------------------------------------------------- */

int floe_py_double(PyObject *o, const char *what, double *out) {
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "%s: expected a number, got %.80s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = v;
    return 0;
}

int floe_py_int(PyObject *o, const char *what, long long lo, long long hi, long long *out) {
    if (PyFloat_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a whole number, got a float (%R)", what, o);
        return -1;
    }
    PyObject *ix = PyNumber_Index(o);
    if (!ix) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a whole number, got %.80s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(ix, &overflow);
    Py_DECREF(ix);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(ArgumentError, "%s = %R is out of range [%lld, %lld]", what, o, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

PyArrayObject *floe_py_ids(PyObject *o, const char *what, int min_dim) {
    /* numpy's own type first: a list [2.9] converted straight to int64 is
     * cast unsafely (to 2), while a float64 array is refused */
    PyArrayObject *a = (PyArrayObject *)PyArray_FromAny(o, NULL, min_dim, 1, NPY_ARRAY_IN_ARRAY, NULL);
    if (!a) return NULL;
    char kind = PyArray_DESCR(a)->kind;
    if (PyArray_SIZE(a) > 0 && kind != 'i' && kind != 'u' && kind != 'b') {
        PyObject *t = PyObject_Str((PyObject *)PyArray_DESCR(a));
        PyErr_Format(PyExc_TypeError, "%s: particle ids are whole numbers, got %s values (%R)", what,
                     t ? PyUnicode_AsUTF8(t) : "other", o);
        Py_XDECREF(t);
        Py_DECREF(a);
        return NULL;
    }
    /* whole numbers (an empty list is float64): the cast loses nothing, and
     * a uint64 beyond int64 becomes negative, which no id is */
    PyArrayObject *ids = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, NPY_INT64, min_dim, 1,
                                                          NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(a);
    return ids;
}

int floe_py_vec3(PyObject *o, const char *what, floe_vec3 *out) {
    if (PyFloat_Check(o) || PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: expected 3 numbers (x, y, z), got one number", what);
        return -1;
    }
    PyObject *seq = PySequence_Fast(o, "");
    if (!seq) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected 3 numbers (x, y, z), got %.80s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != 3) {
        PyErr_Format(PyExc_TypeError, "%s: expected 3 numbers (x, y, z), got %zd", what, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    double v[3];
    for (int k = 0; k < 3; k++)
        if (floe_py_double(PySequence_Fast_GET_ITEM(seq, k), what, &v[k])) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    *out = (floe_vec3){v[0], v[1], v[2]};
    return 0;
}

PyObject *floe_py_vec3_obj(floe_vec3 v) {
    npy_intp n = 3;
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_DOUBLE);
    if (!a) return NULL;
    double *d = PyArray_DATA((PyArrayObject *)a);
    d[0] = v.x;
    d[1] = v.y;
    d[2] = v.z;
    return a;
}

int floe_py_axis(PyObject *o, int *axis) {
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        if (!s) return -1;
        if ((s[0] == 'x' || s[0] == 'y' || s[0] == 'z') && !s[1]) {
            *axis = s[0] - 'x';
            return 0;
        }
        PyErr_Format(ArgumentError, "axis '%s': expected 'x', 'y', 'z' or 0, 1, 2", s);
        return -1;
    }
    long long a;
    if (floe_py_int(o, "axis", 0, 2, &a)) return -1;
    *axis = (int)a;
    return 0;
}

int floe_py_block(PyObject *o, uint32_t *mask) {
    *mask = 0;
    if (o == NULL || o == Py_None) return 0;
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        static const char dofs[] = "xyzXYZ";
        if (!s) return -1;
        for (; *s; s++) {
            const char *p = strchr(dofs, *s);
            if (!p || !*s) {
                PyErr_Format(ArgumentError,
                             "block: '%c' is not a degree of freedom; use letters of 'xyzXYZ' (x y z translations, "
                             "X Y Z rotations)",
                             *s);
                return -1;
            }
            *mask |= 1u << (p - dofs);
        }
        return 0;
    }
    long long m;
    if (floe_py_int(o, "block", 0, FLOE_DOF_ALL, &m)) return -1;
    *mask = (uint32_t)m;
    return 0;
}

/* "'a', 'b', 'c'" of the world's material names, for messages. */
static void material_list(floe_world *w, char *buf, size_t n) {
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < floe_material_count(w) && len + 70 < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s'%s'", i ? ", " : "", floe_material_name(w, i));
}

int floe_py_material(World *self, PyObject *o, int *mat) {
    floe_world *w = self->sc.world;
    int n = floe_material_count(w);
    char names[1024];
    if (o == NULL || o == Py_None) {
        if (n == 1) {
            *mat = 0;
            return 0;
        }
        if (n == 0) PyErr_SetString(ArgumentError, "no material yet: add one first (w.add_material(name, model, ...))");
        else {
            material_list(w, names, sizeof names);
            PyErr_Format(ArgumentError, "give material= (this world has %d: %s)", n, names);
        }
        return -1;
    }
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        if (!s) return -1;
        *mat = floe_find_material(w, s);
        if (*mat >= 0) return 0;
        material_list(w, names, sizeof names);
        PyErr_Format(ArgumentError, "unknown material '%s' (this world has: %s)", s, n ? names : "none");
        return -1;
    }
    long long m;
    if (floe_py_int(o, "material", 0, n - 1 < 0 ? 0 : n - 1, &m)) {
        if (n == 0 && PyErr_ExceptionMatches(ArgumentError)) {
            PyErr_Clear();
            PyErr_SetString(ArgumentError, "no material yet: add one first (w.add_material(name, model, ...))");
        }
        return -1;
    }
    if (n == 0) {
        PyErr_SetString(ArgumentError, "no material yet: add one first (w.add_material(name, model, ...))");
        return -1;
    }
    *mat = (int)m;
    return 0;
}

int floe_py_group(World *self, PyObject *o, int create, int *g) {
    floe_world *w = self->sc.world;
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        if (!s) return -1;
        *g = floe_find_group(w, s);
        if (*g >= 0) return 0;
        if (!create) {
            PyErr_Format(ArgumentError, "unknown group '%s' (%d groups exist)", s, floe_group_count(w));
            return -1;
        }
        *g = floe_add_group(w, s);
        return *g >= 0 ? 0 : floe_py_check(self, FLOE_ERR_ARG);
    }
    long long v;
    int n = floe_group_count(w);
    if (n == 0 && !PyUnicode_Check(o)) {
        if (floe_py_int(o, "group", LLONG_MIN, LLONG_MAX, &v)) return -1;
        PyErr_Format(ArgumentError, "group %lld: this world has no groups", v);
        return -1;
    }
    if (floe_py_int(o, "group", 0, n - 1, &v)) return -1;
    *g = (int)v;
    return 0;
}

int floe_py_groups(World *self, PyObject *o, uint32_t *mask) {
    *mask = 0;
    if (o == NULL || o == Py_None) return 0;
    if (PyUnicode_Check(o) || PyLong_Check(o) || PyIndex_Check(o)) {
        int g;
        if (floe_py_group(self, o, 1, &g)) return -1;
        *mask = 1u << g;
        return 0;
    }
    PyObject *seq = PySequence_Fast(o, "");
    if (!seq) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "group: expected a name, an id or a list of them, got %.80s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        int g;
        PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyUnicode_Check(it) && !PyIndex_Check(it)) {
            PyErr_Format(PyExc_TypeError, "group: expected a name or an id, got %.80s", Py_TYPE(it)->tp_name);
            Py_DECREF(seq);
            return -1;
        }
        if (floe_py_group(self, it, 1, &g)) {
            Py_DECREF(seq);
            return -1;
        }
        *mask |= 1u << g;
    }
    Py_DECREF(seq);
    return 0;
}

/* ArgumentError with a printf message: PyErr_Format has no %g. */
void floe_py_arg_error(const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    PyErr_SetString(ArgumentError, msg);
}

int floe_py_shape_sizes(const char *fn, const char *shape_name, floe_shape_type shape, int radius, int shaft,
                        int semi_axes) {
    const char *bad = shape == FLOE_SHAPE_ELLIPSOID ? (radius  ? "radius"
                                                       : shaft ? "shaft"
                                                               : NULL)
                      : shape == FLOE_SHAPE_SPHERE  ? (shaft       ? "shaft"
                                                       : semi_axes ? "semi_axes"
                                                                   : NULL)
                                                    : (semi_axes ? "semi_axes" : NULL);
    if (bad) {
        PyErr_Format(ArgumentError, "%s: %s is not a size of shape '%s'", fn, bad, shape_name);
        return -1;
    }
    const char *missing = shape == FLOE_SHAPE_ELLIPSOID           ? (!semi_axes ? "semi_axes" : NULL)
                          : !radius                               ? "radius"
                          : shape == FLOE_SHAPE_CAPSULE && !shaft ? "shaft"
                                                                  : NULL;
    if (missing) {
        PyErr_Format(PyExc_TypeError, "%s: shape '%s' needs %s=", fn, shape_name, missing);
        return -1;
    }
    return 0;
}

/* ---- a World's release ---------------------------------------------------------- */

void floe_py_world_release(World *self) {
    if (self->nstore) return; /* views still show its arrays: freed with the last one */
    floe_scene_free(&self->sc);
}

int floe_py_close_outputs(World *self) {
    if (!self->out) return 0;
    floe_output *o = self->out;
    self->out = NULL;
    if (floe_output_close(o, self->sc.world) != 0) { /* the reason went to stderr: close frees o */
        PyErr_SetString(OutputError, "closing the outputs failed (floe's message is on stderr)");
        return -1;
    }
    return 0;
}
