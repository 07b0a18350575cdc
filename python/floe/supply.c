/* The World's supply methods (docs/supply.md): inlets and sinks, removal of
 * bodies, and the dense packing generator (docs/scene-format.md#dense).
 * Keywords mirror the scene's `inlets`, `sinks` and `dense` keys.
 *
 * Views (docs/python.md, "Views"): removal shifts the ids of the bodies
 * after a removed one, so a live view would show other bodies in its rows;
 * an inlet may add beyond the room the views keep. So, as for an add that
 * would pass the room, while a view is alive w.remove raises and a world
 * with inlets or sinks does not step (floe_py_supply_guard): views never
 * dangle and never show a body under another's id. */
#include "_floe.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GIVEN(o) ((o) && (o) != Py_None)

/* ArgumentError with a printf message: PyErr_Format has no %g. */
void floe_py_arg_error(const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    PyErr_SetString(ArgumentError, msg);
}

int floe_py_supply_guard(World *self) {
    floe_world *w = self->sc.world;
    if (!self->anchor || (floe_inlet_count(w) == 0 && floe_sink_count(w) == 0)) return 0;
    PyErr_Format(FloeError,
                 "this world has %d inlets and %d sinks, which add and remove bodies while it steps, and numpy "
                 "views of the particle arrays are alive (their rows would shift to other bodies, or the arrays "
                 "move); delete the views first (del ...), or read copies (np.array(w.positions))",
                 floe_inlet_count(w), floe_sink_count(w));
    return -1;
}

/* ---- shared argument helpers ---------------------------------------------------------- */

/* The keys of a dict argument (cylinder=, plane=, a distribution): each
 * must be in `known` (comma-separated); *vals[k] receives the value of
 * names[k] (borrowed) or NULL. */
static int dict_keys(PyObject *o, const char *what, const char *const *names, int n, PyObject **vals) {
    if (!PyDict_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a dict", what);
        return -1;
    }
    for (int k = 0; k < n; k++) vals[k] = NULL;
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &key, &val)) {
        const char *s = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (!s) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "%s: keys must be strings", what);
            return -1;
        }
        int k = 0;
        while (k < n && strcmp(s, names[k])) k++;
        if (k == n) {
            char known[256] = "";
            for (int q = 0; q < n; q++) {
                strncat(known, names[q], sizeof known - strlen(known) - 1);
                if (q + 1 < n) strncat(known, ", ", sizeof known - strlen(known) - 1);
            }
            PyErr_Format(ArgumentError, "%s: unknown key '%s' (known: %s)", what, s, known);
            return -1;
        }
        vals[k] = val;
    }
    return 0;
}

static int need(PyObject *v, const char *what, const char *key) {
    if (v) return 0;
    PyErr_Format(ArgumentError, "%s.%s: required", what, key);
    return -1;
}

/* A list of numbers into out[0..*n-1] (at most cap). */
static int numbers(PyObject *o, const char *what, double *out, int cap, int *n) {
    PyObject *seq = PySequence_Fast(o, "");
    if (!seq) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a list of numbers", what);
        return -1;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    if (m > cap) {
        Py_DECREF(seq);
        PyErr_Format(ArgumentError, "%s: %zd entries, at most %d", what, m, cap);
        return -1;
    }
    for (Py_ssize_t i = 0; i < m; i++)
        if (floe_py_double(PySequence_Fast_GET_ITEM(seq, i), what, &out[i])) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    *n = (int)m;
    return 0;
}

/* A size: a number (fixed), (min, max) (uniform) or a dict with `dist`
 * (the scene's distributions, docs/scene-format.md#random); checked by
 * floe_size_dist_check. */
