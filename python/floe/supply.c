/* The World's supply methods (docs/supply.md): inlets and sinks, removal of
 * bodies, and the dense packing generator (docs/scene-format.md#dense).
 * Keywords mirror the scene's `inlets`, `sinks` and `dense` keys.
 *
 * Views (docs/python.md, "Views"): removal shifts the ids of the bodies
 * after a removed one, so it ends the generation of the views taken before
 * (view.c: they raise StaleViewError when used); inlets fill the arrays
 * only up to the room the views keep (run.c sets the particle budget). */
#include "_floe.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GIVEN(o) ((o) && (o) != Py_None)

/* ---- shared argument helpers ---------------------------------------------------------- */

/* box=((xmin, ymin, zmin), (xmax, ymax, zmax)) */
static int box_from(PyObject *o, const char *what, floe_vec3 *lo, floe_vec3 *hi) {
    PyObject *seq = PySequence_Fast(o, "");
    if (!seq || PySequence_Fast_GET_SIZE(seq) != 2 || floe_py_vec3(PySequence_Fast_GET_ITEM(seq, 0), what, lo) ||
        floe_py_vec3(PySequence_Fast_GET_ITEM(seq, 1), what, hi)) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected two corners ((xmin, ymin, zmin), (xmax, ymax, zmax))", what);
        }
        Py_XDECREF(seq);
        return -1;
    }
    Py_DECREF(seq);
    return 0;
}

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
static int size_from(PyObject *o, const char *what, floe_size_dist *d) {
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

static int shape_from(const char *name, const char *fn, floe_shape_type *shape) {
    *shape = !strcmp(name, "sphere")      ? FLOE_SHAPE_SPHERE
             : !strcmp(name, "capsule")   ? FLOE_SHAPE_CAPSULE
             : !strcmp(name, "ellipsoid") ? FLOE_SHAPE_ELLIPSOID
                                          : FLOE_SHAPE_COUNT;
    if (*shape != FLOE_SHAPE_COUNT) return 0;
    PyErr_Format(ArgumentError, "%s: unknown shape '%s'; allowed: sphere, capsule, ellipsoid", fn, name);
    return -1;
}

static int one_region(const char *fn, int n, const char *which) {
    if (n == 1) return 0;
    PyErr_Format(ArgumentError, "%s: give one region (%s), got %d", fn, which, n);
    return -1;
}

/* ---- inlets --------------------------------------------------------------------------- */

static PyObject *World_add_inlet(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"name",     "box",   "cylinder", "triangles", "rate",      "mass_rate", "start",
                             "end",      "shape", "radius",   "shaft",     "semi_axes", "vel",       "vel_spread",
                             "material", "group", "seed",     "max_tries", "recycle",   NULL};
    const char *name, *shape_name = "sphere";
    PyObject *bo = NULL, *co = NULL, *to = NULL, *ro_ = NULL, *mro = NULL, *rad = NULL, *sho = NULL, *ao = NULL,
             *vo = NULL, *mo = NULL, *go = NULL, *seed_o = NULL, *tries_o = NULL, *rec = NULL;
    floe_inlet_def d = floe_default_inlet_def();
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "s|$OOOOOddsOOOOdOOOOO:add_inlet", kwlist, &name, &bo, &co, &to, &ro_,
                                     &mro, &d.t_start, &d.t_end, &shape_name, &rad, &sho, &ao, &vo, &d.vel_spread, &mo,
                                     &go, &seed_o, &tries_o, &rec))
        return NULL;
    floe_world *w = self->sc.world;
    const char *fn = "add_inlet";
    if (one_region(fn, GIVEN(bo) + GIVEN(co) + GIVEN(to), "box=, cylinder= or triangles=")) return NULL;
    if (GIVEN(bo)) {
        d.region = FLOE_REGION_BOX;
        if (box_from(bo, "box", &d.lo, &d.hi)) return NULL;
    } else if (GIVEN(co)) {
        static const char *const names[] = {"base", "axis", "radius"};
        PyObject *v[3];
        d.region = FLOE_REGION_CYLINDER;
        if (dict_keys(co, "cylinder", names, 3, v) || need(v[0], "cylinder", "base") ||
            need(v[1], "cylinder", "axis") || need(v[2], "cylinder", "radius") ||
            floe_py_vec3(v[0], "cylinder.base", &d.base) || floe_py_vec3(v[1], "cylinder.axis", &d.axis) ||
            floe_py_double(v[2], "cylinder.radius", &d.radius))
            return NULL;
    } else {
        d.region = FLOE_REGION_TRIANGLES;
        PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(to, NPY_DOUBLE, 2, 3, NPY_ARRAY_CARRAY_RO);
        if (!a) return NULL;
        if (PyArray_NDIM(a) == 2) { /* one triangle */
            PyArrayObject *b = (PyArrayObject *)PyArray_Newshape(a, &(PyArray_Dims){(npy_intp[]){1, 3, 3}, 3},
                                                                 NPY_CORDER);
            Py_DECREF(a);
            if (!b) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "triangles: expected triangles of shape (n, 3, 3) or (3, 3)");
                return NULL;
            }
            a = b;
        }
        npy_intp n = PyArray_DIM(a, 0);
        if (PyArray_DIM(a, 1) != 3 || PyArray_DIM(a, 2) != 3 || n < 1 || n > FLOE_INLET_MAX_TRIANGLES) {
            PyErr_Format(ArgumentError, "triangles: expected 1 to %d triangles of shape (3, 3)",
                         FLOE_INLET_MAX_TRIANGLES);
            Py_DECREF(a);
            return NULL;
        }
        const double *t = PyArray_DATA(a);
        d.ntri = (int)n;
        for (npy_intp i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                d.tri[i][k] = (floe_vec3){t[9 * i + 3 * k], t[9 * i + 3 * k + 1], t[9 * i + 3 * k + 2]};
        Py_DECREF(a);
    }
    if (GIVEN(rec)) {
        if (!PyUnicode_Check(rec)) {
            PyErr_SetString(PyExc_TypeError, "recycle: expected a sink's name");
            return NULL;
        }
        d.recycle = floe_find_sink(w, PyUnicode_AsUTF8(rec));
        if (d.recycle < 0) {
            PyErr_Format(ArgumentError, "recycle: unknown sink '%U' (add it first with add_sink)", rec);
            return NULL;
        }
        /* as in the scene: rate is then optional (unused); mass_rate (any value) recycles by mass */
        d.by_mass = GIVEN(mro);
        d.rate = 1;
    } else {
        if (GIVEN(ro_) == GIVEN(mro)) {
            PyErr_Format(ArgumentError, "add_inlet: give one of rate= (bodies/s) or mass_rate= (kg/s), got %s",
                         GIVEN(ro_) ? "both" : "neither");
            return NULL;
        }
        d.by_mass = GIVEN(mro);
        if (floe_py_double(GIVEN(ro_) ? ro_ : mro, GIVEN(ro_) ? "rate" : "mass_rate", &d.rate)) return NULL;
    }
    floe_shape_type shape;
    if (shape_from(shape_name, fn, &shape)) return NULL;
    d.shape = shape;
    if (floe_py_shape_sizes("add_inlet", shape_name, shape, GIVEN(rad), GIVEN(sho), GIVEN(ao))) return NULL;
    if (GIVEN(rad) && size_from(rad, "radius", &d.size[0])) return NULL;
    if (GIVEN(sho) && size_from(sho, "shaft", &d.size[1])) return NULL;
    if (GIVEN(ao)) {
        PyObject *s3 = PySequence_Fast(ao, "");
        if (!s3 || PySequence_Fast_GET_SIZE(s3) != 3) {
            Py_XDECREF(s3);
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "semi_axes: expected 3 sizes (a, b, c)");
            return NULL;
        }
        static const char *const sn[] = {"semi_axes[0]", "semi_axes[1]", "semi_axes[2]"};
        for (int k = 0; k < 3; k++)
            if (size_from(PySequence_Fast_GET_ITEM(s3, k), sn[k], &d.size[k])) {
                Py_DECREF(s3);
                return NULL;
            }
        Py_DECREF(s3);
    }
    if (GIVEN(vo) && floe_py_vec3(vo, "vel", &d.vel)) return NULL;
    if (GIVEN(mo) && floe_py_material(self, mo, &d.material)) return NULL;
    if (GIVEN(go) && floe_py_groups(self, go, &d.groups)) return NULL;
    long long v;
    if (GIVEN(seed_o)) {
        if (floe_py_int(seed_o, "seed", 0, INT64_MAX, &v)) return NULL;
        d.seed = (uint64_t)v;
    }
    if (GIVEN(tries_o)) {
        if (floe_py_int(tries_o, "max_tries", 1, 1000000, &v)) return NULL;
        d.max_tries = (int)v;
    }
    int id = floe_add_inlet(w, name, &d);
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
    static char *kwlist[] = {"name", "box", "plane", "group", "start", "end", NULL};
    const char *name;
    PyObject *bo = NULL, *po = NULL, *go = NULL;
    floe_sink_def d = floe_default_sink_def();
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "s|$OOOdd:add_sink", kwlist, &name, &bo, &po, &go, &d.t_start, &d.t_end))
        return NULL;
    if (one_region("add_sink", GIVEN(bo) + GIVEN(po), "box= or plane=")) return NULL;
    if (GIVEN(bo)) {
        d.region = FLOE_REGION_BOX;
        if (box_from(bo, "box", &d.lo, &d.hi)) return NULL;
    } else {
        d.region = FLOE_REGION_HALFSPACE;
        if (PyDict_Check(po)) {
            static const char *const names[] = {"point", "normal"};
            PyObject *v[2];
            if (dict_keys(po, "plane", names, 2, v) || need(v[0], "plane", "point") || need(v[1], "plane", "normal") ||
                floe_py_vec3(v[0], "plane.point", &d.point) || floe_py_vec3(v[1], "plane.normal", &d.normal))
                return NULL;
        } else {
            PyObject *seq = PySequence_Fast(po, "");
            if (!seq || PySequence_Fast_GET_SIZE(seq) != 2 ||
                floe_py_vec3(PySequence_Fast_GET_ITEM(seq, 0), "plane.point", &d.point) ||
                floe_py_vec3(PySequence_Fast_GET_ITEM(seq, 1), "plane.normal", &d.normal)) {
                if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
                    PyErr_Clear();
                    PyErr_SetString(PyExc_TypeError, "plane: expected (point, normal) or dict(point=, normal=)");
                }
                Py_XDECREF(seq);
                return NULL;
            }
            Py_DECREF(seq);
        }
    }
    if (GIVEN(go) && floe_py_group(self, go, 0, &d.group)) return NULL;
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
    double energy = 0;
    floe_status st = n > 0 ? floe_remove_bodies(w, ids, (int)n, &energy) : FLOE_OK;
    free(ids);
    if (floe_py_check(self, st)) return NULL;
    if (n > 0) floe_py_bodies_removed(self); /* the views taken before show shifted rows: stale */
    return PyFloat_FromDouble(energy);
}