int floe_py_size(PyObject *o, const char *what, floe_size_dist *d) {
    memset(d, 0, sizeof *d);
    d->kind = FLOE_DIST_UNIFORM;
    if (PyDict_Check(o)) {
        static const char *const names[] = {"dist",   "min",   "max",   "mean",    "std",
                                            "median", "sigma", "sizes", "passing", "by"};
        enum { DIST, MIN, MAX, MEAN, STD, MEDIAN, SIGMA, SIZES, PASSING, BY, NK };
        static const unsigned takes[] = {1u << MIN | 1u << MAX, 1u << MEAN | 1u << STD | 1u << MIN | 1u << MAX,
                                         1u << MEDIAN | 1u << MEAN | 1u << SIGMA | 1u << MIN | 1u << MAX,
                                         1u << SIZES | 1u << PASSING | 1u << BY};
        static const char *const kinds[] = {"uniform", "normal", "lognormal", "sieve"};
        PyObject *v[NK];
        if (dict_keys(o, what, names, NK, v)) return -1;
        const char *kn = v[DIST] && PyUnicode_Check(v[DIST]) ? PyUnicode_AsUTF8(v[DIST]) : NULL;
        int kind = 0;
        while (kn && kind < 4 && strcmp(kn, kinds[kind])) kind++;
        if (!kn || kind == 4) {
            PyErr_Format(ArgumentError, "%s.dist: %s (known: uniform, normal, lognormal, sieve)", what,
                         kn ? "unknown distribution" : "required");
            return -1;
        }
        for (int k = 1; k < NK; k++)
            if (v[k] && !(takes[kind] >> k & 1u)) {
                PyErr_Format(ArgumentError, "%s.%s: a %s distribution does not take it", what, names[k], kn);
                return -1;
            }
        char w2[96];
        d->kind = (floe_size_dist_kind)kind;
        if (kind == FLOE_DIST_SIEVE) {
            int n1 = 0, n2 = 0;
            if (need(v[SIZES], what, "sizes") || need(v[PASSING], what, "passing") || need(v[BY], what, "by"))
                return -1;
            snprintf(w2, sizeof w2, "%s.sizes", what);
            if (numbers(v[SIZES], w2, d->sizes, FLOE_SIEVE_MAX_POINTS, &n1)) return -1;
            snprintf(w2, sizeof w2, "%s.passing", what);
            if (numbers(v[PASSING], w2, d->passing, FLOE_SIEVE_MAX_POINTS, &n2)) return -1;
            if (n1 != n2) {
                PyErr_Format(ArgumentError, "%s: %d sizes but %d passing fractions (need one per size)", what, n1, n2);
                return -1;
            }
            const char *by = PyUnicode_Check(v[BY]) ? PyUnicode_AsUTF8(v[BY]) : NULL;
            if (!by || (strcmp(by, "mass") && strcmp(by, "number"))) {
                PyErr_Format(ArgumentError, "%s.by: expected 'mass' or 'number'", what);
                return -1;
            }
            d->npts = n1;
            d->by_mass = !strcmp(by, "mass");
            d->min = n1 ? d->sizes[0] : 0;
            d->max = n1 ? d->sizes[n1 - 1] : 0;
        } else {
            if (need(v[MIN], what, "min") || need(v[MAX], what, "max") || floe_py_double(v[MIN], what, &d->min) ||
                floe_py_double(v[MAX], what, &d->max))
                return -1;
            if (kind == FLOE_DIST_NORMAL &&
                (need(v[MEAN], what, "mean") || need(v[STD], what, "std") || floe_py_double(v[MEAN], what, &d->mu) ||
                 floe_py_double(v[STD], what, &d->sigma)))
                return -1;
            if (kind == FLOE_DIST_LOGNORMAL) {
                double m;
                if (need(v[SIGMA], what, "sigma") || floe_py_double(v[SIGMA], what, &d->sigma)) return -1;
                if (!v[MEDIAN] == !v[MEAN]) {
                    PyErr_Format(ArgumentError, "%s: a lognormal distribution takes one of median, mean", what);
                    return -1;
                }
                if (floe_py_double(v[MEDIAN] ? v[MEDIAN] : v[MEAN], what, &m)) return -1;
                if (!(m > 0 && m <= 1e12)) {
                    floe_py_arg_error("%s.%s: %g is out of range (0, 1e12]", what, v[MEDIAN] ? "median" : "mean", m);
                    return -1;
                }
                /* mean = median exp(sigma^2 / 2) */
                d->mu = v[MEDIAN] ? log(m) : log(m) - 0.5 * d->sigma * d->sigma;
            }
        }
    } else if (PyFloat_Check(o) || PyLong_Check(o)) {
        if (floe_py_double(o, what, &d->min)) return -1;
        d->max = d->min;
    } else {
        PyObject *seq = PySequence_Fast(o, "");
        if (!seq || PySequence_Fast_GET_SIZE(seq) != 2) {
            Py_XDECREF(seq);
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected a number, a range (min, max) or a dict(dist=...)", what);
            return -1;
        }
        int rc = floe_py_double(PySequence_Fast_GET_ITEM(seq, 0), what, &d->min) ||
                 floe_py_double(PySequence_Fast_GET_ITEM(seq, 1), what, &d->max);
        Py_DECREF(seq);
        if (rc) return -1;
    }
    char err[256];
    if (floe_size_dist_check(d, err, sizeof err)) {
        PyErr_Format(ArgumentError, "%s: %s", what, err);
        return -1;
    }
    return 0;
}

/* ---- inlets --------------------------------------------------------------------------- */

static PyObject *World_add_inlet(World *self, PyObject *args, PyObject *kw) {
    const char *name;
    floe_inlet_def d = floe_default_inlet_def();
    if (floe_py_open(self) || floe_py_keys(self, args, kw, "add_inlet", floe_key_table_find("inlets"), &d, &name, NULL))
        return NULL;
    int id = floe_add_inlet(self->sc.world, name, &d);
    if (id < 0) return floe_py_status(self, FLOE_ERR_ARG);
    return PyLong_FromLong(id);
}

static PyObject *World_inlets(World *self, PyObject *unused) {
    (void)unused;
    if (floe_py_open(self)) return NULL;
    floe_world *w = self->sc.world;
    int n = floe_inlet_count(w);
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        floe_inlet_stats s;
        if (floe_py_check(self, floe_inlet_get(w, i, &s, NULL))) {
            Py_DECREF(l);
            return NULL;
        }
        PyObject *d = Py_BuildValue("{s:s,s:L,s:d,s:d,s:d,s:L,s:L,s:O}", "name", s.name, "inserted",
                                    (long long)s.inserted, "mass", s.mass, "asked", s.asked, "missed", s.missed,
                                    "tries", (long long)s.tries, "failures", (long long)s.failures, "short_of_rate",
                                    s.short_of_rate ? Py_True : Py_False);
        if (!d) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, d);
    }
    return l;
}

/* ---- sinks ---------------------------------------------------------------------------- */

static PyObject *World_add_sink(World *self, PyObject *args, PyObject *kw) {
    const char *name;
    floe_sink_def d = floe_default_sink_def();
    if (floe_py_open(self) || floe_py_keys(self, args, kw, "add_sink", floe_key_table_find("sinks"), &d, &name, NULL))
        return NULL;
    int id = floe_add_sink(self->sc.world, name, &d);
    if (id < 0) return floe_py_status(self, FLOE_ERR_ARG);
    return PyLong_FromLong(id);
}

static PyObject *World_sinks(World *self, PyObject *unused) {
    (void)unused;
    if (floe_py_open(self)) return NULL;
    floe_world *w = self->sc.world;
    int n = floe_sink_count(w);
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        floe_sink_stats s;
        if (floe_py_check(self, floe_sink_get(w, i, &s, NULL))) {
            Py_DECREF(l);
            return NULL;
        }
        PyObject *d = Py_BuildValue("{s:s,s:L,s:d,s:d}", "name", s.name, "removed", (long long)s.removed, "mass",
                                    s.mass, "energy", s.energy);
        if (!d) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, d);
    }
    return l;
}

/* ---- removal -------------------------------------------------------------------------- */