/* ---- the dense generator -------------------------------------------------------------- */

static PyObject *World_add_dense(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"box",         "cylinder",       "radius", "solid_fraction", "count",
                             "max_overlap", "max_iterations", "seed",   "material",       "group",
                             "vel",         "angvel",         NULL};
    PyObject *bo = NULL, *co = NULL, *ro = NULL, *count_o = NULL, *iter_o = NULL, *seed_o = NULL, *mo = NULL,
             *go = NULL, *vo = NULL, *avo = NULL;
    floe_dense_def dd = {0};
    dd.max_overlap = 0.01;
    dd.max_iterations = 200000;
    dd.target = -1;
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "|$OOOdOdOOOOOO:add_dense", kwlist, &bo, &co, &ro, &dd.target, &count_o,
                                     &dd.max_overlap, &iter_o, &seed_o, &mo, &go, &vo, &avo))
        return NULL;
    if (one_region("add_dense", GIVEN(bo) + GIVEN(co), "box= or cylinder=")) return NULL;
    if (!GIVEN(ro) || dd.target < 0) {
        PyErr_Format(ArgumentError, "add_dense: %s= is required", GIVEN(ro) ? "solid_fraction" : "radius");
        return NULL;
    }
    if (GIVEN(bo)) {
        dd.region = FLOE_DENSE_BOX;
        if (box_from(bo, "box", &dd.lo, &dd.hi)) return NULL;
        if (!(dd.lo.x < dd.hi.x && dd.lo.y < dd.hi.y && dd.lo.z < dd.hi.z)) {
            PyErr_SetString(ArgumentError, "box: need min < max on every axis");
            return NULL;
        }
    } else {
        static const char *const names[] = {"base", "radius", "height"};
        PyObject *v[3];
        dd.region = FLOE_DENSE_CYLINDER;
        if (dict_keys(co, "cylinder", names, 3, v) || need(v[0], "cylinder", "base") ||
            need(v[1], "cylinder", "radius") || need(v[2], "cylinder", "height") ||
            floe_py_vec3(v[0], "cylinder.base", &dd.base) || floe_py_double(v[1], "cylinder.radius", &dd.radius) ||
            floe_py_double(v[2], "cylinder.height", &dd.height))
            return NULL;
        if (!(dd.radius > 0 && dd.radius <= 1e12) || !(dd.height > 0 && dd.height <= 1e12)) {
            floe_py_arg_error("cylinder: radius %g and height %g must be in (0, 1e12] m", dd.radius, dd.height);
            return NULL;
        }
        dd.lo = (floe_vec3){dd.base.x - dd.radius, dd.base.y - dd.radius, dd.base.z};
        dd.hi = (floe_vec3){dd.base.x + dd.radius, dd.base.y + dd.radius, dd.base.z + dd.height};
    }
    floe_size_dist dist;
    if (size_from(ro, "radius", &dist)) return NULL;
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
    if (!(dd.max_overlap > 0 && dd.max_overlap <= 0.5)) {
        floe_py_arg_error("max_overlap: %g is out of range (0, 0.5]", dd.max_overlap);
        return NULL;
    }
    long long v;
    if (GIVEN(count_o)) {
        if (floe_py_int(count_o, "count", 0, 200000000, &v)) return NULL;
        dd.count = v;
    }
    if (GIVEN(iter_o)) {
        if (floe_py_int(iter_o, "max_iterations", 1, 1000000000, &v)) return NULL;
        dd.max_iterations = v;
    }
    if (GIVEN(seed_o)) {
        if (floe_py_int(seed_o, "seed", 0, INT64_MAX, &v)) return NULL;
        dd.seed = (uint64_t)v;
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
     "drop. Returns the energy the bodies took out of the balance [J]. Numpy views taken before are\n"
     "stale from now on (their rows would shift): using one raises floe.StaleViewError."},
    {"add_dense", KW World_add_dense, METH_VARARGS | METH_KEYWORDS,
     "add_dense(*, box=None, cylinder=None, radius, solid_fraction, count=0, max_overlap=0.01,\n"
     "          max_iterations=200000, seed=0, material=None, group=None, vel=None, angvel=None)\n"
     "    -> ndarray of ids\n\n"
     "A dense sphere packing by radius expansion (the scene's `dense` generator) in box=((lo), (hi))\n"
     "or cylinder=dict(base=, radius=, height=) along z: radius a number, (min, max) or dict(dist=...),\n"
     "all scaled so that the spheres' volume is solid_fraction of the region's. A packing that does not\n"
     "relax below max_overlap raises ArgumentError with what it reached."},
    {NULL, NULL, 0, NULL}};