static PyObject *World_remove(World *self, PyObject *arg) {
    if (floe_py_open(self)) return NULL;
    PyArrayObject *a = floe_py_ids(arg, "remove(ids)", 0);
    if (!a) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) return NULL; /* float ids: said so */
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "remove(ids): expected a particle id or a sequence of ids");
        return NULL;
    }
    npy_intp n = PyArray_SIZE(a);
    const int64_t *src = PyArray_DATA(a);
    floe_world *w = self->sc.world;
    int count = floe_particle_count(w);
    int *ids = malloc((size_t)(n > 0 ? n : 1) * sizeof *ids);
    if (!ids) {
        Py_DECREF(a);
        return PyErr_NoMemory();
    }
    for (npy_intp i = 0; i < n; i++) {
        if (src[i] < 0 || src[i] >= count) {
            PyErr_Format(ArgumentError, "remove: id %lld (entry %zd) is out of range [0, %d)", (long long)src[i],
                         (Py_ssize_t)i, count);
            free(ids);
            Py_DECREF(a);
            return NULL;
        }
        ids[i] = (int)src[i];
    }
    Py_DECREF(a);
    if (n > 0 && self->anchor) {
        free(ids);
        PyErr_SetString(FloeError, "remove: numpy views of the particle arrays are alive, and removal shifts the ids "
                                   "of the bodies after a removed one (the views' rows would show other bodies); "
                                   "delete the views first (del ...), or read copies (np.array(w.positions))");
        return NULL;
    }
    double energy = 0;
    floe_status st = n > 0 ? floe_remove_bodies(w, ids, (int)n, &energy) : FLOE_OK;
    free(ids);
    if (floe_py_check(self, st)) return NULL;
    return PyFloat_FromDouble(energy);
}

/* ---- the dense generator -------------------------------------------------------------- */

static PyObject *World_add_dense(World *self, PyObject *args, PyObject *kw) {
    const floe_key_table *t = floe_dense_key_table();
    PyObject *own[32];
    floe_dense_def dd = floe_default_dense_def();
    if (floe_py_open(self) || floe_py_keys(self, args, kw, "add_dense", t, &dd, NULL, own)) return NULL;
#define OWN(key) own[floe_key_index(t, key)]
    PyObject *ro = OWN("radius"), *mo = OWN("material"), *go = OWN("group"), *vo = OWN("vel"), *avo = OWN("angvel");
#undef OWN
    floe_size_dist dist;
    if (floe_py_size(ro, "radius", &dist)) return NULL;
    if (dist.kind == FLOE_DIST_UNIFORM) {
        dd.rmin = dist.min;
        dd.rmax = dist.max;
    } else dd.dist = &dist;
    double hi_f = dd.rmin == dd.rmax && !dd.dist ? FLOE_DENSE_MONO_MAX : 0.9;
    if (!(dd.target > 0 && dd.target <= hi_f)) {
        floe_py_arg_error("solid_fraction: %g is out of range (0, %g]%s", dd.target, hi_f,
                          hi_f < 0.9 ? " (no packing of equal spheres is denser than pi/sqrt(18))" : "");
        return NULL;
    }
    floe_body_def d = floe_default_body_def();
    if (floe_py_material(self, mo, &d.material) || floe_py_groups(self, go, &d.groups) ||
        (GIVEN(vo) && floe_py_vec3(vo, "vel", &d.vel)) || (GIVEN(avo) && floe_py_vec3(avo, "angvel", &d.angvel)))
        return NULL;
    for (uint32_t m = d.groups; m; m &= m - 1)
        if (floe_group_motion(self->sc.world, __builtin_ctz(m), NULL) == 1) d.blocked = FLOE_DOF_ALL;
    floe_gen_env env; /* the world's cell; Ctrl-C */
    if (floe_py_gen_env(self, &env)) return NULL;
    dd.env = &env;
    floe_vec3 *pos = NULL;
    double *rad = NULL;
    floe_dense_info info;
    char err[768];
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = floe_gen_dense(&dd, &pos, &rad, &info, err, sizeof err);
    Py_END_ALLOW_THREADS if (rc) {
        free(pos);
        free(rad);
        if (!PyErr_Occurred()) PyErr_Format(ArgumentError, "add_dense: %s", err); /* else KeyboardInterrupt */
        return NULL;
    }
    floe_world *w = self->sc.world;
    PyObject *result = NULL;
    if (floe_py_room(self, info.count)) goto done;
    int first = floe_particle_count(w);
    int64_t i = 0;
    for (; i < info.count; i++) {
        d.pos = pos[i];
        if (floe_add_sphere(w, &d, rad[i]) < 0) break;
    }
    if (i < info.count) {
        PyErr_Format(ArgumentError, "add_dense: sphere %lld of %lld refused (the %lld before it stay): %s",
                     (long long)i, (long long)info.count, (long long)i, floe_last_error(w));
        goto done;
    }
    npy_intp n = (npy_intp)info.count;
    result = PyArray_SimpleNew(1, &n, NPY_INT64);
    if (result) {
        int64_t *ids = PyArray_DATA((PyArrayObject *)result);
        for (npy_intp k = 0; k < n; k++) ids[k] = first + k;
    }
done:
    free(pos);
    free(rad);
    return result;
}

#define KW (PyCFunction)(void (*)(void))

PyMethodDef floe_py_supply_methods[] = {
    {"add_inlet", KW World_add_inlet, METH_VARARGS | METH_KEYWORDS,
     "add_inlet(name, *, box=None, cylinder=None, triangles=None, rate=None, mass_rate=None, start=0,\n"
     "          end=inf, shape='sphere', radius=None, shaft=None, semi_axes=None, vel=None, vel_spread=0,\n"
     "          material=None, group=None, seed=0, max_tries=100, recycle=None) -> int\n\n"
     "An inlet (docs/supply.md; the scene's `inlets` keys): inserts bodies while the world runs,\n"
     "rate bodies/s or mass_rate kg/s, centres uniform in one region: box=((lo), (hi)),\n"
     "cylinder=dict(base=, axis=, radius=) or triangles (n, 3, 3). A size (radius, shaft, each of\n"
     "semi_axes) is a number, a range (min, max) or dict(dist='uniform'|'normal'|'lognormal'|'sieve',\n"
     "...). recycle='sink' re-inserts what that sink removes (mass_rate=True: its mass). Returns the id."},
    {"inlets", (PyCFunction)World_inlets, METH_NOARGS,
     "inlets() -> list of dicts\n\nEach inlet's totals: name, inserted, mass, asked, missed, tries, failures,\n"
     "short_of_rate."},
    {"add_sink", KW World_add_sink, METH_VARARGS | METH_KEYWORDS,
     "add_sink(name, *, box=None, plane=None, group=None, start=0, end=inf) -> int\n\n"
     "A sink (the scene's `sinks` keys): after each step removes every free body of `group` (or all)\n"
     "whose centre is in box=((lo), (hi)) or beyond plane=(point, normal) (the side the normal points\n"
     "to). Ids of later bodies drop. Returns the id."},
    {"sinks", (PyCFunction)World_sinks, METH_NOARGS,
     "sinks() -> list of dicts\n\nEach sink's totals: name, removed, mass, energy (J taken out of the balance)."},
    {"remove", (PyCFunction)World_remove, METH_O,
     "remove(ids) -> float\n\n"
     "Removes the bodies ids (spheres, capsules, ellipsoids; each once): the ids after a removed one\n"
     "drop. Returns the energy the bodies took out of the balance [J]. Raises FloeError while numpy\n"
     "views are alive (their rows would shift)."},
    {"add_dense", KW World_add_dense, METH_VARARGS | METH_KEYWORDS,
     "add_dense(*, box=None, cylinder=None, radius, solid_fraction, count=0, max_overlap=0.01,\n"
     "          max_iterations=200000, seed=0, material=None, group=None, vel=None, angvel=None)\n"
     "    -> ndarray of ids\n\n"
     "A dense sphere packing by radius expansion (the scene's `dense` generator) in box=((lo), (hi))\n"
     "or cylinder=dict(base=, radius=, height=) along z: radius a number, (min, max) or dict(dist=...),\n"
     "all scaled so that the spheres' volume is solid_fraction of the region's. A packing that does not\n"
     "relax below max_overlap raises ArgumentError with what it reached."},
    {NULL, NULL, 0, NULL}};
